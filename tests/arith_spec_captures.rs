//! `tests/captures/arith-spec.tsv`: the arithmetic rules' examples as
//! capture rows, expectations from the specification (not hardware).
//!
//! - `arith_spec_rows_parse`: every row parses, names an arithmetic
//!   instruction and carries llvm-mc's bytes; the file says where its rows
//!   come from.
//! - `arith_spec_rows_hold_through_the_lane_api`: each VOP3 row, read by a
//!   small parser written here for this file's syntax, run through
//!   `amdgpu_valu::lanes` (the arithmetic kernels without the executor).
//! - `replay_arith_spec_rows`: the rows as `amdgpu-valu replay` runs them,
//!   through the assembler and the executor.

use amdgpu_valu::capture::{parse_file, replay_text, Assignment, Loc, Row};
use amdgpu_valu::lanes::{self, ArithMods, ArithOp, LaneBits};
use amdgpu_valu::{Mode, Omod};

const FILE: &str = include_str!("captures/arith-spec.tsv");
const ROWS: usize = 57;

fn rows() -> Vec<Row> {
    parse_file(FILE)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("arith-spec.tsv:{e}")))
        .collect()
}

#[test]
fn arith_spec_rows_parse() {
    assert!(
        FILE.starts_with("# Source: expectation from the specification")
            && FILE.contains("NOT\n# hardware"),
        "the file must say its rows are expectations, not hardware"
    );
    let rows = rows();
    assert_eq!(rows.len(), ROWS);
    for row in &rows {
        let mnemonic = row.instruction.split(' ').next().unwrap_or("");
        assert!(
            ["v_add_f", "v_sub_f", "v_subrev_f", "v_mul_f", "v_fma_f"]
                .iter()
                .any(|p| mnemonic.starts_with(p)),
            "line {}: {mnemonic}",
            row.line
        );
        let bytes = row.encoding.as_ref().map_or(0, Vec::len);
        assert_eq!(bytes, 8, "line {}: llvm-mc's 8 bytes", row.line);
    }
}

#[test]
fn replay_arith_spec_rows() {
    let r = replay_text(FILE);
    assert!(r.failed == 0, "{}", r.failures.join("\n"));
    assert_eq!(r.passed, ROWS);
}

/// One VOP3 row as a lane call: the operation, the F16/F32/F64 width,
/// the modifiers and the sources' registers (v1, v2, v3 or pairs).
struct LaneRow {
    op: ArithOp,
    width: u32,
    mods: ArithMods,
    regs: Vec<u16>,
}

/// `v_<op>_f<width>[_e64] <dst>, <src>... [mods]` with plain registers
/// (`vN`, `vN.l`, `v[N:M]`), as the file writes them; SDWA rows are not
/// lane calls.
fn lane_row(text: &str) -> Option<LaneRow> {
    let (mnemonic, rest) = text.split_once(' ')?;
    if mnemonic.ends_with("_sdwa") {
        return None;
    }
    let stem = mnemonic.strip_prefix("v_")?.trim_end_matches("_e64");
    let (op, width) = stem.rsplit_once("_f")?;
    let op = ArithOp::ALL.into_iter().find(|o| o.name() == op)?;
    let width: u32 = width.parse().ok()?;
    let mut mods = ArithMods::default();
    let mut regs = Vec::new();
    for (i, word) in rest.split_whitespace().enumerate() {
        let word = word.trim_end_matches(',');
        match word {
            "div:2" => mods.omod = Omod::Div2,
            "mul:2" => mods.omod = Omod::Mul2,
            "mul:4" => mods.omod = Omod::Mul4,
            "clamp" => mods.clamp = true,
            _ => {
                let reg = word.trim_start_matches("v[").trim_start_matches('v');
                let n: String = reg.chars().take_while(char::is_ascii_digit).collect();
                if i > 0 {
                    regs.push(n.parse().ok()?);
                }
            }
        }
    }
    Some(LaneRow {
        op,
        width,
        mods,
        regs,
    })
}

