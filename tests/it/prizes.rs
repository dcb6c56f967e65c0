//! Prize sheets checked by hand: small events, the shared-place and one-prize rules,
//! team ranking with a short unit, pending playoffs, merged groups, and the full Jinhua
//! 2018 and Dongguan 2018 prize money (every place filled → the regulation's sums).

use qiwang::model::{Event, Gender, GroupId, Player, PlayerId, Points};
use qiwang::prizes::{
    Award, PrizeError, PrizeSheet, format_fen, list_pool, list_standings, prize_list_rows,
    prize_sheet, team_rankings,
};
use qiwang::registration::{MergeError, merge_group, undersized_groups};
use qiwang::rulebook::{
    GroupRule, Marks, MultiplePrizes, PrizeFilter, PrizeList, PrizePlace, Rulebook, SharedMoney,
    ShortTeam, TeamCompetition, TeamMetric, TeamTiebreak,
};
use qiwang::standings::{StandingRow, Standings};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------
// A tiny fixture language: players are added in standings order with their overall rank.

struct Fixture {
    event: Event,
    standings: BTreeMap<GroupId, Standings>,
}

impl Fixture {
    fn new() -> Self {
        Fixture {
            event: Event::new(String::new()),
            standings: BTreeMap::new(),
        }
    }

    /// Adds a player to `pool` with overall `rank`. Flags: `m`/`f` gender, `d` disabled,
    /// `l` local, `s=<group>` section, `p` needs a playoff (tied for first), `u` takes no
    /// place (`rank: None`).
    fn add(&mut self, pool: &str, rank: u32, name: &str, unit: &str, score: i32, flags: &str) {
        let event = &mut self.event;
        let id = event.next_player_id();
        let mut p = Player::new(id, name, GroupId::new(pool));
        p.unit = unit.to_string();
        let mut needs_playoff = false;
        let mut ranked = true;
        for flag in flags.split_whitespace() {
            match flag {
                "m" => p.gender = Some(Gender::Male),
                "f" => p.gender = Some(Gender::Female),
                "d" => p.disabled = true,
                "l" => p.local = true,
                "p" => needs_playoff = true,
                "u" => ranked = false,
                s => {
                    let section = s.strip_prefix("s=").expect("known flag");
                    p.section = Some(GroupId::new(section));
                }
            }
        }
        p.unranked = !ranked;
        event.players.push(p);
        let st = self
            .standings
            .entry(GroupId::new(pool))
            .or_insert_with(|| Standings {
                group: GroupId::new(pool),
                after_round: 9,
                open_tables: 0,
                tiebreaks: Vec::new(),
                rows: Vec::new(),
            });
        st.rows.push(StandingRow {
            player: id,
            rank: ranked.then_some(rank),
            shared: false,
            score: Points(score),
            penalty: Points(0),
            tiebreaks: Vec::new(),
            needs_playoff,
            decided_by: None,
            withdrawn: false,
        });
    }

    /// Sets `shared` on equal ranks and returns the event and standings.
    fn finish(mut self) -> (Event, BTreeMap<GroupId, Standings>) {
        for st in self.standings.values_mut() {
            let ranks: Vec<Option<u32>> = st.rows.iter().map(|r| r.rank).collect();
            for r in &mut st.rows {
                r.shared = r.rank.is_some() && ranks.iter().filter(|x| **x == r.rank).count() > 1;
            }
        }
        (self.event, self.standings)
    }
}

fn group(id: &str, name: &str, pairs_with: Option<&str>) -> GroupRule {
    let mut g = Rulebook::cxa_2011("t", 9).groups.remove(0);
    g.id = GroupId::new(id);
    g.name = name.to_string();
    g.pairs_with = pairs_with.map(GroupId::new);
    g.marks = Marks::default();
    g
}

fn rulebook(name: &str, groups: Vec<GroupRule>) -> Rulebook {
    let mut r = Rulebook::cxa_2011(name, 9);
    r.groups = groups;
    r
}

fn prize(from: u32, to: u32, money: u32) -> PrizePlace {
    PrizePlace {
        from,
        to,
        money,
        award: None,
        title: None,
        qualification: None,
    }
}

fn with(mut p: PrizePlace, award: &str, title: Option<&str>) -> PrizePlace {
    p.award = Some(award.to_string());
    p.title = title.map(str::to_string);
    p
}

/// Places from a list of amounts: `[500, 300, 200, 100, 100, 100]` → places 1..=6.
fn amounts(money: &[u32]) -> Vec<PrizePlace> {
    money
        .iter()
        .enumerate()
        .map(|(i, &m)| prize(i as u32 + 1, i as u32 + 1, m))
        .collect()
}

fn list(
    id: &str,
    name: &str,
    group: &str,
    filter: PrizeFilter,
    places: Vec<PrizePlace>,
) -> PrizeList {
    PrizeList {
        id: id.to_string(),
        name: name.to_string(),
        group: GroupId::new(group),
        filter,
        places,
        by_gender: None,
    }
}

fn gender(g: Gender) -> PrizeFilter {
    PrizeFilter {
        gender: Some(g),
        ..PrizeFilter::default()
    }
}

fn team(
    id: &str,
    group: &str,
    best_n: u32,
    short: ShortTeam,
    places: Vec<PrizePlace>,
) -> TeamCompetition {
    TeamCompetition {
        id: id.to_string(),
        name: format!("{id} 团体"),
        group: GroupId::new(group),
        best_n,
        metric: TeamMetric::RankSum,
        short_team: short,
        tiebreaks: vec![TeamTiebreak::BestIndividualRank],
        places,
    }
}

fn sheet(event: &Event, rules: &Rulebook, standings: &BTreeMap<GroupId, Standings>) -> PrizeSheet {
    prize_sheet(
        event,
        rules,
        standings,
        &team_rankings(event, rules, standings),
    )
}

/// (place, shared, name, money in yuan as printed) of a list's awards.
fn awards(sheet: &PrizeSheet, list: &str) -> Vec<(u32, bool, String, String)> {
    let l = sheet.lists.iter().find(|l| l.id == list).expect("list");
    l.awards
        .iter()
        .map(|a| (a.place, a.shared, a.name.clone(), format_fen(a.money_fen)))
        .collect()
}

fn row(place: u32, shared: bool, name: &str, yuan: &str) -> (u32, bool, String, String) {
    (place, shared, name.to_string(), yuan.to_string())
}

// ---------------------------------------------------------------------------------------
// A small event checked by hand.

/// Pool `open`, 7 ranked players and one who takes no place; lists `open` (300 奖杯 棋王 / 200 奖牌 / 100 奖牌 / 50 证书) and
/// `women` (100 / 50); team best 2 by rank sum (200 / 100).
fn small(
    shared: SharedMoney,
    multiple: MultiplePrizes,
) -> (Event, Rulebook, BTreeMap<GroupId, Standings>) {
    let mut f = Fixture::new();
    f.add("open", 1, "张一", "A", 12, "m");
    f.add("open", 2, "李二", "B", 11, "f");
    f.add("open", 3, "王三", "A", 10, "m");
    f.add("open", 3, "赵四", "C", 10, "f");
    f.add("open", 5, "钱五", "B", 8, "m");
    f.add("open", 6, "孙六", "B", 7, "f");
    f.add("open", 7, "周七", "C", 5, "m");
    f.add("open", 8, "吴八", "C", 9, "m u");
    let (event, standings) = f.finish();
    let mut rules = rulebook("小赛", vec![group("open", "公开组", None)]);
    rules.event.start_date = chrono::NaiveDate::from_ymd_opt(2018, 10, 26);
    rules.event.end_date = chrono::NaiveDate::from_ymd_opt(2018, 10, 28);
    rules.prizes.shared_money = shared;
    rules.prizes.multiple = multiple;
    rules.prizes.lists = vec![
        list(
            "open",
            "公开组",
            "open",
            PrizeFilter::default(),
            vec![
                with(prize(1, 1, 300), "奖杯", Some("棋王")),
                with(prize(2, 2, 200), "奖牌", None),
                with(prize(3, 3, 100), "奖牌", None),
                with(prize(4, 4, 50), "证书", None),
            ],
        ),
        list(
            "women",
            "女子",
            "open",
            gender(Gender::Female),
            amounts(&[100, 50]),
        ),
    ];
    rules.teams = vec![team(
        "team",
        "open",
        2,
        ShortTeam::Exclude,
        amounts(&[200, 100]),
    )];
    (event, rules, standings)
}

#[test]
fn small_event_sheet_by_hand() {
    let (event, rules, standings) = small(SharedMoney::Split, MultiplePrizes::TakeAll);
    let s = sheet(&event, &rules, &standings);
    // 王三 and 赵四 share 3rd: (100 + 50) / 2 = 75 each.
    assert_eq!(
        awards(&s, "open"),
        vec![
            row(1, false, "张一", "300"),
            row(2, false, "李二", "200"),
            row(3, true, "王三", "75"),
            row(3, true, "赵四", "75"),
        ]
    );
    // Women: 李二 1st, 赵四 2nd (her overall tie is with a man: not shared here).
    assert_eq!(
        awards(&s, "women"),
        vec![row(1, false, "李二", "100"), row(2, false, "赵四", "50")]
    );
    let first: &Award = &s.lists[0].awards[0];
    assert_eq!(
        (
            first.unit.as_str(),
            first.score,
            first.award.as_deref(),
            first.title.as_deref()
        ),
        ("A", Points(12), Some("奖杯"), Some("棋王"))
    );
    assert_eq!(s.lists[0].awards[2].award.as_deref(), Some("奖牌"));
    // Teams (best 2 by rank sum): A 1+3 = 4, B 2+5 = 7, C 3+7 = 10.
    let t = &s.teams[0];
    let got: Vec<(u32, &str, i64, String)> = t
        .awards
        .iter()
        .map(|a| (a.place, a.unit.as_str(), a.value, format_fen(a.money_fen)))
        .collect();
    assert_eq!(
        got,
        vec![(1, "A", 4, "200".into()), (2, "B", 7, "100".into())]
    );
    assert_eq!(
        t.awards[0].members,
        vec!["张一".to_string(), "王三".to_string()]
    );
    // Totals: 650 + 150 + 300.
    assert_eq!(s.lists[0].totals.paid_fen, 65_000);
    assert_eq!(s.lists[1].totals.paid_fen, 15_000);
    assert_eq!(s.teams[0].totals.paid_fen, 30_000);
    assert_eq!(s.totals.paid_fen, 110_000);
    assert_eq!(s.totals.budget_fen, 110_000);
    assert_eq!((s.totals.held_fen, s.totals.undistributed_fen), (0, 0));
}

