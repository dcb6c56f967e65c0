//! `qiwang rules update FILE`: replacing an event's frozen rulebook between rounds.
//!
//! The new rulebook must validate, and must not change what decided the rounds already
//! played: scoring, the foul limit results were entered under, the groups players are
//! registered and paired in, and fewer rounds than were played. Everything computed from
//! the results (tiebreak keys and fallbacks, prizes, teams, pairing of later rounds,
//! forfeit withdrawals) may change and is recomputed: standings are never stored, and the
//! forfeit rule is applied again to every pool.
//!
//! A rule of pairing that changes applies from each pool's next round: the rulebook being
//! replaced is kept with the rounds paired under it, and `check` judges those rounds by it
//! (docs/rules.md §13). The new rulebook must also fit the players registered
//! (`field.rs`).

mod field;

use crate::i18n::{Localize, Text};
use crate::model::Event;
use crate::results::ResultWarning;
use crate::results::apply_forfeit_withdrawals as reapply_forfeit_withdrawals;
use crate::rulebook::{Lang, Rulebook, RulebookErrors};

/// Why a new rulebook was refused; the event is unchanged.
#[derive(Debug)]
pub enum RulesUpdateError {
    /// The new rulebook does not validate.
    Invalid(RulebookErrors),
    /// Changes that would alter rounds already played, one line each.
    AltersPlayedRounds(Vec<Text>),
    /// What the new rulebook contradicts about the registered players, one line each, and
    /// the changes that would alter rounds already played (possibly none).
    ContradictsField {
        /// The contradictions with the registered players.
        field: Vec<Text>,
        /// Changes that would alter rounds already played.
        played: Vec<Text>,
    },
    /// The new rulebook is the same as the current one.
    Unchanged,
}

crate::i18n::display_english!(RulesUpdateError);

// No `source()`: `Invalid`'s rulebook errors are the whole message, not a cause to print
// again below it.
impl std::error::Error for RulesUpdateError {}

impl Localize for RulesUpdateError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            RulesUpdateError::Invalid(e) => e.localize(lang),
            RulesUpdateError::AltersPlayedRounds(lines) => {
                let list = indented(lines.iter(), lang);
                crate::i18n::bi!(
                    lang,
                    zh(
                        "新规程会改变已赛轮次的结果，未做任何修改：\n{list}\n已赛轮次按当时的计分、犯规与组别规则记录；只有名次、奖项、团体、编排与退赛规则可以在赛中修改"
                    ),
                    en(
                        "the new rulebook would alter rounds already played; nothing was changed:\n{list}\nplayed rounds stand under the scoring, foul and group rules they were played under; only ranking, prizes, teams, pairing and withdrawal rules may change during the event"
                    ),
                )
            }
            RulesUpdateError::ContradictsField { field, played } => {
                let list = indented(field.iter().chain(played), lang);
                crate::i18n::bi!(
                    lang,
                    zh(
                        "新规程与已报名的棋手相矛盾，未做任何修改：\n{list}\n规程不能取消已有的报名：请先改正这些棋手（`qiwang player edit`、`qiwang player withdraw`），或保留原来的规则"
                    ),
                    en(
                        "the new rulebook contradicts the players already registered; nothing was changed:\n{list}\na rulebook cannot take back a registration: correct the players first (`qiwang player edit`, `qiwang player withdraw`) or keep the rule as it is"
                    ),
                )
            }
            RulesUpdateError::Unchanged => crate::i18n::bi!(
                lang,
                zh("新规程与赛事当前的规程相同：没有需要修改的"),
                en("the new rulebook is the same as the event's: nothing to change"),
            ),
        }
    }
}

/// What [`update_rulebook`] changed.
#[derive(Debug)]
pub struct RulesUpdate {
    /// The new rulebook.
    pub rules: Rulebook,
    /// The effective settings that differ, as `-`/`+` lines of `rules show` output.
    pub diff: Vec<String>,
    /// Forfeit withdrawals made, moved or lifted under the new rules.
    pub warnings: Vec<ResultWarning>,
    /// What the event accepts from the new rules with a note: the round from which a
    /// pool is paired under them, a group left below its new `min_size`.
    pub notes: Vec<Text>,
}

