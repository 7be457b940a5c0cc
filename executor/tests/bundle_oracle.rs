//! R-O-1 for draw bundles: a random bundle (random encapsulated slots, remaps across stages and
//! kinds, shader and layout changes, draws) called under a random caller state gives the same
//! draw records as its draws issued directly with the caller's state overlaid by the bundle's
//! slots and remaps, and the caller's state is unchanged after (TRACE.md `--compare`).
//!
//! X calls the bundle: on the immediate context (fast or legacy), or from a fast or a legacy
//! deferred list; each call is followed by a probe draw, and on the immediate context the GPU
//! model's whole state is compared before and after. Y, on an identical fixture on a twin device (same handles),
//! issues the caller's calls on a fast immediate context, then for each bundle call: the
//! bundle's sets as they are, each remap as a set of the slot to what the *caller* had at the
//! inherited slot (tracked by the test: a model of the caller's bindings), the draws; then every
//! slot the bundle touched set back to the caller's binding; then the probe.
//!
//! The fast calls a bundle accepts (R-FX-1 `set_fast_resources`, its batches,
//! `set_fast_shader_resource`; R-FX-2's placement binds) are among both the caller's and the
//! bundle's calls: each entry is a bind of its slot, so Y makes the same call directly and
//! restores the slot as for a bind, and a remap inherits whatever the caller bound, placed
//! instances included. The calls a bundle refuses (R-FX-3's query calls and
//! `set_predication_from_query`, R-FX-4/5's GDS and constant RAM) are sprinkled among the
//! bundle's: each must be refused with its documented kind, naming itself, recording nothing;
//! the finish returns the first with the index of that call, and the same bundle recorded
//! without them (on the same recorder, which starts afresh) has the same counters.

mod common;

use std::collections::HashMap;

use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use common::*;
use executor::{DrawRecord, ImmediateContext};
use proptest::prelude::*;
use recorder::*;

/// Stages the tests bind at; bundles bind at the first three, callers at all four.
const STAGES: [Stage; 4] = [Stage::Vertex, Stage::Hull, Stage::Pixel, Stage::Compute];
const CB_SLOTS: [u32; 7] = [0, 1, 2, 5, 10, 11, 15];
const SRV_SLOTS: [u32; 4] = [0, 1, 2, 5];
const SAMPLER_SLOTS: [u32; 3] = [0, 1, 3];
const VB_SLOTS: [u32; 4] = [0, 1, 2, 3];
/// Which SRV binding is rt's (bound as the render target of every caller).
const RT_SRV: u8 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Cb,
    Srv,
    Sampler,
    Vb,
}

#[derive(Clone, Debug)]
enum Op {
    /// Graphics stage index (0..5), and which shader of that stage's options.
    Shader(u8, u8),
    Layout(u8),
    Topology(u8),
    /// Stage index into `STAGES`, slot, which object (0 is null).
    Bind(Kind, u8, u32, u8),
    /// 0 none, 1 r16 (bundles only), 2 r32.
    IndexBuffer(u8),
    /// Kind, stage, slot, inherit stage, inherit slot.
    Remap(Kind, u8, u32, u8, u32),
    Draw(u32),
    DrawIndexed(u32),
    /// `set_fast_resources` of the entries (R-FX-1).
    Fast(Vec<Entry>),
    /// The entries recorded into a batch in two `set_fast_resources_into_batch` calls, the
    /// batch then applied this many times (R-FX-1).
    Batch(Vec<Entry>, u8),
    /// `set_fast_shader_resource`: stage index, slot, which view (R-FX-1).
    FastSrv(u8, u32, u8),
    /// A placement bind (R-FX-2): kind (constant buffer, view or vertex buffer), stage index,
    /// slot, which default object, address.
    Placed(Kind, u8, u32, u8, u64),
    /// `set_placement_index_buffer` of `ib` (R-FX-2): r32 or r16, address.
    PlacedIndex(bool, u64),
    /// A call a bundle refuses (bundles only): which of `refuse`'s.
    Refused(u8),
}

/// One entry of a fast call: kind, stage index, slot, which object (as `Op::Bind`).
type Entry = (Kind, u8, u32, u8);

/// The addresses the placement binds use: few, so that binds repeat one another's.
const ADDRESSES: [u64; 3] = [0x1000, 0x2000, 0x10_0000];

