/*
 * mesh_load.c: the C API of mesh files (rpq_mesh_load, rpq_mesh_num_vertices,
 * rpq_mesh_num_faces, rpq_mesh_copy, rpq_mesh_build_model, rpq_mesh_free), driven by
 * tests/c_mesh_load.rs.
 *
 * Usage: mesh_load ANSWERS DIR MESH...
 * - Each MESH is loaded; its vertices and faces are copied out and written to ANSWERS (for the
 *   test to compare with the Rust reader), and a model is built from it two ways (from the
 *   mesh, and from the copied arrays with rpq_model_build_indexed) that must agree.
 * - DIR holds the bad files the test wrote (truncated.stl, nan.ply, empty.obj, unknown.dat,
 *   out_of_range.ply; missing.obj does not exist): each gives its status and a message naming
 *   the file, and leaves the out-parameter untouched.
 * - NULL arguments, short message buffers, freed and foreign handles.
 *
 * Prints one summary line on success.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "rapidpqp.h"

static void write_mesh(FILE *out, const char *path) {
    char message[512];
    RpqMesh *mesh = NULL;
    ENSURE_EQ_INT(rpq_mesh_load(path, &mesh, message, sizeof message), RPQ_OK);
    ENSURE(mesh != NULL && message[0] == '\0');
    if (mesh == NULL) {
        fprintf(stderr, "%s: %s\n", path, message);
        return;
    }
    size_t nv = rpq_mesh_num_vertices(mesh), nf = rpq_mesh_num_faces(mesh);
    ENSURE(nv >= 3 && nf >= 1);
    double *v = malloc(sizeof(double) * 3 * nv);
    uint32_t *f = malloc(sizeof(uint32_t) * 3 * nf);
    ENSURE_EQ_INT(rpq_mesh_copy(mesh, v, f), RPQ_OK);
    /* Either array may be skipped. */
    ENSURE_EQ_INT(rpq_mesh_copy(mesh, NULL, f), RPQ_OK);
    ENSURE_EQ_INT(rpq_mesh_copy(mesh, v, NULL), RPQ_OK);
    fprintf(out, "M %zu %zu\n", nv, nf);
    for (size_t i = 0; i < nv; i++) {
        fprintf(out, "%.17g %.17g %.17g\n", v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    }
    for (size_t i = 0; i < nf; i++) {
        ENSURE(f[3 * i] < nv && f[3 * i + 1] < nv && f[3 * i + 2] < nv);
        fprintf(out, "%u %u %u\n", (unsigned)f[3 * i], (unsigned)f[3 * i + 1], (unsigned)f[3 * i + 2]);
    }

    /* The model of the mesh and the model of the copied arrays are the same model. */
    RpqModel *a = NULL, *b = NULL;
    ENSURE_EQ_INT(rpq_mesh_build_model(mesh, &a), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_build_indexed(v, nv, f, nf, NULL, &b), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_num_triangles(a), nf);
    ENSURE_EQ_INT(rpq_model_memory_bytes(a), rpq_model_memory_bytes(b));
    size_t size = rpq_model_serialized_size(a);
    ENSURE(size > 0 && size == rpq_model_serialized_size(b));
    unsigned char *sa = malloc(size), *sb = malloc(size);
    ENSURE_EQ_INT(rpq_model_serialize(a, sa, size, NULL), RPQ_OK);
    ENSURE_EQ_INT(rpq_model_serialize(b, sb, size, NULL), RPQ_OK);
    ENSURE(memcmp(sa, sb, size) == 0);
    free(sa);
    free(sb);
    rpq_model_free(a);
    rpq_model_free(b);
    free(v);
    free(f);
    rpq_mesh_free(mesh);
}

/* Loading `name` in `dir` gives `status`, a message naming the file and containing `needle`,
 * and leaves the out-parameter as it was. */
