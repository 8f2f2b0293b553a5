/*
 * test_slice.c: the function-at-a-time reader (profile_json.c,
 * read_sliced, and profile_slice.c) against the whole-file jansson read,
 * its oracle (kp_read_whole_file).  The sliced reader may refuse a file it
 * could read (the whole-file read then reads it), but whenever it reads
 * one cleanly the result must be the whole-file read's: so on the profiles
 * given as arguments, each also rewritten by the writer (the form the
 * runtime reads back at exit), and on many mutations of them (bytes
 * flipped, deleted, doubled; numbers made huge, negative, real or quoted;
 * keys renamed, repeated, reordered; whitespace and escapes inserted), both
 * reads, plain and forced, must give the same return, the same message
 * and, when they read the file, profiles that write the same bytes.  The
 * writer's own output must be read without a fallback, and enough mutated
 * files must be read cleanly by the sliced reader (the comparison then
 * means something).  And the runtime's read of the file it accumulates
 * into (kp_profile_read_hint) copies a function's cfg from its new profile
 * only when name, file and checksum match and the bytes are the writer's
 * (cfg_copies).  Links the profile component alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile_int.h"

static int failures;
static unsigned long cases, clean_sliced;

#include "../check.h"

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16;
	char *b = malloc(cap);
	*n = 0;
	for (size_t got; b && (got = fread(b + *n, 1, cap - *n, f)) > 0;) {
		*n += got;
		if (*n == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	return b;
}

static void spit(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	fwrite(s, 1, n, f);
	fclose(f);
}

/* p written to memory (malloc'd, NUL-terminated), NULL on failure. */
static char *write_mem(struct kp_profile *p)
{
	char *s = NULL, err[256];
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	if (!f)
		return NULL;
	int rc = kp_profile_write_file(f, p, err, sizeof err);
	fclose(f);
	if (rc) {
		free(s);
		return NULL;
	}
	return s;
}

static const char *tmp;

/* The file [s, n) read both ways, plain and forced: the same outcome.
 * Whether the sliced reader read it (plain) without a fallback. */
static int compare(const char *s, size_t n, const char *what)
{
	int clean = 0;
	spit(tmp, s, n);
	for (int force = 0; force < 2; force++) {
		struct kp_profile a, b;
		char ea[512] = "", eb[512] = "";
		unsigned long before = kp_read_fallbacks;
		kp_read_whole_file = 0;
		int ra = kp_profile_read_opts(tmp, &a, force, ea, sizeof ea);
		int sliced = kp_read_fallbacks == before;
		kp_read_whole_file = 1;
		int rb = kp_profile_read_opts(tmp, &b, force, eb, sizeof eb);
		kp_read_whole_file = 0;
		CHECK(ra == rb && strcmp(ea, eb) == 0);
		if (ra != rb || strcmp(ea, eb))
			fprintf(stderr, "%s (force %d): sliced %d \"%s\", whole file %d \"%s\"\n", what, force, ra, ea,
				rb, eb);
		if (ra == rb && (ra == 0 || ra == KP_FORCED)) {
			char *wa = write_mem(&a), *wb = write_mem(&b);
			CHECK(wa && wb && strcmp(wa, wb) == 0);
			if (!(wa && wb && strcmp(wa, wb) == 0))
				fprintf(stderr, "%s (force %d): read differently\n", what, force);
			free(wa);
			free(wb);
		}
		if (!force)
			clean = sliced && ra == 0;
		kp_profile_free(&a);
		kp_profile_free(&b);
	}
	cases++;
	clean_sliced += clean;
	return clean;
}

