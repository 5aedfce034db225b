//! Every row of `tests/captures/hw-public.tsv` (real hardware results),
//! transcribed through the typed API. Each row runs on a full wave with lane
//! 5 inactive: active lanes must hold the captured result, lane 5 and every
//! register not named must be unchanged.

mod common;
use amdgpu_valu::{DstUnused, Encoding, Instruction, Omod, Opcode, Operand, Sdwa, SdwaSel};
use common::{check, Reg};

#[test]
fn public_hardware_rows() {
    // gfx1201	0x00000030	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a8001	v0=0xa5a50000
    check(
        "gfx1201",
        0x00000030,
        Instruction::unary(
            Opcode::FractF16,
            Encoding::Vop1,
            Operand::v_lo(0),
            Operand::v_lo(1),
        ),
        &[Reg::V(0, 0xa5a5a5a5), Reg::V(1, 0x5a5a8001)],
        &[Reg::V(0, 0xa5a50000)],
    );
    // gfx1201	0x000000c0	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a0001	v0=0xa5a50001
    check(
        "gfx1201",
        0x000000c0,
        Instruction::unary(
            Opcode::FractF16,
            Encoding::Vop1,
            Operand::v_lo(0),
            Operand::v_lo(1),
        ),
        &[Reg::V(0, 0xa5a5a5a5), Reg::V(1, 0x5a5a0001)],
        &[Reg::V(0, 0xa5a50001)],
    );
    // gfx1201	0x00000030	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a0001	v0=0xa5a50000
    check(
        "gfx1201",
        0x00000030,
        Instruction::unary(
            Opcode::FractF16,
            Encoding::Vop1,
            Operand::v_lo(0),
            Operand::v_lo(1),
        ),
        &[Reg::V(0, 0xa5a5a5a5), Reg::V(1, 0x5a5a0001)],
        &[Reg::V(0, 0xa5a50000)],
    );
    // gfx1201	0x000000f0	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a7c00	v0=0xa5a5fe00
    check(
        "gfx1201",
        0x000000f0,
        Instruction::unary(
            Opcode::FractF16,
            Encoding::Vop1,
            Operand::v_lo(0),
            Operand::v_lo(1),
        ),
        &[Reg::V(0, 0xa5a5a5a5), Reg::V(1, 0x5a5a7c00)],
        &[Reg::V(0, 0xa5a5fe00)],
    );
    // gfx1201	0x000000fa	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a8000	v0=0xa5a50000
    check(
        "gfx1201",
        0x000000fa,
        Instruction::unary(
            Opcode::FractF16,
            Encoding::Vop1,
            Operand::v_lo(0),
            Operand::v_lo(1),
        ),
        &[Reg::V(0, 0xa5a5a5a5), Reg::V(1, 0x5a5a8000)],
        &[Reg::V(0, 0xa5a50000)],
    );
    // gfx1201	0x000000f0	v_fract_f16_e64 v0.l, -v1.l	v0=0xa5a5a5a5 v1=0x5a5a0001	v0=0xa5a53bff
    check(
        "gfx1201",
        0x000000f0,
        Instruction::unary(
            Opcode::FractF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
        )
        .with_neg(),
        &[Reg::V(0, 0xa5a5a5a5), Reg::V(1, 0x5a5a0001)],
        &[Reg::V(0, 0xa5a53bff)],
    );
    // gfx1201	0x000000f0	v_fract_f16_e64 v0.l, v1.l mul:2	v0=0xa5a5a5a5 v1=0x5a5a8001	v0=0xa5a53fff
    check(
        "gfx1201",
        0x000000f0,
        Instruction::unary(
            Opcode::FractF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
        )
        .with_omod(Omod::Mul2),
        &[Reg::V(0, 0xa5a5a5a5), Reg::V(1, 0x5a5a8001)],
        &[Reg::V(0, 0xa5a53fff)],
    );
    // gfx1201	0x00000030	v_fract_f32_e32 v0, v1	v0=0xdeadbeef v1=0x80000001	v0=0x3f7fffff
    check(
        "gfx1201",
        0x00000030,
        Instruction::unary(
            Opcode::FractF32,
            Encoding::Vop1,
            Operand::v(0),
            Operand::v(1),
        ),
        &[Reg::V(0, 0xdeadbeef), Reg::V(1, 0x80000001)],
        &[Reg::V(0, 0x3f7fffff)],
    );
    // gfx1201	0x000000fc	v_fract_f32_e32 v0, v1	v0=0xdeadbeef v1=0xb7cbb5fd	v0=0x3f7ffe69
    check(
        "gfx1201",
        0x000000fc,
        Instruction::unary(
            Opcode::FractF32,
            Encoding::Vop1,
            Operand::v(0),
            Operand::v(1),
        ),
        &[Reg::V(0, 0xdeadbeef), Reg::V(1, 0xb7cbb5fd)],
        &[Reg::V(0, 0x3f7ffe69)],
    );
    // gfx1201	0x000000f0	v_fract_f32_e32 v0, v1	v0=0xdeadbeef v1=0x7f800000	v0=0xffc00000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::unary(
            Opcode::FractF32,
            Encoding::Vop1,
            Operand::v(0),
            Operand::v(1),
        ),
        &[Reg::V(0, 0xdeadbeef), Reg::V(1, 0x7f800000)],
        &[Reg::V(0, 0xffc00000)],
    );
    // gfx1201	0x000000f0	v_fract_f32_e64 v0, v1 clamp	v0=0xdeadbeef v1=0x7f800001	v0=0x00000000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::unary(
            Opcode::FractF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
        )
        .with_clamp(),
        &[Reg::V(0, 0xdeadbeef), Reg::V(1, 0x7f800001)],
        &[Reg::V(0, 0x00000000)],
    );
    // gfx1201	0x00000030	v_fract_f64_e32 v[0:1], v[2:3]	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8000000000000001	v[0:1]=0x0000000000000000
    check(
        "gfx1201",
        0x00000030,
        Instruction::unary(
            Opcode::FractF64,
            Encoding::Vop1,
            Operand::v(0),
            Operand::v(2),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x8000000000000001),
        ],
        &[Reg::Pair(0, 0x0000000000000000)],
    );
    // gfx1201	0x000000c0	v_fract_f64_e32 v[0:1], v[2:3]	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0000000000000001	v[0:1]=0x0000000000000001
    check(
        "gfx1201",
        0x000000c0,
        Instruction::unary(
            Opcode::FractF64,
            Encoding::Vop1,
            Operand::v(0),
            Operand::v(2),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x0000000000000001),
        ],
        &[Reg::Pair(0, 0x0000000000000001)],
    );
    // gfx1201	0x000000fc	v_fract_f64_e32 v[0:1], v[2:3]	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0xbce254ae32fc7a4f	v[0:1]=0x3fefffffffffffed
    check(
        "gfx1201",
        0x000000fc,
        Instruction::unary(
            Opcode::FractF64,
            Encoding::Vop1,
            Operand::v(0),
            Operand::v(2),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0xbce254ae32fc7a4f),
        ],
        &[Reg::Pair(0, 0x3fefffffffffffed)],
    );
    // gfx1201	0x000000f0	v_fract_f64_e32 v[0:1], v[2:3]	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x7ff0000000000000	v[0:1]=0xfff8000000000000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::unary(
            Opcode::FractF64,
            Encoding::Vop1,
            Operand::v(0),
            Operand::v(2),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x7ff0000000000000),
        ],
        &[Reg::Pair(0, 0xfff8000000000000)],
    );
    // gfx1201	0x000000f0	v_fract_f64_e64 v[0:1], v[2:3] mul:2	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8000000000000001	v[0:1]=0x3fffffffffffffff
    check(
        "gfx1201",
        0x000000f0,
        Instruction::unary(
            Opcode::FractF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
        )
        .with_omod(Omod::Mul2),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x8000000000000001),
        ],
        &[Reg::Pair(0, 0x3fffffffffffffff)],
    );
    // gfx1201	0x000000f0	v_fract_f64_e64 v[0:1], v[2:3] clamp	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x7ff0000000000001	v[0:1]=0x0000000000000000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::unary(
            Opcode::FractF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
        )
        .with_clamp(),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x7ff0000000000001),
        ],
        &[Reg::Pair(0, 0x0000000000000000)],
    );
    // gfx1201	0x000000f0	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0401 v2=0x5a5affff	v0=0xa5a50200
    check(
        "gfx1201",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop2,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a0401),
            Reg::V(2, 0x5a5affff),
        ],
        &[Reg::V(0, 0xa5a50200)],
    );
    // gfx1201	0x000000f0	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a7fff	v0=0xa5a57c00
    check(
        "gfx1201",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop2,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a3c00),
            Reg::V(2, 0x5a5a7fff),
        ],
        &[Reg::V(0, 0xa5a57c00)],
    );
    // gfx1201	0x000000f0	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a8000	v0=0xa5a50000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop2,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a3c00),
            Reg::V(2, 0x5a5a8000),
        ],
        &[Reg::V(0, 0xa5a50000)],
    );
    // gfx1201	0x00000000	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0400 v2=0x5a5affff	v0=0xa5a50000
    check(
        "gfx1201",
        0x00000000,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop2,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a0400),
            Reg::V(2, 0x5a5affff),
        ],
        &[Reg::V(0, 0xa5a50000)],
    );
    // gfx1201	0x00000000	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a8400 v2=0x5a5affff	v0=0xa5a58000
    check(
        "gfx1201",
        0x00000000,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop2,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a8400),
            Reg::V(2, 0x5a5affff),
        ],
        &[Reg::V(0, 0xa5a58000)],
    );
    // gfx1201	0x00000040	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a8400 v2=0x5a5affff	v0=0xa5a58000
    check(
        "gfx1201",
        0x00000040,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop2,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a8400),
            Reg::V(2, 0x5a5affff),
        ],
        &[Reg::V(0, 0xa5a58000)],
    );
    // gfx1201	0x000000c0	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a8400 v2=0x5a5affff	v0=0xa5a58200
    check(
        "gfx1201",
        0x000000c0,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop2,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a8400),
            Reg::V(2, 0x5a5affff),
        ],
        &[Reg::V(0, 0xa5a58200)],
    );
    // gfx1201	0x000000f0	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a8000	v0=0xa5a50000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a3c00),
            Reg::V(2, 0x5a5a8000),
        ],
        &[Reg::V(0, 0xa5a50000)],
    );
    // gfx1201	0x000000f4	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a8000	v0=0xa5a50001
    check(
        "gfx1201",
        0x000000f4,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a3c00),
            Reg::V(2, 0x5a5a8000),
        ],
        &[Reg::V(0, 0xa5a50001)],
    );
    // gfx1201	0x000000f8	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0401 v2=0x5a5affff	v0=0xa5a50200
    check(
        "gfx1201",
        0x000000f8,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a0401),
            Reg::V(2, 0x5a5affff),
        ],
        &[Reg::V(0, 0xa5a50200)],
    );
    // gfx1201	0x000000f8	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a7fff	v0=0xa5a57bff
    check(
        "gfx1201",
        0x000000f8,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a3c00),
            Reg::V(2, 0x5a5a7fff),
        ],
        &[Reg::V(0, 0xa5a57bff)],
    );
    // gfx1201	0x000000f8	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a8000	v0=0xa5a50000
    check(
        "gfx1201",
        0x000000f8,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a3c00),
            Reg::V(2, 0x5a5a8000),
        ],
        &[Reg::V(0, 0xa5a50000)],
    );
    // gfx1201	0x000000fc	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a8401 v2=0x5a5affff	v0=0xa5a58200
    check(
        "gfx1201",
        0x000000fc,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a8401),
            Reg::V(2, 0x5a5affff),
        ],
        &[Reg::V(0, 0xa5a58200)],
    );
    // gfx1201	0x00000040	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0001 v2=0x5a5a000a	v0=0xa5a50400
    check(
        "gfx1201",
        0x00000040,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a0001),
            Reg::V(2, 0x5a5a000a),
        ],
        &[Reg::V(0, 0xa5a50400)],
    );
    // gfx1201	0x00000080	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0001 v2=0x5a5a000a	v0=0xa5a50000
    check(
        "gfx1201",
        0x00000080,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a0001),
            Reg::V(2, 0x5a5a000a),
        ],
        &[Reg::V(0, 0xa5a50000)],
    );
    // gfx1201	0x000000c0	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0001 v2=0x5a5a000a	v0=0xa5a50400
    check(
        "gfx1201",
        0x000000c0,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a0001),
            Reg::V(2, 0x5a5a000a),
        ],
        &[Reg::V(0, 0xa5a50400)],
    );
    // gfx1201	0x000000c0	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0400 v2=0x5a5affff	v0=0xa5a50200
    check(
        "gfx1201",
        0x000000c0,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        ),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x5a5a0400),
            Reg::V(2, 0x5a5affff),
        ],
        &[Reg::V(0, 0xa5a50200)],
    );
    // gfx1201	0x000000f0	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x80800000 v2=0xffffffe8	v0=0x80000000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x80800000),
            Reg::V(2, 0xffffffe8),
        ],
        &[Reg::V(0, 0x80000000)],
    );
    // gfx1201	0x000000f0	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x7fefffffffffffff v4=0x00000001	v[0:1]=0x7ff0000000000000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x7fefffffffffffff),
            Reg::V(4, 0x00000001),
        ],
        &[Reg::Pair(0, 0x7ff0000000000000)],
    );
    // gfx1201	0x000000f5	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00800000 v2=0xffffffe8	v0=0x00000001
    check(
        "gfx1201",
        0x000000f5,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x00800000),
            Reg::V(2, 0xffffffe8),
        ],
        &[Reg::V(0, 0x00000001)],
    );
    // gfx1201	0x000000f5	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0010000000000000 v4=0xffffffcb	v[0:1]=0x0000000000000001
    check(
        "gfx1201",
        0x000000f5,
        Instruction::binary(
            Opcode::LdexpF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x0010000000000000),
            Reg::V(4, 0xffffffcb),
        ],
        &[Reg::Pair(0, 0x0000000000000001)],
    );
    // gfx1201	0x000000f5	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8010000000000000 v4=0xffffffcb	v[0:1]=0x8000000000000000
    check(
        "gfx1201",
        0x000000f5,
        Instruction::binary(
            Opcode::LdexpF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x8010000000000000),
            Reg::V(4, 0xffffffcb),
        ],
        &[Reg::Pair(0, 0x8000000000000000)],
    );
    // gfx1201	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x80800000 v2=0xffffffe8	v0=0x80000001
    check(
        "gfx1201",
        0x000000fa,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x80800000),
            Reg::V(2, 0xffffffe8),
        ],
        &[Reg::V(0, 0x80000001)],
    );
    // gfx1201	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f7fffff
    check(
        "gfx1201",
        0x000000fa,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x7f7fffff),
            Reg::V(2, 0x00000001),
        ],
        &[Reg::V(0, 0x7f7fffff)],
    );
    // gfx1201	0x000000ff	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8010000000000000 v4=0xffffffcb	v[0:1]=0x8000000000000000
    check(
        "gfx1201",
        0x000000ff,
        Instruction::binary(
            Opcode::LdexpF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x8010000000000000),
            Reg::V(4, 0xffffffcb),
        ],
        &[Reg::Pair(0, 0x8000000000000000)],
    );
    // gfx1201	0x000000ff	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f7fffff
    check(
        "gfx1201",
        0x000000ff,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x7f7fffff),
            Reg::V(2, 0x00000001),
        ],
        &[Reg::V(0, 0x7f7fffff)],
    );
    // gfx1201	0x0000000f	v_ldexp_f32_e64 v0, v1, v2 mul:2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000000	v0=0x7f7fffff
    check(
        "gfx1201",
        0x0000000f,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        )
        .with_omod(Omod::Mul2),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x7f7fffff),
            Reg::V(2, 0x00000000),
        ],
        &[Reg::V(0, 0x7f7fffff)],
    );
    // gfx1201	0x00000000	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00000001 v2=0x00000017	v0=0x00000000
    check(
        "gfx1201",
        0x00000000,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x00000001),
            Reg::V(2, 0x00000017),
        ],
        &[Reg::V(0, 0x00000000)],
    );
    // gfx1201	0x000000f0	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00000001 v2=0x00000017	v0=0x00800000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x00000001),
            Reg::V(2, 0x00000017),
        ],
        &[Reg::V(0, 0x00800000)],
    );
    // gfx1201	0x00000000	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0000000000000001 v4=0x00000034	v[0:1]=0x0000000000000000
    check(
        "gfx1201",
        0x00000000,
        Instruction::binary(
            Opcode::LdexpF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x0000000000000001),
            Reg::V(4, 0x00000034),
        ],
        &[Reg::Pair(0, 0x0000000000000000)],
    );
    // gfx1201	0x000000f0	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0000000000000001 v4=0x00000034	v[0:1]=0x0010000000000000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x0000000000000001),
            Reg::V(4, 0x00000034),
        ],
        &[Reg::Pair(0, 0x0010000000000000)],
    );
    // gfx1100	0x000000f0	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00800000 v2=0xffffffe8	v0=0x00000000
    check(
        "gfx1100",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x00800000),
            Reg::V(2, 0xffffffe8),
        ],
        &[Reg::V(0, 0x00000000)],
    );
    // gfx1100	0x000000f0	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0010000000000000 v4=0xffffffcb	v[0:1]=0x0000000000000000
    check(
        "gfx1100",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x0010000000000000),
            Reg::V(4, 0xffffffcb),
        ],
        &[Reg::Pair(0, 0x0000000000000000)],
    );
    // gfx1100	0x000000f5	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8010000000000000 v4=0xffffffcb	v[0:1]=0x8000000000000000
    check(
        "gfx1100",
        0x000000f5,
        Instruction::binary(
            Opcode::LdexpF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x8010000000000000),
            Reg::V(4, 0xffffffcb),
        ],
        &[Reg::Pair(0, 0x8000000000000000)],
    );
    // gfx1100	0x000000f5	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f800000
    check(
        "gfx1100",
        0x000000f5,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x7f7fffff),
            Reg::V(2, 0x00000001),
        ],
        &[Reg::V(0, 0x7f800000)],
    );
    // gfx1100	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00800000 v2=0xffffffe8	v0=0x00000000
    check(
        "gfx1100",
        0x000000fa,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x00800000),
            Reg::V(2, 0xffffffe8),
        ],
        &[Reg::V(0, 0x00000000)],
    );
    // gfx1100	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x80800000 v2=0xffffffe8	v0=0x80000001
    check(
        "gfx1100",
        0x000000fa,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x80800000),
            Reg::V(2, 0xffffffe8),
        ],
        &[Reg::V(0, 0x80000001)],
    );
    // gfx1100	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f7fffff
    check(
        "gfx1100",
        0x000000fa,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x7f7fffff),
            Reg::V(2, 0x00000001),
        ],
        &[Reg::V(0, 0x7f7fffff)],
    );
    // gfx1100	0x000000fa	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x7fefffffffffffff v4=0x00000001	v[0:1]=0x7fefffffffffffff
    check(
        "gfx1100",
        0x000000fa,
        Instruction::binary(
            Opcode::LdexpF64,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        &[
            Reg::Pair(0, 0xdeadbeefdeadbeef),
            Reg::Pair(2, 0x7fefffffffffffff),
            Reg::V(4, 0x00000001),
        ],
        &[Reg::Pair(0, 0x7fefffffffffffff)],
    );
    // gfx1100	0x000000ff	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00800000 v2=0xffffffe8	v0=0x00000000
    check(
        "gfx1100",
        0x000000ff,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x00800000),
            Reg::V(2, 0xffffffe8),
        ],
        &[Reg::V(0, 0x00000000)],
    );
    // gfx1100	0x000000ff	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f7fffff
    check(
        "gfx1100",
        0x000000ff,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x7f7fffff),
            Reg::V(2, 0x00000001),
        ],
        &[Reg::V(0, 0x7f7fffff)],
    );
    // gfx1100	0x0000000f	v_ldexp_f32_e64 v0, v1, v2 mul:2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000000	v0=0x7f7fffff
    check(
        "gfx1100",
        0x0000000f,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        )
        .with_omod(Omod::Mul2),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x7f7fffff),
            Reg::V(2, 0x00000000),
        ],
        &[Reg::V(0, 0x7f7fffff)],
    );
    // gfx1100	0x00000000	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00000001 v2=0x00000017	v0=0x00000000
    check(
        "gfx1100",
        0x00000000,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x00000001),
            Reg::V(2, 0x00000017),
        ],
        &[Reg::V(0, 0x00000000)],
    );
    // gfx1100	0x000000f0	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00000001 v2=0x00000017	v0=0x00800000
    check(
        "gfx1100",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x00000001),
            Reg::V(2, 0x00000017),
        ],
        &[Reg::V(0, 0x00800000)],
    );
    // gfx1201	0x000000d0	v_ldexp_f32 v0, v1, v2	v0=0xdeadbeef v1=0x3f7fffff v2=0xffffff82	v0=0x00000000
    check(
        "gfx1201",
        0x000000d0,
        Instruction::binary(
            Opcode::LdexpF32,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        ),
        &[
            Reg::V(0, 0xdeadbeef),
            Reg::V(1, 0x3f7fffff),
            Reg::V(2, 0xffffff82),
        ],
        &[Reg::V(0, 0x00000000)],
    );
    // gfx1201	0x000000f0	v_ldexp_f16_e64 v0.l, v1.l, v2.l mul:2	v0=0xa5a5a5a5 v1=0x00003bff v2=0x0000fff2	v0=0xa5a50000
    check(
        "gfx1201",
        0x000000f0,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Vop3,
            Operand::v_lo(0),
            Operand::v_lo(1),
            Operand::v_lo(2),
        )
        .with_omod(Omod::Mul2),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x00003bff),
            Reg::V(2, 0x0000fff2),
        ],
        &[Reg::V(0, 0xa5a50000)],
    );
    // gfx1030	0x00000000	v_ldexp_f16_sdwa v0, v1, v2 div:2 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0	v0=0xa5a5a5a5 v1=0x00008400 v2=0x00000000	v0=0xa5a58000
    check(
        "gfx1030",
        0x00000000,
        Instruction::binary(
            Opcode::LdexpF16,
            Encoding::Sdwa,
            Operand::v(0),
            Operand::v(1),
            Operand::v(2),
        )
        .with_omod(Omod::Div2)
        .with_sdwa(Sdwa {
            dst_sel: SdwaSel::Word0,
            dst_unused: DstUnused::Preserve,
            src0_sel: SdwaSel::Word0,
            src1_sel: SdwaSel::Word0,
        }),
        &[
            Reg::V(0, 0xa5a5a5a5),
            Reg::V(1, 0x00008400),
            Reg::V(2, 0x00000000),
        ],
        &[Reg::V(0, 0xa5a58000)],
    );
}
