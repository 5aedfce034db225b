//! The YAML schema of `isa-spec/` as written, before merging and
//! validation. Parsing is strict: unknown fields, unknown enum values and
//! duplicate keys are errors with file:line:column.

use serde::Deserialize;
use serde_saphyr::{DuplicateKeyPolicy, Spanned};

use crate::error::{Loc, SpecError};
use crate::model::{
    BoundCtrlZero, ClampNan, DppBase, DppBcastLowRows, DppControlSet, DppInactiveSource,
    DppMixedHalves, DppReservedBits, DppReservedCtrl, DppShareXmask, DppZeroFill, Evidence,
    F16DstHigh, FloatFormat, OmodGate, Operation, SdwaConstantSel, SdwaF16DwordDst, SdwaF16Output,
    SdwaReservedBits, SnanPolicy, SourceKind, SubNan, Tininess, Vop3Offset, E32,
};

/// One file: a target file (`isa-spec/gfx1201.yaml`, with `target` and
/// `description`) or a family file (`isa-spec/families/gfx12.yaml`, with
/// `facts` instead).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFile {
    pub target: Option<Spanned<String>>,
    pub family: Spanned<String>,
    /// A family file's: the family it extends (`base: gfx11`); every entry
    /// this file does not give is that family's.
    pub base: Option<Spanned<String>>,
    pub description: Option<String>,
    pub facts: Option<Spanned<RawFacts>>,
    pub wave: Option<Spanned<RawWave>>,
    #[serde(default)]
    pub policies: RawPolicies,
    #[serde(default)]
    pub forms: RawForms,
    #[serde(default)]
    pub encoding: RawEncoding,
    #[serde(default)]
    pub dpp: RawDpp,
}

/// `dpp:` the DPP facts and switches; each entry may come from the family
/// file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDpp {
    pub controls: Option<Spanned<RawSourced<DppControlSet>>>,
    pub f64_controls: Option<Spanned<RawSourced<DppControlSet>>>,
    pub bound_ctrl_zero: Option<Spanned<RawSourced<BoundCtrlZero>>>,
    pub fi: Option<Spanned<RawSourced<bool>>>,
    pub e64_src1_scalar: Option<Spanned<RawSourced<bool>>>,
    pub inactive_source: Option<Spanned<RawSourced<DppInactiveSource>>>,
    pub zero_fill: Option<Spanned<RawSourced<DppZeroFill>>>,
    pub bcast_low_rows: Option<Spanned<RawSourced<DppBcastLowRows>>>,
    pub reserved_ctrl: Option<Spanned<RawSourced<DppReservedCtrl>>>,
    pub share_xmask: Option<Spanned<RawSourced<DppShareXmask>>>,
    pub mixed_halves: Option<Spanned<RawSourced<DppMixedHalves>>>,
    pub reserved_bits: Option<Spanned<RawSourced<DppReservedBits>>>,
}

/// `wave: {sizes: [32, 64], default: 32, doc: "..."}`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWave {
    pub sizes: Vec<Spanned<u32>>,
    pub default: Spanned<u32>,
    pub hw: Option<String>,
    pub doc: Option<String>,
    pub inherited: Option<String>,
    pub open: Option<String>,
}

/// The evidence keys: exactly one of them per entry.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEvidence {
    pub hw: Option<String>,
    pub doc: Option<String>,
    pub inherited: Option<String>,
    pub open: Option<String>,
}

/// A policy entry: `{value: always, hw: gfx1201}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSourced<T> {
    pub value: T,
    pub hw: Option<String>,
    pub doc: Option<String>,
    pub inherited: Option<String>,
    pub open: Option<String>,
}

/// `facts:` what every target of a family shares (family files only).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFacts {
    pub true16: Option<Spanned<RawSourced<bool>>>,
    pub sdwa: Option<Spanned<RawSourced<bool>>>,
    pub vop3_opcode_offset: Option<Spanned<RawSourced<Vop3Offset>>>,
    pub vop3_literal: Option<Spanned<RawSourced<bool>>>,
    pub constant_bus_limit: Option<Spanned<RawSourced<u8>>>,
}

