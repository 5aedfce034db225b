//! The `amdgpu-valu` command: replay hardware captures, explain single
//! instructions, assemble and disassemble.

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufReader, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{mpsc, Mutex};
use std::time::Instant;

use amdgpu_valu::capture::{
    format_bytes, parse_assignment, prepare_wave, Assignment, LineReader, LineReport, Loc,
    ReadLine, Replayer,
};
use amdgpu_valu::explain::explain;
use amdgpu_valu::explain::value;
use amdgpu_valu::FormatKind;
use amdgpu_valu::{asm, Evidence, Instruction, Operand, Part, SdwaSel, Target, Wave, WaveSize};
use clap::{Parser, Subcommand};

/// Bit-exact AMD GPU V_FRACT / V_LDEXP: replay captures, explain instructions.
#[derive(Parser)]
#[command(name = "amdgpu-valu", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay capture files (format: docs/captures.md) and compare bit for bit.
    /// With no FILE, replays the bundled corpus. Exit status: 0 every row
    /// passed, 1 a row failed, 2 usage error.
    Replay {
        /// Capture files (.tsv), read as streams: any size, in flat memory.
        /// A line longer than 1 MiB (1048576 bytes) is one failed row.
        files: Vec<PathBuf>,
        /// Threads replaying rows, 0 to 256 (0: one per core, at most 256);
        /// the report keeps the order of the files either way.
        #[arg(long, default_value_t = 1, value_parser = parse_jobs)]
        jobs: usize,
    },
    /// Run one instruction and explain every decision it took.
    Eval {
        /// Target (`amdgpu-valu targets` lists them).
        #[arg(long)]
        target: String,
        /// MODE register, hex, `0x` optional: 0x0 to 0xffffffff.
        #[arg(long, default_value = "0x000000f0")]
        mode: String,
        /// Wave size: 32 or 64, one the target has; default: the target's.
        #[arg(long)]
        wave: Option<String>,
        /// EXEC mask, hex, `0x` optional: 0x0 to 0xffffffffffffffff (bits
        /// above the wave size are ignored); default: every lane.
        #[arg(long)]
        exec: Option<String>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// The instruction, in LLVM syntax.
        instruction: String,
        /// Register assignments as in a capture row (docs/captures.md), e.g.
        /// v1=0x00003bff v[2:3]=0x3ff0000000000000: VGPRs 0 to 255, SGPRs 0
        /// to 105, ttmp 0 to 15, lanes below the wave size, values of the
        /// register's width (32 or 64 bits).
        assignments: Vec<String>,
    },
    /// Assemble one instruction and print its bytes as llvm-mc does.
    Asm {
        /// Target.
        #[arg(long)]
        target: String,
        /// The instruction.
        instruction: String,
    },
    /// Disassemble bytes ([0x01,0x91,0x00,0x7e] or 01 91 00 7e).
    Disasm {
        /// Target.
        #[arg(long)]
        target: String,
        /// The bytes, each hex 0x00 to 0xff (`0x` optional).
        bytes: Vec<String>,
    },
    /// List the targets and their policies with the evidence behind each
    /// (docs/semantics.md §8).
    Targets,
}

/// The most threads `replay --jobs` takes: more than any machine the
/// command runs on has cores, few enough that their stacks and waves fit.
const MAX_JOBS: usize = 256;

/// `--jobs`: decimal digits, 0 to [`MAX_JOBS`].
fn parse_jobs(s: &str) -> Result<usize, String> {
    s.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| s.parse::<usize>().ok())
        .flatten()
        .filter(|&n| n <= MAX_JOBS)
        .ok_or_else(|| format!("not a number from 0 to {MAX_JOBS}"))
}

