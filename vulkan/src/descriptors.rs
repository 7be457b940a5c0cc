//! Descriptor sets (R-GPU-3): set 0 of a draw whose bindings changed holds the draw's constant
//! buffers, shader resources (textures or buffers), samplers and UAVs (buffers or textures) at
//! the fixed bindings (`shaders.rs`); a draw whose bindings are the previous draw's keeps the
//! bound set. Where the device has `VK_KHR_push_descriptor` and the pipeline's set has at most
//! `maxPushDescriptors` bindings (capped at [`MAX_PUSHED`]), the set is pushed
//! (`vkCmdPushDescriptorSetKHR`, its writes on the stack: no allocation, no pool, R-GPU-6);
//! else a set is allocated from the frame's pools, written and bound (dispatches always do).
//!
//! **In:** a draw's `(binding, descriptor, origin)` list, sorted by binding. **Out:** a bound
//! set; [`Bound`] keeps what the bound set holds, as Vulkan objects and as the engine's objects
//! (the origins the oracle compares with the model's record, R-GPU-4).
//!
//! **Invariant.** A frame's pools are reset only after its fence (`flush`): a set the GPU may
//! read is never reused. `Bound` is what the command buffer has bound since the frame began (reset
//! with it).

use arrayvec::ArrayVec;
use ash::vk;
use recorder::command::InstanceId;
use recorder::{Error, RawHandle};

use crate::command_frame::FRAMES_IN_FLIGHT;
use crate::instance::{vk_failed, BackendError, MAX_PUSHED};
use crate::pipelines::{Built, PipelineKey};
use crate::VulkanBackend;

/// A descriptor as Vulkan sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Descriptor {
    /// A uniform buffer range.
    Buffer {
        buffer: vk::Buffer,
        offset: u64,
        range: u64,
    },
    /// A storage buffer range (a buffer UAV, or a buffer's shader-resource view).
    Storage {
        buffer: vk::Buffer,
        offset: u64,
        range: u64,
    },
    /// A sampled image view (in `SHADER_READ_ONLY_OPTIMAL`).
    Image(vk::ImageView),
    /// A storage image view (a texture UAV, in `GENERAL`).
    StorageImage(vk::ImageView),
    /// A sampler.
    Sampler(vk::Sampler),
}

/// A descriptor as the engine names it (the oracle's terms, R-GPU-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// A buffer at an instance (a constant buffer, a vertex or index buffer).
    Buffer(RawHandle, InstanceId),
    /// A view (a shader-resource view).
    View(RawHandle),
    /// A sampler state (null: the default sampler).
    Sampler(RawHandle),
}

/// A bound vertex buffer: slot, where the binding comes from, the buffer, the offset in it and
/// the bytes bound.
pub(crate) type VertexBinding = (u32, Origin, vk::Buffer, u64, u64);

/// What the frame's command buffer has bound.
#[derive(Default)]
pub(crate) struct Bound {
    pub(crate) pipeline: vk::Pipeline,
    pub(crate) key: Option<PipelineKey>,
    /// The bound pipeline's objects (with `key`: a draw of the same key looks up nothing).
    pub(crate) built: Option<Built>,
    pub(crate) set_layout: vk::DescriptorSetLayout,
    pub(crate) set: Vec<(u32, Descriptor)>,
    pub(crate) set_origins: Vec<(u32, Origin)>,
    pub(crate) vertex_buffers: Vec<VertexBinding>,
    pub(crate) index_buffer: Option<(Origin, vk::Buffer, u64, vk::IndexType)>,
    /// Primitive restart as last set on the command buffer (`dynamic_state.rs`).
    pub(crate) restart: Option<bool>,
    /// The dynamic state set (`dynamic_state.rs`).
    pub(crate) dynamic: Option<crate::dynamic_state::DynamicState>,
}

impl Bound {
    /// A new command buffer binds nothing yet (the lists keep their room: R-GPU-6).
    pub(crate) fn reset(&mut self) {
        self.pipeline = vk::Pipeline::null();
        self.key = None;
        self.built = None;
        self.set_layout = vk::DescriptorSetLayout::null();
        self.set.clear();
        self.set_origins.clear();
        self.vertex_buffers.clear();
        self.index_buffer = None;
        self.dynamic = None;
        self.restart = None;
    }
}

/// Each frame's descriptor pools (`command_frame.rs`: a frame's sets live until its fence).
#[derive(Default)]
pub(crate) struct Descriptors {
    pools: [Vec<vk::DescriptorPool>; FRAMES_IN_FLIGHT],
    /// The frame being recorded.
    frame: usize,
    /// Its pool being allocated from.
    current: usize,
    /// Sets written or pushed so far (one per draw whose bindings changed).
    pub(crate) sets_written: u64,
    /// Descriptors written or pushed so far (a pushed set's update counts only the
    /// descriptors pushed).
    pub(crate) descriptors_written: u64,
}

