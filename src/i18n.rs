//! The two languages: [`Lang`], texts written as a zh/en pair, and the language-only
//! helpers every layer shares (counts, number lists, I/O errors, name suggestions).
//!
//! Every label, header and message the program prints is written as a pair, Chinese
//! first, so neither language can fall behind the other. There are two ways to write one:
//!
//! - **chosen now**, when the language is known: `lang.pick("对阵表", "Pairings")` for
//!   fixed words, [`bi!`]`(lang, zh("第{n}轮"), en("round {n}"))` for a sentence with
//!   values (the same choice, formatted);
//! - **carried**, when the text travels to where it is printed (an error, a note, a log
//!   line): [`Text`]`::new(zh, en)`, printed with `Text::get(lang)`; an error type carries
//!   its message through [`Localize`], written with `bi!` in one match.
//!
//! A table of fixed pairs (column headings, the words of a kind) is data, not a third way:
//! it is read with `lang.pick(zh, en)`, or each half goes into its own language's text.
//!
//! A leaf of the crate: it imports no other module, so every layer may use it. Labels of
//! domain values live with their owner (`model::colour_label`, the sheet labels in
//! `views::labels`), and reading a rulebook's language leniently lives in
//! `rulebook::lenient`.

use serde::{Deserialize, Serialize};

/// The language qiwang prints in (`--lang`, else the rulebook's `[event] language`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Chinese (the default).
    #[default]
    Zh,
    /// English.
    En,
}

impl Lang {
    /// The text for this language.
    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }

    /// The HTML `lang` code.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::En => "en",
        }
    }
}

/// A yes/no column of the player list (残疾, 本地, statuses an eligibility filter reads,
/// docs/rules.md §6): 是/yes when set, empty when not, so the players who have it stand out.
pub fn yes_no(b: bool, lang: Lang) -> &'static str {
    match b {
        true => lang.pick("是", "yes"),
        false => "",
    }
}

/// An English count with its noun: `plural(1, "game", "games")` is `1 game`, any other
/// count `2 games`, `0 games`, `1.5 points`. The singular is for a count written exactly
/// `1`, so it takes any number, or points, as printed. Chinese
/// texts need no such choice (`1 局`, `2 局`).
pub fn plural(n: impl std::fmt::Display, one: &str, many: &str) -> String {
    let n = n.to_string();
    let noun = if n == "1" { one } else { many };
    format!("{n} {noun}")
}

/// How many runs [`number_ranges`] writes before it sums up the rest.
const MAX_RANGES: usize = 12;

/// `1–12, 15` for a list of table or round numbers, sorted, each once; empty for an empty
/// list. Past [`MAX_RANGES`] runs the English text ends with how many numbers it left out
/// and the Chinese with 等, so the scattered open tables of a 10,000-player round still
/// make one readable line.
pub fn number_ranges(numbers: &[u32], lang: Lang) -> String {
    let mut sorted = numbers.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for n in sorted {
        match runs.last_mut() {
            Some((_, end)) if end.checked_add(1) == Some(n) => *end = n,
            _ => runs.push((n, n)),
        }
    }
    let parts: Vec<String> = runs
        .iter()
        .take(MAX_RANGES)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}–{b}")
            }
        })
        .collect();
    let left: u64 = runs
        .iter()
        .skip(MAX_RANGES)
        .map(|&(a, b)| u64::from(b - a) + 1)
        .sum();
    if left > 0 {
        // Chinese texts put the list inside 第…台 / 第…轮, next to the full count, so it
        // ends with 等 ("第 1, 3, 5 等 台") rather than a bracketed count of its own.
        return bi!(
            lang,
            zh("{} 等", parts.join(", ")),
            en("{}, … ({left} more)", parts.join(", "))
        );
    }
    parts.join(", ")
}

/// An error message in the language of the event: `--lang`, else the rulebook's.
///
/// Each error type implements this with one `match` whose every arm holds the message in
/// both languages side by side, Chinese first (`bi!`); its `Display` is the English text
/// of that same match (`display_english!`). A message therefore exists in one place, a
/// variant without Chinese does not compile, and both texts name the same values (in
/// backticks), line numbers, keys and file names.
pub trait Localize {
    /// The message in `lang`.
    fn localize(&self, lang: Lang) -> String;
}

