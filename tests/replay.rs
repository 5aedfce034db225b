//! Replay trusts the capture: every value the inputs give is in the
//! register file before execution, in active and inactive lanes alike, and a
//! row passes exactly when the expected column holds afterwards: named
//! values in the lanes they name, every other lane and register unchanged.
//!
//! Expected bits are worked by hand: fract(1.5) = 0.5 and fract(1.25) =
//! 0.25 in F16 (0x3e00 -> 0x3800, 0x3d00 -> 0x3400), F32 (0x3fc00000 ->
//! 0x3f000000, 0x3fa00000 -> 0x3e800000) and F64 (0x3ff8000000000000 ->
//! 0x3fe0000000000000, 0x3ff4000000000000 -> 0x3fd0000000000000).

use std::process::Command;

use amdgpu_valu::capture::{parse_line, run_row, Mismatch, Outcome, Replayer};

fn outcome(text: &str) -> Outcome {
    let row = parse_line(1, text)
        .expect("the row parses")
        .expect("not a comment");
    run_row(&row)
}

fn assert_passes(text: &str) {
    assert_eq!(outcome(text), Outcome::Pass, "{text}");
}

/// The registers a failing row reports.
fn failures(text: &str) -> Vec<String> {
    match outcome(text) {
        Outcome::Fail(m) => m.into_iter().map(|m| m.register).collect(),
        other => panic!("{text}: expected a failure, got {other:?}"),
    }
}

/// The example: lane 3 is inactive and its v1 comes from the inputs.
const EXAMPLE: &str = "gfx1201\t0x000000f0\tv_fract_f32 v1, v0\t\
    v0=0x3fc00000 v1=0x12345678 exec=0xfffffff7\tv1=0x3f000000 v1[3]=0x12345678";

