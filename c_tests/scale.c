/*
 * scale.c: scale invariance from C, driven by tests/c_scale.rs (a sample of the harness of
 * tests/c_scale_invariance.rs). Scenes of small integers are multiplied by 2^k (ldexp:
 * exact) for k from -1060 to 990; every answer must scale with them:
 *
 * - rpq_sweep and rpq_time_of_impact: a small triangle falling onto a large one (s = 1,
 *   t = 1/4), first and last contact;
 * - rpq_separation of two overlapping boxes along +z: depth 3 * 2^k; of touching boxes: 0;
 * - rpq_contains and rpq_closest_points: a tetrahedron's corners and edge midpoints are on its
 *   surface, an inner point inside;
 * - rpq_ray_cast and rpq_segment_hits through an edge of the tetrahedron and of a triangle:
 *   hit at t = 22;
 * - rpq_collide and rpq_distance: touching boxes collide, boxes apart are 2 * 2^k apart.
 *
 * Prints one summary line.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "rapidpqp.h"
#include "native_shapes.h"

/* The box [lo, hi] * 2^k. */
static RpqModel *scaled_box(double lx, double ly, double lz, double hx, double hy, double hz, int k) {
    const double lo[3] = {ldexp(lx, k), ldexp(ly, k), ldexp(lz, k)};
    const double hi[3] = {ldexp(hx, k), ldexp(hy, k), ldexp(hz, k)};
    return box_model(lo, hi, 0);
}

/* Triangles given as 9 doubles each, times 2^k. */
static RpqModel *scaled_triangles(const double *t, size_t n, int k) {
    double v[36];
    RpqModel *m = NULL;
    for (size_t i = 0; i < 9 * n; i++) {
        v[i] = ldexp(t[i], k);
    }
    ENSURE_EQ_INT(rpq_model_build(v, NULL, n, &m), RPQ_OK);
    return m;
}

static RpqPose scaled_pose(double x, double y, double z, int k) {
    return pose_at(ldexp(x, k), ldexp(y, k), ldexp(z, k));
}

/* The outward tetrahedron (0,0,0), (8,0,0), (0,8,0), (0,0,8). */
static const double TETRAHEDRON[36] = {0, 0, 0, 0, 8, 0, 8, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 8,
                                       8, 0, 0, 0, 8, 0, 0, 0, 8, 0, 8, 0, 0, 0, 0, 0, 0, 8};

static void falling_triangle(int k) {
    static const double small[9] = {0, 0, 1, 1, 0, 1, 0, 1, 1};
    static const double large[9] = {-8, -8, 0, 8, -8, 0, 0, 8, 0};
    RpqModel *a = scaled_triangles(small, 1, k), *b = scaled_triangles(large, 1, k);
    RpqPose here = pose_at(0, 0, 0), end = scaled_pose(0, 0, -4, k);
    double down[3] = {0, 0, -ldexp(1.0, k)};
    RpqSweepResult r;
    ENSURE_EQ_INT(rpq_sweep(a, &here, b, &here, down, 2.0, 0, &r), RPQ_OK);
    ENSURE(r.hit && r.s <= 1.0 && r.s > 1.0 - 1e-12);
    ENSURE_EQ_INT(rpq_sweep(a, &here, b, &here, down, 2.0, 1, &r), RPQ_OK);
    ENSURE(r.hit && r.s >= 1.0 && r.s < 1.0 + 1e-12);
    RpqToi toi;
    ENSURE_EQ_INT(rpq_time_of_impact(a, &here, &end, b, &here, -1.0, 0, &toi), RPQ_OK);
    ENSURE_EQ_INT(toi.outcome, RPQ_TOI_CONTACT);
    ENSURE(toi.time <= 0.25 && toi.time > 0.25 - 1e-12);
    rpq_model_free(a);
    rpq_model_free(b);
}

