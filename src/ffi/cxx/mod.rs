//! The C++ ABI of the original libraries: the Itanium-mangled (x86-64 and other Itanium C++
//! ABI targets) symbols that `include/RAPID.H`, `include/PQP.h` and `include/VCollide.H`
//! declare, so that C++ programs written for RAPID 2.01, PQP 1.3 or V-COLLIDE 2.01 (and
//! their object files, without recompiling) link against rapidpqp.
//!
//! The client allocates the objects (`RAPID_model`, `PQP_Model`, `PQP_CollideResult`,
//! `VCollide`, `VCReport`) with the original sizes and calls our constructors, members and
//! destructors on them. A non-virtual member function is an ordinary function whose first
//! argument is `this`; constructors and destructors return nothing (the complete-object
//! `C1`/`D1` and base-object `C2`/`D2` variants share one body). The library's own state
//! lives behind one pointer field of each object (a registered handle), never beyond its
//! size; the other public fields are kept meaningful for programs that read them.
//!
//! Every entry point is a thin wrapper over the legacy C layers (`super::rapid`,
//! `super::pqp`, `super::vcollide`), which already guard against panics, check handles
//! against the registry and implement the originals' semantics; no C++ exception is ever
//! thrown (there is none to throw: Rust aborts on allocation failure).
//!
//! Nothing here belongs in the C header: each submodule is hidden from cbindgen.

/// cbindgen:ignore
pub mod pqp;
/// cbindgen:ignore
pub mod rapid;
/// cbindgen:ignore
pub mod vcollide;
