"""Reading claim files when something is wrong with the file rather than a claim: each case
is one error record, for the file as the report shows it (relative to the working
directory), at the position to look at (line 1, column 1 for the file as a whole; the
offending byte for text that is not UTF-8), with a message that says what is wrong; a
folder's walk says which subfolder it could not list, and goes on. (The language area's
full mutation run, issue 26, docs/mutation.md: these paths of `files.load`,
`files.collect`, `files._walk` and `files._load_safely` were reached by no selected test,
or only by one that read part of the message.)"""

import errno
import os
import signal
import stat
import sys

import pytest

from ffnverify.claims import files
from ffnverify.claims.files import collect, display_path, load, read_bounded, toml_claims
from ffnverify.claims.records import Claim

CLAIM_MD = "```claim\n1 == 1\n```\n"


def _error(file, message, line=1, col=1):
    """The one record of a file that cannot be read: exactly this, and nothing else."""
    return Claim(file, line, col, "", problem=message)


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------- one file


@pytest.mark.parametrize("name", ["notes.txt", "claims.MD", "claims", "claims.md.bak"])
def test_a_file_that_is_no_claim_file_is_one_error_saying_what_is_expected(cwd, name):
    (cwd / name).write_text(CLAIM_MD)
    assert load(cwd / name) == [_error(name, "not a claim file: expected a .md or .toml file")]


def test_a_claim_file_that_is_a_folder_is_one_error_saying_so(cwd):
    (cwd / "sub").mkdir()
    (cwd / "sub" / "claims.md").mkdir()
    assert load(cwd / "sub" / "claims.md") == [_error(
        "sub/claims.md", "not a regular file: this is a folder; only regular files are read")]


def test_a_claim_file_over_the_size_limit_is_one_error_with_both_sizes(cwd):
    path = cwd / "big.toml"
    with open(path, "wb") as f:  # sparse: no 4 MiB written
        f.truncate(files.MAX_FILE_BYTES + 1)
    assert load(path) == [_error(
        "big.toml", "file is 4,194,305 bytes; the limit is 4,194,304 bytes (4 MiB)")]


def test_a_dangling_link_is_one_error_saying_it_cannot_be_read(cwd):
    os.symlink(cwd / "gone.md", cwd / "link.md")
    [claim] = collect([cwd / "link.md"])  # a link exists, so it is read, not "no such file"
    assert (claim.line, claim.col, claim.problem) == (
        1, 1, "cannot read the file: No such file or directory")


@pytest.mark.parametrize("name,data,line,col", [
    ("a.md", b"ok\n\xff", 2, 1),
    ("a.md", b"ab\rcd\xffe", 2, 3),  # CommonMark ends a line at a lone \r too
    ("a.md", b"ab\r\ncd\xff", 2, 3),
    ("a.md", "\u00e9t\u00e9 \u2014 ".encode() + b"\xc3(", 1, 7),  # columns in characters
    ("a.toml", b'x = "ok"\n# \xfe', 2, 3),
    ("a.toml", b"ab\r\ncd\xff", 2, 3),
], ids=["md-lf", "md-cr", "md-crlf", "md-wide", "toml-lf", "toml-crlf"])  # bytes make no id
def test_text_that_is_not_utf8_is_one_error_at_the_offending_byte(cwd, name, data, line, col):
    (cwd / name).write_bytes(data)
    bad = data.index(b"\xff") if b"\xff" in data else data.index(b"\xfe") \
        if b"\xfe" in data else data.index(b"\xc3(")
    reason = "invalid continuation byte" if data.endswith(b"\xc3(") else "invalid start byte"
    assert load(name) == [_error(name, f"not UTF-8 text (byte {bad}: {reason})", line, col)]


def test_a_toml_file_counts_lines_as_the_toml_reader_does(cwd):
    # TOML ends a line at \n only: a lone \r is no line end there (the TOML reader's
    # syntax error for it is at line 1, column 7), unlike in Markdown; the byte after it
    # is line 1, column 8
    (cwd / "a.toml").write_bytes(b"ab = 1\r\xff")
    [syntax] = toml_claims("ab = 1\r@", "a.toml")
    assert (syntax.line, syntax.col) == (1, 7)
    assert load("a.toml") == [_error("a.toml", "not UTF-8 text (byte 7: invalid start byte)",
                                     1, 8)]


@pytest.mark.parametrize("name,text", [("a.md", CLAIM_MD),
                                       ("a.toml", '[[claim]]\nexpr = "1 == 1"\n')])
def test_each_claim_carries_its_file_as_the_report_shows_it(cwd, name, text):
    (cwd / "docs").mkdir()
    (cwd / "docs" / name).write_text(text)
    [claim] = load(cwd / "docs" / name)
    assert (claim.file, claim.id, claim.expr, claim.problem) == (
        f"docs/{name}", f"docs/{name}:2", "1 == 1", None)


