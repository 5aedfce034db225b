//! How a 16-bit operand's literal dword with a nonzero high half is printed:
//! the expected texts are llvm-mc-22's `--disassemble` output, recorded on
//! 2026-12-04 (`-mattr=+real-true16` on gfx1100). LLVM prints the low half
//! alone unless it is an inline constant, in which case it prints the whole
//! dword in `lit()`. Decoding keeps the whole dword, so encoding the decoded
//! instruction gives back the input bytes; the printed low half assembles
//! without the high half, and a printed `lit()` with a high half is refused
//! by the assembler, as by LLVM's.

use amdgpu_valu::asm::{assemble, decode, disassemble, encode};
use amdgpu_valu::Target;

/// `prefix` followed by the literal dword `lit`, little-endian.
fn word(prefix: &[u8], lit: u32) -> Vec<u8> {
    let mut b = prefix.to_vec();
    b.extend_from_slice(&lit.to_le_bytes());
    b
}

fn check(target: Target, prefix: &[u8], cases: &[(u32, &str)]) {
    for &(lit, llvm) in cases {
        let bytes = word(prefix, lit);
        let (instr, len) =
            decode(target, &bytes).unwrap_or_else(|e| panic!("{target} {lit:#x}: {e}"));
        assert_eq!(len, bytes.len(), "{target} {lit:#x}");
        assert_eq!(disassemble(target, &instr), llvm, "{target} {lit:#x}");
        assert_eq!(encode(target, &instr).expect("re-encode"), bytes);
        // The low half alone assembles as LLVM assembles it; a lit() with a
        // high half is refused by LLVM's assembler and by ours.
        let again = assemble(target, llvm);
        if llvm.contains("lit(") {
            assert!(again.is_err(), "{target} `{llvm}`: {again:?}");
        } else {
            assert_eq!(
                again.expect("LLVM's text assembles"),
                word(prefix, lit & 0xffff)
            );
        }
    }
}

#[test]
fn vop1_f16_source() {
    // v_fract_f16_e32 v1, <literal>
    let prefix = [0xff, 0xbe, 0x02, 0x7e];
    check(
        Target::Gfx1030,
        &prefix,
        &[
            (0x0001_af09, "v_fract_f16_e32 v1, 0xaf09"),
            (0x8000_af09, "v_fract_f16_e32 v1, 0xaf09"),
            (0xff0a_af09, "v_fract_f16_e32 v1, 0xaf09"),
            (0xffff_af09, "v_fract_f16_e32 v1, 0xaf09"),
            (0x1234_0041, "v_fract_f16_e32 v1, 0x41"),
            (0x0001_7c00, "v_fract_f16_e32 v1, 0x7c00"),
            (0x0001_3c00, "v_fract_f16_e32 v1, lit(0x13c00)"),
            (0x8000_0001, "v_fract_f16_e32 v1, lit(0x80000001)"),
            (0x1234_fff0, "v_fract_f16_e32 v1, lit(0x1234fff0)"),
            (0xff0a_0040, "v_fract_f16_e32 v1, lit(0xff0a0040)"),
            (0x1234_3118, "v_fract_f16_e32 v1, lit(0x12343118)"),
        ],
    );
    check(
        Target::Gfx1100,
        &prefix,
        &[
            (0x0001_af09, "v_fract_f16_e32 v1.l, 0xaf09"),
            (0xff0a_0041, "v_fract_f16_e32 v1.l, 0x41"),
            (0xff0a_3c00, "v_fract_f16_e32 v1.l, lit(0xff0a3c00)"),
            (0x0001_fff0, "v_fract_f16_e32 v1.l, lit(0x1fff0)"),
        ],
    );
}

#[test]
fn vop3_i16_exponent() {
    // v_ldexp_f16_e64 v1, v2, <literal> (GFX10 VOP3 literal)
    let prefix = [0x01, 0x00, 0x3b, 0xd5, 0x02, 0xff, 0x01, 0x00];
    check(
        Target::Gfx1030,
        &prefix,
        &[
            (0x0001_af09, "v_ldexp_f16_e64 v1, v2, 0xaf09"),
            (0xff0a_0041, "v_ldexp_f16_e64 v1, v2, 0x41"),
            (0xffff_af09, "v_ldexp_f16_e64 v1, v2, 0xaf09"),
            (0x0001_3c00, "v_ldexp_f16_e64 v1, v2, lit(0x13c00)"),
            (0xff0a_fff0, "v_ldexp_f16_e64 v1, v2, lit(0xff0afff0)"),
            (0xffff_3c00, "v_ldexp_f16_e64 v1, v2, lit(0xffff3c00)"),
        ],
    );
}
