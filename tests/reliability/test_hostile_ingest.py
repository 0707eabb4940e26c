"""Issue 31, hostile input at the door: secrets developers paste (the providers, connection strings,
short and spoken passwords, card numbers and IBANs the redactor used to miss), secrets in topics, and
ids that look like secrets or like command-line options. Each test failed before the fix.

The per-rule true-positive, false-positive and timing tests of the new rules are in
tests/test_redact.py (S3, S4, S6); here the whole path is checked: `add`, `import` and the CLI."""

from __future__ import annotations

import json
import random
from datetime import datetime, timezone
from pathlib import Path

import pytest
from helpers import memtree, tally
from secret_samples import TRUE_POSITIVES, Sample

from compaction_tree.errors import InvalidInputError
from compaction_tree.ingest import add, import_file
from compaction_tree.model import Chunk
from compaction_tree.redact import placeholder
from compaction_tree.vault import Vault

# The rules issue 31 asked for; each names the shape of one kind of pasted secret.
NEW_RULES = [
    "gitlab",
    "npm",
    "mailgun",
    "discord-webhook",
    "sentry-dsn",
    "azure-key",
    "url-signature",
    "iban",
    "password-assignment",
    "password-stated",
    "card-number",
]
WHEN = "2026-03-02T10:00:00Z"


def sample(rule: str, seed: int = 0) -> Sample:
    return TRUE_POSITIVES[rule](random.Random(f"hostile ingest {rule} {seed}"))


def stored(vault: Vault, relpath: str) -> dict[str, object]:
    record: dict[str, object] = json.loads((vault.root / relpath).read_text(encoding="utf-8"))
    return record


def a_github_token(seed: int = 0) -> str:
    return sample("github", seed).secret


# ---------------------------------------------------------------- secrets in the text


@pytest.mark.parametrize("rule", NEW_RULES)
def test_pasted_secrets_of_every_new_kind_never_reach_the_raw_file(vault: Vault, rule: str) -> None:
    for seed in range(10):
        secret = sample(rule, seed)
        result = add(vault, f"here is what you asked for: {secret.text}\nthanks", timestamp=WHEN)
        raw = (vault.root / result.path).read_text(encoding="utf-8")
        assert secret.secret not in raw and json.dumps(secret.secret)[1:-1] not in raw, (rule, secret.text)
        assert result.redactions == {rule: 1}, (secret.text, result.redactions)
    tally("issue 31: pasted secrets of the new kinds added (10 per rule)", 10)


# ---------------------------------------------------------------- topics


def test_a_topic_holding_a_secret_is_redacted_and_one_that_is_a_secret_is_dropped(vault: Vault) -> None:
    whole, inside = a_github_token(1), a_github_token(2)
    result = add(vault, "deployed", topics=[whole, f"deploy with {inside}", "deploy"], timestamp=WHEN)
    record = stored(vault, result.path)
    assert record["topics"] == [f"deploy with {placeholder('github', inside)}", "deploy"]
    # both count: the dropped topic was a redaction too
    assert result.redactions == {"github": 2}
    assert whole not in json.dumps(record) and inside not in json.dumps(record)


def test_topics_through_the_cli_are_redacted_and_counted(vault: Vault) -> None:
    password = sample("password-assignment").text
    token = a_github_token(3)
    run = memtree(
        "--vault", str(vault.root), "add", "note", "--topic", token, "--topic", password, "--timestamp", WHEN, "--json"
    )
    assert run.code == 0, run.stderr
    out = run.json()
    assert out["redactions"] == 2 and out["redacted_rules"] == {"github": 1, "password-assignment": 1}
    text = (vault.root / out["path"]).read_text(encoding="utf-8")
    assert token not in text and sample("password-assignment").secret not in text


