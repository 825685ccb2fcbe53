//! cuSPARSE as a peer: CSR `SpMV` and `SpGEMM` in plus-times `f32`.

use std::ffi::c_void;

use cudarc::cusparse::sys as cs;
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use semigraph_formats::Csr;
use semigraph_semiring::PlusTimes;

use crate::GpuBackend;
use crate::error::GpuError;

/// cuSPARSE's CSR SpMV `y = A x` in `f32` (`CUSPARSE_SPMV_ALG_DEFAULT`), set up once.
pub struct CusparseSpmv<'g> {
    gpu: &'g GpuBackend,
    handle: cs::cusparseHandle_t,
    mat: cs::cusparseSpMatDescr_t,
    vx: cs::cusparseDnVecDescr_t,
    vy: cs::cusparseDnVecDescr_t,
    _rp: CudaSlice<i32>,
    _ci: CudaSlice<i32>,
    _vals: CudaSlice<f32>,
    _x: CudaSlice<f32>,
    y: CudaSlice<f32>,
    buf: CudaSlice<u8>,
    nrows: usize,
}

fn cusparse(what: &str, s: cs::cusparseStatus_t) -> Result<(), GpuError> {
    if s == cs::cusparseStatus_t::CUSPARSE_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(GpuError::Driver {
            what: format!("cuSPARSE {what}"),
            message: format!("{s:?}"),
        })
    }
}

/// Whether `libcusparse` can be loaded.
pub fn cusparse_present() -> bool {
    // SAFETY: only tries to dlopen the library by its candidate names.
    unsafe { cs::is_culib_present() }
}

/// A cuSPARSE handle on the backend's stream.
fn new_handle(gpu: &GpuBackend) -> Result<cs::cusparseHandle_t, GpuError> {
    if !cusparse_present() {
        return Err(GpuError::LibraryMissing {
            library: "libcusparse",
            hint: "install the CUDA toolkit's cuSPARSE",
        });
    }
    let mut handle: cs::cusparseHandle_t = std::ptr::null_mut();
    // SAFETY: `handle` is valid for writes; the library is present (checked above).
    cusparse("create", unsafe { cs::cusparseCreate(&mut handle) })?;
    // SAFETY: `handle` was just created; the stream belongs to the backend's context.
    cusparse("set stream", unsafe {
        cs::cusparseSetStream(handle, gpu.dev.stream.cu_stream() as cs::cudaStream_t)
    })?;
    Ok(handle)
}

impl<'g> CusparseSpmv<'g> {
    /// Uploads `a` and `x` and prepares cuSPARSE's SpMV.
    ///
    /// # Errors
    /// No `libcusparse`, out of memory, or a cuSPARSE failure.
    pub fn new(gpu: &'g GpuBackend, a: &Csr<PlusTimes<f32>>, x: &[f32]) -> Result<Self, GpuError> {
        assert_eq!(x.len(), a.ncols(), "x length");
        let to_i32 = |v: &[u32]| -> Vec<i32> { v.iter().map(|&u| u as i32).collect() };
        let d = &gpu.dev;
        let rp = d.upload(&to_i32(a.row_ptr()), "cuSPARSE row pointers")?;
        let ci = d.upload(&to_i32(a.col_idx()), "cuSPARSE columns")?;
        let vals = d.upload(a.vals(), "cuSPARSE values")?;
        let xd = d.upload(x, "cuSPARSE x")?;
        let mut y = d.zeros::<f32>(a.nrows(), "cuSPARSE y")?;
        let handle = new_handle(gpu)?;
        let stream = &d.stream;
        // Raw pointers for cuSPARSE; the buffers move into `self`, which outlives every use.
        let prp = rp.device_ptr(stream).0;
        let pci = ci.device_ptr(stream).0;
        let pv = vals.device_ptr(stream).0;
        let px = xd.device_ptr(stream).0;
        let py = y.device_ptr_mut(stream).0;
        let mut mat: cs::cusparseSpMatDescr_t = std::ptr::null_mut();
        let mut vx: cs::cusparseDnVecDescr_t = std::ptr::null_mut();
        let mut vy: cs::cusparseDnVecDescr_t = std::ptr::null_mut();
        // SAFETY: the device pointers stay valid while `self` owns their buffers; the sizes
        // match the uploaded arrays (nrows + 1 row pointers, nnz columns and values).
        unsafe {
            cusparse(
                "create CSR",
                cs::cusparseCreateCsr(
                    &mut mat,
                    a.nrows() as i64,
                    a.ncols() as i64,
                    a.nnz() as i64,
                    prp as *mut c_void,
                    pci as *mut c_void,
                    pv as *mut c_void,
                    cs::cusparseIndexType_t::CUSPARSE_INDEX_32I,
                    cs::cusparseIndexType_t::CUSPARSE_INDEX_32I,
                    cs::cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO,
                    cs::cudaDataType::CUDA_R_32F,
                ),
            )?;
            cusparse(
                "create x",
                cs::cusparseCreateDnVec(
                    &mut vx,
                    a.ncols() as i64,
                    px as *mut c_void,
                    cs::cudaDataType::CUDA_R_32F,
                ),
            )?;
            cusparse(
                "create y",
                cs::cusparseCreateDnVec(
                    &mut vy,
                    a.nrows() as i64,
                    py as *mut c_void,
                    cs::cudaDataType::CUDA_R_32F,
                ),
            )?;
        }
        let (alpha, beta) = (1.0f32, 0.0f32);
        let mut size = 0usize;
        // SAFETY: the descriptors were created above; alpha/beta are host scalars.
        cusparse("buffer size", unsafe {
            cs::cusparseSpMV_bufferSize(
                handle,
                cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE,
                &alpha as *const f32 as *const c_void,
                mat as _,
                vx as _,
                &beta as *const f32 as *const c_void,
                vy,
                cs::cudaDataType::CUDA_R_32F,
                cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_ALG_DEFAULT,
                &mut size,
            )
        })?;
        let buf = d.zeros::<u8>(size, "cuSPARSE workspace")?;
        Ok(CusparseSpmv {
            gpu,
            handle,
            mat,
            vx,
            vy,
            _rp: rp,
            _ci: ci,
            _vals: vals,
            _x: xd,
            y,
            buf,
            nrows: a.nrows(),
        })
    }

