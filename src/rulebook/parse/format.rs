//! A group's format keys: `format` (Swiss, round robin, knockout) with its cycles,
//! seeding, tiebreaks and withdrawal rule, a knockout's match and tiebreak-game keys, and
//! a Swiss group's final stage (docs/rules.md §14, §16).

use crate::i18n::Text;
use crate::rulebook::names::Named;
use crate::rulebook::reader::{Ctx, Sec, unknown_name_message};
use crate::rulebook::types::*;

/// A group's format keys (docs/rules.md §14): `format`, and for a round robin `cycles`,
/// `withdrawn_results`; `seeding`, `tiebreaks` and `fallback` for any group. A round robin
/// plays as many rounds as its field needs, so it may not set `rounds`; a round-robin key
/// on a Swiss group is refused rather than ignored.
pub(super) fn parse_format(ctx: &mut Ctx, sec: &Sec) -> GroupFormat {
    let mut f = GroupFormat::swiss();
    if let Some(kind) = sec.named(ctx, "format") {
        f.kind = kind;
    }
    if let Some(cycles) = sec.count(ctx, "cycles", 1) {
        if cycles > MAX_CYCLES {
            sec.report(
                ctx,
                "cycles",
                Text::new(
                    format!("循环次数 `{cycles}` 太多；最多 {MAX_CYCLES} 次"),
                    format!("`{cycles}` cycles are too many; at most {MAX_CYCLES}"),
                ),
            );
        } else {
            f.cycles = cycles;
        }
    }
    f.seeding = sec.named(ctx, "seeding");
    f.tiebreaks = super::ranking::tiebreak_list(ctx, sec, "tiebreaks");
    f.fallback = sec.named(ctx, "fallback");
    if let Some(w) = sec.named(ctx, "withdrawn_results") {
        f.withdrawn_results = w;
    }
    parse_knockout(ctx, sec, &mut f.knockout);
    parse_final_stage(ctx, sec, &mut f);
    if !matches!(f.kind, FormatKind::Swiss) && sec.has("pairs_with") {
        sec.report(
            ctx,
            "format",
            Text::new(
                "分组跟随其编排组的赛制（`pairs_with`）；请把 `format` 写在编排组上",
                "a section plays in its pool's format (`pairs_with`); set `format` on the pool",
            ),
        );
    }
    if f.is_knockout() && sec.has("rounds") {
        sec.report(
            ctx,
            "rounds",
            Text::new(
                "淘汰赛的轮数由人数和比赛局数决定；请删除 `rounds`，用 `games` 和 `tiebreak_games` 设置每场的局数",
                "a knockout plays as many rounds as its bracket and matches need; remove `rounds` and set `games` and `tiebreak_games` for the games of a match",
            ),
        );
    }
    if !f.plays_knockout() {
        for key in [
            "games",
            "tiebreak_games",
            "first_colour",
            "third_place",
            "play_off_5_8",
        ] {
            if sec.has(key) {
                sec.report(
                    ctx,
                    key,
                    Text::new(
                        format!("`{key}` 只用于淘汰赛；请同时写 `format = \"knockout\"`（或淘汰赛决赛阶段 `final_stage = \"knockout\"`），或删除它"),
                        format!("`{key}` is for a knockout only; add `format = \"knockout\"` (or a knockout final stage, `final_stage = \"knockout\"`) or remove it"),
                    ),
                );
            }
        }
    }
    if f.is_round_robin() {
        if sec.has("rounds") {
            sec.report(
                ctx,
                "rounds",
                Text::new(
                    "循环赛的轮数由人数决定（单循环 n−1 轮，人数为单数时 n 轮）；请删除 `rounds`，用 `cycles` 设置循环次数",
                    "a round robin plays as many rounds as its field needs (n − 1, or n for an odd field, per cycle); remove `rounds` and set `cycles` for the number of cycles",
                ),
            );
        }
    } else {
        // A round-robin final stage takes these keys; one written but refused has its own
        // message, and its keys are not blamed as well.
        let stage_takes_them = match f.final_stage {
            Some(stage) => stage.is_round_robin(),
            None => sec.has("final_stage"),
        };
        for key in ["cycles", "withdrawn_results"] {
            if !stage_takes_them && sec.has(key) {
                sec.report(
                    ctx,
                    key,
                    Text::new(
                        format!("`{key}` 只用于循环赛；请同时写 `format = \"round_robin\"`，或删除它"),
                        format!("`{key}` is for a round robin only; add `format = \"round_robin\"` or remove it"),
                    ),
                );
            }
        }
    }
    f
}

