//! The per-instruction decisions, taken once from MODE, the target's policies
//! and the instruction's modifiers, and then applied to every lane.

use super::format::{Format, FormatKind, F16, F32, F64};

/// A rounding direction: the 2-bit MODE.FP_ROUND field of a format
/// (docs/semantics.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    /// FP_ROUND 0: to nearest, ties to even.
    NearestEven,
    /// FP_ROUND 1: toward +infinity.
    TowardPositive,
    /// FP_ROUND 2: toward -infinity.
    TowardNegative,
    /// FP_ROUND 3: toward zero.
    TowardZero,
}

impl Round {
    /// The direction a 2-bit FP_ROUND field value names (bits above 1:0
    /// are ignored).
    pub fn from_field(f: u32) -> Round {
        match f & 3 {
            0 => Round::NearestEven,
            1 => Round::TowardPositive,
            2 => Round::TowardNegative,
            _ => Round::TowardZero,
        }
    }

    /// A short name (`nearest-even`, `toward +inf`, `toward -inf`,
    /// `toward zero`), as explanations print it.
    pub fn name(self) -> &'static str {
        match self {
            Round::NearestEven => "nearest-even",
            Round::TowardPositive => "toward +inf",
            Round::TowardNegative => "toward -inf",
            Round::TowardZero => "toward zero",
        }
    }

    /// Whether a magnitude rounds up (away from zero) in this direction:
    /// `odd` is its last kept bit, `guard` the first discarded bit, `sticky`
    /// whether any lower discarded bit is set, `negative` its sign.
    #[inline(always)]
    pub fn rounds_up(self, negative: bool, odd: bool, guard: bool, sticky: bool) -> bool {
        match self {
            Round::NearestEven => guard && (sticky || odd),
            Round::TowardPositive => !negative && (guard || sticky),
            Round::TowardNegative => negative && (guard || sticky),
            Round::TowardZero => false,
        }
    }
}

/// The output modifier OMOD: scale the rounded result by 2, 4 or 1/2 when
/// the target and MODE make it effective (docs/semantics.md §6). Encoded
/// in a 2-bit field: 1 = mul:2, 2 = mul:4, 3 = div:2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Omod {
    /// OMOD 0: no output modifier.
    #[default]
    None,
    /// OMOD 1, `mul:2`: the result times 2 (exponent + 1).
    Mul2,
    /// OMOD 2, `mul:4`: the result times 4 (exponent + 2).
    Mul4,
    /// OMOD 3, `div:2`: the result halved (exponent - 1).
    Div2,
}

impl Omod {
    /// The modifier a 2-bit OMOD field value names (bits above 1:0 are
    /// ignored).
    pub fn from_field(f: u32) -> Omod {
        match f & 3 {
            0 => Omod::None,
            1 => Omod::Mul2,
            2 => Omod::Mul4,
            _ => Omod::Div2,
        }
    }

    /// The value of the 2-bit OMOD field.
    pub fn field(self) -> u32 {
        match self {
            Omod::None => 0,
            Omod::Mul2 => 1,
            Omod::Mul4 => 2,
            Omod::Div2 => 3,
        }
    }

    /// LLVM's assembly spelling (`mul:2`, `mul:4`, `div:2`), empty for none.
    pub fn syntax(self) -> &'static str {
        match self {
            Omod::None => "",
            Omod::Mul2 => "mul:2",
            Omod::Mul4 => "mul:4",
            Omod::Div2 => "div:2",
        }
    }
}

/// When OMOD takes effect on a target (docs/semantics.md §6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OmodGate {
    /// OMOD always applies (gfx1201, gfx1250).
    Always,
    /// OMOD applies only when MODE.IEEE = 0 and the result format's
    /// output-denormal bit is 0 (flushed); otherwise it is ignored as if
    /// absent (before GFX12).
    IeeeAndOutputDenorm,
}

/// What CLAMP does with a NaN (docs/semantics.md §6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClampNan {
    /// CLAMP turns a NaN into +0 whatever MODE says (gfx1201, gfx1250).
    AlwaysZero,
    /// CLAMP turns a NaN into +0 only when MODE.DX10_CLAMP (bit 8) is 1;
    /// otherwise the NaN passes (before GFX12).
    Dx10Clamp,
}

