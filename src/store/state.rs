//! Reading and writing `qiwang.json` and its snapshots: the byte encoding, the checks a
//! file must pass before it is trusted, and the names of the snapshots in `history/`.

use super::StoreError;
use crate::i18n::Text;
use crate::model::{Event, PlayerId, SCHEMA_VERSION};
use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::io;
use std::path::Path;

/// The canonical bytes of a state file. Deterministic (the model uses ordered maps), so
/// equal events give equal bytes: the crash recovery compares states byte for byte.
pub(crate) fn encode(event: &Event) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(event).expect("an event always serialises to JSON");
    bytes.push(b'\n');
    bytes
}

/// The bytes of a snapshot file holding the state `state`: gzip, which shrinks the
/// pretty-printed JSON about tenfold (3,000 players: 1.75 MB → under 0.2 MB, measured by
/// the ignored test `store::history_sizes_of_a_3000_player_event` in `tests/it/store.rs`).
pub(crate) fn compress(state: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(state.len() / 8),
        flate2::Compression::new(SNAPSHOT_LEVEL),
    );
    encoder
        .write_all(state)
        .and_then(|()| encoder.finish())
        .expect("writing to memory does not fail")
}

/// The gzip level of snapshots: level 1 is within a few percent of the best size on this
/// JSON and several times faster, which matters at 100,000 players.
const SNAPSHOT_LEVEL: u32 = 1;

