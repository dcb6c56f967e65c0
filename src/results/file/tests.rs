//! Tests of reading a results file: headers, bad rows, groups, seats and pairing codes.

use super::columns::{SideColumn, side_column};
use super::*;
use crate::model::Outcome;
use crate::results::pairing_code;
use crate::results::parse::normalize;

#[test]
fn csv_with_chinese_headers_and_bom() {
    let text = "\u{FEFF}轮次,台号,结果,犯规\n1,1,红胜,\n1,2,=,1:1\n2,1,0-1,0:2\n";
    let rows = parse_results_csv(text, "r.csv").unwrap();
    assert_eq!(
        rows,
        vec![
            (1, ResultEntry::new(1, Outcome::RedWin)),
            (1, ResultEntry::new(2, Outcome::Draw).with_fouls(1, 1)),
            (2, ResultEntry::new(1, Outcome::BlackWin).with_fouls(0, 2)),
        ]
    );
}

#[test]
fn csv_reports_every_bad_row_with_its_line() {
    let text = "round,table,outcome,fouls\n1,1,1-0,\nx,2,=,\n1,3,??,\n1,4,b,1\n1,1,=,\n";
    let err = parse_results_csv(text, "r.csv").unwrap_err();
    let text = err.to_string();
    for needle in [
        "r.csv line 3: round `x`",
        "r.csv line 4: result `??`",
        "r.csv line 5: fouls `1`",
        "r.csv line 6: round 1 table 1 is also on line 2",
    ] {
        assert!(text.contains(needle), "{needle} missing from {text}");
    }
}

#[test]
fn csv_without_a_required_column_names_it() {
    let err = parse_results_csv("round,outcome\n1,r\n", "r.csv").unwrap_err();
    assert!(err.to_string().contains("column `table`"), "{err}");
}

#[test]
fn a_missing_column_is_worded_wholly_in_each_language() {
    use crate::i18n::{Lang, Localize};
    // No round and no table column, and only one of the two sides: both are missing.
    let err = parse_results_csv("红方,outcome\n张三,r\n", "r.csv").unwrap_err();
    let zh = err.localize(Lang::Zh);
    let en = err.localize(Lang::En);
    for needle in [
        "需要 round, 轮次, 轮, 轮数 之一",
        "同时有 红方 和 黑方 两列",
    ] {
        assert!(zh.contains(needle), "{needle} missing from {zh}");
    }
    for needle in [
        "it needs one of round, 轮次, 轮, 轮数",
        "(or both 红方 and 黑方)",
    ] {
        assert!(en.contains(needle), "{needle} missing from {en}");
    }
    // The header names are the file's own words in either language; the sentence around
    // them is in one language only.
    for english in ["one of", " or ", "both", " and "] {
        assert!(
            !zh.contains(english),
            "`{english}` in the Chinese message: {zh}"
        );
    }
    for chinese in ["之一", "或", "同时", "两列"] {
        assert!(
            !en.contains(chinese),
            "`{chinese}` in the English message: {en}"
        );
    }
}

/// Jinhua with rounds in `youth` (two games) and `kids` (two games, and round 2 not
/// yet paired), so every kind of problem can be placed in one file.
fn two_pools() -> (Event, Rulebook) {
    use crate::model::{Pairing, Player, PlayerId, Round};
    let rules = Rulebook::from_toml(include_str!("../../../rules/jinhua-2018.toml"), "j")
        .expect("the shipped rulebook is valid");
    let mut event = Event::new(String::new());
    for (pool, first) in [("youth", 1), ("kids", 11)] {
        let pool = GroupId::new(pool);
        for i in 0..4 {
            let mut p = Player::new(PlayerId(first + i), format!("{pool}{i}"), pool.clone());
            p.number = Some(i + 1);
            event.players.push(p);
        }
        let game = |table, red, black| Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: None,
        };
        event.group_mut(&pool).rounds.push(Round {
            number: 1,
            pairings: vec![game(1, first, first + 1), game(2, first + 2, first + 3)],
        });
    }
    (event, rules)
}

