//! An audit trail that lost the lines of changes `history/` holds (cut inside its last
//! line with no crash journal, cut at a line boundary, emptied) and a deleted state file:
//! every change, undo and redo is refused with the way back, and the way back, followed
//! literally, leaves an event whose undo reverts one change at a time.

use super::crashes::assert_consistent;
use super::*;

/// The refusal's advice (English).
fn advice(err: &StoreError) -> String {
    let recovery = match err {
        StoreError::Damaged { recovery, .. } => recovery,
        StoreError::OlderCopy { recovery, .. } => &**recovery,
        other => panic!("{other}"),
    };
    crate::i18n::facts::assert_same(&recovery.zh, &recovery.en);
    recovery.en.clone()
}

/// The text between `` (`{start}`` and the next backquote of `en`.
fn quoted<'a>(en: &'a str, start: &str) -> &'a str {
    let from = en.find(&format!("(`{start}")).expect(en) + 2;
    &en[from..from + en[from..].find('`').unwrap()]
}

/// Does what the advice `en` says: moves the files its `mv` names, cuts the incomplete
/// last line of audit.log when it says so, unpacks the snapshot it names over the state.
fn follow(store: &Store, en: &str) {
    let mv = quoted(en, "mkdir -p ");
    let (mkdir, mv) = mv.split_once(" && mv ").unwrap();
    let aside = Path::new(mkdir.trim_start_matches("mkdir -p "));
    fs::create_dir_all(aside).unwrap();
    let files: Vec<&str> = mv.split(' ').collect();
    let (target, files) = files.split_last().unwrap();
    assert_eq!(Path::new(target), aside);
    for file in files {
        let file = Path::new(file);
        fs::rename(file, aside.join(file.file_name().unwrap())).unwrap();
    }
    if let Some(at) = en.find("keep only the lines of audit.log that can be trusted (`") {
        // `… && head -n K <copy> > audit.log`: the first K lines kept.
        let cut = quoted(&en[at..], "mkdir -p ");
        let keep: usize = cut
            .split("head -n ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let text = fs::read_to_string(store.audit_path()).unwrap();
        let kept: String = text.split_inclusive('\n').take(keep).collect();
        fs::write(store.audit_path(), kept).unwrap();
    }
    if en.contains("delete the incomplete line") {
        let bytes = fs::read(store.audit_path()).unwrap();
        let keep = audit::complete_len(&bytes) as usize;
        fs::write(store.audit_path(), &bytes[..keep]).unwrap();
    }
    let gzip = quoted(en, "gzip -dc ");
    let (snapshot, state) = gzip
        .trim_start_matches("gzip -dc ")
        .split_once(" > ")
        .unwrap();
    let bytes = state::snapshot_state(Path::new(snapshot), fs::read(snapshot).unwrap()).unwrap();
    fs::write(state, bytes).unwrap();
}

/// Every command that writes refuses, and says the same.
fn assert_refused(store: &Store) -> String {
    let state = fs::read(store.state_path()).unwrap();
    let err = store.undo(&command("undo")).unwrap_err();
    let message = err.to_string();
    assert_eq!(store.undo_plan().unwrap_err().to_string(), message);
    assert_eq!(
        store.redo(&command("redo")).unwrap_err().to_string(),
        message
    );
    assert_eq!(failed_penalty(store).to_string(), message);
    let trail = store.log_brief().unwrap();
    assert_eq!(
        store.unaccounted(&trail).unwrap().unwrap().to_string(),
        message
    );
    assert_eq!(fs::read(store.state_path()).unwrap(), state);
    message
}

/// The last line cut inside with no journal: deleting the line (the old advice) left
/// the state one change ahead of the log, and the next undo reverted two changes. Now the
/// trail is refused until the unrecorded change's file is set aside and its state put
/// back; then the change is made again and each undo reverts one change.
#[test]
fn a_last_line_cut_without_a_journal_is_refused_until_the_way_back_is_followed() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    add_penalty(&store);
    add_penalty(&store);
    let bytes = fs::read(store.audit_path()).unwrap();
    fs::write(store.audit_path(), &bytes[..bytes.len() - 20]).unwrap();
    let message = assert_refused(&store);
    assert!(
        message.contains("line 4 is incomplete, and no journal"),
        "{message}"
    );
    assert!(message.contains("changes #4, which no line"), "{message}");
    // Deleting the line alone, as the old advice said, is still refused.
    let cut = audit::complete_len(&bytes[..bytes.len() - 20]) as usize;
    fs::write(store.audit_path(), &bytes[..cut]).unwrap();
    let alone = assert_refused(&store);
    assert!(!alone.contains("incomplete"), "{alone}");
    fs::write(store.audit_path(), &bytes[..bytes.len() - 20]).unwrap();
    follow(&store, &advice(&store.undo(&command("undo")).unwrap_err()));
    assert_eq!(count(&store), 2);
    assert_consistent(&store);
    assert!(message.ends_with("#4 penalty"), "{message}");
    add_penalty(&store);
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 4);
    assert_eq!(count(&store), 2);
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 3);
    assert_eq!(count(&store), 1);
}

