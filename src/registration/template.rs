//! The registration sheet an event hands out (`qiwang template`): the columns its groups
//! need, an example row that imports cleanly, and the values each column allows.
//!
//! Owns choosing the columns from the rulebook; the CSV text is written here, the
//! workbook by `report::xlsx::template_workbook`. Must not read or change the event.

use super::headers::Field;
use super::id_card;
use crate::i18n::bi;
use crate::rulebook::{Lang, Rulebook};

/// One column of the registration sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateColumn {
    /// The column's meaning; `None` for a column the importer keeps as the player's
    /// extra information (a team competition's 台次).
    pub field: Option<Field>,
    /// The header, as the importer reads it.
    pub header: String,
    /// The example row's value.
    pub example: String,
    /// The values the column allows (a drop-down list in the workbook), empty for free text.
    pub allowed: Vec<String>,
    /// Digits that must stay text (ID and phone numbers: Excel would round or shorten them).
    pub text: bool,
    /// What to write, for the notes under the sheet.
    pub hint: String,
}

/// The registration sheet of an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The title row above the header (the event's name and 报名表).
    pub title: String,
    /// The worksheet's name.
    pub sheet_name: String,
    /// The columns, in sheet order.
    pub columns: Vec<TemplateColumn>,
}

/// A valid example ID number (checksum included) for a birth date, male.
fn example_id(birth: &str) -> String {
    let first17 = format!("330702{birth}011");
    match id_card::check_character(&first17) {
        Some(c) => format!("{first17}{c}"),
        None => String::new(),
    }
}

/// The example row's 单位: the event's own organiser (the first of several, `浙江省棋类协会、
/// 金华市体育总会` gives `浙江省棋类协会`), so the sheet an organiser sends out shows a unit
/// of their own event rather than another city's.
fn example_unit(rules: &Rulebook) -> Option<String> {
    let organiser = rules.event.organiser.as_deref()?;
    organiser
        .split(['、', '，', ',', '；', ';', '/', '\n'])
        .map(str::trim)
        .find(|unit| !unit.is_empty())
        .map(str::to_string)
}

