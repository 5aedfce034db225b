//! The typed instruction: opcode, encoding, operands and modifiers, as the
//! machine-code fields of a VOP1, VOP2, VOP3 (e64) or SDWA word hold them.

use crate::dpp::Dpp;
use crate::kernels::{FormatKind, Omod};

pub use crate::generated::instructions::{Opcode, NOT_MODELLED};

/// What an instruction computes: the kernel it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperationKind {
    /// V_FRACT: x - floor(x), in [+0, 1) (docs/semantics.md §4).
    Fract,
    /// V_LDEXP: src0 x 2^src1, rounded once (docs/semantics.md §5).
    Ldexp,
    /// V_ADD: src0 + src1, rounded once.
    Add,
    /// V_SUB: src0 - src1, rounded once.
    Sub,
    /// V_SUBREV: src1 - src0, rounded once.
    Subrev,
    /// V_MUL: src0 x src1, rounded once.
    Mul,
    /// V_FMA: src0 x src1 + src2, rounded once.
    Fma,
    /// V_FMAC: src0 x src1 + D, D the destination's old value (same lane,
    /// same half), rounded once.
    Fmac,
    /// V_FMAMK: src0 x K + src1, K the literal (src1 of the syntax, in
    /// the result format), rounded once.
    Fmamk,
    /// V_FMAAK: src0 x src1 + K, K the literal (src2 of the syntax),
    /// rounded once.
    Fmaak,
}

impl OperationKind {
    /// The kernel's name (`fract`, `ldexp`, `add`, `fmaak`), as its
    /// `Operation::NAME`.
    pub fn name(self) -> &'static str {
        match self {
            OperationKind::Fract => "fract",
            OperationKind::Ldexp => "ldexp",
            OperationKind::Add => "add",
            OperationKind::Sub => "sub",
            OperationKind::Subrev => "subrev",
            OperationKind::Mul => "mul",
            OperationKind::Fma => "fma",
            OperationKind::Fmac => "fmac",
            OperationKind::Fmamk => "fmamk",
            OperationKind::Fmaak => "fmaak",
        }
    }
}

/// The type of a source operand: decides what inline constants mean and
/// how wide a register or literal is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceType {
    /// 16-bit float.
    F16,
    /// 32-bit float.
    F32,
    /// 64-bit float (a VGPR or SGPR pair).
    F64,
    /// 16-bit signed integer (V_LDEXP_F16's exponent).
    I16,
    /// 32-bit signed integer (V_LDEXP_F32/F64's exponent).
    I32,
}

impl SourceType {
    /// Operand width in bits.
    pub fn bits(self) -> u32 {
        match self {
            SourceType::F16 | SourceType::I16 => 16,
            SourceType::F32 | SourceType::I32 => 32,
            SourceType::F64 => 64,
        }
    }

    /// The float format inline float constants take in this slot.
    pub fn const_format(self) -> FormatKind {
        match self {
            SourceType::F16 | SourceType::I16 => FormatKind::F16,
            SourceType::F32 | SourceType::I32 => FormatKind::F32,
            SourceType::F64 => FormatKind::F64,
        }
    }

    /// Whether the slot is a float (takes ABS/NEG).
    pub fn is_float(self) -> bool {
        matches!(self, SourceType::F16 | SourceType::F32 | SourceType::F64)
    }

    /// The float source type of `format`.
    pub fn float(format: FormatKind) -> SourceType {
        match format {
            FormatKind::F16 => SourceType::F16,
            FormatKind::F32 => SourceType::F32,
            FormatKind::F64 => SourceType::F64,
        }
    }
}

