//! Extreme numbers at every call that takes one (size arithmetic on user input):
//! sizes, offsets, counts, indices, slots and addresses of 0, 1, 2^16, 2^31, `u32::MAX`,
//! `u64::MAX` and their neighbours, thrown at object creation and at the recording calls of a
//! deferred and the immediate context of either semantics, with validation off and on, and the
//! lists executed. Built in debug (overflow checks on), as `cargo test` builds it.
//!
//! What must hold, whatever the numbers: nothing panics, aborts or allocates without bound; a
//! refused creation or call names its call and cites its rule (an R-… id); an accepted list
//! executes (its own refusals named as well). A debug and a release build then refuse alike,
//! since a refusal is a comparison and never a wrapped result. `size_arithmetic.rs` (recorder)
//! pins the edges one by one; `misuse.rs` is the misuse of handles and lifetimes.
//!
//! The creations, bundles and chunk policies are in `size_creations/mod.rs`.
//!
//! `SIZE_CASES=20000 cargo test -p executor --test misuse_sizes` is the long run; failures are
//! kept in `misuse_sizes.proptest-regressions` and re-run first.

mod common;
mod size_creations;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::Fixture;
use executor::ImmediateContext;
use proptest::prelude::*;
use recorder::*;
use size_creations::create;

/// Refusals checked, for the non-vacuity test.
static REFUSALS: AtomicUsize = AtomicUsize::new(0);

/// The edges of a `u32`, and any value.
fn edge32() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => prop::sample::select(vec![
            0,
            1,
            3,
            4,
            12,
            16,
            255,
            256,
            16383,
            16384,
            16385,
            65535,
            65536,
            1 << 31,
            u32::MAX - 3,
            u32::MAX - 1,
            u32::MAX,
        ]),
        1 => any::<u32>(),
    ]
}

/// The edges of a `u64`, and any value.
fn edge64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => prop::sample::select(vec![
            0,
            1,
            4,
            8,
            248,
            256,
            1 << 32,
            (1 << 32) - 1,
            1 << 63,
            u64::MAX - 7,
            u64::MAX - 1,
            u64::MAX,
        ]),
        1 => any::<u64>(),
    ]
}

/// A slice length: empty, one, the slot counts and past them.
fn edge_len() -> impl Strategy<Value = usize> {
    prop::sample::select(vec![0usize, 1, 2, 8, 9, 16, 17, 33, 65, 129])
}

fn edge_i32() -> impl Strategy<Value = i32> {
    prop::sample::select(vec![0, 1, -1, i32::MIN, i32::MAX])
}

