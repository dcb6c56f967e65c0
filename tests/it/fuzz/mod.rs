//! The fuzz harness: every parser of outside input fed seeded, structure-aware mutations
//! of the repository's own files, on stable Rust.
//!
//! Each case is a function of (seed, case number), so a finding replays exactly. A case
//! runs on a worker thread with a deadline: a panic is caught and filed under where it
//! happened, a case past the deadline is a hang, a case that raises the process's peak
//! memory past the limit is a memory bomb, and a refusal that breaks its promise (an
//! error that names no file or line) is filed too. A campaign runs every target in a
//! child process, so an abort (stack overflow, failed allocation) is caught as well: the
//! parent reads the input the child was on and starts a new child after it.
//!
//! `smoke` runs a few hundred cases of each target in plain `cargo test`, so the harness
//! cannot rot; `campaign` is the long run (ignored; see docs/fuzzing.md):
//!
//! ```text
//! QIWANG_FUZZ_SECS=600 QIWANG_FUZZ_TARGETS=csv,state \
//!     nice -n 19 cargo test --release --test it fuzz::campaign -- --ignored --nocapture
//! ```

mod containers;
mod mutate;
mod targets;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};
use targets::{Run, Target, Verdict};

/// What one case came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The parser answered and kept its promises.
    Fine(Verdict),
    /// A finding: its signature (what makes two findings the same fault) and detail.
    Finding { signature: String, detail: String },
    /// The case ran past the deadline; the worker thread is lost.
    Hang,
}

/// The settings of a run, from the environment.
#[derive(Debug, Clone)]
struct Settings {
    seed: u64,
    secs: u64,
    timeout: Duration,
    memory_mib: u64,
    out: PathBuf,
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}=`{v}` is not a whole number")),
        Err(_) => default,
    }
}

impl Settings {
    fn from_env() -> Settings {
        let out = std::env::var_os("QIWANG_FUZZ_OUT").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz"),
            PathBuf::from,
        );
        Settings {
            seed: env_u64("QIWANG_FUZZ_SEED", 42),
            secs: env_u64("QIWANG_FUZZ_SECS", 60),
            timeout: Duration::from_millis(env_u64("QIWANG_FUZZ_TIMEOUT_MS", 10_000)),
            memory_mib: env_u64("QIWANG_FUZZ_MEMORY_MIB", 1024),
            out,
        }
    }
}

/// The input of case `case` of `target` under `seed`.
fn case_input(target: &Target, seed: u64, case: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(case);
    (target.generate)(&mut rng)
}

// ---------------------------------------------------------------- panics

/// The last panic of a fuzz worker thread: where, and what it said.
static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);
const WORKER: &str = "fuzz-worker";

/// Files panics on fuzz worker threads quietly (they are expected findings) and leaves
/// every other thread's panic to the hook that was there before.
fn install_panic_hook() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if thread::current().name() == Some(WORKER) {
                let at = info.location().map_or_else(
                    || "?".to_string(),
                    |l| format!("{}:{}:{}", l.file(), l.line(), l.column()),
                );
                let payload = info.payload();
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                *LAST_PANIC
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some((at, message));
            } else {
                previous(info);
            }
        }));
    });
}

// ---------------------------------------------------------------- the worker thread

type Job = (Vec<u8>, SyncSender<Outcome>);

/// A thread that runs cases of one target, replaced when a case hangs. Its stack is the
/// main thread's (8 MiB), where the binary parses its input.
struct Worker {
    run: Run,
    jobs: Option<SyncSender<Job>>,
}

impl Worker {
    fn new(run: Run) -> Worker {
        install_panic_hook();
        Worker { run, jobs: None }
    }

    fn start(&mut self) -> &SyncSender<Job> {
        if self.jobs.is_none() {
            let (tx, rx) = mpsc::sync_channel::<Job>(0);
            let run = Arc::clone(&self.run);
            thread::Builder::new()
                .name(WORKER.into())
                .stack_size(8 << 20)
                .spawn(move || serve(&run, &rx))
                .expect("a worker thread");
            self.jobs = Some(tx);
        }
        self.jobs.as_ref().expect("started")
    }

