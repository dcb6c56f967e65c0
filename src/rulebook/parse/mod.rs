//! `Rulebook::from_toml`: the TOML schema documented in `rules/README.md`, read section by
//! section, with every cross-field check. Every problem is collected before failing.
//!
//! This file owns the schema's key lists (one per table, the whole schema at a glance),
//! the driver that reads the sections in order, the `[event]` section, and which keys a
//! file wrote (`WrittenKeys`, with [`DEFAULT_MARK`]). The sections themselves are read in
//! [`groups`] (`[[groups]]`), [`play`] (`[scoring]`, `[pairing]`, `[colours]`,
//! `[conduct]`) and [`ranking`] (`[ranking]`, `[prizes]`, `[[teams]]`).

mod format;
mod groups;
mod play;
mod ranking;
mod team_match;

use groups::{GroupIndex, parse_groups};
use play::{parse_colours, parse_conduct, parse_pairing, parse_scoring};
pub use play::{relax_list, relax_rule, relax_rule_name};
use ranking::{parse_prizes, parse_ranking, parse_teams};

use super::error::{RawProblem, RulebookErrors};
use super::reader::{Ctx, Sec};
use super::types::*;
use crate::i18n::Text;
use std::collections::BTreeSet;
use toml_edit::Document;

const TOP_KEYS: &[&str] = &[
    "event",
    "groups",
    "scoring",
    "pairing",
    "colours",
    "conduct",
    "ranking",
    "prizes",
    "teams",
    "publish",
    "team_competition",
    "readings",
];
const EVENT_KEYS: &[&str] = &[
    "name",
    "short_name",
    "organiser",
    "venue",
    "start_date",
    "end_date",
    "rules_edition",
    "language",
    "time_control",
    "rounds",
    "currency",
    "max_players",
    "round_times",
    "signature",
    "grade_scale",
    "registration_deadline",
    "entries_close_after_round",
];
const GROUP_KEYS: &[&str] = &[
    "id",
    "name",
    "aliases",
    "pairs_with",
    "marks",
    "rounds",
    "time_control",
    "min_size",
    "merge_into",
    "eligibility",
    "first_table",
    "hall",
    "format",
    "cycles",
    "seeding",
    "tiebreaks",
    "fallback",
    "withdrawn_results",
    "games",
    "tiebreak_games",
    "first_colour",
    "third_place",
    "play_off_5_8",
    "final_stage",
    "finalists",
    "carried_results",
];
const MARKS_KEYS: &[&str] = &["disabled", "local"];
const ELIGIBILITY_KEYS: &[&str] = &[
    "under_age",
    "age_max_inclusive",
    "min_age",
    "age_reference",
    "born_on_or_after",
    "born_after",
    "born_on_or_before",
    "born_before",
    "min_grade",
    "max_grade",
    "student",
    "gender",
    "disabled",
    "local",
    "below_title",
    "max_title",
    "no_master_title",
];
const SCORING_KEYS: &[&str] = &[
    "red_win",
    "red_draw",
    "red_loss",
    "black_win",
    "black_draw",
    "black_loss",
    "bye",
    "forfeit_win",
    "forfeit_loss",
    "double_forfeit",
];
const PAIRING_KEYS: &[&str] = &[
    "seeding",
    "round1",
    "round1_colour",
    "round1_bye",
    "within_group",
    "equal_colour_tie",
    "team_avoidance",
    "bye",
    "forfeit_counts_as_met",
    "late_rounds_priority",
    "relax",
];
const LATE_ROUNDS_KEYS: &[&str] = &["last_rounds", "min_gap"];
const COLOUR_KEYS: &[&str] = &[
    "max_streak",
    "max_diff",
    "relax_streak_last_round",
    "forfeit_counts",
    "bye_counts",
];
const CONDUCT_KEYS: &[&str] = &[
    "fouls_to_lose_game",
    "late_forfeit_minutes",
    "late_result",
    "withdraw_after_forfeits",
    "withdraw_consecutive",
    "withdrawn_ranked",
    "withdrawn_games_kept",
    "penalties_allowed",
    "disturbance_penalty",
    "penalty_below_zero",
    "negative_opp_score_as_zero",
];
const RANKING_KEYS: &[&str] = &[
    "preset",
    "tiebreaks",
    "fallback",
    "bye_opponent_score",
    "bye_counts_as_win",
    "forfeit_counts_as_win",
    "forfeit_opponent_in_opp_score",
    "unresolved",
    "shared_from_place",
    "unresolved_first",
    "penalty_in_progressive",
];
const PRIZES_KEYS: &[&str] = &[
    "shared_money",
    "multiple",
    "lists",
    "withdrawn",
    "qualification_ties",
];
const LIST_KEYS: &[&str] = &["id", "name", "group", "by_gender", "filter", "places"];
const FILTER_KEYS: &[&str] = &["gender", "disabled", "local", "section"];
const PLACE_KEYS: &[&str] = &[
    "place",
    "from",
    "to",
    "money",
    "award",
    "title",
    "qualification",
];
const TEAM_KEYS: &[&str] = &[
    "id",
    "name",
    "group",
    "best_n",
    "metric",
    "short_team",
    "tiebreaks",
    "places",
];
impl Rulebook {
    /// Parses and validates a rulebook. `source` (the file name) prefixes every message.
    ///
    /// Every key is optional except `event.name`, `event.rounds` and at least one
    /// `[[groups]]` entry with an `id`; defaults are those of the types in
    /// `rulebook::types` (see `rules/README.md`). All problems are collected in one pass.
    pub fn from_toml(text: &str, source: &str) -> Result<Rulebook, RulebookErrors> {
        // Editors on Windows often save with a byte-order mark; it is not part of the TOML.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // The same cap as for a rulebook file, for text that reaches here another way (the
        // rulebook frozen in a state file): parsing a huge text takes seconds.
        if text.len() as u64 > super::bounds::MAX_RULEBOOK_BYTES {
            let (size, max) = (text.len(), super::bounds::MAX_RULEBOOK_BYTES / 1024 / 1024);
            let raw = RawProblem {
                offset: 0,
                key: String::new(),
                message: Text::new(
                    format!("规则文件有 {size} 字节，超过 {max} MB 的上限；规则文件通常不到 20 KB"),
                    format!(
                        "the rulebook is {size} bytes, over the {max} MB limit; rulebooks are usually under 20 KB"
                    ),
                ),
            };
            return Err(RulebookErrors::from_raw(source, "", vec![raw]));
        }
        let doc = match Document::parse(text) {
            Ok(doc) => doc,
            Err(e) => {
                let message = e
                    .message()
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join("; ");
                let raw = RawProblem {
                    offset: e.span().map_or(0, |s| s.start),
                    key: String::new(),
                    message: Text::new(
                        format!("TOML 格式错误：{message}"),
                        format!("invalid TOML: {message}"),
                    ),
                };
                return Err(RulebookErrors::from_raw(source, text, vec![raw]));
            }
        };
        let mut ctx = Ctx::default();
        let root = Sec::root(doc.as_table());
        root.check_keys(&mut ctx, TOP_KEYS);
        let event = parse_event(&mut ctx, &root);
        let groups = parse_groups(&mut ctx, &root, event.grade_scale);
        let index = GroupIndex { groups: &groups };
        let scoring = parse_scoring(&mut ctx, &root);
        let pairing = parse_pairing(&mut ctx, &root);
        let colours = parse_colours(&mut ctx, &root);
        let conduct = parse_conduct(&mut ctx, &root);
        let ranking = parse_ranking(&mut ctx, &root);
        let prizes = parse_prizes(&mut ctx, &root, &index);
        let teams = parse_teams(&mut ctx, &root, &index);
        let publish = super::publish::parse_publish(&mut ctx, &root);
        let team_competition =
            team_match::parse_team_competition(&mut ctx, &root, event.start_date);
        let readings = parse_readings(&mut ctx, &root);
        super::bounds::check(&mut ctx, doc.as_table());
        if !ctx.problems.is_empty() {
            return Err(RulebookErrors::from_raw(source, text, ctx.problems));
        }
        let mut written = BTreeSet::new();
        written_keys(doc.as_table(), text, "", &mut written);
        // A preset writes the tiebreak chain it names.
        if written.contains("ranking.preset") {
            written.extend(["ranking.tiebreaks".into(), "ranking.fallback".into()]);
        }
        Ok(Rulebook {
            written: WrittenKeys(Some(written)),
            event,
            groups,
            scoring,
            pairing,
            colours,
            conduct,
            ranking,
            prizes,
            teams,
            team_competition,
            publish,
            readings,
        })
    }
}

