//! The eight symmetries of the square (the dihedral group D4) acting on
//! boards.
//!
//! A board is a permutation: `board[row]` is the column of the queen in that
//! row. Every symmetry maps a solution to a solution, and the solutions that
//! one symmetry maps onto each other form a class; the lexicographically
//! smallest board of a class is its canonical form. This module only
//! transforms and compares boards: it never searches.
//!
//! A transform is written `R^k M^s`: first mirror left-right if `s` is 1,
//! then turn `k` quarter turns clockwise. With `M R = R^-1 M` that closes
//! under composition, which is all the algebra there is.

use std::fmt;

/// One of the eight symmetries of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub struct Transform {
    /// Clockwise quarter turns applied after the mirror, `0..4`.
    quarter_turns: u8,
    /// Whether the board is first mirrored left-right (column `c` to
    /// `n - 1 - c`).
    mirrored: bool,
}

impl Transform {
    /// Leaves every square where it is.
    pub const IDENTITY: Self = Self::new(0, false);
    /// A quarter turn clockwise: square `(r, c)` goes to `(c, n - 1 - r)`.
    pub const ROTATE_90: Self = Self::new(1, false);
    /// A half turn: `(r, c)` goes to `(n - 1 - r, n - 1 - c)`.
    pub const ROTATE_180: Self = Self::new(2, false);
    /// Three quarter turns clockwise (one anticlockwise).
    pub const ROTATE_270: Self = Self::new(3, false);
    /// Mirror left-right: `(r, c)` goes to `(r, n - 1 - c)`.
    pub const MIRROR: Self = Self::new(0, true);
    /// Reflect in the anti-diagonal: `(r, c)` goes to `(n - 1 - c, n - 1 - r)`.
    pub const ANTI_TRANSPOSE: Self = Self::new(1, true);
    /// Flip upside down: `(r, c)` goes to `(n - 1 - r, c)`.
    pub const FLIP: Self = Self::new(2, true);
    /// Reflect in the main diagonal: `(r, c)` goes to `(c, r)`.
    pub const TRANSPOSE: Self = Self::new(3, true);

    /// The whole group: the four rotations, then the four reflections.
    pub const ALL: [Self; 8] = [
        Self::IDENTITY,
        Self::ROTATE_90,
        Self::ROTATE_180,
        Self::ROTATE_270,
        Self::MIRROR,
        Self::ANTI_TRANSPOSE,
        Self::FLIP,
        Self::TRANSPOSE,
    ];

    const fn new(quarter_turns: u8, mirrored: bool) -> Self {
        Self {
            quarter_turns: quarter_turns % 4,
            mirrored,
        }
    }

    /// Whether this transform turns without reflecting.
    #[must_use]
    pub const fn is_rotation(self) -> bool {
        !self.mirrored
    }

    /// `self` after `first`: the transform that applies `first`, then `self`.
    #[must_use]
    pub const fn after(self, first: Self) -> Self {
        // R^a M^s R^b M^t = R^(a ± b) M^(s + t): a mirror reverses the turns
        // that follow it.
        let b = if self.mirrored {
            4 - first.quarter_turns
        } else {
            first.quarter_turns
        };
        Self::new(self.quarter_turns + b, self.mirrored ^ first.mirrored)
    }

    /// The transform that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Self {
        if self.mirrored {
            // (R^k M)^2 = R^k R^-k M M = identity: every reflection is its own
            // inverse.
            self
        } else {
            Self::new(4 - self.quarter_turns, false)
        }
    }

    /// Where the square `(row, col)` of an `n`-board goes.
    #[must_use]
    pub const fn map_square(self, n: u32, row: u32, col: u32) -> (u32, u32) {
        let (mut r, mut c) = (row, if self.mirrored { n - 1 - col } else { col });
        let mut k = 0;
        while k < self.quarter_turns {
            (r, c) = (c, n - 1 - r);
            k += 1;
        }
        (r, c)
    }

    /// The image of a board (one column per row) under this transform.
    ///
    /// The input must be a permutation of `0..n` (one queen per row and per
    /// column), as every solution is; the image then is one too.
    #[must_use]
    pub fn apply(self, board: &[u32]) -> Vec<u32> {
        let mut image = vec![0; board.len()];
        self.apply_into(board, &mut image);
        image
    }

    /// [`Transform::apply`] into a buffer of the board's length, for
    /// callers that test many boards and should not allocate for each.
    pub fn apply_into(self, board: &[u32], image: &mut [u32]) {
        debug_assert_eq!(board.len(), image.len());
        let n = board.len() as u32;
        for (row, &col) in (0..n).zip(board) {
            let (r, c) = self.map_square(n, row, col);
            image[r as usize] = c;
        }
    }
}

impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match (self.quarter_turns, self.mirrored) {
            (0, false) => "identity",
            (1, false) => "rotate 90",
            (2, false) => "rotate 180",
            (3, false) => "rotate 270",
            (0, true) => "mirror",
            (1, true) => "anti-transpose",
            (2, true) => "flip",
            _ => "transpose",
        };
        f.write_str(name)
    }
}

/// The distinct images of `board` under the eight transforms, sorted.
#[must_use]
pub fn orbit(board: &[u32]) -> Vec<Vec<u32>> {
    let mut images: Vec<Vec<u32>> = Transform::ALL.iter().map(|t| t.apply(board)).collect();
    images.sort_unstable();
    images.dedup();
    images
}

/// The transforms that leave `board` unchanged (always including the
/// identity).
#[must_use]
pub fn stabiliser(board: &[u32]) -> Vec<Transform> {
    Transform::ALL
        .into_iter()
        .filter(|t| t.apply(board) == board)
        .collect()
}

/// The lexicographically smallest board of `board`'s orbit: equal for two
/// boards exactly when one is a transform of the other.
#[must_use]
pub fn canonical(board: &[u32]) -> Vec<u32> {
    Transform::ALL
        .iter()
        .map(|t| t.apply(board))
        .min()
        .unwrap_or_default()
}

/// Whether `board` is its class's canonical form.
#[must_use]
pub fn is_canonical(board: &[u32]) -> bool {
    // One buffer for the seven images: `queens list --unique` asks this of
    // every solution.
    let mut image = vec![0; board.len()];
    Transform::ALL[1..].iter().all(|t| {
        t.apply_into(board, &mut image);
        image.as_slice() >= board
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Transform = Transform::ROTATE_90;
    const M: Transform = Transform::MIRROR;

    #[test]
    fn named_transforms_move_squares_as_documented() {
        let n = 5;
        let cases = [
            (Transform::IDENTITY, (1, 3)),
            (Transform::ROTATE_90, (3, 3)),
            (Transform::ROTATE_180, (3, 1)),
            (Transform::ROTATE_270, (1, 1)),
            (Transform::MIRROR, (1, 1)),
            (Transform::ANTI_TRANSPOSE, (1, 3)),
            (Transform::FLIP, (3, 3)),
            (Transform::TRANSPOSE, (3, 1)),
        ];
        for (t, want) in cases {
            assert_eq!(t.map_square(n, 1, 3), want, "{t}");
        }
    }

    #[test]
    fn boards_turn_as_on_paper() {
        // Q.... / ..Q.. / ....Q / .Q... / ...Q. turned clockwise: the new row
        // 0 is the old column 0 read upwards, ....Q.
        assert_eq!(R.apply(&[0, 2, 4, 1, 3]), [4, 1, 3, 0, 2]);
        assert_eq!(M.apply(&[0, 2, 4, 1, 3]), [4, 2, 0, 3, 1]);
        // .Q.. / ...Q / Q... / ..Q. is its own quarter turn.
        assert_eq!(R.apply(&[1, 3, 0, 2]), [1, 3, 0, 2]);
    }

    #[test]
    fn the_reflections_are_rotations_after_the_mirror() {
        assert_eq!(R.after(M), Transform::ANTI_TRANSPOSE);
        assert_eq!(R.after(R).after(M), Transform::FLIP);
        assert_eq!(R.after(R).after(R).after(M), Transform::TRANSPOSE);
    }
}
