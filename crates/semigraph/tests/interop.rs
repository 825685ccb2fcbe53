//! The interop features (`sprs`, `ndarray`, `serde`): conversions both ways keep every entry,
//! and `sprs`'s own semiring product equals semigraph's, on a real graph.

use semigraph_algos::{
    Apsp, ApspOptions, Bfs, BfsOptions, BfsSemiring, CpuBackend, Graph, GraphOptions,
    ShortestPaths, apsp, bellman_ford, bfs,
};
use semigraph_formats::io::{ReadOptions, read_graph};
use semigraph_formats::{ConvertOptions, Csr, Dense};
use semigraph_semiring::{MinPlus, PlusTimes, Semiring, SrVal};

fn rome99() -> Csr<MinPlus<i32>> {
    let path = semigraph_testkit::data::path("dimacs9-rome99/rome99.gr");
    let g = read_graph(&path, &ReadOptions::default()).expect("rome99 reads");
    g.to_csr::<MinPlus<i32>, u32>()
        .expect("rome99 as min-plus i32")
}

#[test]
fn csr_round_trips_through_sprs() {
    let a = rome99();
    let s = a.to_sprs();
    assert_eq!(
        (s.rows(), s.cols(), s.nnz()),
        (a.nrows(), a.ncols(), a.nnz())
    );
    for (i, j, v) in a.iter() {
        assert_eq!(s.get(i, j), Some(&v), "({i}, {j})");
    }
    assert_eq!(Csr::<MinPlus<i32>>::from_sprs(s.view()).unwrap(), a);
    // CSC in, CSR out; other index types.
    let csc = s.to_other_storage();
    assert!(csc.is_csc());
    assert_eq!(Csr::<MinPlus<i32>>::from_sprs(csc.view()).unwrap(), a);
    let wide: Csr<MinPlus<i32>, u64> = Csr::from_sprs(s.view()).unwrap();
    assert_eq!(wide.to_sprs().to_dense(), s.to_dense());
}

#[test]
fn sprs_semiring_product_equals_semigraphs() {
    // One min-plus relaxation from every vertex at once: A (x) A in sprs over SrVal, against
    // the CPU backend's sparse-times-dense product on the same matrix.
    let a = rome99();
    let s = a.to_sprs().map(|&v| SrVal::<MinPlus<i32>>::new(v));
    let s2 = &s * &s;
    let n = a.nrows();
    // Row i of A^2 from semigraph: the unit row vector e_i, times A, times A again.
    for i in [0usize, 1, 17, 1000, n - 1] {
        let inf = MinPlus::<i32>::zero();
        let mut e = vec![inf; n];
        e[i] = 0;
        let row = a.vxm(&a.vxm(&e));
        for (j, &v) in row.iter().enumerate() {
            let got = s2.get(i, j).map(|x| x.get()).unwrap_or(inf);
            assert_eq!(got, v, "A^2 ({i}, {j})");
        }
    }
}

#[test]
fn sprs_refuses_what_csr_cannot_hold() {
    // Indices beyond u32: refused with the index type, never wrapped.
    let big = sprs::CsMatI::<f32, u64, u64>::new(
        (1, 5_000_000_000),
        vec![0, 1],
        vec![4_999_999_999],
        vec![1.0],
    );
    let e = Csr::<PlusTimes<f32>>::from_sprs(big.view()).unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
}

#[test]
fn dense_round_trips_through_ndarray() {
    let a = rome99();
    let sub = Csr::<MinPlus<i32>>::from_sprs(a.to_sprs().slice_outer(0..64).view()).unwrap();
    let d = Dense::from_csr(&sub, &ConvertOptions::default()).unwrap();
    let arr = d.to_ndarray();
    assert_eq!(arr.dim(), (64, a.ncols()));
    for i in 0..64 {
        for j in 0..a.ncols() {
            assert_eq!(arr[[i, j]], d.get(i, j));
        }
    }
    assert_eq!(Dense::<MinPlus<i32>>::from_ndarray(arr.view()).unwrap(), d);
    // A transposed (column-major) view is copied in its logical order.
    let t = Dense::<MinPlus<i32>>::from_ndarray(arr.t()).unwrap();
    assert_eq!((t.nrows(), t.ncols()), (a.ncols(), 64));
    assert_eq!(t.get(5, 3), d.get(3, 5));
}

#[test]
fn results_round_trip_through_serde() {
    let a = rome99();
    let cpu = CpuBackend::new();
    let g = Graph::new(&cpu, &a, GraphOptions::default()).unwrap();
    let sp = bellman_ford(&g, 0).unwrap();
    let json = serde_json::to_string(&sp).unwrap();
    assert_eq!(
        serde_json::from_str::<ShortestPaths<i32>>(&json).unwrap(),
        sp
    );

    let p = a.pattern::<BfsSemiring>();
    let gp = Graph::new(&cpu, &p, GraphOptions::default()).unwrap();
    let r = bfs(&gp, 0, &BfsOptions::default()).unwrap();
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("\"levels\""), "{}", &json[..80]);
    assert_eq!(serde_json::from_str::<Bfs>(&json).unwrap(), r);

    let tri = semigraph_algos::arcs_to_csr::<MinPlus<i64>>(3, &[(0, 1, 2), (1, 2, 3)]).unwrap();
    let all = apsp(
        &Graph::new(&cpu, &tri, GraphOptions::default()).unwrap(),
        &ApspOptions {
            next_hop: true,
            ..Default::default()
        },
    )
    .unwrap();
    let json = serde_json::to_string(&all).unwrap();
    assert_eq!(serde_json::from_str::<Apsp<i64>>(&json).unwrap(), all);
}
