/*
 * layout: static_asserts on every size, alignment and offset that RAPID.md section 4,
 * PQP.md section 3 and VCOLLIDE.md section 7 record for the original libraries (x86-64,
 * LP64, Itanium C++ ABI), checked against include/RAPID.H, include/PQP.h and
 * include/VCollide.H. It only needs to compile (C++11); running it prints "layout ok".
 */
#include <stddef.h>
#include <stdio.h>

#include <type_traits>

#include "RAPID.H"
#include "PQP.h"
#include "VCollide.H"

#define SIZE(T, n, a) \
  static_assert(sizeof(T) == (n) && alignof(T) == (a), "size or alignment of " #T)
#define AT(T, f, o) static_assert(offsetof(T, f) == (o), "offset of " #T "::" #f)

/* RAPID.md section 4 */
SIZE(RAPID_model, 40, 8);
AT(RAPID_model, b, 0);
AT(RAPID_model, num_boxes_alloced, 8);
AT(RAPID_model, tris, 16);
AT(RAPID_model, num_tris, 24);
AT(RAPID_model, num_tris_alloced, 28);
AT(RAPID_model, build_state, 32);
static_assert(std::is_standard_layout<RAPID_model>::value, "RAPID_model is standard layout");
static_assert(!std::is_polymorphic<RAPID_model>::value, "RAPID_model has no vtable");
SIZE(collision_pair, 8, 4);
AT(collision_pair, id1, 0);
AT(collision_pair, id2, 4);

/* PQP.md section 3 */
SIZE(Tri, 80, 8);
AT(Tri, p1, 0);
AT(Tri, p2, 24);
AT(Tri, p3, 48);
AT(Tri, id, 72);
SIZE(BV, 176, 8);
AT(BV, R, 0);
AT(BV, Tr, 72);
AT(BV, l, 96);
AT(BV, r, 112);
AT(BV, To, 120);
AT(BV, d, 144);
AT(BV, first_child, 168);
SIZE(PQP_Model, 48, 8);
AT(PQP_Model, build_state, 0);
AT(PQP_Model, tris, 8);
AT(PQP_Model, num_tris, 16);
AT(PQP_Model, num_tris_alloced, 20);
AT(PQP_Model, b, 24);
AT(PQP_Model, num_bvs, 32);
AT(PQP_Model, num_bvs_alloced, 36);
AT(PQP_Model, last_tri, 40);
static_assert(!std::is_polymorphic<PQP_Model>::value, "PQP_Model has no vtable");
SIZE(CollisionPair, 8, 4);
AT(CollisionPair, id1, 0);
AT(CollisionPair, id2, 4);
SIZE(PQP_CollideResult, 128, 8);
AT(PQP_CollideResult, num_bv_tests, 0);
AT(PQP_CollideResult, num_tri_tests, 4);
AT(PQP_CollideResult, query_time_secs, 8);
AT(PQP_CollideResult, R, 16);
AT(PQP_CollideResult, T, 88);
AT(PQP_CollideResult, num_pairs_alloced, 112);
AT(PQP_CollideResult, num_pairs, 116);
AT(PQP_CollideResult, pairs, 120);
SIZE(PQP_DistanceResult, 192, 8);
AT(PQP_DistanceResult, num_bv_tests, 0);
AT(PQP_DistanceResult, num_tri_tests, 4);
AT(PQP_DistanceResult, query_time_secs, 8);
AT(PQP_DistanceResult, R, 16);
AT(PQP_DistanceResult, T, 88);
AT(PQP_DistanceResult, rel_err, 112);
AT(PQP_DistanceResult, abs_err, 120);
AT(PQP_DistanceResult, distance, 128);
AT(PQP_DistanceResult, p1, 136);
AT(PQP_DistanceResult, p2, 160);
AT(PQP_DistanceResult, qsize, 184);
static_assert(std::is_trivial<PQP_DistanceResult>::value, "PQP_DistanceResult is an aggregate");
SIZE(PQP_ToleranceResult, 192, 8);
AT(PQP_ToleranceResult, num_bv_tests, 0);
AT(PQP_ToleranceResult, num_tri_tests, 4);
AT(PQP_ToleranceResult, query_time_secs, 8);
AT(PQP_ToleranceResult, R, 16);
AT(PQP_ToleranceResult, T, 88);
AT(PQP_ToleranceResult, closer_than_tolerance, 112);
AT(PQP_ToleranceResult, tolerance, 120);
AT(PQP_ToleranceResult, distance, 128);
AT(PQP_ToleranceResult, p1, 136);
AT(PQP_ToleranceResult, p2, 160);
AT(PQP_ToleranceResult, qsize, 184);
static_assert(std::is_trivial<PQP_ToleranceResult>::value, "PQP_ToleranceResult is an aggregate");

/* VCOLLIDE.md section 7 (the members are private: sizes only; the Rust side asserts the
   offsets of its mirror types) */
SIZE(VCollide, 8, 8);
SIZE(VCReport, 16, 8);
static_assert(std::is_standard_layout<VCReport>::value, "VCReport is standard layout");
static_assert(!std::is_polymorphic<VCollide>::value, "VCollide has no vtable");

/* Constant values compiled into clients. */
static_assert(RAPID_OK == 0 && RAPID_ERR_MODEL_OUT_OF_MEMORY == 1 &&
              RAPID_ERR_COLLIDE_OUT_OF_MEMORY == 2 && RAPID_ERR_UNPROCESSED_MODEL == 3 &&
              RAPID_ERR_BUILD_OUT_OF_SEQUENCE == 4 && RAPID_ERR_BUILD_EMPTY_MODEL == 5 &&
              RAPID_ALL_CONTACTS == 1 && RAPID_FIRST_CONTACT == 2, "RAPID constants");
static_assert(PQP_OK == 0 && PQP_ERR_MODEL_OUT_OF_MEMORY == -1 && PQP_ERR_OUT_OF_MEMORY == -2 &&
              PQP_ERR_UNPROCESSED_MODEL == -3 && PQP_ERR_BUILD_OUT_OF_SEQUENCE == -4 &&
              PQP_ERR_BUILD_EMPTY_MODEL == -5 && PQP_ALL_CONTACTS == 1 &&
              PQP_FIRST_CONTACT == 2, "PQP constants");
static_assert(RSS_TYPE == 1 && OBB_TYPE == 2 && (PQP_BV_TYPE) == 3, "PQP_Compile.h");
#if !(PQP_BV_TYPE & RSS_TYPE) || !(PQP_BV_TYPE & OBB_TYPE)
#error "PQP_BV_TYPE must include RSS_TYPE and OBB_TYPE"
#endif
static_assert(std::is_same<PQP_REAL, double>::value, "PQP_REAL is double");
static_assert(VC_OK == 1 && VC_ERR == -1 && VC_ERR_CALL_OUT_OF_SEQUENCE == -2 &&
              VC_ERR_EMPTY_OBJECT == -3 && VC_ERR_INVALID_ID == -4 && VC_ALL_CONTACTS == 1 &&
              VC_FIRST_CONTACT == 2, "V-COLLIDE constants");

int main()
{
  printf("layout ok\n");
  return 0;
}
