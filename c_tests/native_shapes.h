/*
 * native_shapes.h: poses and box models for the native-API test programs (solid.c, sweep.c).
 * Header-only, C99, static functions; include it after ensure.h and rapidpqp.h.
 */
#ifndef RAPIDPQP_NATIVE_SHAPES_H
#define RAPIDPQP_NATIVE_SHAPES_H

#include <stdint.h>
#include <string.h>

/* The identity rotation at (x, y, z), scale 1. */
static RpqPose pose_at(double x, double y, double z) {
    RpqPose p;
    memset(&p, 0, sizeof p);
    p.rotation[0] = p.rotation[4] = p.rotation[8] = 1.0;
    p.translation[0] = x;
    p.translation[1] = y;
    p.translation[2] = z;
    p.scale = 1.0;
    return p;
}

/* The box [lo, hi], 12 triangles counter-clockwise seen from outside (or inward when flip). */
static RpqModel *box_model(const double lo[3], const double hi[3], int flip) {
    static const uint32_t faces[36] = {0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
                                       2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3};
    double v[24];
    uint32_t f[36];
    RpqModel *m = NULL;
    for (int c = 0; c < 8; c++) {
        v[3 * c + 0] = (c & 4) ? hi[0] : lo[0];
        v[3 * c + 1] = (c & 2) ? hi[1] : lo[1];
        v[3 * c + 2] = (c & 1) ? hi[2] : lo[2];
    }
    for (int t = 0; t < 12; t++) {
        f[3 * t] = faces[3 * t];
        f[3 * t + 1] = faces[3 * t + (flip ? 2 : 1)];
        f[3 * t + 2] = faces[3 * t + (flip ? 1 : 2)];
    }
    ENSURE_EQ_INT(rpq_model_build_indexed(v, 8, f, 12, NULL, &m), RPQ_OK);
    return m;
}

#endif
