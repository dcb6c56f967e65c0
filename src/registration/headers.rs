//! Column headers of a registration sheet: the Chinese and English names organisers
//! write for each field, matched regardless of case, width, spaces, `_`/`-`/`.`, a
//! required-field `*` and a trailing note in brackets (`出生日期(年-月-日)`).
//!
//! Owns the header → field mapping; unknown headers become extra fields.

use super::normalise;
use crate::i18n::Text;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// A column qiwang understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    /// 序号: the sheet's own row number, not the pairing number; ignored.
    Number,
    /// 姓名: the player's name (the one column every sheet must have).
    Name,
    /// 性别: male or female.
    Gender,
    /// 单位: the club, school or city the player represents.
    Unit,
    /// 组别: the group registered for.
    Group,
    /// 出生日期 or 出生年月: a date, or a year and month.
    BirthDate,
    /// 身份证号: the 18-character resident ID number.
    IdNumber,
    /// 年级: the school grade.
    Grade,
    /// 等级分: the rating.
    Rating,
    /// 残疾: yes/no, holds a disability certificate.
    Disabled,
    /// 本地: yes/no, a local resident.
    Local,
    /// 电话: the phone number.
    Phone,
    /// 称号: a title held, e.g. 象棋大师.
    Title,
}

impl Field {
    /// The Chinese and English header a sheet would use, for messages.
    pub fn label(self) -> &'static str {
        match self {
            Field::Number => "序号/number",
            Field::Name => "姓名/name",
            Field::Gender => "性别/gender",
            Field::Unit => "单位/unit",
            Field::Group => "组别/group",
            Field::BirthDate => "出生日期/birth date",
            Field::IdNumber => "身份证号/ID number",
            Field::Grade => "年级/grade",
            Field::Rating => "等级分/rating",
            Field::Disabled => "残疾/disabled",
            Field::Local => "本地/local",
            Field::Phone => "电话/phone",
            Field::Title => "称号/title",
        }
    }
}

/// Header spellings per field, already in [`header_key`] form.
const ALIASES: &[(Field, &[&str])] = &[
    (
        Field::Number,
        &["序号", "编号", "报名序号", "no", "number", "#", "seq"],
    ),
    (
        Field::Name,
        &[
            "姓名",
            "名字",
            "棋手",
            "棋手姓名",
            "选手",
            "选手姓名",
            "运动员",
            "运动员姓名",
            "name",
            "fullname",
            "player",
            "playername",
        ],
    ),
    (Field::Gender, &["性别", "gender", "sex"]),
    (
        Field::Unit,
        &[
            "单位",
            "所属单位",
            "代表单位",
            "参赛单位",
            "工作单位",
            "所在单位",
            "单位名称",
            "所属学校",
            "所在学校",
            "学校名称",
            "就读学校",
            "单位学校",
            "学校单位",
            "俱乐部",
            "所属俱乐部",
            "参赛队",
            "学校",
            "队伍",
            "队名",
            "代表队",
            "unit",
            "club",
            "team",
            "school",
            "organisation",
            "organization",
        ],
    ),
    (
        Field::Group,
        &[
            "组别",
            "组",
            "参赛组别",
            "报名组别",
            "比赛组别",
            "group",
            "section",
            "category",
            "division",
        ],
    ),
    (
        Field::BirthDate,
        &[
            "出生日期",
            "出生年月日",
            "出生年月",
            "生日",
            "出生",
            "birthdate",
            "dateofbirth",
            "birthday",
            "dob",
            "born",
        ],
    ),
    (
        Field::IdNumber,
        &[
            "身份证号",
            "身份证号码",
            "身份证",
            "公民身份号码",
            "证件号",
            "证件号码",
            "idnumber",
            "id",
            "idno",
            "idcard",
            "idcardnumber",
        ],
    ),
    (Field::Grade, &["年级", "就读年级", "grade", "schoolgrade"]),
    (Field::Rating, &["等级分", "rating", "elo"]),
    (
        Field::Disabled,
        &[
            "残疾",
            "残疾人",
            "残疾证",
            "是否残疾",
            "是否残疾人",
            "disabled",
            "disability",
        ],
    ),
    (
        Field::Local,
        &["本地", "本地户籍", "是否本地", "本地选手", "local"],
    ),
    (
        Field::Phone,
        &[
            "电话",
            "联系电话",
            "手机",
            "手机号",
            "手机号码",
            "电话号码",
            // A registration's 联系方式 is the phone number (often the header over it in a
            // two-row header, 大表头).
            "联系方式",
            "phone",
            "mobile",
            "tel",
            "telephone",
            "phonenumber",
        ],
    ),
    (Field::Title, &["称号", "头衔", "title"]),
];

