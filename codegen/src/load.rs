//! From `isa-spec/` files to a validated [`Model`]: read, parse strictly,
//! merge each target over its family file, check every consistency rule.

use std::collections::BTreeMap;
use std::path::Path;

use serde_saphyr::Spanned;

use crate::error::{Error, Loc, SpecError};
use crate::header::spec_yaml_files;
use crate::model::{
    patterns_meet, Encoding, FamilyName, Form, Input, Instruction, MachineEncoding, Model, Origin,
    Sourced, TargetModel, TargetName, Wave,
};
use crate::raw::{self, loc_of, RawEncodings, RawFile, RawSourced, RawWave, Tagged};

pub use crate::header::SPEC_DIR;
/// Family files, relative to the workspace root.
pub const FAMILY_DIR: &str = "isa-spec/families";

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

/// A parsed target file.
struct TargetFile<'a> {
    name: TargetName,
    file: Parsed<'a>,
}

/// Validate `inputs` (workspace-relative paths) into a model, reporting
/// every problem found.
pub fn build(mut inputs: Vec<Input>) -> Result<Model, Vec<SpecError>> {
    inputs.sort_by(|a, b| a.path.cmp(&b.path));
    let mut errors = Vec::new();
    let mut families: BTreeMap<FamilyName, Parsed<'_>> = BTreeMap::new();
    let mut targets: BTreeMap<TargetName, TargetFile<'_>> = BTreeMap::new();

    for input in &inputs {
        let path = input.path.as_str();
        let raw = match raw::parse(path, &input.text) {
            Ok(raw) => raw,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let stem = path
            .rsplit('/')
            .next()
            .and_then(|n| n.strip_suffix(".yaml"))
            .unwrap_or(path);
        let family_loc = loc_of(&raw.family);
        if path
            .strip_prefix(FAMILY_DIR)
            .is_some_and(|p| p.starts_with('/'))
        {
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
            if FamilyName::from_name(stem) != Some(raw.family.value) {
                errors.push(SpecError::new(
                    path,
                    family_loc,
                    format!("family file `{stem}.yaml` declares family `{}`; the file name must be the family", raw.family.value.name()),
                ));
                continue;
            }
            families.insert(raw.family.value, Parsed { path, raw });
        } else if path
            .strip_prefix(SPEC_DIR)
            .and_then(|p| p.strip_prefix('/'))
            .is_some_and(|name| !name.contains('/'))
        {
            let Some(target) = raw.target.as_ref() else {
                errors.push(SpecError::new(
                    path,
                    None,
                    "a target file needs `target: <name>`",
                ));
                continue;
            };
            let (name, target_loc) = (target.value, loc_of(target));
            if raw.description.is_none() {
                errors.push(SpecError::new(
                    path,
                    None,
                    "a target file needs `description: <generation>`",
                ));
            }
            if TargetName::from_name(stem) != Some(name) {
                errors.push(SpecError::new(
                    path,
                    target_loc,
                    format!(
                        "file `{stem}.yaml` declares target `{}`; the file name must be the target",
                        name.name()
                    ),
                ));
                continue;
            }
            if raw.family.value != name.family() {
                errors.push(SpecError::new(
                    path,
                    family_loc,
                    format!(
                        "{} is in family `{}`, not `{}`",
                        name.name(),
                        name.family().name(),
                        raw.family.value.name()
                    ),
                ));
                continue;
            }
            targets.insert(
                name,
                TargetFile {
                    name,
                    file: Parsed { path, raw },
                },
            );
        } else {
            errors.push(SpecError::new(path, None, "not a target file (isa-spec/<target>.yaml) or family file (isa-spec/families/<family>.yaml)"));
        }
    }

    let mut models = Vec::new();
    for name in TargetName::ALL {
        let Some(target) = targets.get(&name) else {
            if !errors
                .iter()
                .any(|e| e.file == format!("{SPEC_DIR}/{}.yaml", name.name()))
            {
                errors.push(SpecError::new(
                    SPEC_DIR,
                    None,
                    format!(
                        "no file for target {0} (expected {SPEC_DIR}/{0}.yaml)",
                        name.name()
                    ),
                ));
            }
            continue;
        };
        match merge(target, families.get(&name.family())) {
            Ok(model) => models.push(model),
            Err(mut e) => errors.append(&mut e),
        }
    }

    // A family file's mistake shows once, not once per target of the family.
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
            targets: models,
        })
    } else {
        Err(errors)
    }
}

