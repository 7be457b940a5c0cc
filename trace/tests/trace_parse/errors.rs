//! Malformed traces: each class of error (unknown method, context or object, an object of the
//! wrong kind, wrong argument count, bad option, bad or too large number, redeclaration, no
//! device, non-UTF-8 text) gives its line number and a message naming the token.

use trace::parse;

use super::PRELUDE;

/// Parses `text`, which must fail, and checks the error's line and message.
#[track_caller]
fn fails(text: &str, line: usize, message: &str) {
    let error = match parse(text.as_bytes()) {
        Ok(_) => panic!("parsed: {text}"),
        Err(error) => error,
    };
    assert_eq!(
        (error.line, error.message.as_str()),
        (line, message),
        "for {text:?}"
    );
    assert_eq!(error.to_string(), format!("trace:{line}: {message}"));
}

#[track_caller]
fn fails_after_prelude(line: &str, message: &str) {
    // Two blank lines and a comment before the line, to check the numbering.
    fails(&format!("{PRELUDE}\n# comment\n\n{line}\n"), 10, message);
}

#[test]
fn trace_errors_name_the_line_and_the_token() {
    // Unknown method, context, statement.
    fails_after_prelude("imm drw 3 0", "unknown method 'drw' on 'imm'");
    fails_after_prelude(
        "dc vs_set_shadr null",
        "unknown method 'vs_set_shadr' on 'dc'",
    );
    fails_after_prelude("ctx draw 3 0", "unknown statement or context 'ctx'");
    fails_after_prelude(
        "vb draw 3 0",
        "expected a declaration, 'expect' or a context, found buffer 'vb'",
    );
    fails_after_prelude(
        "3 draw",
        "expected a declaration, 'expect' or a context, found '3'",
    );
    // Wrong argument count.
    fails_after_prelude(
        "imm draw 3",
        "draw: expected START_VERTEX, found end of line",
    );
    fails_after_prelude(
        "imm draw 3 0 1",
        "draw: unexpected '1' after the last argument",
    );
    fails_after_prelude(
        "imm clear_state x",
        "clear_state: unexpected 'x' after the last argument",
    );
    fails_after_prelude(
        "imm set_vertex_buffers 0",
        "set_vertex_buffers: expected a buffer or null, found end of line",
    );
    fails_after_prelude(
        "imm rs_set_viewports 0,0,1",
        "rs_set_viewports: expected X,Y,W,H (four numbers), found '0,0,1'",
    );
    // Options.
    fails_after_prelude(
        "buffer b usage=default bind=vertex size=4 colour=red",
        "buffer: unknown option 'colour' (expected usage=, bind=, size=, uav_flag=, heap=, offset=, data=)",
    );
    fails_after_prelude(
        "buffer b usage=default size=4",
        "buffer: missing option 'bind='",
    );
    fails_after_prelude(
        "buffer b usage=default bind=vertex size=4 size=5",
        "buffer: option 'size=' given twice",
    );
    fails_after_prelude(
        "buffer b usage=sometimes bind=vertex size=4",
        "buffer: expected usage= (default|immutable|dynamic|staging), found 'sometimes'",
    );
    fails_after_prelude(
        "buffer b usage=default bind=vertex,colour size=4",
        "buffer: expected a bind flag (vertex|index|constant|shader_resource|unordered_access|\
         stream_output|render_target|depth_stencil, or none), found 'colour'",
    );
    fails_after_prelude(
        "dc finish l restore=maybe",
        "finish: expected restore= (yes|no), found 'maybe'",
    );
    fails_after_prelude(
        "shader s stage=ps cb=5-2",
        "shader: cb=: the range '5-2' is backwards",
    );
    fails_after_prelude(
        "shader s stage=ps cb=1,,2",
        "shader: empty item in the comma-separated list '1,,2'",
    );
    // Numbers.
    fails_after_prelude(
        "imm draw x 0",
        "draw: expected VERTEX_COUNT (an unsigned integer), found 'x'",
    );
    fails_after_prelude(
        "imm draw -1 0",
        "draw: expected VERTEX_COUNT (an unsigned integer), found '-1'",
    );
    fails_after_prelude(
        "imm draw 99999999999999999999999 0",
        "draw: number '99999999999999999999999' is too large for VERTEX_COUNT",
    );
    fails_after_prelude(
        "imm draw_indexed 3 0 -9223372036854775809",
        "draw_indexed: number '-9223372036854775809' is too large for BASE_VERTEX",
    );
    fails_after_prelude(
        "imm draw 0x 0",
        "draw: expected VERTEX_COUNT (an unsigned integer), found '0x'",
    );
    fails_after_prelude(
        "imm set_resource_min_lod albedo nan",
        "set_resource_min_lod: expected F (a number), found 'nan'",
    );
    fails_after_prelude(
        "imm set_resource_min_lod albedo 1e39",
        "set_resource_min_lod: number '1e39' is too large for F",
    );
    // Unknown objects, objects of the wrong kind.
    fails_after_prelude(
        "imm set_vertex_buffers 0 albedo",
        "set_vertex_buffers: expected a buffer or null, found texture 'albedo'",
    );
    fails_after_prelude(
        "imm set_vertex_buffers 0 vb vbx",
        "set_vertex_buffers: expected a buffer or null, found unknown name 'vbx'",
    );
    fails_after_prelude(
        "imm draw_instanced_indirect null 0",
        "draw_instanced_indirect: expected a buffer, found 'null'",
    );
    fails_after_prelude(
        "rtv r sc.2",
        "rtv: expected a buffer or texture, found unknown name 'sc.2'",
    );
    fails_after_prelude(
        "imm om_set_render_targets sc.1,sc.1.rtv null",
        "om_set_render_targets: expected a render-target view or null, found texture 'sc.1'",
    );
    fails_after_prelude(
        "imm draw_bundle bun",
        "draw_bundle: expected a finished bundle, found bundle recorder 'bun' \
         (no 'bun finish' before this line)",
    );
    fails_after_prelude(
        "imm execute dc",
        "execute: expected a command list, found deferred context 'dc'",
    );
    fails_after_prelude(
        "imm insert_fence vb",
        "insert_fence: expected a fence name, found buffer 'vb'",
    );
    // Declarations.
    fails_after_prelude(
        "buffer vb usage=default bind=vertex size=4",
        "buffer: 'vb' is already declared (buffer on line 2)",
    );
    fails_after_prelude(
        "texture sc.1 format=r8_unorm width=1 height=1 bind=none",
        "texture: 'sc.1' is already declared (texture on line 6)",
    );
    fails_after_prelude(
        "context buffer semantics=fast",
        "context: 'buffer' is a reserved word (imm, null, expect, release and the declaration keywords) and cannot name an object",
    );
    fails_after_prelude(
        "bundle imm rt=none",
        "bundle: 'imm' is a reserved word (imm, null, expect, release and the declaration keywords) and cannot name an object",
    );
    fails_after_prelude(
        "dc finish vb",
        "finish: 'vb' is already declared (buffer on line 2)",
    );
    fails_after_prelude(
        "bundle b2 rt=r8_unorm,none",
        "bundle: rt=none stands alone, without formats",
    );
    fails_after_prelude(
        "device semantics=fast",
        "device: the device is already declared on line 1",
    );
    // `imm finish LIST` parses (the replay refuses it), declaring LIST like any finish.
    fails_after_prelude(
        "imm finish vb",
        "finish: 'vb' is already declared (buffer on line 2)",
    );
    fails_after_prelude(
        "bun finish l",
        "finish: a bundle recorder's finish takes no arguments (the bundle is named 'bun'), \
         found 'l'",
    );
    // Expectations.
    fails_after_prelude(
        "expect draw 0 vs vb",
        "expect draw: expected a shader, found buffer 'vb'",
    );
    fails_after_prelude(
        "expect draw 0 vs.cb 1",
        "expect draw: expected a draw-record field (vs, ps.cb.0, ps.srv.1.min_lod, vb.0, \
         rtv.0, viewport.0, args, ...), found 'vs.cb'",
    );
    fails_after_prelude(
        "expect draw 0 predicated maybe",
        "expect draw: expected VALUE (yes|no), found 'maybe'",
    );
    fails_after_prelude(
        "expect draw 0 viewport.0 0,0,1",
        "expect draw: expected four numbers for viewport.0, found '0,0,1'",
    );
    fails_after_prelude(
        "expect counters draws=1 draws=2",
        "expect counters: draws= given twice",
    );
    fails_after_prelude(
        "expect counters drawz=1",
        "expect counters: expected a counter key (draws|dispatches|context_rolls|\
         ib_executions|split_points_resolved|decompressions|ce_bytes|cache_flushes|\
         cache_invalidations|fence_waits|bundle_calls|barriers|drains|stalls|metadata_inits), \
         found 'drawz'",
    );
    fails_after_prelude(
        "expect error dc missing",
        "expect error: expected an error kind (budget_exceeded|not_encapsulable|\
         inherited_state_in_bundle|unsupported_in_bundle|missing_mandatory_state|\
         stream_output_in_bundle|format_mismatch|dynamic_before_map|restore_not_supported|\
         mixed_semantics|forbidden_in_fast|too_many_contexts|released_object|resource_in_use|\
         compressed_read|missing_wait_on_present|back_buffer_affinity|hazard|\
         invalid_barrier|legacy_state_not_common|invalid_argument), found 'missing'",
    );
    fails_after_prelude(
        "expect frobnicate",
        "expect: expected ok, accepted, error, resource, gds, constant_ram, memory, pending, \
         split_points, counters, draw, query or bundle_footprint, found 'frobnicate'",
    );
    // Barriers: the kind, the options, the words, the ranges.
    fails_after_prelude(
        "imm barrier fence sync=all:all access=common:common",
        "barrier: expected a barrier (global|buffer|texture), found 'fence'",
    );
    fails_after_prelude(
        "imm barrier global sync=all:all access=common:common |",
        "barrier: expected a barrier (global|buffer|texture), found end of line",
    );
    fails_after_prelude(
        "imm barrier global access=common:common",
        "barrier: missing option 'sync='",
    );
    fails_after_prelude(
        "imm barrier global sync=all access=common:common",
        "barrier: expected sync=BEFORE:AFTER, found 'all'",
    );
    fails_after_prelude(
        "imm barrier buffer vb sync=all:warp access=common:common",
        "barrier: expected sync= (none|all|draw|index_input|vertex_shading|pixel_shading|\
         depth_stencil|render_target|compute_shading|raytracing|copy|resolve|execute_indirect|\
         predication|all_shading|non_pixel_shading|clear_unordered_access_view|split), found 'warp'",
    );
    fails_after_prelude(
        "imm barrier texture albedo sync=all:all access=common:common",
        "barrier: missing option 'layout='",
    );
    fails_after_prelude(
        "imm barrier texture albedo sync=all:all access=common:common layout=common:common \
         mips=3-1",
        "barrier: mips=3-1 is a backwards range (expected A-B with A <= B)",
    );
    fails_after_prelude(
        "imm barrier texture albedo sync=all:all access=common:common layout=common:common \
         discard discard",
        "barrier: 'discard' given twice",
    );
    fails_after_prelude(
        "imm barrier buffer dc sync=all:all access=common:common",
        "barrier: expected a buffer or texture, found deferred context 'dc'",
    );
    fails_after_prelude(
        "imm resource_barrier transition vb common shiny",
        "resource_barrier: expected STATE_AFTER (common|vertex_and_constant_buffer|index_buffer|\
         render_target|unordered_access|depth_write|depth_read|non_pixel_shader_resource|\
         pixel_shader_resource|stream_out|indirect_argument|copy_dest|copy_source|resolve_dest|\
         resolve_source|generic_read|present), found 'shiny'",
    );
    fails_after_prelude(
        "imm resource_barrier flush vb",
        "resource_barrier: expected a legacy barrier (transition|uav|aliasing), found 'flush'",
    );
    fails_after_prelude(
        "expect resource albedo layout=sideways",
        "expect resource: expected layout= (undefined|common|generic_read|render_target|\
         unordered_access|depth_stencil_write|depth_stencil_read|shader_resource|copy_source|\
         copy_dest|resolve_source|resolve_dest|direct_queue_common|direct_queue_generic_read|\
         direct_queue_unordered_access|direct_queue_shader_resource|direct_queue_copy_source|\
         direct_queue_copy_dest|compute_queue_common|compute_queue_generic_read|\
         compute_queue_unordered_access|compute_queue_shader_resource|compute_queue_copy_source|\
         compute_queue_copy_dest|present|mixed), found 'sideways'",
    );
    fails_after_prelude(
        "expect ok now",
        "expect ok: unexpected 'now' after the last argument",
    );
}

