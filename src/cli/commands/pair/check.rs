//! `qiwang check` (every stored round against the hard rules). The library checks in one
//! call (`commands::check::check_pools`); here the pools named are resolved, the verdicts
//! rendered, and a round that fails is said as a [`Refusal::CheckFailed`]. The pools and
//! the printing are shared with `check --optimal` (`optimal.rs`).

use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, Loaded, player_label, pools_shown, resolve_pool};
use crate::cli::error::CliError;
use qiwang::commands::check::{PoolCheck, check_pools, named_group_note, violations_found};
use qiwang::i18n::bi;
use qiwang::i18n::{Text, plural};
use qiwang::lookup::Shown;
use qiwang::model::{Event, GroupId};
use qiwang::pairing;
use qiwang::report::{Format, Report, Section};
use qiwang::rulebook::{Lang, Rulebook};

/// `qiwang check`: every stored round of each pool (or one) against the hard rules; the
/// relaxations recorded when no legal pairing existed are listed as accepted.
pub fn check(ctx: &Ctx, group: Option<&str>) -> Result<(), CliError> {
    let loaded = ctx.load_read()?;
    if loaded.rules.team_competition.is_some() {
        return super::super::team::check(ctx, loaded, group, false, None);
    }
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let pools = pools_checked(&rules, &event, group, lang)?;
    let checks = check_pools(&event, &rules, &pools);
    let total = violations_found(&rules, &checks);
    let mut lines = Vec::new();
    let mut section = Section::new(
        "",
        vec![
            lang.pick("组别", "group").into(),
            lang.pick("轮数", "rounds").into(),
            lang.pick("违规", "violation").into(),
        ],
    )
    .right(&[1]);
    let mut json = Vec::new();
    for PoolCheck {
        pool,
        name,
        rounds,
        table_hint,
        drift,
        checked: pairing::Checked {
            violations,
            accepted,
        },
    } in checks
    {
        if violations.is_empty() {
            lines.push(bi!(
                lang,
                zh("{name}: {rounds} 轮，未发现违规"),
                en(
                    "{name}: {}, no violation",
                    plural(rounds, "round", "rounds")
                )
            ));
            if accepted.is_empty() {
                section.push(vec![name.clone(), rounds.to_string(), String::new()]);
            }
        } else {
            lines.push(bi!(
                lang,
                zh("{name}: {} 处违规", violations.len()),
                en(
                    "{name}: {}",
                    plural(violations.len(), "violation", "violations")
                )
            ));
            for v in &violations {
                let text = v.text(lang, &|id| player_label(&event, id));
                lines.push(format!("  - {text}"));
                section.push(vec![name.clone(), rounds.to_string(), text]);
            }
            // Advice, not a finding: under the table, never a row of the data (CSV, JSON).
            if let Some(text) = table_hint.as_ref().map(|t| t.get(lang).to_string()) {
                lines.push(format!("  {text}"));
                section.notes.push(text);
            }
        }
        // docs/rules.md §2.5: breaks the engine recorded when no pairing met every hard
        // rule are listed as accepted relaxations, never counted as violations.
        if !accepted.is_empty() {
            lines.push(bi!(
                lang,
                zh(
                    "{name}: {} 处已接受的放宽（没有合规编排时所作的放宽）",
                    accepted.len()
                ),
                en(
                    "{name}: {} (no pairing met every hard rule)",
                    plural(
                        accepted.len(),
                        "accepted relaxation",
                        "accepted relaxations"
                    )
                )
            ));
        }
        for v in &accepted {
            let text = format!(
                "{}{}",
                lang.pick("已接受的放宽：", "accepted relaxation: "),
                v.text(lang, &|id| player_label(&event, id))
            );
            lines.push(format!("  - {text}"));
            section.push(vec![name.clone(), rounds.to_string(), text]);
        }
        // docs/rules.md §16.6: a corrected Swiss result moved the line of a final stage
        // under way; the finalists stay, but the arbiter reads who crossed it.
        // Ranked once by check_pools (the Swiss stage), worded in each language asked.
        let note = |lang| {
            let drift = drift.as_ref()?;
            Some(qiwang::results::qualification_text(
                drift.finalists,
                &drift.now_in,
                &drift.now_out,
                lang,
                &|id| player_label(&event, id),
            ))
        };
        if let Some(text) = note(lang) {
            let text = format!("{}{text}", lang.pick("注意：", "note: "));
            lines.push(format!("  - {text}"));
            section.push(vec![name.clone(), rounds.to_string(), text]);
        }
        let mut entry = serde_json::json!({
            "group": pool.to_string(),
            "rounds": rounds,
            "violations": violations.iter().map(ToString::to_string).collect::<Vec<_>>(),
        });
        if let (false, serde_json::Value::Object(map)) = (accepted.is_empty(), &mut entry) {
            map.insert(
                "accepted_relaxations".into(),
                serde_json::json!(accepted.iter().map(ToString::to_string).collect::<Vec<_>>()),
            );
        }
        if let (Some(en), serde_json::Value::Object(map)) = (note(Lang::En), &mut entry) {
            map.insert("note".into(), serde_json::json!(en));
        }
        json.push(entry);
    }
    let unpaired = super::stranded::report(
        &event,
        &rules,
        lang,
        group.map(|_| pools.as_slice()),
        &mut lines,
        &mut section,
        &mut json,
    );
    let personal = super::personal::findings(&event, &rules, lang, group.map(|_| pools.as_slice()));
    let named = personal.len();
    for (line, row, entry) in personal {
        lines.push(line);
        section.push(row);
        json.push(entry);
    }
    let title = lang.pick("编排检查", "pairing check");
    print_check(ctx, &rules, lang, title, lines, section, json)?;
    let found = match (unpaired, total) {
        (0, 0) => None,
        (0, total) => Some(hard_rule_violations(total)),
        (unpaired, total) => Some(super::stranded::refusal(unpaired, total)),
    };
    match super::personal::and(found, named) {
        Some(text) => Err(CliError::from(Refusal::CheckFailed(text))),
        None => Ok(()),
    }
}

