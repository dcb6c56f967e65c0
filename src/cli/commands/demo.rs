//! `qiwang demo [DIR]`: a whole bundled example event, start to finish.
//!
//! Everything goes through the same store transactions as the real commands, so the
//! demo leaves a genuine event directory (with history and audit log) to explore.

use crate::cli::args::DemoArgs;
use crate::cli::context::ExitStatus;
use crate::cli::context::tx_error;
use crate::cli::context::{Ctx, lib_error, player_label};
use crate::cli::error::CliError;
use qiwang::i18n::{Localize, Text};
use qiwang::model::{Event, GroupId, Outcome, Pairing, PlayerId, PlayerStatus};
use qiwang::registration::{ImportOptions, read_registrations};
use qiwang::report::{Format, Json};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::action::{Action, GroupResults, PairedRound};
use qiwang::store::{Change, CommandInfo, Store};
use std::path::Path;

const JINHUA_RULES: &str = include_str!("../../../rules/jinhua-2018.toml");
const JINHUA_REGISTRATIONS: &[u8] =
    include_bytes!("../../../examples/jinhua-2018/registrations.csv");

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
    if dir.join("qiwang.json").exists() {
        return Err(CliError::usage(Text::new(
            format!(
                "`{}` 中已有赛事：演示从不覆盖赛事；请换一个目录（`qiwang demo DIR`）或删除它",
                dir.display()
            ),
            format!(
                "`{}` already holds an event: the demo never overwrites one; give another directory (`qiwang demo DIR`) or delete it",
                dir.display()
            ),
        )));
    }
    let (rules_text, rules_source) = match &args.rules {
        Some(p) => (crate::cli::context::read_text(p)?, p.display().to_string()),
        None => (
            JINHUA_RULES.to_string(),
            "rules/jinhua-2018.toml".to_string(),
        ),
    };
    let (registrations, reg_source) = match &args.registrations {
        Some(p) => (
            crate::cli::error::read_input(p, qiwang::input::InputKind::Sheet)?,
            p.display().to_string(),
        ),
        None if args.rules.is_none() => (
            JINHUA_REGISTRATIONS.to_vec(),
            "examples/jinhua-2018/registrations.csv".to_string(),
        ),
        None => {
            return Err(CliError::usage(Text::new(
                "用 `--rules` 时也请给出 `--registrations`（例如 examples/dongguan-2018/registrations.csv）",
                "with `--rules` give `--registrations` too (e.g. examples/dongguan-2018/registrations.csv)",
            )));
        }
    };
    let rules = Rulebook::from_toml(&rules_text, &rules_source)
        .map_err(|e| CliError::new(e.exit_code(), Text::of(&e)))?;
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
            let players = read_registrations(
                &registrations,
                &reg_source,
                &ImportOptions::default(),
                &rules,
                &ev.players,
                ev.next_player_id(),
            )
            .map_err(|e| CliError::new(e.exit_code(), Text::of(&e)))?;
            let n = players.len();
            ev.players.extend(players);
            Ok(Action::Imported {
                players: n,
                files: vec![reg_source.clone()],
            }
            .change(n, serde_json::json!({ "file": reg_source })))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        lang.pick(
            &format!("导入报名 {n} 名棋手"),
            &format!("imported {}", qiwang::i18n::plural(n, "player", "players"))
        )
    );

    // Group sizes (Dongguan 九: groups under the minimum are cancelled or merged, as the
    // rulebook's `merge_into` says).
    let event = store.load().map_err(lib_error)?;
    let mut cancelled = Vec::new();
    for u in qiwang::prizes::undersized_groups(&event, &rules) {
        let target = rules.group(&u.group).and_then(|g| g.merge_into.clone());
        match target {
            Some(into) => {
                store
                    .transaction(
                        &cmd(&["group-merge", u.group.as_str(), into.as_str()]),
                        |ev| {
                            let report = qiwang::prizes::merge_group(ev, &rules, &u.group, &into)
                                .map_err(|e| CliError::new(e.exit_code(), Text::of(&e)))?;
                            Ok(Action::GroupMerged {
                                from: u.group.clone(),
                                into: into.clone(),
                                moved: report.moved.len(),
                            }
                            .change((), serde_json::json!({ "from": u.group, "into": into })))
                        },
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

    let pools: Vec<GroupId> = rules
        .pools()
        .map(|g| g.id.clone())
        .filter(|g| event.players_in(g).next().is_some() && !cancelled.contains(g))
        .collect();
    // One forfeit and one withdrawal in the largest pool, so the demo shows both.
    let largest = pools
        .iter()
        .max_by_key(|g| event.players_in(g).count())
        .cloned();
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

    let d = dir.display();
    outln!();
    outln!("{}", lang.pick("继续探索：", "Explore further:"));
    let first = pools
        .first()
        .map(|g| rules.group(g).map(|r| r.name.clone()).unwrap_or_default())
        .unwrap_or_default();
    // The program as it was started (`target/release/qiwang` after `cargo run`), so the
    // hints work before qiwang is on the PATH.
    let exe = std::env::args()
        .next()
        .filter(|a| a.contains('/'))
        .unwrap_or_else(|| "qiwang".to_string());
    let q = format!("{exe} --event {d}");
    outln!("  {q} standings --group {first}");
    outln!("  {q} crosstable --group {first}");
    outln!("  {q} teams");
    outln!("  {q} prizes --format html > prizes.html");
    outln!("  {q} export --format html --out site");
    outln!("  {q} log");
    Ok(())
}

fn play_pool(
    store: &Store,
    rules: &Rulebook,
    pool: &GroupId,
    incidents: bool,
    seed: u64,
    lang: Lang,
) -> Result<(), CliError> {
    let name = rules
        .group(pool)
        .map(|g| g.name.clone())
        .unwrap_or_else(|| pool.to_string());
    let rounds = rules.rounds_for(pool);
    let seed = seed
        ^ pool
            .as_str()
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    for round in 1..=rounds {
        // Pair inside the transaction, on the state it is about to change. A pool that
        // cannot be paired any further ends here (nothing is written).
        let stuck = store
            .transaction(&cmd(&["pair", "--group", pool.as_str()]), |ev| {
                Ok::<_, CliError>(
                    match qiwang::pairing::pair_next_round(ev, rules, pool, seed) {
                        Ok(plan) => {
                            plan.apply(ev, pool, seed);
                            Action::Paired {
                                rounds: vec![PairedRound {
                                    group: pool.clone(),
                                    round,
                                    seed: None,
                                    games: None,
                                    relax: None,
                                }],
                                refused: Vec::new(),
                            }
                            .change(None, serde_json::json!({ "group": pool, "round": round }))
                        }
                        Err(e) => Change::Unchanged(Some(e)),
                    },
                )
            })
            .map_err(tx_error)?;
        if let Some(e) = stuck {
            match lang {
                Lang::Zh => outln!("  {name}：第{round}轮无法编排，停止：{}", e.localize(lang)),
                Lang::En => outln!("  {name}: stopped before round {round}: {e}"),
            }
            return Ok(());
        }
        let (notes, counts) = store
            .transaction(&cmd(&["result", "--group", pool.as_str()]), |ev| {
                let absent: Vec<PlayerId> = if incidents && round == 3 {
                    lowest_numbered_game_player(ev, pool, round)
                } else {
                    Vec::new()
                };
                let entries = qiwang::simulate::round_results(ev, pool, round, seed, &absent);
                let report =
                    qiwang::results::record_results(ev, rules, pool, Some(round), &entries)
                        .map_err(|e| CliError::new(e.exit_code(), Text::of(&e)))?;
                if incidents && round == 5 {
                    withdraw_one(ev, pool, round);
                }
                let notes = report.messages_named(lang, &|id| player_label(ev, id));
                let action = Action::Results {
                    groups: vec![GroupResults::of(&report)],
                };
                let details = serde_json::json!({
                    "group": pool,
                    "round": round,
                    "notes": report.messages(),
                });
                Ok(action.change((notes, tally(ev, pool, round, lang)), details))
            })
            .map_err(tx_error)?;
        outln!("  {name} {} {counts}", round_label(round, lang));
        for m in notes {
            outln!("    {m}");
        }
    }
    Ok(())
}

fn round_label(round: u32, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("第{round}轮"),
        Lang::En => format!("round {round}"),
    }
}

/// "35 games: red 12, draws 11, black 10, forfeits 1, byes 1".
fn tally(event: &Event, pool: &GroupId, round: u32, lang: Lang) -> String {
    let Some(r) = event.group(pool).and_then(|g| g.round(round)) else {
        return String::new();
    };
    let (mut red, mut draw, mut black, mut forfeit, mut bye) = (0, 0, 0, 0, 0);
    for p in &r.pairings {
        match p {
            Pairing::Bye { .. } => bye += 1,
            Pairing::Game {
                result: Some(res), ..
            } => match res.outcome {
                Outcome::RedWin => red += 1,
                Outcome::Draw => draw += 1,
                Outcome::BlackWin => black += 1,
                _ => forfeit += 1,
            },
            Pairing::Game { .. } => {}
        }
    }
    let games = red + draw + black + forfeit;
    match lang {
        Lang::Zh => format!("{games}台：红胜{red} 和{draw} 黑胜{black} 弃权{forfeit} 轮空{bye}"),
        Lang::En => format!(
            "{}: red {red}, draws {draw}, black {black}, forfeits {forfeit}, byes {bye}",
            qiwang::i18n::plural(games, "game", "games")
        ),
    }
}

/// The black player of the last table misses round 3 (a forfeit).
fn lowest_numbered_game_player(event: &Event, pool: &GroupId, round: u32) -> Vec<PlayerId> {
    event
        .group(pool)
        .and_then(|g| g.round(round))
        .and_then(|r| {
            r.pairings.iter().rev().find_map(|p| match p {
                Pairing::Game { black, .. } => Some(*black),
                Pairing::Bye { .. } => None,
            })
        })
        .into_iter()
        .collect()
}

/// The lowest-placed active player withdraws after round 5 (voluntary withdrawal).
fn withdraw_one(ev: &mut Event, pool: &GroupId, round: u32) {
    let candidate = ev
        .players
        .iter()
        .filter(|p| &p.group == pool && !p.is_withdrawn())
        .max_by_key(|p| p.number)
        .map(|p| p.id);
    if let Some(id) = candidate
        && let Some(p) = ev.player_mut(id)
    {
        p.status = PlayerStatus::Withdrawn {
            from_round: round + 1,
            cause: qiwang::model::WithdrawalCause::Manual { note: None },
        };
    }
}

/// Where the demo puts its event when no directory is given.
pub fn default_dir() -> &'static Path {
    Path::new("qiwang-demo")
}