/// What an instruction returns for a signalling NaN source, FRACT and
/// LDEXP as the arithmetic (docs/semantics.md §10.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SnanPolicy {
    /// The NaN with its quiet bit set, sign and payload kept (measured on
    /// gfx1201).
    Quiet,
    /// The NaN unchanged when MODE.IEEE = 0, quieted when it is 1
    /// (measured on gfx1100 for ADD, MUL and FMA).
    KeepWhenIeeeOff,
}

/// What SUB and SUBREV do to a NaN subtrahend (docs/semantics.md §10.9,
/// open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubNan {
    /// IEEE subtraction: a NaN comes out as it went in (sign kept).
    Ieee,
    /// The subtrahend is negated first, as NEG would, so a NaN subtrahend
    /// comes out with its sign flipped.
    NegateSubtrahend,
}

/// When an arithmetic result is tiny (docs/semantics.md §10.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tininess {
    /// The exact result rounded to the format's precision with an
    /// unbounded exponent is below the smallest normal (measured on
    /// gfx1100 and gfx1201).
    AfterRounding,
    /// The exact result is below the smallest normal.
    BeforeRounding,
}

/// The target-level facts a policy is built from: the part of a target's
/// ISA description that changes float results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatRules {
    /// When OMOD is effective.
    pub omod_gate: OmodGate,
    /// CLAMP's treatment of NaN.
    pub clamp_nan: ClampNan,
    /// Whether MODE bits 8 (DX10_CLAMP) and 9 (IEEE) exist.
    pub has_ieee_dx10_bits: bool,
    /// Signalling-NaN handling, every instruction.
    pub snan: SnanPolicy,
    /// SUB/SUBREV of a NaN subtrahend.
    pub sub_nan: SubNan,
    /// When an arithmetic result is tiny.
    pub tininess: Tininess,
}

/// The 32-bit MODE register, which float instructions read: FP_ROUND (bits
/// 1:0 for F32 results, 3:2 for F16 and F64), FP_DENORM (5:4 for F32, 7:6
/// for F16 and F64: the low bit keeps subnormal inputs, the high bit
/// subnormal outputs), DX10_CLAMP (8), IEEE (9) and FP16_OVFL (23)
/// (docs/semantics.md §2).
///
/// ```
/// use amdgpu_valu::{FormatKind, Mode, Round};
///
/// let mode = Mode(0xf3); // F32 toward zero; F16/F64 nearest even; keep subnormals
/// assert_eq!(mode.round_of(FormatKind::F32), Round::TowardZero);
/// assert_eq!(mode.round_of(FormatKind::F64), Round::NearestEven);
/// assert!(mode.keeps_input_subnormals(FormatKind::F16));
/// assert!(!mode.ieee());
/// // 0xd0: F32 subnormal inputs kept (bit 4), outputs flushed (bit 5 clear).
/// assert!(Mode(0xd0).keeps_input_subnormals(FormatKind::F32));
/// assert!(!Mode(0xd0).keeps_output_subnormals(FormatKind::F32));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mode(pub u32);

impl Mode {
    /// DX10_CLAMP, bit 8 (before GFX12): CLAMP turns a NaN into +0.
    pub const DX10_CLAMP: u32 = 1 << 8;
    /// IEEE, bit 9 (before GFX12): when set, OMOD is ignored and signalling
    /// NaNs are quieted.
    pub const IEEE: u32 = 1 << 9;
    /// FP16_OVFL, bit 23: an F16 overflow gives +-65504 (the largest finite
    /// value) instead of +-infinity, in every rounding mode.
    pub const FP16_OVFL: u32 = 1 << 23;

