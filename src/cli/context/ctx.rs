//! [`Ctx`], what every command starts from (the global options and the event found from
//! them), and [`Loaded`], the event it opens with its validated rulebook.

use super::Refusal;
use super::errors::lib_error;
use super::lang::lang_flag;
use super::xlsx::xlsx_error;
use crate::cli::args::Cli;
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::i18n::{Localize, bi};
use qiwang::model::Event;
use qiwang::privacy::masked_argv;
use qiwang::report::safe::CsvEncoding;
use qiwang::report::{Format, Json, Report};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::{CommandInfo, Store};
use std::path::PathBuf;

/// `--format`: the read formats plus `trf` for `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    Table,
    Csv,
    Json,
    Html,
    Trf,
    /// An Excel workbook (binary: written to a file or a pipe, never a terminal).
    Xlsx,
}

impl std::str::FromStr for FormatArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "trf" => Ok(FormatArg::Trf),
            "xlsx" | "excel" => Ok(FormatArg::Xlsx),
            other => match other.parse::<Format>() {
                Ok(Format::Table) => Ok(FormatArg::Table),
                Ok(Format::Csv) => Ok(FormatArg::Csv),
                Ok(Format::Json) => Ok(FormatArg::Json),
                Ok(Format::Html) => Ok(FormatArg::Html),
                Err(_) => Err(format!(
                    "unknown format `{other}`: use one of table, csv, json, html, xlsx (export: html, csv, json, trf, xlsx)"
                )),
            },
        }
    }
}

pub struct Ctx {
    pub event_dir: Option<PathBuf>,
    pub lang: Option<Lang>,
    pub format_arg: FormatArg,
    pub show_private: bool,
    /// `--encoding` as given (`auto` when not).
    pub encoding: String,
    pub argv: Vec<String>,
    /// The subcommand, for snapshot names and the audit log.
    pub command_name: &'static str,
}

/// A loaded event with its validated rulebook.
pub struct Loaded {
    pub store: Store,
    pub event: Event,
    pub rules: Rulebook,
}

/// [`Loaded`] with its event kept with the bytes it was read from ([`Ctx::load_kept`]).
pub struct LoadedKept {
    pub store: Store,
    pub kept: qiwang::store::Kept,
    pub rules: Rulebook,
}

impl LoadedKept {
    /// As [`Loaded`], for a command that turns to a way of changing the event that does
    /// not use the kept bytes.
    pub fn into_loaded(self) -> Loaded {
        Loaded {
            store: self.store,
            event: self.kept.into_event(),
            rules: self.rules,
        }
    }
}

impl Ctx {
    /// For a command that confirms what it did in plain text and has no report to render
    /// in another format (`result`, `penalty`, `player …`, `undo` …: the list is in
    /// `args::dispatch`): any other `--format` is refused (a usage error) before the event
    /// is read, as `certificates` and `template` refuse the formats they lack, rather than
    /// ignored.
    /// `name`: the command as typed ([`Command::typed_name`]).
    ///
    /// [`Command::typed_name`]: crate::cli::args::Command::typed_name
    pub fn plain_text_only(&self, name: &str) -> Result<(), CliError> {
        if self.format_arg == FormatArg::Table {
            return Ok(());
        }
        Err(CliError::from(Refusal::Format(Text::new(
            format!(
                "`qiwang {name}` 只输出文字确认：请去掉 `--format`，或用 `--format table`；录入后可用 `qiwang round --format json`、`qiwang standings --format json` 查看"
            ),
            format!(
                "`qiwang {name}` confirms in plain text only: leave `--format` out or use `--format table`; `qiwang round --format json` and `qiwang standings --format json` show what was recorded"
            ),
        ))))
    }

    pub fn new(cli: &Cli) -> Ctx {
        Ctx {
            event_dir: cli.event.clone(),
            lang: lang_flag(cli),
            format_arg: cli.format,
            show_private: cli.show_private,
            encoding: cli.encoding.clone().unwrap_or_else(|| "auto".into()),
            argv: std::env::args().skip(1).collect(),
            command_name: cli.command.name(),
        }
    }

    /// The output format of a read command (`trf` is only for export).
    pub fn format(&self) -> Result<Format, CliError> {
        match self.format_arg {
            FormatArg::Table => Ok(Format::Table),
            FormatArg::Csv => Ok(Format::Csv),
            FormatArg::Json => Ok(Format::Json),
            FormatArg::Html => Ok(Format::Html),
            FormatArg::Trf => Err(CliError::from(Refusal::Format(Text::new(
                "`--format trf` 只用于 `qiwang export`；请用 table、csv、json 或 html",
                "`--format trf` is only for `qiwang export`; use table, csv, json or html",
            )))),
            FormatArg::Xlsx => Err(CliError::from(Refusal::Format(Text::new(
                "这个命令没有 `--format xlsx`；xlsx 用于 players、pair、standings、crosstable、teams、prizes、export、template 和 `qiwang round --sheet slips`",
                "this command has no `--format xlsx`; xlsx is for players, pair, standings, crosstable, teams, prizes, export, template and `qiwang round --sheet slips`",
            )))),
        }
    }

