//! The module import graph of a package, built from its sources, and the circles in it; shared by
//! every crate's `layout_import_graph` test (`#[path = "../../recorder/tests/import_graph/mod.rs"]
//! mod import_graph;`), std only. Also the check that every file name is unique in the workspace.
//!
//! **In:** a package directory. Its crate roots are `src/lib.rs`, `src/main.rs`, `src/bin/*.rs`,
//! `src/bin/*/main.rs` and `examples/*.rs`; from each, the `mod` declarations are followed to
//! files (`name.rs`, `name/mod.rs`, or a `#[path]`). **Out:** the edges between files, each with
//! the line that made it, and the circles: the strongly connected components of more than one
//! file, each listed with its edges.
//!
//! **The rule.** A node is a file: `foo.rs`, `foo/mod.rs` and `foo/bar.rs` are three nodes (an
//! inline `mod x { .. }` belongs to its file). File A depends on file B when A's code names an
//! item defined in B:
//!
//! - a `use` of an item (`use crate::list::CommandList;`, `use super::encode::*;`, `use
//!   crate::{device::Device, list};`) is an edge to the file that defines the item; a `use` that
//!   only names a module (`use crate::command;`) is not an edge by itself, but the paths written
//!   through it are (`command::encode::CommandBytes`);
//! - a path in code that starts at `crate::`, `super::`, `self::`, a child module or a name a
//!   `use` brought in (`crate::device::DeviceInner::new`, `super::Header`, `encode::write(..)`)
//!   is an edge to the file that defines what it names;
//! - **re-exports are followed**: `crate::Device`, where `lib.rs` has `pub use device::Device`,
//!   is an edge to `device.rs`, not to `lib.rs`; through `pub use x::*` too (the names a glob
//!   import brings in are looked up among the identifiers the file uses, so `use crate::command::*`
//!   is an edge to each file whose items the importing file names). A `pub use` is not an edge of
//!   the file that writes it, unless that file also names what it re-exports in its own code;
//! - **a `mod child;` declaration is not an edge.** Declaring a child is containment, not use;
//!   a parent that uses its child's items gets the edge from that use, like any file;
//! - **a file and its own folder may use each other.** `gpu.rs` declares `gpu/barrier.rs` and
//!   holds its `Barriers`; `gpu/barrier.rs` implements `gpu.rs`'s `GpuModel`: the ordinary shape
//!   of a module split over files, and not a circle. So the circles are looked for twice, once
//!   without the edges from a file down into its descendants (the files it declares, and
//!   theirs), once without the edges from a file up to its ancestors, and each circle either
//!   pass finds is reported. A circle among siblings or unrelated files is found by both; one
//!   through a file's folder and out (`gpu.rs -> gpu/barrier.rs -> immediate.rs -> gpu.rs`) by
//!   one. Not found: a circle that goes both up and down, `a.rs -> (parent) -> b.rs -> a.rs` for
//!   two siblings, where the parent is what ties them;
//! - `#[cfg(test)]` items are left out (a test module reads its parent by design), comments and
//!   string literals are skipped, and paths into other crates (`std::`, `recorder::`) are not
//!   edges of this graph.
//!
//! The parser reads tokens, not a syntax tree: it knows `use` trees, `mod`, `pub(..)`, the items
//! a module defines at its top (`struct`, `enum`, `trait`, `type`, `fn`, `const`, `static`,
//! `union`, `macro_rules!`) and paths. A name it cannot place in the module a path reaches is
//! taken to be defined there (a macro-made item, say), which errs towards an edge.

#![allow(dead_code)] // each test uses part of it

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One token: an identifier or keyword, a punctuation mark (`::` is one), or a string literal
/// (kept for `#[path = ".."]`); numbers, characters and lifetimes are dropped.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Punct(&'static str),
    Str(String),
}

#[derive(Clone, Debug)]
struct Lexed {
    token: Token,
    line: usize,
}

