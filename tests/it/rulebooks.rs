//! Every shipped rulebook in `rules/` loads, round-trips through the effective TOML and
//! encodes its regulation; rulebook mistakes are reported with line, column and key.

use qiwang::model::{Gender, GroupId, Points};
use qiwang::rulebook::*;
use std::path::PathBuf;

fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn load(name: &str) -> Rulebook {
    let path = rules_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    Rulebook::from_toml(&text, name).unwrap_or_else(|e| panic!("{e}"))
}

/// The smallest valid rulebook, to which each test adds its sections.
const MINIMAL: &str =
    "[event]\nname = \"测试赛\"\nrounds = 7\n\n[[groups]]\nid = \"open\"\nname = \"公开组\"\n\n";

/// The problems of an invalid rulebook as `line:col key: message` lines.
fn problems(text: &str) -> Vec<String> {
    match Rulebook::from_toml(text, "r.toml") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => {
            assert_eq!(e.source, "r.toml");
            e.problems
                .iter()
                .map(|p| format!("{}:{} {}: {}", p.line, p.column, p.key, p.message))
                .collect()
        }
    }
}

/// The single problem of `MINIMAL` plus `extra`.
fn one_problem(extra: &str) -> String {
    let text = format!("{MINIMAL}{extra}");
    let found = problems(&text);
    assert_eq!(found.len(), 1, "{found:#?}");
    found.into_iter().next().unwrap()
}

fn ok(extra: &str) -> Rulebook {
    let text = format!("{MINIMAL}{extra}");
    Rulebook::from_toml(&text, "r.toml").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_shipped_rulebook_loads_and_round_trips() {
    let mut names: Vec<String> = std::fs::read_dir(rules_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "cxa-2011.toml",
            "dongguan-2018.toml",
            "double-round-robin.toml",
            "jinhua-2018.toml",
            "round-robin-only.toml",
            "round-robin.toml",
            "swiss-knockout.toml",
            "swiss-round-robin.toml",
            "team-swiss.toml"
        ]
    );
    for name in names {
        let rules = load(&name);
        let text = rules.to_effective_toml();
        let back = Rulebook::from_toml(&text, "effective.toml")
            .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(back, rules, "{name}");
        // The effective TOML is a fixed point.
        assert_eq!(back.to_effective_toml(), text, "{name}");
    }
}

#[test]
fn minimal_rulebook_takes_every_default() {
    let rules = ok("");
    let mut want = Rulebook::cxa_2011("测试赛", 7);
    want.groups[0].id = GroupId::new("open");
    assert_eq!(rules, want);
}

#[test]
fn cxa_2011_is_the_builtin_preset() {
    let rules = load("cxa-2011.toml");
    assert_eq!(rules, Rulebook::cxa_2011("象棋积分编排制比赛", 7));
}

fn places(list: &[PrizePlace]) -> Vec<(u32, u32, u32)> {
    list.iter().map(|p| (p.from, p.to, p.money)).collect()
}

fn prize_list<'a>(rules: &'a Rulebook, id: &str) -> &'a PrizeList {
    rules
        .prizes
        .lists
        .iter()
        .find(|l| l.id == id)
        .unwrap_or_else(|| panic!("no list {id}"))
}

