//! Every line of `tests/fixtures/encodings/<target>.txt` (LLVM's answers,
//! written by `cargo xtask fixtures`): the assembler gives LLVM's bytes or
//! rejects what LLVM rejects, decoding gives LLVM's disassembly text, and
//! text -> bytes -> text -> bytes is a fixed point.

use amdgpu_valu::asm::{assemble, decode, disassemble};
use amdgpu_valu::Target;

struct Line<'a> {
    n: usize,
    ok: bool,
    input: &'a str,
    /// ok: bytes; err: column.
    a: &'a str,
    /// ok: LLVM's asm text; err: message.
    b: &'a str,
    /// ok: LLVM's disassembly.
    dis: &'a str,
    /// ok: LLVM's warning, if any.
    warn: &'a str,
}

fn fixture(target: Target) -> String {
    let path = format!(
        "{}/tests/fixtures/encodings/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        target.name()
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn lines(text: &str) -> Vec<Line<'_>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 4, "line {}: malformed fixture line", i + 1);
            Line {
                n: i + 1,
                ok: f[0] == "ok",
                input: f[1],
                a: f[2],
                b: f[3],
                dis: f.get(4).copied().unwrap_or(""),
                warn: f.get(5).copied().unwrap_or(""),
            }
        })
        .collect()
}

fn parse_bytes(s: &str) -> Option<Vec<u8>> {
    s.split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:#04x}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Where this crate knowingly differs from llvm-mc-22 (each entry is
/// checked to still differ, so the list cannot go stale).
fn known_deviation(target: Target, l: &Line<'_>) -> Option<&'static str> {
    let gfx9 = matches!(
        target,
        Target::Gfx908 | Target::Gfx90a | Target::Gfx942 | Target::Gfx950
    );
    if gfx9 && l.ok && l.input.contains("lit(") && l.dis == "<llvm-crash>" {
        return Some("LLVM puts lit() in a GFX9 VOP3 (which has no literal) and drops the literal dword; its own disassembler then crashes");
    }
    if l.ok
        && l.b
            .contains("/*Invalid register, operand has 'VGPR_32' register class*/")
    {
        return Some("LLVM takes a register pair as the 32-bit src0 of a DPP form (the DP ALU DPP operand class) and encodes its first register");
    }
    if l.ok && l.a.contains('A') {
        return Some(
            "LLVM takes an unknown name as a symbol (relocation); symbols are not supported",
        );
    }
    None
}

#[test]
fn fixtures_match_llvm() {
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for target in Target::ALL {
        let text = fixture(target);
        let (mut ok, mut err, mut dev, mut same_col) = (0, 0, 0, 0);
        let (mut dpp_err, mut dpp_same_col) = (0, 0);
        for l in lines(&text) {
            let got = assemble(target, l.input);
            if let Some(why) = known_deviation(target, &l) {
                dev += 1;
                let differs = match (&got, l.ok) {
                    (Ok(b), true) => parse_bytes(l.a).as_deref() != Some(b.as_slice()),
                    (Err(_), true) => true,
                    (Ok(_), false) => true,
                    (Err(_), false) => false,
                };
                if !differs {
                    failures.push(format!(
                        "{target}:{}: `{}` is listed as a deviation ({why}) but matches LLVM",
                        l.n, l.input
                    ));
                }
                continue;
            }
            if !l.ok {
                err += 1;
                dpp_err += usize::from(is_dpp(l.input));
                if let Err(e) = &got {
                    let same = usize::from(l.a.parse::<usize>() == Ok(e.column));
                    same_col += same;
                    dpp_same_col += same * usize::from(is_dpp(l.input));
                }
                if let Ok(b) = got {
                    failures.push(format!(
                        "{target}:{}: `{}`: LLVM rejects ({}), we give {}",
                        l.n,
                        l.input,
                        l.b,
                        hex(&b)
                    ));
                }
                continue;
            }
            ok += 1;
            let Some(want) = parse_bytes(l.a) else {
                failures.push(format!("{target}:{}: bad bytes {}", l.n, l.a));
                continue;
            };
            match got {
                Ok(b) if b == want => {}
                Ok(b) => failures.push(format!(
                    "{target}:{}: `{}`: LLVM {} ; we {}",
                    l.n,
                    l.input,
                    l.a,
                    hex(&b)
                )),
                Err(e) => failures.push(format!(
                    "{target}:{}: `{}`: LLVM {} ({}); we reject: {e}",
                    l.n, l.input, l.a, l.b
                )),
            }
            if l.dis.starts_with('<') {
                continue;
            }
            match decode(target, &want) {
                Ok((instr, len)) => {
                    if len != want.len() {
                        failures.push(format!(
                            "{target}:{}: `{}`: decoded length {len}, want {}",
                            l.n,
                            l.input,
                            want.len()
                        ));
                    }
                    let text = disassemble(target, &instr);
                    if text != l.dis {
                        failures.push(format!(
                            "{target}:{}: `{}`: disassembly `{text}`, LLVM `{}`",
                            l.n, l.input, l.dis
                        ));
                    }
                    match assemble(target, &text) {
                        Ok(b) if b == want => {}
                        _ if !fixed_point_expected(&l) => {}
                        Ok(b) => failures.push(format!(
                            "{target}:{}: `{text}` reassembles to {} not {}",
                            l.n,
                            hex(&b),
                            l.a
                        )),
                        Err(e) => failures.push(format!(
                            "{target}:{}: `{text}` does not reassemble: {e}",
                            l.n
                        )),
                    }
                }
                Err(e) => failures.push(format!(
                    "{target}:{}: `{}`: decode {}: {e}",
                    l.n, l.input, l.a
                )),
            }
        }
        counts.push(format!(
            "{target}: {ok} accepted, {err} rejected ({same_col} at LLVM's column), {dev} known deviations; DPP lines: {dpp_err} rejected ({dpp_same_col} at LLVM's column)"
        ));
    }
    for c in &counts {
        eprintln!("{c}");
    }
    if !failures.is_empty() {
        for f in failures.iter().take(400) {
            eprintln!("{f}");
        }
        panic!("{} fixture mismatches", failures.len());
    }
}

/// Whether a line is about DPP (a DPP mnemonic or modifier).
fn is_dpp(input: &str) -> bool {
    [
        "_dpp",
        "quad_perm",
        "row_",
        "wave_",
        "dpp8",
        "bank_mask",
        "bound_ctrl",
        " fi:",
    ]
    .iter()
    .any(|k| input.contains(k))
}

/// LLVM's own disassembly is not always a fixed point: it prints a literal
/// whose value is an inline constant of an F64 operand as the constant (which
/// reassembles to the inline encoding), and after its "low 32 bits set to
/// zero" warning it prints ABS/NEG on the truncated F64 literal, which it
/// then refuses to assemble.
fn fixed_point_expected(l: &Line<'_>) -> bool {
    !(l.input.contains("lit(") || l.input.contains("lit64(") || !l.warn.is_empty())
}