static unsigned long long rng = 88172645463325252ull;
static unsigned pick(unsigned n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* A position in s, most often at a digit or a delimiter: where the sliced
 * reader's decisions are. */
static size_t spot(const char *s, size_t n)
{
	for (int tries = 0; tries < 8; tries++) {
		size_t i = pick((unsigned)n);
		if (strchr("0123456789\"{}[],:", s[i]))
			return i;
	}
	return pick((unsigned)n);
}

static const char *const pieces[] = {
	"0", "1", "7", "-1", "-0", "1.5", "1e3", "01", "\"3\"", "\"\"", "4294967296", "4294967295",
	"9223372036854775807", "9223372036854775808", "18446744073709551615", "99999999999999999999",
	" ", "\n", "\t", ",", ":", "[", "]", "{", "}", "[]", "{}", "\"", "\\", "\\u0041", "\\n", "null", "true",
	"\"id\":", "\"count\":", "\"children\":[]", "\"lines\":[1]", "\"spans\":[[1,1]]", "\"x\":1,", "\"cfg\":",
	"\"paths\":[],", "\"kipf\":[],", "\"mode\":\"kipf\",", "\"name\":\"f\",", "\xc3\xa9", "\xff", "\x01",
};

/* s with [i, j) replaced by piece[0, pl), malloc'd; *n becomes its length. */
static char *splice(const char *s, size_t *n, size_t i, size_t j, const char *piece, size_t pl)
{
	char *t = malloc(*n - (j - i) + pl + 1);
	memcpy(t, s, i);
	memcpy(t + i, piece, pl);
	memcpy(t + i + pl, s + j, *n - j);
	*n = *n - (j - i) + pl;
	return t;
}

/* base mutated once to three times, into *out (malloc'd). */
static char *mutate(const char *base, size_t n, size_t *outn)
{
	char *s = malloc(n + 1);
	memcpy(s, base, n);
	for (int k = 1 + pick(3); k > 0 && n > 2; k--) {
		size_t i = spot(s, n), j = i + 1 + pick(16);
		if (j > n)
			j = n;
		const char *piece = pieces[pick(sizeof pieces / sizeof *pieces)];
		size_t pl = strlen(piece);
		char *t;
		switch (pick(8)) {
		case 5: /* a digit for another: mostly a file that still reads */
		case 6:
			while (i < n && (s[i] < '0' || s[i] > '9'))
				i++;
			if (i < n)
				s[i] = (char)('0' + pick(10));
			continue;
		case 7: /* whitespace after a delimiter */
			piece = pick(2) ? " " : "\n\t";
			while (i < n && !strchr("{}[],:", s[i]))
				i++;
			i += i < n;
			t = splice(s, &n, i, i, piece, strlen(piece));
			break;
		case 0: /* replace [i, j) by a piece */
		case 1:
			j = i + 1 + pick(2);
			if (j > n)
				j = n;
			t = splice(s, &n, i, j, piece, pl);
			break;
		case 2: /* insert a piece */
			t = splice(s, &n, i, i, piece, pl);
			break;
		case 3: /* delete [i, j) */
			t = splice(s, &n, i, j, "", 0);
			break;
		default: /* double [i, j) (a repeated key or element, when it hits one) */
			t = splice(s, &n, j, j, s + i, j - i);
			break;
		}
		free(s);
		s = t;
	}
	*outn = n;
	return s;
}

/* A profile of one function f (a.c) with checksum sum, num_paths np and
 * the graph ENTRY -> 2 (lines 2..last) -> EXIT, the edge into 2 of val 2. */
static void one_func(struct kp_profile *p, const char *sum, uint64_t np, unsigned last)
{
	static const unsigned line[3] = { 0, 0, 2 };
	unsigned last_line[3] = { 0, 0, last };
	static const struct kpath_rt_edge edges[2] = { { 0, 2, 2 }, { 2, 1, 0 } };
	struct kp_dag dag = { 3, line, 2, edges, last_line };
	kp_profile_init(p, 1);
	struct kp_func *f = kp_profile_add_func(p, "f", "a.c", 2, sum, np);
	CHECK(f && kp_cfg_set(f, &dag) == 0);
}

/* kp_profile_read_hint (the runtime accumulating its new profile into the
 * file) takes a cfg from the hint instead of parsing it only when the
 * function has the same name, file and checksum there and the file's bytes
 * are exactly the writer's of the hint's cfg; its result is always
 * kp_profile_read's. */
static void cfg_copies(void)
{
	static const struct {
		const char *what, *sum;
		unsigned last;     /* the hint's last line of block 2 (the file's: 3) */
		uint64_t file_np;  /* the file's num_paths (the edge's val is 2) */
		int copied;
	} tc[] = {
		{ "same checksum, same graph", "0123456789abcdef", 3, 10, 1 },
		{ "another checksum, same graph", "fedcba9876543210", 3, 10, 0 },
		{ "same checksum, another graph", "0123456789abcdef", 4, 10, 0 },
		{ "same graph, a val the file's num_paths refuses", "0123456789abcdef", 3, 2, 0 },
	};
	for (size_t i = 0; i < sizeof tc / sizeof *tc; i++) {
		struct kp_profile file, hint, a, b;
		char ea[512] = "", eb[512] = "";
		one_func(&file, "0123456789abcdef", tc[i].file_np, 3);
		one_func(&hint, tc[i].sum, 10, tc[i].last);
		char *w = write_mem(&file);
		CHECK(w != NULL);
		spit(tmp, w ? w : "", w ? strlen(w) : 0);
		unsigned long copies = kp_read_cfg_copies;
		int ra = kp_profile_read_hint(tmp, &a, &hint, ea, sizeof ea);
		int copied = kp_read_cfg_copies != copies;
		int rb = kp_profile_read(tmp, &b, eb, sizeof eb);
		CHECK(copied == tc[i].copied);
		CHECK(ra == rb && strcmp(ea, eb) == 0);
		CHECK(tc[i].file_np == 10 ? ra == 0 : ra == KP_ESCHEMA);
		if (copied != tc[i].copied || ra != rb || strcmp(ea, eb))
			fprintf(stderr, "cfg copies, %s: copied %d, %d \"%s\" against %d \"%s\"\n", tc[i].what, copied,
				ra, ea, rb, eb);
		char *wa = ra == 0 ? write_mem(&a) : NULL, *wb = rb == 0 ? write_mem(&b) : NULL;
		CHECK(ra != 0 || (wa && wb && w && strcmp(wa, wb) == 0 && strcmp(wa, w) == 0));
		free(wa), free(wb), free(w);
		kp_profile_free(&a), kp_profile_free(&b), kp_profile_free(&file), kp_profile_free(&hint);
		cases++;
	}
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/kpath-test-slice.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 2;
	close(fd);
	tmp = path;
	cfg_copies();
	unsigned rounds = argc > 1 && !strncmp(argv[1], "--rounds=", 9) ? (unsigned)atoi(argv[1] + 9) : 400;
	for (int a = 1; a < argc; a++) {
		if (!strncmp(argv[a], "--rounds=", 9))
			continue;
		size_t n;
		char *orig = slurp(argv[a], &n);
		CHECK(orig != NULL);
		if (!orig)
			continue;
		/* the file as given, and as the writer writes it */
		struct kp_profile p;
		char err[512];
		compare(orig, n, argv[a]);
		int rc = kp_profile_read(argv[a], &p, err, sizeof err);
		CHECK(rc == 0);
		char *w = rc == 0 ? write_mem(&p) : NULL;
		kp_profile_free(&p);
		if (w)
			CHECK(compare(w, strlen(w), argv[a])); /* the writer's form is read sliced */
		/* the rules that depend on the head: a smaller k (a forest
		 * deeper than k), "forked" (counts not held to their parents') */
		const char *k = w ? strstr(w, "\"k\":") : NULL;
		for (int v = 0; k && v < 4; v++) {
			const char *rest = k + 4;
			while (*rest >= '0' && *rest <= '9')
				rest++;
			char *t = malloc(strlen(w) + 32);
			sprintf(t, "%.*s%s%s", (int)(k - w), w, v < 3 ? "" : "\"forked\":true,", v < 3 ? "" : "\"k\":");
			if (v < 3)
				sprintf(t + strlen(t), "\"k\":%d", v + 1);
			strcat(t, v < 3 ? rest : k + 4);
			compare(t, strlen(t), argv[a]);
			free(t);
		}
		const char *bases[2] = { orig, w };
		size_t lens[2] = { n, w ? strlen(w) : 0 };
		for (unsigned r = 0; r < rounds; r++) {
			int b = w ? (int)pick(2) : 0;
			size_t mn;
			char *m = mutate(bases[b], lens[b], &mn);
			char what[512];
			snprintf(what, sizeof what, "%s, mutation %u", argv[a], r);
			compare(m, mn, what);
			free(m);
		}
		free(orig);
		free(w);
	}
	unlink(path);
	fprintf(stderr, "test_slice: %lu cases, %lu read cleanly by the sliced reader, %d failures\n", cases,
		clean_sliced, failures);
	CHECK(cases > 0 && clean_sliced * 10 > cases); /* the comparison exercised the sliced reader */
	return failures ? 1 : 0;
}