/// What an opcode is, as `isa-spec/instructions/valu.yaml` describes it: the
/// assembler, decoder, printer, validator and executor read this rather
/// than naming opcodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpcodeInfo {
    /// LLVM's mnemonic without the encoding suffix (`v_fract_f16`).
    pub mnemonic: &'static str,
    /// The kernel it runs.
    pub operation: OperationKind,
    /// The format of the result and of the float sources; it also picks
    /// the MODE fields the instruction reads (docs/semantics.md §2).
    pub format: FormatKind,
    /// The source operands as the assembly writes them, src0 first (never
    /// empty): src0, src1, src2 of [`Instruction`]. The literal K of
    /// FMAMK/FMAAK is one of them (slot [`OpcodeInfo::k_slot`]), typed as
    /// the result format; FMAC's accumulator is not (see
    /// [`OpcodeInfo::accumulator`]).
    pub sources: &'static [SourceType],
    /// The slot in `sources` of the literal K (FMAMK: 1, FMAAK: 2): its
    /// operand is always a literal, the instruction's only one, with no
    /// source field of its own; `None` for other instructions.
    pub k_slot: Option<usize>,
    /// Whether the destination's old value is an implicit third source
    /// (FMAC's addend D): read from the destination register (same lane,
    /// same half, the pair for F64), never written in the assembly.
    pub accumulator: bool,
    /// The e32 encoding (VOP1 or VOP2) where the instruction has one;
    /// `None`: VOP3 only.
    pub e32: Option<Encoding>,
    /// An SDWA form on targets with SDWA.
    pub sdwa: bool,
}

impl OpcodeInfo {
    /// The type of src0.
    pub fn src0(&self) -> SourceType {
        // The generator checks every operation reads src0.
        self.sources
            .first()
            .copied()
            .unwrap_or(SourceType::float(self.format))
    }

    /// The type of src1, if the instruction reads one.
    pub fn src1(&self) -> Option<SourceType> {
        self.sources.get(1).copied()
    }

    /// The type of src2 (FMA, FMAAK's K), if the instruction has one.
    pub fn src2(&self) -> Option<SourceType> {
        self.sources.get(2).copied()
    }

    /// The slot of the literal K (FMAMK: 1, FMAAK: 2), if any.
    pub fn k_slot(&self) -> Option<usize> {
        self.k_slot
    }

    /// Whether the destination's old value is an implicit source (FMAC).
    pub fn accumulator(&self) -> bool {
        self.accumulator
    }
}

/// A group of mnemonics LLVM knows that the emulator does not model
/// (`isa-spec/instructions/valu.yaml`, `not_modelled`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotModelled {
    /// Whole mnemonics, without the encoding suffix.
    pub names: &'static [&'static str],
    /// Prefixes covering a group (`v_pk_`).
    pub prefixes: &'static [&'static str],
    /// Why it is not modelled.
    pub reason: &'static str,
}

/// The reason `mnemonic` (without the encoding suffix) is not modelled, if
/// it is in [`NOT_MODELLED`].
pub(crate) fn not_modelled(mnemonic: &str) -> Option<&'static str> {
    NOT_MODELLED
        .iter()
        .find(|g| g.names.contains(&mnemonic) || g.prefixes.iter().any(|p| mnemonic.starts_with(p)))
        .map(|g| g.reason)
}

impl Opcode {
    /// The format of the result and of the float source src0; it also
    /// picks the MODE fields the instruction reads (docs/semantics.md §2).
    pub fn format(self) -> FormatKind {
        self.info().format
    }

    /// Whether the instruction is V_LDEXP. Kept for callers of the public
    /// API; the crate asks [`Opcode::info`] about operands instead.
    pub fn is_ldexp(self) -> bool {
        self.info().operation == OperationKind::Ldexp
    }

    /// LLVM's mnemonic without the encoding suffix (`v_fract_f16`).
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }
}

/// The machine-code encodings in scope. DPP is not an encoding of its
/// own: it is [`Instruction::dpp`] on a VOP1, VOP2 or VOP3 word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// VOP1: one 32-bit word, one source (`_e32`); no modifiers.
    Vop1,
    /// VOP2: one 32-bit word, two sources (`_e32`); no modifiers.
    Vop2,
    /// VOP3: two 32-bit words (`_e64`) with ABS/NEG, OMOD, CLAMP and, on
    /// true16 targets, OPSEL half selection.
    Vop3,
    /// SDWA: sub-dword addressing (`_sdwa`, GFX9 and GFX10 only): the VOP1
    /// or VOP2 word plus a selector word, with byte/word selectors on the
    /// sources and destination and ABS/NEG, OMOD, CLAMP.
    Sdwa,
}

