//! Reading a capture file line by line in bounded memory, whatever the file
//! holds: a line longer than [`MAX_LINE_BYTES`] or one that is not UTF-8 is
//! a failed row of its own, and the next line reads as usual.

use std::io::{self, BufRead};

use super::{is_blank_or_comment, LineReport};

/// The longest line a capture file may hold, in bytes, not counting its
/// `\n` or `\r\n`: 1 MiB. A real row is under 200 bytes; the limit keeps
/// memory flat on any file (`/dev/zero` is one endless line).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Bytes of a rejected line shown in its report.
const EXCERPT_BYTES: usize = 40;

/// One line as [`LineReader::next_line`] gives it.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadLine<'a> {
    /// A line of UTF-8 text, without its line ending.
    Text(&'a str),
    /// A line that cannot be a row (longer than [`MAX_LINE_BYTES`], or not
    /// UTF-8): the report of its failed row, `LINE:COLUMN: malformed row:
    /// REASON` and a short escaped excerpt, with no target.
    Rejected(LineReport),
}

/// Lines of a capture file in at most [`MAX_LINE_BYTES`] of memory each.
///
/// Lines end at `\n` or `\r\n`, as [`str::lines`] splits them. A line that
/// is not UTF-8 but reads as a comment or blank line after replacing its
/// invalid bytes (a Latin-1 name in a `#` comment) is skipped as one.
///
/// ```
/// use amdgpu_valu::capture::{LineReader, ReadLine, MAX_LINE_BYTES};
///
/// let mut text = b"a\r\n".to_vec();
/// text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 1));
/// text.extend(b"\nb");
/// let mut reader = LineReader::new(&text[..]);
/// assert_eq!(reader.next_line().unwrap(), Some((1, ReadLine::Text("a"))));
/// let Some((2, ReadLine::Rejected(report))) = reader.next_line().unwrap() else { panic!() };
/// assert!(report.text.starts_with("2:1: malformed row: longer than 1048576 bytes"));
/// assert_eq!(reader.next_line().unwrap(), Some((3, ReadLine::Text("b"))));
/// assert_eq!(reader.next_line().unwrap(), None);
/// ```
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    /// The line being read: at most `MAX_LINE_BYTES + 2` bytes, one over
    /// the limit and a `\r` that may come before the `\n`.
    buf: Vec<u8>,
    /// Lines read so far, rejected ones included.
    line_no: usize,
    /// The last line was rejected as too long before its end was read: the
    /// rest of it is still to skip.
    skipping: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of the lines of `reader`, the first numbered 1.
    pub fn new(reader: R) -> LineReader<R> {
        LineReader {
            reader,
            buf: Vec::new(),
            line_no: 0,
            skipping: false,
        }
    }

    /// The last line was longer than [`MAX_LINE_BYTES`] and the rest of
    /// it is still unread: the next call skips it, which on an endless line
    /// (`/dev/zero`) never ends. A caller shows its reports before that.
    pub fn skipping(&self) -> bool {
        self.skipping
    }

    /// The next line and its 1-based number, `None` at the end.
    ///
    /// A line longer than [`MAX_LINE_BYTES`] is rejected as soon as its
    /// first `MAX_LINE_BYTES + 2` bytes are read; the call after skips the
    /// rest of it without keeping it (on an endless line it keeps reading,
    /// in flat memory). Errors are the reader's own.
    pub fn next_line(&mut self) -> io::Result<Option<(usize, ReadLine<'_>)>> {
        if self.skipping {
            self.skip_rest()?;
            self.skipping = false;
        }
        loop {
            self.buf.clear();
            let Some(ended) = self.read_line()? else {
                return Ok(None);
            };
            self.line_no += 1;
            if !ended || self.buf.len() > MAX_LINE_BYTES {
                self.skipping = !ended;
                return Ok(Some((self.line_no, ReadLine::Rejected(self.too_long()))));
            }
            // Checked apart from the borrow returned below, so the loop
            // can go on to the next line.
            if let Err(e) = std::str::from_utf8(&self.buf) {
                if is_blank_or_comment(&String::from_utf8_lossy(&self.buf)) {
                    continue;
                }
                return Ok(Some((self.line_no, ReadLine::Rejected(self.not_utf8(e)))));
            }
            let text = std::str::from_utf8(&self.buf).unwrap_or_default();
            return Ok(Some((self.line_no, ReadLine::Text(text))));
        }
    }

    /// Read the next line into `buf`, without its `\n` or `\r\n`, stopping
    /// after `MAX_LINE_BYTES + 2` bytes. `None` at the end of the input;
    /// `Some(false)` when the line is longer than that and its end is
    /// still unread.
    fn read_line(&mut self) -> io::Result<Option<bool>> {
        // One byte over the limit, and room for a `\r` before the `\n`.
        let cap = MAX_LINE_BYTES + 2;
        loop {
            let chunk = fill(&mut self.reader)?;
            if chunk.is_empty() {
                // The last line may lack its `\n`; its `\r` stays, as
                // `str::lines` keeps it.
                return Ok((!self.buf.is_empty()).then_some(true));
            }
            let newline = chunk.iter().position(|&b| b == b'\n');
            let take = newline.unwrap_or(chunk.len());
            let room = cap - self.buf.len();
            if take > room {
                self.buf
                    .extend_from_slice(chunk.get(..room).unwrap_or_default());
                self.reader.consume(room);
                return Ok(Some(false));
            }
            self.buf
                .extend_from_slice(chunk.get(..take).unwrap_or_default());
            match newline {
                Some(_) => {
                    self.reader.consume(take + 1);
                    if self.buf.last() == Some(&b'\r') {
                        self.buf.pop();
                    }
                    return Ok(Some(true));
                }
                None => self.reader.consume(take),
            }
        }
    }

    /// Skip to just after the next `\n` (or the end), keeping nothing.
    fn skip_rest(&mut self) -> io::Result<()> {
        loop {
            let chunk = fill(&mut self.reader)?;
            if chunk.is_empty() {
                return Ok(());
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.reader.consume(i + 1);
                    return Ok(());
                }
                None => {
                    let n = chunk.len();
                    self.reader.consume(n);
                }
            }
        }
    }

    fn too_long(&self) -> LineReport {
        rejected(format!(
            "{}:1: malformed row: longer than {MAX_LINE_BYTES} bytes (1 MiB), the rest of \
             the line is skipped\n    starts with: {}\n",
            self.line_no,
            excerpt(&self.buf, 0)
        ))
    }

    fn not_utf8(&self, e: std::str::Utf8Error) -> LineReport {
        let at = e.valid_up_to();
        let valid = self.buf.get(..at).unwrap_or_default();
        // The column in characters, as other malformed rows count it.
        let column = String::from_utf8_lossy(valid).chars().count() + 1;
        let byte = self.buf.get(at).copied().unwrap_or(0);
        rejected(format!(
            "{}:{column}: malformed row: not UTF-8 (byte {byte:#04x} at column {column})\n    \
             at: {}\n",
            self.line_no,
            excerpt(&self.buf, at.saturating_sub(EXCERPT_BYTES / 2))
        ))
    }
}

