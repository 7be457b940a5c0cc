//! Requirement tests for SPEC §2, objects and lifetimes (R-OBJ-1 .. R-OBJ-5).

mod common;

use std::collections::HashSet;

use common::*;
use proptest::prelude::*;
use recorder::command::Command;
use recorder::limits::*;
use recorder::*;

fn assert_send_sync<T: Send + Sync>() {}
fn assert_copy<T: Copy>() {}

// ----- R-OBJ-1 ---------------------------------------------------------------------------------

#[test]
fn r_obj_1_device_is_send_sync_and_its_clones_share_the_objects() {
    assert_send_sync::<Device>();
    let device = Device::new(DeviceDesc::default());
    let clone = device.clone();
    let buffer = clone
        .create_buffer(&BufferDesc {
            name: "shared",
            size: 16,
            bind: BindFlags::VERTEX,
            ..Default::default()
        })
        .unwrap();
    assert!(device.is_alive(buffer));
    assert_eq!(device.name_of(buffer).as_deref(), Some("shared"));
    device.release(buffer);
    assert!(!clone.is_alive(buffer));
}

#[test]
fn r_obj_1_device_creates_every_kind_of_object() {
    let f = Fixture::new();
    let d = &f.device;
    // Counted from the fixture: 17 buffers, 6 textures + 2 back buffers, 7 SRVs, 5 UAVs,
    // 2 RTVs + 2 back-buffer RTVs, 2 DSVs, 3 shaders, one of each state, 2 queries, 1 swap chain.
    let kinds = [
        (ObjectKind::Buffer, 17),
        (ObjectKind::Texture, 8),
        (ObjectKind::ShaderResourceView, 7),
        (ObjectKind::UnorderedAccessView, 5),
        (ObjectKind::RenderTargetView, 4),
        (ObjectKind::DepthStencilView, 2),
        (ObjectKind::Shader, 3),
        (ObjectKind::InputLayout, 1),
        (ObjectKind::BlendState, 1),
        (ObjectKind::RasterizerState, 1),
        (ObjectKind::DepthStencilState, 1),
        (ObjectKind::SamplerState, 1),
        (ObjectKind::Query, 2),
        (ObjectKind::SwapChain, 1),
    ];
    for (kind, expected) in kinds {
        assert_eq!(d.live_objects(kind), expected, "{kind:?}");
    }
    for (name, refs) in f.references() {
        assert!(refs.is_some(), "{name} exists");
    }
    assert!(d.is_alive(f.vb) && d.is_alive(f.rt) && d.is_alive(f.rt_srv) && d.is_alive(f.rt_uav));
    assert!(
        d.is_alive(f.rt_rtv) && d.is_alive(f.ds_dsv) && d.is_alive(f.vs) && d.is_alive(f.layout)
    );
    assert!(d.is_alive(f.blend) && d.is_alive(f.raster) && d.is_alive(f.dss));
    assert!(d.is_alive(f.sampler) && d.is_alive(f.predicate) && d.is_alive(f.chain));
    // A shader of every stage.
    for stage in Stage::ALL {
        let shader = d.create_shader(&ShaderDesc::new("s", stage)).unwrap();
        assert_eq!(d.shader_info(shader).unwrap().stage, stage);
    }
    // Deferred contexts of both semantics.
    let legacy = f.legacy();
    let fast = f.fast();
    assert_eq!(legacy.semantics(), Semantics::Legacy);
    assert_eq!(fast.semantics(), Semantics::Fast);
    assert_eq!(d.live_deferred_contexts(), 2);
    drop(legacy);
    assert_eq!(d.live_deferred_contexts(), 1);
}

