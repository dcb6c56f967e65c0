//! The whole field as one minimum-cost perfect matching, proven optimal over every legal
//! pair by column generation (docs/rules.md §2.6).
//!
//! Owns the solve's loop: candidate pairs in, solve, balance the duals, price the pairs
//! left out ([`super::price`]), add those that improve, solve again until none does; and
//! the switch between one thread and two. It must not weigh pairs itself (the encoder
//! does) nor trust a pass that its certificate refuses.

use super::candidates::{JOINED_NEAR, NEAR, PairSet, initial_candidates};
use super::encode::Encoder;
use super::field::Field;
use super::pieces::{PIECEWISE_FROM, piecewise_start};
use super::price::price;
use crate::pairing::blossom::{Optimum, PerfectMatcher, reserve_more};
use crate::pairing::wide::Weight;

/// What the whole-field matching produced.
#[derive(Debug, Default)]
pub(super) struct Solved {
    pub(super) pairs: Vec<(usize, usize)>,
    pub(super) bye: Option<usize>,
}

/// The whole field as one maximum-weight matching, exact at every size.
///
/// Every legal pair is a potential edge, but the blossom solver only sees a sparse
/// candidate set (neighbours in pairing order and in the due-colour rows). After each
/// solve the matching's dual variables *price* every legal pair left out: a pair whose
/// reduced cost `y[i] + y[j] + 2·Σz − 2w` is negative could improve the matching, so it
/// is added and the problem solved again. When no left-out pair has a negative reduced
/// cost, the duals are feasible for the complete graph and satisfy complementary
/// slackness with the matching, so by LP duality the matching is optimal over every
/// legal pair — the same optimum as one dense solve, proven per round rather than hoped
/// for. Pricing lists pairs by a lower bound on their reduced cost (score groups,
/// due-colour rows, distance in pairing order and the blossoms both players share; see
/// [`price`]), so it touches only pairs that could possibly price in. `all_edges` gives
/// the blossom solver every legal pair at once (the dense reference). In debug builds
/// (every test) the certificate is also checked over every legal pair.
pub(super) fn priced<W: Weight>(
    field: &Field,
    bye: &[usize],
    hint: &[usize],
    all_edges: bool,
    enc: &Encoder<W>,
) -> Solved {
    let n = field.players.len();
    let with_sink = !bye.is_empty();
    let total = n + usize::from(with_sink);
    // Everyone is paired (and the bye sink taken when the field is odd): a perfect
    // matching of minimum cost, so a pair weighs minus its cost.
    let mut seen = PairSet::default();
    let mut edges: Vec<(usize, usize, W)> = Vec::new();
    let weight = |i: usize, j: usize| -enc.cost(&field.pair_terms(i, j));
    let push = |i: usize, j: usize, edges: &mut Vec<(usize, usize, W)>, seen: &mut PairSet| {
        if i != j && seen.insert(i, j) && field.legal(i, j) {
            edges.push((i.min(j), i.max(j), weight(i, j)));
        }
    };
    if all_edges {
        for i in 0..n {
            for j in i + 1..n {
                push(i, j, &mut edges, &mut seen);
            }
        }
    } else {
        initial_candidates(field, NEAR, &mut |i, j| push(i, j, &mut edges, &mut seen));
        // A legal perfect pairing among the candidates guarantees the sparse solve pairs
        // everyone.
        for (i, &j) in hint.iter().enumerate() {
            if j < n && i < j {
                push(i, j, &mut edges, &mut seen);
            }
        }
    }
    if with_sink {
        for &i in bye {
            edges.push((i, n, -enc.cost(&field.leaving_terms(i, n - i))));
        }
    }
    let mut solver = if !all_edges && n > PIECEWISE_FROM {
        let (groups, added) = piecewise_start(field, enc, &edges);
        reserve_more(&mut edges, added.len());
        for &(u, v, w) in &added {
            seen.insert(u, v);
            edges.push((u, v, w));
        }
        drop(added);
        // The whole field's solve also sees the pairs of a wider window ([`JOINED_NEAR`]),
        // added to the joined groups; listed before the join, so that the list's growth
        // has given back what it no longer uses before the solver holds its copy.
        let first = edges.len();
        initial_candidates(field, JOINED_NEAR, &mut |i, j| {
            push(i, j, &mut edges, &mut seen);
        });
        edges.shrink_to_fit();
        // Should one scale for every group need more bits than `W` has: start cold
        // (slower, the same optimum).
        let mut joined = PerfectMatcher::join(total, &edges[..first], groups)
            .unwrap_or_else(|| PerfectMatcher::cold(total, &edges[..first]));
        if !joined.add_edges(&edges[first..]) {
            joined = PerfectMatcher::cold(total, &edges);
        }
        joined
    } else {
        PerfectMatcher::cold(total, &edges)
    };
    let opt = if all_edges {
        let opt = solver
            .solve()
            .expect("the legal pairs hold a perfect pairing");
        debug_assert_eq!(opt.certify(&edges), Ok(()), "optimality certificate");
        opt
    } else {
        let opt = price_to_optimum(field, enc, &mut solver, total, &mut edges, &mut seen);
        assert!(opt.perfect(), "the candidate pairs hold a perfect pairing");
        opt
    };
    // Where the tests run, check the proof over every legal pair rather than trust the
    // bounds `price` skips pairs by (docs/rules.md §2.6).
    if cfg!(debug_assertions) && !all_edges {
        let mut every = edges.clone();
        for i in 0..n {
            for j in i + 1..n {
                if !seen.contains(i, j) && field.legal(i, j) {
                    every.push((i, j, weight(i, j)));
                }
            }
        }
        debug_assert_eq!(
            opt.certify(&every),
            Ok(()),
            "certificate over every legal pair"
        );
    }
    let mut out = Solved::default();
    for a in 0..n {
        match opt.mate[a] {
            Some(b) if b < n => {
                if a < b {
                    out.pairs.push((a, b));
                }
            }
            Some(_) => out.bye = Some(a),
            None => unreachable!("the matching is perfect"),
        }
    }
    out
}