/// The staff roles the programme names under each unit (`views/programme.rs`), in Chinese
/// and English, with the headers of the columns that name the person in that role, as
/// written (spaces aside). Private by default: only a column whose header is one of these
/// is printed — never 领队电话, 教练身份证号, 领队联系方式 or any other column that merely
/// mentions the role. The import keeps such a column with each player, as it keeps an
/// unknown one, and says it is a staff column ([`staff_note`]), not an unknown one.
pub const STAFF_COLUMNS: [(&str, &str, &[&str]); 2] = [
    ("领队", "team leader", &["领队", "领队姓名", "领队名字"]),
    (
        "教练",
        "coach",
        &["教练", "教练员", "教练姓名", "教练员姓名", "主教练"],
    ),
];

/// The staff role (`领队` or `教练`, and its English) a column names the person in, if its
/// header is one of [`STAFF_COLUMNS`] (spaces aside).
pub fn staff_role(header: &str) -> Option<(&'static str, &'static str)> {
    let header: String = header.chars().filter(|c| !c.is_whitespace()).collect();
    STAFF_COLUMNS
        .iter()
        .find(|(.., headers)| headers.contains(&header.as_str()))
        .map(|&(zh, en, _)| (zh, en))
}

/// What the import says of a staff column (`name`, naming a [`staff_role`]): no field of a
/// player and not checked, but no unknown column either, since the programme prints it.
pub fn staff_note(name: &str, (zh, en): (&str, &str)) -> Text {
    Text::new(
        format!(
            "`{name}` 列是{zh}列（随队人员，不是棋手的信息）：其内容随棋手保存，秩序册在各单位下印出{zh}（其中的号码隐去），不参与资格审查"
        ),
        format!(
            "`{name}` is a staff column (the unit's {en}, not the player's): its values are kept with each player and the programme prints the {en} under each unit (any number in it masked); they are not checked"
        ),
    )
}

/// The most columns a registration sheet may have. Real sheets have a dozen or two; the
/// cap keeps a hostile or broken file (a 100,000-column header) from costing time and
/// memory, with a message instead.
pub const MAX_COLUMNS: usize = 512;

/// The most characters one cell may hold (a name, a unit, a remark); longer is no
/// registration but a broken or hostile file.
pub const MAX_CELL_CHARS: usize = 4096;