#[test]
fn one_file_for_every_group_reports_every_problem_with_its_line() {
    let (event, rules) = two_pools();
    let text = "组别,轮次,台号,结果,犯规\n\
                青少年组,1,1,r,\n\
                少儿精英,1,9,=,\n\
                成人组,1,1,r,\n\
                少年组,1,2,r,\n\
                kids,2,1,r,\n\
                青少年组,1,2,r,5:0\n\
                ,1,2,b,\n\
                youth,1,1,b,\n\
                青少年组,x,1,zz,\n";
    let err = read_results_file(text, "r.csv", &event, &rules, None).unwrap_err();
    let ResultError::Many(problems) = &err else {
        panic!("expected every problem, got {err}");
    };
    let lines: Vec<u64> = problems
        .iter()
        .map(|p| match p {
            ResultError::CsvRow { line, .. } => *line,
            other => panic!("no line: {other}"),
        })
        .collect();
    assert_eq!(lines, vec![3, 4, 5, 6, 7, 8, 9, 10, 10], "{err}");
    let text = err.to_string();
    for needle in [
        "r.csv line 3: round 1 of group `kids` has no table 9",
        "r.csv line 4: group `adult` has no rounds yet",
        "r.csv line 5: no group `少年组` in the rulebook",
        "r.csv line 6: group `kids` has no round 2",
        "r.csv line 7: round 1 table 2: red has 5 fouls",
        "r.csv line 8: the group cell is empty",
        "r.csv line 9: round 1 table 1 is given twice",
        "r.csv line 10: round `x`",
        "r.csv line 10: result `zz`",
    ] {
        assert!(text.contains(needle), "{needle} missing from {text}");
    }
}

#[test]
fn a_clean_file_is_split_by_group_name_id_or_alias() {
    let (event, rules) = two_pools();
    let text = "group,round,table,result\nyouth,1,1,r\n少儿精英,1,2,=\n青少年组,1,2,b\n";
    let pools = read_results_file(text, "r.csv", &event, &rules, None)
        .unwrap()
        .pools;
    assert_eq!(pools.len(), 2);
    assert_eq!(pools[0].group, GroupId::new("youth"));
    assert_eq!(pools[0].lines, vec![2, 4]);
    assert_eq!(
        pools[0].entries,
        vec![
            (1, ResultEntry::new(1, Outcome::RedWin)),
            (1, ResultEntry::new(2, Outcome::BlackWin))
        ]
    );
    assert_eq!(pools[1].group, GroupId::new("kids"));
    assert_eq!(
        pools[1].entries,
        vec![(1, ResultEntry::new(2, Outcome::Draw))]
    );
}

#[test]
fn the_group_column_is_never_ignored() {
    let (event, rules) = two_pools();
    let youth = GroupId::new("youth");
    // Without the column, several paired groups cannot be told apart.
    let err =
        read_results_file("轮次,台号,结果\n1,1,r\n", "r.csv", &event, &rules, None).unwrap_err();
    assert!(err.to_string().contains("add a group column"), "{err}");
    // With `--group`, the file's rows must all be that group's.
    let err = read_results_file(
        "组别,轮次,台号,结果\n青少年组,1,1,r\nkids,1,1,r\n",
        "r.csv",
        &event,
        &rules,
        Some(&youth),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("r.csv line 3: group `kids` is not the group chosen"),
        "{err}"
    );
    // Without the column, `--group` says whose rows they are.
    let pools = read_results_file(
        "轮次,台号,结果\n1,1,r\n",
        "r.csv",
        &event,
        &rules,
        Some(&youth),
    )
    .unwrap()
    .pools;
    assert_eq!(pools[0].group, youth);
    // The one-group reader refuses a file with the column rather than drop it.
    let err = parse_results_csv("组别,轮次,台号,结果\n青少年组,1,1,r\n", "r.csv").unwrap_err();
    assert!(err.to_string().contains("group column"), "{err}");
}

