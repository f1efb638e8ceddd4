//! `./install.sh PREFIX` as a user runs it, then programs built outside the checkout with only
//! what the installation provides:
//!
//! - `native_c_program_with_pkg_config`: `c_tests/install/native_user.c` (native API) built with
//!   `cc ... $(pkg-config --cflags --libs rapidpqp)`, loading the library by its SONAME;
//! - `legacy_cxx_program_with_pkg_config`: `legacy_user.cpp`, an unchanged RAPID program,
//!   with only the pkg-config flags added;
//! - `static_program_with_pkg_config`: `native_user.c` with `-static` and
//!   `pkg-config --static` (the private libraries), no shared library involved;
//! - `cmake_package_shared_and_static`: `c_tests/install/CMakeLists.txt` with
//!   `find_package(rapidpqp MAJOR.MINOR)` and `rapidpqp::rapidpqp`, shared then with
//!   `RAPIDPQP_STATIC=ON`; a request for another ABI line is refused. CMake is the one in
//!   `RAPIDPQP_CMAKE`, else `cmake` on PATH (./run_tests.sh provides one: the system's, or
//!   PyPI's `cmake` in target/py-venv);
//! - `install_layout_links_and_reinstall`: the files, the SONAME links, a second run (same
//!   result), and a DESTDIR staging;
//! - `bad_prefixes_are_refused_and_change_nothing`.
//!
//! The prefix and the programs live in a temporary folder outside the checkout, one per
//! checkout (wiped at the start of a run).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod common;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `$TMPDIR/rapidpqp-install-test-<hash of the checkout's path>`, emptied once per run.
fn work_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        manifest_dir().hash(&mut hasher);
        let root = std::env::temp_dir().join(format!("rapidpqp-install-test-{:016x}", hasher.finish()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap_or_else(|e| panic!("create {}: {e}", root.display()));
        root
    })
}

/// A fresh folder under the work root, holding copies of `c_tests/install/` (so that nothing
/// is found through the checkout).
fn project_dir(name: &str) -> PathBuf {
    let dir = work_root().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["native_user.c", "legacy_user.cpp", "CMakeLists.txt"] {
        std::fs::copy(manifest_dir().join("c_tests/install").join(file), dir.join(file))
            .unwrap_or_else(|e| panic!("copy {file}: {e}"));
    }
    dir
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// Runs `command`, panicking with its output unless it succeeds; returns the output.
fn run_ok(mut command: Command, what: &str) -> Output {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {what} ({command:?}): {e}"));
    assert!(output.status.success(), "{what} failed ({command:?}):\n{}", text(&output));
    output
}

fn install_command(prefix: &Path) -> Command {
    let mut command = Command::new(manifest_dir().join("install.sh"));
    command.arg(prefix).env("CARGO", env!("CARGO")).env_remove("DESTDIR");
    command
}

/// The prefix `./install.sh` installed into (once per run).
fn prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let prefix = work_root().join("prefix");
        let output = run_ok(install_command(&prefix), "./install.sh");
        // Its cargo build says nothing to worry about (it warned that `rustc-cdylib-link-arg`
        // had no cdylib, cargo#9562, before the C library became a package of its own).
        assert!(!text(&output).contains("warning"), "./install.sh warned:\n{}", text(&output));
        prefix
    })
}

/// pkg-config seeing the test prefix only.
fn pkg_config(args: &[&str]) -> Vec<String> {
    let mut command = Command::new("pkg-config");
    command.args(args).arg("rapidpqp").env("PKG_CONFIG_PATH", prefix().join("lib/pkgconfig"));
    let output = run_ok(command, "pkg-config (install the pkg-config package)");
    String::from_utf8(output.stdout).unwrap().split_whitespace().map(str::to_owned).collect()
}

/// Runs a built program with a clean loader path; it must succeed and say `expect`.
fn run_program(exe: &Path, library_path: Option<&Path>, expect: &str) {
    let mut command = Command::new(exe);
    command.env_remove("LD_LIBRARY_PATH");
    if let Some(dir) = library_path {
        command.env("LD_LIBRARY_PATH", dir);
    }
    let output = run_ok(command, &exe.display().to_string());
    let said = text(&output);
    assert!(said.contains(expect), "{} printed {said:?}, expected {expect:?}", exe.display());
}

/// The shared libraries a program needs (`DT_NEEDED`), from `objdump -p`.
fn needed(exe: &Path) -> Vec<String> {
    let mut command = Command::new("objdump");
    command.arg("-p").arg(exe);
    let output = run_ok(command, "objdump -p");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| l.trim().strip_prefix("NEEDED").map(|n| n.trim().to_owned()))
        .collect()
}

/// `librapidpqp.so.0.MINOR` before 1.0, `librapidpqp.so.MAJOR` after (build.rs's rule).
fn expected_soname() -> String {
    let (major, minor) = (env!("CARGO_PKG_VERSION_MAJOR"), env!("CARGO_PKG_VERSION_MINOR"));
    if major == "0" { format!("librapidpqp.so.0.{minor}") } else { format!("librapidpqp.so.{major}") }
}

