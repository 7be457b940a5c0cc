//! R-EX-7, views of a swap chain's back buffers (seed 000): under legacy semantics a present
//! shifts every such view to the buffer that now holds its position and the legacy immediate
//! context re-binds the slots bound to them; under fast semantics nothing moves but what the
//! application places (`Device::place_swap_chain_view`); a recorded list keeps the back buffer
//! it encoded, under both.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::*;

fn texture(f: &Fixture, chain: SwapChain, index: usize) -> Texture {
    f.device.swap_chain_info(chain).unwrap().buffers[index].0
}

/// The render target the last draw wrote.
fn last_target(imm: &mut ImmediateContext) -> RawHandle {
    let records = imm.records();
    let graphics = records.last().unwrap().graphics.as_ref().unwrap();
    graphics.render_targets[0].resource
}

fn draw_into(f: &Fixture, c: &mut impl DeviceContext, rtv: RenderTargetView) {
    c.set_shader(Stage::Vertex, Some(f.vs));
    c.set_render_targets(&[Some(rtv)], None);
    c.draw(3, 0);
}

#[test]
fn r_ex_7_a_legacy_present_shifts_every_view_of_the_back_buffers() {
    let f = Fixture::new();
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let srv = f
        .device
        .create_shader_resource_view(&ViewDesc::new("chain.2.srv", texture(&f, chain, 2)))
        .unwrap();
    let rtv = |i| back_buffer_rtv(&f, chain, i);
    imm.present(chain).unwrap();
    assert_eq!(f.device.current_back_buffer(chain), Some(1));
    for (view, now) in [(0, 1), (1, 2), (2, 0)] {
        assert_eq!(
            f.device.swap_chain_view_buffer(rtv(view)),
            Some((chain, now)),
            "the view made on buffer {view} follows the rotation"
        );
    }
    assert_eq!(f.device.swap_chain_view_buffer(srv), Some((chain, 0)));
    // The view made on the current back buffer names the current one after every present.
    imm.present(chain).unwrap();
    let current = f.device.current_back_buffer(chain).unwrap();
    assert_eq!(
        f.device.swap_chain_view_buffer(rtv(0)),
        Some((chain, current))
    );
    // Each view holds one reference on the buffer it names, none on the one it left (R-OBJ-4).
    let refs: Vec<u32> = (0..3)
        .map(|i| f.device.references(texture(&f, chain, i)).unwrap())
        .collect();
    // Two presents: chain.0.rtv names buffer 2, chain.1.rtv buffer 0, chain.2.rtv and srv 1.
    assert_eq!(refs, [1, 2, 1], "buffer 1 holds chain.2.rtv's and srv's");
}

#[test]
fn r_ex_7_the_legacy_immediate_context_rebinds_slots_bound_to_shifted_views() {
    let f = Fixture::new();
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let srv = f
        .device
        .create_shader_resource_view(&ViewDesc::new("chain.2.srv", texture(&f, chain, 2)))
        .unwrap();
    imm.set_shader_resources(Stage::Vertex, 0, &[Some(srv)]);
    draw_into(&f, &mut imm, back_buffer_rtv(&f, chain, 0));
    assert_eq!(last_target(&mut imm), texture(&f, chain, 0).raw());
    imm.present(chain).unwrap();
    // No bind by the application: the driver re-bound the shifted views.
    imm.draw(3, 0);
    imm.flush().unwrap();
    assert_eq!(last_target(&mut imm), texture(&f, chain, 1).raw());
    let records = imm.records();
    let vs = records.last().unwrap().stage(Stage::Vertex).unwrap();
    let read = vs.shader_resource(0).unwrap().resource;
    assert_eq!(read, texture(&f, chain, 0).raw(), "srv moved from 2 to 0");
}

#[test]
fn r_ex_7_a_fast_present_moves_no_view() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.present(chain).unwrap();
    for i in 0..3 {
        let view = back_buffer_rtv(&f, chain, i);
        assert_eq!(
            f.device.swap_chain_view_buffer(view),
            Some((chain, i as u32))
        );
    }
}