/// What the two fixtures have beyond `Fixture`: shaders that read many slots, a second layout.
struct Extra {
    vs: Shader,
    vs2: Shader,
    hs: Shader,
    ps: Shader,
    layout2: InputLayout,
    cb3: Buffer,
    sampler2: SamplerState,
    /// A default-usage vertex buffer, for placement (`vb` and `vb2` are immutable).
    vb3: Buffer,
}

fn extra(f: &Fixture) -> Extra {
    let shader = |name: &str, stage, cbs: u16, srvs: u128, samplers: u16| {
        f.device
            .create_shader(&ShaderDesc {
                constant_buffers: Slots::from_bits(cbs.into()),
                shader_resources: Slots::from_bits(srvs),
                samplers: Slots::from_bits(samplers.into()),
                ..ShaderDesc::new(name, stage)
            })
            .expect("shader")
    };
    let all_cb = CB_SLOTS.iter().fold(0u16, |m, s| m | 1 << s);
    let all_srv = SRV_SLOTS.iter().fold(0u128, |m, s| m | 1 << s);
    let all_sampler = SAMPLER_SLOTS.iter().fold(0u16, |m, s| m | 1 << s);
    Extra {
        vs: shader("vs_wide", Stage::Vertex, all_cb, all_srv, all_sampler),
        vs2: shader("vs_narrow", Stage::Vertex, 0b1, 0, 0),
        hs: shader("hs_some", Stage::Hull, 0b111, 0b11, 0b1),
        ps: shader("ps_wide", Stage::Pixel, all_cb, all_srv, all_sampler),
        layout2: f
            .device
            .create_input_layout(&InputLayoutDesc {
                name: "layout2",
                vertex_buffers: Slots::first(4),
            })
            .expect("layout"),
        cb3: f
            .device
            .create_buffer(&BufferDesc {
                name: "cb3",
                size: 256,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            })
            .expect("cb3"),
        sampler2: f.device.create_sampler_state("sampler2").expect("sampler"),
        vb3: f
            .device
            .create_buffer(&BufferDesc {
                name: "vb3",
                size: 256,
                bind: BindFlags::VERTEX,
                ..Default::default()
            })
            .expect("vb3"),
    }
}

/// A binding of one slot, as the caller model keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Binding {
    Buffer(Option<Buffer>),
    View(Option<ShaderResourceView>),
    Sampler(Option<SamplerState>),
    Vertex(VertexBuffer),
    /// A placed default buffer, view or vertex buffer (R-FX-2) and its address.
    PlacedBuffer(Buffer, u64),
    PlacedView(ShaderResourceView, u64),
    PlacedVertex(Buffer, u32, u32, u64),
}

struct World {
    f: Fixture,
    x: Extra,
}

impl World {
    fn new(semantics: Semantics) -> Self {
        Self::on(Fixture::with_immediate(semantics))
    }

    /// The world on a twin of `of`'s device: the same objects with the same handles.
    fn twin_of(of: &World, semantics: Semantics) -> Self {
        Self::on(Fixture::twin_of(&of.f, semantics))
    }

    fn on(f: Fixture) -> Self {
        let x = extra(&f);
        Self { f, x }
    }

    fn shader(&self, stage: u8, which: u8) -> (Stage, Option<Shader>) {
        let stage = Stage::GRAPHICS[stage as usize % 5];
        let options: &[Option<Shader>] = match stage {
            Stage::Vertex => &[None, Some(self.x.vs), Some(self.x.vs2)],
            Stage::Hull => &[None, Some(self.x.hs)],
            Stage::Pixel => &[None, Some(self.x.ps), Some(self.f.ps)],
            _ => &[None],
        };
        (stage, options[which as usize % options.len()])
    }

    fn binding(&self, kind: Kind, which: u8) -> Binding {
        let f = &self.f;
        match kind {
            Kind::Cb => Binding::Buffer(
                [None, Some(f.cb), Some(f.cb2), Some(self.x.cb3)][which as usize % 4],
            ),
            Kind::Srv => Binding::View(
                [
                    None,
                    Some(f.tex_srv),
                    Some(f.tex2_srv),
                    Some(f.sb_srv),
                    Some(f.rt_srv),
                    Some(f.tex_composed_srv),
                    Some(f.tex2_composed_srv),
                ][which as usize % 7],
            ),
            Kind::Sampler => {
                Binding::Sampler([None, Some(f.sampler), Some(self.x.sampler2)][which as usize % 3])
            }
            Kind::Vb => Binding::Vertex(VertexBuffer {
                buffer: [None, Some(f.vb), Some(f.vb2)][which as usize % 3],
                stride: 16 * (1 + which as u32 % 2),
                offset: 4 * (which as u32 % 3),
            }),
        }
    }

