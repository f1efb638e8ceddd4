/*
 * sweep.c: the C API of motion queries (rpq_sweep, rpq_sweep_batch, rpq_time_of_impact,
 * rpq_removal_directions), driven by tests/c_sweep.rs.
 *
 * - Known answers on cubes: a sweep along an axis and along a diagonal (exact s), a miss, a
 *   contact at s = 0 (touching at the start), the last contact of overlapping cubes, s_max
 *   cutting the sweep short; a bar turning into a post (time of impact against the exact
 *   angle, bracketed by rpq_collide), a free turn, a translation, the step limit; a peg in a
 *   hole (removal directions: out along its axis only).
 * - A mesh from a file (argv[1], fandisk) swept against itself along many directions: batches
 *   with threads = 1 and 2 against single calls; the answers are written to argv[2] for the
 *   test to compare with the Rust core.
 * - Every error path: NULL, freed handles, NaN and infinity, a zero direction with s_max > 0,
 *   bad s_max, different scales at start and end, moving out of range, no parts. Outputs must
 *   be untouched on error.
 *
 * Prints one summary line on success.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
/* fixture.h is shared with the conformance programs; this one uses only its OBJ reader. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "fixture.h"
#include "rapidpqp.h"
#include "native_shapes.h"

static const double PI = 3.14159265358979323846;

/* The pose turned by `angle` about z (row-major), at the origin. */
static RpqPose turned(double angle) {
    RpqPose p = pose_at(0, 0, 0);
    p.rotation[0] = cos(angle), p.rotation[1] = -sin(angle);
    p.rotation[3] = sin(angle), p.rotation[4] = cos(angle);
    return p;
}

/* The box [x0, x1] × [y0, y1] × [z0, z1], faces outward. */
static RpqModel *cuboid(double x0, double y0, double z0, double x1, double y1, double z1) {
    const double lo[3] = {x0, y0, z0}, hi[3] = {x1, y1, z1};
    return box_model(lo, hi, 0);
}

