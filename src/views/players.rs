//! The player list.

use crate::i18n::{gender_label, yes_no};
use crate::model::{Event, Gender, GroupId, Player, PlayerId, PlayerStatus};
use crate::registration::privacy::mask_free_text;
use crate::registration::{mask_id_number, mask_phone};
use crate::report::{Json, Report, Section};
use crate::rulebook::{Lang, Rulebook};
use chrono::{Datelike, NaiveDate};
use serde::Serialize;
use serde_json::json;

/// Every player of `group` — a pool with its sections, or one section — (or of the
/// event), with ID and phone masked unless `show_private`.
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
    let mask = |s: &Option<String>, f: fn(&str) -> String| -> String {
        match s {
            Some(v) if show_private => v.clone(),
            Some(v) => f(v),
            None => String::new(),
        }
    };
    let group_name = |id: &GroupId| super::group_name(rules, id);
    let mut section = Section::new(
        "",
        vec![
            lang.pick("编号", "id").into(),
            lang.pick("序号", "no.").into(),
            lang.pick("姓名", "name").into(),
            lang.pick("性别", "sex").into(),
            lang.pick("单位", "unit").into(),
            lang.pick("组别", "group").into(),
            if show_private {
                lang.pick("出生日期", "born").into()
            } else {
                lang.pick("出生年份", "born (year)").into()
            },
            lang.pick("年级", "grade").into(),
            lang.pick("等级分", "rating").into(),
            lang.pick("残疾", "disabled").into(),
            lang.pick("本地", "local").into(),
            lang.pick("身份证号", "ID number").into(),
            lang.pick("电话", "phone").into(),
            lang.pick("状态", "status").into(),
        ],
    )
    .right(&[0, 1, 8])
    // Masked anyway unless --show-private: a narrow terminal drops them first.
    .optional(&[11, 12]);
    let want_json = json.wanted();
    let mut rows = Vec::new();
    for p in event.players.iter().filter(|p| in_group(p, group)) {
        let group = match &p.section {
            Some(s) => format!("{} ({})", group_name(s), group_name(&p.group)),
            None => group_name(&p.group),
        };
        // Reasons are free text: an ID or phone number typed into one is masked.
        let free = |reason: &str| {
            if show_private {
                reason.to_string()
            } else {
                mask_free_text(reason)
            }
        };
        let status = match (&p.status, lang) {
            (PlayerStatus::Active, Lang::Zh) if p.joined_round > 1 => {
                format!("迟到报名，自第{}轮起参赛", p.joined_round)
            }
            (PlayerStatus::Active, Lang::En) if p.joined_round > 1 => {
                format!("late entry from round {}", p.joined_round)
            }
            (PlayerStatus::Active, _) => String::new(),
            (PlayerStatus::Withdrawn { from_round, cause }, Lang::Zh) => format!(
                "自第{from_round}轮起退赛：{}",
                free(&crate::results::withdrawal_cause_text(cause, lang))
            ),
            (PlayerStatus::Withdrawn { from_round, cause }, Lang::En) => format!(
                "withdrawn from round {from_round}: {}",
                free(&crate::results::withdrawal_cause_text(cause, lang))
            ),
            (PlayerStatus::Disqualified { from_round, reason }, Lang::Zh) => {
                format!("自第{from_round}轮起取消比赛资格：{}", free(reason))
            }
            (PlayerStatus::Disqualified { from_round, reason }, Lang::En) => {
                format!("disqualified from round {from_round}: {}", free(reason))
            }
        };
        let id_number = mask(&p.id_number, mask_id_number);
        // The masked ID hides exactly the 8 birth-date digits, so a full birth date beside
        // it would give the whole number away: only the year unless asked for.
        let birth = match p.birth_date {
            Some(d) if show_private => d.to_string(),
            Some(d) => d.year().to_string(),
            None => String::new(),
        };
        let phone = mask(&p.phone, mask_phone);
        section.push(vec![
            p.id.to_string(),
            super::number_of(p),
            p.name.clone(),
            gender_label(p.gender, lang).into(),
            p.unit.clone(),
            group,
            birth,
            p.grade.map(|g| g.to_string()).unwrap_or_default(),
            p.rating.map(|r| r.to_string()).unwrap_or_default(),
            yes_no(p.disabled, lang).into(),
            yes_no(p.local, lang).into(),
            id_number,
            phone,
            status.trim().to_string(),
        ]);
        if !want_json {
            continue;
        }
        rows.push(player_json(rules, p, show_private));
    }
    section.notes.push(match lang {
        Lang::Zh => format!("{} 人", section.rows.len()),
        Lang::En => crate::i18n::plural(section.rows.len(), "player", "players"),
    });
    report.sections.push(section);
    if want_json {
        report.json = json!({ "event": rules.event.name, "players": rows });
    }
    report
}

/// One player as the JSON documents show it (`players --format json`, `export --format
/// json`), ID and phone masked unless `show_private`. The fields are declared in
/// alphabetical order, the order a [`serde_json::Value`] prints them in: the streamed
/// export writes this struct as it is, and must read as the value did.
#[derive(Serialize)]
pub(crate) struct PlayerJson<'a> {
    birth_date: Option<NaiveDate>,
    birth_year: Option<i32>,
    disabled: bool,
    disqualified: bool,
    gender: Option<Gender>,
    grade: Option<u8>,
    group: &'a GroupId,
    group_name: String,
    id: PlayerId,
    id_number: Option<String>,
    joined_round: u32,
    local: bool,
    name: &'a str,
    number: Option<u32>,
    phone: Option<String>,
    rating: Option<i32>,
    section: Option<&'a GroupId>,
    unit: &'a str,
    unranked: bool,
    withdrawn: bool,
}

/// [`PlayerJson`] of one player: a full birth date only with `show_private` (the masked
/// ID hides exactly its digits), the year always.
pub(crate) fn player_json<'a>(
    rules: &Rulebook,
    p: &'a Player,
    show_private: bool,
) -> PlayerJson<'a> {
    let private = |v: &Option<String>, mask: fn(&str) -> String| {
        v.as_deref()
            .map(|v| if show_private { v.to_string() } else { mask(v) })
    };
    PlayerJson {
        birth_date: p.birth_date.filter(|_| show_private),
        birth_year: p.birth_date.map(|d| d.year()),
        disabled: p.disabled,
        disqualified: p.is_disqualified(),
        gender: p.gender,
        grade: p.grade,
        group: &p.group,
        group_name: super::group_name(rules, &p.group),
        id: p.id,
        id_number: private(&p.id_number, mask_id_number),
        joined_round: p.joined_round,
        local: p.local,
        name: &p.name,
        number: p.number,
        phone: private(&p.phone, mask_phone),
        rating: p.rating,
        section: p.section.as_ref(),
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
