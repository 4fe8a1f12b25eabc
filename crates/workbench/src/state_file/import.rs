//! Reading a state file into the store, never half: the whole file is parsed and checked first (syntax,
//! format and version, every record against its type, ids unique, references resolved), then written in
//! one commit. A refusal names the place in the file (a JSON pointer) and leaves the data untouched; a
//! crash during the commit leaves either the old state or the new one (sled recovers a transaction whole
//! or not at all).

use super::error::{pointer_of, token, FaultKind, FileError};
use super::trees::{carried, kind, Decoded, Target, CARRIED};
use super::versions::Versions;
use super::{FORMAT, VERSIONS};
use serde::de::IgnoredAny;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use xs2a_core::store::registry::Kind;
use xs2a_core::store::{RawRecords, Store};

/// Top-level members a state file may have besides `trees`.
const ALLOWED: &[&str] = &["format", "version", "trees", "$schema", "description"];

/// How an import treats the data already there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The file becomes the whole state (logs excepted).
    Replace,
    /// The file's records are added; one whose id is taken by a different record is a collision, except
    /// in configuration trees (clock, settings), where the file's record wins.
    Merge,
}

/// A checked file: per carried tree present in it, its records in file order.
pub struct Parsed {
    trees: Vec<(&'static str, Vec<Decoded>)>,
}

/// What an import changes in one tree.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct TreeChange {
    pub added: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub removed: usize,
}

/// What an import changes (or, as a preview, would change).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Preview {
    pub mode: Mode,
    /// Trees with any change, by name.
    pub trees: BTreeMap<&'static str, TreeChange>,
    pub records: usize,
}

/// The refusal of a file that is not JSON, at the place parsing stopped.
fn syntax_error(bytes: &[u8]) -> FileError {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let parsed: Result<Value, _> = serde_path_to_error::deserialize(&mut deserializer);
    match parsed {
        Err(error) => {
            let what = if error.inner().is_eof() {
                "the file ends too soon (truncated?)"
            } else {
                "not JSON"
            };
            FileError::new(
                FaultKind::Syntax,
                pointer_of(error.path()),
                format!("{what}: {}", error.inner()),
            )
        }
        Ok(_) => match deserializer.end() {
            Err(e) => FileError::new(
                FaultKind::Syntax,
                "",
                format!("text after the JSON value: {e}"),
            ),
            Ok(()) => FileError::new(FaultKind::Syntax, "", "not JSON"),
        },
    }
}

/// The envelope of a well-formed state file, read in one pass over the text: each record stays a slice
/// of the file, decoded straight into its type afterwards (no JSON tree of the whole file).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<'a> {
    format: Option<Value>,
    version: Option<Value>,
    #[serde(borrow)]
    trees: Option<BTreeMap<String, Vec<&'a RawValue>>>,
    #[serde(rename = "$schema")]
    _schema: Option<IgnoredAny>,
    #[serde(rename = "description")]
    _description: Option<IgnoredAny>,
}

fn check_format(format: Option<&Value>) -> Result<(), FileError> {
    match format {
        Some(Value::String(f)) if f == FORMAT => Ok(()),
        Some(other) => Err(FileError::new(
            FaultKind::Format,
            "/format",
            format!("{other} is not a state file's format; expected \"{FORMAT}\""),
        )),
        None => Err(FileError::new(
            FaultKind::Format,
            "/format",
            format!("missing: a state file says \"format\": \"{FORMAT}\""),
        )),
    }
}

