//! `qiwang pair`, `unpair`, `pairing swap|set`, `check`

use crate::cli::action::{Action, PairedRound, RefusedRound};
use crate::cli::context::{
    Ctx, FormatArg, Loaded, lib_error, player_label, pools_with_rounds, resolve_player,
    resolve_pool, tx_error, xlsx_error,
};
use crate::cli::error::{CliError, ExitCode};
use qiwang::i18n::{Text, number_ranges, plural};
use qiwang::model::{Event, GroupId, Relax, Round};
use qiwang::pairing::{self, PairingError};
use qiwang::report::{Format, Json, Report, Section};
use qiwang::rulebook::{Lang, Rulebook};

/// The seed of a pool: recorded, given, or drawn now (and then recorded).
fn seed_for(event: &Event, pool: &GroupId, given: Option<u64>) -> u64 {
    let recorded = event.group(pool).and_then(|g| g.seed);
    let has_rounds = event.group(pool).is_some_and(|g| !g.rounds.is_empty());
    match (given, recorded) {
        (Some(s), _) if !has_rounds => s,
        (_, Some(s)) => s,
        (Some(s), None) => s,
        (None, None) => u64::from(rand::random::<u32>()),
    }
}

pub fn pair(
    ctx: &Ctx,
    group: Option<&str>,
    seed: Option<u64>,
    dry_run: bool,
    explain: bool,
    allow_small: bool,
    relax: Option<&[String]>,
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        mut rules,
    } = ctx.load()?;
    let relax = relax_for_this_round(&mut rules, relax)?;
    let pool = resolve_pool(&rules, &event, group)?;
    let lang = ctx.lang(&rules);
    if seed.is_some() && event.group(&pool).is_some_and(|g| !g.rounds.is_empty()) {
        return Err(CliError::usage(Text::new(
            "`--seed` 只用于第 1 轮抽签；之后各轮使用当时记录的种子",
            "`--seed` only applies to the round-1 draw; later rounds use the seed recorded then",
        )));
    }
    // Dongguan 九: an under-size pool is merged or cancelled, or paired only on request.
    qiwang::registration::check_pool_size(&event, &rules, &pool, allow_small).map_err(lib_error)?;
    let first_round = event.group(&pool).is_none_or(|g| g.rounds.is_empty());
    let recorded_seed = event.group(&pool).and_then(|g| g.seed);
    // The round-1 draw's seed is fixed before pairing, so that a draw refused for want of
    // a legal pairing is recorded too and the next `pair` (with `--relax`, say) makes the
    // same draw instead of drawing again.
    let draw_seed = first_round.then(|| seed_for(&event, &pool, seed));
    // The pool's next round on `ev`: a copy for a dry run, the stored state otherwise.
    let pair_on = |ev: &mut Event| {
        pair_pool(
            ev,
            &rules,
            &pool,
            draw_seed,
            relax.as_deref(),
            explain,
            lang,
            ctx.json(),
        )
        .map_err(lib_error)
    };
    let attempt = || -> Result<Option<Report>, CliError> {
        Ok(Some(if dry_run {
            let mut after = event.clone();
            let Paired {
                mut sheet, seed: s, ..
            } = pair_on(&mut after)?;
            mark_dry_run(&mut sheet, lang);
            if first_round {
                // The draw a dry run shows is the draw `pair` makes: a seed drawn here is
                // recorded as the pool's seed (and logged), a given one is named for reuse.
                let recorded = recorded_seed.is_some();
                if seed.is_none() && !recorded {
                    record_draw_seed(ctx, &store, &pool, s)?;
                }
                let line = seed_line(s, seed.is_some(), recorded);
                sheet.footer.insert(1, line.get(lang).to_string());
                if let serde_json::Value::Object(map) = &mut sheet.json {
                    map.insert("seed".into(), serde_json::json!(s));
                }
            }
            sheet
        } else {
            // The sheet is made from the state the transaction writes, without reading it back.
            let stored = store
                .transaction(&ctx.command_info(), |ev| {
                    let Paired {
                        sheet,
                        round,
                        seed: s,
                    } = pair_on(ev)?;
                    let pairings = ev
                        .group(&pool)
                        .and_then(|g| g.round(round))
                        .map(|r| r.pairings.clone())
                        .unwrap_or_default();
                    let games = pairings.iter().filter(|p| p.table().is_some()).count();
                    let details = serde_json::json!({
                        "group": pool,
                        "round": round,
                        "seed": s,
                        "pairings": pairings,
                    });
                    // A workbook is made before the round is stored: should it fail (a full
                    // temporary disk), nothing is stored and `pair` can simply be run again.
                    let workbook = if ctx.format_arg == FormatArg::Xlsx {
                        Some(sheet.render_xlsx().map_err(xlsx_error)?)
                    } else {
                        None
                    };
                    Ok(Action::Paired {
                        rounds: vec![PairedRound {
                            group: pool.clone(),
                            round,
                            seed: Some(s),
                            games: Some(games),
                            relax: relax.clone(),
                        }],
                        refused: Vec::new(),
                    }
                    .change((sheet, workbook), details))
                })
                .map_err(tx_error)?;
            if let (_, Some(workbook)) = stored {
                crate::cli::emit_bytes(&workbook);
                return Ok(None);
            }
            stored.0
        }))
    };
    let report = match attempt() {
        Ok(Some(report)) => report,
        Ok(None) => return Ok(()),
        Err(e) if e.code == ExitCode::NoLegalPairing => {
            // A seed given with `--seed` is the arbiter's own: named for reuse, never
            // recorded (as on a dry run that succeeds).
            let new_seed = draw_seed.filter(|_| recorded_seed.is_none() && seed.is_none());
            return Err(refused(ctx, &store, &pool, new_seed, relax.as_deref(), e));
        }
        Err(e) => return Err(e),
    };
    ctx.print(&report)
}

