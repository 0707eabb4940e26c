"""Secret redaction: known secret shapes become "[REDACTED:<rule>:<hash>]" before text is stored
or put into a prompt.

The rules and their post-filters follow docs/RELIABILITY.md §6. Python's `re` backtracks, so every
pattern is written to stay linear on adversarial input (the S6 tests time them). `redact` runs in
a cold process after every agent turn, so patterns are compiled on first use and a rule runs only
when a literal it cannot match without occurs in the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property
from math import log2

__all__ = ["RULES", "RULE_NAMES", "Redaction", "Rule", "only_placeholders", "placeholder", "redact"]

# gitleaks' end-of-token suffix, as a lookahead so the character after a key is never consumed.
_END = r"""(?=[\x60'"\s;]|\\[nr]|$)"""
# An optional quote before/after an assignment operator, also JSON-escaped (\" inside a JSON string).
_QUOTE = r"""(?:\\?["'])?"""
_PLACEHOLDER = r"\[REDACTED:[a-z0-9-]{1,64}:[0-9a-f]{8}\]"
_ENTROPY_PREFIX = 512  # a prefix tells a random token from prose, and bounds the work per match


def _token(prefix: str) -> str:
    """`prefix` (a fixed-width regex) where a token starts: at a word boundary, or right after a
    JSON escape (in `"…\\nsk-…"` the "n" is a word character, so \\b alone would miss the key).

    The prefix comes first and the boundary is checked looking back over it, so that `re` searches
    for the literal part instead of trying the pattern at every position: ~40x faster on text
    that holds no key, which is nearly all text.
    """
    return rf"{prefix}(?:(?<!\w{prefix})|(?<=\\[nrt]{prefix}))"


@dataclass(frozen=True)
class Rule:
    """One secret shape: a regex, the group holding the secret and an optional post-filter."""

    name: str
    source: str  # the regex; compiled on first use (compiling them all costs a few ms per process)
    group: int  # which group is the secret (0 = whole match)
    broad: bool  # a generic shape: some over-redaction is accepted
    keywords: tuple[str, ...]  # the rule can only match if one of these occurs in the text
    # Keywords are lower case and looked for in the lower-cased text; such rules are ASCII-only
    # case-insensitive ("(?ai)"), so lower() finds every text they can match.
    fold: bool = False
    check: Callable[[str], bool] | None = None  # keeps a candidate secret only if true

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.source)

    def may_match(self, text: str, folded: str) -> bool:
        haystack = folded if self.fold else text
        return any(keyword in haystack for keyword in self.keywords)


@dataclass(frozen=True)
class Redaction:
    text: str
    counts: dict[str, int]  # rule name -> placeholders written; only rules that fired, sorted by name

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def placeholder(rule: str, secret: str) -> str:
    import hashlib  # deferred: ~3 ms in a cold process, and most texts contain no secret

    digest = hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()
    return f"[REDACTED:{rule}:{digest[:8]}]"


def _entropy(value: str) -> float:
    """Shannon entropy in bits per character (of a bounded prefix)."""
    value = value[:_ENTROPY_PREFIX]
    size = len(value)
    if not size:
        return 0.0
    # dict.fromkeys keeps first-seen order, so the float sum is the same in every process.
    return -sum(n / size * log2(n / size) for n in map(value.count, dict.fromkeys(value)))


def _has_digit(value: str) -> bool:
    return any(digit in value for digit in "0123456789")


def _random_looking(bits: float) -> Callable[[str], bool]:
    """Drops documentation fillers such as `ghp_xxxx…` or `AIzaXXXX…`."""
    return lambda value: _entropy(value) >= bits


def _placeholder_value(value: str) -> bool:
    """A variable reference, template or documentation filler rather than a real value."""
    lowered = value.lower()
    template = r"\$\{?[\w.-]+\}?|\$\{[^}]*\}|\$\(.*\)|\{\{.*\}\}|%\(\w+\)s|%\w+%|<[^<>]*>"
    return (
        # with and without trailing punctuation: `${TOKEN},` but also `${A:-b}` itself ends in "}"
        re.fullmatch(template, value) is not None
        or re.fullmatch(template, value.rstrip(",;)]}")) is not None
        or any(filler in lowered for filler in ("xxxx", "****", "....", "changeme", "change_me", "change-me"))
        or "EXAMPLE" in value  # AWS's documentation keys and the like
        or lowered in ("password", "passwd", "pass", "pwd", "pw", "secret", "token", "none", "null")
    )


def _generic_value(value: str) -> bool:
    stripped = value.rstrip(",;)]}")
    return (
        _entropy(value) >= 3.5
        # identifiers and dotted names (settings.SECRET_KEY, process.env.TOKEN) are references
        and re.fullmatch(r"[A-Za-z_.-]+", stripped) is None
        # so is a call (tokenizer.encode(text), getpass.getpass()), a subscript or a type
        # (os.environ["X"], Optional[str]) or an interpolation ({uuid4().hex})
        and re.match(r"[A-Za-z_][\w.]*[(\[]|\{", value) is None
        and not _placeholder_value(value)
        # a path (PWD=/home/alice/project); lower case only, as random base64 secrets never are
        and re.fullmatch(r"~?(?:/[a-z0-9._-]+){2,}/?", value) is None
    )


def _jwt_header_is_json(token: str) -> bool:
    """detect-secrets' check: the header must decode to a JSON object (prose rarely does)."""
    import binascii
    import json

    header = token.partition(".")[0]
    try:
        decoded = json.loads(binascii.a2b_base64(header + "=" * (-len(header) % 4)))
    except ValueError:  # binascii.Error, UnicodeDecodeError and JSONDecodeError are all ValueErrors
        return False
    return isinstance(decoded, dict)


def _webhook_secret(url: str) -> bool:
    return _entropy(url.rpartition("/")[2]) >= 3.0


def _password_value(value: str) -> bool:
    """A literal password rather than a reference, a type, a path or a documentation filler."""
    bare = value.strip("()[]{}<>.,;:!?")  # "(optional)" and "passwords: bcrypt?" hold words
    return (
        len(value) >= 4
        and not _placeholder_value(value)
        # identifiers, dotted names and keywords (password=None, password: str, settings.DB_PASSWORD)
        and re.fullmatch(r"[A-Za-z_.]+", bare) is None
        # a call, a subscript or an interpolation (getpass(), os.environ["PW"], Optional[str], {pw})
        and re.match(r"[A-Za-z_][\w.]*[(\[]|\{", value) is None
        and not value.startswith(("/", "~", "./", "../"))  # a file holding it (PWD=/home/x is a shell's)
        and not value.startswith("$")  # a variable or a command's output: $DB_PASS, $(cat /run/secrets/pw)
    )


def _stated_value(value: str) -> bool:
    return not _placeholder_value(value) and not value.startswith(("/", "~", "./", "../"))


def _luhn(digits: str) -> bool:
    total = 0
    for position, digit in enumerate(reversed(digits)):
        doubled = int(digit) * (2 if position % 2 else 1)
        total += doubled - 9 if doubled > 9 else doubled
    return total % 10 == 0


# Issuer prefixes (IIN ranges, as numbers of the given width) and the lengths each issues. Without
# them one number in ten of the right length passes Luhn: order numbers, lists of years, timestamps.
_CARD_ISSUERS: tuple[tuple[int, int, int, frozenset[int]], ...] = (
    (4, 4, 1, frozenset({16, 19})),  # Visa (13-digit numbers are retired, and EAN-13 barcodes look alike)
    (51, 55, 2, frozenset({16})),  # Mastercard
    (2221, 2720, 4, frozenset({16})),  # Mastercard 2-series
    (34, 34, 2, frozenset({15})),  # American Express
    (37, 37, 2, frozenset({15})),
    (300, 305, 3, frozenset(range(14, 20))),  # Diners Club
    (36, 36, 2, frozenset(range(14, 20))),
    (38, 39, 2, frozenset(range(16, 20))),
    (3528, 3589, 4, frozenset(range(16, 20))),  # JCB
    (6011, 6011, 4, frozenset(range(16, 20))),  # Discover
    (644, 649, 3, frozenset(range(16, 20))),
    (65, 65, 2, frozenset(range(16, 20))),
    (62, 62, 2, frozenset(range(16, 20))),  # UnionPay
    (50, 50, 2, frozenset(range(14, 20))),  # Maestro
    (56, 69, 2, frozenset(range(14, 20))),
)


def _card_number(value: str) -> bool:
    digits = value.replace(" ", "").replace("-", "")
    issued = any(
        low <= int(digits[:width]) <= high and len(digits) in lengths for low, high, width, lengths in _CARD_ISSUERS
    )
    return issued and len(set(digits)) > 2 and _luhn(digits)


# ISO 13616 lengths by country (the SWIFT IBAN registry).
_IBAN_LENGTHS: dict[int, str] = {
    15: "NO",
    16: "BE",
    18: "DK FI FK FO GL NL SD",
    19: "MK SI",
    20: "AT BA EE KZ LT LU MN XK",
    21: "CH HR LI LV",
    22: "BG BH CR DE GB GE IE ME RS VA",
    23: "AE GI IL IQ OM SO TL",
    24: "AD CZ ES MD PK RO SA SE SK TN VG",
    25: "LY PT ST",
    26: "IS TR",
    27: "BI DJ FR GR IT MC MR SM",
    28: "AL AZ BY CY DO GT HN HU LB NI PL SV",
    29: "BR EG PS QA UA",
    30: "JO KW MU YE",
    31: "MT SC",
    32: "LC",
    33: "RU",
}


def _iban_pattern() -> str:
    """Each country's exact length, in groups of four that may be spaced: the match ends where the
    IBAN does, so "IBAN DE89 3704 … 00 BIC COBADEFF" does not run on into the BIC."""
    shapes = []
    for length, countries in _IBAN_LENGTHS.items():
        groups, rest = divmod(length - 4, 4)
        body = rf"(?: ?[A-Z0-9]{{4}}){{{groups}}}" + (rf" ?[A-Z0-9]{{{rest}}}" if rest else "")
        shapes.append(f"(?<=(?:{'|'.join(countries.split())})..){body}")
    # The four characters come first and the boundary and country are checked looking back: a
    # pattern that starts with a lookbehind is tried at every position (20x slower on prose).
    start = r"[A-Z]{2}[0-9]{2}(?:(?<![A-Za-z0-9]....)|(?<=\\[nrt]....))"
    return start + "(?:" + "|".join(shapes) + r")(?![A-Za-z0-9])"


def _iban(value: str) -> bool:
    """ISO 7064 mod 97-10: the country and check digits move to the end, letters count 10-35."""
    compact = value.replace(" ", "")
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(char, 36)) for char in rearranged)) % 97 == 1


