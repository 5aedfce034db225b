//! The `encoding:` section: merging a target's entries over its family's,
//! and checking every layout (fields inside a 32-bit word, `hi >= lo`, the
//! widths the emulator reads, no two fields of a word sharing a bit,
//! distinguishable identifying bits, operand codes that fit and do not
//! collide).

use serde_saphyr::Spanned;

use crate::error::{Loc, SpecError};
use crate::model::{
    BitField, Dpp16Layout, Dpp8Layout, EncodingIdent, FamilyFacts, MachineEncoding, OpSel,
    OperandCodes, SdwaLayout, SpecialCodes, Vop1Layout, Vop2Layout, Vop3Layout, SPECIAL_NAMES,
};
use crate::raw::{
    loc_of, RawDpp16, RawDpp8, RawEncoding, RawField, RawIdent, RawOperandCodes, RawSdwa,
    RawSpecialOperands, RawVop1, RawVop2, RawVop3, Tagged,
};

/// The fields of one 32-bit word seen so far, to find overlaps.
struct Word<'a> {
    path: &'a str,
    /// `vop3.word0`: the prefix of every field's name.
    name: &'static str,
    used: Vec<(String, BitField)>,
}

impl<'a> Word<'a> {
    fn new(path: &'a str, name: &'static str) -> Word<'a> {
        Word {
            path,
            name,
            used: Vec::new(),
        }
    }

    fn error(&self, loc: Option<Loc>, message: String) -> SpecError {
        SpecError::new(self.path, loc, message)
    }

    /// Claim `bits` for `name`, or report the field it overlaps.
    fn claim(
        &mut self,
        name: String,
        bits: BitField,
        loc: Option<Loc>,
        errors: &mut Vec<SpecError>,
    ) {
        if let Some((other, o)) = self.used.iter().find(|(_, o)| o.mask() & bits.mask() != 0) {
            errors.push(self.error(loc, format!("`{name}` ({bits}) overlaps `{other}` ({o})")));
        }
        self.used.push((name, bits));
    }

    /// A field: in the word, `hi >= lo`, `width` bits wide if given, not
    /// overlapping an earlier field of the word.
    fn field(
        &mut self,
        key: &str,
        raw: &Spanned<RawField>,
        width: Option<u8>,
        errors: &mut Vec<SpecError>,
    ) -> Option<BitField> {
        let name = format!("{}.{key}", self.name);
        let loc = loc_of(raw);
        let RawField { hi, lo } = raw.value;
        if hi > 31 || lo > 31 {
            errors.push(self.error(
                loc,
                format!(
                    "`{name}`: bit {} is outside a 32-bit word (bits 31..0)",
                    hi.max(lo)
                ),
            ));
            return None;
        }
        if hi < lo {
            errors.push(self.error(
                loc,
                format!("`{name}`: [{hi}, {lo}] has hi below lo; write [hi, lo]"),
            ));
            return None;
        }
        // Both fit in u8: checked above.
        let bits = BitField::new(hi as u8, lo as u8);
        if let Some(w) = width {
            if bits.width() != w {
                errors.push(self.error(
                    loc,
                    format!(
                        "`{name}` ({bits}) is {} bit(s) wide; it must be {w}",
                        bits.width()
                    ),
                ));
                return None;
            }
        }
        self.claim(name, bits, loc, errors);
        Some(bits)
    }

    fn ident(
        &mut self,
        raw: &Spanned<RawIdent>,
        errors: &mut Vec<SpecError>,
    ) -> Option<EncodingIdent> {
        let field = self.field("ident", &raw.value.field, None, errors)?;
        let value = raw.value.value.value;
        if value > field.max() {
            errors.push(self.error(
                loc_of(&raw.value.value),
                format!(
                    "`{}.ident` value {value:#x} does not fit {field}",
                    self.name
                ),
            ));
            return None;
        }
        Some(EncodingIdent { field, value })
    }
}

/// Take the target's entry, else the nearest family file's, with the file
/// it came from.
fn pick<'a, T>(
    target: (&'a RawEncoding, &'a str),
    family: &[(&'a RawEncoding, &'a str)],
    get: impl Fn(&'a RawEncoding) -> Option<&'a T>,
) -> Option<(&'a T, &'a str)> {
    std::iter::once(target)
        .chain(family.iter().copied())
        .find_map(|(e, path)| get(e).map(|v| (v, path)))
}