#[test]
fn sheet_serialises_with_the_header() {
    let (event, rules, standings) = small(SharedMoney::Split, MultiplePrizes::TakeAll);
    let json = serde_json::to_value(sheet(&event, &rules, &standings)).expect("json");
    assert_eq!(json["event"], "小赛");
    assert_eq!(json["start_date"], "2018-10-26");
    assert_eq!(json["end_date"], "2018-10-28");
    assert_eq!(json["currency"], "元");
    assert_eq!(json["lists"][0]["awards"][0]["name"], "张一");
    assert_eq!(json["lists"][0]["awards"][0]["money_fen"], 30_000);
    assert_eq!(json["totals"]["paid_fen"], 110_000);
}

#[test]
fn shared_money_split_vs_each_higher_at_places_three_and_four() {
    let cases = [
        (SharedMoney::Split, "75", "75", 65_000),
        // Each gets the 3rd place's 100: the organiser pays 50 more than budgeted.
        (SharedMoney::EachHigher, "100", "100", 70_000),
    ];
    for (rule, wang, zhao, total) in cases {
        let (event, rules, standings) = small(rule, MultiplePrizes::TakeAll);
        let s = sheet(&event, &rules, &standings);
        let open = awards(&s, "open");
        assert_eq!(open[2], row(3, true, "王三", wang), "{rule:?}");
        assert_eq!(open[3], row(3, true, "赵四", zhao), "{rule:?}");
        assert_eq!(s.lists[0].awards[3].covers_to, 4, "{rule:?}");
        assert_eq!(s.lists[0].totals.paid_fen, total, "{rule:?}");
    }
    // NextKey: the standings' order already broke the tie: 王三 3rd, 赵四 4th.
    let (event, rules, standings) = small(SharedMoney::NextKey, MultiplePrizes::TakeAll);
    let s = sheet(&event, &rules, &standings);
    let open = awards(&s, "open");
    assert_eq!(open[2], row(3, false, "王三", "100"));
    assert_eq!(open[3], row(4, false, "赵四", "50"));
}

#[test]
fn split_that_does_not_divide_evenly_gives_the_rest_to_the_first() {
    // Three tied for 1st of a 100/100/50 list: 250 / 3 = 83.33 each and the 1 fen left
    // over goes to the first of them, so no money is lost.
    let mut f = Fixture::new();
    for name in ["甲", "乙", "丙"] {
        f.add("open", 1, name, "", 4, "m");
    }
    let (event, standings) = f.finish();
    let mut rules = rulebook("t", vec![group("open", "公开组", None)]);
    // First place may be shared here (no title, no 冠军不并列), or the tie would wait for
    // a playoff.
    rules.ranking.shared_from_place = 1;
    rules.prizes.lists = vec![list(
        "open",
        "公开组",
        "open",
        PrizeFilter::default(),
        amounts(&[100, 100, 50]),
    )];
    let s = sheet(&event, &rules, &standings);
    let money: Vec<String> = s.lists[0]
        .awards
        .iter()
        .map(|a| format_fen(a.money_fen))
        .collect();
    assert_eq!(money, vec!["83.34", "83.33", "83.33"]);
    assert_eq!(s.totals.paid_fen, 25_000);
    assert_eq!(s.totals.undistributed_fen, 0);
}

#[test]
fn take_all_vs_higher_only() {
    // TakeAll: 李二 takes open 2nd (200) and women 1st (100); 赵四 open 3= (75) and women 2nd.
    let (event, rules, standings) = small(SharedMoney::Split, MultiplePrizes::TakeAll);
    let s = sheet(&event, &rules, &standings);
    assert!(s.lists.iter().all(|l| l.passed_on.is_empty()));
    assert_eq!(s.totals.paid_fen, 110_000);

    // HigherOnly, settled biggest prize first:
    // 1. 李二's best is open 200 → she leaves women; women becomes 赵四 1st (100), 孙六 2nd.
    // 2. 赵四 now holds open 3= (75) and women 1st (100) → she keeps women and leaves open;
    //    open becomes 张一, 李二, 王三 3rd alone (100), 钱五 4th (50).
    let (event, rules, standings) = small(SharedMoney::Split, MultiplePrizes::HigherOnly);
    let s = sheet(&event, &rules, &standings);
    assert_eq!(
        awards(&s, "open"),
        vec![
            row(1, false, "张一", "300"),
            row(2, false, "李二", "200"),
            row(3, false, "王三", "100"),
            row(4, false, "钱五", "50"),
        ]
    );
    assert_eq!(
        awards(&s, "women"),
        vec![row(1, false, "赵四", "100"), row(2, false, "孙六", "50")]
    );
    let passed = |l: usize| -> Vec<(String, u32, String)> {
        s.lists[l]
            .passed_on
            .iter()
            .map(|p| (p.name.clone(), p.place, p.kept_list.clone()))
            .collect()
    };
    assert_eq!(passed(0), vec![("赵四".into(), 3, "women".into())]);
    assert_eq!(passed(1), vec![("李二".into(), 1, "open".into())]);
    // Nobody holds two prizes; the budget is paid in full.
    let mut ids: Vec<PlayerId> = s
        .lists
        .iter()
        .flat_map(|l| l.awards.iter().map(|a| a.player))
        .collect();
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n);
    assert_eq!(s.totals.paid_fen, 110_000);
}

#[test]
fn list_standings_re_places_a_filtered_list() {
    let (event, _, standings) = small(SharedMoney::Split, MultiplePrizes::TakeAll);
    let st = &standings[&GroupId::new("open")];
    let men: Vec<(String, Option<u32>, bool)> = list_standings(st, &event, &gender(Gender::Male))
        .into_iter()
        .map(|r| {
            (
                event
                    .player(r.row.player)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                r.place,
                r.shared,
            )
        })
        .collect();
    // Overall 1, 3=, 5, 7 → 1, 2, 3, 4 (the 3= tie is with a woman).
    assert_eq!(
        men,
        vec![
            ("张一".into(), Some(1), false),
            ("王三".into(), Some(2), false),
            ("钱五".into(), Some(3), false),
            ("周七".into(), Some(4), false),
            ("吴八".into(), None, false),
        ]
    );
}

#[test]
fn tie_for_first_awaiting_a_playoff_is_flagged_and_held() {
    let mut f = Fixture::new();
    f.add("open", 1, "甲", "A", 14, "m p");
    f.add("open", 1, "乙", "B", 14, "m p");
    f.add("open", 3, "丙", "C", 12, "f");
    f.add("open", 4, "丁", "C", 10, "f");
    let (event, standings) = f.finish();
    let mut rules = rulebook("t", vec![group("open", "公开组", None)]);
    rules.prizes.lists = vec![list(
        "open",
        "公开组",
        "open",
        PrizeFilter::default(),
        vec![
            with(prize(1, 1, 1800), "奖杯", Some("东莞分站赛棋王")),
            with(prize(2, 2, 1200), "奖牌", None),
            with(prize(3, 3, 800), "奖牌", None),
        ],
    )];
    for rule in [
        SharedMoney::Split,
        SharedMoney::EachHigher,
        SharedMoney::NextKey,
    ] {
        rules.prizes.shared_money = rule;
        let s = sheet(&event, &rules, &standings);
        let a = &s.lists[0].awards;
        for x in &a[..2] {
            assert!(x.pending_playoff && x.shared, "{rule:?}");
            assert_eq!((x.place, x.covers_to, x.money_fen), (1, 2, 0), "{rule:?}");
            assert_eq!(x.title, None, "{rule:?}: the title waits for the playoff");
        }
        assert!(!a[2].pending_playoff);
        assert_eq!(s.lists[0].totals.held_fen, 300_000, "{rule:?}");
        assert_eq!(s.lists[0].totals.paid_fen, 80_000, "{rule:?}");
    }
}

#[test]
fn higher_only_holds_a_second_award_of_a_player_awaiting_a_playoff() {
    let mut f = Fixture::new();
    f.add("open", 1, "甲", "A", 14, "m p d");
    f.add("open", 1, "乙", "B", 14, "m p");
    f.add("open", 3, "丙", "C", 12, "m d");
    let (event, standings) = f.finish();
    let mut rules = rulebook("t", vec![group("open", "公开组", None)]);
    rules.prizes.multiple = MultiplePrizes::HigherOnly;
    let disabled = PrizeFilter {
        disabled: Some(true),
        ..PrizeFilter::default()
    };
    rules.prizes.lists = vec![
        list(
            "open",
            "公开组",
            "open",
            PrizeFilter::default(),
            amounts(&[1000, 500, 300]),
        ),
        list("disabled", "残疾人", "open", disabled, amounts(&[200, 100])),
    ];
    let s = sheet(&event, &rules, &standings);
    // 甲 is 1st alone in the disabled list, but whether he keeps it depends on the playoff.
    let jia = &s.lists[1].awards[0];
    assert_eq!(
        (jia.name.as_str(), jia.place, jia.pending_playoff),
        ("甲", 1, true)
    );
    assert_eq!((jia.money_fen, jia.held_fen), (0, 20_000));
    // 丙 is in both lists too (open 3rd 300, disabled 2nd 100): settled, keeps open.
    assert_eq!(awards(&s, "disabled").len(), 1);
    assert_eq!(s.lists[1].passed_on[0].name, "丙");
}

// ---------------------------------------------------------------------------------------
// Team ranking with a short unit.

