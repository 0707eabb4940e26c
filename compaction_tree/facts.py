"""Durable facts: extraction by cue, the store in the vault, undo, and the reading API.

A fact is what is true now about one subject (a preference, a constraint, a decision...), not
what happened. Facts come out of the per-day compaction pass as `FactCandidate`s (the cue
extractor below, or the LLM's JSON answer) and are kept in each daily summary's front matter.
`rebuild_facts` recomputes the whole store from all of them after every compaction
(consolidate.py), so a late chunk or a forgotten one re-derives everything consistently.

The store, git-tracked and deterministic (the same candidates give the same bytes):
- facts/<category>.md   one section per subject: the current value, then its history;
- facts/audit.jsonl     every merge, corroboration, supersession and resolution, one a line;
- facts/overrides.yaml  the reversals `undo` recorded, honoured by every rebuild.
The last rebuild's figures and its retrieval check go to .memtree/facts-report.json.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .config import Config
from .consolidate import (
    ASPECT_OF,
    CATEGORIES,
    CHANGE_VERB,
    CHANGE_WORDS,
    NEW_VALUE,
    Event,
    Fact,
    Outcome,
    Similarity,
    Version,
    change_of,
    consolidate,
    names_of,
    parse_audit,
    parse_category,
    plain_text,
    render_audit,
    render_category,
)
from .errors import ConflictError, InvalidInputError, VaultFormatError
from .summary import FactCandidate
from .text import STOPWORDS, WORD, fold, sentences, stem, word_form
from .topics import BUILTIN_ALIASES, is_generic, topic_key

if TYPE_CHECKING:
    from .index import Index
    from .summarizers import Unit
    from .vault import Vault

__all__ = [
    "EXTRACTOR_VERSION",
    "Event",
    "Fact",
    "RebuildReport",
    "Version",
    "audit_events",
    "extract_facts",
    "facts_matching",
    "get_fact",
    "last_rebuild_report",
    "load_facts",
    "rebuild",
    "rebuild_facts",
    "search_facts",
    "standing_fact_lines",
    "undo",
]

EXTRACTOR_VERSION = "cues-1"
FACTS_DIR = "facts"
AUDIT_FILE = "facts/audit.jsonl"
OVERRIDES_FILE = "facts/overrides.yaml"
REPORT_FILE = ".memtree/facts-report.json"
EMBEDDINGS_FILE = ".memtree/fact-embeddings.json"
MAX_FACT_WORDS = 45  # a longer sentence is an explanation, not a fact
MAX_KEY_WORDS = 6
CHECK_LIMIT = 5  # the retrieval check: a fact must come back among this many for its own subject
SUBJECT = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")
STANDING_WORDS = 30  # a standing fact's line in ROOT.md is cut after this many words
STANDING_ORDER = ("preference", "constraint", "decision", "failure_pattern", "domain_fact", "entity")

# ---------------------------------------------------------------- extraction: cleaning a sentence

_ASSISTANTS = frozenset({"assistant", "ai", "agent", "bot", "model", "system", "claude", "gpt", "chatgpt", "copilot"})
_PREAMBLE = re.compile(
    r"^(?:(?:oh|ok|okay|so|also|and|but|btw|fyi|fwiw|anyway|unrelated|actually|alright|right|well|hey|psa|"
    r"by the way|quick note|side note|note|heads[- ]up|before i forget|for the record|for context|just so you know|"
    r"reminder(?: that)?|remember(?: that)?|just a reminder(?: that)?|as a reminder)\b[,:;!.-]*\s*)+",
    re.IGNORECASE,
)
_TRAILER = re.compile(
    r"(?:[.,;]?\s*(?:anyway|lol|haha|:\)|:-\)|;\)|\(noting it here\)|just so it'?s written down somewhere|"
    r"more on that later|fyi|btw|thanks|thx|!+))+\s*[.!]*$",
    re.IGNORECASE,
)

# ---------------------------------------------------------------- extraction: what disqualifies a sentence

_QUESTION_START = re.compile(
    r"^(?:who|what|when|where|why|how|which|whose|should|shall|can|could|would|will|is|are|am|was|were|do|does|"
    r"did|have|has|any idea|anyone|wondering|not sure|any thoughts)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL = re.compile(
    r"^(?:if|suppose|supposing|imagine|assuming|say|hypothetically|in theory|what if|let's say)\b"
    r"|\b(?:if (?:we|i|you|they|it)|what if|would|could|might|maybe|perhaps|were to|in theory|hypothetically|"
    r"thinking (?:about|of)|considering|wondering|not sure|unsure|i guess|lol no)\b",
    re.IGNORECASE,
)
_TEMPORARY = re.compile(
    r"\b(?:for now|just for (?:today|now|this|the)|for today|today only|only today|this (?:week|time|sprint) only|"
    r"only (?:this|for this) (?:week|time|sprint|once)|for the moment|temporar(?:y|ily)|until (?:lunch|tonight|"
    r"tomorrow|monday|tuesday|wednesday|thursday|friday|the weekend|next week|further notice|we fix|it'?s fixed)|"
    r"for the time being|this once|one[- ]off)\b",
    re.IGNORECASE,
)
_REJECTED = re.compile(
    r"\b(?:decided against|not going (?:with|for)|won'?t (?:go with|use|be using)|rejected|ruled out|turned down|"
    r"vetoed|dropped the idea|not (?:yet )?decided|haven'?t decided|undecided|no decision|considered|discussed it|"
    r"too expensive|not worth)\b",
    re.IGNORECASE,
)
_HEARSAY = re.compile(r"\b(?:says|said|told me|mentioned|according to|claims|apparently|heard)\b", re.IGNORECASE)
# a metric moving or a bug fixed is an event, not a durable fact
_EVENT = re.compile(
    r"\b(?:latency|throughput|p\d\d|response times?|error rate|(?:double|twice|half|triple) (?:that|as|the)"
    r"|\d+\s*(?:ms|kb|mb|gb)|"
    r"fixed|resolved|solved|(?<!\()it was|they were)\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(r"\b(?:i think|probably|apparently|seems|i believe|likely|kind of|sort of|roughly)\b", re.I)
_ANSWERING = re.compile(
    r"\b(?:answers?|explanations?|responses?|replies|examples?|code (?:first|before|after|blocks?)|bullet points?|"
    r"paragraphs?|tl;?dr)\b",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|we|we're|we've|we'll|our|us|let's)\b", re.I)

# ---------------------------------------------------------------- extraction: the cues

# a capitalized name of up to three words (case-sensitive inside the case-insensitive cues)
_NAME = (
    r"(?-i:(?!(?:I|I'm|I've|I'd|My|We|Our|The|This|That|It|It's|You|Your|They|He|She)\b)"
    r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})"
)
_TIME = r"\d{1,2}(?::\d\d)?\s*(?:am|pm)?"
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_ATTRIBUTES = (
    r"job queue|queue|datastore|data store|database|db|cache|broker|message broker|timeout|upstream timeout|"
    r"rate limit|limit|quota|sla|uptime target|version|runtime|language|stack|framework|ci|ci provider|host|"
    r"hosting|hosting provider|cloud|region|owner|lead|tech lead|manager|contact|point of contact|poc|billing cycle|"
    r"plan|tier|budget|deadline|cutoff|time ?zone|schedule|role|title|on-call rotation|release cadence"
)
_DIETS = (
    r"vegetarian|vegan|pescatarian|flexitarian|keto|paleo|gluten[- ]free|dairy[- ]free|lactose[- ]intolerant|"
    r"teetotal|sober|halal|kosher"
)
_ROLES = (
    r"engineer|designer|manager|lead|pm|cto|ceo|cfo|vp|director|analyst|scientist|admin|administrator|intern|"
    r"contractor|consultant|architect|recruiter|developer|dev|sre|qa|tester|writer|head|researcher|marketer|"
    r"accountant|coordinator|specialist|advocate|strategist|officer"
)


@dataclass(frozen=True)
class Cue:
    """One way of stating a durable fact: a pattern with optional s/s2 (subject) and v (value) groups."""

    name: str
    category: str
    confidence: float
    who: str  # "user": said by a person; "any": the assistant too; "user!": by a person, and naming something
    aspect: str  # a word the subject key ends with ("owner", "birthday"...)
    pattern: re.Pattern[str]


# The first cue that matches a sentence decides its category and subject. Failure patterns come
# first, and may come from the assistant (it often finds the cause); the rest must come from a person.
# fmt: off
_CUE_TABLE: tuple[tuple[str, str, float, str, str, str], ...] = (
    ("keeps-failing", "failure_pattern", 0.85, "any", "failure",
     r"^(?P<s>.+?)\s+(?:keeps?|kept)\s+(?:on\s+)?(?:failing|breaking|crashing|timing out|flaking|dying|erroring|"
     r"falling over|going down|hanging)\b[\s,]*(?:because|when|whenever|every time|since|due to|as soon as"
     r"|if)\s+(?P<v>.+)"),
    ("fails-because", "failure_pattern", 0.8, "any", "failure",
     r"^(?P<s>.+?)\s+(?:fails?|failed|breaks?|broke|crashes|crashed|flakes?|flaked|times? out|errors? out|goes down|"
     r"falls over|hangs)\b[\s,]*(?:(?:only|again|every time)\s+)?(?:because|whenever|when|due to|if)\s+(?P<v>.+)"),
    ("is-broken-because", "failure_pattern", 0.8, "any", "failure",
     r"^(?P<s>.+?)\s+(?:is|are|was|were|keeps being)\s+(?:broken|flaky|failing|unstable|down|red|crashing)\b[\s,]*"
     r"(?:because|due to|since|whenever|when)\s+(?P<v>.+)"),
    ("figured-out-why", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:figured out|found out|found|worked out|learned|turns out|it turns out|root[- ]caused)\s+(?:why|that)\s+"
     r"(?P<s>.+?)\s+(?:is|are|was|were|keeps?|kept)\s+(?:flaky|failing|broken|breaking|crashing|timing out|slow)"
     r"\s*[:,;-]+\s*(?P<v>.+)"),
    ("pattern-with", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:pattern|recurring (?:issue|problem|failure))\s+(?:with|in|for)\s+(?P<s>.+?)\s*:\s*"
     r"(?P<v>.*\b(?:fail|break|crash|flak|time out|times out)\w*\b.+)"),
    ("reason-is", "failure_pattern", 0.8, "any", "failure",
     r"\bthe\s+(?:reason|cause)\s+(?:why\s+)?(?P<s>.+?)\s+(?:fail|break|crash|flake|die|time out|hang)\w*\s+is\s+"
     r"(?P<v>.+)"),
    ("every-time-because", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:every time|whenever)\s+(?P<s>.+?)\s+(?:dies|fails|breaks|crashes|flakes|hangs|goes down|times out),?\s+"
     r"(?:it'?s|that'?s|it is)\s+because\s+(?P<v>.+)"),
    ("root-cause", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:the\s+)?(?:root cause|real cause|cause)\s+(?:of|for|behind)\s+(?:the\s+)?(?P<s>.+?)\s+(?:is|was|are"
     r"|were)\s+"
     r"(?:that\s+)?(?P<v>.+)"),
    ("failures-caused-by", "failure_pattern", 0.8, "any", "failure",
     r"^(?:the\s+)?(?P<s>.+?\b(?:failures?|crashes|outages|flakes|errors|timeouts))\s+(?:(?:are|is|were|have been)\s+"
     r"(?:(?:caused|triggered)\s+by|due to|because(?:\s+of)?|from)|come from|comes from|stem from"
     r"|stems from)\s+(?P<v>.+)"),
    ("another-cause", "failure_pattern", 0.8, "any", "failure",
     r"^(?:the\s+)?(?P<s>.+?)\s+(?:failures?|crashes|outages|deploys?|builds?|tests?)\s+(?:have|has)\s+"
     r"(?:another|a different)\s+(?:cause|reason)\b\s*[:,-]*\s*(?P<v>.+)"),
    ("wrong-about", "failure_pattern", 0.8, "user", "failure",
     r"\b(?:we were|i was)\s+wrong about\s+(?P<s>.+?)\s*[,:;-]+\s*(?P<v>(?:it'?s\s+)?not\b.+)"),
    # decisions
    ("we-decided", "decision", 0.85, "user", "",
     r"\b(?:we|i|the team|team)\s+(?:have\s+|'ve\s+|finally\s+|just\s+)?(?:decided|agreed|settled|chose|picked|opted|"
     r"committed)\b\s*(?:(?:to|on|that|for|upon)\s+)?(?P<v>.+)"),
    ("decision-made", "decision", 0.8, "user", "",
     r"^(?P<v>.+?)[,;:-]+\s*(?:that'?s\s+)?(?:decision|final answer)\s+(?:made|taken|final|is final)\b"),
    ("decision-colon", "decision", 0.8, "user", "", r"^(?P<s>[\w .'-]{2,40}?)\s+(?:decision|choice)\s*:\s*(?P<v>.+)"),
    ("lets-go-with", "decision", 0.8, "user", "",
     r"\b(?:let'?s|let us|we'?ll|we will|we'?re|we are|we'?re gonna|we are going to)\s+(?:go(?:ing)? with|use|"
     r"stick with|standardi[sz]e on|adopt|go for)\s+(?P<v>.+)"),
    ("we-host", "decision", 0.75, "user!", "",
     r"^(?:we|i)\s+(?:now\s+)?(?P<verb>host|run|deploy|keep|store|build)\s+(?P<s>.+?)\s+(?:on|in|with|at)\s+(?P<v>.+)"),
    ("uses-for", "decision", 0.75, "user!", "",
     r"^(?P<s0>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:uses|relies on|is built on|is backed by|runs)\s+(?P<v>.+?)\s+for\s+"
     r"(?:its\s+|their\s+|the\s+)?(?P<s>[\w -]{2,40})$"),
    ("uses", "decision", 0.7, "user!", "",
     r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:uses|relies on|is built on|is backed by|is written in)\s+(?P<v>.+)"),
    ("plan-is", "decision", 0.75, "user", "",
     r"^(?:the\s+)?(?:agreed\s+|final\s+|current\s+)?(?:plan|decision|call)\s+is\s+to\s+(?P<v>.+)"),
    ("is-versioned", "decision", 0.7, "user!", "",
     r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:is|are)\s+(?P<verb>versioned|built|hosted|deployed|stored|cached|"
     r"written|packaged|released|tested|monitored|backed up)\s+(?:with|in|on|by|via|using|to|through)\s+(?P<v>.+)"),
    ("spending-in", "decision", 0.7, "user", "",
     r"\bwe'?re\s+(?:spending|doing|celebrating|having)\s+(?P<s>[\w' -]{2,30}?)\s+in\s+(?P<v>" + _NAME + r")"),
    ("will-run-on", "decision", 0.7, "user!", "",
     r"^(?P<s>(?:the\s+)?[\w.' -]{2,50}?)\s+(?:will|is going to|are going to)\s+(?:run|live|be hosted|be deployed|"
     r"keep (?:its|their) data|store (?:its|their) data|stay|build|use)\s+(?:on|in|with|at)?\s*(?P<v>.+)"),
    # a person's own preferences
    ("for-x-i-prefer", "preference", 0.85, "user", "",
     r"^for\s+(?P<s>[\w .'-]{2,40}?),?\s+i\s+(?:really\s+|much\s+|always\s+)?(?:prefer|like|want|use)\s+(?P<v>.+)"),
    ("how-i-like-it", "preference", 0.8, "user", "",
     r"^(?P<s>.+?)\s+(?:gets|get|uses|use|has|have|does|do|is|are|on)\s+(?P<v>.+?)[,;]?\s+(?:that'?s|which is|just)\s+"
     r"(?:how|the way|what)\s+(?:i|we)\s+(?:like|want|prefer)\s+(?:it|them)\b"),
    ("my-thing-is", "preference", 0.75, "user", "",
     r"\bmy\s+(?P<s>(?:[\w-]+\s+)?(?:order|drink|coffee|tea|diet|seat|editor|ide|shell|stack|language|framework|"
     r"style|setup|pronouns|(?:\w+\s+)?of choice))\s+(?:is|are|=|:)\s+(?P<v>.+)"),
    ("i-am-diet", "preference", 0.8, "user", "diet",
     r"\bi(?:'m|\s+am)\s+(?:a\s+|an\s+|strictly\s+|fully\s+|mostly\s+)?(?P<v>" + _DIETS + r")\b"),
    ("aiming-for", "preference", 0.7, "user", "goal",
     r"\b(?:this year i want to|i'?m training for|i'?m aiming for|my goal is to|i want to finally)\s+(?P<v>.+)"),
    ("give-me-please", "preference", 0.75, "user", "",
     r"^(?:please\s+)?(?P<v>(?:give|show|send|write|answer|reply|keep|tell)\s+(?:me|it)\b.+?),?\s+please$"),
    ("i-am-a-person", "preference", 0.75, "user", "",
     r"\bi(?:'m|\s+am)\s+(?:a|an)\s+(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+(?:person|guy|girl|kind of person|fan)\b"),
    ("for-me-always", "preference", 0.75, "user", "",
     r"^(?P<v>.+?)\s+for\s+me,?\s+(?:always|please|every time|thanks|no exceptions)\b"),
    ("works-best-for-me", "preference", 0.75, "user", "",
     r"^(?:for\s+(?P<s>[\w .'-]{2,40}?),\s+)?(?P<v>.+?)\s+works?\s+best\s+for\s+me\b"),
    ("thats-my-preference", "preference", 0.8, "user", "",
     r"^(?P<v>.+?),?\s+(?:that'?s|it'?s|this is)\s+my\s+(?:preference|rule|default|style|go-to|way)\b"),
    ("want-x-not-y", "preference", 0.75, "user", "",
     r"\bi\s+(?:want|need|like|prefer)\s+(?P<v>[^,;]+?),\s+not\s+[^,;]+$"),
    ("x-not-y-please", "preference", 0.75, "user", "",
     r"^(?P<v>[^,;]+?),\s+not\s+[^,;]+?,?\s+(?:for\s+(?P<s>[\w -]{3,30}?)\s+)?please\b"),
    ("i-go-for", "preference", 0.75, "user", "",
     r"\bi\s+(?:always\s+|usually\s+)?(?:go for|go with|stick to|stick with|opt for|swear by)\s+(?P<v>.+?)"
     r"(?:\s+(?:on|for|in|when)\s+(?P<s>.+))?$"),
    ("answer-style", "preference", 0.75, "user", "answers",
     r"^(?:please\s+)?(?:keep|make|write|give|show)\s+(?:me\s+)?(?:the\s+|your\s+)?(?P<v>(?:answers?|explanations?|"
     r"responses?|replies|code|examples?|summaries)\b.*)"),
    ("i-prefer", "preference", 0.85, "user", "",
     r"\bi\s+(?:really\s+|much\s+|strongly\s+|definitely\s+|always\s+|generally\s+)?(?:prefer|favou?r|like)\s+"
     r"(?P<v>.+?)(?:\s+(?:for|when|in|as|over|to)\s+(?P<s>.+))?$"),
    ("id-rather", "preference", 0.75, "user", "", r"\bi(?:'d|\s+would)\s+(?:much\s+)?rather\s+(?P<v>.+)"),
    ("my-favourite", "preference", 0.8, "user", "",
     r"\bmy\s+(?:all[- ]time\s+)?(?P<s>(?:favou?rite|usual|go-to|preferred|default)(?:\s+[\w-]+){0,3}?)\s*"
     r"(?:is|are|=|:|has to be|would be)\s+(?P<v>.+)"),
    ("my-goal", "preference", 0.8, "user", "",
     r"\bmy\s+(?P<s>(?:[\w-]+\s+){0,2}?(?:goal|target|aim|resolution|rule|policy|routine|diet|budget|limit))\b"
     r"(?:\s+(?:for|this|in)\s+[\w ]{1,20}?)?\s*(?:is|are|=|:)\s+(?P<v>.+)"),
    ("goal-colon", "preference", 0.75, "user", "",
     r"^(?P<s>(?:[\w-]+\s+){0,2}?(?:goal|target|resolution|rule))\s+(?:for"
     r"|this)\s+(?:the\s+)?[\w ]{1,20}?:\s*(?P<v>.+)"),
    ("please-always", "preference", 0.85, "user", "",
     r"^(?:please\s+)?(?:always|from now on,?\s+(?:please\s+)?(?:always\s+)?)\s*(?P<v>(?:give|show|use|write|answer|"
     r"reply|send|put|add|include|explain|start|keep|format|respond|call|ask|tell|remind|check|suggest|book|get|order"
     r"|pick|"
     r"choose|reserve)\b.+)"),
    ("x-from-now-on", "preference", 0.8, "user", "",
     r"^(?:i'?d like|i want|please|give me|use)?\s*(?P<v>.+?)\s+"
     r"(?:from now on|going forward|in future|moving forward)$"),
    ("from-now-on", "preference", 0.8, "user", "",
     r"\b(?:from now on|going forward|moving forward|in (?:the )?future|henceforth)\b[,:]?\s*(?P<v>.+)"),
    ("i-always", "preference", 0.8, "user", "",
     r"\bi\s+(?:always|never|usually|only|exclusively)\s+(?P<s>(?!(?:said|thought|forget|forgot|wanted)\b)[a-z]+)\s+"
     r"(?P<v>.+)"),
    ("x-for-y-always", "preference", 0.8, "user", "",
     r"^(?P<v>.+?)\s+for\s+(?P<s>[\w -]{3,30}?)[,;]\s+(?:never anything else|nothing else|no exceptions|always|"
     r"every time)\b"),
    ("x-colon-y-only", "preference", 0.75, "user", "",
     r"^(?P<s>[\w .'-]{2,40}?):\s+(?P<v>[^,;]+?)[,;]\s+(?:never anything else|nothing else|no exceptions|only that|"
     r"always)\b"),
    ("every-time", "preference", 0.75, "user", "",
     r"^(?P<v>.+?)\s+(?:every time|always|each time)\b.*\b(?:that'?s my rule|my rule|no exceptions)\b"),
    ("i-am-these-days", "preference", 0.7, "user", "diet",
     r"\bi(?:'m|\s+am)\s+(?:a\s+|an\s+|strictly\s+|fully\s+)?(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+(?:these days|nowadays"
     r"|now)\b"),
    ("i-eat", "preference", 0.7, "user", "diet",
     r"\bi\s+(?:eat|drink|don'?t eat|don'?t drink|avoid|only eat|only drink|follow)\s+(?P<v>[\w -]+?)(?:,|\s+so\b|$)"),
    ("for-x-please", "preference", 0.7, "user", "", r"^for\s+(?P<s>[\w -]{3,30}?),\s+(?P<v>.+?)\s+please\b"),
    # constraints
    ("cannot-exceed", "constraint", 0.8, "user", "",
     r"^(?P<s>(?:(?!\band\b|\bbut\b|\bso\b)[^,;]){2,50}?)\s+"
     r"(?:can'?t|cannot|must not|mustn'?t|may not|shouldn'?t|should never)\s+(?:cost|exceed|be more than|"
     r"go over|take more than|be longer than|run longer than)\s+(?P<v>.+)"),
    ("max-for", "constraint", 0.75, "user", "budget",
     r"\b(?P<v>\$[\d,.]+k?|[\d,.]+\s*(?:dollars|euros|eur|usd))\s+(?:max|maximum|tops|at most|limit|cap)\s+"
     r"(?:for|on)\s+(?P<s>.+)"),
    ("cant-eat", "constraint", 0.8, "user", "allergy",
     r"^(?P<s>" + _NAME + r")\s+(?:can'?t|cannot|mustn'?t|shouldn'?t|must not)\s+(?:eat|have|drink|tolerate|be near)\s+"
     r"(?P<v>.+)"),
    ("meeting-free", "constraint", 0.8, "user", "meeting",
     r"^(?P<v>" + _WEEKDAY + r"(?:\s+(?:mornings?|afternoons?|evenings?))?)\s+(?:are|is)\s+(?:meeting[- ]free|"
     r"no[- ]meeting|blocked|focus time|off limits)"
     r"|\bkeep\s+(?:my\s+)?(?:calendar|schedule)\s+(?:clear|free|empty)\s+(?:on\s+)?(?P<v2>.+)"),
    ("never", "constraint", 0.8, "user", "",
     r"^(?:please\s+|we\s+|you\s+)?(?:never|do not ever|don'?t ever|must never|should never)\s+(?P<v>.+)"),
    ("dont-recurring", "constraint", 0.75, "user", "",
     r"^(?:please\s+)?(?:don'?t|do not)\s+(?P<v>(?:deploy|schedule|book|merge|push|release|run|ship|call|email|touch)\b"
     r".*\b(?:on\s+\w+days|weekends?|mornings|evenings|after\s+\d|before\s+\d|past\s+(?:\d|noon|midnight)|ever)\b.*)"),
    ("no-x-on", "constraint", 0.75, "user", "",
     r"^(?:please\s+)?no\s+(?P<s>(?:[\w.-]+\s+){0,2}(?:meetings|deploys|deployments|calls|merges|pushes|releases|"
     r"changes|migrations))\s+"
     r"(?:on|before|after|during|outside)\s+(?P<v>.+)"),
    ("must", "constraint", 0.8, "user", "",
     r"^(?P<s>.+?)\s+(?:must|must not|mustn'?t|has to|have to|need to|needs to|is required to|are required to|"
     r"may only|can only|is not allowed to|are not allowed to)\s+(?P<v>(?:stay|remain|be|live|run|go|happen|ship|use|"
     r"wait|send|make|get|never|not|only|always)\b.+)"),
    ("requires", "constraint", 0.75, "user", "",
     r"^(?P<s>.+?)\s+(?:requires|require|mandates|insists that)\s+(?P<v>.+)"),
    ("capped-at", "constraint", 0.8, "user", "limit",
     r"^(?P<s>.+?)\s+(?:is|are|gets|get|stays|has been)?\s*(?:capped|limited|restricted|throttled)\s+(?:at"
     r"|to)\s+(?P<v>.+)"),
    ("hard-limit", "constraint", 0.8, "user", "",
     r"\b(?:hard|strict|firm)\s+(?:limit|cap|ceiling|cutoff|deadline|budget)\s+(?:of|is|at|:)\s*(?P<v>.+?)"
     r"(?:\s+(?:on|for)\s+(?P<s>.+))?$"),
    ("not-more", "constraint", 0.75, "user", "limit",
     r"^(?P<s>.+?)\s+(?:gets|get|has|have|is allowed|are allowed)\s+(?P<v>.+?),?\s+(?:not more|no more than that|"
     r"max(?:imum)?|at most|tops)\b"),
    ("only-runs", "constraint", 0.75, "user", "",
     r"^(?P<s>.+?)\s+(?:(?:only|exclusively)\s+(?:run|runs|happen|happens|go out|goes out|ship|ships|deploy|deploys|"
     r"take place|takes place)|(?:run|runs|happen|happens|go out|goes out|ship|ships|deploy|deploys|take place|"
     r"takes place)\s+only)\s+(?P<v>.+)"),
    ("allergic", "constraint", 0.85, "user", "allergy",
     r"^(?P<s>.+?)\s+(?:is|are|'s|am|'m)\s+(?:severely\s+|very\s+|badly\s+)?(?:allergic|intolerant)\s+to\s+(?P<v>.+)"),
    ("has-allergy", "constraint", 0.85, "user", "allergy",
     r"^(?P<s>.+?)\s+(?:has|have)\s+(?:an?\s+|a severe\s+)?(?P<v>[\w -]+?)\s+(?:allergy|intolerance)\b"),
    ("cutoff-is", "constraint", 0.75, "user", "",
     r"^(?:the\s+|our\s+)?(?P<s>[\w' -]{0,40}?\b(?:cutoff|cut-off|freeze|deadline|curfew|limit|cap|budget|window|"
     r"quota))\b(?:\s+(?:on|for)\s+[\w ]{1,25}?)?\s+(?:is|are|=|:|starts at|begins at|kicks in at)\s+"
     r"(?:now\s+)?(?:capped at\s+)?(?P<v>.+)"),
    # people and things
    ("told-me-prefers", "entity", 0.75, "user", "preference",
     r"^(?:apparently\s+)?(?P<s>" + _NAME + r")\s+(?:told me|says|said|mentioned|let me know)?\s*(?:that\s+)?"
     r"(?:they|she|he)?\s*(?:much\s+|really\s+|strongly\s+)?(?:prefers?|likes? .+ better)\s+(?P<v>.+)"),
    ("they-like", "entity", 0.65, "user", "preference",
     r"^(?P<s>" + _NAME + r")\s+(?:really\s+)?(?:likes|loves|enjoys|hates|can'?t stand)\s+"
     r"(?!the\b|this\b|that\b|it\b|my\b|your\b|her\b|his\b|their\b|to\b)(?P<v>.+)"),
    ("owns", "entity", 0.8, "user", "owner",
     r"^(?P<v>" + _NAME + r")\s+(?:owns|maintains|is responsible for|is in charge of|looks after|leads)\s+(?P<s>.+)"),
    ("owner-of", "entity", 0.8, "user", "owner",
     r"^(?P<v>" + _NAME + r")\s+is\s+(?:the\s+|our\s+)?(?:(?:new|current|main)\s+)?(?:owner|maintainer|lead|"
     r"point of contact|dri)\s+(?:of|for|on)\s+(?P<s>.+)"),
    ("owned-by", "entity", 0.8, "user", "owner",
     r"^(?P<s>.+?)\s+(?:(?:is|are)\s+(?:now\s+)?(?:owned|maintained|run|led|looked after)\s+by|belongs\s+to)\s+"
     r"(?P<v>" + _NAME + r")"
     r"|^(?P<v2>" + _NAME + r")\s+is\s+(?P<s2>[\w.-]+)(?:'s|’s)\s+(?:owner|maintainer|lead|point of contact)\b"),
    ("is-contact-at", "entity", 0.8, "user", "contact",
     r"^(?P<v>" + _NAME + r")\s+is\s+(?:our|the)\s+(?:main\s+|primary\s+|only\s+)?(?:contact|point of contact|poc|"
     r"liaison|go-to person|go-to contact|go-to)\s+(?:at|for|with|in)\s+(?P<s>.+)"
     r"|\b(?:talk to|ask|go through|ping)\s+(?P<v2>" + _NAME + r")\s+(?:about|for)\s+anything\s+(?P<s2>.+)"),
    ("contact-at", "entity", 0.8, "user", "contact",
     r"\b(?:main\s+|primary\s+|only\s+)?(?:contact|point of contact|poc|liaison)\s+(?:at|for|with|in)\s+(?P<s>.+?)\s+"
     r"(?:is|=|:)\s+(?P<v>" + _NAME + r")"),
    ("go-through", "entity", 0.75, "user", "contact",
     r"\bfor\s+anything\s+(?P<s>[\w .'-]+?)[- ]related,\s+(?:go through|talk to|ask|contact|ping)\s+"
     r"(?P<v>" + _NAME + r")"),
    ("lives-in", "entity", 0.8, "user", "home",
     r"^(?:my\s+[\w-]+\s+)?(?P<s>" + _NAME + r")(?:\s*\((?:my|our)\s+[\w -]+\))?\s+(?:lives|has been living|has lived|"
     r"is living|is based|lives now|now lives|resides)\s+in\s+(?P<v>" + _NAME + r")"),
    ("birthday", "entity", 0.85, "user", "birthday",
     r"^(?P<s>" + _NAME + r")(?:'s|’s)\s+birthday\s+(?:is|falls)\s+(?:on\s+)?(?P<v>.+)"
     r"|^(?P<s3>" + _NAME + r")\s+was\s+born\s+on\s+(?P<v3>.+)"
     r"|^(?P<s2>" + _NAME + r")\s+(?:celebrates|has)\s+(?:their|his|her)\s+birthday\s+(?:on\s+)?(?P<v2>.+)"),
    ("role", "entity", 0.7, "user", "role",
     r"^(?P<s>" + _NAME + r")\s+(?:is|works as|serves as|is working as)\s+(?:our|the|a|an)\s+(?:new\s+)?"
     r"(?P<v>(?:[\w-]+\s+){0,2}(?:" + _ROLES + r"))\b"),
    ("became-role", "entity", 0.75, "user", "role",
     r"^(?P<s>" + _NAME + r")\s+(?:became|becomes|is now|was promoted to|got promoted to|moved into|stepped into|"
     r"took on)\s+(?:the\s+|an?\s+|our\s+)?(?:new\s+)?(?P<v>(?:[\w-]+\s+){0,2}(?:" + _ROLES + r"))\b"),
    ("does-on-weekday", "entity", 0.75, "user", "schedule",
     r"^(?P<s>" + _NAME + r")\s+(?P<v>swims|plays\s+\w+|trains|practices|rides|climbs|dances|skates|runs|"
     r"has\s+[\w -]+?)\s+(?:on|every)\s+(?P<d>" + _WEEKDAY + r")\b"),
    ("attribute-is", "domain_fact", 0.75, "user!", "",
     r"^(?:the\s+)?(?P<s>[\w.' -]{2,30}?)(?:'s|’s)\s+(?P<s2>(?:main\s+|primary\s+|current\s+|new\s+)?"
     r"(?:" + _ATTRIBUTES + r"))\s+(?:is|are|=|:)\s+(?P<v>.+)"),
    ("moved-to", "entity", 0.75, "user", "home",
     r"^(?:my\s+[\w-]+\s+)?(?P<s>" + _NAME + r")\s+(?:has\s+)?(?:just\s+)?(?:moved|relocated)\s+to\s+"
     r"(?P<v>" + _NAME + r")"),
    ("lessons-on", "entity", 0.75, "user", "schedule",
     r"^(?P<s>" + _NAME + r")(?:'s|’s)?\s+(?:has\s+)?(?P<v>[\w -]{2,30}?\s+(?:lessons?|class(?:es)?|practice|training|"
     r"therapy|tutoring))\s+(?:is\s+|are\s+)?(?:on|every)\s+(?P<d>" + _WEEKDAY + r")\b"),
    # how systems, teams and clients are set up
    ("we-are-on-version", "domain_fact", 0.75, "user", "version",
     r"\b(?:we'?re|we are|we'?re still|the project is|it'?s|(?:the\s+)?[\w-]+\s+is)\s+(?:on|using|running|pinned to)"
     r"\s+(?P<s>[\w.-]+)\s+(?P<v>v?\d+(?:\.\d+)+\w*)"),
    ("uses-version", "domain_fact", 0.75, "any", "version",
     r"\b(?:uses|use|runs|pins|ships with|depends on)\s+(?P<s>[\w.-]+)\s+(?P<v>v?\d+(?:\.\d+)+\w*)\b"),
    ("meeting-at", "domain_fact", 0.75, "user", "",
     r"^(?:the\s+|our\s+)?(?P<s>[\w' -]{0,30}?\b(?:standup|stand-up|meeting|sync|retro|retrospective|review|1:1|"
     r"one-on-one|check-in|planning|demo))\s+(?:is|starts|happens|runs|begins)\s+(?:(?:every day|daily|now)\s+)?"
     r"(?:at\s+)?(?P<v>" + _TIME + r")\b"
     r"|^(?P<s2>(?:the\s+)?[\w-]+(?:\s+team)?)\s+stands\s+up\s+(?:every\s+(?:day|morning)\s+|daily\s+)?at\s+"
     r"(?P<v2>" + _TIME + r")\b"),
    ("setting-is", "domain_fact", 0.75, "any", "",
     r"\b(?:the\s+)?(?P<s>(?:[\w-]+\s+){0,2}(?:timeout|ttl|retention|sla|quota|threshold|interval|port|limit|"
     r"max(?:imum)?|minimum|batch size|pool size))\s+(?:for|of|in|on)\s+(?P<s2>[\w.-]+)\s+(?:is|are|=)\s+(?P<v>.+)"),
    ("times-out-at", "domain_fact", 0.75, "any", "timeout",
     r"^(?P<s>[\w.-]+)\s+(?:times\s+out|gives\s+up)\s+(?:[\w ]+?\s+)?(?:at|after)\s+(?P<v>\d.+)"),
    ("billed", "domain_fact", 0.75, "user", "billing",
     r"^(?P<s>" + _NAME + r")\s+(?:is billed|are billed|pays|pay|is invoiced|are invoiced|renews|gets invoiced)\s+"
     r"(?P<v>monthly|quarterly|annually|yearly|weekly|every\s+[\w ]+|once a [\w]+|twice a [\w]+)\b"),
    ("sla", "domain_fact", 0.75, "user", "sla",
     r"\b(?P<v>\d{2}(?:\.\d+)?\s*%)\s+(?:uptime|availability)(?:\s+(?:sla|target|guarantee))?\s+(?:for|on)\s+(?P<s>.+)"
     r"|^(?P<s2>.+?)\s+(?:has|offers|guarantees|promises|commits to)\s+(?:an?\s+)?(?P<v2>\d{2}(?:\.\d+)?\s*%)\s+"
     r"(?:uptime|availability)"
     r"|^(?P<s3>.+?)(?:'s|’s)?\s+(?:uptime\s+)?sla\s+(?:is|=|:)\s+(?P<v3>\d{2}(?:\.\d+)?\s*%)"),
    ("sprints-last", "domain_fact", 0.7, "user", "sprint",
     r"^(?P<s>(?:the\s+)?[\w-]+(?:\s+team)?)\s+(?:sprints?|iterations?|cycles?)\s+(?:last|are|run|take)\s+"
     r"(?P<v>(?:one|two|three|four|\d+)\s+weeks?)"
     r"|^(?P<s2>(?:the\s+)?[\w-]+(?:\s+team)?)\s+(?:runs|does|works in|has)\s+"
     r"(?P<v2>(?:one|two|three|four|\d+)[- ]weeks?)"
     r"\s+(?:sprints?|iterations?|cycles?)"
     r"|^(?P<s3>(?:the\s+)?[\w-]+(?:\s+team)?)\s+(?:moved|switched|changed|went|goes)\s+to\s+"
     r"(?P<v3>(?:one|two|three|four|\d+)[- ]weeks?)\s+(?:sprints?|iterations?|cycles?)"),
    ("we-bill", "domain_fact", 0.75, "user", "billing",
     r"\bwe\s+(?:invoice|bill|charge)\s+(?P<s>" + _NAME + r")\s+(?P<v>monthly|quarterly|annually|yearly|weekly|"
     r"every\s+[\w ]+|once a \w+|twice a \w+)\b"),
    ("runs-on", "decision", 0.7, "user!", "",
     r"^(?P<s>(?:the\s+)?(?:[\w.'-]+\s+){0,3}?[\w.'-]+)\s+(?:now\s+)?(?P<verb>(?-i:runs|builds|is hosted|are hosted|"
     r"is deployed|are deployed|lives|is running|gets deployed|deploys|is built|(?:builds|jobs|workers|services|tests|"
     r"pipelines)\s+run))\s+(?:on|in|to|with|at|using)\s+(?P<v>.+)"),
    ("stores-in", "decision", 0.7, "user!", "datastore",
     r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:stores|keeps|writes|persists|saves)\s+(?:(?:everything|all (?:its|"
     r"their) data|its data|their data|data)\s+)?(?:in|to|on|into)\s+(?P<v>.+)"),
)

# Broad cues: the general shapes of a durable statement, for wordings the cues above were not
# written for. They are tried last, with a lower confidence, and never on a sentence that dates
# itself to one moment ("this morning", "right now"). They were checked against a blind,
# hand-written set (tests/bench/fact_phrasings.py), not the synthetic corpus's templates.
_FAILING = (
    r"(?:fail(?:s|ed)?|break(?:s)?|broke|crash(?:es|ed)?|flake(?:s|d)?|die(?:s|d)?|hang(?:s)?|times? out|ooms?|"
    r"runs? out of memory|goes down|go(?:es)? red|falls? over|jams?|drops?|deadlocks?|rebalances?|drifts?|"
    r"misses|chokes?|rejects?|leaks?|logs? (?:people|users|me|you|everyone) out|returns? (?:stale|errors?|\d{3}s?)|"
    r"starts? returning|won'?t (?:start|build|boot|load|connect)|stops? working|errors? out)"
)
_RECURRING = (
    r"(?:whenever|every time|each time|any time|anytime|every run|on every|on any|with any|unless|because|due to|"
    r"caused by|triggered by|trace back to|traces back to|line up with|lines up with|when)"
)
_RELATIONS = (
    r"mother|father|mom|mum|dad|sister|brother|wife|husband|partner|son|daughter|kids?|children|child|manager|boss|"
    r"dentist|doctor|gp|landlord|landlady|accountant|therapist|lawyer|dog|cat|car|bike|grandma|grandpa|grandmother|"
    r"grandfather|aunt|uncle|cousin|niece|nephew|neighbou?r|flatmate|roommate|mentor|coach|trainer|vet|pet|"
    r"(?:\w+'s\s+)?birthday|address|home town|hometown"
)
_EVIDENCE = re.compile(
    r"^(?:(?:from what i can see|based on|going by|judging by|according to|looking at|checking|from)\b[^,]{0,60},\s*"
    r"|(?:it\s+)?looks like\s+|so\s+)",
    re.IGNORECASE,
)
_ONE_OFF = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening)|yesterday|last night|just now|right now|"
    r"at the moment|an hour ago|minutes ago|earlier|this (?:one|file|function|pr|ticket|line))\b",
    re.IGNORECASE,
)
_BROAD_TABLE: tuple[tuple[str, str, float, str, str, str], ...] = (
    ("broad-failure", "failure_pattern", 0.75, "any", "failure",
     r"^(?:[\w ]{3,30}:\s*)?(?:every\s+[\w-]+\s+)?(?P<s>(?:the\s+|our\s+|my\s+|these\s+)?[\w.'’/ -]{2,60}?)\s+"
     r"(?:(?:keeps?|kept|always|still|reliably)\s+)?" + _FAILING + r"\b(?P<v>.*?\b" + _RECURRING + r"\b.+)"),
    ("broad-failure-cause", "failure_pattern", 0.75, "any", "failure",
     r"^(?:whenever|every time|each time)\s+(?P<v>.+?),\s+(?P<s>.+?)\s+(?:starts?\s+)?" + _FAILING + r"\b"),
    ("broad-allergy", "constraint", 0.8, "user", "allergy",
     r"\b(?:i'?m|i am)\s+(?:severely\s+|very\s+)?(?:allergic|intolerant)\s+to\s+(?P<v>.+)"
     r"|^(?P<v2>[\w -]+?)\s+only\s+for\s+me\b"),
    ("broad-cannot", "constraint", 0.75, "user", "",
     r"^(?P<s>(?:(?!\band\b|\bbut\b|\bso\b)[^,;]){2,50}?)\s+"
     r"(?:can'?t|cannot|must not|mustn'?t|may not|(?:is|are)n'?t allowed(?: to)?|(?:is|are) not allowed"
     r"(?: to)?|(?:is|are) never allowed(?: to)?)\s+(?P<v>.+)"),
    ("broad-only-allowed", "constraint", 0.75, "user", "",
     r"^only\s+(?P<v>.+?)\s+(?:is|are)\s+(?:allowed|permitted|accepted)\s+(?:in|on|for|into)\s+(?P<s>.+)"),
    ("broad-at-most", "constraint", 0.75, "user", "limit",
     r"^(?:nothing over|no more than|not more than|never more than|max(?:imum)?|at most)\s+"
     r"(?P<v>[$€£]?\d[\w.,$€£%]*(?:\s+[\w-]+){0,3}?)\s+(?:for|per|on|in)\s+(?P<s>[\w -]+)"),
    ("broad-needs", "constraint", 0.75, "user", "",
     r"^(?P<s>(?:every|each|all|any)\s+[\w -]+?|public [\w -]+?)\s+(?:needs?|requires?|must have|must get)\s+"
     r"(?P<v>.+)"),
    ("broad-never-goes", "constraint", 0.75, "user", "",
     r"^(?P<s>[\w -]{3,40}?)\s+never\s+(?P<v>(?:go|goes|get|gets|leave|leaves|run|runs|ship|ships|touch|touches)\b.+)"),
    ("broad-no-x", "constraint", 0.7, "user", "",
     r"^no\s+(?P<s>(?!worries|problem|idea|clue|way|rush|thanks|luck|need|pressure|big deal)[\w-]+(?:\s+[\w-]+)?)\s+"
     r"(?P<v>(?:on|during|before|after|without|outside)\s+.+)"),
    ("broad-hard-stop", "constraint", 0.75, "user", "",
     r"\bhard\s+(?:stop|limit|cap|deadline|cutoff)\b\s*(?:at|of|is|:)?\s*(?P<v>.+)"),
    ("broad-decided", "decision", 0.75, "user", "",
     r"^(?:decided|decision|final (?:call|decision)|settled|agreed)\b[^:]{0,40}?[:,—-]+\s*(?P<v>.+)"
     r"|^(?P<v2>" + _NAME + r")\s+it is\b"
     r"|^(?P<s3>.+?)\s+(?:is|are)\s+(?:locked in|confirmed|signed off|finali[sz]ed)\s+(?:for|as|at)\s+(?P<v3>.+)"),
    ("broad-we-will", "decision", 0.7, "user", "",
     r"^(?:we'?ll|we will|we'?re going to|we are going to|i'?ve decided to|i decided to)\s+"
     r"(?:name|call|use|be using|build|adopt|hire|take|ship|standardi[sz]e on|move|migrate|switch|run)\s+(?P<v>.+)"
     r"|^(?:we'?re|we are)\s+(?:adopting|standardi[sz]ing on|hiring|moving to|migrating to|switching to)\s+"
     r"(?P<v2>.+)"),
    ("broad-moving", "decision", 0.7, "user", "",
     r"^(?:moving|migrating|switching|porting)\s+(?P<s>.+?)\s+(?:to|onto|over to)\s+(?P<v>.+)"),
    ("broad-will-be", "decision", 0.7, "user", "",
     r"^(?P<s>.+?)\s+will\s+be\s+(?:built|handled|managed|written|hosted|run|done|deployed|stored|made|kept)\s+"
     r"(?:in|by|with|on|through|via|at|using)\s+(?P<v>.+)"),
    ("broad-gets", "decision", 0.7, "user!", "",
     r"^(?P<v>" + _NAME + r")\s+gets\s+the\s+(?P<s>[\w -]+?(?:contract|deal|job|project|account|role|work))\b"),
    ("broad-my-relation", "entity", 0.75, "user", "",
     r"^(?:my|our)\s+(?P<s>(?:[\w'-]+\s+){0,1}?(?:" + _RELATIONS + r"))(?:'s|’s)?\s+(?:is|are|lives|live|goes|go|"
     r"works|work|'s|’s|falls|studies|drives)\s+(?:on\s+|in\s+|at\s+|to\s+|as\s+)?(?P<v>.+)"),
    ("broad-name-apposition", "entity", 0.75, "user", "",
     r"^(?P<s>" + _NAME + r"),\s+(?:my|our)\s+[\w -]+?,\s+(?P<v>.+)"
     r"|^(?:my|our)\s+(?P<s2>[\w -]+?),\s+(?:" + _NAME + r"),\s+(?P<v2>.+)"),
    ("broad-name-is-my", "entity", 0.75, "user", "",
     r"^(?P<s>" + _NAME + r")\s+(?:is|'s)\s+(?P<v>my\s+.+)"),
    ("broad-name-does", "entity", 0.75, "user", "",
     r"^(?P<s>" + _NAME + r")\s+(?:handles|owns|runs|leads|maintains|covers|looks after|works from|"
     r"works out of|is based in|lives in|takes care of)\s+(?P<v>.+)"
     r"|^(?P<s2>" + _NAME + r")\s+is\s+(?P<v2>" + _DIETS + r")\b"),
    ("broad-handled-by", "entity", 0.75, "user", "owner",
     r"^(?P<s>.+?)\s+(?:is|are)\s+(?:handled|owned|run|led|managed|maintained|covered|looked after)\s+by\s+"
     r"(?P<v>.+)"),
    ("broad-name-of", "entity", 0.8, "user", "name",
     r"^(?:the\s+|my\s+|our\s+)?(?P<s>[\w -]+?)(?:'s|’s)\s+name\s+is\s+(?P<v>.+)"
     r"|^(?:call me|i go by)\s+(?P<v2>" + _NAME + r")"),
    ("broad-setting", "domain_fact", 0.7, "any", "",
     r"^(?:the\s+|our\s+|your\s+)?(?P<s>(?:[\w-]+\s+){0,3}?(?:target|goal|sla|slo|budget|limit|cap|ceiling|ttl|timeout|"
     r"retention|deadline|rotation|cadence))\b(?:\s+(?:for|of|on)\s+(?P<s2>[\w ]+?))?\s+(?:is|are|=|:)\s+"
     r"(?:set to\s+|now\s+)?(?P<v>.+)"),
    ("broad-relation", "domain_fact", 0.7, "user!", "",
     r"^(?:the\s+|our\s+|your\s+|all\s+(?:the\s+)?)?(?P<s>(?:[\w.`-]+(?:'s)?\s+){0,4}?[\w.`-]+)\s+"
     r"(?:talks to|reads from|writes to|"
     r"consumes from|publishes to|subscribes to|authenticates (?:through|via|against)|(?:is|are) served from|"
     r"lands? in|(?:gets?|is|are) routed to|(?:is|are) loaded from|(?:is|are) evaluated|needs? review from|"
     r"(?:is|are) (?:kept|retained|stored) for|expires? after|renews?|(?:is|are) rebuilt|(?:is|are) generated|"
     r"(?:is|are) set to|pays on|go(?:es)? through|go(?:es)? to|handles|covers|"
     r"(?:is|are) (?:a|an|the|our)\s+(?:\w+\s+){0,2}(?:copy|mirror|replica|customer|client|vendor|partner|"
     r"supplier)\b)\b\s*(?P<v>.+)"),
    ("broad-preference", "preference", 0.7, "user", "",
     r"\bi\s+(?:really\s+)?(?:hate|can'?t stand|dislike|love|adore)\s+(?P<v>.+)"
     r"|\bi'?m\s+(?:more of|not)\s+an?\s+(?P<v2>.+?)\s+person\b"
     r"|^when you\s+[^,]+,\s*(?P<v3>(?:give|show|use|write|send|keep|put|include)\b.+)"
     r"|^(?:please\s+)?default to\s+(?P<v4>.+)"
     r"|^(?P<v5>[^,]+?)\s+(?:everywhere,?\s+please|in everything you write|in anything you write|by default)\b"
     r"|\b(?:that'?s|it'?s)\s+my\s+(?:routine|habit|thing|rule)\b"
     r"|\bi'?d like\s+(?P<v6>.+?)\s+(?:pushed|moved|kept|scheduled|booked|put)\s+(?:to|in|on|for)\s+(?P<v7>.+)"),
)
# fmt: on
CUES: tuple[Cue, ...] = tuple(
    Cue(name, category, confidence, who, aspect, re.compile(pattern, re.IGNORECASE))
    for name, category, confidence, who, aspect, pattern in (*_CUE_TABLE, *_BROAD_TABLE)
)
BROAD_CUES = frozenset(name for name, *_ in _BROAD_TABLE)
_VALUE_SPLIT = re.compile(r"^(?P<s>.+?)\s+(?:on|in|at|to|with|as|for|into|onto|via)\s+(?P<v>[^ ].*)$", re.I)
_LEAD_VERB = re.compile(
    r"^(?:to\s+)?(?P<verb>use|using|host|hosting|run|running|keep|go with|going with|move|put|deploy|spend|store|"
    r"adopt|build)\s+",
    re.IGNORECASE,
)


def is_assistant(speaker: str) -> bool:
    folded = fold(speaker).strip()
    return folded in _ASSISTANTS or folded.startswith(("assistant", "ai "))


def clean_sentence(sentence: str) -> str:
    """A sentence without the chatter around it ("oh btw, ...", "... lol")."""
    text = " ".join(sentence.split())
    for _ in range(3):
        before = text
        text = _TRAILER.sub("", _PREAMBLE.sub("", text).strip()).strip()
        if text == before:
            break
    return text.rstrip(" ,;:-")


def _disqualified(text: str, cue: Cue) -> bool:
    """Questions, hypotheticals, temporary arrangements, rejected options and hearsay state no fact."""
    if text.endswith("?") or _QUESTION_START.match(text):
        return True
    if _TEMPORARY.search(text) or _REJECTED.search(text):
        return True
    if _HYPOTHETICAL.search(text):
        # "X fails if the cache is cold" is a failure pattern; "if we decided..." is not a decision
        conditional_failure = cue.category == "failure_pattern" and not re.match(r"(?:if|what if)\b", text, re.I)
        if not conditional_failure:
            return True
    return cue.category not in ("entity", "failure_pattern") and bool(_HEARSAY.search(text))


def key_words(text: str, generic: bool = False) -> list[str]:
    """The words of a phrase that can name a subject: content word forms, generic ones only if asked."""
    words = []
    for token in WORD.findall(text):
        token = re.sub(r"['’]s$", "", token)
        form = fold(token) if token[:1].isupper() and not token.isupper() else word_form(token)
        if not form or fold(token) in STOPWORDS or form[0].isdigit():
            continue
        if not generic and is_generic(form) and not (token.isupper() and len(token) >= 2):
            continue
        words.append(form)
    return words


def subject_key(*parts: str, aspect: str = "", generic: bool = False, drop: Iterable[str] = ()) -> str:
    """A short snake_case key: the subject phrase's content words (at most six), then the aspect."""
    dropped = set(drop)
    return key_from_words([w for part in parts for w in key_words(part, generic) if w not in dropped], aspect)


