//! The repository's test data is complete and unchanged: every file of `data/` is listed in
//! `data/SHA256SUMS` with its checksum.

#[test]
fn data_matches_its_checksums() {
    let d = semigraph_testkit::data::dir().unwrap_or_else(|e| panic!("{e}"));
    match semigraph_testkit::data::verify_checksums(&d) {
        Ok(n) => assert!(n >= 100, "only {n} files listed in {}", d.display()),
        Err(problems) => panic!(
            "{}: {} problem(s):\n{}",
            d.display(),
            problems.len(),
            problems.join("\n")
        ),
    }
}

#[test]
fn a_damaged_file_is_caught() {
    let d = std::env::temp_dir().join(format!("semigraph-testkit-sums-{}", std::process::id()));
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("sub/a.txt"), "hello\n").unwrap();
    let h = semigraph_testkit::data::sha256_file(&d.join("sub/a.txt")).unwrap();
    assert_eq!(
        h,
        "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
    );
    std::fs::write(d.join("SHA256SUMS"), format!("{h}  ./sub/a.txt\n")).unwrap();
    assert_eq!(semigraph_testkit::data::verify_checksums(&d), Ok(1));
    std::fs::write(d.join("sub/a.txt"), "hellO\n").unwrap();
    std::fs::write(d.join("extra"), "x").unwrap();
    let problems = semigraph_testkit::data::verify_checksums(&d).unwrap_err();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("extra is not listed")));
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("sub/a.txt: checksum"))
    );
    std::fs::remove_dir_all(&d).unwrap();
}
