//! `fract` and `ldexp` on NumPy arrays: `amdgpu_valu::lanes` (the
//! dispatched SIMD kernels of `execute`) over the array's encodings, with
//! the GIL released.

use numpy::{
    PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyString};

use amdgpu_valu::lanes::{self, LaneBits, LaneMods};
use amdgpu_valu::FormatKind;
use amdgpu_valu::{Omod, Target};

use crate::{exec_error, shape_text, target};

pub(crate) const DTYPES: &str =
    "uint16 or float16 (F16), uint32 or float32 (F32), uint64 or float64 (F64)";

/// The array behind a Python object, or a TypeError naming `what`.
pub(crate) fn ndarray<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    obj.cast::<PyUntypedArray>().cloned().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a numpy.ndarray, not {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })
}

/// The float format of an array's dtype and whether the dtype is a float
/// (else an unsigned integer holding encodings).
pub(crate) fn format_of(a: &Bound<'_, PyUntypedArray>, what: &str) -> PyResult<(FormatKind, bool)> {
    let dtype = a.dtype();
    let format = match dtype.itemsize() {
        2 => Some(FormatKind::F16),
        4 => Some(FormatKind::F32),
        8 => Some(FormatKind::F64),
        _ => None,
    };
    let kind = dtype.kind();
    match (format, kind) {
        (Some(f), b'u' | b'f') if dtype.is_native_byteorder() != Some(false) => Ok((f, kind == b'f')),
        (Some(_), b'u' | b'f') => Err(PyTypeError::new_err(format!(
            "{what} has the non-native byte order dtype {dtype}; use x.astype(x.dtype.newbyteorder('='))"
        ))),
        _ => Err(PyTypeError::new_err(format!(
            "{what} has dtype {dtype}; expected {DTYPES}"
        ))),
    }
}

pub(crate) fn bits_dtype(format: FormatKind) -> &'static str {
    match format {
        FormatKind::F16 => "uint16",
        FormatKind::F32 => "uint32",
        FormatKind::F64 => "uint64",
    }
}

pub(crate) fn omod(value: Option<&Bound<'_, PyAny>>) -> PyResult<Omod> {
    let Some(value) = value else {
        return Ok(Omod::None);
    };
    if let Ok(s) = value.cast::<PyString>() {
        return match s.to_str()? {
            "" | "none" => Ok(Omod::None),
            "mul:2" => Ok(Omod::Mul2),
            "mul:4" => Ok(Omod::Mul4),
            "div:2" => Ok(Omod::Div2),
            other => Err(PyValueError::new_err(format!(
                "omod {other:?} is not one of 'mul:2', 'mul:4', 'div:2'"
            ))),
        };
    }
    match value.extract::<i64>() {
        Ok(f @ 0..=3) => Ok(Omod::from_field(f as u32)),
        Ok(f) => Err(PyValueError::new_err(format!(
            "omod {f} is not an OMOD field value (0 none, 1 mul:2, 2 mul:4, 3 div:2)"
        ))),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
            Err(PyValueError::new_err(format!(
                "omod {} is not an OMOD field value (0 none, 1 mul:2, 2 mul:4, 3 div:2)",
                value.str()?
            )))
        }
        Err(_) => Err(PyTypeError::new_err(
            "omod must be an int (0 to 3) or one of 'mul:2', 'mul:4', 'div:2'",
        )),
    }
}

/// One instruction's settings.
struct Request {
    target: Target,
    mode: u32,
    mods: LaneMods,
}

#[allow(clippy::too_many_arguments)]
fn request(
    target_name: &str,
    mode: u32,
    abs: bool,
    neg: bool,
    omod_value: Option<&Bound<'_, PyAny>>,
    clamp: bool,
) -> PyResult<Request> {
    Ok(Request {
        target: target(target_name)?,
        mode,
        mods: LaneMods {
            abs,
            neg,
            omod: omod(omod_value)?,
            clamp,
        },
    })
}

/// The sources as C-contiguous arrays of encodings, the output array to
/// return and its encodings view.
pub(crate) struct Arrays<'py> {
    pub(crate) format: FormatKind,
    pub(crate) srcs: Vec<Bound<'py, PyAny>>,
    pub(crate) out: Bound<'py, PyAny>,
    pub(crate) out_bits: Bound<'py, PyAny>,
}

