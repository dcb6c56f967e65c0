//! Reading a parsed TOML tree with its positions.
//!
//! Owns the typed getters every section parser uses. A getter never fails: a missing or
//! wrong value records a problem (byte offset, dotted key path, message) and yields
//! `None`, so one pass over the file finds every mistake.

use super::error::RawProblem;
use super::names::Named;
use crate::i18n::Text;
use crate::model::Points;
use chrono::NaiveDate;
use std::ops::Range;
use toml_edit::{Item, TableLike, Value};

pub(super) type Span = Range<usize>;

/// The problems found so far.
#[derive(Debug, Default)]
pub(super) struct Ctx {
    pub problems: Vec<RawProblem>,
}

impl Ctx {
    pub fn report(&mut self, span: Option<Span>, key: impl Into<String>, message: Text) {
        self.problems.push(RawProblem {
            offset: span.map_or(0, |s| s.start),
            key: key.into(),
            message,
        });
    }
}

/// One table of the rulebook (a `[header]` table, an inline table or one element of an
/// array of tables) with its dotted path.
pub(super) struct Sec<'t> {
    pub path: String,
    table: &'t dyn TableLike,
    span: Option<Span>,
}

/// The nearest candidate to `word`, if it is close enough to be a likely typo.
pub(super) fn nearest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    // On equal similarity the earlier candidate wins, so suggestions are stable.
    let mut best: Option<(f64, &'a str)> = None;
    for c in candidates {
        let score = strsim::jaro_winkler(word, c);
        if score >= 0.7 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

/// `` `a`, `b`, `c` ``
pub(super) fn backticked(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How a value is called in Chinese messages.
fn kind_zh(item: &Item) -> &'static str {
    match item {
        Item::None => "空",
        Item::Value(Value::String(_)) => "字符串",
        Item::Value(Value::Integer(_)) => "整数",
        Item::Value(Value::Float(_)) => "小数",
        Item::Value(Value::Boolean(_)) => "布尔值",
        Item::Value(Value::Datetime(_)) => "日期",
        Item::Value(Value::Array(_)) => "数组",
        Item::Value(Value::InlineTable(_)) | Item::Table(_) => "表",
        Item::ArrayOfTables(_) => "表数组",
    }
}

/// How a value is called in messages.
fn kind(item: &Item) -> &'static str {
    match item {
        Item::None => "nothing",
        Item::Value(Value::String(_)) => "a string",
        Item::Value(Value::Integer(_)) => "an integer",
        Item::Value(Value::Float(_)) => "a float",
        Item::Value(Value::Boolean(_)) => "a boolean",
        Item::Value(Value::Datetime(_)) => "a date",
        Item::Value(Value::Array(_)) => "an array",
        Item::Value(Value::InlineTable(_)) | Item::Table(_) => "a table",
        Item::ArrayOfTables(_) => "an array of tables",
    }
}

/// The value as written, shortened for a message.
fn shown(item: &Item) -> String {
    let text = match item {
        Item::Value(v) => v.to_string(),
        Item::Table(_) | Item::ArrayOfTables(_) | Item::None => String::new(),
    };
    let text = text.trim();
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text.to_string()
    }
}

fn found(item: &Item) -> String {
    let value = shown(item);
    if value.is_empty() {
        kind(item).to_string()
    } else {
        format!("{} `{value}`", kind(item))
    }
}

fn found_zh(item: &Item) -> String {
    let value = shown(item);
    if value.is_empty() {
        kind_zh(item).to_string()
    } else {
        format!("{} `{value}`", kind_zh(item))
    }
}

/// "expected a table, found …" in both languages.
fn expected_found(expected: &Text, item: &Item) -> Text {
    Text::new(
        format!("应为{}，实际为{}", expected.zh, found_zh(item)),
        format!("expected {}, found {}", expected.en, found(item)),
    )
}

