//! Random traces that are valid for the parser and meaningful for the engine: a fixed pool of
//! objects declared up front, then calls on the immediate context, three deferred contexts
//! (legacy, fast, legacy) and a bundle recorder, finishes into fresh list names, executions of
//! lists that exist (directly and nested), write_discard maps with their unmap (and sometimes a
//! `write` between them, now and then past the buffer's end), minimum-LOD
//! changes, presents, and expectations (which may fail: the property compares outputs, not
//! verdicts). The fast extension calls of SPEC §15 are among them: fast resources and their
//! batches, placement, queries with results (`expect query`), GDS and constant RAM (`expect gds`,
//! `expect constant_ram`, `expect memory`), fences that kick off, a legacy context with
//! title-managed lifetimes (`c3`), `expect pending`. Some objects of the pool carry GPU contents
//! (R-GPU-2: code, elements, state fields, initial bytes), which change no record. The engine refuses some calls (a fast list binding a dynamic buffer it has not
//! mapped, a bundle over the wrong formats): that is part of what is replayed.

/// splitmix64.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const PRELUDE: &str = "\
buffer vb usage=default bind=vertex size=256
buffer dvb usage=dynamic bind=vertex size=256
buffer ib usage=default bind=index size=256
buffer cb usage=default bind=constant size=256 data=0000803f0000003f
buffer dcb usage=dynamic bind=constant size=256
buffer sb usage=dynamic bind=shader_resource size=256
srv sb_srv sb
texture tex format=r8g8b8a8_unorm width=16 height=16 mips=4 bind=shader_resource
srv tex_srv tex
srv own_srv tex min_lod=1 composed=yes
srv default_srv tex composed=yes
texture rt format=r8g8b8a8_unorm width=16 height=16 bind=render_target,shader_resource
rtv rt_rtv rt
srv rt_srv rt
texture ds format=d32_float width=16 height=16 bind=depth_stencil
dsv ds_dsv ds
shader vs0 stage=vs cb=0-1 srv=0
shader vs1 stage=vs cb=0 wgsl_hex=4076657274657820666e206d61696e2829202d3e20406275696c74696e28706f736974696f6e29207665633466207b2072657475726e20766563346628302e30293b207d entry=main
shader ps0 stage=ps cb=0 srv=0-1 sampler=0
shader cs0 stage=cs cb=0 srv=0
input_layout layout vb=0-1 elements=POSITION:r32g32b32_float:0:0,TEXCOORD:r32g32_float:1:0:instance
blend_state blend blend=src_alpha,inv_src_alpha,add
sampler_state samp filter=point address=wrap
predicate pred
query occ occlusion
query stamp timestamp
query stats pipeline_statistics
query pass predicate
buffer mem usage=default bind=unordered_access size=256
swapchain sc buffers=2 format=r8g8b8a8_unorm width=16 height=16
context c0 semantics=legacy
context c1 semantics=fast
context c2 semantics=legacy
context c3 semantics=legacy title_managed_lifetimes=yes
bundle b0 rt=r8g8b8a8_unorm
";

const CONTEXTS: &[&str] = &["imm", "imm", "c0", "c1", "c2"];
const BUFFERS_VB: &[&str] = &["vb", "dvb", "null"];
const BUFFERS_CB: &[&str] = &["cb", "dcb", "null"];
const VIEWS: &[&str] = &[
    "tex_srv",
    "sb_srv",
    "rt_srv",
    "own_srv",
    "default_srv",
    "null",
];
const DYNAMIC: &[&str] = &["dvb", "dcb", "sb"];
/// The queries (R-FX-3), of each kind.
const QUERIES: &[&str] = &["occ", "stamp", "stats", "pass", "pred"];
/// What an `expect query` may name (R-FX-3), right or wrong.
const QUERY_KEYS: &[&str] = &[
    "samples=0",
    "samples=3",
    "passed=1",
    "timestamp=1",
    "ia_vertices=3",
    "vs_invocations=0",
];
/// `barrier` arguments (R-BAR-1): each type, several in one call, a type that does not fit.
const BARRIERS: &[&str] = &[
    "texture rt sync=render_target:pixel_shading access=render_target:shader_resource \
     layout=render_target:shader_resource",
    "texture rt sync=pixel_shading:render_target access=shader_resource:render_target \
     layout=shader_resource:render_target",
    "global sync=all:all access=common:common",
    "buffer sb sync=all:vertex_shading access=common:shader_resource size=64 | buffer cb \
     sync=all:all access=common:constant_buffer | texture tex sync=none:pixel_shading \
     access=no_access:shader_resource layout=undefined:shader_resource mips=1-3 discard",
    "buffer tex sync=all:all access=common:common",
];
/// `resource_barrier` arguments (R-BAR-6).
const LEGACY_BARRIERS: &[&str] = &[
    "transition rt render_target pixel_shader_resource+non_pixel_shader_resource",
    "transition rt pixel_shader_resource+non_pixel_shader_resource render_target",
    "transition tex common copy_dest subresource=1",
    "uav null",
    "uav sb",
    "aliasing null rt",
];

