//! The shapes of the encoding tables: where each field of VOP1, VOP2, VOP3
//! (e64) and SDWA sits in a family's machine words, which operand codes mean
//! what, and the per-target facts the assembler needs.
//!
//! Only types live here. The values are written in `isa-spec/` (the
//! `encoding:` and `facts:` sections of each family file, with target
//! overrides) and reach the code as each generated target module's
//! `ENCODING`; see [`super::target_encoding`].

use crate::instr::{Encoding, Opcode};
use crate::target::{Family, Target};

/// A bit field of a 32-bit machine word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Lowest bit.
    pub lo: u8,
    /// Width in bits.
    pub width: u8,
}

impl Field {
    /// The field at bits `hi:lo`.
    pub const fn bits(hi: u8, lo: u8) -> Field {
        Field {
            lo,
            width: hi - lo + 1,
        }
    }

    /// A one-bit field.
    pub const fn bit(b: u8) -> Field {
        Field { lo: b, width: 1 }
    }

    /// All-ones of the field's width.
    pub const fn mask(self) -> u32 {
        if self.width >= 32 {
            u32::MAX
        } else {
            (1u32 << self.width) - 1
        }
    }

    /// The field's value in `word`.
    pub const fn get(self, word: u32) -> u32 {
        (word >> self.lo) & self.mask()
    }

    /// `word` with the field set to `value` (truncated to the width).
    pub const fn put(self, word: u32, value: u32) -> u32 {
        (word & !(self.mask() << self.lo)) | ((value & self.mask()) << self.lo)
    }
}

/// VOP1: one source, 32 bits (`_e32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vop1Layout {
    /// Fixed bits that identify the encoding.
    pub encoding: Field,
    /// Their value.
    pub encoding_value: u32,
    /// Opcode.
    pub op: Field,
    /// Destination VGPR.
    pub vdst: Field,
    /// Source operand code (9 bits: SGPR, constant, or 256 + VGPR).
    pub src0: Field,
}

/// VOP2: two sources, 32 bits (`_e32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vop2Layout {
    /// Fixed bits that identify the encoding.
    pub encoding: Field,
    /// Their value.
    pub encoding_value: u32,
    /// Opcode.
    pub op: Field,
    /// Destination VGPR.
    pub vdst: Field,
    /// Second source: a VGPR number.
    pub vsrc1: Field,
    /// First source operand code.
    pub src0: Field,
}

/// VOP3 (`_e64`), two dwords: `word0` fields then `word1` fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vop3Layout {
    /// Fixed bits of word 0 that identify the encoding.
    pub encoding: Field,
    /// Their value.
    pub encoding_value: u32,
    /// Opcode (word 0).
    pub op: Field,
    /// Destination VGPR (word 0).
    pub vdst: Field,
    /// ABS of src0, src1, src2: bits `abs.lo + n` (word 0).
    pub abs: Field,
    /// OPSEL (word 0); None where the family has no such field for these
    /// instructions.
    pub op_sel: Option<OpSel>,
    /// CLAMP (word 0).
    pub clamp: Field,
    /// src0, src1, src2 operand codes (word 1).
    pub src: [Field; 3],
    /// OMOD (word 1).
    pub omod: Field,
    /// NEG of src0, src1, src2: bits `neg.lo + n` (word 1).
    pub neg: Field,
}

/// VOP3 OPSEL: bits 0, 1, 2 of the field select the high halves of src0,
/// src1, src2; bit `dst_bit` the destination's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpSel {
    /// Where in word 0.
    pub field: Field,
    /// Bit of `field` that selects the destination half.
    pub dst_bit: u8,
}

