//! `qiwang pair`, `pair --all` ([`all`]), `unpair` and `pairing swap|set` ([`edit`]),
//! `check` and `check --optimal` ([`check`]).
//!
//! Each command parses, makes one library call and renders: the seed policy, which pools
//! are ready, the pairing and the hand edits are decided in `qiwang::pairing`. What stays
//! here is the terminal's: dry runs, the sheets and the wording of a refused round.

mod all;
mod check;
mod edit;
mod pass;

pub use all::pair_all;
pub use check::{check, check_optimal};
pub use edit::{set, swap, unpair};

use crate::cli::context::Refusal;
use crate::cli::context::{
    Ctx, FormatArg, Loaded, lib_error, player_label, resolve_pool, tx_error, xlsx_error,
};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::i18n::bi;
use qiwang::model::{Event, GroupId, Relax};
use qiwang::pairing;
use qiwang::report::{Json, Report};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::TxError;
use qiwang::store::action::Action;

/// `qiwang pair`: the next round of one pool, stored (or shown, with `--dry-run`). The
/// checks of the request and the seed policy, the pairing, the storing of the plan and the
/// round's audit entry are the library's (`pairing::pool_turn`, `pairing::pair_pool`,
/// `Action::paired_round_change`); here are the dry run, the round-1 seed's record and
/// the sheet.
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
    if rules.team_competition.is_some() {
        let loaded = Loaded {
            store,
            event,
            rules,
        };
        return super::team::pair(ctx, loaded, pool, seed, dry_run, explain, relax);
    }
    let lang = ctx.lang(&rules);
    check::warn_stranded(&event, &rules, lang, Some(&pool));
    let first_round = event.group(&pool).is_none_or(|g| g.rounds.is_empty());
    let recorded = event.group(&pool).and_then(|g| g.seed).is_some();
    // The request is checked and the seed fixed before pairing, so that a round-1 draw
    // refused for want of a legal pairing is recorded too and the next `pair` (with
    // `--relax`, say) makes the same draw instead of drawing again.
    let chosen = pairing::pool_turn(&event, &rules, &pool, seed, allow_small, &mut fresh_seed)
        .map_err(lib_error)?;
    // The pool's next round on `ev`: a copy for a dry run, the stored state otherwise.
    let pair_on =
        |ev: &mut Event| -> Result<(Report, u32), NotPaired> {
            let plan = pairing::pair_pool(ev, &rules, &pool, chosen.seed, relax.as_deref())
                .map_err(|e| match e {
                    e @ pairing::PairingError::NoLegalPairing { .. } => NotPaired::Refused(e),
                    e => NotPaired::Failed(lib_error(e)),
                })?;
            let sheet = sheet(ev, &rules, &pool, &plan, explain, lang, ctx.json());
            Ok((sheet, plan.round.number))
        };
    let attempt = || -> Result<Option<Report>, NotPaired> {
        if dry_run {
            let (mut sheet, _) = pair_on(&mut event.clone())?;
            mark_dry_run(&mut sheet, lang);
            if first_round {
                // The draw a dry run shows is the draw `pair` makes: a seed drawn here is
                // recorded as the pool's seed (and logged), a given one is named for reuse.
                if chosen.drawn {
                    record_draw_seed(ctx, &store, &pool, chosen.seed)?;
                }
                let line = seed_line(chosen.seed, seed.is_some(), recorded);
                sheet.footer.insert(1, line.get(lang).to_string());
                if let serde_json::Value::Object(map) = &mut sheet.json {
                    map.insert("seed".into(), serde_json::json!(chosen.seed));
                }
            }
            return Ok(Some(sheet));
        }
        // The sheet is made from the state the transaction writes, without reading it back.
        let (sheet, workbook) = store
            .transaction(&ctx.command_info(), |ev| {
                let (sheet, round) = pair_on(ev)?;
                // A workbook is made before the round is stored: should it fail (a full
                // temporary disk), nothing is stored and `pair` can simply be run again.
                let workbook = if ctx.format_arg == FormatArg::Xlsx {
                    Some(sheet.render_xlsx().map_err(xlsx_error)?)
                } else {
                    None
                };
                Ok(Action::paired_round_change(
                    ev,
                    &pool,
                    round,
                    chosen.seed,
                    relax.clone(),
                    (sheet, workbook),
                ))
            })
            .map_err(|e| match e {
                TxError::Store(e) => NotPaired::Failed(lib_error(e)),
                TxError::Command(e) => e,
            })?;
        if let Some(workbook) = workbook {
            crate::cli::emit_bytes(&workbook);
            return Ok(None);
        }
        Ok(Some(sheet))
    };
    let report = match attempt() {
        Ok(Some(report)) => report,
        Ok(None) => return Ok(()),
        Err(NotPaired::Refused(e)) => {
            // A seed given with `--seed` is the arbiter's own: named for reuse, never
            // recorded (as on a dry run that succeeds).
            let new_seed = chosen.drawn.then_some(chosen.seed);
            let e = lib_error(e);
            return Err(refused(ctx, &store, &pool, new_seed, relax.as_deref(), e));
        }
        Err(NotPaired::Failed(e)) => return Err(e),
    };
    ctx.print(&report)
}

/// Why `pair` made no round: no legal pairing (a refusal, which keeps a round-1 draw's
/// new seed), or any other error.
enum NotPaired {
    Refused(pairing::PairingError),
    Failed(CliError),
}

impl From<CliError> for NotPaired {
    fn from(e: CliError) -> Self {
        NotPaired::Failed(e)
    }
}

/// A new draw seed, for a pool that has none recorded and was given none: the command's
/// only randomness, handed to the library (`pairing::pool_turn`), which stays pure.
pub(crate) fn fresh_seed() -> u64 {
    u64::from(rand::random::<u32>())
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
            Ok::<_, CliError>(Action::seed_recorded_change(pool, s))
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
fn refusal_text(e: CliError, relax: Option<&[Relax]>, recorded: Option<u64>) -> CliError {
    let given = relax.map(qiwang::rulebook::relax_list);
    e.map_message(|m, l| {
        let mut m = match &given {
            Some(given) => bi!(
                l,
                zh("`--relax {given}`（本轮代替规程的 pairing.relax）仍不足以编排：{m}"),
                en("`--relax {given}` (in place of the rulebook's pairing.relax this round) is not enough: {m}")
            ),
            None => m,
        };
        if let Some(s) = recorded {
            m.push_str(&bi!(
                l,
                zh("\n本次第 1 轮抽签的种子 {s} 已记录：之后的 `qiwang pair` 按同一抽签编排"),
                en("\nthis round-1 draw's seed {s} is recorded: the next `qiwang pair` makes the same draw")
            ));
        }
        m
    })
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
            CliError::from(Refusal::OptionValue(Text::new(
                format!("`--relax`：{}", why.zh),
                format!("`--relax`: {}", why.en),
            )))
        })?;
        list.push(rule);
    }
    rules.pairing.relax = list.clone();
    Ok(Some(list))
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
