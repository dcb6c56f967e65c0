//! JSON: the structured value behind the report, pretty-printed; and the pieces that let
//! a large document be written as it is made instead of built whole as a value first.

use super::Report;
use serde::{Serialize, Serializer};

pub fn render(report: &Report) -> String {
    match &report.json_text {
        // The text may be hundreds of megabytes: copied once, with room for the newline.
        Some(text) => {
            let mut s = String::with_capacity(text.len() + 1);
            s.push_str(text);
            s.push('\n');
            s
        }
        None => {
            let mut s =
                serde_json::to_string_pretty(&report.json).unwrap_or_else(|_| "null".into());
            s.push('\n');
            s
        }
    }
}

/// A value serialised with every object's keys in alphabetical order, as a
/// [`serde_json::Value`] prints them (its objects are `BTreeMap`s: serde_json's
/// `preserve_order` feature is off). Wraps the small pieces of a streamed document (one
/// player, one round) whose types declare their fields in another order, so the document
/// reads byte for byte as it did when it was built whole as a `Value`.
pub(crate) struct SortedKeys<T>(pub T);

impl<T: Serialize> Serialize for SortedKeys<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_json::to_value(&self.0)
            .map_err(serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

/// A sequence serialised from an iterator made when it is written, so its items (100,000
/// players' rows) are never all held at once.
pub(crate) struct Streamed<F>(pub F);

impl<F, I> Serialize for Streamed<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// A value made when it is written, not when the document around it is put together (its
/// input may still be being worked out on another thread until then).
pub(crate) struct Deferred<F>(pub F);

impl<F, T> Serialize for Deferred<F>
where
    F: Fn() -> T,
    T: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.0)().serialize(serializer)
    }
}

/// `value` pretty-printed as [`Report::json_text`] holds it: the text of
/// `serde_json::to_string_pretty(&serde_json::to_value(value))` when `value` writes its
/// keys in alphabetical order (see [`SortedKeys`]), made without the value tree.
pub(crate) fn pretty<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| "null".into())
}
