/*
 * self_collide.c: the C API of self-collision (rpq_self_collide), driven by
 * tests/c_self_collide.rs.
 *
 * - Known answers: two crossing triangles, two sharing a vertex and crossing (excluded), a
 *   flat sheet (no pairs), first-contact.
 * - A sheet folded through itself and crumpled (computed here with sin/cos): its triangles
 *   (%.17g, so they round-trip exactly) and the pairs found are written to argv[1] for the
 *   test to compare with a brute force over all pairs.
 * - Every error path: NULL, freed, foreign and wrong-kind handles, unknown box test and
 *   frame; the result must be unchanged on error.
 *
 * Prints one summary line on success.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "rapidpqp.h"

/* An nx x ny grid of cells, two triangles each, through the map of the parameter point
 * (u, v) to a point; 9 doubles a triangle, written to *out (malloc'd). */
typedef void (*sheet_map)(double u, double v, double p[3]);

static size_t sheet(int nx, int ny, sheet_map f, double **out) {
    size_t n = 2 * (size_t)nx * (size_t)ny, k = 0;
    double *t = malloc(sizeof(double) * 9 * n);
    for (int i = 0; i < nx; i++) {
        for (int j = 0; j < ny; j++) {
            double p00[3], p10[3], p11[3], p01[3];
            f(i, j, p00), f(i + 1, j, p10), f(i + 1, j + 1, p11), f(i, j + 1, p01);
            memcpy(t + 9 * k, p00, sizeof p00), memcpy(t + 9 * k + 3, p10, sizeof p10);
            memcpy(t + 9 * k + 6, p11, sizeof p11), k++;
            memcpy(t + 9 * k, p00, sizeof p00), memcpy(t + 9 * k + 3, p11, sizeof p11);
            memcpy(t + 9 * k + 6, p01, sizeof p01), k++;
        }
    }
    *out = t;
    return n;
}

static void flat(double u, double v, double p[3]) {
    p[0] = 0.1 * u, p[1] = 0.1 * v, p[2] = 0.0;
}

/* 40 x 20 cells: folded back at u = 20 (the upper half slightly tilted so it passes through
 * the lower one) and crumpled by a few waves. */
static void crumpled(double u, double v, double p[3]) {
    double x = u <= 20 ? u : 40.3 - u, lift = u <= 20 ? 0.0 : 0.02 * (u - 20) - 0.15;
    p[0] = x / 20 + 0.05 * sin(0.7 * v);
    p[1] = v / 20 + 0.04 * cos(0.9 * u);
    p[2] = lift + 0.08 * sin(0.5 * u + 0.3 * v) * cos(0.4 * v);
}

static RpqModel *build(const double *t, size_t n) {
    RpqModel *m = NULL;
    ENSURE_EQ_INT(rpq_model_build(t, NULL, n, &m), RPQ_OK);
    return m;
}

