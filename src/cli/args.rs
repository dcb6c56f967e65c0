//! Argument definitions (clap derive) and dispatch to one file per command.

use super::commands;
use super::context::Ctx;
use super::context::FormatArg;
use super::error::CliError;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

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
        #[arg(long)]
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
        #[arg(long, requires = "optimal")]
        round: Option<u32>,
    },
    /// Enter or correct results: `qiwang result 1 r 2 = 3 b/0:2 …`; in a team competition a
    /// match and its boards: `qiwang result 3 1-0 0-1 = 1-0`, tiebreak games `result 3 tiebreak = 1-0`.
    Result {
        #[arg(long)]
        group: Option<String>,
        #[arg(long)]
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
        #[arg(long)]
        round: Option<u32>,
        /// One prize list's view (e.g. girls only).
        #[arg(long)]
        list: Option<String>,
    },
    /// Per player and round: opponent, colour, result.
    Crosstable {
        #[arg(long)]
        group: Option<String>,
        #[arg(long)]
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
        #[arg(long)]
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
        #[arg(long, default_value_t = 8080)]
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

    /// The subcommand's name as typed.
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

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Where to create the demo event (default: a new ./qiwang-demo).
    pub dir: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    pub registrations: Option<PathBuf>,
    #[arg(long, default_value_t = 2018)]
    pub seed: u64,
    /// A team competition instead (团体赛: rules/team-swiss.toml, 40 teams × 4 boards).
    #[arg(long, conflicts_with_all = ["rules", "registrations"])]
    pub team: bool,
    /// Which bundled event: `jinhua` (the 2018 Jinhua Swiss event, default),
    /// `round-robin` (an 8-player round robin beside a Swiss open group),
    /// `round-robin-only` (a lone 10-player round robin),
    /// `swiss-knockout` (a Swiss open whose top 8 play a knockout final) or
    /// `swiss-round-robin` (the same open, its top 6 playing a round robin).
    #[arg(
        long,
        value_enum,
        default_value_t = DemoExample::Jinhua,
        hide_default_value = true,
        hide_possible_values = true,
        conflicts_with_all = ["rules", "registrations"]
    )]
    pub example: DemoExample,
}

/// The bundled events `qiwang demo --example` plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DemoExample {
    /// 2018 金华市象棋棋王赛: three Swiss groups (rules/jinhua-2018.toml).
    Jinhua,
    /// An 8-player round robin beside a Swiss open (rules/round-robin.toml).
    RoundRobin,
    /// A lone 10-player single round robin (rules/round-robin-only.toml).
    RoundRobinOnly,
    /// A Swiss open whose top 8 play a knockout final (rules/swiss-knockout.toml).
    SwissKnockout,
    /// A Swiss open whose top 6 play a round robin (rules/swiss-round-robin.toml).
    SwissRoundRobin,
}

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Report every problem of a rulebook with line, column and key.
    Check { file: PathBuf },
    /// Print the effective rules with defaults filled in (the event's, or FILE's).
    Show { file: Option<PathBuf> },
    /// Replace the event's rulebook between rounds: validated, changes that would alter
    /// rounds already played are refused, the difference is shown; logged and undoable.
    Update { file: PathBuf },
}

