//! Queues filled and read by the collectives of several GPUs: a queue's values set to one
//! value (ids moved without their values), and a set's vertices as a bitmap of the whole graph
//! and back ([`Kernel::QueueMark`], [`Kernel::QueueFromMarks`]; the NCCL all-gather of a large
//! set, `NcclComm`'s `all_gather_set`).

use super::*;
use crate::params::{QueueFromMarksArgs, QueueMarkArgs};

impl GpuBackend {
    /// The values of `q`'s first `len` entries set to `v` (no read-back): entries whose ids a
    /// collective moved without their values.
    pub(crate) fn queue_fill_values<S: Semiring>(
        &self,
        q: &mut GpuQueue<S>,
        len: usize,
        v: S::T,
    ) -> Result<(), GpuError> {
        assert!(
            len <= q.cap,
            "queue_fill_values: more entries than the queue holds"
        );
        if len == 0 {
            return Ok(());
        }
        self.apply_raw::<S>(&mut q.vals, len, Mask::All, 0, bits(v))
    }

    /// Sets bit `i + offset` of `bits` for every entry `i` of `q` and writes `q`'s step count
    /// into word `at` (no read-back): a block's vertices marked in a bitmap of the whole
    /// graph (which the caller zeroed where `q`'s bits fall), for a collective that moves a
    /// large set as `n` bits.
    pub(crate) fn queue_mark<S: Semiring>(
        &self,
        q: &GpuQueue<S>,
        offset: usize,
        bits: &mut CudaSlice<u8>,
        at: usize,
    ) -> Result<(), GpuError> {
        assert!(bits.len() > at * 4, "queue_mark: the step word");
        let f = self.dev.func::<S>(Kernel::QueueMark)?;
        QueueMarkArgs {
            qi: &q.idx,
            qh: &q.hdr,
            c: offset as u64,
            bits,
            at: at as u64,
        }
        .launch(&self.dev, &f, grid_for(q.hint()))
    }

    /// `q` becomes the set bits of `bits` (`words` words; below `q`'s `n`), each entry with
    /// value `fill`, its step count the largest of the `k` words after the bitmap (no
    /// read-back; the length stays unknown on the host until read).
    pub(crate) fn queue_from_marks<S: Semiring>(
        &self,
        bits: &CudaSlice<u8>,
        (words, k): (usize, usize),
        fill: S::T,
        q: &mut GpuQueue<S>,
    ) -> Result<(), GpuError> {
        assert!(
            words * 32 <= q.n.next_multiple_of(32),
            "queue_from_marks: n"
        );
        assert!(
            bits.len() >= (words + k) * 4,
            "queue_from_marks: the step words"
        );
        // Blocks of BLOCK threads (`grid_for`): the kernel stages at most 256 words a block.
        const _: () = assert!(BLOCK <= 256);
        self.zero_len(q)?;
        self.next_gen(q)?;
        let f = self.dev.func::<S>(Kernel::QueueFromMarks)?;
        QueueFromMarksArgs {
            bits,
            words: words as u64,
            k: k as u32,
            c: crate::device::bits(fill),
            ti: &mut q.idx,
            tv: &mut q.vals,
            th: &mut q.hdr,
        }
        .launch(&self.dev, &f, grid_for(words))?;
        q.set_hint(UNKNOWN);
        q.refused.store(false, Ordering::Relaxed);
        Ok(())
    }
}
