//! The scenario IR: one frame as data. The objects to create, the calls of each command list
//! (each list recorded by one worker thread, on that thread's deferred context), and the
//! immediate context's steps (direct calls: maps and clears; executions of the lists).
//!
//! Two walkers read it, and nothing else decides what a frame does: the engine driver
//! (`drive.rs`) makes the calls on the real API, the trace printer (`trace.rs`) writes them in
//! `trace/docs/TRACE.md` syntax. So the trace of a scenario is exactly the calls the harness
//! makes. Every call here has a trace form; the arguments the trace format has no syntax for
//! take the replay's defaults in the driver too (vertex buffers with stride 0 and offset 0,
//! depth-stencil states with stencil reference 0, clears of depth and stencil together), and a
//! map writes its bytes without the trace saying which (TRACE.md's `write` is not built; no
//! count depends on the bytes).

use recorder::{
    BarrierAccess, BarrierLayout, BarrierSync, BindFlags, Format, Semantics, Slots, Stage, Usage,
};

/// An object of the frame, by its index in [`Frame::objects`].
pub type Id = usize;

/// The kind of a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewKind {
    /// A shader-resource view (`srv`).
    ShaderResource,
    /// An unordered-access view (`uav`).
    UnorderedAccess,
    /// A render-target view (`rtv`).
    RenderTarget,
    /// A depth-stencil view (`dsv`).
    DepthStencil,
}

impl ViewKind {
    /// The declaration keyword in traces.
    pub const fn keyword(self) -> &'static str {
        match self {
            Self::ShaderResource => "srv",
            Self::UnorderedAccess => "uav",
            Self::RenderTarget => "rtv",
            Self::DepthStencil => "dsv",
        }
    }
}

/// What an object is.
#[derive(Clone, Debug, PartialEq)]
pub enum ObjectDesc {
    /// A buffer.
    Buffer {
        usage: Usage,
        bind: BindFlags,
        size: u32,
    },
    /// A 2D texture (one mip, one slice, one sample).
    Texture {
        format: Format,
        width: u32,
        height: u32,
        bind: BindFlags,
        /// `None`: the engine's default (compressible when a render target or depth stencil).
        compressible: Option<bool>,
        /// Texture compatible (`tc=yes`): shaders read it compressed (R-ST-9).
        tc: bool,
    },
    /// A view of the whole of `resource`.
    View { kind: ViewKind, resource: Id },
    /// A shader and the slots it reads.
    Shader {
        stage: Stage,
        constant_buffers: Slots,
        shader_resources: Slots,
        samplers: Slots,
        unordered_access_views: Slots,
    },
    /// An input layout and its vertex-buffer slots.
    InputLayout { vertex_buffers: Slots },
    /// A depth-stencil state.
    DepthStencilState,
    /// A sampler state.
    SamplerState,
    /// An occlusion predicate for `set_predication`.
    Predicate,
}

/// A named object.
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    /// Its name, in messages and traces (`[A-Za-z_][A-Za-z0-9_.]*`, never a reserved word).
    pub name: String,
    pub desc: ObjectDesc,
}

/// How a call maps a buffer (the bytes are written, then the buffer is unmapped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind {
    /// `write_discard`: a new instance of a dynamic buffer.
    WriteDiscard,
    /// `write_no_overwrite allow_usage_default`: a default buffer written in place.
    NoOverwriteDefault,
}

