//! Every command's `--json` against the tables of docs/json.md, read from
//! the page itself so that the page cannot drift from the output, and `-q`
//! on every command that prints a result.
//!
//! See: issue 35, item 3 (`merge --json` wrote its total as a string,
//! `estimate --json` its times as `*_seconds`; `check`, `ladder` and `one`
//! had no `--json`, and only `count`, `check` and `list` took `-q`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use tempfile::TempDir;

use crate::common::cli::{queens, stdout as stdout_of, subcommands};

/// Commands that print no result: a script, a man page.
const NO_RESULT: [&str; 2] = ["completions", "man"];

/// A type of docs/json.md.
#[derive(Clone, Debug, PartialEq)]
enum Type {
    Integer,
    Number,
    Seconds,
    String,
    Boolean,
    Null,
    Object,
    Array(Box<Type>),
    Tuple(Vec<Type>),
}

/// A row of a table: a field (`name`, `parent.name` or `parent[].name`),
/// the types its value may have, and the option it comes with, if any.
#[derive(Debug)]
struct Field {
    name: String,
    types: Vec<Type>,
    when: Option<String>,
}

/// One type, as the page writes it.
fn parse_one(text: &str) -> Result<Type, String> {
    let text = text.trim();
    Ok(match text {
        "integer" => Type::Integer,
        "number" => Type::Number,
        "seconds" => Type::Seconds,
        "string" => Type::String,
        "boolean" => Type::Boolean,
        "null" => Type::Null,
        "object" => Type::Object,
        _ => {
            if let Some(item) = text.strip_prefix("array of ") {
                Type::Array(Box::new(parse_one(item)?))
            } else if let Some(items) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                Type::Tuple(items.split(',').map(parse_one).collect::<Result<_, _>>()?)
            } else {
                return Err(format!("unknown type {text:?}"));
            }
        }
    })
}

/// `T or U or null`.
fn parse_types(text: &str) -> Result<Vec<Type>, String> {
    text.split(" or ").map(parse_one).collect()
}

