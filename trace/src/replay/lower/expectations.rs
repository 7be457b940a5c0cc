//! Expectations lowered: each `expect` line of the trace to an [`Op::Expect`] step, what it
//! checks in the engine's types ([`Check`]) beside the line as written.
//!
//! **In:** one [`Expectation`] of the parsed trace, at the lowering's line. **Out:** the step,
//! or the first problem as the message of `trace:LINE: message`: an error kind or split
//! category the engine does not have, a value that does not fit a 32-bit word.
//!
//! **Invariant:** an expectation names objects as calls do (none after its `release`), except
//! the CTX of `expect error` and `expect accepted`, which may name a released object: its last
//! outcome stays.

use super::super::convert::*;
use super::super::program::*;
use super::Lowering;
use crate::syntax::ast::{Expectation, ExpectedLayout, Subject as AstSubject};
use crate::syntax::name::Name;

impl Lowering {
    /// An `expect` line: what it checks, one step.
    pub(super) fn expectation(&mut self, expectation: &Expectation) -> Converted<()> {
        let check = match expectation {
            Expectation::Ok => Check::Ok,
            Expectation::Accepted { subject } => Check::Accepted {
                subject: self.subject_of(subject)?,
            },
            Expectation::Error { subject, kind } => Check::Error {
                subject: self.subject_of(subject)?,
                kind: recorder::ErrorKind::from_name(kind.name())
                    .ok_or_else(|| format!("the engine has no error kind '{kind}'"))?,
            },
            Expectation::SplitPoints {
                list,
                total,
                categories,
            } => Check::SplitPoints {
                list: self.id(list)?,
                total: *total,
                categories: categories
                    .iter()
                    .map(|(category, n)| {
                        recorder::SplitCategory::from_name(category.name())
                            .map(|c| (c, *n))
                            .ok_or_else(|| format!("the engine has no split category '{category}'"))
                    })
                    .collect::<Converted<_>>()?,
            },
            Expectation::Counters(keys) => {
                Check::Counters(keys.iter().map(|(key, n)| (key.name(), *n)).collect())
            }
            Expectation::Draw {
                index,
                field,
                value,
            } => Check::Draw {
                index: *index,
                field: *field,
                value: value.clone(),
            },
            Expectation::Resource {
                resource,
                layout,
                compressed,
                depth,
                stencil,
            } => Check::Resource {
                resource: self.id(resource)?,
                layout: layout.map(|layout| match layout {
                    ExpectedLayout::Is(layout) => ExpectedLayout::Is(layout.value()),
                    ExpectedLayout::Mixed => ExpectedLayout::Mixed,
                }),
                compressed: *compressed,
                depth: *depth,
                stencil: *stencil,
            },
            Expectation::Query { query, expected } => Check::Query {
                query: self.id(query)?,
                expected: expected.clone(),
            },
            Expectation::Pending { resource, pending } => Check::Pending {
                resource: self.id(resource)?,
                pending: *pending,
            },
            Expectation::BundleFootprint { bundle, bytes } => Check::BundleFootprint {
                bundle: self.id(bundle)?,
                bytes: *bytes,
            },
            Expectation::Gds { offset, values } => Check::Gds {
                offset: fit_u32(*offset, "OFFSET")?,
                values: words(values)?,
            },
            Expectation::ConstantRam { offset, values } => Check::ConstantRam {
                offset: fit_u32(*offset, "OFFSET")?,
                values: words(values)?,
            },
            Expectation::Memory {
                buffer,
                offset,
                values,
            } => Check::Memory {
                buffer: self.id(buffer)?,
                offset: fit_u32(*offset, "OFFSET")?,
                values: words(values)?,
            },
        };
        self.push(Op::Expect(Expect {
            written: expectation.clone(),
            check,
        }));
        Ok(())
    }

    /// The CTX of `expect error` and `expect accepted`.
    fn subject_of(&mut self, subject: &AstSubject) -> Converted<Subject> {
        Ok(match subject {
            AstSubject::Immediate => Subject::Immediate,
            AstSubject::Named(name) => Subject::Named(self.subject(name)?),
        })
    }

    /// `expect error NAME`: any declared name, a released one too (its last outcome stays).
    fn subject(&mut self, name: &Name) -> Converted<ObjId> {
        match self.ids.get(name.as_str()) {
            Some(&id) => Ok(id),
            None => self.id(name),
        }
    }
}
