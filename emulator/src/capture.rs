//! The capture/replay text format (`docs/captures.md`): one instruction run on
//! hardware per row, with the registers before and after.
//!
//! Parsing never panics: a malformed row is a [`CaptureError`] naming its line
//! and column, and running a row is an [`Outcome`] (pass, mismatches, or an
//! error such as an instruction the target lacks).

use core::fmt;

use crate::asm;
use crate::target::{Target, WaveSize};
use crate::wave::{Wave, NUM_SGPRS, NUM_VGPRS};

/// A register (or setting) named in an assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    /// `vN`: a 32-bit VGPR.
    Vgpr(u16),
    /// `v[N:N+1]`: a 64-bit VGPR pair, low dword in vN.
    VgprPair(u16),
    /// `sN`: a 32-bit SGPR.
    Sgpr(u8),
    /// `exec`.
    Exec,
    /// `wave=32` or `wave=64`.
    Wave(WaveSize),
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Vgpr(n) => write!(f, "v{n}"),
            Loc::VgprPair(n) => write!(f, "v[{n}:{}]", u32::from(*n) + 1),
            Loc::Sgpr(n) => write!(f, "s{n}"),
            Loc::Exec => f.write_str("exec"),
            Loc::Wave(w) => write!(f, "wave{}", w.lanes()),
        }
    }
}

/// One `name=value` or `name[lane]=value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// What is assigned.
    pub loc: Loc,
    /// One lane only (`vN[L]`), or every lane.
    pub lane: Option<usize>,
    /// The bits.
    pub value: u64,
}

/// One capture row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// 1-based line number in its file.
    pub line: usize,
    /// The text of the row.
    pub text: String,
    /// Column 1.
    pub target: Target,
    /// Column 2.
    pub mode: u32,
    /// Column 3, LLVM assembly.
    pub instruction: String,
    /// 1-based column (character) where the instruction starts.
    pub instruction_column: usize,
    /// Column 4.
    pub inputs: Vec<Assignment>,
    /// Column 5.
    pub expected: Vec<Assignment>,
    /// Column 6, when present: the bytes the assembler must produce.
    pub encoding: Option<Vec<u8>>,
}

/// A malformed row: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for CaptureError {}

/// A malformed assignment or value on its own (outside a file): where in
/// its text and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// 1-based column (characters) in the text given.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl FieldError {
    fn at(column: usize, message: impl Into<String>) -> Self {
        FieldError {
            column,
            message: message.into(),
        }
    }

    /// The error seen from a text in which this one's starts at column
    /// `start`, its message after `prefix`.
    fn within(self, start: usize, prefix: &str) -> Self {
        FieldError {
            column: start - 1 + self.column,
            message: format!("{prefix}{}", self.message),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for FieldError {}

/// `text` without its leading and trailing blanks, and the column (in
/// characters) where that starts, given the column where `text` starts.
fn trim_at(column: usize, text: &str) -> (usize, &str) {
    let rest = text.trim_start();
    let lead = text[..text.len() - rest.len()].chars().count();
    (column + lead, rest.trim_end())
}

/// Parse a whole file: one entry per non-comment, non-blank line.
pub fn parse_file(text: &str) -> Vec<Result<Row, CaptureError>> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| parse_line(i + 1, l).transpose())
        .collect()
}

