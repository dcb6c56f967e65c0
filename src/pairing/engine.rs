//! Rounds ≥ 2: one optimisation over the whole pool (RULES.md §2.3, §3, §4).
//!
//! Owns choosing who plays whom. Hard constraints (no rematch, colour limits, team
//! avoidance, one bye per player while anyone else can take it) are missing edges; the
//! soft criteria are integer weights of a maximum-weight matching, in strict priority:
//! (a) the bye to the lowest-scored eligible player, (b) from the top score group down
//! the fewest players crossing each score-group boundary, then the smallest squared score
//! differences (同分者编对，近分者编对), (c) the most players receiving the colour they are
//! due, (d) the rulebook's within-group order. The bye is a virtual vertex joined to the
//! eligible players of the lowest feasible (byes, score) tier.
//!
//! Up to [`DENSE_LIMIT`] players this is one matching over every legal pair, exactly
//! lexicographic as long as the levels fit in i128 (beyond that the lowest score-group
//! boundaries share one level; the exhaustive tests stay far below). Larger fields are
//! solved score group by score group from the top: each bracket is the incoming floaters,
//! its own group and up to two groups of look-ahead (a huge next group is cut to its top
//! players); candidate pairs are restricted to nearby places and widened to every pair
//! when the restricted bracket fails; after every bracket the rest must still be
//! pairable, else the whole rest is solved densely. Tests compare it with the dense
//! solver on mid-size and 1,000-player fields.

use super::blossom::max_weight_matching_any;
use super::context::{PlayerState, Rules};
use super::feasible::{has_perfect_matching, max_matching};
use crate::model::{Colour, Points};
use crate::rulebook::WithinGroup;

/// Which matching strategy to run (tests compare them; `Auto` is what `pair` uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Solver {
    /// Dense up to [`DENSE_LIMIT`] players, score-group decomposition above.
    #[default]
    Auto,
    /// One matching over every legal pair.
    Dense,
    /// Score groups from the top, candidate pairs restricted to nearby players.
    Decomposed,
}

/// Largest field solved with one dense matching under [`Solver::Auto`].
pub const DENSE_LIMIT: usize = 400;

/// Players within this many places (overall, or within their due-colour row) of each
/// other are candidate pairs in the decomposed solver before any widening.
const WINDOW: usize = 12;

/// Score groups below the current one that each bracket also solves (and then drops
/// again) so that its choice of floaters suits the groups they float into.
const LOOKAHEAD: usize = 2;

/// Brackets above this many players look only one group ahead.
const BIG_BRACKET: usize = 1500;

/// A one-group look-ahead larger than this (and than the bracket) is cut to its top.
const LOOKAHEAD_CAP: usize = 250;

/// The pool, ready to pair: pairable players in pairing order and their score groups.
pub struct Field<'a> {
    pub rules: Rules<'a>,
    pub players: Vec<PlayerState>,
    /// Score group of each player, 0 = top.
    pub group: Vec<usize>,
    /// Distinct scores, highest first.
    pub scores: Vec<Points>,
    /// Index of each player within its score group.
    in_group: Vec<usize>,
    /// Players per score group.
    pub group_size: Vec<usize>,
}

