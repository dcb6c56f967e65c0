//! The fuzz targets: every reader of outside input, each with its seed corpus (built from
//! the repository's own examples and rulebooks, and from files the program itself
//! writes), its mutator and the library entry point it feeds, called the way the binary
//! calls it. A target's `run` returns whether the input was accepted or refused, and an
//! `Err` when a refusal breaks the promise every error keeps (it names the file and the
//! line); a panic is caught by the driver.

use super::{containers, mutate};
use crate::common::{self, BIN};
use qiwang::input::decode::Encoding;
use qiwang::model::PlayerId;
use qiwang::registration::{ImportOptions, read_registrations};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::Store;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// What a parser made of one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Read without error.
    Accepted,
    /// Refused with an error that keeps its promises.
    Refused,
}

/// A parser entry point: an input to its verdict, or a broken promise.
pub type Run = Arc<dyn Fn(&[u8]) -> Result<Verdict, String> + Send + Sync>;
/// A case's input from its random stream.
pub type Generate = Box<dyn Fn(&mut ChaCha8Rng) -> Vec<u8>>;

/// One fuzz target.
pub struct Target {
    /// Its name on the command line and in reports.
    pub name: &'static str,
    /// The unmutated inputs, each of which the parser accepts.
    pub seeds: Vec<Vec<u8>>,
    /// The next case's input.
    pub generate: Generate,
    /// The parser.
    pub run: Run,
}

/// Every target's name, in the order a campaign runs them.
pub const NAMES: &[&str] = &["csv", "state", "rulebook", "results", "xlsx", "xls", "ods"];

/// The target called `name`, its corpus built in `scratch` (an event directory for the
/// state target).
pub fn target(name: &str, scratch: &Path) -> Target {
    match name {
        "csv" => csv(),
        "xlsx" => xlsx(),
        "xls" => xls(),
        "ods" => ods(),
        "rulebook" => rulebook(),
        "results" => results(scratch),
        "state" => state(scratch),
        _ => panic!("no fuzz target `{name}`; the targets are {NAMES:?}"),
    }
}

/// A seed picked at random, and another to splice from.
fn pick<'a>(rng: &mut ChaCha8Rng, seeds: &'a [Vec<u8>]) -> (&'a [u8], &'a [u8]) {
    let a = seeds.choose(rng).expect("a corpus");
    let b = seeds.choose(rng).expect("a corpus");
    (a, b)
}

fn rules(name: &str) -> Rulebook {
    let text = fs::read_to_string(common::root(&format!("rules/{name}.toml"))).unwrap();
    Rulebook::from_toml(&text, name).unwrap()
}

/// The rulebooks a registration sheet is read against; an input's first byte picks one
/// (and, for CSV, the encoding option), so a saved input replays alone.
fn sheet_rules() -> Arc<Vec<Rulebook>> {
    Arc::new(vec![rules("jinhua-2018"), rules("dongguan-2018")])
}

const ENCODINGS: [Encoding; 3] = [Encoding::Auto, Encoding::Utf8, Encoding::Gbk];

/// Reads a registration file the way `qiwang import` does, and checks the error's
/// promises: at least one problem, each on a line of the file, each with a message,
/// naming the file, and nothing imported.
fn import(rules: &[Rulebook], input: &[u8]) -> Result<Verdict, String> {
    let Some((&selector, bytes)) = input.split_first() else {
        return Ok(Verdict::Refused);
    };
    let rules = &rules[usize::from(selector) % rules.len()];
    let opts = ImportOptions {
        encoding: ENCODINGS[usize::from(selector / 2) % ENCODINGS.len()],
    };
    match read_registrations(bytes, "reg.csv", &opts, rules, &[], PlayerId(1)) {
        Ok(_) => Ok(Verdict::Accepted),
        Err(e) => {
            if e.errors.is_empty() {
                return Err("refused without a problem".into());
            }
            // Every encoding's line end has a 0x0A or 0x0D byte, so this bounds the line
            // numbers of a text file in any of them; a workbook's are its row numbers.
            let lines = if qiwang::registration::xlsx::is_workbook(bytes) {
                usize::MAX
            } else {
                bytes.iter().filter(|&&b| b == b'\n' || b == b'\r').count() + 1
            };
            for row in &e.errors {
                if row.line == 0
                    || row.line > lines
                    || row.message.en.is_empty()
                    || row.message.zh.is_empty()
                {
                    return Err(format!("problem at line {} of {lines}: {row:?}", row.line));
                }
            }
            let shown = e.to_string();
            if !shown.contains("reg.csv") || !shown.contains("nothing was imported") {
                return Err(format!("the error does not name the file: {shown}"));
            }
            Ok(Verdict::Refused)
        }
    }
}

