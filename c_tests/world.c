/*
 * world.c: the native C API of the n-body engine (rpq_world_*), driven by tests/c_world.rs.
 *
 * - A scene of deforming spheres (rpq_model_build_deformable) and a rigid box moving and
 *   breathing for 40 frames, with activation changes: after every frame the world's contacts
 *   (object pairs and triangle pairs) equal rpq_collide on every tested pair of the caller's
 *   own copies of the models, updated alongside (rpq_model_update_vertices).
 * - Growth alone: two spheres whose boxes are apart come to collide through a vertex update,
 *   with no pose set in between, and part again when it shrinks back.
 * - The model handle is copied: freeing it leaves the object working.
 * - Every error path: NULL, freed, foreign and wrong-kind handles; bad poses (scale, NaN,
 *   not a rotation, out of range); bad ids; updates of rigid objects, wrong counts, NaN,
 *   out-of-range and repeated indices; out-of-range contact index. Nothing changes on error.
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
#include "native_shapes.h"

#define N_RING 6
#define N_SEG 12
#define SPHERE_VERTS (2 + (N_RING - 1) * N_SEG)
#define SPHERE_FACES (2 * N_SEG * (N_RING - 1))

static double unit_sphere[3 * SPHERE_VERTS];
static uint32_t sphere_faces[3 * SPHERE_FACES];

static void make_sphere(void) {
    const double pi = 3.14159265358979323846;
    size_t k = 0;
    uint32_t south = SPHERE_VERTS - 1;
#define RING(i, j) ((uint32_t)(1 + ((i) - 1) * N_SEG + ((j) % N_SEG)))
    unit_sphere[0] = 0, unit_sphere[1] = 0, unit_sphere[2] = 1;
    for (int i = 1; i < N_RING; i++) {
        for (int j = 0; j < N_SEG; j++) {
            double th = pi * i / N_RING, ph = 2 * pi * j / N_SEG;
            uint32_t v = RING(i, j);
            unit_sphere[3 * v] = sin(th) * cos(ph);
            unit_sphere[3 * v + 1] = sin(th) * sin(ph);
            unit_sphere[3 * v + 2] = cos(th);
        }
    }
    unit_sphere[3 * south] = 0, unit_sphere[3 * south + 1] = 0, unit_sphere[3 * south + 2] = -1;
    for (int j = 0; j < N_SEG; j++) {
        uint32_t cap[6] = {0, RING(1, j), RING(1, j + 1), south, RING(N_RING - 1, j + 1), RING(N_RING - 1, j)};
        memcpy(sphere_faces + k, cap, sizeof cap);
        k += 6;
        for (int i = 1; i + 1 < N_RING; i++) {
            uint32_t band[6] = {RING(i, j), RING(i + 1, j), RING(i + 1, j + 1),
                                RING(i, j), RING(i + 1, j + 1), RING(i, j + 1)};
            memcpy(sphere_faces + k, band, sizeof band);
            k += 6;
        }
    }
#undef RING
    ENSURE(k == 3 * SPHERE_FACES);
}

/* The unit sphere scaled by s and bulged along x by b. */
static void sphere_at(double s, double b, double *out) {
    for (int v = 0; v < SPHERE_VERTS; v++) {
        double x = unit_sphere[3 * v];
        double f = s * (1 + b * x * x);
        out[3 * v] = f * x, out[3 * v + 1] = f * unit_sphere[3 * v + 1], out[3 * v + 2] = f * unit_sphere[3 * v + 2];
    }
}

static RpqModel *deformable_sphere(void) {
    RpqModel *m = NULL;
    ENSURE_EQ_INT(rpq_model_build_deformable(unit_sphere, SPHERE_VERTS, sphere_faces, SPHERE_FACES, NULL, &m), RPQ_OK);
    return m;
}

