//! R-CAP-1 while capturing : a context that captures list after list, each dropped
//! before the next is finished, reuses the vectors its lists' entries and clock were kept in
//! (`Spares`, `trace/src/capture/log.rs`): a dropped list's log hands them back to its tap,
//! which takes them for the next list instead of allocating two blocks of the entries' size
//! per list (for a large list, megabytes mapped, faulted in and unmapped each time). Its
//! arena (`arena.rs`), which holds the binds' lists, is reset at the next list's first call,
//! the list before being dropped: no new chunk either.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedImmediate};

/// Blocks at least this large are counted: a list of [`DRAWS`] draws keeps three times as
/// many entries, so its clock alone (8 bytes an entry) is over this, and so are its binds'
/// lists in the arena (a chunk as large as the list's: bumpalo doubles them); the rest of what
/// a list allocates (the recorder's chunks) is pooled or smaller.
const LARGE: usize = 128 << 10;

/// Draws a list (three kept calls each, one with a list).
const DRAWS: u32 = 20_000;

struct Large;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static BLOCKS: Cell<u32> = const { Cell::new(0) };
}

fn count(layout: Layout) {
    if layout.size() >= LARGE {
        let _ = COUNTING.try_with(|on| {
            if on.get() {
                BLOCKS.with(|n| n.set(n.get() + 1));
            }
        });
    }
}

// SAFETY: forwards to the system allocator; the counters are thread-local cells that never
// allocate (const-initialised).
unsafe impl GlobalAlloc for Large {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout);
        // SAFETY: `GlobalAlloc::alloc`'s contract (a layout of non-zero size) binds our caller,
        // and `System.alloc` asks for nothing more.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout);
        // SAFETY: as `alloc`: `alloc_zeroed` has its contract, which binds our caller.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A block grown past the size is a new one of that size.
        if layout.size() < LARGE {
            count(Layout::from_size_align(new_size, layout.align()).unwrap_or(layout));
        }
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

#[global_allocator]
static GLOBAL: Large = Large;

/// Blocks of at least [`LARGE`] bytes this thread allocated while `f` ran.
fn large_blocks_by(f: impl FnOnce()) -> u32 {
    BLOCKS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    BLOCKS.with(|n| n.get())
}

#[test]
fn r_cap_1_a_capturing_context_reuses_a_dropped_lists_vectors() {
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let device = CaptureDevice::new(
            Device::new(DeviceDesc::default()),
            CaptureOptions::default(),
        );
        let vs = device
            .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
            .expect("a shader");
        let cb = device
            .create_buffer(&BufferDesc {
                name: "per draw",
                size: 256,
                usage: Usage::Default,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            })
            .expect("a buffer");
        let mut imm = CapturedImmediate::new(&device).expect("the immediate context");
        imm.begin_capture();
        let mut worker = device
            .create_deferred_context(&DeferredContextDesc {
                name: "worker",
                semantics,
                ..Default::default()
            })
            .expect("a deferred context");
        let mut large = Vec::new();
        for _ in 0..10 {
            large.push(large_blocks_by(|| {
                for draw in 0..DRAWS {
                    worker.set_shader(Stage::Vertex, Some(vs));
                    worker.set_constant_buffers(Stage::Vertex, 0, &[Some(cb), None]);
                    worker.draw(3, draw);
                }
                let list = worker
                    .finish_command_list(RestoreState::ClearState)
                    .map_err(|e| e.error)
                    .expect("the list");
                assert!(
                    list.attachment().is_some(),
                    "{semantics:?}: the list is kept"
                );
                drop(list);
            }));
        }
        // The first lists grow the tap's vectors and arena and make the spare pair; after them,
        // each list takes the pair the list before handed back (without it: two large blocks a
        // list) and the arena reset (without it: a new chunk each time the lists kept so far
        // outgrow the chunks, which double: at least one over the last seven lists).
        assert!(
            large[0] >= 2,
            "{semantics:?}: the first list's entries are large blocks: {large:?}"
        );
        assert_eq!(
            large[3..],
            [0; 7],
            "{semantics:?}: large blocks allocated per list: {large:?}"
        );
        imm.end_capture();
    }
}
