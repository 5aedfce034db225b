//! The shared executor: validate an instruction against a target, read the
//! operands of every lane, run the kernel over the wave, and write back the
//! active lanes (docs/semantics.md §3 and §7).
//!
//! Generated per-target modules choose the kernel and format and call
//! [`execute`]; everything that differs per target comes from [`TargetSpec`].
//! The seams: [`noted`] runs an instruction of the shape the wave noted
//! last (only its register numbers checked) and, after the checks, any
//! instruction whose operands are all VGPRs, in place on the register
//! file; validation is [`crate::validate::check`] (worded here as an
//! [`ExecError`]), [`operands`] reads the sources of every lane, [`write`](mod@write)
//! runs the kernel on copied words and merges the results into the
//! destination; `arith` and `arith_in_place` do the same for the
//! arithmetic.

pub(crate) mod arith;
mod arith_in_place;
pub(crate) mod dpp;
mod noted;
mod operands;
mod write;

#[cfg(test)]
mod check_tests;
#[cfg(test)]
mod path_tests;

/// Test-only: what the path tests count, per thread.
#[cfg(test)]
#[derive(Clone, Copy)]
pub(crate) enum Tally {
    /// Instructions run in place in the register file.
    InPlace,
    /// Instructions that took a wave's checked shape.
    ShapeHit,
    /// DPP instructions that took a wave's checked DPP shape.
    DppShapeHit,
}

#[cfg(test)]
thread_local! {
    static TALLIES: core::cell::Cell<[usize; 3]> = const { core::cell::Cell::new([0; 3]) };
}

/// Test-only: count one `t` on this thread.
#[cfg(test)]
pub(crate) fn tally(t: Tally) {
    TALLIES.with(|c| {
        let mut n = c.get();
        n[t as usize] += 1;
        c.set(n);
    });
}

/// Test-only: the `t` this thread counted so far.
#[cfg(test)]
pub(crate) fn tallied(t: Tally) -> usize {
    TALLIES.with(|c| c.get()[t as usize])
}

#[cfg(test)]
pub(crate) use write::fault;

use crate::asm::Slot;
use crate::error::ExecError;
use crate::instr::{Encoding, Instruction, Operand, OperationKind, Part};
use crate::kernels::arith::SourceModifiers;
use crate::kernels::{Format, Modifiers, Policy};
use crate::kernels::{Fract, Ldexp, Operation, WaveIo};
use crate::target::{SdwaReservedBits, TargetSpec};
use crate::validate::{Rule, Violation, E32_HALF_VGPRS};
use crate::wave::{
    CheckedDpp, CheckedShape, Layout, ShapeKey, Wave, MAX_LANES, NUM_SGPRS, NUM_TTMPS, NUM_VGPRS,
};
use noted::{fits, key_matches, run_op, shape_key, vgpr_bounds};
use operands::{read_exponent, read_float_source};
use write::copied;

pub use arith::execute_arith;

/// Execute `instr` (an `O` operation on format `F`) on `wave` under `spec`.
///
/// An opcode that is not `O` on `F` is refused
/// ([`ExecError::OperationMismatch`]): the types never run one instruction
/// as another. After validation the operands are read into per-lane words,
/// and one dispatched call runs the kernel over the wave and merges the
/// results of the active lanes into the destination (SDWA destinations are
/// merged afterwards).
///
/// An instruction of the shape the wave noted last runs with only its
/// register numbers checked (`noted`). Never inlined, and the generated
/// dispatch's only call: it jumps here with its own arguments, and a miss
/// jumps on to the checks, so no call in between keeps registers or a
/// returned flag.
#[inline(never)]
pub fn execute<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    let hit = match instr.dpp {
        None => noted::hit_op::<O, F>(spec, wave, instr),
        Some(_) => noted::hit_dpp::<O, F>(spec, wave, instr),
    };
    if hit {
        return Ok(());
    }
    execute_checked::<O, F>(spec, wave, instr)
}

