//! `qiwang result`, `qiwang penalty`, `qiwang playoff`

use crate::cli::context::{
    Ctx, Loaded, input_error, player_label, resolve_player, resolve_pool, tx_error,
};
use crate::cli::error::{CliError, cannot_read};
use qiwang::i18n::Text;
use qiwang::results::{self, ResultEntry};
use qiwang::store::Change;
use std::collections::BTreeMap;
use std::path::Path;

pub fn run(
    ctx: &Ctx,
    group: Option<&str>,
    round: Option<u32>,
    from: Option<&Path>,
    args: &[String],
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let pool = match (group, pool_awaiting_results(&rules, &event)) {
        (None, Some(pool)) => pool,
        _ => resolve_pool(&rules, &event, group)?,
    };
    let lang = ctx.lang(&rules);
    // Entries per round (None = the newest round).
    let mut batches: BTreeMap<Option<u32>, Vec<ResultEntry>> = BTreeMap::new();
    if let Some(path) = from {
        // Results sheets come from the same Excel as registrations: UTF-8 or GBK.
        let bytes = std::fs::read(path).map_err(|e| cannot_read(path, &e))?;
        let text = qiwang::registration::decode(&bytes, qiwang::registration::Encoding::Auto)
            .map_err(|e| {
                CliError::input(Text::new(
                    format!("`{}` 第 {} 行：{}", path.display(), e.line, e.message_zh),
                    format!("`{}` line {}: {}", path.display(), e.line, e.message),
                ))
            })?
            .text;
        for (r, entry) in
            results::parse_results_csv(&text, &path.display().to_string()).map_err(input_error)?
        {
            batches.entry(Some(r)).or_default().push(entry);
        }
    }
    if !args.is_empty() {
        let entries = results::parse_result_args(args).map_err(input_error)?;
        batches.entry(round).or_default().extend(entries);
    }
    if batches.is_empty() {
        return Err(CliError::usage(Text::new(
            "没有给出成绩：`qiwang result 台号 结果 …`（例如 `1 r 2 = 3 b`）或 `--from FILE`",
            "no results given: `qiwang result TABLE OUTCOME …` (e.g. `1 r 2 = 3 b`) or `--from FILE`",
        )));
    }
    let messages = store
        .transaction(&ctx.command_info(), |ev| {
            let mut messages = Vec::new();
            let mut shown = Vec::new();
            let mut count = 0;
            for (r, entries) in &batches {
                let report = results::record_results(ev, &rules, &pool, *r, entries).map_err(input_error)?;
                count += entries.len();
                messages.extend(report.messages());
                shown.extend(report.messages_named(lang, &|id| player_label(ev, id)));
            }
            let rounds: Vec<String> = batches
                .keys()
                .map(|r| r.map(|r| r.to_string()).unwrap_or_else(|| "newest".into()))
                .collect();
            Ok(Change::changed(
                shown,
                format!("recorded {count} result(s) in {pool} round {}{}", rounds.join(","), if messages.is_empty() { String::new() } else { format!(": {}", messages.join("; ")) }),
                serde_json::json!({ "group": pool, "entries": batches.iter().map(|(r, e)| serde_json::json!({ "round": r, "entries": e })).collect::<Vec<_>>() }),
            ))
        })
        .map_err(tx_error)?;
    let n: usize = batches.values().map(|b| b.len()).sum();
    outln!(
        "{} {n} {}",
        lang.pick("已记录", "recorded"),
        lang.pick("个结果", "result(s)")
    );
    for m in messages {
        outln!("  {} {m}", lang.pick("注意：", "note:"));
    }
    Ok(())
}

/// Without `--group`, the one pool whose newest round still waits for results.
fn pool_awaiting_results(
    rules: &qiwang::rulebook::Rulebook,
    event: &qiwang::model::Event,
) -> Option<qiwang::model::GroupId> {
    let waiting: Vec<_> = rules
        .pools()
        .filter(|g| {
            event
                .group(&g.id)
                .and_then(|s| s.last_round())
                .is_some_and(|r| !r.is_complete())
        })
        .map(|g| g.id.clone())
        .collect();
    match waiting.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

pub fn penalty(ctx: &Ctx, who: &str, points: Option<i32>, reason: &str) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let player = resolve_player(&event, None, who)?.clone();
    let penalty = store
        .transaction(&ctx.command_info(), |ev| {
            let penalty = results::add_penalty(ev, &rules, player.id, points, reason).map_err(
                |e| match e {
                    results::ResultError::PenaltyPointsNeeded => CliError::usage(Text::of(&e)),
                    e => input_error(e),
                },
            )?;
            Ok::<_, CliError>(Change::changed(
                penalty.clone(),
                format!(
                    "penalty of {} point(s) to {} `{}` after round {}: {reason}",
                    penalty.points, player.id, player.name, penalty.after_round
                ),
                serde_json::json!({ "player": player.id, "points": penalty.points, "reason": reason, "after_round": penalty.after_round }),
            ))
        })
        .map_err(tx_error)?;
    let points = penalty.points;
    outln!(
        "{} {}: -{points} ({reason})",
        lang.pick("已罚分", "penalty recorded for"),
        player.name
    );
    Ok(())
}

pub fn playoff(
    ctx: &Ctx,
    group: Option<&str>,
    names: &[String],
    note: &str,
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let pool = resolve_pool(&rules, &event, group)?;
    let lang = ctx.lang(&rules);
    let mut order = Vec::new();
    for n in names {
        order.push(resolve_player(&event, Some(&pool), n)?.id);
    }
    let earlier = store
        .transaction(&ctx.command_info(), |ev| {
            let earlier = ev
                .playoffs
                .iter()
                .find(|p| p.group == pool)
                .map(|p| p.order.clone());
            results::record_playoff(ev, &rules, &pool, order.clone()).map_err(input_error)?;
            if let Some(p) = ev.playoffs.iter_mut().find(|p| p.group == pool) {
                p.note = note.to_string();
            }
            Ok(Change::changed(
                earlier,
                format!(
                    "recorded playoff in {pool}: {}",
                    order
                        .iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(" > ")
                ),
                serde_json::json!({ "group": pool, "order": order, "note": note }),
            ))
        })
        .map_err(tx_error)?;
    outln!("{}", lang.pick("已记录加赛结果", "playoff recorded"));
    if let Some(before) = earlier.filter(|b| b != &order) {
        let names: Vec<String> = before
            .iter()
            .map(|id| event.player(*id).map_or(id.to_string(), |p| p.name.clone()))
            .collect();
        outln!(
            "{} {}",
            lang.pick(
                "注意：替换了之前记录的加赛名次",
                "note: replaced the playoff recorded before:"
            ),
            names.join(" > ")
        );
    }
    Ok(())
}
