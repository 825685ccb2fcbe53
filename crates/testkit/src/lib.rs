//! Test support shared by semigraph's crates; never a dependency of library code.
//!
//! - [`data`]: where the repository's test graphs are (`data/` at the root, or
//!   `$SEMIGRAPH_DATA`), and the check of their checksums;
//! - [`harness`]: a test harness (over `libtest-mimic`) for test binaries whose tests need a
//!   GPU or NVRTC: where that is missing they are reported as **ignored**, with the reason,
//!   never as passed; `SEMIGRAPH_REQUIRE_GPU=1` / `SEMIGRAPH_REQUIRE_NVRTC=1` make them run,
//!   and fail, instead;
//! - [`backend_suite`]: the test suite every backend runs (every operation x format x
//!   semiring of the suite, and every algorithm), registered into a [`harness::Harness`];
//! - [`compare`]: a backend against the CPU backend on many random graphs, exactly;
//! - [`semirings`]: semirings as users define them (an index-aware product, `u64` values).

pub mod backend_suite;
pub mod compare;
pub mod data;
pub mod harness;
pub mod semirings;

#[doc(hidden)]
pub use semigraph_semiring as __semiring;

/// Calls `$mac!(label, Type)` for 14 of the 49 built-in semirings, a cover in which each
/// value type (f16, bf16, f32, f64, i32, i64, u32, bool) and each add/multiply family
/// (plus-times, min-plus, max-plus, max-min, min-max, or-and, min-second, min-first,
/// min-secondi, any-secondi, min-plus with predecessors) appears; min-plus, the algorithms'
/// semiring, with three types (a float, a signed and an unsigned integer).
///
/// A backend's operation is one generic body over the semiring: what changes from one
/// semiring to another is the value type and its two operations, which the cover spans. The
/// tests instantiate every backend for each semiring they run, so over all 49 the test
/// command built for 15 minutes on 2 cores; [`for_each_suite_semiring!`] is this cover unless
/// the feature `every-semiring` is on (CI and the GPU machine turn it on).
#[macro_export]
macro_rules! for_each_cover_semiring {
    ($mac:ident) => {
        $mac!(
            plus_times_f16,
            $crate::__semiring::PlusTimes<$crate::__semiring::f16>
        );
        $mac!(plus_times_f32, $crate::__semiring::PlusTimes<f32>);
        $mac!(
            min_plus_bf16,
            $crate::__semiring::MinPlus<$crate::__semiring::bf16>
        );
        $mac!(min_plus_i32, $crate::__semiring::MinPlus<i32>);
        $mac!(min_plus_u32, $crate::__semiring::MinPlus<u32>);
        $mac!(max_plus_f64, $crate::__semiring::MaxPlus<f64>);
        $mac!(max_min_i64, $crate::__semiring::MaxMin<i64>);
        $mac!(min_max_u32, $crate::__semiring::MinMax<u32>);
        $mac!(or_and_bool, $crate::__semiring::OrAnd);
        $mac!(min_second_u32, $crate::__semiring::MinSecond<u32>);
        $mac!(min_first_f64, $crate::__semiring::MinFirst<f64>);
        $mac!(min_secondi_i64, $crate::__semiring::MinSecondI<i64>);
        $mac!(any_secondi_i32, $crate::__semiring::AnySecondI<i32>);
        $mac!(min_plus_pred_dpf32, $crate::__semiring::MinPlusPred<f32>);
    };
}

/// Calls `$mac!(label, Type)` for each semiring the test suites instantiate every backend
/// and format for: every built-in semiring
/// ([`for_each_builtin!`](semigraph_semiring::for_each_builtin)) with the feature
/// `every-semiring`, the cover of [`for_each_cover_semiring!`] without it (the default).
#[cfg(feature = "every-semiring")]
#[macro_export]
macro_rules! for_each_suite_semiring {
    ($mac:ident) => {
        $crate::__semiring::for_each_builtin!($mac);
    };
}

/// Calls `$mac!(label, Type)` for each semiring the test suites instantiate every backend
/// and format for: every built-in semiring
/// ([`for_each_builtin!`](semigraph_semiring::for_each_builtin)) with the feature
/// `every-semiring`, the cover of [`for_each_cover_semiring!`] without it (the default).
#[cfg(not(feature = "every-semiring"))]
#[macro_export]
macro_rules! for_each_suite_semiring {
    ($mac:ident) => {
        $crate::for_each_cover_semiring!($mac);
    };
}
