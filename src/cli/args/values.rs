//! Option values an arbiter may type in Chinese (`--sheet 台签`, `--disabled 是`): their
//! English names, and the clap parsers that accept both and hand the command the English
//! one.

/// The Chinese name accepted for an option value (`--sheet 台签`, `--disabled 是`), which
/// the Chinese usage errors list with the English one.
const CHINESE_VALUES: &[(&str, &str)] = &[
    ("pairings", "对阵表"),
    ("slips", "成绩登记表"),
    ("cards", "台签"),
    ("find", "找座位"),
    ("wall", "总表"),
    ("true", "是"),
    ("false", "否"),
];

/// The Chinese name of an option value `name`, if it has one.
pub fn chinese_value(name: &str) -> Option<&'static str> {
    CHINESE_VALUES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, zh)| *zh)
}

/// A yes-or-no value (`--disabled`, `--local`): `是`/`否` as a registration sheet writes
/// it, or `true`/`false`.
pub(super) fn yes_no() -> impl clap::builder::TypedValueParser<Value = bool> {
    use clap::builder::{PossibleValue, TypedValueParser};
    clap::builder::PossibleValuesParser::new([
        PossibleValue::new("true").alias(chinese_value("true").unwrap_or_default()),
        PossibleValue::new("false").alias(chinese_value("false").unwrap_or_default()),
    ])
    .map(|typed| matches!(typed.as_str(), "true" | "是"))
}

/// The `--sheet` values of `round`, each with the Chinese name an arbiter knows it by
/// (`--sheet 台签` is `--sheet cards`).
fn sheet_names() -> [clap::builder::PossibleValue; 5] {
    use clap::builder::PossibleValue;
    let named = |name: &'static str| {
        PossibleValue::new(name).alias(chinese_value(name).unwrap_or_default())
    };
    [
        named("pairings"),
        named("slips"),
        named("cards"),
        named("find").alias("找座位表"),
        named("wall"),
    ]
}

/// `--sheet`'s parser: one of [`sheet_names`] or its alias, given to the command as the
/// English name (clap's own parser passes an alias through as typed).
pub(super) fn sheet_values() -> impl clap::builder::TypedValueParser<Value = String> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(sheet_names()).map(|typed| {
        sheet_names()
            .into_iter()
            .find(|v| v.matches(&typed, false))
            .map_or(typed, |v| v.get_name().to_string())
    })
}
