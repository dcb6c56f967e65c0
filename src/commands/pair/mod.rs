//! `pair` of one pool ([`pair_pool`]) and of every ready pool ([`pair_all`]), each one
//! call: the request checked and the seed fixed (`pairing::pool_turn`), the round paired,
//! then either stored with its audit entry or, on a dry run, only shown (a round-1 draw's
//! new seed is recorded either way, and also when the round is refused, so the next
//! `pair` makes the same draw), and the sheets made. Also the sheet of a paired round and
//! what a dry run adds to it. A team competition's round is `team.rs`'s ([`pair_team`],
//! and its `unpair`, [`unpair_team_pool`]);
//! the hand changes to a round (`pairing swap|set`, `unpair`) are `edit.rs`'s
//! ([`edit_pool`], [`unpair_pool`]); the refusals are `error.rs`'s ([`PairError`]).

mod all;
mod edit;
mod error;
mod team;
#[cfg(test)]
mod tests;

pub use all::{AllPaired, PairedPools, pair_all};
pub use edit::{EditRefused, edit_pool, unpair_pool};
pub use error::{NothingReady, PairError, Refused};
pub use team::{pair_team, unpair_team_pool};

use crate::i18n::Text;
use crate::model::{Event, GroupId, Relax};
use crate::pairing::{self, PairingError, PairingPlan};
use crate::report::{Json, Report};
use crate::rulebook::{Lang, Rulebook};
use crate::store::action::Action;
use crate::store::{Change, CommandInfo, Store, StoreError, TxError};

/// What `pair` was asked, as the command line gave it (parsed). The `--relax` list is
/// already in the rulebook's place (`pairing.relax`) in the rulebook passed with it.
#[derive(Debug, Clone)]
pub struct PairRequest {
    /// `--seed`: the round-1 draw's seed (refused for a later round).
    pub seed: Option<u64>,
    /// `--dry-run`: show the round, store nothing but a round-1 draw's new seed.
    pub dry_run: bool,
    /// `--explain`: the reasons for the pairing under each sheet.
    pub explain: bool,
    /// `--allow-small`: round 1 of an under-size pool may be paired.
    pub allow_small: bool,
    /// `--relax`: the rules relaxed for this round, noted with it and in the log.
    pub relax: Option<Vec<Relax>>,
    /// The language of the sheets.
    pub lang: Lang,
    /// Whether the sheets carry their JSON.
    pub json: Json,
    /// `--format xlsx`: a stored round's workbook is made before the round is stored, so
    /// that a workbook that cannot be made (a full temporary disk) stores nothing.
    pub workbook: bool,
}

/// What `pair` of one pool made.
#[derive(Debug)]
pub enum Paired {
    /// The round's sheet: stored, or (on a dry run) only shown and marked so.
    Sheet(Box<Report>),
    /// The stored round's sheet as an Excel workbook ([`PairRequest::workbook`]).
    Workbook(Vec<u8>),
}

/// `qiwang pair`: the next round of `pool` on the event in `store` (read as `event`),
/// with `rules` (the `--relax` list in place). Checks the request and fixes the seed
/// before pairing (`pairing::pool_turn`, a new one from `draw`), so that a round-1 draw
/// refused for want of a legal pairing is recorded too. Stores the round with its audit
/// entry, or on a dry run only shows it (with the draw's seed named, a new one recorded).
/// A team competition's pool is paired by [`pair_team`].
pub fn pair_pool(
    store: &Store,
    command: &CommandInfo,
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    request: &PairRequest,
    draw: &mut dyn FnMut() -> u64,
) -> Result<Paired, PairError> {
    if rules.team_competition.is_some() {
        return pair_team(store, command, event, rules, pool, request, draw);
    }
    let chosen = pairing::pool_turn(event, rules, pool, request.seed, request.allow_small, draw)?;
    let made = if request.dry_run {
        dry_run(store, command, event, rules, pool, request, chosen)
    } else {
        store_round(store, command, rules, pool, request, chosen)
    };
    match made {
        Err(PairError::Pairing(error @ PairingError::NoLegalPairing { .. })) => {
            // A seed given with `--seed` is the arbiter's own: named for reuse, never
            // recorded (as on a dry run that succeeds).
            let new_seed = chosen.drawn.then_some(chosen.seed);
            let recorded = new_seed.filter(|&s| {
                let seeds = vec![(pool.clone(), s)];
                record_seeds(store, command, seeds, |_| {
                    Action::seed_recorded_change(pool, s)
                })
                .is_ok()
            });
            Err(PairError::Refused(Box::new(Refused {
                error,
                relax: request.relax.clone(),
                recorded,
            })))
        }
        made => made,
    }
}

