//! The 称号 (title) ladder: the closed list of titles a registration cell or a rulebook may
//! name, each with its rung, so that eligibility compares ranks instead of matching words.
//!
//! Owns the list, the spellings accepted for each title and the parse of one cell. Two
//! ladders meet here: the 中国象棋协会 棋手技术等级称号 (特级大师, 象棋大师/国家大师, 棋协
//! 大师, 地方大师, 一级 … 十六级棋士) and the state 运动员技术等级 (国际级运动健将, 国家级
//! 运动健将, 一级 … 三级运动员). A state grade sits on the rung of the association title it
//! corresponds to (国际级运动健将 = 特级大师, 国家级运动健将 = 象棋大师, as Dongguan 十.3
//! writes it: 国家级运动健将（象棋大师）). docs/rules.md §15.1 gives the sources.

use crate::i18n::Text;

/// Rung of the highest title (特级大师); 十六级棋士 is rung 1.
pub const TOP_RUNG: u8 = 20;

/// One title of the ladder.
struct Entry {
    /// The canonical name, as stored on the player and printed.
    name: &'static str,
    /// Its rung: higher is stronger; titles of one rung are equivalent.
    rung: u8,
    /// Other spellings accepted (after the prefixes 中国象棋协会/中国象棋/中国 and a
    /// trailing 称号 are taken off).
    aliases: &'static [&'static str],
}

/// The ladder, strongest first. The 棋士 rungs (一级 … 十六级) are parsed by pattern.
const NAMED: &[Entry] = &[
    Entry {
        name: "特级大师",
        rung: 20,
        aliases: &["象棋特级大师", "特大", "国家特级大师"],
    },
    Entry {
        name: "国际级运动健将",
        rung: 20,
        aliases: &["国际健将", "国际运动健将"],
    },
    Entry {
        name: "象棋大师",
        rung: 19,
        aliases: &["国家大师", "象棋国家大师", "国家级象棋大师", "大师", "国大"],
    },
    Entry {
        name: "国家级运动健将",
        rung: 19,
        aliases: &["运动健将", "国家运动健将", "国家健将", "国家级健将"],
    },
    Entry {
        name: "棋协大师",
        rung: 18,
        aliases: &["象棋协会大师", "象协大师"],
    },
    Entry {
        name: "一级运动员",
        rung: 18,
        aliases: &["国家一级运动员", "国家一级"],
    },
    Entry {
        name: "地方大师",
        rung: 17,
        aliases: &[],
    },
    Entry {
        name: "棋协候补大师",
        rung: 17,
        aliases: &["候补棋协大师", "候补大师"],
    },
    Entry {
        name: "二级运动员",
        rung: 17,
        aliases: &["国家二级运动员", "国家二级"],
    },
    Entry {
        name: "三级运动员",
        rung: 16,
        aliases: &["国家三级运动员", "国家三级"],
    },
];

/// Number of 棋士 rungs (一级棋士 … 十六级棋士).
const QISHI_LEVELS: u8 = 16;

const NUMERALS: [&str; 16] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四",
    "十五", "十六",
];

/// Canonical 棋士 names, `一级棋士` … `十六级棋士`.
const QISHI: [&str; 16] = [
    "一级棋士",
    "二级棋士",
    "三级棋士",
    "四级棋士",
    "五级棋士",
    "六级棋士",
    "七级棋士",
    "八级棋士",
    "九级棋士",
    "十级棋士",
    "十一级棋士",
    "十二级棋士",
    "十三级棋士",
    "十四级棋士",
    "十五级棋士",
    "十六级棋士",
];

/// A title of the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Title {
    name: &'static str,
    rung: u8,
}

impl Title {
    /// The canonical name (`象棋大师` for a cell `国家大师`).
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The rung: 20 = 特级大师 … 1 = 十六级棋士; equal rungs are equivalent titles.
    pub fn rung(self) -> u8 {
        self.rung
    }

    /// Every canonical name, strongest first (for messages and docs).
    pub fn all_names() -> Vec<&'static str> {
        let mut names: Vec<(u8, &'static str)> = QISHI
            .iter()
            .enumerate()
            .map(|(i, n)| (QISHI_LEVELS - i as u8, *n))
            .collect();
        names.extend(NAMED.iter().map(|e| (e.rung, e.name)));
        // Stable: within a rung the association title comes before the state grade.
        names.sort_by_key(|(rung, _)| std::cmp::Reverse(*rung));
        names.into_iter().map(|(_, n)| n).collect()
    }

    /// The accepted names in one line: `特级大师、国际级运动健将、…、十六级棋士`.
    pub fn accepted_list() -> String {
        Self::all_names().join("、")
    }

    /// The same for English messages, comma-separated.
    pub fn accepted_list_en() -> String {
        Self::all_names().join(", ")
    }

    /// Parses a title as a registration cell or a rulebook writes it: full- or half-width,
    /// with or without spaces, a 中国象棋协会/中国象棋/中国 prefix or a 称号 suffix;
    /// `业余三级棋士`, `3级棋士`, `棋协三级棋士` and `三级棋手` all read as 三级棋士.
    /// `Ok(None)` for an empty cell or one that says there is none (无, 没有, -, /).
    pub fn parse(text: &str) -> Result<Option<Title>, Text> {
        let compact = compact(text);
        if matches!(
            compact.as_str(),
            "" | "无" | "没有" | "暂无" | "-" | "--" | "—" | "/" | "／"
        ) {
            return Ok(None);
        }
        lookup(&compact)
            .map(Some)
            .ok_or_else(|| unknown_message(text.trim(), &compact))
    }
}