#[test]
fn team_prizes_with_a_short_unit_exclude_vs_pad() {
    // Units: A (ranks 1, 4, 6), B (2, 3), C (5, 7, 8).
    let mut f = Fixture::new();
    for (rank, unit) in [
        (1, "A"),
        (2, "B"),
        (3, "B"),
        (4, "A"),
        (5, "C"),
        (6, "A"),
        (7, "C"),
        (8, "C"),
    ] {
        f.add(
            "adult",
            rank,
            &format!("{unit}{rank}"),
            unit,
            20 - rank as i32,
            "m",
        );
    }
    let (event, standings) = f.finish();
    let mut rules = rulebook("t", vec![group("adult", "成人组", None)]);
    let places = amounts(&[1800, 1200, 900]);
    rules.teams = vec![
        team("exclude", "adult", 3, ShortTeam::Exclude, places.clone()),
        team("pad", "adult", 3, ShortTeam::Pad, places),
    ];
    let ranked = team_rankings(&event, &rules, &standings);
    // Exclude: A 1+4+6 = 11, C 5+7+8 = 20; B listed as excluded.
    let ex = &ranked[0];
    let rows: Vec<(&str, u32, i64)> = ex
        .rows
        .iter()
        .map(|r| (r.unit.as_str(), r.place, r.value))
        .collect();
    assert_eq!(rows, vec![("A", 1, 11), ("C", 2, 20)]);
    assert_eq!(ex.excluded.len(), 1);
    assert_eq!(
        (
            ex.excluded[0].unit.as_str(),
            ex.excluded[0].ranked,
            ex.excluded[0].needed
        ),
        ("B", 2, 3)
    );
    assert!(
        ex.excluded[0].reason.contains("only 2 of the best 3"),
        "{}",
        ex.excluded[0].reason
    );
    // Pad: B's missing member counts as rank 9 (8 entrants + 1): 2+3+9 = 14.
    let pad = &ranked[1];
    let rows: Vec<(&str, u32, i64, u32)> = pad
        .rows
        .iter()
        .map(|r| (r.unit.as_str(), r.place, r.value, r.padded))
        .collect();
    assert_eq!(
        rows,
        vec![("A", 1, 11, 0), ("B", 2, 14, 1), ("C", 3, 20, 0)]
    );

    let s = prize_sheet(&event, &rules, &standings, &ranked);
    let money = |i: usize| -> Vec<(String, String)> {
        s.teams[i]
            .awards
            .iter()
            .map(|a| (a.unit.clone(), format_fen(a.money_fen)))
            .collect()
    };
    assert_eq!(
        money(0),
        vec![("A".into(), "1800".into()), ("C".into(), "1200".into())]
    );
    assert_eq!(
        money(1),
        vec![
            ("A".into(), "1800".into()),
            ("B".into(), "1200".into()),
            ("C".into(), "900".into())
        ]
    );
    // The excluded variant leaves the 3rd prize unpaid.
    assert_eq!(s.teams[0].totals.paid_fen, 300_000);
    assert_eq!(s.teams[0].totals.budget_fen, 390_000);
}

// ---------------------------------------------------------------------------------------
// Group size: Dongguan 九 (under 10: cancelled or merged).

#[test]
fn undersized_group_is_reported_and_its_list_follows_a_merge() {
    let mut rules = rulebook(
        "东莞",
        vec![
            group("kids_a", "儿童棋王A组", None),
            group("girls", "儿童女子棋王组", None),
        ],
    );
    for g in &mut rules.groups {
        g.min_size = Some(10);
    }
    rules.prizes.lists = vec![
        list(
            "kids_a",
            "儿童棋王A组",
            "kids_a",
            PrizeFilter::default(),
            amounts(&[500, 300]),
        ),
        list(
            "girls",
            "儿童女子棋王组",
            "girls",
            PrizeFilter::default(),
            amounts(&[500, 300]),
        ),
    ];
    let mut f = Fixture::new();
    for i in 0..10 {
        f.add("kids_a", 1, &format!("A{i}"), "", 0, "m");
    }
    for i in 0..4 {
        f.add("girls", 1, &format!("G{i}"), "", 0, "f");
    }
    let (mut event, _) = f.finish();
    let small: Vec<(String, u32, u32)> = undersized_groups(&event, &rules)
        .into_iter()
        .map(|u| (u.name, u.count, u.min))
        .collect();
    assert_eq!(small, vec![("儿童女子棋王组".into(), 4, 10)]);

    let report = merge_group(
        &mut event,
        &rules,
        &GroupId::new("girls"),
        &GroupId::new("kids_a"),
        false,
    )
    .expect("merge before round 1");
    assert_eq!(
        (report.moved.len(), report.lists.clone()),
        (4, vec!["girls".to_string()])
    );
    assert!(undersized_groups(&event, &rules).is_empty());

    // The merged pool's standings: a girl wins, a boy is 2nd, another girl 3rd.
    let ids: Vec<(PlayerId, String)> = event
        .players_in(&GroupId::new("kids_a"))
        .map(|p| (p.id, p.name.clone()))
        .collect();
    let order = ["G0", "A0", "G1", "A1", "A2"];
    let rows = order
        .iter()
        .enumerate()
        .map(|(i, name)| StandingRow {
            player: ids
                .iter()
                .find(|(_, n)| n == name)
                .map(|(id, _)| *id)
                .expect("player"),
            rank: Some(i as u32 + 1),
            shared: false,
            score: Points(10 - i as i32),
            penalty: Points(0),
            tiebreaks: Vec::new(),
            needs_playoff: false,
            decided_by: None,
            withdrawn: false,
        })
        .collect();
    let standings: BTreeMap<GroupId, Standings> = [(
        GroupId::new("kids_a"),
        Standings {
            group: GroupId::new("kids_a"),
            after_round: 9,
            open_tables: 0,
            tiebreaks: Vec::new(),
            rows,
        },
    )]
    .into();
    let s = prize_sheet(&event, &rules, &standings, &[]);
    // Each group keeps its own prizes: the target's list ranks only its own players, the
    // merged group's list only the merged ones (so nobody collects from both).
    assert_eq!(
        awards(&s, "kids_a"),
        vec![row(1, false, "A0", "500"), row(2, false, "A1", "300")]
    );
    assert_eq!(
        awards(&s, "girls"),
        vec![row(1, false, "G0", "500"), row(2, false, "G1", "300")]
    );
    assert_eq!(s.lists[1].pool, GroupId::new("kids_a"));
    // What `standings --list girls` shows: the merged pool, girls only.
    let girls = &rules.prizes.lists[1];
    let pool = list_pool(&event, &rules, &girls.group);
    assert_eq!(pool, GroupId::new("kids_a"));
    let rows: Vec<Option<u32>> = prize_list_rows(&event, &rules, &standings[&pool], girls)
        .iter()
        .map(|r| r.place)
        .collect();
    assert_eq!(rows, vec![Some(1), Some(2)]);

    // Merging into the merged group is refused: its players are in `kids_a`.
    let err = merge_group(
        &mut event,
        &rules,
        &GroupId::new("kids_a"),
        &GroupId::new("girls"),
        false,
    )
    .expect_err("girls already merged");
    assert!(matches!(err, MergeError::TargetMerged { .. }), "{err}");
}

#[test]
fn missing_standings_and_provisional_standings_are_noted() {
    let (event, mut rules, mut standings) = small(SharedMoney::Split, MultiplePrizes::TakeAll);
    rules.prizes.lists.push(list(
        "other",
        "其他",
        "nowhere",
        PrizeFilter::default(),
        amounts(&[10]),
    ));
    if let Some(st) = standings.get_mut(&GroupId::new("open")) {
        st.after_round = 7;
    }
    let s = prize_sheet(&event, &rules, &standings, &[]);
    let notes = serde_json::to_value(&s.lists[0].notes).expect("json");
    assert_eq!(notes[0]["kind"], "provisional");
    assert_eq!(notes[0]["after_round"], 7);
    assert_eq!(notes[0]["rounds"], 9);
    let notes = serde_json::to_value(&s.lists[2].notes).expect("json");
    assert_eq!(notes[0]["kind"], "missing_standings");
    assert_eq!(
        serde_json::to_value(&s.teams[0].notes).expect("json")[0]["kind"],
        "missing_team_ranking"
    );
    assert_eq!(s.lists[2].totals.budget_fen, 1_000);
}

// ---------------------------------------------------------------------------------------
// Totals: the Jinhua 2018 and Dongguan 2018 regulations, every place filled.

/// Adds `n` ranked players to `pool` with the given flags; units cycle through `units`.
fn fill(f: &mut Fixture, pool: &str, first_rank: u32, n: u32, flags: &str, units: &[&str]) {
    for i in 0..n {
        let unit = if units.is_empty() {
            ""
        } else {
            units[i as usize % units.len()]
        };
        let rank = first_rank + i;
        f.add(
            pool,
            rank,
            &format!("{pool}-{rank}"),
            unit,
            100 - rank as i32,
            flags,
        );
    }
}

fn regulation_yuan(list: &PrizeList) -> u64 {
    list.places
        .iter()
        .map(|p| u64::from(p.money) * u64::from(p.to - p.from + 1))
        .sum()
}

