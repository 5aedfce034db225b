//! Shared harness for behaviour tests: run one instruction on a poisoned
//! wave and check every bit the way a capture row is checked.

#![allow(dead_code)]

use amdgpu_valu::{execute, Instruction, Target, Wave};

/// A register assignment: `V(n, value)` a 32-bit VGPR in every lane,
/// `Pair(n, value)` a 64-bit VGPR pair (low dword in vN).
#[derive(Clone, Copy, Debug)]
pub enum Reg {
    V(usize, u32),
    Pair(usize, u64),
}

/// The lane left inactive in every check.
pub const INACTIVE_LANE: usize = 5;

/// Poison for registers not named in the inputs: distinct per register so a
/// stray write is visible.
pub fn poison(reg: usize) -> u32 {
    0x5eed_0000 ^ (reg as u32).wrapping_mul(0x9e37_79b9)
}

fn set(wave: &mut Wave, regs: &[Reg]) {
    for r in regs {
        match *r {
            Reg::V(n, v) => wave.set_vgpr_all(n, v).expect("input register in range"),
            Reg::Pair(n, v) => wave.set_vgpr64_all(n, v).expect("input pair in range"),
        }
    }
}

/// Run `instr` on `target` with `mode`, every lane but [`INACTIVE_LANE`]
/// active, and check that active lanes hold `expected`, and that the
/// inactive lane and every other register (VGPRs 0..16) are unchanged.
pub fn check(target: &str, mode: u32, instr: Instruction, inputs: &[Reg], expected: &[Reg]) {
    let target: Target = target.parse().expect("known target");
    let mut wave = Wave::for_target(target);
    for r in 0..16 {
        wave.set_vgpr_all(r, poison(r)).expect("in range");
    }
    set(&mut wave, inputs);
    wave.set_mode(mode);
    wave.set_exec(wave.size().exec_mask() & !(1 << INACTIVE_LANE));
    let before = wave.clone();
    execute(target, &mut wave, &instr).unwrap_or_else(|e| panic!("{target} {instr:?}: {e}"));

    let mut want = before.clone();
    for lane in 0..wave.lanes() {
        if lane == INACTIVE_LANE {
            continue;
        }
        for r in expected {
            match *r {
                Reg::V(n, v) => want.set_vgpr(n, lane, v).expect("in range"),
                Reg::Pair(n, v) => want.set_vgpr64(n, lane, v).expect("in range"),
            }
        }
    }
    for r in 0..16 {
        for lane in 0..wave.lanes() {
            let (got, exp) = (
                wave.vgpr(r, lane).expect("in range"),
                want.vgpr(r, lane).expect("in range"),
            );
            assert_eq!(
                got, exp,
                "{target} mode {mode:#010x} {instr:?}: v{r} lane {lane}: expected {exp:#010x}, got {got:#010x}"
            );
        }
    }
}