impl Encoding {
    /// Whether the encoding has ABS/NEG, CLAMP and OMOD fields (VOP3 and
    /// SDWA; VOP1 and VOP2 have none).
    pub fn has_modifiers(self) -> bool {
        matches!(self, Encoding::Vop3 | Encoding::Sdwa)
    }

    /// LLVM's mnemonic suffix for the encoding (`_e32`, `_e64`, `_sdwa`).
    pub fn suffix(self) -> &'static str {
        match self {
            Encoding::Vop1 | Encoding::Vop2 => "_e32",
            Encoding::Vop3 => "_e64",
            Encoding::Sdwa => "_sdwa",
        }
    }
}

/// Which part of a 32-bit register an operand names: the whole register,
/// or on true16 targets (gfx11, gfx12) the low or high 16-bit half of a
/// 16-bit operand (docs/semantics.md §7.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Part {
    /// The whole register (pair for 64-bit operands); 16-bit operands on
    /// non-true16 targets read and write the low half.
    #[default]
    Full,
    /// Bits 15:0 (`vN.l`, true16 targets); a write keeps bits 31:16.
    Lo,
    /// Bits 31:16 (`vN.h`, true16 targets; OPSEL or bit 7 of an e32 VGPR
    /// field); a write keeps bits 15:0.
    Hi,
}

/// A scalar register operand: one 32-bit value per wave, read by every lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarReg {
    /// SGPR `sN` (the pair sN, sN+1 for 64-bit operands, low dword in sN).
    Sgpr(u8),
    /// `vcc_lo`: bits 31:0 of VCC (all of `vcc` for 64-bit operands).
    VccLo,
    /// `vcc_hi`: bits 63:32 of VCC.
    VccHi,
    /// `m0`: the M0 register.
    M0,
    /// `exec_lo`: bits 31:0 of EXEC (all of `exec` for 64-bit operands).
    ExecLo,
    /// `exec_hi`: bits 63:32 of EXEC.
    ExecHi,
    /// `null` (GFX10 and later): reads as zero.
    Null,
    /// `ttmpN`, trap temporary N (0..=15): a scalar register of the wave
    /// like an SGPR (the pair ttmpN, ttmpN+1 for 64-bit operands, N even).
    Ttmp(u8),
    /// `flat_scratch_lo` (GFX9): bits 31:0 of FLAT_SCRATCH (all of
    /// `flat_scratch` for 64-bit operands).
    FlatScratchLo,
    /// `flat_scratch_hi` (GFX9): bits 63:32 of FLAT_SCRATCH.
    FlatScratchHi,
    /// `xnack_mask_lo` (GFX9): bits 31:0 of XNACK_MASK (all of
    /// `xnack_mask` for 64-bit operands).
    XnackMaskLo,
    /// `xnack_mask_hi` (GFX9): bits 63:32 of XNACK_MASK.
    XnackMaskHi,
}

/// A read-only source the hardware computes from the wave's state: the
/// `src_*` operand codes (docs/semantics.md §3.4). None is a register an
/// instruction can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// `src_scc`: SCC, 0 or 1.
    Scc,
    /// `src_vccz`: 1 when VCC is zero, else 0.
    Vccz,
    /// `src_execz`: 1 when EXEC is zero, else 0.
    Execz,
    /// `src_shared_base`: the shared (LDS) aperture base, a 64-bit value.
    SharedBase,
    /// `src_shared_limit`: the shared aperture limit, a 64-bit value.
    SharedLimit,
    /// `src_private_base`: the private (scratch) aperture base, 64 bits.
    PrivateBase,
    /// `src_private_limit`: the private aperture limit, 64 bits.
    PrivateLimit,
    /// `src_pops_exiting_wave_id`: the POPS exiting wave ID.
    PopsExitingWaveId,
    /// `src_flat_scratch_base_lo`: bits 31:0 of the flat scratch base.
    FlatScratchBaseLo,
    /// `src_flat_scratch_base_hi`: bits 63:32 of the flat scratch base.
    FlatScratchBaseHi,
    /// `src_lds_direct`: a value read from LDS at M0's address (src0
    /// only); decoded and printed, not executed (no LDS is modelled).
    LdsDirect,
}