    /// A fast entry: the binding `Op::Bind` of the same numbers makes.
    fn entry(&self, (kind, stage, slot, which): Entry) -> FastResource {
        let stage = STAGES[stage as usize % 4];
        match self.binding(kind, which) {
            Binding::Buffer(buffer) => FastResource::ConstantBuffer {
                stage,
                slot,
                buffer,
            },
            Binding::View(view) => FastResource::ShaderResource { stage, slot, view },
            Binding::Sampler(sampler) => FastResource::Sampler {
                stage,
                slot,
                sampler,
            },
            Binding::Vertex(buffer) => FastResource::VertexBuffer { slot, buffer },
            _ => unreachable!("`binding` makes no placed binding"),
        }
    }

    fn entries(&self, entries: &[Entry]) -> Vec<FastResource> {
        entries.iter().map(|e| self.entry(*e)).collect()
    }

    /// A placed binding of one of the default objects of `kind` (samplers have none: a
    /// constant buffer then).
    fn placed(&self, kind: Kind, which: u8, address: u64) -> Binding {
        let (f, which) = (&self.f, which as usize);
        match kind {
            Kind::Cb | Kind::Sampler => {
                Binding::PlacedBuffer([f.cb, f.cb2, self.x.cb3][which % 3], address)
            }
            Kind::Srv => Binding::PlacedView([f.tex_srv, f.tex2_srv, f.sb_srv][which % 3], address),
            Kind::Vb => Binding::PlacedVertex(
                self.x.vb3,
                16 * (1 + which as u32 % 2),
                4 * (which as u32 % 3),
                address,
            ),
        }
    }
}

/// Makes refused call `which` on a bundle recorder: its name and the kind it must be refused
/// with (R-B-7 for predication, R-B-8 for the rest). A bundle recorder has none of these calls
/// (they do not compile on it), so the call is made by name, as the trace replay makes it: the
/// refusal of the call's capability ([`Capability::bundle_refusal`]).
fn refuse(_w: &World, r: &mut BundleRecorder, which: u8) -> (&'static str, ErrorKind) {
    const CALLS: [(&str, Capability); 12] = [
        ("write_query", Capability::Query),
        ("reset_query", Capability::Query),
        ("configure_query", Capability::Query),
        ("set_predication_from_query", Capability::InheritedState),
        ("set_predication_from_query", Capability::InheritedState),
        ("set_gds_range", Capability::EngineMemory),
        ("write_gds", Capability::EngineMemory),
        ("read_gds", Capability::EngineMemory),
        ("load_constant_ram", Capability::EngineMemory),
        ("store_constant_ram", Capability::EngineMemory),
        ("begin_query", Capability::Query),
        ("end_query", Capability::Query),
    ];
    let (call, capability) = CALLS[which as usize % 12];
    r.refuse_missing_capability(call, capability);
    let kind = match capability {
        Capability::InheritedState => ErrorKind::InheritedStateInBundle,
        _ => ErrorKind::UnsupportedInBundle,
    };
    (call, kind)
}

/// Sets `binding` at (stage, slot) on a context or a bundle recorder (both have the calls).
macro_rules! bind {
    ($c:expr, $stage:expr, $slot:expr, $binding:expr) => {
        match $binding {
            Binding::Buffer(b) => $c.set_constant_buffers($stage, $slot, &[b]),
            Binding::View(v) => $c.set_shader_resources($stage, $slot, &[v]),
            Binding::Sampler(s) => $c.set_samplers($stage, $slot, &[s]),
            Binding::Vertex(vb) => $c.set_vertex_buffers($slot, &[vb]),
            Binding::PlacedBuffer(b, a) => $c.set_placement_constant_buffer($stage, $slot, b, a),
            Binding::PlacedView(v, a) => $c.set_placement_shader_resource($stage, $slot, v, a),
            Binding::PlacedVertex(b, stride, offset, a) => {
                $c.set_placement_vertex_buffer($slot, b, stride, offset, a)
            }
        }
    };
}

