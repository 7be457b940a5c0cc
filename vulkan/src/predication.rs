//! Predication (R-GPU-3): a draw under `set_predication` (or `set_predication_from_query`)
//! decided by the GPU's occlusion result, with `VK_EXT_conditional_rendering` where the device
//! has it; else by the model.
//!
//! **In:** the predicate in force at each draw as the model's state holds it
//! (`GpuBackend::predicate`: `set_predication`, `set_predication_from_query`, and the list
//! boundaries that clear or restore it), the query commands of the predicate (`query_pools.rs`),
//! and each draw with the model's `skipped`.
//! **Out:** for a draw under an occlusion or predicate query whose end the backend translated:
//! - the end in this submission, its scope one piece: the piece's result copied
//!   (`vkCmdCopyQueryPoolResults`, waiting for it, 32 bits) into a word of the backend's
//!   predicate buffer, outside a pass, a barrier to the conditional-rendering read, and the draw
//!   wrapped in `vkCmdBeginConditionalRenderingEXT` / `End` inside its pass (begun and ended
//!   around the one draw, so the pass rules hold and clears are never predicated, as in the
//!   model), `INVERTED` when the value that skips is `true` (Vulkan draws on non-zero);
//! - the result read back already (an earlier submission), or a scope of several pieces (the
//!   backend submits, then reads it back): the GPU's answer decides on the CPU;
//! - otherwise (no device extension, `VulkanOptions::conditional_rendering` off, a timestamp
//!   or statistics predicate, a predicate with no result yet), the model's decision: a draw it
//!   skipped is not recorded. A predicated dispatch follows the model's decision.
//!
//! **What decides, and what the oracle checks.** The model counts one sample per primitive
//! drawn with a target bound (`executor/src/gpu/query_results.rs`); the GPU counts samples
//! that passed. They agree on a draw that covers pixels and on one with no primitive or no
//! target; they differ on a draw whose primitives cover no pixel or fail the depth test (the
//! model answers "passed", the GPU "none"). There the GPU's decision stands (the pixels are the
//! GPU's), the model's record (`predicated yes`/`no`) stays the model's: the oracle compares
//! the bound state of every draw the backend records, whichever decided, not whether it drew.
//!
//! **Invariant.** Conditional rendering is never active across a pass boundary, a transfer or
//! a submission; each word of the buffer is written once per submission.

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;
use recorder::{Error, RawHandle};

use crate::query_pools::{Pending, Scoped};
use crate::VulkanBackend;

/// Words of the predicate buffer (conditions per submission).
const WORDS: u32 = 1024;

/// How a draw under predication is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Not recorded.
    Skip,
    /// Recorded.
    Draw,
    /// Recorded under conditional rendering on the buffer word at `offset`.
    Conditional { offset: u64, inverted: bool },
}

/// Draws under predication, by what decided them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PredicationCounts {
    /// Recorded under conditional rendering (the GPU decided as it ran).
    pub conditional: u64,
    /// Decided on the CPU from the GPU's result read back (drawn or not).
    pub from_gpu_result: u64,
    /// Decided by the model (no extension, the option off, or nothing the GPU could answer).
    pub by_model: u64,
    /// Not recorded (skipped by the model's decision or by the GPU's result read back).
    pub skipped: u64,
}

/// The predicate and its prepared condition.
pub(crate) struct Predication {
    /// The predicate the model set (null: none) and the value that skips.
    pub(crate) predicate: (RawHandle, bool),
    /// Whether `condition` is up to date for the predicate.
    prepared: bool,
    /// `None`: the model decides; `Some(Ok(skip))` the GPU's result read back;
    /// `Some(Err(offset))` conditional rendering on that word.
    condition: Option<Result<bool, u64>>,
    buffer: Option<(vk::Buffer, Allocation)>,
    pub(crate) used: u32,
    pub(crate) counts: PredicationCounts,
}

impl Default for Predication {
    fn default() -> Self {
        Self {
            predicate: (RawHandle::NULL, false),
            prepared: false,
            condition: None,
            buffer: None,
            used: 0,
            counts: PredicationCounts::default(),
        }
    }
}

impl Predication {
    /// At a flush: the words are free again, conditions prepared again.
    pub(crate) fn reset(&mut self) {
        self.used = 0;
        self.prepared = false;
    }

