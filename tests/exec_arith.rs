//! `execute` of the arithmetic instructions (ADD, SUB, SUBREV, MUL, FMA,
//! FMAC, FMAMK, FMAAK) in every form, on instructions built as values
//! and checked by `validate::check` through `execute` itself. Every
//! expected word is derived by hand in the comment beside it, from
//! docs/semantics.md §12 (the arithmetic rules) and §3 (registers).

use amdgpu_valu::{
    execute, Dpp, Dpp16, DppControl, DstUnused, Encoding, ExecError, FloatConst, Instruction,
    Opcode, Operand, Sdwa, SdwaSel, SrcMods, Target, Wave, WaveSize,
};

const NEG: SrcMods = SrcMods {
    abs: false,
    neg: true,
    sext: false,
};
const ABS: SrcMods = SrcMods {
    abs: true,
    neg: false,
    sext: false,
};

// F32 encodings.
const F32_0_25: u32 = 0x3e80_0000;
const F32_0_5: u32 = 0x3f00_0000;
const F32_1: u32 = 0x3f80_0000;
const F32_1_25: u32 = 0x3fa0_0000; // 1.25 = 1 + 2^-2
const F32_2: u32 = 0x4000_0000;
const F32_2_5: u32 = 0x4020_0000; // 2.5 = 1.25 x 2
const F32_3: u32 = 0x4040_0000;
const F32_6: u32 = 0x40c0_0000; // 6 = 1.5 x 4
const F32_7: u32 = 0x40e0_0000; // 7 = 1.75 x 4
const F32_10: u32 = 0x4120_0000; // 10 = 1.25 x 8
const F32_11: u32 = 0x4130_0000; // 11 = 1.375 x 8
const F32_20: u32 = 0x41a0_0000; // 20 = 1.25 x 16
const F32_22: u32 = 0x41b0_0000; // 22 = 1.375 x 16
const F32_NEG_1: u32 = 0xbf80_0000;
// F16 encodings (exponent bias 15, 10 fraction bits).
const F16_1: u32 = 0x3c00;
const F16_1_5: u32 = 0x3e00;
const F16_2: u32 = 0x4000;
const F16_3: u32 = 0x4200;
const F16_6: u32 = 0x4600; // 1.5 x 4
const F16_7: u32 = 0x4700; // 1.75 x 4
const F16_8: u32 = 0x4800;
const F16_9: u32 = 0x4880; // 1.125 x 8: fraction 0.125 x 1024 = 0x80
                           // F64 encodings.
const F64_1: u64 = 0x3ff0_0000_0000_0000;
const F64_2: u64 = 0x4000_0000_0000_0000;
const F64_3: u64 = 0x4008_0000_0000_0000;
const F64_7: u64 = 0x401c_0000_0000_0000; // 1.75 x 4

const OLD: u32 = 0xa5a5_a5a5;

fn v(i: u16) -> Operand {
    Operand::v(i)
}

fn bin(op: Opcode, enc: Encoding, dst: Operand, a: Operand, b: Operand) -> Instruction {
    Instruction::binary(op, enc, dst, a, b)
}

fn tern(
    op: Opcode,
    enc: Encoding,
    dst: Operand,
    a: Operand,
    b: Operand,
    c: Operand,
) -> Instruction {
    Instruction::ternary(op, enc, dst, a, b, c)
}

/// A wave of `t` (its default size), MODE `mode`, VGPR n = `regs[n]` in
/// every lane.
fn wave(t: Target, mode: u32, regs: &[u32]) -> Wave {
    let mut w = Wave::for_target(t);
    w.set_mode(mode);
    for (n, &r) in regs.iter().enumerate() {
        w.set_vgpr_all(n, r).expect("in range");
    }
    w
}