#[test]
fn jinhua_2018_encodes_the_regulation() {
    let r = load("jinhua-2018.toml");
    assert_eq!(r.event.rounds, 9);
    assert_eq!(r.event.time_control, "25分钟+每步5秒");
    let ids: Vec<&str> = r.groups.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["adult", "disabled", "youth", "kids", "kids_b"]);
    // 十一：未获得国家级运动健将、象棋大师称号 → both titles, in every group.
    assert!(
        r.groups
            .iter()
            .all(|g| g.eligibility.below_title == ["国家级运动健将", "象棋大师"]),
        "{:?}",
        r.groups[0].eligibility
    );

    let disabled = r.find_group("残疾人组").unwrap();
    assert_eq!(disabled.pairs_with, Some(GroupId::new("adult")));
    assert!(disabled.marks.disabled && disabled.eligibility.disabled);
    let youth = r.find_group("青少年组").unwrap();
    assert_eq!(youth.eligibility.under_age, Some(16));
    assert_eq!(
        youth.eligibility.age_reference,
        chrono::NaiveDate::from_ymd_opt(2018, 10, 26)
    );
    assert_eq!(
        r.find_group("kids").unwrap().eligibility.under_age,
        Some(14)
    );
    let kids_b = r.find_group("少儿精英乙组").unwrap();
    assert_eq!(
        (kids_b.eligibility.min_grade, kids_b.eligibility.max_grade),
        (Some(1), Some(2))
    );
    assert!(
        kids_b
            .time_control
            .as_deref()
            .unwrap()
            .contains("15分钟包干")
    );

    assert_eq!(r.pairing.team_avoidance, TeamAvoidance::Off);
    assert_eq!(r.conduct.fouls_to_lose_game, 3);
    assert_eq!(r.conduct.late_forfeit_minutes, 10);
    assert_eq!(
        r.ranking.tiebreaks,
        [
            Tiebreak::OppScore,
            Tiebreak::Wins,
            Tiebreak::Fouls,
            Tiebreak::BlackGames
        ]
    );
    assert_eq!(r.ranking.fallback, Fallback::PrevRoundCumulative);

    let adult = prize_list(&r, "adult");
    assert_eq!(
        places(&adult.places),
        [
            (1, 1, 3000),
            (2, 2, 1200),
            (3, 3, 800),
            (4, 4, 700),
            (5, 5, 600),
            (6, 6, 500),
            (7, 8, 400),
            (9, 10, 300),
            (11, 12, 200)
        ]
    );
    assert_eq!(adult.places[0].title.as_deref(), Some("金华市成人组棋王"));
    let dis = prize_list(&r, "disabled");
    assert_eq!(dis.group, GroupId::new("adult"));
    assert_eq!(dis.filter.disabled, Some(true));
    for (id, group, gender) in [
        ("kids_boys", "kids", Gender::Male),
        ("kids_girls", "kids", Gender::Female),
        ("kids_b_boys", "kids_b", Gender::Male),
        ("kids_b_girls", "kids_b", Gender::Female),
    ] {
        let list = prize_list(&r, id);
        assert_eq!(list.group, GroupId::new(group), "{id}");
        assert_eq!(list.filter.gender, Some(gender), "{id}");
        assert_eq!(
            places(&list.places),
            [(1, 1, 400), (2, 2, 200), (3, 6, 100)],
            "{id}"
        );
    }
    assert_eq!(
        places(&prize_list(&r, "youth").places),
        [(1, 1, 500), (2, 2, 300), (3, 3, 200), (4, 6, 100)]
    );

    assert_eq!(r.teams.len(), 1);
    let team = &r.teams[0];
    assert_eq!((team.group.as_str(), team.best_n), ("adult", 3));
    assert_eq!(
        places(&team.places),
        [(1, 1, 1800), (2, 2, 1200), (3, 3, 900), (4, 6, 600)]
    );
}

#[test]
fn dongguan_2018_encodes_the_regulation() {
    let r = load("dongguan-2018.toml");
    assert_eq!(r.event.rounds, 7);
    assert!(r.event.time_control.contains("30分钟包干"));
    let ids: Vec<&str> = r.groups.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "king",
            "local",
            "teen_boys",
            "teen_girls",
            "kids_girls",
            "kids_a",
            "kids_b"
        ]
    );
    for pool in r.pools() {
        assert_eq!(pool.min_size, Some(10), "{}", pool.id);
    }
    let local = r.find_group("本地组").unwrap();
    assert_eq!(local.pairs_with, Some(GroupId::new("king")));
    assert!(local.marks.local && local.eligibility.local);
    let grades = |id: &str| {
        let e = &r.find_group(id).unwrap().eligibility;
        (e.min_grade, e.max_grade, e.gender, e.student)
    };
    assert_eq!(
        grades("teen_boys"),
        (Some(7), Some(12), Some(Gender::Male), true)
    );
    assert_eq!(
        grades("teen_girls"),
        (Some(7), Some(12), Some(Gender::Female), true)
    );
    assert_eq!(
        grades("kids_girls"),
        (Some(1), Some(6), Some(Gender::Female), true)
    );
    assert_eq!(grades("kids_a"), (Some(4), Some(6), None, true));
    assert_eq!(grades("kids_b"), (Some(1), Some(3), None, true));

    let c = &r.conduct;
    assert_eq!((c.fouls_to_lose_game, c.late_forfeit_minutes), (2, 15));
    assert_eq!(c.withdraw_after_forfeits, Some(2));
    assert!(!c.withdraw_consecutive, "累计2轮不到: in total");
    assert!(c.withdrawn_games_kept, "对手分将保留");
    assert_eq!(c.disturbance_penalty, Some(Points(2)));
    assert_eq!(
        r.ranking.tiebreaks,
        [Tiebreak::OppScore, Tiebreak::Progressive]
    );
    assert_eq!(r.ranking.shared_from_place, 2, "冠军不并列");
    assert_eq!(r.ranking.unresolved, TieResolution::Shared);

    let king = prize_list(&r, "king");
    assert_eq!(
        places(&king.places),
        [
            (1, 1, 1800),
            (2, 2, 1200),
            (3, 3, 800),
            (4, 4, 600),
            (5, 5, 500),
            (6, 6, 400),
            (7, 7, 300),
            (8, 8, 300)
        ]
    );
    assert!(
        king.places.iter().all(|p| p.qualification.is_some()),
        "前8名晋级"
    );
    assert_eq!(king.places[0].title.as_deref(), Some("东莞分站赛棋王"));
    let local_list = prize_list(&r, "local");
    assert_eq!(local_list.name, "本地成人组");
    assert_eq!(local_list.group, GroupId::new("king"));
    assert_eq!(local_list.filter.local, Some(true));
    assert_eq!(
        places(&local_list.places),
        [
            (1, 1, 800),
            (2, 2, 500),
            (3, 3, 300),
            (4, 6, 200),
            (7, 8, 150),
            (9, 12, 100)
        ]
    );
    for id in ["teen_boys", "teen_girls", "kids_girls", "kids_a", "kids_b"] {
        let list = prize_list(&r, id);
        assert_eq!(list.group.as_str(), id);
        assert_eq!(
            places(&list.places),
            [
                (1, 1, 500),
                (2, 2, 300),
                (3, 3, 200),
                (4, 5, 150),
                (6, 8, 100)
            ],
            "{id}"
        );
        assert!(list.places[0].title.is_some(), "{id}");
    }
    assert!(r.teams.is_empty());
}

