//! The per-instruction decisions, taken once from MODE, the target's policies
//! and the instruction's modifiers, and then applied to every lane.

use super::format::Format;

/// FP_ROUND encoding (docs/semantics.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    /// 0: round to nearest, ties to even.
    NearestEven,
    /// 1: toward +infinity.
    TowardPositive,
    /// 2: toward -infinity.
    TowardNegative,
    /// 3: toward zero.
    TowardZero,
}

impl Round {
    /// Decode a 2-bit FP_ROUND field.
    pub fn from_field(f: u32) -> Round {
        match f & 3 {
            0 => Round::NearestEven,
            1 => Round::TowardPositive,
            2 => Round::TowardNegative,
            _ => Round::TowardZero,
        }
    }

    /// Short name for explanations.
    pub fn name(self) -> &'static str {
        match self {
            Round::NearestEven => "nearest-even",
            Round::TowardPositive => "toward +inf",
            Round::TowardNegative => "toward -inf",
            Round::TowardZero => "toward zero",
        }
    }

    /// Whether a magnitude with kept last bit `odd`, first discarded bit
    /// `guard` and any lower discarded bit `sticky` rounds up, for a value of
    /// sign `negative`.
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

/// Output modifier, as encoded in OMOD (1 = mul:2, 2 = mul:4, 3 = div:2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Omod {
    /// No output modifier.
    #[default]
    None,
    /// mul:2
    Mul2,
    /// mul:4
    Mul4,
    /// div:2
    Div2,
}

impl Omod {
    /// Decode the 2-bit OMOD field.
    pub fn from_field(f: u32) -> Omod {
        match f & 3 {
            0 => Omod::None,
            1 => Omod::Mul2,
            2 => Omod::Mul4,
            _ => Omod::Div2,
        }
    }

    /// The 2-bit OMOD field.
    pub fn field(self) -> u32 {
        match self {
            Omod::None => 0,
            Omod::Mul2 => 1,
            Omod::Mul4 => 2,
            Omod::Div2 => 3,
        }
    }

    /// Assembly spelling (`mul:2`, `mul:4`, `div:2`), empty for none.
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
    /// gfx1201/gfx1250: OMOD always applies.
    Always,
    /// Pre-GFX12: only when MODE.IEEE = 0 and the result format's
    /// output-denormal bit is 0.
    IeeeAndOutputDenorm,
}

/// What CLAMP does with a NaN (docs/semantics.md §6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClampNan {
    /// gfx1201/gfx1250: NaN always clamps to +0.
    AlwaysZero,
    /// Pre-GFX12: NaN clamps to +0 only when MODE.DX10_CLAMP is 1.
    Dx10Clamp,
}

/// What FRACT and LDEXP do with a signalling NaN source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SnanPolicy {
    /// Set the quiet bit (measured on gfx1201).
    Quiet,
    /// Return it unchanged when MODE.IEEE = 0 (other VALU ops on gfx1100).
    KeepWhenIeeeOff,
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
    /// Signalling-NaN handling for FRACT/LDEXP.
    pub snan: SnanPolicy,
}

/// MODE register fields (docs/semantics.md §2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mode(pub u32);

impl Mode {
    /// Bit 8.
    pub const DX10_CLAMP: u32 = 1 << 8;
    /// Bit 9.
    pub const IEEE: u32 = 1 << 9;
    /// Bit 23.
    pub const FP16_OVFL: u32 = 1 << 23;

    /// FP_ROUND of format `F`.
    pub fn round<F: Format>(self) -> Round {
        Round::from_field(self.0 >> F::MODE_ROUND_SHIFT)
    }
    /// FP_DENORM input bit of format `F`: keep input subnormals.
    pub fn keep_input_denorm<F: Format>(self) -> bool {
        self.0 >> F::MODE_DENORM_SHIFT & 1 != 0
    }
    /// FP_DENORM output bit of format `F`: keep output subnormals.
    pub fn keep_output_denorm<F: Format>(self) -> bool {
        self.0 >> (F::MODE_DENORM_SHIFT + 1) & 1 != 0
    }
    /// MODE.IEEE (meaningful only where the bit exists).
    pub fn ieee(self) -> bool {
        self.0 & Self::IEEE != 0
    }
    /// MODE.DX10_CLAMP (meaningful only where the bit exists).
    pub fn dx10_clamp(self) -> bool {
        self.0 & Self::DX10_CLAMP != 0
    }
    /// MODE.FP16_OVFL.
    pub fn fp16_ovfl(self) -> bool {
        self.0 & Self::FP16_OVFL != 0
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
    /// Why OMOD is or is not applied.
    pub omod_decision: OmodDecision,
    /// CLAMP requested.
    pub clamp: bool,
    /// CLAMP turns NaN into +0.
    pub clamp_nan_to_zero: bool,
    /// Signalling NaNs are quieted.
    pub quiet_snan: bool,
    /// ABS on the float source.
    pub abs: bool,
    /// NEG on the float source.
    pub neg: bool,
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
        }
    }

    /// LDEXP's flush_tiny (docs/semantics.md §5.3): output denormals flushed, or
    /// OMOD effective [gfx1201 capture].
    pub fn flush_tiny(&self) -> bool {
        !self.keep_output_denorm || self.omod != Omod::None
    }
}
