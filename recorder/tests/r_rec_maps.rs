//! Requirement tests for maps and the sizes the encoding stores: a refused map is reported to
//! its caller and does not poison the list (R-REC-8); every map and update too large for the
//! encoding is refused on every path, immediate and deferred (R-REC-12); only the immediate
//! context's recorder hands out batches, and a batch sealed while a buffer is still mapped loses
//! nothing (R-REC-6, R-REC-10).

mod common;

use common::*;
use recorder::command::Command;
use recorder::limits::MAX_MAP_BYTES;
use recorder::*;

/// The memory of an accepted map, or `None` for a refused one.
fn accepted<M: IntoIterator>(map: M) -> Option<M::Item> {
    map.into_iter().next()
}

fn buffer(device: &Device, name: &str, size: u32, usage: Usage) -> Buffer {
    device
        .create_buffer(&BufferDesc {
            name,
            size,
            usage,
            bind: BindFlags::CONSTANT,
            ..Default::default()
        })
        .unwrap()
}

/// Asserts that the last call of `context` was refused as `invalid_argument`, naming `object`
/// and the limit.
fn assert_refused_for_size(context: &impl DeviceContext, object: &str, what: &str) {
    let error = context
        .last_refusal()
        .unwrap_or_else(|| panic!("{what}: no refusal"));
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{what}: {error}");
    match error {
        Error::TooLarge {
            what: too_large,
            bytes,
            limit,
            ..
        } => {
            assert!(too_large.contains(object), "{what}: {error}");
            assert_eq!(*limit, MAX_MAP_BYTES as u64, "{what}: {error}");
            assert!(*bytes > *limit, "{what}: {error}");
        }
        _ => panic!("{what}: not a TooLarge refusal: {error}"),
    }
    // The message names the rule (R-REC-8).
    assert!(
        error.to_string().contains("R-REC-12"),
        "{what}: the message names the rule: {error}"
    );
}

// ----- R-REC-12 --------------------------------------------------------------------------------

/// Defect: the immediate context's write_no_overwrite map of a dynamic buffer had no cap; a
/// 4 GiB - 1 buffer made a command whose size wrapped in its `u32` header, and the decoder walked
/// the application's bytes as commands.
#[test]
fn r_rec_12_immediate_no_overwrite_map_of_a_4_gib_buffer_is_refused() {
    let device = Device::new(DeviceDesc::default());
    let big = buffer(&device, "big", u32::MAX, Usage::Dynamic);
    let mut immediate = device.immediate_recorder().unwrap();
    immediate.draw(3, 0);
    assert!(accepted(
        immediate
            .map(big, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped)
    )
    .is_none());
    assert_refused_for_size(&immediate, "big", "4 GiB write_no_overwrite");
    immediate.unmap(big); // not mapped: refused, harmless
    immediate.draw(3, 1);
    let batch = immediate.take_batch().unwrap();
    let commands: Vec<Command> = batch.commands().map(|d| d.command).collect();
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert_eq!(batch.stats().draws, 2);
}

#[test]
fn r_rec_12_forty_megabyte_maps_are_refused_on_every_path() {
    const FORTY_MB: u32 = 40 << 20;
    let device = Device::new(DeviceDesc::default());
    let dynamic = buffer(&device, "big_dynamic", FORTY_MB, Usage::Dynamic);
    let default = buffer(&device, "big_default", FORTY_MB, Usage::Default);
    let paths: [(&str, Buffer, MapType, bool); 2] = [
        ("big_dynamic", dynamic, MapType::WriteDiscard, false),
        ("big_default", default, MapType::WriteNoOverwrite, true),
    ];
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for (what, buffer, map_type, allow) in paths {
            let mut c = context(&device, semantics);
            assert!(
                accepted(
                    c.map(
                        buffer,
                        map_type,
                        if allow {
                            MapFlags::AllowUsageDefault
                        } else {
                            MapFlags::None
                        }
                    )
                    .map(Mapped::keep_mapped)
                )
                .is_none(),
                "{what}"
            );
            assert_refused_for_size(&c, what, &format!("{semantics:?} {map_type:?}"));
        }
    }
    let mut immediate = device.immediate_recorder().unwrap();
    for (what, buffer, map_type, allow) in
        paths
            .into_iter()
            .chain([("big_dynamic", dynamic, MapType::WriteNoOverwrite, false)])
    {
        assert!(
            accepted(
                immediate
                    .map(
                        buffer,
                        map_type,
                        if allow {
                            MapFlags::AllowUsageDefault
                        } else {
                            MapFlags::None
                        }
                    )
                    .map(Mapped::keep_mapped)
            )
            .is_none(),
            "immediate {what} {map_type:?}"
        );
        assert_refused_for_size(&immediate, what, &format!("immediate {map_type:?}"));
    }
    assert!(immediate.batch_is_empty());
    // Exactly at the limit is accepted (and allocates a chunk of its own).
    let limit = buffer(&device, "at_limit", MAX_MAP_BYTES as u32, Usage::Dynamic);
    let mut c = context(&device, Semantics::Fast);
    assert_eq!(
        accepted(
            c.map(limit, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped)
        )
        .map(|d| d.len()),
        Some(MAX_MAP_BYTES)
    );
    c.unmap(limit);
    assert!(c.finish_command_list(RestoreState::ClearState).is_ok());
}

