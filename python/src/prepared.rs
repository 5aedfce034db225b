//! `Prepared`: one instruction (target, operation, format, MODE and
//! modifiers) checked and decoded once, then run on NumPy arrays many
//! times (`amdgpu_valu::lanes::Prepared`), with the GIL released.

use numpy::{PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use amdgpu_valu::lanes::{self, ArithMods, LaneBits, LaneOp};
use amdgpu_valu::{FormatKind, Target};

use crate::arith::per_source;
use crate::arrays::{c_aligned, exponents, ndarray, omod, prepare, Arrays};
use crate::exec_error;

/// The prepared instruction of one format.
#[derive(Clone, Copy, Debug)]
enum Inner {
    F16(lanes::Prepared<u16>),
    F32(lanes::Prepared<u32>),
    F64(lanes::Prepared<u64>),
}

/// One VOP3 instruction checked and decoded once: `op` ('fract', 'ldexp',
/// 'add', 'sub', 'subrev', 'mul', 'fma') in `format` ('f16', 'f32',
/// 'f64') on `target` under MODE `mode`, with the modifiers: `abs` and
/// `neg` one bool per float source (FRACT and LDEXP: a bool, or one bool
/// for src0), `omod` 0-3 or 'mul:2'/'mul:4'/'div:2', `clamp`.
///
/// Calling it (or `run`) computes the instruction over every element with
/// only the arrays checked: `p(x)` for FRACT, `p(x, e)` for LDEXP (`e` an
/// int or an integer array of x's shape, the exponent register words), `p(a,
/// b)` for ADD, SUB, SUBREV and MUL, `p(a, b, c)` for FMA. The sources hold
/// encodings of the format (uint16/float16 for f16, uint32/float32 for
/// f32, uint64/float64 for f64), one dtype and shape; C-contiguous arrays
/// of that dtype are read in place. The result goes to a new array or to
/// `out` (same dtype and shape, C-contiguous; may be a source itself).
/// `exec`, when given, is a uint64 array of at least ceil(n / 64) words:
/// element i (in C order) is written only when bit i % 64 of
/// exec[i // 64] is set, the others keep out's values (a new array starts
/// as a copy of the first source).
#[pyclass(module = "amdgpu_valu", frozen)]
pub struct Prepared {
    inner: Inner,
}

fn format_named(name: &str) -> PyResult<FormatKind> {
    match name {
        "f16" => Ok(FormatKind::F16),
        "f32" => Ok(FormatKind::F32),
        "f64" => Ok(FormatKind::F64),
        other => Err(PyValueError::new_err(format!(
            "format {other:?} is not one of 'f16', 'f32', 'f64'"
        ))),
    }
}

/// ABS or NEG: per source, or (one-source operations) a bare bool.
fn flags(value: Option<&Bound<'_, PyAny>>, what: &str, op: LaneOp) -> PyResult<[bool; 3]> {
    if let Some(v) = value {
        if op.sources() == 1 && v.is_instance_of::<PyBool>() {
            return Ok([v.extract::<bool>()?, false, false]);
        }
    }
    per_source(value, what, op.sources())
}

impl Prepared {
    fn op(&self) -> LaneOp {
        match self.inner {
            Inner::F16(p) => p.op(),
            Inner::F32(p) => p.op(),
            Inner::F64(p) => p.op(),
        }
    }

    fn format(&self) -> FormatKind {
        match self.inner {
            Inner::F16(_) => FormatKind::F16,
            Inner::F32(_) => FormatKind::F32,
            Inner::F64(_) => FormatKind::F64,
        }
    }

    fn the_target(&self) -> Target {
        match self.inner {
            Inner::F16(p) => p.target(),
            Inner::F32(p) => p.target(),
            Inner::F64(p) => p.target(),
        }
    }
}

/// Run `p` over the arrays (elements of type `T`).
fn run_typed<T: LaneBits + numpy::Element + Send + Sync>(
    p: &lanes::Prepared<T>,
    a: &Arrays<'_>,
    exp: Option<&[i32]>,
    exec: Option<&[u64]>,
) -> PyResult<()> {
    let exp = exp.unwrap_or(&[]);
    a.run_on::<T, _>(|srcs, dst| match exec {
        None => p.run(srcs, exp, dst),
        Some(x) => p.run_exec(x, srcs, exp, dst),
    })
}

#[pymethods]
impl Prepared {
    #[new]
    #[pyo3(signature = (target, op, format, *, mode=0xf0, abs=None, neg=None, omod=None, clamp=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        target: &str,
        op: &str,
        format: &str,
        mode: u32,
        abs: Option<&Bound<'_, PyAny>>,
        neg: Option<&Bound<'_, PyAny>>,
        omod: Option<&Bound<'_, PyAny>>,
        clamp: bool,
    ) -> PyResult<Prepared> {
        let t = crate::target(target)?;
        let op: LaneOp = op
            .parse()
            .map_err(|e: amdgpu_valu::ExecError| PyValueError::new_err(e.to_string()))?;
        let format = format_named(format)?;
        let mods = ArithMods {
            abs: flags(abs, "abs", op)?,
            neg: flags(neg, "neg", op)?,
            omod: self::omod(omod)?,
            clamp,
        };
        let inner = match format {
            FormatKind::F16 => {
                Inner::F16(lanes::Prepared::new(t, op, mode, mods).map_err(exec_error)?)
            }
            FormatKind::F32 => {
                Inner::F32(lanes::Prepared::new(t, op, mode, mods).map_err(exec_error)?)
            }
            FormatKind::F64 => {
                Inner::F64(lanes::Prepared::new(t, op, mode, mods).map_err(exec_error)?)
            }
        };
        Ok(Prepared { inner })
    }

    /// The target's name.
    #[getter]
    fn target(&self) -> &'static str {
        self.the_target().name()
    }

    /// The operation's name ('fract', 'ldexp', 'add'...).
    #[getter(op)]
    fn op_name(&self) -> &'static str {
        self.op().name()
    }

    /// The format's name ('f16', 'f32', 'f64').
    #[getter(format)]
    fn format_name(&self) -> &'static str {
        self.format().name()
    }

    /// The MODE register value.
    #[getter]
    fn mode(&self) -> u32 {
        match self.inner {
            Inner::F16(p) => p.mode(),
            Inner::F32(p) => p.mode(),
            Inner::F64(p) => p.mode(),
        }
    }

    /// The instruction over every element (see the class): a new array, or
    /// `out`.
    #[pyo3(signature = (a, b=None, c=None, *, out=None, exec=None))]
    fn run<'py>(
        &self,
        a: &Bound<'py, PyAny>,
        b: Option<&Bound<'py, PyAny>>,
        c: Option<&Bound<'py, PyAny>>,
        out: Option<&Bound<'py, PyAny>>,
        exec: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let op = self.op();
        let given = 1 + usize::from(b.is_some()) + usize::from(c.is_some());
        let want = op.sources() + usize::from(op.has_exponent());
        if given != want || (c.is_some() && b.is_none()) {
            let names = ["(x)", "(x, e)", "(a, b)", "(a, b, c)"];
            let form = match (op.has_exponent(), op.sources()) {
                (false, 1) => names[0],
                (true, _) => names[1],
                (_, 2) => names[2],
                _ => names[3],
            };
            return Err(PyTypeError::new_err(format!(
                "v_{} takes {want} operand(s) {form}, {given} given",
                op.name()
            )));
        }
        let mut sources: Vec<(&Bound<'py, PyAny>, &str)> = vec![(a, "a")];
        if !op.has_exponent() {
            sources.extend(b.map(|b| (b, "b")));
            sources.extend(c.map(|c| (c, "c")));
        }
        let arrays = prepare(&sources, out)?;
        if arrays.format != self.format() {
            return Err(PyTypeError::new_err(format!(
                "the instruction is {}, a holds {} encodings; expected {}",
                self.format().name().to_uppercase(),
                arrays.format.name().to_uppercase(),
                match self.format() {
                    FormatKind::F16 => "uint16 or float16",
                    FormatKind::F32 => "uint32 or float32",
                    FormatKind::F64 => "uint64 or float64",
                }
            )));
        }
        let shape = ndarray(a, "a")?.shape().to_vec();
        let n: usize = shape.iter().product();
        let words = match (op.has_exponent(), b) {
            (true, Some(e)) => Some(exponents(e, &shape, n, out)?),
            _ => None,
        };
        let exp = match &words {
            Some(w) => Some(w.words()?),
            None => None,
        };
        let py = a.py();
        let exec_words = match exec {
            None => None,
            Some(x) => {
                let xa = ndarray(x, "exec")?;
                let ok = xa.dtype().is_equiv_to(&numpy::dtype::<u64>(py));
                if !ok {
                    return Err(PyTypeError::new_err(format!(
                        "exec has dtype {}; expected uint64",
                        xa.dtype()
                    )));
                }
                let np = py.import("numpy")?;
                let x = c_aligned(&np, x)?;
                Some(x.cast_into::<PyArrayDyn<u64>>()?.try_readonly()?)
            }
        };
        let exec = match &exec_words {
            Some(w) => Some(w.as_slice()?),
            None => None,
        };
        if exec.is_some() && out.is_none() {
            // Inactive elements of a new array keep the first source's values.
            let src0 = arrays
                .srcs
                .first()
                .ok_or_else(|| PyValueError::new_err("no source array"))?;
            arrays.out_bits.call_method1("__setitem__", ((), src0))?;
        }
        match &self.inner {
            Inner::F16(p) => run_typed(p, &arrays, exp, exec)?,
            Inner::F32(p) => run_typed(p, &arrays, exp, exec)?,
            Inner::F64(p) => run_typed(p, &arrays, exp, exec)?,
        }
        Ok(arrays.out)
    }

    /// The same as `run`.
    #[pyo3(signature = (a, b=None, c=None, *, out=None, exec=None))]
    fn __call__<'py>(
        &self,
        a: &Bound<'py, PyAny>,
        b: Option<&Bound<'py, PyAny>>,
        c: Option<&Bound<'py, PyAny>>,
        out: Option<&Bound<'py, PyAny>>,
        exec: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.run(a, b, c, out, exec)
    }

    fn __repr__(&self) -> String {
        format!(
            "Prepared('{}', '{}', '{}', mode={:#x})",
            self.target(),
            self.op().name(),
            self.format().name(),
            self.mode()
        )
    }
}
