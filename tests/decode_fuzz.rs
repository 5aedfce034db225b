//! Random machine code never makes the decoder panic, and whatever it
//! accepts disassembles to text that assembles back to the same bytes.
//!
//! The default run feeds ~20k inputs; `cargo test --release -- --ignored`
//! runs over a million.

use amdgpu_valu::asm::{assemble, decode, disassemble};
use amdgpu_valu::{Instruction, Operand, ScalarReg, Target};

/// xorshift64*: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn word(&mut self) -> u32 {
        (self.next() >> 16) as u32
    }
}

/// A word biased towards the encodings in scope, so the decoder's deeper
/// paths (operands, modifiers, SDWA) are reached, not just "unknown".
fn first_word(rng: &mut Rng) -> u32 {
    let w = rng.word();
    match rng.next() % 8 {
        0 => w,
        // VOP1 with a FRACT opcode of some family.
        1 | 2 => {
            let ops = [0x48u32, 0x1b, 0x32, 0x5f, 0x20, 0x3e];
            let op = ops[(rng.next() % ops.len() as u64) as usize];
            (0x3f << 25) | (w & 0x01fe_01ff) | (op << 9)
        }
        // VOP2 LDEXP_F16.
        3 => {
            let op = if rng.next().is_multiple_of(2) {
                0x33
            } else {
                0x3b
            };
            (w & 0x01ff_ffff) | (op << 25)
        }
        // VOP3 with a FRACT/LDEXP opcode.
        4..=6 => {
            let ops = [
                0x188u32, 0x15b, 0x172, 0x133, 0x288, 0x284, 0x1df, 0x1a0, 0x1be, 0x13b, 0x362,
                0x168, 0x31c, 0x32b,
            ];
            let op = ops[(rng.next() % ops.len() as u64) as usize];
            let enc = if rng.next().is_multiple_of(2) {
                0x34
            } else {
                0x35
            };
            (enc << 26)
                | (op << 16)
                | (w & 0xffff
                    & if rng.next().is_multiple_of(2) {
                        0x87ff
                    } else {
                        0xffff
                    })
        }
        // SDWA marker.
        _ => (w & !0x1ff) | 0xf9,
    }
}

/// Whether an instruction carries a literal LLVM prints as something else
/// (a literal whose value is an inline constant, or a 64-bit literal):
/// those are the only inputs where disassembly is not a fixed point.
fn non_canonical_literal(i: &Instruction) -> bool {
    [Some(i.src0), i.src1]
        .into_iter()
        .flatten()
        .any(|o| matches!(o, Operand::Literal(_) | Operand::Literal64(_)))
}

/// Whether an instruction reads `null`, a GFX9 register half or a special
/// source: the operands whose names LLVM's assembler may refuse.
fn uses_special(i: &Instruction) -> bool {
    [Some(i.src0), i.src1].into_iter().flatten().any(|o| {
        matches!(
            o,
            Operand::Special(_)
                | Operand::Scalar {
                    reg: ScalarReg::Null
                        | ScalarReg::FlatScratchLo
                        | ScalarReg::FlatScratchHi
                        | ScalarReg::XnackMaskLo
                        | ScalarReg::XnackMaskHi,
                    ..
                }
        )
    })
}

fn run(per_target: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut decoded = 0;
    for target in Target::ALL {
        for n in 0..per_target {
            let len = 4 * (1 + n % 3);
            let mut bytes = Vec::with_capacity(len);
            bytes.extend_from_slice(&first_word(&mut rng).to_le_bytes());
            while bytes.len() < len {
                let w = match rng.next() % 4 {
                    // Second dwords with small operand codes are common.
                    0 => rng.word() & 0x0003_ffff,
                    _ => rng.word(),
                };
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            let Ok((instr, used)) = decode(target, &bytes) else {
                continue;
            };
            decoded += 1;
            assert!(
                used <= bytes.len(),
                "{target}: length {used} beyond {} input bytes",
                bytes.len()
            );
            let text = disassemble(target, &instr);
            match assemble(target, &text) {
                Ok(b) if b == bytes[..used] => {}
                _ if non_canonical_literal(&instr) => {}
                // An operand LLVM's disassembler prints but its assembler
                // refuses on the target (`null` on GFX9, `src_vccz` on
                // GFX11, ...; isa-spec `special_operands.assembler_refuses`).
                Err(e) if e.reason.ends_with("on this GPU") && uses_special(&instr) => {}
                other => panic!(
                    "{target}: {:02x?} decodes to `{text}` which assembles to {other:?}",
                    &bytes[..used]
                ),
            }
        }
    }
    decoded
}

#[test]
fn random_words_never_panic() {
    let decoded = run(2_000, 0x9e37_79b9_7f4a_7c15);
    eprintln!("20000 inputs, {decoded} decoded");
    assert!(
        decoded > 1_000,
        "the biased generator should reach real instructions ({decoded} decoded)"
    );
}

#[test]
#[ignore = "a million inputs: run with --release -- --ignored"]
fn a_million_random_words_never_panic() {
    let decoded = run(110_000, 0x1234_5678_9abc_def1);
    eprintln!("1100000 inputs, {decoded} decoded");
    assert!(decoded > 50_000);
}
