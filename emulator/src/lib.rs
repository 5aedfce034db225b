//! # amdgpu-valu
//!
//! Executes AMD GPU vector-ALU floating-point instructions bit for bit as the
//! hardware does: V_FRACT and V_LDEXP in F16, F32 and F64 on ten targets
//! ([`Target::ALL`]: gfx908 to gfx1250), under every MODE rounding,
//! denormal and FP16_OVFL setting, with ABS/NEG, OMOD, CLAMP, true16
//! halves, SDWA, EXEC and wave32/wave64.
//!
//! The behavioural contract is the repository's `docs/semantics.md`
//! (shipped with the crate); the per-target facts come from the
//! repository's `isa-spec/` YAML files, compiled into the crate and
//! readable at run time through [`Target::spec`]. All float work is
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
//!
//! ## The public API
//!
//! Everything public is listed here; the rest of the crate is private and
//! may change in any release.
//!
//! - **Targets**: [`Target`] (parse LLVM's name with `"gfx1201".parse()`,
//!   [`Target::ALL`]), [`Family`], and the facts [`Target::spec`] returns:
//!   [`TargetSpec`], [`Form`], [`WaveSize`], and each policy as a
//!   [`Sourced`] value with its [`Evidence`]: [`OmodGate`], [`ClampNan`],
//!   [`SnanPolicy`], [`F16DstHigh`], [`SdwaF16Output`], [`SdwaF16DwordDst`],
//!   [`SdwaConstantSel`], [`SdwaReservedBits`].
//! - **Wave state**: [`Wave`] (VGPRs, SGPRs, VCC, M0, EXEC, MODE; sizes
//!   [`NUM_VGPRS`], [`NUM_SGPRS`]), the registers an instruction wrote
//!   ([`Written`], [`RegisterSet`]) and the MODE register's fields
//!   ([`Mode`], [`Round`]).
//! - **Instructions**: [`Instruction`] with [`Opcode`], [`Encoding`],
//!   [`Operand`], [`Part`], [`ScalarReg`], [`FloatConst`], [`SrcMods`],
//!   [`Omod`], [`Sdwa`], [`SdwaSel`], [`DstUnused`]; result formats
//!   [`FormatKind`].
//! - **Executing**: [`execute`], with [`ExecError`] for every refused
//!   request.
//! - **Machine code**: [`asm`]: [`asm::parse`], [`asm::assemble`],
//!   [`asm::encode`], [`asm::decode`], [`asm::disassemble`], with their
//!   errors [`asm::AsmError`], [`asm::EncodeError`] (and [`asm::Slot`]),
//!   [`asm::DecodeError`].
//! - **Capture replay**: [`capture`]: parse capture text
//!   ([`capture::parse_file`], [`capture::parse_line`],
//!   [`capture::parse_assignment`] into [`capture::Row`],
//!   [`capture::Assignment`], [`capture::Loc`]; errors
//!   [`capture::CaptureError`], [`capture::FieldError`]) and run rows bit
//!   for bit ([`capture::Replayer`], [`capture::run_row`],
//!   [`capture::prepare_wave`]) into a [`capture::Outcome`] with its
//!   [`capture::Mismatch`]es ([`capture::LEFT_ALONE_BITS_WRITTEN`]), or
//!   line by line into the command's report ([`capture::Replayer::replay_line`],
//!   [`capture::LineReport`]; a file's lines in bounded memory with
//!   [`capture::LineReader`], at most [`capture::MAX_LINE_BYTES`] each,
//!   [`capture::ReadLine`]), or a whole text at once
//!   ([`capture::replay_text`], [`capture::TextReport`]);
//!   [`capture::format_bytes`] prints machine code as `llvm-mc` does.
//! - **Explanations**: [`explain`]: [`explain::explain`] gives every
//!   decision behind one lane's result ([`explain::Explanation`],
//!   [`explain::Step`]); [`explain::value`] prints an encoding's value.
//! - **Lane arrays**, for emulators with their own register files:
//!   [`lanes`]: [`lanes::fract`], [`lanes::ldexp`] and their EXEC-masked
//!   forms [`lanes::fract_exec`], [`lanes::ldexp_exec`] run one VOP3
//!   instruction for a target, a MODE value and the modifiers
//!   ([`lanes::LaneMods`]) over slices of raw lanes ([`lanes::LaneBits`]:
//!   `u16`, `u32`, `u64`), through the same dispatched SIMD kernels as
//!   [`execute`]; the arithmetic [`lanes::add`], [`lanes::sub`],
//!   [`lanes::subrev`], [`lanes::mul`], [`lanes::fma`] (or [`lanes::arith`]
//!   and [`lanes::arith_exec`] with a [`lanes::ArithOp`]) with
//!   [`lanes::ArithMods`] (ABS/NEG per source, OMOD, CLAMP), and
//!   [`lanes::has_format`].
//!
//! The kernel path can be forced to the per-lane scalar kernels with the
//! environment variable `AMDGPU_VALU_FORCE_SCALAR=1` (same results). On
//! x86_64 the vectorised kernels are compiled for AVX-512, AVX2, x86-64-v2
//! and the SSE2 baseline, and the best the CPU has runs;
//! `AMDGPU_VALU_FORCE_ISA=baseline|x86-64-v2|avx2|avx512` forces one (same
//! results; a level the CPU lacks is refused with a message on standard
//! error and the best one runs).
//!
//! Every function that takes outside input returns a `Result`; none
//! panics on bad input.

