//! DPP16 and DPP8 (docs/semantics.md §11) in machine code and
//! text: the DPP dword after a VOP1, VOP2 (e32 `_dpp`) or VOP3
//! (`_e64_dpp`) word whose src0 holds a DPP marker, its canonical
//! spelling, and the DPP modifiers of a line.
//!
//! The field positions, markers and each target's controls come from
//! `isa-spec/` ([`super::tables::Dpp16Layout`], [`crate::target::DppSpec`]).

use super::encode::e32_vgpr;
use super::lex::{fail, Cursor, Num, Res};
use super::tables::TargetEncoding;
use super::{EncodeError, Slot};
use crate::dpp::{Dpp, Dpp16, DppControl, DppControlKind, DppControls};
use crate::instr::{Encoding, Instruction, Operand};
use crate::target::{BoundCtrlZero, TargetSpec};

/// Put the DPP marker in src0 of the base words (`words[0]` for e32,
/// `words[1]` for VOP3) and append the DPP dword.
pub(super) fn encode_dpp(
    te: &TargetEncoding,
    instr: &Instruction,
    dpp: Dpp,
    words: &mut Vec<u32>,
) -> Result<(), EncodeError> {
    let fam = te.family;
    let t0 = instr.opcode.info().src0();
    let Operand::Vgpr { index, part } = instr.src0 else {
        return Err(EncodeError {
            slot: Slot::Src0,
            reason: "invalid operand for instruction".into(),
        });
    };
    let e32 = instr.encoding != Encoding::Vop3;
    let vgpr = if e32 {
        e32_vgpr(te, index, part, t0, Slot::Src0)?
    } else {
        u32::from(index)
    };
    let (marker, word) = match dpp {
        Dpp::Dpp16(d) => {
            let l = fam.dpp16;
            let mut w = l.src0.put(0, vgpr);
            w = l.ctrl.put(w, u32::from(d.ctrl.code()));
            if let Some(fi) = l.fi {
                w = fi.put(w, u32::from(d.fi));
            }
            w = l.bound_ctrl.put(w, u32::from(d.bound_ctrl));
            if e32 {
                w = l.src0_neg.put(w, u32::from(instr.src0_mods.neg));
                w = l.src0_abs.put(w, u32::from(instr.src0_mods.abs));
                // A float src1 carries ABS/NEG here; LDEXP's integer src1
                // keeps the bits it was decoded with (`src1_bits`).
                let m1 = instr.src1_mods;
                w = l
                    .src1_neg
                    .put(w, u32::from(d.src1_bits & 1 | u8::from(m1.neg)));
                w = l
                    .src1_abs
                    .put(w, u32::from(d.src1_bits >> 1 & 1 | u8::from(m1.abs)));
            }
            w = l.bank_mask.put(w, u32::from(d.bank_mask));
            w = l.row_mask.put(w, u32::from(d.row_mask));
            // Validation keeps `reserved` inside the word's reserved bits.
            w |= d.reserved & reserved_bits(te, instr.encoding);
            (l.marker, w)
        }
        Dpp::Dpp8 { sel, fi } => {
            let Some(l) = fam.dpp8 else {
                return Err(EncodeError {
                    slot: Slot::Modifier,
                    reason: "not a valid operand.".into(),
                });
            };
            let sels = sel
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, &s)| acc | u32::from(s & 7) << (3 * i));
            let w = l.sel.put(l.src0.put(0, vgpr), sels);
            (if fi { l.marker_fi } else { l.marker }, w)
        }
    };
    let (at, field) = if e32 {
        let field = if instr.encoding == Encoding::Vop1 {
            fam.vop1.src0
        } else {
            fam.vop2.src0
        };
        (0, field)
    } else {
        (1, fam.vop3.src[0])
    };
    if let Some(w) = words.get_mut(at) {
        *w = field.put(*w, marker);
    }
    words.push(word);
    Ok(())
}

