/*
 * interpose: the RAPID globals seen by a program linked against librapidpqp.so.
 *
 * Built the ordinary way (no -fPIC; as a PIE and with -no-pie), this program reaches
 * RAPID_num_contacts and the other globals through copy relocations: the executable holds its
 * own copy of each, and the shared library must read and write that copy (ELF symbol
 * interposition, C_API.md section 1). A library that binds its globals locally leaves the
 * program reading 0 after every call.
 */
#include <stdio.h>

#include "rapidpqp.h"

#include "ensure.h"

int main(void) {
    const double a0[3] = {0, 0, 0}, a1[3] = {1, 0, 0}, a2[3] = {0, 1, 0};
    const double b0[3] = {0.25, 0.1, -0.5}, b1[3] = {0.25, 0.5, -0.5}, b2[3] = {0.25, 0.3, 0.5};
    double R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, T[3] = {0, 0, 0};
    RAPID_model *a = RAPID_model_new(), *b = RAPID_model_new();

    ENSURE(a != NULL && b != NULL);
    ENSURE_EQ_INT(RAPID_BeginModel(a), RAPID_OK);
    ENSURE_EQ_INT(RAPID_AddTri(a, a0, a1, a2, 3), RAPID_OK);
    ENSURE_EQ_INT(RAPID_EndModel(a), RAPID_OK);
    ENSURE_EQ_INT(RAPID_BeginModel(b), RAPID_OK);
    ENSURE_EQ_INT(RAPID_AddTri(b, b0, b1, b2, 8), RAPID_OK);
    ENSURE_EQ_INT(RAPID_EndModel(b), RAPID_OK);

    RAPID_num_contacts = -1; /* the library's writes must reach these copies */
    RAPID_num_box_tests = -1;
    ENSURE_EQ_INT(RAPID_Collide(R, T, a, R, T, b, RAPID_ALL_CONTACTS), RAPID_OK);
    ENSURE_EQ_INT(RAPID_num_contacts, 1);
    ENSURE(RAPID_num_box_tests >= 0); /* (one triangle each: no box test is needed) */
    ENSURE(RAPID_num_tri_tests > 0);
    ENSURE(RAPID_contact != NULL);
    if (RAPID_contact != NULL && RAPID_num_contacts == 1) {
        ENSURE_EQ_INT(RAPID_contact[0].id1, 3);
        ENSURE_EQ_INT(RAPID_contact[0].id2, 8);
    }

    RAPID_model_delete(a);
    RAPID_model_delete(b);
    return ENSURE_SUMMARY("interpose");
}
