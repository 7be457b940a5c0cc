//! R-REC-12 and R-REC-8 on the immediate context: a map too large for the encoding is refused on
//! every path and for every map type, naming the limit, and the GPU model sees only the calls
//! made (no command forged from the application's bytes); a refused map does not poison the
//! list that recorded it, in the engine and in the trace replay's `--compare` reference.

use executor::ImmediateContext;
use recorder::limits::MAX_MAP_BYTES;
use recorder::*;
use trace::{replay, ReplayOptions};

fn buffer(device: &Device, name: &str, size: u32, usage: Usage, bind: BindFlags) -> Buffer {
    device
        .create_buffer(&BufferDesc {
            name,
            size,
            usage,
            bind,
            ..Default::default()
        })
        .unwrap()
}

fn assert_size_refusal(error: &Error, object: &str) {
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    match error {
        Error::TooLarge {
            what, bytes, limit, ..
        } => {
            assert!(what.contains(object), "{error}");
            assert_eq!(*limit, MAX_MAP_BYTES as u64, "{error}");
            assert!(*bytes > *limit, "{error}");
        }
        _ => panic!("not a TooLarge refusal: {error}"),
    }
    // The message cites the rule (R-REC-8).
    assert!(error.to_string().contains("R-REC-12"), "{error}");
}

/// The defect's reproduction: an immediate write_no_overwrite map of a 4 GiB - 1 dynamic buffer
/// made a command whose `u32` size wrapped; the decoder then walked the application's bytes as
/// commands (a forged draw in the GPU model, or a hang).
#[test]
fn r_rec_12_immediate_no_overwrite_map_of_a_4_gib_buffer_forges_no_command() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let device = Device::new(DeviceDesc {
            immediate_semantics: semantics,
            ..Default::default()
        });
        let big = buffer(
            &device,
            "big",
            u32::MAX,
            Usage::Dynamic,
            BindFlags::CONSTANT,
        );
        let mut imm = ImmediateContext::new(&device).unwrap();
        let error = imm
            .map(big, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped)
            .unwrap_err();
        assert_size_refusal(&error, "big");
        imm.unmap(big);
        imm.draw(3, 0);
        // The unmap of what is not mapped was refused: the flush reports it (R-REC-8).
        let flushed = imm.flush();
        assert!(
            flushed
                .as_ref()
                .is_err_and(|e| e.to_string().contains("unmap")),
            "{flushed:?}"
        );
        assert_eq!(imm.records().len(), 1, "{semantics:?}: only the draw made");
        assert_eq!(imm.counters().draws, 1);
    }
}

#[test]
fn r_rec_12_forty_megabyte_maps_are_refused_on_every_immediate_path() {
    const FORTY_MB: u32 = 40 << 20;
    let device = Device::new(DeviceDesc::default());
    let dynamic = buffer(
        &device,
        "forty",
        FORTY_MB,
        Usage::Dynamic,
        BindFlags::CONSTANT,
    );
    let default = buffer(
        &device,
        "forty_default",
        FORTY_MB,
        Usage::Default,
        BindFlags::CONSTANT,
    );
    let staging = buffer(
        &device,
        "forty_staging",
        FORTY_MB,
        Usage::Staging,
        BindFlags::NONE,
    );
    let mut imm = ImmediateContext::new(&device).unwrap();
    let paths: [(&str, Buffer, MapType, bool); 7] = [
        ("forty", dynamic, MapType::WriteDiscard, false),
        ("forty", dynamic, MapType::WriteNoOverwrite, false),
        ("forty_default", default, MapType::WriteNoOverwrite, true),
        ("forty_default", default, MapType::Read, true),
        ("forty_staging", staging, MapType::Read, false),
        ("forty_staging", staging, MapType::Write, false),
        ("forty_staging", staging, MapType::ReadWrite, false),
    ];
    for (name, buffer, map_type, allow) in paths {
        let error = imm
            .map(
                buffer,
                map_type,
                if allow {
                    MapFlags::AllowUsageDefault
                } else {
                    MapFlags::None
                },
            )
            .map(Mapped::keep_mapped)
            .unwrap_err();
        assert_size_refusal(&error, name);
        // Nothing stays mapped: the unmap is refused too (not mapped), harmlessly.
        imm.unmap(buffer);
    }
    // The first refused unmap is the flush's result (R-REC-8).
    let flushed = imm.flush();
    assert!(
        flushed
            .as_ref()
            .is_err_and(|e| e.to_string().contains("unmap")),
        "{flushed:?}"
    );
    assert!(imm.records().is_empty());
}

/// Wine's test_deferred_context_map: FinishCommandList succeeds after failed Maps; the list
/// runs its other calls.
#[test]
fn r_rec_8_a_list_with_refused_maps_finishes_and_runs() {
    let device = Device::new(DeviceDesc::default());
    let cb = buffer(&device, "cb", 256, Usage::Dynamic, BindFlags::CONSTANT);
    let plain = buffer(&device, "plain", 256, Usage::Default, BindFlags::CONSTANT);
    let mut imm = ImmediateContext::new(&device).unwrap();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut dc = device
            .create_deferred_context(&DeferredContextDesc {
                semantics,
                ..Default::default()
            })
            .unwrap();
        let refused = dc
            .map(cb, MapType::WriteNoOverwrite, MapFlags::None)
            .map(Mapped::keep_mapped);
        assert_eq!(refused.unwrap_err().kind(), ErrorKind::DynamicBeforeMap);
        let refused = dc
            .map(plain, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped);
        assert_eq!(refused.unwrap_err().kind(), ErrorKind::InvalidArgument);
        dc.map(cb, MapType::WriteDiscard, MapFlags::None).unwrap()[0] = 1; // unmapped on drop
        dc.draw(3, 0);
        let list = dc.finish_command_list(RestoreState::ClearState).unwrap();
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
    }
    assert_eq!(imm.records().len(), 2);
}

/// The trace reproduction, replayed with `--compare`: the big map is refused (no hang), and the
/// reference leaves out the maps the engine refused in a list that still finished.
#[test]
fn r_rec_12_trace_reproduction_is_refused_and_matches_the_reference() {
    let trace = b"device semantics=legacy
buffer big usage=dynamic bind=constant size=4294967295
imm map big write_no_overwrite
expect error imm invalid_argument
imm unmap big
imm draw 3 0
expect counters draws=1
buffer cb usage=dynamic bind=constant size=256
shader vs0 stage=vs cb=0
context dc semantics=legacy
dc map cb write_no_overwrite
expect error dc dynamic_before_map
dc map cb write_discard
dc unmap cb
dc vs_set_shader vs0
dc vs_set_constant_buffers 0 cb
dc draw 3 0
dc finish list
imm execute list
expect draw 1 vs.cb.0 cb#1
";
    for threads in [0, 2] {
        let options = ReplayOptions {
            compare: true,
            threads,
            ..Default::default()
        };
        let run = replay(trace, &options);
        assert_eq!(
            run.exit_code, 0,
            "threads={threads}\n{}\n{}",
            run.stdout, run.stderr
        );
        assert!(
            run.stdout.contains("identical to the reference"),
            "{}",
            run.stdout
        );
    }
}
