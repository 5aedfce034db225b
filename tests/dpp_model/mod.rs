//! An independent DPP lane model, written from docs/semantics.md §11 (the
//! tables of lane rules, masks, BOUND_CTRL and FI per family) without
//! calling the crate's planner: which lane each destination lane reads,
//! whether it reads 0, or whether it is not written. The target facts
//! (which controls, FI, the inactive-source rule) are written here per
//! target name, not read from the crate's spec.

#![allow(dead_code)]

/// What one destination lane does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// Reads src0 of this lane.
    Lane(usize),
    /// src0 is 0 and the lane is written.
    Zero,
    /// Not written.
    Skip,
}

/// A DPP16 word or a DPP8 word, as raw fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// DPP16: the 9-bit control code, masks, BC, FI.
    D16 {
        ctrl: u16,
        row_mask: u8,
        bank_mask: u8,
        bc: bool,
        fi: bool,
    },
    /// DPP8: selectors and FI.
    D8 { sel: [u8; 8], fi: bool },
}

/// The inactive-source rule (FI = 0) of a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inactive {
    /// BOUND_CTRL decides (GFX9, GFX11+).
    BoundCtrl,
    /// Reads 0 and writes (GFX10).
    Zero,
    /// Reads the inactive lane.
    Read,
}

/// The per-target facts the lane model needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub gfx9: bool,
    pub newbcast: bool,
    pub has_fi: bool,
    pub inactive: Inactive,
    /// row_bcast lanes below the broadcast row read themselves.
    pub bcast_own: bool,
}

impl Facts {
    /// The defaults of docs/semantics.md §11 for a target name.
    pub fn of(target: &str) -> Facts {
        let gfx9 = matches!(target, "gfx908" | "gfx90a" | "gfx942" | "gfx950");
        let gfx10 = matches!(target, "gfx1010" | "gfx1030");
        Facts {
            gfx9,
            newbcast: matches!(target, "gfx90a" | "gfx942" | "gfx950"),
            has_fi: !gfx9,
            inactive: if gfx10 {
                Inactive::Zero
            } else {
                Inactive::BoundCtrl
            },
            bcast_own: false,
        }
    }

    /// Whether control `code` is legal for a 16/32-bit (`f64` false) or
    /// 64-bit operand.
    pub fn legal(&self, code: u16, f64: bool) -> bool {
        if f64 {
            return self.newbcast && (0x150..=0x15f).contains(&code);
        }
        match code {
            0x000..=0x0ff => true,
            0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f => true,
            0x140 | 0x141 => true,
            0x130 | 0x134 | 0x138 | 0x13c | 0x142 | 0x143 => self.gfx9,
            0x150..=0x15f => !self.gfx9 || self.newbcast,
            0x160..=0x16f => !self.gfx9,
            _ => false,
        }
    }

    /// Every legal control code.
    pub fn legal_codes(&self, f64: bool) -> Vec<u16> {
        (0..0x200).filter(|&c| self.legal(c, f64)).collect()
    }
}

/// The source lane of `n` under a legal DPP16 control (the table of
/// docs/semantics.md §11.3); `None` when out of range.
pub fn source16(code: u16, n: usize, bcast_own: bool) -> Option<usize> {
    let row = n / 16 * 16;
    let i = n % 16;
    let k = usize::from(code & 0xf);
    let n_i = n as i64;
    match code {
        0x000..=0x0ff => Some(n / 4 * 4 + (usize::from(code) >> (2 * (n % 4))) % 4),
        0x101..=0x10f => (i + k < 16).then_some(n + k),
        0x111..=0x11f => (i >= k).then(|| n - k),
        0x121..=0x12f => Some(row + (i + 16 - k) % 16),
        0x130 => (n < 63).then_some(n + 1),
        0x134 => Some((n + 1) % 64),
        0x138 => (n > 0).then(|| n - 1),
        0x13c => Some((n + 63) % 64),
        0x140 => Some(row + 15 - i),
        0x141 => Some(n / 8 * 8 + 7 - n % 8),
        0x142 => {
            if n >= 16 {
                Some((n_i / 16 * 16 - 1) as usize)
            } else if bcast_own {
                Some(n)
            } else {
                None
            }
        }
        0x143 => {
            if n >= 32 {
                Some(31)
            } else if bcast_own {
                Some(n)
            } else {
                None
            }
        }
        0x150..=0x15f => Some(row + k),
        0x160..=0x16f => Some(row + (i ^ k)),
        _ => Some(n),
    }
}

/// Every lane of a wave of `lanes` under EXEC `exec`.
pub fn plan(facts: &Facts, word: Word, lanes: usize, exec: u64) -> Vec<Src> {
    let active = |l: usize| l < lanes && exec >> l & 1 == 1;
    (0..lanes)
        .map(|n| {
            if !active(n) {
                return Src::Skip;
            }
            match word {
                Word::D8 { sel, fi } => {
                    let s = n / 8 * 8 + usize::from(sel[n % 8]);
                    if active(s) || fi {
                        Src::Lane(s)
                    } else {
                        Src::Zero
                    }
                }
                Word::D16 {
                    ctrl,
                    row_mask,
                    bank_mask,
                    bc,
                    fi,
                } => {
                    let row = n / 16;
                    let bank = (n / 4) % 4;
                    if row_mask >> row & 1 == 0 || bank_mask >> bank & 1 == 0 {
                        return Src::Skip;
                    }
                    let fi = fi && facts.has_fi;
                    match source16(ctrl, n, facts.bcast_own).filter(|&s| s < lanes) {
                        None => {
                            if bc {
                                Src::Zero
                            } else {
                                Src::Skip
                            }
                        }
                        Some(s) if active(s) || fi => Src::Lane(s),
                        Some(s) => match facts.inactive {
                            Inactive::Read => Src::Lane(s),
                            Inactive::Zero => Src::Zero,
                            Inactive::BoundCtrl if bc => Src::Zero,
                            Inactive::BoundCtrl => Src::Skip,
                        },
                    }
                }
            }
        })
        .collect()
}
