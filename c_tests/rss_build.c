/*
 * rss_build.c: the process growth (resident set size, from /proc/self/statm) of building one
 * model from an OBJ mesh through a legacy or native entry point, in bytes per triangle, and
 * what PQP_MemUsage says for the PQP model. The mesh is read first (its arrays stay), then the
 * model is built; the growth is measured after EndModel.
 *
 *   rss_build MESH.obj pqp|rapid|native
 *
 * Prints: `<api> <triangles> <rss bytes per triangle> <PQP_MemUsage bytes per triangle or 0>`.
 * Linux only (reads /proc); elsewhere the RSS figure is 0.
 */
#define _POSIX_C_SOURCE 200809L
#pragma GCC diagnostic ignored "-Wunused-function"
#include "fixture.h"
#include "rapidpqp.h"

#include <unistd.h>

static long rss_bytes(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    fclose(f);
    return resident * sysconf(_SC_PAGESIZE);
}

int main(int argc, char **argv) {
    Mesh mesh;
    double *flat;
    long before, after;
    int k, c, bad = 0, mem = 0;
    if (argc != 3) {
        fprintf(stderr, "usage: %s MESH.obj pqp|rapid|native\n", argv[0]);
        return 2;
    }
    if (read_obj(argv[1], &mesh) || mesh.n == 0) return 2;
    flat = xcalloc((size_t)mesh.n * 9, sizeof(double));
    for (k = 0; k < mesh.n; k++)
        for (c = 0; c < 3; c++) memcpy(flat + 9 * k + 3 * c, mesh.tri[k].v[c], 3 * sizeof(double));
    before = rss_bytes();
    if (!strcmp(argv[2], "pqp")) {
        PQP_Model *m = PQP_Model_new();
        bad |= PQP_BeginModel(m, mesh.n) != PQP_OK;
        for (k = 0; k < mesh.n; k++)
            bad |= PQP_AddTri(m, mesh.tri[k].v[0], mesh.tri[k].v[1], mesh.tri[k].v[2], k) != PQP_OK;
        bad |= PQP_EndModel(m) != PQP_OK;
        mem = PQP_MemUsage(m, 0);
    } else if (!strcmp(argv[2], "rapid")) {
        RAPID_model *m = RAPID_model_new();
        bad |= RAPID_BeginModel(m) != RAPID_OK;
        for (k = 0; k < mesh.n; k++)
            bad |= RAPID_AddTri(m, mesh.tri[k].v[0], mesh.tri[k].v[1], mesh.tri[k].v[2], k) != RAPID_OK;
        bad |= RAPID_EndModel(m) != RAPID_OK;
    } else if (!strcmp(argv[2], "native")) {
        RpqModel *m = NULL;
        bad |= rpq_model_build(flat, NULL, (size_t)mesh.n, &m) != RPQ_OK;
    } else {
        fprintf(stderr, "unknown api %s\n", argv[2]);
        return 2;
    }
    after = rss_bytes();
    if (bad) {
        fprintf(stderr, "building failed\n");
        return 1;
    }
    printf("%s %d %.0f %.0f\n", argv[2], mesh.n, (double)(after - before) / mesh.n, (double)mem / mesh.n);
    return 0;
}
