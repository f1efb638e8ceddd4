/*
 * threads.c: the library used from many threads at once, as the documentation allows.
 *
 * - Native queries: threads share two built models and each runs rpq_collide, rpq_distance
 *   (with its own cache) and rpq_tolerance with its own result objects; every answer must
 *   equal the one computed first on the main thread.
 * - Batches: several threads each run rpq_collide_batch / rpq_distance_batch /
 *   rpq_tolerance_batch on the shared models with 2 worker threads of the library's own, and
 *   compare with the single-threaded answers.
 * - The handle registry: threads make and free models, results, legacy models and V-COLLIDE
 *   engines while others keep querying the shared models; freed handles must stay refused.
 * - Serialization: threads serialize a shared model and load their own copies.
 * - V-COLLIDE: one engine per thread (engines are independent).
 * - Contact geometry and self-collision on the shared models: threads run rpq_contacts,
 *   rpq_intersection_curves, rpq_collide with geometry (rpq_collide_result_geometries) and
 *   rpq_self_collide at once; every count must equal the single-threaded one.
 * - A shared deformable sheet, flat (A) or folded through itself (B): two threads keep moving
 *   it between A and B (rpq_model_update_vertices, rpq_model_update_vertex_subset) while
 *   others query it (collide, self-collide, distance, contacts, a batch, degradation) and copy
 *   it into their own n-body worlds (rpq_world_add_model). Every call returns RPQ_OK or
 *   RPQ_ERR_BUSY, never anything else, and every answer given is A's or B's exactly.
 *
 * Run plainly by the test suite, and by scripts/sanitizers.sh under ThreadSanitizer (built with
 * -fsanitize=thread; it instruments this program's side only) and under valgrind's helgrind
 * and DRD. Prints one summary line.
 */
#define _POSIX_C_SOURCE 200809L /* sched_yield */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "rapidpqp.h"

#define THREADS 4
#define POSES 24
#define ROUNDS 6

static RpqModel *model_a, *model_b;
static RpqPose poses[POSES], identity;
static const RpqToleranceRequest tolerance = {0.05, 2};
static size_t want_pairs[POSES];
static double want_distance[POSES];
static int want_closer[POSES];
static pthread_mutex_t ensure_lock = PTHREAD_MUTEX_INITIALIZER;

/* Contact geometry of the shared models at each pose, and their self-collision. */
#define MERGE 0.01
static size_t want_contacts[POSES], want_curve_points[POSES], want_curves[POSES];
static size_t want_self_a, want_self_b;

/* The deformable sheet: SN x SN cells, two triangles each; its two shapes and their answers. */
#define SN 12
#define SV ((SN + 1) * (SN + 1))
#define SF (2 * SN * SN)
static RpqModel *sheet;
static double shape[2][3 * SV];
static uint32_t sheet_faces[3 * SF], sheet_all[SV];
static size_t want_sheet_pairs[2], want_sheet_self[2], want_sheet_contacts[2];
static double want_sheet_distance[2];
static RpqPose sheet_far; /* model_b's pose in the distance query */
static int readers_done;  /* deformable readers finished (under ensure_lock) */
static long sheet_ok, sheet_busy, sheet_updates, sheet_update_busy; /* (under ensure_lock) */

/* ENSURE from several threads: its counters are shared, so each check takes the lock. */
#define CHECK(cond)                           \
    do {                                      \
        int ok_ = (cond);                     \
        pthread_mutex_lock(&ensure_lock);     \
        ENSURE(ok_);                          \
        pthread_mutex_unlock(&ensure_lock);   \
    } while (0)

