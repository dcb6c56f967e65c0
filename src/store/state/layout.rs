//! The layout of `qiwang.json`: a record a line. The event's own keys, its pools and each
//! round are laid out as indented JSON (two spaces, as `serde_json`'s pretty printer
//! does), and every element of a list — a player, a game, a penalty — is written whole on
//! one line.
//!
//! A line is what the history's deltas (`linediff`) copy or add, and what a person reading
//! the file with `grep` or a text editor finds: a player or a game is one. Written fully
//! indented, a 100,000-player event after nine rounds was 179 MB in 7.25 million lines;
//! a record a line it is about half the bytes in under 600,000 lines, and every change
//! writes, compares and stores it.
//!
//! The elements of a list named `rounds` are the exception: a round holds the list of its
//! games, and stays indented so that each game is a line.

use serde_json::ser::Formatter;
use std::io::{self, Write};

/// A `serde_json` formatter for the layout above.
#[derive(Default)]
pub(super) struct Records {
    /// How deep the indented part is.
    indent: usize,
    /// Whether the container being closed had a value (`serde_json`'s pretty printer
    /// keeps one flag the same way: every value of a container sets it when it ends).
    has_value: bool,
    /// Per open indented container: whether it is a list whose elements are records.
    lists_of_records: Vec<bool>,
    /// The key being written and the last one written, for the name of a list.
    key: Vec<u8>,
    in_key: bool,
    /// An element of a list of records is about to be written.
    pending: bool,
    /// How many containers of the record being written are open; 0 outside one.
    inside: usize,
}

/// The list whose elements stay indented: a round holds its games.
const INDENTED_LIST: &[u8] = b"rounds";

impl Records {
    /// A new line at the indented part's depth, after a comma unless `first`.
    fn newline_and_indent<W: ?Sized + Write>(&self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent_to(w)
    }

    fn indent_to<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        for _ in 0..self.indent {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Before a record's own value or key: a comma unless `first`; `None` outside a
    /// record.
    fn comma_inside<W: ?Sized + Write>(&self, w: &mut W, first: bool) -> Option<io::Result<()>> {
        (self.inside > 0).then(|| if first { Ok(()) } else { w.write_all(b",") })
    }

    /// Opens a container: a record's own, or an indented one.
    fn begin<W: ?Sized + Write>(&mut self, w: &mut W, open: &[u8], list: bool) -> io::Result<()> {
        if self.inside > 0 || std::mem::take(&mut self.pending) {
            self.inside += 1;
        } else {
            self.indent += 1;
            self.has_value = false;
            self.lists_of_records
                .push(list && self.key != INDENTED_LIST);
        }
        w.write_all(open)
    }

    /// Closes a container.
    fn end<W: ?Sized + Write>(&mut self, w: &mut W, close: &[u8]) -> io::Result<()> {
        if self.inside > 0 {
            self.inside -= 1;
        } else {
            self.indent -= 1;
            self.lists_of_records.pop();
            if self.has_value {
                w.write_all(b"\n")?;
                self.indent_to(w)?;
            }
        }
        w.write_all(close)
    }
}

impl Formatter for Records {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, b"[", true)
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if let Some(done) = self.comma_inside(w, first) {
            return done;
        }
        self.pending = self.lists_of_records.last() == Some(&true);
        self.newline_and_indent(w, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        if self.inside == 0 {
            self.pending = false;
            self.has_value = true;
        }
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, b"{", false)
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if let Some(done) = self.comma_inside(w, first) {
            return done;
        }
        self.key.clear();
        self.in_key = true;
        self.newline_and_indent(w, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.in_key = false;
        Ok(())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(if self.inside > 0 { b":" } else { b": " })
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        if self.inside == 0 {
            self.has_value = true;
        }
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if self.in_key {
            self.key.extend_from_slice(fragment.as_bytes());
        }
        w.write_all(fragment.as_bytes())
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> io::Result<()> {
        if self.in_key {
            // A key with an escaped character is never the name of the indented list.
            self.key.push(b'\\');
        }
        serde_json::ser::CompactFormatter.write_char_escape(w, escape)
    }
}
