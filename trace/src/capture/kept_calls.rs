//! What a tap keeps of its calls, in the order they were made: [`KeptCalls`], the frequent
//! calls as small [`Hot`] records, every other entry in full, and the capture's clock as runs.
//!
//! **Why.** A kept call was a 72-byte record built on the stack, its one-slot list bumped into
//! the arena, the record copied into the entries (80 bytes) and its tick into another vector,
//! the tick taken with an atomic add: about 110 instructions and 88 bytes a call, where the
//! wrapped fast list spends 30 to 40 instructions. The draws and one-slot binds now keep their
//! arguments as they came (a [`Hot`], 28 bytes, no list), and the call is built from them only
//! when the frame is written ([`KeptCalls::decode`]).
//!
//! **The clock as runs** (`Tap::tick`). The trace orders every context's calls by the capture's
//! clock (`frame_timeline.rs`); the calls of one context that no one ticked between may share a
//! tick: the writer's sort is stable and each context's entries go in their order, so they come
//! out exactly as if each had ticked, with nothing of another context between them (had one
//! ticked, the clock would have moved). A call that happened after another on another thread
//! reads the clock after that call's tick (its atomic add happened before) and so takes a tick
//! of its own if it is not past it already. A tap reads the clock (a plain load) per call and
//! adds to it only when it moved; the ticks are kept as runs (`runs`: where each starts).
//!
//! **In:** kept entries, each with its tick. **Out:** the entries and their ticks, as they were
//! before (an [`Entries`] and a tick per entry), at write time.
//!
//! **Invariant.** `full` holds one entry for each [`Hot::Full`] of `order`, in order; `runs` is
//! sorted by start, its first run starting at 0 when `order` is not empty.

use recorder::{ObjectKind, Stage};

use super::entries::Entries;
use super::form::{Call, Entry, Obj};
use crate::syntax::ast::{Method, VertexBinding};

/// A kept call in the form it came in, for the calls a list makes most (draws, one-slot binds),
/// or [`Full`](Hot::Full): the next of the full entries.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Hot {
    /// The next entry of [`KeptCalls`]' full ones.
    Full,
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

const _: () = assert!(std::mem::size_of::<Hot>() <= 28);

impl Hot {
    /// The call as the wrapper kept it before (`captured_binds.rs`, `captured_draws.rs`), its
    /// list one of its own. `None` for [`Full`](Hot::Full).
    fn call(self) -> Option<Call> {
        let obj = |kind, h: Option<recorder::RawHandle>| h.map(|h| Obj::Engine(kind, h));
        use recorder::Handle;
        Some(match self {
            Hot::Full => return None,
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
        })
    }
}

/// A tap's kept entries (see the module essay).
#[derive(Debug, Default)]
pub(crate) struct KeptCalls {
    /// Each kept entry, in order: a call as it came, or [`Hot::Full`].
    order: Vec<Hot>,
    /// The entries of `order`'s [`Hot::Full`]s.
    full: Entries,
    /// Each run of entries that share a tick: where it starts in `order`, and the tick.
    runs: Vec<(usize, u64)>,
}

impl KeptCalls {
    /// Empty, with room for what `like` holds.
    pub(crate) fn with_capacity_of(like: &KeptCalls) -> Self {
        Self {
            order: Vec::with_capacity(like.order.capacity()),
            full: Entries::with_capacity(like.full.capacity()),
            runs: Vec::with_capacity(like.runs.capacity()),
        }
    }

    /// The entries from the next on have the tick `seq` (a new one, `Tap::tick`).
    #[cold]
    #[inline(never)]
    pub(crate) fn start_run(&mut self, seq: u64) {
        self.runs.push((self.order.len(), seq));
    }

    /// Keeps a call as it came.
    #[inline(always)]
    pub(crate) fn push_hot(&mut self, hot: Hot) {
        self.order.push(hot);
    }

    /// Keeps `entry`, which owns no memory (`Entries::push_plain`).
    #[inline]
    pub(crate) fn push_plain(&mut self, entry: Entry) {
        self.full.push_plain(entry);
        self.order.push(Hot::Full);
    }

    /// Keeps `entry`, whatever it holds.
    #[inline]
    pub(crate) fn push(&mut self, entry: Entry) {
        self.full.push(entry);
        self.order.push(Hot::Full);
    }

    /// The last entry and its tick, when it was kept in full.
    pub(crate) fn last_full(&self) -> Option<(&Entry, u64)> {
        match (self.order.last(), self.full.last(), self.runs.last()) {
            (Some(Hot::Full), Some(entry), Some((_, seq))) => Some((entry, *seq)),
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
    }

    /// Its vectors' bytes.
    pub(crate) fn capacity_bytes(&self) -> usize {
        self.order.capacity() * std::mem::size_of::<Hot>()
            + self.full.capacity() * std::mem::size_of::<Entry>()
            + self.runs.capacity() * std::mem::size_of::<(usize, u64)>()
    }

    /// The entries as calls, and each one's tick: what the tap kept before, entry by entry
    /// (a full entry is cloned, its lists copied to lists of their own).
    pub(crate) fn decode(&self) -> Decoded {
        let mut entries = Entries::with_capacity(self.order.len());
        let mut seqs = Vec::with_capacity(self.order.len());
        let mut full = self.full.iter();
        let mut runs = self.runs.iter().peekable();
        let mut seq = 0;
        for (at, hot) in self.order.iter().enumerate() {
            while let Some((_, next)) = runs.next_if(|(start, _)| *start <= at) {
                seq = *next;
            }
            let entry = match hot.call() {
                Some(call) => Entry::Call(call),
                None => match full.next() {
                    Some(entry) => entry.clone(),
                    // Not reached (the invariant): nothing to write for it.
                    None => continue,
                },
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
}