static uint64_t rng_state = 0x5eed5eed12345678u;
static double uniform(void) {
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Two sweep results are the same, field by field (RpqSweepResult has padding), bitwise. */
static int same_sweep(const RpqSweepResult *a, const RpqSweepResult *b) {
    return a->hit == b->hit && same_bits(a->s, b->s) && a->id1 == b->id1 && a->id2 == b->id2 &&
           a->tri1 == b->tri1 && a->tri2 == b->tri2 && memcmp(a->point, b->point, sizeof a->point) == 0 &&
           memcmp(a->point1, b->point1, sizeof a->point1) == 0 &&
           memcmp(a->point2, b->point2, sizeof a->point2) == 0 && a->bv_tests == b->bv_tests &&
           a->tri_tests == b->tri_tests;
}

static void ensure_miss(const RpqSweepResult *r) {
    ENSURE(r->hit == 0 && isinf(r->s) && r->s > 0);
    ENSURE(r->id1 == -1 && r->id2 == -1 && r->tri1 == UINT32_MAX && r->tri2 == UINT32_MAX);
    ENSURE(isnan(r->point[0]) && isnan(r->point1[1]) && isnan(r->point2[2]));
}

/* A hit at s in [want - tol, want] (never later than the exact contact). */
static void ensure_hit(const RpqSweepResult *r, double want, double tol) {
    ENSURE_EQ_INT(r->hit, 1);
    ENSURE(r->s <= want && r->s >= want - tol);
    ENSURE(r->id1 >= 0 && r->id1 < 12 && r->id2 >= 0 && r->id2 < 12 && r->tri1 < 12 && r->tri2 < 12);
    ENSURE(r->bv_tests > 0 && r->tri_tests > 0);
}

static void cube_sweeps(const RpqModel *cube) {
    RpqPose origin = pose_at(0, 0, 0), left = pose_at(-5, 0, 0), corner = pose_at(-5, -5, 0);
    RpqPose high = pose_at(-5, 3, 0), touching = pose_at(2, 0, 0), over = pose_at(1.5, 0, 0);
    const double x[3] = {1, 0, 0}, x2[3] = {2, 0, 0}, mx[3] = {-1, 0, 0}, diag[3] = {1, 1, 0};
    const double unit_diag[3] = {1 / sqrt(2.0), 1 / sqrt(2.0), 0}, zero[3] = {0, 0, 0};
    RpqSweepResult r;

    /* Along x from x = -5: the faces x = 1 and x = -1 meet after 3 (1.5 of the doubled vector). */
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &origin, x, 10, 0, &r), RPQ_OK);
    ensure_hit(&r, 3.0, 1e-12);
    ENSURE_NEAR(r.point[0], -1.0, 1e-12);
    ENSURE_NEAR(r.point2[0], -1.0, 1e-12);
    ENSURE_NEAR(r.point1[0], 1.0, 1e-12);
    ENSURE(fabs(r.point[1]) <= 1 + 1e-12 && fabs(r.point[2]) <= 1 + 1e-12);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &origin, x2, 10, 0, &r), RPQ_OK);
    ensure_hit(&r, 1.5, 1e-12);
    /* s_max short of the contact: none; exactly at it: the contact. */
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &origin, x, 2.9, 0, &r), RPQ_OK);
    ensure_miss(&r);
    ENSURE(r.bv_tests > 0);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &origin, x, 3.0, 0, &r), RPQ_OK);
    ensure_hit(&r, 3.0, 1e-12);
    /* Along the diagonal from (-5, -5): the edges meet after 3 (3·sqrt 2 along the unit vector). */
    ENSURE_EQ_INT(rpq_sweep(cube, &corner, cube, &origin, diag, 10, 0, &r), RPQ_OK);
    ensure_hit(&r, 3.0, 1e-12);
    ENSURE_NEAR(r.point[0], -1.0, 1e-12);
    ENSURE_NEAR(r.point[1], -1.0, 1e-12);
    ENSURE_EQ_INT(rpq_sweep(cube, &corner, cube, &origin, unit_diag, 10, 0, &r), RPQ_OK);
    ensure_hit(&r, 3.0 * sqrt(2.0), 1e-11);
    /* A miss: passing 1 above. */
    ENSURE_EQ_INT(rpq_sweep(cube, &high, cube, &origin, x, 100, 0, &r), RPQ_OK);
    ensure_miss(&r);
    /* Touching at the start: s = 0, moving towards or away. A zero direction with s_max 0
     * asks whether they touch. */
    ENSURE_EQ_INT(rpq_sweep(cube, &touching, cube, &origin, mx, 5, 0, &r), RPQ_OK);
    ENSURE(r.hit == 1 && r.s == 0.0);
    ENSURE_EQ_INT(rpq_sweep(cube, &touching, cube, &origin, x, 5, 0, &r), RPQ_OK);
    ENSURE(r.hit == 1 && r.s == 0.0);
    ENSURE_NEAR(r.point[0], 1.0, 1e-12);
    ENSURE_EQ_INT(rpq_sweep(cube, &touching, cube, &origin, zero, 0, 0, &r), RPQ_OK);
    ENSURE(r.hit == 1 && r.s == 0.0);
    ENSURE_EQ_INT(rpq_sweep(cube, &high, cube, &origin, zero, 0, 0, &r), RPQ_OK);
    ensure_miss(&r);

    /* Overlapping (model 1 at x = 1.5): first contact at once; the last contact is where they
     * come apart, after 0.5 along +x and 3.5 along -x; an s_max before that is the answer. */
    ENSURE_EQ_INT(rpq_sweep(cube, &over, cube, &origin, x, 10, 0, &r), RPQ_OK);
    ENSURE(r.hit == 1 && r.s == 0.0);
    ENSURE_EQ_INT(rpq_sweep(cube, &over, cube, &origin, x, 10, 1, &r), RPQ_OK);
    ENSURE_EQ_INT(r.hit, 1);
    ENSURE(r.s >= 0.5 && r.s <= 0.5 + 1e-12);
    ENSURE_NEAR(r.point2[0], 1.0, 1e-12);
    ENSURE_EQ_INT(rpq_sweep(cube, &over, cube, &origin, mx, 10, 1, &r), RPQ_OK);
    ENSURE(r.hit == 1 && r.s >= 3.5 && r.s <= 3.5 + 1e-12);
    ENSURE_EQ_INT(rpq_sweep(cube, &over, cube, &origin, x, 0.3, 1, &r), RPQ_OK);
    ENSURE(r.hit == 1 && r.s == 0.3);
    /* Last contact of models apart all the way: none. */
    ENSURE_EQ_INT(rpq_sweep(cube, &high, cube, &origin, x, 100, 1, &r), RPQ_OK);
    ensure_miss(&r);
    /* Last contact coming from the left: the faces part after 7 (x = -5 + 7 = 2). */
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &origin, x, 100, 1, &r), RPQ_OK);
    ENSURE(r.hit == 1 && r.s >= 7.0 && r.s <= 7.0 + 1e-12);
}

