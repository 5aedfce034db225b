//! The typed instruction: opcode, encoding, operands and modifiers.

use crate::kernels::{FormatKind, Omod};

/// The instructions in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opcode {
    /// V_FRACT_F16
    FractF16,
    /// V_FRACT_F32
    FractF32,
    /// V_FRACT_F64
    FractF64,
    /// V_LDEXP_F16
    LdexpF16,
    /// V_LDEXP_F32
    LdexpF32,
    /// V_LDEXP_F64
    LdexpF64,
}

impl Opcode {
    /// Every opcode.
    pub const ALL: [Opcode; 6] = [
        Opcode::FractF16,
        Opcode::FractF32,
        Opcode::FractF64,
        Opcode::LdexpF16,
        Opcode::LdexpF32,
        Opcode::LdexpF64,
    ];

    /// The result (and float source) format.
    pub fn format(self) -> FormatKind {
        match self {
            Opcode::FractF16 | Opcode::LdexpF16 => FormatKind::F16,
            Opcode::FractF32 | Opcode::LdexpF32 => FormatKind::F32,
            Opcode::FractF64 | Opcode::LdexpF64 => FormatKind::F64,
        }
    }

    /// Whether the instruction is LDEXP (two sources).
    pub fn is_ldexp(self) -> bool {
        matches!(self, Opcode::LdexpF16 | Opcode::LdexpF32 | Opcode::LdexpF64)
    }

    /// Mnemonic without encoding suffix (`v_fract_f16`).
    pub fn mnemonic(self) -> &'static str {
        match self {
            Opcode::FractF16 => "v_fract_f16",
            Opcode::FractF32 => "v_fract_f32",
            Opcode::FractF64 => "v_fract_f64",
            Opcode::LdexpF16 => "v_ldexp_f16",
            Opcode::LdexpF32 => "v_ldexp_f32",
            Opcode::LdexpF64 => "v_ldexp_f64",
        }
    }
}

/// Instruction encodings in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// 32-bit one-source (e32).
    Vop1,
    /// 32-bit two-source (e32).
    Vop2,
    /// 64-bit VOP3 (e64), with ABS/NEG, OMOD, CLAMP, OPSEL.
    Vop3,
    /// Sub-dword addressing (GFX9, GFX10).
    Sdwa,
}

impl Encoding {
    /// Whether the encoding carries ABS/NEG/CLAMP/OMOD fields.
    pub fn has_modifiers(self) -> bool {
        matches!(self, Encoding::Vop3 | Encoding::Sdwa)
    }

    /// The mnemonic suffix (`_e32`, `_e64`, `_sdwa`).
    pub fn suffix(self) -> &'static str {
        match self {
            Encoding::Vop1 | Encoding::Vop2 => "_e32",
            Encoding::Vop3 => "_e64",
            Encoding::Sdwa => "_sdwa",
        }
    }
}

/// Which part of a 32-bit register a 16-bit operand uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Part {
    /// The whole register (pair for 64-bit operands); 16-bit operands on
    /// non-true16 targets read and write the low half.
    #[default]
    Full,
    /// Low 16 bits (`.l`, true16 targets).
    Lo,
    /// High 16 bits (`.h`, true16 targets).
    Hi,
}

/// A scalar register operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarReg {
    /// sN (pair sN, sN+1 for 64-bit operands).
    Sgpr(u8),
    /// vcc_lo (vcc for 64-bit operands).
    VccLo,
    /// vcc_hi.
    VccHi,
    /// m0.
    M0,
    /// exec_lo (exec for 64-bit operands).
    ExecLo,
    /// exec_hi.
    ExecHi,
    /// null (GFX10+): reads as zero.
    Null,
}

/// The float inline constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatConst {
    /// 0.5
    Half,
    /// -0.5
    NegHalf,
    /// 1.0
    One,
    /// -1.0
    NegOne,
    /// 2.0
    Two,
    /// -2.0
    NegTwo,
    /// 4.0
    Four,
    /// -4.0
    NegFour,
    /// 1/(2*pi)
    InvTwoPi,
}

