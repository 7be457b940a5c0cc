//! The symbol table the parser keeps while it reads a trace: which names are declared, as what.
//!
//! **In:** declarations, in trace order (`declare`), and `finish` on a bundle recorder
//! (`finish_bundle`). **Out:** for a name, its [`Kind`] and the line that declared it
//! (`lookup`), so that a statement naming an unknown object, or an object of the wrong kind, is
//! a parse error.
//!
//! **Invariants.** A name is declared once: a second declaration is an error, and a name stays
//! declared after `release` (using a released object is the engine's error, not the parser's).
//! No object may be named like a reserved word: a declaration keyword, `release`, `expect`, `imm`
//! or `null` (see `RESERVED`),
//! so the first token of a line always says what the line is.
//!
//! A swap chain of N buffers declares the textures `S.0 .. S.(N-1)` and the RTVs `S.K.rtv`
//! without storing them: `lookup` derives them from the swap chain, so `buffers=4000000000`
//! costs nothing. To refuse a swap chain whose derived names were already declared, `derived`
//! keeps, for each prefix `P`, the smallest `K` of any declared name `P.K` or `P.K.rtv`. Every
//! operation costs O(length of the name).

use std::collections::HashMap;

/// What an object of a trace is: the one kind the parser's symbol table and the replay's
/// program both use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ObjKind {
    Buffer,
    Texture,
    ShaderResourceView,
    UnorderedAccessView,
    RenderTargetView,
    DepthStencilView,
    Shader,
    InputLayout,
    BlendState,
    RasterizerState,
    DepthStencilState,
    SamplerState,
    Predicate,
    SwapChain,
    /// A deferred context.
    Context,
    /// A bundle recorder; once finished, also the bundle of the same name.
    BundleRecorder,
    CommandList,
    /// Declared by its first `insert_fence` or `insert_wait_on_fence`.
    Fence,
    /// A heap placed resources share (R-BAR-7).
    Heap,
    /// A device context state object (R-FX-6), declared by its `create_device_context_state`.
    ContextState,
}

impl ObjKind {
    /// The kind in words, for messages: "found texture 'albedo'".
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Self::Buffer => "buffer",
            Self::Texture => "texture",
            Self::ShaderResourceView => "shader-resource view",
            Self::UnorderedAccessView => "unordered-access view",
            Self::RenderTargetView => "render-target view",
            Self::DepthStencilView => "depth-stencil view",
            Self::Shader => "shader",
            Self::InputLayout => "input layout",
            Self::BlendState => "blend state",
            Self::RasterizerState => "rasterizer state",
            Self::DepthStencilState => "depth-stencil state",
            Self::SamplerState => "sampler state",
            Self::Predicate => "predicate",
            Self::SwapChain => "swap chain",
            Self::Context => "deferred context",
            Self::BundleRecorder => "bundle recorder",
            Self::CommandList => "command list",
            Self::Fence => "fence",
            Self::Heap => "heap",
            Self::ContextState => "device context state",
        }
    }

    /// Whether the engine makes the object: contexts, bundle recorders, lists and fences are
    /// made by the replay's own calls.
    pub(crate) fn is_engine_object(self) -> bool {
        !matches!(
            self,
            Self::Context
                | Self::BundleRecorder
                | Self::CommandList
                | Self::Fence
                | Self::ContextState
        )
    }
}

/// What an argument position takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    Buffer,
    /// RESOURCE: a buffer or a texture.
    Resource,
    ShaderResourceView,
    UnorderedAccessView,
    RenderTargetView,
    DepthStencilView,
    Shader,
    InputLayout,
    BlendState,
    RasterizerState,
    DepthStencilState,
    SamplerState,
    Predicate,
    Swapchain,
    CommandList,
    /// A finished bundle.
    Bundle,
    /// Any declared object (`release`, `expect error`).
    Any,
    /// A heap (`heap=` of a placed resource, R-BAR-7).
    Heap,
    /// A device context state object (R-FX-6).
    ContextState,
    /// A view of any kind (`place_swap_chain_view`, R-EX-7).
    View,
}

