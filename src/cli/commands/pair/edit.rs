//! `qiwang unpair` and `qiwang pairing swap|set`: hand changes to a pool's newest round.
//! The library makes and checks the edit (`pairing::edit_round`, `pairing::unpair_round`);
//! here the players are resolved by name and the sheet printed.

use crate::cli::context::{
    Ctx, Loaded, edit_error, lib_error, player_label, resolve_player, resolve_pool, tx_error,
};
use crate::cli::error::CliError;
use qiwang::i18n::bi;
use qiwang::model::GroupId;
use qiwang::pairing;
use qiwang::store::action::Action;

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
    let n = store
        .transaction(&ctx.command_info(), |ev| {
            let number = qiwang::pairing::unpair_round(ev, &pool).map_err(lib_error)?;
            Ok(Action::Unpaired {
                group: pool.clone(),
                round: number,
            }
            .change(
                number,
                serde_json::json!({ "group": pool, "round": number }),
            ))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        bi!(lang, zh("已撤销第{n}轮编排"), en("dropped round {n}"))
    );
    Ok(())
}

/// Stores `edit` of the newest round of `pool` (`pairing::edit_round`: the edit, the
/// hard-rule check, `--force`, the stale relaxations) and prints the round's sheet.
fn store_edit(
    ctx: &Ctx,
    loaded: Loaded,
    pool: GroupId,
    edit: pairing::Edit,
    force: bool,
) -> Result<(), CliError> {
    let Loaded { store, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let report = store
        .transaction(&ctx.command_info(), |ev| {
            let edited = pairing::edit_round(ev, &rules, &pool, edit, force)
                .map_err(|e| edit_error(e, &|id| player_label(ev, id)))?;
            let number = edited.round;
            let forced: Vec<String> = edited.forced.iter().map(ToString::to_string).collect();
            let report = qiwang::views::pairing_sheet(ev, &rules, &pool, number, lang, ctx.json());
            let details = serde_json::json!({
                "group": pool,
                "round": number,
                "pairings": edited.pairings,
                "forced": forced,
            });
            let action = Action::RoundEdited {
                group: pool.clone(),
                round: number,
                forced: edited.forced,
            };
            Ok(action.change(report, details))
        })
        .map_err(tx_error)?;
    ctx.print(&report)
}

/// `qiwang pairing swap A B`: the two players exchange places in the newest round.
pub fn swap(ctx: &Ctx, group: Option<&str>, a: &str, b: &str, force: bool) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let pool = resolve_pool(&loaded.rules, &loaded.event, group)?;
    let pa = resolve_player(&loaded.event, Some(&pool), a)?.id;
    let pb = resolve_player(&loaded.event, Some(&pool), b)?.id;
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
