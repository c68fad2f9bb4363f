//! `queens completions SHELL`: the shell's completion script, on stdout.
//!
//! Generated from [`super::command`], the very command line that parses,
//! so the script knows every subcommand, flag and value a user can type.

use crate::exit::ExitCode;
use std::io::Write;

use clap_complete::Shell;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Install it where the shell looks, for example (then open a new \
                        shell):\n  \
                        mkdir -p ~/.local/share/bash-completion/completions\n  \
                        queens completions bash > ~/.local/share/bash-completion/completions/queens\n\n  \
                        mkdir -p ~/.zfunc   # and fpath+=~/.zfunc in ~/.zshrc, before compinit\n  \
                        queens completions zsh > ~/.zfunc/_queens\n\n  \
                        mkdir -p ~/.config/fish/completions\n  \
                        queens completions fish > ~/.config/fish/completions/queens.fish"
)]
pub struct CompletionsArgs {
    /// The shell to complete `queens` in.
    #[arg(value_enum, value_name = "SHELL")]
    shell: Shell,
}

pub fn run(args: &CompletionsArgs) -> anyhow::Result<ExitCode> {
    // Into a buffer first: clap_complete panics when its writer fails, and
    // a failed write to stdout is an error to report, not a panic.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "queens", &mut script);
    let mut out = super::stdout();
    out.write_all(&script)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
