/*
 * native_bench: the trajectory scenes and the native API's memory row, as an outside C program
 * sees them. It includes include/rapidpqp.h, is linked with target/release/librapidpqp.so
 * (benches/build.rs compiles it) and calls the legacy PQP entry points and the native rpq_*
 * API, which only rapidpqp has (legacy_bench.c is the program linked with both libraries).
 *
 *   native_bench [--passes N] [--steps N] [--seed S] trajectory CASE_DIR
 *   native_bench memory native MESH.obj
 *
 * trajectory: model 2 of the case moves around model 1 along a smooth, seeded path of N steps
 *   (default 1000) through contact, near contact and apart; each step is queried through
 *   the legacy PQP API (distance, tolerance, first contact; PQP keeps its warm start in the
 *   models) and the native API (rpq_distance with and without an RpqDistanceCache,
 *   rpq_tolerance, rpq_collide first contact). All modes must agree at every step.
 * memory: bench_common.h's measure_memory through rpq_model_build_indexed.
 *
 * Output: one line per measurement, `row`, `phases` or `memory` followed by key=value fields
 * (the benchmark program reads them; they are readable as they are). Disagreements go to
 * stderr, and the exit status is 1 when any answer disagreed, 2 on bad usage or input.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rapidpqp.h"

/* Shared with the other C programs; this one uses a part of them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "fixture.h" /* c_tests/fixture.h: meshes, poses, contact records, pair lists */
#include "bench_common.h"
#pragma GCC diagnostic pop

/* Disagreeing steps described in full per mode; the rest are only counted. */
#define MAX_REPORTED 5

static int passes = 5;

/* ------------------------------------------------------------------------------------------ */
/* Timing                                                                                      */

/* µs per query: the median pass, and the fastest and slowest. */
typedef struct {
    double median, min, max;
} Timing;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Runs `pass` (which makes `queries` queries) `passes` times. */
static Timing time_passes(int queries, void (*pass)(void *), void *ctx) {
    double *us = xcalloc((size_t)passes, sizeof *us);
    Timing t;
    int k;
    for (k = 0; k < passes; k++) {
        double start = now_ms();
        pass(ctx);
        us[k] = (now_ms() - start) * 1e3 / (queries > 0 ? queries : 1);
    }
    qsort(us, (size_t)passes, sizeof *us, cmp_double);
    t.median = us[passes / 2];
    t.min = us[0];
    t.max = us[passes - 1];
    free(us);
    return t;
}

/* ------------------------------------------------------------------------------------------ */
/* The native API's forms                                                                      */

static double *soup_coordinates(const Mesh *m) {
    double *xyz = xcalloc((size_t)m->n * 9, sizeof *xyz);
    int k;
    for (k = 0; k < m->n; k++) memcpy(&xyz[9 * k], m->tri[k].v, 9 * sizeof *xyz);
    return xyz;
}

static RpqPose native_pose(const double R[3][3], const double T[3], double s) {
    RpqPose p;
    memcpy(p.rotation, R, sizeof p.rotation);
    memcpy(p.translation, T, sizeof p.translation);
    p.scale = s;
    return p;
}

static RpqModel *native_model(const Mesh *m) {
    double *xyz = soup_coordinates(m);
    RpqModel *model = NULL;
    RpqStatus rc = rpq_model_build(xyz, NULL, (size_t)m->n, &model);
    free(xyz);
    if (rc != RPQ_OK) {
        fprintf(stderr, "rpq_model_build failed: %s\n", rpq_status_message(rc));
        return NULL;
    }
    return model;
}


/* ------------------------------------------------------------------------------------------ */
/* trajectory: model 2 moving around model 1                                                   */

typedef enum {
    PQP_DISTANCE_STEP,
    PQP_TOLERANCE_STEP,
    PQP_COLLIDE_FIRST_STEP,
    NATIVE_DISTANCE_CACHED,
    NATIVE_DISTANCE_UNCACHED,
    NATIVE_TOLERANCE,
    NATIVE_COLLIDE_FIRST,
    NUM_MODES
} Mode;

