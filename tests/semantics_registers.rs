//! Registers, halves, SDWA and EXEC (docs/semantics.md §7). Every check
//! runs with one lane inactive and verifies all other registers unchanged.

mod common;
use amdgpu_valu::Opcode::{FractF16, FractF32, FractF64, LdexpF16};
use amdgpu_valu::{
    execute, DstUnused, Encoding, Instruction, Operand, Sdwa, SdwaSel, Target, Wave, WaveSize,
};
use common::{check, Reg};

const KEEP: u32 = 0xf0;

fn sdwa(dst_sel: SdwaSel, dst_unused: DstUnused, src0_sel: SdwaSel, src1_sel: SdwaSel) -> Sdwa {
    Sdwa {
        dst_sel,
        dst_unused,
        src0_sel,
        src1_sel,
        reserved: 0,
    }
}

#[test]
fn true16_halves_select_and_preserve() {
    for t in ["gfx1100", "gfx1150", "gfx1201", "gfx1250"] {
        for enc in [Encoding::Vop1, Encoding::Vop3] {
            // .h destination: the low half is preserved.
            let i = Instruction::unary(FractF16, enc, Operand::v_hi(0), Operand::v_lo(1));
            check(
                t,
                KEEP,
                i,
                &[Reg::V(0, 0xa5a5_a5a5), Reg::V(1, 0x5a5a_3e00)],
                &[Reg::V(0, 0x3800_a5a5)],
            );
            // .h source: the low half is ignored.
            let i = Instruction::unary(FractF16, enc, Operand::v_lo(0), Operand::v_hi(1));
            check(
                t,
                KEEP,
                i,
                &[Reg::V(0, 0xa5a5_a5a5), Reg::V(1, 0x3d00_5a5a)],
                &[Reg::V(0, 0xa5a5_3400)],
            ); // FRACT(1.25)
        }
        // LDEXP's exponent from a high half.
        let i = Instruction::binary(
            LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_hi(2),
        );
        check(
            t,
            KEEP,
            i,
            &[
                Reg::V(0, 0xa5a5_a5a5),
                Reg::V(1, 0x1234_3c00),
                Reg::V(2, 0xfffe_0003),
            ],
            &[Reg::V(0, 0xa5a5_3400)],
        );
    }
}

#[test]
fn gfx10_preserves_and_gfx9_zeroes_the_high_half() {
    for enc in [Encoding::Vop1, Encoding::Vop3] {
        let i = Instruction::unary(FractF16, enc, Operand::v(0), Operand::v(1));
        for t in ["gfx1010", "gfx1030"] {
            check(
                t,
                KEEP,
                i,
                &[Reg::V(0, 0xa5a5_a5a5), Reg::V(1, 0x5a5a_3e00)],
                &[Reg::V(0, 0xa5a5_3800)],
            );
        }
        for t in ["gfx908", "gfx90a", "gfx942", "gfx950"] {
            check(
                t,
                KEEP,
                i,
                &[Reg::V(0, 0xa5a5_a5a5), Reg::V(1, 0x5a5a_3e00)],
                &[Reg::V(0, 0x0000_3800)],
            );
        }
    }
    let i = Instruction::binary(
        LdexpF16,
        Encoding::Vop2,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    );
    check(
        "gfx908",
        KEEP,
        i,
        &[
            Reg::V(0, 0xa5a5_a5a5),
            Reg::V(1, 0x5a5a_3c00),
            Reg::V(2, 0x0000_0001),
        ],
        &[Reg::V(0, 0x0000_4000)],
    );
    check(
        "gfx1030",
        KEEP,
        i,
        &[
            Reg::V(0, 0xa5a5_a5a5),
            Reg::V(1, 0x5a5a_3c00),
            Reg::V(2, 0x0000_0001),
        ],
        &[Reg::V(0, 0xa5a5_4000)],
    );
}

