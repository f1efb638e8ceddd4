//! C++ compatibility with RAPID 2.01, PQP 1.3 and V-COLLIDE 2.01: programs written against
//! the original APIs (`c_tests/cxx/*.cpp`, using only `include/RAPID.H`, `include/PQP.h`,
//! `include/VCollide.H`) compiled with the system C++ compiler (via the `cc` crate).
//!
//! - Source compatibility: each program compiles (`-std=c++11 -Wall -Wextra -pedantic
//!   -Werror`) and links against `librapidpqp.a` in one step; its output is compared with the
//!   originals' recorded answers (tests/data/conformance/tori), with brute force, and with the
//!   legacy C API run in this process on the same input; its own checks must all pass.
//! - Binary compatibility: the same programs compiled to object files first (`-O0`), then
//!   linked in separate steps against `librapidpqp.a` and against `librapidpqp.so`; both give
//!   the same output; `nm` shows every undefined symbol of the objects defined by the library
//!   or by libc/libstdc++/libm/libgcc.
//! - Layout: `c_tests/cxx/layout.cpp` static_asserts every size and offset of the specs; the
//!   headers compile alone as C++98 and C++20.
//! - Symbols: every mangled symbol the specs list for clients is exported by both libraries.
//! - Memory: every program again under AddressSanitizer, leak detection on.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::ffi::{OsStr, OsString, c_int};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod common;
use common::cbuild::{ASAN_FLAGS, SYSTEM_LIBS, manifest_dir, report, text};
use common::{CUBE_QUADS, Case, built_library, contact_lines, sorted};

fn scratch_dir() -> PathBuf {
    common::cbuild::scratch_dir("cxx_tests")
}

/// The system C++ compiler with `-std=<std> -Wall -Wextra -pedantic -Werror`, the `include`
/// folder, and no `-fPIC` (programs are built the ordinary way).
fn cxx(std: &str, opt: u32) -> Command {
    common::cbuild::compiler(true, std)
        .opt_level(opt)
        .flag("-pedantic")
        .include(manifest_dir().join("include"))
        .get_compiler()
        .to_command()
}

fn run(command: Command, what: &str) -> Output {
    common::cbuild::run_or_explain(command, what, "; the C++ tests need a C++ compiler (g++) and binutils")
}

fn run_ok(command: Command, what: &str) -> String {
    let output = run(command, what);
    assert!(output.status.success(), "{what} failed ({}):\n{}", output.status, report(&output));
    text(&output.stdout)
}

fn source(name: &str) -> PathBuf {
    manifest_dir().join("c_tests/cxx").join(name)
}

/// One program built three ways, and its output (identical for all three).
struct Built {
    object: PathBuf,
    output: String,
}

/// Builds `c_tests/cxx/<name>.cpp`: in one step against the static library (source
/// compatibility), then as an object linked separately against the static and the shared
/// library (binary compatibility). Runs the three executables; each must exit 0 (its checks
/// pass) and print the same thing.
fn build_three_ways(name: &str) -> Built {
    let static_lib = built_library("librapidpqp.a");
    let shared_lib = built_library("librapidpqp.so");
    let lib_dir = shared_lib.parent().expect("library folder").to_path_buf();
    let dir = scratch_dir();

    let one_step = dir.join(format!("{name}_src"));
    let mut command = cxx("c++11", 2);
    command.arg(source(&format!("{name}.cpp"))).arg(&static_lib).args(SYSTEM_LIBS).arg("-o").arg(&one_step);
    run_ok(command, &format!("compiling {name}.cpp against librapidpqp.a"));

    let object = dir.join(format!("{name}.o"));
    let mut command = cxx("c++11", 0);
    command.arg("-c").arg(source(&format!("{name}.cpp"))).arg("-o").arg(&object);
    run_ok(command, &format!("compiling {name}.cpp to an object file"));

    let with_static = dir.join(format!("{name}_obj_static"));
    let mut command = cxx("c++11", 0);
    command.arg(&object).arg(&static_lib).args(SYSTEM_LIBS).arg("-o").arg(&with_static);
    run_ok(command, &format!("linking {name}.o with librapidpqp.a"));

    let with_shared = dir.join(format!("{name}_obj_shared"));
    let mut search = OsString::from("-L");
    search.push(&lib_dir);
    let mut rpath = OsString::from("-Wl,-rpath,");
    rpath.push(&lib_dir);
    let mut command = cxx("c++11", 0);
    command
        .arg(&object)
        .arg(&search)
        .arg("-l:librapidpqp.so")
        .arg(&rpath)
        .args(SYSTEM_LIBS)
        .arg("-o")
        .arg(&with_shared);
    run_ok(command, &format!("linking {name}.o with librapidpqp.so"));

    let mut outputs = Vec::new();
    for exe in [&one_step, &with_static, &with_shared] {
        let mut command = Command::new(exe);
        command.env("LD_LIBRARY_PATH", &lib_dir);
        let output = run(command, &exe.display().to_string());
        let stdout = text(&output.stdout);
        let stderr = text(&output.stderr);
        assert!(
            output.status.success(),
            "{} failed ({}): its checks:\n{}\n{stderr}",
            exe.display(),
            output.status,
            stdout.lines().last().unwrap_or("")
        );
        // The programs' own checks report to stdout: anything on stderr came from the library,
        // which never prints (PQP's SizeTo and MemUsage messages included).
        assert!(stderr.is_empty(), "{}: the library printed to stderr:\n{stderr}", exe.display());
        outputs.push(stdout);
    }
    assert_eq!(outputs[0], outputs[1], "{name}: the object linked with librapidpqp.a prints otherwise");
    assert_eq!(outputs[0], outputs[2], "{name}: the object linked with librapidpqp.so prints otherwise");
    let last = outputs[0].lines().last().unwrap_or("").to_string();
    println!("{name}: built three ways, {last}");
    Built { object, output: outputs.swap_remove(0) }
}

