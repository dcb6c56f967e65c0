//! The money of places: the budget of a list, what each entry receives when places are
//! shared (`SharedMoney`: split, each the higher, or the next places), the money held back
//! while a tie for first awaits a playoff, and the totals. All in fen.

use super::FEN_PER_UNIT;
use super::sheet::{Award, Totals};
use crate::rulebook::{PrizePlace, SharedMoney};

/// The totals of a list's awards, with its undistributed money and budget.
pub(super) fn award_totals(awards: &[Award], undistributed_fen: u64, budget_fen: u64) -> Totals {
    Totals {
        paid_fen: awards.iter().map(|a| a.money_fen).sum(),
        held_fen: awards.iter().map(|a| a.held_fen).sum(),
        undistributed_fen,
        budget_fen,
    }
}

pub(super) fn budget_fen(places: &[PrizePlace]) -> u64 {
    places
        .iter()
        .map(|p| fen(p.money) * u64::from(p.to.saturating_sub(p.from) + 1))
        .sum()
}

/// The fen the `j`-th of players sharing money gets beyond the equal share, when
/// `remainder` fen do not divide evenly: one for each of the first `remainder` (fewer than
/// the players). (All of it to the first once paid one of 5,323 players tied for first
/// 43.84 元 and each of the others 3.28 元.)
fn extra_fen(j: usize, remainder: u64) -> u64 {
    u64::from((j as u64) < remainder)
}

pub(super) fn fen(units: u32) -> u64 {
    u64::from(units) * FEN_PER_UNIT
}

/// An entry to allocate: its place in the list (rows in order, equal places = tied).
pub(super) struct Slot {
    pub(super) place: u32,
    pub(super) pending: bool,
}

/// What one entry receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Allocation {
    pub(super) place: u32,
    pub(super) shared: bool,
    pub(super) from: u32,
    pub(super) to: u32,
    pub(super) money_fen: u64,
    pub(super) held_fen: u64,
    pub(super) award: Option<String>,
    pub(super) title: Option<String>,
    pub(super) qualification: Option<String>,
    pub(super) pending: bool,
}

pub(super) fn prize_at(places: &[PrizePlace], place: u32) -> Option<&PrizePlace> {
    places.iter().find(|p| p.from <= place && place <= p.to)
}

pub(super) fn money_at(places: &[PrizePlace], place: u32) -> u64 {
    prize_at(places, place).map_or(0, |p| fen(p.money))
}

