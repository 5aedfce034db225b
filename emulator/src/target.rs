//! Targets and the per-target facts read from `isa-spec/`.
//!
//! The `Target` and `Family` enums and the values of [`TargetSpec`] for
//! each target are generated from the YAML (`emulator/src/generated/`);
//! this file defines the types of the facts and what every target shares.

use core::fmt;
use core::str::FromStr;
use core::sync::atomic::{AtomicU16, Ordering};

use crate::dpp::DppControls;
use crate::error::ExecError;
use crate::instr::{Encoding, Opcode};
use crate::kernels::{ClampNan, FloatRules, OmodGate, SnanPolicy, SubNan, Tininess};

// The targets and their ISA families, one per file of `isa-spec/`: the
// enums, `Target::ALL`, `Target::NAMES` and `name()` are generated.
pub use crate::generated::{Family, Target};

impl Target {
    /// The target's facts, generated from its `isa-spec/` file: family,
    /// wave sizes, instruction forms and every per-target policy with its
    /// evidence (docs/semantics.md §8).
    ///
    /// ```
    /// use amdgpu_valu::{Evidence, OmodGate, Target, WaveSize};
    ///
    /// let t: Target = "gfx1201".parse()?; // LLVM's processor name
    /// assert_eq!(t, Target::Gfx1201);
    /// assert_eq!(t.to_string(), "gfx1201");
    /// let spec = t.spec();
    /// assert_eq!(spec.default_wave, WaveSize::Wave32);
    /// // OMOD always applies on gfx1201, measured on hardware.
    /// assert_eq!(spec.omod_gate.value, OmodGate::Always);
    /// assert!(matches!(spec.omod_gate.evidence, Evidence::Hw(_)));
    /// assert!("gfx1200".parse::<Target>().is_err()); // not a target of isa-spec/
    /// # Ok::<(), amdgpu_valu::ExecError>(())
    /// ```
    pub fn spec(self) -> &'static TargetSpec {
        crate::generated::spec(self)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Parses LLVM's processor name (`gfx1201`); any other text is
/// [`ExecError::UnknownTarget`].
impl FromStr for Target {
    type Err = ExecError;
    fn from_str(s: &str) -> Result<Target, ExecError> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| ExecError::UnknownTarget(s.to_string()))
    }
}

/// Wave width: how many lanes (work-items) one instruction runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaveSize {
    /// wave32: 32 lanes, EXEC bits 31:0 (GFX10 and later; their default).
    Wave32,
    /// wave64: 64 lanes, EXEC bits 63:0 (the only size on GFX9).
    Wave64,
}

impl WaveSize {
    /// The number of lanes: 32 or 64.
    pub fn lanes(self) -> usize {
        match self {
            WaveSize::Wave32 => 32,
            WaveSize::Wave64 => 64,
        }
    }

    /// The EXEC bits that exist in this wave size (one per lane).
    pub fn exec_mask(self) -> u64 {
        match self {
            WaveSize::Wave32 => 0xffff_ffff,
            WaveSize::Wave64 => u64::MAX,
        }
    }
}

/// What a per-target policy value rests on: the evidence tags of
/// docs/semantics.md, each with its source.
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
    /// The tag as `isa-spec/` and docs/semantics.md write it (`hw`, `doc`,
    /// `inherited`, `open`).
    pub fn tag(self) -> &'static str {
        match self {
            Evidence::Hw(_) => "hw",
            Evidence::Doc(_) => "doc",
            Evidence::Inherited(_) => "inherited",
            Evidence::Open(_) => "open",
        }
    }

    /// The source or note attached to the tag (the target measured, the
    /// document, or why the point is open).
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

/// A per-target policy value with the evidence behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sourced<T> {
    /// The value the emulator uses on this target.
    pub value: T,
    /// What the value rests on.
    pub evidence: Evidence,
}

/// What bits 31:16 of the destination become when a VOP1, VOP2 or VOP3
/// form on a target without true16 halves writes an F16 result to bits
/// 15:0 (docs/semantics.md §7.4, §7.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum F16DstHigh {
    /// Bits 31:16 keep their old value (GFX10; gfx11 and gfx12 keep the
    /// other half too).
    Preserve,
    /// Bits 31:16 are cleared (GFX9).
    Zero,
}

/// When an SDWA F16 FRACT or LDEXP result is rounded relative to OMOD
/// (docs/semantics.md §7.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SdwaF16Output {
    /// Round to F16 and apply the output flush as VOP3 does, then OMOD,
    /// CLAMP and the `dst_sel` merge [hw gfx1030].
    Rounded,
    /// OMOD scales the exact result, which is then rounded to F16 once
    /// (the F16 output flush and OMOD's tiny-result flush included), then
    /// CLAMP and the dst_sel merge: the alternative a target's
    /// measurements could pick (docs/semantics.md §10).
    ScaledBeforeRounding,
}

