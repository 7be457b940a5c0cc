//! [`FastBindCalls`] on a bundle recorder: fast and placement binds are overrides of the
//! bundle's slots like any bind (R-FX-1, R-FX-2 with R-B-4..6); a call of many entries is one
//! call, refused as a whole. The minimum-LOD calls act on the device at once, as on any context.
//!
//! **In:** the application's fast binds. **Out:** the binds the bundle's core records, or the
//! bundle's refusal.
//!
//! **Invariant.** As `bundle_binds.rs`'s.

use recorder::*;

use crate::budget::SlotKind;
use crate::recorder::BundleRecorder;

impl FastBindCalls for BundleRecorder {
    /// Binds fast entries (R-FX-1) in one call, as a deferred context does, under the bundle
    /// rules: each entry's slot an override (R-B-4) counted against the budget (R-B-5), a
    /// dynamic buffer or a view of a target refused as not encapsulable (R-B-6). Refused as a
    /// whole, nothing bound, as the recorder refuses it; one call, whatever the entries (the
    /// call index of a later error counts it once).
    fn set_fast_resources(&mut self, entries: &[FastResource]) {
        const CALL: &str = "set_fast_resources";
        self.fast_entries(CALL, entries, |c| c.set_fast_resources(entries));
    }

    /// Checks `entries` and appends them to `batch` (R-FX-1): records nothing in the bundle.
    fn set_fast_resources_into_batch(
        &mut self,
        batch: &mut FastResourceBatch,
        entries: &[FastResource],
    ) {
        self.context.set_fast_resources_into_batch(batch, entries);
    }

    /// Applies a batch (R-FX-1): as [`set_fast_resources`](Self::set_fast_resources) of its
    /// entries, one call.
    fn set_fast_resources_from_batch(&mut self, batch: &FastResourceBatch) {
        const CALL: &str = "set_fast_resources_from_batch";
        self.fast_entries(CALL, batch.entries(), |c| {
            c.set_fast_resources_from_batch(batch)
        });
    }

    /// Binds one view under the fast contract (R-FX-1), under the bundle rules.
    fn set_fast_shader_resource(
        &mut self,
        stage: Stage,
        slot: u32,
        view: Option<ShaderResourceView>,
    ) {
        let entry = FastResource::ShaderResource { stage, slot, view };
        self.fast_entries("set_fast_shader_resource", &[entry], |c| {
            c.set_fast_shader_resource(stage, slot, view)
        });
    }

    /// Binds a view of a placed default resource (R-FX-2), under the bundle rules.
    fn set_placement_shader_resource(
        &mut self,
        stage: Stage,
        slot: u32,
        view: ShaderResourceView,
        address: u64,
    ) {
        let entry = FastResource::ShaderResource {
            stage,
            slot,
            view: Some(view),
        };
        self.fast_entry("set_placement_shader_resource", entry, Some(address));
    }

    /// Binds a placed default constant buffer (R-FX-2), under the bundle rules.
    fn set_placement_constant_buffer(
        &mut self,
        stage: Stage,
        slot: u32,
        buffer: Buffer,
        address: u64,
    ) {
        let entry = FastResource::ConstantBuffer {
            stage,
            slot,
            buffer: Some(buffer),
        };
        self.fast_entry("set_placement_constant_buffer", entry, Some(address));
    }

    /// Binds a placed default vertex buffer (R-FX-2), under the bundle rules.
    fn set_placement_vertex_buffer(
        &mut self,
        slot: u32,
        buffer: Buffer,
        stride: u32,
        offset: u32,
        address: u64,
    ) {
        let vertex = VertexBuffer {
            buffer: Some(buffer),
            stride,
            offset,
        };
        let entry = FastResource::VertexBuffer {
            slot,
            buffer: vertex,
        };
        self.fast_entry("set_placement_vertex_buffer", entry, Some(address));
    }

    /// Binds a placed default index buffer (R-FX-2), under the bundle rules.
    fn set_placement_index_buffer(&mut self, buffer: Buffer, address: u64, format: Format) {
        const CALL: &str = "set_placement_index_buffer";
        self.bind(
            CALL,
            SlotKind::IndexBuffer,
            Stage::Vertex,
            0,
            1,
            |this| this.buffers_encapsulable(CALL, [buffer]),
            |c| c.set_placement_index_buffer(buffer, address, format),
        );
    }

    /// Sets a texture's minimum LOD: it acts on the texture at once, on whatever context it is
    /// called, and records nothing (R-ST-6), so a bundle may call it too.
    fn set_resource_min_lod(&mut self, texture: Texture, min_lod: f32) {
        self.context.set_resource_min_lod(texture, min_lod);
    }

    /// Sets a view's minimum LOD, at once (see [`set_resource_min_lod`](Self::set_resource_min_lod)).
    fn set_shader_resource_view_min_lod(&mut self, view: ShaderResourceView, min_lod: f32) {
        self.context.set_shader_resource_view_min_lod(view, min_lod);
    }
}
