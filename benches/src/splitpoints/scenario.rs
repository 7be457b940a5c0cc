//! The scenarios: each a function from the [`Options`] and the semantics to one [`Frame`] of
//! the IR. Under legacy semantics a scenario records what a D3D11 title would and gets the
//! split points that follow; under fast semantics it records the fast contract (dynamic
//! buffers mapped write_discard in the list before their bind, compressible targets
//! decompressed explicitly before they are read, a barrier between compute passes), so fast
//! has no split point and no refusal.
//!
//! **The scene pass** that most scenarios share: `objects` draws into one colour target and
//! depth stencil that the immediate context clears at the start of the frame. The objects are
//! cut into `threads` contiguous shares, one list per thread; each list sets the pipeline, binds
//! the targets (a `set_render_targets` split point under legacy) and draws its objects, binding
//! a mesh's buffers when it changes (objects are sorted by mesh) and each object's constants.
//! Passes split the objects the same way: pass `p` draws its contiguous share, one list per
//! thread per pass, executed pass after pass.

use recorder::{BindFlags, Format, Semantics, Slots, Stage, Usage};

use super::ir::*;
use super::Options;

/// Meshes the objects draw (object `i` draws mesh `i * MESHES / objects`).
const MESHES: usize = 16;
const WIDTH: u32 = 1920;
const HEIGHT: u32 = 1080;
const CLEAR: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// A named scenario.
pub struct Scenario {
    /// Short snake_case name (`--scenarios`, `--trace`).
    pub name: &'static str,
    /// One line: what it records and what it should show.
    pub description: &'static str,
    build: fn(&mut Builder<'_>),
}

/// Every scenario, in report order.
pub const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "static",
        description: "all-static scene: immutable buffers, a render target + depth stencil bound per list",
        build: static_scene,
    },
    Scenario {
        name: "dynamic_cb",
        description: "a fraction of the objects read a dynamic constant buffer mapped on the immediate context (legacy: one split point per bind)",
        build: dynamic_cb,
    },
    Scenario {
        name: "dynamic_cb_mapped",
        description: "the same, each dynamic buffer mapped write_discard in the list before its bind (no dynamic split point)",
        build: dynamic_cb_mapped,
    },
    Scenario {
        name: "default_no_overwrite",
        description: "the same objects on default buffers mapped write_no_overwrite + allow_usage_default in the list",
        build: default_no_overwrite,
    },
    Scenario {
        name: "placement",
        description: "the same objects on default buffers placed at a new address of the application's ring as they are bound (R-FX-2): no map, no split point",
        build: placement,
    },
    Scenario {
        name: "render_targets",
        description: "P passes binding and clearing their own target + depth stencil; objects set their material's depth-stencil state",
        build: render_targets,
    },
    Scenario {
        name: "post_compressible",
        description: "the scene, then P full-screen passes each reading the previous target; compressible targets (decompression split points)",
        build: post_compressible,
    },
    Scenario {
        name: "post_tc",
        description: "the same post-processing on texture-compatible (tc) targets: read compressed, no decompression",
        build: post_tc,
    },
    Scenario {
        name: "post_explicit",
        description: "the same post-processing, each target decompressed with decompress_resource in the list before its bind",
        build: post_explicit,
    },
    Scenario {
        name: "post_barriers",
        description: "the same post-processing synchronised by enhanced barriers: each target discarded into render_target before its first use, moved render_target -> shader_resource (decompressed, R-BAR-3) before it is read",
        build: post_barriers,
    },
    Scenario {
        name: "uav_passes",
        description: "P compute passes binding a UAV and dispatching per object, each after the first reading the previous pass's output",
        build: uav_passes,
    },
    Scenario {
        name: "predicated",
        description: "post_compressible with each post pass in a predicated scope: every split point resolved there rolls the context",
        build: predicated,
    },
];

/// The scenario called `name`.
pub fn find(name: &str) -> Option<&'static Scenario> {
    SCENARIOS.iter().find(|s| s.name == name)
}

impl Scenario {
    /// The scenario's frame under `semantics`.
    pub fn frame(&self, semantics: Semantics, options: &Options) -> Frame {
        let mut builder = Builder {
            frame: Frame {
                scenario: self.name,
                semantics,
                objects: Vec::new(),
                threads: options.threads.max(1) as usize,
                lists: Vec::new(),
                immediate: Vec::new(),
            },
            options,
            fast: semantics == Semantics::Fast,
        };
        (self.build)(&mut builder);
        builder.frame
    }
}

