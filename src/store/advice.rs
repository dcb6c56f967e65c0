//! What to tell a user whose `qiwang.json` is refused: which file of `history/` to put
//! back and which changes to redo after it, so that the state comes back to the one
//! `audit.log` describes.
//!
//! Each audit line's snapshot holds the state *before* that line, and an undo or redo
//! line restored the state its details name (`restored`): so the state after line `k` is
//! the snapshot of line `k + 1`, or, for an undo or redo, the file it restored. When
//! neither is a whole snapshot this qiwang reads (a step `.diff.gz` is no state by
//! itself, `gzip -dc` of it gives a delta), the state after an undo is the state after
//! the line before the change it undid, the state after a redo the state after the line
//! before the undo it took back, and the state after a change the state after the line
//! before it with the change redone. Walking back so from the last line ends at a whole
//! snapshot and the changes to redo after it, in order, undone changes left out.
//!
//! When the last of those changes is the one `undo` reverts now (the usual case), the
//! advice is the snapshot put back, then `qiwang undo`, then that one change redone by
//! hand: the undo restores the state before the change from `history/` (the changes
//! before it included) and logs the change as undone, so the change redone is in effect
//! once in the log and each later undo reverts one change. Otherwise the changes are
//! redone in order on the snapshot.

use super::action::{Action, PairedRound};
use super::{AuditEntry, AuditTrail, EntryKind, Store, audit, fsio, snapshots, state};
use crate::argv::{self, Word};
use crate::i18n::Text;
use crate::privacy::masked_argv;
use crate::rulebook::Lang;
use crate::sanitize::{path_argument, shell_path, shell_word};
use std::collections::BTreeMap;
use std::path::Path;

/// How many commands to redo the advice spells out before it says "and N more".
const SPELLED: usize = 5;

/// At most this many items of a list the advice prints (changes, steps, files to move),
/// the rest counted: an incident of thousands of changes is not told in thousands of
/// items.
pub(super) const LISTED: usize = 10;

/// The first [`LISTED`] of `items` (each in Chinese and English) joined, and how many
/// more there are.
pub(super) fn listed(items: impl ExactSizeIterator<Item = (String, String)>) -> Text {
    let more = items.len().saturating_sub(LISTED);
    let (zh, en): (Vec<String>, Vec<String>) = items.take(LISTED).unzip();
    let (mut zh, mut en) = (zh.join("、"), en.join(", "));
    if more > 0 {
        zh.push_str(&format!("（另有 {more} 个）"));
        en.push_str(&format!(" (and {more} more)"));
    }
    Text::new(zh, en)
}

/// A way back to the state the audit trail describes.
#[derive(Debug, PartialEq)]
struct WayBack<'t> {
    /// The whole snapshot to put back (a file of `history/`).
    base: String,
    /// The line the base state follows (its state is the state after this line).
    after: u64,
    /// The changes to redo on the base, oldest first.
    redo: Vec<&'t AuditEntry>,
    /// Whether changes logged after `after` are left out because they were undone.
    skips_undone: bool,
}

impl Store {
    /// What to tell a user whose `qiwang.json` cannot be used (a hand edit or a crash
    /// that broke it): the snapshot in `history/` and the changes to redo that give back
    /// exactly the state `audit.log` describes; when the audit trail cannot be read, the
    /// newest readable whole snapshot.
    pub fn recovery_hint(&self) -> Text {
        self.way_back_hint(&Text::new("qiwang 没有改动它", "qiwang left it untouched"))
    }

    /// [`Store::recovery_hint`] after `lead` (what qiwang did not do to the state file).
    pub(super) fn way_back_hint(&self, lead: &Text) -> Text {
        let way = match audit::read_brief(&self.audit_path()) {
            Ok((_, trail)) => self.recovery_on(&trail, None),
            Err(_) => self.newest_snapshot(None),
        };
        way.after(lead)
    }

    /// The way back to the state `trail` describes (the part of a damaged trail that can
    /// be trusted, `unlogged.rs`): through the trail, else through the newest readable
    /// whole snapshot, of a change numbered `upto` at most when given.
    pub(super) fn recovery_on(&self, trail: &AuditTrail, upto: Option<u64>) -> Recovery {
        match self.way_back(trail) {
            Some(way) => self.worded(&way, trail),
            None => self.newest_snapshot(upto),
        }
    }

