//! 奖状/证书 (`qiwang certificates`): one A4 landscape certificate per award of the prize
//! sheet, printable from the browser, its text and sizes from a template the organiser
//! can edit (`--template FILE`; `--print-template` writes the default to start from).
//!
//! Owns the certificate template (a small TOML file with placeholders) and the printable
//! page. The awards themselves come from the prize sheet (docs/rules.md §7); every value
//! is escaped into the page, the template included.

use super::prizes::date_text;
use crate::i18n::{Localize, bi, display_english};
use crate::model::GroupId;
use crate::prizes::PrizeSheet;
use crate::report::{Markup, html_page_of};
use crate::rulebook::{Lang, Rulebook};

/// What a certificate says and how large: every text may hold the placeholders
/// `{姓名} {单位} {组别} {名单} {名次} {称号} {奖励} {赛事} {主办} {日期}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateTemplate {
    /// The heading (荣誉证书).
    pub title: String,
    /// The body; a line break in it starts a new line on the certificate.
    pub body: String,
    /// The signature at the bottom right (the organiser).
    pub signature: String,
    /// The date under the signature.
    pub date: String,
    /// The heading's size in points.
    pub title_size: u32,
    /// The body's size in points.
    pub body_size: u32,
}

/// The default template, as `--print-template` writes it: every key with a comment.
pub fn default_template_text(lang: Lang) -> String {
    lang.pick(DEFAULT_TEMPLATE_ZH, DEFAULT_TEMPLATE_EN).into()
}

/// The default template in Chinese (`default_template_text`).
const DEFAULT_TEMPLATE_ZH: &str = "\
# 奖状模板：改文字和字号后用 `qiwang certificates --template 本文件` 打印。
# 可用的占位：{姓名} {单位} {组别} {名单} {名次} {称号} {奖励} {赛事} {主办} {日期}
# {名次} 印作“第一名”“第三名（并列）”；{称号} 有称号时印作“，并获得「…」称号”，否则为空。
title = \"荣誉证书\"
body = \"{姓名}（{单位}）：\\n在{赛事}中荣获{名单}{名次}{称号}。\\n特发此证，以资鼓励。\"
signature = \"{主办}\"
date = \"{日期}\"
title_size = 48
body_size = 22
";

/// The default template in English (`default_template_text`).
const DEFAULT_TEMPLATE_EN: &str = "\
# Certificate template: edit the texts and sizes, then print with
# `qiwang certificates --template THIS-FILE`.
# Placeholders: {姓名} name, {单位} unit, {组别} group, {名单} list, {名次} place,
# {称号} title, {奖励} award, {赛事} event, {主办} organiser, {日期} date.
title = \"Certificate\"
body = \"{姓名} ({单位})\\ntook {名次} in {名单}{称号}\\nat {赛事}.\"
signature = \"{主办}\"
date = \"{日期}\"
title_size = 40
body_size = 20
";

impl CertificateTemplate {
    /// The default template of `lang`.
    pub fn default_for(lang: Lang) -> CertificateTemplate {
        CertificateTemplate::from_toml(&default_template_text(lang))
            .expect("the default template reads")
    }

    /// Reads a template file: the four texts (each optional, the default's where left
    /// out) and the two sizes (whole points, 6–200). Unknown keys are refused, so a
    /// misspelt key does not silently print the default.
    pub fn from_toml(text: &str) -> Result<CertificateTemplate, TemplateError> {
        let doc: toml_edit::DocumentMut =
            text.parse()
                .map_err(|e: toml_edit::TomlError| TemplateError::NotToml {
                    // The line the parser stopped at, counted from 1, as the rulebook's errors.
                    line: e
                        .span()
                        .map_or(1, |s| crate::rulebook::line_column(text, s.start).0),
                    why: e.message().to_string(),
                })?;
        let mut t = CertificateTemplate {
            title: String::new(),
            body: String::new(),
            signature: String::new(),
            date: String::new(),
            title_size: 48,
            body_size: 22,
        };
        for (key, item) in doc.iter() {
            let text = || {
                item.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| TemplateError::NotText(key.to_string()))
            };
            let size = || {
                item.as_integer()
                    .filter(|n| (6..=200).contains(n))
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| TemplateError::BadSize(key.to_string()))
            };
            match key {
                "title" => t.title = text()?,
                "body" => t.body = text()?,
                "signature" => t.signature = text()?,
                "date" => t.date = text()?,
                "title_size" => t.title_size = size()?,
                "body_size" => t.body_size = size()?,
                other => return Err(TemplateError::UnknownKey(other.to_string())),
            }
        }
        Ok(t)
    }
}

/// Why a certificate template (`certificates --template FILE`) cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateError {
    /// Not valid TOML: where the parser stopped and its message.
    NotToml {
        /// The line, from 1.
        line: usize,
        /// The parser's message.
        why: String,
    },
    /// This key's value is not a string.
    NotText(String),
    /// This size key's value is not a whole number of points from 6 to 200.
    BadSize(String),
    /// The template has no such key (a misspelling would silently print the default).
    UnknownKey(String),
}

display_english!(TemplateError);

