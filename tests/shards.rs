//! Shards and their merge, in process: for K = 1, 3, 4, 7 and n = 12..16
//! with every engine (12..14 for constellations: 15 and 16 would add
//! seconds), the shards' files merge to the OEIS total; every kind of bad
//! set is refused with its own problem, and a file that fails a check
//! contributes nothing.

use std::num::NonZeroU32;

use queens::shard::{self, Assignment, Problem, ShardFile, ShardId};
use queens::{Config, Counter, Engine, Plan, Shape, known};

const ENGINES: [Engine; 3] = Engine::ALL;

fn plan(n: u32, engine: Engine) -> Plan {
    Plan::new(Shape::new(n, engine, None), &Config::default()).unwrap()
}

fn nonzero(shards: u32) -> NonZeroU32 {
    NonZeroU32::new(shards).unwrap()
}

/// The files of every shard of `plan` among `shards`, from the count of
/// each unit (`counts`, by id).
fn files(plan: &Plan, shards: u32, counts: &[u128]) -> Vec<(String, ShardFile)> {
    let owners = Assignment::for_engine(plan.engine()).owners(plan, nonzero(shards));
    (0..shards)
        .map(|index| {
            let units: Vec<(u32, u128)> = (0..plan.len() as u32)
                .filter(|&id| owners[id as usize] == index)
                .map(|id| (id, counts[id as usize]))
                .collect();
            (
                ShardFile::file_name(index, shards),
                ShardFile::new(plan, ShardId::new(index, shards).unwrap(), &units),
            )
        })
        .collect()
}

/// Every unit's count, by id.
fn unit_counts(plan: &Plan) -> Vec<u128> {
    let count = Counter::new(plan.n()).run_plan(plan).unwrap();
    let mut counts = vec![0; plan.len()];
    for (id, c) in count.unit_counts {
        counts[id as usize] = c;
    }
    counts
}

#[test]
fn shards_merge_to_a000170_for_every_k_and_every_engine() {
    for engine in ENGINES {
        // Both parities, each engine's units counted once per board (n =
        // 16, three quarters of this test's time, added no other branch:
        // merging and its checks do not look at n).
        let last = if engine == Engine::Constellations {
            14
        } else {
            15
        };
        for n in 12..=last {
            let plan = plan(n, engine);
            let counts = unit_counts(&plan);
            for shards in [1, 3, 4, 7] {
                let merged = shard::merge(&plan, &files(&plan, shards, &counts));
                assert!(
                    merged.is_complete(),
                    "{engine} n = {n} K = {shards}: {merged:?}"
                );
                assert_eq!(Some(merged.total), known::total(n), "{engine} {n} {shards}");
                assert_eq!(merged.shards_present, shards as usize);
                assert_eq!(merged.confirmed, 0);
            }
        }
    }
}

#[test]
fn each_shard_counted_on_its_own_adds_up() {
    for engine in ENGINES {
        let plan = plan(13, engine);
        let assignment = Assignment::for_engine(engine);
        let files: Vec<(String, ShardFile)> = (0..3)
            .map(|index| {
                let ids = assignment.units(&plan, ShardId::new(index, 3).unwrap());
                let count = Counter::new(13).units(&ids).run_plan(&plan).unwrap();
                (
                    format!("{index}"),
                    ShardFile::new(&plan, ShardId::new(index, 3).unwrap(), &count.unit_counts),
                )
            })
            .collect();
        let merged = shard::merge(&plan, &files);
        assert_eq!(
            (merged.is_complete(), merged.total),
            (true, 73_712),
            "{engine}"
        );
    }
}

#[test]
fn the_assignments_deal_every_unit_once_and_as_documented() {
    let mirror = plan(14, Engine::Mirror);
    let owners = Assignment::RoundRobin.owners(&mirror, nonzero(5));
    assert!(owners.iter().enumerate().all(|(id, &o)| o == id as u32 % 5));

    let join = plan(16, Engine::Join);
    for shards in [1, 4, 16, 64] {
        let owners = Assignment::Lpt.owners(&join, nonzero(shards));
        let mut loads = vec![0u128; shards as usize];
        for (id, &owner) in owners.iter().enumerate() {
            loads[owner as usize] += u128::from(join.cost(id as u32).unwrap());
        }
        // Largest first to the least loaded: no shard exceeds the mean by
        // more than the largest unit.
        let largest = u128::from(
            (0..join.len() as u32)
                .map(|id| join.cost(id).unwrap())
                .max()
                .unwrap(),
        );
        let mean = loads.iter().sum::<u128>() / u128::from(shards);
        assert!(loads.iter().all(|&l| l <= mean + largest), "K = {shards}");
        let dealt: usize = (0..shards)
            .map(|s| {
                Assignment::Lpt
                    .units(&join, ShardId::new(s, shards).unwrap())
                    .len()
            })
            .sum();
        assert_eq!(dealt, join.len());
    }
    assert_eq!(
        Assignment::for_engine(Engine::Mirror),
        Assignment::RoundRobin
    );
    assert_eq!(Assignment::for_engine(Engine::Join), Assignment::Lpt);
    assert_eq!(
        Assignment::for_engine(Engine::Constellations),
        Assignment::Lpt
    );
}

