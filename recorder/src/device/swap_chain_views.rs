//! Views of a swap chain's back buffers (R-EX-7, seed 000): which back buffer a view names, and
//! the two ways it changes.
//!
//! **The model.** A swap chain's back buffers are textures `NAME.0 ..`, each the memory of one
//! buffer; the chain's current index says which one the frame renders to, and `present` moves it
//! on by one. A *view* made on a back buffer names a buffer too, through its resource word, and
//! that word is the one part of a view's descriptor that changes after creation:
//!
//! - **Legacy rotation** ([`Device::shift_swap_chain_views`]): the legacy immediate context's
//!   `present` shifts the identity of every live view of the chain's back buffers by one, as the
//!   chain rotated: a view of buffer `k` names buffer `k + 1` (mod the count). So a view made on
//!   the current back buffer names the new current one after the present, as D3D11's buffer 0
//!   always is the current back buffer; a view made on the next one still names the next one.
//!   The executor then has the slots of the legacy immediate context bound to such views
//!   re-bound (`Recorder::rebind_swap_chain_views`), as the driver does. A fast immediate
//!   context shifts nothing: the application rotates its views (the fast `clear_state` at the
//!   present already unbound them).
//! - **Placement** ([`Device::place_swap_chain_view`], the XDK's
//!   `ID3D11DeviceX::PlaceSwapChainView`): a device call, on any thread, that moves one view to
//!   back buffer `index` of its chain at once, like the minimum-LOD calls (R-ST-6).
//!
//! Either change is seen by the binds made after it: a bind copies the view's resource into what
//! it encodes, so a recorded list (or a bound copy on a context) keeps the back buffer it
//! encoded, never patched (R-EX-7's affinity; a legacy list executed after a present draws into
//! its old buffer, refused under validation). The view keeps one reference on the buffer it
//! names (R-OBJ-4): a move takes one on the new buffer and gives back the old one's.
//!
//! **Concurrency.** The device keeps the views of back buffers in a list (pushed at creation,
//! pruned when found dead), read only by these calls. A move holds a reference on the view while
//! it rewrites the resource word (so the slot is not reused under it), with one atomic store:
//! the back buffers of one chain share format, size and flags, so a racing bind reads either
//! buffer's view whole. Two moves of one view racing each other leave one of them; the
//! references stay balanced, as each move gives back the buffer it read.

use crate::device::handle::*;
use crate::device::object_info::{TextureInfo, ViewInfo, VIEW_WORDS};
use crate::device::table::ObjectTable;
use crate::device::{Device, DeviceShared};
use crate::errors::Error;
use crate::sync::Ordering;

const CALL: &str = "place_swap_chain_view";

/// The texture a view names, if it names one: a buffer's view is no view of a back buffer, though
/// its handle may read as a live texture's (each table numbers its own handles).
fn view_texture(info: &ViewInfo) -> Option<RawHandle> {
    match info.resource {
        crate::Resource::Texture(texture) => Some(texture.raw()),
        crate::Resource::Buffer(_) => None,
    }
}

impl DeviceShared {
    fn view_table(&self, kind: ObjectKind) -> Option<&ObjectTable<VIEW_WORDS>> {
        Some(match kind {
            ObjectKind::ShaderResourceView => &self.shader_resource_views,
            ObjectKind::UnorderedAccessView => &self.unordered_access_views,
            ObjectKind::RenderTargetView => &self.render_target_views,
            ObjectKind::DepthStencilView => &self.depth_stencil_views,
            _ => return None,
        })
    }

    /// The texture a live view of a back buffer names now, and its (chain, index).
    pub(crate) fn view_back_buffer(
        &self,
        kind: ObjectKind,
        view: RawHandle,
    ) -> Option<(RawHandle, SwapChain, u32)> {
        let live = self.view_table(kind)?.get(view, true).ok()?;
        let texture = view_texture(&ViewInfo::unpack(live.words))?;
        let (chain, index) = self.back_buffer_of(texture)?;
        Some((texture, chain, index))
    }

    /// The back buffer (chain, index) the texture is, if it is one.
    fn back_buffer_of(&self, texture: RawHandle) -> Option<(SwapChain, u32)> {
        let live = self.textures.get(texture, true).ok()?;
        TextureInfo::unpack(live.words).back_buffer
    }

    /// The texture of back buffer `index` of `chain`, if the chain lives and has it.
    fn back_buffer_texture(&self, chain: SwapChain, index: u32) -> Option<RawHandle> {
        let live = self.swap_chains.get(chain.0, true).ok()?;
        let count = live.words[0] as u32;
        (index < count).then(|| RawHandle::from_bits(live.words[2 + 2 * index as usize]))
    }

    /// Moves the view to `texture`: one reference taken on the new buffer, the old one's given
    /// back (module essay). The caller checked the view is a live view of a back buffer.
    fn move_view(&self, kind: ObjectKind, view: RawHandle, from: RawHandle, texture: RawHandle) {
        let Some(table) = self.view_table(kind) else {
            return;
        };
        if from == texture || table.retain(view, 1, true).is_err() {
            return;
        }
        if self.retain(ObjectKind::Texture, texture, 1).is_ok() {
            table.rewrite_word(view, 0, texture.to_bits());
            self.unretain(ObjectKind::Texture, from);
        }
        table.unretain(view);
    }
}

