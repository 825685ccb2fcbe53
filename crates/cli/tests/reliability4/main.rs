#![allow(missing_docs)]
//! Regression tests for the fourth hostile-input campaign (docs/RELIABILITY.md, round 4): one
//! test per defect it found on the command line, each on the input that once failed, and the
//! generated cases that would have found them: spgemm at the limits of every integer semiring
//! and type, bit flips in the deflate streams of `.npz` archives, and reader errors at the
//! boundaries of the pieces parsed in parallel. (The Python package's and the `NetworkX`
//! backend's cases are in `python/tests/test_reliability4.py`.)
//!
//! Commands run with `--backend auto` and `cpu`: on a machine with a GPU both backends must
//! give the same answers and refusals.

#[path = "../common/mod.rs"]
mod common;
mod files;
use common::*;

use std::collections::BTreeMap;

/// A deterministic generator (LCG).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn draw(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.draw() % n
    }
}

/// Generated cases per test: `SEMIGRAPH_FUZZ_CASES`, else a few.
pub fn fuzz_cases() -> u64 {
    std::env::var("SEMIGRAPH_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8)
}

/// A Matrix Market `integer` file of `entries` (0-based `(row, col) -> value`).
fn int_mtx(name: &str, (r, c): (usize, usize), entries: &BTreeMap<(usize, usize), i128>) -> String {
    let mut s = format!(
        "%%MatrixMarket matrix coordinate integer general\n{r} {c} {}\n",
        entries.len()
    );
    for ((i, j), v) in entries {
        s.push_str(&format!("{} {} {v}\n", i + 1, j + 1));
    }
    file(name, s.as_bytes())
}

/// Which results of a product a mask keeps.
type Keep<'a> = Box<dyn Fn(usize, usize) -> bool + 'a>;

/// The entries of a Matrix Market product as `spgemm` writes it.
fn product(o: &std::process::Output) -> BTreeMap<(usize, usize), i128> {
    let text = out(o);
    let mut lines = text.lines().filter(|l| !l.starts_with('%'));
    lines.next().expect("a size line");
    lines
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let (i, j): (usize, usize) = (t[0].parse().unwrap(), t[1].parse().unwrap());
            ((i - 1, j - 1), t[2].parse().unwrap())
        })
        .collect()
}

/// The exact product in a semiring `(add, mul)` over a type `[lo, hi]`, without entries equal
/// to the zero; `None` where the type cannot hold a result the mask keeps (or a path
/// semiring's result is its zero).
fn reference(
    a: &BTreeMap<(usize, usize), i128>,
    b: &BTreeMap<(usize, usize), i128>,
    sr: &str,
    (lo, hi): (i128, i128),
    keep: impl Fn(usize, usize) -> bool,
) -> Option<BTreeMap<(usize, usize), i128>> {
    let zero = match sr {
        "plus-times" => 0,
        "min-plus" | "min-max" => hi,
        _ => lo,
    };
    let (add, mul) = sr.split_once('-').unwrap();
    let mut out: BTreeMap<(usize, usize), i128> = BTreeMap::new();
    for (&(i, k), &x) in a.iter().filter(|e| *e.1 != zero) {
        for (&(_, j), &y) in b.range((k, 0)..(k + 1, 0)).filter(|e| *e.1 != zero) {
            let t = match mul {
                "times" => x * y,
                "plus" => x + y,
                "min" => x.min(y),
                _ => x.max(y),
            };
            out.entry((i, j))
                .and_modify(|s| {
                    *s = match add {
                        "plus" => *s + t,
                        "min" => (*s).min(t),
                        _ => (*s).max(t),
                    }
                })
                .or_insert(t);
        }
    }
    let mut result = BTreeMap::new();
    for ((i, j), v) in out {
        if !keep(i, j) {
            continue;
        }
        if v < lo || v > hi || (add != "plus" && mul == "plus" && v == zero) {
            return None;
        }
        if v != zero {
            result.insert((i, j), v);
        }
    }
    Some(result)
}

// ---- 1. spgemm: exact or refused, every integer semiring and type --------------------------

