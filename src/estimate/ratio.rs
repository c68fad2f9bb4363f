//! The stratified ratio estimator behind [`crate::estimate()`], and its
//! interval: plain numbers in, a projected total and its 95% interval
//! out. It never counts, times or prints.
//!
//! Within each stratum a quantity (a unit's seconds, its solutions) is
//! projected from the units' known cost by the ratio its sampled units
//! show: the *separate ratio estimator*. Its variance is the textbook one
//! (Cochran, *Sampling Techniques*, 6.11), with the finite population
//! correction, so that a stratum counted whole adds nothing. The interval
//! is Student's t, not the normal: a stratum of a few sampled units knows
//! its own spread only roughly, and the degrees of freedom of the sum are
//! Satterthwaite's (the strata's spreads weighted by their share of the
//! variance). Two units a stratum in ten strata give between 1 and 10
//! degrees of freedom, where the normal interval would act as if it had
//! infinitely many: 1.96 against 2.2 to 12.7 standard errors.
//!
//! Where the total of a second quantity is known (A000170's solutions of
//! the whole board), the sample's own projection of it says how
//! representative the sample is, and corrects the first quantity by the
//! regression of one on the other: the *regression estimator* with that
//! total as control variate (Cochran 7.9). A sample that projects 20% too
//! few solutions from units whose time goes with their solutions
//! projects too little time as well, and is moved up by what the
//! regression says; the variance left is that of the residuals.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// One sampled unit: its cost estimate, the quantity projected (seconds),
/// and the control (solutions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Unit {
    pub cost: f64,
    pub value: f64,
    pub control: f64,
}

/// One stratum: how many units it holds, their total cost, and those of
/// them sampled.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Stratum {
    pub size: usize,
    pub cost: f64,
    pub sample: Vec<Unit>,
}

/// A projected total, the half-width of its 95% interval, and the degrees
/// of freedom that interval was drawn with (infinite where nothing is
/// left to project).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Total {
    pub value: f64,
    pub margin: f64,
    pub degrees: f64,
    /// The standard error (the margin over its t quantile).
    pub error: f64,
}

impl Total {
    /// Whether `truth` lies in the 95% interval.
    #[cfg(test)]
    fn covers(&self, truth: f64) -> bool {
        (truth - self.value).abs() <= self.margin
    }
}

/// What one quantity's separate ratio estimate is made of, stratum by
/// stratum: its projection, and the sampled units' residuals from their
/// stratum's ratio.
struct Parts {
    value: f64,
    residuals: Vec<Vec<f64>>,
    /// Where a stratum has fewer than two units sampled (and some left
    /// out), its ratio says nothing of its spread: the variance assumed
    /// for it, as far off as its own projection.
    blind: Vec<Option<f64>>,
}

fn parts(strata: &[Stratum], of: impl Fn(&Unit) -> f64) -> Parts {
    let ratio_of = |sample: &[Unit]| {
        let (c, y) = (sample.iter()).fold((0.0, 0.0), |(c, y), u| (c + u.cost, y + of(u)));
        if c > 0.0 { y / c } else { 0.0 }
    };
    let everything: Vec<Unit> = strata.iter().flat_map(|s| s.sample.clone()).collect();
    let pooled = ratio_of(&everything);
    let mut value = 0.0;
    let mut residuals = Vec::with_capacity(strata.len());
    let mut blind = Vec::with_capacity(strata.len());
    for stratum in strata {
        // A stratum with nothing sampled takes the ratio of every unit
        // that was (a count's first units are its biggest).
        let ratio = if stratum.sample.is_empty() {
            pooled
        } else {
            ratio_of(&stratum.sample)
        };
        value += ratio * stratum.cost;
        residuals.push(
            (stratum.sample.iter())
                .map(|u| of(u) - ratio * u.cost)
                .collect(),
        );
        let k = stratum.sample.len();
        blind.push((k < 2 && k < stratum.size).then(|| (ratio * stratum.cost).powi(2)));
    }
    Parts {
        value,
        residuals,
        blind,
    }
}

