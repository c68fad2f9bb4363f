//! Records the commit the extension is built from, for `queens bench`'s
//! report when the command line runs from the wheel (`unknown` outside a
//! git checkout, as in a build from an sdist): the command line's code
//! reads it as the binary's does (the root crate's build.rs).

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=../.git/HEAD");
    println!("cargo:rerun-if-changed=../.git/refs/heads");
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty())
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=QUEENS_COMMIT={commit}");
}