/// The src1 ABS/NEG bits of a DPP16 word (a VOP2 word's float src1).
pub(super) fn src1_mod_bits(te: &TargetEncoding) -> u32 {
    let l = te.family.dpp16;
    l.src1_neg.mask() << l.src1_neg.lo | l.src1_abs.mask() << l.src1_abs.lo
}

/// What a src0 code announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Marker {
    /// A DPP16 dword follows.
    Dpp16,
    /// A DPP8 dword follows; `fi` for the FI marker.
    Dpp8 {
        /// FI (fetch inactive lanes).
        fi: bool,
    },
}

/// The DPP marker `code` (a 9-bit src0 code) is, if any.
pub(super) fn marker(te: &TargetEncoding, code: u32) -> Option<Marker> {
    let fam = te.family;
    if code == fam.dpp16.marker {
        return Some(Marker::Dpp16);
    }
    let l = fam.dpp8?;
    if code == l.marker {
        Some(Marker::Dpp8 { fi: false })
    } else if code == l.marker_fi {
        Some(Marker::Dpp8 { fi: true })
    } else {
        None
    }
}

/// The bits of a DPP16 word that no field of a `base`-encoded instruction
/// covers, from the family's layout: bit 17, bit 18 without FI (GFX9), and
/// on an e64 word the ABS/NEG bits 23:20 (the VOP3 word carries them).
/// llvm-mc 22 decodes a word with them set as if they were 0 (on every
/// target, e32 and e64); `dpp.reserved_bits` decides what we do. The src1
/// ABS/NEG bits of an e32 word are not among them: a VOP2 word keeps them
/// in [`Dpp16::src1_bits`], and on a VOP1 word LLVM refuses them.
pub(crate) fn reserved_bits(te: &TargetEncoding, base: Encoding) -> u32 {
    let l = te.family.dpp16;
    let mask = |f: super::tables::Field| f.mask() << f.lo;
    let mut used = [l.src0, l.ctrl, l.bound_ctrl, l.bank_mask, l.row_mask]
        .iter()
        .fold(0, |m, f| m | mask(*f));
    used |= l.fi.map_or(0, mask);
    if base != Encoding::Vop3 {
        used |= mask(l.src0_neg) | mask(l.src0_abs) | mask(l.src1_neg) | mask(l.src1_abs);
    }
    !used
}

/// A decoded DPP dword: the DPP part, the src0 VGPR field, src0 ABS/NEG
/// (DPP16 e32 only), and the bits set that `dpp.reserved_bits` rules on
/// (the reserved bits and an e32 VOP2 word's src1 ABS/NEG).
pub(super) struct Decoded {
    pub(super) dpp: Dpp,
    pub(super) src0: u32,
    pub(super) abs: bool,
    pub(super) neg: bool,
    pub(super) reserved: u32,
}

