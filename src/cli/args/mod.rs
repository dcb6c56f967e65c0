//! The command line's shape (clap derive): the global options and the list of commands
//! with their arguments. The subcommand families (`rules`, `player`, `pairing`, `group`,
//! `demo`) are in `families`, the bilingual option values in `values`, and the call of
//! one file per command in `dispatch`.

mod dispatch;
mod families;
mod values;

pub use dispatch::dispatch;
pub use families::{
    DemoArgs, DemoExample, GroupCommand, PairingCommand, PlayerCommand, PlayerFields, RulesCommand,
};
pub use values::chinese_value;

use super::commands;
use super::context::FormatArg;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use values::sheet_values;

/// qiwang (棋王): Swiss-system xiangqi tournament director.
#[derive(Debug, Parser)]
#[command(name = "qiwang", version, about, long_about = None)]
pub struct Cli {
    /// The event directory (default: the current directory or a parent holding qiwang.json).
    #[arg(long, global = true, value_name = "DIR")]
    pub event: Option<PathBuf>,
    /// Output language (default: the rulebook's).
    #[arg(long, global = true, value_parser = ["zh", "en"])]
    pub lang: Option<String>,
    /// Output format of read commands.
    #[arg(long, global = true, default_value = "table")]
    pub format: FormatArg,
    /// The arbiter's view: every player column in full (ID-card and phone numbers, birth
    /// dates) and the notes and reasons typed into withdrawals, disqualifications,
    /// penalties and playoffs, which public outputs leave out.
    #[arg(long, global = true)]
    pub show_private: bool,
    /// Encoding of CSV files: `import` reads auto (UTF-8, UTF-8 with BOM or GBK), utf-8
    /// or gbk; CSV output is UTF-8 with BOM (auto, opens in Chinese Excel), utf-8
    /// (no BOM) or gbk.
    #[arg(long, global = true, value_parser = ["auto", "utf-8", "utf8", "gbk"])]
    pub encoding: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a whole bundled example event (registrations, every round, results, prizes).
    Demo(DemoArgs),
    /// Create an event directory with a frozen copy of the rulebook.
    Init {
        dir: PathBuf,
        #[arg(long, value_name = "FILE")]
        rules: PathBuf,
    },
    /// Validate a rulebook or print the effective rules.
    #[command(subcommand)]
    Rules(RulesCommand),
    /// Import registration sheets: Excel workbooks (.xlsx, .xls, .ods) or CSV (UTF-8,
    /// UTF-8 with BOM or GBK); several files are one all-or-nothing batch.
    Import {
        #[arg(required = true, num_args = 1..)]
        files: Vec<PathBuf>,
        /// Check the file and show what would be imported, change nothing.
        #[arg(long)]
        dry_run: bool,
        /// Read only this worksheet of each workbook (default: every sheet with a header row).
        #[arg(long, value_name = "NAME")]
        sheet: Option<String>,
        /// Refuse the files when a column is not one qiwang knows (default: a warning).
        #[arg(long)]
        strict: bool,
        /// Accept entries into pools already paired after the rulebook's
        /// `registration_deadline` (logged as late).
        #[arg(long)]
        late: bool,
    },
    /// Write the registration sheet for the event's rulebook (or `--rules FILE`): the
    /// columns its groups need, an example row and the allowed values. `--format xlsx`
    /// (or an `--out` ending in .xlsx) writes a workbook with drop-down lists; else CSV.
    Template {
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
    },
    /// List players.
    Players {
        #[arg(long)]
        group: Option<String>,
    },
    /// Add, correct or withdraw a player.
    #[command(subcommand)]
    Player(PlayerCommand),
    /// Pair the next round of a group and print the pairing sheet.
    Pair {
        #[arg(long)]
        group: Option<String>,
        /// Pair the next round of every group that is ready and print every sheet.
        #[arg(long, conflicts_with = "group")]
        all: bool,
        /// Seed of the round-1 draw (recorded in the event).
        #[arg(long, allow_negative_numbers = true)]
        seed: Option<u64>,
        /// Show the pairing without storing it.
        #[arg(long)]
        dry_run: bool,
        /// Say why: floats, colours, the bye.
        #[arg(long)]
        explain: bool,
        /// Pair round 1 of a group below its `min_size` anyway (logged).
        #[arg(long)]
        allow_small: bool,
        /// For this round only, the rules that may be broken when no pairing meets every
        /// hard rule, in the order of `pairing.relax` (the last weighs most), e.g.
        /// `--relax colour,team,rematch`; logged. The rulebook is unchanged.
        #[arg(long, value_delimiter = ',')]
        relax: Option<Vec<String>>,
    },
    /// Show a round again: the pairing sheet (with results once entered) or another sheet
    /// to print: `--sheet slips` (成绩登记表), `cards` (台签), `find` (姓名 → 台号, by
    /// pinyin) or `wall` (总表). Default: the newest round of every group.
    Round {
        /// The round (default: each group's newest).
        #[arg(allow_negative_numbers = true)]
        round: Option<u32>,
        #[arg(long)]
        group: Option<String>,
        #[arg(long, default_value = "pairings", value_parser = sheet_values())]
        sheet: String,
    },
    /// Drop the newest round of a group while it has no results.
    Unpair {
        #[arg(long)]
        group: Option<String>,
    },
    /// Edit an unplayed round by hand.
    #[command(subcommand)]
    Pairing(PairingCommand),
    /// Verify every round against the hard pairing rules.
    Check {
        #[arg(long)]
        group: Option<String>,
        /// Prove each round optimal: re-solve it and compare the criteria level by level.
        #[arg(long)]
        optimal: bool,
        /// With `--optimal`: only this round.
        #[arg(long, requires = "optimal", allow_negative_numbers = true)]
        round: Option<u32>,
    },
    /// Enter or correct results: `qiwang result 1 r 2 = 3 b/0:2 …`; in a team competition a
    /// match and its boards: `qiwang result 3 1-0 0-1 = 1-0`, tiebreak games `result 3 tiebreak = 1-0`.
    Result {
        #[arg(long)]
        group: Option<String>,
        #[arg(long, allow_negative_numbers = true)]
        round: Option<u32>,
        /// A results file (CSV or xlsx): round, table, outcome, fouls; 红方/黑方 and 编排码
        /// are checked against the pairing.
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
        /// TABLE OUTCOME pairs; an outcome may carry fouls as OUTCOME/RED:BLACK.
        /// Forfeit tokens such as `-+` and `--` after a table number are taken as outcomes.
        entries: Vec<String>,
        /// The players of each table typed, in order, as RED/BLACK (`闫文/卢林旭`, `#3/#8`,
        /// `闫文/`): nothing is recorded unless they play that table in those colours.
        #[arg(long, value_name = "RED/BLACK")]
        names: Vec<String>,
    },
    /// Deduct points (e.g. Dongguan: disturbing a game costs 2).
    /// POINTS defaults to the rulebook's `conduct.disturbance_penalty`.
    Penalty {
        player: String,
        #[arg(allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(0..))]
        points: Option<i32>,
        #[arg(long)]
        reason: String,
    },
    /// A warning without a point loss (警告): on the player's record, nothing deducted.
    Warn {
        /// The player: registration id, `#number` or name.
        player: String,
        /// Why (logged).
        #[arg(long)]
        reason: String,
    },
    /// Record the playoff that settled a tie for first: players in final order, winner first.
    /// With `--list LIST`: the tie atop (or at the qualification line of) that prize list.
    Playoff {
        #[arg(long)]
        group: Option<String>,
        /// The prize list (id or name) whose tie the playoff settled.
        #[arg(long)]
        list: Option<String>,
        players: Vec<String>,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Ranked table with every tiebreak column.
    Standings {
        #[arg(long)]
        group: Option<String>,
        #[arg(long, allow_negative_numbers = true)]
        round: Option<u32>,
        /// One prize list's view (e.g. girls only).
        #[arg(long)]
        list: Option<String>,
    },
    /// Per player and round: opponent, colour, result.
    Crosstable {
        #[arg(long)]
        group: Option<String>,
        #[arg(long, allow_negative_numbers = true)]
        round: Option<u32>,
    },
    /// Team ranking (best N of a unit).
    Teams {
        #[arg(long)]
        team: Option<String>,
    },
    /// The prize sheet: every list, places, money, titles, totals.
    Prizes,
    /// Team competition: bring reserves in for players in one round's line-up, each on the
    /// board of the player taken out: `qiwang lineup 3 红星队 张三 李四` (张三 out, 李四 in).
    Lineup {
        #[arg(long)]
        group: Option<String>,
        /// The round.
        #[arg(allow_negative_numbers = true)]
        round: u32,
        /// The team's name.
        team: String,
        /// Players in pairs: the one taken out, then the one brought in.
        players: Vec<String>,
    },
    /// Team competition: every player's results board by board (台次成绩).
    Boards {
        #[arg(long)]
        group: Option<String>,
        #[arg(long, allow_negative_numbers = true)]
        round: Option<u32>,
    },
    /// Certificates (奖状): one A4 landscape page per award, as HTML to print.
    Certificates {
        /// Only this prize list or team competition (id or name).
        #[arg(long)]
        list: Option<String>,
        /// The certificate template (TOML: texts and sizes); default: the built-in one.
        #[arg(long, value_name = "FILE")]
        template: Option<PathBuf>,
        /// Print the built-in template, to edit and pass to `--template`.
        #[arg(long, conflicts_with_all = ["list", "template"])]
        print_template: bool,
    },
    /// The programme (秩序册): schedule, groups, key rules, entries by unit.
    Programme,
    /// Group sizes, cancellation and merging.
    #[command(subcommand)]
    Group(GroupCommand),
    /// Write files to print or publish.
    /// `--format html|csv|json|trf|xlsx` (default html): a static site, CSV files, the
    /// whole event, FIDE TRF per group, or one Excel workbook.
    Export {
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[arg(long)]
        group: Option<String>,
        /// Write into a folder that holds files qiwang did not write.
        #[arg(long)]
        force: bool,
    },
    /// Serve the event's pages to the phones in the hall, a hall screen (`/screen`) and a
    /// printable poster (`/poster.html`), updated live (docs/serve.md).
    Serve {
        /// The port to listen on.
        #[arg(long, default_value_t = 8080, allow_negative_numbers = true)]
        port: u16,
        /// Listen on the hall network (every address of this machine) instead of only this
        /// machine, and print the address and its QR code.
        #[arg(long)]
        lan: bool,
        /// The address to announce with `--lan` (default: this machine's on the network).
        #[arg(long, value_name = "IP", requires = "lan")]
        address: Option<std::net::IpAddr>,
        /// Print a new one-time login token for the arbiter's result entry (`/arbiter/`),
        /// for every table (`all`) or a range (`1-20`); repeat for more tokens.
        #[arg(long, value_name = "TABLES")]
        token: Vec<String>,
        /// Revoke the token with this id (`A1`), or `all`, and end its sessions; then exit.
        #[arg(long, value_name = "ID", conflicts_with = "token")]
        revoke: Option<String>,
        /// With `--token`: print the new tokens and exit, for a server already running
        /// (it reads them at the next login).
        #[arg(long, requires = "token")]
        tokens_only: bool,
        #[command(flatten)]
        more: commands::serve::ServeOptions,
    },
    /// The audit trail of every change.
    Log,
    /// Restore the state before the last change.
    Undo {
        /// Show what would be reverted, change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Take back the last undo (exactly the state it replaced).
    Redo,
    /// Free the event of a lock whose holder has ended; a live holder is never broken.
    Unlock,
    /// Print a shell completion script (`qiwang completions bash > /etc/bash_completion.d/qiwang`).
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff; `qiwang man > qiwang.1`).
    Man,
}

impl Command {
    /// The rulebook file the command reads, if it names one (its language is the
    /// language of the command's errors).
    pub fn rules_file(&self) -> Option<&std::path::Path> {
        match self {
            Command::Init { rules, .. } => Some(rules),
            Command::Rules(RulesCommand::Check { file }) => Some(file),
            Command::Rules(RulesCommand::Show { file }) => file.as_deref(),
            Command::Rules(RulesCommand::Update { file }) => Some(file),
            Command::Demo(args) => args.rules.as_deref(),
            Command::Template { rules, .. } => rules.as_deref(),
            _ => None,
        }
    }