/// A header reduced for matching: half-width, lower-case, no spaces, `_`, `-`, `.`, `*`,
/// `:`, `/`, `、`, and nothing from the first bracket on.
pub fn header_key(header: &str) -> String {
    let half = normalise::to_half_width(header);
    let head = half.split(['(', '[', '【']).next().unwrap_or("");
    head.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-' | '.' | '*' | ':' | '：' | '/' | '、'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every alias → its field, built once: a header is one hash lookup, so mapping a row of
/// n headers is linear in n.
fn alias_index() -> &'static HashMap<&'static str, Field> {
    static INDEX: OnceLock<HashMap<&'static str, Field>> = OnceLock::new();
    INDEX.get_or_init(|| {
        ALIASES
            .iter()
            .flat_map(|(field, names)| names.iter().map(move |n| (*n, *field)))
            .collect()
    })
}

/// The field a header names, if qiwang knows it.
pub fn field_of(header: &str) -> Option<Field> {
    if header.chars().count() > MAX_CELL_CHARS {
        return None;
    }
    alias_index().get(header_key(header).as_str()).copied()
}

/// The header of a two-row header (大表头), when `next`, the row under the header row
/// `header`, is its second row: every filled cell of `next` repeats the cell above (a
/// region merged down both rows), names a field, or stands under an empty or unknown
/// heading (手机 under a 联系方式 spanning columns); the name column's cell is empty or
/// repeats it, as no player's row does; and at least one cell adds a field. The combined
/// header takes the lower cell where it adds one and the upper elsewhere. `None` for any
/// other row.
pub(super) fn two_row_header(header: &[String], next: &[String]) -> Option<Vec<String>> {
    let above = |i: usize| {
        header
            .get(i)
            .map(|h| normalise::clean(h))
            .unwrap_or_default()
    };
    let mut combined: Vec<String> = header.to_vec();
    let mut adds = false;
    for (i, cell) in next.iter().enumerate() {
        let cell = normalise::clean(cell);
        let up = above(i);
        if cell.is_empty() || cell == up {
            continue;
        }
        let (field, up_field) = (field_of(&cell), field_of(&up));
        if up_field == Some(Field::Name) || (field.is_none() && up_field.is_some()) {
            return None;
        }
        if field.is_some() || up.is_empty() || up_field.is_none() {
            adds |= field.is_some();
            if i >= combined.len() {
                combined.resize(i + 1, String::new());
            }
            combined[i] = cell;
        }
    }
    adds.then_some(combined)
}

/// What each column of a sheet holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderMap {
    /// Each header as written (cleaned), by column.
    pub names: Vec<String>,
    /// The field of each column, `None` for an extra column.
    pub fields: Vec<Option<Field>>,
}

/// A header problem: the column index and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderProblem {
    /// The column's index, 0-based.
    pub column: usize,
    /// What is wrong with its header, in both languages.
    pub message: Text,
    /// Whether the sheet is read all the same (a note), not refused.
    pub note_only: bool,
}

impl HeaderMap {
    /// Maps a header row. A field named by two columns is a problem (qiwang would not
    /// know which to believe); so is a header repeated among the extra columns. Linear in
    /// the number of columns: each header is looked up once and remembered in a hash set.
    pub fn new(headers: &[String]) -> (HeaderMap, Vec<HeaderProblem>) {
        let mut problems = Vec::new();
        let mut names: Vec<String> = Vec::with_capacity(headers.len());
        let mut fields: Vec<Option<Field>> = Vec::with_capacity(headers.len());
        let mut first_of: HashMap<Field, usize> = HashMap::new();
        let mut extras: HashSet<String> = HashSet::new();
        for (i, raw) in headers.iter().enumerate() {
            let name = normalise::clean(raw);
            let field = field_of(&name);
            // 序号 is ignored, so a second number column (编号 beside 序号, as qiwang's own
            // player list has) harms nothing.
            let earlier = field.and_then(|f| first_of.get(&f).copied());
            if let (Some(Field::IdNumber), Some(first)) = (field, earlier)
                && header_key(&names[first]) == "id"
            {
                // A bare `id` beside `ID Number` is a registration id (qiwang's own English
                // player list has both): the specific header holds the ID card number.
                fields[first] = None;
                extras.insert(names[first].clone());
                first_of.insert(Field::IdNumber, i);
            } else if let (Some(Field::Phone), Some(first)) = (field, earlier) {
                // 联系方式 over 手机 and 电话 is a common sheet: the first phone column is
                // the player's phone, the second is kept as an extra column, never refused.
                extras.insert(name.clone());
                problems.push(HeaderProblem {
                    column: i,
                    message: Text::new(
                        format!(
                            "表头 `{name}` 是第二个电话列（第一个为 `{}`）：`{}` 作为棋手的电话，`{name}` 列的内容作为附加信息随棋手保存",
                            names[first], names[first]
                        ),
                        format!(
                            "header `{name}` is a second phone column (the first is `{}`): `{}` is taken as the player's phone, `{name}` is kept with each player as extra information",
                            names[first], names[first]
                        ),
                    ),
                    note_only: true,
                });
                names.push(name);
                fields.push(None);
                continue;
            } else if let Some(f) = field
                && f != Field::Number
                && let Some(first) = earlier
            {
                problems.push(HeaderProblem {
                    column: i,
                    message: Text::new(
                        format!(
                            "表头 `{name}` 第二次给出了 {} 列（第一次为 `{}`）；请删除或改名其中之一",
                            f.label(),
                            names[first]
                        ),
                        format!(
                            "header `{name}` names the {} column a second time (first as `{}`); remove or rename one of them",
                            f.label(),
                            names[first]
                        ),
                    ),
                    note_only: false,
                });
            } else if let Some(f) = field {
                first_of.entry(f).or_insert(i);
            } else if !name.is_empty() && !extras.insert(name.clone()) {
                problems.push(HeaderProblem {
                    column: i,
                    message: Text::new(
                        format!("表头 `{name}` 出现了两次；请给其中之一改名"),
                        format!("header `{name}` appears twice; rename one of them"),
                    ),
                    note_only: false,
                });
            }
            names.push(name);
            fields.push(field);
        }
        (HeaderMap { names, fields }, problems)
    }

