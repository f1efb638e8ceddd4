/*
 * solid.c: the C API of solid models (rpq_model_solid_facts, rpq_closest_points,
 * rpq_signed_distance, rpq_contains, rpq_ray_cast, rpq_segment_hits, rpq_solid_collide,
 * rpq_separation), driven by tests/c_solid.rs.
 *
 * - Known answers on a cube and a UV sphere built here: facts, signed distances, points on
 *   faces, edges and corners, rays through a vertex and an edge, segment hits, nested and
 *   overlapping cubes, separation depths.
 * - A closed mesh from a file (argv[1], fandisk): batches with threads = 1 and 2 against each
 *   other and against one-point calls; its threads = 1 answers are written to argv[3] for the
 *   test to compare with the Rust core.
 * - Every error path: NULL, freed and foreign handles, NaN, infinity, out of range, an open
 *   mesh (argv[2], bunny: 223 boundary edges), zero directions, bad max_t and max_distance,
 *   broadcast counts, a segment buffer too small. Outputs must be untouched on error.
 *
 * Prints one summary line on success.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "rapidpqp.h"
#include "native_shapes.h"

/* A UV sphere of radius r about the origin: nu meridians, nv bands, outward normals. */
static RpqModel *sphere_model(double r, int nu, int nv) {
    size_t nvert = 2 + (size_t)(nv - 1) * (size_t)nu, nface = 2 * (size_t)nu * (size_t)(nv - 1);
    double *v = malloc(sizeof(double) * 3 * nvert);
    uint32_t *f = malloc(sizeof(uint32_t) * 3 * nface), north = 0, south = (uint32_t)nvert - 1;
    size_t k = 0;
    RpqModel *m = NULL;
    const double pi = 3.14159265358979323846;
#define RING(i, j) ((uint32_t)(1 + ((i) - 1) * nu + ((j) % nu)))
    v[0] = 0, v[1] = 0, v[2] = r;
    for (int i = 1; i < nv; i++) {
        for (int j = 0; j < nu; j++) {
            double th = pi * i / nv, ph = 2 * pi * j / nu;
            uint32_t idx = RING(i, j);
            v[3 * idx] = r * sin(th) * cos(ph);
            v[3 * idx + 1] = r * sin(th) * sin(ph);
            v[3 * idx + 2] = r * cos(th);
        }
    }
    v[3 * south] = 0, v[3 * south + 1] = 0, v[3 * south + 2] = -r;
    for (int j = 0; j < nu; j++) {
        uint32_t cap[6] = {north, RING(1, j), RING(1, j + 1), RING(nv - 1, j + 1), RING(nv - 1, j), south};
        memcpy(f + k, cap, sizeof cap);
        k += 6;
        for (int i = 1; i + 1 < nv; i++) {
            uint32_t band[6] = {RING(i, j + 1), RING(i, j),     RING(i + 1, j),
                                RING(i, j + 1), RING(i + 1, j), RING(i + 1, j + 1)};
            memcpy(f + k, band, sizeof band);
            k += 6;
        }
    }
#undef RING
    ENSURE(k == 3 * nface);
    ENSURE_EQ_INT(rpq_model_build_indexed(v, nvert, f, nface, NULL, &m), RPQ_OK);
    free(v);
    free(f);
    return m;
}