impl Want {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Self::Buffer => "a buffer",
            Self::Resource => "a buffer or texture",
            Self::ShaderResourceView => "a shader-resource view",
            Self::UnorderedAccessView => "an unordered-access view",
            Self::RenderTargetView => "a render-target view",
            Self::DepthStencilView => "a depth-stencil view",
            Self::Shader => "a shader",
            Self::InputLayout => "an input layout",
            Self::BlendState => "a blend state",
            Self::RasterizerState => "a rasterizer state",
            Self::DepthStencilState => "a depth-stencil state",
            Self::SamplerState => "a sampler state",
            Self::Predicate => "a predicate",
            Self::Swapchain => "a swap chain",
            Self::CommandList => "a command list",
            Self::Bundle => "a finished bundle",
            Self::Any => "a declared object",
            Self::Heap => "a heap",
            Self::ContextState => "a device context state (made by create_device_context_state)",
            Self::View => "a view",
        }
    }

    pub(crate) fn accepts(self, entry: Entry) -> bool {
        let kind = entry.kind;
        match self {
            Self::Buffer => kind == ObjKind::Buffer,
            Self::Resource => matches!(kind, ObjKind::Buffer | ObjKind::Texture),
            Self::ShaderResourceView => kind == ObjKind::ShaderResourceView,
            Self::UnorderedAccessView => kind == ObjKind::UnorderedAccessView,
            Self::RenderTargetView => kind == ObjKind::RenderTargetView,
            Self::DepthStencilView => kind == ObjKind::DepthStencilView,
            Self::Shader => kind == ObjKind::Shader,
            Self::InputLayout => kind == ObjKind::InputLayout,
            Self::BlendState => kind == ObjKind::BlendState,
            Self::RasterizerState => kind == ObjKind::RasterizerState,
            Self::DepthStencilState => kind == ObjKind::DepthStencilState,
            Self::SamplerState => kind == ObjKind::SamplerState,
            Self::Predicate => kind == ObjKind::Predicate,
            Self::Swapchain => kind == ObjKind::SwapChain,
            Self::CommandList => kind == ObjKind::CommandList,
            Self::Bundle => entry.is_bundle(),
            Self::Any => true,
            Self::Heap => kind == ObjKind::Heap,
            Self::ContextState => kind == ObjKind::ContextState,
            Self::View => matches!(
                kind,
                ObjKind::ShaderResourceView
                    | ObjKind::UnorderedAccessView
                    | ObjKind::RenderTargetView
                    | ObjKind::DepthStencilView
            ),
        }
    }
}

/// Declaration keywords a later version of the format added (docs/TRACE.md "Lexical rules"): the
/// word, the format version that added it, and what it declares. A trace written before then
/// may use the word as a name; the error says so, so that its author knows what to rename.
pub(crate) const LATER_KEYWORDS: &[(&str, u32, &str)] = &[("query", 2, "a query (R-FX-3)")];

/// Words no object may be named (docs/TRACE.md "Lexical rules"): `imm null expect release` and the
/// declaration keywords, `heap` among them, and those of [`LATER_KEYWORDS`].
pub(crate) const RESERVED: &[&str] = &[
    "device",
    "buffer",
    "texture",
    "srv",
    "uav",
    "rtv",
    "dsv",
    "shader",
    "input_layout",
    "blend_state",
    "rasterizer_state",
    "depth_stencil_state",
    "sampler_state",
    "predicate",
    "query",
    "swapchain",
    "context",
    "bundle",
    "heap",
    "release",
    "expect",
    "imm",
    "null",
];

/// A declared name's kind and the line of its declaration (the swap chain's, for its textures
/// and RTVs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub kind: ObjKind,
    pub line: usize,
    /// A swap chain's buffers (its derived names `P.K`, `P.K.rtv` for `K` below); 0 otherwise.
    buffers: u64,
    /// A bundle recorder that was finished: the bundle exists.
    finished: bool,
}

impl Entry {
    fn new(kind: ObjKind, line: usize) -> Self {
        Self {
            kind,
            line,
            buffers: 0,
            finished: false,
        }
    }

    /// A finished bundle recorder: the bundle of the same name.
    pub(crate) fn is_bundle(self) -> bool {
        self.kind == ObjKind::BundleRecorder && self.finished
    }

    /// A bundle recorder not finished yet.
    pub(crate) fn is_unfinished_bundle(self) -> bool {
        self.kind == ObjKind::BundleRecorder && !self.finished
    }

    /// What the name is, in words: its kind's, "bundle" once a bundle recorder is finished.
    pub(crate) fn describe(self) -> &'static str {
        match self.is_bundle() {
            true => "bundle",
            false => self.kind.describe(),
        }
    }
}

/// The smallest `K` declared as `P.K` or `P.K.rtv` under one prefix `P`.
#[derive(Clone, Copy, Debug)]
struct Derived {
    k: u64,
    rtv: bool,
    line: usize,
}

#[derive(Debug, Default)]
pub(crate) struct Symbols {
    names: HashMap<String, Entry>,
    derived: HashMap<String, Derived>,
}

