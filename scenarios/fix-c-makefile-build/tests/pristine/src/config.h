#ifndef INI_CONFIG_H
#define INI_CONFIG_H

/* Longest accepted line, including the newline. */
#define INI_MAX_LINE 1024

/* 1: section and key names are compared case-insensitively. */
#define INI_FOLD_NAMES 1

#endif