/// Records `s` as `pool`'s round-1 seed (logged), so that the next `pair` makes that draw.
fn record_draw_seed(
    ctx: &Ctx,
    store: &qiwang::store::Store,
    pool: &GroupId,
    s: u64,
) -> Result<(), CliError> {
    store
        .transaction(&ctx.command_info(), |ev| {
            ev.group_mut(pool).seed = Some(s);
            Ok::<_, CliError>(
                Action::SeedsRecorded {
                    seeds: vec![(pool.clone(), s)],
                }
                .change(
                    (),
                    serde_json::json!({ "group": pool, "round": 1, "seed": s }),
                ),
            )
        })
        .map_err(tx_error)
}

/// A round no pairing could be found for: says when the `--relax` list given was not
/// enough, and records a round-1 draw's new seed `new_seed` (a refused draw is kept: the
/// next `pair` makes it again rather than drawing until nothing needs relaxing).
fn refused(
    ctx: &Ctx,
    store: &qiwang::store::Store,
    pool: &GroupId,
    new_seed: Option<u64>,
    relax: Option<&[Relax]>,
    e: CliError,
) -> CliError {
    let recorded = new_seed.filter(|&s| record_draw_seed(ctx, store, pool, s).is_ok());
    refusal_text(e, relax, recorded)
}

/// The refusal `e` of a round, with what the arbiter needs next: the `--relax` list given
/// that was not enough, and the round-1 draw's seed `recorded` for the next `pair`.
fn refusal_text(mut e: CliError, relax: Option<&[Relax]>, recorded: Option<u64>) -> CliError {
    if let Some(list) = relax {
        let given = qiwang::rulebook::relax_list(list);
        e.message.zh = format!(
            "`--relax {given}`（本轮代替规程的 pairing.relax）仍不足以编排：{}",
            e.message.zh
        );
        e.message.en = format!(
            "`--relax {given}` (in place of the rulebook's pairing.relax this round) is not enough: {}",
            e.message.en
        );
    }
    if let Some(s) = recorded {
        e.message.zh.push_str(&format!(
            "\n本次第 1 轮抽签的种子 {s} 已记录：之后的 `qiwang pair` 按同一抽签编排"
        ));
        e.message.en.push_str(&format!(
            "\nthis round-1 draw's seed {s} is recorded: the next `qiwang pair` makes the same draw"
        ));
    }
    e
}

/// `pair --relax`: puts the rules named (`colour`, `team`, `rematch`: the rulebook's own
/// words for `pairing.relax`) in place of the rulebook's list for this command only, and
/// returns them for the log. The rulebook file is not touched.
fn relax_for_this_round(
    rules: &mut Rulebook,
    relax: Option<&[String]>,
) -> Result<Option<Vec<Relax>>, CliError> {
    let Some(names) = relax else {
        return Ok(None);
    };
    // The rulebook's own check of `pairing.relax`, item by item.
    let mut list: Vec<Relax> = Vec::new();
    for name in names {
        let rule = qiwang::rulebook::relax_rule(name, &list).map_err(|why| {
            CliError::usage(Text::new(
                format!("`--relax`：{}", why.zh),
                format!("`--relax`: {}", why.en),
            ))
        })?;
        list.push(rule);
    }
    rules.pairing.relax = list.clone();
    Ok(Some(list))
}

/// One pool's round, paired on an event.
struct Paired {
    sheet: Report,
    round: u32,
    seed: u64,
}