/// Replaces the event's frozen rulebook with `text` (see the module documentation).
///
/// The diff's comments (`# default, not in the regulation`) are in `lang`, the language
/// the command prints in (`--lang`, else the rulebook's): both sides are written in that
/// one language, so neither the marker's language nor a rulebook whose `language`
/// changes makes every defaulted line differ.
pub fn update_rulebook(
    event: &mut Event,
    current: &Rulebook,
    text: &str,
    source: &str,
    lang: Lang,
) -> Result<RulesUpdate, RulesUpdateError> {
    let new = Rulebook::from_toml(text, source).map_err(RulesUpdateError::Invalid)?;
    let (old_text, new_text) = (
        current.to_effective_toml_in(lang),
        new.to_effective_toml_in(lang),
    );
    let diff = line_diff(&old_text, &new_text);
    if diff.is_empty() && event.rules_toml == text {
        return Err(RulesUpdateError::Unchanged);
    }
    let played = played_round_changes(event, current, &new);
    let field = field::contradictions(event, current, &new);
    if !field.is_empty() {
        return Err(RulesUpdateError::ContradictsField { field, played });
    }
    if !played.is_empty() {
        return Err(RulesUpdateError::AltersPlayedRounds(played));
    }
    let notes = field::notes(event, current, &new);
    // The rounds paired so far stay judged by the rules they were paired under.
    event.keep_rulebook_of_paired_rounds();
    event.rules_toml = text.to_string();
    let pools: Vec<_> = new.pools().map(|g| g.id.clone()).collect();
    let mut warnings = Vec::new();
    for pool in pools {
        warnings.extend(reapply_forfeit_withdrawals(event, &new, &pool));
    }
    Ok(RulesUpdate {
        rules: new,
        diff,
        warnings,
        notes,
    })
}

/// What the new rulebook changes about rounds already played (empty when none is).
fn played_round_changes(event: &Event, old: &Rulebook, new: &Rulebook) -> Vec<Text> {
    let played = event
        .groups
        .iter()
        .map(|(id, g)| (id, g.rounds.iter().filter(|r| r.has_results()).count()))
        .filter(|(_, n)| *n > 0)
        .collect::<Vec<_>>();
    let mut out = Vec::new();
    if played.is_empty() && event.groups.values().all(|g| g.rounds.is_empty()) {
        // Before round 1 the groups may still change; registrations are checked again
        // only by a new import.
        return out;
    }
    if old.scoring != new.scoring {
        out.push(Text::new(
            "[scoring] 计分改变了",
            "[scoring] the points of a result change",
        ));
    }
    if old.conduct.fouls_to_lose_game != new.conduct.fouls_to_lose_game {
        out.push(Text::new(
            format!(
                "conduct.fouls_to_lose_game：{} → {}（已录入的成绩按原犯规上限判定）",
                old.conduct.fouls_to_lose_game, new.conduct.fouls_to_lose_game
            ),
            format!(
                "conduct.fouls_to_lose_game: {} → {} (results were entered under the old foul limit)",
                old.conduct.fouls_to_lose_game, new.conduct.fouls_to_lose_game
            ),
        ));
    }
    for g in &old.groups {
        let same = new.groups.iter().find(|n| n.id == g.id);
        match same {
            None => out.push(Text::new(
                format!("组别 `{}` 被删除", g.id),
                format!("group `{}` is removed", g.id),
            )),
            Some(n) if n.pairs_with != g.pairs_with => out.push(Text::new(
                format!("组别 `{}` 的 pairs_with 改变了", g.id),
                format!("group `{}` changes pairs_with", g.id),
            )),
            Some(_) => {}
        }
    }
    for g in &new.groups {
        if !old.groups.iter().any(|o| o.id == g.id) && g.pairs_with.is_some() {
            out.push(Text::new(
                format!("新增的分组 `{}` 会改变已编排组别的棋手", g.id),
                format!(
                    "new section `{}` would change who plays in a paired pool",
                    g.id
                ),
            ));
        }
    }
    for (pool, _) in event.groups.iter().filter(|(_, g)| !g.rounds.is_empty()) {
        let rounds = event.groups[pool].rounds.len() as u32;
        // A paired pool keeps its format: its rounds were made by it (docs/rules.md §14).
        let (was, now) = (old.format_of(pool), new.format_of(pool));
        if (was.kind, was.cycles, was.seeding, was.final_stage)
            != (now.kind, now.cycles, now.seeding, now.final_stage)
        {
            out.push(Text::new(
                format!("组别 `{pool}` 已编排，不能再改变 format、cycles、seeding 或 final_stage"),
                format!(
                    "group `{pool}` is paired: its format, cycles, seeding and final stage cannot change"
                ),
            ));
            continue;
        }
        let planned = crate::schedule::rounds_of(event, new, pool);
        if planned < rounds {
            out.push(Text::new(
                format!("组别 `{pool}` 已编排 {rounds} 轮，新规程只有 {planned} 轮"),
                format!(
                    "group `{pool}` has {} paired, the new rulebook has {planned}",
                    crate::i18n::plural(rounds, "round", "rounds"),
                ),
            ));
        }
    }
    out
}