/// 金华市第三十四届象棋棋王赛 十三.(三).
fn jinhua() -> Rulebook {
    let mut rules = rulebook(
        "2018金华市象棋棋王赛",
        vec![
            group("adult", "成人组", None),
            group("disabled", "残疾人组", Some("adult")),
            group("u16", "青少年组", None),
            group("u14", "少儿精英组", None),
            group("g12", "少儿精英乙组", None),
        ],
    );
    // 十三.(一): the champion takes the title 地域组别棋王.
    let six = |title: &str, a, b, c| {
        vec![
            with(prize(1, 1, a), "奖杯、证书", Some(title)),
            with(prize(2, 2, b), "奖牌、证书", None),
            with(prize(3, 3, c), "奖牌、证书", None),
            with(prize(4, 6, 100), "证书", None),
        ]
    };
    let mut adult = amounts(&[3000, 1200, 800, 700, 600, 500, 400, 400, 300, 300, 200, 200]);
    adult[0] = with(adult[0].clone(), "奖杯、证书", Some("金华市棋王"));
    let any = PrizeFilter::default;
    let (boys, girls) = (gender(Gender::Male), gender(Gender::Female));
    rules.prizes.lists = vec![
        list(
            "u16",
            "青少年组",
            "u16",
            any(),
            six("金华市青少年棋王", 500, 300, 200),
        ),
        list(
            "u14_boys",
            "少儿精英组（男）",
            "u14",
            boys.clone(),
            six("少儿精英组男子棋王", 400, 200, 100),
        ),
        list(
            "u14_girls",
            "少儿精英组（女）",
            "u14",
            girls.clone(),
            six("少儿精英组女子棋王", 400, 200, 100),
        ),
        list(
            "g12_boys",
            "少儿精英乙组（男）",
            "g12",
            boys,
            six("少儿精英乙组男子棋王", 400, 200, 100),
        ),
        list(
            "g12_girls",
            "少儿精英乙组（女）",
            "g12",
            girls,
            six("少儿精英乙组女子棋王", 400, 200, 100),
        ),
        list("adult", "成人组", "adult", any(), adult),
        list(
            "disabled",
            "残疾人组",
            "disabled",
            any(),
            six("金华市残疾人棋王", 500, 300, 200),
        ),
    ];
    rules.teams = vec![team(
        "adult_team",
        "adult",
        3,
        ShortTeam::Exclude,
        vec![
            prize(1, 1, 1800),
            prize(2, 2, 1200),
            prize(3, 3, 900),
            prize(4, 6, 600),
        ],
    )];
    rules
}

#[test]
fn jinhua_totals_equal_the_regulation() {
    let rules = jinhua();
    let want = [
        ("u16", 1300),
        ("u14_boys", 1000),
        ("u14_girls", 1000),
        ("g12_boys", 1000),
        ("g12_girls", 1000),
        ("adult", 8600),
        ("disabled", 1300),
    ];
    for (id, yuan) in want {
        let l = rules
            .prizes
            .lists
            .iter()
            .find(|l| l.id == id)
            .expect("list");
        assert_eq!(
            regulation_yuan(l),
            yuan,
            "{id} as written in the regulation"
        );
    }

    let mut f = Fixture::new();
    let units = [
        "婺城", "金东", "兰溪", "东阳", "义乌", "永康", "浦江", "武义",
    ];
    // Adults: 30 ranked, 2 of the disabled section among the top 12 (TakeAll: they also
    // win the disabled list), 4 more further down.
    fill(&mut f, "adult", 1, 5, "m", &units);
    fill(&mut f, "adult", 6, 1, "m d s=disabled", &["婺城"]);
    fill(&mut f, "adult", 7, 4, "m", &units[5..]);
    fill(&mut f, "adult", 11, 1, "f d s=disabled", &["义乌"]);
    fill(&mut f, "adult", 12, 14, "m", &units);
    fill(&mut f, "adult", 26, 4, "m d s=disabled", &units);
    fill(&mut f, "u16", 1, 8, "m", &[]);
    fill(&mut f, "u14", 1, 7, "m", &[]);
    fill(&mut f, "u14", 8, 6, "f", &[]);
    fill(&mut f, "g12", 1, 6, "f", &[]);
    fill(&mut f, "g12", 7, 6, "m", &[]);
    let (event, standings) = f.finish();
    let s = sheet(&event, &rules, &standings);

    for (id, yuan) in want {
        let l = s.lists.iter().find(|l| l.id == id).expect("list");
        assert_eq!(l.totals.paid_fen, yuan * 100, "{id} paid");
        assert_eq!(l.totals.budget_fen, yuan * 100, "{id} budget");
        assert!(l.notes.is_empty(), "{id}: {:?}", l.notes);
    }
    assert_eq!(s.lists[5].awards[0].title.as_deref(), Some("金华市棋王"));
    assert_eq!(s.lists[5].awards.len(), 12);
    let disabled: Vec<u32> = s.lists[6].awards.iter().map(|a| a.place).collect();
    assert_eq!(disabled, vec![1, 2, 3, 4, 5, 6]);
    // The 残疾人组 list names the section: ranked in 成人组, disabled section only.
    let list = &rules.prizes.lists[6];
    let pool = list_pool(&event, &rules, &list.group);
    assert_eq!(pool, GroupId::new("adult"));
    let overall: Vec<Option<u32>> = prize_list_rows(&event, &rules, &standings[&pool], list)
        .iter()
        .map(|r| r.row.rank)
        .collect();
    assert_eq!(overall, [6, 11, 26, 27, 28, 29].map(Some));
    // 1800 + 1200 + 900 + 3 × 600 = 5700.
    assert_eq!(s.teams[0].awards.len(), 6);
    assert_eq!(s.teams[0].totals.paid_fen, 570_000);
    // 1300 + 2000 + 2000 + 8600 + 1300 + 5700.
    assert_eq!(s.totals.paid_fen, 2_090_000);
    assert_eq!(s.totals.budget_fen, 2_090_000);
    assert_eq!((s.totals.held_fen, s.totals.undistributed_fen), (0, 0));
}

/// 东莞分站赛 十五.3.
fn dongguan(multiple: MultiplePrizes) -> Rulebook {
    let others = [
        ("youth", "少年棋王组"),
        ("youth_girls", "少年女子棋王组"),
        ("child_girls", "儿童女子棋王组"),
        ("child_a", "儿童棋王A组"),
        ("child_b", "儿童棋王B组"),
    ];
    let mut groups = vec![
        group("king", "棋王组", None),
        group("local", "本地成人组", Some("king")),
    ];
    groups.extend(others.iter().map(|(id, name)| group(id, name, None)));
    let mut rules = rulebook("东莞分站赛", groups);
    rules.event.rounds = 7;
    rules.prizes.multiple = multiple;
    let qualify = |mut places: Vec<PrizePlace>| {
        for p in &mut places {
            if p.to <= 8 {
                p.qualification = Some("晋级广东省总决赛".to_string());
            }
        }
        places
    };
    let king = vec![
        with(prize(1, 1, 1800), "奖杯、证书", Some("东莞分站赛棋王")),
        with(prize(2, 2, 1200), "奖牌、证书", None),
        with(prize(3, 3, 800), "奖牌、证书", None),
        with(prize(4, 4, 600), "证书", None),
        with(prize(5, 5, 500), "证书", None),
        with(prize(6, 6, 400), "证书", None),
        with(prize(7, 8, 300), "证书", None),
    ];
    let local = vec![
        prize(1, 1, 800),
        prize(2, 2, 500),
        prize(3, 3, 300),
        prize(4, 6, 200),
        prize(7, 8, 150),
        prize(9, 12, 100),
    ];
    let other = || {
        vec![
            with(prize(1, 1, 500), "奖杯、证书", None),
            with(prize(2, 2, 300), "奖牌、证书", None),
            with(prize(3, 3, 200), "奖牌、证书", None),
            with(prize(4, 5, 150), "证书", None),
            with(prize(6, 8, 100), "证书", None),
        ]
    };
    rules.prizes.lists = vec![
        list(
            "king",
            "棋王组",
            "king",
            PrizeFilter::default(),
            qualify(king),
        ),
        list(
            "local",
            "本地成人组",
            "local",
            PrizeFilter::default(),
            local,
        ),
    ];
    rules.prizes.lists.extend(
        others
            .iter()
            .map(|(id, name)| list(id, name, id, PrizeFilter::default(), qualify(other()))),
    );
    rules
}

#[test]
fn dongguan_totals_equal_the_regulation() {
    let want = [
        ("king", 5900),
        ("local", 2900),
        ("youth", 1600),
        ("youth_girls", 1600),
        ("child_girls", 1600),
        ("child_a", 1600),
        ("child_b", 1600),
    ];
    for multiple in [MultiplePrizes::TakeAll, MultiplePrizes::HigherOnly] {
        let rules = dongguan(multiple);
        for (id, yuan) in want {
            let l = rules
                .prizes
                .lists
                .iter()
                .find(|l| l.id == id)
                .expect("list");
            assert_eq!(
                regulation_yuan(l),
                yuan,
                "{id} as written in the regulation"
            );
        }
        let mut f = Fixture::new();
        // 棋王组: 2 locals in the top 8, 14 more locals below: even when the two keep only
        // their 棋王组 prize (HigherOnly), 12 locals remain for the local list.
        fill(&mut f, "king", 1, 3, "m", &[]);
        fill(&mut f, "king", 4, 2, "m l s=local", &[]);
        fill(&mut f, "king", 6, 10, "m", &[]);
        fill(&mut f, "king", 16, 14, "m l s=local", &[]);
        for id in ["youth", "youth_girls", "child_girls", "child_a", "child_b"] {
            fill(&mut f, id, 1, 9, "m", &[]);
        }
        let (event, standings) = f.finish();
        let s = sheet(&event, &rules, &standings);
        for (id, yuan) in want {
            let l = s.lists.iter().find(|l| l.id == id).expect("list");
            assert_eq!(l.totals.paid_fen, yuan * 100, "{multiple:?} {id}");
        }
        assert_eq!(s.totals.paid_fen, 1_680_000, "{multiple:?}");
        assert_eq!(s.totals.budget_fen, 1_680_000, "{multiple:?}");
        let king = &s.lists[0];
        assert_eq!(king.awards[0].title.as_deref(), Some("东莞分站赛棋王"));
        assert!(
            king.awards
                .iter()
                .all(|a| a.qualification.as_deref() == Some("晋级广东省总决赛"))
        );
        let names = |l: usize| -> Vec<String> {
            s.lists[l].awards.iter().map(|a| a.name.clone()).collect()
        };
        match multiple {
            // king-4 and king-5 (locals) win in both lists.
            MultiplePrizes::TakeAll => {
                assert_eq!(names(0)[3..5], ["king-4", "king-5"]);
                assert_eq!(names(1)[..3], ["king-4", "king-5", "king-16"]);
            }
            // king-4: 棋王组 4th 600 < local 1st 800 → keeps the local prize, and king-5
            // moves up to 棋王组 4th; king-5: 棋王组 4th 600 > local 2nd 500 → keeps 棋王组.
            MultiplePrizes::HigherOnly => {
                assert_eq!(names(0)[3..5], ["king-5", "king-6"]);
                assert_eq!(names(1)[..3], ["king-4", "king-16", "king-17"]);
                let passed = |l: usize| -> Vec<(String, u32, String)> {
                    s.lists[l]
                        .passed_on
                        .iter()
                        .map(|p| (p.name.clone(), p.place, p.kept_list.clone()))
                        .collect()
                };
                assert_eq!(passed(0), vec![("king-4".into(), 4, "local".into())]);
                assert_eq!(passed(1), vec![("king-5".into(), 2, "king".into())]);
            }
        }
    }
}