/// The bundled corpus, compiled in so `replay` works from any directory.
const CORPUS: &[(&str, &str)] = &[
    (
        "tests/captures/hw-public.tsv",
        include_str!("../../tests/captures/hw-public.tsv"),
    ),
    (
        "tests/captures/spec-examples.tsv",
        include_str!("../../tests/captures/spec-examples.tsv"),
    ),
    (
        "tests/captures/dpp-spec.tsv",
        include_str!("../../tests/captures/dpp-spec.tsv"),
    ),
    (
        "tests/captures/arith-spec.tsv",
        include_str!("../../tests/captures/arith-spec.tsv"),
    ),
];

/// `println!` that turns a closed standard output (`amdgpu-valu targets |
/// head`) into an error instead of a panic.
macro_rules! out {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout(), $($arg)*).map_err(|e| format!("writing the output: {e}"))?
    };
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Replay { files, jobs } => replay(&files, jobs),
        Command::Eval {
            target,
            mode,
            wave,
            exec,
            json,
            instruction,
            assignments,
        } => eval(
            &target,
            &mode,
            wave.as_deref(),
            exec.as_deref(),
            json,
            &instruction,
            &assignments,
        ),
        Command::Asm {
            target,
            instruction,
        } => asm_cmd(&target, &instruction),
        Command::Disasm { target, bytes } => disasm_cmd(&target, &bytes.join(" ")),
        Command::Targets => targets(),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn parse_target(name: &str) -> Result<Target, String> {
    name.parse::<Target>().map_err(|e| e.to_string())
}

/// A hex number given on the command line, `0x` optional: hex digits only
/// (`u64::from_str_radix` alone would take a sign), at most `bits` bits.
/// Errors name the option and a 1-based column in its value.
fn parse_hex_arg(what: &str, s: &str, bits: u32) -> Result<u64, String> {
    let err = |column: usize, m: &str| format!("{what} `{s}`: column {column}: {m}");
    let skip = if s.starts_with("0x") || s.starts_with("0X") {
        2
    } else {
        0
    };
    let digits = s.get(skip..).unwrap_or_default();
    if let Some((i, c)) = digits
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_hexdigit())
    {
        return Err(err(skip + i + 1, &format!("`{c}` is not a hex digit")));
    }
    if digits.is_empty() {
        return Err(err(skip + 1, "no hex digits"));
    }
    u64::from_str_radix(digits, 16)
        .ok()
        .filter(|v| bits >= 64 || v >> bits == 0)
        .ok_or_else(|| err(skip + 1, &format!("more than {bits} bits")))
}

/// An assignment given on the command line, errors with a column in it.
fn parse_assignment_arg(a: &str) -> Result<Assignment, String> {
    parse_assignment(a).map_err(|e| format!("`{a}`: {e}"))
}

#[derive(Default)]
struct Tally {
    rows: usize,
    passed: usize,
    failed: usize,
}

impl Tally {
    fn add(&mut self, passed: bool) {
        self.rows += 1;
        if passed {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
    }
}

/// Replay one line as the reader gave it; None for a comment or a blank
/// line. The report's text names the file.
fn replay_line(
    replayer: &mut Replayer,
    name: &str,
    line_no: usize,
    line: Result<&str, LineReport>,
) -> Option<LineReport> {
    let mut report = match line {
        Ok(text) => replayer.replay_line(line_no, text)?,
        Err(rejected) => rejected,
    };
    if !report.text.is_empty() {
        report.text = format!("{name}:{}", report.text);
    }
    Some(report)
}

/// A line from the reader: its text, or the report of a line that cannot
/// be a row.
fn owned(line: ReadLine<'_>) -> Result<String, LineReport> {
    match line {
        ReadLine::Text(text) => Ok(text.to_string()),
        ReadLine::Rejected(report) => Err(report),
    }
}

/// Counts per target and for malformed rows, and progress on stderr.
struct Summary {
    per_target: Vec<(Target, Tally)>,
    malformed: Tally,
    rows: usize,
    start: Instant,
    last_progress: Instant,
}

impl Summary {
    fn new() -> Summary {
        let now = Instant::now();
        Summary {
            per_target: Target::ALL.iter().map(|&t| (t, Tally::default())).collect(),
            malformed: Tally::default(),
            rows: 0,
            start: now,
            last_progress: now,
        }
    }

