//! Device identity (R-OBJ-3): each live device holds a tag of its own, drawn from one
//! process-wide registry, and every handle it makes carries that tag in the high bits of its
//! generation (`handle.rs`). Its object tables start every slot's generation at the tag, so the
//! generation comparison a lookup already makes refuses a handle of another device for free; the
//! cold error path then reads the handle's tag to report it as foreign (`invalid_argument`,
//! naming both devices) rather than released.
//!
//! **In:** a device being created; a foreign tag to name in an error. **Out:** a
//! [`DeviceIdentity`] (tag, serial, the base of its tables' generations), which frees its tag
//! when it drops with the device.
//!
//! **Invariants.** Two live devices never hold the same tag, except tag 0, which is handed out
//! only while all [`MAX_TAGGED_DEVICES`] others are held (then a warning says that those devices'
//! handles are not told apart), and twins: a reference device made to accept another's handles
//! (`Device::twin`, for `--compare` and the oracles, which replay the same creations). Tags are handed out round-robin, so a tag is reused as late as
//! possible, and each reuse of a tag starts its tables at another reuse count, so a handle that
//! outlived its device is unlikely to match the next holder's object either.
//!
//! The registry is a `std` mutex, not the crate's sync facade: it is a process-wide static,
//! taken only when a device is made or dropped and on error paths, never while anything a loom
//! model watches happens.

use std::sync::Mutex;

use crate::limits::{DEVICE_TAG_BITS, GENERATION_COUNT_BITS, MAX_TAGGED_DEVICES};

const TAGS: usize = 1 << DEVICE_TAG_BITS;

struct Registry {
    /// The serial of the device holding each tag, 0 where none does (serials start at 1).
    holders: [u64; TAGS],
    /// Live devices holding each tag: its holder and the holder's twins (`DeviceIdentity::twin`).
    sharers: [u32; TAGS],
    /// How often each tag was handed out (it picks the reuse count a holder starts at).
    handed_out: [u32; TAGS],
    /// Where the round-robin search for a free tag starts.
    next_tag: usize,
    next_serial: u64,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    holders: [0; TAGS],
    sharers: [0; TAGS],
    handed_out: [0; TAGS],
    next_tag: 1,
    next_serial: 1,
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    // Nothing panics while holding it; were it poisoned, its data would still be consistent.
    REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A live device's identity: its tag in handles and its serial in messages.
#[derive(Debug)]
pub(crate) struct DeviceIdentity {
    tag: u8,
    serial: u64,
    generation_base: u32,
}

impl DeviceIdentity {
    /// Takes a free tag for a new device.
    pub(crate) fn acquire() -> Self {
        let mut registry = registry();
        let serial = registry.next_serial;
        registry.next_serial += 1;
        let start = registry.next_tag;
        let free = (0..MAX_TAGGED_DEVICES as usize)
            .map(|i| 1 + (start - 1 + i) % MAX_TAGGED_DEVICES as usize)
            .find(|&tag| registry.holders[tag] == 0);
        let tag = match free {
            Some(tag) => {
                registry.holders[tag] = serial;
                registry.sharers[tag] = 1;
                registry.next_tag = 1 + tag % MAX_TAGGED_DEVICES as usize;
                tag
            }
            None => {
                tracing::warn!(
                    device = serial,
                    "more than {MAX_TAGGED_DEVICES} devices are alive: device #{serial} shares \
                     tag 0 with the others past that number, and their handles are not told \
                     apart from each other (R-OBJ-3)"
                );
                0
            }
        };
        // A different starting reuse count for each holder of the tag (Fibonacci hashing).
        let handed_out = registry.handed_out[tag];
        registry.handed_out[tag] = handed_out.wrapping_add(1);
        let count_mask = (1u32 << GENERATION_COUNT_BITS) - 1;
        let start_count = handed_out.wrapping_mul(0x9E37_79B9) & count_mask;
        Self {
            tag: tag as u8,
            serial,
            generation_base: (tag as u32) << GENERATION_COUNT_BITS | start_count,
        }
    }

    /// The identity of a twin of this identity's device: a device of its own (a serial of its
    /// own) whose handles are this device's, same tag, same generations. For a reference run
    /// that makes the same objects in the same order and compares handles with this device's
    /// (`Device::twin`); the tag stays held while either lives.
    pub(crate) fn twin(&self) -> Self {
        let mut registry = registry();
        let serial = registry.next_serial;
        registry.next_serial += 1;
        let tag = self.tag as usize;
        registry.sharers[tag] = registry.sharers[tag].saturating_add(1);
        Self {
            tag: self.tag,
            serial,
            generation_base: self.generation_base,
        }
    }

    /// The tag every handle of the device carries.
    #[inline]
    pub(crate) fn tag(&self) -> u8 {
        self.tag
    }

    /// The device's number in messages ("device #3"); never reused in the process.
    pub(crate) fn serial(&self) -> u64 {
        self.serial
    }

    /// The generation a never-used slot of the device's tables starts at.
    pub(crate) fn generation_base(&self) -> u32 {
        self.generation_base
    }

    /// The device a foreign tag belongs to now, as messages name it.
    #[cold]
    pub(crate) fn describe_tag(tag: u8) -> String {
        match registry().holders[tag as usize] {
            0 => "a device that no longer exists".to_string(),
            serial => format!("device #{serial}"),
        }
    }
}

impl Drop for DeviceIdentity {
    fn drop(&mut self) {
        let mut registry = registry();
        let tag = self.tag as usize;
        if tag != 0 {
            registry.sharers[tag] = registry.sharers[tag].saturating_sub(1);
            if registry.sharers[tag] == 0 {
                registry.holders[tag] = 0;
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn live_identities_hold_distinct_tags_and_serials() {
        let identities: Vec<DeviceIdentity> = (0..40).map(|_| DeviceIdentity::acquire()).collect();
        for (i, a) in identities.iter().enumerate() {
            assert_ne!(a.tag(), 0);
            assert_eq!(a.generation_base() >> GENERATION_COUNT_BITS, a.tag() as u32);
            for b in &identities[i + 1..] {
                assert_ne!(a.tag(), b.tag());
                assert_ne!(a.serial(), b.serial());
            }
        }
        let tag = identities[0].tag();
        assert!(DeviceIdentity::describe_tag(tag).starts_with("device #"));
    }

    #[test]
    fn a_twin_shares_its_devices_tag_until_both_are_gone() {
        let first = DeviceIdentity::acquire();
        let twin = first.twin();
        assert_eq!(twin.tag(), first.tag());
        assert_eq!(twin.generation_base(), first.generation_base());
        assert_ne!(twin.serial(), first.serial());
        let (tag, holder) = (first.tag(), format!("device #{}", first.serial()));
        drop(first);
        assert_eq!(
            DeviceIdentity::describe_tag(tag),
            holder,
            "the twin still holds it"
        );
        drop(twin);
        assert_eq!(
            DeviceIdentity::describe_tag(tag),
            "a device that no longer exists"
        );
    }
}
