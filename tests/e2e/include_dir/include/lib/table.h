/* Rows of a table, without an include guard: src/table.c includes this
 * header once per definition of ROW (include_dir.sh, 8), as libiconv's
 * iconv.c includes aliases2.h three times; the #include below is seen once
 * per inclusion and must be redirected once in the copy. */
ROW(alpha, "alpha")
#include "lib/table_more.h"
ROW(gamma, "gamma")
