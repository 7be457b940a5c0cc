//! The word tables: how a trace (docs/TRACE.md) and a report name each of the engine's closed
//! vocabularies. One table per enum or flag set, kept beside the type it names, so the trace
//! reads and writes the engine's own values and no second copy of a vocabulary exists.
//!
//! **In:** a word. **Out:** the value it names ([`WordTable::WORDS`], `from_name`, [`FromStr`]),
//! and back the value's word (`name`, `Display`).
//!
//! **Invariants.** Each value has one canonical word, which `name` and `Display` give, and
//! `from_name(v.name()) == Some(v)`. A table may also list aliases, words that parse to a value
//! already named (`present` is `common`, as in D3D12): they are in [`WordTable::WORDS`] after
//! the canonical words and are never printed for the value. Where a caller must keep which
//! spelling was written (the trace prints a barrier as it was written), it holds a [`Word`], one
//! entry of the table, instead of the value.
//!
//! `word_table!` gives an enum its table; the flag sets' tables are their `NAMED` lists
//! (`barriers/barrier_values.rs`, [`BindFlags`](crate::BindFlags)), which list aliases in the
//! D3D12 enumerators' order.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

/// A type whose values have words: every word and the value it names.
pub trait WordTable: Copy + PartialEq + 'static {
    /// Every word and its value, in the order a list of choices gives them; an alias (a second
    /// word for a value) appears under each of its words.
    const WORDS: &'static [(&'static str, Self)];

    /// `a|b|c`: every word of the table, for messages that list the choices.
    fn choices() -> String {
        let words: Vec<&str> = Self::WORDS.iter().map(|(word, _)| *word).collect();
        words.join("|")
    }
}

/// A word that names no value of a table: what [`FromStr`](std::str::FromStr) of a
/// `word_table!` enum returns.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown word '{word}' (expected one of {choices})")]
pub struct UnknownWord {
    /// The word given.
    pub word: String,
    /// The table's words, `a|b|c`.
    pub choices: String,
}

/// Gives an enum its word table: `ALL`, `name`, `from_name`, `choices`, [`WordTable`],
/// `Display` and `FromStr`. Each variant has one canonical word and, after `|`, any aliases.
/// The match in `name` is exhaustive: a variant without a word does not compile.
macro_rules! word_table {
    ($name:ident { $($variant:ident => $word:literal $(| $alias:literal)*,)* }) => {
        impl $name {
            /// Every value, in the order of its word table (the order docs/TRACE.md lists the
            /// words).
            pub const ALL: [Self; <[&str]>::len(&[$($word),*])] = [$(Self::$variant),*];

            /// The value's word, as traces and reports write it.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $word,)*
                }
            }

            /// The value `word` names (its canonical word or an alias), if any.
            pub fn from_name(word: &str) -> Option<Self> {
                match word {
                    $($word $(| $alias)* => Some(Self::$variant),)*
                    _ => None,
                }
            }

            /// `a|b|c`: every word, aliases last, for messages.
            pub fn choices() -> String {
                <Self as $crate::WordTable>::choices()
            }
        }

        impl $crate::WordTable for $name {
            const WORDS: &'static [(&'static str, Self)] = &[
                $(($word, Self::$variant),)*
                $($(($alias, Self::$variant),)*)*
            ];
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::UnknownWord;
            fn from_str(word: &str) -> Result<Self, Self::Err> {
                Self::from_name(word).ok_or_else(|| $crate::UnknownWord {
                    word: word.to_owned(),
                    choices: Self::choices(),
                })
            }
        }
    };
}
pub(crate) use word_table;

/// One entry of `T`'s word table: a value with the word that named it, an alias kept apart
/// from its canonical word (`predication` is not printed back as `execute_indirect`). Two
/// `Word`s are equal when they are the same entry.
pub struct Word<T: WordTable> {
    index: u16,
    table: PhantomData<fn() -> T>,
}

impl<T: WordTable> Word<T> {
    fn at(index: usize) -> Self {
        Self {
            index: index as u16,
            table: PhantomData,
        }
    }

    /// The entry whose word is `word`, if any.
    pub fn from_name(word: &str) -> Option<Self> {
        T::WORDS
            .iter()
            .position(|(name, _)| *name == word)
            .map(Self::at)
    }

    /// Every entry, in the table's order.
    pub fn all() -> Vec<Self> {
        (0..T::WORDS.len()).map(Self::at).collect()
    }

    /// The canonical word of `value`: its first entry, if it has one.
    pub fn of(value: T) -> Option<Self> {
        T::WORDS.iter().position(|(_, v)| *v == value).map(Self::at)
    }

    /// The word as written.
    pub fn name(self) -> &'static str {
        T::WORDS[self.index as usize].0
    }

    /// The value it names.
    pub fn value(self) -> T {
        T::WORDS[self.index as usize].1
    }

    /// `a|b|c`: every word of `T`'s table, for messages.
    pub fn choices() -> String {
        T::choices()
    }
}

impl<T: WordTable> Clone for Word<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: WordTable> Copy for Word<T> {}

impl<T: WordTable> PartialEq for Word<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl<T: WordTable> Eq for Word<T> {}

impl<T: WordTable> Hash for Word<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

impl<T: WordTable> fmt::Debug for Word<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl<T: WordTable> fmt::Display for Word<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use crate::{BarrierAccess, BarrierLayout, BarrierSync, ResourceStates, Stage, Word};

    #[test]
    fn every_value_names_itself_back() {
        for stage in Stage::ALL {
            assert_eq!(Stage::from_name(stage.name()), Some(stage));
            assert_eq!(stage.name().parse::<Stage>(), Ok(stage));
        }
        for layout in BarrierLayout::ALL {
            assert_eq!(BarrierLayout::from_name(layout.name()), Some(layout));
        }
    }

    #[test]
    fn aliases_parse_to_the_canonical_value_and_stay_apart_as_words() {
        assert_eq!(
            BarrierLayout::from_name("present"),
            Some(BarrierLayout::Common)
        );
        assert_eq!(BarrierLayout::Common.name(), "common");
        assert!(BarrierLayout::choices().ends_with("|present"));
        let predication = Word::<BarrierSync>::from_name("predication").unwrap();
        assert_eq!(predication.value(), BarrierSync::EXECUTE_INDIRECT);
        assert_eq!(predication.name(), "predication");
        assert_ne!(Some(predication), Word::of(BarrierSync::EXECUTE_INDIRECT));
        let access = Word::<BarrierAccess>::from_name("predication").unwrap();
        assert_eq!(access.value(), BarrierAccess::INDIRECT_ARGUMENT);
        let present = Word::<ResourceStates>::from_name("present").unwrap();
        assert_eq!(present.value(), ResourceStates::COMMON);
        assert_eq!(Word::of(ResourceStates::COMMON).unwrap().name(), "common");
    }

    #[test]
    fn an_unknown_word_lists_the_choices() {
        let error = "xs".parse::<Stage>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown word 'xs' (expected one of vs|hs|ds|gs|ps|cs)"
        );
    }
}
