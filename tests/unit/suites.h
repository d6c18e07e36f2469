/* suites.h: declarations of every unit-test suite, generated from suites.def.
 *
 * Each tests/unit/check_<area>.c exports Suite *suite_<area>(void); adding a suite is one
 * line SUITE(area) in suites.def.
 */
#ifndef WARPLAB_TEST_SUITES_H
#define WARPLAB_TEST_SUITES_H

#include <check.h>

#define SUITE(name) Suite *suite_##name(void);
#include "suites.def"
#undef SUITE

#endif