impl<'t> Sec<'t> {
    pub fn root(table: &'t toml_edit::Table) -> Sec<'t> {
        Sec {
            path: String::new(),
            table,
            span: Some(0..0),
        }
    }

    /// The dotted path of a key in this table.
    pub fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// Where this table starts: its header, or its first key.
    pub fn span(&self) -> Option<Span> {
        self.span.clone().or_else(|| {
            self.table
                .iter()
                .filter_map(|(k, _)| self.table.get_key_value(k))
                .filter_map(|(k, v)| k.span().or_else(|| v.span()))
                .min_by_key(|s| s.start)
        })
    }

    fn item(&self, key: &str) -> Option<&'t Item> {
        self.table.get(key).filter(|i| !i.is_none())
    }

    /// The keys of this table, in file order.
    pub fn keys(&self) -> Vec<String> {
        self.table.iter().map(|(k, _)| k.to_string()).collect()
    }

    pub fn has(&self, key: &str) -> bool {
        self.item(key).is_some()
    }

    /// Where a key's value is (falling back to the key, then the table).
    pub fn value_span(&self, key: &str) -> Option<Span> {
        match self.table.get_key_value(key) {
            Some((k, v)) => v.span().or_else(|| k.span()).or_else(|| self.span()),
            None => self.span(),
        }
    }

    fn key_span(&self, key: &str) -> Option<Span> {
        match self.table.get_key_value(key) {
            Some((k, v)) => k.span().or_else(|| v.span()).or_else(|| self.span()),
            None => self.span(),
        }
    }

    /// Records a problem at a key's value.
    pub fn report(&self, ctx: &mut Ctx, key: &str, message: Text) {
        ctx.report(self.value_span(key), self.key_path(key), message);
    }

    /// Reports every key not in `allowed`, suggesting the nearest valid one.
    pub fn check_keys(&self, ctx: &mut Ctx, allowed: &[&str]) {
        for (key, _) in self.table.iter() {
            if allowed.contains(&key) {
                continue;
            }
            let message = match nearest(key, allowed) {
                Some(near) => Text::new(
                    format!("未知的键 `{key}`；是不是 `{near}`？"),
                    format!("unknown key `{key}`; did you mean `{near}`?"),
                ),
                None => Text::new(
                    format!("未知的键 `{key}`；这里可用的键为 {}", backticked(allowed)),
                    format!(
                        "unknown key `{key}`; valid keys here are {}",
                        backticked(allowed)
                    ),
                ),
            };
            ctx.report(self.key_span(key), self.key_path(key), message);
        }
    }

    /// Reports a required key that is absent.
    pub fn missing(&self, ctx: &mut Ctx, key: &str, example: &str) {
        ctx.report(
            self.span(),
            self.key_path(key),
            Text::new(
                format!("缺少必需的键；请添加，例如 `{example}`"),
                format!("missing required key; add it, for example `{example}`"),
            ),
        );
    }

    fn wrong(&self, ctx: &mut Ctx, key: &str, item: &Item, expected: Text) {
        self.report(ctx, key, expected_found(&expected, item));
    }

