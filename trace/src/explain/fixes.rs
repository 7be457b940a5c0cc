//! The fixes the platform documentation recommends for split points (the Xbox One D3D11.x documentation on command lists and draw bundles, and
//! the Xbox One D3D11.x fast-semantics documentation), when each applies, and each as an edit of a trace's statements (the
//! module essay of `mod.rs` says what each edit is and why).
//!
//! **In:** the trace (its declarations and calls, read into [`Facts`]) and the split points'
//! [`Site`]s. **Out:** for a split point, the fixes that apply, in the order of [`Fix::ALL`];
//! for a fix and the split points it is applied to, an `Edits` of the trace and a sentence
//! saying what it changed (the edits are `fix_edits.rs`'s).

use std::collections::{BTreeMap, HashMap, HashSet};

use recorder::SplitCategory;

use crate::syntax::{
    BindFlags, Call, CallContext, Declaration, MapType, Method, Name, Statement, Trace, Usage,
};

/// A fix for split points, in the documentation's order of preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fix {
    /// An immutable resource instead of a dynamic one (the first tip of the command-list documentation).
    Immutable,
    /// Map the dynamic resource write_discard in the list before the bind (the command-list
    /// documentation).
    MapInList,
    /// A default-usage resource mapped write_no_overwrite with allow_usage_default (the
    /// command-list documentation).
    DefaultNoOverwrite,
    /// A default-usage resource given a new address as it is bound, from the application's own
    /// ring (R-FX-2; the command-list documentation: "you can use SetPlacement/SetFastPlacement to modify the address
    /// of a default resource as you set it").
    Placement,
    /// A texture-compatible (TC) target: its SRVs need no decompression (the fast-semantics and
    /// enhanced-barriers documentation).
    TextureCompatible,
    /// Bind only what changes: drop the render-target, depth-stencil-state and UAV binds that
    /// re-bind what is bound (the command-list documentation: "some split points are avoidable").
    FewerStateChanges,
    /// Record the list with fast semantics: maps before binds, explicit decompression; no split
    /// points at all (the fast-semantics documentation, R-SP-3).
    FastSemantics,
}

impl Fix {
    /// Every fix, in order of preference.
    pub const ALL: [Fix; 7] = [
        Self::Immutable,
        Self::MapInList,
        Self::DefaultNoOverwrite,
        Self::Placement,
        Self::TextureCompatible,
        Self::FewerStateChanges,
        Self::FastSemantics,
    ];

    /// Its name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Immutable => "immutable",
            Self::MapInList => "map_in_list",
            Self::DefaultNoOverwrite => "default_no_overwrite",
            Self::Placement => "placement",
            Self::TextureCompatible => "texture_compatible",
            Self::FewerStateChanges => "fewer_state_changes",
            Self::FastSemantics => "fast_semantics",
        }
    }

    /// What it asks of the application, in a line.
    pub const fn advice(self) -> &'static str {
        match self {
            Self::Immutable => {
                "use an immutable resource instead of a dynamic one, if its contents do not change"
            }
            Self::MapInList => "map the dynamic resource write_discard in the list before the bind",
            Self::DefaultNoOverwrite => {
                "use a default resource mapped write_no_overwrite with allow_usage_default \
                 (multi-buffer it yourself)"
            }
            Self::Placement => {
                "use a default resource and place it at a new address of your own ring as you \
                 bind it (set_placement_*: no rename, no split point)"
            }
            Self::TextureCompatible => {
                "create the target texture-compatible (tc): shaders read it compressed"
            }
            Self::FewerStateChanges => {
                "do not re-bind the render targets, depth-stencil state or UAVs already bound"
            }
            Self::FastSemantics => {
                "record the list with fast semantics: map before binding, decompress explicitly"
            }
        }
    }

    /// The documentation that recommends it (SPEC's sources: the Xbox One D3D11.x pages on
    /// command lists and draw bundles and on fast semantics, the Xbox Series X|S page on
    /// enhanced barriers).
    pub const fn source(self) -> &'static str {
        match self {
            Self::Immutable | Self::MapInList | Self::DefaultNoOverwrite | Self::Placement => {
                "Xbox One D3D11.x command lists and draw bundles, \"tips to help you minimize the number of split points\""
            }
            Self::TextureCompatible => "Xbox One D3D11.x fast semantics (compression), Xbox Series X|S enhanced barriers (TC resources)",
            Self::FewerStateChanges => "Xbox One D3D11.x command lists and draw bundles, \"some split points are avoidable\"",
            Self::FastSemantics => "Xbox One D3D11.x fast semantics (SPEC R-SP-3)",
        }
    }
}

