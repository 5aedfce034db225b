//! Wave state: VGPRs per lane, SGPRs, VCC, M0, EXEC and MODE.

use crate::error::ExecError;
use crate::kernels::Mode;
use crate::target::{Target, WaveSize};

/// Architectural VGPRs per lane.
pub const NUM_VGPRS: usize = 256;
/// Addressable SGPRs s0..s105.
pub const NUM_SGPRS: usize = 106;
/// Lanes stored per register (the widest wave).
pub(crate) const MAX_LANES: usize = 64;

/// One wave's registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wave {
    size: WaveSize,
    /// Register-major: `vgprs[r * MAX_LANES + lane]`.
    vgprs: Vec<u32>,
    sgprs: [u32; NUM_SGPRS],
    vcc: u64,
    m0: u32,
    exec: u64,
    mode: Mode,
}

impl Wave {
    /// A wave of `size` lanes with every register 0, every lane active and MODE 0.
    pub fn new(size: WaveSize) -> Wave {
        Wave {
            size,
            vgprs: vec![0; NUM_VGPRS * MAX_LANES],
            sgprs: [0; NUM_SGPRS],
            vcc: 0,
            m0: 0,
            exec: size.exec_mask(),
            mode: Mode(0),
        }
    }

    /// A wave of `target`'s default size.
    pub fn for_target(target: Target) -> Wave {
        Wave::new(target.spec().default_wave)
    }

    /// A wave of `size` lanes on `target`, refused when the target lacks it.
    pub fn for_target_with_size(target: Target, size: WaveSize) -> Result<Wave, ExecError> {
        if !target.spec().supports_wave(size) {
            return Err(ExecError::WaveSizeNotOnTarget {
                target: target.name(),
                lanes: size.lanes(),
            });
        }
        Ok(Wave::new(size))
    }

    /// The wave size.
    pub fn size(&self) -> WaveSize {
        self.size
    }

    /// Number of lanes.
    pub fn lanes(&self) -> usize {
        self.size.lanes()
    }

    /// The MODE register.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Set the MODE register.
    pub fn set_mode(&mut self, mode: u32) {
        self.mode = Mode(mode);
    }

    /// EXEC (only the wave's lanes' bits).
    pub fn exec(&self) -> u64 {
        self.exec
    }

    /// Set EXEC; bits beyond the wave size are dropped.
    pub fn set_exec(&mut self, exec: u64) {
        self.exec = exec & self.size.exec_mask();
    }

    /// Whether `lane` is active.
    pub fn lane_active(&self, lane: usize) -> bool {
        lane < self.lanes() && self.exec >> lane & 1 != 0
    }

    /// VCC (64 bits; wave32 uses the low half).
    pub fn vcc(&self) -> u64 {
        self.vcc
    }

    /// Set VCC.
    pub fn set_vcc(&mut self, vcc: u64) {
        self.vcc = vcc;
    }

    /// M0.
    pub fn m0(&self) -> u32 {
        self.m0
    }

    /// Set M0.
    pub fn set_m0(&mut self, m0: u32) {
        self.m0 = m0;
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
        Ok(index * MAX_LANES + lane)
    }

    /// VGPR `index` of `lane`.
    pub fn vgpr(&self, index: usize, lane: usize) -> Result<u32, ExecError> {
        let i = self.check_vgpr(index, lane)?;
        Ok(self.vgprs[i])
    }

    /// Set VGPR `index` of `lane`.
    pub fn set_vgpr(&mut self, index: usize, lane: usize, value: u32) -> Result<(), ExecError> {
        let i = self.check_vgpr(index, lane)?;
        self.vgprs[i] = value;
        Ok(())
    }

    /// Set VGPR `index` to `value` in every lane.
    pub fn set_vgpr_all(&mut self, index: usize, value: u32) -> Result<(), ExecError> {
        for lane in 0..self.lanes() {
            self.set_vgpr(index, lane, value)?;
        }
        Ok(())
    }

