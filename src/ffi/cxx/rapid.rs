//! `RAPID.H`'s C++ symbols: `RAPID_model`'s constructor, destructor and members, and the
//! two `RAPID_Collide` overloads, over the legacy RAPID C layer ([`crate::ffi::rapid`]).
//! The four globals are that layer's (a C++ global variable's symbol is its plain name).
//!
//! `RAPID_model::b` holds the handle of a C-layer model (`RAPID_model_new`); `tris` stays
//! NULL; `num_tris`, `num_tris_alloced`, `num_boxes_alloced` and `build_state` mirror what
//! RAPID would hold. The C layer decides every return code and keeps the real state; the
//! mirrors are updated from its answers. A copy made by the implicit copy constructor shares
//! the handle: destroying both is harmless (the registry ignores the second delete).
#![allow(non_snake_case)]

use std::ffi::c_int;
use std::ptr;

use crate::ffi::guard;
use crate::ffi::rapid::{
    self as c, RAPID_BUILD_STATE_BEGIN, RAPID_BUILD_STATE_CONST, RAPID_BUILD_STATE_PROCESSED,
    RAPID_ERR_BUILD_OUT_OF_SEQUENCE, RAPID_ERR_INTERNAL, RAPID_ERR_NULL_POINTER, RAPID_OK,
};

/// `class RAPID_model` as laid out by RAPID.H (40 bytes, RAPID.md §4).
#[repr(C)]
pub struct RapidModelAbi {
    /// `box *b`: here the C-layer model handle.
    pub b: *mut c::RAPID_model,
    pub num_boxes_alloced: c_int,
    /// `tri *tris`: NULL.
    pub tris: *mut u8,
    pub num_tris: c_int,
    pub num_tris_alloced: c_int,
    pub build_state: c_int,
}

const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(size_of::<RapidModelAbi>() == 40 && align_of::<RapidModelAbi>() == 8);
    assert!(offset_of!(RapidModelAbi, b) == 0);
    assert!(offset_of!(RapidModelAbi, num_boxes_alloced) == 8);
    assert!(offset_of!(RapidModelAbi, tris) == 16);
    assert!(offset_of!(RapidModelAbi, num_tris) == 24);
    assert!(offset_of!(RapidModelAbi, num_tris_alloced) == 28);
    assert!(offset_of!(RapidModelAbi, build_state) == 32);
    assert!(size_of::<c::collision_pair>() == 8);
};

/// Fills a freshly constructed (or destroyed) object's fields.
fn reset(m: &mut RapidModelAbi, handle: *mut c::RAPID_model) {
    *m = RapidModelAbi {
        b: handle,
        num_boxes_alloced: 0,
        tris: ptr::null_mut(),
        num_tris: 0,
        num_tris_alloced: 0,
        build_state: RAPID_BUILD_STATE_CONST,
    };
}

/// `RAPID_model::RAPID_model()`: a new, empty model.
///
/// # Safety
/// `this` is NULL or points to 40 writable bytes (a `RAPID_model` being constructed).
#[unsafe(export_name = "_ZN11RAPID_modelC1Ev")]
pub unsafe extern "C" fn rapid_model_construct(this: *mut RapidModelAbi) {
    guard((), || {
        // SAFETY: per the contract; the old contents are not read.
        if let Some(m) = unsafe { this.as_mut() } {
            reset(m, c::RAPID_model_new());
        }
    })
}

/// `RAPID_model::RAPID_model()`, base-object variant.
///
/// # Safety
/// As [`rapid_model_construct`].
#[unsafe(export_name = "_ZN11RAPID_modelC2Ev")]
pub unsafe extern "C" fn rapid_model_construct_base(this: *mut RapidModelAbi) {
    // SAFETY: forwarded contract.
    unsafe { rapid_model_construct(this) }
}

/// `RAPID_model::~RAPID_model()`: deletes the model (a handle already deleted through a
/// copy is ignored) and clears the fields.
///
/// # Safety
/// `this` is NULL or a constructed `RAPID_model`.
#[unsafe(export_name = "_ZN11RAPID_modelD1Ev")]
pub unsafe extern "C" fn rapid_model_destroy(this: *mut RapidModelAbi) {
    guard((), || {
        // SAFETY: per the contract.
        if let Some(m) = unsafe { this.as_mut() } {
            // SAFETY: `b` is NULL or a handle from RAPID_model_new (the C layer ignores one
            // that is no longer live).
            unsafe { c::RAPID_model_delete(m.b) };
            reset(m, ptr::null_mut());
        }
    })
}

/// `RAPID_model::~RAPID_model()`, base-object variant.
///
/// # Safety
/// As [`rapid_model_destroy`].
#[unsafe(export_name = "_ZN11RAPID_modelD2Ev")]
pub unsafe extern "C" fn rapid_model_destroy_base(this: *mut RapidModelAbi) {
    // SAFETY: forwarded contract.
    unsafe { rapid_model_destroy(this) }
}

/// `int RAPID_model::BeginModel()`: discards the triangles; 4 when already begun (the
/// model is restarted all the same), as RAPID.
///
/// # Safety
/// `this` is NULL or a constructed `RAPID_model`.
#[unsafe(export_name = "_ZN11RAPID_model10BeginModelEv")]
pub unsafe extern "C" fn rapid_model_begin(this: *mut RapidModelAbi) -> c_int {
    guard(RAPID_ERR_INTERNAL, || {
        // SAFETY: per the contract.
        let Some(m) = (unsafe { this.as_mut() }) else {
            return RAPID_ERR_NULL_POINTER;
        };
        // SAFETY: `b` is NULL or a handle from RAPID_model_new, checked by the C layer.
        let code = unsafe { c::RAPID_BeginModel(m.b) };
        if code == RAPID_OK || code == RAPID_ERR_BUILD_OUT_OF_SEQUENCE {
            m.num_boxes_alloced = 0;
            m.num_tris = 0;
            m.num_tris_alloced = 0;
            m.build_state = RAPID_BUILD_STATE_BEGIN;
        }
        code
    })
}

