//! Wave state: VGPRs per lane, SGPRs, VCC, M0, EXEC and MODE: the registers
//! a VALU instruction reads and writes.

use crate::dpp::{Dpp, Plan};
use crate::error::ExecError;
use crate::instr::Special;
use crate::kernels::arith::ArithOp;
use crate::kernels::{Mode, Policy};
use crate::target::{Target, WaveSize};

/// VGPRs per lane a wave holds: v0..v255, 32 bits each per lane.
pub const NUM_VGPRS: usize = 256;
/// SGPRs a wave holds: s0..s105, the ones an instruction can name (VCC,
/// M0 and EXEC are separate registers of [`Wave`]).
pub const NUM_SGPRS: usize = 106;
/// Trap temporaries a wave holds: ttmp0..ttmp15, 32 bits each.
pub const NUM_TTMPS: usize = 16;
/// Lanes stored per register (the widest wave).
pub(crate) const MAX_LANES: usize = 64;

/// A set of register numbers (VGPRs v0..v255 or SGPRs s0..s105), one bit
/// each: the registers an instruction was given for writing
/// ([`Written`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegisterSet([u64; NUM_VGPRS / 64]);

impl RegisterSet {
    /// The set with no register.
    pub const EMPTY: RegisterSet = RegisterSet([0; NUM_VGPRS / 64]);

    /// Add register `index` (a number above 255 is ignored).
    #[inline(always)]
    pub fn insert(&mut self, index: usize) {
        if let Some(word) = self.0.get_mut(index / 64) {
            *word |= 1 << (index % 64);
        }
    }

    /// Add registers `first..first + count` (those above 255 are ignored).
    #[inline(always)]
    pub fn insert_range(&mut self, first: usize, count: usize) {
        // The executor's case, one register or a pair within one word, as
        // one OR.
        if count <= 2 && first % 64 + count <= 64 {
            if let Some(word) = self.0.get_mut(first / 64) {
                *word |= ((1 << count) - 1) << (first % 64);
            }
            return;
        }
        for index in first..first.saturating_add(count) {
            self.insert(index);
        }
    }

    /// Whether register `index` is in the set.
    pub fn contains(&self, index: usize) -> bool {
        self.0
            .get(index / 64)
            .is_some_and(|word| word >> (index % 64) & 1 != 0)
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }

    /// The registers in `self` or in `other`.
    #[must_use]
    pub fn union(self, other: RegisterSet) -> RegisterSet {
        let mut out = self;
        for (o, w) in out.0.iter_mut().zip(other.0) {
            *o |= w;
        }
        out
    }

    /// The registers in the set, in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(i, word)| {
            let mut rest = word;
            core::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(i * 64 + bit)
            })
        })
    }
}

/// The registers a wave handed out for writing since the last
/// [`Wave::take_written`]: after [`crate::execute`], the destination
/// register (both registers of an F64 pair), whichever lanes EXEC let it
/// write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// VGPRs handed out for writing (in any lane).
    pub vgprs: RegisterSet,
    /// SGPRs handed out for writing.
    pub sgprs: RegisterSet,
}