/// Merge and check the `encoding:` section of a target over its family
/// files, nearest first (or of a family file over the families it extends:
/// `target` is then that family file and `family` what it extends, perhaps
/// nothing).
/// `missing` makes the error for an entry neither file gives; `facts` are
/// the family's (`None` when they are broken), which the layouts must agree
/// with and which complete the tables.
pub(crate) fn encoding(
    target: (&RawEncoding, &str),
    family: &[(&RawEncoding, &str)],
    facts: Option<&FamilyFacts>,
    missing: &dyn Fn(&str) -> SpecError,
    errors: &mut Vec<SpecError>,
) -> Option<MachineEncoding> {
    let before = errors.len();
    let mut need = |what: &str, errors: &mut Vec<SpecError>| {
        errors.push(missing(&format!("`encoding.{what}`")));
    };

    let vop1 = match pick(target, family, |e| e.vop1.as_ref()) {
        Some((raw, path)) => vop1(raw, path, errors),
        None => {
            need("vop1", errors);
            None
        }
    };
    let vop2 = match pick(target, family, |e| e.vop2.as_ref()) {
        Some((raw, path)) => vop2(raw, path, errors),
        None => {
            need("vop2", errors);
            None
        }
    };
    let vop3 = match pick(target, family, |e| e.vop3.as_ref()) {
        Some((raw, path)) => vop3(raw, path, errors),
        None => {
            need("vop3", errors);
            None
        }
    };
    let sdwa_entry = pick(target, family, |e| e.sdwa.as_ref());
    let sdwa = sdwa_entry.and_then(|(raw, path)| sdwa(raw, path, errors));
    let dpp16 = match pick(target, family, |e| e.dpp16.as_ref()) {
        Some((raw, path)) => dpp16(raw, path, errors),
        None => {
            need("dpp16", errors);
            None
        }
    };
    let dpp8 =
        pick(target, family, |e| e.dpp8.as_ref()).and_then(|(raw, path)| dpp8(raw, path, errors));
    let codes = operand_codes(target, family, &mut need, errors);
    let special = match pick(target, family, |e| e.special_operands.as_ref()) {
        Some((raw, path)) => special_operands(raw, path, errors),
        None => SpecialCodes::default(),
    };

    // Agreement with the family's facts and between the layouts.
    let has_sdwa = facts.map(|f| f.sdwa.value);
    let true16 = facts.map(|f| f.true16.value);
    match (has_sdwa, sdwa_entry) {
        (Some(true), None) => errors.push(missing("`encoding.sdwa` (the family has `sdwa: true`)")),
        (Some(false), Some((raw, path))) => errors.push(SpecError::new(
            path,
            loc_of(raw),
            "`encoding.sdwa` given but the family has `sdwa: false`",
        )),
        _ => {}
    }
    if let (Some(true), Some((raw, path)), Some(l)) = (
        true16,
        pick(target, family, |e| e.vop3.as_ref()),
        vop3.as_ref(),
    ) {
        if l.op_sel.is_none() {
            errors.push(SpecError::new(
                path,
                loc_of(raw),
                "`encoding.vop3.word0.op_sel` is missing: true16 VOP3 selects halves with it",
            ));
        }
    }
    if let (Some(c), Some(v1), Some(v2), Some(v3)) = (&codes, &vop1, &vop2, &vop3) {
        check_codes(
            c,
            &special,
            sdwa.as_ref(),
            [v1.src0, v2.src0, v3.src[0]],
            target,
            family,
            errors,
        );
    }

    match (vop1, vop2, vop3, codes, facts, dpp16) {
        (Some(vop1), Some(vop2), Some(vop3), Some(codes), Some(facts), Some(dpp16))
            if errors.len() == before =>
        {
            Some(MachineEncoding {
                vop1,
                vop2,
                vop3,
                sdwa,
                dpp16,
                dpp8,
                codes,
                special,
                true16_e32_halves: facts.true16.value,
                vop3_literal: facts.vop3_literal.value,
                constant_bus_limit: facts.constant_bus_limit.value,
            })
        }
        _ => None,
    }
}