/// SDWA: a VOP1/VOP2 word whose src0 is the SDWA code, then a second dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SdwaLayout {
    /// The VOP1/VOP2 src0 code that announces SDWA.
    pub marker: u32,
    /// src0 register number (word 1).
    pub src0: Field,
    /// dst_sel (word 1).
    pub dst_sel: Field,
    /// dst_unused (word 1).
    pub dst_unused: Field,
    /// CLAMP (word 1).
    pub clamp: Field,
    /// OMOD (word 1).
    pub omod: Field,
    /// src0_sel (word 1).
    pub src0_sel: Field,
    /// src0 sign extension (word 1).
    pub src0_sext: Field,
    /// src0 NEG (word 1).
    pub src0_neg: Field,
    /// src0 ABS (word 1).
    pub src0_abs: Field,
    /// src0 is a scalar operand code rather than a VGPR (word 1).
    pub src0_sgpr: Field,
    /// src1_sel (word 1).
    pub src1_sel: Field,
    /// src1 sign extension (word 1).
    pub src1_sext: Field,
    /// src1 NEG (word 1).
    pub src1_neg: Field,
    /// src1 ABS (word 1).
    pub src1_abs: Field,
    /// src1 is a scalar operand code (word 1).
    pub src1_sgpr: Field,
    /// Bits of word 1 that no field covers (`must_be_zero` in
    /// `isa-spec/`): llvm-mc 22 decodes a word with them set as if they
    /// were 0; `sdwa_reserved_bits` decides what we do.
    pub reserved: u32,
}

/// DPP16: a VOP1, VOP2 or VOP3 word whose src0 holds `marker`, then a DPP16
/// dword with these fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dpp16Layout {
    /// The src0 code that announces DPP16.
    pub marker: u32,
    /// src0 VGPR number (on true16 e32 16-bit operands the top bit is `.h`).
    pub src0: Field,
    /// DPP_CTRL.
    pub ctrl: Field,
    /// FI, where the family has it.
    pub fi: Option<Field>,
    /// BOUND_CTRL.
    pub bound_ctrl: Field,
    /// src0 NEG (e32 only).
    pub src0_neg: Field,
    /// src0 ABS (e32 only).
    pub src0_abs: Field,
    /// src1 NEG (no syntax; e32 VOP2 keeps it).
    pub src1_neg: Field,
    /// src1 ABS (no syntax; e32 VOP2 keeps it).
    pub src1_abs: Field,
    /// BANK_MASK.
    pub bank_mask: Field,
    /// ROW_MASK.
    pub row_mask: Field,
}

/// DPP8: a VOP1, VOP2 or VOP3 word whose src0 holds `marker` (FI = 0) or
/// `marker_fi` (FI = 1), then a DPP8 dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dpp8Layout {
    /// The src0 code that announces DPP8 with FI = 0.
    pub marker: u32,
    /// The src0 code that announces DPP8 with FI = 1.
    pub marker_fi: u32,
    /// src0 VGPR number.
    pub src0: Field,
    /// The eight 3-bit selectors, lane 0's in the low bits.
    pub sel: Field,
}

/// What the 9-bit source operand codes mean in a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandCodes {
    /// Highest SGPR number (s0..=sN).
    pub max_sgpr: u8,
    /// vcc_lo (vcc_hi is the next code).
    pub vcc_lo: u32,
    /// m0.
    pub m0: u32,
    /// null, where the family has it.
    pub null: Option<u32>,
    /// exec_lo (exec_hi is the next code).
    pub exec_lo: u32,
    /// Integer 0; 1..=64 follow, then -1..=-16.
    pub int_zero: u32,
    /// The first float constant: 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0,
    /// 1/(2*pi) follow in that order.
    pub float_first: u32,
    /// A 32-bit literal dword follows the instruction.
    pub literal: u32,
    /// A 64-bit literal follows (F64 operands of 32-bit encodings), where the
    /// target has it.
    pub literal64: Option<u32>,
    /// VGPR v0 (v1..=v255 follow).
    pub vgpr_first: u32,
}