/// Pairs the next round of `pool` on `ev` (a copy for a dry run, the stored state
/// otherwise) with the seed of [`seed_for`]; a round-1 seed is recorded as the pool's
/// (a given one replaces one a dry run recorded). Nothing changes on an error.
#[allow(clippy::too_many_arguments)]
fn pair_pool(
    ev: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    seed: Option<u64>,
    relax: Option<&[Relax]>,
    explain: bool,
    lang: Lang,
    json: Json,
) -> Result<Paired, PairingError> {
    let s = seed_for(ev, pool, seed);
    let plan = pairing::pair_next_round(ev, rules, pool, s)?;
    if plan.round.number == 1 {
        ev.group_mut(pool).seed = Some(s);
    }
    plan.apply(ev, pool, s);
    ev.group_mut(pool)
        .note_relax_given(plan.round.number, relax);
    Ok(Paired {
        sheet: sheet(ev, rules, pool, &plan, explain, lang, json),
        round: plan.round.number,
        seed: s,
    })
}

/// What a dry run of a round-1 draw says of its seed `s`: a given seed is named for
/// reuse; a recorded one (or one drawn now, which the dry run records) is what the next
/// `pair` uses.
fn seed_line(s: u64, given: bool, recorded: bool) -> Text {
    match (given, recorded) {
        (true, _) => Text::new(
            format!("抽签种子：{s}（`qiwang pair --seed {s}` 得到同样的抽签）"),
            format!("draw seed: {s} (`qiwang pair --seed {s}` makes the same draw)"),
        ),
        (false, true) => Text::new(
            format!("抽签种子：{s}（已记录，`qiwang pair` 将使用同一种子）"),
            format!("draw seed: {s} (recorded: `qiwang pair` uses it)"),
        ),
        (false, false) => Text::new(
            format!("抽签种子：{s}（已记录，接下来的 `qiwang pair` 使用同一种子，抽签结果相同）"),
            format!(
                "draw seed: {s} (recorded: the next `qiwang pair` uses it and makes this draw)"
            ),
        ),
    }
}

/// Heads a dry run's sheet with the words that say nothing was stored.
fn mark_dry_run(report: &mut Report, lang: Lang) {
    report.footer.insert(
        0,
        lang.pick("（试排，未保存）", "(dry run: not stored)")
            .into(),
    );
}

/// What `pair --all` did in one pass over the pools.
struct AllPaired {
    sheets: Vec<Report>,
    /// Pools not paired, each with why (for the arbiter).
    waiting: Vec<String>,
    /// `(pool, round, seed)` of every pool paired, for the log.
    paired: Vec<(GroupId, u32, u64)>,
    /// Pools with no legal pairing: why, and a round-1 draw's newly drawn seed.
    blocked: Vec<Blocked>,
    /// Every round-1 seed drawn in this pass (not given, not recorded before), paired or
    /// refused.
    drawn: Vec<(GroupId, u64)>,
}

/// A pool `pair --all` found no legal pairing for.
struct Blocked {
    pool: GroupId,
    round: u32,
    error: PairingError,
    /// The round-1 draw's seed when it was drawn now (not given, not recorded): recorded,
    /// as a refused `pair` records it, so the next `pair` makes the same draw.
    drawn: Option<u64>,
}

