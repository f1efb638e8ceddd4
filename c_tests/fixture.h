/*
 * fixture.h: what the conformance programs (rapid_conformance.c, pqp_conformance.c) share for
 * reading a case of tests/data/conformance (format in FORMAT.md there) and comparing contact
 * pairs: growing arrays, (id1, id2) pair lists (sort, count, multiset difference, print), the
 * OBJ meshes, the poses, the recorded contact lines, and the case folder's name.
 *
 * Header-only, C99, static functions; include it in one translation unit, after defining
 * _POSIX_C_SOURCE (clock_gettime) and before using it.
 */
#ifndef RAPIDPQP_FIXTURE_H
#define RAPIDPQP_FIXTURE_H

#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 199309L
#error "define _POSIX_C_SOURCE (200809L) before including fixture.h"
#endif

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Pairs printed per list in a mismatch description. */
#define MAX_REPORTED_PAIRS 12

/* ------------------------------------------------------------------------------------------ */
/* Small utilities                                                                             */

static void *xrealloc(void *ptr, size_t size) {
    void *out = realloc(ptr, size ? size : 1);
    if (!out) {
        fprintf(stderr, "out of memory (%zu bytes)\n", size);
        exit(EXIT_FAILURE);
    }
    return out;
}

/* A zero-filled array of n elements of the given size (never NULL). */
static void *xcalloc(size_t n, size_t size) {
    void *out = xrealloc(NULL, n * size);
    memset(out, 0, n * size);
    return out;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

typedef struct {
    int id1, id2;
} Pair;

typedef struct {
    int n, cap;
    Pair *p;
} PairList;

static void pairs_push(PairList *list, int id1, int id2) {
    if (list->n == list->cap) {
        list->cap = list->cap ? 2 * list->cap : 16;
        list->p = xrealloc(list->p, (size_t)list->cap * sizeof *list->p);
    }
    list->p[list->n].id1 = id1;
    list->p[list->n].id2 = id2;
    list->n++;
}

static int pair_cmp(const void *a, const void *b) {
    const Pair *x = a, *y = b;
    if (x->id1 != y->id1) return x->id1 < y->id1 ? -1 : 1;
    if (x->id2 != y->id2) return x->id2 < y->id2 ? -1 : 1;
    return 0;
}

static void pairs_sort(PairList *list) {
    if (list->n > 1) qsort(list->p, (size_t)list->n, sizeof *list->p, pair_cmp);
}

/* Number of occurrences of (id1, id2) in a sorted list. */
static int pairs_count(const PairList *list, int id1, int id2) {
    Pair key;
    int lo = 0, hi = list->n, count = 0;
    key.id1 = id1;
    key.id2 = id2;
    while (lo < hi) { /* first index not below key */
        int mid = lo + (hi - lo) / 2;
        if (pair_cmp(&list->p[mid], &key) < 0) lo = mid + 1; else hi = mid;
    }
    while (lo + count < list->n && pair_cmp(&list->p[lo + count], &key) == 0) count++;
    return count;
}

/* Multiset difference of two sorted lists: what only a has, what only b has. */
static void pairs_diff(const PairList *a, const PairList *b, PairList *only_a, PairList *only_b) {
    int i = 0, j = 0;
    only_a->n = only_b->n = 0;
    while (i < a->n || j < b->n) {
        int c = i == a->n ? 1 : j == b->n ? -1 : pair_cmp(&a->p[i], &b->p[j]);
        if (c == 0) {
            i++, j++;
        } else if (c < 0) {
            pairs_push(only_a, a->p[i].id1, a->p[i].id2), i++;
        } else {
            pairs_push(only_b, b->p[j].id1, b->p[j].id2), j++;
        }
    }
}

static void print_pairs(FILE *out, const char *label, const PairList *list) {
    int k;
    fprintf(out, "  %s (%d):", label, list->n);
    for (k = 0; k < list->n && k < MAX_REPORTED_PAIRS; k++)
        fprintf(out, " (%d,%d)", list->p[k].id1, list->p[k].id2);
    fprintf(out, "%s\n", list->n > MAX_REPORTED_PAIRS ? " ..." : "");
}

/* ------------------------------------------------------------------------------------------ */
/* Reading a case                                                                              */

typedef struct {
    double v[3][3];
} Tri;

typedef struct {
    int n;
    Tri *tri;
} Mesh;

typedef struct {
    double R1[3][3], T1[3], s1, R2[3][3], T2[3], s2;
} Pose;

/* One line of a recorded contact file (rapid_all.txt, rapid_first.txt, pqp_collide_all.txt,
 * pqp_collide_first.txt): return code, RAPID's box tests or PQP's bounding-volume tests,
 * triangle tests, and the pairs, sorted. */
typedef struct {
    int rc, bv_tests, tri_tests;
    PairList pairs;
} ContactRecord;

/* Reads the `v` and `f` lines of an OBJ file (1-based indices, triangles only). */
static int read_obj(const char *path, Mesh *mesh) {
    FILE *f = fopen(path, "r");
    char line[4096];
    double(*v)[3] = NULL;
    int (*face)[3] = NULL;
    int nv = 0, cv = 0, nf = 0, cf = 0, lineno = 0, k, c, ok = 1;
    mesh->n = 0;
    mesh->tri = NULL;
    if (!f) {
        perror(path);
        return -1;
    }
    while (ok && fgets(line, sizeof line, f)) {
        char *s = line, *end;
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            fprintf(stderr, "%s:%d: line too long\n", path, lineno);
            ok = 0;
            break;
        }
        if ((s[0] != 'v' && s[0] != 'f') || !isspace((unsigned char)s[1])) continue;
        if (s[0] == 'v') {
            if (nv == cv) v = xrealloc(v, (size_t)(cv = cv ? 2 * cv : 1024) * sizeof *v);
            s++;
            for (c = 0; c < 3; c++) {
                v[nv][c] = strtod(s, &end);
                if (end == s) {
                    fprintf(stderr, "%s:%d: bad vertex\n", path, lineno);
                    ok = 0;
                    break;
                }
                s = end;
            }
            nv++;
        } else {
            if (nf == cf) face = xrealloc(face, (size_t)(cf = cf ? 2 * cf : 1024) * sizeof *face);
            s++;
            for (c = 0; c < 3 && ok; c++) {
                long idx = strtol(s, &end, 10);
                if (end == s || idx < 1) {
                    fprintf(stderr, "%s:%d: bad face index\n", path, lineno);
                    ok = 0;
                }
                face[nf][c] = (int)idx;
                s = end;
                while (*s && !isspace((unsigned char)*s)) s++; /* skip /vt/vn */
            }
            while (ok && *s) {
                if (!isspace((unsigned char)*s++)) {
                    fprintf(stderr, "%s:%d: not a triangle\n", path, lineno);
                    ok = 0;
                }
            }
            nf++;
        }
    }
    fclose(f);
    if (ok) {
        mesh->tri = xrealloc(NULL, (size_t)nf * sizeof *mesh->tri);
        for (k = 0; k < nf && ok; k++) {
            for (c = 0; c < 3; c++) {
                if (face[k][c] > nv) {
                    fprintf(stderr, "%s: face %d names vertex %d of %d\n", path, k, face[k][c], nv);
                    ok = 0;
                    break;
                }
                memcpy(mesh->tri[k].v[c], v[face[k][c] - 1], sizeof v[0]);
            }
        }
        mesh->n = nf;
    }
    free(v);
    free(face);
    return ok ? 0 : -1;
}

