"""recall.embeddings: chunk vectors through LiteLLM's embedding() against a real OpenAI-compatible server on
127.0.0.1 (fakellm.py), kept in .memtree/chunk-vectors.bin, and recall by meaning over them."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from fakellm import FakeLLM, hang, malformed, status
from helpers import memtree

from compaction_tree.compaction import compact, forget
from compaction_tree.config import parse_config
from compaction_tree.embeddings import VECTORS_FILE, decode, recall_model, refresh_store
from compaction_tree.errors import ConfigError
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.index import Index
from compaction_tree.ingest import add
from compaction_tree.retrieval import recall
from compaction_tree.vault import Vault

pytest.importorskip("numpy")

NOW = datetime(2026, 4, 20, tzinfo=timezone.utc)
# a model's view in miniature: words of one meaning share an axis, other words get their own (hashed) one
MEANINGS = [{"relax", "relaxes", "calms", "calm", "unwind"}, {"pottery", "clay", "ceramics"}]


def meaning_vector(text: str, dim: int) -> list[float]:
    vector = [0.0] * dim
    for word in "".join(c if c.isalnum() else " " for c in text.lower()).split():
        axis = next((n for n, group in enumerate(MEANINGS) if word in group), None)
        if axis is None:
            axis = len(MEANINGS) + int(hashlib.sha256(word.encode()).hexdigest(), 16) % (dim - len(MEANINGS))
        vector[axis] += 1.0
    return vector


@pytest.fixture
def llm() -> Iterator[FakeLLM]:
    with FakeLLM(embedder=meaning_vector, embedding_dim=64) as server:
        yield server


def with_embeddings(vault: Vault, llm: FakeLLM, setting: str = "openai/fake-embed", timeout: float = 5) -> Vault:
    text = (vault.root / "memtree.yaml").read_text(encoding="utf-8")
    text = text.replace("embeddings: false", f"embeddings: {setting}")
    text = text.replace("api_base: null", f"api_base: {llm.base_url}").replace("timeout: 120", f"timeout: {timeout}")
    (vault.root / "memtree.yaml").write_text(text, encoding="utf-8")
    return Vault.open(vault.root)


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def say(vault: Vault, text: str, when: str) -> str:
    return add(vault, text, timestamp=when, speaker="user").id


def filler(vault: Vault, n: int = 30) -> None:
    for i in range(n):
        say(vault, f"Filler about quarterly planning and team rituals, note {i}.", f"2026-03-02T08:{i:02d}:00Z")


def run_compact(vault: Vault) -> list[str]:
    return compact(vault, ExtractiveSummarizer(vault.config), NOW).warnings


def stored_ids(vault: Vault) -> tuple[str, ...]:
    stored = decode((vault.root / VECTORS_FILE).read_bytes())
    assert stored is not None
    return stored.ids


def embedded_texts(llm: FakeLLM) -> list[str]:
    return [text for r in llm.requests if r.path.endswith("/embeddings") for text in r.body["input"]]


# ---------------------------------------------------------------- the setting


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("", False),
        ("embeddings: false", False),
        ("embeddings: true", True),
        ("embeddings: ollama/nomic", "ollama/nomic"),
    ],
)
def test_the_setting_is_off_by_default_true_or_a_model(line: str, expected: object) -> None:
    assert parse_config(f"recall:\n  {line}\n" if line else "timezone: UTC\n").recall_embeddings == expected


@pytest.mark.parametrize("value", ["3", "[a, b]", "'two words'", "{model: x}", "''"])
def test_a_bad_setting_is_a_one_line_config_error(vault: Vault, value: str) -> None:
    with pytest.raises(ConfigError, match=r"recall\.embeddings must be true, false or a LiteLLM embedding model"):
        parse_config(f"recall:\n  embeddings: {value}\n")
    path = vault.root / "memtree.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("embeddings: false", f"embeddings: {value}"))
    run = memtree("--vault", str(vault.root), "recall", "anything")
    assert run.code == 4 and "recall.embeddings" in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_true_means_the_env_model_else_the_providers(monkeypatch: pytest.MonkeyPatch) -> None:
    on = parse_config("recall:\n  embeddings: true\nsummarizer:\n  model: ollama/llama3.1\n  backend: litellm\n")
    assert recall_model(on, env={}) == "ollama/nomic-embed-text"
    assert recall_model(on, env={"MEMTREE_EMBEDDING_MODEL": "openai/x"}) == "openai/x"
    assert recall_model(parse_config("recall:\n  embeddings: true\n"), env={}) is None  # extractive: none known
    assert recall_model(parse_config("timezone: UTC\n"), env={"MEMTREE_EMBEDDING_MODEL": "openai/x"}) is None


# ---------------------------------------------------------------- filling the store at compact


def test_compact_embeds_each_chunk_once_then_only_new_ones(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault = with_embeddings(vault, llm)
    first = [say(vault, f"Turn {i} of the garden.", f"2026-03-02T{10 + i // 60}:{i % 60:02d}:00Z") for i in range(70)]
    assert run_compact(vault) == []
    assert stored_ids(vault) == tuple(sorted(first))
    assert len(embedded_texts(llm)) == 70 and llm.calls == 2  # batches of 64
    assert embedded_texts(llm)[0].startswith("user: Turn")
    run_compact(vault)
    assert llm.calls == 2  # nothing new: no call
    late = say(vault, "A late turn about the shed.", "2026-03-03T10:00:00Z")
    run_compact(vault)
    assert embedded_texts(llm)[70:] == ["user: A late turn about the shed."]
    assert stored_ids(vault) == tuple(sorted([*first, late]))


def test_the_store_is_the_same_bytes_however_it_was_filled(tmp_path: Path, llm: FakeLLM, env: None) -> None:
    stores = []
    for name, splits in (("once", [12]), ("twice", [5, 12])):
        vault = with_embeddings(Vault.init(tmp_path / name, "UTC")[0], llm)
        done = 0
        for end in splits:
            for i in range(done, end):
                add(vault, f"Turn {i}.", timestamp=f"2026-03-02T10:{i:02d}:00Z", speaker="user", id=f"c{i:03d}")
            done = end
            run_compact(vault)
        stores.append((vault.root / VECTORS_FILE).read_bytes())
    assert stores[0] == stores[1]


@pytest.mark.parametrize("failure", [status(429), status(500), malformed(b'{"data": ['), hang()])
def test_a_provider_failure_keeps_the_store_and_compaction_goes_on(
    vault: Vault, llm: FakeLLM, env: None, failure: object
) -> None:
    vault = with_embeddings(vault, llm, timeout=1)
    say(vault, "The first turn.", "2026-03-02T10:00:00Z")
    run_compact(vault)
    before = (vault.root / VECTORS_FILE).read_bytes()
    say(vault, "A second turn.", "2026-03-04T10:00:00Z")
    llm.push(failure)  # type: ignore[arg-type]
    warnings = run_compact(vault)
    assert len(warnings) == 1 and "embeddings unavailable" in warnings[0] and "1 chunk(s) left" in warnings[0]
    assert (vault.root / VECTORS_FILE).read_bytes() == before
    assert (vault.root / "daily/2026-03-04.md").exists()  # the summaries were written all the same
    run_compact(vault)  # the provider is back: the chunk is embedded now
    assert len(stored_ids(vault)) == 2


def test_the_cli_says_the_warning_on_stderr(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault = with_embeddings(vault, llm)
    say(vault, "The first turn.", "2026-03-02T10:00:00Z")
    llm.push(status(500))
    run = memtree("--vault", str(vault.root), "compact", "--json")
    assert run.code == 0 and json.loads(run.stdout)["done"] >= 1
    assert run.stderr.count("memtree: warning: embeddings unavailable") == 1


def test_a_damaged_or_other_models_store_is_rebuilt(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault = with_embeddings(vault, llm)
    filler(vault, 3)
    run_compact(vault)
    good = (vault.root / VECTORS_FILE).read_bytes()
    for damage in (b"", b"garbage", good[:-5], good.replace(b'"dim":64', b'"dim":63')):
        (vault.root / VECTORS_FILE).write_bytes(damage)
        assert recall(vault, "quarterly planning", 500).sources  # by words, no crash
        run_compact(vault)
        assert (vault.root / VECTORS_FILE).read_bytes() == good
    calls = llm.calls
    path = vault.root / "memtree.yaml"
    path.write_text(path.read_text().replace("openai/fake-embed", "openai/other-embed"))
    vault = Vault.open(vault.root)
    run_compact(vault)
    rebuilt = decode((vault.root / VECTORS_FILE).read_bytes())
    assert llm.calls == calls + 1 and rebuilt is not None and rebuilt.model == "openai/other-embed"


def test_forget_drops_the_chunks_vector(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault = with_embeddings(vault, llm)
    keep = say(vault, "Keep this turn.", "2026-03-02T10:00:00Z")
    gone = say(vault, "Forget this turn.", "2026-03-02T11:00:00Z")
    run_compact(vault)
    assert stored_ids(vault) == tuple(sorted([keep, gone]))
    forget(vault, [gone], ExtractiveSummarizer(vault.config), NOW)
    assert stored_ids(vault) == (keep,)
    assert b"Forget this" not in (vault.root / VECTORS_FILE).read_bytes()


def test_switching_it_off_drops_the_store(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault = with_embeddings(vault, llm)
    say(vault, "A turn.", "2026-03-02T10:00:00Z")
    run_compact(vault)
    path = vault.root / "memtree.yaml"
    path.write_text(path.read_text().replace("embeddings: openai/fake-embed", "embeddings: false"))
    run_compact(Vault.open(vault.root))
    assert not (vault.root / VECTORS_FILE).exists()


# ---------------------------------------------------------------- recall by meaning


def meaning_vault(vault: Vault, llm: FakeLLM) -> tuple[Vault, str]:
    vault = with_embeddings(vault, llm)
    filler(vault)
    say(vault, "Melanie said she could not relax before the exam.", "2026-03-03T08:00:00Z")
    evidence = say(vault, "Pottery with the kids calms me down like nothing else.", "2026-03-05T10:00:00Z")
    with Index(vault) as index:  # compact's step alone: no summary leads words to the evidence
        index.sync()
        assert refresh_store(vault, index).embedded == 32
    return vault, evidence


def test_recall_finds_by_meaning_what_shares_no_word(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault, evidence = meaning_vault(vault, llm)
    before = llm.calls
    found = recall(vault, "How does Melanie relax?", 150)
    assert evidence in found.sources and found.notes == ()
    assert llm.calls == before + 1  # the question, once
    assert evidence not in recall(vault, "How does Melanie relax?", 150, meaning=False).sources


@pytest.mark.parametrize("failure", [status(429), status(500), malformed(), hang()])
def test_recall_falls_back_to_words_with_a_note(vault: Vault, llm: FakeLLM, env: None, failure: object) -> None:
    vault, _ = meaning_vault(vault, llm)
    vault = with_embeddings(vault, llm, timeout=1)
    question = "What calms Melanie down before an exam?"
    llm.push(failure)  # type: ignore[arg-type]
    found = recall(vault, question, 150)
    assert found.notes and "embeddings unavailable" in found.notes[0]
    assert found.context == recall(vault, question, 150, meaning=False).context


def test_chunks_not_embedded_yet_are_found_by_words(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault, _ = meaning_vault(vault, llm)
    late = say(vault, "The kiln for the pottery arrives on Friday.", "2026-03-09T10:00:00Z")
    assert late in recall(vault, "when does the kiln arrive?", 300).sources


def test_recall_before_any_compact_notes_it_and_answers_by_words(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault = with_embeddings(vault, llm)
    chunk = say(vault, "The kiln arrives on Friday.", "2026-03-09T10:00:00Z")
    found = recall(vault, "when does the kiln arrive?", 300)
    assert chunk in found.sources and "memtree compact" in found.notes[0] and llm.calls == 0
    run = memtree("--vault", str(vault.root), "recall", "when does the kiln arrive?")
    assert run.code == 0 and "memtree: note: no chunk is embedded" in run.stderr


def test_add_imports_neither_litellm_nor_numpy_with_embeddings_on(vault: Vault, llm: FakeLLM) -> None:
    vault = with_embeddings(vault, llm)
    probe = (
        "import sys\n"
        f"sys.argv = ['memtree', '--vault', {str(vault.root)!r}, 'add', 'a turn']\n"
        "from compaction_tree.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('litellm', 'numpy', 'openai')))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_status_reports_how_many_chunks_have_a_vector(vault: Vault, llm: FakeLLM, env: None) -> None:
    assert json.loads(memtree("--vault", str(vault.root), "status", "--json").stdout)["embeddings"] is None
    vault = with_embeddings(vault, llm)
    say(vault, "One turn.", "2026-03-02T10:00:00Z")
    run_compact(vault)
    say(vault, "A turn since.", "2026-03-05T10:00:00Z")
    shown = json.loads(memtree("--vault", str(vault.root), "status", "--json").stdout)["embeddings"]
    assert shown == {"model": "openai/fake-embed", "embedded": 1, "chunks": 2}
    assert "1 of 2 chunk(s) embedded" in memtree("--vault", str(vault.root), "status").stdout


@pytest.mark.parametrize("mock", [[0.5, 0.5], "error"])
def test_an_answer_short_of_vectors_is_a_failure_too(
    vault: Vault, monkeypatch: pytest.MonkeyPatch, mock: object
) -> None:
    """LiteLLM's own mock: one vector whatever the batch holds (a provider that dropped inputs), or an error."""
    import functools

    from compaction_tree.llm import _import_litellm

    litellm = _import_litellm()
    monkeypatch.setattr(litellm, "embedding", functools.partial(litellm.embedding, mock_response=mock))
    path = vault.root / "memtree.yaml"
    path.write_text(path.read_text().replace("embeddings: false", "embeddings: openai/mocked"))
    vault = Vault.open(vault.root)
    say(vault, "One turn.", "2026-03-02T10:00:00Z")
    say(vault, "Another turn.", "2026-03-02T11:00:00Z")
    (warning,) = run_compact(vault)
    assert "2 chunk(s) left" in warning and stored_ids(vault) == ()
    assert ("1 usable vector(s) for 2" in warning) == (mock != "error")


