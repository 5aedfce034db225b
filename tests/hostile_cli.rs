//! The `amdgpu-valu` command against 1,000 hostile files and argument
//! vectors (generated from a fixed seed): binary files, lines at and far
//! past the 1 MiB limit, capture rows with huge numbers in every field,
//! directories, devices (`/dev/zero`, `/dev/urandom`, `/dev/null`), and
//! every subcommand's arguments out of range.
//!
//! Every run must exit 0, 1 or 2 (never 101, a panic, nor by a signal),
//! stay under 64 MiB of memory at its peak, finish in time (endless inputs
//! are stopped after a while; they must still be running then) and print a
//! bounded report: no line of a replay report is longer than a clipped row.
//!
//! The peak is the child's `ru_maxrss` from `wait4`. Linux counts in it the
//! peak of the process image replaced by `exec`, here this test process's
//! own (std spawns with `vfork`), so it overstates the command's peak by up
//! to this process's size and never understates it. The command's own
//! high-water mark (`VmHWM`) is also sampled while it runs, for the summary.
//!
//! `AMDGPU_VALU_BIN=target/release/amdgpu-valu cargo test --test
//! hostile_cli` runs the same cases against another build of the command.

#![cfg(target_os = "linux")]

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod common;

/// The longest line a capture file may hold (docs/captures.md §2).
const MAX_LINE: usize = 1 << 20;
/// Peak resident memory allowed per run.
const RSS_LIMIT_KIB: u64 = 64 * 1024;
/// A finite case that runs longer than this has hung.
const FINITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long an endless input runs before it is stopped.
const ENDLESS_RUN: Duration = Duration::from_millis(300);
/// The longest line of a replay report: the file name, a row or message
/// clipped at 1 KiB, and a few words around it.
const REPORT_LINE_LIMIT: usize = 1024 + 256;
/// Output allowed for any run.
const OUTPUT_LIMIT: usize = 16 << 20;

fn bin() -> OsString {
    std::env::var_os("AMDGPU_VALU_BIN")
        .unwrap_or_else(|| OsString::from(env!("CARGO_BIN_EXE_amdgpu-valu")))
}

