//! One player entered field by field (`player add`, `player edit`) instead of read from a
//! sheet: [`PlayerEntry`] holds what was typed for each field, and [`player_from_entry`]
//! turns it into a [`Player`] through exactly the checks an imported row goes through —
//! name clean-up and length, the group named and its eligibility, the ID card and its
//! cross-checks, duplicates, the event's maximum number of players — with the same
//! bilingual messages, each located by the field it is about.
//!
//! Owns the entry's fields and the late entry and correction of one player in the event
//! ([`add_player`], [`edit_player`]); the checks themselves are `row.rs`'s,
//! `duplicates.rs`'s and `limit.rs`'s. Must not print or know about options parsing.

use super::RowError;
use super::headers::{Field, HeaderMap};
use super::sheet::Sheet;
use crate::i18n::{Localize, Text, bi, display_english};
use crate::model::{Event, Gender, GroupId, Player, PlayerId};
use crate::privacy;
use crate::rulebook::{Lang, Rulebook};

/// What was typed for each field of one player; `None` is a field not given (for an edit:
/// not changed). Text fields are read as the cells of a registration sheet are (`男`,
/// `M`, `2008-05-01`, full-width digits, `无` for none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerEntry {
    /// 姓名.
    pub name: Option<String>,
    /// 性别: 男/女, M/F, male/female.
    pub gender: Option<String>,
    /// 单位.
    pub unit: Option<String>,
    /// 组别: the group's id, regulation name or alias.
    pub group: Option<String>,
    /// 出生日期: a date, or a year and month.
    pub birth_date: Option<String>,
    /// 身份证号.
    pub id_number: Option<String>,
    /// 年级.
    pub grade: Option<String>,
    /// 等级分.
    pub rating: Option<String>,
    /// 残疾.
    pub disabled: Option<bool>,
    /// 本地.
    pub local: Option<bool>,
    /// 电话.
    pub phone: Option<String>,
    /// 称号.
    pub title: Option<String>,
    /// 台次 in a team competition: a board (`1`, `2` …) or `替补` for a reserve, kept as
    /// the sheet's 台次 cell. Only a new entry sets it; an edit keeps the registered one.
    pub board: Option<String>,
}

/// Each field with the name messages give it (the option that sets it, without `--`).
const FIELDS: [(Field, &str); 12] = [
    (Field::Name, "name"),
    (Field::Gender, "gender"),
    (Field::Unit, "unit"),
    (Field::Group, "group"),
    (Field::BirthDate, "birth-date"),
    (Field::IdNumber, "id-number"),
    (Field::Grade, "grade"),
    (Field::Rating, "rating"),
    (Field::Disabled, "disabled"),
    (Field::Local, "local"),
    (Field::Phone, "phone"),
    (Field::Title, "title"),
];

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

impl PlayerEntry {
    /// Player `p` as registered, every field given (the section they registered under as
    /// their group), so that an edit checks the whole player again.
    pub fn of(p: &Player, rules: &Rulebook) -> PlayerEntry {
        let group = p.section.as_ref().unwrap_or(&p.group);
        let group_name = rules.group_name(group);
        PlayerEntry {
            name: Some(p.name.clone()),
            gender: Some(match p.gender {
                Some(Gender::Male) => "male".into(),
                Some(Gender::Female) => "female".into(),
                None => String::new(),
            }),
            unit: Some(p.unit.clone()),
            group: Some(group_name),
            birth_date: Some(p.birth_date.map(|d| d.to_string()).unwrap_or_default()),
            id_number: Some(p.id_number.clone().unwrap_or_default()),
            grade: Some(p.grade.map(crate::model::grade_label).unwrap_or_default()),
            rating: Some(p.rating.map(|r| r.to_string()).unwrap_or_default()),
            disabled: Some(p.disabled),
            local: Some(p.local),
            phone: Some(p.phone.clone().unwrap_or_default()),
            title: Some(p.title.clone().unwrap_or_default()),
            board: None,
        }
    }

    /// This entry with every field `changes` gives put in its place.
    pub fn overlaid(mut self, changes: &PlayerEntry) -> PlayerEntry {
        fn set<T: Clone>(slot: &mut Option<T>, v: &Option<T>) {
            if v.is_some() {
                slot.clone_from(v);
            }
        }
        set(&mut self.name, &changes.name);
        set(&mut self.gender, &changes.gender);
        set(&mut self.unit, &changes.unit);
        set(&mut self.group, &changes.group);
        set(&mut self.birth_date, &changes.birth_date);
        set(&mut self.id_number, &changes.id_number);
        set(&mut self.grade, &changes.grade);
        set(&mut self.rating, &changes.rating);
        set(&mut self.disabled, &changes.disabled);
        set(&mut self.local, &changes.local);
        set(&mut self.phone, &changes.phone);
        set(&mut self.title, &changes.title);
        self
    }