/// Every policy a target has; each may come from the family file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPolicies {
    pub omod_gate: Option<Spanned<RawSourced<OmodGate>>>,
    pub clamp_nan: Option<Spanned<RawSourced<ClampNan>>>,
    pub ieee_dx10_bits: Option<Spanned<RawSourced<bool>>>,
    pub f16_dst_high: Option<Spanned<RawSourced<F16DstHigh>>>,
    pub snan: Option<Spanned<RawSourced<SnanPolicy>>>,
    pub sub_nan: Option<Spanned<RawSourced<SubNan>>>,
    pub tininess: Option<Spanned<RawSourced<Tininess>>>,
    pub sdwa_f16_output: Option<Spanned<RawSourced<SdwaF16Output>>>,
    pub sdwa_f16_dword_dst: Option<Spanned<RawSourced<SdwaF16DwordDst>>>,
    pub sdwa_constant_sel: Option<Spanned<RawSourced<SdwaConstantSel>>>,
    pub sdwa_reserved_bits: Option<Spanned<RawSourced<SdwaReservedBits>>>,
    pub aligned_vgpr_pairs: Option<Spanned<RawSourced<bool>>>,
    pub fract_rules: Option<Spanned<RawEvidence>>,
}

/// `forms:` one entry per instruction (a mnemonic of
/// `isa-spec/instructions/valu.yaml`), mapping encoding to opcode number.
pub(crate) type RawForms = SpannedMap<RawEncodings>;

/// A YAML map with string keys, in file order, each key with its position
/// (duplicate keys are refused by the parser).
#[derive(Debug)]
pub(crate) struct SpannedMap<V>(pub Vec<(Spanned<String>, Spanned<V>)>);

impl<V> Default for SpannedMap<V> {
    fn default() -> Self {
        SpannedMap(Vec::new())
    }
}

impl<V> SpannedMap<V> {
    /// The entry under `key`.
    pub fn get(&self, key: &str) -> Option<&Spanned<V>> {
        self.0.iter().find(|(k, _)| k.value == key).map(|(_, v)| v)
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for SpannedMap<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<V> {
            type Value = SpannedMap<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<SpannedMap<V>, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(SpannedMap(entries))
            }
        }
        d.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

/// `isa-spec/instructions/valu.yaml`: the instruction set.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawInstructionFile {
    pub instructions: SpannedMap<RawInstruction>,
    #[serde(default)]
    pub not_modelled: Vec<Spanned<RawNotModelled>>,
}

/// One instruction: `{operation: ldexp, format: f16, sources: [float, i16],
/// e32: vop2, sdwa: true, doc: "..."}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawInstruction {
    pub operation: Spanned<Operation>,
    pub format: Spanned<FloatFormat>,
    pub sources: Spanned<Vec<Spanned<SourceKind>>>,
    pub e32: Spanned<E32>,
    pub sdwa: Spanned<bool>,
    pub doc: Spanned<String>,
}

/// A group of names refused as not modelled, with the reason.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawNotModelled {
    pub reason: String,
    #[serde(default)]
    pub names: Vec<Spanned<String>>,
    #[serde(default)]
    pub prefixes: Vec<Spanned<String>>,
}

/// `{vop1: 0x5f, vop3: 0x1df}`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEncodings {
    pub vop1: Option<Spanned<u16>>,
    pub vop2: Option<Spanned<u16>>,
    pub vop3: Option<Spanned<u16>>,
    pub sdwa: Option<Spanned<u16>>,
    /// The base encodings with DPP16: `[e32, e64]`.
    pub dpp16: Option<Spanned<Vec<DppBase>>>,
    /// The base encodings with DPP8.
    pub dpp8: Option<Spanned<Vec<DppBase>>>,
}

