//! R-OBJ-3 and the getters' ranges (the misuse probe): another device's query or bundle
//! body is `invalid_argument` naming both devices, never "released" and never accepted; the
//! immediate context's word getters refuse a range outside their space instead of allocating it.

mod common;

use common::*;
use executor::ImmediateContext;
use recorder::limits::{CONSTANT_RAM_BYTES, GDS_BYTES};
use recorder::*;

#[test]
fn r_obj_3_get_data_of_another_devices_query_names_both_devices() {
    let own = Fixture::with_immediate(Semantics::Legacy);
    let other = Fixture::with_immediate(Semantics::Legacy);
    let query = other
        .device
        .create_query("foreign_q", QueryKind::Occlusion)
        .unwrap();
    let mut imm = ImmediateContext::new(&own.device).unwrap();
    let error = imm.get_data(query).expect_err("another device's query");
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    let message = error.to_string();
    assert!(message.contains("get_data"), "{message}");
    for serial in [own.device.serial(), other.device.serial()] {
        assert!(message.contains(&serial.to_string()), "{serial}: {message}");
    }
    // One of this device's, released: released_object.
    let mine = own
        .device
        .create_query("mine_q", QueryKind::Occlusion)
        .unwrap();
    own.device.release(mine);
    let error = imm.get_data(mine).expect_err("released");
    assert_eq!(error.kind(), ErrorKind::ReleasedObject, "{error}");
}

#[test]
fn r_fx_4_r_fx_5_word_getters_refuse_a_range_outside_their_space() {
    let f = Fixture::with_immediate(Semantics::Fast);
    let mut imm = ImmediateContext::new(&f.device).unwrap();
    for (offset, count) in [(0, u32::MAX), (GDS_BYTES, 1), (2, 1), (u32::MAX - 3, 2)] {
        let error = imm.gds_words(offset, count).expect_err("outside GDS");
        assert!(matches!(error, Error::OutOfRange { .. }), "{error:?}");
        assert!(error.to_string().contains("gds_words"), "{error}");
        assert!(error.to_string().contains("R-FX-4"), "{error}");
    }
    assert_eq!(imm.gds_words(GDS_BYTES - 8, 2).unwrap(), [0, 0]);
    let error = imm
        .constant_ram_words(0, u32::MAX)
        .expect_err("outside constant RAM");
    assert!(error.to_string().contains("R-FX-5"), "{error}");
    assert!(imm.constant_ram_words(CONSTANT_RAM_BYTES, 1).is_err());
    assert_eq!(
        imm.constant_ram_words(CONSTANT_RAM_BYTES - 4, 1).unwrap(),
        [0]
    );
    // A buffer's words: within its 256 bytes.
    assert_eq!(imm.buffer_words(f.cb, 248, 2).unwrap(), [0, 0]);
    for (offset, count) in [(0, u32::MAX), (252, 2), (u64::MAX - 3, 1)] {
        let error = imm.buffer_words(f.cb, offset, count).expect_err("outside");
        assert!(matches!(error, Error::OutOfRange { .. }), "{error:?}");
    }
    let other = Fixture::with_immediate(Semantics::Fast);
    let error = imm
        .buffer_words(other.cb, 0, 1)
        .expect_err("another device's");
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
}

#[test]
fn r_obj_3_register_bundle_refuses_another_devices_body() {
    let own = Fixture::with_immediate(Semantics::Fast);
    let other = Fixture::with_immediate(Semantics::Fast);
    let mut recorder = other.device.bundle_recorder("foreign_body", None);
    recorder.draw(3, 0);
    let body = recorder.finish_bundle().unwrap();
    let error = own
        .device
        .register_bundle(body, Default::default(), 16, "stolen")
        .expect_err("another device's commands");
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    let message = error.to_string();
    assert!(message.contains("register_bundle"), "{message}");
    for serial in [own.device.serial(), other.device.serial()] {
        assert!(message.contains(&serial.to_string()), "{serial}: {message}");
    }
}
