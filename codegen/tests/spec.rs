//! The validated model of the real `isa-spec/`, and strict parsing of
//! broken variants of it (each error names file:line:column).

use amdgpu_valu_codegen::model::{
    ClampNan, Encoding, Input, Model, Name, OmodGate, SdwaF16Output, SdwaReservedBits,
};
use amdgpu_valu_codegen::{build, read_inputs, workspace_root, SpecError};

fn inputs() -> Vec<Input> {
    read_inputs(&workspace_root()).unwrap_or_else(|e| panic!("{e}"))
}

fn model() -> Model {
    build(inputs()).unwrap_or_else(|e| panic!("{}", amdgpu_valu_codegen::Error::Spec(e)))
}

/// The real inputs with `path` replaced by `text`.
fn with_file(path: &str, text: &str) -> Vec<Input> {
    let mut inputs = inputs();
    inputs.retain(|i| i.path != path);
    inputs.push(Input {
        path: path.to_string(),
        text: text.to_string(),
    });
    inputs
}

/// The errors of building the real inputs with `path` replaced by `text`.
fn errors(path: &str, text: &str) -> Vec<String> {
    match build(with_file(path, text)) {
        Ok(_) => panic!("{path} was accepted:\n{text}"),
        Err(e) => e.iter().map(SpecError::to_string).collect(),
    }
}

const GFX1201: &str = "\
target: gfx1201
family: gfx12
description: RDNA4
policies:
  omod_gate: {value: always, hw: gfx1201}
";

#[test]
fn omod_gate_is_always_on_gfx1201_and_gated_on_gfx1100() {
    let m = model();
    let gfx1201 = m.target("gfx1201").unwrap();
    let gfx1100 = m.target("gfx1100").unwrap();
    assert_eq!(gfx1201.spec.omod_gate.value, OmodGate::Always);
    assert_eq!(gfx1201.spec.omod_gate.evidence.tag(), "hw");
    assert_eq!(gfx1201.spec.clamp_nan.value, ClampNan::AlwaysZero);
    assert_eq!(gfx1100.spec.omod_gate.value, OmodGate::IeeeAndOutputDenorm);
    assert_eq!(gfx1100.spec.clamp_nan.value, ClampNan::Dx10Clamp);
}

#[test]
fn sdwa_targets_use_rounded_f16_output_and_have_every_sdwa_form() {
    let m = model();
    for t in &m.targets {
        let sdwa: Vec<&str> = t
            .spec
            .forms
            .iter()
            .filter(|f| f.encoding == Encoding::Sdwa)
            .map(|f| f.instruction.mnemonic())
            .collect();
        if t.spec.sdwa.value {
            assert_eq!(
                t.spec.sdwa_f16_output.as_ref().map(|s| s.value),
                Some(SdwaF16Output::Rounded),
                "{:?}",
                t.target
            );
            assert_eq!(
                sdwa,
                [
                    "v_fract_f16",
                    "v_fract_f32",
                    "v_ldexp_f16",
                    "v_add_f16",
                    "v_add_f32",
                    "v_sub_f16",
                    "v_sub_f32",
                    "v_subrev_f16",
                    "v_subrev_f32",
                    "v_mul_f16",
                    "v_mul_f32"
                ],
                "{:?}",
                t.target
            );
        } else {
            assert!(t.spec.sdwa_f16_output.is_none(), "{:?}", t.target);
            assert!(sdwa.is_empty(), "{:?}", t.target);
        }
    }
}

#[test]
fn no_sdwa_on_gfx11_and_gfx12() {
    let m = model();
    for name in ["gfx1100", "gfx1150", "gfx1201", "gfx1250"] {
        let t = m.target(name).unwrap();
        assert!(!t.spec.sdwa.value, "{name:?}");
        assert!(t.spec.true16.value, "{name:?}");
        assert!(
            t.spec.forms.iter().all(|f| f.encoding != Encoding::Sdwa),
            "{name:?}"
        );
    }
}