/// A knockout's keys: `games` (1–9), `tiebreak_games` (stage names, each any number of
/// times, a lot ending the list), `first_colour`, `third_place`.
fn parse_knockout(ctx: &mut Ctx, sec: &Sec, k: &mut KnockoutRules) {
    if let Some(games) = sec.count(ctx, "games", 1) {
        if games > MAX_MATCH_GAMES {
            sec.report(
                ctx,
                "games",
                Text::new(
                    format!("每场 `{games}` 局太多；最多 {MAX_MATCH_GAMES} 局"),
                    format!("`{games}` games a match are too many; at most {MAX_MATCH_GAMES}"),
                ),
            );
        } else {
            k.games = games;
        }
    }
    if let Some(list) = sec.strings(ctx, "tiebreak_games") {
        let path = sec.key_path("tiebreak_games");
        let mut stages = Vec::new();
        for (i, (name, span)) in list.into_iter().enumerate() {
            let key = format!("{path}[{i}]");
            match TiebreakStage::parse(&name) {
                None => ctx.report(
                    span,
                    key,
                    unknown_name_message::<TiebreakStage>(&name, ("加赛", "tiebreak game")),
                ),
                Some(stage) => {
                    if stages.last() == Some(&TiebreakStage::Lot) {
                        ctx.report(
                            span,
                            key,
                            Text::new(
                                "抽签已决定胜负，其后的加赛不会进行；请把 `lot` 放在最后",
                                "a lot decides the match, so nothing after it is played; put `lot` last",
                            ),
                        );
                    }
                    stages.push(stage);
                }
            }
        }
        if stages.len() > MAX_TIEBREAK_STAGES {
            sec.report(
                ctx,
                "tiebreak_games",
                Text::new(
                    format!("加赛最多 {MAX_TIEBREAK_STAGES} 段"),
                    format!("at most {MAX_TIEBREAK_STAGES} tiebreak stages"),
                ),
            );
        } else {
            k.tiebreak = stages;
        }
    }
    if let Some(v) = sec.named(ctx, "first_colour") {
        k.first_colour = v;
    }
    if let Some(v) = sec.boolean(ctx, "third_place") {
        k.third_place = v;
    }
    if let Some(v) = sec.boolean(ctx, "play_off_5_8") {
        k.play_off_5_8 = v;
    }
}

/// `final_stage = "knockout"` or `"round_robin"` with `finalists = N` on a Swiss group:
/// its top N play a knockout or a round robin after its rounds (docs/rules.md §16.6,
/// §16.7). A round-robin stage takes `cycles`, `withdrawn_results` and `carried_results`.
fn parse_final_stage(ctx: &mut Ctx, sec: &Sec, f: &mut GroupFormat) {
    let kind: Option<FormatKind> = sec.named(ctx, "final_stage");
    let finalists = sec.count(ctx, "finalists", 2);
    let carried: Option<CarriedResults> = sec.named(ctx, "carried_results");
    let round_robin = kind == Some(FormatKind::RoundRobin) && f.kind == FormatKind::Swiss;
    if carried.is_some() && !round_robin {
        sec.report(
            ctx,
            "carried_results",
            Text::new(
                "`carried_results` 只用于循环赛决赛阶段；请同时写 `final_stage = \"round_robin\"`，或删除它",
                "`carried_results` is for a round-robin final stage; add `final_stage = \"round_robin\"` or remove it",
            ),
        );
    }
    let max = match kind {
        Some(FormatKind::RoundRobin) => MAX_STAGE_ROUND_ROBIN,
        _ => crate::formats::knockout::MAX_PLAYERS,
    };
    match kind {
        None => {
            if sec.has("finalists") {
                sec.report(
                    ctx,
                    "finalists",
                    Text::new(
                        "`finalists` 只用于决赛阶段；请同时写 `final_stage = \"knockout\"` 或 `\"round_robin\"`，或删除它",
                        "`finalists` is for a final stage; add `final_stage = \"knockout\"` or `\"round_robin\"`, or remove it",
                    ),
                );
            }
        }
        Some(stage @ (FormatKind::Knockout | FormatKind::RoundRobin))
            if f.kind == FormatKind::Swiss =>
        {
            match finalists {
                Some(n) if n <= max => {
                    let mut s = FinalStage::knockout(n);
                    if stage == FormatKind::RoundRobin {
                        s.format = stage;
                        s.cycles = f.cycles;
                        s.carried = carried.unwrap_or_default();
                    }
                    f.final_stage = Some(s);
                }
                Some(n) => sec.report(
                    ctx,
                    "finalists",
                    Text::new(
                        format!("决赛阶段 `{n}` 人太多；最多 {max} 人"),
                        format!("`{n}` finalists are too many; at most {max}"),
                    ),
                ),
                None => {
                    if !sec.has("finalists") {
                        sec.missing(ctx, "finalists", "finalists = 8");
                    }
                }
            }
        }
        Some(FormatKind::Knockout | FormatKind::RoundRobin) => sec.report(
            ctx,
            "final_stage",
            Text::new(
                "决赛阶段接在积分编排制之后；本组别不是积分编排制，请删除 `final_stage`",
                "a final stage follows a Swiss group; this group is not Swiss, remove `final_stage`",
            ),
        ),
        Some(FormatKind::Swiss) => sec.report(
            ctx,
            "final_stage",
            Text::new(
                "决赛阶段是淘汰赛或单循环：请写 `final_stage = \"knockout\"` 或 `\"round_robin\"`",
                "a final stage is a knockout or a round robin: write `final_stage = \"knockout\"` or `\"round_robin\"`",
            ),
        ),
    }
}

/// The most finalists of a round-robin final stage (a 20-player single round robin is
/// already 19 rounds; the Berger tables are checked up to 20 players).
pub const MAX_STAGE_ROUND_ROBIN: u32 = 20;

/// The most regular games of a knockout match.
pub const MAX_MATCH_GAMES: u32 = 9;

/// The most tiebreak stages of a knockout match.
pub const MAX_TIEBREAK_STAGES: usize = 9;

/// The most cycles a round robin may set (四循环 is the most any regulation seen plays).
pub const MAX_CYCLES: u32 = 4;
