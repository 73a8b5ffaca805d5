"""`ffnverify scan PATH... [--format text|json|sarif|github|html] [--output FILE]
[--suggest FILE] [--strict]`.

Finds the numeric statements in Markdown, plain text, reStructuredText, HTML and notebook
documents, checks the ones it can read with the claims engine, and reports each one's
status (covered, checked, suggested, unchecked). Exit 0: no checked statement is false;
1: a checked statement is false (with --strict, also: a statement is unchecked); 2: input
errors or bad usage.
"""

import os
import sys

from ffnverify.claims.budget import DEFAULT_TIMEOUT, Engine, default_jobs, timeout_help
from ffnverify.cli.options import timeout_arg, workers_arg
from ffnverify.scan import report, suggest
from ffnverify.scan.scan import exit_code, scan

FORMATS = ("text", "json", "sarif", "github", "html")


def add_arguments(p):
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help=".md .txt .rst .html .ipynb files, or folders")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="report format (default text; github: workflow annotations)")
    p.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--suggest", metavar="FILE",
                   help="write the suggested and unchecked statements as a claim file to edit")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when any numeric statement is unchecked (for CI)")
    p.add_argument("--timeout", type=timeout_arg, default=DEFAULT_TIMEOUT,
                   metavar="CPU_SECONDS", help=timeout_help())
    p.add_argument("--jobs", type=workers_arg, default=None,
                   help="worker processes (default: 2 on a machine with 2+ cores)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the text report (auto: on a terminal, unless NO_COLOR is set)")


def _write(path, text) -> bool:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return True
    except OSError as e:
        print(f"ffnverify scan: cannot write {path}: {e}", file=sys.stderr)
        return False


def run(args) -> int:
    with Engine(timeout=args.timeout, jobs=args.jobs or default_jobs()) as engine:
        result = scan(args.paths, engine)
    to_tty = args.output is None and sys.stdout.isatty()
    colour = args.color == "always" or (
        args.color == "auto" and to_tty and "NO_COLOR" not in os.environ)
    out = report.RENDERERS[args.format](result, colour)
    if args.output:
        if not _write(args.output, out):
            return 2
        print(report.summary_line(result["summary"]), file=sys.stderr)
    else:
        sys.stdout.write(out)
    if args.suggest and not _write(args.suggest, suggest.render(result)):
        return 2
    return exit_code(result, args.strict)