#[test]
fn higher_only_on_a_large_event_leaves_nobody_with_two_prizes() {
    // 600 players in one pool; every 3rd is local, every 5th disabled, every 2nd female:
    // many players are placed in several lists at once.
    let mut f = Fixture::new();
    for i in 1..=600u32 {
        let mut flags = vec![if i % 2 == 0 { "f" } else { "m" }];
        if i % 3 == 0 {
            flags.push("l");
        }
        if i % 5 == 0 {
            flags.push("d");
        }
        f.add(
            "open",
            i,
            &format!("p{i}"),
            "",
            1000 - i as i32,
            &flags.join(" "),
        );
    }
    let (event, standings) = f.finish();
    let mut rules = rulebook("t", vec![group("open", "公开组", None)]);
    rules.prizes.multiple = MultiplePrizes::HigherOnly;
    // Money falls with the place, 10 yuan a step.
    let falling = |n: u32, top: u32| amounts(&(0..n).map(|i| top - 10 * i).collect::<Vec<_>>());
    let filter = |local: Option<bool>, disabled: Option<bool>, g: Option<Gender>| PrizeFilter {
        gender: g,
        disabled,
        local,
        section: None,
    };
    rules.prizes.lists = vec![
        list(
            "open",
            "公开",
            "open",
            PrizeFilter::default(),
            falling(60, 1000),
        ),
        list(
            "local",
            "本地",
            "open",
            filter(Some(true), None, None),
            falling(40, 700),
        ),
        list(
            "disabled",
            "残疾",
            "open",
            filter(None, Some(true), None),
            falling(30, 650),
        ),
        list(
            "women",
            "女子",
            "open",
            filter(None, None, Some(Gender::Female)),
            falling(40, 600),
        ),
    ];
    let s = sheet(&event, &rules, &standings);
    let mut seen = std::collections::BTreeSet::new();
    for l in &s.lists {
        let places: Vec<u32> = l.awards.iter().map(|a| a.place).collect();
        let want: Vec<u32> = (1..=l.awards.len() as u32).collect();
        assert_eq!(places, want, "{}: every place filled once", l.id);
        assert_eq!(l.totals.paid_fen, l.totals.budget_fen, "{}", l.id);
        for a in &l.awards {
            assert!(seen.insert(a.player), "{} holds two prizes", a.name);
        }
        // Whoever passed a place on keeps at least as much elsewhere.
        for p in &l.passed_on {
            let kept = s
                .lists
                .iter()
                .find(|k| k.id == p.kept_list)
                .and_then(|k| k.awards.iter().find(|a| a.player == p.player))
                .expect("kept award");
            let rule = rules
                .prizes
                .lists
                .iter()
                .find(|x| x.id == l.id)
                .expect("list");
            let passed = u64::from(rule.places[p.place as usize - 1].money) * 100;
            assert!(
                kept.money_fen >= passed,
                "{}: kept {} < passed {}",
                p.name,
                kept.money_fen,
                passed
            );
        }
    }
    assert!(s.lists.iter().any(|l| !l.passed_on.is_empty()));
}

// ---------------------------------------------------------------------------------------
// Issue 10: ties atop every list, who may be ranked, disqualification, the qualification
// line — on events played with the shipped rulebooks. Rounds are written game by game
// (pairing legality is not the point here, so players may meet again).

use qiwang::model::{GameResult, Outcome, Pairing, PlayerStatus, Round, WithdrawalCause};
use qiwang::prizes::{Exclusion, SheetNote, disqualify, record_list_playoff};
use qiwang::rulebook::{QualificationTies, WithdrawnPrizes};
use qiwang::standings::compute_standings;

fn shipped(file: &str) -> (Rulebook, String) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("shipped rulebook");
    (
        Rulebook::from_toml(&text, file).expect("shipped rulebook is valid"),
        text,
    )
}

/// An event under a shipped rulebook, built game by game.
struct Played {
    rules: Rulebook,
    event: Event,
}

impl Played {
    fn new(file: &str) -> Self {
        let (rules, text) = shipped(file);
        Played {
            rules,
            event: Event::new(text),
        }
    }

    /// Registers a player in `pool` (`f`/`m` gender, `d` disabled, `s=<section>`).
    fn add(&mut self, pool: &str, name: &str, flags: &str) -> PlayerId {
        let id = self.event.next_player_id();
        let mut p = Player::new(id, name, GroupId::new(pool));
        p.unit = format!("{name}队");
        p.number = Some(self.event.players_in(&GroupId::new(pool)).count() as u32 + 1);
        for flag in flags.split_whitespace() {
            match flag {
                "m" => p.gender = Some(Gender::Male),
                "f" => p.gender = Some(Gender::Female),
                "d" => p.disabled = true,
                s => p.section = Some(GroupId::new(s.strip_prefix("s=").expect("flag"))),
            }
        }
        self.event.players.push(p);
        id
    }

    /// Adds the next round of `pool`: (red, black, outcome); `black == red` is a bye.
    fn round(&mut self, pool: &str, games: &[(PlayerId, PlayerId, Outcome)]) {
        let state = self.event.group_mut(&GroupId::new(pool));
        let number = state.rounds.len() as u32 + 1;
        let pairings = games
            .iter()
            .enumerate()
            .map(|(i, &(red, black, outcome))| {
                if red == black {
                    Pairing::Bye { player: red }
                } else {
                    Pairing::Game {
                        table: i as u32 + 1,
                        red,
                        black,
                        result: Some(GameResult::new(outcome)),
                    }
                }
            })
            .collect();
        state.rounds.push(Round { number, pairings });
    }

    fn sheet(&self) -> PrizeSheet {
        qiwang::views::compute_sheet(&self.event, &self.rules).0
    }
}

fn list_of<'a>(s: &'a PrizeSheet, id: &str) -> &'a qiwang::prizes::ListSheet {
    s.lists.iter().find(|l| l.id == id).expect("list")
}

/// Jinhua 少儿精英组 over 9 rounds: 男1 wins every game; 女1–女3 draw every game as red
/// against 男2–男4 (so they are equal on 积分, 对手分, 胜局, 犯规, 后走局数 and every
/// earlier round: a tie the standings leave shared at overall 5=); 女4 loses to 男5 in
/// the first 8 rounds and draws the last.
fn jinhua_kids_girls_tied() -> (Played, Vec<PlayerId>) {
    let mut e = Played::new("jinhua-2018.toml");
    let b1 = e.add("kids", "男1", "m");
    let x = e.add("kids", "男9", "m");
    let f: Vec<PlayerId> = (2..=4)
        .map(|i| e.add("kids", &format!("男{i}"), "m"))
        .collect();
    let g: Vec<PlayerId> = (1..=3)
        .map(|i| e.add("kids", &format!("女{i}"), "f"))
        .collect();
    let g4 = e.add("kids", "女4", "f");
    let y = e.add("kids", "男5", "m");
    for _ in 0..9 {
        let last = e
            .event
            .group(&GroupId::new("kids"))
            .map_or(0, |g| g.rounds.len())
            == 8;
        let y_result = if last { Outcome::Draw } else { Outcome::RedWin };
        let mut games = vec![(b1, x, Outcome::RedWin), (y, g4, y_result)];
        games.extend((0..3).map(|i| (g[i], f[i], Outcome::Draw)));
        e.round("kids", &games);
    }
    (e, g)
}

