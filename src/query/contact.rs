//! Contact geometry of two placed models: each intersecting triangle pair's intersection
//! ([`collide`] with [`CollideRequest::geometry`]), a deduplicated contact set
//! ([`contact_set`]) and the intersection curves ([`intersection_curves`]).
//!
//! **Frame and accuracy.** Everything is in the world frame the placements are given in. The
//! pairs are found, and their geometry computed, on the triangles exactly as the collide test
//! sees them: in PQP's frame (model 2's vertices placed in model 1's, rounded) unless the
//! request says otherwise. Each pair's points lie within its
//! [`TriContact::error_bound`] of the exact intersection of those triangles mapped to the world
//! by the frame model's placement: the bound of [`crate::geometry::tri_contact`] (zero for
//! input vertices; growing as an edge turns parallel to the face it crosses) scaled by the
//! placement, plus the placement's rounding, `8ε (scale |x|∞ + |translation|∞)` with `x` the
//! point in the frame model's coordinates. The rounding of model 2's vertices into model 1's
//! frame (a few ε of the coordinates' magnitude) is not in the bound: it decides which
//! triangles the test sees, as it does for plain collide.
//!
//! **Normals.** `normal1`, `normal2` are the triangles' unit normals `(v1 − v0) × (v2 − v0)`
//! in the world frame; a zero-area triangle (or one whose normal underflows) has the zero
//! vector and a flag, never NaN. A contact's normal points from model 1 into model 2: the
//! normalised sum, over the pairs that reach the contact, of `normal1 − normal2` (the outward
//! normal of model 1's face, and minus that of model 2's, for outward-oriented meshes). Where
//! that sum vanishes (coplanar faces with the same orientation, which needs inconsistently
//! oriented meshes, or zero-area faces) the sum of `normal1` is used, then of `−normal2`, else
//! the normal is zero and [`CONTACT_NO_NORMAL`] is set. The direction means "from 1 to 2" only
//! for consistently outward-oriented meshes (see [`crate::model::Model::solid_facts`]).

use std::collections::HashMap;

use super::QueryError;
use super::collide::{CollideRequest, CollideResult, collide};
use crate::geometry::tri_contact::{TriContact, unit_or_zero};
use crate::math::{Placement, Vec3, length};
use crate::model::Model;

/// [`Contact::flags`]: no pair reaching this contact has a usable normal; `normal` is zero.
pub const CONTACT_NO_NORMAL: u8 = 1;

/// One point of a deduplicated contact set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The first point (in discovery order) of those merged into this contact.
    pub point: Vec3,
    /// Unit normal from model 1 to model 2 (see the module notes), or zero with
    /// [`CONTACT_NO_NORMAL`].
    pub normal: Vec3,
    /// Number of pair points merged into this contact.
    pub count: u32,
    /// Bits such as [`CONTACT_NO_NORMAL`]; 0 for a contact with a normal.
    pub flags: u8,
}

/// The intersecting triangle pairs of `m1` at `p1` and `m2` at `p2` with their geometry:
/// [`collide`] with `geometry` set. Refused as [`collide`] refuses.
pub fn collide_geometry(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    request: &CollideRequest,
    result: &mut CollideResult,
) -> Result<(), QueryError> {
    collide(m1, p1, m2, p2, &CollideRequest { geometry: true, first_contact: false, ..*request }, result)
}

/// The deduplicated contact set of the two models (see [`merge_contacts`]).
///
/// Refused with [`QueryError::InvalidArgument`] when `merge_tolerance` is negative, NaN or
/// infinite; otherwise as [`collide`].
pub fn contact_set(
    m1: &Model,
    p1: &Placement,
    m2: &Model,
    p2: &Placement,
    merge_tolerance: f64,
) -> Result<Vec<Contact>, QueryError> {
    if !(merge_tolerance >= 0.0 && merge_tolerance.is_finite()) {
        return Err(QueryError::InvalidArgument);
    }
    let mut result = CollideResult::new();
    collide_geometry(m1, p1, m2, p2, &CollideRequest::default(), &mut result)?;
    Ok(merge_contacts(&result.geometry, merge_tolerance))
}

