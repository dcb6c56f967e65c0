use super::*;

std::thread_local! {
    /// How many times this thread listed `history/` ([`list_history`]).
    pub(in crate::store) static LISTINGS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn valid() -> Vec<u8> {
    encode(&Event::new("[event]\n".into()), 0)
}

#[test]
fn encode_then_decode_round_trips() {
    let event = Event::new("x = 1\n".into());
    let back = decode(Path::new("q"), &encode(&event, 0), Text::default).unwrap();
    assert_eq!(back, event);
}

#[test]
fn refused_files_say_why() {
    let good = String::from_utf8(valid()).unwrap();
    // The version as written, so a new schema version needs no edit here.
    let version = format!("\"schema_version\": {}", crate::model::SCHEMA_VERSION);
    assert!(good.contains(&version), "the cases below edit the version");
    let cut = &good[..good.len() / 2];
    let cases: Vec<(String, &str)> = vec![
        (cut.to_string(), "the file ends early at line"),
        (String::new(), "the file ends early at line 1 column 0"),
        (
            good.replacen("\"players\": [", "\"players\": [,", 1),
            "invalid JSON: ",
        ),
        ("[1, 2]".into(), "not a JSON object"),
        (
            good.replacen(&version, "\"schema_version\": 0", 1),
            "`schema_version` is `0`",
        ),
        (
            good.replacen(&version, "\"schema_version\": \"1\"", 1),
            "`schema_version` is `\"1\"`",
        ),
        (
            good.replacen(&format!("{version},"), "", 1),
            "no `schema_version` key",
        ),
        (
            good.replacen(&version, "\"schema_version\": null", 1),
            "`schema_version` is `null`",
        ),
        (format!("{good} x"), "invalid JSON: trailing characters"),
        (
            good.replacen("\"players\": []", "\"players\": 3", 1),
            "unexpected content: invalid type",
        ),
    ];
    for (text, expected) in cases {
        let err = decode(Path::new("ev/qiwang.json"), text.as_bytes(), || {
            "HINT".into()
        })
        .unwrap_err();
        let message = err.to_string();
        assert!(matches!(err, StoreError::Damaged { .. }), "{message}");
        assert!(
            message.starts_with("`ev/qiwang.json` is damaged: "),
            "{message}"
        );
        assert!(
            message.contains(expected),
            "expected {expected:?} in {message}"
        );
        assert!(message.ends_with("; HINT"), "{message}");
    }
}

/// An event with players 1–4 and one round of two games in group `open`.
pub(in crate::store) fn paired() -> Event {
    use crate::model::{GroupId, GroupState, Pairing, Player, PlayerId, Round};
    let open = GroupId::new("open");
    let mut event = Event::new("[event]\n".into());
    for id in 1..=4 {
        event
            .players
            .push(Player::new(PlayerId(id), format!("p{id}"), open.clone()));
    }
    let game = |table, red, black| Pairing::Game {
        table,
        red: PlayerId(red),
        black: PlayerId(black),
        result: None,
    };
    let mut state = GroupState::default();
    state.rounds.push(Round {
        number: 1,
        pairings: vec![game(1, 1, 2), game(2, 3, 4)],
    });
    event.groups.insert(open, state);
    event
}

#[test]
fn a_state_that_contradicts_itself_is_refused() {
    use crate::model::{Pairing, PlayerId};
    assert!(decode(Path::new("q"), &encode(&paired(), 0), Text::default).is_ok());
    type Edit = fn(&mut Event);
    let cases: [(Edit, &str); 5] = [
        (
            |e| e.players[1].id = PlayerId(1),
            "player id `1` is used twice",
        ),
        (
            |e| e.groups.values_mut().next().unwrap().rounds[0].number = 0,
            "group `open`: round 1 is numbered `0`",
        ),
        (
            |e| {
                let round = e.groups.values_mut().next().unwrap().rounds[0].clone();
                e.groups.values_mut().next().unwrap().rounds.push(round);
            },
            "group `open`: round 2 is numbered `1`",
        ),
        (
            |e| {
                e.groups.values_mut().next().unwrap().rounds[0].pairings[1] = Pairing::Bye {
                    player: PlayerId(9),
                };
            },
            "group `open` round 1: player `9` is not registered",
        ),
        (
            |e| {
                e.groups.values_mut().next().unwrap().rounds[0].pairings[1] = Pairing::Bye {
                    player: PlayerId(2),
                };
            },
            "group `open` round 1: player `2` is paired twice",
        ),
    ];
    for (edit, expected) in cases {
        let mut event = paired();
        edit(&mut event);
        let err = decode(Path::new("ev/qiwang.json"), &encode(&event, 0), || {
            "HINT".into()
        })
        .unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("`ev/qiwang.json` is damaged: it contradicts itself: "),
            "{text}"
        );
        assert!(text.contains(expected), "expected {expected:?} in {text}");
        assert!(text.ends_with("; HINT"), "{text}");
    }
}

