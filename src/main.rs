//! The `qiwang` binary: parse arguments, run one command, map errors to exit codes.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
