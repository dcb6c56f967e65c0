//! The layer rule of docs/architecture.md §1: a top-level module of the library imports
//! only from rows below its own, never sideways or upward (test modules aside), so the
//! module graph has no cycle. The table here is the diagram's; both list every module.

use crate::common::root;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// docs/architecture.md §1, top row first (`cli` is the binary's, not the library's).
const LAYERS: &[&[&str]] = &[
    &["demo", "serve"],
    &["views", "store"],
    &["report", "simulate", "rules_update"],
    &["teams"],
    &["pairing", "results", "prizes", "lookup"],
    &["standings"],
    &["registration", "scoring", "schedule"],
    &["input"],
    &["rulebook"],
    &["model", "privacy"],
    &["i18n", "sanitize", "threads", "panics", "formats"],
];

fn row_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|row| row.contains(&module))
}

/// The text of a source file without its `#[cfg(test)] mod tests` and line comments.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
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
        // A module's tests in their own file (`mod tests;`) may use any layer.
        if rel
            .components()
            .any(|c| c.as_os_str() == "tests" || c.as_os_str() == "tests.rs")
        {
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
