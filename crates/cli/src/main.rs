//! `semigraph`: graph algorithms as semiring linear algebra, from the command line.
//!
//! Run `semigraph --help` for the subcommands and options, and `semigraph demo` for a
//! self-checking tour that needs no data.
//!
//! - `commands/`: one file per command (its arguments and an `exec`); every algorithm of the
//!   registry through `commands/algorithm.rs`;
//! - `args/`: the option groups commands share, value parsers, `bench`'s subcommands;
//! - `jobs.rs`, `algo_jobs.rs`: work that runs on whichever backend was chosen;
//! - `files.rs`, `output.rs`: reading graphs, writing results; `multi.rs`: several GPUs;
//! - `bench/`: the measurements behind `semigraph bench`.

mod algo_jobs;
mod args;
mod bench;
mod checks;
mod columns;
mod commands;
mod error;
mod files;
mod jobs;
mod multi;
mod opening;
mod output;
mod process;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    process::on_signals();
    process::start_worker_threads();
    // Result arrays read back from the GPU reuse heap pages (see the function).
    semigraph_gpu::host::keep_large_allocations();
    let cli = commands::Cli::parse_from(process::common_flags_last(std::env::args_os().collect()));
    match commands::exec(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("semigraph: error: {e}");
            ExitCode::FAILURE
        }
    }
}
