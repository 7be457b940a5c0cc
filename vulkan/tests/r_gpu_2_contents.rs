//! R-GPU-2, contents a real GPU needs: a draw of a shader created without code is refused at
//! that draw, naming the shader and what it lacks (the model still records the draw); shader
//! code whose reflected slots are not the declared ones is refused at creation, naming both.

mod common;

use common::*;
use recorder::*;

#[test]
fn r_gpu_2_a_draw_without_shader_code_is_refused_naming_the_shader() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(16, 16);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    let vs0 = gpu
        .device
        .create_shader(&ShaderDesc::new("vs0", Stage::Vertex))
        .unwrap();
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs0));
    gpu.imm.draw(3, 0);
    let error = gpu.imm.flush().expect_err("the backend refuses the draw");
    match &error {
        Error::GpuBackend {
            call,
            object,
            problem,
        } => {
            assert_eq!(*call, "draw");
            assert_eq!(object, "shader 'vs0'");
            assert!(
                problem.contains("has no code") && problem.contains("R-GPU-2"),
                "{problem}"
            );
        }
        other => panic!("not the backend's refusal: {other}"),
    }
    let message = error.to_string();
    assert!(
        message.starts_with("draw: shader 'vs0' has no code"),
        "{message}"
    );
    assert_eq!(
        gpu.imm.records().len(),
        1,
        "the model still records the draw"
    );
    // The same draw with code draws, and the frame is clean.
    let vs = gpu.quad_vs();
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.draw(6, 0);
    gpu.imm.flush().unwrap();
    gpu.assert_clean();
}

#[test]
fn r_gpu_2_reflected_slots_must_match_the_declared_slots() {
    let Some(gpu) = gpu() else { return };
    let code = ShaderCode::Wgsl {
        source: COLOUR_PS,
        entry: "ps",
    };
    // The code reads constant buffer 0; the description declares none.
    let error = gpu
        .device
        .create_shader_with_code(&ShaderDesc::new("ps_undeclared", Stage::Pixel), code)
        .expect_err("the slots differ");
    let message = error.to_string();
    assert!(message.contains("shader 'ps_undeclared'"), "{message}");
    assert!(
        message.contains("constant buffers: code {0}, declared {}") && message.contains("R-GPU-2"),
        "{message}"
    );
    // Declaring slot 1 instead is refused naming both sets.
    let one = ShaderDesc {
        constant_buffers: Slots::of(&[1]),
        ..ShaderDesc::new("ps_slot_1", Stage::Pixel)
    };
    let message = gpu
        .device
        .create_shader_with_code(&one, code)
        .unwrap_err()
        .to_string();
    assert!(message.contains("code {0}, declared {1}"), "{message}");
    // A binding of another stage's range is refused naming it.
    let message = gpu
        .device
        .create_shader_with_code(&ShaderDesc::new("vs_ps_code", Stage::Vertex), ShaderCode::Wgsl {
            source: "@group(0) @binding(1024) var<uniform> c: vec4<f32>;\n@vertex fn vs() -> @builtin(position) vec4<f32> { return c; }",
            entry: "vs",
        })
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("@binding(1024)") && message.contains("0..256"),
        "{message}"
    );
    // The declared slots: accepted.
    let declared = ShaderDesc {
        constant_buffers: Slots::of(&[0]),
        ..ShaderDesc::new("ps", Stage::Pixel)
    };
    gpu.device.create_shader_with_code(&declared, code).unwrap();
    // SPIR-V code is reflected too: the vertex shader's words as naga writes them.
    let module = naga::front::wgsl::parse_str(QUAD_VS).unwrap();
    let info = naga::valid::Validator::new(Default::default(), Default::default())
        .validate(&module)
        .unwrap();
    let words = naga::back::spv::write_vec(&module, &info, &Default::default(), None).unwrap();
    let spirv = ShaderCode::SpirV {
        words: &words,
        entry: "vs",
    };
    gpu.device
        .create_shader_with_code(&ShaderDesc::new("vs_spirv", Stage::Vertex), spirv)
        .unwrap();
    let with_cb = ShaderDesc {
        constant_buffers: Slots::of(&[2]),
        ..ShaderDesc::new("vs_spirv_cb", Stage::Vertex)
    };
    let message = gpu
        .device
        .create_shader_with_code(&with_cb, spirv)
        .unwrap_err()
        .to_string();
    assert!(message.contains("code {}, declared {2}"), "{message}");
}

