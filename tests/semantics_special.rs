//! Trap temporaries, GFX9 register halves and the special sources
//! (`src_scc`, `src_vccz`, `src_execz`, apertures, `src_lds_direct`) as
//! instruction operands (docs/semantics.md §7.1.1), with values derived by
//! hand from docs/semantics.md: the bits of every result are checked.

use amdgpu_valu::asm::parse;
use amdgpu_valu::capture::{parse_line, run_row, Outcome};
use amdgpu_valu::{execute, ExecError, Special, Target, Wave, WaveSize};

/// MODE 0: round to nearest even, every subnormal flushed (inputs and
/// outputs). 0xf0 keeps every subnormal; 0x10 keeps F32 subnormal inputs
/// and flushes F32 subnormal outputs (docs/semantics.md §2).
const FLUSH: u32 = 0x00;
const KEEP: u32 = 0xf0;
const KEEP_IN_F32: u32 = 0x10;

/// Run `text` on a wave prepared by `setup` under `mode`: v0 (or v[0:1])
/// of lane 0 afterwards, as 64 bits.
fn run(target: Target, mode: u32, text: &str, setup: impl FnOnce(&mut Wave)) -> u64 {
    let mut wave = Wave::for_target(target);
    wave.set_mode(mode);
    setup(&mut wave);
    let instr = parse(target, text).unwrap_or_else(|e| panic!("{target}: `{text}`: {e}"));
    execute(target, &mut wave, &instr).unwrap_or_else(|e| panic!("{target}: `{text}`: {e}"));
    if text.contains("v[0:1]") {
        wave.vgpr64(0, 0).expect("v[0:1]")
    } else {
        u64::from(wave.vgpr(0, 0).expect("v0"))
    }
}

#[test]
fn ttmp_reads_like_an_sgpr() {
    // FRACT(1.5) = 0.5: 0x3fc00000 -> 0x3f000000 (§4, positive above 1).
    for t in Target::ALL {
        let got = run(t, FLUSH, "v_fract_f32 v0, ttmp3", |w| {
            w.set_ttmp(3, 0x3fc0_0000).expect("ttmp3");
        });
        assert_eq!(got, 0x3f00_0000, "{t}");
        // A pair: ttmp[2:3] = 0x3ff8000000000000 (1.5) -> 0.5.
        let got = run(t, FLUSH, "v_fract_f64 v[0:1], ttmp[2:3]", |w| {
            w.set_ttmp(2, 0).expect("ttmp2");
            w.set_ttmp(3, 0x3ff8_0000).expect("ttmp3");
        });
        assert_eq!(got, 0x3fe0_0000_0000_0000, "{t}");
    }
}

#[test]
fn src_scc_is_the_subnormal_one_as_f32() {
    // SCC = 1 reads as the F32 bits 0x00000001, a positive subnormal.
    for t in [Target::Gfx908, Target::Gfx1030, Target::Gfx1201] {
        let scc = |w: &mut Wave| w.set_scc(1).expect("scc");
        // MODE 0 flushes the input to +0, and FRACT(+0) = +0.
        assert_eq!(run(t, FLUSH, "v_fract_f32 v0, src_scc", scc), 0, "{t}");
        // Kept: positive below 1 is returned unchanged, and kept on output.
        assert_eq!(run(t, KEEP, "v_fract_f32 v0, src_scc", scc), 1, "{t}");
        // Kept on input, flushed on output: +0.
        assert_eq!(
            run(t, KEEP_IN_F32, "v_fract_f32 v0, src_scc", scc),
            0,
            "{t}"
        );
        // SCC = 0 reads 0: FRACT(+0) = +0.
        assert_eq!(run(t, KEEP, "v_fract_f32 v0, src_scc", |_| {}), 0, "{t}");
        // An F64 operand takes SCC zero-extended: 0x0000000000000001, an
        // F64 subnormal, kept under MODE 0xf0 (F64 bits 7:6).
        assert_eq!(run(t, KEEP, "v_fract_f64 v[0:1], src_scc", scc), 1, "{t}");
        assert_eq!(run(t, FLUSH, "v_fract_f64 v[0:1], src_scc", scc), 0, "{t}");
    }
}