/// Column generation from `solver`'s state over `field`'s players (and a sink `total − 1`
/// when `total` exceeds them): solve, price the legal pairs not yet in `edges` (and
/// `seen`) against the optimum's duals, add those that could lower the cost, and solve
/// again from that optimum, until a pass finds none — the optimum over every legal pair,
/// certified by its duals (docs/rules.md §2.6). A solve that cannot pair everyone is
/// returned as it is, unpriced.
pub(super) fn price_to_optimum<W: Weight>(
    field: &Field,
    enc: &Encoder<W>,
    solver: &mut PerfectMatcher<W>,
    total: usize,
    edges: &mut Vec<(usize, usize, W)>,
    seen: &mut PairSet,
) -> Optimum<W> {
    // The last pass's optimum, proven over the edges it had.
    let mut proven: Option<Optimum<W>> = None;
    // Pairs whose reduced cost is below this are priced in, not only below 0 (see below).
    let mut margin = W::ZERO;
    loop {
        let mut opt = solver.solve_partial();
        if !opt.perfect() {
            return opt;
        }
        balance_duals(&mut opt, total, edges);
        if opt.certify(edges).is_err() {
            // The safety net: every pass is checked, in every build, and a pass its
            // certificate refuses is solved again from the last proven optimum's duals
            // (or cold), which is proven in its turn. It caught the warm continuation's
            // stale best edge (`Matcher::retire`, fixed; docs/rules.md §2.6); the bench
            // reports how often it fires (`testing::refused_solves`; the target is never).
            super::super::blossom::note_refused_solve();
            let stop = solver.stops_at_free();
            *solver = match &proven {
                Some(last) => PerfectMatcher::warm(total, edges, &last.warm_duals(), &last.mate),
                None => PerfectMatcher::cold(total, edges),
            };
            solver.stop_at_free(stop);
            opt = solver.solve_partial();
            if !opt.perfect() {
                return opt;
            }
            balance_duals(&mut opt, total, edges);
            assert_eq!(opt.certify(edges), Ok(()), "optimality certificate");
        }
        let mut found = Vec::new();
        let mut got = price(field, enc, &opt, seen, &mut found, margin);
        if got.improving == 0 && got.crowded {
            // Pairs within the margin filled the list and ended the pass early: whether
            // any pair improves is known only from a complete pass without the margin.
            found.clear();
            got = price(field, enc, &opt, seen, &mut found, W::ZERO);
        }
        if got.improving == 0 {
            return opt;
        }
        // Near the optimum a pass often changes no pair, only duals, and each pass then
        // finds a few pairs just past the ones before: the duals' repair moves along
        // the blossoms a step per pass (round 9 of the 100,000-player fold-order chain
        // ended with 14 such passes, a full solve and pricing each). Then the next pass
        // also takes the pairs within as much again as the most improving pair fell
        // short, which the next repair is likely to push below 0.
        let unchanged = proven.as_ref().is_some_and(|last| last.mate == opt.mate);
        margin = if unchanged && got.improving <= MARGIN_BELOW {
            W::ZERO - got.most
        } else {
            W::ZERO
        };
        let first_new = edges.len();
        reserve_more(edges, found.len());
        for (i, j, w) in found {
            seen.insert(i, j);
            edges.push((i, j, w));
        }
        // The next pass goes on from this optimum with the solver's blossoms kept: only
        // what the new pairs unsettle is undone. Should keeping the duals whole need more
        // bits than the weight type has, it restarts from this optimum's duals with the
        // blossoms dissolved.
        if !solver.add_edges(&edges[first_new..]) {
            *solver = PerfectMatcher::warm(total, edges, &opt.warm_duals(), &opt.mate);
        }
        proven = Some(opt);
    }
}

