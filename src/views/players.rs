//! The player list (参赛名单): the public list of the site and the exports, and with
//! `--show-private` the arbiter's full list.
//!
//! Owns which player data is public: name, gender, unit, group, rating and title, the
//! typed status; the rest only as the rulebook's `[publish]` says, ID and phone masked.
//! Free text (withdrawal notes, disqualification reasons) is never public.

use super::labels::gender_label;
use crate::i18n::bi;
use crate::i18n::yes_no;
use crate::model::{Event, Gender, GroupId, Player, PlayerId, PlayerStatus, WithdrawalCause};
use crate::privacy::{mask_id_number, mask_phone};
use crate::report::{Json, Report, Section};
use crate::rulebook::{Lang, PublishField, Rulebook};
use chrono::{Datelike, NaiveDate};
use serde::Serialize;
use serde_json::json;

/// A column of the player list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Id,
    Number,
    Name,
    Gender,
    Unit,
    /// A team competition's 台次 (docs/rules.md §17.1).
    Board,
    Group,
    Born,
    Grade,
    Rating,
    Title,
    Disabled,
    Local,
    IdNumber,
    Phone,
    Status,
}

/// The columns the list shows. What a Chinese organiser posts (名单: name, gender, unit,
/// group, and rating and title where the event uses them) always; birth year, grade,
/// 残疾, 本地, masked ID and phone only when the rulebook's `[publish] fields` lists
/// them; everything, in full, with `show_private` (the arbiter's own list).
fn columns(event: &Event, rules: &Rulebook, show_private: bool) -> Vec<Column> {
    let published = |f: PublishField| show_private || rules.publish.shows(f);
    let mut cols = vec![
        Column::Id,
        Column::Number,
        Column::Name,
        Column::Gender,
        Column::Unit,
        Column::Group,
    ];
    if rules.team_competition.is_some() {
        cols.insert(5, Column::Board);
    }
    let wanted = [
        (published(PublishField::BirthYear), Column::Born),
        (published(PublishField::Grade), Column::Grade),
        (
            event.players.iter().any(|p| p.rating.is_some()),
            Column::Rating,
        ),
        (
            event.players.iter().any(|p| p.title.is_some()),
            Column::Title,
        ),
        (published(PublishField::Disabled), Column::Disabled),
        (published(PublishField::Local), Column::Local),
        (published(PublishField::IdNumber), Column::IdNumber),
        (published(PublishField::Phone), Column::Phone),
    ];
    cols.extend(wanted.into_iter().filter(|(on, _)| *on).map(|(_, c)| c));
    cols.push(Column::Status);
    cols
}

impl Column {
    fn heading(self, lang: Lang, show_private: bool, team: bool) -> &'static str {
        match self {
            Column::Id => lang.pick("编号", "id"),
            Column::Number => lang.pick("序号", "no."),
            Column::Name => lang.pick("姓名", "name"),
            Column::Gender => lang.pick("性别", "sex"),
            Column::Unit if team => lang.pick("队名", "team"),
            Column::Unit => lang.pick("单位", "unit"),
            Column::Board => lang.pick("台次", "board"),
            Column::Group => lang.pick("组别", "group"),
            Column::Born if show_private => lang.pick("出生日期", "born"),
            Column::Born => lang.pick("出生年份", "born (year)"),
            Column::Grade => lang.pick("年级", "grade"),
            Column::Rating => lang.pick("等级分", "rating"),
            Column::Title => lang.pick("称号", "title"),
            Column::Disabled => lang.pick("残疾", "disabled"),
            Column::Local => lang.pick("本地", "local"),
            Column::IdNumber => lang.pick("身份证号", "ID number"),
            Column::Phone => lang.pick("电话", "phone"),
            Column::Status => lang.pick("状态", "status"),
        }
    }
}

