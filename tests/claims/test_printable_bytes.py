"""A name's bytes that are not UTF-8 print as `\\xNN`, every one of them (0x80 to 0xFF,
both ends included): what the audit and the scan show for a file name read from disk
(Python carries such a byte as the lone surrogate U+DC80 + byte, `os.fsdecode`'s
surrogateescape). A raw surrogate cannot be printed on a UTF-8 stream, and `\\udcff` is
not the byte the user's file name holds."""

import os

import pytest

from ffnverify.claims.printable import fs_name, json_text, visible


@pytest.mark.parametrize("byte", range(0x80, 0x100))
def test_every_non_utf8_byte_is_shown_as_its_hex_escape(byte):
    name = os.fsdecode(b"a" + bytes([byte]) + b".md")
    want = f"a\\x{byte:02x}.md"
    assert fs_name(name) == want
    assert fs_name(os.fsencode(name)) == want
    assert visible(name) == want
    want.encode("utf-8")


def test_the_byte_escapes_are_lowercase_two_digit_hex():
    assert visible(os.fsdecode(b"\xff")) == "\\xff"
    assert visible(os.fsdecode(b"\x80")) == "\\x80"
    assert fs_name(os.fsdecode(b"\xff\x80")) == "\\xff\\x80"


def test_json_keeps_the_surrogate_lossless_but_escaped():
    text = json_text({"file": os.fsdecode(b"\xff")})
    assert "\\udcff" in text and "\udcff" not in text