const SETS_PER_POOL: u32 = 1024;

impl Descriptors {
    fn new_pool(device: &ash::Device) -> Result<vk::DescriptorPool, BackendError> {
        let sizes = [
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: SETS_PER_POOL * 8,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::SAMPLED_IMAGE,
                descriptor_count: SETS_PER_POOL * 8,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::SAMPLER,
                descriptor_count: SETS_PER_POOL * 4,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: SETS_PER_POOL * 4,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_IMAGE,
                descriptor_count: SETS_PER_POOL,
            },
        ];
        let info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(SETS_PER_POOL)
            .pool_sizes(&sizes);
        // SAFETY: `info` lives across the call.
        unsafe { device.create_descriptor_pool(&info, None) }
            .map_err(vk_failed("vkCreateDescriptorPool"))
    }

    /// A set of `layout` from the frame's pools (a new pool when they are full).
    fn allocate(
        &mut self,
        device: &ash::Device,
        layout: vk::DescriptorSetLayout,
    ) -> Result<vk::DescriptorSet, BackendError> {
        let layouts = [layout];
        let pools = &mut self.pools[self.frame];
        loop {
            if self.current == pools.len() {
                pools.push(Self::new_pool(device)?);
            }
            let info = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(pools[self.current])
                .set_layouts(&layouts);
            // SAFETY: the pool and layout are live objects of this device.
            match unsafe { device.allocate_descriptor_sets(&info) } {
                Ok(sets) => {
                    return sets.first().copied().ok_or(BackendError::Vulkan {
                        call: "vkAllocateDescriptorSets",
                        result: vk::Result::ERROR_UNKNOWN,
                    })
                }
                Err(vk::Result::ERROR_OUT_OF_POOL_MEMORY | vk::Result::ERROR_FRAGMENTED_POOL) => {
                    self.current += 1;
                }
                Err(result) => return Err(vk_failed("vkAllocateDescriptorSets")(result)),
            }
        }
    }

    /// Frame `frame` is made current (its last submission's fence signalled): every set of
    /// its pools is free.
    pub(crate) fn reset(&mut self, device: &ash::Device, frame: usize) -> Result<(), BackendError> {
        self.frame = frame % FRAMES_IN_FLIGHT;
        for pool in &self.pools[self.frame] {
            // SAFETY: the GPU finished with every set of the pool (after the frame's fence).
            unsafe { device.reset_descriptor_pool(*pool, vk::DescriptorPoolResetFlags::empty()) }
                .map_err(vk_failed("vkResetDescriptorPool"))?;
        }
        self.current = 0;
        Ok(())
    }

    pub(crate) fn destroy(&mut self, device: &ash::Device) {
        for pool in self.pools.iter_mut().flat_map(|p| p.drain(..)) {
            // SAFETY: the device is idle; each pool is destroyed once.
            unsafe { device.destroy_descriptor_pool(pool, None) };
        }
    }
}

impl VulkanBackend {
    /// Binds a set holding `contents` for `built`, unless the bound set holds them already.
    /// A pushed set of the bound layout with the same bindings is updated in place: only the
    /// descriptors that differ from the bound ones are pushed (push descriptors update
    /// incrementally, and a pipeline of the same set layout does not disturb them), so a draw
    /// that changed one constant buffer writes one descriptor, as a hand-written renderer does
    /// (R-GPU-6).
    pub(crate) fn bind_set(
        &mut self,
        built: &Built,
        contents: &[(u32, Descriptor, Origin)],
    ) -> Result<(), Error> {
        if contents.is_empty() {
            self.bound.set.clear();
            self.bound.set_origins.clear();
            return Ok(());
        }
        if self.bound.set_layout == built.set_layout && self.bound.set.len() == contents.len() {
            // One walk: the bindings compared (the same layout holds the same ones) and the
            // descriptors that differ noted.
            let mut differ: ArrayVec<usize, MAX_PUSHED> = ArrayVec::new();
            let (mut same_bindings, mut more) = (true, false);
            for (i, (a, b)) in self.bound.set.iter().zip(contents).enumerate() {
                if a.0 != b.0 {
                    same_bindings = false;
                    break;
                }
                if a.1 != b.1 && differ.try_push(i).is_err() {
                    more = true;
                }
            }
            if same_bindings && differ.is_empty() {
                return Ok(());
            }
            if same_bindings && built.push && !more {
                if let [one] = differ[..] {
                    // The steady state: one descriptor (a changed constant buffer) pushed
                    // with its write built on the stack alone.
                    self.push_one(built, &contents[one]);
                } else {
                    self.push_set(built, differ.iter().map(|&i| &contents[i]));
                }
                self.descriptors.sets_written += 1;
                self.descriptors.descriptors_written += differ.len() as u64;
                for &i in &differ {
                    let (binding, descriptor, origin) = contents[i];
                    self.bound.set[i] = (binding, descriptor);
                    self.bound.set_origins[i] = (binding, origin);
                }
                return Ok(());
            }
        }
        if built.push {
            self.push_set(built, contents.iter().take(MAX_PUSHED));
        } else {
            let set = self.write_set(built.set_layout, contents)?;
            // SAFETY: `set` holds the bindings of `built.set_layout`, the pipeline's layout's
            // set 0; it is bound on a recording command buffer.
            unsafe {
                self.gpu.device.cmd_bind_descriptor_sets(
                    self.frame.cb,
                    vk::PipelineBindPoint::GRAPHICS,
                    built.layout,
                    0,
                    &[set],
                    &[],
                );
            }
        }
        self.descriptors.sets_written += 1;
        self.descriptors.descriptors_written += contents.len() as u64;
        self.bound.set_layout = built.set_layout;
        self.bound.set.clear();
        self.bound.set_origins.clear();
        for &(binding, descriptor, origin) in contents {
            self.bound.set.push((binding, descriptor));
            self.bound.set_origins.push((binding, origin));
        }
        Ok(())
    }

