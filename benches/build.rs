//! Compiles the FCL peer's C++ shim (fcl_shim/fcl_shim.cpp) when FCL is installed
//! (`scripts/install_fcl.sh`: Debian's libfcl-dev) and sets `cfg(has_fcl)`; without FCL the
//! benchmark builds and runs without that peer. The library never depends on FCL.

use std::process::Command;

fn pkg_config(args: &[&str]) -> Option<String> {
    let out = Command::new("pkg-config").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn main() {
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
