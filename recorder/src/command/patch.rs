//! A split point as execution resolves it (R-SP-4): the one place that knows which binding of a
//! split point reads the executing context's current instance, and patches it.
//!
//! **In:** a split point decoded once from its list's index ([`Segment::SplitPoint`]), and the
//! current instance of the resource its dynamic binding names, which the executing context
//! looks up. **Out:** the command with that binding reading the instance, handed to the GPU
//! model as its typed form; nothing decodes it again.
//!
//! A dynamic binding waiting for execution carries [`InstanceId::RESOLVE_AT_EXECUTION`]
//! (written by the recorder's resolution, `resolve.rs`). A split point of a slot bind holds one
//! slot (the bind cut it out of its call, R-SP-1), so the binding is the command's one buffer
//! or view; a decompression split point has none to patch.
//!
//! [`Segment::SplitPoint`]: crate::Segment::SplitPoint

use crate::handle::RawHandle;
use crate::split::SplitCategory;

use super::{BoundBuffer, BoundView, Command, Decoded, InstanceId};

/// A decoded split point and the instance its dynamic binding reads (see the module essay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitPoint<'a> {
    decoded: Decoded<'a>,
    category: SplitCategory,
    /// What a binding marked `RESOLVE_AT_EXECUTION` reads, once resolved.
    instance: InstanceId,
}

impl<'a> SplitPoint<'a> {
    /// The split point `decoded` is, if it is one. Until [`with_instance`](Self::with_instance),
    /// a dynamic binding reads the creation contents.
    pub fn new(decoded: Decoded<'a>) -> Option<Self> {
        Some(Self {
            decoded,
            category: decoded.split?,
            instance: InstanceId::INITIAL,
        })
    }

    /// Its category (R-SP-2).
    pub fn category(&self) -> SplitCategory {
        self.category
    }

    /// The command as it was decoded, unpatched.
    pub fn decoded(&self) -> &Decoded<'a> {
        &self.decoded
    }

    /// The dynamic resource whose current instance the split point's binding reads, if it has a
    /// binding waiting for execution (R-SP-4, R-ST-8): what the executing context looks up.
    pub fn dynamic_resource(&self) -> Option<RawHandle> {
        self.patched(|_, resource| resource)
    }

    /// The split point with its waiting binding reading `instance`.
    pub fn with_instance(self, instance: InstanceId) -> Self {
        Self { instance, ..self }
    }

    /// Calls `apply` with the command as execution applies it: the waiting binding reads the
    /// instance given by [`with_instance`](Self::with_instance); every other command as decoded.
    pub fn apply<R>(&self, apply: impl FnOnce(&Command<'_>) -> R) -> R {
        self.patched(|command, _| apply(command))
    }

    /// The one match over the commands whose binding can wait for execution: calls `f` with the
    /// command patched and the resource the waiting binding names (`None`: nothing waits, the
    /// command as decoded).
    fn patched<R>(&self, f: impl FnOnce(&Command<'_>, Option<RawHandle>) -> R) -> R {
        let waits = |instance| instance == InstanceId::RESOLVE_AT_EXECUTION;
        let instance = self.instance;
        let buffer = |b: &BoundBuffer| BoundBuffer { instance, ..*b };
        let view = |v: &BoundView| BoundView { instance, ..*v };
        match self.decoded.command {
            Command::SetVertexBuffers {
                start,
                buffers: [b],
            } if waits(b.instance) => f(
                &Command::SetVertexBuffers {
                    start,
                    buffers: &[buffer(b)],
                },
                Some(b.buffer),
            ),
            Command::SetConstantBuffers {
                stage,
                start,
                buffers: [b],
            } if waits(b.instance) => f(
                &Command::SetConstantBuffers {
                    stage,
                    start,
                    buffers: &[buffer(b)],
                },
                Some(b.buffer),
            ),
            Command::SetIndexBuffer(b) if waits(b.instance) => {
                f(&Command::SetIndexBuffer(buffer(&b)), Some(b.buffer))
            }
            Command::SetShaderResources {
                stage,
                start,
                views: [v],
            } if waits(v.instance) => f(
                &Command::SetShaderResources {
                    stage,
                    start,
                    views: &[view(v)],
                },
                Some(v.resource),
            ),
            ref command => f(command, None),
        }
    }
}