    /// Runs one case within `timeout`.
    fn case(&mut self, input: Vec<u8>, timeout: Duration) -> Outcome {
        let (tx, rx) = mpsc::sync_channel(1);
        if self.start().send((input, tx)).is_err() {
            self.jobs = None;
            return Outcome::Finding {
                signature: "worker: lost".into(),
                detail: "the worker thread ended".into(),
            };
        }
        match rx.recv_timeout(timeout) {
            Ok(outcome) => outcome,
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                // The thread is stuck in the case: leave it and start another.
                self.jobs = None;
                Outcome::Hang
            }
        }
    }
}

fn serve(run: &Run, jobs: &Receiver<Job>) {
    while let Ok((input, reply)) = jobs.recv() {
        let result = panic::catch_unwind(AssertUnwindSafe(|| run(&input)));
        let outcome = match result {
            Ok(Ok(verdict)) => Outcome::Fine(verdict),
            Ok(Err(broken)) => Outcome::Finding {
                signature: format!("promise: {}", shape(&broken)),
                detail: broken,
            },
            Err(_) => {
                let (at, message) = LAST_PANIC
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .take()
                    .unwrap_or_default();
                Outcome::Finding {
                    signature: format!("panic at {at}"),
                    detail: message,
                }
            }
        };
        let _ = reply.send(outcome);
    }
}

/// A message with its numbers and quoted values taken out, so one fault seen with many
/// inputs is one signature.
fn shape(message: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in message.chars().take(200) {
        if c == '`' {
            quoted = !quoted;
            out.push('`');
        } else if !quoted && !c.is_ascii_digit() {
            out.push(c);
        }
    }
    out.chars().take(80).collect()
}

// ---------------------------------------------------------------- memory

/// The process's peak resident memory in MiB (Linux `VmHWM`), if the system says.
fn peak_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Resets the peak to the current resident memory (Linux 4.0 and later), so each case's
/// peak is its own; false where that is not possible.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

// ---------------------------------------------------------------- a run of one target

/// Distinct findings of a run: signature → (how many cases, the first case, its detail).
type Findings = BTreeMap<String, (u64, u64, String)>;

/// Runs cases `from..` of `target` until `deadline` or `limit` cases, in this process,
/// saving each new signature's input under `out`. With `watch_memory`, a case whose peak
/// memory passes the limit is a finding (only meaningful when nothing else runs in the
/// process). Stops at the first hang: its worker thread is still spinning.
fn run_cases(
    target: &Target,
    settings: &Settings,
    from: u64,
    limit: u64,
    deadline: Instant,
    watch_memory: bool,
    log: &mut dyn FnMut(&str),
) -> (u64, Findings, bool) {
    let dir = settings.out.join(target.name);
    std::fs::create_dir_all(&dir).expect("the findings folder");
    let mut worker = Worker::new(Arc::clone(&target.run));
    let mut findings = Findings::new();
    let watch_memory = watch_memory && reset_peak() && peak_mib().is_some();
    let mut ran = 0;
    let mut case = from;
    while ran < limit && Instant::now() < deadline {
        let input = case_input(target, settings.seed, case);
        // Where a campaign's parent finds the input if this process dies on it.
        std::fs::write(dir.join("current.bin"), &input).expect("the current input");
        std::fs::write(dir.join("current.case"), case.to_string()).expect("the case number");
        if watch_memory {
            reset_peak();
        }
        let mut outcome = worker.case(input.clone(), settings.timeout);
        if watch_memory
            && matches!(outcome, Outcome::Fine(_))
            && let Some(peak) = peak_mib()
            && peak > settings.memory_mib
        {
            outcome = Outcome::Finding {
                signature: "memory: peak over the limit".into(),
                detail: format!(
                    "peak resident memory {peak} MiB (limit {} MiB)",
                    settings.memory_mib
                ),
            };
        }
        ran += 1;
        let hang = outcome == Outcome::Hang;
        if let Outcome::Finding { .. } | Outcome::Hang = &outcome {
            let (signature, detail) = match outcome {
                Outcome::Finding { signature, detail } => (signature, detail),
                _ => (
                    "hang".to_string(),
                    format!("no answer within {:?}", settings.timeout),
                ),
            };
            let entry = findings
                .entry(signature.clone())
                .or_insert((0, case, detail.clone()));
            entry.0 += 1;
            if entry.0 == 1 {
                let file = dir.join(format!("{}-case{case}.bin", slug(&signature)));
                std::fs::write(&file, &input).expect("the finding's input");
                log(&format!(
                    "FINDING {} case {case} seed {}: {signature}: {detail}\n  input: {}",
                    target.name,
                    settings.seed,
                    file.display()
                ));
            }
        }
        case += 1;
        if hang {
            return (ran, findings, true);
        }
    }
    (ran, findings, false)
}

