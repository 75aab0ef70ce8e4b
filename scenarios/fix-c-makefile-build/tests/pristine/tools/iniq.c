/* iniq - query INI files from the command line. */
#include <stdio.h>
#include <string.h>

#include "ini.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: iniq --version\n"
            "       iniq FILE get SECTION KEY\n"
            "       iniq FILE sections\n"
            "       iniq FILE keys SECTION\n"
            "       iniq FILE stats SECTION\n");
}

int main(int argc, char **argv)
{
    ini_doc *doc;
    int err_line = 0;
    int status = 0;
    const char *cmd;

    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("iniq %s (libini %s)\n", INI_VERSION, ini_version());
        return 0;
    }
    if (argc < 3) {
        usage();
        return 64;
    }
    cmd = argv[2];
    doc = ini_load(argv[1], &err_line);
    if (!doc) {
        if (err_line)
            fprintf(stderr, "iniq: %s:%d: syntax error\n", argv[1], err_line);
        else
            perror(argv[1]);
        return 2;
    }

    if (strcmp(cmd, "get") == 0 && argc == 5) {
        const char *v = ini_get(doc, argv[3], argv[4]);
        if (v) {
            printf("%s\n", v);
        } else {
            fprintf(stderr, "iniq: %s.%s not found\n", argv[3], argv[4]);
            status = 1;
        }
    } else if (strcmp(cmd, "sections") == 0 && argc == 3) {
        size_t i;
        for (i = 0; i < ini_section_count(doc); i++)
            printf("%s\n", ini_section_name(doc, i));
    } else if (strcmp(cmd, "keys") == 0 && argc == 4) {
        size_t i, n = ini_key_count(doc, argv[3]);
        if (!ini_has_section(doc, argv[3])) {
            fprintf(stderr, "iniq: no section %s\n", argv[3]);
            status = 1;
        }
        for (i = 0; i < n; i++)
            printf("%s\n", ini_key_name(doc, argv[3], i));
    } else if (strcmp(cmd, "stats") == 0 && argc == 4) {
        ini_stats st;
        if (ini_section_stats(doc, argv[3], &st) != 0) {
            fprintf(stderr, "iniq: no section %s\n", argv[3]);
            status = 1;
        } else {
            printf("count=%zu sum=%.3f mean=%.3f stddev=%.3f min=%.3f max=%.3f\n",
                   st.count, st.sum, st.mean, st.stddev, st.min, st.max);
        }
    } else {
        usage();
        status = 64;
    }
    ini_free(doc);
    return status;
}
