//! Hostile input through the C API: NULL pointers, zero and huge lengths,
//! misaligned and overlapping arrays, bad ids, handles and text. Every call
//! returns a status with a message; none crashes or reports a panic.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use amdgpu_valu_capi::instruction::*;
use amdgpu_valu_capi::lanes::*;
use amdgpu_valu_capi::replay::*;
use amdgpu_valu_capi::wave::*;
use amdgpu_valu_capi::*;

const NONE: AvaluMods = AvaluMods {
    abs: 0,
    neg: 0,
    clamp: 0,
    omod: 0,
};

fn last_error() -> String {
    // SAFETY: avalu_last_error never returns NULL and the string lives
    // until the next failing call on this thread.
    unsafe { CStr::from_ptr(avalu_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// `status` is `want`, with a message containing `words` when it failed.
#[track_caller]
fn expect(status: AvaluStatus, want: AvaluStatus, words: &str) {
    assert_eq!(status, want, "message: {}", last_error());
    if want != AvaluStatus::Ok {
        let m = last_error();
        assert!(m.contains(words), "`{m}` does not mention `{words}`");
    }
}

fn gfx(name: &CStr) -> u32 {
    let mut id = u32::MAX;
    // SAFETY: a valid C string and a valid out pointer.
    expect(
        unsafe { avalu_target_by_name(name.as_ptr(), &mut id) },
        AvaluStatus::Ok,
        "",
    );
    id
}

#[test]
fn targets_by_name_and_id() {
    let n = avalu_target_count();
    assert_eq!(n, 10);
    for id in 0..n {
        let name = avalu_target_name(id);
        assert!(!name.is_null());
        // SAFETY: non-NULL static C string.
        assert_eq!(gfx(unsafe { CStr::from_ptr(name) }), id);
    }
    assert!(avalu_target_name(n).is_null());
    assert!(avalu_target_name(u32::MAX).is_null());
    let mut id = 0;
    // SAFETY: every pointer is NULL or valid.
    unsafe {
        expect(
            avalu_target_by_name(null(), &mut id),
            AvaluStatus::NullPointer,
            "name",
        );
        expect(
            avalu_target_by_name(c"gfx1201".as_ptr(), null_mut()),
            AvaluStatus::NullPointer,
            "out",
        );
        expect(
            avalu_target_by_name(c"gfx12".as_ptr(), &mut id),
            AvaluStatus::UnknownTarget,
            "gfx12",
        );
        let bad = [0xffu8, 0xfe, 0];
        expect(
            avalu_target_by_name(bad.as_ptr().cast::<c_char>(), &mut id),
            AvaluStatus::InvalidArgument,
            "UTF-8",
        );
        // A misaligned out pointer.
        let mut buf = [0u32; 2];
        let odd = buf.as_mut_ptr().cast::<u8>().add(1).cast::<u32>();
        expect(
            avalu_target_by_name(c"gfx1201".as_ptr(), odd),
            AvaluStatus::InvalidArgument,
            "aligned",
        );
    }
}

#[test]
fn lane_calls_check_every_pointer_and_length() {
    let t = gfx(c"gfx1201");
    let src = [0x3fc0_0000u32; 8];
    let mut dst = [0u32; 8];
    let exp = [1i32; 8];
    // SAFETY: every pointer is NULL, or valid for the length passed, or the
    // call refuses it before any access (which is what is tested).
    unsafe {
        // Zero lanes: NULL everywhere is fine.
        expect(
            avalu_fract_f32(t, 0, NONE, null(), null(), null_mut(), 0),
            AvaluStatus::Ok,
            "",
        );
        expect(
            avalu_ldexp_f64(t, 0, NONE, null(), null(), null(), null_mut(), 0),
            AvaluStatus::Ok,
            "",
        );
        expect(
            avalu_fract_f32(t, 0, NONE, null(), null(), dst.as_mut_ptr(), 8),
            AvaluStatus::NullPointer,
            "src",
        );
        expect(
            avalu_fract_f32(t, 0, NONE, null(), src.as_ptr(), null_mut(), 8),
            AvaluStatus::NullPointer,
            "dst",
        );
        expect(
            avalu_ldexp_f32(
                t,
                0,
                NONE,
                null(),
                src.as_ptr(),
                null(),
                dst.as_mut_ptr(),
                8,
            ),
            AvaluStatus::NullPointer,
            "exp",
        );
        // Huge lengths overflow the address space.
        for n in [usize::MAX, usize::MAX / 2, usize::MAX / 4 + 1] {
            expect(
                avalu_fract_f32(t, 0, NONE, null(), src.as_ptr(), dst.as_mut_ptr(), n),
                AvaluStatus::InvalidArgument,
                "overflow",
            );
        }
        // Misaligned arrays.
        let words = [0u64; 4];
        let odd = words.as_ptr().cast::<u8>().add(2);
        expect(
            avalu_fract_f32(t, 0, NONE, null(), odd.cast(), dst.as_mut_ptr(), 2),
            AvaluStatus::InvalidArgument,
            "aligned",
        );
        expect(
            avalu_fract_f64(t, 0, NONE, null(), words.as_ptr(), odd.cast_mut().cast(), 1),
            AvaluStatus::InvalidArgument,
            "aligned",
        );
        // Bad target ids and OMOD values.
        for id in [10, 11, u32::MAX] {
            expect(
                avalu_fract_f32(id, 0, NONE, null(), src.as_ptr(), dst.as_mut_ptr(), 8),
                AvaluStatus::InvalidArgument,
                "target id",
            );
        }
        let omod4 = AvaluMods { omod: 4, ..NONE };
        expect(
            avalu_fract_f32(t, 0, omod4, null(), src.as_ptr(), dst.as_mut_ptr(), 8),
            AvaluStatus::InvalidArgument,
            "omod",
        );
        // A partial overlap of dst with src or exp, or exec inside dst.
        let mut buf = [0u32; 16];
        let p = buf.as_mut_ptr();
        expect(
            avalu_fract_f32(t, 0, NONE, null(), p, p.add(1), 8),
            AvaluStatus::InvalidArgument,
            "overlaps",
        );
        expect(
            avalu_ldexp_f32(
                t,
                0,
                NONE,
                null(),
                src.as_ptr(),
                p.cast::<i32>().add(2),
                p,
                8,
            ),
            AvaluStatus::InvalidArgument,
            "overlaps",
        );
        let mut wide = [0u64; 4];
        let w = wide.as_mut_ptr();
        expect(
            avalu_fract_f64(t, 0, NONE, w.cast_const(), [0u64; 4].as_ptr(), w, 4),
            AvaluStatus::InvalidArgument,
            "exec",
        );
        // LDEXP_F16 writing over its 32-bit exponents is an overlap, not aliasing.
        let mut e16 = [0i32; 4];
        let ep = e16.as_mut_ptr();
        expect(
            avalu_ldexp_f16(
                t,
                0,
                NONE,
                null(),
                [0u16; 4].as_ptr(),
                ep,
                ep.cast::<u16>(),
                4,
            ),
            AvaluStatus::InvalidArgument,
            "overlaps",
        );
        // The well-formed calls still work.
        expect(
            avalu_ldexp_f32(
                t,
                0xf0,
                NONE,
                null(),
                src.as_ptr(),
                exp.as_ptr(),
                dst.as_mut_ptr(),
                8,
            ),
            AvaluStatus::Ok,
            "",
        );
        assert_eq!(dst, [0x4040_0000; 8]); // 1.5 x 2 = 3.0
    }
}

/// In place (dst is src, or for F32 dst is exp) gives the bits of separate
/// arrays, in every chunk and under an EXEC mask.
#[test]
fn in_place_lanes_equal_separate_arrays() {
    let t = gfx(c"gfx1100");
    let n = 150;
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let src: Vec<u32> = (0..n).map(|_| next() as u32).collect();
    let exp: Vec<i32> = (0..n).map(|_| (next() % 81) as i32 - 40).collect();
    let exec: Vec<u64> = (0..3).map(|_| next()).collect();
    let mods = AvaluMods {
        neg: 1,
        clamp: 1,
        omod: 1,
        ..NONE
    };
    // SAFETY: every array is valid for n elements (exec for 3 words).
    unsafe {
        for mode in [0x0u32, 0xf0, 0x3fa] {
            let mut sep = vec![0xdead_beefu32; n];
            expect(
                avalu_fract_f32(
                    t,
                    mode,
                    mods,
                    exec.as_ptr(),
                    src.as_ptr(),
                    sep.as_mut_ptr(),
                    n,
                ),
                AvaluStatus::Ok,
                "",
            );
            // In place: inactive lanes keep their source value there.
            let mut inplace = src.clone();
            let p = inplace.as_mut_ptr();
            expect(
                avalu_fract_f32(t, mode, mods, exec.as_ptr(), p, p, n),
                AvaluStatus::Ok,
                "",
            );
            for i in 0..n {
                let active = exec[i / 64] >> (i % 64) & 1 != 0;
                assert_eq!(inplace[i], if active { sep[i] } else { src[i] }, "lane {i}");
            }
            let mut sep = vec![0u32; n];
            expect(
                avalu_ldexp_f32(
                    t,
                    mode,
                    mods,
                    null(),
                    src.as_ptr(),
                    exp.as_ptr(),
                    sep.as_mut_ptr(),
                    n,
                ),
                AvaluStatus::Ok,
                "",
            );
            let mut e_inplace: Vec<i32> = exp.clone();
            let ep = e_inplace.as_mut_ptr();
            expect(
                avalu_ldexp_f32(t, mode, mods, null(), src.as_ptr(), ep, ep.cast::<u32>(), n),
                AvaluStatus::Ok,
                "",
            );
            let got: Vec<u32> = e_inplace.iter().map(|&e| e as u32).collect();
            assert_eq!(got, sep);
        }
    }
}

#[test]
fn instruction_handles_refuse_bad_input() {
    let t = gfx(c"gfx1201");
    let mut ins: *mut AvaluInstruction = null_mut();
    // SAFETY: every pointer is NULL or valid.
    unsafe {
        expect(
            avalu_assemble(t, null(), &mut ins),
            AvaluStatus::NullPointer,
            "text",
        );
        expect(
            avalu_assemble(t, c"v_fract_f32 v0, v1".as_ptr(), null_mut()),
            AvaluStatus::NullPointer,
            "out",
        );
        expect(
            avalu_assemble(99, c"v_fract_f32 v0, v1".as_ptr(), &mut ins),
            AvaluStatus::InvalidArgument,
            "target id",
        );
        expect(
            avalu_assemble(t, c"v_fract_f32 v0, v999".as_ptr(), &mut ins),
            AvaluStatus::Assembly,
            "column",
        );
        expect(
            avalu_assemble(t, c"".as_ptr(), &mut ins),
            AvaluStatus::Assembly,
            "column",
        );
        assert!(ins.is_null());
        // Decoding: NULL, empty, truncated, garbage.
        let mut used = 0usize;
        expect(
            avalu_decode(t, null(), 4, &mut ins, &mut used),
            AvaluStatus::NullPointer,
            "bytes",
        );
        let empty = [0u8; 0];
        expect(
            avalu_decode(t, empty.as_ptr(), 0, &mut ins, &mut used),
            AvaluStatus::Decode,
            "truncated",
        );
        let bytes = [0x00u8, 0x00, 0x3b, 0xd5, 0x01, 0x05, 0x02, 0x08];
        expect(
            avalu_decode(t, bytes.as_ptr(), 5, &mut ins, &mut used),
            AvaluStatus::Decode,
            "byte offset 4",
        );
        expect(
            avalu_decode(t, bytes.as_ptr(), usize::MAX, &mut ins, &mut used),
            AvaluStatus::InvalidArgument,
            "overflow",
        );
        let mut seed = 7u64;
        for _ in 0..2000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let junk = seed.to_le_bytes();
            let status = avalu_decode(t, junk.as_ptr(), junk.len(), &mut ins, null_mut());
            assert!(
                matches!(status, AvaluStatus::Ok | AvaluStatus::Decode),
                "{status:?}: {}",
                last_error()
            );
            avalu_instruction_free(ins);
            ins = null_mut();
        }
        // A good handle: text and bytes with a too-small buffer first.
        expect(
            avalu_decode(t, bytes.as_ptr(), 8, &mut ins, &mut used),
            AvaluStatus::Ok,
            "",
        );
        assert_eq!(used, 8);
        let mut len = 0usize;
        expect(
            avalu_instruction_text(ins, null_mut(), 0, &mut len),
            AvaluStatus::BufferTooSmall,
            "needed",
        );
        let text = "v_ldexp_f16_e64 v0.l, v1.l, v2.l mul:2";
        assert_eq!(len, text.len());
        let mut buf = vec![0 as c_char; len];
        expect(
            avalu_instruction_text(ins, buf.as_mut_ptr(), len, null_mut()),
            AvaluStatus::BufferTooSmall,
            "needed",
        );
        let mut buf = vec![0 as c_char; len + 1];
        expect(
            avalu_instruction_text(ins, buf.as_mut_ptr(), len + 1, null_mut()),
            AvaluStatus::Ok,
            "",
        );
        assert_eq!(CStr::from_ptr(buf.as_ptr()).to_str(), Ok(text));
        let mut out = [0u8; 8];
        expect(
            avalu_instruction_bytes(ins, out.as_mut_ptr(), 7, &mut len),
            AvaluStatus::BufferTooSmall,
            "8 needed",
        );
        expect(
            avalu_instruction_bytes(ins, out.as_mut_ptr(), 8, &mut len),
            AvaluStatus::Ok,
            "",
        );
        assert_eq!(out, bytes);
        let mut id = 0;
        expect(avalu_instruction_target(ins, &mut id), AvaluStatus::Ok, "");
        assert_eq!(id, t);
        expect(
            avalu_instruction_text(null(), buf.as_mut_ptr(), 8, null_mut()),
            AvaluStatus::NullPointer,
            "instruction",
        );
        expect(
            avalu_instruction_bytes(null(), out.as_mut_ptr(), 8, null_mut()),
            AvaluStatus::NullPointer,
            "instruction",
        );
        avalu_instruction_free(ins);
        avalu_instruction_free(null_mut());
    }
}

#[test]
fn waves_refuse_bad_registers_lanes_and_handles() {
    let t = gfx(c"gfx1201");
    let gfx908 = gfx(c"gfx908");
    let mut w: *mut AvaluWave = null_mut();
    // SAFETY: every pointer is NULL or valid.
    unsafe {
        expect(
            avalu_wave_new(t, 16, &mut w),
            AvaluStatus::InvalidArgument,
            "32 or 64",
        );
        expect(
            avalu_wave_new(gfx908, 32, &mut w),
            AvaluStatus::Execute,
            "wave32",
        );
        expect(
            avalu_wave_new(t, 0, null_mut()),
            AvaluStatus::NullPointer,
            "out",
        );
        expect(avalu_wave_new(t, 64, &mut w), AvaluStatus::Ok, "");
        assert_eq!(avalu_wave_lanes(w), 64);
        assert_eq!(avalu_wave_lanes(null()), 0);
        let mut v = 0u32;
        expect(
            avalu_wave_set_vgpr(w, 256, 0, 1),
            AvaluStatus::InvalidArgument,
            "vgpr 256",
        );
        expect(
            avalu_wave_set_vgpr(w, 0, 64, 1),
            AvaluStatus::InvalidArgument,
            "lane 64",
        );
        expect(
            avalu_wave_get_vgpr(w, u32::MAX, 0, &mut v),
            AvaluStatus::InvalidArgument,
            "out of range",
        );
        expect(
            avalu_wave_get_vgpr(w, 0, 0, null_mut()),
            AvaluStatus::NullPointer,
            "out",
        );
        expect(
            avalu_wave_set_sgpr(w, 106, 1),
            AvaluStatus::InvalidArgument,
            "sgpr 106",
        );
        expect(
            avalu_wave_get_sgpr(null(), 0, &mut v),
            AvaluStatus::NullPointer,
            "wave",
        );
        let lanes = [7u32; 65];
        expect(
            avalu_wave_write_vgpr(w, 3, lanes.as_ptr(), 65),
            AvaluStatus::InvalidArgument,
            "65 lanes",
        );
        expect(
            avalu_wave_write_vgpr(w, 3, null(), 64),
            AvaluStatus::NullPointer,
            "values",
        );
        expect(
            avalu_wave_write_vgpr(w, 3, lanes.as_ptr(), 64),
            AvaluStatus::Ok,
            "",
        );
        let mut back = [0u32; 64];
        expect(
            avalu_wave_read_vgpr(w, 3, back.as_mut_ptr(), usize::MAX),
            AvaluStatus::InvalidArgument,
            "lanes",
        );
        expect(
            avalu_wave_read_vgpr(w, 3, back.as_mut_ptr(), 64),
            AvaluStatus::Ok,
            "",
        );
        assert_eq!(back, [7; 64]);
        expect(avalu_wave_set_exec(w, u64::MAX), AvaluStatus::Ok, "");
        let mut exec = 0u64;
        expect(avalu_wave_get_exec(w, &mut exec), AvaluStatus::Ok, "");
        assert_eq!(exec, u64::MAX);
        expect(
            avalu_wave_set_mode(null_mut(), 0),
            AvaluStatus::NullPointer,
            "wave",
        );
        // An instruction for another target, one the target refuses, NULLs.
        let mut ins: *mut AvaluInstruction = null_mut();
        expect(
            avalu_assemble(gfx908, c"v_fract_f32 v0, v1".as_ptr(), &mut ins),
            AvaluStatus::Ok,
            "",
        );
        expect(
            avalu_execute(w, ins),
            AvaluStatus::InvalidArgument,
            "for gfx908",
        );
        avalu_instruction_free(ins);
        expect(
            avalu_assemble(t, c"v_fract_f64 v[0:1], v[254:255]".as_ptr(), &mut ins),
            AvaluStatus::Ok,
            "",
        );
        expect(avalu_execute(w, ins), AvaluStatus::Ok, "");
        expect(
            avalu_execute(w, null()),
            AvaluStatus::NullPointer,
            "instruction",
        );
        expect(
            avalu_execute(null_mut(), ins),
            AvaluStatus::NullPointer,
            "wave",
        );
        avalu_instruction_free(ins);
        avalu_wave_free(w);
        avalu_wave_free(null_mut());
    }
}

#[test]
fn replay_counts_garbage_as_failures() {
    let mut r: *mut AvaluReplay = null_mut();
    // SAFETY: every pointer is NULL or valid for the length passed.
    unsafe {
        expect(
            avalu_replay(null(), 3, &mut r),
            AvaluStatus::NullPointer,
            "text",
        );
        let text = b"gfx1201\t0x30\tv_fract_f32_e32 v0, v1\tv1=0x80000001\tv0=0x3f7fffff\n\xff\xfe\0junk\tx\n";
        expect(
            avalu_replay(text.as_ptr().cast(), text.len(), null_mut()),
            AvaluStatus::NullPointer,
            "out",
        );
        expect(
            avalu_replay(text.as_ptr().cast(), usize::MAX, &mut r),
            AvaluStatus::InvalidArgument,
            "overflow",
        );
        expect(
            avalu_replay(text.as_ptr().cast(), text.len(), &mut r),
            AvaluStatus::Ok,
            "",
        );
        assert_eq!((avalu_replay_passed(r), avalu_replay_failed(r)), (1, 1));
        let f = avalu_replay_failure(r, 0);
        assert!(!f.is_null());
        assert!(CStr::from_ptr(f)
            .to_string_lossy()
            .starts_with("2:1: malformed row"));
        assert!(avalu_replay_failure(r, 1).is_null());
        assert!(avalu_replay_failure(null(), 0).is_null());
        assert_eq!(avalu_replay_passed(null()), 0);
        avalu_replay_free(r);
        avalu_replay_free(null_mut());
        // Empty text is zero rows.
        expect(avalu_replay(c"".as_ptr(), 0, &mut r), AvaluStatus::Ok, "");
        assert_eq!((avalu_replay_passed(r), avalu_replay_failed(r)), (0, 0));
        avalu_replay_free(r);
    }
}

/// The arithmetic entries: NULL, misaligned and overlapping arrays are
/// refused with a status; `dst` being any one source (v0 = v0 * v1, v1 =
/// v0 - v1, v2 = fma(v0, v1, v2)) gives the bits of separate arrays, with
/// and without EXEC.
#[test]
fn arith_calls_check_pointers_and_in_place_equals_separate() {
    use amdgpu_valu_capi::arith::*;
    let t = gfx(c"gfx1201");
    let none = AvaluArithMods::default();
    let n = 150;
    let mut seed = 0x0fed_cba9_8765_4321u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let srcs: Vec<Vec<u32>> = (0..3)
        .map(|_| (0..n).map(|_| next() as u32).collect())
        .collect();
    let exec: Vec<u64> = (0..3).map(|_| next()).collect();
    let mods = AvaluArithMods {
        abs: 2,
        neg: 5,
        clamp: 1,
        omod: 3,
    };
    let [a, b, c] = [0, 1, 2].map(|i| srcs[i].as_ptr());
    // SAFETY: every array is valid for n elements (exec for 3 words), or
    // the call refuses it before any access.
    unsafe {
        for exec_ptr in [null(), exec.as_ptr()] {
            let mut sep = vec![0xdead_beefu32; n];
            expect(
                avalu_fma_f32(t, 0xf0, mods, exec_ptr, a, b, c, sep.as_mut_ptr(), n),
                AvaluStatus::Ok,
                "",
            );
            for k in 0..3 {
                let mut inplace = srcs[k].clone();
                let p = inplace.as_mut_ptr();
                let mut s = [a, b, c];
                s[k] = p;
                expect(
                    avalu_fma_f32(t, 0xf0, mods, exec_ptr, s[0], s[1], s[2], p, n),
                    AvaluStatus::Ok,
                    "",
                );
                for i in 0..n {
                    let active = exec_ptr.is_null() || exec[i / 64] >> (i % 64) & 1 != 0;
                    let want = if active { sep[i] } else { srcs[k][i] };
                    assert_eq!(inplace[i], want, "dst = src{k}, lane {i}");
                }
            }
            // Two-source: dst = src1.
            let mut sep = vec![0u32; n];
            expect(
                avalu_sub_f32(t, 0, none, exec_ptr, a, b, sep.as_mut_ptr(), n),
                AvaluStatus::Ok,
                "",
            );
            let mut inplace = srcs[1].clone();
            let p = inplace.as_mut_ptr();
            expect(
                avalu_sub_f32(t, 0, none, exec_ptr, a, p, p, n),
                AvaluStatus::Ok,
                "",
            );
            for i in 0..n {
                let active = exec_ptr.is_null() || exec[i / 64] >> (i % 64) & 1 != 0;
                assert_eq!(inplace[i], if active { sep[i] } else { srcs[1][i] });
            }
        }
        let mut d = vec![0u32; n + 1];
        let dp = d.as_mut_ptr();
        expect(
            avalu_mul_f32(t, 0, none, null(), null(), b, dp, n),
            AvaluStatus::NullPointer,
            "src0",
        );
        expect(
            avalu_add_f32(t, 0, none, null(), a, b, null_mut(), n),
            AvaluStatus::NullPointer,
            "dst",
        );
        expect(
            avalu_fma_f32(t, 0, none, null(), a, b, dp.add(1), dp, n),
            AvaluStatus::InvalidArgument,
            "overlaps src2",
        );
        let odd = dp.cast::<u8>().add(1).cast::<u32>();
        expect(
            avalu_add_f32(t, 0, none, null(), a, b, odd, 4),
            AvaluStatus::InvalidArgument,
            "aligned",
        );
        expect(
            avalu_add_f32(t, 0, none, null(), a, b, dp, usize::MAX),
            AvaluStatus::InvalidArgument,
            "overflow",
        );
        expect(
            avalu_add_f32(t, 0, none, dp.cast::<u64>(), a, b, dp, n),
            AvaluStatus::InvalidArgument,
            "exec overlaps dst",
        );
        let neg_src2 = AvaluArithMods { neg: 4, ..none };
        expect(
            avalu_mul_f16(t, 0, neg_src2, null(), null(), null(), null_mut(), 0),
            AvaluStatus::Execute,
            "src2",
        );
        expect(
            avalu_subrev_f16(
                t,
                0,
                AvaluArithMods { omod: 9, ..none },
                null(),
                null(),
                null(),
                null_mut(),
                0,
            ),
            AvaluStatus::InvalidArgument,
            "omod",
        );
    }
}