#[test]
fn ldexp_exponent_from_src_scc() {
    // 1.5 (0x3fc00000) x 2^SCC: 3.0 = 0x40400000 when SCC = 1, else 1.5.
    for t in [
        Target::Gfx908,
        Target::Gfx1030,
        Target::Gfx1100,
        Target::Gfx1250,
    ] {
        let text = "v_ldexp_f32 v0, v1, src_scc";
        let got = run(t, FLUSH, text, |w| {
            w.set_vgpr_all(1, 0x3fc0_0000).expect("v1");
            w.set_scc(1).expect("scc");
        });
        assert_eq!(got, 0x4040_0000, "{t}");
        let got = run(t, FLUSH, text, |w| {
            w.set_vgpr_all(1, 0x3fc0_0000).expect("v1");
        });
        assert_eq!(got, 0x3fc0_0000, "{t}");
        // mul:4 (OMOD) on gfx1250, where OMOD always applies (§6.1):
        // 3.0 x 4 = 12.0 = 0x41400000.
        if t == Target::Gfx1250 {
            let got = run(t, FLUSH, "v_ldexp_f32 v0, v1, src_scc mul:4", |w| {
                w.set_vgpr_all(1, 0x3fc0_0000).expect("v1");
                w.set_scc(1).expect("scc");
            });
            assert_eq!(got, 0x4140_0000);
        }
    }
}

#[test]
fn src_vccz_follows_the_wave_size() {
    // 1.0 x 2^vccz: 2.0 (0x40000000) when VCC is zero, 1.0 otherwise.
    let text = "v_ldexp_f32 v0, v1, src_vccz";
    let one = |vcc: u64| {
        move |w: &mut Wave| {
            w.set_vgpr_all(1, 0x3f80_0000).expect("v1");
            w.set_vcc(vcc);
        }
    };
    for t in [Target::Gfx908, Target::Gfx1030] {
        assert_eq!(run(t, FLUSH, text, one(0)), 0x4000_0000, "{t}");
        assert_eq!(run(t, FLUSH, text, one(5)), 0x3f80_0000, "{t}");
    }
    // Only bits 63:32 set: zero for a wave32 (VCC_LO), not for a wave64.
    assert_eq!(run(Target::Gfx1030, FLUSH, text, one(1 << 32)), 0x4000_0000);
    assert_eq!(run(Target::Gfx908, FLUSH, text, one(1 << 32)), 0x3f80_0000);
    let mut w = Wave::new(WaveSize::Wave64);
    w.set_vcc(1 << 32);
    assert_eq!(w.special(Special::Vccz).expect("vccz"), 0);
    let mut w = Wave::new(WaveSize::Wave32);
    w.set_vcc(1 << 32);
    assert_eq!(w.special(Special::Vccz).expect("vccz"), 1);
}

#[test]
fn src_execz_is_zero_while_a_lane_runs() {
    // Any lane that executes has its EXEC bit set, so src_execz reads 0:
    // 1.0 x 2^0 = 1.0.
    let got = run(
        Target::Gfx1030,
        FLUSH,
        "v_ldexp_f32 v0, v1, src_execz",
        |w| {
            w.set_vgpr_all(1, 0x3f80_0000).expect("v1");
            w.set_exec(1);
        },
    );
    assert_eq!(got, 0x3f80_0000);
    let mut w = Wave::new(WaveSize::Wave32);
    assert_eq!(w.special(Special::Execz).expect("execz"), 0);
    w.set_exec(0);
    assert_eq!(w.special(Special::Execz).expect("execz"), 1);
}

#[test]
fn apertures_are_64_bit_state() {
    // F64: the whole aperture, 0x3ff8000000000000 (1.5) -> 0.5.
    // F32: bits 31:0 (0x3fc00000, 1.5) -> 0x3f000000.
    let base = |w: &mut Wave| {
        w.set_special(Special::SharedBase, 0x3ff8_0000_3fc0_0000)
            .expect("shared base");
    };
    for t in [Target::Gfx908, Target::Gfx1201] {
        assert_eq!(
            run(t, FLUSH, "v_fract_f32 v0, src_shared_base", base),
            0x3f00_0000,
            "{t}"
        );
        let got = run(t, FLUSH, "v_fract_f64 v[0:1], src_private_limit", |w| {
            w.set_special(Special::PrivateLimit, 0x3ff8_0000_0000_0000)
                .expect("private limit");
        });
        assert_eq!(got, 0x3fe0_0000_0000_0000, "{t}");
    }
    // Defaults: 0, so FRACT gives +0.
    assert_eq!(
        run(
            Target::Gfx1030,
            KEEP,
            "v_fract_f32 v0, src_pops_exiting_wave_id",
            |_| {}
        ),
        0
    );
}

#[test]
fn gfx9_register_halves() {
    // flat_scratch_hi = bits 63:32 = 0x3fc00000 (1.5) -> 0x3f000000;
    // xnack_mask as a pair: 0x3ff8000000000000 -> 0x3fe0000000000000.
    let got = run(
        Target::Gfx908,
        FLUSH,
        "v_fract_f32 v0, flat_scratch_hi",
        |w| {
            w.set_flat_scratch(0x3fc0_0000_0000_0000);
        },
    );
    assert_eq!(got, 0x3f00_0000);
    let got = run(
        Target::Gfx90a,
        FLUSH,
        "v_fract_f64 v[0:1], xnack_mask",
        |w| {
            w.set_xnack_mask(0x3ff8_0000_0000_0000);
        },
    );
    assert_eq!(got, 0x3fe0_0000_0000_0000);
    // gfx1250's src_flat_scratch_base_hi reads the same FLAT_SCRATCH.
    let got = run(
        Target::Gfx1250,
        FLUSH,
        "v_fract_f32 v0, src_flat_scratch_base_hi",
        |w| w.set_flat_scratch(0x3fc0_0000_0000_0000),
    );
    assert_eq!(got, 0x3f00_0000);
}