/// v0 of lane 0 after `instr` on [`wave`], every lane agreeing.
fn run(t: Target, mode: u32, instr: &Instruction, regs: &[u32]) -> u32 {
    let mut w = wave(t, mode, regs);
    execute(t, &mut w, instr).unwrap_or_else(|e| panic!("{t} {instr:?}: {e}"));
    let first = w.vgpr(0, 0).expect("lane");
    for lane in 0..w.lanes() {
        assert_eq!(w.vgpr(0, lane).expect("lane"), first, "{t}: lane {lane}");
    }
    first
}

#[test]
fn vop2_and_vop3_on_every_target() {
    // 1 + 2 = 3; 2 - 1 = 1 (SUB); SUBREV: src1 - src0 = 1 - 2 = -1; 2 x 3 = 6.
    for t in Target::ALL {
        let ops = [
            (Opcode::AddF32, [F32_1, F32_2], F32_3),
            (Opcode::SubF32, [F32_2, F32_1], F32_1),
            (Opcode::SubrevF32, [F32_2, F32_1], F32_NEG_1),
            (Opcode::MulF32, [F32_2, F32_3], F32_6),
        ];
        for (op, [a, b], want) in ops {
            for enc in [Encoding::Vop2, Encoding::Vop3] {
                let i = bin(op, enc, v(0), v(1), v(2));
                assert_eq!(run(t, 0xf0, &i, &[OLD, a, b]), want, "{t} {op:?} {enc:?}");
            }
        }
        // FMA: 2 x 3 + 1 = 7, VOP3 only.
        let i = tern(Opcode::FmaF32, Encoding::Vop3, v(0), v(1), v(2), v(3));
        assert_eq!(run(t, 0xf0, &i, &[OLD, F32_2, F32_3, F32_1]), F32_7, "{t}");
    }
}

#[test]
fn vop3_abs_and_neg_per_source() {
    let t = Target::Gfx1100;
    // -(1) + |-2| = 1. Losing NEG gives 3, losing ABS -3.
    let i = bin(Opcode::AddF32, Encoding::Vop3, v(0), v(1), v(2))
        .with_src_mods(0, NEG)
        .with_src_mods(1, ABS);
    assert_eq!(run(t, 0xf0, &i, &[OLD, F32_1, 0xc000_0000]), F32_1);
    // fma(2, 3, -|7|) = 6 - 7 = -1: NEG and ABS on src2.
    let m = SrcMods {
        abs: true,
        neg: true,
        sext: false,
    };
    let i = tern(Opcode::FmaF32, Encoding::Vop3, v(0), v(1), v(2), v(3)).with_src_mods(2, m);
    assert_eq!(run(t, 0xf0, &i, &[OLD, F32_2, F32_3, F32_7]), F32_NEG_1);
    // fma(-|2|, 3, 7) = -6 + 7 = 1: src0's; fma(2, -3, 7) = 1: src1's.
    let i = tern(Opcode::FmaF32, Encoding::Vop3, v(0), v(1), v(2), v(3)).with_src_mods(0, m);
    assert_eq!(run(t, 0xf0, &i, &[OLD, F32_2, F32_3, F32_7]), F32_1);
    let i = tern(Opcode::FmaF32, Encoding::Vop3, v(0), v(1), v(2), v(3)).with_src_mods(1, NEG);
    assert_eq!(run(t, 0xf0, &i, &[OLD, F32_2, F32_3, F32_7]), F32_1);
}

