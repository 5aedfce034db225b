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
use crate::error::ExecError;
use crate::exec;
use crate::instr::Instruction;
use crate::kernels::classify::{classify_fract, classify_ldexp, FractCase, LdexpCase, Rounding};
use crate::kernels::format::{is_nan, is_subnormal};
use crate::kernels::fract::fract_rounded;
use crate::kernels::lane::Lane;
use crate::kernels::ldexp::ldexp_rounded;
use crate::kernels::modifiers::{apply_clamp, apply_omod, flush_input, source_modifiers};
use crate::kernels::{Format, FormatKind, LanePolicy, Omod, OmodDecision, Policy, F16, F32, F64};
use crate::target::Target;
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
pub fn explain(
    target: Target,
    wave: &Wave,
    instr: &Instruction,
    lane: usize,
) -> Result<Explanation, ExecError> {
    match instr.opcode.format() {
        FormatKind::F16 => explain_format::<F16>(target, wave, instr, lane),
        FormatKind::F32 => explain_format::<F32>(target, wave, instr, lane),
        FormatKind::F64 => explain_format::<F64>(target, wave, instr, lane),
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
    let p = exec::policy::<F>(spec, wave, instr);
    // The result bits come from the kernel's own steps, one at a time; the
    // words from `classify`.
    let lp = LanePolicy::<F>::new(&p);
    let step =
        |f: fn(F::Lane, &LanePolicy<F>) -> F::Lane, x: u64| f(F::Lane::from_u64(x), &lp).to_u64();
    let mode = wave.mode();
    let mut ex = Explanation::default();

    // MODE fields of the result format.
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
    ex.say("mode", m);

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
    if instr.opcode.is_ldexp() {
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
    let rounded = if instr.opcode.is_ldexp() {
        let bits = ldexp_rounded::<F>(F::Lane::from_u64(prepared), exp, &lp).to_u64();
        let (case, r) = classify_ldexp::<F>(prepared, exp, &p);
        let text = match case {
            LdexpCase::Nan => format!("NaN source: {}", nan_text(&p)),
            LdexpCase::PassThrough => "infinity or zero: passed through unchanged".into(),
            LdexpCase::Normal => "result in the normal range: exact".into(),
            LdexpCase::Overflow => {
                let how = if p.saturate_overflow {
                    "FP16_OVFL=1 saturates to the largest finite value".to_string()
                } else if bits & F::ABS_MASK == F::INF {
                    format!("{} gives infinity", p.round.name())
                } else {
                    format!("{} gives the largest finite value", p.round.name())
                };
                format!("overflow: {how}")
            }
            LdexpCase::Tiny if r.flushed => {
                let why = if !p.keep_output_denorm {
                    "output subnormals are flushed"
                } else {
                    "OMOD is effective"
                };
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
    Ok(ex)
}

fn nan_text(p: &Policy) -> &'static str {
    if p.quiet_snan {
        "the quiet bit is set, sign and payload kept"
    } else {
        "returned unchanged (signalling NaNs are kept when MODE.IEEE=0 on this target)"
    }
}
