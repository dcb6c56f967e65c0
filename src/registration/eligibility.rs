//! Whether a registered player may enter the group they named: age (周岁), school grade,
//! birth-date cutoffs, gender, disabled certificate, local residence and titles (ranked on
//! the 称号 ladder of [`Title`]).
//!
//! Owns the eligibility test of one player against the rulebook; it reads only the
//! player and the rulebook, never other rows.

use crate::i18n::Text;
use crate::model::{Gender, Player, Title, grade_label, grade_words};
use crate::rulebook::{Eligibility, GroupRule, Rulebook};
use chrono::{Datelike, NaiveDate};

/// Age in full years (周岁) on `on`: the birthday counts from its own day.
pub fn age_on(birth: NaiveDate, on: NaiveDate) -> i32 {
    let mut age = on.year() - birth.year();
    if (on.month(), on.day()) < (birth.month(), birth.day()) {
        age -= 1;
    }
    age
}

/// A date as a regulation writes it: `2009年1月1日`.
pub fn date_zh(d: NaiveDate) -> String {
    format!("{}年{}月{}日", d.year(), d.month(), d.day())
}

/// The birth-date cutoffs of `rule` as the regulation words them, each with whether a
/// birth on `birth` meets it: `2009年1月1日以后出生（含）`.
fn birth_cutoffs(rule: &Eligibility, birth: NaiveDate) -> Vec<(bool, String, String)> {
    let mut out = Vec::new();
    if let Some(d) = rule.born_on_or_after {
        out.push((
            birth >= d,
            format!("{}以后出生（含当日）", date_zh(d)),
            format!("born on or after {d}"),
        ));
    }
    if let Some(d) = rule.born_after {
        out.push((
            birth > d,
            format!("{}以后出生（不含当日）", date_zh(d)),
            format!("born after {d}"),
        ));
    }
    if let Some(d) = rule.born_on_or_before {
        out.push((
            birth <= d,
            format!("{}以前出生（含当日）", date_zh(d)),
            format!("born on or before {d}"),
        ));
    }
    if let Some(d) = rule.born_before {
        out.push((
            birth < d,
            format!("{}以前出生（不含当日）", date_zh(d)),
            format!("born before {d}"),
        ));
    }
    out
}

/// A gender for messages: `male (男)`.
pub fn gender_word(g: Gender) -> &'static str {
    match g {
        Gender::Male => "male (男)",
        Gender::Female => "female (女)",
    }
}

/// A gender for Chinese messages: `男`.
pub fn gender_word_zh(g: Gender) -> &'static str {
    match g {
        Gender::Male => "男",
        Gender::Female => "女",
    }
}

/// Every reason `player` may not enter `named`: the named group's own eligibility, then,
/// for a section (残疾人组, 本地组), the eligibility of the pool it plays in.
pub fn check(player: &Player, named: &GroupRule, rules: &Rulebook) -> Vec<Text> {
    let mut problems = Vec::new();
    check_one(player, named, &named.eligibility, rules, &mut problems);
    if let Some(pool) = named.pairs_with.as_ref().and_then(|id| rules.group(id))
        && pool.id != named.id
    {
        check_one(player, pool, &pool.eligibility, rules, &mut problems);
    }
    problems
}

