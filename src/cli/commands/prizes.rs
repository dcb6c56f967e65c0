//! `qiwang teams`, `qiwang prizes`, `qiwang playoff`

use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, Loaded, lib_error, resolve_player, resolve_pool, tx_error};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::model::{Event, GroupId, PlayerId};
use qiwang::store::action::Action;

pub fn teams(ctx: &Ctx, team: Option<&str>) -> Result<(), CliError> {
    let loaded = ctx.load_shown()?;
    if loaded.rules.team_competition.is_some() && loaded.rules.teams.is_empty() {
        return super::team::standings(ctx, loaded, None, None);
    }
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    if rules.teams.is_empty() {
        return Err(CliError::from(Refusal::NotFound(Text::new(
            "本赛事的规程没有团体赛（`[[teams]]`）",
            "this event's rulebook has no team competition (`[[teams]]`)",
        ))));
    }
    let mut rankings = qiwang::views::team_rankings(&event, &rules);
    if let Some(t) = team {
        rankings.retain(|r| r.id == t || r.name == t);
        if rankings.is_empty() {
            let zh: Vec<String> = rules
                .teams
                .iter()
                .map(|t| format!("`{}`", t.name))
                .collect();
            let en: Vec<String> = rules
                .teams
                .iter()
                .map(|t| format!("`{}` ({})", t.id, t.name))
                .collect();
            return Err(CliError::from(Refusal::NotFound(Text::new(
                format!("没有团体赛 `{t}`：请用 {} 之一", zh.join("、")),
                format!("no team competition `{t}`: use one of {}", en.join(", ")),
            ))));
        }
    }
    ctx.print(&qiwang::views::teams_report(
        &event, &rules, &rankings, lang,
    ))
}

pub fn prizes(ctx: &Ctx) -> Result<(), CliError> {
    let loaded = ctx.load_shown()?;
    if loaded.rules.team_competition.is_some() {
        return super::team::prizes(ctx, loaded);
    }
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    // The finance office's copy carries the full ID and phone numbers (`--show-private`).
    if ctx.show_private {
        ctx.print(&qiwang::views::prize_sheet_private(&event, &rules, lang))
    } else {
        ctx.print(&qiwang::views::prize_sheet(&event, &rules, lang))
    }
}

/// `qiwang playoff --list LIST P1 P2 …`: the playoff that settled a tie of a prize list.
pub fn list_playoff(
    ctx: &Ctx,
    group: Option<&str>,
    list: &str,
    names: &[String],
    note: &str,
) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let l = qiwang::prizes::find_list(&loaded.rules, list).map_err(lib_error)?;
    let pool = match group {
        Some(_) => resolve_pool(&loaded.rules, &loaded.event, group)?,
        None => qiwang::prizes::list_pool(&loaded.event, &loaded.rules, &l.group),
    };
    let order = players_named(&loaded.event, &pool, names)?;
    record_list_playoff(ctx, loaded, list, order, note)
}

/// `qiwang playoff P1 P2 …` without `--list`: the pool's tie for first, or (when the
/// pool has no such tie) the one prize list whose tie is exactly these players.
pub fn playoff(
    ctx: &Ctx,
    group: Option<&str>,
    names: &[String],
    note: &str,
) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let pool = resolve_pool(&loaded.rules, &loaded.event, group)?;
    let order = players_named(&loaded.event, &pool, names)?;
    match qiwang::prizes::list_for_playoff(&loaded.event, &loaded.rules, &pool, &order) {
        Some(list) => record_list_playoff(ctx, loaded, &list, order, note),
        None => super::result::playoff(ctx, loaded, pool, order, note),
    }
}

/// The players a playoff names, in the order given, each found in `pool`.
fn players_named(
    event: &Event,
    pool: &GroupId,
    names: &[String],
) -> Result<Vec<PlayerId>, CliError> {
    names
        .iter()
        .map(|n| resolve_player(event, Some(pool), n).map(|p| p.id))
        .collect()
}

/// Stores the playoff of prize list `list` (id or name) and says what it settled.
fn record_list_playoff(
    ctx: &Ctx,
    loaded: Loaded,
    list: &str,
    order: Vec<PlayerId>,
    note: &str,
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = loaded;
    let lang = ctx.lang(&rules);
    let l = qiwang::prizes::find_list(&rules, list).map_err(lib_error)?;
    let recorded = store
        .transaction(&ctx.command_info(), |ev| {
            let r = qiwang::prizes::record_list_playoff(ev, &rules, list, order.clone(), note)
                .map_err(lib_error)?;
            let action = Action::ListPlayoff {
                list: r.list.clone(),
                group: r.pool.clone(),
                order: r.order.clone(),
            };
            let payload = serde_json::json!({
                "list": r.list,
                "group": r.pool,
                "order": r.order,
                "note": note,
                "pool_level": r.pool_level,
            });
            Ok(action.change(r, payload))
        })
        .map_err(tx_error)?;
    let name = |id: &PlayerId| {
        event
            .player(*id)
            .map_or(id.to_string(), |p| p.shown_name().into_owned())
    };
    let order: Vec<String> = recorded.order.iter().map(name).collect();
    outln!(
        "{} {}: {}",
        lang.pick("已记录加赛结果", "playoff recorded for"),
        l.name,
        order.join(" > ")
    );
    if recorded.pool_level {
        outln!(
            "{}",
            lang.pick(
                "（这是全组并列第一的加赛：成绩排名和各奖项名单都按此排列）",
                "(this was the pool's own tie for first: the standings and every list follow it)"
            )
        );
    }
    if let Some(before) = &recorded.replaced {
        let names: Vec<String> = before.iter().map(name).collect();
        super::result::replaced_playoff(lang, &names);
    }
    Ok(())
}
