//! # bundles
//!
//! Draw bundles (SPEC §7): slot-granular encapsulation under the 6 KB constant-engine budget,
//! inheritance remapping and O(1) execution. Not built yet: this crate arrives with the bundle
//! issue and exports nothing until then.
