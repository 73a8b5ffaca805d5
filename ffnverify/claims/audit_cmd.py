"""`ffnverify audit PATH... [--format text|json|sarif|github|html] [--output FILE]`.

Audits the claims in .md and .toml files or folders (SPEC §5). Exit 0: every verdict
matches its expectation; 1: some verdict does not; 2: an input error (a claim with
verdict `error`, an unreadable file, bad usage). Text output is coloured on a terminal;
a progress bar goes to stderr (on a terminal) when there are more than PROGRESS_FROM
claims to evaluate.
"""

import os
import sys

from ffnverify.claims import audit, report, report_html
from ffnverify.claims.budget import DEFAULT_TIMEOUT, Engine, default_jobs
from ffnverify.claims.files import collect

FORMATS = ("text", "json", "sarif", "github", "html")
PROGRESS_FROM = 300


def add_arguments(p):
    p.add_argument("paths", nargs="+", metavar="PATH", help=".md/.toml files or folders")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                   help=f"seconds per claim before it is `unknown` (default {DEFAULT_TIMEOUT})")
    p.add_argument("--jobs", type=int, default=None,
                   help="worker processes (default: 2 on a machine with 2+ cores)")
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help=f"progress bar on stderr (auto: on a terminal, over {PROGRESS_FROM} "
                        "claims)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")


class ProgressBar:
    def __init__(self, stream, width=30):
        self.stream, self.width, self.last = stream, width, -1

    def __call__(self, done, total):
        filled = self.width * done // max(total, 1)
        if filled == self.last and done != total:
            return
        self.last = filled
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\raudit [{bar}] {done}/{total}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def _render(fmt, result, colour):
    if fmt == "text":
        return report.text(result, colour)
    if fmt == "json":
        return report.json_report(result)
    if fmt == "sarif":
        return report.sarif(result)
    if fmt == "github":
        return report.github(result)
    return report_html.render(result)


def run(args) -> int:
    if args.timeout <= 0 or (args.jobs is not None and args.jobs < 1):
        print("ffnverify audit: --timeout and --jobs must be positive", file=sys.stderr)
        return 2
    claims = collect(args.paths)
    n_eval = sum(r is not None for r in audit.requests(claims))
    show = args.progress == "always" or (
        args.progress == "auto" and n_eval > PROGRESS_FROM and sys.stderr.isatty())
    progress = ProgressBar(sys.stderr) if show else None
    with Engine(timeout=args.timeout, jobs=args.jobs or default_jobs()) as engine:
        records = audit.check(claims, engine, progress=progress)
    result = audit.result_dict(records)
    to_tty = args.output is None and sys.stdout.isatty()
    colour = args.color == "always" or (
        args.color == "auto" and to_tty and "NO_COLOR" not in os.environ)
    out = _render(args.format, result, colour)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(out)
        except OSError as e:
            print(f"ffnverify audit: cannot write {args.output}: {e}", file=sys.stderr)
            return 2
        print(report.summary_line(result["summary"]), file=sys.stderr)
    else:
        sys.stdout.write(out)
    if not claims:
        print("ffnverify audit: no claims found", file=sys.stderr)
    return audit.exit_code(records)
