//! Heaps, placed resources, aliasing activation and region copies (SPEC R-BAR-7, R-BAR-1's
//! "activating one placed resource deactivates the others that overlap it").

use executor::ImmediateContext;
use proptest::prelude::*;
use recorder::*;

fn fast_device() -> Device {
    Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        ..DeviceDesc::default()
    })
}

fn heap(device: &Device, name: &str, size: u64) -> Heap {
    device
        .create_heap(&HeapDesc { name, size })
        .unwrap_or_else(|e| panic!("create_heap {name}: {e}"))
}

/// A 64x64 `r8g8b8a8_unorm` render target (16384 bytes), placed at `offset` of `heap`.
fn placed_texture(device: &Device, name: &str, heap: Heap, offset: u64) -> Texture {
    device
        .create_texture(&TextureDesc {
            name,
            width: 64,
            height: 64,
            bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
            placement: Some(Placement { heap, offset }),
            ..TextureDesc::default()
        })
        .unwrap_or_else(|e| panic!("create_texture {name}: {e}"))
}

fn placed_buffer(device: &Device, name: &str, heap: Heap, offset: u64, size: u32) -> Buffer {
    device
        .create_buffer(&BufferDesc {
            name,
            size,
            bind: BindFlags::SHADER_RESOURCE,
            placement: Some(Placement { heap, offset }),
            ..BufferDesc::default()
        })
        .unwrap_or_else(|e| panic!("create_buffer {name}: {e}"))
}

/// The seed's activation barrier of `texture` (R-BAR-7): from `undefined` with `no_access`.
fn activate(texture: Texture, discard: bool) -> TextureBarrier {
    TextureBarrier {
        sync_before: BarrierSync::RENDER_TARGET,
        sync_after: BarrierSync::COPY,
        access_before: BarrierAccess::NO_ACCESS,
        access_after: BarrierAccess::COPY_SOURCE,
        layout_before: BarrierLayout::Undefined,
        layout_after: BarrierLayout::CopySource,
        resource: texture.into(),
        subresources: BarrierSubresources {
            mips: Span::new(0, 0),
            array: Span::new(0, 0),
            planes: Span::ALL,
        },
        discard,
    }
}

/// R-BAR-7: a heap is an object of its own; placed resources say where they are, and the
/// device answers with their byte ranges; a texture's size is defined from its shape.
#[test]
fn r_bar_7_placed_resources_know_their_heap_and_range() {
    let device = fast_device();
    let h = heap(&device, "h", 1 << 20);
    assert_eq!(device.heap_size(h), Some(1 << 20));
    assert_eq!(device.name_of(h).as_deref(), Some("h"));
    let tex = placed_texture(&device, "t", h, 4096);
    let buf = placed_buffer(&device, "b", h, 0, 256);
    let info = device.texture_info(tex).expect("texture info");
    assert_eq!(
        device.placement(tex.into()),
        Some(Placement {
            heap: h,
            offset: 4096
        })
    );
    assert_eq!(info.byte_size(), 64 * 64 * 4);
    assert_eq!(
        device.placed_range(tex.into()),
        Some((h, 4096, 4096 + 64 * 64 * 4))
    );
    assert_eq!(device.placed_range(buf.into()), Some((h, 0, 256)));
    let committed = device
        .create_buffer(&BufferDesc {
            name: "c",
            size: 64,
            ..BufferDesc::default()
        })
        .expect("committed");
    assert_eq!(device.placement(committed.into()), None);
    assert_eq!(device.placed_range(committed.into()), None);
    // Mips, array slices, samples and block-compressed formats count as documented.
    let shape = TextureInfo {
        format: Format::Bc1Unorm,
        width: 10,
        height: 6,
        mip_levels: 2,
        array_size: 3,
        sample_count: 1,
        ..info
    };
    // Mip 0: 3x2 blocks, mip 1 (5x3): 2x1 blocks; 8 bytes a block; 3 slices.
    assert_eq!(shape.byte_size(), (6 + 2) * 8 * 3);
}

