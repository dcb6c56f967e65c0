//! `Rulebook::from_toml`: the TOML schema documented in `rules/README.md`, read section by
//! section, with every cross-field check. Every problem is collected before failing.

use super::error::{RawProblem, RulebookErrors};
use super::names::{Named, Preset};
use super::reader::{Ctx, Sec, Span, backticked, nearest, unknown_name_message};
use super::types::*;
use crate::i18n::Text;
use crate::model::{GroupId, Points, Relax};
use std::collections::{BTreeMap, BTreeSet};
use toml_edit::ImDocument;

const TOP_KEYS: &[&str] = &[
    "event", "groups", "scoring", "pairing", "colours", "conduct", "ranking", "prizes", "teams",
    "publish",
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
];
const MARKS_KEYS: &[&str] = &["disabled", "local"];
const ELIGIBILITY_KEYS: &[&str] = &[
    "under_age",
    "age_max_inclusive",
    "min_age",
    "age_reference",
    "min_grade",
    "max_grade",
    "student",
    "gender",
    "disabled",
    "local",
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
const LIST_KEYS: &[&str] = &["id", "name", "group", "filter", "places"];
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

/// Default best N of a team (docs/rules.md §8; Jinhua: 取同单位最好的前三名).
pub(super) const DEFAULT_BEST_N: u32 = 3;

/// Default team tiebreaks (docs/rules.md §8 and §10).
pub(super) fn default_team_tiebreaks(metric: TeamMetric) -> Vec<TeamTiebreak> {
    match metric {
        // S10 Leshan: 如相等，则比较最高个人名次.
        TeamMetric::RankSum => vec![TeamTiebreak::BestIndividualRank, TeamTiebreak::Lot],
        // docs/rules.md §8 [INFERRED]: 对手分 sum, then best individual rank.
        TeamMetric::PointSum => vec![
            TeamTiebreak::OppScoreSum,
            TeamTiebreak::BestIndividualRank,
            TeamTiebreak::Lot,
        ],
    }
}

impl Rulebook {
    /// Parses and validates a rulebook. `source` (the file name) prefixes every message.
    ///
    /// Every key is optional except `event.name`, `event.rounds` and at least one
    /// `[[groups]]` entry with an `id`; defaults are those of the types in
    /// `rulebook::types` (see `rules/README.md`). All problems are collected in one pass.
    pub fn from_toml(text: &str, source: &str) -> Result<Rulebook, RulebookErrors> {
        // Editors on Windows often save with a byte-order mark; it is not part of the TOML.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let doc = match ImDocument::parse(text) {
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
        let groups = parse_groups(&mut ctx, &root);
        let index = GroupIndex { groups: &groups };
        let scoring = parse_scoring(&mut ctx, &root);
        let pairing = parse_pairing(&mut ctx, &root);
        let colours = parse_colours(&mut ctx, &root);
        let conduct = parse_conduct(&mut ctx, &root);
        let ranking = parse_ranking(&mut ctx, &root);
        let prizes = parse_prizes(&mut ctx, &root, &index);
        let teams = parse_teams(&mut ctx, &root, &index);
        let publish = super::publish::parse_publish(&mut ctx, &root);
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
            publish,
        })
    }
}

/// The comment `rules show` puts after a setting the rulebook did not write, in each
/// language. A key read back with either (or with both, as earlier versions wrote them)
/// is still a default, so showing the shown rules again changes nothing.
pub const DEFAULT_MARK: crate::i18n::Words = crate::i18n::Words {
    zh: "默认值，规程未规定",
    en: "default, not in the regulation",
};

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
            .is_some_and(|l| l.contains(DEFAULT_MARK.zh) || l.contains(DEFAULT_MARK.en))
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
                    "缺少必需的段；请添加 `[event]`，并写上 `name = \"…\"` 和 `rounds = 9`",
                    "missing required section; add `[event]` with `name = \"…\"` and `rounds = 9`",
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
        event.round_times = times
            .into_iter()
            .map(|(t, _)| t.trim().to_string())
            .collect();
    }
    event.signature = sec.text(ctx, "signature");
    event
}

/// Resolves group names written anywhere in the rulebook.
struct GroupIndex<'a> {
    groups: &'a [GroupRule],
}