    /// Pushes `entries` into set 0 of `built`'s layout (`VK_KHR_push_descriptor`): no set
    /// allocated, no allocation (at most [`MAX_PUSHED`] descriptors, of the layout's bindings).
    fn push_set<'e>(
        &mut self,
        built: &Built,
        entries: impl Iterator<Item = &'e (u32, Descriptor, Origin)> + Clone,
    ) {
        let Some(loader) = self.gpu.push_descriptor.as_ref() else {
            return;
        };
        let mut buffers: ArrayVec<[vk::DescriptorBufferInfo; 1], MAX_PUSHED> = ArrayVec::new();
        let mut images: ArrayVec<[vk::DescriptorImageInfo; 1], MAX_PUSHED> = ArrayVec::new();
        for (_, descriptor, _) in entries.clone().take(MAX_PUSHED) {
            match info(descriptor) {
                Info::Buffer(b) => buffers.push([b]),
                Info::Image(i) => images.push([i]),
            }
        }
        let (mut b, mut i) = (0, 0);
        let mut writes: ArrayVec<vk::WriteDescriptorSet<'_>, MAX_PUSHED> = ArrayVec::new();
        for (binding, descriptor, _) in entries.take(MAX_PUSHED) {
            let write = vk::WriteDescriptorSet::default()
                .dst_binding(*binding)
                .descriptor_type(ty(descriptor));
            writes.push(match descriptor {
                Descriptor::Buffer { .. } | Descriptor::Storage { .. } => {
                    b += 1;
                    write.buffer_info(&buffers[b - 1])
                }
                _ => {
                    i += 1;
                    write.image_info(&images[i - 1])
                }
            });
        }
        // SAFETY: `built.set_layout` is a push layout (`built.push`) holding these bindings
        // with these types (the pipeline's declared slots), at most the device's
        // maxPushDescriptors; the buffers, views and samplers are live; recording on `cb`.
        // The bindings not written keep what was pushed before on this layout (`bind_set`).
        unsafe {
            loader.cmd_push_descriptor_set(
                self.frame.cb,
                vk::PipelineBindPoint::GRAPHICS,
                built.layout,
                0,
                &writes,
            );
        }
    }

    /// Pushes one descriptor into set 0 of `built`'s layout, as [`Self::push_set`] does.
    fn push_one(&mut self, built: &Built, entry: &(u32, Descriptor, Origin)) {
        let Some(loader) = self.gpu.push_descriptor.as_ref() else {
            return;
        };
        let (binding, descriptor, _) = entry;
        let write = vk::WriteDescriptorSet::default()
            .dst_binding(*binding)
            .descriptor_type(ty(descriptor));
        let (buffer, image);
        let write = match info(descriptor) {
            Info::Buffer(b) => {
                buffer = [b];
                write.buffer_info(&buffer)
            }
            Info::Image(i) => {
                image = [i];
                write.image_info(&image)
            }
        };
        // SAFETY: as `push_set`'s: `built.set_layout` is a push layout holding this binding
        // with this type; the buffer, view or sampler is live; recording on `cb`. The other
        // bindings keep what was pushed before on this layout (`bind_set`).
        unsafe {
            loader.cmd_push_descriptor_set(
                self.frame.cb,
                vk::PipelineBindPoint::GRAPHICS,
                built.layout,
                0,
                std::slice::from_ref(&write),
            );
        }
    }

    /// A set of `layout` from the frame's pools, written with `contents` (not bound).
    pub(crate) fn write_set(
        &mut self,
        layout: vk::DescriptorSetLayout,
        contents: &[(u32, Descriptor, Origin)],
    ) -> Result<vk::DescriptorSet, Error> {
        let set = self
            .descriptors
            .allocate(&self.gpu.device, layout)
            .map_err(|e| e.to_engine("draw"))?;
        let mut buffer_infos = Vec::with_capacity(contents.len());
        let mut image_infos = Vec::with_capacity(contents.len());
        for (_, descriptor, _) in contents {
            match *descriptor {
                Descriptor::Buffer {
                    buffer,
                    offset,
                    range,
                }
                | Descriptor::Storage {
                    buffer,
                    offset,
                    range,
                } => buffer_infos.push([vk::DescriptorBufferInfo {
                    buffer,
                    offset,
                    range,
                }]),
                Descriptor::Image(view) => image_infos.push([vk::DescriptorImageInfo {
                    sampler: vk::Sampler::null(),
                    image_view: view,
                    image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                }]),
                Descriptor::StorageImage(view) => image_infos.push([vk::DescriptorImageInfo {
                    sampler: vk::Sampler::null(),
                    image_view: view,
                    image_layout: vk::ImageLayout::GENERAL,
                }]),
                Descriptor::Sampler(sampler) => image_infos.push([vk::DescriptorImageInfo {
                    sampler,
                    image_view: vk::ImageView::null(),
                    image_layout: vk::ImageLayout::UNDEFINED,
                }]),
            }
        }
        let (mut b, mut i) = (0, 0);
        let writes: Vec<_> = contents
            .iter()
            .map(|(binding, descriptor, _)| {
                let write = vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(*binding);
                match descriptor {
                    Descriptor::Buffer { .. } => {
                        b += 1;
                        write
                            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                            .buffer_info(&buffer_infos[b - 1])
                    }
                    Descriptor::Storage { .. } => {
                        b += 1;
                        write
                            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                            .buffer_info(&buffer_infos[b - 1])
                    }
                    Descriptor::Image(_) => {
                        i += 1;
                        write
                            .descriptor_type(vk::DescriptorType::SAMPLED_IMAGE)
                            .image_info(&image_infos[i - 1])
                    }
                    Descriptor::StorageImage(_) => {
                        i += 1;
                        write
                            .descriptor_type(vk::DescriptorType::STORAGE_IMAGE)
                            .image_info(&image_infos[i - 1])
                    }
                    Descriptor::Sampler(_) => {
                        i += 1;
                        write
                            .descriptor_type(vk::DescriptorType::SAMPLER)
                            .image_info(&image_infos[i - 1])
                    }
                }
            })
            .collect();
        // SAFETY: `set` was just allocated with `layout`, whose bindings are the ones written
        // (the pipeline's declared slots), with their types; the buffers, views and samplers
        // are live.
        unsafe { self.gpu.device.update_descriptor_sets(&writes, &[]) };
        Ok(set)
    }
}