/// Half-width, no spaces, no prefix or 称号 suffix.
fn compact(text: &str) -> String {
    let half: String = text
        .chars()
        .filter_map(|c| match c {
            '\u{3000}' => None,
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
            c if c.is_whitespace() => None,
            c => Some(c),
        })
        .collect();
    let mut s = half.as_str();
    for prefix in ["中国象棋协会", "中国象协", "中国象棋", "中国"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest;
            break;
        }
    }
    let s = s.strip_suffix("称号").unwrap_or(s);
    s.to_string()
}

fn lookup(s: &str) -> Option<Title> {
    if let Some(e) = NAMED.iter().find(|e| e.name == s || e.aliases.contains(&s)) {
        return Some(Title {
            name: e.name,
            rung: e.rung,
        });
    }
    // 棋士: [业余|棋协] N 级 [棋士|棋手]
    let s = s
        .strip_prefix("业余")
        .or_else(|| s.strip_prefix("棋协"))
        .unwrap_or(s);
    let s = s.strip_suffix("棋士").or_else(|| s.strip_suffix("棋手"))?;
    let n = s.strip_suffix('级')?;
    let level = if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) {
        n.parse::<usize>().ok()?
    } else {
        NUMERALS.iter().position(|w| *w == n)? + 1
    };
    let name = QISHI.get(level.checked_sub(1)?)?;
    Some(Title {
        name,
        rung: QISHI_LEVELS + 1 - level as u8,
    })
}

fn unknown_message(text: &str, compact: &str) -> Text {
    let list = Title::accepted_list();
    let list_en = Title::accepted_list_en();
    let mut message = Text::new(
        format!(
            "称号 `{text}` 不在中国象棋协会等级称号之列；应为 {list} 之一（可带“中国象棋协会”前缀，棋士可写作 业余三级棋士、3级棋士），没有称号请留空或写 无"
        ),
        format!(
            "title `{text}` is not a title of the 中国象棋协会 ladder; write one of {list_en} (a 中国象棋协会 prefix is fine, and 棋士 may be written 业余三级棋士 or 3级棋士), or leave it empty (or 无) for none"
        ),
    );
    if compact.contains('段') {
        message
            .zh
            .push_str("；业余段位（如 业余三段）不是称号，请写在备注栏");
        message.en.push_str(
            "; an amateur 段位 (such as 业余三段) is not a title: put it in a remarks column",
        );
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rung(s: &str) -> Option<u8> {
        Title::parse(s).ok().flatten().map(Title::rung)
    }

    #[test]
    fn the_ladder_orders_titles() {
        let order = [
            "特级大师",
            "象棋大师",
            "棋协大师",
            "棋协候补大师",
            "一级棋士",
            "二级棋士",
            "三级棋士",
            "十六级棋士",
        ];
        for pair in order.windows(2) {
            assert!(rung(pair[0]) > rung(pair[1]), "{} > {}", pair[0], pair[1]);
        }
        assert_eq!(rung("国家级运动健将"), rung("象棋大师"));
        assert_eq!(rung("国际级运动健将"), rung("特级大师"));
        assert_eq!(rung("地方大师"), rung("棋协候补大师"));
        assert_eq!(rung("特级大师"), Some(TOP_RUNG));
        assert_eq!(rung("十六级棋士"), Some(1));
    }

    #[test]
    fn spellings_of_one_title() {
        for (cell, name) in [
            ("中国象棋协会棋协大师", "棋协大师"),
            ("棋协大师称号", "棋协大师"),
            ("候补棋协大师", "棋协候补大师"),
            ("国家大师", "象棋大师"),
            ("中国象棋大师", "象棋大师"),
            ("运动健将", "国家级运动健将"),
            ("业余三级棋士", "三级棋士"),
            ("3级棋士", "三级棋士"),
            ("３级棋士", "三级棋士"),
            ("棋协十二级棋士", "十二级棋士"),
            ("一级棋手", "一级棋士"),
            (" 象棋 特级大师 ", "特级大师"),
            ("国家一级运动员", "一级运动员"),
        ] {
            let t = Title::parse(cell).unwrap().unwrap();
            assert_eq!(t.name(), name, "{cell}");
        }
        for none in ["", "无", " - ", "／"] {
            assert_eq!(Title::parse(none).unwrap(), None, "{none:?}");
        }
    }

    #[test]
    fn an_unknown_title_lists_the_accepted_ones() {
        for bad in ["FIDE Master", "十七级棋士", "0级棋士", "大大师", "业余三段"] {
            let e = Title::parse(bad).unwrap_err();
            assert!(e.zh.contains("棋协候补大师、"), "{}", e.zh);
            assert!(e.en.contains("棋协候补大师, "), "{}", e.en);
            assert!(e.en.contains(&format!("`{bad}`")), "{}", e.en);
        }
        assert!(Title::parse("业余三段").unwrap_err().zh.contains("段位"));
    }

    #[test]
    fn every_name_parses_to_itself() {
        let names = Title::all_names();
        assert_eq!(names.len(), NAMED.len() + usize::from(QISHI_LEVELS));
        for n in names {
            assert_eq!(Title::parse(n).unwrap().unwrap().name(), n);
        }
    }
}
