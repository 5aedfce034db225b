//! [`Instruction`] -> text in LLVM's canonical spelling (what
//! `llvm-mc --disassemble` prints).

use super::encode::{inline_value, literal_is_inline, true16, OpType};
use super::target_encoding;
use crate::instr::{Encoding, FloatConst, Instruction, Operand, Part, ScalarReg, SrcMods};
use crate::kernels::{FormatKind, Omod};
use crate::target::Target;

fn reg(op: Operand, ty: OpType, halves: bool) -> String {
    let wide = ty.bits() == 64;
    match op {
        Operand::Vgpr { index, part } => {
            if wide {
                format!("v[{index}:{}]", index + 1)
            } else if halves {
                format!("v{index}{}", if part == Part::Hi { ".h" } else { ".l" })
            } else {
                format!("v{index}")
            }
        }
        Operand::Scalar { reg, .. } => match reg {
            ScalarReg::Sgpr(n) if wide => format!("s[{n}:{}]", n + 1),
            ScalarReg::Sgpr(n) => format!("s{n}"),
            ScalarReg::VccLo => (if wide { "vcc" } else { "vcc_lo" }).to_string(),
            ScalarReg::VccHi => "vcc_hi".to_string(),
            ScalarReg::ExecLo => (if wide { "exec" } else { "exec_lo" }).to_string(),
            ScalarReg::ExecHi => "exec_hi".to_string(),
            ScalarReg::M0 => "m0".to_string(),
            ScalarReg::Null => "null".to_string(),
            ScalarReg::Ttmp(n) if wide => format!("ttmp[{n}:{}]", n + 1),
            ScalarReg::Ttmp(n) => format!("ttmp{n}"),
            ScalarReg::FlatScratchLo if wide => "flat_scratch".to_string(),
            ScalarReg::FlatScratchLo => "flat_scratch_lo".to_string(),
            ScalarReg::FlatScratchHi => "flat_scratch_hi".to_string(),
            ScalarReg::XnackMaskLo if wide => "xnack_mask".to_string(),
            ScalarReg::XnackMaskLo => "xnack_mask_lo".to_string(),
            ScalarReg::XnackMaskHi => "xnack_mask_hi".to_string(),
        },
        Operand::Special(src) => src.syntax().to_string(),
        // A 16-bit operand's literal dword with a nonzero high half, as
        // llvm-mc 22 prints it: the low half alone when it is no inline
        // constant (the high half is dropped from the text), else the whole
        // dword in lit(), since the low half alone would read as the
        // inline constant.
        Operand::Literal(v) if ty.bits() == 16 && v > 0xffff => {
            if !literal_is_inline(v & 0xffff, ty) {
                format!("{:#x}", v & 0xffff)
            } else {
                format!("lit({v:#x})")
            }
        }
        Operand::InlineInt(i) => i.to_string(),
        // LLVM spells 1/(2*pi) with the digits of the format it is read in.
        Operand::InlineFloat(FloatConst::InvTwoPi) if ty == OpType::F64 => {
            "0.15915494309189532".to_string()
        }
        Operand::InlineFloat(c) => c.syntax().to_string(),
        Operand::Literal(v) => {
            if ty == OpType::F64 {
                // LLVM prints an F64 literal whose value is an inline
                // constant as that constant.
                if let Some(c) = inline_value(u64::from(v) << 32, ty) {
                    return reg(c, ty, halves);
                }
                return format!("{v:#x}");
            }
            if literal_is_inline(v, ty) {
                format!("lit({v:#x})")
            } else {
                format!("{v:#x}")
            }
        }
        Operand::Literal64(v) => {
            if v >> 32 == 0 {
                format!("lit64({v:#x})")
            } else if let Some(c) = inline_value(v, ty) {
                reg(c, ty, halves)
            } else {
                format!("{v:#x}")
            }
        }
    }
}

/// FMAMK's or FMAAK's K as LLVM prints it: always the literal in hex
/// (never an inline constant); gfx1250's 64-bit F64 K as `lit64()` when
/// its high dword is 0.
fn k_literal(op: Operand, ty: OpType) -> String {
    match op {
        Operand::Literal(v) if ty.bits() == 16 => format!("{:#x}", v & 0xffff),
        Operand::Literal(v) => format!("{v:#x}"),
        Operand::Literal64(v) if v >> 32 == 0 => format!("lit64({v:#x})"),
        Operand::Literal64(v) => format!("{v:#x}"),
        other => reg(other, ty, false),
    }
}

fn is_const(op: Operand) -> bool {
    !matches!(
        op,
        Operand::Vgpr { .. } | Operand::Scalar { .. } | Operand::Special(_)
    )
}

/// A source's text `s` with its modifiers (`-|s|`).
fn source_text(s: String, mods: SrcMods) -> String {
    let mut s = s;
    if mods.abs {
        s = format!("|{s}|");
    }
    if mods.neg {
        s = if mods.abs {
            format!("-{s}")
        } else {
            format!("neg({s})")
        };
    }
    s
}