impl Special {
    /// Every special source, in operand-code groups.
    pub const ALL: [Special; 11] = [
        Special::Scc,
        Special::Vccz,
        Special::Execz,
        Special::SharedBase,
        Special::SharedLimit,
        Special::PrivateBase,
        Special::PrivateLimit,
        Special::PopsExitingWaveId,
        Special::FlatScratchBaseLo,
        Special::FlatScratchBaseHi,
        Special::LdsDirect,
    ];

    /// LLVM's spelling (`src_scc`, `src_shared_base`).
    pub fn syntax(self) -> &'static str {
        match self {
            Special::Scc => "src_scc",
            Special::Vccz => "src_vccz",
            Special::Execz => "src_execz",
            Special::SharedBase => "src_shared_base",
            Special::SharedLimit => "src_shared_limit",
            Special::PrivateBase => "src_private_base",
            Special::PrivateLimit => "src_private_limit",
            Special::PopsExitingWaveId => "src_pops_exiting_wave_id",
            Special::FlatScratchBaseLo => "src_flat_scratch_base_lo",
            Special::FlatScratchBaseHi => "src_flat_scratch_base_hi",
            Special::LdsDirect => "src_lds_direct",
        }
    }
}

/// The float inline constants (operand codes 240 to 248): encoded in the
/// instruction, taking the format of the operand they feed
/// (docs/semantics.md §7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatConst {
    /// 0.5 (operand code 240).
    Half,
    /// -0.5 (operand code 241).
    NegHalf,
    /// 1.0 (operand code 242).
    One,
    /// -1.0 (operand code 243).
    NegOne,
    /// 2.0 (operand code 244).
    Two,
    /// -2.0 (operand code 245).
    NegTwo,
    /// 4.0 (operand code 246).
    Four,
    /// -4.0 (operand code 247).
    NegFour,
    /// 1/(2*pi) (operand code 248), rounded per format by the hardware.
    InvTwoPi,
}

impl FloatConst {
    /// Every float inline constant, in operand-code order.
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

    /// LLVM's assembly spelling (`0.5`, `-4.0`, `0.15915494`).
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

/// A source or destination operand, as an operand field of the machine
/// word names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A VGPR, one 32-bit value per lane (the low register of the pair for
    /// 64-bit operands).
    Vgpr {
        /// Register number (`vN`).
        index: u16,
        /// The whole register or, for a 16-bit operand on a true16
        /// target, its `.l` or `.h` half.
        part: Part,
    },
    /// A scalar register, the same value in every lane.
    Scalar {
        /// Which scalar register.
        reg: ScalarReg,
        /// The whole register or, for a 16-bit operand on a true16
        /// target, its `.l` or `.h` half.
        part: Part,
    },
    /// An inline integer constant, -16..=64 (operand codes 128 to 208): its
    /// value as a float source's bits, or LDEXP's exponent.
    InlineInt(i8),
    /// An inline float constant, encoded in the format of the operand it
    /// feeds.
    InlineFloat(FloatConst),
    /// A 32-bit literal (operand code 255, one more dword after the
    /// instruction); for an F64 source it is the high dword and the low
    /// dword is 0.
    Literal(u32),
    /// A 64-bit literal, the whole value of a 64-bit float operand (gfx1250,
    /// operand code 254; LLVM's `lit64`).
    Literal64(u64),
    /// A read-only special source (`src_scc`, `src_shared_base`, ...).
    Special(Special),
}

