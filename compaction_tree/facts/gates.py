"""What disqualifies a sentence from stating a durable fact, and the chatter around one. Pure.

A question, a hypothetical, a temporary arrangement, a rejected option, hearsay, a pasted log, what
one moment holds ("this morning"), work told as it happens ("I moved X and now everything fails"):
none of them says what is true from now on, however much it looks like a fact. The learned model
(learned.py) is asked only about what reads as a standing state (`standing_state`): it knows the
words of facts, not the chatter and the passing moments around them.
"""

from __future__ import annotations

import re

from .statement import CHANGE_VERB, Change

ASSISTANTS = frozenset({"assistant", "ai", "agent", "bot", "model", "system", "claude", "gpt", "chatgpt", "copilot"})
PREAMBLE = re.compile(
    r"^(?:(?:oh|ok|okay|so|also|and|but|btw|fyi|fwiw|ngl|anyway|unrelated|actually|alright|right|"
    r"well|hey|psa|"
    r"by the way|quick note|side note|note|heads[- ]up|before i forget|for the record|for context|just so you know|"
    r"(?:i\s+)?(?:just\s+)?(?:learned|found out)(?:\s+(?:today|yesterday|this week))?\s+that|"
    r"reminder(?: that)?|remember(?: that)?|just a reminder(?: that)?|as a reminder|"
    r"i (?:told|asked|reminded) (?-i:[A-Z])\w*(?: (?-i:[A-Z])\w*)?(?=:))\b[,:;!.-]*\s*)+",
    re.IGNORECASE,
)
TRAILER = re.compile(
    r"(?:[.,;]?\s*(?:anyway|lol|haha|:\)|:-\)|;\)|\(noting it here\)|just so it'?s written down somewhere|"
    r"more on that later|fyi|btw|thanks|thx|!+))+\s*[.!]*$",
    re.IGNORECASE,
)

