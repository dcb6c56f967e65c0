//! A whole team withdrawn (全队退赛, docs/rules.md §17.7): `player withdraw --team`,
//! `player reinstate --team`, and the lines `result` prints when the forfeit rule
//! withdraws a team or lifts it.

use super::*;

/// `player withdraw --team NAME [--reason TEXT]`: the whole team is not paired from the
/// next round on (`qiwang::teams::withdraw_team`).
pub fn withdraw(ctx: &Ctx, group: Option<&str>, team: &str, reason: &str) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let lang = ctx.lang(&rules);
    teams::team_rules(&rules).map_err(lib_error)?;
    let pool = resolve_pool(&rules, &event, group)?;
    let (name, from) = store
        .transaction(&ctx.command_info(), |ev| {
            let note = Some(reason).filter(|r| !r.trim().is_empty());
            let (id, name, from) =
                teams::withdraw_team(ev, &rules, &pool, team, note).map_err(lib_error)?;
            Ok(Action::TeamWithdrawn {
                group: pool.clone(),
                team: name.clone(),
                from_round: from,
            }
            .change(
                (name, from),
                serde_json::json!({ "group": pool, "team": id.0, "from_round": from }),
            ))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        bi!(
            lang,
            zh("已全队退赛 {name}：自第{from}轮起不再编排"),
            en("withdrawn team {name}: not paired from round {from}")
        )
    );
    Ok(())
}

/// `player reinstate --team NAME`: the team is paired again from the next round
/// (`qiwang::teams::reinstate_team`).
pub fn reinstate(ctx: &Ctx, group: Option<&str>, team: &str) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        rules,
    } = ctx.load()?;
    let lang = ctx.lang(&rules);
    teams::team_rules(&rules).map_err(lib_error)?;
    let pool = resolve_pool(&rules, &event, group)?;
    let (name, from) = store
        .transaction(&ctx.command_info(), |ev| {
            let (id, name, from) =
                teams::reinstate_team(ev, &rules, &pool, team).map_err(lib_error)?;
            Ok(Action::TeamReinstated {
                group: pool.clone(),
                team: name.clone(),
                from_round: from,
            }
            .change(
                (name, from),
                serde_json::json!({ "group": pool, "team": id.0, "from_round": from }),
            ))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        bi!(
            lang,
            zh("已恢复 {name} 全队参赛：自第{from}轮起重新编排"),
            en("reinstated team {name}: paired again from round {from}")
        )
    );
    Ok(())
}

/// A line per team the forfeit rule withdrew, moved or reinstated with these results.
pub(super) fn forfeit_rule_lines(
    ev: &qiwang::model::Event,
    pool: &GroupId,
    before: &[qiwang::model::TeamWithdrawal],
    lang: qiwang::rulebook::Lang,
) -> Vec<String> {
    let after = ev
        .team_pools
        .get(pool)
        .map(|s| s.withdrawn.clone())
        .unwrap_or_default();
    let names = qiwang::registration::team_sheet::teams_in(&ev.players, pool);
    let name = |t: qiwang::model::TeamId| {
        names
            .iter()
            .find(|x| x.id == t)
            .map_or_else(|| t.to_string(), |x| x.name.clone())
    };
    let mut lines = Vec::new();
    for w in after.iter().filter(|w| !before.contains(w)) {
        let (team, from) = (name(w.team), w.from_round);
        let cause = qiwang::results::withdrawal_cause_text(&w.cause, lang);
        lines.push(bi!(
            lang,
            zh("{team} 全队退赛（{cause}）：自第{from}轮起不再编排"),
            en("team {team} withdrawn ({cause}): not paired from round {from}")
        ));
    }
    for w in before
        .iter()
        .filter(|w| !after.iter().any(|a| a.team == w.team))
    {
        let team = name(w.team);
        lines.push(bi!(
            lang,
            zh("{team} 的弃权退赛已撤销：成绩更正后未达弃权场数"),
            en("team {team} is no longer withdrawn: the corrected results no longer reach the forfeit limit")
        ));
        // A round paired meanwhile left the team out: say how to pair it again.
        let newest = ev
            .team_pools
            .get(pool)
            .and_then(|s| s.rounds.last())
            .map_or(0, |r| r.number);
        if newest >= w.from_round {
            lines.push(bi!(
                lang,
                zh("  第{newest}轮编排时该队未参加：如需重排，请先 qiwang unpair 再 qiwang pair"),
                en("  round {newest} was paired without it: to pair it again, qiwang unpair then qiwang pair")
            ));
        }
    }
    lines
}
