#ifndef INI_STRUTIL_H
#define INI_STRUTIL_H

/* Trim ASCII whitespace in place; returns the start of the trimmed text. */
char *su_trim(char *s);

/* Compare two names, ignoring ASCII case when `fold` is non-zero. */
int su_equal(const char *a, const char *b, int fold);

/* malloc'd copy of s, or NULL. */
char *su_dup(const char *s);

/* Parse the whole of `s` as a number; returns 1 on success. */
int su_parse_number(const char *s, double *out);

#endif
