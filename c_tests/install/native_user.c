/*
 * native_user.c: an outside program of the native C API, built against an installed rapidpqp
 * (tests/install.rs: with `pkg-config --cflags --libs rapidpqp`, with --static, and through
 * the CMake package). Two unit cubes: overlapping, they have contacts; 3 apart along x, none,
 * and their distance is 2. Exit status 0 when every answer is right.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <rapidpqp.h>

static const double CUBE_VERTICES[8 * 3] = {
    0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1,
};
/* Corner k has x = bit 0, y = bit 1, z = bit 2; two triangles per face. */
static const uint32_t CUBE_FACES[12 * 3] = {
    0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
    2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3,
};

static int check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "native_user: FAILED: %s\n", what);
    }
    return ok ? 0 : 1;
}

int main(void) {
    RpqModel *a = NULL, *b = NULL;
    RpqStatus sa = rpq_model_build_indexed(CUBE_VERTICES, 8, CUBE_FACES, 12, NULL, &a);
    RpqStatus sb = rpq_model_build_indexed(CUBE_VERTICES, 8, CUBE_FACES, 12, NULL, &b);
    if (sa != RPQ_OK || sb != RPQ_OK) {
        fprintf(stderr, "native_user: building the models failed: %s\n", rpq_status_message(sa != RPQ_OK ? sa : sb));
        return 1;
    }
    RpqPose at_origin = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}, 1.0};
    RpqPose overlapping = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0.5, 0.25, 0}, 1.0};
    RpqPose apart = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 0, 0}, 1.0};

    int failures = 0;
    RpqCollideResult *result = rpq_collide_result_new();
    failures += check(result != NULL, "rpq_collide_result_new");
    RpqStatus s = rpq_collide(a, &at_origin, b, &overlapping, NULL, result);
    size_t touching = rpq_collide_result_num_pairs(result);
    failures += check(s == RPQ_OK && touching > 0, "overlapping cubes have contacts");
    s = rpq_collide(a, &at_origin, b, &apart, NULL, result);
    failures += check(s == RPQ_OK && rpq_collide_result_num_pairs(result) == 0, "cubes apart have none");

    RpqDistanceResult distance;
    s = rpq_distance(a, &at_origin, b, &apart, NULL, NULL, &distance);
    failures += check(s == RPQ_OK && fabs(distance.distance - 2.0) < 1e-12, "cubes 3 apart are at distance 2");

    printf("native_user: %zu contacts overlapping, distance %.6f apart\n", touching, distance.distance);
    rpq_collide_result_free(result);
    rpq_model_free(a);
    rpq_model_free(b);
    return failures == 0 ? 0 : 1;
}
