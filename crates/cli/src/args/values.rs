//! The values options take: clap value enums (listed by `--help`) and the one semiring syntax,
//! `name:type`.

use clap::ValueEnum;
use clap::builder::PossibleValuesParser;
use semigraph_algos::DistanceType;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum BackendChoice {
    #[default]
    Auto,
    Cpu,
    Gpu,
}

/// Every built-in semiring as `name:type` (`min-plus:f32`, `or-and:bool`,
/// `min-plus-pred:dpi32`), from `Semiring::full_name` (`min_plus_f32`): the one syntax of
/// `spmv --semiring` and the benches' `--semirings`.
pub fn semiring_specs() -> Vec<String> {
    let mut v = Vec::new();
    macro_rules! push {
        ($label:ident, $s:ty) => {
            v.push(spec_of(&<$s as semigraph_semiring::Semiring>::full_name()));
        };
    }
    semigraph_semiring::for_each_builtin!(push);
    v
}

/// `min_plus_f32` -> `min-plus:f32`.
pub fn spec_of(full_name: &str) -> String {
    match full_name.rsplit_once('_') {
        Some((name, ty)) => format!("{}:{ty}", name.replace('_', "-")),
        None => full_name.to_string(),
    }
}

/// A clap parser accepting exactly the built-in semirings (`--help` lists them).
pub fn semiring_parser() -> PossibleValuesParser {
    // clap keeps `&'static str` values: the list is made once per process.
    static SPECS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let specs = SPECS.get_or_init(|| {
        semiring_specs()
            .into_iter()
            .map(|s| &*Box::leak(s.into_boxed_str()))
            .collect()
    });
    PossibleValuesParser::new(specs.iter().copied())
}

/// `--format` of a product's matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// The automatic choice for the backend (docs/FORMATS.md).
    Auto,
    Csr,
    Ell,
    Dia,
    Coo,
    Hyb,
    Dense,
}

impl FormatArg {
    /// The format, `None` for auto.
    pub fn format(self) -> Option<semigraph_formats::Format> {
        use semigraph_formats::Format;
        match self {
            FormatArg::Auto => None,
            FormatArg::Csr => Some(Format::Csr),
            FormatArg::Ell => Some(Format::Ell),
            FormatArg::Dia => Some(Format::Dia),
            FormatArg::Coo => Some(Format::Coo),
            FormatArg::Hyb => Some(Format::Hyb),
            FormatArg::Dense => Some(Format::Dense),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DistChoice {
    Auto,
    I32,
    I64,
    F32,
    F64,
}

impl DistChoice {
    pub fn wanted(self) -> Option<DistanceType> {
        match self {
            DistChoice::Auto => None,
            DistChoice::I32 => Some(DistanceType::I32),
            DistChoice::I64 => Some(DistanceType::I64),
            DistChoice::F32 => Some(DistanceType::F32),
            DistChoice::F64 => Some(DistanceType::F64),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CombineArg {
    Min,
    Max,
    Sum,
    First,
}

impl CombineArg {
    pub fn combine(self) -> semigraph_formats::Combine {
        match self {
            CombineArg::Min => semigraph_formats::Combine::Min,
            CombineArg::Max => semigraph_formats::Combine::Max,
            CombineArg::Sum => semigraph_formats::Combine::Sum,
            CombineArg::First => semigraph_formats::Combine::First,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SsspAlgo {
    /// Bellman-Ford on a GPU or with negative weights, delta-stepping otherwise.
    Auto,
    BellmanFord,
    DeltaStepping,
}

/// `apsp --method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ApspMethodArg {
    /// The cheaper of the two, estimated from the graph's size, arcs and depth.
    Auto,
    /// Repeated min-plus squaring of the dense matrix (semiring GEMM).
    Squaring,
    /// Bellman-Ford from blocks of sources at once (SpMM over an n x k block).
    Sources,
}

impl ApspMethodArg {
    pub fn method(self) -> semigraph_algos::ApspMethod {
        match self {
            ApspMethodArg::Auto => semigraph_algos::ApspMethod::Auto,
            ApspMethodArg::Squaring => semigraph_algos::ApspMethod::Squaring,
            ApspMethodArg::Sources => semigraph_algos::ApspMethod::Sources,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DirectionArg {
    Auto,
    Push,
    Pull,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DemoSize {
    Small,
    Medium,
    Large,
}