/// A signature as a file name.
fn slug(signature: &str) -> String {
    let mut s: String = signature
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    s.truncate(60);
    s
}

// ---------------------------------------------------------------- the tests

/// Every target's seeds are accepted (so the mutations start from files the parser
/// reads), in this process: unmutated, they are safe to read here.
#[test]
fn seeds_are_accepted() {
    let scratch = tempfile::tempdir().unwrap();
    for name in targets::NAMES {
        let target = targets::target(name, scratch.path());
        let mut worker = Worker::new(Arc::clone(&target.run));
        for (i, seed) in target.seeds.iter().enumerate() {
            let outcome = worker.case(seed.clone(), Duration::from_secs(60));
            assert_eq!(
                outcome,
                Outcome::Fine(Verdict::Accepted),
                "{name}: seed {i}"
            );
        }
    }
}

/// A few hundred cases of each target, the same on every run, each target in a child
/// process as a campaign runs it: the harness works and no case finds anything.
fn smoke(names: &[&str]) {
    let scratch = tempfile::tempdir().unwrap();
    let settings = Settings {
        seed: 2026,
        secs: 600,
        // Unoptimised builds are slow; a hang is still caught.
        timeout: Duration::from_secs(60),
        memory_mib: 1024,
        out: scratch.path().join("findings"),
    };
    let mut failures = Vec::new();
    for name in names {
        let (cases, findings, secs) = supervise(name, &settings, smoke_cases(name));
        println!(
            "{name}: {cases} cases in {secs:.1} s, {} findings",
            findings.len()
        );
        assert_eq!(cases, smoke_cases(name), "{name}: the child ran every case");
        failures.extend(
            findings
                .iter()
                .map(|(s, f)| format!("{name}: {s}: {}", first_line(&f.2))),
        );
    }
    assert!(failures.is_empty(), "findings:\n{}", failures.join("\n"));
}

/// The smoke run's cases for `target` (a few seconds in a debug build).
fn smoke_cases(target: &str) -> u64 {
    match target {
        "state" | "results" => 100,
        _ => 200,
    }
}

#[test]
fn smoke_text_and_state() {
    smoke(&["csv", "state", "rulebook", "results"]);
}

/// The workbook readers' smoke run: before the bounds of issue 42 §2 it found the
/// crashers named there (a capacity overflow in the .xlsx reader, a panic in the .xls
/// reader, memory bombs) within its few hundred cases.
#[test]
fn smoke_workbooks() {
    smoke(&["xlsx", "xls", "ods"]);
}

/// Where the campaign's child process is told what to run.
const CHILD: &str = "QIWANG_FUZZ_CHILD";