/* The cube batch: the directions around the circle in the xy plane from (-5, 0.5, 0.2),
 * threads 1 and 2 against single calls, first and last contact. */
static void cube_batch(const RpqModel *cube) {
    enum { N = 40 };
    RpqPose origin = pose_at(0, 0, 0), from = pose_at(-5, 0.5, 0.2);
    double dirs[3 * N];
    RpqSweepResult one[N], two[N], single;
    int hits = 0;
    for (int i = 0; i < N; i++) {
        double a = 2 * PI * i / N;
        dirs[3 * i] = cos(a) * (1 + i % 3), dirs[3 * i + 1] = sin(a), dirs[3 * i + 2] = 0.01 * (i % 5);
    }
    for (int last = 0; last <= 1; last++) {
        ENSURE_EQ_INT(rpq_sweep_batch(cube, &from, cube, &origin, dirs, N, 20, last, 1, one), RPQ_OK);
        ENSURE_EQ_INT(rpq_sweep_batch(cube, &from, cube, &origin, dirs, N, 20, last, 2, two), RPQ_OK);
        for (int i = 0; i < N; i++) {
            ENSURE_EQ_INT(rpq_sweep(cube, &from, cube, &origin, dirs + 3 * i, 20, last, &single), RPQ_OK);
            ENSURE(same_sweep(&one[i], &single) && same_sweep(&two[i], &single));
            hits += one[i].hit;
        }
    }
    /* Towards the cube (around i = 0) they hit, away (around i = N/2) they do not. */
    ENSURE(one[0].hit == 1 && one[N / 2].hit == 0 && hits > 4 && hits < 2 * N - 4);
    /* Threads 0: one per core; more threads than directions. */
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &from, cube, &origin, dirs, 3, 20, 0, 0, two), RPQ_OK);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &from, cube, &origin, dirs, 3, 20, 0, 64, one), RPQ_OK);
    for (int i = 0; i < 3; i++) ENSURE(same_sweep(&one[i], &two[i]));
}

/* Model 1 at rpq_collide-tested pose p touches model 2 at the origin. */
static int touches(const RpqModel *a, const RpqPose *p, const RpqModel *b, RpqCollideResult *r) {
    RpqCollideRequest first = {1, 0, 0};
    RpqPose origin = pose_at(0, 0, 0);
    ENSURE_EQ_INT(rpq_collide(a, p, b, &origin, &first, r), RPQ_OK);
    return rpq_collide_result_num_pairs(r) > 0;
}

