//! The numbers the hardware and the seeds fix. Everything that sizes a table, a chunk or a slot
//! array reads them from here.

/// Deferred contexts alive at once per device (R-REC-1; the seeds' "maximum of 48").
pub const MAX_DEFERRED_CONTEXTS: u32 = 48;

/// Default size of a command-list chunk (R-REC-3; the seeds' "chunks of 64 KB").
pub const DEFAULT_CHUNK_SIZE: usize = 64 * 1024;

/// Smallest chunk a growth policy may ask for: a chunk must hold its header, the list header and
/// the largest fixed-size command with room to spare.
pub const MIN_CHUNK_SIZE: usize = 4 * 1024;

/// Largest chunk a growth policy may ask for (payloads larger than this get a chunk of their own).
pub const MAX_CHUNK_SIZE: usize = 64 * 1024 * 1024;

/// Largest data a map or an update carries in a list or a batch of the immediate context
/// (R-REC-12): half the largest chunk. Larger maps and updates are refused on every path.
pub const MAX_MAP_BYTES: usize = MAX_CHUNK_SIZE / 2;

/// Largest encoded command, header and data included (R-REC-12): every size the encoding stores
/// in a `u32` is checked against it where it is written.
pub const MAX_COMMAND_BYTES: usize = MAX_CHUNK_SIZE;

/// Constant-engine budget of a draw bundle in bytes (R-B-5).
pub const BUNDLE_BUDGET_BYTES: u32 = 6144;

/// Constant-buffer slots per stage, 0..=15 (R-OBJ-5).
pub const CONSTANT_BUFFER_SLOTS: u32 = 16;
/// Shader-resource slots per stage (R-OBJ-5).
pub const SHADER_RESOURCE_SLOTS: u32 = 128;
/// Sampler slots per stage (R-OBJ-5).
pub const SAMPLER_SLOTS: u32 = 16;
/// Unordered-access slots of the output merger (pixel stage) (R-OBJ-5).
pub const GRAPHICS_UAV_SLOTS: u32 = 8;
/// Unordered-access slots of the compute stage (R-OBJ-5).
pub const COMPUTE_UAV_SLOTS: u32 = 64;
/// Vertex-buffer slots of the input assembler (R-OBJ-5).
pub const VERTEX_BUFFER_SLOTS: u32 = 32;
/// Simultaneous render targets (R-OBJ-5).
pub const RENDER_TARGET_SLOTS: u32 = 8;
/// Viewports and scissor rectangles (D3D11's 16).
pub const VIEWPORT_SLOTS: u32 = 16;
/// Largest width and height of a 2D texture, in texels (R-OBJ-2; D3D11's
/// `D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION`). With the other limits of a texture description (16
/// mips, 16 samples, 2048 slices, 16-byte texels) a texture's size stays under 2^48 bytes.
pub const MAX_TEXTURE_DIMENSION: u32 = 16384;
/// Groups of one `barrier` call, and barriers of one group (R-BAR-1): each is numbered in the 16
/// bits of a barrier record's `group` and `index` (what every R-BAR-8 message prints).
pub const MAX_BARRIER_GROUPS: usize = 1 << 16;
/// Barriers of one `barrier` group, and of one `resource_barrier` call (see
/// [`MAX_BARRIER_GROUPS`]).
pub const MAX_BARRIERS_PER_GROUP: usize = 1 << 16;
/// Back buffers a swap chain may have.
pub const MAX_BACK_BUFFERS: u32 = 8;

/// Bits of a handle's generation that name the device it belongs to (R-OBJ-3): the high bits,
/// so that the generation comparison every lookup makes also refuses another device's handle.
pub const DEVICE_TAG_BITS: u32 = 8;
/// Bits of a handle's generation left to count the reuses of a slot. Each reuse advances the
/// count by two (destruction, then creation), so a stale handle could name a new object only
/// after 2^23 (about 8.4 million) reuses of the same slot while the application kept it.
pub const GENERATION_COUNT_BITS: u32 = 32 - DEVICE_TAG_BITS;
/// Devices alive at once that each get a tag of their own (tag 0 is never handed out while a
/// tag is free). Past this many, a new device shares tag 0 with every other such device, and
/// handles of those devices are no longer told apart from each other (a warning is logged).
pub const MAX_TAGGED_DEVICES: u32 = (1 << DEVICE_TAG_BITS) - 1;

/// Slots in the first segment of an object table; segment `k` holds `SEGMENT_SLOTS << k`.
pub const SEGMENT_SLOTS: u32 = 256;
/// Segments per object table: enough for every `u32` index but `u32::MAX` (the null handle).
pub const MAX_SEGMENTS: u32 = 24;
/// Objects of one kind a device can hold at once (slots are reused after destruction).
pub const MAX_OBJECTS_PER_KIND: u32 = SEGMENT_SLOTS * ((1 << MAX_SEGMENTS) - 1);
const _: () = assert!(MAX_OBJECTS_PER_KIND < u32::MAX);

/// Bytes of the GPU's global data store (R-FX-4; GCN's GDS is 64 KB): what `set_gds_range`
/// partitions and `write_gds` / `read_gds` address, in 4-byte words.
pub const GDS_BYTES: u32 = 64 * 1024;

/// Bytes of the constant engine's RAM (R-FX-5; CE RAM is 48 KB on GCN): what
/// `load_constant_ram` / `store_constant_ram` address, in 4-byte words.
pub const CONSTANT_RAM_BYTES: u32 = 48 * 1024;