/// The shards of n = 12 (join) among 4, merged after `damage`.
fn merged_after(damage: impl FnOnce(&mut Vec<(String, ShardFile)>)) -> shard::Merge {
    let plan = plan(12, Engine::Join);
    let mut set = files(&plan, 4, &unit_counts(&plan));
    damage(&mut set);
    shard::merge(&plan, &set)
}

/// The one problem of `merge`, which must not be complete.
fn only_problem(merge: &shard::Merge) -> &Problem {
    assert!(!merge.is_complete());
    assert_eq!(merge.problems.len(), 1, "{:?}", merge.problems);
    &merge.problems[0]
}

#[test]
fn a_missing_shard_is_named_ready_to_resubmit() {
    let merged = merged_after(|set| {
        set.remove(3);
        set.remove(1);
    });
    let problem = only_problem(&merged);
    assert!(matches!(problem, Problem::Missing { missing, shards: 4, .. } if missing == &[1, 3]));
    // The indices as a job array takes them; the CLI phrases the command
    // (cli/tests/cli_shards.rs), the library gives the data.
    assert!(problem.to_string().ends_with("shards 1,3"), "{problem}");
    assert!(merged.is_consistent());
    assert_eq!(shard::ranges(&[0, 1, 2, 5, 7, 8]), "0-2,5,7-8");
}

#[test]
fn a_shard_twice_confirms_equal_counts_and_refuses_different_ones() {
    let confirmed = merged_after(|set| {
        let copy = set[2].clone();
        set.push(copy);
    });
    assert!(confirmed.is_complete());
    assert_eq!(confirmed.total, 14_200);
    assert_eq!(confirmed.confirmed, confirmed_units(2));

    let conflicting = merged_after(|set| {
        let mut copy = set[2].clone();
        let (_, file) = &mut copy;
        let last = file.units.len() - 1;
        // By 8, a multiple of any weight: a count the unit could have.
        file.units[last].1 += 8;
        file.total = (file.total.parse::<u128>().unwrap() + 8).to_string();
        copy.0 = "changed".to_owned();
        set.push(copy);
    });
    let problem = only_problem(&conflicting);
    assert!(
        matches!(problem, Problem::Conflict { units: 1, .. }),
        "{problem}"
    );
    assert!(problem.to_string().contains("changed"), "{problem}");
}

/// How many units shard `index` of n = 12 (join) among 4 has.
fn confirmed_units(index: u32) -> usize {
    Assignment::Lpt
        .units(&plan(12, Engine::Join), ShardId::new(index, 4).unwrap())
        .len()
}

#[test]
fn files_from_another_plan_or_version_are_left_out() {
    let other_version = merged_after(|set| set[1].1.version = "0.0.1".to_owned());
    let problems = &other_version.problems;
    assert!(matches!(
        problems[0],
        Problem::OtherRun {
            files: 1,
            field: "version",
            ..
        }
    ));
    assert!(matches!(&problems[1], Problem::Missing { missing, .. } if missing == &[1]));

    let other_plan = merged_after(|set| {
        for (_, file) in set.iter_mut() {
            file.plan = format!("sha256:{}", "0".repeat(64));
        }
    });
    assert!(matches!(
        only_problem(&other_plan),
        Problem::OtherPlan { n: 12, .. }
    ));

    let other_board = merged_after(|set| {
        let plan13 = plan(13, Engine::Join);
        set[0] = (
            "n13".to_owned(),
            ShardFile::new(&plan13, ShardId::new(0, 4).unwrap(), &[]),
        );
    });
    assert!(matches!(
        other_board.problems[0],
        Problem::OtherRun { field: "n", .. }
    ));
}