/// One sentence in both languages, side by side, Chinese first (as `Lang::pick` and
/// `Text::new` take them); only the text of `lang` is formatted. Each text takes the
/// arguments of `format!`:
///
/// ```ignore
/// bi!(lang,
///     zh("台号 `{text}`{}不是台号", at_zh(at)),
///     en("table `{text}` is not a table number"),
/// )
/// ```
#[macro_export]
macro_rules! bi {
    ($lang:expr, zh($($zh:tt)+), en($($en:tt)+) $(,)?) => {
        match $lang {
            $crate::i18n::Lang::Zh => format!($($zh)+),
            $crate::i18n::Lang::En => format!($($en)+),
        }
    };
}
pub use bi;

/// `Display` for error types that implement [`Localize`]: the English text, so the audit
/// log, `to_string()` and tests read the very text `localize(Lang::En)` gives.
macro_rules! display_english {
    ($($t:ty),+ $(,)?) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$crate::i18n::Localize::localize(
                    self,
                    $crate::i18n::Lang::En,
                ))
            }
        }
    )+};
}
pub(crate) use display_english;

/// A message in both languages, chosen when it is printed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Text {
    /// The Chinese message, printed for Chinese events (the default language).
    pub zh: String,
    /// The English message; also the `Display` text the audit log and tests read.
    pub en: String,
}

/// English, as every `Display` of an error is (the audit log and tests read it).
impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.en)
    }
}

impl Text {
    /// A message written in both languages.
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Text {
        Text {
            zh: zh.into(),
            en: en.into(),
        }
    }

    /// Both languages of a localized error.
    pub fn of(e: &dyn Localize) -> Text {
        Text {
            zh: e.localize(Lang::Zh),
            en: e.localize(Lang::En),
        }
    }

    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        lang.pick(&self.zh, &self.en)
    }

    /// Each language's text with `f` applied, e.g. to add a line.
    pub fn map(self, f: impl Fn(String, Lang) -> String) -> Text {
        Text {
            zh: f(self.zh, Lang::Zh),
            en: f(self.en, Lang::En),
        }
    }
}

/// Text that is the same in both languages (already chosen for the event's language, or
/// made only of names and numbers).
impl From<String> for Text {
    fn from(s: String) -> Text {
        Text {
            zh: s.clone(),
            en: s,
        }
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::from(s.to_string())
    }
}

/// What went wrong in an I/O error, in both languages. The operating system's own text is
/// English (`No such file or directory (os error 2)`), so the common kinds are named in
/// Chinese and any other keeps only its error number there.
pub fn io_error(e: &std::io::Error) -> Text {
    use std::io::ErrorKind as K;
    let zh = match e.kind() {
        K::NotFound => "没有这个文件或目录",
        K::PermissionDenied => "没有权限",
        K::AlreadyExists => "已经存在",
        K::IsADirectory => "这是一个目录，不是文件",
        K::NotADirectory => "路径中有一项不是目录",
        K::DirectoryNotEmpty => "目录不是空的",
        K::StorageFull => "磁盘已满",
        K::ReadOnlyFilesystem => "文件系统只读",
        K::FileTooLarge => "文件太大",
        K::InvalidData => "内容无效（不是可读的文本或格式）",
        K::InvalidInput => "路径或参数无效",
        K::UnexpectedEof => "文件意外结束",
        K::BrokenPipe => "管道已关闭",
        K::TimedOut => "超时",
        K::Interrupted => "操作被中断",
        K::InvalidFilename => "文件名无效或太长",
        K::ResourceBusy => "资源正忙",
        K::OutOfMemory => "内存不足",
        // Kinds the standard library does not name yet.
        _ => match e.raw_os_error() {
            Some(libc::EMFILE | libc::ENFILE) => "打开的文件太多（可用 `ulimit -n` 提高上限）",
            _ => "",
        },
    };
    let zh = match (zh, e.raw_os_error()) {
        ("", Some(n)) => format!("输入输出错误（系统错误码 {n}）"),
        ("", None) => "输入输出错误".to_string(),
        (zh, Some(n)) => format!("{zh}（系统错误码 {n}）"),
        (zh, None) => zh.to_string(),
    };
    Text::new(zh, e.to_string())
}

