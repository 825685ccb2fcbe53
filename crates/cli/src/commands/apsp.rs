//! `semigraph apsp`: all-pairs shortest paths, written as a matrix of distances (and of next
//! hops).

use std::path::PathBuf;

use semigraph_algos::{ApspMethod, DistanceType};

use crate::algo_jobs::ApspJob;
use crate::args::{Choice, Common, RunOpts, auto_or, named};
use crate::checks::{distances_field, pick_distances};
use crate::error::{CliError, Res};
use crate::files::load_weighted;
use crate::jobs::dispatch;
use crate::output::{Header, Output, command_line, write_apsp};

/// All-pairs shortest paths, written as a Matrix Market matrix of distances.
#[derive(clap::Args, Clone, Debug)]
pub struct ApspArgs {
    /// The graph file.
    pub file: PathBuf,
    /// Also write the next-hop matrix to this file: Matrix Market (1-based), or a `NumPy`
    /// array (`u32`, 0-based, 4294967295 for none) for a name ending in `.npy`. An
    /// --output name ending in `.npy` likewise gets the distances as a `NumPy` array.
    #[arg(long, value_name = "FILE")]
    pub next_hop: Option<PathBuf>,
    /// Distance type, as for `sssp`.
    #[arg(long, value_parser = auto_or::<DistanceType>(), default_value = "auto")]
    pub distances: Choice<DistanceType>,
    /// How: repeated squaring, blocks of single-source runs, or the cheaper by estimate.
    #[arg(long, value_parser = named::<ApspMethod>(), default_value = "auto")]
    pub method: ApspMethod,
    #[command(flatten)]
    pub opts: RunOpts,
}

/// Runs `semigraph apsp`.
pub(crate) fn exec(c: &Common, a: ApspArgs) -> Res<()> {
    let file = &a.file;
    let g = load_weighted(file, c)?;
    let (ty, why) = pick_distances(&g, file, 2 * g.num_vertices(), a.distances)?;
    let mut h = Header::new(&command_line(), file, &g);
    if crate::multi::wanted(c) {
        if a.method == ApspMethod::Sources {
            return Err(CliError(
                "--gpus runs APSP by squaring: use --method squaring or auto".into(),
            ));
        }
        h.push(distances_field(ty, &why));
        let next = a.next_hop.as_deref();
        return match ty {
            DistanceType::I32 => crate::multi::apsp::<i32>(c, file, &g, h, next, true),
            DistanceType::I64 => crate::multi::apsp::<i64>(c, file, &g, h, next, true),
            DistanceType::F32 => crate::multi::apsp::<f32>(c, file, &g, h, next, false),
            DistanceType::F64 => crate::multi::apsp::<f64>(c, file, &g, h, next, false),
        };
    }
    let out = Output::new(c);
    macro_rules! run_apsp {
        ($d:ty, $integer:expr) => {{
            let (hh, r) = dispatch(
                c,
                ApspJob::<$d> {
                    file,
                    g: &g,
                    next_hop: a.next_hop.is_some(),
                    method: a.method,
                    _d: Default::default(),
                },
            )?;
            h.extend(hh);
            h.push(distances_field(ty, &why));
            write_apsp(&out, &h, &r, a.next_hop.as_deref(), $integer)
        }};
    }
    match ty {
        DistanceType::I32 => run_apsp!(i32, true),
        DistanceType::I64 => run_apsp!(i64, true),
        DistanceType::F32 => run_apsp!(f32, false),
        DistanceType::F64 => run_apsp!(f64, false),
    }
}
