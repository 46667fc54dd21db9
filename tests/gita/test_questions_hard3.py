"""The third harder question set (tests/gita/questions_hard3.json): well formed and new."""

import json
from pathlib import Path

import pytest

from pramana.gita import packaged

HERE = Path(__file__).parent
DOCUMENT = json.loads((HERE / "questions_hard3.json").read_text("utf-8"))
QUESTIONS = DOCUMENT["questions"]
KINDS = {"paraphrase", "sanskrit-mixed", "sanskrit-only", "negation", "narrative"}


def test_seventy_five_questions_of_five_kinds_in_one_split():
    assert "before" in DOCUMENT["about"] and "Scored once" in DOCUMENT["about"]
    assert [q["id"] for q in QUESTIONS] == list(range(1, 76))
    assert {q["split"] for q in QUESTIONS} == {"hard3"}
    kinds = [q["kind"] for q in QUESTIONS]
    assert set(kinds) == KINDS and min(kinds.count(k) for k in KINDS) >= 10
    assert kinds.count("paraphrase") >= 24  # the kind the ranking is short of


def test_every_answer_is_a_real_verse_and_no_question_is_repeated():
    verses = {str(ref) for ref in packaged.packaged_verses()}
    for question in QUESTIONS:
        assert question["answers"] and set(question["answers"]) <= verses, question
        assert len(question["answers"]) == len(set(question["answers"]))
        assert question["question"].strip() == question["question"] and len(question["question"]) < 200
    asked = [q["question"].lower() for q in QUESTIONS]
    assert len(set(asked)) == len(asked)


def test_no_question_is_taken_from_the_other_sets():
    others = {
        item["question"].lower()
        for name in ("questions.json", "questions_fresh.json", "questions_hard.json", "questions_hard2.json")
        for item in json.loads((HERE / name).read_text("utf-8"))["questions"]
    }
    assert not others.intersection(q["question"].lower() for q in QUESTIONS)


@pytest.mark.data
def test_the_third_harder_set_floor_by_words(lexical):
    """By words alone (no embeddings extra), on a set no ranking was tuned on. Measured once, at the
    end of the work that wrote it (2026-11-26): R@1 0.87, R@5 0.99 (with the model 0.92 / 1.00); no
    question answered with nothing."""
    hits, empty = [], 0
    for question in QUESTIONS:
        found = [hit.ref for hit in lexical.search(question["question"], 5).results]
        answers = set(question["answers"])
        hits.append((bool(found) and found[0] in answers, bool(answers.intersection(found))))
        empty += not found
    r1, r5 = (sum(h[i] for h in hits) / len(hits) for i in (0, 1))
    assert r1 >= 0.82 and r5 >= 0.95 and empty == 0, (r1, r5, empty)