#[test]
fn an_inactive_lane_holds_the_value_the_inputs_give() {
    assert_passes(EXAMPLE);
    // The command too.
    let dir = std::env::temp_dir().join(format!("amdgpu-valu-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("example.tsv");
    std::fs::write(&path, format!("{EXAMPLE}\n")).expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_amdgpu-valu"))
        .arg("replay")
        .arg(&path)
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.lines().any(|l| l == "1 passed, 0 failed"), "{out}");
}

#[test]
fn per_lane_and_whole_register_inputs_with_partial_exec_wave32() {
    // F32: lane 5 active with its own source; lane 3 inactive with its own
    // destination value, lane 9 inactive with the whole-register one.
    assert_passes(
        "gfx1201\t0xf0\tv_fract_f32 v1, v0\t\
         v0=0x3fc00000 v0[5]=0x3fa00000 v1=0x12345678 v1[3]=0x0badf00d exec=0xfffffdf7\t\
         v1=0x3f000000 v1[5]=0x3e800000 v1[3]=0x0badf00d v1[9]=0x12345678",
    );
    // F16 into the high half (the low half is kept), true16.
    assert_passes(
        "gfx1201\t0xf0\tv_fract_f16_e32 v1.h, v0.l\t\
         v0=0x00003e00 v0[6]=0x00003d00 v1=0x12345678 v1[3]=0xcafe1234 exec=0xfffffff7\t\
         v1=0x38005678 v1[6]=0x34005678 v1[3]=0xcafe1234",
    );
    // F16 into the low half.
    assert_passes(
        "gfx1201\t0xf0\tv_fract_f16_e64 v1.l, v0.l\t\
         v0=0x00003e00 v0[6]=0x00003d00 v1=0x12345678 v1[3]=0xcafe1234 exec=0xfffffff7\t\
         v1=0x12343800 v1[6]=0x12343400 v1[3]=0xcafe1234",
    );
    // F64 pairs.
    assert_passes(
        "gfx1201\t0xf0\tv_fract_f64 v[2:3], v[0:1]\t\
         v[0:1]=0x3ff8000000000000 v[0:1][7]=0x3ff4000000000000 \
         v[2:3]=0x0123456789abcdef v[2:3][30]=0xfedcba9876543210 exec=0xbfffffff\t\
         v[2:3]=0x3fe0000000000000 v[2:3][7]=0x3fd0000000000000 v[2:3][30]=0xfedcba9876543210",
    );
}

#[test]
fn per_lane_and_whole_register_inputs_with_partial_exec_wave64() {
    // Lanes 3 and 32 inactive; lane 40 active with its own source.
    let exec = "exec=0xfffffffefffffff7";
    assert_passes(&format!(
        "gfx1201\t0xf0\tv_fract_f32 v1, v0\t\
         v0=0x3fc00000 v0[40]=0x3fa00000 v1=0x12345678 v1[32]=0x0badf00d {exec} wave=64\t\
         v1=0x3f000000 v1[40]=0x3e800000 v1[3]=0x12345678 v1[32]=0x0badf00d"
    ));
    assert_passes(&format!(
        "gfx1201\t0xf0\tv_fract_f16_e32 v1.h, v0.l\t\
         v0=0x00003e00 v0[40]=0x00003d00 v1=0x12345678 v1[32]=0xcafe1234 {exec} wave=64\t\
         v1=0x38005678 v1[40]=0x34005678 v1[3]=0x12345678 v1[32]=0xcafe1234"
    ));
    // GFX10 keeps the high half of an F16 result [hw gfx1030].
    assert_passes(&format!(
        "gfx1030\t0xf0\tv_fract_f16_e32 v1, v0\t\
         v0=0x00003e00 v0[40]=0x00003d00 v1=0x12345678 v1[32]=0xcafe1234 {exec} wave=64\t\
         v1=0x12343800 v1[40]=0x12343400 v1[3]=0x12345678 v1[32]=0xcafe1234"
    ));
    // CDNA: wave64 by default, aligned pairs.
    assert_passes(&format!(
        "gfx942\t0xf0\tv_fract_f64_e32 v[0:1], v[2:3]\t\
         v[2:3]=0x3ff8000000000000 v[2:3][40]=0x3ff4000000000000 \
         v[0:1]=0x0123456789abcdef v[0:1][32]=0xfedcba9876543210 {exec}\t\
         v[0:1]=0x3fe0000000000000 v[0:1][40]=0x3fd0000000000000 v[0:1][32]=0xfedcba9876543210"
    ));
}

#[test]
fn registers_the_inputs_leave_unnamed_start_at_zero() {
    // v7 unnamed: fract(+0) = +0 in every lane, active or not.
    assert_passes(
        "gfx1201\t0xf0\tv_fract_f32 v1, v7\tv1=0x12345678 exec=0xfffffff7\tv1=0x00000000 v1[3]=0x12345678",
    );
    // An unnamed destination keeps 0 in its inactive lanes.
    assert_passes(
        "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 exec=0xfffffff7\tv1=0x3f000000",
    );
    assert_eq!(
        failures(
            "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 exec=0xfffffff7\tv1=0x3f000000 v1[3]=0x3f000000"
        ),
        ["v1[3]"]
    );
}

#[test]
fn a_wrong_expectation_in_any_lane_of_a_wave64_row_fails() {
    let base =
        "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x12345678 wave=64\tv1=0x3f000000";
    assert_passes(base);
    for lane in 0..64 {
        let row = format!("{base} v1[{lane}]=0x3f000001");
        assert_eq!(
            outcome(&row),
            Outcome::Fail(vec![Mismatch {
                register: format!("v1[{lane}]"),
                expected: 0x3f00_0001,
                actual: 0x3f00_0000,
                note: None,
            }]),
            "lane {lane}"
        );
    }
    // A pair's high dword, in lane 63 of a CDNA wave.
    let pair = "gfx942\t0xf0\tv_fract_f64_e32 v[0:1], v[2:3]\tv[2:3]=0x3ff8000000000000\t\
                v[0:1]=0x3fe0000000000000";
    assert_passes(pair);
    assert_eq!(
        failures(&format!("{pair} v[0:1][63]=0x3fe0000100000000")),
        ["v1[63]"]
    );
    // A register the instruction does not write, in a high lane.
    assert_eq!(failures(&format!("{base} v0[50]=0x3fc00001")), ["v0[50]"]);
}

#[test]
fn a_register_the_expected_column_leaves_unnamed_must_keep_its_value() {
    // The instruction writes v1 but the row says only v0 and v2 hold their inputs.
    assert_eq!(
        failures(
            "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x12345678 v2=0x1\tv0=0x3fc00000 v2=0x1"
        ),
        ["v1"]
    );
    assert_eq!(
        failures("gfx942\t0xf0\tv_fract_f64_e32 v[0:1], v[2:3]\tv[2:3]=0x3ff8000000000000\tv0=0x0"),
        ["v1"]
    );
}

#[test]
fn a_destination_the_expected_column_leaves_unnamed_passes_when_unchanged() {
    // fract(1.5) = 0.5 is what v1 already holds: on hardware the register
    // shows no change, so a row that leaves v1 unnamed ("unchanged") passes,
    // as does one that names it. A different old value fails.
    let inputs = "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x3f000000";
    assert_passes(&format!("{inputs}\tv1=0x3f000000"));
    assert_passes(&format!("{inputs}\tv0=0x3fc00000"));
    assert_eq!(
        outcome("gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x3f000001\tv0=0x3fc00000"),
        Outcome::Fail(vec![Mismatch {
            register: "v1".into(),
            expected: 0x3f00_0001,
            actual: 0x3f00_0000,
            note: None,
        }])
    );
}

#[test]
fn kept_and_replaced_bits_of_each_destination_kind_pass() {
    // The bits a result keeps are checked by a rerun with them inverted;
    // these rows must pass it: GFX9 zeroes the high half of an F16 result,
    // SDWA UNUSED_PRESERVE keeps the bits outside dst_sel, and an F32
    // result in a WORD field stores its raw low bits.
    for row in [
        "gfx942\t0xf0\tv_fract_f16_e32 v1, v0\tv0=0x00003e00 v1=0x12345678\tv1=0x00003800",
        "gfx1030\t0xf0\tv_fract_f16_sdwa v1, v0 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0\t\
         v0=0x00003e00 v1=0x12345678 exec=0xfffffff7\tv1=0x38005678 v1[3]=0x12345678",
        "gfx1030\t0xf0\tv_fract_f32_sdwa v1, v0 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD\t\
         v0=0x3fc00000 v1=0x12345678\tv1=0x12340000",
        "gfx942\t0xf0\tv_fract_f16_sdwa v1, v0 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1\t\
         v0=0x3e000000 v1=0x12345678\tv1=0x00003800",
        // A source in the kept half of the destination register.
        "gfx1201\t0xf0\tv_fract_f16_e32 v1.l, v1.h\tv1=0x3e001234\tv1=0x3e003800",
    ] {
        assert_passes(row);
    }
}

#[test]
fn a_wrong_expectation_in_an_inactive_lane_fails() {
    // Inactive lanes keep their inputs: naming the active result there is wrong.
    for (lane, exec) in [(3, "0xfffffff7"), (31, "0x7fffffff")] {
        assert_eq!(
            failures(&format!(
                "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x12345678 exec={exec}\t\
                 v1=0x3f000000 v1[{lane}]=0x3f000000"
            )),
            [format!("v1[{lane}]")]
        );
    }
    assert_eq!(
        failures(
            "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x12345678 \
             exec=0x7fffffffffffffff wave=64\tv1=0x3f000000 v1[63]=0x12345679"
        ),
        ["v1[63]"]
    );
}

#[test]
fn a_wrong_expectation_in_a_half_fails() {
    let high = "gfx1201\t0xf0\tv_fract_f16_e32 v1.h, v0.l\tv0=0x00003e00 v1=0x12345678";
    let low = "gfx1201\t0xf0\tv_fract_f16_e32 v1.l, v0.l\tv0=0x00003e00 v1=0x12345678";
    assert_passes(&format!("{high}\tv1=0x38005678"));
    assert_passes(&format!("{low}\tv1=0x12343800"));
    // Wrong result half, wrong kept half, in every lane or in one.
    for row in [
        format!("{high}\tv1=0x38015678"),
        format!("{high}\tv1=0x38005679"),
        format!("{low}\tv1=0x12353800"),
        format!("{low}\tv1=0x12343801"),
    ] {
        assert_eq!(failures(&row), ["v1"], "{row}");
    }
    assert_eq!(
        failures(&format!("{low}\tv1=0x12343800 v1[17]=0x92343800")),
        ["v1[17]"]
    );
}

#[test]
fn one_replayer_gives_each_row_the_outcome_it_has_alone() {
    let rows = [
        EXAMPLE,
        "gfx942\t0xf0\tv_fract_f32_e32 v9, v0\tv0=0x3fc00000 exec=0x1\tv9[0]=0x3f000000",
        "gfx1201\t0xf0\tv_fract_f32 v1, v9\tv1=0x12345678\tv1=0x00000000",
        "gfx1201\t0xf0\tv_fract_f32 v1, v9\tv1=0x12345678\tv1=0x00000001",
        "gfx1030\t0xf0\tv_fract_f16_e32 v1, v0\tv0=0x00003e00 v1=0x12345678\tv1=0x12343800",
        "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 exec=0xfffffff7\tv1=0x3f000000",
    ];
    let mut replayer = Replayer::new();
    for text in rows {
        let row = parse_line(1, text).expect("parses").expect("a row");
        assert_eq!(replayer.run(&row), run_row(&row), "{text}");
    }
}

/// `replay` on `path` with extra arguments: exit code and stdout without
/// the timing line.
fn replay_cli(path: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_amdgpu-valu"))
        .arg("replay")
        .args(args)
        .arg(path)
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| !l.starts_with("replayed "))
        .map(|l| format!("{l}\n"))
        .collect();
    (o.status.code(), out)
}

