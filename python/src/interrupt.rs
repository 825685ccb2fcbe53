//! Ctrl-C during a long call: the work runs on a worker thread while the calling thread
//! (Python's main thread, where signal handlers run) waits for it and checks for signals
//! every 50 ms; on one it asks the algorithm to stop at its next step
//! ([`semigraph_algos::cancel`]), waits for it, and raises the signal's exception
//! (`KeyboardInterrupt`).

use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;
use semigraph_algos::cancel;

/// How often the waiting thread checks for signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` without the GIL on a worker thread: its value, or the exception of a signal
/// that came first (the work stopped at its next step).
pub(crate) fn run<R: Send>(py: Python<'_>, work: impl FnOnce() -> R + Send) -> PyResult<R> {
    py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel();
            s.spawn(move || {
                let _ = tx.send(work());
            });
            loop {
                match rx.recv_timeout(POLL) {
                    Ok(r) => return Ok(r),
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Err(pyo3::exceptions::PyRuntimeError::new_err(
                            "the worker thread ended without a result",
                        ));
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if let Err(signal) = Python::attach(|py| py.check_signals()) {
                            cancel::request();
                            // The run stops at its next step; its result is dropped.
                            let _ = rx.recv();
                            cancel::clear();
                            return Err(signal);
                        }
                    }
                }
            }
        })
    })
}