static const char *const mode_name[NUM_MODES] = {
    "PQP_Distance", "PQP_Tolerance", "PQP_Collide_first", "rpq_distance_cache", "rpq_distance_no_cache",
    "rpq_tolerance", "rpq_collide_first",
};

typedef struct {
    const char *name;
    int steps;
    double tolerance, eps;
    double largest_move; /* of model 2's centre in one step, in units of the two radii */
    Pose *poses;        /* the legacy APIs' form of each step */
    RpqPose *pose1, *pose2; /* the native API's */
    PQP_Model *pqp_a, *pqp_b;
    RpqModel *native_a, *native_b;
    RpqDistanceCache cache;
    RpqCollideResult *native_collide;
    RpqCollideRequest first_contact;
    RpqToleranceRequest native_tolerance; /* tolerance, QSIZE */
    PQP_CollideResult collide;
    PQP_DistanceResult distance;
    PQP_ToleranceResult tolerance_result;
    RpqDistanceResult native;
} Trajectory;

/* The answer of one step in one mode: a distance (NAN for flags-only modes) and a flag
 * (closer than the tolerance, or colliding; -1 for distance modes). */
typedef struct {
    double distance;
    int flag;
    double bv_tests, tri_tests;
} Answer;

typedef struct {
    Trajectory *t;
    Mode mode;
    int failed_calls;
} TrajectoryRun;

static int trajectory_call(Trajectory *t, Mode mode, int i) {
    Pose *p = &t->poses[i];
    switch (mode) {
    case PQP_DISTANCE_STEP:
        return PQP_Distance(&t->distance, p->R1, p->T1, t->pqp_a, p->R2, p->T2, t->pqp_b, 0.0, 0.0, QSIZE);
    case PQP_TOLERANCE_STEP:
        return PQP_Tolerance(&t->tolerance_result, p->R1, p->T1, t->pqp_a, p->R2, p->T2, t->pqp_b, t->tolerance,
                             QSIZE);
    case PQP_COLLIDE_FIRST_STEP:
        return PQP_Collide(&t->collide, p->R1, p->T1, t->pqp_a, p->R2, p->T2, t->pqp_b, PQP_FIRST_CONTACT);
    case NATIVE_DISTANCE_CACHED:
        return rpq_distance(t->native_a, &t->pose1[i], t->native_b, &t->pose2[i], NULL, &t->cache, &t->native);
    case NATIVE_DISTANCE_UNCACHED:
        return rpq_distance(t->native_a, &t->pose1[i], t->native_b, &t->pose2[i], NULL, NULL, &t->native);
    case NATIVE_TOLERANCE:
        return rpq_tolerance(t->native_a, &t->pose1[i], t->native_b, &t->pose2[i], &t->native_tolerance, &t->native);
    case NATIVE_COLLIDE_FIRST:
        return rpq_collide(t->native_a, &t->pose1[i], t->native_b, &t->pose2[i], &t->first_contact,
                           t->native_collide);
    default:
        return -1;
    }
}

static Answer trajectory_answer(const Trajectory *t, Mode mode) {
    Answer a;
    uint64_t bv = 0, tri = 0;
    a.distance = NAN, a.flag = -1;
    switch (mode) {
    case PQP_DISTANCE_STEP:
        a.distance = t->distance.distance, a.bv_tests = t->distance.num_bv_tests;
        a.tri_tests = t->distance.num_tri_tests;
        break;
    case PQP_TOLERANCE_STEP:
        a.flag = t->tolerance_result.closer_than_tolerance, a.bv_tests = t->tolerance_result.num_bv_tests;
        a.tri_tests = t->tolerance_result.num_tri_tests;
        break;
    case PQP_COLLIDE_FIRST_STEP:
        a.flag = t->collide.num_pairs > 0, a.bv_tests = t->collide.num_bv_tests;
        a.tri_tests = t->collide.num_tri_tests;
        break;
    case NATIVE_COLLIDE_FIRST:
        rpq_collide_result_counts(t->native_collide, &bv, &tri);
        a.flag = rpq_collide_result_num_pairs(t->native_collide) > 0, a.bv_tests = (double)bv;
        a.tri_tests = (double)tri;
        break;
    default: /* the native distance and tolerance modes */
        if (mode == NATIVE_TOLERANCE)
            a.flag = t->native.closer;
        else
            a.distance = t->native.distance;
        a.bv_tests = (double)t->native.bv_tests, a.tri_tests = (double)t->native.tri_tests;
    }
    return a;
}

