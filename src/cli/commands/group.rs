//! `qiwang group cancel G [--force]`

use crate::cli::context::{Ctx, lib_error, tx_error};
use crate::cli::error::CliError;
use qiwang::i18n::bi;
use qiwang::model::GroupId;
use qiwang::store::action::Action;

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
                .map(|p| format!("{} ({})", p.name, p.id))
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