#[test]
fn r_obj_1_device_creates_objects_from_many_threads_at_once() {
    let device = Device::new(DeviceDesc::default());
    let handles: Vec<Vec<Buffer>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|t| {
                let device = device.clone();
                scope.spawn(move || {
                    (0..64)
                        .map(|i| {
                            device
                                .create_buffer(&BufferDesc {
                                    name: &format!("b{t}.{i}"),
                                    size: 16 + i,
                                    bind: BindFlags::CONSTANT,
                                    ..Default::default()
                                })
                                .unwrap()
                        })
                        .collect()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let all: HashSet<Buffer> = handles.iter().flatten().copied().collect();
    assert_eq!(all.len(), 8 * 64, "every creation got its own handle");
    assert_eq!(device.live_objects(ObjectKind::Buffer), 8 * 64);
    for (t, buffers) in handles.iter().enumerate() {
        for (i, buffer) in buffers.iter().enumerate() {
            assert_eq!(device.buffer_info(*buffer).unwrap().size, 16 + i as u32);
            assert_eq!(
                device.name_of(*buffer).as_deref(),
                Some(format!("b{t}.{i}").as_str())
            );
        }
    }
}

// ----- R-OBJ-2 ---------------------------------------------------------------------------------

#[test]
fn r_obj_2_buffer_properties_round_trip() {
    let device = Device::new(DeviceDesc::default());
    let binds = [
        BindFlags::VERTEX,
        BindFlags::INDEX,
        BindFlags::CONSTANT,
        BindFlags::SHADER_RESOURCE,
        BindFlags::UNORDERED_ACCESS,
        BindFlags::STREAM_OUTPUT,
        BindFlags::VERTEX | BindFlags::INDEX | BindFlags::STREAM_OUTPUT,
    ];
    for usage in [
        Usage::Default,
        Usage::Immutable,
        Usage::Dynamic,
        Usage::Staging,
    ] {
        for (i, bind) in binds.iter().enumerate() {
            let size = 64 * (i as u32 + 1) + 4;
            let buffer = device
                .create_buffer(&BufferDesc {
                    name: "b",
                    size,
                    usage,
                    bind: *bind,
                    uav_flag: UavFlag::None,
                    placement: None,
                })
                .unwrap();
            assert_eq!(
                device.buffer_info(buffer),
                Some(BufferInfo {
                    size,
                    usage,
                    bind: *bind,
                    uav_flag: UavFlag::None
                })
            );
        }
    }
    for flag in [UavFlag::Append, UavFlag::Counter] {
        let buffer = device
            .create_buffer(&BufferDesc {
                name: "uav",
                size: 128,
                usage: Usage::Default,
                bind: BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE,
                uav_flag: flag,
                placement: None,
            })
            .unwrap();
        assert_eq!(device.buffer_info(buffer).unwrap().uav_flag, flag);
    }
}

#[test]
fn r_obj_2_buffer_creation_refuses_bad_descriptions() {
    let device = Device::new(DeviceDesc::default());
    let bad = [
        BufferDesc {
            name: "empty",
            size: 0,
            bind: BindFlags::VERTEX,
            ..Default::default()
        },
        BufferDesc {
            name: "append without uav",
            size: 16,
            bind: BindFlags::SHADER_RESOURCE,
            uav_flag: UavFlag::Append,
            ..Default::default()
        },
        BufferDesc {
            name: "render target buffer",
            size: 16,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        },
        BufferDesc {
            name: "depth buffer",
            size: 16,
            bind: BindFlags::DEPTH_STENCIL,
            ..Default::default()
        },
    ];
    for desc in bad {
        let error = device.create_buffer(&desc).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{}", desc.name);
        let named = format!("buffer '{}'", desc.name);
        assert!(
            matches!(error, Error::InvalidDesc { call: "create_buffer", ref object, .. } if *object == named),
            "{}: {error}",
            desc.name
        );
    }
    assert_eq!(device.live_objects(ObjectKind::Buffer), 0);
}

#[test]
fn r_obj_2_texture_properties_round_trip_with_compressible_defaults() {
    let device = Device::new(DeviceDesc::default());
    let cases = [
        // (bind, compressible asked, compressible expected)
        (BindFlags::SHADER_RESOURCE, None, false),
        (
            BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            None,
            true,
        ),
        (
            BindFlags::DEPTH_STENCIL | BindFlags::SHADER_RESOURCE,
            None,
            true,
        ),
        (BindFlags::RENDER_TARGET, Some(false), false),
        (BindFlags::DEPTH_STENCIL, Some(false), false),
        (
            BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE,
            None,
            false,
        ),
    ];
    for (i, (bind, asked, expected)) in cases.into_iter().enumerate() {
        let desc = TextureDesc {
            name: "t",
            format: if bind.contains(BindFlags::DEPTH_STENCIL) {
                Format::D24UnormS8Uint
            } else {
                Format::R16G16B16A16Float
            },
            width: 100 + i as u32,
            height: 50 + i as u32,
            mip_levels: 1 + i as u32,
            array_size: 2 + i as u32,
            sample_count: [1, 2, 4, 8, 16, 1][i],
            bind,
            compressible: asked,
            texture_compatible: i % 2 == 1,
            dcc: i % 3 == 1,
            placement: None,
        };
        let texture = device.create_texture(&desc).unwrap();
        let info = device.texture_info(texture).unwrap();
        assert_eq!(info.format, desc.format);
        assert_eq!((info.width, info.height), (desc.width, desc.height));
        assert_eq!(info.mip_levels, desc.mip_levels);
        assert_eq!(info.array_size, desc.array_size);
        assert_eq!(info.sample_count, desc.sample_count);
        assert_eq!(info.bind, bind);
        assert_eq!(info.compressible, expected, "case {i}");
        assert_eq!(info.texture_compatible, desc.texture_compatible);
        assert_eq!(info.dcc, desc.dcc);
        assert_eq!(info.back_buffer, None);
    }
}

#[test]
fn r_obj_2_texture_creation_refuses_bad_descriptions() {
    let device = Device::new(DeviceDesc::default());
    let good = TextureDesc {
        name: "t",
        width: 8,
        height: 8,
        ..Default::default()
    };
    let bad = [
        TextureDesc { width: 0, ..good },
        TextureDesc { height: 0, ..good },
        TextureDesc {
            mip_levels: 0,
            ..good
        },
        TextureDesc {
            mip_levels: 17,
            ..good
        },
        TextureDesc {
            array_size: 0,
            ..good
        },
        TextureDesc {
            sample_count: 3,
            ..good
        },
        TextureDesc {
            bind: BindFlags::VERTEX,
            ..good
        },
        TextureDesc {
            bind: BindFlags::CONSTANT | BindFlags::SHADER_RESOURCE,
            ..good
        },
    ];
    for (i, desc) in bad.iter().enumerate() {
        let error = device.create_texture(desc).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "case {i}");
        assert!(
            matches!(
                error,
                Error::InvalidDesc {
                    call: "create_texture",
                    ..
                }
            ),
            "case {i}: {error}"
        );
    }
    assert!(device.create_texture(&good).is_ok());
}

#[test]
fn r_obj_2_views_keep_their_resource_format_and_subresource_range() {
    let f = Fixture::new();
    let d = &f.device;
    let texture = d
        .create_texture(&TextureDesc {
            name: "mipped",
            format: Format::R32Typeless,
            width: 64,
            height: 64,
            mip_levels: 6,
            array_size: 4,
            bind: BindFlags::SHADER_RESOURCE
                | BindFlags::RENDER_TARGET
                | BindFlags::UNORDERED_ACCESS,
            ..Default::default()
        })
        .unwrap();
    let range = SubresourceRange {
        first_mip: 2,
        mip_count: 3,
        first_slice: 1,
        slice_count: 2,
    };
    let srv = d
        .create_shader_resource_view(&ViewDesc {
            format: Format::R32Float,
            range,
            ..ViewDesc::new("srv", texture)
        })
        .unwrap();
    let info = d.view_info(srv).unwrap();
    assert_eq!(info.resource, Resource::Texture(texture));
    assert_eq!(info.format, Format::R32Float);
    assert_eq!(
        (
            info.first_mip,
            info.mip_count,
            info.first_slice,
            info.slice_count
        ),
        (2, 3, 1, 2)
    );
    // Unknown format takes the resource's.
    let rtv = d
        .create_render_target_view(&ViewDesc::new("rtv", texture))
        .unwrap();
    assert_eq!(d.view_info(rtv).unwrap().format, Format::R32Typeless);
    let uav = d
        .create_unordered_access_view(&ViewDesc::new("uav", f.sb))
        .unwrap();
    assert_eq!(d.view_info(uav).unwrap().resource, Resource::Buffer(f.sb));
    let dsv_info = d.view_info(f.ds_dsv).unwrap();
    assert_eq!(dsv_info.resource, Resource::Texture(f.ds));
    assert_eq!(dsv_info.format, Format::D32Float);
}

#[test]
fn r_obj_2_srv_min_lod_starts_from_the_resource_or_the_description() {
    let f = Fixture::new();
    let d = &f.device;
    let mut context = f.legacy();
    context.set_resource_min_lod(f.tex, 1.5);
    assert_eq!(d.resource_min_lod(f.tex), Some(1.5));
    let inherited = d
        .create_shader_resource_view(&ViewDesc::new("inherited", f.tex))
        .unwrap();
    assert_eq!(d.shader_resource_view_min_lod(inherited), Some(1.5));
    let explicit = d
        .create_shader_resource_view(&ViewDesc {
            min_lod: Some(3.0),
            ..ViewDesc::new("explicit", f.tex)
        })
        .unwrap();
    assert_eq!(d.shader_resource_view_min_lod(explicit), Some(3.0));
    // A view created before the change keeps its own value.
    assert_eq!(d.shader_resource_view_min_lod(f.tex_srv), Some(0.0));
    finish(&mut context);
}

#[test]
fn r_obj_2_views_need_the_matching_bind_flag() {
    let f = Fixture::new();
    let d = &f.device;
    let srv_of = |resource: Resource| d.create_shader_resource_view(&ViewDesc::new("v", resource));
    let cases: Vec<(&str, Result<(), Error>)> = vec![
        ("srv of a vertex buffer", srv_of(f.vb.into()).map(|_| ())),
        (
            "uav of a plain texture",
            d.create_unordered_access_view(&ViewDesc::new("v", f.tex))
                .map(|_| ()),
        ),
        (
            "rtv of a plain texture",
            d.create_render_target_view(&ViewDesc::new("v", f.tex))
                .map(|_| ()),
        ),
        (
            "dsv of a render target",
            d.create_depth_stencil_view(&ViewDesc::new("v", f.rt))
                .map(|_| ()),
        ),
        (
            "rtv of a buffer",
            d.create_render_target_view(&ViewDesc::new("v", f.sb))
                .map(|_| ()),
        ),
        (
            "dsv of a buffer",
            d.create_depth_stencil_view(&ViewDesc::new("v", f.sb))
                .map(|_| ()),
        ),
        (
            "first mip past the resource's mips",
            d.create_shader_resource_view(&ViewDesc {
                range: SubresourceRange {
                    first_mip: 1,
                    ..SubresourceRange::ALL
                },
                ..ViewDesc::new("v", f.tex)
            })
            .map(|_| ()),
        ),
    ];
    let before = f.references();
    for (name, result) in cases {
        assert_eq!(
            result.map_err(|e| e.kind()),
            Err(ErrorKind::InvalidArgument),
            "{name}"
        );
    }
    assert_eq!(f.references(), before, "a refused view holds nothing");
}

#[test]
fn r_obj_2_views_refuse_a_subresource_range_outside_the_resource() {
    let f = Fixture::new();
    let d = &f.device;
    let texture = d
        .create_texture(&TextureDesc {
            name: "mips4_slices2",
            width: 16,
            height: 16,
            mip_levels: 4,
            array_size: 2,
            ..Default::default()
        })
        .unwrap();
    let view = |first_mip, mip_count, first_slice, slice_count| {
        d.create_shader_resource_view(&ViewDesc {
            range: SubresourceRange {
                first_mip,
                mip_count,
                first_slice,
                slice_count,
            },
            ..ViewDesc::new("v", texture)
        })
        .map(|_| ())
        .map_err(|e| e.kind())
    };
    let all = u32::MAX;
    // Inside: accepted.
    assert_eq!(view(0, all, 0, all), Ok(()));
    assert_eq!(view(3, 1, 1, 1), Ok(()));
    assert_eq!(view(1, 3, 0, 2), Ok(()));
    // Outside: refused.
    let refused = [
        ("first mip past the mips", view(4, all, 0, all)),
        ("mips running past the last", view(2, 3, 0, all)),
        ("first slice past the array", view(0, all, 2, all)),
        ("slices running past the last", view(0, all, 1, 2)),
    ];
    let accepted: Vec<_> = refused
        .iter()
        .filter(|(_, result)| *result != Err(ErrorKind::InvalidArgument))
        .map(|(name, result)| format!("{name}: {result:?}"))
        .collect();
    assert!(
        accepted.is_empty(),
        "not refused as invalid_argument: {accepted:?}"
    );
}

#[test]
fn r_obj_2_a_swap_chain_of_0_or_9_back_buffers_is_refused_naming_it_and_the_rule() {
    let d = Device::new(DeviceDesc::default());
    for buffers in [0, MAX_BACK_BUFFERS + 1] {
        let error = d
            .create_swap_chain(&SwapChainDesc {
                name: "main_window",
                buffers,
                format: Format::R8G8B8A8Unorm,
                width: 64,
                height: 64,
            })
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        assert!(
            matches!(
                error,
                Error::InvalidDesc {
                    call: "create_swap_chain",
                    problem: DescProblem::BackBufferCount { given, limit: MAX_BACK_BUFFERS },
                    ..
                } if given == buffers
            ),
            "{error}"
        );
        // The message names the call, the swap chain and the rule (R-REC-8).
        let message = error.to_string();
        assert!(message.contains("create_swap_chain"), "{message}");
        assert!(message.contains("swap chain 'main_window'"), "{message}");
        assert!(message.contains("R-OBJ-2"), "{message}");
        assert!(message.contains(&format!("not {buffers}")), "{message}");
    }
}

#[test]
fn r_obj_2_a_swap_chain_that_cannot_be_created_leaves_nothing_behind() {
    let d = Device::new(DeviceDesc::default());
    for (width, height) in [(0, 8), (8, 0)] {
        let result = d.create_swap_chain(&SwapChainDesc {
            name: "bad",
            buffers: 3,
            format: Format::R8G8B8A8Unorm,
            width,
            height,
        });
        assert_eq!(
            result.map_err(|e| e.kind()),
            Err(ErrorKind::InvalidArgument)
        );
    }
    for kind in [
        ObjectKind::SwapChain,
        ObjectKind::Texture,
        ObjectKind::RenderTargetView,
    ] {
        assert_eq!(d.live_objects(kind), 0, "{kind:?}");
    }
    // Releasing a good one takes its back buffers and their views with it.
    let chain = d
        .create_swap_chain(&SwapChainDesc {
            name: "good",
            buffers: 3,
            format: Format::R8G8B8A8Unorm,
            width: 8,
            height: 8,
        })
        .unwrap();
    assert_eq!(d.live_objects(ObjectKind::Texture), 3);
    d.release(chain);
    assert_eq!(d.process_deferred_releases(), 0);
    for kind in [
        ObjectKind::SwapChain,
        ObjectKind::Texture,
        ObjectKind::RenderTargetView,
    ] {
        assert_eq!(d.live_objects(kind), 0, "{kind:?} after release");
    }
}

#[test]
fn r_obj_2_shaders_keep_their_stage_slots_and_stream_output() {
    let d = Device::new(DeviceDesc::default());
    let desc = ShaderDesc {
        constant_buffers: Slots::of(&[0, 15]),
        shader_resources: Slots::of(&[3, 127]),
        samplers: Slots::of(&[15]),
        unordered_access_views: Slots::of(&[0, 63]),
        stream_output: false,
        ..ShaderDesc::new("cs", Stage::Compute)
    };
    let cs = d.create_shader(&desc).unwrap();
    assert_eq!(
        d.shader_info(cs),
        Some(ShaderInfo {
            stage: Stage::Compute,
            constant_buffers: desc.constant_buffers,
            shader_resources: desc.shader_resources,
            samplers: desc.samplers,
            unordered_access_views: desc.unordered_access_views,
            stream_output: false,
        })
    );
    for stage in [Stage::Vertex, Stage::Domain, Stage::Geometry] {
        let shader = d
            .create_shader(&ShaderDesc {
                stream_output: true,
                ..ShaderDesc::new("so", stage)
            })
            .unwrap();
        assert!(d.shader_info(shader).unwrap().stream_output);
    }
    let ps = d
        .create_shader(&ShaderDesc {
            unordered_access_views: Slots::of(&[7]),
            ..ShaderDesc::new("ps", Stage::Pixel)
        })
        .unwrap();
    assert_eq!(
        d.shader_info(ps).unwrap().unordered_access_views,
        Slots::of(&[7])
    );
}

#[test]
fn r_obj_2_shader_creation_refuses_bad_uav_slots_and_stream_output_stages() {
    let d = Device::new(DeviceDesc::default());
    let bad = [
        ShaderDesc {
            unordered_access_views: Slots::of(&[GRAPHICS_UAV_SLOTS]),
            ..ShaderDesc::new("ps", Stage::Pixel)
        },
        ShaderDesc {
            stream_output: true,
            ..ShaderDesc::new("ps", Stage::Pixel)
        },
        ShaderDesc {
            stream_output: true,
            ..ShaderDesc::new("cs", Stage::Compute)
        },
        ShaderDesc {
            stream_output: true,
            ..ShaderDesc::new("hs", Stage::Hull)
        },
    ];
    for desc in bad {
        assert_eq!(
            d.create_shader(&desc).map_err(|e| e.kind()),
            Err(ErrorKind::InvalidArgument),
            "{desc:?}"
        );
    }
}

#[test]
fn r_obj_2_input_layouts_states_and_queries() {
    let d = Device::new(DeviceDesc::default());
    let layout = d
        .create_input_layout(&InputLayoutDesc {
            name: "layout",
            vertex_buffers: Slots::of(&[0, 2]),
        })
        .unwrap();
    assert_eq!(d.name_of(layout).as_deref(), Some("layout"));
    assert!(d.is_alive(d.create_blend_state("b").unwrap()));
    assert!(d.is_alive(d.create_rasterizer_state("r").unwrap()));
    assert!(d.is_alive(d.create_depth_stencil_state("ds").unwrap()));
    assert!(d.is_alive(d.create_sampler_state("s").unwrap()));
    for kind in [
        QueryKind::Occlusion,
        QueryKind::Predicate,
        QueryKind::Timestamp,
        QueryKind::PipelineStatistics,
    ] {
        let query = d.create_query("q", kind).unwrap();
        assert_eq!(d.query_kind(query), Some(kind));
    }
}

#[test]
fn r_obj_2_swap_chains_have_n_back_buffers_with_render_target_views() {
    let d = Device::new(DeviceDesc::default());
    for n in 1..=MAX_BACK_BUFFERS {
        let chain = d
            .create_swap_chain(&SwapChainDesc {
                name: "sc",
                buffers: n,
                format: Format::R10G10B10A2Unorm,
                width: 320,
                height: 200,
            })
            .unwrap();
        let info = d.swap_chain_info(chain).unwrap();
        assert_eq!(info.buffers.len(), n as usize);
        assert_eq!(info.format, Format::R10G10B10A2Unorm);
        assert_eq!((info.width, info.height), (320, 200));
        for (i, (texture, rtv)) in info.buffers.iter().enumerate() {
            let t = d.texture_info(*texture).unwrap();
            assert_eq!(t.back_buffer, Some((chain, i as u32)));
            assert_eq!((t.width, t.height, t.format), (320, 200, info.format));
            assert!(t.bind.contains(BindFlags::RENDER_TARGET));
            assert_eq!(
                d.name_of(*texture).as_deref(),
                Some(format!("sc.{i}").as_str())
            );
            assert_eq!(
                d.name_of(*rtv).as_deref(),
                Some(format!("sc.{i}.rtv").as_str())
            );
            assert_eq!(
                d.view_info(*rtv).unwrap().resource,
                Resource::Texture(*texture)
            );
        }
    }
    for n in [0, MAX_BACK_BUFFERS + 1] {
        let result = d.create_swap_chain(&SwapChainDesc {
            name: "bad",
            buffers: n,
            format: Format::R8G8B8A8Unorm,
            width: 8,
            height: 8,
        });
        assert_eq!(
            result.map_err(|e| e.kind()),
            Err(ErrorKind::InvalidArgument)
        );
    }
}

// ----- R-OBJ-3 ---------------------------------------------------------------------------------

#[test]
fn r_obj_3_handles_are_copy_values_of_index_and_generation() {
    assert_copy::<Buffer>();
    assert_copy::<Texture>();
    assert_copy::<ShaderResourceView>();
    assert_copy::<UnorderedAccessView>();
    assert_copy::<RenderTargetView>();
    assert_copy::<DepthStencilView>();
    assert_copy::<Shader>();
    assert_copy::<InputLayout>();
    assert_copy::<BlendState>();
    assert_copy::<RasterizerState>();
    assert_copy::<DepthStencilState>();
    assert_copy::<SamplerState>();
    assert_copy::<Query>();
    assert_copy::<SwapChain>();
    assert_copy::<Resource>();
    assert_eq!(std::mem::size_of::<Buffer>(), 8);

    let d = Device::new(DeviceDesc::default());
    let desc = BufferDesc {
        name: "b",
        size: 16,
        bind: BindFlags::VERTEX,
        ..Default::default()
    };
    let first = d.create_buffer(&desc).unwrap();
    let copy = first;
    assert_eq!(copy, first);
    d.release(first);
    assert!(!d.is_alive(copy));
    let second = d.create_buffer(&desc).unwrap();
    assert_eq!(
        second.raw().index(),
        first.raw().index(),
        "the slot is reused"
    );
    assert_ne!(second.raw().generation(), first.raw().generation());
    assert_ne!(second, first);
    assert!(d.is_alive(second));
    assert!(!d.is_alive(first));
    assert_eq!(d.references(first), None);
    assert_eq!(d.buffer_info(first), None);
}

#[test]
fn r_obj_3_release_never_fails_twice_or_on_stale_handles() {
    let f = Fixture::new();
    let d = &f.device;
    d.release(f.vb);
    d.release(f.vb);
    let reuse = d
        .create_buffer(&BufferDesc {
            name: "reuse",
            size: 16,
            bind: BindFlags::VERTEX,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(reuse.raw().index(), f.vb.raw().index());
    // Releasing the stale handle again must not touch the object that reuses the slot.
    d.release(f.vb);
    assert!(d.is_alive(reuse));
    // A texture with views: its release is deferred; releasing again changes nothing.
    d.release(f.rt);
    d.release(f.rt);
    assert!(!d.is_alive(f.rt));
    assert_eq!(d.references(f.rt), Some(3), "its three views still hold it");
    // Views released after their resource.
    d.release(f.rt_rtv);
    d.release(f.rt_srv);
    d.release(f.rt_uav);
    d.release(f.rt_uav);
    assert_eq!(d.references(f.rt), Some(0));
    assert_eq!(d.process_deferred_releases(), 1);
    assert_eq!(d.references(f.rt), None);
    d.release(f.rt);
    assert_eq!(d.process_deferred_releases(), 0);
}

type Case = (&'static str, fn(&Fixture, &mut DeferredContext));

/// Calls that each release an object and then use it.
fn released_object_cases() -> Vec<Case> {
    vec![
        ("set_vertex_buffers", |f, c| {
            f.device.release(f.vb);
            c.set_vertex_buffers(0, &[vertex(f.vb)]);
        }),
        ("set_index_buffer", |f, c| {
            f.device.release(f.ib);
            c.set_index_buffer(Some(f.ib), Format::R16Uint, 0);
        }),
        ("set_constant_buffers", |f, c| {
            f.device.release(f.cb);
            c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]);
        }),
        ("set_shader_resources", |f, c| {
            f.device.release(f.tex_srv);
            c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv)]);
        }),
        ("set_samplers", |f, c| {
            f.device.release(f.sampler);
            c.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]);
        }),
        ("set_shader", |f, c| {
            f.device.release(f.vs);
            c.set_shader(Stage::Vertex, Some(f.vs));
        }),
        ("set_input_layout", |f, c| {
            f.device.release(f.layout);
            c.set_input_layout(Some(f.layout));
        }),
        ("set_render_targets rtv", |f, c| {
            f.device.release(f.rt_plain_rtv);
            c.set_render_targets(&[Some(f.rt_plain_rtv)], None);
        }),
        ("set_render_targets dsv", |f, c| {
            f.device.release(f.ds_dsv);
            c.set_render_targets(&[Some(f.rt_plain_rtv)], Some(f.ds_dsv));
        }),
        ("set_render_targets_and_unordered_access_views", |f, c| {
            f.device.release(f.sb_uav);
            c.set_render_targets_and_unordered_access_views(
                &[Some(f.rt_plain_rtv)],
                None,
                1,
                &[Some(f.sb_uav)],
            );
        }),
        ("set_compute_unordered_access_views", |f, c| {
            f.device.release(f.sb_uav);
            c.set_compute_unordered_access_views(0, &[Some(f.sb_uav)]);
        }),
        ("set_blend_state", |f, c| {
            f.device.release(f.blend);
            c.set_blend_state(Some(f.blend), [1.0; 4], u32::MAX);
        }),
        ("set_depth_stencil_state", |f, c| {
            f.device.release(f.dss);
            c.set_depth_stencil_state(Some(f.dss), 0);
        }),
        ("set_rasterizer_state", |f, c| {
            f.device.release(f.raster);
            c.set_rasterizer_state(Some(f.raster));
        }),
        ("set_predication", |f, c| {
            f.device.release(f.predicate);
            c.set_predication(Some(f.predicate), PredicateValue::True);
        }),
        ("begin_query", |f, c| {
            f.device.release(f.occlusion);
            c.begin_query(f.occlusion);
        }),
        ("end_query", |f, c| {
            f.device.release(f.occlusion);
            c.end_query(f.occlusion);
        }),
        ("write_query", |f, c| {
            f.device.release(f.occlusion);
            c.write_query(f.occlusion);
        }),
        ("reset_query", |f, c| {
            f.device.release(f.occlusion);
            c.reset_query(f.occlusion);
        }),
        ("configure_query", |f, c| {
            f.device.release(f.occlusion);
            c.configure_query(f.occlusion, QueryMode::Binary);
        }),
        ("set_predication_from_query", |f, c| {
            f.device.release(f.occlusion);
            c.set_predication_from_query(Some(f.occlusion), PredicateValue::True);
        }),
        ("clear_render_target_view", |f, c| {
            f.device.release(f.rt_rtv);
            c.clear_render_target_view(f.rt_rtv, [0.0; 4]);
        }),
        ("clear_depth_stencil_view", |f, c| {
            f.device.release(f.ds_dsv);
            c.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.0, 0);
        }),
        ("copy_resource destination", |f, c| {
            f.device.release(f.copy_a);
            c.copy_resource(f.copy_a, f.copy_b);
        }),
        ("copy_resource source", |f, c| {
            f.device.release(f.copy_b);
            c.copy_resource(f.copy_a, f.copy_b);
        }),
        ("copy_resource texture", |f, c| {
            f.device.release(f.tex2);
            c.copy_resource(f.tex, f.tex2);
        }),
        ("copy_buffer_region source", |f, c| {
            f.device.release(f.copy_b);
            c.copy_buffer_region(f.copy_a, 0, f.copy_b, 0, 16);
        }),
        ("copy_texture_region destination", |f, c| {
            f.device.release(f.tex2);
            let quarter = CopyBox {
                left: 0,
                top: 0,
                right: 32,
                bottom: 32,
            };
            c.copy_texture_region(f.tex2, 0, 0, 0, f.tex, 0, quarter);
        }),
        // `map` reports its refusal without poisoning the list (R-REC-8): see
        // `r_rec_8_a_map_of_a_released_buffer_is_released_object` in r_rec_maps.rs.
        ("draw_instanced_indirect", |f, c| {
            f.device.release(f.args);
            c.draw_instanced_indirect(f.args, 0);
        }),
        ("draw_indexed_instanced_indirect", |f, c| {
            f.device.release(f.args);
            c.draw_indexed_instanced_indirect(f.args, 0);
        }),
        ("dispatch_indirect", |f, c| {
            f.device.release(f.args);
            c.dispatch_indirect(f.args, 0);
        }),
        ("decompress_resource", |f, c| {
            f.device.release(f.rt);
            c.decompress_resource(f.rt, None);
        }),
        ("decompress_resource into", |f, c| {
            f.device.release(f.rt_plain);
            c.decompress_resource(f.rt, Some(f.rt_plain));
        }),
        ("set_resource_compression", |f, c| {
            f.device.release(f.ds);
            c.set_resource_compression(f.ds, Compression::Decompressed);
        }),
        ("set_resource_min_lod", |f, c| {
            f.device.release(f.tex);
            c.set_resource_min_lod(f.tex, 1.0);
        }),
        ("set_shader_resource_view_min_lod", |f, c| {
            f.device.release(f.tex_srv);
            c.set_shader_resource_view_min_lod(f.tex_srv, 1.0);
        }),
        ("insert_wait_on_present", |f, c| {
            f.device.release(f.chain);
            c.insert_wait_on_present(f.chain);
        }),
        ("write_value_bottom_of_pipe", |f, c| {
            f.device.release(f.args);
            c.write_value_bottom_of_pipe(f.args, 0, 1);
        }),
        ("insert_wait_on_memory", |f, c| {
            f.device.release(f.args);
            c.insert_wait_on_memory(f.args, 0, 1);
        }),
        ("read_gds", |f, c| {
            f.device.release(f.args);
            c.read_gds(0, 1, f.args, 0);
        }),
        ("load_constant_ram", |f, c| {
            f.device.release(f.args);
            c.load_constant_ram(f.args, 0, 0, 4);
        }),
        ("store_constant_ram", |f, c| {
            f.device.release(f.args);
            c.store_constant_ram(f.args, 0, 0, 4);
        }),
    ]
}