static RpqPose turned(double angle, double x, double y, double z) {
    RpqPose p = pose_at(x, y, z);
    p.rotation[0] = cos(angle), p.rotation[1] = -sin(angle);
    p.rotation[3] = sin(angle), p.rotation[4] = cos(angle);
    return p;
}

#define OBJECTS 5

/* The world's contacts against rpq_collide on every tested pair of the caller's models. */
static void check_frame(RpqWorld *w, RpqModel **models, const RpqPose *poses, const int *active,
                        int disabled[OBJECTS][OBJECTS], RpqCollideResult *r, int *contacts_seen) {
    size_t n = 0, k = 0;
    RpqCollideRequest req;
    memset(&req, 0, sizeof req);
    req.frame = RPQ_FRAME_MODEL2;
    ENSURE_EQ_INT(rpq_world_collide(w, 0, &n), RPQ_OK);
    for (uint32_t a = 0; a < OBJECTS; a++) {
        for (uint32_t b = a + 1; b < OBJECTS; b++) {
            size_t want;
            RpqObjectContact c;
            if (!active[a] || !active[b] || disabled[a][b]) {
                continue;
            }
            ENSURE_EQ_INT(rpq_collide(models[a], &poses[a], models[b], &poses[b], &req, r), RPQ_OK);
            want = rpq_collide_result_num_pairs(r);
            if (want == 0) {
                continue;
            }
            ENSURE(k < n);
            if (k >= n) {
                return;
            }
            ENSURE_EQ_INT(rpq_world_contact(w, k, &c), RPQ_OK);
            ENSURE_EQ_INT(c.id1, a);
            ENSURE_EQ_INT(c.id2, b);
            ENSURE_EQ_INT(c.num_tri_pairs, want);
            if (c.id1 == a && c.id2 == b && c.num_tri_pairs == want) {
                const RpqContactPair *p = rpq_collide_result_pairs(r);
                for (size_t i = 0; i < want; i++) {
                    int found = 0;
                    for (size_t j = 0; j < want && !found; j++) {
                        found = c.tri_pairs[j].id1 == p[i].id1 && c.tri_pairs[j].id2 == p[i].id2;
                    }
                    ENSURE(found);
                }
            }
            k++;
            (*contacts_seen)++;
        }
    }
    ENSURE_EQ_INT(k, n);
    /* First contact: the same object pairs, no triangle pairs. */
    {
        size_t nf = 0;
        RpqObjectContact c;
        ENSURE_EQ_INT(rpq_world_collide(w, 1, &nf), RPQ_OK);
        ENSURE_EQ_INT(nf, n);
        if (nf > 0) {
            ENSURE_EQ_INT(rpq_world_contact(w, 0, &c), RPQ_OK);
            ENSURE(c.num_tri_pairs == 0 && c.tri_pairs == NULL);
        }
    }
}