/// The suite's seeded generator (`tests/common`), with the usize draws
/// these cases use: the cases are the same on every run.
struct Rng(common::Rng);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next()
    }

    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        self.0
            .choose(items)
            .expect("the cases pick from non-empty lists")
    }

    /// A size below 2^`bits`, each power of two about as likely.
    fn size(&mut self, bits: usize) -> usize {
        let b = self.below(bits);
        self.below(1 << b)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Category {
    /// Random bytes: NULs, 0xff, tabs and newlines in every proportion.
    ReplayBinary,
    /// Lines at, around and far past the 1 MiB limit.
    ReplayLongLines,
    /// Capture rows with hostile numbers and bytes in every column.
    ReplayRows,
    /// `replay` arguments: `--jobs` out of range, missing and odd files.
    ReplayArgs,
    /// Devices, directories and endless inputs.
    ReplayDevices,
    Eval,
    Asm,
    Disasm,
    /// `targets`, no subcommand, unknown ones, `--help`, non-UTF-8 words.
    Other,
}

/// How many cases each category generates.
const COUNTS: [(Category, usize); 9] = [
    (Category::ReplayBinary, 150),
    (Category::ReplayLongLines, 40),
    (Category::ReplayRows, 400),
    (Category::ReplayArgs, 90),
    (Category::ReplayDevices, 20),
    (Category::Eval, 120),
    (Category::Asm, 90),
    (Category::Disasm, 70),
    (Category::Other, 20),
];

struct Case {
    category: Category,
    args: Vec<OsString>,
    /// An endless input: the run is stopped after [`ENDLESS_RUN`].
    endless: bool,
    /// An environment variable set for the run.
    env: Option<(&'static str, &'static str)>,
}

/// Numbers no register, lane, count or field can hold, and odd spellings.
const HUGE: &[&str] = &[
    "256",
    "257",
    "65536",
    "100000",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999999999999999999999999999999999999999999999999999999",
    "0x100000000",
    "0xffffffffffffffff",
    "0x10000000000000000",
    "0xfffffffffffffffffffffffffffffffffffffffffffffff",
    "0x00000000000000000000000000000000000000000000000001",
    "-1",
    "-0",
    "-18446744073709551616",
    "+1",
    "0x+1",
    "0x-1",
    "0x",
    "1e999999999",
    "nan",
    "inf",
    "٣",
    "１",
    "",
    " 1",
];

/// Instructions, some valid, with `{}` where a number goes.
const INSTRUCTIONS: &[&str] = &[
    "v_fract_f32 v0, v1",
    "v_fract_f32 v{}, v1",
    "v_fract_f32 v0, v{}",
    "v_fract_f32 v0, s{}",
    "v_fract_f32 v0, {}",
    "v_fract_f64 v[{}:{}], v[2:3]",
    "v_fract_f64 v[0:1], s[{}:1]",
    "v_fract_f16_e64 v0.l, v1.l mul:{}",
    "v_fract_f32_e64 v0, v1 clamp div:{}",
    "v_ldexp_f32 v0, v1, {}",
    "v_ldexp_f16_e64 v0.h, v1.l, v2.l op_sel:[{},0,0]",
    "v_ldexp_f16_sdwa v0, v1, sext({}) src1_sel:BYTE_1",
    "v_fract_f32_sdwa v0, v1 dst_sel:WORD_{} src0_sel:BYTE_0",
    "v_fract_f32_dpp v0, v1 quad_perm:[{},1,2,3] row_mask:0xf bank_mask:0xf",
    "v_fract_f32_dpp v0, v1 row_shl:{} row_mask:0xf bank_mask:0xf",
    "v_fract_f32_dpp v0, v1 row_share:{} row_mask:{} bank_mask:0xf",
    "v_fract_f32_dpp v0, v1 dpp8:[{},1,2,3,4,5,6,7] fi:{}",
    "v_fract_f32 v0, lit64({})",
    "v_fract_f32 v0, {}+{}",
];

/// Assignments with `{}` where a number goes.
const ASSIGNMENTS: &[&str] = &[
    "v{}=0x1",
    "v0={}",
    "v0[{}]=0x1",
    "v[{}:{}]=0x1",
    "v[0:1][{}]={}",
    "s{}=0x1",
    "exec={}",
    "wave={}",
    "ttmp{}=0x0",
    "vcc={}",
    "m0={}",
    "scc={}",
    "flat_scratch={}",
    "src_shared_base={}",
];

const TARGETS: &[&str] = &[
    "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1150", "gfx1201",
    "gfx1250",
];

fn fill(rng: &mut Rng, template: &str) -> String {
    let mut out = String::new();
    let mut parts = template.split("{}").peekable();
    while let Some(part) = parts.next() {
        out.push_str(part);
        if parts.peek().is_some() {
            out.push_str(rng.pick(HUGE));
        }
    }
    out
}

fn words(items: &[&str]) -> Vec<OsString> {
    items.iter().map(OsString::from).collect()
}

/// Random bytes: each case draws its own mix of NUL, 0xff, tab, newline,
/// `\r`, printable ASCII and any byte.
fn binary(rng: &mut Rng, len: usize) -> Vec<u8> {
    let weights: Vec<usize> = (0..6).map(|_| rng.below(10)).collect();
    let total: usize = weights.iter().sum::<usize>().max(1);
    (0..len)
        .map(|_| {
            let mut r = rng.below(total);
            let mut kind = 5;
            for (k, &w) in weights.iter().enumerate() {
                if r < w {
                    kind = k;
                    break;
                }
                r -= w;
            }
            match kind {
                0 => 0,
                1 => 0xff,
                2 => b'\t',
                3 => b'\n',
                4 => b' ' + rng.below(95) as u8,
                _ => rng.next() as u8,
            }
        })
        .collect()
}

/// A capture row from the bundled corpus, mutated: a hostile number in a
/// field, a column more or less, random bytes, a long run.
fn mutated_row(rng: &mut Rng, corpus: &[&str]) -> Vec<u8> {
    let row = rng.pick(corpus);
    let mut cols: Vec<String> = row.split('\t').map(String::from).collect();
    match rng.below(9) {
        // A number replaced in some column.
        0..=2 => {
            let c = rng.below(cols.len());
            let col = &cols[c];
            let starts: Vec<usize> = col
                .char_indices()
                .filter(|&(i, ch)| {
                    ch.is_ascii_digit() && !col[..i].ends_with(|p: char| p.is_ascii_alphanumeric())
                })
                .map(|(i, _)| i)
                .collect();
            if let Some(&start) = starts.get(rng.below(starts.len().max(1))) {
                let end = col[start..]
                    .find(|ch: char| !ch.is_ascii_alphanumeric())
                    .map_or(col.len(), |e| start + e);
                cols[c] = format!("{}{}{}", &col[..start], rng.pick(HUGE), &col[end..]);
            }
        }
        // A hostile assignment added to the inputs or expectations.
        3 => {
            let c = 3 + rng.below(2);
            if let Some(col) = cols.get_mut(c) {
                let a = {
                    let t = rng.pick(ASSIGNMENTS);
                    fill(rng, t)
                };
                col.push(' ');
                col.push_str(&a);
            }
        }
        // A hostile instruction.
        4 => {
            if let Some(col) = cols.get_mut(2) {
                *col = {
                    let t = rng.pick(INSTRUCTIONS);
                    fill(rng, t)
                };
            }
        }
        // A column dropped or doubled.
        5 => {
            let c = rng.below(cols.len());
            if rng.chance(50) {
                cols.remove(c);
            } else {
                let dup = cols[c].clone();
                cols.insert(c, dup);
            }
        }
        // MODE or the target replaced.
        6 => {
            cols[0] = rng
                .pick(&["gfx", "GFX1201", "gfx1201 ", "", "gfx99999999999"])
                .to_string();
            if cols.len() > 1 {
                cols[1] = rng.pick(HUGE).to_string();
            }
        }
        // A long run of one character somewhere (under the limit).
        7 => {
            let c = rng.below(cols.len());
            let ch = rng.pick(&[' ', '0', 'f', ',', '[', 'é', '\u{202e}']);
            let n = 1 + rng.below(20_000);
            cols[c].push_str(&ch.to_string().repeat(n));
        }
        // Left as it is.
        _ => {}
    }
    let mut bytes = cols.join("\t").into_bytes();
    // Random bytes flipped.
    if rng.chance(20) {
        for _ in 0..1 + rng.below(4) {
            if !bytes.is_empty() {
                let i = rng.below(bytes.len());
                bytes[i] = rng.next() as u8;
            }
        }
    }
    bytes
}

fn jobs_word(rng: &mut Rng) -> Vec<OsString> {
    if rng.chance(60) {
        return Vec::new();
    }
    let jobs = rng.pick(&["0", "1", "2", "3", "8", "256"]);
    words(&["--jobs", jobs])
}

/// Part of a file: bytes, or one byte repeated.
#[derive(Clone)]
enum Piece {
    Bytes(Vec<u8>),
    Repeat(u8, usize),
}

/// Writes `pieces` to `path` through a small buffer: this process's own
/// peak memory counts in the one measured for its children (see the top of
/// the file), so it never holds a long line.
fn write_pieces(path: &Path, pieces: &[Piece]) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    let chunk = [0u8; 1 << 14];
    for piece in pieces {
        match piece {
            Piece::Bytes(b) => file.write_all(b).expect("write"),
            Piece::Repeat(byte, n) => {
                let chunk = chunk.map(|_| *byte);
                let mut left = *n;
                while left > 0 {
                    let k = left.min(chunk.len());
                    file.write_all(&chunk[..k]).expect("write");
                    left -= k;
                }
            }
        }
    }
    file.flush().expect("flush");
}