/// The long run: every target named in `QIWANG_FUZZ_TARGETS` (default all) for
/// `QIWANG_FUZZ_SECS` seconds each, each in child processes (see the module comment).
/// With `QIWANG_FUZZ_REPLAY=FILE`, runs that one input of the one target named instead.
#[test]
#[ignore = "a fuzz campaign: QIWANG_FUZZ_SECS per target; see docs/fuzzing.md"]
fn campaign() {
    let settings = Settings::from_env();
    let names: Vec<String> = std::env::var("QIWANG_FUZZ_TARGETS").map_or_else(
        |_| targets::NAMES.iter().map(|s| (*s).to_string()).collect(),
        |v| v.split(',').map(|s| s.trim().to_string()).collect(),
    );
    if let Some(file) = std::env::var_os("QIWANG_FUZZ_REPLAY") {
        replay(&names, Path::new(&file), &settings);
        return;
    }
    if let Ok(name) = std::env::var(CHILD) {
        child(&name, &settings);
        return;
    }
    std::fs::create_dir_all(&settings.out).unwrap();
    let mut summary = Vec::new();
    let mut total = 0;
    for name in &names {
        let (cases, findings, secs) = supervise(name, &settings, u64::MAX);
        total += findings.len();
        let mut line = format!(
            "{name}: {cases} cases in {secs:.0} s ({:.0}/s), seed {}, {} distinct findings",
            cases as f64 / secs.max(0.001),
            settings.seed,
            findings.len()
        );
        for (signature, (count, first, detail)) in &findings {
            line.push_str(&format!(
                "\n  {count} × {signature} (first case {first}): {}",
                first_line(detail)
            ));
        }
        println!("{line}");
        summary.push(line);
    }
    let text = summary.join("\n") + "\n";
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(settings.out.join("summary.txt"))
        .unwrap();
    log.write_all(text.as_bytes()).unwrap();
    assert_eq!(
        total,
        0,
        "findings (inputs under {}):\n{text}",
        settings.out.display()
    );
}

fn first_line(text: &str) -> &str {
    let line = text.lines().next().unwrap_or("");
    let mut end = line.len().min(200);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    &line[..end]
}

