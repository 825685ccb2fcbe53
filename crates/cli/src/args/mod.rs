//! The option groups commands share, value parsers, and `bench`'s subcommands (clap); each
//! command's own arguments are in its file under `commands/`.
//!
//! - `options.rs`: the option groups subcommands flatten, and [`Common`];
//! - `values.rs`: value enums and the semiring syntax;
//! - `generate.rs`: generator kinds and sizes;
//! - `bench.rs`: the `bench` subcommands.

mod bench;
mod generate;
mod options;
mod params;
mod values;

pub use bench::{AlgoBench, BenchAlgo, BenchCmd};
pub use generate::{GenArgs, GenKind, GenLine};
pub use options::{
    BackendOpt, Common, InputOpt, JsonOpt, PlainReportOpts, ReportOpts, RunOpts, WriteOpt,
};
pub(crate) use params::{given_in, reads_of, with_params};
pub use values::*;
