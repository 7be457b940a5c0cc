//! The statement writer of a captured frame's trace: statements in text order, each dynamic
//! instance numbered as its write_discard map appears.
//!
//! **In:** calls and entries in the order the text takes them, with the context each is made on;
//! declarations. **Out:** the numbered statements, what had no statement (`not_written`).
//! **Invariant:** an instance's number is the count of write_discard maps of its resource up to
//! and including the one that made it, as `replay` counts them.

use std::collections::HashMap;

use super::form::{self, Call, Entry, Obj};
use super::object_names::Names;
use crate::syntax::ast::{Call as WrittenCall, CallContext, Declaration, Method, Statement};

/// Writes statements in order, naming instances as their maps appear.
pub(super) struct Out<'a> {
    pub(super) statements: Vec<(usize, Statement)>,
    pub(super) names: &'a mut Names,
    pub(super) counts: HashMap<Obj, u32>,
    pub(super) not_written: Vec<&'static str>,
    pub(super) broken: Option<String>,
}

impl Out<'_> {
    pub(super) fn call(&mut self, context: &CallContext, call: &Call) {
        if let Method::Map {
            resource,
            map_type: recorder::MapType::WriteDiscard,
            instance,
            ..
        } = call
        {
            let k = self.counts.entry(*resource).or_insert(0);
            *k += 1;
            if let Some(instance) = instance {
                self.names.instances.insert(*instance, *k);
            }
        }
        let method = form::written(call, &*self.names);
        self.push(context, method);
    }

    pub(super) fn push(&mut self, context: &CallContext, method: Method) {
        let line = self.statements.len() + 1;
        self.statements.push((
            line,
            Statement::Call(WrittenCall {
                context: context.clone(),
                method,
            }),
        ));
    }

    pub(super) fn entry(&mut self, context: &CallContext, entry: &Entry) {
        match entry {
            Entry::Call(call) => self.call(context, call),
            Entry::Write {
                resource,
                offset,
                bytes,
            } => {
                let resource = self.names.name(*resource);
                self.push(
                    context,
                    Method::Write {
                        resource,
                        offset: *offset as u64,
                        bytes: bytes.clone(),
                    },
                );
            }
            Entry::NotWritten(what) => self.not_written.push(what),
        }
    }

    pub(super) fn declare(&mut self, declaration: Declaration) {
        let line = self.statements.len() + 1;
        self.statements
            .push((line, Statement::Declaration(declaration)));
    }
}