#[test]
fn r_rec_12_forty_megabyte_update_subresource_is_refused_naming_the_limit() {
    const FORTY_MB: u32 = 40 << 20;
    let device = Device::new(DeviceDesc::default());
    let default = buffer(&device, "big_default", FORTY_MB, Usage::Default);
    let data = vec![7u8; FORTY_MB as usize];
    let mut c = context(&device, Semantics::Legacy);
    c.update_subresource(default, &data);
    assert_refused_for_size(&c, "big_default", "update_subresource");
}

// ----- R-REC-8 ---------------------------------------------------------------------------------

/// As D3D11's FinishCommandList succeeds after failed Maps (Wine's test_deferred_context_map).
#[test]
fn r_rec_8_a_refused_map_does_not_poison_the_list() {
    let f = Fixture::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut c = f.context(semantics);
        c.draw(3, 0);
        let refusals: [(MapType, Resource, bool, ErrorKind); 4] = [
            (
                MapType::WriteNoOverwrite,
                f.cb_dyn.into(),
                false,
                ErrorKind::DynamicBeforeMap,
            ),
            (
                MapType::Read,
                f.cb_dyn.into(),
                false,
                ErrorKind::InvalidArgument,
            ),
            (
                MapType::WriteDiscard,
                f.tex.into(),
                false,
                ErrorKind::InvalidArgument,
            ),
            (
                MapType::WriteDiscard,
                f.cb.into(),
                false,
                ErrorKind::InvalidArgument,
            ),
        ];
        for (map_type, resource, allow, kind) in refusals {
            assert!(accepted(
                c.map(
                    resource,
                    map_type,
                    if allow {
                        MapFlags::AllowUsageDefault
                    } else {
                        MapFlags::None
                    }
                )
                .map(Mapped::keep_mapped)
            )
            .is_none());
            assert_eq!(
                c.last_refusal().map(Error::kind),
                Some(kind),
                "{map_type:?}"
            );
        }
        assert!(c.error().is_none(), "{semantics:?}: {:?}", c.error());
        c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .unwrap()[0] = 9; // unmapped on drop
        c.draw(3, 1);
        let list = c
            .finish_command_list(RestoreState::ClearState)
            .unwrap_or_else(|e| panic!("{semantics:?}: the list finishes after refused maps: {e}"));
        assert_eq!(list.stats().draws, 2);
        assert_eq!(write_discards(&list)[0].2[0], 9);
        // Other calls stay sticky.
        c.unmap(f.cb_dyn);
        expect_error(&mut c, ErrorKind::InvalidArgument, 0);
    }
}

type BadMap = (
    &'static str,
    fn(&Fixture, &mut DeferredContext) -> Result<(), Error>,
);