#[test]
fn replay_with_jobs_prints_what_one_thread_prints_in_the_same_order() {
    // 10,000 lines: several batches per thread. Wrong expectations, malformed
    // rows and comments at scattered lines.
    let good = "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x12345678\tv1=0x3f000000";
    let wrong = "gfx942\t0xf0\tv_fract_f32_e32 v1, v0\tv0=0x3fc00000\tv1=0x3f000000 v1[40]=0x1";
    let mut body = String::new();
    for line in 1..=10_000 {
        let row = if line % 997 == 0 {
            wrong
        } else if line % 1499 == 0 {
            "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0xzz\tv1=0x0"
        } else if line % 101 == 0 {
            "# a comment"
        } else {
            good
        };
        body.push_str(row);
        body.push('\n');
    }
    let dir = std::env::temp_dir().join(format!("amdgpu-valu-jobs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("many.tsv");
    std::fs::write(&path, body).expect("write");

    let (code, one) = replay_cli(&path, &[]);
    assert_eq!(code, Some(1), "{one}");
    let reported: Vec<usize> = one
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("{}:", path.display())))
        .filter_map(|rest| rest.split(':').next()?.parse().ok())
        .collect();
    let mut want: Vec<usize> = (1..=10_000)
        .filter(|l| l % 997 == 0 || l % 1499 == 0)
        .collect();
    want.dedup();
    assert_eq!(reported, want, "{one}");
    let failed = want.len();
    let rows = 10_000
        - (1..=10_000)
            .filter(|l| l % 101 == 0 && l % 997 != 0 && l % 1499 != 0)
            .count();
    assert!(
        one.lines()
            .any(|l| l == format!("{} passed, {failed} failed", rows - failed)),
        "{one}"
    );
    for jobs in ["2", "3", "0"] {
        assert_eq!(
            replay_cli(&path, &["--jobs", jobs]),
            (code, one.clone()),
            "--jobs {jobs}"
        );
    }
}