/// The lines of `output` whose first word is `kind`, split into words after it.
fn lines_of<'a>(output: &'a str, kind: &str) -> Vec<Vec<&'a str>> {
    output
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.first() == Some(&kind))
        .map(|w| w[1..].to_vec())
        .collect()
}

fn int(word: &str) -> i64 {
    word.parse().unwrap_or_else(|e| panic!("{word:?} is not an integer: {e}"))
}

fn float(word: &str) -> f64 {
    word.parse().unwrap_or_else(|e| panic!("{word:?} is not a number: {e}"))
}

/// A printed contact line: return code, the two test counts, the pairs in order.
type Contacts = (i64, i64, i64, Vec<(i32, i32)>);

/// `rc a b n id1 id2 ...` → (rc, a, b, pairs in order).
fn contact_line(words: &[&str]) -> Contacts {
    let n = int(words[3]) as usize;
    assert_eq!(words.len(), 4 + 2 * n, "contact line {words:?}");
    let pairs = (0..n).map(|k| (int(words[4 + 2 * k]) as i32, int(words[5 + 2 * k]) as i32)).collect();
    (int(words[0]), int(words[1]), int(words[2]), pairs)
}

/// `defined symbols` of a library or object, per `nm` (version suffixes removed).
fn nm(args: &[&OsStr], what: &str) -> HashSet<String> {
    let mut command = Command::new("nm");
    command.args(args);
    run_ok(command, &format!("nm {what}"))
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .map(|s| s.split('@').next().unwrap_or(s).to_string())
        .collect()
}

/// The symbols `library` (of this build) defines, per `nm <flag> --defined-only`.
fn defined_by_library(library: &str, flag: &str) -> HashSet<String> {
    let lib = built_library(library);
    nm(&[flag.as_ref(), "--defined-only".as_ref(), lib.as_os_str()], library)
}

fn defined_static() -> &'static HashSet<String> {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| defined_by_library("librapidpqp.a", "-g"))
}

fn defined_shared() -> &'static HashSet<String> {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| defined_by_library("librapidpqp.so", "-D"))
}

/// Symbols defined by the C and C++ runtime libraries the compiler links by default.
fn defined_by_system() -> &'static HashSet<String> {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| {
        let mut all = HashSet::new();
        for lib in ["libstdc++.so.6", "libc.so.6", "libm.so.6", "libgcc_s.so.1"] {
            let mut command = cxx("c++11", 0);
            command.arg(format!("-print-file-name={lib}"));
            let path = run_ok(command, "the C++ compiler (-print-file-name)").trim().to_string();
            if !Path::new(&path).is_absolute() {
                panic!("the C++ compiler does not know where {lib} is ({path})");
            }
            let path = std::fs::canonicalize(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            all.extend(nm(&["-D".as_ref(), "--defined-only".as_ref(), path.as_os_str()], lib));
        }
        all
    })
}

