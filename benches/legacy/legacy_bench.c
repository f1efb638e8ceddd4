/*
 * legacy_bench: times rapidpqp the way an outside C program uses it. It includes
 * include/rapidpqp.h, is linked with target/release/librapidpqp.a (benches/build.rs compiles
 * it), and calls the legacy RAPID and PQP C entry points and the native rpq_* API.
 *
 *   legacy_bench [--passes N] fixture CASE_DIR
 *   legacy_bench [--passes N] [--steps N] [--seed S] trajectory CASE_DIR
 *   legacy_bench memory rapid|pqp|native MESH.obj
 *
 * fixture: a conformance case (tests/data/conformance/<case>, FORMAT.md there), measured as
 *   /work/shared/reference/ORIGINALS.md measured RAPID 2.01 and PQP 1.3: a.obj and b.obj
 *   become a RAPID and a PQP model each (triangle k added with id k), then for each query
 *   RAPID_Collide all / first contact, PQP_Collide all / first, PQP_Distance (rel_err 0,
 *   abs_err 0, qsize 2) over every pose, and PQP_Tolerance (qsize 2) over every line of
 *   pqp_tolerance.txt: one untimed pass whose answers are checked against the recorded ones,
 *   then N timed passes (default 5); the figure is the median pass, in µs per query.
 * trajectory: model 2 of the case moves around model 1 along a smooth, seeded path of N steps
 *   (default 1000) through contact, near contact and apart; each step is queried through
 *   the legacy PQP API (distance, tolerance, first contact; PQP keeps its warm start in the
 *   models) and the native API (rpq_distance with and without an RpqDistanceCache,
 *   rpq_tolerance, rpq_collide first contact). All modes must agree at every step.
 * memory: the process's resident memory (VmRSS, and VmHWM after resetting it) before and
 *   after building one model of the mesh through one API, the mesh read into plain arrays
 *   first. Run it in a fresh process for each measurement.
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

#include "fixture.h" /* c_tests/fixture.h: meshes, poses, contact records, pair lists */

/* Distances agree within this fraction of the model size (FORMAT.md). */
#define REL_EPS 1e-12
/* Disagreeing queries described in full per measurement; the rest are only counted. */
#define MAX_REPORTED 5
/* PQP_Distance and PQP_Tolerance as ORIGINALS.md ran them. */
#define QSIZE 2

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
/* Reading: pqp_distance.txt and pqp_tolerance.txt are tables of numbers                       */

/* A file of whitespace-separated numbers, `columns` to a line, stored row after row. */
typedef struct {
    int rows, columns;
    double *x;
} Table;

/* Columns of pqp_distance.txt and pqp_tolerance.txt (FORMAT.md). */
enum { DIST_RC, DIST_VALUE, DIST_BV_TESTS = 8, DIST_TRI_TESTS, DIST_COLUMNS };
enum { TOL_POSE, TOL_TOLERANCE, TOL_RC, TOL_CLOSER, TOL_DISTANCE, TOL_BV_TESTS = 11, TOL_TRI_TESTS, TOL_COLUMNS };

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
/* Geometry                                                                                    */

/* Centre of the bounding box and the largest distance of a vertex from it. */
static void bounding_sphere(const Mesh *m, double centre[3], double *radius) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, r2 = 0;
    int k, i, c;
    for (k = 0; k < m->n; k++)
        for (i = 0; i < 3; i++)
            for (c = 0; c < 3; c++) {
                lo[c] = fmin(lo[c], m->tri[k].v[i][c]);
                hi[c] = fmax(hi[c], m->tri[k].v[i][c]);
            }
    for (c = 0; c < 3; c++) centre[c] = 0.5 * (lo[c] + hi[c]);
    for (k = 0; k < m->n; k++)
        for (i = 0; i < 3; i++) {
            double dx = m->tri[k].v[i][0] - centre[0], dy = m->tri[k].v[i][1] - centre[1],
                   dz = m->tri[k].v[i][2] - centre[2];
            r2 = fmax(r2, dx * dx + dy * dy + dz * dz);
        }
    *radius = sqrt(r2);
}

/* Half the diagonal of the larger model's bounding box: distances agree within REL_EPS of it
 * (as c_tests/pqp_conformance.c). */
