//! What a tap keeps of its calls, in the order they were made: [`KeptCalls`], the frequent
//! calls packed as 12-byte [`Word`]s, every other entry in full, and the capture's clock as runs.
//!
//! **Why.** A kept call was a 72-byte record built on the stack, its one-slot list bumped into
//! the arena, the record copied into the entries (80 bytes) and its tick into another vector,
//! the tick taken with an atomic add: about 110 instructions and 88 bytes a call, where the
//! wrapped fast list spends 30 to 40 instructions. The draws and one-slot binds then kept their
//! arguments as they came (a [`Hot`], 28 bytes, no list), and the call is built from them only
//! when the frame is written ([`KeptCalls::decode`]).
//!
//! **Fewer bytes a call.** At 100,000 draws a list's 28-byte `Hot`s were 8.4 MB beside the
//! list's own 5.7 MB, and a kept call cost 2.2 to 2.7 times an idle one in wall time for 1.4 to
//! 1.6 times its instructions: the rest was memory traffic. A `Hot` is now stored as one
//! 12-byte [`Word`] (a kind, three bytes, two words), or two for the calls of four or five
//! arguments (a [`Kind::Tail`] after the head): a draw, a one-slot bind of a constant buffer,
//! a view, a sampler or a shader in one word; a vertex buffer in one, its stride and offset kept
//! in a register ([`Kind::VertexLayout`], a word only when they change: a list that draws
//! with one layout writes it once). The render workload's draw (a constant buffer, a vertex
//! buffer, a draw) keeps 36 bytes instead of 84. A call whose arguments do not fit (a slot past
//! 255, a start instance past 2^24) is kept in full, as the wrapper built it before. The
//! wrappers pack the one-word forms themselves ([`Word::draw`], [`Word::bind`] ..) and hand the
//! tap a word to push (two registers, no match on the call's kind out of their line).
//!
//! **The clock as runs** (`Tap::tick`). The trace orders every context's calls by the capture's
//! clock (`frame_timeline.rs`); the calls of one context that no one ticked between may share a
//! tick: the writer's sort is stable and each context's entries go in their order, so they come
//! out exactly as if each had ticked, with nothing of another context between them (had one
//! ticked, the clock would have moved). A call that happened after another on another thread
//! reads the clock after that call's tick (its atomic add happened before) and so takes a tick
//! of its own if it is not past it already. A tap reads the clock (a plain load) per call and
//! adds to it only when it moved; the ticks are kept as runs (`runs`: the word where each
//! starts, always an entry's first word).
//!
//! **In:** kept entries, each with its tick. **Out:** the entries and their ticks, as they were
//! before (an [`Entries`] and a tick per entry), at write time.
//!
//! **Invariant.** `full` holds one entry for each [`Kind::Full`] of `order`, in order; every
//! head of two words is followed by its [`Kind::Tail`]; `layout` is the stride and offset of the
//! last [`Kind::VertexLayout`] of `order` (zeros before the first); `runs` is sorted by start,
//! its first run starting at 0 when `order` is not empty.

use recorder::{Handle, ObjectKind, RawHandle, Stage};

use super::entries::Entries;
use super::form::{Call, Entry, Obj};
use crate::syntax::ast::{Method, VertexBinding};