/// The forms table of docs/semantics.md §1, as llvm-mc 22 accepts the
/// forms: per instruction, one entry per target in `TARGETS` order.
/// Letters: 1 = VOP1, 2 = VOP2 (`_e32`), 3 = VOP3 (`_e64`), S = SDWA,
/// D = DPP16 and 8 = DPP8 on the e32 word, P = DPP16 and Q = DPP8 on the
/// VOP3 word (`_e64_dpp`); `-`: not on the target.
const TARGETS: [&str; 10] = [
    "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1150", "gfx1201",
    "gfx1250",
];
const FORMS_TABLE: &[(&str, [&str; 10])] = &[
    (
        "v_fract_f16",
        [
            "13SD", "13SD", "13SD", "13SD", "13SD8", "13SD8", "13D8PQ", "13D8PQ", "13D8PQ",
            "13D8PQ",
        ],
    ),
    (
        "v_fract_f32",
        [
            "13SD", "13SD", "13SD", "13SD", "13SD8", "13SD8", "13D8PQ", "13D8PQ", "13D8PQ",
            "13D8PQ",
        ],
    ),
    (
        "v_fract_f64",
        [
            "13", "13D", "13D", "13D", "13", "13", "13", "13", "13", "13",
        ],
    ),
    (
        "v_ldexp_f16",
        [
            "23SD", "23SD", "23SD", "23SD", "23SD8", "23SD8", "23D8PQ", "23D8PQ", "23D8PQ",
            "23D8PQ",
        ],
    ),
    (
        "v_ldexp_f32",
        ["3", "3", "3", "3", "3", "3", "3PQ", "3PQ", "3PQ", "3PQ"],
    ),
    (
        "v_ldexp_f64",
        ["3", "3", "3", "3", "3", "3", "3", "3", "3", "3"],
    ),
    (
        "v_add_f16",
        [
            "23SD", "23SD", "23SD", "23SD", "23SD8", "23SD8", "23D8PQ", "23D8PQ", "23D8PQ",
            "23D8PQ",
        ],
    ),
    (
        "v_add_f32",
        [
            "23SD", "23SD", "23SD", "23SD", "23SD8", "23SD8", "23D8PQ", "23D8PQ", "23D8PQ",
            "23D8PQ",
        ],
    ),
    (
        "v_add_f64",
        ["3", "3", "3", "3", "3", "3", "3", "3", "23", "23"],
    ),
    (
        "v_sub_f16",
        [
            "23SD", "23SD", "23SD", "23SD", "23SD8", "23SD8", "23D8PQ", "23D8PQ", "23D8PQ",
            "23D8PQ",
        ],
    ),
    (
        "v_sub_f32",
        [
            "23SD", "23SD", "23SD", "23SD", "23SD8", "23SD8", "23D8PQ", "23D8PQ", "23D8PQ",
            "23D8PQ",
        ],
    ),
    (
        "v_subrev_f16",
        [
            "23SD", "23SD", "23SD", "23SD", "23SD8", "23SD8", "23D8PQ", "23D8PQ", "23D8PQ",
            "23D8PQ",
        ],
    ),
    (
        "v_subrev_f32",
        [
            "23SD", "23SD", "23SD", "23SD", "23SD8", "23SD8", "23D8PQ", "23D8PQ", "23D8PQ",
            "23D8PQ",
        ],
    ),
    (
        "v_mul_f16",
        [
            "23SD", "23SD", "23SD", "23SD", "23SD8", "23SD8", "23D8PQ", "23D8PQ", "23D8PQ",
            "23D8PQ",
        ],
    ),
    (
        "v_mul_f32",
        [
            "23SD", "23SD", "23SD", "23SD", "23SD8", "23SD8", "23D8PQ", "23D8PQ", "23D8PQ",
            "23D8PQ",
        ],
    ),
    (
        "v_mul_f64",
        ["3", "3", "3", "3", "3", "3", "3", "3", "23", "23"],
    ),
    (
        "v_fma_f16",
        ["3", "3", "3", "3", "3", "3", "3PQ", "3PQ", "3PQ", "3PQ"],
    ),
    (
        "v_fma_f32",
        ["3", "3", "3", "3", "3", "3", "3PQ", "3PQ", "3PQ", "3PQ"],
    ),
    (
        "v_fma_f64",
        ["3", "3", "3", "3", "3", "3", "3", "3", "3", "3"],
    ),
    (
        "v_fmac_f16",
        [
            "-", "-", "-", "-", "23D8", "23D8", "23D8PQ", "23D8PQ", "23D8PQ", "23D8PQ",
        ],
    ),
    (
        "v_fmac_f32",
        [
            "23D", "23D", "23D", "23D", "23D8", "23D8", "23D8PQ", "23D8PQ", "23D8PQ", "23D8PQ",
        ],
    ),
    (
        "v_fmac_f64",
        ["-", "23D", "23D", "23D", "-", "-", "-", "-", "-", "23"],
    ),
    (
        "v_fmamk_f16",
        ["-", "-", "-", "-", "2", "2", "2", "2", "2", "2"],
    ),
    (
        "v_fmamk_f32",
        ["-", "-", "2", "2", "2", "2", "2", "2", "2", "2"],
    ),
    (
        "v_fmamk_f64",
        ["-", "-", "-", "-", "-", "-", "-", "-", "-", "2"],
    ),
    (
        "v_fmaak_f16",
        ["-", "-", "-", "-", "2", "2", "2", "2", "2", "2"],
    ),
    (
        "v_fmaak_f32",
        ["-", "-", "2", "2", "2", "2", "2", "2", "2", "2"],
    ),
    (
        "v_fmaak_f64",
        ["-", "-", "-", "-", "-", "-", "-", "-", "-", "2"],
    ),
];