    /// Whether the command changes the event and only confirms it in plain text, with no
    /// report to print in another format (`--format json` is refused for it): every
    /// command that writes the event, less those that print a report (`pair`, `pairing`,
    /// `lineup`) and `demo`. A new command that changes the event belongs here unless it
    /// prints a report.
    pub fn confirms_in_plain_text(&self) -> bool {
        matches!(
            self,
            Command::Init { .. }
                | Command::Import { .. }
                | Command::Player(_)
                | Command::Result { .. }
                | Command::Penalty { .. }
                | Command::Warn { .. }
                | Command::Playoff { .. }
                | Command::Unpair { .. }
                | Command::Undo { .. }
                | Command::Redo
                | Command::Unlock
                | Command::Rules(RulesCommand::Update { .. })
                | Command::Group(GroupCommand::Merge { .. } | GroupCommand::Cancel { .. })
        )
    }

    /// The command as a user types it, for messages that tell them what they ran (`rules
    /// update`, `group merge`); [`Command::name`] is the name the audit log and the
    /// snapshots record, one for every `rules` command, and stays as recorded.
    pub fn typed_name(&self) -> String {
        match self {
            Command::Rules(RulesCommand::Check { .. }) => "rules check".into(),
            Command::Rules(RulesCommand::Show { .. }) => "rules show".into(),
            Command::Rules(RulesCommand::Update { .. }) => "rules update".into(),
            Command::Pairing(PairingCommand::Swap { .. }) => "pairing swap".into(),
            Command::Pairing(PairingCommand::Set { .. }) => "pairing set".into(),
            // `group-merge` is typed `group merge`.
            _ => self.name().replace('-', " "),
        }
    }