int main(int argc, char **argv) {
    RpqCollideResult *r = rpq_collide_result_new();
    RpqCollideRequest req, first, bad_box, bad_frame;
    uint64_t bv = 0, tri = 0;
    memset(&req, 0, sizeof req);
    first = req, bad_box = req, bad_frame = req;
    first.first_contact = 1;
    bad_box.box_test = 99;
    bad_frame.frame = -1;
    if (argc != 2) {
        fprintf(stderr, "usage: self_collide ANSWERS\n");
        return 2;
    }
    ENSURE(r != NULL);

    /* Two crossing triangles: one pair; two sharing a vertex and crossing: none. */
    {
        double cross[18] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, -1, 0.2, 0.2, 1, 2, 2, 0};
        double fan[18] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0.5, 0.5, 1, 0.5, 0.5, -1};
        RpqModel *m = build(cross, 2), *f = build(fan, 2);
        ENSURE_EQ_INT(rpq_self_collide(m, NULL, r), RPQ_OK);
        ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), 1);
        ENSURE(rpq_collide_result_pairs(r) != NULL);
        if (rpq_collide_result_num_pairs(r) == 1) {
            ENSURE_EQ_INT(rpq_collide_result_pairs(r)[0].id1, 0);
            ENSURE_EQ_INT(rpq_collide_result_pairs(r)[0].id2, 1);
        }
        ENSURE_EQ_INT(rpq_self_collide(f, &req, r), RPQ_OK);
        ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), 0);
        ENSURE(rpq_collide_result_pairs(r) == NULL);
        rpq_model_free(m);
        rpq_model_free(f);
    }

    /* A flat sheet: no pairs, though its neighbours' leaves were reached. */
    {
        double *t;
        size_t n = sheet(30, 30, flat, &t);
        RpqModel *m = build(t, n);
        for (int box = RPQ_BOX_TEST_DEFAULT; box <= RPQ_BOX_TEST_SPHERE_SAT15; box++) {
            RpqCollideRequest q = req;
            q.box_test = box;
            ENSURE_EQ_INT(rpq_self_collide(m, &q, r), RPQ_OK);
            ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), 0);
            ENSURE_EQ_INT(rpq_collide_result_counts(r, &bv, &tri), RPQ_OK);
            ENSURE(bv > 0 && tri > 0);
        }
        rpq_model_free(m);
        free(t);
    }

    /* The crumpled fold: every box test finds the same pairs; first-contact finds one of
     * them; the triangles and pairs go to the answers file. */
    {
        double *t;
        size_t n = sheet(40, 20, crumpled, &t), count;
        RpqModel *m = build(t, n);
        RpqContactPair *all;
        FILE *out = fopen(argv[1], "w");
        ENSURE(out != NULL);
        ENSURE_EQ_INT(rpq_self_collide(m, &req, r), RPQ_OK);
        count = rpq_collide_result_num_pairs(r);
        ENSURE(count > 0);
        all = malloc(sizeof *all * (count ? count : 1));
        if (count) {
            memcpy(all, rpq_collide_result_pairs(r), sizeof *all * count);
        }
        for (int box = RPQ_BOX_TEST_SAT15; box <= RPQ_BOX_TEST_SPHERE_SAT15; box++) {
            RpqCollideRequest q = req;
            q.box_test = box;
            ENSURE_EQ_INT(rpq_self_collide(m, &q, r), RPQ_OK);
            ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), count);
            /* Same traversal order for every test? Not promised: compare as sets. */
            for (size_t i = 0; i < rpq_collide_result_num_pairs(r); i++) {
                RpqContactPair p = rpq_collide_result_pairs(r)[i];
                int found = 0;
                for (size_t j = 0; j < count && !found; j++) {
                    found = all[j].id1 == p.id1 && all[j].id2 == p.id2;
                }
                ENSURE(found && p.id1 < p.id2);
            }
        }
        ENSURE_EQ_INT(rpq_self_collide(m, &first, r), RPQ_OK);
        ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), 1);
        if (out) {
            fprintf(out, "N %zu\n", n);
            for (size_t k = 0; k < n; k++) {
                fprintf(out, "T");
                for (int c = 0; c < 9; c++) {
                    fprintf(out, " %.17g", t[9 * k + c]);
                }
                fprintf(out, "\n");
            }
            for (size_t i = 0; i < count; i++) {
                fprintf(out, "P %d %d\n", all[i].id1, all[i].id2);
            }
            fclose(out);
        }

        /* Error paths: each leaves the result as the last good call left it (one pair). */
        {
            RpqModel *dead = build(t, 2);
            RpqCollideResult *dead_result = rpq_collide_result_new();
            double foreign_bytes[64];
            RpqModel *foreign = (RpqModel *)(void *)foreign_bytes;
            RpqModel *bad_models[4];
            memset(foreign_bytes, 0, sizeof foreign_bytes);
            rpq_model_free(dead);
            rpq_collide_result_free(dead_result);
            bad_models[0] = NULL, bad_models[1] = dead, bad_models[2] = foreign;
            bad_models[3] = (RpqModel *)(void *)r; /* a live handle of another kind */
            for (int b = 0; b < 4; b++) {
                ENSURE_EQ_INT(rpq_self_collide(bad_models[b], &req, r),
                              b == 0 ? RPQ_ERR_NULL_POINTER : RPQ_ERR_INVALID_HANDLE);
                ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), 1);
            }
            ENSURE_EQ_INT(rpq_self_collide(m, &req, NULL), RPQ_ERR_NULL_POINTER);
            ENSURE_EQ_INT(rpq_self_collide(m, &req, dead_result), RPQ_ERR_INVALID_HANDLE);
            ENSURE_EQ_INT(rpq_self_collide(m, &req, (RpqCollideResult *)(void *)m), RPQ_ERR_INVALID_HANDLE);
            ENSURE_EQ_INT(rpq_self_collide(m, &bad_box, r), RPQ_ERR_INVALID_ARGUMENT);
            ENSURE_EQ_INT(rpq_self_collide(m, &bad_frame, r), RPQ_ERR_INVALID_ARGUMENT);
            ENSURE_EQ_INT(rpq_collide_result_num_pairs(r), 1);
            ENSURE(strlen(rpq_status_message(RPQ_ERR_INVALID_ARGUMENT)) > 0);
        }
        free(all);
        rpq_model_free(m);
        free(t);
    }

    rpq_collide_result_free(r);
    return ENSURE_SUMMARY("self_collide");
}