/// One wave's registers: 256 VGPRs per lane for 32 or 64 lanes, SGPRs
/// s0..s105, VCC, M0, EXEC (which lanes an instruction writes) and MODE
/// (rounding, subnormal and clamp/overflow controls; docs/semantics.md §2).
///
/// Besides the architectural state, a wave records which registers were
/// handed out for writing (by a setter or to the executor), so that a caller
/// can check exactly the registers an instruction wrote
/// ([`Wave::take_written`]) and [`Wave::reset`] costs only the registers
/// used. Equality compares the architectural state only.
///
/// ```
/// use amdgpu_valu::{execute, Encoding, Instruction, Opcode, Operand, Target, Wave, WaveSize};
///
/// // gfx1030 in wave64 with only lanes 0 and 2 active.
/// let mut wave = Wave::for_target_with_size(Target::Gfx1030, WaveSize::Wave64)?;
/// wave.set_mode(0xf0);
/// wave.set_exec(0b101);
/// wave.set_vgpr_all(1, 0x3fc0_0000)?; // v1 = 1.5
/// wave.set_vgpr_all(0, 0xdead_beef)?;
/// wave.take_written(); // forget the setup's writes
/// let fract = Instruction::unary(Opcode::FractF32, Encoding::Vop1, Operand::v(0), Operand::v(1));
/// execute(Target::Gfx1030, &mut wave, &fract)?;
/// assert_eq!(wave.vgpr(0, 0)?, 0x3f00_0000); // FRACT(1.5) = 0.5
/// assert_eq!(wave.vgpr(0, 1)?, 0xdead_beef); // an inactive lane keeps its bits
/// assert!(wave.take_written().vgprs.iter().eq([0])); // only v0 was written
/// // GFX9 targets run wave64 only.
/// assert!(Wave::for_target_with_size(Target::Gfx908, WaveSize::Wave32).is_err());
/// # Ok::<(), amdgpu_valu::ExecError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Wave {
    size: WaveSize,
    /// Register-major: `vgprs[r].0[lane]`, each register's lanes one
    /// 64-byte-aligned block, so the kernels' vector loads and stores of a
    /// register never straddle a cache line. An array, so its length is a
    /// constant to the checks of the executor's hit path.
    vgprs: Box<[Register; NUM_VGPRS]>,
    sgprs: [u32; NUM_SGPRS],
    vcc: u64,
    m0: u32,
    exec: u64,
    mode: Mode,
    /// TTMPs, SCC and the registers behind the `src_*` sources.
    extra: Extra,
    /// Registers handed out for writing since the last `take_written`.
    written: Written,
    /// VGPRs written before the last `take_written` and since the last
    /// reset: with `written`, every VGPR that may be non-zero.
    dirty: RegisterSet,
    /// The executor's note of the last instruction shape it checked on
    /// this wave (not architectural state: equality ignores it).
    pub(crate) checked: Option<CheckedShape>,
    /// The same for the last DPP instruction shape, with its lane plan.
    pub(crate) checked_dpp: Option<CheckedDpp>,
}

/// A DPP instruction shape the executor has checked: a [`CheckedShape`]
/// (whose key holds the DPP word) and EXEC, with the lane plan built for
/// them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CheckedDpp {
    /// The shape.
    pub(crate) shape: CheckedShape,
    /// EXEC when the plan was built.
    pub(crate) exec: u64,
    /// The lane plan.
    pub(crate) plan: Plan,
}

/// An instruction shape the executor has checked, and what it derived from
/// it: everything but the register numbers (checked on every call) of an
/// instruction that passed the quick check on a generated target, under
/// one MODE and wave size. A later instruction with the same key needs only
/// its register numbers checked, and runs with the noted policy and
/// operand layout.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CheckedShape {
    /// What the instruction, target and wave must match.
    pub(crate) key: ShapeKey,
    /// The policy built for the key.
    pub(crate) policy: Policy,
    /// What the key fixes about the operands.
    pub(crate) layout: Layout,
}

/// What a [`CheckedShape`]'s key fixes about its operands (all VGPRs):
/// the register numbers each may name, the halves its sources are read
/// from and its result is written to, and, for the arithmetic, the
/// operation and every source's ABS/NEG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The highest register number dst, src0, src1, src2 may name (a pair
    /// ends at v255; an e32 true16 half is below v128).
    pub(crate) last: [u16; 4],
    /// The bits of each register number that must be clear (1: an aligned
    /// pair starts at an even register).
    pub(crate) align: [u16; 4],
    /// Right shift bringing each F16 source (LDEXP's exponent in slot 1;
    /// FMAC's accumulator in slot 2) to bits 15:0.
    pub(crate) src_shift: [u32; 3],
    /// The bits of the old destination word a 16-bit result keeps.
    pub(crate) dst_keep: u32,
    /// Left shift placing a 16-bit result in its half.
    pub(crate) dst_shift: u32,
    /// The arithmetic operation (`None` for FRACT and LDEXP).
    pub(crate) op: Option<ArithOp>,
    /// FMAC: src2 is the destination's own words.
    pub(crate) accumulator: bool,
    /// Each source's ABS/NEG (the arithmetic; FRACT's are in the policy),
    /// packed when the shape is noted, so a repeat does not pack them
    /// again: as
    /// [`SourceModifiers::bits`](crate::kernels::arith::SourceModifiers::bits)
    /// packs them.
    pub(crate) mods: u8,
}