/// A kept call in the form it came in, for the calls a list makes most (draws, one-slot binds):
/// what the wrappers hand to [`KeptCalls::push_hot`] where they do not pack the call into its
/// [`Word`] themselves (two words, or arguments that do not fit), and what a word decodes to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Hot {
    Draw {
        vertex_count: u32,
        start_vertex: u32,
    },
    DrawIndexed {
        index_count: u32,
        start_index: u32,
        base_vertex: i32,
    },
    DrawInstanced {
        vertex_count: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    },
    DrawIndexedInstanced {
        index_count: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    },
    Shader {
        stage: Stage,
        shader: Option<recorder::Shader>,
    },
    /// `set_constant_buffers` of one slot.
    ConstantBuffer {
        stage: Stage,
        start: u32,
        buffer: Option<recorder::Buffer>,
    },
    /// `set_vertex_buffers` of one slot.
    VertexBuffer {
        start: u32,
        buffer: recorder::VertexBuffer,
    },
    /// `set_shader_resources` of one slot.
    ShaderResource {
        stage: Stage,
        start: u32,
        view: Option<recorder::ShaderResourceView>,
    },
    /// `set_samplers` of one slot.
    Sampler {
        stage: Stage,
        start: u32,
        sampler: Option<recorder::SamplerState>,
    },
}

/// What a [`Word`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Kind {
    /// The next entry of [`KeptCalls`]' full ones.
    Full,
    /// The two words after a head's (`a`, `b`).
    Tail,
    /// `a`: vertex count, `b`: start vertex.
    Draw,
    /// `a`: index count, `b`: start index, `x`: the base vertex (24 bits, signed).
    DrawIndexed,
    /// `a`: index count, `b`: start index; the tail's `a`: the base vertex.
    DrawIndexedWide,
    /// `a`: vertex count, `b`: instance count; the tail: start vertex, start instance.
    DrawInstanced,
    /// `a`: index count, `b`: instance count, `x`: the start instance (24 bits); the tail:
    /// start index, base vertex.
    DrawIndexedInstanced,
    /// `x`: stage, whether bound; `a`, `b`: the handle.
    Shader,
    /// `x`: stage, slot, whether bound; `a`, `b`: the handle.
    ConstantBuffer,
    ShaderResource,
    Sampler,
    /// `x`: slot, whether bound; `a`, `b`: the handle; stride and offset: the layout's.
    VertexBuffer,
    /// Not an entry: the vertex buffers after it have stride `a` and offset `b`.
    VertexLayout,
}

impl Kind {
    /// Every kind, in the order of their discriminants (`from_u8` indexes it).
    const ALL: [Kind; 13] = [
        Kind::Full,
        Kind::Tail,
        Kind::Draw,
        Kind::DrawIndexed,
        Kind::DrawIndexedWide,
        Kind::DrawInstanced,
        Kind::DrawIndexedInstanced,
        Kind::Shader,
        Kind::ConstantBuffer,
        Kind::ShaderResource,
        Kind::Sampler,
        Kind::VertexBuffer,
        Kind::VertexLayout,
    ];

    fn from_u8(kind: u8) -> Option<Kind> {
        Self::ALL.get(usize::from(kind)).copied()
    }
}

/// A kept call packed (see [`Kind`] for what each field holds): `head` is the kind in its low
/// byte and three bytes above it (`x`), stored as one word (not four byte stores).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct Word {
    head: u32,
    a: u32,
    b: u32,
}

const _: () = assert!(std::mem::size_of::<Word>() == 12);
const _: () = assert!(Kind::ALL.len() == Kind::VertexLayout as usize + 1);

/// The largest 24-bit values a word's `x` holds.
const U24_MAX: u32 = (1 << 24) - 1;
const I24_MIN: i32 = -(1 << 23);
const I24_MAX: i32 = (1 << 23) - 1;

/// Whether bound, in an object's word (`x`'s top byte).
const BOUND: u32 = 1 << 16;

impl Word {
    /// A word of `kind` whose `x` holds the 24 low bits of `x`.
    #[inline(always)]
    fn new(kind: Kind, x: u32, a: u32, b: u32) -> Self {
        Self {
            head: kind as u32 | x << 8,
            a,
            b,
        }
    }

    /// A word of `kind` for an object: `x` holds `tag` (stage and slot, or a slot) and whether
    /// bound.
    #[inline(always)]
    fn object(kind: Kind, tag: u32, handle: Option<RawHandle>) -> Self {
        let (bound, bits) = match handle {
            Some(handle) => (BOUND, handle.to_bits()),
            None => (0, 0),
        };
        Self::new(kind, tag | bound, bits as u32, (bits >> 32) as u32)
    }