/// R-BAR-7: a placed resource past the end of its heap, or in a heap the application released,
/// is refused with a clear error naming the call, the resource and the sizes.
#[test]
fn r_bar_7_a_placed_resource_must_fit_a_live_heap() {
    let device = fast_device();
    let h = heap(&device, "small", 16384);
    let err = device
        .create_texture(&TextureDesc {
            name: "big",
            width: 64,
            height: 65,
            placement: Some(Placement { heap: h, offset: 0 }),
            ..TextureDesc::default()
        })
        .expect_err("too big");
    assert!(
        matches!(
            err,
            Error::InvalidDesc {
                call: "create_texture",
                problem: DescProblem::DoesNotFitHeap {
                    offset: 0,
                    size: 16640,
                    heap_size: 16384
                },
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    let text = err.to_string();
    assert!(
        text.contains("texture 'big'") && text.contains("R-BAR-7"),
        "{text}"
    );
    let err = device
        .create_buffer(&BufferDesc {
            name: "past_end",
            size: 16,
            placement: Some(Placement {
                heap: h,
                offset: u64::MAX - 4,
            }),
            ..BufferDesc::default()
        })
        .expect_err("offset overflows");
    assert!(matches!(
        err,
        Error::InvalidDesc {
            call: "create_buffer",
            problem: DescProblem::DoesNotFitHeap { .. },
            ..
        }
    ));
    // Exactly the heap's size fits.
    placed_texture(&device, "exact", h, 0);
    let err = device
        .create_heap(&HeapDesc {
            name: "empty",
            size: 0,
        })
        .expect_err("zero size");
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);

    device.release(h);
    let err = device
        .create_buffer(&BufferDesc {
            name: "late",
            size: 16,
            placement: Some(Placement { heap: h, offset: 0 }),
            ..BufferDesc::default()
        })
        .expect_err("released heap");
    assert_eq!(err.kind(), ErrorKind::ReleasedObject, "{err}");
    assert!(err.to_string().contains("heap 'small'"), "{err}");
}

/// R-BAR-7 with R-OBJ-4: a placed resource keeps its heap alive; the heap goes with its last
/// resource.
#[test]
fn r_bar_7_a_placed_resource_keeps_its_heap_alive() {
    let device = fast_device();
    let h = heap(&device, "h", 1 << 16);
    let buf = placed_buffer(&device, "b", h, 0, 256);
    device.release(h);
    assert_eq!(device.heap_size(h), Some(1 << 16), "held by its buffer");
    device.release(buf);
    device.process_deferred_releases();
    assert!(!device.is_alive(buf));
    device.process_deferred_releases();
    assert!(!device.is_alive(h), "the heap goes with its last resource");
    assert_eq!(device.live_objects(ObjectKind::Heap), 0);
}

/// R-BAR-7, R-BAR-1, the seed's example: `pTex0` and `pTex1` alias in one heap; the barrier that
/// takes `pTex1` from `undefined` / `no_access` activates it and deactivates `pTex0`; a legacy
/// aliasing barrier takes the memory back. Before any activation both are active (the choice
/// `gpu/placed.rs` documents); resources elsewhere in the heap are untouched.
#[test]
fn r_bar_7_activating_an_alias_deactivates_the_overlapping_ones() {
    let device = fast_device();
    let mut imm = ImmediateContext::new(&device).expect("immediate");
    let h = heap(&device, "h", 1 << 16);
    let tex0 = placed_texture(&device, "pTex0", h, 0);
    let tex1 = placed_texture(&device, "pTex1", h, 8192); // overlaps the second half of pTex0
    let apart = placed_texture(&device, "apart", h, 32768);
    let buf = placed_buffer(&device, "buf", h, 16384, 1024); // overlaps pTex1 only
    for r in [Resource::from(tex0), tex1.into(), apart.into(), buf.into()] {
        assert!(imm.gpu().is_active(r), "{r:?} before any activation");
    }
    let transition = TextureBarrier {
        sync_before: BarrierSync::RENDER_TARGET,
        sync_after: BarrierSync::COPY,
        access_before: BarrierAccess::RENDER_TARGET,
        access_after: BarrierAccess::COPY_SOURCE,
        layout_before: BarrierLayout::RenderTarget,
        layout_after: BarrierLayout::DirectQueueCopySource,
        resource: tex0.into(),
        subresources: BarrierSubresources {
            mips: Span::new(0, 0),
            array: Span::new(0, 0),
            planes: Span::ALL,
        },
        discard: false,
    };
    imm.barrier(&[BarrierGroup::Texture(&[transition, activate(tex1, false)])]);
    let gpu = imm.gpu();
    assert!(gpu.is_active(tex1.into()));
    assert!(
        !gpu.is_active(tex0.into()),
        "pTex0 is pTex1's deactivated alias"
    );
    assert_eq!(gpu.deactivated_by(tex0.into()), Some(tex1.into()));
    assert!(!gpu.is_active(buf.into()));
    assert!(gpu.is_active(apart.into()), "no overlap, no change");
    assert_eq!(gpu.deactivated_by(apart.into()), None);

    // A barrier that does not start from undefined / no_access activates nothing.
    imm.barrier(&[BarrierGroup::Texture(&[TextureBarrier {
        resource: tex0.into(),
        ..transition
    }])]);
    assert!(!imm.gpu().is_active(tex0.into()));

    // Legacy: pTex1's memory becomes pTex0's.
    imm.resource_barrier(&[ResourceBarrier::Aliasing {
        before: Some(tex1.into()),
        after: Some(tex0.into()),
    }]);
    let gpu = imm.gpu();
    assert!(gpu.is_active(tex0.into()));
    assert!(!gpu.is_active(tex1.into()));
    assert_eq!(gpu.deactivated_by(tex1.into()), Some(tex0.into()));
    assert!(
        !gpu.is_active(buf.into()),
        "still pTex1's bytes' earlier owner"
    );

    // A buffer is activated by a buffer barrier from no_access; only the overlapped texture
    // goes.
    imm.barrier(&[BarrierGroup::Buffer(&[BufferBarrier {
        sync_before: BarrierSync::NONE,
        sync_after: BarrierSync::COPY,
        access_before: BarrierAccess::NO_ACCESS,
        access_after: BarrierAccess::COPY_DEST,
        resource: buf.into(),
        offset: 0,
        size: BufferBarrier::WHOLE,
    }])]);
    let gpu = imm.gpu();
    assert!(gpu.is_active(buf.into()));
    assert!(
        gpu.is_active(tex0.into()),
        "bytes 0..16384 do not reach the buffer"
    );
    assert!(!gpu.is_active(tex1.into()));

    // A legacy aliasing barrier with only `before` deactivates it by name.
    imm.resource_barrier(&[ResourceBarrier::Aliasing {
        before: Some(apart.into()),
        after: None,
    }]);
    assert_eq!(imm.gpu().deactivated_by(apart.into()), Some(apart.into()));
    assert_eq!(imm.last_refusal(), None);
}

/// R-BAR-7 across lists (R-BAR-5): the activation recorded in a deferred list takes effect when
/// the list executes, not when it is recorded, and a resource placed later over activated bytes
/// needs its own activation.
#[test]
fn r_bar_7_activation_in_a_list_happens_at_its_execution() {
    let device = fast_device();
    let mut imm = ImmediateContext::new(&device).expect("immediate");
    let h = heap(&device, "h", 1 << 16);
    let tex0 = placed_texture(&device, "pTex0", h, 0);
    let tex1 = placed_texture(&device, "pTex1", h, 0);
    let mut context = device
        .create_deferred_context(&DeferredContextDesc {
            semantics: Semantics::Fast,
            ..DeferredContextDesc::default()
        })
        .expect("context");
    context.barrier(&[BarrierGroup::Texture(&[activate(tex1, true)])]);
    let list = context
        .finish_command_list(RestoreState::ClearState)
        .expect("list");
    assert!(imm.gpu().is_active(tex0.into()), "recorded, not executed");
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("execute");
    assert!(!imm.gpu().is_active(tex0.into()));
    assert!(imm.gpu().is_active(tex1.into()));
    let late = placed_texture(&device, "late", h, 4096);
    assert!(!imm.gpu().is_active(late.into()));
    assert_eq!(imm.gpu().deactivated_by(late.into()), Some(tex1.into()));
}

/// R-BAR-8 with R-BAR-7: a refused barrier has no effect, so it activates nothing: pTex1's
/// activation barrier refused for a mip range outside the texture (validation), or refused as
/// an enhanced barrier of a texture whose legacy state is not common, leaves pTex0 active; a
/// legacy aliasing barrier refused on a `legacy_barriers=off` device that used enhanced barriers
/// moves nothing. The barrier accepted does.
#[test]
fn r_bar_8_a_refused_activation_activates_nothing() {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        validation: Validation::On,
        ..DeviceDesc::default()
    });
    let mut imm = ImmediateContext::new(&device).expect("immediate");
    let h = heap(&device, "h", 1 << 16);
    let tex0 = placed_texture(&device, "pTex0", h, 0);
    let tex1 = placed_texture(&device, "pTex1", h, 0);
    let outside = TextureBarrier {
        subresources: BarrierSubresources {
            mips: Span::new(0, 3),
            ..BarrierSubresources::ALL
        },
        ..activate(tex1, false)
    };
    imm.barrier(&[BarrierGroup::Texture(&[outside])]);
    let error = imm.flush().expect_err("refused");
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
    assert!(imm.gpu().is_active(tex0.into()), "nothing activated");
    assert_eq!(imm.gpu().deactivated_by(tex0.into()), None);

    // Not common in legacy terms: an enhanced barrier of it is refused (R-BAR-6).
    imm.resource_barrier(&[ResourceBarrier::Transition {
        resource: tex1.into(),
        before: ResourceStates::COMMON,
        after: ResourceStates::COPY_SOURCE,
        subresource: None,
        split: SplitHalf::None,
    }]);
    imm.flush().expect("a legacy transition");
    imm.barrier(&[BarrierGroup::Texture(&[activate(tex1, false)])]);
    let error = imm.flush().expect_err("refused");
    assert_eq!(error.kind(), ErrorKind::LegacyStateNotCommon, "{error}");
    assert!(imm.gpu().is_active(tex0.into()), "nothing activated");
    imm.resource_barrier(&[ResourceBarrier::Transition {
        resource: tex1.into(),
        before: ResourceStates::COPY_SOURCE,
        after: ResourceStates::COMMON,
        subresource: None,
        split: SplitHalf::None,
    }]);
    imm.barrier(&[BarrierGroup::Texture(&[activate(tex1, false)])]);
    imm.flush().expect("accepted");
    assert_eq!(imm.gpu().deactivated_by(tex0.into()), Some(tex1.into()));

    // legacy_barriers=off: once enhanced barriers ran, a legacy aliasing barrier is refused.
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        legacy_barriers: false,
        ..DeviceDesc::default()
    });
    let mut imm = ImmediateContext::new(&device).expect("immediate");
    let h = heap(&device, "h", 1 << 16);
    let tex0 = placed_texture(&device, "pTex0", h, 0);
    let tex1 = placed_texture(&device, "pTex1", h, 0);
    imm.barrier(&[BarrierGroup::Texture(&[activate(tex1, false)])]);
    imm.flush().expect("accepted");
    imm.resource_barrier(&[ResourceBarrier::Aliasing {
        before: Some(tex1.into()),
        after: Some(tex0.into()),
    }]);
    let error = imm.flush().expect_err("mixing refused");
    assert_eq!(error.kind(), ErrorKind::InvalidBarrier, "{error}");
    assert!(!imm.gpu().is_active(tex0.into()), "pTex0 still deactivated");
    assert!(imm.gpu().is_active(tex1.into()), "pTex1 still active");
}

