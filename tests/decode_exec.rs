//! Execution through machine code: capture rows assembled, decoded and run,
//! and operand kinds (inline constants in F16/F64 meaning, literals, SDWA)
//! that only the encoding path produces.

mod common;
use amdgpu_valu::asm::{assemble, decode};
use amdgpu_valu::Target;
use common::{check, Reg};

/// Rows of `tests/captures/hw-public.tsv` (the public hardware set; format:
/// docs/captures.md): target, MODE, instruction, inputs, expected.
const PUBLIC: &str = "\
gfx1201	0x00000030	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a8001	v0=0xa5a50000
gfx1201	0x000000c0	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a0001	v0=0xa5a50001
gfx1201	0x00000030	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a0001	v0=0xa5a50000
gfx1201	0x000000f0	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a7c00	v0=0xa5a5fe00
gfx1201	0x000000fa	v_fract_f16_e32 v0.l, v1.l	v0=0xa5a5a5a5 v1=0x5a5a8000	v0=0xa5a50000
gfx1201	0x000000f0	v_fract_f16_e64 v0.l, -v1.l	v0=0xa5a5a5a5 v1=0x5a5a0001	v0=0xa5a53bff
gfx1201	0x000000f0	v_fract_f16_e64 v0.l, v1.l mul:2	v0=0xa5a5a5a5 v1=0x5a5a8001	v0=0xa5a53fff
gfx1201	0x00000030	v_fract_f32_e32 v0, v1	v0=0xdeadbeef v1=0x80000001	v0=0x3f7fffff
gfx1201	0x000000fc	v_fract_f32_e32 v0, v1	v0=0xdeadbeef v1=0xb7cbb5fd	v0=0x3f7ffe69
gfx1201	0x000000f0	v_fract_f32_e32 v0, v1	v0=0xdeadbeef v1=0x7f800000	v0=0xffc00000
gfx1201	0x000000f0	v_fract_f32_e64 v0, v1 clamp	v0=0xdeadbeef v1=0x7f800001	v0=0x00000000
gfx1201	0x00000030	v_fract_f64_e32 v[0:1], v[2:3]	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8000000000000001	v[0:1]=0x0000000000000000
gfx1201	0x000000c0	v_fract_f64_e32 v[0:1], v[2:3]	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0000000000000001	v[0:1]=0x0000000000000001
gfx1201	0x000000fc	v_fract_f64_e32 v[0:1], v[2:3]	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0xbce254ae32fc7a4f	v[0:1]=0x3fefffffffffffed
gfx1201	0x000000f0	v_fract_f64_e32 v[0:1], v[2:3]	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x7ff0000000000000	v[0:1]=0xfff8000000000000
gfx1201	0x000000f0	v_fract_f64_e64 v[0:1], v[2:3] mul:2	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8000000000000001	v[0:1]=0x3fffffffffffffff
gfx1201	0x000000f0	v_fract_f64_e64 v[0:1], v[2:3] clamp	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x7ff0000000000001	v[0:1]=0x0000000000000000
gfx1201	0x000000f0	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0401 v2=0x5a5affff	v0=0xa5a50200
gfx1201	0x000000f0	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a7fff	v0=0xa5a57c00
gfx1201	0x000000f0	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a8000	v0=0xa5a50000
gfx1201	0x00000000	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0400 v2=0x5a5affff	v0=0xa5a50000
gfx1201	0x00000000	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a8400 v2=0x5a5affff	v0=0xa5a58000
gfx1201	0x00000040	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a8400 v2=0x5a5affff	v0=0xa5a58000
gfx1201	0x000000c0	v_ldexp_f16_e32 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a8400 v2=0x5a5affff	v0=0xa5a58200
gfx1201	0x000000f0	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a8000	v0=0xa5a50000
gfx1201	0x000000f4	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a8000	v0=0xa5a50001
gfx1201	0x000000f8	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0401 v2=0x5a5affff	v0=0xa5a50200
gfx1201	0x000000f8	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a7fff	v0=0xa5a57bff
gfx1201	0x000000f8	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a3c00 v2=0x5a5a8000	v0=0xa5a50000
gfx1201	0x000000fc	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a8401 v2=0x5a5affff	v0=0xa5a58200
gfx1201	0x00000040	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0001 v2=0x5a5a000a	v0=0xa5a50400
gfx1201	0x00000080	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0001 v2=0x5a5a000a	v0=0xa5a50000
gfx1201	0x000000c0	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0001 v2=0x5a5a000a	v0=0xa5a50400
gfx1201	0x000000c0	v_ldexp_f16_e64 v0.l, v1.l, v2.l	v0=0xa5a5a5a5 v1=0x5a5a0400 v2=0x5a5affff	v0=0xa5a50200
gfx1201	0x000000f0	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x80800000 v2=0xffffffe8	v0=0x80000000
gfx1201	0x000000f0	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x7fefffffffffffff v4=0x00000001	v[0:1]=0x7ff0000000000000
gfx1201	0x000000f5	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00800000 v2=0xffffffe8	v0=0x00000001
gfx1201	0x000000f5	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0010000000000000 v4=0xffffffcb	v[0:1]=0x0000000000000001
gfx1201	0x000000f5	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8010000000000000 v4=0xffffffcb	v[0:1]=0x8000000000000000
gfx1201	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x80800000 v2=0xffffffe8	v0=0x80000001
gfx1201	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f7fffff
gfx1201	0x000000ff	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8010000000000000 v4=0xffffffcb	v[0:1]=0x8000000000000000
gfx1201	0x000000ff	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f7fffff
gfx1201	0x0000000f	v_ldexp_f32_e64 v0, v1, v2 mul:2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000000	v0=0x7f7fffff
gfx1201	0x00000000	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00000001 v2=0x00000017	v0=0x00000000
gfx1201	0x000000f0	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00000001 v2=0x00000017	v0=0x00800000
gfx1201	0x00000000	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0000000000000001 v4=0x00000034	v[0:1]=0x0000000000000000
gfx1201	0x000000f0	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0000000000000001 v4=0x00000034	v[0:1]=0x0010000000000000
gfx1100	0x000000f0	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00800000 v2=0xffffffe8	v0=0x00000000
gfx1100	0x000000f0	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x0010000000000000 v4=0xffffffcb	v[0:1]=0x0000000000000000
gfx1100	0x000000f5	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x8010000000000000 v4=0xffffffcb	v[0:1]=0x8000000000000000
gfx1100	0x000000f5	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f800000
gfx1100	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00800000 v2=0xffffffe8	v0=0x00000000
gfx1100	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x80800000 v2=0xffffffe8	v0=0x80000001
gfx1100	0x000000fa	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f7fffff
gfx1100	0x000000fa	v_ldexp_f64_e64 v[0:1], v[2:3], v4	v[0:1]=0xdeadbeefdeadbeef v[2:3]=0x7fefffffffffffff v4=0x00000001	v[0:1]=0x7fefffffffffffff
gfx1100	0x000000ff	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00800000 v2=0xffffffe8	v0=0x00000000
gfx1100	0x000000ff	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000001	v0=0x7f7fffff
gfx1100	0x0000000f	v_ldexp_f32_e64 v0, v1, v2 mul:2	v0=0xdeadbeef v1=0x7f7fffff v2=0x00000000	v0=0x7f7fffff
gfx1100	0x00000000	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00000001 v2=0x00000017	v0=0x00000000
gfx1100	0x000000f0	v_ldexp_f32_e64 v0, v1, v2	v0=0xdeadbeef v1=0x00000001 v2=0x00000017	v0=0x00800000
gfx1201	0x000000d0	v_ldexp_f32 v0, v1, v2	v0=0xdeadbeef v1=0x3f7fffff v2=0xffffff82	v0=0x00000000
gfx1201	0x000000f0	v_ldexp_f16_e64 v0.l, v1.l, v2.l mul:2	v0=0xa5a5a5a5 v1=0x00003bff v2=0x0000fff2	v0=0xa5a50000
gfx1030	0x00000000	v_ldexp_f16_sdwa v0, v1, v2 div:2 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0	v0=0xa5a5a5a5 v1=0x00008400 v2=0x00000000	v0=0xa5a58000
";

