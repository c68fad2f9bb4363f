//! The `k`-element subsets of a small set of bits, in increasing order:
//! the row and column sets every part of the join walks. It knows nothing
//! of boards, so that the modules that build half-boards and quarter
//! pieces can share it without importing each other.

/// Calls `f` with every `k`-element subset of `0..width`, as a bit mask, in
/// increasing order (Gosper's hack: the next larger integer with the same
/// number of set bits).
pub fn for_each_subset(width: u32, k: u32, mut f: impl FnMut(u32)) {
    if k > width {
        return;
    }
    if k == 0 {
        f(0);
        return;
    }
    let limit = 1u64 << width;
    let mut set = (1u64 << k) - 1;
    while set < limit {
        f(set as u32);
        let low = set & set.wrapping_neg();
        let ripple = set + low;
        set = (((ripple ^ set) >> 2) / low) | ripple;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_enumerated_in_order_and_completely() {
        let mut seen = Vec::new();
        for_each_subset(5, 2, |s| seen.push(s));
        assert_eq!(seen.len(), 10);
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        assert!(seen.iter().all(|s| s.count_ones() == 2 && *s < 32));
        let mut one = Vec::new();
        for_each_subset(3, 0, |s| one.push(s));
        assert_eq!(one, [0]);
    }
}
