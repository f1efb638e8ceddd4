/*
 * vcollide1x_client: a V-COLLIDE 1.x C++ program. rapidpqp ships only the 2.01 header, so the
 * class is declared here as V-COLLIDE 1.x's VCollide.H declares it (VCOLLIDE.md section 3:
 * same pointer-only layout, AddTri without a triangle id, Collide(void), Report): the object
 * file references the 1.x mangled names, which the library exports beside 2.01's. Prints
 *
 *     report N id1 id2 ...
 *
 * after each Collide(), then "checks: N passed, M failed".
 */
#include <stdio.h>

#include "check.h"

struct VCReportType
{
  int id1, id2;
};

class VCInternal;

class VCollide
{
  VCInternal *vcint;

public:
  VCollide();
  ~VCollide();
  int NewObject(int *id);
  int AddTri(double v1[3], double v2[3], double v3[3]);
  int EndObject(void);
  int UpdateTrans(int id, double t[4][4]);
  int ActivateObject(int id);
  int DeactivateObject(int id);
  int ActivatePair(int id1, int id2);
  int DeactivatePair(int id1, int id2);
  int DeleteObject(int id);
  int Collide(void);
  int Report(int size, VCReportType *vcrep);
};

static void print_report(VCollide &vc)
{
  VCReportType pairs[16];
  int n = vc.Report(16, pairs);
  printf("report %d", n);
  for (int k = 0; k < n && k < 16; k++)
    printf(" %d %d", pairs[k].id1, pairs[k].id2);
  printf("\n");
}

int main()
{
  VCollide vc;
  for (int i = 0; i < 3; i++)
    {
      int id = -1;
      double a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {0, 1, 0};
      CHECK_EQ(vc.NewObject(&id), 1);
      CHECK_EQ(id, i);
      CHECK_EQ(vc.AddTri(a, b, c), 1);
      CHECK_EQ(vc.EndObject(), 1);
    }
  /* Object 1 shifted by 0.25 along x overlaps object 0 (coplanar). */
  double m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  m[0][3] = 0.25;
  CHECK_EQ(vc.UpdateTrans(1, m), 1);
  /* Object 2 turned upright (y -> z) and moved so that it crosses object 1 (and object 0,
     but that pair is disabled). */
  double up[4][4] = {{1, 0, 0, 0.5}, {0, 0, -1, 0.2}, {0, 1, 0, -0.5}, {0, 0, 0, 1}};
  CHECK_EQ(vc.UpdateTrans(2, up), 1);
  CHECK_EQ(vc.DeactivatePair(0, 2), 1);
  CHECK_EQ(vc.Collide(), 1);
  CHECK_EQ(vc.Report(0, 0), 2);
  print_report(vc);
  CHECK_EQ(vc.DeactivateObject(1), 1);
  CHECK_EQ(vc.Collide(), 1);
  print_report(vc);
  CHECK_EQ(vc.ActivateObject(1), 1);
  CHECK_EQ(vc.ActivatePair(0, 2), 1);
  CHECK_EQ(vc.DeleteObject(2), 1);
  CHECK_EQ(vc.DeleteObject(2), -4);
  return CHECK_SUMMARY();
}
