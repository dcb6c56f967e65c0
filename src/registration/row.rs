//! One data row: its cells become a [`Player`] of the group it names, with every value
//! parsed and cross-checked (ID card against birth date and gender, yes/no columns
//! against the group's marks) and the group's eligibility judged.

use super::headers::{self, Field, HeaderMap};
use super::sheet::Sheet;
use super::{RowError, eligibility, normalise, parse_id_number, values};
use crate::i18n::{Lang, Text};
use crate::model::{Player, PlayerId};
use crate::privacy::mask_id_number;
use crate::privacy::mask_phone;
use crate::rulebook::{GroupRule, Rulebook};
use std::collections::BTreeMap;

/// The group a sheet names: by id, regulation name or alias as written, then ignoring
/// case, width and spaces, then with a missing trailing 组 (`成人` for 成人组), then
/// without a note in brackets (`残疾人组 (成人组)`, as qiwang's own player list writes a
/// section and the pool it plays in).
pub fn find_group<'a>(rules: &'a Rulebook, value: &str) -> Option<&'a GroupRule> {
    let found = find_group_as_written(rules, value);
    if found.is_some() {
        return found;
    }
    // qiwang's own CSV files (the template's example row, the player list) write a name
    // that would start a formula with a leading `'` (sanitize::csv_cell).
    if let Some(rest) = value.trim_start().strip_prefix('\'')
        && rest.starts_with(['=', '+', '-', '@'])
    {
        return find_group(rules, rest);
    }
    let head = value.split(['(', '（']).next().unwrap_or("").trim();
    if !head.is_empty() && head.len() < value.trim().len() {
        return find_group_as_written(rules, head);
    }
    None
}

