//! Adding a target is one YAML file: in a temporary copy of `isa-spec/`, a
//! copy of `gfx1150.yaml` renamed to gfx1151 yields a `gfx1151` module and
//! a `Target::Gfx1151` entry, and nothing else changes but the lists.

use amdgpu_valu_codegen::{check, regen, GENERATED_DIR};

mod common;
use common::{copy_spec, read, TempRoot};

/// The text after the three header lines.
fn body(text: &str) -> String {
    text.lines().skip(3).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_new_target_file_yields_its_module_and_enum_entry() {
    let root = TempRoot::new("amdgpu-valu-new-target");
    copy_spec(&root.0);
    let gfx1150 = read(&root.0, "isa-spec/gfx1150.yaml");
    assert!(gfx1150.contains("target: gfx1150\n"));
    std::fs::write(
        root.0.join("isa-spec/gfx1151.yaml"),
        gfx1150.replace("target: gfx1150", "target: gfx1151"),
    )
    .unwrap();

    let written = regen(&root.0).unwrap_or_else(|e| panic!("{e}"));
    let module = format!("{GENERATED_DIR}/gfx1151.rs");
    assert!(written.missing.contains(&module), "{written:?}");
    assert!(check(&root.0).unwrap().is_empty());

    // The module is gfx1150's with the name changed.
    let new = body(&read(&root.0, &module));
    let old = body(&read(&root.0, &format!("{GENERATED_DIR}/gfx1150.rs")));
    assert_eq!(
        new,
        old.replace("gfx1150", "gfx1151")
            .replace("Gfx1150", "Gfx1151")
    );
    assert!(new.contains("gfx11::spec(Target::Gfx1151)"), "{new}");

    // mod.rs: the module, the enum entry in generation order, its name.
    let mod_rs = read(&root.0, &format!("{GENERATED_DIR}/mod.rs"));
    for line in [
        "pub mod gfx1151;",
        "    /// gfx1151: RDNA3.5 (GFX11).\n    Gfx1151,\n",
        "Target::Gfx1151 => \"gfx1151\",",
        "Target::Gfx1151 => &gfx1151::SPEC,",
        "Target::Gfx1151 => &gfx1151::ENCODING,",
        "gfx1100, gfx1150, gfx1151, gfx1201",
        "/// GFX11: gfx1100 (RDNA3), gfx1150 (RDNA3.5), gfx1151 (RDNA3.5).",
    ] {
        assert!(mod_rs.contains(line), "{line:?} not in mod.rs:\n{mod_rs}");
    }
    let order = |v: &str| mod_rs.find(&format!("    {v},\n")).unwrap();
    assert!(order("Gfx1150") < order("Gfx1151") && order("Gfx1151") < order("Gfx1201"));
    assert!(
        mod_rs.contains("pub const ALL: [Target; 11] = ["),
        "{mod_rs}"
    );
    assert!(read(&root.0, "isa-spec/EVIDENCE.md").contains("| gfx1151 |"));
}