static void times_of_impact(const RpqModel *cube) {
    /* A bar along x turns about z by 90 degrees towards a post on the y axis (as the Rust test
     * query::toi::tests::a_turning_bar_hits_a_post): its long edge meets the post's corner
     * (0.1, 1.0) at angle atan2(1, 0.1) - asin(0.05 / |(0.1, 1)|). */
    RpqModel *bar = cuboid(0, -0.05, -0.05, 2, 0.05, 0.05), *post = cuboid(-0.1, 1, -1, 0.1, 1.2, 1);
    RpqCollideResult *cr = rpq_collide_result_new();
    RpqPose start = turned(0), quarter = turned(PI / 2), back = turned(-PI / 2), origin = pose_at(0, 0, 0);
    const double exact = (atan2(1.0, 0.1) - asin(0.05 / sqrt(1.01))) / (PI / 2);
    RpqToi t, d;
    ENSURE_EQ_INT(rpq_time_of_impact(bar, &start, &quarter, post, &origin, 1e-4, 0, &t), RPQ_OK);
    ENSURE_EQ_INT(t.outcome, RPQ_TOI_CONTACT);
    ENSURE(t.time <= exact && exact - t.time < 1e-3);
    ENSURE(t.distance <= 1e-4 && t.distance >= 0 && t.steps > 1 && t.steps < 10000);
    ENSURE(t.bv_tests > 0 && t.tri_tests > 0);
    /* The placement is the start turned by time · 90 degrees. */
    ENSURE_NEAR(t.placement.rotation[0], cos(t.time * PI / 2), 1e-12);
    ENSURE_NEAR(t.placement.rotation[3], sin(t.time * PI / 2), 1e-12);
    ENSURE_NEAR(t.placement.rotation[8], 1.0, 1e-12);
    ENSURE(t.placement.scale == 1.0 && t.placement.translation[0] == 0 && t.placement.translation[2] == 0);
    /* Bracketed by the exact collide: apart at every sampled time before it, touching a
     * little after the exact time. */
    for (int k = 0; k < 200; k++) {
        RpqPose p = turned(t.time * k / 200.0 * PI / 2);
        ENSURE(!touches(bar, &p, post, cr));
    }
    {
        RpqPose after = turned((exact + 1e-3) * PI / 2);
        ENSURE(touches(bar, &after, post, cr));
    }
    /* The default tolerance (negative), also never late. */
    ENSURE_EQ_INT(rpq_time_of_impact(bar, &start, &quarter, post, &origin, -1, 0, &d), RPQ_OK);
    ENSURE(d.outcome == RPQ_TOI_CONTACT && d.time <= exact && exact - d.time < 1e-2);
    ENSURE(d.distance <= 2.1e-3);
    /* One step: the budget runs out at the start. */
    ENSURE_EQ_INT(rpq_time_of_impact(bar, &start, &quarter, post, &origin, 1e-4, 1, &d), RPQ_OK);
    ENSURE(d.outcome == RPQ_TOI_STEP_LIMIT && d.steps == 1 && d.time < exact && d.distance > 0);
    /* Turning the other way: free, the whole motion. */
    ENSURE_EQ_INT(rpq_time_of_impact(bar, &start, &back, post, &origin, 1e-4, 0, &d), RPQ_OK);
    ENSURE(d.outcome == RPQ_TOI_FREE && d.time == 1.0 && d.distance > 1e-4);
    ENSURE_NEAR(d.placement.rotation[3], -1.0, 1e-12);
    /* A pure translation is swept exactly: from x = -5 to x = 5 the cubes meet at 0.3. */
    {
        RpqPose a = pose_at(-5, 0, 0), b = pose_at(5, 0, 0);
        ENSURE_EQ_INT(rpq_time_of_impact(cube, &a, &b, cube, &origin, -1, 0, &d), RPQ_OK);
        ENSURE(d.outcome == RPQ_TOI_CONTACT && d.time <= 0.3 && d.time > 0.3 - 1e-12);
        ENSURE_NEAR(d.placement.translation[0], -2.0, 1e-11);
        ENSURE(d.distance <= 1e-12);
    }
    rpq_collide_result_free(cr);
    rpq_model_free(bar);
    rpq_model_free(post);
}

