/*
 * check.h: the C++ compatibility programs' assertion macro. A failed CHECK prints where and
 * what and counts the failure; CHECK_SUMMARY() prints "N passed, M failed" and gives the exit
 * status. Plain C++98, header-only.
 */
#ifndef RAPIDPQP_CXX_CHECK_H
#define RAPIDPQP_CXX_CHECK_H

#include <stdio.h>

static int check_passed = 0;
static int check_failed = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            check_passed++;                                                          \
        } else {                                                                     \
            check_failed++;                                                          \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define CHECK_EQ(a, b)                                                               \
    do {                                                                             \
        long check_a_ = (long)(a), check_b_ = (long)(b);                             \
        if (check_a_ == check_b_) {                                                  \
            check_passed++;                                                          \
        } else {                                                                     \
            check_failed++;                                                          \
            fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: %ld != %ld\n",          \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);                 \
        }                                                                            \
    } while (0)

#define CHECK_SUMMARY()                                                              \
    (printf("checks: %d passed, %d failed\n", check_passed, check_failed),           \
     check_failed == 0 ? 0 : 1)

#endif
