//! A cursor over a chunk's bytes that knows its absolute offset in the file.
//!
//! JFR integers are big-endian when the chunk header's "compressed integers" flag is clear, and
//! otherwise a LEB128 variant: seven bits per byte, low group first, high bit = "more follows",
//! except that a ninth byte contributes all eight bits. 300 encodes as `ac 02`:
//!
//! ```text
//! ac = 1_0101100  -> low 7 bits 0x2c, more
//! 02 = 0_0000010  -> next 7 bits 0x02  => 0x2c | 0x02 << 7 = 300
//! ```
//!
//! Strings start with an encoding byte: 0 null, 1 empty, 2 constant-pool reference (a long),
//! 3 UTF-8 (int length + bytes), 4 UTF-16 (int length + one int per char), 5 Latin-1.

use crate::error::{Error, ErrorKind, Result};

/// A string as encoded in the file, borrowed where possible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawStr<'a> {
    /// Encoding 0.
    Null,
    /// Encoding 1.
    Empty,
    /// Encoding 2: an index into the `java.lang.String` constant pool.
    Pool(u64),
    /// Encoding 3.
    Utf8(&'a [u8]),
    /// Encoding 4, already decoded.
    Utf16(String),
    /// Encoding 5.
    Latin1(&'a [u8]),
}

impl RawStr<'_> {
    /// The text, for encodings that carry it inline (`None` for a pool reference).
    pub fn to_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        use std::borrow::Cow;
        match self {
            RawStr::Null | RawStr::Empty => Some(Cow::Borrowed("")),
            RawStr::Pool(_) => None,
            RawStr::Utf8(b) => Some(java_utf8(b)),
            RawStr::Utf16(s) => Some(Cow::Borrowed(s.as_str())),
            RawStr::Latin1(b) => Some(Cow::Owned(b.iter().map(|&c| c as char).collect())),
        }
    }
}

/// UTF-8 bytes as `new String(bytes, UTF_8)` reads them, which is how the JDK's reader decodes
/// encoding 3. Valid UTF-8 is borrowed as is. The JVM writes its symbols (method, class and
/// thread names) in modified UTF-8, where a character beyond U+FFFF is two 3-byte surrogates
/// (`ed a0 b5 ed b3 b3` for U+1D4B3) and NUL is `c0 80`; Java replaces each 3-byte surrogate with
/// one U+FFFD where a WHATWG decoder (`String::from_utf8_lossy`, `TextDecoder`) writes three, so
/// malformed input takes Java's decoder's steps: how many bytes a bad sequence spans, and which
/// byte decoding resumes at, are Java's.
pub fn java_utf8(b: &[u8]) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    if let Ok(s) = std::str::from_utf8(b) {
        return Cow::Borrowed(s);
    }
    const REPL: char = '\u{FFFD}';
    let cont = |x: u8| x & 0xc0 == 0x80;
    // The second byte of a 3-byte (4-byte) sequence led by `b1` cannot continue it.
    let bad3_2 = |b1: u8, b2: u8| (b1 == 0xe0 && b2 & 0xe0 == 0x80) || !cont(b2);
    let bad4_2 = |b1: u8, b2: u8| b1 > 0xf4 || (b1 == 0xf0 && !(0x90..=0xbf).contains(&b2)) || (b1 == 0xf4 && b2 & 0xf0 != 0x80) || !cont(b2);
    let mut out = String::with_capacity(b.len() + 8);
    let n = b.len();
    let mut i = 0;
    while i < n {
        let b1 = b[i];
        i += 1;
        if b1 < 0x80 {
            out.push(b1 as char);
        } else if b1 >> 5 == 0b110 && b1 & 0x1e != 0 {
            match b.get(i) {
                Some(&b2) if cont(b2) => {
                    i += 1;
                    out.push(char::from_u32((u32::from(b1 & 0x1f) << 6) | u32::from(b2 & 0x3f)).unwrap_or(REPL));
                }
                Some(_) => out.push(REPL),
                None => {
                    out.push(REPL);
                    break;
                }
            }
        } else if b1 >> 4 == 0b1110 {
            if i + 1 < n {
                let (b2, b3) = (b[i], b[i + 1]);
                if bad3_2(b1, b2) {
                    out.push(REPL);
                } else if !cont(b3) {
                    out.push(REPL);
                    i += 1;
                } else {
                    i += 2;
                    let c = (u32::from(b1 & 0x0f) << 12) | (u32::from(b2 & 0x3f) << 6) | u32::from(b3 & 0x3f);
                    // A surrogate (ed a0..bf xx) is not a char: one replacement for the three bytes.
                    out.push(char::from_u32(c).unwrap_or(REPL));
                }
                continue;
            }
            out.push(REPL);
            if i < n && bad3_2(b1, b[i]) {
                continue;
            }
            break;
        } else if b1 >> 3 == 0b11110 {
            if i + 2 < n {
                let (b2, b3, b4) = (b[i], b[i + 1], b[i + 2]);
                let c = (u32::from(b1 & 0x07) << 18) | (u32::from(b2 & 0x3f) << 12) | (u32::from(b3 & 0x3f) << 6) | u32::from(b4 & 0x3f);
                if cont(b2) && cont(b3) && cont(b4) && (0x1_0000..=0x10_ffff).contains(&c) {
                    i += 3;
                    out.push(char::from_u32(c).unwrap_or(REPL));
                } else {
                    out.push(REPL);
                    if !bad4_2(b1, b2) {
                        i += if cont(b3) { 2 } else { 1 };
                    }
                }
                continue;
            }
            out.push(REPL);
            if b1 > 0xf4 || (i < n && bad4_2(b1, b[i])) {
                continue;
            }
            i += 1;
            if i < n && !cont(b[i]) {
                continue;
            }
            break;
        } else {
            out.push(REPL);
        }
    }
    Cow::Owned(out)
}

