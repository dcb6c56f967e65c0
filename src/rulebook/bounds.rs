//! Bounds every numeric rulebook key must respect, and the shape of ids.
//!
//! A value that passes `rules check` must never exhaust memory or overflow the code that
//! uses it: a `best_n` of 4294967295 would pad a team with four billion rows, a win worth
//! 2147483647 points wraps every total. The bounds are generous for any real event and
//! small enough that sums stay far inside their integer types (a player's total is at
//! most 99 rounds × 100 points = 9,900; the pairing engine packs its criteria into one
//! integer weight relying on `MAX_ROUNDS` and `MAX_GAME_POINTS`).
//!
//! Ids of groups, prize lists and teams become folder names, file names and URLs of the
//! exported site, so they are one lowercase word of `a-z 0-9 _ -`, at most 32 characters.
//!
//! Runs as a second pass over the TOML tree after the section parsers, reporting each
//! value out of bounds at its line and column.

use super::reader::{Ctx, Span};
use crate::i18n::Text;
use toml_edit::{Item, TableLike, Value};

/// Rounds of an event or group (`event.rounds`, `groups[].rounds`).
pub const MAX_ROUNDS: i64 = 99;
/// The largest rulebook text read, from a file or frozen in a state (the shipped ones are
/// under 20 KB).
pub const MAX_RULEBOOK_BYTES: u64 = 1024 * 1024;
/// Points of one game result or bye (`scoring.*`), either sign.
pub const MAX_GAME_POINTS: i64 = 100;
/// Points one penalty may deduct: at most what a player can score in a whole event.
pub const MAX_PENALTY: i64 = MAX_ROUNDS * MAX_GAME_POINTS;
/// Places of a prize list or team prize (`place`, `from`, `to`, `shared_from_place`).
pub const MAX_PLACE: i64 = 10_000;
/// Money of one place, in whole currency units.
pub const MAX_MONEY: i64 = 10_000_000;
/// Players counted per team (`teams[].best_n`).
pub const MAX_BEST_N: i64 = 100;
/// Players of an event (`event.max_players`) and the smallest group size (`min_size`).
pub const MAX_PLAYERS: i64 = 1_000_000;
/// Players of an event whose rulebook does not set `event.max_players` (issue 42 §5): the
/// size the pairing engine is measured at (README, 100,000 players a round within the
/// 30 s and 2 GB targets' reach); a larger event raises it with that key, up to
/// [`MAX_PLAYERS`].
pub const DEFAULT_MAX_PLAYERS: u32 = 100_000;
/// Number of `[[groups]]`, `[[prizes.lists]]` and `[[teams]]` entries.
pub const MAX_GROUPS: usize = 200;
/// Number of `[[prizes.lists]]` entries.
pub const MAX_LISTS: usize = 1_000;
/// Number of `[[teams]]` entries.
pub const MAX_TEAMS: usize = 200;
/// Longest id.
pub const MAX_ID_CHARS: usize = 32;

// Checked when compiling: the pairing engine packs its criteria into one integer weight
// on the first two bounds; a total with every penalty stays far inside `i32`; a list's
// money in fen (`u64` in the prize sheet), every place paid, stays far inside `u64`.
const _: () = assert!(DEFAULT_MAX_PLAYERS as i64 <= MAX_PLAYERS);
const _: () = assert!(MAX_ROUNDS <= 99 && MAX_GAME_POINTS <= 100);
const _: () = assert!(MAX_PENALTY * 1000 < i32::MAX as i64);
const _: () = assert!(
    ((MAX_PLACE * MAX_MONEY * 100) as u64)
        .checked_mul(MAX_LISTS as u64 * 1000)
        .is_some()
);

