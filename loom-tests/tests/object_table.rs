//! Models of `ObjectTable` (`recorder/src/table.rs`): lock-free lookups against destruction and
//! slot reuse, segment publication, and the reference counts of `retain` / `release` /
//! `try_destroy`.
#![cfg(loom)]

use loom::sync::Arc;
use loom_tests::{check, spawn, TABLE_BRANCHES};
use recorder::loom_exports::{ObjectTable, ReleaseOutcome, Stale};
use recorder::RawHandle;

/// The generation base of the modelled tables: a device tag (the high bits, R-OBJ-3) and a reuse
/// count of 0, as `DeviceIdentity` hands out. Another device's tables would have another tag.
const BASE: u32 = 0x2A << recorder::limits::GENERATION_COUNT_BITS;
/// Another device's base: same reuse counts, another tag.
const FOREIGN_BASE: u32 = 0x2B << recorder::limits::GENERATION_COUNT_BITS;

/// Descriptor of the object that is destroyed (two words, so a torn read is possible).
const OLD: [u64; 2] = [0x0A0A_0001, 0x0A0A_0002];
/// Descriptor of the object that reuses its slot.
const NEW: [u64; 2] = [0x0B0B_0001, 0x0B0B_0002];

/// A reader looks up a handle while the main thread releases it (destroying it) and creates a new
/// object that reuses the slot. The reader must see the old words intact or `Destroyed`: never
/// the new object's words (or a mix) under the old handle.
#[test]
fn lookup_racing_destroy_and_reuse() {
    check(TABLE_BRANCHES, || {
        let table = Arc::new(ObjectTable::<2>::new(BASE));
        let old = table.insert(OLD, 0, 0, "");

        let reader = {
            let table = table.clone();
            spawn(move || table.get(old, true).map(|live| live.words))
        };

        let (outcome, words) = table.release(old);
        assert_eq!(outcome, ReleaseOutcome::Destroyed);
        assert_eq!(words, Some(OLD));
        let new = table.insert(NEW, 0, 0, "");
        assert_eq!(new.index(), old.index(), "the destroyed slot is reused");
        assert_ne!(new.generation(), old.generation());

        let seen = reader.join().unwrap();
        assert!(
            matches!(seen, Ok(OLD) | Err(Stale::Destroyed)),
            "a lookup of the old handle returned {seen:x?}"
        );
        assert_eq!(table.get(new, false).map(|live| live.words), Ok(NEW));
        assert_eq!(
            table.get(old, true).map(|live| live.words),
            Err(Stale::Destroyed)
        );
    });
}

/// A reader looks up the handle the next object will get (index 256: the first slot of the
/// second segment) while the main thread creates that object, allocating and publishing the
/// segment. The reader
/// sees `Destroyed` (no segment yet, or a vacant slot) or the finished descriptor: never a slot
/// whose segment pointer was published before its slots were initialised.
#[test]
fn lookup_racing_segment_growth() {
    const FIRST_OF_SEGMENT_1: u32 = 256;
    // One insert per slot of segment 0, each a lock, a few loads and stores, an unlock.
    check(
        TABLE_BRANCHES + 16 * FIRST_OF_SEGMENT_1 as usize + 8192,
        || {
            let table = Arc::new(ObjectTable::<1>::new(BASE));
            for i in 0..FIRST_OF_SEGMENT_1 {
                table.insert([i as u64], 0, 0, "");
            }
            // The base plus one is what a never-used slot's first object gets.
            let upcoming =
                RawHandle::from_bits(((BASE + 1) as u64) << 32 | FIRST_OF_SEGMENT_1 as u64);

            let reader = {
                let table = table.clone();
                spawn(move || table.get(upcoming, false).map(|live| live.words))
            };

            let created = table.insert([0xC0DE], 0, 0, "");
            assert_eq!(created, upcoming);

            let seen = reader.join().unwrap();
            assert!(
                matches!(seen, Ok([0xC0DE]) | Err(Stale::Destroyed)),
                "a lookup racing segment growth returned {seen:x?}"
            );
        },
    );
}

