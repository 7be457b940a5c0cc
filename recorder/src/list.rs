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
//! validation ([`CommandList::first_released_object`]) keeps a stack of command walks. None
//! of them recurses on the call stack, so 100,000 levels cost heap, not stack.

use std::mem::ManuallyDrop;
use std::ptr::NonNull;

use crate::chunk::{ChunkHeader, ChunkView, SideKind, DATA_START};
use crate::command::{
    decode, next_offset, Command, Decoded, InstanceId, NestedList, Opcode, Site, SplitPoint,
};
use crate::desc::Semantics;
use crate::device::DeviceShared;
use crate::error::ObjectName;
use crate::handle::{ObjectKind, RawHandle, SwapChain};
use crate::split::SplitCounts;
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
    /// The next list to discard once the last reference on this one went (see
    /// `discard_lists`); written only then, by the one thread that dropped it.
    next_discarded: *mut ListHeader,
    /// What a layer over the engine keeps with the list (the capture's record of the calls
    /// that made it, `trace::capture`): set once, by the list's only owner, right after
    /// `finish_command_list` ([`CommandList::attach`]); dropped with the list.
    attachment: Option<Attachment>,
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
// `finish_command_list`) or the reference count is changed atomically (`clone`), so shared
// access from several threads races on nothing.
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
                next_discarded: std::ptr::null_mut(),
                attachment: None,
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

    /// The first object, in recording order, that the list may not name any more when it
    /// executes, nested lists' and called bundles' included: the validation mode's check
    /// before execution (R-OBJ-4, R-V-1). Each list is held to its own semantics' rule:
    ///
    /// - a **fast** list (and a bundle, which is fast) holds no reference on what it names: an
    ///   object the application released is an error, whether it was destroyed (its slot
    ///   perhaps reused) or something else still keeps it alive (a legacy binding or list); the
    ///   application must not release what a list still to execute names (R-OBJ-4);
    /// - a **legacy** list holds a reference on everything it recorded, so nothing it names can
    ///   be gone: only its nested lists and bundle calls are looked into; a legacy list recorded
    ///   with `title_managed_lifetimes` holds none and is held to the fast rule (R-FX-6).
    ///
    /// O(commands of the fast lists + nested lists and bundle calls of the legacy ones), each
    /// list once however often it is nested; no recursion, whatever the depth (R-REC-9).
    pub fn first_released_object(&self) -> Option<ObjectName> {
        let device = &**self.header().device;
        // No list nests itself (it is finished before it can be executed), so the root needs no
        // entry: a list without nested lists allocates no set.
        let mut seen = std::collections::HashSet::new();
        let mut walks = vec![Walk::of(self.header())];
        while let Some(walk) = walks.last_mut() {
            let fast = walk.fast;
            let Some(decoded) = walk.next() else {
                walks.pop();
                continue;
            };
            match decoded.command {
                Command::ExecuteCommandList { list, .. } if seen.insert(list.header_ptr()) => {
                    walks.push(Walk::of(list.header()))
                }
                // Checked already, where it was nested before.
                Command::ExecuteCommandList { .. } => {}
                Command::DrawBundle { bundle, .. } => {
                    // A fast list holds no reference on the bundle; a legacy one keeps it alive.
                    let body = device.bundle_body(bundle);
                    match body {
                        Some(body) if !fast || device.is_live(ObjectKind::Bundle, bundle) => {
                            if let Some(found) = body.commands.first_released_in_own_commands() {
                                return Some(found);
                            }
                        }
                        _ => return Some(device.object_name(ObjectKind::Bundle, bundle)),
                    }
                }
                command if fast => {
                    if let Some(found) = first_released(device, &command) {
                        return Some(found);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The fast rule of [`first_released_object`](Self::first_released_object) over this
    /// list's own commands, for a bundle's body (which calls no list and no bundle, R-B-8).
    fn first_released_in_own_commands(&self) -> Option<ObjectName> {
        let device = &**self.header().device;
        self.commands()
            .find_map(|decoded| first_released(device, &decoded.command))
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

/// The fast rule's test of one command: the first object it names that the application
/// released (destroyed or not).
fn first_released(device: &DeviceShared, command: &Command<'_>) -> Option<ObjectName> {
    let mut found = None;
    command.for_each_object(|kind, handle| {
        if found.is_none() && !device.is_live(kind, handle) {
            found = Some(device.object_name(kind, handle));
        }
    });
    found
}

/// One list in the validation walk: a fast list's every command, or a legacy list's nested
/// lists and bundle calls only (through its index, without walking its commands).
struct Walk<'a> {
    fast: bool,
    commands: Commands<'a>,
    index: std::slice::Iter<'a, IndexEntry>,
}

impl<'a> Walk<'a> {
    fn of(header: &'a ListHeader) -> Self {
        // A title-managed legacy list holds no reference either (R-FX-6): the fast rule.
        let fast = header.semantics == Semantics::Fast || header.title_managed;
        Walk {
            fast,
            commands: if fast {
                Commands::new(header.first_chunk)
            } else {
                Commands::empty()
            },
            index: if fast { &[][..] } else { header.index() }.iter(),
        }
    }

    fn next(&mut self) -> Option<Decoded<'a>> {
        if self.fast {
            return self.commands.next();
        }
        self.index
            .find(|entry| {
                entry.kind == SideKind::Nested as u32 || entry.kind == SideKind::Bundle as u32
            })
            .map(|entry| {
                // SAFETY: index entries point at commands of the list's sealed chunks, alive for 'a.
                unsafe { decode(entry.chunk as *const u8, entry.offset as usize) }.0
            })
    }
}

/// The segments of a list ([`CommandList::segments`]): runs of commands, split points and
/// nested lists, in order, found through the list's index without walking the commands between
/// them. Allocates nothing.
pub struct Segments<'a> {
    list: NonNull<ListHeader>,
    index: std::slice::Iter<'a, IndexEntry>,
    /// Where the next run of commands starts; `None` once the last run was yielded.
    cursor: Option<Position>,
    /// The split point or nested list that ends the run just yielded.
    pending: Option<&'a IndexEntry>,
    _list: std::marker::PhantomData<&'a CommandList>,
}

impl<'a> Segments<'a> {
    /// The split point or nested list an index entry points at, decoded.
    fn at(&self, entry: &IndexEntry) -> Segment<'a> {
        // SAFETY: index entries point at commands of this list's sealed chunks.
        let (mut decoded, _) = unsafe { decode(entry.chunk as *const u8, entry.offset as usize) };
        decoded.site = Some(Site {
            list: self.list.cast(),
        });
        match entry.kind == SideKind::Split as u32 {
            true => Segment::SplitPoint(decoded),
            false => Segment::Nested(decoded),
        }
    }
}

impl<'a> Iterator for Segments<'a> {
    type Item = Segment<'a>;

    fn next(&mut self) -> Option<Segment<'a>> {
        // The entry is kept, not the decoded command: a segment is about a hundred bytes.
        if let Some(pending) = self.pending.take() {
            return Some(self.at(pending));
        }
        let cursor = self.cursor?;
        let Some(entry) = self.index.next() else {
            // SAFETY: the list is alive for 'a; its last chunk is sealed.
            let header = unsafe { self.list.as_ref() };
            let end = Position {
                chunk: header.last_chunk,
                // SAFETY: `last_chunk` is a chunk of this list, alive for 'a with it and sealed,
                // so its header is initialised and no longer written.
                offset: unsafe { (*header.last_chunk).command_end } as usize,
            };
            self.cursor = None;
            return (!is_empty(cursor, end))
                .then(|| Segment::Commands(CommandRun::new(self.list, cursor, end)));
        };
        let at = Position {
            chunk: entry.chunk,
            offset: entry.offset as usize,
        };
        let after = Position {
            chunk: entry.chunk,
            // SAFETY: index entries point at commands of this list's sealed chunks.
            offset: unsafe { next_offset(entry.chunk as *const u8, at.offset) },
        };
        self.cursor = Some(after);
        if entry.kind == SideKind::KickOff as u32 {
            // A kicked-off fence (R-FX-6) is the last command of its run.
            return Some(Segment::Commands(CommandRun::new(self.list, cursor, after)));
        }
        if is_empty(cursor, at) {
            return Some(self.at(entry));
        }
        self.pending = Some(entry);
        Some(Segment::Commands(CommandRun::new(self.list, cursor, at)))
    }
}

/// The segments of a list that this value keeps alive ([`CommandList::into_segment_walk`]):
/// what [`Segments`] yields, with no borrow to tie it to a stack frame.
pub struct SegmentWalk {
    /// Borrows `list`'s memory, for as long as the walk lives (never handed out as `'static`).
    segments: Segments<'static>,
    list: CommandList,
}

// SAFETY: the segments point into chunks of `list`, which the walk keeps alive and which nobody
// writes any more (a finished list is immutable and `Send + Sync`).
unsafe impl Send for SegmentWalk {}
// SAFETY: shared access reads nothing: `next` needs `&mut self`, `list` is `Sync`.
unsafe impl Sync for SegmentWalk {}

impl SegmentWalk {
    /// The list walked.
    pub fn list(&self) -> &CommandList {
        &self.list
    }

    /// The next segment, borrowed from the walk (see [`Segments`]).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Segment<'_>> {
        self.segments.next()
    }
}