/// [`pair_pool`] on a copy of `event`: the sheet marked as a dry run; for a round-1 draw
/// the seed is named on it (and in its JSON), and a seed drawn now is recorded as the
/// pool's (logged), so the draw shown is the draw `pair` makes.
fn dry_run(
    store: &Store,
    command: &CommandInfo,
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    request: &PairRequest,
    chosen: pairing::PoolSeed,
) -> Result<Paired, PairError> {
    let first_round = event.group(pool).is_none_or(|g| g.rounds.is_empty());
    let recorded = event.group(pool).and_then(|g| g.seed).is_some();
    let mut after = event.clone();
    let plan = pairing::pair_pool(
        &mut after,
        rules,
        pool,
        chosen.seed,
        request.relax.as_deref(),
    )?;
    let lang = request.lang;
    let mut sheet = sheet(
        &after,
        rules,
        pool,
        &plan,
        request.explain,
        lang,
        request.json,
    );
    mark_dry_run(&mut sheet, lang);
    if first_round {
        if chosen.drawn {
            let (s, seeds) = (chosen.seed, vec![(pool.clone(), chosen.seed)]);
            record_seeds(store, command, seeds, |_| {
                Action::seed_recorded_change(pool, s)
            })?;
        }
        let line = seed_line(chosen.seed, request.seed.is_some(), recorded);
        name_seed(&mut sheet, chosen.seed, &line, lang);
    }
    Ok(Paired::Sheet(Box::new(sheet)))
}

/// [`pair_pool`] stored: the round paired on the state the transaction reads, its sheet
/// (and workbook) made from the state it writes, and the round's audit entry.
fn store_round(
    store: &Store,
    command: &CommandInfo,
    rules: &Rulebook,
    pool: &GroupId,
    request: &PairRequest,
    chosen: pairing::PoolSeed,
) -> Result<Paired, PairError> {
    store
        .transaction(command, |ev| {
            let plan = pairing::pair_pool(ev, rules, pool, chosen.seed, request.relax.as_deref())?;
            let lang = request.lang;
            let sheet = sheet(ev, rules, pool, &plan, request.explain, lang, request.json);
            // A workbook is made before the round is stored: should it fail (a sheet
            // past Excel's limits), nothing is stored and `pair` can simply be run again.
            let made = if request.workbook {
                Paired::Workbook(sheet.render_xlsx().map_err(PairError::Workbook)?)
            } else {
                Paired::Sheet(Box::new(sheet))
            };
            Ok(Action::paired_round_change(
                ev,
                pool,
                plan.round.number,
                chosen.seed,
                request.relax.clone(),
                made,
            ))
        })
        .map_err(PairError::from)
}

/// Records round-1 draw seeds `seeds` as their pools' seeds on `ev`, so that the next
/// `pair` (or `pair --all`) makes the same draws.
fn set_seeds(ev: &mut Event, seeds: &[(GroupId, u64)]) {
    for (pool, s) in seeds {
        ev.group_mut(pool).seed = Some(*s);
    }
}

/// Records draw seeds `seeds` in a change of their own (a dry run's draws, a draw
/// refused): set on the event ([`set_seeds`]) and logged as `log` words them.
fn record_seeds(
    store: &Store,
    command: &CommandInfo,
    seeds: Vec<(GroupId, u64)>,
    log: impl FnOnce(Vec<(GroupId, u64)>) -> Change<()>,
) -> Result<(), StoreError> {
    store
        .transaction(command, |ev| {
            set_seeds(ev, &seeds);
            Ok::<_, std::convert::Infallible>(log(seeds))
        })
        .map_err(|e| match e {
            TxError::Store(e) => e,
            TxError::Command(never) => match never {},
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

/// Names a dry run's round-1 draw seed `s` under the dry-run mark of `sheet` (`line`, from
/// [`seed_line`]) and in its JSON, for scripts.
fn name_seed(sheet: &mut Report, s: u64, line: &Text, lang: Lang) {
    sheet.footer.insert(1, line.get(lang).to_string());
    if let serde_json::Value::Object(map) = &mut sheet.json {
        map.insert("seed".into(), serde_json::json!(s));
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

/// The pairing sheet of the round `plan` made on `after`, with its explanation under it
/// if asked.
fn sheet(
    after: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    plan: &PairingPlan,
    explain: bool,
    lang: Lang,
    json: Json,
) -> Report {
    let number = plan.round.number;
    // A public sheet, printed before anything else reads the round: names and units
    // as every output prints them.
    let after = &*crate::views::names_and_units_masked(after);
    let mut report = crate::views::pairing_sheet(after, rules, pool, number, lang, json);
    if explain {
        // The relaxed rules are the sheet's notes (with or without `--explain`, and on
        // every reprint): the explanation gives only the reasons.
        let lines = plan.explanation.reasons(lang, &|id| after.player_label(id));
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