    /// One SpMV (queued on the backend's stream).
    ///
    /// # Errors
    /// A cuSPARSE failure.
    pub fn run(&mut self) -> Result<(), GpuError> {
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (pb, _g) = self.buf.device_ptr_mut(&self.gpu.dev.stream);
        // SAFETY: the handle and descriptors are live (destroyed in Drop); the workspace has
        // the size cuSPARSE asked for.
        cusparse("SpMV", unsafe {
            cs::cusparseSpMV(
                self.handle,
                cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE,
                &alpha as *const f32 as *const c_void,
                self.mat as _,
                self.vx as _,
                &beta as *const f32 as *const c_void,
                self.vy,
                cs::cudaDataType::CUDA_R_32F,
                cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_ALG_DEFAULT,
                pb as *mut c_void,
            )
        })
    }

    /// The last result `y`.
    ///
    /// # Errors
    /// A driver failure.
    pub fn result(&self) -> Result<Vec<f32>, GpuError> {
        self.gpu.dev.download(&self.y, self.nrows)
    }
}

impl Drop for CusparseSpmv<'_> {
    fn drop(&mut self) {
        // SAFETY: each object was created in `new` and is destroyed once, here.
        unsafe {
            cs::cusparseDestroySpMat(self.mat);
            cs::cusparseDestroyDnVec(self.vx);
            cs::cusparseDestroyDnVec(self.vy);
            cs::cusparseDestroy(self.handle);
        }
    }
}

/// A CSR matrix of `f32` on the device in cuSPARSE's index type, with its descriptor.
struct CsDevCsr {
    // The arrays the descriptor points into, kept alive with it.
    _rp: CudaSlice<i32>,
    _ci: CudaSlice<i32>,
    _vals: CudaSlice<f32>,
    desc: cs::cusparseSpMatDescr_t,
}

