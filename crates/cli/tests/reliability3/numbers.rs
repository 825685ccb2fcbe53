//! Round 3's cases of numbers: integer products exact or refused, integers beyond `i64`,
//! printed values read back as the values, and the generated cases at the integer limits of
//! every semiring and type.

use super::*;

// ---- 3. integer SpMV: exact or refused ------------------------------------------------------

#[test]
fn integer_sums_are_exact_or_refused_for_every_type() {
    // (type, largest, smallest) of the integer plus-times semirings.
    let types: [(&str, i128, i128); 3] = [
        ("i32", i32::MAX as i128, i32::MIN as i128),
        ("i64", i64::MAX as i128, i64::MIN as i128),
        ("u32", u32::MAX as i128, 0),
    ];
    for (ty, max, min) in types {
        let sr = format!("plus-times:{ty}");
        // A row summing to exactly the largest value, one just past it, one to the smallest,
        // one just below it (its parts fit the type: half and half).
        let half = max / 2;
        let rows = [
            (vec![half, max - half], true),
            (vec![half + 1, max - half], false),
            (vec![min / 2, min - min / 2], true),
            (vec![min / 2 - 1, min - min / 2], min == 0),
        ];
        for (k, (parts, fits)) in rows.iter().enumerate() {
            if parts.iter().any(|p| *p < min || *p > max) {
                continue;
            }
            let v: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
            let f = mtx(
                &format!("sum-{ty}-{k}.mtx"),
                1,
                2,
                "integer",
                &[(1, 1, &v[0]), (1, 2, &v[1])],
            );
            let exact: i128 = parts.iter().sum();
            for backend in ["cpu", "auto"] {
                let o = semigraph(&["spmv", &f, "--semiring", &sr, "--backend", backend, "-q"]);
                if *fits {
                    assert_eq!(o.status.code(), Some(0), "{ty} {parts:?}: {}", err(&o));
                    assert_eq!(
                        column(&o),
                        vec![exact.to_string()],
                        "{ty} {parts:?} {backend}"
                    );
                } else {
                    refused(&o, &format!("sums to {exact}"));
                }
            }
        }
    }
    // The three reproducers.
    let f = mtx(
        "wrap32.mtx",
        1,
        2,
        "integer",
        &[(1, 1, "1073741824"), (1, 2, "1073741824")],
    );
    refused(
        &semigraph(&["spmv", &f, "--semiring", "plus-times:i32"]),
        "plus-times:i64",
    );
    let f = mtx(
        "wrapu.mtx",
        1,
        2,
        "integer",
        &[(1, 1, "2147483648"), (1, 2, "2147483648")],
    );
    refused(
        &semigraph(&["spmv", &f, "--semiring", "plus-times:u32"]),
        "4294967296",
    );
    let f = semigraph_testkit::data::path_str("lagraph/matrix_int64.mtx");
    refused(
        &semigraph(&["spmv", &f, "--semiring", "plus-times:i64"]),
        "9223372036854775814",
    );
    // min/max semirings at the limits: exact (no sums).
    let f = mtx(
        "limits.mtx",
        2,
        2,
        "integer",
        &[
            (1, 1, "-2147483648"),
            (1, 2, "2147483647"),
            (2, 2, "2147483647"),
        ],
    );
    for (sr, want) in [
        ("min-plus:i32", "-2147483648"),
        ("max-plus:i32", "2147483647"),
        ("min-max:i32", "-2147483648"),
        ("max-min:i32", "2147483647"),
    ] {
        let o = semigraph(&["spmv", &f, "--semiring", sr, "-q"]);
        assert_eq!(o.status.code(), Some(0), "{sr}: {}", err(&o));
        assert_eq!(column(&o)[0], want, "{sr}");
    }
}

// ---- 4. integers beyond i64 -----------------------------------------------------------------

