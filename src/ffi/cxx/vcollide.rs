//! `VCollide.H`'s C++ symbols (V-COLLIDE 2.01's `VCollide` and `VCReport`, plus 1.x's
//! `AddTri(v1, v2, v3)`, `Collide()` and `Report(size, VCReportType *)` for old object
//! files), over the legacy V-COLLIDE C layer ([`crate::ffi::vcollide`]).
//!
//! `VCollide::vcint` holds a `vcOpen` handle. `VCReport::obj_pair` holds a registered
//! `ReportData` (NULL until the first successful `Collide`), `num_obj_pairs` its count.
//! Copies made by the implicit copy constructors share the engine or the report; destroying
//! both is harmless (the registries ignore the second free).
#![allow(non_snake_case)]

use std::ffi::{c_int, c_void};
use std::ptr;

use crate::ffi::guard;
use crate::ffi::handle::{self, Handle, Kind};
use crate::ffi::vcollide::{self as c, VC_ERR, VC_ERR_INVALID_INDEX, VC_ERR_NULL_POINTER, VC_OK, VCReportType};

/// `VC_FIRST_CONTACT` of VCollide.H.
const VC_FIRST_CONTACT: c_int = 2;

/// `class VCollide` (8 bytes).
#[repr(C)]
pub struct VCollideAbi {
    /// `VCInternal *vcint`: here a `vcOpen` handle.
    pub vcint: *mut c_void,
}

/// `class VCReport` (16 bytes).
#[repr(C)]
pub struct VCReportAbi {
    pub num_obj_pairs: c_int,
    /// `VCObjPair *obj_pair`: here the report's [`ReportData`].
    pub obj_pair: *mut ReportData,
}

const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(size_of::<VCollideAbi>() == 8 && align_of::<VCollideAbi>() == 8);
    assert!(size_of::<VCReportAbi>() == 16 && align_of::<VCReportAbi>() == 8);
    assert!(offset_of!(VCReportAbi, obj_pair) == 8);
    assert!(size_of::<VCReportType>() == 8);
};

/// One colliding object pair of a report.
struct ObjPair {
    id1: c_int,
    id2: c_int,
    /// (tri_id in id1, tri_id in id2); empty after a first-contact `Collide`.
    tri_pairs: Vec<VCReportType>,
}

/// What a `VCReport` owns.
pub struct ReportData {
    pairs: Vec<ObjPair>,
}

// SAFETY: the only type of kind CxxVcReport.
unsafe impl Handle for ReportData {
    const KIND: Kind = Kind::CxxVcReport;
}

/// The engine handle of a `VCollide` (NULL for a NULL object: the C layer reports it).
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`.
unsafe fn engine(this: *mut VCollideAbi) -> *mut c_void {
    // SAFETY: per the contract.
    unsafe { this.as_ref() }.map_or(ptr::null_mut(), |v| v.vcint)
}

/// `VCollide::VCollide()`: a new, empty engine.
///
/// # Safety
/// `this` is NULL or points to 8 writable bytes.
#[unsafe(export_name = "_ZN8VCollideC1Ev")]
pub unsafe extern "C" fn vcollide_construct(this: *mut VCollideAbi) {
    guard((), || {
        // SAFETY: per the contract; the old contents are not read.
        if let Some(v) = unsafe { this.as_mut() } {
            v.vcint = c::vcOpen();
        }
    })
}

/// `VCollide::VCollide()`, base-object variant.
///
/// # Safety
/// As [`vcollide_construct`].
#[unsafe(export_name = "_ZN8VCollideC2Ev")]
pub unsafe extern "C" fn vcollide_construct_base(this: *mut VCollideAbi) {
    // SAFETY: forwarded contract.
    unsafe { vcollide_construct(this) }
}

/// `VCollide::~VCollide()`: destroys the engine (ignored when a copy already did).
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`.
#[unsafe(export_name = "_ZN8VCollideD1Ev")]
pub unsafe extern "C" fn vcollide_destroy(this: *mut VCollideAbi) {
    guard((), || {
        // SAFETY: per the contract.
        if let Some(v) = unsafe { this.as_mut() } {
            // SAFETY: NULL or a vcOpen handle; vcClose ignores one already closed.
            unsafe { c::vcClose(v.vcint) };
            v.vcint = ptr::null_mut();
        }
    })
}