/// Decode the DPP dword `w` announced by `m` in a `base`-encoded
/// instruction. `Err` holds the offending bits: src1 ABS/NEG on a VOP1
/// word (LLVM: "invalid instruction encoding").
pub(super) fn decode_word(
    te: &TargetEncoding,
    w: u32,
    m: Marker,
    base: Encoding,
) -> Result<Decoded, u32> {
    let fam = te.family;
    match m {
        Marker::Dpp16 => {
            let l = fam.dpp16;
            let src1_bits = l.src1_neg.get(w) | l.src1_abs.get(w) << 1;
            if base == Encoding::Vop1 && src1_bits != 0 {
                let mask = |f: super::tables::Field| f.mask() << f.lo;
                return Err(w & (mask(l.src1_neg) | mask(l.src1_abs)));
            }
            let e32 = base != Encoding::Vop3;
            let reserved = w & reserved_bits(te, base);
            let src1_mods = if base == Encoding::Vop2 {
                w & (l.src1_neg.mask() << l.src1_neg.lo | l.src1_abs.mask() << l.src1_abs.lo)
            } else {
                0
            };
            Ok(Decoded {
                dpp: Dpp::Dpp16(Dpp16 {
                    ctrl: DppControl::from_code(l.ctrl.get(w) as u16),
                    row_mask: l.row_mask.get(w) as u8,
                    bank_mask: l.bank_mask.get(w) as u8,
                    bound_ctrl: l.bound_ctrl.get(w) != 0,
                    fi: l.fi.is_some_and(|f| f.get(w) != 0),
                    src1_bits: if base == Encoding::Vop2 {
                        src1_bits as u8
                    } else {
                        0
                    },
                    reserved,
                }),
                src0: l.src0.get(w),
                abs: e32 && l.src0_abs.get(w) != 0,
                neg: e32 && l.src0_neg.get(w) != 0,
                reserved: reserved | src1_mods,
            })
        }
        Marker::Dpp8 { fi } => {
            let Some(l) = fam.dpp8 else {
                return Err(w);
            };
            let sels = l.sel.get(w);
            let mut sel = [0u8; 8];
            for (i, s) in sel.iter_mut().enumerate() {
                *s = (sels >> (3 * i) & 7) as u8;
            }
            Ok(Decoded {
                dpp: Dpp::Dpp8 { sel, fi },
                src0: l.src0.get(w),
                abs: false,
                neg: false,
                reserved: 0,
            })
        }
    }
}

/// The mnemonic suffix of a DPP instruction in `base` encoding.
pub(super) fn suffix(base: Encoding) -> &'static str {
    if base == Encoding::Vop3 {
        "_e64_dpp"
    } else {
        "_dpp"
    }
}

/// What LLVM prints for a control the target lacks, by the kind it
/// belongs to (LLVM's printer; some carry a leading space).
fn missing_comment(kind: Option<DppControlKind>) -> &'static str {
    use DppControlKind as K;
    match kind {
        Some(K::WaveShift) => "",
        Some(K::RowBcast) => "/* row_bcast is not supported starting from GFX10 */",
        Some(K::RowNewbcast | K::RowShare) => {
            " /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */"
        }
        Some(K::RowXmask) => "/* row_xmask is not supported on ASICs earlier than GFX10 */",
        _ => "/* Invalid dpp_ctrl value */",
    }
}

/// The text of a DPP16 control on a target with `controls`.
fn control_text(ctrl: DppControl, controls: DppControls) -> String {
    let name = |kind: DppControlKind| kind.name().to_string();
    match ctrl {
        _ if !ctrl.legal_in(controls) => match ctrl {
            DppControl::WaveShl => "/* wave_shl is not supported starting from GFX10 */".into(),
            DppControl::WaveRol => "/* wave_rol is not supported starting from GFX10 */".into(),
            DppControl::WaveShr => "/* wave_shr is not supported starting from GFX10 */".into(),
            DppControl::WaveRor => "/* wave_ror is not supported starting from GFX10 */".into(),
            other => missing_comment(other.kinds().map(|k| k.0)).into(),
        },
        DppControl::QuadPerm(s) => format!("quad_perm:[{},{},{},{}]", s[0], s[1], s[2], s[3]),
        DppControl::RowShl(k) => format!("row_shl:{k}"),
        DppControl::RowShr(k) => format!("row_shr:{k}"),
        DppControl::RowRor(k) => format!("row_ror:{k}"),
        DppControl::WaveShl => "wave_shl:1".into(),
        DppControl::WaveRol => "wave_rol:1".into(),
        DppControl::WaveShr => "wave_shr:1".into(),
        DppControl::WaveRor => "wave_ror:1".into(),
        DppControl::RowMirror => name(DppControlKind::RowMirror),
        DppControl::RowHalfMirror => name(DppControlKind::RowHalfMirror),
        DppControl::RowBcast15 => "row_bcast:15".into(),
        DppControl::RowBcast31 => "row_bcast:31".into(),
        DppControl::RowShare(k) => {
            let kind = if controls.contains(DppControlKind::RowNewbcast) {
                DppControlKind::RowNewbcast
            } else {
                DppControlKind::RowShare
            };
            format!("{}:{k}", kind.name())
        }
        DppControl::RowXmask(k) => format!("row_xmask:{k}"),
        DppControl::Reserved(_) => missing_comment(None).into(),
    }
}

