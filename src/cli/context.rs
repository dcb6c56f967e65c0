//! What every command needs: the event, its rulebook, the language and format, and
//! resolving the names a user types (groups, players).

use super::args::Cli;
use super::error::{CliError, ExitCode, chain};
use qiwang::i18n::Text;
use qiwang::model::{Event, GroupId, Player, PlayerId};
use qiwang::registration::LookupError;
use qiwang::report::safe::CsvEncoding;
use qiwang::report::{Format, Report};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::{CommandInfo, Store, TxError};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

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

/// The language `--lang` asks for, if given.
pub fn lang_flag(cli: &Cli) -> Option<Lang> {
    cli.lang
        .as_deref()
        .map(|l| if l == "en" { Lang::En } else { Lang::Zh })
}

/// The language of an error when `--lang` is not given: the rulebook's of the file the
/// command works on (`rules check FILE`, `init --rules FILE`), else the event's, else
/// Chinese. Read leniently, so a rulebook with mistakes still names its language.
pub fn error_lang(rules_file: Option<&Path>, event_dir: Option<&Path>) -> Lang {
    let of_file = |path: &Path| {
        read_rulebook_text(path).and_then(|text| qiwang::i18n::rulebook_language(&text))
    };
    if let Some(path) = rules_file {
        return of_file(path).unwrap_or_default();
    }
    let Some(store) = event_store(event_dir) else {
        return Lang::default();
    };
    of_file(&store.rules_path())
        .or_else(|| {
            let event = store.load().ok()?;
            qiwang::i18n::rulebook_language(&event.rules_toml)
        })
        .unwrap_or_default()
}

/// The `(id, name)` of the groups of the rulebook an error is about (found as in
/// [`error_lang`]), so Chinese errors can name groups as the regulation does.
pub fn error_groups(rules_file: Option<&Path>, event_dir: Option<&Path>) -> Vec<(String, String)> {
    let text = match rules_file {
        Some(path) => read_rulebook_text(path),
        None => event_store(event_dir).and_then(|s| read_rulebook_text(&s.rules_path())),
    };
    text.map(|t| qiwang::i18n::rulebook_group_names(&t))
        .unwrap_or_default()
}

/// The event of `--event DIR`, or the one found from the current directory, for an
/// error's language; `None` when there is none (the error says so itself).
fn event_store(event_dir: Option<&Path>) -> Option<Store> {
    match event_dir {
        Some(dir) => Store::open(dir).ok(),
        None => Store::discover(&std::env::current_dir().ok()?).ok(),
    }
}

/// The text of a rulebook read for the help's or an error's language or group names,
/// capped like every input (`qiwang::input`); `None` when it cannot be read. The last
/// file read is kept: the language found before the arguments are parsed and the
/// language and group names of an error come from the same file, read once per run.
pub fn read_rulebook_text(path: &Path) -> Option<String> {
    static LAST: Mutex<Option<(PathBuf, Option<String>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((read, text)) = last.as_ref()
        && read == path
    {
        return text.clone();
    }
    let text = qiwang::input::read_capped(path, qiwang::input::InputKind::Rulebook)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok());
    *last = Some((path.to_path_buf(), text.clone()));
    text
}

impl Ctx {
    pub fn new(cli: &Cli) -> Ctx {
        if cli.format != FormatArg::Json {
            // Nothing this run prints reads a report's JSON value (`--format json` and
            // `export --format json` do): the views need not build it.
            qiwang::report::leave_out_json();
        }
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
            FormatArg::Trf => Err(CliError::usage(Text::new(
                "`--format trf` 只用于 `qiwang export`；请用 table、csv、json 或 html",
                "`--format trf` is only for `qiwang export`; use table, csv, json or html",
            ))),
            FormatArg::Xlsx => Err(CliError::usage(Text::new(
                "这个命令没有 `--format xlsx`；xlsx 用于 players、pair、standings、crosstable、teams、prizes、export 和 template",
                "this command has no `--format xlsx`; xlsx is for players, pair, standings, crosstable, teams, prizes, export and template",
            ))),
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
                    CliError::io(Text::new(
                        format!("无法读取当前目录：{}", why.zh),
                        format!("cannot read the current directory: {}", why.en),
                    ))
                })?;
                Store::discover(&cwd)
            }
        };
        store.map_err(store_error)
    }

    /// Opens and loads the event, re-validating its frozen rulebook.
    pub fn load(&self) -> Result<Loaded, CliError> {
        let store = self.store()?;
        let event = store.load().map_err(store_error)?;
        let rules = rules_of(&event, store.dir())?;
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
            super::emit_bytes(&bytes);
            return Ok(());
        }
        let format = self.format()?;
        let text = report.render(format);
        if format == Format::Csv {
            super::emit_bytes(&self.csv_bytes(&text)?);
        } else {
            out!("{text}");
        }
        Ok(())
    }

    /// The CSV output encoding of `--encoding`.
    pub fn csv_encoding(&self) -> CsvEncoding {
        CsvEncoding::from_name(&self.encoding).unwrap_or_default()
    }

    /// CSV text in the `--encoding` asked for (UTF-8 with BOM by default).
    pub fn csv_bytes(&self, text: &str) -> Result<Vec<u8>, CliError> {
        qiwang::report::safe::encode(text, self.csv_encoding())
            .map_err(|e| CliError::input(Text::of(&e)))
    }
}