    fn add(&mut self, report: &LineReport) {
        self.rows += 1;
        let tally = report
            .target
            .and_then(|target| self.per_target.iter_mut().find(|(t, _)| *t == target))
            .map_or(&mut self.malformed, |(_, tally)| tally);
        tally.add(report.passed);
    }

    /// Long replays report progress on stderr about once a second (the
    /// clock is read every 256 lines).
    fn progress(&mut self, name: &str, line_no: usize) {
        if line_no.is_multiple_of(256) && self.last_progress.elapsed().as_secs() >= 1 {
            eprintln!(
                "replay: {name}:{line_no}, {} rows in {:.1} s",
                self.rows,
                self.start.elapsed().as_secs_f64()
            );
            self.last_progress = Instant::now();
        }
    }
}

/// A capture file to stream, opened but not yet buffered: a buffer is made
/// when its turn comes, so many files cost a descriptor each, no more.
type Source = (String, Box<dyn Read + Send>);

/// Bytes read from a capture file at a time.
const READ_BUFFER: usize = 1 << 16;

fn replay(files: &[PathBuf], jobs: usize) -> Result<ExitCode, String> {
    // Open every file first, so an unreadable one is a usage error before
    // any row runs; then stream the rows (memory does not grow with the files).
    let mut sources: Vec<Source> = Vec::new();
    if files.is_empty() {
        for &(name, text) in CORPUS {
            sources.push((name.to_string(), Box::new(text.as_bytes())));
        }
    }
    for f in files {
        let file = std::fs::File::open(f).map_err(|e| format!("{}: {e}", f.display()))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(format!("{}: is a directory", f.display()));
        }
        sources.push((f.display().to_string(), Box::new(file)));
    }
    let file_count = sources.len();
    let jobs = match jobs {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    }
    .min(MAX_JOBS);
    let mut summary = Summary::new();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if jobs == 1 {
        replay_sequential(sources, &mut summary, &mut out)?;
    } else {
        replay_parallel(sources, jobs, &mut summary, &mut out)?;
    }
    let elapsed = summary.start.elapsed();
    let w = |e: std::io::Error| format!("writing the report: {e}");
    writeln!(out).map_err(w)?;
    writeln!(
        out,
        "{:<10} {:>6} {:>7} {:>7}",
        "target", "rows", "passed", "failed"
    )
    .map_err(w)?;
    let (mut passed, mut failed) = (0, summary.malformed.failed);
    for (t, tally) in &summary.per_target {
        if tally.rows == 0 {
            continue;
        }
        writeln!(
            out,
            "{:<10} {:>6} {:>7} {:>7}",
            t.name(),
            tally.rows,
            tally.passed,
            tally.failed
        )
        .map_err(w)?;
        passed += tally.passed;
        failed += tally.failed;
    }
    if summary.malformed.rows > 0 {
        writeln!(
            out,
            "{:<10} {:>6} {:>7} {:>7}",
            "malformed", summary.malformed.rows, 0, summary.malformed.failed
        )
        .map_err(w)?;
    }
    writeln!(
        out,
        "replayed {file_count} file(s), {} row(s) in {:.1} ms",
        passed + failed,
        elapsed.as_secs_f64() * 1e3
    )
    .map_err(w)?;
    writeln!(out, "{passed} passed, {failed} failed").map_err(w)?;
    out.flush().map_err(w)?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn replay_sequential(
    sources: Vec<Source>,
    summary: &mut Summary,
    out: &mut dyn Write,
) -> Result<(), String> {
    let mut replayer = Replayer::new();
    let w = |e: std::io::Error| format!("writing the report: {e}");
    for (name, reader) in sources {
        let mut reader = LineReader::new(BufReader::with_capacity(READ_BUFFER, reader));
        while let Some((line_no, line)) = reader.next_line().map_err(|e| format!("{name}: {e}"))? {
            summary.progress(&name, line_no);
            let line = match line {
                ReadLine::Text(text) => Ok(text),
                ReadLine::Rejected(report) => Err(report),
            };
            if let Some(report) = replay_line(&mut replayer, &name, line_no, line) {
                out.write_all(report.text.as_bytes()).map_err(w)?;
                summary.add(&report);
            }
            // A line cut at the limit may be endless (`/dev/zero`): its
            // report shows now, before the rest of it is skipped.
            if reader.skipping() {
                out.flush().map_err(w)?;
            }
        }
    }
    Ok(())
}

/// Lines per unit of work sent to a thread.
const BATCH_LINES: usize = 2048;

/// Bytes of lines per unit of work: a batch ends at whichever comes first.
const BATCH_BYTES: usize = 1 << 18;

/// Bytes of lines sent to the threads and not yet printed: with lines up to
/// [`amdgpu_valu::capture::MAX_LINE_BYTES`], the count of batches alone would not bound memory.
const IN_FLIGHT_BYTES: usize = 8 << 20;

/// Lines of one file with their numbers, each its text or the report of a
/// line that cannot be a row: (source index, lines).
type Batch = (usize, Vec<(usize, Result<String, LineReport>)>);

/// A finished batch: its sequence number and reports (None: the thread
/// running it panicked).
type Done = (usize, Option<Vec<LineReport>>);

/// Tells the printing thread when a replay thread panics, so it stops
/// waiting for that thread's batch instead of waiting forever.
struct PanicGuard(mpsc::Sender<Done>);

impl Drop for PanicGuard {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.0.send((usize::MAX, None));
        }
    }
}

