/* kp_config.h: header for corpus/config_flags.c, found only through
 * "-I include" (relative to corpus/).  TABLE_SIZE must come from -D. */
#ifndef KP_CONFIG_H
#define KP_CONFIG_H

#ifndef TABLE_SIZE
#error "TABLE_SIZE must be defined on the command line (-DTABLE_SIZE=...)"
#endif

#define KP_MIX(h, v) (((h) * 31u) ^ (unsigned)(v))

struct kp_entry {
	const char *key;
	int value;
	int used;
};

/* A function defined in a header: it is not in the instrumented file's
 * main source, so the instrumenter may leave it alone. */
static inline unsigned kp_hash(const char *s)
{
	unsigned h = 5381u;
	while (*s)
		h = KP_MIX(h, *s++);
	return h;
}

#endif
