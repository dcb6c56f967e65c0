//! `Rulebook::to_effective_toml`: the rules as they will be applied, every default filled
//! in, in the schema `from_toml` reads (so the output reads back to the same rulebook).

use super::names::Named;
use super::types::*;
use crate::i18n::Lang;
use crate::i18n::bi;
use crate::model::Gender;
use std::fmt::Write;

/// A TOML basic string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn string_array<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let items: Vec<String> = items.into_iter().map(quote).collect();
    format!("[{}]", items.join(", "))
}

/// Builds the document line by line.
#[derive(Default)]
struct Doc<'w> {
    out: String,
    /// What the rulebook file wrote: a setting it did not is marked a default.
    written: Option<&'w WrittenKeys>,
    /// The language of the comments.
    lang: Lang,
    /// The dotted path of the current table (`groups[2].eligibility`).
    section: String,
    /// Per array of tables, the index of its newest element.
    arrays: std::collections::BTreeMap<String, usize>,
    /// `[readings]`: the clause each doubtful setting's reading follows, by path.
    readings: Option<&'w std::collections::BTreeMap<String, String>>,
}

/// Settings a regulation often leaves open, each with what is in doubt (issue 43): `rules
/// show` names the reading in force and asks for the clause when `[readings]` gives none.
/// Each is (path, Chinese, English), read with `lang.pick`.
const DOUBTFUL: &[(&str, &str, &str)] = &[
    (
        "prizes.multiple",
        "存疑的读法：一人在两个名单（如棋王组和本地组）都获奖时兼得还是只领较高的一项",
        "a doubtful reading: a player placed in two lists (棋王组 and 本地) takes both (take_all) or the higher only (higher_only)",
    ),
    (
        ".by_gender",
        "存疑的读法：本组按性别分开录取、男女各一个名单（true），还是不分男女一个名单（false）",
        "a doubtful reading: men and women ranked in a list each (true) or one list for both (false)",
    ),
    (
        ".eligibility.age_max_inclusive",
        "存疑的读法：“N周岁以下”是否含 N 周岁",
        "a doubtful reading: whether N周岁以下 admits players aged N (true) or only younger ones (false)",
    ),
];

impl Doc<'_> {
    fn header(&mut self, header: &str) {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        self.out.push_str(header);
        self.out.push('\n');
        let name = header.trim_matches(|c| c == '[' || c == ']');
        self.section = if header.starts_with("[[") {
            let next = self.arrays.get(name).map_or(0, |i| i + 1);
            self.arrays.insert(name.to_string(), next);
            format!("{name}[{next}]")
        } else {
            match self
                .arrays
                .iter()
                .find(|(array, _)| name.starts_with(&format!("{array}.")))
            {
                Some((array, i)) => format!("{array}[{i}]{}", &name[array.len()..]),
                None => name.to_string(),
            }
        };
    }

    fn raw(&mut self, key: &str, value: impl std::fmt::Display) {
        let path = format!("{}.{key}", self.section);
        let mut notes: Vec<String> = Vec::new();
        if self.written.is_some_and(|w| w.is_default(&path)) {
            let (zh, en) = super::parse::DEFAULT_MARK;
            notes.push(self.lang.pick(zh, en).to_string());
        }
        notes.extend(self.reading_note(&path));
        if notes.is_empty() {
            let _ = writeln!(self.out, "{key} = {value}");
        } else {
            let sep = self.lang.pick("；", "; ");
            let _ = writeln!(self.out, "{key} = {value}  # {}", notes.join(sep));
        }
    }

    /// A list of tiebreaks: in Chinese by the regulations' names (累进分, 直胜), which read
    /// back as the keys rules/README.md documents.
    fn tiebreaks<T: Named>(&mut self, key: &str, values: &[T]) {
        let lang = self.lang;
        self.raw(key, string_array(values.iter().map(|v| v.name_in(lang))));
    }

    fn str(&mut self, key: &str, value: &str) {
        self.raw(key, quote(value));
    }

    fn name<T: Named>(&mut self, key: &str, value: T) {
        self.raw(key, quote(value.name()));
    }

    /// The reading of a doubtful setting at `path`: the clause `[readings]` gives, else
    /// what is in doubt and how to name the clause (issue 43); `None` for other settings.
    fn reading_note(&self, path: &str) -> Option<String> {
        if let Some(clause) = self.readings.and_then(|r| r.get(path)) {
            return Some(bi!(
                self.lang,
                zh("读法依据：{clause}"),
                en("reading per {clause}")
            ));
        }
        let (_, doubt_zh, doubt_en) = DOUBTFUL
            .iter()
            .find(|(p, _, _)| path == *p || (p.starts_with('.') && path.ends_with(p)))?;
        let doubt = self.lang.pick(doubt_zh, doubt_en);
        Some(bi!(
            self.lang,
            zh("{doubt}；在 [readings] 写明依据的规程条款，例如 \"{path}\" = \"规程 十二.3\""),
            en(
                "{doubt}; name the regulation's clause in [readings], e.g. \"{path}\" = \"规程 十二.3\""
            )
        ))
    }

    /// An optional setting: written when set, else a comment saying it is not set.
    fn opt(&mut self, key: &str, value: Option<String>) {
        match value {
            Some(v) => self.raw(key, v),
            // A setting not set reads nothing in doubt (`age_max_inclusive` matters only
            // with `under_age`, which then requires it).
            None => {
                // `# max_players: not set`
                let _ = writeln!(self.out, "# {key}: {}", self.lang.pick("未设置", "not set"));
            }
        }
    }

    /// A limit where `false` means "no limit".
    fn limit(&mut self, key: &str, value: Option<u32>) {
        match value {
            Some(n) => self.raw(key, n),
            None => self.raw(key, false),
        }
    }
}

