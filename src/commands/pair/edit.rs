//! The hand changes to a pool's newest round, each one call: `pairing swap|set`
//! ([`edit_pool`]: the edit made, checked and stored with its audit entry, and the
//! round's sheet) and `unpair` ([`unpair_pool`]: the round dropped while it has no
//! result). The edit itself is decided by `pairing::edit_round` and `pairing::unpair_round`.

use crate::i18n::{Localize, Text, display_english};
use crate::model::GroupId;
use crate::pairing::{self, Edit, EditError, PairingError};
use crate::report::{Json, Report};
use crate::rulebook::{Lang, Rulebook};
use crate::store::action::Action;
use crate::store::{CommandInfo, Store, TxError};

/// A hand edit refused (nothing stored), its message naming the players as the sheets
/// of the round's event name them (`张三(12)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditRefused {
    /// Why the edit was refused.
    pub error: EditError,
    /// [`EditError::text`], with the players named.
    text: Text,
}

display_english!(EditRefused);

impl std::error::Error for EditRefused {}

impl Localize for EditRefused {
    fn localize(&self, lang: Lang) -> String {
        self.text.get(lang).to_string()
    }
}

/// `qiwang pairing swap|set`: makes `edit` of the newest round of `pool` on the event in
/// `store` (`pairing::edit_round`: the edit, the hard-rule check, `force`, the stale
/// relaxations), stores it with its audit entry (the hard rules it breaks by force named
/// there) and returns the round's sheet, in `lang`, with its JSON if `json` asks.
pub fn edit_pool(
    store: &Store,
    command: &CommandInfo,
    rules: &Rulebook,
    pool: &GroupId,
    edit: Edit,
    force: bool,
    (lang, json): (Lang, Json),
) -> Result<Report, TxError<EditRefused>> {
    store.transaction(command, |ev| {
        let edited = pairing::edit_round(ev, rules, pool, edit, force).map_err(|error| {
            let text = error.text(&|id| ev.player_label(id));
            EditRefused { error, text }
        })?;
        let number = edited.round;
        let forced: Vec<String> = edited.forced.iter().map(ToString::to_string).collect();
        let shown = crate::views::names_and_units_masked(ev);
        let report = crate::views::pairing_sheet(&shown, rules, pool, number, lang, json);
        let details = serde_json::json!({
            "group": pool,
            "round": number,
            "pairings": edited.pairings,
            "forced": forced,
        });
        let action = Action::RoundEdited {
            group: pool.clone(),
            round: number,
            forced: edited.forced,
        };
        Ok(action.change(report, details))
    })
}

/// `qiwang unpair`: drops the newest round of `pool` on the event in `store` while it has
/// no result (`pairing::unpair_round`), with its audit entry; returns the round's number.
pub fn unpair_pool(
    store: &Store,
    command: &CommandInfo,
    pool: &GroupId,
) -> Result<u32, TxError<PairingError>> {
    unpair_with(store, command, pool, pairing::unpair_round)
}

/// Drops the newest round of `pool` by `drop` (an individual pool's rounds, a team pool's
/// rounds of matches) in a transaction of `store` with its audit entry (`Unpaired`);
/// returns the round's number.
pub(super) fn unpair_with<E>(
    store: &Store,
    command: &CommandInfo,
    pool: &GroupId,
    drop: impl FnOnce(&mut crate::model::Event, &GroupId) -> Result<u32, E>,
) -> Result<u32, TxError<E>> {
    store.transaction(command, |ev| {
        let number = drop(ev, pool)?;
        Ok(Action::Unpaired {
            group: pool.clone(),
            round: number,
        }
        .change(
            number,
            serde_json::json!({ "group": pool, "round": number }),
        ))
    })
}