    /// The walk of the module documentation, from the state after the last line.
    fn way_back<'t>(&self, trail: &'t AuditTrail) -> Option<WayBack<'t>> {
        let lines: BTreeMap<u64, &AuditEntry> = trail.entries.iter().map(|e| (e.seq, e)).collect();
        let mut good = BTreeMap::new();
        let mut whole = |name: &str| {
            *good
                .entry(name.to_string())
                .or_insert_with(|| self.is_whole_good(name))
        };
        let last = trail.last_seq();
        let mut at = last;
        let mut redo = Vec::new();
        // Every step goes back at least one line (a hand-edited trail cannot loop).
        for _ in 0..=lines.len() {
            if let Some(name) = lines.get(&(at + 1)).and_then(|l| l.snapshot.as_deref())
                && whole(name)
            {
                return Some(self.way(name, at, redo, &lines));
            }
            let line = lines.get(&at)?;
            let back = match line.kind {
                EntryKind::Init => return None,
                EntryKind::Change => {
                    if line.snapshot.is_some() {
                        redo.push(*line);
                    }
                    Some(at)
                }
                EntryKind::Undo | EntryKind::Redo => {
                    if let Some(name) = restored(line)
                        && whole(name)
                    {
                        return Some(self.way(name, at, redo, &lines));
                    }
                    match line.kind {
                        EntryKind::Undo => line.undoes,
                        _ => line.redoes,
                    }
                }
            };
            at = back.filter(|&b| b >= 1 && b <= at)? - 1;
        }
        None
    }

    fn way<'t>(
        &self,
        base: &str,
        after: u64,
        mut redo: Vec<&'t AuditEntry>,
        lines: &BTreeMap<u64, &'t AuditEntry>,
    ) -> WayBack<'t> {
        redo.reverse();
        let skips_undone = lines
            .range(after + 1..)
            .any(|(_, l)| l.kind == EntryKind::Change && l.snapshot.is_some() && !redo.contains(l));
        WayBack {
            base: base.to_string(),
            after,
            redo,
            skips_undone,
        }
    }

    /// Whether `name` is a whole snapshot of `history/` holding a state this qiwang reads.
    pub(super) fn is_whole_good(&self, name: &str) -> bool {
        let plain = !name.contains(['/', '\\']) && state::snapshot_seq(name).is_some();
        if !plain || snapshots::is_step(name) {
            return false;
        }
        let path = self.history_dir().join(name);
        fsio::read(&path)
            .ok()
            .and_then(|bytes| state::snapshot_state(&path, bytes).ok())
            .is_some_and(|bytes| state::is_good(&bytes))
    }

    /// The advice for `way` through `trail`, after `lead`.
    ///
    /// When the change to redo last is the one `undo` reverts now (the newest in
    /// effect), the advice runs `qiwang undo` before redoing it by hand: that undo restores
    /// the state before the change from `history/` (every change before it back in place)
    /// and records that the change is undone, so the change redone by hand is logged once
    /// in effect and the next `undo` reverts it. Redoing it on the bare snapshot instead
    /// would log it twice in effect, and the second `undo` would report undoing a change
    /// it does not revert.
    fn worded(&self, way: &WayBack, trail: &AuditTrail) -> Recovery {
        let last = trail.last_seq();
        let snapshot = self.history_dir().join(&way.base);
        let Some(newest) = way.redo.last() else {
            // `qiwang log` itself refuses a damaged state, so the trail is named as its file.
            let holding = Text::new(
                format!("第 {last} 步之后的状态"),
                format!("the state after step #{last}"),
            );
            return Recovery::Whole(put_back(&snapshot, &self.state_path(), Some(&holding)));
        };
        let after = way.after;
        let holding = Text::new(
            format!("第 {after} 步之后的状态"),
            format!("the state after step #{after}"),
        );
        let put_back = put_back(&snapshot, &self.state_path(), Some(&holding));
        let by_undo =
            super::history::undo_target(trail).is_ok_and(|target| target.seq == newest.seq);
        if by_undo {
            let earlier = &way.redo[..way.redo.len() - 1];
            let between = if earlier.is_empty() {
                Text::new("", "")
            } else {
                let steps = listed(
                    earlier
                        .iter()
                        .map(|l| (l.seq.to_string(), format!("#{}", l.seq))),
                );
                Text::new(
                    format!("，第 {} 步随之恢复", steps.zh),
                    format!(", with steps {} in it", steps.en),
                )
            };
            let undo = self.undo_then_redo(newest, &between);
            return Recovery::Steps(Text::new(
                format!("{}，再{}", put_back.zh, undo.zh),
                format!("{}, then {}", put_back.en, undo.en),
            ));
        }
        let steps = listed(
            way.redo
                .iter()
                .map(|l| (l.seq.to_string(), format!("#{}", l.seq))),
        );
        let (zh_commands, en_commands) = spelled(self.dir(), &way.redo);
        let (zh_skip, en_skip) = if way.skips_undone {
            (
                "（其间已撤销的修改不重做）",
                " (the changes undone since are left out)",
            )
        } else {
            ("", "")
        };
        Recovery::Steps(Text::new(
            format!(
                "{}，再依次重做第 {} 步{zh_skip}：{zh_commands}",
                put_back.zh, steps.zh
            ),
            format!(
                "{}, then redo steps {} in this order{en_skip}: {en_commands}",
                put_back.en, steps.en
            ),
        ))
    }

    /// "run `qiwang undo` (…), then redo step #n: `qiwang …`", `newest` being the change
    /// `undo` reverts now: the undo restores the state before it from `history/` (with
    /// `between`, the steps that brings back, named) and logs it undone, so the change
    /// redone by hand is in effect once in the log.
    pub(super) fn undo_then_redo(&self, newest: &AuditEntry, between: &Text) -> Text {
        let n = newest.seq;
        let undo = undo_command(self.dir());
        let commands = self.redo_by_hand(newest);
        let (commands_zh, commands_en) = (commands.zh, commands.en);
        Text::new(
            format!(
                "运行 `qiwang {undo}`（撤销第 {n} 步：从 history/ 恢复第 {n} 次修改之前的状态{}，并在 audit.log 记下这一步已撤销），然后重做第 {n} 步：{commands_zh}",
                between.zh
            ),
            format!(
                "run `qiwang {undo}` (it undoes step #{n}: restores the state before change #{n} from history/{} and records in audit.log that #{n} is undone), then redo step #{n}: {commands_en}",
                between.en
            ),
        )
    }

    /// "#n `qiwang …`": the commands that make change `line` again by hand.
    pub(super) fn redo_by_hand(&self, line: &AuditEntry) -> Text {
        let (zh, en) = spelled(self.dir(), &[line]);
        Text::new(zh, en)
    }

    /// The advice without the audit trail: the newest whole snapshot this qiwang reads
    /// (of a change numbered `upto` at most when given: the later ones are set aside by
    /// the advice about unrecorded changes), the state before its change, and the changes
    /// to redo from there.
    fn newest_snapshot(&self, upto: Option<u64>) -> Recovery {
        let history = self.history_dir();
        let good = state::list_snapshots(&history).ok().and_then(|all| {
            all.into_iter()
                .rev()
                .filter(|s| upto.is_none_or(|upto| s.seq <= upto))
                .find(|s| self.is_whole_good(&s.name))
        });
        match good {
            Some(s) => {
                let snapshot = history.join(&s.name);
                let seq = s.seq;
                let holding = Text::new(
                    format!("第 {seq} 次修改之前的状态"),
                    format!("the state before change #{seq}"),
                );
                let put_back = put_back(&snapshot, &self.state_path(), Some(&holding));
                Recovery::Steps(Text::new(
                    format!("{}，再按 `qiwang log` 重做第 {seq} 次起的修改", put_back.zh),
                    format!(
                        "{}, then redo the changes `qiwang log` lists from #{seq} on",
                        put_back.en
                    ),
                ))
            }
            None => Recovery::NoSnapshot(Text::new(
                format!(
                    "`{}` 中没有可读的快照，请从备份恢复 qiwang.json",
                    history.display()
                ),
                format!(
                    "`{}` has no readable snapshot, so restore qiwang.json from a backup",
                    history.display()
                ),
            )),
        }
    }
}