#[test]
fn r_obj_3_every_use_of_a_released_object_is_reported_as_released_object() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for (name, case) in released_object_cases() {
            let f = Fixture::new();
            let mut context = f.context(semantics);
            case(&f, &mut context);
            assert_eq!(
                context.last_refusal().map(Error::kind),
                Some(ErrorKind::ReleasedObject),
                "{semantics:?} {name}: {:?}",
                context.last_refusal()
            );
            assert_eq!(
                context.stats().commands,
                0,
                "{semantics:?} {name}: nothing encoded"
            );
            match context.finish_command_list(RestoreState::ClearState) {
                Ok(_) => panic!("{semantics:?} {name}: the list finished without error"),
                Err(error) => {
                    assert_eq!(error.kind(), ErrorKind::ReleasedObject, "{name}: {error}");
                    assert_eq!(error.call_index, 0, "{name}");
                }
            }
        }
    }
}

#[test]
fn r_obj_3_legacy_only_calls_on_released_objects_are_reported_as_released_object() {
    let f = Fixture::new();
    let mut context = f.legacy();
    f.device.release(f.cb);
    context.update_subresource(f.cb, &[1, 2, 3, 4]);
    expect_error(&mut context, ErrorKind::ReleasedObject, 0);

    let f = Fixture::new();
    let mut context = f.legacy();
    f.device.release(f.append_uav);
    context.copy_structure_count(f.args, 0, f.append_uav);
    expect_error(&mut context, ErrorKind::ReleasedObject, 0);

    let f = Fixture::new();
    let mut context = f.legacy();
    f.device.release(f.args);
    context.copy_structure_count(f.args, 0, f.append_uav);
    expect_error(&mut context, ErrorKind::ReleasedObject, 0);
}

