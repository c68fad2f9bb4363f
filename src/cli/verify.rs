//! `queens verify DIR --sample P%`: recounts a random sample of the units
//! in a set of shard results and compares. Merge proves the files are
//! complete and consistent with each other; only recounting catches a
//! node that counted wrong or a file forged together with its total.
//!
//! The sample is the units whose SHA-256 of `seed:id` is smallest: the
//! same on every machine for the same seed, and unpredictable without it.
//! With no `--seed` a fresh one is drawn and printed, so that the check can
//! be repeated.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Instant, SystemTime};

use anyhow::Context;
use queens::shard::{self, ShardFile};
use queens::{Config, Counter, DEFAULT_SPLIT_DEPTH};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::args::parse_threads;
use super::report::mismatch;
use super::shard::{gather, plan_of, read};

/// A disagreement between a file and the recount.
const EXIT_DISAGREES: u8 = 3;

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Shard results (shard-IIII-of-KKKK.json), or directories holding them.
    #[arg(value_name = "DIR|FILES", required = true)]
    paths: Vec<PathBuf>,

    /// How much to recount: a percentage of the units present (e.g. 1%,
    /// 0.5%, 100%); at least one unit.
    #[arg(long, value_name = "P%", value_parser = parse_percent)]
    sample: f64,

    /// Which sample: the same seed picks the same units everywhere
    /// [default: a fresh seed, printed].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,

    /// Worker threads [default: all cores, or RAYON_NUM_THREADS].
    #[arg(short = 'j', long, value_name = "T", value_parser = parse_threads)]
    threads: Option<NonZeroUsize>,

    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// A verification, as `--json` prints it.
#[derive(Debug, Serialize)]
struct VerifyRecord {
    /// Board size.
    n: u32,
    /// The engine whose plan the shards share, which recounts.
    engine: &'static str,
    /// The plan's hash.
    plan: String,
    /// The seed that picked the sample.
    seed: u64,
    /// Units with a count in the files.
    units_present: usize,
    /// Units recounted.
    sampled: usize,
    /// Sampled units whose recount differs from the file: `[id, file, recount]`.
    disagreements: Vec<(u32, u64, u128)>,
    /// Wall time of the recount, in seconds.
    elapsed_secs: f64,
}

/// `1%`, `0.5%`, `100` (the `%` is optional): a share above 0 and at most 100.
fn parse_percent(text: &str) -> Result<f64, String> {
    text.trim()
        .trim_end_matches('%')
        .parse::<f64>()
        .ok()
        .filter(|p| *p > 0.0 && *p <= 100.0)
        .ok_or_else(|| format!("'{text}' is not a sample size: expected a percentage above 0 and at most 100, like 1%"))
}

pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let mut files: Vec<(String, ShardFile)> = Vec::new();
    for path in gather(&args.paths)? {
        let file = read(&path).map_err(|e| anyhow::anyhow!("{e}: run 'queens merge' first"))?;
        files.push((path.display().to_string(), file));
    }
    let reference = shard::reference(&files).context("no shard results given")?;
    let plan = plan_of(&files[reference].1)?;
    let engine = plan.engine();
    let config = Config::with_threads(args.threads.map_or(0, NonZeroUsize::get))
        .with_split_depth(plan.split_depth().unwrap_or(DEFAULT_SPLIT_DEPTH))
        .with_memory_limit(super::memory::available()?);
    let merge = shard::merge(&plan, &files);
    if !merge.is_consistent() {
        for problem in &merge.problems {
            eprintln!("queens: {problem}");
        }
        anyhow::bail!(
            "the files are not consistent: run 'queens merge' and fix what it says before \
             verifying"
        );
    }

    let seed = args.seed.unwrap_or_else(fresh_seed);
    let present: Vec<u32> = (0..plan.len() as u32)
        .filter(|&id| merge.counts[id as usize].is_some())
        .collect();
    let sample = pick(&present, args.sample, seed);
    if !args.json {
        eprintln!(
            "queens: recounting {} of {} units (seed {seed}) with the {engine} engine",
            sample.len(),
            present.len()
        );
    }
    let started = Instant::now();
    let recount = Counter::new(plan.n())
        .config(&config)
        .units(&sample)
        .run_plan(&plan)?;
    let disagreements: Vec<(u32, u64, u128)> = recount
        .unit_counts
        .iter()
        .filter_map(|&(id, count)| {
            let said = merge.counts[id as usize].expect("sampled units are present");
            (u128::from(said) != count).then_some((id, said, count))
        })
        .collect();
    let record = VerifyRecord {
        n: plan.n(),
        engine: engine.name(),
        plan: plan.hash().to_string(),
        seed,
        units_present: present.len(),
        sampled: sample.len(),
        disagreements,
        elapsed_secs: started.elapsed().as_secs_f64(),
    };
    let mut out = super::stdout();
    if args.json {
        serde_json::to_writer(&mut out, &record)?;
        std::io::Write::write_all(&mut out, b"\n")?;
    } else if record.disagreements.is_empty() {
        std::io::Write::write_fmt(
            &mut out,
            format_args!(
                "ok: {} of {} units recounted (seed {seed}), every one agrees\n",
                record.sampled, record.units_present
            ),
        )?;
    }
    std::io::Write::flush(&mut out)?;
    if let Some(&(id, said, count)) = record.disagreements.first() {
        mismatch(&format!(
            "for n = {}: {} of {} recounted units differ from the files; unit {id} says {said}, \
             the recount gives {count}",
            plan.n(),
            record.disagreements.len(),
            record.sampled
        ));
        return Ok(ExitCode::from(EXIT_DISAGREES));
    }
    Ok(ExitCode::SUCCESS)
}

/// The `percent`% of `ids` (at least one, if any) whose SHA-256 of
/// `seed:id` is smallest, in id order.
fn pick(ids: &[u32], percent: f64, seed: u64) -> Vec<u32> {
    let want =
        ((ids.len() as f64 * percent / 100.0).ceil() as usize).clamp(ids.len().min(1), ids.len());
    let mut keyed: Vec<([u8; 32], u32)> = ids
        .iter()
        .map(|&id| (Sha256::digest(format!("{seed}:{id}")).into(), id))
        .collect();
    keyed.sort_unstable();
    let mut sample: Vec<u32> = keyed.into_iter().take(want).map(|(_, id)| id).collect();
    sample.sort_unstable();
    sample
}

/// A seed nobody chose: the clock's nanoseconds and the process id.
fn fresh_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_reproducible_sized_and_seed_dependent() {
        let ids: Vec<u32> = (0..1000).collect();
        let a = pick(&ids, 1.0, 7);
        assert_eq!(a.len(), 10);
        assert_eq!(a, pick(&ids, 1.0, 7));
        assert_ne!(a, pick(&ids, 1.0, 8));
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(pick(&ids, 0.01, 1).len(), 1);
        assert_eq!(pick(&ids, 100.0, 1), ids);
        assert!(pick(&[], 50.0, 1).is_empty());
    }

    #[test]
    fn percentages_are_checked() {
        assert_eq!(parse_percent("1%"), Ok(1.0));
        assert_eq!(parse_percent("0.5"), Ok(0.5));
        for bad in ["0%", "101%", "x", "-1%", ""] {
            assert!(parse_percent(bad).is_err(), "{bad}");
        }
    }
}