/// Merge a target file over its family file and check the result.
fn merge(
    target: &TargetFile<'_>,
    family: Option<&Parsed<'_>>,
) -> Result<TargetModel, Vec<SpecError>> {
    let (name, target) = (target.name, &target.file);
    let mut errors = Vec::new();
    let file = target.path;
    let family_file = family.map(|f| f.path);
    let missing = |what: &str| {
        let hint = match family_file {
            Some(f) => format!("give it here or in {f}"),
            None => format!(
                "give it here or in {FAMILY_DIR}/{}.yaml",
                target.raw.family.value.name()
            ),
        };
        SpecError::new(file, None, format!("{what} is missing: {hint}"))
    };

    // Take the target's entry, else the family's, with the file it came from.
    macro_rules! pick {
        ($($field:ident).+) => {
            target.raw.$($field).+.as_ref().map(|v| (v, target.path)).or_else(|| {
                family.and_then(|f| f.raw.$($field).+.as_ref().map(|v| (v, f.path)))
            })
        };
    }

    macro_rules! policy {
        ($field:ident) => {
            match sourced(pick!(policies.$field), stringify!($field)) {
                Some(Ok(s)) => Some(s),
                Some(Err(e)) => {
                    errors.push(e);
                    None
                }
                None => {
                    errors.push(missing(concat!("policy `", stringify!($field), "`")));
                    None
                }
            }
        };
    }

    let omod_gate = policy!(omod_gate);
    let clamp_nan = policy!(clamp_nan);
    let ieee_dx10_bits = policy!(ieee_dx10_bits);
    let true16 = policy!(true16);
    let sdwa = policy!(sdwa);
    let f16_dst_high = policy!(f16_dst_high);
    let snan = policy!(snan);
    let aligned_vgpr_pairs = policy!(aligned_vgpr_pairs);
    let sdwa_f16_output = match sourced(pick!(policies.sdwa_f16_output), "sdwa_f16_output") {
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            errors.push(e);
            None
        }
        None => None,
    };
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

    let family_name = target.raw.family.value;
    let description = target.raw.description.clone().unwrap_or_default();

    // Consistency of the policies with the family and with each other.
    if let Some(s) = &sdwa {
        if s.value && !family_name.has_sdwa_encoding() {
            errors.push(at(
                &s.origin,
                format!(
                    "`sdwa: true` but family {} has no SDWA encoding",
                    family_name.name()
                ),
            ));
        }
        match (&sdwa_f16_output, s.value) {
            (None, true) => errors.push(missing("policy `sdwa_f16_output` (the target has SDWA)")),
            (Some(o), false) => errors.push(at(
                &o.origin,
                "`sdwa_f16_output` given but the target has `sdwa: false`",
            )),
            _ => {}
        }
    }
    if let Some(t) = &true16 {
        if t.value != family_name.has_true16() {
            errors.push(at(
                &t.origin,
                format!(
                    "`true16: {}` disagrees with family {} (true16 exists from GFX11 on)",
                    t.value,
                    family_name.name()
                ),
            ));
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

    let encoding = crate::layout::encoding(
        (&target.raw.encoding, target.path),
        family.map(|f| (&f.raw.encoding, f.path)),
        sdwa.as_ref().map(|s| s.value),
        true16.as_ref().map(|t| t.value),
        &missing,
        &mut errors,
    );

    let forms = match &sdwa {
        Some(s) => forms(
            target,
            family,
            family_name,
            s.value,
            encoding.as_ref(),
            &mut errors,
        ),
        None => Vec::new(),
    };

    let mut inputs: Vec<String> = family_file.into_iter().map(str::to_string).collect();
    inputs.push(file.to_string());

    match (
        omod_gate,
        clamp_nan,
        ieee_dx10_bits,
        true16,
        sdwa,
        f16_dst_high,
        snan,
        aligned_vgpr_pairs,
        fract_rules,
        wave,
        encoding,
    ) {
        (
            Some(omod_gate),
            Some(clamp_nan),
            Some(ieee_dx10_bits),
            Some(true16),
            Some(sdwa),
            Some(f16_dst_high),
            Some(snan),
            Some(aligned_vgpr_pairs),
            Some(fract_rules),
            Some(wave),
            Some(encoding),
        ) if errors.is_empty() => Ok(TargetModel {
            target: name,
            description,
            family: family_name,
            inputs,
            wave,
            omod_gate,
            clamp_nan,
            ieee_dx10_bits,
            true16,
            sdwa,
            f16_dst_high,
            snan,
            sdwa_f16_output,
            aligned_vgpr_pairs,
            fract_rules,
            forms,
            encoding,
        }),
        _ => Err(errors),
    }
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
    family: Option<&Parsed<'_>>,
    family_name: FamilyName,
    has_sdwa: bool,
    layouts: Option<&MachineEncoding>,
    errors: &mut Vec<SpecError>,
) -> Vec<Form> {
    let mut out = Vec::new();
    for (instruction, e32, _) in Instruction::TABLE {
        let mnemonic = instruction.mnemonic();
        let picked = form_entry(&target.raw, instruction)
            .map(|e| (e, target.path))
            .or_else(|| family.and_then(|f| form_entry(&f.raw, instruction).map(|e| (e, f.path))));
        let Some((encodings, path)) = picked else {
            errors.push(SpecError::new(
                target.path,
                None,
                format!("form `{mnemonic}` is missing (give it here or in the family file)"),
            ));
            continue;
        };
        let expected = instruction.encodings(has_sdwa);
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
                        "the target has `sdwa: false`".to_string()
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
                None if in_scope => errors.push(SpecError::new(
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
                let offset = family_name.vop3_offset(e32);
                if let Some(&(vop3, loc)) = ops.get(&Encoding::Vop3) {
                    if vop3 != base + offset {
                        errors.push(SpecError::new(
                            path,
                            loc,
                            format!(
                                "`{mnemonic}` vop3 opcode {vop3:#x} is inconsistent with {} {base:#x}: family {} promotes by {offset:#x}, giving {:#x}",
                                e32.yaml(),
                                family_name.name(),
                                base + offset
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
                    instruction,
                    encoding,
                    op,
                });
            }
        }
    }
    out
}

/// A file's `forms:` entry for `instruction`.
fn form_entry(raw: &RawFile, instruction: Instruction) -> Option<&Spanned<RawEncodings>> {
    let forms = &raw.forms;
    match instruction {
        Instruction::FractF16 => forms.v_fract_f16.as_ref(),
        Instruction::FractF32 => forms.v_fract_f32.as_ref(),
        Instruction::FractF64 => forms.v_fract_f64.as_ref(),
        Instruction::LdexpF16 => forms.v_ldexp_f16.as_ref(),
        Instruction::LdexpF32 => forms.v_ldexp_f32.as_ref(),
        Instruction::LdexpF64 => forms.v_ldexp_f64.as_ref(),
    }
}
