//! R-CAP-1 while capturing : a captured list's entries that own nothing are forgotten
//! when the list drops, not walked (`trace/src/capture/entries.rs`); the entries that own memory
//! (a map's written bytes are the arena's, a call made with a list of its own is not) are
//! dropped. Whichever way an entry goes, recording a captured list and dropping it leaves no
//! block allocated on a warm context: the count of live blocks is where it was.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use recorder::*;
use trace::capture::{CaptureDevice, CaptureOptions, CapturedDeferred, CapturedImmediate};

struct Live;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static BLOCKS: Cell<i64> = const { Cell::new(0) };
}

fn add(blocks: i64) {
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            BLOCKS.with(|n| n.set(n.get() + blocks));
        }
    });
}

// SAFETY: forwards to the system allocator; the counters are thread-local cells that never
// allocate (const-initialised).
unsafe impl GlobalAlloc for Live {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(1);
        // SAFETY: `GlobalAlloc::alloc`'s contract (a layout of non-zero size) binds our caller,
        // and `System.alloc` asks for nothing more.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        add(1);
        // SAFETY: as `alloc`: `alloc_zeroed` has its contract, which binds our caller.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: every block this allocator hands out comes from `System`, so `ptr` was
        // allocated by `System` with `layout`; `new_size` is non-zero and fits `isize` by
        // `realloc`'s contract on our caller. One block before, one after.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-1);
        // SAFETY: every block this allocator hands out comes from `System`, so `ptr` was
        // allocated by `System` with `layout`, as `dealloc`'s contract on our caller says.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Live = Live;

/// Blocks this thread allocated and did not free while `f` ran.
fn blocks_left_by(f: impl FnOnce()) -> i64 {
    BLOCKS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    BLOCKS.with(|n| n.get())
}

struct Objects {
    cb: Buffer,
    vb: Buffer,
    ib: Buffer,
    vs: Shader,
    ps: Shader,
    srv: ShaderResourceView,
    sampler: SamplerState,
}

fn objects(device: &CaptureDevice) -> Objects {
    let buffer = |name, usage, bind| {
        device
            .create_buffer(&BufferDesc {
                name,
                size: 256,
                usage,
                bind,
                ..Default::default()
            })
            .expect("a buffer")
    };
    let texture = device
        .create_texture(&TextureDesc {
            name: "albedo",
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
            bind: BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .expect("a texture");
    Objects {
        cb: buffer("per draw", Usage::Dynamic, BindFlags::CONSTANT),
        vb: buffer("vertices", Usage::Default, BindFlags::VERTEX),
        ib: buffer("indices", Usage::Default, BindFlags::INDEX),
        vs: device
            .create_shader(&ShaderDesc::new("vs", Stage::Vertex))
            .expect("a shader"),
        ps: device
            .create_shader(&ShaderDesc::new("ps", Stage::Pixel))
            .expect("a shader"),
        srv: device
            .create_shader_resource_view(&ViewDesc::new("albedo srv", texture))
            .expect("a view"),
        sampler: device.create_sampler_state("sampler").expect("a sampler"),
    }
}

/// One list of every kind of entry a deferred context keeps for binds, draws and maps: calls
/// with lists and without, a map's written bytes, a map's statements.
fn record(worker: &mut CapturedDeferred, o: &Objects, steps: u32) -> CommandList {
    let viewport = Viewport {
        x: 0.0,
        y: 0.0,
        width: 64.0,
        height: 64.0,
        min_depth: 0.0,
        max_depth: 1.0,
    };
    for step in 0..steps {
        worker.set_shader(Stage::Vertex, Some(o.vs));
        worker.set_shader(Stage::Pixel, Some(o.ps));
        if let Ok(mut data) = worker.map(o.cb, MapType::WriteDiscard, MapFlags::None) {
            data[..4].copy_from_slice(&step.to_le_bytes());
        }
        worker.set_constant_buffers(Stage::Vertex, 0, &[Some(o.cb)]);
        worker.set_shader_resources(Stage::Pixel, 0, &[Some(o.srv), None]);
        worker.set_samplers(Stage::Pixel, 0, &[Some(o.sampler)]);
        worker.set_vertex_buffers(
            0,
            &[VertexBuffer {
                buffer: Some(o.vb),
                stride: 16,
                offset: 0,
            }],
        );
        worker.set_index_buffer(Some(o.ib), Format::R16Uint, 0);
        worker.set_primitive_topology(PrimitiveTopology::TriangleList);
        worker.set_viewports(&[viewport]);
        worker.set_scissor_rects(&[Rect {
            left: 0,
            top: 0,
            right: 64,
            bottom: 64,
        }]);
        worker.draw_indexed(6, 0, 0);
        worker.draw(3, step);
    }
    worker
        .finish_command_list(RestoreState::ClearState)
        .map_err(|e| e.error)
        .expect("the list")
}

#[test]
fn r_cap_1_a_captured_list_dropped_leaves_no_block_behind() {
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let device = CaptureDevice::new(
            Device::new(DeviceDesc::default()),
            CaptureOptions::default(),
        );
        let o = objects(&device);
        let mut imm = CapturedImmediate::new(&device).expect("the immediate context");
        imm.begin_capture();
        let mut worker = device
            .create_deferred_context(&DeferredContextDesc {
                name: "worker",
                semantics,
                ..Default::default()
            })
            .expect("a deferred context");
        let mut left = Vec::new();
        for steps in [200; 7] {
            left.push(blocks_left_by(|| {
                let list = record(&mut worker, &o, steps);
                assert!(
                    list.attachment().is_some(),
                    "{semantics:?}: the list is kept"
                );
                drop(list);
            }));
        }
        // The first lists warm the context (its chunks, the chunk pool, the arena's chunk, the
        // tap's vectors); after them, each list frees all it made (an entry forgotten with memory
        // of its own would leave a block a call: hundreds).
        assert_eq!(
            left[3..],
            [0; 4],
            "{semantics:?}: blocks left per list: {left:?}"
        );
        imm.end_capture();
    }
}