def test_a_model_whose_vectors_change_size_is_noted_not_mixed(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault = with_embeddings(vault, llm)
    say(vault, "The first turn about pottery.", "2026-03-02T10:00:00Z")
    run_compact(vault)
    before = (vault.root / VECTORS_FILE).read_bytes()
    llm.embedding_dim = 32
    say(vault, "A second turn.", "2026-03-04T10:00:00Z")
    (warning,) = run_compact(vault)
    assert "different sizes" in warning and (vault.root / VECTORS_FILE).read_bytes() == before
    found = recall(vault, "what about pottery?", 300)
    assert "changed its vectors' size" in found.notes[0] and found.sources


def test_true_without_a_known_model_warns_and_keeps_no_vectors(vault: Vault, llm: FakeLLM, env: None) -> None:
    vault = with_embeddings(vault, llm, setting="true")
    say(vault, "A turn.", "2026-03-02T10:00:00Z")
    (warning,) = run_compact(vault)
    assert "no embedding model is known" in warning and not (vault.root / VECTORS_FILE).exists()
    assert recall(vault, "a turn", 300).notes == () and llm.calls == 0  # off in effect: words, and no note


def test_a_long_fill_is_saved_as_it_goes(vault: Vault, monkeypatch: pytest.MonkeyPatch, env: None) -> None:
    """A first fill of a large vault takes many calls: a run killed midway keeps what it paid for."""
    from compaction_tree import embeddings

    monkeypatch.setattr(embeddings, "SAVE_EVERY", 0.0)
    seen: set[int] = set()  # how many vectors the store held whenever a text was embedded

    def watching(text: str, dim: int) -> list[float]:
        stored = decode((vault.root / VECTORS_FILE).read_bytes()) if (vault.root / VECTORS_FILE).exists() else None
        seen.add(len(stored.ids) if stored else 0)
        return meaning_vector(text, dim)

    with FakeLLM(embedder=watching, embedding_dim=16) as server:
        vault = with_embeddings(vault, server)
        for i in range(70):
            say(vault, f"Turn {i:03d}.", f"2026-03-02T{10 + i // 60}:{i % 60:02d}:00Z")
        run_compact(vault)
    assert seen == {0, 64} and len(stored_ids(vault)) == 70  # the second batch was asked with the first saved


def test_the_prune_gate_asks_recall_by_words_alone(vault: Vault, llm: FakeLLM, env: None) -> None:
    from compaction_tree.retention import _Asker

    vault, evidence = meaning_vault(vault, llm)
    before = llm.calls
    with Index(vault) as index:
        found = _Asker(vault, index)("How does Melanie relax?")
    assert llm.calls == before  # pruning stays offline whatever recall.embeddings says
    assert evidence not in found


def test_the_mcp_recall_tool_passes_recall_notes_on(vault: Vault, llm: FakeLLM, env: None) -> None:
    mcp = pytest.importorskip("test_mcp")
    vault, _ = meaning_vault(vault, llm)
    vault = with_embeddings(vault, llm, timeout=1)
    llm.push(status(500))

    async def check(client: object) -> None:
        text, _, failed = await mcp.call(client, "recall", query="What calms Melanie down?")
        assert not failed and "(note: embeddings unavailable" in text

    mcp.session(mcp.build_server(vault.root), check)