/* A mesh of `v x y z` and `f a b c` lines (1-based indices); its vertices in *out_v. */
static RpqModel *obj_model(const char *path, double **out_v, size_t *out_nv) {
    FILE *file = fopen(path, "r");
    char line[512];
    size_t nv = 0, nf = 0, cap_v = 1024, cap_f = 1024;
    double *v = malloc(sizeof(double) * 3 * cap_v);
    uint32_t *f = malloc(sizeof(uint32_t) * 3 * cap_f);
    RpqModel *m = NULL;
    if (!file) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    while (fgets(line, sizeof line, file)) {
        double x, y, z;
        unsigned a, b, c;
        if (line[0] == 'v' && line[1] == ' ' && sscanf(line + 2, "%lf %lf %lf", &x, &y, &z) == 3) {
            if (nv == cap_v) v = realloc(v, sizeof(double) * 3 * (cap_v *= 2));
            v[3 * nv] = x, v[3 * nv + 1] = y, v[3 * nv + 2] = z;
            nv++;
        } else if (line[0] == 'f' && line[1] == ' ' && sscanf(line + 2, "%u %u %u", &a, &b, &c) == 3) {
            if (nf == cap_f) f = realloc(f, sizeof(uint32_t) * 3 * (cap_f *= 2));
            f[3 * nf] = a - 1, f[3 * nf + 1] = b - 1, f[3 * nf + 2] = c - 1;
            nf++;
        }
    }
    fclose(file);
    ENSURE_EQ_INT(rpq_model_build_indexed(v, nv, f, nf, NULL, &m), RPQ_OK);
    free(f);
    *out_v = v;
    *out_nv = nv;
    return m;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static double uniform(void) {
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static const double LO[3] = {-1, -1, -1}, HI[3] = {1, 1, 1};

/* Two ray hits are the same, field by field (RpqRayHit has padding after `hit`), bitwise. */
static int same_hit(const RpqRayHit *a, const RpqRayHit *b) {
    return a->hit == b->hit && memcmp(&a->t, &b->t, sizeof a->t) == 0 &&
           memcmp(a->point, b->point, sizeof a->point) == 0 && a->id == b->id && a->triangle == b->triangle &&
           memcmp(a->barycentric, b->barycentric, sizeof a->barycentric) == 0;
}

/* Two answers for query point q agree: found and on_surface equal, distances within tol, the
 * same bytes when on the same triangle, and otherwise each point at its distance from q (two
 * equally close triangles). */
static int same_closest(const double q[3], const RpqClosestPoint *a, const RpqClosestPoint *b, double tol) {
    const RpqClosestPoint *both[2] = {a, b};
    if (a->found != b->found || a->on_surface != b->on_surface) return 0;
    if (!a->found) return memcmp(a, b, sizeof *a) == 0;
    if (fabs(a->distance - b->distance) > tol) return 0;
    if (a->triangle == b->triangle) return memcmp(a, b, sizeof *a) == 0;
    for (int k = 0; k < 2; k++) {
        const double *p = both[k]->point;
        double r = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
        if (fabs(r - both[k]->distance) > tol) return 0;
    }
    return 1;
}

static void facts_of_known_shapes(RpqModel *cube, RpqModel *sphere) {
    RpqSolidFacts f;
    ENSURE_EQ_INT(rpq_model_solid_facts(cube, &f), RPQ_OK);
    ENSURE(f.closed == 1 && f.oriented == 1);
    ENSURE(f.boundary_edges == 0 && f.non_manifold_edges == 0 && f.misoriented_edges == 0);
    ENSURE(f.vertices == 8 && f.edges == 18 && f.faces == 12 && f.collapsed_triangles == 0);
    ENSURE(f.components == 1 && f.euler_characteristic == 2);
    ENSURE_NEAR(f.signed_volume, 8.0, 1e-14);
    ENSURE_EQ_INT(rpq_model_solid_facts(sphere, &f), RPQ_OK);
    ENSURE(f.closed == 1 && f.euler_characteristic == 2 && f.faces == 2 * 32 * 15);
    /* Inscribed in the ball: a little less than 4/3 pi. */
    ENSURE(f.signed_volume < 4.18879020478639 && f.signed_volume > 4.0);
}

static void cube_distances(RpqModel *cube) {
    enum { N = 8 };
    const double pts[3 * N] = {0, 0, 0, 2, 0, 0, 2, 2, 0, 2, 2, 2, 0.5, 0, 0, 1, 0, 0, 0.5, 0.25, -0.1, -1, 0.3, 3};
    const double want[N] = {-1, 1, sqrt(2.0), sqrt(3.0), -0.5, 0, -0.5, 2};
    double d[N];
    RpqClosestPoint c[N], u[N];
    ENSURE_EQ_INT(rpq_signed_distance(cube, pts, N, 1, d, c), RPQ_OK);
    for (int i = 0; i < N; i++) {
        ENSURE_NEAR(d[i], want[i], 1e-15);
        ENSURE(c[i].found == 1 && c[i].id >= 0 && c[i].id < 12 && c[i].triangle < 12);
        ENSURE_NEAR(c[i].distance, fabs(want[i]), 1e-15);
        ENSURE_EQ_INT(c[i].on_surface, want[i] == 0);
    }
    ENSURE(d[5] == 0.0 && c[5].distance == 0.0); /* exactly 0 on the surface */
    ENSURE(c[1].point[0] == 1 && c[1].point[1] == 0 && c[1].point[2] == 0);
    ENSURE(c[3].point[0] == 1 && c[3].point[1] == 1 && c[3].point[2] == 1);
    ENSURE(c[7].point[0] == -1 && c[7].point[2] == 1);
    /* Unsigned closest points: the same, with a bound that leaves out the far ones. */
    ENSURE_EQ_INT(rpq_closest_points(cube, pts, N, INFINITY, 1, u), RPQ_OK);
    for (int i = 0; i < N; i++) ENSURE(memcmp(&u[i], &c[i], sizeof u[i]) == 0);
    ENSURE_EQ_INT(rpq_closest_points(cube, pts, N, 1.2, 2, u), RPQ_OK);
    for (int i = 0; i < N; i++) {
        int within = fabs(want[i]) <= 1.2;
        ENSURE_EQ_INT(u[i].found, within);
        if (!within) {
            ENSURE(isinf(u[i].distance) && u[i].distance > 0 && isnan(u[i].point[0]) && isnan(u[i].point[2]));
            ENSURE(u[i].id == -1 && u[i].triangle == UINT32_MAX && u[i].on_surface == 0);
        } else {
            /* (Threads = 2 cuts the batch elsewhere: the centre's six faces tie.) */
            ENSURE(same_closest(pts + 3 * i, &u[i], &c[i], 1e-15));
        }
    }
    /* Without out_closest. */
    ENSURE_EQ_INT(rpq_signed_distance(cube, pts, N, 2, d, NULL), RPQ_OK);
    for (int i = 0; i < N; i++) ENSURE_NEAR(d[i], want[i], 1e-15);
}

static void cube_contains(RpqModel *cube, RpqModel *flipped) {
    enum { N = 10 };
    /* Face centres, a face point, edges, corners: on the surface; then inside and outside. */
    const double pts[3 * N] = {1, 0, 0, 0, 0, -1, 1, 0.3, -0.7, 1, 1, 0, -1, 0.25, -1, 1, 1, 1,
                               -1, -1, -1, 0, 0, 0, 0.99, -0.99, 0.5, 3, 0, 0};
    const uint8_t want[N] = {RPQ_ON_SURFACE, RPQ_ON_SURFACE, RPQ_ON_SURFACE, RPQ_ON_SURFACE, RPQ_ON_SURFACE,
                             RPQ_ON_SURFACE, RPQ_ON_SURFACE, RPQ_INSIDE,     RPQ_INSIDE,     RPQ_OUTSIDE};
    uint8_t where[N];
    int32_t winding[N];
    for (int threads = 1; threads <= 2; threads++) {
        memset(where, 9, sizeof where);
        ENSURE_EQ_INT(rpq_contains(cube, pts, N, threads, where, winding), RPQ_OK);
        for (int i = 0; i < N; i++) {
            ENSURE_EQ_INT(where[i], want[i]);
            ENSURE_EQ_INT(winding[i], want[i] == RPQ_INSIDE ? 1 : 0);
        }
    }
    /* Inward normals: still inside, winding number -1. */
    ENSURE_EQ_INT(rpq_contains(flipped, pts, N, 1, where, NULL), RPQ_OK);
    for (int i = 0; i < N; i++) ENSURE_EQ_INT(where[i], want[i]);
    ENSURE_EQ_INT(rpq_contains(flipped, pts + 21, 1, 1, where, winding), RPQ_OK);
    ENSURE(where[0] == RPQ_INSIDE && winding[0] == -1);
}

static void cube_rays(RpqModel *cube) {
    /* Through the vertex (-1,-1,-1), through the edge x = y = -1 at z = 0.5, through a face,
     * a miss, and from inside. */
    enum { N = 5 };
    const double o[3 * N] = {-3, -3, -3, -3, -3, 0.5, -3, 0.2, 0.1, -3, 5, 0, 0, 0, 0};
    const double d[3 * N] = {1, 1, 1, 2, 2, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0.5};
    const double want_t[N] = {2, 1, 2, INFINITY, 2};
    const double want_p[3 * N] = {-1, -1, -1, -1, -1, 0.5, -1, 0.2, 0.1, 0, 0, 0, 0, 0, 1};
    RpqRayHit h[N], h2[N], any[N], one;
    ENSURE_EQ_INT(rpq_ray_cast(cube, o, N, d, N, INFINITY, 0, 1, h), RPQ_OK);
    for (int i = 0; i < N; i++) {
        ENSURE_EQ_INT(h[i].hit, i != 3);
        if (i == 3) {
            ENSURE(isinf(h[i].t) && h[i].id == -1 && h[i].triangle == UINT32_MAX);
            ENSURE(isnan(h[i].point[0]) && isnan(h[i].barycentric[1]));
            continue;
        }
        ENSURE_NEAR(h[i].t, want_t[i], 1e-14);
        for (int k = 0; k < 3; k++) ENSURE_NEAR(h[i].point[k], want_p[3 * i + k], 1e-14);
        ENSURE_NEAR(h[i].barycentric[0] + h[i].barycentric[1] + h[i].barycentric[2], 1.0, 1e-14);
        ENSURE(h[i].id >= 0 && h[i].id < 12);
    }
    /* Threads and single rays give the same bytes. */
    ENSURE_EQ_INT(rpq_ray_cast(cube, o, N, d, N, INFINITY, 0, 2, h2), RPQ_OK);
    for (int i = 0; i < N; i++) ENSURE(same_hit(&h[i], &h2[i]));
    for (int i = 0; i < N; i++) {
        ENSURE_EQ_INT(rpq_ray_cast(cube, o + 3 * i, 1, d + 3 * i, 1, INFINITY, 0, 1, &one), RPQ_OK);
        ENSURE(same_hit(&one, &h[i]));
    }
    /* max_t: the vertex ray stops short of it (t = 1.5) or reaches it exactly (t = 2). */
    ENSURE_EQ_INT(rpq_ray_cast(cube, o, 1, d, 1, 1.5, 0, 1, &one), RPQ_OK);
    ENSURE(one.hit == 0);
    ENSURE_EQ_INT(rpq_ray_cast(cube, o, 1, d, 1, 2.0, 0, 1, &one), RPQ_OK);
    ENSURE(one.hit == 1);
    /* Any hit: only whether. */
    ENSURE_EQ_INT(rpq_ray_cast(cube, o, N, d, N, INFINITY, 1, 2, any), RPQ_OK);
    for (int i = 0; i < N; i++) {
        ENSURE_EQ_INT(any[i].hit, h[i].hit);
        ENSURE(any[i].hit ? isnan(any[i].t) : isinf(any[i].t));
        ENSURE(isnan(any[i].point[0]) && any[i].id == -1);
    }
    /* Broadcast: one origin, many directions (and the reverse). */
    {
        const double origin[3] = {0, 0, 0};
        const double dirs[9] = {1, 0, 0, 0, -2, 0, 0.5, 0.5, 0.5};
        RpqRayHit b[3];
        ENSURE_EQ_INT(rpq_ray_cast(cube, origin, 1, dirs, 3, INFINITY, 0, 2, b), RPQ_OK);
        ENSURE(b[0].hit && b[1].hit && b[2].hit);
        ENSURE_NEAR(b[0].t, 1.0, 1e-15);
        ENSURE_NEAR(b[1].t, 0.5, 1e-15);
        ENSURE_NEAR(b[2].t, 2.0, 1e-15);
        ENSURE_EQ_INT(rpq_ray_cast(cube, o, 3, d + 6, 1, INFINITY, 0, 1, b), RPQ_OK);
        ENSURE(b[0].hit == 0 && b[1].hit == 0 && b[2].hit == 1); /* along +x from the three origins */
    }
}

static void cube_segments(RpqModel *cube) {
    const double a[3] = {-3, 0.1, 0.2}, b[3] = {3, 0.1, 0.2};
    RpqRayHit hits[4], keep;
    size_t count = 99;
    ENSURE_EQ_INT(rpq_segment_hits(cube, a, b, hits, 4, &count), RPQ_OK);
    ENSURE_EQ_INT(count, 2);
    ENSURE_NEAR(hits[0].t, 2.0 / 6.0, 1e-15);
    ENSURE_NEAR(hits[1].t, 4.0 / 6.0, 1e-15);
    ENSURE_NEAR(hits[0].point[0], -1.0, 1e-15);
    ENSURE_NEAR(hits[1].point[0], 1.0, 1e-15);
    /* Too small a buffer: the first hits, and the full count. */
    memset(hits, 0x5a, sizeof hits);
    keep = hits[1];
    ENSURE_EQ_INT(rpq_segment_hits(cube, a, b, hits, 1, &count), RPQ_OK);
    ENSURE_EQ_INT(count, 2);
    ENSURE_NEAR(hits[0].t, 2.0 / 6.0, 1e-15);
    ENSURE(memcmp(&hits[1], &keep, sizeof keep) == 0);
    count = 99;
    ENSURE_EQ_INT(rpq_segment_hits(cube, a, b, NULL, 0, &count), RPQ_OK);
    ENSURE_EQ_INT(count, 2);
    /* Through two opposite corners: every triangle at either corner, sorted by t. */
    {
        const double c0[3] = {-2, -2, -2}, c1[3] = {2, 2, 2};
        RpqRayHit all[12];
        ENSURE_EQ_INT(rpq_segment_hits(cube, c0, c1, all, 12, &count), RPQ_OK);
        ENSURE_EQ_INT(count, 12); /* six triangles meet at each corner */
        for (size_t k = 0; k < count; k++) {
            ENSURE(all[k].hit == 1 && (fabs(all[k].t - 0.25) < 1e-15 || fabs(all[k].t - 0.75) < 1e-15));
            if (k > 0) ENSURE(all[k - 1].t <= all[k].t);
        }
    }
    /* A point on the surface: a == b. */
    {
        const double p[3] = {1, 0.5, 0.5};
        ENSURE_EQ_INT(rpq_segment_hits(cube, p, p, hits, 4, &count), RPQ_OK);
        ENSURE(count >= 1 && hits[0].t == 0.0);
    }
}

static void cube_pairs(RpqModel *cube) {
    const double slo[3] = {-0.5, -0.5, -0.5}, shi[3] = {0.5, 0.5, 0.5};
    RpqModel *small = box_model(slo, shi, 0);
    RpqPose id = pose_at(0, 0, 0), far = pose_at(5, 0, 0), over = pose_at(1.5, 0, 0), gap = pose_at(3, 0, 0);
    RpqSolidCollideResult r;
    RpqSeparation s;
    ENSURE_EQ_INT(rpq_solid_collide(small, &id, cube, &id, &r), RPQ_OK);
    ENSURE(r.relation == RPQ_SOLID_FIRST_INSIDE_SECOND && r.intersecting == 1 && r.id1 == -1 && r.id2 == -1);
    ENSURE_EQ_INT(rpq_solid_collide(cube, &id, small, &id, &r), RPQ_OK);
    ENSURE(r.relation == RPQ_SOLID_SECOND_INSIDE_FIRST && r.intersecting == 1);
    ENSURE_EQ_INT(rpq_solid_collide(cube, &id, small, &far, &r), RPQ_OK);
    ENSURE(r.relation == RPQ_SOLID_APART && r.intersecting == 0 && r.id1 == -1 && r.bv_tests > 0);
    ENSURE_EQ_INT(rpq_solid_collide(cube, &id, cube, &over, &r), RPQ_OK);
    ENSURE(r.relation == RPQ_SOLID_SURFACES_CROSS && r.intersecting == 1);
    ENSURE(r.id1 >= 0 && r.id1 < 12 && r.id2 >= 0 && r.id2 < 12 && r.tri_tests > 0);

    /* Overlapping boxes, model 2 at x + 1.5: depth 0.5 along +x (the least), 3.5 along -x. */
    ENSURE_EQ_INT(rpq_separation(cube, &id, cube, &over, NULL, &s), RPQ_OK);
    ENSURE(s.bound == RPQ_SEPARATION_DEPTH_UPPER_BOUND && s.relation == RPQ_SOLID_SURFACES_CROSS);
    ENSURE_NEAR(s.signed_distance, -0.5, 1e-9);
    ENSURE_NEAR(s.translation[0], 0.5, 1e-9);
    ENSURE_NEAR(s.translation[1], 0.0, 1e-9);
    ENSURE(isnan(s.p1[0]) && isnan(s.p2[2]) && s.directions > 0);
    {
        const double plus[3] = {2, 0, 0}, minus[3] = {-1, 0, 0};
        ENSURE_EQ_INT(rpq_separation(cube, &id, cube, &over, plus, &s), RPQ_OK);
        ENSURE(s.bound == RPQ_SEPARATION_DEPTH_ALONG_DIRECTION && s.directions == 1);
        ENSURE_NEAR(s.signed_distance, -0.5, 1e-12);
        ENSURE(s.signed_distance <= -0.5);
        ENSURE_NEAR(s.translation[0], 0.5, 1e-12);
        ENSURE_EQ_INT(rpq_separation(cube, &id, cube, &over, minus, &s), RPQ_OK);
        ENSURE_NEAR(s.signed_distance, -3.5, 1e-12);
        ENSURE_NEAR(s.translation[0], -3.5, 1e-12);
    }
    /* Nested: depth along +x takes the small cube out past the big one's face (1.5). */
    {
        const double plus[3] = {1, 0, 0};
        ENSURE_EQ_INT(rpq_separation(cube, &id, small, &id, plus, &s), RPQ_OK);
        ENSURE(s.relation == RPQ_SOLID_SECOND_INSIDE_FIRST);
        ENSURE_NEAR(s.signed_distance, -1.5, 1e-12);
    }
    /* Apart by 1: the distance and closest points, each in its own model's frame. */
    ENSURE_EQ_INT(rpq_separation(cube, &id, cube, &gap, NULL, &s), RPQ_OK);
    ENSURE(s.bound == RPQ_SEPARATION_DISTANCE && s.relation == RPQ_SOLID_APART && s.directions == 0);
    ENSURE_NEAR(s.signed_distance, 1.0, 1e-14);
    ENSURE_NEAR(s.p1[0], 1.0, 1e-14);
    ENSURE_NEAR(s.p2[0], -1.0, 1e-14);
    ENSURE(s.translation[0] == 0 && s.translation[1] == 0 && s.translation[2] == 0);
    rpq_model_free(small);
}

static void sphere_queries(RpqModel *sphere) {
    const double pts[9] = {0, 0, 0, 3, 0, 0, 0, 0.2, -0.3};
    double d[3];
    uint8_t where[3];
    RpqRayHit h;
    const double o[3] = {-3, 0.01, 0.02}, dir[3] = {1, 0, 0};
    ENSURE_EQ_INT(rpq_signed_distance(sphere, pts, 3, 2, d, NULL), RPQ_OK);
    ENSURE(d[0] < -0.95 && d[0] > -1.0);
    ENSURE(d[1] > 1.99 && d[1] < 2.0 + 1e-12);
    ENSURE(d[2] < 0);
    ENSURE_EQ_INT(rpq_contains(sphere, pts, 3, 1, where, NULL), RPQ_OK);
    ENSURE(where[0] == RPQ_INSIDE && where[1] == RPQ_OUTSIDE && where[2] == RPQ_INSIDE);
    ENSURE_EQ_INT(rpq_ray_cast(sphere, o, 1, dir, 1, INFINITY, 0, 1, &h), RPQ_OK);
    ENSURE(h.hit == 1 && h.t > 2.0 && h.t < 2.02);
}

/* Batches on a real closed mesh: threads = 1 and 2 and one-point calls agree. */
static void mesh_batches(RpqModel *m, const double *verts, size_t nverts, const char *dump_path) {
    enum { N = 3000, NR = 600, NV = 60 };
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, diag = 0;
    double *pts = malloc(sizeof(double) * 3 * N), *o = malloc(sizeof(double) * 3 * NR);
    double *dir = malloc(sizeof(double) * 3 * NR), *d1 = malloc(sizeof(double) * N);
    double *d2 = malloc(sizeof(double) * N), maxd;
    RpqClosestPoint *c1 = malloc(sizeof *c1 * N), *c2 = malloc(sizeof *c2 * N), one;
    RpqClosestPoint *b1 = malloc(sizeof *b1 * N), *b2 = malloc(sizeof *b2 * N);
    uint8_t *w1 = malloc(N), *w2 = malloc(N), w;
    int32_t *k1 = malloc(sizeof(int32_t) * N), *k2 = malloc(sizeof(int32_t) * N), k;
    RpqRayHit *h1 = malloc(sizeof *h1 * NR), *h2 = malloc(sizeof *h2 * NR), *a2 = malloc(sizeof *a2 * NR), h;
    int inside = 0, outside = 0, on = 0, hits = 0;
    FILE *dump;

    for (size_t i = 0; i < nverts; i++)
        for (int c = 0; c < 3; c++) {
            lo[c] = fmin(lo[c], verts[3 * i + c]);
            hi[c] = fmax(hi[c], verts[3 * i + c]);
        }
    for (int c = 0; c < 3; c++) diag += (hi[c] - lo[c]) * (hi[c] - lo[c]);
    diag = sqrt(diag);
    maxd = 0.02 * diag;
    /* Points in the box grown by 10 %, the first NV of them on mesh vertices. */
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 3; c++) {
            double span = hi[c] - lo[c];
            pts[3 * i + c] = i < NV ? verts[3 * (size_t)(i * 97 % (int)nverts) + c]
                                    : lo[c] - 0.1 * span + 1.2 * span * uniform();
        }
    for (int i = 0; i < NR; i++)
        for (int c = 0; c < 3; c++) {
            o[3 * i + c] = lo[c] - 0.5 * (hi[c] - lo[c]) + 2.0 * (hi[c] - lo[c]) * uniform();
            dir[3 * i + c] = 0.5 * (lo[c] + hi[c]) + 0.3 * (hi[c] - lo[c]) * (uniform() - 0.5) - o[3 * i + c];
        }

    ENSURE_EQ_INT(rpq_signed_distance(m, pts, N, 1, d1, c1), RPQ_OK);
    ENSURE_EQ_INT(rpq_signed_distance(m, pts, N, 2, d2, c2), RPQ_OK);
    ENSURE_EQ_INT(rpq_contains(m, pts, N, 1, w1, k1), RPQ_OK);
    ENSURE_EQ_INT(rpq_contains(m, pts, N, 2, w2, k2), RPQ_OK);
    ENSURE_EQ_INT(rpq_closest_points(m, pts, N, maxd, 1, b1), RPQ_OK);
    ENSURE_EQ_INT(rpq_closest_points(m, pts, N, maxd, 2, b2), RPQ_OK);
    ENSURE_EQ_INT(rpq_ray_cast(m, o, NR, dir, NR, INFINITY, 0, 1, h1), RPQ_OK);
    ENSURE_EQ_INT(rpq_ray_cast(m, o, NR, dir, NR, INFINITY, 0, 2, h2), RPQ_OK);
    ENSURE_EQ_INT(rpq_ray_cast(m, o, NR, dir, NR, INFINITY, 1, 2, a2), RPQ_OK);
    for (int i = 0; i < NR; i++) ENSURE(same_hit(&h1[i], &h2[i]));
    ENSURE(memcmp(w1, w2, N) == 0 && memcmp(k1, k2, sizeof(int32_t) * N) == 0);

    /* Closest points: equal but for ties between equally close triangles, and the distance
     * to rounding (the batch searches from its predecessor's triangle). */
#define CLOSE_ENOUGH(x, y) (fabs((x) - (y)) <= 1e-13 * diag)
    for (int i = 0; i < N; i++) {
        ENSURE(same_closest(pts + 3 * i, &c1[i], &c2[i], 1e-13 * diag));
        ENSURE(CLOSE_ENOUGH(d1[i], d2[i]) && (d1[i] < 0) == (d2[i] < 0) && (d1[i] == 0) == (d2[i] == 0));
        /* The sign agrees with contains. */
        ENSURE((w1[i] == RPQ_INSIDE) == (d1[i] < 0) && (w1[i] == RPQ_ON_SURFACE) == (d1[i] == 0));
        ENSURE(c1[i].found == 1 && CLOSE_ENOUGH(c1[i].distance, fabs(d1[i])));
        if (b1[i].found != b2[i].found) {
            /* Only at the bound, to rounding. */
            ENSURE(CLOSE_ENOUGH(c1[i].distance, maxd));
        } else {
            ENSURE(same_closest(pts + 3 * i, &b1[i], &b2[i], 1e-13 * diag));
        }
        if (!CLOSE_ENOUGH(c1[i].distance, maxd)) ENSURE_EQ_INT(b1[i].found, c1[i].distance <= maxd);
        inside += w1[i] == RPQ_INSIDE;
        outside += w1[i] == RPQ_OUTSIDE;
        on += w1[i] == RPQ_ON_SURFACE;
    }
    /* One-point calls. */
    for (int i = 0; i < N; i++) {
        double d;
        ENSURE_EQ_INT(rpq_signed_distance(m, pts + 3 * i, 1, 1, &d, &one), RPQ_OK);
        ENSURE(CLOSE_ENOUGH(d, d1[i]) && (d < 0) == (d1[i] < 0) && (d == 0) == (d1[i] == 0));
        ENSURE(same_closest(pts + 3 * i, &one, &c1[i], 1e-13 * diag));
        ENSURE_EQ_INT(rpq_contains(m, pts + 3 * i, 1, 1, &w, &k), RPQ_OK);
        ENSURE(w == w1[i] && k == k1[i]);
    }
    for (int i = 0; i < NR; i++) {
        ENSURE_EQ_INT(rpq_ray_cast(m, o + 3 * i, 1, dir + 3 * i, 1, INFINITY, 0, 1, &h), RPQ_OK);
        ENSURE(same_hit(&h, &h1[i]));
        ENSURE_EQ_INT(a2[i].hit, h1[i].hit);
        hits += h1[i].hit;
    }
#undef CLOSE_ENOUGH
    ENSURE(on >= NV && inside > 100 && outside > 100 && hits > NR / 2);

    /* The threads = 1 answers, for the test to compare with the Rust core. */
    dump = fopen(dump_path, "w");
    ENSURE(dump != NULL);
    if (dump) {
        fprintf(dump, "M %.17g\n", maxd);
        for (int i = 0; i < N; i++)
            fprintf(dump, "P %.17g %.17g %.17g %.17g %d %d %u %.17g %d %u\n", pts[3 * i], pts[3 * i + 1],
                    pts[3 * i + 2], d1[i], w1[i], (int)k1[i], (unsigned)c1[i].triangle, c1[i].distance,
                    b1[i].found, (unsigned)b1[i].triangle);
        for (int i = 0; i < NR; i++)
            fprintf(dump, "R %.17g %.17g %.17g %.17g %.17g %.17g %d %.17g %d %d\n", o[3 * i], o[3 * i + 1],
                    o[3 * i + 2], dir[3 * i], dir[3 * i + 1], dir[3 * i + 2], h1[i].hit, h1[i].t, h1[i].id,
                    a2[i].hit);
        fclose(dump);
    }
    free(pts), free(o), free(dir), free(d1), free(d2), free(c1), free(c2), free(b1), free(b2);
    free(w1), free(w2), free(k1), free(k2), free(h1), free(h2), free(a2);
}

/* Every error path; nothing written on error. */
static void errors(RpqModel *cube, RpqModel *bunny) {
    const double good[9] = {0, 0, 0, 0.5, 0.5, 0.5, 0.2, 0, 0}, zero[3] = {0, 0, 0}, x[3] = {1, 0, 0};
    double nan_pt[6] = {0, 0, 0, 0.5, NAN, 0.5}, inf_pt[6] = {0, 0, 0, INFINITY, 0, 0};
    double far_pt[6] = {0, 0, 0, 1e302, 0, 0}, nan_dir[3] = {1, NAN, 0};
    double d[2] = {7, 7};
    uint8_t where[2] = {7, 7};
    int32_t winding[2] = {7, 7};
    RpqClosestPoint cp[2], cp_keep[2];
    RpqRayHit rh[3], rh_keep[3];
    RpqSolidFacts facts, facts_keep;
    RpqSolidCollideResult sc, sc_keep;
    RpqSeparation sep, sep_keep;
    size_t count = 77;
    RpqPose id = pose_at(0, 0, 0), bad = pose_at(0, NAN, 0), unscaled = pose_at(0, 0, 0);
    RpqModel *dead = box_model(LO, HI, 0);
    double foreign_bytes[64];
    RpqModel *foreign = (RpqModel *)(void *)foreign_bytes;
    RpqModel *bad_models[3];
    unscaled.scale = 0;
    memset(foreign_bytes, 0, sizeof foreign_bytes);
    rpq_model_free(dead);
    bad_models[0] = NULL, bad_models[1] = dead, bad_models[2] = foreign;
    memset(cp, 0x5a, sizeof cp), memcpy(cp_keep, cp, sizeof cp);
    memset(rh, 0x5a, sizeof rh), memcpy(rh_keep, rh, sizeof rh);
    memset(&facts, 0x5a, sizeof facts), facts_keep = facts;
    memset(&sc, 0x5a, sizeof sc), sc_keep = sc;
    memset(&sep, 0x5a, sizeof sep), sep_keep = sep;

    /* NULL, freed and foreign handles, for every function. */
    for (int b = 0; b < 3; b++) {
        RpqModel *m = bad_models[b];
        int want = b == 0 ? RPQ_ERR_NULL_POINTER : RPQ_ERR_INVALID_HANDLE;
        ENSURE_EQ_INT(rpq_model_solid_facts(m, &facts), want);
        ENSURE_EQ_INT(rpq_closest_points(m, good, 2, INFINITY, 1, cp), want);
        ENSURE_EQ_INT(rpq_signed_distance(m, good, 2, 1, d, cp), want);
        ENSURE_EQ_INT(rpq_contains(m, good, 2, 1, where, winding), want);
        ENSURE_EQ_INT(rpq_ray_cast(m, good, 1, x, 1, INFINITY, 0, 1, rh), want);
        ENSURE_EQ_INT(rpq_segment_hits(m, good, good + 3, rh, 3, &count), want);
        ENSURE_EQ_INT(rpq_solid_collide(m, &id, cube, &id, &sc), want);
        ENSURE_EQ_INT(rpq_solid_collide(cube, &id, m, &id, &sc), want);
        ENSURE_EQ_INT(rpq_separation(m, &id, cube, &id, NULL, &sep), want);
        ENSURE_EQ_INT(rpq_separation(cube, &id, m, &id, x, &sep), want);
    }
    /* NULL outputs and inputs. */
    ENSURE_EQ_INT(rpq_model_solid_facts(cube, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_closest_points(cube, NULL, 2, INFINITY, 1, cp), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_closest_points(cube, good, 2, INFINITY, 1, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_signed_distance(cube, good, 2, 1, NULL, cp), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_signed_distance(cube, NULL, 2, 1, d, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_contains(cube, good, 2, 1, NULL, winding), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_ray_cast(cube, NULL, 1, x, 1, INFINITY, 0, 1, rh), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_ray_cast(cube, good, 1, NULL, 1, INFINITY, 0, 1, rh), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_ray_cast(cube, good, 1, x, 1, INFINITY, 0, 1, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_segment_hits(cube, NULL, good, rh, 3, &count), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_segment_hits(cube, good, NULL, rh, 3, &count), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_segment_hits(cube, good, good + 3, NULL, 3, &count), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_segment_hits(cube, good, good + 3, rh, 3, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_solid_collide(cube, NULL, cube, &id, &sc), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_solid_collide(cube, &id, cube, &id, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_separation(cube, &id, cube, NULL, NULL, &sep), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_separation(cube, &id, cube, &id, NULL, NULL), RPQ_ERR_NULL_POINTER);
    /* n = 0: fine, with NULL pointers. */
    ENSURE_EQ_INT(rpq_closest_points(cube, NULL, 0, INFINITY, 0, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_signed_distance(cube, NULL, 0, 0, NULL, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_contains(cube, NULL, 0, 0, NULL, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_ray_cast(cube, NULL, 0, NULL, 0, INFINITY, 0, 0, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_ray_cast(cube, good, 1, NULL, 0, INFINITY, 1, 0, NULL), RPQ_OK);

    /* NaN, infinity and out of range, in points, rays, segments and directions. */
    ENSURE_EQ_INT(rpq_closest_points(cube, nan_pt, 2, INFINITY, 2, cp), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_closest_points(cube, inf_pt, 2, INFINITY, 2, cp), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_closest_points(cube, far_pt, 2, INFINITY, 2, cp), RPQ_ERR_OUT_OF_RANGE);
    ENSURE_EQ_INT(rpq_signed_distance(cube, nan_pt, 2, 2, d, cp), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_signed_distance(cube, far_pt, 2, 1, d, NULL), RPQ_ERR_OUT_OF_RANGE);
    ENSURE_EQ_INT(rpq_contains(cube, inf_pt, 2, 2, where, winding), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_contains(cube, far_pt, 2, 2, where, winding), RPQ_ERR_OUT_OF_RANGE);
    ENSURE_EQ_INT(rpq_ray_cast(cube, nan_pt, 2, x, 1, INFINITY, 0, 2, rh), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_ray_cast(cube, good, 1, nan_dir, 1, INFINITY, 1, 1, rh), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_ray_cast(cube, far_pt, 2, x, 1, INFINITY, 0, 2, rh), RPQ_ERR_OUT_OF_RANGE);
    ENSURE_EQ_INT(rpq_segment_hits(cube, good, nan_pt + 3, rh, 3, &count), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_segment_hits(cube, far_pt + 3, good, rh, 3, &count), RPQ_ERR_OUT_OF_RANGE);
    ENSURE_EQ_INT(rpq_separation(cube, &id, cube, &id, nan_dir, &sep), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_solid_collide(cube, &bad, cube, &id, &sc), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_separation(cube, &id, cube, &unscaled, NULL, &sep), RPQ_ERR_INVALID_SCALE);

    /* Bad numbers: max_distance, max_t, zero directions, broadcast counts. */
    ENSURE_EQ_INT(rpq_closest_points(cube, good, 2, NAN, 1, cp), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_closest_points(cube, good, 2, -1.0, 1, cp), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_closest_points(cube, NULL, 0, -1.0, 1, NULL), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_ray_cast(cube, good, 2, x, 1, NAN, 0, 1, rh), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_ray_cast(cube, good, 2, x, 1, -1.0, 1, 1, rh), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_ray_cast(cube, good, 2, zero, 1, INFINITY, 0, 2, rh), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_ray_cast(cube, good, 2, zero, 1, INFINITY, 1, 2, rh), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_ray_cast(cube, good, 2, good, 3, INFINITY, 0, 1, rh), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_separation(cube, &id, cube, &id, zero, &sep), RPQ_ERR_INVALID_ARGUMENT);

    /* An open mesh: refused by the solid functions, served by the others. */
    ENSURE_EQ_INT(rpq_model_solid_facts(bunny, &facts), RPQ_OK);
    ENSURE(facts.closed == 0 && facts.boundary_edges == 223);
    facts = facts_keep;
    ENSURE_EQ_INT(rpq_signed_distance(bunny, good, 2, 1, d, cp), RPQ_ERR_NOT_CLOSED);
    ENSURE_EQ_INT(rpq_contains(bunny, good, 2, 2, where, winding), RPQ_ERR_NOT_CLOSED);
    ENSURE_EQ_INT(rpq_solid_collide(bunny, &id, cube, &id, &sc), RPQ_ERR_NOT_CLOSED);
    ENSURE_EQ_INT(rpq_solid_collide(cube, &id, bunny, &id, &sc), RPQ_ERR_NOT_CLOSED);
    ENSURE_EQ_INT(rpq_separation(cube, &id, bunny, &id, NULL, &sep), RPQ_ERR_NOT_CLOSED);
    ENSURE_EQ_INT(rpq_separation(bunny, &id, cube, &id, x, &sep), RPQ_ERR_NOT_CLOSED);
    ENSURE(strstr(rpq_status_message(RPQ_ERR_NOT_CLOSED), "not closed") != NULL);
    ENSURE(strstr(rpq_status_message(RPQ_ERR_NOT_CLOSED), "rpq_model_solid_facts") != NULL);

    /* Nothing was written by any failed call. */
    ENSURE(d[0] == 7 && d[1] == 7 && where[0] == 7 && where[1] == 7 && winding[0] == 7 && winding[1] == 7);
    ENSURE(count == 77);
    ENSURE(memcmp(cp, cp_keep, sizeof cp) == 0 && memcmp(rh, rh_keep, sizeof rh) == 0);
    ENSURE(memcmp(&facts, &facts_keep, sizeof facts) == 0 && memcmp(&sc, &sc_keep, sizeof sc) == 0);
    ENSURE(memcmp(&sep, &sep_keep, sizeof sep) == 0);

    /* The open mesh still has closest points, rays and segments. */
    {
        const double o[3] = {-1, 0.1, 0}, dx[3] = {1, 0, 0}, p[3] = {0, 0.1, 0}, e[3] = {1, 0.1, 0};
        ENSURE_EQ_INT(rpq_closest_points(bunny, p, 1, INFINITY, 1, cp), RPQ_OK);
        ENSURE(cp[0].found == 1 && cp[0].distance < 0.1);
        ENSURE_EQ_INT(rpq_ray_cast(bunny, o, 1, dx, 1, INFINITY, 0, 1, rh), RPQ_OK);
        ENSURE(rh[0].hit == 1);
        ENSURE_EQ_INT(rpq_segment_hits(bunny, o, e, NULL, 0, &count), RPQ_OK);
        ENSURE(count >= 2);
    }
}

int main(int argc, char **argv) {
    RpqModel *cube, *flipped, *sphere, *mesh, *bunny;
    double *verts, *bunny_verts;
    size_t nverts, bunny_nverts;
    if (argc != 4) {
        fprintf(stderr, "usage: %s closed.obj open.obj answers.txt\n", argv[0]);
        return 2;
    }
    cube = box_model(LO, HI, 0);
    flipped = box_model(LO, HI, 1);
    sphere = sphere_model(1.0, 32, 16);
    mesh = obj_model(argv[1], &verts, &nverts);
    bunny = obj_model(argv[2], &bunny_verts, &bunny_nverts);

    facts_of_known_shapes(cube, sphere);
    cube_distances(cube);
    cube_contains(cube, flipped);
    cube_rays(cube);
    cube_segments(cube);
    cube_pairs(cube);
    sphere_queries(sphere);
    {
        RpqSolidFacts f;
        ENSURE_EQ_INT(rpq_model_solid_facts(mesh, &f), RPQ_OK);
        ENSURE(f.closed == 1 && f.signed_volume > 0);
    }
    mesh_batches(mesh, verts, nverts, argv[3]);
    errors(cube, bunny);

    rpq_model_free(cube);
    rpq_model_free(flipped);
    rpq_model_free(sphere);
    rpq_model_free(mesh);
    rpq_model_free(bunny);
    free(verts);
    free(bunny_verts);
    return ENSURE_SUMMARY("solid");
}
