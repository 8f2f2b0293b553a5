/* sql_run: the SQLite workload of scripts/realcode-run.
 *
 * usage: sql_run SCRIPT.sql
 * Opens an in-memory database of the amalgamation (sqlite3.c, from the npm
 * package better-sqlite3), runs every statement of SCRIPT with
 * sqlite3_prepare_v2/sqlite3_step, and prints each result row as its
 * columns' text separated by '|', then the number of rows the statement
 * changed (when not zero).  An error is printed with the statement's text and ends the run
 * with status 1.  The script must not print anything that depends on time,
 * addresses or randomness, so that native and instrumented builds print the
 * same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include "sqlite3.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)len + 1)) != NULL) {
		if (fread(buf, 1, (size_t)len, f) == (size_t)len) {
			buf[len] = '\0';
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

/* Steps one prepared statement to completion, printing its rows. */
static int run_one(sqlite3 *db, sqlite3_stmt *st)
{
	int rc, cols = sqlite3_column_count(st);
	sqlite3_int64 before = sqlite3_total_changes64(db);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < cols; i++) {
			const unsigned char *v = sqlite3_column_text(st, i);
			printf("%s%s", i ? "|" : "", v ? (const char *)v : "NULL");
		}
		putchar('\n');
	}
	if (rc != SQLITE_DONE)
		return rc;
	if (sqlite3_total_changes64(db) != before)
		printf("-- %lld changed\n", (long long)(sqlite3_total_changes64(db) - before));
	return SQLITE_OK;
}

int main(int argc, char **argv)
{
	sqlite3 *db;
	char *sql = argc == 2 ? slurp(argv[1]) : NULL;
	const char *tail;
	int status = 0;
	if (!sql) {
		fprintf(stderr, "usage: sql_run SCRIPT.sql (a readable file)\n");
		return 1;
	}
	if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
		fprintf(stderr, "sql_run: cannot open a database\n");
		return 1;
	}
	for (tail = sql; *tail && !status;) {
		sqlite3_stmt *st = NULL;
		const char *start = tail;
		if (sqlite3_prepare_v2(db, start, -1, &st, &tail) != SQLITE_OK ||
		    (st && run_one(db, st) != SQLITE_OK)) {
			printf("error: %s in: %.*s\n", sqlite3_errmsg(db), (int)(tail - start), start);
			status = 1;
		}
		sqlite3_finalize(st);
		if (!st && tail == start)
			break;
	}
	sqlite3_close(db);
	free(sql);
	return status;
}
