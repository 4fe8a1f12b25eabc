//! The structure check (`scripts/check-structure.sh` compiles and runs this file with plain `rustc`, no
//! Cargo and no dependencies, so it costs a second and needs nothing the toolchain lacks).
//!
//! It reports two things the project's standards forbid:
//! - **import cycles between modules**, at every level of the module tree: among the crate's top-level
//!   modules (`sca` uses `consent` and `consent` uses `sca`), and among the files of one module directory
//!   (`sca/flow.rs` uses `sca/payment_flow.rs` and back). A reference is any `crate::…`, `super::…` or
//!   `self::…` path, in a `use` (groups expanded) or written out in code. Each strongly connected group of
//!   modules is listed with one example reference per edge inside it, which is where to cut;
//! - **files over 500 lines** outside tests (inline `#[cfg(test)] mod … { }` blocks are not counted, and
//!   files that are test modules or under `tests/` are skipped);
//! - **an arrow back up between the core's layers**: `crates/core/src` has one folder per layer, lowest
//!   first `domain` and `platform`, then `store` and `signing`, then `bank` ([`CORE_LAYERS`]). Outside tests a
//!   layer's files reference only their own layer and lower ones, never a higher one nor a sibling of the same
//!   floor, and the crate root declares nothing but the layers;
//! - **another crate's items under this crate's names**: a `use xs2a_…` at a crate's root, or a `pub use` of
//!   another workspace crate anywhere, would make `crate::x` mean another crate's `x`. Each crate names the
//!   others by their names (`xs2a_core::bank::pis`).
//!
//! Usage: `check_structure [--root DIR] [--only PREFIX]...`; with `--only`, findings are limited to those
//! touching files under one of the prefixes (a helper checking its own area). Exit status 1 when it found
//! something, 0 when not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Lines a non-test file may have.
const MAX_LINES: usize = 500;

/// One Rust source file of a crate.
struct SourceFile {
    /// Relative to the repository root, with `/`.
    path: String,
    /// The module path of the file (`["sca", "flow"]` for `src/sca/flow.rs`; empty for the crate root).
    module: Vec<String>,
    text: String,
}

/// A reference from one file to a module path, with where it was written.
struct Reference {
    target: Vec<String>,
    line: usize,
    written: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Pound,
    Other(char),
}

/// Tokens with their line numbers; comments, strings and character literals are dropped.
fn tokenize(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('#') || next == Some('"')) && raw_string_at(&chars, i) {
            // r"…" or r#"…"#: no escapes, ends at the quote followed by as many #.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    Some('\n') => line += 1,
                    _ => {}
                }
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if chars.get(i) == Some(&'\n') {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F600}') or a lifetime ('a): a literal closes with a quote.
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            tokens.push((Token::Ident(word.trim_start_matches("r#").to_owned()), line));
        } else if c == ':' && next == Some(':') {
            tokens.push((Token::PathSep, line));
            i += 2;
        } else {
            let token = match c {
                '{' => Token::Open,
                '}' => Token::Close,
                ',' => Token::Comma,
                ';' => Token::Semi,
                '*' => Token::Star,
                '#' => Token::Pound,
                other => Token::Other(other),
            };
            tokens.push((token, line));
            i += 1;
        }
    }
    tokens
}

/// True when the `r` at `i` starts a raw string rather than an identifier (`r#type` or a name ending in r).
fn raw_string_at(chars: &[char], i: usize) -> bool {
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return false;
    }
    let mut j = i + 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    chars.get(j) == Some(&'"')
}

fn ident(token: Option<&(Token, usize)>) -> Option<&str> {
    match token {
        Some((Token::Ident(name), _)) => Some(name),
        _ => None,
    }
}

/// True when tokens at `i` are `#[cfg(test)]`.
fn is_cfg_test(tokens: &[(Token, usize)], i: usize) -> bool {
    let words: Vec<Option<&str>> = (i..i + 7).map(|k| ident(tokens.get(k))).collect();
    tokens.get(i).map(|t| &t.0) == Some(&Token::Pound)
        && words[2] == Some("cfg")
        && words[4] == Some("test")
}

