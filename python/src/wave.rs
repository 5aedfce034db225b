//! A wave whose registers are NumPy arrays, and executing an instruction on
//! it.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use amdgpu_valu::FormatKind;
use amdgpu_valu::{Operand, Target, WaveSize};
use amdgpu_valu::{NUM_SGPRS, NUM_VGPRS};

use crate::instruction::Instruction;
use crate::{exec_error, ExecError};

/// One wave of one target. `v` is the VGPR file as a (256, lanes) uint32
/// array and `s` the SGPRs as a (106,) uint32 array: views you read and
/// write in place (w.v[1] = 0x3f800000; w.v[2, 5] = ...). MODE, EXEC, VCC
/// and M0 are attributes. Every register starts at 0, every lane active.
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

/// Refuse a register array whose shape was changed in place.
fn check_shape(shape: &[usize], want: &[usize], what: &str) -> PyResult<()> {
    if shape == want {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "wave.{what} has shape {shape:?}, expected {want:?}"
        )))
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

    /// The VGPRs: a (256, lanes) uint32 array, register-major.
    #[getter]
    fn v(&self, py: Python<'_>) -> Py<PyArray2<u32>> {
        self.v.clone_ref(py)
    }

    /// The SGPRs s0 to s105: a (106,) uint32 array.
    #[getter]
    fn s(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
        self.s.clone_ref(py)
    }

    /// The 64-bit pair v[reg:reg+1] of every lane (low dword in v[reg]),
    /// as a new uint64 array.
    fn v64<'py>(&self, py: Python<'py>, reg: usize) -> PyResult<Bound<'py, PyArray1<u64>>> {
        register(reg, NUM_VGPRS - 1, "vgpr pair")?;
        let v = self.v.bind(py).try_readonly()?;
        let v = v.as_array();
        check_shape(v.shape(), &[NUM_VGPRS, self.size.lanes()], "v")?;
        let pair = (0..self.size.lanes())
            .map(|l| u64::from(v[[reg + 1, l]]) << 32 | u64::from(v[[reg, l]]))
            .collect();
        Ok(PyArray1::from_vec(py, pair))
    }

    /// Set the pair v[reg:reg+1] of every lane from an int or an array of
    /// `lanes` uint64 values.
    fn set_v64(&self, py: Python<'_>, reg: usize, values: &Bound<'_, PyAny>) -> PyResult<()> {
        register(reg, NUM_VGPRS - 1, "vgpr pair")?;
        let lanes = self.size.lanes();
        let values: Vec<u64> = match values.extract::<u64>() {
            Ok(x) => vec![x; lanes],
            Err(_) => {
                let a = values.cast::<PyArray1<u64>>().map_err(|_| {
                    PyTypeError::new_err("values must be an int or a 1-D uint64 array")
                })?;
                a.to_vec()?
            }
        };
        if values.len() != lanes {
            return Err(PyValueError::new_err(format!(
                "{} values for a wave of {lanes} lanes",
                values.len()
            )));
        }
        let mut v = self.v.bind(py).try_readwrite()?;
        let mut v = v.as_array_mut();
        check_shape(v.shape(), &[NUM_VGPRS, lanes], "v")?;
        for (l, x) in values.into_iter().enumerate() {
            v[[reg, l]] = x as u32;
            v[[reg + 1, l]] = (x >> 32) as u32;
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
    {
        let s = w.s.bind(py).try_readonly()?;
        check_shape(s.as_array().shape(), &[NUM_SGPRS], "s")?;
        for (i, &x) in s.as_array().iter().enumerate() {
            rw.set_sgpr(i, x).map_err(exec_error)?;
        }
    }
    let (read, written) = registers(&instr.instr);
    {
        let v = w.v.bind(py).try_readonly()?;
        let v = v.as_array();
        check_shape(v.shape(), &[NUM_VGPRS, lanes], "v")?;
        for &r in &read {
            for l in 0..lanes {
                rw.set_vgpr(r, l, v[[r, l]]).map_err(exec_error)?;
            }
        }
    }
    amdgpu_valu::execute(w.target, &mut rw, &instr.instr).map_err(exec_error)?;
    let mut v = w.v.bind(py).try_readwrite()?;
    let mut v = v.as_array_mut();
    check_shape(v.shape(), &[NUM_VGPRS, lanes], "v")?;
    for &r in &written {
        for l in 0..lanes {
            v[[r, l]] = rw.vgpr(r, l).map_err(exec_error)?;
        }
    }
    drop(w);
    Ok(())
}
