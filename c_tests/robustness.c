/*
 * robustness.c: limits at the C boundary (issue 13 items 5, 7 and 9). Queue sizes are capped
 * by the work they describe; rotations are checked (native: the process-wide tolerance of
 * rpq_set_rotation_tolerance; legacy RAPID and PQP: plainly non-rigid matrices only); scales
 * lie in [RPQ_MIN_SCALE, RPQ_MAX_SCALE]; a NaN in any vertex is refused. Every refused call
 * changes nothing.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "rapidpqp.h"

static const double TET[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const uint32_t FACES[12] = {0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3};

static RpqPose pose(double x) {
    RpqPose p;
    memset(&p, 0, sizeof p);
    p.rotation[0] = p.rotation[4] = p.rotation[8] = 1.0;
    p.translation[0] = x;
    p.scale = 1.0;
    return p;
}

static void queue_sizes(RpqModel *m) {
    RpqPose id = pose(0), poses[4] = {pose(2), pose(3), pose(4), pose(5)};
    RpqDistanceRequest huge = {0.0, 0.0, INT_MAX}, plain = {0.0, 0.0, 2};
    RpqToleranceRequest tol_huge = {0.5, INT_MAX};
    double d_huge[4], d_plain[4], t_dist[4];
    uint8_t closer[4];
    RpqDistanceResult r;
    int k;
    ENSURE_EQ_INT(rpq_distance_batch(m, &id, 1, m, poses, 4, &huge, 0, 2, d_huge, NULL, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_distance_batch(m, &id, 1, m, poses, 4, &plain, 0, 2, d_plain, NULL, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_tolerance_batch(m, &id, 1, m, poses, 4, &tol_huge, 2, closer, t_dist, NULL, NULL), RPQ_OK);
    for (k = 0; k < 4; k++) {
        ENSURE(d_huge[k] == d_plain[k]);
        ENSURE_NEAR(d_huge[k], k + 1.0, 1e-12);
        ENSURE(closer[k] == 0);
        ENSURE_EQ_INT(rpq_distance(m, &id, m, &poses[k], &huge, NULL, &r), RPQ_OK);
        ENSURE(r.distance == d_plain[k]);
        ENSURE_EQ_INT(rpq_tolerance(m, &id, m, &poses[k], &tol_huge, &r), RPQ_OK);
    }
}

/* A native query of m at `bad` against m at the identity: the status (the same from every
 * entry point, or -1 when they disagree). */
static int native_status(RpqModel *m, const RpqPose *bad) {
    RpqPose id = pose(0);
    RpqToleranceRequest tol = {0.1, 2};
    RpqCollideResult *res = rpq_collide_result_new();
    RpqDistanceResult r;
    double d = 7.0;
    uint8_t c = 7;
    int s = rpq_collide(m, bad, m, &id, NULL, res);
    if (rpq_distance(m, &id, m, bad, NULL, NULL, &r) != s) s = -1;
    if (rpq_tolerance(m, bad, m, &id, &tol, &r) != s) s = -1;
    if (rpq_collide_batch(m, &id, 1, m, bad, 1, NULL, 1, &c, NULL) != s) s = -1;
    if (rpq_distance_batch(m, bad, 1, m, &id, 1, NULL, 0, 1, &d, NULL, NULL) != s) s = -1;
    if (s != RPQ_OK && (d != 7.0 || c != 7)) s = -2; /* outputs written on error */
    rpq_collide_result_free(res);
    return s;
}