/// [`execute`] when the wave's note does not serve: the checks (the quick
/// one first, noting the shape), then the run in place or on copied words.
#[inline(never)]
fn execute_checked<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    // The kernel must be the opcode's: the same operands and format.
    let info = instr.opcode.info();
    if Some(info.operation) != kind_of::<O>() || info.format != F::KIND {
        return Err(ExecError::OperationMismatch {
            opcode: instr.opcode,
            operation: O::NAME,
            format: F::KIND,
        });
    }
    if let Some(d) = instr.dpp {
        return execute_dpp::<O, F>(spec, wave, instr, d);
    }
    if operands_plainly_valid::<O, F>(spec, instr) {
        if let Some((policy, layout)) =
            checked_shape::<O, F>(spec, wave, instr, shape_plainly_valid)
        {
            if run_op::<O, F>(wave, instr, &policy, &layout, None) {
                return Ok(());
            }
            return copied::<O, F>(spec, wave, instr, &policy, None);
        }
    }
    validate(spec, wave, instr)?;
    let policy = policy::<F>(spec, wave, instr);
    if run_op::<O, F>(wave, instr, &policy, &op_layout::<O, F>(spec, instr), None) {
        return Ok(());
    }
    copied::<O, F>(spec, wave, instr, &policy, None)
}

/// [`execute`] of an instruction with DPP word `d`. Apart and never
/// inlined: inlined, its code slowed the common path of [`execute`].
#[inline(never)]
fn execute_dpp<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    d: crate::dpp::Dpp,
) -> Result<(), ExecError> {
    // DPP: its own checks, then the lane plan gathers the staged src0.
    if let Some((policy, layout, plan)) = checked_dpp::<O, F>(spec, wave, instr, d) {
        if run_op::<O, F>(wave, instr, &policy, &layout, Some(&plan)) {
            return Ok(());
        }
        return copied::<O, F>(spec, wave, instr, &policy, Some(&plan));
    }
    let policy = policy::<F>(spec, wave, instr);
    let plan = dpp::plan::<O, F>(spec, wave, instr, d)?;
    let layout = op_layout::<O, F>(spec, instr);
    if run_op::<O, F>(wave, instr, &policy, &layout, Some(&plan)) {
        return Ok(());
    }
    copied::<O, F>(spec, wave, instr, &policy, Some(&plan))
}

/// The operand layout of FRACT/LDEXP `instr` (a checked instruction):
/// dst and src0 in the format, LDEXP's exponent 16 bits wide for F16 and
/// 32 else, no src2.
fn op_layout<O: Operation, F: Format>(spec: &TargetSpec, instr: &Instruction) -> Layout {
    let exp = match (O::HAS_EXPONENT, F::WIDTH) {
        (false, _) => 0,
        (true, 16) => 16,
        (true, _) => 32,
    };
    let widths = [F::WIDTH, F::WIDTH, exp, 0];
    noted::layout::<F>(spec, instr, widths, None, SourceModifiers::default())
}

/// The policy and operand layout of FRACT/LDEXP `instr` from its checked
/// shape when the part of the quick check that reads no register,
/// `shape_valid`, accepts it: the wave's note of the last shape when the
/// key matches, else `shape_valid` run and, on a generated target, noted.
/// `None` means "run the full check". The caller checks the registers
/// itself.
#[inline(always)]
fn checked_shape<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    shape_valid: fn(&TargetSpec, &Wave, &Instruction) -> bool,
) -> Option<(Policy, Layout)> {
    let kernel = (kind_of::<O>(), F::KIND);
    match &wave.checked {
        Some(c) if key_matches(&c.key, spec, wave, instr, kernel) => {
            #[cfg(test)]
            tally(Tally::ShapeHit);
            Some((c.policy, c.layout))
        }
        _ => new_shape::<O, F>(spec, wave, instr, shape_valid),
    }
}

/// [`checked_shape`] on a miss: check, build, note.
#[inline(never)]
fn new_shape<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    shape_valid: fn(&TargetSpec, &Wave, &Instruction) -> bool,
) -> Option<(Policy, Layout)> {
    if !shape_valid(spec, wave, instr) {
        return None;
    }
    let (policy, layout) = (
        policy::<F>(spec, wave, instr),
        op_layout::<O, F>(spec, instr),
    );
    noted::note(spec, wave, instr, (kind_of::<O>(), F::KIND), policy, layout);
    Some((policy, layout))
}

