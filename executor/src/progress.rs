//! How far the GPU has got, and what the CPU knows of it (R-EX-5, R-EX-6, R-EX-7): fences,
//! bottom-of-pipe memory writes, the last use of every resource, and the frame's waits on
//! present.
//!
//! **In:** from the GPU model, as it consumes commands: kick-offs (the end of each submission:
//! a batch of direct calls, a list execution, a present), fences passed, memory written, the
//! resources each draw, dispatch, copy or clear touched, waits on present. From the immediate
//! context: what the CPU has observed (a fence seen passed, a memory value read, a legacy map
//! that waited). **Out:** whether a fence is pending, whether a resource is still in use and
//! since which point, whether a back buffer was waited for this frame.
//!
//! **The model of time.** Work is consumed in order, in *segments*: everything submitted
//! between two kick-offs. A segment is numbered by its *position* (1, 2, …): that is the
//! driver's per-segment tracking fence, the value validation messages name. Deterministic mode
//! has no clock, so the model takes the GPU to be as slow as the rules allow: a segment is
//! *retired* (finished, its resources free for the CPU) only once the CPU has evidence of it:
//! a fence after it seen passed (`is_fence_pending` answering `false`), a bottom-of-pipe value
//! written after it read back, or a legacy map that waited for it. So a fast-semantics map of a
//! resource used since the last such evidence is a race, every time, not only when the timing
//! is unlucky: validation reports it deterministically (R-V-1).
//!
//! **Invariant.** `retired <= position`; a fence's position and a memory write's position are
//! those of the segment that contained them, the first time it ran.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use recorder::RawHandle;

/// A multiplicative hasher for keys that are already well mixed (handles, fence values).
#[derive(Default, Debug)]
pub(crate) struct HandleHasher(u64);

impl Hasher for HandleHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    // A handle hashes as two `u32`s: one step each, not four byte steps.
    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.write_u64(value as u64);
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<HandleHasher>>;

/// See the module essay.
#[derive(Debug)]
pub struct Progress {
    /// The segment being consumed.
    position: u64,
    /// Every segment at or before this one is finished, as far as the CPU knows.
    retired: u64,
    /// Fence value → the position of the segment that passed it (the first time).
    fences: FastMap<u64, u64>,
    /// (buffer, offset) → (value, position written), by `write_value_bottom_of_pipe`.
    memory: FastMap<(RawHandle, u64), (u64, u64)>,
    /// Resource → the position of the last segment that used it (uses the GPU model tracks:
    /// legacy semantics', and every use under validation).
    last_use: FastMap<RawHandle, u64>,
    /// Resource → the position of the last segment whose legacy-semantics work used it: what
    /// `is_resource_pending` reads (R-FX-6; fast work never makes a resource pending).
    legacy_use: FastMap<RawHandle, u64>,
    /// Buffer → the position of the last segment that read it as the arguments of an indirect
    /// draw or dispatch. Seed 000: "The DrawIndirect APIs also apply fast semantics
    /// synchronization requirements to the indirect arguments buffer": such a use updates no
    /// fence a legacy map waits on; validation still checks a fast map against it.
    indirect_use: FastMap<RawHandle, u64>,
    /// Swap chains whose current back buffer was waited for since the last present.
    waited: HashSet<RawHandle>,
}

impl Default for Progress {
    fn default() -> Self {
        Self {
            position: 1,
            retired: 0,
            fences: FastMap::default(),
            memory: FastMap::default(),
            last_use: FastMap::default(),
            legacy_use: FastMap::default(),
            indirect_use: FastMap::default(),
            waited: HashSet::new(),
        }
    }
}

impl Progress {
    /// The segment being consumed.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The last segment known finished.
    pub fn retired(&self) -> u64 {
        self.retired
    }

    /// Ends the current segment: what follows is the next one.
    pub fn kickoff(&mut self) {
        self.position += 1;
    }

    /// The CPU has evidence that every segment up to `position` finished.
    pub fn retire(&mut self, position: u64) {
        self.retired = self.retired.max(position.min(self.position));
    }

    /// The fence `value` reached the bottom of the pipe in the current segment.
    pub fn pass_fence(&mut self, value: u64) {
        self.fences.entry(value).or_insert(self.position);
    }

    /// The position of the segment that passed fence `value`, if one has.
    pub fn fence_position(&self, value: u64) -> Option<u64> {
        self.fences.get(&value).copied()
    }

    /// A bottom-of-pipe write of `value` at `offset` of `buffer` reached the GPU now.
    pub fn write_memory(&mut self, buffer: RawHandle, offset: u64, value: u64) {
        self.memory.insert((buffer, offset), (value, self.position));
    }

    /// The value last written at `offset` of `buffer` and the position of the segment that
    /// wrote it.
    pub fn memory(&self, buffer: RawHandle, offset: u64) -> Option<(u64, u64)> {
        self.memory.get(&(buffer, offset)).copied()
    }

    /// `resource` is used by the current segment, by legacy-semantics work when `legacy`.
    #[inline]
    pub fn use_resource(&mut self, resource: RawHandle, legacy: bool) {
        if !resource.is_null() {
            self.last_use.insert(resource, self.position);
            if legacy {
                self.legacy_use.insert(resource, self.position);
            }
        }
    }

    /// Whether legacy-semantics work of an unretired segment used `resource`
    /// (`ImmediateContext::is_resource_pending`, R-FX-6).
    pub fn legacy_pending(&self, resource: RawHandle) -> bool {
        self.legacy_use
            .get(&resource)
            .is_some_and(|&last| last > self.retired)
    }

    /// `buffer` is read as indirect arguments by the current segment (see `indirect_use`).
    #[inline]
    pub fn use_as_indirect_arguments(&mut self, buffer: RawHandle) {
        if !buffer.is_null() {
            self.indirect_use.insert(buffer, self.position);
        }
    }

    /// The position of the last unretired segment that used `resource`, if one did: what a
    /// legacy map waits for (R-EX-6). Uses as indirect arguments do not count.
    pub fn in_use(&self, resource: RawHandle) -> Option<u64> {
        self.last_use
            .get(&resource)
            .copied()
            .filter(|&last| last > self.retired)
    }

    /// [`in_use`](Self::in_use), uses as indirect arguments included: what validation checks a
    /// fast map against (R-V-1).
    pub fn in_use_by_any(&self, resource: RawHandle) -> Option<u64> {
        let indirect = self.indirect_use.get(&resource).copied();
        let last = self.last_use.get(&resource).copied().max(indirect);
        last.filter(|&last| last > self.retired)
    }

    /// A wait on present for `chain` reached the GPU: its current back buffer may be written.
    pub fn wait_on_present(&mut self, chain: RawHandle) {
        self.waited.insert(chain);
    }

    /// Whether a wait on present for `chain` reached the GPU this frame.
    pub fn waited_on_present(&self, chain: RawHandle) -> bool {
        self.waited.contains(&chain)
    }

    /// `chain` presented: the next back buffer needs its own wait.
    pub fn presented(&mut self, chain: RawHandle) {
        self.waited.remove(&chain);
    }
}