impl std::error::Error for TemplateError {}

impl Localize for TemplateError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            TemplateError::NotToml { line, why } => bi!(
                lang,
                zh("奖状模板第 {line} 行不是有效的 TOML：{why}"),
                en("the certificate template is not valid TOML at line {line}: {why}"),
            ),
            TemplateError::NotText(key) => bi!(
                lang,
                zh("奖状模板的 `{key}` 应为字符串"),
                en("the certificate template's `{key}` must be a string"),
            ),
            TemplateError::BadSize(key) => bi!(
                lang,
                zh("奖状模板的 `{key}` 应为 6 到 200 之间的整数（磅）"),
                en(
                    "the certificate template's `{key}` must be a whole number of points from 6 to 200"
                ),
            ),
            TemplateError::UnknownKey(key) => bi!(
                lang,
                zh(
                    "奖状模板没有 `{key}` 这一项：可用 title、body、signature、date、title_size、body_size"
                ),
                en(
                    "the certificate template has no key `{key}`: use title, body, signature, date, title_size, body_size"
                ),
            ),
        }
    }
}

/// A place in words: 第一名, 第三名（并列）; 1st, 3rd (shared).
fn place_words(place: u32, shared: bool, lang: Lang) -> String {
    let digits = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let n = usize::try_from(place).unwrap_or(0);
    let words = match n {
        0..=9 => digits[n].to_string(),
        10..=19 => format!("十{}", if n == 10 { "" } else { digits[n % 10] }),
        20..=99 => format!(
            "{}十{}",
            digits[n / 10],
            if n % 10 == 0 { "" } else { digits[n % 10] }
        ),
        _ => place.to_string(),
    };
    let suffix = match (place % 10, place % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    bi!(
        lang,
        zh("第{words}名{}", if shared { "（并列）" } else { "" }),
        en(
            "{place}{suffix} place{}",
            if shared { " (shared)" } else { "" }
        )
    )
}

/// One certificate's values for the placeholders.
struct Winner {
    name: String,
    unit: String,
    group: String,
    list: String,
    place: String,
    title: String,
    award: String,
}

fn fill(text: &str, w: &Winner, event: &str, organiser: &str, date: &str) -> String {
    [
        ("{姓名}", w.name.as_str()),
        ("{单位}", &w.unit),
        ("{组别}", &w.group),
        ("{名单}", &w.list),
        ("{名次}", &w.place),
        ("{称号}", &w.title),
        ("{奖励}", &w.award),
        ("{赛事}", event),
        ("{主办}", organiser),
        ("{日期}", date),
    ]
    .iter()
    .fold(text.to_string(), |t, (k, v)| t.replace(k, v))
}

const CSS: &str = "@page{size:A4 landscape;margin:0}\
body{margin:0;font-family:\"SimSun\",\"Songti SC\",serif}\
.cert{box-sizing:border-box;width:297mm;height:210mm;padding:28mm 36mm;position:relative;\
page-break-after:always;break-after:page;border:6mm double #b22}\
.cert:last-child{page-break-after:auto;break-after:auto}\
.cert h1{text-align:center;letter-spacing:.3em;margin:0 0 16mm}\
.cert p{margin:0 0 4mm;line-height:1.8}\
.cert .sign{position:absolute;right:40mm;bottom:30mm;text-align:center}";

/// What [`certificates`] printed: the page, how many certificates it holds, and the
/// places it held back because a playoff decides them (冠军不并列 and the like).
pub struct Certificates {
    /// The printable page.
    pub html: String,
    /// Certificates on it.
    pub printed: usize,
    /// Awards not printed yet, as `name (list)`, until `qiwang playoff` records the order.
    pub held: Vec<String>,
    /// Lists (and team rankings) whose results are not complete yet (rounds to play,
    /// results to enter): no certificate of theirs is printed, their places not being final.
    pub unfinished: Vec<String>,
    /// Lists (and team rankings) of a cancelled group: no places, so no certificate, ever.
    pub cancelled: Vec<String>,
}

/// Every certificate of `sheet` (one per award of each prize list and team competition,
/// or of the list named `list` only) on one printable page. A place that waits for a
/// playoff gets no certificate yet, nor does a list whose results are not complete
/// (its sheet marked provisional): who has the place is not known (docs/rules.md §7.5).
/// A list of a cancelled group has no places and never gets one.
pub fn certificates(
    rules: &Rulebook,
    sheet: &PrizeSheet,
    template: &CertificateTemplate,
    list: Option<&str>,
    lang: Lang,
) -> Certificates {
    let event = sheet
        .short_name
        .clone()
        .unwrap_or_else(|| sheet.event.clone());
    let organiser = sheet.organiser.clone().unwrap_or_default();
    let date = sheet
        .end_date
        .or(sheet.start_date)
        .map(|d| date_text(d, lang))
        .unwrap_or_default();
    let group_name = |id: &GroupId| rules.group_name(id);
    let title = |t: &Option<String>| match t {
        Some(t) => bi!(lang, zh("，并获得「{t}」称号"), en(", with the title {t}")),
        None => String::new(),
    };
    let wanted = |id: &str, name: &str| list.is_none_or(|l| l == id || l == name);
    let mut winners = Vec::new();
    let mut held = Vec::new();
    let mut unfinished = Vec::new();
    let mut cancelled = Vec::new();
    let provisional = |notes: &[crate::prizes::SheetNote]| {
        notes
            .iter()
            .any(|n| matches!(n, crate::prizes::SheetNote::Provisional { .. }))
    };
    let is_cancelled = |notes: &[crate::prizes::SheetNote]| {
        notes
            .iter()
            .any(|n| matches!(n, crate::prizes::SheetNote::Cancelled { .. }))
    };
    for l in sheet.lists.iter().filter(|l| wanted(&l.id, &l.name)) {
        if is_cancelled(&l.notes) {
            cancelled.push(l.name.clone());
            continue;
        }
        // Provisional with no award yet too: a pool before its first result places
        // nobody, and its list is unfinished, not empty.
        if provisional(&l.notes) {
            unfinished.push(l.name.clone());
            continue;
        }
        for a in &l.awards {
            if a.pending_playoff {
                held.push(format!("{} ({})", a.name, l.name));
                continue;
            }
            winners.push(Winner {
                name: a.name.clone(),
                unit: a.unit.clone(),
                group: group_name(&l.group),
                list: l.name.clone(),
                place: place_words(a.place, a.shared, lang),
                title: title(&a.title),
                award: a.award.clone().unwrap_or_default(),
            });
        }
    }
    for t in sheet.teams.iter().filter(|t| wanted(&t.id, &t.name)) {
        if is_cancelled(&t.notes) {
            cancelled.push(t.name.clone());
            continue;
        }
        // Provisional with no award yet too: a pool before its first result places
        // nobody, and its list is unfinished, not empty.
        if provisional(&t.notes) {
            unfinished.push(t.name.clone());
            continue;
        }
        for a in &t.awards {
            winners.push(Winner {
                name: a.unit.clone(),
                unit: a.members.join("、"),
                group: String::new(),
                list: t.name.clone(),
                place: place_words(a.place, a.shared, lang),
                title: title(&a.title),
                award: a.award.clone().unwrap_or_default(),
            });
        }
    }
    let mut body = Markup::new();
    body.style(CSS).newline();
    for w in &winners {
        let text = |t: &str| fill(t, w, &event, &organiser, &date);
        let title_style = format!("font-size:{}pt", template.title_size);
        let body_style = format!("font-size:{}pt", template.body_size);
        body.element("div", &[("class", "cert")], |m| {
            m.text_element("h1", &[("style", &title_style)], &text(&template.title));
            for line in text(&template.body).lines() {
                m.text_element("p", &[("style", &body_style)], line);
            }
            m.element("div", &[("class", "sign"), ("style", &body_style)], |m| {
                m.text_element("p", &[], &text(&template.signature));
                m.text_element("p", &[], &text(&template.date));
            });
        })
        .newline();
    }
    let page_title = format!("{} — {}", sheet.event, lang.pick("奖状", "certificates"));
    Certificates {
        html: html_page_of(lang.code(), &page_title, &body),
        printed: winners.len(),
        held,
        unfinished,
        cancelled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_read_as_words() {
        assert_eq!(place_words(1, false, Lang::Zh), "第一名");
        assert_eq!(place_words(3, true, Lang::Zh), "第三名（并列）");
        assert_eq!(place_words(10, false, Lang::Zh), "第十名");
        assert_eq!(place_words(12, false, Lang::Zh), "第十二名");
        assert_eq!(place_words(20, false, Lang::Zh), "第二十名");
        assert_eq!(place_words(11, false, Lang::En), "11th place");
        assert_eq!(place_words(2, false, Lang::En), "2nd place");
    }

    #[test]
    fn a_template_reads_back_and_misspelt_keys_are_refused() {
        for lang in [Lang::Zh, Lang::En] {
            let t = CertificateTemplate::default_for(lang);
            assert!(t.body.contains("{姓名}") && t.title_size >= 6);
        }
        let t = CertificateTemplate::from_toml("title = \"奖状\"\nbody_size = 30\n").unwrap();
        assert_eq!((t.title.as_str(), t.body_size), ("奖状", 30));
        let e = CertificateTemplate::from_toml("titel = \"x\"").unwrap_err();
        assert_eq!(e, TemplateError::UnknownKey("titel".into()));
        assert!(e.localize(Lang::Zh).contains("titel") && e.to_string().contains("titel"));
        let e = CertificateTemplate::from_toml("body_size = 2").unwrap_err();
        assert_eq!(e, TemplateError::BadSize("body_size".into()));
        let e = CertificateTemplate::from_toml("title = 3").unwrap_err();
        assert_eq!(e, TemplateError::NotText("title".into()));
        let e = CertificateTemplate::from_toml("title = \"奖状\"\nbody = ").unwrap_err();
        assert!(matches!(e, TemplateError::NotToml { line: 2, .. }), "{e:?}");
        assert!(e.localize(Lang::Zh).contains("第 2 行"), "{e:?}");
        assert_ne!(e.localize(Lang::Zh), e.localize(Lang::En));
    }
}