impl FloatConst {
    /// Every float inline constant.
    pub const ALL: [FloatConst; 9] = [
        FloatConst::Half,
        FloatConst::NegHalf,
        FloatConst::One,
        FloatConst::NegOne,
        FloatConst::Two,
        FloatConst::NegTwo,
        FloatConst::Four,
        FloatConst::NegFour,
        FloatConst::InvTwoPi,
    ];

    /// The constant's encoding in `format` (hardware values, including the
    /// per-format rounding of 1/(2*pi)).
    pub fn bits(self, format: FormatKind) -> u64 {
        let (h, s, d): (u64, u64, u64) = match self {
            FloatConst::Half => (0x3800, 0x3f00_0000, 0x3fe0_0000_0000_0000),
            FloatConst::NegHalf => (0xb800, 0xbf00_0000, 0xbfe0_0000_0000_0000),
            FloatConst::One => (0x3c00, 0x3f80_0000, 0x3ff0_0000_0000_0000),
            FloatConst::NegOne => (0xbc00, 0xbf80_0000, 0xbff0_0000_0000_0000),
            FloatConst::Two => (0x4000, 0x4000_0000, 0x4000_0000_0000_0000),
            FloatConst::NegTwo => (0xc000, 0xc000_0000, 0xc000_0000_0000_0000),
            FloatConst::Four => (0x4400, 0x4080_0000, 0x4010_0000_0000_0000),
            FloatConst::NegFour => (0xc400, 0xc080_0000, 0xc010_0000_0000_0000),
            FloatConst::InvTwoPi => (0x3118, 0x3e22_f983, 0x3fc4_5f30_6dc9_c882),
        };
        match format {
            FormatKind::F16 => h,
            FormatKind::F32 => s,
            FormatKind::F64 => d,
        }
    }

    /// Assembly spelling.
    pub fn syntax(self) -> &'static str {
        match self {
            FloatConst::Half => "0.5",
            FloatConst::NegHalf => "-0.5",
            FloatConst::One => "1.0",
            FloatConst::NegOne => "-1.0",
            FloatConst::Two => "2.0",
            FloatConst::NegTwo => "-2.0",
            FloatConst::Four => "4.0",
            FloatConst::NegFour => "-4.0",
            FloatConst::InvTwoPi => "0.15915494",
        }
    }
}

/// A source or destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A VGPR (the low register of a pair for 64-bit operands).
    Vgpr {
        /// Register number.
        index: u16,
        /// Half selection for 16-bit operands.
        part: Part,
    },
    /// A scalar register, the same value in every lane.
    Scalar {
        /// Which register.
        reg: ScalarReg,
        /// Half selection for 16-bit operands.
        part: Part,
    },
    /// An inline integer constant, -16..=64.
    InlineInt(i8),
    /// An inline float constant, interpreted in the operand's format.
    InlineFloat(FloatConst),
    /// A 32-bit literal (for a 64-bit float operand: the high dword).
    Literal(u32),
    /// A 64-bit literal, the whole value of a 64-bit float operand (gfx1250,
    /// operand code 254; LLVM's `lit64`).
    Literal64(u64),
}

impl Operand {
    /// vN (whole register, or pair vN:vN+1 for 64-bit operands).
    pub fn v(index: u16) -> Operand {
        Operand::Vgpr {
            index,
            part: Part::Full,
        }
    }
    /// vN.l
    pub fn v_lo(index: u16) -> Operand {
        Operand::Vgpr {
            index,
            part: Part::Lo,
        }
    }
    /// vN.h
    pub fn v_hi(index: u16) -> Operand {
        Operand::Vgpr {
            index,
            part: Part::Hi,
        }
    }
    /// sN
    pub fn s(index: u8) -> Operand {
        Operand::Scalar {
            reg: ScalarReg::Sgpr(index),
            part: Part::Full,
        }
    }
}