fn vop1(raw: &Spanned<RawVop1>, path: &str, errors: &mut Vec<SpecError>) -> Option<Vop1Layout> {
    let r = &raw.value;
    let mut w = Word::new(path, "vop1");
    let ident = w.ident(&r.ident, errors);
    let op = w.field("op", &r.op, None, errors);
    let vdst = w.field("vdst", &r.vdst, Some(8), errors);
    let src0 = w.field("src0", &r.src0, Some(9), errors);
    Some(Vop1Layout {
        ident: ident?,
        op: op?,
        vdst: vdst?,
        src0: src0?,
    })
}

fn vop2(raw: &Spanned<RawVop2>, path: &str, errors: &mut Vec<SpecError>) -> Option<Vop2Layout> {
    let r = &raw.value;
    let mut w = Word::new(path, "vop2");
    let ident = w.ident(&r.ident, errors);
    let op = w.field("op", &r.op, None, errors);
    let vdst = w.field("vdst", &r.vdst, Some(8), errors);
    let vsrc1 = w.field("vsrc1", &r.vsrc1, Some(8), errors);
    let src0 = w.field("src0", &r.src0, Some(9), errors);
    Some(Vop2Layout {
        ident: ident?,
        op: op?,
        vdst: vdst?,
        vsrc1: vsrc1?,
        src0: src0?,
    })
}

fn vop3(raw: &Spanned<RawVop3>, path: &str, errors: &mut Vec<SpecError>) -> Option<Vop3Layout> {
    let r0 = &raw.value.word0.value;
    let mut w = Word::new(path, "vop3.word0");
    let ident = w.ident(&r0.ident, errors);
    let op = w.field("op", &r0.op, None, errors);
    let vdst = w.field("vdst", &r0.vdst, Some(8), errors);
    let abs = w.field("abs", &r0.abs, Some(3), errors);
    let clamp = w.field("clamp", &r0.clamp, Some(1), errors);
    let op_sel = match &r0.op_sel {
        Some(s) => {
            let field = w.field("op_sel", &s.value.field, Some(4), errors);
            let dst_bit = s.value.dst_bit.value;
            match field {
                // Bits 0-2 are src0-src2.
                Some(f) if (3..u64::from(f.width())).contains(&dst_bit) => Some(Some(OpSel {
                    field: f,
                    dst_bit: dst_bit as u8,
                })),
                Some(f) => {
                    errors.push(SpecError::new(
                        path,
                        loc_of(&s.value.dst_bit),
                        format!("`vop3.word0.op_sel.dst_bit` {dst_bit} is not a bit of the {}-bit field after the three source bits", f.width()),
                    ));
                    None
                }
                None => None,
            }
        }
        None => Some(None),
    };
    let r1 = &raw.value.word1.value;
    let mut w = Word::new(path, "vop3.word1");
    let src0 = w.field("src0", &r1.src0, Some(9), errors);
    let src1 = w.field("src1", &r1.src1, Some(9), errors);
    let src2 = w.field("src2", &r1.src2, Some(9), errors);
    let omod = w.field("omod", &r1.omod, Some(2), errors);
    let neg = w.field("neg", &r1.neg, Some(3), errors);
    Some(Vop3Layout {
        ident: ident?,
        op: op?,
        vdst: vdst?,
        abs: abs?,
        clamp: clamp?,
        op_sel: op_sel?,
        src: [src0?, src1?, src2?],
        omod: omod?,
        neg: neg?,
    })
}

