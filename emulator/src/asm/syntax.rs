//! Text -> [`Instruction`]: LLVM's AMDGPU syntax for V_FRACT and V_LDEXP,
//! with LLVM's choices of encoding (e32 before e64 when no suffix is given)
//! and of inline constant versus literal.
//!
//! The seams: [`super::lex`] reads the operands as written,
//! [`super::operands`] types them for their slot, [`super::literal`]
//! chooses between inline constant and literal; this file reads the
//! mnemonic and the modifiers, picks the encoding and checks the result
//! with the encoder (and so with [`crate::validate::check`]).

use super::dpp::{dpp_of, takes_no_value, DppMods};
use super::encode::{encode_with, OpType};
use super::lex::{fail, is_ident, operand, Atom, Cursor, Parsed, Reg, Res};
use super::operands::{k_operand, reg_operand, source};
use super::tables::TargetEncoding;
use super::target_encoding;
use super::{AsmError, Slot};
use crate::dpp::Dpp;
use crate::instr::{
    DstUnused, Encoding, Instruction, Opcode, Operand, Part, Sdwa, SdwaSel, SrcMods,
};
use crate::kernels::Omod;
use crate::target::Target;

#[derive(Clone, Debug, Default)]
struct Mods {
    clamp: Option<usize>,
    omod: Option<(usize, Omod)>,
    op_sel: Option<(usize, Vec<u32>)>,
    dst_sel: Option<(usize, SdwaSel)>,
    dst_unused: Option<(usize, DstUnused)>,
    src0_sel: Option<(usize, SdwaSel)>,
    src1_sel: Option<(usize, SdwaSel)>,
    dpp: DppMods,
}

impl Mods {
    fn sdwa_col(&self) -> Option<usize> {
        [
            self.dst_sel.map(|x| x.0),
            self.dst_unused.map(|x| x.0),
            self.src0_sel.map(|x| x.0),
            self.src1_sel.map(|x| x.0),
        ]
        .into_iter()
        .flatten()
        .min()
    }
}

fn sel(col: usize, name: &str, what: &str) -> Res<SdwaSel> {
    Ok(match name {
        "BYTE_0" => SdwaSel::Byte0,
        "BYTE_1" => SdwaSel::Byte1,
        "BYTE_2" => SdwaSel::Byte2,
        "BYTE_3" => SdwaSel::Byte3,
        "WORD_0" => SdwaSel::Word0,
        "WORD_1" => SdwaSel::Word1,
        "DWORD" => SdwaSel::Dword,
        _ => return fail(col, format!("invalid {what} value")),
    })
}

/// Where each modifier may appear: LLVM takes them in this order only.
fn modifier_rank(key: &str) -> Option<u8> {
    Some(match key {
        "op_sel" => 0,
        "clamp" => 1,
        "mul" | "div" => 2,
        "dst_sel" => 3,
        "dst_unused" => 4,
        "src0_sel" => 5,
        "src1_sel" => 6,
        _ => return super::dpp::modifier_rank(key),
    })
}

/// Whether the cursor is at a modifier keyword rather than an operand.
fn at_modifier(c: &Cursor<'_>) -> bool {
    let rest = &c.s[c.pos..];
    let end = rest
        .iter()
        .position(|b| !is_ident(*b))
        .unwrap_or(rest.len());
    let word = core::str::from_utf8(&rest[..end]).unwrap_or("");
    modifier_rank(word).is_some()
        && (word == "clamp" || takes_no_value(word) || rest.get(end) == Some(&b':'))
}