impl std::fmt::Display for Fix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where one split point was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Site {
    /// The index in the trace's statements of the call that made it; `None` for a list's
    /// carried start.
    pub statement: Option<usize>,
    /// The deferred context.
    pub context: String,
    /// The line of the list's `finish`: with the context, which list.
    pub finish: usize,
    pub category: SplitCategory,
    /// The buffer, view or target it is about (see [`Facts::candidates`]).
    pub resource: Option<String>,
}

/// What the fixes need to know of a trace.
pub(crate) struct Facts<'t> {
    declarations: HashMap<&'t str, &'t Declaration>,
    /// Statement indices of the deferred calls that bind what their list has bound already.
    redundant: HashSet<usize>,
    /// Dynamic buffers whose contents in the trace could be creation data (see `mod.rs`).
    immutable_ok: HashSet<&'t str>,
}

impl<'t> Facts<'t> {
    pub(crate) fn new(trace: &'t Trace) -> Self {
        let mut declarations = HashMap::new();
        for (_, statement) in &trace.statements {
            if let Statement::Declaration(declaration) = statement {
                if let Some((name, _)) = declaration.declares() {
                    declarations.insert(name.as_str(), declaration);
                }
            }
        }
        let mut facts = Self {
            declarations,
            redundant: redundant_binds(trace),
            immutable_ok: HashSet::new(),
        };
        facts.immutable_ok = facts.creation_data(trace);
        facts
    }

    fn buffer(&self, name: &str) -> Option<(Usage, BindFlags)> {
        match self.declarations.get(name)? {
            Declaration::Buffer { usage, bind, .. } => Some((*usage, *bind)),
            _ => None,
        }
    }

    /// The resource a view views, or the name itself for a resource.
    pub(super) fn resource_of<'n>(&'n self, name: &'n str) -> &'n str {
        match self.declarations.get(name) {
            Some(
                Declaration::ShaderResourceView { resource, .. }
                | Declaration::UnorderedAccessView { resource, .. },
            ) => resource.as_str(),
            _ => name,
        }
    }

    fn is_dynamic_buffer(&self, name: &str) -> bool {
        matches!(self.buffer(name), Some((Usage::Dynamic, _)))
    }

    /// A texture that is compressible, and whether it is texture compatible.
    pub(super) fn compressible(&self, name: &str) -> Option<bool> {
        match self.declarations.get(name)? {
            Declaration::Texture {
                bind,
                compressible,
                tc,
                ..
            } => {
                let target = bind.intersects(BindFlags::RENDER_TARGET | BindFlags::DEPTH_STENCIL);
                (target && *compressible != Some(false)).then_some(*tc == Some(true))
            }
            _ => None,
        }
    }

    fn is_srv(&self, name: &str) -> bool {
        matches!(
            self.declarations.get(name),
            Some(Declaration::ShaderResourceView { .. })
        )
    }

    /// The objects of a call that a split point of `category` is about, in slot order: the
    /// dynamic buffers (or views of one) of a dynamic category, the views of compressible
    /// targets of a decompression; none for the other categories (the call says it all).
    pub(crate) fn candidates<'n>(
        &self,
        category: SplitCategory,
        objects: &'n [String],
    ) -> Vec<&'n str> {
        let keep = |name: &&'n str| match category {
            SplitCategory::DynamicIndexBuffer
            | SplitCategory::DynamicVertexBuffer
            | SplitCategory::DynamicConstantBuffer => self.is_dynamic_buffer(name),
            SplitCategory::DynamicShaderResource => {
                *name != self.resource_of(name) && self.is_dynamic_buffer(self.resource_of(name))
            }
            SplitCategory::Decompression => self.compressible(self.resource_of(name)).is_some(),
            _ => false,
        };
        objects.iter().map(String::as_str).filter(keep).collect()
    }

    /// The fixes that apply to the split point made at `site`, in order; never empty (fast
    /// semantics removes every split point).
    pub(crate) fn fixes(&self, site: &Site) -> Vec<Fix> {
        let mut fixes = Vec::new();
        let call = site.statement.is_some();
        if let (true, Some(resource)) = (call, site.resource.as_deref()) {
            let target = self.resource_of(resource);
            if site.category.is_dynamic() {
                if self.immutable_ok.contains(target) {
                    fixes.push(Fix::Immutable);
                }
                fixes.push(Fix::MapInList);
                if self.buffer(target).is_some() {
                    fixes.push(Fix::DefaultNoOverwrite);
                    fixes.push(Fix::Placement);
                }
            }
            if site.category == SplitCategory::Decompression
                && self.is_srv(resource)
                && self.compressible(target) == Some(false)
            {
                fixes.push(Fix::TextureCompatible);
            }
        }
        if let Some(statement) = site.statement {
            let state = matches!(
                site.category,
                SplitCategory::SetRenderTargets
                    | SplitCategory::SetDepthStencilState
                    | SplitCategory::SetUnorderedAccessViews
            );
            if state && self.redundant.contains(&statement) {
                fixes.push(Fix::FewerStateChanges);
            }
        }
        fixes.push(Fix::FastSemantics);
        fixes
    }

    /// The dynamic buffers whose contents could be creation data: mapped at most once,
    /// write_discard on `imm`, never written by a copy or an update, bindable as immutable.
    fn creation_data(&self, trace: &'t Trace) -> HashSet<&'t str> {
        let mut maps: HashMap<&str, u32> = HashMap::new();
        let mut spoiled: HashSet<&str> = HashSet::new();
        for (_, statement) in &trace.statements {
            let Statement::Call(Call { context, method }) = statement else {
                continue;
            };
            match method {
                Method::Map {
                    resource, map_type, ..
                } => {
                    *maps.entry(resource.as_str()).or_default() += 1;
                    if *context != CallContext::Immediate || *map_type != MapType::WriteDiscard {
                        spoiled.insert(resource.as_str());
                    }
                }
                Method::CopyResource {
                    destination: dst, ..
                }
                | Method::CopyBufferRegion {
                    destination: dst, ..
                }
                | Method::CopyTextureRegion {
                    destination: dst, ..
                } => {
                    spoiled.insert(dst.as_str());
                }
                Method::UpdateSubresource { resource } => {
                    spoiled.insert(resource.as_str());
                }
                _ => {}
            }
        }
        self.declarations
            .iter()
            .filter_map(|(name, declaration)| match declaration {
                Declaration::Buffer {
                    usage: Usage::Dynamic,
                    bind,
                    placement: None,
                    ..
                } => {
                    let writable = [
                        BindFlags::UNORDERED_ACCESS,
                        BindFlags::STREAM_OUTPUT,
                        BindFlags::RENDER_TARGET,
                        BindFlags::DEPTH_STENCIL,
                    ]
                    .into_iter()
                    .any(|flag| bind.contains(flag));
                    let once = maps.get(name).copied().unwrap_or(0) <= 1;
                    (!writable && once && !spoiled.contains(name)).then_some(*name)
                }
                _ => None,
            })
            .collect()
    }
}

