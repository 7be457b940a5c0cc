//! The scene drawn with draw bundles (SPEC §7): one bundle per object, recorded once and called
//! every frame, as the seeds recommend.
//!
//! An **object** is a pair of consecutive draws, `2k` and `2k + 1`: the scene draws the two
//! halves of one mesh in such a pair. Its bundle holds what does not change from frame to frame:
//! topology, input layout, shaders (null hull, domain and geometry stages, R-B-3), the mesh's
//! streams and index buffer, the static object constants, and the material's constants, textures
//! and sampler, then the two `draw_indexed`. What changes every frame, or cannot be
//! encapsulated, the bundle inherits from the list that calls it (R-B-4, R-B-6, R-B-7): the
//! targets and pass state, the frame constants, the previous pass's target (an SRV on a render
//! target), the per-draw object constants (a dynamic buffer mapped each frame), a skinning
//! palette, the particle stream. Where one half of a pair takes its object constants or its
//! second stream from the caller and the other does not, the bundle remaps the slot to itself
//! before that draw (R-B-9: the override is cancelled, the caller's binding read).
//!
//! The recording functions are generic over what records ([`BundleSink`]: the bundles crate's
//! recorder or the capture's) and what calls ([`BundleCaller`]: a fast deferred context or the
//! capture's), so that the frame demo's `--capture` records through the capture's wrappers and
//! the demo without it through the engine's own types, the same code.
//!
//! Two simplifications against `record_draws`, both small: a pair maps the per-draw constants
//! once for its draws (not once per draw), and a pair that straddles a pass boundary draws both
//! halves in the first draw's pass.

use std::ops::Range;

use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use recorder::*;
use trace::capture::{CapturedBundleRecorder, CapturedDeferred};

use crate::record_draws::{begin_pass, write_discard, CallSink};
use crate::scene::*;

/// What records an object's bundle: the bundles crate's [`BundleRecorder`], or the capture's
/// [`CapturedBundleRecorder`] (which keeps each bundle's recording, so that a captured frame
/// calling it can write it).
pub trait BundleSink: BindCalls + FastBindCalls + DrawCalls {
    /// [`BundleRecorder::remap_constant_buffer_inheritance`].
    fn remap_constant_buffer_inheritance(
        &mut self,
        stage: Stage,
        slot: u32,
        inherit_stage: Stage,
        inherit_slot: u32,
    );
    /// [`BundleRecorder::remap_vertex_buffer_inheritance`].
    fn remap_vertex_buffer_inheritance(&mut self, slot: u32, inherit_slot: u32);
    /// [`BundleRecorder::finish`].
    fn finish(&mut self) -> Result<DrawBundle, RecordError>;
}

macro_rules! bundle_sink {
    ($type:ty) => {
        impl BundleSink for $type {
            #[inline(always)]
            fn remap_constant_buffer_inheritance(
                &mut self,
                stage: Stage,
                slot: u32,
                inherit_stage: Stage,
                inherit_slot: u32,
            ) {
                <$type>::remap_constant_buffer_inheritance(
                    self,
                    stage,
                    slot,
                    inherit_stage,
                    inherit_slot,
                )
            }
            #[inline(always)]
            fn remap_vertex_buffer_inheritance(&mut self, slot: u32, inherit_slot: u32) {
                <$type>::remap_vertex_buffer_inheritance(self, slot, inherit_slot)
            }
            #[inline(always)]
            fn finish(&mut self) -> Result<DrawBundle, RecordError> {
                <$type>::finish(self)
            }
        }
    };
}

bundle_sink!(BundleRecorder);
bundle_sink!(CapturedBundleRecorder);

/// What calls the bundles: a fast [`DeferredContext`], or the capture's [`CapturedDeferred`].
pub trait BundleCaller: CallSink {
    /// [`DrawBundleExt::draw_bundle`].
    fn draw_bundle(&mut self, bundle: &DrawBundle);
}

impl BundleCaller for DeferredContext {
    #[inline(always)]
    fn draw_bundle(&mut self, bundle: &DrawBundle) {
        DrawBundleExt::draw_bundle(self, bundle)
    }
}

impl BundleCaller for CapturedDeferred {
    #[inline(always)]
    fn draw_bundle(&mut self, bundle: &DrawBundle) {
        CapturedDeferred::draw_bundle(self, bundle)
    }
}

/// Objects (draw pairs) of the scene's frame.
pub fn objects(scene: &Scene) -> u32 {
    scene.desc.draws.div_ceil(2)
}