#[test]
fn an_empty_table_cell_is_found_by_the_players_and_every_stale_code_is_named() {
    let (event, rules) = two_pools();
    let text = "组别,轮次,台号,红方,黑方,结果\nyouth,1,,youth2,youth3,r\n";
    let pools = read_results_file(text, "r.csv", &event, &rules, None)
        .unwrap()
        .pools;
    assert_eq!(
        pools[0].entries,
        vec![(1, ResultEntry::new(2, Outcome::RedWin))]
    );
    let code = |pool: &str| {
        let pool = GroupId::new(pool);
        pairing_code(&pool, event.group(&pool).unwrap().round(1).unwrap())
    };
    let (youth, kids) = (code("youth"), code("kids"));
    let text = format!(
        "组别,轮次,台号,结果,编排码\n\
         youth,1,1,r,{youth}\n\
         youth,1,2,r,{kids}\n\
         kids,1,1,r,pdeadbeef\n\
         kids,1,2,r,PDEADBEEF\n\
         kids,2,1,r,P00000000\n"
    );
    let err = read_results_file(&text, "r.csv", &event, &rules, None).unwrap_err();
    let ResultError::Many(problems) = &err else {
        panic!("expected every problem, got {err}");
    };
    assert_eq!(problems.len(), 3, "{err}");
    let text = err.to_string();
    let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
    assert!(
        at("line 3") < at("lines 4–5") && at("lines 4–5") < at("line 6"),
        "{text}"
    );
    for needle in [
        format!("r.csv line 3: pairing code `{kids}` is that of round 1 of group `少儿精英组`"),
        format!(
            "r.csv lines 4–5: printed for pairing `PDEADBEEF` of round 1 of group `少儿精英组`, which is now paired as `{kids}`"
        ),
        "r.csv line 6: printed for pairing `P00000000` of round 2 of group `少儿精英组`, but that round is no longer paired"
            .to_string(),
    ] {
        assert!(text.contains(&needle), "{needle} missing from {text}");
    }
}

#[test]
fn side_columns_are_read_in_every_spelling_and_units_are_not_players() {
    use SideColumn::{IdTail, Name, Number};
    let cases = [
        ("红方", Some((0, Name))),
        ("黑方姓名", Some((1, Name))),
        ("红方棋手", Some((0, Name))),
        ("red", Some((0, Name))),
        ("black player", Some((1, Name))),
        ("红", Some((0, Name))),
        ("红方序号", Some((0, Number))),
        ("黑方编号", Some((1, Number))),
        ("red no.", Some((0, Number))),
        ("black #", Some((1, Number))),
        ("红方(序号)", Some((0, Number))),
        ("红方证件尾号", Some((0, IdTail))),
        ("黑方身份证号", Some((1, IdTail))),
        ("red id", Some((0, IdTail))),
        ("红方单位", None),
        ("黑方积分", None),
        ("red pts", None),
        ("红方签字", None),
        ("红胜", None),
        ("结果", None),
    ];
    for (header, want) in cases {
        assert_eq!(side_column(&normalize(header)), want, "{header}");
    }
    // A file spelling its columns its own way is still checked.
    let (event, rules) = two_pools();
    let text = "组别,轮次,台号,Red Player,黑方棋手姓名,结果\nyouth,1,1,youth1,youth0,r\n";
    let err = read_results_file(text, "r.csv", &event, &rules, None).unwrap_err();
    assert!(
        err.to_string().contains("red and black are swapped"),
        "{err}"
    );
}

/// One board given twice in two spellings of its hall (`B2`, `ｂ２ `) is given twice: the
/// rows are told apart by the hall as it is matched to a pool's, not by the cell's text;
/// the main hall's words are one hall with an empty cell.
#[test]
fn a_board_in_two_spellings_of_its_hall_is_given_twice() {
    let text = "场地,轮次,台号,结果\nB2,1,1,红胜\nｂ２ ,1,1,和\n主赛场,1,1,黑胜\n,1,1,和\n";
    let rows = read_rows(text, "r.csv").unwrap();
    let duplicates: Vec<String> = rows
        .errors
        .iter()
        .map(|e| crate::i18n::Localize::localize(e, crate::rulebook::Lang::En))
        .collect();
    assert_eq!(duplicates.len(), 2, "{duplicates:?}");
    assert!(
        duplicates[0].contains("line 3") && duplicates[0].contains("b2 table 1"),
        "{duplicates:?}"
    );
    assert!(
        duplicates[1].contains("line 5") && duplicates[1].contains("is also on line 4"),
        "{duplicates:?}"
    );
}