/// A way back, worded without what leads to it.
pub(super) enum Recovery {
    /// The state is kept whole in this snapshot: put it back (the words say how) and
    /// redo nothing.
    Whole(Text),
    /// Put a snapshot back and redo changes: the words say which and how.
    Steps(Text),
    /// No snapshot to put back: what to do instead.
    NoSnapshot(Text),
}

impl Recovery {
    /// The advice after `lead`.
    fn after(self, lead: &Text) -> Text {
        match self {
            Recovery::Whole(put_back) => Text::new(
                format!(
                    "{}；audit.log 所记的当前状态完整保存在快照中。恢复方法：{}，无需重做任何修改",
                    lead.zh, put_back.zh
                ),
                format!(
                    "{}; the state audit.log describes is kept whole in a snapshot: to recover, {}, and redo nothing",
                    lead.en, put_back.en
                ),
            ),
            Recovery::Steps(steps) => Text::new(
                format!("{}；恢复方法：{}", lead.zh, steps.zh),
                format!("{}; to recover, {}", lead.en, steps.en),
            ),
            Recovery::NoSnapshot(instead) => Text::new(
                format!("{}；{}", lead.zh, instead.zh),
                format!("{}; {}", lead.en, instead.en),
            ),
        }
    }

    /// The words alone, as one step of a longer advice (`unlogged.rs`).
    pub(super) fn words(self) -> Text {
        match self {
            Recovery::Whole(t) | Recovery::Steps(t) | Recovery::NoSnapshot(t) => t,
        }
    }
}

