//! `semigraph algorithms`: the registry's algorithms, as a list or as the algorithm reference
//! (`--markdown`: `docs/ALGORITHMS.md`, which a test keeps equal to it).

use std::fmt::Write as _;

use semigraph_algos::algorithms;
use semigraph_algos::registry::{self, Accepts, Info, Reads};

use crate::args::{Common, WriteOpt};
use crate::error::Res;
use crate::output::Output;

/// Lists the algorithms: name, command and what each computes (`--markdown`: the reference
/// page, arguments and all).
#[derive(clap::Args, Clone, Debug)]
pub struct AlgorithmsArgs {
    /// Write the algorithm reference in Markdown.
    #[arg(long)]
    pub markdown: bool,
    #[command(flatten)]
    pub write: WriteOpt,
}

/// Runs `semigraph algorithms`.
pub(crate) fn exec(c: &Common, a: AlgorithmsArgs) -> Res<()> {
    let text = match a.markdown {
        true => reference(),
        false => algorithms::infos()
            .iter()
            .map(|i| format!("{:<14} {}\n", i.command, i.summary))
            .collect(),
    };
    Output::new(c).write(|w| w.write_all(text.as_bytes()))?;
    Ok(())
}

/// The algorithm reference in Markdown.
fn reference() -> String {
    let mut s = String::new();
    let infos = algorithms::infos();
    let _ = writeln!(
        s,
        "# Algorithm reference\n\n\
         Every algorithm of the registry (`crates/algos/src/registry/`), as each surface names \
         it. This page is written by `semigraph algorithms --markdown > docs/ALGORITHMS.md`; a \
         test checks that it matches the registry.\n\n\
         | Algorithm | Command line | Python | NetworkX | Reads | Several GPUs |\n\
         |---|---|---|---|---|---|"
    );
    for i in infos {
        let nx: Vec<String> = i
            .networkx
            .iter()
            .map(|e| format!("`{}`", e.function))
            .collect();
        let _ = writeln!(
            s,
            "| [{name}](#{name}) | `semigraph {cmd}` | `semigraph.{name}`, `Graph.{name}` | {nx} | {reads} | {gpus} |",
            name = i.name,
            cmd = i.command,
            nx = if nx.is_empty() {
                "-".into()
            } else {
                nx.join(", ")
            },
            reads = reads(i),
            gpus = if i.distributed { "yes" } else { "-" },
        );
    }
    for i in infos {
        entry(&mut s, i);
    }
    s
}

fn reads(i: &Info) -> String {
    match (i.reads, i.accepts) {
        (Reads::Structure, Accepts::Any) => "structure".into(),
        (Reads::Structure, Accepts::Undirected) => "structure, as undirected".into(),
        (Reads::Structure, Accepts::Directed) => "structure, directed".into(),
        (Reads::Distances, _) => "weights as distances".into(),
        (Reads::Capacities, _) => "weights as capacities".into(),
        (Reads::StructureOrDistances(flag), _) => {
            format!("structure; weights as distances with `{flag}`")
        }
    }
}

/// One algorithm's section.
fn entry(s: &mut String, i: &Info) {
    let _ = writeln!(s, "\n## {}\n\n{}.\n", i.name, i.summary);
    if i.params.is_empty() {
        let _ = writeln!(s, "No arguments.\n");
    } else {
        let _ = writeln!(
            s,
            "| Argument | Kind | Default | Meaning |\n|---|---|---|---|"
        );
        for p in i.params {
            let kind = match p.kind {
                registry::Kind::Choice(w) => w.join(" \\| "),
                k => k.name().to_string(),
            };
            let default = match (p.default, p.optional) {
                (Some(d), _) => format!("`{d}`"),
                (None, true) => "not given".into(),
                (None, false) => "required".into(),
            };
            let _ = writeln!(s, "| `{}` | {kind} | {default} | {} |", p.name, p.doc);
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(
        s,
        "Returns (Python): {}. Work: {}. Benchmark: `semigraph bench {}` (steps: {}).",
        i.returns
            .iter()
            .map(|r| format!("`{r}`"))
            .collect::<Vec<_>>()
            .join(", "),
        i.complexity,
        i.command,
        i.steps
    );
}
