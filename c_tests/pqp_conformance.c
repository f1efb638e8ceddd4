/*
 * pqp_conformance: drives rapidpqp's legacy PQP C API (include/rapidpqp.h) over the conformance
 * cases (tests/data/conformance/<case>, format in FORMAT.md there) and checks the misuse
 * behaviour of spec/PQP.md sections 1-2, C_API.md section 2 and the rapidpqp-only codes of
 * src/ffi/pqp.rs.
 *
 *   pqp_conformance [--no-misuse] [--no-header] [--brute NAME]... [--skip dist|tol]... CASE_DIR...
 *
 * --no-misuse skips the misuse and layout checks, --no-header the table's column titles;
 * --brute NAME brute-forces the all-contacts answers of the case NAME (default: degenerate);
 * --skip dist / --skip tol leave out the distance / tolerance queries.
 *
 * For every case folder with a pqp_collide_all.txt: a.obj and b.obj become two PQP models
 * (PQP_BeginModel, triangle k added with PQP_AddTri(..., k), PQP_EndModel), and every line of
 * poses.txt (PQP has no scale: every pose must have s1 = s2 = 1) is queried and compared with
 * the recorded answers of PQP 1.3, by FORMAT.md's rules:
 *   - all:  PQP_Collide(ALL_CONTACTS): return code, and the same multiset of (id1, id2) pairs
 *           as pqp_collide_all.txt (order free). In the brute-forced cases (`degenerate`, and
 *           any named with --brute) PQP's answer is not the geometric truth: there the answer
 *           must equal the brute force one (every triangle pair as two one-triangle PQP
 *           models), and the poses where it differs from PQP's record are only counted.
 *   - first: PQP_Collide(FIRST_CONTACT): return code, the same number of pairs (0 or 1) as
 *           recorded (brute-forced cases: as the brute-force answer), and the pair is one of
 *           our own all-contacts pairs of that pose.
 *   - dist: PQP_Distance(rel_err 0, abs_err 0, qsize 2), poses in order on the same two models
 *           (PQP's warm start lives in the models): the distance equals the recorded one within
 *           eps = 1e-12 * size (size = half the diagonal of the larger model's bounding box);
 *           p1 (model 1's frame) lies on model 1 and p2 (model 2's frame) on model 2 within eps
 *           (brute force point-to-triangle distance over all triangles); the world points
 *           R1 p1 + T1 and R2 p2 + T2 are the distance apart within eps.
 *   - tol:  PQP_Tolerance(tolerance, qsize 2) for every line of pqp_tolerance.txt: return code;
 *           the closer flag as recorded, except where the tolerance equals the pose's minimum
 *           distance (PQP's recorded distance) within eps, where either is accepted. When
 *           closer: tolerance >= distance >= minimum - eps, and the points pass the checks of
 *           `dist`. When not closer: the distance written is a lower bound (<= minimum + eps),
 *           as src/ffi/pqp.rs documents.
 * A table gives, per case and query, the agreeing poses (lines) and the mean num_bv_tests and
 * num_tri_tests beside PQP's recorded ones. The exit status is nonzero on any disagreement, on
 * a misuse check that fails, or on unreadable input.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rapidpqp.h"

#include "ensure.h"
#include "fixture.h"

/* Mismatching poses described in full per case and query; the rest are only counted. */
#define MAX_REPORTED_POSES 5
/* Distances agree within this fraction of the model size (FORMAT.md). */
#define REL_EPS 1e-12

/* ------------------------------------------------------------------------------------------ */
/* Reading a case: the distance and tolerance records (the rest is in fixture.h)               */

/* One line of pqp_distance.txt. */
typedef struct {
    int rc, bv_tests, tri_tests;
    double distance, p1[3], p2[3];
} DistanceRecord;

/* One line of pqp_tolerance.txt. */
typedef struct {
    int pose, rc, closer, bv_tests, tri_tests;
    double tolerance, distance, p1[3], p2[3];
} ToleranceRecord;

static int read_distances(const char *path, int count, DistanceRecord **records) {
    FILE *f = fopen(path, "r");
    DistanceRecord *out;
    int p, extra;
    if (!f) {
        perror(path);
        return -1;
    }
    out = xcalloc((size_t)count, sizeof *out);
    for (p = 0; p < count; p++) {
        DistanceRecord *r = &out[p];
        if (fscanf(f, "%d %lf %lf %lf %lf %lf %lf %lf %d %d", &r->rc, &r->distance, &r->p1[0],
                   &r->p1[1], &r->p1[2], &r->p2[0], &r->p2[1], &r->p2[2], &r->bv_tests,
                   &r->tri_tests) != 10) {
            fprintf(stderr, "%s: line %d unreadable\n", path, p + 1);
            fclose(f);
            free(out);
            return -1;
        }
    }
    if (fscanf(f, "%d", &extra) == 1) {
        fprintf(stderr, "%s: more lines than the %d poses\n", path, count);
        fclose(f);
        free(out);
        return -1;
    }
    fclose(f);
    *records = out;
    return 0;
}

