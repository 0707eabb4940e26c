"""Conversations in the index: a session, or a sitting of a day (what recall ranks as a whole)."""

from __future__ import annotations

from compaction_tree.index import Index
from compaction_tree.ingest import add
from compaction_tree.retrieval import _clustering, _focus, _named_speakers, recall
from compaction_tree.text import stem
from compaction_tree.vault import Vault


def say(vault: Vault, text: str, when: str, speaker: str, session: str | None = None) -> int:
    chunk_id = add(vault, text, timestamp=when, speaker=speaker, session=session).id
    with Index(vault) as index:
        index.sync()
        return index.chunks_by_id([chunk_id])[chunk_id].rowid


def best_turns(index: Index, word: str) -> list[tuple[int, float]]:
    return index.search_chunks(f'stems : "{stem(word)}"', 20)


def groups(vault: Vault, rowids: list[int]) -> list[list[int]]:
    with Index(vault) as index:
        index.sync()
        keys = index.conversation_keys(rowids)
    return [[r for r in rowids if keys[r] == key] for key in dict.fromkeys(keys[r] for r in rowids)]


def test_a_day_splits_into_sittings_at_a_pause_and_at_a_new_dialogue(vault: Vault) -> None:
    morning = [
        say(vault, "Did you book the ferry?", "2026-03-02T09:00:00Z", "Alice"),
        say(vault, "Yes, the 7:40 one.", "2026-03-02T09:02:00Z", "Bob"),
        say(vault, "Great, I'll bring the bikes.", "2026-03-02T09:05:00Z", "Alice"),
    ]
    aside = [  # another dialogue the same minutes: new voices once two people were talking
        say(vault, "The build is red again.", "2026-03-02T09:06:00Z", "user"),
        say(vault, "The flaky test is test_upload; retry it.", "2026-03-02T09:07:00Z", "assistant"),
    ]
    evening = [say(vault, "The ferry was late, but the island was worth it.", "2026-03-02T19:00:00Z", "Alice")]
    assert groups(vault, morning + aside + evening) == [morning, aside, evening]


def test_a_session_id_keeps_its_turns_together_across_pauses(vault: Vault) -> None:
    turns = [
        say(vault, "Let's plan the garden.", "2026-03-02T09:00:00Z", "user", session="s1"),
        say(vault, "Tomatoes along the south wall.", "2026-03-02T15:00:00Z", "assistant", session="s1"),
    ]
    assert groups(vault, turns) == [turns]


def test_a_conversation_is_searchable_as_a_whole_and_kept_up_to_date(vault: Vault) -> None:
    say(vault, "Where should we go in May?", "2026-03-02T09:00:00Z", "Alice")
    say(vault, "Somewhere with mountains.", "2026-03-02T09:01:00Z", "Bob")
    say(vault, "I like mountains too.", "2026-03-04T09:00:00Z", "Carol")
    with Index(vault) as index:
        index.sync()
        # neither turn holds both words: the first sitting does, as a whole
        ranked = index.search_conversations('stems : "may" AND stems : "mountain"', 5)
        assert [key for key, _ in ranked] == ["day:2026-03-02#0"]
    say(vault, "Then the Dolomites in June.", "2026-03-02T09:03:00Z", "Alice")
    with Index(vault) as index:
        index.sync()
        ranked = index.search_conversations('stems : "dolomit"', 5)
        assert [key for key, _ in ranked] == ["day:2026-03-02#0"]


def test_focus_grows_as_a_question_s_best_turns_cluster_in_one_conversation(vault: Vault) -> None:
    for minute, text in enumerate(["Which ferry to the island?", "The ferry at 7:40.", "Ferry tickets bought."]):
        say(vault, text, f"2026-03-02T09:0{minute}:00Z", "Alice")
    for day in range(3, 6):
        say(vault, f"The budget for week {day} is fine.", f"2026-03-{day:02d}T09:00:00Z", "Bob")
    with Index(vault) as index:
        index.sync()
        clustered = _focus(index, [], best_turns(index, "ferry"))
        scattered = _focus(index, [], best_turns(index, "budget"))
    assert scattered == 0.0  # one turn a conversation: turn-level ranking
    assert clustered == 1.0  # all in one conversation: conversation-level ranking