/// `(path, key, min, max)`: `path` is a dotted table path where `name[]` means every
/// element of an array of tables.
const BOUNDS: &[(&str, &str, i64, i64)] = &[
    ("event", "rounds", 1, MAX_ROUNDS),
    ("event", "max_players", 1, MAX_PLAYERS),
    ("groups[]", "rounds", 1, MAX_ROUNDS),
    ("groups[]", "min_size", 1, MAX_PLAYERS),
    ("groups[].eligibility", "under_age", 1, 150),
    ("groups[].eligibility", "min_age", 0, 150),
    ("scoring", "red_win", -MAX_GAME_POINTS, MAX_GAME_POINTS),
    ("scoring", "red_draw", -MAX_GAME_POINTS, MAX_GAME_POINTS),
    ("scoring", "red_loss", -MAX_GAME_POINTS, MAX_GAME_POINTS),
    ("scoring", "black_win", -MAX_GAME_POINTS, MAX_GAME_POINTS),
    ("scoring", "black_draw", -MAX_GAME_POINTS, MAX_GAME_POINTS),
    ("scoring", "black_loss", -MAX_GAME_POINTS, MAX_GAME_POINTS),
    ("scoring", "bye", -MAX_GAME_POINTS, MAX_GAME_POINTS),
    ("scoring", "forfeit_win", -MAX_GAME_POINTS, MAX_GAME_POINTS),
    ("scoring", "forfeit_loss", -MAX_GAME_POINTS, MAX_GAME_POINTS),
    (
        "scoring",
        "double_forfeit",
        -MAX_GAME_POINTS,
        MAX_GAME_POINTS,
    ),
    ("pairing.late_rounds_priority", "last_rounds", 1, MAX_ROUNDS),
    ("pairing.late_rounds_priority", "min_gap", 0, MAX_PENALTY),
    ("colours", "max_streak", 1, MAX_ROUNDS),
    ("colours", "max_diff", 1, MAX_ROUNDS),
    ("conduct", "fouls_to_lose_game", 1, 99),
    ("conduct", "late_forfeit_minutes", 0, 24 * 60),
    ("conduct", "withdraw_after_forfeits", 1, MAX_ROUNDS),
    ("conduct", "disturbance_penalty", 1, MAX_PENALTY),
    ("ranking", "shared_from_place", 1, MAX_PLACE),
    ("prizes.lists[].places[]", "place", 1, MAX_PLACE),
    ("prizes.lists[].places[]", "from", 1, MAX_PLACE),
    ("prizes.lists[].places[]", "to", 1, MAX_PLACE),
    ("prizes.lists[].places[]", "money", 0, MAX_MONEY),
    ("teams[]", "best_n", 1, MAX_BEST_N),
    ("teams[].places[]", "place", 1, MAX_PLACE),
    ("teams[].places[]", "from", 1, MAX_PLACE),
    ("teams[].places[]", "to", 1, MAX_PLACE),
    ("teams[].places[]", "money", 0, MAX_MONEY),
];

/// Tables whose `id` becomes a file name or URL.
const IDS: &[&str] = &["groups[]", "prizes.lists[]", "teams[]"];

/// Arrays of tables with a maximum length.
const COUNTS: &[(&str, &str, usize)] = &[
    ("", "groups", MAX_GROUPS),
    ("prizes", "lists", MAX_LISTS),
    ("", "teams", MAX_TEAMS),
];

/// Whether `id` is a safe id: `a-z`, `0-9`, `_`, `-`, 1 to 32 characters.
pub fn is_safe_id(id: &str) -> bool {
    (1..=MAX_ID_CHARS).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// A table found by a path, with its dotted key path (`groups[2].eligibility`).
struct Found<'t> {
    path: String,
    table: &'t dyn TableLike,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The elements of an item that is a table or an array of tables.
fn tables_of<'t>(item: &'t Item, path: &str, many: bool) -> Vec<Found<'t>> {
    match item {
        Item::ArrayOfTables(array) if many => array
            .iter()
            .enumerate()
            .map(|(i, t)| Found {
                path: format!("{path}[{i}]"),
                table: t as &dyn TableLike,
            })
            .collect(),
        Item::Value(Value::Array(array)) if many => array
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                v.as_inline_table().map(|t| Found {
                    path: format!("{path}[{i}]"),
                    table: t as &dyn TableLike,
                })
            })
            .collect(),
        other if !many => other
            .as_table_like()
            .map(|t| Found {
                path: path.to_string(),
                table: t,
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// Every table at `pattern` (see [`BOUNDS`]).
fn find<'t>(root: &'t dyn TableLike, pattern: &str) -> Vec<Found<'t>> {
    let mut found = vec![Found {
        path: String::new(),
        table: root,
    }];
    if pattern.is_empty() {
        return found;
    }
    for part in pattern.split('.') {
        let (key, many) = match part.strip_suffix("[]") {
            Some(k) => (k, true),
            None => (part, false),
        };
        found = found
            .iter()
            .flat_map(|f| match f.table.get(key) {
                Some(item) => tables_of(item, &join(&f.path, key), many),
                None => Vec::new(),
            })
            .collect();
    }
    found
}

