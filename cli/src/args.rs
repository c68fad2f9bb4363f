//! The values the subcommands share: board sizes and ranges, thread
//! counts, unit lists, and every other number an option takes. Each parser
//! rejects bad input at parse time with one line that names the value and
//! the accepted range; [`super::usage_error`] puts the option's name in
//! front. An option whose value may look negative says
//! `allow_negative_numbers` (or `allow_hyphen_values`), so that `-1`
//! reaches its parser instead of clap's "unexpected argument". Engines, formats
//! and algorithms are the library's enums, read by [`super::values`].

use std::fmt::Display;
use std::num::NonZeroUsize;
use std::str::FromStr;

use queens::shard::{MAX_SHARDS, ShardId};
use queens::{Algorithm, Engine, MAX_N, MAX_SPLIT_DEPTH, MAX_THREADS};

/// Why an algorithm will not count a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// It would take longer than about a minute (`--force` overrides).
    TooSlow {
        /// The largest n it counts within a minute.
        limit: u32,
        /// The largest n it can count at all.
        max: u32,
    },
    /// It cannot represent the board at all.
    TooLarge {
        /// The largest n it can count.
        max: u32,
    },
}

/// Whether `algorithm` refuses an `n`-board, given `--force`.
pub fn refusal(algorithm: Algorithm, n: u32, force: bool) -> Option<Refusal> {
    let (limit, max) = (algorithm.comfortable_max_n(), algorithm.max_n());
    if n > limit && !force {
        Some(Refusal::TooSlow { limit, max })
    } else if n > max {
        Some(Refusal::TooLarge { max })
    } else {
        None
    }
}

/// Why `count --algorithm` will not count an `n`-board, in one line.
pub fn refuse_size(algorithm: Algorithm, n: u32, force: bool) -> Option<String> {
    let why_max = if algorithm == Algorithm::Cells {
        " (its board must fit in 64 bits)"
    } else {
        ""
    };
    Some(match refusal(algorithm, n, force)? {
        Refusal::TooSlow { limit, max } if n <= max => format!(
            "--algorithm {algorithm} is limited to n <= {limit}: n = {n} would take longer than a \
             minute (add --force to run it anyway)"
        ),
        Refusal::TooSlow { limit, max } => format!(
            "--algorithm {algorithm} is limited to n <= {limit}: n = {n} would take longer than a \
             minute, and even --force stops at n = {max}{why_max}"
        ),
        Refusal::TooLarge { max } => format!(
            "--algorithm {algorithm} handles boards up to n = {max}{why_max}; n = {n} is out of \
             range"
        ),
    })
}

/// Why `engine` will not count an `n`-board, in one line, naming the
/// engine `count N` takes for it (issue 47: `count 29 --engine join`
/// suggested the mirror engine, not the faster constellations).
pub fn refuse_engine(engine: Engine, n: u32) -> Option<String> {
    let range = engine.range();
    let best = Engine::best_for(n);
    (!range.contains(&n)).then(|| {
        let advice = if best.covers(n) {
            format!("; use --engine {best} for n = {n}, the default for it")
        } else {
            String::new()
        };
        format!(
            "the {engine} engine counts {} <= n <= {} only{advice}",
            range.start(),
            range.end(),
        )
    })
}

/// A board size between 1 and `max`, with the range in the message.
pub fn parse_board_size(text: &str, max: u32) -> Result<u32, String> {
    board_size(
        text,
        max,
        &format!("expected a whole number from 1 to {max}"),
    )
}

/// A board size between 1 and `max`; `syntax` says what was expected.
fn board_size(text: &str, max: u32, syntax: &str) -> Result<u32, String> {
    let n: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a board size: {syntax}"))?;
    u32::try_from(n)
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| format!("board size {n} is out of range: n must be between 1 and {max}"))
}

/// The board sizes to count: an inclusive range (a single n is `n..=n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// The first size.
    pub first: u32,
    /// The last size, at least `first`.
    pub last: u32,
}

/// What a board size or a range of them looks like.
pub const SIZE_SYNTAX: &str = "expected N or A..B (A..=B), with 1 <= A <= B <= 32";

