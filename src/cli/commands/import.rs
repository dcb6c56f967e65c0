//! `qiwang import FILE... [--dry-run] [--encoding auto|utf-8|gbk] [--sheet NAME] [--strict] [--late]`:
//! the files read, one library call (`commands::import::import_files`), and what it did
//! printed: the files and sheets read, the warnings, the count per pool.

use crate::cli::context::read_input;
use crate::cli::context::{Ctx, lib_error};
use crate::cli::error::CliError;
use qiwang::commands::import::{ImportDone, ImportFailed, ImportRequest, PoolCount, import_files};
use qiwang::i18n::plural;
use qiwang::i18n::{Localize, bi};
use qiwang::input::decode::Encoding;
use qiwang::registration::{BatchOptions, Imported, RegistrationFile};
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
    let request = ImportRequest {
        files: &files,
        options: BatchOptions {
            encoding: match args.encoding.as_str() {
                "utf-8" | "utf8" => Encoding::Utf8,
                "gbk" => Encoding::Gbk,
                _ => Encoding::Auto,
            },
            sheet: args.sheet.clone(),
            strict: args.strict,
        },
        dry_run: args.dry_run,
        late: args.late,
        // The deadline is a day: today's date on this machine decides.
        today: chrono::Local::now().date_naive(),
    };
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let done = import_files(
        &loaded.store,
        &ctx.command_info(),
        &loaded.event,
        &loaded.rules,
        &request,
    )
    .map_err(|e| import_error(e, args.dry_run))?;
    let ImportDone {
        imported,
        placed,
        pools,
    } = done;
    report_reading(&imported, lang);
    let n = imported.players.len();
    let Some(pools) = pools else {
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
                zh("{} 名棋手", n),
                en("{}", plural(n, "player", "players"))
            )
        );
        return Ok(());
    };
    outln!(
        "{}",
        bi!(
            lang,
            zh("已导入 {} 名棋手", n),
            en("imported {}", plural(n, "player", "players"))
        )
    );
    for pool in pools {
        outln!("  {}", pool_line(&pool, lang));
    }
    for p in placed {
        outln!("{}", p.localize(lang));
    }
    Ok(())
}

/// A pool's line of the summary: the players who take part, then those withdrawn before
/// round 1 apart (「女子组：0（已取消，2 名棋手退赛）」).
fn pool_line(pool: &PoolCount, lang: Lang) -> String {
    let PoolCount {
        name,
        players,
        withdrawn,
        cancelled,
    } = pool;
    let count = format!("{name}{}{players}", lang.pick("：", ": "));
    match (cancelled, withdrawn) {
        (true, w) => bi!(
            lang,
            zh("{count}（已取消，{w} 名棋手退赛）"),
            en("{count} (cancelled, {w} withdrawn)")
        ),
        (false, 0) => count,
        (false, w) => bi!(
            lang,
            zh("{count}（另有 {w} 名棋手已退赛）"),
            en("{count} (and {w} withdrawn)")
        ),
    }
}

/// Why nothing was imported, said with "nothing was imported" under it (and, when the
/// import was to be stored, that the event is unchanged); a store that could not be read
/// or written is said as every command's.
fn import_error(e: ImportFailed, dry_run: bool) -> CliError {
    if let ImportFailed::Store(e) = e {
        return lib_error(e);
    }
    lib_error(e).map_message(move |m, l| {
        let note = if dry_run {
            l.pick("未导入任何棋手。", "nothing was imported.")
        } else {
            l.pick(
                "未导入任何棋手，赛事未改变。",
                "nothing was imported; the event is unchanged.",
            )
        };
        format!("{m}\n{note}")
    })
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