/// One creation or call, with the numbers it takes.
#[derive(Clone, Debug)]
enum Op {
    Buffer {
        size: u32,
        placed: Option<u64>,
    },
    Texture {
        dims: [u32; 5],
        bc: bool,
        placed: Option<u64>,
    },
    Heap {
        size: u64,
    },
    View {
        first_mip: u32,
        mips: u32,
        first_slice: u32,
        slices: u32,
    },
    SwapChain {
        buffers: u32,
        width: u32,
        height: u32,
    },
    Draw {
        args: [u32; 5],
        base: i32,
    },
    Indirect {
        which: u8,
        offset: u32,
    },
    Slots {
        which: u8,
        start: u32,
        len: usize,
    },
    Rasterizer {
        viewports: usize,
        rects: usize,
        edge: i32,
    },
    CopyBuffer {
        offsets: [u64; 3],
    },
    CopyTexture {
        subresources: [u32; 2],
        at: [u32; 2],
        source_box: [u32; 4],
    },
    StructureCount {
        offset: u32,
    },
    Fence {
        offset: u64,
        value: u64,
    },
    Gds {
        offset: u32,
        size: u32,
        count: u32,
        at: u64,
    },
    ConstantRam {
        at: u64,
        offset: u32,
        bytes: u32,
        store: bool,
    },
    Placement {
        address: u64,
        slot: u32,
    },
    BufferBarrier {
        offset: u64,
        size: u64,
    },
    TextureBarrier {
        spans: [u16; 6],
    },
    ResourceBarrier {
        subresource: u32,
    },
    Update {
        len: usize,
    },
    Bundle {
        samples: u32,
        start: u32,
        len: usize,
        slot: u32,
        inherit: u32,
        offset: u32,
    },
    Chunks {
        size: usize,
        max: usize,
        pool: usize,
        reserve: usize,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let u = edge32;
    let w = edge64;
    prop_oneof![
        (u(), prop::option::of(w())).prop_map(|(size, placed)| Op::Buffer { size, placed }),
        (
            prop::array::uniform5(u()),
            any::<bool>(),
            prop::option::of(w())
        )
            .prop_map(|(dims, bc, placed)| Op::Texture { dims, bc, placed }),
        w().prop_map(|size| Op::Heap { size }),
        (u(), u(), u(), u()).prop_map(|(first_mip, mips, first_slice, slices)| Op::View {
            first_mip,
            mips,
            first_slice,
            slices
        }),
        (u(), u(), u()).prop_map(|(buffers, width, height)| Op::SwapChain {
            buffers,
            width,
            height
        }),
        (prop::array::uniform5(u()), edge_i32()).prop_map(|(args, base)| Op::Draw { args, base }),
        (0..3u8, u()).prop_map(|(which, offset)| Op::Indirect { which, offset }),
        (0..7u8, u(), edge_len()).prop_map(|(which, start, len)| Op::Slots { which, start, len }),
        (edge_len(), edge_len(), edge_i32()).prop_map(|(viewports, rects, edge)| {
            Op::Rasterizer {
                viewports,
                rects,
                edge,
            }
        }),
        prop::array::uniform3(w()).prop_map(|offsets| Op::CopyBuffer { offsets }),
        (
            prop::array::uniform2(u()),
            prop::array::uniform2(u()),
            prop::array::uniform4(u())
        )
            .prop_map(|(subresources, at, source_box)| Op::CopyTexture {
                subresources,
                at,
                source_box
            }),
        u().prop_map(|offset| Op::StructureCount { offset }),
        (w(), w()).prop_map(|(offset, value)| Op::Fence { offset, value }),
        (u(), u(), u(), w()).prop_map(|(offset, size, count, at)| Op::Gds {
            offset,
            size,
            count,
            at
        }),
        (w(), u(), u(), any::<bool>()).prop_map(|(at, offset, bytes, store)| Op::ConstantRam {
            at,
            offset,
            bytes,
            store
        }),
        (w(), u()).prop_map(|(address, slot)| Op::Placement { address, slot }),
        (w(), w()).prop_map(|(offset, size)| Op::BufferBarrier { offset, size }),
        prop::array::uniform6(prop::sample::select(vec![
            0u16,
            1,
            15,
            16,
            2047,
            2048,
            u16::MAX
        ]))
        .prop_map(|spans| Op::TextureBarrier { spans }),
        u().prop_map(|subresource| Op::ResourceBarrier { subresource }),
        prop::sample::select(vec![0usize, 1, 255, 256, 257]).prop_map(|len| Op::Update { len }),
        (u(), u(), edge_len(), u(), u(), u()).prop_map(
            |(samples, start, len, slot, inherit, offset)| {
                Op::Bundle {
                    samples,
                    start,
                    len,
                    slot,
                    inherit,
                    offset,
                }
            }
        ),
        (edge_usize(), edge_usize(), edge_usize(), edge_usize()).prop_map(
            |(size, max, pool, reserve)| Op::Chunks {
                size,
                max,
                pool,
                reserve
            }
        ),
    ]
}

/// Sizes in bytes and counts of chunks (R-REC-4): 0, the limits' neighbours, `usize::MAX`.
fn edge_usize() -> impl Strategy<Value = usize> {
    prop::sample::select(vec![
        0usize,
        1,
        4095,
        4096,
        65536,
        (64 << 20) + 1,
        1 << 40,
        usize::MAX,
    ])
}

/// A refusal names one of `calls` and cites a requirement.
fn check_refusal(calls: &[&str], message: &str) {
    assert!(
        calls.iter().any(|call| message.contains(call)),
        "a refusal of {calls:?} does not name the call: {message}"
    );
    let cites = message
        .match_indices("R-")
        .any(|(at, _)| message[at + 2..].starts_with(|c: char| c.is_ascii_uppercase()));
    assert!(
        cites,
        "a refusal cites no requirement id (R-...): {message}"
    );
    REFUSALS.fetch_add(1, Ordering::Relaxed);
}

fn created<T>(call: &str, result: Result<T, Error>) -> Option<T> {
    result
        .map_err(|error| check_refusal(&[call], &error.to_string()))
        .ok()
}

/// Runs `op`'s call on `c` and checks the refusal it made, if it made a new one.
fn call<C: DeviceContext>(f: &Fixture, heap_buffer: Option<Buffer>, c: &mut C, op: &Op) {
    let before = c.last_refusal().cloned();
    let names = apply(f, heap_buffer, c, op);
    let after = c.last_refusal().cloned();
    if let Some(error) = after.filter(|after| Some(after) != before.as_ref()) {
        check_refusal(names, &error.to_string());
    }
}

/// The call `op` makes on `c`; the names its refusal may carry.
fn apply<C: DeviceContext>(
    f: &Fixture,
    heap_buffer: Option<Buffer>,
    c: &mut C,
    op: &Op,
) -> &'static [&'static str] {
    match *op {
        Op::Draw {
            args: [a, b, d, e, g],
            base,
        } => {
            c.draw(a, b);
            c.draw_indexed(a, b, base);
            c.draw_instanced(a, b, d, e);
            c.draw_indexed_instanced(a, b, d, base, g);
            c.dispatch(a, b, d);
            &["draw", "dispatch"]
        }
        Op::Indirect { which, offset } => match which {
            0 => {
                c.draw_instanced_indirect(f.args, offset);
                &["draw_instanced_indirect"]
            }
            1 => {
                c.draw_indexed_instanced_indirect(f.args, offset);
                &["draw_indexed_instanced_indirect"]
            }
            _ => {
                c.dispatch_indirect(f.args, offset);
                &["dispatch_indirect"]
            }
        },
        Op::Slots { which, start, len } => slots(f, c, which, start, len),
        Op::Rasterizer {
            viewports,
            rects,
            edge,
        } => {
            let v = Viewport {
                x: edge as f32,
                y: -(edge as f32),
                width: f32::MAX,
                height: f32::MIN_POSITIVE,
                min_depth: 0.0,
                max_depth: 1.0,
            };
            c.set_viewports(&vec![v; viewports]);
            let r = Rect {
                left: edge,
                top: i32::MIN,
                right: i32::MAX,
                bottom: edge,
            };
            c.set_scissor_rects(&vec![r; rects]);
            c.set_primitive_reset_index(edge as u32);
            c.set_blend_state(None, [0.0; 4], edge as u32);
            c.set_depth_stencil_state(None, edge as u32);
            &["set_viewports", "set_scissor_rects"]
        }
        Op::CopyBuffer { offsets: [d, s, n] } => {
            c.copy_buffer_region(f.cb, d, f.cb2, s, n);
            c.copy_buffer_region(f.cb, d, f.cb, s, n);
            &["copy_buffer_region"]
        }
        Op::CopyTexture {
            subresources: [ds, ss],
            at: [x, y],
            source_box: [l, t, r, b],
        } => {
            let source_box = CopyBox {
                left: l,
                top: t,
                right: r,
                bottom: b,
            };
            c.copy_texture_region(f.rt_plain, ds, x, y, f.rt_plain, ss, source_box);
            c.copy_texture_region(f.rt_plain, ds, x, y, f.tex, ss, source_box);
            &["copy_texture_region"]
        }
        Op::StructureCount { offset } => {
            c.copy_structure_count(f.args, offset, f.sb_uav);
            &["copy_structure_count"]
        }
        Op::Fence { offset, value } => {
            c.write_value_bottom_of_pipe(f.args, offset, value);
            c.insert_wait_on_memory(f.args, offset, value);
            &["write_value_bottom_of_pipe", "insert_wait_on_memory"]
        }
        Op::Gds {
            offset,
            size,
            count,
            at,
        } => {
            c.set_gds_range(Stage::Compute, offset, size);
            c.write_gds(offset, &[count; 3]);
            c.read_gds(offset, count, f.args, at);
            &["set_gds_range", "write_gds", "read_gds"]
        }
        Op::ConstantRam {
            at,
            offset,
            bytes,
            store,
        } => {
            if store {
                c.store_constant_ram(f.args, at, offset, bytes);
                &["store_constant_ram"]
            } else {
                c.load_constant_ram(f.args, at, offset, bytes);
                &["load_constant_ram"]
            }
        }
        Op::Placement { address, slot } => {
            c.set_placement_constant_buffer(Stage::Pixel, slot, f.cb, address);
            c.set_placement_shader_resource(Stage::Pixel, slot, f.tex_srv, address);
            c.set_placement_vertex_buffer(slot, f.vb, 16, slot, address);
            c.set_placement_index_buffer(f.ib, address, Format::R16Uint);
            &[
                "set_placement_constant_buffer",
                "set_placement_shader_resource",
                "set_placement_vertex_buffer",
                "set_placement_index_buffer",
            ]
        }
        Op::BufferBarrier { offset, size } => {
            let buffer = heap_buffer.unwrap_or(f.sb);
            c.barrier(&[BarrierGroup::Buffer(&[BufferBarrier {
                sync_before: BarrierSync::ALL,
                sync_after: BarrierSync::ALL,
                access_before: BarrierAccess::UNORDERED_ACCESS,
                access_after: BarrierAccess::UNORDERED_ACCESS,
                resource: buffer.into(),
                offset,
                size,
            }])]);
            &["barrier"]
        }
        Op::TextureBarrier {
            spans: [a, b, d, e, g, h],
        } => {
            c.barrier(&[BarrierGroup::Texture(&[TextureBarrier {
                sync_before: BarrierSync::ALL,
                sync_after: BarrierSync::ALL,
                access_before: BarrierAccess::COMMON,
                access_after: BarrierAccess::COMMON,
                layout_before: BarrierLayout::Undefined,
                layout_after: BarrierLayout::Common,
                resource: f.rt.into(),
                subresources: BarrierSubresources {
                    mips: Span::new(a, b),
                    array: Span::new(d, e),
                    planes: Span::new(g, h),
                },
                discard: false,
            }])]);
            &["barrier"]
        }
        Op::ResourceBarrier { subresource } => {
            c.resource_barrier(&[ResourceBarrier::Transition {
                resource: f.ds.into(),
                before: ResourceStates::COMMON,
                after: ResourceStates::COPY_SOURCE,
                subresource: Some(subresource),
                split: SplitHalf::None,
            }]);
            &["resource_barrier"]
        }
        Op::Update { len } => {
            c.update_subresource(f.cb, &vec![7u8; len]);
            &["update_subresource"]
        }
        // Creations and bundles are the device's, not a context's (`create`).
        Op::Bundle { .. }
        | Op::Chunks { .. }
        | Op::Buffer { .. }
        | Op::Texture { .. }
        | Op::Heap { .. }
        | Op::View { .. }
        | Op::SwapChain { .. } => &[],
    }
}

