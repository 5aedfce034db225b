//! Why an instruction produced its result: the MODE fields it read, whether
//! OMOD was effective and why, flushes, rounding, saturation and CLAMP, for
//! one lane. Used by the `eval` command.
//!
//! ```
//! use amdgpu_valu::{asm, execute, explain, Target, Wave};
//!
//! // gfx1100 under MODE 0x2f0: IEEE = 1, so OMOD is ignored (a gated target).
//! let t = Target::Gfx1100;
//! let mut wave = Wave::for_target(t);
//! wave.set_mode(0x2f0);
//! wave.set_vgpr_all(1, 0x0000_0001)?; // v1.l = the smallest F16 subnormal
//! let instr = asm::parse(t, "v_fract_f16_e64 v0.l, -v1.l mul:2")?;
//! let why = explain::explain(t, &wave, &instr, 0)?;
//! let omod = why.steps.iter().find(|s| s.stage == "omod").expect("an OMOD step");
//! assert!(omod.text.contains("ignored: MODE.IEEE=1"));
//! assert_eq!(why.result, 0x3bff); // 1 - tiny rounds to 1.0 and is capped at 1 - ulp
//! assert_eq!(explain::value(amdgpu_valu::FormatKind::F16, why.result), "0.99951171875");
//! execute(t, &mut wave, &instr)?;
//! assert_eq!(wave.vgpr(0, 0)? & 0xffff, 0x3bff); // what execute writes
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::display::value;
use crate::dpp::{Dpp, DppControl, DppLane, DppSkip, DppZero};
use crate::error::ExecError;
use crate::exec;
use crate::instr::{Instruction, OperationKind};
use crate::instr::{Operand, Part};
use crate::kernels::arith::{arith_lane, ArithOp};
use crate::kernels::classify::{classify_fract, classify_ldexp, FractCase, LdexpCase, Rounding};
use crate::kernels::classify_arith::{classify_arith, ArithCase};
use crate::kernels::format::{is_nan, is_subnormal};
use crate::kernels::fract::fract_rounded;
use crate::kernels::lane::Lane;
use crate::kernels::ldexp::ldexp_rounded;
use crate::kernels::modifiers::{apply_clamp, apply_omod, flush_input, source_modifiers};
use crate::kernels::modifiers::{prepare_operand, SourceMods};
use crate::kernels::policy::{SubNan, Tininess};
use crate::kernels::{Format, FormatKind, LanePolicy, Omod, OmodDecision, Policy, F16, F32, F64};
use crate::target::{DppInactiveSource, DppZeroFill, Target, TargetSpec};
use crate::wave::Wave;

/// One decision of one lane, tagged with the step of the order of
/// operations (docs/semantics.md §3) it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The step: `mode` (the MODE fields read), `source` (operand and
    /// ABS/NEG), `flush` (input subnormals), `operation` (FRACT or LDEXP and
    /// its rounding), `omod`, `clamp`, `result`.
    pub stage: &'static str,
    /// What was decided and why, in words, with the bits.
    pub text: String,
}

/// The decisions taken for one lane, in the order the hardware takes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explanation {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The lane's result bits (the F16, F32 or F64 encoding written to the
    /// destination).
    pub result: u64,
}

impl Explanation {
    fn say(&mut self, stage: &'static str, text: impl Into<String>) {
        self.steps.push(Step {
            stage,
            text: text.into(),
        });
    }
}

/// Why `instr` on `target` gives its result in `lane` of `wave`: every
/// decision from MODE, the sources, flushes, rounding, OMOD and CLAMP. Call
/// it before [`crate::execute`], on the wave execute will read. Errors as
/// `execute`'s, and for a lane beyond the wave.
///
/// For a DPP instruction a `dpp` step says where the lane's src0 came from
/// ([`dpp_lanes`]); a lane DPP does not write is explained by that step
/// alone, and its result is the destination's unchanged bits.
pub fn explain(
    target: Target,
    wave: &Wave,
    instr: &Instruction,
    lane: usize,
) -> Result<Explanation, ExecError> {
    let arith = exec::arith::arith_op(instr.opcode.info().operation).is_some();
    match (instr.opcode.format(), arith) {
        (FormatKind::F16, false) => explain_format::<F16>(target, wave, instr, lane),
        (FormatKind::F32, false) => explain_format::<F32>(target, wave, instr, lane),
        (FormatKind::F64, false) => explain_format::<F64>(target, wave, instr, lane),
        (FormatKind::F16, true) => explain_arith::<F16>(target, wave, instr, lane),
        (FormatKind::F32, true) => explain_arith::<F32>(target, wave, instr, lane),
        (FormatKind::F64, true) => explain_arith::<F64>(target, wave, instr, lane),
    }
}

