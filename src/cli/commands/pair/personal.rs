//! Players whose stored name or unit holds an ID or phone number (kept by an older qiwang
//! or a hand edit of the state): every output prints them masked, and `check` names each
//! with the command that corrects it, and fails. Which players they are, and the words,
//! are the library's (`commands::check::personal_numbers`); here they are said.

use qiwang::commands::check::{PersonalNumber, personal_numbers};
use qiwang::i18n::{Localize, Text, plural};
use qiwang::model::{Event, GroupId};
use qiwang::rulebook::{Lang, Rulebook};

/// Each player of `pools` (every one for `None`) whose name or unit holds a personal
/// number, the number masked, as `check` says it: its line, its row of the table and its
/// JSON entry.
pub(super) fn findings(
    event: &Event,
    rules: &Rulebook,
    lang: Lang,
    pools: Option<&[GroupId]>,
) -> Vec<(String, Vec<String>, serde_json::Value)> {
    personal_numbers(event, pools)
        .iter()
        .map(|f| {
            let text = f.localize(lang);
            let rounds = event.group(&f.pool).map_or(0, |g| g.rounds.len());
            let entry = serde_json::json!({
                "group": f.pool.to_string(),
                "rounds": rounds,
                "violations": [&text],
                "player": f.player,
                "field": if f.in_unit { "unit" } else { "name" },
            });
            let row = vec![rules.group_name(&f.pool), rounds.to_string(), text];
            (line(f, lang), row, entry)
        })
        .collect()
}

/// `check`'s line naming `f`.
pub(crate) fn line(f: &PersonalNumber, lang: Lang) -> String {
    format!(
        "{}{}",
        lang.pick("个人信息：", "personal data: "),
        f.localize(lang)
    )
}

/// `check`'s refusal `found` (none when nothing else failed) with the `personal` names
/// and units holding a personal number added.
pub(crate) fn and(found: Option<Text>, personal: usize) -> Option<Text> {
    if personal == 0 {
        return found;
    }
    let said = Text::new(
        format!("有 {personal} 处姓名或单位含有身份证号或电话号码"),
        format!(
            "{} an ID or phone number",
            plural(personal, "name or unit holds", "names or units hold")
        ),
    );
    Some(match found {
        None => said,
        Some(f) => Text::new(
            format!("{}；另{}", f.zh, said.zh),
            format!("{}; and {}", f.en, said.en),
        ),
    })
}
