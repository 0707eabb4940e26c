"""What was pasted, not said: code, logs, configuration, terminal output and JSON. Judged by shape. Pure.

A fact is a statement someone made; a pasted `VERSION = 2.0`, an ssh config block or a stack trace
states nothing about the user, however much it looks like "X is Y". Lines are judged by their
structure, never by what their words mean: fences, indentation, the density of code symbols,
`key = value` and `key: value` lines, shell prompts, log and stack-trace shapes, JSON, YAML and XML
brackets, comment markers at line start, and columns. A paragraph (lines between blank lines) that
is mostly such lines is a paste as a whole, but for the sentences of prose in it.
"""

from __future__ import annotations

import re

from ..text import bounded

_FENCE = re.compile(r"^\s*(?:```|~~~)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+(?![\w.\"'-]+:\s)")
_PROSE_SENTENCE = re.compile(r"^[\"'(]?[A-Za-zÀ-ÿ][^\n]*[.!]$")

_SHAPES = [
    re.compile(p)
    for p in (
        r"^(?:#|//|/\*|\*/|--\s|<!--|;;|%|REM\s)",  # a comment marker (or a markdown heading) at line start
        r"^(?:\$|#|>>>|\.\.\.|%|❯|➜)\s",  # a shell or REPL prompt
        r"^[\w.-]+@[\w.-]+:\S*[$#]",  # user@host:~/dir$
        r"^(?:PS\s+)?[A-Z]:\\[^>]*>",  # PS C:\Users\x>, C:\>
        r"^\w{2,12}>\s",  # mysql>, irb>
        # key = value, x := y: one value (a word, a number, a quoted string), maybe a comment after it
        r"^[\w.\-\[\]\"'$]+\s*(?:=|:=|\+=)\s*(?:[^\s\"']+|\"[^\"]*\"|'[^']*')\s*(?:(?:#|//).*)?$",
        r"^[\w\-]+(?:[._][\w\-]+)+\s*[:=]",  # dotted or snake keys: spring.datasource.url=, log_level:
        r"^[\[{<]|[\[{(,;]$|^[\]})]",  # brackets that open or close a structure, a statement's end
        r"^\[[\w .\-\"]+\]$",  # an ini section
        r"^\s*at\s+[\w$.<>]+\(|^\s*File \"[^\"]+\", line \d+|^Traceback \(|^\s*\.\.\. \d+ more$",  # stack frames
        r"^(?:[\w.]+(?:Error|Exception)|Caused by|panic|goroutine \d+|thread '[^']*' panicked)\b[:\s]",
        r"^\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d",  # a log line's timestamp
        r"^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d ",  # syslog
        r"^\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL)\b\]?[:\s]",  # a log level first
        r"^[A-Z]\s{2,}\S|^[EWIDF]\d{4} \d\d:\d\d|^[VDIWEF]/\w+|^level=\w+|^npm ERR!|^==> |^=== ",
        r"^\d{1,3}(?:\.\d{1,3}){3} - ",  # an access log
        r"^\|.*\|$|^\+[-+]+\+$|^[-=]{3,}$",  # a table, a rule
        r"^(?:diff --git|@@ |\+\+\+ |--- a/|index [0-9a-f]{7})",  # a diff
        r"^[d-][rwx-]{9}\s|^total \d+$",  # ls -l
        r"^[^\s,]+(?:,[^\s,]*){2,}$",  # a CSV row
        r"^[0-9*/,-]+(?:\s+[0-9*/,-]+){4}\s",  # a crontab line
        r"^>\s[^.!?]*$",  # a tool's "> command" line (a quoted sentence ends like one)
        r"^[0-9a-f]{7,40}\s",  # a commit id first
        r"^[✓✔✗×●▶]",  # a tool's status marks
        r"(?:\b[\w.-]+=[^\s=]+.*){2}",  # key=value pairs, two or more on a line: logfmt, a query plan, a tool's stats
    )
]
# yaml: a lowercase key and a short value or none; alone on a line it is as likely a note ("indentation: 2
# spaces"), so it counts only next to another line of the kind
_YAML_KEY = re.compile(r"^(?:-\s+)?[a-z][\w\-]*:(?:\s+[^\s.!?,]+(?:\s+[^\s.!?,]+){0,2})?\s*$")
# shapes found inside a line: they make code of a line, not of a sentence that quotes a bit of code
# ("an alert for "status": 500 errors", "never call datetime.now(tz) bare")
_INLINE = [
    re.compile(p)
    for p in (
        r"\"[^\"]*\"\s*:\s*[\[{\"\d tfn]",  # "key": value (JSON)
        r"\S+(?: {2,}\S+){2,}",  # columns
        r"\b[A-Za-z_]\w*\([^()\s]+\)|\w\([^()]*\)[;:]?$|\w\[[\"'\w]",  # a call with arguments, an index
    )
]
_SYMBOLS = re.compile(r"[{}\[\]()<>;=|\\$#@*&^%~`+]")
SYMBOL_DENSITY = 0.1  # code symbols per visible character beyond which a line is code, not prose


