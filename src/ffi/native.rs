//! The native C API: reentrant, no globals, caller-owned results. Built models are
//! immutable, so any number of threads may query the same models at once, each with its own
//! result object; deformable models (`src/ffi/refit.rs`) change only under an update that
//! excludes every other call on them (`RPQ_ERR_BUSY`).

use std::ffi::{c_char, c_int};
use std::sync::atomic::{AtomicU32, Ordering};

use super::handle::{self, Handle, Kind};
use super::pose::{self, PoseError};
use super::{all_finite, guard};
use crate::bv::obb::BoxTest;
use crate::math::{Placement, Triangle, Vec3};
use crate::model::{BuildError, Model};
use crate::query::collide::{self, CollideRequest, CollideResult, ContactPair, TriangleFrame};

/// Status of a native call. Out-parameters are written only on `RPQ_OK`.
pub type RpqStatus = c_int;
/// Success.
pub const RPQ_OK: RpqStatus = 0;
/// A required pointer argument was NULL.
pub const RPQ_ERR_NULL_POINTER: RpqStatus = 1;
/// A coordinate, pose entry or parameter was NaN or infinite.
pub const RPQ_ERR_NON_FINITE: RpqStatus = 2;
/// A model needs at least one triangle.
pub const RPQ_ERR_EMPTY_MODEL: RpqStatus = 3;
/// A scale was not within [`RPQ_MIN_SCALE`, `RPQ_MAX_SCALE`] (zero or negative among others).
pub const RPQ_ERR_INVALID_SCALE: RpqStatus = 4;
/// An argument is out of its documented range (an index, an enum value, a count).
pub const RPQ_ERR_INVALID_ARGUMENT: RpqStatus = 5;
/// A handle is not a live object of the expected kind (freed, or never made here).
pub const RPQ_ERR_INVALID_HANDLE: RpqStatus = 6;
/// An allocation failed.
pub const RPQ_ERR_OUT_OF_MEMORY: RpqStatus = 7;
/// An internal error (a bug): the call did nothing. Please report it.
pub const RPQ_ERR_INTERNAL: RpqStatus = 8;
/// A pose's rotation is not a rotation within the rotation tolerance (see
/// `rpq_set_rotation_tolerance`): its columns are not orthonormal, its determinant is not
/// positive (a reflection), or it carries a scale (`3·I`: say `I` with scale 3).
pub const RPQ_ERR_NOT_ROTATION: RpqStatus = 9;
/// A coordinate, placed in the other model's frame, would exceed 2^1000 (about 1e301), or
/// the relative scale leaves [2^-1000, 2^1000] (the supported range, see the README); or a
/// model was given a coordinate beyond 2^1000. Nothing changed.
pub const RPQ_ERR_OUT_OF_RANGE: RpqStatus = 10;
/// A query on solids was given a model that is not closed: it has boundary, non-manifold or
/// misoriented edges (`rpq_model_solid_facts` counts them). Nothing was computed.
pub const RPQ_ERR_NOT_CLOSED: RpqStatus = 11;
/// A mesh file does not exist (`rpq_mesh_load`).
pub const RPQ_ERR_FILE_NOT_FOUND: RpqStatus = 12;
/// A mesh file could not be read: permissions, an I/O error, or not a regular file (a
/// directory, a device such as `/dev/zero`: refused before any read) (`rpq_mesh_load`).
pub const RPQ_ERR_IO: RpqStatus = 13;
/// A mesh file is not OBJ, STL or PLY, or does not follow its format: a syntax error, a
/// truncated file, a vertex index out of range (`rpq_mesh_load`; its message says where).
pub const RPQ_ERR_BAD_FORMAT: RpqStatus = 14;
/// The model was not built deformable (`rpq_model_build_deformable`), so its vertices cannot
/// be updated. Nothing changed.
pub const RPQ_ERR_NOT_DEFORMABLE: RpqStatus = 15;
/// A deformable model is in use by another call: a query while its vertices are being
/// updated, or an update while it is queried or updated. Nothing was done; retry when the
/// other call has returned.
pub const RPQ_ERR_BUSY: RpqStatus = 16;

/// Box-pair test: the library's default, chosen by measurement (today the dual OBB-sphere
/// test, `RPQ_BOX_TEST_DUAL`). A zero-filled request gets it.
pub const RPQ_BOX_TEST_DEFAULT: c_int = 0;
/// Box-pair test: RAPID's 15-axis separating-axis test.
pub const RPQ_BOX_TEST_SAT15: c_int = 1;
/// Box-pair test: only the 6 face axes (cheaper, prunes less).
pub const RPQ_BOX_TEST_SAT_LITE: c_int = 2;
/// Box-pair test: the dual OBB-sphere test of Chang, Wang and Kim: the nodes' smallest
/// enclosing spheres first, then the five axes `a0, b0, c22, c12, c21`.
pub const RPQ_BOX_TEST_DUAL: c_int = 3;
/// Box-pair test: the spheres first, then the full 15-axis test.
pub const RPQ_BOX_TEST_SPHERE_SAT15: c_int = 4;
/// Triangle test in model 1's frame (model 2's triangles moved there), as PQP.
pub const RPQ_FRAME_MODEL1: c_int = 0;
/// Triangle test in model 2's frame (model 1's triangles moved there), as RAPID.
pub const RPQ_FRAME_MODEL2: c_int = 1;

