//! Command lists (R-REC-7): immutable, `Send + Sync`, executable any number of times, owning the
//! chunks they were recorded into.
//!
//! A list's header lives in its own first chunk (as the payload of a `ListStart` pseudo-command),
//! so finishing a list allocates nothing. `CommandList` is a counted pointer to that header;
//! dropping the last one returns the chunks to the device's pool, after legacy lists have dropped
//! the references they took on every object they recorded (R-OBJ-4: one count per distinct
//! object, from the table of them the finish wrote after the last command, `ListReference`) and
//! nested lists their reference on the inner list (R-REC-9).
//!
//! **In:** a finished context's sealed chunk chain, its index of split points and nested lists,
//! its table of last instances and (legacy) its table of distinct objects with their counts. **Out:** the walks over them: [`Commands`] (every command,
//! decoded by `crate::command`), [`Segments`] (runs, split points and nested lists, for
//! execution), and the values that keep a list alive for a GPU model that runs later
//! ([`QueuedRun`], [`SplitPointQueue`]). Which objects a command names is the command module's
//! ([`Command::for_each_object`]); this file checks them (a fast list's, for validation) and
//! drops a legacy list's references through its table, never by decoding its commands.
//!
//! **Nesting of any depth** (R-REC-9): every walk over nested lists keeps its own stack. Dropping
//! chains the lists whose last reference went through their headers (`next_discarded`) and
//! discards them one after another; execution walks [`SegmentWalk`]s, each owning its list;
//! the checks before execution (`lifetime_check.rs`) keep a stack of command walks. None
//! of them recurses on the call stack, so 100,000 levels cost heap, not stack.

mod bundle_facts;
mod lifetime_check;
mod list_commands;
mod list_release;
mod segments;
mod split_point_queue;

pub(crate) use bundle_facts::{BundleFacts, TAIL_WORDS};
pub use list_commands::*;
pub(crate) use list_release::*;
pub use segments::*;
pub use split_point_queue::*;

use std::mem::ManuallyDrop;
use std::ptr::NonNull;

use crate::chunk::{ChunkHeader, DATA_START};
use crate::command::{next_offset, NestedList};
use crate::context::split::SplitCounts;
use crate::desc::Semantics;
use crate::device::handle::{ObjectKind, RawHandle, SwapChain};
use crate::device::DeviceShared;
use crate::sync::{Arc, AtomicUsize, Ordering};

/// What a list records from, at the start of its execution (R-ST-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartState {
    /// Legacy: the ClearState defaults.
    ClearState,
    /// Legacy after `finish_command_list(true)`: the recording context's previous state, which the
    /// list re-binds at its start.
    Carried,
    /// Fast: whatever the executing context has bound.
    Inherited,
}

/// Counters of one list (R-REC-4, R-SP-5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListStats {
    /// API calls recorded (the ones refused excluded).
    pub calls: u32,
    /// Encoded commands (a multi-slot bind that splits per slot counts each part).
    pub commands: u32,
    /// Bytes of commands, payloads and side records.
    pub bytes: u64,
    /// Chunks in the list's chain.
    pub chunks: u32,
    /// Draws and dispatches.
    pub draws: u32,
    /// Split points recorded, by category (R-SP-5).
    pub split_points: SplitCounts,
}

/// Where a list comes from: what its recording context was and saw.
pub(crate) struct ListOrigin {
    pub(crate) semantics: Semantics,
    pub(crate) start: StartState,
    pub(crate) recorder: u32,
    pub(crate) back_buffer: Option<(SwapChain, u32)>,
    /// Bytes of free chunks the pool may keep when this list returns its chunks (R-REC-4).
    pub(crate) pool_limit: usize,
    /// Recorded by a legacy context with `title_managed_lifetimes` (R-FX-6): no references.
    pub(crate) title_managed: bool,
    /// Holds a call that keeps the fast contract on any context (R-FX-1), or nests a list
    /// checked at every execution (`lifetime_check.rs`).
    pub(crate) unreferenced: bool,
}

