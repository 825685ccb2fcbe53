//! The process around a command: its arguments as a user may order them, and the signals
//! that must not leave half-written files behind.

/// `semigraph -q bfs ...` as cargo and git accept it: the flags every subcommand shares
/// (`-q`/`--quiet`, `--json`), given before the subcommand, are moved to the end, where the
/// subcommand reads them (one that does not take a flag still says so).
pub(crate) fn common_flags_last(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let common = |a: &std::ffi::OsString| matches!(a.to_str(), Some("-q" | "--quiet" | "--json"));
    let first = args
        .iter()
        .skip(1)
        .position(|a| !common(a))
        .map_or(args.len(), |p| p + 1);
    let moved: Vec<_> = args.drain(1..first).collect();
    args.extend(moved);
    args
}

/// No signal leaves a half-written temporary file: those that end a process (Ctrl-C,
/// SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1/2, SIGVTALRM, SIGPROF, SIGXCPU) remove the
/// temporaries being written, then exit with status 130; SIGXFSZ (a file-size limit), which
/// would kill the process mid-write, is caught so that the write fails with "File too large"
/// and cleans up like any failed write.
pub(crate) fn on_signals() {
    use signal_hook::consts::signal::*;
    let stop = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGXCPU,
    ];
    let Ok(mut signals) = signal_hook::iterator::Signals::new(stop.iter().chain(&[SIGXFSZ])) else {
        return;
    };
    std::thread::spawn(move || {
        for sig in signals.forever() {
            if sig != SIGXFSZ {
                semigraph_formats::io::remove_pending_temporaries();
                std::process::exit(130);
            }
        }
    });
}

/// Address space one worker thread may take: its stack and the allocator's arena (glibc
/// reserves 64 MiB of address space for each thread that allocates).
const THREAD_ADDRESS_SPACE: u64 = 64 << 20;

/// Starts the worker threads (rayon's pool) before any work: a thread per core (or
/// `RAYON_NUM_THREADS`), but no more than half of the address space left to the process can
/// hold ([`THREAD_ADDRESS_SPACE`] each, at least one thread). Under a tight address-space limit
/// (`ulimit -v`) a machine with many cores would otherwise start threads whose stacks and
/// allocator arenas leave no room for the graph, and a failed start cannot be retried (rayon's
/// global pool is set once). `semigraph` then runs, or says why it cannot.
pub(crate) fn start_worker_threads() {
    use semigraph_formats::error::fmt_bytes;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&t| t > 0)
        .unwrap_or(cores);
    let room = semigraph_formats::memory::available().map_or(usize::MAX, |a| {
        (a / 2 / THREAD_ADDRESS_SPACE).max(1) as usize
    });
    let threads = wanted.min(room);
    if let Err(e) = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
    {
        let room = semigraph_formats::memory::available()
            .map(|a| format!(" ({} of address space available)", fmt_bytes(a)))
            .unwrap_or_default();
        eprintln!("semigraph: error: cannot start {threads} worker thread(s){room}: {e}");
        std::process::exit(1);
    }
}

/// Hands `x` to the operating system with the process instead of freeing it: a command ends
/// right after its output, and freeing a large graph's arrays one by one (unmapping GBs of
/// pages) would add a tenth of a second or more to every run. Only for values with nothing to
/// flush or close (host arrays, backend matrices).
pub(crate) fn keep_until_exit<T>(x: T) {
    std::mem::forget(x);
}
