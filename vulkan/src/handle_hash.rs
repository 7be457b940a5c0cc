//! The hasher of the backend's maps keyed by engine handles (R-GPU-6): a draw looks its
//! buffers, views and shaders up by handle, a few times per draw, and SipHash (the standard
//! map's, built against flooding by chosen keys) costs more than the rest of such a lookup.
//! Handles are the engine's own numbers, never an attacker's, so a multiply-and-rotate hash
//! (the Fx hash of rustc) is enough.
//!
//! **In:** keys made of integers (handles, instances, object kinds). **Out:** [`HandleMap`].
//!
//! **Invariant.** Only the hash changes: the maps behave as `std`'s.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map keyed by handles, with [`HandleHasher`].
pub(crate) type HandleMap<K, V> = HashMap<K, V, BuildHasherDefault<HandleHasher>>;

/// Fx's multiplier (rustc-hash 2).
const K: u64 = 0xf135_7aea_2e62_a9c5;

/// A multiply-and-add hash of the integers written (see the module essay).
#[derive(Clone, Copy, Default)]
pub(crate) struct HandleHasher(u64);

impl HandleHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = self.0.wrapping_add(word).wrapping_mul(K);
    }
}

impl Hasher for HandleHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(n as u64);
    }

    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.add(n as u64);
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(n as u64);
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The table takes its bucket from the low bits and its tag from the high ones: the
        // product's best-mixed bits are the high ones, so they are brought down.
        self.0.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handle_map_finds_what_was_inserted() {
        let mut map: HandleMap<(u64, u32), u64> = HandleMap::default();
        for i in 0..10_000u64 {
            map.insert((i << 32 | 7, i as u32), i);
        }
        for i in 0..10_000u64 {
            assert_eq!(map.get(&(i << 32 | 7, i as u32)), Some(&i));
        }
        assert_eq!(map.get(&(5, 5)), None);
    }
}
