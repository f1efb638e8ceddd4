/*
 * refit.c: the C API of deformable models (rpq_model_build_deformable,
 * rpq_model_update_vertices, rpq_model_update_vertex_subset, rpq_model_rebuild,
 * rpq_model_degradation, rpq_model_set_rebuild_threshold, rpq_model_num_vertices), driven by
 * tests/c_refit.rs.
 *
 * - A UV sphere wobbling frame after frame against a fixed box: after every update, collide
 *   pairs equal those of a model built afresh (rpq_model_build_indexed) from the same
 *   positions, and so do exact distances; a subset update equals the full one.
 * - Every error path: NULL, freed, legacy (PQP_Model, RAPID_model) and non-deformable
 *   handles; NULL arrays, wrong counts, NaN, infinity, out of range, bad and repeated
 *   indices, bad thresholds. The model and the report must be untouched on error.
 * - Two threads, one updating and one querying the same model: every call returns RPQ_OK or
 *   RPQ_ERR_BUSY, and every answer that is given is a valid one.
 *
 * Prints one summary line on success.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "rapidpqp.h"
#include "native_shapes.h"

enum { NU = 16, NV = 10 };
#define NVERT (2 + (NV - 1) * NU)
#define NFACE (2 * NU * (NV - 1))

static uint32_t faces[3 * NFACE];
static double rest[3 * NVERT];

/* A UV sphere of radius 1 about the origin (outward normals). */
static void make_sphere(void) {
    const double pi = 3.14159265358979323846;
    size_t k = 0;
#define RING(i, j) ((uint32_t)(1 + ((i) - 1) * NU + ((j) % NU)))
    rest[0] = 0, rest[1] = 0, rest[2] = 1;
    for (int i = 1; i < NV; i++) {
        for (int j = 0; j < NU; j++) {
            double th = pi * i / NV, ph = 2 * pi * j / NU;
            uint32_t idx = RING(i, j);
            rest[3 * idx] = sin(th) * cos(ph);
            rest[3 * idx + 1] = sin(th) * sin(ph);
            rest[3 * idx + 2] = cos(th);
        }
    }
    rest[3 * (NVERT - 1)] = 0, rest[3 * (NVERT - 1) + 1] = 0, rest[3 * (NVERT - 1) + 2] = -1;
    for (int j = 0; j < NU; j++) {
        uint32_t cap[6] = {0, RING(1, j), RING(1, j + 1), RING(NV - 1, j + 1), RING(NV - 1, j), NVERT - 1};
        memcpy(faces + k, cap, sizeof cap);
        k += 6;
    }
    for (int i = 1; i < NV - 1; i++) {
        for (int j = 0; j < NU; j++) {
            uint32_t q[6] = {RING(i, j), RING(i + 1, j), RING(i + 1, j + 1), RING(i, j), RING(i + 1, j + 1), RING(i, j + 1)};
            memcpy(faces + k, q, sizeof q);
            k += 6;
        }
    }
#undef RING
}

/* The rest positions moved by a smooth field at time t. */
static void wobble(double t, double *out) {
    for (int v = 0; v < NVERT; v++) {
        const double *p = rest + 3 * v;
        double s = 0.15 * sin(3.0 * p[0] + 2.0 * p[1] + t) + 0.1 * sin(4.0 * p[2] - 1.3 * t);
        out[3 * v] = p[0] * (1 + s) + 0.05 * t;
        out[3 * v + 1] = p[1] * (1 - 0.5 * s);
        out[3 * v + 2] = p[2] + 0.1 * sin(2.0 * p[0] + t);
    }
}

static int compare_pairs(const void *a, const void *b) {
    const RpqContactPair *x = a, *y = b;
    if (x->id1 != y->id1) return x->id1 < y->id1 ? -1 : 1;
    return (x->id2 > y->id2) - (x->id2 < y->id2);
}

/* Sorted contact pairs of (m1, m2) at poses (p1, p2) into *out (malloc'd); returns the count. */
static size_t contacts(const RpqModel *m1, const RpqPose *p1, const RpqModel *m2, const RpqPose *p2, RpqCollideResult *r,
                       RpqContactPair **out) {
    RpqCollideRequest req;
    memset(&req, 0, sizeof req);
    ENSURE_EQ_INT(rpq_collide(m1, p1, m2, p2, &req, r), RPQ_OK);
    size_t n = rpq_collide_result_num_pairs(r);
    *out = malloc(sizeof(RpqContactPair) * (n + 1));
    if (n) memcpy(*out, rpq_collide_result_pairs(r), sizeof(RpqContactPair) * n);
    qsort(*out, n, sizeof(RpqContactPair), compare_pairs);
    return n;
}