static double model_size(const Mesh *a, const Mesh *b) {
    double size = 0;
    const Mesh *m[2];
    int j, k, i, c;
    m[0] = a, m[1] = b;
    for (j = 0; j < 2; j++) {
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, d2 = 0;
        for (k = 0; k < m[j]->n; k++)
            for (i = 0; i < 3; i++)
                for (c = 0; c < 3; c++) {
                    lo[c] = fmin(lo[c], m[j]->tri[k].v[i][c]);
                    hi[c] = fmax(hi[c], m[j]->tri[k].v[i][c]);
                }
        for (c = 0; c < 3; c++) d2 += (hi[c] - lo[c]) * (hi[c] - lo[c]);
        size = fmax(size, 0.5 * sqrt(d2));
    }
    return size;
}

/* The rotation by `angle` about the unit axis u (Rodrigues). */
static void rotation(double R[3][3], const double u[3], double angle) {
    double c = cos(angle), s = sin(angle), t = 1 - c;
    R[0][0] = c + t * u[0] * u[0], R[0][1] = t * u[0] * u[1] - s * u[2], R[0][2] = t * u[0] * u[2] + s * u[1];
    R[1][0] = t * u[1] * u[0] + s * u[2], R[1][1] = c + t * u[1] * u[1], R[1][2] = t * u[1] * u[2] - s * u[0];
    R[2][0] = t * u[2] * u[0] - s * u[1], R[2][1] = t * u[2] * u[1] + s * u[0], R[2][2] = c + t * u[2] * u[2];
}

static void mul3(double out[3], const double R[3][3], const double p[3]) {
    int i;
    for (i = 0; i < 3; i++) out[i] = R[i][0] * p[0] + R[i][1] * p[1] + R[i][2] * p[2];
}

/* The soup of a mesh as rpq_model_build takes it: 9 doubles a triangle. */
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

/* ------------------------------------------------------------------------------------------ */
/* Building models through the C APIs (triangle k gets id k)                                   */

static RAPID_model *rapid_model(const Mesh *m) {
    RAPID_model *model = RAPID_model_new();
    int k, rc = model ? RAPID_BeginModel(model) : RAPID_ERR_MODEL_OUT_OF_MEMORY;
    for (k = 0; k < m->n && rc == RAPID_OK; k++)
        rc = RAPID_AddTri(model, m->tri[k].v[0], m->tri[k].v[1], m->tri[k].v[2], k);
    if (rc == RAPID_OK) rc = RAPID_EndModel(model);
    if (rc != RAPID_OK) {
        fprintf(stderr, "RAPID model build failed: %d\n", rc);
        RAPID_model_delete(model);
        return NULL;
    }
    return model;
}

