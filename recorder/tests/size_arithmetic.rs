//! Size arithmetic on what the application passes: every size, offset, count and index
//! the engine computes from a description or a call's arguments is checked, and a debug build
//! (overflow checks on) and a release build give the same refusal, a clear error naming the
//! object, the call and the rule; never a wrap, never a panic. Each test names the rule whose
//! arithmetic it pushes to its edge; `misuse_sizes.rs` (executor) throws extreme values at every
//! call at random.

mod common;

use common::*;
use recorder::*;

fn heap(device: &Device, name: &str, size: u64) -> Heap {
    device
        .create_heap(&HeapDesc { name, size })
        .unwrap_or_else(|e| panic!("create_heap {name}: {e}"))
}

/// R-BAR-7 (placed resources), R-OBJ-2 (texture sizes): a 2^31 x 2^31 texture placed in a 4 KB
/// heap is refused, naming the texture and the call; its byte size does not wrap to a number
/// that fits. A texture within D3D11's limits but larger than the heap is refused as not fitting,
/// with its exact size.
#[test]
fn r_bar_7_a_texture_too_large_for_any_heap_is_refused() {
    let device = Device::new(DeviceDesc::default());
    let h = heap(&device, "small", 4096);
    for (width, height, format) in [
        (1 << 31, 1 << 31, Format::R32G32B32A32Float),
        (u32::MAX, u32::MAX, Format::R32G32B32A32Float),
        (1 << 31, 1, Format::R8G8B8A8Unorm),
        (u32::MAX, 2, Format::Bc1Unorm),
    ] {
        let err = device
            .create_texture(&TextureDesc {
                name: "huge",
                format,
                width,
                height,
                mip_levels: 16,
                array_size: 2048,
                sample_count: 16,
                placement: Some(Placement { heap: h, offset: 0 }),
                ..TextureDesc::default()
            })
            .expect_err("a texture larger than any heap");
        assert_eq!(err.kind(), ErrorKind::InvalidArgument, "{err}");
        let text = err.to_string();
        assert!(
            text.starts_with("create_texture") && text.contains("texture 'huge'"),
            "{text}"
        );
        assert!(text.contains("R-OBJ-2"), "{text}");
    }
    // The largest texture D3D11 describes, placed at the end of the largest heap: its size is
    // exact (no saturation), and it does not fit.
    let largest = heap(&device, "largest", u64::MAX);
    let err = device
        .create_texture(&TextureDesc {
            name: "largest",
            format: Format::R32G32B32A32Float,
            width: 16384,
            height: 16384,
            mip_levels: 15,
            array_size: 2048,
            sample_count: 16,
            placement: Some(Placement {
                heap: largest,
                offset: u64::MAX - 4096,
            }),
            ..TextureDesc::default()
        })
        .expect_err("past the heap's end");
    let mips: u64 = (0..15).map(|m| (16384u64 >> m).pow(2)).sum();
    let size = mips * 16 * 16 * 2048;
    assert!(
        matches!(
            err,
            Error::InvalidDesc {
                call: "create_texture",
                problem: DescProblem::DoesNotFitHeap { size: s, .. },
                ..
            } if s == size
        ),
        "{err}"
    );
    assert_eq!(device.live_objects(ObjectKind::Texture), 0);
}

/// R-OBJ-2: `TextureInfo::byte_size` of any shape, even one no device creates (its fields are
/// public), is a number, never a panic: past `u64` it saturates at `u64::MAX`, which no heap
/// holds.
#[test]
fn r_obj_2_the_byte_size_of_any_texture_shape_saturates() {
    let device = Device::new(DeviceDesc::default());
    let t = device
        .create_texture(&TextureDesc {
            name: "t",
            ..TextureDesc::default()
        })
        .expect("create_texture");
    let info = device.texture_info(t).expect("texture_info");
    let huge = TextureInfo {
        format: Format::R32G32B32A32Float,
        width: u32::MAX,
        height: u32::MAX,
        mip_levels: u32::MAX,
        array_size: u32::MAX,
        sample_count: u32::MAX,
        ..info
    };
    assert_eq!(huge.byte_size(), u64::MAX);
    let zero = TextureInfo {
        width: 0,
        height: 0,
        mip_levels: 0,
        array_size: 0,
        sample_count: 0,
        ..info
    };
    assert_eq!(zero.byte_size(), 0, "no mip level, no bytes");
}

/// R-BAR-1: a barrier call's groups and the barriers of a group are numbered in 16 bits (the
/// group and index every R-BAR-8 message prints): a call of more than 65,536 groups, or a group
/// of more than 65,536 barriers, is refused whole (`invalid_argument`, naming the call), where
/// the index used to wrap in a release build and overflow in a debug one.
#[test]
fn r_bar_1_a_barrier_call_past_65536_groups_is_refused() {
    let f = Fixture::new();
    let global = [GlobalBarrier {
        sync_before: BarrierSync::ALL,
        sync_after: BarrierSync::ALL,
        access_before: BarrierAccess::UNORDERED_ACCESS,
        access_after: BarrierAccess::UNORDERED_ACCESS,
    }];
    let many_globals = vec![global[0]; (1 << 16) + 1];
    let too_many_groups = vec![BarrierGroup::Global(&global); (1 << 16) + 1];
    let at_the_limit = vec![BarrierGroup::Global(&global); 1 << 16];
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let mut c = f.context(semantics);
        c.barrier(&too_many_groups);
        let error = c
            .finish_command_list(RestoreState::ClearState)
            .expect_err("65,537 groups");
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
        let text = error.to_string();
        assert!(
            text.contains("barrier") && text.contains("65537") && text.contains("R-BAR-1"),
            "{text}"
        );

        let mut c = f.context(semantics);
        c.barrier(&[BarrierGroup::Global(&many_globals)]);
        let error = c
            .finish_command_list(RestoreState::ClearState)
            .expect_err("a group of 65,537 barriers");
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");

        let mut c = f.context(semantics);
        c.barrier(&at_the_limit);
        let list = finish(&mut c);
        let last = list
            .commands()
            .find_map(|d| match d.command {
                command::Command::Barrier { barriers } => barriers.last().copied(),
                _ => None,
            })
            .expect("the barrier command");
        assert_eq!((last.group, last.index), (u16::MAX, 0));
    }
}

