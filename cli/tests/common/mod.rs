//! Helpers shared by the command line's tests: running the binary
//! ([`cli`]), in a pseudo-terminal ([`terminal`]), and the slow, obviously
//! correct helpers of the library's tests (`tests/common` at the top of
//! the workspace, one copy for both).
#![allow(dead_code, unused_imports)] // each test file uses its own subset

pub mod cli;
#[cfg(target_os = "linux")]
pub mod terminal;

#[path = "../../../tests/common/mod.rs"]
mod library;

pub use library::*;