impl std::fmt::Debug for SegmentWalk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SegmentWalk")
            .field("list", &self.list)
            .finish_non_exhaustive()
    }
}

/// A place in a list: a chunk and an offset in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) chunk: *mut ChunkHeader,
    pub(crate) offset: usize,
}

/// Whether no command lies between `from` and `to` (same chain, `from` not after `to`).
fn is_empty(mut from: Position, to: Position) -> bool {
    // SAFETY: both positions are in the same sealed chain, `from` first.
    unsafe {
        while from.chunk != to.chunk && from.offset >= (*from.chunk).command_end as usize {
            from = Position {
                chunk: (*from.chunk).next,
                offset: DATA_START,
            };
        }
    }
    from.chunk == to.chunk && from.offset >= to.offset
}

/// One split point or nested list of a list, as its index holds it.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct IndexEntry {
    chunk: *mut ChunkHeader,
    offset: u32,
    kind: u32,
}

const _: () = assert!(std::mem::size_of::<IndexEntry>() == 16);

/// Writes the index of a sealed chain's side records into `entries` (room for all of them).
///
/// # Safety
/// `first` must head a sealed chain whose side records number `entries.len()` at most.
pub(crate) unsafe fn write_index(
    first: *mut ChunkHeader,
    entries: &mut [std::mem::MaybeUninit<IndexEntry>],
) -> usize {
    let mut written = 0;
    let mut chunk = first;
    while !chunk.is_null() {
        // SAFETY: `chunk` is a non-null chunk of the chain the caller guarantees sealed, and
        // the chain is not freed during this call.
        let view = unsafe { ChunkView::new(chunk) };
        for (kind, offset) in view.side_records() {
            if let Some(slot) = entries.get_mut(written) {
                slot.write(IndexEntry {
                    chunk,
                    offset,
                    kind: kind as u32,
                });
                written += 1;
            }
        }
        // SAFETY: `chunk` is non-null (loop condition) and a chunk of the sealed chain, whose
        // headers are initialised and no longer written.
        chunk = unsafe { (*chunk).next };
    }
    written
}