fn modifiers(te: &TargetEncoding, c: &mut Cursor<'_>, m: &mut Mods) -> Res<()> {
    let mut last_rank = None;
    loop {
        c.ws();
        if c.at_end() {
            return Ok(());
        }
        let col = c.col();
        let key = c.ident();
        if let Some(rank) = modifier_rank(key) {
            if last_rank.is_some_and(|r| r >= rank) {
                return fail(col, "invalid operand for instruction");
            }
            last_rank = Some(rank);
        }
        let dup = |seen: bool| {
            if seen {
                fail(col, "invalid operand for instruction: repeated modifier")
            } else {
                Ok(())
            }
        };
        match key {
            "clamp" => {
                dup(m.clamp.is_some())?;
                m.clamp = Some(col);
            }
            "mul" | "div" => {
                dup(m.omod.is_some())?;
                if !c.eat(b':') {
                    return fail(c.col(), "expected ':'");
                }
                let v = c.decimal();
                let omod = match (key, v) {
                    (_, Some(1)) => Omod::None,
                    ("mul", Some(2)) => Omod::Mul2,
                    ("mul", Some(4)) => Omod::Mul4,
                    ("div", Some(2)) => Omod::Div2,
                    // LLVM points at the modifier's name here.
                    _ => return fail(col, format!("invalid {key} value.")),
                };
                m.omod = Some((col, omod));
            }
            "op_sel" => {
                dup(m.op_sel.is_some())?;
                if !c.eat(b':') || !c.eat(b'[') {
                    return fail(c.col(), "expected op_sel:[...]");
                }
                let mut bits = Vec::new();
                loop {
                    c.ws();
                    let vcol = c.col();
                    match c.decimal() {
                        Some(b @ 0..=1) => bits.push(b),
                        _ => return fail(vcol, "invalid op_sel value."),
                    }
                    c.ws();
                    if c.eat(b']') {
                        break;
                    }
                    if !c.eat(b',') {
                        return fail(c.col(), "expected ',' or ']'");
                    }
                }
                m.op_sel = Some((col, bits));
            }
            "dst_sel" | "src0_sel" | "src1_sel" | "dst_unused" => {
                if !c.eat(b':') {
                    return fail(c.col(), "expected ':'");
                }
                let vcol = c.col();
                let v = c.ident();
                match key {
                    "dst_unused" => {
                        dup(m.dst_unused.is_some())?;
                        let u = match v {
                            "UNUSED_PAD" => DstUnused::Pad,
                            "UNUSED_SEXT" => DstUnused::Sext,
                            "UNUSED_PRESERVE" => DstUnused::Preserve,
                            _ => return fail(vcol, "invalid dst_unused value"),
                        };
                        m.dst_unused = Some((col, u));
                    }
                    "dst_sel" => {
                        dup(m.dst_sel.is_some())?;
                        m.dst_sel = Some((col, sel(vcol, v, key)?));
                    }
                    "src0_sel" => {
                        dup(m.src0_sel.is_some())?;
                        m.src0_sel = Some((col, sel(vcol, v, key)?));
                    }
                    _ => {
                        dup(m.src1_sel.is_some())?;
                        m.src1_sel = Some((col, sel(vcol, v, key)?));
                    }
                }
            }
            k if super::dpp::modifier_rank(k).is_some() => {
                super::dpp::modifier(te.target.spec(), c, k, col, &mut m.dpp)?;
            }
            "" => return fail(col, "invalid operand for instruction"),
            _ => return fail(col, "invalid operand for instruction"),
        }
        if c.peek().is_some_and(|b| !matches!(b, b' ' | b'\t')) {
            return fail(c.col(), "invalid operand for instruction");
        }
    }
}

/// The suffix written after the mnemonic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Suffix {
    None,
    E32,
    E64,
    Sdwa,
    /// `_dpp`.
    Dpp,
    /// `_e32_dpp`: LLVM has it for VOP1 forms without true16 halves.
    E32Dpp,
    /// `_e64_dpp`.
    E64Dpp,
}

fn mnemonic(text: &str) -> Option<(Opcode, Suffix)> {
    let lower = text.to_ascii_lowercase();
    let (base, suffix) = split_suffix(&lower);
    Opcode::ALL
        .into_iter()
        .find(|o| o.mnemonic() == base)
        .map(|o| (o, suffix))
}

