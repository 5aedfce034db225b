//! Hostile text gives an error with a column, never a panic: huge and
//! negative numbers in every numeric position (register indices and ranges,
//! lanes, immediates, modifier values, MODE, EXEC), signs after `0x`,
//! nested and repeated modifiers, long token runs and non-ASCII text, fed
//! through `asm::parse`, `asm::assemble`, the capture reader and `eval`'s
//! arguments.
//!
//! The test profile keeps overflow checks on (asserted below), so an
//! unchecked `+` or `-` on a number from the text panics here instead of
//! wrapping quietly.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::{Command, Output};
use std::sync::OnceLock;

use amdgpu_valu::capture::{parse_assignment, parse_file, parse_line};
use amdgpu_valu::{asm, Target};

/// Fails unless this build panics on integer overflow; every test here
/// calls it first, so none passes quietly in a build without the checks.
fn require_overflow_checks() {
    static CHECKED: OnceLock<Result<u32, String>> = OnceLock::new();
    // Tried once per run (it prints one panic message).
    let wrapped = CHECKED.get_or_init(|| {
        let max = std::hint::black_box(u32::MAX);
        catch_unwind(|| max + std::hint::black_box(1)).map_err(|_| "panicked".into())
    });
    assert!(wrapped.is_err(), "overflow checks are off: {wrapped:?}");
}

/// Numbers no register, lane, modifier or 32-bit field can hold, written
/// in every way the parsers might read them.
const HUGE: &[&str] = &[
    "256",
    "4294967295",
    "4294967296",
    "4294967297",
    "18446744073709551615",
    "18446744073709551616",
    "170141183460469231731687303715884105727",
    "340282366920938463463374607431768211456",
    "9999999999999999999999999999999999999999999999999999999999999999999999999999999999",
    "0x100000000",
    "0xffffffffffffffff",
    "0x10000000000000000",
    "0b11111111111111111111111111111111111111111111111111111111111111111111",
    "0777777777777777777777777",
    "-1",
    "-4294967295",
    "-4294967296",
    "-18446744073709551615",
    "-18446744073709551616",
    "-9999999999999999999999999999999999999999999",
    "1e999999999999999999",
    "1e-999999999999999999",
    "+1",
    "0x+1",
    "0x-1",
    "٣",
    "１",
];

/// Every numeric position of the assembler, `{}` marking the number.
const ASM_MUST_FAIL: &[&str] = &[
    "v_fract_f32 v{}, v0",
    "v_fract_f32 v0, v{}",
    "v_fract_f32 v0, s{}",
    "v_fract_f32 v0, v[{}]",
    "v_fract_f32 v0, s[{}]",
    "v_fract_f64 v[{}:{}], v[0:1]",
    "v_fract_f64 v[0:{}], v[0:1]",
    "v_fract_f64 v[1:{}], v[0:1]",
    "v_fract_f64 v[{}:1], v[0:1]",
    "v_fract_f64 v[0:1], s[{}:{}]",
    "v_fract_f64 v[0:1], s[0:{}]",
    "v_fract_f64 v[0:1], s[1:{}]",
    "v_fract_f64 v[0:1], s[{}:1]",
    "v_fract_f16 v{}.l, v0.h",
    "v_fract_f16 v0.l, v{}.h",
    "v_fract_f16 v0, s{}.l",
    "v_ldexp_f32 v0, v1, s{}",
    "v_ldexp_f32_e64 v0, v1, v[{}:{}]",
    "v_fract_f32_e64 v0, v1 mul:{}",
    "v_fract_f32_e64 v0, v1 div:{}",
    "v_fract_f32_e64 v0, v1 clamp mul:{}",
    "v_fract_f16_e64 v0.h, v1.l op_sel:[{},0]",
    "v_fract_f16_e64 v0.h, v1.l op_sel:[0,{}]",
    "v_ldexp_f16_e64 v0.h, v1.l, v2.l op_sel:[{},{},{}]",
    "v_fract_f32 v0, lit({}",
    "v_fract_f32 v0, {}(",
];

