//! One file per command (xsv `src/cmd/*.rs`).

pub mod certificates;
pub mod completions;
pub mod demo;
pub mod export;
pub mod group;
pub mod import;
pub mod init;
pub mod log;
pub mod pair;
pub mod players;
pub mod prizes;
pub mod result;
pub mod round;
pub mod rules;
pub mod serve;
pub mod standings;
pub mod team;
pub mod template;
