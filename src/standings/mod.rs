//! Standings: scores, every tiebreak, ranking and the crosstable.
//!
//! Pure functions of (event, rulebook, round): computed on demand, never stored. Must
//! not read files or print.

mod types;

pub use types::*;