fn sdwa(raw: &Spanned<RawSdwa>, path: &str, errors: &mut Vec<SpecError>) -> Option<SdwaLayout> {
    let r = &raw.value.word1.value;
    let mut w = Word::new(path, "sdwa.word1");
    let mut f =
        |key: &str, raw: &Spanned<RawField>, width: u8| w.field(key, raw, Some(width), errors);
    let src0 = f("src0", &r.src0, 8);
    let dst_sel = f("dst_sel", &r.dst_sel, 3);
    let dst_unused = f("dst_unused", &r.dst_unused, 2);
    let clamp = f("clamp", &r.clamp, 1);
    let omod = f("omod", &r.omod, 2);
    let src0_sel = f("src0_sel", &r.src0_sel, 3);
    let src0_sext = f("src0_sext", &r.src0_sext, 1);
    let src0_neg = f("src0_neg", &r.src0_neg, 1);
    let src0_abs = f("src0_abs", &r.src0_abs, 1);
    let src0_sgpr = f("src0_sgpr", &r.src0_sgpr, 1);
    let src1_sel = f("src1_sel", &r.src1_sel, 3);
    let src1_sext = f("src1_sext", &r.src1_sext, 1);
    let src1_neg = f("src1_neg", &r.src1_neg, 1);
    let src1_abs = f("src1_abs", &r.src1_abs, 1);
    let src1_sgpr = f("src1_sgpr", &r.src1_sgpr, 1);
    let mut must_be_zero = 0u32;
    for bit in &r.must_be_zero {
        let loc = loc_of(bit);
        if bit.value > 31 {
            errors.push(SpecError::new(
                path,
                loc,
                format!(
                    "`sdwa.word1.must_be_zero`: bit {} is outside a 32-bit word (bits 31..0)",
                    bit.value
                ),
            ));
            continue;
        }
        let b = BitField::new(bit.value as u8, bit.value as u8);
        w.claim(
            format!("sdwa.word1.must_be_zero[{}]", bit.value),
            b,
            loc,
            errors,
        );
        must_be_zero |= b.mask();
    }
    Some(SdwaLayout {
        src0_code: raw.value.src0_code.value,
        src0: src0?,
        dst_sel: dst_sel?,
        dst_unused: dst_unused?,
        clamp: clamp?,
        omod: omod?,
        src0_sel: src0_sel?,
        src0_sext: src0_sext?,
        src0_neg: src0_neg?,
        src0_abs: src0_abs?,
        src0_sgpr: src0_sgpr?,
        src1_sel: src1_sel?,
        src1_sext: src1_sext?,
        src1_neg: src1_neg?,
        src1_abs: src1_abs?,
        src1_sgpr: src1_sgpr?,
        must_be_zero,
    })
}

fn dpp16(raw: &Spanned<RawDpp16>, path: &str, errors: &mut Vec<SpecError>) -> Option<Dpp16Layout> {
    let r = &raw.value;
    let mut w = Word::new(path, "dpp16");
    let mut f =
        |key: &str, raw: &Spanned<RawField>, width: u8| w.field(key, raw, Some(width), errors);
    let src0 = f("src0", &r.src0, 8);
    let ctrl = f("ctrl", &r.ctrl, 9);
    let fi = r.fi.as_ref().map(|fi| f("fi", fi, 1));
    let bound_ctrl = f("bound_ctrl", &r.bound_ctrl, 1);
    let src0_neg = f("src0_neg", &r.src0_neg, 1);
    let src0_abs = f("src0_abs", &r.src0_abs, 1);
    let src1_neg = f("src1_neg", &r.src1_neg, 1);
    let src1_abs = f("src1_abs", &r.src1_abs, 1);
    let bank_mask = f("bank_mask", &r.bank_mask, 4);
    let row_mask = f("row_mask", &r.row_mask, 4);
    let fi = match fi {
        Some(fi) => Some(fi?),
        None => None,
    };
    Some(Dpp16Layout {
        src0_code: r.src0_code.value,
        src0: src0?,
        ctrl: ctrl?,
        fi,
        bound_ctrl: bound_ctrl?,
        src0_neg: src0_neg?,
        src0_abs: src0_abs?,
        src1_neg: src1_neg?,
        src1_abs: src1_abs?,
        bank_mask: bank_mask?,
        row_mask: row_mask?,
    })
}

fn dpp8(raw: &Spanned<RawDpp8>, path: &str, errors: &mut Vec<SpecError>) -> Option<Dpp8Layout> {
    let r = &raw.value;
    let mut w = Word::new(path, "dpp8");
    let src0 = w.field("src0", &r.src0, Some(8), errors);
    let sel = w.field("sel", &r.sel, Some(24), errors);
    Some(Dpp8Layout {
        src0_code: r.src0_code.value,
        src0_code_fi: r.src0_code_fi.value,
        src0: src0?,
        sel: sel?,
    })
}

/// One operand code entry picked from the target or family file.
type Code<'a> = Option<(u32, &'a str, Option<Loc>)>;

