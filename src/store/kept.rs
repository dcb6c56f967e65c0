//! The bytes of `qiwang.json` a command read its event from ([`Kept`]), kept until the
//! change it makes: under the lock, a state file that still holds exactly those bytes is
//! not read into an event and checked a second time (the same bytes decode to the same
//! event, already checked). At 100,000 players that second reading was a quarter of a
//! whole round's `result --from` (86 MB of JSON); comparing the bytes takes milliseconds.

use super::{Store, StoreError, fsio, state};
use crate::model::Event;

/// The exact bytes an event was read from ([`Store::load_kept`]).
pub struct Kept {
    bytes: Vec<u8>,
}

impl Store {
    /// [`Store::load`], with the bytes it read kept for [`Store::transaction_on`] and
    /// [`Store::undo_on`].
    pub fn load_kept(&self) -> Result<(Event, Kept), StoreError> {
        let (bytes, event) = self.read_state()?;
        Ok((event, Kept { bytes }))
    }

    /// The state as it is now, under the lock: its bytes and its event. `kept` (with the
    /// event it was read with) is used when the file still holds exactly its bytes; else
    /// the file is read and checked afresh.
    pub(super) fn read_state_kept(
        &self,
        kept: Option<(Kept, Event)>,
    ) -> Result<(Vec<u8>, Event), StoreError> {
        let Some((kept, event)) = kept else {
            return self.read_state();
        };
        let path = self.state_path();
        let bytes = fsio::read(&path)?;
        if bytes == kept.bytes {
            return Ok((bytes, event));
        }
        drop((kept, event));
        let event = state::decode(&path, &bytes, || state::recovery_hint(&self.history_dir()))?;
        Ok((bytes, event))
    }

    /// The bytes of the state as it is now, under the lock, checked as [`Store::load`]
    /// checks them unless they are exactly `kept`'s (checked when it was read).
    pub(super) fn state_bytes_kept(&self, kept: Option<Kept>) -> Result<Vec<u8>, StoreError> {
        let path = self.state_path();
        let bytes = fsio::read(&path)?;
        if kept.is_none_or(|k| k.bytes != bytes) {
            state::decode(&path, &bytes, || state::recovery_hint(&self.history_dir()))?;
        }
        Ok(bytes)
    }
}