#[test]
fn three_mistakes_give_three_problems_in_file_order() {
    let text = "\
[event]
name = \"测试赛\"
rounds = 0

[[groups]]
id = \"open\"
[groups.eligibility]
max_grade = 13

[conduct]
fouls_to_loose_game = 3
";
    assert_eq!(
        problems(text),
        [
            "3:10 event.rounds: `0` is too small; it must be at least 1",
            "8:13 groups[0].eligibility.max_grade: `13` is out of range; use a whole number from -2 to 12",
            "11:1 conduct.fouls_to_loose_game: unknown key `fouls_to_loose_game`; did you mean `fouls_to_lose_game`?",
        ]
    );
    let errors = Rulebook::from_toml(text, "bad.toml").unwrap_err();
    assert_eq!(
        errors.to_string().lines().next(),
        Some("bad.toml:3:10: event.rounds: `0` is too small; it must be at least 1")
    );
}

#[test]
fn unknown_keys_suggest_the_nearest_or_list_the_valid_ones() {
    assert_eq!(
        one_problem("[ranking]\ntiebreak = [\"wins\"]\n"),
        "10:1 ranking.tiebreak: unknown key `tiebreak`; did you mean `tiebreaks`?"
    );
    assert_eq!(
        one_problem("[colors]\nmax_streak = 2\n"),
        "9:2 colors: unknown key `colors`; did you mean `colours`?"
    );
    assert_eq!(
        one_problem("[scoring]\nzzz = 1\n"),
        "10:1 scoring.zzz: unknown key `zzz`; valid keys here are `red_win`, `red_draw`, `red_loss`, `black_win`, `black_draw`, `black_loss`, `bye`, `forfeit_win`, `forfeit_loss`, `double_forfeit`"
    );
}

#[test]
fn required_keys() {
    assert_eq!(
        problems("[event]\nrounds = 9\n[[groups]]\nid = \"a\"\n"),
        ["1:1 event.name: missing required key; add it, for example `name = \"…\"`"]
    );
    assert_eq!(
        problems("[event]\nname = \"x\"\n[[groups]]\nid = \"a\"\n"),
        ["1:1 event.rounds: missing required key; add it, for example `rounds = 9`"]
    );
    assert_eq!(
        problems("[event]\nname = \"x\"\nrounds = 9\n"),
        [
            "1:1 groups: no groups; add at least one `[[groups]]` with `id = \"…\"` and `name = \"…\"`"
        ]
    );
    assert_eq!(
        problems("[[groups]]\nid = \"a\"\n"),
        [
            "1:1 event: missing required section; add `[event]` with `name = \"…\"` and the number of rounds, for example `rounds = 9`"
        ]
    );
    assert_eq!(
        one_problem("[[groups]]\nname = \"乙组\"\n"),
        "9:1 groups[1].id: missing required key; add it, for example `id = \"adult\"`"
    );
}

#[test]
fn wrong_types_bad_values_and_dates() {
    let cases = [
        (
            "[pairing]\nseeding = \"rating\"\n",
            "10:11 pairing.seeding: unknown value `rating`; expected one of `random_draw`, `rating_then_lot`, `sheet` (did you mean `rating_then_lot`?)",
        ),
        (
            "[pairing]\nforfeit_counts_as_met = \"yes\"\n",
            "10:25 pairing.forfeit_counts_as_met: expected `true` or `false`, found a string `\"yes\"`",
        ),
        (
            "[colours]\nmax_streak = true\n",
            "10:14 colours.max_streak: `true` is not a limit; give a whole number (at least 1) or `false` for no limit",
        ),
        (
            "[ranking]\nfallback = 3\n",
            "10:12 ranking.fallback: expected one of `prev_round_cumulative`, `drop_rounds_from_first`, `prev_round_rank`, `none`, found an integer `3`",
        ),
        (
            "[scoring]\nred_win = 2.5\n",
            "10:11 scoring.red_win: expected a whole number, found a float `2.5`",
        ),
    ];
    for (extra, want) in cases {
        assert_eq!(one_problem(extra), want, "{extra}");
    }
    let dates = [
        (
            "age_reference = \"2018-02-30\"",
            "11:17 groups[0].eligibility.age_reference: `2018-02-30` is not a valid date; write it as year-month-day, e.g. `2018-10-26`",
        ),
        (
            "age_reference = 20181026",
            "11:17 groups[0].eligibility.age_reference: expected a date such as `2018-10-26`, found an integer `20181026`",
        ),
        (
            "age_reference = 2018-10-26T08:30:00",
            "11:17 groups[0].eligibility.age_reference: `2018-10-26T08:30:00` has a time; give the date only, e.g. `2018-10-26`",
        ),
    ];
    for (line, want) in dates {
        let text = format!("{MINIMAL}\n[groups.eligibility]\n{line}\n");
        assert_eq!(problems(&text), [want], "{line}");
    }
    let text = "[event]\nname = \"x\"\nrounds = 9\nstart_date = 2018-10-28\nend_date = \"2018-10-26\"\n[[groups]]\nid = \"a\"\n";
    assert_eq!(
        problems(text),
        [
            "5:12 event.end_date: `2018-10-26` is before start_date `2018-10-28`; the event must end on or after its first day"
        ]
    );
}