/// Merges the points of every pair's geometry (segment endpoints, single points, polygon
/// corners), in order: a point joins the first contact within `merge_tolerance` of it
/// (Euclidean distance as computed in `f64` by [`crate::math::length`], scaled: no overflow
/// however far out),
/// else starts a new one. So every point is within
/// the tolerance of its contact, and any two contacts are more than the tolerance apart (with
/// tolerance 0, only equal points merge).
pub fn merge_contacts(geometry: &[TriContact], merge_tolerance: f64) -> Vec<Contact> {
    let tol = merge_tolerance;
    let mut contacts: Vec<Contact> = Vec::new();
    // Per contact: the sums for its normal.
    let mut sums: Vec<[Vec3; 3]> = Vec::new();
    // Contacts by grid cell of side `tol` (by exact coordinates when `tol` is 0); a point's
    // candidates are in the 27 cells around its own. Saturating casts only merge far cells.
    let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
    let cell = |p: &Vec3| -> [i64; 3] {
        if tol > 0.0 {
            [0, 1, 2].map(|k| (p[k] / tol).floor() as i64)
        } else {
            [0, 1, 2].map(|k| (p[k] + 0.0).to_bits() as i64)
        }
    };
    for g in geometry {
        for p in g.points() {
            let c = cell(p);
            let mut found = None;
            if tol > 0.0 {
                'search: for dx in -1..=1i64 {
                    for dy in -1..=1i64 {
                        for dz in -1..=1i64 {
                            let key = [c[0].saturating_add(dx), c[1].saturating_add(dy), c[2].saturating_add(dz)];
                            if let Some(list) = grid.get(&key) {
                                for &k in list {
                                    if length(&(contacts[k as usize].point - p)) <= tol {
                                        found = Some(k as usize);
                                        break 'search;
                                    }
                                }
                            }
                        }
                    }
                }
            } else if let Some(list) = grid.get(&c) {
                found = list.first().map(|&k| k as usize);
            }
            let k = match found {
                Some(k) => k,
                None => {
                    grid.entry(c).or_default().push(contacts.len() as u32);
                    contacts.push(Contact { point: *p, normal: Vec3::zeros(), count: 0, flags: 0 });
                    sums.push([Vec3::zeros(); 3]);
                    contacts.len() - 1
                }
            };
            contacts[k].count += 1;
            sums[k][0] += g.normal1 - g.normal2;
            sums[k][1] += g.normal1;
            sums[k][2] -= g.normal2;
        }
    }
    for (c, s) in contacts.iter_mut().zip(&sums) {
        c.normal = s.iter().map(|v| unit_or_zero(*v)).find(|n| *n != Vec3::zeros()).unwrap_or_else(Vec3::zeros);
        if c.normal == Vec3::zeros() {
            c.flags |= CONTACT_NO_NORMAL;
        }
    }
    contacts
}

/// A polyline of the intersection: `closed` when it returns to its first point, which it
/// then repeats at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// The polyline's points in order (a closed one repeats its first point at the end).
    pub points: Vec<Vec3>,
    /// Whether the polyline returns to its first point.
    pub closed: bool,
}

/// The intersection curves of the two models' surfaces: every pair's segment chained with
/// the others at bitwise-equal endpoints (see [`chain_segments`]). Refused as [`collide`].
pub fn intersection_curves(m1: &Model, p1: &Placement, m2: &Model, p2: &Placement) -> Result<Vec<Curve>, QueryError> {
    let mut result = CollideResult::new();
    collide_geometry(m1, p1, m2, p2, &CollideRequest::default(), &mut result)?;
    Ok(chain_segments(&result.geometry))
}

/// The distinct segments of the pairs' geometry (a segment found by two pairs, as where an
/// edge of one mesh lies in the other's surface, counts once; single points and coplanar
/// polygons are not segments), chained into polylines at bitwise-equal endpoints.
///
/// A crossing of an edge with a face is computed identically for both faces of the edge
/// ([`crate::geometry::tri_contact`]), so where two surfaces cross cleanly the chaining is
/// exact and every curve of two closed meshes is closed. Each distinct segment is used
/// exactly once. At a point where more than two segments meet the walk continues along any
/// unused one; walks start at points of odd degree first, so those are the ends of the open
/// polylines. Where segments meet at points computed from different inputs (an edge crossing
/// another edge exactly), they may not chain: those curves are open.
pub fn chain_segments(geometry: &[TriContact]) -> Vec<Curve> {
    let key = |p: &Vec3| [p.x, p.y, p.z].map(|v| (v + 0.0).to_bits());
    let mut vertex_of: HashMap<[u64; 3], usize> = HashMap::new();
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut id = |p: &Vec3, vertices: &mut Vec<Vec3>| {
        *vertex_of.entry(key(p)).or_insert_with(|| {
            vertices.push(*p);
            vertices.len() - 1
        })
    };
    let mut seen = std::collections::HashSet::new();
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for g in geometry.iter().filter(|g| g.len == 2) {
        let (u, v) = (id(&g.points[0], &mut vertices), id(&g.points[1], &mut vertices));
        if u != v && seen.insert((u.min(v), u.max(v))) {
            edges.push((u, v));
        }
    }
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); vertices.len()];
    for (e, &(u, v)) in edges.iter().enumerate() {
        adjacent[u].push(e);
        adjacent[v].push(e);
    }
    let mut remaining: Vec<usize> = adjacent.iter().map(Vec::len).collect();
    let mut used = vec![false; edges.len()];
    let mut cursor = vec![0usize; vertices.len()];
    let mut curves = Vec::new();
    let mut walk = |start: usize, remaining: &mut Vec<usize>| {
        let mut points = vec![vertices[start]];
        let mut at = start;
        loop {
            while cursor[at] < adjacent[at].len() && used[adjacent[at][cursor[at]]] {
                cursor[at] += 1;
            }
            if cursor[at] == adjacent[at].len() {
                break;
            }
            let e = adjacent[at][cursor[at]];
            used[e] = true;
            let (u, v) = edges[e];
            let next = if u == at { v } else { u };
            remaining[at] -= 1;
            remaining[next] -= 1;
            points.push(vertices[next]);
            at = next;
        }
        let closed = at == start && points.len() > 3;
        Curve { points, closed }
    };
    for v in 0..vertices.len() {
        if remaining[v] % 2 == 1 {
            curves.push(walk(v, &mut remaining));
        }
    }
    for v in 0..vertices.len() {
        while remaining[v] > 0 {
            curves.push(walk(v, &mut remaining));
        }
    }
    curves
}

#[cfg(test)]
mod tests;
