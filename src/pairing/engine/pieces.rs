//! A large field's score groups solved alone, in pieces where they are large, on two
//! threads: the warm start of the whole field's first solve.
//!
//! Owns the jobs (pieces, then each group from its pieces), the narrower weight types
//! a strict round's groups are solved in, and the solve of one stretch of a group. A
//! start changes how much work the whole-field solve does, never what it proves: nothing
//! here may decide the final pairing, which [`super::solve::priced`] prices to its optimum.

use super::candidates::PairSet;
use super::cuts::{piece_cuts, unpairable};
use super::encode::Encoder;
use super::field::{Field, colour_bars, colour_class};
use super::solve::{on_threads, price_to_optimum};
use crate::pairing::blossom::{Parts, PerfectMatcher, Snapshot};
use crate::pairing::wide::{Weight, narrow, widen};
use std::cmp::Reverse;
use std::sync::{Mutex, PoisonError};

/// Players per piece of a score group in [`piecewise_start`] (measured at 10,000 players:
/// pieces of 250 or 1,000 leave more to settle across their borders than whole score
/// groups do; with pieces priced, the bench binary's `--child 100000 R` took 48.0/47.0 s
/// for rounds 3/9 with pieces of 2,000, 39–45/44–50 s with 4,000, 44.8/66.6 s with 8,000).
const PIECE: usize = 4000;

/// Fields above this size start the first solve from [`piecewise_start`].
pub(super) const PIECEWISE_FROM: usize = 400;