/// One call on a context: a deferred context in a list, or the immediate context.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    SetInputLayout(Id),
    /// `triangle_list`.
    SetTriangleList,
    SetVertexBuffer {
        slot: u32,
        buffer: Id,
    },
    SetIndexBuffer {
        buffer: Id,
        format: Format,
    },
    SetShader {
        stage: Stage,
        shader: Id,
    },
    SetConstantBuffer {
        stage: Stage,
        slot: u32,
        buffer: Id,
    },
    /// `None` unbinds the slot.
    SetShaderResource {
        stage: Stage,
        slot: u32,
        view: Option<Id>,
    },
    SetSampler {
        stage: Stage,
        slot: u32,
        sampler: Id,
    },
    /// `STAGE_set_placement_constant_buffer`: a default buffer placed at `address` of the
    /// application's ring as it is bound (R-FX-2).
    SetPlacementConstantBuffer {
        stage: Stage,
        slot: u32,
        buffer: Id,
        address: u64,
    },
    /// `set_compute_unordered_access_views`; `None` unbinds the slot.
    SetComputeUav {
        slot: u32,
        view: Option<Id>,
    },
    /// One render target and a depth stencil.
    SetRenderTarget {
        target: Id,
        depth: Option<Id>,
    },
    SetDepthStencilState(Id),
    /// One viewport at the origin.
    SetViewport {
        width: u32,
        height: u32,
    },
    DrawIndexed {
        indices: u32,
    },
    /// `draw 3 0`: a full-screen triangle.
    DrawFullScreen,
    Dispatch {
        groups: u32,
    },
    ClearRenderTarget {
        view: Id,
        color: [f32; 4],
    },
    /// Clears depth to 1 and stencil to 0.
    ClearDepthStencil {
        view: Id,
    },
    Map {
        buffer: Id,
        kind: MapKind,
    },
    DecompressResource(Id),
    /// `set_predication PREDICATE yes`, or `null no` to end the scope.
    SetPredication(Option<Id>),
    /// The enhanced barrier a fast compute pass makes before reading what the previous pass
    /// wrote: buffer, compute shading to compute shading, unordered access to shader resource.
    UavToShaderResource(Id),
    /// An enhanced texture barrier of the whole texture (R-BAR-3).
    TextureBarrier {
        texture: Id,
        barrier: TextureTransition,
    },
}

/// The texture barriers a post-processing chain makes (R-BAR-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureTransition {
    /// Before a target's first use in the frame: `undefined` to `render_target` with `discard`
    /// (its metadata initialised, no decompression; the clear that follows writes it all).
    DiscardToRenderTarget,
    /// Before a pass reads what the previous one drew: `render_target` to `shader_resource`,
    /// which decompresses a non-TC target.
    RenderTargetToShaderResource,
}

impl TextureTransition {
    /// Sync, access and layout, each before and after, and whether it discards.
    pub const fn parts(
        self,
    ) -> (
        [BarrierSync; 2],
        [BarrierAccess; 2],
        [BarrierLayout; 2],
        bool,
    ) {
        match self {
            Self::DiscardToRenderTarget => (
                [BarrierSync::NONE, BarrierSync::RENDER_TARGET],
                [BarrierAccess::NO_ACCESS, BarrierAccess::RENDER_TARGET],
                [BarrierLayout::Undefined, BarrierLayout::RenderTarget],
                true,
            ),
            Self::RenderTargetToShaderResource => (
                [BarrierSync::RENDER_TARGET, BarrierSync::PIXEL_SHADING],
                [BarrierAccess::RENDER_TARGET, BarrierAccess::SHADER_RESOURCE],
                [BarrierLayout::RenderTarget, BarrierLayout::ShaderResource],
                false,
            ),
        }
    }
}

impl Call {
    /// [`Call::UavToShaderResource`]'s sync, before and after.
    pub const UAV_TO_SRV_SYNC: [BarrierSync; 2] =
        [BarrierSync::COMPUTE_SHADING, BarrierSync::COMPUTE_SHADING];
    /// [`Call::UavToShaderResource`]'s access, before and after.
    pub const UAV_TO_SRV_ACCESS: [BarrierAccess; 2] = [
        BarrierAccess::UNORDERED_ACCESS,
        BarrierAccess::SHADER_RESOURCE,
    ];
}

/// A command list: recorded by `thread` (on its deferred context), finished with
/// `restore = false` (ClearState).
#[derive(Clone, Debug, PartialEq)]
pub struct List {
    pub name: String,
    pub thread: usize,
    pub calls: Vec<Call>,
}

/// A step of the immediate context, after every list is recorded.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// A direct call.
    Call(Call),
    /// Executes list `lists[k]` with `restore = false`.
    Execute(usize),
}

/// One frame of a scenario under one semantics.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The scenario's name.
    pub scenario: &'static str,
    /// The device's, the contexts' and so the lists' semantics.
    pub semantics: Semantics,
    pub objects: Vec<Object>,
    /// Worker threads, each with one deferred context (`w0`, `w1`, ...).
    pub threads: usize,
    /// The lists, in the order the immediate context executes them.
    pub lists: Vec<List>,
    pub immediate: Vec<Step>,
}

impl Frame {
    /// The name of worker `thread`'s deferred context.
    pub fn context_name(thread: usize) -> String {
        format!("w{thread}")
    }

    /// The lists thread `thread` records, in order.
    pub fn lists_of(&self, thread: usize) -> impl Iterator<Item = (usize, &List)> {
        self.lists
            .iter()
            .enumerate()
            .filter(move |(_, list)| list.thread == thread)
    }
}
