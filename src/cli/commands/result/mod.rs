//! `qiwang result`, `qiwang penalty`, `qiwang playoff`

use crate::cli::context::Refusal;
use crate::cli::context::read_input;
use crate::cli::context::{
    Ctx, Loaded, LoadedKept, lib_error, player_label, pools_shown, resolve_paired_pool,
    resolve_player, resolve_pool, tx_error,
};
use crate::cli::error::CliError;
use qiwang::i18n::bi;
use qiwang::i18n::{Text, plural};
use qiwang::lookup::Shown;
use qiwang::model::{GroupId, PlayerId};
use qiwang::results::{self, ResultEntry};
use qiwang::store::action::Action;
use std::path::Path;

mod conduct;
pub(crate) use conduct::replaced_playoff;
pub use conduct::{penalty, playoff, warn};

pub fn run(
    ctx: &Ctx,
    group: Option<&str>,
    round: Option<u32>,
    from: Option<&Path>,
    args: &[String],
    names: &[String],
) -> Result<(), CliError> {
    let loaded = ctx.load_kept()?;
    if loaded.rules.team_competition.is_some() {
        return super::team::result(ctx, loaded.into_loaded(), group, round, from, args);
    }
    let LoadedKept { store, kept, rules } = loaded;
    let event = kept.event();
    let lang = ctx.lang(&rules);
    // A results file names each row's group itself (组别 column); `--group` narrows it.
    let chosen = match group {
        Some(_) => Some(resolve_paired_pool(&rules, event, group)?),
        None => None,
    };
    let (mut file_batches, mut blank_lines) = (Vec::new(), Vec::new());
    let mut file_text = None;
    if let Some(path) = from {
        // Results sheets come from the same Excel as registrations: UTF-8 or GBK.
        let bytes = read_input(path, qiwang::input::InputKind::Sheet)?;
        let file = results::results_text(&bytes, &path.display().to_string()).map_err(lib_error)?;
        let read =
            results::read_results_file(&file.text, &file.source, event, &rules, chosen.as_ref())
                .map_err(lib_error)?;
        (file_batches, blank_lines) = (read.pools, read.blank_lines);
        file_text = Some(file);
    }
    if !names.is_empty() && args.is_empty() {
        return Err(CliError::from(Refusal::Conflict(Text::new(
            "`--names` 用于核对命令行录入的成绩：`qiwang result 12 红胜 --names 闫文/卢林旭`；成绩表文件中的红方、黑方两列会自动核对",
            "`--names` checks results typed on the command line: `qiwang result 12 红胜 --names 闫文/卢林旭`; a results file's 红方/黑方 columns are checked by themselves",
        ))));
    }
    let mut typed: Vec<Typed> = Vec::new();
    if !args.is_empty() {
        let entries = results::parse_result_args(args).map_err(lib_error)?;
        let claims = results::typed_seats(&entries, names).map_err(lib_error)?;
        // Without `--group`: the one pool whose newest round still waits for results, else
        // the pool whose round holds each table (one hall numbering, docs/rules.md §12 (table numbers)).
        let waiting = pools_shown(&rules, event, Shown::AwaitingResults);
        let tables: Vec<u32> = entries.iter().map(|e| e.table).collect();
        let pools = match (&chosen, waiting.as_slice()) {
            (Some(pool), _) => vec![pool.clone(); entries.len()],
            (None, [one]) => vec![one.clone(); entries.len()],
            (None, _) => {
                match results::pools_of_tables(event, &rules, round, &tables).map_err(lib_error)? {
                    Some(pools) => pools,
                    None => vec![resolve_pool(&rules, event, None)?; entries.len()],
                }
            }
        };
        for (i, pool) in pools.iter().enumerate() {
            if pools[..i].contains(pool) {
                continue;
            }
            let mine = |j: &usize| pools[*j] == *pool;
            let entries: Vec<ResultEntry> = (0..entries.len())
                .filter(mine)
                .map(|j| entries[j])
                .collect();
            let claims: Vec<_> = if claims.is_empty() {
                Vec::new()
            } else {
                (0..claims.len())
                    .filter(mine)
                    .map(|j| claims[j].clone())
                    .collect()
            };
            results::check_typed_seats(event, &rules, pool, round, &claims).map_err(lib_error)?;
            typed.push((pool.clone(), entries, claims));
        }
    }
    if file_batches.is_empty() && typed.is_empty() {
        return Err(CliError::from(Refusal::Missing(Text::new(
            "没有给出成绩：`qiwang result 台号 结果 …`（例如 `1 r 2 = 3 b`）或 `--from FILE`",
            "no results given: `qiwang result TABLE OUTCOME …` (e.g. `1 r 2 = 3 b`) or `--from FILE`",
        ))));
    }
    let (confirmed, notes) = store
        .transaction_on(kept, &ctx.command_info(), |ev| {
            // Every group's rows in one transaction: a file is taken whole or not at all.
            // Checked again against the state as it is under the lock, so that a round
            // re-paired since the check above cannot take the file's results.
            if let Some(file) = &file_text {
                file_batches = results::read_results_file(
                    &file.text,
                    &file.source,
                    ev,
                    &rules,
                    chosen.as_ref(),
                )
                .map_err(lib_error)?
                .pools;
            }
            let mut reports = Vec::new();
            for batch in &file_batches {
                reports.push(
                    results::record_results_in_rounds(ev, &rules, &batch.group, &batch.entries)
                        .map_err(lib_error)?,
                );
            }
            for (pool, entries, claims) in &typed {
                results::check_typed_seats(ev, &rules, pool, round, claims).map_err(lib_error)?;
                reports.push(
                    results::record_results(ev, &rules, pool, round, entries).map_err(lib_error)?,
                );
            }
            let confirmed = qiwang::views::confirmation_lines(ev, &rules, &reports, lang);
            // Corrections are shown on their own lines; here only the warnings, without
            // the foul losses while every one of them has its line (which says so).
            let every_foul_loss_listed = confirmed.notable_left == 0;
            let mut notes = Vec::new();
            for report in &reports {
                notes.extend(
                    report
                        .warnings
                        .iter()
                        .filter(|w| {
                            !(every_foul_loss_listed
                                && matches!(w, results::ResultWarning::LostOnFouls { .. }))
                        })
                        .map(|w| w.text(lang, &|id| player_label(ev, id))),
                );
            }
            Ok(Action::results_change(&reports, (confirmed, notes)))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        bi!(
            lang,
            zh("已记录 {} 个结果：", confirmed.total()),
            en(
                "recorded {}:",
                plural(confirmed.total(), "result", "results")
            )
        )
    );
    for line in &confirmed.lines {
        outln!("  {line}");
    }
    let cap = qiwang::views::CONFIRM_ALL_UP_TO;
    let (notable, plain) = (confirmed.notable_left, confirmed.plain_left);
    let untold = [
        (
            notable,
            format!(
                "另有 {notable} 个更正或犯规改判的结果未列出（最多列 {cap} 个）；请用 `qiwang round` 核对"
            ),
            format!(
                "{} not listed (at most {cap} are); check them with `qiwang round`",
                plural(
                    notable,
                    "more correction or result changed by fouls",
                    "more corrections or results changed by fouls"
                )
            ),
        ),
        (
            plain,
            format!(
                "另有 {plain} 个结果按录入记录，未逐一列出（超过 {cap} 个时只列更正和犯规改判的结果）；请用 `qiwang round` 核对"
            ),
            format!(
                "{} recorded as entered, not listed (past {cap} only corrections and results changed by fouls are listed); check them with `qiwang round`",
                plural(plain, "more result", "more results")
            ),
        ),
    ];
    for (n, zh, en) in &untold {
        if *n > 0 {
            outln!("  {}", lang.pick(zh, en));
        }
    }
    if !blank_lines.is_empty() {
        let numbers: Vec<u32> = blank_lines
            .iter()
            .map(|&l| u32::try_from(l).unwrap_or(u32::MAX))
            .collect();
        let lines = qiwang::i18n::number_ranges(&numbers, lang);
        outln!(
            "  {}",
            bi!(
                lang,
                zh("结果为空的 {} 行未录入（第 {lines} 行）", blank_lines.len()),
                en(
                    "{} without a result left out (line {lines})",
                    plural(blank_lines.len(), "row", "rows")
                )
            )
        );
    }
    // Warnings past the same bound are counted: audit.log keeps every one (as data).
    for m in notes.iter().take(cap) {
        outln!("  {} {m}", lang.pick("注意：", "note:"));
    }
    if let Some(n) = notes.len().checked_sub(cap).filter(|&n| n > 0) {
        outln!(
            "  {}",
            bi!(
                lang,
                zh("另有 {n} 条注意事项未列出（audit.log 中有全部记录）"),
                en(
                    "{} not listed (audit.log keeps every one)",
                    plural(n, "more note", "more notes")
                )
            )
        );
    }
    Ok(())
}

/// Results typed on the command line: the pool, the entries and the players named.
type Typed = (GroupId, Vec<ResultEntry>, Vec<(u32, results::Seats)>);