/// Applies a state op (not a remap) to a context or a bundle recorder.
macro_rules! apply {
    ($w:expr, $c:expr, $op:expr) => {
        match *$op {
            Op::Shader(stage, which) => {
                let (stage, shader) = $w.shader(stage, which);
                $c.set_shader(stage, shader)
            }
            Op::Layout(which) => $c.set_input_layout(
                [None, Some($w.f.layout), Some($w.x.layout2)][which as usize % 3],
            ),
            Op::Topology(which) => $c.set_primitive_topology(
                [
                    PrimitiveTopology::TriangleList,
                    PrimitiveTopology::TriangleStrip,
                    PrimitiveTopology::LineList,
                ][which as usize % 3],
            ),
            Op::Bind(kind, stage, slot, which) => {
                bind!(
                    $c,
                    STAGES[stage as usize % 4],
                    slot,
                    $w.binding(kind, which)
                )
            }
            Op::IndexBuffer(which) => match which % 3 {
                0 => $c.set_index_buffer(None, Format::R32Uint, 0),
                1 => $c.set_index_buffer(Some($w.f.ib), Format::R16Uint, 8),
                _ => $c.set_index_buffer(Some($w.f.ib), Format::R32Uint, 0),
            },
            Op::Draw(n) => $c.draw(n, 0),
            Op::DrawIndexed(n) => $c.draw_indexed(n, 0, 0),
            Op::Fast(ref entries) => $c.set_fast_resources(&$w.entries(entries)),
            Op::Batch(ref entries, times) => {
                let entries = $w.entries(entries);
                let (first, second) = entries.split_at(entries.len() / 2);
                let mut batch = FastResourceBatch::new();
                $c.set_fast_resources_into_batch(&mut batch, first);
                $c.set_fast_resources_into_batch(&mut batch, second);
                for _ in 0..times {
                    $c.set_fast_resources_from_batch(&batch);
                }
            }
            Op::FastSrv(stage, slot, which) => {
                let Binding::View(view) = $w.binding(Kind::Srv, which) else {
                    unreachable!("a view")
                };
                $c.set_fast_shader_resource(STAGES[stage as usize % 4], slot, view)
            }
            Op::Placed(kind, stage, slot, which, address) => {
                bind!(
                    $c,
                    STAGES[stage as usize % 4],
                    slot,
                    $w.placed(kind, which, address)
                )
            }
            Op::PlacedIndex(r32, address) => $c.set_placement_index_buffer(
                $w.f.ib,
                address,
                if r32 {
                    Format::R32Uint
                } else {
                    Format::R16Uint
                },
            ),
            Op::Remap(..) => unreachable!("remaps are the bundle's"),
            Op::Refused(_) => unreachable!("refused calls are the bundle's"),
        }
    };
}

/// The caller's bindings, as far as bundles can read or change them.
#[derive(Clone, Default)]
struct Caller {
    slots: HashMap<(Kind, Stage, u32), Binding>,
    shaders: HashMap<Stage, Option<Shader>>,
    layout: Option<u8>,
    topology: Option<u8>,
    /// The op that set the index buffer (`Op::IndexBuffer` or `Op::PlacedIndex`).
    index_buffer: Option<Op>,
}

impl Caller {
    fn track(&mut self, w: &World, op: &Op) {
        match *op {
            Op::Shader(stage, which) => {
                let (stage, shader) = w.shader(stage, which);
                self.shaders.insert(stage, shader);
            }
            Op::Layout(which) => self.layout = Some(which),
            Op::Topology(which) => self.topology = Some(which),
            Op::Bind(kind, stage, slot, which) => {
                let stage = match kind {
                    Kind::Vb => Stage::Vertex,
                    _ => STAGES[stage as usize % 4],
                };
                self.slots
                    .insert((kind, stage, slot), w.binding(kind, which));
            }
            Op::Fast(ref entries) | Op::Batch(ref entries, 1..) => {
                for &(kind, stage, slot, which) in entries {
                    self.track(w, &Op::Bind(kind, stage, slot, which));
                }
            }
            Op::FastSrv(stage, slot, which) => {
                self.track(w, &Op::Bind(Kind::Srv, stage, slot, which))
            }
            Op::Placed(kind, stage, slot, which, address) => {
                let stage = match kind {
                    Kind::Vb => Stage::Vertex,
                    _ => STAGES[stage as usize % 4],
                };
                self.slots
                    .insert((kind, stage, slot), w.placed(kind, which, address));
            }
            Op::IndexBuffer(_) | Op::PlacedIndex(..) => self.index_buffer = Some(op.clone()),
            _ => {}
        }
    }

    fn slot(&self, kind: Kind, stage: Stage, slot: u32) -> Binding {
        let stage = if kind == Kind::Vb {
            Stage::Vertex
        } else {
            stage
        };
        self.slots
            .get(&(kind, stage, slot))
            .copied()
            .unwrap_or(match kind {
                Kind::Cb => Binding::Buffer(None),
                Kind::Srv => Binding::View(None),
                Kind::Sampler => Binding::Sampler(None),
                Kind::Vb => Binding::Vertex(VertexBuffer::default()),
            })
    }
}