/// The frame's draws of object `k`.
pub fn object_draws(scene: &Scene, k: u32) -> Range<u32> {
    let start = 2 * k;
    start..(start + 2).min(scene.desc.draws)
}

/// The output formats every pass renders to: what the bundles are declared with.
pub fn bundle_desc(name: &str) -> BundleDesc<'_> {
    BundleDesc {
        depth: Some(Format::D24UnormS8Uint),
        ..BundleDesc::new(name, &[Format::R16G16B16A16Float])
    }
}

/// Records object `k`'s bundle on `recorder` (see the module essay).
pub fn record_object_bundle<B: BundleSink + ?Sized>(
    recorder: &mut B,
    scene: &Scene,
    k: u32,
) -> Result<DrawBundle, RecordError> {
    recorder.set_primitive_topology(PrimitiveTopology::TriangleList);
    for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
        recorder.set_shader(stage, None);
    }
    let mut material_bound = None;
    let mut object_overridden = false;
    let mut stream_inherited = false;
    for (n, i) in object_draws(scene, k).enumerate() {
        let draw = scene.draw(i);
        let mesh = &scene.meshes[draw.mesh as usize];
        if material_bound != Some(draw.material) {
            let material = &scene.materials[draw.material as usize];
            recorder.set_input_layout(Some(material.input_layout));
            recorder.set_shader(Stage::Vertex, Some(material.vertex_shader));
            recorder.set_shader(Stage::Pixel, Some(material.pixel_shader));
            recorder.set_shader_resources(Stage::Pixel, 0, &material.textures);
            recorder.set_samplers(Stage::Pixel, 0, &[Some(material.sampler)]);
            recorder.set_constant_buffers(
                Stage::Pixel,
                MATERIAL_CB_SLOT,
                &[Some(material.constants)],
            );
            material_bound = Some(draw.material);
        }
        if n == 0 {
            recorder.set_vertex_buffers(0, &mesh.streams);
            recorder.set_index_buffer(Some(mesh.index_buffer), mesh.index_format, 0);
        }
        // The particle stream is dynamic: inherit the caller's second stream for this draw.
        let particles = draw.unmapped == Unmapped::Particles;
        if particles && !stream_inherited {
            recorder.remap_vertex_buffer_inheritance(1, 1);
            stream_inherited = true;
        } else if !particles && stream_inherited {
            recorder.set_vertex_buffers(1, &mesh.streams[1..]);
            stream_inherited = false;
        }
        match draw.object {
            ObjectConstants::Static => {
                recorder.set_constant_buffers(
                    Stage::Vertex,
                    OBJECT_CB_SLOT,
                    &[Some(mesh.object_constants)],
                );
                object_overridden = true;
            }
            ObjectConstants::PerDraw if object_overridden => {
                recorder.remap_constant_buffer_inheritance(
                    Stage::Vertex,
                    OBJECT_CB_SLOT,
                    Stage::Vertex,
                    OBJECT_CB_SLOT,
                );
                object_overridden = false;
            }
            ObjectConstants::PerDraw => {}
        }
        recorder.draw_indexed(draw.index_count, draw.start_index, draw.base_vertex);
    }
    recorder.finish()
}

/// Records the bundles of objects `objects` on one recorder.
pub fn record_object_bundles(
    device: &Device,
    scene: &Scene,
    objects: Range<u32>,
) -> Result<Vec<DrawBundle>, RecordError> {
    let mut recorder = BundleRecorder::new(device, &bundle_desc("object"))
        .map_err(|error| recorder_refused("object", error))?;
    record_object_bundles_on(&mut recorder, scene, objects)
}

/// Records the bundles of objects `objects` on `recorder` (made with [`bundle_desc`]).
pub fn record_object_bundles_on<B: BundleSink + ?Sized>(
    recorder: &mut B,
    scene: &Scene,
    objects: Range<u32>,
) -> Result<Vec<DrawBundle>, RecordError> {
    objects
        .map(|k| record_object_bundle(recorder, scene, k))
        .collect()
}

/// A bundle recorder the device refused, as a recording error.
pub fn recorder_refused(name: &str, error: Error) -> RecordError {
    RecordError {
        context: format!("bundle recorder '{name}'"),
        call_index: 0,
        error,
    }
}

