//! Standings, tiebreaks and results entry, written like crosstables.
//!
//! The fixture language: `Fixture::new(rules).players(&["a", "b", "c", "d"])` registers
//! players numbered 1, 2, … in one pool; `.round(&[("a", "b", "1-0"), ("c", "bye", "")])`
//! adds the next round, red first, tables numbered in order, and enters the results
//! through `record_results` (a result may carry fouls: `"=/1:0"`; `"?"` leaves the game
//! pending). Pairing legality is not checked: fixtures say exactly who met.

use qiwang::model::{
    Event, GroupId, GroupState, Outcome, Pairing, Penalty, Player, PlayerId, PlayerStatus, Points,
    Round, WithdrawalCause,
};
use qiwang::results::{
    self, ResultEntry, ResultError, ResultWarning, parse_result_args, record_playoff,
    record_results, record_results_in_rounds, withdraw_player,
};
use qiwang::rulebook::{ByeOppScore, Fallback, Rulebook, TieResolution, Tiebreak, UnresolvedFirst};
use qiwang::standings::{
    CrosstableCell, DecidedBy, PlayerTiebreaks, Standings, compute_standings, crosstable,
    detailed_standings, tiebreak_values,
};
use std::collections::BTreeMap;

struct Fixture {
    rules: Rulebook,
    event: Event,
    group: GroupId,
    ids: BTreeMap<String, PlayerId>,
}

impl Fixture {
    fn new(rules: Rulebook) -> Self {
        Fixture {
            rules,
            event: Event::new(String::new()),
            group: GroupId::new("open"),
            ids: BTreeMap::new(),
        }
    }

    fn players(mut self, names: &[&str]) -> Self {
        for name in names {
            let id = self.event.next_player_id();
            let mut p = Player::new(id, *name, self.group.clone());
            p.number = Some(id.0);
            self.event.players.push(p);
            self.ids.insert(name.to_string(), id);
        }
        self
    }

    fn id(&self, name: &str) -> PlayerId {
        *self
            .ids
            .get(name)
            .unwrap_or_else(|| panic!("no player {name}"))
    }

    fn name(&self, id: PlayerId) -> &str {
        &self.event.player(id).unwrap().name
    }

    /// Adds the next round: `(red, black, result)`, or `(player, "bye", "")`.
    fn round(mut self, games: &[(&str, &str, &str)]) -> Self {
        let number = self
            .event
            .group(&self.group)
            .map_or(0, |g| g.rounds.len() as u32)
            + 1;
        let mut pairings = Vec::new();
        let mut args = Vec::new();
        let mut table = 0;
        for (red, black, result) in games {
            if *black == "bye" {
                pairings.push(Pairing::Bye {
                    player: self.id(red),
                });
                continue;
            }
            table += 1;
            pairings.push(Pairing::Game {
                table,
                red: self.id(red),
                black: self.id(black),
                result: None,
            });
            if *result != "?" {
                args.push(table.to_string());
                args.push(result.to_string());
            }
        }
        let state: &mut GroupState = self.event.group_mut(&self.group);
        state.rounds.push(Round { number, pairings });
        if !args.is_empty() {
            let entries = parse_result_args(&args).expect("fixture results parse");
            record_results(
                &mut self.event,
                &self.rules,
                &self.group,
                Some(number),
                &entries,
            )
            .expect("fixture results record");
        }
        self
    }

    fn standings(&self) -> Standings {
        compute_standings(&self.event, &self.rules, &self.group, None)
    }

    /// Names in standings order.
    fn order(&self) -> Vec<String> {
        self.standings()
            .rows
            .iter()
            .map(|r| self.name(r.player).to_string())
            .collect()
    }

    /// `name rank` per row, `3=` for a shared place, `-` for no place.
    fn places(&self) -> Vec<String> {
        self.standings()
            .rows
            .iter()
            .map(|r| {
                let place = match r.rank {
                    Some(rank) if r.shared => format!("{rank}="),
                    Some(rank) => rank.to_string(),
                    None => "-".to_string(),
                };
                format!("{} {place}", self.name(r.player))
            })
            .collect()
    }

    fn values(&self, name: &str) -> PlayerTiebreaks {
        tiebreak_values(&self.event, &self.rules, &self.group, None)
            .remove(&self.id(name))
            .unwrap()
    }

    fn row(&self, name: &str) -> qiwang::standings::StandingRow {
        let id = self.id(name);
        self.standings()
            .rows
            .into_iter()
            .find(|r| r.player == id)
            .unwrap()
    }

    fn record(
        &mut self,
        round: Option<u32>,
        args: &[&str],
    ) -> Result<results::RecordReport, ResultError> {
        let args: Vec<String> = args.iter().map(ToString::to_string).collect();
        let entries = parse_result_args(&args)?;
        record_results(&mut self.event, &self.rules, &self.group, round, &entries)
    }
}

fn rules(rounds: u32) -> Rulebook {
    Rulebook::cxa_2011("test", rounds)
}

/// A rulebook ranking by `keys` only, with `fallback`, where every place may be shared.
fn keyed(keys: &[Tiebreak], fallback: Fallback) -> Rulebook {
    let mut r = rules(9);
    r.ranking.tiebreaks = keys.to_vec();
    r.ranking.fallback = fallback;
    r.ranking.shared_from_place = 1;
    r
}

// ---------------------------------------------------------------- docs/rules.md §9

#[test]
fn progressive_score_of_w_w_w_w_l_is_28_rules_9() {
    let f = Fixture::new(rules(5))
        .players(&["a", "b", "c", "d", "e", "f"])
        .round(&[("a", "b", "1-0"), ("c", "d", "="), ("e", "f", "=")])
        .round(&[("a", "c", "1-0"), ("b", "d", "="), ("e", "f", "=")])
        .round(&[("a", "d", "1-0"), ("b", "c", "="), ("e", "f", "=")])
        .round(&[("a", "e", "1-0"), ("b", "c", "="), ("d", "f", "=")])
        .round(&[("f", "a", "1-0"), ("b", "c", "="), ("d", "e", "=")]);
    let a = f.values("a");
    assert_eq!(a.round_points, [2, 2, 2, 2, 0].map(Points).to_vec());
    assert_eq!(a.cumulative, [2, 4, 6, 8, 8].map(Points).to_vec());
    assert_eq!(a.progressive, Points(28));
    assert_eq!(a.wins, 4);
}

/// Six players with final totals 10, 8, 6, 4, 2, 0; `x` scores its 2 from a bye in
/// round 4 (a single round robin with the x–z game replaced by x's bye).
fn bye_fixture(bye: ByeOppScore) -> Fixture {
    let mut r = rules(5);
    r.ranking.bye_opponent_score = bye;
    Fixture::new(r)
        .players(&["a", "b", "c", "d", "x", "z"])
        .round(&[("a", "z", "1-0"), ("b", "x", "1-0"), ("c", "d", "1-0")])
        .round(&[("a", "x", "1-0"), ("d", "z", "1-0"), ("b", "c", "1-0")])
        .round(&[("a", "d", "1-0"), ("c", "x", "1-0"), ("b", "z", "1-0")])
        .round(&[("a", "c", "1-0"), ("b", "d", "1-0"), ("x", "bye", "")])
        .round(&[("a", "b", "1-0"), ("c", "z", "1-0"), ("d", "x", "1-0")])
}