/// The commands that redo `lines`, each as `#N `qiwang …`` (a line that only recorded
/// draw seeds in words, [`seeds_in_words`]), the first [`SPELLED`] spelled out and the
/// rest counted; a masked number is pointed out. Each reaches the event in `dir`.
fn spelled(dir: &Path, lines: &[&AuditEntry]) -> (String, String) {
    let spelled: Vec<(u64, Vec<String>, Option<Text>)> = lines
        .iter()
        .take(SPELLED)
        .enumerate()
        .map(|(i, l)| {
            (
                l.seq,
                redo_commands(dir, l),
                seeds_in_words(dir, l, &lines[i + 1..]).or_else(|| demo_in_words(l)),
            )
        })
        .collect();
    let masked = spelled
        .iter()
        .flat_map(|(_, c, _)| c)
        .any(|c| c.contains('*'));
    let commands = |lang: Lang| -> Vec<String> {
        spelled
            .iter()
            .map(|(seq, lines, words)| {
                let mut parts: Vec<String> =
                    lines.iter().map(|c| format!("`qiwang {c}`")).collect();
                parts.extend(words.as_ref().map(|w| w.get(lang).to_string()));
                format!("#{seq} {}", parts.join(" "))
            })
            .collect()
    };
    let more = lines.len().saturating_sub(SPELLED);
    let (mut zh, mut en) = (commands(Lang::Zh).join("；"), commands(Lang::En).join("; "));
    if masked {
        zh.push_str("（带 `*` 的是遮盖了的号码，请换成实际的号码）");
        en.push_str(" (values with `*` are masked numbers: type the real ones)");
    }
    if more > 0 {
        zh.push_str(&format!("；另有 {more} 次见 `qiwang log`"));
        en.push_str(&format!("; {more} more in `qiwang log`"));
    }
    (zh, en)
}

/// Whether `line` is a step of `qiwang demo` (logged `demo result --group kids_b`): the
/// demo made up its results, and no command makes such a step again.
fn by_demo(line: &AuditEntry) -> bool {
    line.command
        .get(command_at(&line.command))
        .is_some_and(|w| w == "demo")
}

/// What to do about a step of `qiwang demo` ([`by_demo`]), in words.
fn demo_in_words(line: &AuditEntry) -> Option<Text> {
    by_demo(line).then(|| {
        Text::new(
            "（`qiwang demo` 的一步，没有命令能重做它：示例赛事可以删掉，再运行 `qiwang demo` 重新生成）",
            "(a step of `qiwang demo`, which no command makes again: an example event can be deleted and made anew with `qiwang demo`)",
        )
    })
}

