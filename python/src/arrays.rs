//! SciPy CSR arrays as semigraph takes them: checked, then turned into the arcs of an
//! [`EdgeList`] (whose `to_csr` combines parallel entries as the semiring adds).

use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use semigraph_formats::{Csr, EdgeList, FormatError, Weights};
use semigraph_semiring::Semiring;

/// Indices of a SciPy matrix: int32 or int64, borrowed from NumPy.
#[derive(FromPyObject)]
pub(crate) enum Ints<'py> {
    I32(PyReadonlyArray1<'py, i32>),
    I64(PyReadonlyArray1<'py, i64>),
}

impl Ints<'_> {
    /// The values as u32, each checked to lie in `0..limit` (`what` names the array): checked
    /// in one pass, converted in another (no per-value `Result`).
    pub(crate) fn to_u32(&self, limit: u64, what: &str) -> PyResult<Vec<u32>> {
        let limit = limit.min(u32::MAX as u64 + 1);
        let bad = |x: i64| {
            PyValueError::new_err(format!(
                "{what} holds {x}, outside 0..{limit} (not a valid CSR matrix)"
            ))
        };
        let out = |x: i64| x < 0 || x as u64 >= limit;
        fn checked<T: Copy + Into<i64> + Sync>(
            a: &[T],
            out: impl Fn(i64) -> bool + Sync,
        ) -> PyResult<Result<Vec<u32>, i64>> {
            if let Some(x) = first_outside(a, out) {
                return Ok(Err(x));
            }
            let mut v = semigraph_formats::memory::try_with_capacity(a.len()).map_err(
                |(needed, available)| {
                    crate::errors::format_err(FormatError::TooLarge {
                        what: "a copy of the indices".into(),
                        needed,
                        available,
                    })
                },
            )?;
            v.par_extend(a.par_iter().map(|&x| x.into() as u32));
            Ok(Ok(v))
        }
        match self {
            Ints::I32(a) => checked(a.as_slice()?, out)?,
            Ints::I64(a) => checked(a.as_slice()?, out)?,
        }
        .map_err(bad)
    }

    /// The number of values.
    pub(crate) fn len(&self) -> usize {
        match self {
            Ints::I32(a) => a.len(),
            Ints::I64(a) => a.len(),
        }
    }
}

/// The first value of `a` that `out` rejects, if any: blocks checked on every core without
/// stopping early (a branch-free pass the compiler vectorises; rayon's `find_first` costs
/// nanoseconds per value), the culprit then found in order.
fn first_outside<T: Copy + Into<i64> + Sync>(
    a: &[T],
    out: impl Fn(i64) -> bool + Sync,
) -> Option<i64> {
    let any = a
        .par_chunks(1 << 16)
        .any(|c| c.iter().fold(false, |bad, &x| bad | out(x.into())));
    if !any {
        return None;
    }
    a.iter().map(|&x| x.into()).find(|&x| out(x))
}

