"""Access to the data files shipped with plainread."""
import os
from functools import lru_cache

DATA_DIR = os.path.join("src", "plainread", "data")
TEMPLATE_DIR = os.path.join("src", "plainread", "templates")


def _read(directory, name):
    with open(os.path.join(directory, name), encoding="utf-8") as fh:
        return fh.read()


def _lines(text):
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield line


@lru_cache(maxsize=None)
def syllable_overrides():
    """word -> syllable count, from data/syllable_overrides.txt"""
    table = {}
    for line in _lines(_read(DATA_DIR, "syllable_overrides.txt")):
        word, count = line.split()
        table[word.lower()] = int(count)
    return table


@lru_cache(maxsize=None)
def stopwords():
    return frozenset(w.lower() for w in _lines(_read(DATA_DIR, "stopwords.txt")))


@lru_cache(maxsize=None)
def template(name):
    return _read(TEMPLATE_DIR, name)
