//! Renderers: one computed view, several output formats.
//!
//! A command builds a [`Report`] (titled sections of text cells plus the structured JSON
//! value behind them) and one renderer per format turns it into text. Renderers never
//! decide anything; every value they print has already been computed (and masked, where
//! it is personal data) by the caller.

mod csv;
mod html;
mod json;
pub mod publish;
pub mod safe;
mod table;
pub mod trf;
pub mod xlsx;

pub(crate) use json::{Deferred, SortedKeys, Streamed};

use serde::Serialize;

/// Whether a view builds [`Report::json`] beside its rows. Only the JSON renderer
/// ([`Format::Json`]) and the whole-event JSON read that value; for 100,000 players making
/// and freeing it was about a third of `standings` and of `export` in the table, CSV and
/// HTML formats. The large views (players, standings, crosstable, pairing sheet) take it
/// as an argument, so the caller that knows the output format decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Json {
    /// Build the JSON value: the output is JSON, or the caller reads the value.
    #[default]
    Build,
    /// The output is JSON, printed as the view makes it: a large view may write the text
    /// itself ([`Report::json_text`]) by streaming its `Serialize`, never holding the
    /// document as a `serde_json::Value` tree (for 100,000 players a tree of the standings
    /// took over 1 GB); a view that cannot builds the value as for [`Json::Build`].
    Text,
    /// Leave [`Report::json`] `null`: the output is a table, CSV, HTML or a workbook.
    LeaveOut,
}

impl Json {
    /// What output in `format` needs: the value for JSON, nothing for the others.
    pub fn for_format(format: Format) -> Json {
        match format {
            Format::Json => Json::Build,
            Format::Table | Format::Csv | Format::Html => Json::LeaveOut,
        }
    }

    /// Whether the view should make the JSON (as a value, or as text where it can).
    pub fn wanted(self) -> bool {
        self != Json::LeaveOut
    }

    /// Whether the view may write [`Report::json_text`] instead of [`Report::json`].
    pub fn as_text(self) -> bool {
        self == Json::Text
    }

    /// For a view whose value is put together with others' (one array of pools, two
    /// stages in one document): [`Json::Build`] if the JSON is wanted at all, since a
    /// value written as text cannot be put together.
    pub fn built(self) -> Json {
        if self.wanted() { Json::Build } else { self }
    }

    /// The rows a view puts in its table: none when its JSON is written as text (the
    /// table is then never shown), else all of them.
    pub fn rows_shown<T>(self, rows: &[T]) -> &[T] {
        if self.as_text() { &[] } else { rows }
    }
}

/// Output formats every read command accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A terminal table (the default), fitted to the terminal's width.
    Table,
    /// CSV with a byte-order mark for Chinese Excel, formula-like cells made inert
    /// (docs/architecture.md §7).
    Csv,
    /// The structured value behind the report, for scripts and other programs.
    Json,
    /// A standalone page to print or publish, every value escaped.
    Html,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "table" | "text" => Ok(Format::Table),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            "html" => Ok(Format::Html),
            other => Err(format!(
                "unknown format `{other}`: use one of table, csv, json, html"
            )),
        }
    }
}

/// Column alignment in the table renderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Align {
    /// Text: names, units, reasons (the default).
    Left,
    /// Numbers: places, points, tiebreaks, money; also right-aligned in HTML and xlsx.
    Right,
}

/// What a blacked-out cell holds (a round robin's diagonal, docs/rules.md §14.5): the HTML
/// page paints it black, the workbook fills it black.
pub const BLACKED_OUT: &str = "■";

