//! Helpers shared by the integration tests that drive the binary: where the repository
//! is, how to run `qiwang` and read what it did (or declare all it must do: [`Run`]), and
//! how to copy and compare an event directory. A module keeps a helper of its own only when its meaning is its own.

use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tempfile::TempDir;

pub const BIN: &str = env!("CARGO_BIN_EXE_qiwang");

/// `rel` under the repository root (`rules/…`, `examples/…`, `README.md`).
pub fn root(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// `path` as an argument; the test paths are UTF-8.
pub fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

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

/// Runs qiwang in Chinese on the event in `dir` (the sheets' headers and the messages are
/// the event's language).
pub fn qiwang_zh(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(["--lang", "zh", "--event"])
        .arg(dir)
        .args(args)
        .output()
        .unwrap()
}

/// [`qiwang_zh`] as exit code, stdout and stderr.
pub fn zh_run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = qiwang_zh(dir, args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `qiwang --lang zh --event DIR ARGS` as a [`Run`], declared as it must end.
pub fn zh(dir: &Path, args: &[&str]) -> Run {
    Run::on_event_in("zh", dir, args)
}

/// [`zh`]'s stdout, after failing the test unless it succeeded with nothing on stderr.
#[track_caller]
pub fn zh_ok(dir: &Path, args: &[&str]) -> String {
    zh(dir, args).stderr_empty().check().stdout
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

/// `qiwang --lang en init EVENT --rules RULES`, which must succeed.
pub fn init(event: &Path, rules: &Path) {
    let out = Command::new(BIN)
        .args(["--lang", "en", "init"])
        .arg(event)
        .arg("--rules")
        .arg(rules)
        .output()
        .unwrap();
    succeeded(&["init"], out);
}

/// What one run of the binary did.
#[derive(Debug)]
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    /// Asserts success with nothing on stderr (no warning, no note) and returns stdout.
    /// A success that warns is declared with [`Run`] and its `stderr_has`.
    #[track_caller]
    pub fn ok(self) -> String {
        assert!(
            self.code == 0 && self.stderr.is_empty(),
            "expected success with nothing on stderr ({})\nstdout:\n{}\nstderr:\n{}",
            self.code,
            self.stdout,
            self.stderr
        );
        self.stdout
    }

    /// Asserts the exit code, that a refusal printed nothing on stdout, and that stderr
    /// names every word; returns stderr. (A refusal that prints a report on stdout, as
    /// `check` does, is declared with [`Run`].)
    #[track_caller]
    pub fn fails(self, code: i32, words: &[&str]) -> String {
        assert_eq!(
            self.code, code,
            "expected exit code {code}\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        assert!(
            self.stdout.is_empty(),
            "a refusal printed on stdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        for w in words {
            assert!(
                self.stderr.contains(w),
                "stderr lacks `{w}`:\n{}",
                self.stderr
            );
        }
        self.stderr
    }

    /// Asserts success and parses stdout as JSON.
    #[track_caller]
    pub fn json(self) -> Value {
        let text = self.ok();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
    }
}

/// Runs `qiwang ARGS` in `cwd` as audit user `arbiter`, with no `QIWANG_EVENT` and no
/// `COLUMNS` from the caller's shell, so only the arguments choose the event and width.
pub fn run(cwd: &Path, args: &[&str]) -> Out {
    run_env(cwd, args, &[])
}

/// [`run`] with `env` set on top (`COLUMNS`, say).
pub fn run_env(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Out {
    run_with(cwd, args, env, &[])
}

/// [`run`] with `env` set on top and `removed` taken away.
fn run_with(cwd: &Path, args: &[&str], env: &[(&str, &str)], removed: &[&str]) -> Out {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(cwd)
        .env("USER", "arbiter")
        .env_remove("QIWANG_EVENT")
        .env_remove("COLUMNS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    for k in removed {
        cmd.env_remove(k);
    }
    let out = cmd.output().expect("the qiwang binary runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// One run of the binary declared with everything it must do, checked as a whole: its
/// exit status, words each stream must hold or lack, a stream's whole text, a stream that
/// must stay empty. A
/// failure lists every broken expectation with the status and both streams, so one
/// reading shows the whole run:
///
/// ```ignore
/// Run::new(dir, &["--lang", "en", "pair", "--all"])
///     .status(4)
///     .stdout_has("女子组")
///     .stderr_has("no legal pairing exists")
///     .stderr_lacks("is recorded")
///     .check();
/// ```
///
/// The binary runs as [`run`] runs it, in [`Run::check`], which returns the [`Out`] for
/// what a word cannot say (JSON, a snapshot).
#[must_use = "a Run runs and checks nothing until `.check()`"]
pub struct Run {
    cwd: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
    env_removed: Vec<String>,
    status: Option<i32>,
    expect: Vec<(Stream, Expect)>,
}

#[derive(Clone, Copy)]
enum Stream {
    Stdout,
    Stderr,
}

enum Expect {
    Has(String),
    Lacks(String),
    Is(String),
    Empty,
}

impl Run {
    /// `qiwang ARGS` in `cwd`, expected to exit 0 unless [`Run::status`] says otherwise.
    pub fn new(cwd: &Path, args: &[&str]) -> Run {
        Run {
            cwd: cwd.to_path_buf(),
            args: args.iter().map(ToString::to_string).collect(),
            env: Vec::new(),
            env_removed: Vec::new(),
            status: None,
            expect: Vec::new(),
        }
    }

    /// `qiwang --event EV ARGS`, run beside the event directory `ev`.
    pub fn on_event(ev: &Path, args: &[&str]) -> Run {
        let mut all = vec!["--event", p(ev)];
        all.extend_from_slice(args);
        Run::new(ev.parent().expect("the event's parent"), &all)
    }

    /// `qiwang --lang LANG --event EV ARGS`: [`Run::on_event`] with the messages in
    /// `lang` (before the subcommand, so `result` does not take it for an entry).
    pub fn on_event_in(lang: &str, ev: &Path, args: &[&str]) -> Run {
        let mut all = vec!["--lang", lang];
        all.extend_from_slice(args);
        Run::on_event(ev, &all)
    }

    /// An environment variable set for the run (`COLUMNS`, say).
    pub fn env(mut self, key: &str, value: &str) -> Run {
        self.env.push((key.into(), value.into()));
        self
    }

    /// An environment variable taken away for the run (`USER`, say), after the ones
    /// [`run`] sets.
    pub fn env_remove(mut self, key: &str) -> Run {
        self.env_removed.push(key.into());
        self
    }

    /// The exit status the run must end with.
    pub fn status(mut self, code: i32) -> Run {
        self.status = Some(code);
        self
    }

    /// Standard output must be exactly `text`.
    pub fn stdout_is(mut self, text: &str) -> Run {
        self.expect.push((Stream::Stdout, Expect::Is(text.into())));
        self
    }

    /// Standard error must be exactly `text`.
    pub fn stderr_is(mut self, text: &str) -> Run {
        self.expect.push((Stream::Stderr, Expect::Is(text.into())));
        self
    }

    /// Standard output must contain `words`.
    pub fn stdout_has(mut self, words: &str) -> Run {
        self.expect
            .push((Stream::Stdout, Expect::Has(words.into())));
        self
    }

    /// Standard output must not contain `words`.
    pub fn stdout_lacks(mut self, words: &str) -> Run {
        self.expect
            .push((Stream::Stdout, Expect::Lacks(words.into())));
        self
    }

    /// Standard output must be empty.
    pub fn stdout_empty(mut self) -> Run {
        self.expect.push((Stream::Stdout, Expect::Empty));
        self
    }

    /// Standard error must contain `words`.
    pub fn stderr_has(mut self, words: &str) -> Run {
        self.expect
            .push((Stream::Stderr, Expect::Has(words.into())));
        self
    }

    /// Standard error must not contain `words`.
    pub fn stderr_lacks(mut self, words: &str) -> Run {
        self.expect
            .push((Stream::Stderr, Expect::Lacks(words.into())));
        self
    }

    /// Standard error must be empty.
    pub fn stderr_empty(mut self) -> Run {
        self.expect.push((Stream::Stderr, Expect::Empty));
        self
    }

    /// Runs the binary and fails the test, listing every expectation it broke, unless
    /// the run did all that was declared; returns what it printed.
    #[track_caller]
    pub fn check(self) -> Out {
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        let env: Vec<(&str, &str)> = self
            .env
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let removed: Vec<&str> = self.env_removed.iter().map(String::as_str).collect();
        let out = run_with(&self.cwd, &args, &env, &removed);
        let want = self.status.unwrap_or(0);
        let mut broken = Vec::new();
        if out.code != want {
            broken.push(format!("exit status {} (expected {want})", out.code));
        }
        for (stream, expect) in &self.expect {
            let (name, text) = match stream {
                Stream::Stdout => ("stdout", &out.stdout),
                Stream::Stderr => ("stderr", &out.stderr),
            };
            match expect {
                Expect::Has(w) if !text.contains(w.as_str()) => {
                    broken.push(format!("{name} lacks {w:?}"));
                }
                Expect::Lacks(w) if text.contains(w.as_str()) => {
                    broken.push(format!("{name} holds {w:?}"));
                }
                Expect::Is(w) if text != w => {
                    broken.push(format!("{name} is not exactly {w:?}"));
                }
                Expect::Empty if !text.is_empty() => broken.push(format!("{name} is not empty")),
                _ => {}
            }
        }
        assert!(
            broken.is_empty(),
            "qiwang {}:\n  {}\n--- status {}\n--- stdout:\n{}\n--- stderr:\n{}",
            self.args.join(" "),
            broken.join("\n  "),
            out.code,
            out.stdout,
            out.stderr
        );
        out
    }
}

/// A new event `DIR/ev` from a rulebook and, if given, a registration file.
pub fn event_with(rules: &Path, csv: Option<&Path>) -> (TempDir, PathBuf) {
    let tmp = TempDir::new().expect("temp dir");
    let ev = init_and_import(tmp.path(), rules, csv);
    (tmp, ev)
}

/// A one-group event `DIR/ev` (cxa-2011 rulebook) of the given names, one unit each.
pub fn small_event(names: &[&str]) -> (TempDir, PathBuf) {
    let tmp = TempDir::new().expect("temp dir");
    let csv = tmp.path().join("players.csv");
    let mut text = String::from("name,gender,unit\n");
    for (i, n) in names.iter().enumerate() {
        text.push_str(&format!("{n},男,单位{i}\n"));
    }
    fs::write(&csv, text).expect("write csv");
    let ev = init_and_import(tmp.path(), &root("rules/cxa-2011.toml"), Some(&csv));
    (tmp, ev)
}

/// `init` and `import`, each of which must succeed; the import may note what it read (an
/// empty unit, a gender taken from the ID number): a builder, not a test of the notes.
fn init_and_import(dir: &Path, rules: &Path, csv: Option<&Path>) -> PathBuf {
    Run::new(dir, &["init", "ev", "--rules", p(rules)])
        .stderr_empty()
        .check();
    if let Some(csv) = csv {
        Run::new(dir, &["--event", "ev", "import", p(csv)]).check();
    }
    dir.join("ev")
}

/// An event `DIR/ev` from a rulebook's text and a registration sheet's text, written into
/// `dir` as `rules.toml` and `players.csv`: `init` and `import`, each of which must succeed
/// (the import may note what it read, as of a column qiwang does not know).
/// The one builder for tests whose rulebook is their own (a key changed, a stage added).
pub fn event_from(dir: &Path, rules: &str, sheet: &str) -> PathBuf {
    let rules_file = dir.join("rules.toml");
    fs::write(&rules_file, rules).expect("write rules");
    let ev = dir.join("ev");
    init(&ev, &rules_file);
    let csv = dir.join("players.csv");
    fs::write(&csv, sheet).expect("write sheet");
    zh(&ev, &["import", p(&csv)]).check();
    ev
}

/// A bundled rulebook's text (`rules/NAME.toml`) with `extra` appended: a table the
/// bundled one leaves out (`[conduct]`), whose keys then take effect.
pub fn rules_plus(name: &str, extra: &str) -> String {
    let text = fs::read_to_string(root(&format!("rules/{name}.toml"))).expect("bundled rules");
    format!("{text}\n{extra}\n")
}

/// A registration sheet of `names` in `group`, numbered 1, 2, … by the sheet (序号), for a
/// rulebook that seeds by the sheet.
pub fn numbered_sheet<N: std::fmt::Display>(
    group: &str,
    names: impl IntoIterator<Item = N>,
) -> String {
    let mut sheet = "序号,姓名,组别\n".to_string();
    for (i, name) in names.into_iter().enumerate() {
        sheet.push_str(&format!("{},{name},{group}\n", i + 1));
    }
    sheet
}

/// Every file under `dir` (by its path relative to `dir`) with its bytes, leaving out the
/// empty lock file any locking command may create: it holds no event data.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in fs::read_dir(dir).expect("readable dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                walk(base, &path, out);
            } else if path.file_name() != Some(".lock".as_ref()) {
                let rel = path.strip_prefix(base).expect("under base").to_path_buf();
                out.insert(rel, fs::read(&path).expect("readable file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Runs every `` `qiwang …` `` command spelled in `advice`, as typed (its words split at
/// spaces), each of which must succeed.
pub fn run_spelled(advice: &str) {
    for spelled in advice.split("`qiwang ").skip(1) {
        let command = &spelled[..spelled.find('`').expect("a closing backquote")];
        let args: Vec<&str> = command.split(' ').collect();
        let out = Command::new(BIN).args(&args).output().unwrap();
        assert!(out.status.success(), "{command}: {out:?}");
    }
}

/// Runs through `sh` the first shell command `advice` quotes in backquotes that starts
/// with one of `starts` (`cp `, `gzip -dc `, `echo >> `), as a user following it would;
/// it must succeed.
pub fn run_quoted_shell(advice: &str, starts: &[&str]) {
    let command = advice
        .split('`')
        .find(|part| starts.iter().any(|s| part.starts_with(s)))
        .unwrap_or_else(|| panic!("no command starting with {starts:?} in: {advice}"));
    let out = Command::new("sh").args(["-c", command]).output().unwrap();
    assert!(out.status.success(), "{command}: {out:?}");
}

/// A state file's text without its `"change"` line: the event alone, whichever change
/// wrote it (a change redone by hand is logged, and so numbered, anew).
pub fn unnumbered(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| !l.starts_with("  \"change\": "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Copies an event directory (its files and `history/`), leaving out the lock file, which
/// holds no event data.
pub fn copy_event(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("create dir");
    for entry in fs::read_dir(from).expect("readable dir") {
        let entry = entry.expect("dir entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_event(&entry.path(), &target);
        } else if entry.file_name() != ".lock" {
            fs::copy(entry.path(), target).expect("copy file");
        }
    }
}

/// Table rows of a comfy-table rendering: the cells of every line starting with `│`.
pub fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with('│'))
        .map(|l| {
            l.trim_matches('│')
                .split('┆')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// Whether the long campaigns and the 500–1,000-player reference solves run: set
/// `QIWANG_SLOW_TESTS=1` (by hand before a release; `.ci/run` does not). Plain `cargo test`
/// skips them to stay fast.
pub fn slow_tests() -> bool {
    std::env::var("QIWANG_SLOW_TESTS").is_ok_and(|v| v == "1")
}

/// An exported or served page without the one script tag the site itself carries
/// (`<script src="qiwang.js" defer="">` at the page's depth, views::public): what remains
/// must hold no script at all.
pub fn without_own_script(html: &str) -> String {
    let mut out = html.to_string();
    for up in ["", "../", "../../"] {
        out = out.replace(
            &format!("<script src=\"{up}qiwang.js\" defer=\"\"></script>"),
            "",
        );
    }
    out
}

/// The standings' places and names, in order, as `standings --format csv` prints them
/// (the first cell without the byte-order mark).
pub fn standings_places(event: &Path) -> Vec<(String, String)> {
    zh_ok(event, &["standings", "--format", "csv"])
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (
                c[0].trim_start_matches('\u{feff}').to_string(),
                c[2].to_string(),
            )
        })
        .collect()
}

/// A zip of `parts` (name, bytes), stored uncompressed (as an .ods's `mimetype` must be).
pub fn zipped(parts: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, data) in parts {
        w.start_file(*name, stored).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// The name and cells of a workbook's first sheet, each cell as text (numbers as Rust
/// prints them, anything else empty).
pub fn first_sheet_cells(bytes: &[u8]) -> (String, Vec<Vec<String>>) {
    use calamine::{Data, Reader, open_workbook_auto_from_rs};
    let mut book = open_workbook_auto_from_rs(std::io::Cursor::new(bytes)).unwrap();
    let sheet = book.sheet_names()[0].clone();
    let range = book.worksheet_range(&sheet).unwrap();
    let cells = range
        .rows()
        .map(|r| {
            r.iter()
                .map(|c| match c {
                    Data::String(s) => s.clone(),
                    Data::Float(f) => format!("{f}"),
                    Data::Int(i) => i.to_string(),
                    _ => String::new(),
                })
                .collect()
        })
        .collect();
    (sheet, cells)
}
