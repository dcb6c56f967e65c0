//! The import entry points: one registration file or a batch of several, read all or
//! nothing, with the event's player limit checked over the whole batch.

use super::sheet::Sheet;
use super::{ImportErrors, Place, RowError, xlsx};
use crate::i18n::Text;
use crate::input::decode::Encoding;
use crate::model::{Event, GroupId, Player, PlayerId};
use crate::privacy;
use crate::rulebook::Rulebook;
use std::collections::BTreeMap;

/// How to read a registration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportOptions {
    /// The encoding of a CSV file (workbooks carry their own).
    pub encoding: Encoding,
}

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
    let pools = EntryPools::default();
    read_batch(
        std::slice::from_ref(&file),
        &opts,
        rules,
        existing,
        &pools,
        next_id,
    )
    .map(|i| i.players)
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

/// Where the event's pools send an entry now, as the event's merges and cancellations
/// decide it (not the user: [`BatchOptions`] holds what the command line asks). The
/// default, for a sheet read without an event: every pool takes its own entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryPools {
    /// Each pool merged away with the pool its entries join now
    /// ([`super::groups::merged_pools`]): a row's name is compared with the players of the
    /// pool it ends up in.
    pub merged: BTreeMap<GroupId, GroupId>,
    /// Each pool that takes no entries, cancelled or merged into one that was, with the
    /// cancelled pool ([`super::groups::cancelled_pools`]): a row for it is refused at its
    /// line, as any row in error.
    pub cancelled: BTreeMap<GroupId, GroupId>,
}

impl EntryPools {
    /// The pools of `event` as they take entries now.
    pub fn of(event: &Event, rules: &Rulebook) -> EntryPools {
        EntryPools {
            merged: super::groups::merged_pools(event, rules),
            cancelled: super::groups::cancelled_pools(event, rules),
        }
    }
}

/// One file of a batch: its name as the user gave it and its bytes.
#[derive(Debug, Clone)]
pub struct RegistrationFile<'a> {
    /// The file's name as the user gave it, for messages.
    pub source: String,
    /// The file's contents.
    pub bytes: &'a [u8],
}

/// What was read from one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRead {
    /// The file's name as the user gave it.
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
    /// Every player of the batch, numbered in file order.
    pub players: Vec<Player>,
    /// What was read from each file, in the order given.
    pub files: Vec<FileRead>,
    /// Problems that did not stop the import: columns qiwang does not know, whose values
    /// are kept as extra fields of each player.
    pub warnings: Vec<RowError>,
}

/// Reads several registration files as one batch: all or nothing across the files,
/// players numbered from `next_id` in file order, duplicates found across files (and
/// against `existing`). Workbooks are told from CSV by their content, not their name.
/// `pools`: where the event sends each entry ([`EntryPools::of`]).
pub fn read_batch(
    files: &[RegistrationFile<'_>],
    opts: &BatchOptions,
    rules: &Rulebook,
    existing: &[Player],
    pools: &EntryPools,
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
    sheet.merged = pools.merged.clone();
    sheet.cancelled = pools.cancelled.clone();
    let mut read = Vec::with_capacity(files.len());
    for file in files {
        sheet.errors.next_part();
        if batch && sheet.errors.settled(1) {
            // The problems to show are all in the files before.
            sheet.errors.stop(
                1,
                Some(Place {
                    file: file.source.clone(),
                    sheet: None,
                    col: None,
                }),
            );
        }
        if sheet.errors.stopped() {
            break;
        }
        let before = sheet.players.len();
        let mut this = FileRead {
            source: file.source.clone(),
            sheets: Vec::new(),
            skipped: Vec::new(),
            players: 0,
        };
        if xlsx::is_workbook(file.bytes) {
            sheet.read_workbook(&file.source, file.bytes, opts.sheet.as_deref(), &mut this);
        } else if let Some(want) = &opts.sheet {
            // A CSV file has no sheets: `--sheet` would be silently ignored.
            sheet.errors.push(RowError {
                place: Some(Box::new(Place {
                    file: file.source.clone(),
                    sheet: None,
                    col: None,
                })),
                ..RowError::new(
                    1,
                    None,
                    None,
                    Text::new(
                        format!("这是 CSV 文件，没有工作表，--sheet `{want}` 用不上；请去掉 --sheet，或导入工作簿本身（.xlsx）"),
                        format!("this is a CSV file, which has no sheets, so --sheet `{want}` cannot apply; drop --sheet or import the workbook itself (.xlsx)"),
                    ),
                )
            });
        } else {
            sheet.at = batch.then(|| Place {
                file: file.source.clone(),
                sheet: None,
                col: None,
            });
            sheet.read_csv_file(file.bytes, opts.encoding);
            sheet.finish_part(None);
        }
        this.players = sheet.players.len() - before;
        read.push(this);
    }
    // Dongguan 十四.1 报名总人数暂限300人, and qiwang's default maximum (issue 42 §5): the
    // whole batch is refused, as for any error. A sheet far over it stopped reading early.
    // A team competition's teams are checked over the whole batch and the players
    // registered before (docs/rules.md §17.1), each refusal at its row.
    if sheet.errors.is_empty() && rules.team_competition.is_some() {
        let mut all = existing.to_vec();
        all.extend(sheet.players.iter().cloned());
        for e in super::team_sheet::located(&all, &sheet.players, &sheet.rows, rules) {
            sheet.errors.push(e);
        }
    }
    if sheet.errors.is_empty()
        && let Some(text) = sheet.limit.exceeded(sheet.players.len())
    {
        sheet.errors.push(RowError::new(1, None, None, text));
    }
    let mask = |e: &mut RowError| {
        e.message = Text::new(
            privacy::mask_numbers_in(&e.message.zh),
            privacy::mask_numbers_in(&e.message.en),
        );
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
        Err(sheet.errors.into_errors(source))
    }
}