/// One titled table of a report.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Section {
    /// The table's heading (e.g. a group's or a prize list's name).
    pub title: String,
    /// Column headers in the report's language; the CSV header row.
    pub columns: Vec<String>,
    /// Per column: how the table, HTML and xlsx renderers align it.
    pub align: Vec<Align>,
    /// The cells, one `Vec` per row in column order, already computed and masked.
    pub rows: Vec<Vec<String>>,
    /// Lines printed under the table (totals, notes).
    pub notes: Vec<String>,
    /// Per column: whether a terminal too narrow for the whole table may leave it out
    /// (saying so under the table), e.g. the masked ID and phone numbers of `players`.
    pub optional: Vec<bool>,
    /// What the section is of, in a few words, where its title is a sentence (a group's
    /// name under `成人组 第3轮进行中：2 台尚无成绩`): a workbook names its sheet by it.
    /// Empty: the title.
    pub sheet: String,
}

impl Section {
    /// An empty table with these headers, every column left-aligned and shown.
    pub fn new(title: impl Into<String>, columns: Vec<String>) -> Self {
        let align = vec![Align::Left; columns.len()];
        let optional = vec![false; columns.len()];
        Section {
            title: title.into(),
            columns,
            align,
            rows: Vec::new(),
            notes: Vec::new(),
            optional,
            sheet: String::new(),
        }
    }

    /// The section named `sheet` in a workbook ([`Section::sheet`]).
    pub fn sheet(mut self, sheet: impl Into<String>) -> Self {
        self.sheet = sheet.into();
        self
    }

    /// What a workbook names the section's sheet by: [`Section::sheet`], else its title.
    pub fn sheet_title(&self) -> &str {
        if self.sheet.is_empty() {
            &self.title
        } else {
            &self.sheet
        }
    }

    /// Columns a narrow terminal may leave out (the other formats always show them).
    pub fn optional(mut self, cols: &[usize]) -> Self {
        for &c in cols {
            if let Some(o) = self.optional.get_mut(c) {
                *o = true;
            }
        }
        self
    }

    /// Right-align the given columns (numbers).
    pub fn right(mut self, cols: &[usize]) -> Self {
        for &c in cols {
            if let Some(a) = self.align.get_mut(c) {
                *a = Align::Right;
            }
        }
        self
    }

    /// Appends one row (one cell per column).
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// Removes the given columns where no row has a value (a list without award texts
    /// should not print an empty 奖励 column). Other columns always stay.
    pub fn drop_empty(mut self, optional: &[usize]) -> Self {
        let empty: Vec<usize> = optional
            .iter()
            .copied()
            .filter(|&c| {
                c < self.columns.len()
                    && self
                        .rows
                        .iter()
                        .all(|r| r.get(c).is_none_or(String::is_empty))
            })
            .collect();
        self.columns = without(self.columns, &empty);
        self.align = without(self.align, &empty);
        self.optional = without(self.optional, &empty);
        self.rows = self.rows.into_iter().map(|r| without(r, &empty)).collect();
        self
    }
}

/// `items` without the entries at the positions in `drop`.
fn without<T>(items: Vec<T>, drop: &[usize]) -> Vec<T> {
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, x)| x)
        .collect()
}

/// What a read command produces.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Page title (event name and what this is).
    pub title: String,
    /// Lines under the title (dates, round, group).
    pub subtitle: Vec<String>,
    /// The tables, in order (e.g. one per group or prize list).
    pub sections: Vec<Section>,
    /// The structured value behind the report, for `--format json`.
    pub json: serde_json::Value,
    /// The same document already written as pretty-printed JSON text (no final newline),
    /// when asked for with [`Json::Text`]: `--format json` prints it instead of [`json`](Self::json).
    pub json_text: Option<String>,
    /// Text printed at the end of the table and HTML formats: hints, warnings, the
    /// `--explain` reasons (JSON carries them in `json`).
    pub footer: Vec<String>,
    /// One flat table for `--format csv` instead of the sections (e.g. the prize sheet:
    /// one row per award for the finance office).
    pub csv: Option<Section>,
    /// For `--format csv` without [`csv`](Self::csv): the sections as one table, each row
    /// behind its section's [`Section::sheet_title`] in a first column with this header
    /// (every group's standings: `组别`), each value under its own header. Merged as the
    /// CSV is written, so the other formats never copy the rows.
    pub csv_merged: Option<String>,
    /// Page language for the HTML `lang` attribute.
    pub lang: String,
}