/// R-REC-5 (indirect draws): the arguments an indirect call reads are D3D11's structures, 16
/// bytes for `draw_instanced_indirect`, 20 for `draw_indexed_instanced_indirect`, 12 for
/// `dispatch_indirect`; an offset whose arguments leave the buffer is refused, also at the
/// offsets where only 12 bytes fit, and `u32::MAX` is refused without wrapping.
#[test]
fn r_rec_5_indirect_arguments_must_lie_within_their_buffer() {
    let f = Fixture::new();
    type Indirect = fn(&mut DeferredContext, Buffer, u32);
    let calls: [(&str, Indirect, u32); 3] = [
        (
            "draw_instanced_indirect",
            |c, b, o| c.draw_instanced_indirect(b, o),
            16,
        ),
        (
            "draw_indexed_instanced_indirect",
            |c, b, o| c.draw_indexed_instanced_indirect(b, o),
            20,
        ),
        ("dispatch_indirect", |c, b, o| c.dispatch_indirect(b, o), 12),
    ];
    for (name, call, bytes) in calls {
        // `args` has 256 bytes: the last offset that fits is 256 - bytes.
        let mut c = f.fast();
        call(&mut c, f.args, 256 - bytes);
        assert_eq!(finish(&mut c).stats().draws, 1, "{name}");
        for offset in [256 - bytes + 4, 256 - 12 + 4, 256, u32::MAX - 3, u32::MAX] {
            if offset <= 256 - bytes {
                continue;
            }
            let mut c = f.fast();
            call(&mut c, f.args, offset);
            let refusal = c.last_refusal().cloned().expect("refused");
            assert_eq!(refusal.kind(), ErrorKind::InvalidArgument, "{refusal}");
            let text = refusal.to_string();
            assert!(
                text.starts_with(name) && text.contains(&format!("{bytes} bytes")),
                "{text}"
            );
            expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        }
    }
}

/// R-REC-5 (`copy_structure_count`): the count is one 4-byte word at a 4-aligned offset inside
/// the destination; past the end, unaligned, or at `u32::MAX`, the call is refused.
#[test]
fn r_rec_5_a_structure_count_lands_inside_its_buffer() {
    let f = Fixture::new();
    let mut c = f.legacy();
    c.copy_structure_count(f.copy_a, 252, f.append_uav);
    assert!(c.last_refusal().is_none(), "{:?}", c.last_refusal());
    finish(&mut c);
    for offset in [254, 256, 1 << 31, u32::MAX - 3, u32::MAX] {
        let mut c = f.legacy();
        c.copy_structure_count(f.copy_a, offset, f.append_uav);
        let refusal = c.last_refusal().cloned().expect("refused");
        assert_eq!(refusal.kind(), ErrorKind::InvalidArgument, "{refusal}");
        assert!(
            refusal.to_string().starts_with("copy_structure_count"),
            "{refusal}"
        );
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
    }
}

/// R-OBJ-2: a swap chain's back buffers are textures of D3D11's sizes; a chain past 16384
/// texels a side is refused naming `create_swap_chain`, the call the application made (not
/// the `create_texture` it does not call), and leaves no object behind.
#[test]
fn r_obj_2_a_swap_chain_past_16384_texels_is_refused_naming_its_call() {
    let device = Device::new(DeviceDesc::default());
    for (width, height) in [(16385, 1), (1, u32::MAX), (1 << 31, 1 << 31)] {
        let err = device
            .create_swap_chain(&SwapChainDesc {
                name: "huge",
                buffers: 2,
                format: Format::R8G8B8A8Unorm,
                width,
                height,
            })
            .expect_err("too large");
        assert!(
            matches!(
                err,
                Error::InvalidDesc {
                    call: "create_swap_chain",
                    problem: DescProblem::DimensionTooLarge { limit: 16384, .. },
                    ..
                }
            ),
            "{err}"
        );
    }
    for kind in [ObjectKind::SwapChain, ObjectKind::Texture] {
        assert_eq!(device.live_objects(kind), 0, "{kind:?}");
    }
}

/// R-REC-4: `reserve_chunks` of any count puts at most the pool's limit in the pool (the
/// pool keeps no more), where `usize::MAX` used to allocate until the process died.
#[test]
fn r_rec_4_reserving_any_number_of_chunks_stops_at_the_pool_limit() {
    let device = Device::new(DeviceDesc {
        chunk_policy: ChunkPolicy {
            pool_limit: 1 << 20,
            ..ChunkPolicy::default()
        },
        ..DeviceDesc::default()
    });
    device.reserve_chunks(usize::MAX);
    let stats = device.pool_stats();
    assert_eq!(stats.free_bytes, 1 << 20, "{stats:?}");
    assert_eq!(
        stats.free_chunks,
        (1 << 20) / limits::DEFAULT_CHUNK_SIZE as u64
    );
}
