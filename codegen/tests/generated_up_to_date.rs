//! `cargo test --workspace` fails, like `cargo xtask check`, when the
//! committed generated code does not match `isa-spec/`.

#[test]
fn generated_code_matches_isa_spec() {
    let drift = amdgpu_valu_codegen::check(&amdgpu_valu_codegen::workspace_root())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(drift.is_empty(), "{drift}");
}