/// Every undefined symbol of `object` is defined by both libraries or by the system's.
fn check_undefined_symbols(object: &Path) -> Vec<String> {
    let undefined = nm(&["-u".as_ref(), object.as_os_str()], &object.display().to_string());
    // Names the static linker itself provides.
    let linker = ["_GLOBAL_OFFSET_TABLE_", "__dso_handle"];
    let mut ours = Vec::new();
    let mut missing = Vec::new();
    for sym in &undefined {
        if linker.contains(&sym.as_str()) {
            continue;
        }
        let in_static = defined_static().contains(sym);
        let in_shared = defined_shared().contains(sym);
        if in_static || in_shared {
            if !(in_static && in_shared) {
                missing.push(format!("{sym} (only in {})", if in_static { ".a" } else { ".so" }));
            }
            ours.push(sym.clone());
        } else if !defined_by_system().contains(sym) {
            missing.push(sym.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "{}: undefined symbols neither librapidpqp nor the system libraries define: {missing:?}",
        object.display()
    );
    ours.sort();
    ours
}

/// Checks the undefined symbols of `object` (as [`check_undefined_symbols`] does) and that
/// `<name>.o` uses every one of `symbols` but the base-object constructor and destructor
/// variants (`C2Ev`, `D2Ev`) and the names containing one of `unused`.
fn assert_uses_symbols(object: &Path, name: &str, symbols: &[&str], unused: &[&str]) {
    let ours = check_undefined_symbols(object);
    let skipped = |sym: &&&str| ["C2Ev", "D2Ev"].iter().chain(unused).any(|u| sym.contains(u));
    for sym in symbols.iter().filter(|sym| !skipped(sym)) {
        assert!(ours.iter().any(|o| o == sym), "{name}.o does not use {sym}: {ours:?}");
    }
}

// ------------------------------------------------------------------------------------------
// The client-facing symbols of the specs (RAPID.md §4, PQP.md §3.1, VCOLLIDE.md §7).

const RAPID_SYMBOLS: &[&str] = &[
    "_ZN11RAPID_modelC1Ev",
    "_ZN11RAPID_modelC2Ev",
    "_ZN11RAPID_modelD1Ev",
    "_ZN11RAPID_modelD2Ev",
    "_ZN11RAPID_model10BeginModelEv",
    "_ZN11RAPID_model6AddTriEPKdS1_S1_i",
    "_ZN11RAPID_model8EndModelEv",
    "_ZN11RAPID_model15build_hierarchyEv",
    "_Z13RAPID_CollidePA3_dPdP11RAPID_modelS0_S1_S3_i",
    "_Z13RAPID_CollidePA3_dPddP11RAPID_modelS0_S1_dS3_i",
    "RAPID_num_box_tests",
    "RAPID_num_tri_tests",
    "RAPID_num_contacts",
    "RAPID_contact",
];

const PQP_SYMBOLS: &[&str] = &[
    "_ZN9PQP_ModelC1Ev",
    "_ZN9PQP_ModelC2Ev",
    "_ZN9PQP_ModelD1Ev",
    "_ZN9PQP_ModelD2Ev",
    "_ZN9PQP_Model10BeginModelEi",
    "_ZN9PQP_Model6AddTriEPKdS1_S1_i",
    "_ZN9PQP_Model8EndModelEv",
    "_ZN9PQP_Model8MemUsageEi",
    "_ZN17PQP_CollideResultC1Ev",
    "_ZN17PQP_CollideResultC2Ev",
    "_ZN17PQP_CollideResultD1Ev",
    "_ZN17PQP_CollideResultD2Ev",
    "_ZN17PQP_CollideResult6SizeToEi",
    "_ZN17PQP_CollideResult3AddEii",
    "_ZN17PQP_CollideResult13FreePairsListEv",
    "_Z11PQP_CollideP17PQP_CollideResultPA3_dPdP9PQP_ModelS2_S3_S5_i",
    "_Z12PQP_DistanceP18PQP_DistanceResultPA3_dPdP9PQP_ModelS2_S3_S5_ddi",
    "_Z13PQP_ToleranceP19PQP_ToleranceResultPA3_dPdP9PQP_ModelS2_S3_S5_di",
    "_ZN2BVC1Ev",
    "_ZN2BVC2Ev",
    "_ZN2BVD1Ev",
    "_ZN2BVD2Ev",
    "_ZN2BV9FitToTrisEPA3_dP3Trii",
    "_Z10BV_OverlapPA3_dPdP2BVS3_",
    "_Z11BV_DistancePA3_dPdP2BVS3_",
];

const VCOLLIDE_SYMBOLS: &[&str] = &[
    "_ZN8VCollideC1Ev",
    "_ZN8VCollideC2Ev",
    "_ZN8VCollideD1Ev",
    "_ZN8VCollideD2Ev",
    "_ZN8VCollide9NewObjectEPi",
    "_ZN8VCollide6AddTriEPdS0_S0_i",
    "_ZN8VCollide9EndObjectEv",
    "_ZN8VCollide11UpdateTransEiPA4_d",
    "_ZN8VCollide14ActivateObjectEi",
    "_ZN8VCollide16DeactivateObjectEi",
    "_ZN8VCollide12ActivatePairEii",
    "_ZN8VCollide14DeactivatePairEii",
    "_ZN8VCollide12DeleteObjectEi",
    "_ZN8VCollide7CollideEP8VCReporti",
    "_ZN8VCReportC1Ev",
    "_ZN8VCReportC2Ev",
    "_ZN8VCReportD1Ev",
    "_ZN8VCReportD2Ev",
    "_ZN8VCReport11numObjPairsEv",
    "_ZN8VCReport6obj1IDEi",
    "_ZN8VCReport6obj2IDEi",
    "_ZN8VCReport11numTriPairsEi",
    "_ZN8VCReport6tri1IDEii",
    "_ZN8VCReport6tri2IDEii",
];

/// V-COLLIDE 1.x's members that differ from 2.01's (VCOLLIDE.md §7), for old object files.
const VCOLLIDE_1X_SYMBOLS: &[&str] =
    &["_ZN8VCollide6AddTriEPdS0_S0_", "_ZN8VCollide7CollideEv", "_ZN8VCollide6ReportEiP12VCReportType"];

#[test]
fn both_libraries_export_every_client_symbol_of_the_specs() {
    let mut missing = Vec::new();
    for sym in RAPID_SYMBOLS.iter().chain(PQP_SYMBOLS).chain(VCOLLIDE_SYMBOLS).chain(VCOLLIDE_1X_SYMBOLS) {
        if !defined_static().contains(*sym) {
            missing.push(format!("{sym} (librapidpqp.a)"));
        }
        if !defined_shared().contains(*sym) {
            missing.push(format!("{sym} (librapidpqp.so)"));
        }
    }
    assert!(missing.is_empty(), "not exported: {missing:?}");
}

#[test]
fn layouts_match_the_originals() {
    let mut command = cxx("c++11", 0);
    command.arg("-fsyntax-only").arg(source("layout.cpp"));
    run_ok(command, "compiling c_tests/cxx/layout.cpp (static_asserts)");
}

#[test]
fn headers_compile_alone_in_old_and_new_dialects() {
    let dir = scratch_dir();
    for header in ["RAPID.H", "PQP.h", "VCollide.H"] {
        let file = dir.join(format!("only_{}.cpp", header.replace('.', "_")));
        std::fs::write(&file, format!("#include \"{header}\"\nint main() {{ return 0; }}\n")).expect("write a probe");
        for std in ["c++98", "c++20"] {
            let mut command = cxx(std, 0);
            command.arg("-fsyntax-only").arg(&file);
            run_ok(command, &format!("compiling {header} alone as {std}"));
        }
    }
}

// ------------------------------------------------------------------------------------------
// RAPID

/// The tori of `tests/data/conformance/tori` through the legacy C API in this process.
mod legacy {
    use super::*;
    use rapidpqp::ffi::pqp as p;
    use rapidpqp::ffi::rapid as r;
    use rapidpqp::ffi::vcollide as v;

    pub fn corners(t: &rapidpqp::Triangle) -> [[f64; 3]; 3] {
        [[t[0].x, t[0].y, t[0].z], [t[1].x, t[1].y, t[1].z], [t[2].x, t[2].y, t[2].z]]
    }

    pub fn rapid_model(tris: &[rapidpqp::Triangle]) -> *mut r::RAPID_model {
        let m = r::RAPID_model_new();
        for (k, t) in tris.iter().enumerate() {
            let c = corners(t);
            // SAFETY: a live model and 3 doubles per corner.
            let rc = unsafe { r::RAPID_AddTri(m, c[0].as_ptr(), c[1].as_ptr(), c[2].as_ptr(), k as c_int) };
            assert_eq!(rc, r::RAPID_OK);
        }
        // SAFETY: a live model.
        assert_eq!(unsafe { r::RAPID_EndModel(m) }, r::RAPID_OK);
        m
    }

    /// `RAPID_CollideScaled` and the globals after it, as rapid_sample prints them.
    #[allow(clippy::too_many_arguments)]
    pub fn rapid_collide(
        m1: *mut r::RAPID_model,
        mut r1: [[f64; 3]; 3],
        mut t1: [f64; 3],
        s1: f64,
        m2: *mut r::RAPID_model,
        mut r2: [[f64; 3]; 3],
        mut t2: [f64; 3],
        s2: f64,
        flag: c_int,
    ) -> Contacts {
        // SAFETY: live models, 3x3 and 3 doubles; the globals are read right after the call,
        // and no other test of this binary uses the legacy RAPID layer.
        unsafe {
            let rc = r::RAPID_CollideScaled(
                r1.as_mut_ptr(),
                t1.as_mut_ptr(),
                s1,
                m1,
                r2.as_mut_ptr(),
                t2.as_mut_ptr(),
                s2,
                m2,
                flag,
            );
            let n = r::RAPID_num_contacts as usize;
            let contact = r::RAPID_contact;
            let pairs = (0..n).map(|k| ((*contact.add(k)).id1, (*contact.add(k)).id2)).collect();
            (rc as i64, r::RAPID_num_box_tests as i64, r::RAPID_num_tri_tests as i64, pairs)
        }
    }

    pub fn pqp_model(tris: &[rapidpqp::Triangle]) -> *mut p::PQP_Model {
        let m = p::PQP_Model_new();
        for (k, t) in tris.iter().enumerate() {
            let c = corners(t);
            // SAFETY: a live model and 3 doubles per corner.
            let rc = unsafe { p::PQP_AddTri(m, c[0].as_ptr(), c[1].as_ptr(), c[2].as_ptr(), k as c_int) };
            assert_eq!(rc, p::PQP_OK);
        }
        // SAFETY: a live model.
        assert_eq!(unsafe { p::PQP_EndModel(m) }, p::PQP_OK);
        m
    }

    pub use p::{PQP_Collide, PQP_Distance, PQP_Tolerance};
    pub use p::{PQP_CollideResult, PQP_DistanceResult, PQP_ToleranceResult};
    pub use v::{
        VCReportType, vcActivateObject, vcActivatePair, vcAddTriWithId, vcClose, vcCollide, vcCollideAll,
        vcDeactivateObject, vcDeactivatePair, vcDeleteObject, vcEndObject, vcNewObject, vcOpen, vcReport,
        vcReportTriPairs, vcUpdateTrans,
    };
}

fn identity() -> [[f64; 3]; 3] {
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
}

/// R1 of the sample client's interlocked placements: 90 degrees about x.
fn quarter_turn_x() -> [[f64; 3]; 3] {
    [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]]
}

fn tori() -> &'static Case {
    static CASE: OnceLock<Case> = OnceLock::new();
    CASE.get_or_init(|| Case::load("tori"))
}