/// Parse one line: `Ok(None)` for a comment or blank line.
pub fn parse_line(line: usize, text: &str) -> Result<Option<Row>, CaptureError> {
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let err = |column: usize, message: String| CaptureError {
        line,
        column,
        message,
    };
    // Columns with their starting character positions.
    let mut cols: Vec<(usize, &str)> = Vec::new();
    let mut start = 0;
    for (i, part) in text.split('\t').enumerate() {
        let column = text[..start].chars().count() + 1;
        cols.push((column, part));
        start += part.len() + 1;
        if i > 6 {
            break;
        }
    }
    if cols.len() < 5 || cols.len() > 6 {
        return Err(err(
            1,
            format!(
                "expected 5 or 6 tab-separated columns, found {}",
                text.matches('\t').count() + 1
            ),
        ));
    }
    let (tc, target) = cols[0];
    let target: Target = target
        .trim()
        .parse()
        .map_err(|e: crate::ExecError| err(tc, e.to_string()))?;
    let (mc, mode) = trim_at(cols[1].0, cols[1].1);
    let mode = parse_hex(mode, 32).map_err(|e| {
        let e = e.within(mc, "MODE: ");
        err(e.column, e.message)
    })?;
    let mode = u32::try_from(mode).map_err(|_| err(mc, "MODE: more than 32 bits".into()))?;
    let (ic, instruction) = trim_at(cols[2].0, cols[2].1);
    if instruction.is_empty() {
        return Err(err(ic, "empty instruction".into()));
    }
    let inputs = parse_assignments(cols[3].1, cols[3].0, line)?;
    let expected = parse_assignments(cols[4].1, cols[4].0, line)?;
    for a in &expected {
        if matches!(a.loc, Loc::Wave(_)) {
            return Err(err(cols[4].0, "wave= belongs in the inputs".into()));
        }
    }
    let encoding = match cols.get(5).map(|&(c, e)| trim_at(c, e)) {
        Some((ec, e)) if !e.is_empty() => Some(parse_bytes(e).map_err(|e| {
            let e = e.within(ec, "encoding: ");
            err(e.column, e.message)
        })?),
        _ => None,
    };
    Ok(Some(Row {
        line,
        text: text.to_string(),
        target,
        mode,
        instruction: instruction.to_string(),
        instruction_column: ic,
        inputs,
        expected,
        encoding,
    }))
}

/// `0x` and hex digits only (`u64::from_str_radix` alone would take a sign,
/// as in `0x+1`), at most `bits` bits. Columns are in `s`.
fn parse_hex(s: &str, bits: u32) -> Result<u64, FieldError> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(|| FieldError::at(1, format!("`{s}` is not hex (0x...)")))?;
    if let Some((i, c)) = digits
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_hexdigit())
    {
        return Err(FieldError::at(
            3 + i,
            format!("`{s}` is not hex: `{c}` is not a hex digit"),
        ));
    }
    // At most 16 hex digits, so the value fits in a u64.
    let v = (!digits.is_empty() && digits.len() <= (bits as usize).div_ceil(4))
        .then(|| u64::from_str_radix(digits, 16).ok())
        .flatten()
        .ok_or_else(|| FieldError::at(1, format!("`{s}` is not a {bits}-bit hex value")))?;
    if bits < 64 && v >> bits != 0 {
        return Err(FieldError::at(
            1,
            format!("`{s}` does not fit in {bits} bits"),
        ));
    }
    Ok(v)
}

/// `[0x..,0x..]`, columns in `s`.
fn parse_bytes(s: &str) -> Result<Vec<u8>, FieldError> {
    let inner = s
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| FieldError::at(1, format!("`{s}` is not of the form [0x..,0x..]")))?;
    let mut out = Vec::new();
    // Column of the current byte's text in `s` (after the `[`).
    let mut column = 2;
    for text in inner.split(',') {
        let (start, byte) = trim_at(column, text);
        let v = parse_hex(byte, 8).map_err(|e| e.within(start, ""))?;
        out.push(u8::try_from(v).map_err(|_| FieldError::at(start, "more than 8 bits"))?);
        column += text.chars().count() + 1;
    }
    Ok(out)
}

fn parse_assignments(
    text: &str,
    column: usize,
    line: usize,
) -> Result<Vec<Assignment>, CaptureError> {
    let mut out = Vec::new();
    let mut col = column;
    for word in text.split(' ') {
        let start = col;
        col += word.chars().count() + 1;
        if word.is_empty() {
            continue;
        }
        out.push(parse_assignment(word).map_err(|e| {
            let e = e.within(start, "");
            CaptureError {
                line,
                column: e.column,
                message: e.message,
            }
        })?);
    }
    Ok(out)
}

/// A register or lane number: decimal digits only (`str::parse` alone
/// would take a `+`), below `limit`. `None` for anything else, `Some(Err)`
/// for digits too large.
fn index_below(digits: &str, limit: usize) -> Option<Result<usize, ()>> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(
        digits
            .parse::<usize>()
            .ok()
            .filter(|&n| n < limit)
            .ok_or(()),
    )
}

