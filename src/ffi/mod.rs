//! The C boundary. Every exported symbol lives below this module; the geometry core above
//! it is safe Rust.
//!
//! Each exported body runs inside `guard`, which turns a Rust panic into an error status,
//! so no panic ever unwinds into the host program.

pub mod batch;
pub(crate) mod clock;
pub mod contact;
pub mod cxx;
pub(crate) mod handle;
pub mod mesh;
pub mod native;
pub mod pose;
pub mod pqp;
pub mod rapid;
pub mod refit;
pub mod serialize;
pub mod solid;
pub mod sweep;
pub mod vcollide;
pub mod version;
pub mod world;

use std::cell::{Cell, UnsafeCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::math::Placement;
pub(crate) use pose::PoseError;

thread_local! {
    /// How many library entry points are running on this thread (the C++ layer calls the C
    /// layer's, so they nest).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Runs `body`, returning `on_panic` instead if it panics. The panic is silent (see
/// [`quiet_panics`]): the library never prints.
#[inline(always)]
pub(crate) fn guard<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    quiet_panics();
    let depth = DEPTH.with(|d| d.replace(d.get().wrapping_add(1)));
    let result = catch_unwind(AssertUnwindSafe(body));
    DEPTH.with(|d| d.set(depth));
    result.unwrap_or(on_panic)
}

/// Silences panics raised inside the library, once per process.
///
/// Rust reports a panic through the process's panic hook before unwinding, and the default
/// hook prints the message (and maybe a backtrace) to stderr. The first call into the library
/// installs a hook that stays silent while the panicking thread is inside a library entry point
/// (a thread-local depth counter that [`guard`] maintains) and otherwise calls the hook that was
/// installed before, so a Rust host keeps its own reporting for its own panics. If a Rust host
/// replaces the hook after that first call, library panics are reported by the host's hook
/// (still caught and turned into error codes); as a `cdylib` loaded by a C or Python program,
/// the library's hook is its own and nothing else is affected.
#[inline(always)]
fn quiet_panics() {
    static INSTALLED: Once = Once::new();
    if !INSTALLED.is_completed() {
        // Installing a hook from a thread that is already panicking would itself panic.
        if !std::thread::panicking() {
            INSTALLED.call_once(|| {
                let previous = std::panic::take_hook();
                std::panic::set_hook(Box::new(move |info| {
                    if DEPTH.with(Cell::get) == 0 {
                        previous(info);
                    }
                }));
            });
        }
    }
}

/// Reads `n` doubles from a C array into a fixed array.
///
/// # Safety
/// `ptr` points to at least `N` readable doubles.
pub(crate) unsafe fn read_array<const N: usize>(ptr: *const f64) -> [f64; N] {
    let mut out = [0.0; N];
    // SAFETY: the caller guarantees N readable doubles.
    out.copy_from_slice(unsafe { std::slice::from_raw_parts(ptr, N) });
    out
}

pub(crate) use crate::pose::all_finite;

/// A legacy pose argument, checked: a row-major rotation `R[3][3]`, a translation `T[3]` and
/// a scale. Every number must be finite, the scale within [`pose::RPQ_MIN_SCALE`],
/// [`pose::RPQ_MAX_SCALE`], and `R` a rotation or reflection within
/// [`pose::LEGACY_ROTATION_TOLERANCE`] (see [`pose`] for why).
///
/// # Safety
/// `r` points to 9 readable doubles and `t` to 3.
#[inline(always)]
pub(crate) unsafe fn read_legacy_pose(r: *const [f64; 3], t: *const f64, scale: f64) -> Result<Placement, PoseError> {
    // SAFETY: per the contract (C arrays of doubles are aligned for f64).
    let (r, t) = unsafe { (r.cast::<[f64; 9]>().read(), t.cast::<[f64; 3]>().read()) };
    pose::placement(&r, &t, scale, pose::LEGACY_ROTATION_TOLERANCE, true)
}

/// Shared state a legacy call borrows for its duration (scratch buffers kept between calls,
/// RAPID's result arrays): one atomic exchange to take, one store to give back, no lock.
pub(crate) struct Exclusive<T> {
    busy: AtomicBool,
    value: UnsafeCell<Option<T>>,
}

// SAFETY: the value is only reached by the one caller that set `busy` (see `try_with`).
unsafe impl<T: Send> Sync for Exclusive<T> {}

impl<T> Exclusive<T> {
    pub(crate) const fn new() -> Exclusive<T> {
        Exclusive { busy: AtomicBool::new(false), value: UnsafeCell::new(None) }
    }

    /// Runs `f` on the value (made by `init` the first time); `None` without running `f` when
    /// another call holds it (a second thread, in spite of the legacy layers' contract).
    #[inline(always)]
    pub(crate) fn try_with<R>(&self, init: impl FnOnce() -> T, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        if self.busy.swap(true, Ordering::Acquire) {
            return None;
        }
        /// Gives the value back even if `f` panics.
        struct Release<'a>(&'a AtomicBool);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Release);
            }
        }
        let _release = Release(&self.busy);
        // SAFETY: `busy` was false and is now ours: no other reference to the value exists
        // until `_release` clears it.
        let value = unsafe { &mut *self.value.get() };
        Some(f(value.get_or_insert_with(init)))
    }

    /// [`Self::try_with`], waiting while another call holds the value.
    pub(crate) fn with<R>(&self, mut init: impl FnMut() -> T, mut f: impl FnMut(&mut T) -> R) -> R {
        loop {
            if let Some(r) = self.try_with(&mut init, &mut f) {
                return r;
            }
            std::thread::yield_now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHILD: &str = "RAPIDPQP_PANIC_CHILD";

    /// Runs in a child process (see `library_panics_are_silent_and_host_panics_are_not`): a
    /// host hook is installed first, then a panic inside [`guard`] must reach neither it nor
    /// stderr, while a panic outside the library still reaches the host's hook.
    #[test]
    fn panic_child() {
        if std::env::var_os(CHILD).is_none() {
            return;
        }
        std::panic::set_hook(Box::new(|info| {
            let what = info.payload().downcast_ref::<&str>().copied().unwrap_or("?");
            eprintln!("host hook saw: {what}");
        }));
        assert_eq!(guard(7, || -> i32 { panic!("boom-inside") }), 7);
        assert_eq!(guard(1, || guard(2, || -> i32 { panic!("boom-nested") }) + 10), 12);
        assert!(std::panic::catch_unwind(|| panic!("boom-outside")).is_err());
        assert_eq!(guard(3, || -> i32 { panic!("boom-again") }), 3);
        println!("child done");
    }

    #[test]
    fn finite_values_are_told_from_nan_and_infinities() {
        let finite = [0.0, -0.0, 1.0, -1e308, f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5e-324, -5e-324];
        assert!(all_finite(&finite) && all_finite(&[]));
        for bad in [f64::NAN, -f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::from_bits(0x7ff0_0000_0000_0001)] {
            for k in 0..=finite.len() {
                let mut v = finite.to_vec();
                v.insert(k, bad);
                assert!(!all_finite(&v), "{v:?}");
            }
        }
    }

    #[test]
    fn library_panics_are_silent_and_host_panics_are_not() {
        let exe = std::env::current_exe().expect("test binary");
        let output = std::process::Command::new(exe)
            .args(["ffi::tests::panic_child", "--exact", "--nocapture", "--test-threads=1"])
            .env(CHILD, "1")
            .env("RUST_BACKTRACE", "1")
            .output()
            .expect("run the child");
        let (stdout, stderr) =
            (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr));
        assert!(output.status.success() && stdout.contains("child done"), "child failed:\n{stdout}\n{stderr}");
        assert!(!stderr.contains("boom-inside") && !stderr.contains("boom-nested"), "library panic printed:\n{stderr}");
        assert!(!stderr.contains("boom-again") && !stdout.contains("boom-"), "library panic printed:\n{stderr}");
        assert!(stderr.contains("host hook saw: boom-outside"), "the host's hook was lost:\n{stderr}");
    }
}
