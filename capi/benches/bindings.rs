//! Speed through the bindings against the Rust kernel, in one run on one
//! machine (`cargo xtask bench bindings`, which builds the Python wheel
//! first; or `cargo bench -p amdgpu-valu-capi --bench bindings`).
//!
//! Per operation and format (FRACT and LDEXP in F16, F32 and F64; ADD,
//! MUL and FMA in F32), gfx1201 under MODE 0xf0, no modifiers:
//! - Rust, bare kernel: the dispatched kernel on 64-lane chunks of plain
//!   encodings with the policy built once (`cargo xtask bench`'s SIMD row);
//! - Rust, the lane API (`lanes::fract`, `lanes::add`...) in 64-lane calls
//!   and in one call over all lanes; `lanes::Prepared::run` in 64-lane
//!   calls;
//! - C (capi/benches/bindings.c, `cc -O2` against the release static
//!   library): the one-shot functions in 64-lane calls and in one call,
//!   `avalu_prepared_run_*` in 64-lane calls;
//! - Python (python/benches/bindings_bench.py): `Prepared` and the
//!   one-shot function in 64-lane calls (views of the arrays, `out=`), and
//!   one call over all lanes with `out=` and with a new array.
//!
//! The 64-lane calls cycle through `RING` lanes (cache-resident, like an
//! emulator's registers); the whole-array calls cover `WHOLE` lanes. Every
//! side reads the same inputs (written to files here) and checks its
//! results against the bare kernel's bits. Every array of the Rust and
//! the C side starts on a 4 KiB page, the destination
//! `BINDINGS_DST_SHIFT` bytes past one (default 0; see [`PageArray`]).
//! Rounds interleave the sides;
//! in each round every figure is the median of `REPS` passes; the table
//! shows the median over rounds of each figure and of each round's ratio.

use std::hint::black_box;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use amdgpu_valu::__testing::kernels::arith::{arith_slices, SourceModifiers};
use amdgpu_valu::__testing::kernels::{
    run_dispatched, Format, Fract, Ldexp, Mode, Modifiers, Policy, Slices, F16, F32, F64,
};
use amdgpu_valu::lanes::{self, ArithMods, ArithOp, LaneBits, LaneMods, LaneOp, Prepared};
use amdgpu_valu::{FormatKind, Target};

/// Lanes of one whole-array call.
const WHOLE: usize = 1 << 20;
/// The 64-lane calls of a pass cycle through this many lanes.
const RING: usize = 1 << 16;
const CHUNK: usize = 64;
const REPS: usize = 7;
const ROUNDS: usize = 9;
const MODE: u32 = 0xf0;
const TARGET: Target = Target::Gfx1201;

const ROWS: [(LaneOp, FormatKind); 9] = [
    (LaneOp::Fract, FormatKind::F16),
    (LaneOp::Fract, FormatKind::F32),
    (LaneOp::Fract, FormatKind::F64),
    (LaneOp::Ldexp, FormatKind::F16),
    (LaneOp::Ldexp, FormatKind::F32),
    (LaneOp::Ldexp, FormatKind::F64),
    (LaneOp::Add, FormatKind::F32),
    (LaneOp::Mul, FormatKind::F32),
    (LaneOp::Fma, FormatKind::F32),
];

/// The columns, in table order.
const COLUMNS: [&str; 13] = [
    "bare kernel /64",
    "lanes /64",
    "lanes one call",
    "Prepared /64",
    "C /64",
    "C one call",
    "C prepared /64",
    "Python Prepared /64",
    "Python function /64",
    "Python one call out=",
    "Python one call new array",
    "Python Prepared one call out=",
    "C API from Rust /64",
];
const BARE: usize = 0;
const LANES64: usize = 1;
const LANES_ONE: usize = 2;
const PREP64: usize = 3;
const C64: usize = 4;
const C_ONE: usize = 5;
const C_PREP64: usize = 6;
const PY_PREP64: usize = 7;
const PY_FN64: usize = 8;
const PY_OUT: usize = 9;
const PY_NEW: usize = 10;
const PY_PREP_ONE: usize = 11;
const CAPI_RUST64: usize = 12;