/// Parse one assignment such as `v0=0xa5a5a5a5`, `v[2:3]=0x...`, `s4=0x...`,
/// `exec=0x...`, `wave=32`, `v1[7]=0x...`. Errors give the column in `word`.
pub fn parse_assignment(word: &str) -> Result<Assignment, FieldError> {
    let (name, value) = word
        .split_once('=')
        .ok_or_else(|| FieldError::at(1, format!("`{word}` is not name=value")))?;
    // Column of the value in the word.
    let value_column = name.chars().count() + 2;
    if name == "wave" {
        let size = match value {
            "32" => WaveSize::Wave32,
            "64" => WaveSize::Wave64,
            _ => {
                return Err(FieldError::at(
                    value_column,
                    format!("wave must be 32 or 64, not `{value}`"),
                ))
            }
        };
        return Ok(Assignment {
            loc: Loc::Wave(size),
            lane: None,
            value: 0,
        });
    }
    if name == "exec" {
        return Ok(Assignment {
            loc: Loc::Exec,
            lane: None,
            value: parse_hex(value, 64).map_err(|e| e.within(value_column, "exec: "))?,
        });
    }
    // Split an optional [lane] suffix (not the v[N:M] pair syntax).
    let (base, lane) = match name.strip_suffix(']') {
        Some(rest) if !name.starts_with("v[") || rest.matches('[').count() == 2 => {
            let open = rest.rfind('[').ok_or_else(|| {
                FieldError::at(name.chars().count(), format!("`{name}`: unbalanced ]"))
            })?;
            let digits = &rest[open + 1..];
            let column = rest[..open].chars().count() + 2;
            let lane = match index_below(digits, 64) {
                Some(Ok(lane)) => lane,
                Some(Err(())) => {
                    return Err(FieldError::at(
                        column,
                        format!("`{name}`: lane {digits} out of range (at most 63)"),
                    ))
                }
                None => return Err(FieldError::at(column, format!("`{name}`: bad lane number"))),
            };
            (&rest[..open], Some((lane, column)))
        }
        _ => (name, None),
    };
    // The register number `s` at `column` of the word, below `count`.
    let reg = |s: &str, column: usize, count: usize, kind: &str| -> Result<usize, FieldError> {
        match index_below(s, count) {
            Some(Ok(n)) => Ok(n),
            Some(Err(())) => Err(FieldError::at(
                column,
                format!("`{name}`: {kind} {s} out of range (the file has {count})"),
            )),
            None => Err(FieldError::at(
                column,
                format!("`{name}` is not a register"),
            )),
        }
    };
    let loc = if let Some(pair) = base.strip_prefix("v[").and_then(|p| p.strip_suffix(']')) {
        let (lo, hi) = pair
            .split_once(':')
            .ok_or_else(|| FieldError::at(3, format!("`{name}`: pair must be v[N:N+1]")))?;
        let hi_column = 3 + lo.chars().count() + 1;
        let lo = reg(lo, 3, NUM_VGPRS - 1, "vgpr pair")?;
        let hi = reg(hi, hi_column, NUM_VGPRS, "vgpr")?;
        if hi != lo + 1 {
            return Err(FieldError::at(
                hi_column,
                format!("`{name}`: pair must be v[N:N+1]"),
            ));
        }
        Loc::VgprPair(lo as u16)
    } else if let Some(n) = base.strip_prefix('v') {
        Loc::Vgpr(reg(n, 2, NUM_VGPRS, "vgpr")? as u16)
    } else if let Some(n) = base.strip_prefix('s') {
        Loc::Sgpr(reg(n, 2, NUM_SGPRS, "sgpr")? as u8)
    } else {
        return Err(FieldError::at(1, format!("unknown register `{name}`")));
    };
    let bits = if matches!(loc, Loc::VgprPair(_)) {
        64
    } else {
        32
    };
    if let (Some((_, column)), Loc::Sgpr(_)) = (lane, loc) {
        return Err(FieldError::at(
            column,
            format!("`{name}`: SGPRs have no lanes"),
        ));
    }
    Ok(Assignment {
        loc,
        lane: lane.map(|(l, _)| l),
        value: parse_hex(value, bits).map_err(|e| e.within(value_column, &format!("{name}: ")))?,
    })
}

/// One register or lane that did not hold what the row expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// `v0`, `v0[5]`, `s3`.
    pub register: String,
    /// Expected bits.
    pub expected: u32,
    /// Actual bits.
    pub actual: u32,
}

/// The result of running one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every register as expected.
    Pass,
    /// Registers that differ (uniform differences across lanes are reported once).
    Fail(Vec<Mismatch>),
    /// The row could not run: the reason.
    Error(String),
}