/// A model's placement in the world: a model point `p` goes to `scale * R * p + translation`.
/// `rotation` is row-major (`rotation[3*i + j]` is row i, column j) and must be a rotation
/// within the rotation tolerance (`rpq_set_rotation_tolerance`; else `RPQ_ERR_NOT_ROTATION`);
/// `scale` must be within [`RPQ_MIN_SCALE`, `RPQ_MAX_SCALE`] (use 1; else
/// `RPQ_ERR_INVALID_SCALE`); every number finite (else `RPQ_ERR_NON_FINITE`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RpqPose {
    pub rotation: [f64; 9],
    pub translation: [f64; 3],
    pub scale: f64,
}

impl RpqPose {
    /// The pose of a (checked) placement: its rotation row-major, its translation and scale.
    pub(crate) fn of(p: &Placement) -> RpqPose {
        RpqPose {
            rotation: std::array::from_fn(|k| p.rotation[(k / 3, k % 3)]),
            translation: [p.translation.x, p.translation.y, p.translation.z],
            scale: p.scale,
        }
    }

    #[inline(always)]
    fn placement(&self) -> Result<Placement, RpqStatus> {
        let (r, t) = (&self.rotation, &self.translation);
        match pose::placement(r, t, self.scale, pose::rotation_tolerance(), false) {
            Ok(placement) => Ok(placement),
            Err(PoseError::NonFinite) => Err(RPQ_ERR_NON_FINITE),
            Err(PoseError::InvalidScale) => Err(RPQ_ERR_INVALID_SCALE),
            Err(PoseError::NotRotation) => Err(RPQ_ERR_NOT_ROTATION),
        }
    }
}

/// Options of a collide query. A zero-filled struct asks for all contacts with the defaults.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RpqCollideRequest {
    /// Nonzero: stop at the first intersecting triangle pair.
    pub first_contact: c_int,
    /// `RPQ_BOX_TEST_*`.
    pub box_test: c_int,
    /// `RPQ_FRAME_*`: where exactly touching triangles are decided.
    pub frame: c_int,
}

impl RpqCollideRequest {
    /// The request as the query reads it; `RPQ_ERR_INVALID_ARGUMENT` for an unknown
    /// box test or frame. All box tests give the same contacts; they differ in speed.
    pub(crate) fn to_request(self) -> Result<CollideRequest, RpqStatus> {
        let box_test = match self.box_test {
            RPQ_BOX_TEST_DEFAULT => BoxTest::default(),
            RPQ_BOX_TEST_SAT15 => BoxTest::Sat15,
            RPQ_BOX_TEST_SAT_LITE => BoxTest::SatLite,
            RPQ_BOX_TEST_DUAL => BoxTest::Dual,
            RPQ_BOX_TEST_SPHERE_SAT15 => BoxTest::SphereSat15,
            _ => return Err(RPQ_ERR_INVALID_ARGUMENT),
        };
        let frame = match self.frame {
            RPQ_FRAME_MODEL1 => TriangleFrame::Model1,
            RPQ_FRAME_MODEL2 => TriangleFrame::Model2,
            _ => return Err(RPQ_ERR_INVALID_ARGUMENT),
        };
        Ok(CollideRequest { first_contact: self.first_contact != 0, box_test, frame, geometry: false })
    }
}

/// An intersecting triangle pair: `id1` of model 1's triangle, `id2` of model 2's.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RpqContactPair {
    pub id1: i32,
    pub id2: i32,
}

// `rpq_collide_result_pairs` hands out the query's own `ContactPair` array as this type.
const _: () = {
    assert!(size_of::<RpqContactPair>() == size_of::<ContactPair>());
    assert!(align_of::<RpqContactPair>() == align_of::<ContactPair>());
    assert!(std::mem::offset_of!(RpqContactPair, id1) == std::mem::offset_of!(ContactPair, id1));
    assert!(std::mem::offset_of!(RpqContactPair, id2) == std::mem::offset_of!(ContactPair, id2));
};

/// A built model (opaque). Share it freely between threads: models are immutable, but for
/// deformable ones, whose vertex updates wait for no query (a call that finds the model in
/// use by a conflicting one returns `RPQ_ERR_BUSY`).
pub struct RpqModel {
    pub(crate) model: Model,
    /// Whether `model` is deformable (set at creation, never changed): only deformable models
    /// count their borrows.
    deformable: bool,
    /// A deformable model's borrows: the number of calls reading it, plus [`WRITER`] while an
    /// update has it.
    borrows: AtomicU32,
}

/// [`RpqModel::borrows`]' mark of an update in progress.
const WRITER: u32 = 1 << 31;

/// A borrowed model: derefs to the [`Model`]; a deformable model's borrow ends when this
/// is dropped.
pub(crate) struct ModelRef<'a> {
    model: &'a Model,
    borrows: Option<&'a AtomicU32>,
}