/// `N`, `A..B` or `A..=B` (both inclusive, as `seq A B`).
pub fn parse_sizes(text: &str) -> Result<Sizes, String> {
    let size = |t: &str| board_size(t, MAX_N, SIZE_SYNTAX);
    let (first, last) = match text.split_once("..") {
        Some((a, b)) => (size(a)?, size(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let n = size(text)?;
            (n, n)
        }
    };
    if first > last {
        return Err(format!(
            "the range {first}..{last} is empty (its start is after its end): {SIZE_SYNTAX}"
        ));
    }
    Ok(Sizes { first, last })
}

/// A thread count from 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    let range = format!("the thread count must be between 1 and {MAX_THREADS}");
    let t: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number: {range}"))?;
    usize::try_from(t)
        .ok()
        .filter(|t| *t <= MAX_THREADS)
        .and_then(NonZeroUsize::new)
        .ok_or_else(|| format!("{t} is out of range: {range}"))
}

/// A whole number from `min` to `max`; `what` names it in the message
/// (`'abc' is not a number of seconds: expected a whole number from 0 to
/// 86400`), which is the same for a word, a fraction, a negative number
/// and one out of range.
fn whole_number<T>(text: &str, what: &str, min: T, max: T) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display + Copy,
{
    text.trim()
        .parse::<T>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| {
            format!("'{text}' is not {what}: expected a whole number from {min} to {max}")
        })
}

/// `--split-depth`: rows fixed by each unit of the mirror engine.
pub fn parse_split_depth(text: &str) -> Result<u32, String> {
    whole_number(text, "a split depth", 1, MAX_SPLIT_DEPTH)
}

/// The longest `--lock-wait`: a day.
pub const MAX_LOCK_WAIT: u64 = 86_400;

/// `--lock-wait`: seconds to wait for a journal another process holds.
pub fn parse_lock_wait(text: &str) -> Result<u64, String> {
    whole_number(text, "a number of seconds", 0, MAX_LOCK_WAIT)
}

/// `--seed`: any 64-bit seed.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    whole_number(text, "a seed", 0, u64::MAX)
}

/// `list --limit`: how many boards to write at most (0 writes none).
pub fn parse_limit(text: &str) -> Result<u64, String> {
    whole_number(text, "a number of boards", 0, u64::MAX)
}

/// The most timed runs `bench --runs` takes per thread count.
pub const MAX_RUNS: u32 = 100;

/// `bench --runs`: timed runs per thread count.
pub fn parse_runs(text: &str) -> Result<u32, String> {
    whole_number(text, "a number of runs", 1, MAX_RUNS)
}

/// The variable that sets the thread count when `--threads` is not given
/// (rayon's own, read here so that it obeys the rules of `--threads`).
pub const THREADS_VARIABLE: &str = "RAYON_NUM_THREADS";

/// The thread count of a command: `--threads` if given, else
/// [`THREADS_VARIABLE`] if set and not empty (nor only spaces), checked as
/// `--threads` is;
/// `None` for one thread per logical CPU. The library then gets the number
/// and never reads the variable (rayon would ignore a bad value in silence
/// and take any number, 0 meaning the default).
pub fn threads(flag: Option<NonZeroUsize>) -> Result<Option<NonZeroUsize>, super::UsageError> {
    threads_from(flag, std::env::var_os(THREADS_VARIABLE)).map_err(super::UsageError)
}

/// [`threads`], with the variable's value given.
fn threads_from(
    flag: Option<NonZeroUsize>,
    variable: Option<std::ffi::OsString>,
) -> Result<Option<NonZeroUsize>, String> {
    match (flag, variable) {
        (Some(t), _) => Ok(Some(t)),
        (None, Some(value)) if !value.to_string_lossy().trim().is_empty() => {
            parse_threads(&value.to_string_lossy())
                .map(Some)
                .map_err(|e| format!("{THREADS_VARIABLE}: {e}"))
        }
        (None, _) => Ok(None),
    }
}

const UNITS_SYNTAX: &str = "expected unit ids and ranges like 0-99,150,200-210";

/// More unit ids than any plan has (the join's at n = 27 has 70 million):
/// a list this long is a typo, refused before it fills memory.
const MAX_UNIT_IDS: u64 = 1 << 27;

