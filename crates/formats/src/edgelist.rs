//! [`EdgeList`]: a graph as read from a file or made by a generator, before it is given a
//! semiring and a format.

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use crate::coo::Coo;
use crate::csr::Csr;
use crate::error::FormatError;
use crate::index::{Index, check_fits};
use crate::rng::Rng;
use crate::weight::{Weight, WeightValue};

/// Edge weights as a file gives them.
#[derive(Clone, Debug, PartialEq)]
pub enum Weights {
    /// No weights (a pattern): each edge becomes `S::one()`.
    None,
    /// Signed integers.
    Int(Vec<i64>),
    /// Unsigned integers beyond `i64` (`uint64` Matrix Market files).
    UInt(Vec<u64>),
    /// Reals.
    Real(Vec<f64>),
}

impl Weights {
    /// The weight of edge `k`, `None` for a pattern.
    pub fn get(&self, k: usize) -> Option<Weight> {
        match self {
            Weights::None => None,
            Weights::Int(v) => Some(Weight::Int(v[k])),
            Weights::UInt(v) => Some(Weight::UInt(v[k])),
            Weights::Real(v) => Some(Weight::Real(v[k])),
        }
    }
    fn len(&self) -> Option<usize> {
        match self {
            Weights::None => None,
            Weights::Int(v) => Some(v.len()),
            Weights::UInt(v) => Some(v.len()),
            Weights::Real(v) => Some(v.len()),
        }
    }
}

/// How [`EdgeList::combine_parallel`] merges repeated arcs `u -> v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// The smallest weight (what min-plus does with parallel arcs).
    Min,
    /// The largest weight.
    Max,
    /// The sum of the weights (an error if an integer sum overflows).
    Sum,
    /// The weight of the first occurrence in the list.
    First,
}

crate::named_enum!(Combine { Min => "min", Max => "max", Sum => "sum", First => "first" });

impl std::str::FromStr for Combine {
    type Err = String;
    fn from_str(s: &str) -> Result<Combine, String> {
        use crate::Named;
        Combine::named(s).ok_or_else(|| format!("unknown combination {s:?} (min, max, sum, first)"))
    }
}

/// How to give weights to a graph (see [`EdgeList::assign_weights`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WeightSpec {
    /// Every edge weighs 1.
    Unit,
    /// Integers drawn uniformly from `lo..=hi`, from `seed`; an edge and its reverse may differ.
    Uniform {
        /// Smallest weight.
        lo: i64,
        /// Largest weight.
        hi: i64,
        /// Seed.
        seed: u64,
    },
}

/// A directed graph (or a rectangular matrix) as arcs `src[k] -> dst[k]` with optional
/// weights. Vertex ids are `0..nrows` for sources and `0..ncols` for targets.
///
/// Undirected inputs (symmetric Matrix Market, PACE, undirected GML) are expanded to both
/// arcs when read; [`EdgeList::symmetrize`] does the same on request (`--undirected`).
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeList {
    /// Rows (source vertices).
    pub nrows: usize,
    /// Columns (target vertices).
    pub ncols: usize,
    /// Source of each arc.
    pub src: Vec<u32>,
    /// Target of each arc.
    pub dst: Vec<u32>,
    /// Weights.
    pub weights: Weights,
    /// For files whose vertex ids are arbitrary labels (LDBC, GML, adjacency lists): the
    /// label of each vertex. Otherwise `None` and vertex `v` is written as `v + base`.
    pub labels: Option<Vec<i64>>,
    /// 0 or 1: how the input numbered its vertices (1 for DIMACS and Matrix Market).
    pub base: u8,
    /// The first weight of the file that is not a finite number (`inf`, `-inf`, `NaN`) and the
    /// line it is on, for algorithms that need finite weights to refuse the graph with the
    /// line (readers set it; `None` for generated graphs).
    pub first_nonfinite: Option<(u64, f64)>,
}

impl EdgeList {
    /// An empty graph on `n` vertices, 0-based.
    pub fn new(nrows: usize, ncols: usize) -> EdgeList {
        EdgeList {
            nrows,
            ncols,
            src: vec![],
            dst: vec![],
            weights: Weights::None,
            labels: None,
            base: 0,
            first_nonfinite: None,
        }
    }