static double exact_distance(const RpqModel *m1, const RpqPose *p1, const RpqModel *m2, const RpqPose *p2) {
    RpqDistanceRequest req;
    RpqDistanceResult res;
    memset(&req, 0, sizeof req);
    ENSURE_EQ_INT(rpq_distance(m1, p1, m2, p2, &req, NULL, &res), RPQ_OK);
    return res.distance;
}

/* The deformable model answers as a fresh build of `positions`. */
static void check_against_fresh(const RpqModel *m, const double *positions, const RpqModel *other,
                                RpqCollideResult *r) {
    RpqModel *fresh = NULL;
    ENSURE_EQ_INT(rpq_model_build_indexed(positions, NVERT, faces, NFACE, NULL, &fresh), RPQ_OK);
    for (int k = 0; k < 4; k++) {
        RpqPose p1 = pose_at(0, 0, 0), p2 = pose_at(0.4 * k - 0.2, 0.3, 0.1 * k);
        RpqContactPair *a, *b;
        size_t na = contacts(m, &p1, other, &p2, r, &a), nb = contacts(fresh, &p1, other, &p2, r, &b);
        ENSURE_EQ_INT(na, nb);
        ENSURE(na == nb && memcmp(a, b, sizeof(RpqContactPair) * na) == 0);
        free(a);
        free(b);
        RpqPose far = pose_at(3.0 + k, 0.5, 0.0);
        double d = exact_distance(m, &p1, other, &far), df = exact_distance(fresh, &p1, other, &far);
        ENSURE_NEAR(d, df, 1e-12);
    }
    rpq_model_free(fresh);
}

static void frames(void) {
    RpqModel *m = NULL, *subset = NULL;
    double lo[3] = {0.6, -0.3, -0.3}, hi[3] = {1.4, 0.3, 0.3};
    RpqModel *other = box_model(lo, hi, 0);
    RpqCollideResult *r = rpq_collide_result_new();
    double pos[3 * NVERT], prev[3 * NVERT];
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, &m), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, &subset), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_num_vertices(m), NVERT);
    ENSURE_EQ_INT(rpq_model_num_triangles(m), NFACE);
    double d = 0;
    ENSURE_EQ_INT(rpq_model_degradation(m, &d), RPQ_OK);
    ENSURE(d == 1.0);
    ENSURE_EQ_INT(rpq_model_set_rebuild_threshold(m, INFINITY), RPQ_OK);
    memcpy(prev, rest, sizeof prev);
    int contacts_seen = 0;
    for (int f = 1; f <= 10; f++) {
        RpqRefitReport rep = {-1, -1};
        wobble(0.4 * f, pos);
        ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, NVERT, &rep), RPQ_OK);
        ENSURE(rep.degradation >= 1.0 && isfinite(rep.degradation) && rep.rebuilt == 0);
        check_against_fresh(m, pos, other, r);
        /* The same move as a subset: the vertices that changed. */
        uint32_t idx[NVERT];
        double moved[3 * NVERT];
        size_t n = 0;
        for (uint32_t v = 0; v < NVERT; v++) {
            if (memcmp(pos + 3 * v, prev + 3 * v, 3 * sizeof(double)) != 0) {
                idx[n] = v;
                memcpy(moved + 3 * n, pos + 3 * v, 3 * sizeof(double));
                n++;
            }
        }
        ENSURE_EQ_INT(rpq_model_update_vertex_subset(subset, idx, moved, n, NULL), RPQ_OK);
        check_against_fresh(subset, pos, other, r);
        RpqPose id = pose_at(0, 0, 0);
        RpqContactPair *a;
        contacts_seen += (int)contacts(m, &id, other, &id, r, &a);
        free(a);
        memcpy(prev, pos, sizeof prev);
    }
    ENSURE(contacts_seen > 0);
    /* A rebuild on request resets the degradation, and changes no answer. */
    ENSURE_EQ_INT(rpq_model_rebuild(m), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_degradation(m, &d), RPQ_OK);
    ENSURE(d == 1.0);
    check_against_fresh(m, pos, other, r);
    /* Past a threshold of 1 an update rebuilds. */
    RpqRefitReport rep = {0, 0};
    ENSURE_EQ_INT(rpq_model_set_rebuild_threshold(m, 1.0), RPQ_OK);
    wobble(7.0, pos);
    ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, NVERT, &rep), RPQ_OK);
    ENSURE(rep.rebuilt == 1 && rep.degradation > 1.0);
    check_against_fresh(m, pos, other, r);
    rpq_collide_result_free(r);
    rpq_model_free(m);
    rpq_model_free(subset);
    rpq_model_free(other);
}

