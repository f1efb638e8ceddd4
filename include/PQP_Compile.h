/*
 * PQP_Compile.h -- rapidpqp's drop-in for PQP 1.3's compile-time settings. rapidpqp is
 * built for PQP's shipped defaults only: PQP_REAL is double and every bounding volume has
 * both an RSS and an OBB; do not change them.
 */
#ifndef PQP_COMPILE_H
#define PQP_COMPILE_H

typedef double PQP_REAL;

#define RSS_TYPE 1
#define OBB_TYPE 2

#define PQP_BV_TYPE RSS_TYPE | OBB_TYPE

#endif