/// The mnemonic without its encoding suffix, and the suffix.
fn split_suffix(lower: &str) -> (&str, Suffix) {
    if let Some(b) = lower.strip_suffix("_e64_dpp") {
        (b, Suffix::E64Dpp)
    } else if let Some(b) = lower.strip_suffix("_e32_dpp") {
        (b, Suffix::E32Dpp)
    } else if let Some(b) = lower.strip_suffix("_dpp") {
        (b, Suffix::Dpp)
    } else if let Some(b) = lower.strip_suffix("_e32") {
        (b, Suffix::E32)
    } else if let Some(b) = lower.strip_suffix("_e64") {
        (b, Suffix::E64)
    } else if let Some(b) = lower.strip_suffix("_sdwa") {
        (b, Suffix::Sdwa)
    } else {
        (lower, Suffix::None)
    }
}

/// The error for a mnemonic that names no modelled instruction: LLVM's
/// "invalid instruction", unless `isa-spec/instructions/valu.yaml` lists it as
/// not modelled, which says so with the reason.
fn unknown_mnemonic(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let (base, _) = split_suffix(&lower);
    match crate::instr::not_modelled(base) {
        Some(reason) => format!("{base} is not modelled: {reason}"),
        None => "invalid instruction".into(),
    }
}

/// Parse one line of assembly for `target` into a typed instruction.
pub fn parse(target: Target, text: &str) -> Result<Instruction, AsmError> {
    let parsed = parse_line(target, text);
    // LLVM reports a mnemonic suffix (_e32, _dpp, _e64_dpp) the target
    // lacks for the instruction at column 1,
    // unless a value was out of range first.
    let rest = text.trim_start_matches([' ', '\t']);
    let word = rest
        .split(|c: char| !(c.is_ascii() && is_ident(c as u8)))
        .next();
    let Some((opcode, suffix)) = word.and_then(mnemonic) else {
        return parsed;
    };
    let col = text.len() - rest.len() + 1;
    match (
        missing_variant(target_encoding(target), opcode, suffix),
        parsed,
    ) {
        (Some(why), Ok(_)) => fail(col, why),
        (Some(why), Err(e)) if !is_value_error(&e.reason) => fail(col, why),
        (_, parsed) => parsed,
    }
}

/// LLVM's errors about a value out of range, which it reports where they
/// are even on a mnemonic the target lacks.
fn is_value_error(reason: &str) -> bool {
    (reason.starts_with("invalid ") && (reason.ends_with(" value") || reason.ends_with(" value.")))
        || reason.starts_with("expected a ")
}

