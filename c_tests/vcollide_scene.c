/*
 * vcollide_scene: replays V-COLLIDE n-body scenes through rapidpqp's legacy V-COLLIDE 1.x C API
 * (vcOpen ... vcReport in rapidpqp.h) and compares every frame with what V-COLLIDE 2.01
 * reported. Scene format: tests/data/vcollide_scene/SCENE_FORMAT.md.
 *
 *   vcollide_scene [--repeat N] [--no-misuse] SCENE_DIR...
 *
 * Per scene folder: the objects (objects/ *.obj, byte-wise sorted; triangle k added with
 * vcAddTriWithId(..., k)) are created in order, so object i gets id i; then per frame the
 * commands are applied, vcUpdateTrans is called for every object and vcCollide runs; the pairs
 * vcReport gives must equal the frame's line of vcollide_report.txt. Prints the agreeing frames
 * and the frame-loop time (commands + updates + vcCollide + vcReport, per frame; median over N
 * runs on fresh engines, default 3) beside V-COLLIDE 2.01's ~114 us per frame (measured on the
 * public scene, NOTES.md). On the first frame with contacts it also checks the all-contacts
 * extension (vcCollideAll, vcReportTriPairs). Unless --no-misuse, checks the build state
 * machine and the bad-input codes first. Exit status: 0 when everything agrees, 1 on any
 * disagreement or failed check, 2 on unreadable input.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rapidpqp.h"

#include "ensure.h"

/* V-COLLIDE 2.01 on the public scene (NOTES.md): 1.14e-4 s per frame. */
#define VCOLLIDE_US_PER_FRAME 114.0
/* Mismatching frames described in full; the rest are only counted. */
#define MAX_REPORTED_FRAMES 5

/* ------------------------------------------------------------------------------------------ */
/* Utilities                                                                                   */

static void *xrealloc(void *ptr, size_t size) {
    void *out = realloc(ptr, size ? size : 1);
    if (!out) {
        fprintf(stderr, "out of memory (%zu bytes)\n", size);
        exit(2);
    }
    return out;
}