/// The names among `candidates` a user probably meant when typing `typed`: the same
/// pronunciation (苏燕 for 苏艳, the commonest slip in Chinese names), or at most one
/// character wrong in a short name and two in a longer one. Closest first, at most three.
pub fn did_you_mean<'a>(
    typed: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let typed = typed.trim();
    let typed_sound = pinyin_of(typed);
    let len = typed.chars().count();
    let limit = if len <= 4 { 1 } else { 2 };
    let mut found: Vec<(usize, &str)> = Vec::new();
    for c in candidates {
        if c == typed || found.iter().any(|(_, f)| *f == c) {
            continue;
        }
        let distance = strsim::levenshtein(&typed.to_lowercase(), &c.to_lowercase());
        let same_sound = typed_sound.is_some() && pinyin_of(c) == typed_sound;
        if same_sound {
            found.push((0, c));
        } else if distance <= limit && distance < len {
            found.push((distance, c));
        }
    }
    // Stable: equal distances keep the candidates' order.
    found.sort_by_key(|(d, _)| *d);
    found.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Toneless pinyin of a name made only of Chinese characters.
fn pinyin_of(name: &str) -> Option<Vec<&'static str>> {
    use pinyin::ToPinyin;
    name.to_pinyin()
        .map(|p| p.map(pinyin::Pinyin::plain))
        .collect()
}

/// ``；你是不是要找 `苏艳`？`` / ``; did you mean `苏艳`?``, empty without suggestions.
pub fn did_you_mean_text(suggestions: &[&str]) -> Text {
    if suggestions.is_empty() {
        return Text::default();
    }
    let quoted: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
    Text::new(
        format!("；你是不是要找 {}？", quoted.join("、")),
        format!("; did you mean {}?", quoted.join(" or ")),
    )
}

/// Test help: a Chinese message must name the same facts as its English one.
#[cfg(test)]
pub(crate) mod facts {
    use std::collections::BTreeSet;