/// A descriptor's info structure.
enum Info {
    Buffer(vk::DescriptorBufferInfo),
    Image(vk::DescriptorImageInfo),
}

/// The info structure Vulkan reads `descriptor` from.
fn info(descriptor: &Descriptor) -> Info {
    match *descriptor {
        Descriptor::Buffer {
            buffer,
            offset,
            range,
        }
        | Descriptor::Storage {
            buffer,
            offset,
            range,
        } => Info::Buffer(vk::DescriptorBufferInfo {
            buffer,
            offset,
            range,
        }),
        Descriptor::Image(view) => Info::Image(vk::DescriptorImageInfo {
            sampler: vk::Sampler::null(),
            image_view: view,
            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        }),
        Descriptor::StorageImage(view) => Info::Image(vk::DescriptorImageInfo {
            sampler: vk::Sampler::null(),
            image_view: view,
            image_layout: vk::ImageLayout::GENERAL,
        }),
        Descriptor::Sampler(sampler) => Info::Image(vk::DescriptorImageInfo {
            sampler,
            image_view: vk::ImageView::null(),
            image_layout: vk::ImageLayout::UNDEFINED,
        }),
    }
}

/// The descriptor type of `descriptor`.
fn ty(descriptor: &Descriptor) -> vk::DescriptorType {
    match descriptor {
        Descriptor::Buffer { .. } => vk::DescriptorType::UNIFORM_BUFFER,
        Descriptor::Storage { .. } => vk::DescriptorType::STORAGE_BUFFER,
        Descriptor::Image(_) => vk::DescriptorType::SAMPLED_IMAGE,
        Descriptor::StorageImage(_) => vk::DescriptorType::STORAGE_IMAGE,
        Descriptor::Sampler(_) => vk::DescriptorType::SAMPLER,
    }
}
