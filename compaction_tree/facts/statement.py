"""What a fact statement says, for consolidation and extraction: its terms, entities and names,
and, when it states a change ("switched from X to Y", "no more X", "(was X)"), the value it
replaces and the new one. A statement that dates its value to a change ("since the migration",
"now that ...") states a change too, of a value it does not name. Pure.

Kept only for consolidate.py and llm.py (KNOWN_ASPECTS, is_specific, names_of) until consolidation reads
structure only (issue 27, the ledger branch); the extractor no longer uses it. Delete it then.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ..text import STOPWORDS, WORD, fold, stem, word_form
from ..topics import is_generic

_NAME_WORD = r"[A-Z][\w'’.-]*"
_NAME = rf"(?-i:(?!(?:I|I'm|I've|My|We|Our|The|This|That|It|You|They|He|She)\b){_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}})"
CHANGE_VERB = (
    r"(?:(?:switch|push)(?:es|ed|ing)?|cut|cuts|cutting|dropp(?:ed|ing)|(?:extend|tighten|relax)(?:s|ed|ing)?|(?:shift|bump|swap|pull|lower|transition|port|hand|inherit)(?:s|ed|ing)?|"
    r"(?:mov|migrat|chang|upgrad|downgrad|rais|increas|decreas|reduc|updat|replac|relocat|promot)(?:e|es|ed|ing)|went|gone|go|goes|"
    r"going)"
)
# "Rune stepped down, ...", "Desmond changed teams": someone left a post, and who holds it is the value replaced
DEPARTED = (
    r"(?:stepped down|stepped back|quit|retired|moved on|changed teams|moved teams|is leaving|"
    r"left\s+(?:the\s+(?:company|team)|us\b|(?-i:[A-Z])\w+)|left(?=\s+for\b|\s*[,;]))\b[^,;]{0,40}"
)
# the clause a departure opens a statement with, up to who holds the post now ("Rune stepped down, Olga ...")
DEPARTURE_LEAD = r"^(?P<o>" + _NAME + r")\s+(?:has\s+)?" + DEPARTED + r"[,;]\s+(?:so\s+|and\s+|now\s+)?"
# "the Safari login issue is actually triggered by Y": a failure's cause, corrected; a fact (cues.py) and a change
FAILURE_NOUN = r"(?:issues?|failures?|flakiness|flakes|errors|crashes|outages?|timeouts|breakage|ooms|5\d\ds)"
CAUSE_CORRECTED = (
    r"(?:is|are|was|were)\s+(?:actually|really)\s+(?:about|triggered by|caused by|due to|down to|coming from)"
)
# "from now on", "from next week": when a change starts, not what it replaces
_NOT_A_START = r"(?!(?:now|here|then) on\b|today\b|tomorrow\b|next\b)"
# a sentence that says something is new: where a value it tells ended is the one replaced
_SAYS_NEW = (
    r"^(?=.*(?:\b(?:now|these days|nowadays|from now on|from here on|going forward|instead|hello|as of|goes to|moved|"
    r"switched|migrated|long live)\b|(?:^|:\s*)new\s+[\w-]+\s*:|\b(?:is|are)\s+(?:the|my|our)\s+new\b))"
)
# a thing named as code is ("catalog-api", "search_indexer"): a service, not "the driving"
CODE_NAME = r"[\w.]+[-_][\w.-]+"
# a value that is set, not read: a clock time or a version
SETTING = r"(?:\d{1,2}(?::\d\d)?\s?(?:am|pm)|\d{1,2}:\d\d|noon|midnight|v?\d+(?:\.\d+)+)"
# How changes are stated, tried in this order (the first that matches wins); groups: o the value
# replaced, v the new value, s what changed. The forms that name the old value come first.
# fmt: off
_CHANGE_FORMS = (
    # "document-store lists Bashir where it used to say Paloma" (before "updated, X to Y" reads "used to" as a move)
    r"\b(?:where|when)\s+it\s+used to\s+(?:say|be|read|show|list)\s+(?P<o>[^,;]+)",
    # "Rune stepped down, Olga leads the data team now": who left names the value replaced
    DEPARTURE_LEAD + r"(?P<v>" + _NAME + r")\s+"
    r"(?:now\s+)?(?=(?:leads|owns|runs|manages|handles|covers|looks after|is|took over|has taken over|takes over)\b)",
    # "Denise left, my new manager is Paul": the rest says what holds now (who "left Medellin" is no value)
    r"^(?P<o>" + _NAME + r")\s+(?:has\s+)?(?:left|quit|retired|stepped down|moved on)[,;]\s+(?:so\s+|and\s+|now\s+)?"
    r"(?P<v>[^,;]+?)(?:\s+now)?$",
    r"\b" + CHANGE_VERB + r"\b.*?(?:\bfrom\s+" + _NOT_A_START + r"|,\s+(?!used to\b))(?P<o>.+?)\s+"
    r"(?:to|->|→|onto|into|over to)\s+(?P<v>.+)",
    r"\b" + CHANGE_VERB + r"\b.*?\bto\s+(?P<v>.+?)\s+from\s+" + _NOT_A_START + r"(?P<o>.+)",
    # "finally got off Nginx 1.20, 1.23 is live after the test suite passed"
    r"^(?:(?:we|i)(?:['’]ve)?\s+)?(?:just\s+|finally\s+)?(?:got|get|getting|came|moved)\s+off\s+"
    r"(?:(?P<s>[a-z][\w.-]*)\s+)?(?P<o>v?\d[\w.]*)[,;]\s+(?P<v>v?\d[\w.]*)\s+(?:is|are)\s+(?:now\s+)?(?:live|running|"
    r"deployed|out|in prod|in production)\b",
    # "moved logging off papertrail and onto loki", not "my day off moved to Mondays"
    r"\boff\s+(?!" + CHANGE_VERB + r"\b)(?P<o>[^,;]+?)\s+(?:and\s+)?(?:onto|to|into)\s+(?P<v>.+)",
    r"\b(?:off|out of|away from)\s+(?P<o>[^,;]+?)[,;]\s*(?:it'?s|we'?re|i'?m|(?:he|she|they)['’](?:s|re)|"
    r"everything(?:'s|\s+is)?|now)\s+(?:now\s+)?(?:on|in|at|using|with)?\s*(?P<v>[^,;]+?)(?:\s+now)?$",
    # "builds got ported off GitHub Actions, every pipeline runs on Buildkite now": a name left, in a sentence
    # that says what is new
    _SAYS_NEW + r".*?\b(?:ported|moved|migrated|switched|transitioned|got|went|came|pulled|taken|took)\s+"
    r"(?:(?:it|them|us|everything)\s+)?(?:off|out of|away from)\s+(?P<o>(?-i:[A-Z0-9])[^,;]*?)\s*(?:[,;]|$)",
    r"\b(?:dropping|ditching|dropped|ditched|ripped out|got rid of|forget|forget about|scrap|scrapped|scratch|"
    r"abandon(?:ed|ing)?|"
    r"(?:given|gave|giving) up(?: on)?)\s+"
    r"(?P<o>[^,;]+?)[,;]\s*(?:(?:we'?re\s+|i'?m\s+)?(?:going for|switching to|moving to|from now on|going forward)\s+"
    r"|it'?s\s+|now\s+(?:it'?s\s+)?|(?:my|our|the)\s+[\w-]+(?:\s+now)?\s+is\s+(?:now\s+)?)(?P<v>.*)",
    # "I left The Lowlands, I'm drumming for Copper Jar now", "sold the Civic, got a used Kia Niro": what one
    # gave up, then what one has instead
    r"^(?:(?:ok|so|well),?\s+)?(?:i|we)?(?:\s*(?:just|finally))?\s*"
    r"(?:left|quit|sold|cancell?ed|ditched|gave up(?: on)?)\s+"
    r"(?P<o>[^,;]*?(?-i:[A-Z])[^,;]*?)(?:[,;]\s*|\s+and\s+)(?:so\s+|now\s+)?(?!.*\b(?:was|were)\b)(?P<v>[^,;]+?)"
    r"(?:\s+(?:now|instead))?$",
    r"\b(?:swapp|trad|exchang)\w*\s+(?P<o>[^,;]+?)\s+for\s+(?P<v>[^,;]+)",
    # "Jenkins was replaced by Buildkite for Kelso": the passive names the old value first
    r"^(?P<o>[^,;]+?)\s+(?:was|were|has been|have been|got|is being|is)\s+replaced\s+(?:by|with)\s+(?P<v>[^,;]+?)"
    r"(?:\s+(?:for|on|in|as)\s+(?P<s>[^,;]+))?$",
    r"^(?!(?:we|i|they|you|he|she|it)\b)(?P<v>[^,;]+?)\s+(?:replaced|replaces|took over from)\s+(?P<o>[^,;]+?)"
    r"(?:\s+(?:for|on|in|as)\s+(?P<s>[^,;]+))?$",
    r"\bwas\s+(?P<o>[^,;]+?)[,;]\s+(?:now|it'?s|is)\s+(?P<v>.+)",
    r"\bused to\s+(?:be|use|run on|live in|have|get|drink|eat)\s+(?P<o>[^,;]+?)(?:[,;]|\s+but\b|$)\s*(?P<v>.*)",
    r"\b(?P<v>(?:[^,;:]|(?<=\d):(?=\d))+)\s+instead of\s+(?P<o>[^,;]+?)(?:\s+please)?(?:[,;]|$)",
    # "code before explanations (not TypeScript examples)": what is replaced, said in brackets
    r"(?P<v>[^,;:(]+?)\s*\((?:and\s+|so\s+)?(?:not|instead of|rather than|no longer|bye|goodbye)\s+"
    r"(?!that\b|the (?:old |same |last )?one\b)(?P<o>[^)]+)\)",
    # "the cutoff is now 3pm, was noon"
    r"\bnow\s+(?:at\s+|on\s+|in\s+)?(?P<v>[^,;]+?)[,;]\s+(?:it\s+|that\s+)?(?:was|previously|formerly|used to be)\s+"
    r"(?!(?:stuck|hoping|supposed|going|trying|about|just|so|really|very)\b)(?P<o>[^,;]+?)$",
    # "no more Jenkins for Magpie, ...": Jenkins was Magpie's
    # "that's Lena now, Sven left": who held it left, told after who holds it now
    r"(?P<v>[^,;]+?)\s+now\s*[,;]\s*(?P<o>" + _NAME + r")\s+(?:has\s+)?(?:" + DEPARTED + r"|left)\s*$",
    # (whose only when what follows names or counts the new value: not "no more candy for Emma, she had three")
    r"\bno more\s+(?P<o>.+?)(?:\s+for\s+(?:me|us|(?P<s>" + _NAME + r")))?,\s+(?:it'?s\s+|now\s+)?"
    r"(?(s)(?=[^,;]*?(?-i:\b(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b)[A-Z][a-z]|\d)))(?P<v>.+)",
    r"\bnot\s+(?:that\s+)?(?P<o>[^,;]+?)[,;]?\s+(?:but|it'?s)\s+(?:that\s+)?(?P<v>.+)",
    r"\((?:it\s+|that\s+)?(?:was|previously|formerly|used to be)\s+(?P<o>[^)]+)\)",
    r"\b(?:is|are)\s+off\s+(?P<o>[^,;]*?(?-i:[A-Z0-9])[^,;]*?)(?:\s+as of\s+\w+)?[,;]",
    # the value replaced, told ended or found wanting in a sentence that says what is new ("cortado was getting to
    # be too much, so I'm on iced americano now", "goodbye Tbilisi, hello Riga", "we shut down CircleCI")
    _SAYS_NEW + r".*?(?:^|[,;]\s*|(?<!\d):\s*|\b(?:and|so|but|agreed)\s+)"
    r"(?P<o>(?:(?!\b(?:and|so|but|since|because)\b)(?:[^,;:!]|(?<=\d):(?=\d)))+?)\s+"
    r"(?:(?:is|are|was|were)\s+(?:now\s+)?(?:history|shelved|off the table|a thing of the past|off it|over|dead|"
    r"free again)"
    r"|(?:was|were|felt|is|are)\s+(?:getting to be\s+|way\s+|just\s+)?(?:too much|wrong|brutal|unrealistic|too slow|"
    r"too expensive|a pain)"
    r"|(?:was|is)n['’]t\s+(?:cutting it|working)|did(?:n['’]t| not)\s+work(?: out)?"
    r"|(?:kept|keeps)\s+\w+ing\b[^,;]*?,?\s+so)\b",
    _SAYS_NEW + r".*?\b(?:bye(?:\s+bye)?|goodbye|so long)\s+(?P<o>(?-i:[A-Z0-9])[^,;]*?)\s*,\s*"
    r"(?:hello\s+(?P<v>(?-i:[A-Z0-9])[^,;]*))?",
    _SAYS_NEW + r".*?\bended\s+(?:my|our|the)\s+(?P<o>[^,;]+?)\s+(?:phase|era|stint)\b",
    # "we pulled Puffin off Railway because of the price hike and put it on Heroku"
    r"\b(?:pulled|took|moved|yanked)\s+(?P<s>[^,;]+?)\s+off\s+(?P<o>[^,;]+?)\b[^;]*?\b(?:put|moved|deployed)\s+(?:it|them)\s+"
    r"(?:on|to|onto)\s+(?P<v>[^,;]+)",
    _SAYS_NEW + r".*?\b(?:shut down|shut off|turned off|decommissioned)\s+(?:the\s+|our\s+)?"
    r"(?P<o>(?-i:[A-Z][a-z])[^,;]*?)(?:\s+account)?\s*(?:[,;]|$)",
    r"(?:^|,\s*|;\s*|:\s*)(?P<o>[^,;:]*?(?-i:[A-Z0-9])[^,;:]*?)(?:\s+(?:is|are)|['’]s)\s+(?:out(?=\s*[,;]\s*\w)|gone|retired|history|deprecated|"
    r"read-only)\b",
    r"\bleft\s+(?P<o>[^,;]+?)\s+for\s+(?P<v>[^,;]+)",
    r"\bleft\s+(?P<o>" + _NAME + r")\s*(?:[,;.]|$)",
    # "2pm -> 4pm", "1.23 -> 1.25": clock times or versions both, whatever follows (not "9m50s → 4m05s", a reading)
    r"^(?=.*\b(?:freeze|cutoff|cut-off|deadline|upgrade|upgraded|landed|bumped|pinned|version|standup|sync)\b)"
    r"(?!.*\b(?:flight|train|gate|depart|departs|arrive|arrives|appointment)\b)"
    r".*?(?<![\w.'’:-])(?P<o>" + SETTING + r")\s*(?:->|→)\s*(?P<v>" + SETTING + r")(?![\w.'’:-])",
    # at most four words a side; words split by required whitespace, so a long token has one reading
    r"(?:^|:\s*)(?P<o>[\w.'’-]+(?:\s+[\w.'’-]+){0,3}?\s*)\s*(?:->|→)\s*(?P<v>[\w.'’-]+(?:\s+[\w.'’-]+){0,3}\s*)\.?$",
    r"\b(?P<v>[^,;]+?),?\s+(?:up|down)\s+from\s+(?P<o>[^,;]+)",
    r"\b(?:ripped|pulled|took|yanked|tore)\s+(?P<o>(?-i:[A-Z])[^,;]*?)\s+out\b[^,;]*?(?:,\s*|\s+)and\s+"
    r"(?:replaced it with|put in|swapped in|moved to|went with)\s+(?P<v>[^,;]+)",
    r"\breplac(?:ed|ing|e)\s+(?!it\b)(?P<o>.+?)\s+with\s+(?P<v>.+?)(?:\s+(?:for|on|in)\s+(?P<s>[^,;]+))?$",
    r"\b(?P<o>" + _NAME + r")\s+(?:handed|passed|gave|transferred)\s+(?!(?:me|us|him|her|them)\b)(?P<s>.+?)\s+"
    r"(?:over\s+)?to\s+(?P<v>.+)",
    r"^(?P<s>[^,;]+?)\s+(?:was|were|has been|got|is being|is)?\s*(?:handed|passed|transferred|given)\s+(?:over\s+)?"
    r"to\s+(?P<v>" + _NAME + r")",
    r"\bno longer\s+(?:uses?|runs? on|on|in|with|using)?\s*(?P<o>[^,;]+)",
    r",\s+not\s+(?:the\s+|that\s+)?(?P<o>[^,;]+?)(?:\s+ones?)?(?:\s+any\s?more)?(?:[,;]|\.?$)",
    r"\bstopped\s+(?:being|using|eating|drinking|doing)\s+(?P<o>[^,;]+?)[,;]\s*(?P<v>.*)",
    r"(?:\bnot|\b(?:is|are)n['’]t|\b(?:do|does)n['’]t\s+(?:use|talk to|run on|live on|depend on|go through|hit|"
    r"query))\s+(?P<o>[^,;]+?)\s+any\s?more\b",
    # "Imani doesn't own search-indexer anymore, so take search-indexer stuff to Odette": who held it is replaced
    r"^(?P<o>" + _NAME + r")\s+(?:does(?:n['’]t| not)\s+(?:own|lead|manage|maintain)s?\s+"
    r"(?P<s>[^,;]+?)\s+any\s?more|no longer\s+(?:own|lead|manage|maintain)s?\s+(?P<s2>[^,;]+?))"
    r"(?:[,;]|$)",
    # "took over X from Y"; said now, of a named or code-like thing ("takes over catalog-api", not "the driving")
    r"(?:\b(?P<v>" + _NAME + r")\s+)?\b(?:took|(?:takes|has taken|is taking)(?=\s+over\s+(?:" + CODE_NAME
    + r"|(?-i:[A-Z]))))\s+over\s+(?P<s>.+?)\s+from\s+(?P<o>.+)",
    # "Chiara officially inherited export-worker from Kofi", "Nadia made the jump to product manager after years as
    # engineering manager"
    r"\b(?P<v>" + _NAME + r")\s+(?:has\s+)?(?:officially\s+|finally\s+)?inherit(?:ed|s)\s+(?P<s>" + CODE_NAME + r")\s+"
    r"from\s+(?P<o>" + _NAME + r")",
    r"^(?P<s>" + _NAME + r")\s+(?:has\s+)?(?:finally\s+)?made the (?:jump|move|switch)\s+to\s+(?P<v>.+?)\s+after\s+"
    r"(?:\w+\s+)?(?:years?|months?)\s+as\s+(?:an?\s+)?(?P<o>.+)",
    # what held before, told after what holds now: "they were data engineer before the reorg", "got the title after
    # two years as support lead", "Postgres couldn't keep up with the write load"
    # (a post or a name, in a sentence that says what holds now: not "he was the top scorer before the injury",
    # "she was nervous before the review, she's fine now")
    _SAYS_NEW + r".*?\b(?:they|he|she)\s+(?:were|was)\s+(?!(?:in|at|on|with|away|out|off|there|here)\b)"
    r"(?:an?\s+|the\s+)?(?P<o>[^,;\s]+(?:\s+[^,;\s]+)+?|(?-i:[A-Z0-9])[^,;\s]*)\s+before\s*(?:the\b|that\b|this\b|[.,;]|$)",
    # a title after years in another post (not "a loyalty discount after six years as a subscriber")
    r"\b(?:title|promot\w*|became|becomes)\b.*?\bafter\s+(?:\w+\s+)?(?:years?|months?)\s+as\s+"
    r"(?:an?\s+|the\s+|our\s+)?(?P<o>[^,;.]+)",
    # a system that could not keep up with its load and was rebuilt (not "Sarah couldn't keep up on the hike")
    r"^(?P<o>(?-i:[A-Z])[\w.-]*(?:\s+(?-i:[A-Z])[\w.-]*)?)\s+(?:couldn['’]t|could not|can['’]t|cannot)\s+keep up\s+with"
    r"\s+[^,;]*?\b(?:load|traffic|writes|reads|volume|scale|requests|throughput|queue|jobs)\b"
    r"(?=.*\b(?:so|and)\b.*\b(?:rebuilt|moved|switched|migrated|replaced|ported)\b)",
    # changes that do not say what they replace
    # "Yusuf moved over to the growth team as PM": a person's move to a team is a change of their role
    r"^(?P<s>" + _NAME + r")\s+(?:has\s+)?(?:moved|switched|transferred|went)\s+(?:over\s+)?to\s+"
    r"(?P<v>(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+)?\s+team\s+as\s+(?:an?\s+|the\s+|its\s+)?[\w -]+?)[.!]?$",
    r"^(?P<v>" + _NAME + r")\s+(?:has\s+)?(?:took|taken|takes|is taking|stepped|steps)\s+(?:over|in|up)\s+as\s+"
    r"(?:the\s+|our\s+)?(?:new\s+)?(?P<s>(?:[\w-]+\s+){0,2}(?:lead|head|owner|dri|captain|manager|maintainer|contact|"
    r"point of contact|poc|chair)(?:\s+(?:for|of|on)\s+(?!today|tonight|this\b|now\b)[\w-]+(?:\s+[\w-]+){0,2})?)[.!]?$",
    r"^(?P<v>[^,;]+?)\s+is\s+(?P<s>[^,;]+?['’]s\s+new\s+[\w -]{2,30})$",
    r"^new\s+(?P<s>[\w' -]{2,30}?)\s*:\s*(?P<v>.+)",
    r"\b(?:we|i)(?:'ve|'re|\s+have|\s+are)?\s+(?:just\s+|finally\s+)?(?:switch|mov|migrat|upgrad|bump|rais|lower|"
    r"chang|shift|transition)\w*\s+(?P<s>[^,;]+?)\s+(?:over\s+)?(?:to|onto|into)\s+(?P<v>.+)",
    r"^(?:upgraded|bumped|migrated|moved|switched|raised|lowered)\s+(?P<s>[^,;]+?)\s+to\s+(?P<v>.+)",
    # "we upgraded to Django 5.0": the version names its library
    r"^(?:we|i)?(?:'ve|\s+have)?\s*(?:just\s+|finally\s+)?(?:upgraded|bumped|moved|updated|went)\s+(?:up\s+)?to\s+"
    r"(?P<v>(?-i:[A-Z])?[\w.-]+\s+v?\d+(?:\.\d+)+)\b",
    r"^(?:moving|migrating|switching|porting)\s+(?P<s>[^,;]+?)\s+(?:over\s+)?(?:to|onto)\s+(?P<v>[^,;]+)",
    # "we've gone to one-week iterations": the perfect says the new value holds now
    r"^we(?:'ve|\s+have)\s+(?:now\s+)?(?:gone|moved|switched|changed)\s+(?:over\s+)?to\s+(?P<v>[^,;]+)$",
    r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:is|are)\s+now\s+(?:at|on|in|using|running)?\s*(?P<v>.+)",
    r"^(?!(?:we|i|it|they|he|she|you|that|this|everything|nothing)\b)(?P<s>(?:the\s+|our\s+|my\s+)?[\w.'’ -]{2,40}?)"
    r"(?:\s+(?:is|are)|['’]s|['’]re)\s+(?:on\s+|at\s+|in\s+|with\s+|using\s+)?(?P<v>[^,;]*?(?-i:[A-Z0-9])[^,;]*?)\s+"
    r"(?:now|these days|nowadays|going forward|from now on|from here on|as of [\w ]+?)(?=$|[,;.])",
    r"\b(?:bumped|raised|lowered|dropped|extended|tightened|relaxed|increased|reduced|cut|moved|changed|set|pushed|"
    r"pulled|shortened|lengthened|shifted|switched|upgraded|downgraded)\s+(?P<s>(?:the|our|their|its|my|his|her)\s+"
    r"[^,;]+?)\s+(?:over\s+)?to\s+(?P<v>.+)",
    # "Osprey timeout raised to 45s": chat leaves out the "was" (but "Ines moved over to ..." is a person's move)
    r"^(?:(?P<s>[^,;]+?)\s+(?:got|was|were|has been|have been|is being|is)\s+"
    r"|(?P<s2>[^,;]*?(?:\b(?-i:[a-z])[\w-]*|\b(?-i:[A-Z]{2,5})))\s+)"
    r"(?:bumped|raised|lowered|dropped|extended|tightened|relaxed|increased|reduced|cut|moved|changed|set|pushed|pulled|shortened|lengthened|shifted|switched|"
    r"upgraded|ported|migrated|relocated|transferred)\s+(?:over\s+)?to\s+(?P<v>.+)",
    r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:went|goes|has gone|is going)\s+(?:up|down)\s+to\s+(?P<v>.+)",
    # "Gorse moved CI to GitLab CI": what it moved is the side that changed
    r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?\s+(?-i:moved|switched|migrated)\s+(?:its\s+|their\s+)?(?-i:CI|[a-z]+))\s+"
    r"(?:over\s+)?(?:to|onto)\s+(?P<v>(?-i:[A-Z]|\d)[^,;]*)",
    r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)"
    r"\s+(?-i:moved|switched|changed|shifted|relocated|upgraded|bumped|updated|migrated)\s+(?:over\s+)?(?:to|onto)\s+"
    r"(?P<v>(?:the\s+)?(?:(?-i:[A-Z]|\d)|(?:weekly|monthly|quarterly|annual|yearly|daily|one|two|three|four)\b)[^,;]*"
    r"|[^,;]+?\s+(?:role|position|job|title)\b)",
    r"^(?P<s>[\w.'’ -]{2,40}?\b(?:role|title|job|position|owner|host|hosting|database|datastore|ci|standup|sync|"
    r"cutoff|freeze|limit|quota|budget|goal|target|diet|lessons?|schedule|version|sprints?))\s+"
    r"(?:(?:has|have)\s+)?(?:moved|switched|changed|shifted|went)\s+(?:over\s+)?to\s+(?P<v>[^,;]+)",
    r"^(?:(?:it\s+)?turns out\s+)?(?P<s>[^,;]+?\s+" + FAILURE_NOUN + r")\s+" + CAUSE_CORRECTED + r"\s+(?P<v>[^,;]+)",
)
# fmt: on
CHANGE_PATTERNS = tuple(re.compile(form, re.IGNORECASE) for form in _CHANGE_FORMS)
_CONTRAST = next(p for p in CHANGE_PATTERNS if p.pattern.startswith(r",\s+not\s+"))
_BRACKETED = next(p for p in CHANGE_PATTERNS if p.pattern.startswith(r"(?P<v>[^,;:(]+?)\s*\("))
# the new value of a change that does not say "to Y": "X is out, Atlas now builds on Y", "going for Y"
NEW_VALUE = re.compile(
    r"\bnow\s+(?:\w+\s+){0,2}?(?:on|in|to|at|with|uses?|using|is|are)\s+(?P<v>[^,;]+)"
    r"|\b(?:going for|switching to|moving to|it'?s|everything runs on|runs on|lives in)\s+(?P<v2>[^,;]+?)(?:\s+now)?$"
    r"|\b(?:on|in|at|to|with|using|is|are)\s+(?P<v3>[^,;]+?)\s+(?:now|these days|nowadays)\b"
    r"|\b" + CHANGE_VERB + r"\s+(?:\w+\s+){0,3}?(?:to|onto|into)\s+(?P<v4>[^,;]+)",
    re.IGNORECASE,
)


def new_value(text: str, change: Change) -> str:
    """The new value of a change, where the change form left it out: after the change, else before
    it ("Brisa is on Railway now, not Heroku")."""
    if change.new:
        return change.new
    later = NEW_VALUE.search(text, change.start) or NEW_VALUE.search(text[: change.start])
    return " ".join(v for v in later.groups() if v) if later else ""


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


# words that only say that something changed: they never make two statements disagree
CHANGE_WORDS = frozenset(
    stem(word_form(w))
    for w in _wordset(
        "switched switch moved move moves moving migrated migrating changed shifted bumped upgraded raised lowered "
        "replaced now anymore longer instead new rule out gone off left dropping going starting today tomorrow "
        "cycle next actually forget read-only delete until sold quit cancelled canceled ditched retired goes went "
        "inherited history shelved"
    )
)
# how a value is held, not what it is about: "everything runs on GitHub Actions now"
RELATION_WORDS = frozenset(stem(word_form(w)) for w in _wordset("run runs use uses using live lives host hosted"))
# number and calendar words are values: "two weeks" and "three weeks", "Friday" and "Monday" disagree
NUMBER_WORDS = _wordset(
    "zero one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred "
    "first second third fourth fifth once twice noon midnight"
)
CALENDAR = _wordset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august "
    "september october november december"
)
# how often and when in the day: values, though ordinary words ("pays monthly", "reviews in the morning")
CADENCE = _wordset(
    "hourly daily nightly weekly biweekly fortnightly monthly quarterly annually yearly morning mornings afternoon "
    "afternoons evening evenings night nights weekday weekdays weekend weekends"
)
# Words that name the same side of a thing, folded to one ("billing_data" and "billing_datastore"
# are one subject); weak words say nothing about which side.
ASPECTS = {
    "datastore": "datastore database db storage store stores stored persist persists persistence",
    "host": "host hosted hosting hosts",
    "ci": "ci build builds built pipeline pipelines",
    "limit": "limit limits cap capped caps ceiling quota throttle throttled allowance rate",
    "owner": "owner owners owns ownership maintainer maintains belong belongs",
    "home": "home live lives living based relocated",
    "cutoff": "cutoff freeze",
    "version": "version versions upgrade upgraded",
    "answers": "answer answers explanation explanations response responses reply replies format",
    "sprint": "sprint sprints iteration iterations",
    "schedule": "schedule lesson lessons class classes",
    "diet": "diet food eat",
    "role": "role title position job",
    "contact": "contact poc liaison",
    "goal": "goal goals target aim resolution",
    "standup": "standup standups stand-up sync",
    "timeout": "timeout timeouts",
    "url": "url urls",
    "port": "port ports",
    "queue": "queue queues broker",
    "billing": "billing invoice invoiced invoices billed",
    "sla": "sla uptime availability",
    "rotation": "rotation",
    "allergy": "allergy allergies allergic",
    "birthday": "birthday birthdays",
    "retention": "retention retained",
    "failure": "failure failures",  # the failure cues' side: "e2e_failure" and "e2e_suite_failure" are one side
}
# Words that name the class of a thing, not which one ("the billing service", "the Orca team"):
# left out of a key that holds a more specific word
CLASS_NOUNS = frozenset(
    _wordset("service services team teams app apps application project projects repo repository system codebase")
)
# acronyms that name a side of things, not a thing: never what tells two subjects apart
GENERIC_ACRONYMS = frozenset(
    _wordset(
        "sla slo api ci cd pr db sdk cli ui ux qa sre sso mfa dns cdn vpn url ttl rps qps eta etl os p50 p90 p95 p99"
    )
)
ASPECT_OF = {word: aspect for aspect, words in ASPECTS.items() for word in words.split()}


def is_specific(word: str) -> bool:
    """A word that can tell one thing from another: not generic English, not an acronym of a side ("api")."""
    return not is_generic(word) and word not in GENERIC_ACRONYMS


KNOWN_ASPECTS = frozenset(ASPECTS)
# "latency" too: the metric a target in ms or a percentile sets ("search_latency_goal" is "p95_goal_search")
WEAK_ASPECTS = frozenset(
    {"time", "day", "rule", "new", "setting", "current", "main", "deploy", "deploys", "now", "latency"}
)


@lru_cache(maxsize=65536)
def key_parts(subject: str) -> frozenset[str]:
    """A subject key as a set of canonical words: what two keys are compared on ("payments_owner" and
    "payment_ownership" are one)."""
    parts = [ASPECT_OF.get(part) or word_form(part) for part in subject.split("_") if part and part not in WEAK_ASPECTS]
    specific = [part for part in parts if part not in CLASS_NOUNS]
    undated = [part for part in specific if part not in CALENDAR]  # "friday_cutoff": the day is in the value
    return frozenset(undated or specific or parts)


@lru_cache(maxsize=65536)
def key_stems(subject: str) -> frozenset[str]:
    """A subject key's canonical words as a statement's words are kept (stems): "swim" and "swimming" are one
    key, whatever the order of its words ("walk_dog", "dog_walk")."""
    return frozenset(stem(part) for part in key_parts(subject))


_UNIT = r"(?:\s?(?:am|pm)\b|\s?(?:kb|mb|gb|tb)\b)?"  # "2 pm" and "512MB" are values whole: "512MB" is not "512GB"
_VALUE = re.compile(r"\$?\d[\d,.:]*\d%?" + _UNIT + r"|\$?\d%?" + _UNIT, re.IGNORECASE)
_SPEAKER = re.compile(r"^([\w.-]{1,40}):\s+")
_POSSESSIVE = re.compile(r"['’]s$")
_JOINER = re.compile(r"[.'’_-]")
_TECHNICAL = re.compile(r"\w[._-]\w")
_CLAUSE_END = re.compile(r"[.:;!?]")


@dataclass(frozen=True)
class Change:
    """What a change statement says: the value it replaces (may be empty), the new one, what changed."""

    old: str
    new: str
    subject: str
    start: int  # where in the text the change is stated
    contrast: bool = False  # only "..., not Y": it names what is replaced, but is no change by itself


_LAST_PHRASE = re.compile(r"^.*\b(?:on|in|at|to|with|for|is|are|get|gets|use|uses|using|now)\s+(?=\S)", re.IGNORECASE)


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


@lru_cache(maxsize=8192)  # asked of one sentence by the gates, then for its key
def change_of(text: str) -> Change | None:
    masked = _THOUSANDS.sub("\x00", text)  # "1,000 requests per minute" is one value, its comma no clause break
    for pattern in CHANGE_PATTERNS:
        match = pattern.search(masked)
        if match is not None:
            groups = {k: v.replace("\x00", ",") for k, v in match.groupdict().items() if v is not None}
            new = (groups.get("v") or "").strip()
            # "Elsa swims on Wednesday instead of Monday": the value is Wednesday
            if "instead of" in match.group(0) and pattern is not _BRACKETED:
                new = _LAST_PHRASE.sub("", new)
            old = groups.get("o") or ""
            contrast = pattern is _CONTRAST and not re.search(r"(?-i:[A-Z])|\d", old)
            subject = groups.get("s") or groups.get("s2") or ""
            label, colon, after = new.rpartition(": ")
            if colon and not subject and len(label.split()) >= 2:  # "changed the rule for Tern: 500 replaces 1,000"
                new, subject = after, label
            return Change(old, new, subject, match.start(), contrast)
    return None


def plain_text(fact: str) -> str:
    """A fact without the "speaker: " that quotes a first-person statement."""
    return _SPEAKER.sub("", fact, count=1)


def speaker_of(fact: str) -> str | None:
    """Who a first-person statement quotes ("Jon" for "Jon: I ..."), or None."""
    said = _SPEAKER.match(fact)
    return said.group(1) if said else None


def _values(text: str) -> set[str]:
    return {v.lower().replace(" ", "").rstrip(".,") for v in _VALUE.findall(text)}


def _is_value(token: str) -> bool:
    return token[:1].isdigit() or token[:1] == "$"


def terms_of(text: str) -> frozenset[str]:
    """What a statement is about, for similarity: non-generic stems, and values whole."""
    found = _values(text)
    for match in WORD.finditer(text):
        token = _POSSESSIVE.sub("", match.group())
        if token[:1].isdigit():
            continue
        for piece in [token, *_JOINER.split(token)] if _JOINER.search(token) else [token]:
            form = word_form(piece) if piece else ""
            if fold(piece) in NUMBER_WORDS or form in CALENDAR or fold(piece) in CADENCE:
                found.add(form)
            elif (
                form and fold(piece) not in STOPWORDS and (not is_generic(form) or (piece.isupper() and len(piece) > 1))
            ):
                found.add(stem(form))
    return frozenset(found)


def words_of(text: str) -> frozenset[str]:
    """Every content word's stem, generic ones too, and values whole: what an old value is matched on."""
    found = _values(text)
    for match in WORD.finditer(text):
        for piece in _JOINER.split(_POSSESSIVE.sub("", match.group())):
            if fold(piece) in NUMBER_WORDS:
                found.add(fold(piece))
            elif len(piece) > 1 and not piece[:1].isdigit() and fold(piece) not in STOPWORDS:
                found.add(stem(word_form(piece)))
    return frozenset(found)


