#!/bin/bash
# Reference fix: rewrite the Makefile of /app/libini.
set -euo pipefail
cat > /app/libini/Makefile <<'EOF'
# libini - a tiny INI parser library (build/libini.a) and the iniq tool (build/iniq)

CC       ?= cc
CFLAGS   ?= -O2 -Wall -Wextra -std=c99
AR       ?= ar
ARFLAGS   = rcs
INSTALL  ?= install

PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR    = $(PREFIX)/bin
LIBDIR    = $(PREFIX)/lib
INCDIR    = $(PREFIX)/include

# Flags the build needs whatever the user puts in CFLAGS.
ALL_CPPFLAGS = -Iinclude $(CPPFLAGS)
DEPFLAGS     = -MMD -MP
LDLIBS_ALL   = $(LDLIBS) -lm

BUILD   = build
LIB     = $(BUILD)/libini.a
BIN     = $(BUILD)/iniq

LIB_SRCS = src/ini.c src/table.c src/strutil.c src/stats.c
LIB_OBJS = $(patsubst src/%.c,$(BUILD)/%.o,$(LIB_SRCS))
BIN_OBJS = $(BUILD)/iniq.o
DEPS     = $(LIB_OBJS:.o=.d) $(BIN_OBJS:.o=.d)

HEADERS  = include/ini.h include/ini_version.h

all: $(LIB) $(BIN)

$(BIN): $(BIN_OBJS) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BIN_OBJS) $(LIB) $(LDLIBS_ALL)

$(LIB): $(LIB_OBJS)
	rm -f $@
	$(AR) $(ARFLAGS) $@ $(LIB_OBJS)

$(BUILD)/%.o: src/%.c | $(BUILD)
	$(CC) $(ALL_CPPFLAGS) $(DEPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/%.o: tools/%.c | $(BUILD)
	$(CC) $(ALL_CPPFLAGS) $(DEPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD):
	mkdir -p $@

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)
	$(INSTALL) -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/iniq
	$(INSTALL) -m 0644 $(LIB) $(DESTDIR)$(LIBDIR)/libini.a
	$(INSTALL) -m 0644 $(HEADERS) $(DESTDIR)$(INCDIR)/

clean:
	rm -rf $(BUILD)

.PHONY: all install clean

-include $(DEPS)
EOF
