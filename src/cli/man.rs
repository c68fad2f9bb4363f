//! `queens man [COMMAND]`: a man page, in roff, on stdout: queens(1), or
//! with a command the page its SUBCOMMANDS section points to
//! (`queens man count` is queens-count(1)).
//!
//! Generated from [`super::command`], so it says what `--help` says, the
//! exit codes included.

use std::io::Write;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
#[command(after_help = "Install them where man looks, for example:\n  \
                        queens man > ~/.local/share/man/man1/queens.1\n  \
                        queens man count > ~/.local/share/man/man1/queens-count.1")]
pub struct ManArgs {
    /// The command whose page to print, queens-COMMAND(1) [default: the
    /// page of queens itself].
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

pub fn run(args: &ManArgs) -> anyhow::Result<ExitCode> {
    let mut queens = super::command();
    // Built, so that each subcommand's name is `queens-count`.
    queens.build();
    let command = match &args.command {
        None => queens,
        Some(name) => match queens.find_subcommand(name) {
            Some(sub) if name != "help" => sub.clone(),
            _ => {
                let names: Vec<&str> = queens
                    .get_subcommands()
                    .map(clap::Command::get_name)
                    .filter(|n| *n != "help")
                    .collect();
                return Err(super::UsageError(format!(
                    "no command '{name}' to print the page of (the commands: {})",
                    names.join(", ")
                ))
                .into());
            }
        },
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .source(format!("queens {}", env!("CARGO_PKG_VERSION")))
        .render(&mut page)?;
    let mut out = super::stdout();
    out.write_all(&page)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