impl<'a> Field<'a> {
    /// Sorts the players into pairing order (RULES.md §2.4: score ↓, then the rulebook's
    /// within-group key, then 序号).
    pub fn new(rules: Rules<'a>, mut players: Vec<PlayerState>) -> Field<'a> {
        let odd_round = rules.round % 2 == 1;
        let rows = rules.rules.pairing.within_group == WithinGroup::AdjacentColourRows;
        players.sort_by(|a, b| {
            b.score.cmp(&a.score).then_with(|| {
                if rows {
                    // S15 fenzupaixu: larger |imbalance| first, then 序号 ascending in odd
                    // rounds and descending in even rounds.
                    let k = b.colour_diff().abs().cmp(&a.colour_diff().abs());
                    let num = (a.number, a.id).cmp(&(b.number, b.id));
                    k.then(if odd_round { num } else { num.reverse() })
                } else {
                    (a.number, a.id).cmp(&(b.number, b.id))
                }
            })
        });
        let mut scores: Vec<Points> = players.iter().map(|p| p.score).collect();
        scores.dedup();
        let group: Vec<usize> = players
            .iter()
            .map(|p| scores.iter().position(|s| *s == p.score).unwrap_or(0))
            .collect();
        let mut group_size = vec![0; scores.len()];
        let mut in_group = Vec::with_capacity(players.len());
        for &g in &group {
            in_group.push(group_size[g]);
            group_size[g] += 1;
        }
        Field {
            rules,
            players,
            group,
            scores,
            in_group,
            group_size,
        }
    }

    pub fn legal(&self, i: usize, j: usize) -> bool {
        self.rules.legal(&self.players[i], &self.players[j])
    }

    /// Criterion (d): how far the pair is from the rulebook's within-group order.
    fn order_cost(&self, i: usize, j: usize) -> i128 {
        let (a, b) = (i.min(j), i.max(j));
        if self.rules.rules.pairing.within_group == WithinGroup::FoldTopBottom
            && self.group[a] == self.group[b]
        {
            // FIDE-like: the top half meets the bottom half, 1 against h+1.
            let h = (self.group_size[self.group[a]] / 2) as i128;
            let d = (self.in_group[b] - self.in_group[a]) as i128;
            return (d - h) * (d - h);
        }
        (b - a) as i128
    }

    fn pair_terms(&self, i: usize, j: usize) -> Terms {
        let (gi, gj) = (self.group[i], self.group[j]);
        let d = (self.players[i].score - self.players[j].score).0 as i128;
        Terms {
            top: gi.min(gj),
            bottom: gi.max(gj),
            sq: d * d,
            misses: self.rules.colour_misses(&self.players[i], &self.players[j]) as i128,
            order: self.order_cost(i, j),
        }
    }
}

/// The cost parts of one pair (or of a player and a sink).
#[derive(Debug, Clone, Copy)]
struct Terms {
    /// Boundaries `top..bottom` are crossed (boundary g lies below score group g).
    top: usize,
    bottom: usize,
    sq: i128,
    misses: i128,
    order: i128,
}

/// Lexicographic weights for a set of pairs over boundaries `first..last`.
struct Encoder {
    first: usize,
    /// Boundaries from `first` up to (not including) `split` get their own level; the
    /// rest share one (only when i128 would overflow otherwise).
    split: usize,
    unit_boundary: Vec<i128>,
    unit_rest: i128,
    unit_sq: i128,
    unit_miss: i128,
    /// More than any total cost: the weight of having a player matched at all.
    ceiling: i128,
}

/// Largest level unit: pair weights stay below 2^119, doubled and summed in the blossom
/// duals they stay well inside i128.
const WEIGHT_CAP: i128 = 1 << 118;

impl Encoder {
    /// `items` bounds how many terms one solution sums (pairs plus leftovers); `caps[k]`
    /// bounds how many of them cross boundary `first + k`.
    fn new(terms: &[Terms], first: usize, caps: &[i128], items: usize) -> Encoder {
        let p = items as i128 + 1;
        let max_order = terms.iter().map(|t| t.order).max().unwrap_or(0).max(0);
        let max_sq = terms.iter().map(|t| t.sq).max().unwrap_or(0).max(0);
        let unit_miss = p * max_order + 1;
        let unit_sq = unit_miss * (2 * p + 1);
        let base = unit_sq * (p * max_sq + 1);
        let levels = caps.len();
        for kept in (0..=levels).rev() {
            // Lowest levels first: the merged rest, then kept levels bottom-up.
            let merged: i128 = caps[kept..].iter().sum();
            let mut unit = base;
            let unit_rest = unit;
            if kept < levels {
                match unit.checked_mul(merged + 1) {
                    Some(u) => unit = u,
                    None => continue,
                }
            }
            let mut units = vec![0; kept];
            let mut ok = true;
            for k in (0..kept).rev() {
                units[k] = unit;
                match unit.checked_mul(caps[k] + 1) {
                    Some(u) if u < WEIGHT_CAP => unit = u,
                    _ => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok && unit < WEIGHT_CAP {
                return Encoder {
                    first,
                    split: first + kept,
                    unit_boundary: units,
                    unit_rest,
                    unit_sq,
                    unit_miss,
                    ceiling: unit,
                };
            }
        }
        // Even one merged level is too wide only for absurd score ranges; keep the
        // order of the remaining criteria.
        Encoder {
            first,
            split: first,
            unit_boundary: Vec::new(),
            unit_rest: base,
            unit_sq,
            unit_miss,
            ceiling: base * 2,
        }
    }

    fn cost(&self, t: &Terms) -> i128 {
        let mut c = t.sq * self.unit_sq + t.misses * self.unit_miss + t.order;
        for b in t.top.max(self.first)..t.bottom {
            c += if b < self.split {
                self.unit_boundary[b - self.first]
            } else {
                self.unit_rest
            };
        }
        c
    }
}

/// One matching problem: some players and an optional bye sink.
struct Problem<'p> {
    verts: Vec<usize>,
    /// Players who may take the bye (the bye sink is added when non-empty).
    bye: &'p [usize],
    /// The score group below these players: a player left unmatched floats down to it
    /// (costed as crossing down to it). `None`: nobody may be left over.
    below: Option<usize>,
    /// Look-ahead players who may stay unmatched at no cost (a truncated look-ahead
    /// group: the rest of their group is still to come).
    free: &'p [usize],
    /// Players whose candidate pairs are never restricted (incoming floaters).
    wide: &'p [usize],
    full_edges: bool,
}

/// What a matching problem produced.
#[derive(Debug, Default)]
struct Solved {
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
    /// Players left unmatched (they float down).
    left: Vec<usize>,
}

fn solve(field: &Field, prob: &Problem) -> Solved {
    let verts = &prob.verts;
    let n = verts.len();
    let bye_sink = (!prob.bye.is_empty()).then_some(n);
    let total = n + usize::from(bye_sink.is_some());

    let mut candidate: Vec<(usize, usize)> = Vec::new();
    if prob.full_edges || n <= 4 * WINDOW {
        for a in 0..n {
            for b in a + 1..n {
                candidate.push((a, b));
            }
        }
    } else {
        windowed_candidates(field, prob, &mut candidate);
    }
    let mut edges: Vec<(usize, usize, Terms)> = Vec::with_capacity(candidate.len() + n);
    for (a, b) in candidate {
        let (i, j) = (verts[a], verts[b]);
        if field.legal(i, j) {
            edges.push((a, b, field.pair_terms(i, j)));
        }
    }
    let last_pos = field.players.len() as i128;
    if let Some(s) = bye_sink {
        for (a, &i) in verts.iter().enumerate() {
            if prob.bye.contains(&i) {
                let g = field.group[i];
                // Criterion (d) for the bye: the lowest-placed candidate first.
                let order = last_pos - i as i128;
                edges.push((
                    a,
                    s,
                    Terms {
                        top: g,
                        bottom: g,
                        sq: 0,
                        misses: 0,
                        order,
                    },
                ));
            }
        }
    }
    // What leaving a player unmatched costs: floating down to the group below.
    let leftover: Vec<Option<Terms>> = verts
        .iter()
        .map(|&i| {
            if prob.free.contains(&i) {
                return Some(Terms {
                    top: field.group[i],
                    bottom: field.group[i],
                    sq: 0,
                    misses: 0,
                    order: 0,
                });
            }
            prob.below.map(|dg| {
                let d = (field.players[i].score - field.scores[dg]).0 as i128;
                Terms {
                    top: field.group[i],
                    bottom: dg,
                    sq: d * d,
                    misses: 0,
                    order: 0,
                }
            })
        })
        .collect();
    let first = verts.iter().map(|&i| field.group[i]).min().unwrap_or(0);
    let last = prob
        .below
        .unwrap_or_else(|| verts.iter().map(|&i| field.group[i]).max().unwrap_or(0));
    let mut terms: Vec<Terms> = edges.iter().map(|e| e.2).collect();
    terms.extend(leftover.iter().flatten().copied());
    // At most min(players above, players below) pairs cross a boundary; with leftovers
    // allowed, every player above may cross it.
    let mut above = vec![0i128; last.saturating_sub(first)];
    let mut below_n = vec![0i128; above.len()];
    for &i in verts {
        for (k, b) in (first..last).enumerate() {
            if field.group[i] <= b {
                above[k] += 1;
            } else {
                below_n[k] += 1;
            }
        }
    }
    let caps: Vec<i128> = above
        .iter()
        .zip(&below_n)
        .map(|(&a, &b)| if prob.below.is_some() { a } else { a.min(b) })
        .collect();
    let enc = Encoder::new(&terms, first, &caps, total);
    // Weight = what matching both ends saves over leaving them unmatched, minus the
    // pair's cost; a player who may not be left over saves more than any cost.
    let bonus = |a: usize| -> i128 {
        if a == n {
            return enc.ceiling;
        }
        leftover[a].map_or(enc.ceiling, |t| enc.cost(&t))
    };
    let weighted: Vec<(usize, usize, i128)> = edges
        .iter()
        .map(|(a, b, t)| (*a, *b, bonus(*a) + bonus(*b) - enc.cost(t)))
        .collect();
    let mate = max_weight_matching_any(total, &weighted);
    let mut out = Solved::default();
    for a in 0..n {
        match mate[a] {
            Some(b) if b < n => {
                if a < b {
                    out.pairs.push((verts[a], verts[b]));
                }
            }
            Some(b) if Some(b) == bye_sink => out.bye = Some(verts[a]),
            _ => out.left.push(verts[a]),
        }
    }
    out
}

/// Candidate pairs near each other: within [`WINDOW`] places overall, or at about the
/// same place of the due-colour rows (so the k-th due-red player can meet the k-th
/// due-black one, S15 异行配对). Floaters in `wide` keep every pair.
fn windowed_candidates(field: &Field, prob: &Problem, out: &mut Vec<(usize, usize)>) {
    let verts = &prob.verts;
    let n = verts.len();
    let class = |i: usize| match field.players[i].due() {
        Some(Colour::Red) => 0,
        Some(Colour::Black) => 1,
        None => 2,
    };
    let mut rows: [Vec<usize>; 3] = Default::default();
    let mut row_rank = vec![0; n];
    for (a, &i) in verts.iter().enumerate() {
        let c = class(i);
        row_rank[a] = rows[c].len();
        rows[c].push(a);
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut add = |a: usize, b: usize, out: &mut Vec<(usize, usize)>| {
        if a != b && seen.insert((a.min(b), a.max(b))) {
            out.push((a.min(b), a.max(b)));
        }
    };
    for a in 0..n {
        if prob.wide.contains(&verts[a]) {
            for b in 0..n {
                add(a, b, out);
            }
            continue;
        }
        for b in a.saturating_sub(WINDOW)..(a + WINDOW + 1).min(n) {
            add(a, b, out);
        }
        let r = row_rank[a];
        for row in &rows {
            for &b in &row[r.saturating_sub(WINDOW).min(row.len())..(r + WINDOW + 1).min(row.len())]
            {
                add(a, b, out);
            }
        }
    }
}

/// The pairs and the bye chosen for a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matched {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
    /// Players who could have taken the bye (criterion (a)'s eligible set).
    pub bye_candidates: Vec<usize>,
}

/// Why no legal pairing exists, as indices into the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stuck {
    /// Players left over by a maximum matching.
    pub unmatched: Vec<usize>,
}

/// Whether `players` (plus a bye sink over `bye` when non-empty) can all be paired.
pub(crate) fn feasible(field: &Field, players: &[usize], bye: &[usize]) -> bool {
    let n = players.len();
    let with_sink = !bye.is_empty();
    let total = n + usize::from(with_sink);
    let mut may_bye = vec![false; field.players.len()];
    for &b in bye {
        may_bye[b] = true;
    }
    let adj = |a: usize, b: usize| {
        if a == n || b == n {
            let o = if a == n { b } else { a };
            return may_bye[players[o]];
        }
        field.legal(players[a], players[b])
    };
    has_perfect_matching(total, &adj)
}

/// Tiers of bye candidates in criterion (a) order: fewest byes so far (the hard rule: a
/// second bye only while nobody else can take it), then the lowest score. Under that
/// hard rule both `ByeChoice` settings (未曾轮空过的最低分 / 最低分中轮空最少的, §4.2)
/// give the same order, so the setting needs no branch here.
fn bye_tiers(field: &Field) -> Vec<Vec<usize>> {
    let mut keys: Vec<(u32, Points)> = field.players.iter().map(|p| (p.byes, p.score)).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|k| {
            (0..field.players.len())
                .filter(|&i| (field.players[i].byes, field.players[i].score) == k)
                .collect()
        })
        .collect()
}