/// A fast device validating hazards (R-V-2), its immediate context, a heap and the seed's
/// `pTex0` / `pTex1` over the same bytes.
fn aliased_pair() -> (Device, ImmediateContext, Texture, Texture) {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        validation: Validation::Hazards,
        ..DeviceDesc::default()
    });
    let imm = ImmediateContext::new(&device).expect("immediate");
    let h = heap(&device, "h", 1 << 16);
    let tex0 = placed_texture(&device, "pTex0", h, 0);
    let tex1 = placed_texture(&device, "pTex1", h, 4096);
    (device, imm, tex0, tex1)
}

/// The hazard `result` reports: (first call, second call, object, message).
fn alias_hazard(result: Result<(), Error>) -> (String, String, ObjectName, String) {
    match result {
        Err(error @ Error::Hazard { .. }) => {
            let message = error.to_string();
            let Error::Hazard {
                first_call,
                second_call,
                object,
            } = error
            else {
                unreachable!()
            };
            (first_call, second_call, object, message)
        }
        other => panic!("expected a hazard, got {other:?}"),
    }
}

/// R-BAR-7 with R-V-2, the seed's pair: once `pTex1` is activated, a copy reading `pTex0` (its
/// deactivated alias) is a hazard naming the copy and the barrier that activated `pTex1`,
/// reported once for that deactivation; `pTex0` activated again is used freely, and then a
/// clear of `pTex1` is the hazard, naming the barrier that activated `pTex0`. Resources that do
/// not overlap are untouched.
#[test]
fn r_bar_7_using_a_deactivated_alias_is_a_hazard() {
    let (device, mut imm, tex0, tex1) = aliased_pair();
    let targets: Vec<Texture> = (0..4)
        .map(|i| texture(&device, &format!("dst{i}"), BindFlags::SHADER_RESOURCE))
        .collect();
    // Before any activation both are usable (gpu/placed.rs's choice).
    imm.copy_resource(targets[0], tex0);
    imm.flush().expect("nothing activated yet");
    imm.barrier(&[BarrierGroup::Texture(&[activate(tex1, true)])]);
    imm.flush().expect("the activation is valid");
    imm.copy_resource(targets[1], tex0);
    let (first, second, object, message) = alias_hazard(imm.flush());
    assert_eq!(object.handle, tex0.raw(), "{message}");
    assert!(
        first.starts_with(
            "barrier (direct call 1 of the fast immediate context), activating texture 'pTex1' over its bytes"
        ),
        "{first}"
    );
    assert!(first.contains("activate texture 'pTex0' again"), "{first}");
    assert!(
        second.starts_with("copy_resource (direct call 2 of the fast immediate context)"),
        "{second}"
    );
    assert!(
        second.contains("reading it as the copy source, a deactivated alias"),
        "{second}"
    );
    for part in ["texture 'pTex0'", "R-BAR-7", "R-V-2"] {
        assert!(message.contains(part), "{part} in {message}");
    }
    // One report per deactivation, not per use.
    imm.copy_resource(targets[2], tex0);
    imm.flush().expect("already reported");
    assert_eq!(imm.counters().barriers, 1);

    // pTex0 activated again: usable; pTex1 is now the deactivated alias, and a clear writes it.
    imm.barrier(&[BarrierGroup::Texture(&[activate(tex0, false)])]);
    imm.flush().expect("the activation is valid");
    imm.copy_resource(targets[3], tex0);
    imm.flush().expect("pTex0 is active again");
    let rtv1 = device
        .create_render_target_view(&ViewDesc::new("pTex1_rtv", tex1))
        .expect("rtv");
    imm.clear_render_target_view(rtv1, [0.0; 4]);
    let (first, second, object, _) = alias_hazard(imm.flush());
    assert_eq!(object.handle, tex1.raw());
    assert!(
        first.starts_with(
            "barrier (direct call 4 of the fast immediate context), activating texture 'pTex0'"
        ),
        "{first}"
    );
    assert!(
        second.starts_with("clear_render_target_view (direct call 6 of the fast immediate context), writing it through render-target view 'pTex1_rtv', a deactivated alias"),
        "{second}"
    );
}