#[cfg(test)]
thread_local! {
    /// Tests cut score groups into pieces of this many players instead of [`PIECE`], so
    /// fields small enough for the dense reference go through the pieces.
    pub(super) static PIECE_LEN: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Players per piece of a score group (see [`solve_stretch`]).
fn piece_len() -> usize {
    #[cfg(test)]
    if let Some(len) = PIECE_LEN.with(std::cell::Cell::get) {
        return len;
    }
    PIECE
}

/// A starting point for the first whole-field solve of a large field: each score group is
/// solved alone to its own optimum ([`solve_stretch`]: its candidate pairs, then priced
/// against every legal pair inside it), and the groups' optima, put side by side, start the
/// whole-field solve, which then only has to settle what the groups could not decide alone
/// (the floaters between them and what they change). Each group is solved with a sink for
/// each floater the fewest floats give it ([`group_ends`]): one for the player it takes in
/// from above, which any of its players may take alike, and one for the player it sends
/// down, weighed as the whole field weighs that pair, so the players the join leaves free
/// are where the floats go (on a 100,000-player round 9, the whole-field solve's first
/// pricing pass then found 3,742 improving pairs instead of 2,901,947: docs/performance.md,
/// "Score groups solved with their floaters' sinks"). A group of more than [`PIECE`]
/// players is cut into pieces of about that many ([`piece_cuts`]), each solved so, and the
/// pieces' optima side by side start the group's solve. Pieces and groups are jobs for two
/// threads ([`crate::threads::pool`], see [`super::solve::PARALLEL_FROM`]): whichever
/// thread is free takes a group whose pieces are all solved, else the next piece of the
/// largest group left. (Whole groups dealt to the threads in advance, the largest first,
/// left one thread idle for up to a third of the phase: in the bench binary's `--child
/// 100000 3`, 31.6 s for 46 s of work.) The whole-field solve and pricing after it are
/// unchanged, so the result is as exact as ever: a start changes how much work the solver
/// does, never what it proves. A group without a perfect pairing of its own (players barred
/// from one colour can crowd a score group) gives what its solve stopped at: as many pairs
/// as it can hold, under duals that keep them tight.
///
/// (Before, pieces of the groups, solved over their candidate pairs only, were put side
/// by side for the whole-field solve directly. In the bench binary's `--child 100000 9`
/// run its first solve then had 10,288 players to settle and took 48.6 s of the round's
/// 97.6 s, and in `--child 100000 3` the first pricing pass added 112,312 pairs, whose
/// solve took 23.7 s; from groups solved and priced first, the whole-field solve and
/// pricing after it took 7 s in round 9 and 17 s in round 3, the groups 38 and 23 s on
/// two threads, measured with temporary instrumentation.)
pub(super) fn piecewise_start<W: Weight>(
    field: &Field,
    enc: &Encoder<W>,
    edges: &[(usize, usize, W)],
) -> (Parts<W>, Vec<(usize, usize, W)>) {
    let (ranges, local) = group_edges(field, edges);
    // The groups' solves weigh pairs inside a group only, which need fewer bits than the
    // whole field's weights: solved in 64 or 128 bits where those are narrower, with
    // the same numbers, and carried over exactly. (In the bench binary's `--child
    // 100000 9`, whose weights are 384 bits wide, the round took 37.0 s with the groups
    // in 384 bits, 23.2 s in 128 and 21.8 s in 64; `--child 100000 3`, 192 bits: 28.5 s
    // in 128, 27.7 s in 64, run back to back in one slow hour.)
    let starts: Vec<Start<W>> =
        if let Some(starts) = narrow_groups::<i64, W>(field, enc, &ranges, &local) {
            starts
        } else if W::BITS > <i128 as Weight>::BITS
            && let Some(starts) = narrow_groups::<i128, W>(field, enc, &ranges, &local)
        {
            starts
        } else {
            score_groups(field, enc, &ranges, &local)
        };
    let mut groups = Vec::with_capacity(ranges.len());
    let mut added = Vec::new();
    for (part, &(lo, _)) in starts.into_iter().zip(&ranges) {
        added.extend(part.added.into_iter().map(|(u, v, w)| (u + lo, v + lo, w)));
        groups.push((lo, part.snap));
    }
    (groups, added)
}

/// Each score group's players as a range, and its own candidate pairs out of `edges`,
/// numbered from its first player.
#[allow(clippy::type_complexity)]
fn group_edges<W: Weight>(
    field: &Field,
    edges: &[(usize, usize, W)],
) -> (Vec<(usize, usize)>, Vec<Vec<(usize, usize, W)>>) {
    let n = field.players.len();
    let mut ranges = Vec::with_capacity(field.group_size.len());
    let mut start = 0;
    for &size in &field.group_size {
        ranges.push((start, start + size));
        start += size;
    }
    let mut local: Vec<Vec<(usize, usize, W)>> = vec![Vec::new(); ranges.len()];
    for &(u, v, w) in edges {
        if v < n && field.group[u] == field.group[v] {
            let lo = ranges[field.group[u]].0;
            local[field.group[u]].push((u - lo, v - lo, w));
        }
    }
    (ranges, local)
}

/// [`score_groups`] in weights of the narrower type `V`, carried over to `W`; `None`
/// when the groups' weights need more bits than `V` holds.
fn narrow_groups<V: Weight, W: Weight>(
    field: &Field,
    enc: &Encoder<W>,
    ranges: &[(usize, usize)],
    local: &[Vec<(usize, usize, W)>],
) -> Option<Vec<Start<W>>> {
    let in_group = enc.in_group::<V>()?;
    let local = local
        .iter()
        .map(|edges| {
            edges
                .iter()
                .map(|&(u, v, w)| Some((u, v, narrow(w)?)))
                .collect::<Option<Vec<_>>>()
        })
        .collect::<Option<Vec<_>>>()?;
    Some(
        score_groups(field, &in_group, ranges, &local)
            .into_iter()
            .map(Start::widen)
            .collect(),
    )
}

/// Each score group of `field` (players `ranges`, candidate pairs `local` numbered from
/// each group's first player) solved alone, in pieces where it is large, on two threads:
/// the work of [`piecewise_start`], in weights of type `V`.
fn score_groups<V: Weight>(
    field: &Field,
    enc: &Encoder<V>,
    ranges: &[(usize, usize)],
    local: &[Vec<(usize, usize, V)>],
) -> Vec<Start<V>> {
    let n = field.players.len();
    let bar = colour_bars(field);
    let ends = group_ends(&field.group_size);
    // Each group's pieces (one when it is small): cut here, where a test's piece length
    // is seen.
    let cuts: Vec<Vec<usize>> = ranges
        .iter()
        .map(|&(lo, hi)| {
            // In fold order a group's pairs join its top half to its bottom half, so a
            // piece (a run of the group) holds few of them: at 30,000 players, round 2
            // took 145.6 s cut into pieces and 83.8 s whole (`SimConfig::random(9500, …)`
            // in fold order, a temporary release test).
            let parts = if field.fold() {
                1
            } else {
                (hi - lo).div_ceil(piece_len()).max(1)
            };
            if parts == 1 {
                vec![0, hi - lo]
            } else {
                let classes: Vec<usize> = field.players[lo..hi].iter().map(colour_class).collect();
                piece_cuts(&classes, &bar[lo..hi], parts)
            }
        })
        .collect();
    // Each piece's own candidate pairs, numbered from its first player, split once (a
    // group of one piece uses the group's).
    let piece_edges: Vec<Vec<Vec<(usize, usize, V)>>> = cuts
        .iter()
        .zip(local)
        .map(|(c, edges)| {
            if c.len() == 2 {
                return Vec::new();
            }
            let mut own = vec![Vec::new(); c.len() - 1];
            for &(u, v, w) in edges {
                let k = c.partition_point(|&x| x <= u) - 1;
                if (c[k]..c[k + 1]).contains(&v) {
                    own[k].push((u - c[k], v - c[k], w));
                }
            }
            own
        })
        .collect();
    let pieces: Vec<Mutex<Vec<Option<Start<V>>>>> = cuts
        .iter()
        .map(|c| Mutex::new((1..c.len()).map(|_| None).collect()))
        .collect();
    let solved: Vec<Mutex<Option<Start<V>>>> = ranges.iter().map(|_| Mutex::new(None)).collect();
    // A group of one piece is solved by its one piece's job.
    let mut jobs = Vec::new();
    for (g, c) in cuts.iter().enumerate() {
        jobs.extend((0..c.len() - 1).map(|k| Job {
            merge: false,
            size: field.group_size[g],
            group: Reverse(g),
            piece: Reverse(k),
        }));
    }
    crate::threads::pool(on_threads(n), jobs, |job| {
        let g = job.group.0;
        let (lo, hi) = ranges[g];
        let c = &cuts[g];
        if c.len() == 2 || job.merge {
            let parts = (c.len() > 2).then(|| {
                let mut list = crate::threads::lock(&pieces[g]);
                list.iter_mut()
                    .map(|p| p.take().expect("every piece is solved before its group"))
                    .collect()
            });
            let whole = solve_stretch(
                field,
                (lo, hi),
                enc,
                &local[g],
                &bar[lo..hi],
                parts,
                Some(ends[g]),
            );
            *crate::threads::lock(&solved[g]) = Some(whole);
            return Vec::new();
        }
        let k = job.piece.0;
        let (a, b) = (c[k], c[k + 1]);
        let part = solve_stretch(
            field,
            (lo + a, lo + b),
            enc,
            &piece_edges[g][k],
            &bar[lo + a..lo + b],
            None,
            None,
        );
        let mut list = crate::threads::lock(&pieces[g]);
        list[k] = Some(part);
        if list.iter().all(Option::is_some) {
            vec![Job {
                merge: true,
                piece: Reverse(0),
                ..job
            }]
        } else {
            Vec::new()
        }
    });
    solved
        .into_iter()
        .map(|whole| {
            whole
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .expect("every group is solved")
        })
        .collect()
}

/// A stretch's solved state ([`solve_stretch`]), to start a larger solve from, and the
/// pairs pricing added to its candidates (its partners may use them).
struct Start<W> {
    snap: Snapshot<W>,
    added: Vec<(usize, usize, W)>,
}

impl<V: Weight> Start<V> {
    /// The same start in a wider weight type, every value carried over exactly.
    fn widen<W: Weight>(self) -> Start<W> {
        Start {
            snap: self.snap.widen(),
            added: self
                .added
                .into_iter()
                .map(|(u, v, w)| (u, v, widen(w)))
                .collect(),
        }
    }
}

/// Work for the two threads of [`piecewise_start`], the greatest first: a group's solve
/// from its pieces as soon as they are all solved, else the largest group's pieces
/// first (so that solve can start early), in order. A group of one piece is solved by
/// that piece's job; a group's solve from its pieces carries piece 0.
#[derive(PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
struct Job {
    merge: bool,
    size: usize,
    group: Reverse<usize>,
    piece: Reverse<usize>,
}

/// Where a score group's solve ([`solve_stretch`]) expects its floaters: a player from
/// the group above paired into it, a player of its own paired down (or given the bye
/// below the last group).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ends {
    from_above: bool,
    down: bool,
}