#[test]
fn f16_register_halves_per_family() {
    // 1 + 1 = 2 (0x4000) into v0 = 0xa5a5a5a5.
    let i = bin(Opcode::AddF16, Encoding::Vop2, v(0), v(1), v(1));
    // GFX9 (f16_dst_high: zero): bits 31:16 cleared.
    assert_eq!(run(Target::Gfx908, 0xf0, &i, &[OLD, F16_1]), 0x0000_4000);
    // GFX10: kept.
    assert_eq!(run(Target::Gfx1030, 0xf0, &i, &[OLD, F16_1]), 0xa5a5_4000);
    // True16: the other half kept, either half written.
    let lo = bin(
        Opcode::AddF16,
        Encoding::Vop2,
        Operand::v_lo(0),
        Operand::v_lo(1),
        Operand::v_lo(1),
    );
    assert_eq!(run(Target::Gfx1100, 0xf0, &lo, &[OLD, F16_1]), 0xa5a5_4000);
    let hi = bin(
        Opcode::AddF16,
        Encoding::Vop3,
        Operand::v_hi(0),
        Operand::v_lo(1),
        Operand::v_hi(1),
    );
    // v1 = 0x3c00_3c00: 1.0 in both halves.
    assert_eq!(
        run(Target::Gfx1201, 0xf0, &hi, &[OLD, 0x3c00_3c00]),
        0x4000_a5a5
    );
    // MUL and FMA clear on GFX9 too: 2 x 3 = 6; fma(2, 3, 1) = 7.
    let i = bin(Opcode::MulF16, Encoding::Vop3, v(0), v(1), v(2));
    assert_eq!(run(Target::Gfx90a, 0xf0, &i, &[OLD, F16_2, F16_3]), F16_6);
    let i = tern(Opcode::FmaF16, Encoding::Vop3, v(0), v(1), v(2), v(3));
    assert_eq!(
        run(Target::Gfx942, 0xf0, &i, &[OLD, F16_2, F16_3, F16_1]),
        F16_7
    );
    assert_eq!(
        run(Target::Gfx1010, 0xf0, &i, &[OLD, F16_2, F16_3, F16_1]),
        0xa5a5_0000 | F16_7
    );
}

#[test]
fn fmac_reads_the_destination_half_and_pair() {
    // True16 e32: v0 = 0x4000_3c00 (.h = 2, .l = 1); 3 x 2 + D.
    let regs = [0x4000_3c00, F16_3, F16_2];
    // .h: 6 + 2 = 8 (0x4800), low half kept. Reading .l would give 7.
    let i = bin(
        Opcode::FmacF16,
        Encoding::Vop2,
        Operand::v_hi(0),
        Operand::v_lo(1),
        Operand::v_lo(2),
    );
    assert_eq!(run(Target::Gfx1100, 0xf0, &i, &regs), (F16_8 << 16) | F16_1);
    // .l: 6 + 1 = 7 (0x4700), high half kept.
    let i = bin(
        Opcode::FmacF16,
        Encoding::Vop2,
        Operand::v_lo(0),
        Operand::v_lo(1),
        Operand::v_lo(2),
    );
    assert_eq!(run(Target::Gfx1100, 0xf0, &i, &regs), 0x4000_0000 | F16_7);
    // GFX10 F16 FMAC: D is bits 15:0 (1.0 here), bits 31:16 kept.
    let i = bin(Opcode::FmacF16, Encoding::Vop3, v(0), v(1), v(2));
    assert_eq!(run(Target::Gfx1030, 0xf0, &i, &regs), 0x4000_0000 | F16_7);
    // F32: 2 x 3 + 1 = 7.
    let i = bin(Opcode::FmacF32, Encoding::Vop2, v(0), v(1), v(2));
    assert_eq!(run(Target::Gfx908, 0xf0, &i, &[F32_1, F32_2, F32_3]), F32_7);
    // F64 (gfx90a): D is the pair v[0:1] = 1.0; 2 x 3 + 1 = 7.
    let t = Target::Gfx90a;
    let mut w = Wave::for_target(t);
    w.set_mode(0xf0);
    for (r, x) in [(0, F64_1), (2, F64_2), (4, F64_3)] {
        w.set_vgpr64_all(r, x).expect("in range");
    }
    let i = bin(Opcode::FmacF64, Encoding::Vop2, v(0), v(2), v(4));
    execute(t, &mut w, &i).expect("executes");
    assert_eq!(w.vgpr64(0, 5).expect("lane"), F64_7);
}