# A password stated in words: "my password is hunter2", "the PIN for the door is 4821", "set the
# root password to 'correct horse'", "the password to the staging db is now Tr0ub4dor&3".
# One word: a dot only inside it (db.internal), no other punctuation, so that a qualifier never
# runs past the end of a sentence and a word splits only one way (possessive: linear).
_WORD = r"(?:[^\s.!?;:,]|\.(?=\w)){1,30}+"
_STATED = (
    r"(?ai)p(?:(?<![a-z]p)|(?<=\\[nrt]p))(?:assw(?:or)?d|ass(?:phrase|code)|wd|(?P<pin>in(?:[ \t]+code)?))s?"
    # who or what it is for: "for the staging db", "to the vault" (a preposition, then up to four words)
    + rf"(?:[ \t]++(?:for|of|to|on|at|in|from)(?:[ \t]++{_WORD}){{1,4}}?)??"
    # a form of "to be" (is, was, 's, is now, was changed to), "to", or a colon
    + r"(?:[ \t]++(?:is|was|are|were|be)\b(?:[ \t]++(?:now|still|just|currently|actually|always"
    + r"|(?:set|changed|reset|updated)[ \t]++to)\b){0,2}+[ \t]*+:?|['’]s|[ \t]++to\b|[ \t]*+:)"
    # an opening quote, also JSON-escaped (\" and \u201c, json.dumps' curly quote)
    + r"""[ \t]*+(?:\\u201[8c]|\\?["'“‘\x60])?"""
    # A PIN is digits. A password is quoted (any text), or one word holding a digit or a symbol:
    # "the password is wrong" and "the password is in the vault" are not stating one. A final
    # ".,;:)" is the sentence's; a final "!" or "?" is kept in the secret (it may be the password's).
    + r"""((?(pin)[0-9]{4,12}(?![\w])|(?:(?:(?<=["'“‘\x60])|(?<=\\u201[8c]))[^"'”’\x60\n\\]{1,128}+"""
    + r"""(?=\\?["'”’\x60]|\\u201[9d])"""
    + r"""|(?=[^\s"'\x60\\]{0,127}[0-9#$%&*+=@^_~|/])[^\s"'\x60\\]{3,127}[^\s"'\x60\\.,;:)])))"""
)


