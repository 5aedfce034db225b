//! Text -> [`Instruction`]: LLVM's AMDGPU syntax for V_FRACT and V_LDEXP,
//! with LLVM's choices of encoding (e32 before e64 when no suffix is given)
//! and of inline constant versus literal.

use super::encode::{encode_with, inline_value, src_types, OpType};
use super::tables::TargetEncoding;
use super::target_encoding;
use super::{AsmError, Slot};
use crate::instr::{
    DstUnused, Encoding, Instruction, Opcode, Operand, Part, ScalarReg, Sdwa, SdwaSel, SrcMods,
};
use crate::kernels::Omod;
use crate::target::Target;
use rustc_apfloat::ieee::{Double, Half, Single};
use rustc_apfloat::{Float, FloatConvert, Round, Status, StatusAnd};

type Res<T> = Result<T, AsmError>;

fn fail<T>(col: usize, reason: impl Into<String>) -> Res<T> {
    Err(AsmError {
        column: col,
        reason: reason.into(),
    })
}

/// A number as written.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Num {
    /// An integer token (kept wide to detect overflow).
    Int(i128),
    /// A floating-point token, as a double.
    /// The F64 encoding of a float literal.
    Float(u64),
}

/// A register as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reg {
    /// vN or v[N:M]: first and last register (`last >= index`).
    V { index: u32, last: u32, part: Part },
    /// sN or s[N:M]: first and last register (`last >= index`).
    S { index: u32, last: u32 },
    /// A named scalar register; `wide` for the 64-bit names (vcc, exec).
    Named { reg: ScalarReg, wide: bool },
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Atom {
    Reg(Reg),
    Num(Num),
    /// lit(...) (`wide` false) or lit64(...) (`wide` true).
    Lit {
        num: Num,
        wide: bool,
    },
}

/// One source or destination operand as written.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Parsed {
    col: usize,
    atom: Atom,
    neg: bool,
    abs: bool,
    sext: bool,
}

impl Parsed {
    fn has_fp_mods(&self) -> bool {
        self.neg || self.abs
    }
}

#[derive(Clone, Debug, Default)]
struct Mods {
    clamp: Option<usize>,
    omod: Option<(usize, Omod)>,
    op_sel: Option<(usize, Vec<u32>)>,
    dst_sel: Option<(usize, SdwaSel)>,
    dst_unused: Option<(usize, DstUnused)>,
    src0_sel: Option<(usize, SdwaSel)>,
    src1_sel: Option<(usize, SdwaSel)>,
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

/// A cursor over one line.
struct Cursor<'a> {
    s: &'a [u8],
    pos: usize,
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$'
}

impl<'a> Cursor<'a> {
    fn col(&self) -> usize {
        self.pos + 1
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn peek_at(&self, n: usize) -> Option<u8> {
        self.s.get(self.pos + n).copied()
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn starts(&self, p: &str) -> bool {
        self.s[self.pos..].starts_with(p.as_bytes())
    }
    fn ident(&mut self) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(is_ident) {
            self.pos += 1;
        }
        core::str::from_utf8(&self.s[start..self.pos]).unwrap_or("")
    }
    fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }
    fn expect(&mut self, c: u8, what: &str) -> Res<()> {
        self.ws();
        if self.eat(c) {
            Ok(())
        } else {
            fail(self.col(), format!("expected {what}"))
        }
    }