/// Bits 31:16 of an SDWA destination with dst_sel DWORD when the result is
/// F16 (evidence: open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SdwaF16DwordDst {
    /// Zero: the 16-bit result zero-extended to 32 bits.
    ZeroExtend,
    /// The destination's old bits 31:16 are kept.
    PreserveHigh,
}

/// What an SDWA source selector does to an inline constant (evidence: open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SdwaConstantSel {
    /// Nothing: the constant is used as it is.
    Ignored,
    /// The selector extracts its field (sign-extended with `sext`) of the
    /// constant's encoding in the operand's width, as from a register.
    Applied,
}

/// One instruction form a target has: an opcode in an encoding, with its
/// opcode number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Form {
    /// The operation and format.
    pub opcode: Opcode,
    /// The encoding (VOP1, VOP2, VOP3 or SDWA).
    pub encoding: Encoding,
    /// The value of the encoding's opcode field (as `llvm-mc` encodes it).
    pub op: u16,
}

/// What `bound_ctrl:0` encodes in the assembler (DPP16): LLVM sets the
/// BC bit for it before GFX11 (sp3 compatibility) and clears it from GFX11
/// on. `bound_ctrl:1` always sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoundCtrlZero {
    /// `bound_ctrl:0` sets BC (GFX9, GFX10).
    SetsBc,
    /// `bound_ctrl:0` leaves BC clear (GFX11 and later).
    ClearsBc,
}

/// What a DPP16 lane does when its source lane is in range but inactive
/// (EXEC = 0) and FI is 0 or absent (docs/semantics.md §11.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppInactiveSource {
    /// The source counts as invalid: BOUND_CTRL decides (BC = 1: read 0
    /// and write; BC = 0: no write).
    BoundCtrl,
    /// src0 reads 0 and the lane is written, whatever BC says.
    Zero,
    /// The inactive lane's register value is read.
    Read,
}

/// The sign of a zero-filled src0 under NEG (docs/semantics.md §11.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppZeroFill {
    /// The raw 0 goes through ABS and NEG like any source (NEG gives -0).
    Modified,
    /// The zero-filled source is +0 whatever the modifiers.
    PositiveZero,
}

/// `row_bcast:15` in row 0 and `row_bcast:31` in rows 0-1, where the ISA
/// names no source (docs/semantics.md §11.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppBcastLowRows {
    /// Out of range: BOUND_CTRL decides.
    OutOfRange,
    /// The lane reads itself.
    OwnLane,
}

/// Executing a DPP_CTRL code the target does not have (reserved, or
/// another family's control).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppReservedCtrl {
    /// An execution error.
    Error,
    /// Every lane reads itself.
    Identity,
}

/// `row_share` and `row_xmask` at execution where their use is not
/// established (docs/semantics.md §11.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppShareXmask {
    /// The lane rules of docs/semantics.md §11.3.
    Formula,
    /// An execution error.
    Error,
}

/// True16 DPP forms whose operands mix `.l` and `.h` halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppMixedHalves {
    /// Each operand reads and writes its own half, as encoded.
    AsEncoded,
    /// An execution error.
    Error,
}

/// DPP word bits with no assembler syntax: bits 23:22 of an e32 VOP2 word
/// (src1 NEG/ABS on LDEXP's integer src1), bit 17, bit 18 without FI
/// (GFX9) and bits 23:20 of an e64 DPP word (docs/semantics.md §11.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppReservedBits {
    /// As LLVM: the word decodes (the bits kept for the round trip) and
    /// they change nothing at execution.
    Ignored,
    /// A decode error naming the bit, and an execution error.
    Error,
}

/// SDWA word-1 bits that must be zero (the layout's `must_be_zero`: 22
/// and 30 on GFX9 and GFX10) when set (docs/semantics.md §10.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SdwaReservedBits {
    /// As LLVM: the word decodes (the bits kept for the round trip) and
    /// they change nothing at execution.
    Ignored,
    /// A decode error naming the bit, and an execution error.
    Error,
}

