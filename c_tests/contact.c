/*
 * contact.c: the C API of contact geometry (rpq_collide_result_set_geometry,
 * rpq_collide_result_geometry, rpq_contacts, rpq_intersection_curves), driven by
 * tests/c_contact.rs.
 *
 * - Two cubes, the second rotated and shifted so their surfaces cross: every pair has 1 to 6
 *   points, unit normals and a finite bound; the contact set's points are farther apart than
 *   the tolerance; every curve is closed (its first point repeated at its end). The pose, the
 *   pairs' geometry, the contacts and the curves are written to argv[1] for the test to
 *   compare with the Rust core.
 * - Size queries: capacity 0 reports the sizes and copies nothing; a buffer one too small
 *   copies nothing.
 * - Every error path: NULL, freed and foreign handles, NaN and infinite poses and tolerances,
 *   a negative tolerance, an index out of range, geometry not switched on, NULL outputs.
 *   Outputs must be untouched on error.
 *
 * Prints one summary line on success.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "rapidpqp.h"
#include "native_shapes.h"

/* Rotation about the unit axis (1, 2, 2)/3 by angle a, row-major. */
static RpqPose rotated_pose(double a, double x, double y, double z) {
    RpqPose p = pose_at(x, y, z);
    double u[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3}, c = cos(a), s = sin(a);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            double r = (1 - c) * u[i] * u[j] + (i == j ? c : 0);
            if (i != j) {
                int k = 3 - i - j;
                double sign = ((j - i + 3) % 3 == 1) ? -1.0 : 1.0;
                r += sign * s * u[k];
            }
            p.rotation[3 * i + j] = r;
        }
    }
    return p;
}

