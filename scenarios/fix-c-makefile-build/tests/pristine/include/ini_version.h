#ifndef INI_VERSION_H
#define INI_VERSION_H

/* Release version of libini (and of the iniq tool built with it). */
#define INI_VERSION "1.4.2"

#endif
