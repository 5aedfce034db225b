//! The DPP model: the controls of a DPP16 word and the selectors of a DPP8
//! word, as the machine code holds them (docs/semantics.md §11).
//!
//! DPP changes two things only: which lane's src0 bits a lane reads, and
//! which destination lanes are written. The encodings, which controls a
//! target has and the open points are in `isa-spec/` (`dpp:` and
//! `encoding: dpp16/dpp8`).

/// A DPP16 control: the 9-bit DPP_CTRL field, named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppControl {
    /// `quad_perm:[a,b,c,d]` (codes 0x000-0x0FF): lane `n` of each quad
    /// reads quad lane `sel[n & 3]`, each 0-3.
    QuadPerm([u8; 4]),
    /// `row_shl:k` (0x101-0x10F, k 1-15): lane n reads lane n + k of its
    /// row; out of range past the row's end.
    RowShl(u8),
    /// `row_shr:k` (0x111-0x11F, k 1-15): lane n reads lane n - k of its
    /// row; out of range before the row's start.
    RowShr(u8),
    /// `row_ror:k` (0x121-0x12F, k 1-15): rotate right within the row.
    RowRor(u8),
    /// `wave_shl:1` (0x130, GFX9): lane n reads lane n + 1 of the wave.
    WaveShl,
    /// `wave_rol:1` (0x134, GFX9): lane n reads lane (n + 1) mod 64.
    WaveRol,
    /// `wave_shr:1` (0x138, GFX9): lane n reads lane n - 1 of the wave.
    WaveShr,
    /// `wave_ror:1` (0x13C, GFX9): lane n reads lane (n - 1) mod 64.
    WaveRor,
    /// `row_mirror` (0x140): lane i of a row reads lane 15 - i.
    RowMirror,
    /// `row_half_mirror` (0x141): lane i of a half-row reads lane 7 - i.
    RowHalfMirror,
    /// `row_bcast:15` (0x142, GFX9): lane 15 of each row feeds the next
    /// row.
    RowBcast15,
    /// `row_bcast:31` (0x143, GFX9): lane 31 feeds rows 2 and 3.
    RowBcast31,
    /// Code 0x150 + k (k 0-15): every lane of a row reads lane k of its
    /// row. LLVM spells it `row_newbcast:k` on targets with
    /// [`DppControlKind::RowNewbcast`] and `row_share:k` on targets with
    /// [`DppControlKind::RowShare`]; the lane rule is the same.
    RowShare(u8),
    /// `row_xmask:k` (0x160-0x16F, GFX10+): lane i of a row reads lane
    /// i ^ k.
    RowXmask(u8),
    /// A code no target gives a meaning (0x100, 0x110, 0x120, 0x131-0x133,
    /// 0x135-0x137, 0x139-0x13B, 0x13D-0x13F, 0x144-0x14F, 0x170-0x1FF).
    /// It decodes, as LLVM decodes it; executing it follows the target's
    /// `dpp.reserved_ctrl` switch.
    Reserved(u16),
}

impl DppControl {
    /// The 9-bit DPP_CTRL code.
    pub fn code(self) -> u16 {
        match self {
            DppControl::QuadPerm(s) => s
                .iter()
                .enumerate()
                .map(|(i, &v)| u16::from(v & 3) << (2 * i))
                .sum(),
            DppControl::RowShl(k) => 0x100 | u16::from(k & 15),
            DppControl::RowShr(k) => 0x110 | u16::from(k & 15),
            DppControl::RowRor(k) => 0x120 | u16::from(k & 15),
            DppControl::WaveShl => 0x130,
            DppControl::WaveRol => 0x134,
            DppControl::WaveShr => 0x138,
            DppControl::WaveRor => 0x13c,
            DppControl::RowMirror => 0x140,
            DppControl::RowHalfMirror => 0x141,
            DppControl::RowBcast15 => 0x142,
            DppControl::RowBcast31 => 0x143,
            DppControl::RowShare(k) => 0x150 | u16::from(k & 15),
            DppControl::RowXmask(k) => 0x160 | u16::from(k & 15),
            DppControl::Reserved(c) => c & 0x1ff,
        }
    }

