//! clap's usage errors in Chinese: what is wrong, a suggestion, the usage line, and why a
//! value did not parse; and what to do about a value that did not parse, which English
//! usage errors (clap's own) are given as a `tip:`.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use qiwang::i18n::Text;

/// A usage error of clap in Chinese: what is wrong, a suggestion when clap has one, the
/// usage line and where to find more.
pub fn render_error(err: &clap::Error) -> String {
    let get = |kind: ContextKind| err.get(kind);
    let text = |kind: ContextKind| match get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join("`、`")),
        Some(ContextValue::StyledStr(s)) => Some(s.to_string()),
        Some(ContextValue::StyledStrs(v)) => Some(
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("`、`"),
        ),
        Some(ContextValue::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let arg = text(ContextKind::InvalidArg).unwrap_or_default();
    let value = text(ContextKind::InvalidValue).unwrap_or_default();
    let mut lines: Vec<String> = Vec::new();
    let message = match err.kind() {
        ErrorKind::InvalidValue => {
            let valid = match get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => v
                    .iter()
                    .map(|v| match crate::cli::args::chinese_value(v) {
                        Some(zh) => format!("{zh}（{v}）"),
                        None => v.clone(),
                    })
                    .collect::<Vec<_>>()
                    .join("、"),
                _ => String::new(),
            };
            if value.is_empty() {
                format!("`{arg}` 需要一个值；可选：{valid}")
            } else {
                format!("`{arg}` 的值 `{value}` 无效；可选：{valid}")
            }
        }
        ErrorKind::UnknownArgument if arg.starts_with('-') => format!("不认识的选项 `{arg}`"),
        ErrorKind::UnknownArgument => format!("多余的参数 `{arg}`"),
        ErrorKind::InvalidSubcommand => {
            let sub = text(ContextKind::InvalidSubcommand).unwrap_or_default();
            format!("没有子命令 `{sub}`")
        }
        ErrorKind::NoEquals => format!("`{arg}` 的值要用等号写：`{arg}=值`"),
        ErrorKind::ValueValidation => match value_advice(err) {
            Some(advice) => format!("`{arg}` 的值 `{value}` 无效：{}", advice.zh),
            None => format!("`{arg}` 的值 `{value}` 无效"),
        },
        ErrorKind::TooManyValues => format!("`{arg}` 后面多了值 `{value}`"),
        ErrorKind::TooFewValues | ErrorKind::WrongNumberOfValues => {
            let expected = text(ContextKind::ExpectedNumValues).unwrap_or_default();
            let actual = text(ContextKind::ActualNumValues).unwrap_or_default();
            format!("`{arg}` 需要 {expected} 个值，却给了 {actual} 个")
        }
        ErrorKind::ArgumentConflict => {
            let prior = text(ContextKind::PriorArg).unwrap_or_default();
            if prior == arg {
                format!("`{arg}` 只能写一次")
            } else if prior.is_empty() {
                format!("`{arg}` 不能和其他参数同时使用")
            } else {
                format!("`{arg}` 不能和 `{prior}` 同时使用")
            }
        }
        ErrorKind::MissingRequiredArgument => format!("缺少必需的参数：`{arg}`"),
        ErrorKind::MissingSubcommand => {
            let name = text(ContextKind::InvalidSubcommand).unwrap_or_default();
            format!("`{name}` 需要一个子命令")
        }
        ErrorKind::InvalidUtf8 => "参数不是有效的 UTF-8 文本".to_string(),
        ErrorKind::Io | ErrorKind::Format => "无法输出帮助文本".to_string(),
        _ => "命令行参数有误".to_string(),
    };
    lines.push(format!("错误：{message}"));
    let suggested: Vec<String> = [ContextKind::SuggestedSubcommand, ContextKind::SuggestedArg]
        .into_iter()
        .chain([ContextKind::SuggestedValue])
        .filter_map(|k| match get(k) {
            Some(ContextValue::String(s)) => Some(vec![s.clone()]),
            Some(ContextValue::Strings(v)) => Some(v.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    if !suggested.is_empty() {
        let quoted: Vec<String> = suggested.iter().map(|s| format!("`{s}`")).collect();
        lines.push(format!("\n  提示：你是不是要找 {}？", quoted.join("、")));
    }
    if let Some(ContextValue::String(trailing)) = get(ContextKind::TrailingArg) {
        lines.push(format!(
            "\n  提示：如果 `{trailing}` 是一个值而不是选项，请写 `-- {trailing}`"
        ));
    }
    if let Some(usage) = text(ContextKind::Usage) {
        let usage = usage.trim();
        let usage = usage.strip_prefix("Usage:").unwrap_or(usage).trim();
        lines.push(format!("\n\n用法：{usage}"));
    }
    lines.push("\n\n更多信息请用 `--help`。\n".to_string());
    lines.concat()
}

/// What to do about a value that did not parse, in both languages, for the value parsers
/// qiwang uses: a number out of its option's range gives the range (clap's `… is not in
/// 0..=65535`), a negative one says that a negative number is not allowed, a word where a
/// number belongs asks for a number, and so on. `None` when there is nothing to add. The
/// English text is empty where clap's own English message already says what to write (an
/// unknown `--format` lists the formats there).
pub(crate) fn value_advice(err: &clap::Error) -> Option<Text> {
    use std::error::Error;
    if err.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let value = match err.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(s)) => s.as_str(),
        _ => "",
    };
    let source = err.source()?.to_string();
    let advice = if source.starts_with("unknown format") {
        // `… use one of table, csv, json, html (export: html, json, trf)`: the values are
        // the words a user types, so the list is kept as `--format` spells it.
        let values = source.split_once("use one of ").map_or("", |(_, v)| v);
        let values = values
            .replace(" (", "（")
            .replace(": ", "：")
            .replace(", ", "、")
            .replace(')', "）");
        Text::new(format!("请用 {values}"), "")
    } else if source.contains("not `true` or `false`") {
        Text::new("请写 true 或 false", "write true or false")
    } else if let Some((low, high)) = source
        .split_once(" is not in ")
        .and_then(|(_, range)| range.split_once("..="))
    {
        if value.trim_start().starts_with('-') && !low.starts_with('-') {
            Text::new(
                format!("不能是负数；请写 {low} 到 {high} 之间的整数"),
                format!(
                    "a negative number is not allowed: write a whole number from {low} to {high}"
                ),
            )
        } else {
            // clap's English already says the number is not in the range.
            Text::new(
                format!("超出范围；请写 {low} 到 {high} 之间的整数"),
                format!("write a whole number from {low} to {high}"),
            )
        }
    } else if source.contains("too large") {
        Text::new(
            "超出范围；请写一个更小的整数",
            "write a smaller whole number",
        )
    } else if source.contains("too small") {
        Text::new(
            "超出范围；请写一个更大的整数",
            "write a larger whole number",
        )
    } else if source.contains("invalid digit") || source.contains("empty string") {
        let negative = value
            .trim()
            .strip_prefix('-')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        match negative {
            true => Text::new(
                "不能是负数；请写一个非负整数",
                "a negative number is not allowed: write a whole number, 0 or more",
            ),
            false => Text::new("请写一个非负整数", "write a whole number, 0 or more"),
        }
    } else if source.contains("IP address") {
        Text::new(
            "请写一个 IP 地址，如 192.168.1.10",
            "write an IP address, e.g. 192.168.1.10",
        )
    } else {
        return None;
    };
    Some(advice)
}

/// clap's English usage error with the advice it lacks ([`value_advice`]) as a `tip:`
/// line, so an English user is told what to write as a Chinese one is; clap still prints
/// it (on its own stream, in its colours).
pub fn with_english_advice(mut err: clap::Error) -> clap::Error {
    let Some(advice) = value_advice(&err).filter(|a| !a.en.is_empty()) else {
        return err;
    };
    let mut tips = match err.get(ContextKind::Suggested) {
        Some(ContextValue::StyledStrs(tips)) => tips.clone(),
        _ => Vec::new(),
    };
    tips.push(advice.en.into());
    err.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
    err
}