#[test]
fn integers_beyond_i64_are_kept_exact_or_refused() {
    let g = file("huge.gr", b"p sp 2 1\na 1 2 9223372036854775809\n");
    // Shortest paths: no distance type holds it: refused, not rounded.
    refused(&semigraph(&["sssp", &g, "-s", "1"]), "huge.gr");
    // convert keeps it exact, in every format that holds integers.
    for ext in ["gr", "mtx", "el", "e"] {
        let o = dir().join(format!("huge-out.{ext}"));
        let r = semigraph(&["convert", &g, "-o", o.to_str().unwrap(), "-q"]);
        assert!(r.status.success(), "{ext}: {}", err(&r));
        let back = dir().join(format!("huge-back-{ext}.mtx"));
        let r = semigraph(&[
            "convert",
            o.to_str().unwrap(),
            "-o",
            back.to_str().unwrap(),
            "-q",
        ]);
        assert!(r.status.success(), "{ext}: {}", err(&r));
        let text = std::fs::read_to_string(&back).unwrap();
        assert!(text.contains(" 9223372036854775809"), "{ext}: {text}");
    }
    // Integers no type holds, or that only u64 holds beside a negative weight: refused.
    for (name, body) in [
        ("toobig.gr", "p sp 2 1\na 1 2 18446744073709551616\n"),
        ("toosmall.gr", "p sp 2 1\na 1 2 -9223372036854775809\n"),
        (
            "mixed.gr",
            "p sp 3 2\na 1 2 -1\na 2 3 9223372036854775809\n",
        ),
        ("realmix.el", "0 1 0.5\n1 2 9007199254740993\n"),
    ] {
        let f = file(name, body.as_bytes());
        refused(
            &semigraph(&["convert", &f, "-o", dir().join("x.mtx").to_str().unwrap()]),
            "refused rather than",
        );
    }
}

// ---- 5. printed values are the values ------------------------------------------------------

#[test]
fn printed_values_read_back_as_the_values_for_every_type() {
    // Values chosen to be exact in each type; spmv's y is each row's single entry.
    let cases: [(&str, &[&str]); 7] = [
        (
            "plus-times:f32",
            &["1073741824", "0.1", "-3.5", "1e30", "16777216", "1.5e-7"],
        ),
        (
            "plus-times:f64",
            &[
                "9007199254740992",
                "0.1",
                "1e300",
                "-2.25",
                "1e-50",
                "123456789.125",
            ],
        ),
        (
            "plus-times:f16",
            &["2048", "0.5", "-65504", "0.000061035156"],
        ),
        ("plus-times:bf16", &["1073741824", "0.5", "-3"]),
        ("plus-times:i32", &["2147483647", "-2147483648", "0"]),
        (
            "plus-times:i64",
            &["9223372036854775807", "-9223372036854775808", "7"],
        ),
        ("plus-times:u32", &["4294967295", "0", "12"]),
    ];
    for (sr, vals) in cases {
        let entries: Vec<(usize, usize, &str)> = vals
            .iter()
            .enumerate()
            .map(|(k, v)| (k + 1, 1, *v))
            .collect();
        let field = if sr.ends_with("f32") || sr.ends_with("f64") || sr.contains("f16") {
            "real"
        } else {
            "integer"
        };
        let f = mtx(
            &format!("print-{}.mtx", sr.replace(':', "-")),
            vals.len(),
            1,
            field,
            &entries,
        );
        let o = semigraph(&["spmv", &f, "--semiring", sr, "-q"]);
        assert_eq!(o.status.code(), Some(0), "{sr}: {}", err(&o));
        for (got, want) in column(&o).iter().zip(vals.iter()) {
            // Read back in the type, the printed text is the value the type holds for the input.
            let same = match sr.split(':').nth(1).unwrap() {
                "f32" => got.parse::<f32>().unwrap() == want.parse::<f32>().unwrap(),
                "f64" => got.parse::<f64>().unwrap() == want.parse::<f64>().unwrap(),
                "f16" | "bf16" => {
                    let (g, w) = (got.parse::<f64>().unwrap(), want.parse::<f64>().unwrap());
                    let (hg, hw) = if sr.ends_with("bf16") {
                        (
                            half::bf16::from_f64(g).to_f64(),
                            half::bf16::from_f64(w).to_f64(),
                        )
                    } else {
                        (
                            half::f16::from_f64(g).to_f64(),
                            half::f16::from_f64(w).to_f64(),
                        )
                    };
                    hg == hw
                }
                _ => got == want,
            };
            assert!(same, "{sr}: printed {got} for {want}");
            // An integral value prints all its digits: read as an integer it is the value.
            if let Ok(x) = want.parse::<f64>()
                && x.fract() == 0.0
                && x.abs() < 1e18
                && (sr.ends_with("f64") || x.abs() < 16777216.0 || x == 1073741824.0)
            {
                assert_eq!(
                    got.parse::<i128>().ok(),
                    Some(x as i128),
                    "{sr}: printed {got}"
                );
            }
        }
    }
    // The f32 reproducer, text and JSON.
    let f = mtx("pow30.mtx", 1, 1, "real", &[(1, 1, "1073741824")]);
    let o = semigraph(&["spmv", &f, "--semiring", "plus-times:f32", "-q"]);
    assert_eq!(column(&o), vec!["1073741824"]);
    let o = semigraph(&["spmv", &f, "--semiring", "plus-times:f32", "-q", "--json"]);
    assert!(out(&o).contains("\"value\":1073741824"), "{}", out(&o));
    // f32 distances: sums that cannot be exact are refused; dyadic ones are exact.
    let g = file("f32sum.gr", b"p sp 3 2\na 1 2 16777216\na 2 3 1.0\n");
    refused(
        &semigraph(&["sssp", &g, "-s", "1", "--distances", "f32"]),
        "f32",
    );
    let g = file("f32dy.gr", b"p sp 3 2\na 1 2 0.5\na 2 3 0.25\n");
    for backend in ["cpu", "auto"] {
        let o = semigraph(&[
            "sssp",
            &g,
            "-s",
            "1",
            "--distances",
            "f32",
            "--backend",
            backend,
            "-q",
        ]);
        assert_eq!(
            column(&o),
            vec!["0", "0.5", "0.75"],
            "{backend}: {}",
            err(&o)
        );
    }
}

