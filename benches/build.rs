//! Builds the benchmark's two foreign programs:
//!
//! - the legacy C harness (`legacy/legacy_bench.c`), compiled and linked as an outside C
//!   program: the system C compiler, `include/rapidpqp.h` (and the headers it includes), the repository's
//!   `target/release/librapidpqp.a` (made at the repository root by
//!   `cargo rustc --release --lib --features capi --crate-type cdylib --crate-type staticlib`,
//!   which `run_bench.sh` runs first; `RAPIDPQP_STATIC_LIB` names another). Its path goes to
//!   the program as `LEGACY_BENCH_EXE`; without the library, `LEGACY_BENCH_MISSING` says why;
//! - the FCL peer's C++ shim (`fcl_shim/fcl_shim.cpp`) when FCL is installed
//!   (`scripts/install_fcl.sh`: Debian's libfcl-dev), setting `cfg(has_fcl)`; without FCL the
//!   benchmark builds and runs without that peer. The library never depends on FCL.

use std::path::PathBuf;
use std::process::Command;

fn pkg_config(args: &[&str]) -> Option<String> {
    let out = Command::new("pkg-config").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn main() {
    legacy_harness();
    fcl_shim();
}

/// Compiles `legacy/legacy_bench.c` into `$OUT_DIR/legacy_bench`, linked with the static library.
fn legacy_harness() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest.join("..");
    let library = std::env::var_os("RAPIDPQP_STATIC_LIB")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/librapidpqp.a"));
    println!("cargo::rerun-if-env-changed=RAPIDPQP_STATIC_LIB");
    println!("cargo::rerun-if-changed=legacy/legacy_bench.c");
    println!("cargo::rerun-if-changed=../c_tests/fixture.h");
    println!("cargo::rerun-if-changed=../include/rapidpqp.h");
    println!("cargo::rerun-if-changed={}", library.display());
    if !library.is_file() {
        let why = format!(
            "{} does not exist: build the C library at the repository root (`cargo rustc --release --lib \
             --features capi --crate-type cdylib --crate-type staticlib`)",
            library.display()
        );
        println!("cargo::warning=legacy C harness not built: {why}");
        println!("cargo::rustc-env=LEGACY_BENCH_MISSING={why}");
        return;
    }
    let exe = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("legacy_bench");
    let compiler =
        cc::Build::new().opt_level(2).debug(false).std("c99").warnings(true).extra_warnings(true).get_compiler();
    let output = compiler
        .to_command()
        .arg("-I")
        .arg(root.join("include"))
        .arg("-I")
        .arg(root.join("c_tests"))
        .arg(manifest.join("legacy/legacy_bench.c"))
        .arg(&library)
        .args(["-lm", "-lpthread", "-ldl", "-o"])
        .arg(&exe)
        .output()
        .expect("run the C compiler");
    let messages = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "compiling legacy/legacy_bench.c failed:\n{messages}");
    for line in messages.lines().filter(|l| l.contains("warning")) {
        println!("cargo::warning={line}");
    }
    println!("cargo::rustc-env=LEGACY_BENCH_EXE={}", exe.display());
    println!("cargo::rustc-env=LEGACY_BENCH_LIB={}", library.display());
}

/// Compiles the FCL shim when FCL is installed.
fn fcl_shim() {
    println!("cargo::rustc-check-cfg=cfg(has_fcl)");
    println!("cargo::rerun-if-changed=fcl_shim/fcl_shim.cpp");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=RAPIDPQP_BENCH_NO_FCL");
    println!("cargo::rerun-if-env-changed=PKG_CONFIG_PATH");
    if std::env::var_os("RAPIDPQP_BENCH_NO_FCL").is_some() {
        println!("cargo::warning=RAPIDPQP_BENCH_NO_FCL set: FCL peer not built");
        return;
    }
    // pkg-config first (it also names FCL's dependencies: ccd, octomap); else plain headers.
    let (cflags, libs) = match (pkg_config(&["--cflags", "fcl"]), pkg_config(&["--libs", "fcl"])) {
        (Some(c), Some(l)) => (c, l),
        _ if std::path::Path::new("/usr/include/fcl/fcl.h").exists() => {
            (String::new(), "-lfcl -lccd -lm -loctomap -loctomath".to_string())
        }
        _ => return,
    };
    let mut build = cc::Build::new();
    build.cpp(true).file("fcl_shim/fcl_shim.cpp").flag("-std=c++17").opt_level(3).warnings(false);
    if !cflags.contains("eigen3") {
        build.include("/usr/include/eigen3");
    }
    for flag in cflags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-I") {
            build.include(dir);
        } else if let Some(def) = flag.strip_prefix("-D") {
            let (k, v) = def.split_once('=').map_or((def, None), |(k, v)| (k, Some(v)));
            build.define(k, v);
        } else if !flag.starts_with("-std=") {
            build.flag(flag);
        }
    }
    build.compile("fcl_shim");
    for flag in libs.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo::rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo::rustc-link-lib={lib}");
        }
    }
    println!("cargo::rustc-cfg=has_fcl");
}
