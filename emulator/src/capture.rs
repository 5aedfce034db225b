//! The capture/replay text format (`docs/captures.md`): one instruction run on
//! hardware per row, with the registers before and after.
//!
//! Parsing never panics: a malformed row is a [`CaptureError`] naming its line
//! and column, and running a row is an [`Outcome`] (pass, mismatches, or an
//! error such as an instruction the target lacks).
//!
//! Replaying a capture text, tab-separated: target, MODE, the instruction as
//! `llvm-mc` reads it, the registers before, the registers after:
//!
//! ```
//! use amdgpu_valu::capture::{parse_file, Outcome, Replayer};
//!
//! let text = "\
//! ## gfx1201 hardware rows: FRACT(-tiny) is 1 - ulp, LDEXP's tiny result flushed under mul:2
//! gfx1201\t0x000000f0\tv_fract_f16_e64 v0.l, -v1.l\tv0=0xa5a5a5a5 v1=0x5a5a0001\tv0=0xa5a53bff
//! gfx1201\t0x000000f0\tv_ldexp_f16_e64 v0.l, v1.l, v2.l mul:2\tv0=0xa5a5a5a5 v1=0x00003bff v2=0x0000fff2\tv0=0xa5a50000
//! gfx1201\t0x000000f0\tv_fract_f32 v0, v1\tv1=0x3fc00000\tv0=0x3f000001
//! ";
//! let mut replayer = Replayer::new();
//! let outcomes: Vec<Outcome> = parse_file(text)
//!     .into_iter()
//!     .map(|row| replayer.run(&row.expect("well-formed row")))
//!     .collect();
//! assert_eq!(outcomes[..2], [Outcome::Pass, Outcome::Pass]);
//! // The last row expects the wrong bits: FRACT(1.5) is 0x3f000000.
//! let Outcome::Fail(mismatches) = &outcomes[2] else { panic!("{:?}", outcomes[2]) };
//! assert_eq!((mismatches[0].expected, mismatches[0].actual), (0x3f00_0001, 0x3f00_0000));
//! ```

use core::fmt;
use std::collections::HashMap;

use crate::asm;
use crate::instr::{DstUnused, Instruction, Operand, Part, Special};
use crate::kernels::FormatKind;
use crate::target::F16DstHigh;
use crate::target::{Target, WaveSize};
use crate::wave::{RegisterSet, Wave, MAX_LANES, NUM_SGPRS, NUM_TTMPS, NUM_VGPRS};

mod reader;
pub use reader::{LineReader, ReadLine, MAX_LINE_BYTES};

/// A register (or setting) an assignment names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    /// `vN`: a 32-bit VGPR.
    Vgpr(u16),
    /// `v[N:N+1]`: a 64-bit VGPR pair, low dword in vN.
    VgprPair(u16),
    /// `sN`: a 32-bit SGPR.
    Sgpr(u8),
    /// `exec`: the EXEC mask, one bit per lane (bit L set: lane L active).
    Exec,
    /// `wave=32` or `wave=64`: the wave size (else the target's default).
    Wave(WaveSize),
    /// `ttmpN`: a 32-bit trap temporary (0..=15).
    Ttmp(u8),
    /// `vcc`: VCC, 64 bits.
    Vcc,
    /// `m0`: M0, 32 bits.
    M0,
    /// `flat_scratch`: FLAT_SCRATCH, 64 bits (also read by
    /// `src_flat_scratch_base_lo/hi`).
    FlatScratch,
    /// `xnack_mask`: XNACK_MASK, 64 bits.
    XnackMask,
    /// The state behind a special source: `scc` (0 or 1),
    /// `src_shared_base`, `src_shared_limit`, `src_private_base`,
    /// `src_private_limit` (64 bits), `src_pops_exiting_wave_id` (32 bits).
    Special(Special),
}

/// The wave-state names an assignment may give, with their [`Loc`] and
/// width in bits (docs/captures.md).
const STATE_NAMES: [(&str, Loc, u32); 10] = [
    ("vcc", Loc::Vcc, 64),
    ("m0", Loc::M0, 32),
    ("flat_scratch", Loc::FlatScratch, 64),
    ("xnack_mask", Loc::XnackMask, 64),
    ("scc", Loc::Special(Special::Scc), 1),
    ("src_shared_base", Loc::Special(Special::SharedBase), 64),
    ("src_shared_limit", Loc::Special(Special::SharedLimit), 64),
    ("src_private_base", Loc::Special(Special::PrivateBase), 64),
    ("src_private_limit", Loc::Special(Special::PrivateLimit), 64),
    (
        "src_pops_exiting_wave_id",
        Loc::Special(Special::PopsExitingWaveId),
        32,
    ),
];

/// The value of a wave-state location (not a VGPR, SGPR, EXEC or the wave
/// size) in `wave`.
fn state_value(wave: &Wave, loc: Loc) -> Result<u64, String> {
    Ok(match loc {
        Loc::Ttmp(n) => u64::from(wave.ttmp(usize::from(n)).map_err(|e| e.to_string())?),
        Loc::Vcc => wave.vcc(),
        Loc::M0 => u64::from(wave.m0()),
        Loc::FlatScratch => wave.flat_scratch(),
        Loc::XnackMask => wave.xnack_mask(),
        Loc::Special(src) => wave.special(src).map_err(|e| e.to_string())?,
        other => return Err(format!("{other} is not wave state")),
    })
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Vgpr(n) => write!(f, "v{n}"),
            Loc::VgprPair(n) => write!(f, "v[{n}:{}]", u32::from(*n) + 1),
            Loc::Sgpr(n) => write!(f, "s{n}"),
            Loc::Exec => f.write_str("exec"),
            Loc::Wave(w) => write!(f, "wave{}", w.lanes()),
            Loc::Ttmp(n) => write!(f, "ttmp{n}"),
            Loc::Special(Special::Scc) => f.write_str("scc"),
            Loc::Special(src) => f.write_str(src.syntax()),
            other => {
                let name = STATE_NAMES
                    .iter()
                    .find(|(_, l, _)| l == other)
                    .map_or("?", |(n, _, _)| n);
                f.write_str(name)
            }
        }
    }
}

/// One `name=value` or `name[lane]=value` of an inputs or expected column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// The register or setting assigned.
    pub loc: Loc,
    /// One lane only (`vN[L]`), or `None` for every lane.
    pub lane: Option<usize>,
    /// The bits: 32 for a register, 64 for a pair, the lane count for
    /// `wave`.
    pub value: u64,
}