impl GroupIndex<'_> {
    /// A group by id, regulation name or alias.
    fn find(&self, label: &str) -> Option<&GroupRule> {
        let label = label.trim();
        self.groups
            .iter()
            .find(|g| g.id.as_str() == label)
            .or_else(|| self.groups.iter().find(|g| g.name == label))
            .or_else(|| {
                self.groups
                    .iter()
                    .find(|g| g.aliases.iter().any(|a| a == label))
            })
    }

    fn unknown(&self, label: &str) -> Text {
        let ids: Vec<&str> = self.groups.iter().map(|g| g.id.as_str()).collect();
        let mut message = Text::new(
            format!(
                "没有组别 `{label}`；请用组别的编号、名称或别名（编号：{}）",
                backticked(&ids)
            ),
            format!(
                "no group `{label}`; name a group by its id, name or alias (ids: {})",
                backticked(&ids)
            ),
        );
        if let Some(near) = nearest(label, &ids) {
            message.zh.push_str(&format!("；是不是 `{near}`？"));
            message.en.push_str(&format!("; did you mean `{near}`?"));
        }
        message
    }

    /// A group reference at `sec.key`, reported when it names no group.
    fn resolve<'g>(&'g self, ctx: &mut Ctx, sec: &Sec, key: &str) -> Option<&'g GroupRule> {
        let label = sec.text(ctx, key)?;
        let found = self.find(&label);
        if found.is_none() && !self.groups.is_empty() {
            sec.report(ctx, key, self.unknown(&label));
        }
        found
    }

    /// A reference that must name a pool (a group paired on its own).
    fn resolve_pool(&self, ctx: &mut Ctx, sec: &Sec, key: &str) -> Option<GroupId> {
        let group = self.resolve(ctx, sec, key)?;
        match &group.pairs_with {
            None => Some(group.id.clone()),
            Some(pool) => {
                sec.report(
                    ctx,
                    key,
                    Text::new(
                        format!(
                            "`{}` 是在 `{pool}` 中编排的分组，不是编排组；这里请写 `{pool}`，并用 `filter.section = \"{}\"` 为该分组排名",
                            group.id, group.id
                        ),
                        format!(
                            "`{}` is a section paired in `{pool}`, not a pool; name `{pool}` here and rank the section with `filter.section = \"{}\"`",
                            group.id, group.id
                        ),
                    ),
                );
                None
            }
        }
    }

    /// `group` for a prize list or team: required unless there is exactly one pool.
    fn pool_or_only(&self, ctx: &mut Ctx, sec: &Sec) -> Option<GroupId> {
        if sec.has("group") {
            return self.resolve_pool(ctx, sec, "group");
        }
        let pools: Vec<&GroupRule> = self
            .groups
            .iter()
            .filter(|g| g.pairs_with.is_none())
            .collect();
        match pools.as_slice() {
            [only] => Some(only.id.clone()),
            [] => None,
            _ => {
                sec.missing(ctx, "group", "group = \"<pool id>\"");
                None
            }
        }
    }
}

