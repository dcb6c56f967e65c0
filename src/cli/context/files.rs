//! Reading a text file the user names (a rulebook), with errors that name the file.

use crate::cli::error::CliError;
use qiwang::i18n::Text;
use std::path::Path;

/// Reads a UTF-8 text file, naming it in every error.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes = crate::cli::error::read_input(path, qiwang::input::InputKind::Rulebook)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        CliError::input(Text::new(
            format!(
                "`{}` 不是 UTF-8 文本（第 {at} 字节）：请另存为 UTF-8",
                path.display()
            ),
            format!(
                "`{}` is not UTF-8 text (byte {at}): save it as UTF-8",
                path.display()
            ),
        ))
    })
}