/// One capture row: an instruction run once on a target, with the
/// registers before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The 1-based line number in its file.
    pub line: usize,
    /// The text of the row.
    pub text: String,
    /// Column 1: the target, by LLVM's name.
    pub target: Target,
    /// Column 2: the MODE register value (hex).
    pub mode: u32,
    /// Column 3: the instruction in LLVM assembly.
    pub instruction: String,
    /// The 1-based column (character) where the instruction starts.
    pub instruction_column: usize,
    /// Column 4: the registers before execution.
    pub inputs: Vec<Assignment>,
    /// Column 5: the registers after execution; every register and lane
    /// not named must be unchanged.
    pub expected: Vec<Assignment>,
    /// Column 6, when present: the machine code `llvm-mc` printed, which the
    /// assembler must reproduce.
    pub encoding: Option<Vec<u8>>,
}

/// A malformed row: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureError {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column (characters).
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
    /// The 1-based column (characters) in the text given.
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

/// Parse a whole capture text: one entry per row, skipping comment (`#`)
/// and blank lines; a malformed row is an error and the rest still parse.
pub fn parse_file(text: &str) -> Vec<Result<Row, CaptureError>> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| parse_line(i + 1, l).transpose())
        .collect()
}

/// Parse line number `line` of a capture file: `Ok(None)` for a comment or
/// blank line. A register (or lane of one) assigned twice in one column is
/// an error at the second assignment.
pub fn parse_line(line: usize, text: &str) -> Result<Option<Row>, CaptureError> {
    if is_blank_or_comment(text) {
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
    let (inputs, input_columns) = parse_assignments(cols[3].1, cols[3].0, line)?;
    let (expected, expected_columns) = parse_assignments(cols[4].1, cols[4].0, line)?;
    for (a, &column) in expected.iter().zip(&expected_columns) {
        if matches!(a.loc, Loc::Wave(_)) {
            return Err(err(column, "wave= belongs in the inputs".into()));
        }
    }
    for (list, columns, name) in [
        (&inputs, &input_columns, "inputs"),
        (&expected, &expected_columns, "expected column"),
    ] {
        if let Some(twice) = assigned_twice(list) {
            let (first, second) = (
                columns.get(twice.first).copied().unwrap_or(1),
                columns.get(twice.second).copied().unwrap_or(1),
            );
            return Err(err(second, twice.message(name, Some((first, second)))));
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

/// A line that is no row: blank, or a `#` comment.
fn is_blank_or_comment(text: &str) -> bool {
    let trimmed = text.trim();
    trimmed.is_empty() || trimmed.starts_with('#')
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

/// The assignments of one column and the column (character) where each
/// starts.
fn parse_assignments(
    text: &str,
    column: usize,
    line: usize,
) -> Result<(Vec<Assignment>, Vec<usize>), CaptureError> {
    let mut out = Vec::new();
    let mut starts = Vec::new();
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
        starts.push(start);
    }
    Ok((out, starts))
}

/// Two assignments of one column that give the same register (or the same
/// lane of it) a value: the second would silently replace the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AssignedTwice {
    /// The index of the first assignment in its column.
    first: usize,
    /// The index of the second.
    second: usize,
    /// The two assignments.
    a: Assignment,
    b: Assignment,
    /// The 32-bit VGPR they share, for VGPRs and pairs.
    vgpr: Option<usize>,
}

impl AssignedTwice {
    /// "v1 is assigned twice in the inputs: by `v[0:1]` at column 33 and by
    /// `v1` at column 44"; `at` gives the two assignments' columns when
    /// they are known.
    fn message(&self, column: &str, at: Option<(usize, usize)>) -> String {
        let lane = self.a.lane.map(|l| format!("[{l}]")).unwrap_or_default();
        let shared = match self.vgpr {
            Some(r) => format!("v{r}{lane}"),
            None => assigned_name(&self.a),
        };
        let (a, b) = (assigned_name(&self.a), assigned_name(&self.b));
        let head = format!("{shared} is assigned twice in the {column}");
        match (a == b, at) {
            (true, None) => head,
            (true, Some((x, y))) => format!("{head}, at column {x} and column {y}"),
            (false, None) => format!("{head}: by `{a}` and by `{b}`"),
            (false, Some((x, y))) => {
                format!("{head}: by `{a}` at column {x} and by `{b}` at column {y}")
            }
        }
    }
}

/// The name an assignment writes before its `=`: `v1`, `v[2:3][5]`, `wave`.
fn assigned_name(a: &Assignment) -> String {
    let lane = a.lane.map(|l| format!("[{l}]")).unwrap_or_default();
    match a.loc {
        Loc::Wave(_) => "wave".into(),
        loc => format!("{loc}{lane}"),
    }
}

/// The 32-bit VGPRs an assignment names: `[n]` or `[n, n + 1]`.
fn vgpr_words(loc: Loc) -> Option<core::ops::RangeInclusive<usize>> {
    match loc {
        Loc::Vgpr(n) => Some(usize::from(n)..=usize::from(n)),
        Loc::VgprPair(n) => Some(usize::from(n)..=usize::from(n) + 1),
        _ => None,
    }
}

/// What an assignment sets, for finding repeats: each 32-bit VGPR of a
/// register or pair, or the register or setting itself (any `wave=`).
fn assigned_keys(loc: Loc) -> impl Iterator<Item = Loc> {
    let vgprs = vgpr_words(loc).into_iter().flatten();
    let other = match loc {
        Loc::Vgpr(_) | Loc::VgprPair(_) => None,
        Loc::Wave(_) => Some(Loc::Wave(WaveSize::Wave32)),
        other => Some(other),
    };
    vgprs
        .filter_map(|r| u16::try_from(r).ok().map(Loc::Vgpr))
        .chain(other)
}

/// The first pair of assignments in `list` that both set a register, or
/// the same lane of a VGPR (a pair counts as its two VGPRs). A one-lane
/// value beside a whole-register value of the same register is not a
/// repeat: the lane takes the one-lane value (docs/captures.md §1). Time
/// linear in the length of the list.
fn assigned_twice(list: &[Assignment]) -> Option<AssignedTwice> {
    let mut seen: HashMap<(Loc, Option<usize>), usize> = HashMap::new();
    for (second, b) in list.iter().enumerate() {
        let mut repeat: Option<(usize, Loc)> = None;
        for key in assigned_keys(b.loc) {
            match seen.get(&(key, b.lane)) {
                Some(&first) if repeat.is_none_or(|(f, _)| first < f) => {
                    repeat = Some((first, key));
                }
                Some(_) => {}
                None => {
                    seen.insert((key, b.lane), second);
                }
            }
        }
        if let Some((first, key)) = repeat {
            let a = list.get(first).copied().unwrap_or(*b);
            return Some(AssignedTwice {
                first,
                second,
                a,
                b: *b,
                vgpr: match key {
                    Loc::Vgpr(r) => Some(usize::from(r)),
                    _ => None,
                },
            });
        }
    }
    None
}

/// An expectation the row cannot fail: a whole-register VGPR value (`vN=`,
/// `v[N:M]=`) is compared in the active lanes only, so when EXEC selects no
/// lane of the wave, or every active lane of each of its VGPRs is named by
/// a one-lane expectation instead, any bits would pass. The reason, naming
/// the assignment. `exec` is the wave's EXEC, with no bit beyond its
/// `lanes` ([`Wave::set_exec`] drops them). Time linear in the length of
/// the list.
fn unfailable_expectation(expected: &[Assignment], exec: u64, lanes: usize) -> Option<String> {
    // The lanes one-lane expectations name, per VGPR.
    let mut one_lane: HashMap<usize, u64> = HashMap::new();
    for a in expected {
        if let (Some(lane), Some(words)) = (a.lane, vgpr_words(a.loc)) {
            for r in words {
                *one_lane.entry(r).or_default() |= u32::try_from(lane)
                    .ok()
                    .and_then(|l| 1u64.checked_shl(l))
                    .unwrap_or(0);
            }
        }
    }
    for a in expected.iter().filter(|a| a.lane.is_none()) {
        let Some(mut words) = vgpr_words(a.loc) else {
            continue;
        };
        if words.any(|r| exec & !one_lane.get(&r).copied().unwrap_or(0) != 0) {
            continue;
        }
        let why = if exec == 0 {
            format!("EXEC selects no lane of the wave{lanes}")
        } else {
            "every active lane is named by a one-lane expectation".to_string()
        };
        return Some(format!(
            "expected {}={:#x} cannot fail: a whole-register value is compared in \
             active lanes only, and {why}",
            a.loc, a.value
        ));
    }
    None
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
    if let Some(&(_, loc, bits)) = STATE_NAMES.iter().find(|(n, _, _)| *n == name) {
        let value = match (loc, value) {
            (Loc::Special(Special::Scc), "0" | "1") => u64::from(value == "1"),
            _ => {
                parse_hex(value, bits).map_err(|e| e.within(value_column, &format!("{name}: ")))?
            }
        };
        return Ok(Assignment {
            loc,
            lane: None,
            value,
        });
    }
    if let Some(n) = name.strip_prefix("ttmp") {
        let n = match index_below(n, NUM_TTMPS) {
            Some(Ok(n)) => n,
            Some(Err(())) => {
                return Err(FieldError::at(
                    5,
                    format!("`{name}`: ttmp {n} out of range (the wave has {NUM_TTMPS})"),
                ))
            }
            None => return Err(FieldError::at(1, format!("unknown register `{name}`"))),
        };
        return Ok(Assignment {
            loc: Loc::Ttmp(n as u8),
            lane: None,
            value: parse_hex(value, 32)
                .map_err(|e| e.within(value_column, &format!("{name}: ")))?,
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
    /// The register, and the lane when only some lanes differ: `v0`,
    /// `v0[5]`, `s3`.
    pub register: String,
    /// The bits the row expected.
    pub expected: u32,
    /// The bits the emulator produced.
    pub actual: u32,
    /// Why the bits count as wrong when that is not plain from them (an
    /// inactive lane that was written, even with the bits it held).
    pub note: Option<&'static str>,
}

/// The result of running one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every register and lane holds the expected bits.
    Pass,
    /// Registers that differ (uniform differences across lanes are reported once).
    Fail(Vec<Mismatch>),
    /// The row could not run (an instruction the target lacks, an
    /// assembly error, a register out of range): the reason.
    Error(String),
}

/// What [`Mismatch::note`] says when the instruction wrote bits it must
/// leave alone (an inactive lane, the other half of a 16-bit destination):
/// the row ran again with those bits inverted, and the bits shown are that
/// run's.
pub const LEFT_ALONE_BITS_WRITTEN: &str =
    "bits the instruction must leave alone were written (shown from a rerun with them inverted)";

/// A wave set up for a row: its wave size (from `wave=` or the target's
/// default), MODE, EXEC and the input registers; an error names an input
/// the wave cannot take.
pub fn prepare_wave(target: Target, mode: u32, inputs: &[Assignment]) -> Result<Wave, String> {
    let mut wave = Wave::new(wave_size(target, inputs));
    prepare(&mut wave, target, mode, inputs)?;
    Ok(wave)
}

/// The wave size the inputs ask for, else the target's default.
fn wave_size(target: Target, inputs: &[Assignment]) -> WaveSize {
    inputs
        .iter()
        .find_map(|a| match a.loc {
            Loc::Wave(w) => Some(w),
            _ => None,
        })
        .unwrap_or(target.spec().default_wave)
}

/// The lanes an assignment names in a wave of `lanes` lanes.
fn named_lanes(a: &Assignment, lanes: usize) -> Result<core::ops::Range<usize>, String> {
    match a.lane {
        Some(l) if l >= lanes => Err(format!("{}[{l}]: lane out of range (wave{lanes})", a.loc)),
        Some(l) => Ok(l..l + 1),
        None => Ok(0..lanes),
    }
}

/// Reset `wave` and load the inputs: every value they give is in the
/// register file, in active and inactive lanes alike; everything they leave
/// unnamed is 0. Whole-register assignments first, then single lanes on top.
fn prepare(
    wave: &mut Wave,
    target: Target,
    mode: u32,
    inputs: &[Assignment],
) -> Result<(), String> {
    let size = wave_size(target, inputs);
    if !target.spec().supports_wave(size) {
        return Err(crate::ExecError::WaveSizeNotOnTarget {
            target: target.name(),
            lanes: size.lanes(),
        }
        .to_string());
    }
    wave.reset(size);
    wave.set_mode(mode);
    let lanes = wave.lanes();
    for pass in [false, true] {
        for a in inputs.iter().filter(|a| a.lane.is_some() == pass) {
            match a.loc {
                Loc::Sgpr(n) => wave
                    .set_sgpr(usize::from(n), a.value as u32)
                    .map_err(|e| e.to_string())?,
                Loc::Exec => wave.set_exec(a.value),
                Loc::Wave(_) => {}
                Loc::Ttmp(n) => wave
                    .set_ttmp(usize::from(n), a.value as u32)
                    .map_err(|e| e.to_string())?,
                Loc::Vcc => wave.set_vcc(a.value),
                Loc::M0 => wave.set_m0(a.value as u32),
                Loc::FlatScratch => wave.set_flat_scratch(a.value),
                Loc::XnackMask => wave.set_xnack_mask(a.value),
                Loc::Special(src) => wave.set_special(src, a.value).map_err(|e| e.to_string())?,
                Loc::Vgpr(n) => fill(wave, usize::from(n), a, a.value as u32, lanes)?,
                Loc::VgprPair(n) => {
                    let n = usize::from(n);
                    fill(wave, n, a, a.value as u32, lanes)?;
                    fill(wave, n + 1, a, (a.value >> 32) as u32, lanes)?;
                }
            }
        }
    }
    Ok(())
}

/// Write `word` into the lanes `a` names of VGPR `index`.
fn fill(
    wave: &mut Wave,
    index: usize,
    a: &Assignment,
    word: u32,
    lanes: usize,
) -> Result<(), String> {
    let range = named_lanes(a, lanes)?;
    let regs = wave
        .vgpr_lanes_mut(index)
        .and_then(|r| r.get_mut(range))
        .ok_or_else(|| format!("{}: register out of range", a.loc))?;
    regs.fill(word);
    Ok(())
}

/// The VGPRs an assignment list names (both of a pair).
fn named_vgprs(assignments: &[Assignment]) -> RegisterSet {
    let mut set = RegisterSet::EMPTY;
    for a in assignments {
        match a.loc {
            Loc::Vgpr(n) => set.insert(usize::from(n)),
            Loc::VgprPair(n) => set.insert_range(usize::from(n), 2),
            _ => {}
        }
    }
    set
}

/// The SGPRs an assignment list names.
fn named_sgprs(assignments: &[Assignment]) -> RegisterSet {
    let mut set = RegisterSet::EMPTY;
    for a in assignments {
        if let Loc::Sgpr(n) = a.loc {
            set.insert(usize::from(n));
        }
    }
    set
}

/// The word an assignment gives VGPR `index`, if it names it.
fn word_for(a: &Assignment, index: usize) -> Option<u32> {
    match a.loc {
        Loc::Vgpr(n) if usize::from(n) == index => Some(a.value as u32),
        Loc::VgprPair(n) if usize::from(n) == index => Some(a.value as u32),
        Loc::VgprPair(n) if usize::from(n) + 1 == index => Some((a.value >> 32) as u32),
        _ => None,
    }
}

/// Runs rows one after another on one reused wave, so the work per row is
/// proportional to what the row touches: the registers its inputs and
/// expectations name and the ones the instruction wrote, never the whole
/// register file.
#[derive(Clone, Debug)]
pub struct Replayer {
    wave: Wave,
    /// The lanes of every VGPR the inputs name, as loaded before execution.
    before: Vec<(usize, [u32; MAX_LANES])>,
    /// Instructions already parsed, per target (in `Target::ALL` order):
    /// large captures repeat a few instructions with many inputs.
    parsed: Vec<HashMap<String, Instruction>>,
}

/// Parsed instructions kept (all targets together) before the cache
/// starts over.
const PARSED_CACHE: usize = 4096;

/// The longest instruction text the cache keeps (the longest in the
/// bundled corpus is about 110 bytes): a row may pad an instruction with
/// blanks up to [`MAX_LINE_BYTES`], and 4096 such keys would hold 4 GiB.
const PARSED_TEXT_BYTES: usize = 256;

impl Default for Replayer {
    fn default() -> Replayer {
        Replayer::new()
    }
}

impl Replayer {
    /// A replayer with an empty wave.
    pub fn new() -> Replayer {
        Replayer {
            wave: Wave::new(WaveSize::Wave64),
            before: Vec::new(),
            parsed: Target::ALL.iter().map(|_| HashMap::new()).collect(),
        }
    }

    /// Run one row and compare bit for bit (see [`run_row`]).
    pub fn run(&mut self, row: &Row) -> Outcome {
        match self.run_inner(row) {
            Ok(m) if m.is_empty() => Outcome::Pass,
            Ok(m) => Outcome::Fail(m),
            Err(e) => Outcome::Error(e),
        }
    }

    /// VGPR `index` of every lane before execution.
    fn before(&self, index: usize) -> [u32; MAX_LANES] {
        self.before
            .iter()
            .find(|(r, _)| *r == index)
            .map_or([0; MAX_LANES], |(_, lanes)| *lanes)
    }

    /// `row`'s instruction, parsed (or found among those already parsed).
    fn instruction(&mut self, row: &Row) -> Result<Instruction, String> {
        let slot = Target::ALL.iter().position(|&t| t == row.target);
        let cached = slot.and_then(|i| self.parsed.get(i)?.get(&row.instruction));
        if let Some(instr) = cached {
            return Ok(*instr);
        }
        let instr =
            asm::parse(row.target, &row.instruction).map_err(|e| format!("instruction: {e}"))?;
        if row.instruction.len() > PARSED_TEXT_BYTES {
            return Ok(instr);
        }
        if self.parsed.iter().map(HashMap::len).sum::<usize>() >= PARSED_CACHE {
            self.parsed.iter_mut().for_each(HashMap::clear);
        }
        if let Some(cache) = slot.and_then(|i| self.parsed.get_mut(i)) {
            cache.insert(row.instruction.clone(), instr);
        }
        Ok(instr)
    }

    fn run_inner(&mut self, row: &Row) -> Result<Vec<Mismatch>, String> {
        let instr = self.instruction(row)?;
        if let Some(want) = &row.encoding {
            let got = asm::assemble(row.target, &row.instruction)
                .map_err(|e| format!("instruction: {e}"))?;
            if &got != want {
                return Err(format!(
                    "encoding: expected {}, assembled {}",
                    format_bytes(want),
                    format_bytes(&got)
                ));
            }
        }
        if row.expected.iter().any(|a| a.loc == Loc::Exec) {
            return Err("exec belongs in the inputs".into());
        }
        // Rows that `parse_line` refused; a `Row` may be built by hand.
        for (list, name) in [(&row.inputs, "inputs"), (&row.expected, "expected column")] {
            if let Some(twice) = assigned_twice(list) {
                return Err(twice.message(name, None));
            }
        }
        prepare(&mut self.wave, row.target, row.mode, &row.inputs)?;
        let lanes = self.wave.lanes();
        for a in &row.expected {
            named_lanes(a, lanes)?;
        }
        if let Some(reason) = unfailable_expectation(&row.expected, self.wave.exec(), lanes) {
            return Err(reason);
        }
        self.before.clear();
        for r in named_vgprs(&row.inputs).iter() {
            let mut lanes = [0; MAX_LANES];
            for (lane, &word) in lanes
                .iter_mut()
                .zip(self.wave.vgpr_lanes(r).unwrap_or_default())
            {
                *lane = word;
            }
            self.before.push((r, lanes));
        }
        // The inputs' writes are not the instruction's.
        self.wave.take_written();
        crate::execute(row.target, &mut self.wave, &instr).map_err(|e| e.to_string())?;
        let written = self.wave.take_written();
        let exec = self.wave.exec();

        // Every register the row names or the instruction wrote must hold
        // the expected value (named, in active lanes for a whole-register
        // assignment) or else its value before. A register in neither set
        // was not written, so it holds its value before.
        let mut mismatches = Vec::new();
        let named = named_vgprs(&row.expected);
        for r in named.union(written.vgprs).iter() {
            let mut want = self.before(r);
            for pass in [false, true] {
                for a in row.expected.iter().filter(|a| a.lane.is_some() == pass) {
                    let Some(word) = word_for(a, r) else {
                        continue;
                    };
                    for lane in named_lanes(a, lanes)? {
                        if a.lane.is_some() || exec >> lane & 1 != 0 {
                            if let Some(w) = want.get_mut(lane) {
                                *w = word;
                            }
                        }
                    }
                }
            }
            let actual = self
                .wave
                .vgpr_lanes(r)
                .ok_or_else(|| format!("v{r}: register out of range"))?;
            // An active lane of a register the row does not name may be
            // rewritten with its own bits: the hardware shows no change
            // there, so neither does the row. Inactive lanes and kept bits
            // are guarded by `check_left_alone`.
            compare_register(r, &want[..lanes], actual, &mut mismatches);
        }
        let named_s = named_sgprs(&row.expected);
        for s in named_s.union(written.sgprs).iter() {
            let last = |list: &[Assignment]| {
                list.iter().rev().find_map(|a| match a.loc {
                    Loc::Sgpr(n) if usize::from(n) == s => Some(a.value as u32),
                    _ => None,
                })
            };
            let before = last(&row.inputs).unwrap_or(0);
            let expected = last(&row.expected).unwrap_or(before);
            let actual = self.wave.sgpr(s).map_err(|e| e.to_string())?;
            if expected != actual {
                mismatches.push(Mismatch {
                    register: format!("s{s}"),
                    expected,
                    actual,
                    note: None,
                });
            }
        }
        // Wave state the expected column names (no instruction here writes
        // it: it must hold what the inputs gave, or what the row says).
        for a in &row.expected {
            let Ok(actual) = state_value(&self.wave, a.loc) else {
                continue;
            };
            if actual != a.value {
                for (half, shift) in [("", 0), ("_hi", 32)] {
                    let (e, g) = ((a.value >> shift) as u32, (actual >> shift) as u32);
                    if e != g {
                        mismatches.push(Mismatch {
                            register: format!("{}{half}", a.loc),
                            expected: e,
                            actual: g,
                            note: None,
                        });
                    }
                }
            }
        }
        let kept = kept_bits(row.target, &instr);
        let partial_exec = exec != self.wave.size().exec_mask();
        if mismatches.is_empty() && (partial_exec || kept.is_some()) {
            self.check_left_alone(row, &instr, written.vgprs, kept, &mut mismatches)?;
        }
        Ok(mismatches)
    }

    /// Bits the instruction must leave alone: every bit of an inactive lane
    /// (EXEC bit 0), and in the active lanes the part of the destination a
    /// 16-bit or SDWA result keeps ([`kept_bits`]). It must not write them
    /// at all, not even with the bits they held, so run the row again with
    /// those bits inverted in every register it wrote: a bit written with a
    /// value that does not follow the inversion differs from its old value
    /// in the first run or in this one. Only those bits are compared, and
    /// none of them depends on an inverted bit: an inactive lane and a kept
    /// half hold their own old bits. (An active lane's result may change:
    /// under DPP with the destination as src0 it can read an inverted
    /// inactive lane; its bits are not compared here.)
    fn check_left_alone(
        &mut self,
        row: &Row,
        instr: &Instruction,
        written: RegisterSet,
        kept: Option<(usize, u32)>,
        mismatches: &mut Vec<Mismatch>,
    ) -> Result<(), String> {
        prepare(&mut self.wave, row.target, row.mode, &row.inputs)?;
        let exec = self.wave.exec();
        let alone = |r: usize, lane: usize| -> u32 {
            if exec >> lane & 1 == 0 {
                u32::MAX
            } else {
                match kept {
                    Some((dst, bits)) if dst == r => bits,
                    _ => 0,
                }
            }
        };
        for r in written.iter() {
            if let Some(regs) = self.wave.vgpr_lanes_mut(r) {
                for (lane, word) in regs.iter_mut().enumerate() {
                    *word ^= alone(r, lane);
                }
            }
        }
        self.wave.take_written();
        crate::execute(row.target, &mut self.wave, instr).map_err(|e| e.to_string())?;
        let again = self.wave.take_written();
        for r in written.union(again.vgprs).iter() {
            let before = self.before(r);
            let inverted = |lane| {
                if written.contains(r) {
                    alone(r, lane)
                } else {
                    0
                }
            };
            let actual = self
                .wave
                .vgpr_lanes(r)
                .ok_or_else(|| format!("v{r}: register out of range"))?;
            for (lane, (&word, &old)) in actual.iter().zip(&before).enumerate() {
                let mask = alone(r, lane);
                let want = old ^ inverted(lane);
                if (word ^ want) & mask != 0 {
                    // The bits to leave alone as they should be, the rest as written.
                    mismatches.push(Mismatch {
                        register: format!("v{r}[{lane}]"),
                        expected: word & !mask | want & mask,
                        actual: word,
                        note: Some(LEFT_ALONE_BITS_WRITTEN),
                    });
                }
            }
        }
        Ok(())
    }
}

/// The destination register of `instr` and the bits of it that an active
/// lane keeps, when there are any (docs/semantics.md, registers and
/// halves): a true16 16-bit result keeps the other half; a GFX10 F16 result
/// keeps bits 31:16 (GFX9 zeroes them); an SDWA UNUSED_PRESERVE result
/// keeps the bits outside its dst_sel field. Stated here from the target's
/// policies, apart from the executor's write-back, which it checks.
fn kept_bits(target: Target, instr: &Instruction) -> Option<(usize, u32)> {
    let Operand::Vgpr { index, part } = instr.dst else {
        return None;
    };
    let spec = target.spec();
    let bits = match instr.sdwa {
        Some(sdwa) if sdwa.dst_unused == DstUnused::Preserve => {
            let (shift, width) = sdwa.dst_sel.field_bits();
            let field = u32::MAX.checked_shr(32 - width).unwrap_or(0) << shift;
            !field
        }
        Some(_) => 0,
        None if instr.opcode.format() != FormatKind::F16 => 0,
        None if spec.true16.value && part == Part::Hi => 0x0000_ffff,
        None if spec.true16.value => 0xffff_0000,
        None if spec.f16_dst_high.value == F16DstHigh::Preserve => 0xffff_0000,
        None => 0,
    };
    (bits != 0).then_some((usize::from(index), bits))
}

/// Compare one register's lanes; a difference that is the same in every
/// lane is reported once, as the whole register.
fn compare_register(index: usize, want: &[u32], actual: &[u32], out: &mut Vec<Mismatch>) {
    if want == actual {
        return;
    }
    let pairs = want.iter().zip(actual);
    let first = (want.first(), actual.first());
    let uniform =
        want.iter().all(|w| Some(w) == first.0) && actual.iter().all(|a| Some(a) == first.1);
    if uniform {
        if let (Some(&expected), Some(&actual)) = first {
            out.push(Mismatch {
                register: format!("v{index}"),
                expected,
                actual,
                note: None,
            });
        }
        return;
    }
    for (lane, (&expected, &actual)) in pairs.enumerate() {
        if expected != actual {
            out.push(Mismatch {
                register: format!("v{index}[{lane}]"),
                expected,
                actual,
                note: None,
            });
        }
    }
}

/// Run one row and compare bit for bit.
///
/// The inputs are the truth: every value they give is in the register file
/// before execution, in active and inactive lanes alike, and registers they
/// leave unnamed are 0. The row passes when every register and lane the
/// expected column names holds that value (a whole-register value applies
/// to the active lanes), every other one holds its value before, and the
/// instruction wrote neither an inactive lane nor the bits a 16-bit or SDWA
/// result keeps, not even with the bits they held. A whole-register
/// expectation left with no lane to compare (EXEC selects none, or one-lane
/// expectations name every active lane) cannot fail, and the row is an
/// [`Outcome::Error`]. Each
/// [`Replayer::run`] costs what the row touches; this function makes a new
/// replayer per call.
pub fn run_row(row: &Row) -> Outcome {
    Replayer::new().run(row)
}

/// What replaying one line of a capture text gave, as `amdgpu-valu replay`
/// reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineReport {
    /// The row's target; None when the row is malformed.
    pub target: Option<Target>,
    /// Every register held the expected bits.
    pub passed: bool,
    /// Empty for a pass. Otherwise the report, each line ending in `\n`:
    /// `LINE: FAIL row` and one indented line per wrong register,
    /// `LINE:COLUMN: malformed row: reason` and the line, or
    /// `LINE:COLUMN: error: reason` and the row. Callers that name the file
    /// put `FILE:` before it.
    pub text: String,
}

impl Replayer {
    /// Parse and run line `line_no` (1-based) of a capture text; None for a
    /// comment or a blank line.
    pub fn replay_line(&mut self, line_no: usize, line: &str) -> Option<LineReport> {
        let row = match parse_line(line_no, line) {
            Ok(None) => return None,
            Ok(Some(row)) => row,
            Err(e) => {
                return Some(LineReport {
                    target: None,
                    passed: false,
                    text: format!(
                        "{}:{}: malformed row: {}\n    {}\n",
                        e.line,
                        e.column,
                        clip(&e.message),
                        clip(line)
                    ),
                })
            }
        };
        let mut text = String::new();
        let passed = match self.run(&row) {
            Outcome::Pass => true,
            Outcome::Fail(mismatches) => {
                text.push_str(&format!("{line_no}: FAIL {}\n", clip(&row.text)));
                for m in mismatches {
                    let note = m.note.map(|n| format!(" ({n})")).unwrap_or_default();
                    text.push_str(&format!(
                        "    {}: expected {:#010x}, actual {:#010x}{note}\n",
                        m.register, m.expected, m.actual
                    ));
                }
                false
            }
            Outcome::Error(reason) => {
                let column = if reason.starts_with("instruction") {
                    row.instruction_column
                } else {
                    1
                };
                text.push_str(&format!(
                    "{line_no}:{column}: error: {}\n    {}\n",
                    clip(&reason),
                    clip(&row.text)
                ));
                false
            }
        };
        Some(LineReport {
            target: Some(row.target),
            passed,
            text,
        })
    }
}

/// The most of a row, or of a message quoting it, that a report shows:
/// a longer one is cut there and says how long it was, so a report stays
/// small whatever the line (up to [`MAX_LINE_BYTES`]) holds.
const CLIP_BYTES: usize = 1024;

fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= CLIP_BYTES {
        return text.into();
    }
    let head = text.get(..text.floor_char_boundary(CLIP_BYTES));
    format!(
        "{}... ({} bytes in all)",
        head.unwrap_or_default(),
        text.len()
    )
    .into()
}

/// A whole capture text replayed ([`replay_text`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextReport {
    /// Rows whose registers all held the expected bits.
    pub passed: usize,
    /// Rows with wrong bits, malformed rows and rows that could not run.
    pub failed: usize,
    /// One [`LineReport::text`] per failed row, in order, without its last
    /// newline.
    pub failures: Vec<String>,
}

/// Replay every row of `text` (comments and blank lines skipped) on one
/// [`Replayer`].
///
/// ```
/// let text = "gfx1201\t0xf0\tv_fract_f32 v0, v1\tv1=0x3fc00000\tv0=0x3f000000\n\
///             gfx1201\t0xf0\tv_fract_f32 v0, v1\tv1=0x3fc00000\tv0=0x3f800000\n";
/// let r = amdgpu_valu::capture::replay_text(text);
/// assert_eq!((r.passed, r.failed), (1, 1));
/// assert_eq!(
///     r.failures[0],
///     "2: FAIL gfx1201\t0xf0\tv_fract_f32 v0, v1\tv1=0x3fc00000\tv0=0x3f800000\n    \
///      v0: expected 0x3f800000, actual 0x3f000000"
/// );
/// ```
pub fn replay_text(text: &str) -> TextReport {
    let mut report = TextReport::default();
    let mut replayer = Replayer::new();
    for (index, line) in text.lines().enumerate() {
        let Some(row) = replayer.replay_line(index + 1, line) else {
            continue;
        };
        if row.passed {
            report.passed += 1;
        } else {
            report.failed += 1;
            report.failures.push(row.text.trim_end().to_string());
        }
    }
    report
}

/// Machine code bytes as `llvm-mc -show-encoding` prints them:
/// `[0x01,0x41,0x00,0x7e]`.
pub fn format_bytes(bytes: &[u8]) -> String {
    let inner: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
    format!("[{}]", inner.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replay `text` (one row) with `instr` standing in for its
    /// instruction text: arithmetic rows before the assembler parses them.
    fn replay_as(text: &str, instr: Instruction) -> Outcome {
        let row = parse_line(1, text).expect("a row").expect("not blank");
        let mut r = Replayer::new();
        let slot = Target::ALL
            .iter()
            .position(|&t| t == row.target)
            .expect("target");
        r.parsed[slot].insert(row.instruction.clone(), instr);
        r.run(&row)
    }

    #[test]
    fn arithmetic_rows_with_three_sources_and_an_accumulator() {
        use crate::instr::{Encoding, Opcode};
        let v = Operand::v;
        // FMAC F16 on gfx1030: 3 x 2 + D (1.0, bits 15:0) = 7 (0x4700),
        // bits 31:16 kept; EXEC = lanes 0 and 2.
        let fmac = Instruction::binary(Opcode::FmacF16, Encoding::Vop2, v(0), v(1), v(2));
        let row = "gfx1030\t0xf0\tv_fmac_f16_e32 v0, v1, v2\tv0=0xa5a53c00 v1=0x4200 v2=0x4000 exec=0x5\tv0=0xa5a54700";
        assert_eq!(replay_as(row, fmac), Outcome::Pass);
        let wrong = row.replace("v0=0xa5a54700", "v0=0xa5a54800");
        assert!(matches!(replay_as(&wrong, fmac), Outcome::Fail(_)));
        // FMA F32 with three sources: 2 x 3 + 1 = 7 (0x40e00000).
        let fma = Instruction::ternary(Opcode::FmaF32, Encoding::Vop3, v(0), v(1), v(2), v(3));
        let row = "gfx1201\t0xf0\tv_fma_f32 v0, v1, v2, v3\tv1=0x40000000 v2=0x40400000 v3=0x3f800000\tv0=0x40e00000";
        assert_eq!(replay_as(row, fma), Outcome::Pass);
        // A write-back that clobbers the kept half fails the row, even
        // where the bits it writes were already there.
        use crate::exec::fault;
        fault::set(fault::Fault::ClobberOtherHalf);
        let outcome = replay_as(
            "gfx1030\t0xf0\tv_fmac_f16_e32 v0, v1, v2\tv0=0xa5a53c00 v1=0x4200 v2=0x4000\tv0=0xa5a54700",
            fmac,
        );
        fault::set(fault::Fault::None);
        assert!(matches!(outcome, Outcome::Fail(_)), "{outcome:?}");
    }

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

    /// Parse one row and run it.
    fn outcome(text: &str) -> Outcome {
        let row = parse_line(1, text)
            .expect("the row parses")
            .expect("not a comment");
        run_row(&row)
    }

    /// Run `f` with the executor's write-back broken by `fault`.
    fn with_fault<T>(fault: crate::exec::fault::Fault, f: impl FnOnce() -> T) -> T {
        crate::exec::fault::set(fault);
        let out = f();
        crate::exec::fault::set(crate::exec::fault::Fault::None);
        out
    }

    fn failed_registers(o: &Outcome) -> Vec<String> {
        match o {
            Outcome::Fail(m) => m.iter().map(|m| m.register.clone()).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn a_write_back_that_ignores_exec_fails_rows() {
        use crate::exec::fault::Fault;
        // Lane 3 inactive (exec bit 3 clear): it keeps v1.
        let named = "gfx1201\t0xf0\tv_fract_f32 v1, v0\t\
            v0=0x3fc00000 v1=0x12345678 exec=0xfffffff7\tv1=0x3f000000 v1[3]=0x12345678";
        // The stray write would rewrite the bits lane 3 already holds
        // (fract(1.5) = 0.5 = 0x3f000000): only the inverted rerun sees it.
        let same_bits = "gfx1201\t0xf0\tv_fract_f32 v1, v0\t\
            v0=0x3fc00000 v1=0x3f000000 exec=0xfffffff7\tv1=0x3f000000";
        // Wave64, lane 40 inactive, F64 pair.
        let wave64 = "gfx942\t0xf0\tv_fract_f64_e32 v[0:1], v[2:3]\t\
            v[2:3]=0x3ff8000000000000 v[0:1]=0x0123456789abcdef exec=0xfffffeffffffffff\t\
            v[0:1]=0x3fe0000000000000";
        for row in [named, same_bits, wave64] {
            assert_eq!(outcome(row), Outcome::Pass, "{row}");
        }
        let broken = |row| with_fault(Fault::IgnoreExec, || outcome(row));
        assert_eq!(failed_registers(&broken(named)), ["v1[3]"]);
        let Outcome::Fail(m) = broken(same_bits) else {
            panic!("a same-bits write into an inactive lane passed");
        };
        assert_eq!(
            m,
            [Mismatch {
                register: "v1[3]".into(),
                // The rerun's lane 3 held the inverted 0x3f000000.
                expected: 0xc0ff_ffff,
                actual: 0x3f00_0000,
                note: Some(LEFT_ALONE_BITS_WRITTEN),
            }]
        );
        assert_eq!(failed_registers(&broken(wave64)), ["v0[40]", "v1[40]"]);
    }

    #[test]
    fn a_write_back_that_clobbers_the_other_half_fails_rows() {
        use crate::exec::fault::Fault;
        let rows = [
            // true16 high half: the low half is kept [hw gfx1201].
            "gfx1201\t0xf0\tv_fract_f16_e32 v1.h, v0.l\tv0=0x00003e00 v1=0x12345678\tv1=0x38005678",
            // true16 low half.
            "gfx1201\t0xf0\tv_fract_f16_e32 v1.l, v0.l\tv0=0x00003e00 v1=0x12345678\tv1=0x12343800",
            // GFX10 keeps the high half [hw gfx1030].
            "gfx1030\t0xf0\tv_fract_f16_e32 v1, v0\tv0=0x00003e00 v1=0x12345678\tv1=0x12343800",
        ];
        for row in rows {
            assert_eq!(outcome(row), Outcome::Pass, "{row}");
            let broken = with_fault(Fault::ClobberOtherHalf, || outcome(row));
            assert_eq!(failed_registers(&broken), ["v1"], "{row}");
        }
        // The kept half already 0: clearing it rewrites the same bits, and
        // only the rerun with the kept half inverted sees it, in every lane.
        for row in [
            "gfx1201\t0xf0\tv_fract_f16_e32 v1.l, v0.l\tv0=0x00003e00 v1=0x00001234\tv1=0x00003800",
            "gfx1030\t0xf0\tv_fract_f16_e32 v1, v0\tv0=0x00003e00 v1=0x00001234\tv1=0x00003800",
        ] {
            assert_eq!(outcome(row), Outcome::Pass, "{row}");
            let Outcome::Fail(m) = with_fault(Fault::ClobberOtherHalf, || outcome(row)) else {
                panic!("{row}: a same-bits write into the kept half passed");
            };
            assert_eq!(m.len(), 32, "{row}");
            assert_eq!(
                m.first(),
                Some(&Mismatch {
                    register: "v1[0]".into(),
                    expected: 0xffff_3800,
                    actual: 0x0000_3800,
                    note: Some(LEFT_ALONE_BITS_WRITTEN),
                }),
                "{row}"
            );
        }
        // Every F16 row of the public hardware set fails too (destinations
        // start as 0xa5a5a5a5); SDWA merges its dst_sel field apart from
        // this write-back.
        let corpus = include_str!("../../tests/captures/hw-public.tsv");
        let mut f16_rows = 0;
        for (i, line) in corpus.lines().enumerate() {
            let Ok(Some(row)) = parse_line(i + 1, line) else {
                continue;
            };
            assert_eq!(run_row(&row), Outcome::Pass, "{line}");
            if row.instruction.contains("_f16") && !row.instruction.contains("_sdwa") {
                f16_rows += 1;
                let broken = with_fault(Fault::ClobberOtherHalf, || run_row(&row));
                assert!(matches!(broken, Outcome::Fail(_)), "{line}");
            }
        }
        assert!(f16_rows >= 20, "{f16_rows} F16 rows");
    }

    #[test]
    fn a_write_back_that_drops_lanes_32_to_63_fails_wave64_rows() {
        use crate::exec::fault::Fault;
        let row =
            "gfx1201\t0xf0\tv_fract_f32 v1, v0\tv0=0x3fc00000 v1=0x12345678 wave=64\tv1=0x3f000000";
        assert_eq!(outcome(row), Outcome::Pass);
        let broken = with_fault(Fault::SkipHighLanes, || outcome(row));
        let want: Vec<String> = (32..64).map(|l| format!("v1[{l}]")).collect();
        assert_eq!(failed_registers(&broken), want);
    }

    #[test]
    fn a_reused_replayer_forgets_the_previous_row() {
        // Each row reads a register the row before wrote or named; unnamed,
        // it must read 0: fract(0) = 0, ldexp(1.5, 0) = 1.5.
        let rows = [
            "gfx942\t0xf0\tv_fract_f32_e32 v9, v0\tv0=0x3fc00000 exec=0x1\tv9[0]=0x3f000000",
            "gfx1201\t0xf0\tv_fract_f32 v1, v9\tv1=0x12345678\tv1=0x00000000",
            "gfx1201\t0xf0\tv_ldexp_f32 v1, v0, s4\tv0=0x3fc00000 s4=0x00000001\tv1=0x40400000",
            "gfx1201\t0xf0\tv_ldexp_f32 v1, v0, s4\tv0=0x3fc00000\tv1=0x3fc00000",
        ];
        let mut replayer = Replayer::new();
        for row in rows {
            let parsed = parse_line(1, row).expect("parses").expect("a row");
            assert_eq!(replayer.run(&parsed), Outcome::Pass, "{row}");
        }
    }

    fn cached(replayer: &Replayer) -> usize {
        replayer.parsed.iter().map(HashMap::len).sum()
    }

    #[test]
    fn the_instruction_cache_keeps_short_texts_and_at_most_parsed_cache_of_them() {
        // FRACT(1.5) = 0.5 (0x3f000000), whatever blanks pad the text.
        let row = |instr: &str| {
            format!("gfx1201\t0xf0\t{instr}\tv0=0xdeadbeef v1=0x3fc00000\tv0=0x3f000000")
        };
        let mut replayer = Replayer::new();
        let long = format!("v_fract_f32 v0,{}v1", " ".repeat(PARSED_TEXT_BYTES));
        assert_eq!(
            replayer.replay_line(1, &row(&long)).map(|r| r.passed),
            Some(true)
        );
        assert_eq!(cached(&replayer), 0);
        assert_eq!(
            replayer
                .replay_line(2, &row("v_fract_f32 v0, v1"))
                .map(|r| r.passed),
            Some(true)
        );
        assert_eq!(cached(&replayer), 1);
        // 5,000 different instructions (their registers), on two targets.
        let mut most = 0;
        for n in 0..5000 {
            let target = if n % 2 == 0 { "gfx1201" } else { "gfx1100" };
            let line = format!(
                "{target}\t0xf0\tv_fract_f32 v{}, v{}\tv1=0x0\tv{}=0x0",
                n % 200,
                1 + n / 200,
                n % 200
            );
            replayer.replay_line(n, &line);
            most = most.max(cached(&replayer));
        }
        assert_eq!(most, PARSED_CACHE);
    }
}
