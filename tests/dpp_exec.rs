//! DPP execution (docs/semantics.md §11), lane for lane, with the bits
//! derived by hand from the rules.
//!
//! Most tests run V_FRACT_F32 on v1[n] = 0x3f000000 + n (0.5 plus n ulps):
//! FRACT leaves a positive value below 1 unchanged (docs/semantics.md §4),
//! so v0[n] after the instruction is the source lane's v1 bits, +0 (0x0)
//! for a zero-filled src0, and the poison 0xdeadbeef for a lane not
//! written. The expected lanes come from the formulas of §11 written out
//! in each test (or from the independent model in `tests/dpp_model/`).

#![allow(clippy::needless_range_loop)] // lanes are indexed by number, as in the rules

mod dpp_model;

use amdgpu_valu::__testing::execute_with_spec;
use amdgpu_valu::explain::{dpp_lanes, explain};
use amdgpu_valu::{
    execute, Dpp, Dpp16, DppBcastLowRows, DppControl, DppInactiveSource, DppMixedHalves,
    DppReservedBits, DppReservedCtrl, DppShareXmask, DppZeroFill, Encoding, Evidence, ExecError,
    Instruction, Omod, Opcode, Operand, Sourced, Target, TargetSpec, Wave, WaveSize,
};
use dpp_model::{Facts, Src, Word};

const POISON: u32 = 0xdead_beef;

fn src_value(n: usize) -> u32 {
    0x3f00_0000 + n as u32
}

fn flipped<T>(value: T) -> Sourced<T> {
    Sourced {
        value,
        evidence: Evidence::Open("flipped by tests/dpp_exec.rs"),
    }
}

fn d16(ctrl: DppControl) -> Dpp16 {
    Dpp16::new(ctrl)
}

fn fract32(dpp: Dpp) -> Instruction {
    Instruction::unary(
        Opcode::FractF32,
        Encoding::Vop1,
        Operand::v(0),
        Operand::v(1),
    )
    .with_dpp(dpp)
}

/// A wave of `size` with EXEC `exec`, v0 = POISON, v1[n] = src_value(n).
fn wave(target: Target, size: WaveSize, exec: u64) -> Wave {
    let mut w = Wave::for_target_with_size(target, size).expect("wave size");
    w.set_vgpr_all(0, POISON).expect("v0");
    for n in 0..w.lanes() {
        w.set_vgpr(1, n, src_value(n)).expect("v1");
    }
    w.set_exec(exec);
    w
}

/// v0 of every lane after `instr` under `spec`.
fn run_spec(
    spec: &TargetSpec,
    size: WaveSize,
    exec: u64,
    instr: &Instruction,
) -> Result<Vec<u32>, ExecError> {
    let mut w = wave(spec.target, size, exec);
    execute_with_spec(spec, &mut w, instr)?;
    Ok((0..w.lanes())
        .map(|n| w.vgpr(0, n).expect("lane"))
        .collect())
}

fn run(target: Target, size: WaveSize, exec: u64, instr: &Instruction) -> Vec<u32> {
    let mut w = wave(target, size, exec);
    execute(target, &mut w, instr).unwrap_or_else(|e| panic!("{target}: {e}"));
    let got: Vec<u32> = (0..w.lanes())
        .map(|n| w.vgpr(0, n).expect("lane"))
        .collect();
    // The generated dispatch and execute_with_spec of the generated spec agree.
    assert_eq!(
        run_spec(target.spec(), size, exec, instr).expect("executes"),
        got
    );
    got
}

/// The v0 bits the FRACT tests expect for a lane plan.
fn expected(plan: &[Src]) -> Vec<u32> {
    plan.iter()
        .map(|s| match *s {
            Src::Lane(l) => src_value(l),
            Src::Zero => 0,
            Src::Skip => POISON,
        })
        .collect()
}

fn sizes(target: Target) -> Vec<WaveSize> {
    [WaveSize::Wave32, WaveSize::Wave64]
        .into_iter()
        .filter(|&s| target.spec().supports_wave(s))
        .collect()
}

fn full(size: WaveSize) -> u64 {
    size.exec_mask()
}

