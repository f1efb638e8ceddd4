/*
 * handles.c: every handle the library gives out (native RpqModel and RpqCollideResult, legacy
 * PQP_Model, RAPID_model and V-COLLIDE handles) passed where it does not belong: freed, of
 * another kind, foreign (a pointer into the program's own memory) or wild. Each call must
 * return its layer's error code and change nothing, nothing may be read through the bad
 * pointer (run under AddressSanitizer too), and the library must print nothing: on success
 * this program prints one summary line to stdout and nothing to stderr.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "rapidpqp.h"

static const double I9[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
static double I3[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static double Z3[3] = {0, 0, 0};
static const double TRI[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};

static RpqModel *native_model(void) {
    RpqModel *m = NULL;
    ENSURE_EQ_INT(rpq_model_build(TRI, NULL, 1, &m), RPQ_OK);
    return m;
}

static PQP_Model *pqp_model(void) {
    PQP_Model *m = PQP_Model_new();
    ENSURE_EQ_INT(PQP_AddTri(m, TRI, TRI + 3, TRI + 6, 0), PQP_OK);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_OK);
    return m;
}

static RAPID_model *rapid_model(void) {
    RAPID_model *m = RAPID_model_new();
    ENSURE_EQ_INT(RAPID_BeginModel(m), RAPID_OK);
    ENSURE_EQ_INT(RAPID_AddTri(m, TRI, TRI + 3, TRI + 6, 0), RAPID_OK);
    ENSURE_EQ_INT(RAPID_EndModel(m), RAPID_OK);
    return m;
}

/* One native collide on (a, b) into r; the result's pair count afterwards in *pairs. */
static int native_collide(const RpqModel *a, const RpqModel *b, RpqCollideResult *r) {
    RpqPose pose;
    memcpy(pose.rotation, I9, sizeof pose.rotation);
    memset(pose.translation, 0, sizeof pose.translation);
    pose.scale = 1.0;
    return rpq_collide(a, &pose, b, &pose, NULL, r);
}

static int native_distance(const RpqModel *a, const RpqModel *b, RpqDistanceResult *out) {
    RpqPose pose;
    memcpy(pose.rotation, I9, sizeof pose.rotation);
    memset(pose.translation, 0, sizeof pose.translation);
    pose.scale = 1.0;
    return rpq_distance(a, &pose, b, &pose, NULL, NULL, out);
}

/* Every solid-model and motion function with `bad` as a model (alone, and beside the live
 * `good`): each must return RPQ_ERR_INVALID_HANDLE and write nothing. */
