//! The sections about playing the games: `[scoring]`, `[pairing]` (with the order in
//! which the pairing relaxes its rules, `relax`), `[colours]` and `[conduct]`.

use super::{COLOUR_KEYS, CONDUCT_KEYS, LATE_ROUNDS_KEYS, PAIRING_KEYS, SCORING_KEYS};
use crate::i18n::Text;
use crate::model::{Points, Relax};
use crate::rulebook::names::Named;
use crate::rulebook::reader::{Ctx, Sec, Span, unknown_name_message};
use crate::rulebook::types::*;

pub(super) fn parse_scoring(ctx: &mut Ctx, root: &Sec) -> Scoring {
    let mut s = Scoring::default();
    let Some(sec) = root.sub(ctx, "scoring") else {
        return s;
    };
    sec.check_keys(ctx, SCORING_KEYS);
    let fields: [(&str, &mut Points); 10] = [
        ("red_win", &mut s.red_win),
        ("red_draw", &mut s.red_draw),
        ("red_loss", &mut s.red_loss),
        ("black_win", &mut s.black_win),
        ("black_draw", &mut s.black_draw),
        ("black_loss", &mut s.black_loss),
        ("bye", &mut s.bye),
        ("forfeit_win", &mut s.forfeit_win),
        ("forfeit_loss", &mut s.forfeit_loss),
        ("double_forfeit", &mut s.double_forfeit),
    ];
    for (key, field) in fields {
        if let Some(p) = sec.points(ctx, key) {
            *field = p;
        }
    }
    // CXA 2011 §13.3: an event may change the points, but a win never scores less than a
    // draw and a draw never less than a loss.
    let orders = [
        ("red_win", s.red_win, "red_draw", s.red_draw),
        ("red_draw", s.red_draw, "red_loss", s.red_loss),
        ("black_win", s.black_win, "black_draw", s.black_draw),
        ("black_draw", s.black_draw, "black_loss", s.black_loss),
        ("forfeit_win", s.forfeit_win, "forfeit_loss", s.forfeit_loss),
    ];
    for (high_key, high, low_key, low) in orders {
        if high < low {
            // Point at whichever of the two was written (the other is a default).
            let at = if sec.has(low_key) { low_key } else { high_key };
            sec.report(
                ctx,
                at,
                Text::new(
                    format!("{high_key} `{high}` 小于 {low_key} `{low}`；{high_key} 不能小于 {low_key}"),
                    format!("{high_key} `{high}` is less than {low_key} `{low}`; {high_key} must be at least {low_key}"),
                ),
            );
        }
    }
    s
}

pub(super) fn parse_pairing(ctx: &mut Ctx, root: &Sec) -> PairingRules {
    let mut p = PairingRules::default();
    let Some(sec) = root.sub(ctx, "pairing") else {
        return p;
    };
    sec.check_keys(ctx, PAIRING_KEYS);
    if let Some(v) = sec.named(ctx, "seeding") {
        p.seeding = v;
    }
    if let Some(v) = sec.named(ctx, "round1") {
        p.round1 = v;
    }
    if let Some(v) = sec.named(ctx, "round1_colour") {
        p.round1_colour = v;
    }
    if let Some(v) = sec.named(ctx, "round1_bye") {
        p.round1_bye = v;
    }
    if let Some(v) = sec.named(ctx, "within_group") {
        p.within_group = v;
    }
    if let Some(v) = sec.named(ctx, "equal_colour_tie") {
        p.equal_colour_tie = v;
    }
    if let Some(v) = sec.named(ctx, "team_avoidance") {
        p.team_avoidance = v;
    }
    if let Some(v) = sec.named(ctx, "bye") {
        p.bye = v;
    }
    if let Some(v) = sec.boolean(ctx, "forfeit_counts_as_met") {
        p.forfeit_counts_as_met = v;
    }
    if let Some(list) = sec.strings(ctx, "relax") {
        p.relax = parse_relax(ctx, &sec.key_path("relax"), list);
    }
    if let Some(late) = sec.sub(ctx, "late_rounds_priority") {
        late.check_keys(ctx, LATE_ROUNDS_KEYS);
        // docs/rules.md §10: last 3 rounds, a gap of at least 1 point (2-point scale).
        p.late_rounds_priority = Some(LateRoundsPriority {
            last_rounds: late.count(ctx, "last_rounds", 1).unwrap_or(3),
            min_gap: late
                .int(ctx, "min_gap", 0, i64::from(i32::MAX))
                .map_or(Points(1), |n| Points(n as i32)),
        });
    }
    p
}