fn regs(field: &str) -> Vec<Reg> {
    field
        .split_whitespace()
        .map(|a| {
            let (name, value) = a.split_once('=').expect("assignment");
            let value = u64::from_str_radix(value.trim_start_matches("0x"), 16).expect("hex value");
            if let Some(pair) = name.strip_prefix("v[") {
                let lo = pair
                    .split(':')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("pair");
                Reg::Pair(lo, value)
            } else {
                Reg::V(name[1..].parse().expect("vgpr"), value as u32)
            }
        })
        .collect()
}

/// Assemble `text`, decode the bytes, and run the decoded instruction.
fn run_decoded(target: &str, mode: u32, text: &str, inputs: &[Reg], expected: &[Reg]) {
    let t: Target = target.parse().expect("target");
    let bytes = assemble(t, text).unwrap_or_else(|e| panic!("{target} `{text}`: {e}"));
    let (instr, len) = decode(t, &bytes).unwrap_or_else(|e| panic!("{target} `{text}`: {e}"));
    assert_eq!(len, bytes.len());
    check(target, mode, instr, inputs, expected);
}

#[test]
fn public_rows_through_machine_code() {
    for row in PUBLIC.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = row.split('\t').collect();
        let mode = u32::from_str_radix(f[1].trim_start_matches("0x"), 16).expect("mode");
        run_decoded(f[0], mode, f[2], &regs(f[3]), &regs(f[4]));
    }
}

