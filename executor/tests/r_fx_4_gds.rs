//! R-FX-4: the global data store. `write_gds` / `read_gds` / `set_gds_range` on every context,
//! always with fast semantics (no reference, no split point); GDS words and the buffer words
//! `read_gds` writes kept by the GPU model; append and counter UAVs under fast semantics with a
//! GDS range of their stage set on the same context.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::limits::GDS_BYTES;
use recorder::*;

fn buffer(f: &Fixture, name: &str, usage: Usage, uav_flag: UavFlag) -> Buffer {
    let bind = match usage {
        Usage::Staging => BindFlags::NONE,
        _ => BindFlags::UNORDERED_ACCESS,
    };
    let desc = BufferDesc {
        name,
        size: 256,
        usage,
        bind,
        uav_flag,
        placement: None,
    };
    f.device.create_buffer(&desc).unwrap()
}

/// An append UAV on a buffer of its own.
fn append_uav(f: &Fixture) -> UnorderedAccessView {
    let counted = buffer(f, "appended", Usage::Default, UavFlag::Append);
    f.device
        .create_unordered_access_view(&ViewDesc::new("appended_uav", counted))
        .unwrap()
}

/// Whether `call` was accepted (the calls counted moved by one).
fn accepted<C: DeviceContext>(c: &mut C, call: impl FnOnce(&mut C)) -> bool {
    let before = c.stats().calls;
    call(c);
    c.stats().calls == before + 1
}

fn out_of_range(error: Option<&Error>, argument: &str) {
    match error {
        Some(Error::OutOfRange { argument: a, .. }) if *a == argument => {}
        other => panic!("expected out_of_range on {argument}, got {other:?}"),
    }
}

#[test]
fn r_fx_4_write_then_read_gds() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let readback = buffer(&f, "readback", Usage::Staging, UavFlag::None);
    assert_eq!(imm.gds_words(0, 4).unwrap(), [0; 4], "GDS is zero at first");
    imm.write_gds(64, &[1, 2, 3]);
    imm.write_gds(68, &[20]);
    imm.read_gds(60, 5, readback, 8);
    assert!(imm.last_refusal().is_none(), "{:?}", imm.last_refusal());
    assert_eq!(imm.gds_words(60, 5).unwrap(), [0, 1, 20, 3, 0]);
    assert_eq!(
        imm.buffer_words(readback, 0, 8).unwrap(),
        [0, 0, 0, 1, 20, 3, 0, 0]
    );
    // The last word of GDS is addressable, the next is not.
    imm.write_gds(GDS_BYTES - 4, &[9]);
    assert!(imm.last_refusal().is_none());
    assert_eq!(imm.gds_words(GDS_BYTES - 4, 1).unwrap(), [9]);
}

#[test]
fn r_fx_4_gds_calls_in_lists_equal_direct() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let target = buffer(&f, "target", Usage::Default, UavFlag::None);
    let record = |c: &mut DeferredContext| {
        c.set_gds_range(Stage::Compute, 128, 64);
        c.write_gds(128, &[5, 6, 7, 8]);
        c.read_gds(132, 2, target, 16);
    };
    let want = {
        let mut direct = ImmediateContext::new(&f.device).unwrap();
        direct.set_gds_range(Stage::Compute, 128, 64);
        direct.write_gds(128, &[5, 6, 7, 8]);
        direct.read_gds(132, 2, target, 16);
        direct.gpu().memory().clone()
    };
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let list = f.list(semantics, record);
        assert_eq!(list.stats().split_points.total(), 0, "{semantics:?}");
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        let memory = imm.gpu().memory().clone();
        assert_eq!(memory, want, "{semantics:?} list vs direct");
        assert_eq!(memory.gds_range(Stage::Compute), (128, 64));
        assert_eq!(imm.buffer_words(target, 16, 3).unwrap(), [6, 7, 0]);
    }
}