    /// The pair `index`, `index + 1` of `lane` as one 64-bit value (low dword in `index`).
    pub fn vgpr64(&self, index: usize, lane: usize) -> Result<u64, ExecError> {
        let lo = self.vgpr(index, lane)?;
        let hi = self.vgpr(index + 1, lane)?;
        Ok(u64::from(hi) << 32 | u64::from(lo))
    }

    /// Set the pair `index`, `index + 1` of `lane`.
    pub fn set_vgpr64(&mut self, index: usize, lane: usize, value: u64) -> Result<(), ExecError> {
        self.check_vgpr(index + 1, lane)?;
        self.set_vgpr(index, lane, value as u32)?;
        self.set_vgpr(index + 1, lane, (value >> 32) as u32)
    }

    /// Set the pair `index`, `index + 1` in every lane.
    pub fn set_vgpr64_all(&mut self, index: usize, value: u64) -> Result<(), ExecError> {
        for lane in 0..self.lanes() {
            self.set_vgpr64(index, lane, value)?;
        }
        Ok(())
    }

    /// SGPR `index`.
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

    /// Set SGPR `index`.
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
        Ok(())
    }

    /// All lanes of VGPR `index` (the wave's lanes only).
    pub(crate) fn vgpr_lanes(&self, index: usize) -> Option<&[u32]> {
        let start = index.checked_mul(MAX_LANES)?;
        self.vgprs.get(start..start + self.lanes())
    }

    /// All lanes of VGPR `index`, mutable.
    pub(crate) fn vgpr_lanes_mut(&mut self, index: usize) -> Option<&mut [u32]> {
        let lanes = self.lanes();
        let start = index.checked_mul(MAX_LANES)?;
        self.vgprs.get_mut(start..start + lanes)
    }

    /// Registers `first..first + count` of the wave's lanes, mutable, beside
    /// shared access to every other register (`None` when out of range).
    #[inline]
    pub(crate) fn vgpr_split(&mut self, first: usize, count: usize) -> Option<VgprSplit<'_>> {
        let lanes = self.lanes();
        let start = first.checked_mul(MAX_LANES)?;
        let len = count.checked_mul(MAX_LANES)?;
        if start.checked_add(len)? > self.vgprs.len() {
            return None;
        }
        let (before, rest) = self.vgprs.split_at_mut(start);
        let (dst, after) = rest.split_at_mut(len);
        Some(VgprSplit {
            before,
            dst,
            after,
            first,
            count,
            lanes,
        })
    }
}

/// Disjoint borrows of the register file: some registers to write, every
/// other one to read ([`Wave::vgpr_split`]).
pub(crate) struct VgprSplit<'a> {
    before: &'a [u32],
    dst: &'a mut [u32],
    after: &'a [u32],
    first: usize,
    count: usize,
    lanes: usize,
}

impl<'a> VgprSplit<'a> {
    /// The lanes of register `index`, unless it is out of range or one of
    /// the registers to write.
    #[inline]
    pub(crate) fn src(&self, index: usize) -> Option<&'a [u32]> {
        let (regs, offset) = if index < self.first {
            (self.before, index)
        } else {
            (self.after, index.checked_sub(self.first + self.count)?)
        };
        regs.get(offset.checked_mul(MAX_LANES)?..)?
            .get(..self.lanes)
    }

    /// The registers to write: the lanes of the first and of the second
    /// (empty when only one).
    #[inline]
    pub(crate) fn dst(self) -> (&'a mut [u32], &'a mut [u32]) {
        let lanes = self.lanes;
        let (lo, hi) = self.dst.split_at_mut(MAX_LANES.min(self.dst.len()));
        let (lo_len, hi_len) = (lo.len().min(lanes), hi.len().min(lanes));
        (&mut lo[..lo_len], &mut hi[..hi_len])
    }
}