impl Report {
    /// An empty report with this title, its HTML language Chinese until the view sets it.
    pub fn new(title: impl Into<String>) -> Self {
        Report {
            title: title.into(),
            lang: "zh".into(),
            ..Report::default()
        }
    }

    /// Sets the report's JSON to the document `make` returns, as `json` asks: written as
    /// text ([`Json::Text`], streamed, never a value tree), built as the value
    /// ([`Json::Build`]), or left `null` without making it ([`Json::LeaveOut`]: a
    /// document may cost work, the standings' tiebreak values). Text and value come from
    /// the one `Serialize`, so they cannot say different things; the document writes its
    /// keys in alphabetical order (see [`SortedKeys`]) so the text reads as the value
    /// prints.
    pub fn set_json<T: Serialize>(&mut self, json: Json, make: impl FnOnce() -> T) {
        if json.as_text() {
            self.json_text = Some(json::pretty(&make()));
        } else if json.wanted() {
            self.json = serde_json::to_value(make()).unwrap_or_default();
        }
    }

    /// The report as text in `format`, by that format's one renderer.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Table => table::render(self),
            Format::Csv => csv::render(self),
            Format::Json => json::render(self),
            Format::Html => html::render(self),
        }
    }
}

impl Report {
    /// The report as an Excel workbook (`--format xlsx`): binary, so it is not a
    /// [`Format`] of [`Report::render`]; see [`xlsx`].
    pub fn render_xlsx(&self) -> Result<Vec<u8>, xlsx::WorkbookError> {
        xlsx::render(self)
    }
}

// Pages are made only from [`Markup`]: the string-taking `html::page` and `html::escape_into`
// stay inside the renderer, so no view can build HTML with `format!`.
pub use html::{
    Markup, PAGE_CSS, body_markup as html_body_markup,
    body_markup_stacked as html_body_markup_stacked,
    body_markup_stacked_into as html_body_markup_stacked_into,
    body_markup_with as html_body_markup_with, page_of as html_page_of,
    page_of_made as html_page_of_made, page_with_head as html_page_with_head,
    stacked_bytes as html_stacked_bytes,
};

#[cfg(test)]
mod tests {
    use super::Json;

    /// A value put together with others is built whenever JSON is wanted, and a table's
    /// rows are left out only when the JSON is written as text.
    #[test]
    fn json_modes_decide_building_and_rows() {
        assert_eq!(Json::Text.built(), Json::Build);
        assert_eq!(Json::Build.built(), Json::Build);
        assert_eq!(Json::LeaveOut.built(), Json::LeaveOut);
        let rows = [1, 2, 3];
        assert!(Json::Text.rows_shown(&rows).is_empty());
        assert_eq!(Json::Build.rows_shown(&rows), &rows);
        assert_eq!(Json::LeaveOut.rows_shown(&rows), &rows);
    }

    /// `set_json` writes the text, builds the value or leaves both out (without making
    /// the document), as asked; the text reads as the value pretty-printed.
    #[test]
    fn set_json_writes_text_or_value_as_asked() {
        let document = serde_json::json!({ "a": [1, 2], "b": "二" });
        let mut text = super::Report::default();
        text.set_json(Json::Text, || &document);
        let mut built = super::Report::default();
        built.set_json(Json::Build, || &document);
        let mut none = super::Report::default();
        none.set_json(Json::LeaveOut, || -> serde_json::Value {
            panic!("made for output that leaves the JSON out")
        });
        assert!(text.json.is_null() && built.json_text.is_none());
        assert_eq!(built.json, document);
        assert!(none.json.is_null() && none.json_text.is_none());
        assert_eq!(
            text.render(super::Format::Json),
            built.render(super::Format::Json)
        );
    }
}