static void trajectory_pass(void *ctx) {
    TrajectoryRun *run = ctx;
    int i;
    memset(&run->t->cache, 0, sizeof run->t->cache);
    for (i = 0; i < run->t->steps; i++) run->failed_calls += trajectory_call(run->t, run->mode, i) != 0;
}

/* Whether a mode's answer at a step agrees with the step's distance (from PQP_Distance): the
 * same distance within eps; closer exactly when distance <= tolerance and colliding exactly
 * when the distance is 0, either flag where the distance is within eps of the boundary. */
static int answer_agrees(const Trajectory *t, Mode mode, Answer a, double distance) {
    if (mode == PQP_TOLERANCE_STEP || mode == NATIVE_TOLERANCE)
        return a.flag == (distance <= t->tolerance) || fabs(distance - t->tolerance) <= t->eps;
    if (mode == PQP_COLLIDE_FIRST_STEP || mode == NATIVE_COLLIDE_FIRST)
        return a.flag == (distance == 0) || distance <= t->eps;
    return fabs(a.distance - distance) <= t->eps;
}

/* Largest r in [0, r_max] along `dir` found by bisection where model 2, placed with its
 * centre at centre1 + r dir, collides with model 1: the contact boundary. */
static double contact_boundary(Trajectory *t, const RpqPose *pose1, RpqPose *pose2, const double R2[3][3],
                               const double c2[3], const double centre1[3], const double dir[3], double r_max) {
    double lo = 0, hi = r_max, rc2[3];
    int k, c;
    mul3(rc2, R2, c2);
    for (k = 0; k < 50; k++) {
        double mid = 0.5 * (lo + hi);
        for (c = 0; c < 3; c++) pose2->translation[c] = centre1[c] + mid * dir[c] - rc2[c];
        rpq_collide(t->native_a, pose1, t->native_b, pose2, &t->first_contact, t->native_collide);
        if (rpq_collide_result_num_pairs(t->native_collide) > 0) lo = mid; else hi = mid;
    }
    return lo;
}

/* The path: model 1 turns slowly about a seeded axis at the origin; model 2 turns about its own
 * axis while its centre moves along a slowly turning direction from model 1's centre. Its
 * distance along that direction follows the contact boundary (found by bisection at each
 * step, followed at most MAX_FOLLOW of the two radii a step so that a concave model's jumps
 * do not make the path jump) plus an offset that swings smoothly twice between -10 % and
 * +20 % of the two radii: inside (contact), through near contact, and apart. */
#define MAX_FOLLOW 0.004

static void make_path(Trajectory *t, const Mesh *a, const Mesh *b, uint64_t seed) {
    const double degree = 3.14159265358979323846 / 180;
    double c1[3], r1, c2[3], r2, axis1[3], axis2[3], drift[3], dir0[3], reach, centre2[3], last[3] = {0, 0, 0}, followed = 0;
    uint64_t state = seed;
    int i, c;
    bounding_sphere(a, c1, &r1);
    bounding_sphere(b, c2, &r2);
    reach = r1 + r2;
    unit_vector(&state, axis1);
    unit_vector(&state, axis2);
    unit_vector(&state, drift);
    unit_vector(&state, dir0);
    for (i = 0; i < t->steps; i++) {
        Pose *p = &t->poses[i];
        double turn[3][3], dir[3], centre1[3], rc2[3], s = (double)i / t->steps, r;
        rotation(p->R1, axis1, 0.1 * degree * i);
        rotation(p->R2, axis2, 0.4 * degree * i);
        rotation(turn, drift, 0.2 * degree * i);
        mul3(dir, turn, dir0);
        memset(p->T1, 0, sizeof p->T1);
        mul3(centre1, p->R1, c1);
        p->s1 = p->s2 = 1;
        t->pose1[i] = native_pose(p->R1, p->T1, 1);
        t->pose2[i] = native_pose(p->R2, p->T1, 1);
        r = contact_boundary(t, &t->pose1[i], &t->pose2[i], p->R2, c2, centre1, dir, 2 * reach);
        followed = i == 0 ? r : followed + fmax(-MAX_FOLLOW * reach, fmin(MAX_FOLLOW * reach, r - followed));
        r = followed + reach * (0.05 + 0.15 * cos(2 * 3.14159265358979323846 * 2 * s));
        mul3(rc2, p->R2, c2);
        for (c = 0; c < 3; c++) {
            centre2[c] = centre1[c] + fmax(r, 0) * dir[c];
            p->T2[c] = centre2[c] - rc2[c];
        }
        t->pose2[i] = native_pose(p->R2, p->T2, 1);
        if (i > 0) {
            double dx = centre2[0] - last[0], dy = centre2[1] - last[1], dz = centre2[2] - last[2];
            t->largest_move = fmax(t->largest_move, sqrt(dx * dx + dy * dy + dz * dz) / reach);
        }
        memcpy(last, centre2, sizeof last);
    }
}

