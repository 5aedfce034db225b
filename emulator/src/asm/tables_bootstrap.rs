//! TEMPORARY: the field layouts and operand codes of each family,
//! hand-written from `llvm-mc-22` output until they move into `isa-spec/`
//! and reach the code through the generated modules (issue 3, phase 2).
//! Opcode numbers already come from the generated `TargetSpec.forms`.
//! Every number here is checked by `tests/asm_fixtures.rs`.

use super::tables::*;
use crate::target::{Family, Target};

const VOP1: Vop1Layout = Vop1Layout {
    encoding: Field::bits(31, 25),
    encoding_value: 0x3f,
    op: Field::bits(16, 9),
    vdst: Field::bits(24, 17),
    src0: Field::bits(8, 0),
};

const VOP2: Vop2Layout = Vop2Layout {
    encoding: Field::bit(31),
    encoding_value: 0,
    op: Field::bits(30, 25),
    vdst: Field::bits(24, 17),
    vsrc1: Field::bits(16, 9),
    src0: Field::bits(8, 0),
};

const fn vop3(encoding_value: u32, op_sel: Option<Field>) -> Vop3Layout {
    Vop3Layout {
        encoding: Field::bits(31, 26),
        encoding_value,
        op: Field::bits(25, 16),
        vdst: Field::bits(7, 0),
        abs: Field::bits(10, 8),
        op_sel,
        op_sel_dst_bit: 3,
        clamp: Field::bit(15),
        src: [Field::bits(8, 0), Field::bits(17, 9), Field::bits(26, 18)],
        omod: Field::bits(28, 27),
        neg: Field::bits(31, 29),
    }
}

const SDWA: SdwaLayout = SdwaLayout {
    marker: 0xf9,
    src0: Field::bits(7, 0),
    dst_sel: Field::bits(10, 8),
    dst_unused: Field::bits(12, 11),
    clamp: Field::bit(13),
    omod: Field::bits(15, 14),
    src0_sel: Field::bits(18, 16),
    src0_sext: Field::bit(19),
    src0_neg: Field::bit(20),
    src0_abs: Field::bit(21),
    src0_sgpr: Field::bit(23),
    src1_sel: Field::bits(26, 24),
    src1_sext: Field::bit(27),
    src1_neg: Field::bit(28),
    src1_abs: Field::bit(29),
    src1_sgpr: Field::bit(31),
    reserved: 1 << 22 | 1 << 30,
};

const fn codes(max_sgpr: u8, m0: u32, null: Option<u32>) -> OperandCodes {
    OperandCodes {
        max_sgpr,
        vcc_lo: 106,
        m0,
        null,
        exec_lo: 126,
        int_zero: 128,
        float_first: 240,
        literal: 255,
        literal64: None,
        vgpr_first: 256,
    }
}

/// GFX9 (CDNA1-4).
pub static GFX9: FamilyEncoding = FamilyEncoding {
    family: Family::Gfx9,
    vop1: VOP1,
    vop2: VOP2,
    vop3: vop3(0x34, None),
    sdwa: Some(SDWA),
    codes: codes(101, 124, None),
    true16_e32_halves: false,
    vop3_literal: false,
    constant_bus_limit: 1,
};

/// GFX10 (RDNA1-2).
pub static GFX10: FamilyEncoding = FamilyEncoding {
    family: Family::Gfx10,
    vop1: VOP1,
    vop2: VOP2,
    vop3: vop3(0x35, None),
    sdwa: Some(SDWA),
    codes: codes(105, 124, Some(125)),
    true16_e32_halves: false,
    vop3_literal: true,
    constant_bus_limit: 2,
};

/// GFX11 (RDNA3, RDNA3.5): m0 and null swap codes; true16 halves.
pub static GFX11: FamilyEncoding = FamilyEncoding {
    family: Family::Gfx11,
    vop1: VOP1,
    vop2: VOP2,
    vop3: vop3(0x35, Some(Field::bits(14, 11))),
    sdwa: None,
    codes: codes(105, 125, Some(124)),
    true16_e32_halves: true,
    vop3_literal: true,
    constant_bus_limit: 2,
};

/// GFX12 (RDNA4, CDNA5).
pub static GFX12: FamilyEncoding = FamilyEncoding {
    family: Family::Gfx12,
    ..GFX11
};

/// GFX12.5 (gfx1250): GFX12 plus 64-bit literals (operand code 254).
pub static GFX1250: FamilyEncoding = FamilyEncoding {
    codes: OperandCodes {
        literal64: Some(254),
        ..GFX12.codes
    },
    ..GFX12
};

const fn t(target: Target, family: &'static FamilyEncoding) -> TargetEncoding {
    TargetEncoding {
        target,
        family,
        literal64: family.codes.literal64.is_some(),
    }
}

static TARGETS: [TargetEncoding; 10] = [
    t(Target::Gfx908, &GFX9),
    t(Target::Gfx90a, &GFX9),
    t(Target::Gfx942, &GFX9),
    t(Target::Gfx950, &GFX9),
    t(Target::Gfx1010, &GFX10),
    t(Target::Gfx1030, &GFX10),
    t(Target::Gfx1100, &GFX11),
    t(Target::Gfx1150, &GFX11),
    t(Target::Gfx1201, &GFX12),
    t(Target::Gfx1250, &GFX1250),
];

/// The encoding facts of `target`.
pub fn target_encoding(target: Target) -> &'static TargetEncoding {
    match target {
        Target::Gfx908 => &TARGETS[0],
        Target::Gfx90a => &TARGETS[1],
        Target::Gfx942 => &TARGETS[2],
        Target::Gfx950 => &TARGETS[3],
        Target::Gfx1010 => &TARGETS[4],
        Target::Gfx1030 => &TARGETS[5],
        Target::Gfx1100 => &TARGETS[6],
        Target::Gfx1150 => &TARGETS[7],
        Target::Gfx1201 => &TARGETS[8],
        Target::Gfx1250 => &TARGETS[9],
    }
}
