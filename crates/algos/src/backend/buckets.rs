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
    /// Buckets `2^k` times narrower, for a relaxation whose bucket outgrew a backend's bound
    /// of work ([`buckets_by_fixpoint`] goes on with them from that bucket, every value below
    /// it taken as settled); `None` where there are none (the provided version): the
    /// relaxation stops there. Only buckets whose relaxations never lead to an earlier bucket
    /// (the contract's third condition: non-negative weights in min-plus) may have them.
    fn narrower(&self, k: u32) -> Option<Box<dyn Buckets<T> + '_>> {
        let _ = k;
        None
    }
}

/// Stops of a bucket's relaxation that [`buckets_by_fixpoint`] goes on from, each with
/// buckets 4 times narrower than before (the caller's 4, then 16 times narrower): past them
/// it stops.
pub const NARROWINGS: u32 = 2;

/// The buckets after each stop of [`buckets_by_fixpoint`] are `2^NARROWER` times narrower.
const NARROWER: u32 = 2;

/// [`Frontier::queue_relax_buckets`] as one
/// [`queue_relax_fixpoint`](Frontier::queue_relax_fixpoint) with a deferral a bucket (the
/// provided version, and a backend's for the cases its own form does not take): the first
/// bucket below `bound(0)`; when it is settled, the next is the bucket of the smallest value
/// waiting ([`queue_reduce`](Frontier::queue_reduce), one read), and what waits is split
/// ([`queue_split`](Frontier::queue_split)) into that bucket's frontier and the rest,
/// dropping vertices settled below the previous bound. Allocates the far queues (two, of
/// `n`) once per call.
///
/// Where a bucket's relaxation stops (the backend's bound of work, or `limit` improvements in
/// all), its worklist is lost but every value is still a value some path reaches: every
/// vertex at or past the bucket's lower end waits again, found in one pass over the values
/// ([`queue_improve_dense`](Frontier::queue_improve_dense) into a copy), and the relaxation
/// goes on from that bucket with buckets [`Buckets::narrower`] (`4^k` times narrower at
/// the `k`-th stop, up to [`NARROWINGS`] stops; then `Ok(None)`).
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
    // The buckets in use: the caller's, or narrower ones after a stop.
    let mut narrow: Option<Box<dyn Buckets<S::T> + '_>> = None;
    let mut threshold = buckets.bound(0);
    // The bucket's lower end (`None`: the first bucket, nothing settled below it).
    let mut lo = None;
    let mut appends = 0usize;
    let mut stops = 0u32;
    // After a stop: the next bucket starts again at the stopped one's lower end.
    let mut again = false;
    loop {
        // The bucket below `threshold` to its fixpoint; later values wait in far.
        let bucket = step.reborrow().defer(threshold, &mut far);
        match b.queue_relax_fixpoint(bucket, q, spare, limit - appends)? {
            Some(a) => appends += a,
            None => {
                // Stopped: the bucket again, in narrower buckets, from every vertex at or
                // past its lower end.
                stops += 1;
                if stops > NARROWINGS {
                    return Ok(None);
                }
                let Some(nb) = buckets.narrower(NARROWER * stops) else {
                    return Ok(None);
                };
                narrow = Some(nb);
                waiting_again(b, &*step.d, lo, &mut far)?;
                b.queue_clear(q)?;
                again = true;
            }
        }
        let now: &dyn Buckets<S::T> = narrow.as_deref().unwrap_or(buckets);
        let (waiting, m) = b.queue_reduce(&far)?;
        if waiting.len == 0 {
            return Ok(Some(appends));
        }
        if std::mem::take(&mut again) {
            // The stopped bucket's lower end (the first bucket's: the smallest value).
            threshold = lo.unwrap_or(m);
        }
        // The next bucket holds the smallest value waiting (a value is at least its
        // vertex's value); vertices settled below `lo` drop out.
        let at = now.bucket(m);
        // A `Buckets` that rounds badly may need a later bucket; one that breaks its
        // contract stops the relaxation.
        let Some(hi) = (at..at.saturating_add(64))
            .map(|b| now.bound(b))
            .find(|hi| m < *hi && threshold < *hi)
        else {
            return Ok(None);
        };
        let l = std::mem::replace(&mut threshold, hi);
        lo = Some(l);
        b.queue_clear(q)?;
        let r = match rest.as_mut() {
            Some(r) => r,
            None => rest.insert(b.queue::<S>(n)?),
        };
        b.queue_clear(r)?;
        b.queue_split(&far, &*step.d, l, threshold, q, Some(r))?;
        std::mem::swap(&mut far, r);
    }
}

/// `far` = every vertex whose value in `d` is not below `lo` (any value with `lo` `None`) and
/// is not the zero, with its value, at step 0: one pass over `d` into a copy. The vertices a
/// stopped relaxation left (its worklist lost, its values those of some path).
pub(crate) fn waiting_again<B: Frontier + ?Sized, S: Semiring>(
    b: &B,
    d: &B::Dense<S>,
    lo: Option<S::T>,
    far: &mut B::Queue<S>,
) -> Result<()> {
    let n = b.dense_shape(d).0;
    let mut copy = b.dense_filled::<S>(n, 1, S::zero())?;
    match lo {
        None => b.queue_improve_dense(&mut copy, d, far, 0),
        Some(lo) => {
            let mut all = b.queue::<S>(n)?;
            b.queue_improve_dense(&mut copy, d, &mut all, 0)?;
            b.queue_clear(far)?;
            b.queue_split(&all, d, lo, S::zero(), far, None)
        }
    }
}