QUESTION_START = re.compile(
    # "what I want this year is a sub-2 half": a statement that opens with what it is about; "can't" without a
    # question mark that says what no longer holds opens a statement ("can't pop round to Greta's anymore")
    r"^(?:who|what(?!\s+(?:i|we)\b[^?]*?\s+is\s+(?!nothing\b|unclear\b|not\b)[^?]+$)|where|why|how|which|whose|should|"
    r"shall|can(?!['’]t\s+(?:believe|stand)\b|['’]t\b(?=.*\b(?:any ?more|no longer)\b))|could|would|"
    r"will|is|are|am|was|were|do|does|"
    r"did|have|has|any idea|anyone|wondering|not sure|any thoughts)\b",
    re.IGNORECASE,
)
HYPOTHETICAL = re.compile(
    r"^(?:if|suppose|supposing|imagine|assuming|say|hypothetically|in theory|what if|let's say)\b"
    r"|\b(?:if (?:we|i|you|they|it)|what if|would|could|might|maybe|perhaps|were to|in theory|hypothetically|"
    r"thinking (?:about|of)|considering|wondering|not sure|unsure|i guess|lol no|eventually|some ?day|one day|"
    r"at some point|may or may not|not convinced|(?:he|she|they|you|it|we|that|i)['’]d (?!(?:like|love|prefer|rather|"
    r"want)\b))\b",
    re.IGNORECASE,
)
TEMPORARY = re.compile(
    r"\b(?:for now|just for (?:today|now|this|the)|for today|today only|only today|this (?:week|time|sprint) only|"
    r"only (?:this|for this) (?:week|time|sprint|once)|for the moment|temporar(?:y|ily)|until (?:lunch|tonight|"
    r"tomorrow|monday|tuesday|wednesday|thursday|friday|the weekend|next week|further notice|we fix|it'?s fixed)|"
    r"for the time being|this once|one[- ]off|for (?:the next|this|these) (?:few |two |three |couple of |\d+ )?"
    r"(?:days?|weeks?|sprint|session|run|test run|release)|for this [\w-]+(?: [\w-]+)? only|only for (?:this|the next)"
    r"|while (?:i|we|he|she|they)(?:['’]m|['’]re|['’]s| am| are| is)? (?:away|out|off|gone|on leave|on vacation|"
    r"travell?ing|debugg?ing|debug|testing|investigating)|not\b[^.;]{0,40}\byet|"
    r"(?:until|till)\s+(?:the\s+)?[\w' -]{1,30}?\s+(?:lands|ships|arrives|comes|is (?:fixed|merged|out|back))|"
    r"(?:weekend|week|day|sprint|release|migration|launch)\s+only|this week|"
    # where someone is for a while: "my manager is on holiday" says nothing of who the manager is
    r"(?:is|are|am|['’]s|['’]re|['’]m)\s+(?:on holiday|on vacation|on leave|on parental leave|in town|off sick|"
    r"out sick|away|at the (?:vet|doctor|dentist|hospital|gym))|in hospital|"
    # a post nobody holds for now: "the security engineer seat is open"
    r"(?:seat|position)\s+is\s+(?:open|vacant|empty|unfilled))\b",
    re.IGNORECASE,
)
REJECTED = re.compile(
    r"\b(?:decided against|not going (?:with|for)|won'?t (?:go with|use|be using)|rejected|ruled out|turned down|"
    r"vetoed|dropped the idea|not (?:yet )?decided|haven'?t decided|undecided|no decision|considered|discussed it|"
    r"said no|on the table|nobody (?:was|is) keen|passed on)\b",
    re.IGNORECASE,
)
# reasons to reject an option; in a change they explain why the old value went ("Render got too expensive")
REJECTED_REASON = re.compile(r"\b(?:too expensive|too pricey|too slow|not worth|not a fit)\b", re.IGNORECASE)
# what someone else said; not what a document says ("their contract says all data stays in the EU")
HEARSAY = re.compile(
    r"\b(?:(?<!contract )(?<!policy )(?<!config )(?<!docs )says|said|told me|mentioned|according to|claims|apparently|"
    r"heard)\b",
    re.IGNORECASE,
)
# a metric moving or a bug fixed is an event, not a durable fact
EVENT = re.compile(
    r"\b(?:latency|throughput|p\d\d|response times?|error rate|(?:double|twice|half|triple) (?:that|as|the)"
    r"|\d+\s*(?:ms|kb|mb|gb)|"
    r"fixed|resolved|solved|(?<!\()it was|they were|as planned|as expected|spik(?:e|es|ed|ing)|peak(?:s|ed|ing))\b",
    re.IGNORECASE,
)
# a sentence tied to one moment ("this morning", "tomorrow's lessons"), unless it says it lasts
DEICTIC = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening)|last night|right now|just now|"
    r"at the moment|an hour ago|minutes ago)\b",
    re.IGNORECASE,
)
# when a change took effect: a time word after a verb in the past ("Polars got bumped to 4.28 today", "dns flipped
# last night", "rewrote the pipeline for Drone this week"), not after a time of day ("moved the retro to 3pm
# today": that day's retro); in a sentence that tells a change it dates the change, it does not say the new value
# holds only that day, where the sentence says the new value lasts or sets a version (`_LASTS`): "the team lunch got
# switched to the taco truck today" is that day's lunch. After "as of" ("as of yesterday") only where a change is
# told in passing (extract.py).
_WHEN = r"\s+(?P<when>today|yesterday|last night|this (?:morning|afternoon|week)|last week)\b"
_DATED = re.compile(
    r"\b(?:\w{3,}ed|got|took|went|made|rewrote|put|set|began|became)\b(?:[^,;.!?]|\.(?=\w)){0,60}?"
    r"(?<!\d[ap]m)(?<!\d [ap]m)(?<!\d:\d\d)(?<!noon)" + _WHEN,
    re.IGNORECASE,
)
# when a decision was taken ("decided last night", "signed the contract an hour ago"), in any statement; not
# when what was decided is done ("decided to skip the gym today")
_DECIDED = re.compile(
    r"\b(?:decided|agreed|settled|signed|confirmed|approved|locked in)\b(?:(?!\s+to\b)[^,;.!?]){0,40}?"
    r"(?:\s+in)?" + _WHEN.replace("last week)", "last week|an hour ago|(?:a few )?minutes ago)"),
    re.IGNORECASE,
)
_AS_OF = re.compile(r"\b(?:as of|since|from|starting)" + _WHEN, re.IGNORECASE)
# a label saying when the news came ("announcement today: Arjun becomes ..."): when it was heard, not what holds
_HEARD = re.compile(r"^[^:]{0,30}?\b(?:today|yesterday|this (?:morning|afternoon|week))\s*:\s*", re.IGNORECASE)
# the speaker's own doings ("I accidentally pushed to main last night"), which a time word does not date
_DOER = re.compile(r"^(?:i|we)\b", re.IGNORECASE)