#[test]
fn r_ex_7_place_swap_chain_view_moves_the_view_at_once_and_bound_copies_keep_theirs() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let chain = swap_chain(&f);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let view = back_buffer_rtv(&f, chain, 0);
    imm.present(chain).unwrap();
    f.device.place_swap_chain_view(view, 1).unwrap();
    assert_eq!(f.device.swap_chain_view_buffer(view), Some((chain, 1)));
    draw_into(&f, &mut imm, view);
    imm.flush().unwrap();
    assert_eq!(last_target(&mut imm), texture(&f, chain, 1).raw());
    // Moved while bound: the binding keeps what it encoded until the view is bound again.
    f.device.place_swap_chain_view(view, 2).unwrap();
    imm.draw(3, 0);
    imm.flush().unwrap();
    assert_eq!(last_target(&mut imm), texture(&f, chain, 1).raw());
    imm.set_render_targets(&[Some(view)], None);
    imm.draw(3, 0);
    imm.flush().unwrap();
    assert_eq!(last_target(&mut imm), texture(&f, chain, 2).raw());
    let refs: Vec<u32> = (0..3)
        .map(|i| f.device.references(texture(&f, chain, i)).unwrap())
        .collect();
    assert_eq!(refs[0], 0, "the view gave back buffer 0's reference");
}

#[test]
fn r_ex_7_place_swap_chain_view_refuses_what_it_cannot_place() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let chain = swap_chain(&f);
    let view = back_buffer_rtv(&f, chain, 0);
    let error = f.device.place_swap_chain_view(f.rt_rtv, 1).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    assert!(error.to_string().contains("R-EX-7"), "{error}");
    let error = f.device.place_swap_chain_view(view, 3).unwrap_err();
    assert!(
        error.to_string().contains("'chain' has 3 back buffers"),
        "{error}"
    );
    let error = f.device.place_swap_chain_view(f.sampler, 0).unwrap_err();
    assert!(
        error.to_string().contains("place_swap_chain_view"),
        "{error}"
    );
    let other = Fixture::with_immediate(Semantics::Fast);
    let error = other.device.place_swap_chain_view(view, 1).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    let srv = f
        .device
        .create_shader_resource_view(&ViewDesc::new("chain.0.srv", texture(&f, chain, 0)))
        .unwrap();
    f.device.release(srv);
    let error = f.device.place_swap_chain_view(srv, 1).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ReleasedObject, "{error}");
    assert!(error.to_string().contains("chain.0.srv"), "{error}");
    assert_eq!(
        f.device.swap_chain_view_buffer(view),
        Some((chain, 0)),
        "refusals change nothing"
    );
}

#[test]
fn r_ex_7_a_recorded_list_keeps_its_back_buffer_after_present_and_placement() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::with_immediate(semantics);
        let chain = swap_chain(&f);
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        let view = back_buffer_rtv(&f, chain, 0);
        let list = f.list(semantics, |c| draw_into(&f, c, view));
        imm.present(chain).unwrap();
        f.device.place_swap_chain_view(view, 2).unwrap();
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        assert_eq!(
            last_target(&mut imm),
            texture(&f, chain, 0).raw(),
            "{semantics:?}: the list is not patched (affinity)"
        );
        assert_eq!(list.back_buffer_affinity(), Some((chain, 0)));
    }
}

/// A view of a buffer is no view of a back buffer, whatever its handle: each table numbers its
/// own handles, so a buffer's may read as a live back buffer's in the texture table. Neither
/// `swap_chain_view_buffer` nor `place_swap_chain_view` may take it for one.
#[test]
fn r_ex_7_a_buffer_view_is_never_a_swap_chain_view() {
    let device = Device::new(DeviceDesc::default());
    let chain = device
        .create_swap_chain(&SwapChainDesc {
            name: "sc",
            buffers: 3,
            format: Format::R8G8B8A8Unorm,
            width: 16,
            height: 16,
        })
        .unwrap();
    for k in 0..6 {
        let name = format!("b{k}");
        let buffer = device
            .create_buffer(&BufferDesc {
                name: &name,
                size: 256,
                bind: BindFlags::SHADER_RESOURCE,
                ..Default::default()
            })
            .unwrap();
        let view = device
            .create_shader_resource_view(&ViewDesc::new(&name, buffer))
            .unwrap();
        assert_eq!(device.swap_chain_view_buffer(view), None, "{name}");
        let error = device.place_swap_chain_view(view, 1).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{name}: {error}");
        let info = device.view_info(view).unwrap();
        assert_eq!(info.resource, Resource::Buffer(buffer), "{name}: not moved");
    }
    assert!(device.swap_chain_info(chain).is_some());
}