/// Maps every context refuses, each as `invalid_argument` (they were sticky errors once).
fn bad_maps() -> Vec<BadMap> {
    vec![
        ("map of a texture", |f, c| {
            c.map(f.tex, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped)
                .map(drop)
        }),
        ("map for reading", |f, c| {
            c.map(f.cb_dyn, MapType::Read, MapFlags::None)
                .map(Mapped::keep_mapped)
                .map(drop)
        }),
        ("write_discard of a default buffer", |f, c| {
            c.map(f.cb, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped)
                .map(drop)
        }),
        (
            "write_no_overwrite of a default buffer without allow_usage_default",
            |f, c| {
                c.map(f.cb, MapType::WriteNoOverwrite, MapFlags::None)
                    .map(Mapped::keep_mapped)
                    .map(drop)
            },
        ),
        ("write_no_overwrite of an immutable buffer", |f, c| {
            c.map(
                f.cb_imm,
                MapType::WriteNoOverwrite,
                MapFlags::AllowUsageDefault,
            )
            .map(Mapped::keep_mapped)
            .map(drop)
        }),
        ("map of a buffer already mapped", |f, c| {
            c.map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped)?;
            let second = c
                .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
                .map(Mapped::keep_mapped)
                .map(drop);
            c.unmap(f.cb_dyn);
            second
        }),
    ]
}

#[test]
fn r_rec_8_refused_maps_are_invalid_argument_and_the_list_finishes() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for (name, bad) in bad_maps() {
            let f = Fixture::new();
            let baseline = f.references();
            let mut c = f.context(semantics);
            let error = bad(&f, &mut c).expect_err(name);
            assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{name}: {error}");
            assert_eq!(c.last_refusal(), Some(&error), "{name}");
            c.draw(3, 0);
            let list = c
                .finish_command_list(RestoreState::ClearState)
                .unwrap_or_else(|e| panic!("{semantics:?} {name}: {e}"));
            assert_eq!(list.stats().draws, 1, "{name}");
            drop(list);
            drop(c);
            assert_eq!(f.references(), baseline, "{semantics:?} {name}");
        }
    }
}

#[test]
fn r_rec_8_a_map_of_a_released_buffer_is_released_object() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let f = Fixture::new();
        let mut c = f.context(semantics);
        f.device.release(f.cb_dyn);
        let error = c
            .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::ReleasedObject, "{error}");
        assert_eq!(c.stats().commands, 0, "{semantics:?}: nothing encoded");
        assert!(
            c.finish_command_list(RestoreState::ClearState).is_ok(),
            "{semantics:?}"
        );
    }
}

#[test]
fn r_rec_8_a_refused_map_returns_its_error_to_the_caller() {
    let f = Fixture::new();
    let mut c = f.fast();
    let error = c
        .map(f.cb_dyn, MapType::WriteNoOverwrite, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::DynamicBeforeMap);
    assert!(error.to_string().contains("cb_dyn"), "{error}");
    let error = c
        .map(f.cb, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(
        matches!(
            error,
            Error::MapNotAllowed {
                map_type: MapType::WriteDiscard,
                ..
            }
        ),
        "{error}"
    );
    assert!(c.finish_command_list(RestoreState::ClearState).is_ok());
}

// ----- take_batch ------------------------------------------------------------------------------

// R-REC-6, `take_batch` is the immediate context's alone (it skips every check of
// `finish_command_list`): a deferred context has no such call, so it cannot be written (the
// compile_fail doctest `r_rec_6_take_batch_is_refused_on_a_deferred_context` in
// `recorder/src/role.rs`).

/// A batch sealed while a buffer is still mapped on the immediate context keeps every byte the
/// application wrote, and the map stays open until its unmap.
#[test]
fn r_rec_10_immediate_batch_sealed_while_mapped_keeps_the_written_bytes() {
    let f = Fixture::new();
    let mut immediate = f.device.immediate_recorder().unwrap();
    let data = immediate
        .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap();
    data[..4].copy_from_slice(&[1, 2, 3, 4]);
    let batch = immediate.take_batch().unwrap();
    assert_eq!(write_discards(&batch)[0].2[..4], [1, 2, 3, 4]);
    // Still mapped: a second map is refused, the unmap closes it and the next map works.
    assert!(accepted(
        immediate
            .map(f.cb_dyn, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped)
    )
    .is_none());
    immediate.unmap(f.cb_dyn);
    immediate
        .map(f.cb_dyn, MapType::WriteNoOverwrite, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap()[4] = 5;
    immediate.unmap(f.cb_dyn);
    let next = immediate.take_batch().unwrap();
    let no_overwrites: Vec<Vec<u8>> = next
        .commands()
        .filter_map(|d| match d.command {
            Command::MapWriteNoOverwrite { data, .. } => Some(data.to_vec()),
            _ => None,
        })
        .collect();
    assert_eq!(no_overwrites.len(), 1);
    assert_eq!(no_overwrites[0][4], 5);
    drop(batch);
}
