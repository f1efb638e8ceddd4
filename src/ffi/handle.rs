//! The one registry of every object the library hands across the C boundary (native, legacy C
//! and C++ layers alike), so that a handle is validated without ever being dereferenced.
//!
//! **Handles are tokens, not object addresses.** The registry reserves address space that is
//! never mapped (`mmap` with `PROT_NONE`), and a handle is an address inside it (the region's
//! base plus `slot * STRIDE` plus `generation * ALIGN`). No object of the program or of the library can
//! ever live at such an address, and nothing is ever read through it. The object itself is a
//! `Box` the slot points to. Checking a handle is arithmetic on its value and one atomic load
//! of its slot's state word, which holds the slot's current generation, the kind of object and
//! a live bit: a NULL, wild or foreign pointer (outside the regions, or misaligned), a freed
//! handle (its generation is no longer the slot's), and a handle of another kind (a
//! `PQP_Model *` passed as an `RpqCollideResult *`) are all refused before anything is read.
//! No lock is taken to check a handle; creating and freeing take one mutex.
//!
//! **Freed handles stay recognisable.** A freed slot waits in a first-in-first-out queue until
//! [`QUARANTINE`] other handles have been freed after it, and each reuse moves it to the next of
//! [`GENERATIONS`] generations (a different token). So a freed handle is refused until at least
//! `QUARANTINE * GENERATIONS` (262,144) handles have been freed after it; only then can its
//! token name a new object again.
//!
//! **What is not protected**: freeing an object while another thread is still using it (the
//! API contracts forbid it; a reference count would cost atomic read-modify-writes on every
//! call).
//!
//! Raw arrays the C program reads itself (the `pairs` of a C++ `PQP_CollideResult`) must be
//! real addresses; [`AddressSet`] tracks those, also without a lock on lookups.

use std::alloc::Layout;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering, fence};
use std::sync::{Mutex, MutexGuard};

/// The kinds of object the registry holds. A handle made as one kind is refused as any other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    /// `RpqModel` (native).
    RpqModel = 1,
    /// `RpqCollideResult` (native).
    RpqCollideResult = 2,
    /// `PQP_Model` (legacy C).
    PqpModel = 3,
    /// `RAPID_model` (legacy C).
    RapidModel = 4,
    /// A V-COLLIDE engine (`vcOpen`, and `VCollide::vcint`).
    VcEngine = 5,
    /// What a C++ `PQP_Model` owns.
    CxxPqpModel = 6,
    /// What a C++ `VCReport` owns.
    CxxVcReport = 7,
    /// `RpqMesh` (a loaded mesh file).
    RpqMesh = 8,
    /// `RpqWorld` (native n-body).
    RpqWorld = 9,
    /// Types of the unit tests.
    #[cfg(test)]
    TestA = 250,
    #[cfg(test)]
    TestB = 251,
}

/// A type the registry can hold, with its [`Kind`].
///
/// # Safety
/// Each implementing type has a kind of its own: the registry casts a slot's object pointer to
/// the type whose kind the slot records.
pub(crate) unsafe trait Handle: Sized + Send + 'static {
    const KIND: Kind;
}

/// Generations a slot goes through before its tokens repeat.
pub(crate) const GENERATIONS: usize = 256;
/// Alignment of a token (and the distance between two generations of one slot).
const ALIGN: usize = 16;
/// Address space per slot: one token per generation.
const STRIDE: usize = GENERATIONS * ALIGN;
/// Freed slots that wait before one of them is reused.
pub(crate) const QUARANTINE: usize = 1024;
/// Slots of the first region; region `k` has `FIRST_SLOTS << k`.
const FIRST_SLOTS: usize = 4096;
/// Regions at most: `FIRST_SLOTS * (2^MAX_REGIONS - 1)` slots in all (16M live handles at
/// least before the address space runs out).
const MAX_REGIONS: usize = 12;

const LIVE: u64 = 1;

/// A slot's state word: generation (bits 16..24), kind (bits 8..16), live bit (bit 0).
#[inline(always)]
const fn state(generation: usize, kind: u8, live: bool) -> u64 {
    ((generation as u64) << 16) | ((kind as u64) << 8) | if live { LIVE } else { 0 }
}

struct Slot {
    state: AtomicU64,
    object: AtomicPtr<()>,
}

