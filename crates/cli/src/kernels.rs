//! The LDBC Graphalytics kernels as commands (`pagerank`, `wcc`, `cdlp`, `lcc`, `tc`): one job
//! that runs the chosen kernel on the chosen backend, and the writer of its per-vertex values
//! in the file's numbering.

use std::time::Instant;

use semigraph_algos::{
    Frontier, GraphOptions, PageRankOptions, lcc, pagerank, triangle_count, triangles_per_vertex,
    wcc,
};
use semigraph_formats::EdgeList;
use semigraph_semiring::OrAnd;
use serde_json::json;

use crate::Res;
use crate::checks::plan_with;
use crate::jobs::{
    Built, Job, Lines, Prepared, arcs_for_the_device, builds_from_arcs, job_graph, ms,
};
use crate::output::{Field, Header, Output, fmt_duration, json_number};

/// Which kernel a [`KernelJob`] runs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GraphKernel {
    /// PageRank with these options.
    PageRank(PageRankOptions),
    /// Weakly connected components.
    Wcc,
    /// Community detection by label propagation, this many iterations.
    Cdlp(usize),
    /// Local clustering coefficients.
    Lcc,
    /// Triangles, per vertex and in total.
    Tc,
}

impl GraphKernel {
    /// The command's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            GraphKernel::PageRank(_) => "pagerank",
            GraphKernel::Wcc => "wcc",
            GraphKernel::Cdlp(_) => "cdlp",
            GraphKernel::Lcc => "lcc",
            GraphKernel::Tc => "tc",
        }
    }
}

/// A kernel's per-vertex values, as they are written.
pub(crate) enum Values {
    /// Reals (ranks, coefficients), written as the shortest text that reads back as the
    /// value (`real_text`): printed values are the values.
    Real(Vec<f64>),
    /// Vertex ids in the file's numbering (component and community labels) or counts.
    Int(Vec<i64>),
}

/// Runs one kernel on a graph file's arcs (their weights are not read).
pub(crate) struct KernelJob<'a> {
    pub(crate) file: &'a std::path::Path,
    pub(crate) g: &'a EdgeList,
    pub(crate) kernel: GraphKernel,
    /// The pattern of `g`, once [`Job::prepare`] built it.
    pub(crate) csr: Prepared<OrAnd>,
}