static void model_calls_refused(const RpqModel *bad, const RpqModel *good) {
    static const double pts[6] = {0.1, 0.1, 0, 0.2, 0.2, 1}, dir[3] = {0, 0, -1};
    RpqPose pose;
    RpqSolidFacts facts, facts0;
    RpqClosestPoint cp[2], cp0[2];
    RpqRayHit hits[2], hits0[2];
    RpqSolidCollideResult sc, sc0;
    RpqSeparation sep, sep0;
    double d[2] = {7, 7};
    uint8_t where[2] = {7, 7};
    int32_t winding[2] = {7, 7};
    size_t count = 7;
    RpqSweepResult sw, sw0;
    RpqToi toi, toi0;
    RpqRemoval rem, rem0;
    const RpqModel *bad_first[2] = {bad, good}, *bad_second[2] = {good, bad};
    RpqPose poses[2];
    memcpy(pose.rotation, I9, sizeof pose.rotation);
    memset(pose.translation, 0, sizeof pose.translation);
    pose.scale = 1.0;
    memset(&facts, 0x5a, sizeof facts), facts0 = facts;
    memset(cp, 0x5a, sizeof cp), memcpy(cp0, cp, sizeof cp);
    memset(hits, 0x5a, sizeof hits), memcpy(hits0, hits, sizeof hits);
    memset(&sc, 0x5a, sizeof sc), sc0 = sc;
    memset(&sep, 0x5a, sizeof sep), sep0 = sep;
    memset(&sw, 0x5a, sizeof sw), sw0 = sw;
    memset(&toi, 0x5a, sizeof toi), toi0 = toi;
    memset(&rem, 0x5a, sizeof rem), rem0 = rem;
    poses[0] = poses[1] = pose;
    ENSURE_EQ_INT(rpq_model_solid_facts(bad, &facts), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_closest_points(bad, pts, 2, INFINITY, 2, cp), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_signed_distance(bad, pts, 2, 2, d, cp), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_contains(bad, pts, 2, 2, where, winding), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_ray_cast(bad, pts, 2, dir, 1, INFINITY, 0, 2, hits), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_segment_hits(bad, pts, pts + 3, hits, 2, &count), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_solid_collide(bad, &pose, good, &pose, &sc), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_solid_collide(good, &pose, bad, &pose, &sc), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_separation(bad, &pose, good, &pose, NULL, &sep), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_separation(good, &pose, bad, &pose, dir, &sep), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_sweep(bad, &pose, good, &pose, dir, 1, 0, &sw), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_sweep(good, &pose, bad, &pose, dir, 1, 1, &sw), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_sweep_batch(bad, &pose, good, &pose, dir, 1, 1, 0, 2, &sw), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_sweep_batch(good, &pose, bad, &pose, dir, 1, 1, 0, 2, &sw), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_time_of_impact(bad, &pose, &pose, good, &pose, -1, 0, &toi), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_time_of_impact(good, &pose, &pose, bad, &pose, -1, 0, &toi), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_removal_directions(bad_first, poses, 2, 1, dir, 1, INFINITY, &rem), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_removal_directions(bad_second, poses, 2, 0, dir, 1, INFINITY, &rem), RPQ_ERR_INVALID_HANDLE);
    ENSURE(memcmp(&sw, &sw0, sizeof sw) == 0 && memcmp(&toi, &toi0, sizeof toi) == 0);
    ENSURE(memcmp(&rem, &rem0, sizeof rem) == 0);
    ENSURE(memcmp(&facts, &facts0, sizeof facts) == 0 && memcmp(cp, cp0, sizeof cp) == 0);
    ENSURE(memcmp(hits, hits0, sizeof hits) == 0 && memcmp(&sc, &sc0, sizeof sc) == 0);
    ENSURE(memcmp(&sep, &sep0, sizeof sep) == 0 && count == 7);
    ENSURE(d[0] == 7 && d[1] == 7 && where[0] == 7 && where[1] == 7 && winding[0] == 7 && winding[1] == 7);
}

/* Pointers that are not handles: into the program's stack, data and heap (zero-filled, and
 * filled with a copy of a real handle's bytes), small integers, and addresses near a live
 * handle. */
#define NUM_WILD 8
static void wild_pointers(void *out[NUM_WILD], void *live, unsigned char *heap) {
    static unsigned char data[256];
    out[0] = data;
    out[1] = heap;
    out[2] = (void *)(uintptr_t)0x10;
    out[3] = (void *)(uintptr_t)12345;
    out[4] = (char *)live + 1;
    out[5] = (char *)live + 8;
    out[6] = (char *)live - 16;
    out[7] = (void *)(uintptr_t)UINTPTR_MAX;
}