    /// The entry as the cells of one row, in [`FIELDS`] order.
    fn cells(&self) -> Vec<String> {
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        let flag = |v: Option<bool>| v.map(yes_no).unwrap_or_default();
        vec![
            text(&self.name),
            text(&self.gender),
            text(&self.unit),
            text(&self.group),
            text(&self.birth_date),
            text(&self.id_number),
            text(&self.grade),
            text(&self.rating),
            flag(self.disabled),
            flag(self.local),
            text(&self.phone),
            text(&self.title),
        ]
    }
}

/// Why an entry was refused; nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryError {
    /// Values the registration checks refuse, every one, each naming its field in
    /// [`RowError::column`] (`name`, `birth-date`, …; ID and phone numbers masked).
    Invalid(Vec<RowError>),
    /// A player whose pool has been paired cannot move to another pool.
    GroupFixed {
        /// The player's name.
        name: String,
        /// The pool they are paired in.
        group: GroupId,
    },
    /// No player has this id.
    NoPlayer(PlayerId),
    /// The rulebook's registration deadline has passed: the entry needs `--late`.
    AfterDeadline {
        /// `event.registration_deadline`.
        deadline: chrono::NaiveDate,
        /// The day of the entry.
        today: chrono::NaiveDate,
        /// An import's late entries (`name（unit）`), the players it would enter into
        /// pools already paired; empty for one entry (`player add`).
        players: Vec<String>,
    },
    /// The pool has paired the round after which the rulebook refuses entries.
    EntriesClosed {
        /// The pool's name.
        group: String,
        /// `event.entries_close_after_round`.
        round: u32,
    },
    /// A late entry into a round robin or a knockout whose first round is paired: its
    /// table or bracket is fixed (docs/rules.md §14.1, §16.1).
    FieldFixed {
        /// The player's name.
        name: String,
        /// The pool.
        group: GroupId,
    },
    /// An entry into a group that was cancelled ([`super::place_entry`]).
    Group(super::GroupError),
    /// Entries of an import that the pools they enter refuse ([`admit_batch`]): each
    /// player's name with the reason.
    Refused(Vec<(String, EntryError)>),
}

display_english!(EntryError);

impl Localize for EntryError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            EntryError::Invalid(errors) => {
                let mut out = String::new();
                for e in errors {
                    match &e.column {
                        Some(c) => out.push_str(&format!("`--{c}`: {}", e.localize(lang))),
                        None => out.push_str(&e.localize(lang)),
                    }
                    out.push('\n');
                }
                out.push_str(lang.pick(
                    "未做任何修改：请改正选项后重新运行命令",
                    "nothing was changed: correct the option and run the command again",
                ));
                out
            }
            EntryError::GroupFixed { name, group } => bi!(
                lang,
                zh("`{name}` 已在组别 `{group}` 中编排：第 1 轮之后棋手不能换组"),
                en(
                    "`{name}` has already been paired in group `{group}`: a player cannot change group after round 1"
                ),
            ),
            EntryError::FieldFixed { name, group } => bi!(
                lang,
                zh(
                    "`{name}` 不能加入组别 `{group}`：第 1 轮编排时循环赛的轮次表或淘汰赛的对阵已经确定"
                ),
                en(
                    "`{name}` cannot join group `{group}`: its round-robin table or knockout bracket was fixed when round 1 was paired"
                ),
            ),
            EntryError::NoPlayer(id) => bi!(
                lang,
                zh("没有棋手 {id}：`qiwang players` 列出所有棋手"),
                en("no player {id}: `qiwang players` lists them"),
            ),
            EntryError::AfterDeadline {
                deadline,
                today,
                players,
            } => {
                let closed = bi!(
                    lang,
                    zh(
                        "报名已于 {deadline} 截止（今天是 {today}）：逾期报名须加 `--late`，并记入操作记录"
                    ),
                    en(
                        "registration closed on {deadline} (today is {today}): a late entry needs `--late`, and is logged as one"
                    ),
                );
                if players.is_empty() {
                    return closed;
                }
                let names = players.join(lang.pick("、", ", "));
                bi!(
                    lang,
                    zh("{closed}\n逾期报名（所入组已编排）：{names}"),
                    en("{closed}\nlate entries (into pools already paired): {names}"),
                )
            }
            EntryError::Group(e) => e.localize(lang),
            // Each refusal on its line, led by the player's name unless it names them.
            EntryError::Refused(refused) => refused
                .iter()
                .map(|(name, e)| match e {
                    EntryError::FieldFixed { .. } => e.localize(lang),
                    _ => format!("`{name}`{}{}", lang.pick("：", ": "), e.localize(lang)),
                })
                .collect::<Vec<_>>()
                .join("\n"),
            EntryError::EntriesClosed { group, round } => bi!(
                lang,
                zh("{group} 已编排第 {round} 轮：规程规定第 {round} 轮以后不再接受报名"),
                en(
                    "{group} has paired round {round}: the rulebook takes no entry after round {round}"
                ),
            ),
        }
    }
}