/// Append the DPP modifiers of `instr` in LLVM's canonical spelling.
pub(super) fn print(spec: &TargetSpec, instr: &Instruction, dpp: Dpp, out: &mut String) {
    match dpp {
        Dpp::Dpp8 { sel, fi } => {
            let list: Vec<String> = sel.iter().map(u8::to_string).collect();
            out.push_str(&format!(" dpp8:[{}]", list.join(",")));
            if fi {
                out.push_str(" fi:1");
            }
        }
        Dpp::Dpp16(d) => {
            let wide = instr.opcode.format().bits() == 64;
            let f64c = spec.dpp.f64_controls.value;
            let ctrl = if wide && !f64c.is_empty() && !d.ctrl.legal_in(f64c) {
                // LLVM names the one kind the target's 64-bit DPP takes.
                let kind = f64c.iter().next().map_or("", DppControlKind::name);
                format!(" /* DP ALU dpp only supports {kind} */")
            } else {
                control_text(d.ctrl, spec.dpp.controls.value)
            };
            out.push(' ');
            out.push_str(&ctrl);
            out.push_str(&format!(
                " row_mask:{:#x} bank_mask:{:#x}",
                d.row_mask, d.bank_mask
            ));
            if d.bound_ctrl {
                out.push_str(" bound_ctrl:1");
            }
            if d.fi {
                out.push_str(" fi:1");
            }
        }
    }
}

/// A DPP control as written: DPP16 with the kind its keyword names (which
/// decides whether the target takes it), or DPP8's selectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ctrl {
    /// A DPP16 control.
    Dpp16(DppControl),
    /// `dpp8:[..]`.
    Dpp8([u8; 8]),
}

/// The DPP modifiers of a line, each with the column of its keyword.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DppMods {
    pub(super) ctrl: Option<(usize, Ctrl)>,
    pub(super) row_mask: Option<(usize, u8)>,
    pub(super) bank_mask: Option<(usize, u8)>,
    pub(super) bound_ctrl: Option<(usize, bool)>,
    pub(super) fi: Option<(usize, i128)>,
    /// The target has a DPP form of the instruction: without one, LLVM
    /// parses no DPP modifier ("not a valid operand.").
    pub(super) has_forms: bool,
}