impl Arrays<'_> {
    /// `f` on the sources and `out` as slices of encodings of type `T`
    /// (read and written in place), with the GIL released; its error as
    /// the library's exception.
    pub(crate) fn run_on<T, F>(&self, f: F) -> PyResult<()>
    where
        T: numpy::Element + Send + Sync,
        F: Send + FnOnce(&[&[T]], &mut [T]) -> Result<(), amdgpu_valu::ExecError>,
    {
        let mut views = Vec::with_capacity(self.srcs.len());
        for s in &self.srcs {
            views.push(s.cast::<PyArrayDyn<T>>()?.try_readonly()?);
        }
        let srcs: Vec<&[T]> = views
            .iter()
            .map(|v| v.as_slice())
            .collect::<Result<_, _>>()?;
        let out = self.out_bits.cast::<PyArrayDyn<T>>()?;
        let mut out = out.try_readwrite()?;
        let dst = out.as_slice_mut()?;
        self.out.py().detach(|| f(&srcs, dst)).map_err(exec_error)
    }
}

/// `a` as C-contiguous, aligned memory: itself when it is,
/// else a copy. (An array NumPy calls C-contiguous can still be unaligned,
/// as a view into a byte buffer at an odd offset.)
pub(crate) fn c_aligned<'py>(
    np: &Bound<'py, PyModule>,
    a: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    np.call_method1("require", (a, a.py().None(), ["C", "A"]))
}

/// Whether NumPy's `flags.writeable` is set.
fn writeable(a: &Bound<'_, PyAny>) -> PyResult<bool> {
    a.getattr("flags")?.getattr("writeable")?.extract()
}

/// Check the sources (`(array, name)`, the first deciding the dtype and
/// shape, the others equal to it) and `out`, before anything is read.
pub(crate) fn prepare<'py>(
    sources: &[(&Bound<'py, PyAny>, &str)],
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Arrays<'py>> {
    let Some(&(x, x_name)) = sources.first() else {
        return Err(PyValueError::new_err("no source array"));
    };
    let py = x.py();
    let np = py.import("numpy")?;
    let xa = ndarray(x, x_name)?;
    let (format, float) = format_of(&xa, x_name)?;
    for &(y, name) in sources.iter().skip(1) {
        let ya = ndarray(y, name)?;
        format_of(&ya, name)?;
        if !ya.dtype().is_equiv_to(&xa.dtype()) {
            return Err(PyTypeError::new_err(format!(
                "{name} has dtype {}, {x_name} has dtype {}",
                ya.dtype(),
                xa.dtype()
            )));
        }
        if ya.shape() != xa.shape() {
            return Err(PyValueError::new_err(format!(
                "{name} has shape {}, {x_name} has shape {}",
                shape_text(ya.shape()),
                shape_text(xa.shape())
            )));
        }
    }
    let bits = np.getattr(bits_dtype(format))?;
    // Through a plain ndarray view: a subclass's view() and
    // __array_finalize__ are not run.
    let as_bits = |a: &Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
        np.call_method1("asarray", (a,))?
            .call_method1("view", (&bits,))
    };
    let given_out = out;
    let (out, out_bits) = match out {
        None => {
            let o = np.call_method1("empty", (xa.shape().to_vec(), &bits))?;
            let shown = if float {
                o.call_method1("view", (xa.dtype(),))?
            } else {
                o.clone()
            };
            (shown, o)
        }
        Some(o) => {
            let oa = ndarray(o, "out")?;
            if !oa.dtype().is_equiv_to(&xa.dtype()) {
                return Err(PyTypeError::new_err(format!(
                    "out has dtype {}, {x_name} has dtype {}",
                    oa.dtype(),
                    xa.dtype()
                )));
            }
            if oa.shape() != xa.shape() {
                return Err(PyValueError::new_err(format!(
                    "out has shape {}, {x_name} has shape {}",
                    shape_text(oa.shape()),
                    shape_text(xa.shape())
                )));
            }
            if !oa.is_c_contiguous() {
                return Err(PyValueError::new_err("out must be C-contiguous"));
            }
            if !oa.is_aligned() {
                return Err(PyValueError::new_err(
                    "out is not aligned (a view at an odd byte offset)",
                ));
            }
            if !writeable(o)? {
                return Err(PyValueError::new_err("out is read-only"));
            }
            (o.clone(), as_bits(o)?)
        }
    };
    let mut srcs = Vec::with_capacity(sources.len());
    for &(y, _) in sources {
        let mut src = as_bits(y)?;
        // In place (or overlapping): read a copy of the source.
        if let Some(o) = given_out {
            if np
                .call_method1("may_share_memory", (y, o))?
                .extract::<bool>()?
            {
                src = src.call_method0("copy")?;
            }
        }
        srcs.push(c_aligned(&np, &src)?);
    }
    Ok(Arrays {
        format,
        srcs,
        out,
        out_bits,
    })
}

