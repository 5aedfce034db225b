//! DPP execution (docs/semantics.md §11): the per-lane plan of a DPP16 or
//! DPP8 instruction, and the gather that applies it to the staged src0
//! words before the one whole-wave kernel call.
//!
//! The plan says, for every lane, where its src0 comes from (a lane of the
//! src0 VGPR, or 0) or why its destination is not written (EXEC, ROW_MASK,
//! BANK_MASK, an out-of-range or inactive source with BOUND_CTRL clear).
//! Lane selection is a pure bit move on the raw register words (no flush,
//! no quieting): ABS/NEG and the float pipeline run afterwards in the
//! kernel, exactly as without DPP. Every source is read before any lane is
//! written, so `vdst == src0` is well defined; LDEXP's exponent is read
//! from each lane's own src1. The written lanes become the `exec` of the
//! write-back.

use super::{invalid, plainly_valid, validate};
use crate::dpp::{Dpp, DppControl, DppLane, DppSkip, DppZero};
use crate::error::ExecError;
use crate::instr::{Encoding, Instruction, Operand, Part, SrcMods};
use crate::kernels::{Format, FormatKind, Operation, Policy};
use crate::target::{
    DppBcastLowRows, DppInactiveSource, DppMixedHalves, DppReservedBits, DppReservedCtrl,
    DppShareXmask, DppZeroFill, TargetSpec,
};
use crate::wave::{Wave, MAX_LANES};

/// The lane plan of one DPP instruction in the form the write-back uses.
pub(crate) struct Plan {
    /// The lanes in the wave.
    lanes: usize,
    /// The source lane of every lane (its own lane when it reads nothing).
    src: [u8; MAX_LANES],
    /// Written lanes whose src0 is 0.
    zero: u64,
    /// The lanes written: EXEC, masks and valid sources.
    pub(crate) write: u64,
    /// Zero-filled lanes that skip ABS/NEG (`dpp.zero_fill:
    /// positive_zero` with a source modifier), and the policy they run
    /// under: the instruction's without ABS/NEG.
    pub(crate) plain: Option<(u64, Policy)>,
}

impl Plan {
    /// Replace every lane's src0 words (`lo`, and `hi` for F64: both
    /// dwords of the pair) by its source lane's, or 0. Reads a copy, so a
    /// lane's source is never a word already replaced.
    pub(crate) fn gather(&self, lo: &mut [u32], hi: &mut [u32]) {
        let (nl, nh) = (self.lanes.min(lo.len()), self.lanes.min(hi.len()));
        gather_words(&self.src, self.zero, &mut lo[..nl]);
        gather_words(&self.src, self.zero, &mut hi[..nh]);
    }
}

fn gather_words(src: &[u8; MAX_LANES], zero: u64, words: &mut [u32]) {
    let mut raw = [0u32; MAX_LANES];
    let n = words.len().min(MAX_LANES);
    raw[..n].copy_from_slice(&words[..n]);
    for (lane, (w, &s)) in words.iter_mut().zip(src.iter()).enumerate() {
        let keep = 0u32.wrapping_sub(((zero >> lane) & 1 == 0) as u32);
        *w = raw.get(usize::from(s)).copied().unwrap_or(0) & keep;
    }
}

fn bad(reason: impl Into<String>) -> ExecError {
    ExecError::InvalidDpp {
        reason: reason.into(),
    }
}

/// The mnemonic of a DPP form: `v_fract_f32_dpp` (e32) or
/// `v_fract_f32_e64_dpp`, with `dpp8` for DPP8.
fn form_name(instr: &Instruction, dpp8: bool) -> String {
    let e64 = if instr.encoding == Encoding::Vop3 {
        "_e64"
    } else {
        ""
    };
    let kind = if dpp8 { " (DPP8)" } else { " (DPP16)" };
    format!("{}{e64}_dpp{kind}", instr.opcode.mnemonic())
}

