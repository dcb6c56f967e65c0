//! An event file the server cannot read or change (a damaged `audit.log`, a state or
//! snapshot an undo would restore), as a page tells of it and as the organiser's window
//! does. A page is seen by whoever holds a token (the public pages by anyone in the hall),
//! so it names the event's files relative to the event (`audit.log`, `history/…`), never
//! where the event lies on the organiser's disk; the server's standard error gets the
//! same message with its full paths, for the chief arbiter who repairs the file.

use crate::i18n::{Lang, Localize, Text};
use std::path::Path;

/// A problem as the pages show it, in both languages, the event's paths made relative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem(Text);

impl Problem {
    /// `e` for the pages of the event in `dir`; its full message (in `lang`, full paths)
    /// is given to `note`, the server's standard error, first.
    pub(super) fn of(e: &dyn Localize, dir: &Path, note: fn(&str), lang: Lang) -> Problem {
        note(&format!(
            "{}{}",
            lang.pick("提示：", "warning: "),
            e.localize(lang)
        ));
        let full = Text::of(e);
        Problem(Text::new(relative(&full.zh, dir), relative(&full.en, dir)))
    }
}

impl Localize for Problem {
    fn localize(&self, lang: Lang) -> String {
        lang.pick(&self.0.zh, &self.0.en).to_string()
    }
}

/// `text` with every path inside `dir` named relative to it (`/srv/ev/audit.log` →
/// `audit.log`), and `dir` itself by its own name (`ev`). Only a path that stands as a
/// path is touched: one that starts the text or follows a quote, a space or a bracket, so
/// that a short relative `--event` (`d`) leaves "and/or" alone.
fn relative(text: &str, dir: &Path) -> String {
    let whole = dir.display().to_string();
    if whole.is_empty() {
        return text.to_string();
    }
    let name = dir
        .file_name()
        .map_or_else(|| ".".to_string(), |n| n.to_string_lossy().into_owned());
    let starts_path = |c: char| "`'\" (（：:".contains(c) || c.is_whitespace();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&whole) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let after = &from[whole.len()..];
        let preceded = before
            .chars()
            .next_back()
            .map_or(out.len() == before.len(), starts_path);
        match after.chars().next() {
            Some(c) if preceded && std::path::is_separator(c) => {
                rest = &after[c.len_utf8()..];
            }
            next if preceded
                && next
                    .is_none_or(|c| !c.is_alphanumeric() && c != '.' && c != '_' && c != '-') =>
            {
                out.push_str(&name);
                rest = after;
            }
            _ => {
                out.push_str(&whole);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoreError;
    use std::path::PathBuf;

    /// A short relative `--event` is replaced where it stands as a path only.
    #[test]
    fn a_short_event_directory_leaves_other_words_alone() {
        let dir = Path::new("d");
        assert_eq!(
            relative(
                "`d/audit.log` and/or `d`; gzip -dc d/history/x > d/qiwang.json",
                dir
            ),
            "`audit.log` and/or `d`; gzip -dc history/x > qiwang.json"
        );
        assert_eq!(relative("d/x in ./d2/y", Path::new(".")), "d/x in d2/y");
        assert_eq!(
            relative("`/srv/ev/a` `/srv/ev2/b` `/srv/ev`", Path::new("/srv/ev")),
            "`a` `/srv/ev2/b` `ev`"
        );
    }

    #[test]
    fn a_page_names_the_events_files_relative_to_it_and_the_note_in_full() {
        static NOTED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
        fn note(line: &str) {
            NOTED.lock().unwrap().push(line.to_string());
        }
        let dir = PathBuf::from("/srv/events/ev");
        let e = StoreError::Damaged {
            path: dir.join("audit.log"),
            detail: Text::new("第 9 行不是操作记录", "line 9 is not an audit entry"),
            recovery: Text::new(
                format!("请从 `{}` 恢复", dir.join("history").display()),
                format!("restore from `{}`", dir.join("history").display()),
            ),
        };
        let shown = Problem::of(&e, &dir, note, Lang::En);
        for lang in [Lang::Zh, Lang::En] {
            let page = shown.localize(lang);
            assert!(!page.contains("/srv"), "{page}");
            assert!(
                page.contains("`audit.log`") && page.contains("`history`"),
                "{page}"
            );
        }
        let noted = NOTED.lock().unwrap().join("\n");
        assert!(
            noted.starts_with("warning: `/srv/events/ev/audit.log` is damaged"),
            "{noted}"
        );
        // The directory itself is named by its name; a path elsewhere is left alone.
        assert_eq!(relative("`/srv/events/ev` moved", &dir), "`ev` moved");
        assert_eq!(relative("`/tmp/x`", &dir), "`/tmp/x`");
    }
}