/// The reason a row could not run.
fn error(text: &str) -> String {
    match outcome(text) {
        Outcome::Error(reason) => reason,
        other => panic!("{text}: expected an error, got {other:?}"),
    }
}

#[test]
fn a_whole_register_expectation_with_no_active_lane_is_an_error() {
    // EXEC = 0: a whole-register value is compared in the active lanes
    // only, so neither the right bits (fract(1.5) = 0x3f000000 were the lane
    // active) nor wrong ones could fail the row. Before this rule both passed.
    for v1 in ["0x3f000000", "0xdeadbeef"] {
        let row = format!(
            "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x12345678 exec=0x0\tv1={v1}"
        );
        let reason = error(&row);
        assert_eq!(
            reason,
            format!(
                "expected v1={:#x} cannot fail: a whole-register value is compared in \
                 active lanes only, and EXEC selects no lane of the wave32",
                u32::from_str_radix(&v1[2..], 16).expect("hex")
            )
        );
    }
    // EXEC bits only above the wave: wave32 ignores them.
    assert!(error(
        "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 exec=0xffffffff00000000\tv1=0x3f000000"
    )
    .contains("EXEC selects no lane of the wave32"));
    // A pair, in wave64.
    assert!(error(
        "gfx942\t0xf0\tv_fract_f64_e32 v[0:1], v[2:3]\tv[2:3]=0x3ff8000000000000 exec=0x0\t\
         v[0:1]=0x3fe0000000000000"
    )
    .starts_with("expected v[0:1]=0x3fe0000000000000 cannot fail"));
    // A register the instruction does not write is no different.
    assert!(
        error("gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 exec=0x0\tv0=0x3fc00000")
            .starts_with("expected v0=0x3fc00000 cannot fail")
    );
}