/// R-BAR-7 with R-V-2 over a long history: 200 buffers over the same bytes activated in turn
/// (the tracker forgets the calls the placed model no longer needs); using the first one names
/// the last activation's call, and the last one is active.
#[test]
fn r_bar_7_a_long_aliasing_history_names_the_last_activation() {
    let (device, mut imm, tex0, _) = aliased_pair();
    let h = device.placement(tex0.into()).expect("placed").heap;
    let buffers: Vec<Buffer> = (0..200)
        .map(|i| placed_buffer(&device, &format!("b{i}"), h, 40000, 256))
        .collect();
    let other = buffer(&device, "other", 256);
    for b in &buffers {
        imm.barrier(&[BarrierGroup::Buffer(&[BufferBarrier {
            sync_before: BarrierSync::NONE,
            sync_after: BarrierSync::COPY,
            access_before: BarrierAccess::NO_ACCESS,
            access_after: BarrierAccess::COPY_SOURCE,
            resource: (*b).into(),
            offset: 0,
            size: BufferBarrier::WHOLE,
        }])]);
    }
    imm.flush().expect("activations");
    imm.copy_buffer_region(other, 0, buffers[199], 0, 64);
    imm.flush().expect("the last one is active");
    imm.copy_buffer_region(other, 64, buffers[0], 0, 64);
    let (first, second, object, _) = alias_hazard(imm.flush());
    assert_eq!(object.handle, buffers[0].raw());
    assert!(
        first.starts_with(
            "barrier (direct call 199 of the fast immediate context), activating buffer 'b199'"
        ),
        "{first}"
    );
    assert!(
        second.starts_with("copy_buffer_region (direct call 201"),
        "{second}"
    );
}

