//! `qiwang players`, `qiwang player add | edit | withdraw`

use crate::cli::action::Action;
use crate::cli::args::PlayerFields;
use crate::cli::context::{Ctx, lib_error, resolve_player, resolve_pool, tx_error};
use crate::cli::error::CliError;
use qiwang::i18n::{Localize, Text};
use qiwang::model::{Event, Gender, Player, PlayerId};
use qiwang::registration::{ImportOptions, read_registrations};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::Change;

pub fn list(ctx: &Ctx, group: Option<&str>) -> Result<(), CliError> {
    let loaded = ctx.load()?;
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

/// The registration columns a player is written back as, so that `add` and `edit` go
/// through exactly the checks an imported row does (ID checksum, eligibility, duplicates).
const HEADERS: [&str; 12] = [
    "name",
    "gender",
    "unit",
    "group",
    "birth date",
    "id number",
    "grade",
    "rating",
    "disabled",
    "local",
    "phone",
    "title",
];

fn row_of(p: &Player, rules: &Rulebook) -> Vec<String> {
    let group = p.section.as_ref().unwrap_or(&p.group);
    let group_name = rules
        .group(group)
        .map(|g| g.name.clone())
        .unwrap_or_else(|| group.to_string());
    vec![
        p.name.clone(),
        match p.gender {
            Some(Gender::Male) => "male".into(),
            Some(Gender::Female) => "female".into(),
            None => String::new(),
        },
        p.unit.clone(),
        group_name,
        p.birth_date.map(|d| d.to_string()).unwrap_or_default(),
        p.id_number.clone().unwrap_or_default(),
        p.grade.map(|g| g.to_string()).unwrap_or_default(),
        p.rating.map(|r| r.to_string()).unwrap_or_default(),
        if p.disabled {
            "yes".into()
        } else {
            "no".into()
        },
        if p.local { "yes".into() } else { "no".into() },
        p.phone.clone().unwrap_or_default(),
        p.title.clone().unwrap_or_default(),
    ]
}

fn apply(row: &mut [String], f: &PlayerFields) {
    let set = |slot: &mut String, v: &Option<String>| {
        if let Some(v) = v {
            *slot = v.clone();
        }
    };
    set(&mut row[0], &f.name);
    set(&mut row[1], &f.gender);
    set(&mut row[2], &f.unit);
    set(&mut row[3], &f.group);
    set(&mut row[4], &f.birth_date);
    set(&mut row[5], &f.id_number);
    set(&mut row[6], &f.grade);
    set(&mut row[7], &f.rating);
    set(
        &mut row[8],
        &f.disabled
            .map(|b| if b { "yes".into() } else { "no".into() }),
    );
    set(
        &mut row[9],
        &f.local.map(|b| if b { "yes".into() } else { "no".into() }),
    );
    set(&mut row[10], &f.phone);
    set(&mut row[11], &f.title);
}

/// Validates one player row as the importer would, against the other players.
fn validate_row(
    row: &[String],
    rules: &Rulebook,
    others: &[Player],
    event: &Event,
) -> Result<Player, CliError> {
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    let _ = w.write_record(HEADERS);
    let _ = w.write_record(row);
    let bytes = w.into_inner().unwrap_or_default();
    let mut players = read_registrations(
        &bytes,
        "player",
        &ImportOptions::default(),
        rules,
        others,
        event.next_player_id(),
    )
    .map_err(|e| {
        // Name the option, not the line and column of the internal one-row sheet.
        let problems = |lang: Lang| -> String {
            e.errors
                .iter()
                .map(|r| match &r.column {
                    Some(c) => format!("`--{}`: {}", c.replace(' ', "-"), r.localize(lang)),
                    None => r.localize(lang),
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        CliError::input(Text::new(
            format!(
                "{}\n未做任何修改：请改正选项后重新运行命令",
                problems(Lang::Zh)
            ),
            format!(
                "{}
nothing was changed: correct the option and run the command again",
                problems(Lang::En)
            ),
        ))
    })?;
    players.pop().ok_or_else(|| {
        CliError::input(Text::new(
            "没有给出棋手信息：请用 --name、--group …",
            "no player data given: use --name, --group …",
        ))
    })
}

pub fn add(ctx: &Ctx, fields: PlayerFields) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let rules = &loaded.rules;
    let mut row = vec![String::new(); HEADERS.len()];
    apply(&mut row, &fields);
    let name = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let mut player = validate_row(&row, rules, &event.players, event)?;
            let rounds = event
                .group(&player.group)
                .map(|g| g.rounds.len() as u32)
                .unwrap_or(0);
            player.joined_round = rounds + 1;
            // A late entry gets the pool's next free pairing number when it is first paired.
            let action = Action::PlayerAdded {
                player: player.id,
                name: player.name.clone(),
                group: player.group.clone(),
                from_round: player.joined_round,
            };
            let details =
                serde_json::json!({ "player": player.id, "joined_round": player.joined_round });
            let name = player.name.clone();
            event.players.push(player);
            Ok::<_, CliError>(action.change(name, details))
        })
        .map_err(tx_error)?;
    outln!("{}: {name}", lang.pick("已添加棋手", "player added"));
    Ok(())
}

pub fn edit(ctx: &Ctx, who: &str, fields: PlayerFields) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let rules = &loaded.rules;
    let id = resolve_player(&loaded.event, None, who)?.id;
    let summary = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            apply_edit(event, rules, id, who, &fields)
        })
        .map_err(tx_error)?;
    let names = crate::cli::action::Names::of(lang, &loaded.rules, &loaded.event);
    outln!("{}: {}", lang.pick("已修改", "done"), summary.text(&names));
    Ok(())
}

