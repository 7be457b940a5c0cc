//! Barriers: `barrier BARRIER [| BARRIER ..]` and `resource_barrier transition|uav|aliasing ..`
//! (docs/TRACE.md "Calls", SPEC R-BAR-1, R-BAR-6), the arguments of the two methods.
//!
//! **In:** the cursor after the method's name. **Out:** the typed [`Barrier`]s or the
//! [`LegacyBarrier`]; every flag, layout and state a word of `words.rs` (the engine's words,
//! which a test ties one to one), every object declared and a buffer or texture.
//!
//! **Choices where docs/TRACE.md is silent.** `|` is a token of its own (blanks around it), and
//! no BARRIER is empty. A BARRIER's options come after its kind and resource, in any order, each
//! once; `discard` may sit among them. `sync=` and `access=` are required on every BARRIER,
//! `layout=` on a texture's; a side of `BEFORE:AFTER` is one word or several joined by `+`, in
//! the order written (the printer keeps it, aliases such as `predication` too). A range is
//! `A-B` (or `A`, which is `A-A`), never backwards. Which resource a `buffer` or `texture`
//! BARRIER names is not checked here: a type that does not fit is the engine's
//! `invalid_barrier`.

use super::ast::{Barrier, BeforeAfter, Flags, LegacyBarrier, SlotRange};
use super::cursor::{Cursor, Options, Result};
use super::lex::quote;
use super::symbols::{Symbols, Want};
use super::words::{split_half, AccessWord, LayoutWord, SplitHalf, StateWord, SyncWord};

/// The kinds of BARRIER, for messages.
const KINDS: &str = "global|buffer|texture";