    #[inline(always)]
    fn tail(a: u32, b: u32) -> Self {
        Self::new(Kind::Tail, 0, a, b)
    }

    /// `draw`.
    #[inline(always)]
    pub(crate) fn draw(vertex_count: u32, start_vertex: u32) -> Self {
        Self::new(Kind::Draw, 0, vertex_count, start_vertex)
    }

    /// `draw_indexed`, when its base vertex fits 24 bits.
    #[inline(always)]
    pub(crate) fn draw_indexed(
        index_count: u32,
        start_index: u32,
        base_vertex: i32,
    ) -> Option<Self> {
        (I24_MIN..=I24_MAX).contains(&base_vertex).then(|| {
            Self::new(
                Kind::DrawIndexed,
                base_vertex as u32,
                index_count,
                start_index,
            )
        })
    }

    /// `set_shader`.
    #[inline(always)]
    pub(crate) fn shader(stage: Stage, shader: Option<recorder::Shader>) -> Self {
        Self::object(Kind::Shader, stage as u32, shader.map(|s| s.raw()))
    }

    /// A one-slot bind of `H` (a constant buffer, a shader-resource view, a sampler), when its
    /// slot fits a byte.
    #[inline(always)]
    pub(crate) fn bind<H: Handle>(stage: Stage, start: u32, object: Option<H>) -> Option<Self> {
        let kind = match H::KIND {
            ObjectKind::Buffer => Kind::ConstantBuffer,
            ObjectKind::ShaderResourceView => Kind::ShaderResource,
            _ => Kind::Sampler,
        };
        (start <= 0xff).then(|| Self::object(kind, stage as u32 | start << 8, object.map(H::raw)))
    }

    /// A one-slot `set_vertex_buffers` without its stride and offset (the layout's), when its
    /// slot fits a byte.
    #[inline(always)]
    pub(crate) fn vertex_buffer(start: u32, buffer: Option<recorder::Buffer>) -> Option<Self> {
        (start <= 0xff).then(|| Self::object(Kind::VertexBuffer, start, buffer.map(|b| b.raw())))
    }

    fn kind(self) -> Option<Kind> {
        Kind::from_u8(self.head as u8)
    }

    /// `x`, unsigned.
    fn u24(self) -> u32 {
        self.head >> 8
    }

    /// `x`, signed: its sign from its top bit.
    fn i24(self) -> i32 {
        self.head as i32 >> 8
    }

    /// The byte `i` of `x`.
    fn byte(self, i: u32) -> u8 {
        (self.head >> (8 + 8 * i)) as u8
    }

    fn stage(self) -> Option<Stage> {
        Stage::ALL.get(usize::from(self.byte(0))).copied()
    }

    /// The object of an object's word (`object`), typed as `H`.
    fn handle<H: Handle>(self) -> Option<H> {
        let bits = u64::from(self.b) << 32 | u64::from(self.a);
        (self.u24() & BOUND != 0).then(|| H::from_raw(RawHandle::from_bits(bits)))
    }
}