/// The prize of every entry (`None`: no prize) and the fen left undistributed by `Split`.
pub(super) fn allocate(
    places: &[PrizePlace],
    slots: &[Slot],
    rule: SharedMoney,
) -> (Vec<Option<Allocation>>, u64) {
    let mut out: Vec<Option<Allocation>> = Vec::with_capacity(slots.len());
    // Kept for the sheet's totals; every split now hands out all of its fen.
    let undistributed = 0;
    let mut i = 0;
    while i < slots.len() {
        let p = slots[i].place;
        let k = slots[i..].iter().take_while(|s| s.place == p).count();
        let run = &slots[i..i + k];
        let covered = p..p + k as u32;
        let top = covered.clone().find_map(|q| prize_at(places, q));
        let covered_money: u64 = covered.clone().map(|q| money_at(places, q)).sum();
        let alloc =
            |place, shared, from, to, money_fen, held_fen, prize: Option<&PrizePlace>| Allocation {
                place,
                shared,
                from,
                to,
                money_fen,
                held_fen,
                award: prize.and_then(|p| p.award.clone()),
                title: prize.and_then(|p| p.title.clone()),
                qualification: prize.and_then(|p| p.qualification.clone()),
                pending: false,
            };
        let last = p + k as u32 - 1;
        if top.is_none() {
            out.extend(run.iter().map(|_| None));
        } else if k > 1 && run.iter().any(|s| s.pending) {
            // 冠军不并列: nothing is decided before the playoff; hold the covered money.
            let each = covered_money / k as u64;
            let common = |f: fn(&PrizePlace) -> &Option<String>| -> Option<String> {
                let mut values = covered
                    .clone()
                    .map(|q| prize_at(places, q).and_then(|p| f(p).clone()));
                let first = values.next().flatten();
                values.all(|v| v == first).then_some(first).flatten()
            };
            let remainder = covered_money - each * k as u64;
            for j in 0..k {
                out.push(Some(Allocation {
                    place: p,
                    shared: true,
                    from: p,
                    to: last,
                    money_fen: 0,
                    held_fen: each + extra_fen(j, remainder),
                    award: common(|p| &p.award),
                    title: common(|p| &p.title),
                    qualification: common(|p| &p.qualification),
                    pending: true,
                }));
            }
        } else if k == 1 {
            out.push(Some(alloc(p, false, p, p, covered_money, 0, top)));
        } else {
            match rule {
                SharedMoney::Split => {
                    // The fen that do not divide evenly go one each to the first of the
                    // tied players (as a held split does), so no money is lost and no
                    // two shares differ by more than a fen.
                    let each = covered_money / k as u64;
                    let remainder = covered_money - each * k as u64;
                    out.extend(run.iter().enumerate().map(|(j, _)| {
                        let money = each + extra_fen(j, remainder);
                        Some(alloc(p, true, p, last, money, 0, top))
                    }));
                }
                SharedMoney::EachHigher => {
                    let money = top.map_or(0, |t| fen(t.money));
                    out.extend(
                        run.iter()
                            .map(|_| Some(alloc(p, true, p, last, money, 0, top))),
                    );
                }
                SharedMoney::NextKey => {
                    for q in covered.clone() {
                        let prize = prize_at(places, q);
                        out.push(prize.map(|pr| alloc(q, false, q, q, fen(pr.money), 0, Some(pr))));
                    }
                }
            }
        }
        i += k;
    }
    (out, undistributed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(from: u32, to: u32, money: u32, award: &str) -> PrizePlace {
        PrizePlace {
            from,
            to,
            money,
            award: Some(award.to_string()),
            title: (from == 1).then(|| "棋王".to_string()),
            qualification: Some("晋级".to_string()),
        }
    }

    /// 1st 500 奖杯, 2nd 300 奖牌, 3rd 200 奖牌, 4th–6th 100 证书.
    fn places() -> Vec<PrizePlace> {
        vec![
            place(1, 1, 500, "奖杯"),
            place(2, 2, 300, "奖牌"),
            place(3, 3, 200, "奖牌"),
            place(4, 6, 100, "证书"),
        ]
    }

    fn slots(places: &[u32]) -> Vec<Slot> {
        places
            .iter()
            .map(|&place| Slot {
                place,
                pending: false,
            })
            .collect()
    }

    fn money(a: &[Option<Allocation>]) -> Vec<Option<(u32, bool, u64)>> {
        a.iter()
            .map(|a| a.as_ref().map(|a| (a.place, a.shared, a.money_fen)))
            .collect()
    }

    #[test]
    fn shared_place_rules_for_a_two_way_tie_at_three() {
        let ps = places();
        let s = slots(&[1, 2, 3, 3, 5, 6, 7]);
        let cases = [
            (
                SharedMoney::Split,
                // (200 + 100) / 2 = 150 each.
                vec![
                    Some((1, false, 50_000)),
                    Some((2, false, 30_000)),
                    Some((3, true, 15_000)),
                    Some((3, true, 15_000)),
                    Some((5, false, 10_000)),
                    Some((6, false, 10_000)),
                    None,
                ],
            ),
            (
                SharedMoney::EachHigher,
                vec![
                    Some((1, false, 50_000)),
                    Some((2, false, 30_000)),
                    Some((3, true, 20_000)),
                    Some((3, true, 20_000)),
                    Some((5, false, 10_000)),
                    Some((6, false, 10_000)),
                    None,
                ],
            ),
            (
                SharedMoney::NextKey,
                vec![
                    Some((1, false, 50_000)),
                    Some((2, false, 30_000)),
                    Some((3, false, 20_000)),
                    Some((4, false, 10_000)),
                    Some((5, false, 10_000)),
                    Some((6, false, 10_000)),
                    None,
                ],
            ),
        ];
        for (rule, want) in cases {
            let (got, rest) = allocate(&ps, &s, rule);
            assert_eq!(money(&got), want, "{rule:?}");
            assert_eq!(rest, 0, "{rule:?}");
        }
    }

    #[test]
    fn split_gives_the_fen_left_over_one_each_to_the_first() {
        // Three share place 2: (300 + 200 + 100) = 600 → 200 each, nothing left.
        let (got, rest) = allocate(&places(), &slots(&[1, 2, 2, 2]), SharedMoney::Split);
        assert_eq!(got[1].as_ref().map(|a| a.money_fen), Some(20_000));
        assert_eq!(rest, 0);
        // Three share place 5 of a list ending at 6: (100 + 100 + 0) / 3 = 66.66 each, and
        // the 2 fen left go one each to the first two, so the list pays all its money and
        // no share differs from another by more than a fen.
        let (got, rest) = allocate(
            &places(),
            &slots(&[1, 2, 3, 4, 5, 5, 5]),
            SharedMoney::Split,
        );
        let shares: Vec<_> = got[4..7]
            .iter()
            .map(|a| a.as_ref().map(|a| (a.money_fen, a.from, a.to)))
            .collect();
        assert_eq!(
            shares,
            [
                Some((6_667, 5, 7)),
                Some((6_667, 5, 7)),
                Some((6_666, 5, 7))
            ]
        );
        assert_eq!(rest, 0);
        // A tie beyond the last prize gets nothing.
        let (got, _) = allocate(
            &places(),
            &slots(&[1, 2, 3, 4, 5, 6, 7, 7]),
            SharedMoney::Split,
        );
        assert!(got[6].is_none() && got[7].is_none());
    }

    #[test]
    fn award_texts_come_from_the_place_shown() {
        let (got, _) = allocate(&places(), &slots(&[1, 2, 2]), SharedMoney::EachHigher);
        let a = got[1].as_ref().map(|a| (a.award.clone(), a.title.clone()));
        assert_eq!(a, Some((Some("奖牌".into()), None)));
        let a = got[0].as_ref().map(|a| a.title.clone());
        assert_eq!(a, Some(Some("棋王".into())));
    }

    #[test]
    fn pending_playoff_holds_the_covered_money_and_withholds_the_title() {
        let s = vec![
            Slot {
                place: 1,
                pending: true,
            },
            Slot {
                place: 1,
                pending: true,
            },
            Slot {
                place: 3,
                pending: false,
            },
        ];
        for rule in [
            SharedMoney::Split,
            SharedMoney::EachHigher,
            SharedMoney::NextKey,
        ] {
            let (got, rest) = allocate(&places(), &s, rule);
            let a = got[0].clone().expect("award");
            assert!(a.pending && a.shared, "{rule:?}");
            assert_eq!(
                (a.place, a.from, a.to, a.money_fen),
                (1, 1, 2, 0),
                "{rule:?}"
            );
            // 500 + 300 held, 400 each.
            let held: u64 = got.iter().flatten().map(|a| a.held_fen).sum();
            assert_eq!(held, 80_000, "{rule:?}");
            // 奖杯 vs 奖牌 differ, the title belongs to place 1 only; both places qualify.
            assert_eq!((a.award, a.title), (None, None), "{rule:?}");
            assert_eq!(a.qualification.as_deref(), Some("晋级"), "{rule:?}");
            assert_eq!(rest, 0);
            assert_eq!(got[2].as_ref().map(|a| a.money_fen), Some(20_000));
        }
    }

    #[test]
    fn budget_counts_every_place_of_a_range() {
        assert_eq!(budget_fen(&places()), 130_000);
    }
}
