//! Reading and writing `qiwang.json` and its snapshots: the byte encoding, the checks a
//! file must pass before it is trusted, and the names of the snapshots in `history/`.

mod layout;

use super::StoreError;
use crate::i18n::Text;
use crate::model::{Event, PlayerId, SCHEMA_VERSION};
use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::io;
use std::path::Path;

/// The canonical bytes of a state file. Deterministic (the model uses ordered maps), so
/// equal events give equal bytes: the crash recovery compares states byte for byte.
///
/// `like` is the length of a state of about the same size (the one being changed), 0 if
/// none: the buffer is reserved a little larger once, instead of grown by doubling from
/// empty, which at 100,000 players copied the state at every step into fresh pages the
/// kernel clears (a third of `result --from`). Room never written is never touched.
///
/// The layout is a record a line ([`layout`]).
pub(crate) fn encode(event: &Event, like: usize) -> Vec<u8> {
    use serde::Serialize;
    let mut bytes = Vec::with_capacity(like + like / 8 + 4096);
    let mut json = serde_json::Serializer::with_formatter(&mut bytes, layout::Records::default());
    event
        .serialize(&mut json)
        .expect("an event always serialises to JSON");
    bytes.push(b'\n');
    bytes
}

/// Whether `after`, the encoding of `event`, holds the same state as `before`: the same
/// bytes, or `before` in the fully indented layout of a qiwang before the record-a-line
/// one ([`layout`]) and `event` written that way gives them, so that a command which
/// changes nothing writes nothing on an event from an older qiwang either.
pub(crate) fn unchanged(before: &[u8], after: &[u8], event: &Event) -> bool {
    if after == before {
        return true;
    }
    // Written the older way into a comparison with `before`, not into memory: the
    // writing stops at the first byte that differs, which for a state of the current
    // layout is within its first player.
    let mut rest = Against(before);
    serde_json::to_writer_pretty(&mut rest, event).is_ok() && rest.0 == b"\n"
}

/// A writer that only compares what is written with the bytes it holds, in order, and
/// fails at the first difference.
struct Against<'a>(&'a [u8]);

impl io::Write for Against<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0.strip_prefix(buf) {
            Some(rest) => {
                self.0 = rest;
                Ok(buf.len())
            }
            None => Err(io::Error::other("the bytes differ")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The bytes of a snapshot file holding the state `state`: gzip, which shrinks the JSON
/// about eightfold a record a line (the 100,000-player event of docs/performance.md's
/// fifth pass: 86,537,549 → 11,134,919 bytes, `ls -l` of its `qiwang.json` and of the
/// snapshot its next change wrote) and about tenfold fully indented as it was before
/// (3,000 players: 1.75 MB → under 0.2 MB, measured by the ignored test
/// `store::history_sizes_of_a_3000_player_event` in `tests/it/store.rs`).
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
pub(super) mod tests;