#[derive(Debug, Args)]
pub struct PlayerFields {
    #[arg(long)]
    pub name: Option<String>,
    #[arg(long)]
    pub gender: Option<String>,
    #[arg(long)]
    pub unit: Option<String>,
    #[arg(long)]
    pub group: Option<String>,
    #[arg(long)]
    pub birth_date: Option<String>,
    #[arg(long)]
    pub id_number: Option<String>,
    #[arg(long)]
    pub grade: Option<String>,
    /// Checked like the registration sheet's 等级分 column (full-width digits accepted).
    #[arg(long)]
    pub rating: Option<String>,
    #[arg(long, value_parser = yes_no())]
    pub disabled: Option<bool>,
    #[arg(long, value_parser = yes_no())]
    pub local: Option<bool>,
    #[arg(long)]
    pub phone: Option<String>,
    #[arg(long)]
    pub title: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum PlayerCommand {
    /// Late entry: paired from the next round.
    Add {
        #[command(flatten)]
        fields: PlayerFields,
        /// Accept the entry after the rulebook's `registration_deadline` (logged as late).
        #[arg(long)]
        late: bool,
        /// Team competition: the player's board order (台次), or `替补` for a reserve.
        #[arg(long)]
        board: Option<String>,
    },
    /// Correct a player's details.
    Edit {
        player: String,
        #[command(flatten)]
        fields: PlayerFields,
    },
    /// Stop pairing a player from the next round; played games stay.
    Withdraw {
        #[arg(required_unless_present = "team")]
        player: Option<String>,
        #[arg(long, default_value = "")]
        reason: String,
        /// Team competition: withdraw this whole team instead (全队退赛).
        #[arg(long, conflicts_with = "player")]
        team: Option<String>,
        /// The team's pool, when there is more than one.
        #[arg(long, requires = "team")]
        group: Option<String>,
    },
    /// Undo a withdrawal made by hand: the player is paired again from the next round.
    Reinstate {
        #[arg(required_unless_present = "team")]
        player: Option<String>,
        /// Team competition: reinstate this whole team instead.
        #[arg(long, conflicts_with = "player")]
        team: Option<String>,
        /// The team's pool, when there is more than one.
        #[arg(long, requires = "team")]
        group: Option<String>,
    },
    /// Disqualify a player: not paired from the next round (or `--from-round N`), not
    /// ranked or awarded in any list; games played stay valid for the opponents. `--undo`
    /// lifts it.
    Disqualify {
        player: String,
        #[arg(long, default_value = "")]
        reason: String,
        #[arg(long)]
        from_round: Option<u32>,
        /// Lift the player's disqualification (paired and ranked again).
        #[arg(long)]
        undo: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum PairingCommand {
    /// Exchange two players in the newest unplayed round. Name players by pairing number
    /// (`#5`), registration id (`17`) or name.
    Swap {
        #[arg(long)]
        group: Option<String>,
        a: String,
        b: String,
        /// Store the edit even if it breaks a hard rule (logged).
        #[arg(long)]
        force: bool,
    },
    /// Put RED against BLACK at TABLE in the newest unplayed round (players as for swap:
    /// `#5`, `17` or a name).
    Set {
        #[arg(long)]
        group: Option<String>,
        table: u32,
        red: String,
        black: String,
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum GroupCommand {
    /// Registered players per group against each group's minimum.
    Sizes,
    /// Merge an under-size group into another before round 1.
    Merge { from: String, into: String },
    /// Cancel a group below its minimum size that has no `merge_into`, before round 1: its
    /// players are withdrawn. A group not below its minimum needs `--force`.
    Cancel {
        group: String,
        /// Cancel it although it is not below its minimum size (`min_size`) (logged).
        #[arg(long)]
        force: bool,
    },
}

/// The Chinese name accepted for an option value (`--sheet 台签`, `--disabled 是`), which
/// the Chinese usage errors list with the English one.
const CHINESE_VALUES: &[(&str, &str)] = &[
    ("pairings", "对阵表"),
    ("slips", "成绩登记表"),
    ("cards", "台签"),
    ("find", "找座位"),
    ("wall", "总表"),
    ("true", "是"),
    ("false", "否"),
];

/// The Chinese name of an option value `name`, if it has one.
pub fn chinese_value(name: &str) -> Option<&'static str> {
    CHINESE_VALUES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, zh)| *zh)
}

/// A yes-or-no value (`--disabled`, `--local`): `是`/`否` as a registration sheet writes
/// it, or `true`/`false`.
fn yes_no() -> impl clap::builder::TypedValueParser<Value = bool> {
    use clap::builder::{PossibleValue, TypedValueParser};
    clap::builder::PossibleValuesParser::new([
        PossibleValue::new("true").alias(chinese_value("true").unwrap_or_default()),
        PossibleValue::new("false").alias(chinese_value("false").unwrap_or_default()),
    ])
    .map(|typed| matches!(typed.as_str(), "true" | "是"))
}

/// The `--sheet` values of `round`, each with the Chinese name an arbiter knows it by
/// (`--sheet 台签` is `--sheet cards`).
fn sheet_names() -> [clap::builder::PossibleValue; 5] {
    use clap::builder::PossibleValue;
    let named = |name: &'static str| {
        PossibleValue::new(name).alias(chinese_value(name).unwrap_or_default())
    };
    [
        named("pairings"),
        named("slips"),
        named("cards"),
        named("find").alias("找座位表"),
        named("wall"),
    ]
}

/// `--sheet`'s parser: one of [`sheet_names`] or its alias, given to the command as the
/// English name (clap's own parser passes an alias through as typed).
fn sheet_values() -> impl clap::builder::TypedValueParser<Value = String> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(sheet_names()).map(|typed| {
        sheet_names()
            .into_iter()
            .find(|v| v.matches(&typed, false))
            .map_or(typed, |v| v.get_name().to_string())
    })
}