/// R-BAR-7 with R-V-2: re-activating the alias before using it is no hazard, in a list as
/// directly; in a list, the report names both commands of the list.
#[test]
fn r_v_2_re_activating_the_alias_first_is_no_hazard() {
    let (device, mut imm, tex0, tex1) = aliased_pair();
    let dst = texture(&device, "dst", BindFlags::SHADER_RESOURCE);
    let other = texture(&device, "other", BindFlags::SHADER_RESOURCE);
    let mut c = deferred(&device, Semantics::Fast);
    let serial = c.serial();
    c.barrier(&[BarrierGroup::Texture(&[activate(tex1, true)])]);
    c.barrier(&[BarrierGroup::Texture(&[activate(tex0, true)])]);
    c.copy_resource(dst, tex0);
    let list = c
        .finish_command_list(RestoreState::ClearState)
        .expect("list");
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("pTex0 re-activated before its use");
    let mut c = deferred(&device, Semantics::Fast);
    c.copy_resource(other, tex1);
    let list = c
        .finish_command_list(RestoreState::ClearState)
        .expect("list");
    let (first, second, object, _) =
        alias_hazard(imm.execute_command_list(&list, RestoreState::ClearState));
    assert_eq!(object.handle, tex1.raw());
    assert!(
        first.starts_with(&format!(
            "barrier (command 1 of the fast command list recorded by context #{serial}, run by execute_command_list #1), activating texture 'pTex0'"
        )),
        "{first}"
    );
    assert!(
        second.starts_with("copy_resource (command 0 of the fast command list"),
        "{second}"
    );
    assert!(
        second.contains("run by execute_command_list #2"),
        "{second}"
    );
}

/// R-BAR-7 with R-V-2: a legacy aliasing barrier that names a resource as its `before` only
/// deactivates it; a use is a hazard naming that barrier; its `after` is active and usable.
#[test]
fn r_bar_7_a_resource_deactivated_by_an_aliasing_barrier_is_a_hazard_to_use() {
    let (device, mut imm, tex0, tex1) = aliased_pair();
    let dst = texture(&device, "dst", BindFlags::SHADER_RESOURCE);
    let buf = placed_buffer(
        &device,
        "buf",
        device.placement(tex0.into()).expect("placed").heap,
        32768,
        256,
    );
    let other = buffer(&device, "other", 256);
    imm.resource_barrier(&[ResourceBarrier::Aliasing {
        before: Some(tex1.into()),
        after: Some(tex0.into()),
    }]);
    imm.resource_barrier(&[ResourceBarrier::Aliasing {
        before: Some(buf.into()),
        after: None,
    }]);
    imm.copy_resource(dst, tex0);
    imm.flush().expect("pTex0 is the aliasing barrier's after");
    imm.copy_buffer_region(other, 0, buf, 0, 64);
    let (first, second, object, _) = alias_hazard(imm.flush());
    assert_eq!(object.handle, buf.raw());
    assert!(
        first.starts_with(
            "resource_barrier (direct call 1 of the fast immediate context), deactivating it"
        ),
        "{first}"
    );
    assert!(
        first.contains("a buffer barrier from access no_access"),
        "{first}"
    );
    assert!(second.starts_with("copy_buffer_region"), "{second}");
    imm.copy_resource(dst, tex1);
    let (first, _, object, _) = alias_hazard(imm.flush());
    assert_eq!(object.handle, tex1.raw());
    assert!(
        first.starts_with("resource_barrier (direct call 0 of the fast immediate context), activating texture 'pTex0'"),
        "{first}"
    );
}

fn texture(device: &Device, name: &str, bind: BindFlags) -> Texture {
    device
        .create_texture(&TextureDesc {
            name,
            width: 64,
            height: 64,
            bind,
            ..TextureDesc::default()
        })
        .unwrap_or_else(|e| panic!("create_texture {name}: {e}"))
}

fn buffer(device: &Device, name: &str, size: u32) -> Buffer {
    device
        .create_buffer(&BufferDesc {
            name,
            size,
            bind: BindFlags::SHADER_RESOURCE,
            ..BufferDesc::default()
        })
        .unwrap_or_else(|e| panic!("create_buffer {name}: {e}"))
}

const TOP_LEFT: CopyBox = CopyBox {
    left: 0,
    top: 0,
    right: 32,
    bottom: 32,
};

fn deferred(device: &Device, semantics: Semantics) -> DeferredContext {
    device
        .create_deferred_context(&DeferredContextDesc {
            semantics,
            ..DeferredContextDesc::default()
        })
        .expect("context")
}