/// The key of a [`CheckedShape`]: the generated target (by the address of
/// its static spec), the wave size, MODE, and every field of the
/// instruction but the register numbers, with the kernel that noted it:
/// its opcode, encoding, modifiers, the kinds and halves of its operands
/// and the kernel packed in `bits` (`exec::noted::shape_bits`), its DPP
/// word whole. A shape with an SDWA word is never noted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShapeKey {
    /// The address of the target's generated spec.
    pub(crate) spec: usize,
    /// The wave size.
    pub(crate) size: WaveSize,
    /// MODE.
    pub(crate) mode: Mode,
    /// The instruction's fields but the register numbers and the DPP
    /// word, and the kernel the executor ran it with, packed.
    pub(crate) bits: [u64; 2],
    /// The DPP word.
    pub(crate) dpp: Option<Dpp>,
}

impl PartialEq for Wave {
    fn eq(&self, other: &Wave) -> bool {
        self.size == other.size
            && self.vgprs == other.vgprs
            && self.sgprs == other.sgprs
            && self.vcc == other.vcc
            && self.m0 == other.m0
            && self.exec == other.exec
            && self.mode == other.mode
            && self.extra == other.extra
    }
}

/// The wave state only the trap temporaries and the special sources read
/// (docs/semantics.md §3.4); all 0 in a new wave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Extra {
    ttmps: [u32; NUM_TTMPS],
    scc: bool,
    flat_scratch: u64,
    xnack_mask: u64,
    shared_base: u64,
    shared_limit: u64,
    private_base: u64,
    private_limit: u64,
    pops_exiting_wave_id: u32,
}

impl Eq for Wave {}

impl Wave {
    /// A wave of `size` lanes with every register 0, every lane active (EXEC
    /// all ones) and MODE 0 (round to nearest even, every subnormal
    /// flushed).
    pub fn new(size: WaveSize) -> Wave {
        Wave {
            size,
            vgprs: Box::new([Register([0; MAX_LANES]); NUM_VGPRS]),
            sgprs: [0; NUM_SGPRS],
            vcc: 0,
            m0: 0,
            exec: size.exec_mask(),
            mode: Mode(0),
            extra: Extra::default(),
            written: Written::default(),
            dirty: RegisterSet::EMPTY,
            checked: None,
            checked_dpp: None,
        }
    }

    /// Back to the state of [`Wave::new`]`(size)`, clearing only the VGPRs
    /// written since the last reset (so reusing one wave for many small
    /// instructions costs what they touch, not the whole register file).
    pub fn reset(&mut self, size: WaveSize) {
        for r in self.dirty.union(self.written.vgprs).iter() {
            if let Some(reg) = self.vgprs.get_mut(r) {
                reg.0.fill(0);
            }
        }
        self.size = size;
        self.sgprs = [0; NUM_SGPRS];
        self.vcc = 0;
        self.m0 = 0;
        self.exec = size.exec_mask();
        self.mode = Mode(0);
        self.extra = Extra::default();
        self.written = Written::default();
        self.dirty = RegisterSet::EMPTY;
        self.checked = None;
        self.checked_dpp = None;
    }

    /// The registers handed out for writing since the last call (or since
    /// the wave was made or reset), then forget them. Every write goes
    /// through a setter or a mutable borrow that records its register, so a
    /// register not in the set holds what it held before. The set is by
    /// register, every lane: which lanes changed is for the caller to check.
    pub fn take_written(&mut self) -> Written {
        let written = core::mem::take(&mut self.written);
        self.dirty = self.dirty.union(written.vgprs);
        written
    }

    /// A wave of `target`'s default size (wave64 on GFX9, wave32 on GFX10
    /// and later), as [`Wave::new`] makes it.
    pub fn for_target(target: Target) -> Wave {
        Wave::new(target.spec().default_wave)
    }

    /// A wave of `size` lanes on `target`; an error when the target cannot
    /// run that wave size (GFX9 has wave64 only).
    pub fn for_target_with_size(target: Target, size: WaveSize) -> Result<Wave, ExecError> {
        if !target.spec().supports_wave(size) {
            return Err(ExecError::WaveSizeNotOnTarget {
                target: target.name(),
                lanes: size.lanes(),
            });
        }
        Ok(Wave::new(size))
    }

    /// The wave size: 32 or 64 lanes.
    pub fn size(&self) -> WaveSize {
        self.size
    }

    /// The number of lanes: 32 or 64.
    pub fn lanes(&self) -> usize {
        self.size.lanes()
    }