#[test]
fn native_c_program_with_pkg_config() {
    let dir = project_dir("native");
    let exe = dir.join("native_user");
    let mut command = Command::new("cc");
    command.current_dir(&dir).args(["-std=c99", "-Wall", "-Wextra", "-Werror", "native_user.c", "-o"]).arg(&exe);
    command.args(pkg_config(&["--cflags", "--libs"]));
    run_ok(command, "cc native_user.c $(pkg-config --cflags --libs rapidpqp)");
    assert!(needed(&exe).contains(&expected_soname()), "native_user needs {:?}", needed(&exe));
    run_program(&exe, Some(&prefix().join("lib")), "distance 2.000000 apart");
}

#[test]
fn legacy_cxx_program_with_pkg_config() {
    let dir = project_dir("legacy");
    let exe = dir.join("legacy_user");
    let mut command = Command::new("c++");
    command.current_dir(&dir).args(["legacy_user.cpp", "-o"]).arg(&exe);
    command.args(pkg_config(&["--cflags", "--libs"]));
    run_ok(command, "c++ legacy_user.cpp $(pkg-config --cflags --libs rapidpqp)");
    run_program(&exe, Some(&prefix().join("lib")), "1 contact crossing (ids 7 9), 0 apart");
}

#[test]
fn static_program_with_pkg_config() {
    let libs = pkg_config(&["--static", "--libs"]);
    for private in ["-lm", "-lpthread", "-ldl"] {
        assert!(libs.iter().any(|l| l == private), "pkg-config --static --libs lacks {private}: {libs:?}");
    }
    let dir = project_dir("static");
    let exe = dir.join("native_user");
    let mut command = Command::new("cc");
    command.current_dir(&dir).args(["-static", "-std=c99", "native_user.c", "-o"]).arg(&exe);
    command.args(pkg_config(&["--static", "--cflags", "--libs"]));
    run_ok(command, "cc -static native_user.c $(pkg-config --static --cflags --libs rapidpqp)");
    assert!(needed(&exe).is_empty(), "a -static program needs {:?}", needed(&exe));
    run_program(&exe, None, "distance 2.000000 apart");
}

/// The CMake program: `RAPIDPQP_CMAKE`, else `cmake` on PATH.
fn cmake() -> PathBuf {
    let cmake = std::env::var_os("RAPIDPQP_CMAKE").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("cmake"));
    let works = Command::new(&cmake).arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(
        works,
        "CMake not found ({}): ./run_tests.sh provides it (the system's, or PyPI's cmake in \
         target/py-venv); or set RAPIDPQP_CMAKE",
        cmake.display()
    );
    cmake
}

/// Configures and builds the CMake project in `dir` with `defines`; the configure output.
fn cmake_build(dir: &Path, build: &str, defines: &[String]) -> Result<(), String> {
    let cmake = cmake();
    let mut configure = Command::new(&cmake);
    configure.arg("-S").arg(dir).arg("-B").arg(dir.join(build)).args(defines);
    configure.arg(format!("-DCMAKE_PREFIX_PATH={}", prefix().display()));
    let output = configure.output().unwrap_or_else(|e| panic!("cannot run cmake: {e}"));
    if !output.status.success() {
        return Err(text(&output));
    }
    let mut compile = Command::new(&cmake);
    compile.arg("--build").arg(dir.join(build));
    run_ok(compile, "cmake --build");
    Ok(())
}

#[test]
fn cmake_package_shared_and_static() {
    let dir = project_dir("cmake");
    let request = format!("-DREQUEST={}.{}", env!("CARGO_PKG_VERSION_MAJOR"), env!("CARGO_PKG_VERSION_MINOR"));

    cmake_build(&dir, "shared", std::slice::from_ref(&request)).unwrap_or_else(|e| panic!("cmake (shared):\n{e}"));
    let exe = dir.join("shared/native_user");
    assert!(needed(&exe).contains(&expected_soname()), "the CMake program needs {:?}", needed(&exe));
    // CMake links with an rpath to the imported library's folder: no LD_LIBRARY_PATH.
    run_program(&exe, None, "distance 2.000000 apart");

    cmake_build(&dir, "static", &[request, "-DRAPIDPQP_STATIC=ON".into()])
        .unwrap_or_else(|e| panic!("cmake (static):\n{e}"));
    let exe = dir.join("static/native_user");
    assert!(!needed(&exe).iter().any(|n| n.starts_with("librapidpqp")), "static: needs {:?}", needed(&exe));
    run_program(&exe, None, "distance 2.000000 apart");

    let refused = cmake_build(&dir, "other-line", &["-DREQUEST=99.0".into()]);
    let why = refused.expect_err("find_package(rapidpqp 99.0) accepted the installed version");
    assert!(why.contains("rapidpqpConfigVersion.cmake") || why.contains("version"), "refused without a reason: {why}");
}

