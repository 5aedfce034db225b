//! `add`, `sub`, `subrev`, `mul` and `fma` on NumPy arrays:
//! `amdgpu_valu::lanes::arith` (the arithmetic kernels) over the arrays'
//! encodings, with the GIL released.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use amdgpu_valu::lanes::{self, ArithMods, ArithOp, LaneBits};
use amdgpu_valu::{FormatKind, Target};

use crate::arrays::{omod, prepare, Arrays};
use crate::target;

const NAMES: [&str; 3] = ["a", "b", "c"];

/// ABS or NEG per source: None (none), or a sequence of one bool per
/// source. A bare bool is refused: it would not say which source.
pub(crate) fn per_source(
    value: Option<&Bound<'_, PyAny>>,
    what: &str,
    n: usize,
) -> PyResult<[bool; 3]> {
    let mut flags = [false; 3];
    let Some(value) = value else {
        return Ok(flags);
    };
    let wrong = || {
        PyTypeError::new_err(format!(
            "{what} must be a sequence of {n} bools, one per source ({}), or None",
            NAMES.get(..n).unwrap_or(&[]).join(", ")
        ))
    };
    if value.is_instance_of::<PyBool>() || value.is_instance_of::<pyo3::types::PyString>() {
        return Err(wrong());
    }
    let items: Vec<Bound<'_, PyAny>> = match value.try_iter() {
        Ok(it) => it.collect::<PyResult<_>>().map_err(|_| wrong())?,
        Err(_) => return Err(wrong()),
    };
    if items.len() != n {
        return Err(PyValueError::new_err(format!(
            "{what} has {} entries; the operation has {n} sources",
            items.len()
        )));
    }
    for (flag, item) in flags.iter_mut().zip(&items) {
        *flag = item.extract::<bool>().map_err(|_| wrong())?;
    }
    Ok(flags)
}

/// Run the kernel over the encodings (elements of type `T`).
fn run<T: LaneBits + numpy::Element + Send + Sync>(
    op: ArithOp,
    a: &Arrays<'_>,
    target: Target,
    mode: u32,
    mods: ArithMods,
) -> PyResult<()> {
    a.run_on::<T, _>(|srcs, dst| lanes::arith(op, target, mode, mods, srcs, dst))
}

/// One call of an operation: check everything, then run.
#[allow(clippy::too_many_arguments)]
fn call<'py>(
    op: ArithOp,
    sources: &[&Bound<'py, PyAny>],
    target_name: &str,
    mode: u32,
    abs: Option<&Bound<'py, PyAny>>,
    neg: Option<&Bound<'py, PyAny>>,
    omod_value: Option<&Bound<'py, PyAny>>,
    clamp: bool,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let target = target(target_name)?;
    let n = op.sources();
    let mods = ArithMods {
        abs: per_source(abs, "abs", n)?,
        neg: per_source(neg, "neg", n)?,
        omod: omod(omod_value)?,
        clamp,
    };
    let named: Vec<(&Bound<'py, PyAny>, &str)> = sources.iter().copied().zip(NAMES).collect();
    let a = prepare(&named, out)?;
    if !lanes::has_format(op, a.format) {
        return Err(PyTypeError::new_err(format!(
            "{} has no {} form on any target (F16 and F32 only: uint16, float16, uint32, float32)",
            op.name(),
            a.format.name()
        )));
    }
    match a.format {
        FormatKind::F16 => run::<u16>(op, &a, target, mode, mods)?,
        FormatKind::F32 => run::<u32>(op, &a, target, mode, mods)?,
        FormatKind::F64 => run::<u64>(op, &a, target, mode, mods)?,
    }
    Ok(a.out)
}

/// V_ADD of every element: a + b rounded once, as the VOP3 form on
/// `target` computes it under MODE `mode` with the modifiers.
///
/// `a` and `b` hold encodings of one dtype and shape: uint16 or float16 is
/// F16, uint32 or float32 F32, uint64 or float64 F64, any shape and
/// strides. `abs` and `neg` are None or one bool per source
/// (`neg=(False, True)` negates b); `omod` is 0-3 or 'mul:2', 'mul:4',
/// 'div:2'. Returns a new array of the same dtype and shape, or writes
/// `out` (same dtype and shape, C-contiguous; may be a or b itself) and
/// returns it. Raises TypeError for another dtype or mixed dtypes,
/// ValueError for unequal shapes or a bad `out`, `omod` or modifier list,
/// amdgpu_valu.Error for an unknown target.
#[pyfunction]
#[pyo3(signature = (a, b, *, target, mode=0xf0, abs=None, neg=None, omod=None, clamp=false, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn add<'py>(
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    target: &str,
    mode: u32,
    abs: Option<&Bound<'py, PyAny>>,
    neg: Option<&Bound<'py, PyAny>>,
    omod: Option<&Bound<'py, PyAny>>,
    clamp: bool,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    call(
        ArithOp::Add,
        &[a, b],
        target,
        mode,
        abs,
        neg,
        omod,
        clamp,
        out,
    )
}

