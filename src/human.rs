//! How the library's quantities read in its messages (`needs about 5.1
//! GiB`, `about 1.50 min`): the words its errors use, for the front ends
//! whose own messages stand beside them and must read the same (the
//! command line's reports and memory limits, the web page's estimate).
//! Nothing here computes a figure; each function only writes one.

/// A byte count as people read it: `5.1 GiB`, `233 MiB`, `512 bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bytes(pub u64);

impl std::fmt::Display for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
        if self.0 < 1024 {
            return write!(f, "{} bytes", self.0);
        }
        let mut value = self.0 as f64 / 1024.0;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if value < 10.0 {
            write!(f, "{value:.1} {}", UNITS[unit])
        } else {
            write!(f, "{value:.0} {}", UNITS[unit])
        }
    }
}

/// A duration of `seconds`, as text for people, to three significant
/// figures in the unit that suits it: `12.3 ns`, `470 µs`, `12.3 ms`,
/// `1.23 s`, `55.0 s`, `10.0 min`, `3.20 h`, `4.10 days`, `2.30 years`.
/// Below a second the unit changes where the figure reaches 1000 (`999
/// µs`, `1.00 ms`); from a second up at one and a half of the larger unit
/// (`89.0 s`, `1.50 min`), as the estimate always did. Every duration the
/// command line shows people goes through it (the count and ladder
/// tables, estimates, plans), and the web page's estimate; machine output
/// keeps plain seconds. Zero, a negative or a non-finite `seconds` is
/// printed as it is (`0 s`).
#[must_use]
pub fn duration(seconds: f64) -> String {
    const SMALL: [(f64, &str); 3] = [(1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")];
    const LARGE: [(f64, &str); 5] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "h"),
        (60.0, "min"),
        (1.0, "s"),
    ];
    if !seconds.is_finite() || seconds <= 0.0 {
        return format!("{seconds} s");
    }
    let (size, name) = if seconds >= 1.0 - 5e-4 {
        LARGE
            .into_iter()
            .find(|&(size, _)| seconds >= size * 1.5)
            .unwrap_or((1.0, "s"))
    } else {
        // The unit whose value rounds to 1 or more (0.9996 s is 1.00 s).
        SMALL
            .into_iter()
            .find(|&(size, _)| seconds / size >= 1.0 - 5e-3)
            .unwrap_or((1e-9, "ns"))
    };
    let value = seconds / size;
    let decimals = if value < 9.995 {
        2
    } else if value < 99.95 {
        1
    } else {
        0
    };
    format!("{value:.decimals$} {name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(Bytes(512).to_string(), "512 bytes");
        assert_eq!(Bytes(5_067_547_256).to_string(), "4.7 GiB");
        assert_eq!(Bytes(233 << 20).to_string(), "233 MiB");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
    }

    #[test]
    fn durations_read_well() {
        let shown = [
            (12.3e-9, "12.3 ns"),
            (4.56e-6, "4.56 µs"),
            (0.47e-3, "470 µs"),
            (0.99951e-3, "1.00 ms"),
            (0.0123, "12.3 ms"),
            (0.123_45, "123 ms"),
            (0.9996, "1.00 s"),
            (1.234_5, "1.23 s"),
            (5.0, "5.00 s"),
            (55.0, "55.0 s"),
            (89.0, "89.0 s"),
            (90.0, "1.50 min"),
            (600.0, "10.0 min"),
            (3.2 * 3600.0, "3.20 h"),
            (4.1 * 86400.0, "4.10 days"),
            (400.0 * 86400.0, "400 days"),
            (2.3 * 365.25 * 86400.0, "2.30 years"),
            (1234.0 * 365.25 * 86400.0, "1234 years"),
            (0.0, "0 s"),
        ];
        for (seconds, text) in shown {
            assert_eq!(duration(seconds), text, "{seconds}");
        }
    }
}