impl Hot {
    /// The call as the wrapper kept it before (`captured_binds.rs`, `captured_draws.rs`), its
    /// list one of its own.
    fn call(self) -> Call {
        let obj = |kind, h: Option<RawHandle>| h.map(|h| Obj::Engine(kind, h));
        match self {
            Hot::Draw {
                vertex_count,
                start_vertex,
            } => Method::Draw {
                vertex_count,
                start_vertex,
            },
            Hot::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            } => Method::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            },
            Hot::DrawInstanced {
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
            } => Method::DrawInstanced {
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
            },
            Hot::DrawIndexedInstanced {
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            } => Method::DrawIndexedInstanced {
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            },
            Hot::Shader { stage, shader } => Method::SetShader {
                stage,
                shader: obj(ObjectKind::Shader, shader.map(|s| s.raw())),
            },
            Hot::ConstantBuffer {
                stage,
                start,
                buffer,
            } => Method::SetConstantBuffers {
                stage,
                start,
                buffers: vec![obj(ObjectKind::Buffer, buffer.map(|b| b.raw()))].into(),
            },
            Hot::VertexBuffer { start, buffer } => Method::SetVertexBuffers {
                start,
                // `captured_args::vertex_binding`, written out: that module imports `log.rs`,
                // which imports this one.
                buffers: vec![VertexBinding {
                    buffer: obj(ObjectKind::Buffer, buffer.buffer.map(|b| b.raw())),
                    stride: buffer.stride,
                    offset: buffer.offset,
                }]
                .into(),
            },
            Hot::ShaderResource { stage, start, view } => Method::SetShaderResources {
                stage,
                start,
                views: vec![obj(ObjectKind::ShaderResourceView, view.map(|v| v.raw()))].into(),
            },
            Hot::Sampler {
                stage,
                start,
                sampler,
            } => Method::SetSamplers {
                stage,
                start,
                samplers: vec![obj(ObjectKind::SamplerState, sampler.map(|s| s.raw()))].into(),
            },
        }
    }
}

/// A tap's kept entries (see the module essay).
#[derive(Debug, Default)]
pub(crate) struct KeptCalls {
    /// Each kept entry, in order: a call packed, or [`Kind::Full`].
    order: Vec<Word>,
    /// The entries of `order`'s [`Kind::Full`]s.
    full: Entries,
    /// Each run of entries that share a tick: the word where it starts in `order`, and the tick.
    runs: Vec<(usize, u64)>,
    /// The stride and offset of the vertex buffers kept next (the last [`Kind::VertexLayout`]).
    layout: (u32, u32),
}

/// What [`KeptCalls::decode`] reads from one entry's words.
enum Unpacked {
    Hot(Hot),
    Full,
    /// A new vertex layout, no entry.
    Layout,
}

impl KeptCalls {
    /// Empty, with room for what `like` holds.
    pub(crate) fn with_capacity_of(like: &KeptCalls) -> Self {
        Self {
            order: Vec::with_capacity(like.order.capacity()),
            full: Entries::with_capacity(like.full.capacity()),
            runs: Vec::with_capacity(like.runs.capacity()),
            layout: (0, 0),
        }
    }

    /// The entries from the next on have the tick `seq` (a new one, `Tap::tick`).
    #[cold]
    #[inline(never)]
    pub(crate) fn start_run(&mut self, seq: u64) {
        self.runs.push((self.order.len(), seq));
    }

