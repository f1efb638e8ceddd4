/*
 * ensure.h: the C tests' assertion macros. A failed ENSURE prints where and what, counts the
 * failure and carries on; ENSURE_SUMMARY() prints the counts and gives the exit status.
 *
 *   ENSURE(cond)              cond is true
 *   ENSURE_EQ_INT(a, b)       two ints are equal (prints both)
 *   ENSURE_NEAR(a, b, tol)    |a - b| <= tol for doubles (prints both)
 *
 * Header-only, C99; include it in one translation unit.
 */
#ifndef RAPIDPQP_ENSURE_H
#define RAPIDPQP_ENSURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int ensure_passed;
static int ensure_failed;

#define ENSURE(cond)                                                                 \
    do {                                                                             \
        if (cond) {                                                                  \
            ensure_passed++;                                                         \
        } else {                                                                     \
            ensure_failed++;                                                         \
            fprintf(stderr, "%s:%d: ENSURE(%s) failed\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define ENSURE_EQ_INT(a, b)                                                          \
    do {                                                                             \
        long ensure_a_ = (long)(a), ensure_b_ = (long)(b);                           \
        if (ensure_a_ == ensure_b_) {                                                \
            ensure_passed++;                                                         \
        } else {                                                                     \
            ensure_failed++;                                                         \
            fprintf(stderr, "%s:%d: ENSURE_EQ_INT(%s, %s) failed: %ld != %ld\n",     \
                    __FILE__, __LINE__, #a, #b, ensure_a_, ensure_b_);               \
        }                                                                            \
    } while (0)

#define ENSURE_NEAR(a, b, tol)                                                       \
    do {                                                                             \
        double ensure_a_ = (double)(a), ensure_b_ = (double)(b);                     \
        if (fabs(ensure_a_ - ensure_b_) <= (double)(tol)) {                          \
            ensure_passed++;                                                         \
        } else {                                                                     \
            ensure_failed++;                                                         \
            fprintf(stderr, "%s:%d: ENSURE_NEAR(%s, %s, %s) failed: %.17g vs %.17g\n", \
                    __FILE__, __LINE__, #a, #b, #tol, ensure_a_, ensure_b_);         \
        }                                                                            \
    } while (0)

/* Prints "<label>: N passed, N failed" and evaluates to the exit status (0 when none failed). */
#define ENSURE_SUMMARY(label)                                                        \
    (printf("%s: %d passed, %d failed\n", (label), ensure_passed, ensure_failed),    \
     ensure_failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE)

#endif /* RAPIDPQP_ENSURE_H */