/// Builds one frame.
struct Builder<'a> {
    frame: Frame,
    options: &'a Options,
    fast: bool,
}

/// How the scene pass's objects get their constants.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Constants {
    /// Every object: an immutable buffer.
    Immutable,
    /// The dynamic fraction: a dynamic buffer mapped on the immediate context before the lists
    /// execute (legacy); fast maps it in the list.
    DynamicOnImmediate,
    /// The dynamic fraction: a dynamic buffer mapped write_discard in the list.
    DynamicInList,
    /// The dynamic fraction: a default buffer mapped write_no_overwrite + allow_usage_default
    /// in the list.
    DefaultInList,
    /// The dynamic fraction: a default buffer placed at a new address of the application's ring
    /// as it is bound (R-FX-2), not mapped.
    Placed,
}

/// The objects the scene pass draws with.
struct Scene {
    layout: Id,
    vs: Id,
    ps: Id,
    frame_constants: Id,
    albedo: Id,
    sampler: Id,
    /// Vertex and index buffer of each mesh.
    meshes: Vec<(Id, Id)>,
    /// Each object's constants, and whether its list maps them (and how).
    objects: Vec<(Id, Option<MapKind>)>,
    /// Each object's ring address, where its constants are placed as they are bound (R-FX-2).
    placed: Vec<Option<u64>>,
}

/// A render target with its views.
#[derive(Clone, Copy)]
struct Target {
    texture: Id,
    rtv: Id,
    srv: Id,
}