/// Every file and link under `dir`, relative, sorted, with the link targets.
fn listing(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.file_type().is_symlink() {
                out.push(format!("{rel} -> {}", std::fs::read_link(&path).unwrap().display()));
            } else if meta.is_dir() {
                walk(root, &path, out);
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn install_layout_links_and_reinstall() {
    let prefix = prefix();
    let soname = expected_soname();
    let real = format!("librapidpqp.so.{}", env!("CARGO_PKG_VERSION"));
    let files = listing(prefix);
    for want in [
        format!("lib/{soname} -> {real}"),
        format!("lib/librapidpqp.so -> {soname}"),
        format!("lib/{real}"),
        "lib/librapidpqp.a".into(),
        "lib/pkgconfig/rapidpqp.pc".into(),
        "lib/cmake/rapidpqp/rapidpqpConfig.cmake".into(),
        "lib/cmake/rapidpqp/rapidpqpConfigVersion.cmake".into(),
    ] {
        assert!(files.contains(&want), "{want} not installed; installed: {files:#?}");
    }
    // Every file of include/ (whatever it holds, subfolders too), identical.
    let include = manifest_dir().join("include");
    let headers = listing(&include);
    assert!(headers.contains(&"rapidpqp.h".to_owned()) && headers.contains(&"RAPID.H".to_owned()), "{headers:?}");
    for name in headers {
        let installed = prefix.join("include/rapidpqp").join(&name);
        let same = std::fs::read(include.join(&name)).ok() == std::fs::read(&installed).ok();
        assert!(same, "include/{name} is not installed as {}", installed.display());
    }
    assert_eq!(common::soname(&prefix.join("lib").join(&real)).as_deref(), Some(soname.as_str()));
    // The command-line tool (src/bin/rapidpqp/) is installed and runs.
    assert!(files.contains(&"bin/rapidpqp".to_owned()), "bin/rapidpqp not installed: {files:?}");
    let version =
        std::process::Command::new(prefix.join("bin/rapidpqp")).arg("--version").output().expect("run bin/rapidpqp");
    assert!(
        version.status.success() && String::from_utf8_lossy(&version.stdout).contains(env!("CARGO_PKG_VERSION")),
        "bin/rapidpqp --version: {version:?}"
    );

    // A second run over an installed prefix gives the same installation. Not over the shared
    // prefix: the other tests link against its libraries while this one runs.
    let again = work_root().join("prefix-again");
    run_ok(install_command(&again), "./install.sh (into a second prefix)");
    run_ok(install_command(&again), "./install.sh (again over it)");
    assert_eq!(listing(&again), files, "a second install changed the file set");
    for name in ["lib/librapidpqp.a", "include/rapidpqp/rapidpqp.h", "lib/pkgconfig/rapidpqp.pc"] {
        let (first, second) = (std::fs::read(prefix.join(name)).ok(), std::fs::read(again.join(name)).ok());
        let same = if name.ends_with(".pc") { first.is_some() && second.is_some() } else { first == second };
        assert!(same, "{name} differs between two installations");
    }

    // DESTDIR stages the same tree under DESTDIR/PREFIX; rapidpqp.pc names PREFIX.
    let stage = work_root().join("stage");
    let mut staged = install_command(Path::new("/opt/rapidpqp"));
    staged.env("DESTDIR", &stage);
    run_ok(staged, "DESTDIR=... ./install.sh /opt/rapidpqp");
    assert_eq!(listing(&stage.join("opt/rapidpqp")), files, "the staged tree differs");
    let pc = std::fs::read_to_string(stage.join("opt/rapidpqp/lib/pkgconfig/rapidpqp.pc")).unwrap();
    assert!(pc.contains("prefix=/opt/rapidpqp\n"), "staged rapidpqp.pc: {pc}");
}

#[test]
fn bad_prefixes_are_refused_and_change_nothing() {
    let dir = work_root().join("bad-prefixes");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let cases: [(Vec<&str>, &str); 7] = [
        (vec![], "Usage"),
        (vec!["relative/prefix"], "absolute path"),
        (vec!["/nonexistent dir"], "must not contain white space"),
        (vec!["/nonexistent$HOME"], "must not contain white space, quotes, $"),
        (vec!["/nonexistent-a", "/nonexistent-b"], "one PREFIX only"),
        (vec!["--no-such-option"], "unknown option"),
        (vec![file.to_str().unwrap()], "not a directory"),
    ];
    let before = listing(&dir);
    for (args, message) in cases {
        let output = Command::new(manifest_dir().join("install.sh"))
            .args(&args)
            .current_dir(&dir)
            .env("CARGO", env!("CARGO"))
            .output()
            .expect("run install.sh");
        assert!(!output.status.success(), "install.sh {args:?} succeeded");
        assert!(text(&output).contains(message), "install.sh {args:?} said {:?}, not {message:?}", text(&output));
        assert_eq!(listing(&dir), before, "install.sh {args:?} changed files");
    }
    let help = run_ok(
        {
            let mut c = Command::new(manifest_dir().join("install.sh"));
            c.arg("--help");
            c
        },
        "install.sh --help",
    );
    assert!(text(&help).contains("pkg-config") && text(&help).contains("DESTDIR"), "--help: {}", text(&help));
}