/// A piece of a list as execution sees it.
#[derive(Clone, Copy, Debug)]
pub enum Segment<'a> {
    /// A run of commands, handed to the GPU by reference.
    Commands(CommandRun<'a>),
    /// A split point to resolve against the immediate context (R-SP-4).
    SplitPoint(Decoded<'a>),
    /// A nested list to execute (R-REC-9).
    Nested(Decoded<'a>),
}

/// A run of whole commands of a list, from one place to another (across chunks, following
/// their links): only a list makes one, so it always lies in live, sealed chunks.
#[derive(Clone, Copy, Debug)]
pub struct CommandRun<'a> {
    list: NonNull<ListHeader>,
    start: Position,
    stop: Position,
    _list: std::marker::PhantomData<&'a CommandList>,
}

impl CommandRun<'_> {
    fn new(list: NonNull<ListHeader>, start: Position, stop: Position) -> Self {
        Self {
            list,
            start,
            stop,
            _list: std::marker::PhantomData,
        }
    }

    /// The run, keeping its list alive: for a GPU model that runs later or on another thread
    /// (R-EX-3). One reference count, no copy of the commands.
    pub fn to_queued(&self) -> QueuedRun {
        QueuedRun::new(self.list, self.start, self.stop)
    }

    /// The run's commands, decoded one at a time.
    pub fn commands(&self) -> Commands<'_> {
        Commands::run(self.start, self.stop)
    }
}

