//! The `amdgpu_valu` Python module: bit-exact AMD GPU V_FRACT, V_LDEXP
//! and the arithmetic (V_ADD, V_SUB, V_SUBREV, V_MUL, V_FMA) on NumPy
//! arrays, instructions, waves and capture replay. Built with
//! maturin (`python/pyproject.toml`); the type stubs are
//! `python/amdgpu_valu.pyi`.

mod arith;
mod arrays;
mod instruction;
mod prepared;
mod replay;
mod wave;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use amdgpu_valu::Target;

create_exception!(
    amdgpu_valu,
    Error,
    PyValueError,
    "A request the library refused: an unknown target, or an error below."
);
create_exception!(
    amdgpu_valu,
    AssemblyError,
    Error,
    "Assembly text the assembler refused; the message names the 1-based column."
);
create_exception!(
    amdgpu_valu,
    DecodeError,
    Error,
    "Machine code the decoder refused; the message names the byte offset."
);
create_exception!(
    amdgpu_valu,
    ExecError,
    Error,
    "An instruction the target cannot execute, or a register or lane out of range."
);

/// A target by its LLVM name (`gfx1201`).
pub(crate) fn target(name: &str) -> PyResult<Target> {
    name.parse::<Target>()
        .map_err(|e| Error::new_err(e.to_string()))
}

/// The library's execution error as a Python exception.
pub(crate) fn exec_error(e: amdgpu_valu::ExecError) -> PyErr {
    match e {
        amdgpu_valu::ExecError::UnknownTarget(_) => Error::new_err(e.to_string()),
        _ => ExecError::new_err(e.to_string()),
    }
}

/// A shape as Python prints it: `(8192,)`, `(256, 32)`, `()`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
            format!("({})", dims.join(", "))
        }
    }
}

/// The names of the ten targets, in ISA-generation order.
#[pyfunction]
fn targets() -> Vec<&'static str> {
    Target::ALL.iter().map(|t| t.name()).collect()
}

/// Bit-exact AMD GPU V_FRACT, V_LDEXP, V_ADD, V_SUB, V_SUBREV, V_MUL and
/// V_FMA (F16, F32, F64) on ten targets.
///
/// fract(), ldexp(), add(), sub(), subrev(), mul() and fma() run the
/// kernels on NumPy arrays of raw encodings (uint16/float16 is F16,
/// uint32/float32 F32, uint64/float64 F64) as one VOP3 instruction on the
/// target under MODE and the modifiers; Prepared holds one such
/// instruction checked once, for calling many times. Instruction,
/// assemble(), decode() and disassemble() handle machine code exactly as
/// LLVM 22; Wave and execute() run one instruction on a wave of registers;
/// replay() checks capture rows (docs/captures.md) bit for bit.
#[pymodule]
#[pyo3(name = "amdgpu_valu")]
fn amdgpu_valu_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("AssemblyError", py.get_type::<AssemblyError>())?;
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("ExecError", py.get_type::<ExecError>())?;
    m.add_function(wrap_pyfunction!(targets, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::fract, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::ldexp, m)?)?;
    m.add_function(wrap_pyfunction!(arith::add, m)?)?;
    m.add_function(wrap_pyfunction!(arith::sub, m)?)?;
    m.add_function(wrap_pyfunction!(arith::subrev, m)?)?;
    m.add_function(wrap_pyfunction!(arith::mul, m)?)?;
    m.add_function(wrap_pyfunction!(arith::fma, m)?)?;
    m.add_class::<prepared::Prepared>()?;
    m.add_class::<instruction::Instruction>()?;
    m.add_function(wrap_pyfunction!(instruction::assemble, m)?)?;
    m.add_function(wrap_pyfunction!(instruction::decode, m)?)?;
    m.add_function(wrap_pyfunction!(instruction::disassemble, m)?)?;
    m.add_class::<wave::Wave>()?;
    m.add_function(wrap_pyfunction!(wave::execute, m)?)?;
    m.add_class::<replay::ReplayResult>()?;
    m.add_function(wrap_pyfunction!(replay::replay, m)?)?;
    Ok(())
}