static int read_tolerances(const char *path, int npose, ToleranceRecord **records, int *count) {
    FILE *f = fopen(path, "r");
    ToleranceRecord *out = NULL, r;
    int n = 0, cap = 0, got;
    if (!f) {
        perror(path);
        return -1;
    }
    for (;;) {
        got = fscanf(f, "%d %lf %d %d %lf %lf %lf %lf %lf %lf %lf %d %d", &r.pose, &r.tolerance,
                     &r.rc, &r.closer, &r.distance, &r.p1[0], &r.p1[1], &r.p1[2], &r.p2[0],
                     &r.p2[1], &r.p2[2], &r.bv_tests, &r.tri_tests);
        if (got == EOF) break;
        if (got != 13 || r.pose < 0 || r.pose >= npose) {
            fprintf(stderr, "%s: line %d unreadable or names a pose out of range\n", path, n + 1);
            fclose(f);
            free(out);
            return -1;
        }
        if (n == cap) out = xrealloc(out, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *out);
        out[n++] = r;
    }
    fclose(f);
    *records = out;
    *count = n;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Geometry for the checks                                                                     */

static void sub3(double out[3], const double a[3], const double b[3]) {
    out[0] = a[0] - b[0], out[1] = a[1] - b[1], out[2] = a[2] - b[2];
}

static double dot3(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(double out[3], const double a[3], const double b[3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* R p + T */
static void place(double out[3], const double R[3][3], const double T[3], const double p[3]) {
    int i;
    for (i = 0; i < 3; i++) out[i] = R[i][0] * p[0] + R[i][1] * p[1] + R[i][2] * p[2] + T[i];
}

/* Squared distance from p to the segment [a, b] (a point when a == b). */
static double point_segment_d2(const double p[3], const double a[3], const double b[3]) {
    double ab[3], ap[3], q[3], len2, t;
    sub3(ab, b, a);
    sub3(ap, p, a);
    len2 = dot3(ab, ab);
    t = len2 > 0 ? dot3(ap, ab) / len2 : 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    q[0] = ap[0] - t * ab[0], q[1] = ap[1] - t * ab[1], q[2] = ap[2] - t * ab[2];
    return dot3(q, q);
}

/* Distance from p to a triangle (zero-area triangles included): the nearest edge, or the
 * plane when p projects inside the face. */
static double point_triangle_distance(const double p[3], const Tri *t) {
    double best = point_segment_d2(p, t->v[0], t->v[1]), d2, e1[3], e2[3], n[3], nn;
    int i, inside = 1;
    if ((d2 = point_segment_d2(p, t->v[1], t->v[2])) < best) best = d2;
    if ((d2 = point_segment_d2(p, t->v[2], t->v[0])) < best) best = d2;
    sub3(e1, t->v[1], t->v[0]);
    sub3(e2, t->v[2], t->v[0]);
    cross3(n, e1, e2);
    nn = dot3(n, n);
    if (nn > 0) {
        for (i = 0; i < 3 && inside; i++) {
            double edge[3], rel[3], c[3];
            sub3(edge, t->v[(i + 1) % 3], t->v[i]);
            sub3(rel, p, t->v[i]);
            cross3(c, edge, rel);
            inside = dot3(c, n) >= 0;
        }
        if (inside) {
            double rel[3], h;
            sub3(rel, p, t->v[0]);
            h = dot3(rel, n);
            d2 = h * h / nn;
            if (d2 < best) best = d2;
        }
    }
    return sqrt(best);
}

/* Distance from p to the mesh; stops early once it is found to be at most `enough`. */
static double point_mesh_distance(const double p[3], const Mesh *m, double enough) {
    double best = INFINITY;
    int k;
    for (k = 0; k < m->n; k++) {
        double d = point_triangle_distance(p, &m->tri[k]);
        if (d < best) {
            best = d;
            if (best <= enough) break;
        }
    }
    return best;
}

/* Half the diagonal of the mesh's bounding box. */
static double mesh_size(const Mesh *m) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, d[3];
    int k, i, c;
    if (m->n == 0) return 0;
    for (k = 0; k < m->n; k++)
        for (i = 0; i < 3; i++)
            for (c = 0; c < 3; c++) {
                if (m->tri[k].v[i][c] < lo[c]) lo[c] = m->tri[k].v[i][c];
                if (m->tri[k].v[i][c] > hi[c]) hi[c] = m->tri[k].v[i][c];
            }
    sub3(d, hi, lo);
    return 0.5 * sqrt(dot3(d, d));
}

/* Checks closest points p1 (model 1's frame) and p2 (model 2's frame) said to be `distance`
 * apart: each on its model and the placed points that far apart, within eps. Writes a
 * description of the first failure into why; returns 1 when all hold. */
static int points_ok(const Pose *pose, const Mesh *a, const Mesh *b, double distance,
                     const double p1[3], const double p2[3], double eps, char *why, size_t size) {
    double w1[3], w2[3], gap[3], on1, on2, apart;
    if (!isfinite(p1[0]) || !isfinite(p1[1]) || !isfinite(p1[2]) || !isfinite(p2[0]) ||
        !isfinite(p2[1]) || !isfinite(p2[2])) {
        snprintf(why, size, "a closest point is not finite");
        return 0;
    }
    on1 = point_mesh_distance(p1, a, eps);
    if (on1 > eps) {
        snprintf(why, size, "p1 (%.17g %.17g %.17g) is %.3g from model 1 (eps %.3g)", p1[0], p1[1],
                 p1[2], on1, eps);
        return 0;
    }
    on2 = point_mesh_distance(p2, b, eps);
    if (on2 > eps) {
        snprintf(why, size, "p2 (%.17g %.17g %.17g) is %.3g from model 2 (eps %.3g)", p2[0], p2[1],
                 p2[2], on2, eps);
        return 0;
    }
    place(w1, pose->R1, pose->T1, p1);
    place(w2, pose->R2, pose->T2, p2);
    sub3(gap, w1, w2);
    apart = sqrt(dot3(gap, gap));
    if (fabs(apart - distance) > eps) {
        snprintf(why, size, "the placed points are %.17g apart, the distance is %.17g (eps %.3g)",
                 apart, distance, eps);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* The library under test                                                                      */

/* A built model of triangles tris[0..n) with ids first_id, first_id + 1, ...; NULL on error. */
static PQP_Model *build_model(const Tri *tris, int n, int first_id, const char *what) {
    PQP_Model *m = PQP_Model_new();
    int k, rc;
    if (!m) {
        fprintf(stderr, "%s: PQP_Model_new returned NULL\n", what);
        return NULL;
    }
    if ((rc = PQP_BeginModel(m, n)) != PQP_OK) {
        fprintf(stderr, "%s: PQP_BeginModel returned %d\n", what, rc);
        PQP_Model_delete(m);
        return NULL;
    }
    for (k = 0; k < n; k++) {
        if ((rc = PQP_AddTri(m, tris[k].v[0], tris[k].v[1], tris[k].v[2], first_id + k)) != PQP_OK) {
            fprintf(stderr, "%s: PQP_AddTri of triangle %d returned %d\n", what, k, rc);
            PQP_Model_delete(m);
            return NULL;
        }
    }
    if ((rc = PQP_EndModel(m)) != PQP_OK) {
        fprintf(stderr, "%s: PQP_EndModel returned %d\n", what, rc);
        PQP_Model_delete(m);
        return NULL;
    }
    return m;
}

/* PQP_Collide at a pose into `res`; the pairs are copied (sorted) into out. */
static int collide(PQP_CollideResult *res, Pose *pose, PQP_Model *a, PQP_Model *b, int flag,
                   PairList *out) {
    int rc = PQP_Collide(res, pose->R1, pose->T1, a, pose->R2, pose->T2, b, flag), k;
    out->n = 0;
    if (rc == PQP_OK)
        for (k = 0; k < res->num_pairs; k++) pairs_push(out, res->pairs[k].id1, res->pairs[k].id2);
    pairs_sort(out);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Brute force: one-triangle models (no hierarchy)                                             */

typedef struct {
    int n;
    PQP_Model **single;
} Singles;

static int singles_build(Singles *s, const Mesh *mesh, const char *what) {
    int k;
    s->n = mesh->n;
    s->single = xcalloc((size_t)mesh->n, sizeof *s->single);
    for (k = 0; k < mesh->n; k++)
        if (!(s->single[k] = build_model(&mesh->tri[k], 1, k, what))) return -1;
    return 0;
}

static void singles_free(Singles *s) {
    int k;
    if (s->single)
        for (k = 0; k < s->n; k++) PQP_Model_delete(s->single[k]);
    free(s->single);
    s->single = NULL;
}

/* Every colliding triangle pair at the pose, sorted, into out; -1 on error. */
static int brute_all(PQP_CollideResult *res, Pose *pose, const Singles *a, const Singles *b,
                     PairList *out, PairList *scratch) {
    int ia, ib, rc;
    out->n = 0;
    for (ia = 0; ia < a->n; ia++)
        for (ib = 0; ib < b->n; ib++) {
            if ((rc = collide(res, pose, a->single[ia], b->single[ib], PQP_ALL_CONTACTS, scratch)) != PQP_OK) {
                fprintf(stderr, "brute force: PQP_Collide returned %d\n", rc);
                return -1;
            }
            if (scratch->n > 0) pairs_push(out, ia, ib);
        }
    pairs_sort(out);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* One case                                                                                    */

typedef struct {
    const char **brute;
    int nbrute;
    int skip_dist, skip_tol;
} Options;

typedef struct {
    int agree, poses;
    double bv_ours, bv_pqp, tri_ours, tri_pqp, ms;
} Row;

static void print_row(const char *name, const char *query, const Row *r, const char *note) {
    double n = r->poses ? r->poses : 1;
    printf("%-14s %-6s %5d / %-5d   %12.1f %12.1f   %10.1f %10.1f  %9.1f%s%s\n", name, query,
           r->agree, r->poses, r->bv_ours / n, r->bv_pqp / n, r->tri_ours / n, r->tri_pqp / n,
           r->ms, note ? "  " : "", note ? note : "");
    fflush(stdout);
}

/* Describes a mismatch (only the first MAX_REPORTED_POSES of a query in full). */
#define MISMATCH(counter, ...)                                                                  \
    do {                                                                                        \
        failures++;                                                                             \
        if ((counter)++ < MAX_REPORTED_POSES) fprintf(stderr, __VA_ARGS__);                      \
    } while (0)

/* Runs one case; returns the number of failures (disagreements and errors). */
static int run_case(const char *dir, const Options *opt) {
    char name[256], path[4096], why[512], note[160];
    Mesh a = {0, NULL}, b = {0, NULL};
    Pose *poses = NULL;
    ContactRecord *all = NULL, *first = NULL;
    DistanceRecord *dist = NULL;
    ToleranceRecord *tol = NULL;
    int npose = 0, ntol = 0, failures = 0, p, k, reported, brute = 0, differ_from_pqp = 0;
    PQP_Model *ma = NULL, *mb = NULL;
    PQP_CollideResult cres;
    PQP_DistanceResult dres;
    PQP_ToleranceResult tres;
    PairList *ours_all = NULL, *truth = NULL, ours = {0, 0, NULL}, only_ours = {0, 0, NULL},
             only_ref = {0, 0, NULL}, scratch = {0, 0, NULL};
    Singles sa = {0, NULL}, sb = {0, NULL};
    Row row;
    double t0, size, eps;

    memset(&cres, 0, sizeof cres); /* a zero-filled result is a valid empty one */
    memset(&dres, 0, sizeof dres);
    memset(&tres, 0, sizeof tres);
    base_name(dir, name, sizeof name);
    for (k = 0; k < opt->nbrute; k++) brute |= strcmp(opt->brute[k], name) == 0;
    snprintf(path, sizeof path, "%s/pqp_collide_all.txt", dir);
    if (!file_exists(path)) {
        printf("%-14s (no pqp_collide_all.txt: skipped)\n", name);
        return 0;
    }
#define PATH(file) (snprintf(path, sizeof path, "%s/%s", dir, file), path)
    if (read_obj(PATH("a.obj"), &a) || read_obj(PATH("b.obj"), &b) ||
        read_poses(PATH("poses.txt"), &poses, &npose) ||
        read_contacts(PATH("pqp_collide_all.txt"), npose, &all) ||
        read_contacts(PATH("pqp_collide_first.txt"), npose, &first) ||
        read_distances(PATH("pqp_distance.txt"), npose, &dist) ||
        read_tolerances(PATH("pqp_tolerance.txt"), npose, &tol, &ntol)) {
        fprintf(stderr, "%s: cannot read the case\n", name);
        failures++;
        goto done;
    }
#undef PATH
    for (p = 0; p < npose; p++) {
        if (poses[p].s1 != 1.0 || poses[p].s2 != 1.0) {
            fprintf(stderr, "%s pose %d: scale %g, %g in a case with PQP files (PQP has no scale)\n",
                    name, p, poses[p].s1, poses[p].s2);
            failures++;
        }
    }
    if (failures) goto done;
    size = fmax(mesh_size(&a), mesh_size(&b));
    eps = REL_EPS * size;
    ma = build_model(a.tri, a.n, 0, "model 1 (a.obj)");
    mb = build_model(b.tri, b.n, 0, "model 2 (b.obj)");
    if (!ma || !mb) {
        failures++;
        goto done;
    }

    /* All contacts (against brute force in the brute-forced cases). */
    ours_all = xcalloc((size_t)npose, sizeof *ours_all);
    if (brute) {
        truth = xcalloc((size_t)npose, sizeof *truth);
        if (singles_build(&sa, &a, "brute force model 1") || singles_build(&sb, &b, "brute force model 2")) {
            failures++;
            goto done;
        }
        for (p = 0; p < npose; p++) {
            if (brute_all(&cres, &poses[p], &sa, &sb, &truth[p], &scratch)) {
                failures++;
                goto done;
            }
        }
    }
    memset(&row, 0, sizeof row);
    row.poses = npose;
    reported = 0;
    t0 = now_ms();
    for (p = 0; p < npose; p++) {
        int rc = collide(&cres, &poses[p], ma, mb, PQP_ALL_CONTACTS, &ours_all[p]);
        const PairList *ref = brute ? &truth[p] : &all[p].pairs;
        row.bv_ours += cres.num_bv_tests, row.tri_ours += cres.num_tri_tests;
        row.bv_pqp += all[p].bv_tests, row.tri_pqp += all[p].tri_tests;
        if (cres.num_pairs_alloced < cres.num_pairs || (cres.num_pairs > 0 && !cres.pairs))
            MISMATCH(reported, "%s all pose %d: num_pairs %d, num_pairs_alloced %d, pairs %p\n", name,
                     p, cres.num_pairs, cres.num_pairs_alloced, (void *)cres.pairs);
        if (brute) {
            pairs_diff(&truth[p], &all[p].pairs, &only_ours, &only_ref);
            differ_from_pqp += only_ours.n + only_ref.n > 0;
        }
        pairs_diff(&ours_all[p], ref, &only_ours, &only_ref);
        if (rc == PQP_OK && all[p].rc == PQP_OK && only_ours.n + only_ref.n == 0) {
            row.agree++;
            continue;
        }
        failures++;
        if (reported++ < MAX_REPORTED_POSES) {
            fprintf(stderr, "%s all pose %d: rc %d (PQP %d), %d pairs (%s %d)\n", name, p, rc,
                    all[p].rc, ours_all[p].n, brute ? "brute force" : "PQP", ref->n);
            print_pairs(stderr, "only rapidpqp", &only_ours);
            print_pairs(stderr, brute ? "only brute force" : "only PQP", &only_ref);
        }
    }
    row.ms = now_ms() - t0;
    if (reported > MAX_REPORTED_POSES)
        fprintf(stderr, "%s all: %d more disagreeing poses not described\n", name, reported - MAX_REPORTED_POSES);
    if (brute) {
        snprintf(note, sizeof note, "vs brute force; PQP's record differs from brute force on %d pose(s)",
                 differ_from_pqp);
        print_row(name, "all", &row, note);
    } else {
        print_row(name, "all", &row, NULL);
    }

    /* First contact. */
    memset(&row, 0, sizeof row);
    row.poses = npose;
    reported = 0;
    t0 = now_ms();
    for (p = 0; p < npose; p++) {
        int rc = collide(&cres, &poses[p], ma, mb, PQP_FIRST_CONTACT, &ours);
        int expect_n = brute ? truth[p].n > 0 : first[p].pairs.n;
        int ok = rc == PQP_OK && first[p].rc == PQP_OK && ours.n == expect_n &&
                 (ours.n == 0 || pairs_count(&ours_all[p], ours.p[0].id1, ours.p[0].id2) > 0);
        row.bv_ours += cres.num_bv_tests, row.tri_ours += cres.num_tri_tests;
        row.bv_pqp += first[p].bv_tests, row.tri_pqp += first[p].tri_tests;
        if (ok) {
            row.agree++;
            continue;
        }
        failures++;
        if (reported++ < MAX_REPORTED_POSES) {
            fprintf(stderr, "%s first pose %d: rc %d (PQP %d), %d pairs (expected %d)", name, p, rc,
                    first[p].rc, ours.n, expect_n);
            if (ours.n > 0) fprintf(stderr, ", pair (%d,%d)", ours.p[0].id1, ours.p[0].id2);
            fprintf(stderr, "%s\n", ours.n > 0 ? " (must be one of our all-contacts pairs)" : "");
        }
    }
    row.ms = now_ms() - t0;
    if (reported > MAX_REPORTED_POSES)
        fprintf(stderr, "%s first: %d more disagreeing poses not described\n", name, reported - MAX_REPORTED_POSES);
    print_row(name, "first", &row, NULL);

    /* Distance, poses in order on the same two models (the warm start lives in them). */
    if (!opt->skip_dist) {
        double worst = 0;
        memset(&row, 0, sizeof row);
        row.poses = npose;
        reported = 0;
        t0 = now_ms();
        for (p = 0; p < npose; p++) {
            Pose *q = &poses[p];
            const DistanceRecord *r = &dist[p];
            int rc = PQP_Distance(&dres, q->R1, q->T1, ma, q->R2, q->T2, mb, 0.0, 0.0, 2);
            row.bv_ours += dres.num_bv_tests, row.tri_ours += dres.num_tri_tests;
            row.bv_pqp += r->bv_tests, row.tri_pqp += r->tri_tests;
            if (rc != PQP_OK || r->rc != PQP_OK) {
                MISMATCH(reported, "%s dist pose %d: rc %d (PQP %d)\n", name, p, rc, r->rc);
                continue;
            }
            if (fabs(dres.distance - r->distance) > worst) worst = fabs(dres.distance - r->distance);
            if (!(fabs(dres.distance - r->distance) <= eps)) {
                MISMATCH(reported, "%s dist pose %d: distance %.17g, PQP %.17g (difference %.3g, eps %.3g)\n",
                         name, p, dres.distance, r->distance, dres.distance - r->distance, eps);
                continue;
            }
            if (!points_ok(q, &a, &b, dres.distance, dres.p1, dres.p2, eps, why, sizeof why)) {
                MISMATCH(reported, "%s dist pose %d: distance %.17g: %s\n", name, p, dres.distance, why);
                continue;
            }
            row.agree++;
        }
        row.ms = now_ms() - t0;
        if (reported > MAX_REPORTED_POSES)
            fprintf(stderr, "%s dist: %d more disagreeing poses not described\n", name, reported - MAX_REPORTED_POSES);
        snprintf(note, sizeof note, "max |d - PQP| = %.2e (eps %.1e)", worst, eps);
        print_row(name, "dist", &row, note);
    }

    /* Tolerance. */
    if (!opt->skip_tol) {
        int either = 0;
        memset(&row, 0, sizeof row);
        row.poses = ntol;
        reported = 0;
        t0 = now_ms();
        for (k = 0; k < ntol; k++) {
            const ToleranceRecord *r = &tol[k];
            Pose *q = &poses[r->pose];
            double mind = dist[r->pose].distance;
            int ambiguous = fabs(r->tolerance - mind) <= eps;
            int rc = PQP_Tolerance(&tres, q->R1, q->T1, ma, q->R2, q->T2, mb, r->tolerance, 2);
            row.bv_ours += tres.num_bv_tests, row.tri_ours += tres.num_tri_tests;
            row.bv_pqp += r->bv_tests, row.tri_pqp += r->tri_tests;
            if (rc != PQP_OK || r->rc != PQP_OK) {
                MISMATCH(reported, "%s tol line %d (pose %d): rc %d (PQP %d)\n", name, k, r->pose, rc, r->rc);
                continue;
            }
            if (tres.tolerance != r->tolerance) {
                MISMATCH(reported, "%s tol line %d (pose %d): stored tolerance %.17g, asked %.17g\n",
                         name, k, r->pose, tres.tolerance, r->tolerance);
                continue;
            }
            if ((tres.closer_than_tolerance != 0) != (r->closer != 0) && !ambiguous) {
                MISMATCH(reported, "%s tol line %d (pose %d): tolerance %.17g, closer %d (PQP %d), minimum distance %.17g\n",
                         name, k, r->pose, r->tolerance, tres.closer_than_tolerance, r->closer, mind);
                continue;
            }
            if ((tres.closer_than_tolerance != 0) != (r->closer != 0)) either++;
            if (tres.closer_than_tolerance) {
                if (!(tres.distance <= r->tolerance && tres.distance >= mind - eps)) {
                    MISMATCH(reported, "%s tol line %d (pose %d): closer with distance %.17g, tolerance %.17g, minimum %.17g\n",
                             name, k, r->pose, tres.distance, r->tolerance, mind);
                    continue;
                }
                if (!points_ok(q, &a, &b, tres.distance, tres.p1, tres.p2, eps, why, sizeof why)) {
                    MISMATCH(reported, "%s tol line %d (pose %d): distance %.17g: %s\n", name, k,
                             r->pose, tres.distance, why);
                    continue;
                }
            } else if (!(tres.distance <= mind + eps)) {
                MISMATCH(reported, "%s tol line %d (pose %d): not closer, distance %.17g is not a lower bound of the minimum %.17g\n",
                         name, k, r->pose, tres.distance, mind);
                continue;
            }
            row.agree++;
        }
        row.ms = now_ms() - t0;
        if (reported > MAX_REPORTED_POSES)
            fprintf(stderr, "%s tol: %d more disagreeing lines not described\n", name, reported - MAX_REPORTED_POSES);
        snprintf(note, sizeof note, "(lines; %d where tolerance = minimum distance and the flag differs)", either);
        print_row(name, "tol", &row, note);
    }

done:
    PQP_CollideResult_FreePairsList(&cres);
    if (cres.pairs != NULL || cres.num_pairs != 0 || cres.num_pairs_alloced != 0) {
        fprintf(stderr, "%s: PQP_CollideResult_FreePairsList left pairs %p, %d / %d\n", name,
                (void *)cres.pairs, cres.num_pairs, cres.num_pairs_alloced);
        failures++;
    }
    singles_free(&sa);
    singles_free(&sb);
    PQP_Model_delete(ma);
    PQP_Model_delete(mb);
    if (ours_all)
        for (p = 0; p < npose; p++) free(ours_all[p].p);
    if (truth)
        for (p = 0; p < npose; p++) free(truth[p].p);
    free(ours_all);
    free(truth);
    free_contacts(all, npose);
    free_contacts(first, npose);
    free(dist);
    free(tol);
    free(poses);
    free(a.tri);
    free(b.tri);
    free(ours.p);
    free(only_ours.p);
    free(only_ref.p);
    free(scratch.p);
    return failures;
}

/* ------------------------------------------------------------------------------------------ */
/* Misuse and layout (PQP.md sections 1-3, C_API.md section 2, src/ffi/pqp.rs)                 */

/* Model 1's unit right triangle in z = 0 and model 2's triangle in x = 0.25 piercing it. */
static const double A0[3] = {0, 0, 0}, A1[3] = {1, 0, 0}, A2[3] = {0, 1, 0};
static const double B0[3] = {0.25, 0.1, -0.5}, B1[3] = {0.25, 0.5, -0.5}, B2[3] = {0.25, 0.3, 0.5};

/* `copies` copies of A's triangle, ids first_id, first_id + 1, ... */
static PQP_Model *a_model(int copies, int first_id) {
    PQP_Model *m = PQP_Model_new();
    int k;
    ENSURE(m != NULL);
    ENSURE_EQ_INT(PQP_BeginModel(m, 0), PQP_OK);
    for (k = 0; k < copies; k++) ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, A2, first_id + k), PQP_OK);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_OK);
    return m;
}

static PQP_Model *b_model(int id) {
    PQP_Model *m = PQP_Model_new();
    ENSURE(m != NULL);
    ENSURE_EQ_INT(PQP_BeginModel(m, 1), PQP_OK);
    ENSURE_EQ_INT(PQP_AddTri(m, B0, B1, B2, id), PQP_OK);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_OK);
    return m;
}

static double I3[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static double Z3[3] = {0, 0, 0};
static double FAR3[3] = {10, 0, 0};

/* PQP_Collide of a and b both at the identity. */
static int collide_identity(PQP_CollideResult *res, PQP_Model *a, PQP_Model *b, int flag) {
    return PQP_Collide(res, I3, Z3, a, I3, Z3, b, flag);
}

/* Whether the result holds exactly one pair, (id1, id2). */
static int result_has_only(const PQP_CollideResult *res, int id1, int id2) {
    return res->num_pairs == 1 && res->num_pairs_alloced >= 1 && res->pairs != NULL &&
           res->pairs[0].id1 == id1 && res->pairs[0].id2 == id2;
}

static void check_layout(void) {
    ENSURE_EQ_INT(sizeof(CollisionPair), 8);
    ENSURE_EQ_INT(offsetof(CollisionPair, id1), 0);
    ENSURE_EQ_INT(offsetof(CollisionPair, id2), 4);

    ENSURE_EQ_INT(sizeof(PQP_CollideResult), 128);
    ENSURE_EQ_INT(offsetof(PQP_CollideResult, num_bv_tests), 0);
    ENSURE_EQ_INT(offsetof(PQP_CollideResult, num_tri_tests), 4);
    ENSURE_EQ_INT(offsetof(PQP_CollideResult, query_time_secs), 8);
    ENSURE_EQ_INT(offsetof(PQP_CollideResult, R), 16);
    ENSURE_EQ_INT(offsetof(PQP_CollideResult, T), 88);
    ENSURE_EQ_INT(offsetof(PQP_CollideResult, num_pairs_alloced), 112);
    ENSURE_EQ_INT(offsetof(PQP_CollideResult, num_pairs), 116);
    ENSURE_EQ_INT(offsetof(PQP_CollideResult, pairs), 120);

    ENSURE_EQ_INT(sizeof(PQP_DistanceResult), 192);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, num_bv_tests), 0);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, num_tri_tests), 4);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, query_time_secs), 8);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, R), 16);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, T), 88);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, rel_err), 112);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, abs_err), 120);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, distance), 128);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, p1), 136);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, p2), 160);
    ENSURE_EQ_INT(offsetof(PQP_DistanceResult, qsize), 184);

    ENSURE_EQ_INT(sizeof(PQP_ToleranceResult), 192);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, num_bv_tests), 0);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, num_tri_tests), 4);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, query_time_secs), 8);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, R), 16);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, T), 88);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, closer_than_tolerance), 112);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, tolerance), 120);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, distance), 128);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, p1), 136);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, p2), 160);
    ENSURE_EQ_INT(offsetof(PQP_ToleranceResult, qsize), 184);

    /* The constants of PQP 1.3 (PQP.md section 1.1) and distinct new codes. */
    ENSURE_EQ_INT(PQP_OK, 0);
    ENSURE_EQ_INT(PQP_ERR_MODEL_OUT_OF_MEMORY, -1);
    ENSURE_EQ_INT(PQP_ERR_OUT_OF_MEMORY, -2);
    ENSURE_EQ_INT(PQP_ERR_UNPROCESSED_MODEL, -3);
    ENSURE_EQ_INT(PQP_ERR_BUILD_OUT_OF_SEQUENCE, -4);
    ENSURE_EQ_INT(PQP_ERR_BUILD_EMPTY_MODEL, -5);
    ENSURE_EQ_INT(PQP_ALL_CONTACTS, 1);
    ENSURE_EQ_INT(PQP_FIRST_CONTACT, 2);
    ENSURE(PQP_ERR_NULL_POINTER < -5 && PQP_ERR_NON_FINITE < -5 && PQP_ERR_INVALID_ARGUMENT < -5 &&
           PQP_ERR_INVALID_MODEL < -5);
    ENSURE(PQP_ERR_NULL_POINTER != PQP_ERR_NON_FINITE && PQP_ERR_NULL_POINTER != PQP_ERR_INVALID_ARGUMENT &&
           PQP_ERR_NULL_POINTER != PQP_ERR_INVALID_MODEL && PQP_ERR_NON_FINITE != PQP_ERR_INVALID_ARGUMENT &&
           PQP_ERR_NON_FINITE != PQP_ERR_INVALID_MODEL && PQP_ERR_INVALID_ARGUMENT != PQP_ERR_INVALID_MODEL);
}