/// Each score group's [`Ends`] when the fewest players leave their groups: from the top
/// down, a group whose own players and the floater it takes in are odd in number sends
/// one down (the last one's goes to the bye sink, in an odd field). A guess only: a group
/// that cannot pair its players sends more.
fn group_ends(group_size: &[usize]) -> Vec<Ends> {
    let mut from_above = false;
    group_size
        .iter()
        .map(|&size| {
            let down = (size + usize::from(from_above)) % 2 == 1;
            let ends = Ends { from_above, down };
            from_above = down;
            ends
        })
        .collect()
}

/// Players `lo..hi` of one score group solved alone (see [`piecewise_start`]) over their
/// candidate pairs `edges` (numbered from `lo`), `bar` their [`colour_bars`]: their
/// duals, their partners (numbered from `lo`) and the pairs pricing added. With
/// `pieces`, the optima of consecutive pieces of the stretch (each solved so), side by
/// side, are the warm start; without, the solve starts cold. A piece of odd length
/// has a sink any player may take; a whole group has its floaters' sinks (`ends`, see
/// [`group_ends`]). A stretch that pairs everyone (sinks taken) is priced as the whole
/// field is, against every legal pair inside it, so its start is its own optimum, proven,
/// and the solve around it prices only what changes across its borders. A stretch that
/// cannot pair everyone stops as soon as only the players [`unpairable`] counts are left
/// (proving that no more can be paired would be most of its work) and is not priced.
fn solve_stretch<W: Weight>(
    field: &Field,
    (lo, hi): (usize, usize),
    enc: &Encoder<W>,
    edges: &[(usize, usize, W)],
    bar: &[usize],
    pieces: Option<Vec<Start<W>>>,
    ends: Option<Ends>,
) -> Start<W> {
    let size = hi - lo;
    let mut local = edges.to_vec();
    // Sinks are as light as the lightest pair or lighter: a sink heavier than every pair
    // (pairs weigh minus their cost) is every player's heaviest edge, and the cold
    // start's greedy pass then paired nobody (in the bench binary's `--child 100000 9`,
    // 4,186 of a piece's 4,188 players were left to the solve, against about a quarter
    // in even pieces).
    let floor = edges.iter().map(|e| e.2).min().unwrap_or(W::ZERO);
    let mut total = size;
    // A sink every player takes at the same weight, so it favours none: an odd piece's,
    // or the one for the player a group takes in from the group above, whom the
    // group's players suit by its colour, not known here (weighed by the distance
    // from the group's top, the players barred from one colour, whom S15 orders first,
    // took it, and `cargo bench --bench pairing -- --replay` of round 4 of the
    // 100,000-player chain took 4.5 s instead of 3.7).
    if ends.map_or(size % 2 == 1, |e| e.from_above) {
        local.extend((0..size).map(|a| (a, total, floor)));
        total += 1;
    }
    // The player a group sends down (or to the bye), weighed as the whole field weighs
    // that pair by what depends on the player alone.
    if ends.is_some_and(|e| e.down) {
        local.extend((0..size).map(|a| {
            let leaving = field.leaving_terms(lo + a, size - a);
            (a, total, floor - enc.cost(&leaving))
        }));
        total += 1;
    }
    let sinks = total - size;
    let mut added = Vec::new();
    let mut solver = match pieces {
        None => PerfectMatcher::cold(total, &local),
        Some(pieces) => {
            let mut parts = Vec::with_capacity(pieces.len());
            let mut a = 0;
            for part in pieces {
                let len = part.snap.vertices();
                added.extend(part.added.into_iter().map(|(u, v, w)| (u + a, v + a, w)));
                parts.push((a, part.snap));
                a += len;
            }
            debug_assert_eq!(a, size, "the pieces cover the stretch");
            local.extend_from_slice(&added);
            PerfectMatcher::join(total, &local, parts)
                .unwrap_or_else(|| PerfectMatcher::cold(total, &local))
        }
    };
    solver.stop_at_free(unpairable(bar).saturating_sub(sinks));
    let sub = stretch_field(field, lo, hi);
    let mut seen = PairSet::default();
    for &(u, v, _) in edges.iter().chain(&added) {
        seen.insert(u, v);
    }
    let before = local.len();
    price_to_optimum(&sub, enc, &mut solver, total, &mut local, &mut seen);
    added.extend_from_slice(&local[before..]);
    Start {
        snap: solver.snapshot(size),
        added,
    }
}