/// `selector` then `bytes`.
fn tagged(selector: u8, bytes: &[u8]) -> Vec<u8> {
    [&[selector][..], bytes].concat()
}

/// Mutates a tagged input: mostly the file, sometimes the selector.
fn retag(rng: &mut ChaCha8Rng, input: &[u8], file: Vec<u8>) -> Vec<u8> {
    let selector = if rng.gen_bool(0.1) {
        rng.r#gen()
    } else {
        input[0]
    };
    tagged(selector, &file)
}

// ---------------------------------------------------------------- registration CSV

/// The example sheets, each in every encoding a spreadsheet program saves CSV in.
fn csv_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for (k, example) in ["jinhua-2018", "dongguan-2018"].iter().enumerate() {
        let text = example_text(example);
        let k = u8::try_from(k).unwrap();
        let gbk = encoding_rs::GBK.encode(&text).0.into_owned();
        let gb18030 = encoding_rs::GB18030.encode(&text).0.into_owned();
        // (selector, bytes): the selector's low bit is the rulebook, the rest the
        // encoding option (0 auto, 2 UTF-8, 4 GBK).
        let files: Vec<(u8, Vec<u8>)> = vec![
            (k, text.clone().into_bytes()),
            (k + 2, text.clone().into_bytes()),
            (k, [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat()),
            (k, gbk.clone()),
            (k + 4, gbk),
            (k + 4, gb18030),
            (k, [&b"\xFF\xFE"[..], &mutate::utf16(&text, false)].concat()),
            (k, [&b"\xFE\xFF"[..], &mutate::utf16(&text, true)].concat()),
            (k, text.replace('\n', "\r\n").into_bytes()),
        ];
        seeds.extend(files.into_iter().map(|(s, b)| tagged(s, &b)));
    }
    seeds
}

fn csv() -> Target {
    let seeds = csv_seeds();
    let corpus = seeds.clone();
    let rules = sheet_rules();
    Target {
        name: "csv",
        seeds,
        generate: Box::new(move |rng| {
            let (input, other) = pick(rng, &corpus);
            let file = mutate::bytes(rng, &input[1..], &other[1..]);
            retag(rng, input, file)
        }),
        run: Arc::new(move |input| import(&rules, input)),
    }
}

// ---------------------------------------------------------------- workbooks

fn xlsx() -> Target {
    let mut seeds = Vec::new();
    for (k, example) in ["jinhua-2018", "dongguan-2018"].iter().enumerate() {
        let bytes = fs::read(common::root(&format!(
            "examples/{example}/registrations.xlsx"
        )))
        .unwrap();
        let k = u8::try_from(k).unwrap();
        // The archive as saved, and rebuilt with its parts stored.
        let stored = containers::zip(&containers::unzip(&bytes).unwrap());
        seeds.push(tagged(k, &bytes));
        seeds.push(tagged(k, &stored));
    }
    let corpus = seeds.clone();
    let rules = sheet_rules();
    Target {
        name: "xlsx",
        seeds,
        generate: Box::new(move |rng| {
            let (input, other) = pick(rng, &corpus);
            let file = containers::mutate_zip(rng, &input[1..], &other[1..]);
            retag(rng, input, file)
        }),
        run: Arc::new(move |input| import(&rules, input)),
    }
}

/// An example's registration sheet as text (the examples are saved as Excel saves CSV,
/// not all in UTF-8).
fn example_text(example: &str) -> String {
    let bytes = fs::read(common::root(&format!(
        "examples/{example}/registrations.csv"
    )))
    .unwrap();
    qiwang::input::decode::decode(&bytes, Encoding::Auto)
        .unwrap()
        .text
}

/// The first `n` rows (header included) of an example sheet, as cells.
fn example_rows(example: &str, n: usize) -> Vec<Vec<String>> {
    example_text(example)
        .lines()
        .take(n)
        .map(|line| line.split(',').map(str::to_string).collect())
        .collect()
}

/// An .xls as its globals and its sheet's records.
type XlsBook = (Vec<containers::Record>, Vec<containers::Record>);

