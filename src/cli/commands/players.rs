//! `qiwang players`, `qiwang player add | edit | withdraw`

use crate::cli::args::PlayerFields;
use crate::cli::context::{Ctx, resolve_player, resolve_pool, store_error};
use crate::cli::error::{CliError, chain};
use qiwang::i18n::{Localize, Text};
use qiwang::model::{Event, Gender, Player, PlayerStatus};
use qiwang::registration::{ImportOptions, read_registrations};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::{Change, TxError};

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
            let summary = format!(
                "added player {} `{}` to {} from round {}",
                player.id, player.name, player.group, player.joined_round
            );
            let details =
                serde_json::json!({ "player": player.id, "joined_round": player.joined_round });
            let name = player.name.clone();
            event.players.push(player);
            Ok::<_, CliError>(Change::changed(name, summary, details))
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
            let old = event.player(id).cloned().ok_or_else(|| no_player(who))?;
            let mut row = row_of(&old, rules);
            apply(&mut row, &fields);
            let others: Vec<Player> = event.players.iter().filter(|p| p.id != id).cloned().collect();
            let new = validate_row(&row, rules, &others, event)?;
            if new.group != old.group && event.group(&old.group).is_some_and(|g| !g.rounds.is_empty()) {
                return Err(CliError::input(Text::new(
                    format!(
                        "`{}` 已在 {} 中编排：第 1 轮之后棋手不能换组",
                        old.name, old.group
                    ),
                    format!(
                        "`{}` has already been paired in {}: a player cannot change group after round 1",
                        old.name, old.group
                    ),
                )));
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
            let summary = format!("edited player {} `{}`", old.id, updated.name);
            if let Some(slot) = event.player_mut(id) {
                *slot = updated;
            }
            Ok(Change::changed(summary.clone(), summary, serde_json::json!({ "player": id })))
        })
        .map_err(tx_error)?;
    outln!("{}: {summary}", lang.pick("已修改", "done"));
    Ok(())
}

pub fn withdraw(ctx: &Ctx, who: &str, reason: &str) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let id = resolve_player(&loaded.event, None, who)?.id;
    let (name, from) = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let p = event.player(id).cloned().ok_or_else(|| no_player(who))?;
            if p.is_withdrawn() {
                return Err(CliError::input(Text::new(
                    format!("`{}` 已经退赛", p.name),
                    format!("`{}` has already withdrawn", p.name),
                )));
            }
            let state = event.group(&p.group);
            let paired = state.map(|g| g.rounds.len() as u32).unwrap_or(0);
            if let Some(last) = state.and_then(|g| g.last_round())
                && !last.has_results()
                && last.pairing_of(id).is_some()
            {
                return Err(CliError::input(Text::new(
                    format!(
                        "`{}` 已编入第 {} 轮，而该轮还没有成绩：请为该局录入弃权（`-+` 或 `+-`），或用 `qiwang unpair` 撤销后重新编排，然后再退赛",
                        p.name, last.number
                    ),
                    format!(
                        "`{}` is paired in round {} which has no results yet: enter a forfeit (`-+` or `+-`) for that game, or `qiwang unpair` and pair again, then withdraw",
                        p.name, last.number
                    ),
                )));
            }
            let from = paired + 1;
            let reason = if reason.is_empty() {
                lang.pick("自愿退赛", "voluntary").to_string()
            } else {
                reason.to_string()
            };
            if let Some(slot) = event.player_mut(id) {
                slot.status = PlayerStatus::Withdrawn { from_round: from, reason: reason.clone() };
            }
            Ok(Change::changed(
                (p.name.clone(), from),
                format!("withdrew player {} `{}` from round {from}: {reason}", p.id, p.name),
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

/// `player reinstate`: a withdrawal made by hand (a mistake, or a player who comes back)
/// is lifted; the player is paired again from the next round. Played games are unchanged;
/// rounds missed meanwhile stay unplayed. A withdrawal the rulebook's forfeit rule made
/// is lifted by correcting those forfeits instead, or the rule would make it again.
pub fn reinstate(ctx: &Ctx, who: &str) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let id = resolve_player(&loaded.event, None, who)?.id;
    let (name, from) = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let p = event.player(id).cloned().ok_or_else(|| no_player(who))?;
            let PlayerStatus::Withdrawn { reason, .. } = &p.status else {
                return Err(CliError::input(Text::new(
                    format!("`{}` 没有退赛", p.name),
                    format!("`{}` has not withdrawn", p.name),
                )));
            };
            if reason.starts_with(qiwang::results::AUTO_WITHDRAWAL_PREFIX) {
                return Err(CliError::input(Text::new(
                    format!(
                        "`{}` 是按规程的弃权次数自动退赛的：请更正那些弃权的成绩（`qiwang result --round N 台号 结果`），退赛随之取消",
                        p.name
                    ),
                    format!(
                        "`{}` was withdrawn by the rulebook's forfeit rule: correct those forfeit results (`qiwang result --round N TABLE OUTCOME`) and the withdrawal lifts with them",
                        p.name
                    ),
                )));
            }
            let from = event.group(&p.group).map(|g| g.rounds.len() as u32).unwrap_or(0) + 1;
            if let Some(slot) = event.player_mut(id) {
                slot.status = PlayerStatus::Active;
            }
            Ok(Change::changed(
                (p.name.clone(), from),
                format!("reinstated player {} `{}` from round {from}", p.id, p.name),
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

/// A failed transaction: store problems keep their I/O code, command errors theirs.
pub fn tx_error(e: TxError<CliError>) -> CliError {
    match e {
        TxError::Store(e) => store_error(e),
        TxError::Command(e) => e,
    }
}

fn no_player(who: &str) -> CliError {
    CliError::input(Text::new(
        format!("没有棋手 `{who}`"),
        format!("no player `{who}`"),
    ))
}

/// For library errors inside a transaction: invalid input, with the cause chain.
pub fn input_error<E: std::error::Error + qiwang::i18n::Localize>(e: E) -> CliError {
    CliError::input(chain(&e))
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
                qiwang::prizes::undo_disqualification(event, p.id).map_err(input_error)?;
                return Ok(Change::changed(
                    None,
                    format!(
                        "lifted the disqualification of player {} `{}`",
                        p.id, p.name
                    ),
                    serde_json::json!({ "player": p.id, "undo": true }),
                ));
            }
            let from =
                qiwang::prizes::disqualify(event, p.id, reason, from_round).map_err(input_error)?;
            Ok(Change::changed(
                Some(from),
                format!(
                    "disqualified player {} `{}` from round {from}: {}",
                    p.id,
                    p.name,
                    reason.trim()
                ),
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
            )
        }
        (Some(n), Lang::En) => outln!(
            "{} disqualified: not paired from round {n}, takes no place in any list",
            p.name
        ),
    }
    Ok(())
}
