//! Builds the benchmark's foreign programs:
//!
//! - the legacy C harness (`legacy/legacy_bench.c`), an outside C program over the legacy RAPID
//!   and PQP entry points: compiled once with the system C compiler against
//!   `include/rapidpqp.h`, and the object linked twice, each program with the run path of its
//!   library:
//!   - `legacy_bench_ours` with the repository's `target/release/librapidpqp.so` (made at the
//!     repository root by `cargo build --release -p rapidpqp-capi`, which `run_bench.sh` runs first; `RAPIDPQP_LIB_DIR` names
//!     another folder);
//!   - `legacy_bench_originals` with the originals' library, RAPID 2.01 and PQP 1.3 behind the
//!     same C names (`../shared/reference/originals/lib/librapidpqp.so`, a measuring instrument
//!     outside the project; `RAPIDPQP_ORIGINALS_LIB_DIR` names another folder), when it is
//!     there. Both pay the same call through a shared library.
//!
//!   Their paths go to the program as `LEGACY_BENCH_OURS` and `LEGACY_BENCH_ORIGINALS`; when
//!   one cannot be built, `LEGACY_BENCH_OURS_MISSING` or `LEGACY_BENCH_ORIGINALS_MISSING` says
//!   why;
//! - the native C harness (`legacy/native_bench.c`: the trajectory scenes and the native API's
//!   memory row, through `rpq_*` calls only rapidpqp has), linked with our library alone:
//!   `NATIVE_BENCH` (or `NATIVE_BENCH_MISSING`);
//! - the FCL peer's C++ shim (`fcl_shim/fcl_shim.cpp`) when FCL is installed
//!   (`scripts/install_fcl.sh`: Debian's libfcl-dev), setting `cfg(has_fcl)`; without FCL the
//!   benchmark builds and runs without that peer. The library never depends on FCL.

use std::path::{Path, PathBuf};
use std::process::Command;

fn pkg_config(args: &[&str]) -> Option<String> {
    let out = Command::new("pkg-config").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn main() {
    c_harnesses();
    fcl_shim();
}

/// A folder from an environment variable, else the default.
fn folder(var: &str, default: PathBuf) -> PathBuf {
    println!("cargo::rerun-if-env-changed={var}");
    let dir = std::env::var_os(var).map_or(default, PathBuf::from);
    dir.canonicalize().unwrap_or(dir)
}

/// Runs a compiler or linker command; panics with its messages when it fails, passes its
/// warnings on.
fn run(mut command: Command, what: &str) {
    let output = command.output().unwrap_or_else(|e| panic!("run the C compiler for {what}: {e}"));
    let messages = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{what} failed:\n{messages}");
    for line in messages.lines().filter(|l| l.contains("warning")) {
        println!("cargo::warning={line}");
    }
}

/// A folder of links to `library` under its own name and under its SONAME (ours has one,
/// `librapidpqp.so.<compat>`, which `target/release` has no file of; `install.sh` makes that
/// link where it installs): the programs linked with it find it there through their run path.
fn soname_folder(library: &Path, dir: &Path) -> PathBuf {
    let soname = Command::new("objdump").arg("-p").arg(library).output().ok().and_then(|out| {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines().find_map(|l| l.trim().strip_prefix("SONAME").map(|n| n.trim().to_string()))
    });
    std::fs::create_dir_all(dir).expect("create the library links' folder");
    for name in ["librapidpqp.so".to_string()].into_iter().chain(soname) {
        let link = dir.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(library, &link).expect("link the library");
    }
    dir.to_path_buf()
}

/// Compiles the two C harnesses and links them with the libraries that are there.
fn c_harnesses() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest.join("..").canonicalize().expect("the repository root");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let ours = folder("RAPIDPQP_LIB_DIR", root.join("target/release"));
    let originals = folder("RAPIDPQP_ORIGINALS_LIB_DIR", root.join("../shared/reference/originals/lib"));
    for file in ["legacy/legacy_bench.c", "legacy/native_bench.c", "legacy/bench_common.h"] {
        println!("cargo::rerun-if-changed={file}");
    }
    println!("cargo::rerun-if-changed=../c_tests/fixture.h");
    println!("cargo::rerun-if-changed=../include/rapidpqp.h");
    println!("cargo::rerun-if-changed={}", ours.join("librapidpqp.so").display());
    println!("cargo::rerun-if-changed={}", originals.join("librapidpqp.so").display());

    // Position-independent code: the program reads RAPID's globals (RAPID_num_box_tests, ...)
    // through the GOT. Without it they are copy-relocated into the program, and the originals'
    // library, which binds its own references to them, would never write the program's copy.
    let compiler = cc::Build::new()
        .opt_level(2)
        .debug(false)
        .pic(true)
        .std("c99")
        .warnings(true)
        .extra_warnings(true)
        .get_compiler();
    let compile = |source: &str, object: &Path| {
        let mut command = compiler.to_command();
        command.arg("-c").arg("-I").arg(root.join("include")).arg("-I").arg(root.join("c_tests"));
        command.arg(manifest.join(source)).arg("-o").arg(object);
        run(command, &format!("compiling {source}"));
    };
    // Links `object` with the librapidpqp.so of `dir` (and its run path) into `exe`.
    let link = |object: &Path, dir: &Path, extra: &[&str], exe: &Path| {
        let mut command = compiler.to_command();
        command.arg(object).arg(format!("-L{}", dir.display())).arg("-lrapidpqp");
        command.arg(format!("-Wl,-rpath,{}", dir.display())).args(extra).args(["-lm", "-o"]).arg(exe);
        run(command, &format!("linking {} with {}", exe.display(), dir.display()));
    };
    let legacy_object = out.join("legacy_bench.o");
    compile("legacy/legacy_bench.c", &legacy_object);

    if ours.join("librapidpqp.so").is_file() {
        let (legacy, native) = (out.join("legacy_bench_ours"), out.join("native_bench"));
        let dir = soname_folder(&ours.join("librapidpqp.so"), &out.join("ours_lib"));
        link(&legacy_object, &dir, &[], &legacy);
        let native_object = out.join("native_bench.o");
        compile("legacy/native_bench.c", &native_object);
        link(&native_object, &dir, &[], &native);
        println!("cargo::rustc-env=LEGACY_BENCH_OURS={}", legacy.display());
        println!("cargo::rustc-env=NATIVE_BENCH={}", native.display());
        println!("cargo::rustc-env=RAPIDPQP_LIB={}", ours.join("librapidpqp.so").display());
    } else {
        let why = format!(
            "{}/librapidpqp.so does not exist: build the C library at the repository root (`cargo build --release \
             -p rapidpqp-capi`)",
            ours.display()
        );
        println!("cargo::warning=C harnesses not linked with rapidpqp: {why}");
        println!("cargo::rustc-env=LEGACY_BENCH_OURS_MISSING={why}");
        println!("cargo::rustc-env=NATIVE_BENCH_MISSING={why}");
    }

    if originals.join("librapidpqp.so").is_file() {
        let exe = out.join("legacy_bench_originals");
        // The originals are C++ (RAPID and PQP compiled with g++).
        link(&legacy_object, &originals, &["-lstdc++"], &exe);
        println!("cargo::rustc-env=LEGACY_BENCH_ORIGINALS={}", exe.display());
        println!("cargo::rustc-env=ORIGINALS_LIB={}", originals.join("librapidpqp.so").display());
    } else {
        println!("cargo::rustc-env=LEGACY_BENCH_ORIGINALS_MISSING={}/librapidpqp.so is not there", originals.display());
    }
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
