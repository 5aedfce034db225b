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

use super::{invalid, plainly_valid_but_dpp, validate};
use crate::dpp::{Dpp, DppControl, DppLane, DppSkip, DppZero};
use crate::error::ExecError;
use crate::instr::{Encoding, Instruction, Operand, Part, SrcMods};
use crate::kernels::{Format, FormatKind, Operation, Policy};
use crate::target::{
    DppBcastLowRows, DppInactiveSource, DppMixedHalves, DppReservedBits, DppReservedCtrl,
    DppShareXmask, DppZeroFill, TargetSpec,
};
use crate::wave::{Wave, MAX_LANES};

pub(crate) use crate::dpp::Plan;

/// The source index of a zero-filled lane: past every lane, so the gather
/// reads 0 there ([`crate::kernels::GatheredIo`]).
const ZERO: u8 = MAX_LANES as u8;

/// For every byte of lane bits, eight lane bytes with bit 6 ([`ZERO`])
/// set where the lane's bit is set.
static ZERO_BYTES: [u64; 256] = spread(ZERO as u64, 8);

impl Plan {
    /// The source lane of every lane, [`ZERO`] for the zero-filled ones:
    /// the index of [`crate::kernels::GatheredIo`].
    pub(crate) fn sources(&self) -> &[u8; MAX_LANES] {
        &self.src
    }

    /// Replace every lane's src0 words (`lo`, and `hi` for F64: both
    /// dwords of the pair, one word per lane of the wave) by its source
    /// lane's, or 0: the gather of the kernel call
    /// ([`crate::kernels::gather::gather`]). Reads a copy, so a lane's
    /// source is never a word already replaced.
    pub(crate) fn gather(&self, lo: &mut [u32], hi: &mut [u32]) {
        for words in [lo, hi] {
            // Lanes past the wave read the copy's zeros.
            let mut raw = [0u32; MAX_LANES];
            let n = words.len().min(MAX_LANES);
            raw[..n].copy_from_slice(&words[..n]);
            let mut out = [0u32; MAX_LANES];
            crate::kernels::gather::gather(&self.src, &raw, &mut out);
            words[..n].copy_from_slice(&out[..n]);
        }
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
    let e32 = matches!(instr.encoding, Encoding::Vop1 | Encoding::Vop2);
    let plain = plainly_valid_but_dpp::<O, F>(spec, wave, instr, e32);
    check_with::<F>(spec, wave, instr, dpp, plain)
}

/// [`check`] of an arithmetic instruction: the same rules, the base
/// encoding's through the full check, src2 as src1.
pub(super) fn check_arith<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
) -> Result<(), ExecError> {
    check_with::<F>(spec, wave, instr, dpp, false)
}

