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
 *
 * Run plainly by the test suite, and by scripts/sanitizers.sh under ThreadSanitizer (built with
 * -fsanitize=thread; it instruments this program's side only) and under valgrind's helgrind
 * and DRD. Prints one summary line.
 */
#include <pthread.h>
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
    rpq_collide_result_free(r);

    void *(*work[])(void *) = {queries, queries, batches, churn, churn, serialization, vcollide, queries, batches};
    enum { N = sizeof work / sizeof work[0] };
    pthread_t threads[N];
    int created[N], joined[N];
    /* (No ENSURE while the workers run: its counters are theirs, under the lock.) */
    for (int k = 0; k < N; k++) {
        created[k] = pthread_create(&threads[k], NULL, work[k], (void *)(uintptr_t)k);
    }
    for (int k = 0; k < N; k++) {
        joined[k] = created[k] == 0 ? pthread_join(threads[k], NULL) : -1;
    }
    for (int k = 0; k < N; k++) {
        ENSURE_EQ_INT(created[k], 0);
        ENSURE_EQ_INT(joined[k], 0);
    }
    rpq_model_free(model_a);
    rpq_model_free(model_b);
    return ENSURE_SUMMARY("threads");
}