/// A finished list's memory: its chain, and the index of its split points and nested lists.
pub(crate) struct ListMemory {
    pub(crate) first: *mut ChunkHeader,
    pub(crate) last: *mut ChunkHeader,
    pub(crate) index: *const IndexEntry,
    pub(crate) index_len: u32,
    /// A legacy list's last instances (R-ST-8), in its own memory.
    pub(crate) instances: *const LastInstance,
    pub(crate) instances_len: u32,
    /// A legacy list's references: each distinct object it recorded, with its count (R-OBJ-4).
    pub(crate) objects: *const ListReference,
    pub(crate) objects_len: u32,
}

/// One object a legacy list holds references on, and how many (one per command that names it,
/// R-OBJ-4): the list's table of them is written at finish (`refs.rs` publishes the counts), so
/// its drop gives back one count per distinct object, not one per command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct ListReference {
    pub(crate) handle: RawHandle,
    pub(crate) kind: ObjectKind,
    pub(crate) count: u32,
}

// The table follows a command header in the chunk: its entries must keep 8-byte alignment.
const _: () = assert!(std::mem::size_of::<ListReference>() == 16);

/// A dynamic resource's last instance in a legacy list (R-ST-8): the list's own last
/// write_discard map of it, or a nested legacy list's, whichever came later. After the list
/// executes, it is the executing context's current instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct LastInstance {
    /// The dynamic resource.
    pub resource: RawHandle,
    /// Its last instance in the list.
    pub instance: crate::command::InstanceId,
}

// The table follows a command header in the chunk: its entries must keep 8-byte alignment.
const _: () = assert!(std::mem::size_of::<LastInstance>().is_multiple_of(8));

/// The header at the start of a list's first chunk.
pub struct ListHeader {
    references: AtomicUsize,
    device: ManuallyDrop<Arc<DeviceShared>>,
    first_chunk: *mut ChunkHeader,
    last_chunk: *mut ChunkHeader,
    /// The split points and nested lists, in order, in the list's own memory (R-EX-2).
    index: *const IndexEntry,
    index_len: u32,
    instances: *const LastInstance,
    instances_len: u32,
    objects: *const ListReference,
    objects_len: u32,
    pub(crate) stats: ListStats,
    pub(crate) semantics: Semantics,
    pub(crate) start: StartState,
    pub(crate) recorder: u32,
    pub(crate) back_buffer: Option<(SwapChain, u32)>,
    pool_limit: usize,
    /// Recorded with `title_managed_lifetimes` (R-FX-6): the list holds no reference, so the
    /// fast rule of `first_released_object` applies to it.
    title_managed: bool,
    /// Holds a call that keeps the fast contract on any context (R-FX-1), or nests a list
    /// checked at every execution: see `lifetime_check.rs`.
    unreferenced: bool,
    /// The next list to discard once the last reference on this one went (see
    /// `discard_lists`); written only then, by the one thread that dropped it.
    next_discarded: *mut ListHeader,
    /// What a layer over the engine keeps with the list (the capture's record of the calls
    /// that made it, `trace::capture`): set once, by the list's only owner, right after
    /// `finish_command_list` ([`CommandList::attach`]); dropped with the list.
    attachment: Option<Attachment>,
    /// A registered bundle's shared part, when the list is a bundle's body registered by its
    /// recorder (`context/registered_bundle.rs`): written once, before any other thread
    /// reaches the header.
    bundle: BundleFacts,
    /// What a consumer derived from the list's commands, once, for every later use of it
    /// ([`CommandList::derived`]: the GPU model's pre-decoded bundle body); dropped with the
    /// list.
    derived: std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>,
}

/// What [`CommandList::attach`] keeps with a list: shared, typed by its owner.
pub type Attachment = std::sync::Arc<dyn std::any::Any + Send + Sync>;

/// What a nested list is ([`NestedList`], decoded by the command module as the address its
/// command encodes): the list whose header that is.
impl<'a> NestedList<'a> {
    /// The nested list's header.
    fn header_non_null(&self) -> NonNull<ListHeader> {
        self.header.cast()
    }