/// `VCollide::~VCollide()`, base-object variant.
///
/// # Safety
/// As [`vcollide_destroy`].
#[unsafe(export_name = "_ZN8VCollideD2Ev")]
pub unsafe extern "C" fn vcollide_destroy_base(this: *mut VCollideAbi) {
    // SAFETY: forwarded contract.
    unsafe { vcollide_destroy(this) }
}

/// `int VCollide::NewObject(int *id)`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`; `id` NULL or writable.
#[unsafe(export_name = "_ZN8VCollide9NewObjectEPi")]
pub unsafe extern "C" fn vcollide_new_object(this: *mut VCollideAbi, id: *mut c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcNewObject(engine(this), id) })
}

/// `int VCollide::AddTri(double v1[3], double v2[3], double v3[3], int tri_id)` (2.01).
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`; each vertex NULL or 3 readable doubles.
#[unsafe(export_name = "_ZN8VCollide6AddTriEPdS0_S0_i")]
pub unsafe extern "C" fn vcollide_add_tri(
    this: *mut VCollideAbi,
    v1: *mut f64,
    v2: *mut f64,
    v3: *mut f64,
    tri_id: c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcAddTriWithId(engine(this), v1, v2, v3, tri_id) })
}

/// `int VCollide::AddTri(double v1[3], double v2[3], double v3[3])` (1.x; the triangle's id
/// is its index in the object).
///
/// # Safety
/// As [`vcollide_add_tri`].
#[unsafe(export_name = "_ZN8VCollide6AddTriEPdS0_S0_")]
pub unsafe extern "C" fn vcollide_add_tri_1x(
    this: *mut VCollideAbi,
    v1: *mut f64,
    v2: *mut f64,
    v3: *mut f64,
) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcAddTri(engine(this), v1, v2, v3) })
}

/// `int VCollide::EndObject()`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`.
#[unsafe(export_name = "_ZN8VCollide9EndObjectEv")]
pub unsafe extern "C" fn vcollide_end_object(this: *mut VCollideAbi) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcEndObject(engine(this)) })
}

/// `int VCollide::UpdateTrans(int id, double trans[4][4])`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`; `trans` NULL or 16 readable doubles.
#[unsafe(export_name = "_ZN8VCollide11UpdateTransEiPA4_d")]
pub unsafe extern "C" fn vcollide_update_trans(this: *mut VCollideAbi, id: c_int, trans: *mut [f64; 4]) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcUpdateTrans(engine(this), id, trans) })
}

/// `int VCollide::ActivateObject(int id)`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`.
#[unsafe(export_name = "_ZN8VCollide14ActivateObjectEi")]
pub unsafe extern "C" fn vcollide_activate_object(this: *mut VCollideAbi, id: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcActivateObject(engine(this), id) })
}

/// `int VCollide::DeactivateObject(int id)`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`.
#[unsafe(export_name = "_ZN8VCollide16DeactivateObjectEi")]
pub unsafe extern "C" fn vcollide_deactivate_object(this: *mut VCollideAbi, id: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcDeactivateObject(engine(this), id) })
}

/// `int VCollide::ActivatePair(int id1, int id2)`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`.
#[unsafe(export_name = "_ZN8VCollide12ActivatePairEii")]
pub unsafe extern "C" fn vcollide_activate_pair(this: *mut VCollideAbi, id1: c_int, id2: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcActivatePair(engine(this), id1, id2) })
}