/// The state held by the snapshot file `name` with bytes `bytes`: gunzipped for a
/// `.json.gz` snapshot, as is for a `.json` one (written by qiwang before 0.2).
pub(crate) fn snapshot_state(path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>, StoreError> {
    if !path.to_string_lossy().ends_with(".gz") {
        return Ok(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() * 10);
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut out).map_err(
        |e| StoreError::Damaged {
            path: path.to_path_buf(),
            detail: Text::new(
                format!("快照不是完整的 gzip 文件：{e}"),
                format!("the snapshot is not a whole gzip file: {e}"),
            ),
            recovery: Text::new(
                "这次修改无法撤销；请用普通命令更正赛事",
                "this change cannot be undone; correct the event with ordinary commands",
            ),
        },
    )?;
    Ok(out)
}

/// Parses and checks a state file (or snapshot) at `path`. `recovery` says what the user
/// can do if the file is refused; it is only computed then.
pub(crate) fn decode(
    path: &Path,
    bytes: &[u8],
    recovery: impl FnOnce() -> Text,
) -> Result<Event, StoreError> {
    match check(bytes) {
        Ok(event) => Ok(event),
        Err(Refusal::Damaged(detail)) => Err(StoreError::Damaged {
            path: path.to_path_buf(),
            detail,
            recovery: recovery(),
        }),
        Err(Refusal::Newer(found)) => Err(StoreError::NewerSchema {
            path: path.to_path_buf(),
            found,
            supported: SCHEMA_VERSION,
            recovery: recovery(),
        }),
    }
}

enum Refusal {
    Damaged(Text),
    Newer(u64),
}

/// The version of a state file, read without building the rest: a large file is parsed
/// into the event once, not also into a JSON tree.
#[derive(serde::Deserialize)]
struct Probe {
    /// `None` when the key is missing; `Some(Value::Null)` when it is `null`.
    #[serde(default, deserialize_with = "present")]
    schema_version: Option<serde_json::Value>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde::Deserialize::deserialize(d).map(Some)
}

/// Whether `bytes` are a state this qiwang reads and trusts.
pub(crate) fn is_good(bytes: &[u8]) -> bool {
    check(bytes).is_ok()
}

fn check(bytes: &[u8]) -> Result<Event, Refusal> {
    // A file opened and saved again in Windows Notepad starts with a UTF-8 byte-order
    // mark, which JSON does not allow but which changes nothing in the state.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // The usual case in one pass (at 100,000 players each pass over the file costs about
    // a second): a file that parses as this qiwang's state with a version it reads. Any
    // other file takes the slow path below, which says precisely what is wrong.
    if let Ok(event) = serde_json::from_slice::<Event>(bytes)
        && event.schema_version >= 1
        && event.schema_version <= SCHEMA_VERSION
    {
        return checked(event);
    }
    diagnose(bytes)
}

fn diagnose(bytes: &[u8]) -> Result<Event, Refusal> {
    use serde::de::IgnoredAny;
    use serde_json::error::Category;
    // Syntax first, then the version, then the shape: a newer file may have a shape this
    // qiwang does not know, and must be reported as newer rather than as damaged.
    let top = serde_json::from_slice::<std::collections::BTreeMap<String, IgnoredAny>>(bytes);
    if let Err(e) = top {
        return Err(Refusal::Damaged(match e.classify() {
            Category::Eof => Text::new(
                format!(
                    "文件在第 {} 行第 {} 列提前结束（被截断？）",
                    e.line(),
                    e.column()
                ),
                format!(
                    "the file ends early at line {} column {} (cut short?)",
                    e.line(),
                    e.column()
                ),
            ),
            Category::Data => Text::new("文件不是 JSON 对象", "the file is not a JSON object"),
            Category::Syntax | Category::Io => {
                Text::new(format!("JSON 格式错误：{e}"), format!("invalid JSON: {e}"))
            }
        }));
    }
    let probe: Probe =
        serde_json::from_slice(bytes).map_err(|e| Refusal::Damaged(unexpected(&e)))?;
    match probe.schema_version {
        None => {
            return Err(Refusal::Damaged(Text::new(
                "文件没有 `schema_version` 键，不是 qiwang 写的",
                "it has no `schema_version` key, so it was not written by qiwang",
            )));
        }
        Some(v) => match v.as_u64() {
            Some(0) | None => {
                return Err(Refusal::Damaged(Text::new(
                    format!("`schema_version` 是 `{v}`，应为正整数"),
                    format!("`schema_version` is `{v}`, expected a positive integer"),
                )));
            }
            Some(found) if found > u64::from(SCHEMA_VERSION) => return Err(Refusal::Newer(found)),
            Some(_) => {}
        },
    }
    // The key path as well as the line and column: a state file edited by hand may be on
    // one line, where "line 1 column 5793" alone finds nothing.
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let event: Event = serde_path_to_error::deserialize(&mut reader).map_err(|e| {
        let path = e.path().to_string();
        let inner = unexpected(e.inner());
        Refusal::Damaged(Text::new(
            format!("键 `{path}`：{}", inner.zh),
            format!("key `{path}`: {}", inner.en),
        ))
    })?;
    checked(event)
}

/// The rulebook and players of a state file, its rounds skipped unread; `None` when the
/// file is not a state this qiwang reads (the full check then says why).
pub(crate) fn roster(bytes: &[u8]) -> Option<Event> {
    #[derive(serde::Deserialize)]
    struct Roster {
        schema_version: u64,
        #[serde(default)]
        change: Option<u64>,
        rules_toml: String,
        players: Vec<crate::model::Player>,
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let roster: Roster = serde_json::from_slice(bytes).ok()?;
    if roster.schema_version == 0 || roster.schema_version > u64::from(SCHEMA_VERSION) {
        return None;
    }
    let mut ids = BTreeSet::new();
    if !roster.players.iter().all(|p| ids.insert(p.id)) {
        return None;
    }
    let mut event = Event::new(roster.rules_toml);
    event.change = roster.change;
    event.players = roster.players;
    Some(event)
}

/// `event` if it is consistent (see [`integrity`]).
fn checked(event: Event) -> Result<Event, Refusal> {
    let problems = integrity(&event);
    if problems.is_empty() {
        return Ok(event);
    }
    Err(Refusal::Damaged(contradiction(&problems)))
}

/// What is wrong with a state that contradicts itself: the first few `problems`.
pub(crate) fn contradiction(problems: &[Text]) -> Text {
    const SHOWN: usize = 5;
    let shown = &problems[..problems.len().min(SHOWN)];
    let join =
        |pick: fn(&Text) -> &str, sep: &str| shown.iter().map(pick).collect::<Vec<_>>().join(sep);
    let (mut zh, mut en) = (join(|t| &t.zh, "；"), join(|t| &t.en, "; "));
    if problems.len() > SHOWN {
        let more = problems.len() - SHOWN;
        zh.push_str(&format!("（另有 {more} 处）"));
        en.push_str(&format!(" (and {more} more)"));
    }
    Text::new(
        format!("内容自相矛盾：{zh}"),
        format!("it contradicts itself: {en}"),
    )
}

/// A JSON value where the state file's shape wants another.
fn unexpected(e: &serde_json::Error) -> Text {
    // serde's own words are English: the Chinese text says where, and quotes them.
    let full = e.to_string();
    let what = full
        .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
        .unwrap_or(&full);
    Text::new(
        format!(
            "第 {} 行第 {} 列的内容不符合格式（{what}）",
            e.line(),
            e.column()
        ),
        format!("unexpected content: {full}"),
    )
}

/// What a file edited by hand can break that parsing does not catch and the rest of
/// qiwang relies on: rounds numbered 1, 2, 3, … in order, every paired player registered
/// (once), nobody paired twice in a round, no pairing number given twice in a pool, the
/// rules given to `pair --relax` recorded once per paired round. Penalties are not
/// checked: one naming an unknown player deducts nothing from anyone. Whether each
/// player's group is in the rulebook needs the rulebook ([`unknown_groups`]).
fn integrity(event: &Event) -> Vec<Text> {
    let mut problems = Vec::new();
    let largest = event.players.iter().map(|p| p.id.0).max().unwrap_or(0);
    let mut ids = IdSet::new(largest, event.players.len());
    for p in &event.players {
        if !ids.insert(p.id) {
            problems.push(Text::new(
                format!("棋手内部编号 `{}` 用了两次", p.id),
                format!("player id `{}` is used twice", p.id),
            ));
        }
    }
    problems.extend(numbers_given_twice(event));
    let mut seen = IdSet::new(largest, event.players.len());
    for (group, state) in &event.groups {
        for (index, round) in state.rounds.iter().enumerate() {
            let expected = index as u64 + 1;
            if u64::from(round.number) != expected {
                problems.push(Text::new(
                    format!(
                        "组别 `{group}`：第 {expected} 轮的编号是 `{}`",
                        round.number
                    ),
                    format!(
                        "group `{group}`: round {expected} is numbered `{}`",
                        round.number
                    ),
                ));
            }
            seen.clear();
            for id in round
                .pairings
                .iter()
                .flat_map(crate::model::Pairing::players)
            {
                if !ids.contains(id) {
                    problems.push(Text::new(
                        format!("组别 `{group}` 第 {expected} 轮：棋手 `{id}` 没有报名"),
                        format!(
                            "group `{group}` round {expected}: player `{id}` is not registered"
                        ),
                    ));
                } else if !seen.insert(id) {
                    problems.push(Text::new(
                        format!("组别 `{group}` 第 {expected} 轮：棋手 `{id}` 被编排了两次"),
                        format!("group `{group}` round {expected}: player `{id}` is paired twice"),
                    ));
                }
            }
        }
        // `check --optimal` re-solves a round under the rules recorded for it: one
        // entry per paired round, each rule once, as `pair --relax` takes them.
        let mut given = BTreeSet::new();
        for entry in &state.relax_given {
            let round = entry.round;
            if round == 0 || round as usize > state.rounds.len() {
                problems.push(Text::new(
                    format!("组别 `{group}`：`relax_given` 列出的第 {round} 轮尚未编排"),
                    format!(
                        "group `{group}`: `relax_given` names round {round}, which is not paired"
                    ),
                ));
            } else if !given.insert(round) {
                problems.push(Text::new(
                    format!("组别 `{group}`：`relax_given` 两次列出第 {round} 轮"),
                    format!("group `{group}`: `relax_given` lists round {round} twice"),
                ));
            }
            if entry.rules.is_empty() {
                problems.push(Text::new(
                    format!("组别 `{group}`：`relax_given` 没有给第 {round} 轮任何规则"),
                    format!("group `{group}`: `relax_given` gives round {round} no rule"),
                ));
            }
            for (k, rule) in entry.rules.iter().enumerate() {
                if entry.rules[..k].contains(rule) {
                    let name = crate::rulebook::relax_rule_name(*rule);
                    problems.push(Text::new(
                        format!("组别 `{group}`：`relax_given` 两次给第 {round} 轮 `{name}`"),
                        format!(
                            "group `{group}`: `relax_given` gives round {round} `{name}` twice"
                        ),
                    ));
                }
            }
        }
    }
    problems
}

/// Pairing numbers held by two players of one pool (docs/rules.md §2.2: every player of
/// a pool gets one pairing number): every view, the colour rules and the round-robin
/// tables tell players apart by them. qiwang gives each pool's numbers once (the draw,
/// then the next free number; a merge clears the moved players' numbers). Run on every
/// load, so a hash of (pool, number), one pass: no sort comparing pool names.
fn numbers_given_twice(event: &Event) -> Vec<Text> {
    let mut holder: HashMap<(&crate::model::GroupId, u32), usize> = HashMap::new();
    // (pool, number, the player given it again, the one who held it before).
    let mut twice = Vec::new();
    for (i, p) in event.players.iter().enumerate() {
        if let Some(n) = p.number
            && let Some(before) = holder.insert((&p.group, n), i)
        {
            twice.push((&p.group, n, i, before));
        }
    }
    // Listed by pool, then number.
    twice.sort_unstable();
    twice
        .into_iter()
        .map(|(group, n, at, before)| {
            let other = event.players[before].id;
            Text::new(
                format!("`players[{at}].number`：组别 `{group}` 的编排号 {n} 已属于棋手 `{other}`"),
                format!(
                    "`players[{at}].number`: pairing number {n} of group `{group}` already belongs to player `{other}`"
                ),
            )
        })
        .collect()
}

/// The players whose group the rulebook `groups` (its group ids) does not have, each
/// named by its key in the state file: standings, prizes and pairing would pass them
/// over. Checked where the frozen rulebook is read (the store does not read rulebooks).
pub(crate) fn unknown_groups<'a>(
    event: &Event,
    groups: impl IntoIterator<Item = &'a crate::model::GroupId>,
) -> Vec<Text> {
    let known: BTreeSet<&crate::model::GroupId> = groups.into_iter().collect();
    event
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| !known.contains(&p.group))
        .map(|(i, p)| {
            let (group, id) = (&p.group, p.id);
            Text::new(
                format!("`players[{i}].group`：棋手 `{id}` 的组别 `{group}` 不在规程中"),
                format!(
                    "`players[{i}].group`: player `{id}` is in group `{group}`, which the rulebook does not have"
                ),
            )
        })
        .collect()
}