static void native_rotations(RpqModel *m) {
    RpqPose p = pose(0.25);
    int k;
    ENSURE(rpq_rotation_tolerance() == RPQ_ROTATION_TOLERANCE_DEFAULT);
    ENSURE_EQ_INT(native_status(m, &p), RPQ_OK);
    memset(p.rotation, 0, sizeof p.rotation); /* zero matrix */
    ENSURE_EQ_INT(native_status(m, &p), RPQ_ERR_NOT_ROTATION);
    p = pose(0.25);
    for (k = 0; k < 9; k++) p.rotation[k] *= 3.0; /* 3 I with scale 1 */
    ENSURE_EQ_INT(native_status(m, &p), RPQ_ERR_NOT_ROTATION);
    p = pose(0.25);
    p.scale = 3.0; /* I with scale 3: the way to say it */
    ENSURE_EQ_INT(native_status(m, &p), RPQ_OK);
    p = pose(0.25);
    p.rotation[8] = -1.0; /* a reflection */
    ENSURE_EQ_INT(native_status(m, &p), RPQ_ERR_NOT_ROTATION);
    p = pose(0.25);
    p.rotation[1] = 1e-4; /* sheared beyond the default tolerance */
    ENSURE_EQ_INT(native_status(m, &p), RPQ_ERR_NOT_ROTATION);
    ENSURE_EQ_INT(rpq_set_rotation_tolerance(1e-3), RPQ_OK);
    ENSURE_EQ_INT(native_status(m, &p), RPQ_OK);
    ENSURE_EQ_INT(rpq_set_rotation_tolerance(-1.0), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_set_rotation_tolerance(NAN), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_set_rotation_tolerance(0.5), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE(rpq_rotation_tolerance() == 1e-3);
    ENSURE_EQ_INT(rpq_set_rotation_tolerance(RPQ_ROTATION_TOLERANCE_DEFAULT), RPQ_OK);
    ENSURE_EQ_INT(native_status(m, &p), RPQ_ERR_NOT_ROTATION);
    /* 6 decimals pass the default. */
    p = pose(0.25);
    p.rotation[0] = p.rotation[4] = 0.707107;
    p.rotation[1] = -0.707107;
    p.rotation[3] = 0.707107;
    ENSURE_EQ_INT(native_status(m, &p), RPQ_OK);
}

static void native_scales(RpqModel *m) {
    RpqPose p = pose(0.25);
    double mat[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    RpqPose out = pose(9.0);
    int k;
    const double bad[4] = {1e200, 1e-200, 1e101, 0.0};
    for (k = 0; k < 4; k++) {
        p.scale = bad[k];
        ENSURE_EQ_INT(native_status(m, &p), RPQ_ERR_INVALID_SCALE);
    }
    p.scale = RPQ_MAX_SCALE;
    ENSURE_EQ_INT(native_status(m, &p), RPQ_OK);
    p.scale = RPQ_MIN_SCALE;
    ENSURE_EQ_INT(native_status(m, &p), RPQ_OK);
    for (k = 0; k < 3; k++) {
        int j;
        for (j = 0; j < 3; j++) mat[5 * j] = bad[k];
        ENSURE_EQ_INT(rpq_poses_from_matrices(mat, 1, 1e-5, &out), RPQ_ERR_INVALID_SCALE);
    }
    for (k = 0; k < 3; k++) mat[5 * k] = 0.0;
    ENSURE_EQ_INT(rpq_poses_from_matrices(mat, 1, 1e-5, &out), RPQ_ERR_NOT_ROTATION);
    for (k = 0; k < 3; k++) mat[5 * k] = 1e99;
    ENSURE_EQ_INT(rpq_poses_from_matrices(mat, 1, 1e-5, &out), RPQ_OK);
    ENSURE(out.scale == 1e99 && out.rotation[0] == 1.0);
    ENSURE_EQ_INT(rpq_poses_from_matrices(mat, 1, 0.5, &out), RPQ_ERR_INVALID_ARGUMENT);
}

static void native_builds_and_requests(void) {
    double verts[5][3];
    RpqModel *m = NULL;
    RpqDistanceRequest inf = {INFINITY, 0.0, 2};
    RpqPose id = pose(0);
    RpqDistanceResult r;
    memcpy(verts, TET, sizeof TET);
    verts[4][0] = verts[4][1] = verts[4][2] = NAN; /* a vertex no triangle uses */
    ENSURE_EQ_INT(rpq_model_build_indexed(&verts[0][0], 5, FACES, 4, NULL, &m), RPQ_ERR_NON_FINITE);
    ENSURE(m == NULL);
    ENSURE_EQ_INT(rpq_model_build_indexed(&verts[0][0], 4, FACES, 4, NULL, &m), RPQ_OK);
    ENSURE_EQ_INT(rpq_distance(m, &id, m, &id, &inf, NULL, &r), RPQ_ERR_INVALID_ARGUMENT);
    rpq_model_free(m);
}

static double I3[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static double Z3[3] = {0, 0, 0};

/* R with each entry rounded to 6 decimals, and R composed many times without renormalising. */
static void six_decimals(double r[3][3]) {
    double a = 0.61, b = -1.3;
    double m[3][3] = {{cos(a) * cos(b), -sin(a), cos(a) * sin(b)},
                      {sin(a) * cos(b), cos(a), sin(a) * sin(b)},
                      {-sin(b), 0.0, cos(b)}};
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) r[i][j] = floor(m[i][j] * 1e6 + 0.5) / 1e6;
}

static void drifted(double r[3][3]) {
    double step[3][3] = {{cos(1e-3), -sin(1e-3), 0}, {sin(1e-3), cos(1e-3), 0}, {0, 0, 1}}, t[3][3];
    int n, i, j, k;
    memcpy(r, I3, sizeof I3);
    for (n = 0; n < 100000; n++) {
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++) {
                t[i][j] = 0;
                for (k = 0; k < 3; k++) t[i][j] += r[i][k] * step[k][j];
            }
        memcpy(r, t, sizeof t);
    }
}

static void legacy_rotations(void) {
    PQP_Model *p = PQP_Model_new();
    RAPID_model *q = RAPID_model_new();
    double zero[3][3], scaled[3][3], reflect[3][3], dec[3][3], drift[3][3], sheared[3][3];
    double T[3] = {0.25, 0, 0};
    PQP_CollideResult cres;
    PQP_DistanceResult dres;
    int k;
    memset(&cres, 0, sizeof cres);
    memset(&dres, 0, sizeof dres);
    for (k = 0; k < 4; k++) {
        ENSURE_EQ_INT(PQP_AddTri(p, TET[FACES[3 * k]], TET[FACES[3 * k + 1]], TET[FACES[3 * k + 2]], k), PQP_OK);
        ENSURE_EQ_INT(RAPID_AddTri(q, TET[FACES[3 * k]], TET[FACES[3 * k + 1]], TET[FACES[3 * k + 2]], k), RAPID_OK);
    }
    ENSURE_EQ_INT(PQP_EndModel(p), PQP_OK);
    ENSURE_EQ_INT(RAPID_EndModel(q), RAPID_OK);
    memset(zero, 0, sizeof zero);
    memcpy(scaled, I3, sizeof I3);
    memcpy(reflect, I3, sizeof I3);
    memcpy(sheared, I3, sizeof I3);
    for (k = 0; k < 3; k++) scaled[k][k] = 3.0;
    reflect[2][2] = -1.0;
    sheared[0][1] = 0.01;
    six_decimals(dec);
    drifted(drift);

    /* Plainly not rotations: refused, nothing written. */
    ENSURE_EQ_INT(PQP_Collide(&cres, zero, T, p, I3, Z3, p, PQP_ALL_CONTACTS), PQP_ERR_NOT_ROTATION);
    ENSURE_EQ_INT(PQP_Collide(&cres, I3, Z3, p, scaled, T, p, PQP_ALL_CONTACTS), PQP_ERR_NOT_ROTATION);
    ENSURE_EQ_INT(PQP_Distance(&dres, sheared, T, p, I3, Z3, p, 0, 0, 2), PQP_ERR_NOT_ROTATION);
    ENSURE(cres.num_pairs == 0 && cres.pairs == NULL && dres.distance == 0.0);
    RAPID_num_contacts = -5;
    ENSURE_EQ_INT(RAPID_Collide(zero, T, q, I3, Z3, q, RAPID_ALL_CONTACTS), RAPID_ERR_NOT_ROTATION);
    ENSURE_EQ_INT(RAPID_Collide(I3, Z3, q, scaled, T, q, RAPID_ALL_CONTACTS), RAPID_ERR_NOT_ROTATION);
    ENSURE_EQ_INT(RAPID_CollideScaled(I3, Z3, 1e200, q, I3, T, 1.0, q, RAPID_ALL_CONTACTS),
                  RAPID_ERR_INVALID_SCALE);
    ENSURE_EQ_INT(RAPID_num_contacts, -5);
    /* Rotations as legacy programs hold them: drifting, 6 decimals, reflections. */
    ENSURE_EQ_INT(PQP_Collide(&cres, dec, T, p, I3, Z3, p, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE_EQ_INT(PQP_Collide(&cres, drift, T, p, dec, Z3, p, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE_EQ_INT(PQP_Collide(&cres, reflect, T, p, I3, Z3, p, PQP_ALL_CONTACTS), PQP_OK);
    ENSURE_EQ_INT(PQP_Distance(&dres, dec, T, p, drift, Z3, p, 0, 0, 2), PQP_OK);
    ENSURE_EQ_INT(RAPID_Collide(dec, T, q, drift, Z3, q, RAPID_ALL_CONTACTS), RAPID_OK);
    ENSURE_EQ_INT(RAPID_Collide(reflect, T, q, I3, Z3, q, RAPID_ALL_CONTACTS), RAPID_OK);
    ENSURE(RAPID_num_contacts > 0);
    PQP_CollideResult_FreePairsList(&cres);
    PQP_Model_delete(p);
    RAPID_model_delete(q);
}

int main(void) {
    RpqModel *m = NULL;
    ENSURE_EQ_INT(rpq_model_build_indexed(&TET[0][0], 4, FACES, 4, NULL, &m), RPQ_OK);
    queue_sizes(m);
    native_rotations(m);
    native_scales(m);
    native_builds_and_requests();
    legacy_rotations();
    rpq_model_free(m);
    return ENSURE_SUMMARY("robustness");
}
