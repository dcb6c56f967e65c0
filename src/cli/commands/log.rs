//! `qiwang log` / `qiwang undo` / `qiwang redo` / `qiwang unlock`

use crate::cli::context::{Ctx, Loaded, lib_error};
use crate::cli::error::CliError;
use qiwang::i18n::{Localize, bi};
use qiwang::privacy::{mask_free_text, mask_free_text_json};
use qiwang::report::{Report, Section};
use qiwang::rulebook::Lang;
use qiwang::store::action::{Names, describe};
use qiwang::store::{AuditTrail, Recovery, user_label};

pub fn log(ctx: &Ctx) -> Result<(), CliError> {
    // The wording needs the rulebook and the players' names, not the rounds; and only
    // `--format json` shows the whole details of each line (a `result --from` line lists
    // every result it recorded), so the other formats read the trail brief.
    let loaded = ctx.load_roster()?;
    let lang = ctx.lang(&loaded.rules);
    let mut report = Report::new(format!(
        "{} — {}",
        loaded.rules.event.name,
        lang.pick("操作记录", "audit log")
    ));
    report.lang = lang.code().into();
    if matches!(ctx.format(), Ok(qiwang::report::Format::Json)) {
        // Every line whole, each turned into JSON as it is written, so the trail is held
        // once, beside the text, never as a tree of values.
        let trail = loaded.store.log().map_err(lib_error)?;
        report.json_text =
            Some(serde_json::to_string_pretty(&Lines(&trail.entries)).unwrap_or_default());
        // The JSON is the trail alone: what is wrong goes to stderr.
        if let Some(note) = trouble(&loaded, &trail, lang)? {
            errln!("{note}");
        }
        return ctx.print(&report);
    }
    let trail = loaded.store.log_brief().map_err(lib_error)?;
    let entries = &trail.entries;
    let mut section = Section::new(
        "",
        vec![
            "#".into(),
            lang.pick("时间（UTC）", "time (UTC)").into(),
            lang.pick("用户", "user").into(),
            lang.pick("命令", "command").into(),
            lang.pick("变更", "change").into(),
        ],
    )
    .right(&[0]);
    let names = Names::of(lang, &loaded.rules, &loaded.event);
    for e in entries {
        section.push(vec![
            e.seq.to_string(),
            // Minutes are enough to find a change; JSON keeps the exact time.
            e.time.format("%Y-%m-%d %H:%M").to_string(),
            user_label(&e.user, lang).to_string(),
            // Lines written before numbers were masked at the source are masked here.
            mask_free_text(&e.command.join(" ")),
            describe(e, entries, &names),
        ]);
    }
    report.sections.push(section);
    if let Some(note) = trouble(&loaded, &trail, lang)? {
        // CSV carries no footer: the note goes to stderr there, as for JSON.
        if matches!(ctx.format(), Ok(qiwang::report::Format::Csv)) {
            errln!("{note}");
        } else {
            report.footer.push(note);
        }
    }
    ctx.print(&report)
}

/// What `log` says is wrong with the trail or the state: a torn last line is a crash's
/// only when a journal is left, which the next command reconciles; without one, or with
/// files of history/ no line records, every change is refused, and the note says so in
/// the refusal's words. A state that is not the one the trail says is in effect (an
/// older copy put back) is refused the same way: read with the roster, its number costs
/// nothing.
fn trouble(loaded: &Loaded, trail: &AuditTrail, lang: Lang) -> Result<Option<String>, CliError> {
    let refusal = match loaded.store.unaccounted(trail).map_err(lib_error)? {
        None => loaded.store.stale(trail, loaded.event.change),
        refusal => refusal,
    };
    Ok(match refusal {
        Some(refusal) => Some(bi!(
            lang,
            zh(
                "注意：修复之前 qiwang 拒绝任何修改：{}",
                refusal.localize(lang)
            ),
            en(
                "note: qiwang refuses every change until this is repaired: {}",
                refusal.localize(lang)
            )
        )),
        None => trail.torn_line.map(|line| {
            format!(
                "{} {line}",
                lang.pick(
                    "注意：audit.log 最后一行不完整（崩溃所致），下一个命令会自动修复。行号",
                    "note: the last line of audit.log is incomplete (a crash); the next command repairs it. line"
                )
            )
        }),
    })
}

