//! The shared library's SONAME on Linux, and its link in the build folder.
//!
//! SONAME: `librapidpqp.so.MAJOR` from 1.0 on, and `librapidpqp.so.0.MINOR` before, where (as
//! for Cargo's semver) a minor release may break the ABI. A program records the SONAME at link
//! time and is loaded only with a library of the same compatibility line; install.sh names the
//! file itself after the full version.
//!
//! Such a program asks the loader for the SONAME, not for `librapidpqp.so`: so that one linked
//! in the build folder (`-Ltarget/release -lrapidpqp`, with `-Wl,-rpath` or `LD_LIBRARY_PATH`)
//! runs, the build leaves `target/<profile>/librapidpqp.so.0.MINOR -> librapidpqp.so` beside
//! the library, as an installed library has. Cargo has no step after linking, so the (relative)
//! link is made here, before the library exists; tests/c_header.rs links and runs a program
//! that way.

use std::env;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("CARGO_PKG_VERSION_MAJOR");
    let minor = env::var("CARGO_PKG_VERSION_MINOR").expect("CARGO_PKG_VERSION_MINOR");
    let compat = if major == "0" { format!("0.{minor}") } else { major };
    let soname = format!("librapidpqp.so.{compat}");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    match artifact_dir(&out_dir) {
        Some(dir) => link_soname(&dir, &soname),
        None => println!(
            "cargo:warning=unexpected build folder {} (no <profile>/build/<package>/out): no {soname} link beside librapidpqp.so",
            out_dir.display()
        ),
    }
}

/// Where cargo puts the final artifacts: `OUT_DIR` is `<that>/build/<package>-<hash>/out`.
fn artifact_dir(out_dir: &Path) -> Option<PathBuf> {
    let build = out_dir.parent()?.parent()?;
    (build.file_name()? == "build").then(|| build.parent().map(Path::to_path_buf))?
}

/// `<dir>/<soname> -> librapidpqp.so`, replacing whatever else has that name.
fn link_soname(dir: &Path, soname: &str) {
    let link = dir.join(soname);
    if std::fs::read_link(&link).is_ok_and(|target| target == Path::new("librapidpqp.so")) {
        return;
    }
    let _ = std::fs::remove_file(&link);
    if let Err(err) = std::os::unix::fs::symlink("librapidpqp.so", &link) {
        println!("cargo:warning=cannot make the link {}: {err}", link.display());
    }
}
