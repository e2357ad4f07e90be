//! Content hashes, as hookx records them (trust records, cache and warning keys).

use sha2::{Digest, Sha256};

/// Lower-case hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
