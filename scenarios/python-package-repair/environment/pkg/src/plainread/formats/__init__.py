"""Output formats: name -> function(DocumentStats) -> str."""
from .json_format import render_json
from .text_format import render_text

FORMATTERS = {"text": render_text, "json": render_json}
