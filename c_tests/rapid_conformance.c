/*
 * rapid_conformance: drives rapidpqp's legacy RAPID C API (include/rapidpqp.h) over the
 * conformance cases (tests/data/conformance/<case>, format in FORMAT.md there) and checks the
 * misuse behaviour of spec/RAPID.md section 2.
 *
 *   rapid_conformance [--brute] [--exceptions DIR] [--no-misuse] CASE_DIR...
 *
 * For every case folder: a.obj and b.obj become two models (triangle k added with id k),
 * every line of poses.txt is queried with RAPID_CollideScaled(..., RAPID_ALL_CONTACTS) and
 * (..., RAPID_FIRST_CONTACT), and the answers are compared with rapid_all.txt and
 * rapid_first.txt:
 *   - all contacts: return code, and the same multiset of (id1, id2) pairs (order free,
 *     duplicates count);
 *   - first contact: return code, the same number of contacts (0 or 1), and the pair reported
 *     is one of RAPID's all-contacts pairs of that pose.
 * A table gives, per case and query, the agreeing poses and the mean box and triangle test
 * counts beside RAPID's recorded ones. The exit status is nonzero on any disagreement that is
 * not a declared exception, on a misuse check that fails, or on unreadable input.
 *
 * Exceptions (--exceptions DIR): DIR/<case>.txt lists the pairs on which rapidpqp deliberately
 * differs from RAPID (RAPID's answer is not the geometric one), one per line:
 *     pose id1 id2 reason-word
 * A pose whose all-contacts answer differs from RAPID's agrees only if every differing pair is
 * listed for that pose. On a pose with a listing, the first-contact answer is judged against
 * rapidpqp's own all-contacts answer instead of RAPID's.
 *
 * --brute justifies the listings by brute force: each triangle becomes a one-triangle model
 * (which has no hierarchy), and for every listed pair the number of times rapidpqp reports it
 * must equal the number of listed triangle pairs that collide on their own. On small cases
 * (triangles(a) * triangles(b) * poses <= BRUTE_BUDGET) the whole all-contacts answer of every
 * pose must equal the brute-force one. Unlisted differences from RAPID are printed as
 * suggested exception lines, with the brute-force verdict.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rapidpqp.h"

#include "ensure.h"
#include "fixture.h"

/* Brute force over every triangle pair only where it stays cheap. */
#define BRUTE_BUDGET 2000000.0
/* Mismatching poses described in full per case and query; the rest are only counted. */
#define MAX_REPORTED_POSES 5

/* ------------------------------------------------------------------------------------------ */
/* Reading a case: the exceptions (the rest is in fixture.h)                                  */

typedef struct {
    int pose, id1, id2;
    char reason[64];
    int used;
} Exception;

/* A missing file means no exceptions. */
static int read_exceptions(const char *path, Exception **list, int *count) {
    FILE *f = fopen(path, "r");
    char line[512];
    int n = 0, cap = 0, lineno = 0;
    Exception *out = NULL;
    *list = NULL;
    *count = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        char *s = line;
        Exception e;
        char tail[2];
        lineno++;
        while (isspace((unsigned char)*s)) s++;
        if (*s == '\0' || *s == '#') continue;
        memset(&e, 0, sizeof e);
        if (sscanf(s, "%d %d %d %63s %1s", &e.pose, &e.id1, &e.id2, e.reason, tail) != 4) {
            fprintf(stderr, "%s:%d: expected `pose id1 id2 reason-word`\n", path, lineno);
            fclose(f);
            free(out);
            return -1;
        }
        if (n == cap) out = xrealloc(out, (size_t)(cap = cap ? 2 * cap : 32) * sizeof *out);
        out[n++] = e;
    }
    fclose(f);
    *list = out;
    *count = n;
    return 0;
}

static Exception *find_exception(Exception *list, int count, int pose, int id1, int id2) {
    int k;
    for (k = 0; k < count; k++)
        if (list[k].pose == pose && list[k].id1 == id1 && list[k].id2 == id2) return &list[k];
    return NULL;
}