/// `int VCollide::DeactivatePair(int id1, int id2)`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`.
#[unsafe(export_name = "_ZN8VCollide14DeactivatePairEii")]
pub unsafe extern "C" fn vcollide_deactivate_pair(this: *mut VCollideAbi, id1: c_int, id2: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcDeactivatePair(engine(this), id1, id2) })
}

/// `int VCollide::DeleteObject(int id)`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`.
#[unsafe(export_name = "_ZN8VCollide12DeleteObjectEi")]
pub unsafe extern "C" fn vcollide_delete_object(this: *mut VCollideAbi, id: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcDeleteObject(engine(this), id) })
}

/// Reads the last result of the engine `h` into report data (with the triangle pairs when
/// `all`); `Err` with the C layer's code.
///
/// # Safety
/// `h` is a live `vcOpen` handle.
unsafe fn read_report(h: *mut c_void, all: bool) -> Result<Vec<ObjPair>, c_int> {
    // SAFETY: forwarded contract; size 0 writes nothing.
    let total = unsafe { c::vcReport(h, 0, ptr::null_mut()) };
    if total < 0 {
        return Err(total);
    }
    let mut objs = vec![VCReportType::default(); total as usize];
    // SAFETY: `objs` has `total` writable entries.
    unsafe { c::vcReport(h, total, objs.as_mut_ptr()) };
    let mut pairs = Vec::with_capacity(objs.len());
    for (k, o) in objs.iter().enumerate() {
        let mut tri_pairs = Vec::new();
        if all {
            // SAFETY: as above.
            let n = unsafe { c::vcReportTriPairs(h, k as c_int, 0, ptr::null_mut()) };
            if n > 0 {
                tri_pairs = vec![VCReportType::default(); n as usize];
                // SAFETY: `tri_pairs` has `n` writable entries.
                unsafe { c::vcReportTriPairs(h, k as c_int, n, tri_pairs.as_mut_ptr()) };
            }
        }
        pairs.push(ObjPair { id1: o.id1, id2: o.id2, tri_pairs });
    }
    Ok(pairs)
}

/// `int VCollide::Collide(VCReport *report, int flag)`: finds the colliding object pairs
/// (first contact per pair when `flag == VC_FIRST_CONTACT`, else every triangle pair) and
/// refills `report`. `VC_ERR_CALL_OUT_OF_SEQUENCE` while an object is open and
/// `VC_ERR_NULL_POINTER` for a NULL report, the report untouched.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`; `report` NULL or a constructed `VCReport`.
#[unsafe(export_name = "_ZN8VCollide7CollideEP8VCReporti")]
pub unsafe extern "C" fn vcollide_collide(this: *mut VCollideAbi, report: *mut VCReportAbi, flag: c_int) -> c_int {
    guard(VC_ERR, || {
        // SAFETY: per the contract.
        let h = unsafe { engine(this) };
        // SAFETY: per the contract.
        let Some(report) = (unsafe { report.as_mut() }) else {
            // A NULL or dead engine is the first error to report, as every other member.
            // SAFETY: forwarded contract; size 0 writes nothing.
            let code = unsafe { c::vcReport(h, 0, ptr::null_mut()) };
            return if code < 0 { code } else { VC_ERR_NULL_POINTER };
        };
        let all = flag != VC_FIRST_CONTACT;
        // SAFETY: forwarded contract.
        let code = unsafe { if all { c::vcCollideAll(h) } else { c::vcCollide(h) } };
        if code != VC_OK {
            return code;
        }
        // SAFETY: vcCollide accepted the handle, so it is live.
        let pairs = match unsafe { read_report(h, all) } {
            Ok(pairs) => pairs,
            Err(code) => return code,
        };
        let num_obj_pairs = c_int::try_from(pairs.len()).unwrap_or(c_int::MAX);
        match handle::get(report.obj_pair) {
            // SAFETY: a live ReportData; the report is used by one thread at a time.
            Some(mut data) => unsafe { data.as_mut() }.pairs = pairs,
            None => match handle::create(ReportData { pairs }) {
                Some(data) => report.obj_pair = data,
                // Out of memory: the report is left as it was.
                None => return VC_ERR,
            },
        }
        report.num_obj_pairs = num_obj_pairs;
        VC_OK
    })
}

