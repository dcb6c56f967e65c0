//! The layer rule of docs/architecture.md §1: a top-level module of the library imports
//! only from rows below its own, never sideways or upward (test modules aside), so the
//! module graph has no cycle. The table here is the diagram's; both list every module.

use crate::common::root;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// docs/architecture.md §1, top row first (`cli` is the binary's, not the library's).
const LAYERS: &[&[&str]] = &[
    &["commands", "demo", "serve"],
    &["views", "store"],
    &["report", "simulate", "rules_update"],
    &["teams"],
    &["pairing", "results", "prizes", "lookup"],
    &["standings"],
    &["registration", "scoring", "schedule"],
    &["input"],
    &["rulebook"],
    &["model"],
    &["privacy"],
    &["i18n", "sanitize", "threads", "panics", "formats", "argv"],
];

fn row_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|row| row.contains(&module))
}

/// The code of a source file as the import scan reads it: without comments, with the
/// contents of string and character literals left out (an `http://` in a string is not a
/// comment, a `crate::` in one not an import), and without its `#[cfg(test)]` items,
/// wherever they stand (tests may use any layer).
fn code(text: &str) -> String {
    without_test_items(&without_comments_and_literals(text))
}

/// `text` with comments removed and every string, raw string and character literal
/// emptied (`""`, `' '`); newlines kept.
fn without_comments_and_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let at = |k: usize| c.get(k).copied();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '/' if at(i + 1) == Some('/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == Some('*') => {
                // Block comments nest.
                let mut depth = 0;
                while i < c.len() {
                    if c[i] == '/' && at(i + 1) == Some('*') {
                        depth += 1;
                        i += 2;
                    } else if c[i] == '*' && at(i + 1) == Some('/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if c[i] == '\n' {
                            out.push('\n');
                        }
                        i += 1;
                    }
                }
            }
            'r' if raw_hashes(&c, i).is_some() => {
                let hashes = raw_hashes(&c, i).unwrap_or(0);
                i += hashes + 2; // `r`, the hashes, the quote
                let closes = |k: usize| c[k] == '"' && (1..=hashes).all(|h| at(k + h) == Some('#'));
                while i < c.len() && !closes(i) {
                    if c[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
                out.push_str("\"\"");
                i += hashes + 1;
            }
            '"' => {
                i += 1;
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    if at(i) == Some('\n') {
                        out.push('\n');
                    }
                    i += 1;
                }
                out.push_str("\"\"");
                i += 1;
            }
            '\'' if at(i + 1) == Some('\\') => {
                // An escaped character: `'\''`, `'\\'`, `'\u{4e00}'`.
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                out.push_str("' '");
                i += 1;
            }
            '\'' if at(i + 2) == Some('\'') => {
                out.push_str("' '");
                i += 3;
            }
            ch => {
                // A lifetime's `'` stays as it is.
                out.push(ch);
                i += 1;
            }
        }
    }
    out
}

/// At `c[i] == 'r'`: the number of `#`s of the raw string (`r"…"`, `r#"…"#`, `br"…"`)
/// starting there, if one does (not the `r` ending a name such as `for` or `bar`).
fn raw_hashes(c: &[char], i: usize) -> Option<usize> {
    let word = |ch: char| ch.is_alphanumeric() || ch == '_';
    let before = c[..i].iter().rev().take_while(|ch| word(**ch)).count();
    if !(before == 0 || (before == 1 && c[i - 1] == 'b')) {
        return None;
    }
    let hashes = c[i + 1..].iter().take_while(|ch| **ch == '#').count();
    (c.get(i + 1 + hashes) == Some(&'"')).then_some(hashes)
}

/// `code` (comments and literals already out) without its `#[cfg(test)]` items: each
/// runs to the first `;` outside braces or to the `}` closing its first brace.
fn without_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let mut depth = 0;
        let mut end = item.len();
        for (k, ch) in item.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth <= 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The files (and folders of submodules) of the modules `file` declares under
/// `#[cfg(test)]` as files of their own (`mod tests;`, with or without `#[path = "…"]`).
fn test_module_files(file: &Path, text: &str) -> Vec<std::path::PathBuf> {
    let dir = file.parent().unwrap();
    let stem = file.file_stem().unwrap().to_str().unwrap();
    // Where `mod name;` looks for its file: beside a `mod.rs`, `lib.rs` or `main.rs`,
    // else in the folder named after the file.
    let base = if ["mod", "lib", "main"].contains(&stem) {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if *line != "#[cfg(test)]" {
            continue;
        }
        let mut path = None;
        for next in &lines[i + 1..] {
            if let Some(p) = next
                .strip_prefix("#[path = \"")
                .and_then(|p| p.strip_suffix("\"]"))
            {
                path = Some(p);
            } else if next.starts_with("#[") {
                continue;
            } else {
                let declared = next
                    .split_once("mod ")
                    .filter(|(vis, _)| vis.is_empty() || vis.starts_with("pub"))
                    .and_then(|(_, name)| name.strip_suffix(';'));
                if let Some(name) = declared {
                    match path {
                        Some(p) => out.push(dir.join(p)),
                        None => {
                            out.push(base.join(format!("{name}.rs")));
                            out.push(base.join(name));
                        }
                    }
                }
                break;
            }
        }
    }
    out
}