/// Unit ids, sorted, each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitList(pub Vec<u32>);

/// A list of unit ids such as `0-99,150,200-210`: ids and inclusive
/// ranges, comma-separated, in any order. A unit listed twice (`0-10,5`)
/// is refused rather than merged: such a list is more likely a typo than a
/// wish, and a unit counted twice would be a wrong total.
pub fn parse_unit_list(text: &str) -> Result<UnitList, String> {
    let mut ids = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        let id = |t: &str| -> Result<u32, String> {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("'{item}' is not a unit id or a range A-B: {UNITS_SYNTAX}"))
        };
        let (first, last) = match item.split_once('-') {
            Some((a, b)) => (id(a)?, id(b)?),
            None => (id(item)?, id(item)?),
        };
        if first > last {
            return Err(format!(
                "the unit range {item} is empty (its start is after its end): {UNITS_SYNTAX}"
            ));
        }
        if ids.len() as u64 + u64::from(last - first) >= MAX_UNIT_IDS {
            return Err(format!(
                "--units lists more than {MAX_UNIT_IDS} units: no plan has that many"
            ));
        }
        ids.extend(first..=last);
    }
    ids.sort_unstable();
    if let Some(pair) = ids.windows(2).find(|p| p[0] == p[1]) {
        return Err(format!(
            "unit {} is listed more than once: {UNITS_SYNTAX}, each unit once",
            pair[0]
        ));
    }
    Ok(UnitList(ids))
}

/// `--shard`: `I/K`, or `env/K` to take I from the scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    /// Shard I of K.
    Given(ShardId),
    /// Shard `$SLURM_ARRAY_TASK_ID` (or another scheduler's index) of K.
    Env(u32),
}

const SHARD_SYNTAX: &str = "expected I/K with 0 <= I < K (e.g. 3/64), or env/K";

/// The variables a scheduler hands an array task its index in, in the
/// order they are looked at.
pub const SHARD_INDEX_VARIABLES: [&str; 3] = [
    "SLURM_ARRAY_TASK_ID",
    "JOB_COMPLETION_INDEX",
    "AWS_BATCH_JOB_ARRAY_INDEX",
];

/// `I/K` or `env/K`, with `1 <= K <= MAX_SHARDS` and `0 <= I < K`.
pub fn parse_shard(text: &str) -> Result<ShardArg, String> {
    let (index, of) = text
        .split_once('/')
        .ok_or_else(|| format!("'{text}' is not a shard: {SHARD_SYNTAX}"))?;
    let of: u32 = of
        .trim()
        .parse()
        .ok()
        .filter(|k| (1..=MAX_SHARDS).contains(k))
        .ok_or_else(|| {
            format!("'{of}' is not a shard count: K must be a whole number from 1 to {MAX_SHARDS}")
        })?;
    if index.trim() == "env" {
        return Ok(ShardArg::Env(of));
    }
    let index = shard_index(index, of)?;
    ShardId::new(index, of)
        .map(ShardArg::Given)
        .map_err(|e| e.to_string())
}

/// Shard index `text` of `of`, or why not.
fn shard_index(text: &str, of: u32) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|&i| i < of)
        .ok_or_else(|| {
            format!(
                "'{text}' is not a shard index of {of}: I must be a whole number from 0 to {}",
                of - 1
            )
        })
}