    pub(crate) fn destroy(
        &mut self,
        device: &ash::Device,
        allocator: &mut gpu_allocator::vulkan::Allocator,
    ) {
        if let Some((buffer, allocation)) = self.buffer.take() {
            // SAFETY: the device is idle (the backend's `Drop` waited); destroyed once.
            unsafe { device.destroy_buffer(buffer, None) };
            let _ = allocator.free(allocation);
        }
    }
}

impl VulkanBackend {
    /// The predicate in force at the next draw, as the model's state holds it
    /// (`GpuBackend::predicate`).
    pub(crate) fn set_predicate(&mut self, query: RawHandle, value: bool) {
        if self.predication.predicate != (query, value) {
            self.predication.predicate = (query, value);
            self.predication.prepared = false;
        }
    }

    /// A command of `query` was translated: a condition on it is prepared again.
    pub(crate) fn predicate_query_changed(&mut self, query: RawHandle) {
        if self.predication.predicate.0 == query {
            self.predication.prepared = false;
        }
    }

    /// How a draw the model `skipped` (or not) is recorded; may submit or close the pass.
    pub(crate) fn decide(&mut self, call: &'static str, skipped: bool) -> Result<Decision, Error> {
        let model = if skipped {
            Decision::Skip
        } else {
            Decision::Draw
        };
        if self.predication.predicate.0.is_null() {
            return Ok(model);
        }
        if !self.predication.prepared {
            self.prepare_condition(call)?;
        }
        let value = self.predication.predicate.1;
        let counts = &mut self.predication.counts;
        let decision = match self.predication.condition {
            None => {
                counts.by_model += 1;
                model
            }
            Some(Ok(skip)) => {
                counts.from_gpu_result += 1;
                if skip {
                    Decision::Skip
                } else {
                    Decision::Draw
                }
            }
            Some(Err(offset)) => {
                counts.conditional += 1;
                Decision::Conditional {
                    offset,
                    inverted: value,
                }
            }
        };
        counts.skipped += (decision == Decision::Skip) as u64;
        Ok(decision)
    }

