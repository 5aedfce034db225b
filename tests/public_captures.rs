//! Every row of `tests/captures/hw-public.tsv` (real hardware results), read
//! from the file: a new row is one line there. Each row's instruction text
//! goes through the assembler's parser and runs on a full wave with lane 5
//! inactive; the active lanes must hold the captured result bit for bit,
//! lane 5 and every register not named must be unchanged. A failure names
//! the row (file line and text) and every differing register.

mod common;
use amdgpu_valu::{asm, execute, Target, Wave};
use common::{poison, INACTIVE_LANE};

const FILE: &str = "tests/captures/hw-public.tsv";

/// One register assignment of a row: `vN=0x........` (32 bits) or
/// `v[N:N+1]=0x................` (a 64-bit pair, low dword in vN).
#[derive(Clone, Copy, Debug)]
struct Assign {
    reg: usize,
    value: u64,
    pair: bool,
}

fn assignments(field: &str) -> Result<Vec<Assign>, String> {
    field
        .split_whitespace()
        .map(|a| {
            let (name, value) = a.split_once('=').ok_or(format!("`{a}`: no `=`"))?;
            let hex = value
                .strip_prefix("0x")
                .ok_or(format!("`{a}`: not 0x hex"))?;
            let value = u64::from_str_radix(hex, 16).map_err(|e| format!("`{a}`: {e}"))?;
            let reg = |n: &str| n.parse::<usize>().map_err(|e| format!("`{a}`: {e}"));
            if let Some(range) = name.strip_prefix("v[").and_then(|r| r.strip_suffix(']')) {
                let (lo, hi) = range.split_once(':').ok_or(format!("`{a}`: bad range"))?;
                let (lo, hi) = (reg(lo)?, reg(hi)?);
                if hi != lo + 1 || hex.len() != 16 {
                    return Err(format!("`{a}`: a pair is v[N:N+1] with 16 hex digits"));
                }
                Ok(Assign {
                    reg: lo,
                    value,
                    pair: true,
                })
            } else if let Some(n) = name.strip_prefix('v') {
                if hex.len() != 8 {
                    return Err(format!("`{a}`: a VGPR takes 8 hex digits"));
                }
                Ok(Assign {
                    reg: reg(n)?,
                    value,
                    pair: false,
                })
            } else {
                Err(format!("`{a}`: only VGPRs are captured"))
            }
        })
        .collect()
}

fn set(wave: &mut Wave, a: Assign, lane: Option<usize>) -> Result<(), String> {
    let r = match (a.pair, lane) {
        (false, None) => wave.set_vgpr_all(a.reg, a.value as u32),
        (false, Some(l)) => wave.set_vgpr(a.reg, l, a.value as u32),
        (true, None) => wave.set_vgpr64_all(a.reg, a.value),
        (true, Some(l)) => wave.set_vgpr64(a.reg, l, a.value),
    };
    r.map_err(|e| format!("v{}: {e}", a.reg))
}

/// Run one row; Err describes everything that differs.
fn run_row(row: &str) -> Result<(), String> {
    let fields: Vec<&str> = row.split('\t').collect();
    let [target, mode, text, inputs, expected] = fields[..] else {
        return Err(format!("{} tab-separated fields, want 5", fields.len()));
    };
    let target: Target = target.parse().map_err(|e| format!("{e}"))?;
    let mode = mode
        .strip_prefix("0x")
        .and_then(|m| u32::from_str_radix(m, 16).ok())
        .ok_or(format!("mode `{mode}` is not 0x hex"))?;
    let instr = asm::parse(target, text).map_err(|e| format!("`{text}`: {e}"))?;
    let (inputs, expected) = (assignments(inputs)?, assignments(expected)?);

    let mut wave = Wave::for_target(target);
    for r in 0..16 {
        wave.set_vgpr_all(r, poison(r)).map_err(|e| e.to_string())?;
    }
    for &a in &inputs {
        set(&mut wave, a, None)?;
    }
    wave.set_mode(mode);
    wave.set_exec(wave.size().exec_mask() & !(1 << INACTIVE_LANE));
    let mut want = wave.clone();
    for lane in (0..wave.lanes()).filter(|&l| l != INACTIVE_LANE) {
        for &a in &expected {
            set(&mut want, a, Some(lane))?;
        }
    }
    execute(target, &mut wave, &instr).map_err(|e| format!("execute: {e}"))?;

    let mut diffs = Vec::new();
    for r in 0..16 {
        for lane in 0..wave.lanes() {
            let got = wave.vgpr(r, lane).map_err(|e| e.to_string())?;
            let exp = want.vgpr(r, lane).map_err(|e| e.to_string())?;
            if got != exp {
                diffs.push(format!(
                    "v{r} lane {lane}: expected {exp:#010x}, got {got:#010x}"
                ));
            }
        }
    }
    if diffs.is_empty() {
        return Ok(());
    }
    let shown = diffs.len().min(4);
    Err(format!(
        "{} of {}{}",
        diffs[..shown].join("; "),
        diffs.len(),
        " differing register words"
    ))
}

#[test]
fn public_hardware_rows() {
    let path = format!("{}/{FILE}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rows: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|&(n, row)| {
            run_row(row)
                .err()
                .map(|e| format!("{FILE}:{n}: {row}\n    {e}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} rows fail:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
    // The file is the public capture set: 64 rows, none skipped.
    assert_eq!(rows.len(), 64, "rows read from {FILE}");
}
