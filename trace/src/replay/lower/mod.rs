//! Lowering: a parsed [`Trace`] to a [`Program`], with the checks the parser cannot make
//! because they need the engine's types.
//!
//! **In:** a trace as the parser returns it (objects declared before use, of the right kind).
//! **Out:** the program, or the first problem as a [`ParseError`] (`trace:LINE: message`, exit
//! code 2): a format name the engine does not know (docs/TRACE.md lists formats by example; the
//! engine's `Format` decides), a number that does not fit the engine's argument (a 32-bit
//! count, a `u8` stencil value, a slot beyond the slot masks of R-OBJ-5 in a shader
//! declaration), a context, command list or bundle used after its `release`.
//!
//! Numbering: every object gets an [`ObjId`] at its declaration; a swap chain of up to
//! `MAX_BACK_BUFFERS` buffers numbers its back buffers and their views with it (`NAME.K`,
//! `NAME.K.rtv`); a derived name of a larger swap chain (which the engine refuses) is numbered
//! where it is first used and never created. Command lists are numbered by the `finish` that
//! declares them, fences by their first use. Every write_discard `map` statement of a resource
//! gets the next instance number K of that resource (docs/TRACE.md "Instances"). Every `map`
//! statement gets the `write` statements after it on its context and resource, up to the
//! `unmap` there (`writes.rs`); a `write` OFFSET must fit a `u32` (a buffer's size does).
//!
//! **The files.** This one holds the lowering's state (`Lowering`: the objects numbered so
//! far, the names released, the instance numbers, the fast-resource batches), how a name
//! becomes its object (`Lowering::id`: a released name is refused here) and the walk over the
//! statements; each kind of statement is lowered in its own file: `declarations.rs` (the
//! objects and their `Create` steps; `lower_contents.rs` what a real GPU needs of them, R-GPU-2, its
//! files read here), `methods.rs` (the calls), `expectations.rs` (the
//! `expect` lines). `../convert.rs` holds the conversions of words and numbers they share.

use std::collections::HashMap;

use super::convert::*;
use super::program::*;
use crate::syntax::ast::{FastEntry, Statement, Trace};
use crate::syntax::name::Name;
use crate::syntax::split_derived;
use crate::ParseError;

mod declarations;
mod expectations;
mod lower_contents;
mod methods;

/// Lowers `trace` (see the module essay), its files (R-GPU-2) relative to the current
/// directory (the tests' shorthand).
#[cfg(test)]
pub(crate) fn lower(trace: &Trace) -> Result<Program, ParseError> {
    lower_in(trace, None)
}

/// Lowers `trace`, the files its declarations name (`wgsl=`, `spirv=`, `data=@`, R-GPU-2)
/// relative to `dir`, the trace file's folder (`None`: the current directory).
pub(crate) fn lower_in(
    trace: &Trace,
    dir: Option<&std::path::Path>,
) -> Result<Program, ParseError> {
    let mut lowering = Lowering {
        dir: dir.map(std::path::Path::to_path_buf),
        ..Lowering::default()
    };
    for (line, statement) in &trace.statements {
        lowering.line = *line;
        lowering
            .statement(statement)
            .map_err(|message| ParseError::new(*line, message))?;
    }
    let (semantics, validation) = lowering.device.unwrap_or_default();
    super::writes::attach(&mut lowering.steps);
    Ok(Program {
        semantics,
        validation,
        legacy_barriers: lowering.legacy_barriers.unwrap_or(true),
        objects: lowering.objects,
        steps: lowering.steps,
        recorders: lowering.recorders,
    })
}

/// The lowering's state, line by line (see the module essay).
#[derive(Default)]
struct Lowering {
    line: usize,
    /// The folder the files of GPU contents are relative to (R-GPU-2); `None`: the current
    /// directory.
    dir: Option<std::path::PathBuf>,
    device: Option<(recorder::Semantics, recorder::Validation)>,
    /// `device legacy_barriers=`, where written.
    legacy_barriers: Option<bool>,
    objects: Vec<Object>,
    steps: Vec<Step>,
    recorders: Vec<ObjId>,
    ids: HashMap<String, ObjId>,
    /// Swap chains and their back buffers: `(chain, K)` → `(texture, rtv)`.
    back_buffers: HashMap<(ObjId, u64), (ObjId, ObjId)>,
    /// Contexts, bundle recorders and command lists released, with the line.
    released: HashMap<ObjId, usize>,
    /// The last instance number of each resource mapped write_discard.
    instances: HashMap<ObjId, u32>,
    /// The entries of each batch of `set_fast_resources_into_batch` so far (R-FX-1).
    batches: HashMap<String, Vec<FastEntry<Lowered>>>,
}

impl Lowering {
    /// Numbers a new object `name` at this line.
    fn add(&mut self, name: &str, kind: ObjKind, dynamic: bool) -> ObjId {
        let id = self.objects.len();
        self.objects.push(Object {
            name: name.to_owned(),
            kind,
            line: self.line,
            dynamic,
            back_buffer: None,
        });
        self.ids.insert(name.to_owned(), id);
        id
    }