/// `undo` and `redo` name players and groups from the roster alone: the store reads and
/// checks the state under its lock, so the command holds no second copy of a large event.
pub fn undo(ctx: &Ctx, dry_run: bool) -> Result<(), CliError> {
    let loaded = ctx.load_roster()?;
    let lang = ctx.lang(&loaded.rules);
    let names = Names::of(lang, &loaded.rules, &loaded.event);
    if dry_run {
        let plan = loaded.store.undo_plan().map_err(lib_error)?;
        let e = &plan.undone;
        let command = mask_free_text(&e.command.join(" "));
        outln!(
            "{}",
            bi!(
                lang,
                zh(
                    "将撤销第 {} 步（{}，{}，命令 `{command}`）：{}",
                    e.seq,
                    e.time.to_rfc3339(),
                    user_label(&e.user, lang),
                    described(&loaded.store, e, &names)
                ),
                en(
                    "would undo #{} ({} {}: {command}): {}",
                    e.seq,
                    e.time.to_rfc3339(),
                    user_label(&e.user, lang),
                    described(&loaded.store, e, &names)
                )
            )
        );
        outln!(
            "{} history/{}",
            lang.pick("将恢复的快照：", "would restore:"),
            plan.restore_from
        );
        if plan.effects.is_empty() {
            outln!(
                "{}",
                lang.pick(
                    "  状态不变（已手工恢复）",
                    "  the state stays as it is (restored by hand)"
                )
            );
        }
        for effect in &plan.effects {
            outln!("  {}", group_names(effect.get(lang), &loaded.rules, lang));
        }
        if let Some(seq) = plan.interrupted {
            outln!(
                "{}",
                bi!(
                    lang,
                    zh("注意：第 {seq} 次修改正由另一个命令完成，撤销的对象可能随之改变"),
                    en(
                        "note: change #{seq} is being completed by another command; what undo reverts may change"
                    )
                )
            );
        }
        return Ok(());
    }
    let undone = loaded.store.undo(&ctx.command_info()).map_err(lib_error)?;
    // The audit summary is English with registration ids (the log file's record); the
    // change is worded from the action the line keeps, players and groups by name.
    let entry = &undone.undone;
    let what = described(&loaded.store, entry, &names);
    let command = mask_free_text(&entry.command.join(" "));
    outln!(
        "{}",
        bi!(
            lang,
            zh("已撤销第 {} 步：{what}（命令 `{command}`）", entry.seq),
            en("undone #{}: {what} (command `{command}`)", entry.seq)
        )
    );
    Ok(())
}

pub fn redo(ctx: &Ctx) -> Result<(), CliError> {
    let loaded = ctx.load_roster()?;
    let lang = ctx.lang(&loaded.rules);
    let redone = loaded.store.redo(&ctx.command_info()).map_err(lib_error)?;
    let entry = &redone.redone;
    let names = Names::of(lang, &loaded.rules, &loaded.event);
    let what = described(&loaded.store, entry, &names);
    let command = mask_free_text(&entry.command.join(" "));
    outln!(
        "{}",
        bi!(
            lang,
            zh("已重做第 {} 步：{what}（命令 `{command}`）", entry.seq),
            en("redone #{}: {what} (command `{command}`)", entry.seq)
        )
    );
    Ok(())
}

pub fn unlock(ctx: &Ctx) -> Result<(), CliError> {
    let store = ctx.store()?;
    let lang = ctx
        .lang
        .or_else(|| {
            let text = crate::cli::context::read_rulebook_text(&store.rules_path())?;
            qiwang::rulebook::rulebook_language(&text)
        })
        .unwrap_or_default();
    let report = store.unlock().map_err(lib_error)?;
    // Taking the lock proves its last holder has ended: the operating system releases
    // the lock of a process the moment it ends, however it ends.
    outln!(
        "{}",
        lang.pick(
            "锁已释放：没有运行中的命令持有它（命令结束或被终止时，操作系统即释放它的锁）",
            "the event is unlocked: no running command holds it (the operating system releases a command's lock the moment it ends or is killed)"
        )
    );
    match report.recovery {
        Some(Recovery::Completed { seq }) => outln!(
            "{}",
            bi!(
                lang,
                zh("被中断的第 {seq} 次修改已生效，已补记到操作记录"),
                en("change #{seq}, interrupted, had landed: its audit line was written")
            )
        ),
        Some(Recovery::Discarded { seq }) => outln!(
            "{}",
            bi!(
                lang,
                zh("被中断的第 {seq} 次修改未生效，已丢弃"),
                en("change #{seq}, interrupted, had not landed: it was discarded")
            )
        ),
        Some(Recovery::AlreadyLogged { .. }) | None => {}
    }
    Ok(())
}

/// `text` with the store's `组别 `id`` (`group `id``) written as the regulation names the group (the
/// store words its differences without the rulebook).
fn group_names(text: &str, rules: &qiwang::rulebook::Rulebook, lang: Lang) -> String {
    let mut text = text.to_string();
    let word = lang.pick("组别", "group");
    for g in &rules.groups {
        text = text.replace(&format!("{word} `{}`", g.id), &g.name);
    }
    text
}

/// `entry` worded in `names.lang`, with the audit trail to word an undo or redo by the
/// line it took back.
fn described(
    store: &qiwang::store::Store,
    entry: &qiwang::store::AuditEntry,
    names: &Names,
) -> String {
    let trail = store.log_brief().map(|t| t.entries).unwrap_or_default();
    describe(entry, &trail, names)
}

/// An entry as `log --format json` shows it: its command, summary and details masked as
/// free text (lines written before numbers were masked at the source); the time, user and
/// numbers as they are (a time is not a birth date).
/// The trail's lines as a JSON array, each masked as it is written.
struct Lines<'a>(&'a [qiwang::store::AuditEntry]);

impl serde::Serialize for Lines<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(masked_entry))
    }
}

fn masked_entry(entry: &qiwang::store::AuditEntry) -> serde_json::Value {
    let mut json = serde_json::to_value(entry).unwrap_or_default();
    if let Some(map) = json.as_object_mut() {
        for key in ["command", "summary", "details"] {
            if let Some(value) = map.get_mut(key) {
                *value = mask_free_text_json(value.take());
            }
        }
    }
    json
}