/// A run of commands that keeps its list alive (see [`CommandRun::to_queued`]).
pub struct QueuedRun {
    list: CommandList,
    start: Position,
    stop: Position,
}

// SAFETY: the run points into chunks of `list`, which it keeps alive and which nobody writes
// any more (a finished list is immutable and `Send + Sync`).
unsafe impl Send for QueuedRun {}
// SAFETY: a shared `QueuedRun` only reads its positions and the immutable chunks they point
// into; its reference on the list changes only in `Drop`, which needs ownership.
unsafe impl Sync for QueuedRun {}

impl QueuedRun {
    pub(crate) fn new(list: NonNull<ListHeader>, start: Position, stop: Position) -> Self {
        // SAFETY: `list` is the header of a live list the caller borrows; one more reference.
        unsafe { list.as_ref() }
            .references
            .fetch_add(1, Ordering::Relaxed);
        Self {
            list: CommandList { header: list },
            start,
            stop,
        }
    }

    /// The list the run belongs to.
    pub fn list(&self) -> &CommandList {
        &self.list
    }

    /// The run's commands, decoded one at a time.
    pub fn commands(&self) -> Commands<'_> {
        Commands::run(self.start, self.stop)
    }
}

impl std::fmt::Debug for QueuedRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueuedRun")
            .field("start", &self.start)
            .field("stop", &self.stop)
            .finish()
    }
}

impl Segment<'_> {
    /// The commands of a `Commands` segment (none for the others).
    pub fn commands(&self) -> Commands<'_> {
        match self {
            Segment::Commands(run) => run.commands(),
            _ => Commands::empty(),
        }
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

/// Drops what a chain of recorded chunks of an unfinished list holds and returns the chunks to
/// the pool: the references on nested lists; a nested list whose last reference that was is
/// discarded too, and so on down, without recursion (R-REC-9). (A legacy recording's references
/// on objects are still its recorder's, which drops them itself: `refs.rs`.)
///
/// # Safety
/// `first` must head a sealed chain recorded by a context of `device`, referenced nowhere else.
pub(crate) unsafe fn discard_chain(
    first: *mut ChunkHeader,
    pool_limit: usize,
    device: &DeviceShared,
) {
    let mut orphans = std::ptr::null_mut();
    // SAFETY: `first` heads a sealed chain recorded on `device` and referenced nowhere else
    // (this function's contract), which is what `release_chain` needs.
    unsafe { release_chain(first, &[], device, &mut orphans) };
    // SAFETY: the caller hands over the chain (referenced nowhere else), `release_chain` is done
    // with it, and its chunks came from this device's pool.
    unsafe { device.pool.give_back(first, pool_limit) };
    if !orphans.is_null() {
        // SAFETY: `release_chain` chained there the lists whose last reference it dropped.
        unsafe { discard_lists(orphans) };
    }
}

/// Discards the list `first` and the lists chained after it through `next_discarded`, and
/// every nested list whose last reference one of them held, one after another: a stack threaded
/// through the headers, so that no depth of nesting recurses and nothing allocates (R-REC-9).
///
/// # Safety
/// `first` heads a chain of list headers whose last references went (nobody reads them any
/// more); the last header's `next_discarded` is null.
unsafe fn discard_lists(first: *mut ListHeader) {
    let mut pending = first;
    while !pending.is_null() {
        let header = pending;
        // SAFETY: `header` is on the chain: its last reference went, it is ours (caller, and
        // `release_chain` for the headers it chains). Everything is read out of the header
        // before its chunk (which holds it) goes back to the pool.
        unsafe {
            pending = (*header).next_discarded;
            let device = ManuallyDrop::take(&mut (*header).device);
            drop((*header).attachment.take());
            let first_chunk = (*header).first_chunk;
            let pool_limit = (*header).pool_limit;
            // The table lies in the chain's chunks, which go back to the pool only below.
            let objects = (*header).objects();
            release_chain(first_chunk, objects, &device, &mut pending);
            device.pool.give_back(first_chunk, pool_limit);
        }
    }
}