/// `P.K` → `(P, K, false)`, `P.K.rtv` → `(P, K, true)`, K canonical decimal (no leading zero).
pub(crate) fn split_derived(name: &str) -> Option<(&str, u64, bool)> {
    let (base, rtv) = match name.strip_suffix(".rtv") {
        Some(base) => (base, true),
        None => (name, false),
    };
    let dot = base.rfind('.')?;
    let (prefix, k) = (&base[..dot], &base[dot + 1..]);
    let canonical = !k.is_empty()
        && k.bytes().all(|b| b.is_ascii_digit())
        && (k.len() == 1 || !k.starts_with('0'));
    if prefix.is_empty() || !canonical {
        return None;
    }
    Some((prefix, k.parse().ok()?, rtv))
}

impl Symbols {
    pub(crate) fn lookup(&self, name: &str) -> Option<Entry> {
        if let Some(entry) = self.names.get(name) {
            return Some(*entry);
        }
        let (prefix, k, rtv) = split_derived(name)?;
        let chain = self.names.get(prefix)?;
        let kind = match rtv {
            true => ObjKind::RenderTargetView,
            false => ObjKind::Texture,
        };
        (chain.kind == ObjKind::SwapChain && k < chain.buffers)
            .then(|| Entry::new(kind, chain.line))
    }

    /// Declares `name` as `kind` on `line`; the error message says why it cannot be.
    pub(crate) fn declare(&mut self, name: &str, kind: ObjKind, line: usize) -> Result<(), String> {
        self.enter(name, Entry::new(kind, line))
    }

    /// Declares `name` as a swap chain of `buffers` buffers on `line` (its textures and RTVs
    /// with it); the error message says why it cannot be.
    pub(crate) fn declare_swap_chain(
        &mut self,
        name: &str,
        buffers: u64,
        line: usize,
    ) -> Result<(), String> {
        self.enter(
            name,
            Entry {
                buffers,
                ..Entry::new(ObjKind::SwapChain, line)
            },
        )
    }

    fn enter(&mut self, name: &str, entry: Entry) -> Result<(), String> {
        let Entry { kind, line, .. } = entry;
        if RESERVED.contains(&name) {
            return Err(reserved_word(name));
        }
        if let Some(entry) = self.lookup(name) {
            return Err(format!(
                "'{name}' is already declared ({} on line {})",
                entry.describe(),
                entry.line
            ));
        }
        if kind == ObjKind::SwapChain {
            let buffers = entry.buffers;
            if let Some(clash) = self.derived.get(name).filter(|d| d.k < buffers) {
                let suffix = if clash.rtv { ".rtv" } else { "" };
                return Err(format!(
                    "swap chain '{name}' of {buffers} buffers would declare '{name}.{}{suffix}', \
                     already declared on line {}",
                    clash.k, clash.line
                ));
            }
        }
        if let Some((prefix, k, rtv)) = split_derived(name) {
            let lowest = self
                .derived
                .entry(prefix.to_owned())
                .or_insert(Derived { k, rtv, line });
            if k < lowest.k {
                *lowest = Derived { k, rtv, line };
            }
        }
        self.names.insert(name.to_owned(), entry);
        Ok(())
    }

    /// `finish` on bundle recorder `name`: the bundle exists from now on.
    pub(crate) fn finish_bundle(&mut self, name: &str) {
        if let Some(entry) = self.names.get_mut(name) {
            entry.finished = entry.kind == ObjKind::BundleRecorder;
        }
    }
}

/// Why `name`, a reserved word, cannot name an object; a keyword of a later version says which
/// version added it.
pub(crate) fn reserved_word(name: &str) -> String {
    match LATER_KEYWORDS.iter().find(|(word, ..)| *word == name) {
        Some((word, version, declares)) => format!(
            "'{word}' is a reserved word since version {version} of the trace format (it \
             declares {declares}; docs/TRACE.md lists the keywords each version added) and \
             cannot name an object: rename it in this trace"
        ),
        None => format!(
            "'{name}' is a reserved word (imm, null, expect, release and the declaration \
             keywords) and cannot name an object"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swapchain_names_are_derived() {
        let mut symbols = Symbols::default();
        symbols.declare_swap_chain("sc", 2, 1).unwrap();
        assert_eq!(symbols.lookup("sc.1").unwrap().kind, ObjKind::Texture);
        assert_eq!(
            symbols.lookup("sc.0.rtv").unwrap().kind,
            ObjKind::RenderTargetView
        );
        assert!(symbols.lookup("sc.2").is_none());
        assert!(symbols.lookup("sc.01").is_none());
        assert!(symbols.declare("sc.1", ObjKind::Buffer, 2).is_err());
        symbols.declare("sc.2.rtv", ObjKind::Buffer, 3).unwrap();
        symbols.declare("other.5.rtv", ObjKind::Buffer, 4).unwrap();
        assert!(symbols.declare_swap_chain("other", 6, 5).is_err());
        symbols.declare_swap_chain("other", 5, 5).unwrap();
    }
}
