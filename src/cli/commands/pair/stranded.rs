//! Players registered in a group merged away or cancelled and not withdrawn: in no pool's
//! rounds, so `check` names and counts them (and fails) and `pair` notes them on standard
//! error (docs/rules.md §6). Which players they are is the library's
//! (`registration::stranded_players`); here they are said.

use qiwang::i18n::{Localize, Text, plural};
use qiwang::model::{Event, GroupId};
use qiwang::registration::{PoolNow, pool_now, stranded_players};
use qiwang::report::Section;
use qiwang::rulebook::{Lang, Rulebook};

/// Adds each stranded player that a check of `pools` covers (every one for `None`) to
/// `check`'s lines, table and JSON; returns how many there were. A pool's check covers
/// those whose group was merged into it (as an arbiter checks the pool a merged group
/// plays in), and a cancelled pool's those registered there or merged into it.
pub(super) fn report(
    event: &Event,
    rules: &Rulebook,
    lang: Lang,
    pools: Option<&[GroupId]>,
    lines: &mut Vec<String>,
    section: &mut Section,
    json: &mut Vec<serde_json::Value>,
) -> usize {
    let mut unpaired = 0;
    for s in stranded_players(event, rules)
        .iter()
        .filter(|s| pools.is_none_or(|p| p.contains(&s.now) || p.contains(&s.pool)))
    {
        let text = s.localize(lang);
        lines.push(format!("{}{text}", lang.pick("未编排：", "not paired: ")));
        section.push(vec![s.group.clone(), "0".into(), text.clone()]);
        json.push(serde_json::json!({
            "group": s.pool.to_string(),
            "rounds": 0,
            "violations": [text],
            "player": s.id,
        }));
        unpaired += 1;
    }
    unpaired
}

/// The words of `check`'s refusal when `unpaired` players are stranded (and `total` violations
/// found besides).
pub(super) fn refusal(unpaired: usize, total: usize) -> Text {
    let (zh, en) = (
        format!("有 {unpaired} 名棋手登记在不再编排的组别，不会被编排"),
        format!(
            "{} registered in a group that is no longer paired, and never paired",
            plural(unpaired, "player is", "players are")
        ),
    );
    let (zh, en) = match total {
        0 => (zh, en),
        n => {
            let also = super::hard_rule_violations(n);
            (
                format!("{zh}；另{}", also.zh),
                format!("{en}; and {}", also.en),
            )
        }
    };
    Text::new(zh, en)
}

/// Warns on standard error of each stranded player whose group leads to `pool` (every one
/// for `None`): `pair` pairs around them, but not silently.
pub(super) fn warn(event: &Event, rules: &Rulebook, lang: Lang, pool: Option<&GroupId>) {
    for s in stranded_players(event, rules) {
        let leads_here = match pool {
            None => true,
            Some(p) => pool_now(event, &s.pool) == PoolNow::Pairs(p.clone()),
        };
        if leads_here {
            errln!(
                "{}{}",
                lang.pick("注意：不会被编排：", "note: not paired: "),
                s.localize(lang)
            );
        }
    }
}
