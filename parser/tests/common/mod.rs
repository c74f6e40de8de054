//! What the parser's integration tests share: the repository's root, reading a recording
//! (gunzipped when it is `.jfr.gz`) and listing the recordings of a folder.

use flate2::read::GzDecoder;
use std::io::Read;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

pub fn read(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap();
    if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        GzDecoder::new(&raw[..]).read_to_end(&mut out).unwrap();
        out
    } else {
        raw
    }
}

/// The `.jfr` and `.jfr.gz` files of `dir`, sorted (the deliberately invalid one left out).
#[allow(dead_code)]
pub fn recordings_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.to_string_lossy();
            (n.ends_with(".jfr") || n.ends_with(".jfr.gz")) && !n.ends_with("invalid.jfr")
        })
        .collect();
    v.sort();
    v
}
