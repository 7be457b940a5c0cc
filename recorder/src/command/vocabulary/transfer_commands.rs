//! The table's entries for the transfers (R-REC-3): clears, copies, updates and the maps
//! recorded in a list. `vocabulary/mod.rs` says what an entry holds and how the areas' entries
//! come together.

/// Adds these entries to the table it is handed and hands the table on to the next macro of the
/// list (`vocabulary/mod.rs`).
macro_rules! transfer_commands {
    ([$next:ident $(, $rest:ident)*] $($table:tt)*) => {
        $next! { [$($rest),*] $($table)* commands {

    /// `clear_render_target_view`.
    ClearRenderTargetView = 26 {
        /// The render-target view cleared.
        view: &'a BoundView,
        /// The colour, RGBA.
        color: [f32; 4],
    }
    objects(one) { one(ObjectKind::RenderTargetView, view.view) }
    decode(at) {
        let p: &ClearPayload = at.get();
        Command::ClearRenderTargetView { view: &p.view, color: p.values }
    }

    /// `clear_depth_stencil_view`.
    ClearDepthStencilView = 27 {
        /// The depth-stencil view cleared.
        view: BoundView,
        /// Which planes are cleared.
        flags: ClearFlags,
        /// The depth value (when `flags.depth`).
        depth: f32,
        /// The stencil value (when `flags.stencil`).
        stencil: u8,
    }
    objects(one) { one(ObjectKind::DepthStencilView, view.view) }
    decode(at) {
        let p: ClearPayload = at.read();
        Command::ClearDepthStencilView {
            view: p.view,
            flags: ClearFlags::from_bits(p.flags),
            depth: p.values[0],
            stencil: p.stencil as u8,
        }
    }

    /// `copy_resource`: the whole of `source` copied into `destination`.
    CopyResource = 28 {
        /// The resource written.
        destination: &'a BoundResource,
        /// The resource read, and the instance it is read at.
        source: &'a BoundResource,
    }
    objects(one) {
        one(destination.kind(), destination.resource);
        one(source.kind(), source.resource);
    }
    decode(at) {
        let p: &CopyPayload = at.get();
        Command::CopyResource { destination: &p.destination, source: &p.source }
    }

    /// `update_subresource`: a default resource's contents replaced (legacy only, R-ST-7); the
    /// data travels with the command.
    UpdateSubresource = 29 {
        /// The resource written.
        resource: BoundResource,
        /// The bytes written, carried by the list.
        data: &'a [u8],
    }
    objects(one) { one(resource.kind(), resource.resource) }
    decode(at) {
        let (resource, data) = at.with_data();
        Command::UpdateSubresource { resource, data }
    }

    /// `copy_structure_count`: a UAV's hidden counter written into a buffer.
    CopyStructureCount = 30 {
        /// The buffer and byte offset written.
        destination: &'a BoundBuffer,
        /// The UAV whose counter is read (R-ST-7).
        view: &'a BoundView,
    }
    objects(one) {
        one(ObjectKind::Buffer, destination.buffer);
        one(ObjectKind::UnorderedAccessView, view.view);
    }
    decode(at) {
        let p: &StructureCountPayload = at.get();
        Command::CopyStructureCount { destination: &p.destination, view: &p.view }
    }

    /// A write_discard map recorded in a list: a new instance of a dynamic resource, its data
    /// carried with the command (R-REC-10, R-ST-8).
    MapWriteDiscard = 31 {
        /// The dynamic resource, and the instance the map makes (R-REC-10).
        resource: BoundResource,
        /// The bytes the map wrote, carried by the list.
        data: &'a [u8],
    }
    objects(one) { one(resource.kind(), resource.resource) }
    decode(at) {
        let (resource, data) = at.with_data();
        Command::MapWriteDiscard { resource, data }
    }

    /// A write_no_overwrite map of a default-usage resource (allow_usage_default): data written
    /// in place (R-REC-11).
    MapWriteNoOverwrite = 32 {
        /// The resource written.
        resource: BoundResource,
        /// The bytes written, carried by the list.
        data: &'a [u8],
    }
    objects(one) { one(resource.kind(), resource.resource) }
    decode(at) {
        let (resource, data) = at.with_data();
        Command::MapWriteNoOverwrite { resource, data }
    }

    /// `copy_buffer_region`: `bytes` bytes of `source` from `source_offset` into `destination`
    /// at `destination_offset`; source and destination may be one buffer (R-BAR-7).
    CopyBufferRegion = 58 {
        /// The buffer written.
        destination: &'a BoundResource,
        /// The first byte written.
        destination_offset: u64,
        /// The buffer read.
        source: &'a BoundResource,
        /// The first byte read.
        source_offset: u64,
        /// How many bytes.
        bytes: u64,
    }
    objects(one) {
        one(destination.kind(), destination.resource);
        one(source.kind(), source.resource);
    }
    decode(at) {
        let p: &BufferRegionPayload = at.get();
        Command::CopyBufferRegion {
            destination: &p.destination,
            destination_offset: p.destination_offset,
            source: &p.source,
            source_offset: p.source_offset,
            bytes: p.bytes,
        }
    }

    /// `copy_texture_region`: the texels of `source_box` of a source subresource into a
    /// destination subresource at `(x, y)`; source and destination may be one texture
    /// (R-BAR-7).
    CopyTextureRegion = 59 {
        /// The texture written.
        destination: &'a BoundResource,
        /// The subresource written.
        destination_subresource: u32,
        /// Where the box lands: left texel.
        x: u32,
        /// Top texel.
        y: u32,
        /// The texture read.
        source: &'a BoundResource,
        /// The subresource read.
        source_subresource: u32,
        /// The texels read.
        source_box: &'a CopyBox,
    }
    objects(one) {
        one(destination.kind(), destination.resource);
        one(source.kind(), source.resource);
    }
    decode(at) {
        let p: &TextureRegionPayload = at.get();
        Command::CopyTextureRegion {
            destination: &p.destination,
            destination_subresource: p.destination_subresource,
            x: p.x,
            y: p.y,
            source: &p.source,
            source_subresource: p.source_subresource,
            source_box: &p.source_box,
        }
    }

        } }
    };
}

pub(super) use transfer_commands;