static int pose_has_exception(const Exception *list, int count, int pose) {
    int k;
    for (k = 0; k < count; k++)
        if (list[k].pose == pose) return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The library under test                                                                      */

/* A built model of triangles tris[0..n) with ids first_id, first_id + 1, ...; NULL on error. */
static RAPID_model *build_model(const Tri *tris, int n, int first_id, const char *what) {
    RAPID_model *m = RAPID_model_new();
    int k, rc;
    if (!m) {
        fprintf(stderr, "%s: RAPID_model_new returned NULL\n", what);
        return NULL;
    }
    if ((rc = RAPID_BeginModel(m)) != RAPID_OK) {
        fprintf(stderr, "%s: RAPID_BeginModel returned %d\n", what, rc);
        RAPID_model_delete(m);
        return NULL;
    }
    for (k = 0; k < n; k++) {
        if ((rc = RAPID_AddTri(m, tris[k].v[0], tris[k].v[1], tris[k].v[2], first_id + k)) != RAPID_OK) {
            fprintf(stderr, "%s: RAPID_AddTri of triangle %d returned %d\n", what, k, rc);
            RAPID_model_delete(m);
            return NULL;
        }
    }
    if ((rc = RAPID_EndModel(m)) != RAPID_OK) {
        fprintf(stderr, "%s: RAPID_EndModel returned %d\n", what, rc);
        RAPID_model_delete(m);
        return NULL;
    }
    return m;
}

typedef struct {
    int rc, box_tests, tri_tests;
} Counts;

/* RAPID_CollideScaled at a pose; the contacts are copied (sorted) into out. */
static Counts collide(const Pose *pose, RAPID_model *a, RAPID_model *b, int flag, PairList *out) {
    double R1[3][3], T1[3], R2[3][3], T2[3];
    Counts c;
    int k;
    memcpy(R1, pose->R1, sizeof R1);
    memcpy(T1, pose->T1, sizeof T1);
    memcpy(R2, pose->R2, sizeof R2);
    memcpy(T2, pose->T2, sizeof T2);
    c.rc = RAPID_CollideScaled(R1, T1, pose->s1, a, R2, T2, pose->s2, b, flag);
    c.box_tests = RAPID_num_box_tests;
    c.tri_tests = RAPID_num_tri_tests;
    out->n = 0;
    if (c.rc == RAPID_OK)
        for (k = 0; k < RAPID_num_contacts; k++) pairs_push(out, RAPID_contact[k].id1, RAPID_contact[k].id2);
    pairs_sort(out);
    return c;
}

/* ------------------------------------------------------------------------------------------ */
/* Brute force: one-triangle models (no hierarchy), built on first use                         */

typedef struct {
    const Mesh *mesh;
    RAPID_model **single;
    int failed;
} Singles;

static RAPID_model *single_model(Singles *s, int index, const char *what) {
    if (!s->single) {
        s->single = xcalloc((size_t)s->mesh->n, sizeof *s->single);
    }
    if (!s->single[index] && !s->failed) {
        s->single[index] = build_model(&s->mesh->tri[index], 1, index, what);
        if (!s->single[index]) s->failed = 1;
    }
    return s->single[index];
}

static void singles_free(Singles *s) {
    int k;
    if (s->single)
        for (k = 0; k < s->mesh->n; k++) RAPID_model_delete(s->single[k]);
    free(s->single);
    s->single = NULL;
}

/* Whether triangles a[ia] and b[ib] collide at the pose on their own; -1 on error. */
static int brute_pair(const Pose *pose, Singles *a, int ia, Singles *b, int ib, PairList *scratch) {
    RAPID_model *ma = single_model(a, ia, "brute force model 1");
    RAPID_model *mb = single_model(b, ib, "brute force model 2");
    Counts c;
    if (!ma || !mb) return -1;
    c = collide(pose, ma, mb, RAPID_ALL_CONTACTS, scratch);
    if (c.rc != RAPID_OK) {
        fprintf(stderr, "brute force: RAPID_CollideScaled returned %d\n", c.rc);
        return -1;
    }
    return scratch->n > 0;
}

static int zero_area(const Tri *t) {
    double e1[3], e2[3];
    int c;
    for (c = 0; c < 3; c++) e1[c] = t->v[1][c] - t->v[0][c], e2[c] = t->v[2][c] - t->v[0][c];
    return e1[1] * e2[2] - e1[2] * e2[1] == 0.0 && e1[2] * e2[0] - e1[0] * e2[2] == 0.0 &&
           e1[0] * e2[1] - e1[1] * e2[0] == 0.0;
}

static double tri_extent(const Tri *t) {
    double m = 0;
    int i, c;
    for (i = 0; i < 3; i++)
        for (c = 0; c < 3; c++) m = fmax(m, fabs(t->v[i][c]));
    return m;
}

/* A guess at why a pair differs, for suggested exception lines. */
static const char *guess_reason(const Mesh *a, int ia, const Mesh *b, int ib) {
    if (zero_area(&a->tri[ia]) || zero_area(&b->tri[ib])) return "zero-area";
    if (tri_extent(&a->tri[ia]) < 1e-6 && tri_extent(&b->tri[ib]) < 1e-6) return "mixed-scale";
    return "touching";
}

/* ------------------------------------------------------------------------------------------ */
/* One case                                                                                    */

typedef struct {
    int brute;
    const char *exceptions_dir;
} Options;

typedef struct {
    int agree, by_exception, poses;
    double box_ours, box_rapid, tri_ours, tri_rapid, ms;
} Row;

static void print_row(const char *name, const char *query, const Row *r) {
    double n = r->poses ? r->poses : 1;
    printf("%-14s %-6s %5d / %-5d %4d   %12.1f %12.1f   %10.1f %10.1f  %9.1f\n", name, query,
           r->agree, r->poses, r->by_exception, r->box_ours / n, r->box_rapid / n,
           r->tri_ours / n, r->tri_rapid / n, r->ms);
    fflush(stdout);
}

/* Runs one case; returns the number of failures (disagreements and errors). */
static int run_case(const char *dir, const Options *opt) {
    char name[256], path[4096];
    Mesh a = {0, NULL}, b = {0, NULL};
    Pose *poses = NULL;
    ContactRecord *all = NULL, *first = NULL;
    Exception *exc = NULL;
    int npose = 0, nexc = 0, failures = 0, p, k, reported;
    RAPID_model *ma = NULL, *mb = NULL;
    PairList *ours_all = NULL, ours = {0, 0, NULL}, only_ours = {0, 0, NULL},
             only_rapid = {0, 0, NULL}, brute = {0, 0, NULL}, scratch = {0, 0, NULL};
    Singles sa, sb;
    Row row;
    double t0;
    int full_brute;

    base_name(dir, name, sizeof name);
    snprintf(path, sizeof path, "%s/rapid_all.txt", dir);
    if (!file_exists(path)) {
        printf("%-14s (no rapid_all.txt: skipped)\n", name);
        return 0;
    }
#define PATH(file) (snprintf(path, sizeof path, "%s/%s", dir, file), path)
    if (read_obj(PATH("a.obj"), &a) || read_obj(PATH("b.obj"), &b) ||
        read_poses(PATH("poses.txt"), &poses, &npose) ||
        read_contacts(PATH("rapid_all.txt"), npose, &all) ||
        read_contacts(PATH("rapid_first.txt"), npose, &first)) {
        fprintf(stderr, "%s: cannot read the case\n", name);
        failures++;
        goto done;
    }
#undef PATH
    if (opt->exceptions_dir) {
        snprintf(path, sizeof path, "%s/%s.txt", opt->exceptions_dir, name);
        if (read_exceptions(path, &exc, &nexc)) {
            failures++;
            goto done;
        }
        for (k = 0; k < nexc; k++) {
            if (exc[k].pose < 0 || exc[k].pose >= npose || exc[k].id1 < 0 || exc[k].id1 >= a.n ||
                exc[k].id2 < 0 || exc[k].id2 >= b.n) {
                fprintf(stderr, "%s: exception `%d %d %d` is out of range\n", path, exc[k].pose,
                        exc[k].id1, exc[k].id2);
                failures++;
            }
        }
        if (failures) goto done;
    }
    ma = build_model(a.tri, a.n, 0, "model 1 (a.obj)");
    mb = build_model(b.tri, b.n, 0, "model 2 (b.obj)");
    if (!ma || !mb) {
        failures++;
        goto done;
    }
    sa.mesh = &a, sa.single = NULL, sa.failed = 0;
    sb.mesh = &b, sb.single = NULL, sb.failed = 0;
    full_brute = opt->brute && (double)a.n * (double)b.n * (double)npose <= BRUTE_BUDGET;

    /* All contacts. */
    ours_all = xcalloc((size_t)npose, sizeof *ours_all);
    memset(&row, 0, sizeof row);
    row.poses = npose;
    reported = 0;
    t0 = now_ms();
    for (p = 0; p < npose; p++) {
        Counts c = collide(&poses[p], ma, mb, RAPID_ALL_CONTACTS, &ours_all[p]);
        int unlisted = 0;
        row.box_ours += c.box_tests, row.tri_ours += c.tri_tests;
        row.box_rapid += all[p].bv_tests, row.tri_rapid += all[p].tri_tests;
        pairs_diff(&ours_all[p], &all[p].pairs, &only_ours, &only_rapid);
        for (k = 0; k < only_ours.n + only_rapid.n; k++) {
            const Pair *d = k < only_ours.n ? &only_ours.p[k] : &only_rapid.p[k - only_ours.n];
            Exception *e = find_exception(exc, nexc, p, d->id1, d->id2);
            if (e) e->used = 1; else unlisted++;
        }
        if (c.rc == all[p].rc && c.rc == RAPID_OK && unlisted == 0) {
            row.agree++;
            if (only_ours.n + only_rapid.n) row.by_exception++;
            continue;
        }
        failures++;
        if (reported++ < MAX_REPORTED_POSES) {
            fprintf(stderr, "%s all pose %d: rc %d (RAPID %d), %d contacts (RAPID %d), %d differing pairs not in the exceptions\n",
                    name, p, c.rc, all[p].rc, ours_all[p].n, all[p].pairs.n, unlisted);
            print_pairs(stderr, "only rapidpqp", &only_ours);
            print_pairs(stderr, "only RAPID", &only_rapid);
        }
    }
    row.ms = now_ms() - t0;
    if (reported > MAX_REPORTED_POSES)
        fprintf(stderr, "%s all: %d more disagreeing poses not described\n", name, reported - MAX_REPORTED_POSES);
    print_row(name, "all", &row);

    /* First contact. */
    memset(&row, 0, sizeof row);
    row.poses = npose;
    reported = 0;
    t0 = now_ms();
    for (p = 0; p < npose; p++) {
        Counts c = collide(&poses[p], ma, mb, RAPID_FIRST_CONTACT, &ours);
        int excepted = pose_has_exception(exc, nexc, p);
        /* On a pose with listed exceptions, RAPID's answer is not the reference: ours is. */
        int expect_n = excepted ? ours_all[p].n > 0 : first[p].pairs.n;
        const PairList *allowed = excepted ? &ours_all[p] : &all[p].pairs;
        int ok = c.rc == first[p].rc && c.rc == RAPID_OK && ours.n == expect_n &&
                 (ours.n == 0 || pairs_count(allowed, ours.p[0].id1, ours.p[0].id2) > 0);
        row.box_ours += c.box_tests, row.tri_ours += c.tri_tests;
        row.box_rapid += first[p].bv_tests, row.tri_rapid += first[p].tri_tests;
        if (ok) {
            row.agree++;
            if (excepted) row.by_exception++;
            continue;
        }
        failures++;
        if (reported++ < MAX_REPORTED_POSES) {
            fprintf(stderr, "%s first pose %d: rc %d (RAPID %d), %d contacts (expected %d)", name, p,
                    c.rc, first[p].rc, ours.n, expect_n);
            if (ours.n > 0) fprintf(stderr, ", first pair (%d,%d)", ours.p[0].id1, ours.p[0].id2);
            fprintf(stderr, "%s\n", ours.n > 0 ? (excepted ? " not in rapidpqp's all-contacts answer" : " not in RAPID's all-contacts answer") : "");
        }
    }
    row.ms = now_ms() - t0;
    if (reported > MAX_REPORTED_POSES)
        fprintf(stderr, "%s first: %d more disagreeing poses not described\n", name, reported - MAX_REPORTED_POSES);
    print_row(name, "first", &row);

    /* Exceptions: each listed pair must be what brute force says. */
    for (k = 0; k < nexc; k++) {
        Exception *e = &exc[k];
        if (!e->used)
            fprintf(stderr, "%s: exception `%d %d %d %s` is not needed (rapidpqp agrees with RAPID there)\n",
                    name, e->pose, e->id1, e->id2, e->reason);
        if (opt->brute) {
            int truth = brute_pair(&poses[e->pose], &sa, e->id1, &sb, e->id2, &scratch);
            int said = pairs_count(&ours_all[e->pose], e->id1, e->id2);
            if (truth < 0 || said != truth) {
                failures++;
                fprintf(stderr, "%s: exception `%d %d %d %s` not justified: rapidpqp reports the pair %d time(s), brute force %d\n",
                        name, e->pose, e->id1, e->id2, e->reason, said, truth);
            }
        }
    }

    /* Small cases: the whole answer of every pose against brute force. */
    if (full_brute) {
        int agree = 0, suggested = 0;
        for (p = 0; p < npose; p++) {
            int ia, ib, truth = 0;
            brute.n = 0;
            for (ia = 0; ia < a.n && truth >= 0; ia++)
                for (ib = 0; ib < b.n && truth >= 0; ib++)
                    if ((truth = brute_pair(&poses[p], &sa, ia, &sb, ib, &scratch)) > 0) pairs_push(&brute, ia, ib);
            if (truth < 0) {
                failures++;
                break;
            }
            pairs_diff(&ours_all[p], &brute, &only_ours, &only_rapid);
            if (only_ours.n + only_rapid.n == 0) {
                agree++;
            } else {
                failures++;
                fprintf(stderr, "%s pose %d: rapidpqp's all-contacts answer differs from brute force\n", name, p);
                print_pairs(stderr, "only rapidpqp", &only_ours);
                print_pairs(stderr, "only brute force", &only_rapid);
            }
            /* Unlisted differences from RAPID that brute force backs, as exception lines. */
            pairs_diff(&ours_all[p], &all[p].pairs, &only_ours, &only_rapid);
            for (k = 0; k < only_ours.n + only_rapid.n; k++) {
                const Pair *d = k < only_ours.n ? &only_ours.p[k] : &only_rapid.p[k - only_ours.n];
                if (find_exception(exc, nexc, p, d->id1, d->id2)) continue;
                if (pairs_count(&brute, d->id1, d->id2) != pairs_count(&ours_all[p], d->id1, d->id2)) continue;
                if (suggested++ == 0)
                    printf("# suggested lines for c_tests/exceptions/%s.txt (rapidpqp == brute force != RAPID):\n", name);
                printf("%d %d %d %s\n", p, d->id1, d->id2, guess_reason(&a, d->id1, &b, d->id2));
            }
        }
        printf("%-14s brute  %5d / %-5d poses equal to brute force over all %d x %d triangle pairs\n",
               name, agree, npose, a.n, b.n);
    }
    singles_free(&sa);
    singles_free(&sb);

done:
    RAPID_model_delete(ma);
    RAPID_model_delete(mb);
    if (ours_all)
        for (p = 0; p < npose; p++) free(ours_all[p].p);
    free(ours_all);
    free_contacts(all, npose);
    free_contacts(first, npose);
    free(poses);
    free(exc);
    free(a.tri);
    free(b.tri);
    free(ours.p);
    free(only_ours.p);
    free(only_rapid.p);
    free(brute.p);
    free(scratch.p);
    return failures;
}

/* ------------------------------------------------------------------------------------------ */
/* Misuse (spec/RAPID.md section 2 and C_API.md section 1)                                     */

/* A status for input RAPID never checked: nonzero and none of RAPID's own codes 1..5. */
static int is_new_error(int rc) {
    return rc != RAPID_OK && rc != RAPID_ERR_MODEL_OUT_OF_MEMORY &&
           rc != RAPID_ERR_COLLIDE_OUT_OF_MEMORY && rc != RAPID_ERR_UNPROCESSED_MODEL &&
           rc != RAPID_ERR_BUILD_OUT_OF_SEQUENCE && rc != RAPID_ERR_BUILD_EMPTY_MODEL;
}

typedef struct {
    int box_tests, tri_tests, num_contacts;
    struct collision_pair *contact;
} Globals;

static Globals globals_now(void) {
    Globals g;
    g.box_tests = RAPID_num_box_tests;
    g.tri_tests = RAPID_num_tri_tests;
    g.num_contacts = RAPID_num_contacts;
    g.contact = RAPID_contact;
    return g;
}

static int globals_equal(Globals a, Globals b) {
    return a.box_tests == b.box_tests && a.tri_tests == b.tri_tests &&
           a.num_contacts == b.num_contacts && a.contact == b.contact;
}

/* Model 1's unit right triangle in z = 0 and model 2's triangle in x = 0.25 piercing it. */
static const double A0[3] = {0, 0, 0}, A1[3] = {1, 0, 0}, A2[3] = {0, 1, 0};
static const double B0[3] = {0.25, 0.1, -0.5}, B1[3] = {0.25, 0.5, -0.5}, B2[3] = {0.25, 0.3, 0.5};

static RAPID_model *pierced_model(int copies) {
    RAPID_model *m = RAPID_model_new();
    int k;
    ENSURE(m != NULL);
    ENSURE_EQ_INT(RAPID_BeginModel(m), RAPID_OK);
    for (k = 0; k < copies; k++) ENSURE_EQ_INT(RAPID_AddTri(m, A0, A1, A2, 1 + k), RAPID_OK);
    ENSURE_EQ_INT(RAPID_EndModel(m), RAPID_OK);
    return m;
}

static int collide_identity(RAPID_model *a, RAPID_model *b, int flag) {
    double R1[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, R2[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double T1[3] = {0, 0, 0}, T2[3] = {0, 0, 0};
    return RAPID_Collide(R1, T1, a, R2, T2, b, flag);
}

static int check_misuse(void) {
    double R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, T[3] = {0, 0, 0};
    const double nan_point[3] = {0, NAN, 0}, inf_point[3] = {INFINITY, 0, 0};
    RAPID_model *a, *a2, *b, *m;
    Globals saved;
    int rc, before = ensure_failed;

    RAPID_model_delete(NULL); /* a no-op */

    a = pierced_model(1);
    a2 = pierced_model(2);
    m = RAPID_model_new();
    b = RAPID_model_new();
    ENSURE(m != NULL && b != NULL);
    ENSURE_EQ_INT(RAPID_BeginModel(b), RAPID_OK);
    ENSURE_EQ_INT(RAPID_AddTri(b, B0, B1, B2, 7), RAPID_OK);
    ENSURE_EQ_INT(RAPID_EndModel(b), RAPID_OK);

    /* Contacts, flags and the globals of a successful call. */
    ENSURE_EQ_INT(collide_identity(a2, b, RAPID_ALL_CONTACTS), RAPID_OK);
    ENSURE_EQ_INT(RAPID_num_contacts, 2);
    ENSURE(RAPID_num_box_tests > 0 && RAPID_num_tri_tests > 0);
    ENSURE_EQ_INT(collide_identity(a2, b, 0), RAPID_OK); /* any flag but 2 means all contacts */
    ENSURE_EQ_INT(RAPID_num_contacts, 2);
    ENSURE_EQ_INT(collide_identity(a2, b, RAPID_FIRST_CONTACT), RAPID_OK);
    ENSURE_EQ_INT(RAPID_num_contacts, 1);
    ENSURE_EQ_INT(collide_identity(a, b, RAPID_ALL_CONTACTS), RAPID_OK);
    ENSURE_EQ_INT(RAPID_num_contacts, 1);
    ENSURE(RAPID_contact != NULL && RAPID_contact[0].id1 == 1 && RAPID_contact[0].id2 == 7);
    saved = globals_now();

    /* BeginModel twice; EndModel with no triangles (before and after BeginModel). */
    ENSURE_EQ_INT(RAPID_EndModel(m), RAPID_ERR_BUILD_EMPTY_MODEL);
    ENSURE_EQ_INT(RAPID_BeginModel(m), RAPID_OK);
    ENSURE_EQ_INT(RAPID_BeginModel(m), RAPID_ERR_BUILD_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(RAPID_EndModel(m), RAPID_ERR_BUILD_EMPTY_MODEL);

    /* Collide on an unbuilt model, either side: code 3, globals untouched. */
    ENSURE_EQ_INT(collide_identity(a, m, RAPID_ALL_CONTACTS), RAPID_ERR_UNPROCESSED_MODEL);
    ENSURE_EQ_INT(collide_identity(m, a, RAPID_ALL_CONTACTS), RAPID_ERR_UNPROCESSED_MODEL);
    ENSURE(globals_equal(globals_now(), saved));

    /* NaN or infinite coordinates: a new code, triangle not added (EndModel finds none). */
    ENSURE_EQ_INT(RAPID_BeginModel(m), RAPID_ERR_BUILD_OUT_OF_SEQUENCE); /* still BEGIN */
    rc = RAPID_AddTri(m, A0, nan_point, A2, 3);
    ENSURE(is_new_error(rc));
    rc = RAPID_AddTri(m, A0, A1, inf_point, 4);
    ENSURE(is_new_error(rc));
    ENSURE_EQ_INT(RAPID_EndModel(m), RAPID_ERR_BUILD_EMPTY_MODEL);
    ENSURE_EQ_INT(RAPID_AddTri(m, A0, A1, A2, 5), RAPID_OK);
    rc = RAPID_AddTri(m, nan_point, A1, A2, 6);
    ENSURE(is_new_error(rc));
    ENSURE_EQ_INT(RAPID_EndModel(m), RAPID_OK);
    ENSURE_EQ_INT(collide_identity(m, b, RAPID_ALL_CONTACTS), RAPID_OK);
    ENSURE(RAPID_num_contacts == 1 && RAPID_contact[0].id1 == 5 && RAPID_contact[0].id2 == 7);

    /* AddTri after EndModel: code 4 and the triangle is not added, even after a rebuild. */
    ENSURE_EQ_INT(RAPID_AddTri(a, A0, A1, A2, 99), RAPID_ERR_BUILD_OUT_OF_SEQUENCE);
    (void)RAPID_EndModel(a);
    ENSURE_EQ_INT(collide_identity(a, b, RAPID_ALL_CONTACTS), RAPID_OK);
    ENSURE(RAPID_num_contacts == 1 && RAPID_contact[0].id1 == 1 && RAPID_contact[0].id2 == 7);

    /* A successful call without contact resets the counters. */
    {
        double far[3] = {10, 0, 0};
        ENSURE_EQ_INT(RAPID_Collide(R, T, a, R, far, b, RAPID_ALL_CONTACTS), RAPID_OK);
        ENSURE_EQ_INT(RAPID_num_contacts, 0);
        ENSURE_EQ_INT(RAPID_CollideScaled(R, T, 1.0, a, R, T, 1.0, b, RAPID_ALL_CONTACTS), RAPID_OK);
        ENSURE_EQ_INT(RAPID_num_contacts, 1);
    }
    saved = globals_now();

    /* NULL pointers and non-positive or NaN scales: a new code, globals untouched. */
    ENSURE(is_new_error(RAPID_BeginModel(NULL)));
    ENSURE(is_new_error(RAPID_AddTri(NULL, A0, A1, A2, 0)));
    ENSURE(is_new_error(RAPID_AddTri(m, NULL, A1, A2, 0)));
    ENSURE(is_new_error(RAPID_AddTri(m, A0, NULL, A2, 0)));
    ENSURE(is_new_error(RAPID_AddTri(m, A0, A1, NULL, 0)));
    ENSURE(is_new_error(RAPID_EndModel(NULL)));
    ENSURE(is_new_error(RAPID_Collide(NULL, T, a, R, T, b, RAPID_ALL_CONTACTS)));
    ENSURE(is_new_error(RAPID_Collide(R, NULL, a, R, T, b, RAPID_ALL_CONTACTS)));
    ENSURE(is_new_error(RAPID_Collide(R, T, NULL, R, T, b, RAPID_ALL_CONTACTS)));
    ENSURE(is_new_error(RAPID_Collide(R, T, a, NULL, T, b, RAPID_ALL_CONTACTS)));
    ENSURE(is_new_error(RAPID_Collide(R, T, a, R, NULL, b, RAPID_ALL_CONTACTS)));
    ENSURE(is_new_error(RAPID_Collide(R, T, a, R, T, NULL, RAPID_ALL_CONTACTS)));
    ENSURE(is_new_error(RAPID_CollideScaled(R, T, 0.0, a, R, T, 1.0, b, RAPID_ALL_CONTACTS)));
    ENSURE(is_new_error(RAPID_CollideScaled(R, T, 1.0, a, R, T, -2.0, b, RAPID_ALL_CONTACTS)));
    ENSURE(is_new_error(RAPID_CollideScaled(R, T, NAN, a, R, T, 1.0, b, RAPID_ALL_CONTACTS)));
    ENSURE(globals_equal(globals_now(), saved));
    ENSURE(RAPID_contact != NULL && RAPID_contact[0].id1 == 1 && RAPID_contact[0].id2 == 7);

    RAPID_model_delete(a);
    RAPID_model_delete(a2);
    RAPID_model_delete(b);
    RAPID_model_delete(m);
    return ensure_failed - before;
}

/* ------------------------------------------------------------------------------------------ */

static void usage(const char *prog) {
    fprintf(stderr, "usage: %s [--brute] [--exceptions DIR] [--no-misuse] CASE_DIR...\n", prog);
}

int main(int argc, char **argv) {
    Options opt = {0, NULL};
    int misuse = 1, failures = 0, cases = 0, k;

    for (k = 1; k < argc && argv[k][0] == '-'; k++) {
        if (!strcmp(argv[k], "--brute")) {
            opt.brute = 1;
        } else if (!strcmp(argv[k], "--exceptions") && k + 1 < argc) {
            opt.exceptions_dir = argv[++k];
        } else if (!strcmp(argv[k], "--no-misuse")) {
            misuse = 0;
        } else {
            usage(argv[0]);
            return 2;
        }
    }
    if (misuse) {
        int failed = check_misuse();
        printf("misuse checks: %d passed, %d failed\n", ensure_passed, failed);
        if (failed) failures++;
    }
    if (k < argc) {
        printf("\n%-14s %-6s %-13s %4s   %25s   %21s  %9s\n", "case", "query", "agree / poses",
               "exc", "mean box tests ours RAPID", "mean tri tests ours RAPID", "ms");
    }
    for (; k < argc; k++, cases++) failures += run_case(argv[k], &opt) != 0;
    printf("\n%d case(s), %s\n", cases, failures ? "FAILED" : "all agree");
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