def test_a_question_naming_a_speaker_is_about_their_conversations_and_a_role_is_not(vault: Vault) -> None:
    for day in range(3, 6):
        say(vault, f"The budget for week {day} is fine.", f"2026-03-{day:02d}T09:00:00Z", "Bob Marley")
        say(vault, f"The budget for week {day} is fine.", f"2026-03-{day:02d}T10:00:00Z", "user")
    with Index(vault) as index:
        index.sync()
        hits = best_turns(index, "budget")
        named = _named_speakers(index, "What did Bob Marley say of the budget?")
        assert named == ["Bob Marley"] and _focus(index, named, hits) == 0.5  # he speaks in 3 of 6
        assert _named_speakers(index, "What did Bob say of the budget?") == []  # half a name is not his
        assert _named_speakers(index, "What did the user say of the budget?") == []
        theirs = index.search_conversations(f'stems : "{stem("budget")}"', 10, named)
        everyone = index.search_conversations(f'stems : "{stem("budget")}"', 10)
        assert len(theirs) == 3 and len(everyone) == 6  # his three sittings, of six
        assert {key for key, _ in theirs} < {key for key, _ in everyone}


def test_a_name_that_speaks_in_every_conversation_picks_none(vault: Vault) -> None:
    # one long conversation between two people: every question names one of them
    for day in range(3, 9):
        say(vault, f"The budget for week {day} is fine.", f"2026-03-{day:02d}T09:00:00Z", "Ana")
        say(vault, f"Week {day} looks calm.", f"2026-03-{day:02d}T09:01:00Z", "Ben")
    with Index(vault) as index:
        index.sync()
        hits = best_turns(index, "budget")
        assert _focus(index, _named_speakers(index, "What did Ana say of the budget?"), hits) == 0.0


def test_recall_quotes_a_named_person_s_session_whole_among_other_people_s_talk(vault: Vault) -> None:
    # Ben's answer shares no word with the question; other people's turns match "hobby" better, one by one
    turns = [
        ("Ben", "Pottery suits you; the wheel in the garage looks great."),
        ("Ana", "Thanks! It is my new hobby."),
        ("Ana", "Clay everywhere, hobby heaven."),
    ]
    for minute, (speaker, text) in enumerate(turns):
        say(vault, text, f"2026-03-02T09:0{minute}:00Z", speaker, session="ana-ben")
    for n in range(24):  # one turn a conversation: no cluster for the question's best turns to show
        say(
            vault, f"My hobby is hobby number {n}, hobby!", f"2026-03-{3 + n:02d}T09:00:00Z", f"Person{n}", f"other-{n}"
        )
        for k in range(4):  # the rest of their days: so "hobby" is a word that tells turns apart
            say(vault, f"Rain again, {k} umbrellas.", f"2026-03-{3 + n:02d}T1{k}:00:00Z", f"Person{n}", f"rain-{n}-{k}")
    found = recall(vault, "What hobby did Ana take up?", 90)
    assert "Pottery suits you" in found.context


def test_clustering_is_measured_against_chance_in_this_memory() -> None:
    # 20 hits in 12 of one long conversation's 19 sessions: what chance gives, not a focused question
    assert _clustering(12, 20, 19) < 0.05
    # the same 10 among 5,000 conversations: far more clustered than chance
    assert _clustering(10, 20, 5000) > 0.45
    assert _clustering(20, 20, 5000) == 0.0 and _clustering(1, 20, 5000) > 0.9


def test_an_index_of_an_older_schema_is_rebuilt_with_conversations(vault: Vault) -> None:
    say(vault, "Where should we go in May?", "2026-03-02T09:00:00Z", "Alice")
    with Index(vault) as index:
        index.sync()
        # what an index written before conversations were indexed holds
        index.db.execute("DROP TABLE conversation_fts")
        index.db.execute("DROP TABLE conversations")
        index.db.execute("UPDATE meta SET value = '13' WHERE key = 'schema'")
    with Index(vault) as index:
        index.sync()
        assert [key for key, _ in index.search_conversations('stems : "may"', 5)] == ["day:2026-03-02#0"]
