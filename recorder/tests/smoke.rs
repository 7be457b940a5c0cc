use recorder::*;

#[test]
fn smoke_legacy_and_fast() {
    let device = Device::new(DeviceDesc::default());
    let vb = device
        .create_buffer(&BufferDesc {
            name: "vb",
            size: 1024,
            usage: Usage::Immutable,
            bind: BindFlags::VERTEX,
            ..Default::default()
        })
        .unwrap();
    let cb = device
        .create_buffer(&BufferDesc {
            name: "cb",
            size: 256,
            usage: Usage::Dynamic,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap();
    let rt = device
        .create_texture(&TextureDesc {
            name: "rt",
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            width: 64,
            height: 64,
            ..Default::default()
        })
        .unwrap();
    let rtv = device
        .create_render_target_view(&ViewDesc::new("rtv", rt))
        .unwrap();
    let srv = device
        .create_shader_resource_view(&ViewDesc::new("srv", rt))
        .unwrap();
    let vs = device
        .create_shader(&ShaderDesc {
            constant_buffers: 1,
            ..ShaderDesc::new("vs", Stage::Vertex)
        })
        .unwrap();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut ctx = device
            .create_deferred_context(&DeferredContextDesc {
                name: "dc",
                semantics,
                chunk_policy: None,
            })
            .unwrap();
        ctx.om_set_render_targets(&[Some(rtv)], None);
        ctx.clear_render_target_view(rtv, [0.0; 4]);
        ctx.set_shader(Stage::Vertex, Some(vs));
        ctx.set_vertex_buffers(
            0,
            &[VertexBuffer {
                buffer: Some(vb),
                stride: 16,
                offset: 0,
            }],
        );
        ctx.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
        if let Some(data) = ctx.map(cb, MapType::WriteDiscard, false) {
            data[0] = 7;
        }
        ctx.unmap(cb);
        ctx.set_constant_buffers(Stage::Vertex, 0, &[Some(cb)]);
        for i in 0..1000 {
            ctx.draw(3, i);
        }
        let list = ctx.finish_command_list(false).unwrap();
        let stats = *list.stats();
        println!(
            "{semantics:?} {stats:?} refs vb={:?}",
            device.references(vb)
        );
        assert_eq!(stats.draws, 1000);
        let n = list.commands().count();
        assert_eq!(n as u32, stats.commands);
        let segs = list.segments();
        println!("segments {}", segs.len());
        if semantics == Semantics::Legacy {
            assert_eq!(stats.split_points.total(), 3, "{}", stats.split_points);
        } else {
            assert_eq!(stats.split_points.total(), 0);
        }
        drop(list);
        println!("after drop refs vb={:?}", device.references(vb));
    }
    assert_eq!(device.references(vb), Some(0));
    assert_eq!(device.references(rt), Some(2));
}