fn lex(src: &str) -> Vec<Lexed> {
    let chars: Vec<char> = src.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
            }
        } else if let Some(start) = raw_string_start(&chars, i) {
            // r"..", r#".."#, br".." and cr"..": no escapes, closed by the same number of #.
            let hashes = (start..).take_while(|&j| at(j) == '#').count();
            let mut j = start + hashes + 1;
            let begin = j;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#') {
                    break;
                }
                line += usize::from(chars[j] == '\n');
                j += 1;
            }
            out.push(Lexed {
                token: Token::Str(chars[begin..j.min(chars.len())].iter().collect()),
                line,
            });
            i = j + 1 + hashes;
        } else if c == '"' || ((c == 'b' || c == 'c') && at(i + 1) == '"') {
            let mut j = if c == '"' { i + 1 } else { i + 2 };
            let begin = j;
            while j < chars.len() && chars[j] != '"' {
                if chars[j] == '\\' {
                    j += 1;
                }
                line += usize::from(at(j) == '\n');
                j += 1;
            }
            out.push(Lexed {
                token: Token::Str(chars[begin..j.min(chars.len())].iter().collect()),
                line,
            });
            i = j + 1;
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let j = if c == '\'' { i + 1 } else { i + 2 };
            if at(j) == '\\' {
                // An escaped character: up to its closing quote.
                let mut k = j + 2;
                while k < chars.len() && chars[k] != '\'' {
                    k += 1;
                }
                i = k + 1;
            } else if at(j + 1) == '\'' {
                i = j + 2; // 'x'
            } else {
                // A lifetime or a label: the quote and its name.
                let mut k = j;
                while k < chars.len() && (chars[k].is_alphanumeric() || chars[k] == '_') {
                    k += 1;
                }
                i = k;
            }
        } else if c.is_alphabetic() || c == '_' {
            let mut j = i;
            if c == 'r' && at(i + 1) == '#' && (at(i + 2).is_alphabetic() || at(i + 2) == '_') {
                j = i + 2; // a raw identifier: r#type
            }
            let begin = j;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            out.push(Lexed {
                token: Token::Ident(chars[begin..j].iter().collect()),
                line,
            });
            i = j;
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Lexed {
                token: Token::Punct("::"),
                line,
            });
            i += 2;
        } else {
            const MARKS: &[&str] = &[
                "{", "}", "(", ")", "[", "]", ";", ",", "*", "#", "!", "$", "=", "<", ">", ":",
            ];
            let text = c.to_string();
            let mark = MARKS.iter().find(|m| **m == text).copied().unwrap_or(".");
            out.push(Lexed {
                token: Token::Punct(mark),
                line,
            });
            i += 1;
        }
    }
    out
}

/// Where a raw string's `#`s or quote start, if one starts at `i`.
fn raw_string_start(chars: &[char], i: usize) -> Option<usize> {
    let at = |j: usize| chars.get(j).copied().unwrap_or('\0');
    let r = match at(i) {
        'r' => i,
        'b' | 'c' if at(i + 1) == 'r' => i + 1,
        _ => return None,
    };
    // Not the tail of an identifier (`bar"` is not a raw string; identifiers are lexed whole).
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return None;
    }
    let hashes = (r + 1..).take_while(|&j| at(j) == '#').count();
    (at(r + 1 + hashes) == '"').then_some(r + 1)
}

fn is(token: Option<&Lexed>, text: &str) -> bool {
    match token.map(|t| &t.token) {
        Some(Token::Ident(s)) => s == text,
        Some(Token::Punct(p)) => *p == text,
        _ => false,
    }
}

fn ident(token: Option<&Lexed>) -> Option<&str> {
    match token.map(|t| &t.token) {
        Some(Token::Ident(s)) => Some(s),
        _ => None,
    }
}

/// The tokens with every `#[cfg(test)]` item taken out.
fn without_test_items(tokens: Vec<Lexed>) -> Vec<Lexed> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let cfg_test = ["#", "[", "cfg", "(", "test", ")", "]"]
            .iter()
            .enumerate()
            .all(|(k, text)| is(tokens.get(i + k), text));
        if !cfg_test {
            out.push(tokens[i].clone());
            i += 1;
            continue;
        }
        i += 7;
        // Further attributes, then the item: up to its `;` or its closing brace.
        let mut depth = 0usize;
        let mut opened_brace = false;
        while i < tokens.len() {
            let text = match &tokens[i].token {
                Token::Punct(p) => *p,
                _ => "",
            };
            i += 1;
            match text {
                "(" | "[" => depth += 1,
                "{" => {
                    depth += 1;
                    opened_brace = true;
                }
                ")" | "]" => depth = depth.saturating_sub(1),
                "}" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 && opened_brace {
                        break;
                    }
                }
                ";" if depth == 0 => break,
                _ => {}
            }
        }
    }
    out
}