static void die(const char *what, const char *path) {
    fprintf(stderr, "%s: %s\n", path, what);
    exit(2);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *SEPARATORS = " \t\r\n";

/* Parses a whole token as a number (the conversion of a correctly rounding strtod). */
static int parse_number(const char *token, double *out) {
    char *end;
    *out = strtod(token, &end);
    return end != token && *end == '\0';
}

static int parse_int(const char *token, int *out) {
    char *end;
    long v = strtol(token, &end, 10);
    if (end == token || *end != '\0' || v < -2147483647L - 1 || v > 2147483647L) return 0;
    *out = (int)v;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Scene                                                                                       */

typedef struct {
    double (*corners)[3][3]; /* triangles, corners in file order */
    int count;
} Mesh;

enum { CMD_DEACTIVATE_PAIR, CMD_ACTIVATE_PAIR, CMD_DEACTIVATE, CMD_ACTIVATE };

typedef struct {
    int kind, i, j;
    int frame; /* applied just before this frame */
} Command;

typedef struct {
    Mesh *objects;
    int num_objects;
    double *poses; /* frames x objects x 16 */
    int num_frames;
    Command *commands;
    int num_commands;
    int **expected; /* per frame: K, then K pairs */
} Scene;

/* OBJ subset of SCENE_FORMAT.md: v lines, f lines (i, i/t, i//n, i/t/n; negative counts back;
 * polygons as fans). */
static Mesh load_obj(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open", path);
    double (*v)[3] = NULL;
    size_t nv = 0, cap_v = 0, cap_t = 0;
    Mesh mesh = {NULL, 0};
    char *line = NULL;
    size_t line_cap = 0;
    while (getline(&line, &line_cap, f) != -1) {
        char *save;
        char *word = strtok_r(line, SEPARATORS, &save);
        if (!word) continue;
        if (strcmp(word, "v") == 0) {
            if (nv == cap_v) {
                cap_v = cap_v ? 2 * cap_v : 1024;
                v = xrealloc(v, cap_v * sizeof *v);
            }
            for (int k = 0; k < 3; k++) {
                char *t = strtok_r(NULL, SEPARATORS, &save);
                if (!t || !parse_number(t, &v[nv][k])) die("bad vertex line", path);
            }
            nv++;
        } else if (strcmp(word, "f") == 0) {
            long idx[3];
            int n = 0;
            char *t;
            while ((t = strtok_r(NULL, SEPARATORS, &save)) != NULL) {
                char *end;
                long i = strtol(t, &end, 10);
                if (end == t || (*end != '\0' && *end != '/')) die("bad face entry", path);
                long zero_based = i < 0 ? (long)nv + i : i - 1;
                if (zero_based < 0 || zero_based >= (long)nv) die("face index out of range", path);
                if (n < 2) {
                    idx[n++] = zero_based;
                    continue;
                }
                idx[2] = zero_based;
                if ((size_t)mesh.count == cap_t) {
                    cap_t = cap_t ? 2 * cap_t : 1024;
                    mesh.corners = xrealloc(mesh.corners, cap_t * sizeof *mesh.corners);
                }
                for (int c = 0; c < 3; c++) memcpy(mesh.corners[mesh.count][c], v[idx[c]], sizeof v[0]);
                mesh.count++;
                idx[1] = idx[2]; /* fan (a,b,c), (a,c,d), ... */
                n = 3;
            }
            if (n < 3) die("face with fewer than 3 corners", path);
        }
    }
    free(line);
    free(v);
    fclose(f);
    return mesh;
}

static void load_objects(Scene *scene, const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/objects", dir);
    DIR *d = opendir(path);
    if (!d) die("cannot list", path);
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".obj") == 0) {
            names = xrealloc(names, (n + 1) * sizeof *names);
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    if (n == 0) die("no .obj files", path);
    qsort(names, n, sizeof *names, compare_strings);
    scene->objects = xrealloc(NULL, n * sizeof *scene->objects);
    scene->num_objects = (int)n;
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/objects/%s", dir, names[i]);
        scene->objects[i] = load_obj(path);
        free(names[i]);
    }
    free(names);
}

static void load_frames(Scene *scene, const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/frames.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open", path);
    const int per_frame = 16 * scene->num_objects;
    char *line = NULL;
    size_t line_cap = 0;
    while (getline(&line, &line_cap, f) != -1) {
        char *save;
        char *word = strtok_r(line, SEPARATORS, &save);
        if (!word || word[0] == '#') continue;
        int kind = -1, arity = 2;
        if (strcmp(word, "deactivate_pair") == 0) kind = CMD_DEACTIVATE_PAIR;
        else if (strcmp(word, "activate_pair") == 0) kind = CMD_ACTIVATE_PAIR;
        else if (strcmp(word, "deactivate") == 0) kind = CMD_DEACTIVATE, arity = 1;
        else if (strcmp(word, "activate") == 0) kind = CMD_ACTIVATE, arity = 1;
        if (kind >= 0) {
            Command c = {kind, 0, 0, scene->num_frames};
            char *a = strtok_r(NULL, SEPARATORS, &save);
            char *b = arity == 2 ? strtok_r(NULL, SEPARATORS, &save) : NULL;
            if (!a || !parse_int(a, &c.i) || (arity == 2 && (!b || !parse_int(b, &c.j))))
                die("bad command line", path);
            scene->commands = xrealloc(scene->commands, (size_t)(scene->num_commands + 1) * sizeof c);
            scene->commands[scene->num_commands++] = c;
            continue;
        }
        scene->poses = xrealloc(scene->poses, (size_t)(scene->num_frames + 1) * (size_t)per_frame * sizeof(double));
        double *out = scene->poses + (size_t)scene->num_frames * (size_t)per_frame;
        int count = 0;
        for (char *t = word; t; t = strtok_r(NULL, SEPARATORS, &save)) {
            if (count == per_frame || !parse_number(t, &out[count])) die("bad frame line", path);
            count++;
        }
        if (count != per_frame) die("frame line without 16 numbers per object", path);
        scene->num_frames++;
    }
    free(line);
    fclose(f);
}