fn code<'a>(
    target: (&'a RawEncoding, &'a str),
    family: &[(&'a RawEncoding, &'a str)],
    get: fn(&RawOperandCodes) -> Option<&Spanned<u32>>,
) -> Code<'a> {
    let from = |(e, path): (&'a RawEncoding, &'a str)| {
        e.operand_codes
            .as_ref()
            .and_then(|c| get(&c.value))
            .map(|v| (v.value, path, loc_of(v)))
    };
    std::iter::once(target)
        .chain(family.iter().copied())
        .find_map(from)
}

fn operand_codes(
    target: (&RawEncoding, &str),
    family: &[(&RawEncoding, &str)],
    need: &mut dyn FnMut(&str, &mut Vec<SpecError>),
    errors: &mut Vec<SpecError>,
) -> Option<OperandCodes> {
    let mut required = |name: &str, get: fn(&RawOperandCodes) -> Option<&Spanned<u32>>| {
        let c = code(target, family, get);
        if c.is_none() {
            need(&format!("operand_codes.{name}"), errors);
        }
        c.map(|(v, _, _)| v)
    };
    let max_sgpr = required("max_sgpr", |c| c.max_sgpr.as_ref());
    let vcc_lo = required("vcc_lo", |c| c.vcc_lo.as_ref());
    let m0 = required("m0", |c| c.m0.as_ref());
    let exec_lo = required("exec_lo", |c| c.exec_lo.as_ref());
    let int_zero = required("int_zero", |c| c.int_zero.as_ref());
    let float_first = required("float_first", |c| c.float_first.as_ref());
    let literal = required("literal", |c| c.literal.as_ref());
    let vgpr_first = required("vgpr_first", |c| c.vgpr_first.as_ref());
    let null = code(target, family, |c| c.sgpr_null.as_ref()).map(|c| c.0);
    let literal64 = code(target, family, |c| c.literal64.as_ref()).map(|c| c.0);
    let max_sgpr = match (max_sgpr, code(target, family, |c| c.max_sgpr.as_ref())) {
        (Some(m), Some((_, path, loc))) => match u8::try_from(m) {
            Ok(m) => Some(m),
            Err(_) => {
                errors.push(SpecError::new(
                    path,
                    loc,
                    format!("`operand_codes.max_sgpr` {m} is above 255"),
                ));
                None
            }
        },
        _ => None,
    };
    Some(OperandCodes {
        max_sgpr: max_sgpr?,
        vcc_lo: vcc_lo?,
        m0: m0?,
        sgpr_null: null,
        exec_lo: exec_lo?,
        int_zero: int_zero?,
        float_first: float_first?,
        literal: literal?,
        literal64,
        vgpr_first: vgpr_first?,
    })
}

/// `special_operands`: its codes, the names the assembler refuses (each
/// one of [`SPECIAL_NAMES`]) and its evidence tag.
fn special_operands(
    raw: &Spanned<RawSpecialOperands>,
    path: &str,
    errors: &mut Vec<SpecError>,
) -> SpecialCodes {
    let r = &raw.value;
    if let Err(e) = r.resolve(path, loc_of(raw), "`encoding.special_operands`") {
        errors.push(e);
    }
    let c = &r.codes;
    let v = |x: &Option<Spanned<u32>>| x.as_ref().map(|s| s.value);
    let mut refuses = 0u32;
    for name in &r.assembler_refuses {
        match SPECIAL_NAMES.iter().position(|n| *n == name.value) {
            Some(i) => refuses |= 1 << i,
            None => errors.push(SpecError::new(
                path,
                loc_of(name),
                format!(
                    "`special_operands.assembler_refuses`: unknown operand `{}` (one of {})",
                    name.value,
                    SPECIAL_NAMES.join(", ")
                ),
            )),
        }
    }
    SpecialCodes {
        flat_scratch_lo: v(&c.flat_scratch_lo),
        xnack_mask_lo: v(&c.xnack_mask_lo),
        ttmp0: v(&c.ttmp0),
        src_flat_scratch_base_lo: v(&c.src_flat_scratch_base_lo),
        src_shared_base: v(&c.src_shared_base),
        src_vccz: v(&c.src_vccz),
        src_lds_direct: v(&c.src_lds_direct),
        assembler_refuses: refuses,
    }
}