#[test]
fn bye_opponent_is_the_lowest_positive_total_cxa_14_4() {
    let f = bye_fixture(ByeOppScore::LowestPositive);
    let totals: Vec<i32> = ["a", "b", "c", "d", "x", "z"]
        .iter()
        .map(|n| f.values(n).score.0)
        .collect();
    assert_eq!(totals, [10, 8, 6, 4, 2, 0]);
    let x = f.values("x");
    // Opponents b, a, c, (bye), d in round order.
    assert_eq!(x.opp_scores, [8, 10, 6, 2, 4].map(Points).to_vec());
    assert_eq!(x.opp_score, Points(30));
    assert_eq!(x.wins, 1, "a bye counts as a win by default (§1.2)");
}

#[test]
fn bye_opponent_under_lowest_overall_and_zero_is_zero() {
    for bye in [ByeOppScore::LowestOverall, ByeOppScore::Zero] {
        let x = bye_fixture(bye).values("x");
        assert_eq!(x.opp_score, Points(28), "{bye:?}");
    }
}

#[test]
fn bye_is_not_a_win_when_the_rulebook_says_so() {
    let mut f = bye_fixture(ByeOppScore::LowestPositive);
    f.rules.ranking.bye_counts_as_win = false;
    assert_eq!(f.values("x").wins, 0);
}

/// A = (2, 2, 0), B = (0, 2, 2) with equal 对手分, wins, fouls and black games.
fn fallback_three_rounds(r: Rulebook) -> Fixture {
    Fixture::new(r)
        .players(&["a", "b", "c", "d"])
        .round(&[("c", "a", "0-1"), ("d", "b", "1-0")])
        .round(&[("a", "d", "1-0"), ("c", "b", "0-1")])
        .round(&[("b", "a", "1-0"), ("c", "d", "=")])
}

#[test]
fn fallback_14_3_1_prefers_the_earlier_scorer_rules_9() {
    let f = fallback_three_rounds(rules(3));
    let (a, b) = (f.values("a"), f.values("b"));
    assert_eq!((a.score, b.score), (Points(4), Points(4)));
    assert_eq!(
        (a.opp_score, a.wins, a.fouls, a.black_games),
        (b.opp_score, b.wins, b.fouls, b.black_games)
    );
    assert_eq!(f.order(), ["a", "b", "d", "c"]);
    assert_eq!(
        f.row("a").decided_by,
        Some(DecidedBy::PrevRoundScore { round: 2 })
    );
    assert_eq!(f.row("a").rank, Some(1));
    assert!(!f.row("a").needs_playoff);

    // Alone: without the fallback the two are tied for first.
    let mut none = rules(3);
    none.ranking.fallback = Fallback::None;
    let f = fallback_three_rounds(none);
    assert!(f.row("a").needs_playoff && f.row("b").needs_playoff);
}

#[test]
fn fallback_14_3_2_is_not_reached_when_progressive_differs_rules_9() {
    let f = fallback_three_rounds(keyed(
        &[
            Tiebreak::Progressive,
            Tiebreak::Wins,
            Tiebreak::Fouls,
            Tiebreak::BlackGames,
        ],
        Fallback::DropRoundsFromFirst,
    ));
    assert_eq!(f.values("a").progressive, Points(10));
    assert_eq!(f.values("b").progressive, Points(6));
    assert_eq!(f.order()[..2], ["a", "b"]);
    assert_eq!(f.row("a").decided_by, None);
}

/// A = (2, 0, 0, 2), B = (0, 2, 2, 0): both total 4 and 累进分 10.
fn fallback_four_rounds(r: Rulebook) -> Fixture {
    Fixture::new(r)
        .players(&["a", "b", "c", "d", "e", "f"])
        .round(&[("a", "c", "1-0"), ("d", "b", "1-0"), ("e", "f", "=")])
        .round(&[("e", "a", "1-0"), ("b", "c", "1-0"), ("d", "f", "=")])
        .round(&[("f", "a", "1-0"), ("d", "b", "0-1"), ("c", "e", "=")])
        .round(&[("a", "d", "1-0"), ("b", "e", "0-1"), ("c", "f", "=")])
}

#[test]
fn fallback_14_3_2_prefers_the_lower_first_round_score_rules_9() {
    let chain = [
        Tiebreak::Progressive,
        Tiebreak::Wins,
        Tiebreak::Fouls,
        Tiebreak::BlackGames,
    ];
    let f = fallback_four_rounds(keyed(&chain, Fallback::DropRoundsFromFirst));
    let (a, b) = (f.values("a"), f.values("b"));
    assert_eq!((a.score, a.progressive), (Points(4), Points(10)));
    assert_eq!((b.score, b.progressive), (Points(4), Points(10)));
    assert_eq!(
        (a.wins, a.fouls, a.black_games),
        (b.wins, b.fouls, b.black_games)
    );
    let rank = |n: &str| f.row(n).rank.unwrap();
    assert!(rank("b") < rank("a"), "{:?}", f.places());
    assert_eq!(
        f.row("b").decided_by,
        Some(DecidedBy::RoundDropped { round: 1 })
    );

    // The 14.3.1 fallback settles it at S_3 (a 2, b 4).
    let f = fallback_four_rounds(keyed(&chain, Fallback::PrevRoundCumulative));
    assert!(f.row("b").rank < f.row("a").rank);
    assert_eq!(
        f.row("b").decided_by,
        Some(DecidedBy::PrevRoundScore { round: 3 })
    );

    // Alone: without a fallback they share the place.
    let f = fallback_four_rounds(keyed(&chain, Fallback::None));
    assert_eq!(f.row("a").rank, f.row("b").rank);
    assert!(f.row("a").shared);
}

#[test]
fn fallback_previous_round_rank_s10() {
    // Everyone ends on 2 points with one win; after round 1, a and b (winners) ranked
    // above c and d, so the previous round's rank separates the pairs and nothing else.
    let build = |fallback| {
        Fixture::new(keyed(&[Tiebreak::Wins], fallback))
            .players(&["a", "b", "c", "d"])
            .round(&[("a", "c", "1-0"), ("b", "d", "1-0")])
            .round(&[("c", "a", "1-0"), ("d", "b", "1-0")])
    };
    let f = build(Fallback::PrevRoundRank);
    assert_eq!(f.places(), ["a 1=", "b 1=", "c 3=", "d 3="]);
    assert_eq!(
        f.row("c").decided_by,
        Some(DecidedBy::PrevRoundRank { round: 1 })
    );

    let f = build(Fallback::None);
    assert_eq!(f.places(), ["a 1=", "b 1=", "c 1=", "d 1="]);
}

// ------------------------------------------------- each key alone decides

/// With only `key` in the chain `winner` ranks above `loser`; with an empty chain (and no
/// fallback) they share a place. (Other players may tie with either.)
fn assert_key_alone_decides(
    key: Tiebreak,
    build: impl Fn(Rulebook) -> Fixture,
    winner: &str,
    loser: &str,
) {
    let f = build(keyed(&[key], Fallback::None));
    let (w, l) = (f.row(winner), f.row(loser));
    assert_eq!(w.score, l.score, "{key:?}: scores must be equal");
    assert!(w.rank < l.rank, "{key:?}: {:?}", f.places());
    let f = build(keyed(&[], Fallback::None));
    assert_eq!(
        f.row(winner).rank,
        f.row(loser).rank,
        "{key:?} control: {:?}",
        f.places()
    );
}

#[test]
fn opp_score_alone_decides() {
    assert_key_alone_decides(
        Tiebreak::OppScore,
        |r| {
            Fixture::new(r)
                .players(&["a", "b", "c", "d"])
                .round(&[("a", "c", "1-0"), ("b", "d", "1-0")])
                .round(&[("c", "d", "1-0"), ("a", "b", "=")])
        },
        "a",
        "b",
    );
}