#[test]
fn f32_and_f64_write_whole_registers() {
    let i = Instruction::unary(FractF32, Encoding::Vop1, Operand::v(0), Operand::v(1));
    check(
        "gfx1201",
        KEEP,
        i,
        &[Reg::V(0, 0xdead_beef), Reg::V(1, 0x3fc0_0000)],
        &[Reg::V(0, 0x3f00_0000)],
    );
    let i = Instruction::unary(FractF64, Encoding::Vop1, Operand::v(2), Operand::v(4));
    check(
        "gfx90a",
        KEEP,
        i,
        &[
            Reg::Pair(2, 0xdead_beef_dead_beef),
            Reg::Pair(4, 0xc006_0000_0000_0000),
        ],
        &[Reg::Pair(2, 0x3fd0_0000_0000_0000)],
    );
}

#[test]
fn sdwa_destination_selection() {
    let t = "gfx1030";
    let ins = |s: Sdwa| {
        Instruction::unary(FractF16, Encoding::Sdwa, Operand::v(0), Operand::v(1)).with_sdwa(s)
    };
    let old = Reg::V(0, 0xa5a5_a5a5);
    // FRACT(1.5) = 0x3800 into WORD_1.
    let src = Reg::V(1, 0x5a5a_3e00);
    let w1 = |u| sdwa(SdwaSel::Word1, u, SdwaSel::Word0, SdwaSel::Dword);
    check(
        t,
        KEEP,
        ins(w1(DstUnused::Pad)),
        &[old, src],
        &[Reg::V(0, 0x3800_0000)],
    );
    check(
        t,
        KEEP,
        ins(w1(DstUnused::Preserve)),
        &[old, src],
        &[Reg::V(0, 0x3800_a5a5)],
    );
    check(
        t,
        KEEP,
        ins(w1(DstUnused::Sext)),
        &[old, src],
        &[Reg::V(0, 0x3800_0000)],
    );
    // FRACT(0x3bff) = 0x3bff: its low byte 0xff into BYTE_1.
    let src = Reg::V(1, 0x0000_3bff);
    let b1 = |u| sdwa(SdwaSel::Byte1, u, SdwaSel::Word0, SdwaSel::Dword);
    check(
        t,
        KEEP,
        ins(b1(DstUnused::Pad)),
        &[old, src],
        &[Reg::V(0, 0x0000_ff00)],
    );
    check(
        t,
        KEEP,
        ins(b1(DstUnused::Sext)),
        &[old, src],
        &[Reg::V(0, 0xffff_ff00)],
    );
    check(
        t,
        KEEP,
        ins(b1(DstUnused::Preserve)),
        &[old, src],
        &[Reg::V(0, 0xa5a5_ffa5)],
    );
    // FRACT(inf) = 0xfe00 into WORD_0 with SEXT: the top bit fills the rest.
    let src = Reg::V(1, 0x0000_7c00);
    let w0 = |u| sdwa(SdwaSel::Word0, u, SdwaSel::Word0, SdwaSel::Dword);
    check(
        t,
        KEEP,
        ins(w0(DstUnused::Sext)),
        &[old, src],
        &[Reg::V(0, 0xffff_fe00)],
    );
    check(
        t,
        KEEP,
        ins(w0(DstUnused::Pad)),
        &[old, src],
        &[Reg::V(0, 0x0000_fe00)],
    );
    // An F16 result with dst_sel DWORD is zero-extended [open].
    let src = Reg::V(1, 0x0000_3e00);
    let dw = sdwa(
        SdwaSel::Dword,
        DstUnused::Preserve,
        SdwaSel::Word0,
        SdwaSel::Dword,
    );
    check(t, KEEP, ins(dw), &[old, src], &[Reg::V(0, 0x0000_3800)]);
    // An F32 result with WORD_1 stores its raw low 16 bits: FRACT(pi) = 0x3e10fdb0.
    let i = Instruction::unary(FractF32, Encoding::Sdwa, Operand::v(0), Operand::v(1));
    let i = i.with_sdwa(sdwa(
        SdwaSel::Word1,
        DstUnused::Pad,
        SdwaSel::Dword,
        SdwaSel::Dword,
    ));
    check(
        "gfx908",
        KEEP,
        i,
        &[old, Reg::V(1, 0x4049_0fdb)],
        &[Reg::V(0, 0xfdb0_0000)],
    );
}