/// One name a `use` declaration binds (or a glob it opens).
#[derive(Clone, Debug)]
struct Use {
    /// The inline module it is written in, within its file (empty at the file's top).
    scope: Vec<String>,
    path: Vec<String>,
    /// The name it binds (`None` for a glob).
    binds: Option<String>,
    public: bool,
    line: usize,
}

/// What the parser keeps of one file.
#[derive(Debug, Default)]
struct Parsed {
    /// `mod NAME;` declarations: scope, name, `#[path]`.
    declared: Vec<(Vec<String>, String, Option<String>)>,
    /// Inline `mod NAME { .. }` scopes.
    inline: Vec<Vec<String>>,
    uses: Vec<Use>,
    /// Paths written in code: scope, segments, line.
    paths: Vec<(Vec<String>, Vec<String>, usize)>,
    /// Items defined at the top of each scope.
    defined: BTreeMap<Vec<String>, BTreeSet<String>>,
    /// Every identifier the file's code uses outside `use` declarations.
    used: BTreeSet<String>,
}

fn parse(src: &str) -> Parsed {
    let tokens = without_test_items(lex(src));
    let mut parsed = Parsed::default();
    // (inline module name, the brace depth inside it)
    let mut scopes: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_path: Option<String> = None;
    let scope_of = |scopes: &[(String, usize)]| -> Vec<String> {
        scopes.iter().map(|(name, _)| name.clone()).collect()
    };
    let mut i = 0;
    while i < tokens.len() {
        let here = &tokens[i];
        match &here.token {
            Token::Punct("{") => depth += 1,
            Token::Punct("}") => {
                if scopes.last().is_some_and(|(_, d)| *d == depth) {
                    scopes.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Token::Punct("#") if is(tokens.get(i + 1), "[") && is(tokens.get(i + 2), "path") => {
                if let Some(Lexed {
                    token: Token::Str(s),
                    ..
                }) = tokens.get(i + 4)
                {
                    pending_path = Some(s.clone());
                }
            }
            Token::Ident(word) if word == "pub" && is(tokens.get(i + 1), "(") => {
                // `pub(crate)`, `pub(in crate::x)`: a visibility, not a path.
                while i < tokens.len() && !is(tokens.get(i), ")") {
                    i += 1;
                }
            }
            Token::Ident(word) if word == "use" => {
                let public = is(tokens.get(i.wrapping_sub(1)), "pub")
                    || (is(tokens.get(i.wrapping_sub(1)), ")") && {
                        let mut k = i - 1;
                        while k > 0 && !is(tokens.get(k), "(") {
                            k -= 1;
                        }
                        is(tokens.get(k.wrapping_sub(1)), "pub")
                    });
                let line = here.line;
                i += 1;
                let scope = scope_of(&scopes);
                let mut bound = Vec::new();
                use_tree(&tokens, &mut i, Vec::new(), &mut bound);
                while i < tokens.len() && !is(tokens.get(i), ";") {
                    i += 1;
                }
                for (path, binds) in bound {
                    parsed.uses.push(Use {
                        scope: scope.clone(),
                        path,
                        binds,
                        public,
                        line,
                    });
                }
            }
            Token::Ident(word) if word == "mod" => {
                if let Some(name) = ident(tokens.get(i + 1)) {
                    let name = name.to_string();
                    let mut scope = scope_of(&scopes);
                    if is(tokens.get(i + 2), ";") {
                        parsed.declared.push((scope, name, pending_path.take()));
                        i += 3;
                        continue;
                    }
                    if is(tokens.get(i + 2), "{") {
                        depth += 1;
                        scopes.push((name.clone(), depth));
                        scope.push(name);
                        parsed.inline.push(scope);
                        i += 3;
                        continue;
                    }
                }
            }
            Token::Ident(word) => {
                let defines = matches!(
                    word.as_str(),
                    "struct" | "enum" | "trait" | "type" | "fn" | "const" | "static" | "union"
                );
                let at_top = scopes.last().map_or(0, |(_, d)| *d) == depth;
                // `*const u8` and `<const N: usize>` define nothing.
                let before = tokens.get(i.wrapping_sub(1));
                let pointer_or_generic = is(before, "*") || is(before, "<") || is(before, ",");
                if defines && at_top && !pointer_or_generic {
                    if let Some(name) = ident(tokens.get(i + 1)).filter(|n| *n != "fn") {
                        parsed
                            .defined
                            .entry(scope_of(&scopes))
                            .or_default()
                            .insert(name.to_string());
                    }
                }
                if word == "macro_rules" && is(tokens.get(i + 1), "!") {
                    if let Some(name) = ident(tokens.get(i + 2)) {
                        parsed
                            .defined
                            .entry(scope_of(&scopes))
                            .or_default()
                            .insert(name.to_string());
                    }
                }
                parsed.used.insert(word.clone());
                // A path starts here: `a::b::c`, not preceded by `::` or `$` (`$crate::`).
                let starts = is(tokens.get(i + 1), "::")
                    && !is(tokens.get(i.wrapping_sub(1)), "::")
                    && !is(tokens.get(i.wrapping_sub(1)), "$");
                if starts {
                    let mut segments = vec![word.clone()];
                    let mut k = i + 1;
                    while is(tokens.get(k), "::") {
                        match ident(tokens.get(k + 1)) {
                            Some(next) => {
                                segments.push(next.to_string());
                                k += 2;
                            }
                            None => break,
                        }
                    }
                    for segment in &segments {
                        parsed.used.insert(segment.clone());
                    }
                    parsed.paths.push((scope_of(&scopes), segments, here.line));
                    i = k;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    parsed
}

/// Reads one `use` tree from `tokens[*i]`, appending (path, bound name) pairs; a glob binds `None`.
fn use_tree(
    tokens: &[Lexed],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix;
    if is(tokens.get(*i), "::") {
        // `use ::name`: another crate.
        path.push("::".to_string());
        *i += 1;
    }
    loop {
        if is(tokens.get(*i), "{") {
            *i += 1;
            while *i < tokens.len() && !is(tokens.get(*i), "}") {
                use_tree(tokens, i, path.clone(), out);
                if is(tokens.get(*i), ",") {
                    *i += 1;
                }
            }
            *i += 1;
            return;
        }
        if is(tokens.get(*i), "*") {
            *i += 1;
            out.push((path, None));
            return;
        }
        let Some(name) = ident(tokens.get(*i)) else {
            return;
        };
        let name = name.to_string();
        *i += 1;
        if is(tokens.get(*i), "::") {
            path.push(name);
            *i += 1;
            continue;
        }
        let mut binds = if name == "self" {
            path.last().cloned().unwrap_or_default()
        } else {
            path.push(name.clone());
            name
        };
        if is(tokens.get(*i), "as") {
            if let Some(alias) = ident(tokens.get(*i + 1)) {
                binds = alias.to_string();
            }
            *i += 2;
        }
        out.push((path, Some(binds)));
        return;
    }
}

/// A module of the crate: the file it is written in and what it holds.
#[derive(Debug, Default)]
struct Module {
    file: String,
    children: BTreeSet<String>,
    uses: Vec<Use>,
    defined: BTreeSet<String>,
}

/// What a path names: a module, or an item of a module.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    Module(Vec<String>),
    Item(Vec<String>),
}

/// One crate: its modules by path (the root is `[]`), and each file's parse.
#[derive(Default)]
struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    files: BTreeMap<String, (Vec<String>, Parsed)>,
}

impl Crate {
    fn load(package: &Path, root: &Path) -> Crate {
        let mut krate = Crate::default();
        krate.load_file(package, root, Vec::new(), true);
        krate
    }

    fn load_file(&mut self, package: &Path, file: &Path, module: Vec<String>, root: bool) {
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
        let parsed = parse(&text);
        let name = relative(package, file);
        let dir = file.parent().expect("a file's directory").to_path_buf();
        let stem = file.file_stem().expect("a file name").to_string_lossy();
        // A root or a mod.rs declares its children beside it; foo.rs in foo/.
        let children_dir = if root || stem == "mod" {
            dir.clone()
        } else {
            dir.join(&*stem)
        };
        let mut scopes = vec![Vec::new()];
        scopes.extend(parsed.inline.iter().cloned());
        for scope in &scopes {
            let mut path = module.clone();
            path.extend(scope.iter().cloned());
            let entry = self.modules.entry(path.clone()).or_default();
            entry.file = name.clone();
            entry.defined = parsed.defined.get(scope).cloned().unwrap_or_default();
            entry.uses = parsed
                .uses
                .iter()
                .filter(|u| &u.scope == scope)
                .cloned()
                .collect();
            if let Some((last, parent)) = path.split_last() {
                if !scope.is_empty() {
                    self.modules
                        .entry(parent.to_vec())
                        .or_default()
                        .children
                        .insert(last.clone());
                }
            }
        }
        let declared = parsed.declared.clone();
        self.files.insert(name.clone(), (module.clone(), parsed));
        for (scope, child, path_attribute) in declared {
            let child_file = match path_attribute {
                Some(p) => dir.join(p),
                None => {
                    let mut base = children_dir.clone();
                    for part in &scope {
                        base.push(part);
                    }
                    let flat = base.join(format!("{child}.rs"));
                    if flat.exists() {
                        flat
                    } else {
                        base.join(&child).join("mod.rs")
                    }
                }
            };
            let mut path = module.clone();
            path.extend(scope.iter().cloned());
            self.modules
                .entry(path.clone())
                .or_default()
                .children
                .insert(child.clone());
            path.push(child);
            self.load_file(package, &child_file, path, false);
        }
    }

    /// What `name` is in `module`: a child module, a name a `use` binds, an item it defines, or
    /// a name one of its glob imports brings in.
    fn lookup(
        &self,
        module: &[String],
        name: &str,
        seen: &mut BTreeSet<(Vec<String>, String)>,
    ) -> Option<Target> {
        if !seen.insert((module.to_vec(), name.to_string())) {
            return None;
        }
        let m = self.modules.get(module)?;
        if m.children.contains(name) {
            let mut path = module.to_vec();
            path.push(name.to_string());
            return Some(Target::Module(path));
        }
        if let Some(u) = m.uses.iter().find(|u| u.binds.as_deref() == Some(name)) {
            return self.resolve(module, &u.path, seen);
        }
        if m.defined.contains(name) {
            return Some(Target::Item(module.to_vec()));
        }
        for u in m.uses.iter().filter(|u| u.binds.is_none()) {
            if let Some(Target::Module(glob)) = self.resolve(module, &u.path, seen) {
                if let Some(found) = self.lookup(&glob, name, seen) {
                    return Some(found);
                }
            }
        }
        None
    }

    /// What a path written in `module` names; `None` for another crate's.
    fn resolve(
        &self,
        module: &[String],
        path: &[String],
        seen: &mut BTreeSet<(Vec<String>, String)>,
    ) -> Option<Target> {
        let first = path.first()?;
        let (mut current, rest) = match first.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (module.to_vec(), &path[1..]),
            "super" => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                let up_to = module.len().checked_sub(ups)?;
                (module[..up_to].to_vec(), &path[ups..])
            }
            name => match self.lookup(module, name, seen)? {
                Target::Module(m) => (m, &path[1..]),
                item => return Some(item),
            },
        };
        for segment in rest {
            if segment == "self" {
                continue;
            }
            match self.lookup(&current, segment, seen) {
                Some(Target::Module(m)) => current = m,
                Some(item) => return Some(item),
                // Not placed (a macro-made item, a variant): taken to be this module's.
                None => return Some(Target::Item(current)),
            }
        }
        Some(Target::Module(current))
    }

    /// The file an item target is defined in.
    fn file_of(&self, module: &[String]) -> Option<&str> {
        self.modules.get(module).map(|m| m.file.as_str())
    }

    /// Every edge of the crate: (from file, to file) -> the first line that made it.
    fn edges(&self, out: &mut BTreeMap<(String, String), String>) {
        for (file, (module, parsed)) in &self.files {
            let mut add = |target: Option<Target>, why: String| {
                if let Some(Target::Item(m)) = target {
                    if let Some(to) = self.file_of(&m) {
                        if to != file {
                            out.entry((file.clone(), to.to_string())).or_insert(why);
                        }
                    }
                }
            };
            for u in &parsed.uses {
                let mut scope = module.clone();
                scope.extend(u.scope.iter().cloned());
                let written = format!("{file}:{}: use {}", u.line, u.path.join("::"));
                match &u.binds {
                    Some(name) => {
                        // A re-export is an edge only where its file uses the name itself.
                        if u.public && !parsed.used.contains(name) {
                            continue;
                        }
                        add(self.resolve(&scope, &u.path, &mut BTreeSet::new()), written);
                    }
                    None => {
                        let glob = self.resolve(&scope, &u.path, &mut BTreeSet::new());
                        let Some(Target::Module(glob)) = glob else {
                            continue;
                        };
                        // The names the file uses that it does not define itself.
                        let own = parsed.defined.get(&u.scope);
                        let names = parsed
                            .used
                            .iter()
                            .filter(|n| !own.is_some_and(|o| o.contains(*n)));
                        for name in names {
                            let found = self.lookup(&glob, name, &mut BTreeSet::new());
                            add(found, format!("{written}::* ({name})"));
                        }
                    }
                }
            }
            for (inline, path, line) in &parsed.paths {
                let mut scope = module.clone();
                scope.extend(inline.iter().cloned());
                let written = format!("{file}:{line}: {}", path.join("::"));
                add(self.resolve(&scope, path, &mut BTreeSet::new()), written);
            }
        }
    }
}

fn relative(package: &Path, file: &Path) -> String {
    file.strip_prefix(package)
        .unwrap_or(file)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The crate roots of a package: its library, binaries and examples.
fn crate_roots(package: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    for name in ["src/lib.rs", "src/main.rs"] {
        let path = package.join(name);
        if path.exists() {
            roots.push(path);
        }
    }
    for dir in ["src/bin", "examples"] {
        let Ok(entries) = std::fs::read_dir(package.join(dir)) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter_map(|p| {
                if p.extension().is_some_and(|e| e == "rs") {
                    Some(p)
                } else if p.join("main.rs").exists() {
                    Some(p.join("main.rs"))
                } else {
                    None
                }
            })
            .collect();
        found.sort();
        roots.extend(found);
    }
    roots
}

/// The import graph of a package: every file of its crates, and the edges between them with
/// the line that made each.
pub struct Graph {
    /// Each file with its place: the crate root it belongs to and its module path there.
    pub files: BTreeMap<String, (usize, Vec<String>)>,
    pub edges: BTreeMap<(String, String), String>,
}

/// Which edges between a file and its own folder a pass over the graph keeps.
#[derive(Clone, Copy, PartialEq)]
enum Along {
    /// Not the edges from a file down into its descendants.
    NotDown,
    /// Not the edges from a file up to its ancestors.
    NotUp,
}

impl Graph {
    /// Builds the graph of the package in `package` (a directory holding `src/`), leaving out the
    /// files whose path relative to it starts with one of `excluded`.
    pub fn of_package(package: &Path, excluded: &[&str]) -> Graph {
        let mut files = BTreeMap::new();
        let mut edges = BTreeMap::new();
        for (root, path) in crate_roots(package).iter().enumerate() {
            let krate = Crate::load(package, path);
            for (file, (module, _)) in &krate.files {
                files.insert(file.clone(), (root, module.clone()));
            }
            krate.edges(&mut edges);
        }
        let kept = |f: &String| !excluded.iter().any(|e| f.starts_with(e));
        files.retain(|f, _| kept(f));
        edges.retain(|(from, to), _| kept(from) && kept(to));
        Graph { files, edges }
    }

    /// Whether `inner` is in `outer`'s folder: a module `outer` declares, or one of theirs.
    fn is_below(&self, inner: &str, outer: &str) -> bool {
        match (self.files.get(inner), self.files.get(outer)) {
            (Some((a, inner)), Some((b, outer))) => {
                a == b && inner.len() > outer.len() && inner.starts_with(outer)
            }
            _ => false,
        }
    }

    /// The circles: the strongly connected components of more than one file (Tarjan's
    /// algorithm), found once without the edges down into a file's own folder and once without
    /// the edges up out of it (the `//!` says why), in a stable order.
    pub fn circles(&self) -> Vec<BTreeSet<String>> {
        let mut circles: Vec<BTreeSet<String>> = Vec::new();
        for along in [Along::NotDown, Along::NotUp] {
            for circle in self.components(along) {
                if !circles.contains(&circle) {
                    circles.push(circle);
                }
            }
        }
        circles.sort();
        circles
    }

    fn components(&self, along: Along) -> Vec<BTreeSet<String>> {
        let names: Vec<&String> = self.files.keys().collect();
        let index_of: BTreeMap<&String, usize> =
            names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
        for (from, to) in self.edges.keys() {
            let skipped = match along {
                Along::NotDown => self.is_below(to, from),
                Along::NotUp => self.is_below(from, to),
            };
            if let (Some(&a), Some(&b), false) = (index_of.get(from), index_of.get(to), skipped) {
                next[a].push(b);
            }
        }
        let mut tarjan = Tarjan {
            next: &next,
            index: vec![usize::MAX; names.len()],
            low: vec![0; names.len()],
            on_stack: vec![false; names.len()],
            stack: Vec::new(),
            counter: 0,
            components: Vec::new(),
        };
        for v in 0..names.len() {
            if tarjan.index[v] == usize::MAX {
                tarjan.visit(v);
            }
        }
        tarjan
            .components
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|c| c.into_iter().map(|v| names[v].clone()).collect())
            .collect()
    }

    /// A circle's edges, one a line, each with the import that made it.
    pub fn describe(&self, circle: &BTreeSet<String>) -> String {
        let mut text = String::new();
        for ((from, to), why) in &self.edges {
            if circle.contains(from) && circle.contains(to) {
                let along = if self.is_below(to, from) {
                    " [down into its folder]"
                } else if self.is_below(from, to) {
                    " [up to its folder's file]"
                } else {
                    ""
                };
                let _ = writeln!(text, "    {from} -> {to}{along}   ({why})");
            }
        }
        text
    }

    /// Fails listing every circle but the `allowed` ones (each the exact set of files of one
    /// circle), with their edges.
    pub fn assert_no_circles_but(&self, allowed: &[&[&str]]) {
        assert!(
            self.files.len() > 1 && !self.edges.is_empty(),
            "the graph is empty: {} files, {} edges",
            self.files.len(),
            self.edges.len()
        );
        let allowed: Vec<BTreeSet<String>> = allowed
            .iter()
            .map(|files| files.iter().map(|f| f.to_string()).collect())
            .collect();
        let circles = self.circles();
        let mut report = String::new();
        for circle in &circles {
            if !allowed.contains(circle) {
                let files: Vec<&str> = circle.iter().map(String::as_str).collect();
                let _ = writeln!(report, "circle: {}", files.join(" <-> "));
                report.push_str(&self.describe(circle));
            }
        }
        assert!(
            report.is_empty(),
            "modules import each other in a circle (a file = a module; see \
             recorder/tests/import_graph/mod.rs for the rule):\n{report}"
        );
        for expected in &allowed {
            assert!(
                circles.contains(expected),
                "the allowed circle {expected:?} is gone: take it off the allowed list"
            );
        }
    }
}

struct Tarjan<'a> {
    next: &'a [Vec<usize>],
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    counter: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn visit(&mut self, v: usize) {
        self.index[v] = self.counter;
        self.low[v] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for &w in &self.next[v] {
            if self.index[w] == usize::MAX {
                self.visit(w);
                self.low[v] = self.low[v].min(self.low[w]);
            } else if self.on_stack[w] {
                self.low[v] = self.low[v].min(self.index[w]);
            }
        }
        if self.low[v] == self.index[v] {
            let mut component = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}

/// The workspace directory above a package's.
pub fn workspace_of(package: &Path) -> PathBuf {
    let mut dir = package.to_path_buf();
    while !dir.join("Cargo.lock").exists() {
        assert!(dir.pop(), "no Cargo.lock above {}", package.display());
    }
    dir
}

/// File names used more than once in the workspace, with their paths: every `.rs` file but the
/// facades (`lib.rs`, `mod.rs`, `main.rs`, `sync.rs`), tests (a `tests/` folder), `peer/` and
/// build output.
pub fn repeated_file_names(workspace: &Path) -> BTreeMap<String, Vec<String>> {
    fn walk(dir: &Path, workspace: &Path, out: &mut BTreeMap<String, Vec<String>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                let skipped = name.starts_with('.') || name == "target" || name == "tests";
                let peer = dir == workspace && name == "peer";
                if !skipped && !peer {
                    walk(&path, workspace, out);
                }
            } else if name.ends_with(".rs")
                && !["lib.rs", "mod.rs", "main.rs", "sync.rs"].contains(&name.as_str())
            {
                out.entry(name)
                    .or_default()
                    .push(relative(workspace, &path));
            }
        }
    }
    let mut all = BTreeMap::new();
    walk(workspace, workspace, &mut all);
    all.retain(|_, paths| paths.len() > 1);
    all
}

/// Builds a throwaway package from `(path, text)` pairs under the system's temporary folder, for
/// the builder's own tests.
pub fn scratch_package(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("import_graph_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("scratch folder");
        std::fs::write(path, text).expect("scratch file");
    }
    dir
}
