//! The `amdgpu-valu` command from the outside: replay of the bundled corpus
//! and of broken files, eval explanations, asm and disasm.

use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_amdgpu-valu"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn write_capture(name: &str, body: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("amdgpu-valu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, body).expect("write capture");
    path
}

#[test]
fn replay_of_the_bundled_corpus_passes() {
    let o = run(&["replay"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.lines().any(|l| l == "194 passed, 0 failed"), "{out}");
    // The per-target table.
    let row = |t: &str| {
        out.lines()
            .find(|l| l.starts_with(t))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
    };
    assert_eq!(
        row("gfx1201"),
        Some(vec!["gfx1201", "98", "98", "0"]),
        "{out}"
    );
    assert_eq!(
        row("gfx1030"),
        Some(vec!["gfx1030", "22", "22", "0"]),
        "{out}"
    );
}

const GOOD: &str =
    "gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv0=0xdeadbeef v1=0x3fc00000\tv0=0x3f000000";

#[test]
fn replay_reports_each_malformed_row_and_runs_the_rest() {
    let rows = [
        "# a comment, then one good row and one of each malformed kind",
        GOOD,
        "gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv0=0xdeadbeef v1=0x3fc0000g\tv0=0x3f000000",
        "gfx1234\t0x000000f0\tv_fract_f32_e32 v0, v1\tv1=0x3fc00000\tv0=0x3f000000",
        "gfx1201\t0x000000f0\tv_fract_f32_sdwa v0, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD\tv1=0x3fc00000\tv0=0x3f000000",
        "gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv300=0x3fc00000\tv0=0x3f000000",
        "gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv1=0x3fc00000",
        "gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv0=0xdeadbeef v1=0x3fc00000\tv0=0x3f000001",
        GOOD,
    ];
    let path = write_capture("broken.tsv", &rows.join("\n"));
    let o = run(&["replay", path.to_str().expect("utf-8 path")]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let file = path.display().to_string();
    // Bad hex: line 3, column of the assignment.
    assert!(
        out.contains(&format!("{file}:3:")) && out.contains("is not hex"),
        "{out}"
    );
    // Unknown target: line 4, column 1.
    assert!(
        out.contains(&format!(
            "{file}:4:1: malformed row: unknown target `gfx1234`"
        )),
        "{out}"
    );
    // An instruction the target lacks: line 5, at the instruction's column.
    assert!(
        out.contains(&format!("{file}:5:")) && out.contains("sdwa"),
        "{out}"
    );
    // Register out of range.
    assert!(
        out.contains(&format!("{file}:6:")) && out.contains("v300"),
        "{out}"
    );
    // Too few columns.
    assert!(
        out.contains(&format!(
            "{file}:7:1: malformed row: expected 5 or 6 tab-separated columns"
        )),
        "{out}"
    );
    // A wrong expectation: expected and actual bits.
    assert!(out.contains(&format!("{file}:8: FAIL")), "{out}");
    assert!(
        out.contains("v0: expected 0x3f000001, actual 0x3f000000"),
        "{out}"
    );
    assert!(out.lines().any(|l| l == "2 passed, 6 failed"), "{out}");
}

#[test]
fn replay_checks_the_encoding_column_and_untouched_registers() {
    let rows = [
        // The right bytes.
        format!("{GOOD}\t[0x01,0x41,0x00,0x7e]"),
        // Wrong bytes.
        format!("{GOOD}\t[0x01,0x41,0x00,0x7f]"),
        // Lane 3 inactive: it must keep v0.
        "gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv0=0xdeadbeef v1=0x3fc00000 exec=0xfffffff7\tv0=0x3f000000".into(),
        // A lane named in the expectation that the instruction does not write.
        "gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv0=0xdeadbeef v1=0x3fc00000 exec=0xfffffff7\tv0=0x3f000000 v0[3]=0x3f000000".into(),
        // wave64 on gfx942 with an F64 pair.
        "gfx942\t0x000000f0\tv_fract_f64_e32 v[0:1], v[2:3]\tv[2:3]=0xc006000000000000 wave=64\tv[0:1]=0x3fd0000000000000".into(),
    ];
    let path = write_capture("encodings.tsv", &rows.join("\n"));
    let o = run(&["replay", path.to_str().expect("utf-8 path")]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("encoding: expected [0x01,0x41,0x00,0x7f], assembled [0x01,0x41,0x00,0x7e]"),
        "{out}"
    );
    assert!(
        out.contains("v0[3]: expected 0x3f000000, actual 0xdeadbeef"),
        "{out}"
    );
    assert!(out.lines().any(|l| l == "3 passed, 2 failed"), "{out}");
}

#[test]
fn invalid_utf8_is_one_malformed_row() {
    let dir = std::env::temp_dir().join(format!("amdgpu-valu-cli-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("latin1.tsv");
    let mut body = format!("{GOOD}\n").into_bytes();
    body.extend_from_slice(
        b"gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv1=0x3fc00000\tv0=0x3f000000 \xe9\n",
    );
    body.extend_from_slice(format!("{GOOD}\n").as_bytes());
    std::fs::write(&path, body).expect("write");
    let o = run(&["replay", path.to_str().expect("utf-8 path")]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // The byte 0xe9 follows 70 ASCII characters: 7 + 1 + 10 + 1 + 22 + 1 +
    // 13 + 1 + 13 + 1 (target, MODE, instruction, inputs, expected, tabs
    // and the space). The excerpt starts 20 bytes before it, at byte 50:
    // the last 5 digits of `v1=0x3fc00000`.
    assert!(
        out.contains(&format!(
            "{}:2:71: malformed row: not UTF-8 (byte 0xe9 at column 71)\n    \
             at: ...\"00000\\tv0=0x3f000000 \\xe9\"\n",
            path.display()
        )),
        "{out}"
    );
    assert!(out.lines().any(|l| l == "2 passed, 1 failed"), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["replay", "no-such-file.tsv"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        run(&["eval", "--target", "gfx9999", "v_fract_f32 v0, v1"])
            .status
            .code(),
        Some(2)
    );
    let o = run(&["eval", "--target", "gfx1201", "v_fract_f32 v0, v1 mul:3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("column"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn eval_explains_omod_ignored_under_ieee() {
    let o = run(&[
        "eval",
        "--target",
        "gfx1100",
        "--mode",
        "0x2f0",
        "v_fract_f16_e64 v0.l, -v1.l mul:2",
        "v0=0xa5a5a5a5",
        "v1=0x00000001",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with("v0 = 0xa5a53bff  (lo f16 0.99951171875)"),
        "{out}"
    );
    assert!(out.contains("mul:2: ignored: MODE.IEEE=1"), "{out}");
    assert!(out.contains("capped at 1 - ulp"), "{out}");
}

#[test]
fn eval_explains_flush_at_full_precision() {
    let o = run(&[
        "eval",
        "--target",
        "gfx1201",
        "--mode",
        "0xd0",
        "v_ldexp_f32 v0, v1, v2",
        "v0=0xdeadbeef",
        "v1=0x3f7fffff",
        "v2=0xffffff82",
    ]);
    let out = stdout(&o);
    assert!(out.starts_with("v0 = 0x00000000  (f32 0)"), "{out}");
    assert!(out.contains("tiny at full precision"), "{out}");
    assert!(
        out.contains("because output subnormals are flushed"),
        "{out}"
    );
    let o = run(&[
        "eval",
        "--target",
        "gfx1201",
        "v_ldexp_f16_e64 v0.l, v1.l, v2.l mul:2",
        "v1=0x3bff",
        "v2=0xfff2",
    ]);
    assert!(
        stdout(&o).contains("because OMOD is effective"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn eval_explains_fp16_ovfl_saturation() {
    let o = run(&[
        "eval",
        "--target",
        "gfx1201",
        "--mode",
        "0x008000f0",
        "--exec",
        "0x3",
        "v_ldexp_f16 v0.h, v1.l, v2.l",
        "v1=0x3c00",
        "v2=0x7fff",
    ]);
    let out = stdout(&o);
    assert!(
        out.starts_with("v0[0-1] = 0x7bff0000  (hi f16 65504)"),
        "{out}"
    );
    assert!(
        out.contains("FP16_OVFL=1 saturates to the largest finite value"),
        "{out}"
    );
}

#[test]
fn eval_json_is_one_object() {
    let o = run(&["eval", "--json", "--target", "gfx1030", "--mode", "0", "v_ldexp_f16_sdwa v0, v1, v2 div:2 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0", "v0=0xa5a5a5a5", "v1=0x8400"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["result"], "0x8000");
    assert_eq!(v["changed"][0]["register"], "v0");
    assert_eq!(v["changed"][0]["after"], "0xa5a58000");
    let stages: Vec<&str> = v["explanation"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|s| s["stage"].as_str())
        .collect();
    assert_eq!(stages, ["mode", "source", "operation", "omod", "result"]);
}

#[test]
fn asm_and_disasm_round_trip() {
    let o = run(&[
        "asm",
        "--target",
        "gfx1201",
        "v_ldexp_f32 v0, |v1|, v2 clamp mul:2",
    ]);
    assert_eq!(
        stdout(&o).trim(),
        "[0x00,0x81,0x1c,0xd7,0x01,0x05,0x02,0x08]"
    );
    let o = run(&[
        "disasm",
        "--target",
        "gfx1201",
        "[0x00,0x81,0x1c,0xd7,0x01,0x05,0x02,0x08]",
    ]);
    assert!(
        stdout(&o).starts_with("v_ldexp_f32 v0, |v1|, v2 clamp mul:2"),
        "{}",
        stdout(&o)
    );
    let o = run(&["disasm", "--target", "gfx908", "01 91 00 7e"]);
    assert!(
        stdout(&o).starts_with("v_fract_f16_e32 v0, v1"),
        "{}",
        stdout(&o)
    );
    let o = run(&["disasm", "--target", "gfx908", "01 91 00"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_closed_stdout_is_an_error_not_a_panic() {
    // `amdgpu-valu targets | head -1`: the reader goes away early.
    for args in [
        &["targets"][..],
        &["asm", "--target", "gfx1201", "v_fract_f32 v0, v1"],
    ] {
        let mut child = bin()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("exits");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
    }
}

#[test]
fn eval_lists_the_dpp_lanes() {
    // row_shr:1 with lane 4 inactive on gfx1100: lane 0 is out of range
    // (bound_ctrl clear), lane 5 reads inactive lane 4 without fi.
    let o = run(&[
        "eval",
        "--target",
        "gfx1100",
        "--exec",
        "0xffffffef",
        "v_fract_f32_dpp v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
        "v0=0xdeadbeef",
        "v1=0x3f000000",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("dpp lanes:"), "{out}");
    assert!(
        out.contains("  lane 0  not written: source out of range and bound_ctrl is 0"),
        "{out}"
    );
    assert!(out.contains("  lane 1  src0 from lane 0"), "{out}");
    assert!(
        out.contains("  lane 5  not written: source lane 4 is inactive (fi:0) and bound_ctrl is 0"),
        "{out}"
    );
    assert!(
        out.contains("  dpp       lane 1: src0 from lane 0"),
        "{out}"
    );
}

#[test]
fn eval_takes_ttmp_scc_and_aperture_assignments() {
    // 1.5 x 2^SCC with SCC = 1: 3.0 (two constant-bus reads: GFX10 takes
    // two, GFX9 one).
    let o = run(&[
        "eval",
        "--target",
        "gfx1030",
        "v_ldexp_f32 v1, ttmp3, src_scc",
        "ttmp3=0x3fc00000",
        "scc=1",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.starts_with("v1 = 0x40400000  (f32 3)"), "{out}");
    // FRACT of the 64-bit aperture 1.5: 0.5.
    let o = run(&[
        "eval",
        "--target",
        "gfx1201",
        "v_fract_f64 v[2:3], src_shared_base",
        "src_shared_base=0x3ff8000000000000",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.starts_with("v[2:3] = 0x3fe0000000000000"), "{out}");
    // src_lds_direct decodes but does not run.
    let o = run(&[
        "eval",
        "--target",
        "gfx1030",
        "v_fract_f32 v1, src_lds_direct",
    ]);
    assert_ne!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not modelled"), "{err}");
}