/// A pairing number given twice in a pool (a hand edit) is refused as the other
/// contradictions are, and every contradiction is worded in both languages.
#[test]
fn a_number_given_twice_is_a_contradiction_in_both_languages() {
    use crate::model::{GroupId, Player, PlayerId};
    let mut event = paired();
    for (p, n) in event.players.iter_mut().zip([1, 2, 3, 4]) {
        p.number = Some(n);
    }
    assert!(integrity(&event).is_empty());
    // The same number in another pool is another player's.
    let mut other = Player::new(PlayerId(5), "p5", GroupId::new("kids"));
    other.number = Some(1);
    event.players.push(other);
    assert!(integrity(&event).is_empty());
    event.players[3].number = Some(2);
    let problems = integrity(&event);
    assert_eq!(
        problems.iter().map(|t| t.en.as_str()).collect::<Vec<_>>(),
        ["`players[3].number`: pairing number 2 of group `open` already belongs to player `2`"]
    );
    // Every kind of contradiction, in Chinese as in English.
    let mut all = event.clone();
    all.players[1].id = PlayerId(1);
    let state = all.groups.values_mut().next().unwrap();
    state.rounds[0].pairings[1] = crate::model::Pairing::Bye {
        player: PlayerId(9),
    };
    let round = state.rounds[0].clone();
    state.rounds.push(round);
    state.relax_given = vec![
        crate::model::RelaxGiven {
            round: 7,
            rules: vec![],
        },
        crate::model::RelaxGiven {
            round: 1,
            rules: vec![crate::model::Relax::Team, crate::model::Relax::Team],
        },
        crate::model::RelaxGiven {
            round: 1,
            rules: vec![crate::model::Relax::Colour],
        },
    ];
    let problems = integrity(&all);
    assert!(problems.len() >= 9, "{problems:?}");
    for t in &problems {
        crate::i18n::facts::assert_same(&t.zh, &t.en);
        // No English outside the keys and values quoted.
        let words: String = t.zh.split('`').step_by(2).collect();
        assert!(!words.chars().any(|c| c.is_ascii_alphabetic()), "{}", t.zh);
    }
    let err = decode(Path::new("q"), &encode(&all, 0), || "HINT".into()).unwrap_err();
    let StoreError::Damaged { detail, .. } = err else {
        panic!("{err}")
    };
    assert!(detail.zh.starts_with("内容自相矛盾："), "{}", detail.zh);
    assert!(detail.zh.contains("（另有 "), "{}", detail.zh);
    assert!(detail.en.contains(" (and "), "{}", detail.en);
    let groups = [GroupId::new("open")];
    let unknown = unknown_groups(&event, &groups);
    assert_eq!(
        unknown.iter().map(|t| t.en.as_str()).collect::<Vec<_>>(),
        ["`players[4].group`: player `5` is in group `kids`, which the rulebook does not have"]
    );
    crate::i18n::facts::assert_same(&unknown[0].zh, &unknown[0].en);
}

