#include "table.h"

#include <stdlib.h>

#include "config.h"
#include "strutil.h"

const tbl_section *tbl_section_find(const tbl *t, const char *name)
{
    size_t i;

    for (i = 0; i < t->n; i++)
        if (su_equal(t->secs[i].name, name, INI_FOLD_NAMES))
            return &t->secs[i];
    return NULL;
}

tbl_section *tbl_section_get(tbl *t, const char *name, int create)
{
    tbl_section *s = (tbl_section *)tbl_section_find(t, name);

    if (s || !create)
        return s;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        tbl_section *grown = realloc(t->secs, cap * sizeof *grown);
        if (!grown)
            return NULL;
        t->secs = grown;
        t->cap = cap;
    }
    s = &t->secs[t->n];
    s->name = su_dup(name);
    if (!s->name)
        return NULL;
    s->entries = NULL;
    s->n = s->cap = 0;
    t->n++;
    return s;
}

const char *tbl_lookup(const tbl_section *s, const char *key)
{
    size_t i;

    for (i = 0; i < s->n; i++)
        if (su_equal(s->entries[i].key, key, INI_FOLD_NAMES))
            return s->entries[i].value;
    return NULL;
}

int tbl_set(tbl_section *s, const char *key, const char *value)
{
    size_t i;
    char *v = su_dup(value);

    if (!v)
        return -1;
    for (i = 0; i < s->n; i++) {
        if (su_equal(s->entries[i].key, key, INI_FOLD_NAMES)) {
            free(s->entries[i].value);
            s->entries[i].value = v;
            return 0;
        }
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        tbl_entry *grown = realloc(s->entries, cap * sizeof *grown);
        if (!grown) {
            free(v);
            return -1;
        }
        s->entries = grown;
        s->cap = cap;
    }
    s->entries[s->n].key = su_dup(key);
    if (!s->entries[s->n].key) {
        free(v);
        return -1;
    }
    s->entries[s->n].value = v;
    s->n++;
    return 0;
}

void tbl_free(tbl *t)
{
    size_t i, j;

    for (i = 0; i < t->n; i++) {
        for (j = 0; j < t->secs[i].n; j++) {
            free(t->secs[i].entries[j].key);
            free(t->secs[i].entries[j].value);
        }
        free(t->secs[i].entries);
        free(t->secs[i].name);
    }
    free(t->secs);
    t->secs = NULL;
    t->n = t->cap = 0;
}