#[test]
fn progressive_alone_decides() {
    assert_key_alone_decides(
        Tiebreak::Progressive,
        |r| {
            Fixture::new(r)
                .players(&["a", "b", "c", "d"])
                .round(&[("a", "c", "1-0"), ("d", "b", "1-0")])
                .round(&[("d", "a", "1-0"), ("b", "c", "1-0")])
        },
        "a",
        "b",
    );
}

#[test]
fn wins_alone_decides() {
    assert_key_alone_decides(
        Tiebreak::Wins,
        |r| {
            Fixture::new(r)
                .players(&["a", "b", "c", "d"])
                .round(&[("a", "c", "1-0"), ("b", "d", "=")])
                .round(&[("d", "a", "1-0"), ("c", "b", "=")])
        },
        "a",
        "b",
    );
}

#[test]
fn fouls_alone_decide_fewer_first() {
    assert_key_alone_decides(
        Tiebreak::Fouls,
        |r| {
            Fixture::new(r)
                .players(&["a", "b", "c", "d"])
                .round(&[("a", "c", "=/0:1"), ("b", "d", "=/1:0")])
        },
        "a",
        "b",
    );
}

#[test]
fn black_games_alone_decide() {
    assert_key_alone_decides(
        Tiebreak::BlackGames,
        |r| {
            Fixture::new(r)
                .players(&["a", "b", "c", "d"])
                .round(&[("c", "a", "="), ("b", "d", "=")])
        },
        "a",
        "b",
    );
}

#[test]
fn black_wins_alone_decide() {
    assert_key_alone_decides(
        Tiebreak::BlackWins,
        |r| {
            Fixture::new(r)
                .players(&["a", "b", "c", "d"])
                .round(&[("c", "a", "0-1"), ("b", "d", "1-0")])
        },
        "a",
        "b",
    );
}

#[test]
fn red_wins_alone_decide() {
    assert_key_alone_decides(
        Tiebreak::RedWins,
        |r| {
            Fixture::new(r)
                .players(&["a", "b", "c", "d"])
                .round(&[("a", "c", "1-0"), ("d", "b", "0-1")])
        },
        "a",
        "b",
    );
}

#[test]
fn direct_encounter_alone_decides_between_two() {
    let build = |r| {
        Fixture::new(r)
            .players(&["a", "b", "c", "d"])
            .round(&[("b", "a", "0-1"), ("c", "d", "=")])
            .round(&[("a", "c", "0-1"), ("d", "b", "0-1")])
    };
    assert_key_alone_decides(Tiebreak::DirectEncounter, build, "a", "b");
    let f = build(keyed(&[Tiebreak::DirectEncounter], Fallback::None));
    assert_eq!(f.row("a").tiebreaks, [Some(2)]);
    assert_eq!(f.row("b").tiebreaks, [Some(0)]);
}

#[test]
fn direct_encounter_does_not_apply_to_three_tied_players() {
    // a beat b, b beat c, c beat a: all on 2 points.
    let f = Fixture::new(keyed(&[Tiebreak::DirectEncounter], Fallback::None))
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "b", "1-0"), ("c", "d", "?")])
        .round(&[("b", "c", "1-0"), ("a", "d", "?")])
        .round(&[("c", "a", "1-0"), ("b", "d", "?")]);
    let standings = compute_standings(&f.event, &f.rules, &f.group, Some(3));
    let tied: Vec<_> = standings
        .rows
        .iter()
        .filter(|r| r.score == Points(2))
        .collect();
    assert_eq!(tied.len(), 3);
    assert!(
        tied.iter()
            .all(|r| r.tiebreaks == [None] && r.rank == Some(1) && r.shared)
    );
}

#[test]
fn cut_opp_alone_decides() {
    let build = |r| {
        Fixture::new(r)
            .players(&["a", "b", "c", "d", "e", "f"])
            .round(&[("a", "c", "1-0"), ("b", "d", "1-0"), ("e", "f", "1-0")])
            .round(&[("a", "e", "0-1"), ("b", "f", "0-1"), ("c", "d", "=")])
    };
    let f = build(keyed(&[], Fallback::None));
    // a met c (1) and e (4); b met d (1) and f (2): without the lowest, 4 against 2.
    assert_eq!(
        (f.values("a").cut_opp, f.values("b").cut_opp),
        (Points(4), Points(2))
    );
    assert_key_alone_decides(Tiebreak::CutOpp, build, "a", "b");
}

#[test]
fn median_opp_alone_decides_when_middle_opponents_differ() {
    let build = |r| {
        Fixture::new(r)
            .players(&["a", "b", "c", "d", "e", "f", "g", "h"])
            .round(&[
                ("a", "c", "1-0"),
                ("b", "d", "1-0"),
                ("e", "g", "1-0"),
                ("f", "h", "1-0"),
            ])
            .round(&[
                ("a", "e", "="),
                ("b", "f", "="),
                ("c", "g", "1-0"),
                ("d", "h", "="),
            ])
            .round(&[
                ("a", "g", "="),
                ("b", "h", "="),
                ("c", "d", "1-0"),
                ("e", "f", "0-1"),
            ])
    };
    let f = build(keyed(&[], Fallback::None));
    let (a, b) = (f.values("a"), f.values("b"));
    // a met c 4, e 3, g 1 → median 3; b met d 1, f 5, h 2 → median 2.
    assert_eq!((a.median_opp, b.median_opp), (Points(3), Points(2)));
    assert_key_alone_decides(Tiebreak::MedianOpp, build, "a", "b");
}

#[test]
fn sonneborn_berger_alone_decides() {
    assert_key_alone_decides(
        Tiebreak::SonnebornBerger,
        |r| {
            Fixture::new(r)
                .players(&["a", "b", "c", "d"])
                .round(&[("a", "c", "1-0"), ("b", "d", "1-0")])
                .round(&[("c", "d", "1-0"), ("b", "a", "0-1")])
                .round(&[("a", "d", "0-1"), ("b", "c", "1-0")])
        },
        "a",
        "b",
    );
}

// --------------------------------------------------- unresolved ties, playoff

/// a and b on 4 points with nothing to separate them; c and d on 0, likewise.
fn dead_heat(r: Rulebook) -> Fixture {
    Fixture::new(r)
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "c", "1-0"), ("b", "d", "1-0")])
        .round(&[("d", "a", "0-1"), ("c", "b", "0-1")])
}

#[test]
fn champion_is_never_shared_needs_playoff_then_playoff_decides() {
    let mut f = dead_heat(rules(2));
    assert_eq!(f.places(), ["a 1=", "b 1=", "c 3=", "d 3="]);
    assert!(f.row("a").needs_playoff && f.row("b").needs_playoff);
    assert!(!f.row("c").needs_playoff);

    let (a, b, c) = (f.id("a"), f.id("b"), f.id("c"));
    let before = f.event.clone();
    let err = record_playoff(&mut f.event, &f.rules, &f.group, vec![a, c]).unwrap_err();
    assert!(matches!(err, ResultError::PlayoffMismatch { .. }), "{err}");
    let err = record_playoff(&mut f.event, &f.rules, &f.group, vec![a, a]).unwrap_err();
    assert!(matches!(err, ResultError::PlayoffMismatch { .. }), "{err}");
    assert_eq!(f.event, before);

    // Before the last round the same tie is only shown shared.
    let mut early = dead_heat(rules(3));
    assert_eq!(early.places(), ["a 1=", "b 1=", "c 3=", "d 3="]);
    assert!(!early.row("a").needs_playoff);
    let (ea, eb) = (early.id("a"), early.id("b"));
    let err =
        record_playoff(&mut early.event, &early.rules, &early.group, vec![ea, eb]).unwrap_err();
    assert!(matches!(err, ResultError::NoPlayoffNeeded { .. }), "{err}");

    record_playoff(&mut f.event, &f.rules, &f.group, vec![b, a]).unwrap();
    assert_eq!(f.places(), ["b 1", "a 2", "c 3=", "d 3="]);
    assert_eq!(f.row("b").decided_by, Some(DecidedBy::Playoff));
    assert!(!f.row("a").needs_playoff);

    // Re-entering replaces the earlier playoff, and says which it replaced.
    let replaced = record_playoff(&mut f.event, &f.rules, &f.group, vec![a, b]).unwrap();
    assert_eq!(f.event.playoffs.len(), 1);
    assert_eq!(f.order()[0], "a");
    assert_eq!(
        replaced.iter().map(|p| p.order.clone()).collect::<Vec<_>>(),
        [vec![b, a]]
    );
}