/// Pairs the next round of every pool that is ready, in rulebook order, on `ev`. A pool
/// waiting for results, finished, empty or merged is listed with the reason; a pool
/// without a legal pairing is listed among the blocked (the others are still paired).
#[allow(clippy::too_many_arguments)]
fn pair_ready_pools(
    ev: &mut Event,
    rules: &Rulebook,
    seed: Option<u64>,
    relax: Option<&[Relax]>,
    explain: bool,
    allow_small: bool,
    lang: Lang,
    json: Json,
) -> Result<AllPaired, CliError> {
    let name = |id: &GroupId| {
        rules
            .group(id)
            .map_or_else(|| id.to_string(), |g| g.name.clone())
    };
    let mut done = AllPaired {
        sheets: Vec::new(),
        waiting: Vec::new(),
        paired: Vec::new(),
        blocked: Vec::new(),
        drawn: Vec::new(),
    };
    let pools: Vec<GroupId> = rules.pools().map(|g| g.id.clone()).collect();
    for pool in &pools {
        let group = name(pool);
        if let Some(into) = ev.group(pool).and_then(|g| g.merged_into.clone()) {
            done.waiting.push(match lang {
                Lang::Zh => format!("{group}：已并入{}", name(&into)),
                Lang::En => format!("{group}: merged into {}", name(&into)),
            });
            continue;
        }
        if ev.players_in(pool).next().is_none() {
            done.waiting.push(match lang {
                Lang::Zh => format!("{group}：没有棋手"),
                Lang::En => format!("{group}: no players"),
            });
            continue;
        }
        // Dongguan 九: an under-size pool waits to be merged or cancelled.
        if ev.group(pool).is_none_or(|g| g.rounds.is_empty())
            && let Err(e) = qiwang::registration::check_pool_size(ev, rules, pool, allow_small)
        {
            done.waiting.push(format!(
                "{group}{}{}",
                lang.pick("：", ": "),
                qiwang::i18n::Localize::localize(&e, lang)
            ));
            continue;
        }
        // The seed is fixed here so that a refused round-1 draw can be recorded.
        let s = seed_for(ev, pool, seed);
        let drawn = (seed.is_none()
            && ev
                .group(pool)
                .is_none_or(|g| g.rounds.is_empty() && g.seed.is_none()))
        .then_some(s);
        done.drawn.extend(drawn.map(|s| (pool.clone(), s)));
        match pair_pool(ev, rules, pool, Some(s), relax, explain, lang, json) {
            Ok(paired) => {
                done.paired.push((pool.clone(), paired.round, paired.seed));
                done.sheets.push(paired.sheet);
            }
            Err(PairingError::RoundIncomplete { round, missing, .. }) => {
                let tables = number_ranges(&missing, lang);
                done.waiting.push(match lang {
                    Lang::Zh => format!(
                        "{group}：第{round}轮还有 {} 台没有成绩（第 {tables} 台），请先用 `qiwang result` 录入",
                        missing.len()
                    ),
                    Lang::En => format!(
                        "{group}: round {round} still has {} without a result ({tables}); enter them with `qiwang result`",
                        plural(missing.len(), "table", "tables")
                    ),
                });
            }
            Err(PairingError::AllRoundsPlayed { rounds, .. }) => {
                done.waiting.push(match lang {
                    Lang::Zh => format!("{group}：全部 {rounds} 轮已编排"),
                    Lang::En => format!("{group}: all {rounds} rounds are paired"),
                });
            }
            Err(PairingError::NoPlayers { round, .. }) => {
                done.waiting.push(match lang {
                    Lang::Zh => format!("{group}：第{round}轮没有可编排的棋手"),
                    Lang::En => format!("{group}: nobody can be paired in round {round}"),
                });
            }
            Err(error @ PairingError::NoLegalPairing { round, .. }) => {
                done.blocked.push(Blocked {
                    pool: pool.clone(),
                    round,
                    error,
                    drawn,
                });
            }
            Err(e) => return Err(lib_error(e)),
        }
    }
    Ok(done)
}