/// Each stratum's ratio of `of` to cost, as [`ratio`] projects with it
/// (the ratio of every unit sampled for a stratum with none).
pub(crate) fn rates(strata: &[Stratum], of: impl Fn(&Unit) -> f64) -> Vec<f64> {
    let ratio_of = |sample: &mut dyn Iterator<Item = &Unit>| {
        let (c, y) = sample.fold((0.0, 0.0), |(c, y), u| (c + u.cost, y + of(u)));
        if c > 0.0 { y / c } else { 0.0 }
    };
    let pooled = ratio_of(&mut strata.iter().flat_map(|s| &s.sample));
    strata
        .iter()
        .map(|s| {
            if s.sample.is_empty() {
                pooled
            } else {
                ratio_of(&mut s.sample.iter())
            }
        })
        .collect()
}

/// `N^2 (1 - k/N) / k`: what a stratum's spread of residuals is
/// multiplied by in the variance of its projected total.
fn weight(stratum: &Stratum) -> f64 {
    let (size, k) = (stratum.size as f64, stratum.sample.len() as f64);
    if k < 1.0 {
        return 0.0;
    }
    size * size * (1.0 - k / size).max(0.0) / k
}

/// The separate ratio estimate of the total of `of` over every unit of
/// `strata`.
pub(crate) fn ratio(strata: &[Stratum], of: impl Fn(&Unit) -> f64) -> Total {
    let parts = parts(strata, of);
    let variances = variances(strata, &parts.residuals, &parts.blind, |e, _| e, &[]);
    total(parts.value, &variances, 0)
}

/// The regression estimate of the total of the units' values, with the
/// total of their controls known to be `known`: the separate ratio
/// estimate of the values moved by `b` times how far the same sample's
/// estimate of the controls is from `known`, `b` the regression of the
/// values' residuals on the controls' (pooled over the strata, weighted
/// as the variance weights them). One degree of freedom goes to `b`.
pub(crate) fn controlled(strata: &[Stratum], known: f64) -> Total {
    let values = parts(strata, |u| u.value);
    let controls = parts(strata, |u| u.control);
    let (mut cross, mut square) = (0.0, 0.0);
    for ((stratum, e), d) in strata
        .iter()
        .zip(&values.residuals)
        .zip(&controls.residuals)
    {
        let k = stratum.sample.len();
        if k < 2 {
            continue;
        }
        let w = weight(stratum) / (k - 1) as f64;
        cross += w * e.iter().zip(d).map(|(e, d)| e * d).sum::<f64>();
        square += w * d.iter().map(|d| d * d).sum::<f64>();
    }
    let b = if square > 0.0 { cross / square } else { 0.0 };
    let variances = variances(
        strata,
        &values.residuals,
        &values.blind,
        |e, d| e - b * d,
        &controls.residuals,
    );
    total(
        values.value + b * (known - controls.value),
        &variances,
        usize::from(square > 0.0),
    )
}

/// Each stratum's share of the variance and its degrees of freedom: the
/// spread of `residual(e, d)` over its sampled units (`d` from
/// `controls`, 0 where none), or its blind guess with one degree.
fn variances(
    strata: &[Stratum],
    residuals: &[Vec<f64>],
    blind: &[Option<f64>],
    residual: impl Fn(f64, f64) -> f64,
    controls: &[Vec<f64>],
) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(strata.len());
    for (h, stratum) in strata.iter().enumerate() {
        if let Some(guess) = blind[h] {
            out.push((guess, 1.0));
            continue;
        }
        let k = stratum.sample.len();
        if k < 2 {
            continue;
        }
        let d = |i: usize| controls.get(h).map_or(0.0, |c| c[i]);
        let spread = (residuals[h].iter().enumerate())
            .map(|(i, &e)| residual(e, d(i)).powi(2))
            .sum::<f64>()
            / (k - 1) as f64;
        out.push((weight(stratum) * spread, (k - 1) as f64));
    }
    out
}

