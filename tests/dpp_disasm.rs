//! DPP machine code that no assembler line produces (reserved and other
//! families' controls, the bits LLVM drops, src1 bits, DPP8 markers, a
//! VOP3 src0 of 0x1FA), against `tests/fixtures/dpp_disasm/<target>.txt`
//! (LLVM's disassembly and re-encoding, written by `cargo xtask
//! fixtures`): decoding gives LLVM's text, encoding the decoded
//! instruction gives LLVM's re-encoding, and what LLVM refuses is refused.
//!
//! One deliberate difference: LLVM re-encodes the reserved DPP bits it
//! ignores (bit 17, bit 18 without FI, e64 bits 23:20) as 0; we keep them
//! (`Dpp16::reserved`), so the decoded instruction encodes to the input
//! bytes, and without them to LLVM's re-encoding.

use amdgpu_valu::asm::{decode, disassemble, encode, DecodeError};
use amdgpu_valu::{Dpp, Dpp16, Instruction, Opcode, Target};

/// `i` without the reserved DPP bits it keeps: what LLVM re-encodes.
fn without_reserved(i: Instruction) -> Instruction {
    Instruction {
        dpp: match i.dpp {
            Some(Dpp::Dpp16(d)) => Some(Dpp::Dpp16(Dpp16 { reserved: 0, ..d })),
            other => other,
        },
        ..i
    }
}

fn parse_bytes(s: &str) -> Vec<u8> {
    s.split(',')
        .filter(|b| !b.trim().is_empty())
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).expect("hex byte"))
        .collect()
}

/// Where this crate knowingly differs from llvm-mc-22 here.
fn known_deviation(target: Target, text: &str) -> Option<&'static str> {
    if text.contains("/*Invalid register") {
        return Some(
            "LLVM decodes a register its assembler refuses and prints a comment: we refuse",
        );
    }
    if text.starts_with("v_ldexp_f32_e64_dpp")
        && text.split(", ").nth(2).is_some_and(|s| !s.starts_with('v'))
        && !target.spec().dpp.e64_src1_scalar.value
    {
        return Some("LLVM decodes an e64 DPP scalar or constant src1 its assembler refuses on this target (no dpp-src1-sgpr): we refuse");
    }
    if text.starts_with("v_fract_f64_dpp")
        && !text.contains("/* DP ALU")
        && target == Target::Gfx908
    {
        return Some("gfx908 has no F64 DPP (LLVM's assembler refuses it; its disassembler decodes any control): we refuse it");
    }
    None
}

#[test]
fn dpp_words_decode_as_llvm_does() {
    let mut failures = Vec::new();
    let (mut same, mut refused, mut deviations, mut kept) = (0, 0, 0, 0);
    for target in Target::ALL {
        let path = format!(
            "{}/tests/fixtures/dpp_disasm/{}.txt",
            env!("CARGO_MANIFEST_DIR"),
            target.name()
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() >= 2, "{path}:{}: malformed", n + 1);
            let bytes = parse_bytes(f[0]);
            let llvm = f[1];
            let ours = decode(target, &bytes);
            // LLVM refuses, or decodes an instruction out of scope (another
            // opcode of the same word): we refuse.
            let modelled = Opcode::ALL.iter().any(|o| {
                llvm.strip_prefix(o.mnemonic())
                    .is_some_and(|rest| rest.starts_with(['_', ' ']))
            });
            if llvm == "<invalid>" || !modelled {
                match ours {
                    Err(_) => refused += 1,
                    Ok((i, _)) => failures.push(format!(
                        "{target}:{}: {}: LLVM `{llvm}`, we decode `{}`",
                        n + 1,
                        f[0],
                        disassemble(target, &i)
                    )),
                }
                continue;
            }
            if let Some(why) = known_deviation(target, llvm) {
                deviations += 1;
                if ours.is_ok() {
                    failures.push(format!(
                        "{target}:{}: listed as a deviation ({why}) but decodes",
                        n + 1
                    ));
                }
                continue;
            }
            let (instr, len) = match ours {
                Ok(x) => x,
                Err(e) => {
                    failures.push(format!(
                        "{target}:{}: {}: LLVM `{llvm}`, we: {e}",
                        n + 1,
                        f[0]
                    ));
                    continue;
                }
            };
            let dis = disassemble(target, &instr);
            if dis != llvm || len != bytes.len() {
                failures.push(format!(
                    "{target}:{}: {}: LLVM `{llvm}`, we `{dis}` ({len} bytes)",
                    n + 1,
                    f[0]
                ));
            }
            let want = parse_bytes(f.get(2).copied().unwrap_or(""));
            let plain = without_reserved(instr);
            if plain != instr {
                kept += 1;
                match encode(target, &instr) {
                    Ok(b) if b == bytes => {}
                    other => failures.push(format!(
                        "{target}:{}: `{llvm}` keeps reserved bits but re-encodes to {other:02x?}",
                        n + 1
                    )),
                }
            }
            match encode(target, &plain) {
                Ok(b) if b == want => same += 1,
                other => failures.push(format!(
                    "{target}:{}: `{llvm}` re-encodes to {other:02x?}, LLVM {want:02x?}",
                    n + 1
                )),
            }
            // The round trip: the re-encoding decodes to the same instruction.
            if let Ok(b) = encode(target, &instr) {
                if decode(target, &b).ok() != Some((instr, b.len())) {
                    failures.push(format!("{target}:{}: round trip of `{llvm}`", n + 1));
                }
            }
        }
    }
    eprintln!("{same} decoded as LLVM ({kept} keeping reserved bits LLVM re-encodes as 0), {refused} refused as LLVM, {deviations} known deviations");
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("{f}");
        }
        panic!("{} mismatches", failures.len());
    }
}

/// A DPP word cut short is an error at the DPP dword's byte offset.
#[test]
fn truncated_dpp_words_are_errors_with_offsets() {
    let e32 = [0xfa, 0x40, 0x00, 0x7e, 0x01, 0xe4];
    assert!(matches!(
        decode(Target::Gfx1100, &e32),
        Err(DecodeError::Truncated { offset: 4, .. })
    ));
    let e64 = [0x00, 0x00, 0x1c, 0xd7, 0xfa, 0x04, 0x02, 0x00, 0x01];
    assert!(matches!(
        decode(Target::Gfx1201, &e64),
        Err(DecodeError::Truncated { offset: 8, .. })
    ));
    let dpp8 = [0xe9, 0x40, 0x00, 0x7e];
    assert!(matches!(
        decode(Target::Gfx1030, &dpp8),
        Err(DecodeError::Truncated { offset: 4, .. })
    ));
}