/// Players `lo..hi` of one score group as a field of their own (the same players in the
/// same order, the same places and size of their group), for pricing their solve.
fn stretch_field<'a>(field: &Field<'a>, lo: usize, hi: usize) -> Field<'a> {
    let g = field.group[lo];
    Field {
        rules: field.rules,
        players: field.players[lo..hi].to_vec(),
        group: vec![0; hi - lo],
        scores: vec![field.scores[g]],
        in_group: field.in_group[lo..hi].to_vec(),
        group_size: vec![field.group_size[g]],
        facts: field.facts[lo..hi].to_vec(),
        relax: field.relax.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::engine::bye_and_hint;
    use crate::pairing::engine::candidates::{NEAR, initial_candidates};
    use crate::pairing::engine::encode::field_encoder;
    use crate::pairing::engine::next_field;
    use crate::pairing::engine::solve::{Solved, priced};
    use crate::pairing::wide::I192;
    use crate::rulebook::WithinGroup;
    use crate::threads::FORCED;

    /// Score groups cut into pieces (pieces of 40 players here, of 4,000 in real use),
    /// including pieces that take in players for those barred from one colour and pieces
    /// that cannot pair everyone, under each within-group order (fold order prices a
    /// piece by its places in the whole group), start a solve that ends at the dense
    /// optimum: the same packed cost (every criterion, level by level) as every legal
    /// pair solved at once (and, as in every debug solve, a certificate over every legal
    /// pair).
    #[test]
    fn pieces_of_score_groups_reach_the_dense_optimum() {
        use crate::pairing::simulate::synthetic_mid_event;
        // Every within-group order: a stretch priced alone keeps its group's places. The
        // three cases each on a thread of their own (the settings below are per thread):
        // the test's dense solves are the longest of the library's tests.
        let orders = [
            WithinGroup::AdjacentColourRows,
            WithinGroup::FoldTopBottom,
            WithinGroup::Adjacent,
        ];
        let one_case = |((seed, round), order): ((u64, u32), WithinGroup)| -> usize {
            let mut cut = 0;
            let mut sim = synthetic_mid_event(480, round - 1, 9, seed);
            sim.rules.pairing.within_group = order;
            let field = next_field(&sim, round, seed);
            let bars = colour_bars(&field);
            let mut at = 0;
            for &size in &field.group_size {
                cut += usize::from(size > 40 && unpairable(&bars[at..at + 40]) > 0);
                at += size;
            }
            let (bye, hint) = bye_and_hint(&field).expect("pairable");
            let enc = field_encoder::<i128>(&field).expect("wide enough");
            FORCED.with(|t| t.set(Some(false)));
            PIECE_LEN.with(|p| p.set(Some(40)));
            let pieces = priced(&field, &bye, &hint, false, &enc);
            PIECE_LEN.with(|p| p.set(None));
            FORCED.with(|t| t.set(None));
            let dense = priced(&field, &bye, &hint, true, &enc);
            // The packed cost of a solution, as the solver weighs it (colours by due
            // colour: the pairs are not oriented yet).
            let cost = |s: &Solved| {
                let pairs: i128 = s
                    .pairs
                    .iter()
                    .map(|&(a, b)| enc.cost(&field.pair_terms(a, b)))
                    .sum();
                let bye = s.bye.map_or(0, |i| {
                    enc.cost(&field.leaving_terms(i, field.players.len() - i))
                });
                pairs + bye
            };
            assert_eq!(cost(&pieces), cost(&dense), "seed {seed}, round {round}");
            cut
        };
        let cut: usize = std::thread::scope(|scope| {
            let cases: Vec<_> = [(3, 3), (5, 5), (7, 9)]
                .into_iter()
                .zip(orders)
                .map(|case| scope.spawn(move || one_case(case)))
                .collect();
            cases.into_iter().map(|c| c.join().unwrap()).sum()
        });
        assert!(
            cut > 0,
            "a first piece lacks partners for its barred players"
        );
    }

    /// The floats the group solves expect follow the groups' parity from the top: an odd
    /// group sends one down, a group that takes one in and is even sends one on, and the
    /// last group's goes to the bye only when the field is odd.
    #[test]
    fn group_ends_follow_the_parity_from_the_top() {
        let ends = |from_above, down| Ends { from_above, down };
        assert_eq!(
            group_ends(&[3, 4, 5, 2, 1]),
            [
                ends(false, true),
                ends(true, true),
                ends(true, false),
                ends(false, false),
                ends(false, true),
            ]
        );
        assert_eq!(
            group_ends(&[1, 1, 2]),
            [ends(false, true), ends(true, false), ends(false, false)]
        );
        assert_eq!(group_ends(&[]), []);
    }

    /// Score groups solved in 64 or 128 bits start the whole field's solve from exactly
    /// the state they reach in its own wider weights: the same duals, pairs, blossoms
    /// and priced pairs, pieces and all.
    #[test]
    fn score_groups_solve_alike_in_every_width() {
        use crate::pairing::simulate::synthetic_mid_event;
        let sim = synthetic_mid_event(700, 4, 9, 11);
        let field = next_field(&sim, 5, 11);
        let enc = field_encoder::<I192>(&field).expect("wide enough");
        let mut edges = Vec::new();
        let mut seen = PairSet::default();
        initial_candidates(&field, NEAR, &mut |i, j| {
            if i != j && seen.insert(i, j) && field.legal(i, j) {
                let w = -enc.cost(&field.pair_terms(i, j));
                edges.push((i.min(j), i.max(j), w));
            }
        });
        let (ranges, local) = group_edges(&field, &edges);
        assert!(
            ranges.iter().any(|&(lo, hi)| hi - lo > 100),
            "a group of pieces"
        );
        FORCED.with(|t| t.set(Some(false)));
        PIECE_LEN.with(|p| p.set(Some(50)));
        let wide = score_groups(&field, &enc, &ranges, &local);
        let by_i64 = narrow_groups::<i64, I192>(&field, &enc, &ranges, &local).expect("fits");
        let by_i128 = narrow_groups::<i128, I192>(&field, &enc, &ranges, &local).expect("fits");
        PIECE_LEN.with(|p| p.set(None));
        FORCED.with(|t| t.set(None));
        for narrow in [by_i64, by_i128] {
            assert_eq!(narrow.len(), wide.len());
            for (a, b) in narrow.iter().zip(&wide) {
                assert_eq!(a.snap, b.snap);
                assert_eq!(a.added, b.added);
            }
        }
    }
}