/// R-BAR-7, the seed's self-copy: the top-left quarter of a texture into its bottom-right
/// quarter, directly, and bytes of a buffer into another part of it, recorded on deferred
/// contexts of both semantics and issued on the immediate context; the commands read back as
/// recorded.
#[test]
fn r_bar_7_self_copy_of_non_overlapping_regions_is_legal() {
    let device = fast_device();
    let tex = texture(&device, "texture", BindFlags::UNORDERED_ACCESS);
    let buf = buffer(&device, "buf", 256);
    for semantics in [Semantics::Fast, Semantics::Legacy] {
        let mut c = deferred(&device, semantics);
        c.copy_texture_region(tex, 0, 32, 32, tex, 0, TOP_LEFT);
        c.copy_buffer_region(buf, 128, buf, 0, 128);
        // Another subresource of one texture never overlaps.
        assert_eq!(c.last_refusal(), None, "{semantics:?}");
        let list = c
            .finish_command_list(RestoreState::ClearState)
            .expect("finish");
        let commands: Vec<String> = list
            .commands()
            .map(|d| format!("{:?}", d.command))
            .filter(|c| c.starts_with("Copy"))
            .collect();
        assert_eq!(commands.len(), 2, "{commands:?}");
        let mut found = list.commands().filter_map(|d| match d.command {
            command::Command::CopyTextureRegion {
                destination,
                destination_subresource,
                x,
                y,
                source,
                source_subresource,
                source_box,
            } => Some((
                destination.resource,
                destination_subresource,
                x,
                y,
                source.resource,
                source_subresource,
                *source_box,
            )),
            _ => None,
        });
        assert_eq!(
            found.next(),
            Some((tex.raw(), 0, 32, 32, tex.raw(), 0, TOP_LEFT))
        );
        let mut found = list.commands().filter_map(|d| match d.command {
            command::Command::CopyBufferRegion {
                destination_offset,
                source_offset,
                bytes,
                ..
            } => Some((destination_offset, source_offset, bytes)),
            _ => None,
        });
        assert_eq!(found.next(), Some((128, 0, 128)));
    }
    let mut imm = ImmediateContext::new(&device).expect("immediate");
    imm.copy_texture_region(tex, 0, 32, 32, tex, 0, TOP_LEFT);
    imm.copy_buffer_region(buf, 0, buf, 128, 128);
    assert_eq!(imm.last_refusal(), None);
}

/// R-BAR-7, the seed's first form: the self-copy through a temporary texture with legacy
/// transitions, on the immediate context and in a list; accepted, and the list holds both
/// textures (legacy, R-OBJ-4).
#[test]
fn r_bar_7_self_copy_through_a_temporary_texture() {
    let device = fast_device();
    let tex = texture(&device, "texture", BindFlags::UNORDERED_ACCESS);
    let tmp = texture(&device, "textureTmp", BindFlags::UNORDERED_ACCESS);
    let transition = |resource: Texture, before, after| ResourceBarrier::Transition {
        resource: resource.into(),
        before,
        after,
        subresource: None,
        split: SplitHalf::None,
    };
    let mut c = deferred(&device, Semantics::Legacy);
    let before = device.references(tex).expect("live");
    c.resource_barrier(&[
        transition(
            tex,
            ResourceStates::UNORDERED_ACCESS,
            ResourceStates::COPY_SOURCE,
        ),
        transition(
            tmp,
            ResourceStates::UNORDERED_ACCESS,
            ResourceStates::COPY_DEST,
        ),
    ]);
    c.copy_texture_region(tmp, 0, 0, 0, tex, 0, TOP_LEFT);
    c.resource_barrier(&[
        transition(tex, ResourceStates::COPY_SOURCE, ResourceStates::COPY_DEST),
        transition(tmp, ResourceStates::COPY_DEST, ResourceStates::COPY_SOURCE),
    ]);
    c.copy_texture_region(tex, 0, 32, 32, tmp, 0, TOP_LEFT);
    assert_eq!(c.last_refusal(), None);
    let list = c
        .finish_command_list(RestoreState::ClearState)
        .expect("finish");
    assert!(
        device.references(tex).expect("live") >= before + 2,
        "the legacy list holds the texture for its copies"
    );
    device.release(tex);
    device.release(tmp);
    let mut imm = ImmediateContext::new(&device).expect("immediate");
    imm.execute_command_list(&list, RestoreState::ClearState)
        .expect("a legacy list keeps its copies' textures alive");
    assert_eq!(imm.counters().barriers, 4);
}