/// The checked shape, operand layout and lane plan of the DPP instruction
/// `instr` (DPP word `d`), as [`dpp::plan`] would check and build them,
/// when its operands pass the quick check: the wave's note of the last DPP
/// shape when the key, the DPP word and EXEC match, else checked, built
/// and (on a generated target, when the quick check accepts the base
/// instruction) noted. `None` means "run the full check".
#[inline(always)]
fn checked_dpp<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    d: crate::dpp::Dpp,
) -> Option<(Policy, Layout, dpp::Plan)> {
    // The per-operand checks of `dpp::check` when the base is plain: the
    // operands, and 16-bit halves that may not mix.
    if !operands_plainly_valid::<O, F>(spec, instr) || dpp::mixed_halves_refused::<F>(spec, instr) {
        return None;
    }
    let kernel = (kind_of::<O>(), F::KIND);
    let exec = wave.exec();
    match &wave.checked_dpp {
        Some(c) if c.exec == exec && key_matches(&c.shape.key, spec, wave, instr, kernel) => {
            #[cfg(test)]
            tally(Tally::DppShapeHit);
            Some((c.shape.policy, c.shape.layout, c.plan))
        }
        _ => new_dpp_shape::<O, F>(spec, wave, instr, d, shape_key(spec, wave, instr, kernel)?),
    }
}

/// [`checked_dpp`] on a miss: the full check and plan; noted when the
/// base instruction's shape passes the quick check.
#[inline(never)]
fn new_dpp_shape<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    d: crate::dpp::Dpp,
    key: ShapeKey,
) -> Option<(Policy, Layout, dpp::Plan)> {
    let e32 = matches!(instr.encoding, Encoding::Vop1 | Encoding::Vop2);
    let shape_ok = if e32 {
        shape_plainly_valid_e32_mods(spec, wave, instr)
    } else {
        shape_plainly_valid(spec, wave, instr)
    };
    if !shape_ok || !noted::generated(spec) {
        return None;
    }
    let plan = dpp::plan::<O, F>(spec, wave, instr, d).ok()?;
    let checked = CheckedDpp {
        shape: CheckedShape {
            key,
            policy: policy::<F>(spec, wave, instr),
            layout: op_layout::<O, F>(spec, instr),
        },
        exec: wave.exec(),
        plan,
    };
    wave.checked_dpp = Some(checked);
    Some((checked.shape.policy, checked.shape.layout, plan))
}

/// The operation kind `O` runs (by its name), found at compile time.
struct KindOf<O>(core::marker::PhantomData<O>);

impl<O: Operation> KindOf<O> {
    const KIND: Option<OperationKind> = {
        const fn same(a: &str, b: &str) -> bool {
            let (a, b) = (a.as_bytes(), b.as_bytes());
            if a.len() != b.len() {
                return false;
            }
            let mut i = 0;
            while i < a.len() {
                if a[i] != b[i] {
                    return false;
                }
                i += 1;
            }
            true
        }
        if same(O::NAME, "fract") {
            Some(OperationKind::Fract)
        } else if same(O::NAME, "ldexp") {
            Some(OperationKind::Ldexp)
        } else {
            None
        }
    };
}

/// The operation kind whose name is `O::NAME` (FRACT or LDEXP), a
/// constant of the instantiation.
#[inline(always)]
fn kind_of<O: Operation>() -> Option<OperationKind> {
    KindOf::<O>::KIND
}

/// A quick check, with few branches, that accepts the common shapes
/// (VGPR operands, no SDWA) only when [`validate`] would accept them too.
/// False means "run `validate`", which finds the error if there is one.
/// `check_tests` asserts it agrees with [`crate::validate::check`] over the
/// fixtures and random instructions.
#[cfg(test)]
pub(crate) fn plainly_valid<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
) -> bool {
    instr.dpp.is_none() && plainly_valid_but_dpp::<O, F>(spec, wave, instr, false)
}