/// A player's status as the list shows it: the typed cause of a withdrawal or
/// disqualification (退赛, 连续弃权, 取消资格 from round N); the arbiter's own words
/// (a withdrawal note, a disqualification reason) only with `show_private`, since free
/// text may hold anything (a phone number, a diagnosis).
pub(crate) fn status_text(p: &Player, lang: Lang, show_private: bool) -> String {
    let with = |base: String, detail: Option<String>| match detail {
        Some(d) if !d.trim().is_empty() => {
            bi!(lang, zh("{base}：{}", d.trim()), en("{base}: {}", d.trim()))
        }
        _ => base,
    };
    match &p.status {
        PlayerStatus::Active if p.joined_round > 1 => bi!(
            lang,
            zh("迟到报名，自第{}轮起参赛", p.joined_round),
            en("late entry from round {}", p.joined_round)
        ),
        PlayerStatus::Active => String::new(),
        PlayerStatus::Withdrawn { from_round, cause } => {
            let base = bi!(
                lang,
                zh("自第{from_round}轮起退赛"),
                en("withdrawn from round {from_round}")
            );
            let detail = match cause {
                WithdrawalCause::Manual { note: Some(_) } if !show_private => None,
                cause => Some(crate::results::withdrawal_cause_text(cause, lang)),
            };
            with(base, detail)
        }
        PlayerStatus::Disqualified { from_round, reason } => {
            let base = bi!(
                lang,
                zh("自第{from_round}轮起取消比赛资格"),
                en("disqualified from round {from_round}")
            );
            with(base, show_private.then(|| reason.clone()))
        }
    }
}

/// Every player of `group` — a pool with its sections, or one section — (or of the
/// event): the published columns (see [`columns`]), everything in full with
/// `show_private`.
pub fn players(
    event: &Event,
    rules: &Rulebook,
    group: Option<&GroupId>,
    lang: Lang,
    show_private: bool,
    json: Json,
) -> Report {
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        lang.pick("参赛名单", "players")
    ));
    report.lang = lang.code().into();
    let cols = columns(event, rules, show_private);
    let at = |c: Column| cols.iter().position(|&x| x == c);
    let right: Vec<usize> = [Column::Id, Column::Number, Column::Rating]
        .into_iter()
        .filter_map(at)
        .collect();
    // A narrow terminal drops the long personal columns first.
    let optional: Vec<usize> = [Column::IdNumber, Column::Phone]
        .into_iter()
        .filter_map(at)
        .collect();
    let mut section = Section::new(
        "",
        cols.iter()
            .map(|c| {
                c.heading(lang, show_private, rules.team_competition.is_some())
                    .to_string()
            })
            .collect(),
    )
    .right(&right)
    .optional(&optional);
    let private = |v: &Option<String>, mask: fn(&str) -> String| match v {
        Some(v) if show_private => v.clone(),
        Some(v) => mask(v),
        None => String::new(),
    };
    let group_name = |id: &GroupId| rules.group_name(id);
    let want_json = json.wanted();
    let mut rows = Vec::new();
    for p in event.players.iter().filter(|p| in_group(p, group)) {
        let cell = |c: Column| match c {
            Column::Id => p.id.to_string(),
            Column::Number => super::number_of(p),
            Column::Name => p.name.clone(),
            Column::Gender => gender_label(p.gender, lang).into(),
            Column::Unit => p.unit.clone(),
            Column::Group => match &p.section {
                Some(s) => bi!(
                    lang,
                    zh("{}（{}）", group_name(s), group_name(&p.group)),
                    en("{} ({})", group_name(s), group_name(&p.group))
                ),
                None => group_name(&p.group),
            },
            // The masked ID hides exactly the 8 birth-date digits, so a full birth date
            // is never published: only the year, and only when the rulebook says so.
            Column::Born => match p.birth_date {
                Some(d) if show_private => d.to_string(),
                Some(d) => d.year().to_string(),
                None => String::new(),
            },
            Column::Grade => p.grade.map(crate::model::grade_label).unwrap_or_default(),
            Column::Rating => p.rating.map(|r| r.to_string()).unwrap_or_default(),
            Column::Title => p.title.clone().unwrap_or_default(),
            Column::Board => crate::registration::team_sheet::board_text(p),
            Column::Disabled => yes_no(p.disabled, lang).into(),
            Column::Local => yes_no(p.local, lang).into(),
            Column::IdNumber => private(&p.id_number, mask_id_number),
            Column::Phone => private(&p.phone, mask_phone),
            Column::Status => {
                // Warnings without a point loss (警告) are on the player's record.
                let warned = event.warnings.iter().filter(|w| w.player == p.id).count();
                let status = status_text(p, lang, show_private);
                match warned {
                    0 => status,
                    n if status.is_empty() => bi!(lang, zh("警告{n}次"), en("warned {n}×")),
                    n => bi!(lang, zh("{status}；警告{n}次"), en("{status}; warned {n}×")),
                }
            }
        };
        section.push(cols.iter().map(|&c| cell(c)).collect());
        if want_json {
            rows.push(player_json(rules, p, lang, show_private));
        }
    }
    let count = section.rows.len();
    section.notes.push(bi!(
        lang,
        zh("{count} 人"),
        en("{}", crate::i18n::plural(count, "player", "players"))
    ));
    report.sections.push(section);
    if want_json {
        report.json = json!({ "event": rules.event.name, "players": rows });
    }
    report
}