/// `int VCollide::Collide()` (1.x): first contact; read the pairs with `Report`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`.
#[unsafe(export_name = "_ZN8VCollide7CollideEv")]
pub unsafe extern "C" fn vcollide_collide_1x(this: *mut VCollideAbi) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcCollide(engine(this)) })
}

/// `int VCollide::Report(int size, VCReportType *vcrep)` (1.x): as `vcReport`.
///
/// # Safety
/// `this` is NULL or a constructed `VCollide`; `vcrep` NULL or `size` writable entries.
#[unsafe(export_name = "_ZN8VCollide6ReportEiP12VCReportType")]
pub unsafe extern "C" fn vcollide_report_1x(this: *mut VCollideAbi, size: c_int, vcrep: *mut VCReportType) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { c::vcReport(engine(this), size, vcrep) })
}

// ------------------------------------------------------------------------------------------
// VCReport

/// `VCReport::VCReport()`: an empty report.
///
/// # Safety
/// `this` is NULL or points to 16 writable bytes.
#[unsafe(export_name = "_ZN8VCReportC1Ev")]
pub unsafe extern "C" fn vcreport_construct(this: *mut VCReportAbi) {
    // SAFETY: per the contract; the old contents are not read.
    if let Some(r) = unsafe { this.as_mut() } {
        r.num_obj_pairs = 0;
        r.obj_pair = ptr::null_mut();
    }
}

/// `VCReport::VCReport()`, base-object variant.
///
/// # Safety
/// As [`vcreport_construct`].
#[unsafe(export_name = "_ZN8VCReportC2Ev")]
pub unsafe extern "C" fn vcreport_construct_base(this: *mut VCReportAbi) {
    // SAFETY: forwarded contract.
    unsafe { vcreport_construct(this) }
}

/// `VCReport::~VCReport()`: frees the report (ignored when a copy already did).
///
/// # Safety
/// `this` is NULL or a constructed `VCReport`.
#[unsafe(export_name = "_ZN8VCReportD1Ev")]
pub unsafe extern "C" fn vcreport_destroy(this: *mut VCReportAbi) {
    guard((), || {
        // SAFETY: per the contract.
        if let Some(r) = unsafe { this.as_mut() } {
            // Anything but a live ReportData (NULL, freed through a copy) is ignored.
            handle::destroy(r.obj_pair);
            r.obj_pair = ptr::null_mut();
            r.num_obj_pairs = 0;
        }
    })
}

/// `VCReport::~VCReport()`, base-object variant.
///
/// # Safety
/// As [`vcreport_destroy`].
#[unsafe(export_name = "_ZN8VCReportD2Ev")]
pub unsafe extern "C" fn vcreport_destroy_base(this: *mut VCReportAbi) {
    // SAFETY: forwarded contract.
    unsafe { vcreport_destroy(this) }
}

/// Runs `f` on the report's pairs (empty for an empty, NULL or freed report).
///
/// # Safety
/// `this` is NULL or a constructed `VCReport`.
unsafe fn with_pairs<T>(this: *const VCReportAbi, f: impl FnOnce(&[ObjPair]) -> T) -> T {
    // SAFETY: per the contract.
    match unsafe { this.as_ref() }.and_then(|r| handle::get(r.obj_pair)) {
        // SAFETY: a live ReportData.
        Some(data) => f(unsafe { &data.as_ref().pairs }),
        None => f(&[]),
    }
}

/// Pair `k` of the report, or `VC_ERR_INVALID_INDEX`.
fn pair(pairs: &[ObjPair], k: c_int) -> Result<&ObjPair, c_int> {
    usize::try_from(k).ok().and_then(|k| pairs.get(k)).ok_or(VC_ERR_INVALID_INDEX)
}