/// The values of a SciPy matrix as Python passes them: float64, or int64 / uint64 kept
/// exact (an integer beyond 2^53 has no float64).
#[derive(FromPyObject)]
pub(crate) enum Values<'py> {
    F64(PyReadonlyArray1<'py, f64>),
    I64(PyReadonlyArray1<'py, i64>),
    U64(PyReadonlyArray1<'py, u64>),
}

impl Values<'_> {
    /// The number of values.
    pub(crate) fn len(&self) -> usize {
        match self {
            Values::F64(a) => a.len(),
            Values::I64(a) => a.len(),
            Values::U64(a) => a.len(),
        }
    }

    /// The values as weights, copied out of NumPy.
    pub(crate) fn weights(&self) -> PyResult<Weights> {
        Ok(match self {
            Values::F64(a) => Weights::Real(a.as_slice()?.to_vec()),
            Values::I64(a) => Weights::Int(a.as_slice()?.to_vec()),
            Values::U64(a) => {
                let u = a.as_slice()?;
                if u.par_iter().all(|&x| x <= i64::MAX as u64) {
                    Weights::Int(u.par_iter().map(|&x| x as i64).collect())
                } else {
                    Weights::UInt(u.to_vec())
                }
            }
        })
    }
}

/// The checked arrays of an `nrows x ncols` CSR matrix (row offsets, columns, values unless
/// only the pattern is wanted), copied out of NumPy so that the work can run without the GIL.
#[derive(Clone)]
pub(crate) struct Arrays {
    nrows: usize,
    ncols: usize,
    ptr: Vec<u32>,
    cols: Vec<u32>,
    vals: Weights,
}

impl Arrays {
    /// Checks and copies the arrays; errors say what is wrong with them.
    pub(crate) fn new(
        nrows: usize,
        ncols: usize,
        indptr: &Ints<'_>,
        indices: &Ints<'_>,
        data: &Values<'_>,
    ) -> PyResult<Self> {
        let mut a = Self::pattern_of(nrows, ncols, indptr, indices)?;
        if data.len() != a.cols.len() {
            return Err(PyValueError::new_err(format!(
                "{} indices for {} values: not a CSR matrix",
                a.cols.len(),
                data.len()
            )));
        }
        a.vals = data.weights()?;
        Ok(a)
    }

    /// Whether a value is `+inf` (which shortest paths read as "no arc", though the entry
    /// is part of the structure).
    pub(crate) fn has_infinity(&self) -> bool {
        matches!(&self.vals, Weights::Real(v) if v.par_iter().any(|&x| x == f64::INFINITY))
    }

    /// [`Arrays::new`] without values, for algorithms that read only the pattern.
    pub(crate) fn pattern_of(
        nrows: usize,
        ncols: usize,
        indptr: &Ints<'_>,
        indices: &Ints<'_>,
    ) -> PyResult<Self> {
        for (k, what) in [(nrows, "rows"), (ncols, "columns")] {
            if k >= u32::MAX as usize {
                return Err(PyValueError::new_err(format!(
                    "{k} {what}: semigraph numbers vertices in 32 bits (fewer than {})",
                    u32::MAX
                )));
            }
        }
        // Offsets are 32-bit in semigraph's CSR: at most 2^32 - 1 entries.
        let ptr = indptr.to_u32(u32::MAX as u64 + 1, "indptr")?;
        let cols = indices.to_u32(ncols as u64, "indices")?;
        let m = cols.len();
        if ptr.len() != nrows + 1 || ptr[0] != 0 || ptr[nrows] as usize != m {
            return Err(PyValueError::new_err(format!(
                "not a CSR matrix of {nrows} rows and {m} entries: indptr has {} entries, from {} to {}",
                ptr.len(),
                ptr.first().copied().unwrap_or(0),
                ptr.last().copied().unwrap_or(0)
            )));
        }
        if ptr.par_windows(2).any(|w| w[0] > w[1]) {
            return Err(PyValueError::new_err("indptr decreases: not a CSR matrix"));
        }
        Ok(Arrays {
            nrows,
            ncols,
            ptr,
            cols,
            vals: Weights::None,
        })
    }

    /// Whether each row's columns strictly increase (SciPy's canonical format).
    fn sorted(&self) -> bool {
        let ptr = &self.ptr;
        (0..self.nrows)
            .into_par_iter()
            .with_min_len(1 << 10)
            .all(|r| {
                let row = &self.cols[ptr[r] as usize..ptr[r + 1] as usize];
                row.windows(2).all(|w| w[0] < w[1])
            })
    }

    /// The pattern in semiring `P` (every entry `P::one()`, repeated entries once): the arrays
    /// as they are when canonical, else sorted and combined.
    pub(crate) fn pattern<P: Semiring>(self) -> Result<Csr<P>, FormatError> {
        if self.sorted() {
            let ones = semigraph_formats::memory::try_filled(self.cols.len(), P::one()).map_err(
                |(needed, available)| FormatError::TooLarge {
                    what: "the pattern's values".into(),
                    needed,
                    available,
                },
            )?;
            return Csr::try_from_parts(self.nrows, self.ncols, self.ptr, self.cols, ones);
        }
        self.edge_list().to_pattern_csr::<P, u32>()
    }

    /// The matrix itself, when it is in SciPy's canonical format (each row's columns strictly
    /// increasing) and no value is NaN: the arrays become the CSR's as they are, with no
    /// rebuild. Otherwise the arrays back (`Err`), for [`Arrays::edge_list`] and `to_csr`,
    /// which sorts, combines repeats as the semiring adds and names a bad value.
    pub(crate) fn canonical<S: Semiring<T = f64>>(self) -> Result<Csr<S>, Self> {
        let Weights::Real(vals) = &self.vals else {
            return Err(self);
        };
        if !self.sorted() || vals.par_iter().any(|v| v.is_nan()) {
            return Err(self);
        }
        let Weights::Real(vals) = self.vals else {
            unreachable!("checked real")
        };
        Ok(
            Csr::try_from_parts(self.nrows, self.ncols, self.ptr, self.cols, vals)
                .expect("rows checked sorted, columns in range"),
        )
    }

    /// The entries as arcs `row -> column` weighted by their values (unweighted for a
    /// pattern).
    pub(crate) fn edge_list(self) -> EdgeList {
        let ptr = &self.ptr;
        let mut g = EdgeList::new(self.nrows, self.ncols);
        g.src = (0..self.nrows)
            .into_par_iter()
            .flat_map_iter(|r| std::iter::repeat_n(r as u32, (ptr[r + 1] - ptr[r]) as usize))
            .collect();
        g.dst = self.cols;
        g.weights = self.vals;
        g
    }
}

/// Vertex ids for NumPy: int32 as SciPy's indices are (the library's "none", `u32::MAX`,
/// becomes -1 by the same bits, and the vector is reused in place), int64 for graphs of 2^31
/// vertices or more.
pub(crate) fn ids(py: Python<'_>, v: Vec<u32>, n: usize) -> Bound<'_, PyAny> {
    use numpy::IntoPyArray;
    use rayon::prelude::*;
    use semigraph_algos::{NO_PARENT, UNREACHED};
    use semigraph_semiring::NO_PRED;
    const { assert!(NO_PARENT == u32::MAX && UNREACHED == u32::MAX && NO_PRED == u32::MAX) };
    if n <= i32::MAX as usize {
        let v: Vec<i32> = v.into_iter().map(|x| x as i32).collect();
        v.into_pyarray(py).into_any()
    } else {
        let v: Vec<i64> = v
            .into_par_iter()
            .map(|x| if x == u32::MAX { -1 } else { x as i64 })
            .collect();
        v.into_pyarray(py).into_any()
    }
}
