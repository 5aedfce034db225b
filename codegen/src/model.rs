//! The typed, validated description of every target: what `isa-spec/`
//! says once family defaults are merged and every consistency rule holds.
//!
//! Nothing here lists targets or families: they are the files of
//! `isa-spec/`. The policy values and instructions below are the YAML
//! vocabulary; each becomes a path into the emulator (`OmodGate::Always`)
//! that the compiler checks when the generated code is built.

use proc_macro2::TokenStream;
use quote::quote;
use serde::Deserialize;

/// A target or family name (`gfx1201`, `gfx12`): `gfx`, a digit, then digits
/// and lowercase letters, as LLVM's processor names. It is the file stem,
/// the generated module, and capitalised (`Gfx1201`) the enum variant.
///
/// Names order shortest first, then alphabetically, which puts LLVM's
/// `gfx<major><minor><stepping>` names in generation order (gfx908, gfx90a,
/// ..., gfx1010, ..., gfx1250) and families likewise (gfx9 before gfx10).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Name(String);

/// A target's name (`gfx1201`).
pub type TargetName = Name;
/// A family's name (`gfx12`).
pub type FamilyName = Name;

impl Name {
    /// `name` if it is a valid target or family name.
    pub fn parse(name: &str) -> Option<Name> {
        let rest = name.strip_prefix("gfx")?;
        let valid = rest.starts_with(|c: char| c.is_ascii_digit())
            && rest
                .chars()
                .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase());
        valid.then(|| Name(name.to_string()))
    }

    /// The name as written (`gfx1201`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The enum variant (`Gfx1201`).
    pub fn variant(&self) -> String {
        self.0.replacen('g', "G", 1)
    }

    /// The generated module (`gfx1201`).
    pub fn module(&self) -> proc_macro2::Ident {
        proc_macro2::Ident::new(&self.0, proc_macro2::Span::call_site())
    }

    /// The enum variant as an identifier (`Gfx1201`).
    pub fn variant_ident(&self) -> proc_macro2::Ident {
        proc_macro2::Ident::new(&self.variant(), proc_macro2::Span::call_site())
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        (self.0.len(), &self.0).cmp(&(other.0.len(), &other.0))
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// How sure we are of a value (the evidence tags of docs/semantics.md).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Evidence {
    /// Measured on real hardware: the target(s).
    Hw(String),
    /// AMD's guide or LLVM/Mesa: the source.
    Doc(String),
    /// Measured elsewhere: where.
    Inherited(String),
    /// Unknown, default taken: a note.
    Open(String),
}

impl Evidence {
    /// `hw`, `doc`, `inherited` or `open`.
    pub fn tag(&self) -> &'static str {
        match self {
            Evidence::Hw(_) => "hw",
            Evidence::Doc(_) => "doc",
            Evidence::Inherited(_) => "inherited",
            Evidence::Open(_) => "open",
        }
    }

    /// The source or note.
    pub fn source(&self) -> &str {
        match self {
            Evidence::Hw(s) | Evidence::Doc(s) | Evidence::Inherited(s) | Evidence::Open(s) => s,
        }
    }
}

/// Where a merged value was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Workspace-relative file.
    pub file: String,
    /// Position in it.
    pub loc: Option<crate::error::Loc>,
}

/// A value with its evidence and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sourced<T> {
    /// The value.
    pub value: T,
    /// What it rests on.
    pub evidence: Evidence,
    /// Which file (target or family) gave it.
    pub origin: Origin,
}

/// A policy value: its YAML spelling and the emulator value it becomes.
pub trait PolicyValue: Copy {
    /// YAML spelling (`ieee_and_output_denorm`).
    fn yaml(self) -> String;
    /// The emulator's value: a path the compiler checks
    /// (`OmodGate::IeeeAndOutputDenorm`), or `true`/`false`.
    fn tokens(self) -> TokenStream;
}

impl PolicyValue for bool {
    fn yaml(self) -> String {
        if self {
            "true".into()
        } else {
            "false".into()
        }
    }
    fn tokens(self) -> TokenStream {
        quote!(#self)
    }
}

/// A policy enum of the emulator, as the YAML spells its values.
pub trait PolicyEnum: PolicyValue {
    /// `impl <Enum> { pub const fn yaml_name(self) ... }` for the
    /// emulator: an exhaustive match, so a variant the generator cannot
    /// spell fails to compile, as does a spelling with no variant.
    fn yaml_names() -> TokenStream;
}

macro_rules! policy_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $yaml:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
        pub enum $name {
            $($(#[$vdoc])* #[serde(rename = $yaml)] $variant,)*
        }

        impl PolicyValue for $name {
            fn yaml(self) -> String {
                match self {
                    $($name::$variant => $yaml.into(),)*
                }
            }
            fn tokens(self) -> TokenStream {
                match self {
                    $($name::$variant => quote!($name::$variant),)*
                }
            }
        }

        impl PolicyEnum for $name {
            fn yaml_names() -> TokenStream {
                quote! {
                    impl $name {
                        /// The value's spelling in `isa-spec/`.
                        pub const fn yaml_name(self) -> &'static str {
                            match self {
                                $($name::$variant => $yaml,)*
                            }
                        }
                    }
                }
            }
        }
    };
}

/// The `yaml_name` impls of every policy enum.
pub fn policy_yaml_names() -> TokenStream {
    [
        OmodGate::yaml_names(),
        ClampNan::yaml_names(),
        F16DstHigh::yaml_names(),
        SnanPolicy::yaml_names(),
        SubNan::yaml_names(),
        Tininess::yaml_names(),
        SdwaF16Output::yaml_names(),
        SdwaF16DwordDst::yaml_names(),
        SdwaConstantSel::yaml_names(),
        SdwaReservedBits::yaml_names(),
        BoundCtrlZero::yaml_names(),
        DppInactiveSource::yaml_names(),
        DppZeroFill::yaml_names(),
        DppBcastLowRows::yaml_names(),
        DppReservedCtrl::yaml_names(),
        DppShareXmask::yaml_names(),
        DppMixedHalves::yaml_names(),
        DppReservedBits::yaml_names(),
    ]
    .into_iter()
    .collect()
}