/// `argv` with the values of `--id-number` and `--phone` masked, and any other long run
/// of digits (a number typed into a name or reason) masked as a safety net; the seed of
/// `--seed` is kept, since it is what makes a draw reproducible.
fn masked_argv(argv: &[String]) -> Vec<String> {
    use qiwang::registration::privacy::{mask_free_text, mask_id_number, mask_phone};
    let mut out = Vec::with_capacity(argv.len());
    let mut previous: Option<&str> = None;
    for arg in argv {
        let masked = match (previous, arg.split_once('=')) {
            (Some("--id-number"), _) => mask_id_number(arg),
            (Some("--phone"), _) => mask_phone(arg),
            (Some("--seed"), _) => arg.clone(),
            (Some("--birth-date"), _) => birth_year_only(arg),
            (_, Some(("--birth-date", v))) => format!("--birth-date={}", birth_year_only(v)),
            (_, Some(("--id-number", v))) => format!("--id-number={}", mask_id_number(v)),
            (_, Some(("--phone", v))) => format!("--phone={}", mask_phone(v)),
            (_, Some(("--seed", _))) => arg.clone(),
            _ => mask_free_text(arg),
        };
        out.push(masked);
        previous = Some(arg.as_str());
    }
    out
}

/// A birth date as typed, with everything after the year starred (`2008-05-01` →
/// `2008-**-**`): the masked ID number hides exactly the birth date, so a public log
/// must not hold it.
fn birth_year_only(date: &str) -> String {
    date.chars()
        .enumerate()
        .map(|(i, c)| if i >= 4 && c.is_ascii_digit() { '*' } else { c })
        .collect()
}

/// The event's rulebook, validated again from the frozen text.
pub fn rules_of(event: &Event, dir: &Path) -> Result<Rulebook, CliError> {
    Rulebook::from_toml(
        &event.rules_toml,
        &dir.join("qiwang.json").display().to_string(),
    )
    .map_err(|e| {
        let hint = Store::open(dir).ok().map(|store| store.recovery_hint());
        CliError::input(Text::of(&e).map(|m, l| match l {
            Lang::Zh => format!(
                "赛事中保存的规程未通过校验：\n{m}\n{}",
                hint.as_ref().map_or("请从 history/ 恢复 qiwang.json，或重新创建赛事", |h| &h.zh)
            ),
            Lang::En => format!(
                "the rulebook frozen in the event does not validate:\n{m}\n{}",
                hint.as_ref().map_or(
                    "restore qiwang.json from history/ or re-create the event",
                    |h| &h.en
                )
            ),
        }))
    })
}

/// The writer failed (a limit of the format was hit): an internal error, said plainly.
pub fn xlsx_error(e: rust_xlsxwriter::XlsxError) -> CliError {
    CliError::new(
        ExitCode::Internal,
        Text::new(
            format!("无法生成 Excel 工作簿：{e}"),
            format!("cannot build the Excel workbook: {e}"),
        ),
    )
}

/// `--format xlsx` writes binary: refused when standard output is a terminal, where it
/// would only scramble the screen.
pub fn refuse_xlsx_on_terminal() -> Result<(), CliError> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        return Err(CliError::usage(Text::new(
            "`--format xlsx` 输出的是 Excel 工作簿（二进制），不能显示在终端上：请重定向到文件，例如 `qiwang prizes --format xlsx > 获奖名单.xlsx`",
            "`--format xlsx` writes an Excel workbook (binary), which a terminal cannot show: redirect it to a file, e.g. `qiwang prizes --format xlsx > prizes.xlsx`",
        )));
    }
    Ok(())
}

pub fn store_error(e: qiwang::store::StoreError) -> CliError {
    use qiwang::store::StoreError as E;
    let code = match &e {
        E::Damaged { .. } | E::NewerSchema { .. } | E::NothingToUndo => ExitCode::InvalidInput,
        E::NotAnEvent { .. } | E::NoEventAt { .. } | E::AlreadyExists { .. } => ExitCode::Usage,
        _ => ExitCode::Io,
    };
    CliError::new(code, chain(&e))
}

