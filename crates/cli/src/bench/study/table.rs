//! The study's table: one [`Measured`] row per matrix x backend x semiring x variant, as CSV;
//! the selectors compared on it; the summary (per backend and semiring: for each selector the
//! geometric mean of oracle time over chosen time, the worst matrix, and how often it chose
//! the fastest variant).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use semigraph_formats::{Features, Format, Stats};
use semigraph_gpu::{CsrKernel, RowShape};
use serde_json::json;

use super::manifest::{Entry, Set};
use crate::error::{CliError, Res};

/// The CSV header.
const HEADER: &str = "matrix,structure,set,rows,cols,nnz,row_len_mean,row_len_max,row_len_stddev,\
empty_rows,diagonals,bandwidth,ell_fill,dia_fill,hyb_width,hyb_coo_share,hyb_ell_fill,\
backend,semiring,variant,median_ms,min_ms,runs,check";

/// One measured (or refused) variant.
#[derive(Clone, Debug)]
pub(crate) struct Measured {
    pub matrix: String,
    pub structure: String,
    pub set: Set,
    pub features: Features,
    pub backend: String,
    pub semiring: String,
    pub variant: String,
    /// NaN when the variant was refused (its conversion exceeded a limit).
    pub median_ms: f64,
    pub min_ms: f64,
    pub runs: usize,
    /// `ok`, what differs from the CPU reference, or `refused: why`.
    pub check: String,
}

impl Measured {
    /// A row template for entry `e`.
    pub(crate) fn base(e: &Entry, features: Features) -> Measured {
        Measured {
            matrix: e.name.clone(),
            structure: e.structure.clone(),
            set: e.set,
            features,
            backend: String::new(),
            semiring: String::new(),
            variant: String::new(),
            median_ms: f64::NAN,
            min_ms: f64::NAN,
            runs: 0,
            check: String::new(),
        }
    }

    /// A timed variant.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn timed(
        &self,
        backend: &str,
        semiring: &str,
        variant: &str,
        median_ms: f64,
        min_ms: f64,
        runs: usize,
        check: &str,
    ) -> Measured {
        Measured {
            backend: backend.into(),
            semiring: semiring.into(),
            variant: variant.into(),
            median_ms,
            min_ms,
            runs,
            check: check.into(),
            ..self.clone()
        }
    }

    /// A variant whose conversion was refused.
    pub(crate) fn refused(
        &self,
        backend: &str,
        semiring: &str,
        variant: &str,
        why: &str,
    ) -> Measured {
        self.timed(
            backend,
            semiring,
            variant,
            f64::NAN,
            f64::NAN,
            0,
            &format!("refused: {why}"),
        )
    }

    /// Whether the variant ran and matched the reference.
    pub(crate) fn usable(&self) -> bool {
        self.median_ms.is_finite() && self.check == "ok"
    }
}

/// A field of a CSV line: commas and line breaks become `;` and spaces.
fn field(s: &str) -> String {
    s.replace(',', ";").replace(['\n', '\r'], " ")
}

/// The rows as CSV text.
pub(crate) fn to_csv(rows: &[Measured]) -> String {
    let mut s = String::from(HEADER);
    s.push('\n');
    for r in rows {
        let f = &r.features;
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            field(&r.matrix),
            field(&r.structure),
            r.set.name(),
            f.nrows,
            f.ncols,
            f.nnz,
            f.row_len_mean,
            f.row_len_max,
            f.row_len_stddev,
            f.empty_rows,
            f.diagonals,
            f.bandwidth,
            f.ell_fill,
            f.dia_fill,
            f.hyb_width,
            f.hyb_coo_share,
            f.hyb_ell_fill,
            r.backend,
            r.semiring,
            r.variant,
            r.median_ms,
            r.min_ms,
            r.runs,
            field(&r.check)
        ));
    }
    s
}

/// Reads a CSV written by [`to_csv`]; errors name the file and line.
pub(crate) fn read_csv(path: &Path) -> Res<Vec<Measured>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, h)) if h.trim() == HEADER => {}
        _ => {
            return Err(CliError(format!(
                "{}:1: not a `bench formats` table (header differs)",
                path.display()
            )));
        }
    }
    let mut rows = Vec::new();
    for (k, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let at = |what: &str| CliError(format!("{}:{}: {what}", path.display(), k + 1));
        let c: Vec<&str> = line.split(',').collect();
        if c.len() != 24 {
            return Err(at(&format!("{} fields, expected 24", c.len())));
        }
        let u = |i: usize| {
            c[i].parse::<usize>()
                .map_err(|_| at(&format!("field {}: {:?}", i + 1, c[i])))
        };
        let x = |i: usize| {
            c[i].parse::<f64>()
                .map_err(|_| at(&format!("field {}: {:?}", i + 1, c[i])))
        };
        rows.push(Measured {
            matrix: c[0].into(),
            structure: c[1].into(),
            set: Set::parse(c[2]).ok_or_else(|| at("set: fit or holdout"))?,
            features: Features {
                nrows: u(3)?,
                ncols: u(4)?,
                nnz: u(5)?,
                row_len_mean: x(6)?,
                row_len_max: u(7)?,
                row_len_stddev: x(8)?,
                empty_rows: u(9)?,
                diagonals: u(10)?,
                bandwidth: u(11)?,
                ell_fill: x(12)?,
                dia_fill: x(13)?,
                hyb_width: u(14)?,
                hyb_coo_share: x(15)?,
                hyb_ell_fill: x(16)?,
            },
            backend: c[17].into(),
            semiring: c[18].into(),
            variant: c[19].into(),
            median_ms: x(20)?,
            min_ms: x(21)?,
            runs: u(22)?,
            check: c[23].into(),
        });
    }
    Ok(rows)
}

