//! The 68-byte chunk header. A file is one or more chunks laid end to end, each self-contained.
//!
//! ```text
//! 0   46 4c 52 00        magic "FLR\0"
//! 4   00 02 00 01        major 2, minor 1 (big-endian u16s)
//! 8   chunk size         i64, bytes including this header
//! 16  constant pool      i64, offset of the first checkpoint event, from the chunk start
//! 24  metadata           i64, offset of the metadata event, from the chunk start
//! 32  start nanos        i64, wall clock at the chunk's start (ns since the epoch)
//! 40  duration nanos     i64
//! 48  start ticks        i64, the clock the events' timestamps use
//! 56  ticks per second   i64
//! 64  file state (u8), 2 bytes, flags (u8): bit 0 = integers compressed, bit 1 = final chunk
//! ```

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;

/// Size of a chunk header in bytes.
pub const HEADER_SIZE: usize = 68;

/// One chunk's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkHeader {
    /// Absolute offset of the chunk in the file.
    pub offset: u64,
    /// Format major version.
    pub major: u16,
    /// Format minor version.
    pub minor: u16,
    /// Chunk size in bytes, as the header states it.
    pub size: u64,
    /// Offset of the first checkpoint event, relative to the chunk.
    pub cp_offset: u64,
    /// Offset of the metadata event, relative to the chunk.
    pub meta_offset: u64,
    /// Wall clock at the chunk's start, ns since the epoch.
    pub start_nanos: i64,
    /// Chunk duration in ns.
    pub duration_nanos: i64,
    /// Tick counter at the chunk's start.
    pub start_ticks: i64,
    /// Ticks per second.
    pub ticks_per_second: i64,
    /// Integers are LEB128-compressed.
    pub compressed: bool,
}

impl ChunkHeader {
    /// Parse the header at the start of `data`, which sits at absolute `offset`.
    pub fn parse(data: &[u8], offset: u64) -> Result<ChunkHeader> {
        let mut r = Reader::new(data, offset, false);
        let magic = r.bytes(4)?;
        if magic != b"FLR\0" {
            let mut m = [0u8; 4];
            m.copy_from_slice(magic);
            return Err(Error::new(ErrorKind::BadMagic(m), offset));
        }
        let major = r.be_u16()?;
        let minor = r.be_u16()?;
        if !(1..=2).contains(&major) {
            return Err(Error::new(ErrorKind::UnsupportedVersion(major, minor), offset + 4));
        }
        let mut field = |what: &'static str| -> Result<i64> {
            let at = r.offset();
            let v = r.be_i64()?;
            if v < 0 {
                return Err(Error::new(ErrorKind::OutOfBounds { what, value: v }, at));
            }
            Ok(v)
        };
        let size = field("chunk size")?;
        let cp_offset = field("constant pool offset")?;
        let meta_offset = field("metadata offset")?;
        let start_nanos = field("start nanos")?;
        let duration_nanos = field("duration")?;
        let start_ticks = field("start ticks")?;
        let ticks_per_second = field("ticks per second")?;
        let state = r.u8()?;
        r.skip(2)?;
        let flags = r.u8()?;
        // 255: the writer is updating the header. Another non-zero state is a chunk still being
        // written (the newest file of a live JFR repository); its header is rewritten at each
        // flush, and until the first one it names no metadata (offset 0): nothing in it can be
        // read yet (the JDK's reader waits for a metadata offset).
        if size == 0 || state == 255 || (state != 0 && meta_offset == 0) {
            return Err(Error::new(ErrorKind::ChunkInProgress, offset + 8));
        }
        if (size as u64) < HEADER_SIZE as u64 {
            return Err(Error::new(ErrorKind::OutOfBounds { what: "chunk size", value: size }, offset + 8));
        }
        if ticks_per_second == 0 {
            return Err(Error::new(ErrorKind::OutOfBounds { what: "ticks per second", value: 0 }, offset + 56));
        }
        for (what, v, at) in [("constant pool offset", cp_offset, 16), ("metadata offset", meta_offset, 24)] {
            if v as u64 >= size as u64 || (v as usize) < HEADER_SIZE && v != 0 {
                return Err(Error::new(ErrorKind::OutOfBounds { what, value: v }, offset + at));
            }
        }
        Ok(ChunkHeader {
            offset,
            major,
            minor,
            size: size as u64,
            cp_offset: cp_offset as u64,
            meta_offset: meta_offset as u64,
            start_nanos,
            duration_nanos,
            start_ticks,
            ticks_per_second,
            // Format 1 had no flag byte and always compressed.
            compressed: major < 2 || flags & 1 != 0,
        })
    }

    /// Wall-clock ns since the epoch of a tick value of this chunk.
    #[inline]
    pub fn ticks_to_nanos(&self, ticks: i64) -> i64 {
        self.start_nanos + self.ticks_to_duration(ticks.wrapping_sub(self.start_ticks))
    }

    /// Nanoseconds of a tick span of this chunk.
    #[inline]
    pub fn ticks_to_duration(&self, ticks: i64) -> i64 {
        if self.ticks_per_second == 1_000_000_000 {
            ticks
        } else {
            ((ticks as i128) * 1_000_000_000 / self.ticks_per_second as i128) as i64
        }
    }
}