/// Numeric positions where some huge numbers are valid (a 64-bit literal,
/// an inline integer): whatever the answer, it comes without a panic and an
/// error has a column.
const ASM_ANY: &[&str] = &[
    "v_fract_f32 v0, {}",
    "v_fract_f32 v0, -{}",
    "v_fract_f32_e64 v0, -|{}|",
    "v_fract_f32_e64 v0, neg(abs({}))",
    "v_fract_f64 v[0:1], {}",
    "v_fract_f64_e64 v[0:1], -{}",
    "v_fract_f16 v0, {}",
    "v_fract_f16_e64 v0, |{}|",
    "v_ldexp_f32 v0, {}, {}",
    "v_ldexp_f16 v0, v1, {}",
    "v_ldexp_f16_e64 v0, v1, -{}",
    "v_ldexp_f64 v[0:1], v[2:3], {}",
    "v_ldexp_f16_sdwa v0, sext({}), v1",
    "v_ldexp_f16_sdwa v0, v1, sext({})",
    "v_fract_f32 v0, lit({})",
    "v_fract_f32 v0, lit64({})",
    "v_fract_f64 v[0:1], lit({})",
    "v_fract_f64 v[0:1], lit64({})",
    "v_fract_f32 v0, {}+{}",
    "v_fract_f32 v0, {}-{}",
    "v_fract_f32 v0, -{}-{}+{}",
    "v_fract_f64 v[0:1], 1+{}",
    "v_fract_f32 v0, {}.5",
    "v_fract_f32 v0, 1e{}",
    "v_fract_f32 v0, 0x{}",
    "v_fract_f32 v0, 0b{}",
];

/// A column, 1-based, in the text or just past its end.
fn column_ok(column: usize, text: &str) -> bool {
    (1..=text.len() + 1).contains(&column)
}

/// `asm::parse` and `asm::assemble` on every target, without panicking;
/// the parse result of the first target.
fn assemble_everywhere(text: &str, failures: &mut Vec<String>) -> Vec<Result<(), usize>> {
    let mut out = Vec::new();
    for t in Target::ALL {
        let run = catch_unwind(AssertUnwindSafe(|| {
            (asm::parse(t, text), asm::assemble(t, text))
        }));
        let Ok((parsed, assembled)) = run else {
            failures.push(format!("{t} `{text}`: panicked"));
            continue;
        };
        for e in [parsed.as_ref().err(), assembled.as_ref().err()]
            .into_iter()
            .flatten()
        {
            if !column_ok(e.column, text) {
                failures.push(format!("{t} `{text}`: column {} out of the text", e.column));
            }
        }
        if parsed.is_ok() != assembled.is_ok() {
            failures.push(format!("{t} `{text}`: parse and assemble disagree"));
        }
        out.push(parsed.map(|_| ()).map_err(|e| e.column));
    }
    out
}

fn fill(template: &str, n: &str) -> String {
    template.replace("{}", n)
}

