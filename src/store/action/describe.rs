//! A whole audit line worded: its action, or an undo or redo by the line it took back.

use super::{Action, Names};
use crate::i18n::bi;
use crate::store::{AuditEntry, EntryKind};

/// What an audit line did, in `names.lang`, players and groups named as `names` has them:
/// the action worded, an undo or redo by the line it took back, `init` as creating the
/// event (in Chinese). A line without an action (written before actions existed) shows
/// its English summary.
pub fn describe(entry: &AuditEntry, entries: &[AuditEntry], names: &Names) -> String {
    describe_at(entry, entries, names, 0)
}

fn describe_at(entry: &AuditEntry, entries: &[AuditEntry], names: &Names, depth: u32) -> String {
    let find = |seq: Option<u64>| {
        seq.and_then(|s| entries.iter().find(|e| e.seq == s))
            .filter(|_| depth < 8)
    };
    let summary = crate::privacy::mask_free_text(&entry.summary);
    match entry.kind {
        // The summary is already the English; the Chinese takes its count of players.
        EntryKind::Init => {
            let players = entry
                .summary
                .split_whitespace()
                .find_map(|w| w.parse::<usize>().ok())
                .filter(|&n| n > 0);
            match players {
                Some(n) => bi!(names.lang, zh("创建赛事（{n} 名棋手）"), en("{summary}")),
                None => bi!(names.lang, zh("创建赛事"), en("{summary}")),
            }
        }
        EntryKind::Change => match Action::of(entry) {
            Some(action) => action.text(names),
            None => summary,
        },
        EntryKind::Undo => match find(entry.undoes) {
            Some(target) => {
                let what = describe_at(target, entries, names, depth + 1);
                bi!(
                    names.lang,
                    zh("撤销第 {} 步：{what}", target.seq),
                    en("undid #{}: {what}", target.seq)
                )
            }
            None => summary,
        },
        EntryKind::Redo => {
            let reapplies = entry
                .details
                .get("reapplies")
                .and_then(serde_json::Value::as_u64);
            match find(reapplies) {
                Some(target) => {
                    let what = describe_at(target, entries, names, depth + 1);
                    bi!(
                        names.lang,
                        zh("重做第 {} 步：{what}", target.seq),
                        en("redid #{}: {what}", target.seq)
                    )
                }
                None => summary,
            }
        }
    }
}