    /// Keeps a call as it came: packed into one word, or two, or in full when its arguments do
    /// not fit. The wrappers pack the one-word forms themselves ([`push_word`](Self::push_word),
    /// [`push_vertex_buffer`](Self::push_vertex_buffer)): this is for the rest.
    pub(crate) fn push_hot(&mut self, hot: Hot) {
        let packed = match hot {
            Hot::Draw {
                vertex_count,
                start_vertex,
            } => Some(Word::draw(vertex_count, start_vertex)),
            Hot::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            } => match Word::draw_indexed(index_count, start_index, base_vertex) {
                Some(word) => Some(word),
                None => {
                    return self.push_two(
                        Word::new(Kind::DrawIndexedWide, 0, index_count, start_index),
                        Word::tail(base_vertex as u32, 0),
                    )
                }
            },
            Hot::DrawInstanced {
                vertex_count,
                instance_count,
                start_vertex,
                start_instance,
            } => {
                return self.push_two(
                    Word::new(Kind::DrawInstanced, 0, vertex_count, instance_count),
                    Word::tail(start_vertex, start_instance),
                )
            }
            Hot::DrawIndexedInstanced {
                index_count,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            } if start_instance <= U24_MAX => {
                return self.push_two(
                    Word::new(
                        Kind::DrawIndexedInstanced,
                        start_instance,
                        index_count,
                        instance_count,
                    ),
                    Word::tail(start_index, base_vertex as u32),
                )
            }
            Hot::DrawIndexedInstanced { .. } => None,
            Hot::Shader { stage, shader } => Some(Word::shader(stage, shader)),
            Hot::ConstantBuffer {
                stage,
                start,
                buffer,
            } => Word::bind(stage, start, buffer),
            Hot::ShaderResource { stage, start, view } => Word::bind(stage, start, view),
            Hot::Sampler {
                stage,
                start,
                sampler,
            } => Word::bind(stage, start, sampler),
            Hot::VertexBuffer { start, buffer } => {
                if let Some(word) = Word::vertex_buffer(start, buffer.buffer) {
                    return self.push_vertex_buffer(word, buffer.stride, buffer.offset);
                }
                None
            }
        };
        match packed {
            Some(word) => self.push_word(word),
            None => self.push_full_hot(hot),
        }
    }

    /// Keeps a call packed in one word by its wrapper ([`Word::draw`] ..).
    #[inline(always)]
    pub(crate) fn push_word(&mut self, word: Word) {
        self.order.push(word);
    }

    /// Keeps a one-slot vertex-buffer bind ([`Word::vertex_buffer`]) of this stride and offset:
    /// after a layout's word when they are not the layout's.
    #[inline(always)]
    pub(crate) fn push_vertex_buffer(&mut self, word: Word, stride: u32, offset: u32) {
        if (stride, offset) != self.layout {
            self.new_layout(stride, offset);
        }
        self.order.push(word);
    }

    /// A head and its tail.
    #[inline(always)]
    fn push_two(&mut self, head: Word, tail: Word) {
        self.order.reserve(2);
        self.order.push(head);
        self.order.push(tail);
    }

    /// The vertex buffers kept next have this stride and offset.
    #[cold]
    #[inline(never)]
    fn new_layout(&mut self, stride: u32, offset: u32) {
        self.layout = (stride, offset);
        self.order
            .push(Word::new(Kind::VertexLayout, 0, stride, offset));
    }

    /// `hot`, whose arguments do not fit a word, kept in full.
    #[cold]
    #[inline(never)]
    fn push_full_hot(&mut self, hot: Hot) {
        self.push(Entry::Call(hot.call()));
    }

    /// Keeps `entry`, which owns no memory (`Entries::push_plain`).
    #[inline]
    pub(crate) fn push_plain(&mut self, entry: Entry) {
        self.full.push_plain(entry);
        self.order.push(Word::new(Kind::Full, 0, 0, 0));
    }

    /// Keeps `entry`, whatever it holds.
    #[inline]
    pub(crate) fn push(&mut self, entry: Entry) {
        self.full.push(entry);
        self.order.push(Word::new(Kind::Full, 0, 0, 0));
    }

    /// The last entry and its tick, when it was kept in full.
    pub(crate) fn last_full(&self) -> Option<(&Entry, u64)> {
        match (self.order.last(), self.full.last(), self.runs.last()) {
            (Some(word), Some(entry), Some((_, seq))) if word.kind() == Some(Kind::Full) => {
                Some((entry, *seq))
            }
            _ => None,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Empties it, keeping its capacity.
    pub(crate) fn clear(&mut self) {
        self.order.clear();
        self.full.clear();
        self.runs.clear();
        self.layout = (0, 0);
    }

    /// Its vectors' bytes.
    pub(crate) fn capacity_bytes(&self) -> usize {
        self.order.capacity() * std::mem::size_of::<Word>()
            + self.full.capacity() * std::mem::size_of::<Entry>()
            + self.runs.capacity() * std::mem::size_of::<(usize, u64)>()
    }

    /// The bytes its kept calls take in `order` (tests and measurements).
    #[cfg(test)]
    pub(crate) fn order_bytes(&self) -> usize {
        self.order.len() * std::mem::size_of::<Word>()
    }

    /// The entry whose first word is `order[*at]`, moving `at` past its words; `layout` is the
    /// vertex layout so far. `None` past the end or for a head without its tail (not reached:
    /// the invariant).
    fn unpack(&self, at: &mut usize, layout: &mut (u32, u32)) -> Option<Unpacked> {
        let head = *self.order.get(*at)?;
        *at += 1;
        let mut tail = || {
            let tail = self
                .order
                .get(*at)
                .filter(|w| w.kind() == Some(Kind::Tail))?;
            *at += 1;
            Some(*tail)
        };
        Some(Unpacked::Hot(match head.kind()? {
            Kind::Full => return Some(Unpacked::Full),
            // Not reached (a tail is read with its head): nothing to write for it.
            Kind::Tail => return None,
            Kind::VertexLayout => {
                *layout = (head.a, head.b);
                return Some(Unpacked::Layout);
            }
            Kind::Draw => Hot::Draw {
                vertex_count: head.a,
                start_vertex: head.b,
            },
            Kind::DrawIndexed => Hot::DrawIndexed {
                index_count: head.a,
                start_index: head.b,
                base_vertex: head.i24(),
            },
            Kind::DrawIndexedWide => Hot::DrawIndexed {
                index_count: head.a,
                start_index: head.b,
                base_vertex: tail()?.a as i32,
            },
            Kind::DrawInstanced => {
                let tail = tail()?;
                Hot::DrawInstanced {
                    vertex_count: head.a,
                    instance_count: head.b,
                    start_vertex: tail.a,
                    start_instance: tail.b,
                }
            }
            Kind::DrawIndexedInstanced => {
                let tail = tail()?;
                Hot::DrawIndexedInstanced {
                    index_count: head.a,
                    instance_count: head.b,
                    start_index: tail.a,
                    base_vertex: tail.b as i32,
                    start_instance: head.u24(),
                }
            }
            Kind::Shader => Hot::Shader {
                stage: head.stage()?,
                shader: head.handle(),
            },
            Kind::ConstantBuffer => Hot::ConstantBuffer {
                stage: head.stage()?,
                start: u32::from(head.byte(1)),
                buffer: head.handle(),
            },
            Kind::ShaderResource => Hot::ShaderResource {
                stage: head.stage()?,
                start: u32::from(head.byte(1)),
                view: head.handle(),
            },
            Kind::Sampler => Hot::Sampler {
                stage: head.stage()?,
                start: u32::from(head.byte(1)),
                sampler: head.handle(),
            },
            Kind::VertexBuffer => Hot::VertexBuffer {
                start: u32::from(head.byte(0)),
                buffer: recorder::VertexBuffer {
                    buffer: head.handle(),
                    stride: layout.0,
                    offset: layout.1,
                },
            },
        }))
    }

    /// The entries as calls, and each one's tick: what the tap kept before, entry by entry
    /// (a full entry is cloned, its lists copied to lists of their own).
    pub(crate) fn decode(&self) -> Decoded {
        let mut entries = Entries::with_capacity(self.order.len());
        let mut seqs = Vec::with_capacity(self.order.len());
        let mut full = self.full.iter();
        let mut runs = self.runs.iter().peekable();
        let mut seq = 0;
        let mut layout = (0, 0);
        let mut at = 0;
        while at < self.order.len() {
            while let Some((_, next)) = runs.next_if(|(start, _)| *start <= at) {
                seq = *next;
            }
            let entry = match self.unpack(&mut at, &mut layout) {
                Some(Unpacked::Hot(hot)) => Entry::Call(hot.call()),
                Some(Unpacked::Full) => match full.next() {
                    Some(entry) => entry.clone(),
                    // Not reached (the invariant): nothing to write for it.
                    None => continue,
                },
                Some(Unpacked::Layout) => continue,
                // Not reached (the invariant): the words left make no entry.
                None => break,
            };
            entries.push(entry);
            seqs.push(seq);
        }
        Decoded { entries, seqs }
    }
}

/// Kept calls as the writer reads them: each entry, and its tick.
#[derive(Debug)]
pub(crate) struct Decoded {
    pub entries: Entries,
    pub seqs: Vec<u64>,
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoded_calls_are_the_kept_ones_with_their_runs_ticks() {
        let mut calls = KeptCalls::default();
        calls.start_run(7);
        calls.push_hot(Hot::Draw {
            vertex_count: 3,
            start_vertex: 0,
        });
        calls.push(Entry::NotWritten("x"));
        calls.start_run(9);
        calls.push_hot(Hot::ConstantBuffer {
            stage: Stage::Vertex,
            start: 2,
            buffer: None,
        });
        assert!(
            calls.last_full().is_none(),
            "the last one is not kept in full"
        );
        calls.push_plain(Entry::NotWritten("y"));
        assert!(matches!(
            calls.last_full(),
            Some((Entry::NotWritten("y"), 9))
        ));
        let decoded = calls.decode();
        assert_eq!(decoded.seqs, [7, 7, 9, 9]);
        let text: Vec<String> = decoded.entries.iter().map(|e| format!("{e:?}")).collect();
        assert!(text[0].contains("Draw") && text[0].contains("vertex_count: 3"));
        assert!(text[1].contains("\"x\""));
        assert!(text[2].contains("SetConstantBuffers") && text[2].contains("[None]"));
        assert!(text[3].contains("\"y\""));
        calls.clear();
        assert!(calls.is_empty() && calls.decode().entries.is_empty());
    }

    /// Every form a word packs, at the edges of what fits, and each call that does not fit
    /// (kept in full): the decoded calls are the calls as the wrapper built them (R-CAP-6: the
    /// replay of a captured frame makes the calls that were made).
    #[test]
    fn r_cap_6_packed_calls_decode_to_the_calls_as_made() {
        use recorder::{Buffer, SamplerState, Shader, ShaderResourceView, VertexBuffer};
        let handle = |index: u32, generation: u32| {
            RawHandle::from_bits(u64::from(generation) << 32 | u64::from(index))
        };
        let buffer = Buffer::from_raw(handle(7, 0x0300_0002));
        let null = Buffer::from_raw(RawHandle::NULL);
        let vb = |buffer, stride, offset| VertexBuffer {
            buffer,
            stride,
            offset,
        };
        let mut hots = Vec::new();
        for base_vertex in [
            0,
            -1,
            I24_MIN,
            I24_MAX,
            I24_MIN - 1,
            I24_MAX + 1,
            i32::MIN,
            i32::MAX,
        ] {
            hots.push(Hot::DrawIndexed {
                index_count: u32::MAX,
                start_index: 3,
                base_vertex,
            });
        }
        for start_instance in [0, U24_MAX, U24_MAX + 1, u32::MAX] {
            hots.push(Hot::DrawIndexedInstanced {
                index_count: 36,
                instance_count: u32::MAX,
                start_index: 5,
                base_vertex: i32::MIN,
                start_instance,
            });
        }
        hots.push(Hot::Draw {
            vertex_count: u32::MAX,
            start_vertex: 1,
        });
        hots.push(Hot::DrawInstanced {
            vertex_count: 1,
            instance_count: 2,
            start_vertex: u32::MAX,
            start_instance: 4,
        });
        for stage in Stage::ALL {
            hots.push(Hot::Shader {
                stage,
                shader: Some(Shader::from_raw(handle(u32::MAX - 1, u32::MAX))),
            });
            hots.push(Hot::Shader {
                stage,
                shader: None,
            });
            for start in [0, 255, 256, u32::MAX] {
                hots.push(Hot::ConstantBuffer {
                    stage,
                    start,
                    buffer: Some(buffer),
                });
                hots.push(Hot::ShaderResource {
                    stage,
                    start,
                    view: None,
                });
                hots.push(Hot::Sampler {
                    stage,
                    start,
                    sampler: Some(SamplerState::from_raw(handle(0, 1))),
                });
            }
        }
        // A bound null handle is not an unbound slot.
        hots.push(Hot::ConstantBuffer {
            stage: Stage::Pixel,
            start: 1,
            buffer: Some(null),
        });
        hots.push(Hot::ShaderResource {
            stage: Stage::Pixel,
            start: 2,
            view: Some(ShaderResourceView::from_raw(RawHandle::NULL)),
        });
        // Vertex buffers: the layout of zeros first (no layout word), then changes, repeats,
        // a slot that does not fit between two of one layout.
        for (start, buffer) in [
            (0, vb(Some(buffer), 0, 0)),
            (1, vb(None, 32, 0)),
            (2, vb(Some(null), 32, 0)),
            (31, vb(Some(buffer), 32, u32::MAX)),
            (256, vb(Some(buffer), 16, 4)),
            (255, vb(Some(buffer), 32, u32::MAX)),
            (0, vb(Some(buffer), 0, 0)),
        ] {
            hots.push(Hot::VertexBuffer { start, buffer });
        }

        let mut calls = KeptCalls::default();
        let mut expected = Vec::new();
        for (i, hot) in hots.iter().enumerate() {
            let seq = 10 + i as u64 / 3;
            if i % 3 == 0 {
                calls.start_run(seq);
            }
            if i % 7 == 0 {
                calls.push(Entry::NotWritten("full"));
                expected.push((format!("{:?}", Entry::NotWritten("full")), seq));
            }
            calls.push_hot(*hot);
            expected.push((format!("{:?}", Entry::Call(hot.call())), seq));
        }
        let decoded = calls.decode();
        let got: Vec<(String, u64)> = decoded
            .entries
            .iter()
            .map(|e| format!("{e:?}"))
            .zip(decoded.seqs.iter().copied())
            .collect();
        assert_eq!(got.len(), expected.len());
        for (got, expected) in got.iter().zip(&expected) {
            assert_eq!(got, expected);
        }
    }

    /// The render workload's draw (a one-slot constant-buffer bind, a one-slot vertex-buffer
    /// bind, a draw) keeps 36 bytes: a word each, the vertex layout once for the list.
    #[test]
    fn r_cap_1_a_workload_draw_keeps_three_words() {
        let mut calls = KeptCalls::default();
        calls.start_run(1);
        let draw = |calls: &mut KeptCalls, i: u32| {
            calls.push_hot(Hot::ConstantBuffer {
                stage: Stage::Vertex,
                start: 0,
                buffer: Some(recorder::Buffer::from_raw(RawHandle::from_bits(
                    u64::from(i % 4) | 1 << 32,
                ))),
            });
            calls.push_hot(Hot::VertexBuffer {
                start: 0,
                buffer: recorder::VertexBuffer {
                    buffer: Some(recorder::Buffer::from_raw(RawHandle::from_bits(
                        u64::from(i % 3) | 1 << 32,
                    ))),
                    stride: 32,
                    offset: 0,
                },
            });
            calls.push_hot(Hot::Draw {
                vertex_count: 3,
                start_vertex: 0,
            });
        };
        draw(&mut calls, 0);
        let first = calls.order_bytes();
        for i in 1..101 {
            draw(&mut calls, i);
        }
        assert_eq!(first, 48, "the layout's word once, and three");
        assert_eq!((calls.order_bytes() - first) / 100, 36);
        assert_eq!(calls.decode().entries.len(), 303);
    }
}