    /// Prepares the condition of the predicate (see the module essay).
    fn prepare_condition(&mut self, call: &'static str) -> Result<(), Error> {
        self.predication.prepared = true;
        self.predication.condition = None;
        let (query, value) = self.predication.predicate;
        if !self.options.conditional_rendering || self.gpu.conditional_rendering.is_none() {
            return Ok(());
        }
        let Some(state) = self.queries.states.get(&query) else {
            return Ok(());
        };
        if crate::query_pools::scoped_kind(state.kind) != Some(Scoped::Occlusion) {
            return Ok(());
        }
        let slot = match &state.pending {
            Some(Pending::Scoped(pieces, carried)) if carried.samples == 0 && pieces.len() <= 1 => {
                match pieces.first() {
                    Some(&slot) => slot,
                    None => {
                        self.predication.condition = Some(Ok(!value));
                        return Ok(());
                    }
                }
            }
            Some(Pending::Scoped(_, carried)) if carried.samples > 0 => {
                self.predication.condition = Some(Ok(value));
                return Ok(());
            }
            Some(_) => {
                // Several pieces: read the sum back (the flush prepares nothing).
                self.flush_and_wait().map_err(|e| e.to_engine(call))?;
                self.predication.prepared = true;
                let answer = self.queries.states.get(&query).and_then(|s| s.result);
                self.predication.condition = answer.map(|r| Ok(r.answer() == value));
                return Ok(());
            }
            None => {
                self.predication.condition = state.result.map(|r| Ok(r.answer() == value));
                return Ok(());
            }
        };
        let offset = self.predicate_word(call)?;
        let buffer = self
            .predication
            .buffer
            .as_ref()
            .map(|(b, _)| *b)
            .unwrap_or_default();
        self.end_pass();
        let pool = self.queries.occlusion_pool();
        let barriers = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::COPY)
            .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::CONDITIONAL_RENDERING_EXT)
            .dst_access_mask(vk::AccessFlags2::CONDITIONAL_RENDERING_READ_EXT)];
        let dependency = vk::DependencyInfo::default().memory_barriers(&barriers);
        // SAFETY: recording outside a pass (closed above); `slot` was begun and ended earlier
        // in this command buffer (its end is pending); the word at `offset` lies in the buffer,
        // made with TRANSFER_DST, and is written once in this submission.
        unsafe {
            let device = &self.gpu.device;
            device.cmd_copy_query_pool_results(
                self.frame.cb,
                pool,
                slot,
                1,
                buffer,
                offset,
                4,
                vk::QueryResultFlags::WAIT,
            );
            device.cmd_pipeline_barrier2(self.frame.cb, &dependency);
        }
        self.frame.dirty = true;
        self.predication.condition = Some(Err(offset));
        Ok(())
    }

    /// A word of the predicate buffer for this submission (the buffer made at first use).
    fn predicate_word(&mut self, call: &'static str) -> Result<u64, Error> {
        if self.predication.buffer.is_none() {
            let create = vk::BufferCreateInfo::default()
                .size(WORDS as u64 * 4)
                .usage(
                    vk::BufferUsageFlags::CONDITIONAL_RENDERING_EXT
                        | vk::BufferUsageFlags::TRANSFER_DST,
                )
                .sharing_mode(vk::SharingMode::EXCLUSIVE);
            let device = &self.gpu.device;
            // SAFETY: `create` is a valid description (the extension is enabled: checked by
            // the caller) living across the call.
            let buffer = unsafe { device.create_buffer(&create, None) }
                .map_err(|r| self.vk_error(call, "vkCreateBuffer", r))?;
            // SAFETY: `buffer` was just made from `device`.
            let requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
            let allocation = self.gpu.allocator.allocate(&AllocationCreateDesc {
                name: "predicates",
                requirements,
                location: MemoryLocation::GpuOnly,
                linear: true,
                allocation_scheme: AllocationScheme::GpuAllocatorManaged,
            });
            let allocation = match allocation {
                Ok(allocation) => allocation,
                Err(error) => {
                    // SAFETY: the buffer is unused and bound to nothing.
                    unsafe { self.gpu.device.destroy_buffer(buffer, None) };
                    return Err(Error::GpuBackend {
                        call,
                        object: "the predicate buffer".to_string(),
                        problem: format!("could not get memory: {error} (R-GPU-3)"),
                    });
                }
            };
            // SAFETY: the allocation satisfies the buffer's requirements; bound once.
            let bound = unsafe {
                self.gpu
                    .device
                    .bind_buffer_memory(buffer, allocation.memory(), allocation.offset())
            };
            self.predication.buffer = Some((buffer, allocation));
            bound.map_err(|r| self.vk_error(call, "vkBindBufferMemory", r))?;
        }
        if self.predication.used == WORDS {
            self.flush().map_err(|e| e.to_engine(call))?;
        }
        let offset = self.predication.used as u64 * 4;
        self.predication.used += 1;
        Ok(offset)
    }

    /// Records `record` (the draw, inside its pass) under the decision's condition.
    pub(crate) fn conditionally(
        &mut self,
        decision: Decision,
        record: impl FnOnce(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let Decision::Conditional { offset, inverted } = decision else {
            return record(self);
        };
        let (Some(loader), Some((buffer, _))) = (
            self.gpu.conditional_rendering.clone(),
            self.predication.buffer.as_ref(),
        ) else {
            return record(self);
        };
        let flags = if inverted {
            vk::ConditionalRenderingFlagsEXT::INVERTED
        } else {
            vk::ConditionalRenderingFlagsEXT::empty()
        };
        let info = vk::ConditionalRenderingBeginInfoEXT::default()
            .buffer(*buffer)
            .offset(offset)
            .flags(flags);
        // SAFETY: recording inside the draw's pass; no conditional rendering is active (each is
        // ended right after its draw); the word was written and made visible to the
        // conditional-rendering read by the barrier after its copy.
        unsafe { (loader.fp().cmd_begin_conditional_rendering_ext)(self.frame.cb, &info) };
        let recorded = record(self);
        // SAFETY: begun above in the same pass (the draw recorded opens or closes none).
        unsafe { (loader.fp().cmd_end_conditional_rendering_ext)(self.frame.cb) };
        recorded
    }
}