static void scene(void) {
    RpqWorld *w = NULL;
    RpqModel *models[OBJECTS];
    RpqPose poses[OBJECTS];
    int active[OBJECTS], disabled[OBJECTS][OBJECTS];
    double verts[3 * SPHERE_VERTS];
    RpqCollideResult *r = rpq_collide_result_new();
    int contacts_seen = 0, rebuilt = 0;
    const double lo[3] = {-0.6, -0.6, -0.6}, hi[3] = {0.6, 0.6, 0.6};
    memset(disabled, 0, sizeof disabled);
    ENSURE_EQ_INT(rpq_world_new(&w), RPQ_OK);
    for (uint32_t i = 0; i < OBJECTS; i++) {
        uint32_t id = 99;
        models[i] = i == 2 ? box_model(lo, hi, 0) : deformable_sphere();
        ENSURE_EQ_INT(rpq_world_add_model(w, models[i], &id), RPQ_OK);
        ENSURE_EQ_INT(id, i);
        poses[i] = pose_at(0, 0, 0);
        active[i] = 1;
    }
    for (int frame = 0; frame < 40; frame++) {
        for (uint32_t i = 0; i < OBJECTS; i++) {
            double t = 0.2 * frame + 1.3 * i;
            poses[i] = turned(0.1 * frame * (i + 1), 2.2 * cos(t + i), 1.5 * sin(0.7 * t), 0.3 * sin(t * i));
            ENSURE_EQ_INT(rpq_world_set_pose(w, i, &poses[i]), RPQ_OK);
            if (i != 2) {
                RpqRefitReport rep;
                sphere_at(0.7 + 0.35 * sin(0.5 * t), 0.4 * cos(0.3 * t), verts);
                ENSURE_EQ_INT(rpq_world_update_vertices(w, i, verts, SPHERE_VERTS, &rep), RPQ_OK);
                rebuilt += rep.rebuilt;
                ENSURE_EQ_INT(rpq_model_update_vertices(models[i], verts, SPHERE_VERTS, NULL), RPQ_OK);
            }
        }
        if (frame == 10) {
            ENSURE_EQ_INT(rpq_world_set_active(w, 1, 0), RPQ_OK);
            active[1] = 0;
        }
        if (frame == 20) {
            ENSURE_EQ_INT(rpq_world_set_active(w, 1, 1), RPQ_OK);
            ENSURE_EQ_INT(rpq_world_set_pair_active(w, 3, 0, 0), RPQ_OK);
            active[1] = 1, disabled[0][3] = 1;
        }
        if (frame == 30) {
            ENSURE_EQ_INT(rpq_world_set_pair_active(w, 0, 3, 1), RPQ_OK);
            disabled[0][3] = 0;
        }
        if (frame % 5 == 4) {
            /* A subset update of the same positions as a full one. */
            uint32_t idx[3] = {0, 7, SPHERE_VERTS - 1};
            double pos[9];
            sphere_at(0.9, 0.1, verts);
            for (int k = 0; k < 3; k++) {
                memcpy(pos + 3 * k, verts + 3 * idx[k], 3 * sizeof(double));
            }
            ENSURE_EQ_INT(rpq_world_update_vertex_subset(w, 4, idx, pos, 3, NULL), RPQ_OK);
            ENSURE_EQ_INT(rpq_model_update_vertex_subset(models[4], idx, pos, 3, NULL), RPQ_OK);
        }
        check_frame(w, models, poses, active, disabled, r, &contacts_seen);
    }
    ENSURE(contacts_seen > 20);
    (void)rebuilt;
    for (int i = 0; i < OBJECTS; i++) {
        rpq_model_free(models[i]);
    }
    rpq_world_free(w);
    rpq_collide_result_free(r);
}

