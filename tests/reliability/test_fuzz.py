"""C7 without atheris (not installed here): Hypothesis drives the same targets, the raw-chunk
loader, the summary front-matter parser, ROOT.md's input-hash reader, the id check and the
redactor, from the seeds RELIABILITY.md names. The only exception allowed is VaultFormatError."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from compaction_tree.errors import VaultFormatError
from compaction_tree.markdown import parse_summary
from compaction_tree.model import valid_id
from compaction_tree.redact import redact
from compaction_tree.root import recorded_input_hash
from compaction_tree.vault import decode_chunk

from .faults import SLOW

SEEDS = [
    b"<<<<<<< HEAD\n",
    b"\n=======\n",
    b">>>>>>> b\n",
    b"\xef\xbb\xbf",
    b"NaN",
    b"Infinity",
    b'{"id": "a", "id": "b"}',
    b"[" * 1000,
    b"{" * 1000,
    b'"\\ud800"',
    b"\xff\xfe",
    b"",
    b"---\n",
    b"level: daily\n",
    b"input_hash: x\n",
    b"!!python/object/apply:os.system ['id']",
    b"&a [*a, *a]",
    b"- text [id1, id2]\n",
    b"## Overview\n",
    b'{"id": "x", "timestamp": "2026-03-02T10:00:00+00:00", "speaker": "u", "text": "t"}',
    b" " * 1000,
]
blobs = st.lists(st.one_of(st.sampled_from(SEEDS), st.binary(max_size=40)), max_size=12).map(b"".join)
EXAMPLES = 5_000 if SLOW else 300


@settings(max_examples=EXAMPLES, deadline=None)
@given(blobs)
def test_c7_raw_chunk_loader(data: bytes) -> None:
    with contextlib.suppress(VaultFormatError):
        decode_chunk(data, "fuzz.json")


@settings(max_examples=EXAMPLES, deadline=None)
@given(blobs)
def test_c7_summary_parser_and_root_reader(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    for candidate in (text, "---\n" + text, "---\nlevel: daily\ninput_hash: h\n" + text + "\n---\n" + text):
        with contextlib.suppress(VaultFormatError):
            parse_summary(candidate, "daily", "2026-03-02", "fuzz.md")
        recorded_input_hash(candidate)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(max_size=80), blobs)
def test_c7_id_check_and_redactor(text: str, data: bytes) -> None:
    valid_id(text)
    redact(text + data.decode("utf-8", "replace"))