    /// Number of arcs.
    pub fn len(&self) -> usize {
        self.src.len()
    }

    /// Whether there are no arcs.
    pub fn is_empty(&self) -> bool {
        self.src.is_empty()
    }

    /// The number of vertices of a graph (`max(nrows, ncols)`).
    pub fn num_vertices(&self) -> usize {
        self.nrows.max(self.ncols)
    }

    /// How vertex `v` is written in outputs: its label, or `v + base`.
    pub fn vertex_label(&self, v: usize) -> i64 {
        match &self.labels {
            Some(l) => l[v],
            None => v as i64 + self.base as i64,
        }
    }

    /// How each vertex of `vertices` is written ([`EdgeList::vertex_label`]): a result such as
    /// a path (`Bfs::path_to`, `ShortestPaths::path_to`, `Apsp::path`) in the file's own
    /// numbering.
    ///
    /// ```
    /// use semigraph_formats::EdgeList;
    ///
    /// let mut g = EdgeList::new(3, 3);
    /// g.labels = Some(vec![40, 10, 70]); // e.g. an LDBC file's person ids
    /// assert_eq!(g.labels_of(&[2, 0, 1]), vec![70, 40, 10]);
    /// g.labels = None;
    /// g.base = 1; // DIMACS and Matrix Market count from 1
    /// assert_eq!(g.labels_of(&[2, 0, 1]), vec![3, 1, 2]);
    /// ```
    pub fn labels_of(&self, vertices: &[u32]) -> Vec<i64> {
        vertices
            .iter()
            .map(|&v| self.vertex_label(v as usize))
            .collect()
    }

    /// The vertex written as `label` in the input (inverse of [`EdgeList::vertex_label`]).
    pub fn vertex_of_label(&self, label: i64) -> Option<usize> {
        match &self.labels {
            Some(l) => l.iter().position(|x| *x == label),
            None => {
                let v = label - self.base as i64;
                (v >= 0 && (v as usize) < self.num_vertices()).then_some(v as usize)
            }
        }
    }

    /// Adds the reverse of every arc that is not a self-loop (with the same weight).
    pub fn symmetrize(&mut self) {
        let n = self.len();
        for k in 0..n {
            if self.src[k] != self.dst[k] {
                self.src.push(self.dst[k]);
                self.dst.push(self.src[k]);
                match &mut self.weights {
                    Weights::None => {}
                    Weights::Int(w) => w.push(w[k]),
                    Weights::UInt(w) => w.push(w[k]),
                    Weights::Real(w) => w.push(w[k]),
                }
            }
        }
        let n = self.num_vertices();
        self.nrows = n;
        self.ncols = n;
    }