policy_enum!(
    /// When OMOD is effective.
    OmodGate {
        /// Always (gfx1201, gfx1250).
        Always = "always",
        /// Only with MODE.IEEE = 0 and output denormals flushed.
        IeeeAndOutputDenorm = "ieee_and_output_denorm",
    }
);

policy_enum!(
    /// CLAMP's NaN rule.
    ClampNan {
        /// NaN always clamps to +0.
        AlwaysZero = "always_zero",
        /// NaN clamps to +0 when MODE.DX10_CLAMP = 1.
        Dx10Clamp = "dx10_clamp",
    }
);

policy_enum!(
    /// The high half of a non-true16, non-SDWA F16 destination.
    F16DstHigh {
        /// Kept.
        Preserve = "preserve",
        /// Zeroed.
        Zero = "zero",
    }
);

policy_enum!(
    /// Signalling NaNs, every instruction.
    SnanPolicy {
        /// Quieted.
        Quiet = "quiet",
        /// Kept when MODE.IEEE = 0.
        KeepWhenIeeeOff = "keep_when_ieee_off",
    }
);

policy_enum!(
    /// SUB/SUBREV of a NaN subtrahend.
    SubNan {
        /// IEEE subtraction: the NaN unchanged.
        Ieee = "ieee",
        /// The subtrahend negated first, NaN included.
        NegateSubtrahend = "negate_subtrahend",
    }
);

policy_enum!(
    /// When an arithmetic result is tiny.
    Tininess {
        /// Rounded to the precision with an unbounded exponent, below the
        /// smallest normal.
        AfterRounding = "after_rounding",
        /// The exact result below the smallest normal.
        BeforeRounding = "before_rounding",
    }
);

policy_enum!(
    /// SDWA F16 output rounding relative to OMOD.
    SdwaF16Output {
        /// Round and flush as VOP3, then OMOD.
        Rounded = "rounded",
        /// OMOD scales the exact result, which is then rounded once.
        ScaledBeforeRounding = "scaled_before_rounding",
    }
);

policy_enum!(
    /// Bits 31:16 of an SDWA dst_sel:DWORD destination of an F16 result.
    SdwaF16DwordDst {
        /// Zero: the 16-bit result zero-extended.
        ZeroExtend = "zero_extend",
        /// The destination's old bits.
        PreserveHigh = "preserve_high",
    }
);

policy_enum!(
    /// SDWA source selectors on inline constants.
    SdwaConstantSel {
        /// The constant is used as it is.
        Ignored = "ignored",
        /// The selector extracts its field of the constant's encoding.
        Applied = "applied",
    }
);

policy_enum!(
    /// SDWA word bits that must be zero (`must_be_zero`), when set.
    SdwaReservedBits {
        /// Ignored.
        Ignored = "ignored",
        /// An error.
        Error = "error",
    }
);

policy_enum!(
    /// What `bound_ctrl:0` encodes.
    BoundCtrlZero {
        /// BC = 1 (GFX9, GFX10).
        SetsBc = "sets_bc",
        /// BC = 0 (GFX11+).
        ClearsBc = "clears_bc",
    }
);

policy_enum!(
    /// An in-range inactive DPP16 source lane with FI = 0.
    DppInactiveSource {
        /// BOUND_CTRL decides.
        BoundCtrl = "bound_ctrl",
        /// Reads 0 and writes.
        Zero = "zero",
        /// Reads the inactive lane.
        Read = "read",
    }
);

policy_enum!(
    /// The sign of a zero-filled src0 under NEG.
    DppZeroFill {
        /// ABS/NEG apply to the raw 0.
        Modified = "modified",
        /// Always +0.
        PositiveZero = "positive_zero",
    }
);

policy_enum!(
    /// row_bcast below the broadcast row.
    DppBcastLowRows {
        /// Out of range.
        OutOfRange = "out_of_range",
        /// The lane reads itself.
        OwnLane = "own_lane",
    }
);

policy_enum!(
    /// A DPP_CTRL code the target lacks, at execution.
    DppReservedCtrl {
        /// An error.
        Error = "error",
        /// Identity.
        Identity = "identity",
    }
);

policy_enum!(
    /// row_share/row_xmask at execution.
    DppShareXmask {
        /// The lane rules.
        Formula = "formula",
        /// An error.
        Error = "error",
    }
);

policy_enum!(
    /// Mixed .l/.h halves in true16 DPP forms.
    DppMixedHalves {
        /// As encoded.
        AsEncoded = "as_encoded",
        /// An error.
        Error = "error",
    }
);

policy_enum!(
    /// DPP bits without syntax.
    DppReservedBits {
        /// Ignored.
        Ignored = "ignored",
        /// An error.
        Error = "error",
    }
);

/// The DPP16 control kinds, as `isa-spec/` names them, in the emulator's
/// `DppControlKind` order.
pub const DPP_CONTROL_KINDS: [(&str, &str); 11] = [
    ("quad_perm", "QuadPerm"),
    ("row_shl", "RowShl"),
    ("row_shr", "RowShr"),
    ("row_ror", "RowRor"),
    ("wave_shift", "WaveShift"),
    ("row_mirror", "RowMirror"),
    ("row_half_mirror", "RowHalfMirror"),
    ("row_bcast", "RowBcast"),
    ("row_newbcast", "RowNewbcast"),
    ("row_share", "RowShare"),
    ("row_xmask", "RowXmask"),
];

/// A set of DPP16 control kinds (`[quad_perm, row_shl]`): bit i is
/// `DPP_CONTROL_KINDS[i]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DppControlSet(pub u16);

