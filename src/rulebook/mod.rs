//! The rulebook: TOML schema, validation and the effective rules.
//!
//! Owns turning an organiser's TOML into a validated [`Rulebook`]; every problem is
//! collected with its line, column and key path. Must not read event state or files
//! other than the rulebook text it is given.

pub mod bounds;
mod effective;
mod error;
mod lenient;
mod names;
mod parse;
mod publish;
mod reader;
mod types;

pub use crate::i18n::Lang;
pub(crate) use error::line_column;
pub use error::{Problem, RulebookErrors};
pub use lenient::{name_groups_zh, rulebook_group_names, rulebook_language};
pub use parse::{relax_list, relax_rule, relax_rule_name};
pub use publish::{PublishField, PublishRules};
pub use types::*;
