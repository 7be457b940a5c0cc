//! The table's entries for the fast-semantics extensions (R-REC-3): compression control
//! (R-ST-9), GDS (R-FX-4) and constant RAM (R-FX-5). `vocabulary/mod.rs` says what an entry holds
//! and how the areas' entries come together.

/// Adds these entries to the table it is handed and hands the table on to the next macro of the
/// list (`vocabulary/mod.rs`).
macro_rules! fast_commands {
    ([$next:ident $(, $rest:ident)*] $($table:tt)*) => {
        $next! { [$($rest),*] $($table)* commands {

    /// `decompress_resource`: a compressible target decompressed in place or into a second
    /// texture, of some kinds or all, whole or a sub-region (R-ST-9).
    DecompressResource = 41 {
        /// The compressible target decompressed.
        resource: RawHandle,
        /// The texture the decompressed contents go to, keeping `resource` compressed; null
        /// decompresses in place.
        into: RawHandle,
        /// The kinds decompressed ([`crate::DecompressKinds::ALL`]: all the texture has).
        kinds: crate::DecompressKinds,
        /// The subresource and texels decompressed; `None`: the whole resource.
        region: Option<crate::DecompressRegion>,
    }
    objects(one) {
        one(ObjectKind::Texture, resource);
        one(ObjectKind::Texture, into);
    }
    decode(at) {
        let p: DecompressPayload = at.read();
        let region = (p.subresource != WHOLE_RESOURCE)
            .then_some(crate::DecompressRegion { subresource: p.subresource, rect: p.rect });
        Command::DecompressResource {
            resource: p.resource,
            into: p.into,
            kinds: crate::DecompressKinds::from_bits(p.kinds as u8),
            region,
        }
    }

    /// `set_resource_compression`: a target's compression state overridden (R-ST-9).
    SetResourceCompression = 42 {
        /// The target whose compression state is set.
        resource: RawHandle,
        /// Whether it is compressed once the command executes.
        compressed: bool,
    }
    objects(one) { one(ObjectKind::Texture, resource) }
    decode(at) {
        let p: ObjectPayload = at.read();
        Command::SetResourceCompression { resource: p.object, compressed: p.value != 0 }
    }

    /// `set_gds_range`: the GDS range of the pixel or compute stage, in the operand (R-FX-4), a
    /// [`GdsRangePayload`].
    SetGdsRange = 48 {
        /// The stage (pixel or compute).
        stage: Stage,
        /// Byte offset of the range in GDS.
        offset: u32,
        /// Bytes of the range (0: none).
        size: u32,
    }
    decode(at) {
        let p: GdsRangePayload = at.read();
        Command::SetGdsRange { stage: at.stage(), offset: p.offset, size: p.size }
    }

    /// `write_gds`: words written into GDS, carried by the command (R-FX-4).
    WriteGds = 49 {
        /// Byte offset in GDS of the first value.
        offset: u32,
        /// The values, one GDS word each.
        values: &'a [u32],
    }
    decode(at) {
        let p: GdsWritePayload = at.read();
        let values = at.items(size_of::<GdsWritePayload>(), p.count);
        Command::WriteGds { offset: p.offset, values }
    }

    /// `read_gds`: GDS words copied into a buffer (R-FX-4).
    ReadGds = 50 {
        /// Byte offset in GDS of the first word.
        offset: u32,
        /// Words copied.
        count: u32,
        /// The buffer written.
        destination: RawHandle,
        /// Byte offset in the buffer.
        destination_offset: u64,
    }
    objects(one) { one(ObjectKind::Buffer, destination) }
    decode(at) {
        let p: GdsReadPayload = at.read();
        Command::ReadGds {
            offset: p.offset,
            count: p.count,
            destination: p.destination,
            destination_offset: p.destination_offset,
        }
    }

    /// `load_constant_ram`: buffer bytes into constant RAM (R-FX-5).
    LoadConstantRam = 51 {
        /// The buffer read.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        buffer_offset: u64,
        /// Byte offset in constant RAM.
        ram_offset: u32,
        /// Bytes moved.
        bytes: u32,
    }
    objects(one) { one(ObjectKind::Buffer, buffer) }
    decode(at) {
        let p: ConstantRamPayload = at.read();
        let (buffer, buffer_offset, ram_offset, bytes) =
            (p.buffer, p.buffer_offset, p.ram_offset, p.bytes);
        Command::LoadConstantRam { buffer, buffer_offset, ram_offset, bytes }
    }

    /// `store_constant_ram`: constant-RAM bytes into a buffer (R-FX-5).
    StoreConstantRam = 52 {
        /// The buffer written.
        buffer: RawHandle,
        /// Byte offset in the buffer.
        buffer_offset: u64,
        /// Byte offset in constant RAM.
        ram_offset: u32,
        /// Bytes moved.
        bytes: u32,
    }
    objects(one) { one(ObjectKind::Buffer, buffer) }
    decode(at) {
        let p: ConstantRamPayload = at.read();
        let (buffer, buffer_offset, ram_offset, bytes) =
            (p.buffer, p.buffer_offset, p.ram_offset, p.bytes);
        Command::StoreConstantRam { buffer, buffer_offset, ram_offset, bytes }
    }

        } }
    };
}

pub(super) use fast_commands;