#[test]
fn r_obj_3_creating_a_view_of_a_released_resource_is_released_object() {
    let f = Fixture::new();
    let d = &f.device;
    d.release(f.sb);
    d.release(f.tex);
    let srv = d.create_shader_resource_view(&ViewDesc::new("late", f.sb));
    assert_eq!(srv.map_err(|e| e.kind()), Err(ErrorKind::ReleasedObject));
    let srv = d.create_shader_resource_view(&ViewDesc::new("late", f.tex));
    assert_eq!(srv.map_err(|e| e.kind()), Err(ErrorKind::ReleasedObject));
}

#[test]
fn r_obj_3_a_stale_handle_never_reaches_the_object_that_reuses_its_slot() {
    let f = Fixture::new();
    let d = &f.device;
    d.release(f.cb_imm);
    let successor = d
        .create_buffer(&BufferDesc {
            name: "successor",
            size: 256,
            usage: Usage::Immutable,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(successor.raw().index(), f.cb_imm.raw().index());
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut context = f.context(semantics);
        context.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb_imm)]);
        context.set_constant_buffers(Stage::Vertex, 1, &[Some(successor)]);
        assert_eq!(
            context.error().map(RecordError::kind),
            Some(ErrorKind::ReleasedObject)
        );
        assert_eq!(context.error().unwrap().call_index, 0);
        expect_error(&mut context, ErrorKind::ReleasedObject, 0);
        // The successor itself binds fine, and the command names it, not the stale handle.
        context.set_constant_buffers(Stage::Vertex, 0, &[Some(successor)]);
        let list = finish(&mut context);
        let bound: Vec<RawHandle> = list
            .commands()
            .filter_map(|d| match d.command {
                Command::SetConstantBuffers { buffers, .. } => Some(buffers[0].buffer),
                _ => None,
            })
            .collect();
        assert_eq!(bound, vec![successor.raw()]);
    }
}

// ----- R-OBJ-4 ---------------------------------------------------------------------------------