/// Pairs the field; `Err` carries who is left over when no legal pairing exists.
pub fn pair_field(field: &Field, solver: Solver) -> Result<Matched, Stuck> {
    let n = field.players.len();
    let all: Vec<usize> = (0..n).collect();
    let mut bye_candidates = Vec::new();
    if n % 2 == 1 {
        for tier in bye_tiers(field) {
            if feasible(field, &all, &tier) {
                bye_candidates = tier;
                break;
            }
        }
        if bye_candidates.is_empty() {
            return Err(stuck(field, &all));
        }
    } else if !feasible(field, &all, &[]) {
        return Err(stuck(field, &all));
    }
    let solved = match solver {
        Solver::Decomposed => decomposed(field, &bye_candidates),
        Solver::Dense => priced(field, &bye_candidates, true).0,
        Solver::Auto => priced(field, &bye_candidates, false).0,
    };
    if !solved.left.is_empty() || (n % 2 == 1) != solved.bye.is_some() {
        return Err(stuck(field, &all));
    }
    Ok(Matched {
        pairs: solved.pairs,
        bye: solved.bye,
        bye_candidates,
    })
}

/// Candidate pairs per player in the first sparse solve: this many legal players after it
/// in pairing order, and this many around its place in each due-colour row.
const NEAR: usize = 6;