fn parse_line(target: Target, text: &str) -> Result<Instruction, AsmError> {
    let te = target_encoding(target);
    let line = match text.find(';') {
        Some(i) => &text[..i],
        None => text,
    };
    let mut c = Cursor {
        s: line.as_bytes(),
        pos: 0,
    };
    c.ws();
    let mcol = c.col();
    let name = c.ident();
    if name.is_empty() {
        return fail(mcol, "expected an instruction mnemonic");
    }
    let Some((opcode, suffix)) = mnemonic(name) else {
        return fail(mcol, unknown_mnemonic(name));
    };
    let mut ops: Vec<Parsed> = Vec::new();
    c.ws();
    if !c.at_end() {
        loop {
            ops.push(operand(&mut c)?);
            c.ws();
            // LLVM also takes operands separated by blanks only.
            if !c.eat(b',') && (c.at_end() || at_modifier(&c)) {
                break;
            }
        }
    }
    if c.peek().is_some_and(|b| !matches!(b, b' ' | b'\t')) && !c.at_end() && ops.is_empty() {
        return fail(c.col(), "invalid operand for instruction");
    }
    let mut mods = Mods::default();
    mods.dpp.has_forms = te
        .target
        .spec()
        .dpp_forms
        .iter()
        .any(|f| f.opcode == opcode);
    modifiers(te, &mut c, &mut mods)?;
    let want = 1 + opcode.info().sources.len();
    if ops.len() < want {
        return fail(mcol, "too few operands for instruction");
    }
    if ops.len() > want {
        return fail(ops[want].col, "invalid operand for instruction");
    }
    if matches!(suffix, Suffix::Dpp | Suffix::E32Dpp | Suffix::E64Dpp)
        || mods.dpp.first_col().is_some()
    {
        return parse_dpp(te, opcode, suffix, &ops, &mods, mcol);
    }
    let sdwa_only = mods.sdwa_col().is_some() || ops.iter().any(|o| o.sext);
    let candidates: &[Encoding] = match suffix {
        Suffix::E32 => &[Encoding::Vop1],
        Suffix::E64 => &[Encoding::Vop3],
        Suffix::Sdwa => &[Encoding::Sdwa],
        Suffix::None if sdwa_only => &[Encoding::Sdwa],
        _ => &[Encoding::Vop1, Encoding::Vop3],
    };
    let mut last_err = None;
    for &enc in candidates {
        // Vop1 stands for the instruction's e32 encoding.
        let enc = match (enc, opcode.info().e32) {
            (Encoding::Vop1, Some(e32)) => e32,
            _ => enc,
        };
        // A form the target lacks does not hide the error of one it has.
        if last_err.is_some() && te.op(opcode, enc).is_none() {
            continue;
        }
        match build(te, opcode, enc, &ops, &mods, mcol) {
            Ok(i) => return Ok(i),
            Err(e) => last_err = Some(e),
        }
    }
    Err(last_err.unwrap_or(AsmError {
        column: mcol,
        reason: "invalid instruction".into(),
    }))
}

