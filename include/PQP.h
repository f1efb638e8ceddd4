/*
 * PQP.h -- rapidpqp's drop-in for the public header of PQP 1.3 (UNC).
 *
 * Declares PQP's classes, functions and constants with their original names, types,
 * default arguments and values, and the classes with their original sizes and member
 * layouts, so that programs written for PQP compile unchanged and object files compiled
 * against the original headers link against rapidpqp (librapidpqp.a or .so).
 *
 * Link: c++ prog.o /path/to/librapidpqp.a -lm -lpthread -ldl
 *   or: c++ prog.o -L/path/to -lrapidpqp
 *
 * Differences from PQP, all on purpose:
 *  - input PQP never checked (NULL pointers, NaN or infinite numbers, negative error
 *    bounds, a destroyed model) gets a new return code (-6..-10 below), nothing changed;
 *  - PQP_Model: `tris` keeps the triangles in the order they were added; `b` is NULL and
 *    num_bvs 0 (the hierarchy is not exposed); `last_tri` holds the model's handle;
 *  - destroying a copy (the implicit copy constructors share the model, or the pair array
 *    of a PQP_CollideResult) and then the original is harmless;
 *  - for intersecting models PQP_Distance gives a point of the intersection as both p1 and
 *    p2 (in their frames); a PQP_Tolerance that is not closer writes a lower bound of the
 *    distance and NaN points (PQP left stale values);
 *  - no C++ exception ever leaves the library: running out of memory aborts the process
 *    (where PQP's `new` threw std::bad_alloc), except in SizeTo()/Add(), which then leave
 *    the result unchanged.
 * The distance warm start is kept in the models, as in PQP: a model is not for concurrent
 * queries (the native rpq_* API of rapidpqp_native.h is, which may be included beside this
 * header). Include either this header or rapidpqp.h / rapidpqp_pqp.h (PQP's C form), not
 * both.
 */
#ifndef PQP_H
#define PQP_H

#include "PQP_Compile.h"
#include "PQP_Internal.h"

/* Return codes. */
const int PQP_OK = 0;
const int PQP_ERR_MODEL_OUT_OF_MEMORY = -1;
const int PQP_ERR_OUT_OF_MEMORY = -2;
const int PQP_ERR_UNPROCESSED_MODEL = -3;
const int PQP_ERR_BUILD_OUT_OF_SEQUENCE = -4;
const int PQP_ERR_BUILD_EMPTY_MODEL = -5;

/* rapidpqp only (PQP never returned these): a required pointer was NULL; a number was NaN
   or infinite; rel_err or abs_err negative or NaN; the model was destroyed; a bug. In
   every case nothing changed. */
const int PQP_ERR_NULL_POINTER = -6;
const int PQP_ERR_NON_FINITE = -7;
const int PQP_ERR_INVALID_ARGUMENT = -8;
const int PQP_ERR_INVALID_MODEL = -9;
const int PQP_ERR_INTERNAL = -10;
const int PQP_ERR_NOT_ROTATION = -11;
const int PQP_ERR_OUT_OF_RANGE = -12;

/* PQP_Collide flags: any value other than PQP_FIRST_CONTACT means all contacts. */
const int PQP_ALL_CONTACTS = 1;
const int PQP_FIRST_CONTACT = 2;

/* Model k's point p is placed at R_k p + T_k (R[i][j] row i, column j). Every result gets
   R = R1^T R2 and T = R1^T (T2 - T1). */
int
PQP_Collide(PQP_CollideResult *result,
            PQP_REAL R1[3][3], PQP_REAL T1[3], PQP_Model *o1,
            PQP_REAL R2[3][3], PQP_REAL T2[3], PQP_Model *o2,
            int flag = PQP_ALL_CONTACTS);

#if PQP_BV_TYPE & RSS_TYPE

/* The distance within the smaller of rel_err (relative) and abs_err (absolute); qsize <= 2
   searches depth first, more best first with a queue of qsize. */
int
PQP_Distance(PQP_DistanceResult *result,
             PQP_REAL R1[3][3], PQP_REAL T1[3], PQP_Model *o1,
             PQP_REAL R2[3][3], PQP_REAL T2[3], PQP_Model *o2,
             PQP_REAL rel_err, PQP_REAL abs_err,
             int qsize = 2);

/* Whether the models are at most tolerance apart (a negative tolerance counts as 0). */
int
PQP_Tolerance(PQP_ToleranceResult *res,
              PQP_REAL R1[3][3], PQP_REAL T1[3], PQP_Model *o1,
              PQP_REAL R2[3][3], PQP_REAL T2[3], PQP_Model *o2,
              PQP_REAL tolerance,
              int qsize = 2);

#endif

#endif
