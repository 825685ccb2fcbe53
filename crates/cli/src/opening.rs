//! Opening the GPU for a command: on another thread while the input is read
//! ([`open_gpu_early`]), with the kernels the command's earlier runs used loaded there too,
//! taken by [`open_gpu`] when the command runs.

use std::time::{Duration, Instant};

use semigraph_gpu::GpuBackend;

use crate::args::{BackendChoice, Common};
use crate::error::{CliError, Res};

/// A GPU opened for a command.
pub(crate) struct Opened {
    /// The backend, or why there is none.
    pub gpu: std::result::Result<GpuBackend, String>,
    /// How long opening took (preloading included).
    pub took: Duration,
    /// The command's kernel profile tag (see [`GpuBackend::preload_kernels`]), when the GPU
    /// was opened early for a command, and how many kernels were loaded from it.
    pub profile: Option<(String, usize)>,
}

impl Opened {
    /// Records the kernels the command loaded under its profile tag, for the next run's
    /// preloading. A profile that cannot be written costs the next run time, never a result,
    /// so a failure is not reported.
    pub(crate) fn save_profile(&self) {
        if let (Ok(gpu), Some((tag, _))) = (&self.gpu, &self.profile) {
            let _ = gpu.save_kernel_profile(tag);
        }
    }
}

/// The GPU [`open_gpu_early`] is opening, if any.
static EARLY: std::sync::Mutex<Option<std::thread::JoinHandle<Opened>>> =
    std::sync::Mutex::new(None);

/// Starts opening the GPU (unless `--backend cpu`) on another thread, so that creating the
/// context and loading the driver's libraries (a few hundred milliseconds) overlap the read
/// of the input; the same thread then loads the kernels earlier runs of `command` used (its
/// profile `cli-COMMAND` in the kernel cache), so that the algorithm's first call does not
/// wait for them. [`open_gpu`] takes the result.
pub(crate) fn open_gpu_early(c: &Common, command: &str) {
    if c.backend == BackendChoice::Cpu {
        return;
    }
    let tag = format!("cli-{command}");
    // A thread the system refuses (a tight address-space limit) leaves the opening to
    // `open_gpu`, on this thread.
    let Ok(opening) = std::thread::Builder::new()
        .name("semigraph-open-gpu".into())
        .spawn(move || {
            let t = Instant::now();
            let gpu = GpuBackend::new().map_err(|e| e.to_string());
            let preloaded = gpu.as_ref().map_or(0, |g| g.preload_kernels(&tag));
            Opened {
                gpu,
                took: t.elapsed(),
                profile: Some((tag, preloaded)),
            }
        })
    else {
        return;
    };
    *EARLY.lock().unwrap_or_else(|e| e.into_inner()) = Some(opening);
}

/// Opens the GPU for `--backend gpu` (an error says why not) or `auto` (`gpu` holds the
/// reason, when there is none: the caller falls back to the CPU and says so), or takes the
/// one [`open_gpu_early`] opened.
pub(crate) fn open_gpu(c: &Common) -> Res<Opened> {
    if c.backend == BackendChoice::Cpu {
        return Ok(Opened {
            gpu: Err("--backend cpu".into()),
            took: Duration::ZERO,
            profile: None,
        });
    }
    let early = EARLY.lock().unwrap_or_else(|e| e.into_inner()).take();
    let opened = match early {
        Some(h) => h.join().unwrap_or_else(|_| Opened {
            gpu: Err("opening the GPU panicked".into()),
            took: Duration::ZERO,
            profile: None,
        }),
        None => {
            let t = Instant::now();
            let gpu = GpuBackend::new().map_err(|e| e.to_string());
            Opened {
                gpu,
                took: t.elapsed(),
                profile: None,
            }
        }
    };
    match (c.backend, opened.gpu) {
        (BackendChoice::Gpu, Err(e)) => Err(CliError(format!("--backend gpu: {e}"))),
        (_, gpu) => Ok(Opened { gpu, ..opened }),
    }
}