/// The total with its Student's t interval, Satterthwaite's degrees of
/// freedom from the strata's `(variance, degrees)`, less `spent` for what
/// was estimated from them besides.
fn total(value: f64, variances: &[(f64, f64)], spent: usize) -> Total {
    let variance: f64 = variances.iter().map(|v| v.0).sum();
    if variance.is_nan() || variance <= 0.0 {
        return Total {
            value,
            margin: 0.0,
            degrees: f64::INFINITY,
            error: 0.0,
        };
    }
    let spread: f64 = variances.iter().map(|&(v, df)| v * v / df).sum();
    let degrees = (variance * variance / spread - spent as f64).max(1.0);
    let error = variance.sqrt();
    Total {
        value,
        margin: t_quantile(degrees) * error,
        degrees,
        error,
    }
}

/// How far the machine's speed moved while a sample was counted: the
/// spread, as a share, of the speed of blocks of its units counted one
/// after another, beyond what their own sampling error explains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Drift {
    /// The blocks' speed's standard deviation, a share of the mean.
    pub spread: f64,
    /// Blocks it was measured over.
    pub blocks: usize,
}

impl Drift {
    /// The half-width, as a share of the projection, of the 95% interval
    /// of a count at some other time on this machine: one more block's
    /// speed against the sample's mean, Student's t with a degree less
    /// than the blocks.
    pub fn margin(&self) -> f64 {
        let g = self.blocks as f64;
        t_quantile(g - 1.0) * self.spread * (1.0 + 1.0 / g).sqrt()
    }
}

/// The [`Drift`] of `blocks` of units, each unit as `(projected, taken)`
/// seconds, projected from its stratum's rate over the whole sample: each
/// block's speed is what its units took over what they were projected to
/// take, whose variance follows from the units' spread about their
/// block's speed (pooled over the blocks, a unit's error a share of its
/// projection, as alike for a unit of a millisecond as of an hour); the
/// spread between blocks beyond those variances is DerSimonian and
/// Laird's moment estimate of a random effect (*Controlled Clinical
/// Trials* 7, 1986). `None` with fewer than two blocks of at least two
/// units; 0 where the blocks differ no more than their units do.
pub(crate) fn drift(blocks: &[Vec<(f64, f64)>]) -> Option<Drift> {
    let blocks: Vec<&Vec<(f64, f64)>> = (blocks.iter())
        .filter(|b| b.len() >= 2 && b.iter().all(|u| u.0 > 0.0))
        .collect();
    let units: usize = blocks.iter().map(|b| b.len()).sum();
    if blocks.len() < 2 || units <= blocks.len() {
        return None;
    }
    let speeds: Vec<f64> = (blocks.iter())
        .map(|b| b.iter().map(|u| u.1).sum::<f64>() / b.iter().map(|u| u.0).sum::<f64>())
        .collect();
    // Each unit's error as a share of its projection, about its block's
    // speed, pooled.
    let squares: f64 = (blocks.iter().zip(&speeds))
        .flat_map(|(b, &speed)| b.iter().map(move |u| (u.1 / u.0 - speed).powi(2)))
        .sum();
    let share = squares / (units - blocks.len()) as f64;
    if share <= 0.0 {
        return Some(Drift {
            spread: 0.0,
            blocks: blocks.len(),
        });
    }
    // A block's speed is its units' shares weighted by their projections.
    let weights: Vec<f64> = (blocks.iter())
        .map(|b| {
            let (sum, squares) = (b.iter()).fold((0.0, 0.0), |(s, q), u| (s + u.0, q + u.0 * u.0));
            sum * sum / (share * squares)
        })
        .collect();
    let sum: f64 = weights.iter().sum();
    let mean = speeds.iter().zip(&weights).map(|(s, w)| w * s).sum::<f64>() / sum;
    let q: f64 = (speeds.iter().zip(&weights))
        .map(|(s, w)| w * (s - mean).powi(2))
        .sum();
    let scale = sum - weights.iter().map(|w| w * w).sum::<f64>() / sum;
    let between = ((q - (blocks.len() - 1) as f64) / scale).max(0.0);
    Some(Drift {
        spread: between.sqrt() / mean,
        blocks: blocks.len(),
    })
}