/* A bumpy torus of n x n quads, two triangles each. */
static RpqModel *torus(int n, double major, double minor) {
    double *tris = malloc(sizeof(double) * 18 * (size_t)n * (size_t)n);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            double p[4][3];
            for (int c = 0; c < 4; c++) {
                int ii = i + (c == 1 || c == 2), jj = j + (c >= 2);
                double u = 6.283185307179586 * ii / n, v = 6.283185307179586 * jj / n;
                double r = major + minor * __builtin_cos(v);
                p[c][0] = r * __builtin_cos(u);
                p[c][1] = r * __builtin_sin(u);
                p[c][2] = minor * __builtin_sin(v);
            }
            const int order[6] = {0, 1, 2, 0, 2, 3};
            for (int c = 0; c < 6; c++) {
                memcpy(tris + k, p[order[c]], sizeof p[0]);
                k += 3;
            }
        }
    }
    RpqModel *m = NULL;
    ENSURE_EQ_INT(rpq_model_build(tris, NULL, 2 * (size_t)n * (size_t)n, &m), RPQ_OK);
    free(tris);
    return m;
}

static RpqPose pose(int k) {
    double a = 0.37 * k, c = __builtin_cos(a), s = __builtin_sin(a);
    RpqPose p = {{c, -s, 0, s, c, 0, 0, 0, 1}, {0.1 * (k % 7) - 0.3, 0.3 * k - 3.5, 0.05 * (k % 3)}, 1.0};
    return p;
}

/* Shape 0 (A): flat but for a ripple; shape 1 (B): the far half folded back over the near
 * half and crossing it, so that non-adjacent triangles intersect. In [-1, 1]^2 around z = 0,
 * across model_a's tube. */
static void sheet_shapes(void) {
    for (int j = 0; j <= SN; j++) {
        for (int i = 0; i <= SN; i++) {
            double u = (double)i / SN, v = (double)j / SN;
            double *a = &shape[0][3 * (j * (SN + 1) + i)], *b = &shape[1][3 * (j * (SN + 1) + i)];
            a[0] = 2 * u - 1;
            a[1] = 2 * v - 1;
            a[2] = 0.05 * __builtin_sin(6 * u);
            b[0] = 2 * u - 1;
            b[1] = v <= 0.5 ? 2 * v - 1 : 2 * (1 - v) - 1;
            b[2] = v <= 0.5 ? 0.0 : 0.6 * (v - 0.5) - 0.1;
        }
    }
    for (uint32_t k = 0; k < SV; k++) sheet_all[k] = k;
    size_t f = 0;
    for (int j = 0; j < SN; j++) {
        for (int i = 0; i < SN; i++) {
            uint32_t p = (uint32_t)(j * (SN + 1) + i), q = p + 1, r = p + SN + 1, t = r + 1;
            uint32_t tri[6] = {p, q, t, p, t, r};
            memcpy(sheet_faces + f, tri, sizeof tri);
            f += 6;
        }
    }
}

/* The sheet's answers as they stand (single-threaded), for shape k. */
static void sheet_answers(int k) {
    RpqCollideResult *r = rpq_collide_result_new();
    RpqDistanceResult d;
    ENSURE_EQ_INT(rpq_collide(sheet, &identity, model_a, &identity, NULL, r), RPQ_OK);
    want_sheet_pairs[k] = rpq_collide_result_num_pairs(r);
    ENSURE_EQ_INT(rpq_self_collide(sheet, NULL, r), RPQ_OK);
    want_sheet_self[k] = rpq_collide_result_num_pairs(r);
    ENSURE_EQ_INT(rpq_distance(sheet, &identity, model_b, &sheet_far, NULL, NULL, &d), RPQ_OK);
    want_sheet_distance[k] = d.distance;
    ENSURE_EQ_INT(rpq_contacts(sheet, &identity, model_a, &identity, MERGE, NULL, 0, &want_sheet_contacts[k]), RPQ_OK);
    rpq_collide_result_free(r);
}

static int sheet_answer(size_t got, const size_t want[2]) {
    return got == want[0] || got == want[1];
}

/* Counts one deformable call: RPQ_OK (then `right` says whether its answer is A's or B's) or
 * RPQ_ERR_BUSY; anything else fails. Busy, the caller gives the writers the processor. */
