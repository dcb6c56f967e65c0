//! `qiwang teams`, `qiwang prizes`, `qiwang group sizes|merge`

use crate::cli::context::{Ctx, Loaded, input_error, tx_error};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::report::{Format, Report, Section};
use qiwang::store::Change;

pub fn teams(ctx: &Ctx, team: Option<&str>) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    if rules.teams.is_empty() {
        return Err(CliError::input(Text::new(
            "本赛事的规程没有团体赛（`[[teams]]`）",
            "this event's rulebook has no team competition (`[[teams]]`)",
        )));
    }
    let mut rankings = qiwang::views::team_rankings(&event, &rules);
    if let Some(t) = team {
        rankings.retain(|r| r.id == t || r.name == t);
        if rankings.is_empty() {
            let names: Vec<String> = rules
                .teams
                .iter()
                .map(|t| format!("`{}` ({})", t.id, t.name))
                .collect();
            let names = names.join(", ");
            return Err(CliError::input(Text::new(
                format!("没有团体赛 `{t}`：请用 {names} 之一"),
                format!("no team competition `{t}`: use one of {names}"),
            )));
        }
    }
    ctx.print(&qiwang::views::teams_report(&rules, &rankings, lang))
}

pub fn prizes(ctx: &Ctx) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    ctx.print(&qiwang::views::prize_sheet(&event, &rules, lang))
}

pub fn sizes(ctx: &Ctx) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let short = qiwang::prizes::undersized_groups(&event, &rules);
    let hint = lang.pick(
        "人数不足的组别按规程取消或合并：qiwang group merge FROM INTO",
        "groups below their minimum are cancelled or merged: qiwang group merge FROM INTO",
    );
    let mut section = Section::new(
        "",
        vec![
            lang.pick("组别", "group").into(),
            "id".into(),
            lang.pick("人数", "players").into(),
            lang.pick("最低人数", "minimum").into(),
        ],
    )
    .right(&[2, 3]);
    let mut json = Vec::new();
    let mut lines = Vec::new();
    let sizes = qiwang::registration::group_sizes(&rules, &event.players);
    for (g, size) in rules.groups.iter().zip(&sizes) {
        let n = size.count;
        let below = short.iter().any(|u| u.group == g.id);
        let flag = if below {
            format!(
                "  ← {} {}",
                lang.pick("不足最低人数", "below the minimum of"),
                g.min_size.unwrap_or(0)
            )
        } else {
            String::new()
        };
        lines.push(format!("{} ({}): {n}{flag}", g.name, g.id));
        section.push(vec![
            g.name.clone(),
            g.id.to_string(),
            n.to_string(),
            g.min_size.map(|m| m.to_string()).unwrap_or_default(),
        ]);
        json.push(serde_json::json!({
            "group": g.id.to_string(),
            "name": g.name,
            "players": n,
            "min_size": g.min_size,
            "below_minimum": below,
        }));
    }
    if !short.is_empty() {
        lines.push(hint.to_string());
    }
    // The table keeps its plain lines; the other formats render (and escape) a report.
    if ctx.format()? == Format::Table {
        for line in lines {
            outln!("{line}");
        }
        return Ok(());
    }
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        lang.pick("组别人数", "group sizes")
    ));
    report.lang = lang.code().into();
    report.sections.push(section);
    if !short.is_empty() {
        report.footer.push(hint.to_string());
    }
    report.json = serde_json::Value::Array(json);
    ctx.print(&report)
}

pub fn merge(ctx: &Ctx, from: &str, into: &str) -> Result<(), CliError> {
    let Loaded {
        store,
        event: _,
        rules,
    } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let find = |name: &str| {
        rules.find_group(name).map(|g| g.id.clone()).ok_or_else(|| {
            CliError::input(Text::new(
                format!("规程中没有组别 `{name}`"),
                format!("no group `{name}` in the rulebook"),
            ))
        })
    };
    let (from, into) = (find(from)?, find(into)?);
    let moved = store
        .transaction(&ctx.command_info(), |ev| {
            let report =
                qiwang::prizes::merge_group(ev, &rules, &from, &into).map_err(input_error)?;
            let n = report.moved.len();
            Ok(Change::changed(
                n,
                format!("merged group {from} into {into}: {n} players moved"),
                serde_json::json!({ "from": from, "into": into }),
            ))
        })
        .map_err(tx_error)?;
    outln!(
        "{} {moved} {}",
        lang.pick("已合并，转入", "merged:"),
        lang.pick("名棋手", "players moved")
    );
    Ok(())
}