    /// The nested list itself (one more reference on it), to execute or inspect.
    pub fn to_list(&self) -> CommandList {
        // SAFETY: the outer list's reference keeps the header alive (see the type's doc).
        unsafe { self.header_non_null().as_ref() }
            .references
            .fetch_add(1, Ordering::Relaxed);
        CommandList {
            header: self.header_non_null(),
        }
    }

    /// The address of the nested list's header (compare with [`CommandList::header_ptr`]).
    pub fn header_ptr(&self) -> *const ListHeader {
        self.header_non_null().as_ptr()
    }

    /// The nested list's header, alive as long as the outer list is borrowed.
    fn header(&self) -> &'a ListHeader {
        // SAFETY: the outer list's reference keeps the header alive for 'a (see the type's
        // doc), and a finished list's header is never written while it is referenced.
        unsafe { self.header_non_null().as_ref() }
    }
}

/// A finished command list.
pub struct CommandList {
    header: NonNull<ListHeader>,
}

// SAFETY: after `finish_command_list` the header and the chunks are never written again, except
// the atomic reference count; the chunks are freed only when the last `CommandList` drops.
unsafe impl Send for CommandList {}
// SAFETY: through `&CommandList` the header and chunks are only read (they are immutable after
// `finish_command_list`), the reference count is changed atomically (`clone`), or the derived
// value is set once through its `OnceLock` (`derived`, synchronised by it), so shared access from
// several threads races on nothing.
unsafe impl Sync for CommandList {}

impl CommandList {
    /// Builds the list whose header was reserved at `header` in `first_chunk`.
    ///
    /// # Safety
    /// `header` must point to the reserved `ListStart` payload in `first_chunk`, the head of a
    /// sealed chain that the caller hands over.
    pub(crate) unsafe fn from_parts(
        header: *mut ListHeader,
        device: Arc<DeviceShared>,
        memory: ListMemory,
        stats: ListStats,
        origin: ListOrigin,
    ) -> Self {
        // SAFETY: the caller guarantees `header` is reserved, aligned memory we own.
        unsafe {
            header.write(ListHeader {
                references: AtomicUsize::new(1),
                device: ManuallyDrop::new(device),
                first_chunk: memory.first,
                last_chunk: memory.last,
                index: memory.index,
                index_len: memory.index_len,
                instances: memory.instances,
                instances_len: memory.instances_len,
                objects: memory.objects,
                objects_len: memory.objects_len,
                stats,
                semantics: origin.semantics,
                start: origin.start,
                recorder: origin.recorder,
                back_buffer: origin.back_buffer,
                pool_limit: origin.pool_limit,
                title_managed: origin.title_managed,
                unreferenced: origin.unreferenced,
                next_discarded: std::ptr::null_mut(),
                attachment: None,
                bundle: BundleFacts::none(),
                derived: std::sync::OnceLock::new(),
            });
            Self {
                header: NonNull::new_unchecked(header),
            }
        }
    }

    fn header(&self) -> &ListHeader {
        // SAFETY: the header lives as long as any `CommandList` pointing at it.
        unsafe { self.header.as_ref() }
    }

    /// The list's counters (R-REC-4, R-SP-5).
    pub fn stats(&self) -> &ListStats {
        &self.header().stats
    }

    /// The semantics of the context that recorded the list; its calls follow them (R-ST-2).
    pub fn semantics(&self) -> Semantics {
        self.header().semantics
    }

    /// Whether a legacy context created with
    /// [`title_managed_lifetimes`](crate::DeferredContextDesc::title_managed_lifetimes) recorded
    /// the list (R-FX-6): it holds no reference on what it names, as a fast list, and the
    /// executor checks before running it that nothing it names was released (a
    /// `released_object` error, never undefined behaviour).
    pub fn title_managed_lifetimes(&self) -> bool {
        self.header().title_managed
    }