fn xls() -> Target {
    let books: Vec<(u8, XlsBook)> = vec![
        (
            0,
            containers::xls_records("报名表", &example_rows("jinhua-2018", 30)),
        ),
        (
            1,
            containers::xls_records("Sheet1", &example_rows("dongguan-2018", 30)),
        ),
    ];
    let seeds = books
        .iter()
        .map(|(k, (globals, sheet))| {
            tagged(
                *k,
                &containers::compound_file(&containers::workbook_stream(globals, sheet, false)),
            )
        })
        .collect::<Vec<_>>();
    let corpus = seeds.clone();
    let rules = sheet_rules();
    Target {
        name: "xls",
        seeds,
        generate: Box::new(move |rng| {
            let (k, records) = books.choose(rng).expect("books");
            let other = corpus.choose(rng).expect("a corpus");
            let file = containers::mutate_xls(rng, records, &other[1..]);
            retag(rng, &[*k], file)
        }),
        run: Arc::new(move |input| import(&rules, input)),
    }
}

/// An OpenDocument spreadsheet of `rows`, as LibreOffice writes one: repeated rows and
/// columns, a spanned cell, numbers as floats.
fn ods_file(rows: &[Vec<String>]) -> Vec<u8> {
    let mut body = String::new();
    for row in rows {
        body.push_str("<table:table-row>");
        for cell in row {
            let escaped = cell.replace('&', "&amp;").replace('<', "&lt;");
            match cell.parse::<f64>() {
                Ok(n) if cell.len() < 12 => body.push_str(&format!(
                    r#"<table:table-cell office:value-type="float" office:value="{n}"><text:p>{escaped}</text:p></table:table-cell>"#
                )),
                _ => body.push_str(&format!(
                    r#"<table:table-cell office:value-type="string"><text:p>{escaped}</text:p></table:table-cell>"#
                )),
            }
        }
        body.push_str(r#"<table:table-cell table:number-columns-repeated="3"/></table:table-row>"#);
    }
    body.push_str(r#"<table:table-row table:number-rows-repeated="4"><table:table-cell table:number-columns-spanned="2" table:number-rows-spanned="2"/></table:table-row>"#);
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="报名表"><table:table-column table:number-columns-repeated="12"/>{body}</table:table></office:spreadsheet></office:body></office:document-content>"#
    );
    let manifest = r#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#;
    containers::zip(&[
        (
            "mimetype".into(),
            b"application/vnd.oasis.opendocument.spreadsheet".to_vec(),
        ),
        ("content.xml".into(), content.into_bytes()),
        ("META-INF/manifest.xml".into(), manifest.as_bytes().to_vec()),
    ])
}

fn ods() -> Target {
    let seeds = vec![
        tagged(0, &ods_file(&example_rows("jinhua-2018", 30))),
        tagged(1, &ods_file(&example_rows("dongguan-2018", 30))),
    ];
    let corpus = seeds.clone();
    let rules = sheet_rules();
    Target {
        name: "ods",
        seeds,
        generate: Box::new(move |rng| {
            let (input, other) = pick(rng, &corpus);
            let file = containers::mutate_zip(rng, &input[1..], &other[1..]);
            retag(rng, input, file)
        }),
        run: Arc::new(move |input| import(&rules, input)),
    }
}

// ---------------------------------------------------------------- rulebook TOML

/// TOML-aware changes: a value nested very deep, a table header repeated, an array of
/// tables grown, or byte-level changes.
fn mutate_toml(rng: &mut ChaCha8Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    match rng.gen_range(0..6) {
        0 => {
            let depth = rng.gen_range(10..50_000);
            let (open, close) = if rng.gen_bool(0.5) {
                ("[", "]")
            } else {
                ("{a=", "}")
            };
            let value = format!("{}1{}", open.repeat(depth), close.repeat(depth));
            let line = format!("\nx = {value}\n");
            let at = pos_after_newline(rng, &out);
            out.splice(at..at, line.into_bytes());
        }
        1 => {
            // An [[groups]] (or any table) block repeated.
            let starts: Vec<usize> = (0..out.len())
                .filter(|&i| out[i] == b'[' && (i == 0 || out[i - 1] == b'\n'))
                .collect();
            if let Some(&a) = starts.choose(rng) {
                let b = starts.iter().copied().find(|&s| s > a).unwrap_or(out.len());
                let chunk = out[a..b].to_vec();
                let times = rng.gen_range(2..2000);
                let repeated: Vec<u8> = std::iter::repeat_n(chunk, times).flatten().collect();
                out.splice(b..b, repeated);
            }
        }
        2 => {
            let key = "a.".repeat(rng.gen_range(10..20_000));
            let line = format!("\n[{key}b]\nc = 1\n");
            out.extend(line.into_bytes());
        }
        _ => out = mutate::bytes(rng, &out, other),
    }
    out
}

fn pos_after_newline(rng: &mut ChaCha8Rng, bytes: &[u8]) -> usize {
    let lines: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i] == b'\n')
        .map(|i| i + 1)
        .collect();
    lines.choose(rng).copied().unwrap_or(bytes.len())
}