#[test]
fn a_pool_playoff_reports_the_prize_list_playoff_over_the_same_players_it_replaced() {
    // A prize list's playoff over a and b (recorded while they were tied only on that
    // list) is dropped by the pool's own playoff over the same players: the caller must
    // hear of it, not only of an earlier pool playoff.
    let mut f = dead_heat(rules(2));
    let (a, b) = (f.id("a"), f.id("b"));
    let list_playoff = qiwang::model::Playoff {
        group: f.group.clone(),
        order: vec![b, a],
        note: String::new(),
        list: Some("girls".into()),
    };
    f.event.playoffs.push(list_playoff.clone());
    let replaced = record_playoff(&mut f.event, &f.rules, &f.group, vec![a, b]).unwrap();
    assert_eq!(replaced, [list_playoff]);
    assert_eq!(f.event.playoffs.len(), 1);
    assert_eq!(f.event.playoffs[0].list, None);
    // A first playoff replaces nothing.
    let mut fresh = dead_heat(rules(2));
    let (fa, fb) = (fresh.id("a"), fresh.id("b"));
    assert!(
        record_playoff(&mut fresh.event, &fresh.rules, &fresh.group, vec![fa, fb])
            .unwrap()
            .is_empty()
    );
}

#[test]
fn playoff_is_refused_when_no_tie_needs_one() {
    let mut f = fallback_three_rounds(rules(3));
    let (a, b) = (f.id("a"), f.id("b"));
    let err = record_playoff(&mut f.event, &f.rules, &f.group, vec![a, b]).unwrap_err();
    assert!(matches!(err, ResultError::NoPlayoffNeeded { .. }), "{err}");
}

#[test]
fn unresolved_first_by_lot_or_number() {
    let mut r = rules(2);
    r.ranking.unresolved_first = UnresolvedFirst::Number;
    assert_eq!(
        dead_heat(r.clone()).places(),
        ["a 1", "b 2", "c 3=", "d 3="]
    );

    r.ranking.unresolved_first = UnresolvedFirst::Lot;
    let f = dead_heat(r);
    let first = f.order();
    assert_eq!(f.order(), first, "a lot is reproducible");
    assert_eq!(f.row(&first[0]).decided_by, Some(DecidedBy::Lot));
    assert!(!f.row("a").shared && !f.row("b").shared);
}

#[test]
fn other_places_shared_lot_or_number() {
    let mut r = rules(2);
    r.ranking.unresolved_first = UnresolvedFirst::Number;
    r.ranking.unresolved = TieResolution::Number;
    assert_eq!(dead_heat(r.clone()).places(), ["a 1", "b 2", "c 3", "d 4"]);
    r.ranking.unresolved = TieResolution::Lot;
    let f = dead_heat(r);
    let places = f.places();
    assert!(
        places[2].ends_with(" 3") && places[3].ends_with(" 4"),
        "{places:?}"
    );
    assert_eq!(f.places(), places);
}

/// 录取名次不并列 (issue 43 item 3): a lot decides only once the last round is ranked, and
/// only where a prize depends on it; interim standings and ties below the prizes are ties.
#[test]
fn a_lot_decides_only_at_the_end_and_only_where_a_prize_depends_on_it() {
    let lots = |rounds: u32| {
        let mut r = rules(rounds);
        r.ranking.unresolved_first = UnresolvedFirst::Lot;
        r.ranking.unresolved = TieResolution::Lot;
        r
    };
    // Two rounds of three: the ties show as ties, no 抽签.
    let early = dead_heat(lots(3));
    assert_eq!(early.places(), ["a 1=", "b 1=", "c 3=", "d 3="]);
    assert!(
        ["a", "b", "c", "d"]
            .iter()
            .all(|p| early.row(p).decided_by.is_none())
    );
    // The last round, with no prize list: every tie is decided.
    let all = dead_heat(lots(2));
    assert!(
        all.places().iter().all(|p| !p.contains('=')),
        "{:?}",
        all.places()
    );
    // A list paying places 1–2 only: the tie for 3rd stays a tie.
    let mut paid = lots(2);
    paid.prizes.lists.push(qiwang::rulebook::PrizeList {
        id: "open".into(),
        name: "公开组".into(),
        group: GroupId::new("open"),
        filter: Default::default(),
        places: vec![qiwang::rulebook::PrizePlace {
            from: 1,
            to: 2,
            money: 100,
            award: None,
            title: None,
            qualification: None,
        }],
        by_gender: None,
    });
    let f = dead_heat(paid);
    let places = f.places();
    assert!(
        !places[0].contains('=') && !places[1].contains('='),
        "{places:?}"
    );
    assert_eq!(&places[2..], ["c 3=", "d 3="]);
    assert_eq!(f.row(&f.order()[0]).decided_by, Some(DecidedBy::Lot));
}

#[test]
fn lot_follows_the_recorded_seed() {
    let mut r = rules(2);
    r.ranking.unresolved_first = UnresolvedFirst::Lot;
    let orders: std::collections::BTreeSet<Vec<String>> = (0..16u64)
        .map(|seed| {
            let mut f = dead_heat(r.clone());
            f.event.group_mut(&GroupId::new("open")).seed = Some(seed);
            f.order()
        })
        .collect();
    assert!(
        orders.len() > 1,
        "different seeds should give different lots"
    );
}

// ------------------------------------------------------------ results entry

fn two_rounds() -> Fixture {
    Fixture::new(rules(5))
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "b", "1-0"), ("c", "d", "0-1")])
        .round(&[("d", "a", "?"), ("b", "c", "?")])
}

#[test]
fn record_results_defaults_to_the_newest_round() {
    let mut f = two_rounds();
    let report = f.record(None, &["1", "=", "2", "b"]).unwrap();
    assert_eq!(report.results.len(), 2);
    assert!(
        report
            .results
            .iter()
            .all(|r| r.round == 2 && r.previous.is_none())
    );
    assert_eq!(f.values("a").score, Points(3));
    assert_eq!(f.values("c").score, Points(2));
}

#[test]
fn corrections_are_reported_old_to_new_and_standings_follow() {
    let mut f = two_rounds();
    f.record(None, &["1", "=", "2", "b"]).unwrap();
    let report = f.record(Some(1), &["1", "0-1", "2", "0-1"]).unwrap();
    let corrections: Vec<_> = report.corrections().collect();
    assert_eq!(corrections.len(), 1);
    assert_eq!(corrections[0].table, 1);
    assert_eq!(corrections[0].previous.unwrap().outcome, Outcome::RedWin);
    assert_eq!(corrections[0].result.outcome, Outcome::BlackWin);
    assert!(report.results[1].is_unchanged());
    assert_eq!(
        report.warnings,
        [ResultWarning::EarlierRoundCorrected {
            round: 1,
            newest: 2
        }]
    );
    assert_eq!(f.values("a").score, Points(1));
    assert_eq!(f.values("b").score, Points(2));
}

