//! The values options take: clap value enums (listed by `--help`) and the one semiring syntax,
//! `name:type`.

use clap::ValueEnum;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use semigraph_formats::Named;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum BackendChoice {
    #[default]
    Auto,
    Cpu,
    Gpu,
}

/// A clap parser accepting exactly the built-in semirings (`--help` lists them).
pub fn semiring_parser() -> PossibleValuesParser {
    // clap keeps `&'static str` values: the list is made once per process.
    static SPECS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let specs = SPECS.get_or_init(|| {
        semigraph_semiring::names::builtin_names()
            .into_iter()
            .map(|s| &*Box::leak(s.into_boxed_str()))
            .collect()
    });
    PossibleValuesParser::new(specs.iter().copied())
}

/// A parser of the names of a library enum ([`Named`]; `--help` lists them): the CLI takes
/// the library's own values, not a copy of them.
pub fn named<T: Named + Send + Sync>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::names())
        .map(|s| T::named(&s).expect("the parser accepts listed names only"))
}

/// `auto` (`None`: the library chooses) or a value of `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice<T>(pub Option<T>);

/// A parser of `auto` or the names of `T`.
pub fn auto_or<T: Named + Send + Sync>() -> impl TypedValueParser<Value = Choice<T>> {
    PossibleValuesParser::new(std::iter::once("auto").chain(T::names()))
        .map(|s| Choice(T::named(&s)))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DemoSize {
    Small,
    Medium,
    Large,
}