def key_from_words(forms: Iterable[str], aspect: str = "") -> str:
    words: list[str] = []
    for form in forms:
        ascii_form = unicodedata.normalize("NFKD", form).encode("ascii", "ignore").decode()
        words.extend(p for p in re.split(r"[^a-z0-9]+", ascii_form.lower()) if p and p not in words)
    words = list(dict.fromkeys(ASPECT_OF.get(w, w) for w in words))
    if aspect and aspect not in words:
        words = [*words[: MAX_KEY_WORDS - 1], aspect]
    return "_".join(words[:MAX_KEY_WORDS])


def _subject_of(match: re.Match[str], cue: Cue) -> str:
    groups = {k: v for k, v in match.groupdict().items() if v}
    subject = " ".join(groups[k] for k in ("s0", "s", "s2", "s3") if k in groups)
    verb = (groups.get("verb") or "").lower()
    if (
        subject
        and cue.name in ("runs-on", "is-versioned")
        and verb
        and not any(w in ASPECT_OF for w in key_words(subject))
    ):
        subject += " CI" if "build" in verb else " hosting" if re.search(r"host|deploy|run|live", verb) else " " + verb
    if not subject and cue.category == "decision":
        # "we decided to host Atlas on Heroku": the subject sits before the value's preposition,
        # and the verb says which aspect of it ("atlas_host", not "atlas": its CI is another subject)
        value = groups.get("v", "")
        for_split = re.match(r"^(?P<v>.+?)\s+for\s+(?P<s>.+)$", value, re.IGNORECASE)
        verb = _LEAD_VERB.match(value)
        split = for_split or _VALUE_SPLIT.match(_LEAD_VERB.sub("", value))
        subject = split.group("s") if split else ""
        if verb and not for_split and subject:
            subject += " " + verb.group("verb")
    return subject