/// Batches sent to the threads and not yet printed: their sizes in order,
/// and the reports of those finished out of order.
#[derive(Default)]
struct InFlight {
    sizes: VecDeque<usize>,
    bytes: usize,
    /// Sequence number of the next batch to print.
    printed: usize,
    pending: BTreeMap<usize, Vec<LineReport>>,
}

impl InFlight {
    fn full(&self, window: usize) -> bool {
        self.sizes.len() >= window || self.bytes >= IN_FLIGHT_BYTES
    }

    fn send(&mut self, bytes: usize) {
        self.sizes.push_back(bytes);
        self.bytes += bytes;
    }

    /// Wait for one finished batch, then print every batch now complete
    /// in order.
    fn collect(
        &mut self,
        done_rx: &mpsc::Receiver<Done>,
        summary: &mut Summary,
        out: &mut dyn Write,
    ) -> Result<(), String> {
        let (seq, reports) = done_rx
            .recv()
            .map_err(|_| "the replay threads stopped".to_string())?;
        let reports = reports.ok_or("a replay thread panicked")?;
        self.pending.insert(seq, reports);
        while let Some(reports) = self.pending.remove(&self.printed) {
            for report in &reports {
                out.write_all(report.text.as_bytes())
                    .map_err(|e| format!("writing the report: {e}"))?;
                summary.add(report);
            }
            self.printed += 1;
            let size = self.sizes.pop_front().unwrap_or(0);
            self.bytes = self.bytes.saturating_sub(size);
        }
        Ok(())
    }
}