static void sheet_tally(long *answered, int status, int right) {
    if (status == RPQ_ERR_BUSY) sched_yield();
    pthread_mutex_lock(&ensure_lock);
    ENSURE(status == RPQ_OK || status == RPQ_ERR_BUSY);
    if (status == RPQ_OK) {
        ENSURE(right);
        sheet_ok++;
        ++*answered;
    } else if (status == RPQ_ERR_BUSY) {
        sheet_busy++;
    }
    pthread_mutex_unlock(&ensure_lock);
}

/* Queries of the sheet while it is being updated, until 300 have been answered (a busy one
 * is tried again later). */
static void *sheet_reader(void *arg) {
    uintptr_t kind = (uintptr_t)arg % 3;
    RpqCollideResult *r = rpq_collide_result_new();
    RpqPose batch_poses[4] = {identity, identity, identity, identity};
    uint64_t pairs[4];
    uint8_t colliding[4];
    long answered = 0;
    for (int round = 0; answered < 300; round++) {
        RpqDistanceResult d;
        size_t n = 0;
        int status;
        switch ((round + kind) % 6) {
        case 0:
            status = rpq_collide(sheet, &identity, model_a, &identity, NULL, r);
            sheet_tally(&answered, status, status == RPQ_OK && sheet_answer(rpq_collide_result_num_pairs(r), want_sheet_pairs));
            break;
        case 1:
            status = rpq_self_collide(sheet, NULL, r);
            sheet_tally(&answered, status, status == RPQ_OK && sheet_answer(rpq_collide_result_num_pairs(r), want_sheet_self));
            break;
        case 2:
            status = rpq_distance(sheet, &identity, model_b, &sheet_far, NULL, NULL, &d);
            sheet_tally(&answered, status, status == RPQ_OK && (d.distance == want_sheet_distance[0] ||
                                                     d.distance == want_sheet_distance[1]));
            break;
        case 3:
            status = rpq_contacts(sheet, &identity, model_a, &identity, MERGE, NULL, 0, &n);
            sheet_tally(&answered, status, status == RPQ_OK && sheet_answer(n, want_sheet_contacts));
            break;
        case 4:
            status = rpq_collide_batch(sheet, &identity, 1, model_a, batch_poses, 4, NULL, 2, colliding, pairs);
            sheet_tally(&answered, status, status == RPQ_OK && sheet_answer(pairs[0], want_sheet_pairs) &&
                                    sheet_answer(pairs[3], want_sheet_pairs));
            break;
        default: {
            double g = -1;
            status = rpq_model_degradation(sheet, &g);
            sheet_tally(&answered, status, status == RPQ_OK && g > 0 && g < 1e6);
            /* A copy in a world of this thread's own: taken whole, A's or B's. */
            RpqWorld *w = NULL;
            uint32_t ids[2];
            CHECK(rpq_world_new(&w) == RPQ_OK);
            CHECK(rpq_world_add_model(w, model_a, &ids[0]) == RPQ_OK);
            status = rpq_world_add_model(w, sheet, &ids[1]);
            sheet_tally(&answered, status, 1);
            if (status == RPQ_OK) {
                RpqObjectContact c;
                CHECK(rpq_world_collide(w, 0, &n) == RPQ_OK);
                CHECK(n == 1);
                if (n == 1) {
                    CHECK(rpq_world_contact(w, 0, &c) == RPQ_OK);
                    CHECK(c.id1 == ids[0] && c.id2 == ids[1]);
                    CHECK(sheet_answer(c.num_tri_pairs, want_sheet_pairs));
                }
            }
            rpq_world_free(w);
        }
        }
    }
    rpq_collide_result_free(r);
    pthread_mutex_lock(&ensure_lock);
    readers_done++;
    pthread_mutex_unlock(&ensure_lock);
    return NULL;
}

/* Moves the sheet between its shapes until the readers are done (and at least 100 times):
 * arg 0 with whole updates, arg 1 with subset updates of every vertex. */
