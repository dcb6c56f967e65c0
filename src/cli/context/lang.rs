//! The language of a run before (or without) a loaded event: `--lang`, else the rulebook
//! of the file or event the command is about, read leniently and once.

use crate::cli::args::Cli;
use qiwang::rulebook::Lang;
use qiwang::store::Store;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The language `--lang` asks for, if given.
pub fn lang_flag(cli: &Cli) -> Option<Lang> {
    cli.lang
        .as_deref()
        .map(|l| if l == "en" { Lang::En } else { Lang::Zh })
}

/// The language of an error when `--lang` is not given: the rulebook's of the file the
/// command works on (`rules check FILE`, `init --rules FILE`), else the event's, else
/// Chinese. Read leniently, so a rulebook with mistakes still names its language.
pub fn error_lang(rules_file: Option<&Path>, event_dir: Option<&Path>) -> Lang {
    let of_file = |path: &Path| {
        read_rulebook_text(path).and_then(|text| qiwang::rulebook::rulebook_language(&text))
    };
    if let Some(path) = rules_file {
        return of_file(path).unwrap_or_default();
    }
    let Some(store) = event_store(event_dir) else {
        return Lang::default();
    };
    of_file(&store.rules_path())
        .or_else(|| {
            let event = store.load().ok()?;
            qiwang::rulebook::rulebook_language(&event.rules_toml)
        })
        .unwrap_or_default()
}

/// The `(id, name)` of the groups of the rulebook an error is about (found as in
/// [`error_lang`]), so Chinese errors can name groups as the regulation does.
pub fn error_groups(rules_file: Option<&Path>, event_dir: Option<&Path>) -> Vec<(String, String)> {
    let text = match rules_file {
        Some(path) => read_rulebook_text(path),
        None => event_store(event_dir).and_then(|s| read_rulebook_text(&s.rules_path())),
    };
    text.map(|t| qiwang::rulebook::rulebook_group_names(&t))
        .unwrap_or_default()
}

/// The event of `--event DIR`, or the one found from the current directory, for an
/// error's language; `None` when there is none (the error says so itself).
fn event_store(event_dir: Option<&Path>) -> Option<Store> {
    match event_dir {
        Some(dir) => Store::open(dir).ok(),
        None => Store::discover(&std::env::current_dir().ok()?).ok(),
    }
}

/// The text of a rulebook read for the help's or an error's language or group names,
/// capped like every input (`qiwang::input`); `None` when it cannot be read. The last
/// file read is kept: the language found before the arguments are parsed and the
/// language and group names of an error come from the same file, read once per run.
pub fn read_rulebook_text(path: &Path) -> Option<String> {
    static LAST: Mutex<Option<(PathBuf, Option<String>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((read, text)) = last.as_ref()
        && read == path
    {
        return text.clone();
    }
    let text = qiwang::input::read_capped(path, qiwang::input::InputKind::Rulebook)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok());
    *last = Some((path.to_path_buf(), text.clone()));
    text
}
