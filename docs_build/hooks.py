"""MkDocs hooks (mkdocs.yml `hooks:`): generated pages, plots, formulas and verdicts.

- on_pre_build: runs the audit once, for the verdicts shown under claim fences; the build
  fails when a claim is not as expected (`unknown` and `error` included) or the audit
  gave no JSON.
- on_files: adds the generated closed-forms page, the PNG figures and the stylesheet
  (in memory, nothing is written into docs/), and, where mkdocs.yml has no `nav`,
  builds the nav from the pages present: known pages in reading order, then the others.
- on_page_markdown: annotates claim fences, then replaces `<!-- formula: SPEC -->`
  directives by MathML printed from the derivations (an unknown SPEC fails the build).
"""

import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # MkDocs loads this file by path, not as a package module
    sys.path.insert(0, str(ROOT))

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.structure.files import File  # noqa: E402

from docs_build import formulas, pages, plots, verdicts  # noqa: E402

log = logging.getLogger("mkdocs.hooks.ffnverify")

READING_ORDER = [
    "index.md", "closed-forms.md", "params.md", "flops.md", "widths.md", "activations.md",
    "gradients.md", "memory.md", "myths.md", "catalogue.md", "whole-models.md", "counters.md",
    "benchmarks.md",
]
CSS_PATH = "assets/ffnverify.css"
CSS = """
.md-typeset .formula { overflow-x: auto; margin: .8em 0; }
/* Material wraps each table in its own scroll box (.md-typeset__scrollwrap): a second
   one here would scroll by its negative margins alone */
.md-typeset .formula-table { overflow-x: visible; }
.md-typeset .formula-table table td { vertical-align: middle; }
.md-typeset .formula-table math { math-style: normal; }
.md-typeset .formula-table td:first-child { white-space: nowrap; }
.md-typeset .formula-table th code { white-space: nowrap; font-size: .75em; }
.md-typeset math { font-size: 1.08em; }
.md-typeset .claim-verdicts { margin: -.6em 0 1em; font-size: .68rem; overflow-x: auto; }
.md-typeset table.verdict-table { border-collapse: collapse; }
.md-typeset table.verdict-table td { padding: .05em .8em .05em 0; border: 0;
  vertical-align: top; }
.md-typeset table.verdict-table code { font-size: .95em; background: none; padding: 0; }
.md-typeset .verdict { border-radius: .3em; padding: 0 .4em; font-weight: 600; }
.md-typeset .v-true { background: #dafbe1; color: #116329; }
.md-typeset .v-false { background: #ffebe9; color: #a40e26; }
.md-typeset .v-unknown { background: #fff8c5; color: #7d4e00; }
.md-typeset .v-error { background: #f5e0ff; color: #6e2b99; }
.md-typeset .v-skipped { background: #eaeef2; color: #424a53; }
.md-typeset img.plot { max-width: 100%; }
/* Code blocks wrap instead of scrolling: each source line is its own block (mkdocs.yml:
   pymdownx.highlight line_spans), so a wrapped line continues under a hanging indent and
   one claim still reads as one line; the copy button copies the lines unwrapped */
.md-typeset pre > code { white-space: pre-wrap; overflow-wrap: anywhere; }
.md-typeset pre > code > span[id^="__span-"] { display: block; padding-left: 2em;
  text-indent: -2em; }
"""

_verdicts: dict[str, dict[int, dict]] = {}
MAX_SHOWN = 20  # misses listed in the build's error, then a count


def on_pre_build(config):
    global _verdicts
    index, message = verdicts.run_audit(config["docs_dir"], cwd=ROOT)
    if index is None:
        raise PluginError(message)
    log.info(message)
    missed = verdicts.misses(index)
    if missed:
        shown = "\n  ".join(missed[:MAX_SHOWN] + (
            [f"... and {len(missed) - MAX_SHOWN} more"] if len(missed) > MAX_SHOWN else []))
        raise PluginError(f"{len(missed)} claim(s) in the docs are not as expected:\n  {shown}")
    _verdicts = index


def nav_from(files) -> list:
    """Pages in reading order: the known ones first, the rest alphabetically."""
    present = sorted(f.src_uri for f in files.documentation_pages())
    known = [p for p in READING_ORDER if p in present]
    ordered = known + [p for p in present if p not in known]
    return [{"Home": p} if p == "index.md" else p for p in ordered]


def on_files(files, config):
    files.append(File.generated(config, pages.PAGE, content=pages.closed_forms_page()))
    for name in plots.PLOTS:
        files.append(File.generated(config, f"plots/{name}.png", content=plots.png(name)))
    files.append(File.generated(config, CSS_PATH, content=CSS))
    if not config["nav"]:
        config["nav"] = nav_from(files)
    return files


def on_page_markdown(markdown, page, config, files):
    markdown = verdicts.annotate(markdown, _verdicts.get(page.file.src_uri, {}))
    try:
        return formulas.expand_directives(markdown)
    except formulas.FormulaError as exc:
        raise PluginError(f"{page.file.src_uri}: {exc}") from exc
