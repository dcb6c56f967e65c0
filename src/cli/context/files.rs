//! Reading a file the user names (a rulebook, a sheet), with errors that name the file.

use super::Refusal;
use super::errors::lib_error;
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::input::{InputError, InputKind};
use std::path::Path;

/// Reads a file the user named, capped (`qiwang::input`): a device or an oversized file
/// is refused with its name, and one that cannot be read names it too.
pub fn read_input(path: &Path, kind: InputKind) -> Result<Vec<u8>, CliError> {
    qiwang::input::read_capped(path, kind).map_err(|e| match e {
        InputError::Io { path, error } => Refusal::cannot_read(&path, &error).into(),
        e @ (InputError::NotAFile(..) | InputError::TooLarge { .. }) => lib_error(e),
    })
}

/// Reads a UTF-8 text file, naming it in every error.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes = read_input(path, InputKind::Rulebook)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Refusal::Unusable(Text::new(
            format!(
                "`{}` 不是 UTF-8 文本（第 {at} 字节）：请另存为 UTF-8",
                path.display()
            ),
            format!(
                "`{}` is not UTF-8 text (byte {at}): save it as UTF-8",
                path.display()
            ),
        ))
        .into()
    })
}
