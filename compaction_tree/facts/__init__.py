"""Durable facts: what is true now about one subject, next to the summaries of what happened.

A fact comes out of a day's compaction (the cue extractor, or the LLM's JSON answer) and lives in
the day's line of facts/candidates/ (versioned apart from the summary); the store under facts/ is
rebuilt from all of them after every compaction:

    cues.py         the cue tables: the shapes of durable statements
    gates.py        what disqualifies a sentence (questions, moments, hypotheticals, pasted logs)
    frames.py       a topic word with a value of the right kind, whatever the word order
    learned.py      a linear model's opinion on a sentence no cue or frame took (weights in data/)
    extract.py      sentence -> fact (category, subject key, value, confidence)
    statement.py    the analysis of a statement: names, values, changes ("moved from X to Y")
    candidates.py   each day's candidates, by input hash and extractor version
    consolidate.py  structure only: aliases, merges, supersessions, with an audit trail
    records.py      Fact, Version, Event and their markdown / JSONL files
    store.py        the files in the vault, undo, and the reading API below
"""

from .cues import BROAD_CUES
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
    "BROAD_CUES",
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