/// Every operand code (and range of codes) fits the source fields and no
/// two share a code.
fn check_codes(
    c: &OperandCodes,
    special: &SpecialCodes,
    sdwa: Option<&SdwaLayout>,
    src_fields: [BitField; 3],
    target: (&RawEncoding, &str),
    family: &[(&RawEncoding, &str)],
    errors: &mut Vec<SpecError>,
) {
    let max = src_fields.iter().map(|f| f.max()).min().unwrap_or(0);
    let at = |get: fn(&RawOperandCodes) -> Option<&Spanned<u32>>| {
        code(target, family, get).map_or((target.1, None), |(_, p, l)| (p, l))
    };
    type Get = fn(&RawOperandCodes) -> Option<&Spanned<u32>>;
    let mut ranges: Vec<(&str, u32, u32, Get)> = vec![
        ("s0..max_sgpr", 0, u32::from(c.max_sgpr), |c| {
            c.max_sgpr.as_ref()
        }),
        ("vcc_lo, vcc_hi", c.vcc_lo, c.vcc_lo + 1, |c| {
            c.vcc_lo.as_ref()
        }),
        ("m0", c.m0, c.m0, |c| c.m0.as_ref()),
        ("exec_lo, exec_hi", c.exec_lo, c.exec_lo + 1, |c| {
            c.exec_lo.as_ref()
        }),
        (
            "integers 0..=64, -1..=-16",
            c.int_zero,
            c.int_zero + 80,
            |c| c.int_zero.as_ref(),
        ),
        (
            "the nine float constants",
            c.float_first,
            c.float_first + 8,
            |c| c.float_first.as_ref(),
        ),
        ("literal", c.literal, c.literal, |c| c.literal.as_ref()),
        ("v0..v255", c.vgpr_first, c.vgpr_first + 255, |c| {
            c.vgpr_first.as_ref()
        }),
    ];
    if let Some(n) = c.sgpr_null {
        ranges.push(("sgpr_null", n, n, |c| c.sgpr_null.as_ref()));
    }
    if let Some(l) = c.literal64 {
        ranges.push(("literal64", l, l, |c| c.literal64.as_ref()));
    }
    // Special codes: reported at the operand_codes entry they collide with.
    let specials = [
        (
            "flat_scratch_lo, flat_scratch_hi",
            special.flat_scratch_lo,
            1,
        ),
        ("xnack_mask_lo, xnack_mask_hi", special.xnack_mask_lo, 1),
        ("ttmp0..ttmp15", special.ttmp0, 15),
        (
            "src_flat_scratch_base_lo, _hi",
            special.src_flat_scratch_base_lo,
            1,
        ),
        (
            "src_shared_base..src_pops_exiting_wave_id",
            special.src_shared_base,
            4,
        ),
        ("src_vccz, src_execz, src_scc", special.src_vccz, 2),
        ("src_lds_direct", special.src_lds_direct, 0),
    ];
    for (name, first, extra) in specials {
        if let Some(lo) = first {
            ranges.push((name, lo, lo + extra, |c| c.max_sgpr.as_ref()));
        }
    }
    for (i, &(name, lo, hi, get)) in ranges.iter().enumerate() {
        let (path, loc) = at(get);
        if hi > max {
            errors.push(SpecError::new(
                path,
                loc,
                format!("operand code(s) {name} ({lo}..={hi}) do not fit the 9-bit source fields (max {max})"),
            ));
        }
        if let Some((other, ..)) = ranges[..i]
            .iter()
            .find(|&&(_, olo, ohi, _)| lo <= ohi && olo <= hi)
        {
            errors.push(SpecError::new(
                path,
                loc,
                format!("operand code(s) {name} ({lo}..={hi}) overlap {other}"),
            ));
        }
    }
    if let Some(s) = sdwa {
        let picked = pick(target, family, |e| e.sdwa.as_ref());
        let (path, loc) = picked.map_or((target.1, None), |(r, p)| (p, loc_of(&r.value.src0_code)));
        if let Some((other, ..)) = ranges
            .iter()
            .find(|&&(_, lo, hi, _)| (lo..=hi).contains(&s.src0_code))
        {
            errors.push(SpecError::new(
                path,
                loc,
                format!(
                    "`sdwa.src0_code` {:#x} is already the operand code of {other}",
                    s.src0_code
                ),
            ));
        } else if s.src0_code > max {
            errors.push(SpecError::new(
                path,
                loc,
                format!(
                    "`sdwa.src0_code` {:#x} does not fit the source fields (max {max})",
                    s.src0_code
                ),
            ));
        }
    }
}