/// Shared body of the retain-versus-release models: one thread takes a reference (as a legacy
/// binding or list does) while the main thread releases the application's reference.
///
/// - If the retain succeeds, the object stays readable until the matching unretain, and is
///   destroyed only by a `try_destroy` after it (the binder's own, or the deferred-release pass
///   the main thread runs after the join).
/// - If it fails, the failure is `Destroyed` (the release won), or `Released` when the retain
///   does not accept released objects.
/// - Afterwards the object is gone, it was destroyed exactly once, and the table is empty.
fn retain_racing_release_model(allow_released: bool) {
    let table = Arc::new(ObjectTable::<1>::new(BASE));
    let handle = table.insert([7], 0, 0, "");

    let binder = {
        let table = table.clone();
        spawn(move || match table.retain(handle, 1, allow_released) {
            Ok(()) => {
                assert_eq!(
                    table.get(handle, true).map(|live| live.words),
                    Ok([7]),
                    "an object was destroyed while a reference on it was held"
                );
                table.unretain(handle);
                // What `process_deferred_releases` does for a released object.
                (true, table.try_destroy(handle).is_some())
            }
            Err(Stale::Destroyed) => (false, false),
            Err(Stale::Released) => {
                assert!(
                    !allow_released,
                    "retain(allow_released) refused a released object"
                );
                (false, false)
            }
        })
    };

    let (outcome, words) = table.release(handle);
    let (_retained, binder_destroyed) = binder.join().unwrap();

    let mut destroyed = binder_destroyed as u32;
    match outcome {
        ReleaseOutcome::Destroyed => {
            assert_eq!(words, Some([7]));
            destroyed += 1;
        }
        ReleaseOutcome::Deferred => assert_eq!(words, None),
        ReleaseOutcome::AlreadyReleased => panic!("the first release reported AlreadyReleased"),
    }
    // The deferred-release pass (`DeviceShared::process_deferred_releases`): destroy what is
    // released and unreferenced.
    if table.references(handle) == Some(0) && table.try_destroy(handle).is_some() {
        destroyed += 1;
    }

    assert_eq!(destroyed, 1, "the object was destroyed {destroyed} times");
    assert_eq!(table.references(handle), None, "references leaked");
    assert_eq!(table.get(handle, true).err(), Some(Stale::Destroyed));
    assert_eq!(table.live_count(), 0);
}

/// `retain(.., allow_released = true)`, as the device's `retain` calls it, racing `release`.
#[test]
fn retain_racing_release() {
    check(TABLE_BRANCHES, || retain_racing_release_model(true));
}

/// `retain(.., allow_released = false)` racing `release`: a retain refused as `Released` must
/// leave no reference behind.
#[test]
fn retain_without_released_racing_release() {
    check(TABLE_BRANCHES, || retain_racing_release_model(false));
}

/// A `retain` with a stale handle (its object already destroyed: an application error the table
/// must report, never act on) racing the creation of a new object in the same slot. The stale
/// retain must fail and leave the new object untouched: alive under its own handle, with its
/// descriptor and zero references.
#[test]
fn stale_retain_racing_slot_reuse() {
    check(TABLE_BRANCHES, || {
        let table = Arc::new(ObjectTable::<2>::new(BASE));
        let old = table.insert(OLD, 0, 0, "");
        assert_eq!(table.release(old).0, ReleaseOutcome::Destroyed);

        let binder = {
            let table = table.clone();
            spawn(move || table.retain(old, 1, true))
        };

        let new = table.insert(NEW, 0, 0, "");
        assert_eq!(new.index(), old.index(), "the destroyed slot is reused");

        assert_eq!(binder.join().unwrap(), Err(Stale::Destroyed));
        assert_eq!(
            table.get(new, false).map(|live| live.words),
            Ok(NEW),
            "the new object in the reused slot was lost"
        );
        assert_eq!(
            table.references(new),
            Some(0),
            "the new object's count changed"
        );
    });
}

/// Handles of another device (R-OBJ-3) with the index and reuse count of this table's object,
/// and of the object that will reuse its slot: a thread looks the first up and retains and
/// releases the second while the main thread releases this table's object and makes a new one
/// in the slot. Every use of a foreign handle must fail and leave this table's objects
/// untouched: the old one destroyed once by its own release, the new one alive with no
/// references.
#[test]
fn foreign_handle_racing_destroy_and_reuse() {
    const COUNT: u32 = (1 << recorder::limits::GENERATION_COUNT_BITS) - 1;
    check(TABLE_BRANCHES, || {
        let table = Arc::new(ObjectTable::<2>::new(BASE));
        let old = table.insert(OLD, 0, 0, "");
        let foreign = |count: u32| {
            RawHandle::from_bits(((FOREIGN_BASE | count) as u64) << 32 | old.index() as u64)
        };
        // Destruction and creation each advance the count: the next object gets `old + 2`.
        let (foreign_old, foreign_new) = (
            foreign(old.generation() & COUNT),
            foreign((old.generation() + 2) & COUNT),
        );

        let intruder = {
            let table = table.clone();
            spawn(move || {
                let seen = table.get(foreign_old, true).map(|live| live.words);
                let retained = table.retain(foreign_new, 1, true);
                let released = table.release(foreign_new);
                (seen, retained, released)
            })
        };

        let (outcome, words) = table.release(old);
        assert_eq!(outcome, ReleaseOutcome::Destroyed);
        assert_eq!(words, Some(OLD));
        let new = table.insert(NEW, 0, 0, "");
        assert_eq!(new.generation() & COUNT, foreign_new.generation() & COUNT);

        let (seen, retained, released) = intruder.join().unwrap();
        assert_eq!(
            seen,
            Err(Stale::Destroyed),
            "a foreign handle read this table's object"
        );
        assert_eq!(
            retained,
            Err(Stale::Destroyed),
            "a foreign handle took a reference"
        );
        assert_eq!(released, (ReleaseOutcome::AlreadyReleased, None));
        assert_eq!(table.get(new, false).map(|live| live.words), Ok(NEW));
        assert_eq!(
            table.references(new),
            Some(0),
            "the new object's count changed"
        );
        assert_eq!(table.live_count(), 1);
    });
}