/* What must not change on a refused call: a distance and the degradation. */
typedef struct {
    double distance, degradation;
} Fingerprint;

static Fingerprint fingerprint(const RpqModel *m, const RpqModel *other) {
    Fingerprint f;
    RpqPose p1 = pose_at(0, 0, 0), p2 = pose_at(2.7, 0.4, 0.1);
    f.distance = exact_distance(m, &p1, other, &p2);
    ENSURE_EQ_INT(rpq_model_degradation(m, &f.degradation), RPQ_OK);
    return f;
}

static void errors(void) {
    RpqModel *m = NULL, *plain = NULL, *freed = NULL, *out = (RpqModel *)0x1;
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    RpqModel *other = box_model(lo, hi, 0);
    double pos[3 * NVERT], d = 42.0;
    uint32_t bad_faces[3] = {0, 1, NVERT};
    RpqRefitReport rep = {-7.0, -7};

    /* Building. */
    ENSURE_EQ_INT(rpq_model_build_deformable(NULL, NVERT, faces, NFACE, NULL, &out), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, NULL, NFACE, NULL, &out), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, 0, NULL, &out), RPQ_ERR_EMPTY_MODEL);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, bad_faces, 1, NULL, &out), RPQ_ERR_INVALID_ARGUMENT);
    memcpy(pos, rest, sizeof pos);
    pos[3 * (NVERT - 1)] = NAN;
    ENSURE_EQ_INT(rpq_model_build_deformable(pos, NVERT, faces, NFACE, NULL, &out), RPQ_ERR_NON_FINITE);
    pos[3 * (NVERT - 1)] = 1e302;
    ENSURE_EQ_INT(rpq_model_build_deformable(pos, NVERT, faces, NFACE, NULL, &out), RPQ_ERR_OUT_OF_RANGE);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, SIZE_MAX / 2, faces, NFACE, NULL, &out), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE(out == (RpqModel *)0x1);

    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, &m), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_build_indexed(rest, NVERT, faces, NFACE, NULL, &plain), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, &freed), RPQ_OK);
    rpq_model_free(freed);
    wobble(1.0, pos);
    ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, NVERT, NULL), RPQ_OK);
    Fingerprint before = fingerprint(m, other);

    /* Handles: NULL, freed, not deformable, legacy, another kind. */
    PQP_Model *pqp = PQP_Model_new();
    RAPID_model *rapid = RAPID_model_new();
    RpqCollideResult *result = rpq_collide_result_new();
    RpqModel *not_models[4] = {freed, (RpqModel *)pqp, (RpqModel *)rapid, (RpqModel *)result};
    ENSURE_EQ_INT(rpq_model_update_vertices(NULL, pos, NVERT, &rep), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_update_vertex_subset(NULL, NULL, NULL, 0, &rep), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_rebuild(NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_degradation(NULL, &d), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_set_rebuild_threshold(NULL, 2.0), RPQ_ERR_NULL_POINTER);
    for (int k = 0; k < 4; k++) {
        ENSURE_EQ_INT(rpq_model_update_vertices(not_models[k], pos, NVERT, &rep), RPQ_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(rpq_model_update_vertex_subset(not_models[k], NULL, NULL, 0, &rep), RPQ_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(rpq_model_rebuild(not_models[k]), RPQ_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(rpq_model_degradation(not_models[k], &d), RPQ_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(rpq_model_set_rebuild_threshold(not_models[k], 2.0), RPQ_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(rpq_model_num_vertices(not_models[k]), 0);
    }
    ENSURE_EQ_INT(rpq_model_update_vertices(plain, pos, NVERT, &rep), RPQ_ERR_NOT_DEFORMABLE);
    ENSURE_EQ_INT(rpq_model_update_vertex_subset(plain, NULL, NULL, 0, &rep), RPQ_ERR_NOT_DEFORMABLE);
    ENSURE_EQ_INT(rpq_model_rebuild(plain), RPQ_ERR_NOT_DEFORMABLE);
    ENSURE_EQ_INT(rpq_model_degradation(plain, &d), RPQ_ERR_NOT_DEFORMABLE);
    ENSURE_EQ_INT(rpq_model_set_rebuild_threshold(plain, 2.0), RPQ_ERR_NOT_DEFORMABLE);
    ENSURE_EQ_INT(rpq_model_num_vertices(plain), 0);
    ENSURE(strstr(rpq_status_message(RPQ_ERR_NOT_DEFORMABLE), "deformable") != NULL);
    ENSURE(strstr(rpq_status_message(RPQ_ERR_BUSY), "in use") != NULL);

    /* Arguments. */
    ENSURE_EQ_INT(rpq_model_update_vertices(m, NULL, NVERT, &rep), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, NVERT - 1, &rep), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, NVERT + 1, &rep), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, 0, &rep), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, SIZE_MAX, &rep), RPQ_ERR_INVALID_ARGUMENT);
    double bad[3] = {NAN, INFINITY, 1e302};
    int want[3] = {RPQ_ERR_NON_FINITE, RPQ_ERR_NON_FINITE, RPQ_ERR_OUT_OF_RANGE};
    for (int k = 0; k < 3; k++) {
        double saved = pos[3 * 5 + 1];
        pos[3 * 5 + 1] = bad[k];
        ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, NVERT, &rep), want[k]);
        uint32_t one = 5;
        ENSURE_EQ_INT(rpq_model_update_vertex_subset(m, &one, pos + 15, 1, &rep), want[k]);
        pos[3 * 5 + 1] = saved;
    }
    uint32_t idx[3] = {1, 2, NVERT};
    double three[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    ENSURE_EQ_INT(rpq_model_update_vertex_subset(m, idx, three, 3, &rep), RPQ_ERR_INVALID_ARGUMENT);
    idx[2] = 1;
    ENSURE_EQ_INT(rpq_model_update_vertex_subset(m, idx, three, 3, &rep), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_model_update_vertex_subset(m, NULL, three, 3, &rep), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_update_vertex_subset(m, idx, NULL, 3, &rep), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_update_vertex_subset(m, idx, three, SIZE_MAX, &rep), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_model_set_rebuild_threshold(m, 0.5), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_model_set_rebuild_threshold(m, NAN), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_model_set_rebuild_threshold(m, -INFINITY), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_model_degradation(m, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE(rep.degradation == -7.0 && rep.rebuilt == -7);
    ENSURE(d == 42.0);
    Fingerprint after = fingerprint(m, other);
    ENSURE(after.distance == before.distance && after.degradation == before.degradation);
    /* The same positions again: accepted, the same answers. */
    ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, NVERT, &rep), RPQ_OK);
    ENSURE(fingerprint(m, other).distance == before.distance);

    PQP_Model_delete(pqp);
    RAPID_model_delete(rapid);
    rpq_collide_result_free(result);
    rpq_model_free(m);
    rpq_model_free(plain);
    rpq_model_free(other);
}