#[test]
fn r_fx_4_range_stage_and_bounds() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let target = buffer(&f, "target", Usage::Default, UavFlag::None);
    imm.set_gds_range(Stage::Vertex, 0, 64);
    out_of_range(imm.last_refusal(), "stage");
    imm.set_gds_range(Stage::Pixel, GDS_BYTES - 64, 128);
    out_of_range(imm.last_refusal(), "range");
    imm.set_gds_range(Stage::Pixel, 2, 64);
    out_of_range(imm.last_refusal(), "range");
    imm.write_gds(GDS_BYTES - 4, &[1, 2]);
    out_of_range(imm.last_refusal(), "offset");
    imm.write_gds(0, &[]);
    out_of_range(imm.last_refusal(), "values");
    imm.read_gds(0, 0, target, 0);
    out_of_range(imm.last_refusal(), "count");
    imm.read_gds(0, 65, target, 0);
    out_of_range(imm.last_refusal(), "destination_offset");
    imm.read_gds(0, 1, target, 6);
    out_of_range(imm.last_refusal(), "destination_offset");
    imm.read_gds(u32::MAX - 3, 1, target, 0);
    out_of_range(imm.last_refusal(), "offset");
    let fixed = f.vb;
    imm.read_gds(0, 1, fixed, 0);
    assert!(
        matches!(imm.last_refusal(), Some(Error::WrongUsage { .. })),
        "an immutable destination: {:?}",
        imm.last_refusal()
    );
    assert_eq!(
        imm.last_refusal().map(Error::kind),
        Some(ErrorKind::InvalidArgument)
    );
    // Nothing refused reached the model.
    assert!(imm.gpu().memory().is_empty());
    assert!(accepted(&mut imm, |c| c.set_gds_range(
        Stage::Pixel,
        0,
        GDS_BYTES
    )));
    assert!(accepted(&mut imm, |c| c.set_gds_range(
        Stage::Compute,
        64,
        0
    )));
    assert_eq!(imm.gpu().memory().gds_range(Stage::Pixel), (0, GDS_BYTES));

    // A compute context has the compute stage's range only; a DMA context none.
    let compute = |engine| {
        f.device
            .create_deferred_context(&DeferredContextDesc {
                name: "engine",
                semantics: Semantics::Fast,
                engine,
                ..Default::default()
            })
            .unwrap()
    };
    let mut cc = compute(Engine::Compute);
    cc.set_gds_range(Stage::Compute, 0, 64);
    assert!(cc.last_refusal().is_none());
    cc.set_gds_range(Stage::Pixel, 0, 64);
    out_of_range(cc.last_refusal(), "stage");
    let mut dma = compute(Engine::Dma);
    dma.set_gds_range(Stage::Compute, 0, 64);
    out_of_range(dma.last_refusal(), "stage");
}

#[test]
fn r_fx_4_append_uav_fast_with_gds_range() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let uav = append_uav(&f);
    let list = f.fast(|c| {
        c.set_gds_range(Stage::Compute, 0, 16);
        c.set_compute_unordered_access_views(0, &[Some(uav)]);
        c.set_gds_range(Stage::Pixel, 16, 16);
        c.set_render_targets_and_unordered_access_views(&[], None, 0, &[Some(uav)]);
        c.set_shader(Stage::Compute, Some(f.cs));
        c.dispatch(1, 1, 1);
    });
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(imm.records()[0].field("cs.uav.0"), Some(object(uav)));
    // The immediate context: a range set by an earlier direct call counts.
    imm.set_gds_range(Stage::Compute, 0, 16);
    imm.set_compute_unordered_access_views(0, &[Some(uav)]);
    assert!(imm.last_refusal().is_none(), "{:?}", imm.last_refusal());
    // The counters are the application's: the model does not advance them.
    imm.set_shader(Stage::Compute, Some(f.cs));
    imm.dispatch(1, 1, 1);
    assert_eq!(imm.gds_words(0, 4).unwrap(), [0; 4]);
}