    /// The `backticked` values of a message.
    fn quoted(text: &str) -> BTreeSet<String> {
        text.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    /// The runs of ASCII digits of a message.
    fn numbers(text: &str) -> BTreeSet<String> {
        text.split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// Asserts that `zh` is Chinese and quotes the same values and numbers as `en`.
    #[track_caller]
    pub fn assert_same(zh: &str, en: &str) {
        assert!(!zh.trim().is_empty(), "no Chinese text for: {en}");
        assert_ne!(zh, en, "not translated: {en}");
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "no Chinese in: {zh}"
        );
        assert_eq!(quoted(zh), quoted(en), "quoted values differ:\n{zh}\n{en}");
        assert_eq!(numbers(zh), numbers(en), "numbers differ:\n{zh}\n{en}");
    }

    /// [`assert_same`] on both languages of a localized error.
    #[track_caller]
    pub fn assert_localized(e: &dyn super::Localize) {
        use super::Lang;
        assert_same(&e.localize(Lang::Zh), &e.localize(Lang::En));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_lists_are_compact_and_bounded() {
        assert_eq!(number_ranges(&[3, 1, 2, 5, 7, 6, 7], Lang::En), "1–3, 5–7");
        assert_eq!(number_ranges(&[4], Lang::En), "4");
        assert_eq!(number_ranges(&[], Lang::En), "");
        assert_eq!(
            number_ranges(&[u32::MAX, u32::MAX - 1], Lang::En),
            "4294967294–4294967295"
        );
        // Every other table of a 10,000-table round: twelve runs, then the count of the rest.
        let odd: Vec<u32> = (1..=10_000).filter(|t| t % 2 == 1).collect();
        let en = number_ranges(&odd, Lang::En);
        assert!(en.starts_with("1, 3, 5,"), "{en}");
        assert!(en.ends_with(", 23, … (4988 more)"), "{en}");
        assert!(number_ranges(&odd, Lang::Zh).ends_with(", 21, 23 等"));
    }

    #[test]
    fn plural_is_singular_only_for_one() {
        assert_eq!(plural(1, "game", "games"), "1 game");
        assert_eq!(plural(2usize, "game", "games"), "2 games");
        assert_eq!(plural(0u32, "table", "tables"), "0 tables");
        assert_eq!(plural(1.0, "point", "points"), "1 point");
        assert_eq!(plural(1.5, "point", "points"), "1.5 points");
        assert_eq!(plural(0.5, "point", "points"), "0.5 points");
        assert_eq!(plural(-1, "point", "points"), "-1 points");
    }

    #[test]
    fn bi_formats_only_the_language_asked_for() {
        let n = 3;
        let pick = |lang| bi!(lang, zh("{n} 轮，`{}`", "甲"), en("{n} rounds, `{}`", "a"));
        assert_eq!(pick(Lang::En), "3 rounds, `a`");
        assert_eq!(pick(Lang::Zh), "3 轮，`甲`");
    }

    /// `display_english!` gives the English text of the very `localize` match.
    #[test]
    fn display_is_the_english_localization() {
        #[derive(Debug)]
        struct Missing(u32);
        impl Localize for Missing {
            fn localize(&self, lang: Lang) -> String {
                bi!(
                    lang,
                    zh("缺少第 {} 轮", self.0),
                    en("round {} is missing", self.0)
                )
            }
        }
        display_english!(Missing);
        assert_eq!(Missing(3).to_string(), "round 3 is missing");
        assert_eq!(Missing(3).to_string(), Missing(3).localize(Lang::En));
        assert_eq!(Missing(3).localize(Lang::Zh), "缺少第 3 轮");
    }

    #[test]
    fn text_picks_and_maps() {
        let t = Text::new("甲", "a").map(|s, l| format!("{s}{}", l.pick("！", "!")));
        assert_eq!(t.get(Lang::Zh), "甲！");
        assert_eq!(t.get(Lang::En), "a!");
        assert_eq!(Text::from("x"), Text::new("x", "x"));
    }

    #[test]
    fn io_errors_read_in_chinese() {
        let cases = [
            (
                std::io::Error::from_raw_os_error(2),
                "没有这个文件或目录（系统错误码 2）",
            ),
            (
                std::io::Error::from(std::io::ErrorKind::PermissionDenied),
                "没有权限",
            ),
            (std::io::Error::other("boom"), "输入输出错误"),
            (
                std::io::Error::from_raw_os_error(libc::EMFILE),
                "打开的文件太多（可用 `ulimit -n` 提高上限）（系统错误码 24）",
            ),
        ];
        for (e, zh) in cases {
            let text = io_error(&e);
            assert_eq!(text.zh, zh);
            assert_eq!(text.en, e.to_string());
        }
    }

    #[test]
    fn did_you_mean_finds_homophones_and_typos() {
        let names = ["苏艳", "苏燕妮", "王五", "李四", "youth", "adult", "张三丰"];
        let cases: [(&str, &[&str]); 7] = [
            ("苏燕", &["苏艳", "苏燕妮"]),
            ("王六", &["王五"]),
            ("yuoth", &["youth"]),
            ("Adult", &["adult"]),
            ("张三风", &["张三丰"]),
            ("赵", &[]),
            ("刘备", &[]),
        ];
        for (typed, want) in cases {
            assert_eq!(did_you_mean(typed, names), want.to_vec(), "{typed}");
        }
        assert_eq!(
            did_you_mean_text(&["苏艳"]),
            Text::new("；你是不是要找 `苏艳`？", "; did you mean `苏艳`?")
        );
        assert_eq!(did_you_mean_text(&[]), Text::default());
    }

    #[test]
    fn facts_catch_a_dropped_value() {
        facts::assert_same("棋手 `甲` 第 3 轮", "player `甲` round 3");
        let dropped =
            std::panic::catch_unwind(|| facts::assert_same("棋手第 3 轮", "player `甲` round 3"));
        assert!(dropped.is_err());
    }
}
