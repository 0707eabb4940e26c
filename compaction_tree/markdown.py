"""Summary files: YAML front matter plus a markdown body, to and from `Summary` objects.

Writes are deterministic (fixed key order, no line wrapping, one trailing newline) so git diffs
stay clean. Reads are defensive: a SafeLoader (no tags, no code), a size cap, a cap on the nodes
an alias bomb could make us visit, and PyYAML's date coercion undone.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

import yaml
from frontmatter.default_handlers import YAMLHandler

from .config import safe_loader, too_nested
from .errors import VaultFormatError
from .summary import SECTIONS, Bullet, Draft, FactCandidate, Level, SourceRef, SummarizerIdentity, Summary, TopicStat

MAX_SUMMARY_BYTES = 4 * 1024 * 1024
MAX_YAML_NODES = 200_000
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_CITED_IDS = re.compile(r"[0-9A-Za-z_-]+(?:, [0-9A-Za-z_-]+)*")
_SPACE = re.compile(r"\s+")
HEADINGS = {title: name for name, title in SECTIONS}


class _SafeHandler(YAMLHandler):
    def load(self, fm: str, **kwargs: object) -> Any:
        return yaml.load(fm, Loader=safe_loader(yaml, fm))


def dump_yaml(data: dict[str, Any]) -> str:
    text: str = yaml.dump(
        data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=100_000, default_flow_style=None
    )
    return text


def one_line(text: str) -> str:
    """Bullet text is one line: conversation text must not be able to open a heading or a section."""
    return _SPACE.sub(" ", text).strip()


def render_bullet(bullet: Bullet) -> str:
    return f"- {one_line(bullet.text)} [{', '.join(bullet.sources)}]"


def title_of(level: Level, period: str, start: str, end: str) -> str:
    if level == "daily":
        return f"# {period} ({date.fromisoformat(period).strftime('%A')})"
    if level == "weekly":
        return f"# Week {period} ({start} to {end})"
    month = date.fromisoformat(period + "-01").strftime("%B %Y")
    return f"# {month} ({start} to {end})"


def render_body(summary: Summary) -> str:
    lines = [title_of(summary.level, summary.period, summary.start, summary.end), ""]
    for name, title in SECTIONS:
        bullets = summary.draft.section(name)
        if bullets:
            lines += [f"## {title}", *(render_bullet(b) for b in bullets), ""]
    if summary.draft.topics:
        names = one_line(", ".join(f"{t.name} ({t.count})" for t in summary.draft.topics))
        # a topic a model named "## Key decisions" must not open a section when it comes first
        lines += ["## Topics", "\\" + names if names.startswith("#") else names, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def front_matter(summary: Summary) -> dict[str, Any]:
    data: dict[str, Any] = {
        "level": summary.level,
        "period": summary.period,
        "start": summary.start,
        "end": summary.end,
        "chunks": summary.chunks,
        "summarizer": summary.summarizer.to_record(),
        "input_hash": summary.input_hash,
        "topics": [{"name": t.name, "count": t.count, "first": t.first, "last": t.last} for t in summary.draft.topics],
        "sources": [{"id": s.id, "sha256": s.sha256} for s in summary.sources],
    }
    if summary.draft.facts:
        data["facts"] = [
            {
                "category": f.category,
                "subject": f.subject,
                "fact": f.fact,
                "confidence": f.confidence,
                "valid_from": f.valid_from,
                "sources": list(f.sources),
                **({"change_only": True} if f.change_only else {}),  # absent otherwise: older files read the same
                **({"replaced_only": True} if f.replaced_only else {}),
            }
            for f in summary.draft.facts
        ]
    if summary.draft.shown:  # absent otherwise: older files read the same
        data["shown"] = list(summary.draft.shown)
    return data


def render_summary(summary: Summary) -> str:
    return f"---\n{dump_yaml(front_matter(summary))}---\n{render_body(summary)}"


# ---------------------------------------------------------------- reading


def _plain(value: Any, budget: list[int]) -> Any:
    """Undoes PyYAML's date coercion, and gives up on structures an alias bomb blew up."""
    budget[0] -= 1
    if budget[0] < 0:
        raise VaultFormatError("front matter is too large or nests aliases (a YAML bomb?)")
    if isinstance(value, dict):
        return {str(k): _plain(v, budget) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v, budget) for v in value]
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return value


def read_front_matter(text: str, where: str) -> tuple[dict[str, Any], str]:
    """(front matter, body) of a markdown file; VaultFormatError when it cannot be used."""
    if len(text) > MAX_SUMMARY_BYTES:
        raise VaultFormatError(f"{where}: larger than {MAX_SUMMARY_BYTES // (1024 * 1024)} MB")
    text = text.removeprefix("\ufeff")
    if not text.startswith("---"):
        raise VaultFormatError(f"{where}: no YAML front matter")
    if "\n<<<<<<< " in text or text.startswith("<<<<<<< ") or "\n>>>>>>> " in text:
        raise VaultFormatError(f"{where}: git conflict markers")
    handler = _SafeHandler()
    if not re.search(r"^---\s*$", text[3:], re.MULTILINE):
        raise VaultFormatError(f"{where}: the front matter has no closing --- line (a truncated file?)")
    try:
        fm, body = handler.split(text)
        if too_nested(fm):
            raise VaultFormatError(f"{where}: front matter nests too deeply")
        data = handler.load(fm)
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise VaultFormatError(f"{where}: unreadable front matter ({first[:120]})") from None
    if not isinstance(data, dict):
        raise VaultFormatError(f"{where}: front matter is not a mapping")
    try:
        plain: dict[str, Any] = _plain(data, [MAX_YAML_NODES])
    except RecursionError:
        raise VaultFormatError(f"{where}: front matter nests too deeply") from None
    return plain, body.lstrip("\n")


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise VaultFormatError(f"{where}: '{key}' is missing or not text")
    return value