/// Build and check `opcode` in `enc` from the written operands.
fn build(
    te: &TargetEncoding,
    opcode: Opcode,
    enc: Encoding,
    ops: &[Parsed],
    mods: &Mods,
    mcol: usize,
) -> Res<Instruction> {
    if te.op(opcode, enc).is_none() {
        let what = match enc {
            Encoding::Vop1 | Encoding::Vop2 => "e32",
            Encoding::Vop3 => "e64",
            Encoding::Sdwa => "sdwa",
        };
        return fail(
            mcol,
            format!("{what} variant of this instruction is not supported"),
        );
    }
    let (t0, t1) = (opcode.info().src0(), opcode.info().src1());
    let e32 = matches!(enc, Encoding::Vop1 | Encoding::Vop2);
    // Modifiers each encoding can take.
    if enc != Encoding::Sdwa {
        if let Some(col) = mods.sdwa_col() {
            return fail(col, "not a valid operand.");
        }
    }
    if e32 {
        for (col, present) in [
            (mods.clamp, mods.clamp.is_some()),
            (mods.omod.map(|x| x.0), mods.omod.is_some()),
            (mods.op_sel.as_ref().map(|x| x.0), mods.op_sel.is_some()),
        ] {
            if present {
                return fail(col.unwrap_or(mcol), "invalid operand for instruction");
            }
        }
    }
    let half_regs = super::encode::true16(te, t0);
    // GFX9/GFX10 VOP3-only 16-bit instructions: op_sel selects high halves
    // of operands written whole.
    let hi_only = enc == Encoding::Vop3 && te.op_sel_without_halves(opcode);
    let mut op_sel_hi: Vec<u32> = Vec::new();
    // True16 VOP3-only 16-bit instructions (V_FMA_F16) written with whole
    // registers: op_sel picks the halves, as llvm-mc 22 takes it.
    let is_half =
        |p: &Parsed| matches!(p.atom, Atom::Reg(Reg::V { part, .. }) if part != Part::Full);
    let whole_true16 = enc == Encoding::Vop3
        && half_regs
        && opcode.info().e32.is_none()
        && !ops.iter().any(is_half);
    if let (Some((col, bits)), true) = (&mods.op_sel, hi_only || whole_true16) {
        let n = opcode.info().sources.len();
        if bits.len() != n + 1 {
            return fail(*col, "invalid operand for instruction");
        }
        op_sel_hi = bits.clone();
    }
    if let (Some((col, bits)), false) = (&mods.op_sel, hi_only || whole_true16) {
        if enc == Encoding::Sdwa || !half_regs {
            return fail(*col, "not a valid operand.");
        }
        let any_half = ops.iter().any(|o| {
            matches!(
                o.atom,
                Atom::Reg(Reg::V {
                    part: Part::Lo | Part::Hi,
                    ..
                })
            )
        });
        // op_sel may restate the halves (as LLVM prints it) but not differ:
        // sources in order (FMAC's accumulator as 0), then the destination.
        let hi = |p: &Parsed| u32::from(matches!(p.atom, Atom::Reg(Reg::V { part: Part::Hi, .. })));
        let mut expect: Vec<u32> = ops[1..].iter().map(hi).collect();
        // LLVM also takes FMAC's list without the accumulator's entry.
        let short = opcode.info().accumulator && bits.len() == expect.len() + 1;
        if opcode.info().accumulator && !short {
            expect.push(0);
        }
        expect.push(hi(&ops[0]));
        if !any_half || bits.len() != expect.len() {
            return fail(*col, "invalid operand for instruction");
        }
        if bits.iter().any(|&b| b != 0) && *bits != expect {
            return fail(*col, "op_sel operand conflicts with 16-bit operand suffix");
        }
    }
    let dst = reg_operand(te, &ops[0], t0, true)?;
    if ops[0].has_fp_mods() || ops[0].sext || !matches!(ops[0].atom, Atom::Reg(Reg::V { .. })) {
        return fail(ops[0].col, "invalid operand for instruction");
    }
    // Without a VOP3 form (FMAMK, FMAAK) LLVM has no modifier syntax at all.
    if e32 && te.op(opcode, Encoding::Vop3).is_none() {
        if let Some(p) = ops[1..].iter().find(|p| p.has_fp_mods() || p.sext) {
            return fail(p.col, "not a valid operand.");
        }
    }
    let (src0, m0) = source(te, &ops[1], t0, enc)?;
    let info = opcode.info();
    let mut more = [(None, SrcMods::default()); 2];
    for (n, &ty) in info.sources.iter().enumerate().skip(1) {
        let p = &ops[n + 1];
        let (s, m) = if info.k_slot == Some(n) {
            (k_operand(te, p, ty, enc)?, SrcMods::default())
        } else {
            source(te, p, ty, enc)?
        };
        more[n - 1] = (Some(s), m);
    }
    let [(src1, m1), (src2, m2)] = more;
    let sdwa = (enc == Encoding::Sdwa).then(|| Sdwa {
        dst_sel: mods.dst_sel.map_or(SdwaSel::Dword, |x| x.1),
        // LLVM's default for dst_unused is UNUSED_PRESERVE.
        dst_unused: mods.dst_unused.map_or(DstUnused::Preserve, |x| x.1),
        src0_sel: mods.src0_sel.map_or(SdwaSel::Dword, |x| x.1),
        src1_sel: mods.src1_sel.map_or(SdwaSel::Dword, |x| x.1),
        reserved: 0,
    });
    if enc == Encoding::Sdwa && t1.is_none() {
        if let Some((col, _)) = mods.src1_sel {
            return fail(col, "invalid operand for instruction");
        }
    }
    let hi = |op: Operand, bit: Option<&u32>| match (op, bit) {
        (Operand::Vgpr { index, .. }, Some(1)) => Operand::Vgpr {
            index,
            part: Part::Hi,
        },
        (Operand::Vgpr { index, .. }, Some(_)) if whole_true16 => Operand::Vgpr {
            index,
            part: Part::Lo,
        },
        (Operand::Scalar { reg, .. }, Some(1)) => Operand::Scalar {
            reg,
            part: Part::Hi,
        },
        (other, _) => other,
    };
    let n_src = opcode.info().sources.len();
    // op_sel on a constant: LLVM encodes the bit; a constant has no half
    // to select here (a deliberate refusal).
    for (n, p) in ops.iter().enumerate().skip(1) {
        if op_sel_hi.get(n - 1) == Some(&1) && !matches!(p.atom, Atom::Reg(_)) {
            let col = mods.op_sel.as_ref().map_or(mcol, |x| x.0);
            return fail(col, "invalid operand for instruction: op_sel on a constant");
        }
    }
    let dst = hi(dst, op_sel_hi.get(n_src));
    let src0 = hi(src0, op_sel_hi.first());
    let src1 = src1.map(|s| hi(s, op_sel_hi.get(1)));
    let src2 = src2.map(|s| hi(s, op_sel_hi.get(2)));
    let instr = Instruction {
        opcode,
        encoding: enc,
        dst,
        src0,
        src0_mods: m0,
        src1,
        src1_mods: m1,
        src2,
        src2_mods: m2,
        clamp: mods.clamp.is_some(),
        omod: mods.omod.map_or(Omod::None, |x| x.1),
        sdwa,
        dpp: None,
    };
    encode_with(te, &instr).map_err(|e| {
        let col = match e.slot {
            Slot::Mnemonic => mcol,
            Slot::Dst => ops[0].col,
            Slot::Src0 => ops[1].col,
            Slot::Src1 => ops.get(2).map_or(mcol, |o| o.col),
            Slot::Src2 => ops.get(3).map_or(mcol, |o| o.col),
            Slot::Modifier => [mods.clamp, mods.omod.map(|x| x.0), mods.sdwa_col()]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(mcol),
        };
        AsmError {
            column: col,
            reason: e.reason,
        }
    })?;
    Ok(instr)
}