def pasted_line(line: str, in_block: bool = False) -> bool:
    """The line is code, a log, configuration, terminal output or data, by its shape alone (in_block: one of
    several lines of a paragraph holding a yaml key line)."""
    stripped = line.strip()
    if not stripped or _LIST_ITEM.match(line):
        return False
    if line[:1] in (" ", "\t") and not _PROSE_SENTENCE.match(stripped):
        return True  # indented: a block's body, a stack frame, a yaml value
    if any(shape.search(stripped) for shape in _SHAPES) or (in_block and _YAML_KEY.match(stripped)):
        return True
    if _sentence(stripped):
        return False
    if any(shape.search(stripped) for shape in _INLINE):
        return True
    visible = sum(1 for c in stripped if not c.isspace())
    return len(_SYMBOLS.findall(stripped)) >= 4 and len(_SYMBOLS.findall(stripped)) / visible >= SYMBOL_DENSITY


def _sentence(line: str) -> bool:
    """Prose: a sentence of at least five words that ends like one."""
    return bool(_PROSE_SENTENCE.match(line)) and len(line.split()) >= 5


def _paragraphs(text: str) -> list[list[str]]:
    """The text's paragraphs, fenced blocks left out (they are pasted whatever they hold)."""
    paragraphs: list[list[str]] = [[]]
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            paragraphs.append([])
        elif fenced:
            continue
        elif not line.strip():
            paragraphs.append([])
        else:
            paragraphs[-1].append(line)
    return [p for p in paragraphs if p]


def said_text(text: str) -> str:
    """The text (its analysed part, text.bounded) without what was pasted into it: each pasted line goes, and a
    paragraph mostly pasted keeps only its prose sentences. Paragraphs are kept apart by a blank line."""
    kept = []
    for lines in _paragraphs(bounded(text)):  # what analysis reads of a chunk (text.py): linear in the chunk
        keys = sum(1 for line in lines if _YAML_KEY.match(line.strip()))
        marks = [pasted_line(line, in_block=keys >= 2) for line in lines]
        unfinished = sum(1 for line in lines if not (_PROSE_SENTENCE.match(line.strip()) or _LIST_ITEM.match(line)))
        # mostly pasted; or lines of a paste around what looks like prose, none of them a sentence (SQL, output)
        mostly = sum(marks) * 2 >= len(lines) or (any(marks) and unfinished * 2 > len(lines))
        prose = [
            line
            for line, pasted in zip(lines, marks, strict=True)
            if not pasted and (not mostly or _PROSE_SENTENCE.match(line.strip()))
        ]
        if prose:
            kept.append("\n".join(prose))
    return "\n\n".join(kept)


def is_pasted(text: str) -> bool:
    """Nothing of the text is said: all of it is code, a log, configuration, terminal output or data."""
    return not said_text(text).strip()