static void load_report(Scene *scene, const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/vcollide_report.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open", path);
    scene->expected = xrealloc(NULL, (size_t)scene->num_frames * sizeof *scene->expected);
    char *line = NULL;
    size_t line_cap = 0;
    int frame = 0;
    while (getline(&line, &line_cap, f) != -1 && frame < scene->num_frames) {
        char *save;
        char *t = strtok_r(line, SEPARATORS, &save);
        int k;
        if (!t || !parse_int(t, &k) || k < 0) die("bad report line", path);
        int *pairs = xrealloc(NULL, (size_t)(1 + 2 * k) * sizeof(int));
        pairs[0] = k;
        for (int i = 0; i < 2 * k; i++) {
            t = strtok_r(NULL, SEPARATORS, &save);
            if (!t || !parse_int(t, &pairs[1 + i])) die("bad report line", path);
        }
        scene->expected[frame++] = pairs;
    }
    if (frame != scene->num_frames) die("fewer report lines than frames", path);
    free(line);
    fclose(f);
}

static void free_scene(Scene *scene) {
    for (int i = 0; i < scene->num_objects; i++) free(scene->objects[i].corners);
    for (int i = 0; i < scene->num_frames; i++) free(scene->expected[i]);
    free(scene->objects);
    free(scene->poses);
    free(scene->commands);
    free(scene->expected);
}

/* ------------------------------------------------------------------------------------------ */
/* Replay                                                                                      */

/* Creates every object; returns the handle (NULL on failure, reported). */
static void *build_engine(const Scene *scene) {
    void *vc = vcOpen();
    if (!vc) return NULL;
    for (int i = 0; i < scene->num_objects; i++) {
        int id = -1;
        int ok = vcNewObject(vc, &id) == VC_OK && id == i;
        const Mesh *m = &scene->objects[i];
        for (int k = 0; ok && k < m->count; k++)
            ok = vcAddTriWithId(vc, m->corners[k][0], m->corners[k][1], m->corners[k][2], k) == VC_OK;
        if (!ok || vcEndObject(vc) != VC_OK) {
            fprintf(stderr, "creating object %d failed\n", i);
            vcClose(vc);
            return NULL;
        }
    }
    return vc;
}

static int apply_command(void *vc, const Command *c) {
    switch (c->kind) {
    case CMD_DEACTIVATE_PAIR: return vcDeactivatePair(vc, c->i, c->j);
    case CMD_ACTIVATE_PAIR: return vcActivatePair(vc, c->i, c->j);
    case CMD_DEACTIVATE: return vcDeactivateObject(vc, c->i);
    default: return vcActivateObject(vc, c->i);
    }
}

static void print_pairs(const char *label, const int *pairs, int k) {
    printf("    %s (%d):", label, k);
    for (int i = 0; i < k; i++) printf(" (%d,%d)", pairs[2 * i], pairs[2 * i + 1]);
    printf("\n");
}

/* The all-contacts extension on the current poses: the same object pairs as first contact,
 * each with at least one triangle pair, ids in range; and the report-call error codes. */
