//! `qiwang demo [DIR]`: a whole bundled example event, start to finish.
//!
//! Everything goes through the same store transactions as the real commands, so the
//! demo leaves a genuine event directory (with history and audit log) to explore.

use crate::cli::args::DemoArgs;
use crate::cli::context::Refusal;
use crate::cli::context::tx_error;
use crate::cli::context::{Ctx, lib_error, player_label};
use crate::cli::error::CliError;
use qiwang::demo;
use qiwang::i18n::bi;
use qiwang::i18n::{Localize, Text};
use qiwang::model::{Event, GroupId};
use qiwang::report::{Format, Json};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::{CommandInfo, Store};
use std::path::Path;

mod bundled;
mod play;
use play::{play_pool, play_teams};

/// The audit entry of one demo step, named like the real command it stands for.
fn cmd(args: &[&str]) -> CommandInfo {
    let name = args.first().copied().unwrap_or("demo");
    CommandInfo::new(
        name,
        std::iter::once("demo")
            .chain(args.iter().copied())
            .map(String::from)
            .collect(),
    )
}

pub fn run(ctx: &Ctx, args: DemoArgs) -> Result<(), CliError> {
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| default_dir().to_path_buf());
    // What the demo makes is removed again when it fails, so no half-made event is left
    // to trip the next `qiwang demo`: the directory if it made it, else the entries that
    // were not there before.
    let before: Option<Vec<std::ffi::OsString>> = std::fs::read_dir(&dir)
        .ok()
        .map(|entries| entries.flatten().map(|e| e.file_name()).collect());
    let result = run_in(ctx, &args, &dir);
    let made = |dir: &Path| -> Vec<std::path::PathBuf> {
        match (&before, std::fs::read_dir(dir)) {
            (None, Ok(_)) => vec![dir.to_path_buf()],
            (Some(before), Ok(entries)) => entries
                .flatten()
                .filter(|e| !before.contains(&e.file_name()))
                .map(|e| e.path())
                .collect(),
            (_, Err(_)) => Vec::new(),
        }
    };
    match result {
        Err(e) => {
            let made = made(&dir);
            if made.is_empty() {
                return Err(e);
            }
            let d = dir.display();
            let note = match remove_all(&made) {
                Ok(()) => Text::new(
                    format!("演示未完成，已删除它在 `{d}` 中建立的文件"),
                    format!("the demo did not finish; what it made in `{d}` was removed"),
                ),
                Err(err) => Text::new(
                    format!("演示未完成，`{d}` 中建立的文件未能删除（{err}）：请手工删除"),
                    format!(
                        "the demo did not finish and what it made in `{d}` could not be removed ({err}): delete it by hand"
                    ),
                ),
            };
            Err(e.map_message(|m, l| format!("{m}\n{}", note.get(l))))
        }
        ok => ok,
    }
}

/// Removes the files and directories a failed demo made.
fn remove_all(paths: &[std::path::PathBuf]) -> std::io::Result<()> {
    for path in paths {
        match std::fs::symlink_metadata(path)?.is_dir() {
            true => std::fs::remove_dir_all(path)?,
            false => std::fs::remove_file(path)?,
        }
    }
    Ok(())
}