#[test]
fn fmamk_and_fmaak_read_k_in_the_result_format() {
    // F16 (gfx1030): K is bits 15:0 of the literal: 0xdead_4400 -> 4.0.
    // FMAMK: 2 x K + 1 = 9 (0x4880); FMAAK: 2 x 1 + K = 6. GFX10 keeps
    // bits 31:16.
    let k = Operand::Literal(0xdead_4400);
    let i = tern(Opcode::FmamkF16, Encoding::Vop2, v(0), v(1), k, v(2));
    assert_eq!(
        run(Target::Gfx1030, 0xf0, &i, &[OLD, F16_2, F16_1]),
        0xa5a5_0000 | F16_9
    );
    let i = tern(Opcode::FmaakF16, Encoding::Vop2, v(0), v(1), v(2), k);
    assert_eq!(
        run(Target::Gfx1030, 0xf0, &i, &[OLD, F16_2, F16_1]),
        0xa5a5_0000 | F16_6
    );
    // F32 (gfx942, VOP2 0x17/0x18): 2 x 3 + 1 = 7 and 2 x 1 + 3 = 5.
    let k = Operand::Literal(F32_3);
    let i = tern(Opcode::FmamkF32, Encoding::Vop2, v(0), v(1), k, v(2));
    assert_eq!(run(Target::Gfx942, 0xf0, &i, &[OLD, F32_2, F32_1]), F32_7);
    let i = tern(Opcode::FmaakF32, Encoding::Vop2, v(0), v(1), v(2), k);
    assert_eq!(
        run(Target::Gfx942, 0xf0, &i, &[OLD, F32_2, F32_1]),
        0x40a0_0000
    ); // 5 = 1.25 x 4
       // F64 (gfx1250): a 64-bit literal is the whole K. FMAMK: 2 x (1 +
       // 2^-52) + 1 = 3 + 2^-51, exact (the ulp of [2, 4) is 2^-51):
       // 0x4008000000000001. FMAAK: 2 x 1 + (1 + 3 x 2^-52) = 3 + 1.5 ulp, a
       // tie between 3 + 1 ulp (odd) and 3 + 2 ulp (even): 0x4008000000000002.
       // A 32-bit literal is K's high dword: 0x3ff00000 -> 1.0; both give 3.
    let t = Target::Gfx1250;
    let cases = [
        (
            Opcode::FmamkF64,
            Operand::Literal64(0x3ff0_0000_0000_0001),
            0x4008_0000_0000_0001,
        ),
        (
            Opcode::FmaakF64,
            Operand::Literal64(0x3ff0_0000_0000_0003),
            0x4008_0000_0000_0002,
        ),
        (Opcode::FmamkF64, Operand::Literal(0x3ff0_0000), F64_3),
        (Opcode::FmaakF64, Operand::Literal(0x3ff0_0000), F64_3),
    ];
    for (op, k, want) in cases {
        let mut w = Wave::for_target(t);
        w.set_mode(0xf0);
        w.set_vgpr64_all(2, F64_2).expect("in range");
        w.set_vgpr64_all(4, F64_1).expect("in range");
        let i = if op == Opcode::FmamkF64 {
            tern(op, Encoding::Vop2, v(0), v(2), k, v(4))
        } else {
            tern(op, Encoding::Vop2, v(0), v(2), v(4), k)
        };
        execute(t, &mut w, &i).expect("executes");
        assert_eq!(w.vgpr64(0, 0).expect("lane"), want, "{op:?} {k:?}");
    }
}

