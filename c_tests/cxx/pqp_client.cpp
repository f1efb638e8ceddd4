/*
 * pqp_client: a PQP 1.3 client written against include/PQP.h only. The two tori of
 * rapid_sample (PQP_Model, ids 0..4999) at the first three placements of
 * tests/data/conformance/tori; per placement it prints
 *
 *     collide  LABEL rc bv_tests tri_tests num_pairs id1 id2 ...   (PQP_ALL_CONTACTS)
 *     first    LABEL rc bv_tests tri_tests num_pairs id1 id2 ...   (PQP_FIRST_CONTACT)
 *     distance LABEL rc bv_tests tri_tests distance p1x p1y p1z p2x p2y p2z
 *     tolerance LABEL rc bv_tests tri_tests closer distance
 *
 * (numbers with %.17g), which tests/cxx_compat.rs compares with PQP's recorded answers and
 * with the legacy C API on the same input. Then the model fields, PQP_CollideResult's
 * members, BV's functions and the misuse rules of PQP.md section 1 are checked; the last line
 * is "checks: N passed, M failed" (exit status 1 on a failure).
 */
#include <math.h>
#include <stdio.h>

#include "PQP.h"

#include "check.h"

static const double PI = 3.14159265358979323846;

static void torus_point(PQP_REAL p[3], int i, int j)
{
  const double a = 1.0, b = 0.2;
  double u = (2.0 * PI * i) / 50;
  double v = (2.0 * PI * j) / 50;
  p[0] = (a - b * cos(v)) * cos(u);
  p[1] = (a - b * cos(v)) * sin(u);
  p[2] = b * sin(v);
}

static void add_torus(PQP_Model *m)
{
  int count = 0;
  for (int uc = 0; uc < 50; uc++)
    for (int vc = 0; vc < 50; vc++)
      {
        PQP_REAL p1[3], p2[3], p3[3], p4[3];
        torus_point(p1, uc, vc);
        torus_point(p2, uc + 1, vc);
        torus_point(p3, uc, vc + 1);
        torus_point(p4, uc + 1, vc + 1);
        m->AddTri(p1, p2, p3, count);
        m->AddTri(p4, p2, p3, count + 1);
        count += 2;
      }
}

static void print_pairs(const char *what, const char *label, int rc, PQP_CollideResult &res)
{
  printf("%s %s %d %d %d %d", what, label, rc, res.NumBVTests(), res.NumTriTests(),
         res.NumPairs());
  for (int k = 0; k < res.NumPairs(); k++)
    printf(" %d %d", res.Id1(k), res.Id2(k));
  printf("\n");
}

static void identity(PQP_REAL R[3][3])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      R[i][j] = (i == j) ? 1.0 : 0.0;
}