/* Building: PQP.md section 1.3. */
static void check_build(void) {
    const double nan_point[3] = {0, NAN, 0}, inf_point[3] = {INFINITY, 0, 0};
    PQP_CollideResult res;
    PQP_Model *m, *b = b_model(7);
    memset(&res, 0, sizeof res);

    PQP_Model_delete(NULL); /* a no-op */

    /* BeginModel twice: -4 (and the model is restarted). */
    m = PQP_Model_new();
    ENSURE(m != NULL);
    ENSURE_EQ_INT(PQP_BeginModel(m, 4), PQP_OK);
    ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, A2, 1), PQP_OK);
    ENSURE_EQ_INT(PQP_BeginModel(m, 4), PQP_ERR_BUILD_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_ERR_BUILD_EMPTY_MODEL); /* the triangle went with it */
    ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, A2, 2), PQP_OK);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_OK);
    ENSURE_EQ_INT(collide_identity(&res, m, b, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE(result_has_only(&res, 2, 7));
    /* BeginModel on a built model: -4, and it is unprocessed until built again. */
    ENSURE_EQ_INT(PQP_BeginModel(m, 0), PQP_ERR_BUILD_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(collide_identity(&res, m, b, PQP_ALL_CONTACTS), PQP_ERR_UNPROCESSED_MODEL);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_ERR_BUILD_EMPTY_MODEL);
    PQP_Model_delete(m);

    /* AddTri before BeginModel works (PQP begins the model itself and returns 0). */
    m = PQP_Model_new();
    ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, A2, 3), PQP_OK);
    ENSURE_EQ_INT(PQP_BeginModel(m, 0), PQP_ERR_BUILD_OUT_OF_SEQUENCE); /* it is begun now */
    ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, A2, 4), PQP_OK);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_OK);
    ENSURE_EQ_INT(collide_identity(&res, m, b, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE(result_has_only(&res, 4, 7));
    ENSURE(PQP_MemUsage(m, 0) > 0);

    /* AddTri after EndModel: -4, nothing added; EndModel twice: -4, the model still usable. */
    ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, A2, 99), PQP_ERR_BUILD_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_ERR_BUILD_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(collide_identity(&res, m, b, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE(result_has_only(&res, 4, 7));
    PQP_Model_delete(m);

    /* EndModel empty: -5 (never begun, and begun). */
    m = PQP_Model_new();
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_ERR_BUILD_EMPTY_MODEL);
    ENSURE_EQ_INT(PQP_BeginModel(m, -3), PQP_OK); /* num_tris <= 0 means 8 */
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_ERR_BUILD_EMPTY_MODEL);
    ENSURE_EQ_INT(PQP_MemUsage(m, 0) >= 0, 1);

    /* NaN / infinite coordinates and NULL points: a new code, nothing added. */
    ENSURE_EQ_INT(PQP_AddTri(m, A0, nan_point, A2, 5), PQP_ERR_NON_FINITE);
    ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, inf_point, 5), PQP_ERR_NON_FINITE);
    ENSURE_EQ_INT(PQP_AddTri(m, NULL, A1, A2, 5), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_AddTri(m, A0, NULL, A2, 5), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, NULL, 5), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_ERR_BUILD_EMPTY_MODEL);
    ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, A2, 6), PQP_OK);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_OK);
    ENSURE_EQ_INT(collide_identity(&res, m, b, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE(result_has_only(&res, 6, 7));

    /* NULL models. */
    ENSURE_EQ_INT(PQP_BeginModel(NULL, 0), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_AddTri(NULL, A0, A1, A2, 0), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_EndModel(NULL), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_MemUsage(NULL, 0), 0);

    /* Double delete is safe, and a deleted model is refused (before any new model could take
     * its address). */
    PQP_Model_delete(m);
    PQP_Model_delete(m);
    ENSURE_EQ_INT(PQP_BeginModel(m, 0), PQP_ERR_INVALID_MODEL);
    ENSURE_EQ_INT(PQP_AddTri(m, A0, A1, A2, 0), PQP_ERR_INVALID_MODEL);
    ENSURE_EQ_INT(PQP_EndModel(m), PQP_ERR_INVALID_MODEL);
    ENSURE_EQ_INT(collide_identity(&res, m, b, PQP_ALL_CONTACTS), PQP_ERR_INVALID_MODEL);
    ENSURE_EQ_INT(collide_identity(&res, b, m, PQP_ALL_CONTACTS), PQP_ERR_INVALID_MODEL);

    PQP_Model_delete(b);
    PQP_CollideResult_FreePairsList(&res);
}

/* PQP_Collide: results, flags, pair growth, refusals (PQP.md section 2.1). */
static void check_collide(void) {
    PQP_CollideResult res, saved;
    PQP_Model *a = a_model(1, 1), *many = a_model(30, 100), *b = b_model(7), *unbuilt = PQP_Model_new();
    double R1[3][3] = {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, T1[3] = {1, 2, 3};
    double nanR[3][3] = {{1, 0, 0}, {0, NAN, 0}, {0, 0, 1}}, infT[3] = {0, INFINITY, 0};
    int k, ok;

    ENSURE_EQ_INT(PQP_AddTri(unbuilt, A0, A1, A2, 0), PQP_OK); /* begun, not built */

    /* A zero-filled result is a valid empty one. */
    memset(&res, 0, sizeof res);
    PQP_CollideResult_FreePairsList(&res);
    PQP_CollideResult_FreePairsList(NULL);
    ENSURE(res.pairs == NULL && res.num_pairs == 0 && res.num_pairs_alloced == 0);
    ENSURE_EQ_INT(collide_identity(&res, a, b, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE(result_has_only(&res, 1, 7));
    ENSURE_EQ_INT(res.num_pairs_alloced, 8); /* 2 * 0 + 8 */
    /* One triangle each: the triangle test is the whole query (no box test). */
    ENSURE(res.num_bv_tests == 0 && res.num_tri_tests == 1);
    ENSURE(res.query_time_secs >= 0);

    /* Any flag but FIRST_CONTACT is all contacts. */
    ENSURE_EQ_INT(collide_identity(&res, many, b, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE_EQ_INT(res.num_pairs, 30);
    ENSURE_EQ_INT(res.num_pairs_alloced, 56); /* 8 -> 24 -> 56: capacity 2n + 8 when full */
    ok = res.pairs != NULL;
    for (k = 0; ok && k < res.num_pairs; k++) ok = res.pairs[k].id2 == 7 && res.pairs[k].id1 >= 100 && res.pairs[k].id1 < 130;
    ENSURE(ok);
    {
        int flags[] = {0, 3, -1};
        for (k = 0; k < 3; k++) {
            ENSURE_EQ_INT(collide_identity(&res, many, b, flags[k]), PQP_OK);
            ENSURE_EQ_INT(res.num_pairs, 30);
        }
    }
    ENSURE_EQ_INT(collide_identity(&res, many, b, PQP_FIRST_CONTACT), PQP_OK);
    ENSURE_EQ_INT(res.num_pairs, 1);
    ENSURE(res.num_pairs_alloced >= res.num_pairs && res.num_pairs_alloced == 56); /* kept */
    ENSURE(res.pairs[0].id1 >= 100 && res.pairs[0].id1 < 130 && res.pairs[0].id2 == 7);
    /* Model 2 first: the ids swap sides. */
    ENSURE_EQ_INT(collide_identity(&res, b, many, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE(res.num_pairs == 30 && res.pairs[0].id1 == 7 && res.pairs[0].id2 >= 100);
    /* The same model twice. */
    ENSURE_EQ_INT(collide_identity(&res, a, a, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE(result_has_only(&res, 1, 1));
    /* Growth from a fresh result in one go: 9 pairs -> 24. */
    PQP_CollideResult_FreePairsList(&res);
    ENSURE(res.pairs == NULL && res.num_pairs == 0 && res.num_pairs_alloced == 0);
    {
        PQP_Model *nine = a_model(9, 0);
        ENSURE_EQ_INT(collide_identity(&res, nine, b, PQP_ALL_CONTACTS), PQP_OK);
        ENSURE_EQ_INT(res.num_pairs, 9);
        ENSURE_EQ_INT(res.num_pairs_alloced, 24);
        PQP_Model_delete(nine);
    }

    /* A separated pose: no pairs, R and T of model 2 relative to model 1. */
    ENSURE_EQ_INT(PQP_Collide(&res, R1, T1, a, I3, FAR3, b, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE_EQ_INT(res.num_pairs, 0);
    ENSURE(res.num_pairs_alloced == 24 && res.pairs != NULL);
    {
        /* R = R1^T I, T = R1^T (T2 - T1) */
        double d[3] = {FAR3[0] - T1[0], FAR3[1] - T1[1], FAR3[2] - T1[2]};
        int i, j, same = 1;
        for (i = 0; i < 3; i++) {
            double t = R1[0][i] * d[0] + R1[1][i] * d[1] + R1[2][i] * d[2];
            same &= fabs(res.T[i] - t) <= 1e-14;
            for (j = 0; j < 3; j++) same &= fabs(res.R[i][j] - R1[j][i]) <= 1e-15;
        }
        ENSURE(same);
    }

    /* Refusals: the result's bytes untouched. */
    ENSURE_EQ_INT(collide_identity(&res, a, b, PQP_ALL_CONTACTS), PQP_OK);
    memcpy(&saved, &res, sizeof res);
    ENSURE_EQ_INT(collide_identity(&res, a, unbuilt, PQP_ALL_CONTACTS), PQP_ERR_UNPROCESSED_MODEL);
    ENSURE_EQ_INT(collide_identity(&res, unbuilt, b, PQP_ALL_CONTACTS), PQP_ERR_UNPROCESSED_MODEL);
    ENSURE_EQ_INT(collide_identity(NULL, unbuilt, b, PQP_ALL_CONTACTS), PQP_ERR_UNPROCESSED_MODEL);
    ENSURE_EQ_INT(collide_identity(NULL, a, b, PQP_ALL_CONTACTS), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(collide_identity(&res, NULL, b, PQP_ALL_CONTACTS), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(collide_identity(&res, a, NULL, PQP_ALL_CONTACTS), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Collide(&res, NULL, Z3, a, I3, Z3, b, PQP_ALL_CONTACTS), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Collide(&res, I3, NULL, a, I3, Z3, b, PQP_ALL_CONTACTS), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Collide(&res, I3, Z3, a, NULL, Z3, b, PQP_ALL_CONTACTS), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Collide(&res, I3, Z3, a, I3, NULL, b, PQP_ALL_CONTACTS), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Collide(&res, nanR, Z3, a, I3, Z3, b, PQP_ALL_CONTACTS), PQP_ERR_NON_FINITE);
    ENSURE_EQ_INT(PQP_Collide(&res, I3, Z3, a, I3, infT, b, PQP_ALL_CONTACTS), PQP_ERR_NON_FINITE);
    ENSURE(memcmp(&saved, &res, sizeof res) == 0);

    PQP_CollideResult_FreePairsList(&res);
    PQP_Model_delete(a);
    PQP_Model_delete(many);
    PQP_Model_delete(b);
    PQP_Model_delete(unbuilt);
}

static int distance_results_equal(const PQP_DistanceResult *x, const PQP_DistanceResult *y) {
    return x->distance == y->distance && memcmp(x->p1, y->p1, sizeof x->p1) == 0 &&
           memcmp(x->p2, y->p2, sizeof x->p2) == 0 && x->num_bv_tests == y->num_bv_tests &&
           x->num_tri_tests == y->num_tri_tests && x->qsize == y->qsize;
}

/* PQP_Distance and PQP_Tolerance (PQP.md sections 2.2-2.3, src/ffi/pqp.rs). */
static void check_distance_tolerance(void) {
    PQP_DistanceResult d, d2, saved;
    PQP_ToleranceResult t, tsaved;
    PQP_Model *a = a_model(3, 0), *b = b_model(7), *unbuilt = PQP_Model_new(), *dead = PQP_Model_new();
    double nanR[3][3] = {{1, 0, 0}, {0, NAN, 0}, {0, 0, 1}}, nanT[3] = {0, 0, NAN};
    double up[3] = {0, 0, 2}; /* model 2 lifted: its lowest vertex z = 1.5 above model 1 */
    int qs[] = {1, 0, -3}, k;

    ENSURE_EQ_INT(PQP_BeginModel(unbuilt, 0), PQP_OK);
    PQP_Model_delete(dead);

    /* A separated pose: distance 1.5 between (0.25, y, 0) and B's low edge. */
    memset(&d, 0, sizeof d);
    d.qsize = 12345;
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, up, b, 0.0, 0.0, 2), PQP_OK);
    ENSURE_NEAR(d.distance, 1.5, 1e-15);
    ENSURE_NEAR(d.p1[0], 0.25, 1e-15);
    ENSURE_NEAR(d.p1[2], 0.0, 1e-15);
    ENSURE_NEAR(d.p2[2], -0.5, 1e-15); /* model 2's own frame */
    ENSURE_NEAR(d.p2[0], 0.25, 1e-15);
    ENSURE_NEAR(d.p1[1], d.p2[1], 1e-15);
    ENSURE(d.p2[1] >= 0.1 - 1e-15 && d.p2[1] <= 0.5 + 1e-15);
    ENSURE(d.rel_err == 0.0 && d.abs_err == 0.0);
    ENSURE_EQ_INT(d.qsize, 2); /* recorded as asked (PQP left it alone for qsize <= 2: README) */
    ENSURE_NEAR(d.T[2], 2.0, 0);

    /* qsize < 2 works as 2 (the warm start is settled by now, so the work counts repeat). */
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, up, b, 0.0, 0.0, 2), PQP_OK);
    for (k = 0; k < 3; k++) {
        memcpy(&d2, &d, sizeof d);
        d2.distance = -1;
        ENSURE_EQ_INT(PQP_Distance(&d2, I3, Z3, a, I3, up, b, 0.0, 0.0, qs[k]), PQP_OK);
        ENSURE_EQ_INT(d2.qsize, qs[k]);
        d2.qsize = d.qsize;
        ENSURE(distance_results_equal(&d, &d2));
    }
    /* qsize > 2: the queue search, same distance, the field set. */
    memcpy(&d2, &d, sizeof d);
    ENSURE_EQ_INT(PQP_Distance(&d2, I3, Z3, a, I3, up, b, 0.0, 0.0, 5), PQP_OK);
    ENSURE_NEAR(d2.distance, 1.5, 1e-15);
    ENSURE_EQ_INT(d2.qsize, 5);
    /* Error bounds are stored. */
    ENSURE_EQ_INT(PQP_Distance(&d2, I3, Z3, a, I3, up, b, 0.5, 0.25, 2), PQP_OK);
    ENSURE(d2.rel_err == 0.5 && d2.abs_err == 0.25 && d2.distance <= 1.5 + 1e-15 && d2.distance >= 0.75);

    /* Overlapping: distance 0 and (rapidpqp) the points coincide. */
    ENSURE_EQ_INT(PQP_Distance(&d2, I3, Z3, a, I3, Z3, b, 0.0, 0.0, 2), PQP_OK);
    ENSURE_EQ_INT(d2.distance == 0.0, 1);
    ENSURE_NEAR(d2.p1[0], d2.p2[0], 1e-15);
    ENSURE_NEAR(d2.p1[1], d2.p2[1], 1e-15);
    ENSURE_NEAR(d2.p1[2], d2.p2[2], 1e-15);
    /* The same model twice. */
    ENSURE_EQ_INT(PQP_Distance(&d2, I3, Z3, a, I3, Z3, a, 0.0, 0.0, 2), PQP_OK);
    ENSURE_EQ_INT(d2.distance == 0.0, 1);

    /* Refusals: the result's bytes untouched. */
    memset(&saved, 0xA5, sizeof saved);
    memcpy(&d, &saved, sizeof d);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, up, unbuilt, 0.0, 0.0, 2), PQP_ERR_UNPROCESSED_MODEL);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, unbuilt, I3, up, b, 0.0, 0.0, 2), PQP_ERR_UNPROCESSED_MODEL);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, dead, I3, up, b, 0.0, 0.0, 2), PQP_ERR_INVALID_MODEL);
    ENSURE_EQ_INT(PQP_Distance(NULL, I3, Z3, a, I3, up, b, 0.0, 0.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, NULL, I3, up, b, 0.0, 0.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, up, NULL, 0.0, 0.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Distance(&d, NULL, Z3, a, I3, up, b, 0.0, 0.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, NULL, a, I3, up, b, 0.0, 0.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, NULL, up, b, 0.0, 0.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, NULL, b, 0.0, 0.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Distance(&d, nanR, Z3, a, I3, up, b, 0.0, 0.0, 2), PQP_ERR_NON_FINITE);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, nanT, b, 0.0, 0.0, 2), PQP_ERR_NON_FINITE);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, up, b, -0.1, 0.0, 2), PQP_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, up, b, NAN, 0.0, 2), PQP_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, up, b, 0.0, -1e-300, 2), PQP_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(PQP_Distance(&d, I3, Z3, a, I3, up, b, 0.0, NAN, 2), PQP_ERR_INVALID_ARGUMENT);
    ENSURE(memcmp(&saved, &d, sizeof d) == 0);

    /* Tolerance: inclusive; negative clamped to 0 and stored as 0. */
    memset(&t, 0, sizeof t);
    t.qsize = 12345;
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, up, b, 1.5, 2), PQP_OK);
    ENSURE_EQ_INT(t.closer_than_tolerance, 1);
    ENSURE(t.tolerance == 1.5 && t.distance <= 1.5 && t.distance >= 1.5 - 1e-15);
    ENSURE_EQ_INT(t.qsize, 2);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, up, b, 1.25, 2), PQP_OK);
    ENSURE_EQ_INT(t.closer_than_tolerance, 0);
    ENSURE(t.tolerance == 1.25 && t.distance <= 1.5 + 1e-15); /* a lower bound */
    for (k = 0; k < 3; k++) {
        /* qsize is recorded as asked, also when <= 2 (PQP left it as it was: README). */
        ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, up, b, 2.0, qs[k]), PQP_OK);
        ENSURE(t.closer_than_tolerance == 1 && t.qsize == qs[k] && t.distance <= 2.0 && t.distance >= 1.5 - 1e-15);
    }
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, up, b, 2.0, 7), PQP_OK);
    ENSURE(t.closer_than_tolerance == 1 && t.qsize == 7);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, up, b, -1.0, 2), PQP_OK);
    ENSURE(t.closer_than_tolerance == 0 && t.tolerance == 0.0 && !signbit(t.tolerance));
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, Z3, b, -1.0, 2), PQP_OK);
    ENSURE(t.closer_than_tolerance == 1 && t.tolerance == 0.0 && t.distance == 0.0);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, Z3, b, -0.0, 2), PQP_OK);
    ENSURE(t.closer_than_tolerance == 1 && t.tolerance == 0.0);

    memset(&tsaved, 0x5A, sizeof tsaved);
    memcpy(&t, &tsaved, sizeof t);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, up, unbuilt, 1.0, 2), PQP_ERR_UNPROCESSED_MODEL);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, unbuilt, I3, up, b, 1.0, 2), PQP_ERR_UNPROCESSED_MODEL);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, up, dead, 1.0, 2), PQP_ERR_INVALID_MODEL);
    ENSURE_EQ_INT(PQP_Tolerance(NULL, I3, Z3, a, I3, up, b, 1.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, NULL, I3, up, b, 1.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, up, NULL, 1.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Tolerance(&t, NULL, Z3, a, I3, up, b, 1.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, NULL, a, I3, up, b, 1.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, NULL, up, b, 1.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, NULL, b, 1.0, 2), PQP_ERR_NULL_POINTER);
    ENSURE_EQ_INT(PQP_Tolerance(&t, nanR, Z3, a, I3, up, b, 1.0, 2), PQP_ERR_NON_FINITE);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, nanT, b, 1.0, 2), PQP_ERR_NON_FINITE);
    ENSURE_EQ_INT(PQP_Tolerance(&t, I3, Z3, a, I3, up, b, NAN, 2), PQP_ERR_NON_FINITE);
    ENSURE(memcmp(&tsaved, &t, sizeof t) == 0);

    PQP_Model_delete(a);
    PQP_Model_delete(b);
    PQP_Model_delete(unbuilt);
}