/// `qiwang pair --all`: the next round of every pool that is ready, in one change, and
/// every sheet; the pools left out are named with the reason.
pub fn pair_all(
    ctx: &Ctx,
    seed: Option<u64>,
    dry_run: bool,
    explain: bool,
    allow_small: bool,
    relax: Option<&[String]>,
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        mut rules,
    } = ctx.load()?;
    let relax = relax_for_this_round(&mut rules, relax)?;
    let lang = ctx.lang(&rules);
    let format = ctx.format()?;
    // The reasons are already in the output language.
    let nothing_ready = |waiting: &[String]| {
        let list = waiting
            .iter()
            .map(|w| format!("  {w}"))
            .collect::<Vec<_>>()
            .join("\n");
        CliError::input(Text::new(
            format!("没有可以编排下一轮的组别：\n{list}"),
            format!("no group is ready for its next round:\n{list}"),
        ))
    };
    // Every ready pool's next round on `ev`: a copy for a dry run, the stored state
    // otherwise.
    let pair_ready = |ev: &mut Event| {
        pair_ready_pools(
            ev,
            &rules,
            seed,
            relax.as_deref(),
            explain,
            allow_small,
            lang,
            ctx.json(),
        )
    };
    let done = if dry_run {
        let mut after = event.clone();
        let mut done = pair_ready(&mut after)?;
        if done.sheets.is_empty() && done.blocked.is_empty() {
            return Err(nothing_ready(&done.waiting));
        }
        for report in &mut done.sheets {
            mark_dry_run(report, lang);
        }
        // Round-1 seeds drawn now, paired or refused, are recorded (logged), so the next
        // `pair --all` makes the same draws.
        if !done.drawn.is_empty() {
            store
                .transaction(&ctx.command_info(), |ev| {
                    Ok::<_, CliError>(seeds_recorded(ev, done.drawn.clone(), ()))
                })
                .map_err(tx_error)?;
        }
        for (report, (pool, round, s)) in done.sheets.iter_mut().zip(&done.paired) {
            if *round == 1 {
                let recorded = event.group(pool).and_then(|g| g.seed).is_some();
                let line = seed_line(*s, seed.is_some(), recorded);
                report.footer.insert(1, line.get(lang).to_string());
                // As `pair --dry-run` of one pool gives it: the draw's seed, for scripts.
                if let serde_json::Value::Object(map) = &mut report.json {
                    map.insert("seed".into(), serde_json::json!(s));
                }
            }
        }
        done
    } else {
        store
            .transaction(&ctx.command_info(), |ev| {
                let done = pair_ready(ev)?;
                if done.sheets.is_empty() && done.blocked.is_empty() {
                    return Err(nothing_ready(&done.waiting));
                }
                // The refused pools' new round-1 seeds are recorded in the same change
                // as the rounds paired: one command, one change, one `undo`.
                let seeds: Vec<(GroupId, u64)> = done
                    .blocked
                    .iter()
                    .filter_map(|b| b.drawn.map(|s| (b.pool.clone(), s)))
                    .collect();
                if done.sheets.is_empty() {
                    // Every ready pool refused: nothing to store but their seeds.
                    if seeds.is_empty() {
                        return Ok(qiwang::store::Change::Unchanged(done));
                    }
                    return Ok(seeds_recorded(ev, seeds, done));
                }
                for (pool, s) in &seeds {
                    ev.group_mut(pool).seed = Some(*s);
                }
                let action = Action::Paired {
                    rounds: done
                        .paired
                        .iter()
                        .map(|(p, r, s)| PairedRound {
                            group: p.clone(),
                            round: *r,
                            seed: Some(*s),
                            games: None,
                            relax: relax.clone(),
                        })
                        .collect(),
                    refused: done
                        .blocked
                        .iter()
                        .map(|b| RefusedRound {
                            group: b.pool.clone(),
                            round: b.round,
                            seed: b.drawn,
                        })
                        .collect(),
                };
                let groups: Vec<serde_json::Value> = done
                    .paired
                    .iter()
                    .map(|(p, r, s)| {
                        let round = ev.group(p).and_then(|g| g.round(*r));
                        let pairings = round.map(|r| r.pairings.clone());
                        serde_json::json!({
                            "group": p,
                            "round": r,
                            "seed": s,
                            "pairings": pairings,
                        })
                    })
                    .collect();
                let mut details = serde_json::json!({ "groups": groups });
                if !seeds.is_empty() {
                    details["seeds"] = seeds_details(&seeds);
                }
                Ok(action.change(done, details))
            })
            .map_err(tx_error)?
    };
    if format == Format::Json {
        // One list of sheets whatever their number: empty when every pool was refused,
        // a list of one when one pool was ready.
        out!("{}", qiwang::views::json_list(&done.sheets));
    } else if !done.sheets.is_empty() {
        ctx.print_rendered(format, &qiwang::views::render_all(&done.sheets, format))?;
    }
    if !done.waiting.is_empty() {
        let head = lang.pick("未编排的组别：", "groups not paired:");
        if format == Format::Table {
            outln!();
            outln!("{head}");
            for w in &done.waiting {
                outln!("  {w}");
            }
        } else {
            crate::cli::emit_err(head);
            for w in &done.waiting {
                crate::cli::emit_err(&format!("  {w}"));
            }
        }
    }
    if done.blocked.is_empty() {
        return Ok(());
    }
    // The pools paired are stored and printed; the refused ones end the command with
    // the refusal's exit code, each with what `pair` alone would have said.
    let refusals: Vec<CliError> = done
        .blocked
        .into_iter()
        .map(|b| refusal_text(lib_error(b.error), relax.as_deref(), b.drawn))
        .collect();
    let join = |pick: fn(&Text) -> &str, sep: &str| {
        refusals
            .iter()
            .map(|e| pick(&e.message))
            .collect::<Vec<_>>()
            .join(sep)
    };
    Err(CliError::new(
        ExitCode::NoLegalPairing,
        Text::new(join(|t| &t.zh, "\n"), join(|t| &t.en, "\n")),
    ))
}

/// Records round-1 draw seeds as their pools' seeds on `ev`: the change, logged with
/// `value` for the command.
fn seeds_recorded<T>(
    ev: &mut Event,
    seeds: Vec<(GroupId, u64)>,
    value: T,
) -> qiwang::store::Change<T> {
    for (pool, s) in &seeds {
        ev.group_mut(pool).seed = Some(*s);
    }
    let details = serde_json::json!({ "seeds": seeds_details(&seeds) });
    Action::SeedsRecorded { seeds }.change(value, details)
}

/// Seeds as the log's details list them: `[{"group": …, "seed": …}, …]`.
fn seeds_details(seeds: &[(GroupId, u64)]) -> serde_json::Value {
    seeds
        .iter()
        .map(|(p, s)| serde_json::json!({ "group": p, "seed": s }))
        .collect()
}