/// A second incident after the same step sets its files aside in a folder of its own:
/// one shared folder let the second `mv` overwrite the first incident's files (the
/// changes made again reuse their numbers).
#[test]
fn a_second_incident_keeps_the_files_the_first_set_aside() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    add_penalty(&store);
    let cut_last_line = || {
        let bytes = fs::read(store.audit_path()).unwrap();
        fs::write(store.audit_path(), &bytes[..bytes.len() - 20]).unwrap();
        advice(&store.undo(&command("undo")).unwrap_err())
    };
    let first = cut_last_line();
    follow(&store, &first);
    add_penalty(&store);
    let second = cut_last_line();
    follow(&store, &second);
    let aside = store.dir().join("history-unlogged");
    for folder in ["after-2", "after-2-2"] {
        let names: Vec<String> = fs::read_dir(aside.join(folder))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 1, "{folder}: {names:?}");
        assert!(names[0].starts_with("000003-"), "{folder}: {names:?}");
    }
    assert!(
        second.contains("/history-unlogged/after-2-2 && mv "),
        "{second}"
    );
    assert_consistent(&store);
}

/// When the oldest unrecorded file is no state to put back and the trail gives no way
/// back, the advice does not name a later file as the state to go back to: those are the
/// files it sets aside. It says there is none, and the words read as one sentence.
#[test]
fn the_way_back_from_unrecorded_changes_names_no_file_it_sets_aside() {
    let (_tmp, store) = new_event();
    for _ in 0..3 {
        add_penalty(&store);
    }
    let text = fs::read_to_string(store.audit_path()).unwrap();
    let first: String = text.split_inclusive('\n').take(1).collect();
    fs::write(store.audit_path(), first).unwrap();
    let names = snapshot_names(&store);
    fs::write(store.history_dir().join(&names[0]), b"broken").unwrap();
    let en = advice(&store.undo(&command("undo")).unwrap_err());
    assert!(!en.contains("gzip -dc "), "{en}");
    assert!(
        en.contains("then go back to the state after step #1: `")
            && en.contains("` has no readable snapshot, so restore qiwang.json from a backup, and make those changes again"),
        "{en}"
    );
}

/// A trail cut at a line boundary (an older copy put back) or emptied: undo would have
/// restored the snapshot of its last line, reverting every later change at once.
#[test]
fn a_trail_missing_whole_lines_is_refused_with_the_way_back() {
    for keep in [3, 0] {
        let (_tmp, store) = new_event();
        for _ in 0..5 {
            add_penalty(&store);
        }
        let text = fs::read_to_string(store.audit_path()).unwrap();
        let kept: String = text.split_inclusive('\n').take(keep).collect();
        fs::write(store.audit_path(), kept).unwrap();
        let message = assert_refused(&store);
        let first = if keep == 0 { 2 } else { keep + 1 };
        assert!(
            message.contains(&format!("also holds the files of changes #{first}, ")),
            "{message}"
        );
        let en = advice(&store.undo(&command("undo")).unwrap_err());
        let before = history_state_of(&store, first);
        follow(&store, &en);
        assert_eq!(fs::read(store.state_path()).unwrap(), before, "{en}");
        let trail = store.log_brief().unwrap();
        assert!(store.unaccounted(&trail).unwrap().is_none(), "{en}");
        add_penalty(&store);
        let made = store.log_brief().unwrap().last_seq();
        let undone = store.undo(&command("undo")).unwrap();
        assert_eq!(undone.undone.seq, made, "{en}");
        assert_eq!(fs::read(store.state_path()).unwrap(), before);
    }
}