/// [`check`] with the fast pre-check's answer `plain` (true: the base
/// encoding is known valid).
fn check_with<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
    plain: bool,
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
    let (m0, m1) = (instr.src0_mods, instr.src1_mods);
    if e32 && dpp8 && (m0.abs || m0.neg || m1.abs || m1.neg) {
        return Err(ExecError::InvalidModifier {
            reason: "e32 DPP8 has no source ABS or NEG".into(),
        });
    }
    // The base encoding's rules. An e32 DPP16 word carries src0 ABS/NEG,
    // which the VOP1/VOP2 word alone cannot.
    if !plain {
        // The e32 DPP16 word's src0 (and a float src1's) ABS/NEG.
        let word = |m: SrcMods| {
            if e32 {
                SrcMods {
                    abs: false,
                    neg: false,
                    ..m
                }
            } else {
                m
            }
        };
        let float_src1 = instr.opcode.info().src1().is_some_and(|t| t.is_float());
        let base = Instruction {
            dpp: None,
            src0_mods: word(instr.src0_mods),
            src1_mods: if float_src1 {
                word(instr.src1_mods)
            } else {
                instr.src1_mods
            },
            ..*instr
        };
        validate(spec, wave, &base)?;
    }
    let Operand::Vgpr {
        part: src0_part, ..
    } = instr.src0
    else {
        return Err(invalid("src0", "the DPP source must be a VGPR"));
    };
    for (name, src) in [("src1", instr.src1), ("src2", instr.src2)] {
        match src {
            Some(Operand::Literal(_) | Operand::Literal64(_)) => {
                return Err(invalid(name, "a DPP instruction takes no literal"));
            }
            Some(Operand::Vgpr { .. }) | None => {}
            Some(_) if !spec.dpp.e64_src1_scalar.value => {
                return Err(invalid(
                    name,
                    format!("{} takes only a VGPR {name} with DPP", spec.target),
                ));
            }
            Some(_) => {}
        }
    }
    let float_src1 = instr.opcode.info().src1().is_some_and(|t| t.is_float());
    if spec.dpp.reserved_bits.value == DppReservedBits::Error {
        if let Dpp::Dpp16(d) = dpp {
            // A float src1's ABS/NEG are fields, not reserved bits.
            if d.src1_bits != 0 && !float_src1 {
                return Err(bad(
                    "DPP bits 23:22 (src1 ABS/NEG) are set; dpp.reserved_bits says error",
                ));
            }
            if d.reserved != 0 {
                return Err(bad(format!(
                    "reserved bit {} of the DPP word is set; dpp.reserved_bits says error",
                    d.reserved.trailing_zeros()
                )));
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
        && (mixed(instr.dst, src0_part, instr.src1) || mixed(instr.dst, src0_part, instr.src2))
    {
        return Err(bad(
            "DPP operands mix .l and .h halves; dpp.mixed_halves says error",
        ));
    }
    Ok(())
}

/// Whether `instr`'s 16-bit operands mix halves where `dpp.mixed_halves`
/// says error (the last rule of [`check`]).
#[inline]
pub(super) fn mixed_halves_refused<F: Format>(spec: &TargetSpec, instr: &Instruction) -> bool {
    let Operand::Vgpr {
        part: src0_part, ..
    } = instr.src0
    else {
        return false;
    };
    F::KIND == FormatKind::F16
        && mixed_halves_error(spec)
        && (mixed(instr.dst, src0_part, instr.src1) || mixed(instr.dst, src0_part, instr.src2))
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

/// Every lane's source lane under `f` (`None`: out of range), and the
/// lanes whose source is in range (a source beyond the wave is out of
/// range).
#[inline(always)]
fn sources(lanes: usize, f: impl Fn(usize) -> Option<usize>) -> ([u8; MAX_LANES], u64) {
    let mut src = [0u8; MAX_LANES];
    let mut in_range = 0u64;
    for (n, s) in src.iter_mut().enumerate().take(lanes) {
        match f(n) {
            Some(l) if l < lanes => {
                *s = l as u8;
                in_range |= 1 << n;
            }
            _ => *s = n as u8,
        }
    }
    (src, in_range)
}

/// Lane `n`'s source lane in a wave64 under DPP_CTRL `code` (the table of
/// docs/semantics.md §11.3; a reserved code, run as identity, reads the
/// lane itself), or 64 when out of range. `row_bcast` lanes below the
/// broadcast row are out of range here ([`control_sources`] applies
/// `dpp.bcast_low_rows`).
const fn table_source(code: usize, n: usize) -> usize {
    let (row, i, k) = (n & !15, n & 15, code & 15);
    const OUT: usize = 64;
    match code {
        0x000..=0x0ff => n & !3 | (code >> (2 * (n & 3))) & 3,
        0x101..=0x10f if i + k <= 15 => n + k,
        0x111..=0x11f if i >= k => n - k,
        0x101..=0x10f | 0x111..=0x11f => OUT,
        0x121..=0x12f => row | (i + 16 - k) & 15,
        0x130 if n < 63 => n + 1,
        0x134 => (n + 1) & 63,
        0x138 if n > 0 => n - 1,
        0x13c => (n + 63) & 63,
        0x130 | 0x138 => OUT,
        0x140 => row | (15 - i),
        0x141 => n & !7 | (7 - (n & 7)),
        0x142 if n >= 16 => (n & 0x30) - 1,
        0x143 if n >= 32 => 31,
        0x142 | 0x143 => OUT,
        0x150..=0x15f => row | k,
        0x160..=0x16f => row | (i ^ k),
        _ => n,
    }
}

/// [`table_source`] of every code and lane, computed at compile time:
/// the source lanes (own lane when out of range) and the in-range lanes.
struct SourceTable {
    src: [[u8; MAX_LANES]; 512],
    in_range: [u64; 512],
}

static SOURCES: SourceTable = {
    let mut t = SourceTable {
        src: [[0; MAX_LANES]; 512],
        in_range: [0; 512],
    };
    let mut code = 0;
    while code < 512 {
        let mut n = 0;
        while n < MAX_LANES {
            let s = table_source(code, n);
            if s < MAX_LANES {
                t.src[code][n] = s as u8;
                t.in_range[code] |= 1 << n;
            } else {
                t.src[code][n] = n as u8;
            }
            n += 1;
        }
        code += 1;
    }
    t
};

/// A reserved DPP_CTRL code: a control run as identity uses its row of
/// [`SOURCES`].
const RESERVED_IDENTITY: u16 = 0x100;

/// The source lanes of the DPP16 control of `code` in a wave of `lanes`,
/// with the lanes whose source is in range (a source beyond the wave is
/// out of range).
fn control_sources(code: u16, lanes: usize, bcast_low: DppBcastLowRows) -> ([u8; MAX_LANES], u64) {
    let code = usize::from(code & 0x1ff);
    let mut src = SOURCES.src[code];
    let mut in_range = SOURCES.in_range[code] & lane_bits(lanes);
    if lanes < MAX_LANES {
        for (n, s) in src.iter_mut().enumerate().take(lanes) {
            if usize::from(*s) >= lanes {
                *s = n as u8;
                in_range &= !(1 << n);
            }
        }
    }
    if bcast_low == DppBcastLowRows::OwnLane {
        // The lanes below the broadcast row read themselves.
        let low = match DppControl::from_code(code as u16) {
            DppControl::RowBcast15 => 0xffff,
            DppControl::RowBcast31 => 0xffff_ffff,
            _ => 0,
        };
        in_range |= low & lane_bits(lanes);
    }
    (src, in_range)
}

/// One bit per lane of `lanes`.
fn lane_bits(lanes: usize) -> u64 {
    if lanes >= 64 {
        u64::MAX
    } else {
        (1 << lanes) - 1
    }
}

/// The plan of one DPP instruction as lane masks.
struct Masks {
    /// The source lane of every lane (its own when out of range).
    src: [u8; MAX_LANES],
    /// Lanes whose source lane is in range.
    in_range: u64,
    /// Lanes whose source lane is active.
    src_active: u64,
    /// Lanes EXEC enables.
    exec: u64,
    /// Lanes ROW_MASK enables (all for DPP8).
    rows: u64,
    /// Lanes ROW_MASK and BANK_MASK enable (all for DPP8).
    masks: u64,
    /// Written lanes that read their source lane's value.
    read: u64,
    /// Written lanes whose src0 is 0.
    zero: u64,
}

/// The lanes of every ROW_MASK value: bit r enables lanes 16r..16r+15.
static ROW_LANES: [u64; 16] = spread(0xffff, 16);

/// The lanes of every BANK_MASK value: bit b enables lanes 4b..4b+3 of
/// every row.
static BANK_LANES: [u64; 16] = spread(0x000f_000f_000f_000f, 4);

/// For every mask `m` below `M` (a power of two), `unit << (step * b)`
/// for each set bit `b` of `m`.
const fn spread<const M: usize>(unit: u64, step: u32) -> [u64; M] {
    let mut t = [0u64; M];
    let mut m = 0;
    while m < M {
        let mut b = 0;
        while 1 << b < M {
            if m >> b & 1 != 0 {
                t[m] |= unit << (step * b);
            }
            b += 1;
        }
        m += 1;
    }
    t
}

/// The lane masks of `dpp` on `wave`, after the checks of the DPP16
/// control: a control the target does not have follows
/// `dpp.reserved_ctrl`, `row_share`/`row_xmask` follow `dpp.share_xmask`.
#[inline(always)]
fn masks(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
) -> Result<Masks, ExecError> {
    let lanes = wave.lanes();
    let all = lane_bits(lanes);
    let exec = wave.exec() & all;
    let (src, in_range, rows, masks, bc, fetch, inactive) = match dpp {
        Dpp::Dpp8 { sel, fi } => {
            let (src, in_range) = sources(lanes, |n| Some(n & !7 | usize::from(sel[n & 7] & 7)));
            // DPP8 without FI reads 0 from an inactive lane and writes.
            (src, in_range, all, all, true, fi, DppInactiveSource::Zero)
        }
        Dpp::Dpp16(d) => {
            let controls = if instr.opcode.format() == FormatKind::F64 {
                spec.dpp.f64_controls.value
            } else {
                spec.dpp.controls.value
            };
            let mut code = d.ctrl.code();
            if !controls.allows_code(code) {
                if spec.dpp.reserved_ctrl.value == DppReservedCtrl::Error {
                    let what = match DppControl::from_code(code) {
                        DppControl::Reserved(_) => "a reserved code".to_string(),
                        _ => format!("not a control of {} for this operand", spec.target),
                    };
                    return Err(bad(format!(
                        "dpp_ctrl {code:#05x} is {what}; dpp.reserved_ctrl says error"
                    )));
                }
                // Run as identity, as a reserved code.
                code = RESERVED_IDENTITY;
            }
            if spec.dpp.share_xmask.map(|s| s.value) == Some(DppShareXmask::Error)
                && matches!(
                    DppControl::from_code(code),
                    DppControl::RowShare(_) | DppControl::RowXmask(_)
                )
            {
                return Err(bad(format!(
                    "dpp_ctrl {code:#05x} (row_share/row_xmask); dpp.share_xmask says error"
                )));
            }
            let bcast_low = spec
                .dpp
                .bcast_low_rows
                .map_or(DppBcastLowRows::OutOfRange, |s| s.value);
            let (src, in_range) = control_sources(code, lanes, bcast_low);
            let fi = d.fi && spec.dpp.fi.value;
            let rows = ROW_LANES[usize::from(d.row_mask & 15)] & all;
            let banks = BANK_LANES[usize::from(d.bank_mask & 15)];
            (
                src,
                in_range,
                rows,
                rows & banks,
                d.bound_ctrl,
                fi,
                spec.dpp.inactive_source.value,
            )
        }
    };
    let mut src_active = all;
    if exec != all {
        src_active = 0;
        for (n, &s) in src.iter().enumerate().take(lanes) {
            src_active |= (exec >> (s & 63) & 1) << n;
        }
    }
    let inactive_src = in_range & !src_active;
    let mut read = in_range & src_active;
    let mut zero = if bc { !in_range } else { 0 };
    if fetch {
        read |= inactive_src;
    } else {
        match inactive {
            DppInactiveSource::Read => read |= inactive_src,
            DppInactiveSource::Zero => zero |= inactive_src,
            DppInactiveSource::BoundCtrl if bc => zero |= inactive_src,
            DppInactiveSource::BoundCtrl => {}
        }
    }
    let write = exec & masks;
    Ok(Masks {
        src,
        in_range,
        src_active,
        exec,
        rows,
        masks,
        read: read & write,
        zero: zero & write,
    })
}

/// What DPP makes of every lane of `wave` (the first `wave.lanes()`
/// entries), from the same masks the executor uses.
pub(crate) fn lane_plan(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
) -> Result<[DppLane; MAX_LANES], ExecError> {
    let m = masks(spec, wave, instr, dpp)?;
    let mut out = [DppLane::NotWritten(DppSkip::Exec); MAX_LANES];
    for (n, o) in out.iter_mut().enumerate().take(wave.lanes()) {
        let bit = |mask: u64| mask >> n & 1 != 0;
        let lane = m.src[n];
        *o = if !bit(m.exec) {
            DppLane::NotWritten(DppSkip::Exec)
        } else if !bit(m.rows) {
            DppLane::NotWritten(DppSkip::RowMask)
        } else if !bit(m.masks) {
            DppLane::NotWritten(DppSkip::BankMask)
        } else if bit(m.read) && bit(m.src_active) {
            DppLane::Read { lane }
        } else if bit(m.read) {
            DppLane::ReadInactive { lane }
        } else if bit(m.zero) && bit(m.in_range) {
            DppLane::Zero(DppZero::Inactive { lane })
        } else if bit(m.zero) {
            DppLane::Zero(DppZero::OutOfRange)
        } else if bit(m.in_range) {
            DppLane::NotWritten(DppSkip::Inactive { lane })
        } else {
            DppLane::NotWritten(DppSkip::OutOfRange)
        };
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
    checked_plan(spec, wave, instr, dpp)
}

/// [`plan`] of an arithmetic instruction ([`check_arith`]).
pub(super) fn plan_arith<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
) -> Result<Plan, ExecError> {
    check_arith::<F>(spec, wave, instr, dpp)?;
    checked_plan(spec, wave, instr, dpp)
}

/// What a plan depends on, as four words: the target (a generated one, by
/// address), the DPP fields [`masks`] reads, EXEC, and the wave size with
/// whether the F64 controls apply and whether zero-filled lanes skip
/// src0's ABS/NEG. Nothing else of the instruction or the wave enters
/// [`masks`] or [`build_plan`].
type PlanKey = [u64; 4];

/// The DPP fields of `dpp` that [`masks`] reads, packed in one word.
#[inline(always)]
fn dpp_key(dpp: &Dpp) -> u64 {
    match *dpp {
        Dpp::Dpp16(d) => {
            u64::from(d.ctrl.code())
                | u64::from(d.row_mask) << 16
                | u64::from(d.bank_mask) << 24
                | u64::from(d.bound_ctrl) << 32
                | u64::from(d.fi) << 33
        }
        Dpp::Dpp8 { sel, fi } => {
            u64::from_le_bytes(sel) & 0x0707_0707_0707_0707
                | u64::from(sel.iter().any(|&s| s > 7)) << 60
                | u64::from(fi) << 62
                | 1 << 63
        }
    }
}

thread_local! {
    /// The key of the last plan built on this thread (0: none): a program
    /// issues the same DPP word under the same EXEC many times in a row.
    static LAST_KEY: core::cell::Cell<PlanKey> = const { core::cell::Cell::new([0; 4]) };
    /// The plan of [`LAST_KEY`].
    static LAST_PLAN: core::cell::Cell<Plan> = const {
        core::cell::Cell::new(Plan {
            src: [0; MAX_LANES],
            zero: 0,
            write: 0,
            plain: 0,
        })
    };
}

#[cfg(test)]
thread_local! {
    /// Test-only: plans this thread took from [`LAST_PLAN`].
    static PLAN_HITS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// Test-only: forget the remembered plan, so the next one is built; and
/// the plans taken from it so far.
#[cfg(test)]
pub(super) fn forget_plan() -> usize {
    LAST_KEY.set([0; 4]);
    PLAN_HITS.with(core::cell::Cell::get)
}

/// The plan of an instruction already checked: the last one again when
/// its key is the same (only for the generated targets, which never
/// change), else built and remembered.
fn checked_plan(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
) -> Result<Plan, ExecError> {
    if !super::noted::generated(spec) {
        return build_plan(spec, wave, instr, dpp);
    }
    let mods = instr.src0_mods;
    let plain = spec.dpp.zero_fill.value == DppZeroFill::PositiveZero && (mods.abs || mods.neg);
    let f64 = instr.opcode.format() == FormatKind::F64;
    // Read from the instruction in place and compared word by word: a
    // key built on the stack and compared as a vector stalls the load.
    let Some(d) = &instr.dpp else {
        return build_plan(spec, wave, instr, dpp);
    };
    let key = [
        core::ptr::from_ref(spec) as u64,
        dpp_key(d),
        wave.exec(),
        wave.lanes() as u64 | u64::from(f64) << 8 | u64::from(plain) << 9,
    ];
    let last = LAST_KEY.get();
    if (last[0] == key[0]) & (last[1] == key[1]) & (last[2] == key[2]) & (last[3] == key[3]) {
        #[cfg(test)]
        PLAN_HITS.with(|h| h.set(h.get() + 1));
        return Ok(LAST_PLAN.get());
    }
    let plan = build_plan(spec, wave, instr, dpp)?;
    LAST_KEY.set(key);
    LAST_PLAN.set(plan);
    Ok(plan)
}

/// [`checked_plan`] built from the masks.
fn build_plan(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    dpp: Dpp,
) -> Result<Plan, ExecError> {
    let m = masks(spec, wave, instr, dpp)?;
    // Zero-filled lanes index past every lane: their source lanes are
    // below 64, so setting bit 6 makes them ZERO. Eight lanes at a time.
    let mut src = m.src;
    for (k, eight) in src.chunks_exact_mut(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(eight);
        let bits = ZERO_BYTES[usize::from((m.zero >> (8 * k)) as u8)];
        eight.copy_from_slice(&(u64::from_le_bytes(word) | bits).to_le_bytes());
    }
    let mut plan = Plan {
        src,
        zero: m.zero,
        write: m.read | m.zero,
        plain: 0,
    };
    let mods = instr.src0_mods;
    if spec.dpp.zero_fill.value == DppZeroFill::PositiveZero && (mods.abs || mods.neg) {
        plan.plain = plan.zero;
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