/// LLVM's error for a mnemonic suffix the target does not have for
/// `opcode` (`_e32_dpp` exists for VOP1 forms without true16 halves only).
fn missing_variant(te: &TargetEncoding, opcode: Opcode, suffix: Suffix) -> Option<&'static str> {
    let spec = te.target.spec();
    let has = |enc: Encoding| {
        spec.has_dpp_form(opcode, enc, false) || spec.has_dpp_form(opcode, enc, true)
    };
    let e32 = opcode.info().e32;
    // An instruction the target does not have at all (V_FMAC_F16 on GFX9).
    if !spec.forms.iter().any(|f| f.opcode == opcode) {
        return Some("instruction not supported on this GPU");
    }
    match suffix {
        Suffix::E32Dpp
            if e32 != Some(Encoding::Vop1) || super::encode::true16(te, opcode.info().src0()) =>
        {
            Some("invalid instruction")
        }
        Suffix::Dpp | Suffix::E32Dpp if !e32.is_some_and(has) => {
            Some("dpp variant of this instruction is not supported")
        }
        Suffix::E64Dpp if !has(Encoding::Vop3) => {
            Some("e64_dpp variant of this instruction is not supported")
        }
        Suffix::E32 if e32.and_then(|e| te.op(opcode, e)).is_none() => {
            Some("e32 variant of this instruction is not supported")
        }
        _ => None,
    }
}