/// One lane of a DPP instruction: what DPP made of it, and that in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DppLaneReport {
    /// The lane.
    pub lane: usize,
    /// Where its src0 came from, or why it was not written.
    pub plan: DppLane,
    /// The same in words: `src0 from lane 3`, `src0 = 0: source out of
    /// range, zero-filled by bound_ctrl`, `not written: row_mask bit 1 is
    /// 0`, ...
    pub text: String,
}

/// Every lane of a DPP `instr` on `wave` (docs/semantics.md §11): where
/// its src0 came from (lane number, zero-filled, fetched inactive) or why
/// it is not written (EXEC, row or bank mask, out of range, inactive
/// source). Empty for an instruction without DPP. Errors as
/// [`crate::execute`]'s.
///
/// ```
/// use amdgpu_valu::explain::dpp_lanes;
/// use amdgpu_valu::*;
///
/// let t = Target::Gfx1100;
/// let dpp = Dpp16 { bound_ctrl: true, ..Dpp16::new(DppControl::RowShr(1)) };
/// let instr = Instruction::unary(Opcode::FractF32, Encoding::Vop1, Operand::v(0), Operand::v(1))
///     .with_dpp(Dpp::Dpp16(dpp));
/// let mut wave = Wave::for_target(t);
/// wave.set_exec(!0b100);
/// let lanes = dpp_lanes(t, &wave, &instr)?;
/// assert_eq!(lanes[0].text, "src0 = 0: source out of range, zero-filled by bound_ctrl");
/// assert_eq!(lanes[1].text, "src0 from lane 0");
/// assert_eq!(lanes[2].text, "not written: EXEC is 0");
/// assert_eq!(lanes[3].text, "src0 = 0: source lane 2 is inactive (fi:0), zero-filled by bound_ctrl");
/// # Ok::<(), ExecError>(())
/// ```
pub fn dpp_lanes(
    target: Target,
    wave: &Wave,
    instr: &Instruction,
) -> Result<Vec<DppLaneReport>, ExecError> {
    let spec = target.spec();
    let (Some(plan), Some(dpp)) = (exec::dpp_lanes(spec, wave, instr)?, instr.dpp) else {
        return Ok(Vec::new());
    };
    Ok(plan
        .iter()
        .take(wave.lanes())
        .enumerate()
        .map(|(lane, &p)| DppLaneReport {
            lane,
            plan: p,
            text: dpp_text(spec, instr, dpp, lane, p),
        })
        .collect())
}