def _fact_text(speaker: str, text: str) -> str:
    """The sentence as a fact; a first-person one is quoted with its speaker ("alice: I prefer tabs.")."""
    body = text[0].upper() + text[1:]
    if body[-1] not in ".!":
        body += "."
    label = speaker if re.fullmatch(r"[\w.-]{1,40}", speaker) else "user"
    return f"{label}: {body}" if _FIRST_PERSON.search(text) else body


@dataclass(frozen=True)
class Extracted:
    category: str
    subject: str
    fact: str
    confidence: float
    cue: str


def extract_sentence(sentence: str, speaker: str) -> Extracted | None:
    """The durable fact one sentence states, or None (see the cue table and the disqualifiers)."""
    text = clean_sentence(sentence)
    if not 2 <= len(text.split()) <= MAX_FACT_WORDS:
        return None
    assistant = is_assistant(speaker)
    # "Based on the config you pasted, the orders service reads from the replica": what the
    # assistant read in the user's own setup, which the broad cues may take from it
    evidence = _EVIDENCE.match(text)
    plain = text[evidence.end() :] if evidence else text
    one_off = bool(_ONE_OFF.search(sentence))  # before cleaning: "right now" is not chatter
    for cue in CUES:
        broad = cue.name in BROAD_CUES
        if broad and (one_off or "?" in text):
            continue
        if assistant and cue.who != "any" and not (broad and evidence and cue.category == "domain_fact"):
            continue
        match = cue.pattern.search(plain if broad else text)
        if match is None or _disqualified(text, cue):
            continue
        if cue.who == "user!" and not (names_of(match.group(0))[1] or re.search(r"\d", match.group(0))):
            continue  # "the app uses too much memory": about nothing in particular
        value = next((v for k, v in sorted(match.groupdict().items()) if k.startswith("v") and v), "")
        subject = _subject_of(match, cue)
        key = (
            subject_key(subject, aspect=cue.aspect)
            or subject_key(value, aspect=cue.aspect)
            or subject_key(value or text, aspect=cue.aspect, generic=True)
        )
        if (
            cue.category == "preference"
            and _ANSWERING.search(text)
            and not (subject and not _ANSWERING.search(subject))
        ):
            key = "answers"  # how the assistant should answer: one subject, whatever the wording
        if not key:
            continue
        confidence = cue.confidence - (0.1 if _HEDGE.search(text) else 0.0) - (0.05 if assistant else 0.0)
        return Extracted(cue.category, key, _fact_text(speaker, text), round(confidence, 2), cue.name)
    change = change_of(text)
    if change is None or assistant:
        return None
    # "we switched Atlas from Heroku to Fly.io", "no more cortado for me": a change states a fact by itself
    bare = Cue("change", "decision", 0.8, "user", "", re.compile(""))
    if _disqualified(text, bare) or _EVENT.search(text):
        return None
    if not change.old and re.search(
        r"\b(?:today|tonight|tomorrow|this (?:week|morning|afternoon|evening))\b", text, re.I
    ):
        return None  # "the meeting moved to 3pm today": a one-off
    between = re.search(CHANGE_VERB + r"\s+(?P<s>.*?)\s*(?:\bfrom\b|,|\bto\b)", text, re.IGNORECASE)
    parts = [text[: change.start], between.group("s") if between else "", change.subject]
    later = NEW_VALUE.search(text, change.start) if not change.new else None
    new = change.new or (" ".join(v for v in later.groups() if v) if later else "")
    verbs = [w for w in key_words(text, generic=True) if stem(w) in CHANGE_WORDS]  # "switched" names nothing
    drop = [*key_words(change.old), *key_words(new), *verbs]
    key = (
        subject_key(*parts, drop=drop)
        or subject_key(text, drop=drop)
        or subject_key(text, drop=[*key_words(change.old), *verbs])
        or subject_key(text, generic=True, drop=verbs)
    )
    if not key:
        return None
    # "the pool changed the schedule: Elsa swims on Wednesday instead of Monday" is about Elsa
    named = names_of(text)[1] - names_of(change.old)[1] - names_of(new)[1]
    tokens = [
        t for t in WORD.findall(text) if word_form(re.sub(r"['’]s$", "", t)) in named and not is_generic(t.lower())
    ]
    if tokens and not {stem(word_form(w)) for w in key.split("_")} & {stem(n) for n in named}:
        key = key_from_words([*key_words(tokens[0]), *key.split("_")])
    mine = re.search(r"\b(?:i|i'm|i've|my|me)\b", text, re.IGNORECASE)
    return Extracted("preference" if mine else "decision", key, _fact_text(speaker, text), 0.8, "change")


