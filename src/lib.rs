//! qiwang (棋王): a tournament director for Swiss-system xiangqi events run under the
//! Chinese Xiangqi Association rules.
//!
//! The library decides everything; the binary (`src/main.rs`, `src/cli/`) parses
//! arguments, calls one library function and prints. Dependencies point one way, down
//! the layers of docs/architecture.md §1: `{commands, demo, serve} → views/store → report/rules_update → teams → {pairing, results,
//! prizes} → standings → {registration, scoring} → rulebook → model → {i18n, sanitize}`;
//! no module imports from a layer above its own.
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod argv;
pub mod commands;
pub mod demo;
pub mod formats;
pub mod i18n;
pub mod input;
pub mod lookup;
pub mod model;
pub mod pairing;
pub mod panics;
pub mod privacy;
pub mod prizes;
pub mod registration;
pub mod report;
pub mod results;
pub mod rulebook;
pub mod rules_update;
pub mod sanitize;
pub mod schedule;
pub mod scoring;
pub mod serve;
pub mod simulate;
pub mod standings;
pub mod store;
pub mod teams;
mod threads;
pub mod views;