fn remap_kind(kind: Kind) -> RemapKind {
    match kind {
        Kind::Cb => RemapKind::ConstantBuffer,
        Kind::Srv => RemapKind::ShaderResource,
        Kind::Sampler => RemapKind::Sampler,
        Kind::Vb => RemapKind::VertexBuffer,
    }
}

fn bundle_desc() -> BundleDesc<'static> {
    BundleDesc {
        depth: Some(Format::D32Float),
        ..BundleDesc::new("oracle", &[Format::R8G8B8A8Unorm])
    }
}

fn targets(f: &Fixture, c: &mut impl DeviceContext) {
    c.set_render_targets(&[Some(f.rt_rtv)], Some(f.ds_dsv));
}

/// The API calls an op makes on a bundle recorder (the call index of a refusal counts them).
fn api_calls(op: &Op) -> u32 {
    match *op {
        Op::Batch(_, times) => 2 + u32::from(times),
        _ => 1,
    }
}

/// Makes one op on a bundle recorder.
fn record_op(w: &World, recorder: &mut BundleRecorder, op: &Op) {
    match *op {
        Op::Remap(kind, stage, slot, istage, islot) => {
            let (stage, istage) = (STAGES[stage as usize % 4], STAGES[istage as usize % 4]);
            match remap_kind(kind) {
                RemapKind::ConstantBuffer => {
                    recorder.remap_constant_buffer_inheritance(stage, slot, istage, islot)
                }
                RemapKind::ShaderResource => {
                    recorder.remap_shader_resource_inheritance(stage, slot, istage, islot)
                }
                RemapKind::Sampler => {
                    recorder.remap_sampler_inheritance(stage, slot, istage, islot)
                }
                RemapKind::VertexBuffer => recorder.remap_vertex_buffer_inheritance(slot, islot),
            }
        }
        Op::Refused(which) => {
            refuse(w, recorder, which);
        }
        _ => apply!(w, recorder, op),
    }
}

/// What a recording left: the counters, the footprint.
fn left(recorder: &BundleRecorder) -> (ListStats, u32) {
    (recorder.stats(), recorder.footprint_bytes())
}

/// Records the bundle on X's device. With refused calls among `ops`, records it first with them:
/// each must be refused with its kind, naming itself, recording nothing, and the finish must
/// return the first with its call index; then records it again without them on the same
/// recorder, which must end with the same counters, and returns that bundle.
fn record(w: &World, prefix: &[Op], ops: &[Op]) -> Result<DrawBundle, TestCaseError> {
    let mut recorder = BundleRecorder::new(&w.f.device, &bundle_desc()).expect("recorder");
    let all = || prefix.iter().chain(ops);
    let poisoned = if ops.iter().any(|op| matches!(op, Op::Refused(_))) {
        let (mut index, mut first) = (0u32, None);
        for op in all() {
            if let Op::Refused(which) = *op {
                let before = left(&recorder);
                let (name, kind) = refuse(w, &mut recorder, which);
                let error = recorder.last_refusal().cloned();
                let error = error.ok_or_else(|| TestCaseError::fail(format!("{name} accepted")))?;
                prop_assert_eq!(error.kind(), kind, "{}: {}", name, error);
                prop_assert!(error.to_string().starts_with(name), "{}: {}", name, error);
                prop_assert_eq!(left(&recorder), before, "{} recorded something", name);
                first.get_or_insert((index, name, kind));
            } else {
                prop_assert!(
                    first.is_some() || recorder.error().is_none(),
                    "refused before any refused call: {:?}",
                    recorder.error()
                );
                record_op(w, &mut recorder, op);
            }
            index += api_calls(op);
        }
        let after = left(&recorder);
        let Some((index, name, kind)) = first else {
            unreachable!("a refused call was made")
        };
        match recorder.finish() {
            Ok(_) => prop_assert!(false, "a bundle with {} finished", name),
            Err(error) => {
                prop_assert_eq!(error.kind(), kind, "{}", error);
                prop_assert!(error.error.to_string().starts_with(name), "{}", error);
                prop_assert_eq!(error.call_index, index, "the call index of {}", name);
            }
        }
        Some(after)
    } else {
        None
    };
    for op in all().filter(|op| !matches!(op, Op::Refused(_))) {
        record_op(w, &mut recorder, op);
    }
    if let Some(poisoned) = poisoned {
        prop_assert_eq!(
            left(&recorder),
            poisoned,
            "the refused calls changed the bundle"
        );
    }
    recorder
        .finish()
        .map_err(|e| TestCaseError::fail(format!("the bundle was refused: {e}")))
}

