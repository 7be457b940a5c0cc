//! Enhanced and legacy barriers (SPEC §9): what recording and execution do with them.

mod common;

use bundles::{BundleDesc, BundleRecorder};
use common::*;
use executor::ImmediateContext;
use recorder::*;

fn to_shader_resource(texture: Texture) -> TextureBarrier {
    TextureBarrier {
        sync_before: BarrierSync::RENDER_TARGET,
        sync_after: BarrierSync::PIXEL_SHADING,
        access_before: BarrierAccess::RENDER_TARGET,
        access_after: BarrierAccess::SHADER_RESOURCE,
        layout_before: BarrierLayout::RenderTarget,
        layout_after: BarrierLayout::ShaderResource,
        resource: texture.into(),
        subresources: BarrierSubresources::ALL,
        discard: false,
    }
}

/// R-BAR-1: a barrier call is recorded into a list as one command, on either semantics, and
/// the list reads it back barrier by barrier with its group and index.
#[test]
fn r_bar_1_barriers_are_recorded_into_lists_in_groups() {
    let f = Fixture::with_immediate(Semantics::Fast);
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let global = [GlobalBarrier {
            sync_before: BarrierSync::ALL,
            sync_after: BarrierSync::ALL,
            access_before: BarrierAccess::UNORDERED_ACCESS,
            access_after: BarrierAccess::UNORDERED_ACCESS,
        }];
        let textures = [to_shader_resource(f.rt), to_shader_resource(f.rt)];
        let list = f.list(semantics, |c| {
            c.barrier(&[
                BarrierGroup::Global(&global),
                BarrierGroup::Texture(&textures),
            ]);
        });
        let barriers: Vec<BarrierRecord> = list
            .commands()
            .flat_map(|d| match d.command {
                command::Command::Barrier { barriers } => barriers.to_vec(),
                _ => Vec::new(),
            })
            .collect();
        assert_eq!(barriers.len(), 3, "{semantics:?}");
        assert_eq!(barriers[0].kind(), BarrierKind::Global);
        assert_eq!((barriers[2].group, barriers[2].index), (1, 1));
        assert_eq!(barriers[2].layout_after(), BarrierLayout::ShaderResource);
        assert_eq!(
            barriers[2].resource(),
            Some(NamedResource {
                handle: f.rt.raw(),
                kind: ObjectKind::Texture
            })
        );
    }
}

/// R-BAR-1: a bundle records no barrier (`unsupported_in_bundle`).
#[test]
fn r_bar_1_a_bundle_refuses_barriers() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut bundle = BundleRecorder::new(&f.device, &BundleDesc::new("b", &[])).unwrap();
    bundle.barrier(&[BarrierGroup::Texture(&[to_shader_resource(f.rt)])]);
    let error = bundle.finish().unwrap_err();
    assert_eq!(
        error.error.kind(),
        ErrorKind::UnsupportedInBundle,
        "{error}"
    );
    bundle.resource_barrier(&[ResourceBarrier::Uav { resource: None }]);
    let error = bundle.finish().unwrap_err();
    assert_eq!(
        error.error.kind(),
        ErrorKind::UnsupportedInBundle,
        "{error}"
    );
}

/// R-BAR-1, R-OBJ-4: a barrier naming a released resource is refused; a legacy list keeps the
/// resources its barriers name alive.
#[test]
fn r_bar_1_barriers_name_live_resources_and_legacy_lists_hold_them() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let texture = f
        .device
        .create_texture(&TextureDesc {
            name: "target",
            width: 4,
            height: 4,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let before = f.device.references(texture);
    let list = f.legacy(|c| c.barrier(&[BarrierGroup::Texture(&[to_shader_resource(texture)])]));
    assert_eq!(
        f.device.references(texture),
        before.map(|r| r + 1),
        "the legacy list holds it"
    );
    drop(list);
    assert_eq!(
        f.device.references(texture),
        before,
        "given back with the list"
    );
    f.device.release(texture);
    let mut context = f
        .device
        .create_deferred_context(&DeferredContextDesc::default())
        .unwrap();
    context.barrier(&[BarrierGroup::Texture(&[to_shader_resource(texture)])]);
    let error = context
        .finish_command_list(RestoreState::ClearState)
        .unwrap_err();
    assert_eq!(error.error.kind(), ErrorKind::ReleasedObject, "{error}");
}

/// R-BAR-8: `barriers` counts every barrier executed, legacy ones too.
#[test]
fn r_bar_8_barriers_counts_every_barrier_executed() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let list = f.fast(|c| {
        c.barrier(&[BarrierGroup::Texture(&[
            to_shader_resource(f.rt),
            to_shader_resource(f.rt),
        ])]);
        c.resource_barrier(&[ResourceBarrier::Uav { resource: None }]);
    });
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(imm.counters().barriers, 3);
}