impl<'a> ModelRef<'a> {
    /// The model, for as long as the handle lives: use it only while this borrow is held.
    #[inline(always)]
    pub(crate) fn get(&self) -> &'a Model {
        self.model
    }
}

impl std::ops::Deref for ModelRef<'_> {
    type Target = Model;
    #[inline(always)]
    fn deref(&self) -> &Model {
        self.model
    }
}

impl Drop for ModelRef<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        if let Some(b) = self.borrows {
            b.fetch_sub(1, Ordering::Release);
        }
    }
}

// SAFETY: the only type of kind RpqModel.
unsafe impl Handle for RpqModel {
    const KIND: Kind = Kind::RpqModel;
}

/// The result of collide queries (opaque); reuse one per thread to avoid allocations.
pub struct RpqCollideResult {
    pub(crate) result: CollideResult,
    /// Set by `rpq_collide_result_set_geometry` (src/ffi/contact.rs): every `rpq_collide` into
    /// this result also computes the pairs' contact geometry. A flag on the result rather than
    /// a field of `RpqCollideRequest`, whose size C programs have compiled in.
    pub(crate) geometry: bool,
}

// SAFETY: the only type of kind RpqCollideResult.
unsafe impl Handle for RpqCollideResult {
    const KIND: Kind = Kind::RpqCollideResult;
}

pub(crate) fn status_of(error: BuildError) -> RpqStatus {
    match error {
        BuildError::EmptyModel => RPQ_ERR_EMPTY_MODEL,
        BuildError::NonFiniteCoordinate => RPQ_ERR_NON_FINITE,
        BuildError::TooManyTriangles | BuildError::IdCountMismatch { .. } | BuildError::IndexOutOfRange => {
            RPQ_ERR_INVALID_ARGUMENT
        }
        BuildError::OutOfRange => RPQ_ERR_OUT_OF_RANGE,
    }
}

/// Borrows a model handle: `RPQ_ERR_NULL_POINTER` for NULL, `RPQ_ERR_INVALID_HANDLE` for
/// anything that is not a live model (freed, foreign, wild, or another kind of handle),
/// `RPQ_ERR_BUSY` for a deformable model whose vertices are being updated. Nothing is read
/// through an invalid handle.
///
/// # Safety
/// When `model` is a live model, it is not freed while the borrow is in use.
#[inline(always)]
pub(crate) unsafe fn model_ref<'a>(model: *const RpqModel) -> Result<ModelRef<'a>, RpqStatus> {
    if model.is_null() {
        return Err(RPQ_ERR_NULL_POINTER);
    }
    let Some(object) = handle::get(model) else {
        return Err(RPQ_ERR_INVALID_HANDLE);
    };
    let object = object.as_ptr();
    // SAFETY: the registry says it is a live RpqModel; the caller keeps it alive. Only fields
    // are borrowed (never the whole object), and `model` only while no update holds it:
    // `deformable` and `borrows` are never written through a `&mut`.
    unsafe {
        if !(*object).deformable {
            return Ok(ModelRef { model: &(*object).model, borrows: None });
        }
        let borrows = &(*object).borrows;
        if borrows.fetch_add(1, Ordering::Acquire) & WRITER != 0 {
            borrows.fetch_sub(1, Ordering::Relaxed);
            return Err(RPQ_ERR_BUSY);
        }
        Ok(ModelRef { model: &(*object).model, borrows: Some(borrows) })
    }
}

/// Runs `update` with exclusive use of a deformable model: `RPQ_ERR_NOT_DEFORMABLE` for a
/// model that is not, `RPQ_ERR_BUSY` while any other call borrows it, and the handle errors of
/// [`model_ref`].
///
/// # Safety
/// When `model` is a live model, it is not freed during the call.
pub(crate) unsafe fn with_model_mut(model: *mut RpqModel, update: impl FnOnce(&mut Model) -> RpqStatus) -> RpqStatus {
    if model.is_null() {
        return RPQ_ERR_NULL_POINTER;
    }
    let Some(object) = handle::get(model) else {
        return RPQ_ERR_INVALID_HANDLE;
    };
    let object = object.as_ptr();
    // SAFETY: live per the registry and the caller. `deformable` is read by value; `borrows`
    // is shared (atomic); `model` is borrowed mutably only while `borrows` holds WRITER, which
    // it gets only when no reader or writer holds it, and keeps out any new one.
    unsafe {
        if !(*object).deformable {
            return RPQ_ERR_NOT_DEFORMABLE;
        }
        let borrows = &(*object).borrows;
        if borrows.compare_exchange(0, WRITER, Ordering::Acquire, Ordering::Relaxed).is_err() {
            return RPQ_ERR_BUSY;
        }
        // Released however `update` ends (a panic included), so that the model stays usable.
        struct Release<'a>(&'a AtomicU32);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.fetch_and(!WRITER, Ordering::Release);
            }
        }
        let _release = Release(borrows);
        update(&mut (*object).model)
    }
}

