#![deny(missing_docs)]
//! # bundles
//!
//! Draw bundles (SPEC §7): small recordings of state and draws, made once per object and
//! executed every frame at a CPU cost that does not depend on their length, in the model of the
//! Xbox One's constant engine. The guide to what they encapsulate and inherit, the budget and
//! the remaps, with traces that run, is [`recorder::semantics`](::recorder::semantics) ("Draw
//! bundles").
//!
//! **In:** calls on a [`BundleRecorder`] (from any thread), declared with the render-target
//! formats, depth format and sample count the bundle will be executed with (R-B-1).
//! **Out:** an immutable [`DrawBundle`] (`Send + Sync`, cheap to clone), or the bundle's first
//! error with its call index. A bundle is executed by `executor::ImmediateContext::draw_bundle`
//! or recorded into a list with [`DrawBundleExt::draw_bundle`] on a deferred context (R-B-10).
//!
//! **Invariants** (the rules, each checked before a call is forwarded to the recorder):
//! - Only what a bundle may hold is recorded: the five graphics stages and the input layout are
//!   set before the first draw, the compute stage before the first dispatch (R-B-3); the allowed
//!   draws (R-B-2); encapsulated slots of constant buffers, shader resources, samplers, vertex
//!   buffers, the index buffer and the topology (R-B-4); remaps (R-B-9). Inherited state
//!   (R-B-7), unsupported calls (R-B-8), objects that cannot be encapsulated and stream-output
//!   shaders (R-B-6) are refused with the error kinds of TRACE.md.
//! - The constant-engine footprint, summed over the distinct overridden (stage, kind, slot) of
//!   the whole bundle, never exceeds 6144 bytes (R-B-5, [`budget`]).
//! - A bundle never leaks: the executor applies its slots over the caller's state for its own
//!   draws and puts the caller's state back after; remaps read the caller's state as it was when
//!   the bundle was called, so they never chain (R-B-9, R-B-10).
//!
//! # What a bundle recorder cannot call
//!
//! What a bundle may not record at all does not exist on it: a bundle recorder implements
//! [`BindCalls`](::recorder::BindCalls), [`FastBindCalls`](::recorder::FastBindCalls) and [`DrawCalls`](::recorder::DrawCalls) (`bundle_binds.rs`,
//! `bundle_fast_binds.rs`, `bundle_draws.rs`) and no other capability, so the state a bundle
//! always inherits (R-B-7: render targets and output-merger UAVs, blend, depth-stencil and
//! rasterizer state, viewports, scissors, predication, compute UAVs, and, our reading, the
//! primitive reset index), `clear_state`, clears, maps, copies, `update_subresource`, queries,
//! fences and waits, barriers (R-BAR-1), decompression and compression state, GDS and constant RAM
//! (R-B-8), and `dispatch_indirect` (R-B-2 lists no indirect dispatch among a bundle's draws) do
//! not compile on it:
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! # let texture = device.create_texture(&TextureDesc::default())?;
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.copy_resource(texture, texture); // no TransferCalls
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.set_render_targets(&[], None); // no InheritedStateCalls (R-B-7)
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.clear_state(); // no ClearStateCalls
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! # let buffer = device.create_buffer(&BufferDesc::default())?;
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! let _ = recorder.map(buffer, MapType::WriteDiscard, MapFlags::None); // no MapCalls
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! # let query = device.create_query("q", QueryKind::Occlusion)?;
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.begin_query(query); // no QueryCalls
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.insert_wait_on_fence(Engine::Graphics, 1); // no FenceCalls
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.barrier(&[]); // no BarrierCalls (R-BAR-1)
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.write_gds(0, &[1]); // no EngineMemoryCalls
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! # let args = device.create_buffer(&BufferDesc::default())?;
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.dispatch_indirect(args, 0); // no IndirectDispatchCalls (R-B-2)
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! Nor do the calls no capability holds: executing a command list, calling a bundle, inserting a
//! fence, presenting, device context state objects (R-FX-6: a bundle is fast, and fast semantics
//! keeps no state to swap):
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! let list = device.create_deferred_context(&DeferredContextDesc::default())?
//!     .finish_command_list(RestoreState::ClearState).map_err(|e| e.error)?;
//! recorder.execute_command_list(&list, RestoreState::ClearState); // no such call
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.insert_fence(Engine::Graphics); // no such call
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! ```compile_fail
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut state = device.create_deferred_context(&DeferredContextDesc::default())?
//!     .create_device_context_state()?;
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.swap_device_context_state(&mut state); // no such call
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! What binds and draws it has compiles as on any context:
//!
//! ```
//! # use recorder::*; use bundles::*;
//! # let device = Device::new(DeviceDesc::default());
//! let mut recorder = BundleRecorder::new(&device, &BundleDesc::new("b", &[]))?;
//! recorder.set_primitive_topology(PrimitiveTopology::TriangleList);
//! recorder.draw(3, 0); // refused: the mandatory state is not set (R-B-3)
//! assert_eq!(recorder.last_refusal().map(Error::kind), Some(ErrorKind::MissingMandatoryState));
//! # Ok::<(), recorder::Error>(())
//! ```
//!
//! A trace that makes such a call on a bundle gets the refusal of the call's capability
//! ([`Capability::bundle_refusal`](::recorder::Capability::bundle_refusal)) through [`BundleRecorder::refuse_missing_capability`]
//! (`inherited_state_in_bundle` for R-B-7, `unsupported_in_bundle` for the rest), or
//! [`BundleRecorder::refuse_unsupported`] for the calls no capability holds.
//!
//! # Example
//!
//! A per-object bundle with its own textures and constants, and a remap that lets its second
//! draw read a constant buffer the caller binds at slot 3:
//!
//! ```
//! use bundles::{BundleDesc, BundleRecorder};
//! use recorder::*;
//!
//! let device = Device::new(DeviceDesc::default());
//! let vs = device.create_shader(&ShaderDesc { constant_buffers: Slots::first(1), ..ShaderDesc::new("vs", Stage::Vertex) })?;
//! let ps = device.create_shader(&ShaderDesc { shader_resources: Slots::first(2), ..ShaderDesc::new("ps", Stage::Pixel) })?;
//! let layout = device.create_input_layout(&InputLayoutDesc { name: "layout", vertex_buffers: Slots::first(1) })?;
//! let texture = device.create_texture(&TextureDesc {
//!     name: "albedo", format: Format::Bc1Unorm, width: 256, height: 256,
//!     bind: BindFlags::SHADER_RESOURCE, ..Default::default()
//! })?;
//! let albedo = device.create_shader_resource_view(&ViewDesc::new("albedo", texture))?;
//! let constants = device.create_buffer(&BufferDesc {
//!     name: "object", size: 256, bind: BindFlags::CONSTANT, ..Default::default()
//! })?;
//!
//! let desc = BundleDesc { depth: Some(Format::D32Float), ..BundleDesc::new("rock", &[Format::R8G8B8A8Unorm]) };
//! let mut recorder = BundleRecorder::new(&device, &desc)?;
//! recorder.set_input_layout(Some(layout));
//! recorder.set_shader(Stage::Vertex, Some(vs));
//! for stage in [Stage::Hull, Stage::Domain, Stage::Geometry] {
//!     recorder.set_shader(stage, None);
//! }
//! recorder.set_shader(Stage::Pixel, Some(ps));
//! recorder.set_shader_resources(Stage::Pixel, 0, &[Some(albedo), None]); // 2 x 64 B
//! recorder.set_constant_buffers(Stage::Vertex, 0, &[Some(constants)]); // 16 B
//! recorder.draw(36, 0);
//! recorder.remap_constant_buffer_inheritance(Stage::Vertex, 0, Stage::Vertex, 3); // free
//! recorder.draw(36, 36);
//! let bundle = recorder.finish().map_err(|e| e.error)?;
//! assert_eq!(bundle.footprint_bytes(), 2 * 64 + 16);
//! assert_eq!(bundle.draws(), 2);
//! # Ok::<(), recorder::Error>(())
//! ```

pub mod budget;
mod bundle_binds;
mod bundle_draws;
mod bundle_fast_binds;
mod finished_bundle;
mod recorder;

pub use crate::finished_bundle::{DrawBundle, DrawBundleExt};
pub use crate::recorder::{BundleDesc, BundleRecorder};
pub use budget::{Growth, Overrides, SlotKind};
