//! `qiwang standings`, `qiwang crosstable`

use crate::cli::context::{Ctx, Loaded, lib_error, pools_shown, resolve_pool};
use crate::cli::error::CliError;
use qiwang::lookup::Shown;

pub fn standings(
    ctx: &Ctx,
    group: Option<&str>,
    round: Option<u32>,
    list: Option<&str>,
) -> Result<(), CliError> {
    let loaded = ctx.load_shown()?;
    if loaded.rules.team_competition.is_some() {
        return super::team::standings(ctx, loaded, group, round);
    }
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    check_round(&event, &rules, group, round)?;
    if let Some(name) = list {
        let l = qiwang::prizes::find_list(&rules, name).map_err(lib_error)?;
        return ctx.print(&qiwang::views::list_standings(
            &event, &rules, l, round, lang,
        ));
    }
    // A section of another pool (残疾人组 in 成人组) shows its own list, never the pool.
    if let Some(section) = group
        .and_then(|g| rules.find_group(g))
        .filter(|g| g.pairs_with.is_some())
    {
        return ctx.print(&qiwang::views::section_standings(
            &event,
            &rules,
            &section.id,
            round,
            lang,
        ));
    }
    if group.is_none() && resolve_pool(&rules, &event, None).is_err() {
        // Several groups with players: every group, one table each.
        return ctx.print(&qiwang::views::every_pool_standings(
            &event,
            &rules,
            round,
            lang,
            ctx.json(),
        ));
    }
    let pool = resolve_pool(&rules, &event, group)?;
    let st = qiwang::standings::compute_standings(&event, &rules, &pool, round);
    ctx.print(&qiwang::views::standings(
        &event,
        &rules,
        &st,
        lang,
        ctx.json(),
    ))
}

pub fn crosstable(ctx: &Ctx, group: Option<&str>, round: Option<u32>) -> Result<(), CliError> {
    let loaded = ctx.load_shown()?;
    if loaded.rules.team_competition.is_some() {
        return super::team::crosstable(ctx, loaded, group, round);
    }
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    check_round(&event, &rules, group, round)?;
    let pool = resolve_pool(&rules, &event, group)?;
    ctx.print(&qiwang::views::crosstable(
        &event,
        &rules,
        &pool,
        round,
        lang,
        ctx.json(),
    ))
}

/// `--round N` must name a finished round of the pool shown, or, without `--group` in an
/// event of several pools, of every pool shown (one table each).
fn check_round(
    event: &qiwang::model::Event,
    rules: &qiwang::rulebook::Rulebook,
    group: Option<&str>,
    round: Option<u32>,
) -> Result<(), CliError> {
    let Some(n) = round else { return Ok(()) };
    let pools: Vec<_> = match resolve_pool(rules, event, group) {
        Ok(pool) => vec![pool],
        // A named group that does not resolve fails later with its own message.
        Err(_) if group.is_some() => return Ok(()),
        Err(_) => pools_shown(rules, event, Shown::Players),
    };
    for pool in pools {
        qiwang::results::check_round_finished(event, rules, &pool, n).map_err(lib_error)?;
    }
    Ok(())
}