/// `pairing.relax` (docs/rules.md §2.5): known rule names, each at most once; the order
/// is the order they are given up in.
fn parse_relax(ctx: &mut Ctx, path: &str, list: Vec<(String, Option<Span>)>) -> Vec<Relax> {
    let mut out = Vec::new();
    for (i, (name, span)) in list.into_iter().enumerate() {
        match relax_rule(&name, &out) {
            Ok(r) => out.push(r),
            Err(why) => ctx.report(span, format!("{path}[{i}]"), why),
        }
    }
    out
}

/// One name of a list of rules to relax (`pairing.relax`, or `pair --relax`; docs/rules.md
/// §2.5) after the rules `so_far`: the rule, or why it is refused (unknown, or listed
/// twice: a rule's place in the list is its weight).
pub fn relax_rule(name: &str, so_far: &[Relax]) -> Result<Relax, Text> {
    match Relax::parse(name) {
        None => Err(unknown_name_message::<Relax>(
            name,
            ("可放宽的规则", "rule to relax"),
        )),
        Some(r) if so_far.contains(&r) => Err(Text::new(
            format!("`{name}` 列了两次；每条规则只列一次"),
            format!("`{name}` is listed twice; list each rule once"),
        )),
        Some(r) => Ok(r),
    }
}

/// A rule to relax as the rulebook writes it (`colour`, `team`, `rematch`).
pub fn relax_rule_name(rule: Relax) -> &'static str {
    rule.name()
}

/// A list of rules to relax as `pair --relax` takes it (`rematch,colour`).
pub fn relax_list(rules: &[Relax]) -> String {
    rules
        .iter()
        .map(|r| relax_rule_name(*r))
        .collect::<Vec<_>>()
        .join(",")
}

pub(super) fn parse_colours(ctx: &mut Ctx, root: &Sec) -> ColourRules {
    let mut c = ColourRules::default();
    let Some(sec) = root.sub(ctx, "colours") else {
        return c;
    };
    sec.check_keys(ctx, COLOUR_KEYS);
    if let Some(v) = sec.limit(ctx, "max_streak", 1) {
        c.max_streak = v;
    }
    if let Some(v) = sec.limit(ctx, "max_diff", 1) {
        c.max_diff = v;
    }
    if let Some(v) = sec.boolean(ctx, "relax_streak_last_round") {
        c.relax_streak_last_round = v;
    }
    if let Some(v) = sec.boolean(ctx, "forfeit_counts") {
        c.forfeit_counts = v;
    }
    if let Some(v) = sec.boolean(ctx, "bye_counts") {
        c.bye_counts = v;
    }
    c
}

pub(super) fn parse_conduct(ctx: &mut Ctx, root: &Sec) -> Conduct {
    let mut c = Conduct::default();
    let Some(sec) = root.sub(ctx, "conduct") else {
        return c;
    };
    sec.check_keys(ctx, CONDUCT_KEYS);
    if let Some(v) = sec.count(ctx, "fouls_to_lose_game", 1) {
        c.fouls_to_lose_game = v;
    }
    if let Some(v) = sec.count(ctx, "late_forfeit_minutes", 0) {
        c.late_forfeit_minutes = v;
    }
    if let Some(v) = sec.named(ctx, "late_result") {
        c.late_result = v;
    }
    if let Some(v) = sec.limit(ctx, "withdraw_after_forfeits", 1) {
        c.withdraw_after_forfeits = v;
    }
    if let Some(v) = sec.boolean(ctx, "withdraw_consecutive") {
        c.withdraw_consecutive = v;
    }
    if let Some(v) = sec.boolean(ctx, "withdrawn_ranked") {
        c.withdrawn_ranked = v;
    }
    if let Some(v) = sec.boolean(ctx, "withdrawn_games_kept") {
        c.withdrawn_games_kept = v;
    }
    if let Some(v) = sec.boolean(ctx, "penalties_allowed") {
        c.penalties_allowed = v;
    }
    if let Some(v) = sec.boolean(ctx, "penalty_below_zero") {
        c.penalty_below_zero = v;
    }
    if let Some(v) = sec.boolean(ctx, "negative_opp_score_as_zero") {
        c.negative_opp_score_as_zero = v;
    }
    c.disturbance_penalty = sec
        .int(ctx, "disturbance_penalty", 1, i64::from(i32::MAX))
        .map(|n| Points(n as i32));
    if c.disturbance_penalty.is_some() && !c.penalties_allowed {
        sec.report(
            ctx,
            "disturbance_penalty",
            Text::new(
                "设置了扰乱赛场的罚分，但 penalties_allowed 为 `false`；请允许罚分或去掉该罚分",
                "a disturbance penalty is set but penalties_allowed is `false`; allow penalties or remove the penalty",
            ),
        );
    }
    c
}