fn report(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

#[test]
fn overflow_checks_are_on_in_this_profile() {
    require_overflow_checks();
}

#[test]
fn assembler_refuses_huge_numbers_with_a_column() {
    require_overflow_checks();
    let mut failures = Vec::new();
    for template in ASM_MUST_FAIL {
        for n in HUGE {
            let text = fill(template, n);
            for (t, r) in Target::ALL
                .iter()
                .zip(assemble_everywhere(&text, &mut failures))
            {
                if r.is_ok() {
                    failures.push(format!("{t} `{text}`: accepted"));
                }
            }
        }
    }
    for template in ASM_ANY {
        for n in HUGE {
            assemble_everywhere(&fill(template, n), &mut failures);
        }
    }
    report(&failures);
}

/// The inputs of the issue, each refused at the operand that holds them.
#[test]
fn register_ranges_near_2_pow_32_point_at_their_operand() {
    require_overflow_checks();
    for (text, column) in [
        ("v_fract_f32 v[1:4294967295], v0", 13),
        ("v_fract_f32 v[0:4294967295], v0", 13),
        ("v_fract_f32 v0, s4294967295", 17),
        ("v_fract_f32 v0, s[4294967295:4294967295]", 17),
        ("v_fract_f64 v[0:1], v[0:4294967295]", 21),
        ("v_fract_f64 v[0:1], s[4294967294:4294967295]", 21),
        ("v_fract_f32 v0, v99999999999999999999999", 17),
        ("v_fract_f32_e64 v0, v1 mul:4294967298", 24),
        ("v_fract_f16_e64 v0.h, v1.l op_sel:[4294967297,0]", 36),
    ] {
        for t in Target::ALL {
            let e = asm::parse(t, text).expect_err(text);
            assert_eq!(e.column, column, "{t} `{text}`: {e}");
            assert_eq!(asm::assemble(t, text).map_err(|e| e.column), Err(column));
        }
    }
}

/// `a-b+c` is `(a-b)+c`, as LLVM reads it; a long run of terms is a loop,
/// not one stack frame per term.
#[test]
fn integer_expressions_are_left_to_right_and_any_length() {
    require_overflow_checks();
    let t = Target::Gfx1201;
    // 1-2+3 = 2 (inline constant 130); read right to left it would be -4 (196).
    let bytes = asm::assemble(t, "v_fract_f32 v0, 1-2+3").expect("valid");
    assert_eq!(bytes, asm::assemble(t, "v_fract_f32 v0, 2").expect("valid"));
    assert_eq!(bytes[0], 130, "{bytes:x?}");
    // 64 - 1 - 1 - ... (62 times) = 2
    let text = format!("v_fract_f32 v0, 64{}", "-1".repeat(62));
    assert_eq!(asm::assemble(t, &text).expect("valid")[0], 130);

    let long = format!("v_fract_f32 v0, 1{}", "+1".repeat(200_000));
    // 200001 = 0x30d41 is a literal.
    let bytes = asm::assemble(t, &long).expect("valid");
    assert_eq!(&bytes[4..], &[0x41, 0x0d, 0x03, 0x00]);
    let huge = format!(
        "v_fract_f64 v[0:1], 1{}",
        "+18446744073709551615".repeat(100_000)
    );
    let mut failures = Vec::new();
    assemble_everywhere(&huge, &mut failures);
    report(&failures);
}

#[test]
fn nested_repeated_and_non_ascii_text_is_refused_with_a_column() {
    require_overflow_checks();
    let deep = 10_000;
    let many = [
        format!(
            "v_fract_f32_e64 v0, {}v1{}",
            "neg(".repeat(deep),
            ")".repeat(deep)
        ),
        format!(
            "v_fract_f32_e64 v0, {}v1{}",
            "abs(".repeat(deep),
            ")".repeat(deep)
        ),
        format!(
            "v_fract_f32_e64 v0, {}v1{}",
            "|".repeat(deep),
            "|".repeat(deep)
        ),
        format!("v_fract_f32_e64 v0, {}v1", "-".repeat(deep)),
        format!("v_fract_f32_e64 v0, {}1.0", "-".repeat(deep)),
        format!("v_fract_f32_e64 v0, v1{}", " clamp".repeat(deep)),
        format!("v_fract_f32_e64 v0, v1{}", " mul:2".repeat(deep)),
        format!("v_fract_f32 v0{}", ", v1".repeat(deep)),
        format!("v_fract_f32 v0, v1{}", ",".repeat(deep)),
        format!("v_fract_f32 v0, {}", "lit(".repeat(deep)),
        format!("v_fract_f32 v0, v[{}", "[".repeat(deep)),
        format!("v_fract_f32 v0, v[1{}]", ":1".repeat(deep)),
        format!("v_fract_f32 v0, {}", "9".repeat(deep)),
        format!("v_fract_f32 v0, 1{}", "0".repeat(deep)),
        format!("v_fract_f32 v0, v1{}", ".l".repeat(deep)),
        format!("v_fract_f32 v0, v1 op_sel:[{}0]", "0,".repeat(deep)),
        "v_fract_f32_e64 v0, neg(neg(v1))".into(),
        "v_fract_f32_e64 v0, --v1".into(),
        "v_fract_f32_e64 v0, -|-v1|".into(),
        "v_fract_f32_e64 v0, ||v1||".into(),
        "v_fract_f32_e64 v0, abs(|v1|)".into(),
        "v_fract_f32 v0, v１".into(),
        "v_fract_f32 v0, v٣".into(),
        "v_fract_f32 v0, é".into(),
        "v_fract_f32 v0,\u{a0}v1".into(),
        "v_fract_f32\u{2003}v0, v1".into(),
        "v_frac\u{301}t_f32 v0, v1".into(),
        "v_fract_f32 v0, v1 mul:２".into(),
        "v_fract_f32 v0, v1 dst_sel:WORD_１".into(),
        "v_fract_f32 v0, \u{202e}v1".into(),
        "v_fract_f32 v0, 🦀".into(),
        "🦀".into(),
        "\u{feff}v_fract_f32 v0, v1".into(),
        "v_fract_f32 v0, lit(0x+1)".into(),
        "v_fract_f32 v0, 0x+1".into(),
        "v_fract_f32 v0, 0x-1".into(),
        "v_fract_f32 v0, 0x".into(),
        "v_fract_f32 v0, 0b2".into(),
        "v_fract_f32 v0, 09".into(),
        "v_fract_f32 v0, 1+".into(),
        "v_fract_f32 v0, 1+0x".into(),
        "v_fract_f32 v0, 1+1.5".into(),
    ];
    let mut failures = Vec::new();
    for text in &many {
        let results = assemble_everywhere(text, &mut failures);
        if results.iter().any(Result::is_ok) {
            failures.push(format!("`{}` accepted", &text[..text.len().min(80)]));
        }
    }
    // Valid, as in LLVM: a decimal that underflows to 0, leading zeros, an
    // exponent without digits.
    for text in [
        "v_fract_f32 v0, 1e".into(),
        "v_fract_f32 v0, 1e+".into(),
        format!("v_fract_f32 v0, 0.{}1", "0".repeat(deep)),
        format!("v_fract_f32 v0, v{}", "0".repeat(deep)),
    ] {
        assemble_everywhere(&text, &mut failures);
    }
    report(&failures);
}

/// Positions of an assignment, `{}` marking the number.
const ASSIGNMENTS: &[&str] = &[
    "v{}=0x0",
    "s{}=0x0",
    "v[{}:{}]=0x0",
    "v[0:{}]=0x0",
    "v[1:{}]=0x0",
    "v[{}:1]=0x0",
    "v0[{}]=0x0",
    "v[0:1][{}]=0x0",
    "s0[{}]=0x0",
    "wave={}",
    "v0={}",
    "v0=0x00000000{}",
    "v[0:1]=0x0000000000000000{}",
    "v0[0]={}",
];

#[test]
fn capture_assignments_refuse_huge_numbers_with_a_column() {
    require_overflow_checks();
    let mut failures = Vec::new();
    let mut check = |word: &str, must_fail: bool| match catch_unwind(|| parse_assignment(word)) {
        Err(_) => failures.push(format!("`{word}`: panicked")),
        Ok(Ok(_)) if must_fail => failures.push(format!("`{word}`: accepted")),
        Ok(Ok(_)) => {}
        Ok(Err(e)) if !(1..=word.chars().count() + 1).contains(&e.column) => {
            failures.push(format!("`{word}`: column {} out of the word", e.column))
        }
        Ok(Err(_)) => {}
    };
    for template in ASSIGNMENTS {
        for n in HUGE {
            check(&fill(template, n), true);
        }
    }
    for n in HUGE {
        // Some of these are valid hex values.
        for template in [
            "exec=0x{}",
            "exec={}",
            "v0=0x{}",
            "v[0:1]=0x{}",
            "v1[3]=0x{}",
        ] {
            check(&fill(template, n), false);
        }
    }
    for word in [
        "v0=0x+1",
        "v0=0x-1",
        "v0=0X+ff",
        "v[0:1]=0x+123",
        "exec=0x+1",
        "v0=0x 1",
        "v0=0x１",
        "v+1=0x0",
        "v-0=0x0",
        "s+4=0x0",
        "v[+0:1]=0x0",
        "v[0:+1]=0x0",
        "v0[+1]=0x0",
        "v0[-0]=0x0",
        "v0[]=0x0",
        "v０=0x0",
        "wave=+32",
        "wave=032",
        "v0==0x0",
        "=0x0",
        "v0[[1]]=0x0",
        "v[[0:1]]=0x0",
        "v[0:1:2]=0x0",
        "é=0x0",
        "v0=é",
        "v0[é]=0x0",
    ] {
        check(word, true);
    }
    report(&failures);
}

/// The columns point into the word: at the character that is wrong.
#[test]
fn capture_assignment_errors_point_at_the_character() {
    require_overflow_checks();
    for (word, column) in [
        ("v0=0x+1", 6),
        ("v0=0x1g", 7),
        ("v0=0x", 4),
        ("v0=12", 4),
        ("v0=0x100000000", 4),
        ("exec=0x-1", 8),
        ("v4294967296=0x0", 2),
        ("v[0:4294967295]=0x0", 5),
        ("v[1:3]=0x0", 5),
        ("v0[18446744073709551616]=0x0", 4),
        ("v0[+1]=0x0", 4),
        ("é[1]=0x0", 1),
        ("v0[1]=0x+1", 9),
        ("wave=4294967296", 6),
    ] {
        let e = parse_assignment(word).expect_err(word);
        assert_eq!(e.column, column, "`{word}`: {e}");
    }
}

#[test]
fn capture_rows_refuse_hostile_text_with_line_and_column() {
    require_overflow_checks();
    let mut rows: Vec<String> = Vec::new();
    let row = |mode: &str, inputs: &str, expected: &str| {
        format!("gfx1201\t{mode}\tv_fract_f32 v0, v1\t{inputs}\t{expected}")
    };
    for n in HUGE {
        rows.push(row(n, "v1=0x0", "v0=0x0"));
        rows.push(row(&format!("0x0000000{n}"), "v1=0x0", "v0=0x0"));
        for template in ASSIGNMENTS {
            let a = fill(template, n);
            rows.push(row("0xf0", &a, "v0=0x0"));
            rows.push(row("0xf0", "v1=0x0", &a));
            rows.push(row("0xf0", &format!("v1=0x0 {a} v2=0x0"), "v0=0x0"));
        }
        rows.push(format!(
            "gfx1201\t0xf0\tv_fract_f32 v0, v1\tv1=0x0\tv0=0x0\t[0x{n}]"
        ));
        rows.push(format!(
            "gfx1201\t0xf0\tv_fract_f32 v0, v1\tv1=0x0\tv0=0x0\t[{n}]"
        ));
        rows.push(format!("gfx{n}\t0xf0\tv_fract_f32 v0, v1\tv1=0x0\tv0=0x0"));
    }
    for mode in [
        "0x+f0",
        "0x-1",
        "+0xf0",
        "0x\u{ff10}",
        "０xf0",
        "0xf0\u{301}",
    ] {
        rows.push(row(mode, "v1=0x0", "v0=0x0"));
    }
    rows.push(row("0xf0", &"v1=0x0 ".repeat(10_000), "v0=0x+0"));
    rows.push(row("0xf0", "é v1=0x0", "v0=0x0"));
    rows.push(row("0xf0", "v1=0x0", "v0=0x0\u{3000}v1=0x+1"));
    rows.push(format!("x{}", "\t".repeat(10_000)));
    let mut failures = Vec::new();
    for (i, text) in rows.iter().enumerate() {
        let line = i + 1;
        match catch_unwind(|| parse_line(line, text)) {
            Err(_) => failures.push(format!("line {line} `{text}`: panicked")),
            Ok(Ok(_)) => failures.push(format!("line {line} `{text}`: accepted")),
            Ok(Err(e)) => {
                if e.line != line || !(1..=text.chars().count() + 1).contains(&e.column) {
                    failures.push(format!("line {line} `{text}`: {e}"));
                }
            }
        }
    }
    // The same rows as one file, with CRLF endings and a comment between.
    let file = rows.join("\r\n# comment\r\n");
    let parsed = catch_unwind(|| parse_file(&file));
    match parsed {
        Err(_) => failures.push("parse_file panicked".into()),
        Ok(parsed) => {
            assert_eq!(parsed.len(), rows.len());
            for (i, r) in parsed.iter().enumerate() {
                match r {
                    Err(e) if e.line == 2 * i + 1 => {}
                    other => failures.push(format!("file row {}: {other:?}", i + 1)),
                }
            }
        }
    }
    report(&failures);
}

#[test]
fn capture_row_columns_point_at_the_character() {
    require_overflow_checks();
    // gfx1201 TAB 0xf0 TAB ... : columns 1, 9, 14.
    let head = "gfx1201\t0xf0\tv_fract_f32 v0, v1\t";
    let inputs = head.chars().count() + 1;
    for (text, column) in [
        (
            "gfx1201\t0x+f0\tv_fract_f32 v0, v1\tv1=0x0\tv0=0x0".to_string(),
            11,
        ),
        (format!("{head}v1=0x0 v2=0x+1\tv0=0x0"), inputs + 12),
        (format!("{head}v1=0x0 v4294967296=0x0\tv0=0x0"), inputs + 8),
        (format!("{head}é v1=0x+1\tv0=0x0"), inputs),
        (format!("{head}é v1=0x+1 \tv0=0x0"), inputs),
        (format!("{head}v1=0x0 v1[é]=0x0\tv0=0x0"), inputs + 10),
        (format!("{head}ééé v1=0x+1\tv0=0x0"), inputs),
        (format!("{head}v1=0x0\tv0=0x0\t[0x01,0x+1]"), inputs + 22),
        (format!("{head}v1=0x0\tv0=0x0\t[0x01, 0x1é]"), inputs + 24),
    ] {
        let e = parse_line(1, &text).expect_err(&text);
        assert_eq!(e.column, column, "`{text}`: {e}");
    }
    // The instruction's column counts characters, blanks included.
    let row = parse_line(
        1,
        "gfx1201\t0xf0\t\u{3000}\u{3000}v_fract_f32 v0, v1\tv1=0x0\tv0=0x0",
    )
    .expect("valid")
    .expect("a row");
    assert_eq!(row.instruction_column, 16);
}

fn eval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_amdgpu-valu"))
        .arg("eval")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `eval`'s own arguments (`--mode`, `--exec`, `--wave`, the assignments
/// and the instruction): an error naming a column and exit status 2, never
/// a panic (status 101).
#[test]
fn eval_arguments_refuse_hostile_text_with_a_column() {
    require_overflow_checks();
    let instr = "v_fract_f32 v0, v1";
    let mut cases: Vec<Vec<String>> = Vec::new();
    let case = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for n in [
        "0x+1",
        "+1",
        "0x-1",
        "0x",
        "",
        "0x100000000",
        "99999999999999999999",
        "0x10000000000000000",
        "-1",
        "１",
        "0xf0é",
    ] {
        cases.push(case(&[
            "--target",
            "gfx1201",
            &format!("--mode={n}"),
            instr,
        ]));
    }
    for n in [
        "0x+1",
        "+1",
        "0x-1",
        "0x",
        "",
        "0x10000000000000000",
        "-1",
        "0x1 ",
    ] {
        cases.push(case(&[
            "--target",
            "gfx1201",
            &format!("--exec={n}"),
            instr,
        ]));
    }
    for n in ["16", "4294967296", "-1", "+32", "32x", "", "٣٢"] {
        cases.push(case(&[
            "--target",
            "gfx1201",
            &format!("--wave={n}"),
            instr,
        ]));
    }
    for a in [
        "v1=0x+1",
        "v1=0x-1",
        "v4294967295=0x0",
        "v[1:4294967295]=0x0",
        "v[0:4294967295]=0x0",
        "v1[18446744073709551616]=0x0",
        "s99999999999999999999=0x0",
        "v1[+1]=0x0",
        "exec=0x+1",
        "wave=4294967296",
        "v１=0x0",
    ] {
        cases.push(case(&["--target", "gfx1201", instr, a]));
    }
    for i in [
        "v_fract_f32 v[1:4294967295], v0",
        "v_fract_f32 v0, s4294967295",
        "v_fract_f64 v[0:1], v[0:4294967295]",
        "v_fract_f32 v0, 0x+1",
        "v_fract_f32_e64 v0, v1 mul:18446744073709551617",
    ] {
        cases.push(case(&["--target", "gfx1201", i]));
    }
    let mut failures = Vec::new();
    for args in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = eval(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        if o.status.code() != Some(2) || !err.contains("column") {
            failures.push(format!("{args:?}: status {:?}: {err}", o.status.code()));
        }
    }
    // The same hostile values are fine where valid.
    let o = eval(&[
        "--target",
        "gfx1201",
        "--mode=f0",
        "--exec=0x1",
        "--wave=32",
        instr,
        "v1=0x3fc00000",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    report(&failures);
}