impl std::error::Error for EntryError {}

/// The player `entry` describes, numbered `id`, checked as a row of a registration sheet
/// would be against the players registered before (`others`: duplicates, and the event's
/// maximum counting them). Every problem is returned at once.
pub fn player_from_entry(
    entry: &PlayerEntry,
    rules: &Rulebook,
    others: &[Player],
    id: PlayerId,
) -> Result<Player, EntryError> {
    let mut map = HeaderMap {
        names: FIELDS.iter().map(|(_, n)| n.to_string()).collect(),
        fields: FIELDS.iter().map(|(f, _)| Some(*f)).collect(),
    };
    let mut cells = entry.cells();
    // A team competition's 台次 is a sheet's extra column, read back by `team_sheet`.
    if let Some(board) = &entry.board {
        map.names.push("台次".into());
        map.fields.push(None);
        cells.push(board.clone());
    }
    let mut sheet = Sheet::new(rules, others, id);
    sheet.by_hand = true;
    sheet.read_row(1, &map, &cells);
    if sheet.errors.is_empty()
        && let Some(text) = sheet.limit.exceeded(sheet.players.len())
    {
        sheet.errors.push(RowError::new(1, None, None, text));
    }
    match sheet.players.pop() {
        Some(player) if sheet.errors.is_empty() => Ok(player),
        _ => {
            for e in sheet.errors.iter_mut() {
                e.message = Text::new(
                    privacy::mask_numbers_in(&e.message.zh),
                    privacy::mask_numbers_in(&e.message.en),
                );
                e.value = e.value.as_deref().map(privacy::mask_numbers_in);
            }
            // One row: far fewer problems than an import keeps.
            Err(EntryError::Invalid(
                sheet.errors.into_errors(String::new()).errors,
            ))
        }
    }
}

/// How the rulebook admits an entry into a pool ([`admit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Admitted {
    /// The round the player is paired from: the pool's next one.
    pub joined_round: u32,
    /// The entry is after `event.registration_deadline` (`--late` allowed it): logged as
    /// a late entry.
    pub late: bool,
}

/// The rules for every way a player enters a pool (`player add`, `player edit --group`,
/// `import`), `player` already placed in the pool it pairs in ([`super::place_entry`]):
/// none once the pool has paired `event.entries_close_after_round`; none into a round
/// robin or knockout whose round 1 is paired (its table or bracket is fixed); after
/// `event.registration_deadline` only with `late` (`today` `None`: a correction, which
/// no deadline applies to). Returns the round the player is paired from.
pub fn admit(
    event: &Event,
    rules: &Rulebook,
    player: &Player,
    today: Option<chrono::NaiveDate>,
    late: bool,
) -> Result<Admitted, EntryError> {
    let pool = &player.group;
    let rounds = u32::try_from(rounds_paired(event, rules, pool)).unwrap_or(u32::MAX);
    if let Some(round) = rules.event.entries_close_after_round
        && rounds >= round
    {
        return Err(EntryError::EntriesClosed {
            group: rules.group_name(pool),
            round,
        });
    }
    let was_late = match (rules.event.registration_deadline, today) {
        (Some(deadline), Some(today)) if today > deadline && !late => {
            return Err(EntryError::AfterDeadline {
                deadline,
                today,
                players: Vec::new(),
            });
        }
        (Some(deadline), Some(today)) => today > deadline,
        _ => false,
    };
    let format = rules.format_of(pool);
    if rounds > 0 && (format.is_round_robin() || format.is_knockout()) {
        return Err(EntryError::FieldFixed {
            name: player.name.clone(),
            group: pool.clone(),
        });
    }
    Ok(Admitted {
        joined_round: rounds.saturating_add(1),
        late: was_late,
    })
}