#[test]
fn a_whole_register_expectation_whose_active_lanes_are_all_named_one_by_one_is_an_error() {
    // Lane 0 is the only active lane and `v1[0]=` takes it: `v1=` is
    // compared nowhere.
    assert_eq!(
        error(
            "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 exec=0x1\tv1=0xdeadbeef v1[0]=0x3f000000"
        ),
        "expected v1=0xdeadbeef cannot fail: a whole-register value is compared in active \
         lanes only, and every active lane is named by a one-lane expectation"
    );
    // One more active lane (lane 1) gives `v1=` a lane to check: the
    // right value passes and a wrong one fails there.
    let two = "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 exec=0x3\t";
    assert_passes(&format!("{two}v1=0x3f000000 v1[0]=0x3f000000"));
    assert_eq!(
        failures(&format!("{two}v1=0xdeadbeef v1[0]=0x3f000000")),
        ["v1[1]"]
    );
    // A pair whose low VGPR's one active lane is named alone still checks
    // its high VGPR there: 0x3fe00000 is the high dword of fract(1.5).
    assert_passes(
        "gfx942\t0xf0\tv_fract_f64_e32 v[0:1], v[2:3]\tv[2:3]=0x3ff8000000000000 exec=0x1\t\
         v[0:1]=0x3fe0000000000000 v0[0]=0x00000000",
    );
    assert_eq!(
        failures(
            "gfx942\t0xf0\tv_fract_f64_e32 v[0:1], v[2:3]\tv[2:3]=0x3ff8000000000000 exec=0x1\t\
             v[0:1]=0x3fe0000100000000 v0[0]=0x00000000"
        ),
        ["v1[0]"]
    );
}

