// legacy_user.cpp: an unchanged RAPID 2 program, built against an installed rapidpqp by adding
// only `pkg-config --cflags --libs rapidpqp` (tests/install.rs). Two crossing triangles have
// one contact; moved apart, none. Exit status 0 when both answers are right.
#include <cstdio>

#include "RAPID.H"

int main() {
    double p1[3] = {0, 0, 0}, p2[3] = {1, 0, 0}, p3[3] = {0, 1, 0};
    double q1[3] = {0.2, 0.2, -1}, q2[3] = {0.2, 0.2, 1}, q3[3] = {1, 1, 0};
    RAPID_model a, b;
    a.BeginModel();
    a.AddTri(p1, p2, p3, 7);
    a.EndModel();
    b.BeginModel();
    b.AddTri(q1, q2, q3, 9);
    b.EndModel();

    double R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double T[3] = {0, 0, 0};
    double far[3] = {10, 0, 0};
    RAPID_Collide(R, T, &a, R, T, &b, RAPID_ALL_CONTACTS);
    int crossing = RAPID_num_contacts;
    int ids_ok = crossing == 1 && RAPID_contact[0].id1 == 7 && RAPID_contact[0].id2 == 9;
    RAPID_Collide(R, T, &a, R, far, &b, RAPID_ALL_CONTACTS);
    int apart = RAPID_num_contacts;

    std::printf("legacy_user: %d contact crossing (ids %s), %d apart\n", crossing, ids_ok ? "7 9" : "wrong", apart);
    return ids_ok && apart == 0 ? 0 : 1;
}