static void native_handles(unsigned char *heap) {
    RpqModel *a = native_model(), *b = native_model(), *dead = native_model();
    RpqCollideResult *r = rpq_collide_result_new(), *dead_r = rpq_collide_result_new();
    PQP_Model *pqp = pqp_model();
    RAPID_model *rapid = rapid_model();
    void *vc = vcOpen();
    RpqDistanceResult d, untouched;
    void *wild[NUM_WILD];
    uint64_t bv = 77, tri = 77;
    int k;

    ENSURE(a && b && dead && r && dead_r && pqp && rapid && vc);
    ENSURE_EQ_INT(native_collide(a, b, r), RPQ_OK);
    ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), 1);

    /* Freed model and freed result: refused, nothing read. */
    rpq_model_free(dead);
    rpq_collide_result_free(dead_r);
    ENSURE_EQ_INT(native_collide(dead, b, r), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(native_collide(a, dead, r), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), 1); /* unchanged by the failed calls */
    ENSURE_EQ_INT(native_collide(a, b, dead_r), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_collide_result_num_pairs(dead_r), 0);
    ENSURE(rpq_collide_result_pairs(dead_r) == NULL);
    ENSURE_EQ_INT(rpq_collide_result_counts(dead_r, &bv, &tri), RPQ_ERR_INVALID_HANDLE);
    ENSURE(bv == 77 && tri == 77);
    ENSURE_EQ_INT(rpq_model_num_triangles(dead), 0);
    ENSURE_EQ_INT(rpq_model_memory_bytes(dead), 0);
    ENSURE_EQ_INT(rpq_model_serialized_size(dead), 0);
    memset(&d, 0x5a, sizeof d);
    untouched = d;
    ENSURE_EQ_INT(native_distance(dead, b, &d), RPQ_ERR_INVALID_HANDLE);
    ENSURE(memcmp(&d, &untouched, sizeof d) == 0);
    model_calls_refused(dead, a);
    /* Freeing again is ignored. */
    rpq_model_free(dead);
    rpq_collide_result_free(dead_r);

    /* Handles of another kind. */
    ENSURE_EQ_INT(native_collide(a, b, (RpqCollideResult *)a), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(native_collide(a, b, (RpqCollideResult *)pqp), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(native_collide(a, b, (RpqCollideResult *)vc), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(native_collide((RpqModel *)r, b, r), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(native_collide((RpqModel *)pqp, b, r), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(native_collide(a, (RpqModel *)rapid, r), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(native_distance((RpqModel *)vc, b, &d), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_collide_result_num_pairs((RpqCollideResult *)a), 0);
    ENSURE_EQ_INT(rpq_model_num_triangles((RpqModel *)r), 0);
    model_calls_refused((RpqModel *)r, a);
    model_calls_refused((RpqModel *)pqp, a);
    model_calls_refused((RpqModel *)rapid, a);
    model_calls_refused((RpqModel *)vc, a);
    /* Freeing through the wrong function does nothing: every handle still works. */
    rpq_model_free((RpqModel *)r);
    rpq_model_free((RpqModel *)pqp);
    rpq_collide_result_free((RpqCollideResult *)a);
    PQP_Model_delete((PQP_Model *)a);
    RAPID_model_delete((RAPID_model *)pqp);
    vcClose(rapid);
    ENSURE_EQ_INT(native_collide(a, b, r), RPQ_OK);
    ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), 1);

    /* Foreign and wild pointers. */
    wild_pointers(wild, a, heap);
    for (k = 0; k < NUM_WILD; k++) {
        ENSURE_EQ_INT(native_collide((RpqModel *)wild[k], b, r), RPQ_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(native_collide(a, b, (RpqCollideResult *)wild[k]), RPQ_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(native_distance(a, (RpqModel *)wild[k], &d), RPQ_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(rpq_model_num_triangles((RpqModel *)wild[k]), 0);
        ENSURE_EQ_INT(rpq_collide_result_num_pairs((RpqCollideResult *)wild[k]), 0);
        model_calls_refused((RpqModel *)wild[k], a);
        rpq_model_free((RpqModel *)wild[k]);
        rpq_collide_result_free((RpqCollideResult *)wild[k]);
    }
    ENSURE_EQ_INT(native_collide(a, b, r), RPQ_OK);

    /* Many handles made and freed: the freed ones stay refused. */
    for (k = 0; k < 3000; k++) {
        RpqModel *m = native_model();
        RpqCollideResult *x = rpq_collide_result_new();
        ENSURE(m != dead && (void *)x != (void *)dead_r);
        rpq_model_free(m);
        rpq_collide_result_free(x);
        if (k % 500 == 0) {
            ENSURE_EQ_INT(native_collide(m, b, r), RPQ_ERR_INVALID_HANDLE);
            ENSURE_EQ_INT(native_collide(a, b, x), RPQ_ERR_INVALID_HANDLE);
        }
    }
    ENSURE_EQ_INT(native_collide(dead, b, r), RPQ_ERR_INVALID_HANDLE);

    rpq_model_free(a);
    rpq_model_free(b);
    rpq_collide_result_free(r);
    PQP_Model_delete(pqp);
    RAPID_model_delete(rapid);
    vcClose(vc);
}

static void legacy_handles(unsigned char *heap) {
    PQP_Model *p = pqp_model(), *q = pqp_model(), *dead_p = pqp_model();
    RAPID_model *r = rapid_model(), *s = rapid_model(), *dead_r = rapid_model();
    RpqModel *native = native_model();
    void *vc = vcOpen(), *dead_vc = vcOpen();
    PQP_CollideResult cres;
    PQP_DistanceResult dres;
    PQP_ToleranceResult tres;
    void *wild[NUM_WILD];
    int id = -1, k;

    memset(&cres, 0, sizeof cres);
    memset(&dres, 0, sizeof dres);
    memset(&tres, 0, sizeof tres);
    PQP_Model_delete(dead_p);
    RAPID_model_delete(dead_r);
    vcClose(dead_vc);

    ENSURE_EQ_INT(PQP_Collide(&cres, I3, Z3, p, I3, Z3, q, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE_EQ_INT(cres.num_pairs, 1);
    ENSURE_EQ_INT(RAPID_Collide(I3, Z3, r, I3, Z3, s, RAPID_ALL_CONTACTS), RAPID_OK);
    ENSURE_EQ_INT(RAPID_num_contacts, 1);

    /* Freed, of another kind, foreign and wild: each layer's own code. */
    wild_pointers(wild, p, heap);
    for (k = -3; k < NUM_WILD; k++) {
        void *bad = k == -3 ? (void *)dead_p : k == -2 ? (void *)native : k == -1 ? (void *)r : wild[k];
        void *bad_r = k == -3 ? (void *)dead_r : k == -2 ? (void *)native : k == -1 ? (void *)p : wild[k];
        void *bad_vc = k == -3 ? dead_vc : k == -2 ? (void *)native : k == -1 ? (void *)p : wild[k];
        ENSURE_EQ_INT(PQP_Collide(&cres, I3, Z3, (PQP_Model *)bad, I3, Z3, q, PQP_ALL_CONTACTS),
                      PQP_ERR_INVALID_MODEL);
        ENSURE_EQ_INT(PQP_Distance(&dres, I3, Z3, p, I3, Z3, (PQP_Model *)bad, 0, 0, 2), PQP_ERR_INVALID_MODEL);
        ENSURE_EQ_INT(PQP_Tolerance(&tres, I3, Z3, (PQP_Model *)bad, I3, Z3, q, 1.0, 2), PQP_ERR_INVALID_MODEL);
        ENSURE_EQ_INT(PQP_BeginModel((PQP_Model *)bad, 0), PQP_ERR_INVALID_MODEL);
        ENSURE_EQ_INT(PQP_AddTri((PQP_Model *)bad, TRI, TRI + 3, TRI + 6, 0), PQP_ERR_INVALID_MODEL);
        ENSURE_EQ_INT(PQP_EndModel((PQP_Model *)bad), PQP_ERR_INVALID_MODEL);
        ENSURE_EQ_INT(PQP_MemUsage((PQP_Model *)bad, 1), 0);
        PQP_Model_delete((PQP_Model *)bad);
        ENSURE_EQ_INT(RAPID_Collide(I3, Z3, (RAPID_model *)bad_r, I3, Z3, s, RAPID_ALL_CONTACTS),
                      RAPID_ERR_INVALID_MODEL);
        ENSURE_EQ_INT(RAPID_BeginModel((RAPID_model *)bad_r), RAPID_ERR_INVALID_MODEL);
        ENSURE_EQ_INT(RAPID_AddTri((RAPID_model *)bad_r, TRI, TRI + 3, TRI + 6, 0), RAPID_ERR_INVALID_MODEL);
        ENSURE_EQ_INT(RAPID_EndModel((RAPID_model *)bad_r), RAPID_ERR_INVALID_MODEL);
        RAPID_model_delete((RAPID_model *)bad_r);
        ENSURE_EQ_INT(vcNewObject(bad_vc, &id), VC_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(vcCollide(bad_vc), VC_ERR_INVALID_HANDLE);
        ENSURE_EQ_INT(vcReport(bad_vc, 0, NULL), VC_ERR_INVALID_HANDLE);
        vcClose(bad_vc);
    }
    ENSURE_EQ_INT(id, -1);
    /* The failed calls changed nothing. */
    ENSURE_EQ_INT(cres.num_pairs, 1);
    ENSURE_EQ_INT(RAPID_num_contacts, 1);
    ENSURE_EQ_INT(PQP_Collide(&cres, I3, Z3, p, I3, Z3, q, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE_EQ_INT(RAPID_Collide(I3, Z3, r, I3, Z3, s, RAPID_FIRST_CONTACT), RAPID_OK);
    ENSURE_EQ_INT(vcNewObject(vc, &id), VC_OK);
    ENSURE_EQ_INT(id, 0);
    ENSURE(native_collide(native, native, NULL) == RPQ_ERR_NULL_POINTER);

    /* A result copied by value and freed through one copy: the other copy's array is dead and
     * is neither freed again nor written (AddressSanitizer would see either). */
    {
        PQP_CollideResult a, b;
        memset(&a, 0, sizeof a);
        ENSURE_EQ_INT(PQP_Collide(&a, I3, Z3, p, I3, Z3, q, PQP_ALL_CONTACTS), PQP_OK);
        ENSURE(a.num_pairs == 1 && a.pairs != NULL);
        b = a;
        PQP_CollideResult_FreePairsList(&a);
        ENSURE(a.pairs == NULL && a.num_pairs == 0 && a.num_pairs_alloced == 0);
        PQP_CollideResult_FreePairsList(&b); /* stale: ignored */
        ENSURE(b.pairs == NULL && b.num_pairs == 0);
        ENSURE_EQ_INT(PQP_Collide(&a, I3, Z3, p, I3, Z3, q, PQP_ALL_CONTACTS), PQP_OK);
        b = a;
        PQP_CollideResult_FreePairsList(&a);
        ENSURE_EQ_INT(PQP_Collide(&b, I3, Z3, p, I3, Z3, q, PQP_ALL_CONTACTS), PQP_OK); /* fresh array */
        ENSURE(b.num_pairs == 1 && b.pairs != NULL && b.pairs[0].id1 == 0);
        PQP_CollideResult_FreePairsList(&b);
    }

    /* PQP_MemUsage with a message asked for prints nothing (this program checks its output). */
    ENSURE(PQP_MemUsage(p, 1) > 0);
    ENSURE(PQP_MemUsage(p, 0) == PQP_MemUsage(p, 1));

    PQP_CollideResult_FreePairsList(&cres);
    PQP_Model_delete(p);
    PQP_Model_delete(q);
    RAPID_model_delete(r);
    RAPID_model_delete(s);
    rpq_model_free(native);
    vcClose(vc);
}

int main(void) {
    unsigned char *heap = calloc(4096, 1);
    native_handles(heap);
    legacy_handles(heap);
    free(heap);
    return ENSURE_SUMMARY("handles");
}
