//! Errors as the user sees them, with the documented exit codes.

use std::fmt;

/// Process exit codes (README "Exit codes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    Internal = 1,
    Usage = 2,
    InvalidInput = 3,
    NoLegalPairing = 4,
    Io = 5,
}

/// A failed command: what to print and which exit code to return.
#[derive(Debug)]
pub struct CliError {
    pub code: ExitCode,
    pub message: String,
}

impl CliError {
    pub fn new(code: ExitCode, message: impl Into<String>) -> Self {
        CliError {
            code,
            message: message.into(),
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        CliError::new(ExitCode::Usage, message)
    }

    pub fn input(message: impl Into<String>) -> Self {
        CliError::new(ExitCode::InvalidInput, message)
    }

    pub fn io(message: impl Into<String>) -> Self {
        CliError::new(ExitCode::Io, message)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.message)
    }
}

/// The error and its chain of causes, one per line.
pub fn chain(err: &dyn std::error::Error) -> String {
    let mut s = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        s.push_str(&format!("\n  caused by: {cause}"));
        source = cause.source();
    }
    s
}