/// What one exact solve did (tests and the benchmark read it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Edges in the final matching problem.
    pub edges: usize,
    /// Blossom solves (1 + pricing rounds that found an improving pair).
    pub solves: usize,
    /// Pairs added by pricing.
    pub priced_in: usize,
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
/// for. Pricing skips whole blocks of pairs with a lower bound on their cost (score
/// groups, due-colour rows and distance in pairing order), so it touches only pairs
/// that could possibly price in. `all_edges` gives the blossom solver every legal pair
/// at once (the dense reference).
fn priced(field: &Field, bye: &[usize], all_edges: bool) -> (Solved, SolveStats) {
    let n = field.players.len();
    let with_sink = !bye.is_empty();
    let total = n + usize::from(with_sink);
    let enc = field_encoder(field);
    // Everyone is paired (and the bye sink taken when the field is odd): a perfect
    // matching of minimum cost, so a pair weighs minus its cost.
    let hint = perfect_pairing(field, bye);
    let mut seen: std::collections::HashSet<u64> = std::collections::HashSet::new();
    let key = |a: usize, b: usize| ((a.min(b) as u64) << 32) | a.max(b) as u64;
    let mut edges: Vec<(usize, usize, i128)> = Vec::new();
    let weight = |i: usize, j: usize| -enc.cost(&field.pair_terms(i, j));
    let mut push = |i: usize, j: usize, edges: &mut Vec<(usize, usize, i128)>| {
        if i != j && seen.insert(key(i, j)) && field.legal(i, j) {
            edges.push((i.min(j), i.max(j), weight(i, j)));
        }
    };
    if all_edges {
        for i in 0..n {
            for j in i + 1..n {
                push(i, j, &mut edges);
            }
        }
    } else {
        initial_candidates(field, &mut |i, j| push(i, j, &mut edges));
        // A legal perfect pairing among the candidates guarantees the sparse solve pairs
        // everyone.
        for (i, &j) in hint.iter().enumerate() {
            if j < n && i < j {
                push(i, j, &mut edges);
            }
        }
    }
    if with_sink {
        let last_pos = n as i128;
        for &i in bye {
            let g = field.group[i];
            let order = last_pos - i as i128;
            let t = Terms {
                top: g,
                bottom: g,
                sq: 0,
                misses: 0,
                order,
            };
            edges.push((i, n, -enc.cost(&t)));
        }
    }
    let mut stats = SolveStats::default();
    let opt = loop {
        let opt = super::blossom::max_weight_perfect_matching_dual(total, &edges)
            .expect("the candidate pairs hold a perfect pairing");
        stats.solves += 1;
        debug_assert_eq!(opt.certify(&edges), Ok(()), "optimality certificate");
        let mut found = Vec::new();
        if !all_edges {
            price(field, &enc, &opt, &seen, &mut found);
        }
        if found.is_empty() {
            break opt;
        }
        stats.priced_in += found.len();
        for (i, j) in found {
            seen.insert(key(i, j));
            edges.push((i, j, weight(i, j)));
        }
    };
    stats.edges = edges.len();
    let mut out = Solved::default();
    for a in 0..n {
        match opt.mate[a] {
            Some(b) if b < n => {
                if a < b {
                    out.pairs.push((a, b));
                }
            }
            Some(_) => out.bye = Some(a),
            None => out.left.push(a),
        }
    }
    (out, stats)
}

