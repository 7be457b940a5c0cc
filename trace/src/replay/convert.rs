//! The trace's words and numbers in the engine's types, for `lower/`: each function either
//! converts or says why the value cannot reach the engine (a malformed trace, exit code 2).

use recorder::{Format, Span};

use crate::syntax::ast::{SlotRange, SlotSet};

/// A conversion's error: the message of `trace:LINE: message`.
pub(crate) type Converted<T> = Result<T, String>;

pub(crate) fn fit_u32(value: u64, what: &str) -> Converted<u32> {
    u32::try_from(value)
        .map_err(|_| format!("{what} {value} does not fit the engine's 32-bit argument"))
}

pub(crate) fn fit_i32(value: i64, what: &str) -> Converted<i32> {
    i32::try_from(value)
        .map_err(|_| format!("{what} {value} does not fit the engine's 32-bit argument"))
}

pub(crate) fn format(format: &crate::Format) -> Converted<Format> {
    Format::from_name(format.as_str()).ok_or_else(|| {
        format!(
            "unknown format '{}' (the engine's formats: {})",
            format.as_str(),
            Format::ALL[1..]
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// A slot set as the engine's bit mask of `width` slots.
pub(crate) fn mask(set: &Option<SlotSet>, width: u32, what: &str) -> Converted<u128> {
    let mut bits = 0u128;
    for range in set.iter().flat_map(|s| &s.0) {
        if range.last >= width as u64 {
            return Err(format!(
                "{what} slot {} is beyond the {width} {what} slots (R-OBJ-5)",
                range.last
            ));
        }
        for slot in range.first..=range.last {
            bits |= 1 << slot;
        }
    }
    Ok(bits)
}

/// `mips=`, `array=`, `planes=`: the engine's inclusive span (every index when not written).
pub(crate) fn span(range: &Option<SlotRange>, what: &str) -> Converted<Span> {
    match range {
        None => Ok(Span::ALL),
        Some(range) => {
            let fit = |n: u64| {
                u16::try_from(n).map_err(|_| {
                    format!(
                        "{what}{}-{}: {n} is beyond the engine's 16-bit subresource indices",
                        range.first, range.last
                    )
                })
            };
            Ok(Span::new(fit(range.first)?, fit(range.last)?))
        }
    }
}

/// The words V of `write_gds` and `expect gds|constant_ram|memory`, each a 32-bit value.
pub(crate) fn words(values: &[u64]) -> Converted<Vec<u32>> {
    values.iter().map(|v| fit_u32(*v, "V")).collect()
}