fn median(mut v: Vec<f64>) -> f64 {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median Mlanes/s of `REPS` runs of `pass` over `lanes` lanes.
fn rate(lanes: usize, mut pass: impl FnMut()) -> f64 {
    pass(); // warm-up
    median(
        (0..REPS)
            .map(|_| {
                let t = Instant::now();
                pass();
                lanes as f64 / t.elapsed().as_secs_f64() / 1e6
            })
            .collect(),
    )
}

/// The page size the arrays' layout is set by.
const PAGE: usize = 4096;

/// Bytes past a page boundary at which the destination arrays start
/// (`BINDINGS_DST_SHIFT`, a multiple of 8; default 0). The C program reads
/// the same variable, so both sides always share one layout.
fn dst_shift() -> usize {
    std::env::var("BINDINGS_DST_SHIFT")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(0, |v| v % PAGE / 8 * 8)
}

/// `len` elements starting `shift` bytes past a 4 KiB page boundary.
///
/// The layout of the arrays is part of what a 64-lane call costs: when a
/// destination starts a little (under one call's bytes) past its source
/// modulo 4 KiB, a call's stores and the next call's loads share their low
/// 12 address bits and the loads wait on the stores (4K aliasing). With
/// the allocator choosing, the C program's F32 arrays landed on the heap
/// with the destination 80 bytes past the source (modulo 4 KiB), about
/// 4-5 ns more per FRACT F32 call, while the Rust side's did not alias:
/// so both sides now place every array the same way.
struct PageArray<T> {
    buf: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy + Default> PageArray<T> {
    fn new(len: usize, shift: usize) -> PageArray<T> {
        let size = core::mem::size_of::<T>();
        let buf = vec![T::default(); len + (PAGE + shift) / size + 1];
        // Vec<T> is aligned to size_of::<T>() here (u16, u32, u64, i32),
        // and shift is a multiple of 8: the distance is a whole number of
        // elements.
        let to = (shift + PAGE - buf.as_ptr() as usize % PAGE) % PAGE;
        PageArray {
            buf,
            start: to / size,
            len,
        }
    }

    fn from_slice(v: &[T], shift: usize) -> PageArray<T> {
        let mut a = PageArray::new(v.len(), shift);
        a.copy_from_slice(v);
        a
    }
}

impl<T> Deref for PageArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.buf[self.start..self.start + self.len]
    }
}

impl<T> DerefMut for PageArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

/// xorshift64 lane mix: sign and fraction random, biased exponent from
/// 2^-8 to 2^31 (FRACT's and the arithmetic's usual range); exponents in
/// -40..=40.
struct Inputs {
    bits: [Vec<u64>; 3],
    exp: Vec<i32>,
}

fn inputs(format: FormatKind) -> Inputs {
    let mut s = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(format.bits());
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (man, bias) = match format {
        FormatKind::F16 => (10, 15),
        FormatKind::F32 => (23, 127),
        FormatKind::F64 => (52, 1023),
    };
    let w = format.bits();
    let mut one = || {
        let r = next();
        let sign = r >> 63 << (w - 1);
        let frac = r & ((1u64 << man) - 1);
        let e = bias - 8 + (r >> 40) % if w == 16 { 23 } else { 40 };
        sign | e << man | frac
    };
    let bits = [0, 1, 2].map(|_| (0..WHOLE).map(|_| one()).collect());
    let exp = (0..WHOLE).map(|_| (next() % 81) as i32 - 40).collect();
    Inputs { bits, exp }
}

