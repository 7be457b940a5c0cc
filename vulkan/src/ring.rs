//! The per-frame upload ring (R-GPU-3): one host-visible buffer, bump-allocated, that holds
//! every dynamic buffer instance a write-discard map makes (a map is a new ring offset, no
//! allocation) and every staging copy (initial data, `update_subresource`, a dynamic
//! texture's map) of the frame.
//!
//! **In:** bytes to place, with an alignment. **Out:** their offset in [`Ring::buffer`]; the
//! regions of dynamic instances by `(buffer, instance)` ([`Ring::region`]), which draws read
//! their vertex, index and constant data from (a draw finds the instance a map placed in the
//! backend's `Locations` first: the ring's index is built only when looked up).
//!
//! The buffer is cut into one part per frame in flight (`command_frame.rs`): a frame places
//! its bytes in its own part, so a flush that does not wait for the GPU leaves the submitted
//! frames' regions alone.
//!
//! **Invariant.** A region is never rewritten while the GPU may read it: a frame's part is
//! reset only when that frame is made current again, after its fence signalled, and `write_no_overwrite` writes into
//! its instance's region in place only because the application promises the GPU reads no byte it
//! writes (R-REC-11). After a reset the regions are forgotten; a draw that reads an instance
//! placed in an earlier frame has it placed again from the bytes the backend kept of each
//! dynamic buffer's latest instance (`VulkanBackend::latest`).

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme, Allocator};
use gpu_allocator::MemoryLocation;
use recorder::command::InstanceId;
use recorder::RawHandle;

use crate::command_frame::FRAMES_IN_FLIGHT;
use crate::handle_hash::HandleMap;
use crate::instance::{vk_failed, BackendError};

/// The upload ring (see the module essay).
pub(crate) struct Ring {
    pub(crate) buffer: vk::Buffer,
    allocation: Option<Allocation>,
    /// The bytes of each frame's part.
    size: u64,
    /// The current frame's part ends here.
    end: u64,
    head: u64,
    /// Where each dynamic instance of this frame lies, in the order placed: a map appends its
    /// instance's region here (no hashing per map, R-GPU-6).
    placed: Vec<(RawHandle, InstanceId, u64)>,
    /// `placed`, indexed by `(buffer, instance)` up to `indexed`: filled only when a region is
    /// looked up (an instance not found in `Locations`: an older instance, a no-overwrite map
    /// of an instance evicted there), with every region placed since the last look-up.
    regions: HandleMap<(RawHandle, InstanceId), u64>,
    indexed: usize,
}

/// The alignment of every region: enough for uniform-buffer offsets on every device (256 is
/// Vulkan's largest allowed `minUniformBufferOffsetAlignment`) and for texel copies.
pub(crate) const RING_ALIGN: u64 = 256;

impl Ring {
    pub(crate) fn new(
        device: &ash::Device,
        allocator: &mut Allocator,
        size: u64,
    ) -> Result<Self, BackendError> {
        let size = size.next_multiple_of(RING_ALIGN);
        let info = vk::BufferCreateInfo::default()
            .size(size * FRAMES_IN_FLIGHT as u64)
            .usage(
                vk::BufferUsageFlags::TRANSFER_SRC
                    | vk::BufferUsageFlags::VERTEX_BUFFER
                    | vk::BufferUsageFlags::INDEX_BUFFER
                    | vk::BufferUsageFlags::UNIFORM_BUFFER
                    | vk::BufferUsageFlags::STORAGE_BUFFER
                    | vk::BufferUsageFlags::INDIRECT_BUFFER,
            )
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: `info` is a valid buffer description living across the call.
        let buffer = unsafe { device.create_buffer(&info, None) }
            .map_err(vk_failed("vkCreateBuffer (upload ring)"))?;
        // SAFETY: `buffer` was just made from `device`.
        let requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
        let allocation = allocator
            .allocate(&AllocationCreateDesc {
                name: "upload ring",
                requirements,
                location: MemoryLocation::CpuToGpu,
                linear: true,
                allocation_scheme: AllocationScheme::GpuAllocatorManaged,
            })
            .map_err(|e| BackendError::Allocation(e.to_string()));
        let allocation = match allocation {
            Ok(allocation) => allocation,
            Err(error) => {
                // SAFETY: the buffer is unused and bound to nothing.
                unsafe { device.destroy_buffer(buffer, None) };
                return Err(error);
            }
        };
        // SAFETY: the allocation satisfies the buffer's requirements and is bound once.
        let bound =
            unsafe { device.bind_buffer_memory(buffer, allocation.memory(), allocation.offset()) };
        let ring = Self {
            buffer,
            allocation: Some(allocation),
            size,
            end: size,
            head: 0,
            placed: Vec::new(),
            regions: HandleMap::default(),
            indexed: 0,
        };
        bound.map_err(vk_failed("vkBindBufferMemory (upload ring)"))?;
        if ring
            .allocation
            .as_ref()
            .and_then(|a| a.mapped_ptr())
            .is_none()
        {
            return Err(BackendError::Allocation(
                "the upload ring's memory is not host-visible".to_string(),
            ));
        }
        Ok(ring)
    }

    /// Places `data` in the current frame's part; `None` when it is full.
    pub(crate) fn place(&mut self, data: &[u8]) -> Option<u64> {
        let offset = self.head.next_multiple_of(RING_ALIGN);
        let end = offset.checked_add(data.len() as u64)?;
        if end > self.end {
            return None;
        }
        self.write(offset, data);
        self.head = end;
        Some(offset)
    }

    /// Writes `data` at `offset` (inside a region placed this frame).
    pub(crate) fn write(&mut self, offset: u64, data: &[u8]) {
        let Some(slice) = self.allocation.as_mut().and_then(|a| a.mapped_slice_mut()) else {
            return;
        };
        let start = offset as usize;
        if let Some(target) = slice.get_mut(start..start + data.len()) {
            target.copy_from_slice(data);
        }
    }

    /// Keeps that `buffer`'s `instance` lies at `offset` in this frame.
    #[inline]
    pub(crate) fn keep_region(&mut self, buffer: RawHandle, instance: InstanceId, offset: u64) {
        self.placed.push((buffer, instance, offset));
    }

    /// Where `buffer`'s `instance` lies in this frame, if it was placed (the regions placed
    /// since the last look-up are indexed first; a later placement of the same instance wins,
    /// as an insert would).
    pub(crate) fn region(&mut self, buffer: RawHandle, instance: InstanceId) -> Option<u64> {
        if let Some(new) = self.placed.get(self.indexed..) {
            for &(b, i, offset) in new {
                self.regions.insert((b, i), offset);
            }
        }
        self.indexed = self.placed.len();
        self.regions.get(&(buffer, instance)).copied()
    }

    /// Whether `bytes` could ever fit.
    pub(crate) fn fits(&self, bytes: usize) -> bool {
        (bytes as u64) <= self.size
    }

    /// Frame `frame` is made current (its last submission's fence signalled): its part is
    /// free, and the regions of the frame before are forgotten.
    pub(crate) fn reset(&mut self, frame: usize) {
        self.head = frame as u64 * self.size;
        self.end = self.head + self.size;
        self.placed.clear();
        self.regions.clear();
        self.indexed = 0;
    }

    pub(crate) fn destroy(&mut self, device: &ash::Device, allocator: &mut Allocator) {
        // SAFETY: called once the device is idle; the buffer is destroyed before its memory
        // is freed and is not used again.
        unsafe { device.destroy_buffer(self.buffer, None) };
        if let Some(allocation) = self.allocation.take() {
            let _ = allocator.free(allocation);
        }
    }
}
