//! R-REC-9 with R-ST-1 and R-ST-2, in `replay --compare`'s reference: a legacy list that binds
//! state and then reads it through a nested execution (a `restore=yes` snapshot, or a fast list
//! that inherits it), itself executed nested in another list. The reference opens a level's
//! recorder lazily; the level below (the outer list) must reach the GPU model first, or its
//! starting `clear_state` wipes what the inner list bound. Engine and reference agree, in the
//! three modes.

#[path = "common/modes.rs"]
mod modes;

use trace::{replay, ReplayOptions};

/// The two shapes a long capture run found (`capture_roundtrip`, seed 11): the inner list's
/// render target lost across a nested `restore=yes`, and its index buffer lost to a nested fast
/// list.
const TRACES: [&str; 2] = [
    "device semantics=legacy\n\
     texture rt format=r8g8b8a8_unorm width=16 height=16 bind=render_target\n\
     rtv rt_rtv rt\n\
     context dc semantics=legacy\n\
     dc finish empty\n\
     dc om_set_render_targets rt_rtv null\n\
     dc execute empty restore=yes\n\
     dc draw 1 1\n\
     dc finish inner\n\
     dc execute inner\n\
     dc finish outer\n\
     imm execute inner\n\
     imm execute outer\n",
    "device semantics=legacy\n\
     buffer ib usage=default bind=index size=256\n\
     context dc semantics=legacy\n\
     context fc semantics=fast\n\
     fc draw_indexed 3 0 0\n\
     fc finish fast\n\
     dc set_index_buffer ib r16_uint\n\
     dc execute fast\n\
     dc finish inner\n\
     dc execute inner\n\
     dc finish outer\n\
     imm execute outer\n",
];

#[test]
fn r_rec_9_r_st_2_the_reference_keeps_what_a_nested_list_bound_before_its_own_nesting() {
    for trace in TRACES {
        let compared = replay(
            trace.as_bytes(),
            &ReplayOptions {
                compare: true,
                ..Default::default()
            },
        );
        assert!(
            compared.stdout.contains("identical to the reference"),
            "{trace}\n{}{}",
            compared.stdout,
            compared.stderr
        );
        modes::assert_holds_in_three_modes(trace);
    }
}
