//! `queens man`: the man page, in roff, on stdout.
//!
//! Generated from [`super::command`], so it says what `queens --help`
//! says, the exit codes included.

use std::io::Write;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
#[command(after_help = "Install it where man looks, for example:\n  \
                        queens man > ~/.local/share/man/man1/queens.1")]
pub struct ManArgs {}

pub fn run(_args: &ManArgs) -> anyhow::Result<ExitCode> {
    let mut page = Vec::new();
    clap_mangen::Man::new(super::command()).render(&mut page)?;
    let mut out = super::stdout();
    out.write_all(&page)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