/// Ids far above the number of players (a file edited by hand) are checked through
/// a hash set rather than a table: the same problems are found.
#[test]
fn ids_far_apart_are_checked_as_ids_in_a_row() {
    use crate::model::{Pairing, PlayerId};
    let far = |mut event: Event| {
        event.players[3].id = PlayerId(4_000_000_000);
        let round = &mut event.groups.values_mut().next().unwrap().rounds[0];
        round.pairings[1] = Pairing::Game {
            table: 2,
            red: PlayerId(3),
            black: PlayerId(4_000_000_000),
            result: None,
        };
        event
    };
    assert!(integrity(&far(paired())).is_empty());
    let en =
        |event: &Event| -> Vec<String> { integrity(event).into_iter().map(|t| t.en).collect() };
    let mut twice = far(paired());
    twice.players[2].id = PlayerId(4_000_000_000);
    let mut unknown = far(paired());
    unknown.groups.values_mut().next().unwrap().rounds[0].pairings[0] = Pairing::Game {
        table: 1,
        red: PlayerId(1),
        black: PlayerId(7),
        result: None,
    };
    let mut again = far(paired());
    again.groups.values_mut().next().unwrap().rounds[0].pairings[0] = Pairing::Game {
        table: 1,
        red: PlayerId(1),
        black: PlayerId(4_000_000_000),
        result: None,
    };
    assert_eq!(
        en(&twice),
        [
            "player id `4000000000` is used twice",
            "group `open` round 1: player `3` is not registered"
        ]
    );
    assert_eq!(
        en(&unknown),
        ["group `open` round 1: player `7` is not registered"]
    );
    assert_eq!(
        en(&again),
        ["group `open` round 1: player `4000000000` is paired twice"]
    );
}

#[test]
fn a_roster_is_the_rulebook_and_players_alone() {
    let event = paired();
    let read = roster(&encode(&event, 0)).unwrap();
    assert_eq!(read.players, event.players);
    assert_eq!(read.rules_toml, event.rules_toml);
    assert!(read.groups.is_empty());
    // What the full check refuses, the roster does not answer.
    let mut twice = paired();
    twice.players[1].id = crate::model::PlayerId(1);
    let newer = String::from_utf8(encode(&event, 0)).unwrap().replacen(
        &format!("\"schema_version\": {SCHEMA_VERSION}"),
        &format!("\"schema_version\": {}", SCHEMA_VERSION + 1),
        1,
    );
    for bad in [&encode(&twice, 0)[..], newer.as_bytes(), b"{", b""] {
        assert!(roster(bad).is_none());
    }
}

#[test]
fn newer_schema_is_refused_even_with_unknown_shape() {
    let text = r#"{"schema_version": 7, "something": "new"}"#;
    let err = decode(Path::new("q"), text.as_bytes(), || "HINT".into()).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::NewerSchema {
                found: 7,
                supported: SCHEMA_VERSION,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("written by a newer qiwang"),
        "{err}"
    );
}

#[test]
fn snapshot_names_round_trip() {
    let cases = [
        (1, "result", "000001-result.json.gz"),
        (12, "player add", "000012-player-add.json.gz"),
        (3, "", "000003-change.json.gz"),
        (4, "../../etc", "000004-etc.json.gz"),
        (1_234_567, "undo", "1234567-undo.json.gz"),
    ];
    for (seq, command, name) in cases {
        assert_eq!(snapshot_name(seq, command), name);
        assert_eq!(snapshot_seq(name), Some(seq));
    }
    // Uncompressed snapshots of older events still count, and so do steps.
    assert_eq!(snapshot_seq("000012-result.json"), Some(12));
    assert_eq!(snapshot_seq("000013-result.diff.gz"), Some(13));
    assert_eq!(
        step_name_of("000013-result.json.gz").as_deref(),
        Some("000013-result.diff.gz")
    );
    assert_eq!(step_name_of("000013-result.json"), None);
    for name in [
        "x.json",
        "-a.json",
        "12-a.json.tmp",
        "12-a.json.gz.tmp",
        "abc-d.json",
    ] {
        assert_eq!(snapshot_seq(name), None, "{name}");
    }
}

#[test]
fn a_state_saved_with_a_byte_order_mark_reads_as_without() {
    let plain = check(&valid()).map_err(|_| "valid").unwrap();
    let mut marked = b"\xEF\xBB\xBF".to_vec();
    marked.extend(valid());
    assert_eq!(check(&marked).map_err(|_| "with a BOM").unwrap(), plain);
}