static void expect_error(const char *dir, const char *name, RpqStatus status, const char *needle) {
    char path[4096], message[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    RpqMesh *sentinel = (RpqMesh *)(uintptr_t)0x1234, *mesh = sentinel;
    ENSURE_EQ_INT(rpq_mesh_load(path, &mesh, message, sizeof message), status);
    ENSURE(mesh == sentinel);
    if (strstr(message, name) == NULL || strstr(message, needle) == NULL) {
        fprintf(stderr, "%s: unexpected message (wanted \"%s\"): %s\n", name, needle, message);
        ENSURE(0);
    }
    /* No message buffer: the status alone. */
    ENSURE_EQ_INT(rpq_mesh_load(path, &mesh, NULL, 0), status);
    ENSURE(mesh == sentinel);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s ANSWERS DIR MESH...\n", argv[0]);
        return 2;
    }
    FILE *out = fopen(argv[1], "w");
    if (out == NULL) {
        perror(argv[1]);
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        write_mesh(out, argv[i]);
    }
    fclose(out);

    const char *dir = argv[2];
    expect_error(dir, "missing.obj", RPQ_ERR_FILE_NOT_FOUND, "cannot read");
    expect_error(dir, "truncated.stl", RPQ_ERR_BAD_FORMAT, "byte ");
    expect_error(dir, "out_of_range.ply", RPQ_ERR_BAD_FORMAT, "out of range");
    expect_error(dir, "nan.ply", RPQ_ERR_NON_FINITE, "line ");
    expect_error(dir, "empty.obj", RPQ_ERR_EMPTY_MODEL, "no triangles");
    expect_error(dir, "unknown.dat", RPQ_ERR_BAD_FORMAT, "unknown mesh format");
    expect_error(dir, ".", RPQ_ERR_IO, "not a regular file");
    /* Devices are refused at once, not read without bound (issue 25 item 5). */
    expect_error("/dev", "zero", RPQ_ERR_IO, "not a regular file");
    expect_error("/dev", "urandom", RPQ_ERR_IO, "not a regular file");
    ENSURE(strstr(rpq_status_message(RPQ_ERR_FILE_NOT_FOUND), "does not exist") != NULL);
    ENSURE(strstr(rpq_status_message(RPQ_ERR_IO), "could not be read") != NULL);
    ENSURE(strstr(rpq_status_message(RPQ_ERR_BAD_FORMAT), "malformed") != NULL);

    /* NULL arguments. */
    char message[64];
    RpqMesh *mesh = NULL;
    ENSURE_EQ_INT(rpq_mesh_load(NULL, &mesh, message, sizeof message), RPQ_ERR_NULL_POINTER);
    ENSURE(strstr(message, "NULL") != NULL);
    ENSURE_EQ_INT(rpq_mesh_load(argv[3], NULL, message, sizeof message), RPQ_ERR_NULL_POINTER);

    /* A short message buffer gets a cut, NUL-terminated message; capacity 0 writes nothing. */
    char path[4096];
    snprintf(path, sizeof path, "%s/missing.obj", dir);
    char small[8];
    memset(small, 'x', sizeof small);
    ENSURE_EQ_INT(rpq_mesh_load(path, &mesh, small, sizeof small), RPQ_ERR_FILE_NOT_FOUND);
    ENSURE(small[7] == '\0' && strlen(small) == 7 && strncmp(small, path, 7) == 0);
    memset(small, 'x', sizeof small);
    ENSURE_EQ_INT(rpq_mesh_load(path, &mesh, small, 0), RPQ_ERR_FILE_NOT_FOUND);
    ENSURE(small[0] == 'x');

    /* Handles: NULL, freed, foreign and of another kind are refused without being read. */
    ENSURE_EQ_INT(rpq_mesh_load(argv[3], &mesh, NULL, 0), RPQ_OK);
    size_t nv = rpq_mesh_num_vertices(mesh);
    ENSURE(nv > 0);
    RpqModel *model = NULL;
    ENSURE_EQ_INT(rpq_mesh_build_model(mesh, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_mesh_build_model(NULL, &model), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_mesh_copy(NULL, NULL, NULL), RPQ_ERR_NULL_POINTER);
    ENSURE_EQ_INT(rpq_mesh_build_model(mesh, &model), RPQ_OK);
    ENSURE_EQ_INT(rpq_mesh_num_vertices((const RpqMesh *)model), 0);
    ENSURE_EQ_INT(rpq_mesh_copy((const RpqMesh *)model, NULL, NULL), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_model_num_triangles((const RpqModel *)mesh), 0);
    int local = 0;
    ENSURE_EQ_INT(rpq_mesh_num_faces((const RpqMesh *)&local), 0);
    ENSURE_EQ_INT(rpq_mesh_num_vertices(NULL), 0);
    rpq_mesh_free(mesh);
    ENSURE_EQ_INT(rpq_mesh_num_vertices(mesh), 0);
    ENSURE_EQ_INT(rpq_mesh_copy(mesh, NULL, NULL), RPQ_ERR_INVALID_HANDLE);
    ENSURE_EQ_INT(rpq_mesh_build_model(mesh, &model), RPQ_ERR_INVALID_HANDLE);
    rpq_mesh_free(mesh); /* a second free is ignored */
    rpq_mesh_free(NULL);
    rpq_mesh_free((RpqMesh *)model); /* another kind: ignored */
    ENSURE(rpq_model_num_triangles(model) > 0);
    rpq_model_free(model);

    return ENSURE_SUMMARY("mesh_load");
}
