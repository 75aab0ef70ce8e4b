#include "ini.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "strutil.h"
#include "table.h"

struct ini_doc {
    tbl table;
};

static void set_err(int *err_line, int value)
{
    if (err_line)
        *err_line = value;
}

ini_doc *ini_load(const char *path, int *err_line)
{
    char buf[INI_MAX_LINE];
    FILE *fp = fopen(path, "r");
    ini_doc *doc;
    tbl_section *current = NULL;
    int lineno = 0;

    set_err(err_line, 0);
    if (!fp)
        return NULL;
    doc = calloc(1, sizeof *doc);
    if (!doc) {
        fclose(fp);
        return NULL;
    }
    while (fgets(buf, sizeof buf, fp)) {
        char *line, *eq;
        size_t len = strlen(buf);

        lineno++;
        if (len == sizeof buf - 1 && buf[len - 1] != '\n' && !feof(fp))
            goto syntax_error; /* line too long */
        line = su_trim(buf);
        if (*line == '\0' || *line == ';' || *line == '#')
            continue;
        if (*line == '[') {
            char *close = strchr(line, ']');
            char *name;
            if (!close || close[1] != '\0')
                goto syntax_error;
            *close = '\0';
            name = su_trim(line + 1);
            if (*name == '\0')
                goto syntax_error;
            current = tbl_section_get(&doc->table, name, 1);
            if (!current)
                goto syntax_error;
            continue;
        }
        eq = strchr(line, '=');
        if (!eq || !current)
            goto syntax_error;
        *eq = '\0';
        if (*su_trim(line) == '\0')
            goto syntax_error;
        if (tbl_set(current, su_trim(line), su_trim(eq + 1)) != 0)
            goto syntax_error;
    }
    fclose(fp);
    return doc;

syntax_error:
    set_err(err_line, lineno);
    fclose(fp);
    ini_free(doc);
    return NULL;
}

void ini_free(ini_doc *doc)
{
    if (!doc)
        return;
    tbl_free(&doc->table);
    free(doc);
}

const char *ini_get(const ini_doc *doc, const char *section, const char *key)
{
    const tbl_section *s = tbl_section_find(&doc->table, section);

    return s ? tbl_lookup(s, key) : NULL;
}

int ini_has_section(const ini_doc *doc, const char *section)
{
    return tbl_section_find(&doc->table, section) != NULL;
}

size_t ini_section_count(const ini_doc *doc)
{
    return doc->table.n;
}

const char *ini_section_name(const ini_doc *doc, size_t index)
{
    return index < doc->table.n ? doc->table.secs[index].name : NULL;
}

size_t ini_key_count(const ini_doc *doc, const char *section)
{
    const tbl_section *s = tbl_section_find(&doc->table, section);

    return s ? s->n : 0;
}

const char *ini_key_name(const ini_doc *doc, const char *section, size_t index)
{
    const tbl_section *s = tbl_section_find(&doc->table, section);

    return (s && index < s->n) ? s->entries[index].key : NULL;
}

const char *ini_version(void)
{
    return INI_VERSION;
}
