//! Opening the GPU for a command: on another thread while the input is read
//! ([`open_gpu_early`]), taken by [`open_gpu`] when the command runs.

use std::time::{Duration, Instant};

use semigraph_gpu::GpuBackend;

use crate::args::{BackendChoice, Common};
use crate::{CliError, Res};

/// A GPU being opened on another thread ([`open_gpu_early`]): the backend or why not, and how
/// long opening took.
type Opening = std::thread::JoinHandle<(std::result::Result<GpuBackend, String>, Duration)>;

/// The GPU [`open_gpu_early`] is opening, if any.
static EARLY: std::sync::Mutex<Option<Opening>> = std::sync::Mutex::new(None);

/// Starts opening the GPU (unless `--backend cpu`) on another thread, so that creating the
/// context and loading the driver's libraries (a few hundred milliseconds) overlap the read
/// of the input; [`open_gpu`] takes the result.
pub(crate) fn open_gpu_early(c: &Common) {
    if c.backend == BackendChoice::Cpu {
        return;
    }
    // A thread the system refuses (a tight address-space limit) leaves the opening to
    // `open_gpu`, on this thread.
    let Ok(opening) = std::thread::Builder::new()
        .name("semigraph-open-gpu".into())
        .spawn(|| {
            let t = Instant::now();
            let gpu = GpuBackend::new().map_err(|e| e.to_string());
            (gpu, t.elapsed())
        })
    else {
        return;
    };
    *EARLY.lock().unwrap_or_else(|e| e.into_inner()) = Some(opening);
}

/// Opens the GPU for `--backend gpu` (an error says why not) or `auto` (`None`, with the
/// reason, when there is none: the caller falls back to the CPU and says so), or takes the one
/// [`open_gpu_early`] opened; with how long opening took.
pub(crate) fn open_gpu(c: &Common) -> Res<(std::result::Result<GpuBackend, String>, Duration)> {
    if c.backend == BackendChoice::Cpu {
        return Ok((Err("--backend cpu".into()), Duration::ZERO));
    }
    let early = EARLY.lock().unwrap_or_else(|e| e.into_inner()).take();
    let (gpu, took) = match early {
        Some(h) => h
            .join()
            .unwrap_or_else(|_| (Err("opening the GPU panicked".into()), Duration::ZERO)),
        None => {
            let t = Instant::now();
            let gpu = GpuBackend::new().map_err(|e| e.to_string());
            (gpu, t.elapsed())
        }
    };
    match (c.backend, gpu) {
        (BackendChoice::Gpu, Err(e)) => Err(CliError(format!("--backend gpu: {e}"))),
        (_, gpu) => Ok((gpu, took)),
    }
}