/// Finds the pool a user names (`--group`); see `qiwang::registration::find_pool`.
pub fn resolve_pool(
    rules: &Rulebook,
    event: &Event,
    name: Option<&str>,
) -> Result<GroupId, CliError> {
    qiwang::registration::find_pool(rules, event, name).map_err(|e| match e {
        LookupError::GroupNeeded { .. } => CliError::usage(Text::of(&e)),
        _ => CliError::input(Text::of(&e)),
    })
}

/// Finds a player the user names; see `qiwang::registration::find_player`.
pub fn resolve_player<'a>(
    event: &'a Event,
    pool: Option<&GroupId>,
    text: &str,
) -> Result<&'a Player, CliError> {
    qiwang::registration::find_player(event, pool, text).map_err(|e| CliError::input(Text::of(&e)))
}

/// Pools that have at least one round.
pub fn pools_with_rounds(rules: &Rulebook, event: &Event) -> Vec<GroupId> {
    rules
        .pools()
        .map(|g| g.id.clone())
        .filter(|id| event.group(id).is_some_and(|g| !g.rounds.is_empty()))
        .collect()
}

/// Reads a UTF-8 text file, naming it in every error.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes = crate::cli::error::read_input(path, qiwang::input::InputKind::Rulebook)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        CliError::input(Text::new(
            format!(
                "`{}` 不是 UTF-8 文本（第 {at} 字节）：请另存为 UTF-8",
                path.display()
            ),
            format!(
                "`{}` is not UTF-8 text (byte {at}): save it as UTF-8",
                path.display()
            ),
        ))
    })
}

/// A player as the arbiter reads them on a sheet: 张三(12), name and pairing number.
pub fn player_label(event: &Event, id: PlayerId) -> String {
    event.player(id).map_or(id.to_string(), |p| match p.number {
        Some(n) => format!("{}({n})", p.name),
        None => p.name.clone(),
    })
}

/// A failed transaction: store problems keep their I/O code, command errors theirs.
pub fn tx_error(e: TxError<CliError>) -> CliError {
    match e {
        TxError::Store(e) => store_error(e),
        TxError::Command(e) => e,
    }
}

/// For library errors inside a transaction: invalid input, with the cause chain.
pub fn input_error<E: std::error::Error + qiwang::i18n::Localize>(e: E) -> CliError {
    CliError::input(chain(&e))
}

#[cfg(test)]
mod tests {
    use super::masked_argv;

    #[test]
    fn personal_numbers_are_masked_in_the_logged_command_line() {
        let cases: [(&[&str], &[&str]); 7] = [
            (
                &[
                    "player",
                    "add",
                    "--birth-date",
                    "2008-05-01",
                    "--name",
                    "甲",
                ],
                &[
                    "player",
                    "add",
                    "--birth-date",
                    "2008-**-**",
                    "--name",
                    "甲",
                ],
            ),
            (
                &[
                    "player",
                    "edit",
                    "7",
                    "--birth-date=20080501",
                    "--reason",
                    "电话 138-1234-5678",
                ],
                &[
                    "player",
                    "edit",
                    "7",
                    "--birth-date=2008****",
                    "--reason",
                    "电话 138****5678",
                ],
            ),
            (
                &[
                    "player",
                    "add",
                    "--id-number",
                    "330723199001011239",
                    "--phone",
                    "13912345678",
                ],
                &[
                    "player",
                    "add",
                    "--id-number",
                    "330723********1239",
                    "--phone",
                    "139****5678",
                ],
            ),
            (
                &[
                    "player",
                    "edit",
                    "7",
                    "--phone=13912345678",
                    "--id-number=33072319900101123X",
                ],
                &[
                    "player",
                    "edit",
                    "7",
                    "--phone=139****5678",
                    "--id-number=330723********123X",
                ],
            ),
            (
                &["penalty", "7", "1", "--reason", "called 13912345678"],
                &["penalty", "7", "1", "--reason", "called 139****5678"],
            ),
            (
                &["pair", "--seed", "201812345678"],
                &["pair", "--seed", "201812345678"],
            ),
            (
                &["result", "1", "r", "2", "="],
                &["result", "1", "r", "2", "="],
            ),
        ];
        for (argv, want) in cases {
            let argv: Vec<String> = argv.iter().map(ToString::to_string).collect();
            assert_eq!(masked_argv(&argv), want.to_vec(), "{argv:?}");
        }
    }
}
