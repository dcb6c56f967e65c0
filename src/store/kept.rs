//! The event a command read and the bytes of `qiwang.json` it was read from, one value
//! ([`Kept`]), kept until the change it makes: under the lock, a state file that still holds exactly those bytes is
//! not read into an event and checked a second time (the same bytes decode to the same
//! event, already checked). At 100,000 players that second reading was a quarter of a
//! whole round's `result --from` (86 MB of JSON); comparing the bytes takes milliseconds.

use super::{Store, StoreError, fsio, state};
use crate::model::Event;

/// An event as [`Store::load_kept`] read it, with the exact bytes it was read from: one
/// value, so a change made on it ([`Store::transaction_on`]) can only be handed the
/// event those bytes hold.
pub struct Kept {
    pub(super) bytes: Vec<u8>,
    pub(super) event: Event,
}

impl Kept {
    /// The event read.
    pub fn event(&self) -> &Event {
        &self.event
    }

    /// The event read, for a command that changes it by another way than
    /// [`Store::transaction_on`] (the bytes are dropped).
    pub fn into_event(self) -> Event {
        self.event
    }
}

impl Store {
    /// [`Store::load`], the event kept with the bytes it was read from for
    /// [`Store::transaction_on`].
    pub fn load_kept(&self) -> Result<Kept, StoreError> {
        let (bytes, event) = self.read_state()?;
        Ok(Kept { bytes, event })
    }

    /// The state as it is now, under the lock: its bytes, its event and the stamp of the
    /// file they were read from ([`fsio::read_stamped`]). `kept`'s event is used when the
    /// file still holds exactly its bytes; else the file is checked afresh.
    pub(super) fn read_state_kept(
        &self,
        kept: Option<Kept>,
    ) -> Result<(Vec<u8>, Event, fsio::Stamp), StoreError> {
        let path = self.state_path();
        let (bytes, stamp) = fsio::read_stamped(&path)?;
        let event = match kept {
            Some(kept) if bytes == kept.bytes => kept.event,
            other => {
                drop(other);
                state::decode(&path, &bytes, || self.recovery_hint())?
            }
        };
        Ok((bytes, event, stamp))
    }
}