// ---- generated cases: integer limits of every semiring and type, printing of every type -----

/// A small deterministic generator (the tests must be reproducible).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn fuzz_cases() -> u64 {
    std::env::var("SEMIGRAPH_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6)
}

#[test]
fn fuzzed_products_at_the_integer_limits_are_exact_or_refused() {
    // (type, min, max) and, per semiring, what y_i is for the row's entries (x is `one`, so
    // each product is the entry itself) and for an empty row (the semiring's zero).
    let types: [(&str, i128, i128); 3] = [
        ("i32", i32::MIN as i128, i32::MAX as i128),
        ("i64", i64::MIN as i128, i64::MAX as i128),
        ("u32", 0, u32::MAX as i128),
    ];
    let mut rng = Lcg(0x5eed);
    for case in 0..fuzz_cases() {
        let (r, c) = (1 + rng.below(5) as usize, 1 + rng.below(5) as usize);
        for (ty, min, max) in types {
            let pick = |rng: &mut Lcg| -> i128 {
                match rng.below(6) {
                    0 => max,
                    1 => min,
                    2 => max / 2 + 1,
                    3 => 0,
                    4 => min / 2 - 1,
                    _ => (rng.next() as i128 % 1000) - 500,
                }
            };
            let mut cells: Vec<(usize, usize, i128)> = Vec::new();
            for i in 1..=r {
                for j in 1..=c {
                    if rng.below(2) == 0 {
                        cells.push((i, j, pick(&mut rng).clamp(min, max)));
                    }
                }
            }
            let text: Vec<String> = cells.iter().map(|e| e.2.to_string()).collect();
            let entries: Vec<(usize, usize, &str)> = cells
                .iter()
                .zip(&text)
                .map(|(e, t)| (e.0, e.1, t.as_str()))
                .collect();
            let f = mtx(&format!("fz-{case}-{ty}.mtx"), r, c, "integer", &entries);
            for sr in ["plus-times", "min-plus", "max-plus", "max-min", "min-max"] {
                if ty == "u32" && sr == "max-plus" {
                    continue; // not a built-in
                }
                let row = |i: usize| cells.iter().filter(move |e| e.0 == i).map(|e| e.2);
                let want: Vec<Option<i128>> = (1..=r)
                    .map(|i| match sr {
                        "plus-times" => {
                            Some(row(i).sum::<i128>()).filter(|s| (min..=max).contains(s))
                        }
                        "min-plus" | "min-max" => Some(row(i).min().unwrap_or(max)),
                        _ => Some(row(i).max().unwrap_or(min)),
                    })
                    .collect();
                let name = format!("{sr}:{ty}");
                for backend in ["cpu", "auto"] {
                    let o =
                        semigraph(&["spmv", &f, "--semiring", &name, "--backend", backend, "-q"]);
                    if want.iter().all(Option::is_some) {
                        assert_eq!(o.status.code(), Some(0), "{name} {cells:?}: {}", err(&o));
                        let got: Vec<Option<i128>> =
                            column(&o).iter().map(|v| v.parse().ok()).collect();
                        assert_eq!(got, want, "{name} {backend} {cells:?}");
                    } else {
                        refused(&o, "cannot hold");
                    }
                }
            }
        }
    }
}