#[test]
fn snapshots_are_compressed_and_read_back_exactly() {
    let mut event = Event::new("[event]\n".into());
    for id in 1..=300 {
        event.players.push(crate::model::Player::new(
            crate::model::PlayerId(id),
            format!("棋手{id}"),
            crate::model::GroupId::new("open"),
        ));
    }
    let state = encode(&event, 0);
    let packed = compress(&state);
    assert!(
        packed.len() * 5 < state.len(),
        "{} bytes packed from {}",
        packed.len(),
        state.len()
    );
    let gz = Path::new("history/000002-a.json.gz");
    assert_eq!(snapshot_state(gz, packed.clone()).unwrap(), state);
    // An old uncompressed snapshot is read as it is.
    let plain = Path::new("history/000002-a.json");
    assert_eq!(snapshot_state(plain, state.clone()).unwrap(), state);
    let err = snapshot_state(gz, packed[..packed.len() / 2].to_vec()).unwrap_err();
    assert!(
        err.to_string().contains("is not a whole gzip file"),
        "{err}"
    );
}

/// The state's layout, pinned: the event's keys, each pool and each round indented, and
/// each player, game and penalty a line of its own (`layout`).
#[test]
fn a_state_is_written_a_record_a_line() {
    let mut event = paired();
    event.players.truncate(2);
    event.penalties.push(crate::model::Penalty {
        player: crate::model::PlayerId(2),
        points: crate::model::Points(1),
        reason: "迟到 \"x\"".into(),
        after_round: 1,
        paired_round: 0,
    });
    event.change = Some(7);
    let text = String::from_utf8(encode(&event, 0)).unwrap();
    let player = |id: u32| {
        format!(
            r#"{{"id":{id},"name":"p{id}","gender":null,"unit":"","group":"open","section":null,"birth_date":null,"id_number":null,"grade":null,"rating":null,"title":null,"disabled":false,"local":false,"phone":null,"extra":{{}},"number":null,"status":{{"status":"active"}},"unranked":false,"joined_round":1}}"#
        )
    };
    let want = format!(
        r#"{{
  "schema_version": {SCHEMA_VERSION},
  "change": 7,
  "rules_toml": "[event]\n",
  "players": [
    {},
    {}
  ],
  "groups": {{
    "open": {{
      "rounds": [
        {{
          "number": 1,
          "pairings": [
            {{"kind":"game","table":1,"red":1,"black":2,"result":null}},
            {{"kind":"game","table":2,"red":3,"black":4,"result":null}}
          ]
        }}
      ],
      "seed": null,
      "merged_into": null
    }}
  }},
  "penalties": [
    {{"player":2,"points":1,"reason":"迟到 \"x\"","after_round":1}}
  ],
  "playoffs": []
}}
"#,
        player(1),
        player(2)
    );
    assert_eq!(text, want);
}

/// A state written fully indented by an older qiwang holds the same event as the same
/// state a record a line: a command that changes nothing on it writes nothing. Another
/// event in either layout is a change.
#[test]
fn the_older_layout_of_the_same_event_is_no_change() {
    let event = paired();
    let mut older = serde_json::to_vec_pretty(&event).unwrap();
    older.push(b'\n');
    let now = encode(&event, 0);
    assert_ne!(older, now);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&older).unwrap(),
        serde_json::from_slice::<serde_json::Value>(&now).unwrap()
    );
    assert!(unchanged(&older, &now, &event));
    assert!(unchanged(&now, &now, &event));
    let mut other = paired();
    other.players[0].name = "q1".into();
    let changed = encode(&other, 0);
    assert!(!unchanged(&older, &changed, &other));
    assert!(!unchanged(&now, &changed, &other));
    // The older layout of the same event but its last byte, or with one more.
    assert!(!unchanged(&older[..older.len() - 1], &now, &event));
    let mut longer = older.clone();
    longer.push(b'\n');
    assert!(!unchanged(&longer, &now, &event));
}
