//! The fixes the platform documentation recommends for split points (the Xbox One D3D11.x documentation on command lists and draw bundles, and
//! the Xbox One D3D11.x fast-semantics documentation), when each applies, and each as an edit of a trace's statements (the
//! module essay of `mod.rs` says what each edit is and why).
//!
//! **In:** the trace (its declarations and calls, read into [`Facts`]) and the split points'
//! [`Site`]s. **Out:** for a split point, the fixes that apply, in the order of [`Fix::ALL`];
//! for a fix and the split points it is applied to, an [`Edits`] of the trace and a sentence
//! saying what it changed.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use recorder::SplitCategory;

use crate::syntax::{
    BindFlags, Call, CallContext, Declaration, MapType, Method, Name, Semantics, Statement, Trace,
    Usage,
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
    fn resource_of<'n>(&'n self, name: &'n str) -> &'n str {
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
    fn compressible(&self, name: &str) -> Option<bool> {
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

    /// Applies `fix` to the split points `sites` (those it applies to) as edits of `trace`;
    /// returns what it changed, in words.
    pub(crate) fn apply(
        &self,
        fix: Fix,
        sites: &[&Site],
        trace: &Trace,
        edits: &mut Edits,
    ) -> String {
        let resources = |sites: &[&Site]| -> BTreeSet<String> {
            sites
                .iter()
                .filter_map(|s| s.resource.as_deref())
                .map(|r| self.resource_of(r).to_string())
                .collect()
        };
        match fix {
            Fix::Immutable => {
                let buffers = resources(sites);
                declare_usage(trace, edits, &buffers, Usage::Immutable);
                let removed = remove_maps(trace, edits, &buffers);
                format!(
                    "{} buffer(s) declared usage=immutable ({}), {removed} map/write/unmap \
                     statement(s) of them removed",
                    buffers.len(),
                    list(&buffers)
                )
            }
            Fix::MapInList => {
                let inserted = self.map_before_binds(sites, edits);
                format!(
                    "{inserted} map write_discard + unmap pair(s) inserted in the lists before \
                     the first bind ({})",
                    list(&resources(sites))
                )
            }
            Fix::DefaultNoOverwrite => {
                let buffers = resources(sites);
                declare_usage(trace, edits, &buffers, Usage::Default);
                let mut maps = 0;
                for (index, (_, statement)) in trace.statements.iter().enumerate() {
                    let Statement::Call(Call {
                        method:
                            Method::Map {
                                resource,
                                map_type: MapType::WriteDiscard,
                                ..
                            },
                        ..
                    }) = statement
                    else {
                        continue;
                    };
                    if !buffers.contains(resource.as_str()) {
                        continue;
                    }
                    if let Statement::Call(Call {
                        method:
                            Method::Map {
                                map_type,
                                allow_usage_default,
                                ..
                            },
                        ..
                    }) = edits.statement(trace, index)
                    {
                        *map_type = MapType::WriteNoOverwrite;
                        *allow_usage_default = true;
                    }
                    maps += 1;
                }
                format!(
                    "{} buffer(s) declared usage=default ({}), {maps} write_discard map(s) made \
                     write_no_overwrite allow_usage_default",
                    buffers.len(),
                    list(&buffers)
                )
            }
            Fix::Placement => {
                let buffers = resources(sites);
                declare_usage(trace, edits, &buffers, Usage::Default);
                let removed = remove_maps(trace, edits, &buffers);
                let calls: BTreeSet<usize> = sites.iter().filter_map(|s| s.statement).collect();
                let mut placed = 0;
                for index in calls {
                    placed += self.place(trace, edits, index, &buffers, placed);
                }
                format!(
                    "{} buffer(s) declared usage=default ({}), {removed} map/write/unmap \
                     statement(s) of them removed, {placed} bind(s) made placement binds at \
                     addresses of a ring",
                    buffers.len(),
                    list(&buffers)
                )
            }
            Fix::TextureCompatible => {
                let textures = resources(sites);
                for (index, (_, statement)) in trace.statements.iter().enumerate() {
                    if let Statement::Declaration(Declaration::Texture { name, .. }) = statement {
                        if textures.contains(name.as_str()) {
                            if let Statement::Declaration(Declaration::Texture { tc, .. }) =
                                edits.statement(trace, index)
                            {
                                *tc = Some(true);
                            }
                        }
                    }
                }
                format!(
                    "{} texture(s) declared tc=yes ({})",
                    textures.len(),
                    list(&textures)
                )
            }
            Fix::FewerStateChanges => {
                let calls: BTreeSet<usize> = sites.iter().filter_map(|s| s.statement).collect();
                edits.remove.extend(calls.iter().copied());
                format!(
                    "{} bind(s) of what was bound already removed from the lists",
                    calls.len()
                )
            }
            Fix::FastSemantics => {
                let contexts: BTreeSet<&str> = sites.iter().map(|s| s.context.as_str()).collect();
                let dynamic: Vec<&Site> = sites
                    .iter()
                    .copied()
                    .filter(|s| s.category.is_dynamic())
                    .collect();
                let maps = self.map_before_binds(&dynamic, edits);
                let mut decompressions = BTreeMap::new();
                for site in sites {
                    if let (SplitCategory::Decompression, Some(index), Some(view)) =
                        (site.category, site.statement, site.resource.as_deref())
                    {
                        decompressions
                            .entry(index)
                            .or_insert_with(BTreeSet::new)
                            .insert((site.context.clone(), self.resource_of(view).to_string()));
                    }
                }
                let mut explicit = 0;
                for (index, targets) in decompressions {
                    for (context, target) in targets {
                        edits.insert(index, call(&context, decompress(&target)));
                        explicit += 1;
                    }
                }
                let mut restores = 0;
                for (index, (_, statement)) in trace.statements.iter().enumerate() {
                    match statement {
                        Statement::Declaration(Declaration::Context { name, .. })
                            if contexts.contains(name.as_str()) =>
                        {
                            if let Statement::Declaration(Declaration::Context {
                                semantics, ..
                            }) = edits.statement(trace, index)
                            {
                                *semantics = Semantics::Fast;
                            }
                        }
                        Statement::Call(Call {
                            context: CallContext::Deferred(name),
                            method:
                                Method::FinishCommandList {
                                    restore: Some(true),
                                    ..
                                }
                                | Method::Execute {
                                    restore: Some(true),
                                    ..
                                },
                        }) if contexts.contains(name.as_str()) => {
                            if let Statement::Call(Call {
                                method:
                                    Method::FinishCommandList { restore, .. }
                                    | Method::Execute { restore, .. },
                                ..
                            }) = edits.statement(trace, index)
                            {
                                *restore = None;
                            }
                            restores += 1;
                        }
                        _ => {}
                    }
                }
                format!(
                    "{} context(s) declared semantics=fast ({}), {maps} map write_discard + \
                     unmap pair(s) and {explicit} decompress_resource call(s) inserted, \
                     restore=yes dropped from {restores} call(s)",
                    contexts.len(),
                    list(&contexts)
                )
            }
        }
    }

    /// Placement (R-FX-2): after the bind at statement `index`, each of its slots that binds
    /// one of `buffers` (or a view of one) is bound again by the placement call of its kind, at
    /// the next address of a ring (`0x10000` apart, from `0x100000`; `placed` counts those
    /// made so far). Returns how many slots it placed.
    fn place(
        &self,
        trace: &Trace,
        edits: &mut Edits,
        index: usize,
        buffers: &BTreeSet<String>,
        placed: usize,
    ) -> usize {
        let Some((_, Statement::Call(Call { context, method }))) = trace.statements.get(index)
        else {
            return 0;
        };
        let address = |n: usize| 0x10_0000 + 0x1_0000 * n as u64;
        let mine = |o: &Option<Name>| {
            o.as_ref()
                .is_some_and(|o| buffers.contains(self.resource_of(o.as_str())))
        };
        let mut calls: Vec<Method> = Vec::new();
        match method {
            Method::SetConstantBuffers {
                stage,
                start,
                buffers: objects,
            } => {
                for (slot, o) in (*start..).zip(objects) {
                    if let (true, Some(buffer)) = (mine(o), o.clone()) {
                        calls.push(Method::SetPlacementConstantBuffer {
                            stage: *stage,
                            slot,
                            buffer,
                            address: address(placed + calls.len()),
                        });
                    }
                }
            }
            Method::SetShaderResources {
                stage,
                start,
                views,
            } => {
                for (slot, o) in (*start..).zip(views) {
                    if let (true, Some(view)) = (mine(o), o.clone()) {
                        calls.push(Method::SetPlacementShaderResource {
                            stage: *stage,
                            slot,
                            view,
                            address: address(placed + calls.len()),
                        });
                    }
                }
            }
            Method::SetVertexBuffers {
                start,
                buffers: objects,
            } => {
                for (slot, o) in (*start..).zip(objects) {
                    if let (true, Some(buffer)) = (mine(o), o.clone()) {
                        calls.push(Method::SetPlacementVertexBuffer {
                            slot,
                            buffer,
                            address: address(placed + calls.len()),
                        });
                    }
                }
            }
            Method::SetIndexBuffer { buffer, format, .. } => {
                if let (true, Some(buffer)) = (mine(buffer), buffer.clone()) {
                    calls.push(Method::IaSetPlacementIndexBuffer {
                        buffer,
                        address: address(placed),
                        format: format.clone(),
                    });
                }
            }
            _ => {}
        }
        let count = calls.len();
        // The bind itself stays (its other slots), then the placements: inserted before the
        // statement after it, which a list's bind always has (its `finish`).
        for method in calls {
            let statement = Statement::Call(Call {
                context: context.clone(),
                method,
            });
            edits.insert(index + 1, statement);
        }
        count
    }

    /// Inserts `map R write_discard` and `unmap R` on the list's context before the list's
    /// first call that made a split point for R; returns how many pairs.
    fn map_before_binds(&self, sites: &[&Site], edits: &mut Edits) -> usize {
        let mut first: BTreeMap<(String, usize, String), usize> = BTreeMap::new();
        for site in sites {
            if let (Some(index), Some(resource)) = (site.statement, site.resource.as_deref()) {
                let key = (
                    site.context.clone(),
                    site.finish,
                    self.resource_of(resource).to_string(),
                );
                let at = first.entry(key).or_insert(index);
                *at = (*at).min(index);
            }
        }
        for ((context, _, resource), index) in &first {
            let Some(name) = Name::new(resource) else {
                continue;
            };
            edits.insert(
                *index,
                call(
                    context,
                    Method::Map {
                        resource: name.clone(),
                        map_type: MapType::WriteDiscard,
                        allow_usage_default: false,
                        instance: (),
                        writes: (),
                    },
                ),
            );
            edits.insert(*index, call(context, Method::Unmap { resource: name }));
        }
        first.len()
    }
}

/// Removes every map, write and unmap statement of `buffers` (what a buffer that is no longer
/// dynamic has no use for); returns how many.
fn remove_maps(trace: &Trace, edits: &mut Edits, buffers: &BTreeSet<String>) -> usize {
    let mut removed = 0;
    for (index, (_, statement)) in trace.statements.iter().enumerate() {
        if let Statement::Call(Call {
            method:
                Method::Map { resource, .. }
                | Method::Write { resource, .. }
                | Method::Unmap { resource },
            ..
        }) = statement
        {
            if buffers.contains(resource.as_str()) {
                edits.remove.insert(index);
                removed += 1;
            }
        }
    }
    removed
}

/// Declares every buffer of `buffers` with `usage`.
fn declare_usage(trace: &Trace, edits: &mut Edits, buffers: &BTreeSet<String>, usage: Usage) {
    for (index, (_, statement)) in trace.statements.iter().enumerate() {
        if let Statement::Declaration(Declaration::Buffer { name, .. }) = statement {
            if buffers.contains(name.as_str()) {
                if let Statement::Declaration(Declaration::Buffer {
                    usage: declared, ..
                }) = edits.statement(trace, index)
                {
                    *declared = usage;
                }
            }
        }
    }
}

fn decompress(target: &str) -> Method {
    match Name::new(target) {
        Some(resource) => Method::DecompressResource {
            resource,
            into: None,
        },
        None => Method::ClearState,
    }
}

/// A call on deferred context `context` (a name the trace declared, so always a valid one).
fn call(context: &str, method: Method) -> Statement {
    let context = Name::new(context).map_or(CallContext::Immediate, CallContext::Deferred);
    Statement::Call(Call { context, method })
}

fn list<'a>(names: impl IntoIterator<Item = &'a (impl AsRef<str> + 'a)>) -> String {
    let names: Vec<&str> = names.into_iter().map(AsRef::as_ref).collect();
    match names.len() {
        0..=6 => names.join(", "),
        n => format!("{}, … and {} more", names[..5].join(", "), n - 5),
    }
}

/// Edits of a trace's statements, by index in the original: statements inserted before one,
/// statements removed, statements changed.
#[derive(Default)]
pub(crate) struct Edits {
    before: BTreeMap<usize, Vec<Statement>>,
    remove: BTreeSet<usize>,
    changed: BTreeMap<usize, Statement>,
}

impl Edits {
    /// Statement `index` as edited so far, to change.
    fn statement(&mut self, trace: &Trace, index: usize) -> &mut Statement {
        self.changed
            .entry(index)
            .or_insert_with(|| trace.statements[index].1.clone())
    }

    fn insert(&mut self, index: usize, statement: Statement) {
        self.before.entry(index).or_default().push(statement);
    }

    /// The trace with the edits applied; an inserted statement takes the line of the one it
    /// precedes.
    pub(crate) fn applied(&self, trace: &Trace) -> Trace {
        let mut statements = Vec::with_capacity(trace.statements.len());
        for (index, (line, statement)) in trace.statements.iter().enumerate() {
            if let Some(inserted) = self.before.get(&index) {
                statements.extend(inserted.iter().map(|s| (*line, s.clone())));
            }
            if self.remove.contains(&index) {
                continue;
            }
            let statement = self.changed.get(&index).unwrap_or(statement);
            statements.push((*line, statement.clone()));
        }
        Trace { statements }
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
