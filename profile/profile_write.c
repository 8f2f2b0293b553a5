/*
 * profile_write.c: writing a kpath-profile/2 (schema in profile.h) as a
 * stream, straight from struct kp_profile: no whole-profile object tree.
 *
 * The bytes are compact JSON with one function per line:
 *
 *   {"schema":"kpath-profile/2","k":4,...,"functions":[
 *   {"name":"f","file":"a.c",...,"kipf":[{"id":6,"count":1,"children":[]}]},
 *   {"name":"g",...}
 *   ]}
 *
 * so that a profile stays readable by line tools (diff, grep) while the
 * write costs a pass over the data (issue 14: the jansson tree and its
 * pretty printing cost more than the profiled workload, and ten times the
 * forest in memory).  The data, keys and key order are those of the tree
 * writer it replaced (kept as the oracle of tests/profile/test_stream.c):
 * every object's keys in the order listed in profile.h, IDs above
 * INT64_MAX as decimal strings, strings escaped as jansson escapes them.
 * Memory beyond the profile: the output buffer, and for a function in
 * mode kiter, ppp or overlap its payload, which is small and still goes
 * through jansson (json_dump_callback) since it is a jansson object in
 * memory (profile_mode.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "profile_int.h"

/* The output: a buffer in front of the stdio stream (or, without one, of
 * a growing block of memory), so that the many small pieces cost a memcpy
 * each, not a locked stdio call. */
struct out {
	FILE *f;                    /* NULL: into mem */
	char *mem;                  /* malloc'd, memlen bytes used of memcap */
	size_t memlen, memcap;
	size_t n;                   /* bytes used in buf */
	int err;      /* errno of the first failure; the rest is skipped */
	int bad_utf8; /* a string that is not UTF-8 (jansson refused those too) */
	char buf[1 << 16];
};

/* An output in front of f (or of memory when f is NULL); NULL when out
 * of memory. */
static struct out *out_new(FILE *f)
{
	struct out *o = kp_malloc(sizeof *o);
	if (o) {
		o->f = f;
		o->mem = NULL;
		o->memlen = o->memcap = o->n = 0;
		o->err = o->bad_utf8 = 0;
	}
	return o;
}

static void sink(struct out *o, const char *s, size_t n)
{
	if (o->err || !n)
		return;
	if (o->f) {
		if (fwrite(s, 1, n, o->f) != n)
			o->err = errno ? errno : EIO;
		return;
	}
	if (n > o->memcap - o->memlen) {
		size_t cap = o->memcap ? o->memcap : 256;
		while (n > cap - o->memlen)
			cap *= 2;
		char *m = kp_realloc(o->mem, cap);
		if (!m) {
			o->err = ENOMEM;
			return;
		}
		o->mem = m;
		o->memcap = cap;
	}
	memcpy(o->mem + o->memlen, s, n);
	o->memlen += n;
}

static void flush(struct out *o)
{
	sink(o, o->buf, o->n);
	o->n = 0;
}