impl DppControlSet {
    /// Whether the kind named `name` is in the set.
    pub fn has(self, name: &str) -> bool {
        DPP_CONTROL_KINDS
            .iter()
            .position(|(n, _)| *n == name)
            .is_some_and(|i| self.0 >> i & 1 != 0)
    }
}

impl<'de> Deserialize<'de> for DppControlSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DppControlSet, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        let mut bits = 0u16;
        for name in names {
            let Some(i) = DPP_CONTROL_KINDS.iter().position(|(n, _)| *n == name) else {
                let expected: Vec<&str> = DPP_CONTROL_KINDS.iter().map(|(n, _)| *n).collect();
                return Err(serde::de::Error::custom(format!(
                    "unknown DPP control kind `{name}`, expected one of {}",
                    expected.join(", ")
                )));
            };
            if bits >> i & 1 != 0 {
                return Err(serde::de::Error::custom(format!(
                    "DPP control kind `{name}` is listed twice"
                )));
            }
            bits |= 1 << i;
        }
        Ok(DppControlSet(bits))
    }
}

impl PolicyValue for DppControlSet {
    fn yaml(self) -> String {
        let names: Vec<&str> = DPP_CONTROL_KINDS
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 >> i & 1 != 0)
            .map(|(_, (n, _))| *n)
            .collect();
        format!("[{}]", names.join(", "))
    }
    fn tokens(self) -> TokenStream {
        let kinds = DPP_CONTROL_KINDS
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 >> i & 1 != 0)
            .map(|(_, (_, v))| {
                let v = proc_macro2::Ident::new(v, proc_macro2::Span::call_site());
                quote!(DppControlKind::#v)
            });
        quote!(DppControls::of(&[#(#kinds),*]))
    }
}

/// The base encoding of a DPP form: `e32` (VOP1/VOP2) or `e64` (VOP3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum DppBase {
    /// `_dpp`: the instruction's VOP1 or VOP2 word.
    #[serde(rename = "e32")]
    E32,
    /// `_e64_dpp`: its VOP3 word.
    #[serde(rename = "e64")]
    E64,
}

/// One DPP form of a target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DppForm {
    /// The instruction.
    pub instruction: Instruction,
    /// Its base encoding (VOP1, VOP2 or VOP3).
    pub encoding: Encoding,
    /// DPP8 rather than DPP16.
    pub dpp8: bool,
}

/// The DPP facts and switches of a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DppSpec {
    /// DPP16 controls of 16/32-bit operands.
    pub controls: Sourced<DppControlSet>,
    /// DPP16 controls of 64-bit operands.
    pub f64_controls: Sourced<DppControlSet>,
    /// What `bound_ctrl:0` encodes.
    pub bound_ctrl_zero: Sourced<BoundCtrlZero>,
    /// FI and DPP8 exist.
    pub fi: Sourced<bool>,
    /// e64 DPP src1 may be scalar.
    pub e64_src1_scalar: Sourced<bool>,
    /// Inactive in-range sources with FI = 0.
    pub inactive_source: Sourced<DppInactiveSource>,
    /// Zero-fill sign.
    pub zero_fill: Sourced<DppZeroFill>,
    /// row_bcast low rows; present exactly with row_bcast.
    pub bcast_low_rows: Option<Sourced<DppBcastLowRows>>,
    /// Codes the target lacks.
    pub reserved_ctrl: Sourced<DppReservedCtrl>,
    /// row_share/row_xmask; present exactly with either.
    pub share_xmask: Option<Sourced<DppShareXmask>>,
    /// Mixed halves; present exactly with true16.
    pub mixed_halves: Option<Sourced<DppMixedHalves>>,
    /// Bits without syntax.
    pub reserved_bits: Sourced<DppReservedBits>,
}

/// DPP16 dword layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dpp16Layout {
    /// src0 code announcing DPP16.
    pub src0_code: u32,
    /// src0 VGPR.
    pub src0: BitField,
    /// DPP_CTRL.
    pub ctrl: BitField,
    /// FI, where it exists.
    pub fi: Option<BitField>,
    /// BOUND_CTRL.
    pub bound_ctrl: BitField,
    /// src0 NEG.
    pub src0_neg: BitField,
    /// src0 ABS.
    pub src0_abs: BitField,
    /// src1 NEG.
    pub src1_neg: BitField,
    /// src1 ABS.
    pub src1_abs: BitField,
    /// BANK_MASK.
    pub bank_mask: BitField,
    /// ROW_MASK.
    pub row_mask: BitField,
}

/// DPP8 dword layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dpp8Layout {
    /// src0 code announcing DPP8 with FI = 0.
    pub src0_code: u32,
    /// src0 code announcing DPP8 with FI = 1.
    pub src0_code_fi: u32,
    /// src0 VGPR.
    pub src0: BitField,
    /// The eight 3-bit selectors.
    pub sel: BitField,
}

/// What an instruction computes: the hand-written kernel it runs
/// (`emulator/src/kernels/<operation>.rs`). A new operation is a new
/// variant here and a kernel; a new instruction of an existing operation is
/// an entry in `isa-spec/instructions/valu.yaml` only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum Operation {
    /// x - floor(x).
    #[serde(rename = "fract")]
    Fract,
    /// src0 x 2^src1.
    #[serde(rename = "ldexp")]
    Ldexp,
    /// src0 + src1.
    #[serde(rename = "add")]
    Add,
    /// src0 - src1.
    #[serde(rename = "sub")]
    Sub,
    /// src1 - src0.
    #[serde(rename = "subrev")]
    Subrev,
    /// src0 x src1.
    #[serde(rename = "mul")]
    Mul,
    /// src0 x src1 + src2, one rounding.
    #[serde(rename = "fma")]
    Fma,
    /// src0 x src1 + the destination's old value, one rounding.
    #[serde(rename = "fmac")]
    Fmac,
    /// src0 x K + src1 (K the literal), one rounding.
    #[serde(rename = "fmamk")]
    Fmamk,
    /// src0 x src1 + K (K the literal), one rounding.
    #[serde(rename = "fmaak")]
    Fmaak,
}

