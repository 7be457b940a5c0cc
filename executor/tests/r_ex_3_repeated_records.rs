//! R-EX-3: a draw with no command since the last draw repeats the last record's entry (the
//! GPU model's short cut, `Records::repeat_last`): its record must read exactly what a record
//! built afresh would, and any command, state restored or cleared, or bundle between two draws
//! must make the next draw build its own.

mod common;

use common::*;
use executor::{DrawArgs, FieldValue};
use recorder::command::{Command, DirectArgs};
use recorder::*;

#[test]
fn r_ex_3_a_draw_repeating_the_last_record_reads_what_a_fresh_one_would() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_shader_resources(Stage::Pixel, 0, &[Some(f.tex_srv), None, Some(f.sb_srv)]);
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]);
        c.set_render_targets(&[Some(f.rt_rtv)], None);
        c.set_viewports(&SCREEN);
        c.draw(3, 0);
        c.draw(6, 1); // nothing between: repeats the first draw's entry
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb2)]);
        c.draw(9, 2); // a bind between: a record of its own
        c.draw(12, 3);
    });
    let mut gpu = gpu_after(&[&list]);
    let records = gpu.records().to_vec();
    assert_eq!(records.len(), 4);
    let with_args = |index: usize, args: DrawArgs| {
        let mut record = records[index].clone();
        record.args = args;
        record
    };
    assert_eq!(records[1], with_args(0, records[1].args));
    assert_eq!(records[3], with_args(2, records[3].args));
    assert_ne!(records[2], with_args(1, records[2].args));
    assert_eq!(field(&gpu, 1, "ps.cb.0"), Some(object(f.cb)));
    assert_eq!(field(&gpu, 2, "ps.cb.0"), Some(object(f.cb2)));
    assert_eq!(field(&gpu, 3, "ps.cb.0"), Some(object(f.cb2)));
    assert_ne!(records[0].args, records[1].args);

    // A state cleared between two draws: the next draw reads the defaults, not the last record.
    gpu.clear_state();
    let draw = Command::Draw(DirectArgs::draw(3, 0));
    gpu.execute(&draw, Semantics::Fast);
    assert_eq!(field(&gpu, 4, "ps"), Some(FieldValue::Null));
    assert_eq!(field(&gpu, 4, "ps.cb.0"), None);
    // And a snapshot restored between two draws: the restored bindings.
    let mut again = gpu_after(&[&list]);
    let cleared = gpu.snapshot();
    again.restore(&cleared);
    again.execute(&draw, Semantics::Fast);
    assert_eq!(field(&again, 4, "ps"), Some(FieldValue::Null));
    assert_eq!(again.records()[4], gpu.records()[4]);
}

#[test]
fn r_ex_3_records_cleared_between_two_draws_start_afresh() {
    let f = Fixture::new();
    let list = f.fast(|c| {
        c.set_shader(Stage::Pixel, Some(f.ps));
        c.set_constant_buffers(Stage::Pixel, 0, &[Some(f.cb)]);
        c.draw(3, 0);
    });
    let mut gpu = gpu_after(&[&list]);
    let first = gpu.records()[0].clone();
    gpu.clear_records();
    gpu.execute(&Command::Draw(DirectArgs::draw(3, 0)), Semantics::Fast);
    assert_eq!(gpu.records().len(), 1);
    assert_eq!(gpu.records()[0], first);
}