    /// A sub-table (`[a.b]`, `b = { … }` or dotted keys).
    pub fn sub(&self, ctx: &mut Ctx, key: &str) -> Option<Sec<'t>> {
        let item = self.item(key)?;
        match item.as_table_like() {
            Some(table) => Some(Sec {
                path: self.key_path(key),
                table,
                span: item.span(),
            }),
            None => {
                self.wrong(ctx, key, item, Text::new("表", "a table"));
                None
            }
        }
    }

    /// The elements of an array of tables (`[[a.b]]` or `b = [{ … }, …]`), with paths
    /// `a.b[0]`, `a.b[1]`, …
    pub fn tables(&self, ctx: &mut Ctx, key: &str) -> Vec<Sec<'t>> {
        let Some(item) = self.item(key) else {
            return Vec::new();
        };
        let path = self.key_path(key);
        match item {
            Item::ArrayOfTables(array) => array
                .iter()
                .enumerate()
                .map(|(i, t)| Sec {
                    path: format!("{path}[{i}]"),
                    table: t,
                    span: t.span(),
                })
                .collect(),
            Item::Value(Value::Array(array)) => {
                let mut out = Vec::new();
                for (i, v) in array.iter().enumerate() {
                    match v.as_inline_table() {
                        Some(t) => out.push(Sec {
                            path: format!("{path}[{i}]"),
                            table: t,
                            span: v.span(),
                        }),
                        None => ctx.report(
                            v.span(),
                            format!("{path}[{i}]"),
                            expected_found(&Text::new("表", "a table"), &Item::Value(v.clone())),
                        ),
                    }
                }
                out
            }
            other => {
                self.wrong(ctx, key, other, Text::new("表数组", "an array of tables"));
                Vec::new()
            }
        }
    }

    pub fn string(&self, ctx: &mut Ctx, key: &str) -> Option<String> {
        let item = self.item(key)?;
        match item.as_str() {
            Some(s) => Some(s.to_string()),
            None => {
                self.wrong(ctx, key, item, Text::new("字符串", "a string"));
                None
            }
        }
    }

    /// The key's value when it is a string, else `None` without a report (for keys that
    /// take a string or another type).
    pub fn string_if_string(&self, key: &str) -> Option<String> {
        self.item(key)?.as_str().map(str::to_string)
    }

    /// A string that must not be blank.
    pub fn text(&self, ctx: &mut Ctx, key: &str) -> Option<String> {
        let s = self.string(ctx, key)?;
        if s.trim().is_empty() {
            self.report(
                ctx,
                key,
                Text::new(
                    "不能为空；请写上内容，或去掉这个键",
                    "must not be empty; write the text or leave the key out",
                ),
            );
            return None;
        }
        Some(s)
    }

    /// An integer in `min..=max`.
    pub fn int(&self, ctx: &mut Ctx, key: &str, min: i64, max: i64) -> Option<i64> {
        let item = self.item(key)?;
        let Some(n) = item.as_integer() else {
            self.wrong(ctx, key, item, Text::new("整数", "a whole number"));
            return None;
        };
        if n < min || n > max {
            self.report(
                ctx,
                key,
                Text::new(
                    format!("`{n}` 超出范围；请用 {min} 到 {max} 之间的整数"),
                    format!("`{n}` is out of range; use a whole number from {min} to {max}"),
                ),
            );
            return None;
        }
        Some(n)
    }

    /// A non-negative count of at least `min`.
    pub fn count(&self, ctx: &mut Ctx, key: &str, min: u32) -> Option<u32> {
        let item = self.item(key)?;
        let Some(n) = item.as_integer() else {
            self.wrong(ctx, key, item, Text::new("整数", "a whole number"));
            return None;
        };
        if n < i64::from(min) {
            self.report(
                ctx,
                key,
                Text::new(
                    format!("`{n}` 太小；至少应为 {min}"),
                    format!("`{n}` is too small; it must be at least {min}"),
                ),
            );
            return None;
        }
        match u32::try_from(n) {
            Ok(n) => Some(n),
            Err(_) => {
                self.report(
                    ctx,
                    key,
                    Text::new(format!("`{n}` 太大"), format!("`{n}` is too large")),
                );
                None
            }
        }
    }

    /// Points in the rulebook's integer units (CXA 2011 §13: 2/1/0).
    pub fn points(&self, ctx: &mut Ctx, key: &str) -> Option<Points> {
        self.int(ctx, key, i64::from(i32::MIN), i64::from(i32::MAX))
            .map(|n| Points(n as i32))
    }

    pub fn boolean(&self, ctx: &mut Ctx, key: &str) -> Option<bool> {
        let item = self.item(key)?;
        match item.as_bool() {
            Some(b) => Some(b),
            None => {
                self.wrong(
                    ctx,
                    key,
                    item,
                    Text::new("`true` 或 `false`", "`true` or `false`"),
                );
                None
            }
        }
    }

    /// A limit that is a whole number of at least `min`, or `false` for "no limit".
    /// `Some(None)` means switched off.
    pub fn limit(&self, ctx: &mut Ctx, key: &str, min: u32) -> Option<Option<u32>> {
        let item = self.item(key)?;
        match item.as_bool() {
            Some(false) => Some(None),
            Some(true) => {
                self.report(
                    ctx,
                    key,
                    Text::new(
                        format!("`true` 不是限额；请给出整数（至少 {min}），或用 `false` 表示不限"),
                        format!("`true` is not a limit; give a whole number (at least {min}) or `false` for no limit"),
                    ),
                );
                None
            }
            None if item.as_integer().is_some() => self.count(ctx, key, min).map(Some),
            None => {
                self.wrong(
                    ctx,
                    key,
                    item,
                    Text::new("整数或 `false`", "a whole number or `false`"),
                );
                None
            }
        }
    }

    /// A date: a TOML date (`2018-10-26`) or a string `"2018-10-26"`.
    pub fn date(&self, ctx: &mut Ctx, key: &str) -> Option<NaiveDate> {
        let item = self.item(key)?;
        if let Some(dt) = item.as_datetime() {
            return match (dt.date, dt.time) {
                (Some(d), None) => {
                    NaiveDate::from_ymd_opt(i32::from(d.year), u32::from(d.month), u32::from(d.day))
                }
                _ => {
                    self.report(
                        ctx,
                        key,
                        Text::new(
                            format!("`{dt}` 带有时间；请只写日期，例如 `2018-10-26`"),
                            format!("`{dt}` has a time; give the date only, e.g. `2018-10-26`"),
                        ),
                    );
                    None
                }
            };
        }
        let Some(s) = item.as_str() else {
            self.wrong(
                ctx,
                key,
                item,
                Text::new("日期，例如 `2018-10-26`", "a date such as `2018-10-26`"),
            );
            return None;
        };
        match NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d") {
            Ok(d) => Some(d),
            Err(_) => {
                self.report(
                    ctx,
                    key,
                    Text::new(
                        format!("`{s}` 不是有效日期；请按 年-月-日 书写，例如 `2018-10-26`"),
                        format!(
                            "`{s}` is not a valid date; write it as year-month-day, e.g. `2018-10-26`"
                        ),
                    ),
                );
                None
            }
        }
    }

    /// A setting enum by name.
    pub fn named<T: Named>(&self, ctx: &mut Ctx, key: &str) -> Option<T> {
        let item = self.item(key)?;
        let Some(s) = item.as_str() else {
            let names = backticked(&T::canonical_names());
            self.wrong(
                ctx,
                key,
                item,
                Text::new(format!("{names} 之一"), format!("one of {names}")),
            );
            return None;
        };
        let parsed = T::parse(s);
        if parsed.is_none() {
            self.report(ctx, key, unknown_name_message::<T>(s, ("值", "value")));
        }
        parsed
    }

    /// An array of strings, each with its own position.
    pub fn strings(&self, ctx: &mut Ctx, key: &str) -> Option<Vec<(String, Option<Span>)>> {
        let item = self.item(key)?;
        let Some(array) = item.as_array() else {
            self.wrong(
                ctx,
                key,
                item,
                Text::new("字符串数组", "an array of strings"),
            );
            return None;
        };
        let mut out = Vec::new();
        for (i, v) in array.iter().enumerate() {
            match v.as_str() {
                Some(s) => out.push((s.to_string(), v.span())),
                None => ctx.report(
                    v.span(),
                    format!("{}[{i}]", self.key_path(key)),
                    expected_found(&Text::new("字符串", "a string"), &Item::Value(v.clone())),
                ),
            }
        }
        Some(out)
    }
}

/// "unknown value `x`; expected one of …", with a suggestion when one is close.
/// `what` is (Chinese, English), e.g. `("值", "value")`.
pub(super) fn unknown_name_message<T: Named>(s: &str, what: (&str, &str)) -> Text {
    let names = T::canonical_names();
    let (what_zh, what) = what;
    let mut message = Text::new(
        format!("未知的{what_zh} `{s}`；应为 {} 之一", backticked(&names)),
        format!(
            "unknown {what} `{s}`; expected one of {}",
            backticked(&names)
        ),
    );
    if let Some(near) = nearest(s, &names) {
        message.zh.push_str(&format!("（是不是 `{near}`？）"));
        message.en.push_str(&format!(" (did you mean `{near}`?)"));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_suggests_typos_only() {
        let keys = [
            "fouls_to_lose_game",
            "late_forfeit_minutes",
            "withdrawn_ranked",
        ];
        let cases = [
            ("fouls_to_loose_game", Some("fouls_to_lose_game")),
            ("late_forfeit_minute", Some("late_forfeit_minutes")),
            ("zzz", None),
        ];
        for (word, want) in cases {
            assert_eq!(nearest(word, &keys), want, "{word}");
        }
    }
}
