//! Targets and the per-target facts read from `isa-spec/`.
//!
//! The `Target` and `Family` enums and the values of [`TargetSpec`] for
//! each target are generated from the YAML (`emulator/src/generated/`);
//! this file defines the types of the facts and what every target shares.

use core::fmt;
use core::str::FromStr;
use core::sync::atomic::{AtomicU32, Ordering};

use crate::error::ExecError;
use crate::instr::{Encoding, Opcode};
use crate::kernels::{ClampNan, FloatRules, OmodGate, SnanPolicy};

/// The targets and their ISA families, one per file of `isa-spec/`: the
/// enums, `Target::ALL`, `Target::NAMES` and `name()` are generated.
pub use crate::generated::{Family, Target};

impl Target {
    /// The target's facts, generated from `isa-spec/`.
    pub fn spec(self) -> &'static TargetSpec {
        crate::generated::spec(self)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = ExecError;
    fn from_str(s: &str) -> Result<Target, ExecError> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| ExecError::UnknownTarget(s.to_string()))
    }
}

/// Wave width in lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaveSize {
    /// 32 lanes.
    Wave32,
    /// 64 lanes.
    Wave64,
}

impl WaveSize {
    /// Number of lanes.
    pub fn lanes(self) -> usize {
        match self {
            WaveSize::Wave32 => 32,
            WaveSize::Wave64 => 64,
        }
    }

    /// The EXEC bits that exist in this wave size.
    pub fn exec_mask(self) -> u64 {
        match self {
            WaveSize::Wave32 => 0xffff_ffff,
            WaveSize::Wave64 => u64::MAX,
        }
    }
}

/// How sure we are of a policy value (the evidence tags of docs/semantics.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Evidence {
    /// Measured on real hardware; names the target(s).
    Hw(&'static str),
    /// Stated by AMD's ISA guide or LLVM/Mesa; names the source.
    Doc(&'static str),
    /// Measured elsewhere and assumed here; names where it was measured.
    Inherited(&'static str),
    /// Unknown: the stated default, unverified.
    Open(&'static str),
}

impl Evidence {
    /// The tag (`hw`, `doc`, `inherited`, `open`).
    pub fn tag(self) -> &'static str {
        match self {
            Evidence::Hw(_) => "hw",
            Evidence::Doc(_) => "doc",
            Evidence::Inherited(_) => "inherited",
            Evidence::Open(_) => "open",
        }
    }

    /// The source or note attached to the tag.
    pub fn source(self) -> &'static str {
        match self {
            Evidence::Hw(s) | Evidence::Doc(s) | Evidence::Inherited(s) | Evidence::Open(s) => s,
        }
    }
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.tag(), self.source())
    }
}

/// A policy value with the evidence behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sourced<T> {
    /// The value in force.
    pub value: T,
    /// What it rests on.
    pub evidence: Evidence,
}

/// Where the other half of a 32-bit destination goes when a non-true16,
/// non-SDWA form writes an F16 result into the low half.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum F16DstHigh {
    /// The high 16 bits keep their value (GFX10).
    Preserve,
    /// The high 16 bits are zeroed (GFX9).
    Zero,
}

/// When an SDWA F16 result is rounded relative to OMOD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SdwaF16Output {
    /// Round to F16 and flush as VOP3 does, then OMOD, CLAMP, dst_sel merge
    /// [hw gfx1030].
    Rounded,
    /// OMOD scales the exact result, which is then rounded to F16 once
    /// (the F16 output flush and OMOD's tiny-result flush included), then
    /// CLAMP and the dst_sel merge: the alternative a target's
    /// measurements could pick (docs/semantics.md §10).
    ScaledBeforeRounding,
}

/// Bits 31:16 of an SDWA destination with dst_sel DWORD when the result is
/// F16 [open].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SdwaF16DwordDst {
    /// Zero: the 16-bit result zero-extended to 32 bits.
    ZeroExtend,
    /// The destination's old bits 31:16 are kept.
    PreserveHigh,
}

/// What an SDWA source selector does to an inline constant [open].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SdwaConstantSel {
    /// Nothing: the constant is used as it is.
    Ignored,
    /// The selector extracts its field (sign-extended with `sext`) of the
    /// constant's encoding in the operand's width, as from a register.
    Applied,
}