impl Device {
    /// Moves `view`, a view of a swap chain's back buffer, to back buffer `buffer_index` of the
    /// same chain (R-EX-7; the XDK's `PlaceSwapChainView`). The view changes at once, on every
    /// context: the binds made after the call read the new buffer; what was bound or recorded
    /// before keeps the buffer it encoded. Refused, changing nothing, for a view that is not of
    /// a back buffer, an index past the chain's buffers, a released view or chain, a back
    /// buffer released by the application, or another device's view.
    pub fn place_swap_chain_view<V: Handle>(
        &self,
        view: V,
        buffer_index: u32,
    ) -> Result<(), Error> {
        let shared = &self.shared;
        let (kind, raw) = (V::KIND, view.raw());
        let Some(table) = shared.view_table(kind) else {
            return Err(Error::WrongObjectKind {
                call: CALL,
                object: shared.object_name(kind, raw).to_string(),
                is: kind.name(),
                takes: "view of a swap chain's back buffer",
            });
        };
        let live = table
            .get(raw, false)
            .map_err(|_| shared.stale_error(CALL, kind, raw))?;
        let back_buffer = view_texture(&ViewInfo::unpack(live.words))
            .and_then(|from| Some((from, shared.back_buffer_of(from)?.0)));
        let Some((from, chain)) = back_buffer else {
            return Err(Error::InvalidDesc {
                call: CALL,
                object: shared.object_name(kind, raw).to_string(),
                problem: crate::errors::DescProblem::NotASwapChainView,
            });
        };
        let name = || shared.object_name(ObjectKind::SwapChain, chain.0);
        if shared.swap_chains.get(chain.0, false).is_err() {
            return Err(shared.stale_error(CALL, ObjectKind::SwapChain, chain.0));
        }
        let Some(texture) = shared.back_buffer_texture(chain, buffer_index) else {
            let count = shared
                .swap_chains
                .get(chain.0, true)
                .map_or(0, |live| live.words[0] as u32);
            return Err(Error::OutOfRange {
                call: CALL,
                argument: "back-buffer index",
                value: buffer_index.to_string(),
                allowed: format!("{} has {count} back buffers (R-EX-7)", name()).into(),
            });
        };
        if shared.textures.get(texture, false).is_err() {
            return Err(shared.stale_error(CALL, ObjectKind::Texture, texture));
        }
        shared.move_view(kind, raw, from, texture);
        Ok(())
    }

    /// Whether a view of a swap chain's back buffer was ever made on this device (R-EX-7): while
    /// none was, no view names a back buffer, and [`swap_chain_view_buffer`](Self::swap_chain_view_buffer)
    /// is `None` for every view. One load: a caller holding a view's handle sees its creation
    /// (the flag is set before the creation returns).
    #[inline]
    pub fn has_swap_chain_views(&self) -> bool {
        self.shared.any_swap_chain_view.load(Ordering::Acquire)
    }

    /// The back buffer (swap chain, index) `view` names now, if it is a live view of one
    /// (R-EX-7): where a placement or a legacy present left it.
    #[inline]
    pub fn swap_chain_view_buffer<V: Handle>(&self, view: V) -> Option<(SwapChain, u32)> {
        if !self.has_swap_chain_views() {
            return None;
        }
        let (_, chain, index) = self.shared.view_back_buffer(V::KIND, view.raw())?;
        Some((chain, index))
    }

    /// What the legacy immediate context's present does to the views of `chain`'s back buffers
    /// (R-EX-7): each live one moves from buffer `k` to buffer `k + 1` (mod the count), following
    /// the rotation (module essay). Returns how many moved. The executor calls it; a fast
    /// immediate context never does.
    pub fn shift_swap_chain_views(&self, chain: SwapChain) -> usize {
        let shared = &self.shared;
        // A released chain is not presented (`rotate_back_buffer` refuses it): nothing moves.
        let Ok(live) = shared.swap_chains.get(chain.0, false) else {
            return 0;
        };
        let count = (live.words[0] as u32).max(1);
        let buffers: Vec<RawHandle> = (0..count as usize)
            .map(|i| RawHandle::from_bits(live.words[2 + 2 * i]))
            .collect();
        let views = std::mem::take(&mut *shared.swap_chain_views.lock());
        let mut kept = Vec::with_capacity(views.len());
        let mut moved = 0;
        for (kind, view) in views {
            let Some(live) = shared.view_table(kind).and_then(|t| t.get(view, true).ok()) else {
                continue; // destroyed: forgotten
            };
            kept.push((kind, view));
            let from = ViewInfo::unpack(live.words).resource.raw();
            if let Some(k) = buffers.iter().position(|b| *b == from) {
                let to = buffers[(k + 1) % buffers.len()];
                shared.move_view(kind, view, from, to);
                moved += usize::from(to != from);
            }
        }
        shared.swap_chain_views.lock().extend(kept);
        moved
    }
}
