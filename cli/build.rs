//! Records the commit the binary is built from, for `--version` and
//! `queens bench`'s report: in a packaged crate (downloaded from the
//! registry, or vendored), the commit `cargo package` wrote into
//! `.cargo_vcs_info.json`; in a checkout of this project, git's HEAD;
//! otherwise `unknown` (the Python sdist, a source tarball).

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

/// Whether git's checkout around this folder is this project's (it keeps
/// this file), not some other repository the sources were unpacked into.
fn in_own_checkout() -> bool {
    git(&["ls-files", "--error-unmatch", "build.rs"]).is_some()
}

/// The commit `cargo package` recorded, from `.cargo_vcs_info.json`'s
/// `"sha1": "<hex>"`, shortened as `git rev-parse --short` does.
fn packaged_commit() -> Option<String> {
    let info = std::fs::read_to_string(".cargo_vcs_info.json").ok()?;
    let after_key = info.split_once("\"sha1\"")?.1;
    let hex = after_key.split('"').nth(1)?;
    let short = hex.get(..7)?;
    short
        .bytes()
        .all(|byte| byte.is_ascii_hexdigit())
        .then(|| short.to_owned())
}

fn main() {
    // A packaged crate first: one vendored into another repository is
    // that repository's checkout too, and would name its HEAD.
    let commit = if std::path::Path::new(".cargo_vcs_info.json").exists() {
        println!("cargo:rerun-if-changed=.cargo_vcs_info.json");
        packaged_commit()
    } else if in_own_checkout() {
        watch_head();
        git(&["rev-parse", "--short", "HEAD"])
    } else {
        println!("cargo:rerun-if-changed=build.rs");
        None
    };
    let commit = commit.unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=QUEENS_COMMIT={commit}");
}

/// Reruns this script when HEAD moves: the folder git keeps HEAD in is
/// `.git` in a clone, but in a worktree `.git` is a file and HEAD lives
/// elsewhere; naming a path that does not exist would rerun this script,
/// and rebuild the crate, every time. The branches are in the common
/// folder of all the worktrees.
fn watch_head() {
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
}