static int run_trajectory(const char *dir, int steps, uint64_t seed) {
    char name[256], scene[300], path[4096];
    Mesh a = {0, NULL}, b = {0, NULL};
    Trajectory t;
    Answer *reference;
    int m, i, failures = 0, contact = 0, near = 0;
    memset(&t, 0, sizeof t);
    snprintf(scene, sizeof scene, "trajectory-%s", base_name(dir, name, sizeof name));
    t.name = scene;
#define PATH(file) (snprintf(path, sizeof path, "%s/%s", dir, file), path)
    if (read_obj(PATH("a.obj"), &a) || read_obj(PATH("b.obj"), &b)) return 2;
#undef PATH
    t.steps = steps;
    t.eps = REL_EPS * model_size(&a, &b);
    t.tolerance = 0.05 * model_size(&a, &b);
    t.native_tolerance.tolerance = t.tolerance;
    t.native_tolerance.qsize = QSIZE;
    t.poses = xcalloc((size_t)steps, sizeof *t.poses);
    t.pose1 = xcalloc((size_t)steps, sizeof *t.pose1);
    t.pose2 = xcalloc((size_t)steps, sizeof *t.pose2);
    t.first_contact.first_contact = 1;
    t.native_collide = rpq_collide_result_new();
    t.pqp_a = pqp_model(&a), t.pqp_b = pqp_model(&b);
    t.native_a = native_model(&a), t.native_b = native_model(&b);
    if (!t.native_collide || !t.pqp_a || !t.pqp_b || !t.native_a || !t.native_b) return 2;
    make_path(&t, &a, &b, seed);

    /* The reference: PQP_Distance at every step, in order (its warm start in the models). */
    reference = xcalloc((size_t)steps, sizeof *reference);
    for (i = 0; i < steps; i++) {
        if (trajectory_call(&t, PQP_DISTANCE_STEP, i) != PQP_OK) {
            fprintf(stderr, "%s step %d: PQP_Distance failed\n", t.name, i);
            return 2;
        }
        reference[i] = trajectory_answer(&t, PQP_DISTANCE_STEP);
        contact += reference[i].distance == 0;
        near += reference[i].distance > 0 && reference[i].distance <= t.tolerance;
    }
    printf("phases scene=%s steps=%d seed=%llu tolerance=%.6g contact=%d near=%d apart=%d largest_move=%.4f\n",
           t.name, steps, (unsigned long long)seed, t.tolerance, contact, near, steps - contact - near,
           t.largest_move);

    for (m = 0; m < NUM_MODES; m++) {
        TrajectoryRun run;
        double work[2] = {0, 0};
        int agree = 0;
        Timing timing;
        memset(&t.cache, 0, sizeof t.cache);
        for (i = 0; i < steps; i++) {
            int rc = trajectory_call(&t, (Mode)m, i);
            Answer answer = trajectory_answer(&t, (Mode)m);
            work[0] += answer.bv_tests, work[1] += answer.tri_tests;
            if (rc == 0 && answer_agrees(&t, (Mode)m, answer, reference[i].distance)) {
                agree++;
            } else if (i + 1 - agree <= MAX_REPORTED) {
                fprintf(stderr, "MISMATCH %s %s step %d: rc %d, distance %.17g, flag %d; PQP_Distance %.17g "
                        "(tolerance %.17g, eps %.3g)\n", t.name, mode_name[m], i, rc, answer.distance,
                        answer.flag, reference[i].distance, t.tolerance, t.eps);
            }
        }
        run.t = &t, run.mode = (Mode)m, run.failed_calls = 0;
        timing = time_passes(steps, trajectory_pass, &run);
        if (run.failed_calls) fprintf(stderr, "MISMATCH %s %s: %d calls failed\n", t.name, mode_name[m], run.failed_calls);
        printf("row scene=%s mode=%s steps=%d passes=%d us=%.6g us_min=%.6g us_max=%.6g bv_tests=%.1f "
               "tri_tests=%.1f agree=%d checked=%d\n",
               t.name, mode_name[m], steps, passes, timing.median, timing.min, timing.max, work[0] / steps,
               work[1] / steps, run.failed_calls ? 0 : agree, steps);
        fflush(stdout);
        failures += steps - agree + run.failed_calls;
    }
    free(reference);
    PQP_CollideResult_FreePairsList(&t.collide);
    rpq_collide_result_free(t.native_collide);
    PQP_Model_delete(t.pqp_a), PQP_Model_delete(t.pqp_b);
    rpq_model_free(t.native_a), rpq_model_free(t.native_b);
    free(t.poses), free(t.pose1), free(t.pose2), free(a.tri), free(b.tri);
    return failures ? 1 : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* memory: rpq_model_build_indexed                                                             */

/* rpq_model_build_indexed's input: the soup's corners as vertices (the model stores a soup
 * either way, so sharing would change only the input's size), and faces. */
typedef struct {
    double *vertices;
    uint32_t *faces;
} IndexedInput;

static void *native_prepare(const Mesh *mesh) {
    IndexedInput *input = xcalloc(1, sizeof *input);
    int k;
    input->vertices = soup_coordinates(mesh);
    input->faces = xcalloc((size_t)mesh->n * 3, sizeof *input->faces);
    for (k = 0; k < 3 * mesh->n; k++) input->faces[k] = (uint32_t)k;
    return input;
}

static void *native_build(const Mesh *mesh, void *prepared) {
    const IndexedInput *input = prepared;
    RpqModel *model = NULL;
    if (rpq_model_build_indexed(input->vertices, (size_t)mesh->n * 3, input->faces, (size_t)mesh->n, NULL, &model) !=
        RPQ_OK)
        model = NULL;
    return model;
}

static void native_free_input(void *prepared) {
    IndexedInput *input = prepared;
    free(input->vertices), free(input->faces), free(input);
}

static long long native_reported(void *model) { return (long long)rpq_model_memory_bytes(model); }

static void native_free(void *model) { rpq_model_free(model); }

/* ------------------------------------------------------------------------------------------ */

static int usage(const char *prog) {
    fprintf(stderr,
            "usage: %s [--passes N] [--steps N] [--seed S] trajectory CASE_DIR\n"
            "       %s memory native MESH.obj\n",
            prog, prog);
    return 2;
}

int main(int argc, char **argv) {
    static const MemoryApi native = {"native", native_prepare, native_build, native_reported, native_free_input,
                                     native_free};
    int k, steps = 1000;
    unsigned long long seed = 20261124;
    for (k = 1; k + 1 < argc && argv[k][0] == '-'; k += 2) {
        if (!strcmp(argv[k], "--passes") && atoi(argv[k + 1]) > 0)
            passes = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--steps") && atoi(argv[k + 1]) > 0)
            steps = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--seed"))
            seed = strtoull(argv[k + 1], NULL, 10);
        else
            return usage(argv[0]);
    }
    if (k + 2 == argc && !strcmp(argv[k], "trajectory")) return run_trajectory(argv[k + 1], steps, seed);
    if (k + 3 == argc && !strcmp(argv[k], "memory") && !strcmp(argv[k + 1], "native"))
        return measure_memory(&native, argv[k + 2]);
    return usage(argv[0]);
}
