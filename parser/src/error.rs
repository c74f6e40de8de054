//! The one error type of the parser: what went wrong, in which chunk, at which absolute offset.
//!
//! An `Error` is a boxed struct so that `Result<T, Error>` costs one word on the happy path.

use std::fmt;

/// What went wrong. New kinds may be added.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file does not start with `FLR\0` (the bytes found are inside).
    BadMagic([u8; 4]),
    /// A chunk header names a format version this parser does not read.
    UnsupportedVersion(u16, u16),
    /// The input ended in the middle of a structure.
    UnexpectedEof,
    /// A variable-length integer ran past 9 bytes or overflowed.
    BadVarint,
    /// A size or offset read from the file points outside its chunk.
    OutOfBounds {
        /// What the size or offset was for.
        what: &'static str,
        /// The value read.
        value: i64,
    },
    /// A string has an encoding byte other than 0..=5.
    BadStringEncoding(u8),
    /// A UTF-8 string holds invalid bytes.
    BadUtf8,
    /// The metadata event is malformed (the text says how).
    BadMetadata(&'static str),
    /// A field refers to a type the metadata does not declare.
    UnknownType(u64),
    /// Types nest deeper than the parser allows (a cycle in the metadata, most likely).
    TooDeep,
    /// A count read from the file exceeds what the remaining bytes could hold.
    TooLarge {
        /// What was being counted.
        what: &'static str,
        /// The count read.
        value: u64,
    },
    /// The chunk's constant-pool chain loops.
    PoolChainLoop,
    /// The file ends before the chunk does: the header declares `expected` bytes, the file
    /// holds `available` of them.
    Truncated {
        /// Chunk size stated by the header.
        expected: u64,
        /// Bytes of the chunk present in the file.
        available: u64,
    },
    /// The chunk header says the chunk is still being written.
    ChunkInProgress,
}

/// A parse error: its kind, the chunk it happened in and the absolute byte offset in the file.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    chunk: Option<usize>,
    offset: u64,
}

impl Error {
    /// A new error at an absolute offset, chunk not yet known.
    pub fn new(kind: ErrorKind, offset: u64) -> Error {
        Error(Box::new(Inner { kind, chunk: None, offset }))
    }

    /// Attach the chunk index (kept if already set).
    pub fn in_chunk(mut self, chunk: usize) -> Error {
        if self.0.chunk.is_none() {
            self.0.chunk = Some(chunk);
        }
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The chunk index (0-based), where known.
    pub fn chunk(&self) -> Option<usize> {
        self.0.chunk
    }

    /// The absolute byte offset in the file.
    pub fn offset(&self) -> u64 {
        self.0.offset
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::BadMagic(m) => write!(
                f,
                "not a JFR recording: expected magic 'FLR\\0', found {:02x} {:02x} {:02x} {:02x}",
                m[0], m[1], m[2], m[3]
            ),
            ErrorKind::UnsupportedVersion(a, b) => write!(f, "unsupported JFR format version {a}.{b}"),
            ErrorKind::UnexpectedEof => write!(f, "unexpected end of data"),
            ErrorKind::BadVarint => write!(f, "malformed variable-length integer"),
            ErrorKind::OutOfBounds { what, value } => write!(f, "{what} {value} points outside the chunk"),
            ErrorKind::BadStringEncoding(b) => write!(f, "unknown string encoding {b}"),
            ErrorKind::BadUtf8 => write!(f, "invalid UTF-8 in a string"),
            ErrorKind::BadMetadata(why) => write!(f, "malformed metadata: {why}"),
            ErrorKind::UnknownType(id) => write!(f, "reference to undeclared type id {id}"),
            ErrorKind::TooDeep => write!(f, "types nest too deeply"),
            ErrorKind::TooLarge { what, value } => write!(f, "{what} {value} is larger than the data left"),
            ErrorKind::PoolChainLoop => write!(f, "the constant-pool chain loops"),
            ErrorKind::Truncated { expected, available } => write!(
                f,
                "the file is truncated: the chunk declares {expected} bytes but only {available} are present"
            ),
            ErrorKind::ChunkInProgress => write!(f, "the chunk is still being written (header not finalised)"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.kind)?;
        match self.0.chunk {
            Some(c) => write!(f, " (chunk {c}, at offset {:#x})", self.0.offset),
            None => write!(f, " (at offset {:#x})", self.0.offset),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

impl std::error::Error for Error {}

/// The parser's result type.
pub type Result<T> = std::result::Result<T, Error>;
