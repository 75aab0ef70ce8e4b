"""Command line interface of plainread."""
import argparse
import sys

from .formats import FORMATTERS
from .text import analyse

VERSION = "2.0.0"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="plainread", description="Readability statistics")
    parser.add_argument("--version", action="version", version=f"plainread {VERSION}")
    parser.add_argument("--format", choices=sorted(FORMATTERS), default="text")
    parser.add_argument("files", nargs="+", metavar="FILE", help='text files ("-" for stdin)')
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    render = FORMATTERS[args.format]
    status = 0
    for path in args.files:
        try:
            if path == "-":
                text, name = sys.stdin.read(), "<stdin>"
            else:
                with open(path, encoding="utf-8") as fh:
                    text, name = fh.read(), path
        except OSError as exc:
            print(f"plainread: {path}: {exc.strerror}", file=sys.stderr)
            status = 1
            continue
        sys.stdout.write(render(analyse(text, name)))
    return status