    /// Keeps `attachment` with the list until its last clone drops: a layer over the engine
    /// (the capture, `trace::capture`) gives the list it finished the record of its calls
    /// this way. Only the list's sole owner, before any clone, nested execution or
    /// attachment, may attach; otherwise the attachment is handed back.
    pub fn attach(&mut self, attachment: Attachment) -> Result<(), Attachment> {
        let header = self.header();
        if header.references.load(Ordering::Acquire) != 1 || header.attachment.is_some() {
            return Err(attachment);
        }
        // SAFETY: this `CommandList` is the only reference on the header (the count is 1, and
        // `&mut self` keeps it so: a clone or a nested execution needs `&self` of this very
        // value, which the exclusive borrow excludes), so no other thread reads the header;
        // the field is read only through `&self` afterwards.
        unsafe { (*self.header.as_ptr()).attachment = Some(attachment) };
        Ok(())
    }

    /// What a consumer derives from the list's commands, built by `build` at the first call
    /// and kept with the list until its last clone drops: the list is immutable, so what
    /// follows from its commands alone stays true for its whole life, and a list's clones (a
    /// bundle's body called from many lists) share it. The GPU model keeps a bundle body's
    /// pre-decoded form here (R-B-10). `None` when the list already holds a derived value of
    /// another type (one consumer per list). The first call allocates; later calls read it
    /// (an acquire load).
    pub fn derived<T: std::any::Any + Send + Sync>(
        &self,
        build: impl FnOnce(&Self) -> T,
    ) -> Option<&T> {
        self.header()
            .derived
            .get_or_init(|| Box::new(build(self)))
            .downcast_ref()
    }

    /// What [`attach`](Self::attach) kept with the list, if anything.
    pub fn attachment(&self) -> Option<&Attachment> {
        self.header().attachment.as_ref()
    }

    /// What the list starts from when it executes (R-ST-1).
    pub fn start_state(&self) -> StartState {
        self.header().start
    }

    /// Serial of the recording context (the `recorder` of the list's dynamic instances).
    pub fn recorder(&self) -> u32 {
        self.header().recorder
    }

    /// The back buffer the list renders to, if any (R-EX-7: the list is bound to it).
    pub fn back_buffer_affinity(&self) -> Option<(SwapChain, u32)> {
        self.header().back_buffer
    }

    /// The device's shared state, which the list's header holds a reference on.
    pub(crate) fn device_shared(&self) -> &DeviceShared {
        &self.header().device
    }

    /// The device's shared state, to tell devices apart.
    pub(crate) fn device_ptr(&self) -> *const DeviceShared {
        &**self.header().device as *const DeviceShared
    }

    /// The serial of the device the list was recorded on (`Device::serial`), for messages.
    pub fn device_serial(&self) -> u64 {
        self.header().device.identity.serial()
    }

    /// Whether the list was recorded on a context of `device`.
    pub fn is_from(&self, device: &crate::Device) -> bool {
        std::ptr::eq(self.device_ptr(), &*device.shared)
    }

    /// The address execution and nesting refer to the list by.
    pub fn header_ptr(&self) -> *const ListHeader {
        self.header.as_ptr()
    }

    /// Every command in recording order (split points and nested lists included, as commands).
    pub fn commands(&self) -> Commands<'_> {
        Commands::new(self.header().first_chunk)
    }

    /// The list cut at its split points and nested lists: what execution walks, in
    /// O(split points + nested lists) steps whatever the list's length (R-EX-2). Runs of
    /// commands between them may span chunks (the GPU follows the chunk links, as a chained
    /// indirect buffer).
    pub fn segments(&self) -> Segments<'_> {
        let header = self.header();
        // SAFETY: the first record of the first chunk is the ListStart header, written by the
        // encoder into a chunk the list owns.
        let after_start = unsafe { next_offset(header.first_chunk as *const u8, DATA_START) };
        Segments {
            list: self.header,
            index: self.index().iter(),
            cursor: Some(Position {
                chunk: header.first_chunk,
                offset: after_start,
            }),
            pending: None,
            _list: std::marker::PhantomData,
        }
    }

    /// A legacy list's last instance of every dynamic resource it made an instance of current,
    /// by its own write_discard maps or through the legacy lists it executed (R-ST-8); empty
    /// for a fast list, whose maps the executing context forgets. O(resources mapped), not
    /// O(commands): the table was written at finish.
    pub fn last_instances(&self) -> &[LastInstance] {
        let header = self.header();
        if header.instances_len == 0 {
            return &[];
        }
        // SAFETY: `finish` wrote `instances_len` entries at `instances`, in the list's own
        // memory, which lives as long as the list.
        unsafe { std::slice::from_raw_parts(header.instances, header.instances_len as usize) }
    }

    /// The list's split points and nested lists, in recording order.
    fn index(&self) -> &[IndexEntry] {
        self.header().index()
    }

    /// The list's segments, walked by a value that keeps the list alive: execution keeps a
    /// stack of them to walk nested lists of any depth without recursion (R-REC-9).
    pub fn into_segment_walk(self) -> SegmentWalk {
        // SAFETY: the segments borrow the list's header, index and chunks, which live in the
        // chunks this reference keeps alive (not in `self`, which may move) until the walk
        // drops; `SegmentWalk::next` hands segments out only for a borrow of the walk.
        let segments =
            unsafe { std::mem::transmute::<Segments<'_>, Segments<'static>>(self.segments()) };
        SegmentWalk {
            segments,
            list: self,
        }
    }
}

