//! Team competitions (团体赛, docs/rules.md §17): teams of N boards meeting board against
//! board, 场分 from comparing 局分, Swiss or round robin.
//!
//! Owns every team decision: what a match's boards add up to (`score.rs`), pairing a
//! team round with the individual Swiss engine on a shadow event whose players are the
//! teams, or by the Berger tables (`pair.rs`), recording results board by board and
//! line-up changes (`results.rs`), the composition rules on every line-up (`lineup.rs`),
//! the team standings, crosstable, board results and
//! board prizes (`standings.rs`), and a whole team's withdrawal (`withdraw.rs`). The
//! teams themselves are read from the registration (`registration::team_sheet`). Pure:
//! (state, rulebook, seed) in, decisions out.

mod error;
mod lineup;
mod pair;
mod results;
mod score;
mod standings;
mod withdraw;

pub use error::{TeamError, Where};
pub use lineup::{lineup_of, lineup_problems, meet_min_women, pool_lineup_problems};
pub use pair::{
    TeamPlan, as_player, as_team, check_round_paired, check_team_pool, default_lineup, fill_boards,
    lot_first, match_outcome, missing_round, pair_team_round, prove_team_round, round_limit,
    rounds_of, shadow_event, shadow_round, shadow_rules, team_rules, unpair_team_round,
};
pub use results::{
    Absent, MatchEntry, change_lineup, find_team, parse_board_token, parse_team_result_args,
    read_team_results_file, record_team_results,
};
pub use score::{
    MatchOutcome, board_points, engine_outcome, first_colour, game_points, match_points,
    needs_tiebreak, outcome, team_at, team_at_tiebreak, winner,
};
pub use standings::{
    BoardLine, Meeting, TeamRow, TeamStandings, board_prizes, board_stats, meetings, team_standings,
};
pub use withdraw::{
    annulled_teams, apply_team_forfeit_withdrawals, forfeited_whole, ranked_pool, reinstate_team,
    withdraw_team,
};