/// The tables of `page`, by section (`count`, `plan --units`, ...): every
/// table whose header is `| field | type | when | meaning |`.
fn tables_of(page: &str) -> Result<BTreeMap<String, Vec<Field>>, String> {
    let mut tables: BTreeMap<String, Vec<Field>> = BTreeMap::new();
    let mut section = String::new();
    let mut in_table = false;
    for (index, line) in page.lines().enumerate() {
        let place = format!("docs/json.md:{}", index + 1);
        if let Some(heading) = line.strip_prefix("## ") {
            section = heading.replace('`', "");
            continue;
        }
        if line == "| field | type | when | meaning |" {
            if tables.contains_key(&section) {
                return Err(format!("{place}: a second table in section {section:?}"));
            }
            tables.insert(section.clone(), Vec::new());
            in_table = true;
            continue;
        }
        if !in_table || line.starts_with("|---") {
            continue;
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [name, types, when, meaning] = cells[..] else {
            return Err(format!("{place}: not four cells: {line}"));
        };
        let name = name
            .strip_prefix('`')
            .and_then(|n| n.strip_suffix('`'))
            .ok_or_else(|| format!("{place}: the field is not in backticks: {name}"))?;
        if meaning.is_empty() {
            return Err(format!("{place}: {name} has no meaning"));
        }
        let when = when.trim_matches('`');
        tables.get_mut(&section).unwrap().push(Field {
            name: name.to_owned(),
            types: parse_types(types).map_err(|e| format!("{place}: {e}"))?,
            when: (!when.is_empty()).then(|| when.to_owned()),
        });
    }
    Ok(tables)
}

fn tables() -> BTreeMap<String, Vec<Field>> {
    let page = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/json.md"));
    tables_of(&std::fs::read_to_string(page).unwrap()).unwrap()
}

/// Whether a name speaks of time: it must then end in `_secs` (a rate in
/// `_per_sec`).
fn speaks_of_time(name: &str) -> bool {
    const WORDS: [&str; 12] = [
        "secs", "sec", "seconds", "time", "elapsed", "duration", "ms", "us", "ns", "millis",
        "micros", "nanos",
    ];
    name.split('_').any(|word| WORDS.contains(&word))
}

/// Whether a string holds a number, as `"14200"` or `"0.5"` would.
fn holds_a_number(text: &str) -> bool {
    let t = text.trim();
    t.bytes().any(|b| b.is_ascii_digit())
        && t.bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
        && t.parse::<f64>().is_ok()
}

/// The convention's rules, for any value at `path`: snake_case names,
/// durations in `*_secs` numbers, no number in a string.
fn rules(path: &str, value: &Value, problems: &mut Vec<String>) {
    match value {
        Value::Object(fields) => {
            for (name, field) in fields {
                let at = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                let snake = name.starts_with(|c: char| c.is_ascii_lowercase())
                    && name
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
                if !snake {
                    problems.push(format!("{at}: not a snake_case name"));
                }
                if speaks_of_time(name) && !name.ends_with("_secs") && !name.ends_with("_per_sec") {
                    problems.push(format!("{at}: a duration whose name does not end in _secs"));
                }
                let seconds = |v: &Value| v.is_number() || v.is_null();
                let durations = field
                    .as_array()
                    .is_some_and(|items| items.iter().all(seconds));
                if name.ends_with("_secs") && !(seconds(field) || durations) {
                    problems.push(format!("{at}: a duration that is not a number: {field}"));
                }
                // A commit's hash may be all digits.
                if name != "commit" {
                    rules(&at, field, problems);
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| rules(&format!("{path}[]"), item, problems)),
        Value::String(text) if holds_a_number(text) => {
            problems.push(format!("{path}: a number in a string: {value}"));
        }
        _ => {}
    }
}

/// Whether `value` is of type `ty` (the fields of an object are checked
/// apart).
fn is(ty: &Type, value: &Value) -> bool {
    match ty {
        Type::Integer => value.is_u64() || value.is_i64(),
        Type::Number | Type::Seconds => value.is_number(),
        Type::String => value.is_string(),
        Type::Boolean => value.is_boolean(),
        Type::Null => value.is_null(),
        Type::Object => value.is_object(),
        Type::Array(item) => value
            .as_array()
            .is_some_and(|v| v.iter().all(|i| is(item, i))),
        Type::Tuple(items) => value
            .as_array()
            .is_some_and(|v| v.len() == items.len() && v.iter().zip(items).all(|(i, t)| is(t, i))),
    }
}

/// Checks the fields of `object`, the children of `prefix` (`""`,
/// `conflict.`, `rows[].`), against `table`, given the `options` of the
/// command line.
fn fields(table: &[Field], prefix: &str, options: &[&str], object: &Value, out: &mut Vec<String>) {
    let Some(object) = object.as_object() else {
        out.push(format!("{prefix}: not an object"));
        return;
    };
    let expected: Vec<&Field> = table
        .iter()
        .filter(|f| {
            f.name
                .strip_prefix(prefix)
                .is_some_and(|rest| !rest.contains('.') && !rest.contains("[]"))
        })
        .filter(|f| f.when.as_deref().is_none_or(|w| options.contains(&w)))
        .collect();
    for name in object.keys() {
        let full = format!("{prefix}{name}");
        if !expected.iter().any(|f| f.name == full) {
            out.push(format!("{full}: not in the table"));
        }
    }
    for field in expected {
        let name = &field.name[prefix.len()..];
        let Some(value) = object.get(name) else {
            out.push(format!("{}: in the table, not in the output", field.name));
            continue;
        };
        if !field.types.iter().any(|t| is(t, value)) {
            out.push(format!("{}: {value} is not {:?}", field.name, field.types));
        }
        if value.is_object() && field.types.contains(&Type::Object) {
            fields(table, &format!("{}.", field.name), options, value, out);
        }
        if let Some(items) = value.as_array()
            && field.types.contains(&Type::Array(Box::new(Type::Object)))
        {
            for item in items {
                fields(table, &format!("{}[].", field.name), options, item, out);
            }
        }
    }
}

/// What is wrong with `record`, printed by a command of `section` with
/// `options`: against the table and the rules.
fn problems(
    tables: &BTreeMap<String, Vec<Field>>,
    section: &str,
    options: &[&str],
    record: &Value,
) -> Vec<String> {
    let mut out = Vec::new();
    if !record.is_object() {
        return vec![format!("not an object: {record}")];
    }
    rules("", record, &mut out);
    fields(&tables[section], "", options, record, &mut out);
    out
}

/// A command to run and the section its objects belong to.
struct Case {
    section: &'static str,
    args: Vec<String>,
    stdin: &'static str,
    /// The options of the *when* column given.
    options: &'static [&'static str],
    code: i32,
}

fn case(section: &'static str, args: &[&str]) -> Case {
    Case {
        section,
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        stdin: "",
        options: &[],
        code: 0,
    }
}

/// Runs `queens` with `args` and `stdin`: exit code, stdout, stderr.
fn run(args: &[String], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .env("RAYON_NUM_THREADS", "2")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("AWS_BATCH_JOB_ARRAY_INDEX")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

/// The shards of `count 8` in two, in `full/`, and the first alone in
/// `partial/`.
fn shards() -> TempDir {
    let dir = TempDir::new().unwrap();
    let full = dir.path().join("full");
    for i in 0..2 {
        let shard = format!("{i}/2");
        let args = [
            "count",
            "8",
            "--shard",
            &shard,
            "--out-dir",
            full.to_str().unwrap(),
            "-q",
        ];
        let (code, _, err) = run(&args.map(String::from), "");
        assert_eq!(code, 0, "{err}");
    }
    let partial = dir.path().join("partial");
    std::fs::create_dir(&partial).unwrap();
    let first = "shard-0000-of-0002.json";
    std::fs::copy(full.join(first), partial.join(first)).unwrap();
    dir
}

/// Boards for `check`: a solution, a board that is not, a solution.
const BOARDS: &str = "2 4 1 3\n2 5 3 6 4 1 7 8\n3 1 4 2\n";

/// A run of every command with `--json`, and of its variants whose objects
/// differ (a range, `--unique`, `--units`, a partial merge, a skipped step).
/// `dir` holds [`shards`] and a journal the cases write and read, in order.
fn cases(dir: &Path) -> Vec<Case> {
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (full, partial, journal) = (path("full"), path("partial"), path("n8.journal"));
    let (full, partial, journal) = (full.as_str(), partial.as_str(), journal.as_str());
    vec![
        case("count", &["count", "8..9", "--json"]),
        Case {
            options: &["--unique", "--cross-check"],
            ..case(
                "count",
                &["count", "8", "--unique", "--cross-check", "--json"],
            )
        },
        case("count", &["count", "8", "--units", "0-2", "--json"]),
        case(
            "count",
            &["count", "5", "--algorithm", "flags", "--json", "-q"],
        ),
        case("count", &["count", "8", "--checkpoint", journal, "--json"]),
        case("count", &["count", "8", "--given", "1:1", "--json"]),
        case("plan", &["plan", "8", "--json"]),
        case("plan", &["plan", "8", "--blocked", "1:1", "--json"]),
        case("plan --units", &["plan", "8", "--units"]),
        case("list", &["list", "6", "--json"]),
        case("list", &["list", "6", "--format", "jsonl", "--limit", "1"]),
        case("one", &["one", "20", "--json"]),
        Case {
            stdin: BOARDS,
            code: 1,
            ..case("check", &["check", "--json"])
        },
        Case {
            // A row without a queen: `empty_row` an integer.
            stdin: ".Q..\n....\nQ...\n..Q.\n",
            code: 1,
            ..case("check", &["check", "--json"])
        },
        Case {
            stdin: BOARDS,
            code: 1,
            ..case("check", &["check", "--given", "1:2", "--json"])
        },
        Case {
            stdin: BOARDS,
            code: 1,
            ..case("check", &["check", "--blocked", "8:8", "--json"])
        },
        case("ladder", &["ladder", "6", "--json"]),
        case(
            "bench",
            &["bench", "8", "--runs", "1", "--threads", "1", "--json"],
        ),
        case("merge", &["merge", full, "--json"]),
        Case {
            code: 1,
            ..case("merge", &["merge", partial, "--json"])
        },
        case("merge", &["merge", partial, "--partial", "--json"]),
        case("verify", &["verify", full, "--seed", "7", "--json"]),
        case("verify", &["verify", "--journal", journal, "--json"]),
        case(
            "estimate",
            &["estimate", "8", "--sample", "100%", "--seed", "1", "--json"],
        ),
        case(
            "estimate",
            &[
                "estimate", "8", "--given", "2:3", "--sample", "100%", "--json",
            ],
        ),
        Case {
            options: &["--shards"],
            ..case(
                "estimate",
                &[
                    "estimate", "10", "--sample", "100%", "--shards", "4", "--json",
                ],
            )
        },
    ]
}

#[test]
fn the_tables_are_well_formed() {
    let tables = tables();
    for (section, table) in &tables {
        assert!(!table.is_empty(), "{section}: an empty table");
        for field in table {
            let name = &field.name;
            let secs = (field.types.iter())
                .any(|t| *t == Type::Seconds || *t == Type::Array(Box::new(Type::Seconds)));
            assert_eq!(
                name.ends_with("_secs"),
                secs,
                "{section}: {name}: `_secs` if and only if seconds"
            );
            // A nested field's parent is an object, or an array of them.
            if let Some((parent, _)) = name.rsplit_once('.') {
                let (parent, want) = match parent.strip_suffix("[]") {
                    Some(p) => (p, Type::Array(Box::new(Type::Object))),
                    None => (parent, Type::Object),
                };
                assert!(
                    table
                        .iter()
                        .any(|f| f.name == parent && f.types.contains(&want)),
                    "{section}: {name} has no parent {parent} of type {want:?}"
                );
            }
            let last = name.rsplit(['.', ']']).next().unwrap();
            let mut problems = Vec::new();
            rules("", &json!({ last: 0 }), &mut problems);
            assert!(problems.is_empty(), "{section}: {problems:?}");
        }
    }
}

#[test]
fn every_command_that_prints_a_result_has_a_table_and_a_case() {
    let (commands, _) = subcommands();
    let cased: BTreeSet<&str> = cases(Path::new(".")).iter().map(|c| c.section).collect();
    let tabled: BTreeSet<String> = tables().into_keys().collect();
    let tabled: BTreeSet<&str> = tabled.iter().map(String::as_str).collect();
    assert_eq!(cased, tabled, "every table is run, and nothing else");
    for command in &commands {
        if NO_RESULT.contains(&command.as_str()) {
            continue;
        }
        assert!(
            tabled.contains(command.as_str()),
            "no table for {command} in docs/json.md"
        );
        let help = stdout_of(&queens(&[command, "--help"]).success());
        assert!(help.contains("--json"), "{command} has no --json");
        assert!(help.contains("-q, --quiet"), "{command} has no -q");
    }
}

#[test]
fn every_command_prints_what_its_table_says() {
    let tables = tables();
    let dir = shards();
    let mut failures = Vec::new();
    for case in cases(dir.path()) {
        let (code, out, err) = run(&case.args, case.stdin);
        let command = case.args.join(" ");
        if code != case.code {
            failures.push(format!("{command}: exit {code}, not {}: {err}", case.code));
        }
        if out.is_empty() {
            failures.push(format!("{command}: printed nothing"));
        }
        for line in out.lines() {
            match serde_json::from_str::<Value>(line) {
                Err(e) => failures.push(format!("{command}: not JSON ({e}): {line}")),
                Ok(record) => failures.extend(
                    problems(&tables, case.section, case.options, &record)
                        .into_iter()
                        .map(|p| format!("{command}: {p}")),
                ),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_check_catches_what_breaks_the_convention() {
    let tables = tables();
    let merged = json!({
        "n": 16, "engine": "join", "plan": "sha256:7382", "shards": 4, "shards_present": 4,
        "units": 6470, "units_present": 6470, "confirmed_units": 0, "missing_shards": [],
        "complete": true, "total": 14772512, "problem": null, "known": 14772512,
        "matches_known": true,
        "digest": "sha256:872d", "mod13": 1, "mod15": 2, "problems": []
    });
    assert_eq!(
        problems(&tables, "merge", &[], &merged),
        Vec::<String>::new()
    );
    let broken = |edit: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut record = merged.clone();
        edit(record.as_object_mut().unwrap());
        problems(&tables, "merge", &[], &record).join("; ")
    };
    // The defects of issue 35, item 3.
    let string_total = broken(&|r| {
        r.insert("total".into(), json!("14772512"));
    });
    assert!(
        string_total.contains("total: a number in a string"),
        "{string_total}"
    );
    let string_ranges = broken(&|r| {
        r.insert("missing_shards".into(), json!("0"));
    });
    assert!(string_ranges.contains("missing_shards"), "{string_ranges}");
    let missing = broken(&|r| {
        r.remove("digest");
    });
    assert!(
        missing.contains("digest: in the table, not in the output"),
        "{missing}"
    );
    let extra = broken(&|r| {
        r.insert("work_present".into(), json!(75.0));
    });
    assert!(extra.contains("work_present: not in the table"), "{extra}");
    let float = broken(&|r| {
        r.insert("units".into(), json!(6470.0));
    });
    assert!(float.contains("units: 6470.0 is not"), "{float}");
    let estimate = json!({ "sample_seconds": 0.5, "mean": "0.5" });
    let mut found = Vec::new();
    rules("", &estimate, &mut found);
    assert_eq!(found.len(), 2, "{found:?}");
    // Nested fields and bench's rules too.
    let count = json!({
        "cross_check": { "engine": "join", "solutions": "92", "agrees": true }
    });
    found.clear();
    rules("", &count, &mut found);
    assert_eq!(
        found,
        ["cross_check.solutions: a number in a string: \"92\""]
    );
    let bench = json!({ "rows": [{ "median_seconds": 1.0 }], "commit": "1234567" });
    found.clear();
    rules("", &bench, &mut found);
    assert_eq!(
        found,
        ["rows[].median_seconds: a duration whose name does not end in _secs"]
    );
    // A list of durations is seconds too; a list holding a string is not.
    found.clear();
    rules("", &json!({ "times_secs": [0.1, 0.2] }), &mut found);
    assert_eq!(found, Vec::<String>::new());
    rules("", &json!({ "times_secs": [0.1, "0.2"] }), &mut found);
    assert_eq!(found.len(), 2, "{found:?}");
}

#[test]
fn quiet_prints_only_the_essential_result() {
    let shards = shards();
    let full = shards.path().join("full");
    let dir = full.to_str().unwrap();
    let quiet = |args: &[&str], stdin: &str| {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        let (code, out, err) = run(&args, stdin);
        assert_eq!(err, "", "{args:?} said something on stderr");
        (code, out)
    };
    assert_eq!(quiet(&["count", "8", "-q"], ""), (0, "92\n".into()));
    assert_eq!(
        quiet(&["count", "8", "--unique", "-q"], ""),
        (0, "92 12\n".into())
    );
    let (code, hash) = quiet(&["plan", "8", "-q"], "");
    assert!(
        code == 0 && hash.starts_with("sha256:") && hash.lines().count() == 1,
        "{hash}"
    );
    assert_eq!(quiet(&["list", "3", "-q"], ""), (0, String::new()));
    assert_eq!(quiet(&["one", "3", "-q"], ""), (1, String::new()));
    assert_eq!(
        quiet(&["one", "4", "-q", "-f", "columns"], ""),
        (0, "2 4 1 3\n".into())
    );
    assert_eq!(quiet(&["check", "-q"], "2 4 1 3\n"), (0, String::new()));
    assert_eq!(quiet(&["check", "-q"], BOARDS), (1, String::new()));
    let (code, steps) = quiet(&["ladder", "6", "-q"], "");
    assert_eq!(code, 0);
    let names: Vec<&str> = steps
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(name, secs)| {
            assert!(secs.parse::<f64>().is_ok_and(|s| s > 0.0), "{l}", l = secs);
            name
        })
        .collect();
    assert_eq!(
        names,
        ["attack-counts", "scan", "flags", "bitmask", "parallel"],
        "{steps}"
    );
    assert_eq!(quiet(&["merge", dir, "-q"], ""), (0, "92\n".into()));
    assert_eq!(quiet(&["verify", dir, "-q"], ""), (0, String::new()));
    let (code, secs) = quiet(&["estimate", "8", "--sample", "100%", "-q"], "");
    assert!(
        code == 0 && secs.trim().parse::<f64>().is_ok_and(|s| s > 0.0),
        "{secs}"
    );
}