pub(super) fn find_group_as_written<'a>(rules: &'a Rulebook, value: &str) -> Option<&'a GroupRule> {
    if let Some(g) = rules.find_group(value) {
        return Some(g);
    }
    let key = normalise::key(value);
    let with_suffix = format!("{key}组");
    for wanted in [&key, &with_suffix] {
        let found = rules.groups.iter().find(|g| {
            normalise::key(g.id.as_str()) == *wanted
                || normalise::key(&g.name) == *wanted
                || g.aliases.iter().any(|a| normalise::key(a) == *wanted)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The groups a sheet may name, for messages: `` `成人组`、`青少年组` `` in Chinese (as the
/// regulation names them), `` `成人组` (adult), … `` in English.
pub(super) fn group_list(rules: &Rulebook) -> Text {
    let zh: Vec<String> = rules
        .groups
        .iter()
        .map(|g| format!("`{}`", g.name))
        .collect();
    let en: Vec<String> = rules
        .groups
        .iter()
        .map(|g| format!("`{}` ({})", g.name, g.id))
        .collect();
    Text::new(zh.join("、"), en.join(", "))
}

/// One data row while it is read: its line and the header map, to locate problems.
pub(super) struct Row<'r> {
    pub(super) line: usize,
    pub(super) map: &'r HeaderMap,
    pub(super) cells: &'r [String],
    pub(super) errors: Vec<RowError>,
    /// What the row leaves doubtful but importable: a phone number of no known shape, a
    /// gender taken from the ID number (issue 43 item 11).
    pub(super) warnings: Vec<RowError>,
}

impl Row<'_> {
    /// The cleaned value of `field`, with its column index; `None` when the cell is
    /// empty or says so (无, -, /, N/A).
    fn get(&self, field: Field) -> Option<(usize, String)> {
        let col = self.map.column(field)?;
        let value = normalise::clean(self.cells.get(col)?);
        let said_empty = ["无", "-", "--", "—", "/", "n/a", "na", "none", "null"]
            .contains(&value.to_lowercase().as_str());
        (!value.is_empty() && !said_empty).then_some((col, value))
    }

    fn error(&mut self, col: Option<usize>, value: Option<String>, message: Text) {
        self.errors.push(RowError::new(
            self.line,
            col.map(|c| self.map.names[c].clone()),
            value,
            message,
        ));
    }

    /// Parses `field` with `parse`, recording a located error on failure.
    fn parse<T>(&mut self, field: Field, parse: impl Fn(&str) -> Result<T, Text>) -> Option<T> {
        let (col, value) = self.get(field)?;
        match parse(&value) {
            Ok(v) => Some(v),
            Err(message) => {
                self.error(Some(col), Some(value), message);
                None
            }
        }
    }
}

impl<'a> Sheet<'a> {
    pub(super) fn read_row(&mut self, line: usize, map: &HeaderMap, cells: &[String]) {
        let id = self.next_id;
        self.next_id = PlayerId(self.next_id.0.saturating_add(1));
        let width = map.names.len();
        let overflow_empty = cells
            .iter()
            .skip(width)
            .all(|c| normalise::clean(c).is_empty());
        if cells.len() < width || !overflow_empty {
            let fields = cells.len();
            self.errors.push(RowError::new(
                line,
                None,
                None,
                Text::new(
                    format!(
                        "该行有 {fields} 个字段，而表头有 {width} 个；请检查是否少了或多了逗号，或含逗号的值没有加引号"
                    ),
                    format!(
                        "the row has {fields} fields but the header has {width}; look for a missing or extra comma, or a value with a comma that lacks quotes"
                    ),
                ),
            ));
            return;
        }
        let max = headers::MAX_CELL_CHARS;
        if let Some(col) = cells
            .iter()
            .position(|c| c.len() > max && c.chars().count() > max)
        {
            let n = cells[col].chars().count();
            self.errors.push(RowError::new(
                line,
                map.names.get(col).cloned(),
                None,
                Text::new(
                    format!("单元格有 {n} 个字符，超过上限 {max}；请缩短"),
                    format!(
                        "the cell holds {n} characters, more than the limit of {max}; shorten it"
                    ),
                ),
            ));
            return;
        }
        let mut row = Row {
            line,
            map,
            cells,
            errors: Vec::new(),
            warnings: Vec::new(),
        };
        if let Some(col) = map.column(Field::Number)
            && let Some(value) = cells.get(col).map(|c| normalise::clean(c))
            && !value.is_empty()
            && let Some(message) = super::values::row_number_problem(&value)
        {
            row.error(Some(col), Some(value), message);
        }
        let player = self.build(&mut row, id);
        self.warnings.append(&mut row.warnings);
        let mut errors = row.errors;
        if let Some((player, named)) = player {
            // A row for a group that takes no entries is refused at its group cell, its
            // eligibility there moot. Eligibility is judged only on a row whose values
            // all parsed, so a typo in a date is not also reported as an unknown age.
            if let Some(text) = self.cancelled_entry(&player, named) {
                let col = map.column(Field::Group);
                errors.push(RowError::new(
                    line,
                    col.map(|c| map.names[c].clone()),
                    Some(named.name.clone()),
                    text,
                ));
            } else if errors.is_empty() {
                let col = map.column(Field::Group);
                for message in eligibility::check(&player, named, self.rules) {
                    errors.push(RowError::new(
                        line,
                        col.map(|c| map.names[c].clone()),
                        Some(named.name.clone()),
                        message,
                    ));
                }
            }
            self.check_duplicates(&player, line, map, &mut errors);
            if errors.is_empty() {
                self.check_sheet_number(&player, line, map, &mut errors);
            }
            if errors.is_empty() {
                self.players.push(player);
            }
        }
        self.errors.extend(errors);
    }

    /// Why `player`'s row (naming group `named`) is refused when their pool takes no
    /// entries: cancelled, or merged into a pool that was ([`Sheet::cancelled`]).
    fn cancelled_entry(&self, player: &Player, named: &GroupRule) -> Option<Text> {
        let cancelled = self.cancelled.get(&player.group)?;
        let entry = super::groups::CancelledEntry {
            group: self.rules.group_name(&player.group),
            cancelled: self.rules.group_name(cancelled),
            players: vec![player.name.clone()],
        };
        let why = Text::new(entry.why(Lang::Zh), entry.why(Lang::En));
        let pool = &entry.group;
        let why = match &named.pairs_with {
            // A section plays in its pool: the pool is what was cancelled.
            Some(_) => Text::new(
                format!("{}在{pool}中编排，而{}", named.name, why.zh),
                format!("{} plays in {pool}, and {}", named.name, why.en),
            ),
            None => why,
        };
        let name = &player.name;
        Some(Text::new(
            format!("{}，不再接受报名：请为{name}改报其他组别", why.zh),
            format!(
                "{} and takes no entries: enter {name} in another group",
                why.en
            ),
        ))
    }

    /// A pool numbered from the sheet (`seeding = "sheet"`, docs/rules.md §14.1) needs a
    /// whole number in every row's 序号 cell, none taken twice in the pool. Only for a
    /// sheet with a 序号 column (a player typed in with `player add` gets the next free
    /// number when paired).
    fn check_sheet_number(
        &mut self,
        player: &Player,
        line: usize,
        map: &HeaderMap,
        errors: &mut Vec<RowError>,
    ) {
        let Some(col) = map.column(Field::Number) else {
            return;
        };
        let rules = self.rules;
        let seeding = rules
            .group(&player.group)
            .and_then(|g| g.format.seeding)
            .unwrap_or(rules.pairing.seeding);
        if seeding != crate::rulebook::Seeding::Sheet {
            return;
        }
        let column = Some(map.names[col].clone());
        let pool = rules.group_name(&player.group);
        match player.sheet_number {
            None => errors.push(RowError::new(
                line,
                column,
                None,
                Text::new(
                    format!("{pool}按报名表序号编排（seeding = \"sheet\"）：序号必须是正整数"),
                    format!("{pool} is numbered from the sheet (seeding = \"sheet\"): 序号 must be a whole number from 1"),
                ),
            )),
            Some(n) => {
                let key = (player.group.clone(), n);
                match self.sheet_numbers.get(&key) {
                    Some(first) => errors.push(RowError::new(
                        line,
                        column,
                        Some(n.to_string()),
                        Text::new(
                            format!("{pool}按报名表序号编排：序号 {n} 已给了 {first}；每人一个序号，不能重复"),
                            format!("{pool} is numbered from the sheet: 序号 {n} is already {first}'s; each player needs a number of their own"),
                        ),
                    )),
                    None => {
                        self.sheet_numbers.insert(key, player.name.clone());
                    }
                }
            }
        }
    }

    /// The player a row describes and the group it named; `None` when the row has no
    /// usable name or group (the reason is in `row.errors`).
    pub(super) fn build(&self, row: &mut Row<'_>, id: PlayerId) -> Option<(Player, &'a GroupRule)> {
        let rules = self.rules;
        let name_col = row.map.column(Field::Name);
        let name = row
            .map
            .column(Field::Name)
            .and_then(|c| row.cells.get(c))
            .map(|raw| normalise::clean_name(raw))
            .unwrap_or_default();
        if name.is_empty() {
            row.error(
                name_col,
                None,
                Text::new(
                    "姓名为空；每名棋手都需要姓名",
                    "the name is empty; every player needs a 姓名",
                ),
            );
        }
        // The name is printed on every pairing sheet, standings, certificate and page, and
        // is how results, edits and a later import find the player: a number in it shaped
        // like an ID or phone number (a sign-up form's "name + phone" cell) is refused, at
        // import as typed by hand. Masked, it would still be no name to call or certify,
        // and the corrected sheet would no longer match it; so the cell is named (the
        // number masked) and the sheet corrected. Checked first, so that a number typed
        // as a name is refused once, masked, and not again as a number in full.
        let masked = crate::privacy::mask_public_field(&name);
        if masked != name {
            row.error(
                name_col,
                Some(masked.clone()),
                Text::new(
                    format!(
                        "姓名 `{masked}` 含有像身份证号或电话号码的数字，而姓名印在每张对阵表、成绩表、证书和网页上；请只写棋手的姓名"
                    ),
                    format!(
                        "the name `{masked}` holds a number shaped like an ID or phone number, and the name is printed on every pairing sheet, standings, certificate and web page; write the player's name alone"
                    ),
                ),
            );
        } else if let Some(what) = values::name_not_text(&name) {
            // A number, a date or TRUE/FALSE is no name, in a CSV as in a workbook's cell.
            let message = match self.by_hand {
                true => {
                    let (zh, en) = what.words();
                    Text::new(
                        format!("姓名须是文字，而 `{masked}` 是{zh}；请写棋手的姓名"),
                        format!(
                            "a name must be text, and `{masked}` is {en}; give the player's name"
                        ),
                    )
                }
                false => what.refusal(),
            };
            row.error(name_col, Some(masked.clone()), message);
        }
        let (length, max) = (name.chars().count(), normalise::MAX_NAME_CHARS);
        if length > max {
            // The start of the name is enough to find the cell; all of it would flood
            // the message.
            let start: String = name.chars().take(20).collect();
            row.error(
                name_col,
                Some(format!("{start}…")),
                Text::new(
                    format!("姓名有 {length} 个字符，超过上限 {max}；请缩短"),
                    format!(
                        "the name has {length} characters, more than the limit of {max}; shorten it"
                    ),
                ),
            );
        }
        let named = match row.get(Field::Group) {
            Some((col, value)) => match find_group(rules, &value) {
                Some(g) => Some(g),
                None => {
                    row.error(
                        Some(col),
                        Some(value.clone()),
                        Text::new(
                            format!(
                                "组别 `{value}` 不在规程中；请写 {} 之一",
                                group_list(rules).zh
                            ),
                            format!(
                                "group `{value}` is not in the rulebook; write one of {}",
                                group_list(rules).en
                            ),
                        ),
                    );
                    None
                }
            },
            None => {
                let mut pools = rules.pools();
                match (pools.next(), pools.next()) {
                    (Some(only), None) => Some(only),
                    _ => {
                        row.error(
                            row.map.column(Field::Group),
                            None,
                            Text::new(
                                format!("组别为空；请写 {} 之一", group_list(rules).zh),
                                format!(
                                    "the group is empty; write one of {}",
                                    group_list(rules).en
                                ),
                            ),
                        );
                        None
                    }
                }
            }
        };
        let mut gender = row.parse(Field::Gender, values::parse_gender);
        let birth = row.parse(Field::BirthDate, values::parse_birth);
        let mut birth_date = birth.map(|b| b.range().0);
        let card = match row.get(Field::IdNumber) {
            Some((col, value)) => match parse_id_number(&value) {
                Ok(card) => Some(card),
                Err(e) => {
                    row.error(Some(col), Some(mask_id_number(&value)), Text::of(&e));
                    None
                }
            },
            None => None,
        };
        if let Some(card) = &card {
            match birth {
                Some(b) if !b.admits(card.birth_date) => {
                    let d = match b {
                        values::Birth::Date(d) => d.to_string(),
                        values::Birth::YearMonth(y, m) => format!("{y}-{m:02}"),
                    };
                    let col = row.map.column(Field::BirthDate);
                    row.error(
                        col,
                        Some(d.clone()),
                        // The card's own date is not quoted: beside the masked ID that
                        // other messages print (a duplicate's, the row's), it gives the
                        // hidden digits back, and the ID may be another player's.
                        Text::new(
                            format!(
                                "出生日期 `{d}` 与身份证号中的出生日期（第 7–14 位）不一致；请改正其中之一"
                            ),
                            format!(
                                "birth date `{d}` differs from the one in the ID number (its digits 7–14); correct one of them"
                            ),
                        ),
                    );
                }
                // A year and month that agree with the card: the card gives the day.
                Some(_) | None => birth_date = Some(card.birth_date),
            }
            match gender {
                Some(g) if g != card.gender => {
                    let col = row.map.column(Field::Gender);
                    let value = col
                        .and_then(|c| row.cells.get(c))
                        .map(|v| normalise::clean(v));
                    row.error(
                        col,
                        value.clone(),
                        Text::new(
                            format!(
                                "性别 `{}` 与身份证号不一致（身份证号为{}）；请改正其中之一",
                                value.clone().unwrap_or_default(),
                                eligibility::gender_word_zh(card.gender)
                            ),
                            format!(
                                "gender `{}` differs from the ID number, which says {}; correct one of them",
                                value.unwrap_or_default(),
                                eligibility::gender_word(card.gender)
                            ),
                        ),
                    );
                }
                Some(_) => {}
                None => {
                    gender = Some(card.gender);
                    // Said, so the organiser sees which genders qiwang filled in: at the
                    // empty 性别 cell, or, the sheet having no such column, at the ID
                    // number it was read from.
                    let (zh, en) = (
                        eligibility::gender_word_zh(card.gender),
                        eligibility::gender_word(card.gender),
                    );
                    let (col, text) = match row.map.column(Field::Gender) {
                        Some(c) => (
                            Some(c),
                            Text::new(
                                format!("性别未填，按身份证号记为{zh}"),
                                format!("no gender given: taken from the ID number as {en}"),
                            ),
                        ),
                        None => (
                            row.map.column(Field::IdNumber),
                            Text::new(
                                format!("表中没有性别列：性别按身份证号记为{zh}"),
                                format!(
                                    "the sheet has no gender column: the gender was read from the ID number as {en}"
                                ),
                            ),
                        ),
                    };
                    let column = col.map(|c| row.map.names[c].clone());
                    row.warnings
                        .push(RowError::new(row.line, column, None, text));
                }
            }
        }
        let scale = rules.event.grade_scale;
        let grade = row.parse(Field::Grade, |s| scale.parse(s));
        let rating = row.parse(Field::Rating, values::parse_rating);
        let disabled = flag(
            row,
            Field::Disabled,
            named,
            |g| g.marks.disabled,
            |g| g.eligibility.disabled,
        );
        let local = flag(
            row,
            Field::Local,
            named,
            |g| g.marks.local,
            |g| g.eligibility.local,
        );
        if gender.is_none()
            && let Some(g) = named
            && let Some(list) = gender_split_list(rules, g)
        {
            let col = row.map.column(Field::Gender);
            let column = col.map_or_else(
                || Field::Gender.label().to_string(),
                |c| row.map.names[c].clone(),
            );
            row.errors.push(RowError::new(
                row.line,
                Some(column),
                None,
                Text::new(
                    format!(
                        "性别为空，也没有身份证号：{}的奖项按男女分列（{}），每名棋手都需要性别；请填写性别或身份证号",
                        g.name, list
                    ),
                    format!(
                        "the gender is empty and there is no ID number: {} has prize lists split by gender ({}), so every player needs one; give the 性别 or the 身份证号",
                        g.name, list
                    ),
                ),
            ));
        }
        let phone = row.get(Field::Phone).map(|(col, v)| {
            let v = v.replace(' ', "");
            if !values::is_phone_number(&v) {
                let masked = mask_phone(&v);
                row.warnings.push(RowError::new(
                    row.line,
                    Some(row.map.names[col].clone()),
                    Some(masked.clone()),
                    Text::new(
                        format!(
                            "电话 `{masked}` 既不是 11 位手机号，也不是带区号（0 开头的 3–4 位）的座机号；请核对"
                        ),
                        format!(
                            "phone `{masked}` is neither an 11-digit mobile number nor a landline with its area code (3–4 digits from 0); check it"
                        ),
                    ),
                ));
            }
            v
        });
        // A closed list (称号 ladder): the canonical name is kept, an unknown title refused.
        let title = row
            .parse(Field::Title, crate::model::Title::parse)
            .flatten()
            .map(|t| t.name().to_string());
        let mut unit = row.get(Field::Unit).map(|(_, v)| v).unwrap_or_default();
        // The unit is printed on every public sheet and page: a number in it shaped like
        // an ID or phone number (a column slipped, a contact written beside the unit) is
        // registered masked, and said; typed by hand (`player add`, `player edit`) it is
        // refused, the arbiter being there to type the unit alone.
        let masked = crate::privacy::mask_public_field(&unit);
        if masked != unit && self.by_hand {
            row.error(
                row.map.column(Field::Unit),
                Some(masked.clone()),
                Text::new(
                    format!(
                        "单位 `{masked}` 含有像身份证号或电话号码的数字，而单位印在每张对阵表、成绩表和网页上；请只写单位名称"
                    ),
                    format!(
                        "the unit `{masked}` holds a number shaped like an ID or phone number, and the unit is printed on every pairing sheet, standings and web page; write the unit's name alone"
                    ),
                ),
            );
        } else if masked != unit {
            row.warnings.push(RowError::new(
                row.line,
                row.map.column(Field::Unit).map(|c| row.map.names[c].clone()),
                None,
                Text::new(
                    format!(
                        "单位 `{masked}` 含有像身份证号或电话号码的数字：单位印在每张对阵表、成绩表和网页上，已遮蔽后登记；请核对该行是否错列，并用 `qiwang player edit` 的 --unit 改正单位"
                    ),
                    format!(
                        "the unit `{masked}` holds a number shaped like an ID or phone number: the unit is printed on every pairing sheet, standings and web page, so it was registered masked; check whether the row's columns slipped, and correct the unit with `qiwang player edit … --unit`"
                    ),
                ),
            ));
            unit = masked;
        }
        // An empty 单位 cell (not 个人, 无): said, since it leaves the player out of every
        // unit's ranking and of team-mate avoidance.
        if let Some(col) = row.map.column(Field::Unit)
            && row
                .cells
                .get(col)
                .is_none_or(|c| normalise::clean(c).is_empty())
        {
            row.warnings.push(RowError::new(
                row.line,
                Some(row.map.names[col].clone()),
                None,
                Text::new(
                    "单位为空：该棋手不计入任何单位的团体成绩，也不参加同单位回避；个人报名可写“个人”",
                    "the unit is empty: the player counts for no unit's team score and no team-mate avoidance; write 个人 for a private entry",
                ),
            ));
        }
        let mut extra = BTreeMap::new();
        for (i, field) in row.map.fields.iter().enumerate() {
            let value = row
                .cells
                .get(i)
                .map(|c| normalise::clean(c))
                .unwrap_or_default();
            if field.is_none() && !value.is_empty() {
                let header = match row.map.names[i].as_str() {
                    "" => format!("column {}", i + 1),
                    h => h.to_string(),
                };
                extra.insert(header, value);
            }
        }
        let named = named?;
        if name.is_empty() || length > max {
            return None;
        }
        // Only a year and month and no ID number: if an age limit falls inside that month,
        // the day decides, and the organiser must give it.
        let month_only = match (birth, &card) {
            (Some(b @ values::Birth::YearMonth(..)), None) => Some(b.range()),
            _ => None,
        };
        let mut player = Player::new(id, name, rules.pool_of(named).clone());
        player.section = named.pairs_with.as_ref().map(|_| named.id.clone());
        player.gender = gender;
        player.unit = unit;
        player.birth_date = birth_date;
        player.id_number = card.map(|c| c.number);
        player.grade = grade;
        player.rating = rating;
        player.title = title;
        player.disabled = disabled;
        player.local = local;
        player.phone = phone;
        player.extra = extra;
        // 序号 is the sheet's own row number; kept only as the pairing number a group with
        // `seeding = "sheet"` uses (checked when the group is paired).
        player.sheet_number = row
            .map
            .column(Field::Number)
            .and_then(|c| row.cells.get(c))
            .and_then(|v| {
                normalise::to_half_width(&normalise::clean(v))
                    .parse::<u32>()
                    .ok()
            })
            .filter(|&n| n > 0);
        if let Some((first, last)) = month_only {
            let mut latest = player.clone();
            latest.birth_date = Some(last);
            if eligibility::check(&player, named, rules).len()
                != eligibility::check(&latest, named, rules).len()
            {
                let col = row.map.column(Field::BirthDate);
                let month = first.format("%Y-%m").to_string();
                row.error(
                    col,
                    Some(month.clone()),
                    Text::new(
                        format!(
                            "出生年月 `{month}` 没有日：{}的年龄限制恰好落在这个月内；请写出完整的出生日期，或填写身份证号",
                            named.name
                        ),
                        format!(
                            "birth month `{month}` has no day, and the age limit of {} falls inside that month: write the full birth date or give the ID number",
                            named.name
                        ),
                    ),
                );
                return None;
            }
        }
        Some((player, named))
    }
}

/// The name of a prize list split by gender (a `filter.gender`) that ranks the players of
/// group `g`: a list of `g` itself or of the pool `g` plays in.
fn gender_split_list(rules: &Rulebook, g: &GroupRule) -> Option<String> {
    let pool = rules.pool_of(g);
    rules
        .prizes
        .lists
        .iter()
        .find(|l| l.filter.gender.is_some() && (l.group == g.id || &l.group == pool))
        .map(|l| l.name.clone())
}

/// A yes/no column, forced on by the marks of the group named (残疾人组 → disabled); an
/// explicit "no" under such a group contradicts the registration. A group whose
/// eligibility `required` the status (Jinhua 残疾人组 必须有残疾证; Dongguan 本地组) reads it
/// from the sheet: an empty cell is refused, so the organiser has checked the certificate.
fn flag(
    row: &mut Row<'_>,
    field: Field,
    named: Option<&GroupRule>,
    mark: impl Fn(&GroupRule) -> bool,
    required: impl Fn(&GroupRule) -> bool,
) -> bool {
    let marked = named.is_some_and(&mark);
    if row.get(field).is_none()
        && let Some(g) = named.filter(|g| required(g))
    {
        let col = row.map.column(field);
        let column = col.map_or_else(|| field.label().to_string(), |c| row.map.names[c].clone());
        row.errors.push(RowError::new(
            row.line,
            Some(column.clone()),
            None,
            Text::new(
                format!(
                    "{}要求 {column} 为“是”，而该格为空；核验后请填写 是，或报名其他组别",
                    g.name
                ),
                format!(
                    "{} requires {column} to be yes, and the cell is empty; after checking, write 是 (yes) or register in another group",
                    g.name
                ),
            ),
        ));
        // Reported here; the eligibility check need not say it again.
        return true;
    }
    let given = row.parse(field, values::parse_bool);
    if marked
        && given == Some(false)
        && let (Some((col, value)), Some(g)) = (row.get(field), named)
    {
        row.error(
                Some(col),
                Some(value.clone()),
                Text::new(
                    format!(
                        "`{value}` 与组别{}矛盾，该组别的棋手都标为 {}；请修改该值或组别",
                        g.name,
                        field.label()
                    ),
                    format!(
                        "`{value}` contradicts the group {}, which marks its players {}; change the value or the group",
                        g.name,
                        field.label()
                    ),
                ),
            );
    }
    marked || given == Some(true)
}
