//! `qiwang pair`, `pair --all` ([`all`]), `unpair` and `pairing swap|set` ([`edit`]),
//! `check` and `check --optimal` ([`check`]).
//!
//! Each command parses, makes one library call and renders: `pair` and `pair --all` are
//! done whole by `qiwang::commands::pair` (the seed policy, which pools are ready, the
//! pairing, dry runs, what is stored, the sheets, the refusals' wording); the hand edits
//! are decided in `qiwang::pairing`. What stays here is the terminal's: the options read,
//! the draw's randomness ([`fresh_seed`]) and the printing.

mod all;
mod check;
mod edit;
mod optimal;
pub(crate) mod personal;
mod stranded;

pub use all::pair_all;
pub use check::check;
pub(crate) use check::hard_rule_violations;
pub use edit::{set, swap, unpair};
pub use optimal::check_optimal;

use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, FormatArg, Loaded, pair_error, resolve_pool};
use crate::cli::error::CliError;
use qiwang::commands::pair::{PairRequest, Paired, pair_pool};
use qiwang::i18n::Text;
use qiwang::model::{GroupId, Relax};
use qiwang::rulebook::Rulebook;

/// `qiwang pair`: the next round of one pool, stored (or shown, with `--dry-run`). The
/// library does the whole of it in one call (`commands::pair::pair_pool`: the request's
/// checks and the seed policy, the pairing, the dry run, the storing of the round or of a
/// round-1 draw's seed, the sheet; a team event's round of matches too); here the request
/// is parsed and the sheet printed.
pub fn pair(
    ctx: &Ctx,
    group: Option<&str>,
    seed: Option<u64>,
    dry_run: bool,
    explain: bool,
    allow_small: bool,
    relax: Option<&[String]>,
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        mut rules,
    } = ctx.load()?;
    let relax = relax_for_this_round(&mut rules, relax)?;
    let pool = resolve_pool(&rules, &event, group)?;
    let request = request(ctx, &rules, seed, dry_run, explain, allow_small, relax);
    pair_one(
        ctx,
        &Loaded {
            store,
            event,
            rules,
        },
        &pool,
        &request,
    )
}

/// Pairs the next round of `pool` (noting on standard error any player stranded in a
/// group that leads there) and prints it: `pair`, and `pair --all` in a team event.
fn pair_one(
    ctx: &Ctx,
    loaded: &Loaded,
    pool: &GroupId,
    request: &PairRequest,
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = loaded;
    stranded::warn(event, rules, ctx.lang(rules), Some(pool));
    let paired = pair_pool(
        store,
        &ctx.command_info(),
        event,
        rules,
        pool,
        request,
        &mut fresh_seed,
    )
    .map_err(pair_error)?;
    print_paired(ctx, paired)
}

/// Prints the round `pair` made: its sheet, or its workbook as made before it was stored.
fn print_paired(ctx: &Ctx, paired: Paired) -> Result<(), CliError> {
    match paired {
        Paired::Sheet(sheet) => ctx.print(&sheet),
        Paired::Workbook(workbook) => {
            crate::cli::emit_bytes(&workbook);
            Ok(())
        }
    }
}

/// The request of `pair` and `pair --all` as the library takes it.
fn request(
    ctx: &Ctx,
    rules: &Rulebook,
    seed: Option<u64>,
    dry_run: bool,
    explain: bool,
    allow_small: bool,
    relax: Option<Vec<Relax>>,
) -> PairRequest {
    PairRequest {
        seed,
        dry_run,
        explain,
        allow_small,
        relax,
        lang: ctx.lang(rules),
        json: ctx.json(),
        workbook: ctx.format_arg == FormatArg::Xlsx,
    }
}

/// A new draw seed, for a pool that has none recorded and was given none: the command's
/// only randomness, handed to the library (`pairing::pool_turn`), which stays pure.
pub(crate) fn fresh_seed() -> u64 {
    u64::from(rand::random::<u32>())
}

/// `pair --relax`: puts the rules named (`colour`, `team`, `rematch`: the rulebook's own
/// words for `pairing.relax`) in place of the rulebook's list for this command only, and
/// returns them for the log. The rulebook file is not touched.
fn relax_for_this_round(
    rules: &mut Rulebook,
    relax: Option<&[String]>,
) -> Result<Option<Vec<Relax>>, CliError> {
    let Some(names) = relax else {
        return Ok(None);
    };
    // The rulebook's own check of `pairing.relax`, item by item.
    let mut list: Vec<Relax> = Vec::new();
    for name in names {
        let rule = qiwang::rulebook::relax_rule(name, &list).map_err(|why| {
            CliError::from(Refusal::OptionValue(Text::new(
                format!("`--relax`：{}", why.zh),
                format!("`--relax`: {}", why.en),
            )))
        })?;
        list.push(rule);
    }
    rules.pairing.relax = list.clone();
    Ok(Some(list))
}