/// LDEXP's exponent register words: borrowed from the caller's int32 or
/// uint32 array when it is C-contiguous, aligned and in native order,
/// else computed once.
pub(crate) enum Exponents<'py> {
    /// The words, made from an int or another integer array.
    Owned(Vec<i32>),
    /// The caller's array, read in place.
    Borrowed(numpy::PyReadonlyArrayDyn<'py, i32>),
}

impl Exponents<'_> {
    /// The words.
    pub(crate) fn words(&self) -> PyResult<&[i32]> {
        match self {
            Exponents::Owned(v) => Ok(v),
            Exponents::Borrowed(a) => Ok(a.as_slice()?),
        }
    }
}

/// The exponent register words for `n` lanes of shape `shape`: an int, or
/// an integer array of that shape (any strides and byte order). `out`, when
/// given, is the array the call writes: an exponent array sharing memory
/// with it is read through a copy.
pub(crate) fn exponents<'py>(
    e: &Bound<'py, PyAny>,
    shape: &[usize],
    n: usize,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Exponents<'py>> {
    let word = |v: i64| -> PyResult<i32> {
        if (-(1i64 << 31)..(1i64 << 32)).contains(&v) {
            Ok(v as u32 as i32)
        } else {
            Err(PyValueError::new_err(format!(
                "exponent {v} does not fit a 32-bit register (-2**31 to 2**32 - 1)"
            )))
        }
    };
    let Ok(ea) = e.cast::<PyUntypedArray>() else {
        if !e.is_instance_of::<pyo3::types::PyBool>() {
            match e.extract::<i64>() {
                Ok(v) => return Ok(Exponents::Owned(vec![word(v)?; n])),
                Err(err) if err.is_instance_of::<PyOverflowError>(e.py()) => {
                    return Err(PyValueError::new_err(format!(
                        "exponent {} does not fit a 32-bit register (-2**31 to 2**32 - 1)",
                        e.str()?
                    )))
                }
                Err(_) => {}
            }
        }
        return Err(PyTypeError::new_err(format!(
            "e must be an int or a numpy.ndarray of integers, not {}",
            e.get_type().name()?
        )));
    };
    if ea.shape() != shape {
        return Err(PyValueError::new_err(format!(
            "e has shape {}, x has shape {}",
            shape_text(ea.shape()),
            shape_text(shape)
        )));
    }
    let dtype = ea.dtype();
    if !matches!(dtype.kind(), b'i' | b'u') || dtype.itemsize() > 8 {
        return Err(PyTypeError::new_err(format!(
            "e has dtype {dtype}; expected an integer dtype (int32 and uint32 are the register word)"
        )));
    }
    let np = e.py().import("numpy")?;
    // Native byte order first: a big-endian int32 viewed as int32 would
    // swap the bytes of every exponent.
    let native = np.call_method1("asarray", (e,))?.call_method(
        "astype",
        (dtype.call_method1("newbyteorder", ("=",))?,),
        Some(&[("copy", false)].into_py_dict(e.py())?),
    )?;
    // int32/uint32: the register word as is; others: through int64.
    if dtype.itemsize() == 4 {
        let mut native = native;
        if let Some(o) = out {
            if np
                .call_method1("may_share_memory", (&native, o))?
                .extract::<bool>()?
            {
                native = native.call_method0("copy")?;
            }
        }
        // In place when contiguous and aligned (require copies otherwise).
        let i32s = c_aligned(&np, &native)?.call_method1("view", (np.getattr("int32")?,))?;
        return Ok(Exponents::Borrowed(
            i32s.cast_into::<PyArrayDyn<i32>>()?.try_readonly()?,
        ));
    }
    let words = {
        if dtype.kind() == b'u' && dtype.itemsize() == 8 && n > 0 {
            // uint64 values above 2**63 wrap in astype: refuse them first.
            let max: u64 = native.call_method0("max")?.extract()?;
            if max >= 1 << 32 {
                return Err(PyValueError::new_err(format!(
                    "exponent {max} does not fit a 32-bit register (-2**31 to 2**32 - 1)"
                )));
            }
        }
        let i64s = native.call_method1("astype", (np.getattr("int64")?,))?;
        let i64s = c_aligned(&np, &i64s)?;
        let a = i64s.cast::<PyArrayDyn<i64>>()?.try_readonly()?;
        a.as_slice()?
            .iter()
            .map(|&v| word(v))
            .collect::<PyResult<_>>()?
    };
    Ok(Exponents::Owned(words))
}

