//! The team event's own commands and read-outs beside the round's: `lineup` (reserves
//! in), `unpair`, `check`, `standings`, `crosstable`, `prizes` and `boards`.

use super::*;
use crate::cli::commands::pair::personal;
use crate::cli::context::Refusal;
use qiwang::commands::check::check_team;
use qiwang::commands::pair::unpair_team_pool;
use qiwang::i18n::plural;

/// `lineup ROUND TEAM OUT IN [OUT IN …]`: reserves in for players, each on the board of
/// the player taken out.
pub fn lineup(
    ctx: &Ctx,
    group: Option<&str>,
    round: u32,
    team: &str,
    players: &[String],
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let pool = resolve_pool(&rules, &event, group)?;
    if players.is_empty() || players.len() % 2 == 1 {
        return Err(CliError::from(Refusal::Missing(Text::new(
            "请成对写出换下和换上的棋手：qiwang lineup 轮次 队名 换下 换上 [换下 换上 …]",
            "give players in pairs, out then in: qiwang lineup ROUND TEAM OUT IN [OUT IN …]",
        ))));
    }
    let swaps: Vec<(String, String)> = players
        .chunks(2)
        .map(|c| (c[0].clone(), c[1].clone()))
        .collect();
    let report = store
        .transaction(&ctx.command_info(), |ev| {
            let (_, _, lineup) =
                teams::change_lineup(ev, &rules, &pool, round, team, &swaps).map_err(lib_error)?;
            let shown = views::names_and_units_masked(ev);
            let report = views::team_pairing_sheet(&shown, &rules, &pool, Some(round), lang)
                .map_err(lib_error)?;
            let details = serde_json::json!({
                "group": pool, "round": round, "team": team, "lineup": lineup,
            });
            Ok(Action::LineupChanged {
                group: pool.clone(),
                round,
                team: team.to_string(),
                swaps: swaps.clone(),
            }
            .change(report, details))
        })
        .map_err(tx_error)?;
    ctx.print(&report)
}

/// `unpair` in a team event: one library call (`commands::pair::unpair_team_pool`).
pub fn unpair(ctx: &Ctx, loaded: Loaded, pool: GroupId) -> Result<(), CliError> {
    let Loaded { store, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let n = unpair_team_pool(&store, &ctx.command_info(), &pool).map_err(lib_error)?;
    outln!(
        "{}",
        bi!(lang, zh("已撤销第{n}轮编排"), en("dropped round {n}"))
    );
    Ok(())
}

/// `check` and `check --optimal` in a team event: one library call
/// (`commands::check::check_team`: the engine's checker and proof on the teams, every
/// board's colours against the team with 先, every line-up), rendered.
pub fn check(
    ctx: &Ctx,
    loaded: Loaded,
    group: Option<&str>,
    optimal: bool,
    round: Option<u32>,
) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let pool = resolve_pool(&rules, &event, group)?;
    let checked = check_team(&event, &rules, &pool, optimal, round).map_err(lib_error)?;
    let name = |p: qiwang::model::PlayerId| checked.team_name(p);
    let mut lines: Vec<String> = checked
        .violations
        .iter()
        .map(|v| v.text_in(lang, &name, qiwang::pairing::Vocabulary::Teams))
        .collect();
    lines.extend(checked.boards.iter().map(|b| {
        Text::new(
            format!("第{b}（轮-场-台）的棋手与该台执红/执黑的队不符"),
            format!(
                "board {b} (round-match-board) seats a player of the wrong team for its colour"
            ),
        )
        .get(lang)
        .to_string()
    }));
    for (r, team, why) in &checked.lineups {
        let why = why.get(lang);
        lines.push(bi!(
            lang,
            zh("第{r}轮 {team}：{why}"),
            en("round {r}, {team}: {why}")
        ));
    }
    for (r, verdict) in &checked.proofs {
        lines.extend(verdict.lines_in(*r, lang, &name, qiwang::pairing::Vocabulary::Teams));
    }
    let found = Found {
        violations: checked.violations.len(),
        boards: checked.boards.len(),
        lineups: checked.lineups.len(),
        rounds: checked.rounds_failed(),
    };
    if lines.is_empty() {
        lines.push(
            lang.pick(
                "各轮对阵均符合规则，各台先后手与先走队一致",
                "every round keeps the rules, and every board's colours follow the team with first move",
            )
            .to_string(),
        );
    }
    // The plain check names the names and units that hold a personal number, as an
    // individual event's does; `--optimal` proves the rounds only.
    let personal = match optimal {
        true => Vec::new(),
        false => {
            qiwang::commands::check::personal_numbers(&event, Some(std::slice::from_ref(&pool)))
        }
    };
    lines.extend(personal.iter().map(|f| personal::line(f, lang)));
    for l in &lines {
        outln!("{l}");
    }
    match personal::and(found.any().then(|| found.said()), personal.len()) {
        Some(text) => Err(CliError::from(Refusal::CheckFailed(text))),
        None => Ok(()),
    }
}

