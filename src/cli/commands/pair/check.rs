//! `qiwang check` (every stored round against the hard rules) and `check --optimal`
//! (every stored round against the engine's optimum). The library checks in one call
//! (`commands::check::check_pools`, `commands::check::prove_pools`); here the pools named
//! are resolved, the verdicts rendered, and a round that fails is said as a
//! [`Refusal::CheckFailed`].

use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, Loaded, lib_error, player_label, pools_shown, resolve_pool};
use crate::cli::error::CliError;
use qiwang::commands::check::{PoolCheck, RoundProof, check_pools, prove_pools};
use qiwang::i18n::bi;
use qiwang::i18n::{Text, number_ranges, plural};
use qiwang::lookup::Shown;
use qiwang::model::{Event, GroupId};
use qiwang::pairing;
use qiwang::registration::{PoolNow, pool_now};
use qiwang::report::{Format, Report, Section};
use qiwang::rulebook::{Lang, Rulebook};

/// `qiwang check`: every stored round of each pool (or one) against the hard rules; the
/// relaxations recorded when no legal pairing existed are listed as accepted.
pub fn check(ctx: &Ctx, group: Option<&str>) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    if loaded.rules.team_competition.is_some() {
        return super::super::team::check(ctx, loaded, group, false, None);
    }
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let pools = pools_checked(&rules, &event, group, lang)?;
    let mut total = 0;
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
        checked: pairing::Checked {
            violations,
            accepted,
        },
    } in check_pools(&event, &rules, &pools)
    {
        if violations.is_empty() {
            lines.push(format!(
                "{name}: {rounds} {}",
                lang.pick(
                    "轮，未发现违规",
                    if rounds == 1 {
                        "round, no violation"
                    } else {
                        "rounds, no violation"
                    }
                )
            ));
            if accepted.is_empty() {
                section.push(vec![name.clone(), rounds.to_string(), String::new()]);
            }
        } else {
            lines.push(format!(
                "{name}: {} {}",
                violations.len(),
                lang.pick(
                    "处违规",
                    if violations.len() == 1 {
                        "violation"
                    } else {
                        "violations"
                    }
                )
            ));
            for v in &violations {
                let text = v.text(lang, &|id| player_label(&event, id));
                lines.push(format!("  - {text}"));
                section.push(vec![name.clone(), rounds.to_string(), text]);
            }
            if let Some(text) = shared_table_hint(&event, &pool, &violations, lang) {
                lines.push(format!("  {text}"));
                section.push(vec![name.clone(), rounds.to_string(), text]);
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
        // Ranked once (the Swiss stage), worded in each language asked.
        let drift = qiwang::standings::qualification_drift(&event, &rules, &pool);
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
        total += violations.len();
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
    let title = lang.pick("编排检查", "pairing check");
    print_check(ctx, &rules, lang, title, lines, section, json)?;
    if unpaired > 0 {
        return Err(super::stranded::refusal(unpaired, total));
    }
    if total > 0 {
        return Err(CliError::from(Refusal::CheckFailed(hard_rule_violations(
            total,
        ))));
    }
    Ok(())
}

/// The pools `check` (or `check --optimal`) covers: the one `--group` names, or every
/// pool paired. A group named that no longer pairs on its own is said on standard error
/// (a merged group pairs in the pool it was merged into, which is checked; a cancelled
/// one is checked for the players left in it), so the arbiter knows which pool the
/// verdict is about.
fn pools_checked(
    rules: &Rulebook,
    event: &Event,
    group: Option<&str>,
    lang: Lang,
) -> Result<Vec<GroupId>, CliError> {
    let Some(name) = group else {
        return Ok(pools_shown(rules, event, Shown::Paired));
    };
    let pool = resolve_pool(rules, event, group)?;
    if let Some(rule) = rules.find_group(name) {
        let own = rules.pool_of(rule);
        let name_of = |id: &GroupId| {
            rules
                .group(id)
                .map_or_else(|| id.to_string(), |g| g.name.clone())
        };
        let note = match pool_now(event, own) {
            PoolNow::Pairs(now) if &now == own => None,
            PoolNow::Pairs(now) => {
                let (own, now) = (name_of(own), name_of(&now));
                Some(bi!(
                    lang,
                    zh("{own}已并入{now}，在{now}中编排：检查的是{now}"),
                    en("{own} was merged into {now} and pairs there: checking {now}")
                ))
            }
            PoolNow::Cancelled(gone) => {
                let gone = name_of(&gone);
                Some(bi!(
                    lang,
                    zh("{gone}已取消，不再编排：只列出其中未退赛的棋手"),
                    en(
                        "{gone} was cancelled and is not paired: only its players not withdrawn are listed"
                    )
                ))
            }
        };
        if let Some(note) = note {
            errln!("{}{note}", lang.pick("注意：", "note: "));
        }
    }
    Ok(vec![pool])
}

/// How to end a table number `pool` shares with another pool of its hall (docs/rules.md
/// §12 (table numbers)): its newest round without a result is numbered again by pairing
/// it again; a round with results keeps its numbers, and a result typed by table number
/// then needs `--group`.
fn shared_table_hint(
    event: &qiwang::model::Event,
    pool: &GroupId,
    violations: &[pairing::Violation],
    lang: Lang,
) -> Option<String> {
    let round = violations
        .iter()
        .filter(|v| matches!(v.rule, pairing::Rule::SharedTable { .. }))
        .map(|v| v.round)
        .max()?;
    let newest = event.group(pool).and_then(|g| g.last_round())?;
    let group = qiwang::sanitize::shell_word(pool.as_str());
    Some(if newest.number == round && !newest.has_results() {
        bi!(
            lang,
            zh(
                "提示：第 {round} 轮尚无成绩，`qiwang unpair --group {group}` 再 `qiwang pair --group {group}` 会避开其他组别的台号重新编号"
            ),
            en(
                "hint: round {round} has no result yet: `qiwang unpair --group {group}` then `qiwang pair --group {group}` numbers it again clear of the other groups' tables"
            )
        )
    } else {
        bi!(
            lang,
            zh("提示：已有成绩的轮次保留原台号；按台号录入或更正成绩时请加 `--group {group}`"),
            en(
                "hint: a round with results keeps its numbers; give `--group {group}` when entering or correcting a result by table number"
            )
        )
    })
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
fn print_check(
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

/// `check --optimal`: re-solves every stored round (or `--round N`) of each pool with the
/// dense reference solver (the priced one for large pools) and prints whether it is
/// optimal; the library does the work in one call (`commands::check::prove_pools`). Fails
/// when a round is not optimal, not comparable, or seats a table's colours the other way
/// round from §3.3.
pub fn check_optimal(ctx: &Ctx, group: Option<&str>, round: Option<u32>) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    if loaded.rules.team_competition.is_some() {
        return super::super::team::check(ctx, loaded, group, true, round);
    }
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    let pools = pools_checked(&rules, &event, group, lang)?;
    let mut lines = Vec::new();
    let mut section = Section::new(
        "",
        vec![
            lang.pick("组别", "group").into(),
            lang.pick("轮次", "round").into(),
            lang.pick("结论", "verdict").into(),
        ],
    )
    .right(&[1]);
    let mut json = Vec::new();
    let mut failed = 0;
    for proof in prove_pools(&event, &rules, &pools, round).map_err(lib_error)? {
        let RoundProof {
            pool,
            name,
            round: n,
            verdict,
            unrecorded,
            relax_given: given,
            corrected_since,
        } = &proof;
        let (n, unrecorded) = (*n, *unrecorded);
        if proof.fails() {
            failed += 1;
        }
        let mut text = verdict.lines(n, lang, &|id| player_label(&event, id));
        if unrecorded > 0 {
            text.push(bi!(
                lang,
                zh("  另有 {unrecorded} 处违反硬性规则，未记录为放宽（见 `qiwang check`）"),
                en(
                    "  and {} not recorded as relaxations (see `qiwang check`)",
                    plural(unrecorded, "hard-rule break", "hard-rule breaks")
                )
            ));
        }
        if let Some(list) = given {
            let list = qiwang::rulebook::relax_list(list);
            text.push(bi!(
                lang,
                zh("  （本轮用 `pair --relax {list}` 编排，按同样放宽的规则比较）"),
                en("  (paired with `pair --relax {list}`: compared under the same relaxed rules)")
            ));
        }
        // docs/rules.md §2.6: a round is proved against the results it was paired with.
        if n > 1 && !corrected_since.is_empty() {
            let rounds = number_ranges(corrected_since, lang);
            text.push(bi!(
                lang,
                zh("  （按本轮编排时的成绩比较：第 {rounds} 轮的成绩在本轮编排之后被更正）"),
                en(
                    "  (compared with the results as they stood when it was paired: {} {rounds} {} corrected after it was paired)",
                    if corrected_since.len() == 1 { "round" } else { "rounds" },
                    if corrected_since.len() == 1 { "was" } else { "were" }
                )
            ));
        }
        // The group names the verdict's first line; the details are indented under it.
        for (k, line) in text.iter().enumerate() {
            lines.push(if k == 0 {
                format!("{name} {line}")
            } else {
                line.clone()
            });
        }
        section.push(vec![name.clone(), n.to_string(), text.join("\n")]);
        json.push(serde_json::json!({
            "group": pool.to_string(),
            "round": n,
            "optimal": proof.optimal(),
            "kind": verdict.kind(),
            "unrecorded_breaks": unrecorded,
            "relax_given": given,
            "corrected_since": corrected_since,
            "verdict": verdict.lines(n, Lang::En, &|id| player_label(&event, id)),
        }));
    }
    let title = lang.pick("最优性证明", "optimality proof");
    print_check(ctx, &rules, lang, title, lines, section, json)?;
    if failed > 0 {
        return Err(CliError::from(Refusal::CheckFailed(Text::new(
            format!("有 {failed} 轮不是最优编排、先后手不符规则、有未记录的硬性规则违反或无法比较"),
            format!(
                "{} not optimal, with colours not by the rules, with hard-rule breaks not recorded, or not comparable",
                plural(failed, "round", "rounds")
            ),
        ))));
    }
    Ok(())
}
