//! A relaxation to its fixpoint bucket by bucket ([`Frontier::queue_relax_buckets`]): the
//! order of delta-stepping as one backend call, the buckets of a semiring's values given by
//! the caller ([`Buckets`]), and the provided version ([`buckets_by_fixpoint`]): one
//! [`queue_relax_fixpoint`](Frontier::queue_relax_fixpoint) a bucket.

use semigraph_semiring::Semiring;

use super::{Frontier, RelaxStep};
use crate::error::Result;

/// How a relaxation by buckets orders values of type `T` (a semiring's, in which *below*
/// means better, as in [`Defer`](super::Defer)): buckets are relaxed in increasing order, and
/// bucket `b` holds the values below [`bound(b)`](Buckets::bound) that are not below
/// `bound(b - 1)`.
///
/// The contract: `x < bound(bucket(x))` for every value `x` but the semiring's zero (whose
/// bucket is `u64::MAX`: never relaxed); a value below another is in no later bucket; and a
/// relaxation does not lead to an earlier bucket than its source's (non-negative weights in
/// min-plus). A backend may rely on the first two; where the third fails the answer is still
/// the fixpoint, reached with more work.
///
/// ```
/// use semigraph_algos::Buckets;
///
/// /// Buckets of width 10 over non-negative distances.
/// struct Tens;
/// impl Buckets<i32> for Tens {
///     fn bucket(&self, x: i32) -> u64 {
///         if x == i32::MAX { u64::MAX } else { (x.max(0) / 10) as u64 }
///     }
///     fn bound(&self, b: u64) -> i32 {
///         i32::try_from((b + 1) * 10).unwrap_or(i32::MAX)
///     }
/// }
/// assert_eq!((Tens.bucket(0), Tens.bucket(9), Tens.bucket(10)), (0, 0, 1));
/// assert!(25 < Tens.bound(Tens.bucket(25)));
/// ```
pub trait Buckets<T>: Sync {
    /// The bucket of value `x`.
    fn bucket(&self, x: T) -> u64;
    /// The first value past bucket `b`.
    fn bound(&self, b: u64) -> T;
}

/// [`Frontier::queue_relax_buckets`] as one
/// [`queue_relax_fixpoint`](Frontier::queue_relax_fixpoint) with a deferral a bucket (the
/// provided version, and a backend's for the cases its own form does not take): the first
/// bucket below `bound(0)`; when it is settled, the next is the bucket of the smallest value
/// waiting ([`queue_reduce`](Frontier::queue_reduce), one read), and what waits is split
/// ([`queue_split`](Frontier::queue_split)) into that bucket's frontier and the rest,
/// dropping vertices settled below the previous bound. Allocates the far queues (two, of
/// `n`) once per call.
///
/// # Errors
/// The backend's errors.
pub fn buckets_by_fixpoint<B: Frontier + ?Sized, S: Semiring>(
    b: &B,
    mut step: RelaxStep<'_, '_, B, S>,
    q: &mut B::Queue<S>,
    spare: &mut B::Queue<S>,
    buckets: &dyn Buckets<S::T>,
    limit: usize,
) -> Result<Option<usize>> {
    step.assert_values_only();
    assert!(
        step.defer.is_none(),
        "queue_relax_buckets: the buckets defer, the step must not"
    );
    let n = b.dense_shape(&*step.d).0;
    let (mut far, mut rest) = (b.queue::<S>(n)?, None);
    let mut threshold = buckets.bound(0);
    let mut appends = 0usize;
    loop {
        // The bucket below `threshold` to its fixpoint; later values wait in far.
        let bucket = step.reborrow().defer(threshold, &mut far);
        match b.queue_relax_fixpoint(bucket, q, spare, limit - appends)? {
            Some(a) => appends += a,
            None => return Ok(None),
        }
        let (waiting, m) = b.queue_reduce(&far)?;
        if waiting.len == 0 {
            return Ok(Some(appends));
        }
        // The next bucket holds the smallest value waiting (a value is at least its
        // vertex's value); vertices settled below `lo` drop out.
        let at = buckets.bucket(m);
        // A `Buckets` that rounds badly may need a later bucket; one that breaks its
        // contract stops the relaxation.
        let Some(hi) = (at..at.saturating_add(64))
            .map(|b| buckets.bound(b))
            .find(|hi| m < *hi && threshold < *hi)
        else {
            return Ok(None);
        };
        let lo = std::mem::replace(&mut threshold, hi);
        b.queue_clear(q)?;
        let r = match rest.as_mut() {
            Some(r) => r,
            None => rest.insert(b.queue::<S>(n)?),
        };
        b.queue_clear(r)?;
        b.queue_split(&far, &*step.d, lo, threshold, q, Some(r))?;
        std::mem::swap(&mut far, r);
    }
}
