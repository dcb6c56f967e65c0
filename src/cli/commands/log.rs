//! `qiwang log` / `qiwang undo`

use crate::cli::context::{Ctx, store_error};
use crate::cli::error::CliError;
use qiwang::registration::privacy::{mask_free_text, mask_free_text_json};
use qiwang::report::{Report, Section};
use qiwang::rulebook::Lang;

pub fn log(ctx: &Ctx) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let trail = loaded.store.log().map_err(store_error)?;
    let entries = &trail.entries;
    let mut report = Report::new(format!(
        "{} — {}",
        loaded.rules.event.name,
        lang.pick("操作记录", "audit log")
    ));
    report.lang = lang.code().into();
    let mut section = Section::new(
        "",
        vec![
            "#".into(),
            lang.pick("时间", "time").into(),
            lang.pick("用户", "user").into(),
            lang.pick("命令", "command").into(),
            lang.pick("变更", "change").into(),
        ],
    )
    .right(&[0]);
    for e in entries {
        section.push(vec![
            e.seq.to_string(),
            e.time.to_rfc3339(),
            e.user.clone(),
            // Lines written before numbers were masked at the source are masked here.
            mask_free_text(&e.command.join(" ")),
            mask_free_text(&e.summary),
        ]);
    }
    report.sections.push(section);
    if let Some(line) = trail.torn_line {
        report.footer.push(format!(
            "{} {line}",
            lang.pick("注意：audit.log 最后一行不完整（崩溃所致），下一次修改时自动修复。行号", "note: the last line of audit.log is incomplete (a crash); the next change repairs it. line")
        ));
    }
    report.json = mask_free_text_json(serde_json::to_value(entries).unwrap_or_default());
    ctx.print(&report)
}

pub fn undo(ctx: &Ctx) -> Result<(), CliError> {
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let undone = loaded
        .store
        .undo(&ctx.command_info())
        .map_err(store_error)?;
    // The audit summary is English (the log's language); Chinese names the step by its
    // number and the command that made it.
    let entry = &undone.undone;
    match lang {
        Lang::Zh => outln!("已撤销第 {} 步：`{}`", entry.seq, entry.command.join(" ")),
        Lang::En => outln!("undone: {}", entry.summary),
    }
    Ok(())
}