/// The compressed integer that starts the little-endian word `w` (the next eight bytes) and
/// its length, or `None` when it is longer than eight bytes. The first byte with its high bit
/// clear ends it; the 7-bit groups of the bytes up to there are packed together in three
/// shift-and-mask steps (pairs of bytes, pairs of those, then halves).
#[inline(always)]
pub(crate) fn varint_in_word(w: u64) -> Option<(u64, usize)> {
    let term = !w & 0x8080_8080_8080_8080;
    if term == 0 {
        return None;
    }
    let last = term & term.wrapping_neg();
    Some((pack_groups(w & (last ^ (last - 1))), (term.trailing_zeros() / 8) as usize + 1))
}

/// The 7-bit groups of the eight bytes of `w` (low byte first; high bits ignored) packed into
/// 56 bits, in three shift-and-mask steps (pairs of bytes, pairs of those, then halves).
#[inline(always)]
pub(crate) fn pack_groups(w: u64) -> u64 {
    let mut x = w & 0x7f7f_7f7f_7f7f_7f7f;
    x = (x & 0x007f_007f_007f_007f) | ((x & 0x7f00_7f00_7f00_7f00) >> 1);
    x = (x & 0x0000_3fff_0000_3fff) | ((x & 0x3fff_0000_3fff_0000) >> 2);
    (x & 0x0000_0000_0fff_ffff) | ((x & 0x0fff_ffff_0000_0000) >> 4)
}

/// A cursor over `data`, whose first byte sits at absolute offset `base` in the file.
#[derive(Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    /// `data` and the bytes after it that integers may be read a word at a time from (never
    /// consumed: what is read must end within `data`).
    ahead: &'a [u8],
    pos: usize,
    base: u64,
    compressed: bool,
}

