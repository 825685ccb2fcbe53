//! Checks of arc lists (`src[k] -> dst[k]`) before a build: every arc inside the matrix, and
//! whether the arcs are in CSR order already (then a build takes them in one pass). Each a
//! pass on every core.

use rayon::prelude::*;

use crate::error::FormatError;

/// Arcs per piece of the passes below.
const ORDER_PIECE: usize = 1 << 16;

/// Whether the arcs `src[k] -> dst[k]` are in CSR order (by source, then target): on every
/// core, stopping at the first piece out of order.
pub(crate) fn arcs_sorted(src: &[u32], dst: &[u32]) -> bool {
    let m = src.len().min(dst.len());
    let key = |k: usize| (u64::from(src[k]) << 32) | u64::from(dst[k]);
    (0..m.div_ceil(ORDER_PIECE)).into_par_iter().all(|p| {
        let from = (p * ORDER_PIECE).max(1);
        (from..((p + 1) * ORDER_PIECE).min(m)).all(|k| key(k - 1) <= key(k))
    })
}

/// Whether the arcs `src[k] -> dst[k]` are in CSR order (by source, then target, repeats
/// side by side), and whether any arc repeats: one pass on every core, each piece a plain
/// loop over its arcs' (source, target) keys.
pub(crate) fn arcs_in_csr_order(src: &[u32], dst: &[u32]) -> (bool, bool) {
    const PIECE: usize = ORDER_PIECE;
    let m = src.len().min(dst.len());
    let key = |k: usize| (u64::from(src[k]) << 32) | u64::from(dst[k]);
    (0..m.div_ceil(PIECE))
        .into_par_iter()
        .map(|p| {
            let (mut sorted, mut repeats) = (true, false);
            let mut last = key((p * PIECE).saturating_sub(1));
            for k in (p * PIECE).max(1)..((p + 1) * PIECE).min(m) {
                let next = key(k);
                sorted &= last <= next;
                repeats |= last == next;
                last = next;
            }
            (sorted, repeats)
        })
        .reduce(|| (true, false), |a, b| (a.0 && b.0, a.1 || b.1))
}

/// Checks every arc `src[k] -> dst[k]` lies inside `nrows x ncols`, naming the first that
/// does not.
pub(crate) fn check_arcs(
    nrows: usize,
    ncols: usize,
    src: &[u32],
    dst: &[u32],
) -> Result<(), FormatError> {
    // Pieces on every core, each by its largest ids (a loop the compiler vectorises; an
    // arc at a time through `find_first` took 0.5 s for 67 M arcs on 2 cores), then the
    // first bad arc of the first bad piece.
    const PIECE: usize = 1 << 16;
    let out = |k: usize| src[k] as usize >= nrows || dst[k] as usize >= ncols;
    let top = |v: &[u32]| v.iter().fold(0, |m, &x| m.max(x)) as usize;
    let bad = src
        .par_chunks(PIECE)
        .zip(dst.par_chunks(PIECE))
        .position_first(|(s, d)| top(s) >= nrows || top(d) >= ncols)
        .and_then(|p| (p * PIECE..src.len()).find(|&k| out(k)));
    if let Some(k) = bad {
        return Err(FormatError::InvalidStructure {
            format: crate::Format::Coo,
            reason: format!(
                "arc {k} ({} -> {}) outside {nrows} x {ncols}",
                src[k], dst[k]
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_checks_see_a_descent_anywhere_even_at_a_piece_boundary() {
        let m = 3 * ORDER_PIECE + 17;
        let src: Vec<u32> = (0..m as u32).map(|k| k / 3).collect();
        let dst: Vec<u32> = (0..m as u32).map(|k| k % 3).collect();
        assert!(arcs_sorted(&src, &dst));
        assert_eq!(arcs_in_csr_order(&src, &dst), (true, false));
        for at in [
            1,
            ORDER_PIECE - 1,
            ORDER_PIECE,
            ORDER_PIECE + 1,
            2 * ORDER_PIECE,
            m - 1,
        ] {
            let mut d = dst.clone();
            // The arc before `at` made larger than the one at `at` (same source).
            let mut s = src.clone();
            s[at] = s[at - 1];
            d[at - 1] = 5;
            d[at] = 4;
            let naive = (1..m).all(|k| (s[k - 1], d[k - 1]) <= (s[k], d[k]));
            assert!(!naive, "at {at}");
            assert!(!arcs_sorted(&s, &d), "at {at}");
            assert!(!arcs_in_csr_order(&s, &d).0, "at {at}");
            // A repeat there instead: sorted, with repeats.
            d[at - 1] = d[at];
            let sorted = (1..m).all(|k| (s[k - 1], d[k - 1]) <= (s[k], d[k]));
            assert_eq!(arcs_sorted(&s, &d), sorted, "at {at}");
            assert_eq!(arcs_in_csr_order(&s, &d), (sorted, true), "at {at}");
        }
    }
}
