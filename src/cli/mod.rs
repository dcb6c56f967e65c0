//! The command line: parse arguments, call one library function, print the result.
//!
//! Nothing here decides tournament matters; it finds the event, resolves names given by
//! the user (groups, players), and renders reports. Exit codes are documented in the
//! README and in [`ExitCode`].

/// `print!` that ends the program quietly when the reader has gone away
/// (`qiwang standings | head`) instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::emit(&format!($($arg)*)) };
}

/// `println!` with the same care as [`out!`].
macro_rules! outln {
    () => { $crate::cli::emit("\n") };
    ($($arg:tt)*) => { $crate::cli::emit(&format!("{}\n", format_args!($($arg)*))) };
}

mod args;
mod commands;
mod context;
mod error;

pub use args::Cli;
pub use error::ExitCode;

use clap::Parser;
use std::path::Path;

/// Writes to standard output. A closed pipe ends the program with success (the reader
/// took what it wanted); any other write error is reported with the I/O exit code.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(ExitCode::Io as i32);
    }
}

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
    let flag = context::lang_flag(&cli);
    let rules_file = cli.command.rules_file().map(Path::to_path_buf);
    let event_dir = cli.event.clone();
    match args::dispatch(cli) {
        Ok(()) => 0,
        Err(err) => {
            let lang = flag.unwrap_or_else(|| {
                context::error_lang(rules_file.as_deref(), event_dir.as_deref())
            });
            eprintln!("{}", err.render(lang));
            err.code as i32
        }
    }
}
