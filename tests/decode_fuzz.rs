//! Random machine code never makes the decoder panic, and whatever it
//! accepts disassembles to text that assembles back to the same bytes and
//! executes without a panic. Each test counts how many inputs reached each
//! stage (decoded, compared after the round trip, executed), prints the
//! counts (`-- --nocapture`) and asserts a minimum share for each, so a
//! generator that stops producing valid words fails.
//!
//! The default run feeds ~20k inputs; `cargo test --release -- --ignored`
//! runs over a million.

use amdgpu_valu::asm::{assemble, decode, disassemble};
use amdgpu_valu::{execute, Instruction, Operand, ScalarReg, Target, Wave};
use amdgpu_valu::{Dpp, Dpp16, Sdwa};

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
        // VOP3 with a FRACT/LDEXP or an arithmetic opcode of some family
        // (ADD/MUL/FMA in F16/F32/F64, FMAC; GFX9, GFX10, GFX11/12).
        4..=6 => {
            let ops = [
                0x188u32, 0x15b, 0x172, 0x133, 0x288, 0x284, 0x1df, 0x1a0, 0x1be, 0x13b, 0x362,
                0x168, 0x31c, 0x32b, 0x101, 0x105, 0x11f, 0x206, 0x1cb, 0x1cc, 0x280, 0x281, 0x103,
                0x108, 0x132, 0x12b, 0x136, 0x34b, 0x14b, 0x14c, 0x164, 0x165, 0x248, 0x213, 0x214,
                0x327, 0x328,
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
    [Some(i.src0), i.src1, i.src2]
        .into_iter()
        .flatten()
        .any(|o| matches!(o, Operand::Literal(_) | Operand::Literal64(_)))
}

/// `i` without the reserved DPP/SDWA bits it keeps (and the DPP src1
/// ABS/NEG bits of LDEXP's integer src1): what its text (which has no
/// syntax for them) assembles to, as LLVM re-encodes the word.
fn without_reserved(i: Instruction) -> Instruction {
    Instruction {
        dpp: match i.dpp {
            Some(Dpp::Dpp16(d)) => Some(Dpp::Dpp16(Dpp16 {
                reserved: 0,
                src1_bits: 0,
                ..d
            })),
            other => other,
        },
        sdwa: i.sdwa.map(|s| Sdwa { reserved: 0, ..s }),
        ..i
    }
}

/// Whether an instruction reads `null`, a GFX9 register half or a special
/// source: the operands whose names LLVM's assembler may refuse.
fn uses_special(i: &Instruction) -> bool {
    [Some(i.src0), i.src1, i.src2]
        .into_iter()
        .flatten()
        .any(|o| {
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

/// How far random machine code got.
#[derive(Debug, Default, Clone, Copy)]
struct Reached {
    inputs: usize,
    decoded: usize,
    /// Disassembled, assembled again, and the bytes compared with the
    /// input (or, where LLVM's text is no fixed point, the instruction).
    compared: usize,
    /// Executed on a fresh wave of the target without an error.
    executed: usize,
}

impl Reached {
    /// Run `instr` on a fresh wave of `target` (every register 0, every
    /// lane active); an error (a register beyond the file, say) is counted
    /// out, a panic fails the test.
    fn execute(&mut self, target: Target, instr: &Instruction) {
        let mut wave = Wave::for_target(target);
        self.executed += usize::from(execute(target, &mut wave, instr).is_ok());
    }

    /// Each stage saw at least `percent` of the inputs.
    fn assert_at_least(&self, what: &str, percent: [(&str, usize); 3]) {
        for (stage, p) in percent {
            let count = match stage {
                "decoded" => self.decoded,
                "compared" => self.compared,
                _ => self.executed,
            };
            assert!(
                count * 100 >= self.inputs * p,
                "{what}: {stage} {count} of {} inputs, below {p}%: {self:?}",
                self.inputs
            );
        }
    }
}

fn run(per_target: usize, seed: u64) -> Reached {
    let mut rng = Rng(seed);
    let mut reached = Reached::default();
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
            reached.inputs += 1;
            let Ok((instr, used)) = decode(target, &bytes) else {
                continue;
            };
            reached.decoded += 1;
            assert!(
                used <= bytes.len(),
                "{target}: length {used} beyond {} input bytes",
                bytes.len()
            );
            let text = disassemble(target, &instr);
            match assemble(target, &text) {
                Ok(b) if b == bytes[..used] => {}
                _ if non_canonical_literal(&instr) => {}
                // A DPP control that is reserved or not on the target:
                // printed as LLVM prints it, with a comment that its
                // assembler (and ours) cannot read back.
                _ if text.contains("/*") => {}
                // Reserved DPP/SDWA bits (LLVM ignores them) have no
                // syntax: the text assembles to the word without them.
                Ok(b) if decode(target, &b).ok() == Some((without_reserved(instr), used)) => {}
                // An operand LLVM's disassembler prints but its assembler
                // refuses on the target (`null` on GFX9, `src_vccz` on
                // GFX11, ...; isa-spec `special_operands.assembler_refuses`).
                Err(e) if e.reason.ends_with("on this GPU") && uses_special(&instr) => {}
                other => panic!(
                    "{target}: {:02x?} decodes to `{text}` which assembles to {other:?}",
                    &bytes[..used]
                ),
            }
            reached.compared += 1;
            reached.execute(target, &instr);
        }
    }
    reached
}

/// A VOP1, VOP2 or VOP3 word of a FRACT/LDEXP opcode whose src0 holds a
/// DPP marker (DPP16 0xFA, DPP8 0xE9/0xEA), then a random DPP dword (and
/// sometimes nothing: truncated).
fn dpp_bytes(rng: &mut Rng) -> Vec<u8> {
    let marker = [0xfau32, 0xe9, 0xea, 0x1fa][(rng.next() % 4) as usize];
    let w = rng.word();
    let mut words = match rng.next() % 3 {
        0 => {
            let ops = [0x48u32, 0x1b, 0x32, 0x5f, 0x20, 0x3e];
            let op = ops[(rng.next() % ops.len() as u64) as usize];
            vec![(0x3f << 25) | (w & 0x01fe_0000) | (op << 9) | marker]
        }
        1 => {
            let op = if rng.next().is_multiple_of(2) {
                0x33
            } else {
                0x3b
            };
            vec![(w & 0x01ff_fe00) | (op << 25) | marker]
        }
        _ => {
            let ops = [0x1dfu32, 0x1a0, 0x1be, 0x13b, 0x31c, 0x32b];
            let op = ops[(rng.next() % ops.len() as u64) as usize];
            let w0 = (0x35 << 26) | (op << 16) | (w & 0x7ff & !0x0600);
            let w1 = (rng.word() & 0xf803_fe00 & !0x0600_0000) | marker;
            vec![w0, w1]
        }
    };
    if !rng.next().is_multiple_of(16) {
        let dpp = match rng.next() % 3 {
            // Small src0, common controls, masks all set.
            0 => 0xff00_0000 | (rng.word() & 0x00ff_ff7f),
            _ => rng.word(),
        };
        words.push(dpp);
    }
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Random DPP machine code never makes the decoder panic; whatever decodes
/// re-encodes to bytes that decode to the same instruction, and its text
/// assembles to those bytes.
#[test]
fn random_dpp_words_never_panic() {
    let mut rng = Rng(0xd99d_d99d_1234_5678);
    let mut reached = Reached::default();
    for target in Target::ALL {
        for _ in 0..3_000 {
            let bytes = dpp_bytes(&mut rng);
            reached.inputs += 1;
            let Ok((instr, used)) = decode(target, &bytes) else {
                continue;
            };
            reached.decoded += 1;
            assert!(instr.dpp.is_some() || used <= 8, "{target}: {bytes:02x?}");
            let again = amdgpu_valu::asm::encode(target, &instr).unwrap_or_else(|e| {
                panic!("{target}: {bytes:02x?} decodes but does not encode: {e}")
            });
            assert_eq!(
                decode(target, &again).ok(),
                Some((instr, again.len())),
                "{target}: {bytes:02x?}"
            );
            let text = disassemble(target, &instr);
            // The comments LLVM prints for controls the target lacks do not
            // assemble, and LDEXP's DPP src1 bits have no syntax (LLVM's
            // text is no fixed point there either).
            let src1_bits = matches!(instr.dpp, Some(Dpp::Dpp16(d)) if d.src1_bits != 0);
            if !text.contains("/*") && !src1_bits {
                // The reserved bits have no syntax either: the text
                // assembles to the word without them.
                let plain = amdgpu_valu::asm::encode(target, &without_reserved(instr));
                match assemble(target, &text) {
                    Ok(b) => assert_eq!(Ok(b), plain, "{target}: `{text}`"),
                    // As in `run`: a source LLVM prints but refuses to
                    // assemble on this target.
                    Err(e) if e.reason.ends_with("on this GPU") && uses_special(&instr) => {}
                    Err(e) => panic!("{target}: `{text}` does not assemble: {e}"),
                }
            }
            // Re-encoded and decoded to the same instruction (above).
            reached.compared += 1;
            reached.execute(target, &instr);
        }
    }
    eprintln!("DPP decode fuzz: {reached:?}");
    reached.assert_at_least(
        "DPP words",
        [("decoded", 10), ("compared", 10), ("executed", 10)],
    );
}

#[test]
fn random_words_never_panic() {
    let reached = run(2_000, 0x9e37_79b9_7f4a_7c15);
    eprintln!("decode fuzz: {reached:?}");
    reached.assert_at_least(
        "random words",
        [("decoded", 10), ("compared", 10), ("executed", 10)],
    );
}

#[test]
#[ignore = "a million inputs: run with --release -- --ignored"]
fn a_million_random_words_never_panic() {
    let reached = run(110_000, 0x1234_5678_9abc_def1);
    eprintln!("decode fuzz: {reached:?}");
    reached.assert_at_least(
        "random words",
        [("decoded", 10), ("compared", 10), ("executed", 10)],
    );
}
