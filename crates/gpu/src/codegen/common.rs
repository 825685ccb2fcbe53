//! The helpers every semiring kernel starts with, after the semiring prelude.

/// Helpers shared by every semiring kernel (after the semiring prelude): the index type,
/// the ELL sentinel, mask tests over a mask array of any element size, the masked store with
/// accumulation, and warp shuffles of semiring values.
pub const COMMON: &str = r#"typedef unsigned int sg_idx_t;
#define SG_SENTINEL 0xffffffffu
#define SG_FULL 0xffffffffu
// A mask is a dense array of any semiring: `msize` bytes per element, `mzero` the bits of its
// zero. mode 0: every position; 1: where the mask has an entry; 2: where it has none.
#define SG_MASK_PARAMS const unsigned char* __restrict__ m, int mmode, int msize, unsigned long long mzero
#define SG_ALLOWS(i) sg_mask_allows(m, mmode, msize, mzero, (unsigned long long)(i))
__device__ __forceinline__ bool sg_mask_allows(const unsigned char* m, int mode, int msize,
                                               unsigned long long mzero, unsigned long long i) {
    if (mode == 0) return true;
    unsigned long long w;
    if (msize == 1) w = m[i];
    else if (msize == 2) w = ((const unsigned short*)m)[i];
    else if (msize == 4) w = ((const unsigned int*)m)[i];
    else w = ((const unsigned long long*)m)[i];
    bool entry = w != mzero;
    return mode == 1 ? entry : !entry;
}
// y[i] = t (accum 0) or add(y[i], t) (accum 1).
__device__ __forceinline__ void sg_store(sr_t* y, unsigned long long i, sr_t t, int accum) {
    y[i] = accum ? sr_add(y[i], t) : t;
}
__device__ __forceinline__ sr_t sr_shfl_down(sr_t v, unsigned int off, int width) {
    if (sizeof(sr_word_t) == 8) {
        unsigned long long w = (unsigned long long)sr_to_word(v);
        w = __shfl_down_sync(SG_FULL, w, off, width);
        return sr_from_word((sr_word_t)w);
    } else {
        unsigned int w = (unsigned int)sr_to_word(v);
        w = __shfl_down_sync(SG_FULL, w, off, width);
        return sr_from_word((sr_word_t)w);
    }
}
// A matrix's values: one per entry, or one for every entry (`iso`: a pattern, an unweighted
// graph), read as an array either way. A kernel parameter of kind `MatIn` (`name_p`,
// `name_iso`) becomes one of these, named as the parameter.
struct sg_vals {
    const sr_t* p;
    unsigned int iso;
    __device__ __forceinline__ sr_t operator[](unsigned long long e) const { return p[iso ? 0ull : e]; }
};
__device__ __forceinline__ sr_t sr_from_bits(unsigned long long b) { return sr_from_word((sr_word_t)b); }
__device__ __forceinline__ unsigned long long sg_gid() {
    return (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ unsigned long long sg_nthreads() {
    return (unsigned long long)gridDim.x * blockDim.x;
}
"#;
