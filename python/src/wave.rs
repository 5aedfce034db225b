//! A wave whose registers are NumPy arrays, and executing an instruction on
//! it.

use numpy::{
    PyArray, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use amdgpu_valu::FormatKind;
use amdgpu_valu::{Operand, Target, WaveSize};
use amdgpu_valu::{NUM_SGPRS, NUM_VGPRS};

use crate::instruction::Instruction;
use crate::{exec_error, shape_text, ExecError};

/// One wave of one target. `v` is the VGPR file as a (256, lanes) uint32
/// array and `s` the SGPRs as a (106,) uint32 array: views you read and
/// write in place (`w.v[1] = 0x3f800000`; `w.v[2, 5] = ...`). Each read of
/// `w.v` or `w.s` is a new view, so reshaping it (`w.v.shape = ...`) leaves
/// the wave's registers as they were. MODE, EXEC, VCC and M0 are
/// attributes. Every register starts at 0, every lane active.
#[pyclass(module = "amdgpu_valu")]
pub struct Wave {
    target: Target,
    size: WaveSize,
    /// The MODE register.
    #[pyo3(get, set)]
    mode: u32,
    exec: u64,
    /// VCC (64 bits; wave32 uses the low half).
    #[pyo3(get, set)]
    vcc: u64,
    /// M0.
    #[pyo3(get, set)]
    m0: u32,
    v: Py<PyArray2<u32>>,
    s: Py<PyArray1<u32>>,
}

/// The register file `array` as the wave made it, or a ValueError: a
/// C-contiguous, aligned, native-order uint32 array of shape `want`
/// (writeable too when `write`). The views `w.v` and `w.s` hand out cannot
/// change it, but their `.base` is the array itself, and NumPy lets its
/// shape, dtype, strides and flags be set in place: every access checks.
fn checked<D: numpy::ndarray::Dimension>(
    array: &Bound<'_, PyArray<u32, D>>,
    want: &[usize],
    what: &str,
    write: bool,
) -> PyResult<()> {
    let a: &Bound<'_, PyUntypedArray> = array.as_untyped();
    let dtype = a.dtype();
    let problem = if a.shape() != want {
        Some(format!(
            "has shape {}, expected {}",
            shape_text(a.shape()),
            shape_text(want)
        ))
    } else if !dtype.is_equiv_to(&numpy::dtype::<u32>(array.py())) {
        Some(format!("has dtype {dtype}, expected uint32"))
    } else if !a.is_c_contiguous() || !a.is_aligned() {
        Some("is no longer a C-contiguous aligned array".into())
    } else if write
        && !a
            .getattr("flags")?
            .getattr("writeable")?
            .extract::<bool>()?
    {
        Some("is read-only".into())
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(p) => Err(PyValueError::new_err(format!(
            "the register file wave.{what} {p}: it was changed in place \
             (through .base); make a new Wave"
        ))),
    }
}

fn register(reg: usize, count: usize, kind: &str) -> PyResult<usize> {
    if reg < count {
        Ok(reg)
    } else {
        Err(ExecError::new_err(format!(
            "{kind} {reg} out of range (the file has {count})"
        )))
    }
}

/// The row `v[reg]` of a (256, lanes) register file.
fn row(v: &[u32], reg: usize, lanes: usize) -> PyResult<&[u32]> {
    v.get(reg * lanes..(reg + 1) * lanes)
        .ok_or_else(|| ExecError::new_err(format!("vgpr {reg} out of range")))
}

/// The rows `v[reg]` and `v[reg + 1]` of a (256, lanes) register file.
fn pair_rows(v: &[u32], reg: usize, lanes: usize) -> PyResult<(&[u32], &[u32])> {
    let rows = v
        .get(reg * lanes..(reg + 2) * lanes)
        .ok_or_else(|| ExecError::new_err(format!("vgpr pair {reg} out of range")))?;
    Ok(rows.split_at(lanes))
}

fn pair_rows_mut(v: &mut [u32], reg: usize, lanes: usize) -> PyResult<(&mut [u32], &mut [u32])> {
    let rows = v
        .get_mut(reg * lanes..(reg + 2) * lanes)
        .ok_or_else(|| ExecError::new_err(format!("vgpr pair {reg} out of range")))?;
    Ok(rows.split_at_mut(lanes))
}

/// The 64-bit value of each of `lanes` lanes: an int for every lane, or an
/// array of shape (lanes,) of unsigned integers.
fn lane_values(values: &Bound<'_, PyAny>, lanes: usize) -> PyResult<Vec<u64>> {
    let Ok(a) = values.cast::<PyUntypedArray>() else {
        return match values.extract::<u64>() {
            Ok(x) => Ok(vec![x; lanes]),
            Err(e) if e.is_instance_of::<PyOverflowError>(values.py()) => Err(e),
            Err(_) => Err(PyTypeError::new_err(format!(
                "values must be an int or an array of unsigned integers, not {}",
                values.get_type().name()?
            ))),
        };
    };
    let dtype = a.dtype();
    if dtype.kind() != b'u' {
        return Err(PyTypeError::new_err(format!(
            "values has dtype {dtype}; expected unsigned integers (uint64 holds a pair)"
        )));
    }
    if a.shape() != [lanes] {
        return Err(PyValueError::new_err(format!(
            "values has shape {}, expected ({lanes},) for a wave of {lanes} lanes",
            shape_text(a.shape())
        )));
    }
    // A new native, contiguous uint64 array, whatever the strides and byte
    // order of `values`.
    let np = values.py().import("numpy")?;
    let words = np
        .call_method1("asarray", (values,))?
        .call_method1("astype", (np.getattr("uint64")?,))?;
    let words = words.cast::<PyArray1<u64>>()?.try_readonly()?;
    Ok(words.as_slice()?.to_vec())
}

#[pymethods]
impl Wave {
    /// A wave for `target` with `lanes` lanes (32 or 64; None for the
    /// target's default) and MODE `mode`.
    #[new]
    #[pyo3(signature = (target, *, lanes=None, mode=0))]
    fn new(py: Python<'_>, target: &str, lanes: Option<u32>, mode: u32) -> PyResult<Wave> {
        let t = crate::target(target)?;
        let size = match lanes {
            None => t.spec().default_wave,
            Some(32) => WaveSize::Wave32,
            Some(64) => WaveSize::Wave64,
            Some(n) => {
                return Err(PyValueError::new_err(format!(
                    "a wave has 32 or 64 lanes, not {n}"
                )))
            }
        };
        if !t.spec().supports_wave(size) {
            return Err(ExecError::new_err(format!(
                "{t} does not support wave{}",
                size.lanes()
            )));
        }
        Ok(Wave {
            target: t,
            size,
            mode,
            exec: size.exec_mask(),
            vcc: 0,
            m0: 0,
            v: PyArray2::zeros(py, [NUM_VGPRS, size.lanes()], false).unbind(),
            s: PyArray1::zeros(py, NUM_SGPRS, false).unbind(),
        })
    }

    /// The target's name.
    #[getter]
    fn target(&self) -> &'static str {
        self.target.name()
    }

    /// The number of lanes (32 or 64).
    #[getter]
    fn lanes(&self) -> usize {
        self.size.lanes()
    }

    /// EXEC; bits beyond the wave's lanes are dropped when set.
    #[getter]
    fn get_exec(&self) -> u64 {
        self.exec
    }

    #[setter]
    fn set_exec(&mut self, exec: u64) {
        self.exec = exec & self.size.exec_mask();
    }

    /// The VGPRs: a (256, lanes) uint32 array, register-major; a new view
    /// of the registers at each read.
    #[getter]
    fn v<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.v.bind(py).call_method0("view")
    }

    /// The SGPRs s0 to s105: a (106,) uint32 array; a new view of the
    /// registers at each read.
    #[getter]
    fn s<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.s.bind(py).call_method0("view")
    }

    /// The 64-bit pair `v[reg:reg+1]` of every lane (low dword in `v[reg]`),
    /// as a new uint64 array.
    fn v64<'py>(&self, py: Python<'py>, reg: usize) -> PyResult<Bound<'py, PyArray1<u64>>> {
        register(reg, NUM_VGPRS - 1, "vgpr pair")?;
        let lanes = self.size.lanes();
        let v = self.v.bind(py);
        checked(v, &[NUM_VGPRS, lanes], "v", false)?;
        let v = v.try_readonly()?;
        let (lo, hi) = pair_rows(v.as_slice()?, reg, lanes)?;
        let pair = lo
            .iter()
            .zip(hi)
            .map(|(&lo, &hi)| u64::from(hi) << 32 | u64::from(lo))
            .collect();
        Ok(PyArray1::from_vec(py, pair))
    }

    /// Set the pair `v[reg:reg+1]` of every lane from an int, or an array of
    /// `lanes` unsigned integers (any strides).
    fn set_v64(&self, py: Python<'_>, reg: usize, values: &Bound<'_, PyAny>) -> PyResult<()> {
        register(reg, NUM_VGPRS - 1, "vgpr pair")?;
        let lanes = self.size.lanes();
        let values = lane_values(values, lanes)?;
        let v = self.v.bind(py);
        checked(v, &[NUM_VGPRS, lanes], "v", true)?;
        let mut v = v.try_readwrite()?;
        let (lo, hi) = pair_rows_mut(v.as_slice_mut()?, reg, lanes)?;
        for ((lo, hi), x) in lo.iter_mut().zip(hi).zip(values) {
            *lo = x as u32;
            *hi = (x >> 32) as u32;
        }
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "Wave('{}', lanes={}, mode={:#x}, exec={:#x})",
            self.target.name(),
            self.size.lanes(),
            self.mode,
            self.exec
        )
    }
}

