//! `qiwang check --optimal` (every stored round, or one, against the engine's optimum):
//! the library proves the rounds in one call (`commands::check::prove_pools`); here each
//! verdict is rendered with what it was compared under, and a round that fails is said
//! as a [`Refusal::CheckFailed`].

use super::check::{pools_checked, print_check};
use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, Loaded, lib_error, player_label};
use crate::cli::error::CliError;
use qiwang::commands::check::{RoundProof, prove_pools};
use qiwang::i18n::bi;
use qiwang::i18n::{Text, number_ranges, plural};
use qiwang::report::Section;
use qiwang::rulebook::Lang;

/// `check --optimal`: re-solves every stored round (or `--round N`) of each pool with the
/// dense reference solver (the priced one for large pools) and prints whether it is
/// optimal; the library does the work in one call (`commands::check::prove_pools`). Fails
/// when a round is not optimal, not comparable, or seats a table's colours the other way
/// round from §3.3.
pub fn check_optimal(ctx: &Ctx, group: Option<&str>, round: Option<u32>) -> Result<(), CliError> {
    let loaded = ctx.load_read()?;
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