fn check_one(
    player: &Player,
    group: &GroupRule,
    rule: &Eligibility,
    rules: &Rulebook,
    problems: &mut Vec<Text>,
) {
    let name = &group.name;
    if rule.under_age.is_some() || rule.min_age.is_some() {
        let reference = rule.age_reference.or(rules.event.start_date);
        match (player.birth_date, reference) {
            (None, _) => problems.push(Text::new(
                format!("{name}有年龄限制，但出生日期不详；请填写出生日期或身份证号"),
                format!(
                    "{name} has an age limit but the birth date is unknown; give a 出生日期 or 身份证号"
                ),
            )),
            (Some(_), None) => problems.push(Text::new(
                format!(
                    "{name}有年龄限制，但规程没有给出计算年龄的日期；请设置 `event.start_date` 或该组别的 `age_reference`"
                ),
                format!(
                    "{name} has an age limit but the rulebook gives no date to count age on; set `event.start_date` or the group's `age_reference`"
                ),
            )),
            (Some(birth), Some(on)) => {
                let age = age_on(birth, on);
                // `age_max_inclusive` (required with `under_age` by the rulebook parser):
                // 16周岁以下 read as "16 or younger" or as "under 16".
                let inclusive = rule.age_max_inclusive == Some(true);
                if let Some(limit) = rule.under_age
                    && (i64::from(age) > i64::from(limit)
                        || (!inclusive && i64::from(age) == i64::from(limit)))
                {
                    let (zh, en) = if inclusive {
                        (
                            format!("{limit} 岁及以下"),
                            format!("{limit} or younger"),
                        )
                    } else {
                        (format!("未满 {limit} 岁"), format!("under {limit}"))
                    };
                    problems.push(Text::new(
                        format!(
                            "{name}限 {on} {zh}的棋手参加，而 {birth} 出生的棋手为 {age} 岁；请报名年龄更大的组别"
                        ),
                        format!(
                            "{name} is for players {en} on {on}, but one born {birth} is {age}; register in an older group"
                        ),
                    ));
                }
                if let Some(limit) = rule.min_age
                    && i64::from(age) < i64::from(limit)
                {
                    problems.push(Text::new(
                        format!(
                            "{name}限 {on} 年满 {limit} 岁的棋手参加，而 {birth} 出生的棋手为 {age} 岁"
                        ),
                        format!(
                            "{name} is for players at least {limit} on {on}, but one born {birth} is {age}"
                        ),
                    ));
                }
            }
        }
    }
    let cutoffs = [
        rule.born_on_or_after,
        rule.born_after,
        rule.born_on_or_before,
        rule.born_before,
    ];
    if cutoffs.iter().any(Option::is_some) {
        match player.birth_date {
            // Reported once with the age limits above when both apply.
            None if rule.under_age.is_some() || rule.min_age.is_some() => {}
            None => problems.push(Text::new(
                format!("{name}限定出生日期，但该棋手出生日期不详；请填写出生日期或身份证号"),
                format!(
                    "{name} limits the birth date but this player's is unknown; give a 出生日期 or 身份证号"
                ),
            )),
            Some(birth) => {
                for (met, zh, en) in birth_cutoffs(rule, birth) {
                    if !met {
                        problems.push(Text::new(
                            format!("{name}须 {zh}；该棋手 {}出生", date_zh(birth)),
                            format!("{name} requires players {en}; this player was born {birth}"),
                        ));
                    }
                }
            }
        }
    }
    let range = grade_range(rule);
    match player.grade {
        None if range.is_some() || rule.student => problems.push(Text::new(
            format!(
                "{name}限{}学生参加；请填写年级",
                grade_range_zh(rule).unwrap_or_default()
            ),
            format!(
                "{name} is for students{}; give the school grade (年级)",
                range.map(|r| format!(" in {r}")).unwrap_or_default()
            ),
        )),
        Some(grade) => {
            let below = rule.min_grade.is_some_and(|min| grade < min);
            let above = rule.max_grade.is_some_and(|max| grade > max);
            if below || above {
                problems.push(Text::new(
                    format!(
                        "{name}限{}，不含{}；请报名该年级的组别",
                        grade_range_zh(rule).unwrap_or_default(),
                        grade_words(grade)
                    ),
                    format!(
                        "{name} is for {}, not grade {}; register in the group of that grade",
                        range.unwrap_or_default(),
                        grade_label(grade)
                    ),
                ));
            }
        }
        None => {}
    }
    if let Some(want) = rule.gender {
        match player.gender {
            None => problems.push(Text::new(
                format!(
                    "{name}限{}棋手参加，但性别不详；请填写性别或身份证号",
                    gender_word_zh(want)
                ),
                format!(
                    "{name} is for {} players but the gender is unknown; give a 性别 or 身份证号",
                    gender_word(want)
                ),
            )),
            Some(g) if g != want => problems.push(Text::new(
                format!(
                    "{name}只限{}棋手参加，而该棋手为{}",
                    gender_word_zh(want),
                    gender_word_zh(g)
                ),
                format!(
                    "{name} is for {} players only, and this player is {}",
                    gender_word(want),
                    gender_word(g)
                ),
            )),
            Some(_) => {}
        }
    }
    if rule.disabled && !player.disabled {
        problems.push(Text::new(
            format!("{name}需要残疾证；请把该棋手标为 残疾=是，或报名其他组别"),
            format!(
                "{name} requires a disabled certificate (残疾证); mark the player 残疾=是 or register in another group"
            ),
        ));
    }
    if rule.local && !player.local {
        problems.push(Text::new(
            format!("{name}限本地棋手参加；请把该棋手标为 本地=是，或报名其他组别"),
            format!(
                "{name} is for local players; mark the player 本地=是 or register in another group"
            ),
        ));
    }
    title_problems(player, name, rule, problems);
}