#[test]
fn bad_input_changes_nothing() {
    let mut f = two_rounds();
    let before = f.event.clone();
    let cases: Vec<(Option<u32>, Vec<&str>, &str)> = vec![
        (None, vec!["9", "1-0"], "has no table 9: its tables are 1–2"),
        (
            Some(4),
            vec!["1", "1-0"],
            "has no round 4: its rounds are 1–2",
        ),
        // Past the rulebook's rounds: the refusal names them.
        (
            Some(7),
            vec!["1", "1-0"],
            "has no round 7: the event has 5 rounds",
        ),
        (None, vec!["1", "+-/1:0"], "cannot carry fouls `1:0`"),
        (None, vec!["1", "1-0/2:0"], "red reached 2 fouls"),
        (None, vec!["1", "=/2:2"], "both sides have 2 fouls"),
        (
            None,
            vec!["1", "=/3:0"],
            "red has 3 fouls but the game ends at 2",
        ),
        (None, vec!["1", "1-0", "1", "0-1"], "table 1 is given twice"),
        // One good entry does not get through with a bad one.
        (None, vec!["1", "1-0", "5", "0-1"], "no table 5"),
    ];
    for (round, args, needle) in cases {
        let err = f.record(round, &args).unwrap_err();
        assert!(err.to_string().contains(needle), "{args:?}: {err}");
        assert_eq!(f.event, before, "{args:?} changed the event");
    }
    let err = f.record(None, &["1", "zz"]).unwrap_err();
    assert!(matches!(err, ResultError::BadToken { .. }));
    assert_eq!(f.event, before);

    let err = record_results(
        &mut f.event,
        &f.rules,
        &GroupId::new("nope"),
        None,
        &[ResultEntry::new(1, Outcome::Draw)],
    )
    .unwrap_err();
    assert!(err.to_string().contains("`nope`"), "{err}");
    assert_eq!(f.event, before);
}

#[test]
fn several_problems_are_reported_together() {
    let mut f = two_rounds();
    let before = f.event.clone();
    let err = record_results_in_rounds(
        &mut f.event,
        &f.rules,
        &f.group,
        &[
            (1, ResultEntry::new(1, Outcome::Draw)),
            (3, ResultEntry::new(1, Outcome::Draw)),
            (2, ResultEntry::new(4, Outcome::Draw)),
        ],
    )
    .unwrap_err();
    let ResultError::Many(errors) = &err else {
        panic!("{err}");
    };
    assert_eq!(errors.len(), 2, "{err}");
    assert_eq!(f.event, before);
}

#[test]
fn reaching_the_foul_limit_loses_the_game_with_a_warning() {
    use qiwang::i18n::Localize;
    // Dongguan 十五.7: 二次犯规立即判负 (limit 2, the preset's).
    let mut f = two_rounds();
    let report = f.record(None, &["1", "=/2:1", "2", "="]).unwrap();
    assert_eq!(report.results[0].entered, Outcome::Draw);
    assert_eq!(report.results[0].result.outcome, Outcome::BlackWin);
    let d = f.id("d");
    assert!(matches!(
        report.warnings.as_slice(),
        [ResultWarning::LostOnFouls { player, fouls: 2, .. }] if *player == d
    ));
    assert!(
        report.warnings[0]
            .to_string()
            .contains("entered as a draw, recorded as a black win")
    );
    assert!(
        report.warnings[0]
            .localize(qiwang::rulebook::Lang::Zh)
            .contains("录入的和棋记为黑胜")
    );
    assert_eq!(f.values("d").fouls, 2);
    assert_eq!(
        f.values("d").score,
        Points(2),
        "d keeps round 1 and loses round 2 on fouls"
    );

    // Jinhua 六: 三次犯规判负; two fouls are only fouls there.
    let mut r = rules(5);
    r.conduct.fouls_to_lose_game = 3;
    let mut f = Fixture::new(r)
        .players(&["a", "b"])
        .round(&[("a", "b", "?")]);
    let report = f.record(None, &["1", "=/2:0"]).unwrap();
    assert!(report.warnings.is_empty());
    assert_eq!(report.results[0].result.outcome, Outcome::Draw);
    let report = f.record(None, &["1", "b/0:3"]).unwrap_err();
    assert!(
        report.to_string().contains("black reached 3 fouls"),
        "{report}"
    );
    let report = f.record(None, &["1", "r/0:3"]).unwrap();
    assert_eq!(report.results[0].result.outcome, Outcome::RedWin);
    assert_eq!(
        report.warnings.len(),
        1,
        "the loser on fouls is named even when entered as such"
    );
    assert!(report.results[0].is_correction());
}

#[test]
fn fouls_total_over_the_event_feed_the_tiebreak() {
    let f = Fixture::new(rules(3))
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "b", "=/1:1"), ("c", "d", "=")])
        .round(&[("b", "a", "=/0:1"), ("d", "c", "=/1:0")]);
    assert_eq!(f.values("a").fouls, 2);
    assert_eq!(f.values("b").fouls, 1);
    assert_eq!(f.values("d").fouls, 1);
    assert_eq!(f.values("c").fouls, 0);
}

#[test]
fn results_from_a_csv_go_in_all_or_nothing() {
    let mut f = Fixture::new(rules(5))
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "b", "?"), ("c", "d", "?")])
        .round(&[("d", "a", "?"), ("b", "c", "?")]);
    let before = f.event.clone();
    let bad = "轮次,台号,结果,犯规\n1,1,红胜,\n1,2,和,1:0\n2,3,黑胜,\n";
    let rows = results::parse_results_csv(bad, "r.csv").unwrap();
    let err = record_results_in_rounds(&mut f.event, &f.rules, &f.group, &rows).unwrap_err();
    assert!(
        err.to_string()
            .contains("round 2 of group `open` has no table 3"),
        "{err}"
    );
    assert_eq!(f.event, before);

    let good = "round,table,outcome,fouls\n1,1,1-0,\n1,2,=,1:0\n2,1,0-1,\n2,2,-+,\n";
    let rows = results::parse_results_csv(good, "r.csv").unwrap();
    let report = record_results_in_rounds(&mut f.event, &f.rules, &f.group, &rows).unwrap();
    assert_eq!(report.results.len(), 4);
    let scores: Vec<i32> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| f.values(n).score.0)
        .collect();
    assert_eq!(scores, [4, 0, 3, 1]);
    assert_eq!(f.values("c").fouls, 1);
}

#[test]
fn dongguan_chain_opp_score_then_progressive() {
    // Dongguan 十一.3: 积分、对手分、累积分、冠军不并列.
    let mut r = rules(2);
    r.ranking.tiebreaks = vec![Tiebreak::OppScore, Tiebreak::Progressive];
    // a and b: 2 points, equal 对手分 (both met c and d), a scored first.
    let f = Fixture::new(r)
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "c", "1-0"), ("d", "b", "1-0")])
        .round(&[("a", "d", "0-1"), ("c", "b", "0-1")]);
    let (a, b) = (f.values("a"), f.values("b"));
    assert_eq!((a.score, a.opp_score), (b.score, b.opp_score));
    assert_eq!((a.progressive, b.progressive), (Points(4), Points(2)));
    assert_eq!(f.places(), ["d 1", "a 2", "b 3", "c 4"]);
    assert_eq!(f.row("a").tiebreaks, [Some(4), Some(4)]);
    assert_eq!(f.row("b").tiebreaks, [Some(4), Some(2)]);
}

