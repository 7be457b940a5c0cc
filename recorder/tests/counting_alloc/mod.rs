//! A counting global allocator for the steady-state allocation tests (R-REC-3, R-EX-2): it
//! counts every allocation made by the calling thread while [`allocations_during`] runs. Shared
//! by the recorder's and the executor's tests (the executor's includes this file by path).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the counters are thread-local cells that never
// allocate (const-initialised).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: `GlobalAlloc::alloc`'s contract (a layout of non-zero size) binds our caller,
        // and `System.alloc` asks for nothing more.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: `alloc_zeroed` has `alloc`'s contract (a layout of non-zero size), which binds
        // our caller; `System.alloc_zeroed` asks for nothing more.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: every block this allocator hands out comes from `System`, so `ptr` was
        // allocated by `System` with `layout`; `new_size` is non-zero and fits `isize` by
        // `realloc`'s contract on our caller.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: every block this allocator hands out comes from `System`, so `ptr` was
        // allocated by `System` with `layout`, as `dealloc`'s contract on our caller says.
        unsafe { System.dealloc(ptr, layout) }
    }
}

fn count() {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
        }
    });
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by this thread while `f` runs.
pub fn allocations_during<R>(f: impl FnOnce() -> R) -> (R, u64) {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    let result = f();
    COUNTING.with(|on| on.set(false));
    (result, ALLOCATIONS.with(|n| n.get()))
}
