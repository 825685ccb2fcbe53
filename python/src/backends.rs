//! The process's backends: the CPU backend, and the GPU backend opened once on first use.

use std::sync::OnceLock;

use pyo3::prelude::*;
use semigraph_algos::CpuBackend;
use semigraph_gpu::GpuBackend;

use crate::errors::GpuUnavailable;

static CPU: OnceLock<CpuBackend> = OnceLock::new();
static GPU: OnceLock<Result<GpuBackend, String>> = OnceLock::new();

/// The CPU backend (rayon's global pool).
pub(crate) fn cpu() -> &'static CpuBackend {
    CPU.get_or_init(CpuBackend::new)
}

/// The kernel profile of the package (see [`GpuBackend::preload_kernels`]): the kernels the
/// last processes loaded, loaded ahead in the next.
const PROFILE: &str = "python";

/// The GPU backend, opened on the first call; the reason it cannot be opened otherwise (no
/// driver, no device, no NVRTC), the same on every later call. Once it is open, a thread loads
/// the kernels earlier processes used ([`PROFILE`]) while the caller goes on (building its
/// graph, typically), so that the first algorithm does not wait for them.
pub(crate) fn gpu() -> Result<&'static GpuBackend, String> {
    let mut opened = false;
    let g = GPU
        .get_or_init(|| {
            opened = true;
            GpuBackend::new().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(Clone::clone)?;
    if opened {
        // A thread the system refuses only leaves the kernels to load on first use.
        let _ = std::thread::Builder::new()
            .name("semigraph-preload".into())
            .spawn(move || g.preload_kernels(PROFILE));
    }
    Ok(g)
}

/// The GPU backend if this process opened it.
pub(crate) fn opened_gpu() -> Option<&'static GpuBackend> {
    GPU.get().and_then(|g| g.as_ref().ok())
}

/// Records the kernels the GPU backend loaded in this process as the package's profile (at the
/// interpreter's exit); nothing if the GPU was never opened. A profile that cannot be written
/// costs the next process time, never a result, so a failure is not reported.
#[pyfunction]
pub(crate) fn save_kernel_profile() {
    if let Some(Ok(g)) = GPU.get() {
        let _ = g.save_kernel_profile(PROFILE);
    }
}

/// Which backend a call runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    Cpu,
    Gpu,
}

/// `backend="auto" | "cpu" | "gpu"`: auto is the GPU when one can be opened, else the CPU.
pub(crate) fn choose(name: &str) -> PyResult<Choice> {
    match name {
        "cpu" => Ok(Choice::Cpu),
        "gpu" => match gpu() {
            Ok(_) => Ok(Choice::Gpu),
            Err(why) => Err(GpuUnavailable::new_err(format!(
                "backend=\"gpu\": no GPU backend: {why}"
            ))),
        },
        "auto" => Ok(if gpu().is_ok() {
            Choice::Gpu
        } else {
            Choice::Cpu
        }),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "backend={other:?}: expected \"auto\", \"cpu\" or \"gpu\""
        ))),
    }
}

/// `(available, reason)`: whether the GPU backend opens here, and if not, why.
#[pyfunction]
pub(crate) fn gpu_status(py: Python<'_>) -> (bool, Option<String>) {
    match py.detach(gpu) {
        Ok(_) => (true, None),
        Err(why) => (false, Some(why)),
    }
}