# what says a new value lasts ("now", "no more", "officially"); a version lasts too ("Polars got bumped to 4.28")
_LASTING_WORDS = (
    r"now|no more|any ?more|no longer|officially|for good|from now on|going forward|these days|nowadays|permanently|"
    r"is history|is dead|is the new"
)
_LASTS = re.compile(r"\b(?:" + _LASTING_WORDS + r")\b", re.IGNORECASE)
_LASTS_OR_VERSION = re.compile(r"\b(?:" + _LASTING_WORDS + r"|v?\d+\.\d+(?:\.\d+)*)\b", re.IGNORECASE)


def lasting_change(text: str, change: Change | None) -> bool:
    """The sentence tells a change and says its new value lasts ("Kafka is at 6.27 now", "Curlew isn't on Heroku
    anymore")."""
    return change is not None and bool(change.new or change.old) and bool(_LASTS.search(text))


def undated(text: str, as_of: bool = False) -> str:
    """A change's sentence without the time words that date it ("bumped to 4.28 today": "bumped to 4.28"), unless
    it tells of the speaker's own doings or says nothing of the new value lasting; with as_of, "as of yesterday"
    too."""
    lasting = not _DOER.match(text) and bool(_LASTS_OR_VERSION.search(_without_when(_DATED, text)))
    for dated in ((_AS_OF,) if as_of else ()) + ((_DATED,) if lasting else ()):
        text = _without_when(dated, text)
    return text


def _without_when(dated: re.Pattern[str], text: str) -> str:
    return dated.sub(lambda m: m.group(0)[: m.start("when") - m.start()].rstrip(), text)


DURABLE = re.compile(
    r"\b(?:from now on|going forward|moving forward|from here on|henceforth|in future|starting|effective|"
    r"as of (?!tonight|this|yesterday)|from (?:next|"
    r"tomorrow|today|monday|tuesday|wednesday|thursday|friday)|these days|nowadays|always|every|never|any ?more|"
    r"no longer|permanently|for good|by default)\b",
    re.IGNORECASE,
)
# pasted logs, errors and code: what they hold is evidence, not a statement
PASTED = re.compile(
    r"https?://\S+/\S|\btraceback\b|\b\w+(?:Error|Exception)\b|\bHTTP/\d|^\$ |\{\s*\"|'[^']*'[^']*'[^']*'"
    r"|\bblocked by\b|\bstatus(?:=|: )\d{3}|\b\w+=[\"'\w/]|\d{4}-\d\d-\d\dT\d\d:\d\d|\b\d{1,2}:\d\d:\d\d\b"
    r"|\b\d+\.\d+\.\d+\.\d+\b|\w\[\w+\]"
)
# "... and now everything fails": a change told as a step of work, with what it broke or fixed
CONSEQUENCE = re.compile(
    r"\b(?:and|but|so)\s+(?:now\s+|then\s+|suddenly\s+)?(?:everything|nothing|it|that|all|the\s+[\w-]+(?:\s+[\w-]+)?)"
    r"\s+(?:\w+\s+){0,4}?(?:fails?|failing|failed|breaks?|broke|errors?|crash\w*|stopped|backs? up|hangs?|times? out|"
    r"doesn'?t work|won'?t \w+|works?|worked)\b",
    re.IGNORECASE,
)
# something that happened once: a failure, a fix, a thing not done
PAST_EVENT = re.compile(
    r"\b(?:failed|broke|crashed|fixed|resolved|solved|merged|didn'?t|wasn'?t|went out|blew up)\b", re.IGNORECASE
)
# "release runs now.", "tests pass again": something works again after a fix, an event
WORKS_AGAIN = re.compile(
    r"\b(?:runs?|works?|pass(?:es)?|builds?|deploys?|loads?|starts?|boots?|compiles?)\s+(?:now|again)\s*[.!]*$",
    re.IGNORECASE,
)
HEDGE = re.compile(r"\b(?:i think|probably|apparently|seems|i believe|likely|kind of|sort of|roughly)\b", re.I)
ANSWERING = re.compile(
    r"\b(?:answers?|explanations?|responses?|replies|examples?|code (?:first|before|after|blocks?)|bullet points?|"
    r"paragraphs?|tl;?dr)\b",
    re.IGNORECASE,
)
FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|we|we're|we've|we'll|our|us|let's)\b", re.I)