// The one exception, scoped to `kernels::dispatch`: calling the
// `#[target_feature]` kernel variants after detecting the CPU features.
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod asm;
pub mod capture;
pub mod explain;
pub mod lanes;

mod display;
mod dpp;
mod error;
mod exec;
mod instr;
mod kernels;
mod target;
mod validate;

mod test_rng;
mod wave;

#[rustfmt::skip]
#[allow(missing_docs, clippy::all)]
mod generated;

pub use dpp::{Dpp, Dpp16, DppControl, DppControlKind, DppControls, DppLane, DppSkip, DppZero};
pub use error::ExecError;
pub use instr::{
    DstUnused, Encoding, FloatConst, Instruction, NotModelled, Opcode, OpcodeInfo, Operand,
    OperationKind, Part, ScalarReg, Sdwa, SdwaSel, SourceType, Special, SrcMods, NOT_MODELLED,
};
pub use kernels::{ClampNan, FormatKind, Mode, Omod, OmodGate, Round, SnanPolicy};
pub use target::{
    BoundCtrlZero, DppBcastLowRows, DppForm, DppInactiveSource, DppMixedHalves, DppReservedBits,
    DppReservedCtrl, DppShareXmask, DppSpec, DppZeroFill, Evidence, F16DstHigh, Family, Form,
    SdwaConstantSel, SdwaF16DwordDst, SdwaF16Output, SdwaReservedBits, Sourced, Target, TargetSpec,
    WaveSize,
};
pub use wave::{RegisterSet, Wave, Written, NUM_SGPRS, NUM_TTMPS, NUM_VGPRS};

/// Not API: internals that the workspace's own tests, benches and the
/// bindings' benches reach into (the kernels on their own, the typed
/// executor). Hidden from the documentation, outside semver: anything here
/// may change or go in any release. Users never need it.
///
/// The internals are reachable only through here:
///
/// ```compile_fail
/// use amdgpu_valu::kernels::Policy;
/// ```
///
/// ```compile_fail
/// let _ = amdgpu_valu::generated::spec(amdgpu_valu::Target::Gfx1201);
/// ```
///
/// ```
/// use amdgpu_valu::__testing::kernels::Policy;
/// ```
#[doc(hidden)]
pub mod __testing {
    /// The float kernels, their policy and format descriptors, the
    /// whole-wave drivers and the run-time kernel-path selection.
    pub mod kernels {
        pub use crate::kernels::*;
    }

    /// The typed executor (`execute::<Operation, Format>`), which the
    /// generated dispatch calls.
    pub mod exec {
        pub use crate::exec::execute;
    }

    /// The seeded generator every test and bench draws its cases from.
    pub use crate::test_rng::Rng;

    /// `TargetSpec::float_rules`: the rules a kernel policy is built from.
    pub fn float_rules(spec: &crate::TargetSpec) -> kernels::FloatRules {
        spec.float_rules()
    }

    /// Execute `instr` under `spec`, a target's facts possibly changed: for
    /// tests that flip a policy on a copy of [`Target::spec`](crate::Target::spec)
    /// and show the behaviour change.
    pub fn execute_with_spec(
        spec: &crate::TargetSpec,
        wave: &mut crate::Wave,
        instr: &crate::Instruction,
    ) -> Result<(), crate::ExecError> {
        crate::generated::execute_spec(spec, wave, instr)
    }

    /// Run the arithmetic kernel of `instr` (ADD, SUB, SUBREV, MUL, FMA)
    /// in `format` over lanes of raw encodings: `dst[i]` gets the result of lane `i` of
    /// `srcs` (src0, src1, src2; src2 is read only by FMA) under `rules`
    /// and `mode`, as one VOP3 instruction. Sources of another length than
    /// `dst`, or an encoding wider than the format, are an error.
    pub fn arith_lanes(
        instr: kernels::arith::ArithInstr,
        format: crate::FormatKind,
        rules: &kernels::FloatRules,
        mode: crate::Mode,
        srcs: [&[u64]; 3],
        dst: &mut [u64],
    ) -> Result<(), crate::ExecError> {
        use crate::kernels::{F16, F32, F64};
        match format {
            crate::FormatKind::F16 => arith_typed::<F16>(instr, rules, mode, srcs, dst),
            crate::FormatKind::F32 => arith_typed::<F32>(instr, rules, mode, srcs, dst),
            crate::FormatKind::F64 => arith_typed::<F64>(instr, rules, mode, srcs, dst),
        }
    }