#[test]
fn constants_and_scalars_in_the_operand_format() {
    // F16 (gfx1030): 0.5 (inline, 0x3800) + s0 (1.0) = 1.5 (0x3e00).
    let t = Target::Gfx1030;
    let mut w = wave(t, 0xf0, &[OLD]);
    w.set_sgpr(0, F16_1).expect("sgpr");
    let i = bin(
        Opcode::AddF16,
        Encoding::Vop3,
        v(0),
        Operand::InlineFloat(FloatConst::Half),
        Operand::s(0),
    );
    execute(t, &mut w, &i).expect("executes");
    assert_eq!(w.vgpr(0, 3).expect("lane"), 0xa5a5_0000 | F16_1_5);
    // F64 (gfx1100): 1.0 inline in F64 + v[2:3] (2.0) = 3.0.
    let t = Target::Gfx1100;
    let mut w = Wave::for_target(t);
    w.set_vgpr64_all(2, F64_2).expect("in range");
    let i = bin(
        Opcode::AddF64,
        Encoding::Vop3,
        v(0),
        Operand::InlineFloat(FloatConst::One),
        v(2),
    );
    execute(t, &mut w, &i).expect("executes");
    assert_eq!(w.vgpr64(0, 0).expect("lane"), F64_3);
    // An inline integer is its bits: F32 1 is the smallest subnormal, kept
    // under MODE 0xf0: 1 + 0 = 0x00000001.
    let i = bin(
        Opcode::AddF32,
        Encoding::Vop3,
        v(0),
        Operand::InlineInt(1),
        v(1),
    );
    assert_eq!(run(t, 0xf0, &i, &[OLD, 0]), 1);
    // A literal src0 in VOP2: 0.25 + 1 = 1.25.
    let i = bin(
        Opcode::AddF32,
        Encoding::Vop2,
        v(0),
        Operand::Literal(F32_0_25),
        v(1),
    );
    assert_eq!(run(t, 0xf0, &i, &[OLD, F32_1]), F32_1_25);
}

fn sdwa(dst_sel: SdwaSel, src0_sel: SdwaSel, src1_sel: SdwaSel) -> Sdwa {
    Sdwa {
        dst_sel,
        dst_unused: DstUnused::Preserve,
        src0_sel,
        src1_sel,
        reserved: 0,
    }
}

#[test]
fn sdwa_fields_modifiers_and_merge() {
    // v1 = 0x4000_xxxx: WORD_1 is 2.0; v2 = 0x....4200: WORD_0 is 3.0.
    // -2 x 3 = -6 (0xc600) into WORD_1, WORD_0 preserved.
    for t in [Target::Gfx908, Target::Gfx1030] {
        let i = bin(Opcode::MulF16, Encoding::Sdwa, v(0), v(1), v(2))
            .with_sdwa(sdwa(SdwaSel::Word1, SdwaSel::Word1, SdwaSel::Word0))
            .with_src_mods(0, NEG);
        assert_eq!(
            run(t, 0xf0, &i, &[OLD, 0x4000_1234, 0x5678_4200]),
            0xc600_a5a5,
            "{t}"
        );
        // src1's NEG too: -2 x -3 = 6.
        let i = i.with_src_mods(1, NEG);
        assert_eq!(
            run(t, 0xf0, &i, &[OLD, 0x4000_1234, 0x5678_4200]),
            0x4600_a5a5,
            "{t}"
        );
        // F32 ADD with |src1|: 1 + |-2| = 3, DWORD.
        let i = bin(Opcode::AddF32, Encoding::Sdwa, v(0), v(1), v(2))
            .with_sdwa(sdwa(SdwaSel::Dword, SdwaSel::Dword, SdwaSel::Dword))
            .with_src_mods(1, ABS);
        assert_eq!(run(t, 0xf0, &i, &[OLD, F32_1, 0xc000_0000]), F32_3, "{t}");
    }
}

/// Lane `n`'s VGPR words from `f(n)`.
fn per_lane(w: &mut Wave, reg: usize, f: impl Fn(usize) -> u32) {
    for lane in 0..w.lanes() {
        w.set_vgpr(reg, lane, f(lane)).expect("lane");
    }
}