/// The sheet for `rules`: 序号, 姓名, 性别, 单位 and 组别 always; 出生日期 and 身份证号 when
/// a group has an age limit (the ID number proves it), 年级 when one has a grade limit,
/// 残疾 and 本地 when a group marks them, 称号 when one limits titles; 电话 and 备注
/// always.
pub fn template(rules: &Rulebook, lang: Lang) -> Template {
    let groups: Vec<&crate::rulebook::GroupRule> = rules.groups.iter().collect();
    let any = |f: &dyn Fn(&crate::rulebook::GroupRule) -> bool| groups.iter().any(|g| f(g));
    let ages = any(&|g| g.eligibility.limits_birth());
    let grades = any(&|g| {
        g.eligibility.min_grade.is_some()
            || g.eligibility.max_grade.is_some()
            || g.eligibility.student
    });
    let disabled = any(&|g| g.marks.disabled || g.eligibility.disabled);
    let local = any(&|g| g.marks.local || g.eligibility.local);
    // The example player must be eligible for the first group: a child for a youth group.
    let first = groups.first();
    let young = first.is_some_and(|g| g.eligibility.under_age.is_some());
    let (birth, birth_text) = if young {
        ("20120315", "2012-03-15")
    } else {
        ("19800315", "1980-03-15")
    };
    let female = first.is_some_and(|g| g.eligibility.gender == Some(crate::model::Gender::Female));
    let mut id = example_id(birth);
    if female {
        // Sequence 012 (even: female), checksum recomputed.
        let first17 = format!("330702{birth}012");
        id = id_card::check_character(&first17)
            .map(|c| format!("{first17}{c}"))
            .unwrap_or_default();
    }
    let pick = |zh: &str, en: &str| lang.pick(zh, en).to_string();
    let mut columns = Vec::new();
    let mut push =
        |field, header: &str, example: String, allowed: Vec<String>, text, hint: String| {
            columns.push(TemplateColumn {
                field,
                header: header.to_string(),
                example,
                allowed,
                text,
                hint,
            });
        };
    push(
        Some(Field::Number),
        "序号",
        "示例".into(),
        vec![],
        false,
        pick(
            "报名表自己的行号，不是编排号；序号为“示例”的行不会导入",
            "the sheet's own row number, not the pairing number; the row numbered 示例 (example) is not imported",
        ),
    );
    push(
        Some(Field::Name),
        "姓名",
        pick("张三", "Zhang San"),
        vec![],
        false,
        pick("必填", "required"),
    );
    push(
        Some(Field::Gender),
        "性别",
        if female { "女" } else { "男" }.into(),
        vec!["男".into(), "女".into()],
        false,
        pick("男 或 女", "男 (male) or 女 (female)"),
    );
    let team = rules.team_competition.as_ref();
    match team {
        // 团体赛 (docs/rules.md §17.1): the team is the 队名 column.
        Some(_) => push(
            Some(Field::Unit),
            "队名",
            pick("红星队", "Red Star"),
            vec![],
            false,
            pick(
                "同一队的棋手写同一个队名",
                "the team's name, the same for all its players",
            ),
        ),
        None => push(
            Some(Field::Unit),
            "单位",
            example_unit(rules).unwrap_or_else(|| pick("金华市象棋协会", "Jinhua Xiangqi Club")),
            vec![],
            false,
            pick("代表单位或学校", "club, association or school"),
        ),
    }
    let group_names: Vec<String> = groups.iter().map(|g| g.name.clone()).collect();
    push(
        Some(Field::Group),
        "组别",
        group_names.first().cloned().unwrap_or_default(),
        group_names.clone(),
        false,
        format!(
            "{}{}",
            pick("写规程中的组别之一：", "one of the rulebook's groups: "),
            group_names.join("、")
        ),
    );
    if let Some(team) = team {
        let boards = team.boards;
        let mut allowed: Vec<String> = (1..=boards).map(|b| b.to_string()).collect();
        allowed.push("替补".into());
        push(
            None,
            "台次",
            "1".into(),
            allowed,
            false,
            bi!(
                lang,
                zh(
                    "主力队员写台次 1 到 {boards}（每队各一次），替补写 替补（每队至多 {} 名）",
                    team.reserves
                ),
                en(
                    "main players' board order 1 to {boards} (each once per team); 替补 for a reserve (at most {} a team)",
                    team.reserves
                )
            ),
        );
    }
    if ages {
        push(
            Some(Field::BirthDate),
            "出生日期",
            birth_text.into(),
            vec![],
            false,
            pick(
                "如 2012-03-15；有身份证号时可不填",
                "e.g. 2012-03-15; may be left empty when the ID number is given",
            ),
        );
    }
    if ages || local {
        push(
            Some(Field::IdNumber),
            "身份证号",
            id,
            vec![],
            true,
            pick(
                "18 位，本列为文本格式，请勿改为数字",
                "18 characters; the column is text, do not make it a number",
            ),
        );
    }
    if grades {
        // Kindergarten classes only where a group admits them (a min_grade of 大班 or lower).
        let lowest = rules
            .groups
            .iter()
            .filter_map(|g| g.eligibility.min_grade)
            .min()
            .unwrap_or(1)
            .min(1);
        let named = rules.event.grade_scale.names(lowest);
        let example = first
            .and_then(|g| {
                g.eligibility
                    .min_grade
                    .or(g.eligibility.student.then_some(3))
            })
            .and_then(|n| named.iter().find(|(g, _)| *g == n).map(|(_, s)| s.clone()))
            .unwrap_or_default();
        let grades: Vec<String> = named.into_iter().map(|(_, s)| s).collect();
        push(
            Some(Field::Grade),
            "年级",
            example,
            grades,
            false,
            pick(
                "在读年级，如 三年级、初一",
                "school grade, e.g. 三年级, 初一",
            ),
        );
    }
    if disabled {
        push(
            Some(Field::Disabled),
            "残疾",
            "否".into(),
            vec!["是".into(), "否".into()],
            false,
            pick(
                "持残疾证填 是",
                "是 (yes) for holders of a disability certificate",
            ),
        );
    }
    if local {
        push(
            Some(Field::Local),
            "本地",
            "是".into(),
            vec!["是".into(), "否".into()],
            false,
            pick("本地户籍或居住证填 是", "是 (yes) for local residents"),
        );
    }
    // A title limit (below_title, max_title) is checked against the 称号 column: without
    // it in the sheet nobody's title could be checked.
    if any(&|g| !g.eligibility.below_title.is_empty() || g.eligibility.max_title.is_some()) {
        push(
            Some(Field::Title),
            "称号",
            String::new(),
            vec![],
            false,
            pick(
                "有称号者填写，如 棋协大师、一级棋士、国家级运动健将；没有称号留空",
                "the player's title if any, e.g. 棋协大师, 一级棋士, 国家级运动健将; empty for none",
            ),
        );
    }
    if rules.pairing.seeding == crate::rulebook::Seeding::RatingThenLot {
        push(
            Some(Field::Rating),
            "等级分",
            "1850".into(),
            vec![],
            false,
            pick(
                "编排号按等级分从高到低排定，无等级分者排在其后并抽签；无等级分可留空",
                "pairing numbers go by rating, highest first, the unrated after them by lot; leave empty when unrated",
            ),
        );
    }
    push(
        Some(Field::Phone),
        "电话",
        "10012345678".into(),
        vec![],
        true,
        pick("本列为文本格式", "the column is text"),
    );
    Template {
        title: format!(
            "{} {}",
            rules.event.name,
            lang.pick("报名表", "registration sheet")
        ),
        sheet_name: lang.pick("报名表", "registration").to_string(),
        columns,
    }
}

