//! What every command needs: the event, its rulebook, the language and format, and
//! resolving the names a user types (groups, players).

use super::args::Cli;
use super::error::{CliError, ExitCode, cannot_read, chain};
use qiwang::i18n::Text;
use qiwang::model::{Event, GroupId, Player, PlayerId};
use qiwang::registration::LookupError;
use qiwang::report::{Format, Report};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::{CommandInfo, Store, TxError};
use std::path::{Path, PathBuf};

/// `--format`: the read formats plus `trf` for `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    Table,
    Csv,
    Json,
    Html,
    Trf,
}

impl std::str::FromStr for FormatArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "trf" => Ok(FormatArg::Trf),
            other => match other.parse::<Format>() {
                Ok(Format::Table) => Ok(FormatArg::Table),
                Ok(Format::Csv) => Ok(FormatArg::Csv),
                Ok(Format::Json) => Ok(FormatArg::Json),
                Ok(Format::Html) => Ok(FormatArg::Html),
                Err(_) => Err(format!(
                    "unknown format `{other}`: use one of table, csv, json, html (export: html, json, trf)"
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
        std::fs::read(path)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| qiwang::i18n::rulebook_language(&text))
    };
    if let Some(path) = rules_file {
        return of_file(path).unwrap_or_default();
    }
    let store = match event_dir {
        Some(dir) => Store::open(dir).ok(),
        None => std::env::current_dir()
            .ok()
            .and_then(|cwd| Store::discover(&cwd).ok()),
    };
    let Some(store) = store else {
        return Lang::default();
    };
    of_file(&store.rules_path())
        .or_else(|| {
            let event = store.load().ok()?;
            qiwang::i18n::rulebook_language(&event.rules_toml)
        })
        .unwrap_or_default()
}

impl Ctx {
    pub fn new(cli: &Cli) -> Ctx {
        Ctx {
            event_dir: cli.event.clone(),
            lang: lang_flag(cli),
            format_arg: cli.format,
            show_private: cli.show_private,
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
        }
    }

    pub fn lang(&self, rules: &Rulebook) -> Lang {
        self.lang.unwrap_or(rules.event.language)
    }

    /// Who ran what, for the audit log. The command line is logged with its personal
    /// numbers masked: `audit.log` and `qiwang log` are shown to anyone (DESIGN.md "Data
    /// and persistence"); the full numbers are in the state.
    pub fn command_info(&self) -> CommandInfo {
        CommandInfo::new(self.command_name, masked_argv(&self.argv))
    }

    pub fn store(&self) -> Result<Store, CliError> {
        let store = match &self.event_dir {
            Some(dir) => Store::open(dir),
            None => {
                let cwd = std::env::current_dir().map_err(|e| {
                    CliError::io(Text::new(
                        format!("无法读取当前目录：{e}"),
                        format!("cannot read the current directory: {e}"),
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

    /// Prints a report in the chosen format.
    pub fn print(&self, report: &Report) -> Result<(), CliError> {
        let text = report.render(self.format()?);
        out!("{text}");
        Ok(())
    }
}

/// `argv` with the values of `--id-number` and `--phone` masked, and any other long run
/// of digits (a number typed into a name or reason) masked as a safety net; the seed of
/// `--seed` is kept, since it is what makes a draw reproducible.
fn masked_argv(argv: &[String]) -> Vec<String> {
    use qiwang::registration::privacy::{mask_id_number, mask_numbers_in, mask_phone};
    let mut out = Vec::with_capacity(argv.len());
    let mut previous: Option<&str> = None;
    for arg in argv {
        let masked = match (previous, arg.split_once('=')) {
            (Some("--id-number"), _) => mask_id_number(arg),
            (Some("--phone"), _) => mask_phone(arg),
            (Some("--seed"), _) => arg.clone(),
            (_, Some(("--id-number", v))) => format!("--id-number={}", mask_id_number(v)),
            (_, Some(("--phone", v))) => format!("--phone={}", mask_phone(v)),
            (_, Some(("--seed", _))) => arg.clone(),
            _ => mask_numbers_in(arg),
        };
        out.push(masked);
        previous = Some(arg.as_str());
    }
    out
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
    let bytes = std::fs::read(path).map_err(|e| cannot_read(path, &e))?;
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
        let cases: [(&[&str], &[&str]); 5] = [
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
            let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
            assert_eq!(masked_argv(&argv), want.to_vec(), "{argv:?}");
        }
    }
}