/// Passes that change no pair and find at most this many improving pairs make the next
/// pass take pairs within a margin too ([`price_to_optimum`]). `cargo bench --bench
/// pairing -- --replay` of the 100,000-player fold-order chain's rounds (states saved with
/// `--chain 100000 --fold --save DIR`), CPU-s: round 5 29.3 -> 19.1, round 7 36.1 -> 21.8,
/// round 9 39.3 -> 22.0–23.3 (two runs); the CXA chain's rounds 3 and 5 and round 2 at
/// 30,000 players in fold order unchanged (11.1, 11.4, 8.6). A margin after every pass
/// that found no more than the field has players made round 2 at 30,000 players in fold
/// order take 22.6 s instead of 9.1: far from the optimum the most improving pair falls
/// short by a boundary's cost, and the margin then takes hundreds of thousands of pairs.
const MARGIN_BELOW: usize = 1000;

/// Spreads each matched pair's dual sum evenly between its two players where the other
/// candidate edges allow it (raise the lower dual, lower the higher one by the same amount,
/// never below any candidate edge's slack). The matching stays tight and the duals stay
/// feasible, so the certificate still holds; but the stage-based solver leaves players
/// matched late with very low duals and their partners with very high ones, which would
/// make pricing look at almost every pair. Balanced duals let its bounds skip them.
pub(super) fn balance_duals<W: Weight>(
    opt: &mut Optimum<W>,
    total: usize,
    edges: &[(usize, usize, W)],
) {
    // Each vertex's edges as indices into `edges`, one flat list (a list per vertex of
    // (neighbour, weight) copies was rebuilt on every pricing pass: 3.2 million wide
    // weights at 100,000 players).
    let mut start = vec![0usize; total + 1];
    for &(u, v, _) in edges {
        start[u + 1] += 1;
        start[v + 1] += 1;
    }
    for x in 0..total {
        start[x + 1] += start[x];
    }
    let mut fill = start.clone();
    let mut incident = vec![0u32; start[total]];
    for (k, &(u, v, _)) in edges.iter().enumerate() {
        let k = u32::try_from(k).expect("fewer than 2^32 candidate pairs");
        for end in [u, v] {
            incident[fill[end]] = k;
            fill[end] += 1;
        }
    }
    for a in 0..total {
        let Some(b) = opt.mate[a] else { continue };
        if b < a {
            continue;
        }
        let (hi, lo) = if opt.y[a] < opt.y[b] { (a, b) } else { (b, a) };
        // Move d from y[lo] to y[hi]; lo's other edges lose d of slack.
        let gap = (opt.y[lo] - opt.y[hi]).half();
        let mut d = gap;
        for &k in &incident[start[lo]..start[lo + 1]] {
            // Nothing moves once one edge is tight (most pairs have one): on round 9 of
            // the 100,000-player fold-order chain this halved the time spent here.
            if d <= W::ZERO {
                break;
            }
            let (u, v, w) = edges[k as usize];
            let x = if u == lo { v } else { u };
            if x != hi {
                d = d.min(opt.slack(lo, x, w));
            }
        }
        if d > W::ZERO {
            opt.y[hi] = opt.y[hi] + d;
            opt.y[lo] = opt.y[lo] - d;
        }
    }
}

