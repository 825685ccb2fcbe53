//! How much memory the process may still allocate, so that a graph too large for the machine is
//! refused with the bytes needed and available instead of aborting in the allocator.
//!
//! On Linux the answer is the least of: the kernel's `MemAvailable` (`/proc/meminfo`), the
//! cgroup's limit minus its usage (v2 `memory.max`/`memory.current`, or v1), and the
//! address-space limit (`ulimit -v`) minus the process's current size. Elsewhere it is
//! unknown (`None`) and only fallible allocation (`try_reserve`) protects.

use std::fs;

use rayon::prelude::*;

/// Bytes this process can still allocate, if known.
pub fn available() -> Option<u64> {
    let mut best: Option<u64> = None;
    let mut take = |v: Option<u64>| {
        if let Some(v) = v {
            best = Some(best.map_or(v, |b| b.min(v)));
        }
    };
    take(meminfo_available());
    take(cgroup_available());
    take(address_space_available());
    best
}

fn meminfo_available() -> Option<u64> {
    let s = fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

fn read_u64(path: &str) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

fn cgroup_available() -> Option<u64> {
    // cgroup v2: the process's own group.
    let rel = fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("0::").map(|p| p.trim().to_string()))
        })
        .unwrap_or_default();
    for dir in [format!("/sys/fs/cgroup{rel}"), "/sys/fs/cgroup".to_string()] {
        if let (Some(max), Some(cur)) = (
            read_u64(&format!("{dir}/memory.max")),
            read_u64(&format!("{dir}/memory.current")),
        ) {
            return Some(max.saturating_sub(cur));
        }
    }
    // cgroup v1.
    let max = read_u64("/sys/fs/cgroup/memory/memory.limit_in_bytes")?;
    let cur = read_u64("/sys/fs/cgroup/memory/memory.usage_in_bytes")?;
    (max < (1 << 60)).then(|| max.saturating_sub(cur))
}

fn address_space_available() -> Option<u64> {
    let limits = fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line.split_whitespace().nth(3)?;
    let limit: u64 = soft.parse().ok()?; // "unlimited" does not parse: no limit
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmSize:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(limit.saturating_sub(kb.saturating_mul(1024)))
}

/// Bytes kept free for what a run allocates besides its large arrays: I/O buffers, the
/// threads' arenas, small vectors (allocations that abort rather than fail when memory runs
/// out). Near a limit, a large array that would leave less is refused.
pub const RESERVE: u64 = 16 << 20;

/// Bytes a large array may still take: [`available`] less the [`RESERVE`], if known (the
/// figure refusals report).
pub fn usable() -> Option<u64> {
    available().map(|a| a.saturating_sub(RESERVE))
}

/// `Err((needed, available))` if `needed` bytes exceed what can still be allocated while
/// [`RESERVE`] stays free (`available` is what may be allocated beyond the reserve).
pub fn check(needed: u64) -> Result<(), (u64, u64)> {
    match usable() {
        Some(avail) if needed > avail => Err((needed, avail)),
        _ => Ok(()),
    }
}

/// Makes room for at least one more element in `v`, growing by doubling; `Err((needed,
/// available))` instead of aborting when the machine does not have the memory.
pub fn grow<T>(v: &mut Vec<T>) -> Result<(), (u64, u64)> {
    if v.len() < v.capacity() {
        return Ok(());
    }
    let add = v.capacity().max(1024);
    let size = std::mem::size_of::<T>().max(1) as u64;
    let needed = add as u64 * size;
    // Reading /proc costs microseconds; growth by doubling makes it rare.
    if needed >= 1 << 20 {
        check(needed)?;
    }
    v.try_reserve(add)
        .map_err(|_| (needed, usable().unwrap_or(0)))
}

/// `n` copies of `value`, or `Err((needed, available))` instead of aborting when the machine
/// does not have the memory (checked against [`available`] first for large arrays, then
/// reserved fallibly).
pub fn try_filled<T: Clone + Send + Sync>(n: usize, value: T) -> Result<Vec<T>, (u64, u64)> {
    let mut v = try_with_capacity(n)?;
    if n < 1 << 16 {
        v.resize(n, value);
    } else {
        // Written (and its pages first touched) on every core.
        v.par_extend(rayon::iter::repeat_n(value, n));
    }
    Ok(v)
}

/// An empty vector with room for exactly `n` elements, or `Err((needed, available))` (see
/// [`try_filled`]).
pub fn try_with_capacity<T>(n: usize) -> Result<Vec<T>, (u64, u64)> {
    let needed = (n as u64).saturating_mul(std::mem::size_of::<T>() as u64);
    if needed >= 1 << 24 {
        check(needed)?;
    }
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| (needed, usable().unwrap_or(0)))?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    #[test]
    fn available_is_known_on_linux_and_refuses_the_absurd() {
        if cfg!(target_os = "linux") {
            let a = super::available().expect("Linux reports available memory");
            assert!(a > 1 << 20, "{a}");
            assert!(super::check(u64::MAX).is_err());
            assert!(super::check(1024).is_ok());
        }
        let mut v: Vec<u64> = Vec::new();
        for i in 0..5000 {
            super::grow(&mut v).unwrap();
            v.push(i);
        }
        assert_eq!(v.len(), 5000);
    }
}