fn source(op: Operand, mods: SrcMods, ty: OpType, halves: bool) -> String {
    let mut s = reg(op, ty, halves);
    if mods.sext {
        s = format!("sext({s})");
    }
    if mods.abs {
        s = format!("|{s}|");
    }
    if mods.neg {
        s = if is_const(op) && !mods.abs {
            format!("neg({s})")
        } else {
            format!("-{s}")
        };
    }
    s
}

/// `instr` as LLVM's disassembler spells it on `target` (`llvm-mc
/// --disassemble`): the mnemonic with its encoding suffix, register pairs
/// as `v[2:3]`, literals in hex, modifiers in LLVM's order.
pub fn disassemble(target: Target, instr: &Instruction) -> String {
    let te = target_encoding(target);
    let (t0, t1) = (instr.opcode.info().src0(), instr.opcode.info().src1());
    let halves = true16(te, t0);
    // LLVM writes no `_e64` on an instruction without an e32 form, and no
    // `_e32` on one without a VOP3 form (FMAMK, FMAAK).
    let has_e32 = instr
        .opcode
        .info()
        .e32
        .and_then(|e| te.op(instr.opcode, e))
        .is_some();
    let has_vop3 = te.op(instr.opcode, Encoding::Vop3).is_some();
    let suffix = match instr.encoding {
        _ if instr.dpp.is_some() => super::dpp::suffix(instr.encoding),
        Encoding::Vop3 if !has_e32 => "",
        Encoding::Vop1 | Encoding::Vop2 if !has_vop3 => "",
        e => e.suffix(),
    };
    let e32 = matches!(instr.encoding, Encoding::Vop1 | Encoding::Vop2);
    let mut out = format!(
        "{}{suffix} {}",
        instr.opcode.mnemonic(),
        reg(instr.dst, t0, halves)
    );
    out.push_str(", ");
    out.push_str(&source(instr.src0, instr.src0_mods, t0, halves));
    let info = instr.opcode.info();
    for n in 1..info.sources.len() {
        let (Some(op), Some(&ty)) = (instr.source(n), info.sources.get(n)) else {
            continue;
        };
        out.push_str(", ");
        if info.k_slot == Some(n) {
            out.push_str(&k_literal(op, ty));
            continue;
        }
        let h = halves && ty.bits() == 16;
        // llvm-mc 22 prints an inline-constant src1 of a VOP3 DPP8 FMAC
        // as its raw operand code (`0xc1` for -1).
        let e64_dpp8 = instr.encoding == Encoding::Vop3
            && info.accumulator
            && matches!(instr.dpp, Some(crate::dpp::Dpp::Dpp8 { .. }));
        if e64_dpp8 && n == 1 && ty.is_float() {
            if let Ok(code) = super::encode::const_code(te.family, op, super::Slot::Src1) {
                out.push_str(&source_text(format!("{code:#x}"), instr.src_mods(n)));
                continue;
            }
        }
        out.push_str(&source(op, instr.src_mods(n), ty, h));
    }
    let _ = t1;
    let hi_only = instr.encoding == Encoding::Vop3 && te.op_sel_without_halves(instr.opcode);
    if instr.encoding == Encoding::Vop3 && (halves || hi_only) {
        let hi = |op: Option<Operand>| {
            matches!(
                op,
                Some(Operand::Vgpr { part: Part::Hi, .. } | Operand::Scalar { part: Part::Hi, .. })
            )
        };
        let mut bits: Vec<bool> = (0..info.sources.len())
            .map(|n| hi(instr.source(n)))
            .collect();
        // FMAC's accumulator has an op_sel bit LLVM prints as 0.
        if info.accumulator {
            bits.push(false);
        }
        bits.push(hi(Some(instr.dst)));
        if bits.iter().any(|b| *b) {
            let list: Vec<&str> = bits.iter().map(|b| if *b { "1" } else { "0" }).collect();
            out.push_str(&format!(" op_sel:[{}]", list.join(",")));
        }
    }
    if !e32 {
        if instr.clamp {
            out.push_str(" clamp");
        }
        match instr.omod {
            Omod::None => {}
            Omod::Mul2 => out.push_str(" mul:2"),
            Omod::Mul4 => out.push_str(" mul:4"),
            Omod::Div2 => out.push_str(" div:2"),
        }
    }
    if let Some(dpp) = instr.dpp {
        super::dpp::print(target.spec(), instr, dpp, &mut out);
    }
    if let Some(s) = instr.sdwa {
        out.push_str(&format!(
            " dst_sel:{} dst_unused:{} src0_sel:{}",
            s.dst_sel.syntax(),
            s.dst_unused.syntax(),
            s.src0_sel.syntax()
        ));
        if instr.src1.is_some() {
            out.push_str(&format!(" src1_sel:{}", s.src1_sel.syntax()));
        }
    }
    let _ = FormatKind::F16;
    out
}