    /// A decimal number (register indices, modifier values). One too large
    /// for a u32 reads as `u32::MAX`, which no register or modifier takes.
    fn decimal(&mut self) -> Option<u32> {
        let start = self.pos;
        let mut v: u64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            v = v.saturating_mul(10).saturating_add(u64::from(c - b'0'));
            self.pos += 1;
        }
        (self.pos > start).then(|| u32::try_from(v).unwrap_or(u32::MAX))
    }

    /// A number: one [`term`](Self::term), or integer terms joined by `+`
    /// and `-`, evaluated left to right as LLVM does (`1-2+3` is 2). A loop,
    /// so a long expression takes no stack; the sum is checked.
    fn number(&mut self) -> Res<Num> {
        let col = self.col();
        let first = self.term()?;
        let Num::Int(mut acc) = first else {
            return Ok(first);
        };
        while matches!(self.peek(), Some(b'+' | b'-'))
            && self.peek_at(1).is_some_and(|c| c.is_ascii_digit())
        {
            let sub = self.peek() == Some(b'-');
            self.pos += 1;
            let tcol = self.col();
            let Num::Int(rhs) = self.term()? else {
                return fail(tcol, "invalid expression: floating-point term");
            };
            let sum = if sub {
                acc.checked_sub(rhs)
            } else {
                acc.checked_add(rhs)
            };
            acc = sum.ok_or_else(|| AsmError {
                column: col,
                reason: "literal value out of range".into(),
            })?;
        }
        Ok(Num::Int(acc))
    }

    /// A number token: integers in decimal, 0x hex, 0b binary or 0-prefixed
    /// octal; floats with a '.' or an exponent.
    fn term(&mut self) -> Res<Num> {
        let col = self.col();
        let neg = self.eat(b'-');
        let start = self.pos;
        let rest = &self.s[self.pos..];
        let radix_prefix = |p: &[u8]| rest.len() > 2 && rest[0] == b'0' && p.contains(&rest[1]);
        let (radix, skip) = if radix_prefix(b"xX") {
            (16, 2)
        } else if radix_prefix(b"bB") && rest[2].is_ascii_digit() {
            (2, 2)
        } else {
            (10, 0)
        };
        if radix == 10 {
            // Float?
            let mut end = self.pos;
            let mut is_float = false;
            while end < self.s.len() {
                let c = self.s[end];
                if c.is_ascii_digit() {
                    end += 1;
                } else if c == b'.' {
                    is_float = true;
                    end += 1;
                } else if (c == b'e' || c == b'E') && end > start {
                    is_float = true;
                    end += 1;
                    if end < self.s.len() && (self.s[end] == b'-' || self.s[end] == b'+') {
                        end += 1;
                    }
                } else {
                    break;
                }
            }
            let text = core::str::from_utf8(&self.s[start..end]).unwrap_or("");
            if text.is_empty() {
                return fail(col, "expected a number");
            }
            self.pos = end;
            if is_float {
                let v = parse_f64_bits(text).ok_or_else(|| AsmError {
                    column: col,
                    reason: "invalid floating-point literal".into(),
                })?;
                return Ok(Num::Float(if neg { v ^ (1 << 63) } else { v }));
            }
            let (radix, digits) = if text.len() > 1 && text.starts_with('0') {
                (8, &text[1..])
            } else {
                (10, text)
            };
            return int_value(digits, radix, neg, col);
        }
        self.pos += skip;
        let dstart = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
            self.pos += 1;
        }
        let digits = core::str::from_utf8(&self.s[dstart..self.pos]).unwrap_or("");
        if digits.is_empty() {
            return fail(col, "invalid number");
        }
        int_value(digits, radix, neg, col)
    }
}

/// The integer `digits` (no sign, no prefix) in `radix`, negated if `neg`.
fn int_value(digits: &str, radix: u32, neg: bool, col: usize) -> Res<Num> {
    if !digits.bytes().all(|b| char::from(b).is_digit(radix)) {
        return fail(col, "invalid number");
    }
    let v = u64::from_str_radix(digits, radix).map_err(|_| AsmError {
        column: col,
        reason: "literal value out of range".into(),
    })?;
    let v = i128::from(v);
    Ok(Num::Int(if neg { -v } else { v }))
}