/// Y's side of one bundle call: the bundle's calls over the caller's state, then the caller's
/// bindings put back where the bundle wrote.
fn issue_directly(w: &World, imm: &mut ImmediateContext, caller: &Caller, bundle: &[Op]) {
    let mut touched: Vec<Op> = Vec::new();
    for op in bundle {
        match *op {
            Op::Remap(kind, stage, slot, istage, islot) => {
                let (stage, istage) = (STAGES[stage as usize % 4], STAGES[istage as usize % 4]);
                bind!(imm, stage, slot, caller.slot(kind, istage, islot));
                touched.push(op.clone());
            }
            Op::Draw(_) | Op::DrawIndexed(_) => apply!(w, imm, op),
            Op::Refused(_) => {}
            Op::Fast(ref entries) | Op::Batch(ref entries, _) => {
                apply!(w, imm, op);
                let slots = entries
                    .iter()
                    .map(|&(kind, stage, slot, _)| Op::Bind(kind, stage, slot, 0));
                touched.extend(slots);
            }
            Op::FastSrv(stage, slot, _) => {
                apply!(w, imm, op);
                touched.push(Op::Bind(Kind::Srv, stage, slot, 0));
            }
            Op::Placed(kind, stage, slot, ..) => {
                apply!(w, imm, op);
                touched.push(Op::Bind(kind, stage, slot, 0));
            }
            Op::PlacedIndex(..) => {
                apply!(w, imm, op);
                touched.push(Op::IndexBuffer(0));
            }
            _ => {
                apply!(w, imm, op);
                touched.push(op.clone());
            }
        }
    }
    for op in &touched {
        match *op {
            Op::Shader(stage, which) => {
                let (stage, _) = w.shader(stage, which);
                imm.set_shader(stage, caller.shaders.get(&stage).copied().flatten());
            }
            Op::Layout(_) => apply!(w, imm, &Op::Layout(caller.layout.unwrap_or(0))),
            Op::Topology(_) => match caller.topology {
                Some(which) => apply!(w, imm, &Op::Topology(which)),
                None => imm.set_primitive_topology(PrimitiveTopology::Undefined),
            },
            Op::IndexBuffer(_) => {
                let op = caller.index_buffer.clone().unwrap_or(Op::IndexBuffer(0));
                apply!(w, imm, &op)
            }
            Op::Bind(kind, stage, slot, _) | Op::Remap(kind, stage, slot, ..) => {
                let stage = STAGES[stage as usize % 4];
                bind!(imm, stage, slot, caller.slot(kind, stage, slot));
            }
            _ => {}
        }
    }
}

/// How X calls the bundle.
#[derive(Clone, Copy, Debug)]
enum Via {
    Immediate(Semantics),
    List(Semantics),
}

fn fields(records: &[DrawRecord]) -> Vec<Vec<(String, executor::FieldValue)>> {
    records.iter().map(|r| r.fields()).collect()
}