/// One instruction form a target has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Form {
    /// The instruction.
    pub opcode: Opcode,
    /// Its encoding.
    pub encoding: Encoding,
    /// The opcode number in that encoding (as `llvm-mc` encodes it).
    pub op: u16,
}

/// Everything about a target that the emulator needs, with evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    /// Which target.
    pub target: Target,
    /// Its ISA family.
    pub family: Family,
    /// Supported wave sizes.
    pub wave_sizes: &'static [WaveSize],
    /// The wave size a dispatch uses unless told otherwise.
    pub default_wave: WaveSize,
    /// When OMOD is effective.
    pub omod_gate: Sourced<OmodGate>,
    /// CLAMP's NaN rule.
    pub clamp_nan: Sourced<ClampNan>,
    /// Whether MODE.IEEE and MODE.DX10_CLAMP exist.
    pub ieee_dx10_bits: Sourced<bool>,
    /// True16 register halves in 16-bit operands.
    pub true16: Sourced<bool>,
    /// SDWA encodings.
    pub sdwa: Sourced<bool>,
    /// High half of F16 destinations outside true16 and SDWA.
    pub f16_dst_high: Sourced<F16DstHigh>,
    /// Signalling NaNs in FRACT/LDEXP.
    pub snan: Sourced<SnanPolicy>,
    /// SDWA F16 FRACT/LDEXP output policy; `None` where the target has no SDWA.
    pub sdwa_f16_output: Option<Sourced<SdwaF16Output>>,
    /// SDWA dst_sel DWORD with an F16 result; `None` without SDWA.
    pub sdwa_f16_dword_dst: Option<Sourced<SdwaF16DwordDst>>,
    /// SDWA source selectors on inline constants; `None` without SDWA.
    pub sdwa_constant_sel: Option<Sourced<SdwaConstantSel>>,
    /// 64-bit VGPR operands must start at an even register.
    pub aligned_vgpr_pairs: Sourced<bool>,
    /// FRACT's rules on this target.
    pub fract_rules: Evidence,
    /// The instruction forms the target has.
    pub forms: &'static [Form],
}

impl TargetSpec {
    /// The float rules a [`crate::kernels::Policy`] is built from.
    pub fn float_rules(&self) -> FloatRules {
        FloatRules {
            omod_gate: self.omod_gate.value,
            clamp_nan: self.clamp_nan.value,
            has_ieee_dx10_bits: self.ieee_dx10_bits.value,
            snan: self.snan.value,
        }
    }

    /// The form of `opcode` in `encoding`, if the target has it.
    pub fn form(&self, opcode: Opcode, encoding: Encoding) -> Option<&'static Form> {
        self.forms
            .iter()
            .find(|f| f.opcode == opcode && f.encoding == encoding)
    }

    /// Whether the target has the form of `opcode` in `encoding`: the same
    /// answer as [`TargetSpec::form`], from a per-target bit set computed
    /// once for the generated specs (a scan for any other spec).
    #[inline]
    pub fn has_form(&self, opcode: Opcode, encoding: Encoding) -> bool {
        /// Bit `4 * opcode + encoding` per form, bit 31 once computed.
        static MASKS: [AtomicU32; Target::ALL.len()] =
            [const { AtomicU32::new(0) }; Target::ALL.len()];
        let bit =
            |opcode: Opcode, encoding: Encoding| 1u32 << (4 * opcode as u32 + encoding as u32);
        if !core::ptr::eq(self, self.target.spec()) {
            return self.form(opcode, encoding).is_some();
        }
        let slot = &MASKS[self.target as usize];
        let mut mask = slot.load(Ordering::Relaxed);
        if mask == 0 {
            mask = self
                .forms
                .iter()
                .fold(1 << 31, |m, f| m | bit(f.opcode, f.encoding));
            slot.store(mask, Ordering::Relaxed);
        }
        mask & bit(opcode, encoding) != 0
    }

    /// Whether the target supports `size`.
    pub fn supports_wave(&self, size: WaveSize) -> bool {
        self.wave_sizes.contains(&size)
    }
}
