//! The instruction set is `isa-spec/instructions/valu.yaml`: a new instruction
//! of an existing shape is an entry there plus its opcodes in `forms:`, and
//! comes out in the generated `Opcode`, its descriptor, the dispatch and
//! the family tables; `forms:` keys must name an instruction of the set.

use std::path::Path;

use amdgpu_valu_codegen::model::Input;
use amdgpu_valu_codegen::GENERATED_DIR;
use amdgpu_valu_codegen::{build, check, read_inputs, regen, workspace_root, SpecError};

mod common;
use common::{copy_spec, read, TempRoot};

/// Insert `line` right after the `forms:` line of `path`.
fn add_form(root: &Path, path: &str, line: &str) {
    let text = read(root, path);
    assert!(text.contains("\nforms:\n"), "{path}");
    std::fs::write(
        root.join(path),
        text.replacen("\nforms:\n", &format!("\nforms:\n  {line}\n"), 1),
    )
    .unwrap();
}

const NEW_ENTRY: &str = "
  v_ldexp_twice_f32:
    operation: ldexp
    format: f32
    sources: [float, i32]
    e32: none
    sdwa: false
    doc: \"F32 src0 x 2^src1, a second LDEXP for this test\"
";

#[test]
fn a_new_instruction_of_an_existing_shape_is_yaml_only() {
    let root = TempRoot::new("amdgpu-valu-new-instruction");
    copy_spec(&root.0);
    let set = read(&root.0, "isa-spec/instructions/valu.yaml");
    std::fs::write(
        root.0.join("isa-spec/instructions/valu.yaml"),
        set.replacen("instructions:\n", &format!("instructions:{NEW_ENTRY}"), 1),
    )
    .unwrap();
    // Unused VOP3 opcodes next to each family's V_LDEXP_F32.
    for (family, op) in [
        ("gfx9", 0x289),
        ("gfx10", 0x363),
        ("gfx11", 0x31d),
        ("gfx12", 0x31d),
    ] {
        add_form(
            &root.0,
            &format!("isa-spec/families/{family}.yaml"),
            &format!("v_ldexp_twice_f32: {{vop3: {op:#x}}}"),
        );
    }

    let written = regen(&root.0).unwrap_or_else(|e| panic!("{e}"));
    assert!(check(&root.0).unwrap().is_empty());
    assert!(
        written
            .missing
            .contains(&format!("{GENERATED_DIR}/instructions.rs")),
        "{written:?}"
    );

    // The enum, first in file order, with its doc, and its descriptor.
    let instructions = read(&root.0, &format!("{GENERATED_DIR}/instructions.rs"));
    for text in [
        "/// V_LDEXP_TWICE_F32: F32 src0 x 2^src1, a second LDEXP for this test.\n    LdexpTwiceF32,\n    /// V_FRACT_F16",
        "pub const ALL: [Opcode; 29] = [\n        Opcode::LdexpTwiceF32,",
        "Opcode::LdexpTwiceF32 => {\n                &OpcodeInfo {\n                    mnemonic: \"v_ldexp_twice_f32\",\n                    operation: OperationKind::Ldexp,\n                    format: FormatKind::F32,\n                    sources: &[SourceType::F32, SourceType::I32],\n                    k_slot: None,\n                    accumulator: false,\n                    e32: None,\n                    sdwa: false,\n                }",
    ] {
        assert!(instructions.contains(text), "{text}\n---\n{instructions}");
    }
    // The dispatch sends it to the LDEXP kernel on F32.
    let mod_rs = read(&root.0, &format!("{GENERATED_DIR}/mod.rs"));
    assert!(
        mod_rs.contains("Opcode::LdexpTwiceF32 => exec::execute::<Ldexp, F32>(spec, wave, instr)"),
        "{mod_rs}"
    );
    // Each VOP3 form is written once, in `forms.rs` (GFX11 and GFX12 have
    // the same opcode: one entry for both), and in no family or target
    // module, which name the tables.
    let forms = read(&root.0, &format!("{GENERATED_DIR}/forms.rs"));
    for op in ["0x289", "0x363", "0x31d"] {
        let form = format!(
            "    Form {{\n        opcode: Opcode::LdexpTwiceF32,\n        encoding: Encoding::Vop3,\n        op: {op},\n    }}"
        );
        assert_eq!(forms.matches(&form).count(), 1, "{op}\n{forms}");
    }
    assert_eq!(forms.matches("LdexpTwiceF32").count(), 3, "{forms}");
    for module in [
        "families/gfx9",
        "families/gfx10",
        "families/gfx11",
        "families/gfx12",
        "gfx908",
        "gfx1030",
        "gfx1100",
        "gfx1201",
    ] {
        let text = read(&root.0, &format!("{GENERATED_DIR}/{module}.rs"));
        assert!(!text.contains("LdexpTwiceF32"), "{module}");
    }
}

