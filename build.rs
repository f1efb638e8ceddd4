//! With the `capi` feature (the build that makes the C library), generates the C headers into
//! `$OUT_DIR` with cbindgen (shared settings in `cbindgen.toml`); a Rust dependent of the rlib
//! compiles neither cbindgen nor the headers (the SONAME is capi/build.rs's):
//!
//! | header | declares | from |
//! |---|---|---|
//! | `rapidpqp_native.h` | the native `rpq_*` API and the `RPQ_VERSION_*` macros | every `src/ffi/*.rs` not below |
//! | `rapidpqp_rapid.h` | the legacy RAPID C API | `src/ffi/rapid.rs` |
//! | `rapidpqp_pqp.h` | the legacy PQP C API | `src/ffi/pqp.rs` |
//! | `rapidpqp_vcollide.h` | the legacy V-COLLIDE 1.x C API | `src/ffi/vcollide.rs` |
//! | `rapidpqp.h` | all four (includes them) | this file |
//!
//! So a new `src/ffi/<name>.rs` lands in `rapidpqp_native.h` without any change here; only
//! `src/ffi/mod.rs` (module declarations) and `src/ffi/cxx/` (C++ symbols) are never read.
//! `tests/header.rs` checks that every name a header declares carries its API's prefix.
//!
//! The build writes only to `OUT_DIR`, never into the source tree. The committed copies in
//! `include/` are compared with these by `tests/header.rs`; refresh them with
//! `RAPIDPQP_BLESS=1 cargo test --release --features capi --test header`.
//!
//! A failed generation (a transient parse error while the sources are being edited, say)
//! does not fail the build: it prints a cargo warning and writes a header made of a single
//! `#error`, so that the header test and every C program that includes it fail loudly.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=Cargo.toml");

    // The C tests (tests/c_conformance.rs) drive the `cc` crate, which wants the target and
    // host triples that only build scripts are told.
    for var in ["TARGET", "HOST"] {
        if let Ok(value) = env::var(var) {
            println!("cargo:rustc-env=RAPIDPQP_BUILD_{var}={value}");
        }
    }

    // The C library's build only: a Rust dependent gets neither cbindgen nor the headers.
    // (The shared library's SONAME is set by the C library's package, capi/build.rs.)
    #[cfg(feature = "capi")]
    c_headers::write_all();
}

/// The headers: everything that needs cbindgen.
#[cfg(feature = "capi")]
mod c_headers {
    use std::env;
    use std::fs;
    use std::panic::{self, AssertUnwindSafe};
    use std::path::{Path, PathBuf};

    /// The legacy C layers: source file in `src/ffi`, header, include guard, and the header's
    /// preamble (after the common first line).
    const LEGACY: [(&str, &str, &str, &str); 3] = [
        (
            "rapid.rs",
            "rapidpqp_rapid.h",
            "RAPIDPQP_RAPID_H",
            "The legacy RAPID C API (RAPID 2.01's names, codes and globals, callable from C). Like\n\
             RAPID, its results live in shared globals (RAPID_num_contacts, RAPID_contact, ...): it\n\
             is not for concurrent use; the native rpq_* API (rapidpqp_native.h) is. C++ programs\n\
             written for RAPID include RAPID.H instead, not both.",
        ),
        (
            "pqp.rs",
            "rapidpqp_pqp.h",
            "RAPIDPQP_PQP_H",
            "The legacy PQP C API (PQP 1.3's names, codes and result structs, callable from C). Its\n\
             models keep PQP's shared query state: not for concurrent use; the native rpq_* API\n\
             (rapidpqp_native.h) is. C++ programs written for PQP include PQP.h instead, not both.",
        ),
        (
            "vcollide.rs",
            "rapidpqp_vcollide.h",
            "RAPIDPQP_VCOLLIDE_H",
            "The legacy V-COLLIDE 1.x C API (vc* functions, VC_* codes), plus a C form of V-COLLIDE\n\
             2.01's all-contacts report (vcCollideAll, vcReportTriPairs). Not for concurrent use on\n\
             one handle. C++ programs written for V-COLLIDE 2.01 include VCollide.H instead.",
        ),
    ];

    const NATIVE_PREAMBLE: &str = "\
    The native, reentrant C API: no globals, caller-owned results; built models are immutable
    and may be queried from any number of threads at once.

    Names: every name here starts with rpq_ (functions), RPQ_ (macros) or Rpq (types).

