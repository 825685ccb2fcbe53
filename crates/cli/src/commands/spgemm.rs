//! `semigraph spgemm A B`: `C<M> = A (+).(x) B` of two sparse matrices in any built-in semiring,
//! written in Matrix Market (entries equal to the semiring's zero are not stored), so that it
//! can be checked against any other tool.

use std::path::{Path, PathBuf};
use std::time::Instant;

use semigraph_algos::prelude::*;
use semigraph_formats::{Csr, EdgeList, Format, WeightValue};
use semigraph_semiring::{Scalar, ScalarType, Semiring};

use crate::args::{Common, RunOpts, semiring_parser};
use crate::checks::exact_product;
use crate::error::{CliError, Res};
use crate::files::csr_of;
use crate::files::load;
use crate::jobs::{Job, Lines, dispatch};
use crate::output::{Field, Header, Output, command_line};

/// The product C = A (+).(x) B of two sparse matrices, under an optional mask (`SpGEMM`), in
/// any built-in semiring, written in Matrix Market (entries equal to the semiring's zero
/// are not stored). The files' weights become semiring values (or-and and the secondi
/// semirings read the structure only).
#[derive(clap::Args, Clone, Debug)]
pub struct SpgemmArgs {
    /// The left matrix (any graph or matrix file).
    pub a: PathBuf,
    /// The right matrix.
    pub b: PathBuf,
    /// The semiring and its value type, as name:type.
    #[arg(long, default_value = "plus-times:f64", value_parser = semiring_parser())]
    pub semiring: String,
    /// Only where this matrix has an entry (with --complement: where it has none).
    #[arg(long)]
    pub mask: Option<PathBuf>,
    /// Complement the mask.
    #[arg(long, requires = "mask")]
    pub complement: bool,
    /// Multiply by B^T (B's rows as columns) instead of B.
    #[arg(long)]
    pub transpose_b: bool,
    #[command(flatten)]
    pub opts: RunOpts,
}

/// Runs `semigraph spgemm`.
pub(crate) fn exec(c: &Common, x: SpgemmArgs) -> Res<()> {
    if c.json {
        return Err(CliError(
            "spgemm writes Matrix Market; --json does not apply".into(),
        ));
    }
    let ga = load(&x.a, c)?;
    let gb = load(&x.b, c)?;
    let gm = match &x.mask {
        Some(m) => Some(load(m, c)?),
        None => None,
    };
    let mut h = Header::new(&command_line(), &x.a, &ga);
    let out = Output::new(c);
    let ran = semigraph_semiring::with_builtin!(&x.semiring, S => {
        let (hh, product) = dispatch(
            c,
            SpgemmJob::<S> {
                a: (&x.a, &ga),
                b: (&x.b, &gb),
                mask: x.mask.as_deref().zip(gm.as_ref()),
                complement: x.complement,
                transpose_b: x.transpose_b,
                _s: Default::default(),
            },
        )?;
        h.extend(hh);
        write_mtx(&out, h.fields(), &product)?;
    });
    match ran {
        Some(()) => Ok(()),
        None => Err(CliError(format!("no built-in semiring {}", x.semiring))),
    }
}

/// The operands of one product, read from files.
pub(crate) struct SpgemmJob<'a, S: Semiring> {
    pub(crate) a: (&'a Path, &'a EdgeList),
    pub(crate) b: (&'a Path, &'a EdgeList),
    pub(crate) mask: Option<(&'a Path, &'a EdgeList)>,
    pub(crate) complement: bool,
    pub(crate) transpose_b: bool,
    pub(crate) _s: std::marker::PhantomData<S>,
}

/// A matrix of semiring `S` from a file: semirings whose products read the structure only
/// (or-and, the secondi semirings: any weight means "an entry") take its pattern, as `spmv`
/// does.
fn matrix_of<S: Semiring>(file: &Path, g: &EdgeList) -> Res<Csr<S>>
where
    S::T: WeightValue,
{
    csr_of::<S>(file, g, S::reads_structure_only())
}