/// What DPP made of `lane`, in words.
fn dpp_text(spec: &TargetSpec, instr: &Instruction, dpp: Dpp, lane: usize, p: DppLane) -> String {
    let (dpp8, fi) = match dpp {
        Dpp::Dpp8 { fi, .. } => (true, fi),
        Dpp::Dpp16(d) => (false, d.fi && spec.dpp.fi.value),
    };
    let controls = if instr.opcode.format() == FormatKind::F64 {
        spec.dpp.f64_controls.value
    } else {
        spec.dpp.controls.value
    };
    let identity = match dpp {
        Dpp::Dpp16(d) => !DppControl::from_code(d.ctrl.code()).legal_in(controls),
        Dpp::Dpp8 { .. } => false,
    };
    match p {
        DppLane::Read { lane: l } if identity => format!(
            "src0 from lane {l} (dpp_ctrl is not a control of {}: run as identity, dpp.reserved_ctrl)",
            spec.target
        ),
        DppLane::Read { lane: l } => format!("src0 from lane {l}"),
        DppLane::ReadInactive { lane: l } if fi => {
            format!("src0 from lane {l}, inactive, fetched by fi:1")
        }
        DppLane::ReadInactive { lane: l } => format!(
            "src0 from lane {l}, inactive, fetched (dpp.inactive_source: read)"
        ),
        DppLane::Zero(DppZero::OutOfRange) => {
            "src0 = 0: source out of range, zero-filled by bound_ctrl".into()
        }
        DppLane::Zero(DppZero::Inactive { lane: l }) if dpp8 => {
            format!("src0 = 0: source lane {l} is inactive, DPP8 without fi reads 0")
        }
        DppLane::Zero(DppZero::Inactive { lane: l }) => {
            if spec.dpp.inactive_source.value == DppInactiveSource::Zero {
                format!("src0 = 0: source lane {l} is inactive (fi:0), read as 0 (dpp.inactive_source: zero)")
            } else {
                format!("src0 = 0: source lane {l} is inactive (fi:0), zero-filled by bound_ctrl")
            }
        }
        DppLane::NotWritten(why) => {
            let why = match why {
                DppSkip::Exec => "EXEC is 0".to_string(),
                DppSkip::RowMask => format!("row_mask bit {} is 0", lane >> 4),
                DppSkip::BankMask => format!("bank_mask bit {} is 0", lane >> 2 & 3),
                DppSkip::OutOfRange => "source out of range and bound_ctrl is 0".into(),
                DppSkip::Inactive { lane: l } => {
                    format!("source lane {l} is inactive (fi:0) and bound_ctrl is 0")
                }
            };
            format!("not written: {why}")
        }
    }
}

fn hex<F: Format>(bits: u64) -> String {
    format!("{bits:#0w$x}", w = F::WIDTH as usize / 4 + 2)
}

fn show<F: Format>(bits: u64) -> String {
    format!(
        "{} ({} {})",
        hex::<F>(bits),
        F::KIND.name(),
        value(F::KIND, bits)
    )
}

fn round_text(inexact: bool, r: Rounding, p: &Policy) -> String {
    if !inexact {
        return "exact".into();
    }
    format!(
        "inexact, rounded {} ({})",
        if r.rounded_up { "up" } else { "down" },
        p.round.name()
    )
}

