//! SplitMix64: the one seeded generator of the crate's unit tests, the
//! integration tests, the benches and the C API's tests (through
//! `__testing::Rng`), so every run sees the same cases and failures
//! reproduce. Every draw is total: no input makes it panic.

/// SplitMix64 state; any seed is valid.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits (an endless generator, not an `Iterator`).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`, and 0 when `n` is 0 (the modulo bias is
    /// irrelevant here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// Uniform in `lo..=hi` (`lo` when `hi < lo`).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi < lo {
            return lo;
        }
        // The span fits in u64 for any i64 pair; the whole i64 range wraps
        // to 0, where every u64 is a fair draw.
        let span = hi.wrapping_sub(lo) as u64;
        let offset = match span.checked_add(1) {
            Some(n) => self.below(n),
            None => self.next(),
        };
        lo.wrapping_add(offset as i64)
    }

    /// True one time in `n` (always when `n` is 0 or 1).
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// One of `items`, or `None` when it is empty.
    pub fn choose<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        let i = usize::try_from(self.below(items.len() as u64)).ok()?;
        items.get(i).copied()
    }
}

#[cfg(test)]
impl Rng {
    /// One of `items`, which the unit tests always give non-empty.
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        self.choose(items)
            .expect("the unit tests pick from non-empty lists")
    }
}
