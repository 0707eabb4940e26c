"""The frames that carry most durable facts, and what disqualifies a sentence (the offline tier's tables).

A frame is one shape of statement with named groups: `value` (what the fact says), `subject` (what it is
about, when the sentence names it), `old` (the value it replaces, when it says so). The first frame that
matches decides the category. Frames are few on purpose: the offline tier's job is precision; reading
English in all its wordings is the model's job (issue 27).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_I = re.IGNORECASE
# a phrase that can name a subject or a value: up to eight words, no clause break
_PHRASE = r"[^,;:!?()]{2,80}?"
_END = r"\s*[.!]?\s*$"
# a name as people write one: capitalized or with a digit ("Fly.io", "GitLab", "S3"), not a pronoun
_NAME = r"(?-i:[A-Z0-9][\w.&+-]*)"
# verbs that tell a value was replaced by another ("moved from Z to Y", "bumped X from Z to Y")
_CHANGED = (
    r"(?:moved|moves|moving|switched|migrated|changed|went|goes|swapped|raised|bumped|upgraded|shifted|relocated)"
)
_PRONOUN = r"(?:i|you|we|it|this|that|these|those|they|he|she|there|here|what|which|who)\b"


@dataclass(frozen=True)
class Frame:
    name: str
    category: str
    pattern: re.Pattern[str]
    confidence: float = 0.8


def _frame(name: str, category: str, pattern: str, confidence: float = 0.8) -> Frame:
    return Frame(name, category, re.compile(pattern, _I), confidence)


# "remember that …", "note: …", "keep in mind …": the speaker says outright that this is to be kept
MARKER = re.compile(
    r"^(?:please\s+|also\s+|and\s+)?(?:remember|note|keep in mind|bear in mind|for the record|for future reference|"
    r"make a note)(?:\s+that\b|\s*:)\s*(?P<body>\S.*)$",
    _I,
)
# "from now on …", "going forward …", at either end: a standing rule
STANDING = re.compile(
    r"^(?:from now on|going forward|from here on(?: out)?|henceforth|as a rule)\s*,?\s+(?P<body>\S.*)$"
    r"|^(?P<body2>\S.*?),?\s+(?:from now on|going forward|from here on(?: out)?)\s*[.!]?$",
    _I,
)

FRAMES: tuple[Frame, ...] = (
    # changes that name the old value: "X is now Y (was Z)", "X moved from Z to Y", "we switched X from Z to Y"
    _frame(
        "was-now",
        "decision",
        rf"^(?:the\s+|our\s+|my\s+)?(?P<subject>{_PHRASE})\s+(?:is|are)\s+now\s+(?P<value>{_PHRASE})\s*"
        rf"(?:\(\s*(?:it\s+)?was\s+(?P<old>[^()]{{1,60}})\)|,?\s+(?:instead of|rather than|not|no longer)\s+"
        rf"(?P<old2>{_PHRASE}))?{_END}",
        0.85,
    ),
    _frame(
        "moved-from-to",
        "decision",
        rf"^(?:we\s+|i\s+|they\s+)?(?:have\s+|'ve\s+)?{_CHANGED}\s+"
        rf"(?:the\s+|our\s+|my\s+)?(?P<subject>{_PHRASE})\s+from\s+(?P<old>{_PHRASE})\s+(?:to|over to|onto)\s+"
        rf"(?P<value>{_PHRASE}){_END}",
        0.85,
    ),
    _frame(
        "subject-moved-from-to",
        "decision",
        rf"^(?:the\s+|our\s+|my\s+)?(?P<subject>{_PHRASE})\s+(?:has\s+|is\s+)?{_CHANGED}\s+"
        rf"from\s+(?P<old>{_PHRASE})\s+(?:to|over to|onto)\s+(?P<value>{_PHRASE}){_END}",
        0.85,
    ),
    _frame(
        "switched-to",
        "decision",
        rf"^(?:we|i)\s+(?:have\s+|'ve\s+)?(?:switched|moved|migrated)\s+(?:over\s+)?to\s+(?P<value>{_PHRASE})"
        rf"(?:\s+(?:for|as)\s+(?P<subject>{_PHRASE}))?\s+(?:from|instead of)\s+(?P<old>{_PHRASE}){_END}",
        0.85,
    ),
    # where a thing runs, decided: "we decided to host Atlas on Heroku"
    _frame(
        "decided-host",
        "decision",
        rf"^(?:we|i|the team)\s+(?:have\s+|'ve\s+)?(?:decided|agreed|chose|opted)\s+to\s+"
        rf"(?P<verb>host|deploy|run|put)\s+"
        rf"(?:(?:the\s+|our\s+)?(?P<subject>{_PHRASE})\s+)?(?:on|in|at|to)\s+(?P<value>{_PHRASE}){_END}",
    ),
    # decisions: "we decided to use X for Y", "we settled on X", "we went with X", "decided: X"
    _frame(
        "decided",
        "decision",
        r"^(?:ok(?:ay)?,?\s+|so,?\s+)?(?:we|i|the team)\s+(?:have\s+|'ve\s+|finally\s+|officially\s+)?"
        r"(?:decided(?:\s+(?:on|that|to\s+(?:go with|use|stick with|keep))|\s*:)?|settled on|agreed(?:\s+on|\s+that)?|"
        r"chose|picked|went with|opted for|committed to|standardi[sz]ed on)\s+"
        rf"(?P<value>{_PHRASE})(?:\s+(?:for|as)\s+(?:the\s+|our\s+)?(?P<subject>{_PHRASE}))?{_END}",
    ),
    _frame(
        "decision-label",
        "decision",
        rf"^(?:decided|decision|final decision|agreed|settled)\s*[:\-–]\s*(?P<value>{_PHRASE})"
        rf"(?:\s+(?:for|as)\s+(?:the\s+|our\s+)?(?P<subject>{_PHRASE}))?{_END}",
    ),
    # preferences: "I prefer X (over Y)", "I'd rather X", "my favourite X is Y"
    _frame(
        "prefer",
        "preference",
        rf"^(?:i|we)\s+(?:really\s+|much\s+|strongly\s+|generally\s+)?(?:prefer|'d rather|would rather)\s+"
        rf"(?P<value>{_PHRASE})(?:\s+(?:for|in)\s+(?:the\s+|my\s+|our\s+)?(?P<subject>{_PHRASE}))?"
        rf"(?:\s+(?:over|to|than|rather than|instead of)\s+(?P<old>{_PHRASE}))?{_END}",
    ),
    _frame(
        "favourite",
        "preference",
        rf"^my\s+(?:favou?rite|preferred)\s+(?P<subject>{_PHRASE})\s+(?:is|are)\s+(?P<value>{_PHRASE}){_END}",
    ),
    # rules: "always X", "never X", "I always X", "please never X"
    _frame(
        "always-never",
        "preference",
        rf"^(?:please\s+)?(?:(?:i|we)\s+)?(?P<mode>always|never)\s+(?P<value>{_PHRASE}.*?){_END}",
    ),
    # constraints: "X must (not) Y", "X can never Y", "no more than N"
    _frame(
        "must",
        "constraint",
        rf"^(?:the\s+|our\s+|all\s+)?(?P<subject>(?!{_PRONOUN}){_PHRASE})\s+"
        rf"(?:must(?:\s+not|n't)?|can never|may never|may only|can only|can't|cannot|only accepts?|"
        rf"(?:is|are)n't allowed to|(?:is|are) not allowed to|(?:is|are) required to|has to|have to)\s+"
        rf"(?P<value>{_PHRASE}.*?){_END}",
    ),
    _frame(
        "allergic",
        "constraint",
        rf"^(?P<subject>i|i'm|i am|\w+)\s+(?:is\s+|am\s+|'m\s+)?(?:allergic|intolerant)\s+to\s+"
        rf"(?P<value>{_PHRASE}){_END}",
        0.85,
    ),
    # who and where: "my manager is Priya", "I live in Lyon", "I work at Acme as a nurse"
    _frame(
        "my-is",
        "entity",
        rf"^(?:my|our)\s+(?P<subject>(?!(?:plan|idea|guess|question|problem|point|bad|fault)\b){_PHRASE})\s+"
        rf"(?:is|are)\s+(?!(?:not|probably|maybe|going|getting|being|done|broken|down|late|here|there)\b)"
        rf"(?P<value>{_PHRASE}){_END}",
        0.75,
    ),
    _frame(
        "live-work",
        "entity",
        rf"^i\s+(?:currently\s+)?(?P<subject>live|work|am based|'m based)\s+(?P<prep>in|at|for|as)\s+"
        rf"(?:a\s+|an\s+)?(?P<value>{_PHRASE}){_END}",
        0.8,
    ),
    # "Kestrel's uptime SLA is 99.9%", "Anouk's birthday is March 3": a named thing's side, and its value
    _frame(
        "possessive-is",
        "domain_fact",
        rf"^(?P<subject>(?!{_PRONOUN}){_NAME}['’]s?\s+{_PHRASE})\s+(?:is|are)\s+(?:at\s+|on\s+)?(?P<value>{_PHRASE}){_END}",
        0.75,
    ),
    # "the Orca standup is at 9:30", "the offsite budget is 3,000 euros max": a side of a thing, counted
    _frame(
        "counted-is",
        "domain_fact",
        rf"^(?:the\s+|our\s+)?(?P<subject>(?!{_PRONOUN}){_PHRASE})\s+(?:is|are)\s+(?:at\s+|every\s+)?"
        rf"(?P<value>\$?\d[^,;!?()]{{0,40}}?){_END}",
        0.75,
    ),
    # "Lumio is limited to 300 requests per minute"
    _frame(
        "limited",
        "constraint",
        rf"^(?:the\s+|our\s+)?(?P<subject>(?!{_PRONOUN}){_PHRASE})\s+(?:is|are)\s+(?:limited|capped|restricted)\s+"
        rf"(?:to|at)\s+(?P<value>{_PHRASE}){_END}",
        0.8,
    ),
    # "we use GitLab CI for Gannet", "for Gannet we use GitLab CI", "we're using MongoDB as the datastore"
    _frame(
        "use-named",
        "decision",
        rf"^(?:for\s+(?:the\s+)?(?P<subject2>{_PHRASE}),?\s+)?(?:we|i)\s+(?:use|'re using|are using|rely on)\s+"
        rf"(?P<value>{_NAME}(?:\s+{_NAME})*(?:\s+\d[\w.]*)?)"
        rf"(?:\s+(?:for|as)\s+(?:the\s+|our\s+|all\s+)?(?P<subject>{_PHRASE}))?{_END}",
        0.8,
    ),
    # "Pelican builds run on CircleCI", "the frontend lives on Netlify": where a thing runs, a named place
    _frame(
        "runs-on",
        "decision",
        rf"^(?:the\s+|our\s+)?(?P<subject>(?!{_PRONOUN}){_PHRASE})\s+(?:runs?|lives?|sits?|goes)\s+(?:on|in)\s+"
        rf"(?P<value>{_NAME}(?:[\s.]+{_NAME})*){_END}",
        0.8,
    ),
    # who: "Rosa is in charge of billing", "Halima is our new data engineer", "Olu works as a designer"
    _frame(
        "person-role",
        "entity",
        rf"^(?P<subject>(?!{_PRONOUN}){_NAME})\s+(?:is\s+(?:our|the)\s+(?:new\s+)?|works\s+as\s+(?:a|an|our|the)\s+|"
        rf"is\s+in\s+charge\s+of\s+(?:the\s+)?)(?P<value>{_PHRASE}){_END}",
        0.75,
    ),
    # preferences told plainly: "I like working with small PRs", "I love dark themes"
    _frame(
        "like",
        "preference",
        rf"^i\s+(?:really\s+|much\s+|do\s+)?(?P<mode>like|love|enjoy|hate|dislike|can't stand|cannot stand)\s+"
        rf"(?!{_PRONOUN})(?P<value>{_PHRASE}){_END}",
        0.75,
    ),
    # "error tracking is Sentry", "CI for all our repos is GitHub Actions": a side of things, named
    _frame(
        "named-is",
        "decision",
        rf"^(?:the\s+|our\s+)?(?P<subject>(?!{_PRONOUN}|my\b){_PHRASE})\s+(?:is|are)\s+(?:now\s+)?"
        rf"(?P<value>{_NAME}(?:\s+{_NAME})*(?:\s+\d[\w.]*)?)(?:\s+(?:across|for|in|on)\s+{_PHRASE})?{_END}",
        0.75,
    ),
    # a note's label and its value: "prod db: Postgres 15", "queueing: RabbitMQ"
    _frame(
        "label",
        "decision",
        rf"^(?P<subject>(?!{_PRONOUN}|note|rule|update|edit|ps|fyi|todo|error|warning|question|answer|decided|decision|agreed|settled)"
        rf"[a-z][\w /-]{{1,30}}?)\s*:\s+(?P<value>{_NAME}(?:[\s.+]+{_NAME})*(?:\s+\d[\w.]*)?){_END}",
        0.75,
    ),
    # rules told of oneself: "we're not allowed to call OpenAI from the EU tenants"
    _frame(
        "not-allowed",
        "constraint",
        rf"^(?:we|i)\s*(?:are|'re|am|'m)?\s+(?:not allowed to|forbidden to|must not|mustn't|may not)\s+"
        rf"(?P<value>{_PHRASE}.*?){_END}",
        0.8,
    ),
    # where something runs: "Bramble is deployed on Hetzner", "the API is hosted at Fly.io"
    _frame(
        "hosted",
        "decision",
        rf"^(?:the\s+|our\s+)?(?P<subject>{_PHRASE})\s+(?:is|are)\s+(?:deployed|hosted|running)\s+(?:on|at|in)\s+"
        rf"(?P<value>{_PHRASE}){_END}",
    ),
)

# --- what disqualifies a sentence: not a fact, however it is worded ---

QUESTION = re.compile(
    r"\?[\s\W]*$|^(?:should|shall|could|would|can|do|does|did|is|are|will|what|which|who|why|how|when|where)\b"
    r"(?!\s+(?:i|we)\s+(?:decided|settled))",
    _I,
)
# a hypothetical or an option weighed, not a choice made
HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|whether|suppose|supposing|imagine|what if|in case|might|maybe|perhaps|possibly|probably|"
    r"could|would(?! rather)|should we|thinking about|considering|wondering|not sure|i think|i guess|i suppose|"
    r"hopefully|let's see|we'll see|or not|"
    # an impression, not what holds ("smells like a leak"); someone else's wish, not a choice made
    r"seems?|sounds like|smells like|looks like|feels like|wants)\b",
    _I,
)
# the speaker telling what they are doing, not what holds ("Now let me check the logs")
NARRATION = re.compile(
    r"^(?:ok(?:ay)?,?\s+|so,?\s+|now,?\s+|first,?\s+|next,?\s+|then,?\s+|great,?\s+|alright,?\s+)*"
    r"(?:let me|let's|i'll|i will|i'm going to|i am going to|we'll|we will|i need to|i'm|i am|we're|we are)\s+"
    r"(?:now\s+)?(?:check|look|see|try|run|start|open|read|fix|update|add|create|write|test|debug|investigate|"
    r"search|grep|review|verify|go|going|looking|checking|trying|running|working|done)\b"
    r"|^(?:now|next|first),?\s+(?:let|i|we)\b|^(?:here's|here is|here are|looks like|it seems|seems like)\b",
    _I,
)
# one moment, not what lasts ("today", "right now", "for now")
MOMENT = re.compile(
    r"\b(?:today|tonight|yesterday|tomorrow|this (?:morning|afternoon|evening|week|time)|right now|"
    r"(?:over the|this|next) (?:weekend|week|month)|at the moment|for now|for the moment|for today|temporarily|"
    r"just this once|last (?:night|week|month|year)|so far|"
    # "this branch", "this house": the situation at hand; laughter: a joke
    r"this\s+(?!is\b|means\b)\w+|haha\w*|lol|lmao|jk|"
    # a reply conceding a point ("the train is 6 hours though"): it says how things stand against what was said
    r"though\s*[.!]?\s*$|"
    # a gauge's reading: "disk is at 71%"
    r"(?:is|are)\s+at\s+\d+(?:\.\d+)?\s*%)(?!\w)",
    _I,
)
# a choice denied or undone ("we haven't decided", "never mind")
NOT_YET = re.compile(
    r"\b(?:not yet|haven't|hasn't|have not|didn't|did not|never mind|no longer sure|undecided|tbd|to be decided)\b",
    _I,
)
# what introduces a value that names something: an article ("a nurse"), a preposition before a determiner ("on a
# grain-free diet", not the state "on hold"), "to" before a verb (a goal, a duty: "my job is to review the PRs") or
# "about" (a topic); grammar's closed classes
_DETERMINER = r"(?:a|an|the|my|our|your|his|her|their)\b"
INTRODUCER = re.compile(
    rf"(?:a|an|the)\b|(?:in|on|at|with|from|by|for|of|under|near|inside|outside|into)\s+{_DETERMINER}|to\s+[a-z]+"
    r"|about\b",
    _I,
)
# chatter before the statement ("ok so", "btw", "fyi"): dropped from the fact's text
LEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|so|btw|actually|by the way|fyi|also|and|oh|well|alright|right|yeah|yes|great|cool|got it|"
    r"quick note|side note|heads up|just so you know|for context|before i forget|unrelated,?\s+but|"
    r"not related,?\s+but)\s*[,:!.\-–]?\s+)+",
    _I,
)
# a speaker label left in the text of an imported turn ("user: …", "Assistant: …")
SPEAKER_LABEL = re.compile(r"^(?:user|human|me|assistant|ai|agent|bot|system)\s*:\s+", _I)
# where a statement's main clause ends: an aside after a comma, a reason, a dash
MAIN_CLAUSE_END = re.compile(r",\s+|\s+(?:because|since|so that|as long as)\s+|\s+[-–—]\s+|;\s+", _I)
# the value a statement says it replaces, told after it: "(was Z)", "(used to be Z)", ", no longer Z", "instead of Z"
OLD_VALUE_TAIL = re.compile(
    r"\s*\(\s*(?:it\s+)?(?:was|used to be|was on|formerly|previously)\s+(?P<old>[^()]{1,60})\)\s*[.!]?\s*$"
    r"|,?\s+(?:instead of|rather than|no longer(?: on| in| at)?|not)\s+"
    r"(?P<old2>[^,;!?()]{1,60}?)(?:\s+anymore)?\s*[.!]?\s*$",
    _I,
)
