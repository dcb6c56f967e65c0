//! `qiwang penalty`, `qiwang warn` and `qiwang playoff`: what an arbiter records about
//! a player besides a game's result.

use super::*;

pub fn penalty(ctx: &Ctx, who: &str, points: Option<i32>, reason: &str) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let player = resolve_player(&event, None, who)?.clone();
    let penalty = store
        .transaction(&ctx.command_info(), |ev| {
            let penalty =
                results::add_penalty(ev, &rules, player.id, points, reason).map_err(lib_error)?;
            let details = serde_json::json!({
                "player": player.id,
                "points": penalty.points,
                "reason": reason,
                "after_round": penalty.after_round,
            });
            Ok::<_, CliError>(
                Action::Penalty {
                    player: player.id,
                    name: player.shown_name().into_owned(),
                    points: penalty.points.0,
                    after_round: penalty.after_round,
                    reason: reason.to_string(),
                }
                .change(penalty.clone(), details),
            )
        })
        .map_err(tx_error)?;
    let points = penalty.points;
    outln!(
        "{} {}: -{points} ({})",
        lang.pick("已罚分", "penalty recorded for"),
        player.shown_name(),
        qiwang::privacy::mask_free_text(reason)
    );
    Ok(())
}

/// `qiwang warn`: a warning without a point loss (警告), logged.
pub fn warn(ctx: &Ctx, who: &str, reason: &str) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let player = resolve_player(&event, None, who)?.clone();
    store
        .transaction(&ctx.command_info(), |ev| {
            let warning = results::add_warning(ev, player.id, reason).map_err(lib_error)?;
            let details = serde_json::json!({
                "player": player.id,
                "reason": reason,
                "after_round": warning.after_round,
            });
            Ok::<_, CliError>(
                Action::Warning {
                    player: player.id,
                    name: player.shown_name().into_owned(),
                    after_round: warning.after_round,
                    reason: reason.to_string(),
                }
                .change((), details),
            )
        })
        .map_err(tx_error)?;
    let reason = qiwang::privacy::mask_free_text(reason);
    let name = player.shown_name();
    outln!(
        "{}",
        bi!(
            lang,
            zh("已警告 {name}（不扣分）：{reason}"),
            en("warning recorded for {name} (no points deducted): {reason}")
        )
    );
    Ok(())
}

/// Stores the playoff that settled `pool`'s tie for first (players resolved by
/// `prizes::playoff`, which decided it is not a prize list's).
pub fn playoff(
    ctx: &Ctx,
    loaded: Loaded,
    pool: GroupId,
    order: Vec<PlayerId>,
    note: &str,
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = loaded;
    let lang = ctx.lang(&rules);
    let replaced = store
        .transaction(&ctx.command_info(), |ev| {
            let replaced =
                results::record_playoff(ev, &rules, &pool, order.clone()).map_err(lib_error)?;
            // `record_playoff` puts the new playoff last.
            if let Some(p) = ev.playoffs.last_mut() {
                p.note = note.to_string();
            }
            Ok(Action::Playoff {
                group: pool.clone(),
                order: order.clone(),
            }
            .change(
                replaced,
                serde_json::json!({ "group": pool, "order": order, "note": note }),
            ))
        })
        .map_err(tx_error)?;
    outln!("{}", lang.pick("已记录加赛结果", "playoff recorded"));
    // What the library replaced (the pool's own playoff or a prize list's over the
    // same players), each order that differs from the new one.
    for before in replaced.iter().map(|p| &p.order).filter(|b| **b != order) {
        let names: Vec<String> = before
            .iter()
            .map(|id| {
                event
                    .player(*id)
                    .map_or(id.to_string(), |p| p.shown_name().into_owned())
            })
            .collect();
        replaced_playoff(lang, &names);
    }
    Ok(())
}

/// The note that a playoff replaced the order recorded before (names best first).
pub(crate) fn replaced_playoff(lang: qiwang::rulebook::Lang, names: &[String]) {
    outln!(
        "{} {}",
        lang.pick(
            "注意：替换了之前记录的加赛名次",
            "note: replaced the playoff recorded before:"
        ),
        names.join(" > ")
    );
}