    Arguments, in this order:
      1. what is queried: each model followed by its pose(s) (model1, pose1, model2, pose2; a
         batch: model1, poses1, num_poses1, model2, poses2, num_poses2), then the other inputs
         (points, directions, triangles), an array followed by its length (arrays of one length
         share it);
      2. the query's parameters: its request struct (RpqCollideRequest, RpqDistanceRequest,
         RpqToleranceRequest; NULL means a zero-filled one) or its scalar parameters, then
         `threads` where the work is spread over threads;
      3. caller-kept state that the call reads and updates (RpqDistanceCache);
      4. the outputs (`result`, `out*`), an output array followed by its capacity.
    Every function but the constructors, destructors and plain accessors returns an RpqStatus
    (RPQ_OK or an RPQ_ERR_* code, which rpq_status_message explains) and writes its outputs only
    on RPQ_OK.

    Version: RPQ_VERSION_MAJOR/MINOR/PATCH, RPQ_VERSION_STRING and RPQ_VERSION_NUMBER give the
    version of this header; rpq_version() and rpq_version_string() that of the library linked.";

    const LINK: &str = "\
    Link: cc prog.c -Iinclude target/release/librapidpqp.a -lm -lpthread -ldl
      or: cc prog.c -Iinclude -Ltarget/release -lrapidpqp -Wl,-rpath,$PWD/target/release";

    /// Writes every header into `OUT_DIR`.
    pub(super) fn write_all() {
        let crate_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
        let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
        for (name, text) in headers(&crate_dir) {
            write_if_changed(&out_dir.join(name), &text);
        }
    }

    /// Every header's file name and text.
    fn headers(crate_dir: &Path) -> Vec<(&'static str, String)> {
        let ffi = crate_dir.join("src").join("ffi");
        let legacy_files: Vec<&str> = LEGACY.iter().map(|l| l.0).collect();
        let native_sources = match native_sources(&ffi, &legacy_files) {
            Ok(files) => files,
            Err(why) => vec![PathBuf::from(format!("<cannot list src/ffi: {why}>"))],
        };

        let mut out = Vec::new();
        let native = generate(
            crate_dir,
            "rapidpqp_native.h",
            "RAPIDPQP_NATIVE_H",
            &format!("{NATIVE_PREAMBLE}\n\n{LINK}"),
            Some(version_macros()),
            &native_sources,
        );
        out.push(("rapidpqp_native.h", native));
        for (file, header, guard, preamble) in LEGACY {
            let text = generate(crate_dir, header, guard, &format!("{preamble}\n\n{LINK}"), None, &[ffi.join(file)]);
            out.push((header, text));
        }
        out.push(("rapidpqp.h", umbrella()));
        out
    }

    /// The `.rs` files directly in `src/ffi` except `mod.rs` and the legacy layers, sorted, so that
    /// the native header's order does not depend on the file system.
    fn native_sources(ffi: &Path, legacy: &[&str]) -> std::io::Result<Vec<PathBuf>> {
        let mut files = Vec::new();
        for entry in fs::read_dir(ffi)? {
            let path = entry?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
            if path.is_file() && name.ends_with(".rs") && name != "mod.rs" && !legacy.contains(&name.as_str()) {
                files.push(path);
            }
        }
        files.sort();
        Ok(files)
    }

    /// The version macros of the native header, from Cargo.toml's version (as cargo tells build
    /// scripts), so that the header and `rpq_version()` cannot disagree.
    fn version_macros() -> String {
        let part = |name: &str| -> u32 {
            let text = env::var(format!("CARGO_PKG_VERSION_{name}")).unwrap_or_default();
            let value: u32 =
                text.parse().unwrap_or_else(|_| panic!("Cargo.toml version {name} {text:?} is not a number"));
            // RPQ_VERSION_NUMBER packs three decimal digits per part (see src/ffi/version.rs).
            assert!(name == "MAJOR" || value < 1000, "Cargo.toml version {name} {value} needs more than 3 digits");
            value
        };
        let (major, minor, patch) = (part("MAJOR"), part("MINOR"), part("PATCH"));
        let full = env::var("CARGO_PKG_VERSION").expect("CARGO_PKG_VERSION");
        format!(
            "\n/** Version of this header (Cargo.toml's): major. */\n\
             #define RPQ_VERSION_MAJOR {major}\n\
             /** Version of this header: minor. */\n\
             #define RPQ_VERSION_MINOR {minor}\n\
             /** Version of this header: patch. */\n\
             #define RPQ_VERSION_PATCH {patch}\n\
             /** Version of this header as text, e.g. \"0.1.0\" (with any pre-release part). */\n\
             #define RPQ_VERSION_STRING \"{full}\"\n\
             /** A version as one number, `major * 1000000 + minor * 1000 + patch`: comparable. */\n\
             #define RPQ_MAKE_VERSION(major, minor, patch) ((major) * 1000000u + (minor) * 1000u + (patch))\n\
             /** Version of this header as one number; compare it with rpq_version(). */\n\
             #define RPQ_VERSION_NUMBER RPQ_MAKE_VERSION(RPQ_VERSION_MAJOR, RPQ_VERSION_MINOR, RPQ_VERSION_PATCH)"
        )
    }

    /// `rapidpqp.h`: the four headers, for programs that use several APIs and for those written
    /// when it was the only header.
    fn umbrella() -> String {
        let mut text = String::from(
            "/*\n * rapidpqp: drop-in replacement for the UNC collision libraries RAPID, PQP and V-COLLIDE.\n *\n \
             * All C declarations: the native API (rapidpqp_native.h) and the legacy RAPID, PQP and\n \
             * V-COLLIDE C APIs (rapidpqp_rapid.h, rapidpqp_pqp.h, rapidpqp_vcollide.h). A program\n \
             * that uses one of them may include just that header; one that uses only the native API\n \
             * then sees no legacy name (PQP's CollisionPair, RAPID's collision_pair and globals).\n *\n",
        );
        for line in LINK.lines() {
            text.push_str(&format!(" * {line}\n"));
        }
        text.push_str(
            " */\n\n#ifndef RAPIDPQP_H\n#define RAPIDPQP_H\n\n\
             /*\n * Generated by build.rs: do not edit.\n \
             * Refresh the committed copy with `RAPIDPQP_BLESS=1 cargo test --release --features capi --test header`.\n */\n\n",
        );
        text.push_str("#include \"rapidpqp_native.h\"\n");
        for (_, header, _, _) in LEGACY {
            text.push_str(&format!("#include \"{header}\"\n"));
        }
        text.push_str("\n#endif  /* RAPIDPQP_H */\n");
        text
    }

    /// Runs cbindgen over `sources` with `cbindgen.toml` and this header's guard and preamble; on
    /// failure, a header made of one `#error` (and a cargo warning).
    fn generate(
        crate_dir: &Path,
        name: &str,
        guard: &str,
        preamble: &str,
        after_includes: Option<String>,
        sources: &[PathBuf],
    ) -> String {
        match run_cbindgen(crate_dir, guard, preamble, after_includes, sources) {
            Ok(text) => text,
            Err(why) => {
                let why = why.replace(['\n', '\r'], " ");
                println!("cargo:warning={name} was not generated: {why}");
                format!("#error \"{name} could not be generated by cbindgen: {}\"\n", why.replace('"', "'"))
            }
        }
    }

    /// cbindgen itself; a panic inside it is reported as an error too.
    fn run_cbindgen(
        crate_dir: &Path,
        guard: &str,
        preamble: &str,
        after_includes: Option<String>,
        sources: &[PathBuf],
    ) -> Result<String, String> {
        let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))?;
        let mut header = String::from(
            "/*\n * rapidpqp: drop-in replacement for the UNC collision libraries RAPID, PQP and V-COLLIDE.\n *\n",
        );
        for line in preamble.lines() {
            header.push_str(if line.is_empty() { " *\n".to_owned() } else { format!(" * {line}\n") }.as_str());
        }
        header.push_str(" */");
        config.header = Some(header);
        config.include_guard = Some(guard.to_owned());
        config.after_includes = after_includes;
        for source in sources {
            if !source.is_file() {
                return Err(format!("no source file {}", source.display()));
            }
        }
        let run = panic::catch_unwind(AssertUnwindSafe(|| {
            sources.iter().fold(cbindgen::Builder::new().with_config(config), |b, s| b.with_src(s)).generate()
        }));
        let bindings = match run {
            Ok(Ok(bindings)) => bindings,
            Ok(Err(err)) => return Err(err.to_string()),
            Err(_) => return Err("cbindgen panicked".to_owned()),
        };
        let mut bytes = Vec::new();
        bindings.write(&mut bytes);
        String::from_utf8(bytes).map_err(|e| format!("cbindgen wrote invalid UTF-8: {e}"))
    }

    /// Leaves the file (and its mtime) alone when the text is unchanged.
    fn write_if_changed(path: &Path, text: &str) {
        if fs::read_to_string(path).is_ok_and(|old| old == text) {
            return;
        }
        if let Err(err) = fs::write(path, text) {
            println!("cargo:warning=cannot write {}: {err}", path.display());
        }
    }
}
