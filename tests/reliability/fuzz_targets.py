"""C7's fuzz targets: each feeds bytes to one reader of vault files. The only exception a target may
raise is memtree's VaultFormatError (ConfigError for memtree.yaml, which has its own exit code);
anything else is a bug. Driven by atheris (atheris_targets.py) and by test_fuzz.py."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

from compaction_tree.config import parse_config
from compaction_tree.errors import ConfigError, VaultFormatError
from compaction_tree.facts.records import parse_audit, parse_category
from compaction_tree.markdown import parse_summary
from compaction_tree.model import valid_id
from compaction_tree.redact import redact
from compaction_tree.root import recorded_input_hash
from compaction_tree.vault import decode_chunk


def text_of(data: bytes) -> str:
    # the readers decode with errors="replace" or reject bad UTF-8 first: both paths are fuzzed
    return data.decode("utf-8", "replace")


def raw_chunk(data: bytes) -> None:
    with contextlib.suppress(VaultFormatError):
        decode_chunk(data, "fuzz.json")


def summary(data: bytes) -> None:
    with contextlib.suppress(VaultFormatError):
        parse_summary(text_of(data), "daily", "2026-03-02", "fuzz.md")


def root_md(data: bytes) -> None:
    recorded_input_hash(text_of(data))


def ids(data: bytes) -> None:
    name = text_of(data)
    if valid_id(name):  # the check that stands in for a slugifier: an accepted id is a plain file name
        assert re.fullmatch(r"[0-9A-Za-z_-]{1,64}", name) and name.upper() not in ("CON", "NUL", "AUX", "PRN"), name


def redactor(data: bytes) -> None:
    text = text_of(data)
    once = redact(text)
    assert redact(once.text).text == once.text  # nothing is redacted twice


def config(data: bytes) -> None:
    with contextlib.suppress(ConfigError):
        parse_config(text_of(data), "memtree.yaml")


def facts_category(data: bytes) -> None:
    parse_category(text_of(data), "decision")  # lines out of shape are skipped: nothing may raise


def facts_audit(data: bytes) -> None:
    parse_audit(text_of(data))  # likewise


TARGETS: dict[str, Callable[[bytes], None]] = {
    "raw_chunk": raw_chunk,
    "summary": summary,
    "root_md": root_md,
    "ids": ids,
    "redactor": redactor,
    "config": config,
    "facts_category": facts_category,
    "facts_audit": facts_audit,
}