/// R-BAR-7 with R-V-2: a self-copy of non-overlapping regions is no hazard (its read and its
/// write are one call), nor are later copies of regions it did not write; a copy reading a
/// region an earlier copy wrote, with no barrier between, is, naming both copies and the bytes or
/// texels both reach; a copy barrier covers the writes.
#[test]
fn r_bar_7_region_copies_are_tracked_by_region() {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        validation: Validation::Hazards,
        ..DeviceDesc::default()
    });
    let mut imm = ImmediateContext::new(&device).expect("immediate");
    let tex = texture(&device, "texture", BindFlags::UNORDERED_ACCESS);
    let (dst, dst2) = (
        texture(&device, "dst", BindFlags::SHADER_RESOURCE),
        texture(&device, "dst2", BindFlags::SHADER_RESOURCE),
    );
    let (buf, other) = (buffer(&device, "buf", 256), buffer(&device, "other", 256));
    let bottom_right = CopyBox {
        left: 32,
        top: 32,
        right: 64,
        bottom: 64,
    };
    // Direct calls 0 and 1: the self-copies.
    imm.copy_texture_region(tex, 0, 32, 32, tex, 0, TOP_LEFT);
    imm.copy_buffer_region(buf, 128, buf, 0, 64);
    imm.flush()
        .expect("a self-copy of non-overlapping regions is no hazard");
    // Reading what was only read, writing what nobody wrote: none either.
    imm.copy_buffer_region(other, 0, buf, 0, 64);
    imm.copy_buffer_region(buf, 192, buf, 64, 64);
    imm.copy_texture_region(dst, 0, 0, 0, tex, 0, TOP_LEFT);
    imm.flush().expect("regions nobody wrote");
    // Direct call 5 reads bytes 128..192, which call 1 wrote.
    imm.copy_buffer_region(other, 64, buf, 128, 64);
    let error = imm.flush().expect_err("a hazard");
    let Error::Hazard {
        first_call,
        second_call,
        object,
    } = error
    else {
        panic!("expected a hazard, got {error}");
    };
    assert_eq!(object.handle, buf.raw());
    assert!(
        first_call.starts_with("copy_buffer_region (direct call 1 of the fast immediate context), writing it as the copy destination"),
        "{first_call}"
    );
    assert!(
        second_call.starts_with("copy_buffer_region (direct call 5 of the fast immediate context), reading it as the copy source (bytes 128..192)"),
        "{second_call}"
    );
    // The texture's bottom-right quarter, which call 0 wrote.
    imm.copy_texture_region(dst2, 0, 0, 0, tex, 0, bottom_right);
    let error = imm.flush().expect_err("a hazard");
    let text = error.to_string();
    assert_eq!(error.kind(), ErrorKind::Hazard, "{text}");
    for part in [
        "copy_texture_region (direct call 6 of the fast immediate context), reading it as the copy source (mips 0, slices 0, texels 32..64 x 32..64)",
        "copy_texture_region (direct call 0 of the fast immediate context), writing it as the copy destination",
        "texture 'texture'",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    // A copy barrier covers the copies' writes: reading them again is no hazard.
    imm.copy_texture_region(tex, 0, 32, 32, tex, 0, TOP_LEFT);
    imm.barrier(&[BarrierGroup::Global(&[GlobalBarrier {
        sync_before: BarrierSync::COPY,
        sync_after: BarrierSync::COPY,
        access_before: BarrierAccess::COPY_DEST,
        access_after: BarrierAccess::COPY_SOURCE,
    }])]);
    imm.copy_texture_region(dst2, 0, 32, 32, tex, 0, bottom_right);
    imm.flush().expect("covered");
}

