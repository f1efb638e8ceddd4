/*
 * fixed_cost.c: the fixed cost of one call through each legacy and native entry point.
 *
 * Builds the two models of a conformance case (normally tests/data/conformance/single, one
 * triangle each) through RAPID_AddTri, PQP_AddTri and rpq_model_build, then calls one entry
 * point on every pose of the case, REPEATS times over, and prints the time per call. Only the
 * loop `run_query` is worth profiling; with callgrind:
 *
 *   valgrind --tool=callgrind --toggle-collect=run_query ./fixed_cost CASE 2000 pqp_distance
 *
 * gives the instructions of REPEATS * poses calls (the program prints how many).
 *
 *   fixed_cost CASE_DIR [REPEATS] [QUERY]
 *
 * QUERY: rapid, pqp_collide, pqp_distance, pqp_tolerance, rpq_collide, rpq_distance,
 * rpq_tolerance, or all (the default). Exit status 0 when every call returned OK.
 */
#define _POSIX_C_SOURCE 200809L
/* fixture.h is shared with the conformance programs; this one uses only its readers. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "fixture.h"
#include "rapidpqp.h"

typedef struct {
    RAPID_model *r1, *r2;
    PQP_Model *p1, *p2;
    RpqModel *n1, *n2;
    Pose *poses;
    RpqPose *np1, *np2;
    int nposes;
    PQP_CollideResult cres;
    PQP_DistanceResult dres;
    PQP_ToleranceResult tres;
    RpqCollideResult *ncres;
    RpqDistanceResult ndres;
} Bench;

static const char *QUERIES[] = {"rapid",        "pqp_collide",  "pqp_distance", "pqp_tolerance",
                                "rpq_collide",  "rpq_distance", "rpq_tolerance"};
#define NQUERIES ((int)(sizeof QUERIES / sizeof QUERIES[0]))

static int build(const Mesh *m, RAPID_model **r, PQP_Model **p, RpqModel **n) {
    double *flat = xcalloc((size_t)m->n * 9, sizeof(double));
    int k, c, bad = 0;
    *r = RAPID_model_new();
    *p = PQP_Model_new();
    bad |= RAPID_BeginModel(*r) != RAPID_OK;
    bad |= PQP_BeginModel(*p, m->n) != PQP_OK;
    for (k = 0; k < m->n; k++) {
        bad |= RAPID_AddTri(*r, m->tri[k].v[0], m->tri[k].v[1], m->tri[k].v[2], k) != RAPID_OK;
        bad |= PQP_AddTri(*p, m->tri[k].v[0], m->tri[k].v[1], m->tri[k].v[2], k) != PQP_OK;
        for (c = 0; c < 3; c++) memcpy(flat + 9 * k + 3 * c, m->tri[k].v[c], 3 * sizeof(double));
    }
    bad |= RAPID_EndModel(*r) != RAPID_OK;
    bad |= PQP_EndModel(*p) != PQP_OK;
    bad |= rpq_model_build(flat, NULL, (size_t)m->n, n) != RPQ_OK;
    free(flat);
    return bad ? -1 : 0;
}

/* One pass of `repeats` rounds over the poses; the number of calls that failed. */
static __attribute__((noinline)) int run_query(Bench *b, int query, int repeats) {
    const RpqToleranceRequest tolerance = {0.01, 2};
    int bad = 0, rep, k;
    for (rep = 0; rep < repeats; rep++) {
        for (k = 0; k < b->nposes; k++) {
            Pose *p = &b->poses[k];
            switch (query) {
            case 0:
                bad += RAPID_Collide(p->R1, p->T1, b->r1, p->R2, p->T2, b->r2, RAPID_ALL_CONTACTS) != RAPID_OK;
                break;
            case 1:
                bad += PQP_Collide(&b->cres, p->R1, p->T1, b->p1, p->R2, p->T2, b->p2, PQP_ALL_CONTACTS) != PQP_OK;
                break;
            case 2:
                bad += PQP_Distance(&b->dres, p->R1, p->T1, b->p1, p->R2, p->T2, b->p2, 0.0, 0.0, 2) != PQP_OK;
                break;
            case 3:
                bad += PQP_Tolerance(&b->tres, p->R1, p->T1, b->p1, p->R2, p->T2, b->p2, 0.01, 2) != PQP_OK;
                break;
            case 4:
                bad += rpq_collide(b->n1, &b->np1[k], b->n2, &b->np2[k], NULL, b->ncres) != RPQ_OK;
                break;
            case 5:
                bad += rpq_distance(b->n1, &b->np1[k], b->n2, &b->np2[k], NULL, NULL, &b->ndres) != RPQ_OK;
                break;
            default:
                bad += rpq_tolerance(b->n1, &b->np1[k], b->n2, &b->np2[k], &tolerance, &b->ndres) != RPQ_OK;
                break;
            }
        }
    }
    return bad;
}