/// The state held by the file of change `seq` in `history/`.
fn history_state_of(store: &Store, seq: usize) -> Vec<u8> {
    let name = snapshot_names(store)
        .into_iter()
        .find(|n| n.starts_with(&format!("{seq:06}-")))
        .unwrap();
    store.read_snapshot(&name).unwrap()
}

/// A line deleted in the middle of the trail (as the old advice for a damaged line said,
/// or by hand) while its change's file is in `history/`: undo replayed the trail without
/// it and reverted two changes as one. Now the gap is refused with the way back from the
/// last line before it; followed literally, each undo reverts one change again.
#[test]
fn a_line_deleted_in_the_middle_is_refused_with_the_way_back() {
    let (_tmp, store) = new_event();
    for _ in 0..5 {
        add_penalty(&store);
    }
    let text = fs::read_to_string(store.audit_path()).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let holed: String = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 3)
        .map(|(_, l)| *l)
        .collect();
    fs::write(store.audit_path(), holed).unwrap();
    let message = assert_refused(&store);
    assert!(
        message.contains("line 4 records step #5 right after step #3: no line records step #4"),
        "{message}"
    );
    let en = advice(&store.undo(&command("undo")).unwrap_err());
    assert!(en.contains("head -n 3 "), "{en}");
    assert!(en.ends_with("#4 penalty, #5 penalty, #6 penalty"), "{en}");
    let before = history_state_of(&store, 4);
    follow(&store, &en);
    assert_eq!(fs::read(store.state_path()).unwrap(), before, "{en}");
    assert_eq!(count(&store), 2);
    assert_consistent(&store);
    add_penalty(&store);
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 4);
    assert_eq!(count(&store), 2);
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 3);
    assert_eq!(count(&store), 1);
}

/// A line repeated: a copy of the line before it is named and dropped alone; an earlier
/// line appended again (not a copy of the one before) cuts the trail before it. Either
/// way no file of a later change is in `history/`, so nothing is to be redone.
#[test]
fn a_repeated_line_is_refused_until_it_is_cut_off() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    add_penalty(&store);
    let text = fs::read_to_string(store.audit_path()).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (again, words) in [
        (
            lines[2],
            "line 4 is the same as line 3, a copy: delete line 4 (`",
        ),
        (lines[1], "Keep only the first 3 lines of audit.log (`"),
    ] {
        fs::write(store.audit_path(), format!("{text}{again}")).unwrap();
        let message = assert_refused(&store);
        let seq = if again == lines[2] { 3 } else { 2 };
        assert!(
            message.contains(&format!("line 4 records step #{seq} again after step #3")),
            "{message}"
        );
        let en = advice(&store.undo(&command("undo")).unwrap_err());
        assert!(en.contains(words), "{en}");
        assert!(en.contains("redo nothing"), "{en}");
        let cut = quoted(&en, "mkdir -p ");
        assert!(
            cut.ends_with(&format!(" > {}", store.audit_path().display())),
            "{cut}"
        );
        // The command as given, run by the shell, leaves the first three lines.
        if cfg!(unix) {
            let ran = std::process::Command::new("sh")
                .args(["-c", cut])
                .status()
                .unwrap();
            assert!(ran.success(), "{cut}");
        } else {
            fs::write(store.audit_path(), &text).unwrap();
        }
        assert_eq!(fs::read_to_string(store.audit_path()).unwrap(), text);
        assert!(
            store
                .unaccounted(&store.log_brief().unwrap())
                .unwrap()
                .is_none()
        );
    }
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 3);
    assert_eq!(count(&store), 1);
}

