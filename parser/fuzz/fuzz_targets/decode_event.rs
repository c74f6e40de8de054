//! Decoding one event's fields at an arbitrary offset never panics.
#![no_main]
use jfrscope_parser::decode_event_at;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u16, &[u8])| {
    let (offset, data) = input;
    let _ = decode_event_at(data, 0, offset as u64);
});