// ------------------------------------------------------------ withdrawals

fn forfeit_rounds(consecutive: bool, forfeits: [&str; 4]) -> Fixture {
    let mut r = rules(6);
    r.conduct.withdraw_after_forfeits = Some(2);
    r.conduct.withdraw_consecutive = consecutive;
    let mut f = Fixture::new(r).players(&["a", "b", "c", "d"]);
    let opps = ["b", "c", "d", "b"];
    for (opp, result) in opps.iter().zip(forfeits) {
        let others: Vec<&str> = ["b", "c", "d"].into_iter().filter(|o| o != opp).collect();
        f = f.round(&[("a", opp, result), (others[0], others[1], "=")]);
    }
    f
}

#[test]
fn two_consecutive_forfeits_withdraw_a_player() {
    let f = forfeit_rounds(true, ["-+", "1-0", "-+", "-+"]);
    let a = f.event.player(f.id("a")).unwrap();
    assert!(
        matches!(&a.status, PlayerStatus::Withdrawn { from_round: 5, cause: WithdrawalCause::Forfeits { rounds, consecutive: true } } if rounds == &[3, 4])
    );
    assert!(!a.pairable_in(5) && a.pairable_in(4));

    let f = forfeit_rounds(true, ["-+", "1-0", "-+", "1-0"]);
    assert_eq!(
        f.event.player(f.id("a")).unwrap().status,
        PlayerStatus::Active
    );
}

#[test]
fn two_forfeits_in_total_withdraw_a_player_dongguan() {
    // Dongguan 十五.5: 累计2轮不到按弃权处理. (`a` was paired in round 4 anyway and did
    // not come: a round `a` had played would have moved the withdrawal past it.)
    let f = forfeit_rounds(false, ["-+", "1-0", "-+", "-+"]);
    let a = f.event.player(f.id("a")).unwrap();
    assert!(
        matches!(&a.status, PlayerStatus::Withdrawn { from_round: 4, cause: WithdrawalCause::Forfeits { rounds, consecutive: false } } if rounds == &[1, 3])
    );
}

#[test]
fn correcting_a_forfeit_lifts_the_automatic_withdrawal() {
    let mut f = forfeit_rounds(true, ["1-0", "1-0", "-+", "-+"]);
    assert!(f.event.player(f.id("a")).unwrap().is_withdrawn());
    let report = f.record(Some(4), &["1", "1-0"]).unwrap();
    assert!(matches!(
        report.warnings.as_slice(),
        [ResultWarning::WithdrawalLifted { from_round: 5, .. }]
    ));
    assert_eq!(
        f.event.player(f.id("a")).unwrap().status,
        PlayerStatus::Active
    );
}

#[test]
fn forfeits_entered_late_warn_about_a_pairing_already_made() {
    let mut f = Fixture::new(rules(5))
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "b", "-+"), ("c", "d", "=")])
        .round(&[("a", "c", "?"), ("b", "d", "=")])
        .round(&[("a", "d", "?"), ("b", "c", "?")]);
    let report = f.record(Some(2), &["1", "-+"]).unwrap();
    let a = f.id("a");
    assert_eq!(
        report.warnings[1..],
        [ResultWarning::WithdrawnButPaired {
            player: a,
            round: 3
        }]
    );
    assert!(matches!(
        report.warnings[0],
        ResultWarning::Withdrawn { from_round: 3, .. }
    ));
    assert!(
        report.warnings[1]
            .to_string()
            .contains("already paired in round 3")
    );
}

#[test]
fn manual_withdrawal_is_checked_and_kept() {
    let mut f = two_rounds();
    let a = f.id("a");
    let before = f.event.clone();
    let err = withdraw_player(&mut f.event, a, 2, "ill").unwrap_err();
    assert!(
        err.to_string().contains("already paired in round 2"),
        "{err}"
    );
    let err = withdraw_player(&mut f.event, a, 3, "  ").unwrap_err();
    assert!(matches!(err, ResultError::EmptyReason));
    let err = withdraw_player(&mut f.event, PlayerId(99), 3, "x").unwrap_err();
    assert!(matches!(err, ResultError::UnknownPlayer { .. }));
    assert_eq!(f.event, before);

    withdraw_player(&mut f.event, a, 3, "身体不适").unwrap();
    let err = withdraw_player(&mut f.event, a, 4, "again").unwrap_err();
    assert!(matches!(
        err,
        ResultError::AlreadyWithdrawn { from_round: 3, .. }
    ));
    // Results entered later do not lift a manual withdrawal.
    f.record(None, &["1", "1-0", "2", "="]).unwrap();
    assert!(f.event.player(a).unwrap().is_withdrawn());
}

/// Issue 10 §3: after round 7, a correction of round 4 to a forfeit gives `a` two
/// consecutive forfeits (rounds 3 and 4), but `a` played rounds 5–7: the withdrawal starts
/// at round 8, not at round 5, so no played round contradicts it.
#[test]
fn a_correction_after_later_rounds_withdraws_from_the_first_unplayed_round() {
    let mut f = Fixture::new(rules(9)).players(&["a", "b", "c", "d"]);
    let results = ["1-0", "1-0", "-+", "1-0", "=", "0-1", "1-0"];
    for result in results {
        f = f.round(&[("a", "b", result), ("c", "d", "=")]);
    }
    let a = f.id("a");
    assert_eq!(f.event.player(a).unwrap().status, PlayerStatus::Active);
    let report = f.record(Some(4), &["1", "-+"]).unwrap();
    let want = WithdrawalCause::Forfeits {
        rounds: vec![3, 4],
        consecutive: true,
    };
    assert_eq!(
        f.event.player(a).unwrap().status,
        PlayerStatus::Withdrawn {
            from_round: 8,
            cause: want.clone()
        }
    );
    assert!(report.warnings.contains(&ResultWarning::Withdrawn {
        player: a,
        from_round: 8,
        cause: want
    }));
    // Every round a played stays valid for them.
    assert!((1..=7).all(|r| f.event.player(a).unwrap().pairable_in(r)));
    // Correcting it back lifts the withdrawal.
    let report = f.record(Some(4), &["1", "1-0"]).unwrap();
    assert!(report.warnings.contains(&ResultWarning::WithdrawalLifted {
        player: a,
        from_round: 8
    }));
    assert_eq!(f.event.player(a).unwrap().status, PlayerStatus::Active);
}

/// `player reinstate` lifts an automatic withdrawal from the next round on; the forfeits
/// behind it no longer count, new ones do.
#[test]
fn reinstating_lifts_an_automatic_withdrawal_from_the_next_round() {
    let mut f = forfeit_rounds(true, ["1-0", "1-0", "-+", "-+"]);
    let a = f.id("a");
    assert!(f.event.player(a).unwrap().is_withdrawn());
    assert_eq!(results::reinstate_player(&mut f.event, a), Ok(5));
    let p = f.event.player(a).unwrap();
    assert_eq!(
        (&p.status, p.reinstated_from),
        (&PlayerStatus::Active, Some(5))
    );
    // Re-entering round 4 does not bring the same withdrawal back.
    let report = f.record(Some(4), &["1", "-+"]).unwrap();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert!(f.event.player(a).unwrap().pairable_in(5));
    // Two new consecutive forfeits withdraw again.
    let mut f = f
        .round(&[("a", "c", "-+"), ("b", "d", "=")])
        .round(&[("a", "d", "-+"), ("b", "c", "=")]);
    assert!(matches!(
        f.event.player(a).unwrap().status,
        PlayerStatus::Withdrawn { from_round: 7, .. }
    ));
    let b = f.id("b");
    let err = results::reinstate_player(&mut f.event, b).unwrap_err();
    assert!(matches!(err, ResultError::NotWithdrawn { .. }));
}

