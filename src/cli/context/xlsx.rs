//! What `--format xlsx` needs from every command: a clear refusal when the writer fails,
//! and refusing to print a workbook to a terminal.

use super::Refusal;
use crate::cli::error::CliError;
use qiwang::i18n::{Lang, Localize, Text};
use qiwang::report::xlsx::WorkbookError;

/// The writer failed: a sheet or file past what Excel holds is refused, saying to use
/// another format; anything else (the template's library refused) is an internal error,
/// said plainly.
pub fn xlsx_error(e: WorkbookError) -> CliError {
    xlsx_refusal(&e).into()
}

/// The refusal [`xlsx_error`] makes of the writer's failure `e`, which also decides its
/// exit code wherever a library error carries one (`pair`'s workbook).
pub(super) fn xlsx_refusal(e: &WorkbookError) -> Refusal {
    match e {
        WorkbookError::TooLarge { .. } | WorkbookError::FileTooLarge { .. } => {
            Refusal::Format(Text::new(
                format!(
                    "无法生成 Excel 工作簿：{}。请改用 `--format csv` 或 `--format html`",
                    e.localize(Lang::Zh)
                ),
                format!(
                    "cannot build the Excel workbook: {}. Use `--format csv` or `--format html` instead",
                    e.localize(Lang::En)
                ),
            ))
        }
        WorkbookError::Template(e) => {
            Refusal::bug(&format!("cannot build the Excel workbook: {e}"))
        }
    }
}

/// `--format xlsx` writes binary: refused when standard output is a terminal, where it
/// would only scramble the screen.
pub fn refuse_xlsx_on_terminal() -> Result<(), CliError> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        return Err(Refusal::WorkbookOnTerminal(Text::new(
            "`--format xlsx` 输出的是 Excel 工作簿（二进制），不能显示在终端上：请重定向到文件，例如 `qiwang prizes --format xlsx > 获奖名单.xlsx`",
            "`--format xlsx` writes an Excel workbook (binary), which a terminal cannot show: redirect it to a file, e.g. `qiwang prizes --format xlsx > prizes.xlsx`",
        ))
        .into());
    }
    Ok(())
}