/// The encoder for a whole-field solve, from bounds that hold for every pair (so pricing
/// can weigh pairs the first solve never saw).
fn field_encoder(field: &Field) -> Encoder {
    let n = field.players.len();
    let spread = match (field.scores.first(), field.scores.last()) {
        (Some(hi), Some(lo)) => (*hi - *lo).0 as i128,
        _ => 0,
    };
    let fold = field.rules.rules.pairing.within_group == WithinGroup::FoldTopBottom;
    let biggest = field.group_size.iter().copied().max().unwrap_or(0) as i128;
    let max_order = if fold {
        (n as i128).max(biggest * biggest)
    } else {
        n as i128
    };
    let bound = Terms {
        top: 0,
        bottom: 0,
        sq: spread * spread,
        misses: 2,
        order: max_order,
    };
    let groups = field.scores.len();
    let mut caps = Vec::with_capacity(groups.saturating_sub(1));
    let mut above = 0i128;
    for g in 0..groups.saturating_sub(1) {
        above += field.group_size[g] as i128;
        caps.push(above.min(n as i128 - above));
    }
    Encoder::new(&[bound], 0, &caps, n / 2 + 1)
}

/// First candidate pairs: for each player the next [`NEAR`] legal players in pairing
/// order, and within each score group the players at about the same place of the other
/// due-colour rows (S15 异行配对 pairs the k-th due-red player with the k-th due-black).
fn initial_candidates(field: &Field, add: &mut dyn FnMut(usize, usize)) {
    let n = field.players.len();
    for i in 0..n {
        let mut found = 0;
        for j in i + 1..n.min(i + 1 + 8 * NEAR) {
            if field.legal(i, j) {
                add(i, j);
                found += 1;
                if found == NEAR {
                    break;
                }
            }
        }
    }
    let mut start = 0;
    for &size in &field.group_size {
        let members = start..start + size;
        let mut rows: [Vec<usize>; 3] = Default::default();
        for i in members {
            rows[colour_class(&field.players[i])].push(i);
        }
        for a in 0..3 {
            for b in a..3 {
                let (ra, rb) = (&rows[a], &rows[b]);
                for (k, &i) in ra.iter().enumerate() {
                    // Same place in the other row, scaled to its length.
                    let at = if ra.is_empty() {
                        0
                    } else {
                        k * rb.len() / ra.len()
                    };
                    let lo = at.saturating_sub(NEAR);
                    for &j in &rb[lo.min(rb.len())..(at + NEAR + 1).min(rb.len())] {
                        add(i, j);
                    }
                }
            }
        }
        start += size;
    }
}