static int read_poses(const char *path, Pose **poses, int *count) {
    FILE *f = fopen(path, "r");
    int n = 0, cap = 0;
    double x[26];
    Pose *out = NULL;
    if (!f) {
        perror(path);
        return -1;
    }
    for (;;) {
        int k, got = 0;
        for (k = 0; k < 26; k++) got += fscanf(f, "%lf", &x[k]) == 1;
        if (got == 0) break;
        if (got != 26) {
            fprintf(stderr, "%s: pose %d has %d of 26 numbers\n", path, n, got);
            fclose(f);
            free(out);
            return -1;
        }
        if (n == cap) out = xrealloc(out, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *out);
        memcpy(out[n].R1, x, 9 * sizeof(double));
        memcpy(out[n].T1, x + 9, 3 * sizeof(double));
        out[n].s1 = x[12];
        memcpy(out[n].R2, x + 13, 9 * sizeof(double));
        memcpy(out[n].T2, x + 22, 3 * sizeof(double));
        out[n].s2 = x[25];
        n++;
    }
    fclose(f);
    *poses = out;
    *count = n;
    return 0;
}

static int read_contacts(const char *path, int count, ContactRecord **records) {
    FILE *f = fopen(path, "r");
    ContactRecord *out;
    int p, k, extra;
    if (!f) {
        perror(path);
        return -1;
    }
    out = xcalloc((size_t)count, sizeof *out);
    for (p = 0; p < count; p++) {
        int n;
        if (fscanf(f, "%d %d %d %d", &out[p].rc, &out[p].bv_tests, &out[p].tri_tests, &n) != 4 ||
            n < 0) {
            fprintf(stderr, "%s: line %d unreadable\n", path, p + 1);
            goto fail;
        }
        for (k = 0; k < n; k++) {
            int a, b;
            if (fscanf(f, "%d %d", &a, &b) != 2) {
                fprintf(stderr, "%s: line %d has fewer than %d pairs\n", path, p + 1, n);
                goto fail;
            }
            pairs_push(&out[p].pairs, a, b);
        }
        pairs_sort(&out[p].pairs);
    }
    if (fscanf(f, "%d", &extra) == 1) {
        fprintf(stderr, "%s: more lines than the %d poses\n", path, count);
        goto fail;
    }
    fclose(f);
    *records = out;
    return 0;
fail:
    fclose(f);
    for (k = 0; k < count; k++) free(out[k].pairs.p);
    free(out);
    return -1;
}

static void free_contacts(ContactRecord *r, int n) {
    int p;
    if (!r) return;
    for (p = 0; p < n; p++) free(r[p].pairs.p);
    free(r);
}

/* The last component of a folder path (trailing slashes ignored), into buf. */
static const char *base_name(const char *dir, char *buf, size_t size) {
    size_t len = strlen(dir);
    const char *start;
    while (len > 1 && dir[len - 1] == '/') len--;
    start = dir + len;
    while (start > dir && start[-1] != '/') start--;
    len -= (size_t)(start - dir);
    if (len >= size) len = size - 1;
    memcpy(buf, start, len);
    buf[len] = '\0';
    return buf;
}

static int file_exists(const char *path) {
    FILE *f = fopen(path, "r");
    if (f) fclose(f);
    return f != NULL;
}

#endif /* RAPIDPQP_FIXTURE_H */