#[test]
fn src_lds_direct_is_not_modelled() {
    for t in [Target::Gfx908, Target::Gfx1030] {
        let instr = parse(t, "v_fract_f32 v0, src_lds_direct").expect("assembles");
        let mut wave = Wave::for_target(t);
        let err = execute(t, &mut wave, &instr).expect_err("no LDS");
        assert!(
            matches!(&err, ExecError::InvalidOperand { operand: "src_lds_direct", reason } if reason.contains("not modelled")),
            "{t}: {err}"
        );
    }
    // LLVM refuses its name on gfx1100 (its disassembler prints it).
    let e = parse(Target::Gfx1100, "v_fract_f32 v0, src_lds_direct").expect_err("refused");
    assert_eq!(e.column, 17);
    assert_eq!(e.reason, "lds_direct is not supported on this GPU");
}

#[test]
fn setters_refuse_bad_input() {
    let mut w = Wave::new(WaveSize::Wave32);
    assert!(w.set_scc(2).is_err());
    assert!(w.set_ttmp(16, 0).is_err());
    assert!(w.ttmp(16).is_err());
    assert!(w.set_special(Special::Vccz, 1).is_err());
    assert!(w.set_special(Special::LdsDirect, 1).is_err());
    assert!(w.set_special(Special::PopsExitingWaveId, 1 << 32).is_err());
    assert!(w.set_special(Special::Scc, 2).is_err());
    assert!(w.set_special(Special::FlatScratchBaseLo, 1 << 32).is_err());
    w.set_special(Special::FlatScratchBaseHi, 0x1234)
        .expect("hi");
    w.set_special(Special::FlatScratchBaseLo, 0x5678)
        .expect("lo");
    assert_eq!(w.flat_scratch(), 0x1234_0000_5678);
    w.set_special(Special::Scc, 1).expect("scc");
    assert_eq!(w.scc(), 1);
    // reset clears the new state too.
    w.reset(WaveSize::Wave32);
    assert_eq!((w.scc(), w.flat_scratch()), (0, 0));
}

fn outcome(text: &str) -> Outcome {
    let row = parse_line(1, text)
        .expect("the row parses")
        .expect("not a comment");
    run_row(&row)
}

#[test]
fn capture_rows_with_ttmp_and_scc_replay() {
    // FRACT(ttmp3 = 1.5) = 0.5 in every active lane.
    assert_eq!(
        outcome("gfx1201\t0x0\tv_fract_f32_e32 v1, ttmp3\tttmp3=0x3fc00000\tv1=0x3f000000"),
        Outcome::Pass
    );
    // LDEXP by src_scc with scc=1 (1.5 x 2 = 3.0); the expected column may
    // name the (unchanged) state.
    assert_eq!(
        outcome(
            "gfx1030\t0x0\tv_ldexp_f32 v1, v2, src_scc\tv2=0x3fc00000 scc=1\tv1=0x40400000 scc=1"
        ),
        Outcome::Pass
    );
    // A wrong expected state fails the row.
    assert!(matches!(
        outcome("gfx1030\t0x0\tv_ldexp_f32 v1, v2, src_scc\tv2=0x3fc00000 scc=1\tv1=0x40400000 ttmp0=0x1"),
        Outcome::Fail(_)
    ));
    // An aperture and vcc as inputs.
    assert_eq!(
        outcome(
            "gfx908\t0x0\tv_fract_f64 v[2:3], src_shared_base\tsrc_shared_base=0x3ff8000000000000\tv[2:3]=0x3fe0000000000000"
        ),
        Outcome::Pass
    );
    assert_eq!(
        outcome("gfx1030\t0x0\tv_ldexp_f32 v1, v2, src_vccz\tv2=0x3f800000 vcc=0x100000000\tv1=0x40000000"),
        Outcome::Pass
    );
    // Bad values are refused when the row is read.
    assert!(parse_line(1, "gfx1030\t0x0\tv_fract_f32 v1, src_scc\tscc=2\tv1=0x0").is_err());
    assert!(parse_line(1, "gfx1030\t0x0\tv_fract_f32 v1, ttmp3\tttmp16=0x1\tv1=0x0").is_err());
}