/// The file an undo or redo line restored, from its details.
fn restored(line: &AuditEntry) -> Option<&str> {
    line.details.get("restored").and_then(|v| v.as_str())
}

/// "copy the snapshot X over S (`gzip -dc X > S`)": a compressed snapshot is unpacked on
/// the way, a plain one (written before compression) copied. The state file is named by
/// its path, as the snapshot is: a bare `qiwang.json` would send a command run elsewhere
/// (`--event ev`) to write a stray file.
pub(super) fn put_back(snapshot: &Path, state: &Path, holding: Option<&Text>) -> Text {
    let command = if snapshot.to_string_lossy().ends_with(".gz") {
        format!("gzip -dc {} > {}", shell_path(snapshot), shell_path(state))
    } else {
        format!("cp {} {}", shell_path(snapshot), shell_path(state))
    };
    let (zh, en) = holding.map_or((String::new(), String::new()), |h| {
        (format!("（{}）", h.zh), format!(" ({})", h.en))
    });
    Text::new(
        format!(
            "把快照 `{}`{zh}复制为 `{}`（`{command}`）",
            snapshot.display(),
            state.display()
        ),
        format!(
            "copy the snapshot `{}`{en} over `{}` (`{command}`)",
            snapshot.display(),
            state.display()
        ),
    )
}

/// The command lines that redo `line` (as the user would type them after `qiwang`): its
/// command as logged, with each round-1 draw it made given as `--seed`. A `pair` logged
/// without `--seed` drew a seed only its line records, and run again would draw another
/// pairing (docs/rules.md §2.2); a `pair --all` that drew seeds is spelled one pool at a
/// time, each with its seed. A seed recorded without a round (a dry run's draw, a draw
/// refused) has none: no command records a given seed, and the command as logged would
/// draw and record another; [`seeds_in_words`] says what to do instead. Each reaches
/// the event in `dir` ([`on_event`]).
fn redo_commands(dir: &Path, line: &AuditEntry) -> Vec<String> {
    if let Some(Action::SeedsRecorded { .. }) = Action::of(line) {
        return Vec::new();
    }
    if by_demo(line) {
        return Vec::new();
    }
    let argv = &on_event(dir, &line.command);
    let given = argv
        .iter()
        .any(|a| a == "--seed" || a.starts_with("--seed="));
    let rounds = match Action::of(line) {
        Some(Action::Paired { rounds, .. }) if !given => rounds,
        _ => return vec![command_line(argv)],
    };
    let drawn = |r: &PairedRound| r.seed.filter(|_| r.round == 1);
    if !rounds.iter().any(|r| drawn(r).is_some()) {
        return vec![command_line(argv)];
    }
    let all = argv.iter().any(|a| a == "--all");
    if let [only] = rounds.as_slice()
        && !all
    {
        let mut again = argv.clone();
        again.extend([
            "--seed".to_string(),
            drawn(only).unwrap_or_default().to_string(),
        ]);
        return vec![command_line(&again)];
    }
    // The options before the command word (`--event`, `--lang` …) and after it (`--relax`,
    // `--allow-small` …) hold for every pool.
    let (global, options) = argv.split_at(command_at(argv));
    let options: Vec<String> = options
        .iter()
        .skip(1)
        .filter(|a| *a != "--all")
        .cloned()
        .collect();
    rounds
        .iter()
        .map(|r| {
            let mut one = global.to_vec();
            one.extend([
                "pair".to_string(),
                "--group".to_string(),
                r.group.to_string(),
            ]);
            one.extend(options.iter().cloned());
            if let Some(seed) = drawn(r) {
                one.extend(["--seed".to_string(), seed.to_string()]);
            }
            command_line(&one)
        })
        .collect()
}