    /// The column holding `field`.
    pub fn column(&self, field: Field) -> Option<usize> {
        self.fields.iter().position(|f| *f == Some(field))
    }

    /// The extra columns (headers qiwang does not know, kept as extra fields), with their
    /// index, in sheet order.
    pub fn unknown(&self) -> impl Iterator<Item = (usize, &str)> {
        self.names
            .iter()
            .zip(&self.fields)
            .enumerate()
            .filter(|(_, (n, f))| f.is_none() && !n.is_empty())
            .map(|(i, (n, _))| (i, n.as_str()))
    }

    /// The header of `field` as written, if the sheet has that column.
    pub fn name_of(&self, field: Field) -> Option<&str> {
        self.column(field).map(|i| self.names[i].as_str())
    }

    /// How many columns hold a known field (a header row has at least a name and one
    /// more; a title row above it has none).
    pub fn known(&self) -> usize {
        self.fields.iter().filter(|f| f.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_table() {
        let cases = [
            ("姓名", Some(Field::Name)),
            (" 姓 名 ", Some(Field::Name)),
            ("Name", Some(Field::Name)),
            ("NAME", Some(Field::Name)),
            ("ｎａｍｅ", Some(Field::Name)),
            ("性别", Some(Field::Gender)),
            ("Sex", Some(Field::Gender)),
            ("单位", Some(Field::Unit)),
            ("Club", Some(Field::Unit)),
            ("组别", Some(Field::Group)),
            ("Group", Some(Field::Group)),
            ("出生日期", Some(Field::BirthDate)),
            ("出生日期(年-月-日)", Some(Field::BirthDate)),
            ("出生日期（yyyy-mm-dd）", Some(Field::BirthDate)),
            ("Birth Date", Some(Field::BirthDate)),
            ("birth_date", Some(Field::BirthDate)),
            ("Date of birth", Some(Field::BirthDate)),
            ("身份证号", Some(Field::IdNumber)),
            ("*身份证号码", Some(Field::IdNumber)),
            ("ID Number", Some(Field::IdNumber)),
            ("id_number", Some(Field::IdNumber)),
            ("ID No.", Some(Field::IdNumber)),
            ("年级", Some(Field::Grade)),
            ("Grade", Some(Field::Grade)),
            ("等级分", Some(Field::Rating)),
            ("Rating", Some(Field::Rating)),
            ("残疾", Some(Field::Disabled)),
            ("Disabled", Some(Field::Disabled)),
            ("本地", Some(Field::Local)),
            ("Local", Some(Field::Local)),
            ("电话", Some(Field::Phone)),
            ("联系电话：", Some(Field::Phone)),
            ("Phone", Some(Field::Phone)),
            ("称号", Some(Field::Title)),
            ("Title", Some(Field::Title)),
            ("序号", Some(Field::Number)),
            ("No.", Some(Field::Number)),
            ("所在单位", Some(Field::Unit)),
            ("单位名称", Some(Field::Unit)),
            ("工作单位", Some(Field::Unit)),
            ("学校", Some(Field::Unit)),
            ("单位/学校", Some(Field::Unit)),
            ("所属俱乐部", Some(Field::Unit)),
            ("备注", None),
            ("教练", None),
            ("", None),
        ];
        for (header, want) in cases {
            assert_eq!(field_of(header), want, "header {header:?}");
        }
    }

    /// A staff column is no field, and only the headers naming the person name a role.
    #[test]
    fn staff_columns_name_a_role_and_no_field() {
        for (header, want) in [
            ("领队", Some("领队")),
            (" 领队 姓名 ", Some("领队")),
            ("教练员", Some("教练")),
            ("主教练", Some("教练")),
            ("领队电话", None),
            ("教练身份证号", None),
            ("备注", None),
        ] {
            assert_eq!(staff_role(header).map(|r| r.0), want, "header {header:?}");
            assert_eq!(field_of(header), None, "header {header:?}");
        }
    }

    #[test]
    fn duplicate_field_is_a_problem() {
        let headers: Vec<String> = ["姓名", "Name", "备注", "备注"]
            .iter()
            .map(ToString::to_string)
            .collect();
        let (map, problems) = HeaderMap::new(&headers);
        assert_eq!(map.column(Field::Name), Some(0));
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].column, 1);
        assert!(
            problems[0].message.en.contains("`Name`"),
            "{}",
            problems[0].message.en
        );
        assert_eq!(problems[1].column, 3);
    }

