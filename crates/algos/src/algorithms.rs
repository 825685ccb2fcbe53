//! The registry's list: every algorithm, once (an algorithm's [`Algorithm`] entry lives in its
//! own file beside its algebra), and the lookups every surface uses.

use crate::backend::{BackendKind, Frontier};
use crate::error::Result;
use crate::registry::{Algorithm, Args, Info, Output, Views, Visit};

/// Declares the list: every algorithm type, once.
macro_rules! algorithms {
    ($($a:ty),* $(,)?) => {
        /// Every algorithm's [`Info`], in the registry's order.
        pub fn infos() -> &'static [Info] {
            &[$(<$a as Algorithm>::INFO),*]
        }

        /// Visits the algorithm called `name`; `None` if there is none.
        pub fn visit<V: Visit>(name: &str, v: V) -> Option<V::Out> {
            $(if name == <$a as Algorithm>::INFO.name {
                return Some(v.visit::<$a>());
            })*
            None
        }
    };
}

algorithms!(
    crate::bfs::BfsAlgorithm,
    crate::sssp::ShortestPathsAlgorithm,
    crate::sssp::ShortestPath,
    crate::paths::WidestPaths,
    crate::paths::Reachability,
    crate::rank::PageRankAlgorithm,
    crate::components::WeakComponents,
    crate::communities::LabelPropagation,
    crate::communities::LouvainAlgorithm,
    crate::communities::LeidenAlgorithm,
    crate::communities::Modularity,
    crate::triangles::ClusteringCoefficients,
    crate::triangles::Triangles,
    crate::centrality::Betweenness,
    crate::centrality::EdgeBetweennessAlgorithm,
    crate::centrality::Closeness,
    crate::centrality::Harmonic,
    crate::centrality::Eigenvector,
    crate::centrality::Katz,
    crate::centrality::Hits,
    crate::cores::CoreNumbers,
    crate::toposort::TopologicalSort,
    crate::scc::StrongComponentsAlgorithm,
    crate::truss::KTruss,
    crate::similarity::Jaccard,
    crate::similarity::Overlap,
    crate::similarity::Cosine,
    crate::links::AdamicAdar,
    crate::links::ResourceAllocation,
    crate::links::PreferentialAttachment,
    crate::combinatorial::IndependentSetAlgorithm,
    crate::combinatorial::ColoringAlgorithm,
    crate::combinatorial::MatchingAlgorithm,
    crate::combinatorial::SpanningForest,
    crate::combinatorial::MaximumFlow,
);

/// The algorithm called `name`'s [`Info`].
pub fn info(name: &str) -> Option<&'static Info> {
    infos().iter().find(|i| i.name == name)
}

/// Runs the algorithm called `name` on `g` with `args`; `None` if there is none.
///
/// # Errors
/// The algorithm's ([`Algorithm::run`]).
pub fn run<'b, B: Frontier + 'b>(
    name: &str,
    g: &impl Views<'b, B>,
    args: &Args,
) -> Option<Result<Output>> {
    struct Run<'a, 'b, B, V>(&'a V, &'a Args, std::marker::PhantomData<&'b B>);
    impl<'b, B: Frontier + 'b, V: Views<'b, B>> Visit for Run<'_, 'b, B, V> {
        type Out = Result<Output>;
        fn visit<A: Algorithm>(self) -> Result<Output> {
            A::run(self.0, self.1)
        }
    }
    visit(name, Run(g, args, std::marker::PhantomData))
}

/// Host bytes the algorithm called `name` holds at its peak ([`Algorithm::host_bytes`]); 0
/// if there is none.
pub fn host_bytes(name: &str, kind: BackendKind, n: usize, nnz: usize, threads: usize) -> u64 {
    struct Bytes(BackendKind, usize, usize, usize);
    impl Visit for Bytes {
        type Out = u64;
        fn visit<A: Algorithm>(self) -> u64 {
            A::host_bytes(self.0, self.1, self.2, self.3)
        }
    }
    visit(name, Bytes(kind, n, nnz, threads)).unwrap_or(0)
}