/// [`admit`] for the players of an import (already placed) entering pools that have
/// paired a round: every refusal at once, each naming its player, and the deadline once
/// for the batch. A sheet imported before round 1 is the registration itself and is
/// not held to the deadline. Returns whether any entry was late.
pub fn admit_batch(
    event: &Event,
    rules: &Rulebook,
    players: &mut [Player],
    today: chrono::NaiveDate,
    late: bool,
) -> Result<bool, EntryError> {
    let mut refused = Vec::new();
    let mut late_ones = Vec::new();
    for p in players.iter_mut() {
        if rounds_paired(event, rules, &p.group) == 0 {
            continue;
        }
        match admit(event, rules, p, Some(today), true) {
            Ok(a) => {
                p.joined_round = a.joined_round;
                if a.late {
                    late_ones.push(match p.unit.trim() {
                        "" => p.name.clone(),
                        unit => format!("{}（{unit}）", p.name),
                    });
                }
            }
            Err(e) => refused.push((p.name.clone(), e)),
        }
    }
    if !refused.is_empty() {
        return Err(EntryError::Refused(refused));
    }
    match rules.event.registration_deadline {
        Some(deadline) if !late_ones.is_empty() && !late => Err(EntryError::AfterDeadline {
            deadline,
            today,
            players: late_ones,
        }),
        _ => Ok(!late_ones.is_empty()),
    }
}

/// [`add_player`] on `today` within the rulebook's entry rules ([`admit`]): returns the
/// player and whether the entry was late. Nothing changes on an error.
pub fn add_player_on<'e>(
    event: &'e mut Event,
    rules: &Rulebook,
    entry: &PlayerEntry,
    today: chrono::NaiveDate,
    late: bool,
) -> Result<(&'e Player, bool), EntryError> {
    enter(event, rules, entry, Some(today), late)
}

/// Registers a late entry: checked as an imported row, numbered after every player,
/// paired from the pool's next round (it gets the pool's next free pairing number when it
/// is first paired). An entry for a group merged away joins the pool it was merged into;
/// one into a cancelled group is refused ([`super::place_entry`]); the pool's entry rules
/// apply but the deadline ([`admit`]). Returns the player added.
pub fn add_player<'e>(
    event: &'e mut Event,
    rules: &Rulebook,
    entry: &PlayerEntry,
) -> Result<&'e Player, EntryError> {
    enter(event, rules, entry, None, false).map(|(p, _)| p)
}

fn enter<'e>(
    event: &'e mut Event,
    rules: &Rulebook,
    entry: &PlayerEntry,
    today: Option<chrono::NaiveDate>,
    late: bool,
) -> Result<(&'e Player, bool), EntryError> {
    let mut player = player_from_entry(entry, rules, &event.players, event.next_player_id())?;
    super::place_entry(event, rules, &mut player).map_err(EntryError::Group)?;
    let admitted = admit(event, rules, &player, today, late)?;
    player.joined_round = admitted.joined_round;
    team_checks(&event.players, &player, None, rules)?;
    event.players.push(player);
    Ok((&event.players[event.players.len() - 1], admitted.late))
}

/// The rounds `pool` has paired: a team pool's are the team rounds.
fn rounds_paired(event: &Event, rules: &Rulebook, pool: &GroupId) -> usize {
    match rules.team_competition.as_ref() {
        Some(_) => event.team_pools.get(pool).map_or(0, |s| s.rounds.len()),
        None => event.group(pool).map_or(0, |g| g.rounds.len()),
    }
}