/// The DPP facts and switches of a target (`dpp:` in `isa-spec/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DppSpec {
    /// The DPP16 controls of 32-bit and 16-bit operands.
    pub controls: Sourced<DppControls>,
    /// The DPP16 controls of 64-bit operands (empty: no F64 DPP).
    pub f64_controls: Sourced<DppControls>,
    /// What `bound_ctrl:0` encodes.
    pub bound_ctrl_zero: Sourced<BoundCtrlZero>,
    /// Whether the FI bit and DPP8 exist (GFX10+).
    pub fi: Sourced<bool>,
    /// Whether an e64 DPP src1 may be an SGPR or inline constant.
    pub e64_src1_scalar: Sourced<bool>,
    /// An in-range inactive source lane with FI = 0 (or no FI).
    pub inactive_source: Sourced<DppInactiveSource>,
    /// The sign of a zero-filled src0 under NEG.
    pub zero_fill: Sourced<DppZeroFill>,
    /// `row_bcast` lanes below the broadcast row; `None` without
    /// `row_bcast`.
    pub bcast_low_rows: Option<Sourced<DppBcastLowRows>>,
    /// A code the target does not have, at execution.
    pub reserved_ctrl: Sourced<DppReservedCtrl>,
    /// `row_share`/`row_xmask` at execution; `None` without them.
    pub share_xmask: Option<Sourced<DppShareXmask>>,
    /// Mixed `.l`/`.h` halves; `None` without true16.
    pub mixed_halves: Option<Sourced<DppMixedHalves>>,
    /// DPP bits without syntax, at execution.
    pub reserved_bits: Sourced<DppReservedBits>,
}

/// One DPP form a target has: an opcode in a base encoding (VOP1 or VOP2
/// for `_dpp`, VOP3 for `_e64_dpp`) with DPP16 or DPP8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DppForm {
    /// The operation and format.
    pub opcode: Opcode,
    /// The base encoding: VOP1/VOP2 (e32) or VOP3 (e64).
    pub encoding: Encoding,
    /// DPP8 rather than DPP16.
    pub dpp8: bool,
}

/// Everything about a target that changes what an instruction does or
/// how it is encoded, with the evidence for each policy (generated from
/// `isa-spec/`; [`Target::spec`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    /// The target these facts describe.
    pub target: Target,
    /// Its ISA family, which decides the machine-code layouts.
    pub family: Family,
    /// The wave sizes the target can run.
    pub wave_sizes: &'static [WaveSize],
    /// The wave size a dispatch uses unless told otherwise (wave64 on GFX9,
    /// wave32 later).
    pub default_wave: WaveSize,
    /// When OMOD takes effect: always, or only with MODE.IEEE = 0 and the
    /// result format's output subnormals flushed (docs/semantics.md §6.1).
    pub omod_gate: Sourced<OmodGate>,
    /// What CLAMP does with a NaN: always +0, or +0 only under
    /// MODE.DX10_CLAMP (docs/semantics.md §6.3).
    pub clamp_nan: Sourced<ClampNan>,
    /// Whether MODE bits 9 (IEEE) and 8 (DX10_CLAMP) exist (before GFX12).
    pub ieee_dx10_bits: Sourced<bool>,
    /// Whether 16-bit operands name a register half, `vN.l` or `vN.h`
    /// (GFX11 and GFX12; docs/semantics.md §7.3).
    pub true16: Sourced<bool>,
    /// Whether the target has the SDWA encoding (GFX9 and GFX10).
    pub sdwa: Sourced<bool>,
    /// What bits 31:16 of a VOP1/VOP2/VOP3 F16 destination become on a
    /// target without true16 halves.
    pub f16_dst_high: Sourced<F16DstHigh>,
    /// What every instruction does with a signalling NaN source
    /// (docs/semantics.md §10.1).
    pub snan: Sourced<SnanPolicy>,
    /// What SUB and SUBREV do with a NaN subtrahend (docs/semantics.md
    /// §10.9).
    pub sub_nan: Sourced<SubNan>,
    /// When an arithmetic result is tiny (docs/semantics.md §10.10).
    pub tininess: Sourced<Tininess>,
    /// When SDWA F16 FRACT and LDEXP results round relative to OMOD; `None`
    /// where the target has no SDWA.
    pub sdwa_f16_output: Option<Sourced<SdwaF16Output>>,
    /// SDWA dst_sel DWORD with an F16 result; `None` without SDWA.
    pub sdwa_f16_dword_dst: Option<Sourced<SdwaF16DwordDst>>,
    /// SDWA source selectors on inline constants; `None` without SDWA.
    pub sdwa_constant_sel: Option<Sourced<SdwaConstantSel>>,
    /// SDWA word bits that must be zero, when set; `None` without SDWA.
    pub sdwa_reserved_bits: Option<Sourced<SdwaReservedBits>>,
    /// Whether a 64-bit VGPR operand must start at an even register
    /// (gfx90a, gfx942, gfx950, gfx1250; docs/semantics.md §7.1).
    pub aligned_vgpr_pairs: Sourced<bool>,
    /// The evidence for V_FRACT's rules on this target (measured on
    /// gfx1201, inherited elsewhere; docs/semantics.md §4).
    pub fract_rules: Evidence,
    /// Every form the target has, with its opcode number (in no order a
    /// lookup relies on: the generated tables join groups of forms that
    /// several targets share).
    pub forms: &'static [Form],
    /// The DPP facts and switches.
    pub dpp: DppSpec,
    /// Every DPP form the target has.
    pub dpp_forms: &'static [DppForm],
}