/// Runs one target in child processes for the settings' time or `limit` cases,
/// restarting after each death; returns the cases run, the findings and the seconds
/// spent. The children run under an address-space limit (four times the memory limit),
/// so a memory bomb fails an allocation in the child instead of starving the machine.
fn supervise(name: &str, settings: &Settings, limit: u64) -> (u64, Findings, f64) {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(settings.secs);
    let dir = settings.out.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut findings = Findings::new();
    let mut cases = 0;
    let mut from = 0;
    while Instant::now() < deadline && cases < limit {
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_secs()
            .max(1);
        let _ = std::fs::remove_file(dir.join("current.case"));
        let address_kib = settings.memory_mib.saturating_mul(4 * 1024);
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {address_kib} && exec \"$0\" \"$@\""))
            .arg(std::env::current_exe().unwrap())
            .args([
                "fuzz::campaign",
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, name)
            .env("QIWANG_FUZZ_CASES", (limit - cases).to_string())
            .env(
                "QIWANG_FUZZ_TIMEOUT_MS",
                settings.timeout.as_millis().to_string(),
            )
            .env("QIWANG_FUZZ_MEMORY_MIB", settings.memory_mib.to_string())
            .env("QIWANG_FUZZ_FROM", from.to_string())
            .env("QIWANG_FUZZ_SECS", left.to_string())
            .env("QIWANG_FUZZ_SEED", settings.seed.to_string())
            .env("QIWANG_FUZZ_OUT", &settings.out)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("a child process");
        let stderr = child.stderr.take().unwrap();
        let tail = thread::spawn(move || {
            let mut lines: Vec<String> = Vec::new();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                lines.push(line);
                if lines.len() > 40 {
                    lines.remove(0);
                }
            }
            lines
        });
        let mut next = None;
        for line in BufReader::new(child.stdout.take().unwrap())
            .lines()
            .map_while(Result::ok)
        {
            // The test harness may have started the line with the test's name.
            if let Some(rest) = line.find("CHILD ").map(|at| &line[at + "CHILD ".len()..]) {
                // `CHILD cases N next M` then `FOUND count first signature\tdetail`.
                let words: Vec<&str> = rest.splitn(4, ' ').collect();
                match words.as_slice() {
                    ["cases", n, "next", m] => {
                        cases += n.parse::<u64>().unwrap();
                        next = Some(m.parse::<u64>().unwrap());
                    }
                    ["found", count, first, rest] => {
                        let (signature, detail) = rest.split_once('\t').unwrap_or((rest, ""));
                        let entry = findings.entry(signature.to_string()).or_insert((
                            0,
                            first.parse().unwrap(),
                            detail.to_string(),
                        ));
                        entry.0 += count.parse::<u64>().unwrap();
                    }
                    _ => println!("{line}"),
                }
            } else if line.contains("FINDING") || line.starts_with("  input") {
                println!("{line}");
            }
        }
        let status = child.wait().unwrap();
        let tail = tail.join().unwrap();
        if let Some(m) = next {
            from = m;
            if status.success() {
                break;
            }
            // A hang: the child reported it and left its stuck thread behind.
            continue;
        }
        // The child died in a case without a word: an abort.
        let Some(case) = std::fs::read_to_string(dir.join("current.case"))
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
        else {
            panic!(
                "the {name} child failed before its first case ({status}):\n{}",
                tail.join("\n")
            );
        };
        let cause = tail
            .iter()
            .rev()
            .find(|l| {
                l.contains("overflow") || l.contains("memory allocation") || l.contains("fatal")
            })
            .cloned()
            .unwrap_or_else(|| format!("{status}"));
        let signature = format!("abort: {}", shape(&cause));
        let entry = findings
            .entry(signature.clone())
            .or_insert((0, case, cause.clone()));
        entry.0 += 1;
        if entry.0 == 1 {
            let file = dir.join(format!("{}-case{case}.bin", slug(&signature)));
            std::fs::copy(dir.join("current.bin"), &file).unwrap();
            println!(
                "FINDING {name} case {case} seed {}: {signature}\n  input: {}",
                settings.seed,
                file.display()
            );
        }
        cases += case + 1 - from;
        from = case + 1;
    }
    (cases, findings, started.elapsed().as_secs_f64())
}

/// The child's side of [`supervise`]: runs cases in this process, reports them on
/// stdout, and exits after a hang (its stuck thread cannot be stopped).
fn child(name: &str, settings: &Settings) {
    let scratch = tempfile::tempdir().unwrap();
    let target = targets::target(name, scratch.path());
    let from = env_u64("QIWANG_FUZZ_FROM", 0);
    let deadline = Instant::now() + Duration::from_secs(settings.secs);
    let limit = env_u64("QIWANG_FUZZ_CASES", u64::MAX);
    let (ran, findings, hung) = run_cases(
        &target,
        settings,
        from,
        limit,
        deadline,
        true,
        &mut |line| {
            println!("{line}");
        },
    );
    for (signature, (count, first, detail)) in &findings {
        println!(
            "CHILD found {count} {first} {signature}\t{}",
            first_line(detail)
        );
    }
    println!("CHILD cases {ran} next {}", from + ran);
    std::io::stdout().flush().unwrap();
    if hung {
        std::process::exit(86);
    }
}

/// Runs the saved input `file` through each named target once and prints what happened.
fn replay(names: &[String], file: &Path, settings: &Settings) {
    let scratch = tempfile::tempdir().unwrap();
    let input = std::fs::read(file).unwrap();
    for name in names {
        let target = targets::target(name, scratch.path());
        let mut worker = Worker::new(Arc::clone(&target.run));
        let outcome = worker.case(input.clone(), settings.timeout);
        println!("{name}: {outcome:?}");
        assert!(matches!(outcome, Outcome::Fine(_)), "{name}: {outcome:?}");
    }
}