/// One player as the JSON documents show it (`players --format json`, `export --format
/// json`): the same fields as the list (see [`columns`]), a field that is not published
/// left out. The fields are declared in alphabetical order, the order a
/// [`serde_json::Value`] prints them in: the streamed export writes this struct as it is,
/// and must read as the value did.
#[derive(Serialize)]
pub(crate) struct PlayerJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    birth_date: Option<NaiveDate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    birth_year: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    disabled: Option<bool>,
    disqualified: bool,
    gender: Option<Gender>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grade: Option<i8>,
    group: &'a GroupId,
    group_name: String,
    id: PlayerId,
    #[serde(skip_serializing_if = "Option::is_none")]
    id_number: Option<String>,
    joined_round: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    local: Option<bool>,
    name: &'a str,
    number: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    phone: Option<String>,
    rating: Option<i32>,
    section: Option<&'a GroupId>,
    status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    unit: &'a str,
    unranked: bool,
    withdrawn: bool,
}

/// [`PlayerJson`] of one player: the published fields (ID and phone masked), everything
/// in full with `show_private`; the status in the event's language, its free text only
/// with `show_private`.
pub(crate) fn player_json<'a>(
    rules: &Rulebook,
    p: &'a Player,
    lang: Lang,
    show_private: bool,
) -> PlayerJson<'a> {
    let published = |f: PublishField| show_private || rules.publish.shows(f);
    let private = |f: PublishField, v: &Option<String>, mask: fn(&str) -> String| {
        v.as_deref()
            .filter(|_| published(f))
            .map(|v| if show_private { v.to_string() } else { mask(v) })
    };
    PlayerJson {
        birth_date: p.birth_date.filter(|_| show_private),
        birth_year: p
            .birth_date
            .filter(|_| published(PublishField::BirthYear))
            .map(|d| d.year()),
        disabled: published(PublishField::Disabled).then_some(p.disabled),
        disqualified: p.is_disqualified(),
        gender: p.gender,
        grade: p.grade.filter(|_| published(PublishField::Grade)),
        group: &p.group,
        group_name: rules.group_name(&p.group),
        id: p.id,
        id_number: private(PublishField::IdNumber, &p.id_number, mask_id_number),
        joined_round: p.joined_round,
        local: published(PublishField::Local).then_some(p.local),
        name: &p.name,
        number: p.number,
        phone: private(PublishField::Phone, &p.phone, mask_phone),
        rating: p.rating,
        section: p.section.as_ref(),
        status: status_text(p, lang, show_private),
        title: p.title.as_deref(),
        unit: &p.unit,
        unranked: p.unranked,
        withdrawn: p.is_withdrawn(),
    }
}

/// Whether `p` is one of the players of `group` (a pool with its sections, or one
/// section), or of the event when `group` is `None`.
pub(crate) fn in_group(p: &Player, group: Option<&GroupId>) -> bool {
    group.is_none_or(|g| &p.group == g || p.section.as_ref() == Some(g))
}
