"""plainread - readability statistics for plain-text documents."""

__version__ = "2.1.0"

from .text import DocumentStats, analyse  # noqa: E402

__all__ = ["DocumentStats", "analyse", "__version__"]