fn colour_class(p: &PlayerState) -> usize {
    match p.due() {
        Some(Colour::Red) => 0,
        Some(Colour::Black) => 1,
        None => 2,
    }
}

/// A legal perfect pairing of the field (with the bye sink `n` when `bye` is not empty),
/// as `mate[v]`; the caller has checked one exists.
fn perfect_pairing(field: &Field, bye: &[usize]) -> Vec<usize> {
    let n = field.players.len();
    let with_sink = !bye.is_empty();
    let mut may_bye = vec![false; n];
    for &b in bye {
        may_bye[b] = true;
    }
    let adj = |a: usize, b: usize| {
        if a == n || b == n {
            return may_bye[a.min(b)];
        }
        field.legal(a, b)
    };
    max_matching(n + usize::from(with_sink), &adj)
}

/// Every legal pair not yet an edge whose reduced cost under `opt` is negative.
///
/// Pair `(i, j)` weighs `−cost(i, j)`; without blossom duals (which only raise it) its
/// reduced cost is `scale·2·cost(i, j) − key[i] − key[j]` with `key[v] = −y[v]`. The
/// cost is at least the score-group part for the two groups, one colour miss when both
/// are due the same colour, and (outside fold order) the distance in pairing order; a
/// block of players whose best key cannot beat that bound is skipped whole.
fn price(
    field: &Field,
    enc: &Encoder,
    opt: &super::blossom::Optimum,
    seen: &std::collections::HashSet<u64>,
    found: &mut Vec<(usize, usize)>,
) {
    let n = field.players.len();
    let fold = field.rules.rules.pairing.within_group == WithinGroup::FoldTopBottom;
    let keyv: Vec<i128> = (0..n).map(|v| -opt.y[v]).collect();
    // Reduced cost of (i, j) without blossoms: f·cost(i, j) − key[i] − key[j].
    let f = 2 * opt.scale();
    let class: Vec<usize> = field.players.iter().map(colour_class).collect();
    let groups = field.scores.len();
    // Blocks (score group, due class) in pairing order, with their best key.
    let mut blocks: Vec<(Vec<usize>, i128)> = vec![(Vec::new(), i128::MIN); groups * 3];
    for v in 0..n {
        let b = &mut blocks[field.group[v] * 3 + class[v]];
        b.0.push(v);
        b.1 = b.1.max(keyv[v]);
    }
    for i in 0..n {
        let gi = field.group[i];
        for h in gi..groups {
            let d = (field.players[i].score - field.scores[h]).0 as i128;
            for c in 0..3 {
                let (members, best) = &blocks[h * 3 + c];
                if members.is_empty() {
                    continue;
                }
                let lb = enc.cost(&Terms {
                    top: gi,
                    bottom: h,
                    sq: d * d,
                    misses: i128::from(c == class[i] && c != 2),
                    order: 0,
                });
                if keyv[i] + best <= f * lb {
                    continue;
                }
                let from = members.partition_point(|&j| j <= i);
                for &j in &members[from..] {
                    let dist = if fold && h == gi { 0 } else { (j - i) as i128 };
                    let bound = f * (lb + dist);
                    if keyv[i] + best <= bound {
                        break;
                    }
                    if keyv[i] + keyv[j] <= bound
                        || seen.contains(&(((i as u64) << 32) | j as u64))
                        || !field.legal(i, j)
                    {
                        continue;
                    }
                    let w = -enc.cost(&field.pair_terms(i, j));
                    if opt.slack(i, j, w) < 0 {
                        found.push((i, j));
                    }
                }
            }
        }
    }
}