#[test]
fn rapid_sample_client_matches_rapid_and_the_c_api() {
    let built = build_three_ways("rapid_sample");
    let lines: HashMap<String, Contacts> =
        lines_of(&built.output, "collide").into_iter().map(|w| (w[0].to_string(), contact_line(&w[1..]))).collect();
    let case = tori();
    let recorded = contact_lines(case, "rapid_all.txt");

    // Placements 0..2 are poses 0..2 of the tori case: RAPID's recorded contacts.
    for pose in 0..3 {
        let (rc, _, _, pairs) = &lines[&pose.to_string()];
        assert_eq!(*rc, recorded[pose].rc as i64, "placement {pose}: return code");
        assert_eq!(
            sorted(pairs.clone()),
            sorted(recorded[pose].pairs.clone()),
            "placement {pose}: contacts differ from RAPID's"
        );
    }
    // First contact: one of the pairs of placement 0.
    let (rc, _, _, first) = &lines["3"];
    assert_eq!((*rc, first.len()), (0, 1), "first contact of placement 0");
    assert!(recorded[0].pairs.contains(&first[0]), "first contact {:?} is not a contact", first[0]);
    // The scaled overload with s = 1 is the unscaled call.
    assert_eq!(lines["s1"], lines["0"], "RAPID_Collide(..., 1.0, ..., 1.0, ...) differs from the unscaled call");

    // Everything equals the legacy C API on the same input (same trees, same traversal).
    let m1 = legacy::rapid_model(&case.a_tris);
    let m2 = legacy::rapid_model(&case.b_tris);
    let (i, q) = (identity(), quarter_turn_x());
    // (label, R1, T1, s1, s2, flag); R2 = I, T2 = 0.
    type Call = (&'static str, [[f64; 3]; 3], [f64; 3], f64, f64, c_int);
    let calls: [Call; 6] = [
        ("0", i, [1.0, 0.0, 0.0], 1.0, 1.0, 1),
        ("1", q, [1.0, 0.0, 0.0], 1.0, 1.0, 1),
        ("2", q, [1.5999, 0.0, 0.0], 1.0, 1.0, 1),
        ("3", i, [1.0, 0.0, 0.0], 1.0, 1.0, 2),
        ("s1", i, [1.0, 0.0, 0.0], 1.0, 1.0, 1),
        ("s2", i, [1.25, 0.0, 0.0], 1.0, 1.5, 1),
    ];
    for (label, r1, t1, s1, s2, flag) in calls {
        let expected = legacy::rapid_collide(m1, r1, t1, s1, m2, identity(), [0.0; 3], s2, flag);
        assert_eq!(lines[label], expected, "placement {label}: C++ and C answers differ");
    }
    // SAFETY: live models from RAPID_model_new.
    unsafe {
        rapidpqp::ffi::rapid::RAPID_model_delete(m1);
        rapidpqp::ffi::rapid::RAPID_model_delete(m2);
    }
    assert!(!lines["s2"].3.is_empty(), "the scaled placement should collide");

    assert_uses_symbols(&built.object, "rapid_sample", RAPID_SYMBOLS, &["build_hierarchy"]);
}

// ------------------------------------------------------------------------------------------
// PQP

#[test]
fn pqp_client_matches_pqp_and_the_c_api() {
    let built = build_three_ways("pqp_client");
    let out = &built.output;
    let case = tori();
    let recorded_all = contact_lines(case, "pqp_collide_all.txt");
    let recorded_first = contact_lines(case, "pqp_collide_first.txt");
    let recorded_distance = case.lines("pqp_distance.txt");
    let recorded_tolerance = case.lines("pqp_tolerance.txt");

    let collide = lines_of(out, "collide");
    let first = lines_of(out, "first");
    let distance = lines_of(out, "distance");
    let tolerance = lines_of(out, "tolerance");
    assert_eq!((collide.len(), first.len(), distance.len(), tolerance.len()), (3, 3, 3, 3));

    // Against PQP's recorded answers.
    for pose in 0..3 {
        let (rc, _, _, pairs) = contact_line(&collide[pose][1..]);
        assert_eq!(rc, 0);
        assert_eq!(sorted(pairs.clone()), sorted(recorded_all[pose].pairs.clone()), "pose {pose}: PQP_Collide pairs");
        let (rc, _, _, one) = contact_line(&first[pose][1..]);
        assert_eq!(rc, 0);
        assert_eq!(one.len(), recorded_first[pose].pairs.len(), "pose {pose}: first contact count");
        assert!(one.iter().all(|p| pairs.contains(p)), "pose {pose}: first contact not a contact");
        let d = float(distance[pose][4]);
        let expected = recorded_distance[pose][1];
        assert!((d - expected).abs() <= 1e-12 * (1.0 + expected), "pose {pose}: distance {d} vs PQP's {expected}");
        let row = &recorded_tolerance[pose * 4 + 2];
        assert_eq!(row[1], 0.012000000000000002, "pqp_tolerance.txt layout");
        assert_eq!(int(tolerance[pose][4]), row[3] as i64, "pose {pose}: closer than 0.012");
    }

    // Against the legacy C API on the same input, in the same order (the distance warm start
    // lives in the models, so the order matters): every printed number equal.
    let m1 = legacy::pqp_model(&case.a_tris);
    let m2 = legacy::pqp_model(&case.b_tris);
    let mut r1 = identity();
    let mut r2 = identity();
    let mut t1 = [1.0, 0.0, 0.0];
    let mut t2 = [0.0; 3];
    for pose in 0..3 {
        if pose == 1 {
            r1 = quarter_turn_x();
        }
        if pose == 2 {
            t1[0] = 1.5999;
        }
        for (flag, printed) in [(1, &collide[pose]), (2, &first[pose])] {
            // SAFETY: a zeroed result is valid; live models; 3x3 and 3 doubles.
            let mut res: legacy::PQP_CollideResult = unsafe { std::mem::zeroed() };
            let rc = unsafe {
                legacy::PQP_Collide(
                    &mut res,
                    r1.as_mut_ptr(),
                    t1.as_mut_ptr(),
                    m1,
                    r2.as_mut_ptr(),
                    t2.as_mut_ptr(),
                    m2,
                    flag,
                )
            };
            let pairs: Vec<(i32, i32)> = (0..res.num_pairs as usize)
                // SAFETY: num_pairs entries.
                .map(|k| unsafe { ((*res.pairs.add(k)).id1, (*res.pairs.add(k)).id2) })
                .collect();
            let expected = (rc as i64, res.num_bv_tests as i64, res.num_tri_tests as i64, pairs);
            assert_eq!(contact_line(&printed[1..]), expected, "pose {pose} flag {flag}: C++ and C answers differ");
            // SAFETY: pairs from the C layer.
            unsafe { rapidpqp::ffi::pqp::PQP_CollideResult_FreePairsList(&mut res) };
        }
        // SAFETY: as above.
        let mut d: legacy::PQP_DistanceResult = unsafe { std::mem::zeroed() };
        let rc = unsafe {
            legacy::PQP_Distance(
                &mut d,
                r1.as_mut_ptr(),
                t1.as_mut_ptr(),
                m1,
                r2.as_mut_ptr(),
                t2.as_mut_ptr(),
                m2,
                0.0,
                0.0,
                2,
            )
        };
        let printed = &distance[pose];
        assert_eq!(
            (int(printed[1]), int(printed[2]), int(printed[3])),
            (rc as i64, d.num_bv_tests as i64, d.num_tri_tests as i64),
            "pose {pose}: distance counts"
        );
        let numbers: Vec<f64> = printed[4..].iter().map(|w| float(w)).collect();
        let expected: Vec<f64> = [d.distance].iter().chain(&d.p1).chain(&d.p2).copied().collect();
        assert_eq!(numbers, expected, "pose {pose}: distance and points");
        // SAFETY: as above.
        let mut tr: legacy::PQP_ToleranceResult = unsafe { std::mem::zeroed() };
        let rc = unsafe {
            legacy::PQP_Tolerance(
                &mut tr,
                r1.as_mut_ptr(),
                t1.as_mut_ptr(),
                m1,
                r2.as_mut_ptr(),
                t2.as_mut_ptr(),
                m2,
                0.012000000000000002,
                2,
            )
        };
        let printed = &tolerance[pose];
        assert_eq!(
            (int(printed[1]), int(printed[2]), int(printed[3]), int(printed[4]), float(printed[5])),
            (rc as i64, tr.num_bv_tests as i64, tr.num_tri_tests as i64, tr.closer_than_tolerance as i64, tr.distance),
            "pose {pose}: tolerance"
        );
    }
    // SAFETY: live models.
    unsafe {
        rapidpqp::ffi::pqp::PQP_Model_delete(m1);
        rapidpqp::ffi::pqp::PQP_Model_delete(m2);
    }

    assert_uses_symbols(&built.object, "pqp_client", PQP_SYMBOLS, &[]);
}

// ------------------------------------------------------------------------------------------
// V-COLLIDE

/// The frames of vcollide_client.cpp: per frame, per cube, its translation.
const FRAMES: [[[f64; 3]; 5]; 6] = [
    [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [4.0, 0.0, 0.0], [6.0, 0.0, 0.0], [8.0, 0.0, 0.0]],
    [[0.0, 0.0, 0.0], [0.9, 0.0, 0.0], [4.0, 0.0, 0.0], [6.0, 0.0, 0.0], [8.0, 0.0, 0.0]],
    [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.5, 0.5, 0.0], [6.0, 0.0, 0.0], [6.3, 0.2, 0.1]],
    [[0.0, 0.0, 0.0], [1.0000001, 0.0, 0.0], [1.5, 0.5, 0.0], [6.0, 0.0, 0.0], [6.3, 0.2, 0.1]],
    [[0.0, 0.0, 0.0], [0.2, 0.1, 0.0], [0.3, 0.3, 0.3], [0.1, 0.0, 0.9], [6.0, 0.0, 0.0]],
    [[0.0, 0.0, 0.0], [0.2, 0.1, 0.0], [0.3, 0.3, 0.3], [0.1, 0.0, 0.9], [6.0, 0.0, 0.0]],
];

