//! First candidate pairs for one score group in fold order (docs/rules.md §2.6).
//!
//! In fold order a pair of one score group of `n` players costs `(|i − j| − h)²` on the
//! order level, `h = n / 2`: place `i` against place `i + h`. Put the group's places on a
//! circle of length `n` and give every player a role, red or black, by the colour it
//! would get; a black player at place `j` is drawn at `j + h` (mod `n`). A red–black pair
//! then costs the square of the distance along the circle between its two points, and
//! with as many points of each role, the cheapest way to pair every red point with a
//! black one keeps both in circular order: the k-th red point meets the (k + s)-th black
//! one for one shift `s`. That is what the group's optimum does once its roles are
//! known (measured on a 9,891-player score group of a 30,000-player event in fold order:
//! every one of its 4,945 pairs was the k-th red against the (k + 345)-th black).
//!
//! The roles are what is unknown: players due red take red and those due black take
//! black, but players due neither colour (and, when one due colour outnumbers half the
//! group, some of its players, each then missing it) may take either. [`roles`] chooses
//! them so that the count of red points minus black points along the circle stays as
//! level as it can: where it climbs, red points run ahead of their partners, and the
//! pairs stretch. [`candidates`] then offers each red point the few black points around
//! its place in that order. These are candidates only: pricing (docs/rules.md §2.6)
//! still proves the optimum over every legal pair, so a wrong guess costs passes, never
//! the result. (On that group the guess put 4,936 of the 4,945 optimal pairs among the
//! candidates, ±3 places; without it, each pricing pass found thousands of improving
//! pairs and the group took 13 passes.)

/// Rounds in which [`roles`] flips the players it needs, re-reading the balance after
/// each. (On the group above, 4 rounds gave 4,936 of its pairs, 16 rounds 4,592.)
const ROLE_ROUNDS: usize = 8;

/// The colour role of each of a score group's players, `true` for red, from their
/// colour classes (0 due red, 1 due black, 2 neither, as `colour_class`): half the
/// group (rounded down) takes red and the rest black; players due neither colour are
/// given the role that is short before anyone loses a due colour.
fn roles(classes: &[usize]) -> Vec<bool> {
    let n = classes.len();
    let half = n / 2;
    let anti = |p: usize| (p + half) % n;
    let mut red: Vec<bool> = classes.iter().map(|&c| c == 0).collect();
    let reds = red.iter().filter(|&&r| r).count();
    let of_class = |c: usize| (0..n).filter(move |&p| classes[p] == c);
    // Who may flip, how many must, and to which role.
    let (mut flippable, mut left, to_red): (Vec<usize>, usize, bool) = if reds < half {
        let free: Vec<usize> = of_class(2).collect();
        let need = half - reds;
        if need > free.len() {
            // Every free player takes red, and some due black too.
            for &p in &free {
                red[p] = true;
            }
            (of_class(1).collect(), need - free.len(), true)
        } else {
            (free, need, true)
        }
    } else {
        (of_class(0).collect(), reds - half, false)
    };
    // Points along the circle: +1 for a red player at its place, −1 for a black one at
    // its place + half.
    let mut points = vec![0i64; n];
    for p in 0..n {
        if red[p] {
            points[p] += 1;
        } else {
            points[anti(p)] -= 1;
        }
    }
    let sign: i64 = if to_red { 1 } else { -1 };
    let batch = left.div_ceil(ROLE_ROUNDS).max(1);
    let mut tail = vec![0i64; n + 1];
    let len = n as i64;
    while left > 0 && !flippable.is_empty() {
        // The balance `level[t]` (points up to t) and its sums from each place on.
        let mut level = 0;
        let mut levels = Vec::with_capacity(n);
        for &x in &points {
            level += x;
            levels.push(level);
        }
        for t in (0..n).rev() {
            tail[t] = tail[t + 1] + levels[t];
        }
        let total = tail[0] as f64;
        // Flipping the player at p moves `sign` onto the balance from p on and from
        // p + half on: how much that changes the balance's spread (n times its variance).
        let mut change: Vec<(f64, usize)> = flippable
            .iter()
            .map(|&p| {
                let q = anti(p);
                let (a, b) = (p as i64, q as i64);
                let squares =
                    2 * sign * (tail[p] + tail[q]) + (len - a) + (len - b) + 2 * (len - a.max(b));
                let moved = (sign * ((len - a) + (len - b))) as f64;
                let spread =
                    squares as f64 - ((total + moved).powi(2) - total.powi(2)) / len as f64;
                (spread, p)
            })
            .collect();
        change.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let take = batch.min(left).min(change.len());
        let mut flipped = vec![false; n];
        for &(_, p) in &change[..take] {
            flipped[p] = true;
            red[p] = to_red;
            points[p] += sign;
            points[anti(p)] += sign;
        }
        flippable.retain(|&p| !flipped[p]);
        left -= take;
    }
    red
}

