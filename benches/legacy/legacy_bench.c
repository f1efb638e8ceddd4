/*
 * legacy_bench: the legacy RAPID and PQP C entry points timed the way an outside C program calls
 * them. benches/build.rs compiles it once against include/rapidpqp.h and links the object twice:
 * with rapidpqp's target/release/librapidpqp.so (legacy_bench_ours) and with the originals'
 * library, RAPID 2.01 and PQP 1.3 behind the same C names (legacy_bench_originals). It calls only
 * RAPID_* and PQP_*, which both libraries have, so both programs run the same code and pay the
 * same call through a shared library.
 *
 *   legacy_bench serve fixture CASE_DIR
 *   legacy_bench serve falling [STEPS [SEED]]
 *   legacy_bench serve random MESH1.obj MESH2.obj [POSES [SEED]]
 *   legacy_bench memory rapid|pqp MESH.obj
 *
 * serve: sets up a scene, makes every query once (untimed) and prints what it answered, then
 * times passes when asked on stdin, so that the benchmark program can run the two programs
 * alternately, a pass at a time, and both see the same load. The queries (in this order):
 * RAPID_Collide all and first contact, PQP_Collide all and first, PQP_Distance (rel_err 0,
 * abs_err 0, qsize 2) at every pose, and PQP_Tolerance (qsize 2) at every tolerance query.
 * Triangle k of each model has id k. The scenes:
 *   fixture  a conformance case (tests/data/conformance/<case>, FORMAT.md there): its meshes,
 *            poses and pqp_tolerance.txt lines; answers are checked against the recorded ones;
 *   falling  two tori of 1,332 triangles; the smaller falls through the larger one's hole,
 *            tumbling, over STEPS steps (default 2,400; every pose coherent with the last);
 *   random   MESH1 fixed, MESH2 at POSES seeded random poses (default 2,000) around it.
 *   Generated scenes ask PQP_Tolerance at every pose with tolerance 0.05 of the model size.
 * What it prints, one line each (a kind, then key=value fields):
 *   scene   name, poses, tolerance queries, triangles, eps (1e-12 of the model size, the
 *           agreement of distances), tolerance;
 *   pose    (generated scenes) values= the 26 numbers of a poses.txt line, comma-separated;
 *   check   a query: queries, mean BV and triangle tests per query, calls that failed, and
 *           (fixture) how many answers agree with the record, of those checked;
 *   answers a query's answer at each pose, comma-separated, for comparing the two libraries:
 *           collide all `pairs:hash` (FNV-1a of the sorted pairs), first contact 0 or 1,
 *           distance %.17g, tolerance 0 or 1 (suffix `b` where the tolerance is within eps of
 *           this library's distance at the pose: either flag is right there), `e<rc>` when the
 *           call returned rc;
 *   phases  poses in contact, near (0 < distance <= tolerance) and apart, by PQP_Distance;
 *   ready   then commands on stdin, one a line:
 *           `pass QUERY REPEATS`: REPEATS sweeps over all of QUERY's queries, timed; prints
 *             `pass query= us= wall_us= failed=` (µs per query in this thread's CPU time and
 *             in wall time; calls that did not return OK);
 *           `quit` (or end of input).
 * memory: bench_common.h's measure_memory through RAPID_AddTri or PQP_AddTri (PQP_MemUsage).
 * Disagreements with the record go to stderr; the exit status is 2 on bad usage or input.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rapidpqp.h"

#include "fixture.h" /* c_tests/fixture.h: meshes, poses, contact records, pair lists */
#include "bench_common.h"

/* Disagreeing queries described in full per query; the rest are only counted. */
#define MAX_REPORTED 5

/* ------------------------------------------------------------------------------------------ */
/* Reading: pqp_distance.txt and pqp_tolerance.txt are tables of numbers                       */

/* A file of whitespace-separated numbers, `columns` to a line, stored row after row. */
typedef struct {
    int rows, columns;
    double *x;
} Table;

