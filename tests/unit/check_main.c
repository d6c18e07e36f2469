/* check_main.c: the one runner for all unit-test suites (libcheck).
 *
 * Builds an SRunner from the list in suites.def and runs it in libcheck's default fork
 * mode, so a crash fails one test rather than the run. CK_RUN_SUITE=ptx (or CK_RUN_CASE)
 * selects what runs. Exit status: 0 when every test passed, 1 otherwise.
 */
#include <stdlib.h>

#include "suites.h"

static Suite *(*const suite_makers[])(void) = {
#define SUITE(name) suite_##name,
#include "suites.def"
#undef SUITE
};

int main(void) {
  size_t i, n = sizeof suite_makers / sizeof suite_makers[0];
  SRunner *sr = srunner_create(suite_makers[0]());
  int failed;
  for (i = 1; i < n; i++) srunner_add_suite(sr, suite_makers[i]());
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