    /// The control a 9-bit DPP_CTRL code names (bits above 8 are
    /// ignored). Every code names one: unassigned codes are
    /// [`DppControl::Reserved`].
    pub const fn from_code(code: u16) -> DppControl {
        let code = code & 0x1ff;
        let k = (code & 15) as u8;
        match code {
            0x000..=0x0ff => DppControl::QuadPerm([
                (code & 3) as u8,
                (code >> 2 & 3) as u8,
                (code >> 4 & 3) as u8,
                (code >> 6 & 3) as u8,
            ]),
            0x101..=0x10f => DppControl::RowShl(k),
            0x111..=0x11f => DppControl::RowShr(k),
            0x121..=0x12f => DppControl::RowRor(k),
            0x130 => DppControl::WaveShl,
            0x134 => DppControl::WaveRol,
            0x138 => DppControl::WaveShr,
            0x13c => DppControl::WaveRor,
            0x140 => DppControl::RowMirror,
            0x141 => DppControl::RowHalfMirror,
            0x142 => DppControl::RowBcast15,
            0x143 => DppControl::RowBcast31,
            0x150..=0x15f => DppControl::RowShare(k),
            0x160..=0x16f => DppControl::RowXmask(k),
            _ => DppControl::Reserved(code),
        }
    }

    /// The kinds a target must have for this control to be legal there
    /// (either one suffices): `row_share` codes are legal as
    /// `row_newbcast` or as `row_share`. `None` for reserved codes.
    pub const fn kinds(self) -> Option<(DppControlKind, Option<DppControlKind>)> {
        use DppControlKind as K;
        Some(match self {
            DppControl::QuadPerm(_) => (K::QuadPerm, None),
            DppControl::RowShl(_) => (K::RowShl, None),
            DppControl::RowShr(_) => (K::RowShr, None),
            DppControl::RowRor(_) => (K::RowRor, None),
            DppControl::WaveShl
            | DppControl::WaveRol
            | DppControl::WaveShr
            | DppControl::WaveRor => (K::WaveShift, None),
            DppControl::RowMirror => (K::RowMirror, None),
            DppControl::RowHalfMirror => (K::RowHalfMirror, None),
            DppControl::RowBcast15 | DppControl::RowBcast31 => (K::RowBcast, None),
            DppControl::RowShare(_) => (K::RowNewbcast, Some(K::RowShare)),
            DppControl::RowXmask(_) => (K::RowXmask, None),
            DppControl::Reserved(_) => return None,
        })
    }

    /// Whether `controls` (a target's set) makes this control legal.
    pub fn legal_in(self, controls: DppControls) -> bool {
        match self.kinds() {
            Some((a, b)) => controls.contains(a) || b.is_some_and(|b| controls.contains(b)),
            None => false,
        }
    }
}

/// The kinds of DPP16 control a target may have (`dpp.controls` in
/// `isa-spec/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppControlKind {
    /// `quad_perm`.
    QuadPerm,
    /// `row_shl`.
    RowShl,
    /// `row_shr`.
    RowShr,
    /// `row_ror`.
    RowRor,
    /// `wave_shl`, `wave_rol`, `wave_shr`, `wave_ror` (GFX9).
    WaveShift,
    /// `row_mirror`.
    RowMirror,
    /// `row_half_mirror`.
    RowHalfMirror,
    /// `row_bcast:15` and `row_bcast:31` (GFX9).
    RowBcast,
    /// Codes 0x150-0x15F spelled `row_newbcast:k`.
    RowNewbcast,
    /// Codes 0x150-0x15F spelled `row_share:k`.
    RowShare,
    /// `row_xmask:k`.
    RowXmask,
}

impl DppControlKind {
    /// Every kind, in code order.
    pub const ALL: [DppControlKind; 11] = [
        DppControlKind::QuadPerm,
        DppControlKind::RowShl,
        DppControlKind::RowShr,
        DppControlKind::RowRor,
        DppControlKind::WaveShift,
        DppControlKind::RowMirror,
        DppControlKind::RowHalfMirror,
        DppControlKind::RowBcast,
        DppControlKind::RowNewbcast,
        DppControlKind::RowShare,
        DppControlKind::RowXmask,
    ];