fn check(
    via: Via,
    setup: &[Op],
    prefix: &[Op],
    ops: &[Op],
    calls: usize,
) -> Result<(), TestCaseError> {
    // X.
    let immediate = match via {
        Via::Immediate(semantics) => semantics,
        Via::List(_) => Semantics::Fast,
    };
    let wx = World::new(immediate);
    let bundle = record(&wx, prefix, ops)?;
    let mut imm_x = ImmediateContext::new(&wx.f.device).expect("immediate");
    match via {
        Via::Immediate(_) => {
            targets(&wx.f, &mut imm_x);
            setup.iter().for_each(|op| apply!(wx, imm_x, op));
            for _ in 0..calls {
                imm_x.sync_gpu();
                let before = imm_x.gpu().state().clone();
                imm_x
                    .draw_bundle(&bundle)
                    .map_err(|e| TestCaseError::fail(format!("draw_bundle: {e}")))?;
                imm_x.sync_gpu();
                prop_assert!(*imm_x.gpu().state() == before, "the caller's state changed");
                imm_x.draw(1, 0);
            }
        }
        Via::List(semantics) => {
            let list = wx.f.list(semantics, |c| {
                targets(&wx.f, c);
                setup.iter().for_each(|op| apply!(wx, c, op));
                for _ in 0..calls {
                    c.draw_bundle(&bundle);
                    c.draw(1, 0);
                }
            });
            imm_x
                .execute_command_list(&list, RestoreState::ClearState)
                .expect("executes");
            prop_assert!(imm_x.take_execution_errors().is_empty());
        }
    }
    prop_assert_eq!(imm_x.counters().bundle_calls, calls as u64);

    // Y.
    let wy = World::twin_of(&wx, Semantics::Fast);
    let mut imm_y = ImmediateContext::new(&wy.f.device).expect("immediate");
    targets(&wy.f, &mut imm_y);
    let mut caller = Caller::default();
    let legacy_caller = matches!(
        via,
        Via::Immediate(Semantics::Legacy) | Via::List(Semantics::Legacy)
    );
    for op in setup {
        // R-ST-10: a legacy caller's bind of rt's SRV, rt being its render target, reads null
        // (Y is fast); a bundle's bind of it is a fast one, bound as told.
        let op = &match *op {
            Op::Bind(Kind::Srv, stage, slot, which) if legacy_caller && which % 5 == RT_SRV => {
                Op::Bind(Kind::Srv, stage, slot, 0)
            }
            ref op => op.clone(),
        };
        apply!(wy, imm_y, op);
        caller.track(&wy, op);
    }
    let bundle_ops: Vec<Op> = prefix.iter().chain(ops).cloned().collect();
    for _ in 0..calls {
        issue_directly(&wy, &mut imm_y, &caller, &bundle_ops);
        imm_y.draw(1, 0);
    }

    let (found, expected) = (fields(imm_x.records()), fields(imm_y.records()));
    prop_assert_eq!(found.len(), expected.len(), "record counts");
    for (i, (found, expected)) in found.iter().zip(&expected).enumerate() {
        prop_assert_eq!(found, expected, "record {} differs ({:?})", i, via);
    }
    Ok(())
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        Just(Kind::Cb),
        Just(Kind::Srv),
        Just(Kind::Sampler),
        Just(Kind::Vb)
    ]
}

fn slot_of(kind: Kind) -> BoxedStrategy<u32> {
    match kind {
        Kind::Cb => proptest::sample::select(CB_SLOTS.to_vec()).boxed(),
        Kind::Srv => proptest::sample::select(SRV_SLOTS.to_vec()).boxed(),
        Kind::Sampler => proptest::sample::select(SAMPLER_SLOTS.to_vec()).boxed(),
        Kind::Vb => proptest::sample::select(VB_SLOTS.to_vec()).boxed(),
    }
}

/// A bind at one of `stages` of the `STAGES` indices, of one of the first `objects` objects
/// of its kind (rt's SRV is the fifth: callers bind it, bundles cannot encapsulate it, R-B-6).
fn bind(stages: u8, objects: u8) -> impl Strategy<Value = Op> {
    kind().prop_flat_map(move |kind| {
        (0..stages, slot_of(kind), 0u8..objects)
            .prop_map(move |(stage, slot, which)| Op::Bind(kind, stage, slot, which))
    })
}

/// The entries of a fast call (R-FX-1), as `bind` makes its binds.
fn entries(stages: u8, objects: u8) -> impl Strategy<Value = Vec<Entry>> {
    let entry = bind(stages, objects).prop_map(|op| match op {
        Op::Bind(kind, stage, slot, which) => (kind, stage, slot, which),
        _ => unreachable!("`bind` makes binds"),
    });
    proptest::collection::vec(entry, 0..5)
}

/// The fast calls (R-FX-1) and placement binds (R-FX-2) at one of `stages`, the fast ones of
/// the first `objects` objects; placed index buffers r32 only unless `r16`.
fn fast_op(stages: u8, objects: u8, r16: bool) -> impl Strategy<Value = Op> {
    let placeable = prop_oneof![Just(Kind::Cb), Just(Kind::Srv), Just(Kind::Vb)];
    let address = proptest::sample::select(ADDRESSES.to_vec());
    let placed = (placeable, 0..stages, address.clone(), 0u8..3).prop_flat_map(
        |(kind, stage, address, which)| {
            slot_of(kind).prop_map(move |slot| Op::Placed(kind, stage, slot, which, address))
        },
    );
    let fast_srv = (0..stages, slot_of(Kind::Srv), 0..objects.min(5))
        .prop_map(|(stage, slot, which)| Op::FastSrv(stage, slot, which));
    let index = (any::<bool>(), address).prop_map(move |(r32, a)| Op::PlacedIndex(r32 || !r16, a));
    prop_oneof![
        2 => entries(stages, objects).prop_map(Op::Fast),
        2 => (entries(stages, objects), 0u8..3).prop_map(|(e, times)| Op::Batch(e, times)),
        1 => fast_srv,
        3 => placed,
        1 => index,
    ]
}