/// The quick check of `instr` (`plainly_valid`, kept for the tests)
/// without its DPP part; with `e32_src0_mods`, src0 ABS/NEG on an e32
/// word are allowed (a DPP16 word carries them).
#[inline]
pub(crate) fn plainly_valid_but_dpp<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    e32_src0_mods: bool,
) -> bool {
    let shape = if e32_src0_mods {
        shape_plainly_valid_e32_mods
    } else {
        shape_plainly_valid
    };
    operands_plainly_valid::<O, F>(spec, instr) && shape(spec, wave, instr)
}

/// The part of [`plainly_valid_but_dpp`] that reads only what a [`ShapeKey`]
/// holds (target, wave size, opcode, encoding, modifiers), not the
/// operands.
fn shape_plainly_valid(spec: &TargetSpec, wave: &Wave, instr: &Instruction) -> bool {
    shape_valid_with(spec, wave, instr, false)
}

/// [`shape_plainly_valid`] with src0 ABS/NEG allowed on an e32 word.
fn shape_plainly_valid_e32_mods(spec: &TargetSpec, wave: &Wave, instr: &Instruction) -> bool {
    shape_valid_with(spec, wave, instr, true)
}

/// [`shape_plainly_valid`], src0 ABS/NEG on an e32 word allowed or not.
#[inline(always)]
fn shape_valid_with(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    e32_src0_mods: bool,
) -> bool {
    let enc = instr.encoding;
    let (m0, m1, m2) = (instr.src0_mods, instr.src1_mods, instr.src2_mods);
    let no_out_mods = !instr.clamp && instr.omod == crate::kernels::Omod::None;
    (enc != Encoding::Sdwa)
        & (enc.has_modifiers() || ((e32_src0_mods || (!m0.abs && !m0.neg)) && no_out_mods))
        & !(m1.abs | m1.neg | m0.sext | m1.sext)
        // FRACT and LDEXP have no src2 (nor its modifiers).
        & !(m2.abs | m2.neg | m2.sext)
        && spec.has_form(instr.opcode, enc)
        && spec.supports_wave(wave.size())
}

/// The part of [`plainly_valid_but_dpp`] that reads the operands (and no more of
/// the target than true16 and pair alignment): every one a VGPR in range,
/// no SDWA, no src2, src1 exactly for LDEXP.
#[inline(always)]
fn operands_plainly_valid<O: Operation, F: Format>(spec: &TargetSpec, instr: &Instruction) -> bool {
    let enc = instr.encoding;
    let vgpr = |op: Operand, width: u32| -> bool {
        let Operand::Vgpr { index, part } = op else {
            return false;
        };
        // As check_part and check_vgpr (no SDWA here).
        (part == Part::Full || (width == 16 && spec.true16.value))
            && fits(index, vgpr_bounds(spec, enc, width))
    };
    let src1_ok = match instr.src1 {
        None => !O::HAS_EXPONENT,
        Some(src1) => O::HAS_EXPONENT && vgpr(src1, if F::WIDTH == 16 { 16 } else { 32 }),
    };
    instr.sdwa.is_none() & instr.src2.is_none()
        && src1_ok
        && vgpr(instr.dst, F::WIDTH)
        && vgpr(instr.src0, F::WIDTH)
}

/// The raw src0 bits and the exponent operand of one lane of `instr`, as
/// the kernel sees them (before source modifiers): the same operand reads
/// and lane decoding as [`execute`].
pub fn lane_sources<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    lane: usize,
) -> Result<(u64, i32), ExecError> {
    let lanes = wave.lanes();
    if lane >= lanes {
        return Err(ExecError::LaneOutOfRange { lane, lanes });
    }
    let (mut lo, mut hi) = ([0u32; MAX_LANES], [0u32; MAX_LANES]);
    let wide = if F::WIDTH == 64 { lanes } else { 0 };
    let shift = read_float_source::<F>(spec, wave, instr, &mut lo[..lanes], &mut hi[..wide])?;
    if let Some(d) = instr.dpp {
        // The source lane's raw words, or 0 (docs/semantics.md §11).
        let plan = match instr.opcode.info().operation {
            OperationKind::Ldexp => dpp::plan::<Ldexp, F>(spec, wave, instr, d)?,
            OperationKind::Fract => dpp::plan::<Fract, F>(spec, wave, instr, d)?,
            _ => {
                return Err(ExecError::NotExecuted {
                    opcode: instr.opcode,
                })
            }
        };
        plan.gather(&mut lo[..lanes], &mut hi[..wide]);
    }
    let src = WaveIo::source::<F>(lo[lane], hi[lane], shift);
    let exp = match instr.src1 {
        Some(src1) => {
            let mut words = [0u32; MAX_LANES];
            let shift = read_exponent::<F>(spec, wave, instr, src1, &mut words[..lanes])?;
            WaveIo::exponent::<F>(words[lane], shift)
        }
        None => 0,
    };
    Ok((src, exp))
}