/// Source modifiers of one operand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SrcMods {
    /// ABS (floating sources only).
    pub abs: bool,
    /// NEG (floating sources only).
    pub neg: bool,
    /// SDWA sign extension of a sub-dword integer source.
    pub sext: bool,
}

/// SDWA operand selector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SdwaSel {
    /// Bits 7:0.
    Byte0,
    /// Bits 15:8.
    Byte1,
    /// Bits 23:16.
    Byte2,
    /// Bits 31:24.
    Byte3,
    /// Bits 15:0.
    Word0,
    /// Bits 31:16.
    Word1,
    /// All 32 bits.
    #[default]
    Dword,
}

impl SdwaSel {
    /// The 3-bit field value (BYTE_0..3 = 0..3, WORD_0 = 4, WORD_1 = 5, DWORD = 6).
    pub fn field(self) -> u32 {
        match self {
            SdwaSel::Byte0 => 0,
            SdwaSel::Byte1 => 1,
            SdwaSel::Byte2 => 2,
            SdwaSel::Byte3 => 3,
            SdwaSel::Word0 => 4,
            SdwaSel::Word1 => 5,
            SdwaSel::Dword => 6,
        }
    }

    /// Decode a 3-bit field value; 7 is reserved.
    pub fn from_field(f: u32) -> Option<SdwaSel> {
        Some(match f {
            0 => SdwaSel::Byte0,
            1 => SdwaSel::Byte1,
            2 => SdwaSel::Byte2,
            3 => SdwaSel::Byte3,
            4 => SdwaSel::Word0,
            5 => SdwaSel::Word1,
            6 => SdwaSel::Dword,
            _ => return None,
        })
    }

    /// (shift, width) of the selected field.
    pub fn field_bits(self) -> (u32, u32) {
        match self {
            SdwaSel::Byte0 => (0, 8),
            SdwaSel::Byte1 => (8, 8),
            SdwaSel::Byte2 => (16, 8),
            SdwaSel::Byte3 => (24, 8),
            SdwaSel::Word0 => (0, 16),
            SdwaSel::Word1 => (16, 16),
            SdwaSel::Dword => (0, 32),
        }
    }

    /// Assembly spelling (`BYTE_0`, `WORD_1`, `DWORD`).
    pub fn syntax(self) -> &'static str {
        match self {
            SdwaSel::Byte0 => "BYTE_0",
            SdwaSel::Byte1 => "BYTE_1",
            SdwaSel::Byte2 => "BYTE_2",
            SdwaSel::Byte3 => "BYTE_3",
            SdwaSel::Word0 => "WORD_0",
            SdwaSel::Word1 => "WORD_1",
            SdwaSel::Dword => "DWORD",
        }
    }

    /// Extract the selected field of `v`, zero- or sign-extended to 32 bits.
    pub fn extract(self, v: u32, sext: bool) -> u32 {
        let (shift, width) = self.field_bits();
        if width == 32 {
            return v;
        }
        let field = (v >> shift) & ((1u32 << width) - 1);
        if sext && field >> (width - 1) != 0 {
            field | !((1u32 << width) - 1)
        } else {
            field
        }
    }
}

/// SDWA dst_unused: what the bits outside dst_sel become.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DstUnused {
    /// UNUSED_PAD: zero.
    #[default]
    Pad,
    /// UNUSED_SEXT: the field's top bit above it, zero below.
    Sext,
    /// UNUSED_PRESERVE: the old bits.
    Preserve,
}

impl DstUnused {
    /// The 2-bit field value; 3 is reserved.
    pub fn field(self) -> u32 {
        match self {
            DstUnused::Pad => 0,
            DstUnused::Sext => 1,
            DstUnused::Preserve => 2,
        }
    }

