//! `qiwang pair --all`: the next round of every pool that is ready, in one change. The
//! library decides which pools are ready and pairs them (`pairing::pair_ready_pools`) and
//! makes the change's audit entry (`Action::paired_pools_change`); here are the dry run,
//! the sheets and the pools left out.

use super::pass::AllPaired;
use super::{fresh_seed, mark_dry_run, refusal_text, relax_for_this_round, seed_line};
use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, Loaded, lib_error, tx_error};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::model::{Event, GroupId};
use qiwang::pairing;
use qiwang::report::Format;
use qiwang::store::action::{Action, RefusedRound};

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
    if rules.team_competition.is_some() {
        let pool = crate::cli::context::resolve_pool(&rules, &event, None)?;
        let loaded = Loaded {
            store,
            event,
            rules,
        };
        return crate::cli::commands::team::pair(ctx, loaded, pool, seed, dry_run, explain, relax);
    }
    let lang = ctx.lang(&rules);
    let format = ctx.format()?;
    super::check::warn_stranded(&event, &rules, lang, None);
    // The reasons are already in the output language.
    // After the last round there is nothing to pair, and nothing was typed wrong: the
    // command says so and succeeds (README "Exit codes": 3 is for input to fix).
    let finished = |done: &AllPaired| -> Result<(), CliError> {
        let head = lang.pick(
            "比赛已全部结束：每个组别的全部轮次都已编排并录入成绩，没有下一轮可编排。",
            "the event is finished: every group has played all its rounds with their results; there is no next round to pair.",
        );
        let next = lang.pick(
            "名次与奖项：qiwang standings、qiwang prizes",
            "standings and prizes: qiwang standings, qiwang prizes",
        );
        if format == Format::Table {
            outln!("{head}");
            for w in &done.waiting {
                outln!("  {w}");
            }
            outln!("{next}");
        } else {
            if format == Format::Json {
                out!("{}", qiwang::views::json_list(&[]));
            }
            crate::cli::emit_err(head);
        }
        Ok(())
    };
    let nothing_ready = |waiting: &[String]| {
        let list = waiting
            .iter()
            .map(|w| format!("  {w}"))
            .collect::<Vec<_>>()
            .join("\n");
        CliError::from(Refusal::NothingToDo(Text::new(
            format!("没有可以编排下一轮的组别：\n{list}"),
            format!("no group is ready for its next round:\n{list}"),
        )))
    };
    // Every ready pool's next round on `ev`: a copy for a dry run, the stored state
    // otherwise; the library decides which pools are ready and pairs them.
    let pair_ready = |ev: &mut Event| -> Result<AllPaired, CliError> {
        let turns = pairing::pair_ready_pools(
            ev,
            &rules,
            seed,
            &mut fresh_seed,
            relax.as_deref(),
            allow_small,
        )
        .map_err(lib_error)?;
        Ok(AllPaired::new(ev, &rules, turns, explain, lang, ctx.json()))
    };
    let done = if dry_run {
        let mut after = event.clone();
        let mut done = pair_ready(&mut after)?;
        if done.finished {
            return finished(&done);
        }
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
                if done.finished {
                    return Ok(qiwang::store::Change::Unchanged(done));
                }
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
                let refused = done
                    .blocked
                    .iter()
                    .map(|b| RefusedRound {
                        group: b.pool.clone(),
                        round: b.round,
                        seed: b.drawn,
                    })
                    .collect();
                let paired = done.paired.clone();
                Ok(Action::paired_pools_change(
                    ev,
                    &paired,
                    refused,
                    &seeds,
                    relax.as_deref(),
                    done,
                ))
            })
            .map_err(tx_error)?
    };
    if done.finished {
        return finished(&done);
    }
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
    // no legal pairing ([`Refusal::Unpairable`]), each with what `pair` alone would have said.
    let refusals: Vec<CliError> = done
        .blocked
        .into_iter()
        .map(|b| refusal_text(lib_error(b.error), relax.as_deref(), b.drawn))
        .collect();
    let join = |pick: fn(&Text) -> &str, sep: &str| {
        refusals
            .iter()
            .map(|e| pick(e.message()))
            .collect::<Vec<_>>()
            .join(sep)
    };
    Err(CliError::from(Refusal::Unpairable(Text::new(
        join(|t| &t.zh, "\n"),
        join(|t| &t.en, "\n"),
    ))))
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
    Action::seeds_recorded_change(seeds, value)
}