/* The Rust test query::disassembly::tests::a_peg_in_a_hole_comes_out_along_its_axis_only: a
 * square peg in a square hole (four walls, 0.01 clearance) on a base plate, a far part. */
static void peg_in_a_hole(void) {
    RpqModel *parts[7] = {
        cuboid(-0.5, -0.5, 0.01, 0.5, 0.5, 3.0),    cuboid(-1.5, -1.5, 0.0, -0.51, 1.5, 2.0),
        cuboid(0.51, -1.5, 0.0, 1.5, 1.5, 2.0),     cuboid(-0.51, -1.5, 0.0, 0.51, -0.51, 2.0),
        cuboid(-0.51, 0.51, 0.0, 0.51, 1.5, 2.0),   cuboid(-1.5, -1.5, -1.0, 1.5, 1.5, 0.0),
        cuboid(10.0, 10.0, 0.0, 11.0, 11.0, 1.0),
    };
    const RpqModel *models[7];
    RpqPose poses[7];
    const double axes[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
    const double diagonal[3] = {2, 0, 2};
    const long blockers[6] = {2, 1, 4, 3, -1, 5};
    RpqRemoval r[6];
    for (int k = 0; k < 7; k++) models[k] = parts[k], poses[k] = pose_at(0, 0, 0);
    ENSURE_EQ_INT(rpq_removal_directions(models, poses, 7, 0, axes, 6, INFINITY, r), RPQ_OK);
    for (int k = 0; k < 6; k++) {
        ENSURE_EQ_INT(r[k].blocker, blockers[k]);
        ENSURE(r[k].culled >= 1); /* the far part */
        ENSURE(r[k].direction[0] == axes[3 * k] && r[k].direction[2] == axes[3 * k + 2]);
        if (k == 4) {
            ENSURE(r[k].free == 1 && isinf(r[k].free_distance) && r[k].contact.hit == 0);
            ENSURE(isinf(r[k].contact.s) && r[k].contact.id1 == -1);
        } else {
            ENSURE(r[k].free == 0 && r[k].contact.hit == 1 && r[k].swept >= 1);
            ENSURE_NEAR(r[k].free_distance, 0.01, 1e-12);
            ENSURE(r[k].contact.s == r[k].free_distance);
            ENSURE(r[k].contact.bv_tests == 0 && r[k].contact.tri_tests == 0);
            ENSURE(r[k].bv_tests > 0 && r[k].tri_tests > 0);
        }
    }
    /* Pulled only 0.005 sideways it is free; the diagonal up and out is blocked by a wall, and
     * the direction comes back as a unit vector. */
    ENSURE_EQ_INT(rpq_removal_directions(models, poses, 7, 0, axes, 1, 0.005, r), RPQ_OK);
    ENSURE(r[0].free == 1 && r[0].free_distance == 0.005 && r[0].blocker == -1);
    ENSURE_EQ_INT(rpq_removal_directions(models, poses, 7, 0, diagonal, 1, INFINITY, r), RPQ_OK);
    ENSURE(r[0].free == 0 && r[0].blocker == 2);
    ENSURE_NEAR(r[0].free_distance, 0.01 * sqrt(2.0), 1e-12);
    ENSURE_NEAR(r[0].direction[0], 1 / sqrt(2.0), 1e-15);
    ENSURE_NEAR(r[0].direction[2], 1 / sqrt(2.0), 1e-15);
    /* The far part moves freely along every axis, the others all culled; towards them along
     * the diagonal, its corner (10, 10) reaches theirs (1.5, 1.5) after 8.5 sqrt 2. */
    ENSURE_EQ_INT(rpq_removal_directions(models, poses, 7, 6, axes, 6, INFINITY, r), RPQ_OK);
    for (int k = 0; k < 6; k++) ENSURE(r[k].free == 1 && r[k].culled == 6 && r[k].swept == 0);
    {
        const double back[3] = {-1, -1, 0};
        ENSURE_EQ_INT(rpq_removal_directions(models, poses, 7, 6, back, 1, INFINITY, r), RPQ_OK);
        ENSURE(r[0].free == 0 && r[0].blocker >= 1 && r[0].blocker <= 5);
        ENSURE_NEAR(r[0].free_distance, 8.5 * sqrt(2.0), 1e-12);
    }
    /* No directions: fine. */
    ENSURE_EQ_INT(rpq_removal_directions(models, poses, 7, 0, NULL, 0, INFINITY, NULL), RPQ_OK);
    for (int k = 0; k < 7; k++) rpq_model_free(parts[k]);
}

/* Fandisk (argv[1]) turned and moved away, swept back at the fandisk at the origin along
 * directions aimed at it with noise: batches with threads 1 and 2 and single calls agree; the
 * pose, s_max and answers go to `answers` for the Rust core to check. */
static void mesh_batches(const char *path, const char *answers) {
    enum { N = 48 };
    Mesh mesh;
    RpqModel *m = NULL;
    double *flat, dirs[3 * N];
    RpqPose p1 = turned(0.5), origin = pose_at(0, 0, 0);
    RpqSweepResult one[N], two[N], single;
    FILE *out;
    int hits = 0;
    const double s_max = 3.0;
    ENSURE(read_obj(path, &mesh) == 0 && mesh.n > 1000);
    flat = xcalloc((size_t)mesh.n * 9, sizeof(double));
    for (int k = 0; k < mesh.n; k++)
        for (int c = 0; c < 3; c++) memcpy(flat + 9 * k + 3 * c, mesh.tri[k].v[c], 3 * sizeof(double));
    ENSURE_EQ_INT(rpq_model_build(flat, NULL, (size_t)mesh.n, &m), RPQ_OK);
    p1.translation[0] = 16, p1.translation[1] = -6, p1.translation[2] = 2;
    for (int i = 0; i < N; i++) {
        /* From about (10.8, 8.5, 0.7) (model 1's middle) towards (2.4, 15.2, -1.3) (model 2's). */
        dirs[3 * i] = -8.4 + 20 * (uniform() - 0.5);
        dirs[3 * i + 1] = 6.7 + 20 * (uniform() - 0.5);
        dirs[3 * i + 2] = -2.0 + 10 * (uniform() - 0.5);
    }
    out = fopen(answers, "w");
    ENSURE(out != NULL);
    if (!out) exit(2);
    fprintf(out, "P");
    for (int k = 0; k < 9; k++) fprintf(out, " %.17g", p1.rotation[k]);
    fprintf(out, " %.17g %.17g %.17g %.17g %.17g\n", p1.translation[0], p1.translation[1], p1.translation[2],
            p1.scale, s_max);
    for (int last = 0; last <= 1; last++) {
        ENSURE_EQ_INT(rpq_sweep_batch(m, &p1, m, &origin, dirs, N, s_max, last, 1, one), RPQ_OK);
        ENSURE_EQ_INT(rpq_sweep_batch(m, &p1, m, &origin, dirs, N, s_max, last, 2, two), RPQ_OK);
        for (int i = 0; i < N; i++) {
            ENSURE_EQ_INT(rpq_sweep(m, &p1, m, &origin, dirs + 3 * i, s_max, last, &single), RPQ_OK);
            ENSURE(same_sweep(&one[i], &single) && same_sweep(&two[i], &single));
            hits += one[i].hit;
            fprintf(out, "S %d %.17g %.17g %.17g %d %.17g %u %u %.17g %.17g %.17g\n", last, dirs[3 * i],
                    dirs[3 * i + 1], dirs[3 * i + 2], one[i].hit, one[i].s, one[i].tri1, one[i].tri2,
                    one[i].point[0], one[i].point[1], one[i].point[2]);
        }
    }
    ENSURE(hits >= 10 && hits <= 2 * N - 10);
    fclose(out);
    rpq_model_free(m);
    free(flat);
    free(mesh.tri);
}

static void errors(const RpqModel *cube) {
    RpqModel *dead = NULL;
    const double x[3] = {1, 0, 0}, zero[3] = {0, 0, 0}, nan_dir[3] = {NAN, 0, 0}, inf_dir[3] = {0, INFINITY, 0};
    const double dirs[9] = {1, 0, 0, 0, 1, 0, 0, NAN, 0}, zero_in[9] = {1, 0, 0, 0, 0, 0, 0, 1, 0};
    RpqPose id = pose_at(0, 0, 0), left = pose_at(-5, 0, 0), bad = pose_at(0, NAN, 0), unscaled = pose_at(0, 0, 0);
    RpqPose twice = pose_at(5, 0, 0), skew = pose_at(0, 0, 0);
    RpqSweepResult s, s_keep, b[3], b_keep[3];
    RpqToi t, t_keep;
    RpqRemoval r[3], r_keep[3];
    const RpqModel *parts[2] = {cube, cube}, *with_null[2] = {cube, NULL}, *with_dead[2];
    RpqPose poses[2];
    unscaled.scale = 0;
    twice.scale = 2;
    skew.rotation[1] = 0.5;
    poses[0] = left, poses[1] = id;
    memset(&s, 0x5a, sizeof s), s_keep = s;
    memset(b, 0x5a, sizeof b), memcpy(b_keep, b, sizeof b);
    memset(&t, 0x5a, sizeof t), t_keep = t;
    memset(r, 0x5a, sizeof r), memcpy(r_keep, r, sizeof r);
    {
        const double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        ENSURE_EQ_INT(rpq_model_build(tri, NULL, 1, &dead), RPQ_OK);
        rpq_model_free(dead);
    }
    with_dead[0] = cube, with_dead[1] = dead;

    /* NULL and freed handles, NULL poses, directions and outputs. */
    ENSURE_EQ_INT(rpq_sweep(NULL, &left, cube, &id, x, 1, 0, &s), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, NULL, &id, x, 1, 0, &s), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_sweep(cube, NULL, cube, &id, x, 1, 0, &s), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, NULL, x, 1, 0, &s), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &id, NULL, 1, 0, &s), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &id, x, 1, 0, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_sweep(dead, &left, cube, &id, x, 1, 0, &s), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, dead, &id, x, 1, 1, &s), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_sweep_batch(dead, &left, cube, &id, dirs, 2, 1, 0, 1, b), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &left, cube, &id, NULL, 2, 1, 0, 1, b), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &left, cube, &id, dirs, 2, 1, 0, 1, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, NULL, cube, &id, dirs, 2, 1, 0, 1, b), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_time_of_impact(NULL, &left, &id, cube, &id, -1, 0, &t), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_time_of_impact(cube, NULL, &id, cube, &id, -1, 0, &t), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_time_of_impact(cube, &left, NULL, cube, &id, -1, 0, &t), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_time_of_impact(cube, &left, &id, cube, NULL, -1, 0, &t), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_time_of_impact(cube, &left, &id, cube, &id, -1, 0, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_time_of_impact(cube, &left, &id, dead, &id, -1, 0, &t), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_removal_directions(NULL, poses, 2, 0, x, 1, INFINITY, r), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_removal_directions(parts, NULL, 2, 0, x, 1, INFINITY, r), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_removal_directions(with_null, poses, 2, 0, x, 1, INFINITY, r), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_removal_directions(with_dead, poses, 2, 0, x, 1, INFINITY, r), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, NULL, 1, INFINITY, r), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, x, 1, INFINITY, NULL), RPQ_ERR_NULL_POINTER);

    /* NaN and infinity: directions, poses, the tolerance. */
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &id, nan_dir, 1, 0, &s), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &id, inf_dir, 1, 1, &s), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_sweep(cube, &bad, cube, &id, x, 1, 0, &s), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &unscaled, x, 1, 0, &s), RPQ_ERR_INVALID_SCALE);
    ENSURE_EQ_INT(rpq_sweep(cube, &skew, cube, &id, x, 1, 0, &s), RPQ_ERR_NOT_ROTATION);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &left, cube, &id, dirs, 3, 1, 0, 2, b), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &left, cube, &id, dirs, 3, 1, 1, 1, b), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &left, cube, &bad, dirs, 2, 1, 0, 1, b), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_time_of_impact(cube, &left, &id, cube, &id, NAN, 0, &t), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_time_of_impact(cube, &left, &bad, cube, &id, -1, 0, &t), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, nan_dir, 1, INFINITY, r), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, dirs, 3, INFINITY, r), RPQ_ERR_NON_FINITE);
    poses[1] = bad;
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, x, 1, INFINITY, r), RPQ_ERR_NON_FINITE);
    poses[1] = id;

    /* Bad numbers: s_max, zero directions, scales, moving, distance. */
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &id, zero, 1, 0, &s), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &id, x, -1, 0, &s), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &id, x, NAN, 0, &s), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &id, x, INFINITY, 1, &s), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &left, cube, &id, zero_in, 3, 1, 0, 2, b), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &left, cube, &id, dirs, 2, -1, 0, 2, b), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &left, cube, &id, NULL, 0, -1, 0, 2, NULL), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_time_of_impact(cube, &left, &twice, cube, &id, -1, 0, &t), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 2, x, 1, INFINITY, r), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 0, 0, x, 1, INFINITY, r), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_removal_directions(NULL, NULL, 0, 0, x, 1, INFINITY, r), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, zero, 1, INFINITY, r), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, zero_in, 3, INFINITY, r), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, x, 1, -1, r), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, x, 1, NAN, r), RPQ_ERR_INVALID_ARGUMENT);

    /* Nothing was written by any failed call. */
    ENSURE(memcmp(&s, &s_keep, sizeof s) == 0 && memcmp(b, b_keep, sizeof b) == 0);
    ENSURE(memcmp(&t, &t_keep, sizeof t) == 0 && memcmp(r, r_keep, sizeof r) == 0);

    /* Zero counts: fine, with NULL arrays. */
    ENSURE_EQ_INT(rpq_sweep_batch(cube, &left, cube, &id, NULL, 0, 1, 0, 0, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 1, NULL, 0, 0, NULL), RPQ_OK);
    /* And the same calls with good arguments succeed. */
    ENSURE_EQ_INT(rpq_sweep(cube, &left, cube, &id, x, 1, 0, &s), RPQ_OK);
    ENSURE_EQ_INT(rpq_time_of_impact(cube, &left, &id, cube, &id, 0, 0, &t), RPQ_OK);
    ENSURE_EQ_INT(rpq_removal_directions(parts, poses, 2, 0, x, 1, INFINITY, r), RPQ_OK);
    ENSURE(r[0].free == 0 && r[0].blocker == 1);
}

int main(int argc, char **argv) {
    RpqModel *cube;
    if (argc != 3) {
        fprintf(stderr, "usage: %s mesh.obj answers.txt\n", argv[0]);
        return 2;
    }
    cube = cuboid(-1, -1, -1, 1, 1, 1);
    cube_sweeps(cube);
    cube_batch(cube);
    times_of_impact(cube);
    peg_in_a_hole();
    mesh_batches(argv[1], argv[2]);
    errors(cube);
    rpq_model_free(cube);
    return ENSURE_SUMMARY("sweep");
}