    /// Merges repeated arcs `u -> v` into one, with the weight `how` says; arcs come out
    /// sorted by `(u, v)`. Returns how many arcs were removed.
    ///
    /// # Errors
    /// [`FormatError::InvalidStructure`] if an integer sum overflows.
    pub fn combine_parallel(&mut self, how: Combine) -> Result<usize, FormatError> {
        let m = self.len();
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_by_key(|&k| (self.src[k], self.dst[k]));
        let mut keep: Vec<usize> = Vec::with_capacity(m);
        let mut groups: Vec<(usize, usize)> = Vec::with_capacity(m); // (start, end) in `order`
        let mut i = 0;
        while i < m {
            let mut j = i + 1;
            while j < m
                && (self.src[order[j]], self.dst[order[j]])
                    == (self.src[order[i]], self.dst[order[i]])
            {
                j += 1;
            }
            keep.push(order[i]);
            groups.push((i, j));
            i = j;
        }
        let overflow = || FormatError::InvalidStructure {
            format: crate::Format::Coo,
            reason: "the sum of repeated arcs overflows 64-bit integers".into(),
        };
        fn fold<T: Copy>(
            vals: &[T],
            idx: &[usize],
            how: Combine,
            min: fn(T, T) -> T,
            max: fn(T, T) -> T,
            sum: fn(T, T) -> Option<T>,
        ) -> Option<T> {
            let mut acc = vals[idx[0]];
            for &k in &idx[1..] {
                acc = match how {
                    Combine::Min => min(acc, vals[k]),
                    Combine::Max => max(acc, vals[k]),
                    Combine::Sum => sum(acc, vals[k])?,
                    Combine::First => acc,
                };
            }
            Some(acc)
        }
        let weights = match &self.weights {
            Weights::None => Weights::None,
            Weights::Int(w) => Weights::Int(
                groups
                    .iter()
                    .map(|&(a, b)| {
                        fold(w, &order[a..b], how, i64::min, i64::max, i64::checked_add)
                            .ok_or_else(overflow)
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Weights::UInt(w) => Weights::UInt(
                groups
                    .iter()
                    .map(|&(a, b)| {
                        fold(w, &order[a..b], how, u64::min, u64::max, u64::checked_add)
                            .ok_or_else(overflow)
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Weights::Real(w) => Weights::Real(
                groups
                    .iter()
                    .map(|&(a, b)| {
                        fold(w, &order[a..b], how, f64::min, f64::max, |x, y| Some(x + y))
                            .expect("real sums do not fail")
                    })
                    .collect(),
            ),
        };
        self.src = keep.iter().map(|&k| self.src[k]).collect();
        self.dst = keep.iter().map(|&k| self.dst[k]).collect();
        self.weights = weights;
        Ok(m - self.len())
    }

    /// Puts the arcs in CSR order (by source, then target), on every core: parallel arcs stay
    /// side by side in list order, nothing is combined. Arcs already in that order are left
    /// as they are.
    pub fn sort_csr_order(&mut self) {
        let (src, dst) = (&self.src, &self.dst);
        let sorted = (1..src.len())
            .into_par_iter()
            .with_min_len(1 << 16)
            .all(|k| (src[k - 1], dst[k - 1]) <= (src[k], dst[k]));
        if sorted {
            return;
        }
        let order = crate::build::csr_order(src, dst);
        let permute = |v: &[u32]| order.par_iter().map(|&k| v[k]).collect();
        self.src = permute(&self.src);
        self.dst = permute(&self.dst);
        self.weights = match std::mem::replace(&mut self.weights, Weights::None) {
            Weights::None => Weights::None,
            Weights::Int(w) => Weights::Int(order.par_iter().map(|&k| w[k]).collect()),
            Weights::UInt(w) => Weights::UInt(order.par_iter().map(|&k| w[k]).collect()),
            Weights::Real(w) => Weights::Real(order.par_iter().map(|&k| w[k]).collect()),
        };
    }

    /// Replaces the weights (unit, or seeded uniform integers): for benchmarks on
    /// unweighted inputs.
    pub fn assign_weights(&mut self, spec: WeightSpec) {
        self.first_nonfinite = None;
        self.weights = Weights::Int(match spec {
            WeightSpec::Unit => vec![1; self.len()],
            WeightSpec::Uniform { lo, hi, seed } => {
                assert!(lo <= hi, "empty weight range {lo}..={hi}");
                let rng = Rng::new(seed);
                // hi - lo + 1 in 128 bits: the whole i64 range spans 2^64 values.
                let span = (hi as i128 - lo as i128 + 1) as u128;
                (0..self.len() as u64)
                    .map(|k| {
                        let off = if span > u64::MAX as u128 {
                            rng.at(k)
                        } else {
                            rng.below(k, span as u64)
                        };
                        (lo as i128 + off as i128) as i64
                    })
                    .collect()
            }
        });
    }

    /// Checks the arrays agree (for lists built by hand).
    pub fn validate(&self) -> Result<(), FormatError> {
        let bad = |reason: String| FormatError::InvalidStructure {
            format: crate::Format::Coo,
            reason,
        };
        if self.src.len() != self.dst.len()
            || self.weights.len().is_some_and(|l| l != self.src.len())
        {
            return Err(bad("src, dst and weights differ in length".into()));
        }
        self.check_bounds()
    }

    /// Checks every arc lies inside `nrows x ncols`.
    fn check_bounds(&self) -> Result<(), FormatError> {
        crate::arcs::check_arcs(self.nrows, self.ncols, &self.src, &self.dst)
    }

    /// Bytes that [`EdgeList::to_csr`] and [`EdgeList::to_pattern_csr`] allocate at their
    /// peak for a matrix of `T` values and `I` indices (the result included; the edge list
    /// itself is already held). Both refuse, with this figure and the bytes available, a
    /// matrix the machine cannot hold, before allocating.
    pub fn csr_bytes<T, I: Index>(&self) -> u64 {
        crate::build::csr_build_bytes::<I>(
            self.nrows,
            self.ncols,
            self.len(),
            std::mem::size_of::<T>(),
        )
    }

    /// Whether the arcs are in CSR order (by source, then target): a binary CSR file's, a
    /// sorted list's. [`EdgeList::to_csr`] then builds in one pass; one pass to find out, on
    /// every core, that stops at the first piece out of order (a text file's arcs: at once).
    ///
    /// ```
    /// use semigraph_formats::EdgeList;
    /// let mut g = EdgeList::new(3, 3);
    /// (g.src, g.dst) = (vec![0, 0, 2], vec![1, 2, 0]);
    /// assert!(g.in_csr_order());
    /// (g.src, g.dst) = (vec![2, 0], vec![0, 1]);
    /// assert!(!g.in_csr_order());
    /// ```
    pub fn in_csr_order(&self) -> bool {
        crate::arcs::arcs_sorted(&self.src, &self.dst)
    }

    /// The weights as values of `S`, one per arc in list order (on every core); `None` for a
    /// list without weights (every arc `S::one()`). The values
    /// [`EdgeList::to_csr`] combines, for a matrix built elsewhere (on a GPU:
    /// `Objects::matrix_from_arcs`).
    ///
    /// # Errors
    /// [`FormatError::BadValue`] naming the first arc whose weight `S::T` cannot represent;
    /// [`FormatError::TooLarge`] when the values do not fit.
    ///
    /// ```
    /// use semigraph_formats::{EdgeList, Weights};
    /// use semigraph_semiring::MinPlus;
    /// let mut g = EdgeList::new(3, 3);
    /// (g.src, g.dst, g.weights) = (vec![0, 1], vec![1, 2], Weights::Real(vec![2.5, 4.0]));
    /// assert_eq!(g.values::<MinPlus<f64>>()?, Some(vec![2.5, 4.0]));
    /// assert!(g.values::<MinPlus<i32>>().is_err()); // 2.5 is no i32
    /// # Ok::<(), semigraph_formats::FormatError>(())
    /// ```
    pub fn values<S: Semiring>(&self) -> Result<Option<Vec<S::T>>, FormatError>
    where
        S::T: WeightValue,
    {
        if self.weights.len().is_none() {
            return Ok(None);
        }
        let m = self.len();
        crate::error::check(m as u64 * std::mem::size_of::<S::T>() as u64, || {
            format!("the values of {m} arcs")
        })?;
        let all = (0..m)
            .into_par_iter()
            .with_min_len(1 << 14)
            .map(|k| self.value_of::<S>(k))
            .collect::<Result<Vec<_>, _>>();
        match all {
            Ok(v) => Ok(Some(v)),
            // The first bad arc in list order (the parallel collect reports any).
            Err(e) => Err((0..m)
                .find_map(|k| self.value_of::<S>(k).err())
                .unwrap_or(e)),
        }
    }

    /// The value of arc `k` in `S`, or the error naming the arc.
    fn value_of<S: Semiring>(&self, k: usize) -> Result<S::T, FormatError>
    where
        S::T: WeightValue,
    {
        match self.weights.get(k) {
            None => Ok(S::one()),
            Some(w) => S::T::from_weight(w).ok_or_else(|| FormatError::BadValue {
                row: self.src[k] as usize,
                col: self.dst[k] as usize,
                value: w.to_string(),
                ty: <S::T as semigraph_semiring::Scalar>::TYPE.name(),
            }),
        }
    }

    /// The adjacency matrix in COO: `A[src][dst] = weight` (or `S::one()` for a pattern).
    /// Errors if a weight cannot be represented in `S::T`, the size overflows `I`, or the
    /// machine does not have the memory.
    pub fn to_coo<S: Semiring, I: Index>(&self) -> Result<Coo<S, I>, FormatError>
    where
        S::T: WeightValue,
    {
        self.validate()?;
        check_fits::<I>(self.nrows, self.ncols, self.len())?;
        let i = std::mem::size_of::<I>() as u64;
        let t = std::mem::size_of::<S::T>() as u64;
        crate::error::check((self.len() as u64).saturating_mul(2 * i + t), || {
            format!(
                "a {} x {} matrix with {} entries",
                self.nrows,
                self.ncols,
                self.len()
            )
        })?;
        let mut vals = crate::error::filled(self.len(), S::zero(), "values")?;
        for (k, v) in vals.iter_mut().enumerate() {
            *v = self.value_of::<S>(k)?;
        }
        let cast = |v: &Vec<u32>| -> Result<Vec<I>, FormatError> {
            let mut out = crate::error::filled(v.len(), I::default(), "indices")?;
            for (o, &x) in out.iter_mut().zip(v) {
                *o = I::try_from_usize(x as usize).expect("checked");
            }
            Ok(out)
        };
        Coo::try_from_triplets(
            self.nrows,
            self.ncols,
            cast(&self.src)?,
            cast(&self.dst)?,
            vals,
        )
    }

    /// The adjacency matrix in CSR, repeated arcs combined with `S::add` in the order they
    /// are listed. Errors if a weight cannot be represented in `S::T`, the size overflows
    /// `I`, or the machine does not have the memory ([`EdgeList::csr_bytes`], refused before
    /// allocating).
    pub fn to_csr<S: Semiring, I: Index>(&self) -> Result<Csr<S, I>, FormatError>
    where
        S::T: WeightValue,
    {
        self.validate()?;
        let values = match self.weights {
            Weights::None => crate::build::ArcValues::Same(S::one()),
            _ => crate::build::ArcValues::Map(&|k| self.value_of::<S>(k)),
        };
        crate::build::csr_from_arcs(self.nrows, self.ncols, &self.src, &self.dst, values)
    }

    /// The pattern of the adjacency matrix in CSR: every arc `S::one()`, weights ignored,
    /// parallel arcs combined with `S::add`. Errors as [`EdgeList::to_csr`].
    pub fn to_pattern_csr<S: Semiring, I: Index>(&self) -> Result<Csr<S, I>, FormatError> {
        let n = self.src.len();
        if self.dst.len() != n {
            return Err(FormatError::InvalidStructure {
                format: crate::Format::Coo,
                reason: "src and dst differ in length".into(),
            });
        }
        self.check_bounds()?;
        let one = crate::build::ArcValues::Same(S::one());
        crate::build::csr_from_arcs(self.nrows, self.ncols, &self.src, &self.dst, one)
    }

    /// The arcs of a matrix, with its values as weights (for writing it out).
    pub fn from_csr<S: Semiring, I: Index>(a: &Csr<S, I>) -> Result<EdgeList, FormatError>
    where
        S::T: WeightValue,
    {
        let mut e = EdgeList::new(a.nrows(), a.ncols());
        u32::from_usize_or(a.nrows(), "rows")?;
        u32::from_usize_or(a.ncols(), "columns")?;
        let mut ints = Vec::new();
        let mut reals = Vec::new();
        for (i, j, v) in a.iter() {
            e.src.push(i as u32);
            e.dst.push(j as u32);
            match v.to_weight() {
                Weight::Int(x) => ints.push(x),
                Weight::UInt(x) => ints.push(x as i64),
                Weight::Real(x) => reals.push(x),
            }
        }
        e.weights = if reals.is_empty() {
            Weights::Int(ints)
        } else {
            Weights::Real(reals)
        };
        Ok(e)
    }
}