impl Builder<'_> {
    fn object(&mut self, name: impl Into<String>, desc: ObjectDesc) -> Id {
        self.frame.objects.push(Object {
            name: name.into(),
            desc,
        });
        self.frame.objects.len() - 1
    }

    fn buffer(&mut self, name: impl Into<String>, usage: Usage, bind: BindFlags, size: u32) -> Id {
        self.object(name, ObjectDesc::Buffer { usage, bind, size })
    }

    fn view(&mut self, kind: ViewKind, resource: Id) -> Id {
        let name = format!("{}.{}", self.frame.objects[resource].name, kind.keyword());
        self.object(name, ObjectDesc::View { kind, resource })
    }

    fn shader(&mut self, name: &str, stage: Stage, cb: Slots, srv: Slots, uav: Slots) -> Id {
        let samplers = match stage {
            Stage::Pixel => Slots::first(1),
            _ => Slots::EMPTY,
        };
        self.object(
            name,
            ObjectDesc::Shader {
                stage,
                constant_buffers: cb,
                shader_resources: srv,
                samplers,
                unordered_access_views: uav,
            },
        )
    }

    /// A colour target, compressible (the default) or texture compatible.
    fn target(&mut self, name: &str, tc: bool) -> Target {
        let texture = self.object(
            name,
            ObjectDesc::Texture {
                format: Format::R16G16B16A16Float,
                width: WIDTH,
                height: HEIGHT,
                bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
                compressible: None,
                tc,
            },
        );
        Target {
            texture,
            rtv: self.view(ViewKind::RenderTarget, texture),
            srv: self.view(ViewKind::ShaderResource, texture),
        }
    }

    /// A depth stencil and its view.
    fn depth(&mut self, name: &str) -> Id {
        let texture = self.object(
            name,
            ObjectDesc::Texture {
                format: Format::D24UnormS8Uint,
                width: WIDTH,
                height: HEIGHT,
                bind: BindFlags::DEPTH_STENCIL,
                compressible: None,
                tc: false,
            },
        );
        self.view(ViewKind::DepthStencil, texture)
    }

    fn list(&mut self, name: String, thread: usize) -> usize {
        self.frame.lists.push(List {
            name,
            thread,
            calls: Vec::new(),
        });
        self.frame.lists.len() - 1
    }

    fn call(&mut self, list: usize, call: Call) {
        self.frame.lists[list].calls.push(call);
    }

    fn direct(&mut self, call: Call) {
        self.frame.immediate.push(Step::Call(call));
    }

    fn execute(&mut self, list: usize) {
        self.frame.immediate.push(Step::Execute(list));
    }

    fn threads(&self) -> usize {
        self.frame.threads
    }

    fn passes(&self) -> usize {
        self.options.passes.max(1) as usize
    }

    /// Whether object `i` is one of the dynamic fraction: `floor(objects * dynamic)` of them,
    /// evenly spread.
    fn is_dynamic(&self, i: usize) -> bool {
        let f = self.options.dynamic as f64;
        ((i + 1) as f64 * f).floor() > (i as f64 * f).floor()
    }

    /// The scene pass's objects; `constants` says where the dynamic fraction's come from.
    fn scene(&mut self, constants: Constants) -> Scene {
        let layout = self.object(
            "scene.layout",
            ObjectDesc::InputLayout {
                vertex_buffers: Slots::first(1),
            },
        );
        let vs = self.shader(
            "scene.vs",
            Stage::Vertex,
            Slots::first(2),
            Slots::EMPTY,
            Slots::EMPTY,
        );
        let ps = self.shader(
            "scene.ps",
            Stage::Pixel,
            Slots::first(1),
            Slots::first(1),
            Slots::EMPTY,
        );
        let frame_constants = self.buffer("frame_cb", Usage::Default, BindFlags::CONSTANT, 256);
        let albedo_texture = self.object(
            "albedo",
            ObjectDesc::Texture {
                format: Format::Bc1Unorm,
                width: 1024,
                height: 1024,
                bind: BindFlags::SHADER_RESOURCE,
                compressible: None,
                tc: false,
            },
        );
        let albedo = self.view(ViewKind::ShaderResource, albedo_texture);
        let sampler = self.object("sampler", ObjectDesc::SamplerState);
        let meshes = (0..MESHES)
            .map(|m| {
                let vertices = 256 * (m as u32 + 1);
                let vb = self.buffer(
                    format!("mesh.{m}.vb"),
                    Usage::Immutable,
                    BindFlags::VERTEX,
                    vertices * 32,
                );
                let ib = self.buffer(
                    format!("mesh.{m}.ib"),
                    Usage::Immutable,
                    BindFlags::INDEX,
                    mesh_indices(m) * 2,
                );
                (vb, ib)
            })
            .collect();
        let count = self.options.objects as usize;
        let mut objects = Vec::with_capacity(count);
        let mut placed = Vec::with_capacity(count);
        for i in 0..count {
            let dynamic = self.is_dynamic(i);
            let (usage, map) = match constants {
                Constants::DynamicOnImmediate if dynamic && self.fast => {
                    (Usage::Dynamic, Some(MapKind::WriteDiscard))
                }
                Constants::DynamicOnImmediate if dynamic => (Usage::Dynamic, None),
                Constants::DynamicInList if dynamic => {
                    (Usage::Dynamic, Some(MapKind::WriteDiscard))
                }
                Constants::DefaultInList if dynamic => {
                    (Usage::Default, Some(MapKind::NoOverwriteDefault))
                }
                Constants::Placed if dynamic => (Usage::Default, None),
                _ => (Usage::Immutable, None),
            };
            let ring = 0x10_0000 + 0x100 * i as u64;
            placed.push((constants == Constants::Placed && dynamic).then_some(ring));
            let buffer = self.buffer(format!("object.{i}"), usage, BindFlags::CONSTANT, 128);
            objects.push((buffer, map));
        }
        Scene {
            layout,
            vs,
            ps,
            frame_constants,
            albedo,
            sampler,
            meshes,
            objects,
            placed,
        }
    }

    /// What every scene list sets first: the pipeline and the targets.
    fn scene_pipeline(&mut self, list: usize, scene: &Scene, target: Id, depth: Id) {
        for call in [
            Call::SetInputLayout(scene.layout),
            Call::SetTriangleList,
            Call::SetShader {
                stage: Stage::Vertex,
                shader: scene.vs,
            },
            Call::SetShader {
                stage: Stage::Pixel,
                shader: scene.ps,
            },
            Call::SetConstantBuffer {
                stage: Stage::Vertex,
                slot: 0,
                buffer: scene.frame_constants,
            },
            Call::SetShaderResource {
                stage: Stage::Pixel,
                slot: 0,
                view: Some(scene.albedo),
            },
            Call::SetSampler {
                stage: Stage::Pixel,
                slot: 0,
                sampler: scene.sampler,
            },
            Call::SetRenderTarget {
                target,
                depth: Some(depth),
            },
            Call::SetViewport {
                width: WIDTH,
                height: HEIGHT,
            },
        ] {
            self.call(list, call);
        }
    }

    /// Object `i`'s calls: its mesh's buffers when they change, its constants (mapped first
    /// when its list maps them), `depth_state` when given, the draw.
    fn draw_object(
        &mut self,
        list: usize,
        scene: &Scene,
        i: usize,
        bound_mesh: &mut Option<usize>,
        depth_state: Option<Id>,
    ) {
        let count = scene.objects.len().max(1);
        let mesh = i * MESHES / count;
        if *bound_mesh != Some(mesh) {
            let (vb, ib) = scene.meshes[mesh];
            self.call(
                list,
                Call::SetVertexBuffer {
                    slot: 0,
                    buffer: vb,
                },
            );
            self.call(
                list,
                Call::SetIndexBuffer {
                    buffer: ib,
                    format: Format::R16Uint,
                },
            );
            *bound_mesh = Some(mesh);
        }
        let (constants, map) = scene.objects[i];
        if let Some(kind) = map {
            self.call(
                list,
                Call::Map {
                    buffer: constants,
                    kind,
                },
            );
        }
        let bind = match scene.placed.get(i).copied().flatten() {
            Some(address) => Call::SetPlacementConstantBuffer {
                stage: Stage::Vertex,
                slot: 1,
                buffer: constants,
                address,
            },
            None => Call::SetConstantBuffer {
                stage: Stage::Vertex,
                slot: 1,
                buffer: constants,
            },
        };
        self.call(list, bind);
        if let Some(state) = depth_state {
            self.call(list, Call::SetDepthStencilState(state));
        }
        self.call(
            list,
            Call::DrawIndexed {
                indices: mesh_indices(mesh),
            },
        );
    }

    /// The scene pass into `target` and `depth`, cleared by the immediate context first: one
    /// list per thread, queued for execution.
    fn scene_pass(&mut self, scene: &Scene, target: Target, depth: Id) {
        self.direct(Call::ClearRenderTarget {
            view: target.rtv,
            color: CLEAR,
        });
        self.direct(Call::ClearDepthStencil { view: depth });
        let shares = crate::split_range(scene.objects.len() as u32, self.threads() as u32);
        for (thread, share) in shares.into_iter().enumerate() {
            let list = self.list(format!("list.scene.{thread}"), thread);
            self.scene_pipeline(list, scene, target.rtv, depth);
            let mut bound = None;
            for i in share {
                self.draw_object(list, scene, i as usize, &mut bound, None);
            }
            self.execute(list);
        }
    }

    /// The scene with its constants from `constants`, and the legacy immediate context's maps
    /// of the dynamic buffers its lists do not map.
    fn constants_scenario(&mut self, constants: Constants) {
        let scene = self.scene(constants);
        let target = self.target("color", false);
        let depth = self.depth("depth");
        for i in 0..scene.objects.len() {
            if constants == Constants::DynamicOnImmediate && !self.fast && self.is_dynamic(i) {
                let buffer = scene.objects[i].0;
                self.direct(Call::Map {
                    buffer,
                    kind: MapKind::WriteDiscard,
                });
            }
        }
        self.scene_pass(&scene, target, depth);
    }

    /// The scene, then `passes` full-screen passes: pass `p` clears its target (a full clear
    /// compresses it, R-ST-9), binds it and draws a triangle reading the previous target (the
    /// scene's for the first). The clear comes before the bind: a fast output merger sees a
    /// bound target's compression as it was at the bind, so this order keeps it compressed
    /// under both semantics, and each pass has a compressed target to decompress. `tc`: texture-compatible targets. `explicit`: the list
    /// decompresses what it reads first, under legacy too (fast always does, unless `tc`).
    /// `predicated`: each post pass in a `set_predication` scope. `Read::Barriers`: enhanced
    /// texture barriers instead (a discard into `render_target` before a target's first use, a
    /// `render_target` to `shader_resource` transition before it is read, under both semantics).
    fn post_processing(&mut self, tc: bool, read: Read, predicated: bool) {
        let scene = self.scene(Constants::Immutable);
        let color = self.target("color", tc);
        let depth = self.depth("depth");
        let layout = self.object(
            "fullscreen.layout",
            ObjectDesc::InputLayout {
                vertex_buffers: Slots::EMPTY,
            },
        );
        let vs = self.shader(
            "fullscreen.vs",
            Stage::Vertex,
            Slots::EMPTY,
            Slots::EMPTY,
            Slots::EMPTY,
        );
        let ps = self.shader(
            "post.ps",
            Stage::Pixel,
            Slots::EMPTY,
            Slots::first(1),
            Slots::EMPTY,
        );
        let predicate = predicated.then(|| self.object("visible", ObjectDesc::Predicate));
        let targets: Vec<Target> = (0..self.passes())
            .map(|p| self.target(&format!("post.{p}"), tc))
            .collect();
        let barriers = read == Read::Barriers;
        if barriers {
            self.direct(Call::TextureBarrier {
                texture: color.texture,
                barrier: TextureTransition::DiscardToRenderTarget,
            });
        }
        self.scene_pass(&scene, color, depth);
        let decompress = !tc && (read == Read::Explicit || (read == Read::Split && self.fast));
        let mut previous = color;
        for (p, target) in targets.into_iter().enumerate() {
            let list = self.list(format!("list.post.{p}"), p % self.threads());
            if let Some(predicate) = predicate {
                self.call(list, Call::SetPredication(Some(predicate)));
            }
            if barriers {
                self.call(
                    list,
                    Call::TextureBarrier {
                        texture: target.texture,
                        barrier: TextureTransition::DiscardToRenderTarget,
                    },
                );
            }
            for call in [
                Call::ClearRenderTarget {
                    view: target.rtv,
                    color: CLEAR,
                },
                Call::SetInputLayout(layout),
                Call::SetTriangleList,
                Call::SetShader {
                    stage: Stage::Vertex,
                    shader: vs,
                },
                Call::SetShader {
                    stage: Stage::Pixel,
                    shader: ps,
                },
                Call::SetSampler {
                    stage: Stage::Pixel,
                    slot: 0,
                    sampler: scene.sampler,
                },
                Call::SetRenderTarget {
                    target: target.rtv,
                    depth: None,
                },
                Call::SetViewport {
                    width: WIDTH,
                    height: HEIGHT,
                },
            ] {
                self.call(list, call);
            }
            if decompress {
                self.call(list, Call::DecompressResource(previous.texture));
            }
            if barriers {
                self.call(
                    list,
                    Call::TextureBarrier {
                        texture: previous.texture,
                        barrier: TextureTransition::RenderTargetToShaderResource,
                    },
                );
            }
            self.call(
                list,
                Call::SetShaderResource {
                    stage: Stage::Pixel,
                    slot: 0,
                    view: Some(previous.srv),
                },
            );
            self.call(list, Call::DrawFullScreen);
            if predicate.is_some() {
                self.call(list, Call::SetPredication(None));
            }
            self.execute(list);
            previous = target;
        }
    }
}