impl Job for KernelJob<'_> {
    type Out = Values;
    fn file(&self) -> &std::path::Path {
        self.file
    }
    fn prepare(&mut self, gpu: bool) -> Res<()> {
        // A GPU builds the CSR from unsorted arcs itself (`Graph::from_arcs`).
        if arcs_for_the_device(gpu, self.g) {
            return Ok(());
        }
        self.csr.build(self.file, self.g)
    }
    fn run<B: Frontier>(self, b: &B) -> Res<(Lines, Values)> {
        // Every kernel reads A^T (PageRank's pulls, the others' undirected graph): built with
        // the graph, on the host.
        let pull = true;
        use semigraph_algos::memory::{Kernel, kernel_host_bytes};
        let kernel = match self.kernel {
            GraphKernel::PageRank(_) => Kernel::PageRank,
            GraphKernel::Wcc => Kernel::Wcc,
            GraphKernel::Cdlp(_) => Kernel::Cdlp,
            GraphKernel::Lcc => Kernel::Lcc,
            GraphKernel::Tc => Kernel::Triangles,
        };
        let n = self.g.num_vertices();
        let threads = rayon::current_num_threads();
        plan_with(
            b,
            self.g,
            size_of::<f64>(),
            (pull, false),
            self.csr.is_built() || builds_from_arcs(b, self.g, Some(&self.csr)),
            kernel_host_bytes(b.kind(), kernel, n, self.g.len(), threads),
        )?;
        let opts = GraphOptions {
            pull,
            ..Default::default()
        };
        let Built {
            graph: gr, build, ..
        } = job_graph(b, self.file, self.g, Some(self.csr), true, opts)?;
        let t1 = Instant::now();
        let mut lines = Vec::new();
        let values = match self.kernel {
            GraphKernel::PageRank(opts) => {
                let pr = pagerank(&gr, &opts)?;
                let delta = pr.delta.map_or("-".into(), |d| format!("{d:.3e}"));
                lines.push(Field::with(
                    "iterations",
                    format!(
                        "{} (damping {}, last L1 change {delta})",
                        pr.iterations, opts.damping
                    ),
                    json!({"iterations": pr.iterations, "damping": opts.damping,
                        "delta": pr.delta}),
                ));
                Values::Real(pr.ranks)
            }
            GraphKernel::Wcc => {
                let c = wcc(&gr)?;
                lines.push(Field::with(
                    "components",
                    format!("{} ({} rounds)", c.count(), c.rounds),
                    json!({"components": c.count(), "rounds": c.rounds}),
                ));
                Values::Int(smallest_label(self.g, &c.labels))
            }
            GraphKernel::Cdlp(iterations) => {
                // Ties go to the smallest label: labels start as the vertices' ranks among
                // their ids (an LDBC file's ids need not follow its order), mapped back after.
                let n = self.g.num_vertices();
                let mut by_id: Vec<u32> = (0..n as u32).collect();
                by_id.sort_by_key(|&v| self.g.vertex_label(v as usize));
                let mut rank = vec![0u32; n];
                for (r, &v) in by_id.iter().enumerate() {
                    rank[v as usize] = r as u32;
                }
                let c = semigraph_algos::cdlp_from(&gr, &rank, iterations)?;
                lines.push(Field::with(
                    "iterations",
                    iterations.to_string(),
                    json!(iterations),
                ));
                Values::Int(
                    c.iter()
                        .map(|&l| self.g.vertex_label(by_id[l as usize] as usize))
                        .collect(),
                )
            }
            GraphKernel::Lcc => Values::Real(lcc(&gr)?),
            GraphKernel::Tc => {
                let total = triangle_count(&gr)?;
                let per = triangles_per_vertex(&gr)?;
                lines.push(Field::with("triangles", total.to_string(), json!(total)));
                Values::Int(per.into_iter().map(|t| t as i64).collect())
            }
        };
        let run = t1.elapsed();
        crate::process::keep_until_exit(gr);
        lines.push(Field::with(
            "time",
            format!(
                "build {}, {} {}",
                fmt_duration(build),
                self.kernel.name(),
                fmt_duration(run)
            ),
            json!({"build_ms": ms(build), "run_ms": ms(run)}),
        ));
        Ok((lines, values))
    }
}

/// Component labels (the smallest vertex index of each component) as the smallest vertex id
/// of the component in the file's numbering (an LDBC file's ids need not follow its order).
pub(crate) fn smallest_label(g: &EdgeList, labels: &[u32]) -> Vec<i64> {
    let mut best: Vec<i64> = vec![i64::MAX; labels.len()];
    for (v, &l) in labels.iter().enumerate() {
        let b = &mut best[l as usize];
        *b = (*b).min(g.vertex_label(v));
    }
    labels.iter().map(|&l| best[l as usize]).collect()
}

/// Writes `# ` header lines and one line `id value` per vertex (or JSON: the header and
/// `vertices: [{id, value}]`).
pub(crate) fn write_values(out: &Output, h: &Header, g: &EdgeList, values: &Values) -> Res<()> {
    let text = |v: usize| match values {
        Values::Real(x) => semigraph_formats::real_text(x[v], x[v]),
        Values::Int(x) => x[v].to_string(),
    };
    let n = match values {
        Values::Real(x) => x.len(),
        Values::Int(x) => x.len(),
    };
    out.write(|w| {
        if out.json {
            crate::output::open_json(w, h)?;
            write!(w, "\"vertices\":[")?;
            for v in 0..n {
                if v > 0 {
                    w.write_all(b",")?;
                }
                let item = json!({"id": g.vertex_label(v), "value": json_number(&text(v))});
                serde_json::to_writer(&mut *w, &item).map_err(std::io::Error::other)?;
            }
            writeln!(w, "]}}")
        } else {
            h.text(w)?;
            // Formatted on every core (millions of reals: a second on one).
            crate::output::write_lines(w, n, |v, line| {
                use std::io::Write as _;
                match values {
                    Values::Real(x) => writeln!(
                        line,
                        "{} {}",
                        g.vertex_label(v),
                        semigraph_formats::real_text(x[v], x[v])
                    ),
                    Values::Int(x) => writeln!(line, "{} {}", g.vertex_label(v), x[v]),
                }
            })
        }
    })
}