#[test]
fn dpp16_gathers_src0_only() {
    // row_shr:1, bound_ctrl off: lane n reads src0 from lane n-1 of its
    // row; the first lane of a row is not written. src1 is the lane's own.
    // v1: 1.0 on even lanes, 2.0 on odd; v2: 0.25 on odd lanes, 0.5 on
    // even. Odd n: v1[n-1] + v2[n] = 1 + 0.25 = 1.25; even n: 2 + 0.5 = 2.5.
    for (t, enc) in [
        (Target::Gfx908, Encoding::Vop2),
        (Target::Gfx1030, Encoding::Vop2),
        (Target::Gfx1100, Encoding::Vop3),
        (Target::Gfx1201, Encoding::Vop2),
    ] {
        let mut w = Wave::for_target(t);
        w.set_mode(0xf0);
        w.set_vgpr_all(0, OLD).expect("in range");
        per_lane(&mut w, 1, |n| if n % 2 == 0 { F32_1 } else { F32_2 });
        per_lane(&mut w, 2, |n| if n % 2 == 1 { F32_0_25 } else { F32_0_5 });
        let i = bin(Opcode::AddF32, enc, v(0), v(1), v(2))
            .with_dpp(Dpp::Dpp16(Dpp16::new(DppControl::RowShr(1))));
        execute(t, &mut w, &i).unwrap_or_else(|e| panic!("{t}: {e}"));
        for n in 0..w.lanes() {
            let want = match n {
                _ if n % 16 == 0 => OLD,
                _ if n % 2 == 1 => F32_1_25,
                _ => F32_2_5,
            };
            assert_eq!(w.vgpr(0, n).expect("lane"), want, "{t} {enc:?} lane {n}");
        }
    }
}

#[test]
fn dpp16_source_modifiers_after_the_gather() {
    // -v1[n-1] + |v2[n]|, v1 = 1.0 on even lanes and 2.0 on odd, v2 = -0.5.
    // Odd n: -1 + 0.5 = -0.5 (0xbf000000); even n: -2 + 0.5 = -1.5 (0xbfc00000).
    // e32 DPP16 carries src0 NEG and src1 ABS in its word (gfx1030); the
    // VOP3 DPP form (gfx1100) in its VOP3 bits.
    for (t, enc) in [
        (Target::Gfx1030, Encoding::Vop2),
        (Target::Gfx1100, Encoding::Vop3),
    ] {
        let mut w = Wave::for_target(t);
        w.set_mode(0xf0);
        per_lane(&mut w, 1, |n| if n % 2 == 0 { F32_1 } else { F32_2 });
        w.set_vgpr_all(2, 0xbf00_0000).expect("in range");
        let d = Dpp16 {
            bound_ctrl: true,
            ..Dpp16::new(DppControl::RowShr(1))
        };
        let i = bin(Opcode::AddF32, enc, v(0), v(1), v(2))
            .with_dpp(Dpp::Dpp16(d))
            .with_src_mods(0, NEG)
            .with_src_mods(1, ABS);
        execute(t, &mut w, &i).unwrap_or_else(|e| panic!("{t}: {e}"));
        for n in 1..16 {
            let want = if n % 2 == 1 { 0xbf00_0000 } else { 0xbfc0_0000 };
            assert_eq!(w.vgpr(0, n).expect("lane"), want, "{t} lane {n}");
        }
        // Lane 0: out of range, bound_ctrl reads src0 = 0: -0 + 0.5 = 0.5.
        assert_eq!(w.vgpr(0, 0).expect("lane"), F32_0_5, "{t} lane 0");
    }
}

