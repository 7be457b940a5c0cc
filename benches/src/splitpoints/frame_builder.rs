//! The frame builder the scenarios share (`scenario.rs`): the objects, lists and calls of one
//! [`Frame`] of the IR, and the scene pass that most scenarios draw.
//!
//! **The scene pass**: `objects` draws into one colour target and depth stencil that the
//! immediate context clears at the start of the frame. The objects are cut into `threads`
//! contiguous shares, one list per thread; each list sets the pipeline, binds the targets (a
//! `set_render_targets` split point under legacy) and draws its objects, binding a mesh's
//! buffers when it changes (objects are sorted by mesh) and each object's constants.
//!
//! **In:** the [`Options`] and the semantics. **Out:** the frame's objects, lists, calls and the
//! immediate context's calls, in order ([`Builder::frame`]).
//!
//! **Invariant.** Deterministic: the frame follows from the options alone; fast semantics gets
//! the fast contract (dynamic buffers mapped in the list before their bind), so no split point.

use recorder::{BindFlags, Format, Slots, Stage, Usage};

use super::ir::*;
use super::Options;

/// Meshes the objects draw (object `i` draws mesh `i * MESHES / objects`).
pub(super) const MESHES: usize = 16;
pub(super) const WIDTH: u32 = 1920;
pub(super) const HEIGHT: u32 = 1080;
pub(super) const CLEAR: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// Builds one frame.
pub(super) struct Builder<'a> {
    pub(super) frame: Frame,
    pub(super) options: &'a Options,
    pub(super) fast: bool,
}

/// How the scene pass's objects get their constants.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Constants {
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
pub(super) struct Scene {
    pub(super) layout: Id,
    pub(super) vs: Id,
    pub(super) ps: Id,
    pub(super) frame_constants: Id,
    pub(super) albedo: Id,
    pub(super) sampler: Id,
    /// Vertex and index buffer of each mesh.
    pub(super) meshes: Vec<(Id, Id)>,
    /// Each object's constants, and whether its list maps them (and how).
    pub(super) objects: Vec<(Id, Option<MapKind>)>,
    /// Each object's ring address, where its constants are placed as they are bound (R-FX-2).
    pub(super) placed: Vec<Option<u64>>,
}

/// A render target with its views.
#[derive(Clone, Copy)]
pub(super) struct Target {
    pub(super) texture: Id,
    pub(super) rtv: Id,
    pub(super) srv: Id,
}

impl Builder<'_> {
    pub(super) fn object(&mut self, name: impl Into<String>, desc: ObjectDesc) -> Id {
        self.frame.objects.push(Object {
            name: name.into(),
            desc,
        });
        self.frame.objects.len() - 1
    }

    pub(super) fn buffer(
        &mut self,
        name: impl Into<String>,
        usage: Usage,
        bind: BindFlags,
        size: u32,
    ) -> Id {
        self.object(name, ObjectDesc::Buffer { usage, bind, size })
    }

    pub(super) fn view(&mut self, kind: ViewKind, resource: Id) -> Id {
        let name = format!("{}.{}", self.frame.objects[resource].name, kind.keyword());
        self.object(name, ObjectDesc::View { kind, resource })
    }

    pub(super) fn shader(
        &mut self,
        name: &str,
        stage: Stage,
        cb: Slots,
        srv: Slots,
        uav: Slots,
    ) -> Id {
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
    pub(super) fn target(&mut self, name: &str, tc: bool) -> Target {
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
    pub(super) fn depth(&mut self, name: &str) -> Id {
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

    pub(super) fn list(&mut self, name: String, thread: usize) -> usize {
        self.frame.lists.push(List {
            name,
            thread,
            calls: Vec::new(),
        });
        self.frame.lists.len() - 1
    }

    pub(super) fn call(&mut self, list: usize, call: Call) {
        self.frame.lists[list].calls.push(call);
    }

    pub(super) fn direct(&mut self, call: Call) {
        self.frame.immediate.push(Step::Call(call));
    }

    pub(super) fn execute(&mut self, list: usize) {
        self.frame.immediate.push(Step::Execute(list));
    }

    pub(super) fn threads(&self) -> usize {
        self.frame.threads
    }

    pub(super) fn passes(&self) -> usize {
        self.options.passes.max(1) as usize
    }

    /// Whether object `i` is one of the dynamic fraction: `floor(objects * dynamic)` of them,
    /// evenly spread.
    pub(super) fn is_dynamic(&self, i: usize) -> bool {
        let f = self.options.dynamic as f64;
        ((i + 1) as f64 * f).floor() > (i as f64 * f).floor()
    }

    /// The scene pass's objects; `constants` says where the dynamic fraction's come from.
    pub(super) fn scene(&mut self, constants: Constants) -> Scene {
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
    pub(super) fn scene_pipeline(&mut self, list: usize, scene: &Scene, target: Id, depth: Id) {
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
    pub(super) fn draw_object(
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
    pub(super) fn scene_pass(&mut self, scene: &Scene, target: Target, depth: Id) {
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
}

/// Indices of mesh `m` (a triangle list).
pub(super) fn mesh_indices(m: usize) -> u32 {
    3 * 128 * (m as u32 + 1)
}