    /// The MODE register: FP_ROUND, FP_DENORM, DX10_CLAMP, IEEE and
    /// FP16_OVFL, read by every float instruction.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Set the MODE register (as `s_setreg_b32 hwreg(HW_REG_MODE)` would);
    /// e.g. 0xf0 keeps every subnormal and rounds to nearest even.
    pub fn set_mode(&mut self, mode: u32) {
        self.mode = Mode(mode);
    }

    /// EXEC: bit L set means lane L is active and gets written (only the
    /// wave's lanes' bits can be set).
    pub fn exec(&self) -> u64 {
        self.exec
    }

    /// Set EXEC; bits beyond the wave size are dropped.
    pub fn set_exec(&mut self, exec: u64) {
        self.exec = exec & self.size.exec_mask();
    }

    /// Whether `lane` is active: its EXEC bit is set.
    pub fn lane_active(&self, lane: usize) -> bool {
        lane < self.lanes() && self.exec >> lane & 1 != 0
    }

    /// VCC, the vector condition code (64 bits; wave32 uses `vcc_lo`, bits
    /// 31:0); readable as a scalar source.
    pub fn vcc(&self) -> u64 {
        self.vcc
    }

    /// Set VCC (`vcc_lo` is bits 31:0, `vcc_hi` bits 63:32).
    pub fn set_vcc(&mut self, vcc: u64) {
        self.vcc = vcc;
    }

    /// M0, the 32-bit miscellaneous scalar register; readable as a source.
    pub fn m0(&self) -> u32 {
        self.m0
    }

    /// Set M0 (what instructions read as the `m0` scalar source).
    pub fn set_m0(&mut self, m0: u32) {
        self.m0 = m0;
    }

    /// The 32 bits of trap temporary `ttmpN` (N = `index`, 0..=15).
    pub fn ttmp(&self, index: usize) -> Result<u32, ExecError> {
        self.extra
            .ttmps
            .get(index)
            .copied()
            .ok_or(ExecError::RegisterOutOfRange {
                operand: "ttmp",
                kind: "ttmp",
                index,
                count: NUM_TTMPS,
            })
    }

    /// Set trap temporary `ttmpN` (N = `index`, 0..=15) to `value`.
    pub fn set_ttmp(&mut self, index: usize, value: u32) -> Result<(), ExecError> {
        let slot = self
            .extra
            .ttmps
            .get_mut(index)
            .ok_or(ExecError::RegisterOutOfRange {
                operand: "ttmp",
                kind: "ttmp",
                index,
                count: NUM_TTMPS,
            })?;
        *slot = value;
        Ok(())
    }

    /// SCC, the scalar condition code: 0 or 1 (read as `src_scc`).
    pub fn scc(&self) -> u32 {
        u32::from(self.extra.scc)
    }

    /// Set SCC to 0 or 1; any other value is an error.
    pub fn set_scc(&mut self, scc: u32) -> Result<(), ExecError> {
        match scc {
            0 | 1 => {
                self.extra.scc = scc == 1;
                Ok(())
            }
            _ => Err(ExecError::InvalidOperand {
                operand: "scc",
                reason: format!("SCC is one bit: {scc:#x} is neither 0 nor 1"),
            }),
        }
    }

    /// FLAT_SCRATCH, the 64-bit flat scratch base (GFX9's `flat_scratch`
    /// register pair and gfx1250's `src_flat_scratch_base_lo/hi`); 0 in a
    /// new wave.
    pub fn flat_scratch(&self) -> u64 {
        self.extra.flat_scratch
    }

    /// Set FLAT_SCRATCH (`flat_scratch_lo` is bits 31:0, `_hi` 63:32).
    pub fn set_flat_scratch(&mut self, value: u64) {
        self.extra.flat_scratch = value;
    }

    /// XNACK_MASK (GFX9's `xnack_mask` register pair), 64 bits; 0 in a
    /// new wave.
    pub fn xnack_mask(&self) -> u64 {
        self.extra.xnack_mask
    }

    /// Set XNACK_MASK (`xnack_mask_lo` is bits 31:0, `_hi` 63:32).
    pub fn set_xnack_mask(&mut self, value: u64) {
        self.extra.xnack_mask = value;
    }

