//! `qiwang import FILE... [--dry-run] [--encoding auto|utf-8|gbk] [--sheet NAME] [--strict] [--late]`

use crate::cli::context::read_input;
use crate::cli::context::{Ctx, lib_error, tx_error};
use crate::cli::error::{CliError, ExitStatus};
use qiwang::i18n::plural;
use qiwang::i18n::{Localize, bi};
use qiwang::input::decode::Encoding;
use qiwang::registration::{BatchOptions, Imported, RegistrationFile, admit_batch, read_batch};
use qiwang::rulebook::Lang;
use std::path::PathBuf;

/// What `import` was asked to do.
pub struct ImportArgs {
    pub files: Vec<PathBuf>,
    pub dry_run: bool,
    pub encoding: String,
    pub sheet: Option<String>,
    pub strict: bool,
    /// Accept entries after the rulebook's `registration_deadline` (logged as late).
    pub late: bool,
}

pub fn run(ctx: &Ctx, args: &ImportArgs) -> Result<(), CliError> {
    let mut contents = Vec::with_capacity(args.files.len());
    for path in &args.files {
        contents.push(read_input(path, qiwang::input::InputKind::Sheet)?);
    }
    let files: Vec<RegistrationFile<'_>> = args
        .files
        .iter()
        .zip(&contents)
        .map(|(path, bytes)| RegistrationFile {
            source: path.display().to_string(),
            bytes,
        })
        .collect();
    let opts = BatchOptions {
        encoding: match args.encoding.as_str() {
            "utf-8" | "utf8" => Encoding::Utf8,
            "gbk" => Encoding::Gbk,
            _ => Encoding::Auto,
        },
        sheet: args.sheet.clone(),
        strict: args.strict,
        merged: Default::default(),
    };
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    // Rows entering pools already paired are entries as `player add` makes them, under
    // the same rules; the deadline is a day, today's date on this machine decides.
    let today = chrono::Local::now().date_naive();
    let opts = BatchOptions {
        merged: qiwang::registration::merged_pools(&loaded.event, &loaded.rules),
        ..opts
    };
    if args.dry_run {
        let ev = &loaded.event;
        let mut imported = read_batch(
            &files,
            &opts,
            &loaded.rules,
            &ev.players,
            ev.next_player_id(),
        )
        .map_err(nothing_imported)?;
        let placed = qiwang::registration::place_entries(ev, &loaded.rules, &mut imported.players)
            .map_err(nothing_imported)?;
        admit_batch(ev, &loaded.rules, &mut imported.players, today, args.late)
            .map_err(nothing_imported)?;
        report_reading(&imported, lang);
        for p in placed {
            outln!("{}", p.localize(lang));
        }
        outln!(
            "{}: {}",
            lang.pick(
                "检查通过（未导入）",
                "file is clean (dry run, nothing imported)"
            ),
            bi!(
                lang,
                zh("{} 名棋手", imported.players.len()),
                en("{}", plural(imported.players.len(), "player", "players"))
            )
        );
        return Ok(());
    }
    let rules = &loaded.rules;
    let sources: Vec<String> = files.iter().map(|f| f.source.clone()).collect();
    // The counts are taken from the state the transaction writes, without reading it back.
    let nothing_imported = |e: CliError| {
        e.map_message(|m, l| {
            format!(
                "{m}\n{}",
                l.pick(
                    "未导入任何棋手，赛事未改变。",
                    "nothing was imported; the event is unchanged."
                )
            )
        })
    };
    let (imported, per_pool, placed) = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let mut imported =
                read_batch(&files, &opts, rules, &event.players, event.next_player_id())
                    .map_err(|e| nothing_imported(lib_error(e)))?;
            // Rows for a group merged away join the pool it went to; a cancelled group's
            // refuse the whole file, as any error does.
            let placed = qiwang::registration::place_entries(event, rules, &mut imported.players)
                .map_err(|e| nothing_imported(lib_error(e)))?;
            let late = admit_batch(event, rules, &mut imported.players, today, args.late)
                .map_err(|e| nothing_imported(lib_error(e)))?;
            let n = imported.players.len();
            let ids: Vec<u32> = imported.players.iter().map(|p| p.id.0).collect();
            event.players.extend(imported.players.iter().cloned());
            let per_pool: Vec<(String, usize)> =
                qiwang::lookup::pools_shown(rules, event, qiwang::lookup::Shown::Players)
                    .into_iter()
                    .map(|g| (g.name.clone(), event.players_in(&g.id).count()))
                    .collect();
            let joined = sources.join(", ");
            let mut details =
                serde_json::json!({ "file": joined, "files": sources, "player_ids": ids });
            if late {
                details["late"] = serde_json::Value::Bool(true);
            }
            Ok::<_, CliError>(
                qiwang::store::action::Action::Imported {
                    players: n,
                    files: sources.clone(),
                }
                .change((imported, per_pool, placed), details),
            )
        })
        .map_err(tx_error)?;
    report_reading(&imported, lang);
    outln!(
        "{}",
        bi!(
            lang,
            zh("已导入 {} 名棋手", imported.players.len()),
            en(
                "imported {}",
                plural(imported.players.len(), "player", "players")
            )
        )
    );
    for (name, n) in per_pool {
        outln!("  {name}{}{n}", lang.pick("：", ": "));
    }
    for p in placed {
        outln!("{}", p.localize(lang));
    }
    Ok(())
}

/// Which files and sheets were read (a workbook's sheets by name, with those skipped),
/// then the warnings, on standard error so a script reading the counts is not disturbed.
fn report_reading(imported: &Imported, lang: Lang) {
    let quoted = |names: &[String]| {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(lang.pick("、", ", "))
    };
    for f in &imported.files {
        if f.sheets.is_empty() {
            continue;
        }
        let mut line = bi!(
            lang,
            zh(
                "{} 读取工作表：{}（{} 名棋手）",
                f.source,
                quoted(&f.sheets),
                f.players
            ),
            en(
                "{}: read sheets {} ({})",
                f.source,
                quoted(&f.sheets),
                plural(f.players, "player", "players")
            )
        );
        if !f.skipped.is_empty() {
            line.push_str(&format!(
                "{}{}",
                lang.pick("；未读取（没有表头行）：", "; not read (no header row): "),
                quoted(&f.skipped)
            ));
        }
        outln!("{line}");
    }
    let source = imported
        .files
        .iter()
        .map(|f| f.source.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    for w in &imported.warnings {
        errln!(
            "{}{}",
            lang.pick("提示：", "warning: "),
            w.located(&source, lang)
        );
    }
}

/// A refusal of the dry run, said with "nothing was imported" under it.
fn nothing_imported<E: std::error::Error + Localize + ExitStatus>(e: E) -> CliError {
    lib_error(e).map_message(|m, l| {
        format!(
            "{m}\n{}",
            l.pick("未导入任何棋手。", "nothing was imported.")
        )
    })
}