static void *sheet_writer(void *arg) {
    int subset = (uintptr_t)arg != 0;
    for (int round = 0;; round++) {
        pthread_mutex_lock(&ensure_lock);
        int done = readers_done == 3 && sheet_updates >= 100;
        pthread_mutex_unlock(&ensure_lock);
        if (done) break;
        const double *to = shape[round % 2];
        RpqRefitReport report;
        int status = subset ? rpq_model_update_vertex_subset(sheet, sheet_all, to, SV, &report)
                            : rpq_model_update_vertices(sheet, to, SV, &report);
        pthread_mutex_lock(&ensure_lock);
        ENSURE(status == RPQ_OK || status == RPQ_ERR_BUSY);
        if (status == RPQ_OK) sheet_updates++;
        if (status == RPQ_ERR_BUSY) sheet_update_busy++;
        pthread_mutex_unlock(&ensure_lock);
        if (round % 8 == 7) sched_yield(); /* let the readers in now and then: both sides should get both outcomes */
    }
    return NULL;
}

/* Contact geometry and self-collision of the shared (rigid) models from many threads. */
static void *geometry(void *arg) {
    (void)arg;
    RpqCollideResult *r = rpq_collide_result_new();
    CHECK(rpq_collide_result_set_geometry(r, 1) == RPQ_OK);
    RpqContact contacts[512];
    for (int round = 0; round < ROUNDS / 2; round++) {
        for (int k = 0; k < POSES; k++) {
            size_t n = 0, points = 0, curves = 0;
            CHECK(rpq_contacts(model_a, &identity, model_b, &poses[k], MERGE, contacts, 512, &n) == RPQ_OK);
            CHECK(n == want_contacts[k]);
            CHECK(rpq_intersection_curves(model_a, &identity, model_b, &poses[k], NULL, 0, NULL, 0, &points,
                                          &curves) == RPQ_OK);
            CHECK(points == want_curve_points[k] && curves == want_curves[k]);
            CHECK(rpq_collide(model_a, &identity, model_b, &poses[k], NULL, r) == RPQ_OK);
            CHECK(rpq_collide_result_geometries(r, NULL, 0, &n) == RPQ_OK);
            CHECK(n == want_pairs[k] && rpq_collide_result_num_pairs(r) == want_pairs[k]);
        }
        CHECK(rpq_self_collide(model_a, NULL, r) == RPQ_OK);
        CHECK(rpq_collide_result_num_pairs(r) == want_self_a);
        CHECK(rpq_self_collide(model_b, NULL, r) == RPQ_OK);
        CHECK(rpq_collide_result_num_pairs(r) == want_self_b);
    }
    rpq_collide_result_free(r);
    return NULL;
}

static void *queries(void *arg) {
    (void)arg;
    RpqCollideResult *r = rpq_collide_result_new();
    RpqDistanceCache cache;
    memset(&cache, 0, sizeof cache);
    for (int round = 0; round < ROUNDS; round++) {
        for (int k = 0; k < POSES; k++) {
            RpqDistanceResult d;
            CHECK(rpq_collide(model_a, &identity, model_b, &poses[k], NULL, r) == RPQ_OK);
            CHECK(rpq_collide_result_num_pairs(r) == want_pairs[k]);
            CHECK(rpq_distance(model_a, &identity, model_b, &poses[k], NULL, &cache, &d) == RPQ_OK);
            CHECK(fabs(d.distance - want_distance[k]) <= 1e-12);
            CHECK(rpq_tolerance(model_a, &identity, model_b, &poses[k], &tolerance, &d) == RPQ_OK);
            CHECK(d.closer == want_closer[k]);
        }
    }
    rpq_collide_result_free(r);
    return NULL;
}

static void *batches(void *arg) {
    (void)arg;
    uint8_t colliding[POSES], closer[POSES];
    uint64_t pairs[POSES];
    double distance[POSES], p1[3 * POSES], p2[3 * POSES];
    for (int round = 0; round < ROUNDS / 2; round++) {
        CHECK(rpq_collide_batch(model_a, &identity, 1, model_b, poses, POSES, NULL, 2, colliding, pairs) == RPQ_OK);
        CHECK(rpq_distance_batch(model_a, &identity, 1, model_b, poses, POSES, NULL, round % 2, 2, distance, p1, p2) ==
              RPQ_OK);
        CHECK(rpq_tolerance_batch(model_a, &identity, 1, model_b, poses, POSES, &tolerance, 2, closer, NULL, NULL, NULL) ==
              RPQ_OK);
        for (int k = 0; k < POSES; k++) {
            CHECK(pairs[k] == want_pairs[k] && colliding[k] == (want_pairs[k] > 0));
            CHECK(fabs(distance[k] - want_distance[k]) <= 1e-12);
            CHECK(closer[k] == want_closer[k]);
        }
    }
    return NULL;
}

