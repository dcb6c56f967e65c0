//! The player list.

use crate::i18n::{gender_label, yes_no};
use crate::model::{Event, GroupId, PlayerStatus};
use crate::registration::privacy::mask_free_text;
use crate::registration::{mask_id_number, mask_phone};
use crate::report::{Json, Report, Section};
use crate::rulebook::{Lang, Rulebook};
use chrono::Datelike;
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
    for p in event
        .players
        .iter()
        .filter(|p| group.is_none_or(|g| &p.group == g || p.section.as_ref() == Some(g)))
    {
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
            group.clone(),
            birth.clone(),
            p.grade.map(|g| g.to_string()).unwrap_or_default(),
            p.rating.map(|r| r.to_string()).unwrap_or_default(),
            yes_no(p.disabled, lang).into(),
            yes_no(p.local, lang).into(),
            id_number.clone(),
            phone.clone(),
            status.trim().to_string(),
        ]);
        if !want_json {
            continue;
        }
        rows.push(json!({
            "id": p.id,
            "number": p.number,
            "name": p.name,
            "gender": p.gender,
            "unit": p.unit,
            "group": p.group,
            "group_name": group_name(&p.group),
            "section": p.section,
            "birth_date": if show_private { json!(p.birth_date) } else { json!(null) },
            "birth_year": p.birth_date.map(|d| d.year()),
            "grade": p.grade,
            "rating": p.rating,
            "disabled": p.disabled,
            "local": p.local,
            "id_number": if p.id_number.is_some() { json!(id_number) } else { json!(null) },
            "phone": if p.phone.is_some() { json!(phone) } else { json!(null) },
            "withdrawn": p.is_withdrawn(),
            "disqualified": p.is_disqualified(),
            "joined_round": p.joined_round,
            "unranked": p.unranked,
        }));
    }
    section.notes.push(format!(
        "{} {}",
        section.rows.len(),
        lang.pick("人", "players")
    ));
    report.sections.push(section);
    if want_json {
        report.json = json!({ "event": rules.event.name, "players": rows });
    }
    report
}