#[test]
fn spgemm_at_the_integer_limits_is_exact_or_refused() {
    let types: [(&str, i128, i128); 3] = [
        ("i32", i32::MIN as i128, i32::MAX as i128),
        ("i64", i64::MIN as i128, i64::MAX as i128),
        ("u32", 0, u32::MAX as i128),
    ];
    let mut rng = Lcg(0x5e_96e_774);
    let (mut exact, mut refusals) = (0, 0);
    for case in 0..fuzz_cases() {
        for (ty, lo, hi) in types {
            let pick = |rng: &mut Lcg| -> i128 {
                let v = match rng.below(9) {
                    0 => hi,
                    1 => lo,
                    2 => hi / 2 + 1,
                    3 => lo / 2 - 1,
                    4 => 46341,
                    5 => hi - 1,
                    6 => 0,
                    _ => (rng.draw() as i128 % 1000) - 500,
                };
                v.clamp(lo, hi)
            };
            let (m, k, n) = (
                1 + rng.below(3) as usize,
                1 + rng.below(3) as usize,
                1 + rng.below(3) as usize,
            );
            let entries = |r: usize, c: usize, rng: &mut Lcg| {
                let mut e = BTreeMap::new();
                for i in 0..r {
                    for j in 0..c {
                        if rng.below(3) != 0 {
                            e.insert((i, j), pick(rng));
                        }
                    }
                }
                e
            };
            let (a, b) = (entries(m, k, &mut rng), entries(k, n, &mut rng));
            let mask: BTreeMap<(usize, usize), i128> = (0..m)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .filter(|_| rng.below(2) == 0)
                .map(|e| (e, 1))
                .collect();
            let fa = int_mtx(&format!("a-{case}-{ty}.mtx"), (m, k), &a);
            let fb = int_mtx(&format!("b-{case}-{ty}.mtx"), (k, n), &b);
            let fm = int_mtx(&format!("m-{case}-{ty}.mtx"), (m, n), &mask);
            for sr in ["plus-times", "min-plus", "max-plus", "max-min", "min-max"] {
                if ty == "u32" && sr == "max-plus" {
                    continue; // not a built-in
                }
                let name = format!("{sr}:{ty}");
                // Unmasked, masked and with the mask's complement.
                let masks: [(Vec<&str>, Keep); 3] = [
                    (vec![], Box::new(|_, _| true)),
                    (
                        vec!["--mask", &fm],
                        Box::new(|i, j| mask.contains_key(&(i, j))),
                    ),
                    (
                        vec!["--mask", &fm, "--complement"],
                        Box::new(|i, j| !mask.contains_key(&(i, j))),
                    ),
                ];
                // One of them, on the GPU where there is one (`auto`).
                let (flags, keep) = &masks[rng.below(3) as usize];
                let mut args = vec!["spgemm", &fa, &fb, "--semiring", &name, "-q"];
                args.extend(flags);
                let o = semigraph(&args);
                match reference(&a, &b, sr, (lo, hi), keep) {
                    Some(w) => {
                        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
                        assert_eq!(product(&o), w, "{args:?} {a:?} {b:?}");
                        exact += 1;
                    }
                    None => {
                        refused(&o, "cannot hold");
                        refusals += 1;
                    }
                }
            }
        }
    }
    assert!(
        exact > 0 && refusals > 0,
        "{exact} exact, {refusals} refused"
    );
}

