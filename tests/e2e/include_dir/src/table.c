/* include/lib/table.h included three times, each with its own ROW
 * (include_dir.sh, 8) */
#include <stdio.h>

struct pool {
#define ROW(tag, name) char tag[sizeof(name)];
#include "lib/table.h"
#undef ROW
};

static const struct pool pool = {
#define ROW(tag, name) name,
#include "lib/table.h"
#undef ROW
};

static const unsigned offsets[] = {
#define ROW(tag, name) (unsigned)__builtin_offsetof(struct pool, tag),
#include "lib/table.h"
#undef ROW
};

int main(void)
{
	for (unsigned i = 0; i < sizeof offsets / sizeof offsets[0]; i++)
		printf("%u %s\n", offsets[i], (const char *)&pool + offsets[i]);
	return 0;
}