/// The 12 triangles of the unit cube, in vcollide_client.cpp's order.
fn cube() -> Vec<[[f64; 3]; 3]> {
    let v = |k: usize| {
        let c = |bit: usize| if k & bit != 0 { 0.5 } else { -0.5 };
        [c(4), c(2), c(1)]
    };
    CUBE_QUADS.iter().flat_map(|q| [[v(q[0]), v(q[1]), v(q[2])], [v(q[0]), v(q[2]), v(q[3])]]).collect()
}

/// Which object pairs are tested in a frame (activation and deletion as in the program).
fn tested(frame: usize, a: usize, b: usize) -> bool {
    let alive = |i: usize| !(frame == 5 && i == 4);
    let active = |i: usize| !(frame == 4 && i == 3);
    let enabled = !(frame == 4 && (a, b) == (0, 2));
    alive(a) && alive(b) && active(a) && active(b) && enabled
}

#[test]
fn vcollide_client_matches_brute_force_and_the_c_api() {
    let built = build_three_ways("vcollide_client");
    let out = &built.output;
    let frames = lines_of(out, "frame");
    assert_eq!(frames.len(), 12, "two report lines per frame");

    // Brute force: equal axis-aligned unit cubes (cube 2's quarter turn about z in frame 5
    // maps the cube onto itself) have intersecting surfaces iff their centres are at most 1
    // apart on every axis (touching counts; one cannot hold another without touching).
    for (f, frame) in FRAMES.iter().enumerate() {
        let mut expected = Vec::new();
        for a in 0..5 {
            for b in a + 1..5 {
                let near = (0..3).all(|k| (frame[a][k] - frame[b][k]).abs() <= 1.0);
                if near && tested(f, a, b) {
                    expected.push(format!("{a} {b}"));
                }
            }
        }
        let line = &frames[2 * f];
        assert_eq!((int(line[0]) as usize, line[1]), (f, "first"));
        let n = int(line[2]) as usize;
        let got: Vec<String> = (0..n).map(|k| format!("{} {}", line[3 + 2 * k], line[4 + 2 * k])).collect();
        assert_eq!(got, expected, "frame {f}: colliding pairs (first contact)");
    }

    // The legacy C API on the same input: the same pairs and triangle pairs.
    // SAFETY: every call gets a live handle and valid pointers.
    unsafe {
        let h = legacy::vcOpen();
        for i in 0..5 {
            let mut id = -1;
            assert_eq!(legacy::vcNewObject(h, &mut id), 1);
            assert_eq!(id, i);
            for (t, tri) in cube().iter().enumerate() {
                assert_eq!(legacy::vcAddTriWithId(h, tri[0].as_ptr(), tri[1].as_ptr(), tri[2].as_ptr(), t as c_int), 1);
            }
            assert_eq!(legacy::vcEndObject(h), 1);
        }
        for (f, frame) in FRAMES.iter().enumerate() {
            for (i, t) in frame.iter().enumerate() {
                let mut m = [[1.0, 0.0, 0.0, t[0]], [0.0, 1.0, 0.0, t[1]], [0.0, 0.0, 1.0, t[2]], [0.0, 0.0, 0.0, 1.0]];
                if f == 5 && i == 2 {
                    m[0][0] = 0.0;
                    m[0][1] = -1.0;
                    m[1][0] = 1.0;
                    m[1][1] = 0.0;
                    m[3][0] = 99.0;
                }
                legacy::vcUpdateTrans(h, i as c_int, m.as_mut_ptr());
            }
            if f == 4 {
                legacy::vcDeactivateObject(h, 3);
                legacy::vcDeactivatePair(h, 2, 0);
            }
            if f == 5 {
                legacy::vcActivateObject(h, 3);
                legacy::vcActivatePair(h, 0, 2);
                legacy::vcDeleteObject(h, 4);
            }
            for (all, line) in [(false, &frames[2 * f]), (true, &frames[2 * f + 1])] {
                assert_eq!(if all { legacy::vcCollideAll(h) } else { legacy::vcCollide(h) }, 1);
                let n = legacy::vcReport(h, 0, std::ptr::null_mut());
                let mut pairs = vec![legacy::VCReportType::default(); n as usize];
                legacy::vcReport(h, n, pairs.as_mut_ptr());
                let mut words = vec![f.to_string(), (if all { "all" } else { "first" }).to_string(), n.to_string()];
                for (k, p) in pairs.iter().enumerate() {
                    words.push(p.id1.to_string());
                    words.push(p.id2.to_string());
                    if all {
                        let m = legacy::vcReportTriPairs(h, k as c_int, 0, std::ptr::null_mut());
                        let mut tris = vec![legacy::VCReportType::default(); m as usize];
                        legacy::vcReportTriPairs(h, k as c_int, m, tris.as_mut_ptr());
                        words.push(m.to_string());
                        for t in tris {
                            words.push(t.id1.to_string());
                            words.push(t.id2.to_string());
                        }
                    }
                }
                assert_eq!(line.join(" "), words.join(" "), "frame {f}: C++ and C reports differ");
            }
        }
        legacy::vcClose(h);
    }
    let all_contacts: BTreeSet<usize> = (0..6).filter(|f| int(frames[2 * f + 1][2]) > 0).collect();
    assert!(!all_contacts.is_empty());

    assert_uses_symbols(&built.object, "vcollide_client", VCOLLIDE_SYMBOLS, &[]);
}