struct Generator<'a> {
    rng: Rng,
    dir: &'a Path,
    corpus: Vec<&'static str>,
    files: usize,
}

impl Generator<'_> {
    fn file(&mut self, bytes: &[u8]) -> OsString {
        self.files += 1;
        let path = self.dir.join(format!("case-{}.tsv", self.files));
        std::fs::write(&path, bytes).expect("write a case file");
        path.into_os_string()
    }

    fn replay(&mut self, category: Category, bytes: &[u8]) -> Case {
        let mut args = words(&["replay"]);
        args.extend(jobs_word(&mut self.rng));
        args.push(self.file(bytes));
        Case {
            category,
            args,
            endless: false,
            env: None,
        }
    }

    /// A replay of a file written piece by piece, never held whole.
    fn replay_pieces(&mut self, category: Category, pieces: &[Piece]) -> Case {
        self.files += 1;
        let path = self.dir.join(format!("case-{}.tsv", self.files));
        write_pieces(&path, pieces);
        let mut args = words(&["replay"]);
        args.extend(jobs_word(&mut self.rng));
        args.push(path.into_os_string());
        Case {
            category,
            args,
            endless: false,
            env: None,
        }
    }

    fn case(&mut self, category: Category, i: usize) -> Case {
        let rng = &mut self.rng;
        let args = |a: Vec<OsString>| Case {
            category,
            args: a,
            endless: false,
            env: None,
        };
        match category {
            Category::ReplayBinary => {
                let len = rng.size(17);
                let bytes = binary(rng, len);
                self.replay(category, &bytes)
            }
            Category::ReplayLongLines => {
                let good = self.corpus[i % self.corpus.len()].as_bytes();
                let len = match i % 8 {
                    0 => MAX_LINE - 1,
                    1 => MAX_LINE,
                    2 => MAX_LINE + 1,
                    3 => MAX_LINE + 2,
                    4 => 3 * MAX_LINE,
                    5 => MAX_LINE - good.len(),
                    _ => MAX_LINE + rng.below(MAX_LINE / 2),
                };
                let fill_byte = rng.pick(&[b'x', b'\t', b' ', 0, 0xff, b'\r', b'#']);
                let mut line = if i % 8 == 5 {
                    // A valid row padded with blanks up to the limit: it
                    // runs, and its instruction text is not cached.
                    let tab = good.iter().position(|&b| b == b'\t').unwrap_or(0);
                    let second = tab
                        + 1
                        + good[tab + 1..]
                            .iter()
                            .position(|&b| b == b'\t')
                            .unwrap_or(0);
                    vec![
                        Piece::Bytes(good[..=second].to_vec()),
                        Piece::Repeat(b' ', len),
                        Piece::Bytes(good[second + 1..].to_vec()),
                    ]
                } else {
                    vec![Piece::Repeat(fill_byte, len)]
                };
                if rng.chance(30) {
                    line.push(Piece::Bytes(b"\r".to_vec()));
                }
                let mut pieces = Vec::new();
                for _ in 0..1 + usize::from(rng.chance(20)) {
                    pieces.extend(line.iter().cloned());
                    pieces.push(Piece::Bytes(b"\n".to_vec()));
                    pieces.push(Piece::Bytes(good.to_vec()));
                    pieces.push(Piece::Bytes(b"\n".to_vec()));
                }
                if rng.chance(25) {
                    pieces.extend(line);
                }
                self.replay_pieces(category, &pieces)
            }
            Category::ReplayRows => {
                let mut bytes = Vec::new();
                for _ in 0..1 + rng.below(40) {
                    let corpus = self.corpus.clone();
                    bytes.extend(mutated_row(&mut self.rng, &corpus));
                    bytes.extend_from_slice(if self.rng.chance(10) { b"\r\n" } else { b"\n" });
                }
                self.replay(category, &bytes)
            }
            Category::ReplayArgs => {
                let good = format!("{}\n", self.corpus[0]);
                let file = self.file(good.as_bytes());
                let rng = &mut self.rng;
                let mut a = words(&["replay"]);
                match i % 6 {
                    0 | 1 => {
                        a.extend(words(&["--jobs", rng.pick(HUGE)]));
                        a.push(file);
                    }
                    2 => {
                        let jobs = format!("--jobs={}", rng.pick(HUGE));
                        a.push(jobs.into());
                    }
                    3 => a.extend(words(&[rng.pick(&[
                        "",
                        "no-such-file.tsv",
                        "/",
                        "/nonexistent/x",
                        "--jobs",
                    ])])),
                    4 => {
                        // The same file many times (once 15,000 times: as
                        // many descriptors as the system allows, a buffer
                        // only for the file being read), or with a
                        // directory.
                        let copies = if i == 4 { 15_000 } else { 1 + rng.below(300) };
                        for _ in 0..copies {
                            a.push(file.clone());
                        }
                        if rng.chance(30) {
                            a.push(std::env::temp_dir().into_os_string());
                        }
                    }
                    _ => {
                        a.push(file);
                        a.extend(words(&[rng.pick(&[
                            "--jobs",
                            "--frobnicate",
                            "-j",
                            "--",
                            "--jobs=-1",
                        ])]));
                    }
                }
                args(a)
            }
            Category::ReplayDevices => {
                let (device, endless) = [
                    ("/dev/null", false),
                    ("/dev/zero", true),
                    ("/dev/urandom", true),
                    ("/dev/full", true),
                    ("/proc/self/mem", false),
                    ("/proc/self/status", false),
                    ("/dev/stdin", false),
                    ("/proc", false),
                    ("/dev", false),
                    ("/dev/tty", false),
                ][i % 10];
                let mut a = words(&["replay"]);
                if i >= 10 {
                    a.extend(words(&["--jobs", "4"]));
                }
                a.push(device.into());
                Case {
                    category,
                    args: a,
                    endless,
                    env: None,
                }
            }
            Category::Eval => {
                let mut a = words(&["eval", "--target"]);
                a.push(
                    if rng.chance(90) {
                        rng.pick(TARGETS)
                    } else {
                        rng.pick(HUGE)
                    }
                    .into(),
                );
                for (flag, p) in [("--mode", 50), ("--wave", 30), ("--exec", 50)] {
                    if rng.chance(p) {
                        a.push(flag.into());
                        let v = match rng.below(3) {
                            0 => rng
                                .pick(&["0xf0", "32", "64", "0xffffffff", "0x0"])
                                .to_string(),
                            _ => rng.pick(HUGE).to_string(),
                        };
                        a.push(v.into());
                    }
                }
                if rng.chance(30) {
                    a.push("--json".into());
                }
                let instruction = {
                    let t = rng.pick(INSTRUCTIONS);
                    fill(rng, t)
                };
                a.push(instruction.into());
                for _ in 0..rng.below(5) {
                    let assignment = {
                        let t = rng.pick(ASSIGNMENTS);
                        fill(rng, t)
                    };
                    a.push(assignment.into());
                }
                args(a)
            }
            Category::Asm => {
                let mut a = words(&["asm", "--target", rng.pick(TARGETS)]);
                let mut text = {
                    let t = rng.pick(INSTRUCTIONS);
                    fill(rng, t)
                };
                if rng.chance(10) {
                    // Long, under the kernel's limit on one argument.
                    let n = rng.below(100_000);
                    text.push_str(&" ".repeat(n));
                    text.push_str(rng.pick(HUGE));
                }
                a.push(text.into());
                args(a)
            }
            Category::Disasm => {
                let mut a = words(&["disasm", "--target", rng.pick(TARGETS)]);
                match i % 3 {
                    0 => {
                        // Random bytes, valid hex: up to a few thousand.
                        let n = rng.size(13);
                        let bytes: Vec<String> = (0..n)
                            .map(|_| format!("{:02x}", rng.next() as u8))
                            .collect();
                        a.push(bytes.join(" ").into());
                    }
                    1 => {
                        let bytes: Vec<String> = (0..1 + rng.below(8))
                            .map(|_| format!("0x{:02x}", rng.next() as u8))
                            .collect();
                        a.push(format!("[{}]", bytes.join(",")).into());
                    }
                    _ => {
                        for _ in 0..1 + rng.below(4) {
                            a.push(rng.pick(HUGE).into());
                        }
                    }
                }
                args(a)
            }
            Category::Other => {
                let a: Vec<OsString> = match i {
                    0 => Vec::new(),
                    1 => words(&["--help"]),
                    2 => words(&["--version"]),
                    3 => words(&["targets"]),
                    4 => words(&["targets", "extra"]),
                    5 => words(&["targets", "--jobs", "5"]),
                    6 => words(&["frobnicate"]),
                    7 => words(&["help", "replay"]),
                    8 => words(&[""]),
                    9 => vec![
                        "replay".into(),
                        OsString::from_vec(b"\xff\xfe.tsv".to_vec()),
                    ],
                    10 => vec![OsString::from_vec(b"\xff".to_vec())],
                    11 => vec![
                        "eval".into(),
                        "--target".into(),
                        OsString::from_vec(b"gfx1201\xff".to_vec()),
                        "v_fract_f32 v0, v1".into(),
                    ],
                    12 => vec![
                        "asm".into(),
                        "--target".into(),
                        "gfx1201".into(),
                        OsString::from_vec(b"v_fract_f32 v0, v\xff".to_vec()),
                    ],
                    13 => words(&["disasm", "--target", "gfx1201"]),
                    14 => words(&["eval"]),
                    15 => words(&["asm", "--target"]),
                    16 => words(&["replay", "--help"]),
                    17 => words(&["eval", "--help"]),
                    18 => words(&["disasm", "--help"]),
                    _ => words(&["asm", "--help"]),
                };
                args(a)
            }
        }
    }
}

