//! Fuzz targets, run as ordinary tests with a seeded, structure-aware generator:
//!
//! - `c_api`: sequences of calls to the C entry points (native `rpq_*` with batches,
//!   serialization, mesh files, contact geometry, deformable models, self-collision and the
//!   n-body world; legacy PQP, RAPID and V-COLLIDE) with valid, freed, foreign, wrong-kind,
//!   wild and NULL handles, NaN/infinite/huge/tiny numbers, out-of-sequence calls and absurd
//!   sizes (`capi.rs` and `capi_more.rs` list the invariants checked).
//! - `serialized_models`: mutated serializations through `model_from_bytes` and
//!   `rpq_model_deserialize` (`serialized.rs`).
//! - `obj_reader`: malformed OBJ text through `parse_obj` (`obj.rs`).
//!
//! Each target runs in a child process (this test binary again), so that a crash, an abort or
//! a hang is reported with the case that caused it instead of taking the test runner down, and
//! so that anything the library prints on stderr is seen: the child must print nothing there.
//!
//! Every case is made from `(seed, case number)` alone. Settings (environment variables):
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `RAPIDPQP_FUZZ_SEED` | the run's seed (decimal or `0x` hex) | a fixed seed |
//! | `RAPIDPQP_FUZZ_CASES` | cases per target | the target's short budget |
//! | `RAPIDPQP_FUZZ_SECONDS` | run each target this long instead (no case limit) | unset |
//! | `RAPIDPQP_FUZZ_CASE` | run only this case (to reproduce a failure) | unset |
//!
//! The child prints `fuzz <target>: seed S, N cases, T s`. A failing case is shrunk (calls,
//! triangles or bytes removed while it still fails) and reported with the command that
//! replays it. `scripts/fuzz_long.sh [minutes]` runs the targets for a set time with a fresh
//! seed.

// Oracles take a query's whole argument list, and shadows are tuples of what the C API returns.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "../common/mod.rs"]
mod common;

mod capi;
mod draw;
mod obj;
mod serialized;

use draw::Rng;

/// The seed of the ordinary suite's runs.
const DEFAULT_SEED: u64 = 0x5eed_2024_0a0b_0c0d;
const CHILD: &str = "RAPIDPQP_FUZZ_CHILD";

/// A fuzz target: inputs made from a generator, a run that panics when an invariant fails,
/// and smaller variants of an input for shrinking.
pub trait Target {
    type Input: Clone + std::fmt::Debug;
    const NAME: &'static str;
    /// Cases of the ordinary suite's run.
    const SHORT_CASES: u64;
    fn generate(rng: &mut Rng) -> Self::Input;
    fn run(input: &Self::Input);
    /// Smaller variants of `input`, most promising first.
    fn shrink(input: &Self::Input) -> Vec<Self::Input>;
    /// What the cases run so far exercised (printed with the summary).
    fn stats() -> String {
        String::new()
    }
}

/// Counters a target keeps for its summary line.
pub struct Counters<const N: usize>(pub [std::sync::atomic::AtomicU64; N]);