fn explain_format<F: Format>(
    target: Target,
    wave: &Wave,
    instr: &Instruction,
    lane: usize,
) -> Result<Explanation, ExecError> {
    let spec = target.spec();
    let (src, exp) = exec::lane_sources::<F>(spec, wave, instr, lane)?;
    let mut p = exec::policy::<F>(spec, wave, instr);
    // DPP: the lane's source, or why it is not written.
    let mut dpp_step = None;
    if let (Some(plan), Some(dpp)) = (exec::dpp_lanes(spec, wave, instr)?, instr.dpp) {
        let lp = plan[lane];
        let text = dpp_text(spec, instr, dpp, lane, lp);
        if !lp.written() {
            return Ok(unwritten::<F>(spec, wave, instr, lane, text));
        }
        if matches!(lp, DppLane::Zero(_))
            && spec.dpp.zero_fill.value == DppZeroFill::PositiveZero
            && (p.abs || p.neg)
        {
            p = exec::dpp::plain_policy::<F>(spec, wave, instr);
            dpp_step = Some(format!(
                "lane {lane}: {text}; +0 whatever ABS/NEG (dpp.zero_fill: positive_zero)"
            ));
        } else {
            dpp_step = Some(format!("lane {lane}: {text}"));
        }
    }
    // The result bits come from the kernel's own steps, one at a time; the
    // words from `classify`.
    let lp = LanePolicy::<F>::new(&p);
    let step =
        |f: fn(F::Lane, &LanePolicy<F>) -> F::Lane, x: u64| f(F::Lane::from_u64(x), &lp).to_u64();
    let mut ex = Explanation::default();

    ex.say("mode", mode_text::<F>(target, wave, &p));
    if let Some(t) = dpp_step {
        ex.say("dpp", t);
    }

    // Source modifiers and the input flush.
    let modded = step(source_modifiers::<F>, src);
    let mut s = format!("src0 = {}", show::<F>(src));
    if p.abs || p.neg {
        let what = match (p.abs, p.neg) {
            (true, true) => "ABS then NEG",
            (true, false) => "ABS",
            _ => "NEG",
        };
        s += &format!("; {what} -> {}", show::<F>(modded));
    }
    if instr.opcode.info().src1().is_some() {
        s += &format!("; exponent src1 = {exp}");
        if F::KIND == FormatKind::F16 {
            s += " (low 16 bits as i16)";
        }
    }
    ex.say("source", s);
    let prepared = step(flush_input::<F>, modded);
    if is_subnormal::<F>(modded) {
        if prepared != modded {
            ex.say(
                "flush",
                format!(
                    "src0 is subnormal and input subnormals are flushed: {}",
                    show::<F>(prepared)
                ),
            );
        } else {
            ex.say("flush", "src0 is subnormal and input subnormals are kept");
        }
    }

    // The operation.
    let rounded = if instr.opcode.info().operation == OperationKind::Ldexp {
        let bits = ldexp_rounded::<F>(F::Lane::from_u64(prepared), exp, &lp).to_u64();
        let (case, r) = classify_ldexp::<F>(prepared, exp, &p);
        let text = match case {
            LdexpCase::Nan => format!("NaN source: {}", nan_text(&p)),
            LdexpCase::PassThrough => "infinity or zero: passed through unchanged".into(),
            LdexpCase::Normal => "result in the normal range: exact".into(),
            LdexpCase::Overflow => overflow_text::<F>(&p, bits),
            LdexpCase::Tiny if r.flushed => {
                let why = flush_reason(&p);
                format!("tiny at full precision (below the smallest normal before rounding); flushed to a signed zero because {why}")
            }
            LdexpCase::Tiny => format!(
                "tiny: rounded to a subnormal, {}",
                round_text(r.inexact, r, &p)
            ),
        };
        ex.say(
            "operation",
            format!("{}: {text} -> {}", instr.opcode.mnemonic(), show::<F>(bits)),
        );
        bits
    } else {
        let bits = step(fract_rounded::<F>, prepared);
        let (case, r) = classify_fract::<F>(prepared, &p);
        let text = match case {
            FractCase::Nan => format!("NaN source: {}", nan_text(&p)),
            FractCase::Infinity => "infinity: the negative quiet NaN".into(),
            FractCase::ZeroOrInteger => "zero or an integer: +0 in every rounding mode".into(),
            FractCase::BelowOne if r.flushed => {
                "positive subnormal below 1, output subnormals flushed: +0".into()
            }
            FractCase::BelowOne => "positive and below 1: unchanged".into(),
            FractCase::ExactFraction => "|x| >= 0.5: the fraction is exact".into(),
            FractCase::OneMinusSmall => {
                let mut t = format!(
                    "negative, |x| < 0.5: 1 - |x| {}",
                    round_text(r.inexact, r, &p)
                );
                if r.capped {
                    t += "; it rounded to 1.0 and is capped at 1 - ulp";
                }
                t
            }
        };
        ex.say(
            "operation",
            format!("{}: {text} -> {}", instr.opcode.mnemonic(), show::<F>(bits)),
        );
        bits
    };

    finish::<F>(&mut ex, target, instr, &p, rounded);
    Ok(ex)
}

/// The name of an arithmetic source in kernel order: `K` in its slot,
/// FMAC's accumulator `D`, else `src0`, `src1`, `src2`.
fn slot_name(instr: &Instruction, slot: usize) -> &'static str {
    let info = instr.opcode.info();
    match slot {
        _ if info.k_slot() == Some(slot) => "K",
        2 if info.accumulator() => "D",
        0 => "src0",
        1 => "src1",
        _ => "src2",
    }
}