/// The pairing sheet of the round `plan` made, with its explanation under it if asked.
fn sheet(
    after: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    plan: &pairing::PairingPlan,
    explain: bool,
    lang: Lang,
    json: Json,
) -> qiwang::report::Report {
    let number = plan.round.number;
    let mut report = qiwang::views::pairing_sheet(after, rules, pool, number, lang, json);
    if explain {
        // The relaxed rules are the sheet's notes (with or without `--explain`, and on
        // every reprint): the explanation gives only the reasons.
        let lines = plan
            .explanation
            .reasons(lang, &|id| player_label(after, id));
        report
            .footer
            .push(lang.pick("编排说明：", "Why this pairing:").into());
        report.footer.extend(lines.iter().map(|l| format!("  {l}")));
        if let serde_json::Value::Object(map) = &mut report.json {
            map.insert("explanation".into(), serde_json::json!(lines));
        }
    }
    report
}

pub fn unpair(ctx: &Ctx, group: Option<&str>) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let pool = resolve_pool(&rules, &event, group)?;
    let lang = ctx.lang(&rules);
    let n = store
        .transaction(&ctx.command_info(), |ev| {
            let number = qiwang::results::unpair_round(ev, &pool).map_err(lib_error)?;
            Ok(Action::Unpaired {
                group: pool.clone(),
                round: number,
            }
            .change(
                number,
                serde_json::json!({ "group": pool, "round": number }),
            ))
        })
        .map_err(tx_error)?;
    match lang {
        Lang::Zh => outln!("已撤销第{n}轮编排"),
        Lang::En => outln!("dropped round {n}"),
    }
    Ok(())
}

/// The newest round of a pool, if it can still be edited by hand.
fn editable_round(event: &Event, pool: &GroupId) -> Result<Round, CliError> {
    let round = event
        .group(pool)
        .and_then(|g| g.last_round())
        .ok_or_else(|| {
            CliError::input(Text::new(
                format!("组别 `{pool}` 还没有轮次：请先运行 `qiwang pair`"),
                format!("{pool} has no round yet: run `qiwang pair` first"),
            ))
        })?;
    if round.has_results() {
        return Err(CliError::input(Text::new(
            format!(
                "组别 `{pool}` 第 {} 轮已有成绩：只能修改尚未比赛的轮次",
                round.number
            ),
            format!(
                "round {} of {pool} has results: only an unplayed round can be edited",
                round.number
            ),
        )));
    }
    Ok(round.clone())
}