#[test]
fn rows_with_no_active_lane_that_can_still_fail_run() {
    let inputs = "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x12345678 exec=0x0";
    // A one-lane expectation states that the inactive lane kept its input:
    // the right value passes and a wrong one fails.
    assert_passes(&format!("{inputs}\tv1[3]=0x12345678"));
    assert_eq!(failures(&format!("{inputs}\tv1[3]=0x3f000000")), ["v1[3]"]);
    // Nothing expected: every register must keep its input.
    assert_passes(&format!("{inputs}\t"));
    // An SGPR has no lanes: it is compared whatever EXEC holds.
    let s = "gfx1201\t0xf0\tv_ldexp_f32 v1, v0, s4\tv0=0x3fc00000 s4=0x1 exec=0x0";
    assert_passes(&format!("{s}\ts4=0x00000001"));
    assert_eq!(failures(&format!("{s}\ts4=0x00000002")), ["s4"]);
}

/// The message and column of a row `parse_line` refuses.
fn malformed(text: &str) -> (usize, String) {
    let e = parse_line(1, text).expect_err(text);
    (e.column, e.message)
}

#[test]
fn a_register_assigned_twice_in_one_column_is_malformed() {
    // Columns counted by hand: target 1-7, tab, MODE 9-12, tab, the
    // 18-character instruction 14-31, tab, inputs from 33.
    let head = "gfx1201\t0xf0\tv_fract_f32 v1, v0\t";
    assert_eq!(
        malformed(&format!("{head}v0=0x3fc00000 v0=0x3fc00001\tv1=0x3f000000")),
        (
            47,
            "v0 is assigned twice in the inputs, at column 33 and column 47".into()
        )
    );
    // The expected column starts at 33 + 13 + 1 = 47; its third word at
    // 47 + 13 + 1 + 6 + 1 = 68.
    assert_eq!(
        malformed(&format!(
            "{head}v0=0x3fc00000\tv1=0x3f000000 v2=0x0 v1=0x3f000000"
        )),
        (
            68,
            "v1 is assigned twice in the expected column, at column 47 and column 68".into()
        )
    );
    // A pair shares its VGPRs with single VGPRs and with overlapping pairs.
    assert_eq!(
        malformed(&format!("{head}v[0:1]=0x0 v1=0x0\tv1=0x0")),
        (
            44,
            "v1 is assigned twice in the inputs: by `v[0:1]` at column 33 and by `v1` at column 44"
                .into()
        )
    );
    assert!(malformed(&format!("{head}v[0:1]=0x0 v[1:2]=0x0\tv1=0x0"))
        .1
        .starts_with(
            "v1 is assigned twice in the inputs: by `v[0:1]` at column 33 and by `v[1:2]`"
        ));
    // The same lane twice, directly or through a pair.
    assert!(
        malformed(&format!("{head}v0=0x0 v1[3]=0x1 v1[3]=0x1\tv1=0x0"))
            .1
            .starts_with("v1[3] is assigned twice in the inputs, at column")
    );
    assert!(
        malformed(&format!("{head}v0=0x0\tv1=0x0 v[0:1][3]=0x0 v1[3]=0x0"))
            .1
            .starts_with("v1[3] is assigned twice in the expected column: by `v[0:1][3]` at")
    );
    // Registers without lanes and settings.
    for (inputs, name) in [
        ("s3=0x1 s3=0x1", "s3"),
        ("exec=0x1 exec=0x3", "exec"),
        ("wave=32 wave=64", "wave"),
        ("scc=0 scc=1", "scc"),
        ("vcc=0x1 vcc=0x1", "vcc"),
        ("ttmp2=0x1 ttmp2=0x2", "ttmp2"),
    ] {
        let (_, message) = malformed(&format!("{head}v0=0x0 {inputs}\tv1=0x0"));
        assert!(
            message.starts_with(&format!(
                "{name} is assigned twice in the inputs, at column"
            )),
            "{inputs}: {message}"
        );
    }
}