/// `player withdraw` and the library are one rule: from the round after the newest, refused
/// while the player's newest game has no result; an automatic withdrawal is replaced.
#[test]
fn withdrawing_from_the_next_round_checks_the_newest_game() {
    let mut f = Fixture::new(rules(5))
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "b", "1-0"), ("c", "d", "=")])
        .round(&[("a", "c", "?"), ("b", "d", "=")]);
    let a = f.id("a");
    let before = f.event.clone();
    let err = results::withdraw_from_next_round(&mut f.event, a, 5, Some("ill")).unwrap_err();
    assert_eq!(
        err,
        ResultError::UnplayedGame {
            player: f.event.player_label(a),
            round: 2
        }
    );
    assert_eq!(f.event, before);
    f.record(Some(2), &["1", "1-0"]).unwrap();
    assert_eq!(
        results::withdraw_from_next_round(&mut f.event, a, 5, None),
        Ok(3)
    );
    assert_eq!(
        f.event.player(a).unwrap().status,
        PlayerStatus::Withdrawn {
            from_round: 3,
            cause: WithdrawalCause::Manual { note: None }
        }
    );
    let err = results::withdraw_from_next_round(&mut f.event, a, 5, None).unwrap_err();
    assert!(matches!(err, ResultError::AlreadyWithdrawn { .. }));
    // A 2-round event is over after round 2: nothing is left to withdraw from.
    let b = f.id("b");
    let before = f.event.clone();
    assert_eq!(
        results::withdraw_from_next_round(&mut f.event, b, 2, None),
        Err(ResultError::EventOver {
            player: f.event.player_label(b),
            rounds: 2
        })
    );
    assert_eq!(f.event, before);
}

/// w loses to a in round 1, then withdraws; a's other opponent is c.
fn withdrawn_opponent(r: Rulebook) -> Fixture {
    let mut f = Fixture::new(r)
        .players(&["a", "b", "c", "w"])
        .round(&[("a", "w", "1-0"), ("b", "c", "=")])
        .round(&[("w", "b", "1-0"), ("c", "a", "0-1")]);
    let w = f.id("w");
    withdraw_player(&mut f.event, w, 3, "left the event").unwrap();
    f.round(&[("a", "b", "="), ("c", "bye", "")])
}

#[test]
fn withdrawn_players_games_keep_counting_for_opponents_dongguan() {
    // Dongguan 十五.5: 对手分将保留.
    let f = withdrawn_opponent(rules(3));
    let a = f.values("a");
    assert_eq!(f.values("w").score, Points(2));
    assert_eq!(a.opp_scores[0], Points(2), "w's total counts for a");
    assert!(f.row("w").withdrawn);
    assert!(f.row("w").rank.is_some(), "ranked by default");

    let mut r = rules(3);
    r.conduct.withdrawn_games_kept = false;
    r.conduct.withdrawn_ranked = false;
    let f = withdrawn_opponent(r);
    assert_eq!(f.values("a").opp_score, a.opp_score - Points(2));
    let w = f.row("w");
    assert_eq!(w.rank, None);
    assert_eq!(f.standings().rows.last().unwrap().player, f.id("w"));
}

// ------------------------------------------------------- penalties, unranked

#[test]
fn penalties_are_deducted_and_opponents_see_the_net_total() {
    let mut f = Fixture::new(rules(2))
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "b", "1-0"), ("c", "d", "1-0")])
        .round(&[("a", "c", "="), ("b", "d", "=")]);
    let c = f.id("c");
    f.event.penalties.push(Penalty {
        player: c,
        points: Points(2),
        reason: "disturbing a game".into(),
        after_round: 1,
        paired_round: 0,
    });
    let cv = f.values("c");
    assert_eq!((cv.score, cv.penalty), (Points(1), Points(2)));
    assert_eq!(cv.cumulative, [Points(0), Points(1)]);
    assert_eq!(f.values("a").opp_scores, [Points(1), Points(1)]);
    assert_eq!(f.row("c").penalty, Points(2));
}

#[test]
fn unranked_entries_count_but_take_no_place() {
    let mut f = dead_heat(rules(2));
    let b = f.id("b");
    f.event.player_mut(b).unwrap().unranked = true;
    assert_eq!(f.places(), ["a 1", "c 2=", "d 2=", "b -"]);
    assert_eq!(f.values("c").opp_score, Points(8), "b's games still count");
}

#[test]
fn default_round_is_the_newest_complete_one() {
    let f = two_rounds();
    assert_eq!(f.standings().after_round, 1);
    let s = compute_standings(&f.event, &f.rules, &f.group, Some(9));
    assert_eq!(s.after_round, 2, "clamped to the newest round");
}

// ------------------------------------------------------------------ crosstable

#[test]
fn crosstable_shows_opponent_colour_and_result() {
    let f = Fixture::new(rules(2))
        .players(&["a", "b", "c"])
        .round(&[("a", "b", "1-0"), ("c", "bye", "")])
        .round(&[("c", "a", "-+"), ("b", "bye", "")]);
    let ct = crosstable(&f.event, &f.rules, &f.group, None);
    assert_eq!(ct.after_round, 2);
    let texts: Vec<(String, Vec<String>)> = ct
        .rows
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                r.cells.iter().map(CrosstableCell::text).collect(),
            )
        })
        .collect();
    assert_eq!(
        texts,
        vec![
            ("a".to_string(), vec!["2r1".to_string(), "3b+".to_string()]),
            ("b".to_string(), vec!["1b0".to_string(), "bye".to_string()]),
            ("c".to_string(), vec!["bye".to_string(), "1r-".to_string()]),
        ]
    );
    assert!(matches!(
        ct.rows[0].cells[1],
        CrosstableCell::Game {
            points: Some(Points(2)),
            ..
        }
    ));
}

// ------------------------------------------- independent recomputation check

#[test]
fn values_agree_with_a_recomputation_from_the_crosstable() {
    let f = bye_fixture(ByeOppScore::LowestPositive);
    let ct = crosstable(&f.event, &f.rules, &f.group, None);
    let totals: BTreeMap<PlayerId, i32> = ct.rows.iter().map(|r| (r.player, r.score.0)).collect();
    for row in &ct.rows {
        let v = f.values(f.name(row.player));
        let mut opp = 0;
        let mut wins = 0;
        let mut black = 0;
        let mut running = 0;
        let mut progressive = 0;
        for cell in &row.cells {
            match cell {
                CrosstableCell::Game {
                    opponent,
                    colour,
                    result,
                    points,
                    ..
                } => {
                    opp += totals[opponent];
                    wins += u32::from(matches!(result, Some('1' | '+')));
                    black += u32::from(*colour == qiwang::model::Colour::Black);
                    running += points.unwrap().0;
                }
                CrosstableCell::Bye { points, .. } => {
                    opp += 2; // lowest positive total in this event
                    wins += 1;
                    running += points.0;
                }
                CrosstableCell::NotPaired { .. } => {}
            }
            progressive += running;
        }
        assert_eq!(v.opp_score.0, opp, "{}", row.name);
        assert_eq!(v.wins, wins, "{}", row.name);
        assert_eq!(v.black_games, black, "{}", row.name);
        assert_eq!(v.progressive.0, progressive, "{}", row.name);
    }

    let detailed = detailed_standings(&f.event, &f.rules, &f.group, None);
    let json = serde_json::to_value(&detailed).unwrap();
    assert_eq!(detailed.values.len(), detailed.standings.rows.len());
    for (row, v) in detailed.standings.rows.iter().zip(&detailed.values) {
        assert_eq!(row.player, v.player);
    }
    let first = &json["values"][0];
    for key in ["opp_score", "progressive", "wins", "fouls", "black_games"] {
        assert!(first.get(key).is_some(), "{key} missing from {first}");
    }
}

