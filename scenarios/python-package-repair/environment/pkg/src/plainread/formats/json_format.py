import json


def render_json(stats) -> str:
    return json.dumps({
        "name": stats.name,
        "sentences": stats.sentences,
        "words": stats.words,
        "syllables": stats.syllables,
        "reading_ease": stats.reading_ease,
        "grade_level": stats.grade_level,
        "top_words": stats.top_words,
    }, sort_keys=True) + "\n"
