//! `semigraph stats`: a matrix's structure statistics and the format recommended for it.

use std::path::PathBuf;

use semigraph_formats::Stats;
use serde_json::json;

use crate::args::{Common, ReportOpts};
use crate::error::{CliError, Res};
use crate::files::{csr_of, load};
use crate::output::{Output, command_line};

/// Structure statistics and the recommended format.
#[derive(clap::Args, Clone, Debug)]
pub struct StatsArgs {
    /// The graph file.
    pub file: PathBuf,
    #[command(flatten)]
    pub opts: ReportOpts,
}

/// Runs `semigraph stats`.
pub(crate) fn exec(c: &Common, a: StatsArgs) -> Res<()> {
    let file = &a.file;
    let g = load(file, c)?;
    let m = csr_of::<semigraph_semiring::OrAnd>(file, &g, true)?;
    let needed = Stats::host_bytes(m.nrows(), m.ncols());
    semigraph_formats::memory::check(needed).map_err(|(needed, available)| {
        CliError(format!(
            "{}: its statistics need {} of memory, {} are available; refused before \
             allocating",
            file.display(),
            semigraph_formats::error::fmt_bytes(needed),
            semigraph_formats::error::fmt_bytes(available)
        ))
    })?;
    let st = Stats::of(&m);
    let out = Output::new(c);
    out.write(|w| {
        if c.json {
            let x = &st.features;
            let v = json!({
                "file": file.display().to_string(),
                "rows": x.nrows, "cols": x.ncols, "nnz": x.nnz,
                "row_len": {"min": st.row_len_min, "max": x.row_len_max, "mean": x.row_len_mean, "stddev": x.row_len_stddev},
                "diagonals": x.diagonals, "bandwidth": x.bandwidth,
                "ell_fill": x.ell_fill, "dia_fill": x.dia_fill,
                "hyb": {"width": x.hyb_width, "coo_share": x.hyb_coo_share, "ell_fill": x.hyb_ell_fill},
                "recommended": st.recommended.name(), "reason": st.reason,
                "recommended_cpu": st.recommended_cpu.name(), "reason_cpu": st.reason_cpu,
            });
            writeln!(w, "{}", serde_json::to_string_pretty(&v).expect("serializable"))
        } else {
            writeln!(w, "# {}", command_line())?;
            writeln!(w, "{st}")
        }
    })?;
    Ok(())
}