/// Parse a register at the cursor (after an identifier check).
fn register(c: &mut Cursor<'_>) -> Res<Option<Reg>> {
    let col = c.col();
    let first = c.peek();
    if matches!(first, Some(b'v' | b's')) && c.peek_at(1) == Some(b'[') {
        c.pos += 2;
        c.ws();
        let lo = c.decimal().ok_or(AsmError {
            column: c.col(),
            reason: "expected a register index".into(),
        })?;
        c.ws();
        let hi = if c.eat(b':') {
            c.ws();
            let hi = c.decimal().ok_or(AsmError {
                column: c.col(),
                reason: "expected a register index".into(),
            })?;
            c.ws();
            hi
        } else {
            lo
        };
        if !c.eat(b']') {
            return fail(c.col(), "expected ']'");
        }
        if hi < lo {
            return fail(col, "first register index should not exceed second index");
        }
        return Ok(Some(if first == Some(b'v') {
            Reg::V {
                index: lo,
                last: hi,
                part: Part::Full,
            }
        } else {
            Reg::S {
                index: lo,
                last: hi,
            }
        }));
    }
    let save = c.pos;
    let id = c.ident();
    let named = |reg, wide| Some(Reg::Named { reg, wide });
    let r = match id {
        "vcc" => named(ScalarReg::VccLo, true),
        "vcc_lo" => named(ScalarReg::VccLo, false),
        "vcc_hi" => named(ScalarReg::VccHi, false),
        "exec" => named(ScalarReg::ExecLo, true),
        "exec_lo" => named(ScalarReg::ExecLo, false),
        "exec_hi" => named(ScalarReg::ExecHi, false),
        "m0" => named(ScalarReg::M0, false),
        "null" => named(ScalarReg::Null, true),
        _ => {
            let (kind, rest) = id.split_at(id.len().min(1));
            let (num, part) = match rest.split_once('.') {
                Some((n, "l")) => (n, Part::Lo),
                Some((n, "h")) => (n, Part::Hi),
                Some(_) => ("", Part::Full),
                None => (rest, Part::Full),
            };
            let idx = (!num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()))
                .then(|| num.parse::<u32>().unwrap_or(u32::MAX));
            match (kind, idx) {
                ("v", Some(index)) => Some(Reg::V {
                    index,
                    last: index,
                    part,
                }),
                ("s", Some(index)) if part == Part::Full => Some(Reg::S { index, last: index }),
                ("s", Some(_)) => {
                    return fail(
                        col,
                        "invalid operand for instruction: scalar registers have no halves",
                    )
                }
                _ => None,
            }
        }
    };
    if r.is_none() {
        c.pos = save;
    }
    Ok(r)
}

fn atom(c: &mut Cursor<'_>) -> Res<Atom> {
    c.ws();
    let col = c.col();
    for (name, wide) in [("lit64(", true), ("lit(", false)] {
        if c.starts(name) {
            c.pos += name.len();
            c.ws();
            let num = c.number()?;
            c.expect(b')', "closing parentheses")?;
            return Ok(Atom::Lit { num, wide });
        }
    }
    match c.peek() {
        Some(b'0'..=b'9' | b'.') => return Ok(Atom::Num(c.number()?)),
        Some(b'-') if matches!(c.peek_at(1), Some(b'0'..=b'9' | b'.')) => {
            return Ok(Atom::Num(c.number()?))
        }
        Some(b'-') => return fail(col, "invalid syntax, expected 'neg' modifier"),
        _ => {}
    }
    if let Some(r) = register(c)? {
        return Ok(Atom::Reg(r));
    }
    if c.peek().is_some_and(is_ident) {
        let id = c.ident();
        return fail(
            col,
            format!(
                "invalid operand for instruction: unknown name `{id}` (symbols are not supported)"
            ),
        );
    }
    fail(col, "failed parsing operand")
}

