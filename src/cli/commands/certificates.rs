//! `qiwang certificates` (奖状, printable HTML) and `qiwang programme` (秩序册).

use crate::cli::context::Refusal;
use crate::cli::context::read_input;
use crate::cli::context::{Ctx, Loaded, lib_error};
use crate::cli::error::CliError;
use qiwang::i18n::{Text, bi};
use qiwang::report::Format;
use qiwang::views::CertificateTemplate;
use std::path::Path;

pub fn certificates(
    ctx: &Ctx,
    list: Option<&str>,
    template: Option<&Path>,
    print_template: bool,
) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load_shown()?;
    let lang = ctx.lang(&rules);
    if print_template {
        out!("{}", qiwang::views::default_template_text(lang));
        return Ok(());
    }
    // A certificate is a printed page: HTML whatever `--format` says, except a format
    // that cannot be one.
    match ctx.format()? {
        Format::Table | Format::Html => {}
        Format::Csv | Format::Json => {
            return Err(CliError::from(Refusal::Format(Text::new(
                "奖状只输出可打印的 HTML：请去掉 `--format`，或用 `--format html`",
                "certificates are printable HTML only: leave `--format` out or use `--format html`",
            ))));
        }
    }
    let template = match template {
        Some(path) => {
            let bytes = read_input(path, qiwang::input::InputKind::Rulebook)?;
            let text = String::from_utf8(bytes).map_err(|_| {
                CliError::from(Refusal::Unusable(Text::new(
                    format!("奖状模板 {} 不是 UTF-8 文本", path.display()),
                    format!(
                        "the certificate template {} is not UTF-8 text",
                        path.display()
                    ),
                )))
            })?;
            // The template's own words, after the file they are about.
            CertificateTemplate::from_toml(&text).map_err(|e| {
                lib_error(e).map_message(|m, lang| {
                    format!("{}{}{m}", path.display(), lang.pick("：", ": "))
                })
            })?
        }
        None => CertificateTemplate::default_for(lang),
    };
    let (sheet, _) = qiwang::views::compute_sheet(&event, &rules);
    // One lookup with `prizes`, `standings --list` and `playoff --list` (trimmed, by id
    // or name); the views then pick the list by its id.
    let list = list
        .map(|l| qiwang::prizes::find_award_list(&rules, l))
        .transpose()
        .map_err(lib_error)?;
    let made = qiwang::views::certificates(&rules, &sheet, &template, list, lang);
    not_printed(
        lang,
        &made.held,
        Text::new(
            "待加赛，暂不印奖状",
            "held until a playoff decides the place, no certificate yet",
        ),
        Text::new(
            "用 `qiwang playoff` 录入加赛名次后再印",
            "record it with `qiwang playoff` and print again",
        ),
    );
    not_printed(
        lang,
        &made.unfinished,
        Text::new(
            "成绩未完，暂不印奖状",
            "results not complete, no certificate yet",
        ),
        Text::new(
            "最后一轮成绩全部录入后再印",
            "print them once the last round's results are all in",
        ),
    );
    // With `--list` naming only cancelled lists, the refusal below says it instead.
    if !made.cancelled.is_empty() && (made.printed > 0 || list.is_none()) {
        crate::cli::emit_err(&bi!(
            lang,
            zh(
                "组别已取消，不评名次，不印奖状：{}",
                made.cancelled.join("、")
            ),
            en(
                "group cancelled, no places and no certificates: {}",
                made.cancelled.join(", ")
            ),
        ));
    }
    if made.printed == 0 {
        // Why nothing is printed, the first cause that holds.
        let why = if rules.prizes.lists.is_empty() && rules.teams.is_empty() {
            Text::new(
                "本赛事的规程没有奖项名单（`[[prizes.lists]]`）或团体名次（`[[teams]]`）：没有可印的奖状",
                "the rulebook has no prize lists (`[[prizes.lists]]`) or team rankings (`[[teams]]`): there is no certificate to print",
            )
        } else if !made.unfinished.is_empty() {
            Text::new(
                "没有可印的奖状：成绩未完（名次未定）",
                "no certificate to print: the results are not complete (the places are not final)",
            )
        } else if made.held.is_empty() && !made.cancelled.is_empty() && list.is_some() {
            Text::new(
                format!(
                    "没有可印的奖状：{} 所在组别已取消（`qiwang group cancel`），不评名次",
                    made.cancelled.join("、")
                ),
                format!(
                    "no certificate to print: the group of {} was cancelled (`qiwang group cancel`), it has no places",
                    made.cancelled.join(", ")
                ),
            )
        } else if made.held.is_empty() {
            Text::new(
                "还没有可发奖状的名次：奖项表是空的；用 `qiwang prizes` 查看各名单为何无人获奖",
                "no award to print a certificate for: the prize sheet is empty; `qiwang prizes` shows why each list has no one",
            )
        } else {
            Text::new(
                "没有可印的奖状：名次都待加赛决定",
                "no certificate to print: every place waits for a playoff",
            )
        };
        return Err(CliError::from(Refusal::NothingToDo(why)));
    }
    out!("{}", made.html);
    Ok(())
}

/// The note on standard error naming what got no certificate yet (`items`), why (`lead`)
/// and what to do (`then`); nothing when nothing was held back.
fn not_printed(lang: qiwang::rulebook::Lang, items: &[String], lead: Text, then: Text) {
    if items.is_empty() {
        return;
    }
    crate::cli::emit_err(&bi!(
        lang,
        zh("{}：{}；{}", lead.zh, items.join("、"), then.zh),
        en("{}: {}; {}", lead.en, items.join(", "), then.en),
    ));
}

pub fn programme(ctx: &Ctx) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load_shown()?;
    let lang = ctx.lang(&rules);
    ctx.print(&qiwang::views::programme(&event, &rules, lang))
}
