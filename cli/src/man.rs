//! `queens man [COMMAND]`: a man page, in roff, on stdout: queens(1), or
//! with a command the page its SUBCOMMANDS section points to
//! (`queens man count` is queens-count(1)); `queens man --dir DIR` writes
//! them all, queens.1 and queens-COMMAND.1 for each command.
//!
//! Generated from [`super::Cli`], so it says what `--help` says; the exit
//! codes are a list of their own ([`super::exit::CODES`]), not the text
//! `--help` ends with, which roff would fill into one paragraph. Each
//! page ends with real command lines ([`examples`]) and its neighbours.

use crate::exit::ExitCode;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use roff::{Roff, bold, roman};

use super::files::{Output, kind_name};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Install them all where man looks, then read them with man queens, man \
                        queens-count, ...:\n  \
                        queens man --dir ~/.local/share/man/man1"
)]
pub struct ManArgs {
    /// The command whose page to print, queens-COMMAND(1) [default: the
    /// page of queens itself].
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    command: Option<String>,

    /// Write every page into DIR instead, created if missing: queens.1 and
    /// queens-COMMAND.1 for each command, each replaced atomically. A name
    /// there that is not a regular file is refused, and nothing is written.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

pub fn run(args: &ManArgs) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.dir {
        return write_all(dir);
    }
    let queens = command();
    let command = match &args.command {
        None => queens,
        Some(name) => match queens.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = queens
                    .get_subcommands()
                    .map(clap::Command::get_name)
                    .collect();
                return Err(super::UsageError(format!(
                    "no command '{name}' to print the page of (the commands: {})",
                    names.join(", ")
                ))
                .into());
            }
        },
    };
    let page = page(&command)?;
    let mut out = super::stdout();
    out.write_all(&page)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `queens man --dir DIR`: every page, each checked before any is written;
/// the paths written on stdout, a line each.
fn write_all(dir: &Path) -> anyhow::Result<ExitCode> {
    fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("--dir {}: cannot create it: {e}", dir.display()))?;
    let queens = command();
    let mut pages = vec![(format!("{}.1", title(&queens)), page(&queens)?)];
    for sub in queens.get_subcommands() {
        pages.push((format!("{}.1", title(sub)), page(sub)?));
    }
    let mut outputs = Vec::with_capacity(pages.len());
    for (name, page) in pages {
        let path = dir.join(name);
        // A FIFO or a device is no place for a man page: `>` would write
        // one, but a folder of pages holds files.
        if let Some(meta) = fs::metadata(&path).ok().filter(|meta| !meta.is_file()) {
            return Err(super::UsageError(format!(
                "--dir: {} is {}, not a regular file: nothing was written",
                path.display(),
                kind_name(&meta)
            ))
            .into());
        }
        outputs.push((Output::new(&path, "--dir", &[])?, page));
    }
    let mut out = super::stdout();
    for (output, page) in &outputs {
        output.write(page)?;
        writeln!(out, "{}", output.path().display())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The command line the pages describe: without the help subcommand,
/// which has no page, and without the text `--help` ends with (the exit
/// codes and install lines), which the pages give in sections of their
/// own. Built, so that each subcommand's name is `queens-count`.
fn command() -> clap::Command {
    let mut queens = super::Cli::command()
        .disable_help_subcommand(true)
        .mut_subcommands(|sub| sub.after_help(None::<&str>));
    queens.build();
    queens
}

/// The page's title, its file's name less `.1`: `queens`, `queens-count`.
fn title(command: &clap::Command) -> &str {
    command.get_display_name().unwrap_or(command.get_name())
}

/// The page of `command` (queens or a subcommand, as [`command`] built).
fn page(command: &clap::Command) -> std::io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(command.clone())
        .source(format!("queens {}", env!("CARGO_PKG_VERSION")));
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    if command.has_subcommands() {
        man.render_subcommands_section(&mut page)?;
    }
    let mut roff = Roff::new();
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in super::exit::CODES {
        roff.control("TP", [])
            .text([bold(code)])
            .text([roman(meaning)]);
    }
    roff.control("SH", ["EXAMPLES"]);
    for (line, what) in examples(title(command)) {
        roff.control("TP", [])
            .text([bold(*line)])
            .text([roman(*what)]);
    }
    roff.control("SH", ["SEE ALSO"]);
    let see_also: Vec<String> = match title(command) {
        "queens" => command
            .get_subcommands()
            .map(|sub| format!("{}(1)", title(sub)))
            .collect(),
        _ => vec!["queens(1)".to_owned()],
    };
    roff.text([roman(see_also.join(", "))]);
    roff.to_writer(&mut page)?;
    // queens' own version, which its commands' pages do not repeat.
    if command.get_version().is_some() {
        man.render_version_section(&mut page)?;
    }
    Ok(page)
}

