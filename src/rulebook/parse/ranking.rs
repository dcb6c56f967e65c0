//! The sections about the outcome of the event: `[ranking]` (tiebreaks, presets, the
//! fallback), `[prizes]` with its lists, filters and places, and `[[teams]]`, with their
//! defaults (a team's best N and its tiebreaks).

use super::groups::GroupIndex;
use super::{FILTER_KEYS, LIST_KEYS, PLACE_KEYS, PRIZES_KEYS, RANKING_KEYS, TEAM_KEYS};
use crate::i18n::Text;
use crate::model::{Gender, GroupId};
use crate::rulebook::names::{Named, Preset};
use crate::rulebook::reader::{Ctx, Sec, unknown_name_message};
use crate::rulebook::types::*;
use std::collections::BTreeSet;

/// Default best N of a team (docs/rules.md §8; Jinhua: 取同单位最好的前三名).
const DEFAULT_BEST_N: u32 = 3;

/// Default team tiebreaks (docs/rules.md §8 and §10).
fn default_team_tiebreaks(metric: TeamMetric) -> Vec<TeamTiebreak> {
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

pub(super) fn parse_ranking(ctx: &mut Ctx, root: &Sec) -> RankingRules {
    let mut r = RankingRules::default();
    let Some(sec) = root.sub(ctx, "ranking") else {
        return r;
    };
    sec.check_keys(ctx, RANKING_KEYS);
    // CXA 2011 §14.3: the preset gives the chain; explicit keys override it.
    if let Some(preset) = sec.named::<Preset>(ctx, "preset") {
        (r.tiebreaks, r.fallback) = preset.chain();
    }
    if let Some(list) = tiebreak_list(ctx, &sec, "tiebreaks") {
        r.tiebreaks = list;
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

/// A list of tiebreaks at `key` (`ranking.tiebreaks`, a group's `tiebreaks`): each known by
/// its key or Chinese name, none twice.
pub(super) fn tiebreak_list(ctx: &mut Ctx, sec: &Sec, key: &str) -> Option<Vec<Tiebreak>> {
    let list = sec.strings(ctx, key)?;
    {
        let path = sec.key_path(key);
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
        Some(chain.into_iter().map(|(t, _)| t).collect())
    }
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

pub(super) fn parse_prizes(ctx: &mut Ctx, root: &Sec, index: &GroupIndex) -> PrizeRules {
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
        let entry = PrizeList {
            id,
            name,
            group,
            filter,
            places,
            by_gender: None,
        };
        if list.boolean(ctx, "by_gender") != Some(true) {
            p.lists.push(entry);
        } else if entry.filter.gender.is_some() {
            list.report(
                ctx,
                "by_gender",
                Text::new(
                    "`by_gender = true` 已为男女各排一个名单，不能再写 `filter.gender`；二者删去其一",
                    "`by_gender = true` already ranks men and women in a list each; drop it or `filter.gender`",
                ),
            );
        } else {
            for gender in [Gender::Male, Gender::Female] {
                p.lists
                    .push(gender_half(ctx, list, &mut ids, gender, &entry));
            }
        }
    }
    p
}

/// One half of a `by_gender = true` entry: `{id}_male`/`{id}_female`, the name with
/// `{性别}` replaced by 男子/女子 (or （男子）/（女子） appended), `{性别}` in awards, titles and
/// qualifications replaced the same way, and the gender in its filter.
fn gender_half(
    ctx: &mut Ctx,
    list: &Sec,
    ids: &mut BTreeSet<String>,
    gender: Gender,
    entry: &PrizeList,
) -> PrizeList {
    let word = GenderSplit::word(gender);
    let half_id = format!("{}_{}", entry.id, gender.name());
    if !ids.insert(half_id.clone()) {
        list.report(
            ctx,
            "id",
            Text::new(
                format!("按性别分开录取的名单编号 `{half_id}` 已被另一个名单使用；请改用不同的编号"),
                format!("`{half_id}`, the id of this list's half for one gender, is used by another list; choose another id"),
            ),
        );
    }
    let fill = |text: &str| text.replace("{性别}", word);
    let half_name = if entry.name.contains("{性别}") {
        fill(&entry.name)
    } else {
        format!("{}（{word}）", entry.name)
    };
    let fill_opt = |text: &Option<String>| text.as_deref().map(fill);
    PrizeList {
        id: half_id,
        name: half_name,
        group: entry.group.clone(),
        filter: PrizeFilter {
            gender: Some(gender),
            ..entry.filter.clone()
        },
        places: entry
            .places
            .iter()
            .map(|p| PrizePlace {
                award: fill_opt(&p.award),
                title: fill_opt(&p.title),
                qualification: fill_opt(&p.qualification),
                ..p.clone()
            })
            .collect(),
        by_gender: Some(Box::new(GenderSplit {
            gender,
            id: entry.id.clone(),
            name: entry.name.clone(),
            places: entry.places.clone(),
        })),
    }
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

pub(super) fn parse_teams(ctx: &mut Ctx, root: &Sec, index: &GroupIndex) -> Vec<TeamCompetition> {
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
    fn default_ids_are_unique() {
        let mut ctx = Ctx::default();
        let doc = toml_edit::Document::parse("").unwrap();
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