#[test]
fn issue10_1_a_tie_atop_jinhua_girls_list_holds_money_and_title_until_the_playoff() {
    let (mut e, g) = jinhua_kids_girls_tied();
    // The pool's first place is not tied: the old pool-only playoff has nothing to settle.
    let st = compute_standings(&e.event, &e.rules, &GroupId::new("kids"), None);
    assert!(st.rows.iter().all(|r| !r.needs_playoff));
    let sheet = e.sheet();
    let girls = list_of(&sheet, "kids_girls");
    let top: Vec<&Award> = girls.awards.iter().filter(|a| a.place == 1).collect();
    assert_eq!(top.len(), 3);
    for a in &top {
        // Before: 233.33 元 and the title each. Now: nothing paid, the money held.
        assert!(a.pending_playoff && a.shared, "{a:?}");
        assert_eq!(a.money_fen, 0);
        assert_eq!(a.title, None);
    }
    assert_eq!(
        top.iter().map(|a| a.held_fen).sum::<u64>(),
        70_000,
        "400 + 200 + 100 held"
    );
    assert!(girls.notes.iter().any(|n| matches!(
        n,
        SheetNote::PlayoffNeeded { place: 1, players, held_fen: 70_000, title: Some(t), .. }
            if players.len() == 3 && t == "金华市少儿精英组女子棋王"
    )));
    // 女4 is 4th and paid.
    assert!(
        girls
            .awards
            .iter()
            .any(|a| a.name == "女4" && a.place == 4 && a.money_fen == 10_000)
    );

    // A wrong set of players is refused, the event untouched.
    let before = e.event.clone();
    let err = record_list_playoff(&mut e.event, &e.rules, "kids_girls", vec![g[0], g[1]], "")
        .expect_err("two of three");
    assert!(
        matches!(err, PrizeError::ListPlayoffMismatch { .. }),
        "{err}"
    );
    assert_eq!(e.event, before);

    // The playoff: 女2 > 女3 > 女1.
    let order = vec![g[1], g[2], g[0]];
    let rec = record_list_playoff(&mut e.event, &e.rules, "少儿精英组（女子）", order, "快棋")
        .expect("playoff of the list");
    assert!(!rec.pool_level);
    let sheet = e.sheet();
    let girls = list_of(&sheet, "kids_girls");
    let got: Vec<(u32, bool, String, u64, Option<String>)> = girls
        .awards
        .iter()
        .map(|a| {
            (
                a.place,
                a.shared,
                a.name.clone(),
                a.money_fen,
                a.title.clone(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                1,
                false,
                "女2".into(),
                40_000,
                Some("金华市少儿精英组女子棋王".into())
            ),
            (2, false, "女3".into(), 20_000, None),
            (3, false, "女1".into(), 10_000, None),
            (4, false, "女4".into(), 10_000, None),
        ]
    );
    assert_eq!(girls.totals.held_fen, 0);
    // The pool's standings keep them tied: the playoff decided the girls' list only.
    let st = compute_standings(&e.event, &e.rules, &GroupId::new("kids"), None);
    let shared = st
        .rows
        .iter()
        .filter(|r| g.contains(&r.player))
        .all(|r| r.shared);
    assert!(shared);
}

#[test]
fn a_list_playoff_entered_again_reports_the_order_it_replaced_and_only_a_different_one() {
    let (mut e, g) = jinhua_kids_girls_tied();
    let mut ascending = g.clone();
    ascending.sort();
    let descending: Vec<PlayerId> = ascending.iter().rev().copied().collect();
    let mut record = |order: &[PlayerId]| {
        record_list_playoff(&mut e.event, &e.rules, "kids_girls", order.to_vec(), "")
            .expect("playoff of the list")
            .replaced
    };
    assert_eq!(record(&ascending), None, "nothing recorded before");
    // The earlier order is reported whatever it was, also when it happens to be the
    // players' id order.
    assert_eq!(record(&descending), Some(ascending.clone()));
    // The same order again replaces nothing the organiser needs to hear of.
    assert_eq!(record(&descending), None);
}

#[test]
fn issue10_1_the_tie_shows_shared_until_every_round_is_played() {
    let (mut e, _) = jinhua_kids_girls_tied();
    e.event.group_mut(&GroupId::new("kids")).rounds.truncate(8);
    let sheet = e.sheet();
    let girls = list_of(&sheet, "kids_girls");
    assert!(girls.awards.iter().all(|a| !a.pending_playoff));
    assert!(
        girls
            .awards
            .iter()
            .filter(|a| a.place == 1)
            .all(|a| a.shared)
    );
}

#[test]
fn issue10_1_the_disabled_list_of_jinhua_is_settled_too() {
    // Two disabled players of 成人组 tied at the top of 残疾人组's list, behind others.
    let mut e = Played::new("jinhua-2018.toml");
    let a = e.add("adult", "甲", "m");
    let b = e.add("adult", "乙", "m");
    let d1 = e.add("adult", "残一", "m d s=disabled");
    let d2 = e.add("adult", "残二", "m d s=disabled");
    let c1 = e.add("adult", "丙", "m");
    let c2 = e.add("adult", "丁", "m");
    for _ in 0..9 {
        e.round(
            "adult",
            &[
                (a, b, Outcome::RedWin),
                (d1, c1, Outcome::Draw),
                (d2, c2, Outcome::Draw),
            ],
        );
    }
    let sheet = e.sheet();
    let dis = list_of(&sheet, "disabled");
    let top: Vec<&Award> = dis.awards.iter().filter(|a| a.place == 1).collect();
    assert_eq!(top.len(), 2);
    assert!(top.iter().all(|a| a.pending_playoff && a.title.is_none()));
    record_list_playoff(&mut e.event, &e.rules, "disabled", vec![d2, d1], "").expect("playoff");
    let sheet = e.sheet();
    let first = &list_of(&sheet, "disabled").awards[0];
    assert_eq!(
        (first.name.as_str(), first.money_fen, first.title.as_deref()),
        ("残二", 50_000, Some("金华市残疾人组棋王"))
    );
}

#[test]
fn issue10_2_players_without_a_game_take_no_place_and_places_pass_down() {
    // Dongguan 儿童棋王A组, 7 rounds: 8 players, 女W withdrawn before round 1.
    let mut e = Played::new("dongguan-2018.toml");
    let p: Vec<PlayerId> = (1..=7)
        .map(|i| e.add("kids_a", &format!("童{i}"), "m"))
        .collect();
    let w = e.add("kids_a", "女W", "f");
    e.event.player_mut(w).expect("w").status = PlayerStatus::Withdrawn {
        from_round: 1,
        cause: WithdrawalCause::Manual {
            note: Some("未到".into()),
        },
    };
    for _ in 0..7 {
        e.round(
            "kids_a",
            &[
                (p[0], p[1], Outcome::RedWin),
                (p[2], p[3], Outcome::RedWin),
                (p[4], p[5], Outcome::Draw),
                (p[6], p[6], Outcome::RedWin),
            ],
        );
    }
    let sheet = e.sheet();
    let list = list_of(&sheet, "kids_a");
    // Before: 女W 8th with 100 元, 证书, 段位 and 晋级总决赛.
    assert!(
        list.awards.iter().all(|a| a.player != w),
        "{:?}",
        list.awards
    );
    assert!(list.notes.contains(&SheetNote::NotRanked {
        player: w,
        name: "女W".into(),
        why: Exclusion::NoGames,
    }));
    // The rulebook key decides: `ranked` gives her the place back.
    e.rules.prizes.withdrawn = WithdrawnPrizes::Ranked;
    let sheet = e.sheet();
    let her = list_of(&sheet, "kids_a")
        .awards
        .iter()
        .find(|a| a.player == w)
        .map(|a| (a.place, a.money_fen));
    assert_eq!(her, Some((8, 10_000)));
}

#[test]
fn unranked_if_no_games_keeps_a_present_player_who_won_by_forfeits_or_byes() {
    // Dongguan 儿童棋王A组 (unranked_if_no_games), 7 rounds, nobody withdrawn: 到 wins
    // every round by 缺's forfeit, 空 has a bye every round, 缺 forfeits every round.
    let mut e = Played::new("dongguan-2018.toml");
    assert_eq!(e.rules.prizes.withdrawn, WithdrawnPrizes::UnrankedIfNoGames);
    let present = e.add("kids_a", "到", "m");
    let absent = e.add("kids_a", "缺", "m");
    let bye = e.add("kids_a", "空", "m");
    let p: Vec<PlayerId> = (1..=4)
        .map(|i| e.add("kids_a", &format!("童{i}"), "m"))
        .collect();
    for _ in 0..7 {
        e.round(
            "kids_a",
            &[
                (present, absent, Outcome::BlackForfeit),
                (p[0], p[1], Outcome::RedWin),
                (p[2], p[3], Outcome::Draw),
                (bye, bye, Outcome::RedWin),
            ],
        );
    }
    let sheet = e.sheet();
    let list = list_of(&sheet, "kids_a");
    let placed = |id: PlayerId| list.awards.iter().any(|a| a.player == id);
    assert!(placed(present), "{:?}", list.awards);
    assert!(placed(bye), "{:?}", list.awards);
    assert!(!placed(absent), "{:?}", list.awards);
    assert!(list.notes.contains(&SheetNote::NotRanked {
        player: absent,
        name: "缺".into(),
        why: Exclusion::NoGames,
    }));
    assert!(
        !list
            .notes
            .iter()
            .any(|n| matches!(n, SheetNote::NotRanked { player, .. } if *player != absent)),
        "{:?}",
        list.notes
    );
}

#[test]
fn issue10_2_a_jinhua_girl_who_forfeited_rounds_1_and_2_takes_no_place() {
    // 少儿精英乙组, girls' list: 女A…女E play; 女F forfeits rounds 1–2 and is withdrawn.
    let mut e = Played::new("jinhua-2018.toml");
    let boys: Vec<PlayerId> = (1..=6)
        .map(|i| e.add("kids_b", &format!("男{i}"), "m"))
        .collect();
    let girls: Vec<PlayerId> = ["女A", "女B", "女C", "女D", "女E"]
        .iter()
        .map(|n| e.add("kids_b", n, "f"))
        .collect();
    let f = e.add("kids_b", "女F", "f");
    for r in 0..9 {
        // 女A–女E lose to the boys, except 女A wins r times... keep distinct scores:
        // girl i beats boy i in the first (5 - i) rounds, loses after.
        let mut games: Vec<(PlayerId, PlayerId, Outcome)> = girls
            .iter()
            .enumerate()
            .map(|(i, &g)| {
                let outcome = if r < 5 - i {
                    Outcome::RedWin
                } else {
                    Outcome::BlackWin
                };
                (g, boys[i], outcome)
            })
            .collect();
        if r < 2 {
            games.push((f, boys[5], Outcome::RedForfeit));
        } else {
            games.push((boys[5], boys[5], Outcome::RedWin));
        }
        e.round("kids_b", &games);
    }
    e.event.player_mut(f).expect("f").status = PlayerStatus::Withdrawn {
        from_round: 3,
        cause: WithdrawalCause::Forfeits {
            rounds: vec![1, 2],
            consecutive: true,
        },
    };
    let sheet = e.sheet();
    let list = list_of(&sheet, "kids_b_girls");
    let got: Vec<(u32, String, u64)> = list
        .awards
        .iter()
        .map(|a| (a.place, a.name.clone(), a.money_fen))
        .collect();
    // 女E (0 points) is 5th with 100 元; 女F, also 0 points, is not ranked (before: 5=).
    assert_eq!(
        got,
        vec![
            (1, "女A".into(), 40_000),
            (2, "女B".into(), 20_000),
            (3, "女C".into(), 10_000),
            (4, "女D".into(), 10_000),
            (5, "女E".into(), 10_000),
        ]
    );
}

#[test]
fn issue10_2_a_leader_disqualified_after_round_8_is_not_ranked_or_awarded() {
    let mut e = Played::new("jinhua-2018.toml");
    let names = ["领先", "甲", "乙", "丙", "丁", "戊"];
    let ids: Vec<PlayerId> = names.iter().map(|n| e.add("adult", n, "m")).collect();
    for _ in 0..8 {
        e.round(
            "adult",
            &[
                (ids[0], ids[1], Outcome::RedWin),
                (ids[2], ids[3], Outcome::RedWin),
                (ids[4], ids[5], Outcome::Draw),
            ],
        );
    }
    let opp_before =
        qiwang::standings::tiebreak_values(&e.event, &e.rules, &GroupId::new("adult"), None)
            [&ids[1]]
            .opp_score;
    let from = disqualify(&mut e.event, ids[0], "对局中拒不执行规定", None).expect("dq");
    assert_eq!(from, 9);
    assert!(!e.event.player(ids[0]).expect("p").pairable_in(9));
    e.round(
        "adult",
        &[
            (ids[2], ids[1], Outcome::Draw),
            (ids[3], ids[4], Outcome::Draw),
            (ids[5], ids[5], Outcome::RedWin),
        ],
    );
    let st = compute_standings(&e.event, &e.rules, &GroupId::new("adult"), None);
    let row = st.rows.iter().find(|r| r.player == ids[0]).expect("row");
    assert_eq!(row.rank, None, "not ranked");
    // 甲's games against the disqualified player still count for 对手分.
    let values =
        qiwang::standings::tiebreak_values(&e.event, &e.rules, &GroupId::new("adult"), Some(8));
    assert_eq!(values[&ids[1]].opp_score, opp_before);
    let sheet = e.sheet();
    let adult = list_of(&sheet, "adult");
    assert!(adult.awards.iter().all(|a| a.player != ids[0]));
    assert_eq!(adult.awards[0].name, "乙", "first place passes down");
    assert!(adult.notes.contains(&SheetNote::NotRanked {
        player: ids[0],
        name: "领先".into(),
        why: Exclusion::Disqualified,
    }));
    // Refusals: twice, no reason, a round already paired.
    let again = disqualify(&mut e.event, ids[0], "x", None).expect_err("twice");
    assert!(matches!(again, PrizeError::AlreadyDisqualified { .. }));
    let empty = disqualify(&mut e.event, ids[1], "  ", None).expect_err("no reason");
    assert!(matches!(empty, PrizeError::EmptyReason));
    let paired = disqualify(&mut e.event, ids[1], "x", Some(9)).expect_err("paired in 9");
    assert!(matches!(paired, PrizeError::PairedFrom { round: 9, .. }));
    qiwang::prizes::undo_disqualification(&mut e.event, ids[0]).expect("undo");
    let st = compute_standings(&e.event, &e.rules, &GroupId::new("adult"), None);
    assert!(
        st.rows
            .iter()
            .any(|r| r.player == ids[0] && r.rank.is_some())
    );
}

/// Dongguan 儿童棋王A组, 7 rounds: 甲1–甲7 distinct (14 … 8 points); 乙1–乙5 play
/// 丙1–丙5 each round, winning round 1, losing round 2 and drawing the rest (7 points
/// each, 乙 ahead of 丙 on 累积分, the 乙 equal on every key): five share 8th, the last
/// place with 晋级总决赛.
fn dongguan_line() -> (Played, Vec<PlayerId>) {
    let mut e = Played::new("dongguan-2018.toml");
    let a: Vec<PlayerId> = (1..=7)
        .map(|i| e.add("kids_a", &format!("甲{i}"), "m"))
        .collect();
    let d: Vec<PlayerId> = (1..=7)
        .map(|i| e.add("kids_a", &format!("丁{i}"), "m"))
        .collect();
    let s: Vec<PlayerId> = (1..=5)
        .map(|i| e.add("kids_a", &format!("乙{i}"), "m"))
        .collect();
    let t: Vec<PlayerId> = (1..=5)
        .map(|i| e.add("kids_a", &format!("丙{i}"), "m"))
        .collect();
    for r in 0..7usize {
        let mut games = Vec::new();
        for i in 0..7 {
            // 甲(i+1) wins the first 7 - i rounds and draws the rest: 15 - (i + 1) points.
            let outcome = if r < 7 - i {
                Outcome::RedWin
            } else {
                Outcome::Draw
            };
            games.push((a[i], d[i], outcome));
        }
        let outcome = match r {
            0 => Outcome::BlackWin,
            1 => Outcome::RedWin,
            _ => Outcome::Draw,
        };
        games.extend((0..5).map(|i| (t[i], s[i], outcome)));
        e.round("kids_a", &games);
    }
    (e, s)
}

#[test]
fn issue10_2_a_five_way_tie_at_the_qualification_line_follows_the_rulebook() {
    let qualified = |e: &Played| -> Vec<String> {
        let sheet = e.sheet();
        list_of(&sheet, "kids_a")
            .awards
            .iter()
            .filter(|a| a.qualification.is_some())
            .map(|a| a.name.clone())
            .collect()
    };
    let (mut e, s) = dongguan_line();
    // The shipped rulebook: a playoff for the line. 7 qualify now, the five wait.
    assert_eq!(
        e.rules.prizes.qualification_ties,
        QualificationTies::Playoff
    );
    assert_eq!(qualified(&e).len(), 7);
    let sheet = e.sheet();
    let list = list_of(&sheet, "kids_a");
    assert!(list.notes.iter().any(|n| matches!(
        n,
        SheetNote::QualificationPlayoff { place: 8, slots: 1, players, .. } if players.len() == 5
    )));
    assert!(
        list.awards
            .iter()
            .filter(|a| a.place == 8)
            .all(|a| a.qualification_pending)
    );
    // Money of the shared place is not affected: 100 / 5 each.
    assert!(
        list.awards
            .iter()
            .filter(|a| a.place == 8)
            .all(|a| a.money_fen == 2_000)
    );
    // Today's reading (all tied qualify) sends 12.
    e.rules.prizes.qualification_ties = QualificationTies::AllQualify;
    assert_eq!(qualified(&e).len(), 12);
    // A lot or the next tiebreak fills exactly the 8 places.
    for rule in [QualificationTies::Lot, QualificationTies::NextTiebreak] {
        e.rules.prizes.qualification_ties = rule;
        assert_eq!(qualified(&e).len(), 8, "{rule:?}");
    }
    // The playoff recorded for the list decides the line.
    e.rules.prizes.qualification_ties = QualificationTies::Playoff;
    let order = vec![s[3], s[0], s[1], s[2], s[4]];
    record_list_playoff(&mut e.event, &e.rules, "kids_a", order, "").expect("playoff");
    let q = qualified(&e);
    assert_eq!(q.len(), 8);
    assert!(q.contains(&"乙4".to_string()));
}

#[test]
fn a_qualification_playoff_decides_only_who_qualifies_the_place_and_money_stay_shared() {
    let (mut e, s) = dongguan_line();
    assert_eq!(
        e.rules.prizes.qualification_ties,
        QualificationTies::Playoff
    );
    let order = vec![s[3], s[0], s[1], s[2], s[4]];
    record_list_playoff(&mut e.event, &e.rules, "kids_a", order, "").expect("playoff");
    let sheet = e.sheet();
    let list = list_of(&sheet, "kids_a");
    let eighth: Vec<&Award> = list.awards.iter().filter(|a| a.place == 8).collect();
    // All five tied players keep the shared 8th place and 100 / 5 each.
    assert_eq!(eighth.len(), 5, "{:?}", list.awards);
    for a in &eighth {
        assert!(a.shared && a.money_fen == 2_000, "{a:?}");
        assert!(!a.qualification_pending, "{a:?}");
        assert_eq!(a.qualification.is_some(), a.name == "乙4", "{a:?}");
    }
    assert!(list.notes.iter().any(|n| matches!(
        n,
        SheetNote::QualificationSettled { place: 8, qualified, not_qualified, .. }
            if qualified == &vec!["乙4".to_string()] && not_qualified.len() == 4
    )));
}

#[test]
fn higher_only_a_tie_that_appears_after_a_pass_down_is_settled_by_the_suggested_playoff() {
    let text = r#"
[event]
name = "兼得测试"
rounds = 1
[[groups]]
id = "open"
name = "公开组"
[ranking]
tiebreaks = ["对手分"]
[prizes]
multiple = "higher_only"
[[prizes.lists]]
id = "all"
name = "总"
group = "open"
places = [ { place = 1, money = 1000, title = "棋王" }, { place = 2, money = 600 }, { place = 3, money = 300 } ]
[[prizes.lists]]
id = "men"
name = "男子"
group = "open"
places = [ { place = 1, money = 500 }, { place = 2, money = 200 } ]
[prizes.lists.filter]
gender = "male"
"#;
    let mut e = Played {
        rules: Rulebook::from_toml(text, "t.toml").expect("rules"),
        event: Event::new(text.to_string()),
    };
    let [a, b, c, d] = ["甲", "乙", "丙", "丁"].map(|n| e.add("open", n, "m"));
    let [w1, w2] = ["女1", "女2"].map(|n| e.add("open", n, "f"));
    e.round(
        "open",
        &[
            (a, b, Outcome::RedWin),
            (c, d, Outcome::RedWin),
            (w1, w2, Outcome::Draw),
        ],
    );
    record_list_playoff(&mut e.event, &e.rules, "all", vec![a, c], "").expect("overall");
    // 甲 keeps the title, 丙 the overall 600: the men's list passes down to 乙 = 丁.
    let sheet = e.sheet();
    let men = list_of(&sheet, "men");
    assert_eq!(men.passed_on.len(), 2, "{:?}", men.passed_on);
    assert!(men.passed_on.iter().all(|p| p.kept_list_name == "总"));
    assert!(men.notes.iter().any(|n| matches!(
        n,
        SheetNote::PlayoffNeeded { place: 1, players, .. } if players.len() == 2
    )));
    // The sheet suggests the command by pairing number (#N, as it shows 序号), not by id.
    let tmp = on_disk(&e);
    let table = zh(tmp.path(), &["prizes"])
        .stdout_has("已领 总")
        .stderr_empty()
        .check()
        .stdout;
    assert!(
        table.contains("qiwang playoff --list men #2 #4")
            || table.contains("qiwang playoff --list men #4 #2"),
        "{table}"
    );
    // A wrong order is refused naming the players, not a raw id list.
    let err = record_list_playoff(&mut e.event, &e.rules, "men", vec![d, a], "")
        .expect_err("not the tie");
    assert!(err.to_string().contains("丁 #4, 甲 #1"), "{err}");
    // The playoff the sheet asks for is accepted and settles the held money.
    record_list_playoff(&mut e.event, &e.rules, "men", vec![d, b], "").expect("men");
    let sheet = e.sheet();
    let men = list_of(&sheet, "men");
    let paid: Vec<(u32, PlayerId, u64, u64)> = men
        .awards
        .iter()
        .map(|a| (a.place, a.player, a.money_fen, a.held_fen))
        .collect();
    assert_eq!(paid, vec![(1, d, 50_000, 0), (2, b, 20_000, 0)]);
}

// ---------------------------------------------------------------------------------------
// Through the binary: `playoff --list`, `player disqualify`, `standings` per section and
// for every group, and the finance office's CSV.

use crate::common::Run;
use qiwang::store::{CommandInfo, Store};
use std::path::Path;

/// Writes `e` as an event directory the binary can open.
fn on_disk(e: &Played) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    Store::init(
        tmp.path(),
        &e.event.rules_toml,
        &e.event,
        &CommandInfo::new("init", vec!["qiwang".into(), "init".into()]),
    )
    .expect("init");
    tmp
}