/// `int RAPID_model::AddTri(const double *p1, const double *p2, const double *p3, int id)`.
///
/// # Safety
/// `this` is NULL or a constructed `RAPID_model`; each point is NULL or 3 readable doubles.
#[unsafe(export_name = "_ZN11RAPID_model6AddTriEPKdS1_S1_i")]
pub unsafe extern "C" fn rapid_model_add_tri(
    this: *mut RapidModelAbi,
    p1: *const f64,
    p2: *const f64,
    p3: *const f64,
    id: c_int,
) -> c_int {
    guard(RAPID_ERR_INTERNAL, || {
        // SAFETY: per the contract.
        let Some(m) = (unsafe { this.as_mut() }) else {
            return RAPID_ERR_NULL_POINTER;
        };
        // SAFETY: forwarded contract.
        let code = unsafe { c::RAPID_AddTri(m.b, p1, p2, p3, id) };
        if code == RAPID_OK {
            m.num_tris = m.num_tris.saturating_add(1);
            // RAPID's storage grows by doubling: 1, 2, 4, ...
            while m.num_tris_alloced < m.num_tris {
                m.num_tris_alloced = m.num_tris_alloced.saturating_mul(2).max(1);
            }
        }
        code
    })
}

/// `int RAPID_model::EndModel()`: builds the hierarchy (again, if already built); 5 with no
/// triangles.
///
/// # Safety
/// `this` is NULL or a constructed `RAPID_model`.
#[unsafe(export_name = "_ZN11RAPID_model8EndModelEv")]
pub unsafe extern "C" fn rapid_model_end(this: *mut RapidModelAbi) -> c_int {
    guard(RAPID_ERR_INTERNAL, || {
        // SAFETY: per the contract.
        let Some(m) = (unsafe { this.as_mut() }) else {
            return RAPID_ERR_NULL_POINTER;
        };
        // SAFETY: `b` is NULL or a handle from RAPID_model_new, checked by the C layer.
        let code = unsafe { c::RAPID_EndModel(m.b) };
        if code == RAPID_OK {
            m.num_boxes_alloced = m.num_tris.saturating_mul(2);
            m.build_state = RAPID_BUILD_STATE_PROCESSED;
        }
        code
    })
}

/// `int RAPID_model::build_hierarchy()`: builds the hierarchy from the triangles added so
/// far, as `EndModel()` (rapidpqp keeps no half-built state, so the model is then processed).
///
/// # Safety
/// `this` is NULL or a constructed `RAPID_model`.
#[unsafe(export_name = "_ZN11RAPID_model15build_hierarchyEv")]
pub unsafe extern "C" fn rapid_model_build_hierarchy(this: *mut RapidModelAbi) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { rapid_model_end(this) }
}

/// The C-layer handle of a C++ model; NULL for a NULL model (the C layer reports it).
///
/// # Safety
/// `m` is NULL or a constructed `RAPID_model`.
unsafe fn handle(m: *mut RapidModelAbi) -> *mut c::RAPID_model {
    // SAFETY: per the contract.
    unsafe { m.as_ref() }.map_or(ptr::null_mut(), |m| m.b)
}

/// `int RAPID_Collide(double R1[3][3], double T1[3], RAPID_model *, double R2[3][3],
/// double T2[3], RAPID_model *, int flag)`.
///
/// # Safety
/// As [`crate::ffi::rapid::RAPID_CollideScaled`], the models being NULL or constructed
/// `RAPID_model`s.
#[unsafe(export_name = "_Z13RAPID_CollidePA3_dPdP11RAPID_modelS0_S1_S3_i")]
pub unsafe extern "C" fn rapid_collide(
    r1: *mut [f64; 3],
    t1: *mut f64,
    o1: *mut RapidModelAbi,
    r2: *mut [f64; 3],
    t2: *mut f64,
    o2: *mut RapidModelAbi,
    flag: c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { rapid_collide_scaled(r1, t1, 1.0, o1, r2, t2, 1.0, o2, flag) }
}

/// `int RAPID_Collide(double R1[3][3], double T1[3], double s1, RAPID_model *,
/// double R2[3][3], double T2[3], double s2, RAPID_model *, int flag)`.
///
/// # Safety
/// As [`crate::ffi::rapid::RAPID_CollideScaled`], the models being NULL or constructed
/// `RAPID_model`s.
#[unsafe(export_name = "_Z13RAPID_CollidePA3_dPddP11RAPID_modelS0_S1_dS3_i")]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rapid_collide_scaled(
    r1: *mut [f64; 3],
    t1: *mut f64,
    s1: f64,
    o1: *mut RapidModelAbi,
    r2: *mut [f64; 3],
    t2: *mut f64,
    s2: f64,
    o2: *mut RapidModelAbi,
    flag: c_int,
) -> c_int {
    guard(RAPID_ERR_INTERNAL, || {
        // SAFETY: forwarded contract; the C layer checks the handles and every pointer.
        unsafe {
            let (h1, h2) = (handle(o1), handle(o2));
            c::RAPID_CollideScaled(r1, t1, s1, h1, r2, t2, s2, h2, flag)
        }
    })
}
