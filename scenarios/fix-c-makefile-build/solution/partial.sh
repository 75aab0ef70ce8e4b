#!/bin/bash
# Plausible partial fix: the build, clean and install work, but objects only
# depend on their .c file, so editing a header does not rebuild anything.
set -euo pipefail
cat > /app/libini/Makefile <<'EOF'
CC      = cc
CFLAGS  = -O2 -Wall -Wextra -std=c99
CPPFLAGS = -Iinclude
AR      = ar
PREFIX  = /usr/local

BUILD   = build
LIB     = $(BUILD)/libini.a
BIN     = $(BUILD)/iniq

LIB_SRCS = src/ini.c src/table.c src/strutil.c src/stats.c
LIB_OBJS = $(patsubst src/%.c,$(BUILD)/%.o,$(LIB_SRCS))

all: $(LIB) $(BIN)

$(BIN): $(BUILD)/iniq.o $(LIB)
	$(CC) $(CFLAGS) -o $@ $(BUILD)/iniq.o $(LIB) -lm

$(LIB): $(LIB_OBJS)
	ar rcs $@ $^

$(BUILD)/%.o: src/%.c
	@mkdir -p $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/iniq.o: tools/iniq.c
	@mkdir -p $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/iniq
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libini.a
	install -m 644 include/ini.h include/ini_version.h $(DESTDIR)$(PREFIX)/include/

clean:
	rm -rf $(BUILD)

.PHONY: all install clean
EOF
