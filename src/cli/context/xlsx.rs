//! What `--format xlsx` needs from every command: a plain internal error when the writer
//! fails, and refusing to print a workbook to a terminal.

use super::Refusal;
use crate::cli::error::CliError;
use qiwang::i18n::Text;

/// The writer failed: a temporary file it could not write (a full disk under `TMPDIR`,
/// see `temp_writes_fail_cleanly` in src/report/xlsx/temp.rs) is an I/O error that says what to do;
/// anything else (a limit of the format was hit) is an internal error, said plainly.
pub fn xlsx_error(e: rust_xlsxwriter::XlsxError) -> CliError {
    xlsx_refusal(&e).into()
}

/// The refusal [`xlsx_error`] makes of the writer's failure `e`, which also decides its
/// exit code wherever a library error carries one (`pair`'s workbook).
pub(super) fn xlsx_refusal(e: &rust_xlsxwriter::XlsxError) -> Refusal {
    if let rust_xlsxwriter::XlsxError::TempFileError(dir, cause) = e {
        let dir = qiwang::report::publish::shown(dir);
        return Refusal::CannotWrite(Text::new(
            format!(
                "无法生成 Excel 工作簿：写不进临时目录 `{dir}`（{cause}）。请腾出磁盘空间，或用环境变量 TMPDIR 指向空间足够的目录后重试"
            ),
            format!(
                "cannot build the Excel workbook: cannot write to the temporary directory `{dir}` ({cause}). Free some disk space, or point the TMPDIR environment variable at a directory with room, and try again"
            ),
        ));
    }
    Refusal::bug(&format!("cannot build the Excel workbook: {e}"))
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