int main(int argc, char **argv) {
    char path[4096];
    Mesh ma, mb;
    Bench b;
    int repeats = argc > 2 ? atoi(argv[2]) : 20000, q, k, failures = 0, any = 0;
    const char *which = argc > 3 ? argv[3] : "all";
    if (argc < 2 || repeats < 1) {
        fprintf(stderr, "usage: %s CASE_DIR [REPEATS] [all|rapid|pqp_collide|...]\n", argv[0]);
        return 2;
    }
    memset(&b, 0, sizeof b);
    snprintf(path, sizeof path, "%s/a.obj", argv[1]);
    if (read_obj(path, &ma)) return 2;
    snprintf(path, sizeof path, "%s/b.obj", argv[1]);
    if (read_obj(path, &mb)) return 2;
    snprintf(path, sizeof path, "%s/poses.txt", argv[1]);
    if (read_poses(path, &b.poses, &b.nposes)) return 2;
    if (build(&ma, &b.r1, &b.p1, &b.n1) || build(&mb, &b.r2, &b.p2, &b.n2)) {
        fprintf(stderr, "building the models failed\n");
        return 1;
    }
    b.np1 = xcalloc((size_t)b.nposes, sizeof *b.np1);
    b.np2 = xcalloc((size_t)b.nposes, sizeof *b.np2);
    for (k = 0; k < b.nposes; k++) {
        memcpy(b.np1[k].rotation, b.poses[k].R1, 9 * sizeof(double));
        memcpy(b.np1[k].translation, b.poses[k].T1, 3 * sizeof(double));
        b.np1[k].scale = b.poses[k].s1;
        memcpy(b.np2[k].rotation, b.poses[k].R2, 9 * sizeof(double));
        memcpy(b.np2[k].translation, b.poses[k].T2, 3 * sizeof(double));
        b.np2[k].scale = b.poses[k].s2;
    }
    b.ncres = rpq_collide_result_new();
    for (q = 0; q < NQUERIES; q++) {
        double start, ms;
        int bad;
        if (strcmp(which, "all") && strcmp(which, QUERIES[q])) continue;
        any = 1;
        run_query(&b, q, 1); /* warm up: results sized, pages touched */
        start = now_ms();
        bad = run_query(&b, q, repeats);
        ms = now_ms() - start;
        printf("%-14s %8.1f ns/call  (%d calls, %d failed)\n", QUERIES[q], 1e6 * ms / ((double)repeats * b.nposes),
               repeats * b.nposes, bad);
        failures += bad;
    }
    if (!any) {
        fprintf(stderr, "unknown query %s\n", which);
        return 2;
    }
    PQP_CollideResult_FreePairsList(&b.cres);
    rpq_collide_result_free(b.ncres);
    RAPID_model_delete(b.r1);
    RAPID_model_delete(b.r2);
    PQP_Model_delete(b.p1);
    PQP_Model_delete(b.p2);
    rpq_model_free(b.n1);
    rpq_model_free(b.n2);
    free(b.poses);
    free(b.np1);
    free(b.np2);
    free(ma.tri);
    free(mb.tri);
    return failures ? 1 : 0;
}