/// A deleted `qiwang.json`: opening the event (by `--event` or from inside it) and `init`
/// there name the snapshot that gives its state back, instead of "no event here" and an
/// `init` that refuses.
#[test]
fn a_deleted_state_file_is_refused_with_the_snapshot_to_put_back() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    add_penalty(&store);
    let good = fs::read(store.state_path()).unwrap();
    fs::remove_file(store.state_path()).unwrap();
    let inside = store.dir().join("sub");
    fs::create_dir(&inside).unwrap();
    let refusals = [
        Store::open(store.dir()).unwrap_err(),
        Store::discover(&inside).unwrap_err(),
        Store::init(
            store.dir(),
            RULES,
            &Event::new(RULES.into()),
            &command("init"),
        )
        .unwrap_err(),
    ];
    for err in &refusals {
        let message = err.to_string();
        assert!(message.contains("the file is missing"), "{message}");
        assert!(message.contains("000003-penalty.json.gz"), "{message}");
    }
    let en = advice(&refusals[0]);
    let gzip = quoted(&en, "gzip -dc ");
    let (snapshot, state) = gzip
        .trim_start_matches("gzip -dc ")
        .split_once(" > ")
        .unwrap();
    let bytes = state::snapshot_state(Path::new(snapshot), fs::read(snapshot).unwrap()).unwrap();
    fs::write(state, bytes).unwrap();
    store.undo(&command("undo")).unwrap();
    add_penalty(&store);
    assert_eq!(
        unnumbered(&fs::read(store.state_path()).unwrap()),
        unnumbered(&good),
        "{en}"
    );
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 5);
    assert_eq!(count(&store), 1);
}

/// A change in flight (its journal, file and state written, its line not yet) is
/// another command's business: a reader without the lock (`undo --dry-run`) is not
/// refused for it, and a change reconciles it before checking the trail.
#[test]
fn a_change_in_flight_is_not_an_unrecorded_change() {
    use super::crashes::{CrashPoint, crash_after};
    let (_tmp, store) = new_event();
    add_penalty(&store);
    crash_after(&store, CrashPoint::Rename);
    let plan = store.undo_plan().unwrap();
    assert_eq!((plan.undone.seq, plan.interrupted), (2, Some(3)));
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 3);
    assert_eq!(count(&store), 1);
}

/// A line deleted in the middle of a trail while a change is in flight (or a crash left
/// its journal and no command has reconciled it yet): the journal explains the change's
/// file and its missing line, never a line missing among those before it. `log` and
/// `undo --dry-run` skipped the numbering check then, and planned an undo on a trail that
/// lost a change; they are refused as the change itself is once reconciled.
#[test]
fn a_journal_does_not_hide_a_line_deleted_in_the_middle() {
    use super::crashes::{CrashPoint, crash_after};
    let (_tmp, store) = new_event();
    for _ in 0..4 {
        add_penalty(&store);
    }
    crash_after(&store, CrashPoint::Rename);
    let text = fs::read_to_string(store.audit_path()).unwrap();
    let holed: String = text
        .split_inclusive('\n')
        .enumerate()
        .filter(|&(i, _)| i != 2)
        .map(|(_, l)| l)
        .collect();
    fs::write(store.audit_path(), holed).unwrap();
    let trail = store.log_brief().unwrap();
    assert_eq!(trail.interrupted, Some(6));
    let gap = "line 3 records step #4 right after step #2: no line records step #3";
    let message = store.unaccounted(&trail).unwrap().unwrap().to_string();
    assert!(message.contains(gap), "{message}");
    let message = store.undo_plan().unwrap_err().to_string();
    assert!(message.contains(gap), "{message}");
    // A change reconciles the journal (the change had landed: its line is added), and
    // the gap is refused all the same.
    let message = failed_penalty(&store).to_string();
    assert!(message.contains(gap), "{message}");
    assert_eq!(store.log_brief().unwrap().interrupted, None);
}

