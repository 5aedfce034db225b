//! Mnemonics llvm-mc 22 knows that the emulator does not model
//! (`isa-spec/instructions/valu.yaml`, `not_modelled`) are refused by name, with
//! the reason, at the mnemonic's column; any other unknown mnemonic keeps
//! LLVM's "invalid instruction".

use std::process::Command;

use amdgpu_valu::{asm, Target};

/// Each line parses and assembles to the not-modelled error naming
/// `name`, at column `col`, on every target (llvm-mc 22 accepts each of
/// these lines on at least one target).
fn refused(line: &str, name: &str, col: usize) -> String {
    let mut reason = None;
    for t in Target::ALL {
        let e = asm::parse(t, line).unwrap_err();
        assert_eq!(e.column, col, "{t} {line}: {e}");
        assert!(
            e.reason.starts_with(&format!("{name} is not modelled: ")),
            "{t} {line}: {e}"
        );
        assert_eq!(asm::assemble(t, line).unwrap_err(), e, "{t} {line}");
        reason.get_or_insert(e.reason);
    }
    reason.unwrap_or_default()
}

#[test]
fn legacy_mac_and_mad_are_not_modelled() {
    let r = refused("v_mac_f32 v0, v1, v2", "v_mac_f32", 1);
    assert!(r.contains("legacy unfused multiply-add"), "{r}");
    refused("v_mad_f16 v0, v1, v2, v3", "v_mad_f16", 1);
    refused("v_madmk_f32 v0, v1, 0x1, v2", "v_madmk_f32", 1);
    // The encoding suffix is not part of the name.
    refused("v_mac_f32_e64 v0, v1, v2", "v_mac_f32", 1);
    refused("V_MAC_F32_E32 v0, v1, v2", "v_mac_f32", 1);
}

/// The arithmetic core is modelled: its names assemble (bytes from
/// llvm-mc-22 -show-encoding), while the legacy and DX9 relatives nearby
/// stay refused by name.
#[test]
fn the_arithmetic_core_is_modelled_and_its_legacy_relatives_are_not() {
    let cases: [(Target, &str, &[u8]); 3] = [
        (
            Target::Gfx1100,
            "v_add_f32 v0, v1, v2",
            &[0x01, 0x05, 0x00, 0x06],
        ),
        (
            Target::Gfx1030,
            "v_fmamk_f16 v1, v2, 0x3c00, v3",
            &[0x02, 0x07, 0x02, 0x6e, 0x00, 0x3c, 0x00, 0x00],
        ),
        (
            Target::Gfx908,
            "v_fma_f64 v[2:3], v[4:5], v[6:7], v[8:9]",
            &[0x02, 0x00, 0xcc, 0xd1, 0x04, 0x0d, 0x22, 0x04],
        ),
    ];
    for (t, line, bytes) in cases {
        assert_eq!(asm::assemble(t, line).as_deref(), Ok(bytes), "{t} {line}");
    }
    refused("v_mul_legacy_f32 v0, v1, v2", "v_mul_legacy_f32", 1);
    refused("v_fmac_legacy_f32 v0, v1, v2", "v_fmac_legacy_f32", 1);
}

#[test]
fn groups_by_prefix_are_not_modelled() {
    assert!(refused("v_pk_add_f16 v0, v1, v2", "v_pk_add_f16", 1).contains("packed"));
    assert!(refused("v_fma_mix_f32 v0, v1, v2, v3", "v_fma_mix_f32", 1).contains("mixed"));
    assert!(refused("v_dot2_f32_f16 v0, v1, v2, v3", "v_dot2_f32_f16", 1).contains("dot"));
    // VOPD: the first mnemonic decides; indentation moves the column.
    let r = refused(
        "  v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5",
        "v_dual_add_f32",
        3,
    );
    assert!(r.contains("VOPD"), "{r}");
}

#[test]
fn other_unknown_mnemonics_keep_llvms_error() {
    for line in [
        "v_fract_f128 v1, v2",
        "v_frobnicate v0, v1",
        "v_fract_f32_e33 v1, v2",
    ] {
        for t in Target::ALL {
            let e = asm::parse(t, line).unwrap_err();
            assert_eq!(
                (e.column, e.reason.as_str()),
                (1, "invalid instruction"),
                "{t} {line}"
            );
        }
    }
}

#[test]
fn eval_says_not_modelled() {
    let o = Command::new(env!("CARGO_BIN_EXE_amdgpu-valu"))
        .args([
            "eval",
            "--target",
            "gfx1100",
            "v_mul_dx9_zero_f32 v0, v1, v2",
        ])
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0));
    assert!(
        err.contains("v_mul_dx9_zero_f32 is not modelled: DX9 legacy multiply"),
        "{err}"
    );
}