/// One reserved stretch of address space and its slots.
struct Region {
    /// First token address (0 while the region is not reserved).
    base: AtomicUsize,
    /// `slots * STRIDE`.
    len: AtomicUsize,
    slots: AtomicPtr<Slot>,
}

#[allow(clippy::declare_interior_mutable_const)]
const NO_REGION: Region =
    Region { base: AtomicUsize::new(0), len: AtomicUsize::new(0), slots: AtomicPtr::new(ptr::null_mut()) };

static REGIONS: [Region; MAX_REGIONS] = [NO_REGION; MAX_REGIONS];
/// Regions published (their fields are set before this count covers them).
static NUM_REGIONS: AtomicUsize = AtomicUsize::new(0);

/// Slot bookkeeping, touched only to create and free handles.
struct Allocator {
    /// Global indices of freed slots, oldest first.
    free: std::collections::VecDeque<u32>,
    /// Next never-used global slot index.
    fresh: usize,
    /// Global slots reserved so far.
    capacity: usize,
}

static ALLOCATOR: Mutex<Allocator> =
    Mutex::new(Allocator { free: std::collections::VecDeque::new(), fresh: 0, capacity: 0 });

fn allocator() -> MutexGuard<'static, Allocator> {
    // A panic never happens while the allocator is borrowed, but a poisoned lock is harmless:
    // every update leaves it consistent.
    ALLOCATOR.lock().unwrap_or_else(|e| e.into_inner())
}

/// Region `k`'s first global slot index.
const fn region_start(k: usize) -> usize {
    FIRST_SLOTS * ((1 << k) - 1)
}

/// The region holding global slot `g`, and the slot's index in it.
fn region_of(g: usize) -> (usize, usize) {
    let k = (usize::BITS - 1 - (g / FIRST_SLOTS + 1).leading_zeros()) as usize;
    (k, g - region_start(k))
}