/// Edits player `id` (named `who` on the command line) on `event`: the edited row goes
/// through the import checks again, and the fields an edit cannot set are kept.
fn apply_edit(
    event: &mut Event,
    rules: &Rulebook,
    id: PlayerId,
    who: &str,
    fields: &PlayerFields,
) -> Result<Change<Action>, CliError> {
    let old = event.player(id).cloned().ok_or_else(|| no_player(who))?;
    let mut row = row_of(&old, rules);
    apply(&mut row, fields);
    let others: Vec<Player> = event
        .players
        .iter()
        .filter(|p| p.id != id)
        .cloned()
        .collect();
    let new = validate_row(&row, rules, &others, event)?;
    let paired = event
        .group(&old.group)
        .is_some_and(|g| !g.rounds.is_empty());
    if new.group != old.group && paired {
        return Err(group_fixed(&old));
    }
    let updated = Player {
        id: old.id,
        number: old.number,
        status: old.status.clone(),
        unranked: old.unranked,
        joined_round: old.joined_round,
        extra: old.extra.clone(),
        ..new
    };
    let action = Action::PlayerEdited {
        player: old.id,
        name: updated.name.clone(),
    };
    if let Some(slot) = event.player_mut(id) {
        *slot = updated;
    }
    Ok(action
        .clone()
        .change(action, serde_json::json!({ "player": id })))
}

/// Refuses moving `player` to another group once their pool has been paired.
fn group_fixed(player: &Player) -> CliError {
    let (name, group) = (&player.name, &player.group);
    CliError::input(Text::new(
        format!("`{name}` 已在 {group} 中编排：第 1 轮之后棋手不能换组"),
        format!(
            "`{name}` has already been paired in {group}: \
             a player cannot change group after round 1"
        ),
    ))
}

pub fn withdraw(ctx: &Ctx, who: &str, reason: &str) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let id = resolve_player(&loaded.event, None, who)?.id;
    let (name, from) = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let note = Some(reason).filter(|r| !r.trim().is_empty());
            let rounds = event
                .player(id)
                .map_or(0, |p| loaded.rules.rounds_for(&p.group));
            let from = qiwang::results::withdraw_from_next_round(event, id, rounds, note)
                .map_err(lib_error)?;
            let name = event.player(id).map(|p| p.name.clone()).unwrap_or_default();
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
    match lang {
        Lang::Zh => outln!("已退赛 {name}：自第{from}轮起不再编排"),
        Lang::En => outln!("withdrawn {name}: not paired from round {from}"),
    }
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
            let from = qiwang::results::reinstate_player(event, id).map_err(lib_error)?;
            let name = event.player(id).map(|p| p.name.clone()).unwrap_or_default();
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
    match lang {
        Lang::Zh => outln!("已恢复参赛 {name}：自第{from}轮起重新编排"),
        Lang::En => outln!("reinstated {name}: paired again from round {from}"),
    }
    Ok(())
}

fn no_player(who: &str) -> CliError {
    CliError::input(Text::new(
        format!("没有棋手 `{who}`"),
        format!("no player `{who}`"),
    ))
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
                    name: p.name.clone(),
                }
                .change(None, serde_json::json!({ "player": p.id, "undo": true })));
            }
            let from =
                qiwang::prizes::disqualify(event, p.id, reason, from_round).map_err(lib_error)?;
            Ok(Action::PlayerDisqualified {
                player: p.id,
                name: p.name.clone(),
                from_round: from,
                reason: reason.trim().to_string(),
            }
            .change(
                Some(from),
                serde_json::json!({ "player": p.id, "from_round": from, "reason": reason.trim() }),
            ))
        })
        .map_err(tx_error)?;
    match (from, lang) {
        (None, Lang::Zh) => outln!("已撤销对 {} 的取消资格：自下一轮起恢复编排和排名", p.name),
        (None, Lang::En) => outln!(
            "disqualification of {} lifted: paired and ranked again from the next round",
            p.name
        ),
        (Some(n), Lang::Zh) => {
            outln!(
                "已取消 {} 的比赛资格：自第{n}轮起不再编排，不参加任何名次录取",
                p.name
            );
        }
        (Some(n), Lang::En) => outln!(
            "{} disqualified: not paired from round {n}, takes no place in any list",
            p.name
        ),
    }
    Ok(())
}