EVIDENCE = re.compile(
    r"^(?:(?:from what i can see|based on|going by|judging by|according to|looking at|checking|from|in)\b[^,]{0,60},\s*"
    r"|(?:it\s+)?looks like\s+|so\s+)",
    re.IGNORECASE,
)
# a trip's or a booking's details, and a date something is due: they hold until one day passes
_ONE_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"  # "on Friday", not "on Fridays"
ITINERARY = re.compile(
    r"\b(?:flight|train|bus|ferry|coach)\s+(?:to|from)\s+(?-i:[A-Z])"
    r"|\b(?:i'?m|we'?re|am|are)\s+on\s+(?-i:[A-Z]{2}\d{2,4})\s+to\b"  # "I'm on IB125 to Osaka", not "on ES2020"
    r"|\b(?:departs|departing|check-out|confirmation (?:number|code|no)|booking (?:ref|reference|number|code))\b"
    r"|\bcheck-?in\s+(?:is\s+)?(?:from|at|after|before|until)\b"  # a stay's, not "our weekly check-in"
    r"|\b(?:is|are|['’]s)\s+(?:on\s+)?(?:this|next)\s+(?:" + _ONE_WEEKDAY + r"|week\b|month\b)"
    r"|\bdue\s+(?:on\s+|by\s+)?(?:this\s+|next\s+)?(?:" + _ONE_WEEKDAY + r"|tomorrow\b)",
    re.IGNORECASE,
)
ONE_OFF = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening)|yesterday|last night|just now|right now|"
    r"at the moment|an hour ago|minutes ago|earlier|this (?:one|file|function|pr|ticket|line))\b",
    re.IGNORECASE,
)

_URL = re.compile(r"https?://\S+")
CAUSE = re.compile(r"\b(?:because|since|as|after|due to)\b", re.IGNORECASE)  # what follows explains
_CHANGING = re.compile(r"\b" + CHANGE_VERB + r"\b", re.IGNORECASE)


# ---- what the learned model is asked about (extract._by_model): a sentence that reads as a standing state
# what a conversation is mostly made of, which the synthetic material the model learned from lacks:
# reactions, feelings, encouragement, and a name said to whoever is listening ("that's so cool, Jon")
CHATTER = re.compile(
    r"\b(?:wow|oof|aw+|yay|omg|congrats|congratulations|thanks|thank you|awesome|amazing|gorgeous|beautiful|"
    r"lovely|cool|nice|great|glad|happy|sad|sorry|proud|excited|tough|hope|hoping|feel|feels|feeling|felt|"
    r"miss|means? a lot|so much|can'?t wait|sounds)\b"
    r"|^(?-i:[A-Z])\w+,\s|,\s*(?-i:[A-Z])\w+\s*[.!?]*$"
    # what one means to do: a plan, which the cues read as a decision when it is one ("we'll use Kafka")
    r"|\b(?:will|won['’]t|gonna|shall)\b"
    r"|\b(?:i|we)(?:['’]ll|['’]m going to|['’]re going to|\s+am going to|\s+are going to)\b",
    re.IGNORECASE,
)


# A standing fact says what something is, has or does as a rule: a finite verb of state in the present
# ("is", "has", "uses", "lives", "expires", "breaks"); a note without one ("Alerts in Grafana.") is left to the cues
STATIVE = re.compile(
    r"\b(?:is|are|am|has|have|does|do|uses?|runs?|lives?|works?|owns?|likes?|loves?|hates?|prefers?|needs?|wants?|goes|go|"
    r"takes?|eats?|drinks?|plays?|drives?|teach(?:es)?|expires?|rotates?|meets?|belongs?|costs?|pays?|stays?|"
    r"keeps?|speaks?|stud(?:y|ies)|gets?|holds?|handles?|covers?|leads?|manages?|sits?|lasts?|breaks?|fails?|"
    r"crash(?:es)?|times out|means?|allows?|requires?|supports?|calls?|sends?|reads?|writes?|stores?|serves?)\b"
    r"|(?<=\w)['’](?:s|m|re|ve)\b",
    re.IGNORECASE,
)
# what is under way, coming or passing, not what holds: "is flying to Oslo", "Deploying now", "from tomorrow"
PASSING = re.compile(
    r"^(?!(?:billing|logging|alerting|pricing|hosting|caching|monitoring|tracking|routing|onboarding|building|"
    r"meeting|morning|evening|training|planning|wedding|parking|funding|marketing|accounting|hiring|testing|"
    r"packaging|shipping|staging|messaging|scheduling|booking|clothing|housing|spending|setting|ranking)\b)\w+ing\b"
    r"|\b(?:is|are|am|['’]s|['’]re|['’]m|been)\s+(?:(?:even|still|also|just|really|\w+ly)\s+)?(?!going\b)"
    r"\w+ing\b|\b(?:tomorrow|next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"this weekend|coming up|yet|so far|anymore)\b|^(?:this|that|it|here|there)\b"
    # a status ("the PR is approved") and what one month holds ("the bill for January")
    r"|\b(?:is|are)\s+(?:now\s+)?(?:approved|merged|done|fixed|closed|ready|finished|deployed|shipped|released|"
    r"resolved|down|green|red|blocked|live)\b|\bfor (?:january|february|march|april|may|june|july|august|september|"
    r"october|november|december)\b",
    re.IGNORECASE,
)


