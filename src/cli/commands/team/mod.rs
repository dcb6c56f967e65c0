//! The commands of a team competition (团体赛, docs/rules.md §17): `round`, `result`,
//! `unpair`, `check`, `standings`, `crosstable`, `prizes` and `teams` turn here when the
//! rulebook has `[team_competition]`, and `lineup` and `boards` are the team event's own
//! (`pair` of a team event is the library's `commands::pair::pair_pool`, as an
//! individual event's; `unpair` and `check` are `commands::pair::unpair_team_pool` and
//! `commands::check::check_team`). Each parses, makes one library call and renders.

use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, Loaded, lib_error, resolve_pool, tx_error};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::i18n::bi;
use qiwang::model::GroupId;
use qiwang::store::action::Action;
use qiwang::teams;
use qiwang::views;
use std::path::Path;

mod reads;
mod withdraw;
pub use reads::{boards, check, crosstable, lineup, prizes, standings, unpair};
pub use withdraw::{reinstate, withdraw};

/// `round [N] --sheet pairings|slips` in a team event.
pub fn round(
    ctx: &Ctx,
    loaded: Loaded,
    round: Option<u32>,
    group: Option<&str>,
    sheet: &str,
) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let pool = resolve_pool(&rules, &event, group)?;
    let report = match sheet {
        "slips" => views::team_slips(&event, &rules, &pool, round, lang),
        "pairings" => views::team_pairing_sheet(&event, &rules, &pool, round, lang),
        other => {
            return Err(CliError::from(Refusal::OptionValue(Text::new(
                format!("团体赛的 `--sheet` 只有 pairings（对阵表）和 slips（成绩登记表），没有 `{other}`"),
                format!("a team event's `--sheet` is pairings or slips, not `{other}`"),
            ))));
        }
    }
    .map_err(lib_error)?;
    ctx.print(&report)
}

/// `result` in a team event: `result 3 红胜 黑胜 和 红胜 [4 …]`, `result 3 加赛 和 红胜`, or
/// `result --from FILE` (the slips' CSV or a workbook, one row per board).
pub fn result(
    ctx: &Ctx,
    loaded: Loaded,
    group: Option<&str>,
    round: Option<u32>,
    from: Option<&Path>,
    args: &[String],
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = loaded;
    let lang = ctx.lang(&rules);
    let pool = resolve_pool(&rules, &event, group)?;
    let number = match round {
        Some(n) => n,
        None => event
            .team_pools
            .get(&pool)
            .and_then(|s| s.rounds.last())
            .map_or(1, |r| r.number),
    };
    let mut entries = teams::parse_team_result_args(args).map_err(lib_error)?;
    if let Some(path) = from {
        let bytes = crate::cli::context::read_input(path, qiwang::input::InputKind::Sheet)?;
        let file = qiwang::results::results_text(&bytes, &path.display().to_string())
            .map_err(lib_error)?;
        let read = teams::read_team_results_file(&file.text, &event, &rules, &pool, number)
            .map_err(|e| {
                lib_error(e).map_message(|m, l| format!("{}{}{m}", file.source, l.pick("：", ": ")))
            })?;
        entries.extend(read);
    }
    if entries.is_empty() {
        return Err(CliError::from(Refusal::Missing(Text::new(
            "请给出场次和各台成绩，如 `qiwang result 3 红胜 黑胜 和 红胜`，或 `--from 成绩表.csv`",
            "give a match and its boards' results, e.g. `qiwang result 3 1-0 0-1 = 1-0`, or `--from results.csv`",
        ))));
    }
    let tiebreak = entries.iter().all(|e| e.tiebreak);
    let lines = store
        .transaction(&ctx.command_info(), |ev| {
            let before = ev
                .team_pools
                .get(&pool)
                .map(|s| s.withdrawn.clone())
                .unwrap_or_default();
            let (number, matches) =
                teams::record_team_results(ev, &rules, &pool, Some(number), &entries)
                    .map_err(lib_error)?;
            let mut lines = summary_lines(ev, &rules, &pool, number, &matches, lang);
            lines.extend(withdraw::forfeit_rule_lines(ev, &pool, &before, lang));
            let details = serde_json::json!({
                "group": pool,
                "round": number,
                "entries": entries.iter().map(|e| serde_json::json!({
                    "match": e.table,
                    "tiebreak": e.tiebreak,
                    "absent": e.absent,
                    "results": e.results,
                })).collect::<Vec<_>>(),
            });
            Ok(Action::TeamResults {
                group: pool.clone(),
                round: number,
                matches,
                tiebreak,
            }
            .change(lines, details))
        })
        .map_err(tx_error)?;
    for l in lines {
        outln!("{l}");
    }
    Ok(())
}

/// One line per match recorded: the teams, the score, and what is still to do.
fn summary_lines(
    ev: &qiwang::model::Event,
    rules: &qiwang::rulebook::Rulebook,
    pool: &GroupId,
    number: u32,
    matches: &[u32],
    lang: qiwang::rulebook::Lang,
) -> Vec<String> {
    let shown = views::names_and_units_masked(ev);
    let Ok(sheet) = views::team_pairing_sheet(&shown, rules, pool, Some(number), lang) else {
        return Vec::new();
    };
    let team = rules.team_competition.as_ref();
    let state = ev.team_pools.get(pool);
    sheet.sections[0]
        .rows
        .iter()
        .filter(|r| matches.iter().any(|m| m.to_string() == r[0]))
        .map(|r| {
            let needs = state
                .and_then(|s| s.round(number))
                .and_then(|rd| rd.matches.iter().find(|m| m.table.to_string() == r[0]))
                .zip(team)
                .is_some_and(|(m, t)| teams::needs_tiebreak(m, t) && m.tiebreak.is_empty());
            let tail = if needs {
                lang.pick(
                    "　比分相同，须加赛：qiwang result N 加赛 …，或填成绩登记表的加赛行后 result --from",
                    "  level: tiebreak games needed (qiwang result N tiebreak …, or the slips' 加赛 rows through result --from)",
                )
            } else {
                ""
            };
            bi!(
                lang,
                zh("第{number}轮第{}场 {} {} {}{tail}", r[0], r[2], r[3], r[4]),
                en(
                    "round {number} match {}: {} {} {}{tail}",
                    r[0],
                    r[2],
                    r[3],
                    r[4]
                )
            )
        })
        .collect()
}