impl DppMods {
    /// The column of the first DPP modifier, if any was written.
    pub(super) fn first_col(&self) -> Option<usize> {
        [
            self.ctrl.map(|x| x.0),
            self.row_mask.map(|x| x.0),
            self.bank_mask.map(|x| x.0),
            self.bound_ctrl.map(|x| x.0),
            self.fi.map(|x| x.0),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The columns of the modifiers DPP8 does not take (masks,
    /// bound_ctrl), the first one.
    pub(super) fn dpp16_only_col(&self) -> Option<usize> {
        [
            self.row_mask.map(|x| x.0),
            self.bank_mask.map(|x| x.0),
            self.bound_ctrl.map(|x| x.0),
        ]
        .into_iter()
        .flatten()
        .min()
    }
}

/// The DPP modifier keywords and where each goes in LLVM's fixed order
/// (after op_sel, clamp and omod): the control, then row_mask, bank_mask,
/// bound_ctrl, fi.
pub(super) fn modifier_rank(key: &str) -> Option<u8> {
    Some(match key {
        "quad_perm" | "row_shl" | "row_shr" | "row_ror" | "wave_shl" | "wave_rol" | "wave_shr"
        | "wave_ror" | "row_mirror" | "row_half_mirror" | "row_bcast" | "row_newbcast"
        | "row_share" | "row_xmask" | "dpp8" => 7,
        "row_mask" => 8,
        "bank_mask" => 9,
        "bound_ctrl" => 10,
        "fi" => 11,
        _ => return None,
    })
}

/// The DPP keywords written without a value.
pub(super) fn takes_no_value(key: &str) -> bool {
    matches!(key, "row_mirror" | "row_half_mirror")
}

/// The kind a control keyword names.
fn keyword_kind(key: &str) -> Option<DppControlKind> {
    use DppControlKind as K;
    Some(match key {
        "quad_perm" => K::QuadPerm,
        "row_shl" => K::RowShl,
        "row_shr" => K::RowShr,
        "row_ror" => K::RowRor,
        "wave_shl" | "wave_rol" | "wave_shr" | "wave_ror" => K::WaveShift,
        "row_mirror" => K::RowMirror,
        "row_half_mirror" => K::RowHalfMirror,
        "row_bcast" => K::RowBcast,
        "row_newbcast" => K::RowNewbcast,
        "row_share" => K::RowShare,
        "row_xmask" => K::RowXmask,
        _ => return None,
    })
}

/// An integer value (an absolute expression such as `1+2`); a float
/// gives its F64 bits, as LLVM takes them for the masks.
fn value(c: &mut Cursor<'_>) -> Res<(usize, i128)> {
    c.ws();
    let col = c.col();
    Ok(match c.number()? {
        Num::Int(v) => (col, v),
        Num::Float(bits) => (col, i128::from(bits)),
    })
}

/// The `:` after a keyword at `col`; without it the keyword is no
/// operand LLVM knows.
fn colon(c: &mut Cursor<'_>, col: usize) -> Res<()> {
    if c.eat(b':') {
        Ok(())
    } else {
        fail(col, "invalid operand for instruction")
    }
}

/// `[v, v, ...]` of `n` values each below `2^bits`.
fn list(c: &mut Cursor<'_>, col: usize, n: usize, bits: u32) -> Res<Vec<u8>> {
    colon(c, col)?;
    if !c.eat(b'[') {
        return fail(c.col(), "expected an opening square bracket");
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        if i > 0 {
            c.ws();
            if !c.eat(b',') {
                return fail(c.col(), "expected a comma");
            }
        }
        let (col, v) = value(c)?;
        match u8::try_from(v) {
            Ok(v) if u32::from(v) < 1 << bits => out.push(v),
            _ => return fail(col, format!("expected a {bits}-bit value")),
        }
    }
    c.ws();
    if !c.eat(b']') {
        return fail(c.col(), "expected a closing square bracket");
    }
    Ok(out)
}

/// Parse the DPP modifier `key` (its keyword already read at `col`) into
/// `m`, as LLVM's parser does: a control the target lacks is "not a valid
/// operand." before its value is read; values are range-checked as LLVM
/// checks them (the masks are not: their low 4 bits are kept).
pub(super) fn modifier(
    spec: &TargetSpec,
    c: &mut Cursor<'_>,
    key: &str,
    col: usize,
    m: &mut DppMods,
) -> Res<()> {
    let has_dpp8 = spec.dpp.fi.value;
    if !m.has_forms {
        return fail(col, "not a valid operand.");
    }
    if let Some(kind) = keyword_kind(key) {
        if !spec.dpp.controls.value.contains(kind) {
            return fail(col, "not a valid operand.");
        }
        let ranged = |c: &mut Cursor<'_>, lo: i128, hi: i128| -> Res<u8> {
            colon(c, col)?;
            let (vcol, v) = value(c)?;
            if (lo..=hi).contains(&v) {
                Ok(v as u8)
            } else {
                fail(vcol, format!("invalid {key} value"))
            }
        };
        let ctrl = match key {
            "quad_perm" => {
                let s = list(c, col, 4, 2)?;
                DppControl::QuadPerm([s[0], s[1], s[2], s[3]])
            }
            "row_shl" => DppControl::RowShl(ranged(c, 1, 15)?),
            "row_shr" => DppControl::RowShr(ranged(c, 1, 15)?),
            "row_ror" => DppControl::RowRor(ranged(c, 1, 15)?),
            "wave_shl" | "wave_rol" | "wave_shr" | "wave_ror" => {
                ranged(c, 1, 1)?;
                match key {
                    "wave_shl" => DppControl::WaveShl,
                    "wave_rol" => DppControl::WaveRol,
                    "wave_shr" => DppControl::WaveShr,
                    _ => DppControl::WaveRor,
                }
            }
            "row_mirror" => DppControl::RowMirror,
            "row_half_mirror" => DppControl::RowHalfMirror,
            "row_bcast" => {
                colon(c, col)?;
                let (vcol, v) = value(c)?;
                match v {
                    15 => DppControl::RowBcast15,
                    31 => DppControl::RowBcast31,
                    _ => return fail(vcol, "invalid row_bcast value"),
                }
            }
            "row_xmask" => DppControl::RowXmask(ranged(c, 0, 15)?),
            _ => DppControl::RowShare(ranged(c, 0, 15)?),
        };
        m.ctrl = Some((col, Ctrl::Dpp16(ctrl)));
        return Ok(());
    }
    // The masks, bound_ctrl and fi follow the control.
    if key != "dpp8" && m.ctrl.is_none() {
        return fail(col, "not a valid operand.");
    }
    match key {
        "dpp8" if has_dpp8 => {
            let s = list(c, col, 8, 3)?;
            let mut sel = [0u8; 8];
            sel.copy_from_slice(&s);
            m.ctrl = Some((col, Ctrl::Dpp8(sel)));
        }
        "row_mask" | "bank_mask" => {
            colon(c, col)?;
            let (_, v) = value(c)?;
            let v = Some((col, (v & 15) as u8));
            if key == "row_mask" {
                m.row_mask = v;
            } else {
                m.bank_mask = v;
            }
        }
        "bound_ctrl" => {
            colon(c, col)?;
            let (_, v) = value(c)?;
            let bc = match v {
                0 => spec.dpp.bound_ctrl_zero.value == BoundCtrlZero::SetsBc,
                1 => true,
                _ => return fail(col, "invalid bound_ctrl value."),
            };
            m.bound_ctrl = Some((col, bc));
        }
        "fi" if has_dpp8 => {
            colon(c, col)?;
            let (_, v) = value(c)?;
            m.fi = Some((col, v));
        }
        _ => return fail(col, "not a valid operand."),
    }
    Ok(())
}

/// The instruction's DPP part from the modifiers written (the control
/// present). `Err` holds the column and message of a modifier DPP8 does
/// not take.
pub(super) fn dpp_of(m: &DppMods) -> Option<Result<Dpp, (usize, &'static str)>> {
    let (_, ctrl) = m.ctrl?;
    let fi = m.fi.map_or(0, |x| x.1);
    Some(match ctrl {
        Ctrl::Dpp8(sel) => match m.dpp16_only_col() {
            Some(col) => Err((col, "invalid operand for instruction")),
            None => Ok(Dpp::Dpp8 { sel, fi: fi != 0 }),
        },
        Ctrl::Dpp16(ctrl) => Ok(Dpp::Dpp16(Dpp16 {
            ctrl,
            row_mask: m.row_mask.map_or(15, |x| x.1),
            bank_mask: m.bank_mask.map_or(15, |x| x.1),
            bound_ctrl: m.bound_ctrl.is_some_and(|x| x.1),
            fi: fi & 1 != 0,
            src1_bits: 0,
            reserved: 0,
        })),
    })
}
