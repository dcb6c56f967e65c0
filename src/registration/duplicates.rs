//! The duplicate check: the same ID number, or the same name in the same unit, twice in
//! a batch or already registered; the message names where it was seen first.

use super::headers::{Field, HeaderMap};
use super::sheet::Sheet;
use super::{Place, RowError, normalise};
use crate::i18n::Text;
use crate::model::{Player, PlayerId};
use crate::privacy::mask_id_number;
use crate::rulebook::Lang;
use std::fmt;

/// Where an earlier registration came from, for duplicate messages.
#[derive(Debug, Clone)]
pub(super) enum Seen {
    /// A row of this batch; the place when the batch has several files or sheets.
    Line(usize, String, Option<Place>),
    Registered(PlayerId, String),
}

impl fmt::Display for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seen::Line(line, name, None) => write!(f, "line {line} (`{name}`)"),
            Seen::Line(line, name, Some(p)) => write!(f, "{} (`{name}`)", p.show(*line, Lang::En)),
            Seen::Registered(id, name) => write!(f, "registered player {id} (`{name}`)"),
        }
    }
}

impl Seen {
    /// Where in Chinese: `第 3 行（`甲`）`.
    fn zh(&self) -> String {
        match self {
            Seen::Line(line, name, None) => format!("第 {line} 行（`{name}`）"),
            Seen::Line(line, name, Some(p)) => format!("{}（`{name}`）", p.show(*line, Lang::Zh)),
            Seen::Registered(id, name) => format!("已报名棋手 {id}（`{name}`）"),
        }
    }
}

pub(super) fn id_key(id: &str) -> String {
    id.trim().to_ascii_uppercase()
}

pub(super) fn name_unit_key(name: &str, unit: &str) -> (String, String) {
    (normalise::key(name), normalise::key(unit))
}

impl Sheet<'_> {
    pub(super) fn check_duplicates(
        &mut self,
        player: &Player,
        line: usize,
        map: &HeaderMap,
        errors: &mut Vec<RowError>,
    ) {
        // A name holding an ID or phone number is refused on its own row, masked; it is
        // quoted masked here too (as a registered player's is, `sheet::registered`).
        let shown = player.shown_name();
        let here = Seen::Line(line, shown.to_string(), self.at.clone());
        if let Some(id) = &player.id_number {
            if let Some(seen) = self.ids.get(&id_key(id)) {
                let masked = mask_id_number(id);
                errors.push(RowError::new(
                    line,
                    map.name_of(Field::IdNumber).map(str::to_string),
                    Some(masked.clone()),
                    Text::new(
                        format!("身份证号 `{masked}` 已在{}出现；每名棋手只能报名一次", seen.zh()),
                        format!("ID number `{masked}` is already on {seen}; a player registers only once"),
                    ),
                ));
                return;
            }
            self.ids.insert(id_key(id), here.clone());
        }
        let key = name_unit_key(&player.name, &player.unit);
        if let Some(seen) = self.names.get(&key) {
            let (unit, unit_zh) = if player.unit.is_empty() {
                ("no unit".to_string(), "无单位".to_string())
            } else {
                (
                    format!("unit `{}`", player.unit),
                    format!("单位 `{}`", player.unit),
                )
            };
            // What to do: a sheet's duplicate is a row to delete; a player entered or
            // renamed by hand is either that player again or a namesake to tell apart.
            let (advice_zh, advice_en) = match self.by_hand {
                true => (
                    "同一单位不能有两名同名棋手：若是同一人，他已经报名；若是两人，请改用能区分两人的姓名",
                    "a unit cannot have two players of one name: if this is that player, they are registered already; if two players, give a name that tells them apart",
                ),
                false => ("请删除重复的行", "remove the duplicate row"),
            };
            errors.push(RowError::new(
                line,
                map.name_of(Field::Name).map(str::to_string),
                Some(shown.to_string()),
                Text::new(
                    format!("`{shown}`（{unit_zh}）已在{}出现；{advice_zh}", seen.zh()),
                    format!("`{shown}` with {unit} is already on {seen}; {advice_en}"),
                ),
            ));
            return;
        }
        // The same name in the same group under another unit: two players, or one
        // registered twice by two units. Said, not refused. The group is the pool the
        // row ends up in: an entry for a group merged away meets the players moved there.
        let pool = self.merged.get(&player.group).unwrap_or(&player.group);
        let in_group = (normalise::key(&player.name), pool.clone());
        match self.group_names.get(&in_group) {
            Some(seen) => self.warnings.push(RowError::new(
                line,
                map.name_of(Field::Name).map(str::to_string),
                Some(shown.to_string()),
                Text::new(
                    format!(
                        "`{shown}` 与{}同名，同在一个组别而单位不同：请核对是否重复报名；若确是两人，各表以序号区分",
                        seen.zh()
                    ),
                    format!(
                        "`{shown}` has the name of {seen}, in the same group under another unit: check that nobody registered twice; two players are told apart by their numbers"
                    ),
                ),
            )),
            None => {
                self.group_names.insert(in_group, here.clone());
            }
        }
        self.check_unit_spelling(player, line, map);
        self.names.insert(key, here);
    }

    /// Two spellings of what reads as one unit (城南小学 / 城南小学（本部）, 北京市 / 北京): said
    /// once per pair, since team scores and team-mate avoidance go by the spelling.
    fn check_unit_spelling(&mut self, player: &Player, line: usize, map: &HeaderMap) {
        let unit = player.unit.trim();
        let key = normalise::unit_key(unit);
        if key.is_empty() {
            return;
        }
        match self.unit_spellings.get(&key) {
            None => {
                self.unit_spellings.insert(key, unit.to_string());
            }
            Some(first) if first == unit => {}
            Some(first) => {
                let first = first.clone();
                if self
                    .unit_pairs_said
                    .insert((first.clone(), unit.to_string()))
                {
                    self.warnings.push(RowError::new(
                        line,
                        map.name_of(Field::Unit).map(str::to_string),
                        Some(unit.to_string()),
                        Text::new(
                            format!(
                                "单位 `{unit}` 与 `{first}` 写法相近：如是同一单位，请统一写法（团体成绩和同单位回避按写法区分）"
                            ),
                            format!(
                                "unit `{unit}` reads like `{first}`: if they are one unit, write it one way (team scores and team-mate avoidance go by the spelling)"
                            ),
                        ),
                    ));
                }
            }
        }
    }
}