#[test]
fn every_target_has_every_form_of_the_forms_table() {
    let m = model();
    let names: Vec<&str> = m.targets.iter().map(|t| t.target.as_str()).collect();
    assert_eq!(names, TARGETS);
    let mnemonics: Vec<&str> = m
        .instructions
        .instructions
        .iter()
        .map(|i| i.mnemonic())
        .collect();
    let table: Vec<&str> = FORMS_TABLE.iter().map(|(m, _)| *m).collect();
    assert_eq!(mnemonics, table);
    for (column, t) in m.targets.iter().enumerate() {
        for (mnemonic, row) in FORMS_TABLE {
            let mut letters = String::new();
            for f in t
                .spec
                .forms
                .iter()
                .filter(|f| f.instruction.mnemonic() == *mnemonic)
            {
                letters.push(match f.encoding {
                    Encoding::Vop1 => '1',
                    Encoding::Vop2 => '2',
                    Encoding::Vop3 => '3',
                    Encoding::Sdwa => 'S',
                });
            }
            // DPP letters in table order.
            for (letter, base_e64, dpp8) in [
                ('D', false, false),
                ('8', false, true),
                ('P', true, false),
                ('Q', true, true),
            ] {
                if t.spec.dpp_forms.iter().any(|f| {
                    f.instruction.mnemonic() == *mnemonic
                        && (f.encoding == Encoding::Vop3) == base_e64
                        && f.dpp8 == dpp8
                }) {
                    letters.push(letter);
                }
            }
            if letters.is_empty() {
                letters.push('-');
            }
            assert_eq!(letters, row[column], "{mnemonic} on {:?}", t.target);
        }
    }
}

#[test]
fn unknown_field_names_file_line_column() {
    let text = format!("{GFX1201}  bogus: 1\n");
    let e = errors("isa-spec/gfx1201.yaml", &text);
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:6:3: "), "{e:?}");
    assert!(e[0].contains("bogus"), "{e:?}");
}

#[test]
fn duplicate_key_names_file_line_column() {
    let text = format!("{GFX1201}  omod_gate: {{value: always, hw: gfx1201}}\n");
    let e = errors("isa-spec/gfx1201.yaml", &text);
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:6:3: "), "{e:?}");
    assert!(e[0].contains("duplicate"), "{e:?}");
}

#[test]
fn unknown_target_names_file_line_column() {
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &GFX1201.replace("target: gfx1201", "target: gfx1301"),
    );
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:1:9: "), "{e:?}");
    assert!(e[0].contains("gfx1301"), "{e:?}");
}

#[test]
fn unknown_policy_value_names_file_line_column() {
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &GFX1201.replace("value: always,", "value: sometimes,"),
    );
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:5:"), "{e:?}");
    assert!(e[0].contains("sometimes"), "{e:?}");
}