#[test]
fn trace_errors_for_device_binary_and_empty_input() {
    fails(
        "# no device\nbuffer b usage=default bind=vertex size=4\n",
        2,
        "expected 'device' as the first statement, found 'buffer'",
    );
    fails(
        "",
        1,
        "the trace has no 'device' statement (it must come first)",
    );
    fails(
        "# only\n\n# comments\n",
        4,
        "the trace has no 'device' statement (it must come first)",
    );
    let error = parse(b"device semantics=fast\nimm draw \xff 0\n").unwrap_err();
    assert_eq!(error.line, 2);
    assert_eq!(
        error.message,
        "the line is not UTF-8 text (byte 0xff at column 10)"
    );
    let error = parse(&[0u8, 159, 146, 150, 10, 255, 0]).unwrap_err();
    assert_eq!(error.line, 1);
    // A long token is quoted cut short.
    let long = "x".repeat(1000);
    fails(
        &format!("device semantics={long}"),
        1,
        &format!(
            "device: expected semantics= (legacy|fast), found '{}...' (1000 bytes)",
            "x".repeat(40)
        ),
    );
    // CRLF line ends read as LF.
    assert_eq!(
        parse(b"device semantics=fast\r\nexpect ok\r\n").unwrap(),
        parse(b"device semantics=fast\nexpect ok\n").unwrap()
    );
}