/// The pools `check` (or `check --optimal`) covers: the one `--group` names, or every
/// pool paired. A group named that no longer pairs on its own is said on standard error
/// ([`named_group_note`]), so the arbiter knows which pool the verdict is about.
pub(super) fn pools_checked(
    rules: &Rulebook,
    event: &Event,
    group: Option<&str>,
    lang: Lang,
) -> Result<Vec<GroupId>, CliError> {
    let Some(name) = group else {
        return Ok(pools_shown(rules, event, Shown::Paired));
    };
    let pool = resolve_pool(rules, event, group)?;
    if let Some(note) = named_group_note(event, rules, name) {
        errln!("{}{}", lang.pick("注意：", "note: "), note.get(lang));
    }
    Ok(vec![pool])
}

/// `n` violations of the hard pairing rules, as every `check` refusal counts them (an
/// individual pool's, beside stranded players, a team pool's).
pub(crate) fn hard_rule_violations(n: usize) -> Text {
    Text::new(
        format!("有 {n} 处违反硬性编排规则"),
        format!(
            "{} of the hard pairing rules",
            plural(n, "violation", "violations")
        ),
    )
}

/// Prints a `check` report: the table format keeps its plain lines; the other formats
/// render (and escape) a report titled `title` with `section` and the `json` entries.
pub(super) fn print_check(
    ctx: &Ctx,
    rules: &Rulebook,
    lang: Lang,
    title: &str,
    lines: Vec<String>,
    section: Section,
    json: Vec<serde_json::Value>,
) -> Result<(), CliError> {
    if ctx.format()? == Format::Table {
        for line in lines {
            outln!("{line}");
        }
        return Ok(());
    }
    let mut report = Report::new(format!("{} — {title}", rules.event.name));
    report.lang = lang.code().into();
    report.sections.push(section);
    report.json = serde_json::Value::Array(json);
    ctx.print(&report)
}