/// The statement indices of the deferred calls that bind what their list has bound already:
/// render targets and depth stencil, the depth-stencil state, compute UAVs. Each context is
/// followed from ClearState; `clear_state`, a `finish` without restore and a nested `execute`
/// without restore go back to it (R-ST-1, R-ST-2); `om_set_render_targets_and_uavs` sets the
/// targets and leaves the OM UAVs unknown, and is never taken for a re-bind.
fn redundant_binds(trace: &Trace) -> HashSet<usize> {
    #[derive(Clone, Default, PartialEq)]
    struct Bound {
        targets: Vec<Option<Name>>,
        depth_stencil: Option<Name>,
        state: Option<Name>,
        uavs: BTreeMap<u64, Name>,
    }
    let trim = |targets: &[Option<Name>]| {
        let mut targets = targets.to_vec();
        while targets.last() == Some(&None) {
            targets.pop();
        }
        targets
    };
    let mut bound: HashMap<&str, Bound> = HashMap::new();
    let mut redundant = HashSet::new();
    for (index, (_, statement)) in trace.statements.iter().enumerate() {
        let Statement::Call(Call {
            context: CallContext::Deferred(context),
            method,
        }) = statement
        else {
            continue;
        };
        let now = bound.entry(context.as_str()).or_default();
        match method {
            Method::OmSetRenderTargets {
                render_targets,
                depth_stencil,
            } => {
                let targets = trim(render_targets);
                if now.targets == targets && now.depth_stencil == *depth_stencil {
                    redundant.insert(index);
                }
                now.targets = targets;
                now.depth_stencil = depth_stencil.clone();
            }
            Method::OmSetRenderTargetsAndUavs {
                render_targets,
                depth_stencil,
                ..
            } => {
                now.targets = trim(render_targets);
                now.depth_stencil = depth_stencil.clone();
            }
            Method::OmSetDepthStencilState(state) => {
                if now.state == *state {
                    redundant.insert(index);
                }
                now.state = state.clone();
            }
            Method::CsSetUnorderedAccessViews { start, views } => {
                let same = views
                    .iter()
                    .zip(*start..)
                    .all(|(view, slot)| now.uavs.get(&slot) == view.as_ref());
                if same {
                    redundant.insert(index);
                }
                for (view, slot) in views.iter().zip(*start..) {
                    match view {
                        Some(view) => now.uavs.insert(slot, view.clone()),
                        None => now.uavs.remove(&slot),
                    };
                }
            }
            Method::ClearState
            | Method::FinishCommandList {
                restore: None | Some(false),
                ..
            }
            | Method::Execute {
                restore: None | Some(false),
                ..
            } => *now = Bound::default(),
            _ => {}
        }
    }
    redundant
}
