//! Tests of `pair` as one call on an event directory: what a dry run shows, stores and
//! records, and the refusals' wording in both languages.

use super::*;
use crate::i18n::facts::assert_localized;
use crate::model::{Player, PlayerId};
use crate::pairing::{WaitReason, Waiting};

fn command(name: &str) -> CommandInfo {
    CommandInfo {
        name: name.into(),
        argv: vec!["qiwang".into(), name.into()],
        user: "li".into(),
        time: "2026-12-05T13:00:00Z".parse().unwrap(),
    }
}

fn request(dry_run: bool) -> PairRequest {
    PairRequest {
        seed: None,
        dry_run,
        explain: false,
        allow_small: false,
        relax: None,
        lang: Lang::En,
        json: Json::LeaveOut,
        workbook: false,
    }
}

/// An event of eight players in the rulebook's first pool, stored in a new directory.
fn new_event() -> (tempfile::TempDir, Store, Rulebook, GroupId) {
    let rules = Rulebook::cxa_2011("t", 5);
    let pool = rules.groups[0].id.clone();
    let mut event = Event::new(String::new());
    for i in 1..=8 {
        let mut p = Player::new(PlayerId(i), format!("p{i}"), pool.clone());
        p.rating = Some(2000 - i as i32 * 10);
        event.players.push(p);
    }
    let dir = tempfile::tempdir().unwrap();
    let store = Store::init(&dir.path().join("ev"), "", &event, &command("init")).unwrap();
    (dir, store, rules, pool)
}

fn sheet_of(paired: Paired) -> Report {
    match paired {
        Paired::Sheet(sheet) => *sheet,
        Paired::Workbook(_) => panic!("no workbook was asked for"),
    }
}

/// docs/rules.md §2.2: the draw a dry run shows is the draw `pair` makes. The dry run
/// stores no round, records the seed it drew (and says so under the mark), and the
/// `pair` after it uses that seed without drawing again.
#[test]
fn a_dry_run_records_its_draw_and_the_pair_after_it_makes_that_draw() {
    let (_dir, store, rules, pool) = new_event();
    let event = store.load().unwrap();
    let shown = pair_pool(
        &store,
        &command("pair"),
        &event,
        &rules,
        &pool,
        &request(true),
        &mut || 4242,
    )
    .map(sheet_of)
    .unwrap();
    assert_eq!(shown.footer[0], "(dry run: not stored)");
    assert!(shown.footer[1].contains("4242"), "{:?}", shown.footer);
    let after = store.load().unwrap();
    let group = after.group(&pool).unwrap();
    assert_eq!((group.seed, group.rounds.len()), (Some(4242), 0));

    let stored = pair_pool(
        &store,
        &command("pair"),
        &after,
        &rules,
        &pool,
        &request(false),
        &mut || panic!("the recorded seed is used"),
    )
    .map(sheet_of)
    .unwrap();
    let rows = |r: &Report| {
        r.sections
            .iter()
            .map(|s| s.rows.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&stored), rows(&shown), "the same draw");
    assert!(!rows(&stored)[0].is_empty());
    assert!(!stored.footer.iter().any(|l| l.contains("dry run")));
    let after = store.load().unwrap();
    let group = after.group(&pool).unwrap();
    assert_eq!((group.seed, group.rounds.len()), (Some(4242), 1));
}

/// A seed given after round 1 is refused before anything is paired or stored.
#[test]
fn a_seed_after_round_one_is_refused_and_nothing_changes() {
    let (_dir, store, rules, pool) = new_event();
    let event = store.load().unwrap();
    pair_pool(
        &store,
        &command("pair"),
        &event,
        &rules,
        &pool,
        &request(false),
        &mut || 7,
    )
    .unwrap();
    let before = store.load().unwrap();
    let mut again = request(false);
    again.seed = Some(9);
    let refused = pair_pool(
        &store,
        &command("pair"),
        &before,
        &rules,
        &pool,
        &again,
        &mut || 7,
    );
    assert!(
        matches!(
            refused,
            Err(PairError::Turn(pairing::TurnError::SeedAfterFirstRound))
        ),
        "{refused:?}"
    );
    assert_eq!(store.load().unwrap(), before);
}

#[test]
fn every_refusal_has_chinese_with_the_same_values() {
    assert_localized(&Refused {
        error: PairingError::TableZero,
        relax: Some(vec![Relax::Colour, Relax::Team]),
        recorded: Some(77),
    });
    assert_localized(&NothingReady {
        waiting: vec![Waiting {
            group: "youth".into(),
            reason: WaitReason::AllRoundsPlayed { rounds: 9 },
        }],
    });
}
