//! Lexing: one line of assembly as written, token by token. A [`Cursor`]
//! over the line reads numbers, registers and operands with their
//! modifiers ([`operand`]) into [`Parsed`] values that remember their
//! column; nothing here knows the instruction or the target.

use super::AsmError;
use crate::instr::{Part, ScalarReg, Special};
use rustc_apfloat::ieee::Double;
use rustc_apfloat::{Float, Round};

pub(super) type Res<T> = Result<T, AsmError>;

pub(super) fn fail<T>(col: usize, reason: impl Into<String>) -> Res<T> {
    Err(AsmError {
        column: col,
        reason: reason.into(),
    })
}

/// A number as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Num {
    /// An integer token (kept wide to detect overflow).
    Int(i128),
    /// A floating-point token, as a double.
    /// The F64 encoding of a float literal.
    Float(u64),
}

/// A register as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reg {
    /// `vN` or `v[N:M]`: first and last register (`last >= index`).
    V { index: u32, last: u32, part: Part },
    /// `sN` or `s[N:M]`: first and last register (`last >= index`).
    S { index: u32, last: u32 },
    /// A named scalar register; `wide` for the 64-bit names (vcc, exec).
    Named { reg: ScalarReg, wide: bool },
    /// `ttmpN` or `ttmp[N:M]`: first and last trap temporary (`last >= index`).
    Ttmp { index: u32, last: u32 },
    /// A special source (`src_scc`, `shared_base`, `lds_direct`...), with
    /// the name as written.
    Special { src: Special, name: &'static str },
}

/// The special sources by every name LLVM's assembler takes for them.
const SPECIAL_NAMES: [(&str, Special); 20] = [
    ("src_scc", Special::Scc),
    ("scc", Special::Scc),
    ("src_vccz", Special::Vccz),
    ("vccz", Special::Vccz),
    ("src_execz", Special::Execz),
    ("execz", Special::Execz),
    ("src_shared_base", Special::SharedBase),
    ("shared_base", Special::SharedBase),
    ("src_shared_limit", Special::SharedLimit),
    ("shared_limit", Special::SharedLimit),
    ("src_private_base", Special::PrivateBase),
    ("private_base", Special::PrivateBase),
    ("src_private_limit", Special::PrivateLimit),
    ("private_limit", Special::PrivateLimit),
    ("src_pops_exiting_wave_id", Special::PopsExitingWaveId),
    ("pops_exiting_wave_id", Special::PopsExitingWaveId),
    ("src_flat_scratch_base_lo", Special::FlatScratchBaseLo),
    ("src_flat_scratch_base_hi", Special::FlatScratchBaseHi),
    ("src_lds_direct", Special::LdsDirect),
    ("lds_direct", Special::LdsDirect),
];

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Atom {
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
pub(super) struct Parsed {
    pub(super) col: usize,
    pub(super) atom: Atom,
    pub(super) neg: bool,
    pub(super) abs: bool,
    pub(super) sext: bool,
}

impl Parsed {
    pub(super) fn has_fp_mods(&self) -> bool {
        self.neg || self.abs
    }
}

/// A cursor over one line.
pub(super) struct Cursor<'a> {
    pub(super) s: &'a [u8],
    pub(super) pos: usize,
}

pub(super) fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$'
}

impl<'a> Cursor<'a> {
    pub(super) fn col(&self) -> usize {
        self.pos + 1
    }
    pub(super) fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    pub(super) fn peek_at(&self, n: usize) -> Option<u8> {
        self.s.get(self.pos + n).copied()
    }
    pub(super) fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }
    pub(super) fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    pub(super) fn starts(&self, p: &str) -> bool {
        self.s[self.pos..].starts_with(p.as_bytes())
    }
    pub(super) fn ident(&mut self) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(is_ident) {
            self.pos += 1;
        }
        core::str::from_utf8(&self.s[start..self.pos]).unwrap_or("")
    }
    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }
    pub(super) fn expect(&mut self, c: u8, what: &str) -> Res<()> {
        self.ws();
        if self.eat(c) {
            Ok(())
        } else {
            fail(self.col(), format!("expected {what}"))
        }
    }

    /// A decimal number (register indices, modifier values). One too large
    /// for a u32 reads as `u32::MAX`, which no register or modifier takes.
    pub(super) fn decimal(&mut self) -> Option<u32> {
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
    pub(super) fn number(&mut self) -> Res<Num> {
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
    pub(super) fn term(&mut self) -> Res<Num> {
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
pub(super) fn int_value(digits: &str, radix: u32, neg: bool, col: usize) -> Res<Num> {
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
pub(super) fn register(c: &mut Cursor<'_>) -> Res<Option<Reg>> {
    let col = c.col();
    let first = c.peek();
    let ttmp = c.starts("ttmp[");
    if ttmp || matches!(first, Some(b'v' | b's')) && c.peek_at(1) == Some(b'[') {
        c.pos += if ttmp { 5 } else { 2 };
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
        return Ok(Some(if ttmp {
            Reg::Ttmp {
                index: lo,
                last: hi,
            }
        } else if first == Some(b'v') {
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
        "flat_scratch" => named(ScalarReg::FlatScratchLo, true),
        "flat_scratch_lo" => named(ScalarReg::FlatScratchLo, false),
        "flat_scratch_hi" => named(ScalarReg::FlatScratchHi, false),
        "xnack_mask" => named(ScalarReg::XnackMaskLo, true),
        "xnack_mask_lo" => named(ScalarReg::XnackMaskLo, false),
        "xnack_mask_hi" => named(ScalarReg::XnackMaskHi, false),
        _ if SPECIAL_NAMES.iter().any(|(n, _)| *n == id) => SPECIAL_NAMES
            .iter()
            .find(|(n, _)| *n == id)
            .map(|&(name, src)| Reg::Special { src, name }),
        _ if id.len() > 4
            && id.starts_with("ttmp")
            && id.bytes().skip(4).all(|b| b.is_ascii_digit()) =>
        {
            let index = id[4..].parse::<u32>().unwrap_or(u32::MAX);
            Some(Reg::Ttmp { index, last: index })
        }
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

pub(super) fn atom(c: &mut Cursor<'_>) -> Res<Atom> {
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
pub(super) fn operand(c: &mut Cursor<'_>) -> Res<Parsed> {
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

/// The F64 encoding of a decimal literal, rounded to nearest-even by
/// APFloat (LLVM's own arithmetic), so the host's floating-point environment
/// never matters.
pub(super) fn parse_f64_bits(text: &str) -> Option<u64> {
    let parsed = Double::from_str_r(text, Round::NearestTiesToEven).ok()?;
    u64::try_from(parsed.value.to_bits()).ok()
}