/// The VGPRs an instruction reads or writes, and those it writes.
fn registers(i: &amdgpu_valu::Instruction) -> (Vec<usize>, Vec<usize>) {
    let wide = i.opcode.format() == FormatKind::F64;
    let regs = |op: Operand, pair: bool| match op {
        Operand::Vgpr { index, .. } => {
            let r = usize::from(index);
            if pair {
                vec![r, r + 1]
            } else {
                vec![r]
            }
        }
        _ => Vec::new(),
    };
    let dst = regs(i.dst, wide);
    let mut all = dst.clone();
    all.extend(regs(i.src0, wide));
    if let Some(src1) = i.src1 {
        all.extend(regs(src1, false));
    }
    all.retain(|&r| r < NUM_VGPRS);
    (all, dst.into_iter().filter(|&r| r < NUM_VGPRS).collect())
}

/// Execute one instruction on `wave`, as its target does: an Instruction
/// for the wave's target, or assembly text. Only the destination registers
/// change. Raises ExecError for a form the target lacks, a register out of
/// range or a misaligned pair, AssemblyError for text it cannot parse.
#[pyfunction]
pub fn execute(wave: &Bound<'_, Wave>, instruction: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = wave.py();
    let w = wave.try_borrow()?;
    let instr = if let Ok(text) = instruction.cast::<PyString>() {
        Instruction::parse(w.target, text.to_str()?)?
    } else if let Ok(i) = instruction.cast::<Instruction>() {
        i.get().clone()
    } else {
        return Err(PyTypeError::new_err(
            "instruction must be an Instruction or assembly text",
        ));
    };
    if instr.target != w.target {
        return Err(ExecError::new_err(format!(
            "the instruction is for {}, the wave for {}",
            instr.target, w.target
        )));
    }
    let lanes = w.size.lanes();
    let mut rw = amdgpu_valu::Wave::for_target_with_size(w.target, w.size).map_err(exec_error)?;
    rw.set_mode(w.mode);
    rw.set_exec(w.exec);
    rw.set_vcc(w.vcc);
    rw.set_m0(w.m0);
    let (s, v) = (w.s.bind(py), w.v.bind(py));
    // Both files are checked before anything runs or is written.
    checked(s, &[NUM_SGPRS], "s", false)?;
    checked(v, &[NUM_VGPRS, lanes], "v", true)?;
    for (i, &x) in s.try_readonly()?.as_slice()?.iter().enumerate() {
        rw.set_sgpr(i, x).map_err(exec_error)?;
    }
    let (read, written) = registers(&instr.instr);
    {
        let v = v.try_readonly()?;
        let v = v.as_slice()?;
        for &r in &read {
            for (l, &x) in row(v, r, lanes)?.iter().enumerate() {
                rw.set_vgpr(r, l, x).map_err(exec_error)?;
            }
        }
    }
    amdgpu_valu::execute(w.target, &mut rw, &instr.instr).map_err(exec_error)?;
    let mut v = v.try_readwrite()?;
    let v = v.as_slice_mut()?;
    for &r in &written {
        let dst = v
            .get_mut(r * lanes..(r + 1) * lanes)
            .ok_or_else(|| ExecError::new_err(format!("vgpr {r} out of range")))?;
        for (l, x) in dst.iter_mut().enumerate() {
            *x = rw.vgpr(r, l).map_err(exec_error)?;
        }
    }
    drop(w);
    Ok(())
}
