//! Every 9-bit src0 code of every e32 and e64 word of the arithmetic
//! instructions (ADD/SUB/SUBREV/MUL/FMA/FMAC/FMAMK/FMAAK) on every target
//! (`tests/fixtures/arith_src0/<target>.txt`, LLVM's disassembly written
//! by `cargo xtask fixtures`): decoding then disassembling gives exactly
//! llvm-mc-22's text, and what LLVM refuses the decoder refuses. Deliberate
//! differences are listed in [`deviation`], each checked to still differ.

use amdgpu_valu::asm::{assemble, decode, disassemble};
use amdgpu_valu::Target;

fn parse_bytes(s: &str) -> Vec<u8> {
    s.trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|b| {
            u8::from_str_radix(b.trim().trim_start_matches("0x"), 16)
                .unwrap_or_else(|e| panic!("bad byte {b}: {e}"))
        })
        .collect()
}

/// Where this crate knowingly differs from LLVM's disassembler.
fn deviation(llvm: &str, ours: &str) -> Option<&'static str> {
    // As tests/src0_sweep.rs: LLVM prints an odd scalar pair code as the
    // even pair below it, and flags misaligned VGPR pairs itself; the
    // decoder refuses both (the text would assemble to other bytes).
    if ours == "<invalid>" && (llvm.contains("s[") || llvm.contains("ttmp[")) {
        return Some("odd code of a 64-bit scalar pair");
    }
    // FMAMK/FMAAK with a scalar src0 on a target whose constant bus takes
    // one read (gfx942, gfx950): LLVM's disassembler prints it, its
    // assembler refuses the text (the K reads the bus too).
    let mk = llvm.starts_with("v_fmamk") || llvm.starts_with("v_fmaak");
    let src0 = llvm.split(", ").nth(1).unwrap_or("");
    let vgpr = src0
        .strip_prefix('v')
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit() || c == '['));
    if ours == "<invalid>" && mk && !vgpr {
        return Some("FMAMK/FMAAK scalar src0 beside K on a one-read constant bus");
    }
    if llvm.contains("/*Invalid register") || llvm.contains("v[255:256]") {
        return Some("misaligned or out-of-range VGPR pair");
    }
    None
}

#[test]
fn every_src0_code_of_the_arithmetic_words_decodes_as_llvm_disassembles_it() {
    let mut failures = Vec::new();
    let (mut total, mut same, mut dev) = (0, 0, 0);
    for target in Target::ALL {
        let path = format!(
            "{}/tests/fixtures/arith_src0/{}.txt",
            env!("CARGO_MANIFEST_DIR"),
            target.name()
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for l in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let Some((b, llvm)) = l.split_once('\t') else {
                panic!("{path}: malformed line `{l}`");
            };
            total += 1;
            let bytes = parse_bytes(b);
            let ours = match decode(target, &bytes) {
                Ok((instr, len)) if len == bytes.len() => disassemble(target, &instr),
                Ok(_) => "<invalid>".to_string(),
                Err(_) => "<invalid>".to_string(),
            };
            let llvm = if llvm == "<llvm-crash>" {
                "<invalid>"
            } else {
                llvm
            };
            if let Some(why) = deviation(llvm, &ours) {
                dev += 1;
                if ours == llvm {
                    failures.push(format!(
                        "{target}: {b}: listed as a deviation ({why}) but matches LLVM"
                    ));
                }
                continue;
            }
            if ours != llvm {
                failures.push(format!("{target}: {b}: LLVM `{llvm}`, we `{ours}`"));
                continue;
            }
            same += 1;
            // What we print re-assembles to the bytes decoded.
            if ours != "<invalid>" {
                match assemble(target, &ours) {
                    Ok(again) if again == bytes => {}
                    Ok(again) => failures.push(format!(
                        "{target}: {b}: `{ours}` re-assembles to {again:02x?}"
                    )),
                    // LLVM's assembler refuses some names its disassembler
                    // prints (null on GFX9, src_lds_direct, ...), and a
                    // 16-bit literal dword with a high half.
                    Err(_) => {}
                }
            }
        }
    }
    eprintln!("{total} words: {same} as LLVM, {dev} known deviations");
    if !failures.is_empty() {
        for f in failures.iter().take(20000) {
            eprintln!("{f}");
        }
        panic!("{} of {total} words differ from LLVM", failures.len());
    }
}
