//! A test harness for tests that need a GPU or NVRTC.
//!
//! Rust's built-in harness decides `#[ignore]` when the test is compiled, and a test body that
//! returns early when there is no GPU is counted as passed. A test binary with
//! `harness = false` builds a [`Harness`] instead and registers its tests with what each
//! [`Needs`]; at run time a test whose need is missing is reported as **ignored** (its kind,
//! e.g. `[needs-gpu]`, printed before its name) and one line on standard error says why.
//!
//! - `--include-ignored` (or `--ignored`) runs them anyway: each then fails with the reason.
//! - `SEMIGRAPH_REQUIRE_GPU=1` / `SEMIGRAPH_REQUIRE_NVRTC=1` make them not ignored: they run,
//!   and fail if the GPU or NVRTC is missing. CI sets the second; a GPU machine the first.
//!
//! ```no_run
//! use semigraph_testkit::harness::{Harness, Needs};
//! let gpu = Needs::gpu(Some("no CUDA driver".into())); // None where the GPU opened
//! let mut h = Harness::new();
//! h.test("always_runs", || Ok(()));
//! h.test_needing(&gpu, "needs_the_gpu", || Ok(()));
//! h.run();
//! ```

use std::process::ExitCode;

pub use libtest_mimic::Failed;
use libtest_mimic::{Arguments, Trial};

/// Something a test needs beyond the CPU, and whether it is missing here.
#[derive(Clone, Debug)]
pub struct Needs {
    kind: &'static str,
    what: &'static str,
    env: &'static str,
    missing: Option<String>,
}

impl Needs {
    /// A need named `kind` (printed as `[kind]`), described as `what` ("an NVIDIA GPU"),
    /// forced by the environment variable `env` = `1`; `missing` is why it is not available
    /// here, or `None` if it is.
    pub fn new(
        kind: &'static str,
        what: &'static str,
        env: &'static str,
        missing: Option<String>,
    ) -> Needs {
        Needs {
            kind,
            what,
            env,
            missing,
        }
    }

    /// An NVIDIA GPU with its driver and NVRTC (`SEMIGRAPH_REQUIRE_GPU=1` forces).
    pub fn gpu(missing: Option<String>) -> Needs {
        Needs::new(
            "needs-gpu",
            "an NVIDIA GPU",
            "SEMIGRAPH_REQUIRE_GPU",
            missing,
        )
    }

    /// NVRTC, the CUDA run-time compiler, which needs no GPU (`SEMIGRAPH_REQUIRE_NVRTC=1`
    /// forces).
    pub fn nvrtc(missing: Option<String>) -> Needs {
        Needs::new(
            "needs-nvrtc",
            "NVRTC (libnvrtc)",
            "SEMIGRAPH_REQUIRE_NVRTC",
            missing,
        )
    }

    /// `true` if the environment forces tests with this need to run.
    pub fn required(&self) -> bool {
        std::env::var(self.env).is_ok_and(|v| v == "1")
    }

    /// Why the need is not met here (`None` if it is).
    pub fn missing(&self) -> Option<&str> {
        self.missing.as_deref()
    }

    /// `true` if tests with this need are reported as ignored here.
    pub fn ignored(&self) -> bool {
        self.missing.is_some() && !self.required()
    }
}

/// A set of tests, run with libtest's command line (filters, `--test-threads`,
/// `--include-ignored`, `--list`, ...).
#[derive(Default)]
pub struct Harness {
    trials: Vec<Trial>,
    ignored: Vec<(Needs, usize)>,
}

impl Harness {
    /// An empty harness.
    pub fn new() -> Harness {
        Harness::default()
    }

    /// Adds a test that always runs. A panic in `f` fails it, like `Err`.
    pub fn test(
        &mut self,
        name: impl Into<String>,
        f: impl FnOnce() -> Result<(), Failed> + Send + 'static,
    ) {
        self.trials.push(Trial::test(name, f));
    }

    /// Adds a test that needs `needs`: ignored where it is missing (unless forced), failing
    /// with the reason if run anyway.
    pub fn test_needing(
        &mut self,
        needs: &Needs,
        name: impl Into<String>,
        f: impl FnOnce() -> Result<(), Failed> + Send + 'static,
    ) {
        let trial = match &needs.missing {
            None => Trial::test(name, f),
            Some(why) => {
                let msg = format!(
                    "this test needs {} ({}=1 was set or the test was asked for): {why}",
                    needs.what, needs.env
                );
                Trial::test(name, move || Err(msg.into()))
            }
        };
        if needs.ignored() {
            match self.ignored.iter_mut().find(|(n, _)| n.kind == needs.kind) {
                Some((_, count)) => *count += 1,
                None => self.ignored.push((needs.clone(), 1)),
            }
        }
        self.trials.push(
            trial
                .with_kind(needs.kind)
                .with_ignored_flag(needs.ignored()),
        );
    }

