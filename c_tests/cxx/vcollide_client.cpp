/*
 * vcollide_client: a V-COLLIDE 2.01 client written against include/VCollide.H only. Five unit
 * cubes (12 triangles each, tri_id = index in the cube) move through a fixed sequence of
 * frames (translations, one rotation, activation changes, a deletion); after each frame it
 * prints
 *
 *     frame F first N id1 id2 ...                     (Collide(&report), first contact)
 *     frame F all N id1 id2 T t1 t2 ... id1 id2 T ... (Collide(&report, VC_ALL_CONTACTS))
 *
 * which tests/cxx_compat.rs compares with a brute-force answer and with the legacy C API
 * (vcOpen ...) on the same input. Then the state machine and misuse rules of VCOLLIDE.md
 * section 4 are checked; the last line is "checks: N passed, M failed".
 */
#include <math.h>
#include <stdio.h>

#include "VCollide.H"

#include "check.h"

/* The 12 triangles of the unit cube [-0.5, 0.5]^3. */
static void add_cube(VCollide &vc)
{
  static const int quads[6][4] = {
    {0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
  double v[8][3];
  for (int k = 0; k < 8; k++)
    {
      v[k][0] = (k & 4) ? 0.5 : -0.5;
      v[k][1] = (k & 2) ? 0.5 : -0.5;
      v[k][2] = (k & 1) ? 0.5 : -0.5;
    }
  int t = 0;
  for (int f = 0; f < 6; f++)
    {
      vc.AddTri(v[quads[f][0]], v[quads[f][1]], v[quads[f][2]], t++);
      vc.AddTri(v[quads[f][0]], v[quads[f][2]], v[quads[f][3]], t++);
    }
}

static void translate(double m[4][4], double x, double y, double z)
{
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      m[i][j] = (i == j) ? 1.0 : 0.0;
  m[0][3] = x;
  m[1][3] = y;
  m[2][3] = z;
}

static void print_report(int frame, const char *what, VCReport &report, int with_tris)
{
  printf("frame %d %s %d", frame, what, report.numObjPairs());
  for (int k = 0; k < report.numObjPairs(); k++)
    {
      printf(" %d %d", report.obj1ID(k), report.obj2ID(k));
      if (with_tris)
        {
          printf(" %d", report.numTriPairs(k));
          for (int t = 0; t < report.numTriPairs(k); t++)
            printf(" %d %d", report.tri1ID(k, t), report.tri2ID(k, t));
        }
    }
  printf("\n");
}

int main()
{
  VCollide vc;
  int id[5];
  for (int i = 0; i < 5; i++)
    {
      CHECK_EQ(vc.NewObject(&id[i]), VC_OK);
      CHECK_EQ(id[i], i);
      add_cube(vc);
      CHECK_EQ(vc.EndObject(), VC_OK);
    }

  /* Cube i at x = 2i: apart. Frames move them (x, y, z per cube). */
  static const double frames[6][5][3] = {
    {{0, 0, 0}, {2, 0, 0}, {4, 0, 0}, {6, 0, 0}, {8, 0, 0}},
    {{0, 0, 0}, {0.9, 0, 0}, {4, 0, 0}, {6, 0, 0}, {8, 0, 0}},          /* 0-1 overlap */
    {{0, 0, 0}, {1.0, 0, 0}, {1.5, 0.5, 0}, {6, 0, 0}, {6.3, 0.2, 0.1}}, /* 0-1 touch */
    {{0, 0, 0}, {1.0000001, 0, 0}, {1.5, 0.5, 0}, {6, 0, 0}, {6.3, 0.2, 0.1}},
    {{0, 0, 0}, {0.2, 0.1, 0}, {0.3, 0.3, 0.3}, {0.1, 0, 0.9}, {6, 0, 0}},
    {{0, 0, 0}, {0.2, 0.1, 0}, {0.3, 0.3, 0.3}, {0.1, 0, 0.9}, {6, 0, 0}}};
  VCReport report;
  CHECK_EQ(report.numObjPairs(), 0);
  for (int f = 0; f < 6; f++)
    {
      for (int i = 0; i < 5; i++)
        {
          double m[4][4];
          translate(m, frames[f][i][0], frames[f][i][1], frames[f][i][2]);
          if (f == 5 && i == 2)
            {
              /* a quarter turn about z, plus junk in row 3 (never read) */
              m[0][0] = 0.0; m[0][1] = -1.0;
              m[1][0] = 1.0; m[1][1] = 0.0;
              m[3][0] = 99.0;
            }
          int rc = vc.UpdateTrans(id[i], m);
          if (!(f == 5 && i == 4))
            CHECK_EQ(rc, VC_OK);
        }
      if (f == 4)
        {
          CHECK_EQ(vc.DeactivateObject(3), VC_OK);
          CHECK_EQ(vc.DeactivatePair(2, 0), VC_OK);
        }
      if (f == 5)
        {
          CHECK_EQ(vc.ActivateObject(3), VC_OK);
          CHECK_EQ(vc.ActivatePair(0, 2), VC_OK);
          CHECK_EQ(vc.DeleteObject(4), VC_OK);
        }
      CHECK_EQ(vc.Collide(&report), VC_OK);
      print_report(f, "first", report, 0);
      if (report.numObjPairs() > 0)
        CHECK_EQ(report.numTriPairs(0), 0);
      CHECK_EQ(vc.Collide(&report, VC_ALL_CONTACTS), VC_OK);
      print_report(f, "all", report, 1);
    }

  /* ---------------------------------------------------------------------------------- */
  /* State machine and misuse (VCOLLIDE.md section 4.7), with rapidpqp's extra codes.    */
  {
    double m[4][4];
    translate(m, 0, 0, 0);
    double p[3] = {0, 0, 0}, q[3] = {1, 0, 0}, r[3] = {0, 1, 0};
    int fresh = -1;
    CHECK_EQ(vc.AddTri(p, q, r), VC_ERR_CALL_OUT_OF_SEQUENCE);
    CHECK_EQ(vc.EndObject(), VC_ERR_CALL_OUT_OF_SEQUENCE);
    CHECK_EQ(vc.UpdateTrans(1000, m), VC_ERR_INVALID_ID);
    CHECK_EQ(vc.UpdateTrans(-1, m), VC_ERR_INVALID_ID);
    CHECK_EQ(vc.UpdateTrans(4, m), VC_ERR_INVALID_ID); /* deleted */
    CHECK_EQ(vc.DeleteObject(4), VC_ERR_INVALID_ID);
    CHECK_EQ(vc.DeactivatePair(1, 1), VC_OK);
    CHECK_EQ(vc.NewObject(&fresh), VC_OK);
    CHECK_EQ(fresh, 5); /* ids are never reused */
    int other = -7;
    CHECK_EQ(vc.NewObject(&other), VC_ERR_CALL_OUT_OF_SEQUENCE);
    CHECK_EQ(other, -7);
    CHECK_EQ(vc.EndObject(), VC_ERR_EMPTY_OBJECT);
    CHECK_EQ(vc.Collide(&report), VC_ERR_CALL_OUT_OF_SEQUENCE);
    CHECK_EQ(vc.UpdateTrans(0, m), VC_ERR_CALL_OUT_OF_SEQUENCE);
    CHECK_EQ(vc.AddTri(p, q, r), VC_OK);
    CHECK_EQ(vc.EndObject(), VC_OK);
    m[0][0] = 2.0; /* a scaling: refused */
    CHECK_EQ(vc.UpdateTrans(0, m), VC_ERR_NOT_RIGID);
    m[0][0] = NAN;
    CHECK_EQ(vc.UpdateTrans(0, m), VC_ERR_NON_FINITE);
    CHECK_EQ(vc.Collide((VCReport *)0), VC_ERR_NULL_POINTER);
    /* Accessors outside the report. */
    CHECK_EQ(vc.Collide(&report, VC_ALL_CONTACTS), VC_OK);
    int n = report.numObjPairs();
    CHECK(n > 0);
    CHECK_EQ(report.obj1ID(n), VC_ERR_INVALID_INDEX);
    CHECK_EQ(report.obj2ID(-1), VC_ERR_INVALID_INDEX);
    CHECK_EQ(report.numTriPairs(n), VC_ERR_INVALID_INDEX);
    CHECK_EQ(report.tri1ID(0, report.numTriPairs(0)), VC_ERR_INVALID_INDEX);
    CHECK_EQ(report.tri2ID(n, 0), VC_ERR_INVALID_INDEX);
    {
      VCReport copy = report; /* shares the report */
      CHECK_EQ(copy.numObjPairs(), n);
    } /* frees it */
    CHECK_EQ(report.numObjPairs(), 0); /* the data died with the copy */
    CHECK_EQ(report.obj1ID(0), VC_ERR_INVALID_INDEX);
    CHECK_EQ(vc.Collide(&report), VC_OK);
    CHECK_EQ(report.numObjPairs(), n);
  } /* report destroyed twice (with the copy): harmless */
  {
    VCollide *engine = new VCollide;
    VCollide copy = *engine; /* shares the engine */
    delete engine;
    int x = -1;
    CHECK_EQ(copy.NewObject(&x), VC_ERR_INVALID_HANDLE);
  } /* the copy's destructor: harmless */

  return CHECK_SUMMARY();
}
