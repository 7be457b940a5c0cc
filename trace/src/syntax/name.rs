//! The leaves of the tree that every other part of it names: an object's [`Name`] and a
//! [`Format`] name, both words of the name grammar `[A-Za-z_][A-Za-z0-9_.]*`.
//!
//! **In:** a token. **Out:** the name, if the token has the grammar (`None` otherwise). Nothing
//! here knows whether a name is declared (`symbols.rs`) or a format exists (the replay).

/// An object name, `[A-Za-z_][A-Za-z0-9_.]*`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(String);

impl Name {
    /// The name, if `text` is one (`None` for `2x`, `a-b`, the empty string).
    ///
    /// ```
    /// # use trace::Name;
    /// assert_eq!(Name::new("sc.0.rtv").unwrap().as_str(), "sc.0.rtv");
    /// assert!(Name::new("0sc").is_none());
    /// ```
    pub fn new(text: &str) -> Option<Self> {
        is_name(text).then(|| Self(text.to_owned()))
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether `text` has the name grammar.
pub(crate) fn is_name(text: &str) -> bool {
    let bytes = text.as_bytes();
    match bytes.first() {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {}
        _ => return false,
    }
    // A plain loop: names can be megabytes long, and debug builds run adapters slowly.
    let mut at = 1;
    while at < bytes.len() {
        let b = bytes[at];
        if !matches!(b, b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'.') {
            return false;
        }
        at += 1;
    }
    true
}

/// A format name (`r8g8b8a8_unorm`). Formats compare by name; the parser takes any word with
/// the name grammar and leaves unknown formats to the replay.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Format(String);

impl Format {
    /// The format name, if `text` has the name grammar (whether the engine knows the format is the
    /// replay's question).
    pub fn new(text: &str) -> Option<Self> {
        is_name(text).then(|| Self(text.to_owned()))
    }

    /// The format name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}