/// R-BAR-7: overlapping regions of one resource are refused with the call, the resource and
/// both ranges; so are regions outside their resource; nothing is recorded.
#[test]
fn r_bar_7_overlapping_or_outside_regions_are_refused() {
    let device = fast_device();
    let tex = texture(&device, "texture", BindFlags::UNORDERED_ACCESS);
    let buf = buffer(&device, "buf", 256);
    let mut imm = ImmediateContext::new(&device).expect("immediate");
    imm.copy_buffer_region(buf, 32, buf, 0, 64);
    let err = imm.last_refusal().cloned().expect("refused");
    assert!(
        matches!(
            err,
            Error::OverlappingSelfCopy {
                call: "copy_buffer_region",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    let text = err.to_string();
    for part in [
        "copy_buffer_region",
        "'buf'",
        "bytes 32..96",
        "bytes 0..64",
        "R-BAR-7",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    imm.copy_texture_region(tex, 0, 16, 16, tex, 0, TOP_LEFT);
    let err = imm.last_refusal().cloned().expect("refused");
    let text = err.to_string();
    for part in [
        "copy_texture_region",
        "'texture'",
        "texels 16..48 x 16..48",
        "texels 0..32 x 0..32",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    for (what, call) in [
        ("past the source", (buf, 0u64, buf, 200u64, 64u64)),
        ("past the destination", (buf, 255, buf, 0, 2)),
        ("overflowing", (buf, 0, buf, u64::MAX, 2)),
    ] {
        let (d, d_off, s, s_off, n) = call;
        imm.copy_buffer_region(d, d_off, s, s_off, n);
        let err = imm.last_refusal().cloned().expect(what);
        assert!(
            matches!(
                err,
                Error::RegionOutOfBounds {
                    call: "copy_buffer_region",
                    ..
                }
            ),
            "{what}: {err}"
        );
    }
    let outside = [
        (
            0,
            0,
            0,
            CopyBox {
                right: 65,
                ..TOP_LEFT
            },
        ),
        (0, 40, 40, TOP_LEFT),
        (1, 0, 0, TOP_LEFT),
        (
            0,
            0,
            0,
            CopyBox {
                left: 33,
                ..TOP_LEFT
            },
        ),
    ];
    for (subresource, x, y, source_box) in outside {
        let other = texture(&device, "other", BindFlags::SHADER_RESOURCE);
        imm.copy_texture_region(other, subresource, x, y, tex, 0, source_box);
        let err = imm.last_refusal().cloned().expect("outside");
        assert!(
            matches!(
                err,
                Error::RegionOutOfBounds {
                    call: "copy_texture_region",
                    ..
                }
            ),
            "{err}"
        );
    }
    // Nothing was recorded by the refused calls: the model saw no copy use.
    assert_eq!(imm.counters().draws, 0);
}

/// R-BAR-7 with R-B-8: a bundle records no region copy. A bundle recorder has no
/// [`TransferCalls`] (its `copy_buffer_region` does not compile: the `bundles` crate's doctests);
/// a call made by name (the trace replay) gets `unsupported_in_bundle`, naming the call.
#[test]
fn r_bar_7_region_copies_are_refused_in_bundles() {
    let device = fast_device();
    let mut bundle =
        bundles::BundleRecorder::new(&device, &bundles::BundleDesc::new("b", &[])).unwrap();
    for call in ["copy_buffer_region", "copy_texture_region"] {
        bundle.refuse_missing_capability(call, Capability::Transfer);
        let error = bundle.finish().unwrap_err();
        assert_eq!(
            error.error.kind(),
            ErrorKind::UnsupportedInBundle,
            "{error}"
        );
        assert!(error.to_string().contains(call), "{error}");
    }
}

/// R-BAR-7 with R-V-1: a region copy from a compressed render target is reported as
/// `copy_resource`'s is, under validation.
#[test]
fn r_bar_7_a_region_copy_of_a_compressed_target_is_validated_as_a_copy() {
    let device = Device::new(DeviceDesc {
        immediate_semantics: Semantics::Fast,
        validation: Validation::On,
        ..DeviceDesc::default()
    });
    let rt = texture(&device, "rt", BindFlags::RENDER_TARGET);
    let plain = texture(&device, "plain", BindFlags::SHADER_RESOURCE);
    let mut imm = ImmediateContext::new(&device).expect("immediate");
    let rtv = device
        .create_render_target_view(&ViewDesc::new("rtv", rt))
        .expect("rtv");
    imm.clear_render_target_view(rtv, [0.0; 4]);
    imm.flush().expect("clear");
    imm.copy_texture_region(plain, 0, 0, 0, rt, 0, TOP_LEFT);
    let error = imm.flush().expect_err("compressed source");
    assert_eq!(error.kind(), ErrorKind::CompressedRead, "{error}");
    assert!(error.to_string().contains("copy_texture_region"), "{error}");
    imm.decompress_resource(rt, None);
    imm.copy_texture_region(plain, 0, 0, 0, rt, 0, TOP_LEFT);
    imm.flush().expect("decompressed first");
}

/// An event of the aliasing property test: activate resource `0`, or a legacy aliasing barrier
/// from `0` (or none) to `1` (or none).
#[derive(Clone, Debug)]
enum Event {
    Activate(usize),
    Aliasing(Option<usize>, Option<usize>),
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    })]

    /// R-BAR-7, R-BAR-1: whatever buffers a heap holds and whatever activations run, the GPU
    /// model's answer is the rule's, computed here from the whole history: a resource is
    /// inactive when another resource over any of its bytes was activated after its own last
    /// activation, or a legacy aliasing barrier named it `before` after that (the model keeps
    /// only what can still decide an answer; this keeps everything).
    #[test]
    fn r_bar_7_activation_follows_the_rule_over_any_history(
        ranges in proptest::collection::vec((0u64..16, 1u32..6), 2..7),
        events in proptest::collection::vec(
            prop_oneof![
                3 => (0usize..7).prop_map(Event::Activate),
                1 => (proptest::option::of(0usize..7), proptest::option::of(0usize..7))
                    .prop_map(|(b, a)| Event::Aliasing(b, a)),
            ],
            0..24,
        ),
    ) {
        let device = fast_device();
        let mut imm = ImmediateContext::new(&device).expect("immediate");
        let h = heap(&device, "h", 64);
        let buffers: Vec<Buffer> = ranges
            .iter()
            .enumerate()
            .map(|(i, (offset, size))| placed_buffer(&device, &format!("b{i}"), h, offset * 2, size * 4))
            .collect();
        let span = |i: usize| (ranges[i].0 * 2, ranges[i].0 * 2 + ranges[i].1 as u64 * 4);
        // The history: (sequence, activated or deactivated-by-name, resource).
        let mut history: Vec<(bool, usize)> = Vec::new();
        for event in &events {
            match *event {
                Event::Activate(i) => {
                    let i = i % buffers.len();
                    imm.barrier(&[BarrierGroup::Buffer(&[BufferBarrier {
                        sync_before: BarrierSync::NONE,
                        sync_after: BarrierSync::COPY,
                        access_before: BarrierAccess::NO_ACCESS,
                        access_after: BarrierAccess::COPY_DEST,
                        resource: buffers[i].into(),
                        offset: 0,
                        size: BufferBarrier::WHOLE,
                    }])]);
                    history.push((true, i));
                }
                Event::Aliasing(before, after) => {
                    let before = before.map(|i| i % buffers.len());
                    let after = after.map(|i| i % buffers.len());
                    imm.resource_barrier(&[ResourceBarrier::Aliasing {
                        before: before.map(|i| buffers[i].into()),
                        after: after.map(|i| buffers[i].into()),
                    }]);
                    if let Some(a) = after {
                        history.push((true, a));
                    }
                    if let Some(b) = before.filter(|b| Some(*b) != after) {
                        history.push((false, b));
                    }
                }
            }
        }
        for (i, buffer) in buffers.iter().enumerate() {
            let own = history.iter().rposition(|&(activated, r)| activated && r == i);
            let after = |at: &usize| match own {
                Some(own) => *at > own,
                None => true,
            };
            let (start, end) = span(i);
            let inactive = history.iter().enumerate().any(|(at, &(activated, r))| {
                after(&at)
                    && if activated {
                        let (s, e) = span(r);
                        r != i && s < end && start < e
                    } else {
                        r == i
                    }
            });
            prop_assert_eq!(
                imm.gpu().is_active((*buffer).into()),
                !inactive,
                "b{} {:?} after {:?}", i, span(i), history
            );
        }
    }
}