#[test]
fn r_fx_4_append_uav_fast_without_range_refused() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let uav = append_uav(&f);
    let forbidden = |c: &DeferredContext| {
        assert!(
            matches!(c.last_refusal(), Some(Error::ForbiddenInFast { .. })),
            "{:?}",
            c.last_refusal()
        );
    };
    // No range at all.
    let mut c = f.context(Semantics::Fast);
    c.set_compute_unordered_access_views(0, &[Some(uav)]);
    forbidden(&c);
    // A range of size 0, or of the other stage, does not count.
    let mut c = f.context(Semantics::Fast);
    c.set_gds_range(Stage::Compute, 0, 0);
    c.set_gds_range(Stage::Pixel, 0, 64);
    c.set_compute_unordered_access_views(0, &[Some(uav)]);
    forbidden(&c);
    // A list starts with none: the previous list's range does not carry over.
    let mut c = f.context(Semantics::Fast);
    c.set_gds_range(Stage::Compute, 0, 64);
    c.set_compute_unordered_access_views(0, &[Some(uav)]);
    assert!(c.last_refusal().is_none());
    c.finish_command_list(RestoreState::ClearState).unwrap();
    c.set_compute_unordered_access_views(0, &[Some(uav)]);
    forbidden(&c);
    // A legacy context binds them as before, with no range.
    let mut legacy = f.context(Semantics::Legacy);
    legacy.set_compute_unordered_access_views(0, &[Some(uav)]);
    assert!(legacy.last_refusal().is_none());
    // A bundle refuses GDS calls: it has no `EngineMemoryCalls` (`set_gds_range` does not
    // compile on it); made by name, the call gets `unsupported_in_bundle`.
    let mut bundle =
        bundles::BundleRecorder::new(&f.device, &bundles::BundleDesc::new("b", &[])).unwrap();
    bundle.refuse_missing_capability("set_gds_range", Capability::EngineMemory);
    assert_eq!(
        bundle.last_refusal().map(Error::kind),
        Some(ErrorKind::UnsupportedInBundle)
    );
}

#[test]
fn r_fx_4_legacy_takes_no_reference() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let target = buffer(&f, "target", Usage::Default, UavFlag::None);
    let before = f.device.references(target);
    let list = f.legacy(|c| {
        c.write_gds(0, &[1]);
        c.read_gds(0, 1, target, 0);
    });
    assert_eq!(
        f.device.references(target),
        before,
        "no reference on the buffer"
    );
    assert_eq!(list.stats().split_points.total(), 0);
    // A legacy immediate context takes none either.
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.read_gds(0, 1, target, 4);
    assert_eq!(f.device.references(target), before);
    imm.execute_command_list(&list, RestoreState::ClearState)
        .unwrap();
    assert_eq!(imm.buffer_words(target, 0, 2).unwrap(), [1, 0]);
}

#[test]
fn r_fx_4_read_gds_is_a_fast_use_of_its_buffer() {
    // Legacy: a map of the buffer read_gds wrote does not wait (the application synchronises:
    // always fast semantics).
    let f = Fixture::with_immediate(Semantics::Legacy);
    let readback = buffer(&f, "readback", Usage::Staging, UavFlag::None);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.read_gds(0, 1, readback, 0);
    imm.store_constant_ram(readback, 4, 0, 4);
    assert!(imm
        .map(readback, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .is_ok());
    imm.unmap(readback);
    assert_eq!(imm.counters().fence_waits, 0, "no wait for a fast use");
    drop(imm);
    // Under validation, a map before a fence after it is reported (R-EX-6, R-V-1) ...
    let f = Fixture::validated(Semantics::Fast);
    let readback = buffer(&f, "readback", Usage::Staging, UavFlag::None);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    imm.read_gds(0, 1, readback, 0);
    let error = imm
        .map(readback, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ResourceInUse, "{error}");
    // ... and a fence seen passed clears it.
    let fence = imm.insert_fence(Engine::Graphics);
    assert!(!imm.is_fence_pending(fence));
    assert!(imm
        .map(readback, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .is_ok());
    imm.unmap(readback);
}