#[test]
fn dpp8_gathers_src0() {
    // dpp8:[7,6,5,4,3,2,1,0]: lane n reads lane n ^ 7 of its group of 8.
    // v1 = 2.0 on lanes n % 8 == 0, else 1.0; v2 = 3.0. Lane 7 of a group
    // reads lane 0: 2 x 3 = 6; lane 0 reads lane 7: 1 x 3 = 3.
    for (t, enc) in [
        (Target::Gfx1030, Encoding::Vop2),
        (Target::Gfx1100, Encoding::Vop3),
    ] {
        let mut w = Wave::for_target(t);
        w.set_mode(0xf0);
        per_lane(&mut w, 1, |n| if n % 8 == 0 { F32_2 } else { F32_1 });
        w.set_vgpr_all(2, F32_3).expect("in range");
        let i = bin(Opcode::MulF32, enc, v(0), v(1), v(2)).with_dpp(Dpp::Dpp8 {
            sel: [7, 6, 5, 4, 3, 2, 1, 0],
            fi: false,
        });
        execute(t, &mut w, &i).unwrap_or_else(|e| panic!("{t}: {e}"));
        for n in 0..w.lanes() {
            let want = if n % 8 == 7 { F32_6 } else { F32_3 };
            assert_eq!(w.vgpr(0, n).expect("lane"), want, "{t} lane {n}");
        }
    }
}

#[test]
fn fmac_under_dpp_takes_d_from_its_own_lane() {
    // row_shr:1; v1 = 1.0 on even lanes, 2.0 on odd; v2 = 1.0; v0 (D) =
    // 10.0 on odd lanes, 20.0 on even. Odd n: v1[n-1] x 1 + D[n] = 1 + 10 =
    // 11; even n: 2 + 20 = 22. D gathered from lane n-1 would give 21 and 12.
    for (t, enc) in [
        (Target::Gfx1030, Encoding::Vop2),
        (Target::Gfx1100, Encoding::Vop3),
    ] {
        let mut w = Wave::for_target(t);
        w.set_mode(0xf0);
        per_lane(&mut w, 0, |n| if n % 2 == 1 { F32_10 } else { F32_20 });
        per_lane(&mut w, 1, |n| if n % 2 == 0 { F32_1 } else { F32_2 });
        w.set_vgpr_all(2, F32_1).expect("in range");
        let i = bin(Opcode::FmacF32, enc, v(0), v(1), v(2))
            .with_dpp(Dpp::Dpp16(Dpp16::new(DppControl::RowShr(1))));
        execute(t, &mut w, &i).unwrap_or_else(|e| panic!("{t}: {e}"));
        for n in 0..w.lanes() {
            let want = match n {
                _ if n % 16 == 0 => F32_20,
                _ if n % 2 == 1 => F32_11,
                _ => F32_22,
            };
            assert_eq!(w.vgpr(0, n).expect("lane"), want, "{t} {enc:?} lane {n}");
        }
    }
}

#[test]
fn exec_and_wave64() {
    // Wave64 on gfx1030 and gfx1100; EXEC = lanes 0, 33 and 63: 1 + 2 = 3
    // there, the old word elsewhere.
    for t in [Target::Gfx1030, Target::Gfx1100, Target::Gfx908] {
        let mut w = Wave::for_target_with_size(t, WaveSize::Wave64).expect("wave64");
        w.set_mode(0xf0);
        for (r, x) in [(0, OLD), (1, F32_1), (2, F32_2)] {
            w.set_vgpr_all(r, x).expect("in range");
        }
        let exec = 1 | 1 << 33 | 1 << 63;
        w.set_exec(exec);
        let i = bin(Opcode::AddF32, Encoding::Vop2, v(0), v(1), v(2));
        execute(t, &mut w, &i).expect("executes");
        for n in 0..64 {
            let want = if exec >> n & 1 != 0 { F32_3 } else { OLD };
            assert_eq!(w.vgpr(0, n).expect("lane"), want, "{t} lane {n}");
        }
    }
    // Wave32: lanes past 31 do not exist; EXEC bit 31 alone.
    let t = Target::Gfx1201;
    let mut w = wave(t, 0xf0, &[OLD, F32_1, F32_2]);
    w.set_exec(1 << 31);
    let i = bin(Opcode::AddF32, Encoding::Vop3, v(0), v(1), v(2));
    execute(t, &mut w, &i).expect("executes");
    assert_eq!(w.vgpr(0, 31).expect("lane"), F32_3);
    assert_eq!(w.vgpr(0, 30).expect("lane"), OLD);
}