/// A line with a DPP suffix or DPP modifiers: e32 `_dpp` or `_e64_dpp`
/// (a plain mnemonic tries e32 then e64, as LLVM does).
fn parse_dpp(
    te: &TargetEncoding,
    opcode: Opcode,
    suffix: Suffix,
    ops: &[Parsed],
    mods: &Mods,
    mcol: usize,
) -> Res<Instruction> {
    let candidates: &[Encoding] = match suffix {
        Suffix::Dpp => &[Encoding::Vop1],
        Suffix::E32Dpp => &[Encoding::Vop1],
        Suffix::E64Dpp => &[Encoding::Vop3],
        Suffix::None => &[Encoding::Vop1, Encoding::Vop3],
        _ => {
            let col = mods.dpp.first_col().unwrap_or(mcol);
            return fail(col, "invalid operand for instruction");
        }
    };
    let Some(dpp) = dpp_of(&mods.dpp) else {
        return match mods.dpp.first_col() {
            Some(col) => fail(col, "not a valid operand."),
            None => fail(mcol, "too few operands for instruction"),
        };
    };
    let dpp = dpp.or_else(|(col, why)| fail(col, why))?;
    let spec = te.target.spec();
    let dpp8 = matches!(dpp, Dpp::Dpp8 { .. });
    let mut first_err: Option<AsmError> = None;
    for &enc in candidates {
        // Vop1 stands for the instruction's e32 encoding.
        let enc = match (enc, opcode.info().e32) {
            (Encoding::Vop1, Some(e32)) => e32,
            _ => enc,
        };
        if !spec.has_dpp_form(opcode, enc, dpp8) {
            let what = if enc == Encoding::Vop3 {
                "e64_dpp"
            } else {
                "dpp"
            };
            let e = AsmError {
                column: mcol,
                reason: format!("{what} variant of this instruction is not supported"),
            };
            first_err.get_or_insert(e);
            continue;
        }
        match build_dpp(te, opcode, enc, dpp, ops, mods, mcol) {
            Ok(i) => return Ok(i),
            Err(e) => {
                // The error of the first form the target has.
                if first_err.as_ref().is_none_or(|f| f.column == mcol) {
                    first_err = Some(e);
                }
            }
        }
    }
    Err(first_err.unwrap_or(AsmError {
        column: mcol,
        reason: "invalid instruction".into(),
    }))
}