/// Student's t 97.5% quantile with `degrees` degrees of freedom (the
/// normal's 1.96 for infinitely many).
pub(crate) fn t_quantile(degrees: f64) -> f64 {
    match StudentsT::new(0.0, 1.0, degrees) {
        Ok(t) if degrees.is_finite() => t.inverse_cdf(0.975),
        _ => 1.959_963_984_540_054,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::cost::splitmix64;

    #[test]
    fn t_quantiles_are_students() {
        // Tables: t(0.975; 1) = 12.706, t(0.975; 2) = 4.303, t(0.975; 10) = 2.228.
        assert!((t_quantile(1.0) - 12.706).abs() < 1e-3);
        assert!((t_quantile(2.0) - 4.303).abs() < 1e-3);
        assert!((t_quantile(10.0) - 2.228).abs() < 1e-3);
        assert!((t_quantile(f64::INFINITY) - 1.960).abs() < 1e-3);
    }

    fn unit(cost: f64, value: f64, control: f64) -> Unit {
        Unit {
            cost,
            value,
            control,
        }
    }

    /// Blocks of `k` units of projected seconds 1 to 3, each unit taking
    /// its block's `speed` times that, off by up to `noise` either way.
    fn blocks(speeds: &[f64], k: usize, noise: f64, state: &mut u64) -> Vec<Vec<(f64, f64)>> {
        (speeds.iter())
            .map(|&speed| {
                (0..k)
                    .map(|_| {
                        let projected = 1.0 + (splitmix64(state) % 3) as f64;
                        let off = (splitmix64(state) % 2001) as f64 / 1000.0 - 1.0;
                        (projected, projected * speed * (1.0 + noise * off))
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_steady_machine_drifts_little_and_a_drifting_one_is_seen() {
        let mut state = 3;
        let steady = [1.0; 10];
        let still = drift(&blocks(&steady, 20, 0.3, &mut state)).expect("ten blocks");
        assert_eq!(still.blocks, 10);
        assert!(still.spread < 0.03, "{still:?}");
        // Blocks a tenth apart: a spread of about 0.1.
        let moving = [0.9, 1.1, 1.0, 1.2, 0.8, 1.0, 1.1, 0.9, 1.0, 1.0];
        let seen = drift(&blocks(&moving, 20, 0.3, &mut state)).expect("ten blocks");
        assert!(seen.spread > 0.08 && seen.spread < 0.16, "{seen:?}");
        assert!(seen.margin() > 2.26 * seen.spread, "{seen:?}");
    }

    #[test]
    fn too_few_blocks_say_nothing_of_drift() {
        let mut state = 4;
        assert_eq!(drift(&blocks(&[1.0], 20, 0.3, &mut state)), None);
        assert_eq!(drift(&blocks(&[1.0, 2.0], 1, 0.3, &mut state)), None);
        // Units that take just what they were projected to: no drift.
        let exact = drift(&blocks(&[1.0, 1.0, 1.0], 5, 0.0, &mut state)).expect("3 blocks");
        assert_eq!(exact.spread, 0.0);
    }

    #[test]
    fn strata_counted_whole_are_exact() {
        let strata = vec![
            Stratum {
                size: 2,
                cost: 3.0,
                sample: vec![unit(1.0, 5.0, 1.0), unit(2.0, 1.0, 4.0)],
            },
            Stratum {
                size: 1,
                cost: 7.0,
                sample: vec![unit(7.0, 2.0, 9.0)],
            },
        ];
        let t = ratio(&strata, |u| u.value);
        assert_eq!((t.value, t.margin), (8.0, 0.0));
        let c = controlled(&strata, 14.0);
        assert_eq!((c.value, c.margin), (8.0, 0.0));
    }

    #[test]
    fn equal_strata_have_the_sum_of_their_degrees() {
        let stratum = Stratum {
            size: 100,
            cost: 100.0,
            sample: vec![
                unit(1.0, 1.0, 0.0),
                unit(1.0, 2.0, 0.0),
                unit(1.0, 4.0, 0.0),
            ],
        };
        let t = ratio(&vec![stratum; 4], |u| u.value);
        assert!((t.degrees - 8.0).abs() < 1e-9, "{t:?}");
        assert!((t.margin / t.error - t_quantile(8.0)).abs() < 1e-12);
    }

    #[test]
    fn a_control_that_explains_the_value_leaves_no_error() {
        // Values are twice the controls plus what cost says: the known
        // control total pins the value total exactly.
        let mut state = 5;
        let population: Vec<Unit> = (0..400)
            .map(|i| {
                let cost = 1.0 + f64::from(i % 7);
                let control = (splitmix64(&mut state) % 1000) as f64;
                unit(cost, 3.0 * cost + 2.0 * control, control)
            })
            .collect();
        let truth: f64 = population.iter().map(|u| u.value).sum();
        let known: f64 = population.iter().map(|u| u.control).sum();
        let strata = draw(&population, 4, 5, &mut state);
        let c = controlled(&strata, known);
        assert!(
            (c.value - truth).abs() < 1e-6 * truth,
            "{c:?} against {truth}"
        );
        assert!(c.margin < 1e-6 * truth, "{c:?}");
        let plain = ratio(&strata, |u| u.value);
        assert!(plain.margin > 1e-3 * truth, "{plain:?}");
    }

    /// `population` sorted by cost, cut into `strata` strata of equal
    /// size, `k` units drawn from each without replacement.
    fn draw(population: &[Unit], strata: usize, k: usize, state: &mut u64) -> Vec<Stratum> {
        let mut sorted = population.to_vec();
        sorted.sort_by(|a, b| a.cost.total_cmp(&b.cost));
        sorted
            .chunks(population.len().div_ceil(strata))
            .map(|chunk| {
                let mut order = chunk.to_vec();
                for i in (1..order.len()).rev() {
                    let j = (splitmix64(state) % (i as u64 + 1)) as usize;
                    order.swap(i, j);
                }
                Stratum {
                    size: chunk.len(),
                    cost: chunk.iter().map(|u| u.cost).sum(),
                    sample: order[..k.min(order.len())].to_vec(),
                }
            })
            .collect()
    }

    #[test]
    fn intervals_cover_a_skewed_population_as_often_as_they_say() {
        // Times with a long tail (as the join's units have): the t
        // interval with the sample's own degrees of freedom covers the
        // truth about 95% of the time; the normal one, at two units a
        // stratum, markedly less. The control variate keeps the coverage
        // and narrows the interval.
        let mut state = 11;
        let population: Vec<Unit> = (0..2000)
            .map(|_| {
                let cost = 1.0 + (splitmix64(&mut state) % 1000) as f64;
                let noise = (splitmix64(&mut state) % 1000) as f64 / 1000.0;
                let control = cost * (0.2 + 2.0 * noise.powi(3));
                let value = cost * (0.5 + 0.8 * noise.powi(3))
                    + cost * 0.3 * (splitmix64(&mut state) % 100) as f64 / 100.0;
                unit(cost, value, control)
            })
            .collect();
        let truth: f64 = population.iter().map(|u| u.value).sum();
        let known: f64 = population.iter().map(|u| u.control).sum();
        let tries = 2000;
        let (mut plain, mut normal, mut with_control) = (0, 0, 0);
        let (mut plain_width, mut control_width) = (0.0, 0.0);
        for _ in 0..tries {
            let strata = draw(&population, 10, 2, &mut state);
            let t = ratio(&strata, |u| u.value);
            plain += usize::from(t.covers(truth));
            normal += usize::from((truth - t.value).abs() <= 1.96 * t.error);
            plain_width += t.margin;
            let c = controlled(&strata, known);
            with_control += usize::from(c.covers(truth));
            control_width += c.margin;
        }
        let share = |k: usize| k as f64 / f64::from(tries);
        assert!(share(plain) >= 0.93, "t: {}", share(plain));
        assert!(
            share(normal) < share(plain),
            "normal {} t {}",
            share(normal),
            share(plain)
        );
        assert!(
            share(with_control) >= 0.93,
            "control: {}",
            share(with_control)
        );
        assert!(control_width < plain_width, "{control_width} {plain_width}");
    }
}