def test_a_toml_file_named_explicitly_is_read_and_skipped_only_when_walked(cwd):
    (cwd / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert load("pyproject.toml") == [_error(
        "pyproject.toml",
        "unknown top-level key 'project'; a claim file holds [[claim]] tables only")]
    assert load("pyproject.toml", walked=True) == []
    assert collect([cwd]) == []


def test_a_file_that_exhausts_a_limit_while_read_is_one_error_naming_it(cwd, monkeypatch):
    # belt and braces behind the nesting limits: a reader that still runs out of stack or
    # memory costs its file, never the audit
    (cwd / "deep.md").write_text(CLAIM_MD)
    (cwd / "fine.toml").write_text('[[claim]]\nexpr = "2 == 2"\n')
    for error in (RecursionError, MemoryError):
        def exhausted(text, shown, error=error):
            raise error()
        monkeypatch.setattr(files, "markdown_claims", exhausted)
        first, second = collect([cwd / "deep.md", cwd / "fine.toml"])
        assert first == _error(
            "deep.md", f"this file cannot be read within the limits ({error.__name__})")
        assert (second.file, second.expr, second.problem) == ("fine.toml", "2 == 2", None)


# ---------------------------------------------------------------- paths and folders


def test_a_path_the_system_cannot_stat_is_one_error_and_the_next_path_is_read(cwd):
    long = "x" * 5000 + ".md"  # past NAME_MAX: stat raises ENAMETOOLONG
    (cwd / "ok.md").write_text(CLAIM_MD)
    first, second = collect([long, "ok.md", "missing.md"])[:2]
    assert first == _error(long, f"cannot read: {os.strerror(errno.ENAMETOOLONG)}")
    assert (second.file, second.expr) == ("ok.md", "1 == 1")
    assert collect(["missing.md"]) == [_error("missing.md", "no such file or folder")]


def test_a_subfolder_that_cannot_be_listed_is_one_error_and_the_rest_is_read(cwd, monkeypatch):
    for sub in ("a", "b", "c"):
        (cwd / "claims" / sub).mkdir(parents=True)
        (cwd / "claims" / sub / "x.md").write_text(CLAIM_MD)
    real = os.scandir

    def scandir(path):  # what a folder without read permission does (root reads all)
        if os.path.basename(path) == "b":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    got = collect([cwd / "claims"])
    assert [(c.file, c.expr) for c in got if not c.problem] == [
        ("claims/a/x.md", "1 == 1"), ("claims/c/x.md", "1 == 1")]
    assert [c for c in got if c.problem] == [
        _error("claims/b", f"cannot read the folder: {os.strerror(errno.EACCES)}")]


def test_a_folder_that_cannot_be_listed_without_a_name_is_reported_as_the_folder(
        cwd, monkeypatch):
    (cwd / "claims").mkdir()

    def scandir(path):
        raise OSError(errno.EIO, os.strerror(errno.EIO))  # no file name in the error

    monkeypatch.setattr(os, "scandir", scandir)
    assert collect([cwd / "claims"]) == [
        _error("claims", f"cannot read the folder: {os.strerror(errno.EIO)}")]


def test_a_walk_skips_hidden_build_and_egg_info_folders_and_reads_the_rest_sorted(cwd):
    for folder in (".git", "build", "node_modules", "ffnverify.egg-info", "z", "a",
                   "a/b", "Egg.EGG-INFO.d"):
        (cwd / folder).mkdir()
        (cwd / folder / "c.md").write_text(CLAIM_MD)
    (cwd / "top.toml").write_text('[[claim]]\nexpr = "1 == 1"\n')
    assert [c.file for c in collect([cwd])] == [
        "top.toml", "Egg.EGG-INFO.d/c.md", "a/c.md", "a/b/c.md", "z/c.md"]


def test_a_path_is_shown_relative_to_the_working_directory_and_as_given_outside_it(
        cwd, tmp_path_factory):
    (cwd / "d").mkdir()
    assert display_path(cwd / "d" / "x.md") == "d/x.md"
    assert display_path("d/../d/x.md") == "d/x.md"
    outside = tmp_path_factory.mktemp("elsewhere") / "x.md"
    assert display_path(outside) == outside.as_posix()
    assert display_path("../nowhere/x.md") == "../nowhere/x.md"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")
def test_a_name_that_is_not_utf8_is_shown_with_byte_escapes(cwd):
    name = os.fsdecode(b"caf\xe9.md")
    assert display_path(cwd / name) == "caf\\xe9.md"
    assert display_path("/nowhere/" + name) == "/nowhere/caf\\xe9.md"  # outside the cwd
    (cwd / name).write_text(CLAIM_MD)
    [claim] = collect([cwd])
    assert (claim.file, claim.expr) == ("caf\\xe9.md", "1 == 1")


# ---------------------------------------------------------------- a FIFO swapped in


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_fifo_swapped_in_after_the_check_is_refused_without_blocking(tmp_path, monkeypatch):
    # the file is checked (stat), then opened: a FIFO put in its place between the two
    # must neither block the open (no writer would ever come) nor be read
    fifo = tmp_path / "claims.md"
    os.mkfifo(fifo)
    regular = os.stat(tmp_path)
    looks_regular = os.stat_result((stat.S_IFREG | 0o644,) + tuple(regular)[1:6] + (10,)
                                   + tuple(regular)[7:10])
    real_stat = os.stat
    monkeypatch.setattr(files.os, "stat", lambda p, **kw: looks_regular if str(p) == str(fifo)
                        else real_stat(p, **kw))

    def hung(signum, frame):
        raise TimeoutError("opening the FIFO blocked")

    old = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        got = read_bounded(fifo)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert got == "not a regular file: this is a FIFO (named pipe); only regular files are read"