fn parse_groups(ctx: &mut Ctx, root: &Sec) -> Vec<GroupRule> {
    let before = ctx.problems.len();
    let secs = root.tables(ctx, "groups");
    if secs.is_empty() {
        // A wrong type was reported by `tables`; otherwise the groups are absent or empty.
        if ctx.problems.len() == before {
            let span = if root.has("groups") {
                root.value_span("groups")
            } else {
                Some(0..0)
            };
            ctx.report(
                span,
                "groups",
                Text::new(
                    "没有组别；请至少添加一个 `[[groups]]`，并写上 `id = \"…\"` 和 `name = \"…\"`",
                    "no groups; add at least one `[[groups]]` with `id = \"…\"` and `name = \"…\"`",
                ),
            );
        }
        return Vec::new();
    }
    let mut groups = Vec::new();
    // The table of each parsed group, kept for the second pass.
    let mut kept: Vec<&Sec> = Vec::new();
    for sec in &secs {
        sec.check_keys(ctx, GROUP_KEYS);
        let id = match sec.text(ctx, "id") {
            Some(id) if id.chars().any(char::is_whitespace) => {
                sec.report(
                    ctx,
                    "id",
                    Text::new(
                        format!("`{id}` 含有空格；组别编号是一个词，例如 `adult` 或 `u16`"),
                        format!(
                            "`{id}` contains spaces; a group id is one word such as `adult` or `u16`"
                        ),
                    ),
                );
                None
            }
            Some(id) => Some(id),
            None => {
                if !sec.has("id") {
                    sec.missing(ctx, "id", "id = \"adult\"");
                }
                None
            }
        };
        let Some(id) = id else { continue };
        let name = sec.text(ctx, "name").unwrap_or_else(|| id.clone());
        let mut aliases = Vec::new();
        for (i, (alias, span)) in sec
            .strings(ctx, "aliases")
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            if alias.trim().is_empty() {
                let key = format!("{}[{i}]", sec.key_path("aliases"));
                ctx.report(
                    span,
                    key,
                    Text::new(
                        "别名不能为空；请删除它",
                        "an alias must not be empty; remove it",
                    ),
                );
            } else {
                aliases.push(alias);
            }
        }
        let marks = match sec.sub(ctx, "marks") {
            Some(m) => {
                m.check_keys(ctx, MARKS_KEYS);
                Marks {
                    disabled: m.boolean(ctx, "disabled").unwrap_or(false),
                    local: m.boolean(ctx, "local").unwrap_or(false),
                }
            }
            None => Marks::default(),
        };
        let eligibility = match sec.sub(ctx, "eligibility") {
            Some(e) => parse_eligibility(ctx, &e),
            None => Eligibility::default(),
        };
        groups.push(GroupRule {
            id: GroupId::new(id),
            name,
            aliases,
            pairs_with: None,
            marks,
            rounds: sec.count(ctx, "rounds", 1),
            time_control: sec.string(ctx, "time_control"),
            min_size: sec.count(ctx, "min_size", 1),
            merge_into: None,
            eligibility,
        });
        kept.push(sec);
    }
    check_duplicate_labels(ctx, &groups, &kept);
    // Second pass: `pairs_with` needs every group's labels.
    let mut pairs = Vec::new();
    {
        let index = GroupIndex { groups: &groups };
        for (group, sec) in groups.iter().zip(&kept) {
            let target = sec.string(ctx, "pairs_with").and_then(|label| {
                let Some(target) = index.find(&label) else {
                    sec.report(ctx, "pairs_with", index.unknown(&label));
                    return None;
                };
                if target.id == group.id {
                    sec.report(
                        ctx,
                        "pairs_with",
                        Text::new(
                            format!("`{label}` 就是本组别；单独编排的组别请不写 `pairs_with`"),
                            format!("`{label}` is this group itself; leave `pairs_with` out for a group paired on its own"),
                        ),
                    );
                    return None;
                }
                Some(target.id.clone())
            });
            pairs.push(target);
        }
    }
    // A section must pair in a pool (a group without pairs_with).
    for (i, target) in pairs.iter().enumerate() {
        if let Some(target) = target {
            let target_pairs = groups
                .iter()
                .position(|g| &g.id == target)
                .and_then(|j| pairs[j].as_ref());
            if let Some(next) = target_pairs {
                kept[i].report(
                    ctx,
                    "pairs_with",
                    Text::new(
                        format!("`{target}` 本身在 `{next}` 中编排；请改写编排组 `{next}`"),
                        format!(
                            "`{target}` is itself paired in `{next}`; name the pool `{next}` instead"
                        ),
                    ),
                );
            }
        }
    }
    // A section plays in its pool's rounds.
    for ((group, sec), target) in groups.iter().zip(&kept).zip(&pairs) {
        if let (Some(pool), Some(rounds)) = (target, group.rounds) {
            sec.report(
                ctx,
                "rounds",
                Text::new(
                    format!("分组设置了 `{rounds}` 轮：`{}` 跟随编排组 `{pool}` 的轮次；请在那里设置", group.id),
                    format!("`{rounds}` rounds on a section: `{}` plays the rounds of its pool `{pool}`; set them there", group.id),
                ),
            );
        }
    }
    for (group, target) in groups.iter_mut().zip(pairs) {
        group.pairs_with = target;
    }
    // `merge_into` names another pool (Dongguan 九: an under-size group is merged).
    let mut merges = Vec::new();
    {
        let index = GroupIndex { groups: &groups };
        for (group, sec) in groups.iter().zip(&kept) {
            let target = sec.string(ctx, "merge_into").and_then(|label| {
                let Some(target) = index.find(&label) else {
                    sec.report(ctx, "merge_into", index.unknown(&label));
                    return None;
                };
                if group.pairs_with.is_some() {
                    sec.report(
                        ctx,
                        "merge_into",
                        Text::new(
                            format!("`{}` 是分组：只有单独编排的组别才能合并", group.id),
                            format!(
                                "`{}` is a section: only a group paired on its own can be merged",
                                group.id
                            ),
                        ),
                    );
                    return None;
                }
                if target.id == group.id || target.pairs_with.is_some() {
                    sec.report(
                        ctx,
                        "merge_into",
                        Text::new(
                            format!("`{label}` 必须是另一个单独编排的组别"),
                            format!("`{label}` must be another group paired on its own"),
                        ),
                    );
                    return None;
                }
                Some(target.id.clone())
            });
            merges.push(target);
        }
    }
    for (group, target) in groups.iter_mut().zip(merges) {
        group.merge_into = target;
    }
    groups
}

