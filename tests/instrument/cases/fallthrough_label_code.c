/* Falling into "default: break;" (or a goto, or "case 2: ; }" at the end
 * of the switch) where the switch's own jump into that label carries
 * kpath's code: gcc -Wimplicit-fallthrough does not warn on the original,
 * but did on the instrumented file, whose code for the label came between
 * the label and its jump ("default: kp_r -= 1; break;", "case 2: ; kp_r +=
 * 4; }") while nothing marked the fall-through edge, which had no code of
 * its own (libxml2's xmlregexp.c, xmlFAGenerateTransitions: "case
 * XML_REGEXP_QUANT_RANGE: { ... } default: break;", and xmlschemas.c,
 * xmlSchemaCheckFacet).  Such a fall-through edge now gets kpath's marker
 * when kpath's code lies anywhere between the label and its jump, or the
 * end of the switch (cfgbuild/fallthrough.c, gcc_quiet_end; rewrite/place.c,
 * mark_fallthroughs).
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: f=4 g=5 h=8 */
#include <stdio.h>

static int f(int t, int u)
{
	int r = 0;
	switch (t) {
	case 0:
		r = 5;
		break;
	case 1: {
		if (u)
			r = 1;
		else
			r = 2;
	}
	default:
		break;
	}
	return r;
}

static int g(int t, int u)
{
	int r = 0;
	switch (t) {
	case 0:
		r = 5;
		break;
	case 1:
		if (u)
			r = 1;
		else
			r = 2;
	case 2:
		;
	}
	return r;
}

static int h(int t, int u)
{
	int r = 0;
	switch (t) {
	case 0:
		r = 5;
		break;
	case 1:
		if (u)
			r = 1;
		else if (t > u)
			r = 2;
	case 3:
	case 2:
		goto out;
	case 4:
		r = 7;
	}
	r++;
out:
	return r;
}

int main(void)
{
	for (int t = 0; t < 5; t++)
		printf("%d %d %d %d %d %d\n", f(t, 0), f(t, 1), g(t, 0), g(t, 1), h(t, 0), h(t, 1));
	return 0;
}