    /// The name in `isa-spec/` (`quad_perm`, `wave_shift`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DppControlKind::QuadPerm => "quad_perm",
            DppControlKind::RowShl => "row_shl",
            DppControlKind::RowShr => "row_shr",
            DppControlKind::RowRor => "row_ror",
            DppControlKind::WaveShift => "wave_shift",
            DppControlKind::RowMirror => "row_mirror",
            DppControlKind::RowHalfMirror => "row_half_mirror",
            DppControlKind::RowBcast => "row_bcast",
            DppControlKind::RowNewbcast => "row_newbcast",
            DppControlKind::RowShare => "row_share",
            DppControlKind::RowXmask => "row_xmask",
        }
    }

    const fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// For every 9-bit DPP_CTRL code, the bits of the kinds that make its
/// control legal ([`DppControl::kinds`]).
static CODE_KINDS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut code = 0;
    while code < 512 {
        t[code] = match DppControl::from_code(code as u16).kinds() {
            Some((a, Some(b))) => a.bit() | b.bit(),
            Some((a, None)) => a.bit(),
            None => 0,
        };
        code += 1;
    }
    t
};

/// A set of [`DppControlKind`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DppControls(u16);

impl DppControls {
    /// The empty set (no DPP16 control is legal).
    pub const NONE: DppControls = DppControls(0);

    /// The set of `kinds`.
    pub const fn of(kinds: &[DppControlKind]) -> DppControls {
        let mut bits = 0u16;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << (kinds[i] as u16);
            i += 1;
        }
        DppControls(bits)
    }

    /// Whether `kind` is in the set.
    pub fn contains(self, kind: DppControlKind) -> bool {
        self.0 & kind.bit() != 0
    }

    /// Whether the control of the 9-bit DPP_CTRL `code` is legal in the
    /// set: `DppControl::from_code(code).legal_in(self)`, from a table.
    pub fn allows_code(self, code: u16) -> bool {
        self.0 & CODE_KINDS[usize::from(code & 0x1ff)] != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in the set, in code order.
    pub fn iter(self) -> impl Iterator<Item = DppControlKind> {
        DppControlKind::ALL
            .into_iter()
            .filter(move |k| self.contains(*k))
    }
}

/// The DPP16 word's fields other than src0 (docs/semantics.md §11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dpp16 {
    /// DPP_CTRL: which lane each lane reads.
    pub ctrl: DppControl,
    /// ROW_MASK (4 bits): bit r enables the write of lanes 16r..16r+15.
    pub row_mask: u8,
    /// BANK_MASK (4 bits): bit b enables the write of lanes with
    /// `(lane >> 2) & 3 == b` in every row.
    pub bank_mask: u8,
    /// BOUND_CTRL (the BC bit): an out-of-range (or, per target, inactive)
    /// source reads 0 and the lane is written; clear: the lane is not
    /// written.
    pub bound_ctrl: bool,
    /// FI (GFX10+): fetch inactive source lanes' values.
    pub fi: bool,
    /// DPP bits 23:22 (src1 ABS, NEG) of an e32 VOP2 word: LDEXP's
    /// integer src1 has no modifiers and LLVM cannot write them, but it
    /// decodes and re-encodes them unchanged. Kept for the round trip;
    /// execution follows `dpp.reserved_bits`.
    pub src1_bits: u8,
    /// The DPP word's bits that no field of this instruction covers (bit
    /// 17; bit 18 where the target has no FI; bits 23:20 of an e64 DPP
    /// word), where the word holds them: LLVM's disassembler ignores them.
    /// Decoding keeps them so the word re-encodes to the same bytes; 0 when
    /// parsed or built. Decoding and execution follow `dpp.reserved_bits`.
    pub reserved: u32,
}