/// Every legal control on every target in wave32 and wave64 (all lanes
/// active, bound_ctrl both ways): the lanes read the table of §11.3.
#[test]
fn every_control_on_every_target_and_wave_size() {
    let mut checked = 0;
    for t in Target::ALL {
        let facts = Facts::of(t.name());
        for size in sizes(t) {
            for code in facts.legal_codes(false) {
                for bc in [false, true] {
                    let dpp = Dpp16 {
                        bound_ctrl: bc,
                        ..d16(DppControl::from_code(code))
                    };
                    let got = run(t, size, full(size), &fract32(Dpp::Dpp16(dpp)));
                    let word = Word::D16 {
                        ctrl: code,
                        row_mask: 0xf,
                        bank_mask: 0xf,
                        bc,
                        fi: false,
                    };
                    let want = expected(&dpp_model::plan(&facts, word, size.lanes(), full(size)));
                    assert_eq!(got, want, "{t} wave{} ctrl {code:#x} bc {bc}", size.lanes());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 3000, "{checked}");
}

/// Source lanes of a few controls written out by hand (wave64, gfx942 and
/// gfx1100 in wave64).
#[test]
fn control_lanes_by_hand() {
    let w64 = WaveSize::Wave64;
    let all = full(w64);
    let bc = |c| {
        Dpp::Dpp16(Dpp16 {
            bound_ctrl: true,
            ..d16(c)
        })
    };
    // row_shl:3: lane n reads n + 3; lanes 13-15 of each row are out of range.
    let got = run(
        Target::Gfx1100,
        w64,
        all,
        &fract32(bc(DppControl::RowShl(3))),
    );
    for n in 0..64 {
        let want = if n % 16 >= 13 { 0 } else { src_value(n + 3) };
        assert_eq!(got[n], want, "row_shl:3 lane {n}");
    }
    // row_ror:4: lane 17 reads row 1 lane (1 - 4) & 15 = 13, i.e. lane 29.
    let got = run(
        Target::Gfx1100,
        w64,
        all,
        &fract32(bc(DppControl::RowRor(4))),
    );
    assert_eq!(got[17], src_value(29));
    assert_eq!(got[20], src_value(16));
    // row_xmask:5 lane 34 (row 2, i 2) reads i ^ 5 = 7: lane 39.
    let got = run(
        Target::Gfx1100,
        w64,
        all,
        &fract32(bc(DppControl::RowXmask(5))),
    );
    assert_eq!(got[34], src_value(39));
    // GFX9 wave_shr:1 crosses rows: lane 16 reads 15; lane 0 is zero-filled.
    let got = run(Target::Gfx942, w64, all, &fract32(bc(DppControl::WaveShr)));
    assert_eq!(
        (got[0], got[16], got[63]),
        (0, src_value(15), src_value(62))
    );
    // wave_rol:1: lane 63 reads lane 0; wave_ror:1: lane 0 reads lane 63.
    let got = run(Target::Gfx942, w64, all, &fract32(bc(DppControl::WaveRol)));
    assert_eq!((got[63], got[0]), (src_value(0), src_value(1)));
    let got = run(Target::Gfx942, w64, all, &fract32(bc(DppControl::WaveRor)));
    assert_eq!((got[0], got[5]), (src_value(63), src_value(4)));
    // wave_shl:1: lane 63 is out of range.
    let got = run(Target::Gfx942, w64, all, &fract32(bc(DppControl::WaveShl)));
    assert_eq!((got[62], got[63]), (src_value(63), 0));
    // row_bcast:15: rows 1-3 read lanes 15, 31, 47; row 0 is out of range.
    let got = run(
        Target::Gfx942,
        w64,
        all,
        &fract32(bc(DppControl::RowBcast15)),
    );
    assert_eq!(
        (got[3], got[16], got[40], got[63]),
        (0, src_value(15), src_value(31), src_value(47))
    );
    // row_bcast:31: rows 2-3 read lane 31.
    let got = run(
        Target::Gfx942,
        w64,
        all,
        &fract32(bc(DppControl::RowBcast31)),
    );
    assert_eq!(
        (got[31], got[32], got[63]),
        (0, src_value(31), src_value(31))
    );
    // row_newbcast:9 on gfx90a: every lane reads lane 9 of its row.
    let got = run(
        Target::Gfx90a,
        w64,
        all,
        &fract32(bc(DppControl::RowShare(9))),
    );
    assert_eq!((got[0], got[50]), (src_value(9), src_value(57)));
    // row_half_mirror: lane 9 reads 14; row_mirror: lane 9 reads 6.
    let got = run(
        Target::Gfx942,
        w64,
        all,
        &fract32(bc(DppControl::RowHalfMirror)),
    );
    assert_eq!(got[9], src_value(14));
    let got = run(
        Target::Gfx942,
        w64,
        all,
        &fract32(bc(DppControl::RowMirror)),
    );
    assert_eq!(got[9], src_value(6));
}

/// Each ROW_MASK and BANK_MASK bit clear alone gates exactly the lanes of
/// §11.4's table, in wave32 and wave64; a masked lane is still a source.
#[test]
fn each_row_and_bank_mask_bit() {
    for (t, size) in [
        (Target::Gfx1030, WaveSize::Wave32),
        (Target::Gfx1030, WaveSize::Wave64),
        (Target::Gfx950, WaveSize::Wave64),
    ] {
        for bit in 0..4u8 {
            // quad_perm:[1,0,3,2] (0xb1): lane n reads n ^ 1.
            let base = d16(DppControl::QuadPerm([1, 0, 3, 2]));
            let row = Dpp16 {
                row_mask: 0xf & !(1 << bit),
                ..base
            };
            let got = run(t, size, full(size), &fract32(Dpp::Dpp16(row)));
            for (n, &g) in got.iter().enumerate() {
                let want = if n >> 4 == usize::from(bit) {
                    POISON
                } else {
                    src_value(n ^ 1)
                };
                assert_eq!(g, want, "{t} row_mask bit {bit} lane {n}");
            }
            let bank = Dpp16 {
                bank_mask: 0xf & !(1 << bit),
                ..base
            };
            let got = run(t, size, full(size), &fract32(Dpp::Dpp16(bank)));
            for (n, &g) in got.iter().enumerate() {
                // Lane 4b..4b+3 of every row; its neighbour n ^ 1 (in a
                // masked bank too) still supplies the other lanes.
                let want = if (n >> 2) & 3 == usize::from(bit) {
                    POISON
                } else {
                    src_value(n ^ 1)
                };
                assert_eq!(g, want, "{t} bank_mask bit {bit} lane {n}");
            }
        }
    }
    // A masked lane is a source: row_mask 0x2 with row_share:0 (gfx1100,
    // wave32) writes row 1 from lane 16, and row 0 not at all.
    let dpp = Dpp16 {
        row_mask: 0x2,
        ..d16(DppControl::RowShare(0))
    };
    let got = run(
        Target::Gfx1100,
        WaveSize::Wave32,
        u32::MAX.into(),
        &fract32(Dpp::Dpp16(dpp)),
    );
    assert_eq!(
        (got[0], got[15], got[16], got[31]),
        (POISON, POISON, src_value(16), src_value(16))
    );
    // With row_shl:1 and row 1 masked, lane 15 (row 0) is out of range
    // (no cross-row read from lane 16).
    let dpp = Dpp16 {
        row_mask: 0x1,
        bound_ctrl: true,
        ..d16(DppControl::RowShl(1))
    };
    let got = run(
        Target::Gfx1100,
        WaveSize::Wave32,
        u32::MAX.into(),
        &fract32(Dpp::Dpp16(dpp)),
    );
    assert_eq!((got[14], got[15], got[16]), (src_value(15), 0, POISON));
}

/// §5's worked examples (wave32, all lanes active) on gfx1100.
#[test]
fn worked_examples() {
    let t = Target::Gfx1100;
    let w32 = WaveSize::Wave32;
    let all = full(w32);
    let case = |dpp: Dpp| run(t, w32, all, &fract32(dpp));
    // row_shr:1 bound_ctrl:1: lanes 0 and 16 get op(0) = FRACT(+0) = 0.
    let got = case(Dpp::Dpp16(Dpp16 {
        bound_ctrl: true,
        ..d16(DppControl::RowShr(1))
    }));
    for n in 0..32 {
        let want = if n % 16 == 0 { 0 } else { src_value(n - 1) };
        assert_eq!(got[n], want, "row_shr:1 bc lane {n}");
    }
    // row_shr:1 (BC = 0): lanes 0 and 16 unchanged.
    let got = case(Dpp::Dpp16(d16(DppControl::RowShr(1))));
    for n in 0..32 {
        let want = if n % 16 == 0 {
            POISON
        } else {
            src_value(n - 1)
        };
        assert_eq!(got[n], want, "row_shr:1 lane {n}");
    }
    // row_share:15 row_mask:0x1: lanes 0-15 get op(v1[15]); 16-31 unchanged.
    let got = case(Dpp::Dpp16(Dpp16 {
        row_mask: 1,
        ..d16(DppControl::RowShare(15))
    }));
    for n in 0..32 {
        let want = if n < 16 { 0x3f00_000f } else { POISON };
        assert_eq!(got[n], want, "row_share:15 lane {n}");
    }
    // row_xmask:1 bank_mask:0x1: lanes 0-3 and 16-19 get op(n ^ 1).
    let got = case(Dpp::Dpp16(Dpp16 {
        bank_mask: 1,
        ..d16(DppControl::RowXmask(1))
    }));
    for n in 0..32 {
        let want = if n % 16 < 4 { src_value(n ^ 1) } else { POISON };
        assert_eq!(got[n], want, "row_xmask:1 lane {n}");
    }
    // dpp8:[7,6,5,4,3,2,1,0]: v0[n] = op((n & ~7) + 7 - (n & 7)).
    let got = case(Dpp::Dpp8 {
        sel: [7, 6, 5, 4, 3, 2, 1, 0],
        fi: false,
    });
    for n in 0..32 {
        assert_eq!(got[n], src_value((n & !7) + 7 - (n & 7)), "dpp8 lane {n}");
    }
    // quad_perm:[3,2,1,0]: v0[n] = op((n & ~3) + 3 - (n & 3)).
    let got = case(Dpp::Dpp16(d16(DppControl::QuadPerm([3, 2, 1, 0]))));
    for n in 0..32 {
        assert_eq!(
            got[n],
            src_value((n & !3) + 3 - (n & 3)),
            "quad_perm lane {n}"
        );
    }
    // Spot bits: lane 5 of quad_perm:[3,2,1,0] reads lane 6.
    assert_eq!(got[5], 0x3f00_0006);
}

/// An in-range inactive source lane per family (§11.4): row_shr:1 with
/// lane 4 inactive, so lane 5 reads inactive lane 4.
#[test]
fn inactive_source_bound_ctrl_and_fi_per_family() {
    let exec = |size: WaveSize| full(size) & !(1 << 4);
    let lane5 = |t: Target, bc: bool, fi: bool| {
        let size = if t.spec().supports_wave(WaveSize::Wave32) {
            WaveSize::Wave32
        } else {
            WaveSize::Wave64
        };
        let dpp = Dpp16 {
            bound_ctrl: bc,
            fi,
            ..d16(DppControl::RowShr(1))
        };
        let got = run(t, size, exec(size), &fract32(Dpp::Dpp16(dpp)));
        assert_eq!(got[4], POISON, "{t}: lane 4 is inactive, never written");
        got[5]
    };
    let v4 = src_value(4);
    // GFX9: no FI (the bit is ignored); BOUND_CTRL decides (OPEN-1 default).
    for t in [Target::Gfx908, Target::Gfx942] {
        assert_eq!(lane5(t, false, false), POISON, "{t}");
        assert_eq!(lane5(t, true, false), 0, "{t}");
        assert_eq!(lane5(t, false, true), POISON, "{t}");
        assert_eq!(lane5(t, true, true), 0, "{t}");
    }
    // GFX10: FI = 0 reads 0 and writes whatever BC (OPEN-2 default); FI = 1
    // fetches the inactive lane's value.
    for t in [Target::Gfx1010, Target::Gfx1030] {
        assert_eq!(lane5(t, false, false), 0, "{t}");
        assert_eq!(lane5(t, true, false), 0, "{t}");
        assert_eq!(lane5(t, false, true), v4, "{t}");
        assert_eq!(lane5(t, true, true), v4, "{t}");
    }
    // GFX11+: FI = 1 fetches; FI = 0 is the BOUND_CTRL rule.
    for t in [
        Target::Gfx1100,
        Target::Gfx1150,
        Target::Gfx1201,
        Target::Gfx1250,
    ] {
        assert_eq!(lane5(t, false, false), POISON, "{t}");
        assert_eq!(lane5(t, true, false), 0, "{t}");
        assert_eq!(lane5(t, false, true), v4, "{t}");
        assert_eq!(lane5(t, true, true), v4, "{t}");
    }
    // FI never affects an out-of-range source: lane 0 of row_shr:1.
    let dpp = Dpp16 {
        fi: true,
        ..d16(DppControl::RowShr(1))
    };
    let got = run(
        Target::Gfx1201,
        WaveSize::Wave32,
        u32::MAX.into(),
        &fract32(Dpp::Dpp16(dpp)),
    );
    assert_eq!(got[0], POISON);
}

/// DPP8 with and without FI, wave32 and wave64: lane 7 inactive, so lane
/// 0 of dpp8:[7,6,5,4,3,2,1,0] reads inactive lane 7.
#[test]
fn dpp8_with_and_without_fi() {
    for size in [WaveSize::Wave32, WaveSize::Wave64] {
        let exec = full(size) & !(1 << 7);
        let sel = [7, 6, 5, 4, 3, 2, 1, 0];
        let got = run(
            Target::Gfx1030,
            size,
            exec,
            &fract32(Dpp::Dpp8 { sel, fi: false }),
        );
        assert_eq!((got[0], got[7], got[8]), (0, POISON, src_value(15)));
        let got = run(
            Target::Gfx1030,
            size,
            exec,
            &fract32(Dpp::Dpp8 { sel, fi: true }),
        );
        assert_eq!((got[0], got[1]), (src_value(7), src_value(6)));
        // The last group of a wave64 stays in its group.
        let last = size.lanes() - 1;
        assert_eq!(got[last], src_value(last - 7));
    }
}

/// True16 `.h` operands: the chosen half of the source lane (e32 and
/// e64), and the other half of the destination kept.
#[test]
fn true16_halves_read_the_source_lanes_half() {
    let t = Target::Gfx1100;
    let mut w = Wave::for_target(t);
    w.set_vgpr_all(0, POISON).expect("v0");
    for n in 0..32 {
        // .h = 0x3800 + n (0.5 plus n ulps, FRACT keeps it); .l = 1.0
        // (FRACT gives +0).
        w.set_vgpr(1, n, (0x3800 + n as u32) << 16 | 0x3c00)
            .expect("v1");
    }
    let dpp = Dpp::Dpp16(d16(DppControl::RowShr(1)));
    // v_fract_f16_dpp v0.l, v1.h row_shr:1
    let e32 = Instruction::unary(
        Opcode::FractF16,
        Encoding::Vop1,
        Operand::v_lo(0),
        Operand::v_hi(1),
    )
    .with_dpp(dpp);
    let mut w1 = w.clone();
    execute(t, &mut w1, &e32).expect("executes");
    for n in 0..32 {
        let want = if n % 16 == 0 {
            POISON
        } else {
            0xdead_0000 | (0x3800 + n as u32 - 1)
        };
        assert_eq!(w1.vgpr(0, n).expect("lane"), want, "e32 lane {n}");
    }
    // v_fract_f16_e64_dpp v0.h, v1.h op_sel:[1,1] row_shr:1: the high half.
    let e64 = Instruction::unary(
        Opcode::FractF16,
        Encoding::Vop3,
        Operand::v_hi(0),
        Operand::v_hi(1),
    )
    .with_dpp(dpp);
    let mut w2 = w.clone();
    execute(t, &mut w2, &e64).expect("executes");
    assert_eq!(w2.vgpr(0, 3).expect("lane"), (0x3802 << 16) | 0xbeef);
    // v_fract_f16_dpp v0.l, v1.l: the low half, 1.0, gives +0.
    let lo = Instruction::unary(
        Opcode::FractF16,
        Encoding::Vop1,
        Operand::v_lo(0),
        Operand::v_lo(1),
    )
    .with_dpp(dpp);
    let mut w3 = w;
    execute(t, &mut w3, &lo).expect("executes");
    assert_eq!(w3.vgpr(0, 3).expect("lane"), 0xdead_0000);
}

/// F64 row_newbcast on gfx90a (§9.2's v_fract_f64_dpp v[4:5], v[2:3]
/// row_newbcast:7 row_mask:0x3 bank_mask:0xc bound_ctrl:1): both dwords of
/// lane 16r+7; other F64 controls are refused.
#[test]
fn f64_row_newbcast_on_cdna() {
    for t in [Target::Gfx90a, Target::Gfx942, Target::Gfx950] {
        let mut w = Wave::for_target(t);
        for n in 0..64 {
            w.set_vgpr64(2, n, 0x3fe0_0000_0000_0000 + n as u64)
                .expect("v[2:3]");
            w.set_vgpr64(4, n, 0xdead_beef_cafe_f00d).expect("v[4:5]");
        }
        let dpp = Dpp16 {
            row_mask: 0x3,
            bank_mask: 0xc,
            bound_ctrl: true,
            ..d16(DppControl::RowShare(7))
        };
        let instr = Instruction::unary(
            Opcode::FractF64,
            Encoding::Vop1,
            Operand::v(4),
            Operand::v(2),
        )
        .with_dpp(Dpp::Dpp16(dpp));
        let mut w1 = w.clone();
        execute(t, &mut w1, &instr).expect("executes");
        for n in 0..64 {
            let written = n < 32 && n % 16 >= 8;
            let want = if written {
                0x3fe0_0000_0000_0000 + (n / 16 * 16 + 7) as u64
            } else {
                0xdead_beef_cafe_f00d
            };
            assert_eq!(w1.vgpr64(4, n).expect("lane"), want, "{t} lane {n}");
        }
        let quad = Instruction {
            dpp: Some(Dpp::Dpp16(d16(DppControl::QuadPerm([0, 1, 2, 3])))),
            ..instr
        };
        let mut w2 = w.clone();
        assert!(matches!(
            execute(t, &mut w2, &quad),
            Err(ExecError::InvalidDpp { .. })
        ));
        assert_eq!(w2, w, "an error writes nothing");
    }
    // gfx908 and GFX10+ have no F64 DPP form.
    let instr = Instruction::unary(
        Opcode::FractF64,
        Encoding::Vop1,
        Operand::v(4),
        Operand::v(2),
    )
    .with_dpp(Dpp::Dpp16(d16(DppControl::RowShare(0))));
    for t in [Target::Gfx908, Target::Gfx1030, Target::Gfx1201] {
        let mut w = Wave::for_target(t);
        let e = execute(t, &mut w, &instr).expect_err("no F64 DPP");
        assert!(e.to_string().contains("has no v_fract_f64_dpp"), "{e}");
    }
}

/// e64 DPP forms with ABS, CLAMP and OMOD, and LDEXP's exponent from the
/// destination's own lane.
#[test]
fn e64_forms_with_clamp_omod_and_own_lane_exponent() {
    // gfx1201 (OMOD always), MODE 0xf0: v_ldexp_f32_e64_dpp v0, |v1|, v2
    // clamp mul:2 quad_perm:[1,0,3,2]. v1 = -0.75 on even lanes, 0.25 on
    // odd; v2 = n & 1. Even lane n reads 0.25 (lane n + 1) and its own
    // exponent 0: 0.25 x 2 = 0.5 = 0x3f000000 (with the source lane's
    // exponent 1 it would be 1.0). Odd lane n reads |-0.75| and exponent 1:
    // 1.5 x 2 = 3, clamped to 1.0 = 0x3f800000.
    let t = Target::Gfx1201;
    let mut w = Wave::for_target(t);
    w.set_mode(0xf0);
    for n in 0..32 {
        let v = if n % 2 == 0 { 0xbf40_0000 } else { 0x3e80_0000 };
        w.set_vgpr(1, n, v).expect("v1");
        w.set_vgpr(2, n, n as u32 & 1).expect("v2");
    }
    let instr = Instruction::binary(
        Opcode::LdexpF32,
        Encoding::Vop3,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    )
    .with_abs()
    .with_clamp()
    .with_omod(Omod::Mul2)
    .with_dpp(Dpp::Dpp16(d16(DppControl::QuadPerm([1, 0, 3, 2]))));
    execute(t, &mut w, &instr).expect("executes");
    for n in 0..32 {
        let want = if n % 2 == 0 { 0x3f00_0000 } else { 0x3f80_0000 };
        assert_eq!(w.vgpr(0, n).expect("lane"), want, "lane {n}");
    }

    // gfx1100, MODE 0 (IEEE = 0, F32 output denormals flushed: OMOD
    // effective): v_fract_f32_e64_dpp v0, -v1 clamp mul:2 row_shr:1.
    // -v1[m] = -(0.5 + m ulp(2^-24)); FRACT = 0.5 - m 2^-24 (exact);
    // x2 = 1 - m 2^-23 = 0x3f800000 - 2m; lane n reads m = n - 1.
    let t = Target::Gfx1100;
    let instr = Instruction::unary(
        Opcode::FractF32,
        Encoding::Vop3,
        Operand::v(0),
        Operand::v(1),
    )
    .with_neg()
    .with_clamp()
    .with_omod(Omod::Mul2)
    .with_dpp(Dpp::Dpp16(d16(DppControl::RowShr(1))));
    let got = run(t, WaveSize::Wave32, u32::MAX.into(), &instr);
    for n in 0..32 {
        let want = if n % 16 == 0 {
            POISON
        } else {
            0x3f80_0000 - 2 * (n as u32 - 1)
        };
        assert_eq!(got[n], want, "lane {n}");
    }

    // gfx1030 (GFX10 keeps F16 bits 31:16): v_ldexp_f16_dpp v0, v1, v2
    // row_mirror. v1[n] = 0x3c00 + n (1 + n ulp), v2[n] = n & 3: lane n
    // reads v1[15 - i] and adds its own exponent to the exponent field.
    let t = Target::Gfx1030;
    let mut w = Wave::for_target(t);
    w.set_vgpr_all(0, POISON).expect("v0");
    for n in 0..32 {
        w.set_vgpr(1, n, 0x3c00 + n as u32).expect("v1");
        w.set_vgpr(2, n, n as u32 & 3).expect("v2");
    }
    let instr = Instruction::binary(
        Opcode::LdexpF16,
        Encoding::Vop2,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    )
    .with_dpp(Dpp::Dpp16(d16(DppControl::RowMirror)));
    execute(t, &mut w, &instr).expect("executes");
    for n in 0..32 {
        let src = (n & !15) + 15 - (n & 15);
        let want = 0xdead_0000 | (0x3c00 + src as u32 + ((n as u32 & 3) << 10));
        assert_eq!(w.vgpr(0, n).expect("lane"), want, "lane {n}");
    }
}

/// vdst == src0: every lane reads before any lane writes.
#[test]
fn destination_equal_to_source() {
    for (t, size) in [
        (Target::Gfx1100, WaveSize::Wave32),
        (Target::Gfx942, WaveSize::Wave64),
    ] {
        let mut w = wave(t, size, full(size));
        let instr = Instruction::unary(
            Opcode::FractF32,
            Encoding::Vop1,
            Operand::v(1),
            Operand::v(1),
        )
        .with_dpp(Dpp::Dpp16(d16(DppControl::RowRor(1))));
        execute(t, &mut w, &instr).expect("executes");
        for n in 0..size.lanes() {
            let src = (n & !15) | ((n + 15) & 15);
            assert_eq!(w.vgpr(1, n).expect("lane"), src_value(src), "{t} lane {n}");
        }
    }
}

/// DPP checks: forms, operands and modifiers a DPP word cannot carry.
#[test]
fn dpp_errors() {
    let t = Target::Gfx1100;
    let dpp = Dpp::Dpp16(d16(DppControl::RowShr(1)));
    let mut w = Wave::for_target(t);
    let before = w.clone();
    let bad = [
        // No e32 DPP for LDEXP_F32 (VOP3 only).
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop2,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        // src0 must be a VGPR.
        Instruction::unary(
            Opcode::FractF32,
            Encoding::Vop1,
            Operand::v(0),
            Operand::s(1),
        ),
        // e32 DPP has no CLAMP.
        Instruction::unary(
            Opcode::FractF32,
            Encoding::Vop1,
            Operand::v(0),
            Operand::v(1),
        )
        .with_clamp(),
        // No literal src1; gfx1100 has no scalar src1 with DPP.
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::Literal(3),
        ),
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::s(2),
        ),
        // SDWA is not a DPP base encoding.
        Instruction::unary(
            Opcode::FractF32,
            Encoding::Sdwa,
            Operand::v(0),
            Operand::v(1),
        ),
    ];
    for i in bad {
        let i = i.with_dpp(dpp);
        assert!(execute(t, &mut w, &i).is_err(), "{i:?}");
    }
    // e32 DPP8 has no source modifiers; e32 DPP16 has ABS/NEG.
    let d8 = Dpp::Dpp8 {
        sel: [0; 8],
        fi: false,
    };
    let neg = Instruction::unary(
        Opcode::FractF32,
        Encoding::Vop1,
        Operand::v(0),
        Operand::v(1),
    )
    .with_neg();
    assert!(matches!(
        execute(t, &mut w, &neg.with_dpp(d8)),
        Err(ExecError::InvalidModifier { .. })
    ));
    assert_eq!(w, before);
    execute(t, &mut w, &neg.with_dpp(dpp)).expect("e32 DPP16 NEG");
    // DPP8 does not exist on GFX9; the scalar src1 does on gfx1150.
    let mut w9 = Wave::for_target(Target::Gfx942);
    let f = Instruction::unary(
        Opcode::FractF32,
        Encoding::Vop1,
        Operand::v(0),
        Operand::v(1),
    );
    assert!(execute(Target::Gfx942, &mut w9, &f.with_dpp(d8)).is_err());
    let mut w11 = Wave::for_target(Target::Gfx1150);
    let s = Instruction::binary(
        Opcode::LdexpF32,
        Encoding::Vop3,
        Operand::v(0),
        Operand::v(1),
        Operand::s(2),
    );
    execute(Target::Gfx1150, &mut w11, &s.with_dpp(dpp)).expect("gfx1150 scalar src1");
    // A reserved code: an error on every target (OPEN-5 default).
    for t in Target::ALL {
        let mut w = Wave::for_target(t);
        for code in [0x100, 0x110, 0x131, 0x14f, 0x170, 0x1ff] {
            let i = f.with_dpp(Dpp::Dpp16(d16(DppControl::from_code(code))));
            let e = execute(t, &mut w, &i).expect_err("reserved");
            assert!(e.to_string().contains("reserved"), "{t} {code:#x}: {e}");
        }
    }
}

/// Each OPEN switch, flipped on a copy of the spec, changes the result.
#[test]
fn every_dpp_switch_changes_behaviour() {
    let w32 = WaveSize::Wave32;
    let w64 = WaveSize::Wave64;
    let flip = |t: Target, f: &dyn Fn(&mut TargetSpec)| {
        let mut s = *t.spec();
        f(&mut s);
        s
    };
    let shr1 = |bc: bool| {
        fract32(Dpp::Dpp16(Dpp16 {
            bound_ctrl: bc,
            ..d16(DppControl::RowShr(1))
        }))
    };

    // inactive_source (OPEN-1, OPEN-2): lane 5 reads inactive lane 4.
    let exec = |size: WaveSize| full(size) & !(1 << 4);
    let t = Target::Gfx942;
    let read = flip(t, &|s| {
        s.dpp.inactive_source = flipped(DppInactiveSource::Read)
    });
    let zero = flip(t, &|s| {
        s.dpp.inactive_source = flipped(DppInactiveSource::Zero)
    });
    assert_eq!(run(t, w64, exec(w64), &shr1(false))[5], POISON);
    assert_eq!(
        run_spec(&read, w64, exec(w64), &shr1(false)).expect("runs")[5],
        src_value(4)
    );
    assert_eq!(
        run_spec(&zero, w64, exec(w64), &shr1(false)).expect("runs")[5],
        0
    );
    let t = Target::Gfx1030;
    let bcr = flip(t, &|s| {
        s.dpp.inactive_source = flipped(DppInactiveSource::BoundCtrl)
    });
    assert_eq!(run(t, w32, exec(w32), &shr1(false))[5], 0);
    assert_eq!(
        run_spec(&bcr, w32, exec(w32), &shr1(false)).expect("runs")[5],
        POISON
    );

    // zero_fill (OPEN-3): v_ldexp_f32_e64_dpp v0, -v1, v2 row_shr:1
    // bound_ctrl:1 on gfx1100: lane 0's raw 0, negated, is -0 and LDEXP
    // keeps it (0x80000000); positive_zero gives +0.
    let t = Target::Gfx1100;
    let ldexp = Instruction::binary(
        Opcode::LdexpF32,
        Encoding::Vop3,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    )
    .with_neg()
    .with_dpp(Dpp::Dpp16(Dpp16 {
        bound_ctrl: true,
        ..d16(DppControl::RowShr(1))
    }));
    let pos = flip(t, &|s| s.dpp.zero_fill = flipped(DppZeroFill::PositiveZero));
    let a = run(t, w32, full(w32), &ldexp);
    let b = run_spec(&pos, w32, full(w32), &ldexp).expect("runs");
    assert_eq!((a[0], b[0]), (0x8000_0000, 0));
    // The other lanes are unchanged by the switch: -(0.5 + (n-1) ulp) x 2^0.
    assert_eq!((a[3], b[3]), (0xbf00_0002, 0xbf00_0002));
    // e32 DPP16 NEG on gfx1030 LDEXP_F16, lane 16 zero-filled.
    let t = Target::Gfx1030;
    let l16 = Instruction::binary(
        Opcode::LdexpF16,
        Encoding::Vop2,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    )
    .with_neg()
    .with_dpp(Dpp::Dpp16(Dpp16 {
        bound_ctrl: true,
        ..d16(DppControl::RowShr(1))
    }));
    let pos = flip(t, &|s| s.dpp.zero_fill = flipped(DppZeroFill::PositiveZero));
    assert_eq!(run(t, w32, full(w32), &l16)[16], 0xdead_8000);
    assert_eq!(
        run_spec(&pos, w32, full(w32), &l16).expect("runs")[16],
        0xdead_0000
    );

    // bcast_low_rows (OPEN-4): row_bcast:15 lane 3 on gfx942, BC = 0.
    let t = Target::Gfx942;
    let bcast = fract32(Dpp::Dpp16(d16(DppControl::RowBcast15)));
    let own = flip(t, &|s| {
        s.dpp.bcast_low_rows = Some(flipped(DppBcastLowRows::OwnLane));
    });
    assert_eq!(run(t, w64, full(w64), &bcast)[3], POISON);
    assert_eq!(
        run_spec(&own, w64, full(w64), &bcast).expect("runs")[3],
        src_value(3)
    );
    let bcast31 = fract32(Dpp::Dpp16(d16(DppControl::RowBcast31)));
    assert_eq!(
        run_spec(&own, w64, full(w64), &bcast31).expect("runs")[20],
        src_value(20)
    );

    // reserved_ctrl (OPEN-5): wave_shl on gfx1100, and a reserved code.
    let t = Target::Gfx1100;
    let ident = flip(t, &|s| {
        s.dpp.reserved_ctrl = flipped(DppReservedCtrl::Identity)
    });
    for ctrl in [DppControl::WaveShl, DppControl::Reserved(0x100)] {
        let i = fract32(Dpp::Dpp16(d16(ctrl)));
        assert!(run_spec(t.spec(), w32, full(w32), &i).is_err());
        let got = run_spec(&ident, w32, full(w32), &i).expect("identity");
        assert_eq!(got, (0..32).map(src_value).collect::<Vec<_>>());
    }
    // ... and F64 quad_perm on gfx90a.
    let t = Target::Gfx90a;
    let ident = flip(t, &|s| {
        s.dpp.reserved_ctrl = flipped(DppReservedCtrl::Identity)
    });
    let f64q = Instruction::unary(
        Opcode::FractF64,
        Encoding::Vop1,
        Operand::v(4),
        Operand::v(2),
    )
    .with_dpp(Dpp::Dpp16(d16(DppControl::QuadPerm([3, 2, 1, 0]))));
    let mut w = Wave::for_target(t);
    w.set_vgpr64(2, 1, 0x3fe0_0000_0000_0001).expect("v[2:3]");
    assert!(execute(t, &mut w, &f64q).is_err());
    execute_with_spec(&ident, &mut w, &f64q).expect("identity");
    assert_eq!(w.vgpr64(4, 1).expect("lane"), 0x3fe0_0000_0000_0001);

    // share_xmask (OPEN-9): row_share:3 on gfx1030.
    let t = Target::Gfx1030;
    let err = flip(t, &|s| {
        s.dpp.share_xmask = Some(flipped(DppShareXmask::Error))
    });
    for ctrl in [DppControl::RowShare(3), DppControl::RowXmask(3)] {
        let i = fract32(Dpp::Dpp16(d16(ctrl)));
        let got = run(t, w32, full(w32), &i);
        assert_eq!(got[0], src_value(3));
        assert!(matches!(
            run_spec(&err, w32, full(w32), &i),
            Err(ExecError::InvalidDpp { .. })
        ));
    }

    // mixed_halves (OPEN-8): v_fract_f16_dpp v0.h, v1.l on gfx1100.
    let t = Target::Gfx1100;
    let err = flip(t, &|s| {
        s.dpp.mixed_halves = Some(flipped(DppMixedHalves::Error))
    });
    let mixed = Instruction::unary(
        Opcode::FractF16,
        Encoding::Vop1,
        Operand::v_hi(0),
        Operand::v_lo(1),
    )
    .with_dpp(Dpp::Dpp16(d16(DppControl::RowShare(2))));
    // v1.l of lane 2 = 0x0002 (a subnormal, flushed under MODE 0: +0).
    assert_eq!(run(t, w32, full(w32), &mixed)[0], 0x0000_beef);
    assert!(run_spec(&err, w32, full(w32), &mixed).is_err());
    let aligned = Instruction {
        src0: Operand::v_hi(1),
        ..mixed
    };
    assert!(run_spec(&err, w32, full(w32), &aligned).is_ok());

    // reserved_bits (OPEN-10): src1 bits on LDEXP_F16 e32 (gfx1030), and
    // the FI bit on GFX9 (gfx942).
    let t = Target::Gfx1030;
    let err = flip(t, &|s| {
        s.dpp.reserved_bits = flipped(DppReservedBits::Error)
    });
    let bits = Instruction::binary(
        Opcode::LdexpF16,
        Encoding::Vop2,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    )
    .with_dpp(Dpp::Dpp16(Dpp16 {
        src1_bits: 1,
        ..d16(DppControl::RowShare(0))
    }));
    assert!(run_spec(t.spec(), w32, full(w32), &bits).is_ok());
    assert!(run_spec(&err, w32, full(w32), &bits).is_err());
    let t = Target::Gfx942;
    let err = flip(t, &|s| {
        s.dpp.reserved_bits = flipped(DppReservedBits::Error)
    });
    let fi = fract32(Dpp::Dpp16(Dpp16 {
        fi: true,
        ..d16(DppControl::RowShr(1))
    }));
    assert_eq!(run(t, w64, full(w64), &fi)[1], src_value(0));
    assert!(run_spec(&err, w64, full(w64), &fi).is_err());
}

/// explain and dpp_lanes: every lane's source or reason, and the explained
/// result equals the executed bits.
#[test]
fn explain_says_where_src0_came_from() {
    let t = Target::Gfx1100;
    let size = WaveSize::Wave32;
    let exec = full(size) & !(1 << 4);
    let dpp = Dpp16 {
        row_mask: 0x1,
        bank_mask: 0xd,
        fi: false,
        ..d16(DppControl::RowShr(1))
    };
    let instr = fract32(Dpp::Dpp16(dpp));
    let w = wave(t, size, exec);
    let lanes = dpp_lanes(t, &w, &instr).expect("explains");
    let text = |n: usize| lanes[n].text.as_str();
    assert_eq!(lanes.len(), 32);
    assert_eq!(
        text(0),
        "not written: source out of range and bound_ctrl is 0"
    );
    assert_eq!(text(1), "src0 from lane 0");
    assert_eq!(text(4), "not written: EXEC is 0");
    assert_eq!(text(5), "not written: bank_mask bit 1 is 0");
    assert_eq!(text(9), "src0 from lane 8");
    assert_eq!(text(16), "not written: row_mask bit 1 is 0");
    let mut done = w.clone();
    execute(t, &mut done, &instr).expect("executes");
    for n in 0..32 {
        let ex = explain(t, &w, &instr, n).expect("explains");
        assert_eq!(ex.steps.iter().filter(|s| s.stage == "dpp").count(), 1);
        assert_eq!(
            u64::from(done.vgpr(0, n).expect("lane")),
            ex.result,
            "lane {n}"
        );
    }
    // Fetched inactive, and zero-filled inactive, with bank 1 enabled.
    let fi = Dpp16 {
        fi: true,
        ..d16(DppControl::RowShr(1))
    };
    let lanes = dpp_lanes(t, &w, &fract32(Dpp::Dpp16(fi))).expect("explains");
    assert_eq!(lanes[5].text, "src0 from lane 4, inactive, fetched by fi:1");
    let lanes = dpp_lanes(
        Target::Gfx1030,
        &w,
        &fract32(Dpp::Dpp16(d16(DppControl::RowShr(1)))),
    )
    .expect("explains");
    assert_eq!(
        lanes[5].text,
        "src0 = 0: source lane 4 is inactive (fi:0), read as 0 (dpp.inactive_source: zero)"
    );
    let d8 = Dpp::Dpp8 {
        sel: [4; 8],
        fi: false,
    };
    let lanes = dpp_lanes(t, &w, &fract32(d8)).expect("explains");
    assert_eq!(
        lanes[0].text,
        "src0 = 0: source lane 4 is inactive, DPP8 without fi reads 0"
    );
    let ex = explain(t, &w, &fract32(d8), 9).expect("explains");
    let step = ex
        .steps
        .iter()
        .find(|s| s.stage == "dpp")
        .expect("dpp step");
    assert_eq!(step.text, "lane 9: src0 from lane 12");
    // Without DPP: no lanes.
    let plain = Instruction { dpp: None, ..instr };
    assert!(dpp_lanes(t, &w, &plain).expect("explains").is_empty());
}