/// Records objects `objects` of the frame on a fast deferred context by calling their bundles
/// (`bundles[k]` is object `k`'s): the pass state when the pass changes, then per object what
/// its bundle inherits that changes per frame (the per-draw constants mapped write_discard, a
/// palette, the particle stream, each mapped once per range before its first bind, R-SP-3) and
/// the bundle call.
pub fn record_bundle_calls<C: BundleCaller + ?Sized>(
    context: &mut C,
    scene: &Scene,
    bundles: &[DrawBundle],
    objects: Range<u32>,
) {
    if objects.is_empty() {
        return;
    }
    context.set_rasterizer_state(Some(scene.rasterizer));
    let frame = [Some(scene.frame_constants)];
    context.set_constant_buffers(Stage::Vertex, FRAME_CB_SLOT, &frame);
    context.set_constant_buffers(Stage::Pixel, FRAME_CB_SLOT, &frame);
    let (mut pass, mut palette, mut particles_mapped, mut mapped) = (None, None, false, 0u32);
    for k in objects {
        let Some(bundle) = bundles.get(k as usize) else {
            break;
        };
        let draws = object_draws(scene, k);
        let first = scene.draw(draws.start);
        if pass != Some(first.pass) {
            // As `record_draws` does on a fast context (barriers included, in that mode).
            begin_pass(context, scene, first, true);
            pass = Some(first.pass);
        }
        let mut per_draw = false;
        for i in draws {
            let draw = scene.draw(i);
            per_draw |= draw.object == ObjectConstants::PerDraw;
            match draw.unmapped {
                Unmapped::Particles => {
                    if !particles_mapped {
                        write_discard(context, scene.particles, &scene.fill, i);
                        particles_mapped = true;
                    }
                    let stream = VertexBuffer {
                        buffer: Some(scene.particles),
                        stride: crate::scene::PARTICLE_STRIDE,
                        offset: 0,
                    };
                    context.set_vertex_buffers(1, &[stream]);
                }
                Unmapped::Palette(p) if palette != Some(p) => {
                    let buffer = scene.palettes[p as usize];
                    if mapped & 1 << p == 0 {
                        write_discard(context, buffer, &scene.fill, i);
                        mapped |= 1 << p;
                    }
                    context.set_constant_buffers(Stage::Vertex, PALETTE_CB_SLOT, &[Some(buffer)]);
                    palette = Some(p);
                }
                _ => {}
            }
        }
        if per_draw {
            write_discard(context, scene.per_draw_constants, &scene.fill, k);
            let buffer = [Some(scene.per_draw_constants)];
            context.set_constant_buffers(Stage::Vertex, OBJECT_CB_SLOT, &buffer);
        }
        context.draw_bundle(bundle);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split_range;

    #[test]
    fn the_bundled_frame_draws_what_the_recorded_frame_draws() {
        let device = Device::new(DeviceDesc {
            immediate_semantics: Semantics::Fast,
            ..Default::default()
        });
        let desc = SceneDesc {
            draws: 2_001,
            materials: 16,
            meshes: 64,
            unmapped_dynamic_fraction: 0.1,
            ..SceneDesc::default()
        };
        let scene = Scene::new(&device, &desc).expect("scene");
        let bundles = record_object_bundles(&device, &scene, 0..objects(&scene)).expect("bundles");
        assert_eq!(bundles.len() as u32, objects(&scene));
        assert!(bundles.iter().all(|b| b.footprint_bytes() <= 6144));
        let mut immediate = executor::ImmediateContext::new(&device).expect("immediate");
        for range in split_range(objects(&scene), 3) {
            let mut context = device
                .create_deferred_context(&DeferredContextDesc {
                    name: "bundles",
                    semantics: Semantics::Fast,
                    chunk_policy: None,
                    engine: Engine::Graphics,
                    ..Default::default()
                })
                .expect("context");
            record_bundle_calls(&mut context, &scene, &bundles, range);
            let list = context
                .finish_command_list(RestoreState::ClearState)
                .expect("list");
            immediate
                .execute_command_list(&list, RestoreState::ClearState)
                .expect("executes");
        }
        assert!(immediate.take_execution_errors().is_empty());
        let counters = *immediate.counters();
        assert_eq!(counters.draws, desc.draws as u64);
        assert_eq!(counters.bundle_calls, objects(&scene) as u64);
        // Every draw reads the mesh's index buffer and its material's pixel shader.
        let records = immediate.take_records();
        for (i, record) in records.iter().enumerate() {
            let draw = scene.draw(i as u32);
            let mesh = &scene.meshes[draw.mesh as usize];
            let graphics = record.graphics.as_ref().expect("a draw");
            assert_eq!(
                graphics.index_buffer.buffer,
                mesh.index_buffer.raw(),
                "draw {i}"
            );
        }
    }
}