/// A random trace of about `count` statements (the prelude not counted).
pub fn trace(seed: u64, count: usize) -> String {
    generate(seed, count)
}

fn generate(seed: u64, count: usize) -> String {
    let mut rng = Rng::new(seed);
    let semantics = if rng.chance(50) { "legacy" } else { "fast" };
    let validation = if rng.chance(20) { " validation=on" } else { "" };
    let legacy_barriers = if rng.chance(20) {
        " legacy_barriers=off"
    } else {
        ""
    };
    let mut out = format!("device semantics={semantics}{validation}{legacy_barriers}\n{PRELUDE}");
    let mut lists: Vec<String> = Vec::new();
    // The batches `set_fast_resources_into_batch` made (R-FX-1).
    let mut batches: Vec<String> = Vec::new();
    let mut bundle_finished = false;
    let mut draws = 0usize;
    for n in 0..count {
        let context = rng.pick(CONTEXTS);
        let line = match rng.below(24) {
            0 => format!(
                "{context} set_input_layout {}",
                rng.pick(&["layout", "null"])
            ),
            1 => format!(
                "{context} set_vertex_buffers {} {}{}",
                rng.below(2),
                rng.pick(BUFFERS_VB),
                stride_and_offset(&mut rng)
            ),
            2 => format!(
                "{context} set_index_buffer {} {}",
                rng.pick(&["ib", "null"]),
                rng.pick(&["r16_uint", "r32_uint"])
            ),
            3 => format!(
                "{context} vs_set_shader {}",
                rng.pick(&["vs0", "vs1", "null"])
            ),
            4 => format!("{context} ps_set_shader {}", rng.pick(&["ps0", "null"])),
            5 => format!(
                "{context} {}_set_constant_buffers {} {}",
                rng.pick(&["vs", "ps", "cs"]),
                rng.below(2),
                rng.pick(BUFFERS_CB)
            ),
            6 => format!(
                "{context} {}_set_shader_resources {} {}",
                rng.pick(&["vs", "ps", "cs"]),
                rng.below(2),
                rng.pick(VIEWS)
            ),
            7 => format!(
                "{context} om_set_render_targets {} {}",
                rng.pick(&["rt_rtv", "null", "sc.0.rtv"]),
                rng.pick(&["ds_dsv", "null"])
            ),
            8 => format!("{context} clear_render_target_view rt_rtv 0 0 0 1"),
            9 => {
                let buffer = rng.pick(DYNAMIC);
                // Sometimes a write in between (R-CAP-4); past the 256 bytes now and then.
                let write = match rng.below(2) {
                    0 => format!("{context} write {buffer} {} a5c3\n", rng.below(260)),
                    _ => String::new(),
                };
                format!("{context} map {buffer} write_discard\n{write}{context} unmap {buffer}")
            }
            10..=12 => {
                draws += 1;
                match rng.below(4) {
                    0 => format!("{context} draw_indexed {} 0 0", 1 + rng.below(9)),
                    1 => format!("{context} dispatch 1 1 1"),
                    _ => format!("{context} draw {} 0", 1 + rng.below(9)),
                }
            }
            13 => format!(
                "{context} om_set_blend_state {}",
                rng.pick(&["blend", "null"])
            ),
            // The reset index, and beside it GDS and constant RAM (R-FX-4, R-FX-5), fences that
            // kick off (R-FX-6) and the title-managed context's calls and finishes (R-FX-6).
            14 => match rng.below(9) {
                0 => format!(
                    "{context} set_gds_range {} {} {}",
                    rng.pick(&["ps", "cs", "vs"]),
                    4 * rng.below(8),
                    4 * rng.below(16)
                ),
                1 => format!(
                    "{context} write_gds {} {} {}",
                    4 * rng.below(8),
                    rng.below(100),
                    rng.below(100)
                ),
                2 => format!(
                    "{context} read_gds {} {} {} {}",
                    4 * rng.below(8),
                    1 + rng.below(4),
                    rng.pick(&["mem", "cb", "vb"]),
                    4 * rng.below(8)
                ),
                3 => format!(
                    "{context} {} {} {} {} {}",
                    rng.pick(&["load_constant_ram", "store_constant_ram"]),
                    rng.pick(&["mem", "cb"]),
                    4 * rng.below(8),
                    4 * rng.below(8),
                    4 * (1 + rng.below(4))
                ),
                4 => {
                    let engine = rng.pick(&["", " engine=graphics"]);
                    let kick_off = rng.pick(&["", " kick_off"]);
                    format!("{context} insert_fence f{n}{engine}{kick_off}")
                }
                5 => format!("c3 {}", title_managed_call(&mut rng)),
                6 => {
                    let name = format!("l{n}");
                    lists.push(name.clone());
                    format!("c3 finish {name}")
                }
                _ => format!("{context} set_primitive_reset_index {}", rng.below(3)),
            },
            // The sampler binds, and the fast calls beside them (R-FX-1, R-FX-2).
            15 => match rng.below(7) {
                0 => format!("{context} set_fast_resources {}", fast_entries(&mut rng)),
                // A batch is made by its first into_batch line (on any context), grown by later
                // ones, and applied on any context (R-FX-1).
                5 => {
                    let batch = match batches.is_empty() || rng.chance(40) {
                        true => {
                            batches.push(format!("batch{n}"));
                            format!("batch{n}")
                        }
                        false => batches[rng.below(batches.len())].clone(),
                    };
                    let entries = fast_entries(&mut rng);
                    format!("{context} set_fast_resources_into_batch {batch} {entries}")
                }
                6 if !batches.is_empty() => format!(
                    "{context} set_fast_resources_from_batch {}",
                    batches[rng.below(batches.len())]
                ),
                1 => format!(
                    "{context} ps_set_fast_shader_resource {} {}",
                    rng.below(2),
                    rng.pick(&["tex_srv", "rt_srv", "own_srv", "default_srv", "null"])
                ),
                2 => format!(
                    "{context} vs_set_placement_constant_buffer {} {} {:#x}",
                    rng.below(2),
                    rng.pick(&["cb", "dcb"]),
                    0x1000 * (1 + rng.below(4))
                ),
                3 => format!(
                    "{context} ps_set_placement_shader_resource 0 tex_srv {:#x}",
                    0x1000 * (1 + rng.below(4))
                ),
                _ => format!(
                    "{context} ps_set_samplers 0 {}",
                    rng.pick(&["samp", "null"])
                ),
            },
            16 => format!("{context} rs_set_viewports 0,0,{},16", 1 + rng.below(16)),
            17 => match context {
                "imm" => format!(
                    "imm set_shader_resource_view_min_lod {} {}",
                    rng.pick(&["tex_srv", "own_srv"]),
                    rng.below(4)
                ),
                _ => format!("{context} set_resource_min_lod tex {}", rng.below(4)),
            },
            18 | 19 => {
                let on = rng.pick(&["c0", "c1", "c2"]);
                let restore = if rng.chance(30) { " restore=yes" } else { "" };
                let name = format!("l{n}");
                lists.push(name.clone());
                format!("{on} finish {name}{restore}")
            }
            20 | 21 if !lists.is_empty() => {
                let list = lists[rng.below(lists.len())].clone();
                let on = if rng.chance(80) {
                    "imm"
                } else {
                    rng.pick(&["c0", "c1", "c2"])
                };
                let restore = if rng.chance(30) { " restore=yes" } else { "" };
                format!("{on} execute {list}{restore}")
            }
            22 => {
                // Bundle recording: a draw after the mandatory state, or a finish.
                if rng.chance(30) {
                    bundle_finished = true;
                    "b0 set_input_layout layout\nb0 vs_set_shader vs1\nb0 hs_set_shader null\n\
                     b0 ds_set_shader null\nb0 gs_set_shader null\nb0 ps_set_shader null\n\
                     b0 vs_set_constant_buffers 0 cb\nb0 draw 3 0\n\
                     b0 remap_constant_buffer_inheritance vs 0 vs 1\nb0 draw 3 0\nb0 finish"
                        .to_string()
                } else if bundle_finished {
                    format!("{context} draw_bundle b0")
                } else {
                    // Predication, and the queries with results beside it (R-FX-3).
                    let query = rng.pick(QUERIES);
                    match rng.below(8) {
                        0 => format!("{context} begin {query}"),
                        1 => format!("{context} end {query}"),
                        2 => format!("{context} write_query {query}"),
                        3 => format!("{context} reset_query {query}"),
                        4 => format!(
                            "{context} configure_query {query} {}",
                            rng.pick(&["counting", "binary"])
                        ),
                        5 => format!(
                            "{context} set_predication_from_query {} {}",
                            rng.pick(&[query, "null"]),
                            rng.pick(&["yes", "no"])
                        ),
                        _ => format!(
                            "{context} set_predication {} no",
                            rng.pick(&["pred", "null"])
                        ),
                    }
                }
            }
            23 => match rng.below(10) {
                0 => "imm present sc".to_string(),
                // R-EX-7: a view of a back buffer moved to either buffer.
                8 => format!(
                    "imm place_swap_chain_view {} {}",
                    rng.pick(&["sc.0.rtv", "sc.1.rtv"]),
                    rng.below(2)
                ),
                // R-ST-9: a decompression limited to a kind, or to a region of the target.
                9 => format!(
                    "{context} decompress_resource rt {}",
                    rng.pick(&["kinds=clear", "region=0:0,0,8,8", "region=0:0,0,16,16", ""])
                ),
                6 => format!("{context} barrier {}", rng.pick(BARRIERS)),
                7 => format!("{context} resource_barrier {}", rng.pick(LEGACY_BARRIERS)),
                4 => format!(
                    "expect accepted {}",
                    rng.pick(&["imm", "c0", "c1", "c2", "b0"])
                ),
                5 => {
                    // Refused by the engine, not malformed (TRACE.md).
                    let name = format!("l{n}");
                    lists.push(name.clone());
                    format!("imm finish {name}")
                }
                1 => format!("expect counters draws={draws}"),
                // `expect ok`, and the expectations of SPEC §15 beside it.
                2 => match rng.below(7) {
                    0 => format!(
                        "expect query {} {}",
                        rng.pick(QUERIES),
                        rng.pick(QUERY_KEYS)
                    ),
                    1 => format!("expect query {} not_ready", rng.pick(QUERIES)),
                    2 => format!("expect gds {} {}", 4 * rng.below(8), rng.below(100)),
                    3 => format!(
                        "expect constant_ram {} 0 {}",
                        4 * rng.below(8),
                        rng.below(9)
                    ),
                    4 => format!(
                        "expect memory {} {} {}",
                        rng.pick(&["mem", "cb"]),
                        4 * rng.below(8),
                        rng.below(100)
                    ),
                    5 => format!(
                        "expect pending {} {}",
                        rng.pick(&["cb", "dcb", "tex", "mem", "vb"]),
                        rng.pick(&["yes", "no"])
                    ),
                    _ => "expect ok".to_string(),
                },
                _ => {
                    let (field, values): (&str, &[&str]) = match rng.below(5) {
                        0 => ("vs", &["vs0", "vs1", "null"]),
                        1 => ("ps.srv.0", &["tex_srv", "sb_srv#1", "null"]),
                        2 => ("vs.cb.0", &["cb", "dcb#1", "dcb", "null"]),
                        3 => ("rtv.0", &["rt_rtv", "null"]),
                        _ => ("reset_index", &["0xffff", "0xffffffff", "1"]),
                    };
                    let value = rng.pick(values);
                    format!("expect draw {} {field} {value}", rng.below(draws + 1))
                }
            },
            _ => format!("{context} clear_state"),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// A vertex buffer's `:STRIDE[:OFFSET]` (R-GPU-2), or nothing (stride and offset 0), each
/// about a third of the time.
fn stride_and_offset(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => String::new(),
        1 => format!(":{}", 4 * rng.below(9)),
        _ => format!(":{}:{}", 4 * rng.below(9), 16 * rng.below(5)),
    }
}

/// One to three `set_fast_resources` entries (R-FX-1).
fn fast_entries(rng: &mut Rng) -> String {
    let mut entries = Vec::new();
    for _ in 0..1 + rng.below(3) {
        entries.push(match rng.below(4) {
            0 => format!(
                "vs.cb.{}={}",
                rng.below(2),
                rng.pick(&["cb", "dcb", "null"])
            ),
            1 => format!(
                "ps.srv.{}={}",
                rng.below(2),
                rng.pick(&["tex_srv", "sb_srv", "rt_srv", "null"])
            ),
            2 => format!("ps.sampler.0={}", rng.pick(&["samp", "null"])),
            _ => format!(
                "vb.{}={}{}",
                rng.below(2),
                rng.pick(&["vb", "dvb", "null"]),
                stride_and_offset(rng)
            ),
        });
    }
    entries.join(" ")
}

/// A call on the title-managed legacy context `c3` (R-FX-6): binds, maps and draws, whose lists
/// take no references.
fn title_managed_call(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("vs_set_shader {}", rng.pick(&["vs0", "vs1", "null"])),
        1 => format!(
            "vs_set_constant_buffers 0 {}",
            rng.pick(&["cb", "dcb", "null"])
        ),
        2 => format!("ps_set_shader_resources 0 {}", rng.pick(VIEWS)),
        3 => "map dcb write_discard\nc3 unmap dcb".to_string(),
        4 => format!("set_fast_resources {}", fast_entries(rng)),
        _ => format!("draw {} 0", 1 + rng.below(9)),
    }
}