/// What one run did.
struct Run {
    /// The exit code; None when a signal ended it.
    code: Option<i32>,
    signal: Option<i32>,
    /// Still running when an endless case's time was up (then stopped).
    stopped: bool,
    /// Peak memory, an upper bound (see the top of the file).
    max_rss_kib: u64,
    /// The largest `VmHWM` seen while it ran (sampled, so it may miss the
    /// last moments).
    seen_hwm_kib: u64,
    elapsed: Duration,
    stdout: Output,
    stderr: Output,
}

/// Output read as it comes: its size, its longest line, its start.
#[derive(Default)]
struct Output {
    bytes: usize,
    longest_line: usize,
    head: Vec<u8>,
}

fn drain(mut pipe: impl Read) -> Output {
    let mut out = Output::default();
    let mut line = 0;
    let mut buf = [0; 1 << 12];
    while let Ok(n) = pipe.read(&mut buf) {
        if n == 0 {
            break;
        }
        for &b in &buf[..n] {
            if b == b'\n' {
                line = 0;
            } else {
                line += 1;
                out.longest_line = out.longest_line.max(line);
            }
        }
        if out.head.len() < 2048 {
            out.head
                .extend_from_slice(&buf[..n.min(2048 - out.head.len())]);
        }
        out.bytes += n;
    }
    out
}