/* One thread updates while another queries: only RPQ_OK and RPQ_ERR_BUSY, valid answers. */
typedef struct {
    RpqModel *model;
    const RpqModel *other;
    int ok, busy, wrong, done;
} Shared;

static void *querier(void *arg) {
    Shared *s = arg;
    RpqPose p1 = pose_at(0, 0, 0), p2 = pose_at(4.0, 0, 0);
    RpqDistanceRequest req;
    RpqDistanceResult res;
    memset(&req, 0, sizeof req);
    for (int k = 0; k < 3000; k++) {
        int st = rpq_distance(s->model, &p1, s->other, &p2, &req, NULL, &res);
        if (st == RPQ_OK && res.distance > 0.5 && res.distance < 4.0) s->ok++;
        else if (st == RPQ_ERR_BUSY) s->busy++;
        else s->wrong++;
    }
    __atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void threads(void) {
    double lo[3] = {-0.5, -0.5, -0.5}, hi[3] = {0.5, 0.5, 0.5};
    RpqModel *other = box_model(lo, hi, 0), *m = NULL;
    double pos[3 * NVERT];
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, &m), RPQ_OK);
    Shared s = {m, other, 0, 0, 0, 0};
    pthread_t t;
    ENSURE(pthread_create(&t, NULL, querier, &s) == 0);
    int updated = 0, busy = 0, wrong = 0;
    /* At least 300 updates, and on while the queries run. */
    int k = 0;
    for (; k < 300 || !__atomic_load_n(&s.done, __ATOMIC_ACQUIRE); k++) {
        wobble(0.01 * (k % 300), pos);
        int st = rpq_model_update_vertices(m, pos, NVERT, NULL);
        if (st == RPQ_OK) updated++;
        else if (st == RPQ_ERR_BUSY) busy++;
        else wrong++;
    }
    pthread_join(t, NULL);
    ENSURE_EQ_INT(wrong, 0);
    ENSURE_EQ_INT(s.wrong, 0);
    /* How the 3000 queries and the updates interleaved is the scheduler's choice, so the race
     * checks only that every call either ran correctly or was refused as busy. Once both
     * threads are done, nothing is left held: an update and a query both run. */
    ENSURE_EQ_INT(s.ok + s.busy, 3000);
    ENSURE_EQ_INT(updated + busy, k);
    ENSURE_EQ_INT(rpq_model_update_vertices(m, pos, NVERT, NULL), RPQ_OK);
    {
        RpqPose p1 = pose_at(0, 0, 0), p2 = pose_at(4.0, 0, 0);
        RpqDistanceRequest req;
        RpqDistanceResult res;
        memset(&req, 0, sizeof req);
        ENSURE_EQ_INT(rpq_distance(m, &p1, other, &p2, &req, NULL, &res), RPQ_OK);
        ENSURE(res.distance > 0.5 && res.distance < 4.0);
    }
    rpq_model_free(m);
    rpq_model_free(other);
}

