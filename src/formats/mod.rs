//! Formats other than the Swiss system: who plays whom when the schedule is fixed in
//! advance (round robin by Berger tables) or follows a bracket (knockout matches and their
//! tiebreak games). The Swiss engine lives in `pairing`.
//!
//! Owns schedules, never results or standings: a schedule is a pure function of the
//! number of players (and cycles); recording, ranking and printing use the same machinery
//! as every other group. Must not read files, print or draw random numbers.

pub mod knockout;
pub mod round_robin;