static inline void put(struct out *o, const char *s, size_t n)
{
	if (n > sizeof o->buf - o->n) {
		flush(o);
		if (n > sizeof o->buf) {
			sink(o, s, n);
			return;
		}
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

#define PUTS(o, lit) put((o), (lit), sizeof(lit) - 1)

static inline void putch(struct out *o, char c)
{
	if (o->n == sizeof o->buf)
		flush(o);
	o->buf[o->n++] = c;
}

/* "00" "01" ... "99": two digits of a number per table lookup and per
 * division by 100, instead of a division per digit (most numbers in a
 * profile are line numbers, IDs and counts of one to four digits). */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
				     "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
				     "8081828384858687888990919293949596979899";

/* v as a JSON integer at w (above INT64_MAX as a decimal string,
 * profile.h); returns the end.  w has room for 24 bytes.  Numbers below
 * 1,000,000 (nearly all: lines, also of 100,000-line amalgamations,
 * blocks, IDs, counts) are written straight, in 32-bit arithmetic; the
 * others are formed backwards in d, ending at d[24], and go out as one
 * fixed 24-byte copy (longer than any number, quotes included, so the copy
 * is a few moves), of which only the number counts.  (The five- and
 * six-digit lines of Duktape's and SQLite's amalgamations took that loop:
 * 246,338 of the numbers one Duktape run's profile holds, about 35
 * instructions each.) */
static char *fmt_big(char *w, uint64_t v)
{
	if (v < 1000000) {
		unsigned hi = (unsigned)v / 10000, lo = (unsigned)v % 10000, a = lo / 100, b = lo % 100;
		if (hi < 10) {
			*w++ = (char)('0' + hi);
		} else {
			memcpy(w, digit_pairs + 2 * hi, 2);
			w += 2;
		}
		memcpy(w, digit_pairs + 2 * a, 2);
		memcpy(w + 2, digit_pairs + 2 * b, 2);
		return w + 4;
	}
	char d[48];
	int i = 24, str = v > (uint64_t)INT64_MAX;
	d[24] = '"';
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		d[--i] = digit_pairs[2 * r + 1];
		d[--i] = digit_pairs[2 * r];
	}
	if (v >= 10) {
		d[--i] = digit_pairs[2 * v + 1];
		d[--i] = digit_pairs[2 * v];
	} else {
		d[--i] = (char)('0' + v);
	}
	if (str)
		d[--i] = '"';
	memcpy(w, d + i, 24);
	return w + (24 - i + str);
}

/* fmt_big's fast path, inline: the numbers below 10,000. */
static inline char *fmt_u64(char *w, uint64_t v)
{
	if (v < 10) {
		*w = (char)('0' + v);
		return w + 1;
	}
	if (v < 100) {
		memcpy(w, digit_pairs + 2 * v, 2);
		return w + 2;
	}
	if (v < 10000) {
		unsigned hi = (unsigned)v / 100, lo = (unsigned)v % 100;
		if (hi < 10) {
			*w++ = (char)('0' + hi);
		} else {
			memcpy(w, digit_pairs + 2 * hi, 2);
			w += 2;
		}
		memcpy(w, digit_pairs + 2 * lo, 2);
		return w + 2;
	}
	return fmt_big(w, v);
}

static inline void put_u64(struct out *o, uint64_t v)
{
	if (sizeof o->buf - o->n < 24)
		flush(o);
	o->n = (size_t)(fmt_u64(o->buf + o->n, v) - o->buf);
}

static void put_i64(struct out *o, int64_t v)
{
	if (v < 0) {
		char d[24];
		int n = snprintf(d, sizeof d, "%" PRId64, v);
		put(o, d, (size_t)n);
	} else {
		put_u64(o, (uint64_t)v);
	}
}

/* Length of the UTF-8 sequence at s (jansson's rules: no overlong forms,
 * no surrogates, at most U+10FFFF), 0 if there is none. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0], n, min, cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* The bytes a JSON string holds as they are (profile_int.h). */
const unsigned char kp_json_plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* s as a JSON string, escaped as jansson's dumper escapes it. */
static void put_str(struct out *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	putch(o, '"');
	while (*p) {
		const unsigned char *run = p;
		while (kp_json_plain[*p])
			p++;
		put(o, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		if (*p >= 0x80) {
			size_t n = utf8_len(p);
			if (!n) {
				o->bad_utf8 = 1;
				return;
			}
			put(o, (const char *)p, n);
			p += n;
			continue;
		}
		char esc[8];
		switch (*p) {
		case '"': PUTS(o, "\\\""); break;
		case '\\': PUTS(o, "\\\\"); break;
		case '\b': PUTS(o, "\\b"); break;
		case '\f': PUTS(o, "\\f"); break;
		case '\n': PUTS(o, "\\n"); break;
		case '\r': PUTS(o, "\\r"); break;
		case '\t': PUTS(o, "\\t"); break;
		default:
			snprintf(esc, sizeof esc, "\\u%04X", *p);
			put(o, esc, 6);
		}
		p++;
	}
	putch(o, '"');
}

/* "key": (with the comma before it unless first) */
static void put_key(struct out *o, const char *key, int first)
{
	if (!first)
		putch(o, ',');
	put_str(o, key);
	putch(o, ':');
}

static int dump_cb(const char *buf, size_t size, void *data)
{
	put(data, buf, size);
	return 0;
}

/* A jansson value, compact; 0 or -1 (out of memory in jansson). */
static int put_json(struct out *o, const json_t *v)
{
	return json_dump_callback(v, dump_cb, o, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* w, a position in o's buffer written through a local pointer (o->n is
 * behind it), with room for n more bytes: the bytes before w flushed
 * when there is not. */
static inline char *room(struct out *o, char *w, size_t n)
{
	if ((size_t)(o->buf + sizeof o->buf - w) >= n)
		return w;
	o->n = (size_t)(w - o->buf);
	flush(o);
	return o->buf;
}

/* The children of v at w, as the tree writer's nested "children" arrays;
 * returns the end (o->n is behind it until the caller stores it).  Depth
 * is at most k <= KP_KMAX once kp_profile_sort compacted the forest, so
 * the recursion is bounded.  Through a local pointer like put_cfg's
 * tuples: the room is checked before each node, for its opening bytes
 * (NODE_MAX: ',{"id":N,"count":N,"children":[', a number taking 24, the
 * fixed copy of fmt_big), and before each list's closing ']' and the '}'
 * after it. */
enum { NODE_MAX = 2 * 24 + 32 };
static char *put_nodes(struct out *o, char *w, const struct kp_ipf *t, uint32_t v)
{
	*w++ = '[';
	for (uint32_t c = t->nodes[v].first_child; c != KP_NONE; c = t->nodes[c].next_sibling) {
		w = room(o, w, NODE_MAX);
		if (c != t->nodes[v].first_child)
			*w++ = ',';
		memcpy(w, "{\"id\":", 6);
		w = fmt_u64(w + 6, t->nodes[c].id);
		memcpy(w, ",\"count\":", 9);
		w = fmt_u64(w + 9, t->nodes[c].count);
		memcpy(w, ",\"children\":", 12);
		w = put_nodes(o, w + 12, t, c);
		*w++ = '}';
	}
	w = room(o, w, 2); /* the ']' and the caller's '}' */
	*w++ = ']';
	return w;
}

static void put_forest(struct out *o, const struct kp_ipf *t, uint32_t v)
{
	if (sizeof o->buf - o->n < NODE_MAX)
		flush(o);
	o->n = (size_t)(put_nodes(o, o->buf + o->n, t, v) - o->buf);
}

static void put_paths(struct out *o, const struct kp_func *f)
{
	putch(o, '[');
	for (uint32_t i = 0; i < f->npaths; i++) {
		const struct kp_path *q = &f->paths[i];
		if (i)
			putch(o, ',');
		PUTS(o, "{\"id\":");
		put_u64(o, q->id);
		PUTS(o, ",\"lines\":[");
		for (uint32_t j = 0; j < q->nlines; j++) {
			if (j)
				putch(o, ',');
			put_u64(o, q->lines[j]);
		}
		putch(o, ']');
		if (q->last_lines) {
			PUTS(o, ",\"spans\":[");
			for (uint32_t j = 0; j < q->nlines; j++) {
				if (j)
					putch(o, ',');
				putch(o, '[');
				put_u64(o, q->lines[j]);
				putch(o, ',');
				put_u64(o, q->last_lines[j]);
				putch(o, ']');
			}
			putch(o, ']');
		}
		putch(o, '}');
	}
	putch(o, ']');
}

/* "cfg" (docs/profile-schema.md, read by profile_cfg.c): {"blocks":[[first,last]...],
 * "edges":[[src,dst,val]...]}.  Most of a short run's profile is these
 * graphs (every registered function's, run or not), so the tuples are
 * written through a local pointer with the room for one checked once. */
enum { TUPLE_MAX = 3 * 24 + 8 }; /* a tuple's bytes at most: three numbers, "[,,],"  */
static inline void put_cfg(struct out *o, const struct kp_cfg *c)
{
	if (c->json) { /* made by kp_cfg_json below: these very bytes */
		put(o, c->json, c->json_len);
		return;
	}
	PUTS(o, "{\"blocks\":[");
	char *w = o->buf + o->n;
	for (uint32_t b = 0; b < c->nblocks; b++) {
		w = room(o, w, TUPLE_MAX);
		*w++ = '[';
		w = fmt_u64(w, c->line[b]);
		*w++ = ',';
		w = fmt_u64(w, c->last_line[b]);
		*w++ = ']';
		*w++ = ',';
	}
	w -= c->nblocks > 0; /* the last comma */
	o->n = (size_t)(w - o->buf);
	PUTS(o, "],\"edges\":[");
	w = o->buf + o->n;
	for (uint32_t e = 0; e < c->nedges; e++) {
		w = room(o, w, TUPLE_MAX);
		*w++ = '[';
		w = fmt_u64(w, c->edges[e].src);
		*w++ = ',';
		w = fmt_u64(w, c->edges[e].dst);
		*w++ = ',';
		w = fmt_u64(w, c->edges[e].val);
		*w++ = ']';
		*w++ = ',';
	}
	w -= c->nedges > 0;
	o->n = (size_t)(w - o->buf);
	PUTS(o, "]}");
}

/* "mode" and the mode's payload, nested (profile_mode.c): 0, or -1 when
 * out of memory. */
static int put_mode(struct out *o, const struct kp_func *f)
{
	const char *mode = kp_func_mode(f);
	PUTS(o, ",\"mode\":");
	put_str(o, mode);
	if (!strcmp(mode, "kipf"))
		return 0;
	json_t *flat = f->kiter     ? json_incref((json_t *)f->kiter)
	               : f->overlap ? json_incref((json_t *)f->overlap)
	                            : kp_ppp_json(f);
	json_t *x = flat ? kp_payload_nest(flat, mode) : NULL;
	json_decref(flat);
	if (!x)
		return -1;
	put_key(o, mode, 0);
	int rc = put_json(o, x);
	json_decref(x);
	return rc;
}

static int put_func(struct out *o, const struct kp_func *f)
{
	PUTS(o, "\"name\":");
	put_str(o, f->name);
	PUTS(o, ",\"file\":");
	put_str(o, f->file);
	PUTS(o, ",\"line\":");
	put_u64(o, f->line);
	PUTS(o, ",\"checksum\":");
	put_str(o, f->checksum);
	PUTS(o, ",\"num_paths\":");
	put_u64(o, f->num_paths);
	PUTS(o, ",\"invalid_paths\":");
	put_u64(o, f->invalid_paths);
	PUTS(o, ",\"emitted\":");
	put_u64(o, f->emitted);
	if (f->source_hash[0]) {
		PUTS(o, ",\"source_hash\":");
		put_str(o, f->source_hash);
	}
	if (put_mode(o, f))
		return -1;
	PUTS(o, ",\"paths\":");
	put_paths(o, f);
	PUTS(o, ",\"kipf\":");
	put_forest(o, &f->ipf, 0);
	if (f->cfg.nblocks) { /* optional, last: docs/profile-schema.md */
		PUTS(o, ",\"cfg\":");
		put_cfg(o, &f->cfg);
	}
	return 0;
}

/* The head of the profile object, up to "functions":[ (profile.h). */
static void put_head(struct out *o, const struct kp_profile *p)
{
	PUTS(o, "\"schema\":");
	put_str(o, KP_SCHEMA);
	PUTS(o, ",\"k\":");
	put_u64(o, p->k);
	PUTS(o, ",\"runs\":");
	put_u64(o, p->runs);
	PUTS(o, ",\"dropped\":");
	put_u64(o, p->dropped);
	if (p->forked)
		PUTS(o, ",\"forked\":true");
	if (p->totals.runs || p->totals.threads) { /* read by profile_mode.c */
		PUTS(o, ",\"program\":{\"totals\":{\"runs\":");
		put_i64(o, (int64_t)p->totals.runs);
		PUTS(o, ",\"threads\":");
		put_i64(o, (int64_t)p->totals.threads);
		PUTS(o, "}}");
	}
	PUTS(o, ",\"functions\":[");
}

static void seterr(char *err, size_t errlen, const char *what, int e)
{
	if (err && errlen)
		snprintf(err, errlen, "%s%s%s", what, e ? ": " : "", e ? strerror(e) : "");
}

int kp_profile_write_file(void *stdio_file, struct kp_profile *p, char *err, size_t errlen)
{
	struct out *o = out_new(stdio_file);
	if (!o) {
		seterr(err, errlen, "out of memory while writing the profile", 0);
		return KP_ENOMEM;
	}
	kp_profile_sort(p);
	int nomem = 0;
	putch(o, '{');
	put_head(o, p);
	for (size_t i = 0; i < p->nfuncs && !nomem && !o->err && !o->bad_utf8; i++) {
		if (i)
			putch(o, ',');
		PUTS(o, "\n{");
		nomem = put_func(o, &p->funcs[i]) != 0;
		putch(o, '}');
	}
	PUTS(o, "\n]}\n");
	flush(o);
	int rc = 0;
	if (nomem) {
		seterr(err, errlen, "out of memory while writing the profile", 0);
		rc = KP_ENOMEM;
	} else if (o->bad_utf8) {
		seterr(err, errlen, "a function's name or file is not valid UTF-8", 0);
		rc = KP_ESCHEMA;
	} else if (o->err || ferror((FILE *)stdio_file)) {
		seterr(err, errlen, "write error", o->err ? o->err : EIO);
		rc = KP_EIO;
	}
	free(o);
	return rc;
}

static int fill_profile(void *f, void *p, char *why, size_t whylen)
{
	return kp_profile_write_file(f, p, why, whylen);
}

/* A profile made in memory may list a function twice (kp_profile_has_twins:
 * the runtime's snapshot of a program holding one source compiled twice,
 * kpath kipf's replay of its trace), and the reader refuses such a file
 * ("function listed twice"): the next run wrote NAME.PID.json instead.
 * The twins are added into one first, as accumulating does. */
int kp_profile_write_atomic(const char *path, struct kp_profile *p, char *err, size_t errlen)
{
	int twins, rc = kp_profile_has_twins(p, &twins);
	if (rc == 0 && twins) {
		struct kp_profile one;
		kp_profile_init(&one, p->k);
		if ((rc = kp_profile_merge_into(&one, p, err, errlen)) == 0)
			rc = kp_atomic_write(path, fill_profile, &one, err, errlen);
		kp_profile_free(&one);
		return rc;
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		return rc;
	}
	return kp_atomic_write(path, fill_profile, p, err, errlen);
}

/* c's bytes as put_cfg writes them, into c->json (kept until
 * kp_cfg_free). */
int kp_cfg_json(struct kp_cfg *c)
{
	if (c->json || !c->nblocks)
		return 0;
	struct out *o = out_new(NULL);
	if (!o)
		return KP_ENOMEM;
	put_cfg(o, c);
	flush(o);
	int rc = o->err ? KP_ENOMEM : 0;
	if (rc == 0) {
		c->json = o->mem;
		c->json_len = o->memlen;
	} else {
		free(o->mem);
	}
	free(o);
	return rc;
}