/// `--jobs N`: batches of lines run on N threads, each with its own wave;
/// their reports are printed in file order. At most 4 batches per thread
/// and [`IN_FLIGHT_BYTES`] of lines are in flight, so memory stays flat.
fn replay_parallel(
    sources: Vec<Source>,
    jobs: usize,
    summary: &mut Summary,
    out: &mut dyn Write,
) -> Result<(), String> {
    let names: Vec<String> = sources.iter().map(|(n, _)| n.clone()).collect();
    let window = jobs * 4;
    let (work_tx, work_rx) = mpsc::sync_channel::<(usize, Batch)>(window);
    let work_rx = Mutex::new(work_rx);
    // A thread the system refuses (a limit on processes or address space)
    // is a usage error, reported once those started have ended (when
    // `work_tx` goes): memory may be short until then.
    let mut refused = None;
    let result = std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<Done>();
        for _ in 0..jobs {
            let (work_rx, done_tx, names) = (&work_rx, done_tx.clone(), &names);
            let thread = std::thread::Builder::new().spawn_scoped(scope, move || {
                let _guard = PanicGuard(done_tx.clone());
                // Made on the first batch: a thread allocates nothing
                // before there is work for it.
                let mut replayer: Option<Replayer> = None;
                loop {
                    let next = match work_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((seq, (source, lines))) = next else {
                        return;
                    };
                    let name = names.get(source).map_or("", String::as_str);
                    let replayer = replayer.get_or_insert_with(Replayer::new);
                    let reports = lines
                        .into_iter()
                        .filter_map(|(line_no, line)| match line {
                            Ok(text) => replay_line(replayer, name, line_no, Ok(&text)),
                            Err(report) => replay_line(replayer, name, line_no, Err(report)),
                        })
                        .collect();
                    if done_tx.send((seq, Some(reports))).is_err() {
                        return;
                    }
                }
            });
            if let Err(e) = thread {
                refused = Some(e);
                break;
            }
        }
        drop(done_tx);
        let sources = if refused.is_none() {
            sources
        } else {
            Vec::new()
        };
        let mut result = Ok(());

        // Read and send batches; print finished ones in order.
        let mut in_flight = InFlight::default();
        let mut sent = 0usize;
        'files: for (source, (name, reader)) in sources.into_iter().enumerate() {
            let mut reader = LineReader::new(BufReader::with_capacity(READ_BUFFER, reader));
            let mut lines = Vec::new();
            let mut bytes = 0;
            let mut line_no = 0;
            loop {
                let more = match reader.next_line() {
                    Ok(Some((n, line))) => {
                        line_no = n;
                        let line = owned(line);
                        bytes += line.as_ref().map_or_else(|r| r.text.len(), String::len);
                        lines.push((n, line));
                        true
                    }
                    Ok(None) => false,
                    Err(e) => {
                        result = Err(format!("{name}: {e}"));
                        break 'files;
                    }
                };
                // A line cut at the limit may be endless (`/dev/zero`): its
                // batch goes now and every report up to its own shows before
                // the rest of it is skipped.
                let cut = reader.skipping();
                if lines.len() == BATCH_LINES
                    || bytes >= BATCH_BYTES
                    || cut
                    || (!more && !lines.is_empty())
                {
                    while in_flight.full(window) {
                        if let Err(e) = in_flight.collect(&done_rx, summary, out) {
                            result = Err(e);
                            break 'files;
                        }
                    }
                    summary.progress(&name, line_no);
                    let batch = (source, core::mem::take(&mut lines));
                    if work_tx.send((sent, batch)).is_err() {
                        result = Err("the replay threads stopped".into());
                        break 'files;
                    }
                    in_flight.send(bytes);
                    bytes = 0;
                    sent += 1;
                }
                if cut {
                    while in_flight.printed < sent {
                        if let Err(e) = in_flight.collect(&done_rx, summary, out) {
                            result = Err(e);
                            break 'files;
                        }
                    }
                    if let Err(e) = out.flush() {
                        result = Err(format!("writing the report: {e}"));
                        break 'files;
                    }
                }
                if !more {
                    break;
                }
            }
        }
        drop(work_tx);
        while result.is_ok() && in_flight.printed < sent {
            result = in_flight.collect(&done_rx, summary, out);
        }
        result
    });
    match refused {
        Some(e) => Err(format!("--jobs {jobs}: cannot start a thread: {e}")),
        None => result,
    }
}

