//! The trace's words and numbers in the engine's types, for `lower.rs`: each function either
//! converts or says why the value cannot reach the engine (a malformed trace, exit code 2).

use recorder::{
    BarrierAccess, BarrierLayout, BarrierSync, BindFlags, Format, PrimitiveTopology,
    ResourceStates, Span, SplitHalf,
};

use crate::syntax::ast::{BeforeAfter, Flags, SlotRange, SlotSet};
use crate::syntax::words;

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

pub(crate) fn bind_flags(flags: crate::syntax::ast::BindFlags) -> BindFlags {
    flags.iter().fold(BindFlags::NONE, |all, flag| {
        all | BindFlags::from_name(flag.name()).unwrap_or(BindFlags::NONE)
    })
}

pub(crate) fn semantics(semantics: words::Semantics) -> recorder::Semantics {
    match semantics {
        words::Semantics::Legacy => recorder::Semantics::Legacy,
        words::Semantics::Fast => recorder::Semantics::Fast,
    }
}

pub(crate) fn stage(stage: words::Stage) -> recorder::Stage {
    match stage {
        words::Stage::Vertex => recorder::Stage::Vertex,
        words::Stage::Hull => recorder::Stage::Hull,
        words::Stage::Domain => recorder::Stage::Domain,
        words::Stage::Geometry => recorder::Stage::Geometry,
        words::Stage::Pixel => recorder::Stage::Pixel,
        words::Stage::Compute => recorder::Stage::Compute,
    }
}

pub(crate) fn topology(topology: words::Topology) -> PrimitiveTopology {
    match topology {
        words::Topology::Undefined => PrimitiveTopology::Undefined,
        words::Topology::TriangleList => PrimitiveTopology::TriangleList,
        words::Topology::TriangleStrip => PrimitiveTopology::TriangleStrip,
        words::Topology::LineList => PrimitiveTopology::LineList,
        words::Topology::LineStrip => PrimitiveTopology::LineStrip,
        words::Topology::PointList => PrimitiveTopology::PointList,
    }
}

pub(crate) fn engine(engine: Option<words::Engine>) -> recorder::Engine {
    match engine {
        None | Some(words::Engine::Graphics) => recorder::Engine::Graphics,
        Some(words::Engine::Compute) => recorder::Engine::Compute,
        Some(words::Engine::Dma) => recorder::Engine::Dma,
    }
}

pub(crate) fn map_type(map_type: words::MapType) -> recorder::MapType {
    match map_type {
        words::MapType::WriteDiscard => recorder::MapType::WriteDiscard,
        words::MapType::WriteNoOverwrite => recorder::MapType::WriteNoOverwrite,
        words::MapType::Read => recorder::MapType::Read,
        words::MapType::Write => recorder::MapType::Write,
        words::MapType::ReadWrite => recorder::MapType::ReadWrite,
    }
}

/// `sync=` flags: the engine's bits of each word, ORed (the words are the engine's, one to one).
pub(crate) fn sync(side: &BeforeAfter<Flags<words::SyncWord>>) -> BeforeAfter<BarrierSync> {
    let one = |flags: &Flags<words::SyncWord>| {
        flags.0.iter().fold(BarrierSync::NONE, |all, word| {
            all | named(BarrierSync::NAMED, word.name()).unwrap_or(BarrierSync::NONE)
        })
    };
    BeforeAfter {
        before: one(&side.before),
        after: one(&side.after),
    }
}

/// `access=` flags, as [`sync`].
pub(crate) fn access(side: &BeforeAfter<Flags<words::AccessWord>>) -> BeforeAfter<BarrierAccess> {
    let one = |flags: &Flags<words::AccessWord>| {
        flags.0.iter().fold(BarrierAccess::COMMON, |all, word| {
            all | named(BarrierAccess::NAMED, word.name()).unwrap_or(BarrierAccess::COMMON)
        })
    };
    BeforeAfter {
        before: one(&side.before),
        after: one(&side.after),
    }
}

/// A legacy STATE: the engine's bits of each word, ORed.
pub(crate) fn states(flags: &Flags<words::StateWord>) -> ResourceStates {
    flags.0.iter().fold(ResourceStates::COMMON, |all, word| {
        all | named(ResourceStates::NAMED, word.name()).unwrap_or(ResourceStates::COMMON)
    })
}

fn named<T: Copy>(table: &[(&str, T)], word: &str) -> Option<T> {
    table
        .iter()
        .find(|(name, _)| *name == word)
        .map(|(_, v)| *v)
}

/// A layout word: the engine's layout of that name (`present` is `common`).
pub(crate) fn barrier_layout(word: words::LayoutWord) -> BarrierLayout {
    match word {
        words::LayoutWord::Present => BarrierLayout::PRESENT,
        word => BarrierLayout::ALL
            .iter()
            .copied()
            .find(|layout| layout.name() == word.name())
            .unwrap_or_default(),
    }
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

/// A `query` declaration's kind (R-FX-3).
pub(crate) fn query_kind(kind: words::QueryKindWord) -> recorder::QueryKind {
    match kind {
        words::QueryKindWord::Occlusion => recorder::QueryKind::Occlusion,
        words::QueryKindWord::Timestamp => recorder::QueryKind::Timestamp,
        words::QueryKindWord::PipelineStatistics => recorder::QueryKind::PipelineStatistics,
        words::QueryKindWord::Predicate => recorder::QueryKind::Predicate,
    }
}

/// A `configure_query` mode (R-FX-3).
pub(crate) fn query_mode(mode: words::QueryModeWord) -> recorder::QueryMode {
    match mode {
        words::QueryModeWord::Counting => recorder::QueryMode::Counting,
        words::QueryModeWord::Binary => recorder::QueryMode::Binary,
    }
}

pub(crate) fn split_half(split: words::SplitWord) -> SplitHalf {
    match split {
        words::SplitWord::Begin => SplitHalf::Begin,
        words::SplitWord::End => SplitHalf::End,
    }
}

pub(crate) fn compression(compression: words::Compression) -> recorder::Compression {
    match compression {
        words::Compression::Compressed => recorder::Compression::Compressed,
        words::Compression::Decompressed => recorder::Compression::Decompressed,
    }
}