/// What DPP makes of every lane of `wave` (the first `wave.lanes()`
/// entries) for `instr`, after the same checks as [`execute`]; `None`
/// without DPP.
pub(crate) fn dpp_lanes(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
) -> Result<Option<[crate::dpp::DppLane; MAX_LANES]>, ExecError> {
    use crate::kernels::FormatKind as K;
    use crate::kernels::{F16, F32, F64};
    let Some(d) = instr.dpp else {
        return Ok(None);
    };
    use OperationKind::{Fract as FRACT, Ldexp as LDEXP};
    let info = instr.opcode.info();
    match (info.operation, info.format) {
        (FRACT, K::F16) => dpp::check::<Fract, F16>(spec, wave, instr, d),
        (FRACT, K::F32) => dpp::check::<Fract, F32>(spec, wave, instr, d),
        (FRACT, K::F64) => dpp::check::<Fract, F64>(spec, wave, instr, d),
        (LDEXP, K::F16) => dpp::check::<Ldexp, F16>(spec, wave, instr, d),
        (LDEXP, K::F32) => dpp::check::<Ldexp, F32>(spec, wave, instr, d),
        (LDEXP, K::F64) => dpp::check::<Ldexp, F64>(spec, wave, instr, d),
        (_, K::F16) => dpp::check_arith::<F16>(spec, wave, instr, d),
        (_, K::F32) => dpp::check_arith::<F32>(spec, wave, instr, d),
        (_, K::F64) => dpp::check_arith::<F64>(spec, wave, instr, d),
    }?;
    dpp::lane_plan(spec, wave, instr, d).map(Some)
}

/// The policy of `instr` under the wave's MODE.
pub fn policy<F: Format>(spec: &TargetSpec, wave: &Wave, instr: &Instruction) -> Policy {
    let mods = Modifiers {
        abs: instr.src0_mods.abs,
        neg: instr.src0_mods.neg,
        omod: instr.omod,
        clamp: instr.clamp,
    };
    Policy::new::<F>(&spec.float_rules(), wave.mode(), mods)
}

pub(super) fn missing_src1() -> ExecError {
    ExecError::InvalidOperand {
        operand: "src1",
        reason: "LDEXP needs an exponent operand".into(),
    }
}

pub(super) fn invalid(operand: &'static str, reason: impl Into<String>) -> ExecError {
    ExecError::InvalidOperand {
        operand,
        reason: reason.into(),
    }
}

/// The instruction check of [`crate::validate::check`] and the wave size,
/// as an [`ExecError`]: a missing form first, then the wave size, then the
/// operand rules.
pub(crate) fn validate(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    let checked = crate::validate::check(spec, instr);
    if let Err(v) = checked {
        if v.rule == Rule::FormNotOnTarget {
            return Err(exec_error(spec, instr, v));
        }
    }
    if !spec.supports_wave(wave.size()) {
        return Err(ExecError::WaveSizeNotOnTarget {
            target: spec.target.name(),
            lanes: wave.lanes(),
        });
    }
    checked.map_err(|v| exec_error(spec, instr, v))?;
    let sdwa_error = spec
        .sdwa_reserved_bits
        .is_some_and(|s| s.value == SdwaReservedBits::Error);
    match instr.sdwa {
        Some(s) if s.reserved != 0 && sdwa_error => Err(ExecError::InvalidModifier {
            reason: format!(
                "reserved bit {} of the SDWA word is set; sdwa_reserved_bits says error",
                s.reserved.trailing_zeros()
            ),
        }),
        _ => Ok(()),
    }
}