/// A set of player ids for [`integrity`], which fills one with every registered player
/// and one with each round's (100,000 players, 9 rounds: a tenth of every command's
/// time as `BTreeSet`s). Registration numbers ids 1, 2, 3, …, so the set is a table
/// indexed by id; ids far larger than the number of players (a file edited by hand)
/// fall back to a hash set.
enum IdSet {
    Table(Vec<bool>),
    Hashed(std::collections::HashSet<PlayerId>),
}

impl IdSet {
    /// An empty set for ids up to `largest` among `players` players.
    fn new(largest: u32, players: usize) -> Self {
        let size = largest as usize + 1;
        if size <= players.saturating_mul(4).saturating_add(1024) {
            IdSet::Table(vec![false; size])
        } else {
            IdSet::Hashed(std::collections::HashSet::new())
        }
    }

    /// Adds `id`; false when it was there already.
    fn insert(&mut self, id: PlayerId) -> bool {
        match self {
            IdSet::Table(table) => {
                let at = id.0 as usize;
                if at >= table.len() {
                    table.resize(at + 1, false);
                }
                !std::mem::replace(&mut table[at], true)
            }
            IdSet::Hashed(set) => set.insert(id),
        }
    }

    fn contains(&self, id: PlayerId) -> bool {
        match self {
            IdSet::Table(table) => table.get(id.0 as usize).copied().unwrap_or(false),
            IdSet::Hashed(set) => set.contains(&id),
        }
    }