/// Everything a DPP instruction must satisfy before it runs, beyond the
/// lane plan: the DPP form, the rules of the base encoding (checked on the
/// instruction without its DPP part), the DPP operand rules and the open
/// points whose switch says error.
pub(super) fn check<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
) -> Result<(), ExecError> {
    let dpp8 = matches!(dpp, Dpp::Dpp8 { .. });
    let e32 = matches!(instr.encoding, Encoding::Vop1 | Encoding::Vop2);
    if instr.sdwa.is_some()
        || !(e32 || instr.encoding == Encoding::Vop3)
        || !spec.has_dpp_form(instr.opcode, instr.encoding, dpp8)
    {
        return Err(bad(format!(
            "{} has no {} form",
            spec.target,
            form_name(instr, dpp8)
        )));
    }
    if e32 && dpp8 && (instr.src0_mods.abs || instr.src0_mods.neg) {
        return Err(ExecError::InvalidModifier {
            reason: "e32 DPP8 has no source ABS or NEG".into(),
        });
    }
    // The base encoding's rules. An e32 DPP16 word carries src0 ABS/NEG,
    // which the VOP1/VOP2 word alone cannot.
    let base = Instruction {
        dpp: None,
        src0_mods: if e32 {
            SrcMods {
                abs: false,
                neg: false,
                ..instr.src0_mods
            }
        } else {
            instr.src0_mods
        },
        ..*instr
    };
    if !plainly_valid::<O, F>(spec, wave, &base) {
        validate(spec, wave, &base)?;
    }
    let Operand::Vgpr {
        part: src0_part, ..
    } = instr.src0
    else {
        return Err(invalid("src0", "the DPP source must be a VGPR"));
    };
    match instr.src1 {
        Some(Operand::Literal(_) | Operand::Literal64(_)) => {
            return Err(invalid("src1", "a DPP instruction takes no literal"));
        }
        Some(Operand::Vgpr { .. }) | None => {}
        Some(_) if !spec.dpp.e64_src1_scalar.value => {
            return Err(invalid(
                "src1",
                format!("{} takes only a VGPR src1 with DPP", spec.target),
            ));
        }
        Some(_) => {}
    }
    if spec.dpp.reserved_bits.value == DppReservedBits::Error {
        if let Dpp::Dpp16(d) = dpp {
            if d.src1_bits != 0 {
                return Err(bad(
                    "DPP bits 23:22 (src1 ABS/NEG) are set; dpp.reserved_bits says error",
                ));
            }
            if d.fi && !spec.dpp.fi.value {
                return Err(bad(format!(
                    "{} has no FI bit (DPP bit 18 is set); dpp.reserved_bits says error",
                    spec.target
                )));
            }
        }
    }
    if F::KIND == FormatKind::F16
        && mixed_halves_error(spec)
        && mixed(instr.dst, src0_part, instr.src1)
    {
        return Err(bad(
            "DPP operands mix .l and .h halves; dpp.mixed_halves says error",
        ));
    }
    Ok(())
}

fn mixed_halves_error(spec: &TargetSpec) -> bool {
    spec.true16.value && spec.dpp.mixed_halves.map(|s| s.value) == Some(DppMixedHalves::Error)
}

/// Whether the 16-bit VGPR operands name different halves.
fn mixed(dst: Operand, src0: Part, src1: Option<Operand>) -> bool {
    let part = |op: Option<Operand>| match op {
        Some(Operand::Vgpr { part, .. }) => Some(part == Part::Hi),
        _ => None,
    };
    let src0 = src0 == Part::Hi;
    part(Some(dst)).is_some_and(|h| h != src0) || part(src1).is_some_and(|h| h != src0)
}

/// Lane `n`'s source lane under DPP16 control `ctrl` (normalized by
/// [`DppControl::from_code`]); `None` when out of range. A reserved code
/// (run as identity) reads the lane itself.
fn source_lane(ctrl: DppControl, n: usize, bcast_low: DppBcastLowRows) -> Option<usize> {
    let (row, i) = (n & !15, n & 15);
    let low = |limit: usize, src: usize| {
        if n >= limit {
            Some(src)
        } else if bcast_low == DppBcastLowRows::OwnLane {
            Some(n)
        } else {
            None
        }
    };
    match ctrl {
        DppControl::QuadPerm(s) => Some(n & !3 | usize::from(s[n & 3] & 3)),
        DppControl::RowShl(k) => {
            let k = usize::from(k);
            (i + k <= 15).then_some(n + k)
        }
        DppControl::RowShr(k) => {
            let k = usize::from(k);
            (i >= k).then(|| n - k)
        }
        DppControl::RowRor(k) => Some(row | (i + 16 - usize::from(k & 15)) & 15),
        DppControl::WaveShl => (n != 63).then_some(n + 1),
        DppControl::WaveRol => Some((n + 1) & 63),
        DppControl::WaveShr => n.checked_sub(1),
        DppControl::WaveRor => Some((n + 63) & 63),
        DppControl::RowMirror => Some(row | (15 - i)),
        DppControl::RowHalfMirror => Some(n & !7 | (7 - (n & 7))),
        DppControl::RowBcast15 => low(16, (n & 0x30).wrapping_sub(1)),
        DppControl::RowBcast31 => low(32, 31),
        DppControl::RowShare(k) => Some(row | usize::from(k & 15)),
        DppControl::RowXmask(k) => Some(row | (i ^ usize::from(k & 15))),
        DppControl::Reserved(_) => Some(n),
    }
}