/// The source codes a family names beyond SGPRs, VCC, M0, EXEC, null,
/// constants and literals (`special_operands` in `isa-spec/`): the first
/// code of each group, where the target has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecialCodes {
    /// `flat_scratch_lo` (`flat_scratch_hi` next; `flat_scratch` as a pair).
    pub flat_scratch_lo: Option<u32>,
    /// `xnack_mask_lo` (`xnack_mask_hi` next; `xnack_mask` as a pair).
    pub xnack_mask_lo: Option<u32>,
    /// `ttmp0` (`ttmp1`..=`ttmp15` follow; pairs `ttmp[2n:2n+1]`).
    pub ttmp0: Option<u32>,
    /// `src_flat_scratch_base_lo` (`src_flat_scratch_base_hi` next).
    pub src_flat_scratch_base_lo: Option<u32>,
    /// `src_shared_base`; `src_shared_limit`, `src_private_base`,
    /// `src_private_limit`, `src_pops_exiting_wave_id` follow.
    pub src_shared_base: Option<u32>,
    /// `src_vccz`; `src_execz`, `src_scc` follow.
    pub src_vccz: Option<u32>,
    /// `src_lds_direct`.
    pub src_lds_direct: Option<u32>,
    /// The operand names (LLVM's spelling) LLVM's assembler refuses on the
    /// target although its disassembler prints them.
    pub assembler_refuses: &'static [&'static str],
}

/// The field layouts of one ISA family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilyEncoding {
    /// Which family.
    pub family: Family,
    /// VOP1.
    pub vop1: Vop1Layout,
    /// VOP2.
    pub vop2: Vop2Layout,
    /// VOP3.
    pub vop3: Vop3Layout,
    /// SDWA, where the family has it.
    pub sdwa: Option<SdwaLayout>,
    /// DPP16.
    pub dpp16: Dpp16Layout,
    /// DPP8, where the family has it.
    pub dpp8: Option<Dpp8Layout>,
    /// Operand codes.
    pub codes: OperandCodes,
    /// Trap temporaries, GFX9's register halves and the `src_*` operands.
    pub special: SpecialCodes,
    /// 16-bit operands of e32 forms name register halves: bit 7 of an 8-bit
    /// VGPR field selects the high half (true16).
    pub true16_e32_halves: bool,
    /// VOP3 may carry a literal dword.
    pub vop3_literal: bool,
    /// How many distinct SGPRs/literals one VOP3 instruction may read.
    pub constant_bus_limit: u8,
}

impl FamilyEncoding {
    /// With `true16_e32_halves`: the bit of an e32 VGPR number that selects
    /// the high half, the top bit of the VOP1 `vdst` field (bit 7); the
    /// bits below it number the register.
    pub const fn e32_hi_half(&self) -> u32 {
        1 << (self.vop1.vdst.width - 1)
    }
}

/// Everything the assembler, encoder and decoder need about one target
/// beyond its family's layouts. Opcode numbers, forms and register-pair
/// alignment come from the target's generated [`crate::TargetSpec`]
/// (`isa-spec/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetEncoding {
    /// Which target.
    pub target: Target,
    /// Its family's layouts.
    pub family: &'static FamilyEncoding,
    /// F64 operands may take a 64-bit literal.
    pub literal64: bool,
}

impl TargetEncoding {
    /// Whether VOP3 `op_sel` selects the high half of `opcode`'s 16-bit
    /// operands without true16 register halves: on families whose VOP3
    /// layout has `op_sel` but no true16 halves (GFX9, GFX10), for the
    /// VOP3-only 16-bit instructions (V_FMA_F16), as llvm-mc 22 takes it.
    pub(crate) fn op_sel_without_halves(&self, opcode: Opcode) -> bool {
        let info = opcode.info();
        !self.family.true16_e32_halves
            && self.family.vop3.op_sel.is_some()
            && info.e32.is_none()
            && info.src0().bits() == 16
    }

    /// The opcode number of `opcode` in `encoding`, if the target has the form.
    pub fn op(&self, opcode: Opcode, encoding: Encoding) -> Option<u16> {
        self.target.spec().form(opcode, encoding).map(|f| f.op)
    }

    /// The form with opcode number `op` in `encoding`.
    pub fn opcode(&self, encoding: Encoding, op: u32) -> Option<Opcode> {
        self.target
            .spec()
            .forms
            .iter()
            .find(|f| f.encoding == encoding && u32::from(f.op) == op)
            .map(|f| f.opcode)
    }
}