    /// The subcommand's name as the audit log records it.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Demo(_) => "demo",
            Command::Init { .. } => "init",
            Command::Rules(_) => "rules",
            Command::Import { .. } => "import",
            Command::Template { .. } => "template",
            Command::Players { .. } => "players",
            Command::Player(PlayerCommand::Add { .. }) => "player-add",
            Command::Player(PlayerCommand::Edit { .. }) => "player-edit",
            Command::Player(PlayerCommand::Withdraw { .. }) => "player-withdraw",
            Command::Player(PlayerCommand::Reinstate { .. }) => "player-reinstate",
            Command::Player(PlayerCommand::Disqualify { .. }) => "player-disqualify",
            Command::Pair { .. } => "pair",
            Command::Round { .. } => "round",
            Command::Unpair { .. } => "unpair",
            Command::Pairing(_) => "pairing-edit",
            Command::Check { .. } => "check",
            Command::Result { .. } => "result",
            Command::Penalty { .. } => "penalty",
            Command::Playoff { .. } => "playoff",
            Command::Warn { .. } => "warn",
            Command::Standings { .. } => "standings",
            Command::Crosstable { .. } => "crosstable",
            Command::Teams { .. } => "teams",
            Command::Prizes => "prizes",
            Command::Lineup { .. } => "lineup",
            Command::Boards { .. } => "boards",
            Command::Certificates { .. } => "certificates",
            Command::Programme => "programme",
            Command::Group(GroupCommand::Sizes) => "group-sizes",
            Command::Group(GroupCommand::Merge { .. }) => "group-merge",
            Command::Group(GroupCommand::Cancel { .. }) => "group-cancel",
            Command::Export { .. } => "export",
            Command::Serve { .. } => "serve",
            Command::Log => "log",
            Command::Undo { .. } => "undo",
            Command::Redo => "redo",
            Command::Unlock => "unlock",
            Command::Completions { .. } => "completions",
            Command::Man => "man",
        }
    }
}