/// The high-water mark of `pid`'s memory, 0 once it has exited.
fn vm_hwm_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// `wait4` on `pid`: its status and peak memory, None while it runs (with
/// `WNOHANG`).
fn wait4(pid: u32, options: i32) -> Option<(i32, u64)> {
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills; zero is a valid
    // value of every field.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pointers are to live locals; `pid` is our unreaped child.
    let r = unsafe { libc::wait4(pid as i32, &mut status, options, &mut usage) };
    // ru_maxrss is in KiB on Linux.
    (r == pid as i32).then_some((status, usage.ru_maxrss as u64))
}

// The child is reaped by `wait4`, which std's `wait` would race.
#[allow(clippy::zombie_processes)]
fn run(case: &Case) -> Run {
    let mut command = Command::new(bin());
    command
        .args(&case.args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some((name, value)) = case.env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("the command starts");
    let pid = child.id();
    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || drain(stdout));
    let err = std::thread::spawn(move || drain(stderr));
    let limit = if case.endless {
        ENDLESS_RUN
    } else {
        FINITE_TIMEOUT
    };
    let start = Instant::now();
    let mut pause = Duration::from_micros(100);
    let mut stopped = false;
    let mut seen_hwm_kib = 0;
    let (status, max_rss_kib) = loop {
        seen_hwm_kib = seen_hwm_kib.max(vm_hwm_kib(pid));
        if let Some(done) = wait4(pid, libc::WNOHANG) {
            break done;
        }
        if start.elapsed() > limit {
            stopped = true;
            let _ = child.kill();
            break wait4(pid, 0).expect("the stopped command is reaped");
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    };
    let signaled = libc::WIFSIGNALED(status);
    Run {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: (signaled && !stopped).then(|| libc::WTERMSIG(status)),
        stopped,
        max_rss_kib,
        seen_hwm_kib,
        elapsed: start.elapsed(),
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

fn describe(case: &Case, run: &Run) -> String {
    let args: Vec<String> = case
        .args
        .iter()
        .map(|a| {
            let s = a.to_string_lossy();
            if s.len() > 80 {
                format!("{}... ({} bytes)", &s[..s.floor_char_boundary(80)], s.len())
            } else {
                s.into_owned()
            }
        })
        .collect();
    format!(
        "{:?} {args:?}: code {:?}, signal {:?}, stopped {}, {} KiB, stdout {} bytes (longest line {}), stderr: {}",
        case.category,
        run.code,
        run.signal,
        run.stopped,
        run.max_rss_kib,
        run.stdout.bytes,
        run.stdout.longest_line,
        String::from_utf8_lossy(&run.stderr.head)
    )
}

/// The rules every run keeps; the reasons it broke them.
fn check(case: &Case, run: &Run) -> Vec<&'static str> {
    let mut broken = Vec::new();
    if run.signal.is_some() {
        broken.push("ended by a signal (an abort?)");
    }
    if run.code == Some(101) || String::from_utf8_lossy(&run.stderr.head).contains("panicked") {
        broken.push("panicked");
    }
    if !run.stopped && !matches!(run.code, Some(0..=2)) {
        broken.push("exit status other than 0, 1, 2");
    }
    if run.stopped && !case.endless {
        broken.push("did not finish in time");
    }
    if case.endless && !run.stopped && run.code != Some(2) {
        broken.push("an endless input ended");
    }
    if run.max_rss_kib >= RSS_LIMIT_KIB {
        broken.push("64 MiB or more of memory");
    }
    if run.stdout.bytes + run.stderr.bytes > OUTPUT_LIMIT {
        broken.push("more than 16 MiB of output");
    }
    let replay = case.args.first().is_some_and(|a| a == OsStr::new("replay"));
    let name = case.args.iter().map(|a| a.len()).max().unwrap_or(0);
    if replay && run.stdout.longest_line > REPORT_LINE_LIMIT + name {
        broken.push("a report line longer than a clipped row");
    }
    broken
}

#[test]
fn a_thousand_hostile_files_and_argument_vectors() {
    let dir = std::env::temp_dir().join(format!("amdgpu-valu-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let corpus: Vec<&'static str> = [
        include_str!("captures/hw-public.tsv"),
        include_str!("captures/spec-examples.tsv"),
        include_str!("captures/dpp-spec.tsv"),
        include_str!("captures/arith-spec.tsv"),
    ]
    .iter()
    .flat_map(|t| t.lines())
    .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    .collect();
    let mut generator = Generator {
        rng: Rng(common::Rng(0x4d41_4d44_2d68_6f73)),
        dir: &dir,
        corpus,
        files: 0,
    };
    let mut cases = Vec::new();
    for (category, count) in COUNTS {
        for i in 0..count {
            cases.push(generator.case(category, i));
        }
    }
    assert_eq!(cases.len(), 1000);

    // Four runs at a time, the endless ones first so that their wait
    // overlaps the others.
    let mut order: Vec<usize> = (0..cases.len()).collect();
    order.sort_by_key(|&i| !cases[i].endless);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Run)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| loop {
                let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    return;
                };
                let case = &cases[i];
                let r = run(case);
                results.lock().expect("no panic holds it").push((i, r));
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let mut results = results.into_inner().expect("no panic held it");
    results.sort_by_key(|(i, _)| *i);

    let mut failures = Vec::new();
    let mut ran = std::collections::BTreeMap::new();
    let (mut codes, mut stopped, mut peak, mut seen) = ([0usize; 3], 0, 0, 0);
    let mut slowest = (Duration::ZERO, 0);
    for (i, r) in &results {
        let case = &cases[*i];
        *ran.entry(case.category).or_insert(0usize) += 1;
        let broken = check(case, r);
        if !broken.is_empty() {
            failures.push(format!("{}: {}", broken.join(", "), describe(case, r)));
        }
        if let Some(c @ 0..=2) = r.code {
            codes[c as usize] += 1;
        }
        stopped += usize::from(r.stopped);
        peak = peak.max(r.max_rss_kib);
        seen = seen.max(r.seen_hwm_kib);
        if !r.stopped {
            slowest = slowest.max((r.elapsed, *i));
        }
    }
    println!(
        "{} runs: exit 0 {}, exit 1 {}, exit 2 {}, endless stopped {stopped}; peak memory {peak} KiB by wait4, \
         {seen} KiB by sampled VmHWM; \
         slowest finite run {:?}: {:?}",
        results.len(),
        codes[0],
        codes[1],
        codes[2],
        slowest.0,
        cases[slowest.1].category
    );
    assert!(
        failures.is_empty(),
        "{} of {} runs broke a rule:\n{}",
        failures.len(),
        results.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert_eq!(ran, COUNTS.into_iter().collect(), "runs per category");
    // Every kind of ending happened: the cases reach past argument checks.
    assert!(codes.iter().all(|&c| c >= 20), "exit 0/1/2: {codes:?}");
    // /dev/zero, /dev/urandom and /dev/full, each with and without --jobs.
    assert_eq!(stopped, 6, "endless inputs still running when stopped");
}

fn case(args: &[&str], endless: bool) -> Case {
    Case {
        category: Category::Other,
        args: words(args),
        endless,
        env: None,
    }
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.head).into_owned()
}

const GOOD: &str =
    "gfx1201\t0x000000f0\tv_fract_f32_e32 v0, v1\tv0=0xdeadbeef v1=0x3fc00000\tv0=0x3f000000";

#[test]
fn a_3_mib_line_is_one_failed_row_and_the_row_after_it_replays() {
    let dir = std::env::temp_dir().join(format!("amdgpu-valu-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("long.tsv");
    // Line 1: 3 MiB of `x` after a tab; line 2: a good row (FRACT(1.5) =
    // 0.5, 0x3f000000).
    write_pieces(
        &path,
        &[
            Piece::Bytes(b"ab\t".to_vec()),
            Piece::Repeat(b'x', 3 * MAX_LINE - 3),
            Piece::Bytes(format!("\n{GOOD}\n").into_bytes()),
        ],
    );
    let file = path.to_str().expect("utf-8 path");
    for jobs in ["1", "2"] {
        let r = run(&case(&["replay", "--jobs", jobs, file], false));
        let out = text(&r.stdout);
        assert_eq!(r.code, Some(1), "--jobs {jobs}: {out}");
        // The report: the line number, the limit, the first 40 bytes
        // escaped (the tab as `\t`).
        let want = format!(
            "{file}:1:1: malformed row: longer than 1048576 bytes (1 MiB), the rest of the line \
             is skipped\n    starts with: \"ab\\t{}\"...\n",
            "x".repeat(37)
        );
        assert!(out.starts_with(&want), "--jobs {jobs}: {out}");
        assert!(out.lines().any(|l| l == "1 passed, 1 failed"), "{out}");
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().eq(["malformed", "1", "0", "1"])),
            "{out}"
        );
        assert!(r.max_rss_kib < RSS_LIMIT_KIB, "{} KiB", r.max_rss_kib);
        assert!(r.stdout.bytes < 1024, "{} bytes", r.stdout.bytes);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dev_zero_replays_in_flat_memory_and_reports_its_line_once() {
    for jobs in ["1", "4"] {
        let mut c = case(&["replay", "--jobs", jobs, "/dev/zero"], true);
        c.category = Category::ReplayDevices;
        let r = run(&c);
        let out = text(&r.stdout);
        // Still reading its one endless line when stopped, in flat memory,
        // the line's report shown (its first 40 bytes, NULs escaped).
        assert!(r.stopped, "--jobs {jobs}: ended: {}", describe(&c, &r));
        assert!(r.max_rss_kib < RSS_LIMIT_KIB, "{}", describe(&c, &r));
        let want = format!(
            "/dev/zero:1:1: malformed row: longer than 1048576 bytes (1 MiB), the rest of the \
             line is skipped\n    starts with: \"{}\"...\n",
            "\\x00".repeat(40)
        );
        assert_eq!(out, want, "--jobs {jobs}");
    }
}

#[test]
fn jobs_out_of_range_is_exit_2_naming_the_range() {
    for jobs in [
        "257",
        "100000",
        "18446744073709551615",
        "18446744073709551616",
        "-1",
        "1.5",
        "",
    ] {
        let r = run(&case(&["replay", &format!("--jobs={jobs}")], false));
        let err = text(&r.stderr);
        assert_eq!(r.code, Some(2), "--jobs {jobs}: {err}");
        assert!(
            err.contains("--jobs") && err.contains("0 to 256"),
            "--jobs {jobs}: {err}"
        );
    }
    // The ends of the range replay the bundled corpus.
    for jobs in ["0", "256"] {
        let r = run(&case(&["replay", "--jobs", jobs], false));
        assert_eq!(r.code, Some(0), "--jobs {jobs}: {}", text(&r.stderr));
        assert!(
            r.max_rss_kib < RSS_LIMIT_KIB,
            "--jobs {jobs}: {} KiB",
            r.max_rss_kib
        );
    }
}

#[test]
fn a_thread_the_system_refuses_is_exit_2_not_a_panic() {
    // Threads of 1 PiB stacks (std reads RUST_MIN_STACK): more than the
    // address space, so the system refuses the first, and nothing else
    // runs short of memory.
    let mut c = case(&["replay", "--jobs", "2"], false);
    c.env = Some(("RUST_MIN_STACK", "1125899906842624"));
    let r = run(&c);
    let err = text(&r.stderr);
    assert_eq!(r.code, Some(2), "{}", describe(&c, &r));
    assert!(
        err.starts_with("error: --jobs 2: cannot start a thread"),
        "{err}"
    );
    assert_eq!(r.stdout.bytes, 0, "{}", text(&r.stdout));
    // One thread, the main one: the bundled corpus passes.
    let mut c = case(&["replay"], false);
    c.env = Some(("RUST_MIN_STACK", "1125899906842624"));
    assert_eq!(run(&c).code, Some(0));
}