impl Operation {
    /// YAML spelling, and the kernel's `Operation::NAME`.
    pub fn yaml(self) -> &'static str {
        match self {
            Operation::Fract => "fract",
            Operation::Ldexp => "ldexp",
            Operation::Add => "add",
            Operation::Sub => "sub",
            Operation::Subrev => "subrev",
            Operation::Mul => "mul",
            Operation::Fma => "fma",
            Operation::Fmac => "fmac",
            Operation::Fmamk => "fmamk",
            Operation::Fmaak => "fmaak",
        }
    }

    /// The kernel type (`Fract`), an argument of `exec::execute`; `None`
    /// for the arithmetic operations, which `exec::execute_arith` runs
    /// (it reads the operation and its operands from `OpcodeInfo`).
    pub fn kernel(self) -> Option<TokenStream> {
        match self {
            Operation::Fract => Some(quote!(Fract)),
            Operation::Ldexp => Some(quote!(Ldexp)),
            Operation::Add
            | Operation::Sub
            | Operation::Subrev
            | Operation::Mul
            | Operation::Fma
            | Operation::Fmac
            | Operation::Fmamk
            | Operation::Fmaak => None,
        }
    }

    /// The emulator's `OperationKind` (`OperationKind::Fract`).
    pub fn tokens(self) -> TokenStream {
        let v = proc_macro2::Ident::new(
            match self {
                Operation::Fract => "Fract",
                Operation::Ldexp => "Ldexp",
                Operation::Add => "Add",
                Operation::Sub => "Sub",
                Operation::Subrev => "Subrev",
                Operation::Mul => "Mul",
                Operation::Fma => "Fma",
                Operation::Fmac => "Fmac",
                Operation::Fmamk => "Fmamk",
                Operation::Fmaak => "Fmaak",
            },
            proc_macro2::Span::call_site(),
        );
        quote!(OperationKind::#v)
    }

    /// Whether `sources` are the operands the kernel reads, in order:
    /// FRACT one float, LDEXP a float and an integer exponent, the binary
    /// operations two floats, FMA three, FMAC two and the accumulator,
    /// FMAMK and FMAAK two floats and the literal K (second or third).
    pub fn accepts(self, sources: &[SourceKind]) -> bool {
        use SourceKind::{Accumulator, Float, Literal, I16, I32};
        match self {
            Operation::Fract => matches!(sources, [Float]),
            Operation::Ldexp => matches!(sources, [Float, I16 | I32]),
            Operation::Add | Operation::Sub | Operation::Subrev | Operation::Mul => {
                matches!(sources, [Float, Float])
            }
            Operation::Fma => matches!(sources, [Float, Float, Float]),
            Operation::Fmac => matches!(sources, [Float, Float, Accumulator]),
            Operation::Fmamk => matches!(sources, [Float, Literal, Float]),
            Operation::Fmaak => matches!(sources, [Float, Float, Literal]),
        }
    }

    /// The operands `accepts` takes, for messages.
    pub fn signature(self) -> &'static str {
        match self {
            Operation::Fract => "[float]",
            Operation::Ldexp => "[float, i16 | i32]",
            Operation::Add | Operation::Sub | Operation::Subrev | Operation::Mul => {
                "[float, float]"
            }
            Operation::Fma => "[float, float, float]",
            Operation::Fmac => "[float, float, accumulator]",
            Operation::Fmamk => "[float, literal, float]",
            Operation::Fmaak => "[float, float, literal]",
        }
    }
}

/// The float format of an instruction's result (and of its `float`
/// sources).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
pub enum FloatFormat {
    /// Binary16.
    #[serde(rename = "f16")]
    F16,
    /// Binary32.
    #[serde(rename = "f32")]
    F32,
    /// Binary64.
    #[serde(rename = "f64")]
    F64,
}

impl FloatFormat {
    /// Width in bits.
    pub fn width(self) -> u32 {
        match self {
            FloatFormat::F16 => 16,
            FloatFormat::F32 => 32,
            FloatFormat::F64 => 64,
        }
    }

    /// The kernel's format type (`F16`).
    pub fn kernel(self) -> TokenStream {
        match self {
            FloatFormat::F16 => quote!(F16),
            FloatFormat::F32 => quote!(F32),
            FloatFormat::F64 => quote!(F64),
        }
    }

    /// The emulator's `FormatKind` (`FormatKind::F16`).
    pub fn tokens(self) -> TokenStream {
        match self {
            FloatFormat::F16 => quote!(FormatKind::F16),
            FloatFormat::F32 => quote!(FormatKind::F32),
            FloatFormat::F64 => quote!(FormatKind::F64),
        }
    }
}

/// Where a source operand comes from and what it holds, in operand order
/// (src0, src1, src2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum SourceKind {
    /// An operand in the result's float format.
    #[serde(rename = "float")]
    Float,
    /// A signed 16-bit integer operand (LDEXP_F16's exponent).
    #[serde(rename = "i16")]
    I16,
    /// A signed 32-bit integer operand (LDEXP_F32/F64's exponent).
    #[serde(rename = "i32")]
    I32,
    /// The literal constant K of the instruction word, in the result format
    /// (FMAMK's second operand, FMAAK's third); not a register operand.
    #[serde(rename = "literal")]
    Literal,
    /// The destination's old value (FMAC's addend): not written in the
    /// assembly, read from the destination register.
    #[serde(rename = "accumulator")]
    Accumulator,
}