/// A V-COLLIDE 1.x C++ program (its class declared as 1.x's `VCollide.H` declares it, in
/// `c_tests/cxx/vcollide1x_client.cpp`) links against rapidpqp and behaves.
#[test]
fn vcollide_1x_object_links_and_runs() {
    let built = build_three_ways("vcollide1x_client");
    let report = lines_of(&built.output, "report");
    assert_eq!(report, vec![vec!["2", "0", "1", "1", "2"], vec!["0"]], "1.x reports");
    assert_uses_symbols(&built.object, "vcollide1x_client", VCOLLIDE_1X_SYMBOLS, &[]);
}

/// Every program again under AddressSanitizer (leak detection on): the copies destroyed twice,
/// the dead pair arrays and reports, the growing contact arrays must not touch freed memory.
/// Skipped (with a note) where the compiler cannot build with `-fsanitize=address`.
#[test]
fn programs_are_clean_under_address_sanitizer() {
    let static_lib = built_library("librapidpqp.a");
    for name in ["rapid_sample", "pqp_client", "vcollide_client", "vcollide1x_client"] {
        let exe = scratch_dir().join(format!("{name}_asan"));
        let mut command = cxx("c++11", 1);
        command
            .args(ASAN_FLAGS)
            .arg(source(&format!("{name}.cpp")))
            .arg(&static_lib)
            .args(SYSTEM_LIBS)
            .arg("-o")
            .arg(&exe);
        let output = run(command, "the C++ compiler");
        if !output.status.success() {
            println!("AddressSanitizer build not available, skipped:\n{}", text(&output.stderr));
            return;
        }
        let mut command = Command::new(&exe);
        command.env("ASAN_OPTIONS", "detect_leaks=1");
        let output = run(command, &format!("{name} (AddressSanitizer)"));
        assert!(
            output.status.success(),
            "{name} under AddressSanitizer failed ({}):\n{}",
            output.status,
            report(&output)
        );
    }
}
