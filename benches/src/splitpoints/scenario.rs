//! The scenarios: each a function from the [`Options`] and the semantics to one [`Frame`] of
//! the IR. Under legacy semantics a scenario records what a D3D11 title would and gets the
//! split points that follow; under fast semantics it records the fast contract (dynamic
//! buffers mapped write_discard in the list before their bind, compressible targets
//! decompressed explicitly before they are read, a barrier between compute passes), so fast
//! has no split point and no refusal.
//!
//! **In:** a scenario's name, the [`Options`] and the semantics. **Out:** its [`Frame`].
//! The scene pass and the builder the scenarios share are `frame_builder.rs`'s.
//!
//! **Invariant.** Both semantics record the same work; fast semantics records it by the fast
//! contract, so its frame has no split point and no refusal.

use recorder::{BindFlags, Semantics, Slots, Stage, Usage};

use super::frame_builder::{Builder, Constants, Target, CLEAR, HEIGHT, WIDTH};
use super::ir::*;
use super::Options;

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
impl Builder<'_> {
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