/// Two creations race, one of them reusing a destroyed slot, while a stale handle to that slot is
/// looked up. An insert holds the table's lock only to choose its slot and record its name; it
/// writes the slot's words and publishes its generation after unlocking (the slot is its alone
/// by then). Each creation must get its own slot, and its handle its own words and name; the
/// stale handle finds `Destroyed`, never the new words, and no name.
#[test]
fn inserts_racing_on_a_freed_slot_publish_their_own_words_and_names() {
    const THEIRS: [u64; 2] = [0x0C0C_0001, 0x0C0C_0002];
    check(TABLE_BRANCHES, || {
        let table = Arc::new(ObjectTable::<2>::new(BASE));
        let old = table.insert(OLD, 0, 0, "old");
        assert_eq!(table.release(old).0, ReleaseOutcome::Destroyed);

        let other = {
            let table = table.clone();
            spawn(move || {
                let handle = table.insert(THEIRS, 0, 0, "theirs");
                let words = table.get(handle, false).map(|live| live.words);
                (handle, words)
            })
        };
        let mine = table.insert(NEW, 0, 0, "mine");
        let stale = table.get(old, true).map(|live| live.words);
        let (theirs, their_words) = other.join().unwrap();

        assert_ne!(mine.index(), theirs.index(), "two creations got one slot");
        assert!(
            mine.index() == old.index() || theirs.index() == old.index(),
            "the destroyed slot was not reused"
        );
        assert!(
            matches!(stale, Err(Stale::Destroyed)),
            "the stale handle read {stale:x?}"
        );
        assert_eq!(their_words, Ok(THEIRS));
        assert_eq!(table.get(mine, false).map(|live| live.words), Ok(NEW));
        assert_eq!(table.name(mine).as_deref(), Some("mine"));
        assert_eq!(table.name(theirs).as_deref(), Some("theirs"));
        assert_eq!(table.name(old), None);
        assert_eq!(table.live_count(), 2);
    });
}

/// The free stack's ABA case: slots 1 and 0 are free (1 on top, 0 below). One thread creates an
/// object, reading the top (1) and the link below it (0), while the other creates two (taking 1,
/// then 0) and destroys the first (pushing 1 back, with nothing below). If the first thread's
/// compare-and-swap then succeeded on the top it read, it would install the stale link (0, which
/// a live object holds) and the next creation would share a slot with it; the tag makes that
/// swap fail. Every live object must have its own slot, and read back its own words.
#[test]
fn free_stack_pop_racing_pops_and_a_push_of_the_same_top() {
    check(TABLE_BRANCHES, || {
        let table = Arc::new(ObjectTable::<1>::new(BASE));
        let zero = table.insert([0], 0, 0, "");
        let one = table.insert([1], 0, 0, "");
        for handle in [zero, one] {
            assert_eq!(table.release(handle).0, ReleaseOutcome::Destroyed);
        }

        let other = {
            let table = table.clone();
            spawn(move || {
                let x = table.insert([0x10], 0, 0, "");
                let y = table.insert([0x11], 0, 0, "");
                assert_eq!(table.release(x).0, ReleaseOutcome::Destroyed);
                y
            })
        };
        let z = table.insert([0x20], 0, 0, "");
        let y = other.join().unwrap();
        let w = table.insert([0x30], 0, 0, "");

        let live = [(y, 0x11), (z, 0x20), (w, 0x30)];
        for (i, (a, _)) in live.iter().enumerate() {
            for (b, _) in &live[i + 1..] {
                assert_ne!(a.index(), b.index(), "two live objects share a slot");
            }
        }
        for (handle, word) in live {
            assert_eq!(table.get(handle, false).map(|l| l.words), Ok([word]));
        }
        assert_eq!(table.live_count(), 3);
    });
}
