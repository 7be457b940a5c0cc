//! [`DrawBundle`]: a finished bundle. Immutable, `Send + Sync`, cheap to clone (one counted
//! pointer), executable any number of times on the immediate context or from deferred contexts
//! (R-B-10), and reporting its size and constant-engine footprint (R-B-11).
//!
//! Its commands are a list in the recorder's chunk format, recorded by the bundle-role context;
//! nothing else reads them but the executor's expansion, which applies them over the caller's
//! state and puts that state back after (R-B-4, R-B-9, R-B-10).

use recorder::{
    BundleHandle, CommandList, DeferredContext, Device, OutputFormats, RegisteredBundle,
};

/// A finished draw bundle.
///
/// ```
/// fn shareable<T: Send + Sync + Clone>() {}
/// shareable::<bundles::DrawBundle>();
/// ```
#[derive(Clone)]
pub struct DrawBundle {
    /// What a deferred context records when it calls the bundle, kept inline: calling a bundle
    /// from a fast list reads only these two words (an engine keeps thousands of bundles, one
    /// per object; chasing `shared` for each would miss the cache every time).
    handle: BundleHandle,
    device: u64,
    /// The device's entry, the commands, the declaration, the footprint and the name, in the
    /// header of the bundle's own list (no allocation of its own: its memory is the list's
    /// first chunk, from the device's pool). The last clone releases the bundle, as the
    /// application's last reference to an object (R-OBJ-3): a legacy list that calls it keeps
    /// it until the list goes; a fast list does not (R-OBJ-4), and executing one after the
    /// bundle is gone finds it `released_object`. The body holds the device, through which the
    /// release reaches it: the bundle keeps no `Device` clone of its own, which would be one
    /// more read-modify-write per bundle on the device's reference count, a cache line that
    /// every recording thread shares.
    shared: RegisteredBundle,
}

impl DrawBundle {
    /// The bundle `shared`, which its recorder just finished and registered.
    pub(crate) fn new(device: &Device, shared: RegisteredBundle) -> Self {
        Self {
            handle: shared.handle(),
            device: device.serial(),
            shared,
        }
    }

    /// The handle lists record when they call the bundle.
    pub fn handle(&self) -> BundleHandle {
        self.handle
    }

    /// The recorder's name.
    pub fn name(&self) -> &str {
        self.shared.name()
    }

    /// Bytes of the bundle's commands (R-B-11): what the seeds' `GetSize` reports.
    pub fn size_bytes(&self) -> u64 {
        self.shared.body().stats().bytes
    }

    /// The constant-engine footprint of its overridden slots, in bytes (R-B-5, R-B-11).
    pub fn footprint_bytes(&self) -> u32 {
        self.shared.footprint()
    }

    /// Draws and dispatches in the bundle.
    pub fn draws(&self) -> u32 {
        self.shared.body().stats().draws
    }

    /// Encoded commands in the bundle.
    pub fn commands(&self) -> u32 {
        self.shared.body().stats().commands
    }

    /// The output formats it must be executed with (R-B-1, R-B-10).
    pub fn declaration(&self) -> &OutputFormats {
        self.shared.declaration()
    }

    /// Whether it was recorded on `device`.
    pub fn is_from(&self, device: &Device) -> bool {
        self.shared.body().is_from(device)
    }

    /// The bundle's commands as the recorder encoded them: for the executor's expansion of a
    /// bundle call (`ImmediateContext::draw_bundle`) and for tests that read what a bundle
    /// holds. A list that a context can execute is not to be had from it: executing the
    /// commands as a command list would leak the bundle's state into the caller, so only a
    /// bundle call runs them.
    pub fn body(&self) -> &CommandList {
        self.shared.body()
    }
}

impl std::fmt::Debug for DrawBundle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DrawBundle")
            .field("name", &self.name())
            .field("draws", &self.draws())
            .field("size_bytes", &self.size_bytes())
            .field("footprint_bytes", &self.footprint_bytes())
            .field("declaration", self.declaration())
            .finish()
    }
}

/// `draw_bundle` on a deferred context (R-B-10). The immediate context has its own
/// (`executor::ImmediateContext::draw_bundle`), which answers at once.
pub trait DrawBundleExt {
    /// Records a call of `bundle` by handle, O(1) whatever its draw count: a legacy list holds a
    /// reference on it, a fast one none (no atomic read-modify-write on the recording path;
    /// keep the bundle until the list has executed, R-OBJ-4). A legacy context checks its bound
    /// targets against the bundle's declaration now (`format_mismatch`, sticky); a fast context
    /// inherits its targets, so the check happens when the list executes.
    fn draw_bundle(&mut self, bundle: &DrawBundle);
}

impl DrawBundleExt for DeferredContext {
    fn draw_bundle(&mut self, bundle: &DrawBundle) {
        self.record_draw_bundle(bundle.handle, bundle.device);
    }
}