impl SourceKind {
    /// YAML spelling.
    pub fn yaml(self) -> &'static str {
        match self {
            SourceKind::Float => "float",
            SourceKind::I16 => "i16",
            SourceKind::I32 => "i32",
            SourceKind::Literal => "literal",
            SourceKind::Accumulator => "accumulator",
        }
    }

    /// Whether the assembly writes the operand as a source operand (a
    /// register, constant or literal in a source field).
    pub fn is_explicit(self) -> bool {
        !matches!(self, SourceKind::Accumulator)
    }

    /// The emulator's `SourceType` of the operand in an instruction of
    /// `format` (a literal K: the result format); `None` for the
    /// accumulator, which is not a source operand of the syntax.
    pub fn tokens(self, format: FloatFormat) -> Option<TokenStream> {
        Some(match self {
            SourceKind::Float => match format {
                FloatFormat::F16 => quote!(SourceType::F16),
                FloatFormat::F32 => quote!(SourceType::F32),
                FloatFormat::F64 => quote!(SourceType::F64),
            },
            // The literal K is read in the result format.
            SourceKind::Literal => return SourceKind::Float.tokens(format),
            SourceKind::I16 => quote!(SourceType::I16),
            SourceKind::I32 => quote!(SourceType::I32),
            SourceKind::Accumulator => return None,
        })
    }
}

/// The e32 encoding of an instruction: `vop1`, `vop2` or `none` (VOP3
/// only). Whether a given target has the e32 form is its `forms:` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum E32 {
    /// VOP1: one source.
    #[serde(rename = "vop1")]
    Vop1,
    /// VOP2: two register sources (src0, vsrc1).
    #[serde(rename = "vop2")]
    Vop2,
    /// No e32 form.
    #[serde(rename = "none")]
    None,
}

impl E32 {
    /// The encoding, if any.
    pub fn encoding(self) -> Option<Encoding> {
        match self {
            E32::Vop1 => Some(Encoding::Vop1),
            E32::Vop2 => Some(Encoding::Vop2),
            E32::None => None,
        }
    }
}

/// One instruction of `isa-spec/instructions/valu.yaml`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstructionDef {
    /// Position in the file: the order of `Opcode`.
    pub index: usize,
    /// LLVM's mnemonic without suffix (`v_fract_f16`), the `forms:` key.
    pub mnemonic: String,
    /// The kernel it runs.
    pub operation: Operation,
    /// The result format.
    pub format: FloatFormat,
    /// Its source operands, in operand order.
    pub sources: Vec<SourceKind>,
    /// Its e32 encoding (VOP1, VOP2) or `None` (VOP3 only).
    pub e32: Option<Encoding>,
    /// An SDWA form on targets whose family has SDWA.
    pub sdwa: bool,
    /// What it computes, one line (the `Opcode` variant's doc).
    pub doc: String,
    /// Where it was written.
    pub origin: Origin,
}

/// An instruction of the loaded table. Cheap to clone; equal, ordered and
/// hashed by its position in `isa-spec/instructions/valu.yaml`.
#[derive(Clone, Debug)]
pub struct Instruction(pub std::sync::Arc<InstructionDef>);

impl std::ops::Deref for Instruction {
    type Target = InstructionDef;
    fn deref(&self) -> &InstructionDef {
        &self.0
    }
}

impl PartialEq for Instruction {
    fn eq(&self, other: &Instruction) -> bool {
        (self.index, &self.mnemonic) == (other.index, &other.mnemonic)
    }
}

impl Eq for Instruction {}

impl std::hash::Hash for Instruction {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.index, &self.mnemonic).hash(h);
    }
}

impl Ord for Instruction {
    fn cmp(&self, other: &Instruction) -> std::cmp::Ordering {
        (self.index, &self.mnemonic).cmp(&(other.index, &other.mnemonic))
    }
}

impl PartialOrd for Instruction {
    fn partial_cmp(&self, other: &Instruction) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Instruction {
    /// The mnemonic (`v_fract_f16`), also the `forms:` key.
    pub fn mnemonic(&self) -> &str {
        &self.mnemonic
    }

    /// The `Opcode` variant's name (`FractF16`): the mnemonic without
    /// `v_`, each `_`-separated word capitalised.
    pub fn variant(&self) -> String {
        let name = self.mnemonic.strip_prefix("v_").unwrap_or(&self.mnemonic);
        name.split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next().map_or_else(String::new, |f| {
                    f.to_ascii_uppercase().to_string() + c.as_str()
                })
            })
            .collect()
    }

    /// The emulator's `Opcode` (`Opcode::FractF16`).
    pub fn opcode(&self) -> TokenStream {
        let v = proc_macro2::Ident::new(&self.variant(), proc_macro2::Span::call_site());
        quote!(Opcode::#v)
    }

    /// The call that executes the instruction: `exec::execute::<Fract,
    /// F16>` (FRACT, LDEXP: the kernel and format as types) or
    /// `exec::execute_arith::<F16>` (the arithmetic operations, whose
    /// kernel the executor takes from `OpcodeInfo`).
    pub fn execute(&self) -> TokenStream {
        let format = self.format.kernel();
        match self.operation.kernel() {
            Some(operation) => quote!(exec::execute::<#operation, #format>(spec, wave, instr)),
            None => quote!(exec::execute_arith::<#format>(spec, wave, instr)),
        }
    }

    /// The slot (0-based, syntax order) of the literal K, if any.
    pub fn k_slot(&self) -> Option<usize> {
        self.sources.iter().position(|s| *s == SourceKind::Literal)
    }

    /// Whether the destination's old value is an implicit source (FMAC).
    pub fn accumulator(&self) -> bool {
        self.sources.contains(&SourceKind::Accumulator)
    }

    /// The float width of the result (16, 32, 64).
    pub fn width(&self) -> u32 {
        self.format.width()
    }

    /// The number of source operands written in the assembly.
    pub fn explicit_sources(&self) -> usize {
        self.sources.iter().filter(|s| s.is_explicit()).count()
    }

    /// The encodings in scope for this instruction on a target.
    /// An instruction with a literal K (FMAMK, FMAAK) has no VOP3 form.
    pub fn encodings(&self, target_has_sdwa: bool) -> Vec<Encoding> {
        self.e32
            .into_iter()
            .chain(self.k_slot().is_none().then_some(Encoding::Vop3))
            .chain((self.sdwa && target_has_sdwa).then_some(Encoding::Sdwa))
            .collect()
    }
}

/// A group of mnemonics the emulator recognises but does not model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotModelled {
    /// Why, as `asm` and `eval` say it.
    pub reason: String,
    /// Whole mnemonics without suffix.
    pub names: Vec<String>,
    /// Mnemonic prefixes covering a group (`v_pk_`).
    pub prefixes: Vec<String>,
}

impl NotModelled {
    /// Whether the mnemonic `name` (without suffix) is in the group.
    pub fn covers(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
            || self.prefixes.iter().any(|p| name.starts_with(p.as_str()))
    }
}

/// The instruction set: `isa-spec/instructions/valu.yaml`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstructionSet {
    /// Workspace-relative path of the file.
    pub path: String,
    /// Every modelled instruction, in file order.
    pub instructions: Vec<Instruction>,
    /// The names refused as not modelled.
    pub not_modelled: Vec<NotModelled>,
}

