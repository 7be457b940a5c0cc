//! The seam to a real GPU (R-GPU-1): what the GPU model hands a backend as it applies each
//! command, so that the frames the engine records draw pixels while the model keeps saying what
//! every draw saw.
//!
//! **In:** from [`GpuModel`](crate::GpuModel), in the order the model applies them: every
//! command that is not a draw or dispatch, after the model applied it (split points resolved,
//! bundles expanded: the commands are the ones the model runs, with their resolved resources and
//! instances); every draw or dispatch as its [`Draw`] record, the bindings the model resolved
//! for it (shaders, the slots they read with their instances, targets, states, viewports),
//! after the predicate in force for it, with what changed in the bindings since the previous
//! draw handed over ([`Draw::changes`], R-GPU-6: a backend resolves again only that); each
//! present with its back buffer; the end of each submission.
//! **Out:** whatever the backend makes of them (Vulkan commands, `vulkan/`), and its refusals:
//! a draw of an object the backend lacks something for (shader code, say, R-GPU-2) is refused
//! there, naming the object and what it lacks, and reported through the model's violations
//! (the immediate context's `flush`, `present`, `error()`); the model still records the draw.
//! And, for `get_data`, a query's result as the GPU counted it, where the backend has one
//! ([`GpuBackend::query_result`]; without it, or without a backend, the model's).
//!
//! **Where it runs.** In the model, so on the thread the model runs on: the immediate context's
//! own, or under [`GpuTiming::Threaded`](crate::GpuTiming) the model's thread, which is then the
//! backend's submission thread (DXVK's command-stream thread). Hence `Send`.
//!
//! **Invariant.** The backend never changes what the model records: it is handed facts after
//! the model made them. The one thing a backend hands back is bytes: a read map of a staging
//! resource on the immediate context asks it for the GPU's ([`GpuBackend::read_mapped`]), and
//! the unmap of a write map gives it the CPU's ([`GpuBackend::write_mapped`]); neither changes a
//! record. Without a backend the model pays one predictable branch per command
//! (`Option::is_some` on a field the hot path already has in cache) and the default build has no
//! GPU dependency.

use std::fmt;

use recorder::command::Command;
use recorder::{Error, QueryKind, RawHandle, Resource, Semantics};

use crate::draw_record::Draw;
use crate::gpu::QueryData;

/// A real GPU fed by the GPU model (R-GPU-1). See the module essay.
///
/// A backend that only counts what it is handed:
///
/// ```
/// use executor::{Draw, GpuBackend, GpuModel};
/// use recorder::command::{Command, DirectArgs};
/// use recorder::{Error, RawHandle, Resource, Semantics};
///
/// #[derive(Debug, Default)]
/// struct Count { commands: usize, draws: usize }
///
/// impl GpuBackend for Count {
///     fn command(&mut self, _: &Command<'_>, _: Semantics) -> Result<(), Error> {
///         self.commands += 1;
///         Ok(())
///     }
///     fn draw(&mut self, _: &Draw<'_>, _: bool) -> Result<(), Error> {
///         self.draws += 1;
///         Ok(())
///     }
///     fn present(&mut self, _: RawHandle, _: RawHandle) -> Result<(), Error> { Ok(()) }
///     fn submit(&mut self) -> Result<(), Error> { Ok(()) }
///     fn as_any(&self) -> &dyn std::any::Any { self }
/// }
///
/// let mut gpu = GpuModel::new();
/// gpu.set_backend(Some(Box::new(Count::default())));
/// gpu.execute(&Command::SetPrimitiveResetIndex(7), Semantics::Fast);
/// gpu.execute(&Command::Draw(DirectArgs::draw(3, 0)), Semantics::Fast);
/// let count = gpu.backend().and_then(|b| b.as_any().downcast_ref::<Count>()).unwrap();
/// assert_eq!((count.commands, count.draws), (1, 1));
/// ```
pub trait GpuBackend: Send + fmt::Debug {
    /// A command the model applied that is not a draw or dispatch (those come to
    /// [`draw`](Self::draw)), recorded with `semantics`: binds (the backend may ignore them and
    /// read the draw's record), clears, copies, updates, maps with their bytes, barriers,
    /// queries, fences.
    fn command(&mut self, command: &Command<'_>, semantics: Semantics) -> Result<(), Error>;

    /// The predicate in force for the draw or dispatch handed next (null: none) and the value
    /// that skips it, as the model's state holds it: a draw's record shows the predicate only
    /// where the model skipped it or had no answer, and list boundaries (`ClearState`, a
    /// restored state) change it with no command. A backend that predicates on the GPU reads
    /// it here; the default ignores it.
    fn predicate(&mut self, predicate: RawHandle, value: bool) {
        let _ = (predicate, value);
    }

    /// A draw or dispatch as the model recorded it; `skipped`: predication skipped it (its
    /// record stays, the GPU must not draw it).
    fn draw(&mut self, draw: &Draw<'_>, skipped: bool) -> Result<(), Error>;

    /// A present of `chain`, whose back buffer `back_buffer` (a texture) was shown.
    fn present(&mut self, chain: RawHandle, back_buffer: RawHandle) -> Result<(), Error>;

    /// The end of a submission: what was recorded goes to the GPU.
    fn submit(&mut self) -> Result<(), Error>;

    /// The GPU's result of `query` (of `kind`), whose last end the model has run, for the
    /// immediate context's `get_data` (an engine programmer expects it to read the GPU); the
    /// backend may submit what it recorded to read it. `Ok(None)`, the default: `get_data`
    /// returns the model's result.
    fn query_result(
        &mut self,
        query: RawHandle,
        kind: QueryKind,
    ) -> Result<Option<QueryData>, Error> {
        let _ = (query, kind);
        Ok(None)
    }

    /// The backend as `Any`, for a caller that knows its type (tests, tools reading pixels).
    fn as_any(&self) -> &dyn std::any::Any;

    /// The backend as `Any`, mutably.
    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        None
    }

    /// A read, write or read_write map of `resource` on the immediate context (R-GPU-2), once
    /// the model has run everything submitted: the backend submits what it recorded, waits for
    /// it, and writes the GPU's bytes of `resource` into `bytes` (a buffer: its bytes; a
    /// texture: its first subresource, rows packed, as the immediate context maps it).
    /// `None`: the backend keeps no GPU memory for it, and the map hands out the model's bytes
    /// (the default). Where both exist the GPU's win, as on hardware.
    fn read_mapped(&mut self, resource: Resource, bytes: &mut [u8]) -> Option<Result<(), Error>> {
        let _ = (resource, bytes);
        None
    }

    /// The unmap of a write or read_write map of `resource` on the immediate context: `bytes`
    /// (laid out as [`read_mapped`](Self::read_mapped)'s) reach GPU memory before any command
    /// handed over later. The default keeps nothing.
    fn write_mapped(&mut self, resource: Resource, bytes: &[u8]) -> Result<(), Error> {
        let _ = (resource, bytes);
        Ok(())
    }
}