def test_imported_topics_are_redacted_and_counted(vault: Vault, tmp_path: Path) -> None:
    npm, card = sample("npm"), sample("card-number")
    source = tmp_path / "export.jsonl"
    records = [
        {"timestamp": WHEN, "speaker": "u", "text": "one", "topics": [npm.secret, "release"]},
        {"timestamp": WHEN, "speaker": "u", "text": "two", "topics": [f"card {card.secret}"]},
    ]
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    report = import_file(vault, source)
    assert report.added == 2 and not report.failed
    assert report.to_json()["redactions"] == 2 and dict(report.redactions) == {"npm": 1, "card-number": 1}
    topics = sorted(json.loads(f.path.read_text(encoding="utf-8")).get("topics") for f in vault.raw_files())
    assert topics == [[f"card {placeholder('card-number', card.secret)}"], ["release"]]


# ---------------------------------------------------------------- ids


SECRET_IDS = ["github", "npm", "gitlab", "aws-access-key-id", "huggingface", "card-number"]


@pytest.mark.parametrize("rule", SECRET_IDS)
def test_an_id_that_looks_like_a_secret_is_refused_without_echoing_it(vault: Vault, rule: str) -> None:
    secret = sample(rule).secret
    if rule == "card-number":  # as an id: the digits without their separators
        secret = secret.replace(" ", "").replace("-", "")
    secret = secret.split(".")[0]  # a GitLab token's routable suffix is no id character
    with pytest.raises(InvalidInputError):
        add(vault, "text", id=secret, timestamp=WHEN)
    run = memtree("--vault", str(vault.root), "add", "text", "--id", secret, "--timestamp", WHEN)
    assert run.code == 4 and len(run.stderr.splitlines()) == 1 and "hint:" in run.stderr
    assert secret not in run.stderr and "looks like a secret" in run.stderr
    assert not list(vault.raw_files())


@pytest.mark.parametrize("chunk_id", ["-rf", "-", "--help", "-x_1"])
def test_an_id_starting_with_a_dash_is_refused_at_add(vault: Vault, chunk_id: str) -> None:
    run = memtree("--vault", str(vault.root), "add", "text", f"--id={chunk_id}", "--timestamp", WHEN)
    assert run.code == 4, run.stderr
    assert len(run.stderr.splitlines()) == 1 and "may not start with '-'" in run.stderr and "hint:" in run.stderr
    assert not list(vault.raw_files())


def test_hostile_ids_in_an_import_are_refused_line_by_line(vault: Vault, tmp_path: Path) -> None:
    token = a_github_token(4)
    source = tmp_path / "export.jsonl"
    ids = ["-rf", token, "fine-id", "-"]
    source.write_text(
        "".join(
            json.dumps({"id": i, "timestamp": WHEN, "speaker": "u", "text": f"n{n}"}) + "\n" for n, i in enumerate(ids)
        ),
        encoding="utf-8",
    )
    report = import_file(vault, source)
    assert report.added == 1 and [position for position, _ in report.failed] == ["line 1", "line 2", "line 4"]
    assert token not in json.dumps(report.to_json())
    assert {f.id for f in vault.raw_files()} == {"fine-id"}


def test_forget_never_reads_a_dash_id_as_options_and_old_vaults_stay_readable(vault: Vault) -> None:
    # a vault written before ids were checked: "-rf" is still a valid stored id
    chunk = Chunk("-rf", datetime(2026, 3, 2, 10, tzinfo=timezone.utc), "u", "an old chunk")
    assert vault.store_chunk(chunk)
    assert memtree("--vault", str(vault.root), "status").code == 0
    run = memtree("--vault", str(vault.root), "forget", "-rf")
    assert run.code == 2 and len(run.stderr.splitlines()) == 1
    assert "memtree forget -- -rf" in run.stderr  # the hint says how to pass it
    assert [f.id for f in vault.raw_files()] == ["-rf"]  # nothing was done
    run = memtree("--vault", str(vault.root), "forget", "--", "-rf")
    assert run.code == 0, run.stderr
    assert not list(vault.raw_files())
