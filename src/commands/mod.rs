//! Commands as one library call each: the request as the command line gave it (already
//! parsed) in, with the event directory ([`crate::store::Store`]) and the command's
//! identity for the audit log when the command changes the event, and back what the
//! command prints. Everything between parsing and printing is here: the decisions
//! (`pairing`), the storing (`store`), the dry runs that store nothing or only a draw's
//! seed, and the sheets (`views`). The binary only parses, calls, and renders what comes
//! back.
//!
//! [`pair`] owns `pair`, `pair --all`, `pairing set|swap` and `unpair` of an individual
//! event, and `pair` and `unpair` of a team event; [`check`] owns `check` and `check
//! --optimal` of both; [`import`] owns `import` and `import --dry-run`.

pub mod check;
pub mod import;
pub mod pair;
