//! The kernels the tests compile: every kernel for a list of semirings, the built-in
//! operators over each type, and the covers the default run takes of them.

use semigraph_gpu::codegen::{self, Kernel, KernelKey};
use semigraph_semiring::ops::{CudaOp, OpKind};
use semigraph_semiring::{CudaSemiring, OrAnd, PlusTimes, Semiring, bf16};

/// The CUDA descriptions of the semirings a `for_each_*` list macro names.
macro_rules! cuda_of_each {
    ($($list:ident)::+) => {{
        let mut v = Vec::new();
        macro_rules! push {
            ($label:ident, $s:ty) => {
                v.push(<$s>::cuda());
            };
        }
        $($list)::+!(push);
        v
    }};
}

/// The CUDA description of each semiring of the testkit's cover: each value type and each
/// add/multiply family (the semiring-independent kernels and those of an operator are then
/// all there too, see [`all_kernels`]).
pub(crate) fn cover() -> Vec<CudaSemiring> {
    cuda_of_each!(semigraph_testkit::for_each_cover_semiring)
}

/// Every built-in semiring's CUDA description.
pub(crate) fn builtins() -> Vec<CudaSemiring> {
    cuda_of_each!(semigraph_semiring::for_each_builtin)
}

/// One kernel to generate: a kernel, its semiring (`None`: semiring-independent) and, for the
/// kernels of an operator, the operator.
pub(crate) type Case = (Kernel, Option<CudaSemiring>, Option<CudaOp>);

pub(crate) fn key_of((k, sr, op): &Case) -> KernelKey {
    match (sr, op) {
        (Some(sr), Some(op)) => KernelKey::with_op(*k, sr, op),
        _ => KernelKey::new(*k, sr.as_ref()),
    }
}

pub(crate) fn source_of((k, sr, op): &Case) -> String {
    match (sr, op) {
        (Some(sr), Some(op)) => codegen::source_op(*k, sr, op),
        _ => codegen::source(*k, sr.as_ref()),
    }
}

/// A test operator of `kind` over `sr`'s value type that compiles for every type.
pub(crate) fn test_op(kind: OpKind, sr: &CudaSemiring) -> CudaOp {
    let expr = match kind {
        OpKind::Unary => "x",
        OpKind::Binary => "a",
        OpKind::Select => "j <= i",
    };
    CudaOp {
        name: "test".into(),
        kind,
        value_type: sr.value_type,
        expr: expr.into(),
        helpers: String::new(),
    }
}

/// Every (kernel, semiring) pair that exists for the semirings `semirings`, and every
/// semiring-independent kernel; the kernels of an operator with a test operator of each kind
/// they take, for the first semiring of each value type.
pub(crate) fn all_kernels(semirings: &[CudaSemiring]) -> Vec<Case> {
    let mut v: Vec<Case> = Kernel::ALL
        .into_iter()
        .filter(|k| k.applies_to(None))
        .map(|k| (k, None, None))
        .collect();
    let mut types = std::collections::HashSet::new();
    for sr in semirings.iter().cloned() {
        let first_of_type = types.insert(sr.value_type);
        for k in Kernel::ALL.into_iter().filter(|k| k.applies_to(Some(&sr))) {
            if k.op_kinds().is_empty() {
                v.push((k, Some(sr.clone()), None));
            } else if first_of_type {
                for &kind in k.op_kinds() {
                    v.push((k, Some(sr.clone()), Some(test_op(kind, &sr))));
                }
            }
        }
    }
    v
}

/// The kernels of `cases` that the default run compiles: each kernel (with each kind of
/// operator it takes) once, over one of the semirings it exists for, the semiring rotating
/// from one kernel to the next through the cover; so every kernel and every semiring of the
/// cover is compiled, though not every pair (`every_kernel_compiles_with_nvrtc` compiles
/// every pair of every built-in semiring).
pub(crate) fn rotation(cases: Vec<Case>) -> Vec<Case> {
    type Group = ((Kernel, Option<OpKind>), Vec<Case>);
    let mut groups: Vec<Group> = Vec::new();
    for case in cases {
        let key = (case.0, case.2.as_ref().map(|op| op.kind));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(case),
            None => groups.push((key, vec![case])),
        }
    }
    groups
        .into_iter()
        .enumerate()
        .map(|(i, (_, mut v))| v.swap_remove(i % v.len()))
        .collect()
}

/// The kernels of [`builtin_operator_kernels`] that the default run compiles: every one over
/// `bool`, and over the seven number types each (kernel, operator) once, the type rotating
/// from one operator to the next (so each type still comes with a seventh of them).
pub(crate) fn operator_cover(all: Vec<Case>) -> Vec<Case> {
    use semigraph_semiring::ScalarType;
    let mut types: Vec<ScalarType> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    all.into_iter()
        .filter(|case| {
            let t = case
                .1
                .as_ref()
                .expect("operator kernels have a semiring")
                .value_type;
            if t == ScalarType::Bool {
                return true;
            }
            let g = types.iter().position(|&x| x == t).unwrap_or_else(|| {
                types.push(t);
                types.len() - 1
            });
            let j = seen.entry(t).or_insert(0usize);
            *j += 1;
            (*j - 1) % 7 == g % 7
        })
        .collect()
}

/// Every built-in operator over each type it exists for, in the kernels that take its kind
/// (one semiring of that type).
pub(crate) fn builtin_operator_kernels() -> Vec<Case> {
    use semigraph_semiring::ops::*;
    let mut v: Vec<Case> = Vec::new();
    macro_rules! per_type {
        ($sr:ty, [$($u:ty),*], [$($b:ty),*], [$($s:ty),*]) => {{
            type T = <$sr as Semiring>::T;
            let sr = <$sr>::cuda();
            $(v.push((Kernel::ApplyOp, Some(sr.clone()), Some(<$u as UnaryOperator<T>>::cuda())));)*
            $(v.push((Kernel::EwiseOp, Some(sr.clone()), Some(<$b as BinaryOperator<T>>::cuda())));
              v.push((Kernel::ScatterOp, Some(sr.clone()), Some(<$b as BinaryOperator<T>>::cuda())));)*
            $(v.push((Kernel::RowsSelect, Some(sr.clone()), Some(<$s as SelectOperator<T>>::cuda())));)*
        }};
    }
    macro_rules! number {
        ($($sr:ty),*) => {$(
            per_type!($sr, [Identity, Abs, Neg, Minv, One, LNot],
                [First, Second, Pair, Plus, Minus, Times, Div, Min, Max, Eq, Ne, Lt, Le, Gt, Ge, LOr, LAnd],
                [Tril, Triu, StrictTril, StrictTriu, Diag, Offdiag, ValueEq, ValueNe, ValueLt, ValueLe, ValueGt, ValueGe]);
        )*};
    }
    number!(
        PlusTimes<semigraph_semiring::f16>,
        PlusTimes<bf16>,
        PlusTimes<f32>,
        PlusTimes<f64>,
        PlusTimes<i32>,
        PlusTimes<i64>,
        PlusTimes<u32>
    );
    per_type!(
        OrAnd,
        [Identity, LNot, One],
        [First, Second, Pair, LOr, LAnd, LXor, Eq, Ne, Min, Max],
        [Tril, Diag, ValueEq, ValueNe]
    );
    v
}