    /// FP_ROUND of format `F`.
    #[doc(hidden)]
    pub fn round<F: Format>(self) -> Round {
        Round::from_field(self.0 >> F::MODE_ROUND_SHIFT)
    }
    /// FP_DENORM input bit of format `F`: keep input subnormals.
    #[doc(hidden)]
    pub fn keep_input_denorm<F: Format>(self) -> bool {
        self.0 >> F::MODE_DENORM_SHIFT & 1 != 0
    }
    /// FP_DENORM output bit of format `F`: keep output subnormals.
    #[doc(hidden)]
    pub fn keep_output_denorm<F: Format>(self) -> bool {
        self.0 >> (F::MODE_DENORM_SHIFT + 1) & 1 != 0
    }
    /// The FP_ROUND field an instruction with `format` results reads: bits
    /// 1:0 for F32, bits 3:2 for F16 and F64.
    pub fn round_of(self, format: FormatKind) -> Round {
        Round::from_field(self.0 >> mode_shifts(format).0)
    }
    /// Whether subnormal sources are kept (FP_DENORM bit 4 for F32, bit 6
    /// for F16 and F64); a 0 bit flushes them to the zero of their sign.
    pub fn keeps_input_subnormals(self, format: FormatKind) -> bool {
        self.0 >> mode_shifts(format).1 & 1 != 0
    }
    /// Whether subnormal results are kept (FP_DENORM bit 5 for F32, bit 7
    /// for F16 and F64); a 0 bit flushes them to the zero of their sign.
    pub fn keeps_output_subnormals(self, format: FormatKind) -> bool {
        self.0 >> (mode_shifts(format).1 + 1) & 1 != 0
    }
    /// MODE.IEEE, bit 9 (meaningful only where the bit exists, before GFX12).
    pub fn ieee(self) -> bool {
        self.0 & Self::IEEE != 0
    }
    /// MODE.DX10_CLAMP, bit 8 (meaningful only where the bit exists, before
    /// GFX12).
    pub fn dx10_clamp(self) -> bool {
        self.0 & Self::DX10_CLAMP != 0
    }
    /// MODE.FP16_OVFL, bit 23: F16 overflow saturates to +-65504.
    pub fn fp16_ovfl(self) -> bool {
        self.0 & Self::FP16_OVFL != 0
    }
}

/// The FP_ROUND and FP_DENORM positions in MODE of `format`'s results.
fn mode_shifts(format: FormatKind) -> (u32, u32) {
    match format {
        FormatKind::F16 => (F16::MODE_ROUND_SHIFT, F16::MODE_DENORM_SHIFT),
        FormatKind::F32 => (F32::MODE_ROUND_SHIFT, F32::MODE_DENORM_SHIFT),
        FormatKind::F64 => (F64::MODE_ROUND_SHIFT, F64::MODE_DENORM_SHIFT),
    }
}

/// Why OMOD was or was not applied; kept for explanations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OmodDecision {
    /// The instruction has no OMOD.
    Absent,
    /// The target always applies OMOD.
    EffectiveAlways,
    /// Gated target, MODE.IEEE = 0 and output denormals flushed.
    EffectiveGateOpen,
    /// Gated target and MODE.IEEE = 1.
    IgnoredIeee,
    /// Gated target and the result format keeps output denormals.
    IgnoredOutputDenorm,
}

impl OmodDecision {
    /// True when OMOD is applied.
    pub fn effective(self) -> bool {
        matches!(
            self,
            OmodDecision::EffectiveAlways | OmodDecision::EffectiveGateOpen
        )
    }
}

/// Everything a lane kernel needs, decided once per instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Policy {
    /// FP_ROUND of the result format.
    pub round: Round,
    /// Keep subnormal sources (input-denormal bit).
    pub keep_input_denorm: bool,
    /// Keep subnormal results (output-denormal bit).
    pub keep_output_denorm: bool,
    /// F16 overflow saturates to +-max (MODE.FP16_OVFL, F16 results only).
    pub saturate_overflow: bool,
    /// The OMOD applied (`Omod::None` when absent or gated off).
    pub omod: Omod,
    /// CLAMP requested.
    pub clamp: bool,
    /// Signalling NaNs are quieted.
    pub quiet_snan: bool,
    /// ABS on the float source.
    pub abs: bool,
    /// NEG on the float source.
    pub neg: bool,
    /// SUB/SUBREV of a NaN subtrahend (the arithmetic only).
    pub sub_nan: SubNan,
    /// When a result is tiny (the arithmetic only: FRACT's and LDEXP's
    /// exact results fit the precision, where both rules agree).
    pub tininess: Tininess,
    /// Why OMOD is or is not applied.
    pub omod_decision: OmodDecision,
    /// CLAMP turns NaN into +0.
    pub clamp_nan_to_zero: bool,
}

