#include <math.h>

#include "ini.h"
#include "strutil.h"

int ini_section_stats(const ini_doc *doc, const char *section, ini_stats *out)
{
    size_t i, n;
    double sq = 0.0;

    out->count = 0;
    out->sum = out->mean = out->stddev = out->min = out->max = 0.0;
    if (!ini_has_section(doc, section))
        return -1;
    n = ini_key_count(doc, section);
    for (i = 0; i < n; i++) {
        double v;
        const char *value = ini_get(doc, section, ini_key_name(doc, section, i));
        if (!value || !su_parse_number(value, &v))
            continue;
        if (out->count == 0 || v < out->min)
            out->min = v;
        if (out->count == 0 || v > out->max)
            out->max = v;
        out->count++;
        out->sum += v;
    }
    if (out->count == 0)
        return 0;
    out->mean = out->sum / (double)out->count;
    for (i = 0; i < n; i++) {
        double v;
        const char *value = ini_get(doc, section, ini_key_name(doc, section, i));
        if (value && su_parse_number(value, &v))
            sq += (v - out->mean) * (v - out->mean);
    }
    out->stddev = sqrt(sq / (double)out->count);
    return 0;
}