/// One operand with its modifiers: [-|neg(] [|abs(] [sext(] atom ...
fn operand(c: &mut Cursor<'_>) -> Res<Parsed> {
    c.ws();
    let col = c.col();
    let mut p = Parsed {
        col,
        atom: Atom::Num(Num::Int(0)),
        neg: false,
        abs: false,
        sext: false,
    };
    let mut closers: Vec<u8> = Vec::new();
    if c.starts("neg(") {
        c.pos += 4;
        p.neg = true;
        closers.push(b')');
    } else if c.peek() == Some(b'-') && !matches!(c.peek_at(1), Some(b'0'..=b'9' | b'.')) {
        c.pos += 1;
        c.ws();
        if c.peek() == Some(b'-') {
            return fail(col, "invalid syntax, expected 'neg' modifier");
        }
        p.neg = true;
    }
    c.ws();
    if c.starts("abs(") {
        c.pos += 4;
        p.abs = true;
        closers.push(b')');
    } else if c.eat(b'|') {
        p.abs = true;
        closers.push(b'|');
    }
    c.ws();
    if c.starts("sext(") {
        c.pos += 5;
        p.sext = true;
        closers.push(b')');
    }
    p.atom = atom(c)?;
    while let Some(close) = closers.pop() {
        c.ws();
        if !c.eat(close) {
            return fail(
                c.col(),
                if close == b'|' {
                    "expected vertical bar"
                } else {
                    "expected closing parentheses"
                },
            );
        }
    }
    Ok(p)
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
        _ => return None,
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
    modifier_rank(word).is_some() && (word == "clamp" || rest.get(end) == Some(&b':'))
}

fn modifiers(c: &mut Cursor<'_>, m: &mut Mods) -> Res<()> {
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
}

fn mnemonic(text: &str) -> Option<(Opcode, Suffix)> {
    let lower = text.to_ascii_lowercase();
    let (base, suffix) = if let Some(b) = lower.strip_suffix("_e32") {
        (b, Suffix::E32)
    } else if let Some(b) = lower.strip_suffix("_e64") {
        (b, Suffix::E64)
    } else if let Some(b) = lower.strip_suffix("_sdwa") {
        (b, Suffix::Sdwa)
    } else {
        (lower.as_str(), Suffix::None)
    };
    Opcode::ALL
        .into_iter()
        .find(|o| o.mnemonic() == base)
        .map(|o| (o, suffix))
}