/// Run the kernel over the encodings of `a` (elements of type `T`).
fn run<T: LaneBits + numpy::Element + Send + Sync>(
    a: &Arrays<'_>,
    r: &Request,
    exp: Option<&[i32]>,
) -> PyResult<()> {
    if a.srcs.is_empty() {
        return Err(PyValueError::new_err("no source array"));
    }
    let (target, mode, mods) = (r.target, r.mode, r.mods);
    a.run_on::<T, _>(|srcs, dst| {
        let src = srcs.first().copied().unwrap_or(&[]);
        match exp {
            None => lanes::fract(target, mode, mods, src, dst),
            Some(e) => lanes::ldexp(target, mode, mods, src, e, dst),
        }
    })
}

fn dispatch(a: &Arrays<'_>, r: &Request, exp: Option<&[i32]>) -> PyResult<()> {
    match a.format {
        FormatKind::F16 => run::<u16>(a, r, exp),
        FormatKind::F32 => run::<u32>(a, r, exp),
        FormatKind::F64 => run::<u64>(a, r, exp),
    }
}

/// V_FRACT of every element of `x`, as the VOP3 form on `target` computes
/// it under MODE `mode` with the modifiers (ABS, NEG, OMOD as 0-3 or
/// 'mul:2'/'mul:4'/'div:2', CLAMP).
///
/// `x` holds encodings: uint16 or float16 is F16, uint32 or float32 F32,
/// uint64 or float64 F64, any shape and strides. Returns a new array of
/// the same dtype and shape, or writes `out` (same dtype and shape,
/// C-contiguous; may be `x` itself) and returns it. Raises TypeError for
/// another dtype, ValueError for a bad `out` or `omod`, amdgpu_valu.Error
/// for an unknown target.
#[pyfunction]
#[pyo3(signature = (x, *, target, mode=0xf0, abs=false, neg=false, omod=None, clamp=false, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn fract<'py>(
    x: &Bound<'py, PyAny>,
    target: &str,
    mode: u32,
    abs: bool,
    neg: bool,
    omod: Option<&Bound<'py, PyAny>>,
    clamp: bool,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = request(target, mode, abs, neg, omod, clamp)?;
    let a = prepare(&[(x, "x")], out)?;
    dispatch(&a, &r, None)?;
    Ok(a.out)
}

/// V_LDEXP of every element: x * 2**e, as the VOP3 form on `target`
/// computes it under MODE `mode` with the modifiers (as for fract).
///
/// `x` as for fract. `e` is an int, or an integer array of x's shape: each
/// exponent is the 32-bit register word (int32 and uint32 as they are;
/// other integers must lie in -2**31 to 2**32 - 1). F32 and F64 read all
/// 32 bits; F16 reads bits 15:0 as a signed 16-bit integer, as the hardware
/// does (0x5a5affff is -1).
#[pyfunction]
#[pyo3(signature = (x, e, *, target, mode=0xf0, abs=false, neg=false, omod=None, clamp=false, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn ldexp<'py>(
    x: &Bound<'py, PyAny>,
    e: &Bound<'py, PyAny>,
    target: &str,
    mode: u32,
    abs: bool,
    neg: bool,
    omod: Option<&Bound<'py, PyAny>>,
    clamp: bool,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = request(target, mode, abs, neg, omod, clamp)?;
    let a = prepare(&[(x, "x")], out)?;
    let shape = ndarray(x, "x")?.shape().to_vec();
    let n = shape.iter().product();
    let words = exponents(e, &shape, n, out)?;
    dispatch(&a, &r, Some(words.words()?))?;
    Ok(a.out)
}