def _list_of_dicts(data: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise VaultFormatError(f"{where}: '{key}' must be a list of mappings")
    return value


def parse_body(body: str) -> dict[str, list[Bullet]]:
    """The cited bullets under each known heading (hand-added headings are kept in the file, not here)."""
    sections: dict[str, list[Bullet]] = {}
    current: str | None = None
    for line in body.splitlines():
        if line.startswith("## "):
            current = HEADINGS.get(line[3:].strip())
            continue
        if current is None or not line.startswith("- "):
            continue
        cited = _split_citation(line[2:])
        if cited:
            sections.setdefault(current, []).append(Bullet(*cited))
    return sections


def _split_citation(line: str) -> tuple[str, tuple[str, ...]] | None:
    """("text", ids) of "text [id1, id2]". No backtracking regex: `(.*?)\\s*\\[` was quadratic on a
    long run of spaces, and a hand-edited or pulled summary line can hold megabytes of them."""
    line = line.rstrip()
    start = line.rfind("[")
    if not line.endswith("]") or start < 0 or not _CITED_IDS.fullmatch(line, start + 1, len(line) - 1):
        return None
    return line[:start].rstrip(), tuple(line[start + 1 : -1].split(", "))


def parse_summary(text: str, level: Level, period: str, where: str) -> Summary:
    """A summary from its file; the level and period come from the path, which wins over the front matter."""
    return summary_from_parts(*read_front_matter(text, where), level, period, where)


def summary_from_parts(data: dict[str, Any], body: str, level: Level, period: str, where: str) -> Summary:
    """A summary from its already-parsed front matter and body."""
    try:
        sources = tuple(SourceRef(str(s["id"]), str(s["sha256"])) for s in _list_of_dicts(data, "sources", where))
        topics = tuple(
            TopicStat(str(t["name"]), int(t["count"]), str(t["first"]), str(t["last"]))
            for t in _list_of_dicts(data, "topics", where)
        )
        facts = tuple(
            FactCandidate(
                str(f["category"]),
                str(f["subject"]),
                str(f["fact"]),
                float(f["confidence"]),
                str(f["valid_from"]),
                tuple(str(s) for s in f.get("sources") or ()),
                f.get("change_only") is True,
                f.get("replaced_only") is True,
            )
            for f in _list_of_dicts(data, "facts", where)
        )
        shown = data.get("shown") or []
        if not isinstance(shown, list) or any(isinstance(s, (dict, list)) for s in shown):
            raise VaultFormatError(f"{where}: 'shown' must be a list of chunk ids")
        identity = data.get("summarizer") or {}
        if not isinstance(identity, dict):
            raise VaultFormatError(f"{where}: 'summarizer' must be a mapping")
        chunks = data.get("chunks", 0)
        if isinstance(chunks, bool) or not isinstance(chunks, int):
            raise VaultFormatError(f"{where}: 'chunks' must be a whole number")
    except (KeyError, TypeError, ValueError) as exc:
        raise VaultFormatError(f"{where}: malformed front matter ({type(exc).__name__}: {exc})") from None
    sections = parse_body(body)
    draft = Draft(
        topics=topics,
        facts=facts,
        shown=tuple(str(s) for s in shown),
        **{name: tuple(sections.get(name, ())) for name, _ in SECTIONS},
    )
    return Summary(
        level=level,
        period=period,
        start=str(data.get("start", period)),
        end=str(data.get("end", period)),
        sources=sources,
        summarizer=SummarizerIdentity(
            str(identity.get("backend", "?")), identity.get("model"), str(identity.get("prompt", "?"))
        ),
        input_hash=_text(data, "input_hash", where),
        chunks=chunks,
        draft=draft,
    )


# ---------------------------------------------------------------- the index's copy


def summary_to_data(summary: Summary, with_sources: bool = True) -> dict[str, Any]:
    """Everything in a summary as plain JSON-able data (what the derived index stores)."""
    data = front_matter(summary)
    if not with_sources:
        data["sources"] = []
    data["sections"] = {name: [[b.text, list(b.sources)] for b in summary.draft.section(name)] for name, _ in SECTIONS}
    return data


def summary_from_data(data: dict[str, Any]) -> Summary:
    sections = {
        name: tuple(Bullet(text, tuple(sources)) for text, sources in data["sections"].get(name, ()))
        for name, _ in SECTIONS
    }
    draft = Draft(
        topics=tuple(TopicStat(t["name"], t["count"], t["first"], t["last"]) for t in data["topics"]),
        facts=tuple(
            FactCandidate(
                f["category"],
                f["subject"],
                f["fact"],
                f["confidence"],
                f["valid_from"],
                tuple(f["sources"]),
                f.get("change_only", False),
                f.get("replaced_only", False),
            )
            for f in data.get("facts", ())
        ),
        shown=tuple(data.get("shown", ())),
        **sections,
    )
    identity = data["summarizer"]
    return Summary(
        data["level"],
        data["period"],
        data["start"],
        data["end"],
        tuple(SourceRef(s["id"], s["sha256"]) for s in data["sources"]),
        SummarizerIdentity(identity["backend"], identity["model"], identity["prompt"]),
        data["input_hash"],
        data["chunks"],
        draft,
    )
