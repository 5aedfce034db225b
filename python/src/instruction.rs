//! Instructions: assembly text and machine code, exactly as LLVM 22.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use amdgpu_valu::{asm, Target};

use crate::{AssemblyError, DecodeError};

/// One instruction for one target, from assembly text (Instruction(text,
/// target=...)) or machine code (decode()).
#[pyclass(module = "amdgpu_valu", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct Instruction {
    pub(crate) target: Target,
    pub(crate) instr: amdgpu_valu::Instruction,
    bytes: Vec<u8>,
}

impl Instruction {
    /// Parse and encode `text` for `target`.
    pub(crate) fn parse(target: Target, text: &str) -> PyResult<Instruction> {
        let err = |e: asm::AsmError| AssemblyError::new_err(e.to_string());
        let instr = asm::parse(target, text).map_err(err)?;
        let bytes = asm::assemble(target, text).map_err(err)?;
        Ok(Instruction {
            target,
            instr,
            bytes,
        })
    }
}

#[pymethods]
impl Instruction {
    /// Parse one line of LLVM AMDGPU assembly for `target` (as llvm-mc 22
    /// accepts it, with -mattr=+real-true16 on gfx11 and gfx12). Raises
    /// AssemblyError naming the 1-based column.
    #[new]
    #[pyo3(signature = (text, *, target))]
    fn new(text: &str, target: &str) -> PyResult<Instruction> {
        Instruction::parse(crate::target(target)?, text)
    }

    /// The target's name.
    #[getter]
    fn target(&self) -> &'static str {
        self.target.name()
    }

    /// The mnemonic without encoding suffix (`v_ldexp_f16`).
    #[getter]
    fn opcode(&self) -> &'static str {
        self.instr.opcode.mnemonic()
    }

    /// LLVM's canonical text (what llvm-mc's disassembler prints).
    #[getter]
    fn text(&self) -> String {
        asm::disassemble(self.target, &self.instr)
    }

    /// The machine code, as llvm-mc encodes it.
    #[getter]
    fn bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.bytes)
    }

    fn __repr__(&self) -> String {
        format!(
            "Instruction('{}', target='{}')",
            asm::disassemble(self.target, &self.instr),
            self.target.name()
        )
    }
}

/// The machine code of one line of assembly for `target`, as llvm-mc 22
/// prints it (including its choice of e32 or e64 and of inline constant or
/// literal). Raises AssemblyError naming the 1-based column.
#[pyfunction]
#[pyo3(signature = (text, *, target))]
pub fn assemble<'py>(py: Python<'py>, text: &str, target: &str) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = asm::assemble(crate::target(target)?, text)
        .map_err(|e| AssemblyError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Decode the instruction at the start of `data` for `target`; its
/// `bytes` are the bytes it took. Raises DecodeError naming the byte
/// offset (truncated input, an unknown opcode, a reserved field).
#[pyfunction]
#[pyo3(signature = (data, *, target))]
pub fn decode(data: &[u8], target: &str) -> PyResult<Instruction> {
    let target = crate::target(target)?;
    let (instr, n) = asm::decode(target, data).map_err(|e| DecodeError::new_err(e.to_string()))?;
    let bytes = data
        .get(..n)
        .ok_or_else(|| DecodeError::new_err("decoded past the input"))?
        .to_vec();
    Ok(Instruction {
        target,
        instr,
        bytes,
    })
}

/// LLVM's canonical text of the instruction at the start of `data`.
#[pyfunction]
#[pyo3(signature = (data, *, target))]
pub fn disassemble(data: &[u8], target: &str) -> PyResult<String> {
    let t = crate::target(target)?;
    Ok(asm::disassemble(t, &decode(data, target)?.instr))
}