fn check_tree_names<'n>(names: impl Iterator<Item = &'n String>) -> Result<(), FileError> {
    for name in names {
        if carried(name).is_none() {
            let why = match kind(name) {
                Some(Kind::Log) => "is a log, which state files do not carry".to_owned(),
                _ => format!(
                    "is not a tree of the sandbox's state; known trees: {}",
                    CARRIED
                        .iter()
                        .map(|c| c.tree)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            return Err(FileError::schema(format!("/trees/{}", token(name)), why));
        }
    }
    Ok(())
}

/// Decodes every record of the carried trees present in `trees` (each record's text), in registry order
/// so that a file's faults are reported in a stable order, checking ids unique within each tree.
fn decode_trees<S: AsRef<str>>(trees: &BTreeMap<String, Vec<S>>) -> Result<Parsed, FileError> {
    let mut parsed = Vec::new();
    for c in CARRIED {
        let Some(items) = trees.get(c.tree) else {
            continue;
        };
        let at = format!("/trees/{}", c.tree);
        let mut records = Vec::with_capacity(items.len());
        let mut seen: HashMap<String, usize> = HashMap::with_capacity(items.len());
        let mut here = String::with_capacity(at.len() + 8);
        for (i, item) in items.iter().enumerate() {
            here.clear();
            let _ = write!(here, "{at}/{i}");
            let decoded = (c.decode)(item.as_ref(), &here)?;
            if let Some(first) = seen.insert(decoded.key.clone(), i) {
                return Err(FileError::new(
                    FaultKind::Collision,
                    here,
                    format!(
                        "has the same id (\"{}\") as {at}/{first}; ids are unique within a tree",
                        decoded.key
                    ),
                ));
            }
            records.push(decoded);
        }
        parsed.push((c.tree, records));
    }
    Ok(Parsed { trees: parsed })
}

/// Parses and checks a whole file; nothing is written.
pub fn parse(bytes: &[u8]) -> Result<Parsed, FileError> {
    parse_with(bytes, &VERSIONS)
}

/// [`parse`] for the file versions `versions` (tests give a list of their own).
pub(crate) fn parse_with(bytes: &[u8], versions: &Versions) -> Result<Parsed, FileError> {
    // The fast path reads the envelope in one pass and decodes each record from its own text. A file
    // it does not take (any fault, or a member given twice) is read as before, through a JSON tree, to
    // name the place at fault.
    let Ok(envelope) = serde_json::from_slice::<Envelope>(bytes) else {
        return parse_as_tree(bytes, versions);
    };
    check_format(envelope.format.as_ref())?;
    let version = versions.check(envelope.version.as_ref())?;
    if version < versions.current() {
        return parse_older(bytes, version, versions);
    }
    let Some(trees) = envelope.trees else {
        return Err(FileError::schema(
            "/trees",
            "missing or not an object of trees",
        ));
    };
    check_tree_names(trees.keys())?;
    let trees: BTreeMap<String, Vec<&str>> = trees
        .into_iter()
        .map(|(name, items)| (name, items.into_iter().map(RawValue::get).collect()))
        .collect();
    decode_trees(&trees)
}

/// A file of an older version: brought up to the current one as a JSON tree, then read as one of it.
fn parse_older(bytes: &[u8], version: u64, versions: &Versions) -> Result<Parsed, FileError> {
    let mut document: Value = serde_json::from_slice(bytes).map_err(|_| syntax_error(bytes))?;
    versions.upgrade(&mut document, version)?;
    let bytes = serde_json::to_vec(&document).expect("a JSON tree serialises");
    parse_with(&bytes, versions)
}

/// The slow path of [`parse`]: the whole file as a JSON tree, each fault named at its place.
fn parse_as_tree(bytes: &[u8], versions: &Versions) -> Result<Parsed, FileError> {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(_) => return Err(syntax_error(bytes)),
    };
    let Value::Object(top) = value else {
        return Err(FileError::schema("", "a state file is a JSON object"));
    };
    check_format(top.get("format"))?;
    let version = versions.check(top.get("version"))?;
    if version < versions.current() {
        return parse_older(bytes, version, versions);
    }
    if let Some(extra) = top.keys().find(|k| !ALLOWED.contains(&k.as_str())) {
        return Err(FileError::schema(
            format!("/{}", token(extra)),
            format!("unknown member; a state file has {}", ALLOWED.join(", ")),
        ));
    }
    let Some(Value::Object(trees)) = top.get("trees") else {
        return Err(FileError::schema(
            "/trees",
            "missing or not an object of trees",
        ));
    };
    check_tree_names(trees.keys())?;
    let mut texts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // In registry order, so that a file's faults are reported in a stable order.
    for c in CARRIED {
        let Some(list) = trees.get(c.tree) else {
            continue;
        };
        let Value::Array(items) = list else {
            // The trees before this one are checked first, as the fast path would.
            decode_trees(&texts)?;
            return Err(FileError::schema(
                format!("/trees/{}", c.tree),
                "a tree is a list of records",
            ));
        };
        texts.insert(
            c.tree.to_owned(),
            items.iter().map(Value::to_string).collect(),
        );
    }
    decode_trees(&texts)
}

impl Parsed {
    /// The number of records in the file.
    pub fn len(&self) -> usize {
        self.trees.iter().map(|(_, r)| r.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The ids the data already holds, which a merged file may point at.
fn stored_ids(store: &Store) -> Result<HashSet<(Target, String)>, FileError> {
    use xs2a_core::bank::mock::model::{Account, Agreement, CardAccount, Customer};
    let mut ids = HashSet::new();
    for c in store.table::<Customer>()?.list()? {
        ids.insert((Target::Customer, c.id));
    }
    for a in store.table::<Account>()?.list()? {
        ids.insert((Target::Account, a.id));
    }
    for a in store.table::<CardAccount>()?.list()? {
        ids.insert((Target::CardAccount, a.id));
    }
    for a in store.table::<Agreement>()?.list()? {
        ids.insert((Target::Agreement, a.id));
    }
    Ok(ids)
}

/// Every reference resolves, in the file or (merging) in the data.
fn check_references(parsed: &Parsed, known: &HashSet<(Target, String)>) -> Result<(), FileError> {
    // Looked up without an allocation per reference: every id borrowed, from the data or the file.
    let mut ids: HashSet<(Target, &str)> = known.iter().map(|(t, id)| (*t, id.as_str())).collect();
    for (_, records) in &parsed.trees {
        for r in records {
            ids.extend(r.provides.iter().map(|(t, id)| (*t, id.as_str())));
        }
    }
    let has = |target: Target, id: &str| match target {
        Target::AnyAccount => {
            ids.contains(&(Target::Account, id)) || ids.contains(&(Target::CardAccount, id))
        }
        t => ids.contains(&(t, id)),
    };
    for (tree, records) in &parsed.trees {
        for (i, r) in records.iter().enumerate() {
            for (field, target, id) in &r.refers {
                if !has(*target, id) {
                    return Err(FileError::new(
                        FaultKind::MissingReference,
                        format!("/trees/{tree}/{i}{field}"),
                        format!(
                            "names the {} \"{id}\", which is neither in the file nor in the sandbox",
                            target.noun()
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The writes of an import and what they change.
struct Plan {
    cleared: Vec<&'static str>,
    writes: Vec<(&'static str, RawRecords)>,
    preview: Preview,
}

fn plan(store: &Store, parsed: Parsed, mode: Mode) -> Result<Plan, FileError> {
    let known = match mode {
        Mode::Replace => HashSet::new(),
        Mode::Merge => stored_ids(store)?,
    };
    check_references(&parsed, &known)?;
    let mut by_tree: HashMap<&'static str, Vec<Decoded>> = parsed.trees.into_iter().collect();
    let mut trees = BTreeMap::new();
    let mut writes = Vec::new();
    let mut records = 0;
    for c in CARRIED {
        let incoming = by_tree.remove(c.tree).unwrap_or_default();
        let configuration = kind(c.tree) == Some(Kind::Configuration);
        // One pass over the stored tree, looking each stored key up among the file's (ids are unique
        // within a tree: checked by `parse`); nothing stored is copied.
        let index: HashMap<&[u8], usize> = incoming
            .iter()
            .enumerate()
            .map(|(i, r)| (r.key.as_bytes(), i))
            .collect();
        let mut change = TreeChange::default();
        let mut matched = 0;
        let mut first_different: Option<usize> = None;
        store.raw_for_each(c.tree, |key, value| match index.get(key) {
            None => change.removed += 1,
            Some(&i) => {
                matched += 1;
                if incoming[i].bytes == value {
                    change.unchanged += 1;
                } else {
                    change.changed += 1;
                    first_different = Some(first_different.map_or(i, |f| f.min(i)));
                }
            }
        })?;
        change.added = incoming.len() - matched;
        if mode == Mode::Merge {
            change.removed = 0;
            if let (Some(i), false) = (first_different, configuration) {
                return Err(FileError::new(
                    FaultKind::Collision,
                    format!("/trees/{}/{i}", c.tree),
                    format!(
                        "the sandbox already holds a different record under the id \"{}\"; \
                         merge adds records, it does not overwrite them (import without merge \
                         to replace the state)",
                        incoming[i].key
                    ),
                ));
            }
        }
        records += incoming.len();
        if change != TreeChange::default() {
            trees.insert(c.tree, change);
        }
        writes.push((
            c.tree,
            incoming
                .into_iter()
                .map(|r| (r.key.into_bytes(), r.bytes))
                .collect(),
        ));
    }
    let cleared = match mode {
        Mode::Replace => CARRIED.iter().map(|c| c.tree).collect(),
        Mode::Merge => Vec::new(),
    };
    Ok(Plan {
        cleared,
        writes,
        preview: Preview {
            mode,
            trees,
            records,
        },
    })
}

/// Checks `bytes` and says what importing them would change, writing nothing.
pub fn preview(store: &Store, bytes: &[u8], mode: Mode) -> Result<Preview, FileError> {
    let parsed = parse(bytes)?;
    Ok(plan(store, parsed, mode)?.preview)
}

/// Imports a state file: all of it in one commit, or (refused) nothing. Batch runs and mock-data writes
/// wait meanwhile, so none decides against a state being replaced. The clock held in memory by a running
/// service is not moved here: see [`super::live::import`].
pub fn import(store: &Store, bytes: &[u8], mode: Mode) -> Result<Preview, FileError> {
    import_reporting(store, bytes, mode, &mut |_| {})
}

/// Where an import is: told to [`import_reporting`]'s caller as each stage is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportStage {
    /// The file is read and checked; nothing is written yet.
    Checked,
    /// The commit is about to start; nothing is written yet.
    Committing,
    /// The commit has returned: the new state is written.
    Committed,
}

impl ImportStage {
    pub fn name(self) -> &'static str {
        match self {
            ImportStage::Checked => "checked",
            ImportStage::Committing => "committing",
            ImportStage::Committed => "committed",
        }
    }
}

/// [`import`], telling `reached` each [`ImportStage`] as it is reached (the kill -9 trials stop an
/// import at the stages it reports rather than at a time guessed beforehand).
pub fn import_reporting(
    store: &Store,
    bytes: &[u8],
    mode: Mode,
    reached: &mut dyn FnMut(ImportStage),
) -> Result<Preview, FileError> {
    let started = std::time::Instant::now();
    let parsed = parse(bytes)?;
    let checked = started.elapsed();
    reached(ImportStage::Checked);
    let _runs = store.locks().runs();
    let _mock_data = store.locks().mock_data();
    let mut plan = plan(store, parsed, mode)?;
    let planned = started.elapsed();
    // The directory now holds the state its user gave it: a later start must not seed over it.
    plan.writes
        .push(xs2a_core::store::initialised::marker_write("state file")?);
    reached(ImportStage::Committing);
    store.write_raw(&plan.cleared, plan.writes)?;
    reached(ImportStage::Committed);
    tracing::debug!(?checked, ?planned, committed = ?started.elapsed(), "state file imported");
    Ok(plan.preview)
}
