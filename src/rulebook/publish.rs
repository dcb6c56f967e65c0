//! `[publish]`: what the public player list (参赛名单 of the site, its CSV, the event's
//! JSON and workbook) shows beyond what a Chinese organiser always posts — name, unit,
//! group, gender, and the rating and title where the event uses them.
//!
//! Owns the setting and its parsing; `views::players` applies it. Nothing personal is
//! published unless the rulebook names it here: the default list is empty.

use super::names::Named;
use super::reader::{Ctx, Sec, unknown_name_message};
use crate::i18n::Text;
use serde::{Deserialize, Serialize};

/// The keys of `[publish]`.
pub(super) const PUBLISH_KEYS: &[&str] = &["fields"];

/// A player column that is published only when the rulebook lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PublishField {
    /// 出生年份: the year of birth (never the full date: the masked ID number hides it).
    BirthYear,
    /// 年级: the school grade.
    Grade,
    /// 残疾: whether the player is registered as disabled (health data: children's
    /// included, so never by default).
    Disabled,
    /// 本地: whether the player is local.
    Local,
    /// 身份证号, masked (region and last 4 kept).
    IdNumber,
    /// 电话, masked (first 3 and last 4 kept).
    Phone,
}

impl Named for PublishField {
    const NAMES: &'static [(&'static str, Self)] = &[
        ("birth_year", PublishField::BirthYear),
        ("grade", PublishField::Grade),
        ("disabled", PublishField::Disabled),
        ("local", PublishField::Local),
        ("id_number", PublishField::IdNumber),
        ("phone", PublishField::Phone),
    ];
    const ALIASES: &'static [(&'static str, Self)] = &[
        ("出生年份", PublishField::BirthYear),
        ("年级", PublishField::Grade),
        ("残疾", PublishField::Disabled),
        ("本地", PublishField::Local),
        ("身份证号", PublishField::IdNumber),
        ("电话", PublishField::Phone),
    ];

    fn name(self) -> &'static str {
        match self {
            PublishField::BirthYear => "birth_year",
            PublishField::Grade => "grade",
            PublishField::Disabled => "disabled",
            PublishField::Local => "local",
            PublishField::IdNumber => "id_number",
            PublishField::Phone => "phone",
        }
    }
}

/// `[publish]`: the player columns published beyond the default ones.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PublishRules {
    /// `fields`: the extra columns, in the order written; empty by default.
    #[serde(default)]
    pub fields: Vec<PublishField>,
}

impl PublishRules {
    /// Whether `field` is published.
    pub fn shows(&self, field: PublishField) -> bool {
        self.fields.contains(&field)
    }
}

/// Reads `[publish]`, reporting an unknown key, an unknown field (with the nearest
/// name) and a field listed twice.
pub(super) fn parse_publish(ctx: &mut Ctx, root: &Sec) -> PublishRules {
    let mut rules = PublishRules::default();
    let Some(sec) = root.sub(ctx, "publish") else {
        return rules;
    };
    sec.check_keys(ctx, PUBLISH_KEYS);
    let path = sec.key_path("fields");
    for (i, (name, span)) in sec.strings(ctx, "fields").into_iter().flatten().enumerate() {
        match PublishField::parse(&name) {
            None => ctx.report(
                span,
                format!("{path}[{i}]"),
                unknown_name_message::<PublishField>(&name, ("可公开的字段", "field to publish")),
            ),
            Some(f) if rules.fields.contains(&f) => ctx.report(
                span,
                format!("{path}[{i}]"),
                Text::new(
                    format!("`{name}` 列了两次；每个字段只列一次"),
                    format!("`{name}` is listed twice; list each field once"),
                ),
            ),
            Some(f) => rules.fields.push(f),
        }
    }
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulebook::Rulebook;

    const BASE: &str = "[event]\nname = \"t\"\nrounds = 5\n[[groups]]\nid = \"open\"\n";

    #[test]
    fn nothing_personal_is_published_by_default() {
        let r = Rulebook::from_toml(BASE, "r.toml").unwrap();
        assert_eq!(r.publish, PublishRules::default());
    }

    #[test]
    fn fields_are_read_with_their_chinese_names() {
        let r = Rulebook::from_toml(
            &format!("{BASE}[publish]\nfields = [\"birth_year\", \"残疾\", \"phone\"]\n"),
            "r.toml",
        )
        .unwrap();
        assert_eq!(
            r.publish.fields,
            [
                PublishField::BirthYear,
                PublishField::Disabled,
                PublishField::Phone
            ]
        );
        let back = Rulebook::from_toml(&r.to_effective_toml(), "e.toml").unwrap();
        assert_eq!(back, r);
        assert!(
            r.to_effective_toml()
                .contains("[publish]\nfields = [\"birth_year\", \"disabled\", \"phone\"]")
        );
    }

    #[test]
    fn mistakes_are_all_reported() {
        let e = Rulebook::from_toml(
            &format!(
                "{BASE}[publish]\nfield = []\nfields = [\"birthyear\", \"grade\", \"grade\", 3]\n"
            ),
            "r.toml",
        )
        .unwrap_err()
        .to_string();
        for want in [
            "unknown key `field`; did you mean `fields`?",
            "unknown field to publish `birthyear`",
            "did you mean `birth_year`?",
            "`grade` is listed twice",
            "publish.fields[3]",
        ] {
            assert!(e.contains(want), "{want}: {e}");
        }
    }
}
