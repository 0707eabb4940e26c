"""Durable facts: what is true now about one subject, next to the summaries of what happened.

A fact comes out of a day's compaction (the frames extractor, or the LLM's JSON answer) and lives in
the day's line of facts/candidates/ (versioned apart from the summary); the store under facts/ is
rebuilt from all of them after every compaction:

    pasted.py       what was pasted (code, logs, configuration, terminal output, JSON): never a fact
    frames.py       the few frames that carry most facts, and what disqualifies a sentence
    extract.py      sentence -> fact (category, subject key, value, what it replaces, confidence)
    statement.py    names and values of a statement, for the LLM prompt's check of specifics
    learned.py      the learned fallback: a sentence no frame read, scored by a small linear model
    candidates.py   each day's candidates, by input hash and extractor version
    consolidate.py  structure only: aliases, merges, supersessions, with an audit trail
    records.py      Fact, Version, Event and their markdown / JSONL files
    store.py        the files in the vault, undo, and the reading API below
"""

from .extract import (
    EXTRACTOR_VERSION,
    MAX_KEY_WORDS,
    SUBJECT,
    Extracted,
    extract_facts,
    extract_sentence,
    extract_statements,
    statements_of,
    subject_key,
)
from .records import CATEGORIES, Event, Fact, Version
from .store import (
    RebuildReport,
    audit_events,
    facts_matching,
    get_fact,
    last_rebuild_report,
    load_facts,
    rebuild,
    rebuild_facts,
    reverse_event,
    search_facts,
    standing_fact_lines,
)

__all__ = [
    "CATEGORIES",
    "EXTRACTOR_VERSION",
    "MAX_KEY_WORDS",
    "SUBJECT",
    "Event",
    "Extracted",
    "Fact",
    "RebuildReport",
    "Version",
    "audit_events",
    "extract_facts",
    "extract_sentence",
    "extract_statements",
    "facts_matching",
    "get_fact",
    "last_rebuild_report",
    "load_facts",
    "rebuild",
    "rebuild_facts",
    "reverse_event",
    "search_facts",
    "standing_fact_lines",
    "statements_of",
    "subject_key",
]
