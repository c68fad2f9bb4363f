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
    assert!(page.contains(".SH \"EXIT STATUS\""), "{page}");
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
        assert!(page.contains(".SH \"EXIT STATUS\""), "{sub}: {page}");
    }
    crate::common::cli::rejects(&["man", "cout"], &["no command 'cout'", "count, plan"]);
}

/// The page `groff` lays out for a terminal of 80 columns, or `None`
/// where groff is not installed.
fn rendered(page: &str) -> Option<String> {
    let mut groff = Command::new("groff")
        .args(["-man", "-Tutf8", "-rLL=80n", "-P-c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    groff
        .stdin
        .take()
        .unwrap()
        .write_all(page.as_bytes())
        .unwrap();
    let out = groff.wait_with_output().unwrap();
    assert!(out.status.success(), "groff failed");
    // Bold and underline as overstrikes (`0\b0`): the letters alone.
    let text = String::from_utf8(out.stdout).unwrap();
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    Some(plain)
}

#[test]
fn the_man_page_lists_the_exit_codes_and_examples_and_no_help_page() {
    // See: issue 47, item 12 (the exit codes filled into one paragraph,
    // queens-help(1), a repository path, no EXAMPLES).
    let page = stdout(&queens(&["man"]).success());
    assert!(!page.contains("queens\\-help"), "{page}");
    assert!(!page.contains("docs/README.md"), "{page}");
    for section in ["EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
        assert!(
            page.contains(&format!(".SH \"{section}\""))
                || page.contains(&format!(".SH {section}")),
            "{section}: {page}"
        );
    }
    queens(&["man", "help"]).code(2);
    let Some(text) = rendered(&page) else {
        eprintln!("no groff here: the page's layout is not checked");
        return;
    };
    let status: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != "EXIT STATUS")
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .collect();
    // Each code starts a line of its own, its meaning beside or below it.
    for code in ["0", "1", "2", "3", "128+S"] {
        assert!(
            status
                .iter()
                .any(|l| l.split_whitespace().next() == Some(code)),
            "no line for {code} in:\n{}",
            status.join("\n")
        );
    }
    assert!(text.contains("queens count 12"), "{text}");
}

#[test]
fn man_dir_writes_every_page_each_as_man_command_prints_it() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("share/man/man1");
    let listed = stdout(
        &queens(&["man", "--dir", pages.to_str().unwrap()])
            .success()
            .stderr(""),
    );
    let mut names = vec!["queens.1".to_owned()];
    names.extend(subcommands().iter().map(|sub| format!("queens-{sub}.1")));
    assert_eq!(listed.lines().count(), names.len(), "{listed}");
    for name in &names {
        let path = pages.join(name);
        assert!(listed.contains(path.to_str().unwrap()), "{listed}");
        let written = std::fs::read_to_string(&path).unwrap();
        let sub = name.trim_end_matches(".1").strip_prefix("queens-");
        let printed =
            stdout(&queens(&["man"].into_iter().chain(sub).collect::<Vec<_>>()).success());
        assert_eq!(written, printed, "{name}");
    }
    // Again, over the pages there: replaced, no temporary left.
    queens(&["man", "--dir", pages.to_str().unwrap()]).success();
    assert_eq!(std::fs::read_dir(&pages).unwrap().count(), names.len());
}

#[cfg(unix)]
#[test]
fn man_dir_refuses_a_name_that_is_not_a_regular_file_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("queens-count.1");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let line = crate::common::cli::one_error_line(
        queens(&["man", "--dir", dir.path().to_str().unwrap()]),
        2,
        &["queens-count.1", "FIFO", "not a regular file"],
    );
    assert!(line.contains("nothing was written"), "{line}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    crate::common::cli::rejects(&["man", "count", "--dir", "x"], &["--dir"]);
}

#[cfg(unix)]
#[test]
fn the_readmes_install_lines_work_in_a_fresh_home() {
    // See: issue 47, item 12 ("No such file or directory": the folders
    // of a fresh home are not there yet).
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let lines: Vec<&str> = readme
        .lines()
        .filter(|l| {
            l.starts_with("mkdir ")
                || l.starts_with("queens completions ")
                || l.starts_with("queens man ")
        })
        .collect();
    assert!(
        lines.iter().any(|l| l.starts_with("queens man ")),
        "{readme}"
    );
    let home = tempfile::tempdir().unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_queens"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in &lines {
        let out = Command::new("bash")
            .args(["-ec", line])
            .env("HOME", home.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let share = home.path().join(".local/share");
    assert!(share.join("bash-completion/completions/queens").is_file());
    for page in ["queens.1", "queens-count.1", "queens-man.1"] {
        assert!(share.join("man/man1").join(page).is_file(), "{page}");
    }
}