/// An element type with its kernel format.
trait Lane: LaneBits + PartialEq + core::fmt::Debug + Send + Sync + 'static {
    type F: Format<Bits = Self>;
    fn narrow(v: u64) -> Self;
    fn bytes(v: &[Self]) -> Vec<u8>;
}
impl Lane for u16 {
    type F = F16;
    fn narrow(v: u64) -> u16 {
        v as u16
    }
    fn bytes(v: &[u16]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
}
impl Lane for u32 {
    type F = F32;
    fn narrow(v: u64) -> u32 {
        v as u32
    }
    fn bytes(v: &[u32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
}
impl Lane for u64 {
    type F = F64;
    fn narrow(v: u64) -> u64 {
        v
    }
    fn bytes(v: &[u64]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
}

/// The ring offsets of one pass of 64-lane calls.
fn ring() -> impl Iterator<Item = usize> {
    (0..RING / CHUNK).map(|i| i * CHUNK)
}

/// One row's Rust side: its inputs, its bare-kernel results, and the
/// passes of each Rust column.
struct RowData<T: Lane> {
    op: LaneOp,
    src: [PageArray<T>; 3],
    exp: PageArray<i32>,
    want: Vec<T>,
    policy: Policy,
    prepared: Prepared<T>,
}

fn arith_of(op: LaneOp) -> Option<ArithOp> {
    op.arith()
}

impl<T: Lane> RowData<T> {
    fn new(op: LaneOp, inp: &Inputs) -> RowData<T> {
        let src = [0, 1, 2].map(|i| {
            let v: Vec<T> = inp.bits[i].iter().map(|&v| T::narrow(v)).collect();
            PageArray::from_slice(&v, 0)
        });
        let rules = amdgpu_valu::__testing::float_rules(TARGET.spec());
        let policy = Policy::new::<T::F>(&rules, Mode(MODE), Modifiers::default());
        let prepared =
            Prepared::<T>::new(TARGET, op, MODE, ArithMods::default()).expect("valid instruction");
        let mut row = RowData {
            op,
            src,
            exp: PageArray::from_slice(&inp.exp, 0),
            want: vec![T::default(); WHOLE],
            policy,
            prepared,
        };
        let mut want = vec![T::default(); WHOLE];
        for off in (0..WHOLE).step_by(CHUNK) {
            row.bare(off, &mut want[off..off + CHUNK]);
        }
        row.want = want;
        row
    }

    /// The bare kernel on the 64 lanes at `off`.
    #[inline]
    fn bare(&self, off: usize, d: &mut [T]) {
        let r = off..off + d.len();
        let (a, e) = (&self.src[0][r.clone()], &self.exp[r.clone()]);
        match arith_of(self.op) {
            None if self.op == LaneOp::Ldexp => {
                run_dispatched::<Ldexp, T::F, _>(&mut Slices::<T::F>::new(a, e, d), &self.policy)
            }
            None => {
                run_dispatched::<Fract, T::F, _>(&mut Slices::<T::F>::new(a, e, d), &self.policy)
            }
            Some(op) => {
                let (b, c) = (&self.src[1][r.clone()], &self.src[2][r]);
                arith_slices::<T::F>(op, &self.policy, SourceModifiers::default(), a, b, c, d)
            }
        }
    }

    /// The dispatched kernel on the 64 lanes at `off` through the lane
    /// API's container (`LaneArrays`) with the policy built once: the bare
    /// kernel but for the container.
    #[inline]
    fn bare_arrays(&self, off: usize, d: &mut [T]) {
        use amdgpu_valu::__testing::kernels::LaneArrays;
        let r = off..off + d.len();
        let a = &self.src[0][r.clone()];
        match self.op {
            LaneOp::Ldexp => run_dispatched::<Ldexp, T::F, _>(
                &mut LaneArrays::<T::F> {
                    src: a,
                    exp: &self.exp[r],
                    dst: d,
                    exec: None,
                },
                &self.policy,
            ),
            LaneOp::Fract => run_dispatched::<Fract, T::F, _>(
                &mut LaneArrays::<T::F> {
                    src: a,
                    exp: &[],
                    dst: d,
                    exec: None,
                },
                &self.policy,
            ),
            _ => self.bare(off, d),
        }
    }

    /// The lane API's one-shot function over `r`.
    #[inline]
    fn lanes(&self, r: core::ops::Range<usize>, d: &mut [T]) {
        let a = black_box(&self.src[0][r.clone()]);
        let m = LaneMods::default();
        let ok = match arith_of(self.op) {
            None if self.op == LaneOp::Ldexp => lanes::ldexp(TARGET, MODE, m, a, &self.exp[r], d),
            None => lanes::fract(TARGET, MODE, m, a, d),
            Some(op) => {
                let (b, c) = (&self.src[1][r.clone()], &self.src[2][r]);
                let srcs: &[&[T]] = if op == ArithOp::Fma {
                    &[a, b, c]
                } else {
                    &[a, b]
                };
                lanes::arith(op, TARGET, MODE, ArithMods::default(), srcs, d)
            }
        };
        ok.expect("valid lanes");
    }

    #[inline]
    fn prepared(&self, r: core::ops::Range<usize>, d: &mut [T]) {
        let a = black_box(&self.src[0][r.clone()]);
        let k = self.op.sources();
        let (b, c) = (&self.src[1][r.clone()], &self.src[2][r.clone()]);
        let all = [a, b, c];
        let e: &[i32] = if self.op.has_exponent() {
            &self.exp[r]
        } else {
            &[]
        };
        self.prepared.run(&all[..k], e, d).expect("valid lanes");
    }

    /// The Rust columns of one round, each checked against the bare kernel.
    fn round(&self, out: &mut [f64; COLUMNS.len()]) {
        let mut d = PageArray::new(WHOLE, dst_shift());
        let check = |d: &[T], what: &str| {
            assert!(
                d == &self.want[..d.len()],
                "{what}: bits differ from the bare kernel"
            );
        };
        out[BARE] = rate(RING, || {
            for off in ring() {
                self.bare(off, &mut d[off..off + CHUNK]);
            }
        });
        check(&d[..RING], "bare");
        d.fill(T::default());
        out[PREP64] = rate(RING, || {
            for off in ring() {
                self.prepared(off..off + CHUNK, &mut d[off..off + CHUNK]);
            }
        });
        check(&d[..RING], "Prepared /64");
        d.fill(T::default());
        out[LANES64] = rate(RING, || {
            for off in ring() {
                self.lanes(off..off + CHUNK, &mut d[off..off + CHUNK]);
            }
        });
        check(&d[..RING], "lanes /64");
        d.fill(T::default());
        out[CAPI_RUST64] = rate(RING, || {
            for off in ring() {
                self.capi(off, &mut d[off..off + CHUNK]);
            }
        });
        check(&d[..RING], "C API from Rust /64");
        d.fill(T::default());
        out[LANES_ONE] = rate(WHOLE, || self.lanes(0..WHOLE, &mut d[..]));
        check(&d, "lanes one call");
        black_box(&d[..]);
    }

    /// The C API's prepared function called from Rust (linked as an rlib).
    fn capi(&self, off: usize, d: &mut [T]) {
        use amdgpu_valu_capi::prepared as c;
        thread_local! {
            static HANDLES: std::cell::RefCell<Vec<((LaneOp, FormatKind), usize)>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let key = (self.op, T::FORMAT);
        let h = HANDLES.with(|hs| {
            let mut hs = hs.borrow_mut();
            if let Some(&(_, h)) = hs.iter().find(|(k, _)| *k == key) {
                return h;
            }
            let mut p = std::ptr::null_mut();
            let op = LaneOp::ALL.iter().position(|&o| o == self.op).unwrap_or(0) as u32;
            let format = match T::FORMAT {
                FormatKind::F16 => 0,
                FormatKind::F32 => 1,
                FormatKind::F64 => 2,
            };
            let id = Target::ALL.iter().position(|&t| t == TARGET).unwrap_or(0) as u32;
            // SAFETY: a valid out pointer.
            let s =
                unsafe { c::avalu_prepared_new(id, op, format, MODE, Default::default(), &mut p) };
            assert_eq!(s, amdgpu_valu_capi::AvaluStatus::Ok);
            hs.push((key, p as usize));
            p as usize
        });
        let p = h as *const c::AvaluPrepared;
        let k = self.op.sources();
        let ptr = |i: usize| {
            if i < k {
                self.src[i][off..].as_ptr().cast::<u8>()
            } else {
                std::ptr::null()
            }
        };
        let exp = if self.op.has_exponent() {
            self.exp[off..].as_ptr()
        } else {
            std::ptr::null()
        };
        let n = d.len();
        let dst = d.as_mut_ptr().cast::<u8>();
        // SAFETY: every array holds at least n elements from its pointer;
        // the handle is live and of T's format.
        let s = unsafe {
            match T::FORMAT {
                FormatKind::F16 => c::avalu_prepared_run_f16(
                    p,
                    std::ptr::null(),
                    ptr(0).cast(),
                    ptr(1).cast(),
                    ptr(2).cast(),
                    exp,
                    dst.cast(),
                    n,
                ),
                FormatKind::F32 => c::avalu_prepared_run_f32(
                    p,
                    std::ptr::null(),
                    ptr(0).cast(),
                    ptr(1).cast(),
                    ptr(2).cast(),
                    exp,
                    dst.cast(),
                    n,
                ),
                FormatKind::F64 => c::avalu_prepared_run_f64(
                    p,
                    std::ptr::null(),
                    ptr(0).cast(),
                    ptr(1).cast(),
                    ptr(2).cast(),
                    exp,
                    dst.cast(),
                    n,
                ),
            }
        };
        assert_eq!(s, amdgpu_valu_capi::AvaluStatus::Ok);
    }

    /// The C API's one-shot FRACT/LDEXP function called from Rust (linked
    /// as an rlib): the C entry's cost against the lane API in one
    /// process (`BINDINGS_QUICK`); other operations run `capi`.
    fn capi_oneshot(&self, off: usize, d: &mut [T]) {
        use amdgpu_valu_capi::lanes as c;
        if !matches!(self.op, LaneOp::Fract | LaneOp::Ldexp) {
            return self.capi(off, d);
        }
        let ldexp = self.op == LaneOp::Ldexp;
        let id = Target::ALL.iter().position(|&t| t == TARGET).unwrap_or(0) as u32;
        let m = c::AvaluMods::default();
        let (src, exp, n) = (
            self.src[0][off..].as_ptr(),
            self.exp[off..].as_ptr(),
            d.len(),
        );
        let (none, dst) = (std::ptr::null(), d.as_mut_ptr());
        // SAFETY: every array holds at least n elements from its pointer.
        let s = unsafe {
            match (T::FORMAT, ldexp) {
                (FormatKind::F16, false) => {
                    c::avalu_fract_f16(id, MODE, m, none, src.cast(), dst.cast(), n)
                }
                (FormatKind::F32, false) => {
                    c::avalu_fract_f32(id, MODE, m, none, src.cast(), dst.cast(), n)
                }
                (FormatKind::F64, false) => {
                    c::avalu_fract_f64(id, MODE, m, none, src.cast(), dst.cast(), n)
                }
                (FormatKind::F16, true) => {
                    c::avalu_ldexp_f16(id, MODE, m, none, src.cast(), exp, dst.cast(), n)
                }
                (FormatKind::F32, true) => {
                    c::avalu_ldexp_f32(id, MODE, m, none, src.cast(), exp, dst.cast(), n)
                }
                (FormatKind::F64, true) => {
                    c::avalu_ldexp_f64(id, MODE, m, none, src.cast(), exp, dst.cast(), n)
                }
            }
        };
        assert_eq!(s, amdgpu_valu_capi::AvaluStatus::Ok);
    }

    /// `n` passes of one side's 64-lane calls over the ring, for
    /// instruction counts (`BINDINGS_CALLS`, see `main`).
    #[inline(never)]
    fn profile_calls(&self, side: &str, n: usize) {
        let mut d = PageArray::new(RING, dst_shift());
        for _ in 0..n {
            for off in ring() {
                let r = off..off + CHUNK;
                match side {
                    "bare" => self.bare(off, &mut d[r]),
                    "lanes" => self.lanes(r.clone(), &mut d[r]),
                    "prepared" => self.prepared(r.clone(), &mut d[r]),
                    "capi-oneshot" => self.capi_oneshot(off, &mut d[r]),
                    _ => self.capi(off, &mut d[r]),
                }
            }
        }
        black_box(&d[..]);
    }

    /// The fastest of many interleaved passes of each side's 64-lane calls,
    /// Mlanes/s: bare, lanes, Prepared, C API from Rust, bare on the lane
    /// API's container (`BINDINGS_QUICK`).
    fn quick(&self) -> [f64; 6] {
        let mut best = [f64::INFINITY; 6];
        let mut d = PageArray::new(RING, dst_shift());
        for _ in 0..400 {
            for (side, b) in best.iter_mut().enumerate() {
                let t = Instant::now();
                for off in ring() {
                    let r = off..off + CHUNK;
                    match side {
                        0 => self.bare(off, &mut d[r]),
                        1 => self.lanes(r.clone(), &mut d[r]),
                        2 => self.prepared(r.clone(), &mut d[r]),
                        3 => self.capi(off, &mut d[r]),
                        4 => self.capi_oneshot(off, &mut d[r]),
                        _ => self.bare_arrays(off, &mut d[r]),
                    }
                }
                *b = b.min(t.elapsed().as_secs_f64());
            }
        }
        black_box(&d[..]);
        best.map(|t| RING as f64 / t / 1e6)
    }

    fn write_want(&self, dir: &Path, row: usize) {
        std::fs::write(dir.join(format!("want_{row}.bin")), T::bytes(&self.want)).expect("write");
    }
}

/// A row of any format.
enum AnyRow {
    F16(RowData<u16>),
    F32(RowData<u32>),
    F64(RowData<u64>),
}

impl AnyRow {
    fn quick(&self) -> [f64; 6] {
        match self {
            AnyRow::F16(r) => r.quick(),
            AnyRow::F32(r) => r.quick(),
            AnyRow::F64(r) => r.quick(),
        }
    }

    fn profile_calls(&self, side: &str, n: usize) {
        match self {
            AnyRow::F16(r) => r.profile_calls(side, n),
            AnyRow::F32(r) => r.profile_calls(side, n),
            AnyRow::F64(r) => r.profile_calls(side, n),
        }
    }

    fn round(&self, out: &mut [f64; COLUMNS.len()]) {
        match self {
            AnyRow::F16(r) => r.round(out),
            AnyRow::F32(r) => r.round(out),
            AnyRow::F64(r) => r.round(out),
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("capi/ has a parent")
        .to_path_buf()
}

/// Build the C side against the static library beside this binary.
fn build_c() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let lib = dir.join("libamdgpu_valu_capi.a");
    let out = dir.join("bindings_c");
    let status = Command::new("cc")
        .args(["-O2", "-std=c11", "-I"])
        .arg(root().join("capi/include"))
        .arg(root().join("capi/benches/bindings.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&out)
        .status();
    match status {
        Ok(s) if s.success() => Some(out),
        other => {
            eprintln!("C side skipped: could not build it with cc ({other:?})");
            None
        }
    }
}

/// Per row, the numbers a side printed (one line per row: its name, then
/// the figures).
fn numbers(cmd: &mut Command) -> Option<Vec<Vec<f64>>> {
    let out = cmd.output().ok()?;
    if !out.status.success() {
        eprintln!("{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| {
                l.split_whitespace()
                    .skip(1)
                    .filter_map(|w| w.parse().ok())
                    .collect()
            })
            .collect(),
    )
}

/// Where the unpacked wheel is: $AMDGPU_VALU_PYTHONPATH, or the one
/// `cargo xtask bench bindings` unpacks.
fn python_path() -> Option<PathBuf> {
    let p = std::env::var_os("AMDGPU_VALU_PYTHONPATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/python-bindings/site"));
    if p.join("amdgpu_valu").exists() {
        Some(p)
    } else {
        eprintln!(
            "Python side skipped: no amdgpu_valu package in {} (run `cargo xtask bench bindings`)",
            p.display()
        );
        None
    }
}

fn row_name(op: LaneOp, f: FormatKind) -> String {
    format!("{}:{}", op.name(), f.name())
}

fn main() {
    // `cargo bench` passes --bench; nothing else is taken.
    let dir = std::env::temp_dir().join(format!("amdgpu-valu-bindings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut rows = Vec::new();
    let only = std::env::var("BINDINGS_CALLS").ok();
    let wanted = |op: LaneOp, f: FormatKind| {
        only.as_deref()
            .is_none_or(|s| s.split(',').nth(1) == Some(row_name(op, f).as_str()))
    };
    for f in [FormatKind::F16, FormatKind::F32, FormatKind::F64] {
        if !ROWS.iter().any(|&(op, rf)| rf == f && wanted(op, rf)) {
            continue;
        }
        let inp = inputs(f);
        for (i, k) in ["a", "b", "c"].iter().enumerate() {
            let bytes: Vec<u8> = match f {
                FormatKind::F16 => {
                    u16::bytes(&inp.bits[i].iter().map(|&v| v as u16).collect::<Vec<_>>())
                }
                FormatKind::F32 => {
                    u32::bytes(&inp.bits[i].iter().map(|&v| v as u32).collect::<Vec<_>>())
                }
                FormatKind::F64 => u64::bytes(&inp.bits[i]),
            };
            std::fs::write(dir.join(format!("{k}_{}.bin", f.name())), bytes).expect("write");
        }
        let exp: Vec<u8> = inp.exp.iter().flat_map(|e| e.to_le_bytes()).collect();
        std::fs::write(dir.join(format!("exp_{}.bin", f.name())), exp).expect("write");
        for (r, &(op, rf)) in ROWS.iter().enumerate() {
            if rf != f || !wanted(op, rf) {
                continue;
            }
            let row = match f {
                FormatKind::F16 => AnyRow::F16(RowData::new(op, &inp)),
                FormatKind::F32 => AnyRow::F32(RowData::new(op, &inp)),
                FormatKind::F64 => AnyRow::F64(RowData::new(op, &inp)),
            };
            match &row {
                AnyRow::F16(d) => d.write_want(&dir, r),
                AnyRow::F32(d) => d.write_want(&dir, r),
                AnyRow::F64(d) => d.write_want(&dir, r),
            }
            rows.push((r, row));
        }
    }
    rows.sort_by_key(|(r, _)| *r);
    // BINDINGS_CALLS=side,row,passes (side: bare, lanes, prepared, capi
    // (the C prepared function) or capi-oneshot (the C one-shot function);
    // row: as the table names it, e.g. fract:f16): only that many passes
    // of one side's 64-lane calls, in `profile_calls`, for counting
    // instructions per call under `valgrind --tool=callgrind
    // --toggle-collect='*profile_calls*'`.
    // BINDINGS_QUICK=1: per row, the fastest of many interleaved passes of
    // the Rust sides' 64-lane calls (a quick look while changing code).
    if std::env::var_os("BINDINGS_QUICK").is_some() {
        println!("row: bare lanes Prepared capi-prepared-from-Rust capi-one-shot-from-Rust bare-on-LaneArrays (Mlanes/s, fastest pass); lanes:bare Prepared:bare capi-prepared:Prepared capi-one-shot:lanes LaneArrays:bare");
        for (r, row) in &rows {
            let (o, f) = ROWS[*r];
            let v = row.quick();
            println!(
                "{}: {:.0} {:.0} {:.0} {:.0} {:.0} {:.0}; {:.2} {:.2} {:.2} {:.2} {:.2}",
                row_name(o, f),
                v[0],
                v[1],
                v[2],
                v[3],
                v[4],
                v[5],
                v[1] / v[0],
                v[2] / v[0],
                v[3] / v[2],
                v[4] / v[1],
                v[5] / v[0]
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    if let Ok(spec) = std::env::var("BINDINGS_CALLS") {
        let v: Vec<&str> = spec.split(',').collect();
        let (side, name, n) = (v[0], v[1], v[2].parse().expect("passes"));
        for (r, row) in &rows {
            let (o, f) = ROWS[*r];
            if row_name(o, f) == name {
                row.profile_calls(side, n);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let names: Vec<String> = ROWS.iter().map(|&(o, f)| row_name(o, f)).collect();
    let c = build_c();
    let py = python_path();
    let target_id = Target::ALL.iter().position(|&t| t == TARGET).unwrap_or(0);
    let common = |cmd: &mut Command| {
        cmd.arg(&dir)
            .args([WHOLE, RING, REPS, target_id, MODE as usize].map(|n| n.to_string()))
            .args(&names);
    };
    // figures[round][row][column]
    let mut figures = vec![vec![[f64::NAN; COLUMNS.len()]; ROWS.len()]; ROUNDS];
    for (round, fig) in figures.iter_mut().enumerate() {
        for (r, row) in &rows {
            row.round(&mut fig[*r]);
        }
        if let Some(exe) = &c {
            let mut cmd = Command::new(exe);
            common(&mut cmd);
            if let Some(v) = numbers(&mut cmd) {
                for (r, line) in v.iter().enumerate().take(ROWS.len()) {
                    for (k, &col) in [C64, C_ONE, C_PREP64].iter().enumerate() {
                        fig[r][col] = line.get(k).copied().unwrap_or(f64::NAN);
                    }
                }
            }
        }
        if let Some(p) = &py {
            let mut cmd =
                Command::new(std::env::var("PYTHON").unwrap_or_else(|_| "python3".into()));
            cmd.env("PYTHONPATH", p)
                .arg(root().join("python/benches/bindings_bench.py"));
            common(&mut cmd);
            if let Some(v) = numbers(&mut cmd) {
                for (r, line) in v.iter().enumerate().take(ROWS.len()) {
                    for (k, &col) in [PY_PREP64, PY_FN64, PY_OUT, PY_NEW, PY_PREP_ONE]
                        .iter()
                        .enumerate()
                    {
                        fig[r][col] = line.get(k).copied().unwrap_or(f64::NAN);
                    }
                }
            }
        }
        eprintln!("round {} of {ROUNDS} done", round + 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let col = |r: usize, c: usize| median(figures.iter().map(|f| f[r][c]).collect());
    // Median over rounds of a / b (speed ratio: above 1, `a` is faster).
    let ratio =
        |r: usize, a: usize, b: usize| median(figures.iter().map(|f| f[r][a] / f[r][b]).collect());
    println!(
        "{TARGET}, MODE {MODE:#x}; 64-lane calls cycle through {RING} lanes, one call covers {WHOLE}; Mlanes/s, medians of {ROUNDS} interleaved rounds (each the median of {REPS} passes)\n"
    );
    print!("| row |");
    for c in COLUMNS {
        print!(" {c} |");
    }
    println!();
    println!("|---|{}", "---:|".repeat(COLUMNS.len()));
    for (r, name) in names.iter().enumerate() {
        print!("| {name} |");
        for c in 0..COLUMNS.len() {
            print!(" {:.0} |", col(r, c));
        }
        println!();
    }
    println!("\nRatios (speed of the first over the second; medians of the rounds' ratios):\n");
    let pairs: [(&str, usize, usize, &str); 9] = [
        ("lanes /64 : bare", LANES64, BARE, ">= 0.85 (FRACT/LDEXP)"),
        ("Prepared /64 : bare", PREP64, BARE, ""),
        ("lanes one call : bare", LANES_ONE, BARE, ""),
        ("C /64 : lanes /64", C64, LANES64, ">= 0.83 (1.2x)"),
        ("C prepared /64 : Prepared /64", C_PREP64, PREP64, ""),
        (
            "C one call : lanes one call",
            C_ONE,
            LANES_ONE,
            ">= 0.83 (1.2x)",
        ),
        (
            "Python one call out= : lanes one call",
            PY_OUT,
            LANES_ONE,
            ">= 0.83 (1.2x)",
        ),
        (
            "Python one call new : lanes one call",
            PY_NEW,
            LANES_ONE,
            "",
        ),
        ("Python Prepared /64 : lanes /64", PY_PREP64, LANES64, ""),
    ];
    print!("| ratio | goal |");
    for name in &names {
        print!(" {name} |");
    }
    println!();
    println!("|---|---|{}", "---:|".repeat(names.len()));
    for (what, a, b, goal) in pairs {
        print!("| {what} | {goal} |");
        for r in 0..names.len() {
            print!(" {:.2} |", ratio(r, a, b));
        }
        println!();
    }
}