/// A slot-range call: start and count past the kind's slots, with nulls (the check is on the
/// range, not the objects).
fn slots<C: DeviceContext>(
    f: &Fixture,
    c: &mut C,
    which: u8,
    start: u32,
    len: usize,
) -> &'static [&'static str] {
    match which {
        0 => {
            c.set_constant_buffers(Stage::Pixel, start, &vec![Some(f.cb); len]);
            &["set_constant_buffers"]
        }
        1 => {
            c.set_shader_resources(Stage::Pixel, start, &vec![None; len]);
            &["set_shader_resources"]
        }
        2 => {
            c.set_samplers(Stage::Pixel, start, &vec![Some(f.sampler); len]);
            &["set_samplers"]
        }
        3 => {
            let vb = VertexBuffer {
                buffer: Some(f.vb),
                stride: start,
                offset: start,
            };
            c.set_vertex_buffers(start, &vec![vb; len]);
            c.set_index_buffer(Some(f.ib), Format::R32Uint, start);
            &["set_vertex_buffers", "set_index_buffer"]
        }
        4 => {
            c.set_compute_unordered_access_views(start, &vec![None; len]);
            &["set_compute_unordered_access_views"]
        }
        5 => {
            c.set_render_targets_and_unordered_access_views(&[], None, start, &vec![None; len]);
            c.set_render_targets(&vec![None; len], None);
            &[
                "set_render_targets_and_unordered_access_views",
                "set_render_targets",
            ]
        }
        _ => {
            let entries = [FastResource::ConstantBuffer {
                stage: Stage::Pixel,
                slot: start,
                buffer: Some(f.cb),
            }];
            c.set_fast_resources(&entries);
            &["set_fast_resources"]
        }
    }
}