static double dist(const double *a, const double *b) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static double norm(const double *a) {
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: contact ANSWERS\n");
        return 2;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        fprintf(stderr, "cannot write %s\n", argv[1]);
        return 2;
    }
    const double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    RpqModel *cube = box_model(lo, hi, 0);
    RpqPose p1 = pose_at(0, 0, 0), p2 = rotated_pose(0.7, 1.1, 0.3, 0.2);
    fprintf(out, "POSE");
    for (int k = 0; k < 9; k++) fprintf(out, " %.17g", p2.rotation[k]);
    fprintf(out, " %.17g %.17g %.17g %.17g\n", p2.translation[0], p2.translation[1], p2.translation[2], p2.scale);

    /* Per-pair geometry through rpq_collide. */
    RpqCollideResult *result = rpq_collide_result_new();
    ENSURE(result != NULL);
    RpqTriContact g, untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    ENSURE_EQ_INT(rpq_collide(cube, &p1, cube, &p2, NULL, result), RPQ_OK);
    size_t n = rpq_collide_result_num_pairs(result);
    ENSURE(n > 0);
    g = untouched;
    /* Geometry not switched on: refused, nothing written. */
    ENSURE_EQ_INT(rpq_collide_result_geometry(result, 0, &g), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE(memcmp(&g, &untouched, sizeof g) == 0);
    ENSURE_EQ_INT(rpq_collide_result_set_geometry(result, 1), RPQ_OK);
    ENSURE_EQ_INT(rpq_collide(cube, &p1, cube, &p2, NULL, result), RPQ_OK);
    ENSURE_EQ_INT(rpq_collide_result_num_pairs(result), n);
    const RpqContactPair *pairs = rpq_collide_result_pairs(result);
    for (size_t k = 0; k < n; k++) {
        ENSURE_EQ_INT(rpq_collide_result_geometry(result, k, &g), RPQ_OK);
        ENSURE(g.num_points >= 1 && g.num_points <= 6);
        ENSURE_NEAR(norm(g.normal1), 1.0, 1e-12);
        ENSURE_NEAR(norm(g.normal2), 1.0, 1e-12);
        ENSURE(g.error_bound >= 0 && g.error_bound < 1e-12);
        fprintf(out, "G %d %d %u %u %.17g %.17g %.17g %.17g %.17g %.17g %.17g", pairs[k].id1, pairs[k].id2,
                g.num_points, g.flags, g.error_bound, g.normal1[0], g.normal1[1], g.normal1[2], g.normal2[0],
                g.normal2[1], g.normal2[2]);
        for (uint32_t j = 0; j < g.num_points; j++) {
            fprintf(out, " %.17g %.17g %.17g", g.points[j][0], g.points[j][1], g.points[j][2]);
        }
        fprintf(out, "\n");
    }
    /* The bulk copy equals the per-pair one. */
    {
        size_t m = 0, m0 = 999;
        RpqTriContact *all = calloc(n, sizeof *all);
        ENSURE_EQ_INT(rpq_collide_result_geometries(result, NULL, 0, &m), RPQ_OK);
        ENSURE_EQ_INT(m, n);
        ENSURE_EQ_INT(rpq_collide_result_geometries(result, all, n - 1, &m), RPQ_OK);
        ENSURE(all[0].num_points == 0); /* too small: nothing copied */
        ENSURE_EQ_INT(rpq_collide_result_geometries(result, all, n, &m), RPQ_OK);
        for (size_t k = 0; k < n; k++) {
            ENSURE_EQ_INT(rpq_collide_result_geometry(result, k, &g), RPQ_OK);
            ENSURE(memcmp(&g, &all[k], sizeof g) == 0);
        }
        ENSURE_EQ_INT(rpq_collide_result_geometries(result, all, n, NULL), RPQ_ERR_NULL_POINTER);
        ENSURE_EQ_INT(rpq_collide_result_geometries(result, NULL, 3, &m0), RPQ_ERR_NULL_POINTER);
        ENSURE_EQ_INT(rpq_collide_result_geometries(NULL, all, n, &m0), RPQ_ERR_NULL_POINTER);
        ENSURE(m0 == 999);
        free(all);
    }
    g = untouched;
    ENSURE_EQ_INT(rpq_collide_result_geometry(result, n, &g), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_collide_result_geometry(result, (size_t)-1, &g), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_collide_result_geometry(result, 0, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_collide_result_geometry(NULL, 0, &g), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_collide_result_set_geometry(NULL, 1), RPQ_ERR_NULL_POINTER);
    ENSURE(memcmp(&g, &untouched, sizeof g) == 0);
    /* Switched off again: the next query has none. */
    ENSURE_EQ_INT(rpq_collide_result_set_geometry(result, 0), RPQ_OK);
    ENSURE_EQ_INT(rpq_collide(cube, &p1, cube, &p2, NULL, result), RPQ_OK);
    ENSURE_EQ_INT(rpq_collide_result_geometry(result, 0, &g), RPQ_ERR_INVALID_ARGUMENT);
    {
        size_t m0 = 999;
        ENSURE_EQ_INT(rpq_collide_result_geometries(result, NULL, 0, &m0), RPQ_ERR_INVALID_ARGUMENT);
        ENSURE(m0 == 999);
    }

    /* The contact set: a size query, then the copy. */
    const double tol = 1e-6;
    size_t count = 0, count2 = 0;
    ENSURE_EQ_INT(rpq_contacts(cube, &p1, cube, &p2, tol, NULL, 0, &count), RPQ_OK);
    ENSURE(count > 0);
    RpqContact *contacts = calloc(count, sizeof *contacts);
    RpqContact sentinel;
    memset(&sentinel, 0x5a, sizeof sentinel);
    for (size_t k = 0; k < count; k++) contacts[k] = sentinel;
    /* One too small: sizes reported, nothing copied. */
    ENSURE_EQ_INT(rpq_contacts(cube, &p1, cube, &p2, tol, contacts, count - 1, &count2), RPQ_OK);
    ENSURE_EQ_INT(count2, count);
    ENSURE(memcmp(&contacts[0], &sentinel, sizeof sentinel) == 0);
    ENSURE_EQ_INT(rpq_contacts(cube, &p1, cube, &p2, tol, contacts, count, &count2), RPQ_OK);
    ENSURE_EQ_INT(count2, count);
    for (size_t k = 0; k < count; k++) {
        ENSURE(contacts[k].flags == 0);
        ENSURE_NEAR(norm(contacts[k].normal), 1.0, 1e-12);
        for (size_t j = k + 1; j < count; j++) ENSURE(dist(contacts[k].point, contacts[j].point) > tol);
        fprintf(out, "C %u %u %.17g %.17g %.17g %.17g %.17g %.17g\n", contacts[k].count, contacts[k].flags,
                contacts[k].point[0], contacts[k].point[1], contacts[k].point[2], contacts[k].normal[0],
                contacts[k].normal[1], contacts[k].normal[2]);
    }

    /* The curves: a size query, then the copy. */
    size_t np = 0, nc = 0;
    ENSURE_EQ_INT(rpq_intersection_curves(cube, &p1, cube, &p2, NULL, 0, NULL, 0, &np, &nc), RPQ_OK);
    ENSURE(np > 0 && nc > 0);
    double *pts = malloc(sizeof(double) * 3 * np);
    size_t *off = malloc(sizeof(size_t) * (nc + 1));
    off[0] = 12345;
    size_t np2 = 0, nc2 = 0;
    ENSURE_EQ_INT(rpq_intersection_curves(cube, &p1, cube, &p2, pts, np, off, nc, &np2, &nc2), RPQ_OK);
    ENSURE(np2 == np && nc2 == nc && off[0] == 12345); /* offsets one short: nothing copied */
    ENSURE_EQ_INT(rpq_intersection_curves(cube, &p1, cube, &p2, pts, np, off, nc + 1, &np2, &nc2), RPQ_OK);
    ENSURE(off[0] == 0 && off[nc] == np);
    for (size_t c = 0; c < nc; c++) {
        size_t a = off[c], b = off[c + 1];
        ENSURE(b > a + 2);
        ENSURE(memcmp(&pts[3 * a], &pts[3 * (b - 1)], 3 * sizeof(double)) == 0); /* closed */
        fprintf(out, "L %zu", b - a);
        for (size_t k = a; k < b; k++) fprintf(out, " %.17g %.17g %.17g", pts[3 * k], pts[3 * k + 1], pts[3 * k + 2]);
        fprintf(out, "\n");
    }

    /* Error paths: outputs untouched. */
    RpqModel *dead = box_model(lo, hi, 0);
    rpq_model_free(dead);
    double foreign_bytes[64];
    memset(foreign_bytes, 0, sizeof foreign_bytes);
    RpqModel *foreign = (RpqModel *)(void *)foreign_bytes;
    RpqPose nan_pose = p2, inf_pose = p2, bad_rot = p2, bad_scale = p2, far_pose = p2;
    nan_pose.translation[1] = NAN;
    inf_pose.rotation[0] = INFINITY;
    bad_rot.rotation[0] = 3.0;
    bad_scale.scale = -1.0;
    far_pose.translation[0] = 1e305;
    size_t c0 = 777, n0 = 777;
    const RpqModel *bad_models[3] = {NULL, dead, foreign};
    const int bad_model_status[3] = {RPQ_ERR_NULL_POINTER, RPQ_ERR_INVALID_HANDLE, RPQ_ERR_INVALID_HANDLE};
    for (int k = 0; k < 3; k++) {
        ENSURE_EQ_INT(rpq_contacts(bad_models[k], &p1, cube, &p2, tol, NULL, 0, &c0), bad_model_status[k]);
        ENSURE_EQ_INT(rpq_contacts(cube, &p1, bad_models[k], &p2, tol, NULL, 0, &c0), bad_model_status[k]);
        ENSURE_EQ_INT(rpq_intersection_curves(bad_models[k], &p1, cube, &p2, NULL, 0, NULL, 0, &n0, &c0),
                      bad_model_status[k]);
        ENSURE_EQ_INT(rpq_intersection_curves(cube, &p1, bad_models[k], &p2, NULL, 0, NULL, 0, &n0, &c0),
                      bad_model_status[k]);
    }
    const RpqPose *bad_poses[6] = {NULL, &nan_pose, &inf_pose, &bad_rot, &bad_scale, &far_pose};
    const int bad_pose_status[6] = {RPQ_ERR_NULL_POINTER, RPQ_ERR_NON_FINITE,   RPQ_ERR_NON_FINITE,
                                    RPQ_ERR_NOT_ROTATION, RPQ_ERR_INVALID_SCALE, RPQ_ERR_OUT_OF_RANGE};
    for (int k = 0; k < 6; k++) {
        ENSURE_EQ_INT(rpq_contacts(cube, &p1, cube, bad_poses[k], tol, NULL, 0, &c0), bad_pose_status[k]);
        ENSURE_EQ_INT(rpq_contacts(cube, bad_poses[k], cube, &p1, tol, NULL, 0, &c0), bad_pose_status[k]);
        ENSURE_EQ_INT(rpq_intersection_curves(cube, bad_poses[k], cube, &p2, NULL, 0, NULL, 0, &n0, &c0),
                      bad_pose_status[k]);
    }
    ENSURE_EQ_INT(rpq_contacts(cube, &p1, cube, &p2, NAN, NULL, 0, &c0), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_contacts(cube, &p1, cube, &p2, INFINITY, NULL, 0, &c0), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_contacts(cube, &p1, cube, &p2, -1e-9, NULL, 0, &c0), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_contacts(cube, &p1, cube, &p2, tol, NULL, 0, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_contacts(cube, &p1, cube, &p2, tol, NULL, 5, &c0), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_intersection_curves(cube, &p1, cube, &p2, NULL, 0, NULL, 0, NULL, &c0), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_intersection_curves(cube, &p1, cube, &p2, NULL, 0, NULL, 0, &n0, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_intersection_curves(cube, &p1, cube, &p2, NULL, 3, off, 9, &n0, &c0), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_intersection_curves(cube, &p1, cube, &p2, pts, 3, NULL, 9, &n0, &c0), RPQ_ERR_NULL_POINTER);
    ENSURE(c0 == 777 && n0 == 777);

    RpqCollideResult *dead_result = rpq_collide_result_new();
    rpq_collide_result_free(dead_result);
    RpqCollideResult *foreign_result = (RpqCollideResult *)(void *)foreign_bytes;
    g = untouched;
    ENSURE_EQ_INT(rpq_collide_result_set_geometry(dead_result, 1), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_collide_result_set_geometry(foreign_result, 1), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_collide_result_geometry(dead_result, 0, &g), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_collide_result_geometry(foreign_result, 0, &g), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_collide_result_geometries(dead_result, NULL, 0, &c0), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_collide_result_geometries(foreign_result, NULL, 0, &c0), RPQ_ERR_INVALID_HANDLE);
    ENSURE(memcmp(&g, &untouched, sizeof g) == 0);
    /* A model handle is not a result. */
    ENSURE_EQ_INT(rpq_collide_result_set_geometry((RpqCollideResult *)(void *)cube, 1), RPQ_ERR_INVALID_HANDLE);

    free(pts);
    free(off);
    free(contacts);
    rpq_collide_result_free(result);
    rpq_model_free(cube);
    fclose(out);
    return ENSURE_SUMMARY("contact");
}
