//! From `isa-spec/` files to a validated [`Model`]: read, parse strictly,
//! merge each target over its family file (and a family file over the
//! family it extends), check every consistency rule.

use std::collections::BTreeMap;
use std::path::Path;

use serde_saphyr::Spanned;

use crate::error::{Error, Loc, SpecError};
use crate::header::spec_yaml_files;
use crate::model::{
    patterns_meet, DppBase, DppControlSet, DppForm, DppSpec, Encoding, FamilyFacts, FamilyModel,
    Form, Input, Instruction, InstructionDef, InstructionSet, MachineEncoding, Model, Name,
    NotModelled, Origin, Sourced, Spec, TargetModel, Wave, E32,
};
use crate::raw::{self, loc_of, RawFile, RawInstructionFile, RawSourced, RawWave, Tagged};

pub use crate::header::SPEC_DIR;
/// Family files, relative to the workspace root.
pub const FAMILY_DIR: &str = "isa-spec/families";
/// The instruction set, relative to the workspace root.
pub const INSTRUCTIONS_FILE: &str = "isa-spec/instructions/valu.yaml";

/// Read every `*.yaml` in `isa-spec/` and its immediate subdirectories,
/// sorted by path (the same set build.rs hashes for `mod.rs`). Files that
/// are neither target nor family files are rejected by [`build`].
pub fn read_inputs(root: &Path) -> Result<Vec<Input>, Error> {
    let paths = spec_yaml_files(root).map_err(|(path, source)| Error::Io { path, source })?;
    paths
        .into_iter()
        .map(|path| match std::fs::read_to_string(root.join(&path)) {
            Ok(text) => Ok(Input { path, text }),
            Err(source) => Err(Error::Io { path, source }),
        })
        .collect()
}

/// Read and validate `isa-spec/` under `root`.
pub fn load(root: &Path) -> Result<Model, Error> {
    Ok(build(read_inputs(root)?)?)
}

/// A parsed file with its path.
struct Parsed<'a> {
    path: &'a str,
    raw: RawFile,
}

/// The file name without directory and `.yaml`.
fn stem(path: &str) -> &str {
    path.rsplit('/')
        .next()
        .and_then(|n| n.strip_suffix(".yaml"))
        .unwrap_or(path)
}

/// The name a file declares (`target:` or `family:`), checked against the
/// naming rule and the file name.
fn declared_name(
    path: &str,
    key: &str,
    declared: &Spanned<String>,
    errors: &mut Vec<SpecError>,
) -> Option<Name> {
    let loc = loc_of(declared);
    let Some(name) = Name::parse(&declared.value) else {
        errors.push(SpecError::new(
            path,
            loc,
            format!(
                "`{}` is not a valid {key} name: `gfx`, a digit, then digits and lowercase letters",
                declared.value
            ),
        ));
        return None;
    };
    let stem = stem(path);
    if name != stem {
        errors.push(SpecError::new(
            path,
            loc,
            format!("file `{stem}.yaml` declares {key} `{name}`; the file name must be the {key}"),
        ));
        return None;
    }
    Some(name)
}

