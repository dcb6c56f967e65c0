//! A standard error that cannot be written (a closed pipe, `2>/dev/full`) never makes
//! qiwang panic (Rust's exit code 101): a run keeps the exit code it would have had, and
//! one whose only problem is a warning it could not write exits with the file I/O code
//! (README "Exit codes"), as a failed standard output does.

use crate::common::{BIN, init, root};
use std::path::Path;
use std::process::{Command, Stdio};

/// Where the child's standard error goes.
#[derive(Clone, Copy)]
enum Sink {
    /// A pipe whose reading end is closed before the child starts: every write fails with
    /// a broken pipe.
    ClosedPipe,
    /// `/dev/full`: every write fails with "no space left on device".
    Full,
}

/// Runs `qiwang ARGS` (with `env`) with standard error going to `sink`; its exit code
/// and standard output.
fn run_with_stderr(args: &[&str], env: &[(&str, &str)], sink: Sink) -> (i32, String) {
    let stderr = match sink {
        Sink::ClosedPipe => {
            let (reader, writer) = std::io::pipe().unwrap();
            drop(reader);
            Stdio::from(writer)
        }
        Sink::Full => Stdio::from(std::fs::File::create("/dev/full").unwrap()),
    };
    let mut cmd = Command::new(BIN);
    cmd.args(args).env_remove("QIWANG_EVENT").stderr(stderr);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn sinks() -> Vec<Sink> {
    if Path::new("/dev/full").exists() {
        vec![Sink::ClosedPipe, Sink::Full]
    } else {
        vec![Sink::ClosedPipe]
    }
}

#[test]
fn a_usage_error_keeps_its_code_when_stderr_cannot_be_written() {
    for sink in sinks() {
        for lang in ["zh", "en"] {
            let (code, _) = run_with_stderr(&["--lang", lang, "--bogus"], &[], sink);
            assert_eq!(code, 2, "--lang {lang}");
        }
    }
}

#[test]
fn an_error_keeps_its_code_when_stderr_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.csv");
    let ev = dir.path().join("ev");
    init(&ev, &root("rules/jinhua-2018.toml"));
    let args = [
        "--event",
        ev.to_str().unwrap(),
        "import",
        missing.to_str().unwrap(),
    ];
    for sink in sinks() {
        let (code, _) = run_with_stderr(&args, &[], sink);
        assert_eq!(code, 5);
    }
    for sink in sinks() {
        let (code, _) =
            run_with_stderr(&["--event", ev.to_str().unwrap(), "result", "x"], &[], sink);
        assert_eq!(code, 3, "a bad result token is invalid input");
    }
}

#[test]
fn a_panic_exits_1_when_stderr_cannot_be_written() {
    for sink in sinks() {
        let (code, _) = run_with_stderr(&["players"], &[("QIWANG_TEST_PANIC", "1")], sink);
        assert_eq!(code, 1);
    }
}

/// A warning nobody can read: the import is done either way; a closed pipe is the reader
/// going away (success, as on standard output), a full disk is a failed write (5).
#[test]
fn an_unwritable_warning_leaves_the_import_done() {
    for (sink, want) in [(Sink::ClosedPipe, 0), (Sink::Full, 5)] {
        if matches!(sink, Sink::Full) && !Path::new("/dev/full").exists() {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let ev = dir.path().join("ev");
        init(&ev, &root("rules/jinhua-2018.toml"));
        let csv = dir.path().join("r.csv");
        std::fs::write(
            &csv,
            "姓名,单位名称,组别,教练\n甲,婺城区棋协,成人组,王老师\n",
        )
        .unwrap();
        let ev = ev.to_str().unwrap();
        let (code, out) = run_with_stderr(
            &[
                "--lang",
                "en",
                "--event",
                ev,
                "import",
                csv.to_str().unwrap(),
            ],
            &[],
            sink,
        );
        assert_eq!(code, want, "{out}");
        assert!(out.contains("imported 1 player"), "{out}");
        let (code, out) = run_with_stderr(&["--event", ev, "players"], &[], Sink::ClosedPipe);
        assert_eq!(code, 0);
        assert!(out.contains('甲'), "{out}");
    }
}

/// Help that cannot be written is a failed write (5), as any other standard output is;
/// the reader going away is not.
#[test]
fn help_that_cannot_be_written_is_an_io_failure() {
    for lang in ["zh", "en"] {
        let args = ["--lang", lang, "--help"];
        if Path::new("/dev/full").exists() {
            let out = Command::new(BIN)
                .args(args)
                .stdout(Stdio::from(std::fs::File::create("/dev/full").unwrap()))
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(5), "--lang {lang}");
        }
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(BIN)
            .args(args)
            .stdout(Stdio::from(writer))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "--lang {lang}");
    }
}

/// A change saved before its confirmation could be printed (`>/dev/full`) says so in the
/// failure, so that nobody enters the same warning or penalty twice; the change is in
/// the log once.
#[test]
fn a_saved_change_whose_output_fails_says_it_was_saved() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    init(&ev, &root("rules/jinhua-2018.toml"));
    let csv = dir.path().join("r.csv");
    std::fs::write(&csv, "姓名,单位名称,组别\n甲,婺城区棋协,成人组\n").unwrap();
    let evs = ev.to_str().unwrap();
    let out = Command::new(BIN)
        .args(["--event", evs, "import", csv.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let out = Command::new(BIN)
        .args(["--event", evs, "warn", "甲", "--reason", "迟到"])
        .env_remove("QIWANG_EVENT")
        .stdout(Stdio::from(std::fs::File::create("/dev/full").unwrap()))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    assert!(stderr.contains("无法写出输出"), "{stderr}");
    assert!(
        stderr.contains("修改已经保存（第 3 步）：再次执行前请先用 `qiwang log` 查看"),
        "{stderr}"
    );
    // A read that cannot print has nothing saved to speak of.
    let out = Command::new(BIN)
        .args(["--event", evs, "players"])
        .env_remove("QIWANG_EVENT")
        .stdout(Stdio::from(std::fs::File::create("/dev/full").unwrap()))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    assert!(!stderr.contains("修改已经保存"), "{stderr}");
    let log = Command::new(BIN)
        .args(["--event", evs, "--lang", "en", "log", "--format", "json"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&log.stdout);
    assert_eq!(log.matches("\"warn\"").count(), 1, "{log}");
}