#[test]
fn r_obj_4_legacy_bind_takes_a_binding_and_a_list_reference_and_unbind_drops_the_binding() {
    let f = Fixture::new();
    let d = &f.device;
    let baseline = f.references();
    let mut context = f.legacy();
    assert_eq!(d.references(f.vb), Some(0));
    context.set_vertex_buffers(0, &[vertex(f.vb)]);
    assert_eq!(d.references(f.vb), Some(2), "binding + list");
    context.set_vertex_buffers(0, &[vertex(f.vb)]);
    assert_eq!(
        d.references(f.vb),
        Some(3),
        "same binding, one more list reference"
    );
    context.set_vertex_buffers(1, &[vertex(f.vb)]);
    assert_eq!(d.references(f.vb), Some(5), "second slot: binding + list");
    context.set_vertex_buffers(0, &[VertexBuffer::default()]);
    assert_eq!(
        d.references(f.vb),
        Some(4),
        "unbinding slot 0 drops its binding"
    );
    let list = finish(&mut context);
    assert_eq!(
        d.references(f.vb),
        Some(3),
        "restore=false drops the bindings; the list keeps 3"
    );
    drop(list);
    assert_eq!(d.references(f.vb), Some(0));

    // The same for views, shaders, state objects, samplers, layouts and predicates; binding a
    // view does not touch its resource (the view holds that reference). (An SRV of rt itself
    // would be unbound by the render-target bind below, R-ST-10.)
    let rt_refs = d.references(f.rt);
    context.set_shader_resources(Stage::Pixel, 3, &[Some(f.tex_srv), Some(f.rt_plain_srv)]);
    context.set_shader(Stage::Pixel, Some(f.ps));
    context.set_blend_state(Some(f.blend), [1.0; 4], u32::MAX);
    context.set_depth_stencil_state(Some(f.dss), 1);
    context.set_rasterizer_state(Some(f.raster));
    context.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]);
    context.set_input_layout(Some(f.layout));
    context.set_predication(Some(f.predicate), PredicateValue::False);
    context.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
    context.set_compute_unordered_access_views(2, &[Some(f.sb_uav)]);
    assert_eq!(d.references(f.rt), rt_refs);
    let bound = [
        d.references(f.tex_srv),
        d.references(f.rt_plain_srv),
        d.references(f.ps),
        d.references(f.blend),
        d.references(f.dss),
        d.references(f.raster),
        d.references(f.sampler),
        d.references(f.layout),
        d.references(f.predicate),
        d.references(f.rt_rtv),
        d.references(f.ds_dsv),
        d.references(f.sb_uav),
    ];
    assert!(bound.iter().all(|r| *r == Some(2)), "{bound:?}");
    // Unbind everything.
    context.set_shader_resources(Stage::Pixel, 3, &[None, None]);
    context.set_shader(Stage::Pixel, None);
    context.set_blend_state(None, [1.0; 4], u32::MAX);
    context.set_depth_stencil_state(None, 0);
    context.set_rasterizer_state(None);
    context.set_samplers(Stage::Pixel, 0, &[None]);
    context.set_input_layout(None);
    context.set_predication(None, PredicateValue::False);
    context.set_render_targets(&[], None);
    context.set_compute_unordered_access_views(2, &[None]);
    let unbound = [
        d.references(f.tex_srv),
        d.references(f.rt_plain_srv),
        d.references(f.ps),
        d.references(f.blend),
        d.references(f.dss),
        d.references(f.raster),
        d.references(f.sampler),
        d.references(f.layout),
        d.references(f.predicate),
        d.references(f.rt_rtv),
        d.references(f.ds_dsv),
        d.references(f.sb_uav),
    ];
    assert!(
        unbound.iter().all(|r| *r == Some(1)),
        "only the list's: {unbound:?}"
    );
    let list = finish(&mut context);
    drop(list);
    drop(context);
    assert_eq!(f.references(), baseline);
}

#[test]
fn r_obj_4_legacy_list_takes_a_reference_on_every_object_it_records_and_drops_them_on_drop() {
    let f = Fixture::new();
    let d = &f.device;
    let baseline = f.references();
    let mut context = f.legacy();
    context.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    context.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH_STENCIL, 1.0, 0);
    context.copy_resource(f.copy_a, f.copy_b);
    context.copy_resource(f.tex2, f.tex);
    context.update_subresource(f.cb, &[7; 16]);
    context
        .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .unwrap()[0] = 1; // unmapped on drop
    context.draw_instanced_indirect(f.args, 0);
    context.begin_query(f.occlusion);
    context.end_query(f.occlusion);
    context.decompress_resource(f.rt, Some(f.rt_plain));
    context.set_resource_compression(f.ds, Compression::Compressed);
    context.insert_wait_on_present(f.chain);
    context.copy_structure_count(f.copy_a, 0, f.append_uav);
    let expected_extra = [
        ("rt_rtv", 1),
        ("ds_dsv", 1),
        ("copy_a", 2),
        ("copy_b", 1),
        ("tex2", 1),
        ("tex", 1),
        ("cb", 1),
        ("cb_dyn", 1),
        ("args", 1),
        ("occlusion", 2),
        ("rt", 1),
        ("rt_plain", 1),
        ("ds", 1),
        ("chain", 1),
        ("append_uav", 1),
    ];
    let during = f.references();
    for ((name, base), (_, now)) in baseline.iter().zip(&during) {
        let extra = expected_extra
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, e)| *e);
        assert_eq!(
            *now,
            base.map(|b| b + extra),
            "{name} while the list is recorded"
        );
    }
    let list = finish(&mut context);
    assert_eq!(f.references(), during, "the finished list keeps them");
    drop(context);
    assert_eq!(
        f.references(),
        during,
        "the context's drop does not touch the list's"
    );
    drop(list);
    assert_eq!(f.references(), baseline);
    assert_eq!(d.process_deferred_releases(), 0);
}

#[test]
fn r_obj_4_fast_binds_never_touch_reference_counts() {
    let f = Fixture::new();
    let baseline = f.references();
    let mut context = f.fast();
    context.set_vertex_buffers(0, &[vertex(f.vb), vertex(f.vb2)]);
    context.set_index_buffer(Some(f.ib), Format::R32Uint, 0);
    context.set_input_layout(Some(f.layout));
    context.set_shader(Stage::Vertex, Some(f.vs));
    context.set_shader(Stage::Pixel, Some(f.ps));
    context.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb), Some(f.cb_imm)]);
    context.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv), Some(f.rt_srv)]);
    context.set_samplers(Stage::Pixel, 0, &[Some(f.sampler)]);
    context.set_render_targets_and_unordered_access_views(
        &[Some(f.rt_plain_rtv)],
        Some(f.ds_dsv),
        1,
        &[Some(f.sb_uav)],
    );
    context.set_compute_unordered_access_views(0, &[Some(f.rt_uav)]);
    context.set_blend_state(Some(f.blend), [1.0; 4], u32::MAX);
    context.set_depth_stencil_state(Some(f.dss), 0);
    context.set_rasterizer_state(Some(f.raster));
    context.set_predication(Some(f.predicate), PredicateValue::True);
    context.draw(3, 0);
    assert_eq!(f.references(), baseline, "while recording");
    let list = finish(&mut context);
    assert_eq!(list.stats().calls, 15);
    assert_eq!(f.references(), baseline, "after finish");
    drop(list);
    drop(context);
    assert_eq!(f.references(), baseline, "after drop");
}

#[test]
fn r_obj_4_fast_recorded_calls_never_touch_reference_counts() {
    let f = Fixture::new();
    let baseline = f.references();
    let mut context = f.fast();
    context.clear_render_target_view(f.rt_rtv, [0.0; 4]);
    context.clear_depth_stencil_view(f.ds_dsv, ClearFlags::DEPTH, 1.0, 0);
    context.copy_resource(f.copy_a, f.copy_b);
    context.copy_resource(f.tex2, f.tex);
    context
        .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .unwrap()[0] = 1; // unmapped on drop
    context
        .map(f.cb, MapType::WriteNoOverwrite, MapFlags::AllowUsageDefault)
        .unwrap()[0] = 1; // unmapped on drop
    context.draw_instanced_indirect(f.args, 0);
    context.draw_indexed_instanced_indirect(f.args, 0);
    context.dispatch_indirect(f.args, 0);
    context.begin_query(f.occlusion);
    context.end_query(f.occlusion);
    context.decompress_resource(f.rt, Some(f.rt_plain));
    context.set_resource_compression(f.ds, Compression::Compressed);
    context.insert_wait_on_present(f.chain);
    context.write_value_bottom_of_pipe(f.args, 8, 1);
    context.insert_wait_on_memory(f.args, 8, 1);
    assert!(context.error().is_none(), "{:?}", context.error());
    assert_eq!(f.references(), baseline, "while recording");
    let list = finish(&mut context);
    assert_eq!(f.references(), baseline, "after finish");
    drop(list);
    assert_eq!(f.references(), baseline, "after drop");
}

#[test]
fn r_obj_4_new_binds_of_an_object_released_while_bound_are_released_object() {
    let f = Fixture::new();
    let d = &f.device;
    let mut context = f.legacy();
    context.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]);
    d.release(f.cb);
    assert!(!d.is_alive(f.cb), "the application's handle is gone");
    assert_eq!(
        d.references(f.cb),
        Some(2),
        "the binding and the list still hold it"
    );
    assert_eq!(
        d.process_deferred_releases(),
        0,
        "still bound: not destroyed"
    );
    context.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb)]);
    assert_eq!(
        context.last_refusal().map(Error::kind),
        Some(ErrorKind::ReleasedObject)
    );
    assert_eq!(d.references(f.cb), Some(2), "the refused bind took nothing");
    context.draw(3, 0);
    expect_error(&mut context, ErrorKind::ReleasedObject, 1);
    // The discarded list and the reset bindings let go of it.
    assert_eq!(d.references(f.cb), Some(0));
    assert_eq!(d.process_deferred_releases(), 1);
}