/// The instruction-level modifiers a policy depends on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Modifiers {
    /// ABS on the float source.
    pub abs: bool,
    /// NEG on the float source.
    pub neg: bool,
    /// OMOD as encoded.
    pub omod: Omod,
    /// CLAMP bit.
    pub clamp: bool,
}

impl Policy {
    /// The most common policy: nearest-even, subnormals kept, signalling
    /// NaNs quieted, no modifiers (MODE 0xf0 on gfx1201, no OMOD/CLAMP).
    pub const COMMON: Policy = Policy {
        round: Round::NearestEven,
        keep_input_denorm: true,
        keep_output_denorm: true,
        saturate_overflow: false,
        omod: Omod::None,
        omod_decision: OmodDecision::Absent,
        clamp: false,
        clamp_nan_to_zero: false,
        quiet_snan: true,
        abs: false,
        neg: false,
        sub_nan: SubNan::Ieee,
        tininess: Tininess::AfterRounding,
    };

    /// The fields that decide the lanes' behaviour, one byte each in
    /// declaration order: the first eleven fields, declared first so that
    /// `repr(C)` puts them in one run of bytes LLVM reads in three loads. The
    /// two after them do not decide behaviour (`omod_decision` only
    /// explains, and `clamp_nan_to_zero` matters only with `clamp`).
    #[inline(always)]
    pub const fn lane_key(&self) -> u128 {
        u128::from_le_bytes([
            self.round as u8,
            self.keep_input_denorm as u8,
            self.keep_output_denorm as u8,
            self.saturate_overflow as u8,
            self.omod as u8,
            self.clamp as u8,
            self.quiet_snan as u8,
            self.abs as u8,
            self.neg as u8,
            self.sub_nan as u8,
            self.tininess as u8,
            0,
            0,
            0,
            0,
            0,
        ])
    }

    /// Build the policy for a result format `F` from the target's rules,
    /// MODE and the instruction's modifiers.
    pub fn new<F: Format>(rules: &FloatRules, mode: Mode, mods: Modifiers) -> Policy {
        let keep_output_denorm = mode.keep_output_denorm::<F>();
        let omod_decision = if mods.omod == Omod::None {
            OmodDecision::Absent
        } else {
            match rules.omod_gate {
                OmodGate::Always => OmodDecision::EffectiveAlways,
                OmodGate::IeeeAndOutputDenorm => {
                    if rules.has_ieee_dx10_bits && mode.ieee() {
                        OmodDecision::IgnoredIeee
                    } else if keep_output_denorm {
                        OmodDecision::IgnoredOutputDenorm
                    } else {
                        OmodDecision::EffectiveGateOpen
                    }
                }
            }
        };
        let clamp_nan_to_zero = match rules.clamp_nan {
            ClampNan::AlwaysZero => true,
            ClampNan::Dx10Clamp => rules.has_ieee_dx10_bits && mode.dx10_clamp(),
        };
        let quiet_snan = match rules.snan {
            SnanPolicy::Quiet => true,
            SnanPolicy::KeepWhenIeeeOff => rules.has_ieee_dx10_bits && mode.ieee(),
        };
        Policy {
            round: mode.round::<F>(),
            keep_input_denorm: mode.keep_input_denorm::<F>(),
            keep_output_denorm,
            saturate_overflow: F::KIND == super::format::FormatKind::F16 && mode.fp16_ovfl(),
            omod: if omod_decision.effective() {
                mods.omod
            } else {
                Omod::None
            },
            omod_decision,
            clamp: mods.clamp,
            clamp_nan_to_zero,
            quiet_snan,
            abs: mods.abs,
            neg: mods.neg,
            sub_nan: rules.sub_nan,
            tininess: rules.tininess,
        }
    }

    /// LDEXP's flush_tiny (docs/semantics.md §5.3): output denormals flushed, or
    /// OMOD effective [gfx1201 capture].
    pub fn flush_tiny(&self) -> bool {
        !self.keep_output_denorm || self.omod != Omod::None
    }
}