fn stuck(field: &Field, players: &[usize]) -> Stuck {
    let mate = max_matching(players.len(), &|a, b| field.legal(players[a], players[b]));
    Stuck {
        unmatched: (0..players.len())
            .filter(|&a| mate[a] == usize::MAX)
            .map(|a| players[a])
            .collect(),
    }
}

/// One accepted bracket: the pairs (and bye) kept, the players still to pair per score
/// group, the floaters carried down, and whether the bye is still open.
type Step = (Solved, Vec<Vec<usize>>, Vec<usize>, bool);

/// Score groups from the top: each bracket is the incoming floaters, its own group and
/// up to two groups of look-ahead; only pairs touching the floaters or its own group are
/// kept, the rest of the look-ahead is solved again in later brackets. After every
/// bracket the rest must still be pairable, else the bracket is re-solved with every
/// candidate pair, and failing that the whole rest is solved densely.
fn decomposed(field: &Field, bye_candidates: &[usize]) -> Solved {
    let groups = field.scores.len();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); groups];
    for i in 0..field.players.len() {
        members[field.group[i]].push(i);
    }
    let bye_group = bye_candidates.first().map(|&i| field.group[i]);
    let mut out = Solved::default();
    let mut floaters: Vec<usize> = Vec::new();
    let mut bye_pending = !bye_candidates.is_empty();
    for k in 0..groups {
        let rest_of = |floaters: &[usize], members: &[Vec<usize>], from: usize| -> Vec<usize> {
            let mut r = floaters.to_vec();
            for m in &members[from..] {
                r.extend_from_slice(m);
            }
            r
        };
        let mut verts: Vec<usize> = floaters.clone();
        verts.extend_from_slice(&members[k]);
        let settled_len = verts.len();
        let mut settled = vec![false; field.players.len()];
        for &v in &verts {
            settled[v] = true;
        }
        // Look two groups ahead while that stays small, else one (keeps 10,000 fast).
        let mut ahead_end = (k + 1 + LOOKAHEAD).min(groups);
        while ahead_end > k + 2
            && verts.len()
                + members[k + 1..ahead_end]
                    .iter()
                    .map(Vec::len)
                    .sum::<usize>()
                > BIG_BRACKET
        {
            ahead_end -= 1;
        }
        // A large bracket facing a large next group sees only that group's top players
        // (the ones its floaters would meet); they may stay unmatched at no cost.
        let truncate =
            k + 1 < groups && settled_len > LOOKAHEAD_CAP && members[k + 1].len() > LOOKAHEAD_CAP;
        if truncate {
            ahead_end = k + 2;
        }
        let mut free: Vec<usize> = Vec::new();
        for m in &members[k + 1..ahead_end] {
            if truncate {
                verts.extend_from_slice(&m[..LOOKAHEAD_CAP]);
                free.extend_from_slice(&m[..LOOKAHEAD_CAP]);
            } else {
                verts.extend_from_slice(m);
            }
        }
        verts.sort_unstable();
        // The bye sink joins every bracket that sees the bye's score group, so the floats
        // chosen above suit the bye; it is committed only in that group's own bracket.
        let with_bye = bye_pending && bye_group.is_some_and(|g| (k..ahead_end).contains(&g));
        let bye: &[usize] = if with_bye { bye_candidates } else { &[] };
        let below = (ahead_end < groups).then_some(ahead_end);
        let attempt = |full: bool| -> Option<Step> {
            let s = solve(
                field,
                &Problem {
                    verts: verts.clone(),
                    bye,
                    below,
                    free: &free,
                    wide: &floaters,
                    full_edges: full,
                },
            );
            let mut next_members = members.clone();
            let mut kept = Solved::default();
            let mut next_floaters = Vec::new();
            for &(a, b) in &s.pairs {
                if settled[a] || settled[b] {
                    kept.pairs.push((a, b));
                    for m in &mut next_members[k + 1..ahead_end] {
                        m.retain(|&x| x != a && x != b);
                    }
                }
            }
            let mut bye_now = bye_pending;
            if let Some(b) = s.bye.filter(|_| bye_group == Some(k)) {
                kept.bye = Some(b);
                bye_now = false;
                for m in &mut next_members[k + 1..ahead_end] {
                    m.retain(|&x| x != b);
                }
            }
            for &x in &s.left {
                if settled[x] {
                    next_floaters.push(x);
                }
            }
            if bye_group == Some(k) && bye_pending && s.bye.is_none() {
                return None;
            }
            next_members[k].clear();
            let rest = rest_of(&next_floaters, &next_members, (k + 1).min(groups));
            let rest = if k + 1 < groups {
                rest
            } else {
                next_floaters.clone()
            };
            let bye_rest: Vec<usize> = if bye_now {
                bye_candidates
                    .iter()
                    .copied()
                    .filter(|c| rest.contains(c))
                    .collect()
            } else {
                Vec::new()
            };
            if bye_now && bye_rest.is_empty() {
                return None;
            }
            feasible(field, &rest, &bye_rest).then_some((
                kept,
                next_members,
                next_floaters,
                bye_now,
            ))
        };
        // Widen to every candidate pair only when the nearby pairs leave someone of this
        // bracket unpaired or the rest unpairable.
        let result = match attempt(false) {
            Some(step) if step.2.is_empty() || verts.len() <= 4 * WINDOW => Some(step),
            narrow => match (narrow, attempt(true)) {
                (Some(n), Some(w)) => Some(if w.2.len() < n.2.len() { w } else { n }),
                (n, w) => w.or(n),
            },
        };
        match result {
            Some((kept, next_members, next_floaters, bye_now)) => {
                out.pairs.extend(kept.pairs);
                if kept.bye.is_some() {
                    out.bye = kept.bye;
                }
                members = next_members;
                floaters = next_floaters;
                bye_pending = bye_now;
            }
            None => {
                let rest = rest_of(&floaters, &members, k);
                let bye: Vec<usize> = if bye_pending {
                    bye_candidates.to_vec()
                } else {
                    Vec::new()
                };
                let s = solve(
                    field,
                    &Problem {
                        verts: rest,
                        bye: &bye,
                        below: None,
                        free: &[],
                        wide: &[],
                        full_edges: true,
                    },
                );
                out.pairs.extend(s.pairs);
                if s.bye.is_some() {
                    out.bye = s.bye;
                }
                out.left.extend(s.left);
                return out;
            }
        }
    }
    out.left.extend(floaters);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(top: usize, bottom: usize, sq: i128, misses: i128, order: i128) -> Terms {
        Terms {
            top,
            bottom,
            sq,
            misses,
            order,
        }
    }

    #[test]
    fn weights_are_lexicographic() {
        // (one unit of a criterion, the largest term of everything below it); six of the
        // latter (the most one solution can sum here) must still cost less.
        let cases = [
            (t(0, 1, 0, 0, 0), t(1, 3, 64, 2, 40)),
            (t(1, 2, 0, 0, 0), t(2, 3, 64, 2, 40)),
            (t(3, 3, 1, 0, 0), t(3, 3, 0, 2, 40)),
            (t(3, 3, 0, 1, 0), t(3, 3, 0, 0, 40)),
        ];
        for (high, low) in cases {
            let enc = Encoder::new(&[t(1, 3, 64, 2, 40)], 0, &[6, 6, 6], 6);
            assert!(enc.cost(&high) > 6 * enc.cost(&low), "{high:?} vs {low:?}");
        }
    }
}
