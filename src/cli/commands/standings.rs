//! `qiwang standings`, `qiwang crosstable`

use crate::cli::context::{Ctx, Loaded, resolve_pool};
use crate::cli::error::CliError;
use qiwang::i18n::Text;

pub fn standings(
    ctx: &Ctx,
    group: Option<&str>,
    round: Option<u32>,
    list: Option<&str>,
) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    check_round(&event, &rules, group, round)?;
    if let Some(name) = list {
        let l = rules
            .prizes
            .lists
            .iter()
            .find(|l| l.id == name || l.name == name)
            .ok_or_else(|| {
                let names: Vec<String> = rules
                    .prizes
                    .lists
                    .iter()
                    .map(|l| format!("`{}` ({})", l.id, l.name))
                    .collect();
                let names = names.join(", ");
                CliError::input(Text::new(
                    format!("没有奖项名单 `{name}`：请用 {names} 之一"),
                    format!("no prize list `{name}`: use one of {names}"),
                ))
            })?;
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
            &event, &rules, round, lang,
        ));
    }
    let pool = resolve_pool(&rules, &event, group)?;
    let st = qiwang::standings::compute_standings(&event, &rules, &pool, round);
    ctx.print(&qiwang::views::standings(&event, &rules, &st, lang))
}

pub fn crosstable(ctx: &Ctx, group: Option<&str>, round: Option<u32>) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    check_round(&event, &rules, group, round)?;
    let pool = resolve_pool(&rules, &event, group)?;
    ctx.print(&qiwang::views::crosstable(
        &event, &rules, &pool, round, lang,
    ))
}

/// `--round N` must name a round that exists.
fn check_round(
    event: &qiwang::model::Event,
    rules: &qiwang::rulebook::Rulebook,
    group: Option<&str>,
    round: Option<u32>,
) -> Result<(), CliError> {
    let Some(n) = round else { return Ok(()) };
    let pool = match resolve_pool(rules, event, group) {
        Ok(p) => p,
        Err(_) => return Ok(()),
    };
    let paired = event
        .group(&pool)
        .map(|g| g.rounds.len() as u32)
        .unwrap_or(0);
    if n == 0 || n > paired {
        return Err(CliError::input(Text::new(
            format!("组别 `{pool}` 没有第 `{n}` 轮：目前已编排 {paired} 轮"),
            format!("round `{n}` does not exist in {pool}: {paired} round(s) paired so far"),
        )));
    }
    // Standings after a round whose games are not all in would score the missing games as
    // nothing and the bye as already won: refuse, and name the last finished round.
    if let Some(r) = event.group(&pool).and_then(|g| g.round(n))
        && !r.is_complete()
    {
        let missing: Vec<String> = r
            .pairings
            .iter()
            .filter_map(|p| match p {
                qiwang::model::Pairing::Game {
                    table,
                    result: None,
                    ..
                } => Some(table.to_string()),
                _ => None,
            })
            .collect();
        let done = n - 1;
        return Err(CliError::input(Text::new(
            format!(
                "组别 `{pool}` 第 {n} 轮尚未结束（第 {} 台没有成绩）：请先录入成绩，或查看第 {done} 轮后的名次（`--round {done}`）",
                missing.join("、")
            ),
            format!(
                "round {n} of {pool} is not finished (table(s) {} have no result): enter them first, or see the standings after round {done} (`--round {done}`)",
                missing.join(", ")
            ),
        )));
    }
    Ok(())
}