    /// Whether the views make a report's JSON: only `--format json` (and `export --format
    /// json`) prints it, so every other run leaves it out; printed as it is, a large view
    /// may write it as text ([`Json::Text`]).
    pub fn json(&self) -> Json {
        if self.format_arg == FormatArg::Json {
            Json::Text
        } else {
            Json::LeaveOut
        }
    }

    pub fn lang(&self, rules: &Rulebook) -> Lang {
        self.lang.unwrap_or(rules.event.language)
    }

    /// Who ran what, for the audit log. The command line is logged with its personal
    /// numbers masked: `audit.log` and `qiwang log` are shown to anyone (docs/architecture.md "Data
    /// and persistence"); the full numbers are in the state.
    pub fn command_info(&self) -> CommandInfo {
        CommandInfo::new(self.command_name, masked_argv(&self.argv))
    }

    pub fn store(&self) -> Result<Store, CliError> {
        let store = match &self.event_dir {
            Some(dir) => Store::open(dir),
            None => {
                let cwd = std::env::current_dir().map_err(|e| {
                    let why = qiwang::i18n::io_error(&e);
                    CliError::from(Refusal::CannotRead(Text::new(
                        format!("无法读取当前目录：{}", why.zh),
                        format!("cannot read the current directory: {}", why.en),
                    )))
                })?;
                Store::discover(&cwd)
            }
        };
        store.map_err(lib_error)
    }

    /// Opens and loads the event, re-validating its frozen rulebook, for a command that
    /// changes it (or tries a change with `--dry-run`): an older copy of `qiwang.json` put
    /// back is refused at once, with the way back, as the change itself would be; checked
    /// against the copy, the command would answer from contents that are not the event's
    /// (a result the newest state has called missing, a sheet called clean). A command
    /// that only reads uses [`Ctx::load_read`].
    pub fn load(&self) -> Result<Loaded, CliError> {
        let loaded = self.load_unchecked()?;
        refuse_older_copy(&loaded.store, loaded.event.change)?;
        Ok(loaded)
    }

    /// The event as stored, whether or not it is an older copy put back.
    fn load_unchecked(&self) -> Result<Loaded, CliError> {
        let store = self.store()?;
        let event = store.load().map_err(lib_error)?;
        let rules = rules_of(&event, &store)?;
        Ok(Loaded {
            store,
            event,
            rules,
        })
    }

    /// [`Ctx::load`] for a command that only prints the event: each name and unit holding
    /// an ID or phone number (kept by an older qiwang or a hand edit of the state) masked
    /// as every output prints it (`views::mask_names_and_units`), unless `--show-private`
    /// asks for what is stored. Never for a command that changes the event or looks a
    /// player up by name.
    pub fn load_shown(&self) -> Result<Loaded, CliError> {
        let mut loaded = self.load_read()?;
        if !self.show_private {
            qiwang::views::mask_names_and_units(&mut loaded.event);
        }
        Ok(loaded)
    }

    /// [`Ctx::load`] for a command that only reads the event (what [`Ctx::load_shown`]
    /// prints, `check`): when `qiwang.json` is an older copy put back (a backup, a USB
    /// stick), which every change refuses, a note on stderr says so before the output, so
    /// that standings or a prize list printed from it are not taken for the event's.
    pub fn load_read(&self) -> Result<Loaded, CliError> {
        let loaded = self.load_unchecked()?;
        let older = loaded
            .store
            .stale_for_reading(loaded.event.change)
            .map_err(lib_error)?;
        if let Some(refusal) = older {
            let lang = self.lang(&loaded.rules);
            errln!(
                "{}",
                bi!(
                    lang,
                    zh(
                        "注意：以下内容来自一份旧副本，不是赛事的最新状态；修复之前 qiwang 拒绝任何修改：{}",
                        refusal.localize(lang)
                    ),
                    en(
                        "note: what follows comes from an older copy, not the event's newest state; qiwang refuses every change until this is repaired: {}",
                        refusal.localize(lang)
                    )
                )
            );
        }
        Ok(loaded)
    }

    /// [`Ctx::load`] for a command that checks its input against the event and then
    /// changes it: the event stays in the [`qiwang::store::Kept`] it was read with, so
    /// that the change ([`qiwang::store::Store::transaction_on`]) does not read and check
    /// the same state again.
    pub fn load_kept(&self) -> Result<LoadedKept, CliError> {
        let store = self.store()?;
        let kept = store.load_kept().map_err(lib_error)?;
        refuse_older_copy(&store, kept.event().change)?;
        let rules = rules_of(kept.event(), &store)?;
        Ok(LoadedKept { store, kept, rules })
    }