#[test]
fn r_gpu_3_a_multisampled_target_is_refused_naming_it() {
    // Multisampling is not translated yet: a draw into a 4-sample target is refused, naming
    // the texture, instead of drawing single-sampled.
    let Some(mut gpu) = gpu() else { return };
    let target = gpu
        .device
        .create_texture(&TextureDesc {
            name: "msaa",
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
            sample_count: 4,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        })
        .unwrap();
    let rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new("msaa.rtv", target))
        .unwrap();
    let (vs, ps) = (gpu.quad_vs(), gpu.colour_ps());
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(ps));
    gpu.imm.draw(6, 0);
    let error = gpu.imm.flush().expect_err("the backend refuses the target");
    let message = error.to_string();
    assert!(
        message.contains("texture 'msaa' has 4 samples") && message.contains("not translated yet"),
        "{message}"
    );
    assert_eq!(
        gpu.imm.records().len(),
        1,
        "the model still records the draw"
    );
}

#[test]
fn r_gpu_3_a_views_minimum_lod_starts_sampling_at_that_mip() {
    // R-ST-6 on the GPU: a view read with minimum LOD 1 samples mip 1 where the draw's own
    // LOD is 0 (VK_EXT_image_view_min_lod); the same view at LOD 0 samples mip 0. A device
    // without the extension refuses the draw, naming the view.
    let Some(mut gpu) = gpu_with(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    }) else {
        return;
    };
    let out = gpu
        .device
        .create_texture(&TextureDesc {
            name: "out",
            format: Format::R8G8B8A8Unorm,
            width: 32,
            height: 16,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        })
        .unwrap();
    let rtv = gpu
        .device
        .create_render_target_view(&ViewDesc::new("out.rtv", out))
        .unwrap();
    let texture = gpu
        .device
        .create_texture(&TextureDesc {
            name: "mips",
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
            mip_levels: 2,
            bind: BindFlags::SHADER_RESOURCE | BindFlags::RENDER_TARGET,
            ..Default::default()
        })
        .unwrap();
    let mip_rtv = |mip: u32, name: &str| {
        gpu.device
            .create_render_target_view(&ViewDesc {
                range: SubresourceRange {
                    first_mip: mip,
                    mip_count: 1,
                    ..SubresourceRange::ALL
                },
                ..ViewDesc::new(name, texture)
            })
            .unwrap()
    };
    let (mip0, mip1) = (mip_rtv(0, "mip0.rtv"), mip_rtv(1, "mip1.rtv"));
    let srv = gpu
        .device
        .create_shader_resource_view(&ViewDesc::new("mips.srv", texture))
        .unwrap();
    let sample_ps = gpu.sample_ps();
    let point = gpu
        .device
        .create_sampler_state_with(
            "point",
            &SamplerDesc {
                linear: false,
                ..Default::default()
            },
        )
        .unwrap();
    gpu.imm.clear_render_target_view(mip0, [1.0, 0.0, 0.0, 1.0]);
    gpu.imm.clear_render_target_view(mip1, [0.0, 1.0, 0.0, 1.0]);
    let vs = gpu.quad_vs();
    gpu.imm.set_render_targets(&[Some(rtv)], None);
    gpu.imm
        .set_primitive_topology(PrimitiveTopology::TriangleList);
    gpu.imm.set_shader(Stage::Vertex, Some(vs));
    gpu.imm.set_shader(Stage::Pixel, Some(sample_ps));
    gpu.imm.set_samplers(Stage::Pixel, 0, &[Some(point)]);
    // Left half: the view at LOD 0 (the full quad, vertices 6..12: 16 x 16 texels onto
    // 16 x 16 pixels, mip 0).
    gpu.imm
        .set_viewports(&[Viewport::new(0.0, 0.0, 16.0, 16.0)]);
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
    gpu.imm.draw(6, 6);
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().read_texture(out).unwrap();
    assert_eq!(texel(&pixels, 8, 8), [255, 0, 0, 255], "LOD 0 reads mip 0");
    // Right half: the same view with minimum LOD 1, bound again (a fast bind copies it).
    gpu.imm.set_shader_resource_view_min_lod(srv, 1.0);
    gpu.imm
        .set_viewports(&[Viewport::new(16.0, 0.0, 16.0, 16.0)]);
    gpu.imm.set_shader_resources(Stage::Pixel, 0, &[Some(srv)]);
    gpu.imm.draw(6, 6);
    if !gpu.backend().has_view_min_lod() {
        // Lavapipe (Mesa 22.3) lacks the extension: the draw is refused, naming the view.
        let message = gpu.imm.flush().expect_err("refused").to_string();
        assert!(
            message.contains("'mips.srv' is read with minimum LOD 1")
                && message.contains("VK_EXT_image_view_min_lod"),
            "{message}"
        );
        return;
    }
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().read_texture(out).unwrap();
    assert_eq!(
        texel(&pixels, 8, 8),
        [255, 0, 0, 255],
        "LOD 0 still reads mip 0"
    );
    assert_eq!(
        texel(&pixels, 24, 8),
        [0, 255, 0, 255],
        "minimum LOD 1 reads mip 1"
    );
    gpu.assert_clean();
}