def _counted(token: str) -> bool:
    """ "two-week", "three-day": a number word joined to a unit."""
    return fold(_JOINER.split(token)[0]) in NUMBER_WORDS


def _name_start(token: str) -> bool:
    """A sentence's capitalized first word names something unless it looks ordinary ("Bumped", "Dropping") or
    names a side of things ("Retention got extended to 180 days", "Rule for Tern: ...")."""
    form = word_form(token)
    return (
        not is_generic(form)
        and not form.endswith(("ed", "ing", "ly"))
        and form not in ASPECT_OF
        and form not in WEAK_ASPECTS  # "Rule for Tern: ..."
    )


def names_of(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(entities, name words) of a text.

    Entities: runs of capitalized words, technical tokens (fly.io, event-bus) and values, each one
    lowercase string. Name words: each capitalized word that is not generic English, acronym or
    technical token, calendar words left out.
    """
    found = _values(text)
    names: set[str] = set()
    run: list[str] = []
    start = 0  # where the sentence or clause starts: its first word is capitalized anyway
    for match in WORD.finditer(text):
        token = match.group()
        first = not text[start : match.start()].strip()
        bare = _POSSESSIVE.sub("", token)
        # "fly.io", "event-bus" name things; "two-week" is a value
        technical = bool(_TECHNICAL.search(bare)) and not _is_value(bare) and not _counted(bare)
        acronym = len(bare) >= 2 and bare.isupper() and bare.isalpha()
        capitalized = bare[:1].isupper() and fold(bare) not in STOPWORDS and (not first or _name_start(bare))
        form = bare.lower() if technical else word_form(bare)
        if technical:
            found.add(form)
        if (technical or acronym or (capitalized and not is_generic(form))) and form not in CALENDAR:
            names.add(form)
        if capitalized or acronym:
            run.append(form)
        if run and (not (capitalized or acronym) or bare != token):  # a possessive ends a name
            found.add(" ".join(run))
            run = []
        if _CLAUSE_END.match(text, match.end()):
            if run:
                found.add(" ".join(run))
                run = []
            start = match.end() + 1
    if run:
        found.add(" ".join(run))
    return frozenset(found), frozenset(names)


@dataclass(frozen=True)
class Analysis:
    terms: frozenset[str]  # non-generic stems and values: what similarity and disagreement look at
    words: frozenset[str]  # all content stems and values
    entities: frozenset[str]
    names: frozenset[str]  # name words, those of the replaced value left out
    old: frozenset[str]  # words of the value a change statement replaces
    old_entities: frozenset[str]
    new: frozenset[str]  # words of the value it introduces, when it says
    change: bool


# "runs at 04:00 UTC since the migration", "300kb now that we lazy-load charts": a value dated to a change is a
# change, though no change form says what it replaces
STARTED = re.compile(
    r"\S\s+(?:now that\s+\w|as of\s+(?:the|our)\s+\w|(?:ever\s+)?since\s+(?:the|our)\s+(?:[\w-]+\s+)?"
    r"(?:migration|move|switch|reorg|re-org|upgrade|rewrite|review|incident|outage|change|update|redesign|merger|"
    r"acquisition|launch|cutover)s?\b)",
    re.IGNORECASE,
)


@lru_cache(maxsize=65536)  # consolidation and anchoring read the same statements many times
def analyse(text: str) -> Analysis:
    body = plain_text(text).rstrip(".")  # the period a fact ends with is no part of a change form
    change = change_of(body)
    if change is None and STARTED.search(body):
        change = Change("", "", "", len(body))
    old = new = ""
    if change is not None:
        old, new = change.old, new_value(body, change)
    entities, names = names_of(body)
    old_entities, old_names = names_of(old) if old else (frozenset(), frozenset())
    return Analysis(
        terms_of(body),
        words_of(body),
        entities,
        names - old_names,
        words_of(old) if old else frozenset(),
        old_entities,
        words_of(new) if new else frozenset(),
        change is not None,
    )


_SHAPES = (
    ("version", re.compile(r"v?\d+\.\d+(?:\.\d+)*")),
    ("clock", re.compile(r"\d{1,2}(?::\d\d)?(?:am|pm)|\d{1,2}:\d\d|noon|midnight")),
    ("money", re.compile(r"\$[\d,.]+k?")),
    ("percent", re.compile(r"[\d.]+%")),
    ("size", re.compile(r"[\d.]+(?:kb|mb|gb|tb)")),
)


def shapes_of(info: Analysis) -> frozenset[str]:
    """The kinds of value a statement holds: a version, a clock time, money, a percentage, a size, a weekday..."""
    found = {name for term in info.words for name, pattern in _SHAPES if pattern.fullmatch(term)}
    if info.words & CALENDAR:
        found.add("calendar")
    if info.words & {"minut", "second", "hour"} and info.words & {"request", "call", "event", "job"}:
        found.add("rate")
    if info.words & {"week", "day", "month"} and info.words & NUMBER_WORDS:
        found.add("duration")
    return frozenset(found)


def lexical_similarity(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / math.sqrt(len(a) * len(b)) if a and b else 0.0


@lru_cache(maxsize=8192)
def name_parts(name: str) -> frozenset[str]:
    return frozenset(stem(word_form(p)) for p in re.split(r"[.\s_-]+", name) if p)


def names_old(current: Analysis, new: Analysis) -> bool:
    """new says it replaces current's value ("switched from <what current says> to ...").

    Besides the two values, what new is about must be in current too, unless new says nothing else.
    """
    if not new.old or not new.old <= current.words:
        return False
    about = new.terms - new.old - CHANGE_WORDS - RELATION_WORDS
    # a hyphenated modifier ("sub-2-hour") is part of the new value when its parts are; a dotted name ("fly.io")
    # is a name of its own
    beyond = {t for t in about - new.new if "." in t or not name_parts(t) <= new.new}
    return not beyond or bool(about & current.terms)


def mentions(a: Analysis, b: Analysis) -> bool:
    """b names one of a's names somewhere, capitalized or not ("event-bus", "the data standup")."""
    return any(name in b.names or name_parts(name) <= b.words for name in a.names)