    /// [`Ctx::load`] for a command that names players and groups but reads no round
    /// (`log`): the rulebook and the players only ([`Store::load_roster`]), so the rounds
    /// of a 100,000-player event are neither read into memory nor checked.
    pub fn load_roster(&self) -> Result<Loaded, CliError> {
        let store = self.store()?;
        let event = store.load_roster().map_err(lib_error)?;
        let rules = rules_of(&event, &store)?;
        Ok(Loaded {
            store,
            event,
            rules,
        })
    }

    /// Prints a report in the chosen format: CSV in the `--encoding` asked for; `xlsx`
    /// as the workbook's bytes, to a file or pipe (`dispatch` has refused a terminal
    /// before the command ran).
    pub fn print(&self, report: &Report) -> Result<(), CliError> {
        if self.format_arg == FormatArg::Xlsx {
            let bytes = report.render_xlsx().map_err(xlsx_error)?;
            crate::cli::emit_bytes(&bytes);
            return Ok(());
        }
        let format = self.format()?;
        if format == Format::Json
            && let Some(text) = &report.json_text
        {
            // Hundreds of MB for 100,000 players: printed where it is, not copied.
            crate::cli::emit(text);
            crate::cli::emit("\n");
            return Ok(());
        }
        self.print_rendered(format, &report.render(format))
    }

    /// Prints `text`, rendered in `format`: CSV in the `--encoding` asked for (one
    /// byte-order mark for UTF-8, none for `utf-8`, GBK bytes for `gbk`), else as it is.
    pub fn print_rendered(&self, format: Format, text: &str) -> Result<(), CliError> {
        if format == Format::Csv {
            crate::cli::emit_bytes(&self.csv_bytes(text)?);
        } else {
            crate::cli::emit(text);
        }
        Ok(())
    }

    /// The CSV output encoding of `--encoding`.
    pub fn csv_encoding(&self) -> CsvEncoding {
        CsvEncoding::from_name(&self.encoding).unwrap_or_default()
    }

    /// CSV text in the `--encoding` asked for (UTF-8 with BOM by default).
    pub fn csv_bytes(&self, text: &str) -> Result<Vec<u8>, CliError> {
        qiwang::report::safe::encode(text, self.csv_encoding()).map_err(lib_error)
    }
}

/// Refuses a state that is an older copy put back (`change` being the number it records),
/// with the way back, before a command that changes the event (or tries the change with
/// `--dry-run`) checks anything against it: one read of `audit.log`'s last line when it
/// is the newest ([`Store::stale_for_reading`]).
fn refuse_older_copy(store: &Store, change: Option<u64>) -> Result<(), CliError> {
    match store.stale_for_reading(change).map_err(lib_error)? {
        Some(refusal) => Err(lib_error(refusal)),
        None => Ok(()),
    }
}

/// The event's rulebook, validated again from the frozen text, with the earlier rulebooks
/// `rules update` kept for the rounds paired under them (docs/rules.md §13), and every
/// player in one of its groups (a state that says otherwise is refused as damaged).
fn rules_of(event: &Event, store: &Store) -> Result<Rulebook, CliError> {
    let dir = store.dir();
    let state = dir.join("qiwang.json");
    // Lines and columns are the rulebook text's, which the state file holds as the
    // string `rules_toml`: named so, not as positions in the state file itself.
    let rules = Rulebook::from_toml(
        &event.rules_toml,
        &format!("{} `rules_toml`", state.display()),
    )
    .map_err(|e| frozen_invalid(store, Text::of(&e)))?;
    for (i, text) in event.earlier_rulebooks.iter().enumerate() {
        Rulebook::from_toml(
            text,
            &format!("{} `earlier_rulebooks[{i}]`", state.display()),
        )
        .map_err(|e| frozen_invalid(store, Text::of(&e)))?;
    }
    let kept = event.earlier_rulebooks.len();
    for (pool, g) in &event.groups {
        for r in &g.paired_under {
            if usize::try_from(r.rulebook).map_or(true, |i| i >= kept) {
                let (round, i) = (r.round, r.rulebook);
                return Err(frozen_invalid(
                    store,
                    Text::new(
                        format!(
                            "{}：`groups.{pool}.paired_under` 说第 {round} 轮按 `earlier_rulebooks[{i}]` 编排，而状态文件只保存了 {kept} 份先前的规程",
                            state.display()
                        ),
                        format!(
                            "{}: `groups.{pool}.paired_under` says round {round} was paired under `earlier_rulebooks[{i}]`, but the state keeps {kept} earlier rulebooks",
                            state.display()
                        ),
                    ),
                ));
            }
        }
    }
    store
        .check_groups(event, rules.groups.iter().map(|g| &g.id))
        .map_err(lib_error)?;
    Ok(rules)
}

/// A rulebook frozen in the event that does not validate: what is wrong and the way back.
fn frozen_invalid(store: &Store, problem: Text) -> CliError {
    let hint = store.recovery_hint();
    CliError::from(Refusal::Damaged(problem.map(|m, l| {
        let back = hint.get(l);
        bi!(
            l,
            zh("赛事中保存的规程未通过校验：\n{m}\n{back}"),
            en("the rulebook frozen in the event does not validate:\n{m}\n{back}")
        )
    })))
}