    fn clear(&mut self) {
        match self {
            IdSet::Table(table) => table.fill(false),
            IdSet::Hashed(set) => set.clear(),
        }
    }
}

/// A snapshot file in `history/`: the state before change number `seq`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct SnapshotFile {
    pub seq: u64,
    pub name: String,
}

/// The name of the snapshot taken before change `seq` made by `command`, e.g.
/// `000012-result.json.gz`.
pub(crate) fn snapshot_name(seq: u64, command: &str) -> String {
    let mut slug = String::new();
    for c in command.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= 40 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    let slug = if slug.is_empty() { "change" } else { slug };
    format!("{seq:06}-{slug}.json.gz")
}

/// The suffix of a step file (`snapshots.rs`): a change kept as a delta.
pub(crate) const STEP_SUFFIX: &str = ".diff.gz";

/// The name of the step file of the change whose whole snapshot is named `whole`.
pub(crate) fn step_name_of(whole: &str) -> Option<String> {
    whole
        .strip_suffix(".json.gz")
        .map(|stem| format!("{stem}{STEP_SUFFIX}"))
}

/// Parses a history file name (a whole snapshot `.json.gz`, `.json` from before
/// compression, or a step `.diff.gz`) back into its sequence number.
pub(crate) fn snapshot_seq(name: &str) -> Option<u64> {
    let stem = name
        .strip_suffix(".json.gz")
        .or_else(|| name.strip_suffix(".json"))
        .or_else(|| name.strip_suffix(STEP_SUFFIX))?;
    let (digits, _) = stem.split_once('-')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Every snapshot in `history/`, oldest first. A missing directory has none.
pub(crate) fn list_snapshots(history: &Path) -> Result<Vec<SnapshotFile>, StoreError> {
    list_history(history).map(|(snapshots, _)| snapshots)
}

/// One listing of `history/`: every snapshot, oldest first, and the temporary files
/// (`*.tmp`, not directories) a killed write left. A missing directory has neither.
/// A change lists the directory once and passes the list along (`Store::prepare`): on
/// a large event with hundreds of files each listing costs.
pub(crate) fn list_history(
    history: &Path,
) -> Result<(Vec<SnapshotFile>, Vec<std::path::PathBuf>), StoreError> {
    #[cfg(test)]
    tests::LISTINGS.with(|n| n.set(n.get() + 1));
    let entries = match fs::read_dir(history) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(e) => return Err(StoreError::io("list", history, e)),
    };
    let (mut snapshots, mut temporaries) = (Vec::new(), Vec::new());
    for entry in entries {
        let entry = entry.map_err(|e| StoreError::io("list", history, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(seq) = snapshot_seq(&name) {
            snapshots.push(SnapshotFile { seq, name });
        } else if name.ends_with(".tmp") && !entry.file_type().is_ok_and(|t| t.is_dir()) {
            temporaries.push(entry.path());
        }
    }
    snapshots.sort();
    Ok((snapshots, temporaries))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    std::thread_local! {
        /// How many times this thread listed `history/` ([`list_history`]).
        pub(in crate::store) static LISTINGS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    fn valid() -> Vec<u8> {
        encode(&Event::new("[event]\n".into()))
    }

    #[test]
    fn encode_then_decode_round_trips() {
        let event = Event::new("x = 1\n".into());
        let back = decode(Path::new("q"), &encode(&event), Text::default).unwrap();
        assert_eq!(back, event);
    }

    #[test]
    fn refused_files_say_why() {
        let good = String::from_utf8(valid()).unwrap();
        // The version as written, so a new schema version needs no edit here.
        let version = format!("\"schema_version\": {}", crate::model::SCHEMA_VERSION);
        assert!(good.contains(&version), "the cases below edit the version");
        let cut = &good[..good.len() / 2];
        let cases: Vec<(String, &str)> = vec![
            (cut.to_string(), "the file ends early at line"),
            (String::new(), "the file ends early at line 1 column 0"),
            (
                good.replacen("\"players\": [", "\"players\": [,", 1),
                "invalid JSON: ",
            ),
            ("[1, 2]".into(), "not a JSON object"),
            (
                good.replacen(&version, "\"schema_version\": 0", 1),
                "`schema_version` is `0`",
            ),
            (
                good.replacen(&version, "\"schema_version\": \"1\"", 1),
                "`schema_version` is `\"1\"`",
            ),
            (
                good.replacen(&format!("{version},"), "", 1),
                "no `schema_version` key",
            ),
            (
                good.replacen(&version, "\"schema_version\": null", 1),
                "`schema_version` is `null`",
            ),
            (format!("{good} x"), "invalid JSON: trailing characters"),
            (
                good.replacen("\"players\": []", "\"players\": 3", 1),
                "unexpected content: invalid type",
            ),
        ];
        for (text, expected) in cases {
            let err = decode(Path::new("ev/qiwang.json"), text.as_bytes(), || {
                "HINT".into()
            })
            .unwrap_err();
            let message = err.to_string();
            assert!(matches!(err, StoreError::Damaged { .. }), "{message}");
            assert!(
                message.starts_with("`ev/qiwang.json` is damaged: "),
                "{message}"
            );
            assert!(
                message.contains(expected),
                "expected {expected:?} in {message}"
            );
            assert!(message.ends_with("; HINT"), "{message}");
        }
    }

    /// An event with players 1–4 and one round of two games in group `open`.
    pub(in crate::store) fn paired() -> Event {
        use crate::model::{GroupId, GroupState, Pairing, Player, PlayerId, Round};
        let open = GroupId::new("open");
        let mut event = Event::new("[event]\n".into());
        for id in 1..=4 {
            event
                .players
                .push(Player::new(PlayerId(id), format!("p{id}"), open.clone()));
        }
        let game = |table, red, black| Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: None,
        };
        let mut state = GroupState::default();
        state.rounds.push(Round {
            number: 1,
            pairings: vec![game(1, 1, 2), game(2, 3, 4)],
        });
        event.groups.insert(open, state);
        event
    }

    #[test]
    fn a_state_that_contradicts_itself_is_refused() {
        use crate::model::{Pairing, PlayerId};
        assert!(decode(Path::new("q"), &encode(&paired()), Text::default).is_ok());
        type Edit = fn(&mut Event);
        let cases: [(Edit, &str); 5] = [
            (
                |e| e.players[1].id = PlayerId(1),
                "player id `1` is used twice",
            ),
            (
                |e| e.groups.values_mut().next().unwrap().rounds[0].number = 0,
                "group `open`: round 1 is numbered `0`",
            ),
            (
                |e| {
                    let round = e.groups.values_mut().next().unwrap().rounds[0].clone();
                    e.groups.values_mut().next().unwrap().rounds.push(round);
                },
                "group `open`: round 2 is numbered `1`",
            ),
            (
                |e| {
                    e.groups.values_mut().next().unwrap().rounds[0].pairings[1] = Pairing::Bye {
                        player: PlayerId(9),
                    };
                },
                "group `open` round 1: player `9` is not registered",
            ),
            (
                |e| {
                    e.groups.values_mut().next().unwrap().rounds[0].pairings[1] = Pairing::Bye {
                        player: PlayerId(2),
                    };
                },
                "group `open` round 1: player `2` is paired twice",
            ),
        ];
        for (edit, expected) in cases {
            let mut event = paired();
            edit(&mut event);
            let err = decode(Path::new("ev/qiwang.json"), &encode(&event), || {
                "HINT".into()
            })
            .unwrap_err();
            let text = err.to_string();
            assert!(
                text.starts_with("`ev/qiwang.json` is damaged: it contradicts itself: "),
                "{text}"
            );
            assert!(text.contains(expected), "expected {expected:?} in {text}");
            assert!(text.ends_with("; HINT"), "{text}");
        }
    }

    /// A pairing number given twice in a pool (a hand edit) is refused as the other
    /// contradictions are, and every contradiction is worded in both languages.
    #[test]
    fn a_number_given_twice_is_a_contradiction_in_both_languages() {
        use crate::model::{GroupId, Player, PlayerId};
        let mut event = paired();
        for (p, n) in event.players.iter_mut().zip([1, 2, 3, 4]) {
            p.number = Some(n);
        }
        assert!(integrity(&event).is_empty());
        // The same number in another pool is another player's.
        let mut other = Player::new(PlayerId(5), "p5", GroupId::new("kids"));
        other.number = Some(1);
        event.players.push(other);
        assert!(integrity(&event).is_empty());
        event.players[3].number = Some(2);
        let problems = integrity(&event);
        assert_eq!(
            problems.iter().map(|t| t.en.as_str()).collect::<Vec<_>>(),
            ["`players[3].number`: pairing number 2 of group `open` already belongs to player `2`"]
        );
        // Every kind of contradiction, in Chinese as in English.
        let mut all = event.clone();
        all.players[1].id = PlayerId(1);
        let state = all.groups.values_mut().next().unwrap();
        state.rounds[0].pairings[1] = crate::model::Pairing::Bye {
            player: PlayerId(9),
        };
        let round = state.rounds[0].clone();
        state.rounds.push(round);
        state.relax_given = vec![
            crate::model::RelaxGiven {
                round: 7,
                rules: vec![],
            },
            crate::model::RelaxGiven {
                round: 1,
                rules: vec![crate::model::Relax::Team, crate::model::Relax::Team],
            },
            crate::model::RelaxGiven {
                round: 1,
                rules: vec![crate::model::Relax::Colour],
            },
        ];
        let problems = integrity(&all);
        assert!(problems.len() >= 9, "{problems:?}");
        for t in &problems {
            crate::i18n::facts::assert_same(&t.zh, &t.en);
            // No English outside the keys and values quoted.
            let words: String = t.zh.split('`').step_by(2).collect();
            assert!(!words.chars().any(|c| c.is_ascii_alphabetic()), "{}", t.zh);
        }
        let err = decode(Path::new("q"), &encode(&all), || "HINT".into()).unwrap_err();
        let StoreError::Damaged { detail, .. } = err else {
            panic!("{err}")
        };
        assert!(detail.zh.starts_with("内容自相矛盾："), "{}", detail.zh);
        assert!(detail.zh.contains("（另有 "), "{}", detail.zh);
        assert!(detail.en.contains(" (and "), "{}", detail.en);
        let groups = [GroupId::new("open")];
        let unknown = unknown_groups(&event, &groups);
        assert_eq!(
            unknown.iter().map(|t| t.en.as_str()).collect::<Vec<_>>(),
            ["`players[4].group`: player `5` is in group `kids`, which the rulebook does not have"]
        );
        crate::i18n::facts::assert_same(&unknown[0].zh, &unknown[0].en);
    }

    /// Ids far above the number of players (a file edited by hand) are checked through
    /// a hash set rather than a table: the same problems are found.
    #[test]
    fn ids_far_apart_are_checked_as_ids_in_a_row() {
        use crate::model::{Pairing, PlayerId};
        let far = |mut event: Event| {
            event.players[3].id = PlayerId(4_000_000_000);
            let round = &mut event.groups.values_mut().next().unwrap().rounds[0];
            round.pairings[1] = Pairing::Game {
                table: 2,
                red: PlayerId(3),
                black: PlayerId(4_000_000_000),
                result: None,
            };
            event
        };
        assert!(integrity(&far(paired())).is_empty());
        let en =
            |event: &Event| -> Vec<String> { integrity(event).into_iter().map(|t| t.en).collect() };
        let mut twice = far(paired());
        twice.players[2].id = PlayerId(4_000_000_000);
        let mut unknown = far(paired());
        unknown.groups.values_mut().next().unwrap().rounds[0].pairings[0] = Pairing::Game {
            table: 1,
            red: PlayerId(1),
            black: PlayerId(7),
            result: None,
        };
        let mut again = far(paired());
        again.groups.values_mut().next().unwrap().rounds[0].pairings[0] = Pairing::Game {
            table: 1,
            red: PlayerId(1),
            black: PlayerId(4_000_000_000),
            result: None,
        };
        assert_eq!(
            en(&twice),
            [
                "player id `4000000000` is used twice",
                "group `open` round 1: player `3` is not registered"
            ]
        );
        assert_eq!(
            en(&unknown),
            ["group `open` round 1: player `7` is not registered"]
        );
        assert_eq!(
            en(&again),
            ["group `open` round 1: player `4000000000` is paired twice"]
        );
    }

    #[test]
    fn a_roster_is_the_rulebook_and_players_alone() {
        let event = paired();
        let read = roster(&encode(&event)).unwrap();
        assert_eq!(read.players, event.players);
        assert_eq!(read.rules_toml, event.rules_toml);
        assert!(read.groups.is_empty());
        // What the full check refuses, the roster does not answer.
        let mut twice = paired();
        twice.players[1].id = crate::model::PlayerId(1);
        let newer = String::from_utf8(encode(&event)).unwrap().replacen(
            &format!("\"schema_version\": {SCHEMA_VERSION}"),
            &format!("\"schema_version\": {}", SCHEMA_VERSION + 1),
            1,
        );
        for bad in [&encode(&twice)[..], newer.as_bytes(), b"{", b""] {
            assert!(roster(bad).is_none());
        }
    }

    #[test]
    fn newer_schema_is_refused_even_with_unknown_shape() {
        let text = r#"{"schema_version": 7, "something": "new"}"#;
        let err = decode(Path::new("q"), text.as_bytes(), || "HINT".into()).unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::NewerSchema {
                    found: 7,
                    supported: SCHEMA_VERSION,
                    ..
                }
            ),
            "{err}"
        );
        assert!(
            err.to_string().contains("written by a newer qiwang"),
            "{err}"
        );
    }

    #[test]
    fn snapshot_names_round_trip() {
        let cases = [
            (1, "result", "000001-result.json.gz"),
            (12, "player add", "000012-player-add.json.gz"),
            (3, "", "000003-change.json.gz"),
            (4, "../../etc", "000004-etc.json.gz"),
            (1_234_567, "undo", "1234567-undo.json.gz"),
        ];
        for (seq, command, name) in cases {
            assert_eq!(snapshot_name(seq, command), name);
            assert_eq!(snapshot_seq(name), Some(seq));
        }
        // Uncompressed snapshots of older events still count, and so do steps.
        assert_eq!(snapshot_seq("000012-result.json"), Some(12));
        assert_eq!(snapshot_seq("000013-result.diff.gz"), Some(13));
        assert_eq!(
            step_name_of("000013-result.json.gz").as_deref(),
            Some("000013-result.diff.gz")
        );
        assert_eq!(step_name_of("000013-result.json"), None);
        for name in [
            "x.json",
            "-a.json",
            "12-a.json.tmp",
            "12-a.json.gz.tmp",
            "abc-d.json",
        ] {
            assert_eq!(snapshot_seq(name), None, "{name}");
        }
    }

    #[test]
    fn a_state_saved_with_a_byte_order_mark_reads_as_without() {
        let plain = check(&valid()).map_err(|_| "valid").unwrap();
        let mut marked = b"\xEF\xBB\xBF".to_vec();
        marked.extend(valid());
        assert_eq!(check(&marked).map_err(|_| "with a BOM").unwrap(), plain);
    }

    #[test]
    fn snapshots_are_compressed_and_read_back_exactly() {
        let mut event = Event::new("[event]\n".into());
        for id in 1..=300 {
            event.players.push(crate::model::Player::new(
                crate::model::PlayerId(id),
                format!("棋手{id}"),
                crate::model::GroupId::new("open"),
            ));
        }
        let state = encode(&event);
        let packed = compress(&state);
        assert!(
            packed.len() * 5 < state.len(),
            "{} bytes packed from {}",
            packed.len(),
            state.len()
        );
        let gz = Path::new("history/000002-a.json.gz");
        assert_eq!(snapshot_state(gz, packed.clone()).unwrap(), state);
        // An old uncompressed snapshot is read as it is.
        let plain = Path::new("history/000002-a.json");
        assert_eq!(snapshot_state(plain, state.clone()).unwrap(), state);
        let err = snapshot_state(gz, packed[..packed.len() / 2].to_vec()).unwrap_err();
        assert!(
            err.to_string().contains("is not a whole gzip file"),
            "{err}"
        );
    }
}