fn run_in(ctx: &Ctx, args: &DemoArgs, dir: &Path) -> Result<(), CliError> {
    let dir = dir.to_path_buf();
    if dir.join("qiwang.json").exists() {
        return Err(CliError::from(Refusal::EventInTheWay(Text::new(
            format!(
                "`{}` 中已有赛事：演示从不覆盖赛事；请换一个目录（`qiwang demo DIR`）或删除它",
                dir.display()
            ),
            format!(
                "`{}` already holds an event: the demo never overwrites one; give another directory (`qiwang demo DIR`) or delete it",
                dir.display()
            ),
        ))));
    }
    let (rules_text, rules_source) = bundled::rules(args)?;
    let (registrations, reg_source) = bundled::registrations(args)?;
    let rules = Rulebook::from_toml(&rules_text, &rules_source).map_err(lib_error)?;
    let lang = ctx.lang(&rules);
    let store = Store::init(
        &dir,
        &rules_text,
        &Event::new(rules_text.clone()),
        &cmd(&["init"]),
    )
    .map_err(lib_error)?;
    outln!(
        "{} {} → {}",
        lang.pick("演示赛事", "demo event"),
        rules.event.name,
        dir.display()
    );

    // Registration.
    let n = store
        .transaction(&cmd(&["import", &reg_source]), |ev| {
            demo::register(ev, &rules, &registrations, &reg_source).map_err(lib_error)
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        bi!(
            lang,
            zh("导入报名 {n} 名棋手"),
            en("imported {}", qiwang::i18n::plural(n, "player", "players"))
        )
    );

    if rules.team_competition.is_some() {
        return play_teams(&store, &rules, args.seed, lang, &dir);
    }

    // Group sizes (Dongguan 九: groups under the minimum are cancelled or merged, as the
    // rulebook's `merge_into` says).
    let event = store.load().map_err(lib_error)?;
    let mut cancelled = Vec::new();
    for u in qiwang::registration::undersized_groups(&event, &rules) {
        let target = rules.group(&u.group).and_then(|g| g.merge_into.clone());
        match target {
            Some(into) => {
                store
                    .transaction(
                        &cmd(&["group-merge", u.group.as_str(), into.as_str()]),
                        |ev| demo::merge(ev, &rules, &u.group, &into).map_err(lib_error),
                    )
                    .map_err(tx_error)?;
                let into_name = rules
                    .group(&into)
                    .map(|g| g.name.clone())
                    .unwrap_or_default();
                outln!(
                    "  {} {} {} < {}，{} {into_name}",
                    lang.pick("注意：", "note:"),
                    u.name,
                    u.count,
                    u.min,
                    lang.pick("按规程并入", "merged as the rulebook says into")
                );
            }
            None => {
                outln!(
                    "  {} {} {} < {}，{}",
                    lang.pick("注意：", "note:"),
                    u.name,
                    u.count,
                    u.min,
                    lang.pick("按规程取消该组比赛", "cancelled as the rulebook says")
                );
                cancelled.push(u.group.clone());
            }
        }
    }
    let event = store.load().map_err(lib_error)?;

    let pools = demo::pools_to_play(&event, &rules, &cancelled);
    // One forfeit and one withdrawal in the largest pool, so the demo shows both.
    let largest = demo::largest_pool(&event, &pools);
    for pool in &pools {
        play_pool(
            &store,
            &rules,
            pool,
            largest.as_ref() == Some(pool),
            args.seed,
            lang,
        )?;
    }

    // Final standings, team ranking and prize sheet.
    // Standings are computed once and serve all three.
    let event = store.load().map_err(lib_error)?;
    let standings = qiwang::views::all_standings(&event, &rules);
    for st in pools.iter().filter_map(|p| standings.get(p)) {
        // Printed as a table: no JSON value is read.
        let mut report = qiwang::views::standings(&event, &rules, st, lang, Json::LeaveOut);
        report.sections.iter_mut().for_each(|s| s.rows.truncate(8));
        out!("{}", report.render(Format::Table));
    }
    let (sheet, teams) = qiwang::views::sheet_from(&event, &rules, &standings);
    if !teams.is_empty() {
        out!(
            "{}",
            qiwang::views::teams_report(&event, &rules, &teams, lang).render(Format::Table)
        );
    }
    out!(
        "{}",
        qiwang::views::prize_sheet_report(&sheet, lang).render(Format::Table)
    );

    outln!();
    outln!("{}", lang.pick("继续探索：", "Explore further:"));
    let first = pools
        .first()
        .map(|g| rules.group(g).map(|r| r.name.clone()).unwrap_or_default())
        .unwrap_or_default();
    let first = qiwang::sanitize::shell_option("--group", &first);
    let q = explore_prefix(&dir);
    outln!("  {q} standings {first}");
    outln!("  {q} crosstable {first}");
    outln!("  {q} teams");
    outln!("  {q} prizes --format html > prizes.html");
    outln!("  {q} export --format html --out site");
    outln!("  {q} log");
    Ok(())
}

/// `qiwang --event DIR` as the demo's "explore further" lines start, runnable as printed
/// in a POSIX shell: the program as it was started (`target/release/qiwang` after `cargo
/// run`), so the hints work before qiwang is on the PATH, and the directory quoted (`./-d`
/// for one starting with `-`).
pub(super) fn explore_prefix(dir: &Path) -> String {
    let exe = std::env::args()
        .next()
        .filter(|a| a.contains('/'))
        .unwrap_or_else(|| "qiwang".to_string());
    format!(
        "{} --event {}",
        qiwang::sanitize::shell_word(&exe),
        qiwang::sanitize::shell_path(dir)
    )
}

/// Where the demo puts its event when no directory is given.
pub fn default_dir() -> &'static Path {
    Path::new("qiwang-demo")
}