fn rejected(text: String) -> LineReport {
    LineReport {
        target: None,
        passed: false,
        text,
    }
}

/// At most [`EXCERPT_BYTES`] of `bytes` from `start`, escaped as Rust
/// escapes byte strings (`\t`, `\x00`, `\xe9`), with `...` where the line
/// goes on.
fn excerpt(bytes: &[u8], start: usize) -> String {
    let end = bytes.len().min(start.saturating_add(EXCERPT_BYTES));
    let part = bytes.get(start..end).unwrap_or_default();
    format!(
        "{}\"{}\"{}",
        if start > 0 { "..." } else { "" },
        part.escape_ascii(),
        if end < bytes.len() { "..." } else { "" }
    )
}

/// The reader's buffered bytes, refilled when empty (empty at the end of
/// the input), retrying reads the system interrupted.
fn fill<R: BufRead>(reader: &mut R) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            // Borrowed again below, without I/O: the buffer is filled.
            Ok(_) => break,
        }
    }
    reader.fill_buf()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    /// Every line of `bytes`, read through a buffer of `capacity` bytes:
    /// (number, text) or (number, the first line of the rejection).
    fn lines(bytes: &[u8], capacity: usize) -> Vec<(usize, Result<String, String>)> {
        let mut reader = LineReader::new(BufReader::with_capacity(capacity, bytes));
        let mut out = Vec::new();
        while let Some((n, line)) = reader.next_line().expect("a slice reads") {
            out.push((
                n,
                match line {
                    ReadLine::Text(t) => Ok(t.to_string()),
                    ReadLine::Rejected(r) => Err(r.text.lines().next().unwrap_or("").into()),
                },
            ));
        }
        out
    }

    #[test]
    fn short_lines_split_as_str_lines_does_whatever_the_buffer_size() {
        let text = "a\nbb\r\n\r\nc\rd\n\n# x\t\ny\r";
        let want: Vec<(usize, Result<String, String>)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, Ok(l.to_string())))
            .collect();
        for capacity in [1, 2, 3, 7, 64] {
            assert_eq!(
                lines(text.as_bytes(), capacity),
                want,
                "capacity {capacity}"
            );
        }
    }

    #[test]
    fn a_line_of_the_limit_reads_and_one_byte_more_is_rejected() {
        let at_limit = vec![b'a'; MAX_LINE_BYTES];
        let reject = |n: usize| {
            Err(format!(
                "{n}:1: malformed row: longer than 1048576 bytes (1 MiB), the rest of the line \
                 is skipped"
            ))
        };
        let a = || Ok(String::from_utf8(at_limit.clone()).unwrap_or_default());
        // MAX bytes then `\n`, then `\r\n`; MAX bytes and a `\r` at the end
        // are MAX + 1 (a last `\r` stays in the line, as in `str::lines`).
        let mut text = at_limit.clone();
        text.extend(b"\n");
        text.extend(&at_limit);
        text.extend(b"\r\n");
        text.extend(&at_limit);
        text.extend(b"\r");
        for capacity in [1 << 16, 4093] {
            assert_eq!(
                lines(&text, capacity),
                [(1, a()), (2, a()), (3, reject(3))],
                "capacity {capacity}"
            );
        }
        // MAX + 1 and MAX + 2 bytes, each followed by a short line.
        let mut text = vec![b'a'; MAX_LINE_BYTES + 1];
        text.extend(b"\nok\n");
        text.extend(vec![b'\t'; MAX_LINE_BYTES + 2]);
        text.extend(b"\nok");
        let ok = || Ok("ok".to_string());
        assert_eq!(
            lines(&text, 1 << 16),
            [(1, reject(1)), (2, ok()), (3, reject(3)), (4, ok())]
        );
    }

    #[test]
    fn the_rest_of_a_long_line_is_skipped_without_keeping_it() {
        // 5 MiB of NULs, then a short line.
        let input = std::io::repeat(0)
            .take(5 * MAX_LINE_BYTES as u64)
            .chain(&b"\nok\n"[..]);
        let mut reader = LineReader::new(BufReader::new(input));
        let Ok(Some((1, ReadLine::Rejected(report)))) = reader.next_line() else {
            panic!("the long line is not rejected first");
        };
        // The excerpt: the first 40 bytes, escaped.
        let excerpt = format!("    starts with: \"{}\"...", "\\x00".repeat(EXCERPT_BYTES));
        assert_eq!(report.text.lines().nth(1), Some(excerpt.as_str()));
        assert_eq!((report.target, report.passed), (None, false));
        assert!(reader.skipping());
        assert_eq!(
            reader.next_line().ok(),
            Some(Some((2, ReadLine::Text("ok"))))
        );
        assert!(!reader.skipping());
        // Never more than the limit and its growth room was held.
        assert!(
            reader.buf.capacity() <= 2 * (MAX_LINE_BYTES + 2),
            "{}",
            reader.buf.capacity()
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_names_the_byte_and_its_column() {
        // `é` is one character (2 bytes): 0xff is in column 4.
        let text = b"a\xc3\xa9b\xffcd\n# caf\xe9 comment\n\xfe\nok";
        let got = lines(text, 8);
        assert_eq!(
            got,
            [
                (
                    1,
                    Err("1:4: malformed row: not UTF-8 (byte 0xff at column 4)".into())
                ),
                // Line 2, a comment in Latin-1, is skipped.
                (
                    3,
                    Err("3:1: malformed row: not UTF-8 (byte 0xfe at column 1)".into())
                ),
                (4, Ok("ok".into())),
            ]
        );
        let mut reader = LineReader::new(&text[..]);
        let Ok(Some((1, ReadLine::Rejected(report)))) = reader.next_line() else {
            panic!("not rejected");
        };
        assert_eq!(
            report.text.lines().nth(1),
            Some("    at: \"a\\xc3\\xa9b\\xffcd\"")
        );
    }
}