#[test]
fn sdwa_form_on_a_target_without_sdwa_is_an_error() {
    let text = format!("{GFX1201}forms:\n  v_fract_f16: {{vop1: 0x5f, vop3: 0x1df, sdwa: 0x5f}}\n");
    let e = errors("isa-spec/gfx1201.yaml", &text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:7:"), "{e:?}");
    assert!(e[0].contains("`sdwa: false`"), "{e:?}");
}

#[test]
fn missing_form_is_an_error() {
    let family =
        std::fs::read_to_string(workspace_root().join("isa-spec/families/gfx11.yaml")).unwrap();
    let text: String = family
        .lines()
        .filter(|l| !l.contains("v_ldexp_f64"))
        .map(|l| format!("{l}\n"))
        .collect();
    let e = errors("isa-spec/families/gfx11.yaml", &text);
    // GFX12 extends GFX11 and gives no `v_ldexp_f64` of its own.
    assert_eq!(
        e,
        [
            "isa-spec/families/gfx11.yaml: form `v_ldexp_f64` is missing",
            "isa-spec/families/gfx12.yaml: form `v_ldexp_f64` is missing"
        ]
    );
}

#[test]
fn a_dpp_base_listed_twice_is_an_error() {
    // Each DPP form is one table entry: e32 twice would be the same form twice.
    let text =
        format!("{GFX1201}forms:\n  v_fract_f32: {{vop1: 0x20, vop3: 0x1a0, dpp16: [e32, e32]}}\n");
    let e = errors("isa-spec/gfx1201.yaml", &text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:7:"), "{e:?}");
    assert!(
        e[0].contains("`v_fract_f32` dpp16: e32 is listed twice"),
        "{e:?}"
    );
}

#[test]
fn inconsistent_vop3_opcode_is_an_error() {
    let text = format!("{GFX1201}forms:\n  v_fract_f32: {{vop1: 0x20, vop3: 0x1a1}}\n");
    let e = errors("isa-spec/gfx1201.yaml", &text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:7:"), "{e:?}");
    assert!(
        e[0].contains("`vop3_opcode_offset` (isa-spec/families/gfx11.yaml) is 0x180, giving 0x1a0"),
        "{e:?}"
    );
}

#[test]
fn unknown_family_is_an_error() {
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &GFX1201.replace("family: gfx12", "family: gfx13"),
    );
    assert_eq!(
        e,
        ["isa-spec/gfx1201.yaml:2:9: no family file isa-spec/families/gfx13.yaml (families: gfx9, gfx10, gfx11, gfx12)"]
    );
}

#[test]
fn policy_without_evidence_is_an_error() {
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &GFX1201.replace(", hw: gfx1201", ""),
    );
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:5:"), "{e:?}");
    assert!(e[0].contains("no evidence"), "{e:?}");
}

#[test]
fn gated_omod_without_ieee_bit_is_an_error() {
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &GFX1201.replace("value: always,", "value: ieee_and_output_denorm,"),
    );
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:5:"), "{e:?}");
    assert!(e[0].contains("ieee_dx10_bits: false"), "{e:?}");
}

#[test]
fn a_target_file_without_its_family_file_is_an_error() {
    let mut inputs = inputs();
    inputs.retain(|i| i.path != "isa-spec/families/gfx11.yaml");
    let e: Vec<String> = build(inputs)
        .unwrap_err()
        .iter()
        .map(SpecError::to_string)
        .collect();
    assert_eq!(
        e,
        [
            "isa-spec/families/gfx12.yaml:12:7: `base: gfx11`: no family file isa-spec/families/gfx11.yaml (families: gfx9, gfx10, gfx12)",
            "isa-spec/gfx1100.yaml:3:9: no family file isa-spec/families/gfx11.yaml (families: gfx9, gfx10, gfx12)",
            "isa-spec/gfx1150.yaml:3:9: no family file isa-spec/families/gfx11.yaml (families: gfx9, gfx10, gfx12)"
        ]
    );
}

#[test]
fn a_family_file_without_targets_is_an_error() {
    let mut inputs = inputs();
    inputs.retain(|i| i.path != "isa-spec/gfx1100.yaml" && i.path != "isa-spec/gfx1150.yaml");
    let e: Vec<String> = build(inputs)
        .unwrap_err()
        .iter()
        .map(SpecError::to_string)
        .collect();
    assert_eq!(
        e,
        ["isa-spec/families/gfx11.yaml: family gfx11 has no target file (isa-spec/<target>.yaml with `family: gfx11`)"]
    );
}

