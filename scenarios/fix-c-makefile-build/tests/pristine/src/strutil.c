#include "strutil.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

char *su_trim(char *s)
{
    char *end;

    while (*s && isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    *end = '\0';
    return s;
}

int su_equal(const char *a, const char *b, int fold)
{
    if (!fold)
        return strcmp(a, b) == 0;
    while (*a && *b) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
        a++;
        b++;
    }
    return *a == *b;
}

char *su_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);

    if (copy)
        memcpy(copy, s, n);
    return copy;
}

int su_parse_number(const char *s, double *out)
{
    char *end;
    double v;

    if (*s == '\0')
        return 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0')
        return 0;
    *out = v;
    return 1;
}