    /// What the special source `src` reads, as 64 bits (a 32-bit operand
    /// takes bits 31:0; docs/semantics.md §3.4): SCC; 1 when VCC (its low
    /// 32 bits in wave32) or EXEC is zero for `src_vccz`/`src_execz`; the
    /// aperture, POPS and flat scratch state as set. `src_lds_direct` is an
    /// error: no LDS is modelled.
    pub fn special(&self, src: Special) -> Result<u64, ExecError> {
        let e = &self.extra;
        let lanes = self.size.exec_mask();
        Ok(match src {
            Special::Scc => u64::from(e.scc),
            Special::Vccz => u64::from(self.vcc & lanes == 0),
            Special::Execz => u64::from(self.exec & lanes == 0),
            Special::SharedBase => e.shared_base,
            Special::SharedLimit => e.shared_limit,
            Special::PrivateBase => e.private_base,
            Special::PrivateLimit => e.private_limit,
            Special::PopsExitingWaveId => u64::from(e.pops_exiting_wave_id),
            Special::FlatScratchBaseLo => e.flat_scratch & 0xffff_ffff,
            Special::FlatScratchBaseHi => e.flat_scratch >> 32,
            Special::LdsDirect => {
                return Err(ExecError::InvalidOperand {
                    operand: "src_lds_direct",
                    reason:
                        "not modelled: src_lds_direct reads LDS, which the emulator does not model"
                            .into(),
                })
            }
        })
    }

    /// Set the state behind the special source `src`: the four apertures
    /// (64 bits), `src_pops_exiting_wave_id` (32 bits), SCC (0 or 1) or a
    /// half of FLAT_SCRATCH (`src_flat_scratch_base_lo/hi`, 32 bits). An
    /// error for a value too wide, and for `src_vccz`/`src_execz` (set VCC
    /// or EXEC instead) and `src_lds_direct` (no LDS is modelled).
    pub fn set_special(&mut self, src: Special, value: u64) -> Result<(), ExecError> {
        let too_wide = |bits: u32| ExecError::InvalidOperand {
            operand: src.syntax(),
            reason: format!("{value:#x} does not fit in {bits} bits"),
        };
        let e = &mut self.extra;
        match src {
            Special::Scc => {
                let v = u32::try_from(value).map_err(|_| too_wide(1))?;
                return self.set_scc(v);
            }
            Special::SharedBase => e.shared_base = value,
            Special::SharedLimit => e.shared_limit = value,
            Special::PrivateBase => e.private_base = value,
            Special::PrivateLimit => e.private_limit = value,
            Special::PopsExitingWaveId => {
                e.pops_exiting_wave_id = u32::try_from(value).map_err(|_| too_wide(32))?;
            }
            Special::FlatScratchBaseLo => {
                let v = u32::try_from(value).map_err(|_| too_wide(32))?;
                e.flat_scratch = (e.flat_scratch & !0xffff_ffff) | u64::from(v);
            }
            Special::FlatScratchBaseHi => {
                let v = u32::try_from(value).map_err(|_| too_wide(32))?;
                e.flat_scratch = (e.flat_scratch & 0xffff_ffff) | u64::from(v) << 32;
            }
            Special::Vccz | Special::Execz | Special::LdsDirect => {
                return Err(ExecError::InvalidOperand {
                    operand: src.syntax(),
                    reason: match src {
                        Special::LdsDirect => "not modelled: no LDS".into(),
                        _ => "computed from VCC or EXEC: set those instead".into(),
                    },
                })
            }
        }
        Ok(())
    }

    fn check_vgpr(&self, index: usize, lane: usize) -> Result<usize, ExecError> {
        if index >= NUM_VGPRS {
            return Err(ExecError::RegisterOutOfRange {
                operand: "vgpr",
                kind: "vgpr",
                index,
                count: NUM_VGPRS,
            });
        }
        if lane >= self.lanes() {
            return Err(ExecError::LaneOutOfRange {
                lane,
                lanes: self.lanes(),
            });
        }
        Ok(lane)
    }

    /// The 32 bits of VGPR `vN` (N = `index`) in `lane`.
    pub fn vgpr(&self, index: usize, lane: usize) -> Result<u32, ExecError> {
        let lane = self.check_vgpr(index, lane)?;
        Ok(self.vgprs[index].0[lane])
    }

    /// Set VGPR `vN` (N = `index`) in `lane` to `value`.
    pub fn set_vgpr(&mut self, index: usize, lane: usize, value: u32) -> Result<(), ExecError> {
        let lane = self.check_vgpr(index, lane)?;
        self.written.vgprs.insert(index);
        self.vgprs[index].0[lane] = value;
        Ok(())
    }