# a habit: what happens on a schedule ("the nightly export starts at 02:30", "we release every other Tuesday"),
# or where something comes from or goes through ("feature flags come from LaunchDarkly")
_ON_WEEKDAYS = r"on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekdays|weekends)"
_TIMES_A = r"(?:once|twice|\w+ times) a (?:day|week|month|year)"
HABIT = re.compile(
    r"\b(?:every|each|daily|nightly|weekly|monthly|hourly|" + _ON_WEEKDAYS + r"|"
    r"at \d{1,2}(?::\d\d)?\s*(?:am|pm|utc)?|by \d{1,2}(?::\d\d)?\s*(?:am|pm)?|"
    r"comes? from|comes? through|goes? through|" + _TIMES_A + r")\b",
    re.IGNORECASE,
)


# what recurs, as a habit does, unlike a time of day that may be a one-off ("at 3", "by noon")
RECURRING = re.compile(
    r"\b(?:(?:every|each)\s+(?:other\s+|\w+\s+)?(?:day|night|morning|afternoon|evening|week|weekend|weekday|month|"
    r"quarter|year|sprint|hour|minute|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|"
    r"daily|nightly|weekly|fortnightly|monthly|yearly|hourly|" + _ON_WEEKDAYS + "|" + _TIMES_A + r")\b",
    re.IGNORECASE,
)


# the verbs of a routine or a setting ("the api listens on 8080", "I bank with Monzo", "we buy flour from ..."):
# standing when nothing passing is said with them, though their subjects are keyed after a habit's (extract)
ROUTINE = re.compile(
    r"\b(?:listens?|buys?|sells?|commutes?|opens?|closes?|kicks? in|retr(?:y|ies)|attends?)\b"
    # words that are nouns as often ("the p95 target", "bank holidays"): a verb after who does it
    r"|\b(?:i|we|they)\s+(?:\w+ly\s+)?(?:target|host|charge|bank|swim|cycle|ride)\b",
    re.IGNORECASE,
)


def standing_state(text: str) -> bool:
    """A sentence that can state a standing fact to a reader without cues: a verb of state in the present or
    a habit, nothing under way, coming or passing, no chatter ("Day 2 on Fly.", "Priya is flying in tomorrow":
    no), though a pursuit under way for months is ("Leo is studying chemistry"). What one moment holds
    (ONE_OFF) and temporary arrangements (`rejection`) are checked beside it."""
    stated = STATIVE.search(text) or HABIT.search(text) or ROUTINE.search(text)
    if not stated or CHATTER.search(text):
        return False
    # a pursuit read as what one keeps doing: "Leo keeps studying chemistry" says nothing is passing
    lasting = _PURSUIT if RECURRING.search(text) else _LASTING_PURSUIT  # "taking guitar lessons on Wednesdays"
    return not PASSING.search(lasting.sub(" keeps ", text))


def _progressive_of(verbs: str) -> re.Pattern[str]:
    """ "is", "are", "am" or their contraction before one of the verbs in -ing, of a field or a pursuit, not of
    one thing ("studying chemistry", not "studying the incident report")."""
    return re.compile(
        rf"(?:(?<=\w)['’](?:s|m|re)|\b(?:is|are|am))\s+(?=(?:{verbs})\s+(?!(?:the|this|that|these|those|our|your|"
        r"their|his|her|its|it)\b))",
        re.IGNORECASE,
    )