impl Operand {
    /// `vN`: the whole VGPR, or the pair vN, vN+1 for 64-bit operands.
    pub fn v(index: u16) -> Operand {
        Operand::Vgpr {
            index,
            part: Part::Full,
        }
    }
    /// `vN.l`: bits 15:0 of VGPR N (true16 targets).
    pub fn v_lo(index: u16) -> Operand {
        Operand::Vgpr {
            index,
            part: Part::Lo,
        }
    }
    /// `vN.h`: bits 31:16 of VGPR N (true16 targets).
    pub fn v_hi(index: u16) -> Operand {
        Operand::Vgpr {
            index,
            part: Part::Hi,
        }
    }
    /// `sN`: SGPR N (the pair sN, sN+1 for 64-bit operands).
    pub fn s(index: u8) -> Operand {
        Operand::Scalar {
            reg: ScalarReg::Sgpr(index),
            part: Part::Full,
        }
    }
}

/// The source modifiers of one operand (VOP3 and SDWA fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SrcMods {
    /// ABS: clear the sign bit of a float source (before NEG); a NaN keeps
    /// its payload.
    pub abs: bool,
    /// NEG: flip the sign bit of a float source (after ABS, so both give
    /// -|x|).
    pub neg: bool,
    /// SDWA `sext`: sign-extend the selected byte or word of an integer
    /// source (LDEXP's exponent) instead of zero-extending it.
    pub sext: bool,
}

/// An SDWA selector (`src0_sel`, `src1_sel`, `dst_sel`): the byte, word or
/// dword of a 32-bit register an SDWA operand uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SdwaSel {
    /// `BYTE_0`: bits 7:0.
    Byte0,
    /// `BYTE_1`: bits 15:8.
    Byte1,
    /// `BYTE_2`: bits 23:16.
    Byte2,
    /// `BYTE_3`: bits 31:24.
    Byte3,
    /// `WORD_0`: bits 15:0.
    Word0,
    /// `WORD_1`: bits 31:16.
    Word1,
    /// `DWORD`: all 32 bits (the default).
    #[default]
    Dword,
}

impl SdwaSel {
    /// The value of the 3-bit selector field in the SDWA word (BYTE_0..3 =
    /// 0..3, WORD_0 = 4, WORD_1 = 5, DWORD = 6).
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

    /// The selector a 3-bit SDWA field value names; `None` for the
    /// reserved value 7.
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

    /// `(shift, width)` in bits of the selected field within the register.
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

    /// LLVM's assembly spelling (`BYTE_0`, `WORD_1`, `DWORD`).
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

    /// The selected field of register value `v` as an SDWA source reads it:
    /// zero-extended to 32 bits, or sign-extended when `sext`.
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

/// SDWA `dst_unused`: what the destination bits outside `dst_sel` become
/// (docs/semantics.md §7.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DstUnused {
    /// `UNUSED_PAD` (0): they become 0.
    #[default]
    Pad,
    /// `UNUSED_SEXT` (1): the bits above the field copy its top bit, the
    /// bits below it become 0.
    Sext,
    /// `UNUSED_PRESERVE` (2): they keep their old value.
    Preserve,
}

impl DstUnused {
    /// The value of the 2-bit `dst_unused` field in the SDWA word (3 is
    /// reserved).
    pub fn field(self) -> u32 {
        match self {
            DstUnused::Pad => 0,
            DstUnused::Sext => 1,
            DstUnused::Preserve => 2,
        }
    }

    /// The `dst_unused` a 2-bit SDWA field value names; `None` for the
    /// reserved value 3.
    pub fn from_field(f: u32) -> Option<DstUnused> {
        Some(match f {
            0 => DstUnused::Pad,
            1 => DstUnused::Sext,
            2 => DstUnused::Preserve,
            _ => return None,
        })
    }

    /// LLVM's assembly spelling (`UNUSED_PAD`, `UNUSED_SEXT`,
    /// `UNUSED_PRESERVE`).
    pub fn syntax(self) -> &'static str {
        match self {
            DstUnused::Pad => "UNUSED_PAD",
            DstUnused::Sext => "UNUSED_SEXT",
            DstUnused::Preserve => "UNUSED_PRESERVE",
        }
    }

    /// The destination register after an SDWA write: the `width`-bit
    /// result `value` placed at bit `shift`, the other bits from the old
    /// value `old` as this `dst_unused` says.
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