/// [`explain`] of an arithmetic instruction (ADD, SUB, SUBREV, MUL, FMA,
/// FMAC, FMAMK, FMAAK): the sources as the executor reads them (DPP lane,
/// K, FMAC's D), each one's ABS/NEG and flush, the rule that decided the
/// lane ([`classify_arith`]) and the one rounding, then OMOD and CLAMP.
/// The bits come from the kernel's own steps.
fn explain_arith<F: Format>(
    target: Target,
    wave: &Wave,
    instr: &Instruction,
    lane: usize,
) -> Result<Explanation, ExecError> {
    let spec = target.spec();
    let lanes = wave.lanes();
    if lane >= lanes {
        return Err(ExecError::LaneOutOfRange { lane, lanes });
    }
    let Some(op) = exec::arith::arith_op(instr.opcode.info().operation) else {
        return Err(ExecError::NotExecuted {
            opcode: instr.opcode,
        });
    };
    exec::arith::check::<F>(spec, wave, instr)?;
    let words = exec::arith::read_sources::<F>(spec, wave, instr, op)?;
    let p = exec::arith::arith_policy::<F>(spec, wave, instr);
    let mut mods = exec::arith::source_modifiers(instr);
    let mut ex = Explanation::default();
    ex.say("mode", mode_text::<F>(target, wave, &p));

    // DPP: src0's lane, or why the lane is not written.
    let mut from = Some(lane);
    if let (Some(plan), Some(dpp)) = (exec::dpp_lanes(spec, wave, instr)?, instr.dpp) {
        let lp = plan[lane];
        let text = dpp_text(spec, instr, dpp, lane, lp);
        if !lp.written() {
            return Ok(unwritten::<F>(spec, wave, instr, lane, text));
        }
        from = match lp {
            DppLane::Read { lane: l } | DppLane::ReadInactive { lane: l } => Some(usize::from(l)),
            _ => None,
        };
        let positive_zero = spec.dpp.zero_fill.value == DppZeroFill::PositiveZero;
        if from.is_none() && positive_zero && (mods.abs[0] || mods.neg[0]) {
            mods.abs[0] = false;
            mods.neg[0] = false;
            ex.say(
                "dpp",
                format!("lane {lane}: {text}; +0 whatever ABS/NEG (dpp.zero_fill: positive_zero)"),
            );
        } else {
            ex.say("dpp", format!("lane {lane}: {text}"));
        }
    }

    // The sources, their ABS/NEG and the input flush.
    let lp = LanePolicy::<F>::new(&p);
    let n = op.sources();
    let mut raw = [0u64; 3];
    let mut prepared = [0u64; 3];
    let mut texts = Vec::new();
    let mut flushes = Vec::new();
    for slot in 0..n {
        let at = if slot == 0 { from } else { Some(lane) };
        raw[slot] = at.map_or(0, |l| {
            let lo = u64::from(words.lo[slot][l]);
            match F::WIDTH {
                64 => u64::from(words.hi[slot][l]) << 32 | lo,
                32 => lo,
                _ => lo >> words.shift[slot] & 0xffff,
            }
        });
        let m = SourceMods::<F>::new(mods.abs[slot], mods.neg[slot]);
        let modded = raw[slot]
            & if mods.abs[slot] {
                F::ABS_MASK
            } else {
                u64::MAX
            }
            ^ if mods.neg[slot] { F::SIGN } else { 0 };
        prepared[slot] = prepare_operand::<F>(F::Lane::from_u64(raw[slot]), &m, &lp).to_u64();
        let name = slot_name(instr, slot);
        let mut t = format!("{name} = {}", show::<F>(raw[slot]));
        if mods.abs[slot] || mods.neg[slot] {
            let what = match (mods.abs[slot], mods.neg[slot]) {
                (true, true) => "ABS then NEG",
                (true, false) => "ABS",
                _ => "NEG",
            };
            t += &format!(" {what} -> {}", show::<F>(modded));
        }
        texts.push(t);
        if is_subnormal::<F>(modded) {
            let flush = if prepared[slot] != modded {
                format!(
                    "{name} is subnormal and input subnormals are flushed: {}",
                    show::<F>(prepared[slot])
                )
            } else {
                format!("{name} is subnormal and input subnormals are kept")
            };
            flushes.push(flush);
        }
    }
    ex.say("source", texts.join("; "));
    for flush in flushes {
        ex.say("flush", flush);
    }

    // The operation: the kernel's bits, the rule's words.
    let m = [0, 1, 2].map(|s| SourceMods::<F>::new(mods.abs[s], mods.neg[s]));
    let src = raw.map(F::Lane::from_u64);
    let rounded = arith_lane::<F, false>(op, src, &m, &lp).to_u64();
    let order: Vec<&str> = (0..n).map(|s| slot_name(instr, s)).collect();
    let text = match classify_arith::<F>(op, prepared, &p) {
        ArithCase::InvalidZeroTimesInf if op == ArithOp::Fma => {
            "invalid operation: 0 x inf in the product gives the negative canonical NaN (before any NaN addend)".to_string()
        }
        ArithCase::InvalidZeroTimesInf => {
            "invalid operation: 0 x inf gives the negative canonical NaN".to_string()
        }
        ArithCase::InvalidInfMinusInf => {
            "invalid operation: inf - inf gives the negative canonical NaN".to_string()
        }
        ArithCase::Nan(slot) => {
            let subtrahend = matches!((op, slot), (ArithOp::Sub, 1) | (ArithOp::Subrev, 0));
            let negated = if subtrahend && p.sub_nan == SubNan::NegateSubtrahend {
                "; the subtrahend is negated first, so its sign is flipped (sub_nan: negate_subtrahend)"
            } else {
                ""
            };
            format!(
                "NaN source: {} is the first NaN in encoding order ({}); {}{negated}",
                slot_name(instr, slot),
                order.join(", "),
                nan_text(&p)
            )
        }
        ArithCase::Infinite => "an infinite source: the result is infinite".to_string(),
        ArithCase::ExactZero => format!(
            "the exact result is zero: its sign by the zero rules ({})",
            p.round.name()
        ),
        ArithCase::Rounded(r) if r.overflow => overflow_text::<F>(&p, rounded),
        ArithCase::Rounded(r) if r.flushed => {
            let why = flush_reason(&p);
            let tiny = match p.tininess {
                Tininess::AfterRounding => format!(
                    "tiny after rounding (below the smallest normal once rounded to {} bits)",
                    F::MAN + 1
                ),
                Tininess::BeforeRounding => {
                    "tiny before rounding (the exact value is below the smallest normal)".into()
                }
            };
            format!("{tiny}; flushed to a signed zero because {why}")
        }
        ArithCase::Rounded(r) => {
            let how = if !r.inexact {
                "exact".to_string()
            } else {
                format!(
                    "inexact, rounded {} ({})",
                    if r.rounded_up { "up" } else { "down" },
                    p.round.name()
                )
            };
            if r.tiny {
                format!("tiny: rounded to a subnormal, {how}")
            } else {
                how
            }
        }
    };
    ex.say(
        "operation",
        format!(
            "{}: {text} -> {}",
            instr.opcode.mnemonic(),
            show::<F>(rounded)
        ),
    );
    finish::<F>(&mut ex, target, instr, &p, rounded);
    Ok(ex)
}