    /// Set VGPR `vN` (N = `index`) to `value` in every lane of the wave.
    pub fn set_vgpr_all(&mut self, index: usize, value: u32) -> Result<(), ExecError> {
        for lane in 0..self.lanes() {
            self.set_vgpr(index, lane, value)?;
        }
        Ok(())
    }

    /// The register pair vN, vN+1 (N = `index`) in `lane` as one 64-bit
    /// value, as an F64 operand reads it: low dword in vN.
    pub fn vgpr64(&self, index: usize, lane: usize) -> Result<u64, ExecError> {
        let lo = self.vgpr(index, lane)?;
        let hi = self.vgpr(index + 1, lane)?;
        Ok(u64::from(hi) << 32 | u64::from(lo))
    }

    /// Set the pair vN, vN+1 (N = `index`) in `lane`: low dword in vN.
    pub fn set_vgpr64(&mut self, index: usize, lane: usize, value: u64) -> Result<(), ExecError> {
        self.check_vgpr(index + 1, lane)?;
        self.set_vgpr(index, lane, value as u32)?;
        self.set_vgpr(index + 1, lane, (value >> 32) as u32)
    }

    /// Set the pair vN, vN+1 (N = `index`) in every lane: low dword in vN.
    pub fn set_vgpr64_all(&mut self, index: usize, value: u64) -> Result<(), ExecError> {
        for lane in 0..self.lanes() {
            self.set_vgpr64(index, lane, value)?;
        }
        Ok(())
    }

    /// The 32 bits of SGPR `sN` (N = `index`).
    pub fn sgpr(&self, index: usize) -> Result<u32, ExecError> {
        self.sgprs
            .get(index)
            .copied()
            .ok_or(ExecError::RegisterOutOfRange {
                operand: "sgpr",
                kind: "sgpr",
                index,
                count: NUM_SGPRS,
            })
    }

    /// Set SGPR `sN` (N = `index`) to `value`.
    pub fn set_sgpr(&mut self, index: usize, value: u32) -> Result<(), ExecError> {
        let slot = self
            .sgprs
            .get_mut(index)
            .ok_or(ExecError::RegisterOutOfRange {
                operand: "sgpr",
                kind: "sgpr",
                index,
                count: NUM_SGPRS,
            })?;
        *slot = value;
        self.written.sgprs.insert(index);
        Ok(())
    }

    /// All lanes of VGPR `index` (the wave's lanes only).
    pub(crate) fn vgpr_lanes(&self, index: usize) -> Option<&[u32]> {
        let lanes = self.lanes();
        self.vgprs.get(index)?.0.get(..lanes)
    }

    /// A copy of every lane of VGPR `index` (all 64, whatever the wave
    /// size).
    #[inline(always)]
    pub(crate) fn vgpr_words(&self, index: usize) -> Option<[u32; MAX_LANES]> {
        Some(self.vgprs.get(index)?.0)
    }

    /// All lanes of VGPR `index`, mutable.
    pub(crate) fn vgpr_lanes_mut(&mut self, index: usize) -> Option<&mut [u32]> {
        let lanes = self.lanes();
        let regs = self.vgprs.get_mut(index)?.0.get_mut(..lanes)?;
        self.written.vgprs.insert(index);
        Some(regs)
    }

    /// Registers `first..first + count` of the wave's lanes, mutable, beside
    /// shared access to every other register (`None` when out of range).
    /// Always inlined: a split returned through memory stalls the loads
    /// of its parts (measured +10 ns per call).
    #[inline(always)]
    pub(crate) fn vgpr_split(&mut self, first: usize, count: usize) -> Option<VgprSplit<'_>> {
        Some(self.vgpr_split_noted(first, count)?.0)
    }

    /// [`Wave::vgpr_split`], beside the executor's notes (the last checked
    /// shape and DPP shape), borrowed apart from the registers.
    #[inline(always)]
    pub(crate) fn vgpr_split_noted(
        &mut self,
        first: usize,
        count: usize,
    ) -> Option<(VgprSplit<'_>, Option<&CheckedShape>, Option<&CheckedDpp>)> {
        let lanes = self.lanes();
        if first.checked_add(count)? > NUM_VGPRS {
            return None;
        }
        self.written.vgprs.insert_range(first, count);
        let (before, rest) = self.vgprs.split_at_mut(first);
        let (dst, after) = rest.split_at_mut(count);
        let split = VgprSplit {
            before,
            dst,
            after,
            first,
            count,
            lanes,
        };
        Some((split, self.checked.as_ref(), self.checked_dpp.as_ref()))
    }
}