/// Borrows a collide result handle, checked as [`model_ref`].
///
/// # Safety
/// When `result` is a live result, no other borrow of it is in use (one thread at a time) and
/// it is not freed meanwhile.
#[inline(always)]
unsafe fn collide_result_mut<'a>(result: *const RpqCollideResult) -> Result<&'a mut CollideResult, RpqStatus> {
    // SAFETY: forwarded contract.
    unsafe { collide_handle_mut(result) }.map(|h| &mut h.result)
}

/// Borrows a collide result handle with its options, checked as [`model_ref`].
///
/// # Safety
/// As [`collide_result_mut`].
#[inline(always)]
pub(crate) unsafe fn collide_handle_mut<'a>(
    result: *const RpqCollideResult,
) -> Result<&'a mut RpqCollideResult, RpqStatus> {
    if result.is_null() {
        return Err(RPQ_ERR_NULL_POINTER);
    }
    match handle::get(result) {
        // SAFETY: the registry says it is a live RpqCollideResult; the caller gives exclusive use.
        Some(mut object) => Ok(unsafe { object.as_mut() }),
        None => Err(RPQ_ERR_INVALID_HANDLE),
    }
}

/// Reads a pose argument.
///
/// # Safety
/// `pose` is NULL or points to a readable `RpqPose`.
#[inline(always)]
pub(crate) unsafe fn read_pose(pose: *const RpqPose) -> Result<Placement, RpqStatus> {
    // SAFETY: NULL or readable per the contract.
    match unsafe { pose.as_ref() } {
        Some(pose) => pose.placement(),
        None => Err(RPQ_ERR_NULL_POINTER),
    }
}

/// Registers a built model as a new handle; `RPQ_ERR_OUT_OF_MEMORY` when that fails.
pub(crate) fn model_handle(model: Model) -> Result<*mut RpqModel, RpqStatus> {
    let deformable = model.is_deformable();
    handle::create(RpqModel { model, deformable, borrows: AtomicU32::new(0) }).ok_or(RPQ_ERR_OUT_OF_MEMORY)
}

/// Builds a model from `num_triangles` triangles given as 9 doubles each (`x y z` of the
/// three corners, consecutive), with caller ids `ids[k]` (or `k` when `ids` is NULL).
/// On success writes the new model to `*out_model`; free it with `rpq_model_free`.
///
/// Errors: `RPQ_ERR_NULL_POINTER` (`triangles` or `out_model` NULL),
/// `RPQ_ERR_EMPTY_MODEL` (no triangles), `RPQ_ERR_NON_FINITE` (a NaN or infinite coordinate),
/// `RPQ_ERR_OUT_OF_RANGE` (a coordinate beyond 2^1000, about 1.07e301),
/// `RPQ_ERR_OUT_OF_MEMORY` (the copies of the input cannot be allocated; the hierarchy's own
/// allocations still abort the process when memory runs out, as Rust's allocator does).
///
/// # Safety
/// `triangles` points to `9 * num_triangles` doubles; `ids` is NULL or points to
/// `num_triangles` ints; `out_model` is a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_build(
    triangles: *const f64,
    ids: *const i32,
    num_triangles: usize,
    out_model: *mut *mut RpqModel,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if out_model.is_null() || (triangles.is_null() && num_triangles > 0) {
            return RPQ_ERR_NULL_POINTER;
        }
        if num_triangles == 0 {
            return RPQ_ERR_EMPTY_MODEL;
        }
        let Some(count) = num_triangles.checked_mul(9) else {
            return RPQ_ERR_INVALID_ARGUMENT;
        };
        // SAFETY: the caller provides 9 * num_triangles doubles.
        let coords = unsafe { std::slice::from_raw_parts(triangles, count) };
        let mut tris: Vec<Triangle> = Vec::new();
        if tris.try_reserve_exact(num_triangles).is_err() {
            return RPQ_ERR_OUT_OF_MEMORY;
        }
        tris.extend(
            coords
                .chunks_exact(9)
                .map(|c| [Vec3::new(c[0], c[1], c[2]), Vec3::new(c[3], c[4], c[5]), Vec3::new(c[6], c[7], c[8])]),
        );
        // SAFETY: forwarded contract.
        unsafe { build_into(tris, ids, out_model) }
    })
}

