//! Snapshots of emitted code: what the templates make of the real
//! `isa-spec/` for a few targets. Review changes with `cargo insta review`.

use amdgpu_valu_codegen::emit::{encoding_statics, execute_fn, pretty, spec_static};
use amdgpu_valu_codegen::header::{input_hash, parse_header, render_header};
use amdgpu_valu_codegen::model::{Model, TargetModel, TargetName};
use amdgpu_valu_codegen::{load, workspace_root};

fn model() -> Model {
    load(&workspace_root()).unwrap_or_else(|e| panic!("{e}"))
}

fn target(m: &Model, name: TargetName) -> &TargetModel {
    m.target(name)
        .unwrap_or_else(|| panic!("{name:?} in model"))
}

#[test]
fn gfx1201_execute_dispatches_vop1_vop2_vop3() {
    let m = model();
    let code = pretty("gfx1201.rs", execute_fn(target(&m, TargetName::Gfx1201))).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn gfx1030_execute_dispatches_sdwa_too() {
    let m = model();
    let code = pretty("gfx1030.rs", execute_fn(target(&m, TargetName::Gfx1030))).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn gfx908_spec_overrides_alignment_over_gfx9_defaults() {
    let m = model();
    let code = pretty("gfx908.rs", spec_static(target(&m, TargetName::Gfx908))).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn gfx1250_encoding_is_gfx12_plus_literal64() {
    let m = model();
    let code = pretty(
        "gfx1250.rs",
        encoding_statics(target(&m, TargetName::Gfx1250)),
    )
    .unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn gfx908_encoding_has_sdwa_and_no_op_sel() {
    let m = model();
    let code = pretty(
        "gfx908.rs",
        encoding_statics(target(&m, TargetName::Gfx908)),
    )
    .unwrap();
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
