//! What people are told of a result against what is known: `ok`,
//! `MISMATCH`, `unknown`, and the one loud line on stderr for every
//! disagreement.

/// What people are told of a count against the OEIS: `ok`, `MISMATCH
/// (known: K)`, or `unknown` where nothing is published.
pub fn verdict(matches_known: Option<bool>, known: Option<u128>) -> String {
    match matches_known {
        Some(true) => "ok".to_owned(),
        Some(false) => format!("MISMATCH (known: {})", known.unwrap_or_default()),
        None => "unknown".to_owned(),
    }
}

/// Where a mismatch is queens's to answer for.
const REPORT_IT: &str = "a bug in queens or a hardware fault: please report it";

/// Says loudly on stderr that `what` disagrees: the one message for every
/// kind of mismatch queens must answer for.
pub fn mismatch(what: &str) {
    disagreement(&format!("{what}. This is {REPORT_IT}"));
}

/// A total that disagrees after a resume: the journal's records are the
/// first suspects, so they are named, with how to recount them.
pub fn journal_mismatch(what: &str, journal: &str, resumed: usize, units: Option<usize>) {
    let of = units.map(|u| format!(" of {u}")).unwrap_or_default();
    disagreement(&format!(
        "{what}. {resumed}{of} units came from the journal {journal}, which may hold damaged or \
         forged records: recount them with 'queens verify --journal {journal} --sample 100%', \
         or count again without it. If they agree, this is {REPORT_IT}"
    ));
}

/// The line on stderr for any disagreement: `queens: MISMATCH <text>.`
pub fn disagreement(text: &str) {
    eprintln!("queens: MISMATCH {text}.");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_say_ok_mismatch_or_unknown() {
        assert_eq!(verdict(Some(true), Some(92)), "ok");
        assert_eq!(verdict(Some(false), Some(92)), "MISMATCH (known: 92)");
        assert_eq!(verdict(None, None), "unknown");
    }
}