/// Command lines for a page's EXAMPLES, each with what it does: `queens`
/// or `queens-COMMAND`.
fn examples(page: &str) -> &'static [(&'static str, &'static str)] {
    match page.strip_prefix("queens-").unwrap_or_default() {
        "" if page == "queens" => &[
            (
                "queens count 12",
                "Count the solutions for a 12 x 12 board: 14200.",
            ),
            ("queens list 6", "Show the 4 solutions for a 6 x 6 board."),
            (
                "queens one 1000 --format columns",
                "Print a solution for a 1000 x 1000 board.",
            ),
            (
                "queens man --dir ~/.local/share/man/man1",
                "Install every page, this one and one per command.",
            ),
        ],
        "count" => &[
            (
                "queens count 12",
                "Count the solutions for a 12 x 12 board: 14200.",
            ),
            (
                "queens count 8..16 --json",
                "Count each size from 8 to 16, one JSON object a line.",
            ),
            (
                "queens count 17 --checkpoint n17.journal",
                "Keep each finished unit in a journal; run it again after an interruption to \
                 resume.",
            ),
            (
                "queens count 12 --given 1:2",
                "Count the solutions with a queen in row 1, column 2.",
            ),
            (
                "queens count 18 --shard 3/64 --out-dir results",
                "Count shard 3 of 64 (a task of a cluster's job array); queens merge results \
                 puts the shards together.",
            ),
        ],
        "plan" => &[
            (
                "queens plan 18",
                "The units, cost and hash of the plan count 18 runs.",
            ),
            (
                "queens plan 12 --units",
                "Every unit of the plan, one JSON object a line.",
            ),
        ],
        "list" => &[
            (
                "queens list 6",
                "Every solution for a 6 x 6 board, as boards.",
            ),
            (
                "queens list 8 --format columns --limit 3",
                "The first 3 solutions for 8 x 8, a line each: the column of each row.",
            ),
            (
                "queens list 8 --unique",
                "One solution for each of the 12 symmetry classes of 8 x 8.",
            ),
        ],
        "one" => &[
            ("queens one 8", "A solution for an 8 x 8 board."),
            (
                "queens one 1000 --format columns",
                "A solution for 1000 x 1000, the column of each row.",
            ),
        ],
        "check" => &[
            (
                "queens list 6 | queens check",
                "Check every board list writes: each is ok.",
            ),
            (
                "echo '2 4 1 3' | queens check",
                "Check a board written as the column of each row, from 1.",
            ),
        ],
        "ladder" => &[(
            "queens ladder 9",
            "Time each algorithm from brute force to the engine on a 9 x 9 board.",
        )],
        "bench" => &[
            (
                "queens bench",
                "The fixed workload at 1, 2, 4, ... threads, and a score.",
            ),
            ("queens bench --json", "The same, as one JSON object."),
        ],
        "merge" => &[(
            "queens merge results",
            "Put the shard results in results/ together and print the total.",
        )],
        "verify" => &[(
            "queens verify results",
            "Recount a random sample of the units in the shard results in results/.",
        )],
        "estimate" => &[(
            "queens estimate 20",
            "How long count 20 would take on this machine, from a sample of its units.",
        )],
        "completions" => &[
            (
                "mkdir -p ~/.local/share/bash-completion/completions && queens completions bash \
                 > ~/.local/share/bash-completion/completions/queens",
                "Install the completions for bash (open a new shell to use them).",
            ),
            (
                "mkdir -p ~/.config/fish/completions && queens completions fish > \
                 ~/.config/fish/completions/queens.fish",
                "Install the completions for fish.",
            ),
        ],
        "man" => &[
            (
                "queens man --dir ~/.local/share/man/man1",
                "Install every page where man looks, then man queens-count.",
            ),
            (
                "queens man count | man -l -",
                "Read one page without installing it.",
            ),
        ],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `queens ...` commands of a shell line: each stage of a pipe or
    /// list that runs queens, without its redirection.
    fn queens_commands(line: &str) -> Vec<Vec<&str>> {
        line.split(['|', '&', ';'])
            .map(|stage| stage.split('>').next().unwrap_or_default())
            .map(|stage| stage.split_whitespace().collect::<Vec<_>>())
            .filter(|words| words.first() == Some(&"queens"))
            .collect()
    }

    #[test]
    fn every_page_has_examples_that_parse() {
        // See: issue 47, item 12 (no EXAMPLES section).
        let queens = command();
        let pages = std::iter::once(&queens).chain(queens.get_subcommands());
        for page in pages {
            let examples = examples(title(page));
            assert!(!examples.is_empty(), "{}", title(page));
            for (line, _) in examples {
                let commands = queens_commands(line);
                assert!(!commands.is_empty(), "{line}");
                for words in commands {
                    if let Err(err) = super::super::command().try_get_matches_from(&words) {
                        panic!("{line}: {err}");
                    }
                }
            }
        }
    }
}