impl<'a> Reader<'a> {
    /// A reader over `data` starting at its first byte.
    pub fn new(data: &'a [u8], base: u64, compressed: bool) -> Reader<'a> {
        Reader { data, ahead: data, pos: 0, base, compressed }
    }

    /// A reader over `data[..end]` at `pos`, or `None` when `pos > end` or `end` is past the
    /// data. It reads nothing past `end` but may look ahead to the end of `data`.
    #[inline]
    pub(crate) fn bounded(data: &'a [u8], pos: usize, end: usize, base: u64, compressed: bool) -> Option<Reader<'a>> {
        if pos > end {
            return None;
        }
        Some(Reader { data: data.get(..end)?, ahead: data, pos, base, compressed })
    }

    /// Position relative to the start of `data`.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Absolute offset in the file.
    #[inline]
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Bytes left.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// An error of `kind` at the current position.
    pub fn err(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.offset())
    }

    /// Move to `pos` (relative to the start of `data`).
    pub fn seek(&mut self, pos: usize) -> Result<()> {
        if pos > self.data.len() {
            return Err(self.err(ErrorKind::OutOfBounds { what: "position", value: pos as i64 }));
        }
        self.pos = pos;
        Ok(())
    }

    /// Skip `n` bytes.
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<()> {
        if n > self.remaining() {
            return Err(self.err(ErrorKind::UnexpectedEof));
        }
        self.pos += n;
        Ok(())
    }

    /// The next `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.err(ErrorKind::UnexpectedEof));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// One byte.
    #[inline]
    pub fn u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.err(ErrorKind::UnexpectedEof)),
        }
    }

    /// The next byte, without moving.
    #[inline]
    pub fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn fixed<const N: usize>(&mut self) -> Result<[u8; N]> {
        let b = self.bytes(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(b);
        Ok(a)
    }

    /// A fixed big-endian u16 (chunk header).
    pub fn be_u16(&mut self) -> Result<u16> {
        Ok(u16::from_be_bytes(self.fixed()?))
    }

    /// A fixed big-endian i32.
    pub fn be_i32(&mut self) -> Result<i32> {
        Ok(i32::from_be_bytes(self.fixed()?))
    }

    /// A fixed big-endian i64 (chunk header).
    pub fn be_i64(&mut self) -> Result<i64> {
        Ok(i64::from_be_bytes(self.fixed()?))
    }

    /// A compressed integer of up to 64 bits.
    #[inline(always)]
    pub fn varint(&mut self) -> Result<u64> {
        // Fast paths: one or two bytes (most ids, sizes and small numbers).
        if let Some(&[b, c, ..]) = self.data.get(self.pos..) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(b as u64);
            }
            if c < 0x80 {
                self.pos += 2;
                return Ok((b & 0x7f) as u64 | (c as u64) << 7);
            }
        }
        self.varint_word()
    }

    /// A compressed integer of up to eight bytes read as one word (see [`varint_in_word`]).
    #[inline]
    fn varint_word(&mut self) -> Result<u64> {
        if let Some(bytes) = self.ahead.get(self.pos..self.pos + 8) {
            if let Some((v, len)) = varint_in_word(u64::from_le_bytes(bytes.try_into().unwrap_or([0xff; 8]))) {
                if self.pos + len <= self.data.len() {
                    self.pos += len;
                    return Ok(v);
                }
            }
        }
        self.varint_slow()
    }

    #[inline(never)]
    fn varint_slow(&mut self) -> Result<u64> {
        let mut v: u64 = 0;
        for i in 0..8 {
            let b = self.u8()?;
            v |= ((b & 0x7f) as u64) << (7 * i);
            if b < 0x80 {
                return Ok(v);
            }
        }
        let b = self.u8()?;
        Ok(v | (b as u64) << 56)
    }

    /// Skip `n` compressed integers. Eight bytes at a time: in a word, bytes with the high bit
    /// clear end an integer; a run of eight set bits (a nine-byte integer, whose ninth byte may
    /// have any value) sends the rest to the byte-by-byte loop.
    #[inline]
    pub fn skip_varints(&mut self, n: usize) -> Result<()> {
        const HI: u64 = 0x8080_8080_8080_8080;
        let d = self.data;
        let mut p = self.pos;
        let mut left = n;
        let mut run = 0usize; // high-bit bytes just before `p` (inside the current integer)
        while left >= 8 {
            let Some(bytes) = d.get(p..p + 8) else { break };
            let w = u64::from_le_bytes(bytes.try_into().unwrap_or([0; 8]));
            let term = !w & HI;
            let t = term.count_ones() as usize;
            let lead = if term == 0 { 8 } else { (term.trailing_zeros() / 8) as usize };
            if t > left || run + lead >= 8 {
                break;
            }
            run = (term.leading_zeros() / 8) as usize;
            left -= t;
            p += 8;
        }
        let mut k = run;
        for _ in 0..left {
            loop {
                let Some(&b) = d.get(p) else {
                    self.pos = p;
                    return Err(self.err(ErrorKind::UnexpectedEof));
                };
                p += 1;
                k += 1;
                if b < 0x80 || k == 9 {
                    break;
                }
            }
            k = 0;
        }
        self.pos = p;
        Ok(())
    }

    /// A JFR `long` (also used for `int`, `short` and `char` when compressed).
    #[inline(always)]
    pub fn long(&mut self) -> Result<i64> {
        if self.compressed {
            Ok(self.varint()? as i64)
        } else {
            self.be_i64()
        }
    }

    /// A JFR `int`.
    #[inline(always)]
    pub fn int(&mut self) -> Result<i32> {
        if self.compressed {
            Ok(self.varint()? as i32)
        } else {
            self.be_i32()
        }
    }

    /// A JFR `short`.
    pub fn short(&mut self) -> Result<i16> {
        if self.compressed {
            Ok(self.varint()? as i16)
        } else {
            Ok(i16::from_be_bytes(self.fixed()?))
        }
    }

    /// A JFR `char` (a UTF-16 code unit).
    pub fn char16(&mut self) -> Result<u16> {
        if self.compressed {
            Ok(self.varint()? as u16)
        } else {
            Ok(u16::from_be_bytes(self.fixed()?))
        }
    }

    /// A float (always 4 bytes big-endian).
    pub fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_be_bytes(self.fixed()?))
    }

    /// A double (always 8 bytes big-endian).
    pub fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_be_bytes(self.fixed()?))
    }

    /// A count or length (an `int`), checked to be non-negative and to fit in what is left,
    /// given that each element takes at least `min_elem` bytes.
    pub fn len(&mut self, what: &'static str, min_elem: usize) -> Result<usize> {
        let at = self.offset();
        let n = self.int()?;
        self.check_len(what, n, min_elem, at)
    }

    /// `n`, read at absolute offset `at`, as [`Reader::len`] takes it: a count of elements of
    /// at least `min_elem` bytes each that fit in what is left.
    pub(crate) fn check_len(&self, what: &'static str, n: i32, min_elem: usize, at: u64) -> Result<usize> {
        if n < 0 {
            return Err(Error::new(ErrorKind::OutOfBounds { what, value: n as i64 }, at));
        }
        let n = n as usize;
        if n.saturating_mul(min_elem) > self.remaining() {
            return Err(Error::new(ErrorKind::TooLarge { what, value: n as u64 }, at));
        }
        Ok(n)
    }

    /// A string in any of the six encodings.
    #[inline]
    pub fn string(&mut self) -> Result<RawStr<'a>> {
        let at = self.offset();
        match self.u8()? {
            0 => Ok(RawStr::Null),
            1 => Ok(RawStr::Empty),
            2 => Ok(RawStr::Pool(self.long()? as u64)),
            3 => {
                let n = self.len("string length", 1)?;
                Ok(RawStr::Utf8(self.bytes(n)?))
            }
            4 => {
                let n = self.len("string length", 1)?;
                let mut units = Vec::with_capacity(n);
                for _ in 0..n {
                    units.push(self.char16()?);
                }
                Ok(RawStr::Utf16(String::from_utf16_lossy(&units)))
            }
            5 => {
                let n = self.len("string length", 1)?;
                Ok(RawStr::Latin1(self.bytes(n)?))
            }
            b => Err(Error::new(ErrorKind::BadStringEncoding(b), at)),
        }
    }

    /// Skip a string without decoding it.
    pub fn skip_string(&mut self) -> Result<()> {
        let at = self.offset();
        match self.u8()? {
            0 | 1 => Ok(()),
            2 => self.long().map(|_| ()),
            3 | 5 => {
                let n = self.len("string length", 1)?;
                self.skip(n)
            }
            4 => {
                let n = self.len("string length", 1)?;
                for _ in 0..n {
                    self.char16()?;
                }
                Ok(())
            }
            b => Err(Error::new(ErrorKind::BadStringEncoding(b), at)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_one_two_and_nine_bytes() {
        let mut r = Reader::new(&[0x05, 0xac, 0x02], 0, true);
        assert_eq!(r.varint().unwrap(), 5);
        assert_eq!(r.varint().unwrap(), 300);
        let nine = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        assert_eq!(Reader::new(&nine, 0, true).varint().unwrap(), u64::MAX);
    }

    #[test]
    fn word_varints_agree_with_byte_by_byte() {
        // Every length from one to nine bytes, with and without eight bytes after the start.
        let mut bytes = Vec::new();
        let mut values = Vec::new();
        for len in 1..=9u32 {
            for k in 0..40u64 {
                let v = match len {
                    9 => u64::MAX - k * 0x0123_4567_89ab,
                    _ => (1u64 << (7 * (len - 1))) + k * 0x9e37_79b9 % (1u64 << (7 * (len - 1))).max(1),
                };
                let mut x = v;
                for _ in 0..8 {
                    if x < 0x80 {
                        break;
                    }
                    bytes.push((x as u8 & 0x7f) | 0x80);
                    x >>= 7;
                }
                bytes.push(x as u8);
                values.push(v);
            }
        }
        let mut r = Reader::new(&bytes, 0, true);
        let mut s = Reader::new(&bytes, 0, true);
        for &v in &values {
            assert_eq!(r.varint().unwrap(), v);
            assert_eq!(s.varint_slow().unwrap(), v);
            assert_eq!(r.pos(), s.pos());
        }
        assert_eq!(r.varint().unwrap_err().kind(), &ErrorKind::UnexpectedEof);
    }

    #[test]
    fn bounded_reader_looks_ahead_but_stops_at_its_end() {
        // 300 = ac 02, then bytes that belong to the next event.
        let bytes = [0xac, 0x02, 0xac, 0x02, 1, 2, 3, 4, 5, 6, 7, 8];
        let mut r = Reader::bounded(&bytes, 0, 4, 10, true).unwrap();
        assert_eq!(r.varint().unwrap(), 300);
        assert_eq!(r.varint().unwrap(), 300);
        assert_eq!(r.varint().unwrap_err().offset(), 14);
        let mut r = Reader::bounded(&bytes, 2, 3, 10, true).unwrap();
        let e = r.varint().unwrap_err();
        assert_eq!((e.kind(), e.offset()), (&ErrorKind::UnexpectedEof, 13));
        assert!(Reader::bounded(&bytes, 5, 4, 0, true).is_none());
        assert!(Reader::bounded(&bytes, 0, 13, 0, true).is_none());
    }

    #[test]
    fn skip_varints_agrees_with_reading_them() {
        // A mix of 1-, 2-, 5- and 9-byte integers, long enough for the word-at-a-time path.
        let values: Vec<u64> = (0..200u64)
            .map(|i| match i % 5 {
                0 => i,
                1 => 300 + i,
                2 => u32::MAX as u64 - i,
                3 => u64::MAX - i,
                _ => 1 << 40,
            })
            .collect();
        let mut bytes = Vec::new();
        for &v in &values {
            let mut x = v;
            for _ in 0..8 {
                if x < 0x80 {
                    break;
                }
                bytes.push((x as u8 & 0x7f) | 0x80);
                x >>= 7;
            }
            bytes.push(x as u8);
        }
        for n in [0, 1, 7, 8, 9, 33, 150, 200] {
            let mut a = Reader::new(&bytes, 0, true);
            for _ in 0..n {
                a.varint().unwrap();
            }
            let mut b = Reader::new(&bytes, 0, true);
            b.skip_varints(n).unwrap();
            assert_eq!(a.pos(), b.pos(), "skipping {n}");
        }
        let mut r = Reader::new(&bytes, 0, true);
        assert_eq!(r.skip_varints(201).unwrap_err().kind(), &ErrorKind::UnexpectedEof);
    }

    #[test]
    fn truncated_varint_says_where() {
        let mut r = Reader::new(&[0x80, 0x80], 100, true);
        let e = r.varint().unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::UnexpectedEof);
        assert_eq!(e.offset(), 102);
    }

    #[test]
    fn uncompressed_ints_are_big_endian() {
        let mut r = Reader::new(&[0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7], 0, false);
        assert_eq!(r.int().unwrap(), 256);
        assert_eq!(r.long().unwrap(), 7);
    }

    #[test]
    fn all_string_encodings() {
        let bytes = [0, 1, 2, 7, 3, 2, b'h', b'i', 4, 2, 0x48, 0xc9, 0x01, 5, 1, 0xe9];
        let mut r = Reader::new(&bytes, 0, true);
        assert_eq!(r.string().unwrap(), RawStr::Null);
        assert_eq!(r.string().unwrap(), RawStr::Empty);
        assert_eq!(r.string().unwrap(), RawStr::Pool(7));
        assert_eq!(r.string().unwrap(), RawStr::Utf8(b"hi"));
        assert_eq!(r.string().unwrap().to_text().unwrap(), "HÉ");
        assert_eq!(r.string().unwrap().to_text().unwrap(), "é");
    }

    #[test]
    fn bad_string_encoding_and_huge_length() {
        let e = Reader::new(&[9], 0, true).string().unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::BadStringEncoding(9));
        let e = Reader::new(&[3, 0xff, 0xff, 0x03], 40, true).string().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::TooLarge { .. }));
        assert_eq!(e.offset(), 41);
    }

    /// What `new String(bytes, StandardCharsets.UTF_8)` gives (JDK 17 and 25 alike) for modified
    /// UTF-8 as the JVM writes it and for malformed bytes; `from_utf8_lossy` would give three
    /// replacements for each 3-byte surrogate. Printed by Java for these bytes; the same decoder
    /// agreed with Java on 500,000 random sequences of bytes chosen to break it.
    #[test]
    fn utf8_decodes_as_java_does() {
        let cases = [
            ("d0b2eda0b5edb3b3", "\u{432}\u{FFFD}\u{FFFD}"),
            ("eda080", "\u{FFFD}"),
            ("4ac08042", "J\u{FFFD}\u{FFFD}B"),
            ("e0808041", "\u{FFFD}\u{FFFD}\u{FFFD}A"),
            ("e18041", "\u{FFFD}A"),
            ("e1", "\u{FFFD}"),
            ("e180", "\u{FFFD}"),
            ("f09080", "\u{FFFD}"),
            ("f0908041", "\u{FFFD}A"),
            ("f4908080", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
            ("f5808080", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
            ("f7bfbfbf", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
            ("f0", "\u{FFFD}"),
            ("c2", "\u{FFFD}"),
            ("80bf41", "\u{FFFD}\u{FFFD}A"),
            ("edbfbf41", "\u{FFFD}A"),
            ("e0a080", "\u{800}"),
            ("f09d92b3", "\u{1D4B3}"),
            ("ff41", "\u{FFFD}A"),
        ];
        for (hex, java) in cases {
            let bytes: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
            assert_eq!(java_utf8(&bytes), java, "{hex}");
            let mut string = vec![3u8, bytes.len() as u8];
            string.extend_from_slice(&bytes);
            assert_eq!(Reader::new(&string, 0, true).string().unwrap().to_text().unwrap(), java, "{hex}");
        }
    }
}