/// The `mode` step: the MODE fields the result format reads.
fn mode_text<F: Format>(target: Target, wave: &Wave, p: &Policy) -> String {
    let spec = target.spec();
    let mode = wave.mode();
    let field = |shift: u32| mode.0 >> shift & 3;
    let (rs, ds) = (F::MODE_ROUND_SHIFT, F::MODE_DENORM_SHIFT);
    let keep = |b: bool| if b { "kept" } else { "flushed" };
    let mut m = format!(
        "MODE {:#010x}: {} reads FP_ROUND[{}:{}]={} ({}), FP_DENORM[{}:{}]={:#04b} (input subnormals {}, output subnormals {})",
        mode.0,
        F::KIND.name().to_uppercase(),
        rs + 1,
        rs,
        field(rs),
        p.round.name(),
        ds + 1,
        ds,
        field(ds),
        keep(p.keep_input_denorm),
        keep(p.keep_output_denorm),
    );
    if spec.ieee_dx10_bits.value {
        m += &format!(
            "; IEEE={} DX10_CLAMP={}",
            u8::from(mode.ieee()),
            u8::from(mode.dx10_clamp())
        );
    } else {
        m += &format!("; {} has no IEEE or DX10_CLAMP bits", target);
    }
    if F::KIND == FormatKind::F16 {
        m += &format!("; FP16_OVFL={}", u8::from(mode.fp16_ovfl()));
    }
    m
}

