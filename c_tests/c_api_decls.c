/*
 * c_api_decls: the declarations of spec/C_API.md sections 1-3 (legacy RAPID, PQP and V-COLLIDE
 * 1.x), written out exactly
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

#if PQP_OK != 0 || PQP_ERR_MODEL_OUT_OF_MEMORY != -1 || PQP_ERR_OUT_OF_MEMORY != -2 ||          \
    PQP_ERR_UNPROCESSED_MODEL != -3 || PQP_ERR_BUILD_OUT_OF_SEQUENCE != -4 ||                     \
    PQP_ERR_BUILD_EMPTY_MODEL != -5 || PQP_ALL_CONTACTS != 1 || PQP_FIRST_CONTACT != 2
#error "PQP constants differ from PQP 1.3's values"
#endif

#if VC_OK != 1 || VC_ERR != -1 || VC_ERR_CALL_OUT_OF_SEQUENCE != -2 || VC_ERR_EMPTY_OBJECT != -3 || \
    VC_ERR_INVALID_ID != -4
#error "V-COLLIDE constants differ from V-COLLIDE 1.x's values"
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

PQP_Model *PQP_Model_new(void);
void PQP_Model_delete(PQP_Model *m);
int PQP_BeginModel(PQP_Model *m, int num_tris);
int PQP_AddTri(PQP_Model *m, const double p1[3], const double p2[3], const double p3[3], int id);
int PQP_EndModel(PQP_Model *m);
int PQP_MemUsage(PQP_Model *m, int msg);
int PQP_Collide(PQP_CollideResult *result, double R1[3][3], double T1[3], PQP_Model *o1,
                double R2[3][3], double T2[3], PQP_Model *o2, int flag);
int PQP_Distance(PQP_DistanceResult *result, double R1[3][3], double T1[3], PQP_Model *o1,
                 double R2[3][3], double T2[3], PQP_Model *o2, double rel_err, double abs_err,
                 int qsize);
int PQP_Tolerance(PQP_ToleranceResult *result, double R1[3][3], double T1[3], PQP_Model *o1,
                  double R2[3][3], double T2[3], PQP_Model *o2, double tolerance, int qsize);
void PQP_CollideResult_FreePairsList(PQP_CollideResult *result);

void *vcOpen(void);
void vcClose(void *vc_handle);
int vcNewObject(void *vc_handle, int *id);
int vcAddTri(void *vc_handle, double v1[], double v2[], double v3[]);
int vcEndObject(void *vc_handle);
int vcUpdateTrans(void *vc_handle, int id, double t[][4]);
int vcActivateObject(void *vc_handle, int id);
int vcDeactivateObject(void *vc_handle, int id);
int vcActivatePair(void *vc_handle, int id1, int id2);
int vcDeactivatePair(void *vc_handle, int id1, int id2);
int vcDeleteObject(void *vc_handle, int id);
int vcCollide(void *vc_handle);
int vcReport(void *vc_handle, int size, VCReportType *vcrep);

#ifdef __cplusplus
}
#endif

/* The pair layout: two ints, id1 then id2. */
typedef char collision_pair_is_two_ints[sizeof(struct collision_pair) == 2 * sizeof(int) ? 1 : -1];
/* PQP's result structs keep PQP 1.3's sizes (x86-64). */
typedef char pqp_collide_result_is_128[sizeof(PQP_CollideResult) == 128 ? 1 : -1];
typedef char pqp_distance_result_is_192[sizeof(PQP_DistanceResult) == 192 ? 1 : -1];
typedef char pqp_tolerance_result_is_192[sizeof(PQP_ToleranceResult) == 192 ? 1 : -1];
typedef char vc_report_type_is_two_ints[sizeof(VCReportType) == 2 * sizeof(int) ? 1 : -1];

int c_api_decls_use(void);
int c_api_decls_use(void) {
    struct collision_pair pair = {1, 2};
    collision_pair_is_two_ints check;
    pqp_collide_result_is_128 check_collide;
    pqp_distance_result_is_192 check_distance;
    pqp_tolerance_result_is_192 check_tolerance;
    vc_report_type_is_two_ints check_report;
    (void)check;
    (void)check_collide;
    (void)check_distance;
    (void)check_tolerance;
    (void)check_report;
    return pair.id1 + pair.id2;
}