def extract_facts(unit: Unit, config: Config) -> tuple[FactCandidate, ...]:
    """The durable facts stated in one day's chunks, found by cue (deterministic and offline)."""
    day = unit.period.key
    found: dict[tuple[str, str], FactCandidate] = {}
    for chunk in unit.chunks:
        for sentence in sentences(chunk.text):
            extracted = extract_sentence(sentence, chunk.speaker)
            if extracted is None or extracted.confidence < config.fact_min_confidence:
                continue
            key = (extracted.subject, plain_text(extracted.fact).casefold())
            previous = found.get(key)
            if previous is None:
                found[key] = FactCandidate(
                    extracted.category, extracted.subject, extracted.fact, extracted.confidence, day, (chunk.id,)
                )
            elif chunk.id not in previous.sources:  # said twice the same day: one candidate, both sources
                found[key] = FactCandidate(
                    previous.category,
                    previous.subject,
                    previous.fact,
                    previous.confidence,
                    day,
                    (*previous.sources, chunk.id),
                )
    return tuple(found.values())


# ---------------------------------------------------------------- matching facts to a query


def match_forms(text: str) -> list[str]:
    """Word forms for phrase matching, compounds split (event-bus, event_bus -> event bus)."""
    return [
        word_form(part)
        for token in WORD.findall(text.replace("_", " "))
        for part in re.split(r"[.'’-]", token)
        if part and fold(part) not in STOPWORDS
    ]