/// Indices of mesh `m` (a triangle list).
fn mesh_indices(m: usize) -> u32 {
    3 * 128 * (m as u32 + 1)
}

fn static_scene(b: &mut Builder<'_>) {
    b.constants_scenario(Constants::Immutable);
}

fn dynamic_cb(b: &mut Builder<'_>) {
    b.constants_scenario(Constants::DynamicOnImmediate);
}

fn dynamic_cb_mapped(b: &mut Builder<'_>) {
    b.constants_scenario(Constants::DynamicInList);
}

fn default_no_overwrite(b: &mut Builder<'_>) {
    b.constants_scenario(Constants::DefaultInList);
}

fn placement(b: &mut Builder<'_>) {
    b.constants_scenario(Constants::Placed);
}

/// `passes` passes, each with its own colour target and depth stencil, which the pass's first
/// list clears and binds (every other list binds them); objects sorted by material (two, each
/// with its depth-stencil state), every object setting its material's state, as a renderer
/// that does not filter redundant state does.
fn render_targets(b: &mut Builder<'_>) {
    let scene = b.scene(Constants::Immutable);
    let states = [
        b.object("depth.less_write", ObjectDesc::DepthStencilState),
        b.object("depth.equal_no_write", ObjectDesc::DepthStencilState),
    ];
    let passes: Vec<(Target, Id)> = (0..b.passes())
        .map(|p| {
            (
                b.target(&format!("pass.{p}"), false),
                b.depth(&format!("pass.{p}.depth")),
            )
        })
        .collect();
    let shares = crate::split_range(scene.objects.len() as u32, passes.len() as u32);
    for (p, ((target, depth), share)) in passes.into_iter().zip(shares).enumerate() {
        let count = share.len().max(1);
        let first = share.start as usize;
        let cuts = crate::split_range(share.len() as u32, b.threads() as u32);
        for (thread, cut) in cuts.into_iter().enumerate() {
            let list = b.list(format!("list.pass.{p}.{thread}"), thread);
            if thread == 0 {
                b.call(
                    list,
                    Call::ClearRenderTarget {
                        view: target.rtv,
                        color: CLEAR,
                    },
                );
                b.call(list, Call::ClearDepthStencil { view: depth });
            }
            b.scene_pipeline(list, &scene, target.rtv, depth);
            let mut bound = None;
            for j in cut {
                let material = j as usize * states.len() / count;
                let state = states[material];
                b.draw_object(list, &scene, first + j as usize, &mut bound, Some(state));
            }
            b.execute(list);
        }
    }
}