/// Parse one line of assembly for `target` into a typed instruction.
pub fn parse(target: Target, text: &str) -> Result<Instruction, AsmError> {
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
        return fail(mcol, "invalid instruction");
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
    modifiers(&mut c, &mut mods)?;
    let (_, t1) = src_types(opcode);
    let want = if t1.is_some() { 3 } else { 2 };
    if ops.len() < want {
        return fail(mcol, "too few operands for instruction");
    }
    if ops.len() > want {
        return fail(ops[want].col, "invalid operand for instruction");
    }
    let sdwa_only = mods.sdwa_col().is_some() || ops.iter().any(|o| o.sext);
    let candidates: &[Encoding] = match suffix {
        Suffix::E32 => &[Encoding::Vop1],
        Suffix::E64 => &[Encoding::Vop3],
        Suffix::Sdwa => &[Encoding::Sdwa],
        Suffix::None if sdwa_only => &[Encoding::Sdwa],
        Suffix::None => &[Encoding::Vop1, Encoding::Vop3],
    };
    let mut last_err = None;
    for &enc in candidates {
        let enc = if enc == Encoding::Vop1 && t1.is_some() {
            Encoding::Vop2
        } else {
            enc
        };
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
    let (t0, t1) = src_types(opcode);
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
    if let Some((col, bits)) = &mods.op_sel {
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
        if !any_half || bits.len() != ops.len() {
            return fail(*col, "invalid operand for instruction");
        }
        // op_sel may restate the halves (as LLVM prints it) but not differ:
        // sources in order, then the destination.
        let hi = |p: &Parsed| u32::from(matches!(p.atom, Atom::Reg(Reg::V { part: Part::Hi, .. })));
        let mut expect: Vec<u32> = ops[1..].iter().map(hi).collect();
        expect.push(hi(&ops[0]));
        if bits.iter().any(|&b| b != 0) && *bits != expect {
            return fail(*col, "op_sel operand conflicts with 16-bit operand suffix");
        }
    }
    let dst = reg_operand(te, &ops[0], t0, true)?;
    if ops[0].has_fp_mods() || ops[0].sext || !matches!(ops[0].atom, Atom::Reg(Reg::V { .. })) {
        return fail(ops[0].col, "invalid operand for instruction");
    }
    let (src0, m0) = source(te, &ops[1], t0, enc)?;
    let (src1, m1) = match t1 {
        Some(t1) => {
            let (s, m) = source(te, &ops[2], t1, enc)?;
            (Some(s), m)
        }
        None => (None, SrcMods::default()),
    };
    let sdwa = (enc == Encoding::Sdwa).then(|| Sdwa {
        dst_sel: mods.dst_sel.map_or(SdwaSel::Dword, |x| x.1),
        // LLVM's default for dst_unused is UNUSED_PRESERVE.
        dst_unused: mods.dst_unused.map_or(DstUnused::Preserve, |x| x.1),
        src0_sel: mods.src0_sel.map_or(SdwaSel::Dword, |x| x.1),
        src1_sel: mods.src1_sel.map_or(SdwaSel::Dword, |x| x.1),
    });
    if enc == Encoding::Sdwa && t1.is_none() {
        if let Some((col, _)) = mods.src1_sel {
            return fail(col, "invalid operand for instruction");
        }
    }
    let instr = Instruction {
        opcode,
        encoding: enc,
        dst,
        src0,
        src0_mods: m0,
        src1,
        src1_mods: m1,
        clamp: mods.clamp.is_some(),
        omod: mods.omod.map_or(Omod::None, |x| x.1),
        sdwa,
    };
    encode_with(te, &instr).map_err(|e| {
        let col = match e.slot {
            Slot::Mnemonic => mcol,
            Slot::Dst => ops[0].col,
            Slot::Src0 => ops[1].col,
            Slot::Src1 => ops.get(2).map_or(mcol, |o| o.col),
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

/// A register operand of type `ty`.
fn reg_operand(te: &TargetEncoding, p: &Parsed, ty: OpType, is_dst: bool) -> Res<Operand> {
    let Atom::Reg(r) = p.atom else {
        return fail(p.col, "invalid operand for instruction");
    };
    // Registers the operand takes, less one: the span `last - index` it
    // must have (indices are checked, never summed: they can be any u32).
    let span = if ty.bits() == 64 { 1 } else { 0 };
    let bad = || fail(p.col, "invalid operand for instruction");
    match r {
        Reg::V { index, last, part } => {
            if last > 255 {
                return fail(p.col, "register index is out of range");
            }
            if last - index != span {
                return bad();
            }
            if part != Part::Full && !super::encode::true16(te, ty) {
                return bad();
            }
            Ok(Operand::Vgpr {
                index: index as u16,
                part,
            })
        }
        _ if is_dst => bad(),
        Reg::S { index, last } => {
            if last - index != span {
                return bad();
            }
            if last > 105 {
                return fail(p.col, "register index is out of range");
            }
            Ok(Operand::Scalar {
                reg: ScalarReg::Sgpr(index as u8),
                part: Part::Full,
            })
        }
        Reg::Named { reg, wide } => {
            let ok = match reg {
                ScalarReg::Null => true,
                ScalarReg::VccLo | ScalarReg::ExecLo => wide == (span == 1),
                _ => span == 0,
            };
            if !ok {
                return bad();
            }
            let _ = te;
            Ok(Operand::Scalar {
                reg,
                part: Part::Full,
            })
        }
    }
}

/// A source operand of type `ty` in encoding `enc`, with its modifiers.
fn source(te: &TargetEncoding, p: &Parsed, ty: OpType, enc: Encoding) -> Res<(Operand, SrcMods)> {
    let e32 = matches!(enc, Encoding::Vop1 | Encoding::Vop2);
    let mut mods = SrcMods {
        abs: p.abs,
        neg: p.neg,
        sext: p.sext,
    };
    if p.sext && (enc != Encoding::Sdwa || ty.is_float()) {
        return fail(p.col, "not a valid operand.");
    }
    if (p.neg || p.abs) && !ty.is_float() {
        return fail(p.col, "not a valid operand.");
    }
    let op = match p.atom {
        Atom::Reg(_) => {
            if e32 && p.has_fp_mods() {
                return fail(p.col, "invalid operand for instruction");
            }
            reg_operand(te, p, ty, false)?
        }
        Atom::Num(num) => {
            // e32 has no modifier bits: LLVM folds ABS/NEG into the value.
            let fold = e32 && p.has_fp_mods();
            if fold {
                mods.abs = false;
                mods.neg = false;
            }
            immediate(te, p, num, ty, enc, fold)?
        }
        Atom::Lit { num, wide } => {
            if e32 && p.has_fp_mods() {
                return fail(p.col, "invalid operand for instruction");
            }
            forced_literal(te, p, num, ty, enc, wide)?
        }
    };
    Ok((op, mods))
}

fn sign_mask(bits: u32) -> u64 {
    1u64 << (bits - 1)
}

fn apply_fp_mods(v: u64, bits: u32, p: &Parsed) -> u64 {
    let mask = sign_mask(bits);
    let mut v = v;
    if p.abs {
        v &= !mask;
    }
    if p.neg {
        v ^= mask;
    }
    v
}

/// Whether the integer fits `bits` bits signed or unsigned.
fn safe_trunc(v: i128, bits: u32) -> bool {
    let max_u = (1i128 << bits) - 1;
    let min_s = -(1i128 << (bits - 1));
    (min_s..=max_u).contains(&v)
}

/// The width an integer token must fit in a slot of type `ty`.
fn int_width(te: &TargetEncoding, ty: OpType) -> u32 {
    // True16 targets type V_LDEXP_F16's exponent as a 32-bit operand and
    // keep its low 16 bits.
    if ty == OpType::I16 && te.family.true16_e32_halves {
        32
    } else {
        ty.bits()
    }
}

/// The F64 encoding of a decimal literal, rounded to nearest-even by
/// APFloat (LLVM's own arithmetic), so the host's floating-point environment
/// never matters.
fn parse_f64_bits(text: &str) -> Option<u64> {
    let parsed = Double::from_str_r(text, Round::NearestTiesToEven).ok()?;
    u64::try_from(parsed.value.to_bits()).ok()
}

/// Convert F64 bits to F16/F32 bits with round-to-nearest-even, as LLVM's
/// assembler does (APFloat `convert`), and whether the conversion overflowed
/// or underflowed (LLVM allows precision loss but not those).
fn convert(bits: u64, width: u32) -> (u64, bool) {
    let d = Double::from_bits(u128::from(bits));
    let mut lost = false;
    let (status, out) = if width == 32 {
        let r: StatusAnd<Single> = d.convert_r(Round::NearestTiesToEven, &mut lost);
        (r.status, r.value.to_bits())
    } else {
        let r: StatusAnd<Half> = d.convert_r(Round::NearestTiesToEven, &mut lost);
        (r.status, r.value.to_bits())
    };
    let safe = !(lost && status.intersects(Status::OVERFLOW | Status::UNDERFLOW));
    // F16/F32 encodings fit in 32 bits.
    (out as u64, safe)
}

/// [`convert`], refusing an overflow or underflow.
fn to_format(bits: u64, width: u32) -> Option<u64> {
    match convert(bits, width) {
        (v, true) => Some(v),
        (_, false) => None,
    }
}

fn immediate(
    te: &TargetEncoding,
    p: &Parsed,
    num: Num,
    ty: OpType,
    enc: Encoding,
    fold: bool,
) -> Res<Operand> {
    let bad = || fail(p.col, "invalid operand for instruction");
    let vop1_lit64 = te.literal64 && enc == Encoding::Vop1;
    match num {
        Num::Float(f) => {
            let mut bits = f;
            if fold {
                bits = apply_fp_mods(bits, 64, p);
            }
            if ty == OpType::F64 {
                if let Some(op) = inline_value(bits, ty) {
                    return Ok(op);
                }
                if bits as u32 != 0 && vop1_lit64 {
                    return Ok(Operand::Literal64(bits));
                }
                // LLVM warns and drops the low dword.
                return Ok(Operand::Literal((bits >> 32) as u32));
            }
            // The range check uses the operand's declared width (32 bits for
            // true16 V_LDEXP_F16's exponent), the value its real width.
            if to_format(bits, int_width(te, ty)).is_none() {
                return bad();
            }
            let (v, _) = convert(bits, ty.bits());
            Ok(inline_value(v, ty).unwrap_or(Operand::Literal(v as u32)))
        }
        Num::Int(i) => {
            if ty == OpType::F64 {
                let inl = (i64::MIN as i128..=i64::MAX as i128).contains(&i)
                    || (0..=u64::MAX as i128).contains(&i);
                let raw = i as u64;
                if p.has_fp_mods() {
                    // LLVM refuses FP modifiers on non-inline 64-bit integer
                    // literals, and does not fold them into e32.
                    if fold {
                        return bad();
                    }
                    return match inline_value(raw, ty) {
                        Some(op) if inl => Ok(op),
                        _ => bad(),
                    };
                }
                if inl {
                    if let Some(op) = inline_value(raw, ty) {
                        return Ok(op);
                    }
                }
                if !safe_trunc(i, 32) {
                    // Targets with 64-bit literals take a value whose low
                    // dword is zero as a 32-bit (high dword) literal.
                    if te.literal64 && inl && raw as u32 == 0 {
                        return Ok(Operand::Literal((raw >> 32) as u32));
                    }
                    if vop1_lit64 && inl {
                        return Ok(Operand::Literal64(raw));
                    }
                    return bad();
                }
                let hi = raw << 32;
                return Ok(inline_value(hi, ty).unwrap_or(Operand::Literal(raw as u32)));
            }
            let width = int_width(te, ty);
            if !safe_trunc(i, width) {
                return bad();
            }
            let mut v = (i as u64) & if width == 32 { 0xffff_ffff } else { 0xffff };
            if fold {
                v = apply_fp_mods(v, ty.bits(), p);
            }
            if ty.bits() == 16 {
                v &= 0xffff;
            }
            Ok(inline_value(v, ty).unwrap_or(Operand::Literal(v as u32)))
        }
    }
}

fn forced_literal(
    te: &TargetEncoding,
    p: &Parsed,
    num: Num,
    ty: OpType,
    enc: Encoding,
    wide: bool,
) -> Res<Operand> {
    fn bad<T>(p: &Parsed) -> Res<T> {
        fail(p.col, "invalid operand for instruction")
    }
    if wide && te.family.codes.literal64.is_none() {
        return fail(p.col, "lit64 is not supported on this GPU");
    }
    let value: u64 = match (num, ty) {
        (Num::Float(f), OpType::F64) => {
            if wide {
                f
            } else {
                f >> 32
            }
        }
        (Num::Float(f), _) => to_format(f, ty.bits()).map_or_else(|| bad(p), Ok)?,
        (Num::Int(i), _) => {
            let width = if ty == OpType::F64 {
                64
            } else {
                int_width(te, ty)
            };
            if !safe_trunc(i, width) {
                return bad(p);
            }
            let v = i as u64;
            match ty.bits() {
                16 => v & 0xffff,
                32 => v & 0xffff_ffff,
                _ => v,
            }
        }
    };
    if ty == OpType::F64 {
        // gfx1250 VOP1 writes F64 literals as 64-bit ones (LLVM puts the
        // value of `lit(x)` in the low dword there).
        if te.literal64 {
            let _ = enc;
            return Ok(Operand::Literal64(value));
        }
        return u32::try_from(value)
            .map(Operand::Literal)
            .or_else(|_| bad(p));
    }
    Ok(Operand::Literal(value as u32))
}
