//! `[[groups]]`: the 组别, pools and sections with their marks and eligibility, the
//! checks across groups (duplicate names and aliases, `pairs_with`), and [`GroupIndex`],
//! which resolves a group written by id, name or alias anywhere else in the rulebook.

use super::{ELIGIBILITY_KEYS, GROUP_KEYS, MARKS_KEYS};
use crate::i18n::Text;
use crate::model::GroupId;
use crate::rulebook::reader::{Ctx, Sec, backticked, nearest};
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

pub(super) fn parse_groups(ctx: &mut Ctx, root: &Sec) -> Vec<GroupRule> {
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