/// How a post pass gets what it reads decompressed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    /// Legacy: the decompression split point resolves it; fast: `decompress_resource`.
    Split,
    /// `decompress_resource` in the list before the bind, under both semantics.
    Explicit,
    /// A `render_target` to `shader_resource` texture barrier, under both semantics.
    Barriers,
}

fn post_compressible(b: &mut Builder<'_>) {
    b.post_processing(false, Read::Split, false);
}

fn post_tc(b: &mut Builder<'_>) {
    b.post_processing(true, Read::Split, false);
}

fn post_explicit(b: &mut Builder<'_>) {
    b.post_processing(false, Read::Explicit, false);
}

fn post_barriers(b: &mut Builder<'_>) {
    b.post_processing(false, Read::Barriers, false);
}

fn predicated(b: &mut Builder<'_>) {
    b.post_processing(false, Read::Split, true);
}

/// `passes` compute passes: pass `p` writes its buffer through a UAV, dispatching once per
/// object of its share (one list per thread), and reads pass `p - 1`'s buffer through a
/// shader-resource view. Fast: the pass's first list moves the buffer it reads from unordered
/// access to shader resource (an enhanced barrier), as the fast contract asks; legacy's driver
/// does that itself.
fn uav_passes(b: &mut Builder<'_>) {
    let cs = b.shader(
        "compute.cs",
        Stage::Compute,
        Slots::EMPTY,
        Slots::first(1),
        Slots::first(1),
    );
    let outputs: Vec<(Id, Id, Id)> = (0..b.passes())
        .map(|p| {
            let buffer = b.buffer(
                format!("pass.{p}.out"),
                Usage::Default,
                BindFlags::UNORDERED_ACCESS | BindFlags::SHADER_RESOURCE,
                64 * 1024,
            );
            let uav = b.view(ViewKind::UnorderedAccess, buffer);
            let srv = b.view(ViewKind::ShaderResource, buffer);
            (buffer, uav, srv)
        })
        .collect();
    let shares = crate::split_range(b.options.objects, outputs.len() as u32);
    for (p, share) in shares.into_iter().enumerate() {
        let (_, uav, _) = outputs[p];
        let input = p.checked_sub(1).map(|q| outputs[q]);
        let cuts = crate::split_range(share.len() as u32, b.threads() as u32);
        for (thread, cut) in cuts.into_iter().enumerate() {
            let list = b.list(format!("list.compute.{p}.{thread}"), thread);
            if let (true, 0, Some((buffer, _, _))) = (b.fast, thread, input) {
                b.call(list, Call::UavToShaderResource(buffer));
            }
            b.call(
                list,
                Call::SetShader {
                    stage: Stage::Compute,
                    shader: cs,
                },
            );
            b.call(
                list,
                Call::SetComputeUav {
                    slot: 0,
                    view: Some(uav),
                },
            );
            b.call(
                list,
                Call::SetShaderResource {
                    stage: Stage::Compute,
                    slot: 0,
                    view: input.map(|(_, _, srv)| srv),
                },
            );
            for j in cut {
                let groups = 1 + (share.start + j) % 64;
                b.call(list, Call::Dispatch { groups });
            }
            b.execute(list);
        }
    }
}