impl<const N: usize> Default for Counters<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Counters<N> {
    pub const fn new() -> Self {
        Counters([const { std::sync::atomic::AtomicU64::new(0) }; N])
    }
    pub fn add(&self, k: usize) {
        self.0[k].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    pub fn get(&self, k: usize) -> u64 {
        self.0[k].load(std::sync::atomic::Ordering::Relaxed)
    }
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    let parsed = match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => v.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={v} is not a number")))
}

/// The generator of case `k` of the run seeded `seed`.
pub fn case_rng(seed: u64, k: u64) -> Rng {
    Rng::new(draw::splitmix(seed ^ draw::splitmix(k.wrapping_add(0x9e37_79b9))))
}

/// Where the child records the case it is running (read by the parent after a crash).
fn progress_file(name: &str) -> std::path::PathBuf {
    common::cbuild::scratch_dir("fuzz").join(format!("{name}.case"))
}

/// Runs `T` in this process: the child's side.
fn run_here<T: Target>() {
    let seed = env_u64("RAPIDPQP_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let only = env_u64("RAPIDPQP_FUZZ_CASE");
    let seconds = std::env::var("RAPIDPQP_FUZZ_SECONDS").ok().map(|s| s.parse::<f64>().expect("RAPIDPQP_FUZZ_SECONDS"));
    let cases = env_u64("RAPIDPQP_FUZZ_CASES").unwrap_or(if seconds.is_some() { u64::MAX } else { T::SHORT_CASES });
    let deadline = seconds.map(|s| Instant::now() + Duration::from_secs_f64(s));
    let progress = std::fs::File::create(progress_file(T::NAME)).expect("progress file");
    let start = Instant::now();
    let mut k = only.unwrap_or(0);
    let end = only.map_or(cases, |c| c + 1);
    let mut done = 0u64;
    while k < end && deadline.is_none_or(|d| Instant::now() < d) {
        {
            use std::os::unix::fs::FileExt;
            progress.write_at(format!("{k:020}\n").as_bytes(), 0).expect("record progress");
        }
        let input = T::generate(&mut case_rng(seed, k));
        if catch_unwind(AssertUnwindSafe(|| T::run(&input))).is_err() {
            let small = shrink::<T>(input);
            let message = catch_unwind(AssertUnwindSafe(|| T::run(&small)))
                .err()
                .and_then(|e| e.downcast_ref::<String>().cloned().or(e.downcast_ref::<&str>().map(|s| s.to_string())))
                .unwrap_or_default();
            panic!(
                "fuzz {}: case {k} of seed {seed:#x} failed: {message}\nshrunk input: {small:#?}\nreplay: \
                 RAPIDPQP_FUZZ_SEED={seed:#x} RAPIDPQP_FUZZ_CASE={k} cargo test --release --features capi --test fuzz {} -- --nocapture",
                T::NAME,
                T::NAME
            );
        }
        k += 1;
        done += 1;
    }
    println!("fuzz {}: seed {seed:#x}, {done} cases, {:.1} s{}", T::NAME, start.elapsed().as_secs_f64(), T::stats());
}

/// Greedy shrinking: take the first smaller variant that still fails, until none does (or a
/// few thousand runs have been spent). Panics are silenced meanwhile.
fn shrink<T: Target>(mut input: T::Input) -> T::Input {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut budget = 3000;
    'outer: while budget > 0 {
        for candidate in T::shrink(&input) {
            budget -= 1;
            if catch_unwind(AssertUnwindSafe(|| T::run(&candidate))).is_err() {
                input = candidate;
                continue 'outer;
            }
            if budget == 0 {
                break;
            }
        }
        break;
    }
    std::panic::set_hook(hook);
    input
}

/// The parent's side: runs this very test in a child process, with a time limit, and checks
/// that it passed and printed nothing on stderr.
fn run_child<T: Target>(test_name: &str) {
    if std::env::var_os(CHILD).is_some() {
        return run_here::<T>();
    }
    let seconds = std::env::var("RAPIDPQP_FUZZ_SECONDS").ok().map(|s| s.parse::<f64>().expect("seconds"));
    // The ordinary budget takes seconds; a hang is a case that runs for minutes.
    let limit = Duration::from_secs_f64(seconds.unwrap_or(0.0) + 600.0);
    let exe = std::env::current_exe().expect("test binary");
    let mut child = Command::new(exe)
        .args([test_name, "--exact", "--nocapture", "--test-threads=1", "-q"])
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the fuzz child");
    // Drain both pipes on threads so that a chatty child cannot block.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).ok();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).ok();
        s
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            break Some(status);
        }
        if started.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let summary: Vec<&str> = stdout.lines().filter(|l| l.starts_with("fuzz ")).collect();
    println!("{}", summary.join("\n"));
    std::io::stdout().flush().ok();
    let case = std::fs::read_to_string(progress_file(T::NAME)).unwrap_or_default().trim().to_string();
    let seed = env_u64("RAPIDPQP_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let replay = format!(
        "RAPIDPQP_FUZZ_SEED={seed:#x} RAPIDPQP_FUZZ_CASE={} cargo test --release --features capi --test fuzz {test_name} -- --nocapture",
        case.trim_start_matches('0').parse::<u64>().unwrap_or(0)
    );
    match status {
        None => {
            panic!("fuzz {}: case {case} of seed {seed:#x} hung (killed after {limit:?}); replay: {replay}", T::NAME)
        }
        Some(s) if !s.success() => {
            panic!(
                "fuzz {}: the child failed ({s}) in case {case} of seed {seed:#x}:\n{stdout}\n{stderr}\nreplay: {replay}",
                T::NAME
            )
        }
        Some(_) => {}
    }
    assert!(stderr.is_empty(), "fuzz {}: something was printed on stderr:\n{stderr}", T::NAME);
    assert!(!summary.is_empty(), "fuzz {}: the child ran no cases:\n{stdout}", T::NAME);
}

#[test]
fn c_api() {
    run_child::<capi::CApi>("c_api");
}

#[test]
fn serialized_models() {
    run_child::<serialized::Serialized>("serialized_models");
}

#[test]
fn obj_reader() {
    run_child::<obj::Obj>("obj_reader");
}
