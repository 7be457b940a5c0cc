//! Shader code (R-GPU-2) for Vulkan: WGSL compiled to SPIR-V with naga (parsed, validated,
//! written with the entry point's stage), SPIR-V words taken as they are; and the reflection
//! that checks, at creation, that the slots the code reads are the declared ones
//! ([`NagaShaderCheck`], installed on the device by `VulkanBackend::new`).
//!
//! **In:** a shader's [`OwnedShaderCode`] and [`ShaderDesc`]. **Out:** SPIR-V words and a
//! `VkShaderModule` per shader handle (cached); the reflected slot sets by kind, and which
//! shader-resource slots the code reads as buffers and which UAV slots as storage textures
//! (the descriptor types of their bindings, `Kinds`).
//!
//! **Invariant.** The descriptor mapping is fixed, the engine's own
//! ([`recorder::shader_binding`], see the crate essay): a resource at `@group(0) @binding(N)`
//! is, with `k` the stage's index (vs 0, hs 1, ds 2, gs 3, ps 4, cs 5), constant buffer
//! `N - 256k` below `256k + 16`, shader resource `N - 256k - 16` below `256k + 144` (a sampled
//! texture or a read-only storage buffer), sampler `N - 256k - 144` below `256k + 160`, UAV
//! `N - 256k - 160` below `256k + 224` (storage). A binding of another stage's range, of another
//! group, or whose kind is not its range's (a texture in the constant-buffer range) is refused
//! naming it. Naga's SPIR-V writer flips `y` of the vertex
//! position (WGSL's clip space has `y` up, Vulkan's down), so viewports stay D3D11's.

use std::fmt::Write as _;

use naga::valid::{Capabilities, ValidationFlags, Validator};
use recorder::{OwnedShaderCode, ShaderCheck, ShaderCode, ShaderDesc, Slots, Stage};

pub use recorder::SlotKind;

/// The binding of `slot` of `kind` in `stage`: the engine's fixed mapping,
/// [`recorder::shader_binding`].
pub fn binding(stage: Stage, kind: SlotKind, slot: u32) -> u32 {
    recorder::shader_binding(stage, kind, slot)
}

/// Whether the backend has a binding for `slot` of `kind`: every D3D11 slot has one.
pub fn slot_mapped(kind: SlotKind, slot: u32) -> bool {
    slot < match kind {
        SlotKind::ConstantBuffer => 16,
        SlotKind::ShaderResource => 128,
        SlotKind::Sampler => 16,
        SlotKind::UnorderedAccess => 64,
    }
}

/// The slots code reads, by kind, as reflection finds them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reflected {
    /// Constant-buffer slots.
    pub constant_buffers: Slots,
    /// Shader-resource slots.
    pub shader_resources: Slots,
    /// Sampler slots.
    pub samplers: Slots,
    /// UAV slots (storage resources at `UAV_BASE + slot`).
    pub storage: Slots,
}

fn naga_stage(stage: Stage) -> Option<naga::ShaderStage> {
    match stage {
        Stage::Vertex => Some(naga::ShaderStage::Vertex),
        Stage::Pixel => Some(naga::ShaderStage::Fragment),
        Stage::Compute => Some(naga::ShaderStage::Compute),
        _ => None,
    }
}

/// A module parsed and validated, with the index of its entry point.
fn parse(
    code: &ShaderCode<'_>,
    stage: Stage,
) -> Result<(naga::Module, naga::valid::ModuleInfo, usize), String> {
    let module = match code {
        ShaderCode::Wgsl { source, .. } => naga::front::wgsl::parse_str(source)
            .map_err(|e| format!("its WGSL does not parse: {}", e.emit_to_string(source)))?,
        ShaderCode::SpirV { words, .. } => {
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            naga::front::spv::parse_u8_slice(&bytes, &Default::default())
                .map_err(|e| format!("its SPIR-V does not parse: {e}"))?
        }
    };
    let info = Validator::new(ValidationFlags::all(), Capabilities::all())
        .validate(&module)
        .map_err(|e| format!("its code does not validate: {:?}", e.into_inner()))?;
    let entry = match code {
        ShaderCode::Wgsl { entry, .. } | ShaderCode::SpirV { entry, .. } => *entry,
    };
    let wanted = naga_stage(stage)
        .ok_or_else(|| format!("stage {stage:?} is not translated yet (R-GPU-3)"))?;
    let index = module
        .entry_points
        .iter()
        .position(|e| e.name == entry && e.stage == wanted)
        .ok_or_else(|| format!("its code has no {wanted:?} entry point '{entry}' (R-GPU-2)"))?;
    Ok((module, info, index))
}

/// Which descriptor type each slot's binding takes where its kind has two: the shader-resource
/// slots the code reads as (read-only) storage buffers rather than sampled textures, and the
/// UAV slots it reads as storage images rather than storage buffers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Kinds {
    /// Shader-resource slots of buffer views (`var<storage, read>`).
    pub(crate) buffer_resources: Slots,
    /// UAV slots of texture views (`texture_storage_2d`).
    pub(crate) image_uavs: Slots,
}

/// The slots the entry point reads (see the module invariant for the mapping).
pub fn reflect(code: &ShaderCode<'_>, stage: Stage) -> Result<Reflected, String> {
    reflect_kinds(code, stage).map(|(reflected, _)| reflected)
}

/// The descriptor types `code`'s bindings take ([`Kinds`]).
pub(crate) fn kinds(code: &OwnedShaderCode, stage: Stage) -> Result<Kinds, String> {
    let borrowed = match code {
        OwnedShaderCode::Wgsl { source, entry } => ShaderCode::Wgsl { source, entry },
        OwnedShaderCode::SpirV { words, entry } => ShaderCode::SpirV { words, entry },
    };
    reflect_kinds(&borrowed, stage).map(|(_, kinds)| kinds)
}