/// What to do about a line that recorded round-1 draw seeds without pairing (`pair
/// --dry-run`, or a round-1 draw refused for want of a legal pairing), in words: no
/// command records a seed again (a seed typed with `--seed` is never recorded, and the
/// command as logged would draw another). So for each seed the advice names the `pair`
/// that makes the same draw with it, or, where one of the `later` lines to redo pairs
/// round 1 of that pool with it (spelled with `--seed`), that step. `None` for any other
/// line. The `pair` reaches the event in `dir` ([`on_event`]).
fn seeds_in_words(dir: &Path, line: &AuditEntry, later: &[&AuditEntry]) -> Option<Text> {
    let Some(Action::SeedsRecorded { seeds }) = Action::of(line) else {
        return None;
    };
    // The options before the command word (`--event`, `--lang` …) hold for the `pair`.
    let mut global = on_event(dir, &line.command);
    global.truncate(command_at(&global));
    let paired_by = |pool: &crate::model::GroupId, seed: u64| {
        later.iter().find_map(|l| match Action::of(l) {
            Some(Action::Paired { rounds, .. })
                if rounds
                    .iter()
                    .any(|r| &r.group == pool && r.round == 1 && r.seed == Some(seed)) =>
            {
                Some(l.seq)
            }
            _ => None,
        })
    };
    let (mut zh, mut en) = (Vec::new(), Vec::new());
    for (pool, seed) in &seeds {
        match paired_by(pool, *seed) {
            Some(k) => {
                zh.push(format!(
                    "{pool} {seed}：第 {k} 步的编排用的就是它，无需另做"
                ));
                en.push(format!(
                    "{pool} {seed}: step #{k} pairs with it, nothing more to do"
                ));
            }
            None => {
                let mut argv = global.clone();
                argv.extend([
                    "pair".to_string(),
                    "--group".to_string(),
                    pool.to_string(),
                    "--seed".to_string(),
                    seed.to_string(),
                ]);
                let pair = command_line(&argv);
                zh.push(format!(
                    "{pool} {seed}：编排第1轮时请用 `qiwang {pair}`，得到同样的抽签"
                ));
                en.push(format!(
                    "{pool} {seed}: pair round 1 with `qiwang {pair}` to make the same draw"
                ));
            }
        }
    }
    Some(Text::new(
        format!(
            "（记录了第1轮抽签种子，没有命令能再次只记录种子；{}）",
            zh.join("；")
        ),
        format!(
            "(recorded round-1 draw seeds, which no command records again by itself; {})",
            en.join("; ")
        ),
    ))
}

/// `undo` for the event in `dir`, named by its path as the snapshot to put back is.
fn undo_command(dir: &Path) -> String {
    command_line(&on_event(dir, &["undo".to_string()]))
}

/// `argv` sent to the event in `dir`: the `--event` it was logged with dropped, wherever
/// it stood (it is a global option), and `--event DIR` put first. The logged one may not
/// reach the event from where the advice is followed: it was relative to the directory
/// the command ran in, or masked in the log (digits in a folder name). The rest is
/// masked as the log masks it ([`masked_argv`]): a line written before the log masked
/// holds whole ID and phone numbers and birth dates, which the advice must not print.
fn on_event(dir: &Path, argv: &[String]) -> Vec<String> {
    let mut out = vec!["--event".to_string(), path_argument(dir)];
    let argv = masked_argv(argv);
    for word in argv::words(&argv, global_with_value) {
        match word {
            Word::Valued {
                name: "--event", ..
            } => {}
            Word::Valued {
                name,
                value,
                joined: true,
            } => out.push(format!("{name}={value}")),
            Word::Valued { name, value, .. } => out.extend([name.to_string(), value.to_string()]),
            Word::Bare(word) => out.push(word.to_string()),
        }
    }
    out
}

/// Whether `name` is a global option that takes a value ([`argv::GLOBAL_WITH_VALUE`]).
fn global_with_value(name: &str) -> bool {
    argv::GLOBAL_WITH_VALUE.contains(&name)
}

/// Where the command word of a logged command line stands.
fn command_at(argv: &[String]) -> usize {
    argv::command_at(argv, global_with_value)
}

/// A logged command line as the user would type it again (arguments with spaces or
/// quotes quoted). Its words are the ones the command line took (a note `-1` was typed
/// `--note=-1`), so none is rewritten; the event's directory is put in by [`on_event`].
fn command_line(argv: &[String]) -> String {
    argv.iter()
        .map(String::as_str)
        .map(shell_word)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