/// Headers of every chunk in `data`, and the error that stopped the walk, if any. A last chunk
/// whose stated size runs past the end of the file is kept (its data is truncated) and reported.
pub fn chunk_headers(data: &[u8]) -> (Vec<ChunkHeader>, Option<Error>) {
    chunk_headers_at(data, 0, 0)
}

/// Like [`chunk_headers`] for a slice that starts at absolute offset `base` of the file with
/// chunk number `first`: offsets and chunk indexes in headers and errors are the file's.
pub fn chunk_headers_at(data: &[u8], base: u64, first: usize) -> (Vec<ChunkHeader>, Option<Error>) {
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos < data.len() {
        let index = first + out.len();
        match ChunkHeader::parse(&data[pos..], base + pos as u64) {
            Ok(h) => {
                let end = pos as u64 + h.size;
                let truncated = end > data.len() as u64;
                let size = h.size;
                out.push(h);
                if truncated {
                    let available = (data.len() - pos) as u64;
                    let e = Error::new(ErrorKind::Truncated { expected: size, available }, base + pos as u64 + 8);
                    return (out, Some(e.in_chunk(index)));
                }
                pos = end as usize;
            }
            Err(e) => return (out, Some(e.in_chunk(index))),
        }
    }
    (out, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn header_bytes(size: i64, cp: i64, meta: i64, flags: u8) -> Vec<u8> {
        let mut b = b"FLR\0".to_vec();
        b.extend_from_slice(&2u16.to_be_bytes());
        b.extend_from_slice(&1u16.to_be_bytes());
        for v in [size, cp, meta, 1_000, 5, 100, 1_000_000_000] {
            b.extend_from_slice(&v.to_be_bytes());
        }
        b.extend_from_slice(&[0, 0, 0, flags]);
        b
    }

    #[test]
    fn parses_fields_and_flags() {
        let h = ChunkHeader::parse(&header_bytes(100, 70, 80, 1), 0).unwrap();
        assert_eq!((h.major, h.minor, h.size, h.cp_offset, h.meta_offset), (2, 1, 100, 70, 80));
        assert!(h.compressed);
        assert_eq!(h.ticks_to_nanos(150), 1_050);
    }

    #[test]
    fn garbage_is_refused_with_the_bytes_found() {
        let e = ChunkHeader::parse(&[1, 2, 3, 4, 5, 6, 7, 8], 0).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::BadMagic([1, 2, 3, 4]));
        assert!(e.to_string().contains("not a JFR recording"));
    }

    #[test]
    fn metadata_offset_outside_chunk_is_refused() {
        let e = ChunkHeader::parse(&header_bytes(100, 70, 500, 1), 0).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::OutOfBounds { what: "metadata offset", value: 500 });
        assert_eq!(e.offset(), 24);
    }

    /// The header of the newest chunk of a live repository, copied while a JDK 25 recording ran
    /// (before its first flush): size 68, no constant pool, no metadata, file state 1. The JDK's
    /// RecordingFile refuses the file ("stuck in locked stream state").
    const LIVE_HEADER: [u8; 68] = [
        0x46, 0x4c, 0x52, 0x00, 0x00, 0x02, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x18, 0xea,
        0xfb, 0x67, 0x47, 0x27, 0x26, 0x20, 0, 0, 0, 0, 0, 0x22, 0xba, 0x00, 0, 0, 0, 0x0c, 0xbe, 0x46, 0xc6, 0x88, 0, 0, 0, 0, 0x3b, 0x9a,
        0xca, 0x00, 0x01, 0x00, 0x00, 0x01,
    ];

    #[test]
    fn a_chunk_not_flushed_yet_is_in_progress() {
        let e = ChunkHeader::parse(&LIVE_HEADER, 1000).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::ChunkInProgress);
        assert_eq!(e.offset(), 1008);
        // After a complete chunk, the walk keeps that chunk and stops at this one.
        let mut f = header_bytes(100, 70, 80, 1);
        f.resize(100, 0);
        f.extend_from_slice(&LIVE_HEADER);
        f.extend_from_slice(&[7; 500]);
        let (hs, err) = chunk_headers(&f);
        assert_eq!(hs.len(), 1);
        let err = err.unwrap();
        assert_eq!((err.kind(), err.chunk()), (&ErrorKind::ChunkInProgress, Some(1)));
        // Once flushed, its header names the metadata and the bytes written: readable so far.
        let mut flushed = LIVE_HEADER;
        flushed[8..16].copy_from_slice(&300i64.to_be_bytes());
        flushed[16..24].copy_from_slice(&200i64.to_be_bytes());
        flushed[24..32].copy_from_slice(&250i64.to_be_bytes());
        let h = ChunkHeader::parse(&flushed, 0).unwrap();
        assert_eq!((h.size, h.cp_offset, h.meta_offset), (300, 200, 250));
    }

    #[test]
    fn truncated_last_chunk_is_kept_and_reported() {
        let mut f = header_bytes(100, 70, 80, 1);
        f.resize(90, 0);
        let (hs, err) = chunk_headers(&f);
        assert_eq!(hs.len(), 1);
        let e = err.unwrap();
        assert_eq!(e.chunk(), Some(0));
    }
}