/// Set up a wave for `row`: wave size, MODE, EXEC and the inputs.
pub fn prepare_wave(target: Target, mode: u32, inputs: &[Assignment]) -> Result<Wave, String> {
    let size = inputs
        .iter()
        .find_map(|a| match a.loc {
            Loc::Wave(w) => Some(w),
            _ => None,
        })
        .unwrap_or(target.spec().default_wave);
    let mut wave = Wave::for_target_with_size(target, size).map_err(|e| e.to_string())?;
    wave.set_mode(mode);
    // Whole-register assignments first, then single lanes on top.
    for pass in [false, true] {
        for a in inputs.iter().filter(|a| a.lane.is_some() == pass) {
            apply(&mut wave, a, &mut |w, a, lane| match a.loc {
                Loc::Vgpr(n) => w.set_vgpr(usize::from(n), lane, a.value as u32),
                Loc::VgprPair(n) => w.set_vgpr64(usize::from(n), lane, a.value),
                _ => Ok(()),
            })?;
        }
    }
    Ok(wave)
}

fn apply(
    wave: &mut Wave,
    a: &Assignment,
    set_lane: &mut dyn FnMut(&mut Wave, &Assignment, usize) -> Result<(), crate::ExecError>,
) -> Result<(), String> {
    match a.loc {
        Loc::Sgpr(n) => wave
            .set_sgpr(usize::from(n), a.value as u32)
            .map_err(|e| e.to_string()),
        Loc::Exec => {
            wave.set_exec(a.value);
            Ok(())
        }
        Loc::Wave(_) => Ok(()),
        Loc::Vgpr(_) | Loc::VgprPair(_) => {
            let lanes: Vec<usize> = match a.lane {
                Some(l) if l >= wave.lanes() => {
                    return Err(format!(
                        "{}[{l}]: lane out of range (wave{})",
                        a.loc,
                        wave.lanes()
                    ))
                }
                Some(l) => vec![l],
                None => (0..wave.lanes()).collect(),
            };
            for lane in lanes {
                set_lane(wave, a, lane).map_err(|e| e.to_string())?;
            }
            Ok(())
        }
    }
}

