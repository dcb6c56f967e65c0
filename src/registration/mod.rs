//! Registration import: the organiser's Excel workbook (or its CSV export) becomes players.
//!
//! Owns reading registration files (workbook sheets, encoding, delimiter, headers, cell
//! values; several files as one batch), the
//! checks on each row (ID-card checksum and cross-checks, the eligibility of the group
//! named, duplicates) and the masking of personal data. All-or-nothing: every problem is
//! collected with its line and column, and no player is returned unless the whole file
//! is clean. Must not touch the event state or print; the caller stores the players.

pub mod decode;
pub mod eligibility;
pub mod groups;
pub mod headers;
pub mod id_card;
pub mod lookup;
pub mod normalise;
pub mod privacy;
pub mod summary;
pub mod template;
pub mod values;
pub mod xlsx;

pub use decode::{Decoded, Detected, Encoding, decode};
pub use groups::{GroupError, cancel_group, check_pool_size};
pub use id_card::{IdCard, IdError, parse_id_number};
pub use lookup::{LookupError, find_player, find_pool, merged_pool};
pub use privacy::{mask_id_number, mask_phone};
pub use summary::{GroupSize, group_sizes};

use crate::i18n::{Localize, Text};
use crate::model::{Player, PlayerId};
use crate::rulebook::Lang;
use crate::rulebook::{GroupRule, Rulebook};
use headers::{Field, HeaderMap};
use std::collections::BTreeMap;
use std::fmt;

/// How to read a registration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportOptions {
    pub encoding: Encoding,
}

/// One problem in a registration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// 1-based physical line of the file where the row starts.
    pub line: usize,
    /// The column's header as written, when the problem is in one cell.
    pub column: Option<String>,
    /// The offending value as written (ID and phone numbers masked).
    pub value: Option<String>,
    /// What is wrong and how to fix it, in English.
    pub message: String,
    /// The same in Chinese.
    pub message_zh: String,
    /// Where the problem is when `line` alone does not say it: the file of a batch, and
    /// in a workbook the sheet and cell (`报名表!C17`, `line` being the row).
    pub place: Option<Box<Place>>,
}

/// The file, worksheet and column of a problem (the row is [`RowError::line`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub sheet: Option<String>,
    /// 0-based column in the sheet, when the problem is in one cell.
    pub col: Option<usize>,
}

impl Place {
    /// `reg.csv:17`, `reg.xlsx:报名表!C17`, `reg.xlsx:报名表 row 17` (第 17 行).
    pub fn show(&self, line: usize, lang: Lang) -> String {
        match (&self.sheet, self.col) {
            (None, _) => format!("{}:{line}", self.file),
            (Some(sheet), Some(col)) => {
                format!("{}:{sheet}!{}{line}", self.file, xlsx::column_letters(col))
            }
            (Some(sheet), None) => match lang {
                Lang::Zh => format!("{}:{sheet} 第 {line} 行", self.file),
                Lang::En => format!("{}:{sheet} row {line}", self.file),
            },
        }
    }
}

impl RowError {
    /// A problem at `line`, said in both languages.
    pub fn new(line: usize, column: Option<String>, value: Option<String>, text: Text) -> Self {
        RowError {
            line,
            column,
            value,
            message: text.en,
            message_zh: text.zh,
            place: None,
        }
    }

    /// Where the problem is: `place` when set, else `source:line`.
    pub fn at(&self, source: &str, lang: Lang) -> String {
        match &self.place {
            Some(p) => p.show(self.line, lang),
            None => format!("{source}:{}", self.line),
        }
    }

    /// The problem with its place and column, in one language (`reg.xlsx:报名表!C17: …`).
    pub fn located(&self, source: &str, lang: Lang) -> String {
        let at = self.at(source, lang);
        match (lang, &self.column) {
            (Lang::En, Some(c)) => format!("{at}: column `{c}`: {}", self.message),
            (Lang::En, None) => format!("{at}: {}", self.message),
            (Lang::Zh, Some(c)) => format!("{at}：`{c}` 列：{}", self.message_zh),
            (Lang::Zh, None) => format!("{at}：{}", self.message_zh),
        }
    }
}

impl Localize for RowError {
    /// The message without its place (`ImportErrors` adds file, line and column).
    fn localize(&self, lang: Lang) -> String {
        lang.pick(&self.message_zh, &self.message).to_string()
    }
}

/// Every problem found in a registration file; nothing was imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportErrors {
    /// The file as the user named it.
    pub source: String,
    /// In file order.
    pub errors: Vec<RowError>,
}

impl fmt::Display for ImportErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.errors {
            writeln!(f, "{}", e.located(&self.source, Lang::En))?;
        }
        let n = self.errors.len();
        write!(
            f,
            "{n} {} in `{}`; nothing was imported: fix {} and import the file again",
            if n == 1 { "error" } else { "errors" },
            self.source,
            if n == 1 { "it" } else { "them" }
        )
    }
}

impl Localize for ImportErrors {
    fn localize(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        let mut out = String::new();
        for e in &self.errors {
            out.push_str(&e.located(&self.source, Lang::Zh));
            out.push('\n');
        }
        out.push_str(&format!(
            "`{}` 中有 {} 个错误；未导入任何棋手：请改正后重新导入该文件",
            self.source,
            self.errors.len()
        ));
        out
    }
}

impl std::error::Error for ImportErrors {}

/// Reads a registration sheet and returns its players, numbered from `next_id` in file
/// order, each in the pool they are paired in (`group`) and, when they registered under
/// a section such as 残疾人组 or 本地组, that section. `existing` are the players already
/// registered, for the duplicate check when a second file is imported. The file may be a
/// CSV export or a workbook (.xlsx, .xls, .ods); see [`read_batch`] for several files.
pub fn read_registrations(
    bytes: &[u8],
    source: &str,
    opts: &ImportOptions,
    rules: &Rulebook,
    existing: &[Player],
    next_id: PlayerId,
) -> Result<Vec<Player>, ImportErrors> {
    let file = RegistrationFile {
        source: source.to_string(),
        bytes,
    };
    let opts = BatchOptions {
        encoding: opts.encoding,
        ..BatchOptions::default()
    };
    read_batch(std::slice::from_ref(&file), &opts, rules, existing, next_id).map(|i| i.players)
}

/// How to read a batch of registration files (`qiwang import a.xlsx b.xlsx c.csv`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchOptions {
    /// The encoding of CSV files (workbooks carry their own).
    pub encoding: Encoding,
    /// Read only this worksheet of each workbook (`--sheet`).
    pub sheet: Option<String>,
    /// An unknown column is an error instead of a warning (`--strict`).
    pub strict: bool,
}

/// One file of a batch: its name as the user gave it and its bytes.
#[derive(Debug, Clone)]
pub struct RegistrationFile<'a> {
    pub source: String,
    pub bytes: &'a [u8],
}

/// What was read from one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRead {
    pub source: String,
    /// The worksheets read, in workbook order (empty for a CSV file).
    pub sheets: Vec<String>,
    /// Worksheets without a header row, not read (an instructions sheet, a blank one).
    pub skipped: Vec<String>,
    /// Players found in the file.
    pub players: usize,
}

/// A clean batch: its players and what the organiser should know.
#[derive(Debug, Clone)]
pub struct Imported {
    pub players: Vec<Player>,
    pub files: Vec<FileRead>,
    /// Problems that did not stop the import: columns qiwang does not know, whose values
    /// are kept as extra fields of each player.
    pub warnings: Vec<RowError>,
}