/// Builds a model from a vertex array (`3 * num_vertices` doubles) and triangles given as
/// vertex indices (`3 * num_faces` zero-based `uint32_t`), with ids as in `rpq_model_build`.
/// An index out of range gives `RPQ_ERR_INVALID_ARGUMENT`; a NaN or infinite coordinate
/// `RPQ_ERR_NON_FINITE`, in any vertex, used by a triangle or not; a used vertex beyond
/// 2^1000 `RPQ_ERR_OUT_OF_RANGE`.
///
/// # Safety
/// The arrays hold the stated numbers of elements; `ids` may be NULL; `out_model` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_build_indexed(
    vertices: *const f64,
    num_vertices: usize,
    faces: *const u32,
    num_faces: usize,
    ids: *const i32,
    out_model: *mut *mut RpqModel,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if let Err(status) = check_indexed_build(vertices, num_vertices, faces, num_faces, out_model) {
            return status;
        }
        let (Some(nv), Some(nf)) = (num_vertices.checked_mul(3), num_faces.checked_mul(3)) else {
            return RPQ_ERR_INVALID_ARGUMENT;
        };
        // SAFETY: sizes per the contract (checked non-NULL when non-empty).
        let verts = if nv == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(vertices, nv) } };
        // Every vertex must be finite, used or not (as the Python package requires).
        if !all_finite(verts) {
            return RPQ_ERR_NON_FINITE;
        }
        // SAFETY: as above.
        let faces = unsafe { std::slice::from_raw_parts(faces, nf) };
        let corner = |i: u32| {
            let i = i as usize;
            (i < num_vertices).then(|| Vec3::new(verts[3 * i], verts[3 * i + 1], verts[3 * i + 2]))
        };
        let mut tris = Vec::new();
        if tris.try_reserve_exact(num_faces).is_err() {
            return RPQ_ERR_OUT_OF_MEMORY;
        }
        for f in faces.chunks_exact(3) {
            match (corner(f[0]), corner(f[1]), corner(f[2])) {
                (Some(a), Some(b), Some(c)) => tris.push([a, b, c]),
                _ => return RPQ_ERR_INVALID_ARGUMENT,
            }
        }
        // SAFETY: forwarded contract.
        unsafe { build_into(tris, ids, out_model) }
    })
}

/// The argument checks of the indexed builds (`rpq_model_build_indexed`,
/// `rpq_model_build_deformable`): a NULL output or array (an array may be NULL when empty),
/// then no faces.
pub(crate) fn check_indexed_build(
    vertices: *const f64,
    num_vertices: usize,
    faces: *const u32,
    num_faces: usize,
    out_model: *mut *mut RpqModel,
) -> Result<(), RpqStatus> {
    if out_model.is_null() || (vertices.is_null() && num_vertices > 0) || (faces.is_null() && num_faces > 0) {
        return Err(RPQ_ERR_NULL_POINTER);
    }
    if num_faces == 0 {
        return Err(RPQ_ERR_EMPTY_MODEL);
    }
    Ok(())
}

/// The common tail of the `rpq_model_build*` functions: ids (caller's, or 0..n when NULL),
/// the build, and the new handle written to `out_model`.
///
/// # Safety
/// `ids` is NULL or holds `tris.len()` ids; `out_model` is non-NULL and writable.
unsafe fn build_into(tris: Vec<Triangle>, ids: *const i32, out_model: *mut *mut RpqModel) -> RpqStatus {
    let mut owned: Vec<i32> = Vec::new();
    if owned.try_reserve_exact(tris.len()).is_err() {
        return RPQ_ERR_OUT_OF_MEMORY;
    }
    if ids.is_null() {
        owned.extend((0..tris.len()).map(|k| k as i32));
    } else {
        // SAFETY: the caller provides one id per triangle.
        owned.extend_from_slice(unsafe { std::slice::from_raw_parts(ids, tris.len()) });
    }
    let ids = owned;
    match Model::new(tris, ids).map_err(status_of).and_then(model_handle) {
        Ok(handle) => {
            // SAFETY: out_model is non-NULL and writable per the contract.
            unsafe { *out_model = handle };
            RPQ_OK
        }
        Err(status) => status,
    }
}

/// Frees a model. NULL is a no-op; anything that is not a live model (freed already, a
/// foreign pointer, another kind of handle) is ignored: a handle stays recognised as freed until
/// at least 262,144 other handles have been freed after it.
///
/// # Safety
/// No query using `model` is running.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_free(model: *mut RpqModel) {
    guard((), || {
        handle::destroy(model);
    })
}

/// Number of triangles in a model (0 for NULL or an invalid handle).
///
/// # Safety
/// `model` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_num_triangles(model: *const RpqModel) -> usize {
    // SAFETY: forwarded contract.
    guard(0, || unsafe { model_ref(model) }.map_or(0, |m| m.num_triangles()))
}

/// Bytes of memory a model holds (0 for NULL or an invalid handle).
///
/// # Safety
/// `model` is not freed during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_model_memory_bytes(model: *const RpqModel) -> usize {
    // SAFETY: forwarded contract.
    guard(0, || unsafe { model_ref(model) }.map_or(0, |m| m.memory_bytes()))
}

/// A new, empty collide result (NULL only if out of memory). Free it with
/// `rpq_collide_result_free`.
#[unsafe(no_mangle)]
pub extern "C" fn rpq_collide_result_new() -> *mut RpqCollideResult {
    guard(std::ptr::null_mut(), || {
        handle::create(RpqCollideResult { result: CollideResult::new(), geometry: false })
            .unwrap_or(std::ptr::null_mut())
    })
}

/// Frees a collide result; NULL is a no-op, and anything that is not a live result (freed
/// already, foreign, another kind of handle) is ignored, as in `rpq_model_free`.
///
/// # Safety
/// No call using `result` is running.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_collide_result_free(result: *mut RpqCollideResult) {
    guard((), || {
        handle::destroy(result);
    })
}