/// `BARRIER [| BARRIER ..]`: the rest of the line.
pub(crate) fn barriers(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<Vec<Barrier>> {
    let line = cursor.line();
    let tokens = cursor.rest();
    let mut barriers = Vec::new();
    for segment in tokens.split(|token| *token == "|") {
        let mut one = Cursor::new(line, segment.to_vec(), "barrier");
        barriers.push(barrier(&mut one, symbols)?);
        one.end()?;
    }
    Ok(barriers)
}

fn barrier(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<Barrier> {
    let kind = cursor.next(&format!("a barrier ({KINDS})"))?;
    match kind {
        "global" => {
            let options = cursor.options(&["sync", "access"])?;
            Ok(Barrier::Global {
                sync: sync(cursor, &options)?,
                access: access(cursor, &options)?,
            })
        }
        "buffer" => {
            let resource = cursor.object(symbols, Want::Resource)?;
            let options = cursor.options(&["sync", "access", "size"])?;
            Ok(Barrier::Buffer {
                resource,
                sync: sync(cursor, &options)?,
                access: access(cursor, &options)?,
                size: options
                    .get("size")
                    .map(|v| cursor.unsigned_token(v, "size="))
                    .transpose()?,
            })
        }
        "texture" => {
            let resource = cursor.object(symbols, Want::Resource)?;
            // `discard` among the options: taken out, then the rest are `key=value`.
            let rest = cursor.rest();
            let discards = rest.iter().filter(|t| **t == "discard").count();
            if discards > 1 {
                return Err(cursor.error("'discard' given twice"));
            }
            let rest: Vec<&str> = rest.into_iter().filter(|t| *t != "discard").collect();
            let mut options_cursor = Cursor::new(cursor.line(), rest, "barrier");
            let options =
                options_cursor.options(&["sync", "access", "layout", "mips", "array", "planes"])?;
            let c = &options_cursor;
            let range =
                |key: &'static str| options.get(key).map(|v| range_token(c, v, key)).transpose();
            let layout = options.require(c, "layout")?;
            Ok(Barrier::Texture {
                resource,
                sync: sync(c, &options)?,
                access: access(c, &options)?,
                layout: before_after(c, layout, "layout=", |cursor, token| {
                    cursor.word_token(
                        token,
                        "layout=",
                        LayoutWord::from_name,
                        LayoutWord::choices(),
                    )
                })?,
                mips: range("mips")?,
                array: range("array")?,
                planes: range("planes")?,
                discard: discards == 1,
            })
        }
        other => Err(cursor.error(format_args!(
            "expected a barrier ({KINDS}), found {}",
            quote(other)
        ))),
    }
}

fn sync(cursor: &Cursor<'_>, options: &Options<'_>) -> Result<BeforeAfter<Flags<SyncWord>>> {
    let token = options.require(cursor, "sync")?;
    before_after(cursor, token, "sync=", |cursor, side| {
        flags(
            cursor,
            side,
            "sync=",
            SyncWord::from_name,
            SyncWord::choices,
        )
    })
}

fn access(cursor: &Cursor<'_>, options: &Options<'_>) -> Result<BeforeAfter<Flags<AccessWord>>> {
    let token = options.require(cursor, "access")?;
    before_after(cursor, token, "access=", |cursor, side| {
        flags(
            cursor,
            side,
            "access=",
            AccessWord::from_name,
            AccessWord::choices,
        )
    })
}

/// `BEFORE:AFTER`, each side read by `side`.
fn before_after<T>(
    cursor: &Cursor<'_>,
    token: &str,
    what: &str,
    side: impl Fn(&Cursor<'_>, &str) -> Result<T>,
) -> Result<BeforeAfter<T>> {
    let Some((before, after)) = token.split_once(':') else {
        return Err(cursor.error(format_args!(
            "expected {what}BEFORE:AFTER, found {}",
            quote(token)
        )));
    };
    Ok(BeforeAfter {
        before: side(cursor, before)?,
        after: side(cursor, after)?,
    })
}

/// Words joined by `+`, at least one.
fn flags<W>(
    cursor: &Cursor<'_>,
    token: &str,
    what: &str,
    from_name: fn(&str) -> Option<W>,
    choices: fn() -> String,
) -> Result<Flags<W>> {
    token
        .split('+')
        .map(|word| cursor.word_token(word, what, from_name, choices()))
        .collect::<Result<Vec<W>>>()
        .map(Flags)
}

/// `A-B` or `A`.
fn range_token(cursor: &Cursor<'_>, token: &str, key: &str) -> Result<SlotRange> {
    let what = format!("{key}=");
    let (first, last) = match token.split_once('-') {
        Some((first, last)) => (
            cursor.unsigned_token(first, &what)?,
            cursor.unsigned_token(last, &what)?,
        ),
        None => {
            let one = cursor.unsigned_token(token, &what)?;
            (one, one)
        }
    };
    if last < first {
        return Err(cursor.error(format_args!(
            "{key}={token} is a backwards range (expected A-B with A <= B)"
        )));
    }
    Ok(SlotRange { first, last })
}

/// `transition RESOURCE STATE_BEFORE STATE_AFTER [subresource=N] [split=begin|end]`,
/// `uav RESOURCE|null`, `aliasing RESOURCE|null RESOURCE|null`.
pub(crate) fn legacy(cursor: &mut Cursor<'_>, symbols: &Symbols) -> Result<LegacyBarrier> {
    let kind = cursor.next("a legacy barrier (transition|uav|aliasing)")?;
    match kind {
        "transition" => {
            let resource = cursor.object(symbols, Want::Resource)?;
            let before = cursor.next("STATE_BEFORE")?;
            let before = states(cursor, before, "STATE_BEFORE")?;
            let after = cursor.next("STATE_AFTER")?;
            let after = states(cursor, after, "STATE_AFTER")?;
            let options = cursor.options(&["subresource", "split"])?;
            Ok(LegacyBarrier::Transition {
                resource,
                before,
                after,
                subresource: options
                    .get("subresource")
                    .map(|v| cursor.unsigned_token(v, "subresource="))
                    .transpose()?,
                split: options
                    .get("split")
                    .map(|v| {
                        cursor.word_token(
                            v,
                            "split=",
                            split_half,
                            super::words::choices_but(SplitHalf::None),
                        )
                    })
                    .transpose()?,
            })
        }
        "uav" => Ok(LegacyBarrier::Uav {
            resource: cursor.object_or_null(symbols, Want::Resource)?,
        }),
        "aliasing" => Ok(LegacyBarrier::Aliasing {
            before: cursor.object_or_null(symbols, Want::Resource)?,
            after: cursor.object_or_null(symbols, Want::Resource)?,
        }),
        other => Err(cursor.error(format_args!(
            "expected a legacy barrier (transition|uav|aliasing), found {}",
            quote(other)
        ))),
    }
}

fn states(cursor: &Cursor<'_>, token: &str, what: &str) -> Result<Flags<StateWord>> {
    flags(
        cursor,
        token,
        what,
        StateWord::from_name,
        StateWord::choices,
    )
}