/// `qiwang --lang zh --event DIR ARGS` as a [`Run`].
fn zh(dir: &Path, args: &[&str]) -> Run {
    Run::on_event_in("zh", dir, args)
}

/// `qiwang --lang en --event DIR ARGS` as a [`Run`].
fn en(dir: &Path, args: &[&str]) -> Run {
    Run::on_event_in("en", dir, args)
}

/// What `qiwang --lang en --event DIR ARGS` prints on standard output, after failing the
/// test unless it succeeded with nothing on standard error.
#[track_caller]
fn run_ok(dir: &Path, args: &[&str]) -> String {
    en(dir, args).stderr_empty().check().stdout
}

/// [`run_ok`] in Chinese.
#[track_caller]
fn zh_ok(dir: &Path, args: &[&str]) -> String {
    zh(dir, args).stderr_empty().check().stdout
}

#[test]
fn issue10_1_playoff_list_through_the_binary_and_the_prize_csv_for_the_finance_office() {
    let (e, g) = jinhua_kids_girls_tied();
    let tmp = on_disk(&e);
    let dir = tmp.path();
    // Before the playoff: the girls' list says 需加赛 and the CSV holds the money.
    let csv = zh_ok(dir, &["prizes", "--format", "csv"]);
    let mut lines = csv.lines();
    // The CSV starts with a BOM so spreadsheet programs read it as UTF-8.
    let header = lines.next().expect("header").trim_start_matches('\u{feff}');
    assert_eq!(
        header,
        "奖项,名次,姓名,单位,积分,奖金,暂缓发放,状态,奖励,称号,资格,领奖签字"
    );
    let girl_rows: Vec<Vec<&str>> = csv
        .lines()
        .filter(|l| l.starts_with("少儿精英组（女子）,1="))
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(girl_rows.len(), 3, "{csv}");
    let held: f64 = girl_rows.iter().map(|r| r[6].parse::<f64>().unwrap()).sum();
    assert!((held - 700.0).abs() < 0.01, "{girl_rows:?}");
    for r in &girl_rows {
        assert_eq!(r[5], "0", "nothing paid: {r:?}");
        assert!(r[7].contains("需加赛"), "{r:?}");
        assert_eq!(r[9], "", "no title yet: {r:?}");
    }
    let total = csv.lines().last().expect("totals row");
    assert!(total.starts_with("合计,"), "{total}");
    let cells: Vec<&str> = total.split(',').collect();
    assert_eq!(cells[6], "700", "{total}");
    zh(dir, &["prizes"])
        .stdout_has("需加赛")
        .stdout_has("qiwang playoff --list kids_girls")
        .stderr_empty()
        .check();
    // `standings --list` flags them too.
    en(dir, &["standings", "--list", "kids_girls"])
        .stdout_has("playoff needed")
        .stderr_empty()
        .check();

    // Today `playoff --group kids …` answered that the pool has no tie; now it finds the
    // one list whose tie these players are.
    let ids: Vec<String> = [g[2], g[0], g[1]].iter().map(ToString::to_string).collect();
    let mut args = vec!["playoff", "--group", "kids"];
    args.extend(ids.iter().map(String::as_str));
    en(dir, &args)
        .stdout_has("女3 > 女1 > 女2")
        .stderr_empty()
        .check();
    run_ok(dir, &["undo"]);
    // Two of the three: refused, naming the tied players.
    en(dir, &["playoff", "--list", "kids_girls", &ids[0], &ids[1]])
        .status(3)
        .stdout_empty()
        .stderr_has("not the tied players")
        .check();
    let mut args = vec!["playoff", "--list", "kids_girls"];
    args.extend(ids.iter().map(String::as_str));
    en(dir, &args)
        .stdout_has("女3 > 女1 > 女2")
        .stderr_empty()
        .check();
    let csv = zh_ok(dir, &["prizes", "--format", "csv"]);
    let champion = csv
        .lines()
        .find(|l| l.starts_with("少儿精英组（女子）,1,"))
        .expect("a single champion");
    assert!(
        champion.contains(",女3,")
            && champion.contains(",400,0,,")
            && champion.contains("金华市少儿精英组女子棋王"),
        "{champion}"
    );
    // Logged and undoable.
    en(dir, &["log"])
        .stdout_has("playoff of list 少儿精英组（女子） in 少儿精英组: 女3(8) > 女1(6) > 女2(7)")
        .stderr_empty()
        .check();
    run_ok(dir, &["undo"]);
    let csv = zh_ok(dir, &["prizes", "--format", "csv"]);
    assert_eq!(
        csv.lines()
            .filter(|l| l.starts_with("少儿精英组（女子）,1="))
            .count(),
        3
    );
}