static void check_all_contacts(void *vc, const Scene *scene, const VCReportType *first, int k) {
    ENSURE_EQ_INT(vcCollideAll(vc), VC_OK);
    VCReportType *all = xrealloc(NULL, (size_t)(k + 1) * sizeof *all);
    ENSURE_EQ_INT(vcReport(vc, k + 1, all), k);
    for (int p = 0; p < k; p++) {
        ENSURE(all[p].id1 == first[p].id1 && all[p].id2 == first[p].id2);
        int n = vcReportTriPairs(vc, p, 0, NULL);
        ENSURE(n > 0);
        if (n <= 0) continue;
        VCReportType *tris = xrealloc(NULL, (size_t)n * sizeof *tris);
        ENSURE_EQ_INT(vcReportTriPairs(vc, p, n, tris), n);
        int in_range = 1;
        for (int t = 0; t < n; t++)
            in_range &= tris[t].id1 >= 0 && tris[t].id1 < scene->objects[all[p].id1].count &&
                        tris[t].id2 >= 0 && tris[t].id2 < scene->objects[all[p].id2].count;
        ENSURE(in_range);
        free(tris);
    }
    ENSURE_EQ_INT(vcReportTriPairs(vc, k, 0, NULL), VC_ERR_INVALID_INDEX);
    ENSURE_EQ_INT(vcReportTriPairs(vc, -1, 0, NULL), VC_ERR_INVALID_INDEX);
    ENSURE_EQ_INT(vcReportTriPairs(vc, 0, 1, NULL), VC_ERR_NULL_POINTER);
    /* Back to first contact: no triangle pairs. */
    ENSURE_EQ_INT(vcCollide(vc), VC_OK);
    ENSURE_EQ_INT(vcReportTriPairs(vc, 0, 0, NULL), 0);
    free(all);
}

/* One run over all frames. Returns the frame-loop time in seconds, or a negative value if the
 * engine could not be built. With `check`, compares every frame and counts agreeing ones. */
static double run_scene(const Scene *scene, int check, int *agreeing, double *setup_seconds) {
    double t0 = now_seconds();
    void *vc = build_engine(scene);
    if (!vc) return -1.0;
    *setup_seconds = now_seconds() - t0;
    int cap = scene->num_objects * (scene->num_objects - 1) / 2 + 1;
    VCReportType *got = xrealloc(NULL, (size_t)cap * sizeof *got);
    int next_command = 0, reported = 0, checked_all = 0;
    double loop = 0.0;
    *agreeing = 0;
    for (int frame = 0; frame < scene->num_frames; frame++) {
        const double *poses = scene->poses + (size_t)frame * 16u * (size_t)scene->num_objects;
        double start = now_seconds();
        for (; next_command < scene->num_commands && scene->commands[next_command].frame == frame;
             next_command++) {
            int code = apply_command(vc, &scene->commands[next_command]);
            if (check && code != VC_OK)
                printf("    frame %d: command %d returned %d\n", frame, next_command, code);
        }
        int ok = 1;
        for (int i = 0; i < scene->num_objects; i++) {
            double m[4][4];
            memcpy(m, poses + 16 * i, sizeof m);
            ok &= vcUpdateTrans(vc, i, m) == VC_OK;
        }
        ok &= vcCollide(vc) == VC_OK;
        int k = vcReport(vc, cap, got);
        loop += now_seconds() - start;
        if (!check) continue;

        const int *expected = scene->expected[frame];
        int same = ok && k == expected[0];
        for (int p = 0; same && p < k; p++)
            same = got[p].id1 == expected[1 + 2 * p] && got[p].id2 == expected[2 + 2 * p];
        if (same) {
            (*agreeing)++;
        } else if (reported++ < MAX_REPORTED_FRAMES) {
            printf("  frame %d differs%s:\n", frame, ok ? "" : " (a call failed)");
            print_pairs("V-COLLIDE", expected + 1, expected[0]);
            int *mine = xrealloc(NULL, (size_t)(2 * (k > 0 ? k : 1)) * sizeof(int));
            for (int p = 0; p < k; p++) mine[2 * p] = got[p].id1, mine[2 * p + 1] = got[p].id2;
            print_pairs("rapidpqp ", mine, k);
            free(mine);
        }
        if (!checked_all && k > 0) {
            checked_all = 1;
            check_all_contacts(vc, scene, got, k);
        }
    }
    free(got);
    vcClose(vc);
    return loop;
}

