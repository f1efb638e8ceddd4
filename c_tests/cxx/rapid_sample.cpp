/*
 * rapid_sample: a RAPID 2.01 client in the style of RAPID's sample client, written against
 * include/RAPID.H only. Two tori (a = 1, b = 0.2, 50 x 50 quads, two triangles a quad, ids
 * 0..4999) collide at the sample client's placements; each call prints one line
 *
 *     collide LABEL rc box_tests tri_tests num_contacts id1 id2 id1 id2 ...
 *
 * (contacts in RAPID_contact order), which tests/cxx_compat.rs compares with RAPID's recorded
 * answers (tests/data/conformance/tori) and with the legacy C API on the same input. Then the
 * build-state and misuse rules of RAPID.md section 2 are checked, and the last line is
 * "checks: N passed, M failed" (exit status 1 on a failure).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "RAPID.H"

#include "check.h"

static const double PI = 3.14159265358979323846;

static void torus_point(double p[3], int i, int j)
{
  const double a = 1.0, b = 0.2;
  const int n1 = 50, n2 = 50;
  double u = (2.0 * PI * i) / n1;
  double v = (2.0 * PI * j) / n2;
  p[0] = (a - b * cos(v)) * cos(u);
  p[1] = (a - b * cos(v)) * sin(u);
  p[2] = b * sin(v);
}

static void add_torus(RAPID_model *m)
{
  int count = 0;
  for (int uc = 0; uc < 50; uc++)
    for (int vc = 0; vc < 50; vc++)
      {
        double p1[3], p2[3], p3[3], p4[3];
        torus_point(p1, uc, vc);
        torus_point(p2, uc + 1, vc);
        torus_point(p3, uc, vc + 1);
        torus_point(p4, uc + 1, vc + 1);
        m->AddTri(p1, p2, p3, count);
        m->AddTri(p4, p2, p3, count + 1);
        count += 2;
      }
}

static void print_result(const char *label, int rc)
{
  printf("collide %s %d %d %d %d", label, rc, RAPID_num_box_tests, RAPID_num_tri_tests,
         RAPID_num_contacts);
  for (int k = 0; k < RAPID_num_contacts; k++)
    printf(" %d %d", RAPID_contact[k].id1, RAPID_contact[k].id2);
  printf("\n");
}

static void identity(double R[3][3])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      R[i][j] = (i == j) ? 1.0 : 0.0;
}

int main()
{
  /* The sample client never calls BeginModel(); model 2 does, as most programs. */
  RAPID_model *b1 = new RAPID_model;
  RAPID_model *b2 = new RAPID_model;
  CHECK_EQ(b1->build_state, 0);
  CHECK_EQ(b2->BeginModel(), RAPID_OK);
  CHECK_EQ(b2->build_state, 1);
  add_torus(b1);
  add_torus(b2);
  CHECK_EQ(b1->num_tris, 5000);
  CHECK_EQ(b1->num_tris_alloced, 8192);
  CHECK_EQ(b1->EndModel(), RAPID_OK);
  CHECK_EQ(b2->EndModel(), RAPID_OK);
  CHECK_EQ(b1->build_state, 3);
  CHECK_EQ(b2->num_boxes_alloced, 10000);
  printf("model %d %d %d %d\n", b1->num_tris, b1->build_state, b1->num_tris_alloced,
         b1->num_boxes_alloced);

  double R1[3][3], R2[3][3], T1[3], T2[3];

  /* Placement 0: same orientation, model 1 shifted by 1 along x (heavy, touching overlap). */
  identity(R1);
  identity(R2);
  T1[0] = 1.0; T1[1] = 0.0; T1[2] = 0.0;
  T2[0] = 0.0; T2[1] = 0.0; T2[2] = 0.0;
  print_result("0", RAPID_Collide(R1, T1, b1, R2, T2, b2));

  /* Placement 1: model 1 turned 90 degrees about x: interlocked rings, no contact. */
  R1[1][1] = 0.0; R1[1][2] = -1.0;
  R1[2][1] = 1.0; R1[2][2] = 0.0;
  print_result("1", RAPID_Collide(R1, T1, b1, R2, T2, b2, RAPID_ALL_CONTACTS));

  /* Placement 2: the same, 1e-4 apart: many box tests, no contact. */
  T1[0] = 1.5999;
  print_result("2", RAPID_Collide(R1, T1, b1, R2, T2, b2));

  /* Placement 3: placement 0 again, first contact only. */
  identity(R1);
  T1[0] = 1.0;
  print_result("3", RAPID_Collide(R1, T1, b1, R2, T2, b2, RAPID_FIRST_CONTACT));

  /* The scaled overload: s = 1 is the unscaled call; s2 = 1.5 with model 1 moved. */
  print_result("s1", RAPID_Collide(R1, T1, 1.0, b1, R2, T2, 1.0, b2));
  T1[0] = 1.25;
  print_result("s2", RAPID_Collide(R1, T1, 1.0, b1, R2, T2, 1.5, b2, RAPID_ALL_CONTACTS));

  /* ---------------------------------------------------------------------------------- */
  /* Build states and misuse (RAPID.md section 2), with rapidpqp's extra codes.          */

  int contacts_before = RAPID_num_contacts;
  collision_pair *contact_before = RAPID_contact;
  {
    RAPID_model empty;
    double p[3] = {0, 0, 0}, q[3] = {1, 0, 0}, r[3] = {0, 1, 0};
    CHECK_EQ(empty.EndModel(), RAPID_ERR_BUILD_EMPTY_MODEL);
    CHECK_EQ(empty.build_state, 0);
    CHECK_EQ(empty.BeginModel(), RAPID_OK);
    CHECK_EQ(empty.BeginModel(), RAPID_ERR_BUILD_OUT_OF_SEQUENCE);
    CHECK_EQ(empty.build_state, 1);
    /* Unbuilt model: 3, and the globals keep the last call's values. */
    CHECK_EQ(RAPID_Collide(R1, T1, &empty, R2, T2, b2), RAPID_ERR_UNPROCESSED_MODEL);
    CHECK_EQ(RAPID_Collide(R1, T1, b1, R2, T2, &empty), RAPID_ERR_UNPROCESSED_MODEL);
    CHECK_EQ(RAPID_num_contacts, contacts_before);
    CHECK(RAPID_contact == contact_before);
    CHECK_EQ(empty.AddTri(p, q, r, 7), RAPID_OK);
    CHECK_EQ(empty.BeginModel(), RAPID_ERR_BUILD_OUT_OF_SEQUENCE); /* discards the triangle */
    CHECK_EQ(empty.num_tris, 0);
    CHECK_EQ(empty.AddTri(p, q, r, 7), RAPID_OK);
    CHECK_EQ(empty.EndModel(), RAPID_OK);
    CHECK_EQ(empty.AddTri(p, q, r, 8), RAPID_ERR_BUILD_OUT_OF_SEQUENCE);
    CHECK_EQ(empty.num_tris, 1);
    CHECK_EQ(empty.EndModel(), RAPID_OK); /* builds again */
    CHECK_EQ(empty.build_state, 3);
    CHECK_EQ(empty.BeginModel(), RAPID_OK);

    /* rapidpqp's codes for input RAPID never checked. */
    double nan_point[3] = {0, NAN, 0};
    CHECK_EQ(empty.AddTri(p, q, nan_point, 9), RAPID_ERR_NON_FINITE);
    CHECK_EQ(empty.AddTri(p, q, 0, 9), RAPID_ERR_NULL_POINTER);
    CHECK_EQ(empty.num_tris, 0);
    CHECK_EQ(RAPID_Collide(R1, T1, (RAPID_model *)0, R2, T2, b2), RAPID_ERR_NULL_POINTER);
    CHECK_EQ(RAPID_Collide(R1, T1, 0.0, b1, R2, T2, 1.0, b2), RAPID_ERR_INVALID_SCALE);
    T1[1] = INFINITY;
    CHECK_EQ(RAPID_Collide(R1, T1, b1, R2, T2, b2), RAPID_ERR_NON_FINITE);
    T1[1] = 0.0;
    CHECK_EQ(RAPID_num_contacts, contacts_before);
  }

  /* A copy shares the model; destroying both is harmless; the survivor is refused. */
  {
    RAPID_model *m = new RAPID_model;
    double p[3] = {0, 0, 0}, q[3] = {1, 0, 0}, r[3] = {0, 1, 0};
    CHECK_EQ(m->AddTri(p, q, r, 1), RAPID_OK);
    RAPID_model copy = *m;
    delete m;
    CHECK_EQ(copy.AddTri(p, q, r, 2), RAPID_ERR_INVALID_MODEL);
    CHECK_EQ(copy.EndModel(), RAPID_ERR_INVALID_MODEL);
  }

  /* Destroying, then building and colliding fresh models still works. */
  delete b1;
  delete b2;
  {
    RAPID_model x, y;
    double p[3] = {0, 0, 0}, q[3] = {1, 0, 0}, r[3] = {0, 1, 0};
    x.AddTri(p, q, r, 11);
    y.AddTri(p, q, r, 22);
    CHECK_EQ(x.EndModel(), RAPID_OK);
    CHECK_EQ(y.EndModel(), RAPID_OK);
    identity(R1);
    double T[3] = {0.25, 0.25, 0.0}, Z[3] = {0, 0, 0};
    CHECK_EQ(RAPID_Collide(R1, T, &x, R1, Z, &y), RAPID_OK);
    CHECK_EQ(RAPID_num_contacts, 1);
    CHECK_EQ(RAPID_contact[0].id1, 11);
    CHECK_EQ(RAPID_contact[0].id2, 22);
  }

  return CHECK_SUMMARY();
}