static void growth_alone(void) {
    RpqWorld *w = NULL;
    RpqModel *m = deformable_sphere();
    uint32_t a = 9, b = 9;
    size_t n = 7;
    RpqPose far = pose_at(3, 0, 0);
    double big[3 * SPHERE_VERTS];
    RpqObjectContact c;
    ENSURE_EQ_INT(rpq_world_new(&w), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_add_model(w, m, &a), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_add_model(w, m, &b), RPQ_OK);
    /* The world's copies outlive the handle. */
    rpq_model_free(m);
    ENSURE_EQ_INT(rpq_world_set_pose(w, b, &far), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_collide(w, 0, &n), RPQ_OK);
    ENSURE_EQ_INT(n, 0);
    sphere_at(2.2, 0.0, big);
    ENSURE_EQ_INT(rpq_world_update_vertices(w, a, big, SPHERE_VERTS, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_collide(w, 0, &n), RPQ_OK);
    ENSURE_EQ_INT(n, 1);
    ENSURE_EQ_INT(rpq_world_contact(w, 0, &c), RPQ_OK);
    ENSURE(c.id1 == a && c.id2 == b && c.num_tri_pairs > 0 && c.tri_pairs != NULL);
    ENSURE_EQ_INT(rpq_world_update_vertices(w, a, unit_sphere, SPHERE_VERTS, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_collide(w, 1, &n), RPQ_OK);
    ENSURE_EQ_INT(n, 0);
    rpq_world_free(w);
}

static void errors(void) {
    RpqWorld *w = NULL, *dead = NULL;
    RpqModel *sphere = deformable_sphere(), *dead_model = deformable_sphere();
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    RpqModel *box = box_model(lo, hi, 0);
    RpqCollideResult *other_kind = rpq_collide_result_new();
    double foreign_bytes[64], verts[3 * SPHERE_VERTS];
    RpqWorld *bad_worlds[4];
    uint32_t s = 99, bx = 99, id = 1234;
    size_t n = 0, n_before;
    RpqPose ok = pose_at(0.5, 0, 0), scaled = ok, nan_pose = ok, sheared = ok, far = ok;
    RpqObjectContact c, c_keep;
    uint32_t dup[2] = {1, 1}, out_of_range[1] = {SPHERE_VERTS};
    memset(foreign_bytes, 0, sizeof foreign_bytes);
    scaled.scale = 2;
    nan_pose.translation[1] = NAN;
    sheared.rotation[1] = 0.5;
    far.translation[0] = 1e300;
    ENSURE_EQ_INT(rpq_world_new(NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_world_new(&w), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_new(&dead), RPQ_OK);
    rpq_world_free(dead);
    rpq_world_free(dead); /* ignored */
    rpq_world_free(NULL);
    rpq_model_free(dead_model);
    ENSURE_EQ_INT(rpq_world_add_model(w, sphere, &s), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_add_model(w, box, &bx), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_set_pose(w, bx, &ok), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_collide(w, 0, &n_before), RPQ_OK);
    ENSURE(n_before == 1);
    ENSURE_EQ_INT(rpq_world_contact(w, 0, &c_keep), RPQ_OK);

    bad_worlds[0] = NULL, bad_worlds[1] = dead, bad_worlds[2] = (RpqWorld *)(void *)foreign_bytes;
    bad_worlds[3] = (RpqWorld *)(void *)other_kind;
    for (int k = 0; k < 4; k++) {
        int want = k == 0 ? RPQ_ERR_NULL_POINTER : RPQ_ERR_INVALID_HANDLE;
        ENSURE_EQ_INT(rpq_world_add_model(bad_worlds[k], sphere, &id), want);
        ENSURE_EQ_INT(rpq_world_remove(bad_worlds[k], s), want);
        ENSURE_EQ_INT(rpq_world_set_pose(bad_worlds[k], s, &ok), want);
        ENSURE_EQ_INT(rpq_world_update_vertices(bad_worlds[k], s, unit_sphere, SPHERE_VERTS, NULL), want);
        ENSURE_EQ_INT(rpq_world_update_vertex_subset(bad_worlds[k], s, dup, unit_sphere, 1, NULL), want);
        ENSURE_EQ_INT(rpq_world_set_active(bad_worlds[k], s, 0), want);
        ENSURE_EQ_INT(rpq_world_set_pair_active(bad_worlds[k], s, bx, 0), want);
        ENSURE_EQ_INT(rpq_world_collide(bad_worlds[k], 0, &n), want);
        ENSURE_EQ_INT(rpq_world_contact(bad_worlds[k], 0, &c), want);
        rpq_world_free(k == 3 ? NULL : bad_worlds[k]); /* ignored (a live result is not a world) */
    }
    ENSURE(id == 1234);
    /* Bad models and outputs. */
    ENSURE_EQ_INT(rpq_world_add_model(w, NULL, &id), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_world_add_model(w, dead_model, &id), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_world_add_model(w, (RpqModel *)(void *)other_kind, &id), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_world_add_model(w, (RpqModel *)(void *)w, &id), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_world_add_model(w, sphere, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE(id == 1234);
    /* Bad poses and ids. */
    ENSURE_EQ_INT(rpq_world_set_pose(w, s, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_world_set_pose(w, s, &scaled), RPQ_ERR_INVALID_SCALE);
    ENSURE_EQ_INT(rpq_world_set_pose(w, s, &nan_pose), RPQ_ERR_NON_FINITE);
    ENSURE_EQ_INT(rpq_world_set_pose(w, s, &sheared), RPQ_ERR_NOT_ROTATION);
    ENSURE_EQ_INT(rpq_world_set_pose(w, s, &far), RPQ_ERR_OUT_OF_RANGE);
    ENSURE_EQ_INT(rpq_world_set_pose(w, 77, &ok), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_world_set_active(w, 77, 0), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_world_set_pair_active(w, s, 77, 0), RPQ_ERR_INVALID_ARGUMENT);
    /* Bad vertex updates. */
    memcpy(verts, unit_sphere, sizeof verts);
    ENSURE_EQ_INT(rpq_world_update_vertices(w, bx, verts, SPHERE_VERTS, NULL), RPQ_ERR_NOT_DEFORMABLE);
    ENSURE_EQ_INT(rpq_world_update_vertices(w, 77, verts, SPHERE_VERTS, NULL), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_world_update_vertices(w, s, verts, SPHERE_VERTS - 1, NULL), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_world_update_vertices(w, s, NULL, SPHERE_VERTS, NULL), RPQ_ERR_NULL_POINTER);
    verts[5] = NAN;
    ENSURE_EQ_INT(rpq_world_update_vertices(w, s, verts, SPHERE_VERTS, NULL), RPQ_ERR_NON_FINITE);
    verts[5] = 1e280;
    ENSURE_EQ_INT(rpq_world_update_vertices(w, s, verts, SPHERE_VERTS, NULL), RPQ_ERR_OUT_OF_RANGE);
    ENSURE_EQ_INT(rpq_world_update_vertex_subset(w, s, dup, unit_sphere, 2, NULL), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_world_update_vertex_subset(w, s, out_of_range, unit_sphere, 1, NULL), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_world_update_vertex_subset(w, s, NULL, unit_sphere, 1, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_world_update_vertex_subset(w, bx, dup, unit_sphere, 1, NULL), RPQ_ERR_NOT_DEFORMABLE);
    /* Contacts. */
    ENSURE_EQ_INT(rpq_world_collide(w, 0, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_world_contact(w, 1, &c), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_world_contact(w, 0, NULL), RPQ_ERR_NULL_POINTER);
    /* Nothing changed: the same contact, found again. */
    ENSURE_EQ_INT(rpq_world_collide(w, 0, &n), RPQ_OK);
    ENSURE_EQ_INT(n, n_before);
    ENSURE_EQ_INT(rpq_world_contact(w, 0, &c), RPQ_OK);
    ENSURE(c.id1 == c_keep.id1 && c.id2 == c_keep.id2 && c.num_tri_pairs == c_keep.num_tri_pairs);
    /* Removal: twice is an error; the id is never reused. */
    ENSURE_EQ_INT(rpq_world_remove(w, bx), RPQ_OK);
    ENSURE_EQ_INT(rpq_world_remove(w, bx), RPQ_ERR_INVALID_ARGUMENT);
    ENSURE_EQ_INT(rpq_world_add_model(w, box, &id), RPQ_OK);
    ENSURE_EQ_INT(id, 2);
    ENSURE_EQ_INT(rpq_world_collide(w, 0, &n), RPQ_OK);
    ENSURE_EQ_INT(n, 1); /* the new box at the identity pose holds the sphere's centre region */
    rpq_model_free(sphere);
    rpq_model_free(box);
    rpq_world_free(w);
    rpq_collide_result_free(other_kind);
}

int main(void) {
    make_sphere();
    scene();
    growth_alone();
    errors();
    return ENSURE_SUMMARY("world");
}