/// V_SUB of every element: a - b, as add (F16 and F32 only: no target
/// has V_SUB_F64).
///
/// `a` and `b` hold encodings of one dtype and shape: uint16 or float16 is
/// F16, uint32 or float32 F32, uint64 or float64 F64, any shape and
/// strides. `abs` and `neg` are None or one bool per source
/// (`neg=(False, True)` negates b); `omod` is 0-3 or 'mul:2', 'mul:4',
/// 'div:2'. Returns a new array of the same dtype and shape, or writes
/// `out` (same dtype and shape, C-contiguous; may be a or b itself) and
/// returns it. Raises TypeError for another dtype or mixed dtypes,
/// ValueError for unequal shapes or a bad `out`, `omod` or modifier list,
/// amdgpu_valu.Error for an unknown target.
#[pyfunction]
#[pyo3(signature = (a, b, *, target, mode=0xf0, abs=None, neg=None, omod=None, clamp=false, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn sub<'py>(
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    target: &str,
    mode: u32,
    abs: Option<&Bound<'py, PyAny>>,
    neg: Option<&Bound<'py, PyAny>>,
    omod: Option<&Bound<'py, PyAny>>,
    clamp: bool,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    call(
        ArithOp::Sub,
        &[a, b],
        target,
        mode,
        abs,
        neg,
        omod,
        clamp,
        out,
    )
}

/// V_SUBREV of every element: b - a (a NaN in both still gives a's), as
/// add (F16 and F32 only).
///
/// `a` and `b` hold encodings of one dtype and shape: uint16 or float16 is
/// F16, uint32 or float32 F32, uint64 or float64 F64, any shape and
/// strides. `abs` and `neg` are None or one bool per source
/// (`neg=(False, True)` negates b); `omod` is 0-3 or 'mul:2', 'mul:4',
/// 'div:2'. Returns a new array of the same dtype and shape, or writes
/// `out` (same dtype and shape, C-contiguous; may be a or b itself) and
/// returns it. Raises TypeError for another dtype or mixed dtypes,
/// ValueError for unequal shapes or a bad `out`, `omod` or modifier list,
/// amdgpu_valu.Error for an unknown target.
#[pyfunction]
#[pyo3(signature = (a, b, *, target, mode=0xf0, abs=None, neg=None, omod=None, clamp=false, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn subrev<'py>(
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    target: &str,
    mode: u32,
    abs: Option<&Bound<'py, PyAny>>,
    neg: Option<&Bound<'py, PyAny>>,
    omod: Option<&Bound<'py, PyAny>>,
    clamp: bool,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    call(
        ArithOp::Subrev,
        &[a, b],
        target,
        mode,
        abs,
        neg,
        omod,
        clamp,
        out,
    )
}

/// V_MUL of every element: a x b rounded once, as add.
///
/// `a` and `b` hold encodings of one dtype and shape: uint16 or float16 is
/// F16, uint32 or float32 F32, uint64 or float64 F64, any shape and
/// strides. `abs` and `neg` are None or one bool per source
/// (`neg=(False, True)` negates b); `omod` is 0-3 or 'mul:2', 'mul:4',
/// 'div:2'. Returns a new array of the same dtype and shape, or writes
/// `out` (same dtype and shape, C-contiguous; may be a or b itself) and
/// returns it. Raises TypeError for another dtype or mixed dtypes,
/// ValueError for unequal shapes or a bad `out`, `omod` or modifier list,
/// amdgpu_valu.Error for an unknown target.
#[pyfunction]
#[pyo3(signature = (a, b, *, target, mode=0xf0, abs=None, neg=None, omod=None, clamp=false, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn mul<'py>(
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    target: &str,
    mode: u32,
    abs: Option<&Bound<'py, PyAny>>,
    neg: Option<&Bound<'py, PyAny>>,
    omod: Option<&Bound<'py, PyAny>>,
    clamp: bool,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    call(
        ArithOp::Mul,
        &[a, b],
        target,
        mode,
        abs,
        neg,
        omod,
        clamp,
        out,
    )
}

/// V_FMA of every element: a x b + c with one rounding (the product is
/// never rounded on its own), as the VOP3 form on `target` computes it
/// under MODE `mode` with the modifiers.
///
/// `a`, `b` and `c` hold encodings of one dtype and shape (as for add);
/// `abs` and `neg` are None or three bools, one per source; `out` may be
/// any of the three.
#[pyfunction]
#[pyo3(signature = (a, b, c, *, target, mode=0xf0, abs=None, neg=None, omod=None, clamp=false, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn fma<'py>(
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    c: &Bound<'py, PyAny>,
    target: &str,
    mode: u32,
    abs: Option<&Bound<'py, PyAny>>,
    neg: Option<&Bound<'py, PyAny>>,
    omod: Option<&Bound<'py, PyAny>>,
    clamp: bool,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    call(
        ArithOp::Fma,
        &[a, b, c],
        target,
        mode,
        abs,
        neg,
        omod,
        clamp,
        out,
    )
}
