/*
 * bench_common.h: what the benchmark's two C programs share (legacy_bench.c, linked once with
 * rapidpqp and once with the originals' library, and native_bench.c, linked with rapidpqp
 * only): the geometry of the generated paths, a seeded generator, model building through the
 * legacy RAPID and PQP entry points, and the resident-memory probe.
 *
 * Header-only, C99, static functions; include it after rapidpqp.h and c_tests/fixture.h, in
 * one translation unit. It calls only the legacy entry points (RAPID_*, PQP_*), which both
 * libraries have.
 */
#ifndef RAPIDPQP_BENCH_COMMON_H
#define RAPIDPQP_BENCH_COMMON_H

#include <math.h>
#include <stdint.h>

/* Distances agree within this fraction of the model size (FORMAT.md). */
#define REL_EPS 1e-12
/* PQP_Distance and PQP_Tolerance as ORIGINALS.md ran them. */
#define QSIZE 2

static const double PI = 3.14159265358979323846;

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

/* out = A B (out may not alias A or B). */
static void matmul3(double out[3][3], const double A[3][3], const double B[3][3]) {
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) out[i][j] = A[i][0] * B[0][j] + A[i][1] * B[1][j] + A[i][2] * B[2][j];
}

/* ------------------------------------------------------------------------------------------ */
/* A deterministic generator (splitmix64): the generated scenes are the same on every run and */
/* in both programs                                                                            */

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

/* A rotation uniformly distributed over all rotations (Shoemake's unit quaternion). */
static void random_rotation(uint64_t *state, double R[3][3]) {
    double u1 = uniform(state), u2 = 2 * PI * uniform(state), u3 = 2 * PI * uniform(state);
    double a = sqrt(1 - u1), b = sqrt(u1);
    double w = a * sin(u2), x = a * cos(u2), y = b * sin(u3), z = b * cos(u3);
    R[0][0] = 1 - 2 * (y * y + z * z), R[0][1] = 2 * (x * y - w * z), R[0][2] = 2 * (x * z + w * y);
    R[1][0] = 2 * (x * y + w * z), R[1][1] = 1 - 2 * (x * x + z * z), R[1][2] = 2 * (y * z - w * x);
    R[2][0] = 2 * (x * z - w * y), R[2][1] = 2 * (y * z + w * x), R[2][2] = 1 - 2 * (x * x + y * y);
}

/* ------------------------------------------------------------------------------------------ */
/* Building models through the legacy entry points (triangle k gets id k)                      */

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

/* ------------------------------------------------------------------------------------------ */
/* Memory: one model build in this process                                                     */

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

/* One way of building a model: makes the API's input from the mesh (NULL: the mesh itself),
 * builds the model from it (NULL on failure), says what the library reports the model holds
 * (bytes, -1 when it has no such call), frees the input and the model. */
typedef struct {
    const char *api;
    void *(*prepare)(const Mesh *mesh);
    void *(*build)(const Mesh *mesh, void *input);
    long long (*reported)(void *model);
    void (*free_input)(void *input);
    void (*free)(void *model);
} MemoryApi;

/* Prints one `memory` line: the process's resident memory (VmRSS, and VmHWM after resetting
 * it) before and after building one model of the mesh, read into plain arrays (and the API's
 * input made from them) first. A
 * one-triangle model is built and freed through the same API first: the library's first use
 * (its code paged in, its handle table set up) is not the model's size. Run it in a fresh
 * process for each measurement. */
static int measure_memory(const MemoryApi *api, const char *mesh_path) {
    char name[256];
    Mesh mesh = {0, NULL}, one;
    long long rss0, peak0, rss1, peak1; /* bytes */
    int peak_ok;
    void *model, *input;
    if (read_obj(mesh_path, &mesh)) return 2;
    one.n = 1, one.tri = mesh.tri;
    input = api->prepare ? api->prepare(&one) : NULL;
    api->free(api->build(&one, input));
    if (api->free_input) api->free_input(input);
    input = api->prepare ? api->prepare(&mesh) : NULL;
    peak_ok = reset_peak() == 0;
    resident(&rss0, &peak0);
    model = api->build(&mesh, input);
    resident(&rss1, &peak1);
    if (!model) return 2;
    printf("memory api=%s mesh=%s triangles=%d rss_before=%lld rss_after=%lld peak_before=%lld peak_after=%lld "
           "reported=%lld\n", api->api, base_name(mesh_path, name, sizeof name), mesh.n, rss0, rss1,
           peak_ok ? peak0 : -1, peak_ok ? peak1 : -1, api->reported(model));
    api->free(model);
    if (api->free_input) api->free_input(input);
    free(mesh.tri);
    return 0;
}

#endif /* RAPIDPQP_BENCH_COMMON_H */
