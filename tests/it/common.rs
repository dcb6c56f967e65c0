//! Helpers shared by the integration tests that drive the binary.

use std::path::Path;
use std::process::{Command, Output};

pub const BIN: &str = env!("CARGO_BIN_EXE_qiwang");

/// Runs qiwang on the event in `dir` as audit user `user`. Messages are pinned in
/// English; errors would otherwise follow the Chinese rulebook.
pub fn qiwang_as(user: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(["--lang", "en"])
        .arg("--event")
        .arg(dir)
        .args(args)
        .env("QIWANG_USER", user)
        .output()
        .unwrap()
}

/// `out`, after failing the test with stderr unless the command succeeded.
pub fn succeeded(args: &[&str], out: Output) -> Output {
    assert!(
        out.status.success(),
        "qiwang {args:?} failed ({:?}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Whether the long campaigns and the 500–1,000-player reference solves run: set
/// `QIWANG_SLOW_TESTS=1` (`.ci/run` does). Plain `cargo test` skips them to stay fast.
pub fn slow_tests() -> bool {
    std::env::var("QIWANG_SLOW_TESTS").is_ok_and(|v| v == "1")
}
