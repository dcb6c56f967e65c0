//! `qiwang rules check FILE` / `qiwang rules show [FILE]`

use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, lib_error, player_label, read_text, tx_error};
use crate::cli::error::CliError;
use qiwang::i18n::bi;
use qiwang::i18n::plural;
use qiwang::rulebook::Rulebook;
use qiwang::store::action::Action;
use std::path::Path;

pub fn check(ctx: &Ctx, path: &Path) -> Result<(), CliError> {
    let text = read_text(path)?;
    match Rulebook::from_toml(&text, &path.display().to_string()) {
        Ok(rules) => {
            let lang = ctx.lang(&rules);
            let pools = rules.pools().count();
            let (groups, lists) = (rules.groups.len(), rules.prizes.lists.len());
            outln!(
                "{}: {}",
                path.display(),
                bi!(
                    lang,
                    zh("规则有效 — {groups} 个组别，{pools} 个编排组，{lists} 个奖项名单"),
                    en(
                        "rulebook is valid — {}, {}, {}",
                        plural(groups, "group", "groups"),
                        plural(pools, "pairing pool", "pairing pools"),
                        plural(lists, "prize list", "prize lists")
                    )
                ),
            );
            // A team competition says so, with its boards and format (docs/rules.md §17).
            if let Some(t) = &rules.team_competition {
                let system = qiwang::rulebook::system_name(t.format.kind(), t.cycles, lang);
                outln!(
                    "{}",
                    bi!(
                        lang,
                        zh(
                            "  团体赛：每队 {} 台，替补至多 {} 人，{system}",
                            t.boards,
                            t.reserves
                        ),
                        en(
                            "  team competition: {} boards a team, at most {} reserves, {system}",
                            t.boards,
                            t.reserves
                        )
                    )
                );
            }
            // The plan of every group not played as a plain Swiss (docs/rules.md §14, §16).
            for g in rules.pools().filter(|g| !g.format.is_default_swiss()) {
                outln!(
                    "  {}{}{}",
                    g.name,
                    lang.pick("：", ": "),
                    g.format.plan(lang, rules.rounds_for(&g.id))
                );
            }
            Ok(())
        }
        Err(e) => {
            let n = e.problems.len();
            Err(lib_error(e).map_message(|m, l| {
                let path = path.display();
                bi!(
                    l,
                    zh("{m}\n`{path}` 中有 {n} 个问题"),
                    en("{m}\n{} in `{path}`", plural(n, "problem", "problems"))
                )
            }))
        }
    }
}

pub fn show(ctx: &Ctx, path: Option<&Path>) -> Result<(), CliError> {
    let lang_given = ctx.lang;
    let rules = match path {
        Some(path) => {
            let text = read_text(path)?;
            Rulebook::from_toml(&text, &path.display().to_string()).map_err(lib_error)?
        }
        None => ctx.load_read()?.rules,
    };
    let lang = lang_given.unwrap_or(rules.event.language);
    match ctx.format()? {
        qiwang::report::Format::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&rules).map_err(|e| CliError::from(Refusal::bug(
                &format!("cannot write the rulebook as JSON: {e}")
            )))?
        ),
        // The rulebook's own text (TOML) in a page, escaped: names come from the file.
        qiwang::report::Format::Html => {
            let mut body = qiwang::report::Markup::new();
            body.text_element("pre", &[], &rules.to_effective_toml_in(lang))
                .newline();
            out!(
                "{}",
                qiwang::report::html_page_of(rules.event.language.code(), &rules.event.name, &body)
            );
        }
        _ => out!("{}", rules.to_effective_toml_in(lang)),
    }
    Ok(())
}

/// `qiwang rules update FILE`: see `qiwang::rules_update::update_rulebook`.
pub fn update(ctx: &Ctx, path: &Path) -> Result<(), CliError> {
    let text = read_text(path)?;
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let current = &loaded.rules;
    let source = path.display().to_string();
    let (diff, notes) = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let update =
                qiwang::rules_update::update_rulebook(event, current, &text, &source, lang)
                    .map_err(lib_error)?;
            let notes: Vec<String> = update
                .notes
                .iter()
                .map(|t| t.get(lang).to_string())
                .chain(
                    update
                        .warnings
                        .iter()
                        .map(|w| w.text(lang, &|id| player_label(event, id))),
                )
                .collect();
            let action = Action::RulesUpdated {
                file: source.clone(),
                changed_lines: update
                    .diff
                    .iter()
                    .filter(|l| l.starts_with(['+', '-']))
                    .count(),
            };
            Ok(action.change(
                (update.diff.clone(), notes),
                serde_json::json!({ "file": source, "diff": update.diff }),
            ))
        })
        .map_err(tx_error)?;
    outln!(
        "{}",
        lang.pick(
            "已更新赛事规程（`qiwang undo` 可撤销）：",
            "the event's rulebook is updated (`qiwang undo` reverts it):"
        )
    );
    for line in diff {
        outln!("{line}");
    }
    for note in notes {
        outln!("  {} {note}", lang.pick("注意：", "note:"));
    }
    Ok(())
}