/// What a team pool's `check` found, by kind, for the refusal that ends it (worded as the
/// individual `check`'s: a count and a kind).
struct Found {
    violations: usize,
    boards: usize,
    lineups: usize,
    /// Rounds `--optimal` found not optimal, with colours not by the rules, or not
    /// comparable.
    rounds: usize,
}

impl Found {
    /// Whether anything was found: `check` fails.
    fn any(&self) -> bool {
        self.violations + self.boards + self.lineups + self.rounds > 0
    }

    fn said(&self) -> Text {
        let mut zh = Vec::new();
        let mut en = Vec::new();
        if self.violations > 0 {
            let said = super::super::pair::hard_rule_violations(self.violations);
            zh.push(said.zh);
            en.push(said.en);
        }
        if self.boards > 0 {
            zh.push(format!(
                "有 {} 台的棋手与该台执红/执黑的队不符",
                self.boards
            ));
            en.push(format!(
                "{} a player of the wrong team for its colour",
                plural(self.boards, "board seats", "boards seat")
            ));
        }
        if self.lineups > 0 {
            zh.push(format!("有 {} 处出场名单问题", self.lineups));
            en.push(plural(self.lineups, "line-up problem", "line-up problems"));
        }
        if self.rounds > 0 {
            zh.push(format!(
                "有 {} 轮不是最优编排、先后手不符规则或无法比较",
                self.rounds
            ));
            en.push(format!(
                "{} not optimal, with colours not by the rules, or not comparable",
                plural(self.rounds, "round", "rounds")
            ));
        }
        Text::new(zh.join("；"), en.join("; "))
    }
}

/// `standings`, `teams` in a team event.
pub fn standings(
    ctx: &Ctx,
    loaded: Loaded,
    group: Option<&str>,
    round: Option<u32>,
) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let pool = resolve_pool(&rules, &event, group)?;
    ctx.print(&views::team_standings_report(&event, &rules, &pool, round, lang).map_err(lib_error)?)
}

/// `crosstable` in a team event.
pub fn crosstable(
    ctx: &Ctx,
    loaded: Loaded,
    group: Option<&str>,
    round: Option<u32>,
) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let pool = resolve_pool(&rules, &event, group)?;
    ctx.print(&views::team_crosstable(&event, &rules, &pool, round, lang).map_err(lib_error)?)
}

/// `prizes` in a team event: the team prize sheet with the board prizes.
pub fn prizes(ctx: &Ctx, loaded: Loaded) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let pool = resolve_pool(&rules, &event, None)?;
    ctx.print(&views::team_prize_sheet(&event, &rules, &pool, lang).map_err(lib_error)?)
}

/// `boards`: every player's results board by board.
pub fn boards(ctx: &Ctx, group: Option<&str>, round: Option<u32>) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load_shown()?;
    let lang = ctx.lang(&rules);
    let pool = resolve_pool(&rules, &event, group)?;
    ctx.print(&views::board_results(&event, &rules, &pool, round, lang).map_err(lib_error)?)
}