/// A way to choose a variant from a matrix's features, on a backend.
pub(crate) struct Selector {
    pub name: &'static str,
    pub choose: fn(&Features, &str) -> String,
}

/// The CSR variant a backend runs for `f` when CSR is chosen: the GPU's automatic kernel.
fn csr_on(f: &Features, backend: &str) -> String {
    if backend == "gpu" {
        format!(
            "csr/{}",
            CsrKernel::choose(&RowShape::from_features(f)).name()
        )
    } else {
        "csr".into()
    }
}

fn with_csr(format: Format, f: &Features, backend: &str) -> String {
    if format == Format::Csr {
        csr_on(f, backend)
    } else {
        format.name().into()
    }
}

/// The hand-set rules the study replaced (semigraph before the study), as the baseline:
/// dense when a quarter of the values are entries (at most 2^26 values); DIA, then ELL, when
/// they store at most 1.5 values per entry; HYB when its ELL part stores at most 1.5 values per
/// ELL entry and its COO tail holds at most a third of the entries; CSR otherwise, with the
/// GPU kernel adaptive for rows over 1,024 and 64 times the mean, a thread per row up to 16,
/// else a sub-warp as wide as the mean (rounded up to a power of two, 2 to 32).
fn rules_before(f: &Features, backend: &str) -> String {
    let cells = f.nrows as f64 * f.ncols as f64;
    let format = if f.nnz == 0 {
        Format::Csr
    } else if cells <= (1u64 << 26) as f64 && f.nnz as f64 >= 0.25 * cells {
        Format::Dense
    } else if f.dia_fill <= 1.5 {
        Format::Dia
    } else if f.ell_fill <= 1.5 {
        Format::Ell
    } else if f.hyb_width > 0 && f.hyb_ell_fill <= 1.5 && f.hyb_coo_share <= 1.0 / 3.0 {
        Format::Hyb
    } else {
        Format::Csr
    };
    if format != Format::Csr {
        return format.name().into();
    }
    if backend != "gpu" {
        return "csr".into();
    }
    let avg = f.nnz as f64 / f.nrows.max(1) as f64;
    let k = if f.row_len_max > 1024 && f.row_len_max as f64 > 64.0 * avg.max(1.0) {
        CsrKernel::Adaptive
    } else if f.row_len_max <= 16 {
        CsrKernel::Scalar
    } else {
        CsrKernel::Vector((avg.ceil() as u32).next_power_of_two().clamp(2, 32))
    };
    format!("csr/{}", k.name())
}

/// The selectors compared: the library's automatic choice, the hand rules it replaced, the
/// classic CUSP HYB/ELL choice, and each format alone (CSR with the automatic kernel).
pub(crate) fn selectors() -> Vec<Selector> {
    vec![
        Selector {
            name: "auto (library)",
            choose: |f, b| with_csr(Stats::choose_format(f, b == "gpu").0, f, b),
        },
        Selector {
            name: "hand rules (before)",
            choose: rules_before,
        },
        Selector {
            name: "CUSP HYB/ELL",
            choose: |f, _| if f.hyb_coo_share == 0.0 { "ell" } else { "hyb" }.into(),
        },
        Selector {
            name: "always csr",
            choose: csr_on,
        },
        Selector {
            name: "always ell",
            choose: |_, _| "ell".into(),
        },
        Selector {
            name: "always dia",
            choose: |_, _| "dia".into(),
        },
        Selector {
            name: "always coo",
            choose: |_, _| "coo".into(),
        },
        Selector {
            name: "always hyb",
            choose: |_, _| "hyb".into(),
        },
    ]
}

/// One matrix of one (backend, semiring) group: its features, set and variant times.
pub(crate) struct Case {
    pub matrix: String,
    pub structure: String,
    pub set: Set,
    pub features: Features,
    /// Usable variants and their median times.
    pub times: BTreeMap<String, f64>,
}

impl Case {
    /// The fastest variant and its time.
    pub(crate) fn best(&self) -> Option<(&str, f64)> {
        self.times
            .iter()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map(|(v, &t)| (v.as_str(), t))
    }
}

