/* config_flags.c: needs compile flags after "--": a header found with
 * "-I include" and a macro from "-DTABLE_SIZE=13" (see corpus/FLAGS).
 * Open-addressing hash table with linear probing and deletion. */
#include <stdio.h>
#include <string.h>
#include "kp_config.h"

static struct kp_entry table[TABLE_SIZE];

static int put(const char *key, int value)
{
	unsigned i = kp_hash(key) % TABLE_SIZE;
	for (unsigned n = 0; n < TABLE_SIZE; n++, i = (i + 1) % TABLE_SIZE) {
		if (!table[i].used) {
			table[i].key = key;
			table[i].value = value;
			table[i].used = 1;
			return 1;
		}
		if (strcmp(table[i].key, key) == 0) {
			table[i].value = value;
			return 0;
		}
	}
	return -1;                      /* full */
}

static struct kp_entry *get(const char *key)
{
	unsigned i = kp_hash(key) % TABLE_SIZE;
	for (unsigned n = 0; n < TABLE_SIZE; n++, i = (i + 1) % TABLE_SIZE) {
		if (!table[i].used)
			return NULL;
		if (strcmp(table[i].key, key) == 0)
			return &table[i];
	}
	return NULL;
}

int main(void)
{
	static const char *const words[] = {
		"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
		"theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron",
		"pi", "beta", "eta", "rho",
	};
	int added = 0, updated = 0, full = 0;
	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		int r = put(words[w], (int)w);
		if (r > 0)
			added++;
		else if (r == 0)
			updated++;
		else
			full++;
	}
	printf("TABLE_SIZE=%d added=%d updated=%d full=%d\n", TABLE_SIZE,
	       added, updated, full);
	const char *probe[] = {"beta", "eta", "pi", "rho", "sigma", "alpha"};
	for (int p = 0; p < 6; p++) {
		struct kp_entry *e = get(probe[p]);
		if (e)
			printf("%s -> %d\n", probe[p], e->value);
		else
			printf("%s missing\n", probe[p]);
	}
	return 0;
}