static int replay(const char *dir, int repeat) {
    Scene scene;
    memset(&scene, 0, sizeof scene);
    load_objects(&scene, dir);
    load_frames(&scene, dir);
    load_report(&scene, dir);
    if (scene.num_frames == 0) die("no frames", dir);
    long triangles = 0;
    for (int i = 0; i < scene.num_objects; i++) triangles += scene.objects[i].count;
    printf("%s: %d objects, %ld triangles, %d frames, %d commands\n", dir, scene.num_objects,
           triangles, scene.num_frames, scene.num_commands);

    double *loops = xrealloc(NULL, (size_t)repeat * sizeof *loops);
    int agreeing = 0, status = 0;
    double setup = 0.0;
    for (int r = 0; r < repeat; r++) {
        int agree_run = 0;
        double setup_run;
        loops[r] = run_scene(&scene, r == 0, &agree_run, &setup_run);
        if (loops[r] < 0) {
            status = 1;
            break;
        }
        if (r == 0) agreeing = agree_run, setup = setup_run;
    }
    if (status == 0) {
        qsort(loops, (size_t)repeat, sizeof *loops, compare_doubles);
        double median = loops[repeat / 2];
        printf("  agreeing frames %d / %d\n", agreeing, scene.num_frames);
        printf("  frame loop (commands + %d vcUpdateTrans + vcCollide + vcReport): %.1f us per frame "
               "(median of %d runs; fastest %.1f us) -- V-COLLIDE 2.01: ~%.0f us per frame\n",
               scene.num_objects, 1e6 * median / scene.num_frames, repeat,
               1e6 * loops[0] / scene.num_frames, VCOLLIDE_US_PER_FRAME);
        printf("  setup (vcNewObject/vcAddTri/vcEndObject, all objects): %.3f s\n", setup);
        if (agreeing != scene.num_frames) status = 1;
    }
    free(loops);
    free_scene(&scene);
    return status;
}

/* ------------------------------------------------------------------------------------------ */
/* Misuse (VCOLLIDE.md section 4.7 and the bad-input codes of rapidpqp.h)                       */

