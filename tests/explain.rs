//! The explanation's final bits are the executor's: checked over a spread of
//! instructions, modes and sources on every target.

use amdgpu_valu::explain::explain;
use amdgpu_valu::{asm, execute, Target, Wave};

#[test]
fn explanations_end_in_the_executed_result() {
    let sources: [u32; 10] = [
        0x0000_3bff,
        0x0000_8001,
        0x0000_0001,
        0x0000_7c00,
        0x0000_b58d,
        0x3f7f_ffff,
        0x8000_0001,
        0x7f80_0001,
        0x0080_0000,
        0x0000_7bff,
    ];
    let exps: [u32; 4] = [0, 1, 0xffff_fff2, 0x0000_7fff];
    let modes: [u32; 5] = [0x0, 0xf0, 0xd0, 0x2fc, 0x0080_00f8];
    let mut checked = 0;
    for t in Target::ALL {
        let half = if t.spec().true16.value { ".l" } else { "" };
        let texts = [
            format!("v_fract_f16_e64 v0{half}, -v1{half} mul:2"),
            format!("v_ldexp_f16_e64 v0{half}, v1{half}, v2{half} clamp"),
            "v_fract_f32_e64 v0, |v1| div:2".to_string(),
            "v_ldexp_f32 v0, v1, v2 mul:4".to_string(),
            "v_fract_f64_e64 v[4:5], v[0:1] clamp".to_string(),
            "v_ldexp_f64 v[4:5], -v[0:1], v2".to_string(),
        ];
        for text in &texts {
            let instr = asm::parse(t, text).unwrap_or_else(|e| panic!("{t} {text}: {e}"));
            for &src in &sources {
                for &e in &exps {
                    for &mode in &modes {
                        let mut wave = Wave::for_target(t);
                        wave.set_mode(mode);
                        for (r, v) in [
                            (0, src),
                            (1, src),
                            (2, e),
                            (4, 0xa5a5_a5a5),
                            (5, 0x5a5a_5a5a),
                        ] {
                            wave.set_vgpr_all(r, v).expect("in range");
                        }
                        let ex = explain(t, &wave, &instr, 0).expect("explains");
                        execute(t, &mut wave, &instr).expect("executes");
                        let got = match instr.opcode.format().bits() {
                            64 => wave.vgpr64(4, 0).expect("lane"),
                            32 => u64::from(wave.vgpr(0, 0).expect("lane")),
                            _ => u64::from(wave.vgpr(0, 0).expect("lane") & 0xffff),
                        };
                        assert_eq!(
                            ex.result, got,
                            "{t} {text} mode {mode:#x} src {src:#x} exp {e:#x}"
                        );
                        assert!(ex.steps.iter().any(|s| s.stage == "operation"));
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 10 * 6 * 10 * 4 * 5);
}
