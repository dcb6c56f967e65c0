//! The demo's rounds: each pool or team pool paired and played on simulated results,
//! through the same store transactions as the real commands.

use super::*;

/// Pairs and plays every round of `pool`, one store transaction a step, printing each
/// round's tally and notes; a pool that cannot be paired any further stops there.
pub(super) fn play_pool(
    store: &Store,
    rules: &Rulebook,
    pool: &GroupId,
    incidents: bool,
    seed: u64,
    lang: Lang,
) -> Result<(), CliError> {
    let name = rules.group_name(pool);
    let seed = demo::pool_seed(seed, pool);
    // A round robin's rounds follow from its field, a knockout's from its matches (docs/
    // rules.md §14, §16): the schedule is asked again before every round.
    let mut round = 0;
    loop {
        round += 1;
        let planned = qiwang::schedule::rounds_of(&store.load().map_err(lib_error)?, rules, pool);
        if round > planned {
            break;
        }
        // Paired inside the transaction, on the state it is about to change.
        let stuck = store
            .transaction(&cmd(&["pair", "--group", pool.as_str()]), |ev| {
                Ok::<_, CliError>(demo::pair(ev, rules, pool, round, seed))
            })
            .map_err(tx_error)?;
        if let Some(e) = stuck {
            outln!(
                "{}",
                bi!(
                    lang,
                    zh("  {name}：第{round}轮无法编排，停止：{}", e.localize(lang)),
                    en("  {name}: stopped before round {round}: {e}")
                )
            );
            return Ok(());
        }
        let (notes, tally) = store
            .transaction(&cmd(&["result", "--group", pool.as_str()]), |ev| {
                let change =
                    demo::play(ev, rules, pool, round, seed, incidents).map_err(lib_error)?;
                Ok::<_, CliError>(change.map(|played| {
                    let label = |id| player_label(ev, id);
                    (played.report.messages_named(lang, &label), played.tally)
                }))
            })
            .map_err(tx_error)?;
        let round_label = bi!(lang, zh("第{round}轮"), en("round {round}"));
        outln!("  {name} {round_label} {}", tally.text(lang));
        for m in notes {
            outln!("    {m}");
        }
    }
    Ok(())
}

/// Plays every round of a team competition's pools (docs/rules.md §17), one store
/// transaction for each pairing and each round's results, then prints the team
/// standings and the prize sheet with the board prizes.
pub(super) fn play_teams(
    store: &Store,
    rules: &Rulebook,
    seed: u64,
    lang: Lang,
    dir: &Path,
) -> Result<(), CliError> {
    let event = store.load().map_err(lib_error)?;
    let pools: Vec<GroupId> = rules
        .pools()
        .map(|g| g.id.clone())
        .filter(|g| event.players_in(g).next().is_some())
        .collect();
    for pool in &pools {
        let seed = demo::pool_seed(seed, pool);
        let event = store.load().map_err(lib_error)?;
        for round in 1..=qiwang::teams::rounds_of(&event, rules, pool) {
            store
                .transaction(&cmd(&["pair", "--group", pool.as_str()]), |ev| {
                    demo::pair_team_round(ev, rules, pool, round, seed).map_err(lib_error)
                })
                .map_err(tx_error)?;
            let (first, drawn, second) = store
                .transaction(&cmd(&["result", "--group", pool.as_str()]), |ev| {
                    demo::play_team_round(ev, rules, pool, round, seed).map_err(lib_error)
                })
                .map_err(tx_error)?;
            outln!(
                "{}",
                bi!(
                    lang,
                    zh("  第{round}轮：先走队胜 {first} 场，和 {drawn} 场，后走队胜 {second} 场"),
                    en(
                        "  round {round}: {first} matches won by the team with first move, {drawn} drawn, {second} won by the other"
                    )
                )
            );
        }
        let event = store.load().map_err(lib_error)?;
        let mut standings = qiwang::views::team_standings_report(&event, rules, pool, None, lang)
            .map_err(lib_error)?;
        standings
            .sections
            .iter_mut()
            .for_each(|s| s.rows.truncate(8));
        out!("{}", standings.render(Format::Table));
        let prizes =
            qiwang::views::team_prize_sheet(&event, rules, pool, lang).map_err(lib_error)?;
        out!("{}", prizes.render(Format::Table));
    }
    let q = super::explore_prefix(dir);
    outln!();
    outln!("{}", lang.pick("继续探索：", "Explore further:"));
    outln!("  {q} standings");
    outln!("  {q} round 7 --sheet slips");
    outln!("  {q} crosstable");
    outln!("  {q} boards");
    outln!("  {q} check --optimal");
    outln!("  {q} log");
    Ok(())
}
