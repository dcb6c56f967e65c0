//! The command line: parse arguments, call one library function, print the result.
//!
//! Nothing here decides tournament matters; it finds the event, resolves names given by
//! the user (groups, players), and renders reports. Exit codes are documented in the
//! README and in [`ExitCode`].

mod args;
mod commands;
mod context;
mod error;

pub use args::Cli;
pub use error::ExitCode;

use clap::Parser;

/// Runs the program and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                _ => ExitCode::Usage as i32,
            };
            let _ = e.print();
            return code;
        }
    };
    match args::dispatch(cli) {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("{err}");
            err.code as i32
        }
    }
}