#[test]
fn r_obj_4_object_released_while_bound_under_legacy_stays_usable_until_unbound() {
    let f = Fixture::new();
    let d = &f.device;
    let mut context = f.legacy();
    context.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]);
    d.release(f.cb);
    context.draw(3, 0);
    let first = context.finish_command_list(RestoreState::Restore).unwrap();
    assert_eq!(
        d.references(f.cb),
        Some(3),
        "first list + binding + the carried re-bind"
    );
    context.draw(3, 0);
    let second = finish(&mut context);
    assert_eq!(second.start_state(), StartState::Carried);
    let carried = second.commands().any(|dec| {
        matches!(dec.command, Command::SetConstantBuffers { stage: Stage::Pixel, start: 0, buffers }
            if buffers.first().map(|b| b.buffer) == Some(f.cb.raw()))
    });
    assert!(
        carried,
        "the existing binding is carried into the next list"
    );
    assert_eq!(
        d.references(f.cb),
        Some(2),
        "restore=false dropped the binding"
    );
    assert_eq!(d.process_deferred_releases(), 0, "lists still reference it");
    drop(first);
    assert_eq!(d.process_deferred_releases(), 0);
    drop(second);
    assert_eq!(d.references(f.cb), Some(0));
    assert_eq!(
        d.live_objects(ObjectKind::Buffer),
        17,
        "unreferenced but not yet processed"
    );
    assert_eq!(d.process_deferred_releases(), 1);
    assert_eq!(d.references(f.cb), None);
    assert_eq!(d.live_objects(ObjectKind::Buffer), 16);
    assert_eq!(d.process_deferred_releases(), 0);
}

#[test]
fn r_obj_4_unbinding_a_released_object_lets_it_be_destroyed_once_the_lists_are_gone() {
    let f = Fixture::new();
    let d = &f.device;
    let mut context = f.legacy();
    context.set_render_targets(&[Some(f.rt_plain_rtv)], None);
    context.set_shader(Stage::Vertex, Some(f.vs));
    d.release(f.rt_plain_rtv);
    d.release(f.vs);
    context.set_render_targets(&[], None);
    context.set_shader(Stage::Vertex, None);
    assert_eq!(
        d.references(f.rt_plain_rtv),
        Some(1),
        "only the open list's reference"
    );
    assert_eq!(d.process_deferred_releases(), 0);
    let list = finish(&mut context);
    assert_eq!(d.process_deferred_releases(), 0);
    let texture_refs = d.references(f.rt_plain).unwrap();
    drop(list);
    assert_eq!(d.process_deferred_releases(), 2);
    assert_eq!(d.references(f.rt_plain_rtv), None);
    assert_eq!(d.references(f.vs), None);
    assert_eq!(
        d.references(f.rt_plain),
        Some(texture_refs - 1),
        "the destroyed view dropped its reference on its texture"
    );
}

#[test]
fn r_obj_4_dropping_a_legacy_context_drops_its_bindings() {
    let f = Fixture::new();
    let d = &f.device;
    let mut context = f.legacy();
    context.set_vertex_buffers(0, &[vertex(f.vb)]);
    d.release(f.vb);
    let list = context.finish_command_list(RestoreState::Restore).unwrap();
    assert_eq!(d.references(f.vb), Some(3));
    drop(context);
    assert_eq!(d.references(f.vb), Some(1), "binding and open list dropped");
    drop(list);
    assert_eq!(d.process_deferred_releases(), 1);
    assert!(d.references(f.vb).is_none());
}

#[test]
fn r_obj_4_a_view_holds_one_reference_on_its_resource() {
    let f = Fixture::new();
    let d = &f.device;
    let texture = d
        .create_texture(&TextureDesc {
            name: "t",
            bind: BindFlags::SHADER_RESOURCE | BindFlags::RENDER_TARGET,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(d.references(texture), Some(0));
    let srv = d
        .create_shader_resource_view(&ViewDesc::new("srv", texture))
        .unwrap();
    let rtv = d
        .create_render_target_view(&ViewDesc::new("rtv", texture))
        .unwrap();
    assert_eq!(d.references(texture), Some(2));
    d.release(texture);
    assert!(!d.is_alive(texture));
    assert!(d.view_info(srv).is_some(), "the views still work");
    d.release(srv);
    assert_eq!(d.references(texture), Some(1));
    assert_eq!(d.process_deferred_releases(), 0);
    d.release(rtv);
    assert_eq!(d.process_deferred_releases(), 1);
    assert_eq!(d.references(texture), None);
}

#[test]
fn r_obj_4_fast_release_of_a_bound_object_destroys_it_at_once() {
    let f = Fixture::new();
    let d = &f.device;
    let mut context = f.fast();
    context.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]);
    let list = finish(&mut context);
    d.release(f.cb);
    assert_eq!(d.references(f.cb), None, "fast semantics held no reference");
    drop(list);
    assert_eq!(d.process_deferred_releases(), 0);
}

#[derive(Clone, Debug)]
enum Op {
    VertexBuffer(u32, u8),
    IndexBuffer(u8),
    ConstantBuffer(u8, u32, u8),
    ShaderResource(u8, u32, u8),
    Sampler(u32, bool),
    Shader(u8, bool),
    InputLayout(bool),
    RenderTargets(u8, bool),
    RenderTargetsAndUavs(u8, u8),
    ComputeUav(u32, u8),
    Blend(bool),
    DepthStencilState(bool),
    Rasterizer(bool),
    Predication(bool),
    ClearRenderTarget(bool),
    ClearDepthStencil(bool),
    Draw,
    DrawIndirect,
    MapDiscard(u8),
    MapNoOverwrite(u8),
    MapDefault,
    Copy(bool),
    Update,
    Query,
    Decompress(bool),
    Compression,
    WaitOnPresent,
    StructureCount,
    ClearState,
    BadSlot,
    ReleasedBind,
    Finish(bool),
    Execute(usize, bool),
    DropList(usize),
}

/// Calls of every kind, weighted so that most lists finish cleanly (an error discards the list,
/// which is worth testing too, but less often).
fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u32..4, 0u8..4).prop_map(|(s, w)| Op::VertexBuffer(s, w)),
        3 => (0u8..3).prop_map(Op::IndexBuffer),
        3 => (0u8..6, 0u32..4, 0u8..5).prop_map(|(st, s, w)| Op::ConstantBuffer(st, s, w)),
        3 => (0u8..6, 0u32..4, 0u8..7).prop_map(|(st, s, w)| Op::ShaderResource(st, s, w)),
        2 => (0u32..3, any::<bool>()).prop_map(|(s, b)| Op::Sampler(s, b)),
        2 => (0u8..3, any::<bool>()).prop_map(|(s, b)| Op::Shader(s, b)),
        2 => any::<bool>().prop_map(Op::InputLayout),
        3 => (0u8..4, any::<bool>()).prop_map(|(r, d)| Op::RenderTargets(r, d)),
        2 => (0u8..3, 0u8..3).prop_map(|(r, u)| Op::RenderTargetsAndUavs(r, u)),
        2 => (0u32..3, 0u8..4).prop_map(|(s, w)| Op::ComputeUav(s, w)),
        2 => any::<bool>().prop_map(Op::Blend),
        2 => any::<bool>().prop_map(Op::DepthStencilState),
        2 => any::<bool>().prop_map(Op::Rasterizer),
        2 => any::<bool>().prop_map(Op::Predication),
        2 => any::<bool>().prop_map(Op::ClearRenderTarget),
        2 => any::<bool>().prop_map(Op::ClearDepthStencil),
        3 => Just(Op::Draw),
        1 => Just(Op::DrawIndirect),
        3 => (0u8..4).prop_map(Op::MapDiscard),
        1 => (0u8..4).prop_map(Op::MapNoOverwrite),
        1 => Just(Op::MapDefault),
        1 => any::<bool>().prop_map(Op::Copy),
        1 => Just(Op::Update),
        1 => Just(Op::Query),
        1 => any::<bool>().prop_map(Op::Decompress),
        1 => Just(Op::Compression),
        1 => Just(Op::WaitOnPresent),
        1 => Just(Op::StructureCount),
        1 => Just(Op::ClearState),
        1 => Just(Op::BadSlot),
        1 => Just(Op::ReleasedBind),
        6 => any::<bool>().prop_map(Op::Finish),
        4 => (0usize..8, any::<bool>()).prop_map(|(i, r)| Op::Execute(i, r)),
        2 => (0usize..8).prop_map(Op::DropList),
    ]
}