/// The sections whose settings a `[readings]` entry may name, with their keys.
fn reading_sections() -> [(&'static str, &'static [&'static str]); 8] {
    [
        ("event", EVENT_KEYS),
        ("scoring", SCORING_KEYS),
        ("pairing", PAIRING_KEYS),
        ("colours", COLOUR_KEYS),
        ("conduct", CONDUCT_KEYS),
        ("ranking", RANKING_KEYS),
        ("prizes", PRIZES_KEYS),
        ("groups", GROUP_KEYS),
    ]
}

/// `[readings]`: setting path → the regulation clause the chosen reading follows. A path
/// names a setting of `[event]`, `[scoring]`, `[pairing]`, `[colours]`, `[conduct]`,
/// `[ranking]` or `[prizes]` (`prizes.multiple`), or of a group (`groups[1].rounds`,
/// `groups[1].eligibility.age_max_inclusive`); the clause must not be empty.
fn parse_readings(ctx: &mut Ctx, root: &Sec) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let Some(sec) = root.sub(ctx, "readings") else {
        return out;
    };
    for key in sec.keys() {
        let Some(clause) = sec.text(ctx, &key) else {
            continue;
        };
        let (section, rest) = key.split_once('.').unwrap_or((key.as_str(), ""));
        let section = section.split('[').next().unwrap_or(section);
        let last = rest.rsplit('.').next().unwrap_or(rest);
        let known = reading_sections().iter().any(|(s, keys)| {
            *s == section
                && (keys.contains(&last)
                    || (section == "groups"
                        && (ELIGIBILITY_KEYS.contains(&last) || MARKS_KEYS.contains(&last)))
                    || (section == "prizes" && LIST_KEYS.contains(&last)))
        });
        if known {
            out.insert(key, clause);
        } else {
            sec.report(
                ctx,
                &key,
                Text::new(
                    format!("`{key}` 不是规则文件中的设置；请写 `rules show` 中的设置路径，例如 \"prizes.multiple\""),
                    format!("`{key}` is no setting of the rulebook; write a setting's path as `rules show` names it, such as \"prizes.multiple\""),
                ),
            );
        }
    }
    out
}

/// The comment `rules show` puts after a setting the rulebook did not write, in each
/// language. A key read back with either (or with both, as earlier versions wrote them)
/// is still a default, so showing the shown rules again changes nothing. (Chinese, English.)
pub const DEFAULT_MARK: (&str, &str) = ("默认值，规程未规定", "default, not in the regulation");

/// Collects the dotted path of every value the file wrote (not marked [`DEFAULT_MARK`]).
fn written_keys(table: &toml_edit::Table, text: &str, prefix: &str, out: &mut BTreeSet<String>) {
    for (key, item) in table {
        let path = if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        };
        match item {
            toml_edit::Item::Table(t) => written_keys(t, text, &path, out),
            toml_edit::Item::ArrayOfTables(a) => {
                for (i, t) in a.iter().enumerate() {
                    written_keys(t, text, &format!("{path}[{i}]"), out);
                }
            }
            toml_edit::Item::Value(v) => written_value(v, text, &path, out),
            toml_edit::Item::None => {}
        }
    }
}

