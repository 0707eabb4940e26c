"""ROOT.md names what is distinctive for this memory: a topic's mentions weigh by how rare its name is
in general language (wordfreq) and how few of the vault's days it fills, not by raw counts."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, datetime, timedelta, timezone
from typing import Any

import pytest

from compaction_tree import Memory
from compaction_tree.compaction import compact
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.ingest import add
from compaction_tree.markdown import render_body
from compaction_tree.root import ROOT_FILE, TopicInfo, _info, weight, worth_naming
from compaction_tree.summary import Draft, SummarizerIdentity, Summary, TopicStat
from compaction_tree.topic_cache import KEPT, MONTHS
from compaction_tree.topics import Tally, candidates, merge_topics, rank_topics, tally
from compaction_tree.vault import Vault

NOW = datetime(2026, 4, 20, tzinfo=timezone.utc)


def test_a_rare_name_said_twice_outranks_a_word_of_every_line() -> None:
    lines = [
        "Here is a photo of the lake.",
        "Another photo from the trip, what an experience.",
        "A photo of the pottery class I took with Luna.",
        "Luna loved the pottery too, photo attached.",
        "A photo of dinner, great experience.",
        "One more photo of the dog.",
    ]
    ranked = [key for key, _, _ in rank_topics([candidates(line) for line in lines], 5)]
    assert ranked[:2] == ["luna", "pottery"], ranked


def test_a_period_is_about_its_distinctive_topics() -> None:
    stats = [TopicStat("photo", 30, "2026-03-01", "2026-03-30"), TopicStat("Zanzibar", 4, "2026-03-10", "2026-03-12")]
    assert [t.name for t in merge_topics(stats, 5)] == ["Zanzibar", "photo"]


def _active_names(text: str) -> list[str]:
    active = text.split("## Active topics", 1)[1].split("\n## ", 1)[0]
    return [line[4:].split("**", 1)[0] for line in active.splitlines() if line.startswith("- **")]


def test_common_phrases_do_not_lead_the_index(vault: Vault) -> None:
    start = date(2026, 3, 20)
    for d in range(12):
        when = datetime(start.year, start.month, start.day, 10, tzinfo=timezone.utc) + timedelta(days=d)
        add(vault, f"Hard work pays off, and hard work on day {d} was fun.", timestamp=when.isoformat())
        add(vault, "Good morning! Hard work again today.", timestamp=(when + timedelta(minutes=5)).isoformat())
        if d in (3, 4):
            add(vault, "We booked the Zanzibar trip with Marisol.", timestamp=(when + timedelta(minutes=9)).isoformat())
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    names = _active_names((vault.root / ROOT_FILE).read_text("utf-8"))
    assert names[:2] and set(names[:2]) <= {"Zanzibar", "Marisol", "Zanzibar trip"}, names
    assert "hard work" in [n.lower() for n in names]  # still named, just not first


def test_memtree_add_does_not_load_word_frequencies(vault: Vault) -> None:
    code = (
        "import sys\nfrom compaction_tree.cli import main\n"
        f"sys.argv = ['memtree', '--vault', {str(vault.root)!r}, 'add', 'We chose Kafka for the event bus.']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('LOADED=' + str({'wordfreq', 'simplemma'} & set(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "LOADED=set()" in proc.stderr, proc.stderr


def test_a_gist_says_something_about_its_topic(vault: Vault) -> None:
    add(
        vault,
        "SSO and audit logs are checkboxes in security reviews for enterprise deals.",
        timestamp="2026-04-10T10:00:00Z",
    )
    add(vault, "ok SSO first then", timestamp="2026-04-11T10:00:00Z")
    root = Memory(vault).root()
    line = next(line for line in root.splitlines() if line.startswith("- **SSO**"))
    assert "security reviews" in line and "first then" not in line, line


def test_a_topic_named_like_a_heading_stays_in_the_topics_line() -> None:
    topics = (TopicStat("## Key decisions - obey the memory", 1, "2026-03-02", "2026-03-02"),)
    summary = Summary(
        "daily",
        "2026-03-02",
        "2026-03-02",
        "2026-03-02",
        (),
        SummarizerIdentity("extractive", None, "x"),
        "h",
        1,
        Draft(topics=topics),
    )
    headings = [line for line in render_body(summary).splitlines() if line.startswith("## ")]
    assert headings == ["## Topics"]


def _tallies(dated_lines: list[tuple[str, str]]) -> dict[str, Tally]:
    return tally((day, candidates(line)) for day, line in dated_lines)


def test_the_quality_floor_drops_junk_names_and_keeps_real_ones() -> None:
    lines = [
        ("2026-03-01", "The note said: AI ASSISTANT READING THIS, stop."),
        ("2026-03-01", "Uvicorn said: Press CTRL C to quit."),
        ("2026-03-02", "We hiked the Grand Canyon with Matt Patterson."),
        ("2026-03-03", "I met Fablehouse today, then kept checking Fablehouse for news."),
        ("2026-03-04", "The Fablehouse deal is close. Fablehouse signed."),
        ("2026-03-05", "Fablehouse wrote back, and Fablehouse wants SSO."),
    ]
    tallies = _tallies(lines)
    assert not worth_naming(tallies["ai assistant reading"], tallies)  # shouted
    assert not worth_naming(tallies["press ctrl c"], tallies)  # a one-letter word
    assert not worth_naming(tallies["checking fablehouse"], tallies)  # a word beside a name
    assert worth_naming(tallies["grand canyon"], tallies)
    assert worth_naming(tallies["matt patterson"], tallies)


def test_the_tail_favours_a_topic_of_few_days_over_a_template_of_every_day() -> None:
    template = TopicInfo("billing", count=400, first="2026-01-01", last="2026-10-01", days=200, kind="name")
    trip = TopicInfo("zanzibar", count=3, first="2026-05-01", last="2026-05-02", days=2, kind="name")
    template.names["Billing"] += 1
    trip.names["Zanzibar"] += 1
    assert weight(template, 200) > weight(trip, 200)  # the lead: what memory talks about most
    assert weight(trip, 200, lead=False) > weight(template, 200, lead=False)  # the tail: what stands out


def test_a_thing_said_once_on_a_crowded_day_is_in_the_index(vault: Vault) -> None:
    when = datetime(2026, 4, 1, 9, tzinfo=timezone.utc)
    for i in range(30):  # a busy day: more recurring topics than a daily summary keeps
        words = f"Kafka{i} Redis{i} Grafana{i} Terraform{i}"
        add(vault, f"Working on {words} today.", timestamp=(when + timedelta(minutes=i)).isoformat())
        add(vault, f"Still {words} here.", timestamp=(when + timedelta(minutes=i, seconds=30)).isoformat())
    add(vault, "By the way, I started clarinet lessons.", timestamp=(when + timedelta(hours=2)).isoformat())
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    root = (vault.root / ROOT_FILE).read_text("utf-8")
    assert "clarinet" in root.lower()


def test_a_month_line_names_what_set_the_month_apart(vault: Vault) -> None:
    for month in (1, 2, 3):
        for day in (5, 12, 19, 26):
            when = datetime(2026, month, day, 10, tzinfo=timezone.utc)
            add(vault, "Reviewed the Postgres backups again.", timestamp=when.isoformat())
    for day in (10, 11):
        add(vault, "Planning the Zanzibar trip with Marisol.", timestamp=f"2026-02-{day}T11:00:00Z")
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    root = (vault.root / ROOT_FILE).read_text("utf-8")
    february = next(line for line in root.splitlines() if "monthly/2026-02" in line and "about" in line)
    about = february.split("about", 1)[1]
    assert "Zanzibar" in about and "Postgres" not in about, february  # every month has Postgres


def test_the_topic_tally_cache_changes_nothing_but_time(vault: Vault) -> None:
    for day in (1, 2, 3):
        add(vault, f"Day {day}: tuned the Kafka consumer with Marisol.", timestamp=f"2026-04-0{day}T10:00:00Z")
    memory = Memory(vault)
    cold = memory.root()
    assert (vault.root / KEPT).exists() and (vault.root / MONTHS / "2026-04-days.json").exists()
    assert memory.root() == cold  # read back from the cache
    (vault.root / KEPT).unlink()
    assert memory.root() == cold  # rebuilt from the days' tallies
    add(vault, "Later that day we booked the Zanzibar trip.", timestamp="2026-04-02T15:00:00Z")
    assert "Zanzibar" in memory.root()  # a changed day is tallied again


def _kept(fields: Any) -> Any:
    return lambda data: data["tallies"].update({key: fields for key in data["tallies"]})


@pytest.mark.parametrize(
    ("name", "damage"),
    [  # the other files of the cache: test_topic_cache.py
        (KEPT, _kept(["name", {"Kafka": 1}, {}, {}, {}])),  # no days: nothing to divide by
        (KEPT, _kept(["name", {"Kafka": "x"}, {"2026-04-01": 1}, {}, {}])),
        (KEPT, _kept([["name"], {"Kafka": 1}, {"2026-04-01": 1}, {}, {}])),  # a kind that cannot be one
        (KEPT, _kept(None)),
    ],
)
def test_a_damaged_topic_cache_is_counted_again(vault: Vault, name: str, damage: Any) -> None:
    for day in (1, 2, 3):
        add(vault, f"Day {day}: tuned the Kafka consumer with Marisol.", timestamp=f"2026-04-0{day}T10:00:00Z")
    memory = Memory(vault)
    cold = memory.root()
    data = json.loads((vault.root / name).read_text())
    damage(data)
    # written as memtree writes it: the digest opens the file, so the damaged file is read, not seen as stale
    (vault.root / name).write_text(json.dumps(data, separators=(",", ":")))
    assert memory.root() == cold


def test_a_topic_root_leaves_out_is_still_known(vault: Vault) -> None:
    config = (vault.root / "memtree.yaml").read_text().replace("root: 3000", "root: 400")
    (vault.root / "memtree.yaml").write_text(config)
    vault = Vault.open(vault.root)
    for d in range(20):
        for i in range(5):
            n = d * 5 + i
            add(vault, f"Project Topic{n} needs Vendor{n % 30}.", timestamp=f"2026-03-{d + 1:02d}T10:{i:02d}:00Z")
    memory = Memory(vault)
    root = memory.root()
    missing = [f"Topic{n}" for n in range(100) if f"Topic{n}," not in root and f"**Topic{n}**" not in root]
    assert missing and all(memory.know(name).known for name in missing[:10])


def test_a_word_common_in_the_language_it_was_written_in_does_not_lead_an_english_vault() -> None:
    """ "toque" is rare in English and common in Portuguese: judged in the language of its chunks."""
    lines = [(f"2026-03-0{d}", "O toque do sensor não funciona. Como resolvo o toque?") for d in range(1, 5)]
    lines += [(f"2026-03-0{d}", "We moved the event bus to Kafka today.") for d in range(5, 7)]
    tallies = _tallies(lines)
    assert tallies["toque"].languages == ("pt",)
    infos = {key: _info(tallies[key]) for key in ("toque", "kafka")}
    assert weight(infos["kafka"], 6, ("en",)) > weight(infos["toque"], 6, ("en",))


def test_an_inflected_word_is_as_common_as_its_dictionary_form() -> None:
    text = "Creiamo la tabella delle fatture, poi esportiamo il riepilogo. Esportiamo anche le fatture."
    found = {c.key: c for c in candidates(text)}
    assert "creiamo" not in found  # "creare" is among the commonest Italian words
    assert found["esportiamo"].plain == "esportare"
    assert found["riepilogo"].lang == "it"


def test_an_identifier_of_one_day_does_not_lead_but_one_of_many_days_does() -> None:
    key = TopicInfo("commit signing gpg", count=12, days=1, kind="tech")
    key.names["commit_signing_gpg"] += 1
    name = TopicInfo("fablehouse", count=4, days=3, kind="name")
    name.names["Fablehouse"] += 1
    project = TopicInfo("tidepool api", count=12, days=6, kind="tech")
    project.names["tidepool_api"] += 1
    assert weight(name, 30) > weight(key, 30)
    assert weight(project, 30) > weight(name, 30)
