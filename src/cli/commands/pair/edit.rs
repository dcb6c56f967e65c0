//! `qiwang unpair` and `qiwang pairing swap|set`: hand changes to a pool's newest round.
//! The library makes, checks and stores the edit in one call
//! (`commands::pair::edit_pool`, `commands::pair::unpair_pool`); here the pool and the
//! players are resolved by name and the sheet printed.

use crate::cli::context::{Ctx, Loaded, lib_error, resolve_player, resolve_pool};
use crate::cli::error::CliError;
use qiwang::commands::pair::{edit_pool, unpair_pool};
use qiwang::i18n::bi;
use qiwang::model::GroupId;
use qiwang::pairing;

/// `qiwang unpair`: drops the newest round of a pool while it has no result.
pub fn unpair(ctx: &Ctx, group: Option<&str>) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let pool = resolve_pool(&rules, &event, group)?;
    if rules.team_competition.is_some() {
        let loaded = Loaded {
            store,
            event,
            rules,
        };
        return super::super::team::unpair(ctx, loaded, pool);
    }
    let lang = ctx.lang(&rules);
    let n = unpair_pool(&store, &ctx.command_info(), &pool).map_err(lib_error)?;
    outln!(
        "{}",
        bi!(lang, zh("已撤销第{n}轮编排"), en("dropped round {n}"))
    );
    Ok(())
}

/// Stores `edit` of the newest round of `pool` (`commands::pair::edit_pool`: the edit,
/// the hard-rule check, `--force`, the stale relaxations, the audit entry) and prints the
/// round's sheet.
fn store_edit(
    ctx: &Ctx,
    loaded: Loaded,
    pool: GroupId,
    edit: pairing::Edit,
    force: bool,
) -> Result<(), CliError> {
    let Loaded { store, rules, .. } = loaded;
    let shown = (ctx.lang(&rules), ctx.json());
    let report = edit_pool(
        &store,
        &ctx.command_info(),
        &rules,
        &pool,
        edit,
        force,
        shown,
    )
    .map_err(lib_error)?;
    ctx.print(&report)
}

/// `qiwang pairing swap A B`: the two players exchange places in the newest round.
pub fn swap(ctx: &Ctx, group: Option<&str>, a: &str, b: &str, force: bool) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    // Without `--group`, the pool both players are in, when each name is one player's; two
    // players of different pools are refused naming both.
    let (pool, pa, pb) =
        qiwang::lookup::swap_pool(&loaded.rules, &loaded.event, group, a, b).map_err(lib_error)?;
    store_edit(ctx, loaded, pool, pairing::Edit::Swap(pa, pb), force)
}

/// `qiwang pairing set TABLE RED BLACK`: seats the two at the table in the newest round.
pub fn set(
    ctx: &Ctx,
    group: Option<&str>,
    table: u32,
    red: &str,
    black: &str,
    force: bool,
) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    // Without `--group`, the pool whose newest round holds the table (one hall numbering,
    // docs/rules.md §12 (table numbers)), when exactly one does.
    let at_table = group
        .is_none()
        .then(|| qiwang::results::pools_of_tables(&loaded.event, &loaded.rules, None, &[table]))
        .and_then(|found| found.ok().flatten())
        .and_then(|mut p| p.pop());
    let pool = match at_table {
        Some(pool) => pool,
        None => resolve_pool(&loaded.rules, &loaded.event, group)?,
    };
    let red = resolve_player(&loaded.event, Some(&pool), red)?.id;
    let black = resolve_player(&loaded.event, Some(&pool), black)?.id;
    store_edit(
        ctx,
        loaded,
        pool,
        pairing::Edit::Set { table, red, black },
        force,
    )
}