/// Drops what a sealed chain holds: a finished legacy list's references on objects (`objects`,
/// its table: one count per distinct object), and the references on nested lists, found
/// through the side records; a nested list whose last reference that was is pushed on
/// `orphans` (through its `next_discarded`) for the caller to discard. O(distinct objects +
/// nested lists + chunks), whatever the number of commands.
///
/// # Safety
/// `first` must head a sealed chain recorded by a context of `device`, referenced nowhere else;
/// `objects` are references the chain's list holds; `orphans` is null or heads a chain as
/// [`discard_lists`] takes it.
unsafe fn release_chain(
    first: *mut ChunkHeader,
    objects: &[ListReference],
    device: &DeviceShared,
    orphans: &mut *mut ListHeader,
) {
    for object in objects {
        device.release_many(object.kind, object.handle, object.count);
    }
    let mut chunk = first;
    while !chunk.is_null() {
        // SAFETY: `chunk` is a non-null chunk of the sealed chain this function was handed,
        // freed only after this walk.
        let view = unsafe { ChunkView::new(chunk) };
        for (kind, offset) in view.side_records() {
            if kind != SideKind::Nested {
                continue;
            }
            // SAFETY: side records point at commands of this sealed chunk.
            let decoded = unsafe { decode(view.base, offset as usize) }.0;
            if let Command::ExecuteCommandList { list, .. } = decoded.command {
                // Recording a nested list took one reference on it, owned by this chain.
                let header = list.header_non_null().as_ptr();
                // SAFETY: that reference keeps the header alive until this decrement.
                if unsafe { &*header }
                    .references
                    .fetch_sub(1, Ordering::Release)
                    == 1
                {
                    crate::sync::fence(Ordering::Acquire);
                    // SAFETY: that was the last reference: the header is ours to chain.
                    unsafe { (*header).next_discarded = *orphans };
                    *orphans = header;
                }
            }
        }
        // SAFETY: `chunk` is non-null (loop condition) and a chunk of the sealed chain this
        // function owns, whose headers are initialised.
        chunk = unsafe { (*chunk).next };
    }
}

/// Iterates the commands of a chain of chunks in recording order, up to a stop.
pub struct Commands<'a> {
    /// The chunk being read (null: nothing more).
    chunk: *mut ChunkHeader,
    base: *const u8,
    offset: usize,
    /// Where reading stops in the current chunk.
    end: usize,
    /// Where the walk ends; a null chunk: at the end of the chain.
    stop: Position,
    _list: std::marker::PhantomData<&'a CommandList>,
}

impl Commands<'_> {
    /// Walks a chain the caller keeps alive and sealed (see `ChunkWriter::seal_in_place`).
    pub(crate) fn over(first: *mut ChunkHeader) -> Self {
        Self::new(first)
    }

    fn new(first: *mut ChunkHeader) -> Self {
        let stop = Position {
            chunk: std::ptr::null_mut(),
            offset: 0,
        };
        let mut commands = Self::at(first, DATA_START, stop);
        if first.is_null() {
            commands.end = 0;
        }
        commands
    }

    fn empty() -> Self {
        let nowhere = Position {
            chunk: std::ptr::null_mut(),
            offset: 0,
        };
        Self {
            chunk: std::ptr::null_mut(),
            base: std::ptr::null(),
            offset: 0,
            end: 0,
            stop: nowhere,
            _list: std::marker::PhantomData,
        }
    }

    fn run(start: Position, stop: Position) -> Self {
        Self::at(start.chunk, start.offset, stop)
    }

    fn at(chunk: *mut ChunkHeader, offset: usize, stop: Position) -> Self {
        let mut commands = Self::empty();
        commands.stop = stop;
        commands.enter(chunk, offset);
        commands
    }

    fn enter(&mut self, chunk: *mut ChunkHeader, offset: usize) {
        self.chunk = chunk;
        if chunk.is_null() {
            self.base = std::ptr::null();
            self.offset = 0;
            self.end = 0;
        } else {
            // SAFETY: chains handed to `Commands` are sealed and outlive the iterator.
            let view = unsafe { ChunkView::new(chunk) };
            self.base = view.base;
            self.offset = offset;
            self.end = if chunk == self.stop.chunk {
                self.stop.offset
            } else {
                view.command_end
            };
        }
    }
}

impl<'a> Iterator for Commands<'a> {
    type Item = Decoded<'a>;