/// Reads several registration files as one batch: all or nothing across the files,
/// players numbered from `next_id` in file order, duplicates found across files (and
/// against `existing`). Workbooks are told from CSV by their content, not their name.
pub fn read_batch(
    files: &[RegistrationFile<'_>],
    opts: &BatchOptions,
    rules: &Rulebook,
    existing: &[Player],
    next_id: PlayerId,
) -> Result<Imported, ImportErrors> {
    let source = files
        .iter()
        .map(|f| f.source.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let batch = files.len() > 1;
    let mut sheet = Sheet::new(rules, existing, next_id);
    sheet.strict = opts.strict;
    let mut read = Vec::with_capacity(files.len());
    for file in files {
        let before = sheet.players.len();
        let mut this = FileRead {
            source: file.source.clone(),
            sheets: Vec::new(),
            skipped: Vec::new(),
            players: 0,
        };
        if xlsx::is_workbook(file.bytes) {
            sheet.read_workbook(&file.source, file.bytes, opts.sheet.as_deref(), &mut this);
        } else {
            sheet.at = batch.then(|| Place {
                file: file.source.clone(),
                sheet: None,
                col: None,
            });
            let start = sheet.errors.len();
            sheet.read_csv_file(file.bytes, opts.encoding);
            sheet.finish_part(start, None);
        }
        this.players = sheet.players.len() - before;
        read.push(this);
    }
    // Dongguan 十四.1 报名总人数暂限300人: the whole batch is refused, as for any error.
    if let Some(max) = rules.event.max_players {
        let total = existing.len() + sheet.players.len();
        if total > max as usize && sheet.errors.is_empty() {
            let (registered, here, over) =
                (existing.len(), sheet.players.len(), total - max as usize);
            sheet.errors.push(RowError::new(
                1,
                None,
                None,
                Text::new(
                    format!(
                        "规程限定本赛事最多 `{max}` 名棋手（`event.max_players`）；已报名 {registered} 名，本文件 {here} 名，共 `{total}` 名：请删去 {over} 行或提高上限"
                    ),
                    format!(
                        "the rulebook limits the event to `{max}` players (`event.max_players`); {registered} registered and {here} in this file make `{total}`: remove {over} rows or raise the limit"
                    ),
                ),
            ));
        }
    }
    let mask = |e: &mut RowError| {
        e.message = privacy::mask_numbers_in(&e.message);
        e.message_zh = privacy::mask_numbers_in(&e.message_zh);
        e.value = e.value.as_deref().map(privacy::mask_numbers_in);
    };
    if sheet.errors.is_empty() {
        sheet.warnings.iter_mut().for_each(mask);
        Ok(Imported {
            players: sheet.players,
            files: read,
            warnings: sheet.warnings,
        })
    } else {
        sheet.errors.iter_mut().for_each(mask);
        Err(ImportErrors {
            source,
            errors: sheet.errors,
        })
    }
}

/// The index of the header row among the first rows: the first that names a 姓名/name
/// column (title rows such as 2018年金华市象棋棋王赛报名表 above it are skipped).
fn header_row(records: &[(usize, Vec<String>)]) -> Option<usize> {
    records.iter().take(10).position(|(_, cells)| {
        cells
            .iter()
            .any(|c| headers::field_of(c) == Some(Field::Name))
    })
}

/// Tab if the first non-blank line has more tabs than commas (Excel's "Unicode text" and
/// copy-paste exports), else comma.
fn delimiter(text: &str) -> u8 {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let tabs = first.matches('\t').count();
    let commas = first.matches(',').count();
    if tabs > commas { b'\t' } else { b',' }
}

/// Whether a 序号 cell marks the example row of a template (`示例`, `例`, `example`).
pub fn is_example_mark(cell: &str) -> bool {
    matches!(
        cell.to_lowercase().as_str(),
        "示例" | "例" | "样例" | "范例" | "example" | "e.g."
    )
}

/// Where an earlier registration came from, for duplicate messages.
#[derive(Debug, Clone)]
enum Seen {
    /// A row of this batch; the place when the batch has several files or sheets.
    Line(usize, String, Option<Place>),
    Registered(PlayerId, String),
}

impl fmt::Display for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seen::Line(line, name, None) => write!(f, "line {line} (`{name}`)"),
            Seen::Line(line, name, Some(p)) => write!(f, "{} (`{name}`)", p.show(*line, Lang::En)),
            Seen::Registered(id, name) => write!(f, "registered player {id} (`{name}`)"),
        }
    }
}

impl Seen {
    /// Where in Chinese: `第 3 行（`甲`）`.
    fn zh(&self) -> String {
        match self {
            Seen::Line(line, name, None) => format!("第 {line} 行（`{name}`）"),
            Seen::Line(line, name, Some(p)) => format!("{}（`{name}`）", p.show(*line, Lang::Zh)),
            Seen::Registered(id, name) => format!("已报名棋手 {id}（`{name}`）"),
        }
    }
}

fn id_key(id: &str) -> String {
    id.trim().to_ascii_uppercase()
}

fn name_unit_key(name: &str, unit: &str) -> (String, String) {
    (normalise::key(name), normalise::key(unit))
}

/// The group a sheet names: by id, regulation name or alias as written, then ignoring
/// case, width and spaces, then with a missing trailing 组 (`成人` for 成人组), then
/// without a note in brackets (`残疾人组 (成人组)`, as qiwang's own player list writes a
/// section and the pool it plays in).
pub fn find_group<'a>(rules: &'a Rulebook, value: &str) -> Option<&'a GroupRule> {
    let found = find_group_as_written(rules, value);
    if found.is_some() {
        return found;
    }
    let head = value.split(['(', '（']).next().unwrap_or("").trim();
    if !head.is_empty() && head.len() < value.trim().len() {
        return find_group_as_written(rules, head);
    }
    None
}