/// Finds the intersecting triangle pairs of `model1` at `pose1` and `model2` at `pose2`
/// (touching counts) and stores them in `result`, replacing what it held. `request` may be
/// NULL (all contacts, defaults). On error `result` is left unchanged; coordinates beyond the
/// supported range (README) give `RPQ_ERR_OUT_OF_RANGE`.
///
/// # Safety
/// `model1`, `model2` are live models; `pose1`, `pose2` readable poses; `request` NULL or
/// readable; `result` a live result not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_collide(
    model1: *const RpqModel,
    pose1: *const RpqPose,
    model2: *const RpqModel,
    pose2: *const RpqPose,
    request: *const RpqCollideRequest,
    result: *mut RpqCollideResult,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let handle = unsafe { collide_handle_mut(result) }?;
            let m1 = unsafe { model_ref(model1) }?;
            let m2 = unsafe { model_ref(model2) }?;
            let (m1, m2) = (&*m1, &*m2);
            let p1 = unsafe { read_pose(pose1) }?;
            let p2 = unsafe { read_pose(pose2) }?;
            let mut request =
                if request.is_null() { RpqCollideRequest::default() } else { unsafe { *request } }.to_request()?;
            request.geometry = handle.geometry;
            collide::collide_placed(m1, &p1, m2, &p2, &request, &mut handle.result)
                .map_err(|_| RPQ_ERR_OUT_OF_RANGE)?;
            Ok(())
        };
        match run() {
            Ok(()) => RPQ_OK,
            Err(status) => status,
        }
    })
}

/// Finds the intersecting pairs of non-adjacent triangles of one model (self-collision: a
/// cloth folded onto itself, a surface passing through itself) and stores them in `result`,
/// replacing what it held: each unordered pair once, the smaller id first (`id1 <= id2`).
/// Touching counts. Triangles that share a vertex are adjacent and never reported: on a model
/// that keeps its faces (a deformable model built from vertices and faces) when their faces
/// name a common vertex; on any other model (a soup) when a corner of one triangle has exactly
/// the coordinates of a corner of the other, so coincident distinct vertices count as shared.
/// Adjacent triangles that also cross elsewhere are not reported. `request` may be NULL (all pairs, defaults); its `frame` does
/// not apply here but must be a valid `RPQ_FRAME_*`. The counts
/// (`rpq_collide_result_counts`) are the box tests and the leaf pairs reached.
///
/// Errors (`result` unchanged): `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`,
/// `RPQ_ERR_INVALID_ARGUMENT` (an unknown box test or frame).
///
/// # Safety
/// `model` is a live model; `request` NULL or readable; `result` a live result not used by
/// another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_self_collide(
    model: *const RpqModel,
    request: *const RpqCollideRequest,
    result: *mut RpqCollideResult,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let out = unsafe { collide_result_mut(result) }?;
            let m = unsafe { model_ref(model) }?;
            let request =
                if request.is_null() { RpqCollideRequest::default() } else { unsafe { *request } }.to_request()?;
            crate::query::self_collide(&m, &request, out);
            Ok(())
        };
        match run() {
            Ok(()) => RPQ_OK,
            Err(status) => status,
        }
    })
}

/// Number of contact pairs in a result (0 for NULL or an invalid handle).
///
/// # Safety
/// `result` is not freed or used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_collide_result_num_pairs(result: *const RpqCollideResult) -> usize {
    // SAFETY: forwarded contract.
    guard(0, || unsafe { collide_result_mut(result) }.map_or(0, |r| r.pairs.len()))
}

/// The contact pairs of a result (`rpq_collide_result_num_pairs` of them), owned by the
/// result and valid until its next use or free. NULL when there are none (or for NULL or an
/// invalid handle).
///
/// # Safety
/// `result` is not freed or used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_collide_result_pairs(result: *const RpqCollideResult) -> *const RpqContactPair {
    guard(std::ptr::null(), || {
        // SAFETY: forwarded contract.
        match unsafe { collide_result_mut(result) } {
            // Both `#[repr(C)]` with the same fields (checked above): the cast keeps the layout.
            Ok(r) if !r.pairs.is_empty() => r.pairs.as_ptr().cast::<RpqContactPair>(),
            _ => std::ptr::null(),
        }
    })
}

/// Work counts of the last query of a result: bounding-volume tests and triangle tests.
/// Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE` (nothing written).
///
/// # Safety
/// `result` is not freed or used by another thread during the call; the out pointers are NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_collide_result_counts(
    result: *const RpqCollideResult,
    bv_tests: *mut u64,
    tri_tests: *mut u64,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        // SAFETY: forwarded contract.
        let r = match unsafe { collide_result_mut(result) } {
            Ok(r) => r,
            Err(status) => return status,
        };
        // SAFETY: each out pointer is NULL or writable.
        unsafe {
            if let Some(b) = bv_tests.as_mut() {
                *b = r.bv_tests;
            }
            if let Some(t) = tri_tests.as_mut() {
                *t = r.tri_tests;
            }
        }
        RPQ_OK
    })
}