/// Fields from this size solve their score groups ([`piecewise_start`]) and price
/// ([`price`]) on two threads; the result is the same either way. Chosen, not measured:
/// below it a whole round takes hundredths of a second, where starting a thread per
/// pass would be most of the gain.
const PARALLEL_FROM: usize = 2000;

/// Whether a field of `n` players runs its halves on two threads.
pub(super) fn on_threads(n: usize) -> bool {
    crate::threads::worth_two(n, PARALLEL_FROM)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::engine::bye_and_hint;
    use crate::pairing::engine::encode::field_encoder;
    use crate::pairing::engine::next_field;
    use crate::pairing::engine::pieces::PIECE_LEN;
    use crate::pairing::wide::{I192, I256, I384, I512};
    use crate::threads::FORCED;

    /// Score groups' pieces and solves are jobs whichever thread is free takes, and
    /// pricing splits its work into two halves fixed by the field alone, all on two
    /// threads for large fields: a 900-player field (solved from pieces of 100, then
    /// priced) pairs the same, table for table, on two threads and on one.
    #[test]
    fn threads_do_not_change_the_pairing() {
        use crate::pairing::simulate::synthetic_mid_event;
        let sim = synthetic_mid_event(900, 3, 9, 11);
        let field = next_field(&sim, 4, 11);
        let (bye, hint) = bye_and_hint(&field).expect("pairable");
        let enc = field_encoder::<I256>(&field).expect("wide enough");
        let runs = [true, false].map(|threads| {
            FORCED.with(|t| t.set(Some(threads)));
            // Pieces of 100 players, so pieces and the groups' solves from them are
            // jobs for both threads.
            PIECE_LEN.with(|p| p.set(Some(100)));
            let solved = priced(&field, &bye, &hint, false, &enc);
            PIECE_LEN.with(|p| p.set(None));
            FORCED.with(|t| t.set(None));
            (solved.pairs, solved.bye)
        });
        assert_eq!(runs[0].0.len(), 450, "everyone paired");
        assert_eq!(runs[0], runs[1]);
    }

    /// The solver is generic over the weight type and each field takes the narrowest
    /// that holds its criteria, so most types would only meet huge fields: here one
    /// field that needs more than `i128` (301 players, round 16) is paired in every wider
    /// type, with the same tables and bye.
    #[test]
    fn every_wide_type_pairs_a_field_alike() {
        use crate::pairing::simulate::synthetic_mid_event;
        let sim = synthetic_mid_event(301, 15, 16, 7);
        let field = next_field(&sim, 16, 7);
        assert!(
            field_encoder::<i128>(&field).is_none(),
            "needs more than i128"
        );
        let (bye, hint) = bye_and_hint(&field).expect("pairable");
        fn solve<W: Weight>(
            field: &Field,
            bye: &[usize],
            hint: &[usize],
        ) -> (Vec<(usize, usize)>, Option<usize>) {
            let enc = field_encoder::<W>(field).expect("wide enough");
            let solved = priced(field, bye, hint, false, &enc);
            (solved.pairs, solved.bye)
        }
        let narrow = solve::<I192>(&field, &bye, &hint);
        assert!(narrow.1.is_some(), "an odd field: the bye is compared too");
        assert_eq!(solve::<I256>(&field, &bye, &hint), narrow);
        assert_eq!(solve::<I384>(&field, &bye, &hint), narrow);
        assert_eq!(solve::<I512>(&field, &bye, &hint), narrow);
    }
}