pub fn dispatch(cli: Cli) -> Result<(), CliError> {
    let ctx = Ctx::new(&cli);
    // A workbook on a terminal is refused before the command runs (a `pair` must not
    // store a round and then fail to print it); export and template write to files.
    if cli.format == FormatArg::Xlsx
        && !matches!(
            cli.command,
            Command::Export { .. } | Command::Template { out: Some(_), .. }
        )
    {
        super::context::refuse_xlsx_on_terminal()?;
    }
    match cli.command {
        Command::Demo(args) => commands::demo::run(&ctx, args),
        Command::Init { dir, rules } => commands::init::run(&ctx, &dir, &rules),
        Command::Rules(RulesCommand::Check { file }) => commands::rules::check(&ctx, &file),
        Command::Rules(RulesCommand::Show { file }) => commands::rules::show(&ctx, file.as_deref()),
        Command::Rules(RulesCommand::Update { file }) => commands::rules::update(&ctx, &file),
        Command::Import {
            files,
            dry_run,
            sheet,
            strict,
        } => commands::import::run(
            &ctx,
            &commands::import::ImportArgs {
                files,
                dry_run,
                encoding: ctx.encoding.clone(),
                sheet,
                strict,
            },
        ),
        Command::Template { rules, out, force } => {
            commands::template::run(&ctx, rules.as_deref(), out.as_deref(), force)
        }
        Command::Players { group } => commands::players::list(&ctx, group.as_deref()),
        Command::Player(PlayerCommand::Add {
            fields,
            late,
            board,
        }) => commands::players::add(&ctx, fields, late, board),
        Command::Player(PlayerCommand::Edit { player, fields }) => {
            commands::players::edit(&ctx, &player, fields)
        }
        Command::Player(PlayerCommand::Withdraw {
            team: Some(team),
            group,
            reason,
            ..
        }) => commands::team::withdraw(&ctx, group.as_deref(), &team, &reason),
        Command::Player(PlayerCommand::Withdraw { player, reason, .. }) => {
            commands::players::withdraw(&ctx, player.as_deref().unwrap_or_default(), &reason)
        }
        Command::Player(PlayerCommand::Reinstate {
            team: Some(team),
            group,
            ..
        }) => commands::team::reinstate(&ctx, group.as_deref(), &team),
        Command::Player(PlayerCommand::Reinstate { player, .. }) => {
            commands::players::reinstate(&ctx, player.as_deref().unwrap_or_default())
        }
        Command::Player(PlayerCommand::Disqualify {
            player,
            reason,
            from_round,
            undo,
        }) => commands::players::disqualify(&ctx, &player, &reason, from_round, undo),
        Command::Pair {
            all: true,
            seed,
            dry_run,
            explain,
            allow_small,
            relax,
            ..
        } => commands::pair::pair_all(&ctx, seed, dry_run, explain, allow_small, relax.as_deref()),
        Command::Pair {
            group,
            all: false,
            seed,
            dry_run,
            explain,
            allow_small,
            relax,
        } => commands::pair::pair(
            &ctx,
            group.as_deref(),
            seed,
            dry_run,
            explain,
            allow_small,
            relax.as_deref(),
        ),
        Command::Round {
            round,
            group,
            sheet,
        } => commands::round::run(&ctx, round, group.as_deref(), &sheet),
        Command::Unpair { group } => commands::pair::unpair(&ctx, group.as_deref()),
        Command::Pairing(PairingCommand::Swap { group, a, b, force }) => {
            commands::pair::swap(&ctx, group.as_deref(), &a, &b, force)
        }
        Command::Pairing(PairingCommand::Set {
            group,
            table,
            red,
            black,
            force,
        }) => commands::pair::set(&ctx, group.as_deref(), table, &red, &black, force),
        Command::Check {
            group,
            optimal: false,
            ..
        } => commands::pair::check(&ctx, group.as_deref()),
        Command::Check {
            group,
            optimal: true,
            round,
        } => commands::pair::check_optimal(&ctx, group.as_deref(), round),
        Command::Result {
            group,
            round,
            from,
            entries,
            names,
        } => commands::result::run(
            &ctx,
            group.as_deref(),
            round,
            from.as_deref(),
            &entries,
            &names,
        ),
        Command::Penalty {
            player,
            points,
            reason,
        } => commands::result::penalty(&ctx, &player, points, &reason),
        Command::Warn { player, reason } => commands::result::warn(&ctx, &player, &reason),
        Command::Playoff {
            group,
            list: Some(list),
            players,
            note,
        } => commands::prizes::list_playoff(&ctx, group.as_deref(), &list, &players, &note),
        Command::Playoff {
            group,
            list: None,
            players,
            note,
        } => commands::prizes::playoff(&ctx, group.as_deref(), &players, &note),
        Command::Standings { group, round, list } => {
            commands::standings::standings(&ctx, group.as_deref(), round, list.as_deref())
        }
        Command::Crosstable { group, round } => {
            commands::standings::crosstable(&ctx, group.as_deref(), round)
        }
        Command::Teams { team } => commands::prizes::teams(&ctx, team.as_deref()),
        Command::Prizes => commands::prizes::prizes(&ctx),
        Command::Lineup {
            group,
            round,
            team,
            players,
        } => commands::team::lineup(&ctx, group.as_deref(), round, &team, &players),
        Command::Boards { group, round } => commands::team::boards(&ctx, group.as_deref(), round),
        Command::Certificates {
            list,
            template,
            print_template,
        } => commands::certificates::certificates(
            &ctx,
            list.as_deref(),
            template.as_deref(),
            print_template,
        ),
        Command::Programme => commands::certificates::programme(&ctx),
        Command::Group(GroupCommand::Sizes) => commands::prizes::sizes(&ctx),
        Command::Group(GroupCommand::Merge { from, into }) => {
            commands::prizes::merge(&ctx, &from, &into)
        }
        Command::Group(GroupCommand::Cancel { group, force }) => {
            commands::group::cancel(&ctx, &group, force)
        }
        Command::Export { out, group, force } => {
            commands::export::run(&ctx, &out, group.as_deref(), force)
        }
        Command::Serve {
            port,
            lan,
            address,
            token,
            revoke,
            tokens_only,
            more,
        } => match revoke {
            Some(id) => commands::serve::revoke(&ctx, &id),
            None => commands::serve::run(&ctx, port, lan, address, &token, tokens_only, &more),
        },
        Command::Log => commands::log::log(&ctx),
        Command::Undo { dry_run } => commands::log::undo(&ctx, dry_run),
        Command::Redo => commands::log::redo(&ctx),
        Command::Unlock => commands::log::unlock(&ctx),
        Command::Completions { shell } => commands::completions::completions(shell),
        Command::Man => commands::completions::man(),
    }
}
