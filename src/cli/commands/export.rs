//! `qiwang export --format html|csv|json|trf|xlsx --out DIR [--group G] [--force]`

use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, FormatArg, Loaded, lib_error, pools_shown, resolve_pool};
use crate::cli::error::CliError;
use qiwang::i18n::{Text, bi, plural};
use qiwang::lookup::Shown;
use qiwang::report::Json;
use qiwang::report::publish::{shown, write_export, write_export_each, write_export_streamed};
use qiwang::report::safe::encode;
use qiwang::report::trf::TrfError;
use std::path::Path;

pub fn run(ctx: &Ctx, out: &Path, group: Option<&str>, force: bool) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load_shown()?;
    let lang = ctx.lang(&rules);
    let pools = match group {
        Some(_) => vec![resolve_pool(&rules, &event, group)?],
        None => pools_shown(&rules, &event, Shown::Paired),
    };
    let only = group.map(|_| &pools[0]);
    if ctx.format_arg == FormatArg::Xlsx {
        return workbook(&event, &rules, only, out, force, lang);
    }
    // Refused at once, not after the files are made.
    qiwang::report::publish::check_export(out, force).map_err(lib_error)?;
    let files: Vec<(String, Vec<u8>)> = match ctx.format_arg {
        FormatArg::Html | FormatArg::Table => {
            // Each page is written away as it is made (`write_export_each`).
            let written = write_export_each(out, force, |file| {
                qiwang::views::site_each(&event, &rules, only, lang, |name, page| {
                    file(name, page.into_bytes());
                });
            })
            .map_err(lib_error)?;
            wrote(written.len(), out, lang);
            return Ok(());
        }
        FormatArg::Json => return json(ctx, &event, &rules, only, out, force, lang),
        FormatArg::Trf => {
            if pools.is_empty() {
                return Err(CliError::from(Refusal::NothingToDo(Text::new(
                    "还没有任何组别编排过：没有可写成 TRF 的内容",
                    "no group has been paired yet: nothing to write as TRF",
                ))));
            }
            let mut files = Vec::new();
            for pool in &pools {
                let standings = qiwang::standings::compute_standings(&event, &rules, pool, None);
                let text = qiwang::report::trf::trf_with(
                    &event,
                    &rules,
                    pool,
                    &standings,
                    ctx.show_private,
                )
                .map_err(|e| {
                    // A message that names the pool already is not prefixed with it again.
                    if matches!(e, TrfError::Empty(_) | TrfError::TooManyPlayers { .. }) {
                        return lib_error(e);
                    }
                    lib_error(e).map_message(|m, l| {
                        format!(
                            "{} `{pool}`{}{m}",
                            l.pick("组别", "group"),
                            l.pick("：", ": ")
                        )
                    })
                })?;
                files.push((format!("{pool}.trf"), text.into_bytes()));
            }
            files
        }
        FormatArg::Csv => qiwang::views::csv_files(&event, &rules, only, lang, |name, text| {
            encode(&text, ctx.csv_encoding())
                .map_err(|e| lib_error(e).map_message(|m, _| format!("{name}: {m}")))
        })?,
        FormatArg::Xlsx => Vec::new(),
    };
    write_export(out, &files, force).map_err(lib_error)?;
    wrote(files.len(), out, lang);
    Ok(())
}

/// Says how many files went into `out`.
fn wrote(files: usize, out: &Path, lang: qiwang::rulebook::Lang) {
    outln!(
        "{} → {}",
        bi!(
            lang,
            zh("已导出 {files} 个文件"),
            en("wrote {}", plural(files, "file", "files"))
        ),
        shown(out)
    );
}

/// `export --format json`: `event.json`, written to its file as it is made.
fn json(
    ctx: &Ctx,
    event: &qiwang::model::Event,
    rules: &qiwang::rulebook::Rulebook,
    only: Option<&qiwang::model::GroupId>,
    out: &Path,
    force: bool,
    lang: qiwang::rulebook::Lang,
) -> Result<(), CliError> {
    // A failure that is not the disk's is a bug (exit 1), said as such.
    let mut bug = None;
    let written = write_export_streamed(out, "event.json", force, |file| {
        qiwang::views::write_event_json(event, rules, only, ctx.show_private, file).map_err(|e| {
            if e.is_io() {
                std::io::Error::from(e)
            } else {
                let error = std::io::Error::other(e.to_string());
                bug = Some(e);
                error
            }
        })
    });
    if let Some(e) = bug {
        return Err(CliError::from(Refusal::bug(&format!(
            "cannot write the event as JSON (event.json): {e}"
        ))));
    }
    written.map_err(lib_error)?;
    wrote(1, out, lang);
    Ok(())
}

/// `export --format xlsx`: one workbook, a sheet per group's round, standings, crosstable
/// and players and per prize list; written to `--out` when it names a `.xlsx` file, else
/// to `event.xlsx` in the `--out` folder.
fn workbook(
    event: &qiwang::model::Event,
    rules: &qiwang::rulebook::Rulebook,
    only: Option<&qiwang::model::GroupId>,
    out: &Path,
    force: bool,
    lang: qiwang::rulebook::Lang,
) -> Result<(), CliError> {
    let is_file = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"));
    // Refused at once, not after the workbook is made.
    if is_file {
        qiwang::report::publish::check_single(out, force).map_err(lib_error)?;
    } else {
        qiwang::report::publish::check_export(out, force).map_err(lib_error)?;
    }
    let saved =
        qiwang::views::workbook_reports(event, rules, only, lang, Json::LeaveOut, |reports| {
            qiwang::report::xlsx::render_book_owned(reports)
        })
        .map_err(crate::cli::context::xlsx_error)?;
    let sheets = saved.sheets;
    let bytes = saved.bytes;
    let path = if is_file {
        qiwang::report::publish::write_new(out, &bytes, force).map_err(lib_error)?;
        out.to_path_buf()
    } else {
        let files = vec![("event.xlsx".to_string(), bytes)];
        let written = write_export(out, &files, force).map_err(lib_error)?;
        written
            .into_iter()
            .next()
            .unwrap_or_else(|| out.join("event.xlsx"))
    };
    // The sheets, not the documents: the prize sheet has one per list.
    outln!(
        "{} → {}",
        bi!(
            lang,
            zh("已导出工作簿，共 {sheets} 张工作表"),
            en("wrote a workbook of {}", plural(sheets, "sheet", "sheets"))
        ),
        shown(&path)
    );
    Ok(())
}