impl Template {
    /// The sheet as CSV (UTF-8 with a BOM, so Chinese Excel opens it right): the header,
    /// the example row. Written by the one CSV writer of qiwang's outputs, so a group name
    /// from the rulebook (`=1+1公开组`) reaches the clubs as text, never as a formula.
    pub fn to_csv(&self) -> String {
        let header: Vec<String> = self.columns.iter().map(|c| c.header.clone()).collect();
        let example: [Vec<String>; 1] = [self.columns.iter().map(|c| c.example.clone()).collect()];
        let body = crate::sanitize::write_csv([(&header[..], &example[..])]);
        format!("\u{FEFF}{body}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PlayerId;
    use crate::registration::{ImportOptions, read_registrations};

    fn shipped(name: &str) -> Rulebook {
        let path = format!("{}/rules/{name}.toml", env!("CARGO_MANIFEST_DIR"));
        Rulebook::from_toml(&std::fs::read_to_string(&path).unwrap(), name).unwrap()
    }

    /// The example row is skipped as it stands (序号 示例) and imports cleanly once it is
    /// numbered, for every shipped rulebook.
    #[test]
    fn the_example_row_is_valid_and_not_imported_by_mistake() {
        for name in ["jinhua-2018", "dongguan-2018", "cxa-2011"] {
            let rules = shipped(name);
            let t = template(&rules, Lang::Zh);
            let csv = t.to_csv();
            let read = |text: &str| {
                read_registrations(
                    text.as_bytes(),
                    "t.csv",
                    &ImportOptions::default(),
                    &rules,
                    &[],
                    PlayerId(1),
                )
            };
            let err = read(&csv).unwrap_err();
            assert!(err.to_string().contains("no player rows"), "{name}: {err}");
            let numbered = csv.replace("\n示例,", "\n1,");
            let players = read(&numbered).unwrap_or_else(|e| panic!("{name}: {e}\n{csv}"));
            assert_eq!(players.len(), 1, "{name}");
        }
    }

    /// The example unit is the event's own organiser (the first of several), and a
    /// rulebook without one keeps the generic example.
    #[test]
    fn the_example_unit_is_the_events_organiser() {
        let unit = |rules: &Rulebook| {
            template(rules, Lang::Zh)
                .columns
                .iter()
                .find(|c| c.field == Some(Field::Unit))
                .map(|c| c.example.clone())
                .unwrap_or_default()
        };
        let mut rules = shipped("jinhua-2018");
        assert_eq!(unit(&rules), "浙江省棋类协会");
        rules.event.organiser = Some("无为市体育局".into());
        assert_eq!(unit(&rules), "无为市体育局");
        rules.event.organiser = None;
        assert_eq!(unit(&rules), "金华市象棋协会");
    }

    /// Seeding by rating asks for a rating column; its example row imports with the
    /// rating read.
    #[test]
    fn seeding_by_rating_asks_for_the_rating() {
        let mut rules = shipped("cxa-2011");
        let has_rating = |rules: &Rulebook| {
            template(rules, Lang::Zh)
                .columns
                .iter()
                .any(|c| c.field == Some(Field::Rating))
        };
        assert!(!has_rating(&rules));
        rules.pairing.seeding = crate::rulebook::Seeding::RatingThenLot;
        assert!(has_rating(&rules));
        let csv = template(&rules, Lang::Zh)
            .to_csv()
            .replace("\n示例,", "\n1,");
        let players = read_registrations(
            csv.as_bytes(),
            "t.csv",
            &ImportOptions::default(),
            &rules,
            &[],
            PlayerId(1),
        )
        .unwrap_or_else(|e| panic!("{e}\n{csv}"));
        assert_eq!(players[0].rating, Some(1850), "{csv}");
    }

    /// Issue 42 §3: rulebook text (a group's name) went into the CSV raw, so
    /// `=1+1公开组` became a live formula in the sheet sent to clubs. It is written inert,
    /// and the example row still imports into that group.
    #[test]
    fn rulebook_text_cannot_start_a_formula_in_the_csv() {
        for name in ["=1+1公开组", "+1公开组", "-2组", "@SUM(A1)组"] {
            let text = std::fs::read_to_string(format!(
                "{}/rules/cxa-2011.toml",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap()
            .replace("name = \"公开组\"", &format!("name = \"{name}\""));
            let rules = Rulebook::from_toml(&text, "r.toml").unwrap();
            let csv = template(&rules, Lang::Zh).to_csv();
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(csv.trim_start_matches('\u{feff}').as_bytes());
            let cells: Vec<String> = reader
                .records()
                .flat_map(|r| r.unwrap().iter().map(str::to_string).collect::<Vec<_>>())
                .collect();
            assert!(cells.contains(&format!("'{name}")), "{name}: {csv}");
            for cell in &cells {
                assert!(
                    !cell.starts_with(['=', '+', '-', '@']),
                    "{name}: live cell `{cell}` in {csv}"
                );
            }
            let numbered = csv.replace("\n示例,", "\n1,");
            let players = read_registrations(
                numbered.as_bytes(),
                "t.csv",
                &ImportOptions::default(),
                &rules,
                &[],
                PlayerId(1),
            )
            .unwrap_or_else(|e| panic!("{name}: {e}\n{csv}"));
            assert_eq!(players[0].group.as_str(), "open", "{name}");
        }
    }

    /// Issue 43: a group limiting titles (both bundled regulations do) gets the 称号
    /// column, which the import checks; an event without a title limit does not.
    #[test]
    fn a_title_limit_brings_the_title_column() {
        let headers = |text: &str| -> Vec<String> {
            let rules = Rulebook::from_toml(text, "r.toml").unwrap();
            template(&rules, Lang::Zh)
                .columns
                .iter()
                .map(|c| c.header.clone())
                .collect()
        };
        let base = "[event]\nname = \"杯\"\nrounds = 5\n[[groups]]\nid = \"a\"\n";
        assert!(!headers(base).iter().any(|h| h == "称号"));
        let limited = format!("{base}[groups.eligibility]\nbelow_title = \"国家级运动健将\"\n");
        assert!(headers(&limited).iter().any(|h| h == "称号"));
    }

    #[test]
    fn columns_follow_the_groups() {
        let jinhua = template(&shipped("jinhua-2018"), Lang::Zh);
        let headers: Vec<&str> = jinhua.columns.iter().map(|c| c.header.as_str()).collect();
        assert!(
            headers.contains(&"出生日期") && headers.contains(&"身份证号"),
            "{headers:?}"
        );
        assert!(headers.contains(&"残疾"), "{headers:?}");
        let cxa = template(&shipped("cxa-2011"), Lang::Zh);
        let headers: Vec<&str> = cxa.columns.iter().map(|c| c.header.as_str()).collect();
        assert!(
            !headers.contains(&"年级") && !headers.contains(&"残疾"),
            "{headers:?}"
        );
        let group = jinhua
            .columns
            .iter()
            .find(|c| c.field == Some(Field::Group))
            .unwrap();
        assert!(
            group.allowed.contains(&"成人组".to_string()),
            "{:?}",
            group.allowed
        );
    }
}