fn store_edit(
    ctx: &Ctx,
    loaded: Loaded,
    pool: GroupId,
    force: bool,
    edit: impl FnOnce(&Event, &Round) -> Result<Round, CliError>,
) -> Result<(), CliError> {
    let Loaded { store, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let report = store
        .transaction(&ctx.command_info(), |ev| {
            let round = editable_round(ev, &pool)?;
            let edited = edit(ev, &round)?;
            let violations = pairing::check_round(ev, &rules, &pool, &edited);
            if !violations.is_empty() && !force {
                return Err(hard_rules_broken(ev, &violations));
            }
            let number = edited.number;
            let forced: Vec<String> = violations.iter().map(ToString::to_string).collect();
            if let Some(slot) = ev.group_mut(&pool).rounds.last_mut() {
                *slot = edited.clone();
            }
            pairing::prune_relaxations(ev, &rules, &pool, number);
            let action = Action::RoundEdited {
                group: pool.clone(),
                round: number,
                forced: violations,
            };
            let report = qiwang::views::pairing_sheet(ev, &rules, &pool, number, lang, ctx.json());
            let details = serde_json::json!({
                "group": pool,
                "round": number,
                "pairings": edited.pairings,
                "forced": forced,
            });
            Ok(action.change(report, details))
        })
        .map_err(tx_error)?;
    ctx.print(&report)
}

/// Refuses a hand edit that breaks hard rules, listing each and naming `--force`.
fn hard_rules_broken(ev: &Event, violations: &[pairing::Violation]) -> CliError {
    let name = |id| player_label(ev, id);
    let list = |l: Lang| {
        violations
            .iter()
            .map(|v| format!("  - {}", v.text(l, &name)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    CliError::input(Text::new(
        format!(
            "这次修改违反了硬性规则：\n{}\n如仍要保存请加 `--force`（会记入日志）",
            list(Lang::Zh)
        ),
        format!(
            "this edit breaks a hard rule:\n{}\nadd `--force` to store it anyway (it is logged)",
            list(Lang::En)
        ),
    ))
}

pub fn swap(ctx: &Ctx, group: Option<&str>, a: &str, b: &str, force: bool) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let pool = resolve_pool(&loaded.rules, &loaded.event, group)?;
    let pa = resolve_player(&loaded.event, Some(&pool), a)?.id;
    let pb = resolve_player(&loaded.event, Some(&pool), b)?.id;
    store_edit(ctx, loaded, pool, force, |_, round| {
        pairing::swap_players(round, pa, pb).map_err(lib_error)
    })
}

pub fn set(
    ctx: &Ctx,
    group: Option<&str>,
    table: u32,
    red: &str,
    black: &str,
    force: bool,
) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let pool = resolve_pool(&loaded.rules, &loaded.event, group)?;
    let r = resolve_player(&loaded.event, Some(&pool), red)?.id;
    let b = resolve_player(&loaded.event, Some(&pool), black)?.id;
    store_edit(ctx, loaded, pool, force, |_, round| {
        pairing::set_pairing(round, table, r, b).map_err(lib_error)
    })
}

pub fn check(ctx: &Ctx, group: Option<&str>) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let pools: Vec<GroupId> = match group {
        Some(_) => vec![resolve_pool(&rules, &event, group)?],
        None => pools_with_rounds(&rules, &event),
    };
    let mut total = 0;
    let mut lines = Vec::new();
    let mut section = Section::new(
        "",
        vec![
            lang.pick("组别", "group").into(),
            lang.pick("轮数", "rounds").into(),
            lang.pick("违规", "violation").into(),
        ],
    )
    .right(&[1]);
    let mut json = Vec::new();
    for pool in &pools {
        let pairing::Checked {
            violations,
            accepted,
        } = pairing::check_group_detailed(&event, &rules, pool);
        let rounds = event.group(pool).map(|g| g.rounds.len()).unwrap_or(0);
        let name = rules
            .group(pool)
            .map_or(pool.to_string(), |g| g.name.clone());
        if violations.is_empty() {
            lines.push(format!(
                "{name}: {rounds} {}",
                lang.pick(
                    "轮，未发现违规",
                    if rounds == 1 {
                        "round, no violation"
                    } else {
                        "rounds, no violation"
                    }
                )
            ));
            if accepted.is_empty() {
                section.push(vec![name.clone(), rounds.to_string(), String::new()]);
            }
        } else {
            lines.push(format!(
                "{name}: {} {}",
                violations.len(),
                lang.pick(
                    "处违规",
                    if violations.len() == 1 {
                        "violation"
                    } else {
                        "violations"
                    }
                )
            ));
            for v in &violations {
                let text = v.text(lang, &|id| player_label(&event, id));
                lines.push(format!("  - {text}"));
                section.push(vec![name.clone(), rounds.to_string(), text]);
            }
        }
        // docs/rules.md §2.5: breaks the engine recorded when no pairing met every hard
        // rule are listed as accepted relaxations, never counted as violations.
        if !accepted.is_empty() {
            lines.push(match lang {
                Lang::Zh => format!(
                    "{name}: {} 处已接受的放宽（没有合规编排时所作的放宽）",
                    accepted.len()
                ),
                Lang::En => format!(
                    "{name}: {} (no pairing met every hard rule)",
                    plural(
                        accepted.len(),
                        "accepted relaxation",
                        "accepted relaxations"
                    )
                ),
            });
        }
        for v in &accepted {
            let text = format!(
                "{}{}",
                lang.pick("已接受的放宽：", "accepted relaxation: "),
                v.text(lang, &|id| player_label(&event, id))
            );
            lines.push(format!("  - {text}"));
            section.push(vec![name.clone(), rounds.to_string(), text]);
        }
        let mut entry = serde_json::json!({
            "group": pool.to_string(),
            "rounds": rounds,
            "violations": violations.iter().map(ToString::to_string).collect::<Vec<_>>(),
        });
        if let (false, serde_json::Value::Object(map)) = (accepted.is_empty(), &mut entry) {
            map.insert(
                "accepted_relaxations".into(),
                serde_json::json!(accepted.iter().map(ToString::to_string).collect::<Vec<_>>()),
            );
        }
        json.push(entry);
        total += violations.len();
    }
    let title = lang.pick("编排检查", "pairing check");
    print_check(ctx, &rules, lang, title, lines, section, json)?;
    if total > 0 {
        return Err(CliError::input(Text::new(
            format!("有 {total} 处违反硬性编排规则"),
            format!(
                "{} of the hard pairing rules",
                plural(total, "violation", "violations")
            ),
        )));
    }
    Ok(())
}

/// Prints a `check` report: the table format keeps its plain lines; the other formats
/// render (and escape) a report titled `title` with `section` and the `json` entries.
fn print_check(
    ctx: &Ctx,
    rules: &Rulebook,
    lang: Lang,
    title: &str,
    lines: Vec<String>,
    section: Section,
    json: Vec<serde_json::Value>,
) -> Result<(), CliError> {
    if ctx.format()? == Format::Table {
        for line in lines {
            outln!("{line}");
        }
        return Ok(());
    }
    let mut report = Report::new(format!("{} — {title}", rules.event.name));
    report.lang = lang.code().into();
    report.sections.push(section);
    report.json = serde_json::Value::Array(json);
    ctx.print(&report)
}

/// `--round n` names no round of the pool `name`, whose rounds are `numbers`: the
/// rounds it has, as `1–5` (or none yet).
fn no_such_round(name: &str, n: u32, numbers: &[u32]) -> CliError {
    let (zh, en) = if numbers.is_empty() {
        ("尚无".to_string(), "none yet".to_string())
    } else {
        (
            number_ranges(numbers, Lang::Zh),
            number_ranges(numbers, Lang::En),
        )
    };
    CliError::input(Text::new(
        format!("组别 `{name}` 没有第 `{n}` 轮；已编排的轮次：{zh}"),
        format!("group `{name}` has no round `{n}`; rounds paired: {en}"),
    ))
}

/// `check --optimal`: re-solves every stored round (or `--round N`) of each pool with the
/// dense reference solver (the priced one for large pools) and prints whether it is
/// optimal; the library does the work (`qiwang::pairing::prove_round`). Fails when a round is
/// not optimal, not comparable, or seats a table's colours the other way round from §3.3.
pub fn check_optimal(ctx: &Ctx, group: Option<&str>, round: Option<u32>) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let pools: Vec<GroupId> = match group {
        Some(_) => vec![resolve_pool(&rules, &event, group)?],
        None => pools_with_rounds(&rules, &event),
    };
    let mut lines = Vec::new();
    let mut section = Section::new(
        "",
        vec![
            lang.pick("组别", "group").into(),
            lang.pick("轮次", "round").into(),
            lang.pick("结论", "verdict").into(),
        ],
    )
    .right(&[1]);
    let mut json = Vec::new();
    let mut failed = 0;
    for pool in &pools {
        let name = rules
            .group(pool)
            .map_or(pool.to_string(), |g| g.name.clone());
        let mut numbers: Vec<u32> = event
            .group(pool)
            .map(|g| g.rounds.iter().map(|r| r.number).collect())
            .unwrap_or_default();
        numbers.sort_unstable();
        if let Some(n) = round {
            if !numbers.contains(&n) {
                return Err(no_such_round(&name, n, &numbers));
            }
            numbers = vec![n];
        }
        for n in numbers {
            let verdict = pairing::prove_round(&event, &rules, pool, n).map_err(lib_error)?;
            // Hard-rule breaks not recorded as relaxations (a hand edit with `--force`):
            // the criteria count a relaxed rule's breaks, not which tables they are at, so
            // a forced edit that trades one break for another can be as good on them.
            let unrecorded = event
                .group(pool)
                .and_then(|g| g.rounds.iter().find(|r| r.number == n))
                .map_or(0, |r| pairing::check_round(&event, &rules, pool, r).len());
            if verdict.fails() || unrecorded > 0 {
                failed += 1;
            }
            let mut text = verdict.lines(n, lang, &|id| player_label(&event, id));
            if unrecorded > 0 {
                text.push(match lang {
                    Lang::Zh => format!(
                        "  另有 {unrecorded} 处违反硬性规则，未记录为放宽（见 `qiwang check`）"
                    ),
                    Lang::En => format!(
                        "  and {} not recorded as relaxations (see `qiwang check`)",
                        plural(unrecorded, "hard-rule break", "hard-rule breaks")
                    ),
                });
            }
            let given = event.group(pool).and_then(|g| g.relax_given(n));
            if let Some(list) = given {
                let list = qiwang::rulebook::relax_list(list);
                text.push(match lang {
                    Lang::Zh => format!("  （本轮用 `pair --relax {list}` 编排，按同样放宽的规则比较）"),
                    Lang::En => format!(
                        "  (paired with `pair --relax {list}`: compared under the same relaxed rules)"
                    ),
                });
            }
            // The group names the verdict's first line; the details are indented under it.
            for (k, line) in text.iter().enumerate() {
                lines.push(if k == 0 {
                    format!("{name} {line}")
                } else {
                    line.clone()
                });
            }
            section.push(vec![name.clone(), n.to_string(), text.join("\n")]);
            json.push(serde_json::json!({
                "group": pool.to_string(),
                "round": n,
                "optimal": matches!(verdict, pairing::Verdict::Optimal) && unrecorded == 0,
                "kind": verdict.kind(),
                "unrecorded_breaks": unrecorded,
                "relax_given": given,
                "verdict": verdict.lines(n, Lang::En, &|id| player_label(&event, id)),
            }));
        }
    }
    let title = lang.pick("最优性证明", "optimality proof");
    print_check(ctx, &rules, lang, title, lines, section, json)?;
    if failed > 0 {
        return Err(CliError::input(Text::new(
            format!("有 {failed} 轮不是最优编排、先后手不符规则、有未记录的硬性规则违反或无法比较"),
            format!(
                "{} not optimal, with colours not by the rules, with hard-rule breaks not recorded, or not comparable",
                plural(failed, "round", "rounds")
            ),
        )));
    }
    Ok(())
}