/// `encoding:` the machine-code layouts (in the family file). A target file
/// overrides a whole layout (`vop1`, `vop2`, `vop3`, `sdwa`) or single
/// operand codes.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEncoding {
    pub vop1: Option<Spanned<RawVop1>>,
    pub vop2: Option<Spanned<RawVop2>>,
    pub vop3: Option<Spanned<RawVop3>>,
    pub sdwa: Option<Spanned<RawSdwa>>,
    pub dpp16: Option<Spanned<RawDpp16>>,
    pub dpp8: Option<Spanned<RawDpp8>>,
    pub operand_codes: Option<Spanned<RawOperandCodes>>,
    pub special_operands: Option<Spanned<RawSpecialOperands>>,
}

/// `special_operands:` the source codes LLVM names beyond SGPRs, VCC, M0,
/// EXEC, null, constants and literals (trap temporaries, GFX9's
/// flat_scratch and xnack_mask halves, the `src_*` operands), and the names
/// among them (or `null`) LLVM's assembler refuses although its
/// disassembler prints them. A target file replaces the whole entry.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSpecialOperands {
    #[serde(default)]
    pub codes: RawSpecialCodes,
    #[serde(default)]
    pub assembler_refuses: Vec<Spanned<String>>,
    pub hw: Option<String>,
    pub doc: Option<String>,
    pub inherited: Option<String>,
    pub open: Option<String>,
}

impl Tagged for RawSpecialOperands {
    fn tags(&self) -> [&Option<String>; 4] {
        [&self.hw, &self.doc, &self.inherited, &self.open]
    }
}

/// `codes:` of `special_operands`: the first code of each group.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSpecialCodes {
    /// `flat_scratch_lo` (`flat_scratch_hi` next).
    pub flat_scratch_lo: Option<Spanned<u32>>,
    /// `xnack_mask_lo` (`xnack_mask_hi` next).
    pub xnack_mask_lo: Option<Spanned<u32>>,
    /// `ttmp0` (`ttmp1`..`ttmp15` follow).
    pub ttmp0: Option<Spanned<u32>>,
    /// `src_flat_scratch_base_lo` (`_hi` next).
    pub src_flat_scratch_base_lo: Option<Spanned<u32>>,
    /// `src_shared_base` (`src_shared_limit`, `src_private_base`,
    /// `src_private_limit`, `src_pops_exiting_wave_id` follow).
    pub src_shared_base: Option<Spanned<u32>>,
    /// `src_vccz` (`src_execz`, `src_scc` follow).
    pub src_vccz: Option<Spanned<u32>>,
    /// `src_lds_direct`.
    pub src_lds_direct: Option<Spanned<u32>>,
}

/// DPP16: the src0 code that announces it and the DPP16 dword.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDpp16 {
    pub src0_code: Spanned<u32>,
    pub src0: Spanned<RawField>,
    pub ctrl: Spanned<RawField>,
    pub fi: Option<Spanned<RawField>>,
    pub bound_ctrl: Spanned<RawField>,
    pub src0_neg: Spanned<RawField>,
    pub src0_abs: Spanned<RawField>,
    pub src1_neg: Spanned<RawField>,
    pub src1_abs: Spanned<RawField>,
    pub bank_mask: Spanned<RawField>,
    pub row_mask: Spanned<RawField>,
}

/// DPP8: the src0 codes that announce it (FI = 0 and FI = 1) and the DPP8
/// dword.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDpp8 {
    pub src0_code: Spanned<u32>,
    pub src0_code_fi: Spanned<u32>,
    pub src0: Spanned<RawField>,
    pub sel: Spanned<RawField>,
}

/// A bit field of a 32-bit word: `[hi, lo]`, or one bit number. The numbers
/// are checked (range, order, overlap) after parsing, where the location is
/// known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RawField {
    pub hi: u64,
    pub lo: u64,
}

