//! The exact texts users see, as case files under `tests/cmd/` run by trycmd: help and
//! version, usage errors (exit 2), input errors (exit 3, 5), the report of an internal
//! error (a panic, exit 1), the notes an import of an organiser's sheet gives (`sheets/`),
//! `rules check` and `template` on the bundled rulebooks, the seeded demo, and a small
//! event run, each in Chinese and in English. A `*.toml` case gives the arguments and the exit status; its `*.stdout` and
//! `*.stderr` beside it are the whole of each stream. A `*.md` case is a terminal session
//! of several commands in one sandbox (stdout and stderr together, as a terminal shows
//! them). `TRYCMD=overwrite cargo test --test it cases` rewrites the expected outputs
//! after a deliberate change; review the diff.
//!
//! The cases sit one folder deep (`tests/cmd/help/…`): the rulebooks inside the
//! fixtures (`*.in/`, `youth-round-1/ev/rules.toml`) are `.toml` files too and must not
//! be taken for cases. A fixture event with no change yet (`sheets/cxa-event/ev`) keeps
//! an empty `history/` in git with a `.gitkeep`, which qiwang ignores.

use std::fs;
use std::path::Path;

/// Every case file, each run on its own (in a sandbox when it may write).
#[test]
fn exact_cli_texts() {
    trycmd::TestCases::new()
        .register_bin("qiwang", Path::new(env!("CARGO_BIN_EXE_qiwang")))
        .default_bin_name("qiwang")
        // The audit log's user, and no terminal width from the caller's shell: piped
        // output is not wrapped.
        .env("QIWANG_USER", "arbiter")
        .env("COLUMNS", "")
        .insert_var("[VERSION]", env!("CARGO_PKG_VERSION"))
        .expect("a valid placeholder")
        // `demo` names the binary it was run as in the commands it suggests.
        .insert_var("[QIWANG]", env!("CARGO_BIN_EXE_qiwang"))
        .expect("a valid placeholder")
        .case("tests/cmd/*/*.toml")
        .case("tests/cmd/*/*.md");
}

/// A `*.toml` case checks a stream only when its file exists: every case has both, so
/// none leaves its stdout or stderr unchecked (an empty file says the stream is empty).
#[test]
fn every_toml_case_pins_both_streams() {
    let cmd = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cmd");
    let mut cases = 0;
    for folder in fs::read_dir(&cmd).expect("tests/cmd") {
        let folder = folder.expect("dir entry").path();
        if !folder.is_dir() {
            continue;
        }
        for file in fs::read_dir(&folder).expect("case folder") {
            let case = file.expect("dir entry").path();
            if case.extension() != Some("toml".as_ref()) {
                continue;
            }
            cases += 1;
            for stream in ["stdout", "stderr"] {
                assert!(
                    case.with_extension(stream).is_file(),
                    "{} has no .{stream} file",
                    case.display()
                );
            }
        }
    }
    assert!(cases > 0, "no case files under {}", cmd.display());
}