    /// The object `name` names (declared before, as the parser checked).
    fn id(&mut self, name: &Name) -> Converted<ObjId> {
        let text = name.as_str();
        if let Some(&id) = self.ids.get(text) {
            if let Some(line) = self.released.get(&id) {
                return Err(format!(
                    "'{text}' was released on line {line}: the trace no longer has it"
                ));
            }
            return Ok(id);
        }
        // A back buffer of a swap chain the engine refuses (too many buffers): numbered here,
        // never created.
        let (prefix, k, rtv) =
            split_derived(text).ok_or_else(|| format!("'{text}' is not declared"))?;
        let chain = *self
            .ids
            .get(prefix)
            .ok_or_else(|| format!("'{text}' is not declared"))?;
        let (texture, view) = match self.back_buffers.get(&(chain, k)) {
            Some(pair) => *pair,
            None => {
                let index = u32::try_from(k).unwrap_or(u32::MAX);
                let texture = self.add(&format!("{prefix}.{k}"), ObjKind::Texture, false);
                let view = self.add(
                    &format!("{prefix}.{k}.rtv"),
                    ObjKind::RenderTargetView,
                    false,
                );
                for id in [texture, view] {
                    self.objects[id].back_buffer = Some((chain, index));
                }
                self.back_buffers.insert((chain, k), (texture, view));
                (texture, view)
            }
        };
        Ok(if rtv { view } else { texture })
    }

    fn opt(&mut self, name: &Option<Name>) -> Converted<Option<ObjId>> {
        name.as_ref().map(|n| self.id(n)).transpose()
    }

    fn push(&mut self, op: Op) {
        self.steps.push(Step {
            line: self.line,
            op,
        });
    }

    fn statement(&mut self, statement: &Statement) -> Converted<()> {
        match statement {
            Statement::Declaration(declaration) => self.declaration(declaration),
            Statement::Call(call) => self.call(call),
            Statement::Expectation(expectation) => self.expectation(expectation),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::{Barrier, LegacyBarrier};

    fn lowered(text: &str) -> Program {
        let trace = crate::parse(text.as_bytes()).expect("the trace parses");
        lower(&trace).expect("the trace lowers")
    }

    /// `device legacy_barriers=` reaches `DeviceDesc::legacy_barriers` (on when not written,
    /// the engine's default), `texture dcc=` reaches `TextureDesc::dcc` (no when not written).
    #[test]
    fn r_bar_6_legacy_barriers_and_r_bar_3_dcc_reach_the_engines_descriptions() {
        assert!(lowered("device semantics=fast\n").legacy_barriers);
        assert!(lowered("device semantics=fast legacy_barriers=on\n").legacy_barriers);
        assert!(!lowered("device semantics=fast legacy_barriers=off\n").legacy_barriers);
        assert_eq!(
            recorder::DeviceDesc::default().legacy_barriers,
            lowered("device semantics=fast\n").legacy_barriers
        );
        let program = lowered(
            "device semantics=fast\n\
             texture a format=r8g8b8a8_unorm width=4 height=4 bind=render_target dcc=yes\n\
             texture b format=r8g8b8a8_unorm width=4 height=4 bind=render_target dcc=no\n\
             texture c format=r8g8b8a8_unorm width=4 height=4 bind=render_target\n",
        );
        let dcc: Vec<bool> = program
            .steps
            .iter()
            .filter_map(|step| match &step.op {
                Op::Create {
                    create: Create::Texture { dcc, .. },
                    ..
                } => Some(*dcc),
                _ => None,
            })
            .collect();
        assert_eq!(dcc, [true, false, false]);
    }

    /// A BARRIER's words become the engine's bits, `+` ORing them; `present` is `common`;
    /// ranges become spans, every index when not written.
    #[test]
    fn r_bar_1_barrier_words_lower_to_the_engines_values() {
        let program = lowered(
            "device semantics=fast\n\
             texture t format=r8g8b8a8_unorm width=4 height=4 mips=3 bind=render_target\n\
             imm barrier texture t sync=compute_shading+predication:all access=predication:no_access \
             layout=present:direct_queue_shader_resource mips=1-2\n\
             imm resource_barrier transition t present generic_read+copy_dest split=end\n",
        );
        let calls: Vec<&Call> = program
            .steps
            .iter()
            .filter_map(|step| match &step.op {
                Op::Call { call, .. } => Some(call),
                _ => None,
            })
            .collect();
        let Call::Barrier(barriers) = calls[0] else {
            panic!("{:?}", calls[0]);
        };
        let Barrier::Texture {
            sync,
            access,
            layout,
            mips,
            array,
            ..
        } = &barriers[0]
        else {
            panic!("{:?}", barriers[0]);
        };
        use recorder::{BarrierAccess, BarrierLayout, BarrierSync};
        assert_eq!(
            sync.before,
            BarrierSync::COMPUTE_SHADING | BarrierSync::EXECUTE_INDIRECT
        );
        assert_eq!(sync.after, BarrierSync::ALL);
        assert_eq!(access.before, BarrierAccess::INDIRECT_ARGUMENT);
        assert_eq!(access.after, BarrierAccess::NO_ACCESS);
        assert_eq!(layout.before, BarrierLayout::Common);
        assert_eq!(layout.after, BarrierLayout::DirectQueueShaderResource);
        assert_eq!(*mips, recorder::Span::new(1, 2));
        assert_eq!(*array, recorder::Span::ALL);
        let Call::ResourceBarrier(LegacyBarrier::Transition {
            before,
            after,
            split,
            subresource,
            ..
        }) = calls[1]
        else {
            panic!("{:?}", calls[1]);
        };
        use recorder::ResourceStates;
        assert_eq!(*before, ResourceStates::COMMON);
        assert_eq!(
            *after,
            ResourceStates::GENERIC_READ | ResourceStates::COPY_DEST
        );
        assert_eq!(*split, Some(recorder::SplitHalf::End));
        assert_eq!(*subresource, None);
    }
}