/// The `omod`, `clamp` and `result` steps on the rounded result.
fn finish<F: Format>(
    ex: &mut Explanation,
    target: Target,
    instr: &Instruction,
    p: &Policy,
    rounded: u64,
) {
    let spec = target.spec();
    let lp = LanePolicy::<F>::new(p);
    let step =
        |f: fn(F::Lane, &LanePolicy<F>) -> F::Lane, x: u64| f(F::Lane::from_u64(x), &lp).to_u64();
    // OMOD.
    let omodded = step(apply_omod::<F>, rounded);
    let gate = match p.omod_decision {
        OmodDecision::Absent => None,
        OmodDecision::EffectiveAlways => Some(format!("{} applies OMOD always", target)),
        OmodDecision::EffectiveGateOpen => Some(
            "effective: MODE.IEEE=0 and the result format's output subnormals are flushed"
                .to_string(),
        ),
        OmodDecision::IgnoredIeee => Some("ignored: MODE.IEEE=1".to_string()),
        OmodDecision::IgnoredOutputDenorm => {
            Some("ignored: the result format keeps output subnormals".to_string())
        }
    };
    if let Some(g) = gate {
        let mut t = format!("{}: {g}", instr.omod.syntax());
        if p.omod != Omod::None {
            t += &format!(" -> {}", show::<F>(omodded));
        }
        ex.say("omod", t);
    }

    // CLAMP.
    let clamped = step(apply_clamp::<F>, omodded);
    if p.clamp {
        let t = if is_nan::<F>(omodded) {
            if p.clamp_nan_to_zero {
                let why = if spec.ieee_dx10_bits.value {
                    "MODE.DX10_CLAMP=1"
                } else {
                    "always on this target"
                };
                format!("NaN clamps to +0 ({why})")
            } else {
                "NaN is left unchanged (MODE.DX10_CLAMP=0)".into()
            }
        } else if clamped == omodded {
            "within [0, 1]: unchanged".into()
        } else {
            format!("clamped to [0, 1] -> {}", show::<F>(clamped))
        };
        ex.say("clamp", t);
    }
    ex.result = clamped;
    ex.say("result", show::<F>(clamped));
}

/// The explanation of a lane DPP does not write: the destination keeps
/// its bits, which are the result.
fn unwritten<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    lane: usize,
    text: String,
) -> Explanation {
    let mut ex = Explanation::default();
    ex.say("dpp", format!("lane {lane}: {text}"));
    let bits = match instr.dst {
        Operand::Vgpr { index, part } => {
            let index = usize::from(index);
            let lo = u64::from(wave.vgpr(index, lane).unwrap_or(0));
            match F::KIND {
                FormatKind::F64 => lo | u64::from(wave.vgpr(index + 1, lane).unwrap_or(0)) << 32,
                FormatKind::F32 => lo,
                FormatKind::F16 if spec.true16.value && part == Part::Hi => lo >> 16,
                FormatKind::F16 => lo & 0xffff,
            }
        }
        _ => 0,
    };
    ex.result = bits;
    ex.say(
        "result",
        format!("unchanged: the destination keeps {}", show::<F>(bits)),
    );
    ex
}

fn nan_text(p: &Policy) -> &'static str {
    if p.quiet_snan {
        "the quiet bit is set, sign and payload kept"
    } else {
        "returned unchanged (signalling NaNs are kept when MODE.IEEE=0 on this target)"
    }
}

/// The overflow step's words for the result `bits` (FRACT never
/// overflows; LDEXP and the arithmetic share this).
fn overflow_text<F: Format>(p: &Policy, bits: u64) -> String {
    let how = if p.saturate_overflow {
        "FP16_OVFL=1 saturates to the largest finite value".to_string()
    } else if bits & F::ABS_MASK == F::INF {
        format!("{} gives infinity", p.round.name())
    } else {
        format!("{} gives the largest finite value", p.round.name())
    };
    format!("overflow: {how}")
}

/// Why a tiny result was flushed to a signed zero.
fn flush_reason(p: &Policy) -> &'static str {
    if !p.keep_output_denorm {
        "output subnormals are flushed"
    } else {
        "OMOD is effective"
    }
}
