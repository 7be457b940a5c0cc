//! The objects' contents a real GPU needs (R-GPU-2): the `Device::create_*_with` calls that
//! create an object with them, and [`Device::gpu_contents`], where a backend reads them.
//!
//! **In:** shader code, input elements, state fields, initial bytes, given at creation.
//! **Out:** an owned [`GpuContents`] per object in `DeviceShared::gpu_contents`, dropped when
//! the object is destroyed.
//!
//! **Invariant.** The model never reads these: an object is the same object to it with or
//! without contents. Creation checks what it can without a GPU (sizes, slots, formats); shader
//! code is checked against the declared slots by the [`ShaderCheck`] a backend installed
//! (reflection needs a compiler the default build does not have), and refused naming both.

use std::sync::Arc;

use super::{Device, DeviceShared};
use crate::desc::*;
use crate::device::handle::*;
use crate::errors::{DescProblem, Error};

fn invalid(call: &'static str, object: String, why: String) -> Error {
    Error::InvalidDesc {
        call,
        object,
        problem: DescProblem::Contents(why),
    }
}

impl DeviceShared {
    /// Drops what a destroyed object kept for a backend.
    pub(crate) fn forget_gpu_contents(&self, kind: ObjectKind, handle: RawHandle) {
        let mut contents = self.gpu_contents.lock();
        if !contents.is_empty() {
            contents.remove(&(kind, handle));
        }
    }
}

impl Device {
    fn keep_contents(&self, kind: ObjectKind, handle: RawHandle, contents: GpuContents) {
        self.shared
            .gpu_contents
            .lock()
            .insert((kind, handle), Arc::new(contents));
    }

    /// What a backend needs of object `handle` of `kind`, if it was created with it (R-GPU-2);
    /// `None` otherwise or once it is destroyed.
    pub fn gpu_contents(&self, kind: ObjectKind, handle: RawHandle) -> Option<Arc<GpuContents>> {
        self.shared
            .gpu_contents
            .lock()
            .get(&(kind, handle))
            .cloned()
    }

    /// Installs the check of shader code against declared slots (R-GPU-2) that
    /// [`create_shader_with_code`](Self::create_shader_with_code) runs from now on: a backend
    /// that can reflect code installs it; without one, code is kept unchecked.
    pub fn set_shader_check(&self, check: Option<Arc<dyn ShaderCheck>>) {
        *self.shared.shader_check.lock() = check;
    }

    /// [`create_shader`](Self::create_shader) with its code (R-GPU-2). Refused
    /// (`invalid_argument`) as `create_shader` is, for an empty entry point or code, and where
    /// the installed [`ShaderCheck`] finds that the slots the code reads are not the declared
    /// ones (the message names both).
    pub fn create_shader_with_code(
        &self,
        desc: &ShaderDesc<'_>,
        code: ShaderCode<'_>,
    ) -> Result<Shader, Error> {
        let object = || format!("shader '{}'", desc.name);
        let (empty, entry) = match code {
            ShaderCode::Wgsl { source, entry } => (source.trim().is_empty(), entry),
            ShaderCode::SpirV { words, entry } => (words.is_empty(), entry),
        };
        if empty || entry.is_empty() {
            let why = "its code or entry point is empty (R-GPU-2)".to_string();
            return Err(invalid("create_shader_with_code", object(), why));
        }
        let check = self.shared.shader_check.lock().clone();
        if let Some(check) = check {
            check
                .check(desc, &code)
                .map_err(|why| invalid("create_shader_with_code", object(), why))?;
        }
        let shader = self.create_shader(desc)?;
        let contents = GpuContents::Shader(code.to_owned_code());
        self.keep_contents(ObjectKind::Shader, shader.raw(), contents);
        Ok(shader)
    }

    /// [`create_input_layout`](Self::create_input_layout) with its elements (R-GPU-2): each
    /// element's slot must be one the layout reads and its format a vertex format (known,
    /// non-zero size). The vertex shader's input `location` `i` reads element `i`.
    pub fn create_input_layout_with_elements(
        &self,
        desc: &InputLayoutDesc<'_>,
        elements: &[InputElement],
    ) -> Result<InputLayout, Error> {
        let call = "create_input_layout_with_elements";
        let object = || format!("input layout '{}'", desc.name);
        for (i, element) in elements.iter().enumerate() {
            if !desc.vertex_buffers.contains(element.input_slot) {
                let why = format!(
                    "element {i} ({}{}) reads vertex-buffer slot {}, which the layout's slots {:?} \
                     do not hold (R-GPU-2)",
                    element.semantic, element.semantic_index, element.input_slot, desc.vertex_buffers
                );
                return Err(invalid(call, object(), why));
            }
            if element.format.bytes_per_element() == 0 {
                let why = format!("element {i} ({}) has no format (R-GPU-2)", element.semantic);
                return Err(invalid(call, object(), why));
            }
        }
        let layout = self.create_input_layout(desc)?;
        let contents = GpuContents::InputLayout(elements.to_vec());
        self.keep_contents(ObjectKind::InputLayout, layout.raw(), contents);
        Ok(layout)
    }

