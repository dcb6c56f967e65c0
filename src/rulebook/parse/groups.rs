//! `[[groups]]`: the 组别, pools and sections with their marks and eligibility, the
//! checks across groups (duplicate names and aliases, `pairs_with`), and [`GroupIndex`],
//! which resolves a group written by id, name or alias anywhere else in the rulebook.

use super::format::parse_format;
use super::{ELIGIBILITY_KEYS, GROUP_KEYS, MARKS_KEYS};
use crate::i18n::Text;
use crate::model::{GradeScale, GroupId, MAX_GRADE, MIN_GRADE, Title, grade_label};
use crate::rulebook::reader::{Ctx, Sec, Span, backticked, nearest};
use crate::rulebook::types::*;
use std::collections::BTreeMap;

/// Resolves group names written anywhere in the rulebook.
pub(super) struct GroupIndex<'a> {
    pub(super) groups: &'a [GroupRule],
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
    pub(super) fn resolve<'g>(
        &'g self,
        ctx: &mut Ctx,
        sec: &Sec,
        key: &str,
    ) -> Option<&'g GroupRule> {
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
    pub(super) fn pool_or_only(&self, ctx: &mut Ctx, sec: &Sec) -> Option<GroupId> {
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

pub(super) fn parse_groups(ctx: &mut Ctx, root: &Sec, scale: GradeScale) -> Vec<GroupRule> {
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
            Some(e) => parse_eligibility(ctx, &e, scale),
            None => Eligibility::default(),
        };
        let format = parse_format(ctx, sec);
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
            hall: HallPlace {
                name: sec.text(ctx, "hall"),
                first_table: sec.count(ctx, "first_table", 1),
            },
            format,
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
            // A section's games stand with its pool's: its hall place is the pool's.
            for key in ["hall", "first_table"] {
                if kept[i].has(key) {
                    kept[i].report(
                        ctx,
                        key,
                        Text::new(
                            format!("本组别在 `{target}` 中编排，台号随该组；请把 `{key}` 写在 `{target}` 下"),
                            format!("this group is paired in `{target}` and sits at its tables; write `{key}` under `{target}`"),
                        ),
                    );
                }
            }
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
    // A target that is itself merged away would chain (or, both ways, cycle): name the
    // group the players end up in.
    for (i, sec) in kept.iter().enumerate() {
        let Some(target) = &merges[i] else { continue };
        let onward = groups
            .iter()
            .position(|g| &g.id == target)
            .and_then(|t| merges[t].as_ref());
        if let Some(onward) = onward {
            sec.report(
                ctx,
                "merge_into",
                Text::new(
                    format!("`{target}` 本身也要合并到 `{onward}`；请直接写最终并入的组别"),
                    format!(
                        "`{target}` is itself merged into `{onward}`; name the group the players end up in"
                    ),
                ),
            );
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

/// A grade limit: a whole number (−2 = 幼儿园小班 … 12 = 高三) or a grade name on the
/// event's scale (`"一年级"`, `"初一"`, `"大班"`).
fn grade(ctx: &mut Ctx, sec: &Sec, key: &str, scale: GradeScale) -> Option<i8> {
    if !sec.has(key) {
        return None;
    }
    if let Some(name) = sec.string_if_string(key) {
        return match scale.parse(&name) {
            Ok(g) => Some(g),
            Err(message) => {
                sec.report(ctx, key, message);
                None
            }
        };
    }
    sec.int(ctx, key, i64::from(MIN_GRADE), i64::from(MAX_GRADE))
        .and_then(|g| i8::try_from(g).ok())
}

/// A title of the ladder, by any accepted spelling; the canonical name.
fn title(ctx: &mut Ctx, sec: &Sec, key: &str, value: &str, span: Option<Span>) -> Option<String> {
    match Title::parse(value) {
        Ok(Some(t)) => Some(t.name().to_string()),
        Ok(None) => {
            ctx.report(
                span,
                sec.key_path(key),
                Text::new(
                    format!("`{value}` 不是称号；请写 {} 之一", Title::accepted_list()),
                    format!(
                        "`{value}` is not a title; write one of {}",
                        Title::accepted_list_en()
                    ),
                ),
            );
            None
        }
        Err(message) => {
            ctx.report(span, sec.key_path(key), message);
            None
        }
    }
}

fn parse_eligibility(ctx: &mut Ctx, sec: &Sec, scale: GradeScale) -> Eligibility {
    sec.check_keys(ctx, ELIGIBILITY_KEYS);
    let mut below_title = Vec::new();
    if sec.has("below_title") {
        // One title or a list: 未获得国家级运动健将、象棋大师称号 names two.
        let values = match sec.string_if_string("below_title") {
            Some(one) => vec![(one, sec.value_span("below_title"))],
            None => sec.strings(ctx, "below_title").unwrap_or_default(),
        };
        for (value, span) in values {
            if let Some(name) = title(ctx, sec, "below_title", &value, span)
                && !below_title.contains(&name)
            {
                below_title.push(name);
            }
        }
    }
    // The key of earlier rulebooks: 未获得国家级运动健将（象棋大师）以上称号.
    if sec.boolean(ctx, "no_master_title") == Some(true) && !sec.has("below_title") {
        below_title.push("国家级运动健将".to_string());
    }
    let max_title = sec
        .string(ctx, "max_title")
        .and_then(|v| title(ctx, sec, "max_title", &v, sec.value_span("max_title")));
    let e = Eligibility {
        under_age: sec.count(ctx, "under_age", 1),
        age_max_inclusive: sec.boolean(ctx, "age_max_inclusive"),
        min_age: sec.count(ctx, "min_age", 0),
        age_reference: sec.date(ctx, "age_reference"),
        born_on_or_after: sec.date(ctx, "born_on_or_after"),
        born_after: sec.date(ctx, "born_after"),
        born_on_or_before: sec.date(ctx, "born_on_or_before"),
        born_before: sec.date(ctx, "born_before"),
        min_grade: grade(ctx, sec, "min_grade", scale),
        max_grade: grade(ctx, sec, "max_grade", scale),
        student: sec.boolean(ctx, "student").unwrap_or(false),
        gender: sec.named(ctx, "gender"),
        disabled: sec.boolean(ctx, "disabled").unwrap_or(false),
        local: sec.boolean(ctx, "local").unwrap_or(false),
        below_title,
        max_title,
    };
    if let (Some(min), Some(max)) = (e.min_grade, e.max_grade)
        && min > max
    {
        sec.report(
            ctx,
            "min_grade",
            Text::new(
                format!(
                    "min_grade `{}` 高于 max_grade `{}`；请交换两者",
                    grade_label(min),
                    grade_label(max)
                ),
                format!(
                    "min_grade `{}` is above max_grade `{}`; swap them",
                    grade_label(min),
                    grade_label(max)
                ),
            ),
        );
    }
    if e.born_on_or_after.is_some() && e.born_after.is_some() {
        sec.report(
            ctx,
            "born_after",
            Text::new(
                "born_on_or_after 与 born_after 都给出了出生日期下限；请只保留规程所写的一个",
                "born_on_or_after and born_after both give an earliest birth date; keep the one the regulation writes",
            ),
        );
    }
    if e.born_on_or_before.is_some() && e.born_before.is_some() {
        sec.report(
            ctx,
            "born_before",
            Text::new(
                "born_on_or_before 与 born_before 都给出了出生日期上限；请只保留规程所写的一个",
                "born_on_or_before and born_before both give a latest birth date; keep the one the regulation writes",
            ),
        );
    }
    let earliest = e
        .born_on_or_after
        .or_else(|| e.born_after.and_then(|d| d.succ_opt()));
    let latest = e
        .born_on_or_before
        .or_else(|| e.born_before.and_then(|d| d.pred_opt()));
    if let (Some(first), Some(last)) = (earliest, latest)
        && first > last
    {
        let key = if e.born_before.is_some() {
            "born_before"
        } else {
            "born_on_or_before"
        };
        sec.report(
            ctx,
            key,
            Text::new(
                format!("出生日期须不早于 {first} 且不晚于 {last}，没有可报名的出生日期；请检查这两个日期"),
                format!(
                    "a birth date no earlier than {first} and no later than {last} leaves no one eligible; check the two dates"
                ),
            ),
        );
    }
    if let Some(max) = e
        .max_title
        .as_deref()
        .and_then(|t| Title::parse(t).ok().flatten())
        && let Some(below) = e
            .below_title
            .iter()
            .filter_map(|t| Title::parse(t).ok().flatten())
            .min_by_key(|t| t.rung())
        && max.rung() >= below.rung()
    {
        sec.report(
            ctx,
            "max_title",
            Text::new(
                format!(
                    "max_title `{}` 不低于 below_title `{}`；两者只需其一（“棋协大师及以下” 写 max_title，“未获得…称号” 写 below_title）",
                    max.name(),
                    below.name()
                ),
                format!(
                    "max_title `{}` is not below below_title `{}`; one of them is enough (max_title for 棋协大师及以下, below_title for 未获得…称号)",
                    max.name(),
                    below.name()
                ),
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
