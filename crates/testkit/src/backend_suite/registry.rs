//! Every algorithm of the registry on a backend, through the registry as the surfaces call it
//! (default arguments, source 0, a partition into three): from the weights (the forms derived on the backend) and from
//! the structure, each result equal to the CPU backend's (reals within `1e-9` relative).

use semigraph_algos::algorithms;
use semigraph_algos::registry::{self, Args, Base, GraphViews, Reads};
use semigraph_algos::{CpuBackend, Frontier, Graph, GraphOptions};
use semigraph_semiring::{MaxMin, OrAnd};

use super::algorithms::test_graphs;
use semigraph_algos::testing::TestGraph;

/// The views of `t` on `b` in the form `reads` names (`from_weights`: the structure derived
/// from the distances, as Python's graphs hold it).
fn views<'b, B: Frontier>(
    b: &'b B,
    t: &TestGraph,
    reads: Reads,
    from_weights: bool,
) -> semigraph_algos::Result<GraphViews<'b, B>> {
    let pull = GraphOptions {
        pull: true,
        ..Default::default()
    };
    let d = t.csr::<f64>();
    Ok(GraphViews::new(match (reads, from_weights) {
        (Reads::Distances, _) | (Reads::Structure, true) => {
            Base::Distances(Graph::from_csr(b, d, pull)?)
        }
        (Reads::Structure, false) => {
            let s = d.map::<OrAnd>(|_| true);
            Base::Structure(Graph::from_csr(b, s, pull)?)
        }
        (Reads::Capacities, _) => {
            let c = d.map::<MaxMin<f64>>(|w| w);
            Base::Capacities(Graph::from_csr(b, c, GraphOptions::default())?)
        }
        (Reads::StructureOrDistances(_), _) => unreachable!("resolved by Reads::of"),
    }))
}

/// Runs every registry algorithm on `b` and on the CPU backend.
pub fn check_registry<B: Frontier>(b: &B) -> Result<(), String> {
    let cpu = CpuBackend::new();
    for t in test_graphs() {
        for info in algorithms::infos() {
            let args = Args::parse(info.params, t.n, |p| match p.kind {
                registry::Kind::Vertex => Some("0".into()),
                // A partition into three.
                registry::Kind::Labels => Some(
                    (0..t.n)
                        .map(|v| (v % 3).to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                _ => None,
            })
            .map_err(|e| format!("{}: {e}", info.name))?;
            for from_weights in [false, true] {
                let got = (|| {
                    let v = views(b, &t, info.reads.of(&args), from_weights)?;
                    algorithms::run(info.name, &v, &args).expect("registered")
                })();
                let want = (|| {
                    let v = views(&cpu, &t, info.reads.of(&args), from_weights)?;
                    algorithms::run(info.name, &v, &args).expect("registered")
                })();
                let (got, want) = match (got, want) {
                    (Ok(g), Ok(w)) => (g, w),
                    // The algorithm's own refusal (a power iteration that diverges, a cycle
                    // named, a self loop) must be the same on both.
                    (Err(g), Err(w)) if g.to_string() == w.to_string() => continue,
                    (g, w) => {
                        let say = |r: semigraph_algos::Result<registry::Output>| match r {
                            Ok(_) => "a result".to_string(),
                            Err(e) => e.to_string(),
                        };
                        return Err(format!(
                            "{} on {}: {} (the CPU: {})",
                            info.name,
                            t.name,
                            say(g),
                            say(w)
                        ));
                    }
                };
                if let Some(d) = got.difference(&want) {
                    return Err(format!("{} on {}: {d}", info.name, t.name));
                }
                if got.columns.len() != want.columns.len() {
                    return Err(format!("{} on {}: columns differ", info.name, t.name));
                }
            }
        }
    }
    Ok(())
}