/// The index of the item after attributes and visibility starting at `i` (`#[allow(…)] pub(crate) mod`).
fn item_start(tokens: &[(Token, usize)], mut i: usize) -> usize {
    loop {
        match tokens.get(i).map(|t| &t.0) {
            Some(Token::Pound) => {
                // # [ … ]: to the matching ].
                let mut depth = 0;
                i += 1;
                while let Some((token, _)) = tokens.get(i) {
                    i += 1;
                    match token {
                        Token::Other('[') => depth += 1,
                        Token::Other(']') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            Some(Token::Ident(word)) if word == "pub" => {
                i += 1;
                if tokens.get(i).map(|t| &t.0) == Some(&Token::Other('(')) {
                    while tokens.get(i).is_some_and(|t| t.0 != Token::Other(')')) {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => return i,
        }
    }
}

/// The index just past the block that opens at `open` (a `{` token).
fn block_end(tokens: &[(Token, usize)], open: usize) -> usize {
    let mut depth = 0;
    for (k, (token, _)) in tokens.iter().enumerate().skip(open) {
        match token {
            Token::Open => depth += 1,
            Token::Close => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// The modules a file declares with `#[cfg(test)] mod name;` (test modules in files of their own), and
/// the line spans of the inline `#[cfg(test)] mod name { … }` blocks.
fn test_modules(tokens: &[(Token, usize)]) -> (Vec<String>, Vec<(usize, usize)>) {
    let (mut files, mut inline) = (Vec::new(), Vec::new());
    for i in 0..tokens.len() {
        if !is_cfg_test(tokens, i) {
            continue;
        }
        let k = item_start(tokens, i + 7);
        if ident(tokens.get(k)) != Some("mod") {
            continue;
        }
        let Some(name) = ident(tokens.get(k + 1)) else {
            continue;
        };
        match tokens.get(k + 2).map(|t| &t.0) {
            Some(Token::Semi) => files.push(name.to_owned()),
            Some(Token::Open) => {
                let end = block_end(tokens, k + 2);
                inline.push((tokens[i].1, tokens[end.saturating_sub(1)].1));
            }
            _ => {}
        }
    }
    (files, inline)
}

/// Expands one `use` tree starting at `i` (after `use`); pushes each full path (as written).
fn use_tree(
    tokens: &[(Token, usize)],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<Vec<String>>,
) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match tokens.get(i).map(|t| &t.0) {
            Some(Token::Ident(name)) => {
                if name == "self" && !prefix.is_empty() && path.len() == prefix.len() {
                    // `{self, …}`: the prefix itself.
                } else if name == "as" {
                    i += 2; // `as alias`
                    continue;
                } else {
                    path.push(name.clone());
                }
                i += 1;
            }
            Some(Token::PathSep) => i += 1,
            Some(Token::Star) => i += 1,
            Some(Token::Open) => {
                i += 1;
                loop {
                    match tokens.get(i).map(|t| &t.0) {
                        Some(Token::Close) => {
                            i += 1;
                            break;
                        }
                        Some(Token::Comma) => i += 1,
                        None => return i,
                        _ => i = use_tree(tokens, i, &path, out),
                    }
                }
                return i;
            }
            _ => break,
        }
    }
    out.push(path);
    i
}

/// Resolves a path written in a file of module `module` (inside inline modules `inline`) to an absolute
/// module path, when it starts with `crate`, `super` or `self`.
fn resolve(written: &[String], module: &[String]) -> Option<Vec<String>> {
    let first = written.first()?;
    let (mut base, mut rest) = match first.as_str() {
        "crate" => (Vec::new(), &written[1..]),
        "self" => (module.to_vec(), &written[1..]),
        "super" => (module.to_vec(), written),
        _ => return None,
    };
    while rest.first().map(String::as_str) == Some("super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Every module reference in a file, outside its test blocks.
fn references(file: &SourceFile) -> Vec<Reference> {
    let tokens = tokenize(&file.text);
    let mut refs = Vec::new();
    // The module path inside inline modules: (name, token index where its block ends).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        while inline.last().is_some_and(|(_, end)| i >= *end) {
            inline.pop();
        }
        let module: Vec<String> = file
            .module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        if is_cfg_test(&tokens, i) {
            // Skip a test module (inline) or item: to the end of the next item's block or `;`.
            let mut k = i + 7;
            while k < tokens.len() && !matches!(tokens[k].0, Token::Open | Token::Semi) {
                k += 1;
            }
            i = if tokens.get(k).map(|t| &t.0) == Some(&Token::Open) {
                block_end(&tokens, k)
            } else {
                k + 1
            };
            continue;
        }
        let line = tokens[i].1;
        match ident(tokens.get(i)) {
            Some("mod") => {
                if let (Some(name), Some((Token::Open, _))) =
                    (ident(tokens.get(i + 1)), tokens.get(i + 2))
                {
                    inline.push((name.to_owned(), block_end(&tokens, i + 2)));
                    i += 3;
                    continue;
                }
            }
            Some("use") => {
                let mut paths = Vec::new();
                let end = use_tree(&tokens, i + 1, &[], &mut paths);
                for written in paths {
                    if let Some(target) = resolve(&written, &module) {
                        refs.push(Reference {
                            target,
                            line,
                            written: written.join("::"),
                        });
                    }
                }
                i = end;
                continue;
            }
            Some(first @ ("crate" | "super" | "self"))
                if tokens.get(i + 1).map(|t| &t.0) == Some(&Token::PathSep) =>
            {
                // A path written out in code: crate::a::b::f(…).
                let preceded_by_sep = i > 0 && tokens[i - 1].0 == Token::PathSep;
                let mut written = vec![first.to_owned()];
                let mut k = i + 1;
                while tokens.get(k).map(|t| &t.0) == Some(&Token::PathSep) {
                    match ident(tokens.get(k + 1)) {
                        Some(name) => written.push(name.to_owned()),
                        None => break,
                    }
                    k += 2;
                }
                if !preceded_by_sep {
                    if let Some(target) = resolve(&written, &module) {
                        refs.push(Reference {
                            target,
                            line,
                            written: written.join("::"),
                        });
                    }
                }
                i = k;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    refs
}

/// The files of one crate rooted at `root_file` (lib.rs or main.rs) whose modules live in `dir`.
fn crate_files(repo: &Path, dir: &str) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut stack = vec![repo.join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(repo.join(dir)).expect("under dir");
                let mut module: Vec<String> = relative
                    .iter()
                    .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
                    .collect();
                if matches!(
                    module.last().map(String::as_str),
                    Some("mod" | "lib" | "main")
                ) {
                    module.pop();
                }
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                let path = path
                    .strip_prefix(repo)
                    .expect("under repo")
                    .to_string_lossy()
                    .replace('\\', "/");
                files.push(SourceFile { path, module, text });
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// Files that are test modules: declared `#[cfg(test)] mod x;` by their parent, or inside one.
fn test_files(files: &[SourceFile]) -> BTreeSet<Vec<String>> {
    let mut tests = BTreeSet::new();
    for file in files {
        let (declared, _) = test_modules(&tokenize(&file.text));
        for name in declared {
            let mut module = file.module.clone();
            module.push(name);
            tests.insert(module);
        }
    }
    tests
}

/// Strongly connected groups of more than one node (Tarjan), each sorted.
fn cycles(
    nodes: &BTreeSet<String>,
    edges: &BTreeMap<(String, String), String>,
) -> Vec<Vec<String>> {
    let names: Vec<&String> = nodes.iter().collect();
    let index_of = |n: &str| names.iter().position(|x| x.as_str() == n).expect("node");
    let mut out_edges = vec![Vec::new(); names.len()];
    for (from, to) in edges.keys() {
        out_edges[index_of(from)].push(index_of(to));
    }
    struct State {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        groups: Vec<Vec<usize>>,
    }
    fn visit(v: usize, out: &[Vec<usize>], s: &mut State) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &out[v] {
            match s.index[w] {
                None => {
                    visit(w, out, s);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut group = Vec::new();
            loop {
                let w = s.stack.pop().expect("on stack");
                s.on_stack[w] = false;
                group.push(w);
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                s.groups.push(group);
            }
        }
    }
    let mut s = State {
        index: vec![None; names.len()],
        low: vec![0; names.len()],
        on_stack: vec![false; names.len()],
        stack: Vec::new(),
        next: 0,
        groups: Vec::new(),
    };
    for v in 0..names.len() {
        if s.index[v].is_none() {
            visit(v, &out_edges, &mut s);
        }
    }
    let mut groups: Vec<Vec<String>> = s
        .groups
        .into_iter()
        .map(|g| {
            let mut g: Vec<String> = g.into_iter().map(|i| names[i].clone()).collect();
            g.sort();
            g
        })
        .collect();
    groups.sort();
    groups
}

/// What the check found.
#[derive(Default)]
struct Findings {
    /// Per module directory ("crate" for the top level): groups of modules in a cycle, each with its edges.
    cycles: Vec<(String, Vec<String>, Vec<String>)>,
    long_files: Vec<(String, usize)>,
    /// Arrows back up between the core's layers, and modules outside them: `path:line what`.
    layer_arrows: Vec<String>,
    /// Re-imports of another workspace crate's items under this crate's names: `path:line what`.
    aliases: Vec<String>,
}

/// The core's layers and their floors: a file of a layer may reference its own layer and layers on lower
/// floors only. `domain` (the rules' vocabulary, no I/O) and `platform` (the OS seams) stand on nothing;
/// `store` on both; `signing` on `domain`; `bank` on all of them.
const CORE_LAYERS: &[(&str, u8)] = &[
    ("domain", 0),
    ("platform", 0),
    ("store", 1),
    ("signing", 1),
    ("bank", 2),
];

/// The core crate's sources, whose top-level modules are [`CORE_LAYERS`].
const CORE_DIR: &str = "crates/core/src";

/// Arrows back up in the core: references from a layer to a higher floor or to a sibling on its own floor
/// (outside tests), and top-level modules that are not layers.
fn check_core_layers(files: &[SourceFile], tests: &BTreeSet<Vec<String>>) -> Vec<String> {
    let floor = |name: &str| CORE_LAYERS.iter().find(|(l, _)| *l == name).map(|(_, f)| *f);
    let is_test =
        |module: &[String]| (1..=module.len()).any(|n| tests.contains(&module[..n].to_vec()));
    let mut found = Vec::new();
    for file in files {
        let Some(layer) = file.module.first() else {
            // The crate root: it may only declare the layers.
            for (name, line) in declared_modules(&file.text) {
                if floor(&name).is_none() {
                    found.push(format!(
                        "{}:{line} `mod {name}` at the core's root is in no layer (put it in one of {})",
                        file.path,
                        CORE_LAYERS.iter().map(|(l, _)| *l).collect::<Vec<_>>().join(", ")
                    ));
                }
            }
            continue;
        };
        if is_test(&file.module) {
            continue;
        }
        let Some(from) = floor(layer) else {
            continue; // reported at the root
        };
        for reference in references(file) {
            let Some(target) = reference.target.first() else {
                continue;
            };
            if target == layer {
                continue;
            }
            let Some(to) = floor(target) else {
                continue;
            };
            if to >= from {
                found.push(format!(
                    "{}:{} {layer} -> {target} ({}): an arrow back up, {target} is not below {layer}",
                    file.path, reference.line, reference.written
                ));
            }
        }
    }
    found
}

/// `mod name;` and `mod name { … }` declared at a file's top level (not in tests), with their lines.
fn declared_modules(text: &str) -> Vec<(String, usize)> {
    let tokens = tokenize(text);
    let mut found = Vec::new();
    let mut depth = 0usize;
    for (i, (token, line)) in tokens.iter().enumerate() {
        match token {
            Token::Open => depth += 1,
            Token::Close => depth = depth.saturating_sub(1),
            Token::Ident(word) if word == "mod" && depth == 0 && !is_cfg_test(&tokens, item_start(&tokens, i)) => {
                if let Some(name) = ident(tokens.get(i + 1)) {
                    found.push((name.to_owned(), *line));
                }
            }
            _ => {}
        }
    }
    found
}

/// Another workspace crate's items brought in under this crate's names: any `use xs2a_…` in a library's
/// root file, and a `pub use xs2a_…` (or `pub(crate) use`) anywhere.
fn crate_aliases(files: &[SourceFile]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let tokens = tokenize(&file.text);
        for (i, (token, line)) in tokens.iter().enumerate() {
            if *token != Token::Ident("use".into()) {
                continue;
            }
            let Some(first) = ident(tokens.get(i + 1)) else {
                continue;
            };
            if !first.starts_with("xs2a_") {
                continue;
            }
            let public = i > 0
                && (ident(tokens.get(i - 1)) == Some("pub")
                    || (matches!(tokens[i - 1].0, Token::Close | Token::Other(')'))
                        && i >= 4
                        && ident(tokens.get(i - 4)) == Some("pub")));
            // A binary's main.rs naming its own package's library is no alias: nothing imports a binary.
            let library_root = file.module.is_empty() && file.path.ends_with("lib.rs");
            if library_root || public {
                let what = if public { "re-exports" } else { "re-imports at its root" };
                found.push(format!(
                    "{}:{line} {what} `{first}`: name the other crate by its name where it is used",
                    file.path
                ));
            }
        }
    }
    found
}

fn check_crate(repo: &Path, dir: &str, only: &[String], findings: &mut Findings) {
    let files = crate_files(repo, dir);
    let tests = test_files(&files);
    let wanted_finding = |finding: &String| only.is_empty() || only.iter().any(|p| finding.starts_with(p.as_str()));
    if dir == CORE_DIR {
        findings
            .layer_arrows
            .extend(check_core_layers(&files, &tests).into_iter().filter(wanted_finding));
    }
    findings
        .aliases
        .extend(crate_aliases(&files).into_iter().filter(wanted_finding));
    let is_test =
        |module: &[String]| (1..=module.len()).any(|n| tests.contains(&module[..n].to_vec()));
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let wanted = |path: &str| only.is_empty() || only.iter().any(|p| path.starts_with(p.as_str()));
    // Per parent module: the children and the edges between them, with an example.
    let mut graphs: BTreeMap<Vec<String>, (BTreeSet<String>, BTreeMap<(String, String), String>)> =
        BTreeMap::new();
    for module in &modules {
        if let Some((last, parent)) = module.split_last() {
            graphs
                .entry(parent.to_vec())
                .or_default()
                .0
                .insert(last.clone());
        }
    }
    // Which files stand behind each node, to apply --only.
    let mut node_files: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
    for file in &files {
        if is_test(&file.module) {
            continue;
        }
        for depth in 0..file.module.len() {
            node_files
                .entry((file.module[..depth].to_vec(), file.module[depth].clone()))
                .or_default()
                .push(file.path.clone());
        }
        let (_, inline_tests) = test_modules(&tokenize(&file.text));
        let test_lines: usize = inline_tests.iter().map(|(a, b)| b - a + 1).sum();
        let lines = file.text.lines().count() - test_lines.min(file.text.lines().count());
        if lines > MAX_LINES && wanted(&file.path) {
            findings.long_files.push((file.path.clone(), lines));
        }
        for reference in references(file) {
            let common = file
                .module
                .iter()
                .zip(&reference.target)
                .take_while(|(a, b)| a == b)
                .count();
            let (Some(from), Some(to)) = (file.module.get(common), reference.target.get(common))
            else {
                continue;
            };
            let parent = file.module[..common].to_vec();
            let mut to_module = parent.clone();
            to_module.push(to.clone());
            if !modules.contains(&to_module) || is_test(&to_module) {
                continue; // an item of the parent, not a module
            }
            let example = format!("{}:{} {}", file.path, reference.line, reference.written);
            graphs
                .entry(parent)
                .or_default()
                .1
                .entry((from.clone(), to.clone()))
                .or_insert(example);
        }
    }
    for (parent, (nodes, edges)) in &graphs {
        for group in cycles(nodes, edges) {
            let touches_wanted = group.iter().any(|n| {
                node_files
                    .get(&(parent.clone(), n.clone()))
                    .is_some_and(|fs| fs.iter().any(|f| wanted(f)))
            });
            if !touches_wanted {
                continue;
            }
            let inside: Vec<String> = edges
                .iter()
                .filter(|((a, b), _)| group.contains(a) && group.contains(b))
                .map(|((a, b), example)| format!("{a} -> {b}  ({example})"))
                .collect();
            let place = if parent.is_empty() {
                format!("{dir} (top level)")
            } else {
                format!("{dir}/{}", parent.join("/"))
            };
            findings.cycles.push((place, group, inside));
        }
    }
}

/// Counts lines of the other places where Rust files that are not tests live.
fn check_lines_only(repo: &Path, dirs: &[&str], only: &[String], findings: &mut Findings) {
    let wanted = |path: &str| only.is_empty() || only.iter().any(|p| path.starts_with(p.as_str()));
    for dir in dirs {
        for file in crate_files(repo, dir) {
            let lines = file.text.lines().count();
            if lines > MAX_LINES && wanted(&file.path) {
                findings.long_files.push((file.path, lines));
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut root = PathBuf::from(".");
    let mut only = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--root" => root = PathBuf::from(args.next().expect("--root DIR")),
            "--only" => only.push(args.next().expect("--only PREFIX")),
            other => {
                eprintln!("check_structure: unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let mut findings = Findings::default();
    // Every crate of the workspace: the CLI (src), the layers (crates/*/src) and the desktop shell.
    let mut crates = vec!["src".to_owned(), "src-tauri/src".to_owned()];
    let mut layers: Vec<String> = std::fs::read_dir(root.join("crates"))
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .map(|e| format!("crates/{}/src", e.file_name().to_string_lossy()))
                .filter(|src| root.join(src).is_dir())
                .collect()
        })
        .unwrap_or_default();
    layers.sort();
    crates.extend(layers);
    for dir in &crates {
        check_crate(&root, dir, &only, &mut findings);
    }
    check_lines_only(&root, &["benches", "examples"], &only, &mut findings);
    findings.long_files.sort();
    println!("Import cycles between modules: {}", findings.cycles.len());
    for (place, group, edges) in &findings.cycles {
        println!("- in {place}: {}", group.join(", "));
        for edge in edges {
            println!("    {edge}");
        }
    }
    println!(
        "Files over {MAX_LINES} lines (outside tests): {}",
        findings.long_files.len()
    );
    for (path, lines) in &findings.long_files {
        println!("- {path}: {lines}");
    }
    println!(
        "Arrows back up between the core's layers ({}): {}",
        CORE_LAYERS.iter().map(|(l, f)| format!("{l} {f}")).collect::<Vec<_>>().join(", "),
        findings.layer_arrows.len()
    );
    for arrow in &findings.layer_arrows {
        println!("- {arrow}");
    }
    println!(
        "Another crate's items under this crate's names: {}",
        findings.aliases.len()
    );
    for alias in &findings.aliases {
        println!("- {alias}");
    }
    if !findings.cycles.is_empty()
        || !findings.long_files.is_empty()
        || !findings.layer_arrows.is_empty()
        || !findings.aliases.is_empty()
    {
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs_of(module: &[&str], text: &str) -> Vec<String> {
        let file = SourceFile {
            path: "x.rs".into(),
            module: module.iter().map(|s| s.to_string()).collect(),
            text: text.into(),
        };
        references(&file)
            .into_iter()
            .map(|r| r.target.join("::"))
            .collect()
    }

    #[test]
    fn use_groups_expand_and_super_resolves() {
        let refs = refs_of(
            &["sca", "flow"],
            "use super::{payment_flow::{self, start}, Context};\nuse crate::consent::Consent as C;",
        );
        assert_eq!(
            refs,
            [
                "sca::payment_flow",
                "sca::payment_flow::start",
                "sca::Context",
                "consent::Consent"
            ]
        );
    }

    #[test]
    fn paths_in_code_count_and_tests_and_strings_do_not() {
        let text = r#"
            fn f() { crate::batch::execute_now(); let s = "crate::nothing::here"; }
            // crate::commented::out
            #[cfg(test)]
            mod tests { use crate::sandbox::seed; }
        "#;
        assert_eq!(refs_of(&["payments"], text), ["batch::execute_now"]);
    }

    #[test]
    fn a_cycle_is_one_group() {
        let nodes: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let mut edges = BTreeMap::new();
        edges.insert(("a".to_string(), "b".to_string()), String::new());
        edges.insert(("b".to_string(), "a".to_string()), String::new());
        edges.insert(("b".to_string(), "c".to_string()), String::new());
        assert_eq!(
            cycles(&nodes, &edges),
            [vec!["a".to_string(), "b".to_string()]]
        );
    }

    #[test]
    fn inline_test_blocks_are_found_with_their_lines() {
        let text = "fn a() {}\n#[cfg(test)]\nmod tests {\n  fn b() {}\n}\n#[cfg(test)]\nmod more;\n#[cfg(test)]\n#[allow(x)]\npub(crate) mod other;\n";
        let (files, inline) = test_modules(&tokenize(text));
        assert_eq!(files, ["more", "other"]);
        assert_eq!(inline, [(2, 5)]);
    }

    fn file(path: &str, module: &[&str], text: &str) -> SourceFile {
        SourceFile {
            path: path.into(),
            module: module.iter().map(|s| s.to_string()).collect(),
            text: text.into(),
        }
    }

    #[test]
    fn an_arrow_back_up_between_the_cores_layers_is_found() {
        let files = [
            file("lib.rs", &[], "pub mod domain;\npub mod store;\npub mod bank;\npub mod stray;"),
            file("domain/refusal.rs", &["domain", "refusal"], "impl From<crate::store::StoreError> for R {}"),
            file("store/mod.rs", &["store"], "use crate::domain::refusal::R;\nfn f() { crate::bank::pis::run(); }"),
            file("signing/mod.rs", &["signing"], "use crate::store::Store;"),
            file("bank/pis.rs", &["bank", "pis"], "use crate::store::Store;\nuse crate::domain::clock;\n#[cfg(test)]\nmod tests { use crate::bank::x; }"),
            file("store/tests.rs", &["store", "tests"], "use crate::bank::seed;"),
        ];
        let tests: BTreeSet<Vec<String>> = [vec!["store".to_string(), "tests".to_string()]].into();
        let found = check_core_layers(&files, &tests);
        assert_eq!(found.len(), 4, "{found:#?}");
        assert!(found[0].starts_with("lib.rs:4 `mod stray`"), "{}", found[0]);
        assert!(found[1].starts_with("domain/refusal.rs:1 domain -> store"), "{}", found[1]);
        assert!(found[2].starts_with("store/mod.rs:2 store -> bank"), "{}", found[2]);
        assert!(found[3].starts_with("signing/mod.rs:1 signing -> store"), "{}", found[3]);
    }

    #[test]
    fn another_crates_items_under_this_crates_names_are_found() {
        let files = [
            file("lib.rs", &[], "#[allow(unused_imports)]\nuse xs2a_core::{payments, store};\npub mod api;"),
            file("api/error.rs", &["api", "error"], "pub use xs2a_core::domain::refusal::Code;\npub(crate) use xs2a_core::x;\nuse xs2a_core::domain::refusal::Refusal;"),
        ];
        let found = crate_aliases(&files);
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(found[0].starts_with("lib.rs:2 re-imports at its root"));
        assert!(found[1].starts_with("api/error.rs:1 re-exports"));
        assert!(found[2].starts_with("api/error.rs:2 re-exports"));
    }
}