impl ShardArg {
    /// The shard, with `env/K` read from the first of
    /// [`SHARD_INDEX_VARIABLES`] that is set (`lookup` reads a variable).
    pub fn resolve(self, lookup: impl Fn(&str) -> Option<String>) -> Result<ShardId, String> {
        match self {
            Self::Given(shard) => Ok(shard),
            Self::Env(of) => {
                let Some((name, value)) = SHARD_INDEX_VARIABLES
                    .iter()
                    .find_map(|&name| lookup(name).map(|v| (name, v)))
                else {
                    return Err(format!(
                        "--shard env/{of} needs the shard index in {}, and none is set",
                        SHARD_INDEX_VARIABLES.join(", ")
                    ));
                };
                let index = shard_index(&value, of).map_err(|e| format!("{name}: {e}"))?;
                ShardId::new(index, of).map_err(|e| format!("{name}: {e}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47, item 16.
    #[test]
    fn a_refused_engine_names_the_default_engine_for_n() {
        assert_eq!(
            refuse_engine(Engine::Join, 29).unwrap(),
            "the join engine counts 4 <= n <= 28 only; use --engine constellations for n = 29, \
             the default for it"
        );
        assert!(
            refuse_engine(Engine::Join, 3)
                .unwrap()
                .ends_with("use --engine mirror for n = 3, the default for it")
        );
        assert!(!refuse_engine(Engine::Mirror, 33).unwrap().contains("use"));
        assert_eq!(refuse_engine(Engine::Join, 12), None);
    }

    #[test]
    fn shards_are_i_of_k_or_read_from_the_scheduler() {
        let given = |index, of| Ok(ShardArg::Given(ShardId::new(index, of).unwrap()));
        assert_eq!(parse_shard("3/64"), given(3, 64));
        assert_eq!(parse_shard("0/1"), given(0, 1));
        assert_eq!(parse_shard("env/8"), Ok(ShardArg::Env(8)));
        for bad in ["4/4", "1", "a/4", "-1/4", "0/0", "env/0", "0/100001"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        assert!(parse_shard("4/4").unwrap_err().contains("from 0 to 3"));
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let slurm = env(&[("SLURM_ARRAY_TASK_ID", "5"), ("JOB_COMPLETION_INDEX", "1")]);
        assert_eq!(
            ShardArg::Env(8).resolve(slurm),
            Ok(ShardId::new(5, 8).unwrap())
        );
        let k8s = env(&[("JOB_COMPLETION_INDEX", "2")]);
        assert_eq!(
            ShardArg::Env(4).resolve(k8s),
            Ok(ShardId::new(2, 4).unwrap())
        );
        let out_of_range = ShardArg::Env(4).resolve(env(&[("AWS_BATCH_JOB_ARRAY_INDEX", "4")]));
        assert!(
            out_of_range
                .unwrap_err()
                .starts_with("AWS_BATCH_JOB_ARRAY_INDEX: '4'")
        );
        let none = ShardArg::Env(4).resolve(env(&[])).unwrap_err();
        assert!(none.contains("SLURM_ARRAY_TASK_ID") && none.contains("none is set"));
    }

    #[test]
    fn the_thread_variable_obeys_the_rules_of_the_flag() {
        // See: issue 20 (RAYON_NUM_THREADS=5000 got past the cap of 4096).
        let var = |v: &str| Some(std::ffi::OsString::from(v));
        let four = NonZeroUsize::new(4);
        assert_eq!(threads_from(None, None), Ok(None));
        assert_eq!(threads_from(None, var("")), Ok(None));
        // See: issue 32 (spaces alone were a bad value, not an unset one).
        assert_eq!(threads_from(None, var(" \t")), Ok(None));
        assert_eq!(threads_from(None, var("4")), Ok(four));
        assert_eq!(threads_from(four, var("5000")), Ok(four), "the flag wins");
        assert_eq!(
            threads_from(None, var("5000")),
            Err(
                "RAYON_NUM_THREADS: 5000 is out of range: the thread count must be between 1 \
                 and 4096"
                    .to_owned()
            )
        );
        for bad in ["0", "x", "-1", "4 threads"] {
            let err = threads_from(None, var(bad)).unwrap_err();
            assert!(
                err.starts_with("RAYON_NUM_THREADS: ") && err.contains("between 1 and 4096"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn numbers_name_their_range_for_any_bad_value() {
        // See: issue 32 ("invalid digit found in string", no range).
        assert_eq!(parse_lock_wait("86400"), Ok(86_400));
        assert_eq!(parse_lock_wait(" 0 "), Ok(0));
        assert_eq!(parse_split_depth("6"), Ok(6));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_limit("0"), Ok(0));
        assert_eq!(parse_runs("100"), Ok(100));
        for bad in ["abc", "", " ", "0.5", "inf", "1e9", "-1", "86401", "+-1"] {
            assert_eq!(
                parse_lock_wait(bad),
                Err(format!(
                    "'{bad}' is not a number of seconds: expected a whole number from 0 to 86400"
                ))
            );
        }
        for bad in ["0", "7", "-1", "x"] {
            assert!(
                parse_split_depth(bad).unwrap_err().ends_with("from 1 to 6"),
                "{bad}"
            );
        }
        for bad in ["0", "101", "-1", ""] {
            assert!(
                parse_runs(bad).unwrap_err().ends_with("from 1 to 100"),
                "{bad}"
            );
        }
        for bad in ["-1", "18446744073709551616", "abc"] {
            assert!(
                parse_seed(bad)
                    .unwrap_err()
                    .starts_with(&format!("'{bad}' is not a seed"))
            );
            assert!(
                parse_limit(bad)
                    .unwrap_err()
                    .contains("from 0 to 18446744073709551615")
            );
        }
    }

    #[test]
    fn board_sizes_name_the_range() {
        assert_eq!(parse_board_size("8", 32), Ok(8));
        assert_eq!(
            parse_board_size("0", 32),
            Err("board size 0 is out of range: n must be between 1 and 32".to_owned())
        );
        assert_eq!(
            parse_board_size("x", 5),
            Err("'x' is not a board size: expected a whole number from 1 to 5".to_owned())
        );
        assert!(
            parse_board_size("99999999999999999999", 5)
                .unwrap_err()
                .contains("not a board size")
        );
    }

    #[test]
    fn slow_algorithms_are_refused_beyond_a_minute_unless_forced() {
        assert!(refuse_size(Algorithm::Cells, 5, false).is_none());
        let refusal = refuse_size(Algorithm::Cells, 6, false).unwrap();
        assert!(refusal.contains("n <= 5") && refusal.contains("--force"));
        assert!(refuse_size(Algorithm::Cells, 6, true).is_none());
        assert!(
            refuse_size(Algorithm::Cells, 9, true)
                .unwrap()
                .contains("up to n = 8")
        );
        assert!(refuse_size(Algorithm::Parallel, 17, false).is_none());
    }

    #[test]
    fn sizes_accept_a_number_and_both_range_spellings() {
        let one = |first, last| Ok(Sizes { first, last });
        assert_eq!(parse_sizes("16"), one(16, 16));
        assert_eq!(parse_sizes("8..16"), one(8, 16));
        assert_eq!(parse_sizes("8..=16"), one(8, 16));
    }

    #[test]
    fn sizes_reject_everything_else() {
        for bad in [
            "", "0", "-3", "33", "x", "8..", "..8", "8...9", "16..8", "8-16", "1e3",
        ] {
            let err = parse_sizes(bad).unwrap_err();
            assert!(
                err.contains("board size") || err.contains("is empty"),
                "{bad:?}: {err}"
            );
        }
    }

    #[test]
    fn threads_reject_zero_and_absurd_counts() {
        assert!(
            parse_threads("0")
                .unwrap_err()
                .contains("0 is out of range")
        );
        assert!(
            parse_threads("-2")
                .unwrap_err()
                .contains("-2 is out of range")
        );
        assert!(
            parse_threads("100000")
                .unwrap_err()
                .contains("between 1 and 4096")
        );
        assert_eq!(parse_threads("7").map(NonZeroUsize::get), Ok(7));
    }

    #[test]
    fn unit_lists_take_ids_and_ranges_in_any_order() {
        assert_eq!(
            parse_unit_list("7,0-2, 5"),
            Ok(UnitList(vec![0, 1, 2, 5, 7]))
        );
        assert_eq!(parse_unit_list("3-3"), Ok(UnitList(vec![3])));
    }

    #[test]
    fn unit_lists_refuse_overlaps_empty_ranges_and_garbage() {
        let err = |text| parse_unit_list(text).unwrap_err();
        assert!(err("0-10,5").starts_with("unit 5 is listed more than once"));
        assert!(err("4,4").starts_with("unit 4 is listed more than once"));
        assert!(err("9-3").starts_with("the unit range 9-3 is empty"));
        assert!(err("0-4294967295").contains("more than 134217728 units"));
        for bad in ["", "1,,2", "a", "-1", "1-", "1-2-3", "4294967296", "1.5"] {
            assert!(
                err(bad).contains("is not a unit id"),
                "{bad:?}: {}",
                err(bad)
            );
        }
    }
}