fn rulebook() -> Target {
    let mut seeds = Vec::new();
    for entry in fs::read_dir(common::root("rules")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            seeds.push(fs::read(&path).unwrap());
        }
    }
    seeds.sort();
    let corpus = seeds.clone();
    Target {
        name: "rulebook",
        seeds,
        generate: Box::new(move |rng| {
            let (input, other) = pick(rng, &corpus);
            mutate_toml(rng, input, other)
        }),
        run: Arc::new(|input| {
            // As `qiwang init` reads a rulebook: a byte-order mark skipped, UTF-8 only.
            let bytes = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
            let Ok(text) = std::str::from_utf8(bytes) else {
                return Ok(Verdict::Refused);
            };
            match Rulebook::from_toml(text, "rules.toml") {
                Ok(_) => Ok(Verdict::Accepted),
                Err(e) => {
                    let shown = e.to_string();
                    if shown.contains("rules.toml") {
                        Ok(Verdict::Refused)
                    } else {
                        Err(format!("the error does not name the file: {shown}"))
                    }
                }
            }
        }),
    }
}

// ---------------------------------------------------------------- events

fn qiwang(event: &Path, args: &[&str]) -> String {
    let out = Command::new(BIN)
        .args(["--lang", "en", "--event"])
        .arg(event)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "qiwang {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A played event made by the binary in `scratch/ev`: the Jinhua example's players, two
/// rounds paired and recorded, a penalty and a withdrawal.
fn played_event(scratch: &Path) -> PathBuf {
    let event = scratch.join("ev");
    if event.join("qiwang.json").exists() {
        return event;
    }
    common::init(&event, &common::root("rules/jinhua-2018.toml"));
    let csv = common::root("examples/jinhua-2018/registrations.csv");
    qiwang(&event, &["import", common::p(&csv)]);
    for round in 1..=2 {
        let mut pair = vec!["pair", "--group", "成人组"];
        if round == 1 {
            pair.extend(["--seed", "7"]);
        }
        qiwang(&event, &pair);
        let results = scratch.join(format!("r{round}.csv"));
        fs::write(&results, results_csv(&event, round)).unwrap();
        qiwang(&event, &["result", "--from", common::p(&results)]);
    }
    qiwang(&event, &["penalty", "4", "1", "--reason", "late"]);
    qiwang(&event, &["player", "withdraw", "6"]);
    event
}

/// A results file for every game of `round` of the event's first pool with rounds.
/// Slips as `round --sheet slips --format csv` prints them, with every 结果 cell filled
/// in turn with a win, a draw and a loss.
fn filled_slips(slips: &str) -> String {
    let mut lines = slips.lines();
    let header = lines.next().unwrap_or_default();
    let at = header
        .split(',')
        .position(|h| h == "结果")
        .expect("the slips have a 结果 column");
    let mut text = format!("{header}\n");
    for (i, line) in lines.enumerate() {
        let mut cells: Vec<&str> = line.split(',').collect();
        if let Some(cell) = cells.get_mut(at) {
            *cell = ["红胜", "和", "黑胜"][i % 3];
        }
        text.push_str(&cells.join(","));
        text.push('\n');
    }
    text
}

fn results_csv(event: &Path, round: u32) -> String {
    let loaded = Store::open(event).unwrap().load().unwrap();
    let (id, group) = loaded
        .groups
        .iter()
        .find(|(_, g)| !g.rounds.is_empty())
        .expect("a paired group");
    let outcomes = ["r", "b", "=", "+-", "-+"];
    let mut text = String::from("组别,轮次,台号,结果,犯规\n");
    let pairings = &group.rounds[usize::try_from(round).unwrap() - 1].pairings;
    let tables = pairings.iter().filter_map(|p| match p {
        qiwang::model::Pairing::Game { table, .. } => Some(*table),
        qiwang::model::Pairing::Bye { .. } => None,
    });
    for (i, table) in tables.enumerate() {
        text.push_str(&format!(
            "{id},{round},{table},{},{}\n",
            outcomes[i % outcomes.len()],
            // Fouls only where the game was played over the board.
            if i % 3 == 0 && i % outcomes.len() < 3 {
                "1:0"
            } else {
                ""
            }
        ));
    }
    text
}

// ---------------------------------------------------------------- results files

fn results(scratch: &Path) -> Target {
    // The results of round 3, paired and not yet recorded, of the played event.
    let round3 = scratch.join("ev3");
    if !round3.exists() {
        common::copy_event(&played_event(scratch), &round3);
        qiwang(&round3, &["pair", "--group", "成人组"]);
    }
    let event = Arc::new(Store::open(&round3).unwrap().load().unwrap());
    let rules = Arc::new(Rulebook::from_toml(&event.rules_toml, "qiwang.json").unwrap());
    let text = results_csv(&round3, 3);
    let english = text.replacen(
        "组别,轮次,台号,结果,犯规",
        "group,round,table,outcome,fouls",
        1,
    );
    // The slips qiwang prints for the round (红方/黑方 names and the pairing code, which
    // the reader checks against the table), filled in as an arbiter would.
    let slips = qiwang(
        &round3,
        &[
            "round", "--sheet", "slips", "--format", "csv", "--lang", "zh",
        ],
    );
    let slips = filled_slips(&slips);
    let seeds = vec![
        text.clone().into_bytes(),
        english.into_bytes(),
        slips.clone().into_bytes(),
        encoding_rs::GBK.encode(&slips).0.into_owned(),
        encoding_rs::GBK.encode(&text).0.into_owned(),
        [&b"\xFF\xFE"[..], &mutate::utf16(&text, false)].concat(),
    ];
    let corpus = seeds.clone();
    Target {
        name: "results",
        seeds,
        generate: Box::new(move |rng| {
            let (input, other) = pick(rng, &corpus);
            mutate::bytes(rng, input, other)
        }),
        run: Arc::new(move |input| {
            // As `qiwang result --from FILE` reads a CSV: decoded as a registration sheet
            // is, then checked against the event; and the round-less reader beside it.
            let Ok(decoded) = qiwang::input::decode::decode(input, Encoding::Auto) else {
                return Ok(Verdict::Refused);
            };
            let plain = qiwang::results::parse_results_csv(&decoded.text, "results.csv");
            if let Err(e) = &plain
                && !e.to_string().contains("results.csv")
            {
                return Err(format!("the error does not name the file: {e}"));
            }
            match qiwang::results::read_results_file(
                &decoded.text,
                "results.csv",
                &event,
                &rules,
                None,
            ) {
                Ok(_) => Ok(Verdict::Accepted),
                Err(e) if e.to_string().contains("results.csv") => Ok(Verdict::Refused),
                Err(e) => Err(format!("the error does not name the file: {e}")),
            }
        }),
    }
}

// ---------------------------------------------------------------- the state file

/// JSON-aware changes to a state file: one value (a number made extreme, a string made
/// long or odd, an array emptied or grown, an object's key dropped, a value nested deep),
/// written back compact or pretty; or byte-level changes to the text.
fn mutate_state(rng: &mut ChaCha8Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    if rng.gen_bool(0.35) {
        return mutate::bytes(rng, input, other);
    }
    let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(input) else {
        return mutate::bytes(rng, input, other);
    };
    for _ in 0..rng.gen_range(1..=3) {
        let mut pointers = Vec::new();
        pointers_of(&value, String::new(), &mut pointers);
        let Some(pointer) = pointers.choose(rng).cloned() else {
            break;
        };
        let Some(node) = value.pointer_mut(&pointer) else {
            continue;
        };
        change_value(rng, node);
    }
    if rng.gen_bool(0.5) {
        serde_json::to_vec(&value).unwrap()
    } else {
        serde_json::to_vec_pretty(&value).unwrap()
    }
}

fn pointers_of(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let escaped = k.replace('~', "~0").replace('/', "~1");
                pointers_of(v, format!("{at}/{escaped}"), out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers_of(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

fn change_value(rng: &mut ChaCha8Rng, node: &mut serde_json::Value) {
    use serde_json::Value;
    match rng.gen_range(0..9) {
        0 | 1 => {
            let n = mutate::NUMBERS.choose(rng).copied().unwrap_or("0");
            *node = serde_json::from_str(n).unwrap_or_else(|_| Value::String(n.to_string()));
        }
        2 => {
            *node = Value::String(
                [
                    "",
                    "\0",
                    "x".repeat(100_000).as_str(),
                    "成人组",
                    "-1",
                    "⚠\u{202E}",
                ][rng.gen_range(0..6)]
                .to_string(),
            );
        }
        3 => *node = Value::Null,
        4 => *node = Value::Bool(rng.r#gen()),
        5 => match node {
            Value::Array(items) if !items.is_empty() => {
                let copy = items[rng.gen_range(0..items.len())].clone();
                for _ in 0..rng.gen_range(1..200) {
                    items.push(copy.clone());
                }
            }
            Value::Array(items) => items.clear(),
            Value::Object(map) => {
                let keys: Vec<String> = map.keys().cloned().collect();
                if let Some(k) = keys.choose(rng) {
                    map.remove(k);
                }
            }
            _ => *node = Value::Array(Vec::new()),
        },
        6 => {
            if let Value::Array(items) = node {
                items.shuffle(rng);
                items.truncate(rng.gen_range(0..=items.len()));
            } else {
                *node = Value::Object(serde_json::Map::new());
            }
        }
        7 => {
            let depth = rng.gen_range(100..2000);
            let text = format!("{}0{}", "[".repeat(depth), "]".repeat(depth));
            *node = serde_json::from_str(&text).unwrap_or(Value::Null);
        }
        _ => {
            if let Value::Number(n) = node
                && let Some(i) = n.as_i64()
            {
                *node = Value::from(i + rng.gen_range(-3..=3));
            } else {
                *node = Value::from(rng.gen_range(-2..100_000));
            }
        }
    }
}

fn state(scratch: &Path) -> Target {
    let template = played_event(scratch);
    let seeds = vec![fs::read(template.join("qiwang.json")).unwrap()];
    let corpus = seeds.clone();
    // The cases write into a copy of the event, so the history and audit trail around
    // the state file are a real event's.
    let dir = scratch.join("state-case");
    if !dir.exists() {
        common::copy_event(&template, &dir);
    }
    Target {
        name: "state",
        seeds,
        generate: Box::new(move |rng| {
            let (input, other) = pick(rng, &corpus);
            mutate_state(rng, input, other)
        }),
        run: Arc::new(move |input| load_state(&dir, input)),
    }
}

/// Loads `input` as the state file of the event in `dir`, as every command does; a
/// refusal must name the file and the way back, and must leave the file as it was. A
/// state the loader accepts goes through every view and the next round's pairing, which
/// trust it.
fn load_state(dir: &Path, input: &[u8]) -> Result<Verdict, String> {
    let path = dir.join("qiwang.json");
    fs::write(&path, input).unwrap();
    let store = Store::open(dir).map_err(|e| format!("open: {e}"))?;
    let event = match store.load() {
        Ok(event) => event,
        Err(e) => {
            let text = e.to_string();
            if !text.contains("qiwang.json`") || !text.contains("qiwang left it untouched") {
                return Err(format!(
                    "the refusal does not name the file and the way back: {text}"
                ));
            }
            if fs::read(&path).unwrap() != input {
                return Err("the refused state file was rewritten".into());
            }
            return Ok(Verdict::Refused);
        }
    };
    let Ok(rules) = Rulebook::from_toml(&event.rules_toml, "qiwang.json") else {
        // The store reads the state; every command then validates the rulebook frozen in
        // it (`cli::context::rules_of`) and refuses it with the way back: check that the
        // binary does, and leaves the file as it was.
        let out = Command::new(BIN)
            .args(["--lang", "en", "--event"])
            .arg(dir)
            .arg("standings")
            .output()
            .map_err(|e| format!("running qiwang: {e}"))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(3)
            || !stderr.contains("qiwang.json")
            || !stderr.contains("does not validate")
        {
            return Err(format!(
                "a state whose rulebook does not read was not refused by the command: {:?} {stderr}",
                out.status.code()
            ));
        }
        if fs::read(&path).unwrap() != input {
            return Err("the refused state file was rewritten".into());
        }
        return Ok(Verdict::Refused);
    };
    let lang = Lang::En;
    qiwang::views::site(&event, &rules, None, lang);
    qiwang::views::event_json(&event, &rules, None, false);
    qiwang::views::prize_sheet(&event, &rules, lang);
    for pool in rules.pools() {
        qiwang::pairing::check_group(&event, &rules, &pool.id);
        let _ = qiwang::pairing::pair_next_round(&event, &rules, &pool.id, 1);
    }
    Ok(Verdict::Accepted)
}
