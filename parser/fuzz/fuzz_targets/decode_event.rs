//! Decoding one event's fields at an arbitrary offset never panics.
//!
//! Input: a recording, then a five-byte trailer that chooses where to decode:
//! ```text
//! FLR\0 ... (the chunks) ... | chunk (u8) | offset (u32, little-endian)
//! ```
//! The trailer comes last so that the recording keeps its `FLR\0` magic at byte 0 (the seeds
//! in seeds/decode_event/ name a real event). The chunk is the byte modulo 4; the offset is
//! taken modulo the recording's length plus 64, so every offset in the input, and a few past
//! its end, are reached.
#![no_main]
use jfrscope_parser::decode_event_at;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((file, tail)) = data.split_last_chunk::<5>() else { return };
    let chunk = (tail[0] % 4) as usize;
    let raw = u32::from_le_bytes([tail[1], tail[2], tail[3], tail[4]]) as u64;
    let offset = raw % (file.len() as u64 + 64);
    if let Err(e) = decode_event_at(file, chunk, offset) {
        let _ = e.to_string();
    }
});