impl InstructionSet {
    /// The instruction whose mnemonic is `name`.
    pub fn get(&self, name: &str) -> Option<&Instruction> {
        self.instructions.iter().find(|i| i.mnemonic == name)
    }

    /// The not-modelled group covering `name`.
    pub fn not_modelled(&self, name: &str) -> Option<&NotModelled> {
        self.not_modelled.iter().find(|n| n.covers(name))
    }
}

/// Encodings in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    Vop1,
    Vop2,
    Vop3,
    Sdwa,
}

impl Encoding {
    /// Every encoding, in YAML order.
    pub const ALL: [Encoding; 4] = [
        Encoding::Vop1,
        Encoding::Vop2,
        Encoding::Vop3,
        Encoding::Sdwa,
    ];

    /// YAML key (`vop1`).
    pub fn yaml(self) -> &'static str {
        match self {
            Encoding::Vop1 => "vop1",
            Encoding::Vop2 => "vop2",
            Encoding::Vop3 => "vop3",
            Encoding::Sdwa => "sdwa",
        }
    }

    /// The emulator's `Encoding` (`Encoding::Vop1`).
    pub fn tokens(self) -> TokenStream {
        match self {
            Encoding::Vop1 => quote!(Encoding::Vop1),
            Encoding::Vop2 => quote!(Encoding::Vop2),
            Encoding::Vop3 => quote!(Encoding::Vop3),
            Encoding::Sdwa => quote!(Encoding::Sdwa),
        }
    }
}

/// One instruction form of a target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Form {
    /// The instruction.
    pub instruction: Instruction,
    /// Its encoding.
    pub encoding: Encoding,
    /// The opcode number in that encoding.
    pub op: u16,
}

/// Wave sizes a target runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wave {
    /// Lanes: 32 and/or 64.
    pub sizes: Vec<u32>,
    /// The size a dispatch uses unless told otherwise.
    pub default: u32,
    /// What the sizes rest on.
    pub evidence: Evidence,
    /// Where they were written.
    pub origin: Origin,
}

/// The settings of a target: its family file's, with what the target file
/// overrides. A family's own defaults have the same shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Wave sizes.
    pub wave: Wave,
    /// When OMOD is effective.
    pub omod_gate: Sourced<OmodGate>,
    /// CLAMP of NaN.
    pub clamp_nan: Sourced<ClampNan>,
    /// MODE.IEEE and MODE.DX10_CLAMP exist.
    pub ieee_dx10_bits: Sourced<bool>,
    /// True16 register halves (the family fact).
    pub true16: Sourced<bool>,
    /// SDWA encodings (the family fact).
    pub sdwa: Sourced<bool>,
    /// High half of F16 destinations outside true16/SDWA.
    pub f16_dst_high: Sourced<F16DstHigh>,
    /// Signalling NaNs.
    pub snan: Sourced<SnanPolicy>,
    /// SUB/SUBREV of a NaN subtrahend.
    pub sub_nan: Sourced<SubNan>,
    /// When an arithmetic result is tiny.
    pub tininess: Sourced<Tininess>,
    /// SDWA F16 output; `None` exactly when there is no SDWA.
    pub sdwa_f16_output: Option<Sourced<SdwaF16Output>>,
    /// SDWA dst_sel:DWORD with an F16 result; `None` without SDWA.
    pub sdwa_f16_dword_dst: Option<Sourced<SdwaF16DwordDst>>,
    /// SDWA selectors on inline constants; `None` without SDWA.
    pub sdwa_constant_sel: Option<Sourced<SdwaConstantSel>>,
    /// SDWA reserved bits; `None` without SDWA.
    pub sdwa_reserved_bits: Option<Sourced<SdwaReservedBits>>,
    /// 64-bit VGPR operands start at even registers.
    pub aligned_vgpr_pairs: Sourced<bool>,
    /// FRACT's rules.
    pub fract_rules: Sourced<()>,
    /// Every form, in forms-table order.
    pub forms: Vec<Form>,
    /// The DPP facts and switches.
    pub dpp: DppSpec,
    /// Every DPP form, in forms-table order.
    pub dpp_forms: Vec<DppForm>,
    /// Field layouts, operand codes and the family's encoding facts.
    pub encoding: MachineEncoding,
}

/// How a family's VOP3 opcodes follow from the e32 ones: VOP3 = VOP1 +
/// `vop1`, VOP3 = VOP2 + `vop2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vop3Offset {
    /// Added to a VOP1 opcode.
    pub vop1: u16,
    /// Added to a VOP2 opcode.
    pub vop2: u16,
}

impl Vop3Offset {
    /// The offset from an `e32` opcode.
    pub fn offset(self, e32: Encoding) -> u16 {
        match e32 {
            Encoding::Vop1 => self.vop1,
            _ => self.vop2,
        }
    }
}