/// The top-level modules `text` names as `crate::NAME` or inside `use crate::{…}`.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        rest = &rest[at + "crate::".len()..];
        if before == Some('$') {
            continue; // `$crate::…` in a macro names the macro's own crate path.
        }
        if let Some(inner) = rest.strip_prefix('{') {
            let end = inner.find("};").unwrap_or(inner.len());
            let mut depth = 0;
            let mut item = String::new();
            for c in inner[..end].chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.extend(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            out.extend(first_segment(&item));
        } else {
            out.extend(first_segment(rest));
        }
    }
    out
}

fn first_segment(path: &str) -> Option<String> {
    let name: String = path
        .trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_module_imports_only_from_layers_below_its_own() {
    let src = root("src");
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("pub mod ")
                .or(l.trim().strip_prefix("mod "))
        })
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert!(modules.len() > 10, "{modules:?}");
    let doc = fs::read_to_string(root("docs/architecture.md")).unwrap();
    for m in &modules {
        assert!(
            row_of(m).is_some(),
            "src/lib.rs's `{m}` has no row in LAYERS"
        );
        assert!(
            doc.contains(m),
            "docs/architecture.md §1 does not name `{m}`"
        );
    }
    let mut files = Vec::new();
    sources(&src, &mut files);
    let test_files: Vec<std::path::PathBuf> = files
        .iter()
        .flat_map(|f| test_module_files(f, &fs::read_to_string(f).unwrap()))
        .collect();
    assert!(
        test_files.iter().any(|t| t.ends_with("store/tests")),
        "{test_files:?}"
    );
    let mut wrong = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        let module = top.trim_end_matches(".rs");
        let Some(own) = row_of(module) else {
            continue; // lib.rs, main.rs and the binary's cli/
        };
        // A module's tests in a file of their own (`#[cfg(test)] mod tests;`) may use any
        // layer.
        if test_files.iter().any(|t| file.starts_with(t)) {
            continue;
        }
        for target in imports(&code(&fs::read_to_string(&file).unwrap())) {
            if let Some(row) = row_of(&target)
                && target != module
                && row <= own
            {
                wrong.push(format!("{}: {module} imports {target}", rel.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports sideways or upward (docs/architecture.md §1):\n{}",
        wrong.join("\n")
    );
}

/// The scan itself: `crate::x::…`, `use crate::{a, b::{c}}` and `$crate::` are read as
/// they should be, so the test above cannot pass by reading nothing.
#[test]
fn the_import_scan_reads_paths_and_groups() {
    let text = "use crate::model::Event;\nuse crate::{i18n::{Lang, bi}, rulebook};\nlet x = $crate::i18n::Lang::Zh;\nfn f() -> crate::scoring::Points {}";
    let found: Vec<String> = imports(&code(text)).into_iter().collect();
    assert_eq!(found, ["i18n", "model", "rulebook", "scoring"]);
    assert!(imports(&code("// use crate::cli::x;\n")).is_empty());
}

/// Comments are cut only outside literals, literals are not code, and every
/// `#[cfg(test)]` item is left out wherever it stands, the code after it kept.
#[test]
fn the_scan_reads_past_strings_and_test_items() {
    let text = concat!(
        "let url = \"http://x\"; use crate::model::Event;\n",
        "let s = \"crate::serve\"; let r = r#\"a \" // crate::demo\"#;\n",
        "let q = '\"'; let e = '\\''; fn f<'a>(x: &'a str) -> crate::i18n::Lang {}\n",
        "/* crate::views /* nested */ crate::store */\n",
        "#[cfg(test)]\nmod helpers {\n    use crate::demo::x;\n    fn g() { let _ = '{'; }\n}\n",
        "#[cfg(test)]\nuse crate::store::y;\n",
        "fn after() -> crate::rulebook::Rulebook {}\n",
    );
    let found: Vec<String> = imports(&code(text)).into_iter().collect();
    assert_eq!(found, ["i18n", "model", "rulebook"]);
    let decl = "#[cfg(test)]\n#[path = \"entry_tests.rs\"]\nmod tests;\n#[cfg(test)]\npub(crate) mod support;\n";
    let files = test_module_files(Path::new("src/a/entry.rs"), decl);
    assert_eq!(
        files,
        [
            Path::new("src/a/entry_tests.rs"),
            Path::new("src/a/entry/support.rs"),
            Path::new("src/a/entry/support"),
        ]
    );
}

/// No code of `src/` exists in one build profile only: debug-only checks and test hooks
/// are `if cfg!(debug_assertions)`, compiled (and linted by `cargo clippy`) in the debug
/// build and left out of the release build by the optimiser. So `.ci/run` needs no
/// second lint pass over a release build to see the code a release compiles.
#[test]
fn no_code_is_compiled_in_one_build_profile_only() {
    let mut files = Vec::new();
    sources(&root("src"), &mut files);
    let mut found = Vec::new();
    for file in &files {
        let text = without_comments_and_literals(&fs::read_to_string(file).unwrap());
        for (i, line) in text.lines().enumerate() {
            let squeezed: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            let attribute = squeezed.contains("#[") || squeezed.contains("#![");
            if attribute && squeezed.contains("debug_assertions") {
                found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "use `if cfg!(debug_assertions)` instead:\n{}",
        found.join("\n")
    );
}