// ----------------------------------------------- seeded random events, checked

/// A seeded 120-player, 9-round event: random pairings, results of every kind, fouls.
fn random_event(seed: u64, fallback: Fallback) -> Fixture {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut r = rules(9);
    r.ranking.fallback = fallback;
    r.conduct.withdraw_after_forfeits = None;
    let names: Vec<String> = (1..=120).map(|i| format!("p{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut f = Fixture::new(r).players(&refs);
    let tokens = [
        "1-0", "=", "0-1", "1-0", "0-1", "+-", "-+", "--", "=/1:0", "1-0/0:1",
    ];
    for _ in 0..9 {
        let mut order = refs.clone();
        order.shuffle(&mut rng);
        let games: Vec<(&str, &str, &str)> = order
            .chunks(2)
            .map(|p| (p[0], p[1], tokens[rng.gen_range(0..tokens.len())]))
            .collect();
        f = f.round(&games);
    }
    f
}

#[test]
fn random_events_rank_consistently_and_values_recompute() {
    for (seed, fallback) in [
        (1, Fallback::PrevRoundCumulative),
        (2, Fallback::DropRoundsFromFirst),
        (3, Fallback::PrevRoundRank),
    ] {
        let f = random_event(seed, fallback);
        let s = f.standings();
        let values = tiebreak_values(&f.event, &f.rules, &f.group, None);

        // Independent 对手分 and 后走局数 from the raw pairings.
        let mut opp: BTreeMap<PlayerId, i32> = BTreeMap::new();
        let mut black: BTreeMap<PlayerId, u32> = BTreeMap::new();
        for round in &f.event.group(&f.group).unwrap().rounds {
            for p in &round.pairings {
                if let Pairing::Game {
                    red,
                    black: b,
                    result,
                    ..
                } = p
                {
                    *opp.entry(*red).or_default() += values[b].score.0;
                    *opp.entry(*b).or_default() += values[red].score.0;
                    // A 双负 is nobody's black game (issue 10 §7).
                    let double = result.is_some_and(|r| r.outcome == Outcome::DoubleForfeit);
                    *black.entry(*b).or_default() += u32::from(!double);
                }
            }
        }
        for (id, v) in &values {
            assert_eq!(v.opp_score.0, opp[id], "seed {seed} player {id}");
            assert_eq!(v.black_games, black[id], "seed {seed} player {id}");
        }

        // Ranks follow the rows: 1, 2, 2, 4 … with shared places marked.
        let mut prev: Option<(u32, i32)> = None;
        for (i, row) in s.rows.iter().enumerate() {
            let rank = row.rank.unwrap();
            let place = i as u32 + 1;
            if row.shared && prev.is_some_and(|(r, _)| r == rank) {
                assert!(rank < place);
            } else {
                assert_eq!(rank, place, "seed {seed}: {row:?}");
            }
            if let Some((_, score)) = prev {
                assert!(row.score.0 <= score, "seed {seed}: scores out of order");
            }
            prev = Some((rank, row.score.0));
        }
    }
}

// ------------------------------------------------------- issue 10.6: penalties and 累进分

/// Dongguan's chain (积分, 对手分, 累积分) with its −2 for 扰乱棋局 given after round 1 of 4:
/// a and b both score W, W, L, W; a is penalised. Under `none` 累进分 comes from the game
/// points of each round (2+4+4+6 = 16 for both) and the penalty lowers 积分 only; under
/// `from_round` it also lowers S1…S4 (16 − 2×4 = 8).
#[test]
fn penalty_in_progressive_none_keeps_the_running_totals_of_game_points() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/dongguan-2018.toml"),
    )
    .unwrap();
    let mut dongguan = Rulebook::from_toml(&text, "dongguan-2018.toml").unwrap();
    assert_eq!(
        dongguan.ranking.penalty_in_progressive,
        qiwang::rulebook::PenaltyInProgressive::None
    );
    dongguan.groups = rules(4).groups;
    dongguan.event.rounds = 4;
    let build = |r: Rulebook| {
        let mut f = Fixture::new(r)
            .players(&["a", "b", "c", "d", "e", "f"])
            .round(&[("a", "c", "1-0"), ("b", "d", "1-0"), ("e", "f", "=")])
            .round(&[("a", "e", "1-0"), ("b", "f", "1-0"), ("c", "d", "=")])
            .round(&[("c", "a", "1-0"), ("d", "b", "1-0"), ("e", "f", "=")])
            .round(&[("a", "f", "1-0"), ("b", "e", "1-0"), ("c", "d", "=")]);
        let a = f.id("a");
        f.event.penalties.push(Penalty {
            player: a,
            points: Points(2),
            reason: "扰乱棋局".into(),
            after_round: 1,
            paired_round: 0,
        });
        f
    };
    let f = build(dongguan.clone());
    let (a, b) = (f.values("a"), f.values("b"));
    assert_eq!((a.score, b.score), (Points(4), Points(6)));
    assert_eq!((a.progressive, b.progressive), (Points(16), Points(16)));
    dongguan.ranking.penalty_in_progressive = qiwang::rulebook::PenaltyInProgressive::FromRound;
    let f = build(dongguan);
    assert_eq!(f.values("a").progressive, Points(8));
    assert_eq!(f.values("b").progressive, Points(16));
}

/// Issue 10 §7: a 双负 (a result reported without play, Jinhua 补充规定 五.3) gives neither
/// side a black game for 后走局数, even where a single forfeit counts as one.
#[test]
fn a_double_forfeit_is_no_black_game() {
    let r = rules(3);
    assert!(r.colours.forfeit_counts);
    let f = Fixture::new(r)
        .players(&["a", "b", "c", "d"])
        .round(&[("a", "b", "--"), ("c", "d", "+-")]);
    assert_eq!(f.values("b").black_games, 0);
    assert_eq!(
        f.values("d").black_games,
        1,
        "a single forfeit still counts"
    );
}

/// Issue 10 §3: under `conduct.late_result = "loss"` (Dongguan 十五.5 迟到15分钟将判负) a
/// late loss is not one of the 累计2轮不到 that withdraw a player; under "forfeit" it is.
#[test]
fn a_late_loss_is_not_a_no_show_when_the_rulebook_says_so() {
    use qiwang::rulebook::LateResult;
    let build = |late: LateResult| {
        let mut r = rules(5);
        r.conduct.withdraw_consecutive = false;
        r.conduct.late_result = late;
        Fixture::new(r)
            .players(&["a", "b", "c", "d"])
            .round(&[("a", "b", "红迟到"), ("c", "d", "=")])
            .round(&[("a", "c", "-+"), ("b", "d", "=")])
    };
    let f = build(LateResult::Loss);
    let a = f.event.player(f.id("a")).unwrap();
    assert_eq!(a.status, PlayerStatus::Active);
    let game = f.event.group(&f.group).unwrap().rounds[0].pairings[0].clone();
    assert!(
        matches!(game, Pairing::Game { result: Some(r), .. } if r.late && r.outcome == Outcome::RedForfeit)
    );
    let f = build(LateResult::Forfeit);
    assert!(f.event.player(f.id("a")).unwrap().is_withdrawn());
}