impl CsDevCsr {
    fn upload(gpu: &GpuBackend, a: &Csr<PlusTimes<f32>>) -> Result<CsDevCsr, GpuError> {
        let to_i32 = |v: &[u32]| -> Vec<i32> { v.iter().map(|&u| u as i32).collect() };
        let d = &gpu.dev;
        let rp = d.upload(&to_i32(a.row_ptr()), "cuSPARSE row pointers")?;
        let ci = d.upload(&to_i32(a.col_idx()), "cuSPARSE columns")?;
        let vals = d.upload(a.vals(), "cuSPARSE values")?;
        let stream = &d.stream;
        let (prp, pci, pv) = (
            rp.device_ptr(stream).0,
            ci.device_ptr(stream).0,
            vals.device_ptr(stream).0,
        );
        let mut desc: cs::cusparseSpMatDescr_t = std::ptr::null_mut();
        // SAFETY: the pointers stay valid while the returned value owns their buffers; the
        // sizes match the uploaded arrays.
        cusparse("create CSR", unsafe {
            cs::cusparseCreateCsr(
                &mut desc,
                a.nrows() as i64,
                a.ncols() as i64,
                a.nnz() as i64,
                prp as *mut c_void,
                pci as *mut c_void,
                pv as *mut c_void,
                cs::cusparseIndexType_t::CUSPARSE_INDEX_32I,
                cs::cusparseIndexType_t::CUSPARSE_INDEX_32I,
                cs::cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO,
                cs::cudaDataType::CUDA_R_32F,
            )
        })?;
        Ok(CsDevCsr {
            _rp: rp,
            _ci: ci,
            _vals: vals,
            desc,
        })
    }
}

impl Drop for CsDevCsr {
    fn drop(&mut self) {
        // SAFETY: created in `upload`, destroyed once.
        unsafe {
            cs::cusparseDestroySpMat(self.desc);
        }
    }
}

/// A product's CSR arrays on the device and its number of entries.
type CsrArrays = (CudaSlice<i32>, CudaSlice<i32>, CudaSlice<f32>, usize);

/// cuSPARSE's `SpGEMM` `C = A B` in `f32` (`CUSPARSE_SPGEMM_DEFAULT`): each run is the whole
/// product as a user runs it (work estimation, compute, the output's allocation and copy).
pub struct CusparseSpgemm<'g> {
    gpu: &'g GpuBackend,
    handle: cs::cusparseHandle_t,
    a: CsDevCsr,
    b: CsDevCsr,
    m: usize,
    n: usize,
    c: Option<CsrArrays>,
}

impl<'g> CusparseSpgemm<'g> {
    /// Uploads `a` and `b` and creates the handle on the backend's stream.
    ///
    /// # Errors
    /// No `libcusparse`, out of memory, or a cuSPARSE failure.
    pub fn new(
        gpu: &'g GpuBackend,
        a: &Csr<PlusTimes<f32>>,
        b: &Csr<PlusTimes<f32>>,
    ) -> Result<Self, GpuError> {
        assert_eq!(a.ncols(), b.nrows(), "CusparseSpgemm: inner sizes");
        let handle = new_handle(gpu)?;
        Ok(CusparseSpgemm {
            gpu,
            handle,
            a: CsDevCsr::upload(gpu, a)?,
            b: CsDevCsr::upload(gpu, b)?,
            m: a.nrows(),
            n: b.ncols(),
            c: None,
        })
    }

