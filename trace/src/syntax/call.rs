//! Calls: `CTX METHOD ARGS`, every method of docs/TRACE.md's "Calls" block.
//!
//! **In:** a line whose first token named a context (the caller has read it). **Out:** a
//! [`Call`]: the method and its typed arguments, each object argument checked to be declared
//! and of the kind the grammar names (a RESOURCE is any buffer or texture, a SHADER any shader:
//! binding a pixel shader to the vertex stage is the engine's `invalid_argument`, not a parse
//! error).
//!
//! The method's word and its arguments are the call table's (`call_table.rs`): it says which
//! call a word names and how each argument is read. This file adds what the table cannot say,
//! the calls that change the symbol table ([`Parser::declare`]), once the arguments are read.
//! `finish LIST` on a deferred context declares the command list LIST; `finish` on a bundle
//! recorder makes the bundle of the recorder's name, which `draw_bundle` and `expect
//! bundle_footprint` need; `finish LIST` on `imm` declares LIST as well, and the replay refuses
//! the call (`invalid_argument`: the immediate context records no list; docs/TRACE.md), so LIST
//! is a list whose finish failed. The first `insert_fence F` or `insert_wait_on_fence F` declares
//! the fence F (a list may wait on a fence that a list recorded later in the trace signals, so
//! neither has to come first); F must not name another object. `create_device_context_state S`
//! declares S; `set_fast_resources_into_batch B` makes the batch B, which a later
//! `set_fast_resources_from_batch B` must name.

use super::ast::{Call, CallContext, Method};
use super::call_args::CallParser;
use super::cursor::{Cursor, Result};
use super::lex::quote;
use super::parse::Parser;
use super::symbols::ObjKind;

impl Parser {
    pub(crate) fn call(&mut self, mut cursor: Cursor<'_>, context: CallContext) -> Result<Call> {
        let context_name = match &context {
            CallContext::Immediate => "imm",
            CallContext::Deferred(name) | CallContext::BundleRecorder(name) => name.as_str(),
        };
        let method_token = cursor.next("a method")?;
        cursor.set_label(method_token);
        let mut arguments = CallParser {
            cursor: &mut cursor,
            symbols: &self.symbols,
            stage: None,
        };
        let Some(method) = Method::parse_arguments(method_token, &context, &mut arguments)? else {
            return Err(super::ParseError::new(
                cursor.line(),
                format!(
                    "unknown method {} on {}",
                    quote(method_token),
                    quote(context_name)
                ),
            ));
        };
        self.declare(&cursor, &method, &context)?;
        cursor.end()?;
        Ok(Call { context, method })
    }

    /// What a call makes besides its arguments (see the module essay), once they are read:
    /// the only calls that change the symbol table, or need it to hold what an earlier line
    /// made.
    fn declare(
        &mut self,
        cursor: &Cursor<'_>,
        method: &Method,
        context: &CallContext,
    ) -> Result<()> {
        let line = cursor.line();
        match method {
            Method::InsertFence { fence, .. } | Method::InsertWaitOnFence { fence, .. } => {
                match self.symbols.lookup(fence.as_str()) {
                    Some(entry) if entry.kind == ObjKind::Fence => {}
                    Some(entry) => {
                        return Err(cursor.error(format_args!(
                            "expected a fence name, found {} {}",
                            entry.describe(),
                            quote(fence.as_str())
                        )))
                    }
                    None => self
                        .symbols
                        .declare(fence.as_str(), ObjKind::Fence, line)
                        .map_err(|message| cursor.error(message))?,
                }
            }
            Method::FinishCommandList { list: name, .. }
            | Method::CreateDeviceContextState { state: name } => {
                let kind = match method {
                    Method::FinishCommandList { .. } => ObjKind::CommandList,
                    _ => ObjKind::ContextState,
                };
                self.symbols
                    .declare(name.as_str(), kind, line)
                    .map_err(|message| cursor.error(message))?;
            }
            Method::FinishBundle => {
                let CallContext::BundleRecorder(name) = context else {
                    return Ok(());
                };
                if let Some(token) = cursor.peek() {
                    return Err(cursor.error(format_args!(
                        "a bundle recorder's finish takes no arguments (the bundle is named \
                         '{}'), found {}",
                        name.as_str(),
                        quote(token)
                    )));
                }
                self.symbols.finish_bundle(name.as_str());
            }
            Method::SetFastResourcesIntoBatch { batch, .. } => {
                self.batches.insert(batch.as_str().to_owned());
            }
            Method::SetFastResourcesFromBatch { batch, .. }
                if !self.batches.contains(batch.as_str()) =>
            {
                return Err(cursor.error(format!(
                    "{} names no batch (no 'set_fast_resources_into_batch {}' before this line)",
                    quote(batch.as_str()),
                    batch.as_str()
                )));
            }
            _ => {}
        }
        Ok(())
    }
}