/// What every target of a family shares and no target file may change
/// (the `facts:` of a family file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyFacts {
    /// 16-bit operands name register halves (`.l`/`.h`), in every encoding
    /// (e32: the top bit of the 8-bit VGPR field; VOP3: OPSEL).
    pub true16: Sourced<bool>,
    /// SDWA encodings exist.
    pub sdwa: Sourced<bool>,
    /// VOP3 opcodes from e32 ones.
    pub vop3_opcode_offset: Sourced<Vop3Offset>,
    /// VOP3 may carry a literal dword.
    pub vop3_literal: Sourced<bool>,
    /// Distinct SGPRs/literals one VOP3 instruction may read.
    pub constant_bus_limit: Sourced<u8>,
}

/// Everything `isa-spec/families/<family>.yaml` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyModel {
    /// Which family.
    pub family: FamilyName,
    /// Its file, workspace-relative.
    pub path: String,
    /// The family it extends (`base:`), if any.
    pub base: Option<FamilyName>,
    /// The files its settings come from, workspace-relative: the families
    /// it extends, farthest first, then its own.
    pub inputs: Vec<String>,
    /// What no target changes.
    pub facts: FamilyFacts,
    /// The settings of a target file that overrides nothing.
    pub defaults: Spec,
}

/// Everything `isa-spec/` says about one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetModel {
    /// Which target.
    pub target: TargetName,
    /// Marketing generation (`RDNA4`).
    pub description: String,
    /// ISA family.
    pub family: FamilyName,
    /// The files it was read from: the family file, then the target file;
    /// workspace-relative.
    pub inputs: Vec<String>,
    /// Its settings.
    pub spec: Spec,
}

/// One input file's path and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// Workspace-relative, `/`-separated (`isa-spec/families/gfx12.yaml`).
    pub path: String,
    /// Its contents.
    pub text: String,
}

/// Every family and target, validated, with the inputs they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// All input files, sorted by path.
    pub inputs: Vec<Input>,
    /// The instruction set.
    pub instructions: InstructionSet,
    /// One entry per family file, in [`Name`] order.
    pub families: Vec<FamilyModel>,
    /// One entry per target file, in [`Name`] order.
    pub targets: Vec<TargetModel>,
}

impl Model {
    /// The model of the target named `name`.
    pub fn target(&self, name: &str) -> Option<&TargetModel> {
        self.targets.iter().find(|t| t.target == name)
    }

    /// The model of the family named `name`.
    pub fn family(&self, name: &str) -> Option<&FamilyModel> {
        self.families.iter().find(|f| f.family == name)
    }

    /// The targets of `family`, in order.
    pub fn targets_of<'a>(
        &'a self,
        family: &'a FamilyName,
    ) -> impl Iterator<Item = &'a TargetModel> + 'a {
        self.targets.iter().filter(move |t| &t.family == family)
    }

    /// The text of the input at `path`.
    pub fn input(&self, path: &str) -> Option<&Input> {
        self.inputs.iter().find(|i| i.path == path)
    }
}

/// A validated bit field of a 32-bit word: `lo <= hi <= 31`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitField {
    /// Highest bit.
    pub hi: u8,
    /// Lowest bit.
    pub lo: u8,
}

impl BitField {
    /// Bits `hi:lo`.
    pub const fn new(hi: u8, lo: u8) -> BitField {
        BitField { hi, lo }
    }

    /// Width in bits.
    pub fn width(self) -> u8 {
        self.hi - self.lo + 1
    }

    /// The largest value the field holds.
    pub fn max(self) -> u32 {
        u32::MAX >> (32 - u32::from(self.width()))
    }

    /// The field's bits in its word.
    pub fn mask(self) -> u32 {
        self.max() << self.lo
    }
}

impl std::fmt::Display for BitField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.hi == self.lo {
            write!(f, "bit {}", self.lo)
        } else {
            write!(f, "bits {}:{}", self.hi, self.lo)
        }
    }
}

/// Fixed bits that identify an encoding, and their value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodingIdent {
    /// Where.
    pub field: BitField,
    /// What they hold.
    pub value: u32,
}

impl EncodingIdent {
    /// The word pattern: (mask, bits).
    pub fn pattern(self) -> (u32, u32) {
        (self.field.mask(), self.value << self.field.lo)
    }
}

/// Some word matches both patterns `(mask, bits)`: they agree on the bits
/// both fix.
pub fn patterns_meet(a: (u32, u32), b: (u32, u32)) -> bool {
    (a.1 ^ b.1) & a.0 & b.0 == 0
}

/// VOP1 (`_e32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vop1Layout {
    /// Identifying bits.
    pub ident: EncodingIdent,
    /// Opcode.
    pub op: BitField,
    /// Destination VGPR.
    pub vdst: BitField,
    /// Source operand code.
    pub src0: BitField,
}

/// VOP2 (`_e32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vop2Layout {
    /// Identifying bits.
    pub ident: EncodingIdent,
    /// Opcode.
    pub op: BitField,
    /// Destination VGPR.
    pub vdst: BitField,
    /// Second source VGPR.
    pub vsrc1: BitField,
    /// First source operand code.
    pub src0: BitField,
}

/// VOP3 OPSEL: bits 0-2 select the halves of src0-src2, `dst_bit` the
/// destination's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpSel {
    /// Where (word 0).
    pub field: BitField,
    /// Bit of the field for the destination.
    pub dst_bit: u8,
}

/// VOP3 (`_e64`): word 0 then word 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vop3Layout {
    /// Identifying bits (word 0).
    pub ident: EncodingIdent,
    /// Opcode (word 0).
    pub op: BitField,
    /// Destination VGPR (word 0).
    pub vdst: BitField,
    /// ABS of src0-src2 (word 0).
    pub abs: BitField,
    /// CLAMP (word 0).
    pub clamp: BitField,
    /// OPSEL (word 0), where the family has it for these instructions.
    pub op_sel: Option<OpSel>,
    /// src0-src2 operand codes (word 1).
    pub src: [BitField; 3],
    /// OMOD (word 1).
    pub omod: BitField,
    /// NEG of src0-src2 (word 1).
    pub neg: BitField,
}