/// Fill every VGPR of each inactive lane (one the row gives no per-lane
/// input for) with a distinct pattern, so that any write to it shows even
/// when it would write the value the lane already held. Lanes do not see
/// each other, so active lanes compute the same results.
fn poison_inactive_lanes(wave: &mut Wave, inputs: &[Assignment]) -> Result<(), String> {
    for lane in 0..wave.lanes() {
        if wave.lane_active(lane) || inputs.iter().any(|a| a.lane == Some(lane)) {
            continue;
        }
        for r in 0..NUM_VGPRS {
            let poison = 0xdead_0000 ^ ((lane as u32) << 8) ^ (r as u32);
            wave.set_vgpr(r, lane, poison).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Run one row and compare every register bit for bit.
pub fn run_row(row: &Row) -> Outcome {
    match run_row_inner(row) {
        Ok(m) if m.is_empty() => Outcome::Pass,
        Ok(m) => Outcome::Fail(m),
        Err(e) => Outcome::Error(e),
    }
}

fn run_row_inner(row: &Row) -> Result<Vec<Mismatch>, String> {
    let instr =
        asm::parse(row.target, &row.instruction).map_err(|e| format!("instruction: {e}"))?;
    let mut mismatches = Vec::new();
    if let Some(want) = &row.encoding {
        let got =
            asm::assemble(row.target, &row.instruction).map_err(|e| format!("instruction: {e}"))?;
        if &got != want {
            return Err(format!(
                "encoding: expected {}, assembled {}",
                format_bytes(want),
                format_bytes(&got)
            ));
        }
    }
    let mut wave = prepare_wave(row.target, row.mode, &row.inputs)?;
    if row.expected.iter().any(|a| a.loc == Loc::Exec) {
        return Err("exec belongs in the inputs".into());
    }
    poison_inactive_lanes(&mut wave, &row.inputs)?;
    let before = wave.clone();
    crate::execute(row.target, &mut wave, &instr).map_err(|e| e.to_string())?;

    // What every register should hold: unchanged, except named values in active lanes.
    let mut want = before.clone();
    let exec = before.exec();
    for pass in [false, true] {
        for a in row.expected.iter().filter(|a| a.lane.is_some() == pass) {
            apply(&mut want, a, &mut |w, a, lane| {
                if a.lane.is_none() && exec >> lane & 1 == 0 {
                    return Ok(());
                }
                match a.loc {
                    Loc::Vgpr(n) => w.set_vgpr(usize::from(n), lane, a.value as u32),
                    Loc::VgprPair(n) => w.set_vgpr64(usize::from(n), lane, a.value),
                    _ => Ok(()),
                }
            })?;
        }
    }
    for r in 0..NUM_VGPRS {
        let lanes: Vec<(u32, u32)> = (0..wave.lanes())
            .map(|l| (want.vgpr(r, l).unwrap_or(0), wave.vgpr(r, l).unwrap_or(0)))
            .collect();
        if lanes.iter().all(|(e, a)| e == a) {
            continue;
        }
        let uniform = lanes.windows(2).all(|w| w[0] == w[1]);
        if uniform {
            let (expected, actual) = lanes[0];
            mismatches.push(Mismatch {
                register: format!("v{r}"),
                expected,
                actual,
            });
        } else {
            for (l, &(expected, actual)) in lanes.iter().enumerate() {
                if expected != actual {
                    mismatches.push(Mismatch {
                        register: format!("v{r}[{l}]"),
                        expected,
                        actual,
                    });
                }
            }
        }
    }
    for s in 0..NUM_SGPRS {
        let (expected, actual) = (want.sgpr(s).unwrap_or(0), wave.sgpr(s).unwrap_or(0));
        if expected != actual {
            mismatches.push(Mismatch {
                register: format!("s{s}"),
                expected,
                actual,
            });
        }
    }
    Ok(mismatches)
}

/// Bytes in llvm-mc's `[0x..,0x..]` form.
pub fn format_bytes(bytes: &[u8]) -> String {
    let inner: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
    format!("[{}]", inner.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments() {
        assert_eq!(
            parse_assignment("v0=0xa5a5a5a5"),
            Ok(Assignment {
                loc: Loc::Vgpr(0),
                lane: None,
                value: 0xa5a5_a5a5
            })
        );
        assert_eq!(
            parse_assignment("v[2:3]=0x8000000000000001"),
            Ok(Assignment {
                loc: Loc::VgprPair(2),
                lane: None,
                value: 0x8000_0000_0000_0001
            })
        );
        assert_eq!(
            parse_assignment("v1[7]=0x1"),
            Ok(Assignment {
                loc: Loc::Vgpr(1),
                lane: Some(7),
                value: 1
            })
        );
        assert_eq!(
            parse_assignment("v[2:3][5]=0x1"),
            Ok(Assignment {
                loc: Loc::VgprPair(2),
                lane: Some(5),
                value: 1
            })
        );
        assert_eq!(parse_assignment("s4=0x10").map(|a| a.loc), Ok(Loc::Sgpr(4)));
        assert_eq!(parse_assignment("exec=0xffff").map(|a| a.value), Ok(0xffff));
        assert_eq!(
            parse_assignment("wave=64").map(|a| a.loc),
            Ok(Loc::Wave(WaveSize::Wave64))
        );
        for bad in [
            "v0",
            "v0=12",
            "v256=0x0",
            "v[2:4]=0x0",
            "x1=0x0",
            "v0=0x1ffffffff",
            "wave=16",
            "v0[64]=0x0",
            "s0[1]=0x0",
            "v0=0x",
        ] {
            assert!(parse_assignment(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rows_and_errors_carry_positions() {
        let ok = "gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv1=0x3fc00000\tv0=0x3f000000";
        let row = parse_line(3, ok).expect("parses").expect("not a comment");
        assert_eq!((row.line, row.mode, row.instruction_column), (3, 0xf0, 20));
        assert_eq!(parse_line(1, "# comment"), Ok(None));
        assert_eq!(parse_line(1, "   "), Ok(None));
        let e = parse_line(
            9,
            "gfx1201\t0xf0\tv_fract_f32 v0, v1\tv1=0x3fc00000 v2=zz\tv0=0x0",
        )
        .unwrap_err();
        // At the value of `v2=zz`, which starts at column 47.
        assert_eq!((e.line, e.column), (9, 50));
        let e = parse_line(2, "gfx9\t0xf0\ti\tv1=0x0\tv0=0x0").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(parse_line(2, "gfx1201\t0xf0\tv_fract_f32 v0, v1").is_err());
        assert!(parse_line(
            2,
            "gfx1201\t0xf0\tv_fract_f32 v0, v1\tv1=0x0\tv0=0x0\t[0x01,0xzz]"
        )
        .is_err());
    }
}
