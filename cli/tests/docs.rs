//! The guide's examples are real output, and its links lead somewhere.
//!
//! Every ```` ```console ```` block of README.md and docs/*.md is run: each
//! `$ ` line goes to `bash -c` in a fresh temporary folder shared by the
//! block (so one line may write a file the next reads), with this build's
//! `queens` first on `PATH` and `RAYON_NUM_THREADS=2`, and what it prints
//! (stdout, then stderr) must be the lines that follow it, up to the next
//! `$ ` line. Before comparing, both sides lose what varies from run to run
//! or machine to machine (see [`normalise`]): timings and ratios of
//! timings, the floats of JSON objects, bench's machine line and commit, the
//! temporary folder's path, and the width of the columns those change.
//!
//! Examples that cannot run here (slow boards, a GPU, a cluster, a Ctrl-C)
//! are fenced ```` ```text ```` instead, and are not run: keep that to the
//! ones that must be.
// The console examples run through bash: Unix only.
#![cfg_attr(not(unix), allow(dead_code))]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pages of the guide: README.md and every docs/*.md.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// One `$ command` of a console block and the lines it should print.
#[derive(Debug)]
struct Example {
    /// Where it is, as `page:line`, for the failure message.
    place: String,
    /// The shell line after `$ `.
    command: String,
    /// The lines the page shows under it.
    expected: Vec<String>,
}

/// The console blocks of `text`, each a list of examples that share a folder.
fn console_blocks(place: &str, text: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut block: Option<Vec<Example>> = None;
    for (index, line) in text.lines().enumerate() {
        let fence = line.trim_start();
        match &mut block {
            None if fence.starts_with("```console") => block = Some(Vec::new()),
            None => {}
            Some(_) if fence.starts_with("```") => blocks.push(block.take().unwrap()),
            Some(examples) => {
                if let Some(command) = line.strip_prefix("$ ") {
                    examples.push(Example {
                        place: format!("{place}:{}", index + 1),
                        command: command.to_string(),
                        expected: Vec::new(),
                    });
                } else {
                    let example = examples.last_mut().unwrap_or_else(|| {
                        panic!("{place}:{}: output before any `$ ` line", index + 1)
                    });
                    example.expected.push(line.to_string());
                }
            }
        }
    }
    assert!(block.is_none(), "{place}: a console block is never closed");
    blocks
}

/// Runs `command` in `dir` as a reader of the guide would, and returns
/// stdout followed by stderr.
fn run(command: &str, dir: &Path) -> String {
    let queens = assert_cmd::cargo::cargo_bin!("queens");
    let bin_dir = queens.parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let output = Command::new("bash")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("RAYON_NUM_THREADS", "2")
        .env_remove("QUEENS_NO_AVX512")
        .env_remove("QUEENS_NO_VBMI")
        .env_remove("QUEENS_NO_AVX2")
        .env_remove("QUEENS_NO_PEXT")
        .env_remove("QUEENS_MEMORY_LIMIT")
        .output()
        .expect("bash runs");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    text
}

/// A measured figure: a number with a decimal point, a percentage or a ratio, as
/// timings, rates, speed-ups and scores print, with what is glued to it
/// (`0.51x`, `19x`, `4.6479-4.8286`, `2.301e7`, `103%`, `0m0.564s`, `(0.2`).
fn measured(token: &str) -> bool {
    let digits = token.chars().any(|c| c.is_ascii_digit());
    let figure = token
        .chars()
        .all(|c| c.is_ascii_digit() || ".xe%+-()ms".contains(c));
    digits && figure && (token.contains('.') || token.ends_with('%') || token.ends_with('x'))
}

/// Replaces every float in a JSON value with 0.0 and the fields that name
/// this machine or build with null.
fn steady_json(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Number(number) if number.is_f64() => {
            *value = serde_json::json!(0.0);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(steady_json),
        serde_json::Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                if ["machine", "commit"].contains(&key.as_str()) {
                    *field = serde_json::Value::Null;
                } else {
                    steady_json(field);
                }
            }
        }
        _ => {}
    }
}

/// The units `queens::human::duration` writes, and `us`.
const DURATION_UNITS: [&str; 9] = ["ns", "us", "µs", "ms", "s", "min", "h", "days", "years"];

/// One line with what varies taken out; see the module's doc.
fn normalise(line: &str, dir: &str) -> String {
    let line = line.replace(&format!("{dir}/"), "").replace(dir, ".");
    let trimmed = line.trim();
    if trimmed.starts_with('{')
        && let Ok(mut value) = serde_json::from_str::<serde_json::Value>(trimmed)
    {
        steady_json(&mut value);
        return value.to_string();
    }
    if trimmed.starts_with("machine:") {
        return "machine: ~".to_string();
    }
    let mut out: Vec<&str> = Vec::new();
    let mut tokens = trimmed.split_whitespace().peekable();
    while let Some(token) = tokens.next() {
        // A duration (`queens::human::duration`: `470 µs`, `1.23 s`) is a
        // figure with or without a point, and its unit changes with its size.
        let unit = |t: &&str| DURATION_UNITS.contains(&t.trim_end_matches([')', ',', ';', ':']));
        let duration = token.chars().all(|c| c.is_ascii_digit() || c == '.')
            && tokens.peek().is_some_and(unit);
        if duration || measured(token) {
            out.push("~");
            if let Some(after) = tokens.next_if(unit) {
                // What closes the figure stays: `(... to 3.1 ms)`.
                out.push(after.trim_start_matches(|c: char| c.is_alphabetic()));
            }
        } else if token == "(commit" {
            out.push(token);
            tokens.next();
            out.push("~)");
        } else {
            out.push(token);
        }
    }
    out.join(" ")
}

