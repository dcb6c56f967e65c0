//! The commands that change an event, each as one library call: the request as the
//! command line gave it (already parsed), the event directory ([`crate::store::Store`])
//! and the command's identity for the audit log in, and back what the command prints.
//! Everything between parsing and printing is here: the decisions (`pairing`), the
//! storing (`store`), the dry runs that store nothing or only a draw's seed, and the
//! sheets (`views`). The binary only parses, calls, and renders what comes back.
//!
//! [`pair`] owns `pair`, `pair --all`, `pairing set|swap` and `unpair` of an individual
//! event (a team event's are still made by the binary from `teams`' calls).

pub mod pair;