static void *churn(void *arg) {
    const double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uintptr_t seed = (uintptr_t)arg;
    for (int round = 0; round < 200; round++) {
        RpqModel *m = NULL;
        CHECK(rpq_model_build(tri, NULL, 1, &m) == RPQ_OK);
        RpqCollideResult *r = rpq_collide_result_new();
        PQP_Model *pqp = PQP_Model_new();
        RAPID_model *rapid = RAPID_model_new();
        void *vc = vcOpen();
        CHECK(rpq_collide(m, &identity, model_a, &poses[(seed + round) % POSES], NULL, r) == RPQ_OK);
        CHECK(PQP_AddTri(pqp, tri, tri + 3, tri + 6, round) == PQP_OK);
        CHECK(RAPID_BeginModel(rapid) == RAPID_OK);
        rpq_model_free(m);
        rpq_collide_result_free(r);
        PQP_Model_delete(pqp);
        RAPID_model_delete(rapid);
        vcClose(vc);
        /* Freed handles are refused, whatever other threads make meanwhile. */
        CHECK(rpq_model_num_triangles(m) == 0);
        CHECK(rpq_collide(m, &identity, model_a, &identity, NULL, r) == RPQ_ERR_INVALID_HANDLE);
        CHECK(PQP_EndModel(pqp) == PQP_ERR_INVALID_MODEL);
        CHECK(vcCollide(vc) == VC_ERR_INVALID_HANDLE);
    }
    return NULL;
}

static void *serialization(void *arg) {
    (void)arg;
    size_t size = rpq_model_serialized_size(model_b);
    unsigned char *buf = malloc(size);
    for (int round = 0; round < ROUNDS; round++) {
        RpqModel *copy = NULL;
        RpqCollideResult *r = rpq_collide_result_new();
        CHECK(rpq_model_serialize(model_b, buf, size, NULL) == RPQ_OK);
        CHECK(rpq_model_deserialize(buf, size, &copy) == RPQ_OK);
        CHECK(rpq_collide(model_a, &identity, copy, &poses[round], NULL, r) == RPQ_OK);
        CHECK(rpq_collide_result_num_pairs(r) == want_pairs[round]);
        rpq_collide_result_free(r);
        rpq_model_free(copy);
    }
    free(buf);
    return NULL;
}

static void *vcollide(void *arg) {
    (void)arg;
    const double a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {0, 1, 0};
    for (int round = 0; round < 20; round++) {
        void *vc = vcOpen();
        int ids[2];
        for (int k = 0; k < 2; k++) {
            CHECK(vcNewObject(vc, &ids[k]) == VC_OK);
            CHECK(vcAddTri(vc, (double *)a, (double *)b, (double *)c) == VC_OK);
            CHECK(vcEndObject(vc) == VC_OK);
        }
        double t[4][4] = {{1, 0, 0, 0.25}, {0, 0, -1, 0.25}, {0, 1, 0, 0}, {0, 0, 0, 1}};
        CHECK(vcUpdateTrans(vc, ids[1], t) == VC_OK);
        CHECK(vcCollide(vc) == VC_OK);
        CHECK(vcReport(vc, 0, NULL) == 1);
        vcClose(vc);
    }
    return NULL;
}