#[test]
fn fuzzed_values_print_as_themselves_in_every_type() {
    let mut rng = Lcg(0xf10a7);
    for case in 0..fuzz_cases() {
        // Finite values of each float type from random bits, written exactly (as f64 text),
        // one per row; y = A 1 is each value; printed, it must read back as the value.
        let f32s: Vec<f32> = (0..8)
            .map(|_| f32::from_bits(rng.next() as u32))
            .filter(|x| x.is_finite())
            .collect();
        let f64s: Vec<f64> = (0..8)
            .map(|_| f64::from_bits(rng.next() << 11 ^ rng.next()))
            .filter(|x| x.is_finite())
            .collect();
        let f16s: Vec<half::f16> = (0..8)
            .map(|_| half::f16::from_bits(rng.next() as u16))
            .filter(|x| x.is_finite())
            .collect();
        let runs: [(&str, Vec<f64>); 3] = [
            ("plus-times:f32", f32s.iter().map(|&x| x as f64).collect()),
            ("plus-times:f64", f64s.clone()),
            ("plus-times:f16", f16s.iter().map(|x| x.to_f64()).collect()),
        ];
        for (sr, vals) in runs {
            if vals.is_empty() {
                continue;
            }
            let text: Vec<String> = vals.iter().map(|v| format!("{v:e}")).collect();
            let entries: Vec<(usize, usize, &str)> = text
                .iter()
                .enumerate()
                .map(|(k, t)| (k + 1, 1, t.as_str()))
                .collect();
            let f = mtx(
                &format!("fv-{case}-{}.mtx", &sr[11..]),
                vals.len(),
                1,
                "real",
                &entries,
            );
            let o = semigraph(&["spmv", &f, "--semiring", sr, "-q"]);
            assert_eq!(o.status.code(), Some(0), "{sr}: {}", err(&o));
            for (got, want) in column(&o).iter().zip(&vals) {
                let back: f64 = got.parse().unwrap();
                let same = match sr {
                    "plus-times:f32" => back as f32 == *want as f32,
                    "plus-times:f16" => half::f16::from_f64(back).to_f64() == *want,
                    _ => back == *want,
                };
                // +0 and -0 compare equal; the sign must survive too.
                assert!(
                    same && back.is_sign_negative() == want.is_sign_negative(),
                    "{sr}: printed {got} for {want:e}"
                );
                if want.fract() == 0.0 && want.abs() < 9.2e18 {
                    assert_eq!(got.parse::<i128>().ok(), Some(*want as i128), "{sr}: {got}");
                }
            }
        }
    }
}
