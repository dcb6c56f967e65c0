//! `qiwang round [N] [--group G] [--sheet pairings|slips|cards|find|wall]`: a round's
//! sheets, reprinted at any time. `--sheet slips --format csv|xlsx` is the results file
//! to fill in and read back with `qiwang result --from`.

use crate::cli::context::Refusal;
use crate::cli::context::lib_error;
use crate::cli::context::{Ctx, FormatArg, Loaded, pools_shown, resolve_paired_pool, xlsx_error};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::lookup::Shown;
use qiwang::model::GroupId;
use qiwang::views::{SheetKind, round_sheets};

pub fn run(
    ctx: &Ctx,
    round: Option<u32>,
    group: Option<&str>,
    sheet: &str,
) -> Result<(), CliError> {
    let loaded = ctx.load_shown()?;
    if loaded.rules.team_competition.is_some() {
        return super::team::round(ctx, loaded, round, group, sheet);
    }
    let Loaded { event, rules, .. } = loaded;
    let lang = ctx.lang(&rules);
    // clap only lets the listed names through.
    let kind = SheetKind::ALL
        .iter()
        .find(|(name, _)| *name == sheet)
        .map_or(SheetKind::Pairings, |(_, kind)| *kind);
    let workbook = ctx.format_arg == FormatArg::Xlsx;
    if workbook && kind != SheetKind::Slips {
        return Err(CliError::from(Refusal::Format(Text::new(
            "`qiwang round` 只有成绩登记表（`--sheet slips`）可以输出 `--format xlsx`：它是填好后用 `qiwang result --from` 读回的成绩表",
            "only the result slips (`--sheet slips`) of `qiwang round` have `--format xlsx`: the results file to fill in and read back with `qiwang result --from`",
        ))));
    }
    let format = if workbook {
        qiwang::report::Format::Csv
    } else {
        ctx.format()?
    };
    let pools: Vec<GroupId> = match group {
        Some(_) => vec![resolve_paired_pool(&rules, &event, group)?],
        None => pools_shown(&rules, &event, Shown::Paired),
    };
    let sheets =
        round_sheets(&event, &rules, &pools, round, kind, lang, ctx.json()).map_err(lib_error)?;
    if workbook && let Some(file) = &sheets.results_file {
        // The sheet is named for what it is; the event's name is its title row.
        let name = lang.pick("成绩登记表", "result slips").to_string();
        let bytes = qiwang::report::xlsx::render_book(&[(name, file)]).map_err(xlsx_error)?;
        crate::cli::emit_bytes(&bytes);
        return Ok(());
    }
    if format == qiwang::report::Format::Json
        && let [one] = sheets.reports.as_slice()
    {
        return ctx.print(one);
    }
    ctx.print_rendered(format, &sheets.render(format))
}