static int check_misuse(void) {
    int before = ensure_failed;
    check_layout();
    check_build();
    check_collide();
    check_distance_tolerance();
    return ensure_failed - before;
}

/* ------------------------------------------------------------------------------------------ */

static void usage(const char *prog) {
    fprintf(stderr, "usage: %s [--no-misuse] [--no-header] [--brute NAME]... [--skip dist|tol]... CASE_DIR...\n", prog);
}

int main(int argc, char **argv) {
    const char *default_brute[] = {"degenerate"};
    const char **brute = xrealloc(NULL, (size_t)argc * sizeof *brute);
    Options opt;
    int misuse = 1, header = 1, failures = 0, cases = 0, k, nbrute = 0;
    double t0 = now_ms();

    memset(&opt, 0, sizeof opt);
    for (k = 1; k < argc && argv[k][0] == '-'; k++) {
        if (!strcmp(argv[k], "--no-misuse")) {
            misuse = 0;
        } else if (!strcmp(argv[k], "--no-header")) {
            header = 0;
        } else if (!strcmp(argv[k], "--brute") && k + 1 < argc) {
            brute[nbrute++] = argv[++k];
        } else if (!strcmp(argv[k], "--skip") && k + 1 < argc && !strcmp(argv[k + 1], "dist")) {
            opt.skip_dist = 1, k++;
        } else if (!strcmp(argv[k], "--skip") && k + 1 < argc && !strcmp(argv[k + 1], "tol")) {
            opt.skip_tol = 1, k++;
        } else {
            usage(argv[0]);
            free(brute);
            return 2;
        }
    }
    opt.brute = nbrute ? brute : default_brute;
    opt.nbrute = nbrute ? nbrute : 1;
    if (misuse) {
        int failed = check_misuse();
        printf("misuse checks: %d passed, %d failed\n", ensure_passed, failed);
        if (failed) failures++;
    }
    if (k < argc && header) {
        printf("\n%-14s %-6s %-13s   %25s   %21s  %9s\n", "case", "query", "agree / poses",
               "mean bv tests ours PQP", "mean tri tests ours PQP", "ms");
    }
    for (; k < argc; k++, cases++) failures += run_case(argv[k], &opt) != 0;
    printf("\n%d case(s), %s (%.1f s)\n", cases, failures ? "FAILED" : "all agree", (now_ms() - t0) / 1e3);
    free(brute);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