fn world(semantics: Semantics, validation: Validation) -> (Fixture, Heap) {
    let f = Fixture::on(DeviceDesc {
        immediate_semantics: semantics,
        validation,
        // `reserve_chunks` of any count fills at most this (`Op::Chunks`).
        chunk_policy: ChunkPolicy {
            pool_limit: 1 << 20,
            ..ChunkPolicy::default()
        },
        ..DeviceDesc::default()
    });
    let heap = f
        .device
        .create_heap(&HeapDesc {
            name: "heap",
            size: 4096,
        })
        .expect("a heap");
    (f, heap)
}

/// Executes a finished list (or checks its refusal) and flushes.
fn execute(imm: &mut ImmediateContext, result: Result<CommandList, RecordError>) {
    match result {
        Ok(list) => {
            if let Err(error) = imm.execute_command_list(&list, RestoreState::ClearState) {
                check_refusal(&["execute_command_list"], &error.to_string());
            }
        }
        Err(error) => check_refusal(&[""], &error.to_string()),
    }
    if let Err(error) = imm.flush() {
        // A flush reports what the work it submitted found, each naming its own call.
        check_refusal(&[""], &error.to_string());
    }
}

fn cases() -> u32 {
    std::env::var("SIZE_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(128)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Extreme numbers at every creation and call, on a deferred and the immediate
    /// context of either semantics, validation off and on: no panic, no abort, every refusal
    /// names its call and cites its rule, the lists execute.
    #[test]
    fn r_rec_8_extreme_sizes_offsets_and_counts_are_refused_cleanly(
        legacy in any::<bool>(),
        validation in prop_oneof![Just(Validation::Off), Just(Validation::On)],
        ops in prop::collection::vec(op(), 1..24),
    ) {
        let semantics = if legacy { Semantics::Legacy } else { Semantics::Fast };
        let (f, heap) = world(semantics, validation);
        let mut imm = ImmediateContext::new(&f.device).expect("the immediate context");
        let mut deferred = f.context(semantics);
        let mut placed = None;
        for op in &ops {
            placed = create(&f, heap, op).or(placed);
            call(&f, placed, &mut deferred, op);
            call(&f, placed, &mut imm, op);
            // A list per call: a poisoned list (R-REC-8) hides no later call's refusal.
            execute(&mut imm, deferred.finish_command_list(RestoreState::ClearState));
        }
        execute(&mut imm, deferred.finish_command_list(RestoreState::ClearState));
    }
}

/// The property above is not vacuous: edges it draws are refused, and counted by its checks.
#[test]
fn misuse_sizes_checks_see_refusals() {
    let before = REFUSALS.load(Ordering::Relaxed);
    let (f, heap) = world(Semantics::Fast, Validation::On);
    let mut c = f.context(Semantics::Fast);
    let ops = [
        Op::Indirect {
            which: 1,
            offset: u32::MAX,
        },
        Op::Fence {
            offset: u64::MAX - 7,
            value: 0,
        },
    ];
    for op in &ops {
        call(&f, None, &mut c, op);
    }
    let texture = Op::Texture {
        dims: [1 << 31, 1 << 31, 1, 1, 1],
        bc: false,
        placed: Some(0),
    };
    assert_eq!(create(&f, heap, &texture), None);
    assert!(REFUSALS.load(Ordering::Relaxed) >= before + 3);
}

/// R-BAR-1 with R-BAR-8: a direct barrier call of 65,537 groups on a validated immediate
/// context used to number its last group 0 again and overflow the validation's group
/// arithmetic (a debug-build panic); it is refused whole at the call and runs nothing.
#[test]
fn r_bar_1_a_direct_barrier_past_65536_groups_runs_nothing() {
    let (f, _) = world(Semantics::Fast, Validation::On);
    let mut imm = ImmediateContext::new(&f.device).expect("the immediate context");
    let global = [GlobalBarrier {
        sync_before: BarrierSync::ALL,
        sync_after: BarrierSync::ALL,
        access_before: BarrierAccess::UNORDERED_ACCESS,
        access_after: BarrierAccess::UNORDERED_ACCESS,
    }];
    let groups = vec![BarrierGroup::Global(&global); (1 << 16) + 1];
    imm.barrier(&groups);
    let _ = imm.flush();
    let refusal = imm.last_refusal().expect("refused at the call");
    assert_eq!(refusal.kind(), ErrorKind::InvalidArgument, "{refusal}");
    assert_eq!(imm.counters().barriers, 0, "nothing ran");
}