#[test]
fn the_issues_spgemm_reproducers_refuse() {
    let two = |v: &str| {
        format!("%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 {v}\n2 1 {v}\n")
    };
    let f = file("a2e9.mtx", two("2000000000").as_bytes());
    for (sr, value) in [
        ("plus-times:i32", "4000000000000000000"),
        ("plus-times:u32", "4000000000000000000"),
        ("max-plus:i32", "4000000000"),
        ("min-plus:i32", "4000000000"),
    ] {
        for backend in ["cpu", "auto"] {
            let o = semigraph(&["spgemm", &f, &f, "--semiring", sr, "--backend", backend]);
            refused(&o, &format!("entry (1, 1) of the product is {value}"));
            refused(&o, "i64");
        }
    }
    let f = file("an2e9.mtx", two("-2000000000").as_bytes());
    refused(
        &semigraph(&["spgemm", &f, &f, "--semiring", "min-plus:i32"]),
        "-4000000000",
    );
    // The same product in a type that holds it.
    let o = semigraph(&["spgemm", &f, &f, "--semiring", "min-plus:i64", "-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(product(&o)[&(0, 0)], -4_000_000_000);
}

// ---- 5. f16 values beyond 65504 -----------------------------------------------------------

#[test]
fn float16_values_and_sums_beyond_its_range_are_refused() {
    let real = |name: &str, entries: &str, nnz: usize| {
        file(
            name,
            format!("%%MatrixMarket matrix coordinate real general\n1 2 {nnz}\n{entries}")
                .as_bytes(),
        )
    };
    let big = real("f16big.mtx", "1 1 70000\n1 2 2\n", 2);
    let sum = real("f16sum.mtx", "1 1 60000\n1 2 60000\n", 2);
    for backend in ["cpu", "auto"] {
        for sr in ["plus-times:f16", "min-plus:f16", "max-min:f16"] {
            refused(
                &semigraph(&["spmv", &big, "--semiring", sr, "--backend", backend]),
                "70000, which f16 cannot represent",
            );
        }
        refused(
            &semigraph(&[
                "spmv",
                &sum,
                "--semiring",
                "plus-times:f16",
                "--backend",
                backend,
            ]),
            "f16",
        );
        let o = semigraph(&[
            "spmv",
            &sum,
            "--semiring",
            "plus-times:f32",
            "--backend",
            backend,
            "-q",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        assert!(out(&o).contains("120000"), "{}", out(&o));
        // 65519 rounds to 65504: a value of f16's, not refused.
        let edge = real("f16edge.mtx", "1 1 65519\n", 1);
        let o = semigraph(&[
            "spmv",
            &edge,
            "--semiring",
            "plus-times:f16",
            "--backend",
            backend,
            "-q",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        assert!(out(&o).contains("65504"), "{}", out(&o));
    }
    // min-plus's sum of two in-range values: 120000 would become inf (no entry).
    let a = real("f16mp.mtx", "1 1 60000\n", 1);
    let col = file(
        "f16col.mtx",
        b"%%MatrixMarket matrix coordinate real general\n2 1 1\n1 1 60000\n",
    );
    refused(
        &semigraph(&["spgemm", &a, &col, "--semiring", "min-plus:f16"]),
        "f16",
    );
}

// ---- 7. -0 and NaN entries ----------------------------------------------------------------

#[test]
fn spgemm_stores_no_negative_zero_and_no_nan() {
    let m = |name: &str, body: &str| {
        file(
            name,
            format!("%%MatrixMarket matrix coordinate real general\n2 2 2\n{body}").as_bytes(),
        )
    };
    let z = m("zero.mtx", "1 1 0\n1 2 1\n");
    let n4 = m("minus4.mtx", "1 1 -4\n2 2 1\n");
    let i = m("inf.mtx", "1 1 inf\n1 2 -inf\n");
    let j = m("ninf.mtx", "1 1 -inf\n2 1 inf\n");
    for backend in ["cpu", "auto"] {
        let o = semigraph(&[
            "spgemm",
            &z,
            &n4,
            "--semiring",
            "plus-times:f64",
            "--backend",
            backend,
            "-q",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        assert!(!out(&o).contains("-0"), "{}", out(&o));
        assert_eq!(out(&o).lines().filter(|l| !l.starts_with('%')).count(), 2);
        for sr in [
            "min-plus:f64",
            "max-plus:f64",
            "min-plus:f32",
            "max-plus:f16",
        ] {
            let o = semigraph(&[
                "spgemm",
                &i,
                &j,
                "--semiring",
                sr,
                "--backend",
                backend,
                "-q",
            ]);
            assert_eq!(o.status.code(), Some(0), "{sr}: {}", err(&o));
            // inf + -inf: the zero annihilates (no entry), never NaN.
            assert!(!out(&o).to_lowercase().contains("nan"), "{sr}: {}", out(&o));
            assert!(out(&o).contains("\n2 2 0\n"), "{sr}: {}", out(&o));
        }
        // plus-times: inf - inf has no value: refused.
        let ones = file(
            "ones21.mtx",
            b"%%MatrixMarket matrix coordinate real general\n2 1 2\n1 1 1\n2 1 1\n",
        );
        refused(
            &semigraph(&[
                "spgemm",
                &i,
                &ones,
                "--semiring",
                "plus-times:f64",
                "--backend",
                backend,
            ]),
            "undefined",
        );
    }
}

// ---- 6. aborts below the memory check -----------------------------------------------------

#[test]
fn kernels_on_huge_declared_sizes_refuse_under_a_memory_limit() {
    // 38 bytes declaring 90 M (and 130 M) vertices with one arc.
    for n in [90_000_000u64, 130_000_000] {
        let f = file(
            &format!("huge{n}.mtx"),
            format!("%%MatrixMarket matrix coordinate pattern general\n{n} {n} 1\n1 2\n")
                .as_bytes(),
        );
        for cmd in ["tc", "lcc", "cdlp", "wcc", "pagerank"] {
            let o = semigraph_limited(3000, &[cmd, &f, "--backend", "cpu", "-q"]);
            refused(&o, "refused before allocating");
        }
    }
}

// ---- 9. printed values are the values -----------------------------------------------------

#[test]
fn pagerank_and_lcc_print_values_that_read_back_exactly() {
    let f = semigraph_testkit::data::path_str("network-science/polbook.txt");
    for cmd in ["pagerank", "lcc"] {
        let text = semigraph(&[cmd, &f, "-q"]);
        let json = semigraph(&[cmd, &f, "-q", "--json"]);
        assert_eq!(text.status.code(), Some(0), "{}", err(&text));
        let t: Vec<f64> = values(&text)
            .iter()
            .map(|(_, v)| v.parse().unwrap())
            .collect();
        let j: serde_json::Value = serde_json::from_str(&out(&json)).unwrap();
        let j: Vec<f64> = j["vertices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["value"].as_f64().unwrap())
            .collect();
        assert_eq!(t, j, "{cmd}: text and JSON give the same values");
        // More digits than the old 10 where a value needs them (a rank is rarely short).
        assert!(
            values(&text)
                .iter()
                .any(|(_, v)| v.trim_start_matches("0.").len() > 10),
            "{cmd}: {}",
            out(&text)
        );
        // Each printed value is the shortest text of its double: it reads back as itself.
        for (_, v) in values(&text) {
            let x: f64 = v.parse().unwrap();
            assert_eq!(semigraph_formats::real_text(x, x), v);
        }
    }
}
