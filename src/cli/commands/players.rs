//! `qiwang players`, `qiwang player add | edit | withdraw`

use crate::cli::args::PlayerFields;
use crate::cli::context::{Ctx, lib_error, resolve_player, resolve_pool, tx_error};
use crate::cli::error::CliError;
use qiwang::i18n::{Localize, bi};
use qiwang::registration::{PlayerEntry, add_player_on, edit_player};
use qiwang::store::action::Action;

pub fn list(ctx: &Ctx, group: Option<&str>) -> Result<(), CliError> {
    let loaded = ctx.load_shown()?;
    // A section (残疾人组) lists its own players; a pool lists everyone paired in it.
    let pool = match group.and_then(|g| loaded.rules.find_group(g)) {
        Some(rule) if rule.pairs_with.is_some() => Some(rule.id.clone()),
        _ if group.is_some() => Some(resolve_pool(&loaded.rules, &loaded.event, group)?),
        _ => None,
    };
    let lang = ctx.lang(&loaded.rules);
    let report = qiwang::views::players(
        &loaded.event,
        &loaded.rules,
        pool.as_ref(),
        lang,
        ctx.show_private,
        ctx.json(),
    );
    ctx.print(&report)
}

/// The options as the library's entry: each field as typed.
fn entry(f: PlayerFields) -> PlayerEntry {
    PlayerEntry {
        name: f.name,
        gender: f.gender,
        unit: f.unit,
        group: f.group,
        birth_date: f.birth_date,
        id_number: f.id_number,
        grade: f.grade,
        rating: f.rating,
        disabled: f.disabled,
        local: f.local,
        phone: f.phone,
        title: f.title,
        board: None,
    }
}

pub fn add(
    ctx: &Ctx,
    fields: PlayerFields,
    late: bool,
    board: Option<String>,
) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let entry = PlayerEntry {
        board,
        ..entry(fields)
    };
    // The rulebook's deadline is a day: today's date on this machine decides.
    let today = chrono::Local::now().date_naive();
    let (name, placed) = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let (player, was_late) =
                add_player_on(event, &loaded.rules, &entry, today, late).map_err(lib_error)?;
            // An entry for a group merged away was placed where its players went.
            let placed = qiwang::registration::merged_note(&loaded.rules, player);
            // A late entry gets the pool's next free pairing number when it is first paired.
            let action = Action::PlayerAdded {
                player: player.id,
                name: player.shown_name().into_owned(),
                group: player.group.clone(),
                from_round: player.joined_round,
                late: was_late,
            };
            let mut details =
                serde_json::json!({ "player": player.id, "joined_round": player.joined_round });
            if was_late {
                details["late"] = serde_json::Value::Bool(true);
            }
            Ok::<_, CliError>(action.change((player.shown_name().into_owned(), placed), details))
        })
        .map_err(tx_error)?;
    outln!("{}: {name}", lang.pick("已添加棋手", "player added"));
    if let Some(placed) = placed {
        outln!("{}", placed.localize(lang));
    }
    Ok(())
}

/// `player edit`: the fields given replace the player's, and the whole player goes
/// through the import checks again (`qiwang::registration::edit_player`).
pub fn edit(ctx: &Ctx, who: &str, fields: PlayerFields) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let id = resolve_player(&loaded.event, None, who)?.id;
    let changes = entry(fields);
    let summary = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let player = edit_player(event, &loaded.rules, id, &changes).map_err(lib_error)?;
            // A new group merged away: say where the player went.
            let placed = changes
                .group
                .as_ref()
                .and_then(|_| qiwang::registration::merged_note(&loaded.rules, player));
            let action = Action::PlayerEdited {
                player: id,
                name: player.shown_name().into_owned(),
            };
            Ok::<_, CliError>(
                action
                    .clone()
                    .change((action, placed), serde_json::json!({ "player": id })),
            )
        })
        .map_err(tx_error)?;
    let (summary, placed) = summary;
    let names = qiwang::store::action::Names::of(lang, &loaded.rules, &loaded.event);
    outln!(
        "{}{}",
        lang.pick("已修改：", "done: "),
        summary.text(&names)
    );
    if let Some(placed) = placed {
        outln!("{}", placed.localize(lang));
    }
    Ok(())
}

