/*
 * c_api_decls: the declarations of spec/C_API.md section 1 (legacy RAPID), written out exactly
 * as the contract gives them, after including rapidpqp.h. Compiled (not run) as C99 and as C++:
 * a declaration the header spells differently (a const added to a parameter, another type)
 * is a "conflicting types" error in C and a C-linkage conflict in C++, so this file compiles
 * only while the header declares the contract's names with the contract's types.
 */
#include "rapidpqp.h"

/* `const double p1[3]` here against `const double *p1` in the header is the same type; GCC's
 * -Warray-parameter (in -Wall) would still flag the spelling. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Warray-parameter"
#endif

#if RAPID_OK != 0 || RAPID_ERR_MODEL_OUT_OF_MEMORY != 1 || RAPID_ERR_COLLIDE_OUT_OF_MEMORY != 2 || \
    RAPID_ERR_UNPROCESSED_MODEL != 3 || RAPID_ERR_BUILD_OUT_OF_SEQUENCE != 4 ||                   \
    RAPID_ERR_BUILD_EMPTY_MODEL != 5 || RAPID_ALL_CONTACTS != 1 || RAPID_FIRST_CONTACT != 2
#error "RAPID constants differ from RAPID 2.01's values"
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct collision_pair;

RAPID_model *RAPID_model_new(void);
void RAPID_model_delete(RAPID_model *m);
int RAPID_BeginModel(RAPID_model *m);
int RAPID_AddTri(RAPID_model *m, const double p1[3], const double p2[3], const double p3[3],
                 int id);
int RAPID_EndModel(RAPID_model *m);
int RAPID_Collide(double R1[3][3], double T1[3], RAPID_model *o1, double R2[3][3], double T2[3],
                  RAPID_model *o2, int flag);
int RAPID_CollideScaled(double R1[3][3], double T1[3], double s1, RAPID_model *o1,
                        double R2[3][3], double T2[3], double s2, RAPID_model *o2, int flag);

extern int RAPID_num_box_tests;
extern int RAPID_num_tri_tests;
extern int RAPID_num_contacts;
extern struct collision_pair *RAPID_contact;

#ifdef __cplusplus
}
#endif

/* The pair layout: two ints, id1 then id2. */
typedef char collision_pair_is_two_ints[sizeof(struct collision_pair) == 2 * sizeof(int) ? 1 : -1];

int c_api_decls_use(void);
int c_api_decls_use(void) {
    struct collision_pair pair = {1, 2};
    collision_pair_is_two_ints check;
    (void)check;
    return pair.id1 + pair.id2;
}
