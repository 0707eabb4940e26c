"""The cue extractor's tables: the ways of stating a durable fact that it knows word for word.

Data, not logic (extract.py applies them): each cue is one way of stating a durable fact, a
pattern with optional s* (subject) and v* (value) groups. What disqualifies a statement is in
gates.py; statements found by what they are about, whatever the wording, in frames.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .statement import CALENDAR, CAUSE_CORRECTED, FAILURE_NOUN

# ---------------------------------------------------------------- extraction: the cues

# a capitalized name of up to three words (case-sensitive inside the case-insensitive cues)
_NAME = (
    r"(?-i:(?!(?:I|I'm|I've|I'd|My|We|Our|The|This|That|It|It's|You|Your|They|He|She)\b)"
    r"[A-Z][\w'’-]*(?:\s+(?:&\s+)?[A-Z][\w'’-]*){0,2})"
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
# what a speaker calls themself in passing ("a pretty terrible cook"), not what they do for a living
_JUDGED = (
    r"(?:pretty|terrible|good|bad|great|awful|decent|better|worse|lousy|rubbish|amazing|big|huge|total|bit|real)\b"
)
# a place's name: capitalized and not an acronym ("I'm from IT" is a department)
_PLACE = r"(?-i:[A-Z][a-z][\w'-]*)(?:\s+(?-i:[A-Z][a-z][\w'-]*))*"
_CALENDAR_NAME = r"(?:" + "|".join(sorted(CALENDAR)) + r")\b"  # a weekday or a month, named
# what someone may do for a living besides the titles of a team (_ROLES), which the team cues key by person: apart
# so that "I'm a nurse" is a role without "Priya is our nurse" becoming a post
_OCCUPATIONS = (
    r"nurse|teacher|doctor|lawyer|chef|cook|student|artist|photographer|pharmacist|electrician|plumber|carpenter|"
    r"barista|paramedic|firefighter|dentist|vet|professor|lecturer|librarian|journalist|editor|freelancer|"
    r"programmer|musician|baker|farmer|pilot|mechanic|therapist|counsell?or|midwife|surgeon|physio(?:therapist)?|"
    r"translator|illustrator|paralegal|optician|social worker|carer|caregiver|hairdresser|bartender|waiter|waitress"
)
_ROLES = (
    r"engineer|designer|manager|lead|pm|cto|ceo|cfo|vp|director|analyst|scientist|admin|administrator|intern|"
    r"contractor|consultant|architect|recruiter|developer|dev|sre|qa|tester|writer|head|researcher|marketer|"
    r"accountant|coordinator|specialist|advocate|strategist|officer"
)


# A post one person holds at a time ("the on-call lead", "the release captain for Kelso"): s what kind of post,
# sa what it is for. Not "tech lead" or "team lead": those are a person's title.
POST = (
    r"(?P<s>(?!(?:tech|team|new|current)\b)[\w-]+(?:\s+[\w-]+)?)\s+(?:lead|head|owner|dri|captain)"
    r"(?:\s+(?:for|of|on)\s+(?:the\s+)?(?P<sa>[^,;.]+?))?"
)


# Attributes of a thing, by the kind of fact that names them ("the owner of X is Y" is about a
# person, "X's rate limit is Y" a constraint): English vocabulary for sides of a thing, no values.
_ATTRIBUTE_KINDS = {
    "entity": r"owner|maintainer|tech lead|dri|main contact|contact person|contact|point of contact|poc|go-to person|"
    r"account manager|liaison|"
    r"job title|title|role|birthday|home town|hometown",
    "constraint": r"rate limit|api limit|request limit|api allowance|allowance|limit|quota|cap|ceiling|budget|"
    r"spending limit|deploy cutoff|"
    r"cutoff|cut-off|code freeze|freeze|deadline|migration window|maintenance window|deploy window|window|"
    r"data residency|residency",
    "decision": r"hosting provider|hosting|host|cloud provider|database|db|datastore|data store|storage|ci provider|"
    r"ci|build system|build server|job queue|task queue|message broker|broker|queue|container registry|registry|"
    r"bundler|"
    r"orm|framework|runtime|language|logging|log provider|monitoring|error tracking|tracing|search engine|cache|"
    r"merge strategy|api versioning|versioning scheme|versioning",
    "domain_fact": r"version|upstream timeout|request timeout|timeout|ttl|lifetime|expiry|uptime sla|sla|uptime target|"
    r"availability target|billing cycle|billing|invoicing|daily standup|standup|stand-up|daily sync|sync|"
    r"sprint length|sprint|iteration length|release cadence|cadence|region|time ?zone|url|domain|staging url",
    "preference": r"alert channel|alerts channel|notification channel|editor|indentation|seat|diet|coffee order|order|"
    r"drink|running goal|goal|target",
}
_THING = r"(?!(?:on|in|at|for|about|re|regarding|so|and|but)\b)[\w.'’&/-]+(?:\s+[\w.'’&/-]+){0,3}?"
_COPULA = r"(?:\s+(?:is|are|=|will be|is now|are now|has been set to|is set to|stays|remains)|\s*[:=])"


def _attribute_cue(kind: str) -> tuple[str, str, float, str, str, str]:
    """ "X's owner is Y", "our numpy version is 1.26", "the rate limit for Acme is 40/s", "sets X's timeout to Y"."""
    attribute = r"(?:(?:main|primary|current|new|default)\s+)?(?:" + _ATTRIBUTE_KINDS[kind] + r")"
    pattern = (
        r"^(?:the\s+|our\s+|my\s+)?(?P<s>"
        + _THING
        + r")(?:['’]s)?\s+(?P<sa>"
        + attribute
        + r")"
        + _COPULA
        + r"\s+(?P<v>.+)"
        r"|^(?:the\s+|our\s+|my\s+)?(?P<sa2>"
        + attribute
        + r")\s+(?:for|of|at|on|in|with)\s+(?:the\s+)?(?P<s2>"
        + _THING
        + r")"
        + _COPULA
        + r"\s+(?P<v2>.+)"
        r"|\bsets?\s+(?:the\s+)?(?P<sa3>"
        + attribute
        + r")\s+(?:for|of|on|in)\s+(?:the\s+)?(?P<s3>"
        + _THING
        + r")\s+to\s+(?P<v3>.+)"
    )
    who = "any" if kind == "domain_fact" else "user"
    return (f"attribute-{kind}", kind, 0.75, who, "", pattern)


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
     r"falls over|hangs)\b[\s,]*(?:(?:only|again|every time|randomly|intermittently|sometimes|occasionally)\s+)?"
     r"(?:because|b/c|whenever|when|due to|if)\s+(?P<v>.+)"),
    # "the payout-worker deploy failed again: a flag lookup fails on startup, as usual": the cause it keeps having
    ("failed-again", "failure_pattern", 0.8, "any", "failure",
     r"^(?:the\s+|our\s+)?(?P<s>[^,;:]+?)\s+(?:failed|broke|crashed|died|went red)\s+again\s*(?::|—|\s-)\s*"
     r"(?P<v>[^,;\s]+\s[^,;]+?),?\s+(?:as usual|as always|like always|same as always|same as last time)$"),
    ("allows-per-call", "domain_fact", 0.75, "any", "timeout",
     r"^(?:in\s+[\w.-]+,\s+)?(?!(?:she|he|they|it|grandma|mom|mum|dad)\b)(?P<s>[\w.-]+)\s+(?:allows|gives|waits)\s+"
     r"(?P<v>\d+\s*(?:ms|milliseconds?|s|secs?|seconds?|minutes?))\s+(?:for|on)\s+(?:each|every|an?|any)\s+"
     r"(?P<sa>upstream(?:\s+call)?|request)"),
    ("is-broken-because", "failure_pattern", 0.8, "any", "failure",
     r"^(?P<s>.+?)(?:\s+(?:is|are|was|were|keeps being)\s+(?:broken|flaky|failing|unstable|down|red|crashing)"
     r"|['’]s\s+(?:broken|flaky|failing))\b[\s,]*"
     r"(?:because|b/c|due to|since|whenever|when)\s+(?P<v>.+)"),
    # "turns out the e2e flakiness is really about parallel workers": the cause of a failure, told as a correction
    ("actually-caused-by", "failure_pattern", 0.8, "any", "failure",
     r"^(?:(?:it\s+)?turns out\s+|so\s+)?(?:the\s+|our\s+)?(?!(?:the|this|that|these|those|our|my|it)\s)"
     r"(?P<s>[^,;]+?)\s+" + FAILURE_NOUN + r"\s+" + CAUSE_CORRECTED + r"\s+(?P<v>.+)"),
    ("figured-out-why", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:figured out|found out|found|worked out|learned|turns out|it turns out|root[- ]caused)\s+(?:why|that)\s+"
     r"(?P<s>.+?)\s+(?:(?:is|are|was|were|keeps?|kept)\s+(?:flaky|failing|broken|breaking|crashing|timing out|slow)"
     r"|(?:flakes|fails|breaks|crashes|times out|dies))\s*[:,;-]+\s*(?P<v>.+)"),
    # "the recurring failure in the backup cron comes down to this: ...", "same pattern every time: X, and then
    # the batch falls over"
    ("recurring-failure-in", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:the\s+)?recurring failure\s+(?:in|with|of)\s+(?P<s>.+?)\s+(?:comes down to|is)"
     r"(?:\s+this)?\s*[:,-]+\s*(?P<v>.+)"
     r"|\bsame pattern every time\s*:\s*(?P<v2>.+?),?\s+and then\s+(?!my\b|i\b)(?P<s2>.+?)\s+"
     r"(?:falls over|fails|breaks|crashes|dies|goes down)\b"),
    ("pattern-with", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:pattern|recurring (?:issue|problem|failure))\s+(?:with|in|for)\s+(?P<s>.+?)\s*:\s*"
     r"(?P<v>.*\b(?:fail|break|crash|flak|time out|times out)\w*\b.+)"),
    ("reason-is", "failure_pattern", 0.8, "any", "failure",
     r"\bthe\s+(?:reason|cause)\s+(?:why\s+)?(?P<s>.+?)\s+(?:fail|break|crash|flake|die|time out|hang)\w*\s+is\s+"
     r"(?P<v>.+)"),
    ("every-time-because", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:every time|whenever)\s+(?P<s>.+?)\s+(?:dies|fails|breaks|crashes|flakes|hangs|goes down|times out),?\s+"
     r"(?:it'?s|that'?s|it is)\s+(?:because\s+(?:of\s+)?)?(?P<v>.+)"),
    # a label naming what fails, then its cause: "document-store deploy investigation closed: root cause is that the
    # DNS record lags behind", "figured out the payout-worker deploy problem: image pulls hit the rate limit"
    ("labelled-cause", "failure_pattern", 0.8, "any", "failure",
     r"^(?:we\s+|i\s+)?(?:figured out|tracked down|nailed down|solved)\s+(?:the\s+)?"
     r"(?P<s>(?:(?!\b(?:for|about|of|on|in|to|behind|with)\b)[^:,;]){3,50}?)\s+(?:problem|issue|failures?|flakiness)"
     r"\s*:\s*(?!(?:no idea|not sure|unclear|unknown|still)\b)(?P<v>[^:]{8,})$"
     r"|^(?:the\s+)?(?P<s2>[^:,;]{3,50}?)\s+(?:investigation|postmortem|post-mortem|problem|issue|failures?|flakiness)"
     r"(?:\s+(?:closed|done|finished|wrapped up|solved))?\s*:\s*"
     r"(?:the\s+)?(?:root cause|real cause|cause)\s+(?:is|was)\s+(?!(?:never|still|not|unknown|unclear)\b)"
     r"(?:that\s+)?(?P<v2>[^:]{8,})$"),
    ("root-cause", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:the\s+)?(?:root cause|real cause|cause)\s+(?:of|for|behind)\s+(?:the\s+)?(?P<s>.+?)\s+(?:is|was|are"
     r"|were)\s+"
     r"(?:that\s+)?(?P<v>.+)"),
    ("failures-caused-by", "failure_pattern", 0.8, "any", "failure",
     r"^(?:the\s+)?(?P<s>.+?\b(?:failures?|crashes|outages|flakes|flakiness|errors|timeouts))\s+"
     r"(?:(?:are|is|were|have been)\s+"
     r"(?:(?:actually|really|mostly|usually|mainly|all)\s+)?(?:(?:caused|triggered)\s+by|due to|because(?:\s+of)?|from)"
     r"|come from|comes from|comes down to|stem from"
     r"|stems from)\s+(?P<v>.+)"),
    ("another-cause", "failure_pattern", 0.8, "any", "failure",
     r"^(?:the\s+)?(?P<s>.+?)\s+(?:failures?|crashes|outages|deploys?|builds?|tests?)\s+(?:have|has)\s+"
     r"(?:another|a different)\s+(?:cause|reason)\b\s*[:,-]*\s*(?P<v>.+)"),
    ("wrong-about", "failure_pattern", 0.8, "user", "failure",
     r"\b(?:we were|i was)\s+wrong about\s+(?P<s>.+?)\s*[,:;-]+\s*(?P<v>(?:it'?s\s+)?not\b.+)"),
    # "<attribute> of <thing> is <value>", in its three word orders
    _attribute_cue("entity"),
    _attribute_cue("constraint"),
    _attribute_cue("decision"),
    _attribute_cue("domain_fact"),
    _attribute_cue("preference"),
    ("new-cause", "failure_pattern", 0.8, "any", "failure",
     r"\b(?:new|real|actual|another|different|other)\s+(?:root\s+)?(?:cause|reason)\s+(?:for|of|behind)\s+(?:the\s+)?"
     r"(?P<s>.+?)\s*:\s*(?P<v>.+)"),
    ("fails-for-another-reason", "failure_pattern", 0.8, "any", "failure",
     r"^(?:the\s+)?(?P<s>.+?)\s+(?:fails?|failing|breaks?|crash(?:es)?|flakes?)\s+for\s+(?:a\s+)?(?:different|another|other)"
     r"\s+reason\s*[:,-]*\s*(?P<v>.+)"),
    # a library's version, of a named thing when one is named ("Wicket is on Flask 3.1": wicket_flask_version)
    ("we-are-on-version", "domain_fact", 0.75, "user", "version",
     r"\b(?:we'?re|we are|we'?re still|the project is|it'?s|(?:the\s+)?(?:(?-i:(?P<s0>[A-Z][\w-]*))|[\w-]+)\s+is)\s+"
     r"(?:on|using|running|pinned to)\s+(?:(?P<s>[\w.-]+)\s+(?P<v>v?\d+(?:\.\d+)+\w*)"
     # a major version alone ("Postgres 16") after a name written as one, so "on page 2" is none
     r"|(?!(?:day|week|floor|page|team|level|step|phase|chapter|round|room|gate|platform|stage|part|episode|season|"
     r"lap|mile|track|slide|row|seat|sprint|channel|call|line|bus|route|zone|" + _CALENDAR_NAME + r")\b)"
     r"(?-i:(?P<sa>[A-Z][\w.-]*))\s+(?P<va>v?\d{1,3})\b"
     r"(?![.:,]?\d|\s*(?:%|am|pm|min(?:ute)?s?|h(?:ours?|rs?)?|k|x|days?|weeks?)\b))"),
    ("uses-version", "domain_fact", 0.75, "any", "version",
     r"(?:^(?:the\s+)?(?-i:(?P<s0>[A-Z][\w-]*))\s+)?\b(?:uses|use|runs|pins|ships with|depends on)\s+(?P<s>[\w.-]+)\s+"
     r"(?P<v>v?\d+(?:\.\d+)+\w*)\b"),
    # decisions
    ("we-decided", "decision", 0.85, "user", "",
     r"\b(?:we|i|the team|team)(?:\s+have|['’]ve)?\s+(?:finally\s+|just\s+)?(?:decided|agreed|settled|chose|picked|"
     r"opted|committed|went with|standardi[sz]ed|voted)\b\s*(?:(?:to|on|that|for|upon)\s+)?(?P<v>.+)"),
    ("agreed-on-that", "decision", 0.8, "user", "",
     r"^(?P<v>.+?)[,;]\s+(?:we|the team|everyone)\s+(?:all\s+)?(?:agreed|decided|settled)\s+(?:on\s+)?"
     r"(?:that|this|it)\b"
     # "we're dropping IE, decided at the planning meeting"
     r"|^(?P<v2>.+?)[,;]\s+(?:decided|agreed|settled)\s+(?:at|during|with|by)\s+(?:the|our|last)\b"),
    ("decision-made", "decision", 0.8, "user", "",
     r"^(?P<v>.+?)[,;:-]+\s*(?:(?:that'?s\s+)?(?:decision|final answer)\s+(?:made|taken|final|is final)"
     r"|that'?s final|(?:it'?s|that'?s) (?:decided|settled)|we made it official)\b"),
    ("decision-colon", "decision", 0.8, "user", "",
     r"(?:^|,\s*)(?P<s>[\w .'-]{2,40}?)\s+(?:decision|choice)\s*:\s*(?P<v>.+)"),
    ("lets-go-with", "decision", 0.8, "user", "",
     r"\b(?:let'?s|let us|we'?ll|we will|we'?re|we are|we'?re gonna|we are going to|i'?ll|i will)\s+(?:go(?:ing)? with|"
     r"use|using|stick with|standardi[sz]e on|adopt|go for)\s+(?P<v>.+)"
     # "Going with Hiscox for the business insurance", not "going with Dad to the hospital"
     r"|^going with\s+(?P<v2>(?-i:[A-Z])[\w.-]*(?:\s+(?-i:[A-Z])[\w.-]*)*)\s+(?:for|as)\s+(?:the|our|my)\b"),
    ("we-use", "decision", 0.7, "user!", "",
     r"^(?:we|i)\s+(?:use|run|rely on)\s+(?P<v>(?-i:[A-Z])[\w.-]*(?:\s+(?-i:[A-Z])[\w.-]*)*)\s+(?:for|as)\s+"
     r"(?:the\s+|our\s+)?"
     r"(?P<s>.+)"),
    ("for-x-we-use", "decision", 0.75, "user", "",
     r"^for\s+(?P<s>[\w .'-]{2,40}?),?\s+we\s+(?:use|run|rely on|go with|chose|picked|deploy to|build (?:on|with))\s+"
     r"(?P<v>.+)"),
    ("put-on", "decision", 0.75, "user!", "host",
     r"\b(?:we'?ll|we will|let'?s|we)\s+(?:put|host|deploy|run)\s+(?P<s>.+?)\s+on\s+(?P<v>.+)"
     r"|^(?P<s2>" + _NAME + r")\s+(?:goes|go|lives|stays)\s+on\s+(?P<v2>.+)"),
    ("x-with-y-please", "decision", 0.75, "user!", "",
     r"^(?P<s>[\w -]{2,20}?)\s+(?:with|on|via|through)\s+(?P<v>" + _NAME + r")\s*,?\s*please\b"),
    ("we-host", "decision", 0.75, "user!", "",
     r"^(?:we|i)\s+(?:now\s+)?(?P<verb>host|run|deploy|keep|store|build)\s+(?P<s>.+?)\s+(?:on|in|with|at|to(?=\s+(?-i:[A-Z])))\s+(?P<v>.+)"),
    ("uses-for", "decision", 0.75, "user!", "",
     r"^(?P<s0>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:uses|relies on|is built on|is backed by|runs)\s+(?P<v>.+?)\s+for\s+"
     r"(?:its\s+|their\s+|the\s+)?(?P<s>[\w -]{2,40})$"),
    ("uses", "decision", 0.7, "user!", "",
     r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:uses|relies on|is built on|is backed by|is written in)\s+(?P<v>.+)"),
    ("plan-is", "decision", 0.75, "user", "",
     r"^(?:the\s+)?(?:agreed\s+|final\s+|current\s+)?(?:plan|decision|call)\s+is\s+to\s+(?P<v>.+)"),
    ("beat-the-alternatives", "decision", 0.75, "user", "",
     r"^(?P<v>" + _NAME + r")\s+(?:beat|won over|beat out)\s+(?:the\s+|all\s+the\s+)?"
     r"(?:alternatives|competition)\s+(?:for|as)\s+(?P<s>[^,;]+)"),
    # "picked a host for Kestrel at last: Cloud Run", "chose Buildkite to build Ibis", "for checkout-api's
    # persistence layer we're going Postgres", "Fly.io it is for Magpie"
    ("picked-for", "decision", 0.75, "user", "",
     r"\b(?:picked|chose|chosen|settled on|went with)\s+(?:a|an|the|our)\s+(?P<sa>host|hosting provider|provider|"
     r"datastore|database|db|queue|broker|ci|ci provider|name|framework|library|runner|bundler|region|stack|vendor|"
     r"tool)\s+for\s+(?P<s>[\w.'’-]+(?:\s+[\w.'’-]+)?)(?:\s+at last|\s+finally)?\s*:\s*(?P<v>[^,;.]+)"
     r"|\b(?:picked|chose|chosen|went with)\s+(?P<v2>" + _NAME + r")\s+to\s+(?P<verb>build|host|run|store|queue)\s+"
     r"(?!the\b|a\b|an\b|this\b|our\b|my\b)(?P<s2>[\w.'’-]+)"
     r"|^for\s+(?P<s3>[\w.'’-]+(?:['’]s)?(?:\s+[\w-]+){0,3}?)\s+we['’]?re\s+going(?:\s+with)?\s+(?P<v3>" + _NAME + r")"
     r"|^(?P<v4>(?-i:[A-Z0-9])[\w.'’-]*(?:\s+(?-i:[A-Z])[\w.'’-]*)?)\s+it is\s+for\s+"
     r"(?!(?:lunch|dinner|breakfast|tonight|today|tomorrow|the weekend|" + _WEEKDAY + r")\b)"
     r"(?P<s4>[\w.'’-]+(?:\s+[\w.'’-]+){0,2})"),
    ("is-versioned", "decision", 0.7, "user!", "",
     r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:is|are)\s+(?P<verb>versioned|built|hosted|deployed|stored|cached|"
     r"written|packaged|released|tested|monitored|backed up)\s+(?:with|in|on|by|via|using|to|through)\s+(?P<v>.+)"),
    ("spending-in", "decision", 0.7, "user", "",
     r"\bwe'?re\s+(?:spending|doing|celebrating|having)\s+(?P<s>[\w' -]{2,30}?)\s+in\s+(?P<v>" + _NAME + r")"
     r"|^(?P<v2>" + _NAME + r")\s+is\s+where\s+we['’]?(?:ll| will)\s+be\s+(?:for|over)\s+"
     r"(?!(?:the\s+)?(?:weekend|night|day)\b|tonight|this\b)(?P<s2>[\w' -]{2,30})"
     r"|\bthe\s+(?:destination|place|venue|city)\s+for\s+(?P<s3>[\w' -]{2,30}?)\s+is\s+(?:settled|decided|locked in|"
     r"final)\s*:\s*(?P<v3>[^,;]+)"),
    ("will-run-on", "decision", 0.7, "user!", "",
     r"^(?P<s>(?:the\s+)?[\w.' -]{2,50}?)\s+(?:will|is going to|are going to)\s+(?:run|live|be hosted|be deployed|"
     r"keep (?:its|their) data|store (?:its|their) data|stay|build|use)\s+(?:on|in|with|at)?\s*(?P<v>.+)"
     r"|^(?P<s2>(?:the\s+)?[\w.' -]{2,50}?)\s+(?:will|is going to)\s+(?:process|run|handle|queue|schedule)\s+"
     r"(?:its|their)\s+(?P<s3>jobs|tasks|work|queue|background jobs)\s+(?:with|on|in|through|via)\s+(?P<v2>.+)"),
    # a person's own preferences
    ("for-x-i-prefer", "preference", 0.85, "user", "",
     r"^for\s+(?P<s>[\w .'-]{2,40}?),?\s+i\s+(?:really\s+|much\s+|always\s+)?(?:prefer|like|want|use)\s+(?P<v>.+)"),
    ("how-i-like-it", "preference", 0.8, "user", "",
     r"^(?P<s>.+?)\s+(?:gets|get|uses|use|has|have|does|do|is|are|on)\s+(?P<v>.+?)[,;]?\s+(?:that'?s|which is|just)\s+"
     r"(?:how|the way|what)\s+(?:i|we)\s+(?:like|want|prefer)\s+(?:it|them)\b"),
    ("my-thing-is", "preference", 0.75, "user", "",
     r"\bmy\s+(?P<s>(?:[\w-]+\s+)?(?:order|drink|coffee|tea|diet|seat|editor|ide|shell|stack|language|framework|"
     r"style|setup|pronouns|(?:\w+\s+)?of choice))(?:\s+(?:at|for|in|on)\s+(?:the\s+)?[\w'’ -]{1,25}?)?\s+"
     r"(?:is|are|=|:)\s+(?:always\s+|usually\s+|still\s+)?(?P<v>.+)"),
    ("what-i-get", "preference", 0.75, "user", "",
     r"^(?P<v>.+?)\s+is\s+(?:what|all)\s+i\s+(?:always\s+|usually\s+)?(?:get|order|drink|eat|use|want|like|prefer|"
     r"have|book|pick)\b"
     r"|^(?P<v2>.+?)\s+is\s+my\s+(?:go-to|usual|default|regular|favou?rite)\s+(?P<s2>[\w -]{2,20}?)$"),
    ("thats-my-preference", "preference", 0.75, "user", "",
     r"^(?P<v>[^,;]+?)\s+for\s+(?P<s>" + _NAME + r")(?:\s+(?:pls|please))?,\s+that['’]?s\s+my\s+(?:strong\s+|clear\s+)?"
     r"preference"),
    ("when-i-want", "preference", 0.75, "user", "",
     r"^(?:when|whenever)\s+i(?:(?:'m|\s+am)(?=\s+(?:at|in|on|visiting)\b))?\s+(?P<s>[\w' -]{2,30}?),?\s+i\s+"
     r"(?:always\s+)?(?:want|like|prefer|need|take|get|book|pick)\s+(?P<v>.+)"),
    ("i-am-diet", "preference", 0.8, "user", "diet",
     r"\bi(?:'m|\s+am|'ve been|\s+have been|\s+went|\s+became|'ve gone|\s+have gone|\s+turned)\s+"
     r"(?:a\s+|an\s+|strictly\s+|fully\s+|mostly\s+|completely\s+)?(?P<v>" + _DIETS + r")\b"),
    ("aiming-for", "preference", 0.7, "user", "goal",
     r"\b(?:this year i want to|i'?m training for|i'?m aiming for|my goal is to|i want to finally|"
     r"what i(?:'m|\s+am)?\s+(?:want|aiming for|after|going for)\s+(?:by the end of\s+)?(?:this|the)\s+"
     r"(?:year|season|spring|summer|autumn|fall|winter)\s+is)\s+(?P<v>.+)"),
    ("give-me-please", "preference", 0.75, "user", "",
     r"^(?:please\s+)?(?P<v>(?:give|show|send|write|answer|reply|keep|tell)\s+(?:me|it)\b.+?),?\s+please$"),
    ("i-am-a-person", "preference", 0.75, "user", "",
     r"\bi(?:'m|\s+am)\s+(?:a|an)\s+(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+(?:person|guy|girl|kind of person|fan)\b"),
    ("for-me-always", "preference", 0.75, "user", "",
     r"^(?P<v>.+?)\s+for\s+me,?\s+(?:always|please|every time|thanks|no exceptions)\b"),
    ("works-best-for-me", "preference", 0.75, "user", "",
     r"^(?:for\s+(?P<s>[\w .'-]{2,40}?),\s+)?(?P<v>.+?)\s+works?\s+best\s+for\s+me\b"),
    ("how-i-want-it", "preference", 0.8, "user", "",
     r"^(?P<v>.+?)[,;]\s+(?:that'?s|it'?s|this is)\s+(?:how|the way|what|the\s+(?:[\w-]+\s+){0,2}?)\s*(?:i|we)\s+"
     r"(?:like|want|prefer|need)\b"),
    ("for-x-imperative", "preference", 0.75, "user", "",
     r"^for\s+(?P<s>[\w .'-]{2,40}?),\s+(?P<v>(?:send|give|use|show|ping|email|call|text|put|write|keep|notify|tell)"
     r"\b.+)"),
    ("x-should-go", "preference", 0.7, "user", "",
     r"^(?P<s>(?:the\s+|my\s+|our\s+)?[\w .'-]{2,40}?)\s+should\s+(?:always\s+)?(?P<v>(?:go|be sent|come|use|be)\b.+)"),
    ("x-in-every", "preference", 0.7, "user", "",
     r"^(?P<v>(?!the\b)(?:[\w-]+\s+){0,3}?[\w-]+)\s+in\s+(?:every|all|each|any)\s+(?P<s>[\w -]{2,20}?)\b(?:[,;.]|$)"),
    ("i-want-every", "preference", 0.75, "user", "",
     r"\bi\s+(?:always\s+)?(?:want|need|like|expect)\s+(?P<v>.+?\b(?:every|always|each time|all my|any time)\b.*)"),
    ("x-always", "preference", 0.7, "user", "",
     r"^(?P<v>[^,;]+?)(?:,?\s+please)?,?\s+(?:always|every time|each time|no exceptions|without exception)\.?$"),
    ("x-never-y", "preference", 0.7, "user", "",
     r"^(?P<v>[^,;]{2,30}?),\s+never\s+[^,;]{2,30}?\.?$"),
    ("x-when-possible", "preference", 0.7, "user", "",
     r"^(?P<v>[^,;]+?),?\s+(?:whenever|when|where|if)\s+(?:you can|possible|it'?s possible)\.?$"),
    ("i-want-alerts", "preference", 0.75, "user", "",
     r"\bi\s+(?:want|like|prefer|need)\s+(?P<s>(?:[\w.-]+\s+){0,2}(?:alerts|notifications|pages|reports|updates|"
     r"summaries|digests))\s+(?:in|on|via|through|as|by|to)\s+(?P<v>.+)"),
    ("changed-my-mind", "preference", 0.8, "user", "",
     r"\bi'?ve\s+changed\s+my\s+mind\s+(?:on|about)\s+(?P<s>[\w .'-]{2,30}?)\s*[:,;-]\s*(?P<v>.+)"),
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
     r"(?P<v>.+?)(?:\s+(?:over|to|rather than)\s+[^,;]+?)?(?:\s+(?:for|when|in|as)\s+(?P<s>.+))?$"),
    ("id-rather", "preference", 0.75, "user", "", r"\bi(?:'d|\s+would)\s+(?:much\s+)?rather\s+(?P<v>.+)"),
    ("my-preference", "preference", 0.8, "user", "", r"^my preference\s*(?:is|:)\s*(?P<v>.+)"),
    # "Webpack stays as our bundler": what a thing is kept as, the thing named
    ("stays-as", "decision", 0.75, "user", "",
     r"^(?P<v>" + _NAME + r")\s+(?:stays|remains|is staying|will stay|will remain)\s+(?:as\s+)?(?:our|the)\s+"
     r"(?P<s>(?!(?:best|only|first|same|right|obvious|safest|better|biggest)\b)(?:[\w-]+\s+){0,2}?"
     r"(?!(?:for|of|in|on|at|until|this|next|night|day|week|weekend|month|year|course)\b)[\w-]{2,30})\s*[.!]?$"),
    ("my-favourite", "preference", 0.8, "user", "",
     r"\bmy\s+(?:all[- ]time\s+)?(?P<s>(?:favou?rite|usual|go-to|preferred|default)(?:\s+[\w-]+){0,3}?)\s*"
     r"(?:is|are|=|:|has to be|would be)\s+(?P<v>.+)"),
    ("my-goal", "preference", 0.8, "user", "",
     r"\bmy\s+(?P<s>(?:[\w-]+\s+){0,2}?(?:goal|target|aim|resolution|rule|policy|routine|diet|budget|limit))\b"
     r"(?:\s+(?:for|this|in)\s+[\w ]{1,20}?)?\s*(?:is|are|=|:)\s+(?P<v>.+)"),
    ("goal-colon", "preference", 0.75, "user", "",
     r"^(?P<s>(?:[\w-]+\s+){0,2}?(?:goal|target|resolution|rule))\s+(?:for"
     r"|this)\s+(?:the\s+)?[\w ]{1,20}?:\s*(?P<v>.+)"
     r"|^(?:new\s+|current\s+)?(?P<s2>(?:[\w-]+\s+){0,2}?(?:goal|target|resolution))\s*:\s*(?P<v2>.+)"),
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
    ("i-never", "constraint", 0.8, "user", "",
     r"\bi\s+never\s+(?P<s>(?!(?:said|thought|forget|forgot|wanted|knew|got|heard)\b)[a-z]+)\s+(?P<v>.+)"),
    ("i-always", "preference", 0.8, "user", "",
     r"\bi\s+(?:always|usually|only|exclusively)\s+(?P<s>(?!(?:said|thought|forget|forgot|wanted)\b)[a-z]+)\s+"
     r"(?P<v>.+)"
     r"|^(?:usually|always|normally|typically),?\s+i\s+(?P<s2>(?!(?:said|thought|forget|forgot|wanted)\b)[a-z]+)\s+"
     r"(?P<v2>.+)"),
    ("x-for-y-always", "preference", 0.8, "user", "",
     r"^(?P<v>.+?)\s+for\s+(?P<s>[\w -]{3,30}?)[,;]\s+(?:never anything else|nothing else|no exceptions|always|"
     r"every time)\b"),
    ("x-colon-y-only", "preference", 0.75, "user", "",
     r"^(?P<s>(?-i:(?![A-Z][a-z]+\s+[a-z]+s\b))[\w .'-]{2,40}?):\s+(?P<v>[^,;]+?)[,;]\s+"
     r"(?:never anything else|nothing else|no exceptions|only that|"
     r"always)\b"),
    ("every-time", "preference", 0.75, "user", "",
     r"^(?P<v>.+?)\s+(?:every time|always|each time)\b.*\b(?:that'?s my rule|my rule|no exceptions)\b"),
    ("i-am-these-days", "preference", 0.7, "user", "diet",
     r"\bi(?:'m|\s+am)\s+(?:a\s+|an\s+|strictly\s+|fully\s+)?(?P<v>\w+arian|" + _DIETS + r")\s+(?:these days|"
     r"nowadays|now)\b"),
    ("i-eat", "preference", 0.7, "user", "diet",
     r"\bi\s+(?:eat|drink|don'?t eat|don'?t drink|avoid|only eat|only drink|follow)\s+(?P<v>[\w -]+?)(?:,|\s+so\b|$)"),
    ("for-x-please", "preference", 0.7, "user", "", r"^for\s+(?P<s>[\w -]{3,30}?),\s+(?P<v>.+?)\s+please\b"),
    # constraints
    ("cant-go-over-for", "constraint", 0.8, "user", "budget",
     r"\b(?:we|i)\s+(?:can'?t|cannot|mustn'?t|must not|shouldn'?t)\s+(?:go over|spend more than|exceed)\s+"
     r"(?P<v>\$?[\d,.]+k?(?:\s*(?:dollars|euros|pounds|eur|usd|gbp))?)\s+(?:on|for)\s+(?P<s>.+)"),
    # "contractually, Acme data can never leave the EU", "we must keep Acme data inside Canada"
    ("data-stays", "constraint", 0.8, "user", "",
     r"^(?:(?:contractually|legally),?\s+)?(?P<s>[^,;]+?\bdata)\s+(?:can|may|must|should)\s*(?:never|not|n'?t)\s+"
     r"(?:leave|be stored outside|go outside)\s+(?P<v>.+)"
     r"|\b(?:we|you)\s+(?:must|have to|need to|always)\s+keep\s+(?P<s2>[^,;]+?\bdata)\s+(?:inside|in|within)\s+"
     r"(?P<v2>.+)"
     r"|^(?P<s3>" + _NAME + r")['’]s\s+contract\s+says\s+(?:all\s+)?(?:of\s+)?(?:their|its)\s+data\s+"
     r"(?:lives|stays|must stay|is stored|is kept)\s+in\s+(?P<v3>[^,;]+)"),
    ("only-time", "constraint", 0.8, "user", "window",
     r"^the\s+only\s+time\s+(?!(?:this|it|that|he|she|they)\b)(?P<s>[^,;]+?)\s+"
     r"(?:may|can|are allowed to|is allowed to|should)\s+"
     r"(?:run|happen|go out|ship|deploy)\s+is\s+(?P<v>[^,;]+)"),
    ("cannot-exceed", "constraint", 0.8, "user", "",
     r"^(?P<s>(?:(?!\band\b|\bbut\b|\bso\b)[^,;]){2,50}?)\s+"
     r"(?:can'?t|cannot|must not|mustn'?t|may not|shouldn'?t|should never)\s+(?:cost|exceed|be more than|"
     r"go over|take more than|be longer than|run longer than)\s+(?P<v>.+)"),
    ("is-the-max-for", "constraint", 0.75, "user", "budget",
     r"(?<!\w)(?P<v>\$[\d,.]+k?|[\d,.]+\s*(?:dollars|euros|eur|usd))\s+is\s+(?:the|our)\s+(?:absolute\s+|hard\s+)?(?:max|maximum|"
     r"limit|cap|ceiling|budget)\s+(?:for|on)\s+(?P<s>[^,;]+)"
     r"|\bwe\s+set\s+(?P<v2>\$[\d,.]+k?|[\d,.]+\s*(?:dollars|euros|eur|usd))\s+as\s+the\s+(?:limit|cap|max|budget|ceiling)\s+"
     r"(?:for|on)\s+(?P<s2>[^,;]+)"),
    ("max-for", "constraint", 0.75, "user", "budget",
     r"\b(?P<v>\$[\d,.]+k?|[\d,.]+\s*(?:dollars|euros|eur|usd))\s+(?:max|maximum|tops|at most|limit|cap)\s+"
     r"(?:for|on)\s+(?P<s>.+)"),
    ("cant-eat", "constraint", 0.8, "user", "allergy",
     r"(?:^|:\s*)(?P<s>" + _NAME + r")\s+(?:(?:can'?t|cannot|mustn'?t|shouldn'?t|must not)\s+"
     r"(?:eat|have|drink|tolerate|be near)|(?:(?:has|needs|have|need) to avoid|must avoid)"
     r"(?!.*\b(?:until|during|today|tonight|this week|for now|for a while|rush hour)\b))\s+"
     r"(?P<v>.+)"),
    ("deploys-stop-at", "constraint", 0.8, "user", "cutoff",
     r"^(?:(?:" + _WEEKDAY + r")\s+)?(?P<s>(?:deploys?|deployments?|releases?|merges?|pushes)(?:\s+(?:for|to|on|of)\s+"
     r"[\w.-]+)?)\s+(?:stop|end|freeze|close|are frozen)\s+(?:at|after)\s+(?P<v>.+)"),
    ("we-only-run", "constraint", 0.75, "user", "window",
     r"\bwe\s+only\s+(?:run|do|ship|deploy|release|merge|apply)\s+(?P<s>.+?)\s+(?P<v>(?:between|after|before|on|during|"
     r"outside)\s+.+)"),
    ("can-at-most", "constraint", 0.75, "user", "limit",
     r"^(?P<s>" + _NAME + r")\s+can\s+(?:make|send|do|have|use|call)\s+(?:at most|up to|max(?:imum)?|no more than)\s+"
     r"(?P<v>.+)"),
    ("can-spend-at-most", "constraint", 0.75, "user", "budget",
     r"\b(?:we|i)\s+can\s+(?:spend|pay|use)\s+(?:at most|up to|max(?:imum)?|no more than)\s+(?P<v>\S+(?:\s+\w+)?)\s+"
     r"(?:on|for)\s+(?P<s>.+)"),
    ("meeting-free", "constraint", 0.8, "user", "meeting",
     r"^(?P<v>" + _WEEKDAY + r"(?:\s+(?:mornings?|afternoons?|evenings?))?)\s+(?:are|is)\s+(?:meeting[- ]free|"
     r"no[- ]meeting|blocked|focus time|off limits)"
     r"|\bkeep\s+(?:my\s+)?(?:calendar|schedule)\s+(?:clear|free|empty)\s+(?:on\s+)?(?P<v2>.+)"
     r"|\b(?:don'?t|do not|never)\s+(?:put|book|schedule|add|set up)\s+(?:me\s+)?(?:any\s+)?(?:meetings|calls)\s+"
     r"(?:on|in|for|during)\s+(?:my\s+)?(?P<v3>" + _WEEKDAY + r"(?:\s+(?:mornings?|afternoons?|evenings?))?)"),
    ("never", "constraint", 0.8, "user", "",
     r"^(?:please\s+|we\s+|you\s+)?(?:never|do not ever|don'?t ever|must never|should never)\s+(?P<v>.+)"
     r"|^(?:nobody|no one|no-one)\s+(?P<v2>(?:deploys|merges|pushes|releases|ships|touches|runs|books)\b.+)"),
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
     r"wait|send|make|get|never|not|only|always|build|fit)\b.+)"),
    ("change-needs", "constraint", 0.75, "user", "",
     r"^(?P<s>(?:[\w-]+\s+){0,2}(?:deploys?|deployments?|releases?|merges?|prs?|pull requests?|changes|migrations|"
     r"commits|endpoints))\s+(?:needs?|requires?|must have|must get)\s+(?P<v>.+)"),
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
     r"quota))\b(?:\s+(?:on|for)\s+(?P<s2>[\w ]{1,25}?))?\s+(?:is|are|=|:|starts at|begins at|kicks in at)\s+"
     r"(?:now\s+)?(?:capped at\s+)?(?P<v>.+)"),
    # people and things
    ("told-me-prefers", "entity", 0.75, "user", "preference",
     r"^(?:apparently\s+)?(?P<s>" + _NAME + r")\s+(?:told me|says|said|mentioned|let me know)?\s*(?:that\s+)?"
     r"(?:they|she|he)?\s*(?:much\s+|really\s+|strongly\s+)?(?:prefers?|preferring|likes? .+ better|"
     r"(?:(?<=they )|(?<=she )|(?<=he ))works? best with|(?:['’]d|would) rather(?!\s+(?:not|we|you|i|it|they)\b))"
     r"\s+(?P<v>.+)"
     # "if you're working with Oskar, go for morning meetings, that's what they prefer"
     r"|^if you['’]?re working with (?P<s2>" + _NAME + r"),\s+(?:go for|use|do|try|stick to)\s+(?P<v2>[^,;]+),\s+"
     r"that['’]?s what (?:they|she|he) (?:prefers?|likes?)"),
    ("they-like", "entity", 0.65, "user", "preference",
     r"^(?:(?:i\s+)?(?:learned|found out|heard|noticed)(?:\s+today)?\s+that\s+)?"
     r"(?P<s>" + _NAME + r")\s+(?:really\s+)?(?:likes|loves|enjoys|hates|can'?t stand)\s+"
     r"(?!the\b|this\b|that\b|it\b|my\b|your\b|her\b|his\b|their\b|to\b)(?P<v>.+)"),
    ("owns", "entity", 0.8, "user", "owner",
     r"^(?P<v>" + _NAME + r")\s+(?:is\s+(?:the\s+one|who)\s+(?:who|that)\s+)?(?:owns|own|maintains|maintain|"
     r"is responsible for|is in charge of|looks after|leads|lead)\s+(?P<s>.+)"),
    ("owner-of", "entity", 0.8, "user", "owner",
     r"^(?P<v>" + _NAME + r")(?:\s+is\s+|'s\s+(?=the|our))(?:the\s+|our\s+)?(?:(?:new|current|main)\s+)?"
     r"(?:owner|maintainer|lead|point of contact|dri)\s+(?:of|for|on)\s+(?P<s>[^,;]+)"),
    ("owned-by", "entity", 0.8, "user", "owner",
     r"^(?P<s>.+?)\s+(?:(?:is|are)\s+(?:now\s+)?(?:owned|maintained|run|led|looked after)\s+by|belongs\s+to)\s+"
     r"(?P<v>" + _NAME + r")"
     r"|^(?P<v2>" + _NAME + r")\s+is\s+(?P<s2>[\w.-]+)(?:'s|’s)\s+(?:owner|maintainer|lead|point of contact)\b"),
    ("is-contact-at", "entity", 0.8, "user", "contact",
     r"^(?P<v>" + _NAME + r")\s+is\s+(?:our|the)\s+(?:main\s+|primary\s+|only\s+)?(?:contact|point of contact|poc|"
     r"liaison|go-to person|go-to contact|go-to|person to (?:talk to|ask|call)|point person)\s+(?:at|for|with|in)\s+"
     r"(?P<s>.+)"
     r"|^(?P<s3>" + _NAME + r")\s+(?:assigned|named|gave us|appointed)\s+(?P<v3>" + _NAME + r")\s+as\s+(?:our|the)\s+"
     r"(?:main\s+)?(?:contact|point of contact|poc|liaison|point person)\b(?!\s+for\s+(?:this|that|one)\b)"
     r"|\b(?:talk to|ask|go through|ping)\s+(?P<v2>" + _NAME + r")\s+(?:about|for)\s+anything\s+(?P<s2>.+)"),
    ("contact-at", "entity", 0.8, "user", "contact",
     r"\b(?:main\s+|primary\s+|only\s+)?(?:contact|point of contact|poc|liaison)\s+(?:at|for|with|in)\s+(?P<s>.+?)\s+"
     r"(?:is|=|:)\s+(?P<v>" + _NAME + r")"),
    ("at-x-contact-is", "entity", 0.8, "user", "contact",
     r"^at\s+(?P<s>" + _NAME + r"),?\s+(?:our|the)\s+(?:main\s+|primary\s+)?(?:contact|point of contact|poc)\s+is\s+"
     r"(?P<v>" + _NAME + r")"),
    ("is-x-s-now", "entity", 0.75, "user", "owner",
     r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:is|are)\s+(?P<v>" + _NAME + r")['’]s\s+now\b"),
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
    # "Priya is the on-call lead": a post one person holds at a time, keyed by the post, so that "Bilal took over
    # as on-call lead" meets it (extract.py keys a handover the same way)
    ("holds-post", "entity", 0.75, "user", "owner",
     r"^(?P<v>" + _NAME + r")\s+is\s+(?:now\s+)?the\s+(?:new\s+|current\s+)?" + POST + r"\s*[.!]?$"),
    # "I report to Gareth Boyle": who one's manager is, whatever the wording
    ("reports-to", "entity", 0.75, "user", "manager",
     r"^(?P<s>i|" + _NAME + r")\s+(?:now\s+)?(?:directly\s+)?reports?\s+(?:directly\s+)?to\s+(?P<v>" + _NAME + r")"
     r"(?:\s+now|\s+(?:after|since|following)\s+[^,;]+)?\s*[.!]?$"),
    # "Verano assigned us a new point of contact, Beatriz Salas": a new holder of a post at a named party
    ("assigned-contact", "entity", 0.75, "user", "contact",
     r"^(?P<s>" + _NAME + r")\s+(?:has\s+)?(?:assigned|gave|given|appointed|named)\s+(?:us|me)\s+(?:a\s+)?new\s+"
     r"(?:main\s+|primary\s+)?(?:contact|point of contact|poc|liaison|account manager)\s*[,:—-]\s*"
     r"(?P<v>" + _NAME + r")\s*[.!]?$"),
    ("role", "entity", 0.7, "user", "role",
     r"^(?P<s>" + _NAME + r")\s+(?:is|has been(?![^;.]*\b(?:before|while|until|during|interim|acting|on this)\b)|"
     r"works as|serves as|is working as)\s+(?:our|the|a|an)\s+(?:new\s+)?"
     r"(?P<v>(?:[\w-]+\s+){0,2}(?:" + _ROLES + r"))\b"
     # "Yusuf is PM for checkout": a title that is an acronym needs no article
     r"|^(?P<s2>" + _NAME + r")\s+is\s+(?P<v2>(?-i:PM|EM|TPM|SRE|QA|CTO|CEO|CFO|COO|VP)(?:\s+(?:for|on|of)\s+[\w -]+)?)"
     r"\s*[.!]?$"),
    ("joining-as", "entity", 0.75, "user", "role",
     r"^(?P<s>" + _NAME + r")\s+is\s+joining(?:\s+us)?\s+as\s+(?:an?\s+|our\s+)?(?:new\s+)?"
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
    ("meeting-at", "domain_fact", 0.75, "user", "",
     r"^(?:the\s+|our\s+)?(?P<s>[\w' -]{0,30}?\b(?:standup|stand-up|meeting|sync|retro|retrospective|review|1:1|"
     r"one-on-one|check-in|planning|demo))\s+(?:is|starts|happens|runs|begins)\s+(?:(?:every day|daily|now)\s+)?"
     r"(?:at\s+)?(?P<v>" + _TIME + r")\b"
     r"|^(?:the\s+)?(?P<s4>standup|stand-up|daily sync|sync)\s+(?:for|of)\s+(?:the\s+)?(?P<s5>[\w-]+(?:\s+team)?)\s+"
     r"(?:is|starts|happens|runs|begins)\s+(?:at\s+)?(?P<v4>" + _TIME + r")\b"
     r"|^(?P<s2>(?:the\s+)?[\w-]+(?:\s+team)?)\s+stands\s+up\s+(?:every\s+(?:day|morning)\s+|daily\s+)?at\s+"
     r"(?P<v2>" + _TIME + r")\b"),
    ("setting-is", "domain_fact", 0.75, "any", "",
     r"\b(?:the\s+)?(?P<s>(?:[\w-]+\s+){0,2}(?:timeout|ttl|retention|sla|quota|threshold|interval|port|limit|"
     r"max(?:imum)?|minimum|batch size|pool size))\s+(?:for|of|in|on)\s+(?P<s2>[\w.-]+)\s+(?:is|are|=)\s+(?P<v>.+)"),
    ("times-out-at", "domain_fact", 0.75, "any", "timeout",
     r"^(?:the\s+)?(?P<s>[\w.-]+)\s+(?:times\s+out|gives\s+up)\s+(?:[\w ]+?\s+)?(?:at|after)\s+(?P<v>\d.+)"),
    ("is-address", "domain_fact", 0.75, "user", "url",
     r"^(?:the\s+|our\s+)?(?P<s>[\w -]{2,30}?)\s+(?:is|lives at|is at|is served (?:at|from)|runs at)\s+"
     r"(?P<v>https?://\S+|(?-i:[a-z0-9-]+(?:\.[a-z0-9-]+)+\.(?:app|dev|io|com|net|org|cloud))\b)"
     r"|^(?P<v2>https?://\S+|(?-i:[a-z0-9-]+(?:\.[a-z0-9-]+)+\.(?:app|dev|io|com|net|org|cloud)))\s+is\s+(?:the|our)\s+(?:new\s+)?"
     r"(?P<s2>[\w -]{2,30}?)\s*(?:from now on|going forward|now|$)"),
    ("deploys-from", "domain_fact", 0.75, "user", "deploy",
     r"^(?:the\s+)?(?P<s>[\w.-]+(?:\s+[\w.-]+)?)\s+(?:auto-?deploys|deploys automatically|is deployed|gets deployed)\s+"
     r"from\s+(?P<v>.+)"),
    ("stack-is", "domain_fact", 0.75, "user!", "stack",
     r"^(?:the\s+|our\s+)?(?P<s>backend|frontend|stack|api|server|client|web app|mobile app)\s+(?:is|=|:)\s+"
     r"(?P<v>" + _NAME + r".*)"),
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
     r"their) data|its data|their data|data)\s+)?(?:in|to|on|into)\s+(?P<v>.+)"
     r"|^(?:all\s+(?:of\s+)?)?(?:the\s+)?(?P<s2>[\w.' -]{2,40}?)(?:['’]s)?\s+data\s+"
     r"(?:lives|is stored|is kept|sits|goes)\s+"
     r"(?:in|on)\s+(?P<v2>.+)"),
)

# Broad cues: the general shapes of a durable statement, for wordings the cues above were not
# written for. They are tried last, with a lower confidence, and never on a sentence that dates
# itself to one moment ("this morning", "right now"). They were checked against a blind,
# hand-written set (bench/fact_phrasings.py), not the synthetic corpus's templates.
_FAILING = (
    r"(?:fail(?:s|ed)?|break(?:s)?|broke|crash(?:es|ed)?|flake(?:s|d)?|die(?:s|d)?|hang(?:s)?|times? out|ooms?|"
    r"runs? out of memory|goes down|go(?:es)? red|falls? over|jams?|drops?|deadlocks?|rebalances?|drifts?|"
    r"misses|chokes?|rejects?|leaks?|logs? (?:people|users|me|you|everyone) out|returns? (?:stale|errors?|\d{3}s?)|"
    r"starts? returning|won'?t (?:start|build|boot|load|connect)|stops? working|errors? out|cuts? out|slips?|"
    r"sticks? (?:halfway|shut)|trips? (?:the|a|our) (?:[\w-]+ )?(?:breaker|fuse|switch|alarm)|shorts|"
    r"(?:is|are|runs?) late|"
    r"gets? (?:double-booked|stuck|corrupted|lost))"
)
_RECURRING = (
    r"(?:whenever|every time|each time|any time|anytime|every run|on every|on any|with any|unless|because|due to|"
    r"caused by|triggered by|trace back to|traces back to|line up with|lines up with|when|that'?s why|hence|if|"
    r"after\s+~?\d)"
)
# "no worries", "no need for me": what "no" opens without naming a thing given up
_NO_IDIOM = r"(?:worries|problem|idea|clue|way|rush|thanks|luck|need|pressure|big deal)\b"
_RELATIONS = (
    r"mother|father|mom|mum|dad|sister|brother|wife|husband|partner|son|daughter|kids?|children|child|manager|boss|"
    r"dentist|doctor|gp|landlord|landlady|accountant|therapist|lawyer|dog|cat|car|bike|grandma|grandpa|grandmother|"
    r"grandfather|aunt|uncle|cousin|niece|nephew|neighbou?r|flatmate|roommate|mentor|coach|trainer|vet|pet|"
    r"(?:\w+'s\s+)?birthday|address|home town|hometown"
)
_BROAD_TABLE: tuple[tuple[str, str, float, str, str, str], ...] = (
    ("broad-failure", "failure_pattern", 0.75, "any", "failure",
     r"^(?:[\w ]{3,30}:\s*)?(?:every\s+[\w-]+\s+)?(?P<s>(?:the\s+|our\s+|my\s+|these\s+)?[\w.'’/ -]{2,60}?)\s+"
     r"(?:(?:keeps?|kept|always|still|reliably)\s+)?" + _FAILING + r"\b(?P<v>.*?\b" + _RECURRING + r"\b.+)"
     # "the migration tool silently skips files with uppercase names, bit us twice": it happened more than once
     r"|^(?P<s2>(?:the\s+|our\s+|my\s+)?[\w.'/ -]{2,40}?)\s+(?P<v2>(?:silently\s+|always\s+|sometimes\s+)?"
     r"(?:" + _FAILING + r"|skips|loses|corrupts|deletes|overwrites|locks|takes\s+[\w-]+\s+down)\b"
     r"[^;]*?)[,;]\s*(?:(?:it\s+)?(?:bit|hit|burned|bitten)\s+us\s+(?:twice|again|\w+\s+times)|"
     r"(?:\d+|two|three|four|several)\s+times\s+(?:so\s+far|now|already)|happened\s+(?:twice|\w+\s+times))"),
    ("broad-failure-cause", "failure_pattern", 0.75, "any", "failure",
     r"^(?:whenever|every time|each time)\s+(?P<v>.+?),\s+(?P<s>.+?)\s+(?:starts?\s+)?" + _FAILING
     + r"\b(?<!without fail)"),
    ("broad-allergy", "constraint", 0.8, "user", "allergy",
     r"\b(?:i'?m|i am)\s+(?:severely\s+|very\s+)?(?:allergic|intolerant)\s+to\s+(?P<v>.+)"
     r"|^(?P<v2>[\w -]+?)\s+only\s+for\s+me\b"),
    # "bad knee, so no running for me, doctor's orders"
    ("broad-none-for-me", "constraint", 0.75, "user", "",
     r"\bno\s+(?P<v>(?!" + _NO_IDIOM + r"|more|longer)[\w-]+(?:\s+[\w-]+)?)\s+for\s+me\b"),
    ("broad-cannot", "constraint", 0.75, "user", "",
     r"^(?P<s>(?:(?!\band\b|\bbut\b|\bso\b)[^,;]){2,50}?)(?:\s+"
     r"(?:can'?t|cannot|must not|mustn'?t|may not|(?:is|are)n'?t allowed(?: to)?|(?:is|are) not allowed"
     r"(?: to)?|(?:is|are) never allowed(?: to)?)|'(?:re|s) (?:not|never) allowed(?: to)?)\s+(?P<v>.+)"
     # "the partner SFTP only accepts files under 50 MB", "the board only has 256KB of ram"
     r"|^(?P<s2>[\w -]{3,40}?)\s+only\s+"
     r"(?P<v2>(?:accepts?|allows?|supports?|takes?|handles?|(?:has|have)(?=[^,;]*\d))\b.+)"),
    ("broad-only-allowed", "constraint", 0.75, "user", "",
     r"^only\s+(?P<v>.+?)\s+(?:is|are)\s+(?:allowed|permitted|accepted)\s+(?:in|on|for|into)\s+(?P<s>.+)"),
    ("broad-at-most", "constraint", 0.75, "user", "limit",
     r"^(?:nothing over|no more than|not more than|never more than|max(?:imum)?|at most)\s+"
     r"(?P<v>[$€£]?\d[\w.,$€£%]*(?:\s+[\w-]+){0,3}?)\s+(?:for|per|on|in)\s+(?P<s>[\w -]+)"),
    ("broad-needs", "constraint", 0.75, "user", "",
     r"^(?P<s>(?:every|each|all|any|anything)\s+[\w -]+?|public [\w -]+?)\s+(?:needs?|requires?|must have|must get)\s+"
     r"(?P<v>.+)"),
    ("broad-never-goes", "constraint", 0.75, "user", "",
     r"^(?P<s>[\w -]{3,40}?)\s+never\s+(?P<v>(?:go|goes|get|gets|leave|leaves|run|runs|ship|ships|touch|touches)\b.+)"),
    ("broad-no-x", "constraint", 0.7, "user", "",
     r"^no\s+(?P<s>(?!" + _NO_IDIOM + r")[\w-]+(?:\s+[\w-]+)?)\s+"
     r"(?P<v>(?:on\s+(?:\w+\s+)?(?:" + _WEEKDAY + r"|weekends?|holidays?)\b|(?:during|before|after|without|outside)\s)"
     r".*)"
     # "no emojis in commit messages, ever", "no Friday deploys for Brindle, hard team rule"
     r"|^no\s+(?P<s2>[\w-]+(?:\s+[\w-]+)?)\s+(?:in|for|on|into)\s+(?P<v2>[^,;]+)[,;]\s*"
     r"(?:ever|(?:a |the |our )?(?:hard )?(?:team )?rule)\b"),
    ("broad-hard-stop", "constraint", 0.75, "user", "",
     r"\bhard\s+(?:stop|limit|cap|deadline|cutoff)\b\s*(?:at|of|is|:)?\s*(?P<v>.+)"),
    ("broad-decided", "decision", 0.75, "user", "",
     r"^(?:(?:the\s+)?(?P<s>[\w -]{2,30}?)\s+(?:voted|decided|agreed)\s*:\s*|"
     r"(?:decided|decision|final (?:call|decision)|settled|agreed)\b"
     r"(?:\s+(?:on|for|about)\s+(?P<on>[\w.-]+(?:\s+[\w.-]+)?)\s*(?=:))?[^:]{0,40}?(?:[:,—]|(?<!\w)-)+\s*)"
     r"(?P<v>(?!.*\b(?:too|as well|also)\W*$).+)"
     r"|^(?P<v2>" + _NAME + r")\s+it is\b"
     r"|^(?P<s3>.+?)\s+(?:is|are)\s+(?:locked in|confirmed|signed off|finali[sz]ed)\s+(?:for|as|at)\s+(?P<v3>.+)"
     # "Marlin's frontend is SvelteKit, decided last sprint", "trunk-based development, that's our process"
     r"|^(?P<v4>.+?)[,;]\s+(?:decided\s+(?:last|this|in|at)\b|that'?s our (?:process|policy|convention|standard)\b)"
     # "Redis Streams was chosen as the event bus for Gorse"
     r"|^(?P<v5>.+?)\s+(?:was|has been)\s+(?:chosen|picked|selected)\s+as\s+(?:the|our)\s+(?P<s5>.+)"),
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
    # what the speaker is, where they come from, what they speak: keyed by the side alone (extract._cue_key), so a
    # loose match would replace the true one; each says no more than the shapes it knows
    ("self-role", "entity", 0.75, "user", "role",
     r"(?:^|[,;]\s*)i(?:'m| am| work as)\s+(?:an?\s+)"
     r"(?P<v>(?:(?!" + _JUDGED + r")[\w-]+\s+){0,2}(?:" + _ROLES + r"|" + _OCCUPATIONS + r"))"
     # the title ends there ("I'm a nurse at St Mary's"), not "I'm a head taller than him"
     r"(?=\s*(?:$|[,.;!]|(?:at|in|for|with|and|now|by|since|from|on|who|these)\b))"),
    ("self-origin", "entity", 0.75, "user", "origin",
     r"^i(?:'m| am)\s+(?:originally\s+)?from\s+(?P<v>" + _PLACE + r")"
     r"(?![^,;]*[,;]?\s*(?:calling|ringing|writing|here)\b)"
     r"|^i\s+(?:grew up|was born|was raised)\s+in\s+(?P<v2>" + _PLACE + r")"),
    ("self-language", "entity", 0.75, "user", "language",
     r"^i\s+(?:also\s+)?speak\s+(?P<v>(?!" + _CALENDAR_NAME + r")(?-i:[A-Z][a-z]+)\b"
     r"(?!\s+(?:at|on|to|with|about|in|for)\b).*)"),
    ("self-age", "entity", 0.75, "user", "age",
     r"^i(?:'m| am)\s+(?P<v>\d{1,2})(?:\s+years?\s+old)?\s*(?:[,.;!]|$)"),
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
    # "Releases happen weekly on Tuesdays", "release every other Wednesday": when something recurs is its schedule
    ("broad-cadence", "domain_fact", 0.7, "user", "schedule",
     r"^(?:the\s+|our\s+)?(?:(?P<s>(?!(?:i|we|you|they|it|he|she|this|that|things|stuff)\b)[\w-]+(?:\s+[\w-]+)??)\s+"
     r"(?:happens?|go(?:es)? out|ships?|runs?|takes? place|(?:is|are)\s+(?:held|cut|done))"
     r"|(?P<s2>(?:release|deploy|standup|stand-up|retro|sync|backup|build|report|digest|demo|payroll|invoice)s?))\s+"
     r"(?P<v>(?:weekly|daily|nightly|hourly|monthly|biweekly|fortnightly|quarterly)(?:\s+on\s+" + _WEEKDAY + r")?"
     r"|every\s+(?:other\s+|second\s+)?(?:" + _WEEKDAY + r"|(?:day|week|month|morning|night|hour|weekday)s?))"
     r"(?:\s+now)?\s*[.!]?$"),
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
VALUE_SPLIT = re.compile(r"^(?P<s>.+?)\s+(?:on|in|at|to|with|as|for|into|onto|via)\s+(?P<v>[^ ].*)$", re.I)
LEAD_VERB = re.compile(
    r"^(?:to\s+)?(?P<verb>use|using|host|hosting|run|running|keep|go with|going with|move|put|deploy|spend|store|"
    r"adopt|build)\s+",
    re.IGNORECASE,
)
