//! Models of `Handoff` (`executor/src/gpu_thread.rs`): the GPU model on its own thread, owned
//! by the worker while work is outstanding, handed back whole when the CPU side observes it.
#![cfg(loom)]

use executor::loom_exports::Handoff;
use loom_tests::check;

/// Branch points: a few channel operations and one thread's start and join.
const BRANCHES: usize = 4096;

fn push(state: &mut Vec<u32>, work: u32) {
    state.push(work);
}

/// Whatever the interleaving of the worker with the sender, the state that comes back has
/// applied every batch sent before the take, in order, and a second round starts from it.
#[test]
fn work_sent_before_a_take_is_applied_in_order() {
    check(BRANCHES, || {
        let handoff = Handoff::spawn(push);
        handoff.adopt(Vec::new());
        handoff.work(1);
        handoff.work(2);
        let state = handoff.take_back().expect("the worker held the state");
        assert_eq!(state, [1, 2]);
        handoff.adopt(state);
        handoff.work(3);
        assert_eq!(handoff.take_back().expect("second round"), [1, 2, 3]);
    });
}

/// A take with nothing adopted answers `None` instead of blocking; dropping the handoff while
/// the worker still holds state and work ends the thread (the drop joins it).
#[test]
fn take_without_adopt_and_drop_while_working() {
    check(BRANCHES, || {
        let handoff = Handoff::spawn(push);
        assert_eq!(handoff.take_back(), None);
        handoff.adopt(vec![7]);
        handoff.work(8);
        drop(handoff);
    });
}