#[test]
fn the_first_nan_in_encoding_order() {
    let t = Target::Gfx1201; // quiets every NaN it returns
    let fma = tern(Opcode::FmaF32, Encoding::Vop3, v(0), v(1), v(2), v(3));
    // A NaN src2 alone: quieted, payload kept: 0x7f800005 -> 0x7fc00005.
    assert_eq!(
        run(t, 0, &fma, &[OLD, F32_1, F32_2, 0x7f80_0005]),
        0x7fc0_0005
    );
    // A NaN src1 wins over a NaN src2.
    assert_eq!(
        run(t, 0, &fma, &[OLD, F32_1, 0xffc0_0002, 0x7f80_0005]),
        0xffc0_0002
    );
    // FMAAK (src0, src1, K): a NaN src1 wins over a NaN K; K alone is
    // returned quieted.
    let k = Operand::Literal(0x7f80_0003);
    let i = tern(Opcode::FmaakF32, Encoding::Vop2, v(0), v(1), v(2), k);
    assert_eq!(run(t, 0, &i, &[OLD, F32_1, 0x7fc0_0222]), 0x7fc0_0222);
    assert_eq!(run(t, 0, &i, &[OLD, F32_1, F32_1]), 0x7fc0_0003);
    // FMAMK (src0, K, src1): K wins over the VGPR addend.
    let i = tern(Opcode::FmamkF32, Encoding::Vop2, v(0), v(1), k, v(2));
    assert_eq!(run(t, 0, &i, &[OLD, F32_1, 0x7fc0_0222]), 0x7fc0_0003);
    // FMAC (src0, src1, D): D alone is returned; src1 wins over D.
    let i = bin(Opcode::FmacF32, Encoding::Vop2, v(0), v(1), v(2));
    assert_eq!(run(t, 0, &i, &[0x7fc0_0007, F32_1, F32_1]), 0x7fc0_0007);
    assert_eq!(
        run(t, 0, &i, &[0x7fc0_0007, F32_1, 0xffc0_0009]),
        0xffc0_0009
    );
    // SUBREV still prefers src0's NaN (encoding order, not the formula's).
    let i = bin(Opcode::SubrevF32, Encoding::Vop2, v(0), v(1), v(2));
    assert_eq!(run(t, 0, &i, &[OLD, 0x7fc0_0011, 0x7fc0_0022]), 0x7fc0_0011);
    // F16 FMA: 0 x inf is invalid and wins over a NaN addend: 0xfe00.
    let i = tern(
        Opcode::FmaF16,
        Encoding::Vop3,
        Operand::v_lo(0),
        Operand::v_lo(1),
        Operand::v_lo(2),
        Operand::v_lo(3),
    );
    assert_eq!(
        run(Target::Gfx1100, 0x2f0, &i, &[0, 0, 0x7c00, 0x7e01]),
        0xfe00
    );
}

#[test]
fn forms_a_target_lacks_are_refused() {
    let mut w = Wave::for_target(Target::Gfx908);
    // No F16 FMAMK on GFX9.
    let i = tern(
        Opcode::FmamkF16,
        Encoding::Vop2,
        v(0),
        v(1),
        Operand::Literal(0x3c00),
        v(2),
    );
    assert!(matches!(
        execute(Target::Gfx908, &mut w, &i),
        Err(ExecError::FormNotOnTarget { .. })
    ));
    // FMA has no VOP2 form; FMA without src2 is refused.
    let i = bin(Opcode::FmaF32, Encoding::Vop3, v(0), v(1), v(2));
    assert!(execute(Target::Gfx908, &mut w, &i).is_err());
    // K must be a constant.
    let i = tern(Opcode::FmamkF32, Encoding::Vop2, v(0), v(1), v(3), v(2));
    let mut w = Wave::for_target(Target::Gfx1030);
    assert!(execute(Target::Gfx1030, &mut w, &i).is_err());
}