fn apply(
    f: &Fixture,
    released: Buffer,
    c: &mut DeferredContext,
    lists: &mut Vec<CommandList>,
    op: &Op,
) {
    let stages = [
        Stage::Vertex,
        Stage::Pixel,
        Stage::Compute,
        Stage::Geometry,
        Stage::Hull,
        Stage::Domain,
    ];
    let vbs = [None, Some(f.vb), Some(f.vb_dyn), Some(f.vb_dyn2)];
    let cbs = [
        None,
        Some(f.cb),
        Some(f.cb_imm),
        Some(f.cb_dyn),
        Some(f.cb_dyn2),
    ];
    let srvs = [
        None,
        Some(f.tex_srv),
        Some(f.rt_srv),
        Some(f.ds_srv),
        Some(f.sb_dyn_srv),
        Some(f.sb_srv),
        Some(f.rt_plain_srv),
    ];
    let uavs = [None, Some(f.sb_uav), Some(f.rt_uav), Some(f.append_uav)];
    let dynamic = [f.vb_dyn, f.vb_dyn2, f.cb_dyn, f.sb_dyn];
    match *op {
        Op::VertexBuffer(slot, which) => c.set_vertex_buffers(
            slot,
            &[VertexBuffer {
                buffer: vbs[which as usize],
                stride: 16,
                offset: 0,
            }],
        ),
        Op::IndexBuffer(which) => {
            let ib = [None, Some(f.ib), Some(f.ib_dyn)][which as usize];
            c.set_index_buffer(ib, Format::R16Uint, 0)
        }
        Op::ConstantBuffer(stage, slot, which) => {
            c.set_constant_buffers(stages[stage as usize], slot, &[cbs[which as usize]])
        }
        Op::ShaderResource(stage, slot, which) => {
            c.set_shader_resources(stages[stage as usize], slot, &[srvs[which as usize]])
        }
        Op::Sampler(slot, bound) => {
            c.set_samplers(Stage::Pixel, slot, &[bound.then_some(f.sampler)])
        }
        Op::Shader(which, bound) => {
            let (stage, shader) = [
                (Stage::Vertex, f.vs),
                (Stage::Pixel, f.ps),
                (Stage::Compute, f.cs),
            ][which as usize];
            c.set_shader(stage, bound.then_some(shader))
        }
        Op::InputLayout(bound) => c.set_input_layout(bound.then_some(f.layout)),
        Op::RenderTargets(which, depth) => {
            let rtvs: &[Option<RenderTargetView>] = match which {
                0 => &[],
                1 => &[Some(f.rt_rtv)],
                2 => &[Some(f.rt_plain_rtv), Some(f.rt_rtv)],
                _ => &[None, Some(f.back_buffer().1)],
            };
            c.set_render_targets(rtvs, depth.then_some(f.ds_dsv))
        }
        Op::RenderTargetsAndUavs(which, uav) => {
            let rtvs: &[Option<RenderTargetView>] = match which {
                0 => &[],
                1 => &[Some(f.rt_plain_rtv)],
                _ => &[Some(f.rt_rtv), None],
            };
            c.set_render_targets_and_unordered_access_views(
                rtvs,
                Some(f.ds_plain_dsv),
                2,
                &[uavs[uav as usize]],
            )
        }
        Op::ComputeUav(slot, which) => {
            c.set_compute_unordered_access_views(slot, &[uavs[which as usize]])
        }
        Op::Blend(bound) => c.set_blend_state(bound.then_some(f.blend), [1.0; 4], u32::MAX),
        Op::DepthStencilState(bound) => c.set_depth_stencil_state(bound.then_some(f.dss), 1),
        Op::Rasterizer(bound) => c.set_rasterizer_state(bound.then_some(f.raster)),
        Op::Predication(bound) => {
            c.set_predication(bound.then_some(f.predicate), PredicateValue::True)
        }
        Op::ClearRenderTarget(plain) => {
            c.clear_render_target_view(if plain { f.rt_plain_rtv } else { f.rt_rtv }, [0.5; 4])
        }
        Op::ClearDepthStencil(plain) => c.clear_depth_stencil_view(
            if plain { f.ds_plain_dsv } else { f.ds_dsv },
            ClearFlags::DEPTH_STENCIL,
            1.0,
            0,
        ),
        Op::Draw => c.draw(3, 0),
        Op::DrawIndirect => c.draw_instanced_indirect(f.args, 16),
        Op::MapDiscard(which) => {
            let buffer = dynamic[which as usize];
            if let Ok(data) = c
                .map(buffer, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped)
            {
                data[0] = which;
            }
            c.unmap(buffer);
        }
        Op::MapNoOverwrite(which) => {
            let buffer = dynamic[which as usize];
            if let Ok(data) = c
                .map(buffer, MapType::WriteNoOverwrite, MapFlags::None)
                .map(Mapped::keep_mapped)
            {
                data[1] = which;
                c.unmap(buffer);
            }
        }
        Op::MapDefault => {
            if let Ok(data) = c
                .map(f.cb, MapType::WriteNoOverwrite, MapFlags::AllowUsageDefault)
                .map(Mapped::keep_mapped)
            {
                data[0] = 9;
            }
            c.unmap(f.cb);
        }
        Op::Copy(textures) => {
            if textures {
                c.copy_resource(f.tex2, f.tex)
            } else {
                c.copy_resource(f.copy_a, f.copy_b)
            }
        }
        Op::Update => c.update_subresource(f.cb, &[1, 2, 3]),
        Op::Query => {
            c.begin_query(f.occlusion);
            c.end_query(f.occlusion);
        }
        Op::Decompress(into) => c.decompress_resource(f.rt, into.then_some(f.rt_plain)),
        Op::Compression => c.set_resource_compression(f.ds, Compression::Decompressed),
        Op::WaitOnPresent => c.insert_wait_on_present(f.chain),
        Op::StructureCount => c.copy_structure_count(f.copy_a, 4, f.counter_uav),
        Op::ClearState => c.clear_state(),
        Op::BadSlot => c.set_constant_buffers(Stage::Pixel, CONSTANT_BUFFER_SLOTS, &[Some(f.cb)]),
        Op::ReleasedBind => c.set_vertex_buffers(0, &[vertex(released)]),
        Op::Finish(restore) => {
            if let Ok(list) = c.finish_command_list(if restore {
                RestoreState::Restore
            } else {
                RestoreState::ClearState
            }) {
                lists.push(list);
            }
        }
        Op::Execute(index, restore) => {
            if !lists.is_empty() {
                let inner = lists[index % lists.len()].clone();
                c.execute_command_list(
                    &inner,
                    if restore {
                        RestoreState::Restore
                    } else {
                        RestoreState::ClearState
                    },
                );
            }
        }
        Op::DropList(index) => {
            if !lists.is_empty() {
                let at = index % lists.len();
                lists.remove(at);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn r_obj_4_random_recordings_leave_no_references_behind(
        fast in any::<bool>(),
        ops in proptest::collection::vec(op(), 1..80),
        restores in proptest::collection::vec(any::<bool>(), 3),
        drop_order in proptest::collection::vec(any::<prop::sample::Index>(), 16),
    ) {
        let f = Fixture::new();
        let released = f
            .device
            .create_buffer(&BufferDesc {
                name: "released",
                size: 16,
                bind: BindFlags::VERTEX,
                ..Default::default()
            })
            .unwrap();
        f.device.release(released);
        let baseline = f.references();
        // Legacy takes and drops references; fast never touches them (R-OBJ-4). Either way no
        // call, however wrong, panics (R-REC-8): the ops include bad slots and released handles.
        let mut context = if fast { f.fast() } else { f.legacy() };
        let mut lists = Vec::new();
        for op in &ops {
            apply(&f, released, &mut context, &mut lists, op);
        }
        // Finish with random restore flags, keeping every list.
        for restore in &restores {
            if let Ok(list) = context.finish_command_list(if *restore { RestoreState::Restore } else { RestoreState::ClearState }) {
                lists.push(list);
            }
        }
        if fast {
            // Not even while the lists live.
            prop_assert_eq!(&f.references(), &baseline, "fast recording touched references: {:?}", ops);
        }
        // Drop the lists in a random order, then the context.
        for index in &drop_order {
            if lists.is_empty() {
                break;
            }
            let at = index.index(lists.len());
            lists.remove(at);
        }
        lists.clear();
        drop(context);
        let after = f.references();
        for ((name, before), (_, now)) in baseline.iter().zip(&after) {
            prop_assert_eq!(before, now, "references of {} after {:?}", name, ops);
        }
        prop_assert_eq!(f.device.process_deferred_releases(), 0);
    }
}

// ----- R-OBJ-5 ---------------------------------------------------------------------------------

#[test]
fn r_obj_5_slot_counts_match_the_hardware() {
    assert_eq!(CONSTANT_BUFFER_SLOTS, 16);
    assert_eq!(SHADER_RESOURCE_SLOTS, 128);
    assert_eq!(SAMPLER_SLOTS, 16);
    assert_eq!(GRAPHICS_UAV_SLOTS, 8);
    assert_eq!(COMPUTE_UAV_SLOTS, 64);
    assert_eq!(VERTEX_BUFFER_SLOTS, 32);
    assert_eq!(RENDER_TARGET_SLOTS, 8);
}

/// A bind at `slot` of one object, per slot kind.
type SlotCall = (&'static str, u32, fn(&Fixture, &mut DeferredContext, u32));

fn slot_calls() -> Vec<SlotCall> {
    vec![
        ("constant buffer", CONSTANT_BUFFER_SLOTS, |f, c, slot| {
            c.set_constant_buffers(Stage::Pixel, slot, &[Some(f.cb_imm)])
        }),
        ("shader resource", SHADER_RESOURCE_SLOTS, |f, c, slot| {
            c.set_shader_resources(Stage::Vertex, slot, &[Some(f.tex_srv)])
        }),
        ("sampler", SAMPLER_SLOTS, |f, c, slot| {
            c.set_samplers(Stage::Compute, slot, &[Some(f.sampler)])
        }),
        ("vertex buffer", VERTEX_BUFFER_SLOTS, |f, c, slot| {
            c.set_vertex_buffers(slot, &[vertex(f.vb)])
        }),
        ("compute uav", COMPUTE_UAV_SLOTS, |f, c, slot| {
            c.set_compute_unordered_access_views(slot, &[Some(f.sb_uav)])
        }),
        ("output-merger uav", GRAPHICS_UAV_SLOTS, |f, c, slot| {
            c.set_render_targets_and_unordered_access_views(&[], None, slot, &[Some(f.sb_uav)])
        }),
        ("render target", RENDER_TARGET_SLOTS, |f, c, slot| {
            // `slot + 1` targets puts the RTV at `slot`.
            // One past the last slot is enough to be refused: cap the vector.
            let mut targets = vec![None; (slot as usize).min(RENDER_TARGET_SLOTS as usize)];
            targets.push(Some(f.rt_plain_rtv));
            c.set_render_targets(&targets, None)
        }),
    ]
}

#[test]
fn r_obj_5_the_last_slot_of_every_kind_is_accepted() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for (name, count, call) in slot_calls() {
            let f = Fixture::new();
            let mut context = f.context(semantics);
            call(&f, &mut context, 0);
            call(&f, &mut context, count - 1);
            assert!(
                context.error().is_none(),
                "{semantics:?} {name}: {:?}",
                context.error()
            );
            let list = finish(&mut context);
            assert_eq!(list.stats().calls, 2, "{name}");
        }
    }
}

#[test]
fn r_obj_5_one_past_the_last_slot_is_invalid_argument() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for (name, count, call) in slot_calls() {
            for slot in [count, count + 1, u32::MAX] {
                let f = Fixture::new();
                let baseline = f.references();
                let mut context = f.context(semantics);
                context.draw(3, 0);
                call(&f, &mut context, slot);
                assert_eq!(
                    context.last_refusal().map(Error::kind),
                    Some(ErrorKind::InvalidArgument),
                    "{semantics:?} {name} slot {slot}"
                );
                assert_eq!(
                    context.stats().commands,
                    1,
                    "{name}: the refused call encoded nothing"
                );
                assert_eq!(
                    f.references(),
                    baseline,
                    "{name}: the refused call took nothing"
                );
                expect_error(&mut context, ErrorKind::InvalidArgument, 1);
            }
        }
    }
}