/// [`reflect`], with the descriptor types ([`Kinds`]).
fn reflect_kinds(code: &ShaderCode<'_>, stage: Stage) -> Result<(Reflected, Kinds), String> {
    let (module, info, index) = parse(code, stage)?;
    let uses = info.get_entry_point(index);
    let mut reflected = Reflected::default();
    let mut kinds = Kinds::default();
    for (handle, var) in module.global_variables.iter() {
        let Some(binding) = &var.binding else {
            continue;
        };
        if uses[handle].is_empty() {
            continue;
        }
        let name = var.name.as_deref().unwrap_or("(unnamed)");
        let at = format!(
            "'{name}' at @group({}) @binding({})",
            binding.group, binding.binding
        );
        if binding.group != 0 {
            return Err(format!("{at}: the backend binds group 0 only (R-GPU-3)"));
        }
        let n = binding.binding;
        let Some((at_stage, range, slot)) = recorder::binding_slot(n) else {
            return Err(format!("{at}: no slot maps to this binding (R-GPU-3)"));
        };
        if at_stage != stage {
            let first = recorder::shader_binding(stage, SlotKind::ConstantBuffer, 0);
            return Err(format!(
                "{at}: a {stage:?} shader's bindings are {first}..{} (R-GPU-3)",
                first + 256
            ));
        }
        let inner = &module.types[var.ty].inner;
        let fits = match (range, var.space, inner) {
            (SlotKind::ConstantBuffer, naga::AddressSpace::Uniform, _) => true,
            (SlotKind::Sampler, naga::AddressSpace::Handle, naga::TypeInner::Sampler { .. }) => {
                true
            }
            (
                SlotKind::ShaderResource,
                naga::AddressSpace::Handle,
                naga::TypeInner::Image { class, .. },
            ) => !matches!(class, naga::ImageClass::Storage { .. }),
            (SlotKind::ShaderResource, naga::AddressSpace::Storage { access }, _) => {
                !access.contains(naga::StorageAccess::STORE)
            }
            (SlotKind::UnorderedAccess, naga::AddressSpace::Storage { .. }, _) => true,
            (
                SlotKind::UnorderedAccess,
                naga::AddressSpace::Handle,
                naga::TypeInner::Image {
                    class: naga::ImageClass::Storage { .. },
                    ..
                },
            ) => true,
            _ => false,
        };
        if !fits {
            return Err(format!(
                "{at}: not a {range:?} resource, which its binding's range holds (constant \
                 buffers: uniform; shader resources: sampled textures or read-only storage; \
                 samplers; UAVs: storage, R-GPU-3)"
            ));
        }
        match (range, var.space) {
            (SlotKind::ShaderResource, naga::AddressSpace::Storage { .. }) => {
                kinds.buffer_resources = kinds.buffer_resources.with(slot)
            }
            (SlotKind::UnorderedAccess, naga::AddressSpace::Handle) => {
                kinds.image_uavs = kinds.image_uavs.with(slot)
            }
            _ => {}
        }
        let set = match range {
            SlotKind::ConstantBuffer => &mut reflected.constant_buffers,
            SlotKind::ShaderResource => &mut reflected.shader_resources,
            SlotKind::Sampler => &mut reflected.samplers,
            SlotKind::UnorderedAccess => &mut reflected.storage,
        };
        *set = set.with(slot);
    }
    Ok((reflected, kinds))
}

/// SPIR-V words of `code` for `stage`.
pub(crate) fn spirv(code: &OwnedShaderCode, stage: Stage) -> Result<Vec<u32>, String> {
    match code {
        OwnedShaderCode::SpirV { words, .. } => Ok(words.clone()),
        OwnedShaderCode::Wgsl { source, entry } => {
            let borrowed = ShaderCode::Wgsl { source, entry };
            let (module, info, _) = parse(&borrowed, stage)?;
            let shader_stage = naga_stage(stage)
                .ok_or_else(|| format!("stage {stage:?} is not translated yet (R-GPU-3)"))?;
            let options = naga::back::spv::Options::default();
            let pipeline = naga::back::spv::PipelineOptions {
                shader_stage,
                entry_point: entry.clone(),
            };
            naga::back::spv::write_vec(&module, &info, &options, Some(&pipeline))
                .map_err(|e| format!("its WGSL does not translate to SPIR-V: {e}"))
        }
    }
}

/// The device's check of shader code against declared slots (R-GPU-2), by naga reflection.
#[derive(Debug, Default)]
pub struct NagaShaderCheck;

impl ShaderCheck for NagaShaderCheck {
    fn check(&self, desc: &ShaderDesc<'_>, code: &ShaderCode<'_>) -> Result<(), String> {
        let reflected = reflect(code, desc.stage)?;
        let declared = Reflected {
            constant_buffers: desc.constant_buffers,
            shader_resources: desc.shader_resources,
            samplers: desc.samplers,
            storage: desc.unordered_access_views,
        };
        if reflected == declared {
            return Ok(());
        }
        let mut why = String::from("the slots its code reads are not the declared ones:");
        for (kind, code_set, declared_set) in [
            (
                "constant buffers",
                reflected.constant_buffers,
                declared.constant_buffers,
            ),
            (
                "shader resources",
                reflected.shader_resources,
                declared.shader_resources,
            ),
            ("samplers", reflected.samplers, declared.samplers),
            (
                "unordered-access views",
                reflected.storage,
                declared.storage,
            ),
        ] {
            if code_set != declared_set {
                let _ = write!(
                    why,
                    " {kind}: code {code_set:?}, declared {declared_set:?};"
                );
            }
        }
        why.pop();
        why.push_str(" (R-GPU-2)");
        Err(why)
    }
}
