//! R-FX-5: `load_constant_ram` / `store_constant_ram` move 4-byte words between buffers and the
//! constant engine's RAM in the GPU model, always with fast semantics (no reference, no split
//! point), bounds checked; `ce_bytes` counts the bytes moved.

mod common;

use common::*;
use executor::{GpuModel, ImmediateContext};
use recorder::capabilities::*;
use recorder::command::Command;
use recorder::limits::CONSTANT_RAM_BYTES;
use recorder::*;

fn buffer(f: &Fixture, name: &str, usage: Usage) -> Buffer {
    let desc = BufferDesc {
        name,
        size: 256,
        usage,
        bind: match usage {
            Usage::Staging => BindFlags::NONE,
            _ => BindFlags::CONSTANT,
        },
        uav_flag: UavFlag::None,
        placement: None,
    };
    f.device.create_buffer(&desc).unwrap()
}

fn out_of_range(error: Option<&Error>, argument: &str) {
    match error {
        Some(Error::OutOfRange { argument: a, .. }) if *a == argument => {}
        other => panic!("expected out_of_range on {argument}, got {other:?}"),
    }
}

/// Words into `source` (through GDS), then source -> constant RAM -> destination.
fn round_trip(c: &mut impl DeviceContext, source: Buffer, destination: Buffer) {
    c.write_gds(0, &[0xdead_beef, 2, 3, 4]);
    c.read_gds(0, 4, source, 32);
    c.load_constant_ram(source, 32, 4096, 16);
    c.store_constant_ram(destination, 8, 4100, 12);
}

#[test]
fn r_fx_5_load_store_round_trip() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let source = buffer(&f, "source", Usage::Default);
    let destination = buffer(&f, "destination", Usage::Staging);
    round_trip(&mut imm, source, destination);
    assert_eq!(
        imm.constant_ram_words(4092, 6).unwrap(),
        [0, 0xdead_beef, 2, 3, 4, 0]
    );
    assert_eq!(
        imm.buffer_words(destination, 4, 5).unwrap(),
        [0, 2, 3, 4, 0]
    );
    assert_eq!(
        imm.counters().ce_bytes,
        16 + 12,
        "the bytes the constant engine moved"
    );
    // A buffer nothing wrote reads as zero.
    let fresh = buffer(&f, "fresh", Usage::Default);
    imm.load_constant_ram(fresh, 0, 4096, 8);
    assert_eq!(imm.constant_ram_words(4096, 3).unwrap(), [0, 0, 3]);
    // The last word of constant RAM is addressable.
    imm.load_constant_ram(source, 32, CONSTANT_RAM_BYTES - 4, 4);
    assert_eq!(
        imm.constant_ram_words(CONSTANT_RAM_BYTES - 4, 1).unwrap(),
        [0xdead_beef]
    );
}

#[test]
fn r_fx_5_bounds_refused() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    let source = buffer(&f, "source", Usage::Default);
    imm.load_constant_ram(source, 0, CONSTANT_RAM_BYTES - 4, 8);
    out_of_range(imm.last_refusal(), "ram_offset");
    imm.load_constant_ram(source, 0, 2, 4);
    out_of_range(imm.last_refusal(), "ram_offset");
    imm.store_constant_ram(source, 252, 0, 8);
    out_of_range(imm.last_refusal(), "buffer_offset");
    imm.store_constant_ram(source, 1, 0, 4);
    out_of_range(imm.last_refusal(), "buffer_offset");
    imm.load_constant_ram(source, 0, 0, 0);
    out_of_range(imm.last_refusal(), "bytes");
    imm.load_constant_ram(source, 0, 0, 6);
    out_of_range(imm.last_refusal(), "buffer_offset");
    imm.load_constant_ram(source, u64::MAX - 3, 0, 4);
    out_of_range(imm.last_refusal(), "buffer_offset");
    for unwritable in [f.vb, f.cb_dyn] {
        imm.store_constant_ram(unwritable, 0, 0, 4);
        assert!(
            matches!(imm.last_refusal(), Some(Error::WrongUsage { .. })),
            "{:?}",
            imm.last_refusal()
        );
    }
    // A released buffer.
    let gone = buffer(&f, "gone", Usage::Default);
    f.device.release(gone);
    imm.load_constant_ram(gone, 0, 0, 4);
    assert_eq!(
        imm.last_refusal().map(Error::kind),
        Some(ErrorKind::ReleasedObject)
    );
    assert_eq!(imm.counters().ce_bytes, 0, "nothing refused moved a byte");
    assert!(imm.gpu().memory().is_empty());
    // A bundle refuses both: it has no `EngineMemoryCalls` (its `load_constant_ram` does not
    // compile), and a call made by name gets `unsupported_in_bundle`.
    let mut bundle =
        bundles::BundleRecorder::new(&f.device, &bundles::BundleDesc::new("b", &[])).unwrap();
    bundle.refuse_missing_capability("load_constant_ram", Capability::EngineMemory);
    assert_eq!(
        bundle.last_refusal().map(Error::kind),
        Some(ErrorKind::UnsupportedInBundle)
    );
}

#[test]
fn r_fx_5_list_equals_direct() {
    let f = Fixture::with_immediate(Semantics::Legacy);
    let source = buffer(&f, "source", Usage::Default);
    let destination = buffer(&f, "destination", Usage::Default);
    let want = {
        let mut direct = ImmediateContext::new(&f.device).unwrap();
        round_trip(&mut direct, source, destination);
        let ce = direct.counters().ce_bytes;
        (direct.gpu().memory().clone(), ce)
    };
    assert!(!want.0.is_empty());
    let before = f.device.references(destination);
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let list = f.list(semantics, |c| round_trip(c, source, destination));
        assert_eq!(list.stats().split_points.total(), 0, "{semantics:?}");
        assert_eq!(
            f.device.references(destination),
            before,
            "{semantics:?}: no reference"
        );
        let mut imm = ImmediateContext::new(&f.device).unwrap();
        imm.execute_command_list(&list, RestoreState::ClearState)
            .unwrap();
        let ce = imm.counters().ce_bytes;
        assert_eq!((imm.gpu().memory().clone(), ce), want, "{semantics:?}");
        // The same list fed to a bare model, command by command.
        let mut gpu = GpuModel::new();
        run(&mut gpu, &list);
        assert_eq!(gpu.memory(), &want.0);
    }
}

#[test]
fn r_fx_5_the_model_moves_only_what_fits() {
    // Hand-built commands past the limits (the recorder refuses them) move what fits and do
    // not panic.
    let mut gpu = GpuModel::new();
    let buffer = RawHandle::NULL;
    gpu.execute(
        &Command::WriteGds {
            offset: u32::MAX,
            values: &[1, 2],
        },
        Semantics::Fast,
    );
    gpu.execute(
        &Command::LoadConstantRam {
            buffer,
            buffer_offset: u64::MAX,
            ram_offset: CONSTANT_RAM_BYTES - 4,
            bytes: u32::MAX,
        },
        Semantics::Fast,
    );
    gpu.execute(
        &Command::StoreConstantRam {
            buffer,
            buffer_offset: u64::MAX - 8,
            ram_offset: u32::MAX - 3,
            bytes: 64,
        },
        Semantics::Fast,
    );
    gpu.execute(
        &Command::ReadGds {
            offset: u32::MAX - 3,
            count: u32::MAX,
            destination: buffer,
            destination_offset: 0,
        },
        Semantics::Fast,
    );
    assert_eq!(gpu.memory().gds(0, 1), [0]);
}
