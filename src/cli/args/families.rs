//! The arguments of the commands that come as a family of subcommands (`rules check|show|
//! update`, `player add|edit|…`, `pairing swap|set`, `group sizes|merge|cancel`) and the
//! options of `demo`.

use super::values::yes_no;
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Where to create the demo event (default: a new ./qiwang-demo).
    pub dir: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    pub registrations: Option<PathBuf>,
    #[arg(long, default_value_t = 2018, allow_negative_numbers = true)]
    pub seed: u64,
    /// A team competition instead (团体赛: rules/team-swiss.toml, 40 teams × 4 boards);
    /// not with `--example`, which names an individual event.
    #[arg(long, conflicts_with_all = ["rules", "registrations", "example"])]
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
        #[arg(long, allow_negative_numbers = true)]
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
        #[arg(allow_negative_numbers = true)]
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
    /// Merge an under-size group into another before round 1. A group not below its
    /// minimum, or merged elsewhere than its `merge_into`, needs `--force`.
    Merge {
        from: String,
        into: String,
        /// Merge it although it is not below its minimum size (`min_size`) or the rulebook
        /// names another target (`merge_into`) (logged).
        #[arg(long)]
        force: bool,
    },
    /// Cancel a group below its minimum size, before round 1, that has no `merge_into` or
    /// one that can no longer be followed (its pool cancelled or paired): its players are
    /// withdrawn. A group not below its minimum needs `--force`.
    Cancel {
        group: String,
        /// Cancel it although it is not below its minimum size (`min_size`) (logged).
        #[arg(long)]
        force: bool,
    },
}