#[test]
fn issue10_2_player_disqualify_through_the_binary_is_logged_shown_and_reversible() {
    let mut e = Played::new("jinhua-2018.toml");
    let ids: Vec<PlayerId> = ["领先", "甲", "乙", "丙"]
        .iter()
        .map(|n| e.add("adult", n, "m"))
        .collect();
    for _ in 0..8 {
        e.round(
            "adult",
            &[
                (ids[0], ids[1], Outcome::RedWin),
                (ids[2], ids[3], Outcome::Draw),
            ],
        );
    }
    let tmp = on_disk(&e);
    let dir = tmp.path();
    // No reason: refused, nothing changed.
    let before = std::fs::read(dir.join("qiwang.json")).expect("state");
    en(dir, &["player", "disqualify", "领先"])
        .status(3)
        .stdout_empty()
        .stderr_has("--reason")
        .check();
    assert_eq!(
        std::fs::read(dir.join("qiwang.json")).expect("state"),
        before
    );
    en(
        dir,
        &["player", "disqualify", "领先", "--reason", "拒不执行规定"],
    )
    .stdout_has("not paired from round 9")
    .stderr_empty()
    .check();
    let standings = zh_ok(dir, &["standings"]);
    let row = standings.lines().find(|l| l.contains("领先")).expect("row");
    assert!(row.contains("取消资格") && row.contains("—"), "{row}");
    zh(dir, &["prizes"])
        .stdout_has("领先：取消资格")
        .stderr_empty()
        .check();
    // `players --format json` says so, apart from a withdrawal.
    let players: serde_json::Value =
        serde_json::from_str(&run_ok(dir, &["players", "--format", "json"])).unwrap();
    let leader = &players["players"][0];
    assert_eq!(leader["name"], "领先");
    assert_eq!(
        (&leader["disqualified"], &leader["withdrawn"]),
        (&serde_json::json!(true), &serde_json::json!(false))
    );
    en(dir, &["log"])
        .stdout_has("disqualified player 1 `领先` from round 9")
        .stderr_empty()
        .check();
    // Reversal by command (and `undo` works as for every change).
    run_ok(dir, &["player", "disqualify", "领先", "--undo"]);
    zh(dir, &["standings"])
        .stdout_lacks("取消资格")
        .stderr_empty()
        .check();
    run_ok(dir, &["undo"]);
    zh(dir, &["standings"])
        .stdout_has("取消资格")
        .stderr_empty()
        .check();
}

#[test]
fn issue10_7_standings_of_a_section_show_its_own_list_and_issue12_every_group_without_group() {
    let mut e = Played::new("jinhua-2018.toml");
    let a = e.add("adult", "甲", "m");
    let b = e.add("adult", "乙", "m");
    let d = e.add("adult", "残一", "m d s=disabled");
    let c = e.add("adult", "丙", "m");
    let y1 = e.add("youth", "少一", "m");
    let y2 = e.add("youth", "少二", "m");
    e.round("adult", &[(a, b, Outcome::RedWin), (d, c, Outcome::Draw)]);
    e.round("youth", &[(y1, y2, Outcome::BlackWin)]);
    let tmp = on_disk(&e);
    let dir = tmp.path();
    // Before: the whole 成人组 table. Now: the 残疾人组 list only.
    en(dir, &["standings", "--group", "残疾人组"])
        .stdout_has("残一")
        .stdout_lacks("甲")
        .stdout_lacks("乙")
        .stdout_lacks("丙")
        .stderr_empty()
        .check();
    // Without --group in a multi-group event: every group (before: a usage error).
    let mut every = en(dir, &["standings"]).stderr_empty();
    for name in ["甲", "残一", "少一", "少二", "成人组", "青少年组"] {
        every = every.stdout_has(name);
    }
    every.check();
    let json = run_ok(dir, &["standings", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(2));
}