/* The k-DOP option: two k-DOP models a translation apart (the k-DOP trees), and rotated or
 * measured (the boxes, refitted lazily), answer as the same models without it; refusals. */
static void kdop(void) {
    RpqModel *a = NULL, *b = NULL, *ab = NULL, *bb = NULL, *plain = NULL;
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, &a), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, &b), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, &ab), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_build_deformable(rest, NVERT, faces, NFACE, NULL, &bb), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_build_indexed(rest, NVERT, faces, NFACE, NULL, &plain), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_is_kdop(a), 0);
    ENSURE_EQ_INT(rpq_model_set_kdop(a, 1), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_set_kdop(b, 1), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_is_kdop(a), 1);
    RpqModel *all[4] = {a, b, ab, bb};
    for (int m = 0; m < 4; m++) ENSURE_EQ_INT(rpq_model_set_rebuild_threshold(all[m], INFINITY), RPQ_OK);
    RpqCollideResult *r = rpq_collide_result_new();
    double pos[3 * NVERT];
    size_t seen = 0;
    for (int f = 0; f < 8; f++) {
        wobble(0.5 * f, pos);
        for (int m = 0; m < 4; m++) ENSURE_EQ_INT(rpq_model_update_vertices(all[m], pos, NVERT, NULL), RPQ_OK);
        RpqPose p1 = pose_at(0, 0, 0), shifted = pose_at(0.7 - 0.05 * f, 0.1, 0.0), turned = shifted;
        turned.rotation[0] = 0.0; turned.rotation[1] = -1.0; turned.rotation[3] = 1.0; turned.rotation[4] = 0.0; /* a quarter turn */
        RpqPose *poses[2] = {&shifted, &turned};
        for (int k = 0; k < 2; k++) {
            RpqContactPair *x, *y;
            size_t nx = contacts(a, &p1, b, poses[k], r, &x), ny = contacts(ab, &p1, bb, poses[k], r, &y);
            ENSURE_EQ_INT(nx, ny);
            ENSURE(nx == ny && memcmp(x, y, sizeof(RpqContactPair) * nx) == 0);
            seen += nx;
            free(x);
            free(y);
        }
        RpqPose far = pose_at(3.0, 0.5, 0.0);
        ENSURE(exact_distance(a, &p1, b, &far) == exact_distance(ab, &p1, bb, &far));
        ENSURE_EQ_INT(rpq_self_collide(a, NULL, r), RPQ_OK);
        size_t self_k = rpq_collide_result_num_pairs(r);
        ENSURE_EQ_INT(rpq_self_collide(ab, NULL, r), RPQ_OK);
        ENSURE_EQ_INT(self_k, rpq_collide_result_num_pairs(r));
    }
    ENSURE(seen > 0);
    ENSURE_EQ_INT(rpq_model_set_kdop(a, 0), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_is_kdop(a), 0);
    /* Refused: not deformable, NULL, freed; the answers say 0. */
    ENSURE_EQ_INT(rpq_model_set_kdop(plain, 1), RPQ_ERR_NOT_DEFORMABLE);
    ENSURE_EQ_INT(rpq_model_is_kdop(plain), 0);
    ENSURE_EQ_INT(rpq_model_set_kdop(NULL, 1), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_model_is_kdop(NULL), 0);
    rpq_model_free(a);
    ENSURE_EQ_INT(rpq_model_set_kdop(a, 1), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_model_is_kdop(a), 0);
    rpq_collide_result_free(r);
    rpq_model_free(b);
    rpq_model_free(ab);
    rpq_model_free(bb);
    rpq_model_free(plain);
}

int main(void) {
    make_sphere();
    frames();
    errors();
    threads();
    kdop();
    return ENSURE_SUMMARY("refit");
}
