from string import Template

from .. import resources


def render_text(stats) -> str:
    tmpl = Template(resources.template("report.tmpl"))
    return tmpl.substitute(
        name=stats.name,
        sentences=stats.sentences,
        words=stats.words,
        syllables=stats.syllables,
        ease=f"{stats.reading_ease:.2f}",
        grade=f"{stats.grade_level:.2f}",
        top=", ".join(stats.top_words) or "-",
    )