fn place_line(p: &PrizePlace) -> String {
    let mut parts = Vec::new();
    if p.from == p.to {
        parts.push(format!("place = {}", p.from));
    } else {
        parts.push(format!("from = {}", p.from));
        parts.push(format!("to = {}", p.to));
    }
    parts.push(format!("money = {}", p.money));
    for (key, value) in [
        ("award", &p.award),
        ("title", &p.title),
        ("qualification", &p.qualification),
    ] {
        if let Some(v) = value {
            parts.push(format!("{key} = {}", quote(v)));
        }
    }
    format!("{{ {} }}", parts.join(", "))
}

fn places(doc: &mut Doc, places: &[PrizePlace]) {
    if places.is_empty() {
        doc.raw("places", "[]");
        return;
    }
    doc.out.push_str("places = [\n");
    for p in places {
        let _ = writeln!(doc.out, "  {},", place_line(p));
    }
    doc.out.push_str("]\n");
}

impl Rulebook {
    /// Every setting with its default filled in, as TOML in the rulebook schema, the
    /// comments in the rulebook's language. `Rulebook::from_toml` reads it back to an
    /// equal rulebook.
    pub fn to_effective_toml(&self) -> String {
        self.to_effective_toml_in(self.event.language)
    }

    /// [`Rulebook::to_effective_toml`] with the comments in `lang` (`qiwang rules show`
    /// follows `--lang`).
    pub fn to_effective_toml_in(&self, lang: Lang) -> String {
        let mut d = Doc {
            written: Some(&self.written),
            lang,
            readings: Some(&self.readings),
            ..Doc::default()
        };
        let heading = lang.pick(
            "生效的规则：每一项设置，未写的已填入默认值。",
            "Effective rules: every setting, with defaults filled in.",
        );
        let _ = writeln!(d.out, "# {heading}");
        let e = &self.event;
        d.header("[event]");
        d.str("name", &e.name);
        d.opt("short_name", e.short_name.as_deref().map(quote));
        d.opt("organiser", e.organiser.as_deref().map(quote));
        d.opt("venue", e.venue.as_deref().map(quote));
        d.opt("start_date", e.start_date.map(|x| x.to_string()));
        d.opt("end_date", e.end_date.map(|x| x.to_string()));
        d.str("rules_edition", &e.rules_edition);
        d.name("language", e.language);
        d.str("time_control", &e.time_control);
        d.raw("rounds", e.rounds);
        d.str("currency", &e.currency);
        d.opt("max_players", e.max_players.map(|n| n.to_string()));
        d.opt(
            "round_times",
            (!e.round_times.is_empty())
                .then(|| string_array(e.round_times.iter().map(String::as_str))),
        );
        d.opt("signature", e.signature.as_deref().map(quote));
        d.raw("grade_scale", quote(e.grade_scale.name()));
        d.opt(
            "registration_deadline",
            e.registration_deadline.map(|x| x.to_string()),
        );
        d.opt(
            "entries_close_after_round",
            e.entries_close_after_round.map(|x| x.to_string()),
        );

        for g in &self.groups {
            d.header("[[groups]]");
            d.str("id", g.id.as_str());
            d.str("name", &g.name);
            d.raw(
                "aliases",
                string_array(g.aliases.iter().map(String::as_str)),
            );
            d.opt(
                "pairs_with",
                g.pairs_with.as_ref().map(|p| quote(p.as_str())),
            );
            d.opt("rounds", g.rounds.map(|r| r.to_string()));
            d.opt("time_control", g.time_control.as_deref().map(quote));
            d.opt("min_size", g.min_size.map(|r| r.to_string()));
            d.opt(
                "merge_into",
                g.merge_into.as_ref().map(|p| quote(p.as_str())),
            );
            if g.pairs_with.is_none() {
                d.opt("hall", g.hall.name.as_deref().map(quote));
                d.opt("first_table", g.hall.first_table.map(|n| n.to_string()));
            }
            // A Swiss group at its defaults prints no format keys (docs/rules.md §14).
            let f = &g.format;
            if !f.is_default_swiss() {
                d.name("format", f.kind);
                if f.is_round_robin() {
                    d.raw("cycles", f.cycles);
                    d.name("withdrawn_results", f.withdrawn_results);
                }
                if let Some(stage) = f.final_stage {
                    d.name("final_stage", stage.format);
                    d.raw("finalists", stage.finalists);
                    if stage.is_round_robin() {
                        d.raw("cycles", stage.cycles);
                        d.name("withdrawn_results", f.withdrawn_results);
                        d.name("carried_results", stage.carried);
                    }
                }
                if f.plays_knockout() {
                    let k = &f.knockout;
                    d.raw("games", k.games);
                    d.raw(
                        "tiebreak_games",
                        string_array(k.tiebreak.iter().map(|t| t.name())),
                    );
                    d.name("first_colour", k.first_colour);
                    d.raw("third_place", k.third_place);
                    d.raw("play_off_5_8", k.play_off_5_8);
                }
                d.opt("seeding", f.seeding.map(|v| quote(v.name())));
                d.opt(
                    "tiebreaks",
                    f.tiebreaks
                        .as_ref()
                        .map(|t| string_array(t.iter().map(|v| v.name_in(d.lang)))),
                );
                d.opt("fallback", f.fallback.map(|v| quote(v.name())));
            }
            d.header("[groups.marks]");
            d.raw("disabled", g.marks.disabled);
            d.raw("local", g.marks.local);
            let el = &g.eligibility;
            d.header("[groups.eligibility]");
            d.opt("under_age", el.under_age.map(|x| x.to_string()));
            d.opt(
                "age_max_inclusive",
                el.age_max_inclusive.map(|x| x.to_string()),
            );
            d.opt("min_age", el.min_age.map(|x| x.to_string()));
            d.opt("age_reference", el.age_reference.map(|x| x.to_string()));
            d.opt(
                "born_on_or_after",
                el.born_on_or_after.map(|x| x.to_string()),
            );
            d.opt("born_after", el.born_after.map(|x| x.to_string()));
            d.opt(
                "born_on_or_before",
                el.born_on_or_before.map(|x| x.to_string()),
            );
            d.opt("born_before", el.born_before.map(|x| x.to_string()));
            d.opt("min_grade", el.min_grade.map(|x| x.to_string()));
            d.opt("max_grade", el.max_grade.map(|x| x.to_string()));
            d.raw("student", el.student);
            d.opt("gender", el.gender.map(|x| quote(x.name())));
            d.raw("disabled", el.disabled);
            d.raw("local", el.local);
            d.opt(
                "below_title",
                (!el.below_title.is_empty())
                    .then(|| string_array(el.below_title.iter().map(String::as_str))),
            );
            d.opt("max_title", el.max_title.as_deref().map(quote));
        }

        let s = &self.scoring;
        d.header("[scoring]");
        for (key, value) in [
            ("red_win", s.red_win),
            ("red_draw", s.red_draw),
            ("red_loss", s.red_loss),
            ("black_win", s.black_win),
            ("black_draw", s.black_draw),
            ("black_loss", s.black_loss),
            ("bye", s.bye),
            ("forfeit_win", s.forfeit_win),
            ("forfeit_loss", s.forfeit_loss),
            ("double_forfeit", s.double_forfeit),
        ] {
            d.raw(key, value);
        }

        let p = &self.pairing;
        d.header("[pairing]");
        d.name("seeding", p.seeding);
        d.name("round1", p.round1);
        d.name("round1_colour", p.round1_colour);
        d.name("round1_bye", p.round1_bye);
        d.name("within_group", p.within_group);
        d.name("equal_colour_tie", p.equal_colour_tie);
        d.name("team_avoidance", p.team_avoidance);
        d.name("bye", p.bye);
        d.raw("forfeit_counts_as_met", p.forfeit_counts_as_met);
        d.raw("relax", string_array(p.relax.iter().map(|r| r.name())));
        match &p.late_rounds_priority {
            Some(late) => {
                d.header("[pairing.late_rounds_priority]");
                d.raw("last_rounds", late.last_rounds);
                d.raw("min_gap", late.min_gap);
            }
            None => d.opt("late_rounds_priority", None),
        }

        let c = &self.colours;
        d.header("[colours]");
        d.limit("max_streak", c.max_streak);
        d.limit("max_diff", c.max_diff);
        d.raw("relax_streak_last_round", c.relax_streak_last_round);
        d.raw("forfeit_counts", c.forfeit_counts);
        d.raw("bye_counts", c.bye_counts);

        let c = &self.conduct;
        d.header("[conduct]");
        d.raw("fouls_to_lose_game", c.fouls_to_lose_game);
        d.raw("late_forfeit_minutes", c.late_forfeit_minutes);
        d.name("late_result", c.late_result);
        d.limit("withdraw_after_forfeits", c.withdraw_after_forfeits);
        d.raw("withdraw_consecutive", c.withdraw_consecutive);
        d.raw("withdrawn_ranked", c.withdrawn_ranked);
        d.raw("withdrawn_games_kept", c.withdrawn_games_kept);
        d.raw("penalties_allowed", c.penalties_allowed);
        d.raw("penalty_below_zero", c.penalty_below_zero);
        d.raw("negative_opp_score_as_zero", c.negative_opp_score_as_zero);
        d.opt(
            "disturbance_penalty",
            c.disturbance_penalty.map(|x| x.to_string()),
        );

        let r = &self.ranking;
        d.header("[ranking]");
        d.tiebreaks("tiebreaks", &r.tiebreaks);
        d.name("fallback", r.fallback);
        d.name("bye_opponent_score", r.bye_opponent_score);
        d.raw("bye_counts_as_win", r.bye_counts_as_win);
        d.raw("forfeit_counts_as_win", r.forfeit_counts_as_win);
        d.raw(
            "forfeit_opponent_in_opp_score",
            r.forfeit_opponent_in_opp_score,
        );
        d.name("unresolved", r.unresolved);
        d.raw("shared_from_place", r.shared_from_place);
        d.name("unresolved_first", r.unresolved_first);
        d.name("penalty_in_progressive", r.penalty_in_progressive);

        d.header("[prizes]");
        d.name("shared_money", self.prizes.shared_money);
        d.name("multiple", self.prizes.multiple);
        d.name("withdrawn", self.prizes.withdrawn);
        d.name("qualification_ties", self.prizes.qualification_ties);
        for list in &self.prizes.lists {
            // A `by_gender = true` entry is printed once, as written, from its first half.
            let split = list.by_gender.as_deref();
            if split.is_some_and(|s| s.gender != Gender::Male) {
                continue;
            }
            d.header("[[prizes.lists]]");
            d.str("id", split.map_or(&list.id, |s| &s.id));
            d.str("name", split.map_or(&list.name, |s| &s.name));
            d.str("group", list.group.as_str());
            // Only where men and women could be ranked apart: not a list of one gender,
            // nor a list of a group that admits one gender only.
            let one_gender = list.filter.gender.is_some()
                || self
                    .group(&list.group)
                    .is_some_and(|g| g.eligibility.gender.is_some());
            if split.is_some() || !one_gender {
                d.raw("by_gender", split.is_some());
            }
            places(&mut d, split.map_or(&list.places, |s| &s.places));
            let f = &list.filter;
            d.header("[prizes.lists.filter]");
            d.opt(
                "gender",
                f.gender
                    .filter(|_| split.is_none())
                    .map(|x| quote(x.name())),
            );
            d.opt("disabled", f.disabled.map(|x| x.to_string()));
            d.opt("local", f.local.map(|x| x.to_string()));
            d.opt("section", f.section.as_ref().map(|x| quote(x.as_str())));
        }

        d.header("[publish]");
        d.raw(
            "fields",
            string_array(self.publish.fields.iter().map(|f| f.name())),
        );

        for t in &self.teams {
            d.header("[[teams]]");
            d.str("id", &t.id);
            d.str("name", &t.name);
            d.str("group", t.group.as_str());
            d.raw("best_n", t.best_n);
            d.name("metric", t.metric);
            d.name("short_team", t.short_team);
            d.tiebreaks("tiebreaks", &t.tiebreaks);
            places(&mut d, &t.places);
        }
        if let Some(t) = &self.team_competition {
            d.header("[team_competition]");
            d.raw("boards", t.boards);
            d.raw("reserves", t.reserves);
            d.name("format", t.format);
            d.raw("cycles", t.cycles);
            if t.format == TeamFormat::RoundRobin {
                d.name("withdrawn_results", t.withdrawn_results);
            }
            for (key, p) in [
                ("match_win", t.match_win),
                ("match_draw", t.match_draw),
                ("match_loss", t.match_loss),
                ("game_win", t.game_win),
                ("game_draw", t.game_draw),
                ("game_loss", t.game_loss),
                ("bye_match_points", t.bye_match_points),
                ("bye_game_points", t.bye_game_points),
            ] {
                d.raw(key, p.0);
            }
            d.raw(
                "tiebreaks",
                string_array(t.tiebreaks.iter().map(|x| x.name())),
            );
            d.raw("min_women", t.min_women);
            d.raw("board_prize_min_games", t.board_prize_min_games);
            if let Some(g) = &t.tiebreak_games {
                d.header("[team_competition.tiebreak_games]");
                d.name("decider", g.decider);
                d.raw("game_points_count", g.game_points_count);
                d.raw("win", g.win.0);
                d.raw("loss", g.loss.0);
            }
            for r in &t.board_rules {
                d.header("[[team_competition.board_rules]]");
                d.raw("board", r.board);
                d.opt("gender", r.gender.map(|x| quote(x.name())));
                d.opt("max_age", r.max_age.map(|x| x.to_string()));
            }
        }
        if !self.readings.is_empty() {
            d.header("[readings]");
            for (path, clause) in &self.readings {
                let _ = writeln!(d.out, "{} = {}", quote(path), quote(clause));
            }
        }
        d.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes() {
        let cases = [
            ("金华", "\"金华\""),
            ("a\"b", "\"a\\\"b\""),
            ("a\\b", "\"a\\\\b\""),
            ("l1\nl2", "\"l1\\nl2\""),
            ("\u{1}", "\"\\u0001\""),
        ];
        for (input, want) in cases {
            assert_eq!(quote(input), want);
        }
    }

    fn round_trip(r: &Rulebook) {
        let text = r.to_effective_toml();
        let back =
            Rulebook::from_toml(&text, "effective.toml").unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(&back, r, "{text}");
    }

    /// Sets one field of a copy of `base` to each value of a setting enum.
    fn each<T: Named>(base: &Rulebook, set: impl Fn(&mut Rulebook, T)) {
        for (_, value) in T::NAMES {
            let mut r = base.clone();
            set(&mut r, *value);
            round_trip(&r);
        }
    }

    #[test]
    fn every_setting_value_round_trips() {
        let mut base = Rulebook::cxa_2011("测试", 9);
        base.groups[0].rounds = Some(5);
        base.groups.push(GroupRule {
            id: crate::model::GroupId::new("sec"),
            name: "分组".into(),
            aliases: vec!["别名".into()],
            pairs_with: Some(crate::model::GroupId::new("open")),
            marks: Marks {
                disabled: true,
                local: true,
            },
            rounds: None,
            time_control: Some(String::new()),
            min_size: Some(10),
            merge_into: None,
            eligibility: Eligibility {
                under_age: Some(16),
                age_max_inclusive: Some(true),
                min_age: Some(6),
                age_reference: chrono::NaiveDate::from_ymd_opt(2018, 10, 26),
                born_on_or_after: chrono::NaiveDate::from_ymd_opt(2002, 1, 1),
                born_after: None,
                born_on_or_before: None,
                born_before: chrono::NaiveDate::from_ymd_opt(2012, 9, 1),
                min_grade: Some(-2),
                max_grade: Some(12),
                student: true,
                gender: None,
                disabled: true,
                local: true,
                below_title: vec!["国家级运动健将".into(), "象棋大师".into()],
                max_title: Some("棋协大师".into()),
            },
            hall: Default::default(),
            format: crate::rulebook::GroupFormat::swiss(),
        });
        base.event.grade_scale = crate::model::GradeScale::FiveFourThree;
        let place = PrizePlace {
            from: 1,
            to: 3,
            money: 100,
            award: Some("奖杯".into()),
            title: Some("棋王".into()),
            qualification: Some("晋级".into()),
        };
        base.prizes.lists.push(PrizeList {
            id: "l".into(),
            name: "列表".into(),
            group: crate::model::GroupId::new("open"),
            filter: PrizeFilter {
                gender: None,
                disabled: Some(false),
                local: Some(true),
                section: Some(crate::model::GroupId::new("sec")),
            },
            places: vec![place.clone()],
            by_gender: None,
        });
        base.teams.push(TeamCompetition {
            id: "t".into(),
            name: "团体".into(),
            group: crate::model::GroupId::new("open"),
            best_n: 4,
            metric: TeamMetric::RankSum,
            short_team: ShortTeam::Exclude,
            tiebreaks: vec![TeamTiebreak::PointSum],
            places: vec![place],
        });
        base.pairing.late_rounds_priority = Some(LateRoundsPriority {
            last_rounds: 4,
            min_gap: crate::model::Points(2),
        });
        base.colours.max_streak = None;
        base.conduct.withdraw_after_forfeits = None;
        base.conduct.disturbance_penalty = Some(crate::model::Points(2));
        base.ranking.tiebreaks = vec![Tiebreak::SonnebornBerger, Tiebreak::CutOpp];
        base.pairing.relax = vec![crate::model::Relax::Rematch, crate::model::Relax::Colour];
        round_trip(&base);
        let mut stop = base.clone();
        stop.pairing.relax.clear();
        round_trip(&stop);

        each(&base, |r, v| r.event.language = v);
        each(&base, |r, v| r.groups[1].eligibility.gender = Some(v));
        each(&base, |r, v| r.prizes.lists[0].filter.gender = Some(v));
        each(&base, |r, v| r.pairing.seeding = v);
        each(&base, |r, v| r.pairing.round1 = v);
        each(&base, |r, v| r.pairing.round1_colour = v);
        each(&base, |r, v| r.pairing.round1_bye = v);
        each(&base, |r, v| r.pairing.within_group = v);
        each(&base, |r, v| r.pairing.equal_colour_tie = v);
        each(&base, |r, v| r.pairing.team_avoidance = v);
        each(&base, |r, v| r.conduct.late_result = v);
        each(&base, |r, v| r.pairing.bye = v);
        each(&base, |r, v: Tiebreak| r.ranking.tiebreaks = vec![v]);
        each(&base, |r, v| r.ranking.fallback = v);
        each(&base, |r, v| r.ranking.bye_opponent_score = v);
        each(&base, |r, v| r.ranking.unresolved = v);
        each(&base, |r, v| r.ranking.unresolved_first = v);
        each(&base, |r, v| r.prizes.shared_money = v);
        each(&base, |r, v| r.prizes.multiple = v);
        each(&base, |r, v| r.teams[0].metric = v);
        each(&base, |r, v| r.teams[0].short_team = v);
        each(&base, |r, v: TeamTiebreak| r.teams[0].tiebreaks = vec![v]);
    }

    #[test]
    fn default_rulebook_round_trips() {
        let r = Rulebook::cxa_2011("测试赛 \"A\"", 7);
        let text = r.to_effective_toml();
        let back =
            Rulebook::from_toml(&text, "effective.toml").unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, r);
    }
}