fn find_group_as_written<'a>(rules: &'a Rulebook, value: &str) -> Option<&'a GroupRule> {
    if let Some(g) = rules.find_group(value) {
        return Some(g);
    }
    let key = normalise::key(value);
    let with_suffix = format!("{key}组");
    for wanted in [&key, &with_suffix] {
        let found = rules.groups.iter().find(|g| {
            normalise::key(g.id.as_str()) == *wanted
                || normalise::key(&g.name) == *wanted
                || g.aliases.iter().any(|a| normalise::key(a) == *wanted)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A cell of an unrecognised first row, as a message may show it: anything holding
/// seven digits or more (an ID or phone number in a sheet without a header) masked, and
/// long text cut.
fn shown_cell(raw: &str) -> String {
    let cell = normalise::clean(raw);
    if cell.chars().filter(char::is_ascii_digit).count() >= 7 {
        return if cell.chars().count() >= 15 {
            mask_id_number(&cell)
        } else {
            mask_phone(&cell)
        };
    }
    if cell.chars().count() > 20 {
        let cut: String = cell.chars().take(20).collect();
        return format!("{cut}…");
    }
    cell
}

/// The groups a sheet may name, for messages: `` `成人组` (adult), … ``.
fn group_list(rules: &Rulebook) -> String {
    rules
        .groups
        .iter()
        .map(|g| format!("`{}` ({})", g.name, g.id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The reading of one file.
struct Sheet<'a> {
    rules: &'a Rulebook,
    next_id: PlayerId,
    players: Vec<Player>,
    errors: Vec<RowError>,
    ids: BTreeMap<String, Seen>,
    names: BTreeMap<(String, String), Seen>,
    /// The file and sheet being read, when messages must name them (a workbook, or a
    /// batch of several files); `None` for a lone CSV file, whose errors say `file:line`.
    at: Option<Place>,
    warnings: Vec<RowError>,
    strict: bool,
}

/// One data row while it is read: its line and the header map, to locate problems.
struct Row<'r> {
    line: usize,
    map: &'r HeaderMap,
    cells: &'r [String],
    errors: Vec<RowError>,
}

impl Row<'_> {
    /// The cleaned value of `field`, with its column index; `None` when the cell is
    /// empty or says so (无, -, /, N/A).
    fn get(&self, field: Field) -> Option<(usize, String)> {
        let col = self.map.column(field)?;
        let value = normalise::clean(self.cells.get(col)?);
        let said_empty = ["无", "-", "--", "—", "/", "n/a", "na", "none", "null"]
            .contains(&value.to_lowercase().as_str());
        (!value.is_empty() && !said_empty).then_some((col, value))
    }

    fn error(&mut self, col: Option<usize>, value: Option<String>, message: Text) {
        self.errors.push(RowError::new(
            self.line,
            col.map(|c| self.map.names[c].clone()),
            value,
            message,
        ));
    }

    /// Parses `field` with `parse`, recording a located error on failure.
    fn parse<T>(&mut self, field: Field, parse: impl Fn(&str) -> Result<T, Text>) -> Option<T> {
        let (col, value) = self.get(field)?;
        match parse(&value) {
            Ok(v) => Some(v),
            Err(message) => {
                self.error(Some(col), Some(value), message);
                None
            }
        }
    }
}

impl<'a> Sheet<'a> {
    fn new(rules: &'a Rulebook, existing: &[Player], next_id: PlayerId) -> Self {
        let mut ids = BTreeMap::new();
        let mut names = BTreeMap::new();
        for p in existing {
            if let Some(id) = &p.id_number {
                ids.entry(id_key(id))
                    .or_insert_with(|| Seen::Registered(p.id, p.name.clone()));
            }
            names
                .entry(name_unit_key(&p.name, &p.unit))
                .or_insert_with(|| Seen::Registered(p.id, p.name.clone()));
        }
        Sheet {
            rules,
            next_id,
            players: Vec::new(),
            errors: Vec::new(),
            ids,
            names,
            at: None,
            warnings: Vec::new(),
            strict: false,
        }
    }

    /// Decodes a CSV file and reads it.
    fn read_csv_file(&mut self, bytes: &[u8], encoding: Encoding) {
        let text = match decode(bytes, encoding) {
            Ok(d) => d.text,
            Err(e) => {
                self.errors.push(e);
                return;
            }
        };
        if let Some(at) = text.find('\0') {
            self.errors.push(RowError::new(
                text[..at].matches('\n').count() + 1,
                None,
                None,
                Text::new(
                    "该行含有 NUL 字符，所以这不是文本文件（可能是没有字节顺序标记的 UTF-16）；请在 Excel 中另存为“CSV UTF-8”",
                    "the line holds a NUL character, so this is no text file (perhaps UTF-16 without a byte-order mark); save the sheet from Excel as \"CSV UTF-8\"",
                ),
            ));
            return;
        }
        self.read(&text);
    }

    /// Locates the problems found since `start` (the part just read: a CSV file or one
    /// worksheet) and puts them in row order; problems of one row stay in column order.
    fn finish_part(&mut self, start: usize, map: Option<&HeaderMap>) {
        if let Some(at) = &self.at {
            for e in &mut self.errors[start..] {
                if e.place.is_none() {
                    let col = e
                        .column
                        .as_ref()
                        .and_then(|c| map.and_then(|m| m.names.iter().position(|n| n == c)));
                    e.place = Some(Box::new(Place {
                        col: if at.sheet.is_some() { col } else { None },
                        ..at.clone()
                    }));
                }
            }
        }
        self.errors[start..].sort_by_key(|e| e.line);
    }

    /// Reads the worksheets of a workbook that have a header row (or only `only`).
    fn read_workbook(&mut self, file: &str, bytes: &[u8], only: Option<&str>, read: &mut FileRead) {
        let whole_file = |text: Text| RowError {
            place: Some(Box::new(Place {
                file: file.to_string(),
                sheet: None,
                col: None,
            })),
            ..RowError::new(1, None, None, text)
        };
        let grids = match xlsx::read_workbook(bytes) {
            Ok(g) => g,
            Err(text) => {
                self.errors.push(whole_file(text));
                return;
            }
        };
        let all: Vec<&str> = grids.iter().map(|g| g.sheet.as_str()).collect();
        let listed = all
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if let Some(want) = only
            && !all.contains(&want)
        {
            self.errors.push(whole_file(Text::new(
                format!("工作簿中没有工作表 `{want}`；工作表有：{listed}"),
                format!("the workbook has no sheet `{want}`; its sheets are {listed}"),
            )));
            return;
        }
        for grid in &grids {
            if only.is_some_and(|want| want != grid.sheet) {
                continue;
            }
            let first: Vec<(usize, Vec<String>)> = grid
                .rows
                .iter()
                .take(10)
                .map(|(line, cells)| {
                    let text = cells
                        .iter()
                        .map(|c| xlsx::cell_text(c, None).unwrap_or_default())
                        .collect();
                    (*line, text)
                })
                .collect();
            let Some(h) = header_row(&first) else {
                if only.is_some() {
                    self.errors.push(whole_file(Text::new(
                        format!("工作表 `{}` 中没有含 姓名/name 列的表头行", grid.sheet),
                        format!(
                            "sheet `{}` has no header row with a 姓名/name column",
                            grid.sheet
                        ),
                    )));
                }
                read.skipped.push(grid.sheet.clone());
                continue;
            };
            self.at = Some(Place {
                file: file.to_string(),
                sheet: Some(grid.sheet.clone()),
                col: None,
            });
            let start = self.errors.len();
            let header = &first[h].1;
            let fields: Vec<Option<Field>> = header
                .iter()
                .map(|c| headers::field_of(&normalise::clean(c)))
                .collect();
            let mut records = vec![first[h].clone()];
            for (line, cells) in grid.rows.iter().skip(h + 1) {
                let mut row = Vec::with_capacity(cells.len());
                let mut ok = true;
                for (i, cell) in cells.iter().enumerate() {
                    match xlsx::cell_text(cell, fields.get(i).copied().flatten()) {
                        Ok(text) => row.push(text),
                        Err(message) => {
                            ok = false;
                            self.errors.push(RowError {
                                place: Some(Box::new(Place {
                                    file: file.to_string(),
                                    sheet: Some(grid.sheet.clone()),
                                    col: Some(i),
                                })),
                                ..RowError::new(
                                    *line,
                                    header.get(i).map(|h| normalise::clean(h)),
                                    None,
                                    message,
                                )
                            });
                        }
                    }
                }
                if ok {
                    records.push((*line, row));
                }
            }
            let map = self.read_records(&records, 0);
            self.finish_part(start, map.as_ref());
            read.sheets.push(grid.sheet.clone());
        }
        if read.sheets.is_empty() && only.is_none() {
            self.errors.push(whole_file(Text::new(
                format!(
                    "工作簿中没有一个工作表含有 姓名/name 列的表头行（工作表：{listed}）；表头行须写出各列名称，例如 姓名,性别,单位,组别"
                ),
                format!(
                    "no sheet of the workbook has a header row with a 姓名/name column (sheets: {listed}); the header row must name the columns, e.g. 姓名,性别,单位,组别"
                ),
            )));
        }
    }

    fn read(&mut self, text: &str) {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            // Field counts are checked here against the header, so the message can say
            // which row and what to fix.
            .flexible(true)
            .delimiter(delimiter(text))
            .from_reader(text.as_bytes());
        let mut records: Vec<(usize, Vec<String>)> = Vec::new();
        let mut lines = decode::LineCounter::new(text);
        for result in reader.records() {
            match result {
                Ok(record) => {
                    let line = lines.line_of(record.position());
                    records.push((line, record.iter().map(str::to_string).collect()));
                }
                Err(e) => {
                    let line = lines.line_of(e.position());
                    self.errors.push(RowError::new(
                        line,
                        None,
                        None,
                        Text::new(
                            format!("该行无法按 CSV 读取：{e}"),
                            format!("the row cannot be read as CSV: {e}"),
                        ),
                    ));
                }
            }
        }
        // Title rows above the header (比赛名称, 报名表) are skipped: the header is the
        // first of the first rows that names a 姓名/name column.
        let Some(header_at) = header_row(&records) else {
            let (line, found) = records
                .first()
                .map(|(l, c)| {
                    (
                        *l,
                        c.iter().take(6).map(|s| shown_cell(s)).collect::<Vec<_>>(),
                    )
                })
                .unwrap_or((1, Vec::new()));
            let found = found.join(",");
            self.errors.push(RowError::new(
                line,
                None,
                None,
                Text::new(
                    format!(
                        "没有含 姓名/name 列的表头行（第一行：`{found}`）；第一行必须写出各列名称，例如 姓名,性别,单位,组别"
                    ),
                    format!(
                        "no header row with a 姓名/name column (first row: `{found}`); the first line must name the columns, e.g. 姓名,性别,单位,组别"
                    ),
                ),
            ));
            return;
        };
        self.read_records(&records, header_at);
    }

    /// Reads the rows from the header at `header_at` on; the header's map, unless the
    /// header itself could not be used.
    fn read_records(
        &mut self,
        records: &[(usize, Vec<String>)],
        header_at: usize,
    ) -> Option<HeaderMap> {
        let (header_line, header_cells) = &records[header_at];
        if header_cells.len() > headers::MAX_COLUMNS {
            let (n, max) = (header_cells.len(), headers::MAX_COLUMNS);
            self.errors.push(RowError::new(
                *header_line,
                None,
                None,
                Text::new(
                    format!(
                        "表头行有 {n} 列，超过上限 {max} 列；这不像报名表：请只保留报名需要的列"
                    ),
                    format!(
                        "the header row has {n} columns, more than the limit of {max}; this is no registration sheet: keep only the columns a registration needs"
                    ),
                ),
            ));
            return None;
        }
        let (map, problems) = HeaderMap::new(header_cells);
        for p in problems {
            self.errors.push(RowError::new(
                *header_line,
                Some(map.names[p.column].clone()),
                None,
                p.message,
            ));
        }
        let pools = self.rules.pools().count();
        if map.column(Field::Group).is_none() && pools != 1 {
            let groups = group_list(self.rules);
            self.errors.push(RowError::new(
                *header_line,
                None,
                None,
                Text::new(
                    format!(
                        "没有 组别/group 列，而规程有 {pools} 个编排组；请添加 组别 列，写 {groups} 之一"
                    ),
                    format!(
                        "no 组别/group column, and the rulebook has {pools} pools; add a 组别 column naming one of {groups}"
                    ),
                ),
            ));
            return Some(map);
        }
        for (_, name) in map.unknown() {
            let e = RowError::new(
                *header_line,
                Some(name.to_string()),
                None,
                if self.strict {
                    Text::new(
                        format!(
                            "qiwang 不认识 `{name}` 列（--strict）；请改成已知的列名（如 单位、组别、出生日期），或删去该列"
                        ),
                        format!(
                            "qiwang does not know the column `{name}` (--strict); rename it to a known header (such as 单位, 组别, 出生日期) or remove it"
                        ),
                    )
                } else {
                    Text::new(
                        format!(
                            "qiwang 不认识 `{name}` 列；其内容作为附加信息随棋手保存，不参与资格审查"
                        ),
                        format!(
                            "qiwang does not know the column `{name}`; its values are kept with each player as extra information and are not checked"
                        ),
                    )
                },
            );
            if self.strict {
                self.errors.push(e);
            } else {
                self.warnings.push(e);
            }
        }
        let mut rows = 0;
        let number_col = map.column(Field::Number);
        for (line, cells) in &records[header_at + 1..] {
            // Blank rows, rows of commas, and the pre-numbered empty rows of a template
            // (only 序号 filled in) are not registrations.
            let blank = cells
                .iter()
                .enumerate()
                .all(|(i, c)| Some(i) == number_col || normalise::clean(c).is_empty());
            // The example row of `qiwang template` (序号 示例) shows how to fill the sheet.
            let example = number_col
                .and_then(|c| cells.get(c))
                .is_some_and(|c| is_example_mark(&normalise::clean(c)));
            if blank || example {
                continue;
            }
            rows += 1;
            self.read_row(*line, &map, cells);
        }
        if rows == 0 {
            self.errors.push(RowError::new(
                *header_line,
                None,
                None,
                Text::new(
                    "表格只有表头，没有棋手行；请检查导出的是否是正确的工作表",
                    "the sheet has a header but no player rows; check that the right sheet was exported",
                ),
            ));
        }
        Some(map)
    }

    fn read_row(&mut self, line: usize, map: &HeaderMap, cells: &[String]) {
        let id = self.next_id;
        self.next_id = PlayerId(self.next_id.0.saturating_add(1));
        let width = map.names.len();
        let overflow_empty = cells
            .iter()
            .skip(width)
            .all(|c| normalise::clean(c).is_empty());
        if cells.len() < width || !overflow_empty {
            let fields = cells.len();
            self.errors.push(RowError::new(
                line,
                None,
                None,
                Text::new(
                    format!(
                        "该行有 {fields} 个字段，而表头有 {width} 个；请检查是否少了或多了逗号，或含逗号的值没有加引号"
                    ),
                    format!(
                        "the row has {fields} fields but the header has {width}; look for a missing or extra comma, or a value with a comma that lacks quotes"
                    ),
                ),
            ));
            return;
        }
        let max = headers::MAX_CELL_CHARS;
        if let Some(col) = cells
            .iter()
            .position(|c| c.len() > max && c.chars().count() > max)
        {
            let n = cells[col].chars().count();
            self.errors.push(RowError::new(
                line,
                map.names.get(col).cloned(),
                None,
                Text::new(
                    format!("单元格有 {n} 个字符，超过上限 {max}；请检查该单元格"),
                    format!("the cell holds {n} characters, more than the limit of {max}; check the cell"),
                ),
            ));
            return;
        }
        let mut row = Row {
            line,
            map,
            cells,
            errors: Vec::new(),
        };
        let player = self.build(&mut row, id);
        let mut errors = row.errors;
        if let Some((player, named)) = player {
            // Eligibility is judged only on a row whose values all parsed, so a typo in a
            // date is not also reported as an unknown age.
            if errors.is_empty() {
                let col = map.column(Field::Group);
                for message in eligibility::check(&player, named, self.rules) {
                    errors.push(RowError::new(
                        line,
                        col.map(|c| map.names[c].clone()),
                        Some(named.name.clone()),
                        message,
                    ));
                }
            }
            self.check_duplicates(&player, line, map, &mut errors);
            if errors.is_empty() {
                self.players.push(player);
            }
        }
        self.errors.extend(errors);
    }

    /// The player a row describes and the group it named; `None` when the row has no
    /// usable name or group (the reason is in `row.errors`).
    fn build(&self, row: &mut Row<'_>, id: PlayerId) -> Option<(Player, &'a GroupRule)> {
        let rules = self.rules;
        let name_col = row.map.column(Field::Name);
        let name = row
            .map
            .column(Field::Name)
            .and_then(|c| row.cells.get(c))
            .map(|raw| normalise::clean_name(raw))
            .unwrap_or_default();
        if name.is_empty() {
            row.error(
                name_col,
                None,
                Text::new(
                    "姓名为空；每名棋手都需要姓名",
                    "the name is empty; every player needs a 姓名",
                ),
            );
        }
        let named = match row.get(Field::Group) {
            Some((col, value)) => match find_group(rules, &value) {
                Some(g) => Some(g),
                None => {
                    row.error(
                        Some(col),
                        Some(value.clone()),
                        Text::new(
                            format!("组别 `{value}` 不在规程中；请写 {} 之一", group_list(rules)),
                            format!(
                                "group `{value}` is not in the rulebook; write one of {}",
                                group_list(rules)
                            ),
                        ),
                    );
                    None
                }
            },
            None => {
                let mut pools = rules.pools();
                match (pools.next(), pools.next()) {
                    (Some(only), None) => Some(only),
                    _ => {
                        row.error(
                            row.map.column(Field::Group),
                            None,
                            Text::new(
                                format!("组别为空；请写 {} 之一", group_list(rules)),
                                format!("the group is empty; write one of {}", group_list(rules)),
                            ),
                        );
                        None
                    }
                }
            }
        };
        let mut gender = row.parse(Field::Gender, values::parse_gender);
        let birth = row.parse(Field::BirthDate, values::parse_birth);
        let mut birth_date = birth.map(|b| b.range().0);
        let card = match row.get(Field::IdNumber) {
            Some((col, value)) => match parse_id_number(&value) {
                Ok(card) => Some(card),
                Err(e) => {
                    row.error(Some(col), Some(mask_id_number(&value)), Text::of(&e));
                    None
                }
            },
            None => None,
        };
        if let Some(card) = &card {
            match birth {
                Some(b) if !b.admits(card.birth_date) => {
                    let d = match b {
                        values::Birth::Date(d) => d.to_string(),
                        values::Birth::YearMonth(y, m) => format!("{y}-{m:02}"),
                    };
                    let col = row.map.column(Field::BirthDate);
                    row.error(
                        col,
                        Some(d.to_string()),
                        Text::new(
                            format!(
                                "出生日期 `{d}` 与身份证号中的（`{}`）不一致；请改正其中之一",
                                card.birth_date
                            ),
                            format!(
                                "birth date `{d}` differs from the one in the ID number (`{}`); correct one of them",
                                card.birth_date
                            ),
                        ),
                    );
                }
                // A year and month that agree with the card: the card gives the day.
                Some(_) | None => birth_date = Some(card.birth_date),
            }
            match gender {
                Some(g) if g != card.gender => {
                    let col = row.map.column(Field::Gender);
                    let value = col
                        .and_then(|c| row.cells.get(c))
                        .map(|v| normalise::clean(v));
                    row.error(
                        col,
                        value.clone(),
                        Text::new(
                            format!(
                                "性别 `{}` 与身份证号不一致（身份证号为{}）；请改正其中之一",
                                value.clone().unwrap_or_default(),
                                eligibility::gender_word_zh(card.gender)
                            ),
                            format!(
                                "gender `{}` differs from the ID number, which says {}; correct one of them",
                                value.unwrap_or_default(),
                                eligibility::gender_word(card.gender)
                            ),
                        ),
                    );
                }
                Some(_) => {}
                None => gender = Some(card.gender),
            }
        }
        let grade = row.parse(Field::Grade, values::parse_grade);
        let rating = row.parse(Field::Rating, values::parse_rating);
        let disabled = flag(
            row,
            Field::Disabled,
            named,
            |g| g.marks.disabled,
            |g| g.eligibility.disabled,
        );
        let local = flag(
            row,
            Field::Local,
            named,
            |g| g.marks.local,
            |g| g.eligibility.local,
        );
        if gender.is_none()
            && let Some(g) = named
            && let Some(list) = gender_split_list(rules, g)
        {
            let col = row.map.column(Field::Gender);
            let column = col.map_or_else(
                || Field::Gender.label().to_string(),
                |c| row.map.names[c].clone(),
            );
            row.errors.push(RowError::new(
                row.line,
                Some(column),
                None,
                Text::new(
                    format!(
                        "性别为空，也没有身份证号：{}的奖项按男女分列（{}），每名棋手都需要性别；请填写性别或身份证号",
                        g.name, list
                    ),
                    format!(
                        "the gender is empty and there is no ID number: {} has prize lists split by gender ({}), so every player needs one; give the 性别 or the 身份证号",
                        g.name, list
                    ),
                ),
            ));
        }
        let phone = row.get(Field::Phone).map(|(_, v)| v.replace(' ', ""));
        let title = row.get(Field::Title).map(|(_, v)| v);
        let unit = row.get(Field::Unit).map(|(_, v)| v).unwrap_or_default();
        let mut extra = BTreeMap::new();
        for (i, field) in row.map.fields.iter().enumerate() {
            let value = row
                .cells
                .get(i)
                .map(|c| normalise::clean(c))
                .unwrap_or_default();
            if field.is_none() && !value.is_empty() {
                let header = match row.map.names[i].as_str() {
                    "" => format!("column {}", i + 1),
                    h => h.to_string(),
                };
                extra.insert(header, value);
            }
        }
        let named = named?;
        if name.is_empty() {
            return None;
        }
        // Only a year and month and no ID number: if an age limit falls inside that month,
        // the day decides, and the organiser must give it.
        let month_only = match (birth, &card) {
            (Some(b @ values::Birth::YearMonth(..)), None) => Some(b.range()),
            _ => None,
        };
        let mut player = Player::new(id, name, rules.pool_of(named).clone());
        player.section = named.pairs_with.as_ref().map(|_| named.id.clone());
        player.gender = gender;
        player.unit = unit;
        player.birth_date = birth_date;
        player.id_number = card.map(|c| c.number);
        player.grade = grade;
        player.rating = rating;
        player.title = title;
        player.disabled = disabled;
        player.local = local;
        player.phone = phone;
        player.extra = extra;
        if let Some((first, last)) = month_only {
            let mut latest = player.clone();
            latest.birth_date = Some(last);
            if eligibility::check(&player, named, rules).len()
                != eligibility::check(&latest, named, rules).len()
            {
                let col = row.map.column(Field::BirthDate);
                let month = first.format("%Y-%m").to_string();
                row.error(
                    col,
                    Some(month.clone()),
                    Text::new(
                        format!(
                            "出生年月 `{month}` 没有日：{}的年龄限制恰好落在这个月内；请写出完整的出生日期，或填写身份证号",
                            named.name
                        ),
                        format!(
                            "birth month `{month}` has no day, and the age limit of {} falls inside that month: write the full birth date or give the ID number",
                            named.name
                        ),
                    ),
                );
                return None;
            }
        }
        Some((player, named))
    }
}

/// The name of a prize list split by gender (a `filter.gender`) that ranks the players of
/// group `g`: a list of `g` itself or of the pool `g` plays in.
fn gender_split_list(rules: &Rulebook, g: &GroupRule) -> Option<String> {
    let pool = rules.pool_of(g);
    rules
        .prizes
        .lists
        .iter()
        .find(|l| l.filter.gender.is_some() && (l.group == g.id || &l.group == pool))
        .map(|l| l.name.clone())
}

/// A yes/no column, forced on by the marks of the group named (残疾人组 → disabled); an
/// explicit "no" under such a group contradicts the registration. A group whose
/// eligibility `required` the status (Jinhua 残疾人组 必须有残疾证; Dongguan 本地组) reads it
/// from the sheet: an empty cell is refused, so the organiser has checked the certificate.
fn flag(
    row: &mut Row<'_>,
    field: Field,
    named: Option<&GroupRule>,
    mark: impl Fn(&GroupRule) -> bool,
    required: impl Fn(&GroupRule) -> bool,
) -> bool {
    let marked = named.is_some_and(&mark);
    if row.get(field).is_none()
        && let Some(g) = named.filter(|g| required(g))
    {
        let col = row.map.column(field);
        let column = col.map_or_else(|| field.label().to_string(), |c| row.map.names[c].clone());
        row.errors.push(RowError::new(
            row.line,
            Some(column.clone()),
            None,
            Text::new(
                format!(
                    "{}要求 {column} 为“是”，而该格为空；核验后请填写 是，或报名其他组别",
                    g.name
                ),
                format!(
                    "{} requires {column} to be yes, and the cell is empty; after checking, write 是 (yes) or register in another group",
                    g.name
                ),
            ),
        ));
        // Reported here; the eligibility check need not say it again.
        return true;
    }
    let given = row.parse(field, values::parse_bool);
    if marked
        && given == Some(false)
        && let (Some((col, value)), Some(g)) = (row.get(field), named)
    {
        row.error(
                Some(col),
                Some(value.clone()),
                Text::new(
                    format!(
                        "`{value}` 与组别{}矛盾，该组别的棋手都标为 {}；请修改该值或组别",
                        g.name,
                        field.label()
                    ),
                    format!(
                        "`{value}` contradicts the group {}, which marks its players {}; change the value or the group",
                        g.name,
                        field.label()
                    ),
                ),
            );
    }
    marked || given == Some(true)
}

impl Sheet<'_> {
    fn check_duplicates(
        &mut self,
        player: &Player,
        line: usize,
        map: &HeaderMap,
        errors: &mut Vec<RowError>,
    ) {
        let here = Seen::Line(line, player.name.clone(), self.at.clone());
        if let Some(id) = &player.id_number {
            if let Some(seen) = self.ids.get(&id_key(id)) {
                let masked = mask_id_number(id);
                errors.push(RowError::new(
                    line,
                    map.name_of(Field::IdNumber).map(str::to_string),
                    Some(masked.clone()),
                    Text::new(
                        format!("身份证号 `{masked}` 已在{}出现；每名棋手只能报名一次", seen.zh()),
                        format!("ID number `{masked}` is already on {seen}; a player registers only once"),
                    ),
                ));
                return;
            }
            self.ids.insert(id_key(id), here.clone());
        }
        let key = name_unit_key(&player.name, &player.unit);
        if let Some(seen) = self.names.get(&key) {
            let (unit, unit_zh) = if player.unit.is_empty() {
                ("no unit".to_string(), "无单位".to_string())
            } else {
                (
                    format!("unit `{}`", player.unit),
                    format!("单位 `{}`", player.unit),
                )
            };
            errors.push(RowError::new(
                line,
                map.name_of(Field::Name).map(str::to_string),
                Some(player.name.clone()),
                Text::new(
                    format!(
                        "`{}`（{unit_zh}）已在{}出现；请删除重复的行",
                        player.name,
                        seen.zh()
                    ),
                    format!(
                        "`{}` with {unit} is already on {seen}; remove the duplicate row",
                        player.name
                    ),
                ),
            ));
            return;
        }
        self.names.insert(key, here);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Gender, GroupId};
    use crate::rulebook::{Eligibility, Marks};
    use chrono::NaiveDate;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn group(
        id: &str,
        name: &str,
        pairs_with: Option<&str>,
        marks: Marks,
        e: Eligibility,
    ) -> GroupRule {
        GroupRule {
            id: GroupId::new(id),
            name: name.to_string(),
            aliases: Vec::new(),
            pairs_with: pairs_with.map(GroupId::new),
            marks,
            rounds: None,
            time_control: None,
            min_size: None,
            merge_into: None,
            eligibility: Eligibility {
                no_master_title: true,
                ..e
            },
        }
    }

    /// A Jinhua-like rulebook: 成人组 with 残疾人组 inside it, 青少年组 under 16.
    fn rules() -> Rulebook {
        let mut r = Rulebook::cxa_2011("测试赛", 9);
        r.event.start_date = Some(date(2018, 10, 26));
        r.groups = vec![
            group(
                "adult",
                "成人组",
                None,
                Marks::default(),
                Eligibility::default(),
            ),
            group(
                "disabled",
                "残疾人组",
                Some("adult"),
                Marks {
                    disabled: true,
                    local: false,
                },
                Eligibility {
                    disabled: true,
                    ..Default::default()
                },
            ),
            group(
                "youth",
                "青少年组",
                None,
                Marks::default(),
                Eligibility {
                    under_age: Some(16),
                    age_max_inclusive: Some(false),
                    ..Default::default()
                },
            ),
        ];
        r
    }

    /// A valid ID number for a birth date and a sequence (odd = male).
    fn id(region: &str, birth: &str, seq: u32) -> String {
        let first17 = format!("{region}{birth}{seq:03}");
        format!("{first17}{}", id_card::check_character(&first17).unwrap())
    }

    fn read(text: &str) -> Result<Vec<Player>, ImportErrors> {
        read_registrations(
            text.as_bytes(),
            "reg.csv",
            &ImportOptions::default(),
            &rules(),
            &[],
            PlayerId(1),
        )
    }

    #[test]
    fn a_clean_sheet_becomes_players() {
        let text = format!(
            "序号,姓名,性别,单位,组别,出生日期,身份证号,残疾,电话,备注\n\
             1,张 伟,男,婺城区棋协,成人组,1980-01-01,{},否,100 1234 5678,\n\
             2,李秀英,女,金东区棋协,残疾人组,,{},是,,轮椅\n\
             3,王小明,,浦江县象棋协会,青少年,2005年3月4日,{},,,\n",
            id("330702", "19800101", 123),
            id("330703", "19750607", 42),
            id("330726", "20050304", 11),
        );
        let players = read(&text).unwrap();
        assert_eq!(players.len(), 3);
        let [a, b, c] = [&players[0], &players[1], &players[2]];
        assert_eq!(
            (a.id, a.name.as_str(), a.gender),
            (PlayerId(1), "张伟", Some(Gender::Male))
        );
        assert_eq!(a.group, GroupId::new("adult"));
        assert_eq!(a.section, None);
        assert_eq!(a.phone.as_deref(), Some("10012345678"));
        assert!(!a.disabled);
        assert_eq!(b.group, GroupId::new("adult"));
        assert_eq!(b.section, Some(GroupId::new("disabled")));
        assert!(b.disabled);
        // Birth date and gender filled from the ID number.
        assert_eq!(b.birth_date, Some(date(1975, 6, 7)));
        assert_eq!(b.gender, Some(Gender::Female));
        assert_eq!(b.extra.get("备注").map(String::as_str), Some("轮椅"));
        assert_eq!(c.group, GroupId::new("youth"));
        assert_eq!(c.birth_date, Some(date(2005, 3, 4)));
        assert_eq!(c.gender, Some(Gender::Male));
        assert!(a.extra.is_empty(), "序号 is not kept: {:?}", a.extra);
    }

    #[test]
    fn every_row_error_has_chinese_with_the_same_values() {
        use crate::i18n::facts::assert_same;
        let good = id("330702", "19800101", 123);
        let bad_sum = format!("{}0", &good[..17]);
        let text = format!(
            "姓名,性别,组别,出生日期,身份证号,年级,等级分,残疾\n\
             甲,男,成人组,1980-01-01,{good},,,\n\
             乙,男,象棋组,,,,,\n\
             丙,x,成人组,1980-13-01,,二十年级,abc,也许\n\
             丁,女,成人组,1981-01-01,{good},,,\n\
             戊,男,青少年组,1990-01-01,,,,\n\
             己,男,成人组,,{bad_sum},,,\n\
             甲,男,成人组,1980-01-01,,,,\n\
             庚,男,残疾人组,,,,,否\n\
             辛,男\n\
             ,男,,,,,,\n"
        );
        let err = read(&text).unwrap_err();
        assert!(err.errors.len() >= 10, "{err}");
        for e in &err.errors {
            assert_same(&e.message_zh, &e.message);
        }
        let zh = err.localize(Lang::Zh);
        let en = err.localize(Lang::En);
        assert_eq!(en, err.to_string());
        assert_eq!(zh.lines().count(), en.lines().count());
        assert!(
            zh.ends_with("未导入任何棋手：请改正后重新导入该文件"),
            "{zh}"
        );
        assert!(zh.starts_with("reg.csv:3："), "{zh}");
    }

    #[test]
    fn five_bad_rows_give_five_located_errors() {
        let good = id("330702", "19800101", 123);
        let text = format!(
            "姓名,性别,组别,出生日期,身份证号\n\
             甲,男,成人组,1980-01-01,{good}\n\
             乙,男,象棋组,,\n\
             丙,男,成人组,1980-13-01,\n\
             丁,女,成人组,1980-01-01,{}\n\
             戊,男,青少年组,1990-01-01,\n\
             ,男,成人组,,\n",
            id("330702", "19800101", 125),
        );
        let err = read(&text).unwrap_err();
        let got: Vec<(usize, Option<&str>)> = err
            .errors
            .iter()
            .map(|e| (e.line, e.column.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                (3, Some("组别")),
                (4, Some("出生日期")),
                (5, Some("性别")),
                (6, Some("组别")),
                (7, Some("姓名")),
            ],
            "{err}"
        );
        assert!(err.errors[0].message.contains("`象棋组`"), "{err}");
        assert!(err.errors[1].message.contains("`1980-13-01`"), "{err}");
        assert!(err.errors[3].message.contains("under 16"), "{err}");
    }

    #[test]
    fn display_lists_every_error_and_a_summary() {
        let text = "姓名,组别\n甲,无此组\n乙,\n";
        let err = read(text).unwrap_err();
        let shown = err.to_string();
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 3, "{shown}");
        assert!(
            lines[0].starts_with("reg.csv:2: column `组别`: group `无此组`"),
            "{shown}"
        );
        assert!(
            lines[1].starts_with("reg.csv:3: column `组别`: the group is empty"),
            "{shown}"
        );
        assert!(lines[1].contains("`成人组` (adult)"), "{shown}");
        assert_eq!(
            lines[2],
            "2 errors in `reg.csv`; nothing was imported: fix them and import the file again"
        );
    }

    #[test]
    fn id_numbers_are_checked_and_cross_checked() {
        let good = id("330702", "19800101", 123);
        let mut bad_checksum = good.clone();
        bad_checksum.pop();
        bad_checksum.push(if good.ends_with('0') { '1' } else { '0' });
        let text = format!(
            "姓名,性别,组别,出生日期,身份证号\n\
             甲,男,成人组,1980-01-02,{good}\n\
             乙,男,成人组,,{bad_checksum}\n"
        );
        let err = read(&text).unwrap_err();
        assert_eq!(err.errors.len(), 2, "{err}");
        assert_eq!(err.errors[0].column.as_deref(), Some("出生日期"));
        assert!(err.errors[0].message.contains("1980-01-01"), "{err}");
        assert_eq!(err.errors[1].column.as_deref(), Some("身份证号"));
        assert!(err.errors[1].message.contains("checksum"), "{err}");
        // The full number is never printed.
        assert!(!err.to_string().contains(&bad_checksum), "{err}");
        assert_eq!(err.errors[1].value, Some(mask_id_number(&bad_checksum)));
    }

    #[test]
    fn duplicates_in_the_file_and_against_registered_players() {
        let a = id("330702", "19800101", 123);
        let b = id("330702", "19800101", 125);
        let text = format!(
            "姓名,单位,组别,身份证号\n\
             甲,婺城区棋协,成人组,{a}\n\
             乙,婺城区棋协,成人组,{a}\n\
             甲,婺城区 棋协,成人组,\n\
             丙,金东区棋协,成人组,{b}\n"
        );
        let mut registered = Player::new(PlayerId(7), "丁", GroupId::new("adult"));
        registered.id_number = Some(b.to_lowercase());
        let err = read_registrations(
            text.as_bytes(),
            "reg.csv",
            &ImportOptions::default(),
            &rules(),
            &[registered],
            PlayerId(8),
        )
        .unwrap_err();
        let got: Vec<(usize, Option<&str>)> = err
            .errors
            .iter()
            .map(|e| (e.line, e.column.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                (3, Some("身份证号")),
                (4, Some("姓名")),
                (5, Some("身份证号"))
            ],
            "{err}"
        );
        assert!(err.errors[0].message.contains("line 2 (`甲`)"), "{err}");
        assert!(
            err.errors[2].message.contains("registered player 7 (`丁`)"),
            "{err}"
        );
    }

    #[test]
    fn a_header_without_rows_is_an_error() {
        let err = read("姓名,组别\n,\n\n").unwrap_err();
        assert_eq!(err.errors.len(), 1);
        assert_eq!(err.errors[0].line, 1);
        assert!(err.errors[0].message.contains("no player rows"), "{err}");
    }

    #[test]
    fn an_id_number_in_the_wrong_column_is_masked() {
        let number = id("330702", "19800101", 123);
        let err = read(&format!("姓名,组别,出生日期\n甲,成人组,{number}\n")).unwrap_err();
        let shown = err.to_string();
        assert!(!shown.contains(&number), "{shown}");
        assert!(shown.contains(&mask_id_number(&number)), "{shown}");
        assert_eq!(err.errors[0].value, Some(mask_id_number(&number)));
    }

    #[test]
    fn ids_continue_from_next_id() {
        let players = read_registrations(
            "姓名,组别\n甲,成人组\n乙,成人组\n".as_bytes(),
            "reg.csv",
            &ImportOptions::default(),
            &rules(),
            &[],
            PlayerId(41),
        )
        .unwrap();
        let ids: Vec<u32> = players.iter().map(|p| p.id.0).collect();
        assert_eq!(ids, vec![41, 42]);
    }

    #[test]
    fn title_rows_blank_rows_and_comma_rows_are_skipped() {
        let text = "2018年金华市象棋棋王赛报名表,,,\n,,,\n序号,姓名,组别,单位\n1,甲,成人组,\n,,,\n\n2,乙,成人组,x\n3,,,\n4,,,\n";
        let players = read(text).unwrap();
        assert_eq!(players.len(), 2);
        assert_eq!(players[1].name, "乙");
    }

    #[test]
    fn quoted_fields_keep_line_numbers() {
        let text = "姓名,组别,备注\n甲,成人组,\"两行,\n备注\"\n乙,无此组,\n";
        let err = read(text).unwrap_err();
        assert_eq!(err.errors.len(), 1);
        assert_eq!(err.errors[0].line, 4, "{err}");
    }

    #[test]
    fn hostile_input_is_reported_not_panicked_on() {
        // An unclosed quote swallows the rest of the file into one field.
        let err = read("姓名,组别\n\"甲,成人组\n乙,成人组\n").unwrap_err();
        assert_eq!(err.errors.len(), 1, "{err}");
        assert_eq!(err.errors[0].line, 2);
        assert!(
            err.errors[0]
                .message
                .contains("1 fields but the header has 2"),
            "{err}"
        );
        // A file cut in the middle of a character.
        let mut bytes = "姓名,组别\n张三,成人组\n李".as_bytes().to_vec();
        bytes.pop();
        let err = read_registrations(
            &bytes,
            "cut.csv",
            &ImportOptions::default(),
            &rules(),
            &[],
            PlayerId(1),
        )
        .unwrap_err();
        assert_eq!(err.errors[0].line, 3, "{err}");
        // A field of a megabyte is refused with its place (issue 11.12), not kept as a name.
        let long = "长".repeat(400_000);
        let err = read(&format!("姓名,组别\n{long},成人组\n")).unwrap_err();
        assert_eq!(err.errors.len(), 1, "{err}");
        assert_eq!(
            (err.errors[0].line, err.errors[0].column.as_deref()),
            (2, Some("姓名"))
        );
        assert!(err.errors[0].message.contains("400000 characters"), "{err}");
        // A header of 100,000 columns: one message, quickly.
        let wide = format!("姓名,{}\n甲\n", vec!["x"; 100_000].join(","));
        let started = std::time::Instant::now();
        let err = read(&wide).unwrap_err();
        assert!(started.elapsed().as_secs() < 3, "{:?}", started.elapsed());
        assert_eq!(err.errors.len(), 1, "{err}");
        assert!(err.errors[0].message.contains("100001 columns"), "{err}");
    }

    #[test]
    fn wrong_field_count_is_located() {
        let text = "姓名,组别,单位\n甲,成人组\n乙,成人组,x,y\n丙,成人组,z,,\n";
        let err = read(text).unwrap_err();
        let lines: Vec<usize> = err.errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![2, 3], "{err}");
        assert!(
            err.errors[0]
                .message
                .contains("2 fields but the header has 3"),
            "{err}"
        );
    }

    #[test]
    fn tab_separated_with_english_headers() {
        let text = format!(
            "Name\tGender\tClub\tGroup\tID Number\tDisabled\tTitle\n\
             Li Wei\tM\tJinhua Club\tadult\t{}\tno\t一级棋士\n\
             Wang Fang\tF\tJinhua Club\tdisabled\t\tyes\t\n",
            id("330702", "19800101", 123)
        );
        let players = read(&text).unwrap();
        assert_eq!(players[0].name, "Li Wei");
        assert_eq!(players[0].unit, "Jinhua Club");
        assert_eq!(players[0].title.as_deref(), Some("一级棋士"));
        assert_eq!(players[1].section, Some(GroupId::new("disabled")));
        assert!(players[1].disabled);
    }

    #[test]
    fn group_column_rules() {
        // One pool: the column may be left out.
        let mut single = Rulebook::cxa_2011("x", 7);
        single.event.start_date = Some(date(2018, 1, 1));
        let players = read_registrations(
            "姓名\n甲\n".as_bytes(),
            "reg.csv",
            &ImportOptions::default(),
            &single,
            &[],
            PlayerId(1),
        )
        .unwrap();
        assert_eq!(players[0].group, GroupId::new("open"));
        // Several pools: one error at the header, not one per row.
        let err = read("姓名\n甲\n乙\n").unwrap_err();
        assert_eq!(err.errors.len(), 1, "{err}");
        assert_eq!(err.errors[0].line, 1);
        assert!(
            err.errors[0].message.contains("`青少年组` (youth)"),
            "{err}"
        );
    }

    #[test]
    fn marks_and_explicit_flags() {
        let text = "姓名,组别,残疾\n甲,残疾人组,否\n乙,成人组,是\n丙,成人组,也许\n";
        let err = read(text).unwrap_err();
        let got: Vec<(usize, Option<&str>)> = err
            .errors
            .iter()
            .map(|e| (e.line, e.column.as_deref()))
            .collect();
        assert_eq!(got, vec![(2, Some("残疾")), (4, Some("残疾"))], "{err}");
        let players = read("姓名,组别,残疾\n乙,成人组,是\n").unwrap();
        assert!(players[0].disabled);
        assert_eq!(players[0].section, None);
    }

    #[test]
    fn cells_that_say_none_are_empty() {
        let text = "姓名,组别,称号,等级分,身份证号,电话\n甲,成人组,无,-,无,/\n";
        let players = read(text).unwrap();
        let p = &players[0];
        assert_eq!(
            (&p.title, p.rating, &p.id_number, &p.phone),
            (&None, None, &None, &None)
        );
    }

    #[test]
    fn master_titles_are_refused() {
        let err = read("姓名,组别,称号\n甲,成人组,象棋大师\n").unwrap_err();
        assert_eq!(err.errors.len(), 1);
        assert!(err.errors[0].message.contains("`象棋大师`"), "{err}");
    }

    #[test]
    fn nul_and_missing_header_are_reported() {
        let err = read("姓名,组别\n甲\0,成人组\n").unwrap_err();
        assert_eq!(err.errors[0].line, 2);
        assert!(err.errors[0].message.contains("NUL"), "{err}");
        let err = read("a,b\n1,2\n").unwrap_err();
        assert_eq!(err.errors.len(), 1);
        assert!(err.errors[0].message.contains("姓名/name"), "{err}");
        // A sheet without a header starts with personal data: it is masked.
        let err = read("张三,男,330702198001011232,10012345678\n").unwrap_err();
        let shown = err.to_string();
        assert!(
            shown.contains("`张三,男,330702********1232,100****5678`"),
            "{shown}"
        );
        let err = read("").unwrap_err();
        assert_eq!(err.errors[0].line, 1);
    }

    #[test]
    fn full_width_values_are_normalised() {
        let text = format!(
            "姓名,性别,组别,身份证号,电话\n　张　三　,男,成人组　,{},１００１２３４５６７８\n",
            id("330702", "19800101", 123)
                .chars()
                .map(|c| char::from_u32(c as u32 + 0xFEE0).unwrap())
                .collect::<String>()
        );
        let players = read(&text).unwrap();
        assert_eq!(players[0].name, "张三");
        assert_eq!(players[0].id_number, Some(id("330702", "19800101", 123)));
        assert_eq!(players[0].phone.as_deref(), Some("10012345678"));
    }
}