int main()
{
  PQP_Model *m1 = new PQP_Model;
  PQP_Model *m2 = new PQP_Model;
  CHECK_EQ(m1->build_state, 0);
  CHECK_EQ(m2->BeginModel(), PQP_OK);
  CHECK_EQ(m2->num_tris_alloced, 8);
  add_torus(m1); /* AddTri begins the model itself */
  add_torus(m2);
  CHECK_EQ(m1->build_state, 1);
  CHECK_EQ(m1->num_tris, 5000);
  CHECK(m1->num_tris_alloced >= 5000);
  CHECK_EQ(m1->EndModel(), PQP_OK);
  CHECK_EQ(m2->EndModel(), PQP_OK);
  CHECK_EQ(m1->build_state, 2);
  CHECK_EQ(m1->num_tris_alloced, 5000);
  /* tris: the triangles as added, with their ids. */
  {
    PQP_REAL p[3];
    torus_point(p, 1, 1); /* triangle 2: quad (0, 1), corner p2 = grid point (1, 1) */
    CHECK_EQ(m1->tris[4999].id, 4999);
    CHECK(m1->tris[2].p2[0] == p[0] && m1->tris[2].p2[1] == p[1] && m1->tris[2].p2[2] == p[2]);
  }
  CHECK(m1->MemUsage(0) > 5000 * (int)sizeof(Tri));
  CHECK_EQ(m1->MemUsage(1), m1->MemUsage(0)); /* PQP printed a report; rapidpqp prints nothing */
  printf("model %d %d %d\n", m1->num_tris, m1->build_state, m1->num_tris_alloced);

  PQP_REAL R1[3][3], R2[3][3], T1[3], T2[3];
  identity(R1);
  identity(R2);
  T1[0] = 1.0; T1[1] = 0.0; T1[2] = 0.0;
  T2[0] = 0.0; T2[1] = 0.0; T2[2] = 0.0;

  PQP_CollideResult cres;
  PQP_DistanceResult dres;
  PQP_ToleranceResult tres;
  for (int pose = 0; pose < 3; pose++)
    {
      char label[8];
      sprintf(label, "%d", pose);
      if (pose == 1)
        {
          R1[1][1] = 0.0; R1[1][2] = -1.0;
          R1[2][1] = 1.0; R1[2][2] = 0.0;
        }
      if (pose == 2)
        T1[0] = 1.5999;

      int rc = PQP_Collide(&cres, R1, T1, m1, R2, T2, m2);
      print_pairs("collide", label, rc, cres);
      rc = PQP_Collide(&cres, R1, T1, m1, R2, T2, m2, PQP_FIRST_CONTACT);
      print_pairs("first", label, rc, cres);

      rc = PQP_Distance(&dres, R1, T1, m1, R2, T2, m2, 0.0, 0.0);
      const PQP_REAL *p1 = dres.P1(), *p2 = dres.P2();
      printf("distance %s %d %d %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", label, rc,
             dres.NumBVTests(), dres.NumTriTests(), dres.Distance(), p1[0], p1[1], p1[2],
             p2[0], p2[1], p2[2]);

      rc = PQP_Tolerance(&tres, R1, T1, m1, R2, T2, m2, 0.012000000000000002);
      printf("tolerance %s %d %d %d %d %.17g\n", label, rc, tres.NumBVTests(),
             tres.NumTriTests(), tres.CloserThanTolerance(), tres.Distance());
    }
  /* The queue search (qsize > 2) gives the same distance. */
  {
    PQP_DistanceResult q;
    CHECK_EQ(PQP_Distance(&q, R1, T1, m1, R2, T2, m2, 0.0, 0.0, 10), PQP_OK);
    CHECK_EQ(q.qsize, 10);
    CHECK(fabs(q.Distance() - dres.Distance()) <= 1e-12);
  }

  /* ---------------------------------------------------------------------------------- */
  /* PQP_CollideResult's own members.                                                    */
  {
    PQP_CollideResult r;
    CHECK_EQ(r.NumPairs(), 0);
    CHECK(!r.Colliding());
    for (int k = 0; k < 20; k++)
      r.Add(k, 100 + k);
    CHECK_EQ(r.NumPairs(), 20);
    CHECK_EQ(r.num_pairs_alloced, 24); /* 8, then 2 * 8 + 8 */
    CHECK_EQ(r.Id1(19), 19);
    CHECK_EQ(r.Id2(19), 119);
    r.SizeTo(5); /* smaller than num_pairs: refused (PQP also printed a message) */
    CHECK_EQ(r.num_pairs_alloced, 24);
    r.SizeTo(40);
    CHECK_EQ(r.num_pairs_alloced, 40);
    CHECK_EQ(r.Id2(3), 103);
    {
      PQP_CollideResult copy = r; /* shares the pair array */
      CHECK_EQ(copy.Id1(7), 7);
    } /* frees it: r's fields now name a dead array, which r must not read (inline
         accessors read the fields); its next member call or query treats it as empty */
    r.Add(1, 2);
    CHECK_EQ(r.NumPairs(), 1);
    CHECK_EQ(r.Id2(0), 2);
    r.FreePairsList();
    CHECK_EQ(r.NumPairs(), 0);
    CHECK(r.pairs == 0);
    CHECK_EQ(PQP_Collide(&r, R1, T1, m1, R2, T2, m2), PQP_OK);
  } /* destroyed twice (r and the copy): harmless */

  /* ---------------------------------------------------------------------------------- */
  /* BV.h                                                                                 */
  {
    PQP_REAL O[3][3];
    identity(O);
    Tri t[2];
    PQP_REAL corners[2][3][3] = {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{1, 1, 0}, {1, 0, 0}, {0, 1, 0}}};
    for (int k = 0; k < 2; k++)
      for (int i = 0; i < 3; i++)
        {
          t[k].p1[i] = corners[k][0][i];
          t[k].p2[i] = corners[k][1][i];
          t[k].p3[i] = corners[k][2][i];
          t[k].id = k;
        }
    BV a, b;
    CHECK_EQ(a.first_child, 0);
    CHECK(!a.Leaf());
    a.FitToTris(O, t, 2);
    b.FitToTris(O, t, 2);
    CHECK(fabs(a.d[0] - 0.5) < 1e-12 && fabs(a.d[1] - 0.5) < 1e-12 && a.d[2] < 1e-12);
    CHECK(fabs(a.To[0] - 0.5) < 1e-12 && fabs(a.To[1] - 0.5) < 1e-12);
    CHECK(fabs(a.GetSize() - sqrt(2.0)) < 1e-9);
    /* b's box 3 along x from a's: apart by 2; 1 along x: touching. */
    PQP_REAL Tb[3] = {3, 0, 0};
    CHECK_EQ(BV_Overlap(O, Tb, &a, &b), 0);
    Tb[0] = 1.0;
    CHECK_EQ(BV_Overlap(O, Tb, &a, &b), 1);
    /* RSS frames have their origin at the rectangle corner Tr. */
    Tb[0] = 3.0;
    CHECK(fabs(BV_Distance(O, Tb, &a, &b) - 2.0) < 1e-9);
  }

  /* ---------------------------------------------------------------------------------- */
  /* Misuse (PQP.md section 1.3), with rapidpqp's extra codes.                            */
  {
    PQP_Model m;
    PQP_REAL p[3] = {0, 0, 0}, q[3] = {1, 0, 0}, r[3] = {0, 1, 0};
    CHECK_EQ(m.EndModel(), PQP_ERR_BUILD_EMPTY_MODEL);
    CHECK_EQ(PQP_Collide(&cres, R1, T1, &m, R2, T2, m2), PQP_ERR_UNPROCESSED_MODEL);
    CHECK_EQ(m.AddTri(p, q, r, 1), PQP_OK);
    CHECK_EQ(m.BeginModel(0), PQP_ERR_BUILD_OUT_OF_SEQUENCE); /* restarted all the same */
    CHECK_EQ(m.num_tris, 0);
    CHECK_EQ(m.num_tris_alloced, 8);
    CHECK_EQ(m.AddTri(p, q, r, 1), PQP_OK);
    CHECK_EQ(m.EndModel(), PQP_OK);
    CHECK_EQ(m.EndModel(), PQP_ERR_BUILD_OUT_OF_SEQUENCE);
    CHECK_EQ(m.AddTri(p, q, r, 2), PQP_ERR_BUILD_OUT_OF_SEQUENCE);
    CHECK_EQ(m.num_tris, 1);
    CHECK_EQ(PQP_Distance(&dres, R1, T1, &m, R2, T2, m2, -1.0, 0.0), PQP_ERR_INVALID_ARGUMENT);
    CHECK_EQ(PQP_Collide((PQP_CollideResult *)0, R1, T1, &m, R2, T2, m2), PQP_ERR_NULL_POINTER);
    CHECK_EQ(PQP_Collide(&cres, R1, T1, (PQP_Model *)0, R2, T2, m2), PQP_ERR_NULL_POINTER);
    T1[2] = NAN;
    CHECK_EQ(PQP_Tolerance(&tres, R1, T1, &m, R2, T2, m2, 0.1), PQP_ERR_NON_FINITE);
    T1[2] = 0.0;
  }
  {
    PQP_Model *m = new PQP_Model;
    PQP_REAL p[3] = {0, 0, 0}, q[3] = {1, 0, 0}, r[3] = {0, 1, 0};
    m->AddTri(p, q, r, 1);
    PQP_Model copy = *m; /* shares the model */
    delete m;
    CHECK_EQ(copy.EndModel(), PQP_ERR_INVALID_MODEL);
    CHECK_EQ(PQP_Collide(&cres, R1, T1, &copy, R2, T2, m2), PQP_ERR_INVALID_MODEL);
  } /* the copy's destructor: harmless */

  delete m1;
  delete m2;
  return CHECK_SUMMARY();
}