#[test]
fn sdwa_row_from_words() {
    // gfx1030 SDWA ldexp(0x8400, 0) div:2 -> 0x8000, high half preserved.
    let words: [u32; 2] = [0x7600_04f9, 0x0404_d401];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let t = Target::Gfx1030;
    let (instr, _) = decode(t, &bytes).expect("decodes");
    assert_eq!(
        amdgpu_valu::asm::disassemble(t, &instr),
        "v_ldexp_f16_sdwa v0, v1, v2 div:2 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0"
    );
    check(
        "gfx1030",
        0,
        instr,
        &[Reg::V(0, 0xa5a5_a5a5), Reg::V(1, 0x0000_8400), Reg::V(2, 0)],
        &[Reg::V(0, 0xa5a5_8000)],
    );
}

#[test]
fn sdwa_selectors_and_sign_extension() {
    // src0 from the high word, result into the high word, low word padded.
    run_decoded(
        "gfx1030",
        0xf0,
        "v_fract_f16_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1",
        &[Reg::V(0, 0xdead_beef), Reg::V(1, 0x3e00_1234)],
        // fract(1.5) = 0.5 = 0x3800 in the high word, low word zero.
        &[Reg::V(0, 0x3800_0000)],
    );
    // sext on the exponent: BYTE_0 0xff is -1, so 1.0 * 2^-1 = 0.5.
    run_decoded(
        "gfx908",
        0xf0,
        "v_ldexp_f16_sdwa v0, v1, sext(v2) dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:BYTE_0",
        &[Reg::V(0, 0xdead_beef), Reg::V(1, 0x0000_3c00), Reg::V(2, 0x0000_00ff)],
        &[Reg::V(0, 0xdead_3800)],
    );
    // Without sext the byte is 255: 1.0 * 2^255 overflows to +inf.
    run_decoded(
        "gfx908",
        0xf0,
        "v_ldexp_f16_sdwa v0, v1, v2 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:BYTE_0",
        &[Reg::V(0, 0xdead_beef), Reg::V(1, 0x0000_3c00), Reg::V(2, 0x0000_00ff)],
        &[Reg::V(0, 0xdead_7c00)],
    );
    // An F32 result with a BYTE dst_sel stores its raw low byte; UNUSED_SEXT
    // copies the byte's top bit into the bits above it, zero below.
    // fract(0x3fc00100) = 0x3f000200: low byte 0, top bit 0.
    run_decoded(
        "gfx1030",
        0xf0,
        "v_fract_f32_sdwa v0, v1 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:DWORD",
        &[Reg::V(0, 0xdead_beef), Reg::V(1, 0x3fc0_0100)],
        &[Reg::V(0, 0x0000_0000)],
    );
    // fract(0x3fc00040) = 0x3f000080; with a low byte of 0x80 the top bit is
    // set: 0x80 in bits 15:8, ones above.
    run_decoded(
        "gfx908",
        0xf0,
        "v_fract_f32_sdwa v0, v1 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:DWORD",
        &[Reg::V(0, 0xdead_beef), Reg::V(1, 0x3fc0_0040)],
        &[Reg::V(0, 0xffff_8000)],
    );
}