#[test]
fn a_family_with_a_broken_base_and_no_target_gets_both_errors() {
    // gfx12 extends a family that does not exist, and its targets
    // (gfx1201, gfx1250) are gone: each fault is reported, the first not
    // hiding the second.
    let path = "isa-spec/families/gfx12.yaml";
    let text = std::fs::read_to_string(workspace_root().join(path)).unwrap();
    let mut inputs = with_file(path, &text.replace("base: gfx11", "base: gfx13"));
    inputs.retain(|i| i.path != "isa-spec/gfx1201.yaml" && i.path != "isa-spec/gfx1250.yaml");
    let mut e: Vec<String> = build(inputs)
        .unwrap_err()
        .iter()
        .map(SpecError::to_string)
        .collect();
    e.sort();
    assert_eq!(
        e,
        [
            "isa-spec/families/gfx12.yaml: family gfx12 has no target file (isa-spec/<target>.yaml with `family: gfx12`)",
            "isa-spec/families/gfx12.yaml:12:7: `base: gfx13`: no family file isa-spec/families/gfx13.yaml (families: gfx9, gfx10, gfx11, gfx12)"
        ]
    );
}

#[test]
fn a_target_file_cannot_change_a_family_fact() {
    let text = format!("{GFX1201}facts:\n  sdwa: {{value: true, doc: x}}\n");
    let e = errors("isa-spec/gfx1201.yaml", &text);
    assert_eq!(
        e,
        ["isa-spec/gfx1201.yaml:7:3: `facts` are the family's: give them in isa-spec/families/gfx12.yaml"]
    );
}

#[test]
fn a_missing_fact_is_an_error() {
    let (path, text) = family_without("gfx10", "  vop3_literal:");
    let e = errors(&path, &text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with(&format!("{path}:")), "{e:?}");
    assert!(e[0].ends_with("fact `vop3_literal` is missing"), "{e:?}");
}

#[test]
fn a_family_file_must_give_every_setting() {
    let (path, text) = family_without("gfx10", "  snan:");
    let e = errors(&path, &text);
    assert_eq!(e, [format!("{path}: policy `snan` is missing")]);
}

#[test]
fn a_fact_without_evidence_is_an_error() {
    let path = "isa-spec/families/gfx9.yaml";
    let text = std::fs::read_to_string(workspace_root().join(path))
        .unwrap()
        .replace(
            "constant_bus_limit: {value: 1, doc:",
            "constant_bus_limit: {value: 1, hw: gfx908, doc:",
        );
    let e = errors(path, &text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("constant_bus_limit: more than one evidence tag"),
        "{e:?}"
    );
}

#[test]
fn names_must_be_llvm_processor_names() {
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &GFX1201.replace("target: gfx1201", "target: Gfx1201"),
    );
    assert_eq!(
        e,
        ["isa-spec/gfx1201.yaml:1:9: `Gfx1201` is not a valid target name: `gfx`, a digit, then digits and lowercase letters"]
    );
    assert!(Name::parse("gfx90a").is_some());
    for bad in ["gfx", "gfxa", "gfx9-1", "gfx9_1", "rdna4", "gfx12 "] {
        assert!(Name::parse(bad).is_none(), "{bad}");
    }
}

#[test]
fn names_order_by_generation() {
    let mut names: Vec<Name> = [
        "gfx1250", "gfx90a", "gfx1151", "gfx908", "gfx1010", "gfx950",
    ]
    .iter()
    .filter_map(|n| Name::parse(n))
    .collect();
    names.sort();
    let names: Vec<&str> = names.iter().map(Name::as_str).collect();
    assert_eq!(
        names,
        ["gfx908", "gfx90a", "gfx950", "gfx1010", "gfx1151", "gfx1250"]
    );
}

/// A family file with the one line starting with `line` removed.
fn family_without(family: &str, line: &str) -> (String, String) {
    let path = format!("isa-spec/families/{family}.yaml");
    let text = std::fs::read_to_string(workspace_root().join(&path)).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with(line)).count(), 1);
    let text = text
        .lines()
        .filter(|l| !l.starts_with(line))
        .map(|l| format!("{l}\n"))
        .collect();
    (path, text)
}