# Order is priority: when spans of several rules overlap, they become one placeholder named after
# the earliest rule here, so specific rules come before broad ones.
RULES: tuple[Rule, ...] = (
    Rule(
        name="private-key",
        # a block without its END line (a key cut across chunks) is redacted to the end of the text
        source=r"(?ai)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|\Z)",
        group=0,
        broad=False,
        keywords=("-----begin",),
        fold=True,
    ),
    Rule(
        name="openai",
        source="("
        + _token("sk-")
        + r"(?:(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ"
        + r"(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})|[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}))"
        + _END,
        group=1,
        broad=False,
        keywords=("T3BlbkFJ",),
        check=_random_looking(3.0),
    ),
    Rule(
        name="anthropic",
        source="(" + _token("sk-ant-") + r"(?:api03|admin01)-[a-zA-Z0-9_-]{93}AA)" + _END,
        group=1,
        broad=False,
        keywords=("sk-ant-",),
    ),
    Rule(
        name="github-fine-grained",
        source=_token("github_pat_") + r"[A-Za-z0-9_]{82}\b",
        group=0,
        broad=False,
        keywords=("github_pat_",),
        check=_random_looking(3.0),
    ),
    Rule(
        name="github",
        source=_token("gh[pousr]_") + r"[0-9A-Za-z]{36}\b",
        group=0,
        broad=False,
        keywords=("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        check=_random_looking(3.0),
    ),
    Rule(
        name="gcp-api-key",
        # a lookahead rather than gitleaks' \b, so a key ending in "-" is still matched
        source=_token("AIza") + r"[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])",
        group=0,
        broad=False,
        keywords=("AIza",),
        check=_random_looking(3.0),
    ),
    Rule(
        name="aws-access-key-id",
        source="(" + _token("A(?:3T[A-Z0-9]|KIA|SIA|BIA|CCA)") + r"[A-Z2-7]{16})\b",
        group=1,
        broad=False,
        keywords=("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
        check=lambda value: not value.endswith("EXAMPLE"),  # AWS's documentation keys (gitleaks)
    ),
    Rule(
        name="aws-secret-key",
        source=r"""(?ai)aws.{0,20}?(?:secret|key).{0,20}?['"]([0-9a-z/+]{40})\\?['"]""",
        group=1,
        broad=False,
        keywords=("aws",),
        fold=True,
        check=lambda value: "EXAMPLE" not in value,
    ),
    Rule(
        name="slack-webhook",
        source=r"https://hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+",
        group=0,
        broad=False,
        keywords=("hooks.slack.com/services/",),
        check=_webhook_secret,
    ),
    Rule(
        name="slack-token",
        # each repetition must end in "-", so a run of digits splits only one way: linear
        source="(?ai)" + _token("xox[abposre]-") + r"(?:[0-9]+-)+[a-z0-9]+",
        group=0,
        broad=False,
        keywords=("xox",),
        fold=True,
        check=_random_looking(3.0),
    ),
    Rule(
        name="stripe",
        source=_token("[sr]k_") + r"(?:test|live|prod)_[a-zA-Z0-9]{10,99}\b",
        group=0,
        broad=False,
        keywords=("_test_", "_live_", "_prod_"),
        check=_random_looking(3.0),
    ),
    Rule(
        name="huggingface",
        source=_token("hf_") + r"[A-Za-z]{34}\b",
        group=0,
        broad=False,
        keywords=("hf_",),
        check=_random_looking(3.0),
    ),
    Rule(
        name="jwt",
        # the header class has no "-": with it, "ey-ey-ey-…" would backtrack quadratically
        source=_token("ey") + r"[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/\\_-]{17,}\.(?:[a-zA-Z0-9/\\_-]{10,}={0,2})?",
        group=0,
        broad=False,
        keywords=(".ey",),
        check=_jwt_header_is_json,
    ),
    Rule(
        name="gitlab",
        # personal, deploy, runner, pipeline-trigger, SCIM, CI-job, feed, incoming-mail and agent tokens;
        # GitLab 17's routable tokens end in ".<version>.<crc>" parts
        source=_token("gl")
        + r"(?:pat|dt|rt|ptt|soat|cbt|ft|imt|agent|oas)-[A-Za-z0-9_-]{20,}+(?:\.[A-Za-z0-9_-]{1,16}+){0,2}",
        group=0,
        broad=False,
        keywords=("glpat-", "gldt-", "glrt-", "glptt-", "glsoat-", "glcbt-", "glft-", "glimt-", "glagent-", "gloas-"),
        check=_random_looking(3.0),
    ),
    Rule(
        name="npm",
        source=_token("npm_") + r"[A-Za-z0-9]{36}(?![A-Za-z0-9_-])",
        group=0,
        broad=False,
        keywords=("npm_",),
        check=_random_looking(3.0),
    ),
    Rule(
        name="mailgun",
        # "pubkey-…" is Mailgun's public validation key, hence no "-" before "key-"
        source=r"key-(?:(?<![\w-]key-)|(?<=\\[nrt]key-))[0-9a-f]{32}(?![\w-])",
        group=0,
        broad=False,
        keywords=("key-",),
        check=_random_looking(3.0),
    ),
    Rule(
        name="discord-webhook",
        source=r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v[0-9]{1,2})?/webhooks/[0-9]{17,20}/"
        r"[A-Za-z0-9_-]{60,72}",
        group=0,
        broad=False,
        keywords=("/webhooks/",),
        check=_webhook_secret,
    ),
    Rule(
        name="sentry-dsn",
        # the key (and, in old DSNs, ":secret") as a URL's user; checked looking back from "://", as
        # url-credentials is, and whatever the host (self-hosted Sentry, GlitchTip)
        source=r"://(?<=[A-Za-z0-9+.-]://)([0-9a-f]{32}(?::[0-9a-f]{32})?)@",
        group=1,
        broad=False,
        keywords=("://",),
        check=_random_looking(3.0),
    ),
    Rule(
        name="azure-key",
        # storage account keys and Service Bus / Event Hubs / IoT Hub shared access keys in connection
        # strings ("SharedAccessKeyName=" names the key and is left alone)
        # (the literal first, the names looking back: an alternation of case-folded names is tried
        # at every position of the text)
        source=r"=(?:(?<=(?i:accountkey)=)|(?<=(?i:sharedaccesskey)=))([A-Za-z0-9+/]{40,}+={0,2})",
        group=1,
        broad=False,
        keywords=("accountkey=", "sharedaccesskey="),
        fold=True,
        check=_random_looking(3.0),
    ),
    Rule(
        name="url-signature",
        # Azure SAS tokens (…&sig=…), S3 and GCS presigned URLs: the signature is the credential
        source=r"(?ai)[?&;](?:sig|signature|x-amz-signature|x-goog-signature)=([a-z0-9%+/=_.-]{16,}+)",
        group=1,
        broad=False,
        keywords=("sig=", "signature="),
        fold=True,
        check=_random_looking(3.0),
    ),
    Rule(
        name="iban",
        source=_iban_pattern(),
        group=0,
        broad=False,
        keywords=tuple("0123456789"),
        check=_iban,
    ),
    Rule(
        name="anthropic-broad",
        source=_token("sk-ant-") + r"[a-z0-9]{2,12}-[A-Za-z0-9_-]{20,}",
        group=0,
        broad=True,
        keywords=("sk-ant-",),
    ),
    Rule(
        name="openai-broad",
        source=_token("sk-") + r"(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}",
        group=0,
        broad=True,
        keywords=("sk-",),
        check=lambda value: _has_digit(value) and _entropy(value) >= 3.5,
    ),
    Rule(
        name="url-credentials",
        # Only the scheme's last character is checked, looking back from "://": an unbounded scheme
        # backtracked for minutes per MB on "sk-sk-sk-…", and even a bounded one is tried at every
        # position of the text.
        source=r"://(?<=[A-Za-z0-9+.-]://)[^\s/:@]{1,128}:([^\s/@]{1,256})@",
        group=1,
        broad=True,
        keywords=("://",),
        check=lambda value: not _placeholder_value(value),
    ),
    Rule(
        name="generic-assignment",
        # No identifier prefix before the keyword (gitleaks' lazy [\w.-]{0,50}? took 12 s per MB on
        # "tokentoken…"). The name's tail and the blanks are possessive: they cannot give back a
        # character the operator could use, so this changes no match and makes "tokentoken…" 4x
        # faster. The value is unbounded: nothing follows it, so it cannot backtrack, and a bound
        # would leave the tail of a long secret behind. "Authorization: Bearer <token>" is
        # redacted past the scheme word.
        source=r"(?ai)(?:api[_-]?key|secret|token|passw(?:or)?d|pwd|auth|credential)s?[\w.-]{0,20}+"
        + _QUOTE
        + r"[ \t]*+(?:[:=]|=>)[ \t]*+"
        + _QUOTE
        + r"(?:(?:bearer|basic|token)[ \t]+)?"
        # the value ends at a blank, a quote or a JSON escape (\n, \r, \t), as gitleaks' tokens do;
        # it never starts with "=": "token == x" compares, and "…aUTHg==;" is base64's padding
        + r"""((?!=)(?:[^\s"'\x60\\]|\\(?![nrt])){8,})""",
        group=1,
        broad=True,
        keywords=("api_key", "apikey", "api-key", "secret", "token", "passw", "pwd", "auth", "credential"),
        fold=True,
        check=_generic_value,
    ),
    Rule(
        name="password-assignment",
        # What generic-assignment leaves: a short or plain value under a name that ends in a password
        # word (DB_PASSWORD=hunter2, "pwd": "x1y2", Password=…; in a connection string, &password=…
        # in a JDBC URL). The name must end there: password_min_length=12 is not one. A quoted value
        # runs to its closing quote, spaces included; a bare one ends at a blank, ; & , or a quote.
        source=r"(?ai)p(?:assw(?:or)?d|ass(?:phrase|code)|wd)[s0-9]?+"
        + _QUOTE
        + r"[ \t]*+(?:=>|:=|[:=])[ \t]*+"
        + _QUOTE
        + r"""((?<=["'])[^"'\n\\]{1,128}+(?=\\?["'])|[^\s"'\x60;&,\\]{1,128}+)""",
        group=1,
        broad=True,
        keywords=("passw", "passphrase", "passcode", "pwd"),
        fold=True,
        check=_password_value,
    ),
    Rule(
        name="password-stated",
        source=_STATED,
        group=2,  # group 1 is "pin", which asks for digits
        broad=True,
        keywords=("passw", "passphrase", "passcode", "pwd", "pin"),
        fold=True,
        check=_stated_value,
    ),
    Rule(
        name="card-number",
        # 14-19 digits, bare or in the printed groups (4-4-4-4[-3], 4-6-4/5); not inside a longer
        # number, a decimal, a path or a phone number (+); checked against issuer ranges and Luhn
        source=r"[2-6](?:(?<![\w.,+/:-][2-6])|(?<=\\[nrt][2-6]))"
        + r"(?:[0-9]{13,18}|[0-9]{3}([ -])[0-9]{4}\1[0-9]{4}\1[0-9]{2,4}(?:\1[0-9]{3})?"
        + r"|[0-9]{3}([ -])[0-9]{6}\2[0-9]{4,5})(?![\w+]|[.,:/-][0-9])",
        group=0,
        broad=True,
        keywords=tuple("0123456789"),
        check=_card_number,
    ),
)

RULE_NAMES: frozenset[str] = frozenset(rule.name for rule in RULES)


def only_placeholders(text: str) -> bool:
    """True if nothing but placeholders (and blanks or punctuation) is left: a label that was a secret."""
    if "[REDACTED:" not in text:
        return False
    return not any(char.isalnum() for char in re.sub(_PLACEHOLDER, "", text))


_Span = tuple[int, int, int]  # start, end, index of the rule in RULES
_MAX_ROUNDS = 16


def redact(text: str, disabled: Collection[str] = ()) -> Redaction:
    """Replace every secret the enabled rules find; rules named in `disabled` are skipped."""
    if isinstance(disabled, str):  # one name, not a collection of one-letter names (or substrings)
        disabled = (disabled,)
    active = [(index, rule) for index, rule in enumerate(RULES) if rule.name not in disabled]
    counts: dict[str, int] = {}
    spans = _find(text, active)
    # Writing placeholders can create a match that was not there (a word boundary where a secret
    # was), so repeat until nothing is found: the output is then a fixed point and redacting it
    # again changes nothing. Each round turns text outside placeholders into placeholders, so
    # the loop ends; in practice after one extra round. The cap turns a regression (a rule that
    # matches its own placeholder) into an error instead of a hung `memtree add`.
    for _ in range(_MAX_ROUNDS):
        if not spans:
            return Redaction(text, dict(sorted(counts.items())))
        text = _replace(text, spans, counts)
        spans = _find(text, active)
    raise RuntimeError(f"redaction did not settle after {_MAX_ROUNDS} rounds")


def _find(text: str, active: list[tuple[int, Rule]]) -> list[_Span]:
    # Placeholders already in the text are blanked out (same length, so offsets hold): no rule can
    # match inside one, and a value such as `token=[REDACTED:…]` is never redacted again.
    scan = re.sub(_PLACEHOLDER, lambda m: "\n" * len(m[0]), text) if "[REDACTED:" in text else text
    folded = scan.lower() if any(rule.fold for _, rule in active) else scan
    spans: list[_Span] = []
    for index, rule in active:
        if not rule.may_match(scan, folded):
            continue
        for match in rule.pattern.finditer(scan):
            if rule.check is None or rule.check(match[rule.group]):
                start, end = match.span(rule.group)
                spans.append((start, end, index))
    return spans


def _replace(text: str, spans: list[_Span], counts: dict[str, int]) -> str:
    merged: list[_Span] = []
    for start, end, index in sorted(spans):
        if merged and start < merged[-1][1]:
            # Overlapping secrets become one placeholder over their union, so no piece of either
            # is left behind; it is named after the most specific rule involved.
            last_start, last_end, last_index = merged[-1]
            merged[-1] = (last_start, max(last_end, end), min(last_index, index))
        else:
            merged.append((start, end, index))
    pieces: list[str] = []
    position = 0
    for start, end, index in merged:
        name = RULES[index].name
        pieces.append(text[position:start])
        pieces.append(placeholder(name, text[start:end]))
        counts[name] = counts.get(name, 0) + 1
        position = end
    pieces.append(text[position:])
    return "".join(pieces)
