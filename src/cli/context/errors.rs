//! Library errors as [`CliError`]s, each with the exit code it documents.

use crate::cli::error::{CliError, ExitCode, chain};
use qiwang::store::TxError;

pub fn store_error(e: qiwang::store::StoreError) -> CliError {
    use qiwang::store::StoreError as E;
    let code = match &e {
        E::Damaged { .. } | E::NewerSchema { .. } | E::NothingToUndo => ExitCode::InvalidInput,
        E::NotAnEvent { .. } | E::NoEventAt { .. } | E::AlreadyExists { .. } => ExitCode::Usage,
        _ => ExitCode::Io,
    };
    CliError::new(code, chain(&e))
}

/// A failed transaction: store problems keep their I/O code, command errors theirs.
pub fn tx_error(e: TxError<CliError>) -> CliError {
    match e {
        TxError::Store(e) => store_error(e),
        TxError::Command(e) => e,
    }
}

/// For library errors inside a transaction: invalid input, with the cause chain.
pub fn input_error<E: std::error::Error + qiwang::i18n::Localize>(e: E) -> CliError {
    CliError::input(chain(&e))
}
