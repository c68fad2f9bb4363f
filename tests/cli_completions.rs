//! `queens completions SHELL` and `queens man`: generated from the command
//! line that parses, so each names every subcommand `queens --help` lists.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::cli::{queens, stdout};

/// The subcommands `queens --help` lists, less `help`.
fn subcommands() -> Vec<String> {
    let (listed, top) = crate::common::cli::subcommands();
    assert!(listed.contains(&"completions".to_owned()), "{top}");
    assert!(listed.contains(&"man".to_owned()), "{top}");
    listed
}

#[test]
fn every_shell_gets_a_script_that_names_every_subcommand() {
    let subcommands = subcommands();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&queens(&["completions", shell]).success().stderr(""));
        assert!(!script.trim().is_empty(), "{shell}: an empty script");
        for sub in &subcommands {
            assert!(
                script.contains(sub.as_str()),
                "{shell}: no {sub:?} in\n{script}"
            );
        }
    }
}

#[test]
fn the_bash_script_parses() {
    let script = stdout(&queens(&["completions", "bash"]).success());
    let Ok(mut bash) = Command::new("bash")
        .arg("-n")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        eprintln!("no bash here: the script's syntax is not checked");
        return;
    };
    bash.stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = bash.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    crate::common::cli::rejects(
        &["completions", "cmd"],
        &["'cmd'", "bash, elvish, fish, powershell, zsh"],
    );
}

#[test]
fn the_man_page_is_roff_and_names_every_subcommand() {
    let page = stdout(&queens(&["man"]).success().stderr(""));
    // clap_mangen opens with the quote-string definitions, then the title.
    let title = page
        .lines()
        .find(|l| !l.starts_with(".ie") && !l.starts_with(".el"))
        .unwrap_or_default();
    assert!(title.starts_with(".TH queens 1"), "{page}");
    for sub in subcommands() {
        // Roff escapes a hyphen: `queens\-count(1)`.
        assert!(
            page.contains(&format!("queens\\-{sub}")),
            "no {sub:?} in\n{page}"
        );
    }
    assert!(page.contains("Exit codes"), "{page}");
}

#[test]
fn each_subcommand_has_the_page_the_main_one_points_to() {
    for sub in subcommands() {
        let page = stdout(&queens(&["man", &sub]).success().stderr(""));
        assert!(
            page.contains(&format!(".TH queens-{sub} 1 ")),
            "{sub}: {page}"
        );
        assert!(
            page.contains(&format!("queens {}", env!("CARGO_PKG_VERSION"))),
            "{sub}: {page}"
        );
        assert!(page.contains("Exit codes"), "{sub}: {page}");
    }
    crate::common::cli::rejects(&["man", "cout"], &["no command 'cout'", "count, plan"]);
}
