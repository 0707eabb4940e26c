"""Secret redaction: docs/RELIABILITY.md S3 (true positives), S4 (false positives), S5 (truncated
private keys), S6 (adversarial timing), plus idempotence and determinism.

Every secret is generated at test time (tests/secret_samples.py); none is a literal here.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from functools import cache

import pytest
from helpers import tally
from hypothesis import given, settings
from hypothesis import strategies as st
from secret_samples import (
    CONTEXTS,
    DOC_PLACEHOLDERS,
    TRUE_POSITIVES,
    WORDS,
    Sample,
    adversarial_shapes,
    benign_corpus,
    pem,
)

from compaction_tree.redact import RULE_NAMES, RULES, Redaction, placeholder, redact

SLOW = os.environ.get("MEMTREE_SLOW") == "1"
PLACEHOLDER = re.compile(r"\[REDACTED:([a-z0-9-]{1,64}):[0-9a-f]{8}\]")
BROAD = {
    "anthropic-broad",
    "openai-broad",
    "url-credentials",
    "generic-assignment",
    "password-assignment",
    "password-stated",
    "card-number",
}
PER_RULE = 100


def leftovers(secret: str, text: str, width: int = 12) -> list[str]:
    """Pieces of `secret` (windows of `width` characters within one line) still in `text`."""
    found = []
    for line in secret.splitlines():
        for i in range(max(1, len(line) - width + 1)):
            window = line[i : i + width]
            if len(window) == width and window in text:
                found.append(window)
    return found


def samples_for(rule: str, count: int = PER_RULE) -> list[Sample]:
    rng = random.Random(f"true-positive {rule}")
    return [TRUE_POSITIVES[rule](rng) for _ in range(count)]


# --- the rule table ----------------------------------------------------------------------------


def test_rule_table_matches_reliability_section_6() -> None:
    assert set(TRUE_POSITIVES) == RULE_NAMES
    assert len(RULES) == len(RULE_NAMES) == 28
    assert {rule.name for rule in RULES if rule.broad} == BROAD
    for rule in RULES:
        assert re.fullmatch(r"[a-z0-9-]{1,64}", rule.name)
        assert rule.keywords, rule.name
        assert rule.group <= rule.pattern.groups, rule.name
        if rule.fold:
            assert all(keyword == keyword.lower() for keyword in rule.keywords), rule.name


def test_placeholder_names_the_rule_and_a_short_hash() -> None:
    digest = hashlib.sha256(b"hunter2").hexdigest()[:8]
    assert placeholder("generic-assignment", "hunter2") == f"[REDACTED:generic-assignment:{digest}]"
    assert PLACEHOLDER.fullmatch(placeholder("openai", "\ud800 lone surrogate"))


def test_redaction_total_and_sorted_counts() -> None:
    rng = random.Random(3)
    text = " ".join(TRUE_POSITIVES[name](rng).text for name in ["jwt", "github", "github", "stripe"])
    result = redact(text)
    assert result.counts == {"github": 2, "jwt": 1, "stripe": 1}
    assert list(result.counts) == sorted(result.counts)
    assert result.total == 4
    assert redact("nothing to see").counts == {}
    assert redact("nothing to see").total == 0


# --- S3: true positives -----------------------------------------------------------------------


@pytest.mark.parametrize("rule", sorted(TRUE_POSITIVES))
def test_s3_every_generated_secret_is_replaced_in_every_context(rule: str) -> None:
    expected = re.compile(rf"\[REDACTED:{re.escape(rule)}:[0-9a-f]{{8}}\]")
    failures: list[tuple[str, str, object]] = []
    for sample in samples_for(rule):
        for context, embed in CONTEXTS.items():
            document = embed(sample.text)
            result = redact(document)
            if leftovers(sample.secret, result.text) or not expected.search(result.text):
                failures.append((context, document, result.text))
            elif result.counts != {rule: 1}:
                failures.append((context, document, result.counts))
            elif context == "prose" and placeholder(rule, sample.secret) not in result.text:
                failures.append((context, "placeholder hash is not the secret's", result.text))
    assert not failures, f"{len(failures)} misses, first: {failures[0]}"
    tally("S3 generated secrets redacted (100 per rule, each in 7 contexts)", len(samples_for(rule)) * len(CONTEXTS))


def test_s3_a_secret_longer_than_a_value_bound_leaves_no_tail() -> None:
    value = "".join(random.Random(5).choices("abcdef0123456789ABCDEF+/", k=700))
    result = redact(f"export SESSION_TOKEN={value}\n")
    assert result.text == f"export SESSION_TOKEN={placeholder('generic-assignment', value)}\n"


def test_s3_overlapping_rules_give_one_placeholder_named_after_the_specific_rule() -> None:
    rng = random.Random(8)
    key = TRUE_POSITIVES["openai"](rng).secret
    assert redact(f"OPENAI_API_KEY={key}").text == f"OPENAI_API_KEY={placeholder('openai', key)}"
    token = TRUE_POSITIVES["jwt"](rng).secret
    assert redact(f'{{"token": "{token}"}}').counts == {"jwt": 1}
    github = TRUE_POSITIVES["github"](rng).secret
    # the generic value starts before the GitHub token: the union is replaced, nothing survives
    result = redact(f"password=Zq9!-{github} done")
    assert result.text == f"password={placeholder('github', 'Zq9!-' + github)} done"
    block = TRUE_POSITIVES["private-key"](rng).secret
    inner = block.replace("\n", f"\n{token}\n", 1)
    assert redact(inner).text == placeholder("private-key", inner)


def test_s3_disabled_rules_are_skipped_and_unknown_names_ignored() -> None:
    key = TRUE_POSITIVES["aws-access-key-id"](random.Random(4)).secret
    text = f"key id {key} in the log"
    assert redact(text, disabled={"aws-access-key-id"}).text == text
    assert redact(text, disabled=["no-such-rule"]).counts == {"aws-access-key-id": 1}
    assert redact(text, disabled=RULE_NAMES).counts == {}
    key = TRUE_POSITIVES["anthropic"](random.Random(4)).secret
    # a bare string is one name, not a container: "anthropic" is a substring of "anthropic-broad"
    assert redact(key, disabled="anthropic-broad").counts == {"anthropic": 1}


# --- S4: false positives ----------------------------------------------------------------------


def test_s4_benign_corpus() -> None:
    corpus = benign_corpus(random.Random("benign"))
    fired: dict[str, list[str]] = {name: [] for name in RULE_NAMES}
    for _, text in corpus:
        result = redact(text)
        for name in result.counts:
            fired[name].append(text)
    vendor_hits = {name: texts[:3] for name, texts in fired.items() if texts and name not in BROAD}
    assert not vendor_hits, vendor_hits

    rates = {name: len(fired[name]) / len(corpus) for name in sorted(BROAD)}
    hit_kinds = Counter(kind for kind, text in corpus if set(redact(text).counts) & BROAD)
    any_broad = sum(hit_kinds.values()) / len(corpus)
    report = ", ".join(f"{name} {rate:.2%}" for name, rate in rates.items())
    print(f"\nS4 broad-rule false positives on {len(corpus)} benign samples: {report}; any {any_broad:.2%}")
    print(f"S4 samples with a broad-rule hit, by kind: {dict(sorted(hit_kinds.items()))}")
    # Over-redaction is accepted for broad rules, but only where a value looks random under a
    # secret-like name: prose, code, hashes, images and documentation placeholders stay clean.
    assert set(hit_kinds) <= {"labelled-ids", "branches"}, {n: texts[:5] for n, texts in fired.items() if texts}
    assert any_broad <= 0.10
    tally("S4 benign samples (false-positive corpus)", len(corpus))


@pytest.mark.parametrize("text", DOC_PLACEHOLDERS + WORDS)
def test_s4_documentation_placeholders_and_look_alike_words_are_left_alone(text: str) -> None:
    assert redact(text) == Redaction(text, {})


def test_s4_aws_documentation_keys_are_left_alone() -> None:
    corpus = benign_corpus(random.Random(0), per_kind=0)
    assert [kind for kind, _ in corpus] == ["aws-doc", "aws-doc"]
    for _, text in corpus:
        assert redact(text).counts == {}


# --- S5: a private key cut across chunks --------------------------------------------------------


@pytest.mark.parametrize("kind", ["RSA ", "", "OPENSSH ", "PGP ", "ENCRYPTED "])
def test_s5_begin_without_end_is_redacted_to_the_end_of_the_text(kind: str) -> None:
    rng = random.Random(kind)
    body = "\n".join("".join(rng.choices("ABCDEFabcdef0123456789+/", k=64)) for _ in range(3))
    head = "Here is the first half of the key:\n"
    rest = f"{pem('BEGIN', kind)}\n{body}\nMIIE"
    result = redact(head + rest)
    assert result.text == head + placeholder("private-key", rest)
    assert result.counts == {"private-key": 1}


def test_s5_lower_case_and_json_escaped_blocks() -> None:
    rest = pem("BEGIN", "EC ").lower() + "\\nMHcCAQEEIBL2"
    assert redact(f'{{"content": "cat id_ec\\n{rest}"}}').text == (
        f'{{"content": "cat id_ec\\n{placeholder("private-key", rest + chr(34) + "}")}'
    )


def test_s5_a_complete_block_then_a_truncated_one() -> None:
    complete = TRUE_POSITIVES["private-key"](random.Random(1)).secret
    truncated = pem("BEGIN", "RSA ") + "\nMIIEpAIBAAKCAQEA"
    text = f"old:\n{complete}\nnew:\n{truncated}"
    expected = f"old:\n{placeholder('private-key', complete)}\nnew:\n{placeholder('private-key', truncated)}"
    assert redact(text).text == expected


# --- S6: adversarial input ----------------------------------------------------------------------

SIZE = 1 << 20 if SLOW else 1 << 18
BAR = 2.0 * SIZE / (1 << 20)  # docs/RELIABILITY.md: < 2 s per MB per shape, all rules together
# Every rule's keyword, appended so that no rule is skipped by its prefilter.
KEYWORDS = " " + " ".join(keyword for rule in RULES for keyword in rule.keywords)


@cache
def shapes() -> dict[str, str]:
    return {name: text + KEYWORDS for name, text in adversarial_shapes(SIZE).items()}


@pytest.mark.parametrize("shape", sorted(adversarial_shapes(64)))
def test_s6_all_rules_stay_linear(shape: str) -> None:
    text = shapes()[shape]
    started = time.process_time()  # CPU time: other processes on a loaded machine do not count
    redact(text)
    elapsed = time.process_time() - started
    assert elapsed < BAR, f"{shape}: {elapsed:.2f} s for {SIZE // 1024} KB (bar {BAR:.2f} s)"
    tally(f"S6 ReDoS shapes, {SIZE // 1024} KB each through all {len(RULES)} rules")


# --- idempotence, determinism, properties --------------------------------------------------------


@cache
def mixed_documents() -> list[str]:
    rng = random.Random("mixed")
    documents = [text for _, text in benign_corpus(rng, per_kind=5)]
    for _, generate in sorted(TRUE_POSITIVES.items()):
        for embed in CONTEXTS.values():
            documents.append(embed(generate(rng).text) + " " + rng.choice(WORDS))
    documents.append(" ".join(TRUE_POSITIVES[rule](rng).text for rule in sorted(TRUE_POSITIVES)))
    return documents


def test_redacting_twice_changes_nothing() -> None:
    for document in mixed_documents():
        once = redact(document)
        assert redact(once.text) == Redaction(once.text, {}), document
        assert redact(document) == once


def test_existing_placeholders_are_never_redacted_again() -> None:
    for text in [
        "token=[REDACTED:openai:0123abcd]",
        "https://app:[REDACTED:url-credentials:0123abcd]@db.internal/",
        'aws_secret_access_key = "[REDACTED:aws-secret-key:0123abcd]"',
        "Authorization: Bearer [REDACTED:jwt:0123abcd]",
    ]:
        assert redact(text) == Redaction(text, {})
    github = TRUE_POSITIVES["github"](random.Random(2)).secret
    glued = f"[REDACTED:openai:0123abcd]{github}"
    assert redact(glued).text == f"[REDACTED:openai:0123abcd]{placeholder('github', github)}"


def test_output_is_the_same_in_every_process() -> None:
    documents = mixed_documents()
    expected = [[r.text, r.counts] for r in map(redact, documents)]
    script = (
        "import json, sys\n"
        "from compaction_tree.redact import redact\n"
        "docs = json.load(sys.stdin)\n"
        "print(json.dumps([[r.text, r.counts] for r in map(redact, docs)]))\n"
    )
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", script],
            input=json.dumps(documents),
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        assert json.loads(done.stdout) == expected


def test_lone_surrogates_do_not_break_redaction() -> None:
    value = "Zx9" + "".join(random.Random(9).choices("abcdefghijklmnop0123456789", k=20))
    result = redact(f"\udcff password={value}\ud800 tail")
    assert result.counts == {"generic-assignment": 1}
    assert value not in result.text


def test_import_and_first_call_stay_cheap() -> None:
    """A cold `memtree add` redacts one turn: importing the module compiles nothing and pulls in nothing
    heavy, and a turn holding no rule's keyword compiles no pattern (compiling them all costs a few ms per process).
    Checked as behaviour in a fresh process, not as a time (which a busy CI machine would make flaky)."""
    script = (
        "import json, sys\n"
        "from compaction_tree.redact import RULES, redact\n"
        "compiled_at_import = [r.name for r in RULES if 'pattern' in vars(r)]\n"
        "redact(('We moved the compaction job; the weekly summary cites daily files. ' * 30)[:2048])\n"
        "compiled = [r.name for r in RULES if 'pattern' in vars(r)]\n"
        "heavy = sorted(m for m in ('litellm', 'tiktoken', 'yaml', 'typer', 'rich') if m in sys.modules)\n"
        "text = 'my token is ' + 'ghp_' + 'a1B2' * 9\n"
        "redact(text)\n"
        "print(json.dumps([compiled_at_import, compiled, heavy, [r.name for r in RULES if 'pattern' in vars(r)]]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    at_import, after_plain_text, heavy, after_a_token = json.loads(done.stdout)
    assert at_import == [] and after_plain_text == [] and heavy == []
    assert "github" in after_a_token and len(after_a_token) < len(RULES)  # only the rules whose keyword occurs


FRAGMENTS = [
    "[REDACTED:",
    "]",
    "[REDACTED:openai:0123abcd]",
    "[REDACTED:generic-assignment:fedc9876]",
    "token=",
    "password: ",
    "Authorization: Bearer ",
    'aws secret key "',
    "sk-",
    "ghp_",
    "AKIA",
    "xoxb-1-",
    "eyJ",
    ".",
    "://",
    "@",
    ":",
    "\\n",
    '"',
    "'",
    " ",
    "\n",
    pem("BEGIN", "RSA "),
    pem("END", "RSA "),
]
secrets = st.builds(
    lambda seed, rule: TRUE_POSITIVES[rule](random.Random(seed)).text,
    st.integers(0, 2**32),
    st.sampled_from(sorted(TRUE_POSITIVES)),
)
documents = st.lists(st.one_of(st.text(max_size=30), st.sampled_from(FRAGMENTS), secrets), max_size=14).map("".join)


def dangling(text: str) -> int:
    """Occurrences of "[REDACTED:" that do not start a well-formed placeholder."""
    return text.count("[REDACTED:") - len(PLACEHOLDER.findall(text))


@settings(max_examples=1000 if SLOW else 150, deadline=None)
@given(documents)
@pytest.mark.slow
def test_property_redaction_never_raises_nests_or_changes_twice(text: str) -> None:
    tally("redaction property examples (Hypothesis)")
    result = redact(text)
    assert set(result.counts) <= RULE_NAMES
    assert result.total == sum(result.counts.values()) >= 0
    assert redact(result.text) == Redaction(result.text, {})
    # no placeholder is put inside another one, and no half placeholder is created
    assert dangling(result.text) <= dangling(text)
    before, after = Counter(PLACEHOLDER.findall(text)), Counter(PLACEHOLDER.findall(result.text))
    if "begin" not in text.lower():  # only a private-key block may swallow a placeholder
        assert not before - after
        assert sum((after - before).values()) == result.total