/// Reserves the next region: address space nobody can use, and its zeroed slots. False when
/// the system refuses (out of address space or memory) or every region is taken.
fn grow(alloc: &mut Allocator) -> bool {
    let k = NUM_REGIONS.load(Ordering::Relaxed);
    if k == MAX_REGIONS {
        return false;
    }
    let slots = FIRST_SLOTS << k;
    let Some(len) = slots.checked_mul(STRIDE) else {
        return false;
    };
    let Ok(layout) = Layout::array::<Slot>(slots) else {
        return false;
    };
    // SAFETY: an anonymous private mapping with no access rights: it only reserves addresses.
    let base = unsafe {
        libc::mmap(
            ptr::null_mut(),
            len,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED || base.is_null() {
        return false;
    }
    // SAFETY: the layout has a non-zero size; all-zero bytes are valid `Slot`s (state 0: not
    // live, generation 0; NULL object).
    let table = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Slot>();
    if table.is_null() {
        // SAFETY: the mapping made just above, never published.
        unsafe { libc::munmap(base, len) };
        return false;
    }
    let region = &REGIONS[k];
    region.slots.store(table, Ordering::Relaxed);
    region.len.store(len, Ordering::Relaxed);
    region.base.store(base as usize, Ordering::Relaxed);
    NUM_REGIONS.store(k + 1, Ordering::Release);
    alloc.capacity += slots;
    true
}

/// The slot a token names and the generation it carries; `None` for an address outside every
/// region or not on a token boundary.
#[inline(always)]
fn decode(token: usize) -> Option<(&'static Slot, usize)> {
    let regions = NUM_REGIONS.load(Ordering::Acquire);
    for region in &REGIONS[..regions] {
        let offset = token.wrapping_sub(region.base.load(Ordering::Relaxed));
        if offset < region.len.load(Ordering::Relaxed) {
            if offset % ALIGN != 0 {
                return None;
            }
            let slots = region.slots.load(Ordering::Relaxed);
            // SAFETY: offset < len = slots * STRIDE, so the index is within the region's table,
            // which is never freed.
            let slot = unsafe { &*slots.add(offset / STRIDE) };
            return Some((slot, (offset % STRIDE) / ALIGN));
        }
    }
    None
}

/// The slot of global index `g` (which must be below the capacity) and its first token.
fn slot_at(g: usize) -> (&'static Slot, usize) {
    let (k, i) = region_of(g);
    let region = &REGIONS[k];
    // SAFETY: g < capacity, so region k is published and i is within its table.
    let slot = unsafe { &*region.slots.load(Ordering::Relaxed).add(i) };
    (slot, region.base.load(Ordering::Relaxed) + i * STRIDE)
}

/// Moves `value` into a new object and returns its handle; `None` when memory or address
/// space is exhausted (nothing is leaked).
pub(crate) fn create<T: Handle>(value: T) -> Option<*mut T> {
    let object = try_box(value)?;
    let mut alloc = allocator();
    let g = if alloc.free.len() > QUARANTINE {
        alloc.free.pop_front().map(|g| g as usize)
    } else if alloc.fresh < alloc.capacity || grow(&mut alloc) {
        alloc.fresh += 1;
        Some(alloc.fresh - 1)
    } else {
        alloc.free.pop_front().map(|g| g as usize)
    };
    let Some(g) = g else {
        drop(alloc);
        // SAFETY: made by try_box just above and not published.
        drop(unsafe { Box::from_raw(object.as_ptr()) });
        return None;
    };
    let (slot, first_token) = slot_at(g);
    let generation = (slot.state.load(Ordering::Relaxed) >> 16) as usize % GENERATIONS;
    slot.object.store(object.as_ptr().cast(), Ordering::Relaxed);
    slot.state.store(state(generation, T::KIND as u8, true), Ordering::Release);
    Some((first_token + generation * ALIGN) as *mut T)
}

/// The object behind a live handle of kind `T`; `None` for NULL, a wild or foreign pointer,
/// a freed handle or a handle of another kind. Nothing is read through `handle`.
#[inline(always)]
pub(crate) fn get<T: Handle>(handle: *const T) -> Option<NonNull<T>> {
    let (slot, generation) = decode(handle as usize)?;
    if slot.state.load(Ordering::Acquire) != state(generation, T::KIND as u8, true) {
        return None;
    }
    NonNull::new(slot.object.load(Ordering::Relaxed).cast())
}

/// Ends a live handle of kind `T` and gives its object back (to drop, or to keep); `None` when
/// the handle is not live as a `T` (NULL, freed before, foreign or of another kind): then
/// nothing happens. The slot is recycled after [`QUARANTINE`] more frees.
pub(crate) fn take<T: Handle>(handle: *mut T) -> Option<Box<T>> {
    let (slot, generation) = decode(handle as usize)?;
    let mut alloc = allocator();
    let live = state(generation, T::KIND as u8, true);
    let dead = state((generation + 1) % GENERATIONS, 0, false);
    if slot.state.compare_exchange(live, dead, Ordering::AcqRel, Ordering::Relaxed).is_err() {
        return None;
    }
    let object = slot.object.swap(ptr::null_mut(), Ordering::Relaxed).cast::<T>();
    let g = global_index(slot);
    alloc.free.push_back(g as u32);
    drop(alloc);
    // SAFETY: the slot was live as a T, so `object` came from try_box::<T> in `create`, and the
    // state exchange above made this the only taker.
    NonNull::new(object).map(|p| unsafe { Box::from_raw(p.as_ptr()) })
}

/// Frees a handle's object (see [`take`]); false when nothing was freed.
pub(crate) fn destroy<T: Handle>(handle: *mut T) -> bool {
    take(handle).is_some()
}

/// The global index of a slot (for the free queue).
fn global_index(slot: &Slot) -> usize {
    let address = slot as *const Slot as usize;
    let regions = NUM_REGIONS.load(Ordering::Acquire);
    for (k, region) in REGIONS[..regions].iter().enumerate() {
        let table = region.slots.load(Ordering::Relaxed) as usize;
        let offset = address.wrapping_sub(table);
        if offset < (FIRST_SLOTS << k) * std::mem::size_of::<Slot>() {
            return region_start(k) + offset / std::mem::size_of::<Slot>();
        }
    }
    unreachable!("a slot of the registry")
}

/// `Box::new` that reports allocation failure instead of aborting.
fn try_box<T>(value: T) -> Option<NonNull<T>> {
    let layout = Layout::new::<T>();
    if layout.size() == 0 {
        return NonNull::new(Box::into_raw(Box::new(value)));
    }
    // SAFETY: a non-zero size.
    let raw = NonNull::new(unsafe { std::alloc::alloc(layout) }.cast::<T>())?;
    // SAFETY: fresh memory with T's layout; Box::from_raw later frees it with the same layout.
    unsafe { raw.as_ptr().write(value) };
    Some(raw)
}

// ------------------------------------------------------------------------------------------
// Raw addresses

/// A set of raw addresses (arrays the program reads itself) with lock-free lookups: an open
/// addressing table read under a sequence lock (a reader retries when a writer was active),
/// written under a mutex. Tables that grow out of use are kept, not freed, so that a reader
/// never touches freed memory; they at most double the memory of the largest table.
pub(crate) struct AddressSet {
    seq: AtomicUsize,
    table: AtomicPtr<Table>,
    /// The address inserted last, while it is in the set (0 otherwise): the one a program
    /// reusing one result asks about, answered without probing.
    last: AtomicUsize,
    writer: Mutex<Writer>,
}

struct Table {
    keys: Box<[AtomicUsize]>,
}

#[derive(Default)]
struct Writer {
    live: usize,
    /// Non-empty buckets: live and deleted.
    used: usize,
    /// Tables replaced by a larger one (still readable by a reader that loaded them earlier).
    /// Boxed: each is the address readers were given.
    #[allow(clippy::vec_box)]
    retired: Vec<Box<Table>>,
}

const EMPTY: usize = 0;
const DELETED: usize = 1;

impl Table {
    fn with_capacity(n: usize) -> Option<Box<Table>> {
        let mut keys = Vec::new();
        keys.try_reserve_exact(n).ok()?;
        keys.extend((0..n).map(|_| AtomicUsize::new(EMPTY)));
        Some(Box::new(Table { keys: keys.into_boxed_slice() }))
    }

    #[inline]
    fn start(&self, address: usize) -> usize {
        // Fibonacci hashing of the address (its low bits are alignment).
        (address.wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as usize) >> 16) & (self.keys.len() - 1)
    }

    /// Linear probing, bounded by the table size (a torn read during a write can then neither
    /// loop nor fail: the sequence check discards it).
    #[inline]
    fn contains(&self, address: usize) -> bool {
        let mask = self.keys.len() - 1;
        let mut i = self.start(address);
        for _ in 0..self.keys.len() {
            match self.keys[i].load(Ordering::Relaxed) {
                EMPTY => return false,
                k if k == address => return true,
                _ => i = (i + 1) & mask,
            }
        }
        false
    }
}

impl AddressSet {
    pub(crate) const fn new() -> AddressSet {
        AddressSet {
            seq: AtomicUsize::new(0),
            table: AtomicPtr::new(ptr::null_mut()),
            last: AtomicUsize::new(0),
            writer: Mutex::new(Writer { live: 0, used: 0, retired: Vec::new() }),
        }
    }

    /// True when `address` is in the set. Never blocks on a lock; retries while a writer is
    /// between its two sequence updates.
    #[inline]
    pub(crate) fn contains(&self, address: usize) -> bool {
        if address <= DELETED {
            return false;
        }
        loop {
            let before = self.seq.load(Ordering::Acquire);
            if before & 1 == 0 {
                let found = self.last.load(Ordering::Relaxed) == address || {
                    let table = self.table.load(Ordering::Acquire);
                    // SAFETY: a published table is never freed (replaced tables are retired).
                    unsafe { table.as_ref() }.is_some_and(|t| t.contains(address))
                };
                fence(Ordering::Acquire);
                if self.seq.load(Ordering::Relaxed) == before {
                    return found;
                }
            }
            std::hint::spin_loop();
        }
    }

    fn write<R>(&self, f: impl FnOnce(&mut Writer, &AtomicPtr<Table>, &AtomicUsize) -> R) -> R {
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let s = self.seq.load(Ordering::Relaxed);
        self.seq.store(s + 1, Ordering::Relaxed);
        fence(Ordering::Release);
        let r = f(&mut writer, &self.table, &self.last);
        self.seq.store(s + 2, Ordering::Release);
        r
    }

    /// Adds an address (non-NULL); false when out of memory (nothing changed).
    pub(crate) fn insert(&self, address: usize) -> bool {
        if address <= DELETED {
            return false;
        }
        self.write(|w, table, last| {
            // SAFETY: the writer lock is held; published tables are never freed.
            let current = unsafe { table.load(Ordering::Relaxed).as_ref() };
            if current.is_some_and(|t| t.contains(address)) {
                return true;
            }
            let capacity = current.map_or(0, |t| t.keys.len());
            if 2 * (w.used + 1) > capacity {
                // Rebuild: twice the live count's room, at least 64 buckets, dropping deletions.
                let size = (4 * (w.live + 1)).next_power_of_two().max(64);
                let Some(new) = Table::with_capacity(size) else {
                    return false;
                };
                if w.retired.try_reserve(1).is_err() {
                    return false;
                }
                if let Some(old) = current {
                    for key in old.keys.iter().map(|k| k.load(Ordering::Relaxed)).filter(|&k| k > DELETED) {
                        place(&new, key);
                    }
                }
                let old = table.swap(Box::into_raw(new), Ordering::Release);
                if !old.is_null() {
                    // SAFETY: made by Box::into_raw here; kept alive for late readers.
                    w.retired.push(unsafe { Box::from_raw(old) });
                }
                w.used = w.live;
            }
            // SAFETY: as above; a table is published now.
            let t = unsafe { &*table.load(Ordering::Relaxed) };
            if place(t, address) {
                w.used += 1;
            }
            w.live += 1;
            last.store(address, Ordering::Relaxed);
            true
        })
    }

    /// Removes an address; false when it was not in the set.
    pub(crate) fn remove(&self, address: usize) -> bool {
        if address <= DELETED {
            return false;
        }
        self.write(|w, table, last| {
            if last.load(Ordering::Relaxed) == address {
                last.store(0, Ordering::Relaxed);
            }
            // SAFETY: the writer lock is held; published tables are never freed.
            let Some(t) = (unsafe { table.load(Ordering::Relaxed).as_ref() }) else {
                return false;
            };
            let mask = t.keys.len() - 1;
            let mut i = t.start(address);
            for _ in 0..t.keys.len() {
                match t.keys[i].load(Ordering::Relaxed) {
                    EMPTY => return false,
                    k if k == address => {
                        t.keys[i].store(DELETED, Ordering::Relaxed);
                        w.live -= 1;
                        return true;
                    }
                    _ => i = (i + 1) & mask,
                }
            }
            false
        })
    }
}

/// Puts `address` in the first empty or deleted bucket of its probe sequence; true when that
/// bucket was empty (one more bucket in use). The table has room (the caller keeps it at most
/// half used).
fn place(t: &Table, address: usize) -> bool {
    let mask = t.keys.len() - 1;
    let mut i = t.start(address);
    loop {
        let k = t.keys[i].load(Ordering::Relaxed);
        if k == EMPTY || k == DELETED {
            t.keys[i].store(address, Ordering::Relaxed);
            return k == EMPTY;
        }
        i = (i + 1) & mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct A(u64);
    struct B(#[allow(dead_code)] u64);
    // SAFETY: distinct kinds, for the tests only.
    unsafe impl Handle for A {
        const KIND: Kind = Kind::TestA;
    }
    // SAFETY: as above.
    unsafe impl Handle for B {
        const KIND: Kind = Kind::TestB;
    }

    #[test]
    fn handles_are_checked_by_kind_liveness_and_address() {
        let a = create(A(7)).unwrap();
        let b = create(B(8)).unwrap();
        // SAFETY: a live handle of kind A.
        assert_eq!(unsafe { get(a).unwrap().as_ref() }.0, 7);
        assert!(get(a.cast::<B>()).is_none(), "wrong kind");
        assert!(get(b.cast::<A>()).is_none(), "wrong kind");
        assert!(get::<A>(ptr::null()).is_none());
        let local = 5u64;
        assert!(get((&local as *const u64).cast::<A>()).is_none(), "a foreign address");
        assert!(get((a as usize + 8) as *const A).is_none(), "misaligned");
        assert!(get((a as usize + STRIDE) as *const A).is_none(), "another slot");
        assert!(get(usize::MAX as *const A).is_none());
        assert!(!destroy(a.cast::<B>()), "wrong kind is not freed");
        assert!(destroy(a));
        assert!(get(a).is_none(), "freed");
        assert!(!destroy(a), "double free is ignored");
        assert!(destroy(b));
    }

    #[test]
    fn freed_handles_stay_dead_through_the_quarantine() {
        let first = create(A(1)).unwrap();
        assert!(destroy(first));
        // Many create/free cycles: the freed token must not come back to life.
        for k in 0..3 * QUARANTINE {
            let h = create(A(k as u64)).unwrap();
            assert_ne!(h, first);
            assert!(get(first).is_none());
            assert!(destroy(h));
        }
        // Many live at once: spills into later regions.
        let many: Vec<*mut A> = (0..3 * FIRST_SLOTS).map(|k| create(A(k as u64)).unwrap()).collect();
        for (k, &h) in many.iter().enumerate() {
            // SAFETY: live handles.
            assert_eq!(unsafe { get(h).unwrap().as_ref() }.0, k as u64);
        }
        for h in many {
            assert!(destroy(h));
        }
    }

    #[test]
    fn handles_made_and_freed_on_many_threads() {
        let stable: Vec<usize> = (0..64).map(|k| create(A(k)).unwrap() as usize).collect();
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let stable = &stable;
                scope.spawn(move || {
                    for round in 0..2000u64 {
                        let h = create(A(1000 * t + round)).unwrap();
                        // SAFETY: this thread's own live handle.
                        assert_eq!(unsafe { get(h).unwrap().as_ref() }.0, 1000 * t + round);
                        for (k, &s) in stable.iter().enumerate().skip((round % 8) as usize).step_by(8) {
                            // SAFETY: live for the whole test.
                            assert_eq!(unsafe { get(s as *const A).unwrap().as_ref() }.0, k as u64);
                        }
                        assert!(destroy(h));
                        assert!(get(h).is_none() && !destroy(h));
                    }
                });
            }
        });
        for h in stable {
            assert!(destroy(h as *mut A));
        }
    }

    #[test]
    fn address_set_readers_see_members_while_writers_churn() {
        static SET: AddressSet = AddressSet::new();
        let members: Vec<usize> = (1..200).map(|k| k << 12).collect();
        for &a in &members {
            assert!(SET.insert(a));
        }
        let stop = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            for _ in 0..3 {
                scope.spawn(|| {
                    while !stop.load(Ordering::Relaxed) {
                        for &a in &members {
                            assert!(SET.contains(a), "a member was missed");
                            assert!(!SET.contains(a + 8), "a never-inserted address was found");
                        }
                    }
                });
            }
            // Churn: inserts and removals of other addresses, through several rebuilds.
            for round in 0..20000usize {
                let a = (1 << 40) | (round << 4);
                assert!(SET.insert(a));
                if round % 3 != 0 {
                    assert!(SET.remove(a));
                }
            }
            stop.store(true, Ordering::Relaxed);
        });
    }

    #[test]
    fn region_arithmetic() {
        assert_eq!(region_of(0), (0, 0));
        assert_eq!(region_of(FIRST_SLOTS - 1), (0, FIRST_SLOTS - 1));
        assert_eq!(region_of(FIRST_SLOTS), (1, 0));
        assert_eq!(region_of(3 * FIRST_SLOTS - 1), (1, 2 * FIRST_SLOTS - 1));
        assert_eq!(region_of(3 * FIRST_SLOTS), (2, 0));
    }

    #[test]
    fn address_set() {
        static SET: AddressSet = AddressSet::new();
        let addresses: Vec<usize> = (1..2000).map(|k| k * 64).collect();
        assert!(!SET.contains(64));
        for &a in &addresses {
            assert!(SET.insert(a));
        }
        assert!(addresses.iter().all(|&a| SET.contains(a)));
        assert!(!SET.contains(8) && !SET.contains(0) && !SET.contains(1));
        for &a in addresses.iter().step_by(2) {
            assert!(SET.remove(a));
            assert!(!SET.remove(a));
        }
        for (k, &a) in addresses.iter().enumerate() {
            assert_eq!(SET.contains(a), k % 2 == 1);
        }
        // Churn: deletions are reclaimed by rebuilds.
        for round in 0..50 {
            let a = (1 << 40) | (round * 64);
            assert!(SET.insert(a) && SET.contains(a) && SET.remove(a));
        }
    }
}