impl ListHeader {
    /// Checked before every execution, with or without validation (`lifetime_check.rs`).
    fn checked_always(&self) -> bool {
        self.title_managed || self.unreferenced
    }

    /// A legacy list's distinct objects with their counts (empty for a fast list).
    fn objects(&self) -> &[ListReference] {
        if self.objects_len == 0 {
            return &[];
        }
        // SAFETY: `finish` wrote `objects_len` entries at `objects`, in the list's own memory,
        // which lives as long as the header.
        unsafe { std::slice::from_raw_parts(self.objects, self.objects_len as usize) }
    }

    /// The list's split points and nested lists, in recording order.
    fn index(&self) -> &[IndexEntry] {
        if self.index_len == 0 {
            return &[];
        }
        // SAFETY: `finish` wrote `index_len` entries at `index`, in the list's own memory,
        // which lives as long as the header.
        unsafe { std::slice::from_raw_parts(self.index, self.index_len as usize) }
    }
}

impl CommandList {
    /// Gives this reference up as the list's address; [`from_header`](Self::from_header) takes
    /// it back. The bundle table's entries hold their bundle's commands so.
    pub(crate) fn into_header(self) -> usize {
        let address = self.header.as_ptr() as usize;
        std::mem::forget(self);
        address
    }

    /// Takes back a reference given up by [`into_header`](Self::into_header).
    ///
    /// # Safety
    /// `address` came from `into_header`, and that reference has not been taken back yet.
    pub(crate) unsafe fn from_header(address: usize) -> Self {
        Self {
            // SAFETY: `address` came from `into_header` (the caller's contract), which gives the
            // address of a live list header, never 0.
            header: unsafe { NonNull::new_unchecked(address as *mut ListHeader) },
        }
    }

    /// One more reference on the list whose address a reference given up by
    /// [`into_header`](Self::into_header) keeps alive.
    ///
    /// # Safety
    /// That reference is still held (not taken back) for the whole call.
    pub(crate) unsafe fn share_header(address: usize) -> Self {
        // SAFETY: the caller still holds the reference `into_header` gave up, so the header at
        // `address` is alive; `ManuallyDrop` keeps this borrowed reference from being dropped,
        // and the clone takes one of its own.
        let list = ManuallyDrop::new(unsafe { Self::from_header(address) });
        (*list).clone()
    }
}

impl Clone for CommandList {
    fn clone(&self) -> Self {
        self.header().references.fetch_add(1, Ordering::Relaxed);
        Self {
            header: self.header,
        }
    }
}

impl Drop for CommandList {
    fn drop(&mut self) {
        if self.header().references.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        crate::sync::fence(Ordering::Acquire);
        // SAFETY: this was the last reference: nobody else reads the header or the chunks.
        unsafe { discard_lists(self.header.as_ptr()) };
    }
}

impl std::fmt::Debug for CommandList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandList")
            .field("semantics", &self.semantics())
            .field("start", &self.start_state())
            .field("stats", self.stats())
            .finish()
    }
}