impl<'de> Deserialize<'de> for RawField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RawField, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RawField;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a bit number or a bit range [hi, lo]")
            }
            fn visit_u64<E: serde::de::Error>(self, bit: u64) -> Result<RawField, E> {
                Ok(RawField { hi: bit, lo: bit })
            }
            fn visit_i64<E: serde::de::Error>(self, bit: i64) -> Result<RawField, E> {
                u64::try_from(bit)
                    .map(|bit| RawField { hi: bit, lo: bit })
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(bit), &self))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RawField, A::Error> {
                let hi: u64 = seq
                    .next_element()?
                    .ok_or_else(|| serde::de::Error::invalid_length(0, &self))?;
                let lo: u64 = seq
                    .next_element()?
                    .ok_or_else(|| serde::de::Error::invalid_length(1, &self))?;
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(serde::de::Error::invalid_length(3, &self));
                }
                Ok(RawField { hi, lo })
            }
        }
        d.deserialize_any(V)
    }
}

/// The fixed bits that identify an encoding: `{field: [31, 25], value: 0x3f}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawIdent {
    pub field: Spanned<RawField>,
    pub value: Spanned<u32>,
}

/// VOP1 (`_e32`), one word.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVop1 {
    pub ident: Spanned<RawIdent>,
    pub op: Spanned<RawField>,
    pub vdst: Spanned<RawField>,
    pub src0: Spanned<RawField>,
}

/// VOP2 (`_e32`), one word.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVop2 {
    pub ident: Spanned<RawIdent>,
    pub op: Spanned<RawField>,
    pub vdst: Spanned<RawField>,
    pub vsrc1: Spanned<RawField>,
    pub src0: Spanned<RawField>,
}

/// VOP3 (`_e64`): `word0` and `word1`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVop3 {
    pub word0: Spanned<RawVop3Word0>,
    pub word1: Spanned<RawVop3Word1>,
}

/// VOP3 word 0.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVop3Word0 {
    pub ident: Spanned<RawIdent>,
    pub op: Spanned<RawField>,
    pub vdst: Spanned<RawField>,
    pub abs: Spanned<RawField>,
    pub clamp: Spanned<RawField>,
    pub op_sel: Option<Spanned<RawOpSel>>,
}

/// `op_sel: {field: [14, 11], dst_bit: 3}`: bits 0-2 of the field select the
/// halves of src0-src2, `dst_bit` the destination's.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOpSel {
    pub field: Spanned<RawField>,
    pub dst_bit: Spanned<u64>,
}

/// VOP3 word 1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVop3Word1 {
    pub src0: Spanned<RawField>,
    pub src1: Spanned<RawField>,
    pub src2: Spanned<RawField>,
    pub omod: Spanned<RawField>,
    pub neg: Spanned<RawField>,
}

/// SDWA: a VOP1/VOP2 word whose src0 is `src0_code`, then `word1`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSdwa {
    pub src0_code: Spanned<u32>,
    pub word1: Spanned<RawSdwaWord1>,
}

/// SDWA word 1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSdwaWord1 {
    pub src0: Spanned<RawField>,
    pub dst_sel: Spanned<RawField>,
    pub dst_unused: Spanned<RawField>,
    pub clamp: Spanned<RawField>,
    pub omod: Spanned<RawField>,
    pub src0_sel: Spanned<RawField>,
    pub src0_sext: Spanned<RawField>,
    pub src0_neg: Spanned<RawField>,
    pub src0_abs: Spanned<RawField>,
    pub src0_sgpr: Spanned<RawField>,
    pub src1_sel: Spanned<RawField>,
    pub src1_sext: Spanned<RawField>,
    pub src1_neg: Spanned<RawField>,
    pub src1_abs: Spanned<RawField>,
    pub src1_sgpr: Spanned<RawField>,
    /// Bit numbers (not a range) that must be zero.
    #[serde(default)]
    pub must_be_zero: Vec<Spanned<u64>>,
}

