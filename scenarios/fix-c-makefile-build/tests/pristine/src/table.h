#ifndef INI_TABLE_H
#define INI_TABLE_H

#include <stddef.h>

typedef struct {
    char *key;
    char *value;
} tbl_entry;

typedef struct {
    char *name;
    tbl_entry *entries;
    size_t n, cap;
} tbl_section;

typedef struct {
    tbl_section *secs;
    size_t n, cap;
} tbl;

/* Find a section by name; create it (appended) when `create` is non-zero. */
tbl_section *tbl_section_get(tbl *t, const char *name, int create);
const tbl_section *tbl_section_find(const tbl *t, const char *name);

/* Set key=value; an existing key keeps its position. Returns 0 or -1. */
int tbl_set(tbl_section *s, const char *key, const char *value);
const char *tbl_lookup(const tbl_section *s, const char *key);

void tbl_free(tbl *t);

#endif
