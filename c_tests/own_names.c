/*
 * own_names: a C program's own names do not clash with rapidpqp's headers, and the header's
 * version macros are the library's version.
 *
 * tests/c_header.rs builds it two ways:
 *  - plain: includes only rapidpqp_native.h and defines, as its own, names that the legacy
 *    headers (CollisionPair, collision_pair, VCReportType) and the library's Rust internals
 *    (ContactPair, FORMAT_VERSION, MAX_QUEUE) use; then runs: the version macros against
 *    rpq_version() and rpq_version_string(), and one native query through the program's own
 *    ContactPair type.
 *  - with -DOWN_NAMES_ALL_APIS: includes rapidpqp.h (the native and the three legacy C APIs)
 *    and defines the names that none of the originals declared; compiled, not run.
 */
#include <stdio.h>
#include <string.h>

#ifdef OWN_NAMES_ALL_APIS
#include "rapidpqp.h"
#else
#include "rapidpqp_native.h"
#endif

#include "ensure.h"

/* The program's own names: a different type or value than anything of the library's. */
typedef struct ContactPair {
    const char *first, *second;
} ContactPair;
#define FORMAT_VERSION "own format 7"
enum { MAX_QUEUE = 3 };
#ifndef OWN_NAMES_ALL_APIS
typedef struct CollisionPair {
    double weight;
} CollisionPair;
struct collision_pair {
    char tag[4];
};
typedef double VCReportType;
#endif

#if !defined(RPQ_VERSION_MAJOR) || !defined(RPQ_VERSION_MINOR) || !defined(RPQ_VERSION_PATCH) || \
    !defined(RPQ_VERSION_STRING) || !defined(RPQ_VERSION_NUMBER)
#error "the version macros are missing"
#endif
#if RPQ_VERSION_NUMBER != RPQ_MAKE_VERSION(RPQ_VERSION_MAJOR, RPQ_VERSION_MINOR, RPQ_VERSION_PATCH)
#error "RPQ_VERSION_NUMBER is not RPQ_MAKE_VERSION of the parts"
#endif
#if RPQ_MAKE_VERSION(1, 0, 0) <= RPQ_MAKE_VERSION(0, 999, 999) || RPQ_MAKE_VERSION(0, 2, 0) <= RPQ_MAKE_VERSION(0, 1, 999)
#error "RPQ_MAKE_VERSION does not order versions"
#endif

int main(void) {
    char parts[64];
    const char *text = rpq_version_string();
    static const double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    RpqPose at = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}, 1.0};
    RpqModel *model = NULL;
    RpqCollideResult *hits = rpq_collide_result_new();
    ContactPair own = {"program", FORMAT_VERSION};
    CollisionPair *none = NULL;
    int queue = MAX_QUEUE;

    /* The header's version is the library's. */
    ENSURE(rpq_version() == RPQ_VERSION_NUMBER);
    ENSURE(text != NULL && strcmp(text, RPQ_VERSION_STRING) == 0);
    snprintf(parts, sizeof parts, "%d.%d.%d", RPQ_VERSION_MAJOR, RPQ_VERSION_MINOR, RPQ_VERSION_PATCH);
    /* RPQ_VERSION_STRING is the parts, then perhaps a pre-release or build part. */
    ENSURE(strncmp(RPQ_VERSION_STRING, parts, strlen(parts)) == 0);
    ENSURE(strchr("-+", RPQ_VERSION_STRING[strlen(parts)]) != NULL); /* '\0' is in the set too */
    ENSURE(rpq_version() / 1000000u == (unsigned)RPQ_VERSION_MAJOR);
    ENSURE(rpq_version() / 1000u % 1000u == (unsigned)RPQ_VERSION_MINOR);
    ENSURE(rpq_version() % 1000u == (unsigned)RPQ_VERSION_PATCH);

    /* The native API works beside the program's own names. */
    ENSURE(hits != NULL);
    ENSURE_EQ_INT(rpq_model_build(tri, NULL, 1, &model), RPQ_OK);
    ENSURE_EQ_INT(rpq_collide(model, &at, model, &at, NULL, hits), RPQ_OK);
    ENSURE(rpq_collide_result_num_pairs(hits) == 1);
    {
        const RpqContactPair *pairs = rpq_collide_result_pairs(hits);
        ENSURE(pairs != NULL && pairs[0].id1 == 0 && pairs[0].id2 == 0);
    }
    ENSURE(strcmp(own.second, "own format 7") == 0 && queue == 3 && none == NULL);
    rpq_collide_result_free(hits);
    rpq_model_free(model);
    return ENSURE_SUMMARY("own_names");
}