def _contains(haystack: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    return any(list(haystack[i : i + n]) == list(phrase) for i in range(len(haystack) - n + 1))


class Matcher:
    """Facts by word form; the subject, the current value and each past value are separate fields."""

    def __init__(self, facts: Iterable[Fact]) -> None:
        self.facts = list(facts)
        self.fields: list[tuple[list[str], list[str], list[list[str]]]] = []
        self.index: dict[str, set[int]] = {}
        for n, f in enumerate(self.facts):
            subject, current = match_forms(f.subject), match_forms(f.current.fact)
            history = [match_forms(v.fact) for v in f.history]
            self.fields.append((subject, current, history))
            for form in {*subject, *current, *(w for h in history for w in h)}:
                self.index.setdefault(form, set()).add(n)

    def match(self, query: str, limit: int | None = None, phrase: bool = True) -> list[Fact]:
        """phrase: the query's words in a row (precise); else all of them anywhere. Best first."""
        scores: dict[int, int] = {}
        for words in {tuple(match_forms(query)), tuple(match_forms(topic_key(query, BUILTIN_ALIASES)))}:
            if not words:
                continue
            for n in set.intersection(*(self.index.get(w, set()) for w in words)):
                subject, current, history = self.fields[n]
                if _contains(subject, words):
                    score = 5
                elif _contains(current, words):
                    score = 4
                elif any(_contains(h, words) for h in history):
                    score = 3
                else:  # all the words, not in a row: the current value's first
                    score = 2 if set(words) <= {*subject, *current} else 1
                if score >= 3 or not phrase:
                    scores[n] = max(scores.get(n, 0), score)
        ranked = sorted(
            scores, key=lambda n: (-scores[n], -self.facts[n].current.seen, -self.facts[n].current.confidence, n)
        )
        return [self.facts[n] for n in ranked[:limit]]


# ---------------------------------------------------------------- reading the store


def category_path(category: str) -> str:
    return f"{FACTS_DIR}/{category}.md"


def load_facts(vault: Vault) -> list[Fact]:
    """The current facts, with their history, as stored (by category, then subject)."""
    facts: list[Fact] = []
    for category in CATEGORIES:
        data = vault.read_bytes(category_path(category))
        if data:
            facts.extend(parse_category(data.decode("utf-8", errors="replace"), category))
    return facts


def get_fact(vault: Vault, subject: str) -> Fact | None:
    """One fact by its subject key ("deploy process" and "deploy-process" mean deploy_process)."""
    wanted = "_".join(re.split(r"[\s_-]+", subject.strip().lower()))
    return next((f for f in load_facts(vault) if f.subject == wanted), None)


def search_facts(vault: Vault, query: str) -> list[Fact]:
    """Facts holding every word of the query (subject, current value or history), best first."""
    return Matcher(load_facts(vault)).match(query, phrase=False)


def facts_matching(vault: Vault, text: str, limit: int = 5) -> list[Fact]:
    """Facts whose subject, value or history holds the query as a phrase of word forms (precise:
    "auth" never matches "author"); subject matches first, then current values, then history."""
    return Matcher(load_facts(vault)).match(text, limit)


def standing_fact_lines(vault: Vault) -> tuple[str, ...]:
    """ROOT.md's "Standing facts": one line per current fact, preferences and constraints first,
    then the most corroborated, the most confident and the most recent."""
    facts = sorted(
        load_facts(vault),
        key=lambda f: (
            STANDING_ORDER.index(f.category),
            -f.current.seen,
            -f.current.confidence,
            "".join(chr(0x10FFFF - ord(c)) for c in f.current.valid_from),  # newest first
            f.subject,
        ),
    )
    lines = []
    for f in facts:
        words = f.current.fact.split()
        text = " ".join(words[:STANDING_WORDS]) + (" …" if len(words) > STANDING_WORDS else "")
        lines.append(f"- **{f.subject}**: {text} (since {f.current.valid_from})")
    return tuple(lines)


def audit_events(vault: Vault) -> list[Event]:
    """facts/audit.jsonl, oldest first (what `memtree facts log` shows)."""
    data = vault.read_bytes(AUDIT_FILE)
    return parse_audit(data.decode("utf-8", errors="replace")) if data else []


# ---------------------------------------------------------------- undo


@dataclass(frozen=True)
class Override:
    """One `undo`: it reverses an audit event, or an earlier undo (which restores that event)."""

    id: str
    undo: str  # the event or undo id reversed
    kind: str
    subject: str


def read_overrides(vault: Vault) -> list[Override]:
    data = vault.read_bytes(OVERRIDES_FILE)
    if not data:
        return []
    import yaml

    from .config import safe_loader, too_nested

    try:
        text = data.decode("utf-8")
        if too_nested(text):
            raise RecursionError
        loaded = yaml.load(text, Loader=safe_loader(yaml, text))  # the C loader segfaults on deep nesting
    except (UnicodeDecodeError, yaml.YAMLError, RecursionError):
        raise VaultFormatError(f"{OVERRIDES_FILE} is unreadable", hint="fix it, or restore it from git") from None
    entries = loaded.get("undo") if isinstance(loaded, dict) else None
    if not isinstance(entries, list):
        raise VaultFormatError(f"{OVERRIDES_FILE}: 'undo' must be a list", hint="fix it, or restore it from git")
    return [
        Override(str(e["id"]), str(e["undo"]), str(e.get("kind", "")), str(e.get("subject", "")))
        for e in entries
        if isinstance(e, dict) and e.get("id") and e.get("undo")
    ]


def active_reversals(overrides: Sequence[Override]) -> dict[str, str]:
    """event id -> the undo reversing it. An undo that was itself undone reverses nothing."""
    cancelled: set[str] = set()
    active: dict[str, str] = {}
    for override in reversed(overrides):  # a later undo can only target an earlier one
        if override.id not in cancelled:
            cancelled.add(override.undo)
            active.setdefault(override.undo, override.id)
    return active


def _write_overrides(vault: Vault, overrides: Sequence[Override]) -> None:
    from .markdown import dump_yaml

    header = (
        "# Reversed fact events, honoured by every rebuild of facts/ (written by `memtree facts undo ID`).\n"
        "# Undoing an undo id restores its event. Event ids: facts/audit.jsonl.\n"
    )
    vault.write(OVERRIDES_FILE, (header + dump_yaml({"undo": [o.__dict__ for o in overrides]})).encode("utf-8"))


def undo(vault: Vault, event_id: str) -> str:
    """Reverses an audit event (or an earlier undo), rebuilds facts/ and ROOT.md; returns the undo's id.

    Undoing what is already undone changes nothing and returns the undo that did it.
    """
    from .index import Index
    from .root import write_root

    wanted = event_id.strip()
    with vault.lock() as acquired:
        if not acquired:
            raise ConflictError("a compaction is running", hint="run `memtree facts undo` again when it finishes")
        overrides = read_overrides(vault)
        active = active_reversals(overrides)
        events = {e.id: e for e in audit_events(vault)}
        undos = {o.id: o for o in overrides}
        if wanted not in events and wanted not in undos:
            raise InvalidInputError(
                f"no fact event or undo with id {wanted!r}",
                hint="event ids are in facts/audit.jsonl (`memtree facts log`), undo ids in facts/overrides.yaml",
            )
        if wanted in active:
            return active[wanted]
        if wanted in undos and wanted not in active.values():  # that undo is already cancelled
            return next(o.id for o in reversed(overrides) if o.undo == wanted)
        target = events.get(wanted)
        kind, subject = (target.kind, target.subject) if target else ("undo", undos[wanted].subject)
        new_id = "u" + hashlib.sha256(f"{wanted}:{len(overrides)}".encode()).hexdigest()[:11]
        _write_overrides(vault, [*overrides, Override(new_id, wanted, kind, subject)])
        with Index(vault) as index:
            index.sync()
            rebuild(vault, index)
            write_root(vault, index)
        return new_id


# ---------------------------------------------------------------- rebuild


@dataclass(frozen=True)
class RebuildReport:
    """What a rebuild did, and its retrieval check (facts a consolidation made hard to find)."""

    changed: list[str] = field(default_factory=list)  # vault files written or deleted
    candidates: int = 0
    clusters: int = 0
    facts: int = 0
    merged: int = 0  # near-duplicate statements folded into one
    corroborated: int = 0  # restatements counted as support for the current value
    superseded: int = 0
    kept: int = 0  # contradictions the current value won
    reversed: int = 0  # events undone by facts/overrides.yaml
    stale_overrides: list[str] = field(default_factory=list)  # undos whose event no longer occurs
    unreachable: list[dict[str, str]] = field(default_factory=list)  # {"query", "expected", "source"}
    similarity: str = "lexical"
    warning: str | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _candidates(index: Index, config: Config) -> list[FactCandidate]:
    """Every daily summary's candidates, cleaned: confidence floor, a valid date and subject key."""
    found = []
    for _path, summary in index.summaries("daily"):
        for c in summary.draft.facts:
            if c.confidence < config.fact_min_confidence or not c.sources or not c.fact.strip():
                continue
            valid_from = c.valid_from if re.fullmatch(r"\d{4}-\d\d-\d\d", c.valid_from) else summary.period
            subject = c.subject if SUBJECT.fullmatch(c.subject) else subject_key(c.subject, generic=True) or "fact"
            found.append(
                FactCandidate(c.category, subject, " ".join(c.fact.split()), c.confidence, valid_from, c.sources)
            )
    return found


def retrieval_check(outcome: Outcome) -> list[dict[str, str]]:
    """Each candidate's own subject, asked as a query, must still find the fact now holding it
    (among the first CHECK_LIMIT, as a phrase or by all its words)."""
    matcher = Matcher(outcome.facts)
    answers: dict[str, set[str]] = {}
    missing: dict[tuple[str, str], dict[str, str]] = {}
    for position, candidate in enumerate(outcome.ordered):
        expected = outcome.absorbed.get(position)
        query = candidate.subject.replace("_", " ")
        if expected is None or (query, expected) in missing:
            continue
        if query not in answers:
            found = matcher.match(query, CHECK_LIMIT) + matcher.match(query, CHECK_LIMIT, phrase=False)
            answers[query] = {f.subject for f in found}
        if expected not in answers[query]:
            missing[(query, expected)] = {"query": query, "expected": expected, "source": candidate.sources[0]}
    return [missing[k] for k in sorted(missing)]


def rebuild(vault: Vault, index: Index, similarity: Similarity | None = None) -> RebuildReport:
    """Recomputes facts/ from every daily summary's candidates; writes only the files that changed."""
    candidates = _candidates(index, vault.config)
    reversals = active_reversals(read_overrides(vault))
    label, warning = "custom" if similarity else "lexical", None
    if similarity is None:
        similarity, label, warning = similarity_for(vault, [plain_text(c.fact) for c in candidates])
    outcome = consolidate(candidates, reversals, similarity)
    changed: list[str] = []
    for category in CATEGORIES:
        facts = [f for f in outcome.facts if f.category == category]
        path = category_path(category)
        written = vault.write(path, render_category(category, facts).encode("utf-8")) if facts else vault.delete(path)
        if written:
            changed.append(path)
    if (outcome.events or vault.read_bytes(AUDIT_FILE) is not None) and vault.write(
        AUDIT_FILE, render_audit(outcome.events).encode("utf-8")
    ):
        changed.append(AUDIT_FILE)
    happened = {e.id for e in outcome.events}
    report = RebuildReport(
        changed=sorted(changed),
        candidates=len(outcome.ordered),
        clusters=outcome.clusters,
        facts=len(outcome.facts),
        merged=outcome.count("merge"),
        corroborated=outcome.count("corroborate"),
        superseded=outcome.count("supersede"),
        kept=outcome.count("keep"),
        reversed=sum(1 for e in outcome.events if e.reversed_by),
        stale_overrides=sorted(u for event, u in reversals.items() if event not in happened and event[:1] != "u"),
        unreachable=retrieval_check(outcome),
        similarity=label,
        warning=warning,
    )
    vault.write(REPORT_FILE, (json.dumps(report.to_json(), indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return report


def rebuild_facts(vault: Vault, index: Index) -> list[str]:
    """rebuild(), for compaction: the vault-relative paths it wrote or deleted."""
    return rebuild(vault, index).changed


def last_rebuild_report(vault: Vault) -> RebuildReport | None:
    """The last rebuild's report (.memtree/facts-report.json), None if there is none or it is unreadable."""
    data = vault.read_bytes(REPORT_FILE)
    if not data:
        return None
    with contextlib.suppress(ValueError, TypeError):
        return RebuildReport(**json.loads(data))
    return None


# ---------------------------------------------------------------- embeddings (optional)

# The embedding model of each provider that has one; other providers keep the lexical similarity.
EMBEDDING_MODELS = {
    "openai": "openai/text-embedding-3-small",
    "azure": "azure/text-embedding-3-small",
    "ollama": "ollama/nomic-embed-text",
    "gemini": "gemini/text-embedding-004",
    "mistral": "mistral/mistral-embed",
}
ENV_EMBEDDING_MODEL = "MEMTREE_EMBEDDING_MODEL"


def embedding_model(config: Config, env: Mapping[str, str] | None = None) -> str | None:
    """For a litellm vault: $MEMTREE_EMBEDDING_MODEL, else the embedding model of the chat model's provider."""
    if config.summarizer.backend != "litellm" or not config.summarizer.model:
        return None
    explicit = (os.environ if env is None else env).get(ENV_EMBEDDING_MODEL)
    if explicit:
        return explicit
    model = config.summarizer.model
    return EMBEDDING_MODELS.get(model.split("/", 1)[0] if "/" in model else "openai")


def similarity_for(vault: Vault, texts: Sequence[str]) -> tuple[Similarity | None, str, str | None]:
    """(similarity, label, warning): embedding cosine when the vault uses litellm, else None (lexical)."""
    model = embedding_model(vault.config)
    if model is None:
        return None, "lexical", None
    try:
        vectors = _embed(vault, model, texts)
    except Exception as exc:  # any provider failure: consolidate lexically, and say so
        reason = f"{type(exc).__name__}: {str(exc)[:160]}"
        return None, "lexical", f"embeddings unavailable ({reason}); lexical similarity used"

    def similarity(a: str, b: str) -> float:
        va, vb = vectors.get(a), vectors.get(b)
        if not va or not vb:
            return 0.0
        norm = math.sqrt(sum(x * x for x in va)) * math.sqrt(sum(y * y for y in vb))
        return sum(x * y for x, y in zip(va, vb, strict=False)) / norm if norm else 0.0

    return similarity, f"embeddings:{model}", None


def _embed(vault: Vault, model: str, texts: Iterable[str]) -> dict[str, list[float]]:
    """Vectors for texts: from .memtree/fact-embeddings.json, or one call per 64 missing texts."""
    cache: dict[str, dict[str, list[float]]] = {}
    raw = vault.read_bytes(EMBEDDINGS_FILE)
    with contextlib.suppress(ValueError):
        cache = json.loads(raw) if raw else {}
    known = cache.setdefault(model, {})

    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]

    wanted = sorted(set(texts))
    missing = [t for t in wanted if key(t) not in known]
    if missing:
        from .llm import _import_litellm

        litellm = _import_litellm()
        settings = vault.config.summarizer
        # embedding() ignores num_retries=0 and falls back to this default (3 requests per call, measured):
        # set for our calls only, and put back, since the process may use LiteLLM for other things
        previous = getattr(litellm, "DEFAULT_MAX_RETRIES", None)
        setattr(litellm, "DEFAULT_MAX_RETRIES", 0)  # noqa: B010
        try:
            for start in range(0, len(missing), 64):
                batch = missing[start : start + 64]
                response = litellm.embedding(
                    model=model, input=batch, api_base=settings.api_base, timeout=settings.timeout, num_retries=0
                )
                items = sorted(response.data, key=lambda item: _field(item, "index", 0))
                for text, item in zip(batch, items, strict=True):
                    known[key(text)] = [round(float(x), 6) for x in _field(item, "embedding", [])]
        finally:
            setattr(litellm, "DEFAULT_MAX_RETRIES", previous)  # noqa: B010
        vault.write(EMBEDDINGS_FILE, json.dumps(cache, sort_keys=True).encode("utf-8"))
    return {t: known[key(t)] for t in wanted}


def _field(item: Any, name: str, default: Any) -> Any:
    return item.get(name, default) if isinstance(item, dict) else getattr(item, name, default)
