//! Host memory around device transfers.

/// Keeps host allocations of up to 32 MiB in the allocator's heap (glibc's
/// `M_MMAP_THRESHOLD`) instead of a fresh memory map each, and up to 256 MiB of freed memory at
/// the heap's top in the process (`M_TRIM_THRESHOLD`), so that results read back from the
/// device into new arrays land on pages the process already touched.
///
/// glibc maps every allocation above a threshold (128 KiB at start) afresh and raises the
/// threshold only when such a block is freed; whether a traversal's result arrays (4 MiB for
/// a million vertices) then cost a page fault per 4 KiB depends on what the process freed
/// before. Measured on the H100 machine: BFS on Kronecker 20 to the host took 2.7-3.1 ms
/// where a process had not freed a large enough block, 1.7-1.9 ms where it had, and
/// 1.73-1.84 ms with both thresholds set here (the benchmark log in git history). The `semigraph` command calls this
/// at start; a library user may. Returns whether the allocator took the setting (`false`
/// where the C library is not glibc).
pub fn keep_large_allocations() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const MAP_ABOVE: libc::c_int = 32 << 20;
        const KEEP_FREE_TOP: libc::c_int = 256 << 20;
        // SAFETY: `mallopt` sets one parameter of glibc's allocator and touches no memory of
        // ours; glibc checks the value and returns 0 for one it refuses.
        let mapped = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, MAP_ABOVE) } == 1;
        // SAFETY: as above. A fixed map threshold also fixes the trim threshold (128 KiB):
        // freed blocks at the heap's top would go back to the kernel and fault in again.
        let kept = unsafe { libc::mallopt(libc::M_TRIM_THRESHOLD, KEEP_FREE_TOP) } == 1;
        return mapped && kept;
    }
    #[allow(unreachable_code)]
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn glibc_takes_the_threshold() {
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            assert!(super::keep_large_allocations());
        }
    }
}