impl Dpp16 {
    /// `ctrl` with LLVM's defaults: row_mask and bank_mask 0xF, no
    /// bound_ctrl, no fi.
    pub fn new(ctrl: DppControl) -> Dpp16 {
        Dpp16 {
            ctrl,
            row_mask: 0xf,
            bank_mask: 0xf,
            bound_ctrl: false,
            fi: false,
            src1_bits: 0,
            reserved: 0,
        }
    }
}

/// The DPP part of an instruction: src0 names the VGPR read (in the DPP
/// word), and this says which lane of it each lane reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dpp {
    /// DPP16: a control with masks, BOUND_CTRL and FI.
    Dpp16(Dpp16),
    /// DPP8 (GFX10+): lane n of each group of 8 reads group lane
    /// `sel[n & 7]`; `fi` is the 0xEA marker (fetch inactive lanes).
    Dpp8 {
        /// The 8 selectors, each 0-7.
        sel: [u8; 8],
        /// FI: inactive source lanes give their value (else 0).
        fi: bool,
    },
}

/// What DPP made of one lane at execution (docs/semantics.md §11): where
/// its src0 came from, or why its destination was not written. Built by
/// the executor's lane plan; [`crate::explain::dpp_lanes`] returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppLane {
    /// src0 is the raw value of `lane`, an active lane (or the lane's own
    /// value under an identity control).
    Read {
        /// The source lane.
        lane: u8,
    },
    /// src0 is the raw value of `lane`, an inactive lane: fetched because
    /// FI is set, or because the target reads inactive lanes
    /// (`dpp.inactive_source: read`).
    ReadInactive {
        /// The inactive source lane.
        lane: u8,
    },
    /// src0 is 0 (then ABS/NEG and the operation) and the lane is written.
    Zero(DppZero),
    /// The lane is not written: its destination keeps every bit.
    NotWritten(DppSkip),
}

/// Why a written lane's src0 is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppZero {
    /// The source lane is out of range and BOUND_CTRL is set.
    OutOfRange,
    /// The source lane (in range) is inactive, with FI clear: BOUND_CTRL
    /// is set (`dpp.inactive_source: bound_ctrl`), the target reads 0
    /// (`dpp.inactive_source: zero`), or DPP8 without FI reads 0.
    Inactive {
        /// The inactive source lane.
        lane: u8,
    },
}

/// Why a lane is not written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppSkip {
    /// EXEC is 0 for the lane.
    Exec,
    /// ROW_MASK bit `lane >> 4` is 0.
    RowMask,
    /// BANK_MASK bit `(lane >> 2) & 3` is 0.
    BankMask,
    /// The source lane is out of range and BOUND_CTRL is clear.
    OutOfRange,
    /// The source lane is inactive, FI is clear and BOUND_CTRL is clear
    /// (`dpp.inactive_source: bound_ctrl`).
    Inactive {
        /// The inactive source lane.
        lane: u8,
    },
}

impl DppLane {
    /// Whether the lane's destination is written.
    pub fn written(self) -> bool {
        !matches!(self, DppLane::NotWritten(_))
    }
}

/// The lane plan of one DPP instruction in the form the executor's
/// write-back uses (built and applied in `exec::dpp`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// The source lane of every lane (its own lane when it reads none),
    /// or 64 for a written lane whose src0 is 0.
    pub(crate) src: [u8; 64],
    /// Written lanes whose src0 is 0.
    pub(crate) zero: u64,
    /// The lanes written: EXEC, masks and valid sources.
    pub(crate) write: u64,
    /// Zero-filled lanes that skip ABS/NEG (`dpp.zero_fill:
    /// positive_zero` with a source modifier): they run under
    /// the policy without source modifiers.
    pub(crate) plain: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table behind `allows_code` says what `legal_in` says, for every
    /// code and every set of kinds.
    #[test]
    fn allows_code_is_legal_in() {
        for bits in 0u16..1 << DppControlKind::ALL.len() {
            let set = DppControls(bits);
            for code in 0..0x200u16 {
                assert_eq!(
                    set.allows_code(code),
                    DppControl::from_code(code).legal_in(set),
                    "code {code:#05x} in {set:?}"
                );
            }
        }
    }
}
