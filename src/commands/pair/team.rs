//! `pair` of a team competition (团体赛, docs/rules.md §17) as one call ([`pair_team`]):
//! the seed policy of individual pairing on the team pool, the round of matches paired
//! (`teams::pair_team_round`), stored with its audit entry or on a dry run only shown,
//! and its sheet. A team event's dry run records no seed: it names the draw's seed, and
//! `--seed` makes the same draw. Also `unpair` of a team pool ([`unpair_team_pool`]).

use super::{PairError, PairRequest, Paired, mark_dry_run, seed_line};
use crate::model::{Event, GroupId};
use crate::pairing;
use crate::report::Report;
use crate::rulebook::Rulebook;
use crate::store::action::Action;
use crate::store::{CommandInfo, Store, TxError};
use crate::teams::{self, TeamError, TeamPlan};
use crate::views;

/// `qiwang pair` in a team event: the next round of matches of `pool` on the event in
/// `store` (read as `event`), with the seed of `pairing::seed_turn` (a new one from
/// `draw`), stored with its audit entry unless `request.dry_run`, and its sheet (the
/// round-1 draw's seed named under it).
pub fn pair_team(
    store: &Store,
    command: &CommandInfo,
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    request: &PairRequest,
    draw: &mut dyn FnMut() -> u64,
) -> Result<Paired, PairError> {
    // The seed policy of individual pairing (`pairing::pool_turn`), on the team pool.
    let stored = event.team_pools.get(pool);
    let seed = pairing::seed_turn(
        stored.is_some_and(|s| !s.rounds.is_empty()),
        stored.and_then(|s| s.seed),
        request.seed,
        draw,
    )?
    .seed;
    let relax = request.relax.as_deref();
    if request.dry_run {
        let plan = teams::pair_team_round(event, rules, pool, seed, relax).map_err(team)?;
        let mut after = event.clone();
        plan.apply(&mut after, pool, seed);
        let mut report = sheet(&after, rules, pool, &plan, seed, request).map_err(team)?;
        mark_dry_run(&mut report, request.lang);
        return Ok(Paired::Sheet(Box::new(report)));
    }
    store
        .transaction(command, |ev| {
            let plan = teams::pair_team_round(ev, rules, pool, seed, relax).map_err(team)?;
            plan.apply(ev, pool, seed);
            let report = sheet(ev, rules, pool, &plan, seed, request).map_err(team)?;
            // Made before the round is stored, as for an individual round.
            let made = if request.workbook {
                Paired::Workbook(report.render_xlsx().map_err(PairError::Workbook)?)
            } else {
                Paired::Sheet(Box::new(report))
            };
            Ok(Action::paired_team_round_change(
                pool,
                &plan.round,
                seed,
                request.relax.clone(),
                made,
            ))
        })
        .map_err(PairError::from)
}

/// A team competition's refusal as `pair`'s.
fn team(e: TeamError) -> PairError {
    PairError::Team(Box::new(e))
}

/// The sheet of the team round `plan` paired on `after` with `seed`: the round-1 draw's
/// seed under it, then the explanation if asked.
fn sheet(
    after: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    plan: &TeamPlan,
    seed: u64,
    request: &PairRequest,
) -> Result<Report, TeamError> {
    let lang = request.lang;
    let after = &*views::names_and_units_masked(after);
    let mut report = views::team_pairing_sheet(after, rules, pool, Some(plan.round.number), lang)?;
    if plan.round.number == 1 {
        // Named for reuse as a given seed is: a team event records no seed.
        let line = seed_line(seed, true, false);
        report.footer.push(line.get(lang).to_string());
    }
    if request.explain {
        report
            .footer
            .extend(views::team_explanation(after, pool, plan, lang));
    }
    Ok(report)
}

/// `qiwang unpair` in a team event: drops the newest round of matches of `pool` on the
/// event in `store` while no board of it has a result (`teams::unpair_team_round`), with
/// its audit entry; returns the round's number.
pub fn unpair_team_pool(
    store: &Store,
    command: &CommandInfo,
    pool: &GroupId,
) -> Result<u32, TxError<TeamError>> {
    super::edit::unpair_with(store, command, pool, teams::unpair_team_round)
}
