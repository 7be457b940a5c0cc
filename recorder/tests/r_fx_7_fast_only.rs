//! R-FX-7: the `fast-only` cargo feature (the seeds' `D3DCOMPILE_NO_DEBUG_AND_ALL_FAST_SEMANTICS`)
//! removes the legacy paths at compile time. With the feature, legacy contexts (deferred, and a
//! legacy immediate context) are refused naming the feature, and fast recording is unchanged.
//! Without it (the default build, `cargo test --workspace`) the legacy paths exist.
//!
//! ```text
//! cargo test -p recorder --features fast-only --test r_fx_7_fast_only
//! ```

use recorder::command::Command;
use recorder::*;

fn shader(device: &Device, stage: Stage) -> Shader {
    device
        .create_shader(&ShaderDesc::new("s", stage))
        .expect("a shader")
}

/// What both builds record the same way: the fast calls of `r_fx_7` (set_shader,
/// set_input_layout, a bind, a draw), read back from the list.
fn record_fast(device: &Device) -> Vec<String> {
    let vs = shader(device, Stage::Vertex);
    let layout = device
        .create_input_layout(&InputLayoutDesc {
            name: "layout",
            vertex_buffers: Slots::first(1),
        })
        .expect("a layout");
    let buffer = device
        .create_buffer(&BufferDesc {
            name: "cb",
            size: 256,
            usage: Usage::Default,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .expect("a buffer");
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            name: "fast",
            semantics: Semantics::Fast,
            ..Default::default()
        })
        .expect("a fast context in every build");
    context.set_shader(Stage::Vertex, Some(vs));
    context.set_input_layout(Some(layout));
    context.set_constant_buffers(Stage::Vertex, 0, &[Some(buffer)]);
    context.draw(3, 0);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .map_err(|e| e.error)
        .expect("the fast list");
    assert_eq!(list.stats().draws, 1);
    list.commands()
        .filter(|c| !matches!(c.command, Command::ClearState))
        .map(|c| format!("{:?}", c.command))
        .collect()
}

#[cfg(feature = "fast-only")]
mod with_the_feature {
    use super::*;

    #[test]
    fn r_fx_7_fast_only_refuses_legacy_deferred_contexts() {
        const { assert!(!LEGACY_BUILT) };
        let device = Device::new(DeviceDesc::default());
        let error = device
            .create_deferred_context(&DeferredContextDesc {
                name: "legacy",
                semantics: Semantics::Legacy,
                ..Default::default()
            })
            .expect_err("a legacy context is refused in the fast-only build");
        assert!(
            matches!(
                error,
                Error::InvalidDesc {
                    call: "create_deferred_context",
                    problem: DescProblem::FastOnlyBuild,
                    ..
                }
            ),
            "{error:?}"
        );
        let message = error.to_string();
        assert!(message.contains("fast-only"), "{message}");
        assert!(message.contains("R-FX-7"), "{message}");
        assert!(message.contains("'legacy'"), "{message}");
    }

    #[test]
    fn r_fx_7_fast_only_refuses_a_legacy_immediate_context() {
        let device = Device::new(DeviceDesc {
            immediate_semantics: Semantics::Legacy,
            ..DeviceDesc::default()
        });
        let error = device
            .immediate_recorder()
            .expect_err("a legacy immediate context is refused");
        assert!(
            matches!(
                error,
                Error::InvalidDesc {
                    problem: DescProblem::FastOnlyBuild,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(error.to_string().contains("fast-only"));
        // A fast immediate context is made (and only one: the refusal took none).
        let device = Device::new(DeviceDesc {
            immediate_semantics: Semantics::Fast,
            ..DeviceDesc::default()
        });
        let mut immediate = device
            .immediate_recorder()
            .expect("a fast immediate context");
        immediate.draw(3, 0);
        assert_eq!(immediate.take_batch().expect("a batch").stats().draws, 1);
    }

    #[test]
    fn r_fx_7_fast_only_records_fast_calls_as_the_default_build_does() {
        let device = Device::new(DeviceDesc::default());
        let commands = record_fast(&device);
        assert_eq!(commands.len(), 4, "{commands:?}");
        assert!(commands[0].starts_with("SetShader"), "{commands:?}");
        assert!(commands[1].starts_with("SetInputLayout"), "{commands:?}");
        // Fast semantics still validates: a released shader is refused, never undefined.
        let vs = shader(&device, Stage::Vertex);
        device.release(vs);
        let mut context = device
            .create_deferred_context(&DeferredContextDesc {
                semantics: Semantics::Fast,
                ..Default::default()
            })
            .expect("a fast context");
        context.set_shader(Stage::Vertex, Some(vs));
        assert_eq!(
            context.error().map(|e| e.error.kind()),
            Some(ErrorKind::ReleasedObject)
        );
    }
}

#[cfg(not(feature = "fast-only"))]
mod without_the_feature {
    use super::*;

    #[test]
    fn r_fx_7_default_build_keeps_the_legacy_paths() {
        const { assert!(LEGACY_BUILT) };
        let device = Device::new(DeviceDesc::default());
        let mut legacy = device
            .create_deferred_context(&DeferredContextDesc {
                name: "legacy",
                semantics: Semantics::Legacy,
                ..Default::default()
            })
            .expect("the default build makes legacy contexts");
        let vs = shader(&device, Stage::Vertex);
        legacy.set_shader(Stage::Vertex, Some(vs));
        // The legacy shadow is there (R-ST-1): the binding is read back.
        let bound = legacy
            .legacy_state()
            .map(|s| s.shader(Stage::Vertex).shader);
        assert!(bound.is_some_and(|shader| !shader.is_null()), "{bound:?}");
        assert!(device.immediate_recorder().is_ok());
    }

    #[test]
    fn r_fx_7_default_build_records_fast_calls_as_the_fast_only_build_does() {
        let device = Device::new(DeviceDesc::default());
        let commands = record_fast(&device);
        assert_eq!(commands.len(), 4, "{commands:?}");
        assert!(commands[0].starts_with("SetShader"), "{commands:?}");
        assert!(commands[1].starts_with("SetInputLayout"), "{commands:?}");
    }
}
