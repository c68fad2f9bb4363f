//! Records the commit the binary is built from, for `--version` and
//! `queens bench`'s report (`unknown` outside a git checkout).

use std::process::Command;

/// What `git args` prints, trimmed; `None` outside a checkout or without git.
fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty())
}

fn main() {
    // The folder git keeps HEAD in: `.git` in a clone, but in a worktree
    // `.git` is a file and HEAD lives elsewhere; naming a path that does
    // not exist would rerun this script, and rebuild the crate, every time.
    // The branches are in the common folder of all the worktrees.
    let dirs = git(&["rev-parse", "--absolute-git-dir"]).zip(git(&[
        "rev-parse",
        "--path-format=absolute",
        "--git-common-dir",
    ]));
    match dirs {
        Some((dir, common)) => {
            println!("cargo:rerun-if-changed={dir}/HEAD");
            println!("cargo:rerun-if-changed={common}/refs/heads");
        }
        None => println!("cargo:rerun-if-changed=build.rs"),
    }
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=QUEENS_COMMIT={commit}");
}