fn span_of(table: &dyn TableLike, key: &str) -> Option<Span> {
    table
        .get_key_value(key)
        .and_then(|(k, v)| v.span().or_else(|| k.span()))
}

/// Whether a problem is already recorded for `key` (the section parser found the value
/// wrong in another way): one message per value.
fn reported(ctx: &Ctx, key: &str) -> bool {
    ctx.problems.iter().any(|p| p.key == key)
}

/// Reports every integer out of its bound, every unsafe id and every array of tables
/// longer than its maximum.
pub(super) fn check(ctx: &mut Ctx, root: &dyn TableLike) {
    for &(pattern, key, min, max) in BOUNDS {
        for f in find(root, pattern) {
            let Some(n) = f.table.get(key).and_then(Item::as_integer) else {
                continue;
            };
            let path = join(&f.path, key);
            if (min..=max).contains(&n) || reported(ctx, &path) {
                continue;
            }
            ctx.report(
                span_of(f.table, key),
                path,
                Text::new(
                    format!("`{n}` 超出范围；请用 {min} 到 {max} 之间的整数"),
                    format!("`{n}` is out of range; use a whole number from {min} to {max}"),
                ),
            );
        }
    }
    for pattern in IDS {
        for f in find(root, pattern) {
            let Some(id) = f.table.get("id").and_then(Item::as_str) else {
                continue;
            };
            let path = join(&f.path, "id");
            if is_safe_id(id) || id.trim().is_empty() || reported(ctx, &path) {
                continue;
            }
            let shown = crate::sanitize::one_line(id, 40);
            ctx.report(
                span_of(f.table, "id"),
                path,
                Text::new(
                    format!(
                        "编号 `{shown}` 不可用：编号会成为文件名和网址，只能用小写字母 a-z、数字、`_` 和 `-`，最多 {MAX_ID_CHARS} 个字符，例如 `u16_girls`"
                    ),
                    format!(
                        "id `{shown}` cannot be used: ids become file names and URLs, so use only lowercase a-z, digits, `_` and `-`, at most {MAX_ID_CHARS} characters, e.g. `u16_girls`"
                    ),
                ),
            );
        }
    }
    for &(pattern, key, max) in COUNTS {
        for f in find(root, pattern) {
            let Some(item) = f.table.get(key) else {
                continue;
            };
            let n = match item {
                Item::ArrayOfTables(a) => a.len(),
                Item::Value(Value::Array(a)) => a.len(),
                _ => continue,
            };
            if n > max {
                ctx.report(
                    span_of(f.table, key).or(Some(0..0)),
                    join(&f.path, key),
                    Text::new(
                        format!("有 {n} 项，太多；最多 {max} 项"),
                        format!("{n} entries are too many; at most {max}"),
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_ids_table() {
        for ok in ["adult", "u16", "kids_a", "teen-girls", "a", &"x".repeat(32)] {
            assert!(is_safe_id(ok), "{ok}");
        }
        for bad in [
            "",
            "/tmp/x",
            "/",
            "../../x",
            "x\"><svg/onload=alert(1)>",
            "Adult",
            "成人组",
            "a b",
            "a.b",
            &"x".repeat(33),
        ] {
            assert!(!is_safe_id(bad), "{bad}");
        }
    }
}