/// Triangle pair `t` of object pair `k`, or `VC_ERR_INVALID_INDEX`.
fn tri_pair(pairs: &[ObjPair], k: c_int, t: c_int) -> Result<VCReportType, c_int> {
    let p = pair(pairs, k)?;
    usize::try_from(t).ok().and_then(|t| p.tri_pairs.get(t)).copied().ok_or(VC_ERR_INVALID_INDEX)
}

fn value(r: Result<c_int, c_int>) -> c_int {
    r.unwrap_or_else(|code| code)
}

/// `int VCReport::numObjPairs()`.
///
/// # Safety
/// `this` is NULL or a constructed `VCReport`.
#[unsafe(export_name = "_ZN8VCReport11numObjPairsEv")]
pub unsafe extern "C" fn vcreport_num_obj_pairs(this: *mut VCReportAbi) -> c_int {
    // SAFETY: forwarded contract.
    guard(0, || unsafe { with_pairs(this, |p| c_int::try_from(p.len()).unwrap_or(c_int::MAX)) })
}

/// `int VCReport::obj1ID(int k)`: the lower id of pair `k`; `VC_ERR_INVALID_INDEX` outside
/// the report.
///
/// # Safety
/// `this` is NULL or a constructed `VCReport`.
#[unsafe(export_name = "_ZN8VCReport6obj1IDEi")]
pub unsafe extern "C" fn vcreport_obj1_id(this: *mut VCReportAbi, k: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { with_pairs(this, |p| value(pair(p, k).map(|o| o.id1))) })
}

/// `int VCReport::obj2ID(int k)`: the higher id of pair `k`; `VC_ERR_INVALID_INDEX` outside
/// the report.
///
/// # Safety
/// `this` is NULL or a constructed `VCReport`.
#[unsafe(export_name = "_ZN8VCReport6obj2IDEi")]
pub unsafe extern "C" fn vcreport_obj2_id(this: *mut VCReportAbi, k: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { with_pairs(this, |p| value(pair(p, k).map(|o| o.id2))) })
}

/// `int VCReport::numTriPairs(int k)`: intersecting triangle pairs of pair `k` (0 after a
/// first-contact `Collide`); `VC_ERR_INVALID_INDEX` outside the report.
///
/// # Safety
/// `this` is NULL or a constructed `VCReport`.
#[unsafe(export_name = "_ZN8VCReport11numTriPairsEi")]
pub unsafe extern "C" fn vcreport_num_tri_pairs(this: *mut VCReportAbi, k: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe {
        with_pairs(this, |p| value(pair(p, k).map(|o| c_int::try_from(o.tri_pairs.len()).unwrap_or(c_int::MAX))))
    })
}

/// `int VCReport::tri1ID(int k, int t)`: the `tri_id` in `obj1ID(k)` of triangle pair `t`;
/// `VC_ERR_INVALID_INDEX` outside the report.
///
/// # Safety
/// `this` is NULL or a constructed `VCReport`.
#[unsafe(export_name = "_ZN8VCReport6tri1IDEii")]
pub unsafe extern "C" fn vcreport_tri1_id(this: *mut VCReportAbi, k: c_int, t: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { with_pairs(this, |p| value(tri_pair(p, k, t).map(|x| x.id1))) })
}

/// `int VCReport::tri2ID(int k, int t)`: the `tri_id` in `obj2ID(k)` of triangle pair `t`;
/// `VC_ERR_INVALID_INDEX` outside the report.
///
/// # Safety
/// `this` is NULL or a constructed `VCReport`.
#[unsafe(export_name = "_ZN8VCReport6tri2IDEii")]
pub unsafe extern "C" fn vcreport_tri2_id(this: *mut VCReportAbi, k: c_int, t: c_int) -> c_int {
    // SAFETY: forwarded contract.
    guard(VC_ERR, || unsafe { with_pairs(this, |p| value(tri_pair(p, k, t).map(|x| x.id2))) })
}