/// Build `opcode` in base encoding `enc` with `dpp`: the base form is built
/// and checked as without DPP (src0 a VGPR, its e32 ABS/NEG and src1's
/// `sext`, which LLVM takes and drops, set aside), then the DPP rules.
fn build_dpp(
    te: &TargetEncoding,
    opcode: Opcode,
    enc: Encoding,
    dpp: Dpp,
    ops: &[Parsed],
    mods: &Mods,
    mcol: usize,
) -> Res<Instruction> {
    let spec = te.target.spec();
    let ctrl_col = mods.dpp.ctrl.map_or(mcol, |x| x.0);
    let e32 = enc != Encoding::Vop3;
    let t0 = opcode.info().src0();
    if let (Dpp::Dpp16(d), Some(f64c)) = (
        dpp,
        (t0.bits() == 64).then_some(spec.dpp.f64_controls.value),
    ) {
        if !d.ctrl.legal_in(f64c) {
            let kind = f64c.iter().next().map_or("", |k| k.name());
            return fail(ctrl_col, format!("DP ALU dpp only supports {kind}"));
        }
    }
    if e32 {
        if let Some(col) = [mods.clamp, mods.omod.map(|x| x.0)]
            .into_iter()
            .flatten()
            .min()
        {
            // Without e64 DPP, LLVM takes the output modifier and refuses
            // the control after it.
            return if spec.has_dpp_form(opcode, Encoding::Vop3, false) {
                fail(col, "invalid operand for instruction")
            } else {
                fail(ctrl_col, "not a valid operand.")
            };
        }
    }
    // Halves where the target has none (LLVM's `.l`/`.h` registers are
    // v0-v127 there), or a true16 e32 register past the halves' range:
    // LLVM refuses the whole line, or the first operand whose style differs
    // from the destination's.
    let halves = super::encode::true16(te, t0);
    let e32_range = te.family.e32_hi_half();
    let is_half =
        |p: &Parsed| matches!(p.atom, Atom::Reg(Reg::V { part, .. }) if part != Part::Full);
    if !halves && mods.op_sel.is_none() && ops.iter().any(is_half) {
        let first = ops.first().is_some_and(is_half);
        if let Some(p) = ops.iter().find(|p| is_half(p) != first) {
            return fail(p.col, "invalid operand for instruction");
        }
        let low =
            |p: &Parsed| matches!(p.atom, Atom::Reg(Reg::V { index, .. }) if index < e32_range);
        if ops.iter().all(low) {
            return fail(mcol, "operands are not valid for this GPU or mode");
        }
    }
    for p in ops {
        if let Atom::Reg(Reg::V { index, .. }) = p.atom {
            if halves && e32 && index >= e32_range && index <= 255 && mods.op_sel.is_none() {
                return fail(mcol, "operands are not valid for this GPU or mode");
            }
        }
    }
    let mut ops = ops.to_vec();
    let mut src0_mods = SrcMods::default();
    if let Some(p) = ops.get_mut(1) {
        if let Atom::Lit { wide, .. } = p.atom {
            // LLVM points inside `lit(`.
            let col = p.col + if wide { 6 } else { 4 };
            return fail(col, "invalid operand for instruction");
        }
        if !matches!(p.atom, Atom::Reg(Reg::V { .. })) {
            return fail(p.col, "invalid operand for instruction");
        }
        if e32 && p.has_fp_mods() {
            if matches!(dpp, Dpp::Dpp8 { .. }) {
                return fail(ctrl_col, "invalid operand for instruction");
            }
            src0_mods.abs = p.abs;
            src0_mods.neg = p.neg;
            p.abs = false;
            p.neg = false;
        }
    }
    // A VOP2 word's float src1 takes ABS/NEG in the DPP16 word.
    let mut src1_mods = SrcMods::default();
    let float_src1 = enc == Encoding::Vop2 && opcode.info().src1().is_some_and(|t| t.is_float());
    if let (Some(p), true) = (ops.get_mut(2), float_src1) {
        if p.has_fp_mods() && matches!(p.atom, Atom::Reg(_)) {
            if matches!(dpp, Dpp::Dpp8 { .. }) {
                return fail(ctrl_col, "invalid operand for instruction");
            }
            src1_mods.abs = p.abs;
            src1_mods.neg = p.neg;
            p.abs = false;
            p.neg = false;
        }
    }
    // LLVM takes and drops `sext` on a 16-bit exponent.
    if let (Some(p), Some(OpType::I16)) = (ops.get_mut(2), opcode.info().src1()) {
        p.sext = false;
    }
    let base = build(te, opcode, enc, &ops, mods, mcol)?;
    let instr = Instruction {
        src0_mods: if e32 { src0_mods } else { base.src0_mods },
        src1_mods: if float_src1 {
            src1_mods
        } else {
            base.src1_mods
        },
        dpp: Some(dpp),
        ..base
    };
    encode_with(te, &instr).map_err(|e| {
        let col = match e.slot {
            Slot::Mnemonic => mcol,
            Slot::Dst => ops[0].col,
            Slot::Src0 => ops[1].col,
            // LLVM refuses a constant exponent for the whole line.
            Slot::Src1 if e.reason.starts_with("src1 immediate") => mcol,
            Slot::Src1 => ops.get(2).map_or(mcol, |o| match o.atom {
                Atom::Lit { wide, .. } => o.col + if wide { 6 } else { 4 },
                _ => o.col,
            }),
            Slot::Src2 => ops.get(3).map_or(mcol, |o| match o.atom {
                Atom::Lit { wide, .. } => o.col + if wide { 6 } else { 4 },
                _ => o.col,
            }),
            Slot::Modifier => ctrl_col,
        };
        AsmError {
            column: col,
            reason: e.reason,
        }
    })?;
    Ok(instr)
}