/// Groups usable rows by (backend, semiring), then by matrix (in table order).
pub(crate) fn cases(rows: &[Measured]) -> BTreeMap<(String, String), Vec<Case>> {
    let mut out: BTreeMap<(String, String), Vec<Case>> = BTreeMap::new();
    for r in rows {
        let group = out
            .entry((r.backend.clone(), r.semiring.clone()))
            .or_default();
        let i = match group.iter().position(|c| c.matrix == r.matrix) {
            Some(i) => i,
            None => {
                group.push(Case {
                    matrix: r.matrix.clone(),
                    structure: r.structure.clone(),
                    set: r.set,
                    features: r.features,
                    times: BTreeMap::new(),
                });
                group.len() - 1
            }
        };
        if r.usable() {
            group[i].times.insert(r.variant.clone(), r.median_ms);
        }
    }
    out.retain(|_, v| {
        v.retain(|c| !c.times.is_empty());
        !v.is_empty()
    });
    out
}

/// A selector's record on a group of matrices.
pub(crate) struct Score {
    pub selector: &'static str,
    /// Geometric mean of oracle time / chosen time (1 = always the fastest).
    pub geomean: f64,
    /// The smallest ratio, and its matrix.
    pub worst: (f64, String),
    /// Matrices where it chose the fastest variant.
    pub best: usize,
    /// Matrices where it came within 2% of the fastest.
    pub within_2pct: usize,
    /// Matrices where its choice was refused or did not run (scored 0 in `worst`, left out of
    /// the geometric mean).
    pub infeasible: usize,
    pub matrices: usize,
}

/// Scores `sel` on `cases` (of one backend).
pub(crate) fn score(sel: &Selector, backend: &str, cases: &[&Case]) -> Score {
    let mut log_sum = 0.0;
    let mut counted = 0usize;
    let mut s = Score {
        selector: sel.name,
        geomean: f64::NAN,
        worst: (f64::INFINITY, String::new()),
        best: 0,
        within_2pct: 0,
        infeasible: 0,
        matrices: cases.len(),
    };
    for c in cases {
        let Some((best_v, best_t)) = c.best() else {
            continue;
        };
        let pick = (sel.choose)(&c.features, backend);
        let ratio = match c.times.get(&pick) {
            Some(&t) => best_t / t,
            None => {
                s.infeasible += 1;
                0.0
            }
        };
        if ratio > 0.0 {
            log_sum += ratio.ln();
            counted += 1;
        }
        s.best += (pick == best_v) as usize;
        s.within_2pct += (ratio >= 1.0 / 1.02) as usize;
        if ratio < s.worst.0 {
            s.worst = (ratio, c.matrix.clone());
        }
    }
    if counted > 0 {
        s.geomean = (log_sum / counted as f64).exp();
    }
    s
}

/// The summary: per (backend, semiring) and set (all, fit, holdout), every selector's score.
pub(crate) struct Summary {
    pub groups: Vec<(String, String, &'static str, Vec<Score>)>,
}

pub(crate) fn summarize(rows: &[Measured]) -> Summary {
    let sels = selectors();
    let mut groups = Vec::new();
    for ((backend, semiring), cs) in cases(rows) {
        for (set_name, keep) in [
            ("all", None),
            ("fit", Some(Set::Fit)),
            ("holdout", Some(Set::Holdout)),
        ] {
            let chosen: Vec<&Case> = cs
                .iter()
                .filter(|c| keep.is_none_or(|k| c.set == k))
                .collect();
            if chosen.is_empty() {
                continue;
            }
            let scores = sels.iter().map(|s| score(s, &backend, &chosen)).collect();
            groups.push((backend.clone(), semiring.clone(), set_name, scores));
        }
    }
    Summary { groups }
}

/// The summary as text tables.
pub(crate) fn write_summary(w: &mut dyn Write, s: &Summary) -> std::io::Result<()> {
    writeln!(
        w,
        "# oracle time / chosen time over the matrices: geometric mean, worst (matrix), chose the fastest, within 2%"
    )?;
    for (backend, semiring, set, scores) in &s.groups {
        let n = scores.first().map_or(0, |x| x.matrices);
        writeln!(w, "\n## {backend} {semiring}, {set} ({n} matrices)")?;
        writeln!(
            w,
            "{:<20} {:>8} {:>8}  {:<24} {:>8} {:>8} {:>10}",
            "selector", "geomean", "worst", "worst matrix", "fastest", "<=2%", "infeasible"
        )?;
        for x in scores {
            writeln!(
                w,
                "{:<20} {:>8.3} {:>8.3}  {:<24} {:>8} {:>8} {:>10}",
                x.selector, x.geomean, x.worst.0, x.worst.1, x.best, x.within_2pct, x.infeasible
            )?;
        }
    }
    Ok(())
}

/// The summary as JSON.
pub(crate) fn summary_json(s: &Summary) -> serde_json::Value {
    json!(
        s.groups
            .iter()
            .map(|(backend, semiring, set, scores)| json!({
                "backend": backend, "semiring": semiring, "set": set,
                "selectors": scores.iter().map(|x| json!({
                    "selector": x.selector, "geomean": x.geomean, "worst": x.worst.0,
                    "worst_matrix": x.worst.1, "fastest": x.best, "within_2pct": x.within_2pct,
                    "infeasible": x.infeasible, "matrices": x.matrices,
                })).collect::<Vec<_>>(),
            }))
            .collect::<Vec<_>>()
    )
}