/// Every policy value the executor cannot honour is refused, at its line.
#[test]
fn values_the_executor_cannot_honour_are_errors() {
    // A true16 target writes register halves: zeroing the other half of an
    // F16 result is not something it does.
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &format!("{GFX1201}  f16_dst_high: {{value: zero, doc: x}}\n"),
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:6:"), "{e:?}");
    assert!(
        e[0].contains("`f16_dst_high: zero` on a true16 target"),
        "{e:?}"
    );
    // Keeping sNaNs with IEEE = 0 needs the IEEE bit.
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &format!("{GFX1201}  snan: {{value: keep_when_ieee_off, doc: x}}\n"),
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:6:"), "{e:?}");
    assert!(e[0].contains("ieee_dx10_bits: false"), "{e:?}");
    // SDWA policies on a target without SDWA.
    for line in [
        "sdwa_f16_output: {value: scaled_before_rounding, doc: x}",
        "sdwa_f16_dword_dst: {value: preserve_high, doc: x}",
        "sdwa_constant_sel: {value: applied, doc: x}",
        "sdwa_reserved_bits: {value: error, doc: x}",
    ] {
        let e = errors("isa-spec/gfx1201.yaml", &format!("{GFX1201}  {line}\n"));
        assert_eq!(e.len(), 1, "{line}: {e:?}");
        assert!(e[0].starts_with("isa-spec/gfx1201.yaml:6:"), "{e:?}");
        assert!(e[0].contains("`sdwa: false`"), "{e:?}");
    }
}

/// The SDWA open points are switches tagged `open`, and a family with SDWA
/// must give each.
#[test]
fn sdwa_open_points_are_open_switches() {
    let m = model();
    for t in m.targets.iter().filter(|t| t.spec.sdwa.value) {
        let dword = t.spec.sdwa_f16_dword_dst.as_ref().expect("dword switch");
        let constant = t.spec.sdwa_constant_sel.as_ref().expect("constant switch");
        let reserved = t.spec.sdwa_reserved_bits.as_ref().expect("reserved switch");
        assert_eq!(dword.evidence.tag(), "open", "{:?}", t.target);
        assert_eq!(constant.evidence.tag(), "open", "{:?}", t.target);
        assert_eq!(reserved.evidence.tag(), "open", "{:?}", t.target);
    }
    for line in [
        "  sdwa_f16_dword_dst:",
        "  sdwa_constant_sel:",
        "  sdwa_reserved_bits:",
    ] {
        let (path, text) = family_without("gfx9", line);
        let e = errors(&path, &text);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("(the family has SDWA)"), "{e:?}");
    }
}

/// `sdwa_reserved_bits` takes `ignored` or `error` only, and a target may
/// flip it (the family gives the default).
#[test]
fn sdwa_reserved_bits_values() {
    let head = "target: gfx1030\nfamily: gfx10\ndescription: RDNA2\npolicies:\n";
    let text = format!("{head}  sdwa_reserved_bits: {{value: applied, open: x}}\n");
    let e = errors("isa-spec/gfx1030.yaml", &text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("isa-spec/gfx1030.yaml:5:"), "{e:?}");
    assert!(e[0].contains("ignored") && e[0].contains("error"), "{e:?}");
    let text = format!("{head}  sdwa_reserved_bits: {{value: error, open: x}}\n");
    let m = build(with_file("isa-spec/gfx1030.yaml", &text)).expect("error is a value");
    let t = m.target("gfx1030").unwrap();
    let s = t.spec.sdwa_reserved_bits.as_ref().expect("switch");
    assert_eq!(s.value, SdwaReservedBits::Error);
}