/// A trail that lost the lines of many changes (an old copy put back after a long day):
/// the advice names the first [`LISTED`] of them and counts the rest, and sets their
/// files aside with one short loop rather than an `mv` naming each, which, run by the
/// shell, moves exactly those files.
#[test]
fn an_incident_of_many_changes_is_told_in_a_bounded_advice() {
    use crate::store::advice::LISTED;
    let (_tmp, store) = new_event();
    add_penalty(&store);
    let old = fs::read(store.audit_path()).unwrap();
    for _ in 0..25 {
        add_penalty(&store);
    }
    fs::write(store.audit_path(), &old).unwrap();
    let message = assert_refused(&store);
    assert!(
        message.contains("also holds the files of changes #3, #4, #5, #6, #7, #8, #9, #10, #11, #12 (and 15 more), which no line records"),
        "{message}"
    );
    let StoreError::Damaged { recovery, .. } = store.undo(&command("undo")).unwrap_err() else {
        panic!()
    };
    crate::i18n::facts::assert_same(&recovery.zh, &recovery.en);
    for text in [&recovery.zh, &recovery.en] {
        assert_eq!(text.matches(" penalty").count(), LISTED, "{text}");
        assert!(!text.contains("#13") && !text.contains("000027-"), "{text}");
    }
    assert!(
        recovery.en.ends_with("#3 penalty, #4 penalty, #5 penalty, #6 penalty, #7 penalty, #8 penalty, #9 penalty, #10 penalty, #11 penalty, #12 penalty (and 15 more)"),
        "{}",
        recovery.en
    );
    assert!(
        recovery.zh.contains("#12 penalty（另有 15 个）"),
        "{}",
        recovery.zh
    );
    let moved = quoted(&recovery.en, "mkdir -p ");
    assert!(moved.contains(" && for f in "), "{moved}");
    if cfg!(unix) {
        let before = snapshot_names(&store);
        let ran = std::process::Command::new("sh")
            .args(["-c", moved])
            .status()
            .unwrap();
        assert!(ran.success(), "{moved}");
        assert_eq!(snapshot_names(&store), before[..1]);
        let aside = store.dir().join("history-unlogged/after-2");
        let mut set: Vec<String> = fs::read_dir(aside)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        set.sort();
        assert_eq!(set, before[1..]);
    }
}

/// An older copy of the state put back (`stale.rs`): every change is refused and writes
/// nothing; `undo` restores the state before the newest change in effect, after which the
/// trail and the state agree, and `redo` gives back the newest state exactly.
#[test]
fn an_older_state_put_back_is_refused_until_undo_restores_one_the_trail_describes() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    let older = fs::read(store.state_path()).unwrap();
    add_penalty(&store);
    add_penalty(&store);
    let newest = fs::read(store.state_path()).unwrap();
    fs::write(store.state_path(), &older).unwrap();
    let files = files_of(&store);
    match failed_penalty(&store) {
        TxError::Store(StoreError::OlderCopy {
            detail, recovery, ..
        }) => {
            crate::i18n::facts::assert_same(&detail.zh, &detail.en);
            assert!(
                detail
                    .en
                    .contains("written by step #2, but audit.log has reached step #4"),
                "{detail}"
            );
            assert!(
                recovery.en.contains("undo` (it undoes step #4"),
                "{recovery}"
            );
        }
        other => panic!("{other}"),
    }
    assert_eq!(files_of(&store), files);
    store.undo(&command("undo")).unwrap();
    let event = store.load().unwrap();
    assert_eq!((event.penalties.len(), event.change), (2, Some(3)));
    assert!(
        store
            .stale(&store.log_brief().unwrap(), event.change)
            .is_none()
    );
    // A redo would put the older copy back while the log says #4 is in effect again.
    let files = files_of(&store);
    let refused = store.redo(&command("redo")).unwrap_err().to_string();
    assert!(
        refused.contains("the undo #5 replaced an older copy written by step #2")
            && refused.contains("make change #4 again by hand: #4 `qiwang "),
        "{refused}"
    );
    assert_eq!(files_of(&store), files);
    add_penalty(&store);
    let event = store.load().unwrap();
    assert_eq!((event.penalties.len(), event.change), (3, Some(6)));
    assert_eq!(
        unnumbered(&fs::read(store.state_path()).unwrap()),
        unnumbered(&newest)
    );
}
