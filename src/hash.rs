//! Content hashes, as hookx records them (trust records, cache and warning keys).

use sha2::{Digest, Sha256};

/// This build: its version and a hash of its sources and locked dependencies (`build.rs`).
/// What hookx remembers from one run for the next (the parse cache, its facts, the files an
/// agent loads whole, the warnings given) is keyed by it, not by the version alone: the
/// version stayed 0.1.0 through every change of the tables and rules those memos come from,
/// and an upgraded hookx took an older build's verdict for its own (attacks row 1340).
pub const BUILD: &str = env!("HOOKX_BUILD");

/// Lower-case hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    // Hex by table, not a `format!` per byte: `run` digests on every event (row 382's mark).
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(64);
    for b in Sha256::digest(bytes) {
        hex.push(HEX[usize::from(b >> 4)].into());
        hex.push(HEX[usize::from(b & 0xf)].into());
    }
    hex
}

#[cfg(test)]
mod tests {
    /// Trust records keep these strings: the form must not change.
    #[test]
    fn sha256_hex_is_the_lower_case_digest() {
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(super::sha256_hex(b"").len(), 64);
    }
}