/// How to show the destination's value: the format and which bits.
fn dst_view(instr: &Instruction, target: Target) -> (FormatKind, &'static str, u32) {
    let format = instr.opcode.format();
    match format {
        FormatKind::F16 => {
            let hi = match (instr.dst, instr.sdwa) {
                (_, Some(s)) => s.dst_sel == SdwaSel::Word1,
                (Operand::Vgpr { part: Part::Hi, .. }, None) => target.spec().true16.value,
                _ => false,
            };
            if hi {
                (format, "hi", 16)
            } else {
                (format, "lo", 0)
            }
        }
        _ => (format, "", 0),
    }
}

fn eval(
    target: &str,
    mode: &str,
    wave_size: Option<&str>,
    exec: Option<&str>,
    json: bool,
    text: &str,
    assignments: &[String],
) -> Result<ExitCode, String> {
    let target = parse_target(target)?;
    let mode = parse_hex_arg("--mode", mode, 32)?;
    let mode = u32::try_from(mode).map_err(|_| "--mode: MODE is 32 bits".to_string())?;
    let instr = asm::parse(target, text).map_err(|e| format!("instruction: {e}"))?;
    let mut inputs: Vec<Assignment> = Vec::new();
    if let Some(w) = wave_size {
        let size = match w {
            "32" => WaveSize::Wave32,
            "64" => WaveSize::Wave64,
            _ => return Err(format!("--wave `{w}`: column 1: wave must be 32 or 64")),
        };
        inputs.push(Assignment {
            loc: Loc::Wave(size),
            lane: None,
            value: 0,
        });
    }
    for a in assignments {
        inputs.push(parse_assignment_arg(a)?);
    }
    if let Some(e) = exec {
        inputs.push(Assignment {
            loc: Loc::Exec,
            lane: None,
            value: parse_hex_arg("--exec", e, 64)?,
        });
    }
    let mut wave: Wave = prepare_wave(target, mode, &inputs)?;
    // DPP: every lane's source; the lane explained is the first written.
    let dpp = amdgpu_valu::explain::dpp_lanes(target, &wave, &instr).map_err(|e| e.to_string())?;
    let lane = match dpp.iter().find(|l| l.plan.written()) {
        Some(l) => l.lane,
        None => (0..wave.lanes())
            .find(|&l| wave.lane_active(l))
            .unwrap_or(0),
    };
    let explanation = explain(target, &wave, &instr, lane).map_err(|e| e.to_string())?;
    let before = wave.clone();
    amdgpu_valu::execute(target, &mut wave, &instr).map_err(|e| e.to_string())?;

    let (format, half, shift) = dst_view(&instr, target);
    let dst_index = match instr.dst {
        Operand::Vgpr { index, .. } => usize::from(index),
        _ => usize::MAX,
    };
    let mut changes: Vec<(String, u64, u64, String)> = Vec::new();
    let describe = |r: usize, bits: u64| -> String {
        if r != dst_index {
            return String::new();
        }
        match format {
            FormatKind::F64 => format!("f64 {}", value(format, bits)),
            FormatKind::F32 => format!("f32 {}", value(format, bits & 0xffff_ffff)),
            FormatKind::F16 => format!("{half} f16 {}", value(format, bits >> shift & 0xffff)),
        }
    };
    let wide = format == FormatKind::F64;
    let mut r = 0;
    while r < amdgpu_valu::NUM_VGPRS {
        let pair = wide && r == dst_index;
        let read = |w: &Wave, l: usize| -> u64 {
            if pair {
                w.vgpr64(r, l).unwrap_or(0)
            } else {
                u64::from(w.vgpr(r, l).unwrap_or(0))
            }
        };
        let name = if pair {
            format!("v[{r}:{}]", r + 1)
        } else {
            format!("v{r}")
        };
        let lanes: Vec<(u64, u64)> = (0..wave.lanes())
            .map(|l| (read(&before, l), read(&wave, l)))
            .collect();
        let changed: Vec<usize> = (0..lanes.len())
            .filter(|&l| lanes[l].0 != lanes[l].1)
            .collect();
        let uniform = lanes.windows(2).all(|w| w[0] == w[1]);
        if !changed.is_empty() && uniform {
            changes.push((name, lanes[0].0, lanes[0].1, describe(r, lanes[0].1)));
        } else {
            // Runs of consecutive lanes with the same old and new bits print once.
            let mut i = 0;
            while i < changed.len() {
                let first = changed[i];
                let mut last = first;
                while i + 1 < changed.len()
                    && changed[i + 1] == last + 1
                    && lanes[changed[i + 1]] == lanes[first]
                {
                    i += 1;
                    last = changed[i];
                }
                let range = if first == last {
                    format!("{first}")
                } else {
                    format!("{first}-{last}")
                };
                let (old, new) = lanes[first];
                changes.push((format!("{name}[{range}]"), old, new, describe(r, new)));
                i += 1;
            }
        }
        r += if pair { 2 } else { 1 };
    }

    if json {
        // "dpp": one entry per lane, only for a DPP instruction.
        let dpp_json = if dpp.is_empty() {
            String::new()
        } else {
            let lanes: Vec<String> = dpp
                .iter()
                .map(|l| {
                    format!(
                        "{{\"lane\":{},\"written\":{},\"text\":{}}}",
                        l.lane,
                        l.plan.written(),
                        json_str(&l.text)
                    )
                })
                .collect();
            format!(",\"dpp\":[{}]", lanes.join(","))
        };
        let regs: Vec<String> = changes
            .iter()
            .map(|(n, b, a, d)| {
                format!(
                    "{{\"register\":{},\"before\":\"{b:#x}\",\"after\":\"{a:#x}\",\"value\":{}}}",
                    json_str(n),
                    json_str(d)
                )
            })
            .collect();
        let steps: Vec<String> = explanation
            .steps
            .iter()
            .map(|s| {
                format!(
                    "{{\"stage\":{},\"text\":{}}}",
                    json_str(s.stage),
                    json_str(&s.text)
                )
            })
            .collect();
        out!(
            "{{\"target\":{},\"mode\":\"{mode:#010x}\",\"instruction\":{},\"lane\":{lane},\"result\":\"{:#x}\",\"changed\":[{}],\"explanation\":[{}]{}}}",
            json_str(target.name()),
            json_str(text),
            explanation.result,
            regs.join(","),
            steps.join(","),
            dpp_json
        );
        return Ok(ExitCode::SUCCESS);
    }
    if changes.is_empty() {
        if wave.exec() == 0 {
            out!("no register changed: no lane is active");
        } else {
            out!("no register changed: the result equals the destination's old bits");
        }
    }
    for (name, _, after, desc) in &changes {
        let width = if name.starts_with("v[") { 18 } else { 10 };
        if desc.is_empty() {
            out!("{name} = {after:#0width$x}");
        } else {
            out!("{name} = {after:#0width$x}  ({desc})");
        }
    }
    if !dpp.is_empty() {
        out!();
        out!("dpp lanes:");
        for l in &dpp {
            out!("  lane {:<2} {}", l.lane, l.text);
        }
    }
    out!();
    out!("lane {lane}:");
    for s in &explanation.steps {
        out!("  {:<9} {}", s.stage, s.text);
    }
    Ok(ExitCode::SUCCESS)
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn asm_cmd(target: &str, text: &str) -> Result<ExitCode, String> {
    let target = parse_target(target)?;
    let bytes = asm::assemble(target, text).map_err(|e| e.to_string())?;
    out!("{}", format_bytes(&bytes));
    Ok(ExitCode::SUCCESS)
}

fn parse_byte_list(s: &str) -> Result<Vec<u8>, String> {
    let cleaned = s.replace(['[', ']', ','], " ");
    cleaned
        .split_whitespace()
        .map(|b| {
            let digits = b
                .strip_prefix("0x")
                .or_else(|| b.strip_prefix("0X"))
                .unwrap_or(b);
            // Hex digits only: from_str_radix alone would take a sign.
            digits
                .bytes()
                .all(|c| c.is_ascii_hexdigit())
                .then(|| u8::from_str_radix(digits, 16).ok())
                .flatten()
                .ok_or_else(|| format!("`{b}` is not a hex byte"))
        })
        .collect()
}

fn disasm_cmd(target: &str, bytes: &str) -> Result<ExitCode, String> {
    let target = parse_target(target)?;
    let bytes = parse_byte_list(bytes)?;
    let mut offset = 0;
    while offset < bytes.len() {
        let rest = bytes.get(offset..).unwrap_or_default();
        let (instr, len) =
            asm::decode(target, rest).map_err(|e| format!("at byte {offset}: {e}"))?;
        let used = bytes.get(offset..offset + len).unwrap_or_default();
        out!(
            "{:<40} ; {}",
            asm::disassemble(target, &instr),
            format_bytes(used)
        );
        offset += len.max(1);
    }
    Ok(ExitCode::SUCCESS)
}

fn targets() -> Result<ExitCode, String> {
    for t in Target::ALL {
        let s = t.spec();
        let waves: Vec<String> = s.wave_sizes.iter().map(|w| w.lanes().to_string()).collect();
        out!(
            "{} ({:?}, wave {}; default {})",
            t,
            s.family,
            waves.join("/"),
            s.default_wave.lanes()
        );
        let rows: [(&str, String, Evidence); 10] = [
            (
                "omod_gate",
                format!("{:?}", s.omod_gate.value),
                s.omod_gate.evidence,
            ),
            (
                "clamp_nan",
                format!("{:?}", s.clamp_nan.value),
                s.clamp_nan.evidence,
            ),
            (
                "ieee_dx10_bits",
                s.ieee_dx10_bits.value.to_string(),
                s.ieee_dx10_bits.evidence,
            ),
            ("true16", s.true16.value.to_string(), s.true16.evidence),
            ("sdwa", s.sdwa.value.to_string(), s.sdwa.evidence),
            (
                "f16_dst_high",
                format!("{:?}", s.f16_dst_high.value),
                s.f16_dst_high.evidence,
            ),
            ("snan", format!("{:?}", s.snan.value), s.snan.evidence),
            (
                "sub_nan",
                format!("{:?}", s.sub_nan.value),
                s.sub_nan.evidence,
            ),
            (
                "tininess",
                format!("{:?}", s.tininess.value),
                s.tininess.evidence,
            ),
            (
                "aligned_vgpr_pairs",
                s.aligned_vgpr_pairs.value.to_string(),
                s.aligned_vgpr_pairs.evidence,
            ),
        ];
        for (name, value, evidence) in rows {
            out!("  {name:<18} {value:<24} {evidence}");
        }
        // The SDWA policies, where the target has SDWA.
        let sdwa: [(&str, Option<(String, Evidence)>); 4] = [
            (
                "sdwa_f16_output",
                s.sdwa_f16_output
                    .map(|p| (format!("{:?}", p.value), p.evidence)),
            ),
            (
                "sdwa_f16_dword_dst",
                s.sdwa_f16_dword_dst
                    .map(|p| (format!("{:?}", p.value), p.evidence)),
            ),
            (
                "sdwa_constant_sel",
                s.sdwa_constant_sel
                    .map(|p| (format!("{:?}", p.value), p.evidence)),
            ),
            (
                "sdwa_reserved_bits",
                s.sdwa_reserved_bits
                    .map(|p| (format!("{:?}", p.value), p.evidence)),
            ),
        ];
        for (name, policy) in sdwa {
            if let Some((value, evidence)) = policy {
                out!("  {name:<18} {value:<24} {evidence}");
            }
        }
        out!("  fract rules        {:<24} {}", "", s.fract_rules);
    }
    Ok(ExitCode::SUCCESS)
}