/// A [`Violation`] in the executor's words.
pub(super) fn exec_error(spec: &TargetSpec, instr: &Instruction, v: Violation) -> ExecError {
    let operand = match v.slot {
        Slot::Dst => "dst",
        Slot::Src1 => "src1",
        Slot::Src2 => "src2",
        _ => "src0",
    };
    let modifier = |reason: &str| ExecError::InvalidModifier {
        reason: reason.into(),
    };
    let range = |kind, index, count| ExecError::RegisterOutOfRange {
        operand,
        kind,
        index,
        count,
    };
    match v.rule {
        Rule::FormNotOnTarget => ExecError::FormNotOnTarget {
            target: spec.target.name(),
            opcode: instr.opcode,
            encoding: instr.encoding,
        },
        Rule::ModifiersOnE32 => ExecError::InvalidModifier {
            reason: format!(
                "the {} encoding has no ABS, NEG, CLAMP or OMOD",
                instr.encoding.suffix()
            ),
        },
        Rule::Src1AbsNeg => modifier("ABS/NEG apply to floating sources only, not src1"),
        Rule::SdwaWithoutSelectors => modifier("an SDWA instruction needs SDWA selectors"),
        Rule::SelectorsWithoutSdwa => modifier("SDWA selectors on a non-SDWA encoding"),
        Rule::SextOutsideSdwa => modifier("sext is an SDWA modifier"),
        Rule::MissingSrc1 if instr.opcode.is_ldexp() => missing_src1(),
        Rule::MissingSrc1 => invalid(operand, "the instruction needs this source"),
        Rule::ExtraSrc1 => invalid(operand, "the instruction has no such source"),
        Rule::KNotLiteral => invalid(operand, "K must be a literal"),
        Rule::DstNotVgpr => invalid("dst", "the destination must be a VGPR"),
        Rule::HalfNeeds16Bit => invalid(operand, "a register half needs a 16-bit operand"),
        Rule::NoHalves => invalid(
            operand,
            format!("{} has no true16 register halves", spec.target),
        ),
        Rule::VgprOutOfRange { index } => range("vgpr", index, NUM_VGPRS),
        Rule::E32HalfOutOfRange { index } => range("16-bit e32 vgpr", index, E32_HALF_VGPRS),
        Rule::SgprOutOfRange { index, .. } => range("sgpr", index, NUM_SGPRS),
        Rule::MisalignedVgprPair { index } | Rule::MisalignedSgprPair { index } => {
            ExecError::MisalignedPair { operand, index }
        }
        Rule::ScalarPairStart => invalid(operand, "not the start of a 64-bit scalar pair"),
        Rule::InlineIntRange { value } => invalid(
            operand,
            format!("inline integer {value} is outside -16..=64"),
        ),
        Rule::Literal64Width => invalid(operand, "a 64-bit literal needs a 64-bit operand"),
        Rule::Vop2Src1NotVgpr => invalid("src1", "VOP2 src1 must be a VGPR"),
        Rule::SdwaLiteral => invalid(operand, "SDWA takes no literal"),
        Rule::DppFormNotOnTarget => ExecError::FormNotOnTarget {
            target: spec.target.name(),
            opcode: instr.opcode,
            encoding: instr.encoding,
        },
        Rule::DppSrc0NotVgpr => invalid("src0", "a DPP src0 must be a VGPR"),
        Rule::DppSrc1 => invalid("src1", "this DPP form cannot take this src1"),
        Rule::Dpp8SourceModifiers => modifier("e32 DPP8 has no ABS or NEG"),
        Rule::DppField => modifier("a DPP field out of its range"),
        Rule::SdwaField => modifier("SDWA reserved bits the SDWA word does not reserve"),
        Rule::TtmpOutOfRange { index, .. } => range("ttmp", index, NUM_TTMPS),
        Rule::MisalignedTtmpPair { index } => ExecError::MisalignedPair { operand, index },
        Rule::LdsDirectNotSrc0 => invalid(operand, "src_lds_direct may be src0 only"),
        Rule::LdsDirectInSdwa => invalid(operand, "src_lds_direct cannot be used with SDWA"),
        Rule::LdsDirectWide => invalid(operand, "src_lds_direct is a 32-bit source"),
    }
}