/// Ids, names and aliases must name one group each (they are all accepted as group names).
fn check_duplicate_labels(ctx: &mut Ctx, groups: &[GroupRule], secs: &[&Sec]) {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, (group, sec)) in groups.iter().zip(secs).enumerate() {
        let labels = [("id", group.id.as_str()), ("name", group.name.as_str())]
            .into_iter()
            .chain(group.aliases.iter().map(|a| ("aliases", a.as_str())));
        for (key, label) in labels {
            match seen.get(label) {
                Some(&j) if j != i => {
                    let key = if key == "name" && !sec.has("name") {
                        "id"
                    } else {
                        key
                    };
                    sec.report(
                        ctx,
                        key,
                        Text::new(
                            format!(
                                "`{label}` 已是组别 `{}` 的名称；所有编号、名称和别名都必须互不相同",
                                groups[j].id
                            ),
                            format!(
                                "`{label}` already names group `{}`; every id, name and alias must be different",
                                groups[j].id
                            ),
                        ),
                    );
                }
                Some(_) => {}
                None => {
                    seen.insert(label, i);
                }
            }
        }
    }
}

fn parse_eligibility(ctx: &mut Ctx, sec: &Sec) -> Eligibility {
    sec.check_keys(ctx, ELIGIBILITY_KEYS);
    let grade = |ctx: &mut Ctx, key: &str| sec.int(ctx, key, 1, 12).map(|g| g as u8);
    let e = Eligibility {
        under_age: sec.count(ctx, "under_age", 1),
        age_max_inclusive: sec.boolean(ctx, "age_max_inclusive"),
        min_age: sec.count(ctx, "min_age", 0),
        age_reference: sec.date(ctx, "age_reference"),
        min_grade: grade(ctx, "min_grade"),
        max_grade: grade(ctx, "max_grade"),
        student: sec.boolean(ctx, "student").unwrap_or(false),
        gender: sec.named(ctx, "gender"),
        disabled: sec.boolean(ctx, "disabled").unwrap_or(false),
        local: sec.boolean(ctx, "local").unwrap_or(false),
        no_master_title: sec.boolean(ctx, "no_master_title").unwrap_or(false),
    };
    if let (Some(min), Some(max)) = (e.min_grade, e.max_grade)
        && min > max
    {
        sec.report(
            ctx,
            "min_grade",
            Text::new(
                format!("min_grade `{min}` 大于 max_grade `{max}`；请交换两者"),
                format!("min_grade `{min}` is above max_grade `{max}`; swap them"),
            ),
        );
    }
    match (e.under_age, e.age_max_inclusive) {
        (Some(limit), None) => sec.report(
            ctx,
            "under_age",
            Text::new(
                format!(
                    "under_age `{limit}` 没有说明是否包含 {limit} 岁：“{limit}周岁以下”有两种读法，请写 `age_max_inclusive = true`（含 {limit} 岁）或 `false`（未满 {limit} 岁）"
                ),
                format!(
                    "under_age `{limit}` does not say whether age {limit} itself may enter: “{limit}周岁以下” reads both ways; write `age_max_inclusive = true` ({limit} or younger) or `false` (under {limit})"
                ),
            ),
        ),
        (None, Some(_)) => sec.report(
            ctx,
            "age_max_inclusive",
            Text::new(
                "age_max_inclusive 只用于 under_age；请设置 under_age 或删除此键",
                "age_max_inclusive only qualifies under_age; set under_age or remove this key",
            ),
        ),
        _ => {}
    }
    let oldest = match (e.under_age, e.age_max_inclusive) {
        (Some(limit), Some(true)) => Some(limit + 1),
        (limit, _) => limit,
    };
    if let (Some(min), Some(under)) = (e.min_age, oldest)
        && min >= under
    {
        sec.report(
            ctx,
            "min_age",
            Text::new(
                format!("min_age `{min}` 不小于 under_age `{under}`，没有可报名的年龄；min_age 必须更小"),
                format!(
                    "min_age `{min}` leaves no age below under_age `{under}`; min_age must be smaller"
                ),
            ),
        );
    }
    e
}