/// The selectors of an SDWA instruction's second word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sdwa {
    /// `dst_sel`: the destination field the result is written to.
    pub dst_sel: SdwaSel,
    /// `dst_unused`: what the destination bits outside `dst_sel` become.
    pub dst_unused: DstUnused,
    /// `src0_sel`: the field of src0 that is read.
    pub src0_sel: SdwaSel,
    /// `src1_sel`: the field of src1 that is read (LDEXP).
    pub src1_sel: SdwaSel,
    /// The second word's bits that must be zero (the layout's
    /// `must_be_zero`: 22 and 30 on GFX9 and GFX10), where the word holds
    /// them: LLVM's disassembler ignores them. Decoding keeps them so the
    /// word re-encodes to the same bytes; 0 when parsed or built. Decoding
    /// and execution follow `sdwa_reserved_bits`.
    pub reserved: u32,
}

/// One modelled instruction in one encoding, with its operands and
/// modifiers: what [`crate::asm::parse`] and [`crate::asm::decode`]
/// produce and [`crate::execute`] runs.
///
/// ```
/// use amdgpu_valu::{asm, Encoding, Instruction, Omod, Opcode, Operand, Target};
///
/// // v_ldexp_f32 v0, v1, v2 mul:2 as a value, and as LLVM spells it.
/// let i = Instruction::binary(Opcode::LdexpF32, Encoding::Vop3,
///     Operand::v(0), Operand::v(1), Operand::v(2)).with_omod(Omod::Mul2);
/// assert_eq!(asm::disassemble(Target::Gfx1100, &i), "v_ldexp_f32 v0, v1, v2 mul:2");
/// assert_eq!(asm::parse(Target::Gfx1100, "v_ldexp_f32 v0, v1, v2 mul:2")?, i);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The operation and format (V_FRACT, V_LDEXP, V_ADD, ...; F16, F32 or
    /// F64).
    pub opcode: Opcode,
    /// The machine-code encoding (VOP1, VOP2, VOP3 or SDWA).
    pub encoding: Encoding,
    /// The destination: a VGPR (the pair for F64; a `.l`/`.h` half for F16
    /// on true16 targets).
    pub dst: Operand,
    /// src0: the float source.
    pub src0: Operand,
    /// ABS, NEG (and SDWA `sext`) on src0.
    pub src0_mods: SrcMods,
    /// src1: the second source of the syntax (V_LDEXP's integer exponent,
    /// a float of the binary operations and FMA, FMAMK's literal K as
    /// `Operand::Literal`); `None` for V_FRACT.
    pub src1: Option<Operand>,
    /// Modifiers of src1: ABS/NEG on a float source (VOP3, SDWA, DPP), SDWA
    /// `sext`; ABS and NEG are refused on LDEXP's integer exponent.
    pub src1_mods: SrcMods,
    /// src2: the third source of the syntax (V_FMA's addend, FMAAK's literal
    /// K as `Operand::Literal`, or `Operand::Literal64` for gfx1250's F64
    /// K); `None` for the others, FMAC included (its addend is the
    /// destination itself, [`OpcodeInfo::accumulator`]).
    pub src2: Option<Operand>,
    /// ABS and NEG on src2 (VOP3 only).
    pub src2_mods: SrcMods,
    /// CLAMP: after OMOD, clamp the result to [+0, 1.0] (a NaN to +0 under
    /// the target's rule; docs/semantics.md §6.3).
    pub clamp: bool,
    /// OMOD: the output modifier (x2, x4 or /2) applied to the rounded
    /// result when the target and MODE make it effective
    /// (docs/semantics.md §6.1).
    pub omod: Omod,
    /// The SDWA selectors; `Some` exactly for the SDWA encoding.
    pub sdwa: Option<Sdwa>,
    /// DPP16 or DPP8 on a VOP1, VOP2 (`_dpp`) or VOP3 (`_e64_dpp`) word:
    /// src0 is then the VGPR the DPP word names, and this says which lane
    /// of it each lane reads and which lanes are written.
    pub dpp: Option<Dpp>,
}

