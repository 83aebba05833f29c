//! The LLVM passes of passes/, each on small IR inputs with expected
//! outputs: every `passes/tests/*.ll` names its pipeline on a
//! `; PASSES: <pipeline>` line, runs through the in-process `opt` (which
//! verifies the module after the pipeline), and its output is checked
//! against the file's own `; CHECK` lines by LLVM's FileCheck. The
//! verifier runs after each pass.

use super::inprocess;
use std::path::{Path, PathBuf};
use std::process::Command;

fn file_check() -> PathBuf {
    let p = Path::new("/usr/lib/llvm-19/bin/FileCheck");
    if p.is_file() {
        p.to_path_buf()
    } else {
        PathBuf::from("FileCheck-19")
    }
}

#[test]
fn each_pass_gives_the_expected_ir() {
    let llvm = inprocess::llvm().expect("the in-process LLVM is needed for the pass tests");
    llvm.verify_each(true);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("passes/tests");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("passes/tests")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ll"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no pass tests in {}", dir.display());
    let out_dir = std::env::temp_dir().join(format!("ferrocl-pass-tests-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut failures = Vec::new();
    for input in &inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(input).unwrap();
        let passes = text
            .lines()
            .find_map(|l| l.strip_prefix("; PASSES:"))
            .unwrap_or_else(|| panic!("{name}: no '; PASSES:' line"))
            .trim();
        let output = out_dir.join(&name);
        let outcome = llvm.opt(input, None, passes, &output);
        if !outcome.ok {
            failures.push(format!("{name}: {passes} failed:\n{}", outcome.log));
            continue;
        }
        let check = Command::new(file_check())
            .arg(input)
            .arg("--input-file")
            .arg(&output)
            .output()
            .expect("FileCheck (llvm-19-tools)");
        if !check.status.success() {
            failures.push(format!(
                "{name}:\n{}",
                String::from_utf8_lossy(&check.stderr)
            ));
        }
    }
    // Kept when a test fails, for a look at the whole output.
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&out_dir);
    }
    assert!(
        failures.is_empty(),
        "{}\noutputs in {}",
        failures.join("\n"),
        out_dir.display()
    );
}
