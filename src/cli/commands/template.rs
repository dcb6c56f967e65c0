//! `qiwang template [--rules FILE] [--out FILE] [--format csv|xlsx]`

use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, FormatArg, lib_error, refuse_xlsx_on_terminal, xlsx_error};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::registration::template::template;
use qiwang::rulebook::Rulebook;
use std::path::Path;

pub fn run(
    ctx: &Ctx,
    rules_file: Option<&Path>,
    out: Option<&Path>,
    force: bool,
) -> Result<(), CliError> {
    let rules = match rules_file {
        Some(path) => {
            let text = crate::cli::context::read_text(path)?;
            Rulebook::from_toml(&text, &path.display().to_string()).map_err(lib_error)?
        }
        None => ctx.load_read()?.rules,
    };
    let lang = ctx.lang(&rules);
    let sheet = template(&rules, lang);
    let named_xlsx = out.is_some_and(|p| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"))
    });
    let bytes = match ctx.format_arg {
        FormatArg::Xlsx => {
            qiwang::report::xlsx::template_workbook(&sheet, lang).map_err(xlsx_error)?
        }
        FormatArg::Table if named_xlsx => {
            qiwang::report::xlsx::template_workbook(&sheet, lang).map_err(xlsx_error)?
        }
        FormatArg::Table | FormatArg::Csv => sheet.to_csv().into_bytes(),
        _ => {
            return Err(CliError::from(Refusal::Format(Text::new(
                "`qiwang template` 只写 csv 或 xlsx：请用 `--format csv` 或 `--format xlsx`",
                "`qiwang template` writes csv or xlsx: use `--format csv` or `--format xlsx`",
            ))));
        }
    };
    let Some(path) = out else {
        if ctx.format_arg == FormatArg::Xlsx {
            refuse_xlsx_on_terminal()?;
        }
        crate::cli::emit_bytes(&bytes);
        return Ok(());
    };
    qiwang::report::publish::write_new(path, &bytes, force).map_err(lib_error)?;
    outln!(
        "{} → {}（{}）",
        lang.pick("已写出报名表", "wrote the registration sheet"),
        path.display(),
        sheet
            .columns
            .iter()
            .map(|c| c.header.as_str())
            .collect::<Vec<_>>()
            .join(lang.pick("、", ", "))
    );
    Ok(())
}