/// The lines that differ between two texts, `- old` and `+ new`, each after the nearest
/// `[section]` header above it (a longest-common-subsequence line diff).
pub fn line_diff(old: &str, new: &str) -> Vec<String> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = Vec::new();
    let mut section = "";
    let mut shown = "";
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        let line = if i < n && j < m && a[i] == b[j] {
            if a[i].starts_with('[') {
                section = a[i];
            }
            i += 1;
            j += 1;
            continue;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            i += 1;
            format!("- {}", a[i - 1])
        } else {
            j += 1;
            format!("+ {}", b[j - 1])
        };
        if section != shown {
            out.push(section.to_string());
            shown = section;
        }
        out.push(line);
    }
    out
}

/// The lines of a refusal, one per line, indented under its first sentence.
fn indented<'t>(lines: impl Iterator<Item = &'t Text>, lang: Lang) -> String {
    lines
        .map(|t| format!("  {}", t.get(lang)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_chinese_with_the_same_values() {
        use crate::i18n::facts::assert_localized;
        use crate::rulebook::Problem;
        let invalid = RulebookErrors {
            source: "r.toml".into(),
            problems: vec![Problem {
                line: 2,
                column: 9,
                key: "event.rounds".into(),
                message: Text::new("至少应为 1", "must be at least 1"),
            }],
        };
        assert_localized(&RulesUpdateError::Invalid(invalid));
        assert_localized(&RulesUpdateError::AltersPlayedRounds(vec![Text::new(
            "计分改变：`win` 由 `2` 改为 `3`",
            "scoring changes: `win` from `2` to `3`",
        )]));
        assert_localized(&RulesUpdateError::ContradictsField {
            field: vec![Text::new(
                "`event.max_players` 为 `1`，少于已报名的 `150` 名棋手",
                "`event.max_players` is `1`, below the `150` players registered",
            )],
            played: Vec::new(),
        });
        assert_localized(&RulesUpdateError::Unchanged);
    }

    #[test]
    fn the_diff_names_the_section_of_each_change() {
        let old = "[event]\nname = \"a\"\n\n[ranking]\ntiebreaks = [\"x\"]\nfallback = \"none\"\n";
        let new = "[event]\nname = \"a\"\n\n[ranking]\ntiebreaks = [\"y\"]\nfallback = \"none\"\n";
        assert_eq!(
            line_diff(old, new),
            vec![
                "[ranking]".to_string(),
                "- tiebreaks = [\"x\"]".to_string(),
                "+ tiebreaks = [\"y\"]".to_string(),
            ]
        );
        assert!(line_diff(old, old).is_empty());
    }
}