#[test]
fn inline_constants_take_the_operands_format() {
    // F16: 1/(2*pi) is 0x3118, below 1: unchanged. GFX10 keeps the high half.
    run_decoded(
        "gfx1030",
        0xf0,
        "v_fract_f16 v0, 0.15915494",
        &[Reg::V(0, 0xdead_beef)],
        &[Reg::V(0, 0xdead_3118)],
    );
    // F64: 1/(2*pi) is 0x3fc45f306dc9c882, unchanged by FRACT.
    run_decoded(
        "gfx1201",
        0xf0,
        "v_fract_f64 v[0:1], 0.15915494309189532",
        &[],
        &[Reg::Pair(0, 0x3fc4_5f30_6dc9_c882)],
    );
    // F64 -4.0 is an integer: +0.
    run_decoded(
        "gfx908",
        0xf0,
        "v_fract_f64_e64 v[0:1], -4.0",
        &[Reg::Pair(0, 0xdead_beef_dead_beef)],
        &[Reg::Pair(0, 0)],
    );
    // LDEXP_F16's exponent 1.0 is the F16 encoding 0x3c00 = 15360: +inf.
    run_decoded(
        "gfx1201",
        0xf0,
        "v_ldexp_f16 v0.l, 1.0, 1.0",
        &[Reg::V(0, 0xdead_beef)],
        &[Reg::V(0, 0xdead_7c00)],
    );
    // LDEXP_F32's exponent 0.5 is 0x3f000000: +inf; integer 3: 1.0 * 8.
    run_decoded(
        "gfx1030",
        0xf0,
        "v_ldexp_f32 v0, 1.0, 0.5",
        &[],
        &[Reg::V(0, 0x7f80_0000)],
    );
    run_decoded(
        "gfx1030",
        0xf0,
        "v_ldexp_f32 v0, 1.0, 3",
        &[],
        &[Reg::V(0, 0x4100_0000)],
    );
    // F64 inline integer -1 is the 64-bit pattern 0xffff_ffff_ffff_ffff, a NaN:
    // FRACT quiets it (already quiet).
    run_decoded(
        "gfx1100",
        0xf0,
        "v_fract_f64 v[0:1], -1",
        &[],
        &[Reg::Pair(0, 0xffff_ffff_ffff_ffff)],
    );
}

#[test]
fn literals() {
    // F32 literal 1.5 -> 0.5.
    run_decoded(
        "gfx1201",
        0xf0,
        "v_fract_f32 v0, 1.5",
        &[],
        &[Reg::V(0, 0x3f00_0000)],
    );
    // F16 literal 0x3e00 (1.5) in VOP3 on GFX10 -> 0x3800, high half kept.
    run_decoded(
        "gfx1030",
        0xf0,
        "v_fract_f16_e64 v0, 0x3e00",
        &[Reg::V(0, 0xdead_beef)],
        &[Reg::V(0, 0xdead_3800)],
    );
    // F64 literal: the high dword, 1.5 -> 0.5.
    run_decoded(
        "gfx950",
        0xf0,
        "v_fract_f64 v[0:1], 0x3ff80000",
        &[],
        &[Reg::Pair(0, 0x3fe0_0000_0000_0000)],
    );
    // gfx1250 64-bit literal 1.5 + 2^-51 -> 0.5 + 2^-51.
    run_decoded(
        "gfx1250",
        0xf0,
        "v_fract_f64 v[0:1], 0x3ff8000000000002",
        &[],
        &[Reg::Pair(0, 0x3fe0_0000_0000_0004)],
    );
    // A literal exponent.
    run_decoded(
        "gfx1201",
        0xf0,
        "v_ldexp_f32 v0, 1.0, 0x7f",
        &[],
        &[Reg::V(0, 0x7f00_0000)],
    );
}
