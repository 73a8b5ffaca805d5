"""`ffnverify audit PATH... [--format text|json|sarif|github|html] [-o FILE] [-q]`.

Audits the claims in .md and .toml files or folders (docs/architecture.md §5). Exit 0: every verdict
matches its expectation; 1: some verdict does not; 2: an input error (a claim with verdict
`error`, an unreadable file, bad usage) or no claims at all (unless --allow-empty: a
mistyped folder must not pass CI). Text output is coloured on a terminal; `--quiet`
prints only the claims that missed their expectation, and the summary. A progress bar
goes to stderr (on a terminal) when there are more than PROGRESS_FROM claims to evaluate.
Every name or text from the files is printed through `printable`, raw never.
"""

import os
import sys

from ffnverify.claims import audit, report, report_html
from ffnverify.claims.audit import is_input_error
from ffnverify.claims.budget import DEFAULT_TIMEOUT, Engine, default_jobs, timeout_help
from ffnverify.claims.files import collect
from ffnverify.claims.printable import fs_name, visible
from ffnverify.cli.options import timeout_arg, workers_arg

FORMATS = ("text", "json", "sarif", "github", "html")
PROGRESS_FROM = 300


def add_arguments(p):
    p.add_argument("paths", nargs="+", metavar="PATH", help=".md/.toml files or folders")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="report format (default text; github: workflow annotations)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the report here instead of stdout (the summary goes to stderr)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="text format: print only the claims that miss their expectation, "
                        "and the summary")
    p.add_argument("--allow-empty", action="store_true",
                   help="exit 0 when the paths hold no claims (default: exit 2, so a "
                        "mistyped folder fails)")
    p.add_argument("--timeout", type=timeout_arg, default=DEFAULT_TIMEOUT, metavar="CPU_SECONDS",
                   help=timeout_help())
    p.add_argument("--jobs", type=workers_arg, default=None,
                   help="worker processes (default: 2 on a machine with 2+ cores)")
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help=f"progress bar on stderr (auto: on a terminal, over {PROGRESS_FROM} "
                        "claims)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the text report (auto: on a terminal, unless NO_COLOR is set)")


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


def _render(fmt, result, colour, quiet=False):
    if fmt == "text":
        return report.text(result, colour, quiet=quiet)
    if fmt == "json":
        return report.json_report(result)
    if fmt == "sarif":
        return report.sarif(result)
    if fmt == "github":
        return report.github(result)
    return report_html.render(result)


def run(args) -> int:
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
    out = _render(args.format, result, colour, quiet=getattr(args, "quiet", False))
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(out)
        except OSError as e:
            print(f"ffnverify audit: cannot write {visible(fs_name(args.output))}: "
                  f"{e.strerror or e}", file=sys.stderr)
            return 2
        print(report.summary_line(result["summary"], sum(
            is_input_error(r) for r in result["claims"])), file=sys.stderr)
    else:
        sys.stdout.write(out)
    if not claims:
        where = " ".join(visible(fs_name(p)) for p in args.paths)
        if getattr(args, "allow_empty", False):
            print(f"ffnverify audit: no claims found in {where}", file=sys.stderr)
            return 0
        print(f"ffnverify audit: no claims found in {where} (--allow-empty accepts that)",
              file=sys.stderr)
        return 2
    return audit.exit_code(records)