impl<S: Semiring> Job for SpgemmJob<'_, S>
where
    S::T: WeightValue,
{
    type Out = Csr<S>;
    fn file(&self) -> &Path {
        self.a.0
    }
    fn run<B: Frontier>(self, b: &B) -> Res<(Lines, Csr<S>)> {
        if matches!(
            S::T::TYPE,
            ScalarType::DistPredF32 | ScalarType::DistPredI32
        ) {
            return Err(CliError(format!(
                "spgemm: {} values (distance, predecessor) have no Matrix Market form",
                S::full_name()
            )));
        }
        let a = matrix_of::<S>(self.a.0, self.a.1)?;
        let bm = matrix_of::<S>(self.b.0, self.b.1)?;
        let opts = semigraph_formats::ConvertOptions::default();
        let t0 = Instant::now();
        let da = b.matrix(&a, Format::Csr, &opts)?;
        let mut db = b.matrix(&bm, Format::Csr, &opts)?;
        if self.transpose_b {
            db = b.transpose_matrix(&db)?;
        }
        let (bk, bn) = {
            let i = b.matrix_info(&db);
            (i.nrows, i.ncols)
        };
        if a.ncols() != bk {
            return Err(CliError(format!(
                "spgemm: A is {}x{} and B{} is {bk}x{bn}: the inner sizes differ",
                a.nrows(),
                a.ncols(),
                if self.transpose_b { "^T" } else { "" }
            )));
        }
        let (dm, host_mask) = match self.mask {
            Some((file, g)) => {
                let m = matrix_of::<S>(file, g)?;
                if (m.nrows(), m.ncols()) != (a.nrows(), bn) {
                    return Err(CliError(format!(
                        "{}: the mask is {}x{}, the product {}x{bn}",
                        file.display(),
                        m.nrows(),
                        m.ncols(),
                        a.nrows()
                    )));
                }
                (Some(b.matrix(&m, Format::Csr, &opts)?), Some(m))
            }
            None => (None, None),
        };
        let upload = t0.elapsed();
        // Every result the product keeps must be its exact value in S's type (B^T made on
        // the host only for semirings whose results are checked).
        let bt;
        let b_host = if self.transpose_b && semigraph_algos::exact::is_checked::<S>() {
            bt = bm.transpose();
            &bt
        } else {
            &bm
        };
        let label = |i: usize, j: usize| {
            format!(
                "entry ({}, {}) of the product is",
                self.a.1.vertex_label(i),
                self.b.1.vertex_label(j)
            )
        };
        exact_product::<S, S>(
            self.a.0,
            (&a, b_host, host_mask.as_ref().map(|m| (m, self.complement))),
            label,
        )?;
        let mask = match (&dm, self.complement) {
            (None, _) => MatrixMask::All,
            (Some(m), false) => MatrixMask::Keep(m),
            (Some(m), true) => MatrixMask::Skip(m),
        };
        let t1 = Instant::now();
        let c = b.spgemm(mask, &da, &db)?;
        b.synchronize()?;
        let time = t1.elapsed();
        let c = b.read_matrix(&c)?;
        semigraph_algos::exact::check_results::<S>(c.iter(), &[a.vals(), bm.vals()])
            .map_err(|e| CliError(format!("{}: {}", self.a.0.display(), e.message::<S>(label))))?;
        Ok((
            vec![
                Field::text("semiring", S::full_name()),
                Field::text(
                    "product",
                    format!(
                        "{}x{} ({} entries) = A {}x{} (+).(x) B{} {bk}x{bn}{}",
                        c.nrows(),
                        c.ncols(),
                        c.nnz(),
                        a.nrows(),
                        a.ncols(),
                        if self.transpose_b { "^T" } else { "" },
                        match (&self.mask, self.complement) {
                            (None, _) => String::new(),
                            (Some((f, _)), false) => format!(", masked by {}", f.display()),
                            (Some((f, _)), true) => format!(", masked by not {}", f.display()),
                        }
                    ),
                ),
                Field::with(
                    "time",
                    format!(
                        "{:.3} ms (one product; uploads {:.3} ms)",
                        time.as_secs_f64() * 1e3,
                        upload.as_secs_f64() * 1e3
                    ),
                    serde_json::json!({"ms": time.as_secs_f64() * 1e3, "upload_ms": upload.as_secs_f64() * 1e3}),
                ),
            ],
            c,
        ))
    }
}

/// Writes `c` in Matrix Market coordinate form (1-based), its header lines as `%` comments:
/// `pattern` for booleans, `integer` for integer types, `real` for floating point.
pub(crate) fn write_mtx<S: Semiring>(out: &Output, header: &[Field], c: &Csr<S>) -> Res<()>
where
    S::T: WeightValue,
{
    let field = match S::T::TYPE {
        ScalarType::Bool => "pattern",
        ScalarType::I32 | ScalarType::I64 | ScalarType::U32 | ScalarType::U64 => "integer",
        _ => "real",
    };
    out.write(|w| {
        writeln!(w, "%%MatrixMarket matrix coordinate {field} general")?;
        for f in header {
            writeln!(w, "% {}: {}", f.key, f.text)?;
        }
        writeln!(w, "{} {} {}", c.nrows(), c.ncols(), c.nnz())?;
        for (i, j, v) in c.iter() {
            if field == "pattern" {
                writeln!(w, "{} {}", i + 1, j + 1)?;
            } else {
                writeln!(w, "{} {} {}", i + 1, j + 1, v.text())?;
            }
        }
        Ok(())
    })
}