    /// A hostile sheet of 100,000 headers used to take 27 s (each compared with every
    /// earlier one); now each is hashed once (docs/architecture.md §7). No time is
    /// asserted (the test machines are shared): a quadratic map would make this test take
    /// half a minute, not fail it.
    #[test]
    fn a_wide_header_maps_every_column() {
        let headers: Vec<String> = (0..100_000).map(|i| format!("列{i}")).collect();
        let (map, problems) = HeaderMap::new(&headers);
        assert!(problems.is_empty());
        assert_eq!(map.names.len(), 100_000);
        let mut twice = headers.clone();
        twice.push("列7".into());
        let (_, problems) = HeaderMap::new(&twice);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].column, 100_000);
    }

    #[test]
    fn a_bare_id_beside_id_number_is_not_the_id_card() {
        let headers: Vec<String> = ["id", "no.", "序号", "name", "ID number"]
            .iter()
            .map(ToString::to_string)
            .collect();
        let (map, problems) = HeaderMap::new(&headers);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(map.column(Field::IdNumber), Some(4));
        assert_eq!(map.fields[0], None);
    }

    #[test]
    fn names_are_kept_as_written() {
        let headers: Vec<String> = ["\u{FEFF}姓名", " 组别 ", "备注"]
            .iter()
            .map(ToString::to_string)
            .collect();
        let (map, problems) = HeaderMap::new(&headers);
        assert!(problems.is_empty());
        assert_eq!(map.name_of(Field::Name), Some("姓名"));
        assert_eq!(map.name_of(Field::Group), Some("组别"));
        assert_eq!(map.name_of(Field::Unit), None);
        assert_eq!(map.known(), 2);
    }
}
