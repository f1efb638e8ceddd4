//! A Rust program that depends on rapidpqp by path (`tests/rlib_dependent/`, default
//! features) builds offline with the rlib alone: cargo compiles neither cbindgen nor the
//! cdylib or staticlib; the program runs and finds the contact. The copy is built in `target/tmp/rlib_dependent` with its own target folder
//! (kept between runs) and this checkout's Cargo.lock, so the dependencies need no network.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn rust_dependent_gets_the_rlib_without_cbindgen_or_c_artefacts() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rlib_dependent");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = std::fs::read_to_string(root.join("tests/rlib_dependent/Cargo.toml")).unwrap();
    let path = root.to_str().expect("a UTF-8 checkout path").replace('\\', "/");
    std::fs::write(dir.join("Cargo.toml"), manifest.replace("RAPIDPQP_PATH", &path)).unwrap();
    std::fs::copy(root.join("tests/rlib_dependent/src/main.rs"), dir.join("src/main.rs")).unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    let output = Command::new(env!("CARGO"))
        .current_dir(&dir)
        .args(["build", "--offline", "--message-format", "json", "--target-dir", "target"])
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("run cargo build");
    let messages = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the dependent did not build:\n{}\n{messages}",
        String::from_utf8_lossy(&output.stderr)
    );

    // Every unit cargo built (or found fresh) is reported as a compiler-artifact.
    let artifacts: Vec<&str> = messages.lines().filter(|l| l.contains(r#""reason":"compiler-artifact""#)).collect();
    assert!(artifacts.iter().any(|l| l.contains(r#""name":"rapidpqp""#)), "rapidpqp not among the units");
    let cbindgen: Vec<_> = artifacts.iter().filter(|l| l.contains("cbindgen")).collect();
    assert!(cbindgen.is_empty(), "cbindgen was compiled for a Rust dependent: {cbindgen:?}");
    for line in artifacts.iter().filter(|l| l.contains(r#""kind":["lib"]"#) && l.contains(r#""name":"rapidpqp""#)) {
        assert!(line.contains(r#""crate_types":["rlib"]"#), "rapidpqp built as more than an rlib: {line}");
        for ext in [".so\"", ".a\"", ".dylib\"", ".dll\""] {
            assert!(!line.contains(ext), "rapidpqp made a C artefact ({ext}) for a Rust dependent: {line}");
        }
    }

    let exe = dir.join("target/debug/rlib-dependent");
    let run = Command::new(&exe).output().expect("run the dependent");
    assert!(run.status.success(), "the dependent failed: {}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), "contacts [(7, 9)]");
}
