//! The `qiwang` binary: parse arguments, run one command, map errors to exit codes.

#![warn(clippy::print_stdout, clippy::print_stderr)]

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(cli::main());
}