#[test]
fn one_register_in_different_lanes_or_columns_is_not_assigned_twice() {
    // A one-lane value beside the whole-register one takes its lane
    // (docs/captures.md §1); distinct lanes, distinct registers and the
    // same register in both columns are all single assignments.
    assert_passes(
        "gfx1201\t0xf0\tv_fract_f32 v1, v0\t\
         v0=0x3fc00000 v0[5]=0x3fa00000 v0[6]=0x3fa00000 v1=0x1 v2=0x2\t\
         v1=0x3f000000 v1[5]=0x3e800000 v1[6]=0x3e800000 v0=0x3fc00000 v0[5]=0x3fa00000 \
         v0[6]=0x3fa00000 v2=0x2",
    );
    // Adjacent pairs and a pair beside the VGPR after it.
    assert_passes(
        "gfx942\t0xf0\tv_fract_f64_e32 v[0:1], v[2:3]\t\
         v[2:3]=0x3ff8000000000000 v[0:1]=0x0 v4=0x4\tv[0:1]=0x3fe0000000000000 v4=0x4",
    );
}

#[test]
fn a_row_built_with_a_register_assigned_twice_does_not_run() {
    // `Row` fields are public: a row that never went through `parse_line`
    // is refused when it runs, not resolved last-wins.
    let mut row = parse_line(
        1,
        "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000\tv1=0x3f000000",
    )
    .expect("parses")
    .expect("a row");
    let extra = row.inputs[0];
    row.inputs.push(amdgpu_valu::capture::Assignment {
        value: 0x3fa0_0000,
        ..extra
    });
    assert_eq!(
        run_row(&row),
        Outcome::Error("v0 is assigned twice in the inputs".into())
    );
}

#[test]
fn replay_reports_a_row_that_cannot_fail_as_an_error() {
    let dir = std::env::temp_dir().join(format!("amdgpu-valu-unfailable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("rows.tsv");
    let bad = "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 exec=0x0\tv1=0x3f000000";
    let twice = "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v0=0x0\tv1=0x3f000000";
    std::fs::write(&path, format!("{EXAMPLE}\n{bad}\n{twice}\n")).expect("write");
    let (code, out) = replay_cli(&path, &[]);
    assert_eq!(code, Some(1), "{out}");
    let file = path.display();
    assert!(
        out.contains(&format!(
            "{file}:2:1: error: expected v1=0x3f000000 cannot fail: a whole-register value is \
             compared in active lanes only, and EXEC selects no lane of the wave32\n    {bad}\n"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{file}:3:47: malformed row: v0 is assigned twice in the inputs, at column 33 and \
             column 47\n"
        )),
        "{out}"
    );
    assert!(out.lines().any(|l| l == "1 passed, 2 failed"), "{out}");
}

#[test]
fn a_row_with_tens_of_thousands_of_assignments_is_checked_in_linear_time() {
    // 256 VGPRs x 64 lanes = 16,384 one-lane inputs and as many one-lane
    // expectations (about 600 KB), each register once: the repeat and
    // cannot-fail checks look at each assignment a bounded number of
    // times (a pairwise check would make 1.3e8 comparisons per column).
    // Every register is 0 in every lane, and fract(+0) = +0 leaves v1 0.
    let mut inputs = String::new();
    let mut expected = String::new();
    for r in 0..256 {
        for lane in 0..64 {
            inputs.push_str(&format!("v{r}[{lane}]=0x0 "));
            expected.push_str(&format!("v{r}[{lane}]=0x0 "));
        }
    }
    let row = format!("gfx942\t0xf0\tv_fract_f32_e32 v1, v0\t{inputs}\t{expected}");
    let start = std::time::Instant::now();
    assert_passes(&row);
    // The same with one lane repeated at the very end of each column.
    let twice = format!("gfx942\t0xf0\tv_fract_f32_e32 v1, v0\t{inputs}v9[9]=0x0\t{expected}");
    assert!(malformed(&twice)
        .1
        .starts_with("v9[9] is assigned twice in the inputs"));
    eprintln!("two 16,384-assignment rows in {:?}", start.elapsed());
}