fn parse_scoring(ctx: &mut Ctx, root: &Sec) -> Scoring {
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

fn parse_pairing(ctx: &mut Ctx, root: &Sec) -> PairingRules {
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

fn parse_colours(ctx: &mut Ctx, root: &Sec) -> ColourRules {
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

fn parse_conduct(ctx: &mut Ctx, root: &Sec) -> Conduct {
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

fn parse_ranking(ctx: &mut Ctx, root: &Sec) -> RankingRules {
    let mut r = RankingRules::default();
    let Some(sec) = root.sub(ctx, "ranking") else {
        return r;
    };
    sec.check_keys(ctx, RANKING_KEYS);
    // CXA 2011 §14.3: the preset gives the chain; explicit keys override it.
    if let Some(preset) = sec.named::<Preset>(ctx, "preset") {
        (r.tiebreaks, r.fallback) = preset.chain();
    }
    if let Some(list) = sec.strings(ctx, "tiebreaks") {
        let path = sec.key_path("tiebreaks");
        let mut chain: Vec<(Tiebreak, String)> = Vec::new();
        for (i, (name, span)) in list.into_iter().enumerate() {
            let key = format!("{path}[{i}]");
            match Tiebreak::parse(&name) {
                None => ctx.report(span, key, unknown_tiebreak(&name)),
                Some(t) => match chain.iter().find(|(c, _)| *c == t) {
                    Some((_, first)) => ctx.report(
                        span,
                        key,
                        Text::new(
                            format!(
                                "`{name}` 与 `{first}`（{}）重复；每个比较项目只列一次",
                                t.name()
                            ),
                            format!(
                                "`{name}` repeats `{first}` ({}); list each tiebreak once",
                                t.name()
                            ),
                        ),
                    ),
                    None => chain.push((t, name)),
                },
            }
        }
        r.tiebreaks = chain.into_iter().map(|(t, _)| t).collect();
    }
    if let Some(v) = sec.named(ctx, "fallback") {
        r.fallback = v;
    }
    if let Some(v) = sec.named(ctx, "bye_opponent_score") {
        r.bye_opponent_score = v;
    }
    if let Some(v) = sec.boolean(ctx, "bye_counts_as_win") {
        r.bye_counts_as_win = v;
    }
    if let Some(v) = sec.boolean(ctx, "forfeit_counts_as_win") {
        r.forfeit_counts_as_win = v;
    }
    if let Some(v) = sec.boolean(ctx, "forfeit_opponent_in_opp_score") {
        r.forfeit_opponent_in_opp_score = v;
    }
    if let Some(v) = sec.named(ctx, "unresolved") {
        r.unresolved = v;
    }
    if let Some(v) = sec.count(ctx, "shared_from_place", 1) {
        r.shared_from_place = v;
    }
    if let Some(v) = sec.named(ctx, "unresolved_first") {
        r.unresolved_first = v;
    }
    if let Some(v) = sec.named(ctx, "penalty_in_progressive") {
        r.penalty_in_progressive = v;
    }
    r
}

fn unknown_tiebreak(name: &str) -> Text {
    // docs/rules.md §10 lists the fallbacks and lot/number with the tiebreaks; here they have
    // their own keys, so point there.
    if let Some(fallback) = Fallback::parse(name) {
        return Text::new(
            format!(
                "`{name}` 是最后的排序依据，不是比较项目；请从这里删除，并设置 `fallback = \"{}\"`",
                fallback.name()
            ),
            format!(
                "`{name}` is a fallback, not a tiebreak; remove it here and set `fallback = \"{}\"`",
                fallback.name()
            ),
        );
    }
    if let Some(resolution) = TieResolution::parse(name) {
        return Text::new(
            format!(
                "`{name}` 用于处理所有比较项目之后仍相同的名次；请从这里删除，并设置 `unresolved = \"{}\"`",
                resolution.name()
            ),
            format!(
                "`{name}` settles ties left after every tiebreak; remove it here and set `unresolved = \"{}\"`",
                resolution.name()
            ),
        );
    }
    let aliases: Vec<&str> = Tiebreak::ALIASES.iter().map(|(n, _)| *n).collect();
    let message = unknown_name_message::<Tiebreak>(name, ("比较项目", "tiebreak"));
    Text::new(
        format!("{}；也可以用中文名称 {}", message.zh, aliases.join("、")),
        format!(
            "{}; Chinese names {} are accepted too",
            message.en,
            aliases.join("、")
        ),
    )
}

fn parse_prizes(ctx: &mut Ctx, root: &Sec, index: &GroupIndex) -> PrizeRules {
    let mut p = PrizeRules::default();
    let Some(sec) = root.sub(ctx, "prizes") else {
        return p;
    };
    sec.check_keys(ctx, PRIZES_KEYS);
    if let Some(v) = sec.named(ctx, "shared_money") {
        p.shared_money = v;
    }
    if let Some(v) = sec.named(ctx, "multiple") {
        p.multiple = v;
    }
    if let Some(v) = sec.named(ctx, "withdrawn") {
        p.withdrawn = v;
    }
    if let Some(v) = sec.named(ctx, "qualification_ties") {
        p.qualification_ties = v;
    }
    let lists = sec.tables(ctx, "lists");
    let mut ids: BTreeSet<String> = BTreeSet::new();
    for list in &lists {
        list.check_keys(ctx, LIST_KEYS);
        let group = index.pool_or_only(ctx, list);
        let filter = match list.sub(ctx, "filter") {
            Some(f) => parse_filter(ctx, &f, index, group.as_ref()),
            None => PrizeFilter::default(),
        };
        let before = ctx.problems.len();
        let places = parse_places(ctx, list);
        if !list.has("places") {
            list.missing(ctx, "places", "places = [{ place = 1, money = 500 }]");
        } else if places.is_empty() && ctx.problems.len() == before {
            list.report(
                ctx,
                "places",
                Text::new(
                    "没有名次；奖项至少需要一个名次，例如 `{ place = 1, money = 500 }`",
                    "no places; a prize list needs at least one, e.g. `{ place = 1, money = 500 }`",
                ),
            );
        }
        let Some(group) = group else { continue };
        let id = unique_id(ctx, list, &mut ids, group.as_str());
        let name = list.text(ctx, "name").unwrap_or_else(|| {
            index
                .groups
                .iter()
                .find(|g| g.id == group)
                .map_or_else(|| group.to_string(), |g| g.name.clone())
        });
        p.lists.push(PrizeList {
            id,
            name,
            group,
            filter,
            places,
        });
    }
    p
}

/// The `id` of a prize list or team: as written, else the group id (then `-2`, `-3`, …);
/// written ids must be unique.
fn unique_id(ctx: &mut Ctx, sec: &Sec, ids: &mut BTreeSet<String>, base: &str) -> String {
    if let Some(id) = sec.text(ctx, "id") {
        if !ids.insert(id.clone()) {
            sec.report(
                ctx,
                "id",
                Text::new(
                    format!("`{id}` 用了两次；请给每一项不同的编号"),
                    format!("`{id}` is used twice; give each one a different id"),
                ),
            );
        }
        return id;
    }
    let mut id = base.to_string();
    let mut n = 2;
    while ids.contains(&id) {
        id = format!("{base}-{n}");
        n += 1;
    }
    ids.insert(id.clone());
    id
}

fn parse_filter(
    ctx: &mut Ctx,
    sec: &Sec,
    index: &GroupIndex,
    pool: Option<&GroupId>,
) -> PrizeFilter {
    sec.check_keys(ctx, FILTER_KEYS);
    let mut filter = PrizeFilter {
        gender: sec.named(ctx, "gender"),
        disabled: sec.boolean(ctx, "disabled"),
        local: sec.boolean(ctx, "local"),
        section: None,
    };
    if let Some(section) = index.resolve(ctx, sec, "section") {
        match (&section.pairs_with, pool) {
            (Some(p), Some(pool)) if p == pool => filter.section = Some(section.id.clone()),
            (Some(p), Some(pool)) => sec.report(
                ctx,
                "section",
                Text::new(
                    format!(
                        "分组 `{}` 在 `{p}` 中编排，不在本奖项的编排组 `{pool}` 中",
                        section.id
                    ),
                    format!(
                        "section `{}` is paired in `{p}`, not in this list's pool `{pool}`",
                        section.id
                    ),
                ),
            ),
            (None, _) => sec.report(
                ctx,
                "section",
                Text::new(
                    format!(
                        "`{}` 是编排组，不是分组；分组是带有 `pairs_with` 的组别",
                        section.id
                    ),
                    format!(
                        "`{}` is a pool, not a section; a section is a group with `pairs_with`",
                        section.id
                    ),
                ),
            ),
            (Some(_), None) => {}
        }
    }
    filter
}

fn parse_places(ctx: &mut Ctx, list: &Sec) -> Vec<PrizePlace> {
    let mut places: Vec<(PrizePlace, String)> = Vec::new();
    for sec in list.tables(ctx, "places") {
        sec.check_keys(ctx, PLACE_KEYS);
        let place = sec.count(ctx, "place", 1);
        let from = sec.count(ctx, "from", 1);
        let to = sec.count(ctx, "to", 1);
        let (from, to) = match (sec.has("place"), sec.has("from") || sec.has("to")) {
            (true, true) => {
                sec.report(
                    ctx,
                    "place",
                    Text::new(
                        "请给出 `place = N` 或 `from`/`to` 之一，不要同时给出",
                        "give either `place = N` or `from`/`to`, not both",
                    ),
                );
                continue;
            }
            (true, false) => match place {
                Some(p) => (p, p),
                None => continue,
            },
            (false, true) => match (from, to) {
                (Some(f), Some(t)) => (f, t),
                (Some(f), None) if !sec.has("to") => (f, f),
                (None, _) if !sec.has("from") => {
                    sec.missing(ctx, "from", "from = 4");
                    continue;
                }
                _ => continue,
            },
            (false, false) => {
                sec.missing(ctx, "place", "place = 1");
                continue;
            }
        };
        if from > to {
            sec.report(
                ctx,
                "to",
                Text::new(
                    format!("名次范围 {from}–{to} 颠倒了；`to` 不能小于 `from`（{from}）"),
                    format!(
                        "the range {from}–{to} runs backwards; `to` must be at least `from` ({from})"
                    ),
                ),
            );
            continue;
        }
        let money = sec.count(ctx, "money", 0).unwrap_or(0);
        let place = PrizePlace {
            from,
            to,
            money,
            award: sec.text(ctx, "award"),
            title: sec.text(ctx, "title"),
            qualification: sec.text(ctx, "qualification"),
        };
        if let Some((other, other_path)) = places
            .iter()
            .find(|(o, _)| o.from <= place.to && place.from <= o.to)
        {
            ctx.report(
                sec.span(),
                sec.path.clone(),
                Text::new(
                    format!(
                        "名次 {} 与名次 {}（{other_path}）重叠；每个名次只能有一个奖项",
                        range(place.from, place.to),
                        range(other.from, other.to)
                    ),
                    format!(
                        "places {} overlap places {} ({other_path}); each place may have one prize",
                        range(place.from, place.to),
                        range(other.from, other.to)
                    ),
                ),
            );
            continue;
        }
        places.push((place, sec.path.clone()));
    }
    places.into_iter().map(|(p, _)| p).collect()
}

fn range(from: u32, to: u32) -> String {
    if from == to {
        from.to_string()
    } else {
        format!("{from}–{to}")
    }
}

fn parse_teams(ctx: &mut Ctx, root: &Sec, index: &GroupIndex) -> Vec<TeamCompetition> {
    let mut teams = Vec::new();
    let mut ids: BTreeSet<String> = BTreeSet::new();
    for sec in root.tables(ctx, "teams") {
        sec.check_keys(ctx, TEAM_KEYS);
        let group = index.pool_or_only(ctx, &sec);
        let metric = sec.named(ctx, "metric").unwrap_or_default();
        let mut tiebreaks = default_team_tiebreaks(metric);
        if let Some(list) = sec.strings(ctx, "tiebreaks") {
            let path = sec.key_path("tiebreaks");
            tiebreaks.clear();
            for (i, (name, span)) in list.into_iter().enumerate() {
                let key = format!("{path}[{i}]");
                match TeamTiebreak::parse(&name) {
                    None => ctx.report(
                        span,
                        key,
                        unknown_name_message::<TeamTiebreak>(
                            &name,
                            ("团体比较项目", "team tiebreak"),
                        ),
                    ),
                    Some(t) if tiebreaks.contains(&t) => ctx.report(
                        span,
                        key,
                        Text::new(
                            format!("`{name}` 列了两次；每个比较项目只列一次"),
                            format!("`{name}` is listed twice; list each tiebreak once"),
                        ),
                    ),
                    Some(t) => tiebreaks.push(t),
                }
            }
        }
        let best_n = sec.count(ctx, "best_n", 1).unwrap_or(DEFAULT_BEST_N);
        let short_team = sec.named(ctx, "short_team").unwrap_or_default();
        let places = parse_places(ctx, &sec);
        let Some(group) = group else { continue };
        let id = unique_id(ctx, &sec, &mut ids, &format!("{group}-team"));
        let name = sec.text(ctx, "name").unwrap_or_else(|| {
            let group_name = index
                .groups
                .iter()
                .find(|g| g.id == group)
                .map_or_else(|| group.to_string(), |g| g.name.clone());
            format!("{group_name}团体")
        });
        teams.push(TeamCompetition {
            id,
            name,
            group,
            best_n,
            metric,
            short_team,
            tiebreaks,
            places,
        });
    }
    teams
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_same(&p.message_zh, &p.message);
        }
        let zh = errors.localize(Lang::Zh);
        assert_eq!(zh.lines().count(), errors.to_string().lines().count());
        for (z, e) in zh.lines().zip(errors.to_string().lines()) {
            let place = |l: &str| l.split(": ").next().unwrap_or("").to_string();
            assert_eq!(place(z), place(e), "{z}\n{e}");
        }
        let syntax = Rulebook::from_toml("[event\n", "x.toml").unwrap_err();
        assert!(syntax.problems[0].message_zh.starts_with("TOML 格式错误"));
    }

    /// `rules/README.md` documents every key the parser accepts, in a table row.
    #[test]
    fn readme_documents_every_key() {
        let readme = include_str!("../../rules/README.md");
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

    #[test]
    fn default_ids_are_unique() {
        let mut ctx = Ctx::default();
        let doc = ImDocument::parse("").unwrap();
        let sec = Sec::root(doc.as_table());
        let mut ids = BTreeSet::new();
        let got: Vec<String> = (0..3)
            .map(|_| unique_id(&mut ctx, &sec, &mut ids, "kids"))
            .collect();
        assert_eq!(got, ["kids", "kids-2", "kids-3"]);
        assert!(ctx.problems.is_empty());
    }

    #[test]
    fn team_tiebreak_defaults_follow_the_metric() {
        let cases = [
            (TeamMetric::RankSum, TeamTiebreak::BestIndividualRank),
            (TeamMetric::PointSum, TeamTiebreak::OppScoreSum),
        ];
        for (metric, first) in cases {
            assert_eq!(default_team_tiebreaks(metric)[0], first, "{metric:?}");
            assert_eq!(
                default_team_tiebreaks(metric).last(),
                Some(&TeamTiebreak::Lot)
            );
        }
    }
}