/// The DPP forms per target are those of the DPP forms table
/// (docs/semantics.md §11.1): e32 DPP16 everywhere, DPP8 from GFX10, e64
/// DPP from GFX11, F64 DPP only on gfx90a/gfx942/gfx950 (row_newbcast),
/// LDEXP_F32 only in e64, LDEXP_F64 never.
#[test]
fn dpp_forms_follow_the_forms_table() {
    let m = model();
    let forms = |t: &str| -> Vec<String> {
        let t = m.targets.iter().find(|x| x.target.as_str() == t).unwrap();
        t.spec
            .dpp_forms
            .iter()
            // The arithmetic forms: every_target_has_every_form_of_the_forms_table.
            .filter(|f| {
                f.instruction.mnemonic().starts_with("v_fract")
                    || f.instruction.mnemonic().starts_with("v_ldexp")
            })
            .map(|f| {
                format!(
                    "{} {} {}",
                    f.instruction.mnemonic(),
                    if f.encoding == Encoding::Vop3 {
                        "e64"
                    } else {
                        "e32"
                    },
                    if f.dpp8 { "dpp8" } else { "dpp16" }
                )
            })
            .collect()
    };
    assert_eq!(
        forms("gfx908"),
        [
            "v_fract_f16 e32 dpp16",
            "v_fract_f32 e32 dpp16",
            "v_ldexp_f16 e32 dpp16"
        ]
    );
    for t in ["gfx90a", "gfx942", "gfx950"] {
        assert_eq!(
            forms(t),
            [
                "v_fract_f16 e32 dpp16",
                "v_fract_f32 e32 dpp16",
                "v_fract_f64 e32 dpp16",
                "v_ldexp_f16 e32 dpp16"
            ],
            "{t}"
        );
    }
    for t in ["gfx1010", "gfx1030"] {
        assert_eq!(forms(t).len(), 6, "{t}: {:?}", forms(t));
        assert!(forms(t).iter().all(|f| f.contains("e32")), "{t}");
    }
    for t in ["gfx1100", "gfx1150", "gfx1201", "gfx1250"] {
        let f = forms(t);
        assert_eq!(f.len(), 14, "{t}: {f:?}");
        assert!(f.contains(&"v_ldexp_f32 e64 dpp8".to_string()), "{t}");
        assert!(!f.iter().any(|f| f.contains("f64")), "{t}");
        assert!(!f.iter().any(|f| f.starts_with("v_ldexp_f32 e32")), "{t}");
    }
    // The open points are open switches with the stated defaults.
    for t in &m.targets {
        let d = &t.spec.dpp;
        assert_eq!(d.zero_fill.evidence.tag(), "open", "{:?}", t.target);
        assert_eq!(d.reserved_ctrl.evidence.tag(), "open", "{:?}", t.target);
        assert_eq!(d.reserved_bits.evidence.tag(), "open", "{:?}", t.target);
        assert_eq!(d.mixed_halves.is_some(), t.spec.true16.value);
    }
}

/// DPP entries the executor could not honour, or that contradict the
/// layouts, are refused at their line.
#[test]
fn dpp_entries_that_mean_nothing_are_errors() {
    // Mixed halves on a target without true16 halves.
    let gfx1030 = std::fs::read_to_string(workspace_root().join("isa-spec/gfx1030.yaml")).unwrap();
    let e = errors(
        "isa-spec/gfx1030.yaml",
        &format!("{gfx1030}dpp:\n  mixed_halves: {{value: error, doc: x}}\n"),
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("`dpp.mixed_halves` given"), "{e:?}");
    // bcast_low_rows without row_bcast.
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &format!("{GFX1201}dpp:\n  bcast_low_rows: {{value: own_lane, doc: x}}\n"),
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("isa-spec/gfx1201.yaml:7:"), "{e:?}");
    // FI on a family without the FI field and DPP8 layout.
    let gfx908 = std::fs::read_to_string(workspace_root().join("isa-spec/gfx908.yaml")).unwrap();
    let e = errors(
        "isa-spec/gfx908.yaml",
        &gfx908.replace("dpp:\n", "dpp:\n  fi: {value: true, doc: x}\n"),
    );
    assert!(e.iter().any(|e| e.contains("`dpp.fi` must agree")), "{e:?}");
    // An F64 DPP form with no F64 controls.
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &format!("{GFX1201}forms:\n  v_fract_f64: {{vop1: 0x3e, vop3: 0x1be, dpp16: [e32]}}\n"),
    );
    assert!(
        e.iter()
            .any(|e| e.contains("`dpp.f64_controls` must be empty exactly")),
        "{e:?}"
    );
    // A DPP base the instruction lacks.
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &format!("{GFX1201}forms:\n  v_ldexp_f32: {{vop3: 0x31c, dpp16: [e32]}}\n"),
    );
    assert!(
        e.iter().any(|e| e.contains("has no e32 form to carry DPP")),
        "{e:?}"
    );
    // An unknown control kind.
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &format!("{GFX1201}dpp:\n  controls: {{value: [row_rol], doc: x}}\n"),
    );
    assert!(
        e.iter()
            .any(|e| e.contains("unknown DPP control kind `row_rol`")),
        "{e:?}"
    );
    // A missing DPP entry in a family file.
    let (path, text) = family_without("gfx11", "  zero_fill:");
    let e = errors(&path, &text);
    assert!(
        e.iter().any(|e| e.contains("`dpp.zero_fill` is missing")),
        "{e:?}"
    );
}

