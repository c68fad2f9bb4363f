//! A plan's name: [`PlanHash`], the SHA-256 over a canonical text of
//! everything that defines the plan (its [`PlanHeader`], then one
//! descriptor a line), the same on every machine, for every thread count
//! and every run. Journals and shard files are written from the same
//! header, so that none of them can leave a field out.

use std::fmt;

use sha2::{Digest, Sha256};

use super::{Body, Plan};
use crate::Error;

/// The mirror engine's plan format: bump when its units or descriptors
/// change meaning, so that old journals and shards are refused.
pub(super) const MIRROR_FORMAT: u32 = 1;
/// The join engine's plan format (all its stages).
pub(super) const JOIN_FORMAT: u32 = 1;
/// The constellations engine's plan format.
pub(super) const CONSTELLATIONS_FORMAT: u32 = 1;

/// The SHA-256 that names a plan, shown as `sha256:<64 hex digits>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlanHash(pub(super) [u8; 32]);

impl fmt::Display for PlanHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&sha256_text(&self.0))
    }
}

/// A SHA-256 digest as queens writes it everywhere (plan hashes, shard
/// runs' digests): `sha256:` and 64 lower-case hex digits.
pub(crate) fn sha256_text(digest: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut text = String::with_capacity(7 + 2 * digest.len());
    text.push_str("sha256:");
    for byte in digest {
        write!(text, "{byte:02x}").expect("writing to a String cannot fail");
    }
    text
}

impl std::str::FromStr for PlanHash {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        let bad = || Error::PlanHash(s.to_owned());
        let hex = s
            .strip_prefix("sha256:")
            .filter(|h| h.len() == 64)
            .ok_or_else(bad)?;
        let mut bytes = [0; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            let pair = hex.get(2 * i..2 * i + 2).ok_or_else(bad)?;
            *b = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
        }
        Ok(Self(bytes))
    }
}

impl Plan {
    /// Everything that defines the plan besides its units, as its hash,
    /// its journals and its shard files name it.
    pub(crate) fn header(&self) -> PlanHeader {
        PlanHeader {
            n: self.n,
            engine: self.planner.name(),
            format: self.format(),
            split: self.split_depth(),
            problem: match &self.body {
                Body::Completion(plan) => Some(plan.line().to_owned()),
                _ => None,
            },
        }
    }

    /// SHA-256 over a header of everything that defines the plan, then
    /// one descriptor a line, fed to the hash a line at a time: the text
    /// itself would take 3 GB at n = 32, split depth 6.
    pub(super) fn canonical_hash(&self) -> PlanHash {
        let mut hash = Sha256::new();
        hash.update("queens plan\n");
        for (key, value) in self.header().fields() {
            hash.update(format!("{key} {value}\n"));
        }
        for unit in self.units() {
            hash.update("unit ");
            hash.update(unit.descriptor);
            hash.update("\n");
        }
        PlanHash(hash.finalize().into())
    }
}

/// What defines a plan besides its units: the one list that its hash,
/// its journals' headers and its shard files are written from, so that
/// none of them can leave a field out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlanHeader {
    pub n: u32,
    /// The engine's name.
    pub engine: &'static str,
    /// The engine's plan format ([`Plan::format`]).
    pub format: u32,
    /// The split depth, for an engine that has one.
    pub split: Option<u32>,
    /// The problem's [line](crate::Problem::to_line), for a plan of a problem's
    /// completions; `None` (and no field at all) for the empty board.
    pub problem: Option<String>,
}

impl PlanHeader {
    /// The fields as text, in the order the hash and journals write them,
    /// `split` as `-` where there is none, and `problem` last where there
    /// is one (so that the plans of the empty board keep their hashes).
    pub(crate) fn fields(&self) -> Vec<(&'static str, String)> {
        let mut fields = vec![
            ("n", self.n.to_string()),
            ("engine", self.engine.to_owned()),
            ("format", self.format.to_string()),
            (
                "split",
                self.split.map_or("-".to_owned(), |d| d.to_string()),
            ),
        ];
        if let Some(problem) = &self.problem {
            fields.push(("problem", problem.clone()));
        }
        fields
    }
}