/// The title limits: a title on the rung of a `below_title` or above, or above
/// `max_title`, bars the player. A stored title that is not on the ladder (a state written
/// before titles were a closed list) is reported rather than let through.
fn title_problems(player: &Player, name: &str, rule: &Eligibility, problems: &mut Vec<Text>) {
    if rule.below_title.is_empty() && rule.max_title.is_none() {
        return;
    }
    let Some(held) = player.title.as_deref() else {
        return;
    };
    let title = match Title::parse(held) {
        Ok(Some(t)) => t,
        Ok(None) => return,
        Err(message) => {
            problems.push(message);
            return;
        }
    };
    let ladder = |t: &str| Title::parse(t).ok().flatten();
    if let Some(bar) = rule
        .below_title
        .iter()
        .filter_map(|t| ladder(t))
        .min_by_key(|t| t.rung())
        .filter(|bar| title.rung() >= bar.rung())
    {
        let names = rule.below_title.join("、");
        problems.push(Text::new(
            format!(
                "{name}限未获得{names}称号（及以上）的棋手参加，而该棋手持有 `{held}`（与{}同级或更高）",
                bar.name()
            ),
            format!(
                "{name} is for players without the title {} or above, and this player holds `{held}` (the rung of {} or higher)",
                rule.below_title.join(" / "),
                bar.name()
            ),
        ));
    }
    if let Some(max) = rule
        .max_title
        .as_deref()
        .and_then(ladder)
        .filter(|max| title.rung() > max.rung())
    {
        problems.push(Text::new(
            format!(
                "{name}限{}及以下称号的棋手参加，而该棋手持有 `{held}`",
                max.name()
            ),
            format!(
                "{name} is for players titled {} or below, and this player holds `{held}`",
                max.name()
            ),
        ));
    }
}

/// The grade limits in Chinese: `4–6 年级`.
fn grade_range_zh(rule: &Eligibility) -> Option<String> {
    match (rule.min_grade, rule.max_grade) {
        (Some(a), Some(b)) if a == b => Some(grade_words(a)),
        (Some(a), Some(b)) if a >= 1 => Some(format!("{a}–{b} 年级")),
        (Some(a), Some(b)) => Some(format!("{}至{}", grade_words(a), grade_words(b))),
        (Some(a), None) => Some(format!("{}及以上", grade_words(a))),
        (None, Some(b)) => Some(format!("{}及以下", grade_words(b))),
        (None, None) => None,
    }
}

