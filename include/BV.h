/*
 * BV.h -- rapidpqp's drop-in for PQP 1.3's bounding volume (176 bytes): an RSS (rectangle
 * Tr + [0,l0] x [0,l1] swept by a sphere of radius r) and an OBB (centre To, half extents
 * d) sharing the rotation R. rapidpqp's models do not expose their hierarchy as a BV array
 * (PQP_Model::b is NULL); these declarations serve programs that use BVs themselves.
 */
#ifndef PQP_BV_H
#define PQP_BV_H

#include <math.h>
#include "Tri.h"
#include "PQP_Compile.h"

struct BV
{
  PQP_REAL R[3][3];     /* orientation: columns are the axes */
#if PQP_BV_TYPE & RSS_TYPE
  PQP_REAL Tr[3];       /* RSS rectangle corner */
  PQP_REAL l[2];        /* RSS rectangle side lengths */
  PQP_REAL r;           /* RSS radius */
#endif
#if PQP_BV_TYPE & OBB_TYPE
  PQP_REAL To[3];       /* OBB centre */
  PQP_REAL d[3];        /* OBB half extents */
#endif
  int first_child;      /* inner node: index of the first child; leaf: -(triangle + 1) */

  BV();
  ~BV();

  int Leaf() { return first_child < 0; }
  PQP_REAL GetSize();

  /* Fits the volume with axes O (columns) around the num_tris triangles at tris. */
  void FitToTris(PQP_REAL O[3][3], Tri *tris, int num_tris);
};

inline
PQP_REAL
BV::GetSize()
{
  return sqrt(l[0]*l[0] + l[1]*l[1]) + 2*r;
}

/* Whether the OBBs of b1 and b2 overlap, b2's box frame given in b1's by R, T. */
int
BV_Overlap(PQP_REAL R[3][3], PQP_REAL T[3], BV *b1, BV *b2);

#if PQP_BV_TYPE & RSS_TYPE
/* Distance between the RSSs b1 and b2 (0 when they overlap), b2's rectangle frame (origin
   at its corner Tr) given in b1's by R, T. */
PQP_REAL
BV_Distance(PQP_REAL R[3][3], PQP_REAL T[3], BV *b1, BV *b2);
#endif

#endif
