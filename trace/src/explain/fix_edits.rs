//! Each fix as an edit of a trace's statements (the module essay of `mod.rs` says what each
//! edit is and why), and the edits themselves ([`Edits`]).
//!
//! **In:** a [`Fix`], the split points it is applied to ([`Site`]s), the trace and what is
//! known of its objects ([`Facts`]). **Out:** the [`Edits`] that apply it, and a sentence saying
//! what it changed. **Invariant:** an edit names statements by their index in the original
//! trace, so fixes applied one after another never see each other's insertions.

use std::collections::{BTreeMap, BTreeSet};

use recorder::SplitCategory;

use super::fixes::{Facts, Fix, Site};
use crate::syntax::{
    Call, CallContext, Declaration, Decompression, MapType, Method, Name, Semantics, Statement,
    Trace, Usage, VertexBinding,
};

impl Facts<'_> {
    /// Applies `fix` to the split points `sites` (those it applies to) as edits of `trace`;
    /// returns what it changed, in words.
    pub(crate) fn apply(
        &self,
        fix: Fix,
        sites: &[&Site],
        trace: &Trace,
        edits: &mut Edits,
    ) -> String {
        match fix {
            Fix::Immutable => {
                let buffers = self.resources(sites);
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
                    list(&self.resources(sites))
                )
            }
            Fix::DefaultNoOverwrite => self.default_no_overwrite(sites, trace, edits),
            Fix::Placement => self.placement(sites, trace, edits),
            Fix::TextureCompatible => self.texture_compatible(sites, trace, edits),
            Fix::FewerStateChanges => {
                let calls: BTreeSet<usize> = sites.iter().filter_map(|s| s.statement).collect();
                edits.remove.extend(calls.iter().copied());
                format!(
                    "{} bind(s) of what was bound already removed from the lists",
                    calls.len()
                )
            }
            Fix::FastSemantics => self.fast_semantics(sites, trace, edits),
        }
    }

    /// The resources the split points `sites` name (a view's resource for a view).
    fn resources(&self, sites: &[&Site]) -> BTreeSet<String> {
        sites
            .iter()
            .filter_map(|s| s.resource.as_deref())
            .map(|r| self.resource_of(r).to_string())
            .collect()
    }

    /// [`Fix::DefaultNoOverwrite`]: the buffers declared default, their write_discard maps made
    /// write_no_overwrite with allow_usage_default.
    fn default_no_overwrite(&self, sites: &[&Site], trace: &Trace, edits: &mut Edits) -> String {
        let buffers = self.resources(sites);
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

    /// [`Fix::Placement`]: the buffers declared default, their maps removed, each bind of one
    /// followed by a placement bind at the next address of a ring.
    fn placement(&self, sites: &[&Site], trace: &Trace, edits: &mut Edits) -> String {
        let buffers = self.resources(sites);
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

    /// [`Fix::TextureCompatible`]: the textures declared `tc=yes`.
    fn texture_compatible(&self, sites: &[&Site], trace: &Trace, edits: &mut Edits) -> String {
        let textures = self.resources(sites);
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

    /// [`Fix::FastSemantics`]: the contexts declared fast, maps before their binds, explicit
    /// decompressions where a decompression split point was and before each copy of a
    /// compressible target (which legacy semantics decompressed itself), `restore=yes` dropped.
    fn fast_semantics(&self, sites: &[&Site], trace: &Trace, edits: &mut Edits) -> String {
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
        // A legacy copy decompresses a compressed source or destination itself (R-ST-9); a fast
        // one does not, so the copy is preceded by an explicit decompression of each.
        for (index, (_, statement)) in trace.statements.iter().enumerate() {
            let Statement::Call(Call {
                context: CallContext::Deferred(context),
                method:
                    Method::CopyResource {
                        destination,
                        source,
                    }
                    | Method::CopyTextureRegion {
                        destination,
                        source,
                        ..
                    },
            }) = statement
            else {
                continue;
            };
            if !contexts.contains(context.as_str()) {
                continue;
            }
            for texture in [source, destination] {
                if self.compressible(texture.as_str()).is_some() {
                    decompressions
                        .entry(index)
                        .or_insert_with(BTreeSet::new)
                        .insert((context.to_string(), texture.to_string()));
                }
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
                    if let Statement::Declaration(Declaration::Context { semantics, .. }) =
                        edits.statement(trace, index)
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
                            Method::FinishCommandList { restore, .. } | Method::Execute { restore, .. },
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
                    if let (true, Some(buffer)) = (mine(&o.buffer), o.buffer.clone()) {
                        calls.push(Method::SetPlacementVertexBuffer {
                            slot,
                            buffer: VertexBinding {
                                buffer,
                                stride: o.stride,
                                offset: o.offset,
                            },
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
            options: Decompression::whole(None),
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
