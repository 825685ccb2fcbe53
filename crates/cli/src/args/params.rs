//! A registry algorithm's arguments as clap options, for its command and its benchmark.

use clap::{Arg, ArgMatches, Command};
use semigraph_algos::registry::{Info, Kind, Reads};

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// `cmd` with an option per argument of `info` (`--damping`, `--source`/`-s`, ...); for a
/// benchmark (`bench`), the benchmark's defaults ([`Info::bench`]), no vertex, pairs or labels
/// arguments (the benchmark picks its source, every edge, each vertex its own label) and none
/// whose name the benchmark's own options take (the generator's `--seed`: the row runs the
/// argument's default).
pub(crate) fn with_params(mut cmd: Command, info: &'static Info, bench: bool) -> Command {
    for p in info.params {
        let long = leak(p.name.replace('_', "-"));
        let taken = cmd.get_arguments().any(|a| a.get_long() == Some(long));
        if bench && (matches!(p.kind, Kind::Vertex | Kind::Pairs | Kind::Labels) || taken) {
            continue;
        }
        let default = match bench {
            true => info
                .bench
                .iter()
                .find(|(k, _)| *k == p.name)
                .map(|(_, v)| *v),
            false => None,
        }
        .or(p.default);
        let mut a = Arg::new(id(p.name, bench))
            .long(long)
            .value_name(leak(p.name.to_uppercase()))
            .help(leak(upper_first(p.doc)))
            .required(default.is_none() && !p.optional);
        match p.name {
            "source" => a = a.short('s'),
            "target" => a = a.short('t'),
            _ => {}
        }
        a = match p.kind {
            Kind::Vertex => a.value_parser(clap::value_parser!(i64)),
            Kind::Count => a.value_parser(clap::value_parser!(usize)),
            Kind::Real => a.value_parser(clap::value_parser!(f64)),
            Kind::Choice(words) => a.value_parser(clap::builder::PossibleValuesParser::new(words)),
            // A file of pairs, or of a label per vertex, read once the graph's ids are known.
            Kind::Pairs | Kind::Labels => a.value_name("FILE"),
            // `--flag` alone is `--flag true`.
            Kind::Flag => a
                .value_parser(clap::value_parser!(bool))
                .num_args(0..=1)
                .default_missing_value("true"),
        };
        if let Some(d) = default {
            a = a.default_value(d);
        }
        cmd = cmd.arg(a);
    }
    cmd
}

/// The clap id of argument `name`: a benchmark's apart from the benchmark's own options.
fn id(name: &'static str, bench: bool) -> &'static str {
    match bench {
        true => leak(format!("algorithm-{name}")),
        false => name,
    }
}

/// Each argument of `info` as given in `m` (`None`: not given and without a default), `m`
/// the matches of [`with_params`]'s command (`bench` as there).
pub(crate) fn given_in(
    info: &Info,
    m: &ArgMatches,
    bench: bool,
) -> Vec<(&'static str, Option<String>)> {
    info.params
        .iter()
        .map(|p| {
            let name = id(p.name, bench);
            let text = match p.kind {
                Kind::Vertex => m
                    .try_get_one::<i64>(name)
                    .ok()
                    .flatten()
                    .map(i64::to_string),
                Kind::Count => m
                    .try_get_one::<usize>(name)
                    .ok()
                    .flatten()
                    .map(usize::to_string),
                Kind::Real => m
                    .try_get_one::<f64>(name)
                    .ok()
                    .flatten()
                    .map(f64::to_string),
                Kind::Choice(_) | Kind::Pairs | Kind::Labels => {
                    m.try_get_one::<String>(name).ok().flatten().cloned()
                }
                Kind::Flag => m
                    .try_get_one::<bool>(name)
                    .ok()
                    .flatten()
                    .map(bool::to_string),
            };
            (p.name, text)
        })
        .collect()
}

/// What a call of `info` with the arguments `given` ([`given_in`]) reads: the entry's form,
/// a choice resolved by its flag.
pub(crate) fn reads_of(info: &Info, given: &[(&str, Option<String>)]) -> Reads {
    info.reads.resolved(|flag| {
        given
            .iter()
            .any(|(name, text)| *name == flag && text.as_deref() == Some("true"))
    })
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
