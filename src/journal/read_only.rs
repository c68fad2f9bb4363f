//! [`ReadOnly`]: a journal opened only to be read (to recount a sample of
//! its records, `queens verify --journal`), never locked, cut or written,
//! so that a count still appending to it is not disturbed.
//!
//! It is read in three steps, so that a caller can check and say what it
//! likes between them: the header, which names the plan
//! ([`ReadOnly::shape`]); the plan, built again from it
//! ([`ReadOnly::plan`]: the join's takes minutes at n = 28, and may not
//! fit in memory); and the records that check out under that plan
//! ([`ReadOnly::replay`]).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::{Described, Header, MAX_HEADER, Refusal, Replay, is_torn_header, max_len};
use crate::files;
use crate::{Config, Engine, Error, Plan, Problem, Shape};

/// A journal open for reading, its header read.
#[derive(Debug)]
pub struct ReadOnly {
    file: File,
    described: Described,
    engine: Engine,
}

impl ReadOnly {
    /// Opens the journal at `path` (a regular file) and reads what its
    /// header says of its plan.
    ///
    /// # Errors
    /// Why the file is no journal this build can read, in one line: not a
    /// regular file, unreadable, a torn or unknown header, an engine this
    /// build does not have.
    pub fn open(path: &Path) -> Result<Self, String> {
        let file = files::open_input(path, "a journal", false, false)?;
        let head = read_head(&file)?;
        let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
        let described = std::str::from_utf8(line)
            .map_err(|_| Refusal::NotAJournal)
            .and_then(Header::describe)
            .map_err(|refusal| refusal.to_string())?;
        let engine = described
            .engine
            .parse()
            .map_err(|_| format!("engine '{}' is not one this build has", described.engine))?;
        Ok(Self {
            file,
            described,
            engine,
        })
    }

    /// The shape of the plan the header names (for a problem's plan, the
    /// empty board's of the same split: what its memory is bounded by).
    #[must_use]
    pub fn shape(&self) -> Shape {
        Shape::new(self.described.n, self.engine, self.described.split)
    }

    /// Builds the plan the header names with `config`: the problem's
    /// completions where it names a problem.
    ///
    /// # Errors
    /// Whatever [`Plan::new`] or [`Plan::for_problem`] refuses (a header
    /// naming a plan this build cannot make, a plan above the config's
    /// memory limit); [`Error::ProblemSize`] for a problem of another
    /// board than the header's.
    pub fn plan(&self, config: &Config) -> Result<Plan, Error> {
        let Described {
            n, split, problem, ..
        } = &self.described;
        let Some(line) = problem else {
            return Plan::new(self.shape(), config);
        };
        let problem = Problem::from_line(line)?;
        if problem.n() != *n {
            return Err(Error::ProblemSize {
                n: *n,
                problem: problem.n(),
            });
        }
        Plan::for_problem(&problem, *split, config)
    }

    /// Reads the whole journal back under `plan` (built by
    /// [`plan`](Self::plan)): every record that checks out, and where the
    /// damage starts, if anywhere.
    ///
    /// # Errors
    /// Why it cannot be read, in one line: larger than any journal of the
    /// plan, unreadable, or refused whole ([`Replay::read`]).
    pub fn replay(&self, plan: &Plan) -> Result<Replay, String> {
        (&self.file)
            .seek(SeekFrom::Start(0))
            .map_err(|e| e.to_string())?;
        let cap = max_len(plan.len());
        let bytes = files::read_capped(&self.file, "a journal of this plan", cap)?;
        Replay::read(&bytes, plan).map_err(|refusal| refusal.to_string())
    }
}

/// The first [`MAX_HEADER`] bytes of `file`, refused where they are a
/// header whose first write was cut short.
fn read_head(file: &File) -> Result<Vec<u8>, String> {
    let mut head = Vec::new();
    file.take(MAX_HEADER as u64)
        .read_to_end(&mut head)
        .map_err(|e| e.to_string())?;
    if head.len() < MAX_HEADER && is_torn_header(&head) {
        return Err(Refusal::TornHeader.to_string());
    }
    Ok(head)
}
