//! `qiwang group sizes`, `qiwang group merge FROM INTO`, `qiwang group cancel G [--force]`:
//! a group's size against its minimum before round 1, and what the organiser does about
//! a short one (the library's `registration::groups`).

use crate::cli::context::{Ctx, Loaded, lib_error, resolve_pool, tx_error};
use crate::cli::error::CliError;
use qiwang::i18n::bi;
use qiwang::model::GroupId;
use qiwang::report::Format;
use qiwang::store::action::Action;

/// Each group's players against its minimum.
pub fn sizes(ctx: &Ctx) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load_shown()?;
    let lang = ctx.lang(&rules);
    let sizes = qiwang::views::group_sizes::group_sizes(&event, &rules, lang, ctx.json());
    // The table keeps its plain lines; the other formats render (and escape) the report.
    if ctx.format()? == Format::Table {
        for line in sizes.lines {
            outln!("{line}");
        }
        return Ok(());
    }
    ctx.print(&sizes.report)
}

/// Merges group `from` into pool `into` before round 1 (names as the user gives them).
pub fn merge(ctx: &Ctx, from: &str, into: &str, force: bool) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let lang = ctx.lang(&rules);
    // The group itself, not its pool; a name the rulebook does not know fails the same
    // lookup in `resolve_pool`, whose message lists the groups and the closest spelling.
    let find = |name: &str| match rules.find_group(name) {
        Some(g) => Ok(g.id.clone()),
        None => resolve_pool(&rules, &event, Some(name)),
    };
    let (from, into) = (find(from)?, find(into)?);
    let moved = store
        .transaction(&ctx.command_info(), |ev| {
            let report = qiwang::registration::merge_group(ev, &rules, &from, &into, force)
                .map_err(lib_error)?;
            let n = report.moved.len();
            Ok(Action::group_merged_change(&from, &into, n, n))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        bi!(
            lang,
            zh("已合并，转入 {moved} 名棋手"),
            en(
                "merged: {} moved",
                qiwang::i18n::plural(moved, "player", "players")
            )
        )
    );
    Ok(())
}

/// Cancels a pool below its minimum that has no `merge_into`, listing its players.
pub fn cancel(ctx: &Ctx, group: &str, force: bool) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let rules = &loaded.rules;
    let (name, players) = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let ids = qiwang::registration::cancel_group(event, rules, group, force)
                .map_err(lib_error)?;
            let name = rules
                .find_group(group)
                .map(|g| g.name.clone())
                .unwrap_or_else(|| group.to_string());
            let players: Vec<String> = ids
                .iter()
                .filter_map(|id| event.player(*id))
                .map(|p| format!("{} ({})", p.shown_name(), p.id))
                .collect();
            let id = rules
                .find_group(group)
                .map_or_else(|| GroupId(group.to_string()), |g| g.id.clone());
            Ok(Action::GroupCancelled {
                group: id,
                withdrawn: ids.len(),
            }
            .change(
                (name.clone(), players),
                serde_json::json!({ "group": group, "players": ids }),
            ))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        bi!(
            lang,
            zh("已取消{name}，{} 名棋手退赛：", players.len()),
            en(
                "cancelled {name}; {} withdrawn:",
                qiwang::i18n::plural(players.len(), "player", "players")
            )
        )
    );
    for p in players {
        outln!("  {p}");
    }
    Ok(())
}