/// Candidate pairs of one score group in fold order (places in the group, `a < b`), from
/// players' colour classes: each red player of [`roles`] against the `near` black
/// players on either side of its place in the circular order that pairs the k-th red
/// with the (k + s)-th black, `s` the shift with the shortest pairs.
pub(super) fn candidates(classes: &[usize], near: usize, mut add: impl FnMut(usize, usize)) {
    let n = classes.len();
    if n < 4 {
        return;
    }
    let half = n / 2;
    let red = roles(classes);
    let reds: Vec<usize> = (0..n).filter(|&p| red[p]).collect();
    // Black players by their point on the circle (place + half), with their places.
    let mut blacks: Vec<(usize, usize)> = (0..n)
        .filter(|&p| !red[p])
        .map(|p| ((p + half) % n, p))
        .collect();
    blacks.sort_unstable();
    let m = blacks.len() as i64;
    if reds.is_empty() || m == 0 {
        return;
    }
    let along = |a: usize, b: usize| {
        let d = a.abs_diff(b).min(n - a.abs_diff(b)) as f64;
        d * d
    };
    // A first shift: the median of each red point's offset to the nearest black point,
    // unwrapped around the first one's.
    let mut offsets: Vec<i64> = Vec::with_capacity(reds.len());
    let mut first = None;
    for (k, &x) in reds.iter().enumerate() {
        let at = blacks.partition_point(|&(q, _)| q < x) as i64;
        let off = (at - k as i64).rem_euclid(m);
        let base = *first.get_or_insert(off);
        let mut u = off - base;
        if u > m / 2 {
            u -= m;
        } else if u < -m / 2 {
            u += m;
        }
        offsets.push(base + u);
    }
    offsets.sort_unstable();
    let guess = offsets[offsets.len() / 2];
    // The best shift near it: sampled over a window of about twice the spread a random
    // balance reaches, then exactly around the best sample.
    let cost = |s: i64, stride: usize| -> f64 {
        reds.iter()
            .enumerate()
            .step_by(stride)
            .map(|(k, &x)| along(x, blacks[(k as i64 + s).rem_euclid(m) as usize].0))
            .sum()
    };
    let best_of = |range: std::ops::RangeInclusive<i64>, stride: usize| {
        range
            .map(|s| (cost(s, stride), s))
            .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)))
            .map_or(guess, |(_, s)| s)
    };
    let window = 2 * (m as f64).sqrt() as i64 + 16;
    let rough = best_of(guess - window..=guess + window, 4);
    let shift = best_of(rough - 8..=rough + 8, 1);
    let near = near as i64;
    for (k, &x) in reds.iter().enumerate() {
        for t in -near..=near {
            let j = blacks[(k as i64 + shift + t).rem_euclid(m) as usize].1;
            if j != x {
                add(x.min(j), x.max(j));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A group with more players due red than half of it: no free player to spare, so
    /// exactly the excess due red take black; with free players, they fill the short
    /// role first and nobody due a colour loses it.
    #[test]
    fn roles_balance_the_group_and_spend_free_players_first() {
        let count = |r: &[bool]| r.iter().filter(|&&x| x).count();
        // 14 due red, 6 due black.
        let classes: Vec<usize> = (0..20).map(|p| usize::from(p % 10 >= 7)).collect();
        let r = roles(&classes);
        assert_eq!(count(&r), 10);
        assert!(r.iter().zip(&classes).all(|(&red, &c)| c == 0 || !red));
        // 6 due red, 8 due black, 7 free (21 players): 10 take red, 4 of them free.
        let classes: Vec<usize> = [0; 6].into_iter().chain([1; 8]).chain([2; 7]).collect();
        let r = roles(&classes);
        assert_eq!(count(&r), 10);
        assert!(r[..6].iter().all(|&x| x), "due red keep red");
        assert!(r[6..14].iter().all(|&x| !x), "due black keep black");
        assert_eq!(count(&r[14..]), 4);
        // Too few free players: every free one takes red, then some due black.
        let classes = vec![1, 1, 1, 1, 1, 1, 2, 0];
        let r = roles(&classes);
        assert_eq!(count(&r), 4);
        assert!(r[6] && r[7]);
    }

    /// Alternating due colours, already in fold order's favour (place i due red, i + h
    /// due black): every fold pair i – i + h is offered.
    #[test]
    fn the_fold_pairs_are_offered_when_roles_allow_them() {
        let n = 40;
        let classes: Vec<usize> = (0..n).map(|p| usize::from(p >= n / 2)).collect();
        let mut offered = std::collections::HashSet::new();
        candidates(&classes, 0, |a, b| {
            offered.insert((a, b));
        });
        for i in 0..n / 2 {
            assert!(offered.contains(&(i, i + n / 2)), "{i}");
        }
        assert_eq!(offered.len(), n / 2);
    }
}
