//! What a unit's work is estimated at: the size of its search tree, by
//! random walks down it, in a unit that keeps a plan's total within 64
//! bits.
//!
//! Both backtracking engines estimate their units so (the join counts its
//! own pair tests). A cost orders the units (the biggest first), weighs
//! shards and advances the progress bar: it is comparable within a plan
//! only, and a wrong one slows a count down but never changes it.

use crate::kernel::{MAX_N, Masks, RowMasks, full_mask, lowest_bit};

/// The estimated work of the unit that fixes `rows` rows and leaves
/// `masks` on the next: the size of its search tree by Knuth's estimator
/// (D. E. Knuth, "Estimating the efficiency of backtrack programs", 1975),
/// averaged over `walks` random root-to-leaf walks. A walk that meets
/// `k_1, k_2, ...` open squares on its way down estimates the tree at
/// `1 + k_1 + k_1 k_2 + ...`; the walks are drawn from a generator seeded by
/// the unit's columns, so the estimate is the same on every run.
///
/// Measured against the time each unit takes (`cargo bench --bench
/// cost_model`, results/). Counting the nodes of the first few rows below
/// the unit instead predicted the time *backwards* (Pearson's r = -0.64 at
/// n = 17): a queen near the edge leaves the next rows open but the tree
/// below them small.
#[must_use]
pub(crate) fn probe_cost(n: u32, rows: u32, masks: Masks, walks: u32, seed: u64) -> f64 {
    probe_tree(n, rows, masks, &[full_mask(n); MAX_N as usize], walks, seed)
}

/// [`probe_cost`] for a search whose row `r` takes its queen only in
/// `allowed[r]` (the constellations engine's units).
#[must_use]
pub(crate) fn probe_tree(
    n: u32,
    rows: u32,
    masks: Masks,
    allowed: &RowMasks,
    walks: u32,
    seed: u64,
) -> f64 {
    let full = full_mask(n);
    let mut state = seed;
    let mut sum = 0.0;
    for _ in 0..walks {
        let (mut below, mut width, mut size) = (masks, 1.0, 1.0);
        for row in rows..n {
            let open = below.free(full) & allowed[row as usize];
            if open == 0 {
                break;
            }
            width *= f64::from(open.count_ones());
            size += width;
            let pick = (splitmix64(&mut state) % u64::from(open.count_ones())) as u32;
            below = below.place(nth_bit(open, pick));
        }
        sum += size;
    }
    sum / f64::from(walks.max(1))
}

/// The `k`-th lowest set bit of `x` (which has more than `k`).
fn nth_bit(mut x: u32, k: u32) -> u32 {
    for _ in 0..k {
        x &= x - 1;
    }
    lowest_bit(x)
}

/// Sebastiano Vigna's SplitMix64: a fast, well-mixed 64-bit sequence.
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed for [`probe_cost`] from a unit's columns.
pub(crate) fn seed_of(columns: &[u8]) -> u64 {
    columns.iter().fold(0x51_7cc1_b727_220a, |h, &c| {
        (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The largest total a plan's costs may add up to: far enough below
/// `u64::MAX` that sums of them never wrap.
const MAX_TOTAL: f64 = (1u64 << 60) as f64;

/// A plan's units' costs from their estimated trees: the trees' sizes
/// rounded, or, where they would add up to more than 2^60 (a backtracking
/// plan from n = 28 on, whose sizes summed in 64 bits wrapped before),
/// all divided by one factor that brings them within it. Never below 1.
pub(crate) fn costs(trees: &[f64]) -> Vec<u64> {
    let total: f64 = trees.iter().sum();
    let scale = if total > MAX_TOTAL {
        MAX_TOTAL / total
    } else {
        1.0
    };
    trees
        .iter()
        .map(|&tree| ((tree * scale).round() as u64).max(1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_keep_the_total_within_64_bits() {
        assert_eq!(costs(&[1.0, 2.4, 0.2]), vec![1, 2, 1]);
        let huge = vec![1e20; 50_000];
        let scaled = costs(&huge);
        let total: u128 = scaled.iter().map(|&c| u128::from(c)).sum();
        assert!(total <= 1 << 61, "{total}");
        assert!(scaled.iter().all(|&c| c == scaled[0]));
    }
}