#[test]
fn r_obj_5_a_range_running_past_the_last_slot_is_invalid_argument() {
    let f = Fixture::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut c = f.context(semantics);
        c.set_constant_buffers(Stage::Vertex, 15, &[Some(f.cb), Some(f.cb)]);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        c.set_vertex_buffers(31, &[vertex(f.vb), vertex(f.vb)]);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        c.set_samplers(Stage::Pixel, 15, &[Some(f.sampler), Some(f.sampler)]);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        c.set_shader_resources(Stage::Pixel, 127, &[Some(f.tex_srv), Some(f.tex_srv)]);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        c.set_render_targets(&[Some(f.rt_plain_rtv); 9], None);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        c.set_compute_unordered_access_views(63, &[Some(f.sb_uav), Some(f.sb_uav)]);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        c.set_render_targets_and_unordered_access_views(&[], None, 7, &[Some(f.sb_uav); 2]);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        // UAVs may not overlap the render-target slots.
        c.set_render_targets_and_unordered_access_views(
            &[Some(f.rt_plain_rtv), None],
            None,
            1,
            &[Some(f.sb_uav)],
        );
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        c.set_viewports(&[Viewport::new(0.0, 0.0, 1.0, 1.0); 17]);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        c.set_scissor_rects(&[Rect::default(); 17]);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
        // The largest legal ranges.
        c.set_constant_buffers(Stage::Vertex, 0, &[Some(f.cb); 16]);
        c.set_vertex_buffers(0, &[vertex(f.vb); 32]);
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv); 128]);
        c.set_compute_unordered_access_views(0, &[Some(f.sb_uav); 64]);
        c.set_render_targets(&[Some(f.rt_plain_rtv); 8], None);
        c.set_viewports(&[Viewport::new(0.0, 0.0, 1.0, 1.0); 16]);
        let list = finish(&mut c);
        assert_eq!(list.stats().calls, 6);
    }
}

/// A slot set names slots 0 to 127 whatever its kind; creation refuses one past its kind's
/// slots, naming the kind and the limit, and makes nothing (R-OBJ-5).
#[test]
fn r_obj_5_slot_sets_past_their_kinds_slots_are_refused_at_creation() {
    let d = Device::new(DeviceDesc::default());
    let shaders = [
        (
            ShaderDesc {
                constant_buffers: Slots::of(&[CONSTANT_BUFFER_SLOTS]),
                ..ShaderDesc::new("cb_past", Stage::Vertex)
            },
            "constant-buffer",
        ),
        (
            ShaderDesc {
                samplers: Slots::of(&[SAMPLER_SLOTS]),
                ..ShaderDesc::new("sampler_past", Stage::Pixel)
            },
            "sampler",
        ),
        (
            ShaderDesc {
                unordered_access_views: Slots::of(&[COMPUTE_UAV_SLOTS]),
                ..ShaderDesc::new("uav_past", Stage::Compute)
            },
            "UAV",
        ),
    ];
    for (desc, what) in shaders {
        let error = d.create_shader(&desc).expect_err(desc.name);
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
        match &error {
            Error::InvalidDesc {
                problem: DescProblem::SlotsPastLimit { what: kind, .. },
                ..
            } => assert_eq!(*kind, what),
            Error::InvalidDesc {
                problem: DescProblem::UavSlots { limit, .. },
                ..
            } => assert_eq!((what, *limit), ("UAV", COMPUTE_UAV_SLOTS)),
            other => panic!("{what}: {other:?}"),
        }
        assert!(error.to_string().contains("R-OBJ-5"), "{error}");
    }
    assert_eq!(d.live_objects(ObjectKind::Shader), 0);
    // The last slot of each kind is fine.
    d.create_shader(&ShaderDesc {
        constant_buffers: Slots::of(&[CONSTANT_BUFFER_SLOTS - 1]),
        samplers: Slots::of(&[SAMPLER_SLOTS - 1]),
        shader_resources: Slots::of(&[SHADER_RESOURCE_SLOTS - 1]),
        unordered_access_views: Slots::of(&[COMPUTE_UAV_SLOTS - 1]),
        ..ShaderDesc::new("last_slots", Stage::Compute)
    })
    .expect("the last slot of each kind");

    let error = d
        .create_input_layout(&InputLayoutDesc {
            name: "vb_past",
            vertex_buffers: Slots::of(&[VERTEX_BUFFER_SLOTS]),
        })
        .expect_err("vertex-buffer slot past the limit");
    assert!(
        matches!(
            error,
            Error::InvalidDesc {
                problem: DescProblem::SlotsPastLimit {
                    what: "vertex-buffer",
                    limit: VERTEX_BUFFER_SLOTS
                },
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(d.live_objects(ObjectKind::InputLayout), 0);
    d.create_input_layout(&InputLayoutDesc {
        name: "vb_last",
        vertex_buffers: Slots::of(&[VERTEX_BUFFER_SLOTS - 1]),
    })
    .expect("the last vertex-buffer slot");
}

/// The counts stay exact through a legacy recorder's own table as it grows past its first
/// capacity, as bindings move from object to object, and on the immediate context's recorder,
/// whose bindings outlive its batches (R-OBJ-4): each bound slot holds one reference, each
/// recorded use one, dropping the batches and the recorders leaves none.
#[test]
fn r_obj_4_legacy_counts_stay_exact_across_many_objects_and_batches() {
    let device = Device::new(DeviceDesc::default());
    let buffers: Vec<Buffer> = (0..300)
        .map(|i| {
            device
                .create_buffer(&BufferDesc {
                    name: &format!("vb{i}"),
                    size: 64,
                    bind: BindFlags::VERTEX,
                    ..Default::default()
                })
                .unwrap()
        })
        .collect();
    let refs = |b: Buffer| device.references(b);

    // A deferred context: 300 objects in one list, each bound twice into slot 0 in a row.
    let mut context = device
        .create_deferred_context(&DeferredContextDesc::default())
        .unwrap();
    for &b in &buffers {
        context.set_vertex_buffers(0, &[vertex(b)]);
        context.set_vertex_buffers(0, &[vertex(b)]);
        assert_eq!(refs(b), Some(3), "binding + two list references");
    }
    assert_eq!(refs(buffers[0]), Some(2), "unbound: the list's two");
    let list = finish(&mut context);
    assert!(
        buffers.iter().all(|&b| refs(b) == Some(2)),
        "the list's, published"
    );
    drop(list);
    assert!(buffers.iter().all(|&b| refs(b) == Some(0)));

    // The immediate context's recorder: bindings persist from batch to batch.
    let mut immediate = device.immediate_recorder().unwrap();
    let mut batches = Vec::new();
    for (i, &b) in buffers.iter().enumerate() {
        immediate.set_vertex_buffers(0, &[vertex(b)]);
        if i % 7 == 0 {
            batches.push(immediate.take_batch().unwrap());
        }
    }
    let last = *buffers.last().unwrap();
    assert_eq!(refs(last), Some(2), "binding + batch");
    assert_eq!(refs(buffers[1]), Some(1), "its batch's only");
    batches.push(immediate.take_batch().unwrap());
    assert_eq!(refs(last), Some(2), "binding + the batch taken");
    drop(batches);
    assert_eq!(refs(last), Some(1), "the binding outlives the batches");
    assert_eq!(refs(buffers[1]), Some(0));
    immediate.set_vertex_buffers(0, &[VertexBuffer::default()]);
    assert_eq!(refs(last), Some(0), "unbound");
    drop(immediate);
    drop(context);
    assert!(buffers.iter().all(|&b| refs(b) == Some(0)));
}