    /// [`create_blend_state`](Self::create_blend_state) with its D3D11 fields (R-GPU-2).
    pub fn create_blend_state_with(
        &self,
        name: &str,
        desc: &BlendDesc,
    ) -> Result<BlendState, Error> {
        let state = self.create_blend_state(name)?;
        let contents = GpuContents::Blend(*desc);
        self.keep_contents(ObjectKind::BlendState, state.raw(), contents);
        Ok(state)
    }

    /// [`create_depth_stencil_state`](Self::create_depth_stencil_state) with its D3D11 fields
    /// (R-GPU-2).
    pub fn create_depth_stencil_state_with(
        &self,
        name: &str,
        desc: &DepthStencilDesc,
    ) -> Result<DepthStencilState, Error> {
        let state = self.create_depth_stencil_state(name)?;
        let contents = GpuContents::DepthStencil(*desc);
        self.keep_contents(ObjectKind::DepthStencilState, state.raw(), contents);
        Ok(state)
    }

    /// [`create_rasterizer_state`](Self::create_rasterizer_state) with its D3D11 fields
    /// (R-GPU-2). Refused when a depth bias field is not finite.
    pub fn create_rasterizer_state_with(
        &self,
        name: &str,
        desc: &RasterizerDesc,
    ) -> Result<RasterizerState, Error> {
        if !(desc.depth_bias_clamp.is_finite() && desc.slope_scaled_depth_bias.is_finite()) {
            let why = "a depth bias field is not finite (R-GPU-2)".to_string();
            let object = format!("rasterizer state '{name}'");
            return Err(invalid("create_rasterizer_state_with", object, why));
        }
        let state = self.create_rasterizer_state(name)?;
        let contents = GpuContents::Rasterizer(*desc);
        self.keep_contents(ObjectKind::RasterizerState, state.raw(), contents);
        Ok(state)
    }

    /// [`create_sampler_state`](Self::create_sampler_state) with its D3D11 fields (R-GPU-2).
    /// Refused when a LOD field is NaN or `min_lod > max_lod`.
    pub fn create_sampler_state_with(
        &self,
        name: &str,
        desc: &SamplerDesc,
    ) -> Result<SamplerState, Error> {
        let lods = [desc.min_lod, desc.max_lod, desc.mip_lod_bias];
        if lods.iter().any(|l| l.is_nan()) || desc.min_lod > desc.max_lod {
            let why = format!(
                "its LOD range {}..{} (bias {}) is not a range (R-GPU-2)",
                desc.min_lod, desc.max_lod, desc.mip_lod_bias
            );
            let object = format!("sampler state '{name}'");
            return Err(invalid("create_sampler_state_with", object, why));
        }
        let state = self.create_sampler_state(name)?;
        let contents = GpuContents::Sampler(*desc);
        self.keep_contents(ObjectKind::SamplerState, state.raw(), contents);
        Ok(state)
    }

    /// [`create_buffer`](Self::create_buffer) with its initial bytes (R-GPU-2): at most its
    /// size; the rest is zero.
    pub fn create_buffer_with_data(
        &self,
        desc: &BufferDesc<'_>,
        data: &[u8],
    ) -> Result<Buffer, Error> {
        if data.len() as u64 > desc.size as u64 {
            let why = format!(
                "its {} initial bytes are more than its size {} (R-GPU-2)",
                data.len(),
                desc.size
            );
            let object = format!("buffer '{}'", desc.name);
            return Err(invalid("create_buffer_with_data", object, why));
        }
        let buffer = self.create_buffer(desc)?;
        let contents = GpuContents::InitialData(Arc::from(data));
        self.keep_contents(ObjectKind::Buffer, buffer.raw(), contents);
        Ok(buffer)
    }

    /// [`create_texture`](Self::create_texture) with the initial bytes of its first
    /// subresource, rows packed (R-GPU-2): exactly width × height × the format's bytes (for a
    /// block-compressed `bc*` format, its 4x4 blocks × the format's bytes, a block's).
    pub fn create_texture_with_data(
        &self,
        desc: &TextureDesc<'_>,
        data: &[u8],
    ) -> Result<Texture, Error> {
        let (pitch, rows) = super::object_info::packed_rows(desc.format, desc.width, desc.height);
        let want = pitch * rows;
        if data.len() as u64 != want {
            let why = format!(
                "its {} initial bytes are not the {want} of its first subresource ({}x{} {}) \
                 (R-GPU-2)",
                data.len(),
                desc.width,
                desc.height,
                desc.format.name()
            );
            let object = format!("texture '{}'", desc.name);
            return Err(invalid("create_texture_with_data", object, why));
        }
        let texture = self.create_texture(desc)?;
        let contents = GpuContents::InitialData(Arc::from(data));
        self.keep_contents(ObjectKind::Texture, texture.raw(), contents);
        Ok(texture)
    }
}