/// A static, NUL-terminated English message for a status code of the native API.
#[unsafe(no_mangle)]
pub extern "C" fn rpq_status_message(status: RpqStatus) -> *const c_char {
    let text: &'static [u8] = match status {
        RPQ_OK => b"ok\0",
        RPQ_ERR_NULL_POINTER => b"a required pointer argument is NULL\0",
        RPQ_ERR_NON_FINITE => b"a coordinate, pose entry or parameter is NaN or infinite\0",
        RPQ_ERR_EMPTY_MODEL => b"a model needs at least one triangle\0",
        RPQ_ERR_INVALID_SCALE => b"a scale is outside [1e-100, 1e100] (zero or negative among others)\0",
        RPQ_ERR_INVALID_ARGUMENT => b"an argument is out of its documented range\0",
        RPQ_ERR_INVALID_HANDLE => b"the handle is not a live object (freed, or not from this library)\0",
        RPQ_ERR_OUT_OF_MEMORY => b"out of memory\0",
        RPQ_ERR_INTERNAL => b"internal error (a bug in rapidpqp); the call did nothing\0",
        RPQ_ERR_NOT_ROTATION => b"a pose's rotation is not a rotation within the rotation tolerance\0",
        RPQ_ERR_OUT_OF_RANGE => b"a coordinate (of a model, or placed in the other model's frame) exceeds 2^1000, or the relative scale leaves [2^-1000, 2^1000]\0",
        RPQ_ERR_NOT_CLOSED => b"the model is not closed: it has boundary, non-manifold or misoriented edges (rpq_model_solid_facts counts them)\0",
        RPQ_ERR_FILE_NOT_FOUND => b"the file does not exist\0",
        RPQ_ERR_IO => b"the file could not be read\0",
        RPQ_ERR_BAD_FORMAT => b"the file is not an OBJ, STL or PLY mesh, or is malformed or truncated\0",
        RPQ_ERR_NOT_DEFORMABLE => b"the model was not built deformable (rpq_model_build_deformable)\0",
        RPQ_ERR_BUSY => b"the deformable model is in use by another call (a query during a vertex update, or an update during a query or update)\0",
        _ => b"unknown status code\0",
    };
    text.as_ptr().cast()
}

/// Options of a distance query. A zero-filled struct asks for the exact distance.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RpqDistanceRequest {
    /// Accept a distance within this fraction of the true one: finite and ≥ 0 (NaN, negative
    /// and infinite values give `RPQ_ERR_INVALID_ARGUMENT`).
    pub rel_err: f64,
    /// Accept a distance within this absolute amount of the true one: finite and ≥ 0, as
    /// `rel_err`.
    pub abs_err: f64,
    /// 2 or less: best first down to the first leaf pair, then depth first; more: best first
    /// with a queue of this many node pairs, at most `RPQ_MAX_QSIZE` and at most the number of
    /// node pairs of the two models (a larger value is capped, not refused).
    pub qsize: c_int,
}

/// Options of a tolerance query. A zero-filled struct asks whether the models touch or
/// intersect (tolerance 0), with the default queue.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RpqToleranceRequest {
    /// Report whether the models are at most this far apart (inclusive; a negative tolerance
    /// counts as 0, NaN gives `RPQ_ERR_NON_FINITE`).
    pub tolerance: f64,
    /// The search queue, as `qsize` in `RpqDistanceRequest`.
    pub qsize: c_int,
}

impl RpqToleranceRequest {
    /// `*request`, or the zero-filled request for NULL; `RPQ_ERR_NON_FINITE` for a NaN
    /// tolerance.
    ///
    /// # Safety
    /// `request` is NULL or readable.
    pub(crate) unsafe fn read(request: *const RpqToleranceRequest) -> Result<RpqToleranceRequest, RpqStatus> {
        // SAFETY: per the contract.
        let request = if request.is_null() { RpqToleranceRequest::default() } else { unsafe { *request } };
        if request.tolerance.is_nan() {
            return Err(RPQ_ERR_NON_FINITE);
        }
        Ok(request)
    }
}

/// Caller-owned warm start for repeated distance queries on one model pair (PQP kept this
/// inside the models, which made concurrent queries race). Zero-fill it before first use;
/// give each thread its own.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RpqDistanceCache {
    /// Nonzero when `tri1`, `tri2` hold the previous closest triangle pair.
    pub valid: c_int,
    /// Internal (leaf-order) index of the closest triangle in model 1.
    pub tri1: u32,
    /// Internal (leaf-order) index of the closest triangle in model 2.
    pub tri2: u32,
}

/// Result of a distance or tolerance query (caller-owned, plain data).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RpqDistanceResult {
    /// Distance query: the distance, within the requested error. Tolerance query: when
    /// `closer`, the distance of the first pair found within the tolerance; otherwise a lower
    /// bound of the true distance (greater than the tolerance).
    pub distance: f64,
    /// Closest point on model 1, in model 1's own frame (NaN when a tolerance query is not
    /// closer). For intersecting models: a point of the intersection.
    pub p1: [f64; 3],
    /// Closest point on model 2, in model 2's own frame (the same world point as `p1` when the
    /// models intersect).
    pub p2: [f64; 3],
    /// Tolerance query: 1 when the models are at most the tolerance apart, else 0.
    pub closer: c_int,
    /// Bounding-volume distance tests performed.
    pub bv_tests: u64,
    /// Triangle-pair distance tests performed.
    pub tri_tests: u64,
}