    /// One lane of [`arith_lanes`].
    pub fn arith_lane(
        instr: kernels::arith::ArithInstr,
        format: crate::FormatKind,
        rules: &kernels::FloatRules,
        mode: crate::Mode,
        srcs: [u64; 3],
    ) -> Result<u64, crate::ExecError> {
        let mut dst = [0];
        arith_lanes(
            instr,
            format,
            rules,
            mode,
            [&srcs[..1], &srcs[1..2], &srcs[2..]],
            &mut dst,
        )?;
        Ok(dst[0])
    }

    fn arith_typed<F: kernels::Format>(
        instr: kernels::arith::ArithInstr,
        rules: &kernels::FloatRules,
        mode: crate::Mode,
        srcs: [&[u64]; 3],
        dst: &mut [u64],
    ) -> Result<(), crate::ExecError> {
        const NAMES: [&str; 3] = ["src0", "src1", "src2"];
        let limit = u64::MAX >> (64 - F::WIDTH);
        let mut lanes: [Vec<F::Bits>; 3] = Default::default();
        for (i, (src, lane)) in srcs.iter().zip(lanes.iter_mut()).enumerate() {
            let name = NAMES.get(i).copied().unwrap_or("src");
            if i >= instr.op.sources() {
                *lane = vec![F::Bits::default(); dst.len()];
                continue;
            }
            if src.len() != dst.len() {
                return Err(crate::ExecError::InvalidOperand {
                    operand: name,
                    reason: format!("{} lanes for {} destination lanes", src.len(), dst.len()),
                });
            }
            if let Some(x) = src.iter().find(|&&x| x > limit) {
                return Err(crate::ExecError::InvalidOperand {
                    operand: name,
                    reason: format!("{x:#x} is wider than {} bits", F::WIDTH),
                });
            }
            *lane = src.iter().map(|&x| F::narrow(x)).collect();
        }
        let mods = kernels::Modifiers {
            omod: instr.omod,
            clamp: instr.clamp,
            ..kernels::Modifiers::default()
        };
        let p = kernels::Policy::new::<F>(rules, mode, mods);
        let mut out = vec![F::Bits::default(); dst.len()];
        let [a, b, c] = &lanes;
        kernels::arith::arith_slices::<F>(instr.op, &p, instr.sources, a, b, c, &mut out);
        for (d, o) in dst.iter_mut().zip(out) {
            *d = F::widen(o);
        }
        Ok(())
    }

    /// Decode `bytes` under `spec`, a target's facts possibly changed (its
    /// `dpp.reserved_bits` or `sdwa_reserved_bits`): for tests that flip
    /// a switch and show the decoding change.
    pub fn decode_with_spec(
        spec: &crate::TargetSpec,
        bytes: &[u8],
    ) -> Result<(crate::Instruction, usize), crate::asm::DecodeError> {
        crate::asm::decode_with(spec, bytes)
    }
}

/// The README's code blocks run as doctests, so its example stays true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Execute `instr` on `wave` as `target` does: read the sources of every
/// active lane (EXEC), apply the source modifiers, input flush, operation,
/// rounding, OMOD and CLAMP under the wave's MODE, and write the destination
/// of the active lanes only (docs/semantics.md §3). Inactive lanes, the
/// other half of a 16-bit destination and every other register keep their
/// bits.
///
/// A form the target lacks, a register out of range, a misaligned 64-bit
/// pair, or an operand or modifier the encoding cannot carry is an
/// [`ExecError`].
///
/// ```
/// use amdgpu_valu::{execute, Encoding, ExecError, Instruction, Omod, Opcode, Operand, Target, Wave};
///
/// // V_LDEXP_F32 on gfx1100 (RDNA3) with mul:2, under MODE 0x00: F32
/// // subnormals flushed and IEEE = 0, so OMOD is effective.
/// let t = Target::Gfx1100;
/// let mut wave = Wave::for_target(t);
/// wave.set_vgpr_all(1, 0x3fc0_0000)?; // 1.5
/// wave.set_vgpr_all(2, 3)?; // exponent
/// let ldexp = Instruction::binary(Opcode::LdexpF32, Encoding::Vop3,
///     Operand::v(0), Operand::v(1), Operand::v(2)).with_omod(Omod::Mul2);
/// execute(t, &mut wave, &ldexp)?;
/// assert_eq!(wave.vgpr(0, 0)?, 0x41c0_0000); // 1.5 x 2^3 x 2 = 24
/// // Under MODE.IEEE = 1 the gated target ignores OMOD: 12.
/// wave.set_mode(0x200);
/// execute(t, &mut wave, &ldexp)?;
/// assert_eq!(wave.vgpr(0, 0)?, 0x4140_0000);
/// // V_LDEXP_F32 has no VOP2 form on any target.
/// let vop2 = Instruction { encoding: Encoding::Vop2, omod: Omod::None, ..ldexp };
/// assert!(matches!(execute(t, &mut wave, &vop2), Err(ExecError::FormNotOnTarget { .. })));
/// # Ok::<(), ExecError>(())
/// ```
pub fn execute(target: Target, wave: &mut Wave, instr: &Instruction) -> Result<(), ExecError> {
    generated::execute(target, wave, instr)
}