/* Columns of pqp_distance.txt and pqp_tolerance.txt (FORMAT.md). */
enum { DIST_RC, DIST_VALUE, DIST_COLUMNS = 10 };
enum { TOL_POSE, TOL_TOLERANCE, TOL_RC, TOL_CLOSER, TOL_COLUMNS = 13 };

static double cell(const Table *t, int row, int column) { return t->x[row * t->columns + column]; }

static int read_table(const char *path, int columns, Table *t) {
    FILE *f = fopen(path, "r");
    int n = 0, cap = 0;
    double v;
    t->rows = 0, t->columns = columns, t->x = NULL;
    if (!f) {
        perror(path);
        return -1;
    }
    while (fscanf(f, "%lf", &v) == 1) {
        if (n == cap) t->x = xrealloc(t->x, (size_t)(cap = cap ? 2 * cap : 1024) * sizeof v);
        t->x[n++] = v;
    }
    if (!feof(f) || n % columns != 0) {
        fprintf(stderr, "%s: not a table of %d numbers a line\n", path, columns);
        fclose(f);
        return -1;
    }
    fclose(f);
    t->rows = n / columns;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* A scene: two models, poses, tolerance queries, and (fixture) the recorded answers           */

typedef enum {
    RAPID_ALL,
    RAPID_FIRST,
    PQP_COLLIDE_ALL,
    PQP_COLLIDE_FIRST,
    PQP_DISTANCE,
    PQP_TOLERANCE,
    NUM_QUERIES
} Query;

static const char *const query_name[NUM_QUERIES] = {
    "RAPID_all", "RAPID_first", "PQP_collide_all", "PQP_collide_first", "PQP_distance", "PQP_tolerance",
};

/* The recorded answers of a fixture case, one per pose (or per line of pqp_tolerance.txt). */
static const char *const record_file[NUM_QUERIES] = {
    "rapid_all.txt", "rapid_first.txt", "pqp_collide_all.txt", "pqp_collide_first.txt", "pqp_distance.txt",
    "pqp_tolerance.txt",
};

typedef struct {
    char name[64];
    Mesh a, b;
    Pose *poses;
    int npose;
    /* The PQP_Tolerance queries: a pose and a tolerance each. */
    int ntol;
    int *tol_pose;
    double *tol_value;
    double eps;       /* REL_EPS times the model size */
    double tolerance; /* of the generated scenes */
    /* A fixture case's records (recorded = 1). */
    int recorded;
    ContactRecord *contacts[PQP_DISTANCE];
    Table distances, tolerances;
    /* This library's distance at each pose (from the check of PQP_Distance). */
    double *own_distance;
    RAPID_model *rapid_a, *rapid_b;
    PQP_Model *pqp_a, *pqp_b;
    PQP_CollideResult collide;
    PQP_DistanceResult distance;
    PQP_ToleranceResult tolerance_result;
} Scene;

static int scene_queries(const Scene *s, Query q) { return q == PQP_TOLERANCE ? s->ntol : s->npose; }

/* Makes query number i (a pose, or a tolerance query); returns its return code. */
static int scene_call(Scene *s, Query q, int i) {
    Pose *p = &s->poses[q == PQP_TOLERANCE ? s->tol_pose[i] : i];
    switch (q) {
    case RAPID_ALL:
    case RAPID_FIRST:
        return RAPID_Collide(p->R1, p->T1, s->rapid_a, p->R2, p->T2, s->rapid_b,
                             q == RAPID_ALL ? RAPID_ALL_CONTACTS : RAPID_FIRST_CONTACT);
    case PQP_COLLIDE_ALL:
    case PQP_COLLIDE_FIRST:
        return PQP_Collide(&s->collide, p->R1, p->T1, s->pqp_a, p->R2, p->T2, s->pqp_b,
                           q == PQP_COLLIDE_ALL ? PQP_ALL_CONTACTS : PQP_FIRST_CONTACT);
    case PQP_DISTANCE:
        return PQP_Distance(&s->distance, p->R1, p->T1, s->pqp_a, p->R2, p->T2, s->pqp_b, 0.0, 0.0, QSIZE);
    case PQP_TOLERANCE:
        return PQP_Tolerance(&s->tolerance_result, p->R1, p->T1, s->pqp_a, p->R2, p->T2, s->pqp_b,
                             s->tol_value[i], QSIZE);
    default:
        return -1;
    }
}

/* BV (box) and triangle tests of the last call. */
static void scene_counts(const Scene *s, Query q, double counts[2]) {
    switch (q) {
    case RAPID_ALL:
    case RAPID_FIRST:
        counts[0] = RAPID_num_box_tests, counts[1] = RAPID_num_tri_tests;
        break;
    case PQP_COLLIDE_ALL:
    case PQP_COLLIDE_FIRST:
        counts[0] = s->collide.num_bv_tests, counts[1] = s->collide.num_tri_tests;
        break;
    case PQP_DISTANCE:
        counts[0] = s->distance.num_bv_tests, counts[1] = s->distance.num_tri_tests;
        break;
    default:
        counts[0] = s->tolerance_result.num_bv_tests, counts[1] = s->tolerance_result.num_tri_tests;
    }
}

/* The contacts of the last call (RAPID's globals or the PQP result), sorted, into out. */
static void last_pairs(const Scene *s, Query q, PairList *out) {
    int k;
    out->n = 0;
    if (q == RAPID_ALL || q == RAPID_FIRST)
        for (k = 0; k < RAPID_num_contacts; k++) pairs_push(out, RAPID_contact[k].id1, RAPID_contact[k].id2);
    else
        for (k = 0; k < s->collide.num_pairs; k++) pairs_push(out, s->collide.pairs[k].id1, s->collide.pairs[k].id2);
    pairs_sort(out);
}

/* FNV-1a over the ids of a sorted pair list. */
static uint64_t pairs_hash(const PairList *pairs) {
    uint64_t h = 0xcbf29ce484222325ULL;
    int k, j;
    for (k = 0; k < pairs->n; k++) {
        uint32_t ids[2];
        ids[0] = (uint32_t)pairs->p[k].id1, ids[1] = (uint32_t)pairs->p[k].id2;
        for (j = 0; j < 8; j++) h = (h ^ ((ids[j / 4] >> (8 * (j % 4))) & 0xff)) * 0x100000001b3ULL;
    }
    return h;
}

/* The answer of the last call for query i, as printed on the `answers` line. */
static void answer_token(Scene *s, Query q, int i, int rc, const PairList *pairs, char *out, size_t size) {
    if (rc != 0) {
        snprintf(out, size, "e%d", rc);
    } else if (q == RAPID_ALL || q == PQP_COLLIDE_ALL) {
        snprintf(out, size, "%d:%016llx", pairs->n, (unsigned long long)pairs_hash(pairs));
    } else if (q == RAPID_FIRST || q == PQP_COLLIDE_FIRST) {
        snprintf(out, size, "%d", pairs->n > 0);
    } else if (q == PQP_DISTANCE) {
        snprintf(out, size, "%.17g", s->distance.distance);
    } else {
        double own = s->own_distance[s->tol_pose[i]];
        snprintf(out, size, "%d%s", s->tolerance_result.closer_than_tolerance != 0,
                 fabs(s->tol_value[i] - own) <= s->eps ? "b" : "");
    }
}

/* Whether the answer of the call just made for query i agrees with the record (FORMAT.md's
 * rules); describes a disagreement into why. */
static int agrees_with_record(Scene *s, Query q, int i, int rc, const PairList *pairs, char *why, size_t size) {
    int recorded_rc;
    if (q < PQP_DISTANCE) {
        const ContactRecord *rec = &s->contacts[q][i];
        /* A first contact must be one of the recorded all-contacts pairs of its library. */
        const PairList *all = &s->contacts[q < PQP_COLLIDE_ALL ? RAPID_ALL : PQP_COLLIDE_ALL][i].pairs;
        int first = q == RAPID_FIRST || q == PQP_COLLIDE_FIRST;
        if (rc != rec->rc) {
            snprintf(why, size, "return code %d, recorded %d", rc, rec->rc);
            return 0;
        }
        if (pairs->n != rec->pairs.n) {
            snprintf(why, size, "%d pairs, recorded %d", pairs->n, rec->pairs.n);
            return 0;
        }
        if (first && pairs->n > 0 && pairs_count(all, pairs->p[0].id1, pairs->p[0].id2) == 0) {
            snprintf(why, size, "first contact (%d,%d) is not a recorded contact", pairs->p[0].id1, pairs->p[0].id2);
            return 0;
        }
        if (!first && pairs->n > 0 && memcmp(pairs->p, rec->pairs.p, (size_t)pairs->n * sizeof *pairs->p) != 0) {
            PairList only_this = {0, 0, NULL}, only_rec = {0, 0, NULL};
            pairs_diff(pairs, &rec->pairs, &only_this, &only_rec);
            snprintf(why, size, "a different contact set (below)");
            print_pairs(stderr, "only this library", &only_this);
            print_pairs(stderr, "only recorded", &only_rec);
            free(only_this.p), free(only_rec.p);
            return 0;
        }
        return 1;
    }
    if (q == PQP_DISTANCE) {
        double recorded = cell(&s->distances, i, DIST_VALUE);
        recorded_rc = (int)cell(&s->distances, i, DIST_RC);
        if (rc != recorded_rc || !(fabs(s->distance.distance - recorded) <= s->eps)) {
            snprintf(why, size, "return code %d (recorded %d), distance %.17g, recorded %.17g (eps %.3g)", rc,
                     recorded_rc, s->distance.distance, recorded, s->eps);
            return 0;
        }
        return 1;
    }
    {
        /* Either flag is accepted where the tolerance equals the pose's minimum distance. */
        int pose = s->tol_pose[i], closer = (int)cell(&s->tolerances, i, TOL_CLOSER);
        double minimum = cell(&s->distances, pose, DIST_VALUE);
        int on_boundary = fabs(s->tol_value[i] - minimum) <= s->eps;
        recorded_rc = (int)cell(&s->tolerances, i, TOL_RC);
        if (rc != recorded_rc || (s->tolerance_result.closer_than_tolerance != closer && !on_boundary)) {
            snprintf(why, size, "return code %d (recorded %d), closer %d, recorded %d (tolerance %.17g)", rc,
                     recorded_rc, s->tolerance_result.closer_than_tolerance, closer, s->tol_value[i]);
            return 0;
        }
        return 1;
    }
}

/* Makes every query of q once; prints its `check` and `answers` lines. */
static void check_query(Scene *s, Query q) {
    PairList pairs = {0, 0, NULL};
    char why[512], token[64];
    double work[2] = {0, 0};
    int i, n = scene_queries(s, q), agree = 0, failed = 0;
    size_t cap = (size_t)n * sizeof token + 1, len = 0;
    char *values = xcalloc(cap, 1);
    for (i = 0; i < n; i++) {
        double c[2];
        int rc = scene_call(s, q, i);
        failed += rc != 0;
        scene_counts(s, q, c);
        work[0] += c[0], work[1] += c[1];
        if (q < PQP_DISTANCE) last_pairs(s, q, &pairs);
        if (q == PQP_DISTANCE) s->own_distance[i] = rc == 0 ? s->distance.distance : NAN;
        answer_token(s, q, i, rc, &pairs, token, sizeof token);
        len += (size_t)snprintf(values + len, cap - len, "%s%s", i ? "," : "", token);
        if (!s->recorded) continue;
        if (agrees_with_record(s, q, i, rc, &pairs, why, sizeof why)) {
            agree++;
        } else if (i + 1 - agree <= MAX_REPORTED) {
            fprintf(stderr, "MISMATCH %s %s %s %d: %s\n", s->name, query_name[q], q == PQP_TOLERANCE ? "line" : "pose",
                    i, why);
        }
    }
    if (s->recorded && n - agree > MAX_REPORTED)
        fprintf(stderr, "MISMATCH %s %s: %d more disagreeing queries\n", s->name, query_name[q],
                n - agree - MAX_REPORTED);
    printf("check query=%s queries=%d bv_tests=%.1f tri_tests=%.1f failed=%d agree=%d checked=%d\n", query_name[q], n,
           work[0] / n, work[1] / n, failed, agree, s->recorded ? n : 0);
    printf("answers query=%s values=%s\n", query_name[q], values);
    free(values), free(pairs.p);
}

/* The CPU time of this thread, ms: unlike the wall clock, it does not count the time the
 * thread waits while other processes have the cores. */
static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* REPEATS sweeps over every query of q; µs per query, CPU time and wall time. */
static void time_query(Scene *s, Query q, long repeats, double *cpu_us, double *wall_us, int *failed) {
    int i, n = scene_queries(s, q);
    long r;
    double wall = now_ms(), cpu = cpu_ms(), calls = (double)n * (double)repeats;
    for (r = 0; r < repeats; r++)
        for (i = 0; i < n; i++) *failed += scene_call(s, q, i) != 0;
    *cpu_us = (cpu_ms() - cpu) * 1e3 / calls;
    *wall_us = (now_ms() - wall) * 1e3 / calls;
}

/* Builds the models, checks every query, then times passes as stdin asks. */
static int serve(Scene *s) {
    char line[256];
    int q, i, contact = 0, near = 0;
    s->eps = REL_EPS * model_size(&s->a, &s->b);
    s->own_distance = xcalloc((size_t)s->npose, sizeof *s->own_distance);
    s->rapid_a = rapid_model(&s->a), s->rapid_b = rapid_model(&s->b);
    s->pqp_a = pqp_model(&s->a), s->pqp_b = pqp_model(&s->b);
    if (!s->rapid_a || !s->rapid_b || !s->pqp_a || !s->pqp_b) return 2;
    printf("scene name=%s poses=%d tolerance_queries=%d triangles_a=%d triangles_b=%d eps=%.6g tolerance=%.6g\n", s->name,
           s->npose, s->ntol, s->a.n, s->b.n, s->eps, s->tolerance);
    for (q = 0; q < NUM_QUERIES; q++) check_query(s, (Query)q);
    for (i = 0; i < s->npose; i++) {
        contact += s->own_distance[i] == 0;
        near += s->own_distance[i] > 0 && s->own_distance[i] <= s->tolerance;
    }
    printf("phases contact=%d near=%d apart=%d\nready\n", contact, near, s->npose - contact - near);
    fflush(stdout);
    while (fgets(line, sizeof line, stdin)) {
        char name[64];
        long repeats;
        if (sscanf(line, "pass %63s %ld", name, &repeats) == 2 && repeats > 0) {
            int failed = 0;
            double cpu_us, wall_us;
            for (q = 0; q < NUM_QUERIES && strcmp(name, query_name[q]); q++) {
            }
            if (q == NUM_QUERIES) {
                printf("error unknown query %s\n", name);
            } else {
                time_query(s, (Query)q, repeats, &cpu_us, &wall_us, &failed);
                printf("pass query=%s us=%.6g wall_us=%.6g failed=%d\n", name, cpu_us, wall_us, failed);
            }
        } else if (!strncmp(line, "quit", 4)) {
            break;
        } else {
            printf("error unknown command\n");
        }
        fflush(stdout);
    }
    PQP_CollideResult_FreePairsList(&s->collide);
    RAPID_model_delete(s->rapid_a), RAPID_model_delete(s->rapid_b);
    PQP_Model_delete(s->pqp_a), PQP_Model_delete(s->pqp_b);
    for (q = 0; q < PQP_DISTANCE; q++) free_contacts(s->contacts[q], s->npose);
    free(s->distances.x), free(s->tolerances.x), free(s->poses), free(s->a.tri), free(s->b.tri);
    free(s->tol_pose), free(s->tol_value), free(s->own_distance);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The scenes                                                                                  */

static int load_fixture(Scene *s, const char *dir) {
    char path[4096];
    int q, p;
    base_name(dir, s->name, sizeof s->name);
    s->recorded = 1;
#define PATH(file) (snprintf(path, sizeof path, "%s/%s", dir, file), path)
    if (!file_exists(PATH(record_file[PQP_TOLERANCE]))) {
        fprintf(stderr, "%s: not a case with RAPID and PQP records (no %s)\n", dir, record_file[PQP_TOLERANCE]);
        return 2;
    }
    if (read_obj(PATH("a.obj"), &s->a) || read_obj(PATH("b.obj"), &s->b) ||
        read_poses(PATH("poses.txt"), &s->poses, &s->npose) ||
        read_table(PATH(record_file[PQP_DISTANCE]), DIST_COLUMNS, &s->distances) ||
        read_table(PATH(record_file[PQP_TOLERANCE]), TOL_COLUMNS, &s->tolerances))
        return 2;
    for (q = 0; q < PQP_DISTANCE; q++)
        if (read_contacts(PATH(record_file[q]), s->npose, &s->contacts[q])) return 2;
#undef PATH
    if (s->distances.rows != s->npose) {
        fprintf(stderr, "%s: %d distance lines for %d poses\n", s->name, s->distances.rows, s->npose);
        return 2;
    }
    s->ntol = s->tolerances.rows;
    s->tol_pose = xcalloc((size_t)s->ntol, sizeof *s->tol_pose);
    s->tol_value = xcalloc((size_t)s->ntol, sizeof *s->tol_value);
    for (p = 0; p < s->ntol; p++) {
        double pose = cell(&s->tolerances, p, TOL_POSE);
        if (!(pose >= 0 && pose < s->npose)) {
            fprintf(stderr, "%s: tolerance line %d names pose %g of %d\n", s->name, p, pose, s->npose);
            return 2;
        }
        s->tol_pose[p] = (int)pose, s->tol_value[p] = cell(&s->tolerances, p, TOL_TOLERANCE);
    }
    for (p = 0; p < s->npose; p++) {
        if (s->poses[p].s1 != 1.0 || s->poses[p].s2 != 1.0) {
            fprintf(stderr, "%s pose %d: scaled (RAPID_Collide and PQP take no scale)\n", s->name, p);
            return 2;
        }
    }
    return 0;
}

static void identity(double R[3][3]) {
    int i;
    memset(R, 0, 9 * sizeof R[0][0]);
    for (i = 0; i < 3; i++) R[i][i] = 1;
}

/* A generated scene's PQP_Tolerance queries: every pose, at 0.05 of the model size. */
static void tolerance_at_every_pose(Scene *s) {
    int i;
    s->tolerance = 0.05 * model_size(&s->a, &s->b);
    s->ntol = s->npose;
    s->tol_pose = xcalloc((size_t)s->ntol, sizeof *s->tol_pose);
    s->tol_value = xcalloc((size_t)s->ntol, sizeof *s->tol_value);
    for (i = 0; i < s->ntol; i++) s->tol_pose[i] = i, s->tol_value[i] = s->tolerance;
}

/* Prints the poses of a generated scene (the benchmark program times its peers on them). */
static void print_poses(const Scene *s) {
    int i, k;
    for (i = 0; i < s->npose; i++) {
        const Pose *p = &s->poses[i];
        double v[26];
        memcpy(v, p->R1, 9 * sizeof *v), memcpy(v + 9, p->T1, 3 * sizeof *v), v[12] = p->s1;
        memcpy(v + 13, p->R2, 9 * sizeof *v), memcpy(v + 22, p->T2, 3 * sizeof *v), v[25] = p->s2;
        printf("pose values=");
        for (k = 0; k < 26; k++) printf("%s%.17g", k ? "," : "", v[k]);
        printf("\n");
    }
}

/* A torus about the z axis: radius R to the tube's centre, tube radius r, nu segments around
 * the axis and nv around the tube, two triangles a segment (37 x 18: 1,332 triangles). */
static void torus(Mesh *m, double R, double r, int nu, int nv) {
    int i, j, k = 0;
    m->n = 2 * nu * nv;
    m->tri = xcalloc((size_t)m->n, sizeof *m->tri);
    for (i = 0; i < nu; i++)
        for (j = 0; j < nv; j++) {
            double p[4][3];
            int c, corner;
            for (corner = 0; corner < 4; corner++) {
                double u = 2 * PI * (i + (corner == 1 || corner == 2)) / nu;
                double v = 2 * PI * (j + (corner >= 2)) / nv;
                p[corner][0] = (R + r * cos(v)) * cos(u);
                p[corner][1] = (R + r * cos(v)) * sin(u);
                p[corner][2] = r * sin(v);
            }
            for (c = 0; c < 3; c++) {
                m->tri[k].v[0][c] = p[0][c], m->tri[k].v[1][c] = p[1][c], m->tri[k].v[2][c] = p[2][c];
                m->tri[k + 1].v[0][c] = p[0][c], m->tri[k + 1].v[1][c] = p[2][c], m->tri[k + 1].v[2][c] = p[3][c];
            }
            k += 2;
        }
}

/* The falling scene: a torus (radius 1, tube 0.25) lies in the xy plane at the origin; a
 * smaller one (0.5, tube 0.15: 0.65 from its centre to its rim, the hole 0.75) falls along z
 * from 1.2 to -1.2 at a constant speed, its centre 0.25 off the axis, tumbling two turns about
 * a seeded axis from a seeded start: apart above and below, and through the hole, near the
 * ring where it passes edge-on and cutting into it where it is turned flat (seed 20261128:
 * 743 of 2,400 steps in contact, 243 within the tolerance, 1,414 apart). */
static int make_falling(Scene *s, int steps, uint64_t seed) {
    double start[3][3], axis[3], offset_dir;
    uint64_t state = seed;
    int i;
    snprintf(s->name, sizeof s->name, "falling");
    torus(&s->a, 1.0, 0.25, 37, 18);
    torus(&s->b, 0.5, 0.15, 37, 18);
    random_rotation(&state, start);
    unit_vector(&state, axis);
    offset_dir = 2 * PI * uniform(&state);
    s->npose = steps;
    s->poses = xcalloc((size_t)steps, sizeof *s->poses);
    for (i = 0; i < steps; i++) {
        Pose *p = &s->poses[i];
        double t = steps > 1 ? (double)i / (steps - 1) : 0, turn[3][3];
        identity(p->R1), p->s1 = p->s2 = 1;
        rotation(turn, axis, 4 * PI * t);
        matmul3(p->R2, turn, start);
        p->T2[0] = 0.25 * cos(offset_dir), p->T2[1] = 0.25 * sin(offset_dir), p->T2[2] = 1.2 - 2.4 * t;
    }
    tolerance_at_every_pose(s);
    return 0;
}

/* The random scene: MESH1 at the identity, MESH2 turned by a uniformly random rotation with its
 * bounding-box centre uniformly in MESH1's bounding box grown by MESH2's bounding radius on
 * every side (random transforms, as FCL's mesh-distance test draws them): overlapping, near and
 * apart, about a third each for rocker_arm and bunny_15k. */
static int make_random(Scene *s, const char *mesh1, const char *mesh2, int count, uint64_t seed) {
    char n1[128], n2[128];
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, c2[3], margin;
    uint64_t state = seed;
    int i, k, v, c;
    if (read_obj(mesh1, &s->a) || read_obj(mesh2, &s->b)) return 2;
    snprintf(s->name, sizeof s->name, "random-%s-%s", base_name(mesh1, n1, sizeof n1), base_name(mesh2, n2, sizeof n2));
    for (k = 0; k < s->a.n; k++)
        for (v = 0; v < 3; v++)
            for (c = 0; c < 3; c++) lo[c] = fmin(lo[c], s->a.tri[k].v[v][c]), hi[c] = fmax(hi[c], s->a.tri[k].v[v][c]);
    bounding_sphere(&s->b, c2, &margin);
    s->npose = count;
    s->poses = xcalloc((size_t)count, sizeof *s->poses);
    for (i = 0; i < count; i++) {
        Pose *p = &s->poses[i];
        double centre[3], rc2[3];
        identity(p->R1), p->s1 = p->s2 = 1;
        random_rotation(&state, p->R2);
        for (c = 0; c < 3; c++) centre[c] = lo[c] - margin + (hi[c] - lo[c] + 2 * margin) * uniform(&state);
        mul3(rc2, p->R2, c2);
        for (c = 0; c < 3; c++) p->T2[c] = centre[c] - rc2[c];
    }
    tolerance_at_every_pose(s);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* memory                                                                                      */

/* The legacy APIs take the triangles one AddTri call at a time, straight from the mesh. */
static void *rapid_build(const Mesh *mesh, void *input) { return (void)input, rapid_model(mesh); }
static long long rapid_reported(void *model) { return (void)model, -1; }
static void rapid_free(void *model) { RAPID_model_delete(model); }
static void *pqp_build(const Mesh *mesh, void *input) { return (void)input, pqp_model(mesh); }
static long long pqp_reported(void *model) { return PQP_MemUsage(model, 0); }
static void pqp_free(void *model) { PQP_Model_delete(model); }

/* ------------------------------------------------------------------------------------------ */

static int usage(const char *prog) {
    fprintf(stderr,
            "usage: %s serve fixture CASE_DIR\n"
            "       %s serve falling [STEPS [SEED]]\n"
            "       %s serve random MESH1.obj MESH2.obj [POSES [SEED]]\n"
            "       %s memory rapid|pqp MESH.obj\n",
            prog, prog, prog, prog);
    return 2;
}

int main(int argc, char **argv) {
    static const MemoryApi rapid = {"rapid", NULL, rapid_build, rapid_reported, NULL, rapid_free};
    static const MemoryApi pqp = {"pqp", NULL, pqp_build, pqp_reported, NULL, pqp_free};
    static Scene scene;
    int rc = -1;
    if (argc == 4 && !strcmp(argv[1], "memory")) {
        if (!strcmp(argv[2], "rapid")) return measure_memory(&rapid, argv[3]);
        if (!strcmp(argv[2], "pqp")) return measure_memory(&pqp, argv[3]);
        return usage(argv[0]);
    }
    if (argc < 3 || strcmp(argv[1], "serve")) return usage(argv[0]);
    if (!strcmp(argv[2], "fixture") && argc == 4) {
        rc = load_fixture(&scene, argv[3]);
    } else if (!strcmp(argv[2], "falling") && argc <= 5) {
        int steps = argc > 3 ? atoi(argv[3]) : 2400;
        if (steps < 1) return usage(argv[0]);
        rc = make_falling(&scene, steps, argc > 4 ? strtoull(argv[4], NULL, 10) : 20261128);
    } else if (!strcmp(argv[2], "random") && argc >= 5 && argc <= 7) {
        int count = argc > 5 ? atoi(argv[5]) : 2000;
        if (count < 1) return usage(argv[0]);
        rc = make_random(&scene, argv[3], argv[4], count, argc > 6 ? strtoull(argv[6], NULL, 10) : 20261128);
    } else {
        return usage(argv[0]);
    }
    if (rc != 0) return rc;
    if (!scene.recorded) print_poses(&scene);
    return serve(&scene);
}