#[test]
fn a_total_that_is_not_the_sum_of_its_units_is_refused() {
    let merged = merged_after(|set| {
        let total: u128 = set[0].1.total.parse().unwrap();
        set[0].1.total = (total + 1).to_string();
    });
    assert!(matches!(
        merged.problems[0],
        Problem::BadTotal { files: 1, .. }
    ));
    assert!(matches!(&merged.problems[1], Problem::Missing { missing, .. } if missing == &[0]));
}

#[test]
fn a_file_with_units_not_its_own_is_refused() {
    let merged = merged_after(|set| {
        let stolen = set[1].1.units[0];
        set[0].1.units.push(stolen);
    });
    let Problem::NotItsUnits {
        files: 1,
        extra: 1,
        lacking: 0,
        ..
    } = merged.problems[0]
    else {
        panic!("{:?}", merged.problems);
    };
    let dropped = merged_after(|set| {
        set[3].1.units.pop();
    });
    assert!(matches!(
        dropped.problems[0],
        Problem::NotItsUnits {
            extra: 0,
            lacking: 1,
            ..
        }
    ));
}

#[test]
fn the_digest_is_the_sha256_of_the_canonical_csv() {
    let plan = plan(8, Engine::Mirror);
    let counts = unit_counts(&plan);
    let merged = shard::merge(&plan, &files(&plan, 3, &counts));
    let csv = shard::units_csv(&plan, &merged.counts);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("id,descriptor,count"));
    let first = plan.unit(0).unwrap();
    assert_eq!(
        lines.next().unwrap(),
        format!("0,{},{}", first.descriptor, counts[0])
    );
    assert_eq!(csv.lines().count(), plan.len() + 1);
    let digest = shard::digest(&csv);
    assert!(digest.starts_with("sha256:") && digest.len() == 71);
    // The same counts dealt to other shard counts give the same digest.
    let other = shard::merge(&plan, &files(&plan, 7, &counts));
    assert_eq!(
        shard::digest(&shard::units_csv(&plan, &other.counts)),
        digest
    );
}

/// A count no unit can have is refused even when the forger fixed the
/// file's total to match: one not a multiple of the unit's weight, and
/// one past the most a unit of the board can count. The file contributes
/// nothing. See: issue 32.
#[test]
fn a_count_no_unit_can_have_is_refused_with_its_total_fixed() {
    let plan = plan(13, Engine::Constellations);
    let counts = unit_counts(&plan);
    let forge = |change: &dyn Fn(u32, u64) -> u64| {
        let mut set = files(&plan, 4, &counts);
        let file = &mut set[0].1;
        let at = (file.units.iter())
            .position(|&(id, _)| plan.unit(id).unwrap().weight == 8)
            .expect("shard 0 has a unit of weight 8");
        let (id, count) = file.units[at];
        file.units[at].1 = change(id, count);
        let total: u128 = file.units.iter().map(|&(_, c)| u128::from(c)).sum();
        file.total = total.to_string();
        (id, shard::merge(&plan, &set))
    };
    // The forged file is left out: its shard is missing.
    let first_problem = |merged: &shard::Merge| {
        assert_eq!(merged.problems.len(), 2, "{:?}", merged.problems);
        assert!(matches!(&merged.problems[1], Problem::Missing { missing, .. } if missing == &[0]));
        merged.problems[0].clone()
    };
    let (id, merged) = forge(&|_, count| count + 203);
    let problem = &first_problem(&merged);
    assert!(matches!(
        problem,
        Problem::Impossible { files: 1, example, .. } if example == "shard-0000-of-0004.json"
    ));
    let text = problem.to_string();
    assert!(text.contains("damaged or forged"), "{text}");
    assert!(
        text.contains(&format!("unit {id}: count "))
            && text.contains("not a multiple of its weight 8"),
        "{text}"
    );
    assert_eq!(merged.shards_present, 3);
    for huge in [u64::MAX, u64::MAX - 7] {
        let (_, merged) = forge(&|_, _| huge);
        let text = first_problem(&merged).to_string();
        assert!(
            text.contains("not a multiple") || text.contains("more than any unit of n = 13"),
            "{text}"
        );
    }
    let (_, merged) = forge(&|_, _| u64::MAX - 7);
    let text = first_problem(&merged).to_string();
    assert!(text.contains("more than any unit of n = 13"), "{text}");
}
