//! Every integration test in one binary (one link instead of fifteen), as casey/just's
//! `tests/` does. Each module is one area; `common` holds the helpers that drive the binary.

mod acceptance;
mod arbiter;
mod cases;
mod chinese_event;
mod cli;
mod common;
mod crash;
mod error_texts;
mod examples;
mod excel;
mod fuzz;
mod guide;
mod hostile;
mod i18n;
mod knockout;
mod pairing_invariants;
mod privacy;
mod prizes;
mod published;
mod registration;
mod relax;
mod results_check;
mod round_robin;
mod rule_changes;
mod rulebook_values;
mod rulebooks;
mod schema;
mod standings;
mod store;
mod trf;
mod workbook_limits;