static int add_box(void *vc, int *id) {
    static double c[8][3] = {{-.5, -.5, -.5}, {.5, -.5, -.5}, {-.5, .5, -.5}, {.5, .5, -.5},
                                   {-.5, -.5, .5},  {.5, -.5, .5},  {-.5, .5, .5},  {.5, .5, .5}};
    static const int q[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
    int code = vcNewObject(vc, id);
    if (code != VC_OK) return code;
    for (int f = 0; f < 6; f++) {
        vcAddTri(vc, c[q[f][0]], c[q[f][1]], c[q[f][2]]);
        vcAddTri(vc, c[q[f][0]], c[q[f][2]], c[q[f][3]]);
    }
    return vcEndObject(vc);
}

static void misuse_checks(void) {
    double m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    double p[3] = {0, 0, 0}, q[3] = {1, 0, 0}, r[3] = {0, 1, 0};
    VCReportType rep[4];
    int id = -7;

    vcClose(NULL);
    ENSURE_EQ_INT(vcNewObject(NULL, &id), VC_ERR_NULL_POINTER);
    void *vc = vcOpen();
    ENSURE(vc != NULL);
    ENSURE_EQ_INT(vcReport(vc, 4, rep), 0);
    ENSURE_EQ_INT(vcAddTri(vc, p, q, r), VC_ERR_CALL_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(vcEndObject(vc), VC_ERR_CALL_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(vcCollide(vc), VC_OK);
    ENSURE_EQ_INT(add_box(vc, &id), VC_OK);
    ENSURE_EQ_INT(id, 0);
    ENSURE_EQ_INT(vcNewObject(vc, &id), VC_OK);
    ENSURE_EQ_INT(id, 1);
    ENSURE_EQ_INT(vcEndObject(vc), VC_ERR_EMPTY_OBJECT);
    id = -7;
    ENSURE_EQ_INT(vcNewObject(vc, &id), VC_ERR_CALL_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(id, -7);
    ENSURE_EQ_INT(vcUpdateTrans(vc, 0, m), VC_ERR_CALL_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(vcCollide(vc), VC_ERR_CALL_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(vcDeleteObject(vc, 0), VC_ERR_CALL_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(vcActivateObject(vc, 0), VC_ERR_CALL_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(vcDeactivatePair(vc, 0, 0), VC_ERR_CALL_OUT_OF_SEQUENCE);
    ENSURE_EQ_INT(vcAddTri(vc, p, q, NULL), VC_ERR_NULL_POINTER);
    ENSURE_EQ_INT(vcAddTri(vc, p, q, r), VC_OK);
    ENSURE_EQ_INT(vcEndObject(vc), VC_OK);
    ENSURE_EQ_INT(vcUpdateTrans(vc, 2, m), VC_ERR_INVALID_ID);
    ENSURE_EQ_INT(vcUpdateTrans(vc, -1, m), VC_ERR_INVALID_ID);
    ENSURE_EQ_INT(vcUpdateTrans(vc, 1000, m), VC_ERR_INVALID_ID);
    m[0][3] = NAN;
    ENSURE_EQ_INT(vcUpdateTrans(vc, 0, m), VC_ERR_NON_FINITE);
    m[0][3] = 0.0;
    m[0][0] = 2.0;
    ENSURE_EQ_INT(vcUpdateTrans(vc, 0, m), VC_ERR_NOT_RIGID);
    m[0][0] = 1.0;
    ENSURE_EQ_INT(vcUpdateTrans(vc, 0, NULL), VC_ERR_NULL_POINTER);
    ENSURE_EQ_INT(vcCollide(vc), VC_OK);
    ENSURE_EQ_INT(vcReport(vc, 0, NULL), 1);
    ENSURE_EQ_INT(vcReport(vc, 1, NULL), VC_ERR_NULL_POINTER);
    ENSURE_EQ_INT(vcReport(vc, 4, rep), 1);
    ENSURE(rep[0].id1 == 0 && rep[0].id2 == 1);
    ENSURE_EQ_INT(vcDeleteObject(vc, 1), VC_OK);
    ENSURE_EQ_INT(vcDeleteObject(vc, 1), VC_ERR_INVALID_ID);
    ENSURE_EQ_INT(vcActivatePair(vc, 0, 1), VC_ERR_INVALID_ID);
    ENSURE_EQ_INT(vcDeactivateObject(vc, 1), VC_ERR_INVALID_ID);
    ENSURE_EQ_INT(vcNewObject(vc, &id), VC_OK);
    ENSURE_EQ_INT(id, 2);
    ENSURE_EQ_INT(vcAddTri(vc, p, q, r), VC_OK);
    ENSURE_EQ_INT(vcEndObject(vc), VC_OK);
    ENSURE_EQ_INT(vcDeactivatePair(vc, 2, 2), VC_OK);
    ENSURE(vcStatusMessage(VC_ERR_NOT_RIGID) != NULL);
    vcClose(vc);
    vcClose(vc); /* ignored */
    ENSURE_EQ_INT(vcCollide(vc), VC_ERR_INVALID_HANDLE);
}

int main(int argc, char **argv) {
    int repeat = 3, misuse = 1, status = 0, scenes = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--repeat") == 0 && a + 1 < argc) {
            repeat = atoi(argv[++a]);
            if (repeat < 1) repeat = 1;
        } else if (strcmp(argv[a], "--no-misuse") == 0) {
            misuse = 0;
        } else if (argv[a][0] == '-') {
            fprintf(stderr, "usage: %s [--repeat N] [--no-misuse] SCENE_DIR...\n", argv[0]);
            return 2;
        }
    }
    if (misuse) misuse_checks();
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--repeat") == 0) {
            a++;
            continue;
        }
        if (argv[a][0] == '-') continue;
        status |= replay(argv[a], repeat);
        scenes++;
    }
    int checks = ENSURE_SUMMARY("vcollide_scene checks");
    if (scenes == 0 && !misuse) {
        fprintf(stderr, "usage: %s [--repeat N] [--no-misuse] SCENE_DIR...\n", argv[0]);
        return 2;
    }
    return status || checks != EXIT_SUCCESS ? 1 : 0;
}