    /// The number of tests registered.
    pub fn len(&self) -> usize {
        self.trials.len()
    }

    /// `true` if no test is registered.
    pub fn is_empty(&self) -> bool {
        self.trials.is_empty()
    }

    /// Runs the tests selected by the command line; says on standard error which tests are
    /// ignored for a missing need, and why. Returns the exit code (failure if any test failed).
    pub fn run(self) -> ExitCode {
        // libtest runs the tests that match any of its filters; libtest-mimic takes one, so
        // the others are set apart and applied here.
        let (argv, more) = split_filters(std::env::args_os().collect());
        let mut args = Arguments::from_iter(argv);
        let mut trials = self.trials;
        if !more.is_empty() {
            let filters: Vec<String> = args.filter.take().into_iter().chain(more).collect();
            let before = trials.len();
            trials.retain(|t| {
                filters.iter().any(|f| match args.exact {
                    true => t.name() == f,
                    false => t.name().contains(f.as_str()),
                })
            });
            eprintln!(
                "note: {} of {before} tests match none of the filters {filters:?}",
                before - trials.len()
            );
        }
        if !args.list {
            for (n, count) in &self.ignored {
                eprintln!(
                    "note: {count} test{} need{} {} and {} reported as ignored here: {}. \
                     They run where it is present; {}=1 makes them run (and fail) here.",
                    if *count == 1 { "" } else { "s" },
                    if *count == 1 { "s" } else { "" },
                    n.what,
                    if *count == 1 { "is" } else { "are" },
                    n.missing.as_deref().unwrap_or("missing"),
                    n.env,
                );
            }
        }
        libtest_mimic::run(&args, trials).exit_code()
    }
}

/// The command line without its filters past the first (`argv[0]` and the options kept, with
/// the values of the options that take one), and those filters: libtest-mimic's parser takes
/// one filter, libtest any number.
fn split_filters(argv: Vec<std::ffi::OsString>) -> (Vec<std::ffi::OsString>, Vec<String>) {
    const VALUED: [&str; 5] = [
        "--test-threads",
        "--logfile",
        "--skip",
        "--color",
        "--format",
    ];
    let mut kept = Vec::with_capacity(argv.len());
    let mut more = Vec::new();
    let (mut first, mut value, mut operands) = (true, false, false);
    for (i, a) in argv.into_iter().enumerate() {
        let s = a.to_string_lossy().into_owned();
        let operand = i > 0 && !value && (operands || !s.starts_with('-'));
        if i > 0 && !value && !operands && s == "--" {
            operands = true;
        } else if operand && !first {
            more.push(s);
            continue;
        } else if operand {
            first = false;
        }
        value = !operand && VALUED.contains(&s.as_str());
        kept.push(a);
    }
    (kept, more)
}

/// A test body that signals failure by panicking (with `assert!`), as a [`Harness`] test.
pub fn ok(
    f: impl FnOnce() + Send + 'static,
) -> impl FnOnce() -> Result<(), Failed> + Send + 'static {
    move || {
        f();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::split_filters;

    fn split(args: &[&str]) -> (Vec<String>, Vec<String>) {
        let (kept, more) = split_filters(args.iter().map(Into::into).collect());
        let kept = kept
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        (kept, more)
    }

    #[test]
    fn filters_past_the_first_are_set_apart() {
        assert_eq!(split(&["t"]), (vec!["t".into()], vec![]));
        assert_eq!(split(&["t", "a"]), (vec!["t".into(), "a".into()], vec![]));
        let (kept, more) = split(&["t", "a", "--test-threads", "4", "b", "--exact", "c"]);
        assert_eq!(kept, ["t", "a", "--test-threads", "4", "--exact"]);
        assert_eq!(more, ["b", "c"]);
        // An option's value is not a filter; `--opt=value` is one argument.
        let (kept, more) = split(&["t", "--skip", "x", "--test-threads=2", "a", "b"]);
        assert_eq!(kept, ["t", "--skip", "x", "--test-threads=2", "a"]);
        assert_eq!(more, ["b"]);
        // After `--` every argument is a filter, even one that starts with `-`.
        let (kept, more) = split(&["t", "--", "a", "-b"]);
        assert_eq!(kept, ["t", "--", "a"]);
        assert_eq!(more, ["-b"]);
    }
}
