//! Snapshots of emitted code: what the templates make of the real
//! `isa-spec/` for a few targets. Review changes with `cargo insta review`.

use amdgpu_valu_codegen::emit::{
    dispatch, family_encoding_static, family_spec_fn, pretty, target_encoding_statics,
    target_spec_static,
};
use amdgpu_valu_codegen::header::{input_hash, parse_header, render_header};
use amdgpu_valu_codegen::model::{FamilyModel, Model, TargetModel};
use amdgpu_valu_codegen::{load, workspace_root};

fn model() -> Model {
    load(&workspace_root()).unwrap_or_else(|e| panic!("{e}"))
}

fn target<'a>(m: &'a Model, name: &str) -> (&'a FamilyModel, &'a TargetModel) {
    let t = m.target(name).unwrap_or_else(|| panic!("{name} in model"));
    let f = m
        .family(t.family.as_str())
        .unwrap_or_else(|| panic!("{} in model", t.family));
    (f, t)
}

#[test]
fn gfx11_spec_fn_gives_every_setting_of_the_family_file() {
    let m = model();
    let f = m.family("gfx11").unwrap();
    let code = pretty("families/gfx11.rs", family_spec_fn(f, None)).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn gfx12_spec_and_encoding_are_gfx11s_with_what_its_file_changes() {
    let m = model();
    let f = m.family("gfx12").unwrap();
    let base = m.family("gfx11");
    let (spec, encoding) = (family_spec_fn(f, base), family_encoding_static(f, base));
    let code = pretty("families/gfx12.rs", quote::quote!(#spec #encoding)).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn gfx9_encoding_has_sdwa_and_op_sel() {
    let m = model();
    let f = m.family("gfx9").unwrap();
    let code = pretty("families/gfx9.rs", family_encoding_static(f, None)).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn gfx908_spec_changes_the_alignment_and_dpp() {
    let m = model();
    let (f, t) = target(&m, "gfx908");
    let code = pretty("gfx908.rs", target_spec_static(f, t)).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn gfx1150_spec_changes_only_the_dpp_src1_rule() {
    let m = model();
    let (f, t) = target(&m, "gfx1150");
    let (spec, encoding) = (target_spec_static(f, t), target_encoding_statics(f, t));
    let code = pretty("gfx1150.rs", quote::quote!(#spec #encoding)).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn gfx1250_encoding_is_gfx12_plus_literal64() {
    let m = model();
    let (f, t) = target(&m, "gfx1250");
    let code = pretty("gfx1250.rs", target_encoding_statics(f, t)).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn execute_sends_each_opcode_to_its_kernel() {
    let code = pretty("mod.rs", dispatch(&model())).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn header_round_trips_and_hash_is_stable() {
    let inputs = [
        ("isa-spec/families/gfx12.yaml", &b"family: gfx12\n"[..]),
        ("isa-spec/gfx1201.yaml", &b"target: gfx1201\n"[..]),
    ];
    let hash = input_hash(inputs);
    let header = render_header(
        &["isa-spec/families/gfx12.yaml", "isa-spec/gfx1201.yaml"],
        &hash,
    );
    insta::assert_snapshot!(header);
    assert_eq!(
        parse_header(&header),
        Some((
            vec!["isa-spec/families/gfx12.yaml", "isa-spec/gfx1201.yaml"],
            hash.as_str()
        ))
    );
    // Order matters and every byte counts.
    assert_ne!(input_hash([inputs[1], inputs[0]]), hash);
    assert_ne!(
        input_hash([
            inputs[0],
            ("isa-spec/gfx1201.yaml", &b"target: gfx1201 \n"[..])
        ]),
        hash
    );
}