    #[inline]
    fn next(&mut self) -> Option<Decoded<'a>> {
        loop {
            if self.offset < self.end {
                // SAFETY: `offset` is the start of a command (or of the list's header or index,
                // which have the same 8-byte header) below the sealed command end.
                let opcode = unsafe { *self.base.add(self.offset) };
                if opcode == Opcode::ListStart as u8 || opcode == Opcode::ListIndex as u8 {
                    // Not a command: stepped over, never decoded.
                    // SAFETY: as above, a header the encoder wrote in a chunk alive for 'a.
                    self.offset = unsafe { next_offset(self.base, self.offset) };
                    continue;
                }
                // SAFETY: `offset` is the start of a command the encoder wrote below the sealed
                // command end of a chunk that stays alive and unchanged for 'a.
                let (decoded, next) = unsafe { decode(self.base, self.offset) };
                self.offset = next;
                return Some(decoded);
            }
            if self.chunk.is_null() || self.chunk == self.stop.chunk {
                return None;
            }
            // SAFETY: `chunk` is non-null (checked above) and a chunk of the list this iterator
            // borrows, sealed and alive for the borrow, so its header is initialised.
            let next = unsafe { (*self.chunk).next };
            self.enter(next, DATA_START);
        }
    }
}

/// Split points queued for a GPU model that runs later or on another thread (R-EX-3): each
/// decoded once, with the instance its dynamic binding reads, and stored as its typed command,
/// with one reference per run of split points from the same list instead of one per split point
/// (a split point is about 90 bytes; the queue takes 1,000 of them per execution of a list of
/// 1,000 dynamic binds). Cleared, not freed, between frames.
#[derive(Default)]
pub struct SplitPointQueue {
    /// Borrow the chunks of lists in `lists`, for as long as they are queued (never handed out
    /// as `'static`).
    points: Vec<SplitPoint<'static>>,
    /// The lists the split points come from, each once per run of its split points.
    lists: Vec<CommandList>,
}

// SAFETY: the split points point into chunks of the lists the queue keeps alive, which nobody
// writes any more (a finished list is immutable and `Send + Sync`).
unsafe impl Send for SplitPointQueue {}
// SAFETY: shared access only reads the split points and the immutable chunks they point into.
unsafe impl Sync for SplitPointQueue {}

impl SplitPointQueue {
    /// Queues the split point `decoded` is, its waiting binding reading what `instance` gives
    /// for the resource it names (the executing context's current instance, R-SP-4, R-ST-8);
    /// keeps its list alive. Nothing happens unless `decoded` is a split point that came from
    /// [`CommandList::segments`]. No second decode, no copy of the list.
    pub fn push(
        &mut self,
        decoded: Decoded<'_>,
        instance: impl FnOnce(RawHandle) -> InstanceId,
    ) -> bool {
        let (Some(site), Some(mut split)) = (decoded.site, SplitPoint::new(decoded)) else {
            return false;
        };
        if let Some(resource) = split.dynamic_resource() {
            split.set_instance(instance(resource));
        }
        let header = site.list.cast::<ListHeader>();
        if self.lists.last().is_none_or(|list| list.header != header) {
            // SAFETY: `header` is the header of the live list the segments borrow; one more
            // reference, which `lists` holds.
            unsafe { header.as_ref() }
                .references
                .fetch_add(1, Ordering::Relaxed);
            self.lists.push(CommandList { header });
        }
        // SAFETY: only the lifetime changes: the split point borrows the chunks of the list whose
        // reference `lists` now holds, alive until `clear`, and `iter` lends split points out
        // only for a borrow of the queue.
        self.points
            .push(unsafe { std::mem::transmute::<SplitPoint<'_>, SplitPoint<'static>>(split) });
        true
    }

    /// The split points queued, in order.
    pub fn iter(&self) -> impl Iterator<Item = &SplitPoint<'_>> {
        self.points.iter()
    }

    /// How many are queued.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Drops the split points and then the lists' references, keeping the capacity.
    pub fn clear(&mut self) {
        self.points.clear();
        self.lists.clear();
    }
}

impl std::fmt::Debug for SplitPointQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SplitPointQueue")
            .field("points", &self.points)
            .finish_non_exhaustive()
    }
}