#[test]
fn a_byte_order_mark_is_ignored() {
    let text = format!("\u{feff}{MINIMAL}");
    assert_eq!(Rulebook::from_toml(&text, "bom.toml").unwrap(), ok(""));
    assert_eq!(
        problems("\u{feff}[event]\nname = \"x\"\nrounds = -1\n[[groups]]\nid = \"a\"\n"),
        ["3:10 event.rounds: `-1` is too small; it must be at least 1"]
    );
}

#[test]
fn toml_syntax_error_has_its_position() {
    assert_eq!(
        problems("[event]\nname = = \"x\"\n"),
        ["2:8 : invalid TOML: extra `=`, expected nothing"]
    );
}

#[test]
fn cross_field_checks_pin_their_messages() {
    let cases = [
        (
            "[scoring]\nred_draw = 3\n",
            "10:12 scoring.red_draw: red_win `2` is less than red_draw `3`; red_win must be at least red_draw",
        ),
        (
            "[scoring]\nblack_loss = 2\nblack_draw = 1\n",
            "10:14 scoring.black_loss: black_draw `1` is less than black_loss `2`; black_draw must be at least black_loss",
        ),
        (
            "[scoring]\nforfeit_win = 0\nforfeit_loss = 1\n",
            "11:16 scoring.forfeit_loss: forfeit_win `0` is less than forfeit_loss `1`; forfeit_win must be at least forfeit_loss",
        ),
        (
            "[conduct]\nfouls_to_lose_game = 0\n",
            "10:22 conduct.fouls_to_lose_game: `0` is too small; it must be at least 1",
        ),
        (
            "[conduct]\npenalties_allowed = false\ndisturbance_penalty = 2\n",
            "11:23 conduct.disturbance_penalty: a disturbance penalty is set but penalties_allowed is `false`; allow penalties or remove the penalty",
        ),
        (
            "[ranking]\nshared_from_place = 0\n",
            "10:21 ranking.shared_from_place: `0` is too small; it must be at least 1",
        ),
        (
            "[ranking]\ntiebreaks = [\"对手分\", \"buchholz\"]\n",
            "10:21 ranking.tiebreaks[1]: unknown tiebreak `buchholz`; expected one of `opp_score`, `progressive`, `wins`, `fouls`, `black_games`, `black_wins`, `red_wins`, `direct_encounter`, `median_opp`, `cut_opp`, `sonneborn_berger`, `mutual`; Chinese names 对手分、累进分、累积分、胜局、犯规、后走局数、后手局、后手局数、后手数、后走胜局、后胜局、先手胜局、直胜、中间分、扣除对手分、小分、相互间成绩、相互间积分 are accepted too",
        ),
        (
            "[ranking]\ntiebreaks = [\"对手分\", \"wins\", \"opp_score\"]\n",
            "10:29 ranking.tiebreaks[2]: `opp_score` repeats `对手分` (opp_score); list each tiebreak once",
        ),
        (
            "[ranking]\ntiebreaks = [\"wins\", \"prev_round_rank\"]\n",
            "10:22 ranking.tiebreaks[1]: `prev_round_rank` is a fallback, not a tiebreak; remove it here and set `fallback = \"prev_round_rank\"`",
        ),
        (
            "[ranking]\ntiebreaks = [\"lot\"]\n",
            "10:14 ranking.tiebreaks[0]: `lot` settles ties left after every tiebreak; remove it here and set `unresolved = \"lot\"`",
        ),
        (
            "aliases = [\"公开\", \" \"]\n",
            "9:18 groups[0].aliases[1]: an alias must not be empty; remove it",
        ),
        (
            "[ranking]\npreset = \"cxa-14.3.3\"\n",
            "10:10 ranking.preset: unknown value `cxa-14.3.3`; expected one of `cxa-14.3.1`, `cxa-14.3.2` (did you mean `cxa-14.3.1`?)",
        ),
        (
            "[groups.eligibility]\nmin_grade = 4\nmax_grade = 3\n",
            "10:13 groups[0].eligibility.min_grade: min_grade `4` is above max_grade `3`; swap them",
        ),
        (
            "[groups.eligibility]\nmin_grade = -3\n",
            "10:13 groups[0].eligibility.min_grade: `-3` is out of range; use a whole number from -2 to 12",
        ),
        (
            "[groups.eligibility]\nmin_grade = \"初四\"\n",
            "10:13 groups[0].eligibility.min_grade: grade `初四` is not a school grade; write one of 小班, 中班, 大班 (kindergarten), 一年级 … 六年级, 初一 … 初三, 高一 … 高三 or 1–12",
        ),
        (
            "[groups.eligibility]\nmax_grade = \"高三\"\nmin_grade = \"大班\"\nbelow_title = \"国家级运动健将\"\nmax_title = \"国家大师\"\n",
            "13:13 groups[0].eligibility.max_title: max_title `象棋大师` is not below below_title `国家级运动健将`; one of them is enough (max_title for 棋协大师及以下, below_title for 未获得…称号)",
        ),
        (
            "[groups.eligibility]\nmin_age = 16\nunder_age = 16\nage_max_inclusive = false\n",
            "10:11 groups[0].eligibility.min_age: min_age `16` leaves no age below under_age `16`; min_age must be smaller",
        ),
        (
            "[[groups]]\nid = \"b\"\nname = \"公开组\"\n",
            "11:8 groups[1].name: `公开组` already names group `open`; every id, name and alias must be different",
        ),
        (
            "[[groups]]\nid = \"open\"\nname = \"乙组\"\n",
            "10:6 groups[1].id: `open` already names group `open`; every id, name and alias must be different",
        ),
        (
            "[[groups]]\nid = \"b\"\nname = \"乙组\"\naliases = [\"公开组\"]\n",
            "12:11 groups[1].aliases: `公开组` already names group `open`; every id, name and alias must be different",
        ),
        (
            "[[groups]]\nid = \"b\"\npairs_with = \"成人组\"\n",
            "11:14 groups[1].pairs_with: no group `成人组`; name a group by its id, name or alias (ids: `open`, `b`)",
        ),
        (
            "[[groups]]\nid = \"b\"\npairs_with = \"open\"\nrounds = 5\n",
            "12:10 groups[1].rounds: `5` rounds on a section: `b` plays the rounds of its pool `open`; set them there",
        ),
        (
            "[[groups]]\nid = \"b\"\npairs_with = \"b\"\n",
            "11:14 groups[1].pairs_with: `b` is this group itself; leave `pairs_with` out for a group paired on its own",
        ),
        (
            "[[groups]]\nid = \"b\"\npairs_with = \"open\"\n[[groups]]\nid = \"c\"\npairs_with = \"b\"\n",
            "14:14 groups[2].pairs_with: `b` is itself paired in `open`; name the pool `open` instead",
        ),
        (
            "[[prizes.lists]]\ngroup = \"少年组\"\nplaces = [{ place = 1, money = 100 }]\n",
            "10:9 prizes.lists[0].group: no group `少年组`; name a group by its id, name or alias (ids: `open`)",
        ),
        (
            "[[groups]]\nid = \"local\"\npairs_with = \"open\"\n[[prizes.lists]]\ngroup = \"local\"\nplaces = [{ place = 1 }]\n",
            "13:9 prizes.lists[0].group: `local` is a section paired in `open`, not a pool; name `open` here and rank the section with `filter.section = \"local\"`",
        ),
        (
            "[[prizes.lists]]\nplaces = [{ place = 1 }]\n[prizes.lists.filter]\nsection = \"open\"\n",
            "12:11 prizes.lists[0].filter.section: `open` is a pool, not a section; a section is a group with `pairs_with`",
        ),
        (
            "[[prizes.lists]]\nplaces = [{ place = 1 }]\n[prizes.lists.filter]\nsection = \"x\"\n",
            "12:11 prizes.lists[0].filter.section: no group `x`; name a group by its id, name or alias (ids: `open`)",
        ),
        (
            "[[prizes.lists]]\nplaces = [{ from = 4, to = 3, money = 100 }]\n",
            "10:28 prizes.lists[0].places[0].to: the range 4–3 runs backwards; `to` must be at least `from` (4)",
        ),
        (
            "[[prizes.lists]]\nplaces = [{ from = 1, to = 3 }, { place = 3 }]\n",
            "10:33 prizes.lists[0].places[1]: places 3 overlap places 1–3 (prizes.lists[0].places[0]); each place may have one prize",
        ),
        (
            "[[prizes.lists]]\nplaces = [{ place = 1, to = 2 }]\n",
            "10:21 prizes.lists[0].places[0].place: give either `place = N` or `from`/`to`, not both",
        ),
        (
            "[[prizes.lists]]\nplaces = []\n",
            "10:10 prizes.lists[0].places: no places; a prize list needs at least one, e.g. `{ place = 1, money = 500 }`",
        ),
        (
            "[[prizes.lists]]\nid = \"a\"\nplaces = [{ place = 1 }]\n[[prizes.lists]]\nid = \"a\"\nplaces = [{ place = 1 }]\n",
            "13:6 prizes.lists[1].id: `a` is used twice; give each one a different id",
        ),
        (
            "[[teams]]\ngroup = \"x\"\n",
            "10:9 teams[0].group: no group `x`; name a group by its id, name or alias (ids: `open`)",
        ),
        (
            "[[teams]]\ntiebreaks = [\"lot\", \"lot\"]\n",
            "10:21 teams[0].tiebreaks[1]: `lot` is listed twice; list each tiebreak once",
        ),
        (
            "[[teams]]\nbest_n = 0\n",
            "10:10 teams[0].best_n: `0` is too small; it must be at least 1",
        ),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(extra, want)| {
            let got = one_problem(extra);
            (got != *want).then(|| format!("{extra}\n  got:  {got}\n  want: {want}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn chinese_tiebreak_names_and_presets() {
    let r = ok(
        "[ranking]\ntiebreaks = [\"对手分\", \"累积分\", \"直胜\", \"后手局\", \"后胜局\", \"先手胜局\"]\n",
    );
    assert_eq!(
        r.ranking.tiebreaks,
        [
            Tiebreak::OppScore,
            Tiebreak::Progressive,
            Tiebreak::DirectEncounter,
            Tiebreak::BlackGames,
            Tiebreak::BlackWins,
            Tiebreak::RedWins
        ]
    );
    let r = ok("[ranking]\npreset = \"cxa-14.3.2\"\n");
    assert_eq!(
        r.ranking.tiebreaks,
        [
            Tiebreak::Progressive,
            Tiebreak::Wins,
            Tiebreak::Fouls,
            Tiebreak::BlackGames
        ]
    );
    assert_eq!(r.ranking.fallback, Fallback::DropRoundsFromFirst);
    // Explicit keys override the preset's chain.
    let r = ok("[ranking]\npreset = \"cxa-14.3.2\"\ntiebreaks = [\"小分\"]\n");
    assert_eq!(r.ranking.tiebreaks, [Tiebreak::SonnebornBerger]);
    assert_eq!(r.ranking.fallback, Fallback::DropRoundsFromFirst);
}

#[test]
fn group_references_store_the_id() {
    let r = ok("aliases = [\"公开\"]\n\
[[groups]]\nid = \"dis\"\nname = \"残疾人组\"\npairs_with = \"公开组\"\n\
[[prizes.lists]]\ngroup = \"公开\"\nplaces = [{ place = 1, money = 5 }]\n[prizes.lists.filter]\nsection = \"残疾人组\"\ngender = \"女\"\n\
[[teams]]\ngroup = \"公开组\"\n");
    assert_eq!(r.groups[1].pairs_with, Some(GroupId::new("open")));
    let list = &r.prizes.lists[0];
    assert_eq!(list.group, GroupId::new("open"));
    assert_eq!(list.id, "open");
    assert_eq!(list.name, "公开组");
    assert_eq!(list.filter.section, Some(GroupId::new("dis")));
    assert_eq!(list.filter.gender, Some(Gender::Female));
    let team = &r.teams[0];
    assert_eq!(
        (team.id.as_str(), team.name.as_str(), team.best_n),
        ("open-team", "公开组团体", 3)
    );
    assert_eq!(
        team.tiebreaks,
        [TeamTiebreak::BestIndividualRank, TeamTiebreak::Lot]
    );
}

#[test]
fn limits_can_be_switched_off_and_round_trip() {
    let r = ok(
        "[colours]\nmax_streak = false\nmax_diff = 3\n[conduct]\nwithdraw_after_forfeits = false\n\
[pairing.late_rounds_priority]\nlast_rounds = 4\n",
    );
    assert_eq!((r.colours.max_streak, r.colours.max_diff), (None, Some(3)));
    assert_eq!(r.conduct.withdraw_after_forfeits, None);
    assert_eq!(
        r.pairing.late_rounds_priority,
        Some(LateRoundsPriority {
            last_rounds: 4,
            min_gap: Points(1)
        })
    );
    let back = Rulebook::from_toml(&r.to_effective_toml(), "e.toml").unwrap();
    assert_eq!(back, r);
}

#[test]
fn readme_example_is_valid() {
    let readme = std::fs::read_to_string(rules_dir().join("README.md")).unwrap();
    let start = readme.find("```toml\n").expect("an example") + "```toml\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let r = Rulebook::from_toml(&readme[start..end], "README.md").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.groups[1].pairs_with, Some(GroupId::new("adult")));
    assert_eq!(r.prizes.lists.len(), 2);
}

#[test]
fn arrays_of_tables_may_be_sections_or_inline() {
    let sections = ok(
        "[[prizes.lists]]\n[[prizes.lists.places]]\nplace = 1\nmoney = 500\n\
[[prizes.lists.places]]\nfrom = 2\nto = 3\nmoney = 100\naward = \"证书\"\n",
    );
    let inline = ok(
        "[[prizes.lists]]\nplaces = [{ place = 1, money = 500 }, { from = 2, to = 3, money = 100, award = \"证书\" }]\n",
    );
    assert_eq!(sections, inline);
    let groups = Rulebook::from_toml(
        "groups = [{ id = \"a\", name = \"甲\" }, { id = \"b\", pairs_with = \"甲\" }]\n[event]\nname = \"x\"\nrounds = 5\n",
        "r.toml",
    )
    .unwrap();
    assert_eq!(groups.groups[1].pairs_with, Some(GroupId::new("a")));
    assert_eq!(
        one_problem("[[prizes.lists]]\n[[prizes.lists.places]]\nplace = 1\nmoney = -5\n"),
        "12:9 prizes.lists[0].places[0].money: `-5` is too small; it must be at least 0"
    );
}

/// Issue 10 §3: `rules show` marks every setting the rulebook file did not write (so the
/// regulation does not state it) as a default; showing the shown rules again changes
/// nothing. Jinhua's regulation has no forfeit-withdrawal rule: the rulebook turns it off
/// and the consecutive/total choice is a marked default.
#[test]
fn rules_show_marks_the_settings_the_regulation_does_not_state() {
    let rules = load("jinhua-2018.toml");
    assert_eq!(rules.conduct.withdraw_after_forfeits, None);
    let shown = rules.to_effective_toml();
    let line = |key: &str| {
        shown
            .lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no {key} in\n{shown}"))
            .to_string()
    };
    let mark = "# 默认值，规程未规定";
    assert!(!line("late_forfeit_minutes").contains(mark));
    assert!(!line("withdraw_after_forfeits").contains(mark));
    assert!(line("withdraw_consecutive").ends_with(mark), "{shown}");
    assert!(line("withdrawn_ranked").ends_with(mark));
    let dongguan = load("dongguan-2018.toml").to_effective_toml();
    assert!(dongguan.contains("late_result = \"loss\"\n"), "{dongguan}");
    // Read back, the marked settings are still defaults.
    let back = Rulebook::from_toml(&shown, "shown.toml").unwrap();
    assert_eq!(back.to_effective_toml(), shown);
    // The English comments read back the same, and so does the mark of earlier versions.
    let en = rules.to_effective_toml_in(qiwang::rulebook::Lang::En);
    assert!(
        en.contains("withdrawn_ranked = true  # default, not in the regulation\n")
            || en.contains("  # default, not in the regulation\n"),
        "{en}"
    );
    let back = Rulebook::from_toml(&en, "en.toml").unwrap();
    assert_eq!(back.to_effective_toml(), shown);
    let old = shown.replace(
        mark,
        "# 默认值，规程未规定 (default, not in the regulation)",
    );
    let back = Rulebook::from_toml(&old, "old.toml").unwrap();
    assert_eq!(back.to_effective_toml(), shown);
    // A rulebook built in code has no file to compare with: nothing is marked.
    assert!(
        !Rulebook::cxa_2011("t", 7)
            .to_effective_toml()
            .contains(mark)
    );
}

/// Issue 10 §3: the lateness line of the sheet is the regulation's own words.
#[test]
fn the_lateness_rule_reads_as_the_regulation_says() {
    assert_eq!(
        load("dongguan-2018.toml").conduct.late_result,
        LateResult::Loss
    );
    assert_eq!(
        load("jinhua-2018.toml").conduct.late_result,
        LateResult::Forfeit
    );
    let problem = one_problem("[conduct]\nlate_result = \"late\"\n");
    assert!(problem.contains("conduct.late_result"), "{problem}");
}

mod update {
    use crate::common::{Run, qiwang_as, succeeded};
    use std::fs;
    use std::path::Path;

    fn event(dir: &Path) -> std::path::PathBuf {
        let rules = super::rules_dir().join("cxa-2011.toml");
        let csv = dir.join("p.csv");
        fs::write(
            &csv,
            "name,gender,unit\n甲,男,一\n乙,男,二\n丙,男,三\n丁,男,四\n",
        )
        .unwrap();
        let ev = dir.join("ev");
        crate::common::init(&ev, &rules);
        let run = |args: &[&str]| succeeded(args, qiwang_as("t", &ev, args));
        run(&["import", csv.to_str().unwrap()]);
        run(&["pair", "--seed", "1"]);
        run(&["result", "1", "1-0", "2", "="]);
        ev
    }

    /// Issue 10 §4: `rules update` replaces the frozen rulebook between rounds: a new
    /// tiebreak chain is accepted, shown as a difference, logged and undone by `undo`; a
    /// scoring change after a played round is refused and changes nothing.
    #[test]
    fn rules_update_accepts_ranking_changes_and_refuses_scoring_changes() {
        let tmp = tempfile::TempDir::new().unwrap();
        let ev = event(tmp.path());
        let original = fs::read_to_string(super::rules_dir().join("cxa-2011.toml")).unwrap();
        let state = || fs::read_to_string(ev.join("qiwang.json")).unwrap();

        let ranking = tmp.path().join("ranking.toml");
        fs::write(
            &ranking,
            original.replace("preset = \"cxa-14.3.1\"", "preset = \"cxa-14.3.2\""),
        )
        .unwrap();
        let before = state();
        let args = ["rules", "update", ranking.to_str().unwrap()];
        let out = succeeded(&args, qiwang_as("t", &ev, &args));
        let shown = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(shown.contains("[ranking]"), "{shown}");
        assert!(
            shown.contains("+ fallback = \"drop_rounds_from_first\""),
            "{shown}"
        );
        assert!(state().contains("cxa-14.3.2"));
        let log = succeeded(&["log"], qiwang_as("t", &ev, &["log"]));
        assert!(String::from_utf8_lossy(&log.stdout).contains("replaced the rulebook"));
        succeeded(&["undo"], qiwang_as("t", &ev, &["undo"]));
        assert_eq!(state(), before);

        let scoring = tmp.path().join("scoring.toml");
        fs::write(
            &scoring,
            original
                .replace("red_win = 2", "red_win = 3")
                .replace("black_win = 2", "black_win = 3"),
        )
        .unwrap();
        Run::on_event_in("en", &ev, &["rules", "update", scoring.to_str().unwrap()])
            .status(3)
            .stdout_empty()
            .stderr_has("would alter rounds already played")
            .stderr_has("[scoring]")
            .check();
        assert_eq!(state(), before);

        let invalid = tmp.path().join("invalid.toml");
        fs::write(
            &invalid,
            original.replace("rounds = 7", "rounds = \"seven\""),
        )
        .unwrap();
        Run::on_event_in("en", &ev, &["rules", "update", invalid.to_str().unwrap()])
            .status(3)
            .stdout_empty()
            .stderr_has("invalid.toml")
            .check();
        assert_eq!(state(), before);
    }

    /// `rules update --lang en` on a Chinese rulebook marks a default in English in its
    /// diff (it printed `# 默认值，规程未规定`), and `--lang zh` still in Chinese; the
    /// effective rules in either language read back as the same rulebook.
    #[test]
    fn rules_update_marks_defaults_in_the_language_asked_for() {
        let tmp = tempfile::TempDir::new().unwrap();
        let ev = event(tmp.path());
        let original = fs::read_to_string(super::rules_dir().join("cxa-2011.toml")).unwrap();
        let changed = tmp.path().join("forfeits.toml");
        fs::write(
            &changed,
            original.replace(
                "within_group = \"adjacent_colour_rows\"",
                "within_group = \"adjacent_colour_rows\"\nforfeit_counts_as_met = false",
            ),
        )
        .unwrap();
        let args = ["rules", "update", changed.to_str().unwrap()];
        let out = succeeded(&args, qiwang_as("t", &ev, &args));
        let shown = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            shown.contains("- forfeit_counts_as_met = true  # default, not in the regulation\n"),
            "{shown}"
        );
        assert!(!shown.contains("默认值"), "{shown}");
        succeeded(&["undo"], qiwang_as("t", &ev, &["undo"]));

        let out = succeeded(&args, crate::common::qiwang_zh(&ev, &args));
        let shown = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            shown.contains("- forfeit_counts_as_met = true  # 默认值，规程未规定\n"),
            "{shown}"
        );

        // The effective rules, written in English or Chinese, parse back to the same rules.
        let rules = qiwang::rulebook::Rulebook::from_toml(&original, "cxa-2011.toml").unwrap();
        for lang in [qiwang::rulebook::Lang::En, qiwang::rulebook::Lang::Zh] {
            let text = rules.to_effective_toml_in(lang);
            let back = qiwang::rulebook::Rulebook::from_toml(&text, "effective.toml").unwrap();
            assert_eq!(back.to_effective_toml_in(lang), text);
        }
    }
}

/// `rules check` names a team competition's system of play as the sheets do (积分编排制,
/// 单循环, 3-cycle round robin), from the one wording in `rulebook::system_name`.
#[test]
fn rules_check_names_a_team_system_as_the_sheets_do() {
    use crate::common::{Run, p};
    let tmp = tempfile::tempdir().unwrap();
    let file = |name: &str, extra: &str| {
        let path = tmp.path().join(name);
        let text = format!(
            "[event]\nname = \"团体赛\"\nrounds = 5\n[[groups]]\nid = \"open\"\n\
             [team_competition]\nboards = 3\nreserves = 1\n{extra}"
        );
        std::fs::write(&path, text).unwrap();
        path
    };
    let swiss = file("swiss.toml", "");
    Run::new(tmp.path(), &["--lang", "zh", "rules", "check", p(&swiss)])
        .stdout_has("替补至多 1 人，积分编排制")
        .check();
    let three = file("three.toml", "format = \"round_robin\"\ncycles = 3\n");
    Run::new(tmp.path(), &["--lang", "en", "rules", "check", p(&three)])
        .stdout_has("at most 1 reserves, 3-cycle round robin")
        .check();
    Run::new(tmp.path(), &["--lang", "zh", "rules", "check", p(&three)])
        .stdout_has("替补至多 1 人，3 循环")
        .check();
}