/// The lines to compare: normalised, without trailing blank lines.
fn comparable<'a>(lines: impl Iterator<Item = &'a str>, dir: &str) -> Vec<String> {
    let mut lines: Vec<String> = lines.map(|line| normalise(line, dir)).collect();
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

#[cfg(unix)]
#[test]
fn every_console_example_prints_what_the_page_shows() {
    let mut failures = Vec::new();
    let mut examples = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let place = page.file_name().unwrap().to_string_lossy().into_owned();
        let place = if page.parent().unwrap().ends_with("docs") {
            format!("docs/{place}")
        } else {
            place
        };
        for block in console_blocks(&place, &text) {
            let dir = tempfile::tempdir().unwrap();
            let dir_text = dir.path().to_str().unwrap().to_string();
            for example in block {
                examples += 1;
                let printed = run(&example.command, dir.path());
                let got = comparable(printed.lines(), &dir_text);
                let want = comparable(example.expected.iter().map(String::as_str), &dir_text);
                if got != want {
                    failures.push(format!(
                        "{}: $ {}\n--- the page shows\n{}\n--- it printed\n{}",
                        example.place,
                        example.command,
                        example.expected.join("\n"),
                        printed.trim_end()
                    ));
                }
            }
        }
    }
    assert!(examples > 20, "only {examples} examples found");
    assert!(
        failures.is_empty(),
        "{} of {examples} examples print something else:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// GitHub's anchor for a heading: lower case, punctuation dropped but `-`
/// and `_`, spaces turned into `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || ['-', '_', ' '].contains(c))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The targets of the inline links `[text](target)` of a page, with their
/// line numbers, outside code blocks and code spans.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut in_code = false;
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(start) = rest.find("](") {
            rest = &rest[start + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            found.push((index + 1, rest[..end].to_string()));
            rest = &rest[end..];
        }
    }
    found
}

#[test]
fn every_link_between_pages_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !path.exists() {
                broken.push(format!("{}:{line}: {target}: no such file", page.display()));
                continue;
            }
            if !fragment.is_empty() && path.extension().is_some_and(|ext| ext == "md") {
                let target_text = std::fs::read_to_string(&path).unwrap();
                if !anchors(&target_text).iter().any(|a| a == fragment) {
                    broken.push(format!(
                        "{}:{line}: {target}: no such heading",
                        page.display()
                    ));
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_normaliser_keeps_counts_and_drops_timings() {
    let dir = "/tmp/.tmpXYZ";
    assert_eq!(
        normalise(" 14                365596    13.28 ms        2  ok", dir),
        normalise(" 14   365596   1.2 s   2  ok", dir)
    );
    assert_eq!(
        normalise(
            "projected time   470 µs (95% interval 10.0 min to 3 h)",
            dir
        ),
        normalise(
            "projected time   1.23 s (95% interval 12.3 ms to 4.10 days)",
            dir
        )
    );
    assert_ne!(
        normalise(" 14   365596   13.28 ms   2  ok", dir),
        normalise(" 14   365597   13.28 ms   2  ok", dir)
    );
    assert_eq!(
        normalise(
            r#"{"n":4,"elapsed_secs":0.5,"journal":"/tmp/.tmpXYZ/a"}"#,
            dir
        ),
        normalise(r#"{"n":4,"elapsed_secs":0.25,"journal":"a"}"#, dir)
    );
    assert_ne!(
        normalise(r#"{"n":4,"solutions":2}"#, dir),
        normalise(r#"{"n":4,"solutions":2,"extra":1}"#, dir)
    );
}

/// The pictures the guide shows are what `docs/images/make.sh` draws with
/// this build, each of them: a change to how boards are drawn comes with
/// the pictures drawn again. See: issue 37.
#[cfg(unix)]
#[test]
fn the_pictures_are_what_make_sh_draws() {
    let images = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/images"));
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new("bash")
        .arg(images.join("make.sh"))
        .arg(dir.path())
        .env("QUEENS", assert_cmd::cargo::cargo_bin!("queens"))
        .env("RAYON_NUM_THREADS", "2")
        .status()
        .expect("bash runs");
    assert!(status.success(), "make.sh: {status}");
    let svgs = |folder: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".svg"))
            .collect();
        names.sort();
        names
    };
    let drawn = svgs(dir.path());
    assert_eq!(
        drawn,
        svgs(images),
        "the pictures make.sh draws and docs/images's"
    );
    assert!(drawn.len() >= 4, "{drawn:?}");
    for name in drawn {
        let want = std::fs::read_to_string(dir.path().join(&name)).unwrap();
        let committed = std::fs::read_to_string(images.join(&name)).unwrap();
        assert!(
            committed == want,
            "docs/images/{name} is not what this build draws: run bash docs/images/make.sh"
        );
    }
}

/// A page named after a command is that command's page: the guide's
/// topic of boards with queens given was docs/completions.md, beside
/// `queens completions SHELL`, the shells' scripts.
/// See: issue 47, item 16.
#[test]
fn no_page_is_named_after_a_command_it_is_not_about() {
    let (commands, _) = crate::common::cli::subcommands();
    for page in pages() {
        let stem = page.file_stem().unwrap().to_string_lossy().into_owned();
        if commands.contains(&stem) {
            let text = std::fs::read_to_string(&page).unwrap();
            assert!(
                text.contains(&format!("queens {stem}")),
                "{}: named after `queens {stem}`, which it never shows",
                page.display()
            );
        }
    }
}

/// A static server the guide starts answers this machine only.
/// See: issue 47, item 16 (docs/web.md's answered every network).
#[test]
fn the_guides_servers_listen_on_this_machine_only() {
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for line in text.lines().filter(|l| l.contains("-m http.server")) {
            assert!(line.contains("-b 127.0.0.1"), "{}: {line}", page.display());
        }
    }
}
