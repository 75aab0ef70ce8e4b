from plainread.text import analyse, count_sentences, count_syllables


def test_overrides_win_over_heuristic():
    assert count_syllables("recipe") == 3
    assert count_syllables("make") == 1


def test_sentences():
    assert count_sentences("One. Two! Three? 3.5 is a number") == 4


def test_stopwords_ignored():
    assert analyse("The cat and the hat. The cat sat.").top_words[:2] == ["cat", "hat"]
