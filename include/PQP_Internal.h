/*
 * PQP_Internal.h -- rapidpqp's drop-in for PQP 1.3's model and result classes, with their
 * original members and layouts (PQP_Model 48 bytes, PQP_CollideResult 128,
 * PQP_DistanceResult and PQP_ToleranceResult 192). Included by PQP.h; like PQP's, this file
 * has no include guard of its own.
 */

#include "Tri.h"
#include "BV.h"

class PQP_Model
{
public:

  /* 0 after construction, 1 once begun (BeginModel() or the first AddTri()), 2 once built
     (PQP's PQP_BUILD_STATE_EMPTY, _BEGUN, _PROCESSED). */
  int build_state;

  /* The triangles added so far, in the order they were added (PQP reordered them when
     building; rapidpqp leaves them in order). Owned by the library. */
  Tri *tris;
  int num_tris;
  int num_tris_alloced;

  /* rapidpqp: NULL and 0 -- the hierarchy is not exposed as a BV array. */
  BV *b;
  int num_bvs;
  int num_bvs_alloced;

  /* rapidpqp: the handle of the model (PQP kept its distance warm start here). */
  Tri *last_tri;

  BV *child(int n) { return &b[n]; }

  PQP_Model();
  ~PQP_Model();

  int BeginModel(int num_tris = 8); /* <= 0 means 8; -4 if the model was not empty */
  int AddTri(const PQP_REAL *p1, const PQP_REAL *p2, const PQP_REAL *p3,
             int id);
  int EndModel();
  int MemUsage(int msg); /* bytes used; with msg != 0 also printed to stderr */
};

struct CollisionPair
{
  int id1;
  int id2;
};

struct PQP_CollideResult
{
  /* work done and time taken by the last query */
  int num_bv_tests;
  int num_tri_tests;
  double query_time_secs;

  /* model 2's placement relative to model 1 */
  PQP_REAL R[3][3];
  PQP_REAL T[3];

  int num_pairs_alloced;
  int num_pairs;
  CollisionPair *pairs;  /* allocated by the library; freed by the destructor */

  void SizeTo(int n);
  void Add(int i1, int i2);

  PQP_CollideResult();
  ~PQP_CollideResult();

  /* work done and time taken by the last query */
  int NumBVTests() { return num_bv_tests; }
  int NumTriTests() { return num_tri_tests; }
  double QueryTimeSecs() { return query_time_secs; }

  /* Frees the pair array and sets the counts to 0 (queries otherwise reuse the array; the
     destructor frees it). */

  void FreePairsList();

  /* the pairs found */
  int Colliding() { return (num_pairs > 0); }
  int NumPairs() { return num_pairs; }
  int Id1(int k) { return pairs[k].id1; }
  int Id2(int k) { return pairs[k].id2; }
};

#if PQP_BV_TYPE & RSS_TYPE

struct PQP_DistanceResult
{
  /* work done and time taken by the last query */
  int num_bv_tests;
  int num_tri_tests;
  double query_time_secs;

  /* model 2's placement relative to model 1 */
  PQP_REAL R[3][3];
  PQP_REAL T[3];

  PQP_REAL rel_err;
  PQP_REAL abs_err;

  PQP_REAL distance;
  PQP_REAL p1[3];  /* closest point on model 1, in model 1's frame */
  PQP_REAL p2[3];  /* closest point on model 2, in model 2's frame */
  int qsize;

  /* work done and time taken by the last query */
  int NumBVTests() { return num_bv_tests; }
  int NumTriTests() { return num_tri_tests; }
  double QueryTimeSecs() { return query_time_secs; }

  /* The distance found (within the error bounds asked for) and its two points. */

  PQP_REAL Distance() { return distance; }
  const PQP_REAL *P1() { return p1; }
  const PQP_REAL *P2() { return p2; }
};

struct PQP_ToleranceResult
{
  /* work done and time taken by the last query */
  int num_bv_tests;
  int num_tri_tests;
  double query_time_secs;

  /* model 2's placement relative to model 1 */
  PQP_REAL R[3][3];
  PQP_REAL T[3];

  int closer_than_tolerance;
  PQP_REAL tolerance;

  PQP_REAL distance;  /* not closer: a lower bound of the distance (rapidpqp) */
  PQP_REAL p1[3];     /* not closer: NaN (rapidpqp) */
  PQP_REAL p2[3];
  int qsize;

  /* work done and time taken by the last query */
  int NumBVTests() { return num_bv_tests; }
  int NumTriTests() { return num_tri_tests; }
  double QueryTimeSecs() { return query_time_secs; }

  /* When closer: the distance of the pair found (<= tolerance) and its points. */

  PQP_REAL Distance() { return distance; }
  const PQP_REAL *P1() { return p1; }
  const PQP_REAL *P2() { return p2; }

  /* 1 when the models are at most tolerance apart, else 0. */

  int CloserThanTolerance() { return closer_than_tolerance; }
};

#endif