#[test]
fn sdwa_source_selection_and_modifiers() {
    let t = "gfx1030";
    let old = Reg::V(0, 0xa5a5_a5a5);
    let s = sdwa(
        SdwaSel::Word0,
        DstUnused::Preserve,
        SdwaSel::Word1,
        SdwaSel::Byte0,
    );
    // src0 WORD_1 = 1.25, NEG on the selected float: FRACT(-1.25) = 0.75.
    let i = Instruction::unary(FractF16, Encoding::Sdwa, Operand::v(0), Operand::v(1))
        .with_sdwa(s)
        .with_neg();
    check(
        t,
        KEEP,
        i,
        &[old, Reg::V(1, 0x3d00_1234)],
        &[Reg::V(0, 0xa5a5_3a00)],
    );
    // LDEXP exponent BYTE_0 0xff: sign-extended -1, zero-extended 255.
    let ld = Instruction::binary(
        LdexpF16,
        Encoding::Sdwa,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    )
    .with_sdwa(s);
    let mut sext = ld;
    sext.src1_mods.sext = true;
    let inputs = [old, Reg::V(1, 0x3c00_0000), Reg::V(2, 0x0000_00ff)];
    check(t, KEEP, sext, &inputs, &[Reg::V(0, 0xa5a5_3800)]);
    check(t, KEEP, ld, &inputs, &[Reg::V(0, 0xa5a5_7c00)]);
    // [gfx1030 capture] SDWA div:2 rounds first: ldexp(0x8400, 0) div:2 -> 0x8000.
    let s = sdwa(
        SdwaSel::Word0,
        DstUnused::Preserve,
        SdwaSel::Word0,
        SdwaSel::Word0,
    );
    let i = Instruction::binary(
        LdexpF16,
        Encoding::Sdwa,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    )
    .with_sdwa(s)
    .with_omod(amdgpu_valu::Omod::Div2);
    check(
        t,
        0,
        i,
        &[old, Reg::V(1, 0x0000_8400), Reg::V(2, 0)],
        &[Reg::V(0, 0xa5a5_8000)],
    );
}

#[test]
fn exec_masks_lanes_in_wave32_and_wave64() {
    for (t, size) in [
        ("gfx1201", WaveSize::Wave64),
        ("gfx1201", WaveSize::Wave32),
        ("gfx942", WaveSize::Wave64),
    ] {
        let target: Target = t.parse().expect("target");
        let mut wave = Wave::for_target_with_size(target, size).expect("supported");
        wave.set_mode(KEEP);
        wave.set_vgpr_all(0, 0x1111_1111).expect("in range");
        wave.set_vgpr_all(1, 0x3fc0_0000).expect("in range");
        // Only odd lanes active; bits beyond the wave are dropped.
        wave.set_exec(0xaaaa_aaaa_aaaa_aaaa);
        let i = Instruction::unary(FractF32, Encoding::Vop1, Operand::v(0), Operand::v(1));
        execute(target, &mut wave, &i).expect("executes");
        for lane in 0..size.lanes() {
            let want = if lane % 2 == 1 {
                0x3f00_0000
            } else {
                0x1111_1111
            };
            assert_eq!(
                wave.vgpr(0, lane).expect("lane"),
                want,
                "{t} {size:?} lane {lane}"
            );
        }
        assert!(
            wave.vgpr(0, size.lanes()).is_err(),
            "lane beyond the wave is refused"
        );
    }
    // EXEC = 0 writes nothing.
    let target = Target::Gfx1100;
    let mut wave = Wave::for_target(target);
    wave.set_vgpr_all(1, 0x3fc0_0000).expect("in range");
    wave.set_exec(0);
    let before = wave.clone();
    let i = Instruction::unary(FractF32, Encoding::Vop3, Operand::v(0), Operand::v(1));
    execute(target, &mut wave, &i).expect("executes");
    assert_eq!(wave, before);
}
