//! The device's side of `misuse_sizes.rs`: creations with extreme numbers (buffers, textures,
//! heaps, views, swap chains), draw bundles recorded with them, and deferred contexts whose
//! chunk policies take extreme sizes. Each refusal is checked as the property checks a call's.

use bundles::{BundleDesc, BundleRecorder};
use recorder::*;

use super::{check_refusal, created, Fixture, Op};

/// The device's part of `op`: a creation with its numbers. Returns a buffer placed in a heap
/// when it made one (later buffer barriers name it).
pub(crate) fn create(f: &Fixture, heap: Heap, op: &Op) -> Option<Buffer> {
    let device = &f.device;
    match *op {
        Op::Buffer { size, placed } => {
            let placement = placed.map(|offset| Placement { heap, offset });
            let desc = BufferDesc {
                name: "sized",
                size,
                bind: BindFlags::SHADER_RESOURCE,
                placement,
                ..BufferDesc::default()
            };
            let buffer = created("create_buffer", device.create_buffer(&desc))?;
            if let Some(r) = device.placed_range(buffer.into()) {
                assert!(r.1 <= r.2 && r.2 <= device.heap_size(heap).unwrap_or(0));
            }
            Some(buffer)
        }
        Op::Texture {
            dims: [width, height, mip_levels, array_size, sample_count],
            bc,
            placed,
        } => {
            let desc = TextureDesc {
                name: "sized",
                format: if bc {
                    Format::Bc1Unorm
                } else {
                    Format::R32G32B32A32Float
                },
                width,
                height,
                mip_levels,
                array_size,
                sample_count,
                placement: placed.map(|offset| Placement { heap, offset }),
                ..TextureDesc::default()
            };
            let texture = created("create_texture", device.create_texture(&desc))?;
            let info = device.texture_info(texture).expect("a live texture");
            assert!(info.byte_size() < 1 << 48, "{info:?}");
            if let Some((_, start, end)) = device.placed_range(texture.into()) {
                assert_eq!(end - start, info.byte_size());
            }
            device.release(texture);
            None
        }
        Op::Heap { size } => {
            let desc = HeapDesc {
                name: "sized",
                size,
            };
            if let Some(h) = created("create_heap", device.create_heap(&desc)) {
                device.release(h);
            }
            None
        }
        Op::View {
            first_mip,
            mips,
            first_slice,
            slices,
        } => {
            let range = SubresourceRange {
                first_mip,
                mip_count: mips,
                first_slice,
                slice_count: slices,
            };
            for resource in [Resource::from(f.rt), Resource::from(f.sb)] {
                let desc = ViewDesc {
                    range,
                    ..ViewDesc::new("sized", resource)
                };
                let call = "create_shader_resource_view";
                if let Some(view) = created(call, device.create_shader_resource_view(&desc)) {
                    device.release(view);
                }
            }
            None
        }
        Op::SwapChain {
            buffers,
            width,
            height,
        } => {
            let desc = SwapChainDesc {
                name: "sized",
                buffers: buffers.min(64),
                format: Format::R8G8B8A8Unorm,
                width,
                height,
            };
            if let Some(chain) = created("create_swap_chain", device.create_swap_chain(&desc)) {
                device.release(chain);
            }
            None
        }
        Op::Bundle {
            samples,
            start,
            len,
            slot,
            inherit,
            offset,
        } => {
            bundle(f, samples, start, len, [slot, inherit, offset]);
            None
        }
        Op::Chunks {
            size,
            max,
            pool,
            reserve,
        } => {
            chunks(f, size, max, pool, reserve);
            None
        }
        _ => None,
    }
}

/// One call on a bundle recorder.
type BundleCall<'a> = dyn Fn(&mut BundleRecorder) + 'a;

/// A draw bundle recorded with extreme numbers: its declaration's sample count, slot ranges,
/// inheritance remaps (R-B-…) and an indirect draw's offset; finished, its refusals checked.
fn bundle(f: &Fixture, samples: u32, start: u32, len: usize, [slot, inherit, offset]: [u32; 3]) {
    let formats = [Format::R8G8B8A8Unorm];
    let desc = BundleDesc {
        sample_count: samples,
        ..BundleDesc::new("sized", &formats)
    };
    let Some(mut b) = created("bundle", BundleRecorder::new(&f.device, &desc)) else {
        return;
    };
    let calls: [(&[&str], &BundleCall); 6] = [
        (&["remap"], &|b| {
            b.remap_constant_buffer_inheritance(Stage::Pixel, slot, Stage::Vertex, inherit)
        }),
        (&["remap"], &|b| {
            b.remap_shader_resource_inheritance(Stage::Pixel, slot, Stage::Pixel, inherit)
        }),
        (&["remap"], &|b| {
            b.remap_sampler_inheritance(Stage::Pixel, slot, Stage::Pixel, inherit)
        }),
        (&["remap"], &|b| {
            b.remap_vertex_buffer_inheritance(slot, inherit)
        }),
        (&["set_constant_buffers"], &|b| {
            b.set_constant_buffers(Stage::Pixel, start, &vec![Some(f.cb); len])
        }),
        (&["draw_instanced_indirect"], &|b| {
            b.draw_instanced_indirect(f.args, offset)
        }),
    ];
    for (names, call) in calls {
        let before = b.last_refusal().cloned();
        call(&mut b);
        let after = b.last_refusal().cloned();
        if let Some(error) = after.filter(|after| Some(after) != before.as_ref()) {
            check_refusal(names, &error.to_string());
        }
    }
    if let Err(error) = b.finish() {
        check_refusal(&[""], &error.to_string());
    }
}

/// A deferred context whose chunk policy (R-REC-4) takes extreme sizes, recording past a few
/// chunks; the device's reserve of extreme counts (capped by its pool's limit, small here).
fn chunks(f: &Fixture, size: usize, max: usize, pool: usize, reserve: usize) {
    let policy = ChunkPolicy {
        chunk_size: size,
        growth: GrowthPolicy::Doubling { max },
        pool_limit: pool,
    };
    let desc = DeferredContextDesc {
        name: "sized",
        semantics: Semantics::Fast,
        chunk_policy: Some(policy),
        ..DeferredContextDesc::default()
    };
    let call = "create_deferred_context";
    let Some(mut c) = created(call, f.device.create_deferred_context(&desc)) else {
        return;
    };
    for _ in 0..2000 {
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb); 16]);
        c.draw(3, 0);
    }
    let list = c
        .finish_command_list(RestoreState::ClearState)
        .unwrap_or_else(|error| panic!("a clean list: {error}"));
    assert_eq!(list.stats().draws, 2000);
    f.device.reserve_chunks(reserve);
}