fn remap() -> impl Strategy<Value = Op> {
    kind().prop_flat_map(|kind| {
        (0u8..3, slot_of(kind), 0u8..4, slot_of(kind)).prop_map(
            move |(stage, slot, istage, islot)| Op::Remap(kind, stage, slot, istage, islot),
        )
    })
}

/// The caller's state: bindings at any of the four stages, shaders, layout, topology, an r32
/// index buffer (which means the same under both semantics).
fn setup_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => bind(4, 5),
        2 => (0u8..5, 0u8..3).prop_map(|(s, w)| Op::Shader(s, w)),
        1 => (0u8..3).prop_map(Op::Layout),
        1 => (0u8..3).prop_map(Op::Topology),
        1 => prop_oneof![Just(0u8), Just(2u8)].prop_map(Op::IndexBuffer),
        2 => fast_op(4, 5, false),
    ]
}

fn bundle_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => bind(3, 4),
        4 => remap(),
        1 => (0u8..5, 0u8..3).prop_map(|(s, w)| Op::Shader(s, w)),
        1 => (0u8..3).prop_map(Op::Layout),
        1 => (0u8..3).prop_map(Op::Topology),
        1 => (0u8..3).prop_map(Op::IndexBuffer),
        3 => (1u32..9).prop_map(Op::Draw),
        1 => (1u32..9).prop_map(Op::DrawIndexed),
        3 => fast_op(3, 4, true),
        // Rare: about half the bundles have one (and are recorded twice).
        1 => (0u8..36).prop_map(Op::Refused),
    ]
}

/// The mandatory state (R-B-3): the five graphics stages and the input layout.
fn prefix() -> impl Strategy<Value = Vec<Op>> {
    (proptest::collection::vec(0u8..3, 5), 0u8..3).prop_map(|(shaders, layout)| {
        let mut ops: Vec<Op> = shaders
            .into_iter()
            .enumerate()
            .map(|(s, w)| Op::Shader(s as u8, w))
            .collect();
        ops.push(Op::Layout(layout));
        ops
    })
}

fn via() -> impl Strategy<Value = Via> {
    prop_oneof![
        2 => Just(Via::Immediate(Semantics::Fast)),
        2 => Just(Via::Immediate(Semantics::Legacy)),
        1 => Just(Via::List(Semantics::Fast)),
        1 => Just(Via::List(Semantics::Legacy)),
    ]
}

proptest! {
    // 96 cases in CI; `ORACLE_CASES=100000` for a long run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("ORACLE_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(96),
        ..ProptestConfig::default()
    })]

    #[test]
    fn r_o_1_a_bundle_executes_like_its_draws_over_the_callers_state(
        via in via(),
        setup in proptest::collection::vec(setup_op(), 0..16),
        prefix in prefix(),
        ops in proptest::collection::vec(bundle_op(), 1..24),
        calls in 1usize..3,
    ) {
        check(via, &setup, &prefix, &ops, calls)?;
    }
}

#[test]
fn r_o_1_the_seeds_remap_example_through_the_oracle() {
    let prefix = vec![
        Op::Shader(0, 2), // vs_narrow: reads cb 0
        Op::Shader(1, 0),
        Op::Shader(2, 0),
        Op::Shader(3, 0),
        Op::Shader(4, 0),
        Op::Layout(0),
    ];
    let setup = vec![
        Op::Bind(Kind::Cb, 0, 0, 1),
        Op::Bind(Kind::Cb, 0, 10, 2),
        Op::Bind(Kind::Cb, 0, 11, 3),
        Op::Bind(Kind::Cb, 0, 15, 0),
    ];
    let ops = vec![
        Op::Draw(3),
        Op::Remap(Kind::Cb, 0, 0, 0, 10),
        Op::Draw(3),
        Op::Remap(Kind::Cb, 0, 0, 0, 11),
        Op::Draw(3),
        Op::Remap(Kind::Cb, 0, 0, 0, 15),
        Op::Draw(3),
    ];
    for via in [
        Via::Immediate(Semantics::Fast),
        Via::Immediate(Semantics::Legacy),
        Via::List(Semantics::Fast),
        Via::List(Semantics::Legacy),
    ] {
        check(via, &setup, &prefix, &ops, 2).unwrap_or_else(|e| panic!("{via:?}: {e}"));
    }
}
