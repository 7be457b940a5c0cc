//! The capture's device creating objects with what a real GPU needs (R-GPU-2): the
//! `Device::create_*_with` calls, recorded as the plain creations are (`device.rs`).
//!
//! **In:** the application's creations with contents. **Out:** the engine's objects, unchanged,
//! and their records; a captured frame declares them with their contents, read back from the
//! device (`object_contents.rs`), so its replay makes them with the same contents (R-GPU-5).

use recorder::{
    BlendDesc, BlendState, Buffer, BufferDesc, DepthStencilDesc, DepthStencilState, Error,
    InputElement, InputLayout, InputLayoutDesc, RasterizerDesc, RasterizerState, SamplerDesc,
    SamplerState, Shader, ShaderCode, ShaderDesc, Texture, TextureDesc,
};

use super::CaptureDevice;

impl CaptureDevice {
    /// [`Device::create_shader_with_code`](recorder::Device::create_shader_with_code).
    pub fn create_shader_with_code(
        &self,
        desc: &ShaderDesc<'_>,
        code: ShaderCode<'_>,
    ) -> Result<Shader, Error> {
        self.note(self.device().create_shader_with_code(desc, code), desc.name)
    }

    /// [`Device::create_input_layout_with_elements`](recorder::Device::create_input_layout_with_elements).
    pub fn create_input_layout_with_elements(
        &self,
        desc: &InputLayoutDesc<'_>,
        elements: &[InputElement],
    ) -> Result<InputLayout, Error> {
        let made = self
            .device()
            .create_input_layout_with_elements(desc, elements);
        self.note(made, desc.name)
    }

    /// [`Device::create_blend_state_with`](recorder::Device::create_blend_state_with).
    pub fn create_blend_state_with(
        &self,
        name: &str,
        desc: &BlendDesc,
    ) -> Result<BlendState, Error> {
        self.note(self.device().create_blend_state_with(name, desc), name)
    }

    /// [`Device::create_depth_stencil_state_with`](recorder::Device::create_depth_stencil_state_with).
    pub fn create_depth_stencil_state_with(
        &self,
        name: &str,
        desc: &DepthStencilDesc,
    ) -> Result<DepthStencilState, Error> {
        self.note(
            self.device().create_depth_stencil_state_with(name, desc),
            name,
        )
    }

    /// [`Device::create_rasterizer_state_with`](recorder::Device::create_rasterizer_state_with).
    pub fn create_rasterizer_state_with(
        &self,
        name: &str,
        desc: &RasterizerDesc,
    ) -> Result<RasterizerState, Error> {
        self.note(self.device().create_rasterizer_state_with(name, desc), name)
    }

    /// [`Device::create_sampler_state_with`](recorder::Device::create_sampler_state_with).
    pub fn create_sampler_state_with(
        &self,
        name: &str,
        desc: &SamplerDesc,
    ) -> Result<SamplerState, Error> {
        self.note(self.device().create_sampler_state_with(name, desc), name)
    }

    /// [`Device::create_buffer_with_data`](recorder::Device::create_buffer_with_data).
    pub fn create_buffer_with_data(
        &self,
        desc: &BufferDesc<'_>,
        data: &[u8],
    ) -> Result<Buffer, Error> {
        self.note(self.device().create_buffer_with_data(desc, data), desc.name)
    }

    /// [`Device::create_texture_with_data`](recorder::Device::create_texture_with_data).
    pub fn create_texture_with_data(
        &self,
        desc: &TextureDesc<'_>,
        data: &[u8],
    ) -> Result<Texture, Error> {
        self.note(
            self.device().create_texture_with_data(desc, data),
            desc.name,
        )
    }
}