    /// Decode the 2-bit field.
    pub fn from_field(f: u32) -> Option<DstUnused> {
        Some(match f {
            0 => DstUnused::Pad,
            1 => DstUnused::Sext,
            2 => DstUnused::Preserve,
            _ => return None,
        })
    }

    /// Assembly spelling.
    pub fn syntax(self) -> &'static str {
        match self {
            DstUnused::Pad => "UNUSED_PAD",
            DstUnused::Sext => "UNUSED_SEXT",
            DstUnused::Preserve => "UNUSED_PRESERVE",
        }
    }

    /// Merge the `width`-bit field `value` at `shift` into the old
    /// destination `old`.
    pub fn merge(self, old: u32, value: u32, shift: u32, width: u32) -> u32 {
        if width >= 32 {
            return value;
        }
        let field_mask = ((1u32 << width) - 1) << shift;
        let placed = (value << shift) & field_mask;
        match self {
            DstUnused::Pad => placed,
            DstUnused::Preserve => (old & !field_mask) | placed,
            DstUnused::Sext => {
                let top = (value >> (width - 1)) & 1;
                // Bits above the field (none when the field reaches bit 31).
                let above = !(((1u64 << (shift + width)) - 1) as u32);
                let above = if top != 0 { above } else { 0 };
                placed | above
            }
        }
    }
}

/// The SDWA selectors of an instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sdwa {
    /// Destination field.
    pub dst_sel: SdwaSel,
    /// Bits outside the destination field.
    pub dst_unused: DstUnused,
    /// src0 field.
    pub src0_sel: SdwaSel,
    /// src1 field.
    pub src1_sel: SdwaSel,
}

/// One instruction, ready to execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// What it does.
    pub opcode: Opcode,
    /// How it is encoded.
    pub encoding: Encoding,
    /// Destination: a VGPR (pair for F64; a half on true16 targets).
    pub dst: Operand,
    /// The float source.
    pub src0: Operand,
    /// Modifiers of src0.
    pub src0_mods: SrcMods,
    /// LDEXP's exponent operand.
    pub src1: Option<Operand>,
    /// Modifiers of src1 (only SDWA `sext`; ABS/NEG are invalid here).
    pub src1_mods: SrcMods,
    /// CLAMP.
    pub clamp: bool,
    /// OMOD.
    pub omod: Omod,
    /// SDWA selectors (SDWA encoding only).
    pub sdwa: Option<Sdwa>,
}

impl Instruction {
    /// A one-source instruction with no modifiers.
    pub fn unary(opcode: Opcode, encoding: Encoding, dst: Operand, src0: Operand) -> Instruction {
        Instruction {
            opcode,
            encoding,
            dst,
            src0,
            src0_mods: SrcMods::default(),
            src1: None,
            src1_mods: SrcMods::default(),
            clamp: false,
            omod: Omod::None,
            sdwa: if encoding == Encoding::Sdwa {
                Some(Sdwa::default())
            } else {
                None
            },
        }
    }

    /// A two-source instruction with no modifiers.
    pub fn binary(
        opcode: Opcode,
        encoding: Encoding,
        dst: Operand,
        src0: Operand,
        src1: Operand,
    ) -> Instruction {
        Instruction {
            src1: Some(src1),
            ..Instruction::unary(opcode, encoding, dst, src0)
        }
    }

    /// With ABS on src0.
    pub fn with_abs(mut self) -> Instruction {
        self.src0_mods.abs = true;
        self
    }

    /// With NEG on src0.
    pub fn with_neg(mut self) -> Instruction {
        self.src0_mods.neg = true;
        self
    }

    /// With CLAMP.
    pub fn with_clamp(mut self) -> Instruction {
        self.clamp = true;
        self
    }

    /// With an OMOD.
    pub fn with_omod(mut self, omod: Omod) -> Instruction {
        self.omod = omod;
        self
    }

    /// With SDWA selectors.
    pub fn with_sdwa(mut self, sdwa: Sdwa) -> Instruction {
        self.sdwa = Some(sdwa);
        self
    }
}
