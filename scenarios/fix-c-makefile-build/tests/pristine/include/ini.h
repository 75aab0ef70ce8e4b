#ifndef INI_H
#define INI_H

#include <stddef.h>

#include "ini_version.h"

/* An in-memory INI document. */
typedef struct ini_doc ini_doc;

/* Summary of the numeric values of one section. */
typedef struct {
    size_t count;   /* number of values that parse completely as numbers */
    double sum;
    double mean;
    double stddev;  /* population standard deviation */
    double min;
    double max;
} ini_stats;

/*
 * Parse the INI file at `path`. On failure returns NULL and stores in
 * *err_line the 1-based line of the syntax error, or 0 if the file could not
 * be read. `err_line` may be NULL.
 */
ini_doc *ini_load(const char *path, int *err_line);
void ini_free(ini_doc *doc);

/* Value of `key` in `section`, or NULL. */
const char *ini_get(const ini_doc *doc, const char *section, const char *key);

/* 1 if the document has a section called `section`, else 0. */
int ini_has_section(const ini_doc *doc, const char *section);

/* Sections and keys, in the order they first appear in the file. */
size_t ini_section_count(const ini_doc *doc);
const char *ini_section_name(const ini_doc *doc, size_t index);
size_t ini_key_count(const ini_doc *doc, const char *section);
const char *ini_key_name(const ini_doc *doc, const char *section, size_t index);

/* Fill *out for `section`; returns 0, or -1 if the section does not exist. */
int ini_section_stats(const ini_doc *doc, const char *section, ini_stats *out);

/* Version of the library that was linked in. */
const char *ini_version(void);

#endif