fn inputs() -> Vec<Input> {
    read_inputs(&workspace_root()).unwrap_or_else(|e| panic!("{e}"))
}

/// The errors of building the real inputs with `path` edited by `edit`.
fn errors(path: &str, edit: impl Fn(&str) -> String) -> Vec<String> {
    let mut inputs = inputs();
    let input = inputs.iter_mut().find(|i| i.path == path).unwrap();
    input.text = edit(&input.text);
    match build(inputs) {
        Ok(_) => panic!("{path} was accepted"),
        Err(e) => e.iter().map(SpecError::to_string).collect(),
    }
}

/// Line and column (1-based) of the first `needle` in `path`'s text after
/// `edit`.
fn position(path: &str, edit: impl Fn(&str) -> String, needle: &str) -> (usize, usize) {
    let text = edit(&read(&workspace_root(), path));
    let at = text.find(needle).unwrap();
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

#[test]
fn a_forms_key_must_name_an_instruction_of_the_set() {
    let path = "isa-spec/gfx1030.yaml";
    let edit = |t: &str| format!("{t}\nforms:\n  v_fract_f17: {{vop1: 0x20, vop3: 0x1a0}}\n");
    let (line, col) = position(path, edit, "v_fract_f17");
    assert_eq!(
        errors(path, edit),
        [format!(
            "{path}:{line}:{col}: form `v_fract_f17`: no such instruction in isa-spec/instructions/valu.yaml"
        )]
    );
}

#[test]
fn a_not_modelled_instruction_cannot_have_forms() {
    let path = "isa-spec/families/gfx10.yaml";
    let edit = |t: &str| {
        t.replacen(
            "\nforms:\n",
            "\nforms:\n  v_mac_f32: {vop2: 0x1f, vop3: 0x11f}\n",
            1,
        )
    };
    let (line, col) = position(path, edit, "v_mac_f32");
    let e = errors(path, edit);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with(&format!(
            "{path}:{line}:{col}: form `v_mac_f32`: the instruction is listed as not modelled in isa-spec/instructions/valu.yaml (legacy unfused multiply-add"
        )),
        "{e:?}"
    );
}

#[test]
fn sources_must_fit_the_operation() {
    let path = "isa-spec/instructions/valu.yaml";
    let edit = |t: &str| t.replacen("sources: [float, i16]", "sources: [float, float]", 1);
    let (line, col) = position(path, edit, "[float, float]");
    assert_eq!(
        errors(path, edit),
        [format!(
            "{path}:{line}:{col}: `v_ldexp_f16`: operation `ldexp` reads [float, i16 | i32], not [float, float]"
        )]
    );
}

#[test]
fn an_unknown_operation_is_refused_with_its_position() {
    let path = "isa-spec/instructions/valu.yaml";
    let edit = |t: &str| t.replacen("operation: fract", "operation: divide", 1);
    let (line, col) = position(path, edit, "divide");
    let e = errors(path, edit);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with(&format!("{path}:{line}:{col}: ")), "{e:?}");
    assert!(e[0].contains("unknown variant `divide`"), "{e:?}");
}

#[test]
fn a_modelled_name_cannot_also_be_not_modelled() {
    let path = "isa-spec/instructions/valu.yaml";
    let edit = |t: &str| t.replacen("prefixes: [v_pk_]", "prefixes: [v_pk_, v_ldexp]", 1);
    let e = errors(path, edit);
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(
        e.iter()
            .all(|e| e.contains("also listed as not modelled (packed math")),
        "{e:?}"
    );
}
