use super::*;
use crate::model::{GameResult, Outcome, Pairing, Player, PlayerId, Round};

/// Four players of the rulebook's first pool after one played round.
fn played_event() -> (Event, Rulebook) {
    let rules = Rulebook::cxa_2011("t", 3);
    let group = rules.groups[0].id.clone();
    let mut event = Event::new(String::new());
    for id in 1..=4 {
        let mut p = Player::new(PlayerId(id), format!("p{id}"), group.clone());
        p.number = Some(id);
        event.players.push(p);
    }
    let game = |table, red, black, outcome| Pairing::Game {
        table,
        red: PlayerId(red),
        black: PlayerId(black),
        result: Some(GameResult::new(outcome)),
    };
    event.group_mut(&group).rounds.push(Round {
        number: 1,
        pairings: vec![game(1, 1, 3, Outcome::RedWin), game(2, 4, 2, Outcome::Draw)],
    });
    (event, rules)
}

/// A copy of the rulebook's first pool under another id and name: nobody plays in it.
fn add_pool_without_players(rules: &mut Rulebook, id: &str, name: &str) {
    let mut pool = rules.groups[0].clone();
    pool.id = GroupId::new(id);
    pool.name = name.into();
    rules.groups.push(pool);
}

/// Leaving the JSON value out changes nothing any other format prints, and the
/// large views really leave it out (`null`) instead of building it anyway.
#[test]
fn leaving_out_json_changes_only_the_json() {
    let (event, rules) = played_event();
    let built = documents(&event, &rules, None, Lang::Zh, Json::Build);
    let left = documents(&event, &rules, None, Lang::Zh, Json::LeaveOut);
    assert_eq!(built.len(), left.len());
    let mut nulls = 0;
    for (b, l) in built.iter().zip(&left) {
        for format in [Format::Table, Format::Csv, Format::Html] {
            assert_eq!(
                b.report.render(format),
                l.report.render(format),
                "{}",
                b.stem
            );
        }
        assert!(!b.report.json.is_null(), "{}", b.stem);
        nulls += usize::from(l.report.json.is_null());
    }
    // The round sheet, standings, crosstable and players of the one pool.
    assert_eq!(nulls, 4);
}

/// The streamed whole-event JSON prints exactly what its value prints: every object
/// of it, down to the tiebreak values and the masked penalty reason, has its keys in
/// the alphabetical order a `serde_json::Value` keeps (the text the export wrote when
/// it was built as one value).
#[test]
fn the_streamed_event_json_reads_as_its_value() {
    let (mut event, rules) = played_event();
    event.penalties.push(crate::model::Penalty {
        player: PlayerId(2),
        points: crate::model::Points(2),
        reason: "电话 13912345678".into(),
        after_round: 1,
        paired_round: 0,
    });
    for show_private in [false, true] {
        let mut streamed = Vec::new();
        write_event_json(&event, &rules, None, show_private, &mut streamed).unwrap();
        let value = event_json(&event, &rules, None, show_private);
        assert!(!value["groups"][0]["standings"]["rows"][0]["values"].is_null());
        assert_eq!(
            String::from_utf8(streamed).unwrap(),
            serde_json::to_string_pretty(&value).unwrap() + "\n"
        );
    }
}

