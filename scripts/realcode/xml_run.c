/* xml_run: the expat workload of scripts/realcode-run.
 *
 * usage: xml_run FILE...
 * Parses each FILE with expat (lib/, from the npm package node-expat), in
 * chunks of 1,000 bytes, with namespace processing off and on, and prints
 * per file and mode the number of elements, attributes, character-data
 * bytes, comments, processing instructions and CDATA sections, the maximum
 * depth, and a hash of the event stream (names, attribute values, text);
 * a file that is not well-formed prints expat's error with its line and
 * column.  Nothing printed depends on addresses or time, so native and
 * instrumented builds print the same bytes. */
#include <stdio.h>
#include <string.h>
#include "expat.h"

struct tally {
	unsigned long elements, attributes, text, comments, pis, cdata;
	unsigned depth, max_depth;
	unsigned long hash;
};

static void mix(struct tally *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		t->hash = (t->hash ^ (unsigned char)s[i]) * 1099511628211ul;
	t->hash = (t->hash ^ 0xff) * 1099511628211ul;
}

static void XMLCALL on_start(void *u, const XML_Char *name, const XML_Char **atts)
{
	struct tally *t = u;
	t->elements++;
	if (++t->depth > t->max_depth)
		t->max_depth = t->depth;
	mix(t, name, strlen(name));
	for (; atts[0]; atts += 2) {
		t->attributes++;
		mix(t, atts[0], strlen(atts[0]));
		mix(t, atts[1], strlen(atts[1]));
	}
}

static void XMLCALL on_end(void *u, const XML_Char *name)
{
	struct tally *t = u;
	t->depth--;
	mix(t, name, strlen(name));
}

static void XMLCALL on_text(void *u, const XML_Char *s, int len)
{
	struct tally *t = u;
	t->text += (unsigned long)len;
	mix(t, s, (size_t)len);
}

static void XMLCALL on_comment(void *u, const XML_Char *s)
{
	struct tally *t = u;
	t->comments++;
	mix(t, s, strlen(s));
}

static void XMLCALL on_pi(void *u, const XML_Char *target, const XML_Char *data)
{
	struct tally *t = u;
	t->pis++;
	mix(t, target, strlen(target));
	mix(t, data, strlen(data));
}

static void XMLCALL on_cdata(void *u)
{
	((struct tally *)u)->cdata++;
}

static int run(const char *path, int ns)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("%s: cannot open\n", path);
		return 1;
	}
	XML_Parser p = ns ? XML_ParserCreateNS(NULL, '|') : XML_ParserCreate(NULL);
	struct tally t;
	memset(&t, 0, sizeof t);
	t.hash = 14695981039346656037ul;
	XML_SetUserData(p, &t);
	XML_SetElementHandler(p, on_start, on_end);
	XML_SetCharacterDataHandler(p, on_text);
	XML_SetCommentHandler(p, on_comment);
	XML_SetProcessingInstructionHandler(p, on_pi);
	XML_SetStartCdataSectionHandler(p, on_cdata);
	char buf[1000];
	int ok = 1;
	for (;;) {
		size_t n = fread(buf, 1, sizeof buf, f);
		int last = n < sizeof buf;
		if (XML_Parse(p, buf, (int)n, last) == XML_STATUS_ERROR) {
			printf("%s%s: line %lu column %lu: %s\n", path, ns ? " (ns)" : "",
			       (unsigned long)XML_GetCurrentLineNumber(p), (unsigned long)XML_GetCurrentColumnNumber(p),
			       XML_ErrorString(XML_GetErrorCode(p)));
			ok = 0;
			break;
		}
		if (last)
			break;
	}
	if (ok)
		printf("%s%s: %lu elements, %lu attributes, %lu text bytes, %lu comments, %lu pis, %lu cdata, "
		       "depth %u, hash %016lx\n",
		       path, ns ? " (ns)" : "", t.elements, t.attributes, t.text, t.comments, t.pis, t.cdata,
		       t.max_depth, t.hash);
	XML_ParserFree(p);
	fclose(f);
	return !ok;
}

int main(int argc, char **argv)
{
	int bad = 0;
	for (int i = 1; i < argc; i++)
		bad += run(argv[i], 0) + run(argv[i], 1);
	printf("%d of %d parses failed\n", bad, 2 * (argc - 1));
	return 0;
}
