//! The YAML schema of `isa-spec/` as written, before merging and
//! validation. Parsing is strict: unknown fields, unknown enum values and
//! duplicate keys are errors with file:line:column.

use serde::Deserialize;
use serde_saphyr::{DuplicateKeyPolicy, Spanned};

use crate::error::{Loc, SpecError};
use crate::model::{
    ClampNan, Evidence, F16DstHigh, FamilyName, OmodGate, SdwaF16Output, SnanPolicy, TargetName,
};

/// One file: a target file (`isa-spec/gfx1201.yaml`, with `target` and
/// `description`) or a family file (`isa-spec/families/gfx12.yaml`, without).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFile {
    pub target: Option<Spanned<TargetName>>,
    pub family: Spanned<FamilyName>,
    pub description: Option<String>,
    pub wave: Option<Spanned<RawWave>>,
    #[serde(default)]
    pub policies: RawPolicies,
    #[serde(default)]
    pub forms: RawForms,
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

/// Every policy a target has; each may come from the family file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPolicies {
    pub omod_gate: Option<Spanned<RawSourced<OmodGate>>>,
    pub clamp_nan: Option<Spanned<RawSourced<ClampNan>>>,
    pub ieee_dx10_bits: Option<Spanned<RawSourced<bool>>>,
    pub true16: Option<Spanned<RawSourced<bool>>>,
    pub sdwa: Option<Spanned<RawSourced<bool>>>,
    pub f16_dst_high: Option<Spanned<RawSourced<F16DstHigh>>>,
    pub snan: Option<Spanned<RawSourced<SnanPolicy>>>,
    pub sdwa_f16_output: Option<Spanned<RawSourced<SdwaF16Output>>>,
    pub aligned_vgpr_pairs: Option<Spanned<RawSourced<bool>>>,
    pub fract_rules: Option<Spanned<RawEvidence>>,
}

/// `forms:` one entry per instruction, mapping encoding to opcode number.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawForms {
    pub v_fract_f16: Option<Spanned<RawEncodings>>,
    pub v_fract_f32: Option<Spanned<RawEncodings>>,
    pub v_fract_f64: Option<Spanned<RawEncodings>>,
    pub v_ldexp_f16: Option<Spanned<RawEncodings>>,
    pub v_ldexp_f32: Option<Spanned<RawEncodings>>,
    pub v_ldexp_f64: Option<Spanned<RawEncodings>>,
}

/// `{vop1: 0x5f, vop3: 0x1df}`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEncodings {
    pub vop1: Option<Spanned<u16>>,
    pub vop2: Option<Spanned<u16>>,
    pub vop3: Option<Spanned<u16>>,
    pub sdwa: Option<Spanned<u16>>,
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
pub(crate) fn parse(file: &str, text: &str) -> Result<RawFile, SpecError> {
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
