//! Partitions by arcs, the collectives of simulated ranks (`LocalComm`), and the errors the
//! distributed algorithms return as values.

use super::ranks;
use semigraph_algos::dist::{self, Communicator, DistGraph, DistOptions, Partition};
use semigraph_algos::*;
use semigraph_formats::generate;
use semigraph_semiring::{MinPlus, OrAnd};

#[test]
fn partitions_cover_the_vertices_balanced_by_arcs() {
    let e = generate::kronecker(10, 16, 1);
    let a = e.to_csr::<OrAnd, u32>().unwrap();
    for k in 1..=7 {
        let p = Partition::by_weight(a.row_ptr(), k).unwrap();
        assert_eq!(p.ranks(), k);
        assert_eq!(p.offsets()[0], 0);
        assert_eq!(p.n(), a.nrows());
        assert!(p.offsets().windows(2).all(|w| w[0] <= w[1]));
        let weight = |r: usize| {
            let s = p.range(r);
            (a.row_ptr()[s.end] - a.row_ptr()[s.start]) as usize + s.len()
        };
        let total = a.nnz() + a.nrows();
        let heaviest_row = (0..a.nrows()).map(|v| a.row_len(v) + 1).max().unwrap();
        for r in 0..k {
            // Each block is within one row of its share.
            assert!(
                weight(r) <= total / k + heaviest_row + 1,
                "k={k} rank {r}: {}",
                weight(r)
            );
            for v in p.range(r) {
                assert_eq!(p.owner(v), r);
            }
        }
    }
    // More ranks than vertices: empty blocks, still a partition.
    let p = Partition::by_weight(&[0u32, 1, 2], 5).unwrap();
    assert_eq!(p.n(), 2);
    assert_eq!((0..5).map(|r| p.range(r).len()).sum::<usize>(), 2);
    assert!(Partition::even(3, 0).is_err());
    assert!(Partition::by_weight::<u32>(&[], 2).is_err());
}

#[test]
fn collectives_of_simulated_ranks() {
    let b = CpuBackend::new();
    let comm = ranks(&b, 3);
    let part = Partition::by_weight(&[0u32, 2, 2, 5, 9, 9], 3).unwrap();
    // Each rank's block of 0..5 (times 10), in place and from local blocks.
    let mut x: Vec<_> = (0..3)
        .map(|r| {
            let v: Vec<i32> = (0..5)
                .map(|i| {
                    if part.range(r).contains(&i) {
                        10 * i as i32
                    } else {
                        -1
                    }
                })
                .collect();
            b.dense::<MinPlus<i32>>(5, 1, &v).unwrap()
        })
        .collect();
    comm.all_gather::<MinPlus<i32>>(&mut x, &part).unwrap();
    for y in &x {
        assert_eq!(b.read_dense(y).unwrap(), vec![0, 10, 20, 30, 40]);
    }
    let local: Vec<_> = (0..3)
        .map(|r| {
            let v: Vec<i32> = part.range(r).map(|i| i as i32).collect();
            b.dense::<MinPlus<i32>>(v.len(), 1, &v).unwrap()
        })
        .collect();
    comm.all_gather_from::<MinPlus<i32>>(&local, &mut x, &part)
        .unwrap();
    assert_eq!(b.read_dense(&x[2]).unwrap(), vec![0, 1, 2, 3, 4]);
    // All-reduce by the semiring's add: min for min-plus.
    let mut m: Vec<_> = [[3, 9], [5, 1], [4, 4]]
        .iter()
        .map(|v| b.dense::<MinPlus<i32>>(2, 1, v).unwrap())
        .collect();
    comm.all_reduce::<MinPlus<i32>>(&mut m, dist::Reduce::Min)
        .unwrap();
    for y in &m {
        assert_eq!(b.read_dense(y).unwrap(), vec![3, 1]);
    }
    // All-gather of sparse blocks: rank r holds its even-numbered vertices in local ids,
    // valued 100 * id + r; every rank gets them all in global ids, the steps the largest.
    let mut local: Vec<_> = (0..3)
        .map(|r| {
            let own: Vec<u32> = part
                .range(r)
                .filter(|i| i % 2 == 0)
                .map(|i| i as u32)
                .collect();
            let lo = part.range(r).start as u32;
            let ids: Vec<u32> = own.iter().map(|i| i - lo).collect();
            let vals: Vec<i32> = own.iter().map(|&i| 100 * i as i32 + r as i32).collect();
            let mut q = b.queue::<MinPlus<i32>>(part.range(r).len()).unwrap();
            b.queue_set(&mut q, &ids, &vals, r + 1).unwrap();
            q
        })
        .collect();
    let mut whole: Vec<_> = (0..3)
        .map(|_| b.queue::<MinPlus<i32>>(5).unwrap())
        .collect();
    let info = comm
        .all_gather_queue::<MinPlus<i32>>(&mut local, &mut whole, &part)
        .unwrap();
    assert_eq!((info.len, info.steps), (3, 3));
    let owner = |i: u32| {
        (0..3)
            .find(|&r| part.range(r).contains(&(i as usize)))
            .unwrap()
    };
    let want: Vec<i32> = [0u32, 2, 4]
        .iter()
        .map(|&i| 100 * i as i32 + owner(i) as i32)
        .collect();
    for (q, l) in whole.iter().zip(&local) {
        assert_eq!(b.queue_read(q).unwrap(), (vec![0, 2, 4], want.clone()));
        assert_eq!(b.queue_len(q).unwrap().steps, 3);
        assert_eq!(b.queue_len(l).unwrap().len, 0, "local queues are emptied");
    }
}

#[test]
fn distributed_errors_are_values() {
    let b = CpuBackend::new();
    let comm = ranks(&b, 2);
    let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 1), (1, 2, 1)]).unwrap();
    let no_push = DistGraph::new(
        &comm,
        &a,
        DistOptions {
            push: false,
            out: false,
            packed: false,
        },
    )
    .unwrap();
    assert!(matches!(
        dist::bfs(&no_push.pattern().unwrap(), 5, &BfsOptions::default()),
        Err(Error::VertexOutOfRange { vertex: 5, n: 3 })
    ));
    assert!(
        matches!(dist::bellman_ford(&no_push, 0), Err(Error::InvalidArgument(m)) if m.contains("push"))
    );
    assert!(
        matches!(dist::wcc(&no_push), Err(Error::InvalidArgument(m)) if m.contains("out-blocks"))
    );
    // Pull-only BFS needs no push blocks.
    let r = dist::bfs(
        &no_push.pattern().unwrap(),
        0,
        &BfsOptions {
            direction: Direction::Pull,
        },
    )
    .unwrap();
    assert_eq!(r.levels, vec![0, 1, 2]);
    let rect = semigraph_formats::Csr::<MinPlus<i32>>::empty(2, 3).unwrap();
    assert!(matches!(
        DistGraph::new(&comm, &rect, DistOptions::default()),
        Err(Error::InvalidArgument(_))
    ));
    let full = DistGraph::new(&comm, &a, DistOptions::default()).unwrap();
    let bad = PageRankOptions {
        damping: 1.5,
        ..Default::default()
    };
    assert!(matches!(
        dist::pagerank(&full, &bad),
        Err(Error::InvalidArgument(_))
    ));
}