static PQP_Model *pqp_model(const Mesh *m) {
    PQP_Model *model = PQP_Model_new();
    int k, rc = model ? PQP_BeginModel(model, m->n) : PQP_ERR_MODEL_OUT_OF_MEMORY;
    for (k = 0; k < m->n && rc == PQP_OK; k++)
        rc = PQP_AddTri(model, m->tri[k].v[0], m->tri[k].v[1], m->tri[k].v[2], k);
    if (rc == PQP_OK) rc = PQP_EndModel(model);
    if (rc != PQP_OK) {
        fprintf(stderr, "PQP model build failed: %d\n", rc);
        PQP_Model_delete(model);
        return NULL;
    }
    return model;
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

/* The contacts of the last RAPID_Collide, or of a PQP_Collide result, sorted, into out. */
static void rapid_pairs(PairList *out) {
    int k;
    out->n = 0;
    for (k = 0; k < RAPID_num_contacts; k++) pairs_push(out, RAPID_contact[k].id1, RAPID_contact[k].id2);
    pairs_sort(out);
}

static void pqp_pairs(PairList *out, const PQP_CollideResult *result) {
    int k;
    out->n = 0;
    for (k = 0; k < result->num_pairs; k++) pairs_push(out, result->pairs[k].id1, result->pairs[k].id2);
    pairs_sort(out);
}

/* ------------------------------------------------------------------------------------------ */
/* fixture: the conformance case's queries                                                     */

typedef enum {
    RAPID_ALL,
    RAPID_FIRST,
    PQP_COLLIDE_ALL,
    PQP_COLLIDE_FIRST,
    PQP_DISTANCE,
    PQP_TOLERANCE,
    NUM_FIXTURE_QUERIES
} FixtureQuery;

static const char *const fixture_query_name[NUM_FIXTURE_QUERIES] = {
    "RAPID_all", "RAPID_first", "PQP_collide_all", "PQP_collide_first", "PQP_distance", "PQP_tolerance",
};

/* The recorded answers of one query, one per pose (or per line of pqp_tolerance.txt). */
static const char *const fixture_record_file[NUM_FIXTURE_QUERIES] = {
    "rapid_all.txt", "rapid_first.txt", "pqp_collide_all.txt", "pqp_collide_first.txt", "pqp_distance.txt",
    "pqp_tolerance.txt",
};

typedef struct {
    const char *name;
    Mesh a, b;
    Pose *poses;
    int npose;
    double eps; /* REL_EPS times the model size */
    ContactRecord *contacts[PQP_DISTANCE]; /* the four collide records */
    Table distances, tolerances;
    RAPID_model *rapid_a, *rapid_b;
    PQP_Model *pqp_a, *pqp_b;
    PQP_CollideResult collide;
    PQP_DistanceResult distance;
    PQP_ToleranceResult tolerance;
} Fixture;

/* One timed or checked run of a query. */
typedef struct {
    Fixture *f;
    FixtureQuery query;
    int failed_calls; /* return codes other than OK in the timed passes */
} FixtureRun;

static int fixture_queries(const Fixture *f, FixtureQuery q) {
    return q == PQP_TOLERANCE ? f->tolerances.rows : f->npose;
}

/* Makes query number i (a pose, or a line of pqp_tolerance.txt); returns its return code. */
static int fixture_call(Fixture *f, FixtureQuery q, int i) {
    Pose *p = &f->poses[q == PQP_TOLERANCE ? (int)cell(&f->tolerances, i, TOL_POSE) : i];
    switch (q) {
    case RAPID_ALL:
    case RAPID_FIRST:
        return RAPID_Collide(p->R1, p->T1, f->rapid_a, p->R2, p->T2, f->rapid_b,
                             q == RAPID_ALL ? RAPID_ALL_CONTACTS : RAPID_FIRST_CONTACT);
    case PQP_COLLIDE_ALL:
    case PQP_COLLIDE_FIRST:
        return PQP_Collide(&f->collide, p->R1, p->T1, f->pqp_a, p->R2, p->T2, f->pqp_b,
                           q == PQP_COLLIDE_ALL ? PQP_ALL_CONTACTS : PQP_FIRST_CONTACT);
    case PQP_DISTANCE:
        return PQP_Distance(&f->distance, p->R1, p->T1, f->pqp_a, p->R2, p->T2, f->pqp_b, 0.0, 0.0, QSIZE);
    case PQP_TOLERANCE:
        return PQP_Tolerance(&f->tolerance, p->R1, p->T1, f->pqp_a, p->R2, p->T2, f->pqp_b,
                             cell(&f->tolerances, i, TOL_TOLERANCE), QSIZE);
    default:
        return -1;
    }
}

static void fixture_pass(void *ctx) {
    FixtureRun *run = ctx;
    int i, n = fixture_queries(run->f, run->query);
    for (i = 0; i < n; i++) run->failed_calls += fixture_call(run->f, run->query, i) != 0;
}

/* Work counts of the last call, ours and the record's. */
static void fixture_counts(const Fixture *f, FixtureQuery q, int i, double ours[2], double original[2]) {
    switch (q) {
    case RAPID_ALL:
    case RAPID_FIRST:
        ours[0] = RAPID_num_box_tests, ours[1] = RAPID_num_tri_tests;
        break;
    case PQP_COLLIDE_ALL:
    case PQP_COLLIDE_FIRST:
        ours[0] = f->collide.num_bv_tests, ours[1] = f->collide.num_tri_tests;
        break;
    case PQP_DISTANCE:
        ours[0] = f->distance.num_bv_tests, ours[1] = f->distance.num_tri_tests;
        break;
    default:
        ours[0] = f->tolerance.num_bv_tests, ours[1] = f->tolerance.num_tri_tests;
    }
    if (q < PQP_DISTANCE) {
        original[0] = f->contacts[q][i].bv_tests, original[1] = f->contacts[q][i].tri_tests;
    } else if (q == PQP_DISTANCE) {
        original[0] = cell(&f->distances, i, DIST_BV_TESTS), original[1] = cell(&f->distances, i, DIST_TRI_TESTS);
    } else {
        original[0] = cell(&f->tolerances, i, TOL_BV_TESTS), original[1] = cell(&f->tolerances, i, TOL_TRI_TESTS);
    }
}

/* Whether the answer of the call just made for query i agrees with the record (FORMAT.md's
 * rules); describes a disagreement into why. */
static int fixture_agrees(Fixture *f, FixtureQuery q, int i, int rc, PairList *ours, char *why, size_t size) {
    int recorded_rc;
    if (q < PQP_DISTANCE) {
        const ContactRecord *rec = &f->contacts[q][i];
        /* A first contact must be one of the recorded all-contacts pairs of its library. */
        const PairList *all = &f->contacts[q < PQP_COLLIDE_ALL ? RAPID_ALL : PQP_COLLIDE_ALL][i].pairs;
        int first = q == RAPID_FIRST || q == PQP_COLLIDE_FIRST;
        if (q < PQP_COLLIDE_ALL)
            rapid_pairs(ours);
        else
            pqp_pairs(ours, &f->collide);
        if (rc != rec->rc) {
            snprintf(why, size, "return code %d, recorded %d", rc, rec->rc);
            return 0;
        }
        if (ours->n != rec->pairs.n) {
            snprintf(why, size, "%d pairs, recorded %d", ours->n, rec->pairs.n);
            return 0;
        }
        if (first && ours->n > 0 && pairs_count(all, ours->p[0].id1, ours->p[0].id2) == 0) {
            snprintf(why, size, "first contact (%d,%d) is not a recorded contact", ours->p[0].id1, ours->p[0].id2);
            return 0;
        }
        if (!first && ours->n > 0 && memcmp(ours->p, rec->pairs.p, (size_t)ours->n * sizeof *ours->p) != 0) {
            PairList only_ours = {0, 0, NULL}, only_rec = {0, 0, NULL};
            pairs_diff(ours, &rec->pairs, &only_ours, &only_rec);
            snprintf(why, size, "a different contact set (below)");
            print_pairs(stderr, "only rapidpqp", &only_ours);
            print_pairs(stderr, "only recorded", &only_rec);
            free(only_ours.p), free(only_rec.p);
            return 0;
        }
        return 1;
    }
    if (q == PQP_DISTANCE) {
        double recorded = cell(&f->distances, i, DIST_VALUE);
        recorded_rc = (int)cell(&f->distances, i, DIST_RC);
        if (rc != recorded_rc || !(fabs(f->distance.distance - recorded) <= f->eps)) {
            snprintf(why, size, "return code %d (recorded %d), distance %.17g, recorded %.17g (eps %.3g)", rc,
                     recorded_rc, f->distance.distance, recorded, f->eps);
            return 0;
        }
        return 1;
    }
    {
        /* Either flag is accepted where the tolerance equals the pose's minimum distance. */
        int pose = (int)cell(&f->tolerances, i, TOL_POSE), closer = (int)cell(&f->tolerances, i, TOL_CLOSER);
        double tolerance = cell(&f->tolerances, i, TOL_TOLERANCE);
        double minimum = cell(&f->distances, pose, DIST_VALUE);
        int on_boundary = fabs(tolerance - minimum) <= f->eps;
        recorded_rc = (int)cell(&f->tolerances, i, TOL_RC);
        if (rc != recorded_rc || (f->tolerance.closer_than_tolerance != closer && !on_boundary)) {
            snprintf(why, size, "return code %d (recorded %d), closer %d, recorded %d (tolerance %.17g)", rc,
                     recorded_rc, f->tolerance.closer_than_tolerance, closer, tolerance);
            return 0;
        }
        return 1;
    }
}

/* Checks query q at every pose against the record, then times it; prints its row. Returns
 * the number of disagreeing queries. */
static int fixture_measure(Fixture *f, FixtureQuery q) {
    FixtureRun run;
    PairList ours = {0, 0, NULL};
    char why[512];
    double work[2] = {0, 0}, original_work[2] = {0, 0};
    int i, n = fixture_queries(f, q), agree = 0;
    Timing t;
    for (i = 0; i < n; i++) {
        double c[2], oc[2];
        int rc = fixture_call(f, q, i);
        fixture_counts(f, q, i, c, oc);
        work[0] += c[0], work[1] += c[1], original_work[0] += oc[0], original_work[1] += oc[1];
        if (fixture_agrees(f, q, i, rc, &ours, why, sizeof why)) {
            agree++;
        } else if (i + 1 - agree <= MAX_REPORTED) {
            fprintf(stderr, "MISMATCH %s %s %s %d: %s\n", f->name, fixture_query_name[q],
                    q == PQP_TOLERANCE ? "line" : "pose", i, why);
        }
    }
    if (n - agree > MAX_REPORTED)
        fprintf(stderr, "MISMATCH %s %s: %d more disagreeing queries\n", f->name, fixture_query_name[q],
                n - agree - MAX_REPORTED);
    free(ours.p);
    run.f = f, run.query = q, run.failed_calls = 0;
    t = time_passes(n, fixture_pass, &run);
    if (run.failed_calls)
        fprintf(stderr, "MISMATCH %s %s: %d calls failed in the timed passes\n", f->name, fixture_query_name[q],
                run.failed_calls);
    printf("row case=%s query=%s queries=%d passes=%d us=%.6g us_min=%.6g us_max=%.6g bv_tests=%.1f "
           "tri_tests=%.1f orig_bv_tests=%.1f orig_tri_tests=%.1f agree=%d checked=%d\n",
           f->name, fixture_query_name[q], n, passes, t.median, t.min, t.max, work[0] / n, work[1] / n,
           original_work[0] / n, original_work[1] / n, run.failed_calls ? 0 : agree, n);
    fflush(stdout);
    return n - agree + run.failed_calls;
}

static int run_fixture(const char *dir) {
    char name[256], path[4096];
    Fixture f;
    int q, p, failures = 0;
    memset(&f, 0, sizeof f);
    f.name = base_name(dir, name, sizeof name);
#define PATH(file) (snprintf(path, sizeof path, "%s/%s", dir, file), path)
    if (!file_exists(PATH(fixture_record_file[PQP_TOLERANCE]))) {
        fprintf(stderr, "%s: not a case with RAPID and PQP records (no %s)\n", dir, fixture_record_file[PQP_TOLERANCE]);
        return 2;
    }
    if (read_obj(PATH("a.obj"), &f.a) || read_obj(PATH("b.obj"), &f.b) ||
        read_poses(PATH("poses.txt"), &f.poses, &f.npose) ||
        read_table(PATH(fixture_record_file[PQP_DISTANCE]), DIST_COLUMNS, &f.distances) ||
        read_table(PATH(fixture_record_file[PQP_TOLERANCE]), TOL_COLUMNS, &f.tolerances))
        return 2;
    for (q = 0; q < PQP_DISTANCE; q++)
        if (read_contacts(PATH(fixture_record_file[q]), f.npose, &f.contacts[q])) return 2;
#undef PATH
    if (f.distances.rows != f.npose) {
        fprintf(stderr, "%s: %d distance lines for %d poses\n", f.name, f.distances.rows, f.npose);
        return 2;
    }
    for (p = 0; p < f.tolerances.rows; p++) {
        double pose = cell(&f.tolerances, p, TOL_POSE);
        if (!(pose >= 0 && pose < f.npose)) {
            fprintf(stderr, "%s: tolerance line %d names pose %g of %d\n", f.name, p, pose, f.npose);
            return 2;
        }
    }
    for (p = 0; p < f.npose; p++) {
        if (f.poses[p].s1 != 1.0 || f.poses[p].s2 != 1.0) {
            fprintf(stderr, "%s pose %d: scaled (RAPID_Collide and PQP take no scale)\n", f.name, p);
            return 2;
        }
    }
    f.eps = REL_EPS * model_size(&f.a, &f.b);
    f.rapid_a = rapid_model(&f.a), f.rapid_b = rapid_model(&f.b);
    f.pqp_a = pqp_model(&f.a), f.pqp_b = pqp_model(&f.b);
    if (!f.rapid_a || !f.rapid_b || !f.pqp_a || !f.pqp_b) return 2;

    for (q = 0; q < NUM_FIXTURE_QUERIES; q++) failures += fixture_measure(&f, q);

    PQP_CollideResult_FreePairsList(&f.collide);
    RAPID_model_delete(f.rapid_a), RAPID_model_delete(f.rapid_b);
    PQP_Model_delete(f.pqp_a), PQP_Model_delete(f.pqp_b);
    for (q = 0; q < PQP_DISTANCE; q++) free_contacts(f.contacts[q], f.npose);
    free(f.distances.x), free(f.tolerances.x), free(f.poses), free(f.a.tri), free(f.b.tri);
    return failures ? 1 : 0;
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

/* A deterministic generator (splitmix64). */
static double uniform(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static void unit_vector(uint64_t *state, double u[3]) {
    double n2;
    do {
        u[0] = 2 * uniform(state) - 1, u[1] = 2 * uniform(state) - 1, u[2] = 2 * uniform(state) - 1;
        n2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    } while (n2 < 1e-4 || n2 > 1);
    n2 = sqrt(n2);
    u[0] /= n2, u[1] /= n2, u[2] /= n2;
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
/* memory: one model build in this process                                                     */

/* VmRSS and VmHWM (the peak since the last reset_peak) of /proc/self/status, bytes (-1 when
 * unreadable). */
static void resident(long long *rss, long long *peak) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    *rss = *peak = -1;
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        long long kb;
        if (sscanf(line, "VmRSS: %lld kB", &kb) == 1) *rss = kb * 1024;
        if (sscanf(line, "VmHWM: %lld kB", &kb) == 1) *peak = kb * 1024;
    }
    fclose(f);
}

/* Resets VmHWM to the current VmRSS (Linux 4.0 and later); 0 on success. */
static int reset_peak(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    int ok = f && fputs("5", f) >= 0;
    if (f) ok = fclose(f) == 0 && ok;
    return ok ? 0 : -1;
}

static int run_memory(const char *api, const char *mesh_path) {
    char name[256];
    Mesh mesh = {0, NULL};
    double *vertices;
    uint32_t *faces;
    long long rss0, peak0, rss1, peak1, reported = -1;  /* bytes */
    int k, peak_ok;
    RAPID_model *rapid = NULL;
    PQP_Model *pqp = NULL;
    RpqModel *native = NULL;
    if (read_obj(mesh_path, &mesh)) return 2;
    /* rpq_model_build_indexed's input: the soup's corners as vertices (the model stores a soup
     * either way, so sharing would change only the input's size). */
    vertices = soup_coordinates(&mesh);
    faces = xcalloc((size_t)mesh.n * 3, sizeof *faces);
    for (k = 0; k < 3 * mesh.n; k++) faces[k] = (uint32_t)k;

    /* A one-triangle model built and deleted through the same API first: the library's first
     * use (its code paged in, its handle table set up) is not the model's size. */
    {
        Mesh one = {1, mesh.tri};
        double v[9];
        uint32_t f[3] = {0, 1, 2};
        RpqModel *m = NULL;
        memcpy(v, vertices, sizeof v);
        if (!strcmp(api, "rapid")) RAPID_model_delete(rapid_model(&one));
        if (!strcmp(api, "pqp")) PQP_Model_delete(pqp_model(&one));
        if (!strcmp(api, "native") && rpq_model_build_indexed(v, 3, f, 1, NULL, &m) == RPQ_OK) rpq_model_free(m);
    }
    peak_ok = reset_peak() == 0;
    resident(&rss0, &peak0);
    if (!strcmp(api, "rapid")) {
        rapid = rapid_model(&mesh);
    } else if (!strcmp(api, "pqp")) {
        pqp = pqp_model(&mesh);
    } else if (!strcmp(api, "native")) {
        if (rpq_model_build_indexed(vertices, (size_t)mesh.n * 3, faces, (size_t)mesh.n, NULL, &native) != RPQ_OK)
            native = NULL;
    } else {
        fprintf(stderr, "memory: unknown API %s (rapid, pqp or native)\n", api);
        return 2;
    }
    resident(&rss1, &peak1);
    if (!rapid && !pqp && !native) return 2;
    if (pqp) reported = PQP_MemUsage(pqp, 0);
    if (native) reported = (long long)rpq_model_memory_bytes(native);
    printf("memory api=%s mesh=%s triangles=%d rss_before=%lld rss_after=%lld peak_before=%lld peak_after=%lld "
           "reported=%lld\n", api, base_name(mesh_path, name, sizeof name), mesh.n, rss0, rss1,
           peak_ok ? peak0 : -1, peak_ok ? peak1 : -1, reported);
    RAPID_model_delete(rapid);
    PQP_Model_delete(pqp);
    rpq_model_free(native);
    free(vertices), free(faces), free(mesh.tri);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */

static int usage(const char *prog) {
    fprintf(stderr,
            "usage: %s [--passes N] fixture CASE_DIR\n"
            "       %s [--passes N] [--steps N] [--seed S] trajectory CASE_DIR\n"
            "       %s memory rapid|pqp|native MESH.obj\n",
            prog, prog, prog);
    return 2;
}

int main(int argc, char **argv) {
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
    if (k + 2 == argc && !strcmp(argv[k], "fixture")) return run_fixture(argv[k + 1]);
    if (k + 2 == argc && !strcmp(argv[k], "trajectory")) return run_trajectory(argv[k + 1], steps, seed);
    if (k + 3 == argc && !strcmp(argv[k], "memory")) return run_memory(argv[k + 1], argv[k + 2]);
    return usage(argv[0]);
}