/// One VGPR's lanes, aligned to a cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(64))]
struct Register([u32; MAX_LANES]);

/// Disjoint borrows of the register file: some registers to write, every
/// other one to read ([`Wave::vgpr_split`]).
pub(crate) struct VgprSplit<'a> {
    before: &'a [Register],
    dst: &'a mut [Register],
    after: &'a [Register],
    first: usize,
    count: usize,
    lanes: usize,
}

impl<'a> VgprSplit<'a> {
    /// The registers to read and, apart, the lanes of the registers to
    /// write ([`VgprSplit::dst`]): taken apart first, so reading sources
    /// does not keep the whole split in memory.
    #[inline(always)]
    pub(crate) fn parts(self) -> (VgprSources<'a>, &'a mut [u32], &'a mut [u32]) {
        let sources = VgprSources {
            before: self.before,
            after: self.after,
            first: self.first,
            count: self.count,
            lanes: self.lanes,
        };
        let (lo, hi) = self.dst();
        (sources, lo, hi)
    }

    /// The registers to write: the lanes of the first and of the second
    /// (empty when only one).
    #[inline(always)]
    pub(crate) fn dst(self) -> (&'a mut [u32], &'a mut [u32]) {
        let lanes = self.lanes;
        match self.dst {
            [] => (&mut [], &mut []),
            [lo] => (&mut lo.0[..lanes], &mut []),
            [lo, hi, ..] => (&mut lo.0[..lanes], &mut hi.0[..lanes]),
        }
    }
}

/// The registers of a [`VgprSplit`] to read.
#[derive(Clone, Copy)]
pub(crate) struct VgprSources<'a> {
    before: &'a [Register],
    after: &'a [Register],
    first: usize,
    count: usize,
    lanes: usize,
}

impl<'a> VgprSources<'a> {
    /// Registers `index..index + N`, unless any is out of range or one of
    /// the registers to write: one range check.
    #[inline(always)]
    fn regs<const N: usize>(&self, index: usize) -> Option<&'a [Register; N]> {
        let run = if index < self.first {
            self.before.get(index..index.checked_add(N)?)?
        } else {
            let i = index.checked_sub(self.first + self.count)?;
            self.after.get(i..i.checked_add(N)?)?
        };
        run.try_into().ok()
    }

    /// The lanes of register `index`, unless it is out of range or one of
    /// the registers to write.
    #[inline(always)]
    pub(crate) fn src(&self, index: usize) -> Option<&'a [u32]> {
        let [reg] = self.regs::<1>(index)?;
        reg.0.get(..self.lanes)
    }

    /// The lanes of registers `index` and `index + 1` (an F64 operand's
    /// low and high words), unless either is out of range or one of the
    /// registers to write: [`VgprSources::src`] of both, in one range
    /// check.
    #[inline(always)]
    pub(crate) fn src_pair(&self, index: usize) -> Option<(&'a [u32], &'a [u32])> {
        let [lo, hi] = self.regs::<2>(index)?;
        Some((lo.0.get(..self.lanes)?, hi.0.get(..self.lanes)?))
    }
}

#[cfg(test)]
mod tests {
    use super::RegisterSet;

    /// The registers of `set`, in order.
    fn members(set: &RegisterSet) -> Vec<usize> {
        (0..300).filter(|&i| set.contains(i)).collect()
    }

    /// A range is exactly its registers: one, a pair inside a 64-bit word
    /// (the one-OR case), a pair across words 0 and 1, a longer run, and
    /// ranges reaching past v255, whose registers above it are ignored.
    #[test]
    fn insert_range_adds_exactly_its_registers() {
        let cases: [(usize, usize, &[usize]); 7] = [
            (10, 1, &[10]),
            (10, 2, &[10, 11]),
            (62, 2, &[62, 63]),
            (63, 2, &[63, 64]),
            (127, 4, &[127, 128, 129, 130]),
            (255, 2, &[255]),
            (300, 2, &[]),
        ];
        for (first, count, want) in cases {
            let mut set = RegisterSet::EMPTY;
            set.insert_range(first, count);
            assert_eq!(members(&set), want, "insert_range({first}, {count})");
        }
        let mut set = RegisterSet::EMPTY;
        set.insert_range(usize::MAX, 2);
        assert!(set.is_empty(), "a range from usize::MAX adds nothing");
    }
}