/// A family file with `base:` takes every entry it does not give from
/// the family it extends, with that file as the entry's origin.
#[test]
fn a_family_takes_what_it_does_not_give_from_its_base() {
    let m = model();
    let gfx11 = &m.family("gfx11").unwrap().defaults;
    let gfx12 = m.family("gfx12").unwrap();
    assert_eq!(
        gfx12.inputs,
        [
            "isa-spec/families/gfx11.yaml",
            "isa-spec/families/gfx12.yaml"
        ]
    );
    // Not given in gfx12.yaml: GFX11's value, written in gfx11.yaml.
    assert_eq!(
        gfx12.facts.true16.origin.file,
        "isa-spec/families/gfx11.yaml"
    );
    assert_eq!(gfx12.defaults.sub_nan, gfx11.sub_nan);
    assert_eq!(gfx12.defaults.encoding.vop3, gfx11.encoding.vop3);
    // Given in gfx12.yaml: its own, with its own evidence.
    assert_eq!(gfx12.defaults.omod_gate.value, OmodGate::Always);
    assert_eq!(gfx11.omod_gate.value, OmodGate::IeeeAndOutputDenorm);
    assert_eq!(
        gfx12.defaults.tininess.origin.file,
        "isa-spec/families/gfx12.yaml"
    );
    // A `forms:` entry replaces the base's entry for that instruction only:
    // v_add_f64 is VOP2 0x02 on GFX12 (llvm-mc 22), VOP3 only on GFX11.
    let vop2_add_f64 = |spec: &amdgpu_valu_codegen::model::Spec| {
        spec.forms
            .iter()
            .filter(|f| f.instruction.mnemonic() == "v_add_f64" && f.encoding == Encoding::Vop2)
            .map(|f| f.op)
            .collect::<Vec<_>>()
    };
    assert_eq!(vop2_add_f64(&gfx12.defaults), [0x02]);
    assert_eq!(vop2_add_f64(gfx11), Vec::<u16>::new());
    assert_eq!(gfx12.defaults.forms.len(), gfx11.forms.len() + 2);
    // A target of GFX12 is generated from all three files.
    assert_eq!(
        m.target("gfx1201").unwrap().inputs,
        [
            "isa-spec/families/gfx11.yaml",
            "isa-spec/families/gfx12.yaml",
            "isa-spec/gfx1201.yaml"
        ]
    );
}

#[test]
fn an_unknown_or_circular_base_is_an_error() {
    let path = "isa-spec/families/gfx12.yaml";
    let text = std::fs::read_to_string(workspace_root().join(path)).unwrap();
    let e = errors(path, &text.replace("base: gfx11", "base: gfx13"));
    assert_eq!(
        e,
        ["isa-spec/families/gfx12.yaml:12:7: `base: gfx13`: no family file isa-spec/families/gfx13.yaml (families: gfx9, gfx10, gfx11, gfx12)"]
    );
    // gfx11 extending gfx12, which extends gfx11.
    let path = "isa-spec/families/gfx11.yaml";
    let text = std::fs::read_to_string(workspace_root().join(path)).unwrap();
    let e = errors(
        path,
        &text.replace("family: gfx11\n", "family: gfx11\nbase: gfx12\n"),
    );
    assert_eq!(
        e,
        [
            "isa-spec/families/gfx12.yaml:12:7: `base: gfx11` makes a cycle: gfx11 -> gfx12 -> gfx11",
            "isa-spec/families/gfx11.yaml:7:7: `base: gfx12` makes a cycle: gfx12 -> gfx11 -> gfx12"
        ]
    );
}

#[test]
fn base_is_for_family_files_and_facts_may_come_from_it() {
    let e = errors(
        "isa-spec/gfx1201.yaml",
        &GFX1201.replace("family: gfx12\n", "family: gfx12\nbase: gfx11\n"),
    );
    assert_eq!(
        e,
        ["isa-spec/gfx1201.yaml:3:7: `base` is a family file's: a target file names its family with `family:`"]
    );
    // gfx12.yaml gives no facts; without its base it has none.
    let path = "isa-spec/families/gfx12.yaml";
    let text = std::fs::read_to_string(workspace_root().join(path)).unwrap();
    assert!(!text.contains("\nfacts:"));
    let e = errors(path, &text.replace("base: gfx11\n", ""));
    assert!(
        e.iter().any(|e| e.starts_with(
            "isa-spec/families/gfx12.yaml: `facts` is missing: a family file gives true16"
        )),
        "{e:?}"
    );
}