static void boxes(int k) {
    RpqModel *big = scaled_box(0, 0, 0, 4, 4, 4, k), *small = scaled_box(0, 0, 0, 2, 2, 2, k);
    RpqPose here = pose_at(0, 0, 0), overlapping = scaled_pose(3, 1, 1, k), touching = scaled_pose(4, 1, 1, k),
            apart = scaled_pose(6, 1, 1, k);
    const double up[3] = {0, 0, 1};
    RpqSeparation s;
    ENSURE_EQ_INT(rpq_separation(big, &here, small, &overlapping, up, &s), RPQ_OK);
    ENSURE_NEAR(-s.signed_distance / ldexp(1.0, k), 3.0, 1e-9);
    ENSURE_EQ_INT(rpq_separation(big, &here, small, &touching, up, &s), RPQ_OK);
    ENSURE(s.signed_distance == 0.0);
    ENSURE_EQ_INT(rpq_separation(big, &here, small, &touching, NULL, &s), RPQ_OK);
    ENSURE(s.signed_distance == 0.0);
    RpqCollideResult *c = rpq_collide_result_new();
    ENSURE_EQ_INT(rpq_collide(big, &here, small, &touching, NULL, c), RPQ_OK);
    ENSURE(rpq_collide_result_num_pairs(c) > 0);
    ENSURE_EQ_INT(rpq_collide(big, &here, small, &apart, NULL, c), RPQ_OK);
    ENSURE_EQ_INT(rpq_collide_result_num_pairs(c), 0);
    rpq_collide_result_free(c);
    RpqDistanceResult d;
    ENSURE_EQ_INT(rpq_distance(big, &here, small, &apart, NULL, NULL, &d), RPQ_OK);
    ENSURE_NEAR(d.distance / ldexp(1.0, k), 2.0, 1e-12);
    rpq_model_free(big);
    rpq_model_free(small);
}

static void tetrahedron(int k) {
    RpqModel *m = scaled_triangles(TETRAHEDRON, 4, k);
    /* Corners, edge midpoints, a face point; then one inside. */
    static const double on[24] = {0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 8, 4, 4, 0, 0, 4, 4, 2, 2, 4, 1, 1, 1};
    double p[24];
    for (int i = 0; i < 24; i++) {
        p[i] = ldexp(on[i], k);
    }
    uint8_t where[8];
    int32_t winding[8];
    RpqClosestPoint closest[8];
    ENSURE_EQ_INT(rpq_contains(m, p, 8, 1, where, winding), RPQ_OK);
    ENSURE_EQ_INT(rpq_closest_points(m, p, 8, INFINITY, 1, closest), RPQ_OK);
    for (int i = 0; i < 7; i++) {
        ENSURE_EQ_INT(where[i], RPQ_ON_SURFACE);
        ENSURE(closest[i].on_surface);
    }
    ENSURE_EQ_INT(where[7], RPQ_INSIDE);
    /* Through the edge x = z = 0 at (0, 4, 0), from 22 steps away. */
    double origin[3] = {ldexp(-22.0, k), ldexp(4.0, k), ldexp(22.0, k)};
    double direction[3] = {ldexp(1.0, k), 0.0, -ldexp(1.0, k)};
    double far[3] = {origin[0] + 32 * direction[0], origin[1], origin[2] + 32 * direction[2]};
    RpqRayHit hit, hits[8];
    size_t count = 0;
    ENSURE_EQ_INT(rpq_ray_cast(m, origin, 1, direction, 1, INFINITY, 0, 1, &hit), RPQ_OK);
    ENSURE(hit.hit && fabs(hit.t - 22.0) < 1e-12);
    ENSURE_EQ_INT(rpq_segment_hits(m, origin, far, hits, 8, &count), RPQ_OK);
    ENSURE(count >= 1 && fabs(hits[0].t - 22.0 / 32.0) < 1e-12);
    rpq_model_free(m);
    /* Through the midpoint (-3, -7, 3) of an edge of a triangle whose tree box, fitted in the
     * subnormal range, missed it before. */
    static const double edge[9] = {4, 0, 2, -10, -14, 4, 16, -8, 8};
    m = scaled_triangles(edge, 1, k);
    origin[0] = ldexp(-25.0, k), origin[1] = ldexp(-29.0, k), origin[2] = ldexp(3.0, k);
    direction[0] = direction[1] = ldexp(1.0, k), direction[2] = 0.0;
    ENSURE_EQ_INT(rpq_ray_cast(m, origin, 1, direction, 1, INFINITY, 0, 1, &hit), RPQ_OK);
    ENSURE(hit.hit && fabs(hit.t - 22.0) < 1e-12);
    rpq_model_free(m);
}

int main(void) {
    static const int ks[] = {-1064, -1060, -1055, -1040, -1030, -1022, -1000, -700, -540, -300, -150, 0,
                             150, 300, 520, 600, 900, 990};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        int before = ensure_failed;
        falling_triangle(ks[i]);
        boxes(ks[i]);
        tetrahedron(ks[i]);
        if (ensure_failed != before) {
            fprintf(stderr, "failures at 2^%d\n", ks[i]);
        }
    }
    return ENSURE_SUMMARY("scale");
}