/// `operand_codes:` what the 9-bit source codes mean. Merged code by code:
/// a target file may give just the codes it changes.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOperandCodes {
    pub max_sgpr: Option<Spanned<u32>>,
    pub vcc_lo: Option<Spanned<u32>>,
    pub m0: Option<Spanned<u32>>,
    pub sgpr_null: Option<Spanned<u32>>,
    pub exec_lo: Option<Spanned<u32>>,
    pub int_zero: Option<Spanned<u32>>,
    pub float_first: Option<Spanned<u32>>,
    pub literal: Option<Spanned<u32>>,
    pub literal64: Option<Spanned<u32>>,
    pub vgpr_first: Option<Spanned<u32>>,
}

/// An entry carrying the four evidence keys.
pub(crate) trait Tagged {
    /// `hw`, `doc`, `inherited`, `open`, in that order.
    fn tags(&self) -> [&Option<String>; 4];

    /// The one evidence tag given, or an error naming `what` at `loc`.
    fn resolve(&self, file: &str, loc: Option<Loc>, what: &str) -> Result<Evidence, SpecError> {
        evidence(file, loc, what, self.tags())
    }
}

impl<T> Tagged for RawSourced<T> {
    fn tags(&self) -> [&Option<String>; 4] {
        [&self.hw, &self.doc, &self.inherited, &self.open]
    }
}

impl Tagged for RawEvidence {
    fn tags(&self) -> [&Option<String>; 4] {
        [&self.hw, &self.doc, &self.inherited, &self.open]
    }
}

impl Tagged for RawWave {
    fn tags(&self) -> [&Option<String>; 4] {
        [&self.hw, &self.doc, &self.inherited, &self.open]
    }
}

fn evidence(
    file: &str,
    loc: Option<Loc>,
    what: &str,
    tags: [&Option<String>; 4],
) -> Result<Evidence, SpecError> {
    let [hw, doc, inherited, open] = tags;
    let given: Vec<Evidence> = [
        hw.clone().map(Evidence::Hw),
        doc.clone().map(Evidence::Doc),
        inherited.clone().map(Evidence::Inherited),
        open.clone().map(Evidence::Open),
    ]
    .into_iter()
    .flatten()
    .collect();
    match given.as_slice() {
        [one] if one.source().trim().is_empty() => Err(SpecError::new(
            file,
            loc,
            format!("{what}: evidence `{}` needs a source or note", one.tag()),
        )),
        [one] => Ok(one.clone()),
        [] => Err(SpecError::new(
            file,
            loc,
            format!("{what}: no evidence; give one of hw, doc, inherited, open"),
        )),
        _ => Err(SpecError::new(
            file,
            loc,
            format!(
                "{what}: more than one evidence tag; give exactly one of hw, doc, inherited, open"
            ),
        )),
    }
}

/// The location of a spanned value.
pub(crate) fn loc_of<T>(s: &Spanned<T>) -> Option<Loc> {
    Loc::from_saphyr(s.referenced)
}

/// Parse one file strictly.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<T, SpecError> {
    let options = serde_saphyr::options! {
        duplicate_keys: DuplicateKeyPolicy::Error,
    };
    serde_saphyr::from_str_with_options(text, options).map_err(|e| {
        let loc = e.location().and_then(Loc::from_saphyr);
        let mut message = e.without_snippet().to_string();
        // The position goes first, as file:line:column; drop serde-saphyr's
        // trailing copy, and its hint about parser options we do not expose.
        if let Some(Loc { line, column }) = loc {
            if let Some(stripped) =
                message.strip_suffix(&format!(" at line {line}, column {column}"))
            {
                message.truncate(stripped.len());
            }
        }
        let message = message.replace(", set DuplicateKeyPolicy in Options if acceptable", "");
        SpecError::new(file, loc, message)
    })
}