/// The entries of `parts` one after another, at compile time: how
/// `generated/forms.rs` builds a target's table of forms from the groups
/// of entries it shares with other targets, each written once. Every part
/// is non-empty, and a total other than `N` fails the build.
pub(crate) const fn concat<T: Copy, const N: usize>(parts: &[&[T]]) -> [T; N] {
    let mut out = [parts[0][0]; N];
    let (mut p, mut n) = (0, 0);
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[n] = parts[p][i];
            (n, i) = (n + 1, i + 1);
        }
        p += 1;
    }
    assert!(n == N, "the parts do not add up to the table's length");
    out
}

/// Set in a [`TargetSpec::form_bits`] entry once it is computed.
const COMPUTED: u16 = 1 << 15;

/// The bit of a form in `encoding` (bits 0-3).
fn form_bit(encoding: Encoding) -> u16 {
    1 << (encoding as u16)
}

/// The bit of a DPP16 or DPP8 form on `encoding` (bits 4-11).
fn dpp_bit(encoding: Encoding, dpp8: bool) -> u16 {
    1 << (4 + 2 * encoding as u16 + u16::from(dpp8))
}

impl TargetSpec {
    /// The float rules a kernel policy is built from.
    pub(crate) fn float_rules(&self) -> FloatRules {
        FloatRules {
            omod_gate: self.omod_gate.value,
            clamp_nan: self.clamp_nan.value,
            has_ieee_dx10_bits: self.ieee_dx10_bits.value,
            snan: self.snan.value,
            sub_nan: self.sub_nan.value,
            tininess: self.tininess.value,
        }
    }

    /// The form of `opcode` in `encoding` with its opcode number, if the
    /// target has it.
    pub fn form(&self, opcode: Opcode, encoding: Encoding) -> Option<&'static Form> {
        self.forms
            .iter()
            .find(|f| f.opcode == opcode && f.encoding == encoding)
    }

    /// Whether the target has the form of `opcode` in `encoding`: the same
    /// answer as [`TargetSpec::form`], from per-opcode bit sets computed
    /// once for the generated specs (a scan for any other spec).
    #[inline]
    pub fn has_form(&self, opcode: Opcode, encoding: Encoding) -> bool {
        if !core::ptr::eq(self, self.target.spec()) {
            return self.form(opcode, encoding).is_some();
        }
        self.form_bits(opcode) & form_bit(encoding) != 0
    }

    /// Whether the target has `opcode` in `encoding` with DPP16 (`dpp8`
    /// false) or DPP8: from the same bit sets as [`TargetSpec::has_form`]
    /// (a scan for any other spec).
    #[inline]
    pub fn has_dpp_form(&self, opcode: Opcode, encoding: Encoding, dpp8: bool) -> bool {
        if !core::ptr::eq(self, self.target.spec()) {
            return self
                .dpp_forms
                .iter()
                .any(|f| f.opcode == opcode && f.encoding == encoding && f.dpp8 == dpp8);
        }
        self.form_bits(opcode) & dpp_bit(encoding, dpp8) != 0
    }

    /// The forms of `opcode` on this (generated) spec as bits: `form_bit`
    /// per encoding, `dpp_bit` per DPP form, [`COMPUTED`] once the target's
    /// row is filled.
    fn form_bits(&self, opcode: Opcode) -> u16 {
        static BITS: [[AtomicU16; Opcode::ALL.len()]; Target::ALL.len()] =
            [const { [const { AtomicU16::new(0) }; Opcode::ALL.len()] }; Target::ALL.len()];
        // Both indices are enum discriminants below the array lengths.
        let row = &BITS[self.target as usize];
        let slot = &row[opcode as usize];
        let bits = slot.load(Ordering::Relaxed);
        if bits != 0 {
            return bits;
        }
        let mut all = [COMPUTED; Opcode::ALL.len()];
        let forms = self.forms.iter().map(|f| (f.opcode, form_bit(f.encoding)));
        let dpp = self
            .dpp_forms
            .iter()
            .map(|f| (f.opcode, dpp_bit(f.encoding, f.dpp8)));
        for (op, bit) in forms.chain(dpp) {
            if let Some(b) = all.get_mut(op as usize) {
                *b |= bit;
            }
        }
        for (slot, bits) in row.iter().zip(all) {
            slot.store(bits, Ordering::Relaxed);
        }
        all.get(opcode as usize).copied().unwrap_or(COMPUTED)
    }

    /// Whether the target can run a wave of `size` lanes.
    pub fn supports_wave(&self, size: WaveSize) -> bool {
        self.wave_sizes.contains(&size)
    }
}
