//! `qiwang round [N] [--group G] [--sheet pairings|slips|cards|find|wall]`: a round's
//! sheets, reprinted at any time.

use crate::cli::context::lib_error;
use crate::cli::context::{Ctx, Loaded, resolve_pool};
use crate::cli::error::CliError;
use qiwang::model::GroupId;
use qiwang::views::{SheetKind, round_sheets};

pub fn run(
    ctx: &Ctx,
    round: Option<u32>,
    group: Option<&str>,
    sheet: &str,
) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let format = ctx.format()?;
    let pools: Vec<GroupId> = match group {
        Some(_) => vec![resolve_pool(&rules, &event, group)?],
        None => rules.pools().map(|g| g.id.clone()).collect(),
    };
    // clap only lets the listed names through.
    let kind = SheetKind::ALL
        .iter()
        .find(|(name, _)| *name == sheet)
        .map_or(SheetKind::Pairings, |(_, kind)| *kind);
    let sheets =
        round_sheets(&event, &rules, &pools, round, kind, lang, ctx.json()).map_err(lib_error)?;
    ctx.print_rendered(format, &sheets.render(format))
}
