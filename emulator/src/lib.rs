//! # amdgpu-valu
//!
//! Executes AMD GPU vector-ALU floating-point instructions bit for bit as the
//! hardware does: V_FRACT and V_LDEXP in F16, F32 and F64 on every target of
//! `isa-spec/` ([`Target::ALL`]), under every MODE rounding, denormal and
//! FP16_OVFL setting, with ABS/NEG, OMOD, CLAMP, true16 halves, SDWA, EXEC and
//! wave32/wave64.
//!
//! The behavioural contract is the repository's `docs/semantics.md`;
//! per-target facts live in `isa-spec/` and reach the code through the
//! generated modules in `emulator/src/generated/`. All float work is
//! integer arithmetic on raw encodings: the host's rounding mode and
//! DAZ/FTZ never matter.
//!
//! ```
//! use amdgpu_valu::{execute, Encoding, Instruction, Opcode, Operand, Target, Wave};
//!
//! let target: Target = "gfx1201".parse()?;
//! let mut wave = Wave::for_target(target);
//! wave.set_mode(0xf0); // keep all subnormals, round to nearest even
//! wave.set_vgpr_all(1, 0x8000_0001)?;
//! let fract = Instruction::unary(Opcode::FractF32, Encoding::Vop1, Operand::v(0), Operand::v(1));
//! execute(target, &mut wave, &fract)?;
//! assert_eq!(wave.vgpr(0, 0)?, 0x3f7f_ffff); // 1 - tiny rounds to 1.0: capped at 1 - ulp
//! # Ok::<(), amdgpu_valu::ExecError>(())
//! ```

// The one exception, scoped to `kernels::dispatch`: calling the
// `#[target_feature]` kernel variants after detecting the CPU features.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod asm;
pub mod capture;
pub mod display;
pub mod error;
pub mod exec;
pub mod explain;
pub mod instr;
pub mod kernels;
pub mod lanes;
pub mod target;
pub mod validate;
pub mod wave;

#[rustfmt::skip]
#[allow(missing_docs, clippy::all)]
pub mod generated;

pub use error::ExecError;
pub use instr::{
    DstUnused, Encoding, FloatConst, Instruction, Opcode, Operand, Part, ScalarReg, Sdwa, SdwaSel,
    SrcMods,
};
pub use kernels::{Mode, Omod, Round};
pub use target::{Evidence, Family, Target, TargetSpec, WaveSize};
pub use wave::Wave;

/// The README's code blocks run as doctests, so its example stays true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Execute one instruction on `wave` as `target` does.
pub fn execute(target: Target, wave: &mut Wave, instr: &Instruction) -> Result<(), ExecError> {
    generated::execute(target, wave, instr)
}

/// Execute `instr` under `spec`, a target's facts possibly changed: for
/// tests that flip a policy on a copy of [`Target::spec`] and show the
/// behaviour change. Not a supported interface: use [`execute`].
#[doc(hidden)]
pub fn execute_with_spec(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    generated::execute_spec(spec, wave, instr)
}