fn written_value(value: &toml_edit::Value, text: &str, path: &str, out: &mut BTreeSet<String>) {
    if let toml_edit::Value::InlineTable(t) = value {
        for (key, v) in t {
            written_value(v, text, &format!("{path}.{key}"), out);
        }
        return;
    }
    let marked = value.span().is_some_and(|span| {
        let rest = &text[span.end.min(text.len())..];
        rest.lines()
            .next()
            .is_some_and(|l| l.contains(DEFAULT_MARK.0) || l.contains(DEFAULT_MARK.1))
    });
    if !marked {
        out.insert(path.to_string());
    }
}

fn parse_event(ctx: &mut Ctx, root: &Sec) -> EventInfo {
    let mut event = Rulebook::cxa_2011("", 0).event;
    let Some(sec) = root.sub(ctx, "event") else {
        if !root.has("event") {
            ctx.report(
                Some(0..0),
                "event",
                Text::new(
                    "缺少必需的段；请添加 `[event]`，并写上 `name = \"…\"` 和轮数，例如 `rounds = 9`",
                    "missing required section; add `[event]` with `name = \"…\"` and the number of rounds, for example `rounds = 9`",
                ),
            );
        }
        return event;
    };
    sec.check_keys(ctx, EVENT_KEYS);
    match sec.text(ctx, "name") {
        Some(name) => event.name = name,
        None if !sec.has("name") => sec.missing(ctx, "name", "name = \"…\""),
        None => {}
    }
    event.short_name = sec.text(ctx, "short_name");
    event.organiser = sec.text(ctx, "organiser");
    event.venue = sec.text(ctx, "venue");
    event.start_date = sec.date(ctx, "start_date");
    event.end_date = sec.date(ctx, "end_date");
    if let (Some(start), Some(end)) = (event.start_date, event.end_date)
        && end < start
    {
        sec.report(
            ctx,
            "end_date",
            Text::new(
                format!("`{end}` 早于 start_date `{start}`；比赛结束日不能早于开始日"),
                format!("`{end}` is before start_date `{start}`; the event must end on or after its first day"),
            ),
        );
    }
    if let Some(edition) = sec.text(ctx, "rules_edition") {
        event.rules_edition = edition;
    }
    if let Some(lang) = sec.named(ctx, "language") {
        event.language = lang;
    }
    if let Some(scale) = sec.named(ctx, "grade_scale") {
        event.grade_scale = scale;
    }
    if let Some(tc) = sec.string(ctx, "time_control") {
        event.time_control = tc;
    }
    match sec.count(ctx, "rounds", 1) {
        Some(rounds) => event.rounds = rounds,
        None if !sec.has("rounds") => sec.missing(ctx, "rounds", "rounds = 9"),
        None => {}
    }
    if let Some(currency) = sec.text(ctx, "currency") {
        event.currency = currency;
    }
    event.max_players = sec.count(ctx, "max_players", 1);
    if let Some(times) = sec.strings(ctx, "round_times") {
        // Judged only against a valid `rounds` (a missing one is reported on its own).
        if event.rounds > 0 && times.len() > event.rounds as usize {
            sec.report(
                ctx,
                "round_times",
                Text::new(
                    format!(
                        "有 {} 个时间，而比赛只有 {} 轮；每轮写一个时间",
                        times.len(),
                        event.rounds
                    ),
                    format!(
                        "{} times for an event of {} rounds; write one time per round",
                        times.len(),
                        event.rounds
                    ),
                ),
            );
        } else {
            event.round_times = times
                .into_iter()
                .map(|(t, _)| t.trim().to_string())
                .collect();
        }
    }
    event.signature = sec.text(ctx, "signature");
    event.registration_deadline = sec.date(ctx, "registration_deadline");
    event.entries_close_after_round = sec.count(ctx, "entries_close_after_round", 1);
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an independent tester found accepted: a `merge_into` cycle, 100,000
    /// `round_times` for 5 rounds, and (through a state file) a rulebook text of
    /// megabytes. Each is refused, naming the key. (Control characters in a rulebook's
    /// text are kept and stripped wherever text is printed; `hostile` tests that.)
    #[test]
    fn cycles_too_many_times_and_oversize_text_are_refused() {
        let base = "[event]\nname = \"杯赛\"\nrounds = 5\n";
        let groups = "[[groups]]\nid = \"a\"\n[[groups]]\nid = \"b\"\n";
        let refused = |text: &str, key: &str, words: &str| {
            let e = Rulebook::from_toml(text, "r.toml").unwrap_err().to_string();
            assert!(e.contains(key) && e.contains(words), "{key} / {words}: {e}");
        };
        assert!(Rulebook::from_toml(&format!("{base}{groups}"), "r.toml").is_ok());
        let cycle = "[[groups]]\nid = \"a\"\nmerge_into = \"b\"\n\
                     [[groups]]\nid = \"b\"\nmerge_into = \"a\"\n";
        refused(
            &format!("{base}{cycle}"),
            "merge_into",
            "is itself merged into",
        );
        let chain = "[[groups]]\nid = \"a\"\nmerge_into = \"b\"\n\
                     [[groups]]\nid = \"b\"\nmerge_into = \"c\"\n[[groups]]\nid = \"c\"\n";
        refused(
            &format!("{base}{chain}"),
            "merge_into",
            "`b` is itself merged into `c`",
        );
        let times: Vec<String> = (0..100_000).map(|i| format!("\"{i}\"")).collect();
        let many = format!("{base}round_times = [{}]\n{groups}", times.join(","));
        refused(
            &many,
            "round_times",
            "100000 times for an event of 5 rounds",
        );
        let six = format!("{base}round_times = [\"1\",\"2\",\"3\",\"4\",\"5\",\"6\"]\n{groups}");
        refused(&six, "round_times", "6 times for an event of 5 rounds");
        let padded = format!("{base}{groups}# {}\n", "x".repeat(1024 * 1024));
        refused(&padded, "r.toml", "over the 1 MB limit");
    }

    /// Issue 43 §1–2: titles by any spelling of the ladder, birth-date cutoffs as the
    /// regulation words them, grades by name on the event's scale; the old
    /// `no_master_title` reads as `below_title = "国家级运动健将"`.
    #[test]
    fn titles_birth_cutoffs_and_grade_names() {
        let base = "[event]\nname = \"杯赛\"\nrounds = 5\n";
        let r = Rulebook::from_toml(
            &format!(
                "{base}grade_scale = \"五四制\"\n[[groups]]\nid = \"a\"\n[groups.eligibility]\nbelow_title = [\"运动健将\", \"国家大师\"]\nmax_title = \"中国象棋协会棋协大师\"\nborn_on_or_after = 2009-01-01\nborn_before = 2015-09-01\nmin_grade = \"大班\"\nmax_grade = \"初一\"\n[[groups]]\nid = \"b\"\n[groups.eligibility]\nno_master_title = true\n"
            ),
            "r.toml",
        )
        .unwrap();
        let a = &r.groups[0].eligibility;
        assert_eq!(a.below_title, ["国家级运动健将", "象棋大师"]);
        assert_eq!(a.max_title.as_deref(), Some("棋协大师"));
        assert_eq!(
            a.born_on_or_after,
            chrono::NaiveDate::from_ymd_opt(2009, 1, 1)
        );
        assert_eq!(a.born_before, chrono::NaiveDate::from_ymd_opt(2015, 9, 1));
        assert_eq!((a.min_grade, a.max_grade), (Some(0), Some(6)));
        assert_eq!(r.groups[1].eligibility.below_title, ["国家级运动健将"]);

        let refused = |eligibility: &str, key: &str, words: &str| {
            let text =
                format!("{base}[[groups]]\nid = \"a\"\n[groups.eligibility]\n{eligibility}\n");
            let e = Rulebook::from_toml(&text, "r.toml")
                .unwrap_err()
                .to_string();
            assert!(e.contains(key) && e.contains(words), "{key} / {words}: {e}");
        };
        refused("below_title = \"大大师\"", "below_title", "棋协候补大师, ");
        refused("max_title = \"无\"", "max_title", "not a title");
        refused(
            "born_on_or_after = 2009-01-01\nborn_after = 2009-01-01",
            "born_after",
            "keep the one",
        );
        refused(
            "born_on_or_after = 2009-01-01\nborn_before = 2009-01-01",
            "born_before",
            "leaves no one",
        );
        refused(
            "below_title = \"国家级运动健将\"\nmax_title = \"象棋大师\"",
            "max_title",
            "one of them is enough",
        );
        refused("min_grade = \"幼儿园\"", "min_grade", "大班, 中班 or 小班");
        refused("min_grade = -3", "min_grade", "from -2 to 12");
    }

    #[test]
    fn every_problem_has_chinese_with_the_same_values() {
        use crate::i18n::facts::assert_same;
        use crate::i18n::{Lang, Localize};
        let text = r#"
[event]
name = "杯赛"
rounds = 0
start_date = "2018-10-27"
end_date = 2018-10-26
languag = "zh"

[[groups]]
id = "adult one"
name = "成人组"
aliases = [""]
rounds = "nine"

[[groups]]
id = "kids"
name = "成人组"
pairs_with = "kids"
merge_into = "nowhere"
eligibility = { min_grade = 6, max_grade = 4, min_age = 12, under_age = 10, age_max_inclusive = false }

[[groups]]
id = "youth"
pairs_with = "adlt"

[scoring]
red_win = 1
red_draw = 2

[conduct]
penalties_allowed = false
disturbance_penalty = 2

[ranking]
tiebreaks = ["opp_score", "opp_score", "lot", "nonsense"]
fallback = "coin"

[[prizes.lists]]
group = "youth"
places = [{ place = 1, from = 2 }, { from = 3, to = 2 }, { place = 1 }, { place = 1 }]

[[teams]]
tiebreaks = ["x", "x"]
"#;
        let errors = Rulebook::from_toml(text, "bad.toml").unwrap_err();
        assert!(errors.problems.len() >= 15, "{errors}");
        for p in &errors.problems {
            assert_same(&p.message.zh, &p.message.en);
        }
        let zh = errors.localize(Lang::Zh);
        assert_eq!(zh.lines().count(), errors.to_string().lines().count());
        for (z, e) in zh.lines().zip(errors.to_string().lines()) {
            let place = |l: &str| l.split(": ").next().unwrap_or("").to_string();
            assert_eq!(place(z), place(e), "{z}\n{e}");
        }
        let syntax = Rulebook::from_toml("[event\n", "x.toml").unwrap_err();
        assert!(syntax.problems[0].message.zh.starts_with("TOML 格式错误"));
    }

    /// `rules/README.md` documents every key the parser accepts, in a table row.
    #[test]
    fn readme_documents_every_key() {
        let readme = include_str!("../../../rules/README.md");
        let sections: [(&str, &[&str]); 15] = [
            ("[event]", EVENT_KEYS),
            ("[[groups]]", GROUP_KEYS),
            ("[groups.marks]", MARKS_KEYS),
            ("[groups.eligibility]", ELIGIBILITY_KEYS),
            ("[scoring]", SCORING_KEYS),
            ("[pairing]", PAIRING_KEYS),
            ("[pairing.late_rounds_priority]", LATE_ROUNDS_KEYS),
            ("[colours]", COLOUR_KEYS),
            ("[conduct]", CONDUCT_KEYS),
            ("[ranking]", RANKING_KEYS),
            (
                "[prizes]",
                &[
                    "shared_money",
                    "multiple",
                    "withdrawn",
                    "qualification_ties",
                ],
            ),
            ("[[prizes.lists]]", LIST_KEYS),
            ("[prizes.lists.filter]", FILTER_KEYS),
            ("Places", PLACE_KEYS),
            ("[[teams]]", TEAM_KEYS),
        ];
        for (heading, keys) in sections {
            let start = [
                format!("\n## `{heading}`"),
                format!("\n### `{heading}`"),
                format!("\n### {heading}"),
            ]
            .iter()
            .find_map(|h| readme.find(h.as_str()))
            .unwrap_or_else(|| panic!("no heading {heading}"));
            let rest = &readme[start..];
            let end = rest[3..]
                .find("\n## ")
                .or(rest[3..].find("\n### "))
                .map_or(rest.len(), |e| e + 3);
            let body = &rest[..end];
            for key in keys.iter().filter(|k| {
                !matches!(
                    **k,
                    "marks" | "eligibility" | "filter" | "late_rounds_priority"
                )
            }) {
                assert!(body.contains(&format!("| `{key}` |")), "{heading} {key}");
            }
        }
    }
}