impl RpqDistanceResult {
    fn from_query(r: &crate::query::distance::DistanceResult) -> RpqDistanceResult {
        RpqDistanceResult {
            distance: r.distance,
            p1: [r.p1.x, r.p1.y, r.p1.z],
            p2: [r.p2.x, r.p2.y, r.p2.z],
            closer: c_int::from(r.closer),
            bv_tests: r.bv_tests,
            tri_tests: r.tri_tests,
        }
    }
}

/// The distance between `model1` at `pose1` and `model2` at `pose2`, with a closest point on
/// each. `request` may be NULL (exact). `cache` may be NULL; when given it is used as a warm
/// start and updated. Errors: `RPQ_ERR_NULL_POINTER`, `RPQ_ERR_INVALID_HANDLE`,
/// `RPQ_ERR_NON_FINITE`, `RPQ_ERR_INVALID_SCALE`, `RPQ_ERR_NOT_ROTATION`,
/// `RPQ_ERR_INVALID_ARGUMENT` (an error bound negative, NaN or infinite); `result` is written
/// only on success.
///
/// # Safety
/// Models live; poses readable; `request` NULL or readable; `cache` NULL or writable and not
/// shared with another thread during the call; `result` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_distance(
    model1: *const RpqModel,
    pose1: *const RpqPose,
    model2: *const RpqModel,
    pose2: *const RpqPose,
    request: *const RpqDistanceRequest,
    cache: *mut RpqDistanceCache,
    result: *mut RpqDistanceResult,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if result.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let m1 = unsafe { model_ref(model1) }?;
            let m2 = unsafe { model_ref(model2) }?;
            let (m1, m2) = (&*m1, &*m2);
            let p1 = unsafe { read_pose(pose1) }?;
            let p2 = unsafe { read_pose(pose2) }?;
            let request = if request.is_null() { RpqDistanceRequest::default() } else { unsafe { *request } };
            let valid = |e: f64| e.is_finite() && e >= 0.0;
            if !valid(request.rel_err) || !valid(request.abs_err) {
                return Err(RPQ_ERR_INVALID_ARGUMENT);
            }
            let query = crate::query::distance::DistanceRequest {
                rel_err: request.rel_err,
                abs_err: request.abs_err,
                qsize: pose::queue_size(request.qsize, m1, m2),
            };
            let mut warm = crate::query::distance::DistanceCache::default();
            if let Some(c) = unsafe { cache.as_ref() } {
                if c.valid != 0 {
                    warm.last_pair = Some((c.tri1, c.tri2));
                }
            }
            let r = crate::query::distance::distance_placed(m1, &p1, m2, &p2, &query, Some(&mut warm))
                .map_err(|_| RPQ_ERR_OUT_OF_RANGE)?;
            if let Some(c) = unsafe { cache.as_mut() } {
                *c = match warm.last_pair {
                    Some((tri1, tri2)) => RpqDistanceCache { valid: 1, tri1, tri2 },
                    None => RpqDistanceCache::default(),
                };
            }
            unsafe { *result = RpqDistanceResult::from_query(&r) };
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}

/// Whether `model1` at `pose1` and `model2` at `pose2` are at most `request->tolerance`
/// apart (inclusive). Stops at the first triangle pair within the tolerance. `request` may be
/// NULL (tolerance 0: touching or intersecting). Errors: as `rpq_distance`, and
/// `RPQ_ERR_NON_FINITE` for a NaN tolerance; `result` is written only on success.
///
/// # Safety
/// Models live; poses readable; `request` NULL or readable; `result` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rpq_tolerance(
    model1: *const RpqModel,
    pose1: *const RpqPose,
    model2: *const RpqModel,
    pose2: *const RpqPose,
    request: *const RpqToleranceRequest,
    result: *mut RpqDistanceResult,
) -> RpqStatus {
    guard(RPQ_ERR_INTERNAL, || {
        if result.is_null() {
            return RPQ_ERR_NULL_POINTER;
        }
        // SAFETY: forwarded contract for every pointer below.
        let run = || -> Result<(), RpqStatus> {
            let m1 = unsafe { model_ref(model1) }?;
            let m2 = unsafe { model_ref(model2) }?;
            let (m1, m2) = (&*m1, &*m2);
            let p1 = unsafe { read_pose(pose1) }?;
            let p2 = unsafe { read_pose(pose2) }?;
            let request = unsafe { RpqToleranceRequest::read(request) }?;
            let qsize = pose::queue_size(request.qsize, m1, m2);
            let r = crate::query::distance::tolerance_placed(m1, &p1, m2, &p2, request.tolerance, qsize, None)
                .map_err(|_| RPQ_ERR_OUT_OF_RANGE)?;
            unsafe { *result = RpqDistanceResult::from_query(&r) };
            Ok(())
        };
        run().err().unwrap_or(RPQ_OK)
    })
}
