//! The fast engine against a slow, obviously correct solver.

use crate::common;

use crate::common::{parallel, serial};
use common::{legal_prefix, reference_completions, reference_solutions};
use proptest::prelude::*;
use queens::internals::{Masks, count_completions};
use queens::{Config, known};

#[test]
fn reference_solver_matches_a000170() {
    for n in 1..=9 {
        assert_eq!(
            Some(reference_solutions(n).len() as u128),
            known::total(n as u32)
        );
    }
}

#[test]
fn engines_agree_with_the_reference_up_to_10() {
    for n in 1..=10usize {
        let want = reference_solutions(n).len() as u128;
        let n = n as u32;
        assert_eq!(serial(n, &Config::default(), &()).unwrap().solutions, want);
        assert_eq!(parallel(n, 2, &()).unwrap().solutions, want);
    }
}

fn masks_of(prefix: &[usize]) -> Masks {
    prefix.iter().fold(Masks::EMPTY, |m, &c| m.place(1 << c))
}

proptest! {
    /// From any legal partial placement, the kernel's count of completions
    /// equals the reference's. This reaches every finishing path of the
    /// kernel: one row left, two, three, and the main loop.
    #[test]
    fn kernel_counts_completions_of_any_legal_prefix(
        n in 1usize..=11,
        choices in proptest::collection::vec(any::<usize>(), 0..=11),
    ) {
        let prefix = legal_prefix(n, &choices);
        let got = count_completions(n as u32, prefix.len() as u32, masks_of(&prefix));
        prop_assert_eq!(got, reference_completions(n, &prefix));
    }
}
