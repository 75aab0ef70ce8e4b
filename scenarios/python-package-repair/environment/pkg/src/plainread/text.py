"""Counting sentences, words and syllables."""
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import List

from . import resources

WORD_RE = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
SENTENCE_END_RE = re.compile(r"[.!?]+(?=\s|$)")
VOWEL_GROUP_RE = re.compile(r"[aeiouy]+")


def count_syllables(word: str) -> int:
    w = word.lower()
    overrides = resources.syllable_overrides()
    if w in overrides:
        return overrides[w]
    w = w.replace("'", "")
    groups = len(VOWEL_GROUP_RE.findall(w))
    if w.endswith("e") and not w.endswith(("le", "ee", "ye")) and groups > 1:
        groups -= 1
    return max(1, groups)


def count_sentences(text: str) -> int:
    pieces = SENTENCE_END_RE.split(text)
    return sum(1 for p in pieces if WORD_RE.search(p))


@dataclass
class DocumentStats:
    name: str
    sentences: int
    words: int
    syllables: int
    top_words: List[str] = field(default_factory=list)

    @property
    def reading_ease(self) -> float:
        if not self.words or not self.sentences:
            return 0.0
        return round(206.835 - 1.015 * (self.words / self.sentences)
                     - 84.6 * (self.syllables / self.words), 2)

    @property
    def grade_level(self) -> float:
        if not self.words or not self.sentences:
            return 0.0
        return round(0.39 * (self.words / self.sentences)
                     + 11.8 * (self.syllables / self.words) - 15.59, 2)


def analyse(text: str, name: str = "<text>", top: int = 5) -> DocumentStats:
    words = WORD_RE.findall(text)
    stop = resources.stopwords()
    freq = Counter(w.lower() for w in words if w.lower() not in stop)
    ranked = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))
    return DocumentStats(
        name=name,
        sentences=count_sentences(text),
        words=len(words),
        syllables=sum(count_syllables(w) for w in words),
        top_words=[w for w, _ in ranked[:top]],
    )
