//! `qiwang rules check FILE` / `qiwang rules show [FILE]`

use super::init::read_text;
use crate::cli::context::Ctx;
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::rulebook::{Lang, Rulebook};
use std::path::Path;

pub fn check(ctx: &Ctx, path: &Path) -> Result<(), CliError> {
    let text = read_text(path)?;
    match Rulebook::from_toml(&text, &path.display().to_string()) {
        Ok(rules) => {
            let lang = ctx.lang(&rules);
            let pools = rules.pools().count();
            outln!(
                "{}: {} — {} {}, {} {}, {} {}",
                path.display(),
                lang.pick("规则有效", "rulebook is valid"),
                rules.groups.len(),
                lang.pick("个组别", "groups"),
                pools,
                lang.pick("个编排组", "pairing pools"),
                rules.prizes.lists.len(),
                lang.pick("个奖项名单", "prize lists"),
            );
            Ok(())
        }
        Err(e) => {
            let n = e.problems.len();
            Err(CliError::input(Text::of(&e).map(|m, l| match l {
                Lang::Zh => format!("{m}\n`{}` 中有 {n} 个问题", path.display()),
                Lang::En => format!("{m}\n{n} problem(s) in `{}`", path.display()),
            })))
        }
    }
}

pub fn show(ctx: &Ctx, path: Option<&Path>) -> Result<(), CliError> {
    let rules = match path {
        Some(path) => {
            let text = read_text(path)?;
            Rulebook::from_toml(&text, &path.display().to_string())
                .map_err(|e| CliError::input(Text::of(&e)))?
        }
        None => ctx.load()?.rules,
    };
    match ctx.format()? {
        qiwang::report::Format::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&rules)
                .map_err(|e| CliError::new(crate::cli::error::ExitCode::Internal, e.to_string()))?
        ),
        // The rulebook's own text (TOML) in a page, escaped: names come from the file.
        qiwang::report::Format::Html => {
            let mut body = qiwang::report::Markup::new();
            body.text_element("pre", &[], &rules.to_effective_toml())
                .newline();
            out!(
                "{}",
                qiwang::report::html_page_of(rules.event.language.code(), &rules.event.name, &body)
            )
        }
        _ => out!("{}", rules.to_effective_toml()),
    }
    Ok(())
}