/// SDWA: a VOP1/VOP2 word whose src0 is `src0_code`, then word 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SdwaLayout {
    /// The e32 src0 code announcing SDWA.
    pub src0_code: u32,
    /// src0 VGPR or SGPR number (word 1).
    pub src0: BitField,
    /// dst_sel.
    pub dst_sel: BitField,
    /// dst_unused.
    pub dst_unused: BitField,
    /// CLAMP.
    pub clamp: BitField,
    /// OMOD.
    pub omod: BitField,
    /// src0_sel.
    pub src0_sel: BitField,
    /// src0 sign extension.
    pub src0_sext: BitField,
    /// src0 NEG.
    pub src0_neg: BitField,
    /// src0 ABS.
    pub src0_abs: BitField,
    /// src0 is scalar.
    pub src0_sgpr: BitField,
    /// src1_sel.
    pub src1_sel: BitField,
    /// src1 sign extension.
    pub src1_sext: BitField,
    /// src1 NEG.
    pub src1_neg: BitField,
    /// src1 ABS.
    pub src1_abs: BitField,
    /// src1 is scalar.
    pub src1_sgpr: BitField,
    /// Bits of word 1 that must be zero.
    pub must_be_zero: u32,
}

/// What the 9-bit source operand codes mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandCodes {
    /// Highest SGPR number.
    pub max_sgpr: u8,
    /// vcc_lo (vcc_hi next).
    pub vcc_lo: u32,
    /// m0.
    pub m0: u32,
    /// null, where there is one.
    pub sgpr_null: Option<u32>,
    /// exec_lo (exec_hi next).
    pub exec_lo: u32,
    /// Integer 0; 1..=64 then -1..=-16 follow.
    pub int_zero: u32,
    /// 0.5; the other eight float constants follow.
    pub float_first: u32,
    /// 32-bit literal.
    pub literal: u32,
    /// 64-bit literal, where the target has it.
    pub literal64: Option<u32>,
    /// v0 (v1..=v255 follow).
    pub vgpr_first: u32,
}

/// The source codes of `special_operands` (the first of each group) and
/// which names LLVM's assembler refuses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpecialCodes {
    /// flat_scratch_lo (hi next).
    pub flat_scratch_lo: Option<u32>,
    /// xnack_mask_lo (hi next).
    pub xnack_mask_lo: Option<u32>,
    /// ttmp0 (ttmp1..=ttmp15 follow).
    pub ttmp0: Option<u32>,
    /// src_flat_scratch_base_lo (hi next).
    pub src_flat_scratch_base_lo: Option<u32>,
    /// src_shared_base (shared_limit, private_base, private_limit,
    /// pops_exiting_wave_id follow).
    pub src_shared_base: Option<u32>,
    /// src_vccz (src_execz, src_scc follow).
    pub src_vccz: Option<u32>,
    /// src_lds_direct.
    pub src_lds_direct: Option<u32>,
    /// The names LLVM's assembler refuses: bit `i` for
    /// [`SPECIAL_NAMES`]`[i]`.
    pub assembler_refuses: u32,
}

/// The operand names `special_operands.assembler_refuses` may list.
pub const SPECIAL_NAMES: [&str; 32] = [
    "null",
    "flat_scratch_lo",
    "flat_scratch_hi",
    "xnack_mask_lo",
    "xnack_mask_hi",
    "ttmp0",
    "ttmp1",
    "ttmp2",
    "ttmp3",
    "ttmp4",
    "ttmp5",
    "ttmp6",
    "ttmp7",
    "ttmp8",
    "ttmp9",
    "ttmp10",
    "ttmp11",
    "ttmp12",
    "ttmp13",
    "ttmp14",
    "ttmp15",
    "src_flat_scratch_base_lo",
    "src_flat_scratch_base_hi",
    "src_shared_base",
    "src_shared_limit",
    "src_private_base",
    "src_private_limit",
    "src_pops_exiting_wave_id",
    "src_vccz",
    "src_execz",
    "src_scc",
    "src_lds_direct",
];

/// The machine-code facts of a target: its family's layouts with the
/// target's overrides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MachineEncoding {
    /// VOP1.
    pub vop1: Vop1Layout,
    /// VOP2.
    pub vop2: Vop2Layout,
    /// VOP3.
    pub vop3: Vop3Layout,
    /// SDWA, exactly where the target has `sdwa: true`.
    pub sdwa: Option<SdwaLayout>,
    /// DPP16.
    pub dpp16: Dpp16Layout,
    /// DPP8, where the family has it.
    pub dpp8: Option<Dpp8Layout>,
    /// Operand codes.
    pub codes: OperandCodes,
    /// Trap temporaries, GFX9's register halves and the `src_*` operands.
    pub special: SpecialCodes,
    /// e32 16-bit operands name register halves (bit 7 of the VGPR field).
    pub true16_e32_halves: bool,
    /// VOP3 may carry a literal dword.
    pub vop3_literal: bool,
    /// Distinct SGPRs/literals one VOP3 instruction may read.
    pub constant_bus_limit: u8,
}

impl MachineEncoding {
    /// The identifying bits of `encoding` (SDWA's are `e32`'s).
    pub fn ident(&self, encoding: Encoding, e32: Option<Encoding>) -> EncodingIdent {
        match (encoding, e32) {
            (Encoding::Vop1, _) | (Encoding::Sdwa, Some(Encoding::Vop1)) => self.vop1.ident,
            (Encoding::Vop3, _) => self.vop3.ident,
            _ => self.vop2.ident,
        }
    }

    /// The opcode field of `encoding` (SDWA's is `e32`'s: VOP1 or VOP2).
    pub fn op_field(&self, encoding: Encoding, e32: Option<Encoding>) -> BitField {
        match (encoding, e32) {
            (Encoding::Vop1, _) | (Encoding::Sdwa, Some(Encoding::Vop1)) => self.vop1.op,
            (Encoding::Vop3, _) => self.vop3.op,
            _ => self.vop2.op,
        }
    }
}