/// A pool nobody plays in has no standings and is left out of the document, streamed
/// or built as a value (the streamed document asks for a pool's standings only after
/// its rounds, so it picks its pools by their players).
#[test]
fn a_pool_without_players_is_left_out_of_the_event_json() {
    let (event, mut rules) = played_event();
    add_pool_without_players(&mut rules, "empty", "空组");
    let mut streamed = Vec::new();
    write_event_json(&event, &rules, None, false, &mut streamed).unwrap();
    let value = event_json(&event, &rules, None, false);
    let groups = value["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["id"], rules.groups[0].id.as_str());
    assert_eq!(
        String::from_utf8(streamed).unwrap(),
        serde_json::to_string_pretty(&value).unwrap() + "\n"
    );
}

/// A value worked out on another thread is waited for once, and a panic there comes
/// back with its own message.
#[test]
fn later_gives_the_value_or_the_panic_of_its_thread() {
    std::thread::scope(|scope| {
        let later = Later::spawn(scope, || 6 * 7);
        assert_eq!(*later.get(), 42);
        assert_eq!(*later.get(), 42);
    });
    let caught = std::panic::catch_unwind(|| {
        std::thread::scope(|scope| {
            let later: Later<'_, u32> = Later::spawn(scope, || panic!("standings failed"));
            *later.get()
        })
    });
    let panic = caught.unwrap_err();
    assert_eq!(panic.downcast_ref::<&str>(), Some(&"standings failed"));
}

/// What a second thread makes comes in its order; a consumer that stops early does
/// not leave the maker waiting (the test would hang); a panic in the maker comes
/// back after what was made before it.
#[test]
fn streamed_items_come_in_order_and_a_maker_panic_comes_back() {
    let all = streamed(
        |each| (0..100).for_each(each),
        |items| items.collect::<Vec<u32>>(),
    );
    assert_eq!(all, (0..100).collect::<Vec<_>>());
    let first = streamed(|each| (0..100).for_each(each), |items| items.next());
    assert_eq!(first, Some(0));
    let mut seen = Vec::new();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        streamed(
            |each| {
                each(1);
                each(2);
                panic!("standings failed");
            },
            |items| seen.extend(items),
        );
    }));
    assert_eq!(seen, [1, 2]);
    let panic = caught.unwrap_err();
    assert_eq!(panic.downcast_ref::<&str>(), Some(&"standings failed"));
}

/// The streamed documents are the documents, in index order, in every export: the
/// site lists them in that order and the CSV files are the same reports.
#[test]
fn every_export_takes_the_documents_in_index_order() {
    let (event, mut rules) = played_event();
    add_pool_without_players(&mut rules, "b", "乙组");
    let docs = documents(&event, &rules, None, Lang::Zh, Json::LeaveOut);
    let stems: Vec<&str> = docs.iter().map(|d| d.stem.as_str()).collect();
    // The pool without players has no documents; the prize sheet comes last.
    let g = rules.groups[0].id.as_str();
    let pages = ["round-1", "standings", "crosstable", "players"];
    let mut want: Vec<String> = pages.iter().map(|p| format!("{g}/{p}")).collect();
    want.push("prizes".into());
    assert_eq!(stems, want);
    let streamed: Vec<String> =
        streamed_documents(&event, &rules, None, Lang::Zh, Json::LeaveOut, |docs| {
            docs.map(|d| d.stem).collect()
        });
    assert_eq!(streamed, stems);
    let files = site(&event, &rules, None, Lang::Zh);
    let index = &files.iter().find(|(n, _)| n == "index.html").unwrap().1;
    let listed: Vec<usize> = stems
        .iter()
        .map(|s| index.find(&format!("href=\"{s}.html\"")).unwrap())
        .collect();
    assert!(listed.is_sorted(), "{index}");
    let csv = csv_files(&event, &rules, None, Lang::Zh, |_, text| {
        Ok::<_, ()>(text.into_bytes())
    })
    .unwrap();
    for doc in &docs {
        let name = format!("{}.csv", doc.stem);
        let (_, bytes) = csv.iter().find(|(n, _)| *n == name).unwrap();
        assert_eq!(
            *bytes,
            doc.report.render(Format::Csv).into_bytes(),
            "{name}"
        );
    }
}

/// An id (or any value) that closes the attribute cannot add an
/// element or attribute to the index; `rules check` refuses such ids, and the site is
/// safe even if one got through.
#[test]
fn a_hostile_id_stays_inside_its_attribute() {
    let hostile = "x\"><svg/onload=alert(1)>";
    let mut rules = Rulebook::cxa_2011("<b>赛</b>", 3);
    rules.groups[0].id = GroupId::new(hostile);
    rules.groups[0].name = "javascript:alert(1)".into();
    let mut event = Event::new(String::new());
    event
        .players
        .push(Player::new(PlayerId(1), "<i>甲</i>", GroupId::new(hostile)));
    let files = site(&event, &rules, None, Lang::Zh);
    let index = &files.iter().find(|(n, _)| n == "index.html").unwrap().1;
    assert!(!index.contains("<svg"), "{index}");
    assert!(index.contains("href=\"x&quot;&gt;&lt;svg/onload=alert(1)&gt;/standings.html\""));
    for (name, page) in &files {
        assert!(
            !page.contains("<svg") && !page.contains("<i>") && !page.contains("<b>"),
            "{name}"
        );
    }
}