impl Instruction {
    /// A V_FRACT `dst = op(src0)` in `encoding` with no modifiers (and
    /// default selectors, all DWORD and UNUSED_PAD, for SDWA).
    pub fn unary(opcode: Opcode, encoding: Encoding, dst: Operand, src0: Operand) -> Instruction {
        Instruction {
            opcode,
            encoding,
            dst,
            src0,
            src0_mods: SrcMods::default(),
            src1: None,
            src1_mods: SrcMods::default(),
            src2: None,
            src2_mods: SrcMods::default(),
            clamp: false,
            omod: Omod::None,
            sdwa: if encoding == Encoding::Sdwa {
                Some(Sdwa::default())
            } else {
                None
            },
            dpp: None,
        }
    }

    /// A two-source instruction (V_LDEXP `dst = src0 x 2^src1`, V_ADD,
    /// V_FMAC `dst = src0 x src1 + dst`, ...) in `encoding` with no
    /// modifiers (and default selectors for SDWA).
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

    /// A three-source instruction (V_FMA; V_FMAMK `dst = src0 x src1 +
    /// src2` with src1 the literal K; V_FMAAK with src2 the literal K) in
    /// `encoding` with no modifiers: sources in syntax order.
    pub fn ternary(
        opcode: Opcode,
        encoding: Encoding,
        dst: Operand,
        src0: Operand,
        src1: Operand,
        src2: Operand,
    ) -> Instruction {
        Instruction {
            src2: Some(src2),
            ..Instruction::binary(opcode, encoding, dst, src0, src1)
        }
    }

    /// The source operand in `slot` (0, 1, 2: src0, src1, src2), if any.
    pub fn source(&self, slot: usize) -> Option<Operand> {
        match slot {
            0 => Some(self.src0),
            1 => self.src1,
            2 => self.src2,
            _ => None,
        }
    }

    /// The modifiers of the source in `slot` (0, 1, 2); default beyond.
    pub fn src_mods(&self, slot: usize) -> SrcMods {
        match slot {
            0 => self.src0_mods,
            1 => self.src1_mods,
            2 => self.src2_mods,
            _ => SrcMods::default(),
        }
    }

    /// With the modifiers `mods` (ABS, NEG, SDWA `sext`) on the source in
    /// `slot` (0, 1, 2: src0, src1, src2); a slot beyond 2 changes
    /// nothing.
    pub fn with_src_mods(mut self, slot: usize, mods: SrcMods) -> Instruction {
        match slot {
            0 => self.src0_mods = mods,
            1 => self.src1_mods = mods,
            2 => self.src2_mods = mods,
            _ => {}
        }
        self
    }

    /// With ABS on src0 (VOP3 and SDWA only).
    pub fn with_abs(mut self) -> Instruction {
        self.src0_mods.abs = true;
        self
    }

    /// With NEG on src0 (VOP3 and SDWA only).
    pub fn with_neg(mut self) -> Instruction {
        self.src0_mods.neg = true;
        self
    }

    /// With CLAMP set (VOP3 and SDWA only).
    pub fn with_clamp(mut self) -> Instruction {
        self.clamp = true;
        self
    }

    /// With the output modifier `omod` (VOP3 and SDWA only).
    pub fn with_omod(mut self, omod: Omod) -> Instruction {
        self.omod = omod;
        self
    }

    /// With DPP16 or DPP8 `dpp` (on a VOP1, VOP2 or VOP3 encoding).
    pub fn with_dpp(mut self, dpp: Dpp) -> Instruction {
        self.dpp = Some(dpp);
        self
    }

    /// With the SDWA selectors `sdwa`.
    pub fn with_sdwa(mut self, sdwa: Sdwa) -> Instruction {
        self.sdwa = Some(sdwa);
        self
    }
}