/// The value of `loc` among a column's assignments (whole-register ones;
/// the file names no lanes).
fn value(column: &[Assignment], loc: Loc) -> Option<u64> {
    column.iter().find(|a| a.loc == loc).map(|a| a.value)
}

/// The row's sources and result of width `width`, read from its columns.
fn operands(row: &Row, lr: &LaneRow) -> (Vec<u64>, u64) {
    let read = |column: &[Assignment], n: u16| -> u64 {
        let v = if lr.width == 64 {
            value(column, Loc::VgprPair(n))
        } else {
            value(column, Loc::Vgpr(n))
        };
        let v = v.unwrap_or_else(|| panic!("line {}: v{n} is not named", row.line));
        if lr.width == 16 {
            v & 0xffff
        } else {
            v
        }
    };
    let srcs = lr.regs.iter().map(|&n| read(&row.inputs, n)).collect();
    (srcs, read(&row.expected, 0))
}

/// One lane through the lane API in the element type `T`.
fn run<T: LaneBits + TryFrom<u64> + Into<u64>>(row: &Row, lr: &LaneRow, srcs: &[u64]) -> u64 {
    let lanes_in: Vec<[T; 1]> = srcs
        .iter()
        .map(|&s| [T::try_from(s).unwrap_or_else(|_| panic!("line {}: width", row.line))])
        .collect();
    let refs: Vec<&[T]> = lanes_in.iter().map(|a| &a[..]).collect();
    let mut dst = [T::default()];
    lanes::arith(lr.op, row.target, row.mode, lr.mods, &refs, &mut dst)
        .unwrap_or_else(|e| panic!("line {}: {e}", row.line));
    dst[0].into()
}

/// The quiet bit of each width, and whether `x` is a signalling NaN
/// (exponent all ones, quiet bit clear, fraction nonzero).
fn quiet_bit(width: u32) -> u64 {
    match width {
        16 => 0x200,
        32 => 0x40_0000,
        _ => 0x8_0000_0000_0000,
    }
}

fn is_snan(x: u64, width: u32) -> bool {
    let (exp, man) = match width {
        16 => (0x7c00, 0x3ff),
        32 => (0x7f80_0000, 0x7f_ffff),
        _ => (0x7ff0_0000_0000_0000, 0xf_ffff_ffff_ffff),
    };
    x & exp == exp && x & man != 0 && x & quiet_bit(width) == 0
}

#[test]
fn arith_spec_rows_hold_through_the_lane_api() {
    let mut checked = 0;
    for row in rows() {
        let Some(lr) = lane_row(&row.instruction) else {
            assert!(row.instruction.contains("_sdwa"), "line {}", row.line);
            continue;
        };
        let (srcs, want) = operands(&row, &lr);
        let got = match lr.width {
            16 => run::<u16>(&row, &lr, &srcs),
            32 => run::<u32>(&row, &lr, &srcs),
            _ => run::<u64>(&row, &lr, &srcs),
        };
        // A signalling NaN out of a target with MODE.IEEE (before GFX12)
        // under IEEE = 0: the row expects it unquieted, as the `snan`
        // policy `keep_when_ieee_off` gives; under `quiet` it gets its quiet
        // bit. Either way it is the first NaN, sign and payload kept.
        let has_ieee_bit = row.target.spec().ieee_dx10_bits.value;
        let keeps_snan = has_ieee_bit && !Mode(row.mode).ieee() && is_snan(want, lr.width);
        if keeps_snan {
            assert!(
                got == want || got == want | quiet_bit(lr.width),
                "line {}: {} gave {got:#x}",
                row.line,
                row.instruction
            );
        } else {
            assert_eq!(
                got, want,
                "line {}: {} gave {got:#x}",
                row.line, row.instruction
            );
        }
        checked += 1;
    }
    assert_eq!(checked, ROWS - 1);
}