/// Corrects player `id`: the fields `changes` gives replace theirs and the whole player
/// is checked again as an imported row (against every other player). What an entry cannot
/// set — id, pairing number, status, late entry, reinstatement, extra columns — is kept;
/// a paired player cannot change pool, and a group merged away or cancelled is entered
/// as by [`add_player`]. A player moved to another pool joins it from its next round, as
/// a late entry does, unless that pool's rounds already pair them (then their rounds there
/// stand). Returns the player as corrected.
pub fn edit_player<'e>(
    event: &'e mut Event,
    rules: &Rulebook,
    id: PlayerId,
    changes: &PlayerEntry,
) -> Result<&'e Player, EntryError> {
    let old = event.player(id).cloned().ok_or(EntryError::NoPlayer(id))?;
    let entry = PlayerEntry::of(&old, rules).overlaid(changes);
    let others: Vec<Player> = event
        .players
        .iter()
        .filter(|p| p.id != id)
        .cloned()
        .collect();
    let mut new = player_from_entry(&entry, rules, &others, id)?;
    // A group merged away sends the player where its players went, as for an entry. A
    // cancelled one is refused, except for a withdrawn player of it whose group is not
    // being changed (a typo corrected in a cancelled group's entry).
    let label = |p: &Player| p.section.clone().unwrap_or_else(|| p.group.clone());
    match super::place_entry(event, rules, &mut new) {
        Err(_) if !old.takes_part_from(1) && label(&new) == label(&old) => {}
        // The player is registered: it is the move that is refused, not an entry.
        Err(super::GroupError::EntryCancelled { mut entries }) if entries.len() == 1 => {
            return Err(EntryError::Group(super::GroupError::MoveCancelled {
                entry: entries.remove(0),
            }));
        }
        Err(e) => return Err(EntryError::Group(e)),
        Ok(_) => {}
    }
    let paired = event
        .group(&old.group)
        .is_some_and(|g| !g.rounds.is_empty());
    if new.group != old.group && paired {
        return Err(EntryError::GroupFixed {
            name: old.name,
            group: old.group,
        });
    }
    // A player moved to another pool (theirs unpaired) enters it as a late entry does,
    // under the same rules ([`admit`]), from its next round: not counted absent from the
    // rounds paired before. One already paired there — a state that left them registered
    // in a group that no longer pairs, which `check` advises this edit for — is relabelled
    // in the pool they play in: their rounds there stand, from the first they played.
    let joined_round = match (new.group == old.group, first_paired(event, &new.group, id)) {
        (true, _) => old.joined_round,
        (false, Some(first)) => old.joined_round.min(first),
        (false, None) => admit(event, rules, &new, None, false)?.joined_round,
    };
    let updated = Player {
        id: old.id,
        number: old.number,
        status: old.status,
        unranked: old.unranked,
        joined_round,
        reinstated_from: old.reinstated_from,
        absences: old.absences,
        extra: old.extra,
        sheet_number: old.sheet_number,
        ..new
    };
    team_checks(&event.players, &updated, Some(id), rules)?;
    let slot = event
        .players
        .iter_mut()
        .find(|p| p.id == id)
        .ok_or(EntryError::NoPlayer(id))?;
    *slot = updated;
    Ok(slot)
}

/// The first round of individual pool `pool` that pairs player `id`, if any.
fn first_paired(event: &Event, pool: &GroupId, id: PlayerId) -> Option<u32> {
    event
        .group(pool)?
        .rounds
        .iter()
        .filter(|r| r.pairings.iter().any(|p| p.involves(id)))
        .map(|r| r.number)
        .min()
}

/// The team checks of an import (docs/rules.md §17.1: team size, reserves, board orders,
/// a player in two teams, `min_women`, the board rules) on the players with `player`
/// added (or, `replacing` its id, corrected): every problem the change makes is refused,
/// each naming the option to correct (`--unit`, `--board`, `--gender`, `--birth-date`).
/// Problems the event had before are not this entry's. Nothing in an individual event.
fn team_checks(
    players: &[Player],
    player: &Player,
    replacing: Option<PlayerId>,
    rules: &Rulebook,
) -> Result<(), EntryError> {
    if rules.team_competition.is_none() {
        return Ok(());
    }
    let before = super::team_sheet::roster_problems(players, rules);
    let mut after: Vec<Player> = players
        .iter()
        .filter(|p| Some(p.id) != replacing)
        .cloned()
        .collect();
    match replacing.and_then(|id| players.iter().position(|p| p.id == id)) {
        Some(i) => after.insert(i, player.clone()),
        None => after.push(player.clone()),
    }
    fn option(column: &str) -> &str {
        match column {
            "队名" => "unit",
            "台次" | "替补" => "board",
            "性别" => "gender",
            "出生日期" => "birth-date",
            other => other,
        }
    }
    let errors: Vec<RowError> = super::team_sheet::roster_problems(&after, rules)
        .into_iter()
        .filter(|p| !before.iter().any(|b| b.text == p.text))
        .map(|p| {
            let column = p.column.as_deref().map(|c| option(c).to_string());
            RowError::new(1, column, None, p.text)
        })
        .collect();
    match errors.is_empty() {
        true => Ok(()),
        false => Err(EntryError::Invalid(errors)),
    }
}

#[cfg(test)]
#[path = "entry_tests.rs"]
mod tests;