pub fn withdraw(ctx: &Ctx, who: &str, reason: &str) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let id = resolve_player(&loaded.event, None, who)?.id;
    let (name, from) = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let note = Some(reason).filter(|r| !r.trim().is_empty());
            let rounds = event.player(id).map_or(0, |p| {
                qiwang::schedule::rounds_of(event, &loaded.rules, &p.group)
            });
            let from = qiwang::results::withdraw_from_next_round(event, id, rounds, note)
                .map_err(lib_error)?;
            let name = event
                .player(id)
                .map(|p| p.shown_name().into_owned())
                .unwrap_or_default();
            Ok(Action::PlayerWithdrawn {
                player: id,
                name: name.clone(),
                from_round: from,
            }
            .change(
                (name, from),
                serde_json::json!({ "player": id, "from_round": from }),
            ))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        bi!(
            lang,
            zh("已退赛 {name}：自第{from}轮起不再编排"),
            en("withdrawn {name}: not paired from round {from}")
        )
    );
    Ok(())
}

/// `player reinstate`: lifts a withdrawal, made by hand or by the rulebook's forfeit rule,
/// from the next round on (see `qiwang::results::reinstate_player`).
pub fn reinstate(ctx: &Ctx, who: &str) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let id = resolve_player(&loaded.event, None, who)?.id;
    let (name, from) = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            if let Some(p) = event.player(id) {
                qiwang::registration::check_reinstate(event, &loaded.rules, p)
                    .map_err(lib_error)?;
            }
            let from = qiwang::results::reinstate_player(event, id).map_err(lib_error)?;
            let name = event
                .player(id)
                .map(|p| p.shown_name().into_owned())
                .unwrap_or_default();
            Ok(Action::PlayerReinstated {
                player: id,
                name: name.clone(),
                from_round: from,
            }
            .change(
                (name, from),
                serde_json::json!({ "player": id, "from_round": from }),
            ))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        bi!(
            lang,
            zh("已恢复参赛 {name}：自第{from}轮起重新编排"),
            en("reinstated {name}: paired again from round {from}")
        )
    );
    Ok(())
}

/// `qiwang player disqualify P --reason TEXT [--from-round N] [--undo]` (取消比赛资格).
pub fn disqualify(
    ctx: &Ctx,
    who: &str,
    reason: &str,
    from_round: Option<u32>,
    undo: bool,
) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let p = resolve_player(&loaded.event, None, who)?.clone();
    let from = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            if undo {
                qiwang::prizes::undo_disqualification(event, p.id).map_err(lib_error)?;
                return Ok(Action::DisqualificationLifted {
                    player: p.id,
                    name: p.shown_name().into_owned(),
                }
                .change(None, serde_json::json!({ "player": p.id, "undo": true })));
            }
            let from =
                qiwang::prizes::disqualify(event, p.id, reason, from_round).map_err(lib_error)?;
            Ok(Action::PlayerDisqualified {
                player: p.id,
                name: p.shown_name().into_owned(),
                from_round: from,
                reason: reason.trim().to_string(),
            }
            .change(
                Some(from),
                serde_json::json!({ "player": p.id, "from_round": from, "reason": reason.trim() }),
            ))
        })
        .map_err(tx_error)?;
    let name = p.shown_name();
    match from {
        None => outln!(
            "{}",
            bi!(
                lang,
                zh("已撤销对 {name} 的取消资格：自下一轮起恢复编排和排名"),
                en(
                    "disqualification of {name} lifted: paired and ranked again from the next round"
                )
            )
        ),
        // After the group's last round there is no round left not to pair.
        Some(n) if n > qiwang::schedule::rounds_of(&loaded.event, &loaded.rules, &p.group) => {
            outln!(
                "{}",
                bi!(
                    lang,
                    zh("已取消 {name} 的比赛资格：不参加任何名次录取"),
                    en("{name} disqualified: takes no place in any list")
                )
            );
        }
        Some(n) => outln!(
            "{}",
            bi!(
                lang,
                zh("已取消 {name} 的比赛资格：自第{n}轮起不再编排，不参加任何名次录取"),
                en("{name} disqualified: not paired from round {n}, takes no place in any list")
            )
        ),
    }
    Ok(())
}