/// Validate `inputs` (workspace-relative paths) into a model, reporting
/// every problem found. The families are the files in `isa-spec/families/`,
/// the targets the files directly in `isa-spec/`.
pub fn build(mut inputs: Vec<Input>) -> Result<Model, Vec<SpecError>> {
    inputs.sort_by(|a, b| a.path.cmp(&b.path));
    let mut errors = Vec::new();
    let mut family_files: BTreeMap<Name, Parsed<'_>> = BTreeMap::new();
    let mut target_files: BTreeMap<Name, Parsed<'_>> = BTreeMap::new();
    let mut instruction_set = None;

    for input in &inputs {
        let path = input.path.as_str();
        if path == INSTRUCTIONS_FILE {
            match raw::parse::<RawInstructionFile>(path, &input.text) {
                Ok(raw) => instruction_set = instructions(path, &raw, &mut errors),
                Err(e) => errors.push(e),
            }
            continue;
        }
        let raw: RawFile = match raw::parse(path, &input.text) {
            Ok(raw) => raw,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let in_dir = |dir: &str| {
            path.strip_prefix(dir)
                .and_then(|p| p.strip_prefix('/'))
                .is_some_and(|name| !name.contains('/'))
        };
        if in_dir(FAMILY_DIR) {
            if let Some(t) = &raw.target {
                errors.push(SpecError::new(
                    path,
                    loc_of(t),
                    "a family file has no `target`",
                ));
            }
            if raw.description.is_some() {
                errors.push(SpecError::new(
                    path,
                    None,
                    "a family file has no `description`",
                ));
            }
            if let Some(name) = declared_name(path, "family", &raw.family, &mut errors) {
                family_files.insert(name, Parsed { path, raw });
            }
        } else if in_dir(SPEC_DIR) {
            let Some(target) = raw.target.as_ref() else {
                errors.push(SpecError::new(
                    path,
                    None,
                    "a target file needs `target: <name>`",
                ));
                continue;
            };
            if raw.description.is_none() {
                errors.push(SpecError::new(
                    path,
                    None,
                    "a target file needs `description: <generation>`",
                ));
            }
            if let Some(base) = &raw.base {
                errors.push(SpecError::new(
                    path,
                    loc_of(base),
                    "`base` is a family file's: a target file names its family with `family:`",
                ));
            }
            if let Some(facts) = &raw.facts {
                errors.push(SpecError::new(
                    path,
                    loc_of(facts),
                    format!(
                        "`facts` are the family's: give them in {FAMILY_DIR}/{}.yaml",
                        raw.family.value
                    ),
                ));
            }
            if let Some(name) = declared_name(path, "target", target, &mut errors) {
                target_files.insert(name, Parsed { path, raw });
            }
        } else {
            errors.push(SpecError::new(path, None, format!("not a target file (isa-spec/<target>.yaml), family file (isa-spec/families/<family>.yaml) or the instruction set ({INSTRUCTIONS_FILE})")));
        }
    }

    let Some(set) = instruction_set else {
        if !inputs.iter().any(|i| i.path == INSTRUCTIONS_FILE) {
            errors.push(SpecError::new(
                INSTRUCTIONS_FILE,
                None,
                "the instruction set is missing",
            ));
        }
        return Err(errors);
    };

    // Each family's files: its own, then the family it extends, and so on.
    let mut chains: BTreeMap<&Name, Vec<&Parsed<'_>>> = BTreeMap::new();
    for (name, file) in &family_files {
        match chain(file, &family_files) {
            Ok(chain) => {
                chains.insert(name, chain);
            }
            Err(e) => errors.push(e),
        }
    }

    let mut families = Vec::new();
    for (name, file) in &family_files {
        // Checked before the chain, so a family whose `base` is broken is
        // still told it has no target.
        if !target_files
            .values()
            .any(|t| t.raw.family.value == name.as_str())
        {
            errors.push(SpecError::new(
                file.path,
                None,
                format!("family {name} has no target file (isa-spec/<target>.yaml with `family: {name}`)"),
            ));
        }
        let Some(chain) = chains.get(name) else {
            continue;
        };
        match family(name, chain, &set) {
            Ok(model) => families.push(model),
            Err(mut e) => errors.append(&mut e),
        }
    }

    let mut targets = Vec::new();
    for (name, file) in &target_files {
        let family_name = &file.raw.family.value;
        let Some(family) = Name::parse(family_name).filter(|f| family_files.contains_key(f)) else {
            let known: Vec<&str> = family_files.keys().map(Name::as_str).collect();
            errors.push(SpecError::new(
                file.path,
                loc_of(&file.raw.family),
                format!(
                    "no family file {FAMILY_DIR}/{family_name}.yaml (families: {})",
                    known.join(", ")
                ),
            ));
            continue;
        };
        // A broken family file is reported once, not once per target.
        let (Some(family_model), Some(chain)) = (
            families.iter().find(|f: &&FamilyModel| f.family == family),
            chains.get(&family),
        ) else {
            continue;
        };
        match settings(file, chain, &family_model.facts, &set) {
            Ok(spec) => targets.push(TargetModel {
                target: name.clone(),
                description: file.raw.description.clone().unwrap_or_default(),
                family: family_model.family.clone(),
                inputs: family_model
                    .inputs
                    .iter()
                    .cloned()
                    .chain([file.path.to_string()])
                    .collect(),
                spec,
            }),
            Err(mut e) => errors.append(&mut e),
        }
    }

    // The same mistake shows once.
    let mut seen = Vec::new();
    errors.retain(|e| {
        let new = !seen.contains(e);
        if new {
            seen.push(e.clone());
        }
        new
    });

    if errors.is_empty() {
        Ok(Model {
            inputs,
            instructions: set,
            families,
            targets,
        })
    } else {
        Err(errors)
    }
}

/// A family file's files: the file, then the family file it extends
/// (`base:`), and so on, each once.
fn chain<'f, 'a>(
    file: &'f Parsed<'a>,
    families: &'f BTreeMap<Name, Parsed<'a>>,
) -> Result<Vec<&'f Parsed<'a>>, SpecError> {
    let mut chain = vec![file];
    let mut at = file;
    while let Some(base) = &at.raw.base {
        let Some(next) = Name::parse(&base.value).and_then(|n| families.get(&n)) else {
            let known: Vec<&str> = families.keys().map(Name::as_str).collect();
            return Err(SpecError::new(
                at.path,
                loc_of(base),
                format!(
                    "`base: {}`: no family file {FAMILY_DIR}/{}.yaml (families: {})",
                    base.value,
                    base.value,
                    known.join(", ")
                ),
            ));
        };
        if chain.iter().any(|f| f.path == next.path) {
            let names: Vec<&str> = chain.iter().map(|f| f.raw.family.value.as_str()).collect();
            return Err(SpecError::new(
                at.path,
                loc_of(base),
                format!(
                    "`base: {}` makes a cycle: {} -> {}",
                    base.value,
                    names.join(" -> "),
                    base.value
                ),
            ));
        }
        chain.push(next);
        at = next;
    }
    Ok(chain)
}

/// A family on its own: its facts, and its settings over the families it
/// extends, complete (a target file may override settings but need not
/// give any). `chain` is [`chain`]'s.
fn family(
    name: &Name,
    chain: &[&Parsed<'_>],
    set: &InstructionSet,
) -> Result<FamilyModel, Vec<SpecError>> {
    let Some((file, bases)) = chain.split_first() else {
        return Err(Vec::new());
    };
    let facts = facts(file, bases)?;
    let defaults = settings(file, bases, &facts, set)?;
    Ok(FamilyModel {
        family: name.clone(),
        path: file.path.to_string(),
        base: bases.first().and_then(|b| Name::parse(&b.raw.family.value)),
        inputs: chain.iter().rev().map(|f| f.path.to_string()).collect(),
        facts,
        defaults,
    })
}

/// The `facts:` of a family file over those of the families it extends
/// (`bases`, nearest first), each with its evidence.
fn facts(file: &Parsed<'_>, bases: &[&Parsed<'_>]) -> Result<FamilyFacts, Vec<SpecError>> {
    let mut errors = Vec::new();
    let path = file.path;
    let blocks: Vec<(&Spanned<raw::RawFacts>, &str)> = std::iter::once(file)
        .chain(bases.iter().copied())
        .filter_map(|f| f.raw.facts.as_ref().map(|facts| (facts, f.path)))
        .collect();
    let Some(&(first, _)) = blocks.first() else {
        return Err(vec![SpecError::new(
            path,
            None,
            "`facts` is missing: a family file gives true16, sdwa, vop3_opcode_offset, vop3_literal and constant_bus_limit, or takes them from its `base`",
        )]);
    };
    macro_rules! fact {
        ($field:ident) => {
            match sourced(
                blocks
                    .iter()
                    .find_map(|(facts, path)| facts.value.$field.as_ref().map(|v| (v, *path))),
                stringify!($field),
            ) {
                Some(Ok(s)) => Some(s),
                Some(Err(e)) => {
                    errors.push(e);
                    None
                }
                None => {
                    errors.push(SpecError::new(
                        path,
                        loc_of(first),
                        concat!("fact `", stringify!($field), "` is missing"),
                    ));
                    None
                }
            }
        };
    }
    let true16 = fact!(true16);
    let sdwa = fact!(sdwa);
    let vop3_opcode_offset = fact!(vop3_opcode_offset);
    let vop3_literal = fact!(vop3_literal);
    let constant_bus_limit = fact!(constant_bus_limit);
    if let Some(c) = &constant_bus_limit {
        if c.value == 0 {
            errors.push(at(&c.origin, "`constant_bus_limit` must be at least 1"));
        }
    }
    match (
        true16,
        sdwa,
        vop3_opcode_offset,
        vop3_literal,
        constant_bus_limit,
    ) {
        (
            Some(true16),
            Some(sdwa),
            Some(vop3_opcode_offset),
            Some(vop3_literal),
            Some(constant_bus_limit),
        ) if errors.is_empty() => Ok(FamilyFacts {
            true16,
            sdwa,
            vop3_opcode_offset,
            vop3_literal,
            constant_bus_limit,
        }),
        _ => Err(errors),
    }
}

/// The settings of `own` (a target file) over `bases` (its family's files,
/// nearest first), or of a family file over the families it extends,
/// checked.
fn settings(
    own: &Parsed<'_>,
    bases: &[&Parsed<'_>],
    facts: &FamilyFacts,
    set: &InstructionSet,
) -> Result<Spec, Vec<SpecError>> {
    let mut errors = Vec::new();
    let file = own.path;
    // Every entry is in the family file once that has loaded, so only a
    // family file misses one.
    let missing = |what: &str| SpecError::new(file, None, format!("{what} is missing"));

    // Take the own entry, else the nearest base's, with the file it came
    // from.
    let files = || std::iter::once(own).chain(bases.iter().copied());
    macro_rules! pick {
        ($($field:ident).+) => {
            files().find_map(|f| f.raw.$($field).+.as_ref().map(|v| (v, f.path)))
        };
    }

    // A policy's value, or None after recording why; a missing entry is an
    // error unless the policy is optional (the SDWA ones, present exactly
    // when the family has SDWA, which is checked below).
    macro_rules! policy {
        ($field:ident) => {
            policy!(@ $field, true)
        };
        ($field:ident, optional) => {
            policy!(@ $field, false)
        };
        (@ $field:ident, $required:expr) => {
            match sourced(pick!(policies.$field), stringify!($field)) {
                Some(Ok(s)) => Some(s),
                Some(Err(e)) => {
                    errors.push(e);
                    None
                }
                None => {
                    if $required {
                        errors.push(missing(concat!("policy `", stringify!($field), "`")));
                    }
                    None
                }
            }
        };
    }

    let omod_gate = policy!(omod_gate);
    let clamp_nan = policy!(clamp_nan);
    let ieee_dx10_bits = policy!(ieee_dx10_bits);
    let f16_dst_high = policy!(f16_dst_high);
    let snan = policy!(snan);
    let sub_nan = policy!(sub_nan);
    let tininess = policy!(tininess);
    let aligned_vgpr_pairs = policy!(aligned_vgpr_pairs);
    let sdwa_f16_output = policy!(sdwa_f16_output, optional);
    let sdwa_f16_dword_dst = policy!(sdwa_f16_dword_dst, optional);
    let sdwa_constant_sel = policy!(sdwa_constant_sel, optional);
    let sdwa_reserved_bits = policy!(sdwa_reserved_bits, optional);
    let fract_rules = match pick!(policies.fract_rules) {
        Some((raw, path)) => {
            let loc = loc_of(raw);
            match raw.value.resolve(path, loc, "fract_rules") {
                Ok(evidence) => Some(Sourced {
                    value: (),
                    evidence,
                    origin: Origin {
                        file: path.to_string(),
                        loc,
                    },
                }),
                Err(e) => {
                    errors.push(e);
                    None
                }
            }
        }
        None => {
            errors.push(missing("policy `fract_rules`"));
            None
        }
    };
    let wave = match pick!(wave) {
        Some((raw, path)) => wave(raw, path).map_err(|e| errors.push(e)).ok(),
        None => {
            errors.push(missing("`wave`"));
            None
        }
    };

    // Consistency of the policies with the facts and with each other.
    let has_sdwa = facts.sdwa.value;
    for (name, origin) in [
        (
            "sdwa_f16_output",
            sdwa_f16_output.as_ref().map(|o| &o.origin),
        ),
        (
            "sdwa_f16_dword_dst",
            sdwa_f16_dword_dst.as_ref().map(|o| &o.origin),
        ),
        (
            "sdwa_constant_sel",
            sdwa_constant_sel.as_ref().map(|o| &o.origin),
        ),
        (
            "sdwa_reserved_bits",
            sdwa_reserved_bits.as_ref().map(|o| &o.origin),
        ),
    ] {
        match (origin, has_sdwa) {
            (None, true) => errors.push(missing(&format!(
                "policy `{name}` (the family has SDWA)"
            ))),
            (Some(o), false) => errors.push(at(
                o,
                format!("`{name}` given but the family has `sdwa: false`: the executor cannot honour it"),
            )),
            _ => {}
        }
    }
    // A value the executor would ignore is refused.
    if let Some(high) = &f16_dst_high {
        use crate::model::F16DstHigh;
        if facts.true16.value && high.value == F16DstHigh::Zero {
            errors.push(at(&high.origin, "`f16_dst_high: zero` on a true16 target: its 16-bit results write register halves and keep the other half, so the executor cannot honour it"));
        }
    }
    if let (Some(bits), Some(snan)) = (&ieee_dx10_bits, &snan) {
        use crate::model::SnanPolicy;
        if !bits.value && snan.value == SnanPolicy::KeepWhenIeeeOff {
            errors.push(at(&snan.origin, "`snan: keep_when_ieee_off` reads MODE.IEEE, which this target lacks (`ieee_dx10_bits: false`)"));
        }
    }
    if let (Some(bits), Some(gate), Some(clamp)) = (&ieee_dx10_bits, &omod_gate, &clamp_nan) {
        use crate::model::{ClampNan, OmodGate};
        if !bits.value && gate.value != OmodGate::Always {
            errors.push(at(&gate.origin, "`omod_gate: ieee_and_output_denorm` reads MODE.IEEE, which this target lacks (`ieee_dx10_bits: false`)"));
        }
        if !bits.value && clamp.value != ClampNan::AlwaysZero {
            errors.push(at(&clamp.origin, "`clamp_nan: dx10_clamp` reads MODE.DX10_CLAMP, which this target lacks (`ieee_dx10_bits: false`)"));
        }
    }

    let base_encodings: Vec<_> = bases.iter().map(|f| (&f.raw.encoding, f.path)).collect();
    let encoding = crate::layout::encoding(
        (&own.raw.encoding, own.path),
        &base_encodings,
        Some(facts),
        &missing,
        &mut errors,
    );

    let (forms, dpp_forms) = forms(own, bases, facts, set, encoding.as_ref(), &mut errors);
    let dpp = dpp(
        own,
        bases,
        facts,
        encoding.as_ref(),
        &dpp_forms,
        &missing,
        &mut errors,
    );

    match (
        omod_gate,
        clamp_nan,
        ieee_dx10_bits,
        f16_dst_high,
        snan,
        sub_nan,
        tininess,
        aligned_vgpr_pairs,
        fract_rules,
        wave,
        encoding,
        dpp,
    ) {
        (
            Some(omod_gate),
            Some(clamp_nan),
            Some(ieee_dx10_bits),
            Some(f16_dst_high),
            Some(snan),
            Some(sub_nan),
            Some(tininess),
            Some(aligned_vgpr_pairs),
            Some(fract_rules),
            Some(wave),
            Some(encoding),
            Some(dpp),
        ) if errors.is_empty() => Ok(Spec {
            wave,
            omod_gate,
            clamp_nan,
            ieee_dx10_bits,
            true16: facts.true16.clone(),
            sdwa: facts.sdwa.clone(),
            f16_dst_high,
            snan,
            sub_nan,
            tininess,
            sdwa_f16_output,
            sdwa_f16_dword_dst,
            sdwa_constant_sel,
            sdwa_reserved_bits,
            aligned_vgpr_pairs,
            fract_rules,
            forms,
            dpp,
            dpp_forms,
            encoding,
        }),
        _ => Err(errors),
    }
}

/// The `dpp:` entries of `own` over `bases` (nearest first), checked
/// against the facts, the layouts and the DPP forms.
fn dpp(
    own: &Parsed<'_>,
    bases: &[&Parsed<'_>],
    facts: &FamilyFacts,
    layouts: Option<&MachineEncoding>,
    dpp_forms: &[DppForm],
    missing: &dyn Fn(&str) -> SpecError,
    errors: &mut Vec<SpecError>,
) -> Option<DppSpec> {
    let before = errors.len();
    macro_rules! entry {
        ($field:ident, $required:expr) => {{
            let picked = std::iter::once(own)
                .chain(bases.iter().copied())
                .find_map(|f| f.raw.dpp.$field.as_ref().map(|v| (v, f.path)));
            match sourced(picked, concat!("dpp.", stringify!($field))) {
                Some(Ok(s)) => Some(s),
                Some(Err(e)) => {
                    errors.push(e);
                    None
                }
                None => {
                    if $required {
                        errors.push(missing(concat!("`dpp.", stringify!($field), "`")));
                    }
                    None
                }
            }
        }};
    }
    let controls = entry!(controls, true);
    let f64_controls = entry!(f64_controls, true);
    let bound_ctrl_zero = entry!(bound_ctrl_zero, true);
    let fi = entry!(fi, true);
    let e64_src1_scalar = entry!(e64_src1_scalar, true);
    let inactive_source = entry!(inactive_source, true);
    let zero_fill = entry!(zero_fill, true);
    let bcast_low_rows = entry!(bcast_low_rows, false);
    let reserved_ctrl = entry!(reserved_ctrl, true);
    let share_xmask = entry!(share_xmask, false);
    let mixed_halves = entry!(mixed_halves, false);
    let reserved_bits = entry!(reserved_bits, true);

    // Optional entries exist exactly where they mean something.
    let any = |set: &Option<Sourced<DppControlSet>>, name: &str| {
        set.as_ref().is_some_and(|s| s.value.has(name))
    };
    let has_bcast = any(&controls, "row_bcast") || any(&f64_controls, "row_bcast");
    let has_share = ["row_share", "row_xmask"]
        .iter()
        .any(|n| any(&controls, n) || any(&f64_controls, n));
    for (name, present, needed, why) in [
        (
            "bcast_low_rows",
            bcast_low_rows.as_ref().map(|s| &s.origin),
            has_bcast,
            "`row_bcast` in `dpp.controls`",
        ),
        (
            "share_xmask",
            share_xmask.as_ref().map(|s| &s.origin),
            has_share,
            "`row_share` or `row_xmask` in `dpp.controls`",
        ),
        (
            "mixed_halves",
            mixed_halves.as_ref().map(|s| &s.origin),
            facts.true16.value,
            "`true16: true`",
        ),
    ] {
        match (present, needed) {
            (None, true) => errors.push(missing(&format!("`dpp.{name}` (the target has {why})"))),
            (Some(o), false) => errors.push(at(
                o,
                format!(
                    "`dpp.{name}` given but the target lacks {why}: the executor cannot honour it"
                ),
            )),
            _ => {}
        }
    }
    // FI and DPP8 go together, with the DPP8 layout.
    if let (Some(fi), Some(l)) = (&fi, layouts) {
        if fi.value != l.dpp8.is_some() || fi.value != l.dpp16.fi.is_some() {
            errors.push(at(
                &fi.origin,
                "`dpp.fi` must agree with the layouts: `encoding.dpp8` and `encoding.dpp16.fi` exist exactly with FI",
            ));
        }
        if !fi.value && dpp_forms.iter().any(|f| f.dpp8) {
            errors.push(at(
                &fi.origin,
                "a `dpp8` form on a target without DPP8 (`dpp.fi: false`)",
            ));
        }
    }
    if let Some(f64c) = &f64_controls {
        let f64_forms = dpp_forms.iter().any(|f| f.instruction.width() == 64);
        if f64_forms == f64c.value.0.eq(&0) {
            errors.push(at(
                &f64c.origin,
                "`dpp.f64_controls` must be empty exactly when no F64 instruction has a DPP form",
            ));
        }
    }
    if errors.len() != before {
        return None;
    }
    Some(DppSpec {
        controls: controls?,
        f64_controls: f64_controls?,
        bound_ctrl_zero: bound_ctrl_zero?,
        fi: fi?,
        e64_src1_scalar: e64_src1_scalar?,
        inactive_source: inactive_source?,
        zero_fill: zero_fill?,
        bcast_low_rows,
        reserved_ctrl: reserved_ctrl?,
        share_xmask,
        mixed_halves,
        reserved_bits: reserved_bits?,
    })
}

fn at(origin: &Origin, message: impl Into<String>) -> SpecError {
    SpecError::new(&origin.file, origin.loc, message)
}

/// A policy entry resolved to value and evidence.
fn sourced<T: Copy>(
    picked: Option<(&Spanned<RawSourced<T>>, &str)>,
    what: &str,
) -> Option<Result<Sourced<T>, SpecError>> {
    let (raw, path) = picked?;
    let loc = loc_of(raw);
    Some(raw.value.resolve(path, loc, what).map(|evidence| Sourced {
        value: raw.value.value,
        evidence,
        origin: Origin {
            file: path.to_string(),
            loc,
        },
    }))
}

fn wave(raw: &Spanned<RawWave>, path: &str) -> Result<Wave, SpecError> {
    let loc = loc_of(raw);
    let evidence = raw.value.resolve(path, loc, "wave")?;
    let mut sizes = Vec::new();
    for s in &raw.value.sizes {
        if s.value != 32 && s.value != 64 {
            return Err(SpecError::new(
                path,
                loc_of(s),
                format!("wave size {} is not 32 or 64", s.value),
            ));
        }
        if sizes.contains(&s.value) {
            return Err(SpecError::new(
                path,
                loc_of(s),
                format!("wave size {} listed twice", s.value),
            ));
        }
        sizes.push(s.value);
    }
    if sizes.is_empty() {
        return Err(SpecError::new(path, loc, "`wave.sizes` is empty"));
    }
    if !sizes.contains(&raw.value.default.value) {
        return Err(SpecError::new(
            path,
            loc_of(&raw.value.default),
            format!(
                "default wave {} is not one of the sizes {sizes:?}",
                raw.value.default.value
            ),
        ));
    }
    Ok(Wave {
        sizes,
        default: raw.value.default.value,
        evidence,
        origin: Origin {
            file: path.to_string(),
            loc,
        },
    })
}

/// The forms of a target: each instruction's entry from the target file,
/// else the family file, checked against the forms table and the opcode
/// rules of the family.
fn forms(
    target: &Parsed<'_>,
    family: &[&Parsed<'_>],
    facts: &FamilyFacts,
    set: &InstructionSet,
    layouts: Option<&MachineEncoding>,
    errors: &mut Vec<SpecError>,
) -> (Vec<Form>, Vec<DppForm>) {
    let has_sdwa = facts.sdwa.value;
    let offsets = &facts.vop3_opcode_offset;
    let mut out = Vec::new();
    let mut dpp_out = Vec::new();
    // Every key names an instruction of the set.
    let files = || std::iter::once(target).chain(family.iter().copied());
    for file in files() {
        for (key, _) in &file.raw.forms.0 {
            if set.get(&key.value).is_some() {
                continue;
            }
            let message = match set.not_modelled(&key.value) {
                Some(n) => format!(
                    "form `{}`: the instruction is listed as not modelled in {} ({})",
                    key.value, set.path, n.reason
                ),
                None => format!("form `{}`: no such instruction in {}", key.value, set.path),
            };
            errors.push(SpecError::new(file.path, loc_of(key), message));
        }
    }
    for instruction in &set.instructions {
        let (mnemonic, e32) = (instruction.mnemonic(), instruction.e32);
        let picked = files().find_map(|f| f.raw.forms.get(mnemonic).map(|e| (e, f.path)));
        let Some((encodings, path)) = picked else {
            errors.push(SpecError::new(
                target.path,
                None,
                format!("form `{mnemonic}` is missing"),
            ));
            continue;
        };
        let expected = instruction.encodings(has_sdwa);
        let v = &encodings.value;
        let has_e32 = v.vop1.is_some() || v.vop2.is_some();
        let any = has_e32 || v.vop3.is_some() || v.sdwa.is_some();
        let required = |encoding: Encoding| match encoding {
            Encoding::Vop3 => any,
            Encoding::Sdwa => has_e32,
            Encoding::Vop1 | Encoding::Vop2 => false,
        };
        let mut ops: BTreeMap<Encoding, (u16, Option<Loc>)> = BTreeMap::new();
        for encoding in Encoding::ALL {
            let given = match encoding {
                Encoding::Vop1 => encodings.value.vop1.as_ref(),
                Encoding::Vop2 => encodings.value.vop2.as_ref(),
                Encoding::Vop3 => encodings.value.vop3.as_ref(),
                Encoding::Sdwa => encodings.value.sdwa.as_ref(),
            };
            let in_scope = expected.contains(&encoding);
            match given {
                Some(op) if !in_scope => {
                    let why = if encoding == Encoding::Sdwa && !has_sdwa {
                        "the family has `sdwa: false`".to_string()
                    } else {
                        format!(
                            "{mnemonic} has no {} form in scope (docs/semantics.md §1, forms table)",
                            encoding.yaml()
                        )
                    };
                    errors.push(SpecError::new(
                        path,
                        loc_of(op),
                        format!("form `{mnemonic}` {}: {why}", encoding.yaml()),
                    ));
                }
                Some(op)
                    if layouts
                        .is_some_and(|l| u32::from(op.value) > l.op_field(encoding, e32).max()) =>
                {
                    let field = layouts.map(|l| l.op_field(encoding, e32));
                    let field = field.map_or_else(String::new, |f| format!(" ({f})"));
                    errors.push(SpecError::new(
                        path,
                        loc_of(op),
                        format!(
                            "opcode {:#x} does not fit the {} opcode field{field}",
                            op.value,
                            encoding.yaml(),
                        ),
                    ))
                }
                Some(op) => {
                    ops.insert(encoding, (op.value, loc_of(op)));
                }
                // A target may lack an instruction (an empty line) or its
                // e32 form (V_ADD_F64 before GFX12); VOP3 goes with any
                // form, SDWA with the e32 form.
                None if in_scope && required(encoding) => errors.push(SpecError::new(
                    path,
                    loc_of(encodings),
                    format!("form `{mnemonic}` {} is missing", encoding.yaml()),
                )),
                None => {}
            }
        }
        // The decoder tries VOP1, VOP2, VOP3 in that order: no word of a
        // form may match the identifying bits of an encoding tried before.
        if let Some(l) = layouts {
            for (&encoding, &(op, loc)) in &ops {
                let ident = l.ident(encoding, e32);
                let field = l.op_field(encoding, e32);
                let (mask, bits) = ident.pattern();
                let form = (mask | field.mask(), bits | u32::from(op) << field.lo);
                let Some(e) = (match encoding {
                    Encoding::Sdwa => e32,
                    e => Some(e),
                }) else {
                    continue;
                };
                for earlier in Encoding::ALL.into_iter().take_while(|&x| x < e) {
                    let other = l.ident(earlier, None);
                    if patterns_meet(other.pattern(), form) {
                        errors.push(SpecError::new(
                            path,
                            loc,
                            format!(
                                "`{mnemonic}` {} opcode {op:#x} gives words that match the {} ident ({} = {:#x}), which the decoder tries first",
                                encoding.yaml(),
                                earlier.yaml(),
                                other.field,
                                other.value
                            ),
                        ));
                    }
                }
            }
        }
        // VOP3 promotes the e32 opcode by a fixed offset; SDWA reuses it.
        if let Some(e32) = e32 {
            if let Some(&(base, _)) = ops.get(&e32) {
                let offset = offsets.value.offset(e32);
                if let Some(&(vop3, loc)) = ops.get(&Encoding::Vop3) {
                    if Some(vop3) != base.checked_add(offset) {
                        errors.push(SpecError::new(
                            path,
                            loc,
                            format!(
                                "`{mnemonic}` vop3 opcode {vop3:#x} is inconsistent with {} {base:#x}: the family's `vop3_opcode_offset` ({}) is {offset:#x}, giving {:#x}",
                                e32.yaml(),
                                offsets.origin.file,
                                u32::from(base) + u32::from(offset)
                            ),
                        ));
                    }
                }
                if let Some(&(sdwa, loc)) = ops.get(&Encoding::Sdwa) {
                    if sdwa != base {
                        errors.push(SpecError::new(
                            path,
                            loc,
                            format!("`{mnemonic}` sdwa opcode {sdwa:#x} must equal its {} opcode {base:#x}", e32.yaml()),
                        ));
                    }
                }
            }
        }
        for encoding in expected {
            if let Some(&(op, _)) = ops.get(&encoding) {
                out.push(Form {
                    instruction: instruction.clone(),
                    encoding,
                    op,
                });
            }
        }
        // DPP forms: on a base encoding the instruction has.
        for (list, dpp8) in [
            (&encodings.value.dpp16, false),
            (&encodings.value.dpp8, true),
        ] {
            let Some(list) = list else { continue };
            for (i, base) in list.value.iter().enumerate() {
                if list.value[..i].contains(base) {
                    errors.push(SpecError::new(
                        path,
                        loc_of(list),
                        format!(
                            "`{mnemonic}` {}: {} is listed twice",
                            if dpp8 { "dpp8" } else { "dpp16" },
                            if *base == DppBase::E32 { "e32" } else { "e64" }
                        ),
                    ));
                    continue;
                }
                let encoding = match base {
                    DppBase::E32 => e32,
                    DppBase::E64 => Some(Encoding::Vop3),
                };
                match encoding {
                    Some(encoding) if ops.contains_key(&encoding) => dpp_out.push(DppForm {
                        instruction: instruction.clone(),
                        encoding,
                        dpp8,
                    }),
                    _ => errors.push(SpecError::new(
                        path,
                        loc_of(list),
                        format!(
                            "`{mnemonic}` {}: the instruction has no {} form to carry DPP",
                            if dpp8 { "dpp8" } else { "dpp16" },
                            if *base == DppBase::E32 { "e32" } else { "e64" }
                        ),
                    )),
                }
            }
        }
    }
    (out, dpp_out)
}

/// `isa-spec/instructions/valu.yaml` checked: each instruction's sources fit
/// its operation and its e32 encoding, and no modelled name is also listed
/// as not modelled.
fn instructions(
    path: &str,
    raw: &RawInstructionFile,
    errors: &mut Vec<SpecError>,
) -> Option<InstructionSet> {
    let before = errors.len();
    let not_modelled: Vec<NotModelled> = raw
        .not_modelled
        .iter()
        .map(|group| {
            for name in group.value.names.iter().chain(&group.value.prefixes) {
                if !valid_mnemonic(&name.value) {
                    errors.push(SpecError::new(
                        path,
                        loc_of(name),
                        format!(
                            "`{}` is not a mnemonic: `v_` then lowercase letters, digits and `_`",
                            name.value
                        ),
                    ));
                }
            }
            if group.value.names.is_empty() && group.value.prefixes.is_empty() {
                errors.push(SpecError::new(
                    path,
                    loc_of(group),
                    "a `not_modelled` group needs `names` or `prefixes`",
                ));
            }
            NotModelled {
                reason: group.value.reason.clone(),
                names: group.value.names.iter().map(|n| n.value.clone()).collect(),
                prefixes: group
                    .value
                    .prefixes
                    .iter()
                    .map(|n| n.value.clone())
                    .collect(),
            }
        })
        .collect();
    let mut instructions = Vec::new();
    for (index, (key, entry)) in raw.instructions.0.iter().enumerate() {
        let name = &key.value;
        let at = |loc, message: String| SpecError::new(path, loc, format!("`{name}`: {message}"));
        let e = &entry.value;
        if !valid_mnemonic(name) || !name.ends_with(&format!("_{}", format_suffix(e.format.value)))
        {
            errors.push(at(
                loc_of(key),
                format!(
                    "the mnemonic is `v_` then lowercase letters, digits and `_`, ending in the result format (`_{}`)",
                    format_suffix(e.format.value)
                ),
            ));
        }
        if let Some(n) = not_modelled.iter().find(|n| n.covers(name)) {
            errors.push(at(
                loc_of(key),
                format!("also listed as not modelled ({})", n.reason),
            ));
        }
        let sources: Vec<_> = e.sources.value.iter().map(|s| s.value).collect();
        let operation = e.operation.value;
        if !operation.accepts(&sources) {
            let given: Vec<&str> = sources.iter().map(|s| s.yaml()).collect();
            errors.push(at(
                loc_of(&e.sources),
                format!(
                    "operation `{}` reads {}, not [{}]",
                    operation.yaml(),
                    operation.signature(),
                    given.join(", ")
                ),
            ));
        }
        // VOP1 has one source field, VOP2 two (src0, vsrc1); a literal K
        // and an accumulator take none.
        let fields = sources
            .iter()
            .filter(|s| {
                !matches!(
                    s,
                    crate::model::SourceKind::Literal | crate::model::SourceKind::Accumulator
                )
            })
            .count();
        let e32_fields = match e.e32.value {
            E32::Vop1 => Some(1),
            E32::Vop2 => Some(2),
            E32::None => None,
        };
        if e32_fields.is_some_and(|n| n != fields) {
            errors.push(at(
                loc_of(&e.e32),
                format!(
                    "an e32 encoding with {} source fields for {fields} register sources",
                    e32_fields.unwrap_or(0)
                ),
            ));
        }
        if e.sdwa.value && e.e32.value == E32::None {
            errors.push(at(
                loc_of(&e.sdwa),
                "an SDWA form needs an e32 encoding (SDWA reuses its word)".into(),
            ));
        }
        instructions.push(Instruction(std::sync::Arc::new(InstructionDef {
            index,
            mnemonic: name.clone(),
            operation,
            format: e.format.value,
            sources,
            e32: e.e32.value.encoding(),
            sdwa: e.sdwa.value,
            doc: e.doc.value.clone(),
            origin: Origin {
                file: path.to_string(),
                loc: loc_of(key),
            },
        })));
    }
    if instructions.is_empty() {
        errors.push(SpecError::new(path, None, "`instructions` is empty"));
    }
    (errors.len() == before).then(|| InstructionSet {
        path: path.to_string(),
        instructions,
        not_modelled,
    })
}

/// `v_` then lowercase ASCII letters, digits and `_`.
fn valid_mnemonic(name: &str) -> bool {
    name.strip_prefix("v_").is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    })
}

/// `f16`, `f32`, `f64`: the mnemonic's last word.
fn format_suffix(format: crate::model::FloatFormat) -> String {
    format!("f{}", format.width())
}