int main(void) {
    RpqPose id = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}, 1.0};
    identity = id;
    model_a = torus(16, 1.0, 0.3);
    model_b = torus(12, 0.8, 0.25);
    RpqCollideResult *r = rpq_collide_result_new();
    int some = 0;
    for (int k = 0; k < POSES; k++) {
        RpqDistanceResult d;
        poses[k] = pose(k);
        ENSURE_EQ_INT(rpq_collide(model_a, &identity, model_b, &poses[k], NULL, r), RPQ_OK);
        want_pairs[k] = rpq_collide_result_num_pairs(r);
        some += want_pairs[k] > 0;
        ENSURE_EQ_INT(rpq_distance(model_a, &identity, model_b, &poses[k], NULL, NULL, &d), RPQ_OK);
        want_distance[k] = d.distance;
        ENSURE_EQ_INT(rpq_tolerance(model_a, &identity, model_b, &poses[k], &tolerance, &d), RPQ_OK);
        want_closer[k] = d.closer;
    }
    ENSURE(some > 0 && some < POSES);
    for (int k = 0; k < POSES; k++) {
        ENSURE_EQ_INT(rpq_contacts(model_a, &identity, model_b, &poses[k], MERGE, NULL, 0, &want_contacts[k]), RPQ_OK);
        ENSURE_EQ_INT(rpq_intersection_curves(model_a, &identity, model_b, &poses[k], NULL, 0, NULL, 0,
                                              &want_curve_points[k], &want_curves[k]),
                      RPQ_OK);
        ENSURE((want_contacts[k] > 0) == (want_pairs[k] > 0));
    }
    ENSURE_EQ_INT(rpq_self_collide(model_a, NULL, r), RPQ_OK);
    want_self_a = rpq_collide_result_num_pairs(r);
    ENSURE_EQ_INT(rpq_self_collide(model_b, NULL, r), RPQ_OK);
    want_self_b = rpq_collide_result_num_pairs(r);
    rpq_collide_result_free(r);

    /* The sheet's answers in both shapes (they must differ, or the race proves little). */
    RpqPose far = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0.2, -0.1, 1.2}, 1.0};
    sheet_far = far;
    sheet_shapes();
    ENSURE_EQ_INT(rpq_model_build_deformable(shape[1], SV, sheet_faces, SF, NULL, &sheet), RPQ_OK);
    sheet_answers(1);
    ENSURE_EQ_INT(rpq_model_update_vertices(sheet, shape[0], SV, NULL), RPQ_OK);
    sheet_answers(0);
    ENSURE(want_sheet_self[0] == 0 && want_sheet_self[1] > 0);
    ENSURE(want_sheet_pairs[0] > 0 && want_sheet_pairs[1] > 0 && want_sheet_pairs[0] != want_sheet_pairs[1]);
    ENSURE(want_sheet_distance[0] != want_sheet_distance[1]);

    void *(*work[])(void *) = {queries,  queries,      batches,      churn,        churn,        serialization,
                               vcollide, queries,      batches,      geometry,     geometry,     sheet_reader,
                               sheet_reader, sheet_reader, sheet_writer, sheet_writer};
    enum { N = sizeof work / sizeof work[0] };
    pthread_t threads[N];
    int created[N], joined[N];
    /* (No ENSURE while the workers run: its counters are theirs, under the lock.) */
    for (int k = 0; k < N; k++) {
        /* The sheet's readers and writers are told apart by their argument. */
        uintptr_t arg = work[k] == sheet_writer ? (uintptr_t)(k == N - 1) : (uintptr_t)k;
        created[k] = pthread_create(&threads[k], NULL, work[k], (void *)arg);
    }
    for (int k = 0; k < N; k++) {
        joined[k] = created[k] == 0 ? pthread_join(threads[k], NULL) : -1;
    }
    for (int k = 0; k < N; k++) {
        ENSURE_EQ_INT(created[k], 0);
        ENSURE_EQ_INT(joined[k], 0);
    }
    /* Every sheet call was counted; updates ran; once all are done, nothing is left held. */
    ENSURE(sheet_ok > 0 && sheet_updates >= 100);
    ENSURE_EQ_INT(rpq_model_update_vertices(sheet, shape[1], SV, NULL), RPQ_OK);
    sheet_answers(1);
    rpq_model_free(sheet);
    rpq_model_free(model_a);
    rpq_model_free(model_b);
    return ENSURE_SUMMARY("threads");
}