/// The grade limits in words: `grades 4–6`.
fn grade_range(rule: &Eligibility) -> Option<String> {
    match (rule.min_grade, rule.max_grade) {
        (Some(a), Some(b)) if a == b => Some(format!("grade {}", grade_label(a))),
        (Some(a), Some(b)) => Some(format!("grades {}–{}", grade_label(a), grade_label(b))),
        (Some(a), None) => Some(format!("grade {} and up", grade_label(a))),
        (None, Some(b)) => Some(format!("grades up to {}", grade_label(b))),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en(problems: Vec<Text>) -> Vec<String> {
        problems.into_iter().map(|t| t.en).collect()
    }
    use crate::model::{GroupId, PlayerId};
    use crate::rulebook::Marks;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn group(id: &str, name: &str, pairs_with: Option<&str>, e: Eligibility) -> GroupRule {
        GroupRule {
            id: GroupId::new(id),
            name: name.to_string(),
            aliases: Vec::new(),
            pairs_with: pairs_with.map(GroupId::new),
            marks: Marks::default(),
            rounds: None,
            time_control: None,
            min_size: None,
            merge_into: None,
            eligibility: e,
            hall: Default::default(),
            format: crate::rulebook::GroupFormat::swiss(),
        }
    }

    fn rules(groups: Vec<GroupRule>) -> Rulebook {
        let mut r = Rulebook::cxa_2011("test", 7);
        r.event.start_date = Some(date(2018, 10, 26));
        r.groups = groups;
        r
    }

    fn player() -> Player {
        Player::new(PlayerId(1), "张三", GroupId::new("x"))
    }

    #[test]
    fn age_counts_full_years() {
        let cases = [
            (date(2002, 10, 26), 16),
            (date(2002, 10, 27), 15),
            (date(2002, 10, 25), 16),
            (date(2004, 2, 29), 14),
            (date(2018, 10, 26), 0),
        ];
        for (birth, want) in cases {
            assert_eq!(age_on(birth, date(2018, 10, 26)), want, "{birth}");
        }
        assert_eq!(age_on(date(2004, 2, 29), date(2005, 2, 28)), 0);
        assert_eq!(age_on(date(2004, 2, 29), date(2005, 3, 1)), 1);
    }

    fn with_title(title: &str) -> Player {
        let mut p = player();
        p.title = Some(title.into());
        p
    }

    /// Issue 43 §1: titles compare by rung. Jinhua 十一 未获得国家级运动健将、象棋大师称号 and
    /// Dongguan 十.3 未获得国家级运动健将（象棋大师）以上称号 bar those titles and 特级大师,
    /// never the amateur 棋协大师 or 棋协候补大师; `max_title` bars what ranks above it.
    #[test]
    fn titles_compare_by_rung() {
        let jinhua = Eligibility {
            below_title: vec!["国家级运动健将".into(), "象棋大师".into()],
            ..Default::default()
        };
        let amateur = Eligibility {
            max_title: Some("棋协大师".into()),
            ..Default::default()
        };
        for (title, barred_jinhua, barred_amateur) in [
            ("特级大师", true, true),
            ("国际级运动健将", true, true),
            ("象棋大师", true, true),
            ("国家级运动健将", true, true),
            ("棋协大师", false, false),
            ("一级运动员", false, false),
            ("棋协候补大师", false, false),
            ("地方大师", false, false),
            ("一级棋士", false, false),
            ("十六级棋士", false, false),
        ] {
            for (e, want) in [(&jinhua, barred_jinhua), (&amateur, barred_amateur)] {
                let g = group("g", "成人组", None, e.clone());
                let r = rules(vec![g.clone()]);
                let problems = check(&with_title(title), &g, &r);
                assert_eq!(problems.len(), usize::from(want), "{title}: {problems:?}");
            }
        }
        let g = group("g", "成人组", None, jinhua);
        let r = rules(vec![g.clone()]);
        assert_eq!(
            check(&with_title("特级大师"), &g, &r)[0].zh,
            "成人组限未获得国家级运动健将、象棋大师称号（及以上）的棋手参加，而该棋手持有 `特级大师`（与国家级运动健将同级或更高）"
        );
        // A title stored before the ladder was closed, and not on it, is not let through.
        let problems = check(&with_title("FIDE Master"), &g, &r);
        assert!(problems[0].en.contains("`FIDE Master`"), "{problems:?}");
    }

    /// Issue 43 §2: a birth-date cutoff is checked as the regulation words it, not as an age.
    #[test]
    fn birth_date_cutoffs_quote_the_regulation() {
        let on_or_after = Eligibility {
            born_on_or_after: Some(date(2009, 1, 1)),
            ..Default::default()
        };
        let g = group("u10", "少儿组", None, on_or_after);
        let mut r = rules(vec![g.clone()]);
        r.event.start_date = None;
        let mut p = player();
        p.birth_date = Some(date(2009, 1, 1));
        assert!(check(&p, &g, &r).is_empty(), "the day itself is included");
        p.birth_date = Some(date(2008, 12, 30));
        let problems = check(&p, &g, &r);
        assert_eq!(
            problems[0].zh,
            "少儿组须 2009年1月1日以后出生（含当日）；该棋手 2008年12月30日出生"
        );
        assert_eq!(
            problems[0].en,
            "少儿组 requires players born on or after 2009-01-01; this player was born 2008-12-30"
        );
        p.birth_date = None;
        assert!(check(&p, &g, &r)[0].en.contains("birth date"));

        for (e, born, ok) in [
            (
                Eligibility {
                    born_after: Some(date(2009, 1, 1)),
                    ..Default::default()
                },
                date(2009, 1, 1),
                false,
            ),
            (
                Eligibility {
                    born_before: Some(date(2009, 1, 1)),
                    ..Default::default()
                },
                date(2009, 1, 1),
                false,
            ),
            (
                Eligibility {
                    born_before: Some(date(2009, 1, 1)),
                    ..Default::default()
                },
                date(2008, 12, 31),
                true,
            ),
            (
                Eligibility {
                    born_on_or_before: Some(date(2008, 12, 31)),
                    ..Default::default()
                },
                date(2008, 12, 31),
                true,
            ),
        ] {
            let g = group("g", "组", None, e.clone());
            let r = rules(vec![g.clone()]);
            let mut p = player();
            p.birth_date = Some(born);
            assert_eq!(check(&p, &g, &r).is_empty(), ok, "{e:?} {born}");
        }
    }

    /// Issue 43 §2: kindergarten classes are grades below 一年级.
    #[test]
    fn kindergarten_is_a_grade() {
        let kids_b = group(
            "kids_b",
            "儿童棋王B组",
            None,
            Eligibility {
                student: true,
                min_grade: Some(1),
                max_grade: Some(3),
                ..Default::default()
            },
        );
        let r = rules(vec![kids_b.clone()]);
        let mut p = player();
        p.grade = Some(0);
        assert_eq!(
            check(&p, &kids_b, &r)[0].zh,
            "儿童棋王B组限1–3 年级，不含幼儿园大班；请报名该年级的组别"
        );
        let preschool = group(
            "pre",
            "幼儿组",
            None,
            Eligibility {
                min_grade: Some(-2),
                max_grade: Some(0),
                ..Default::default()
            },
        );
        let r = rules(vec![preschool.clone()]);
        assert!(check(&p, &preschool, &r).is_empty());
        p.grade = Some(1);
        assert_eq!(
            check(&p, &preschool, &r)[0].zh,
            "幼儿组限幼儿园小班至幼儿园大班，不含一年级；请报名该年级的组别"
        );
    }

    #[test]
    fn eligibility_table() {
        let youth = Eligibility {
            under_age: Some(16),
            age_max_inclusive: Some(false),
            ..Default::default()
        };
        let youth_inclusive = Eligibility {
            age_max_inclusive: Some(true),
            ..youth.clone()
        };
        let teen_girls = Eligibility {
            student: true,
            gender: Some(Gender::Female),
            min_grade: Some(7),
            max_grade: Some(12),
            ..Default::default()
        };
        let open = Eligibility {
            below_title: vec!["国家级运动健将".into()],
            ..Default::default()
        };
        type Edit = fn(&mut Player);
        let cases: Vec<(&str, Eligibility, Edit, usize)> = vec![
            (
                "young enough",
                youth.clone(),
                |p| p.birth_date = Some(date(2002, 10, 27)),
                0,
            ),
            (
                "sixteen today",
                youth.clone(),
                |p| p.birth_date = Some(date(2002, 10, 26)),
                1,
            ),
            (
                "sixteen today, 16周岁以下 read as 16 or younger",
                youth_inclusive.clone(),
                |p| p.birth_date = Some(date(2002, 10, 26)),
                0,
            ),
            (
                "seventeen today, 16 or younger",
                youth_inclusive,
                |p| p.birth_date = Some(date(2001, 10, 26)),
                1,
            ),
            ("no birth date", youth, |_| {}, 1),
            (
                "girl in grade 8",
                teen_girls.clone(),
                |p| {
                    p.gender = Some(Gender::Female);
                    p.grade = Some(8);
                },
                0,
            ),
            (
                "boy in grade 6",
                teen_girls.clone(),
                |p| {
                    p.gender = Some(Gender::Male);
                    p.grade = Some(6);
                },
                2,
            ),
            ("nothing known", teen_girls, |_| {}, 2),
            ("no title", open.clone(), |_| {}, 0),
            ("master", open, |p| p.title = Some("象棋大师".into()), 1),
        ];
        for (what, e, edit, want) in cases {
            let g = group("g", "测试组", None, e);
            let r = rules(vec![g.clone()]);
            let mut p = player();
            edit(&mut p);
            let problems = en(check(&p, &g, &r));
            assert_eq!(problems.len(), want, "{what}: {problems:?}");
        }
    }

    #[test]
    fn a_section_is_checked_against_its_pool_too() {
        let adult = group(
            "adult",
            "成人组",
            None,
            Eligibility {
                below_title: vec!["国家级运动健将".into()],
                ..Default::default()
            },
        );
        let disabled = group(
            "disabled",
            "残疾人组",
            Some("adult"),
            Eligibility {
                disabled: true,
                ..Default::default()
            },
        );
        let r = rules(vec![adult, disabled.clone()]);
        let mut p = player();
        p.title = Some("象棋大师".into());
        let problems = en(check(&p, &disabled, &r));
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("残疾证"), "{}", problems[0]);
        assert!(problems[1].contains("`象棋大师`"), "{}", problems[1]);
        p.title = None;
        p.disabled = true;
        assert!(check(&p, &disabled, &r).is_empty());
    }

    #[test]
    fn grade_messages_name_the_range() {
        let g = group(
            "kids_a",
            "儿童棋王A组",
            None,
            Eligibility {
                min_grade: Some(4),
                max_grade: Some(6),
                ..Default::default()
            },
        );
        let r = rules(vec![g.clone()]);
        let mut p = player();
        assert_eq!(
            check(&p, &g, &r)[0].zh,
            "儿童棋王A组限4–6 年级学生参加；请填写年级"
        );
        assert_eq!(
            en(check(&p, &g, &r)),
            vec!["儿童棋王A组 is for students in grades 4–6; give the school grade (年级)"]
        );
        p.grade = Some(2);
        assert_eq!(
            en(check(&p, &g, &r)),
            vec!["儿童棋王A组 is for grades 4–6, not grade 2; register in the group of that grade"]
        );
    }

    #[test]
    fn no_date_to_count_age_on() {
        let g = group(
            "youth",
            "青少年组",
            None,
            Eligibility {
                under_age: Some(16),
                ..Default::default()
            },
        );
        let mut r = rules(vec![g.clone()]);
        r.event.start_date = None;
        let mut p = player();
        p.birth_date = Some(date(2008, 1, 1));
        let problems = en(check(&p, &g, &r));
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("start_date"), "{}", problems[0]);
    }
}