    /// One product; returns its stored entries.
    ///
    /// # Errors
    /// Out of memory or a cuSPARSE failure.
    pub fn run(&mut self) -> Result<usize, GpuError> {
        let gpu = self.gpu;
        let d = &gpu.dev;
        let (alpha, beta) = (1.0f32, 0.0f32);
        let op = cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE;
        let alg = cs::cusparseSpGEMMAlg_t::CUSPARSE_SPGEMM_DEFAULT;
        let f32t = cs::cudaDataType::CUDA_R_32F;
        let (pa, pb) = (
            &alpha as *const f32 as *const c_void,
            &beta as *const f32 as *const c_void,
        );
        let mut c: cs::cusparseSpMatDescr_t = std::ptr::null_mut();
        let mut desc: cs::cusparseSpGEMMDescr_t = std::ptr::null_mut();
        // SAFETY: an empty m x n CSR descriptor (null arrays, set after the compute phase)
        // and an SpGEMM descriptor, both destroyed at the end of this call.
        unsafe {
            cusparse(
                "create C",
                cs::cusparseCreateCsr(
                    &mut c,
                    self.m as i64,
                    self.n as i64,
                    0,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    cs::cusparseIndexType_t::CUSPARSE_INDEX_32I,
                    cs::cusparseIndexType_t::CUSPARSE_INDEX_32I,
                    cs::cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO,
                    f32t,
                ),
            )?;
            cusparse("create SpGEMM", cs::cusparseSpGEMM_createDescr(&mut desc))?;
        }
        let (ma, mb, handle) = (self.a.desc, self.b.desc, self.handle);
        let (m, mut out) = (self.m, None);
        let result = (|| {
            let mut size1 = 0usize;
            // SAFETY (this block): the handle and descriptors are live; each buffer has the
            // size cuSPARSE asked for in the call before.
            unsafe {
                cusparse(
                    "work estimation",
                    cs::cusparseSpGEMM_workEstimation(
                        handle,
                        op,
                        op,
                        pa,
                        ma as _,
                        mb as _,
                        pb,
                        c,
                        f32t,
                        alg,
                        desc,
                        &mut size1,
                        std::ptr::null_mut(),
                    ),
                )?;
            }
            let mut buf1 = d.zeros::<u8>(size1.max(1), "cuSPARSE SpGEMM buffer 1")?;
            let p1 = buf1.device_ptr_mut(&d.stream).0 as *mut c_void;
            let mut size2 = 0usize;
            unsafe {
                cusparse(
                    "work estimation",
                    cs::cusparseSpGEMM_workEstimation(
                        handle, op, op, pa, ma as _, mb as _, pb, c, f32t, alg, desc, &mut size1,
                        p1,
                    ),
                )?;
                cusparse(
                    "compute",
                    cs::cusparseSpGEMM_compute(
                        handle,
                        op,
                        op,
                        pa,
                        ma as _,
                        mb as _,
                        pb,
                        c,
                        f32t,
                        alg,
                        desc,
                        &mut size2,
                        std::ptr::null_mut(),
                    ),
                )?;
            }
            let mut buf2 = d.zeros::<u8>(size2.max(1), "cuSPARSE SpGEMM buffer 2")?;
            let p2 = buf2.device_ptr_mut(&d.stream).0 as *mut c_void;
            let (mut rows, mut cols, mut nnz) = (0i64, 0i64, 0i64);
            unsafe {
                cusparse(
                    "compute",
                    cs::cusparseSpGEMM_compute(
                        handle, op, op, pa, ma as _, mb as _, pb, c, f32t, alg, desc, &mut size2,
                        p2,
                    ),
                )?;
                cusparse(
                    "size of C",
                    cs::cusparseSpMatGetSize(c, &mut rows, &mut cols, &mut nnz),
                )?;
            }
            let nnz = nnz as usize;
            let mut rp = d.zeros::<i32>(m + 1, "cuSPARSE C row pointers")?;
            let mut ci = d.zeros::<i32>(nnz.max(1), "cuSPARSE C columns")?;
            let mut vals = d.zeros::<f32>(nnz.max(1), "cuSPARSE C values")?;
            unsafe {
                cusparse(
                    "set C",
                    cs::cusparseCsrSetPointers(
                        c,
                        rp.device_ptr_mut(&d.stream).0 as *mut c_void,
                        ci.device_ptr_mut(&d.stream).0 as *mut c_void,
                        vals.device_ptr_mut(&d.stream).0 as *mut c_void,
                    ),
                )?;
                cusparse(
                    "copy",
                    cs::cusparseSpGEMM_copy(
                        handle, op, op, pa, ma as _, mb as _, pb, c, f32t, alg, desc,
                    ),
                )?;
            }
            drop((buf1, buf2));
            out = Some((rp, ci, vals, nnz));
            Ok(nnz)
        })();
        if out.is_some() {
            self.c = out;
        }
        // SAFETY: created above, destroyed once.
        unsafe {
            cs::cusparseSpGEMM_destroyDescr(desc);
            cs::cusparseDestroySpMat(c);
        }
        result
    }

    /// The last product, with its stored entries (cuSPARSE keeps computed zeros).
    ///
    /// # Errors
    /// No run yet, or a driver failure.
    pub fn result(&self) -> Result<Csr<PlusTimes<f32>>, GpuError> {
        let Some((rp, ci, vals, nnz)) = &self.c else {
            return Err(GpuError::Driver {
                what: "cuSPARSE SpGEMM".into(),
                message: "no product was computed".into(),
            });
        };
        let d = &self.gpu.dev;
        let u = |v: Vec<i32>| -> Vec<u32> { v.into_iter().map(|x| x as u32).collect() };
        let (rp, ci) = (u(d.download(rp, self.m + 1)?), u(d.download(ci, *nnz)?));
        let vals = d.download(vals, *nnz)?;
        Csr::try_from_parts(self.m, self.n, rp, ci, vals).map_err(|e| GpuError::Driver {
            what: "cuSPARSE SpGEMM".into(),
            message: format!("an invalid product: {e}"),
        })
    }
}

impl Drop for CusparseSpgemm<'_> {
    fn drop(&mut self) {
        // SAFETY: created in `new`, destroyed once (the matrices drop their own).
        unsafe {
            cs::cusparseDestroy(self.handle);
        }
    }
}