/// What DPP makes of every lane of `wave` (the first `wave.lanes()`
/// entries), after the checks of the DPP16 control: a control the target
/// does not have follows `dpp.reserved_ctrl`, `row_share`/`row_xmask`
/// follow `dpp.share_xmask`.
pub(crate) fn lane_plan(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
) -> Result<[DppLane; MAX_LANES], ExecError> {
    let lanes = wave.lanes();
    let exec = wave.exec();
    let active = |l: usize| exec >> l & 1 != 0;
    let mut out = [DppLane::NotWritten(DppSkip::Exec); MAX_LANES];
    let fi_exists = spec.dpp.fi.value;
    match dpp {
        Dpp::Dpp8 { sel, fi } => {
            for (n, o) in out.iter_mut().enumerate().take(lanes) {
                if !active(n) {
                    continue;
                }
                let s = n & !7 | usize::from(sel[n & 7] & 7);
                let lane = s as u8;
                *o = if active(s) {
                    DppLane::Read { lane }
                } else if fi {
                    DppLane::ReadInactive { lane }
                } else {
                    DppLane::Zero(DppZero::Inactive { lane })
                };
            }
        }
        Dpp::Dpp16(d) => {
            let mut ctrl = DppControl::from_code(d.ctrl.code());
            let controls = if instr.opcode.format() == FormatKind::F64 {
                spec.dpp.f64_controls.value
            } else {
                spec.dpp.controls.value
            };
            if !ctrl.legal_in(controls) {
                if spec.dpp.reserved_ctrl.value == DppReservedCtrl::Error {
                    let what = match ctrl {
                        DppControl::Reserved(_) => "a reserved code".to_string(),
                        _ => format!("not a control of {} for this operand", spec.target),
                    };
                    return Err(bad(format!(
                        "dpp_ctrl {:#05x} is {what}; dpp.reserved_ctrl says error",
                        ctrl.code()
                    )));
                }
                ctrl = DppControl::Reserved(ctrl.code());
            }
            if matches!(ctrl, DppControl::RowShare(_) | DppControl::RowXmask(_))
                && spec.dpp.share_xmask.map(|s| s.value) == Some(DppShareXmask::Error)
            {
                return Err(bad(format!(
                    "dpp_ctrl {:#05x} (row_share/row_xmask); dpp.share_xmask says error",
                    ctrl.code()
                )));
            }
            let bcast_low = spec
                .dpp
                .bcast_low_rows
                .map_or(DppBcastLowRows::OutOfRange, |s| s.value);
            let fi = d.fi && fi_exists;
            let inactive = spec.dpp.inactive_source.value;
            for (n, o) in out.iter_mut().enumerate().take(lanes) {
                *o = if !active(n) {
                    DppLane::NotWritten(DppSkip::Exec)
                } else if d.row_mask >> (n >> 4) & 1 == 0 {
                    DppLane::NotWritten(DppSkip::RowMask)
                } else if d.bank_mask >> (n >> 2 & 3) & 1 == 0 {
                    DppLane::NotWritten(DppSkip::BankMask)
                } else {
                    match source_lane(ctrl, n, bcast_low).filter(|&s| s < lanes) {
                        None if d.bound_ctrl => DppLane::Zero(DppZero::OutOfRange),
                        None => DppLane::NotWritten(DppSkip::OutOfRange),
                        Some(s) => {
                            let lane = s as u8;
                            if active(s) {
                                DppLane::Read { lane }
                            } else if fi {
                                DppLane::ReadInactive { lane }
                            } else {
                                match inactive {
                                    DppInactiveSource::Read => DppLane::ReadInactive { lane },
                                    DppInactiveSource::Zero => {
                                        DppLane::Zero(DppZero::Inactive { lane })
                                    }
                                    DppInactiveSource::BoundCtrl if d.bound_ctrl => {
                                        DppLane::Zero(DppZero::Inactive { lane })
                                    }
                                    DppInactiveSource::BoundCtrl => {
                                        DppLane::NotWritten(DppSkip::Inactive { lane })
                                    }
                                }
                            }
                        }
                    }
                };
            }
        }
    }
    Ok(out)
}

/// Check `instr` (whose DPP part is `dpp`) and build its plan.
pub(super) fn plan<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
) -> Result<Plan, ExecError> {
    check::<O, F>(spec, wave, instr, dpp)?;
    let lanes = lane_plan(spec, wave, instr, dpp)?;
    let mut plan = Plan {
        lanes: wave.lanes(),
        src: [0; MAX_LANES],
        zero: 0,
        write: 0,
        plain: None,
    };
    for (n, (l, s)) in lanes.iter().zip(plan.src.iter_mut()).enumerate() {
        *s = n as u8;
        match *l {
            DppLane::Read { lane } | DppLane::ReadInactive { lane } => {
                *s = lane;
                plan.write |= 1 << n;
            }
            DppLane::Zero(_) => {
                plan.zero |= 1 << n;
                plan.write |= 1 << n;
            }
            DppLane::NotWritten(_) => {}
        }
    }
    let mods = instr.src0_mods;
    if spec.dpp.zero_fill.value == DppZeroFill::PositiveZero
        && (mods.abs || mods.neg)
        && plan.zero != 0
    {
        plan.plain = Some((plan.zero, plain_policy::<F>(spec, wave, instr)));
    }
    Ok(plan)
}

/// The policy of `instr` without source ABS/NEG: a zero-filled src0 under
/// `dpp.zero_fill: positive_zero` is +0 whatever the modifiers.
pub(crate) fn plain_policy<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
) -> Policy {
    let plain = Instruction {
        src0_mods: SrcMods {
            abs: false,
            neg: false,
            ..instr.src0_mods
        },
        ..*instr
    };
    super::policy::<F>(spec, wave, &plain)
}