# what is under way for months, not for a moment: "Leo is studying chemistry", "I'm learning German"; taken up
# on a schedule, any pursuit ("I'm taking guitar lessons on Wednesdays")
_LASTING_PURSUIT = _progressive_of("studying|learning")
_PURSUIT = _progressive_of("studying|learning|taking|doing|training")


def clean_sentence(sentence: str) -> str:
    """A sentence without the chatter around it ("oh btw, ...", "... lol")."""
    text = " ".join(sentence.split())
    for _ in range(3):
        before = text
        text = TRAILER.sub("", PREAMBLE.sub("", text).strip()).strip()
        if text == before:
            break
    return text.rstrip(" ,;:-")


# work told as it happens ("bumping FastAPI to 0.111 on my branch", "porting the last endpoints") and what is asked
# of the assistant ("write a message to the team saying ...", "make this recipe for 12"): no standing state
UNDER_WAY = re.compile(
    r"^(?:bumping|kicking off|trying|porting|testing|running|rebasing|debugging|rolling|pushing|merging|reverting|"
    r"deploying|fixing|checking|looking into|digging into|rerunning|re-running|cutting|tagging|building)\b"
    r"|^(?:write|draft|make|create|generate|summari[sz]e|translate|convert|rewrite|explain|tell|show)\s+(?:me\s+)?"
    r"(?:a|an|this|that|these|the|my|our)\b",
    re.IGNORECASE,
)


# a measure read as it moves: "the nightly sync is spiking right up to 500 requests per minute"
_READING = re.compile(
    r"\b(?:is|are|was|were)\s+(?:spiking|peaking|climbing|hovering|trending|creeping)\b", re.IGNORECASE
)


def rejection(text: str, raw: str, category: str, change: Change | None = None) -> str | None:
    """Why a statement states no durable fact (None: it may). text is cleaned, raw is not.

    Questions, pasted logs, temporary arrangements, rejected options, hypotheticals, hearsay, what
    one moment holds ("this morning", unless it says it lasts or only dates a lasting change or a
    decision: "Polars got bumped to 4.28 today", "decided last night"), a measure read as it moves,
    and work told as it happens ("I moved X and now everything fails", "CI didn't run it").
    """
    if "?" in _URL.sub("", text) or QUESTION_START.match(text):
        return "question"
    if change is not None:  # "as of this morning" dates a change only where it names what it replaces
        text, raw = undated(text, as_of=bool(change.old)), undated(raw, as_of=bool(change.old))
    text, raw = _without_when(_DECIDED, text), _without_when(_DECIDED, raw)
    if PASTED.search(raw):
        return "pasted"
    if UNDER_WAY.search(text):
        return "under way"
    if TEMPORARY.search(text):
        return "temporary"
    if REJECTED.search(text) or (REJECTED_REASON.search(text) and not (change and change.new)):
        return "rejected"
    # "X fails if the cache is cold" is a failure pattern; "if we decided..." is not a decision
    conditional_failure = category == "failure_pattern" and not re.match(r"(?:if|what if)\b", text, re.IGNORECASE)
    if HYPOTHETICAL.search(text) and not conditional_failure:
        return "hypothetical"
    if category not in ("entity", "failure_pattern") and HEARSAY.search(text):
        return "hearsay"
    stated_change = change is not None and bool(change.old and change.new and _CHANGING.search(text))
    # a moment in the chatter before a statement ("learned today that ...") is when it was heard, not what holds
    if DEICTIC.search(_HEARD.sub("", PREAMBLE.sub("", raw))) and not DURABLE.search(raw) and not stated_change:
        return "one-off"
    if ITINERARY.search(raw) and not DURABLE.search(raw):
        return "one-off"
    if _READING.search(text):
        return "reading"
    if category != "failure_pattern":
        if CONSEQUENCE.search(text):
            return "narrative"
        # what happened before the clause that states a lasting change is how it came about ("dependabot PR
        # merged, Kafka is at 6.27 now"; not "the build failed, so we shipped 2.3.1 instead of 2.4")
        told = text[change.start :] if change is not None and lasting_change(text, change) else text
        if PAST_EVENT.search(CAUSE.split(told)[0]) or WORKS_AGAIN.search(text):
            return "event"
    return None
