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
