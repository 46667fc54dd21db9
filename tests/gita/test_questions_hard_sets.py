"""The second and third harder question sets (tests/gita/questions_hard2.json, questions_hard3.json):
well formed, new, and the floors they guard by words alone. One table row a set. The answers of
every harder set (the first's too, tests/gita/test_questions_hard.py) are checked here alike."""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pramana.gita import packaged

HERE = Path(__file__).parent
KINDS = {"paraphrase", "sanskrit-mixed", "sanskrit-only", "negation", "narrative"}


@dataclass(frozen=True)
class QuestionSet:
    split: str  # the set's file is questions_<split>.json
    count: int
    paraphrases: int  # at least: the kind the ranking is short of (issue 27 point 4)
    earlier: tuple[str, ...]  # the sets no question may be taken from
    floor: tuple[float, float]  # R@1, R@5 by words alone

    @property
    def questions(self) -> list[dict[str, Any]]:
        return load(self.split)["questions"]


def load(split: str) -> dict[str, Any]:
    return json.loads((HERE / f"questions_{split}.json").read_text("utf-8"))


BASE_SETS = ("questions.json", "questions_fresh.json", "questions_hard.json")
SETS = [
    # Measured 2026-11-26: R@1 0.69, R@5 0.88 (with the model 0.82 / 0.93), then 0.71 / 0.90 once a
    # quote whose words are English too was read as Sanskrit (ranking.py).
    QuestionSet("hard2", 72, 20, BASE_SETS, (0.65, 0.83)),
    # Measured once, at the end of the work that wrote it (2026-11-26): R@1 0.87, R@5 0.99 (with the
    # model 0.92 / 1.00).
    QuestionSet("hard3", 75, 24, (*BASE_SETS, "questions_hard2.json"), (0.82, 0.95)),
]
by_split = pytest.mark.parametrize("question_set", SETS, ids=[s.split for s in SETS])


@by_split
def test_each_set_is_one_split_of_five_kinds(question_set: QuestionSet):
    document = load(question_set.split)
    assert "before" in document["about"] and "Scored once" in document["about"]
    questions = question_set.questions
    assert [q["id"] for q in questions] == list(range(1, question_set.count + 1))
    assert {q["split"] for q in questions} == {question_set.split}
    kinds = [q["kind"] for q in questions]
    assert set(kinds) == KINDS and min(kinds.count(k) for k in KINDS) >= 10
    assert kinds.count("paraphrase") >= question_set.paraphrases


@pytest.mark.parametrize("split", ["hard", *(s.split for s in SETS)])
def test_every_answer_is_a_real_verse_and_no_question_is_repeated(split: str):
    questions = load(split)["questions"]
    verses = {str(ref) for ref in packaged.packaged_verses()}
    for question in questions:
        assert question["answers"] and set(question["answers"]) <= verses, question
        assert len(question["answers"]) == len(set(question["answers"]))
        assert question["question"].strip() == question["question"] and len(question["question"]) < 200
    asked = [q["question"].lower() for q in questions]
    assert len(set(asked)) == len(asked)


@by_split
def test_no_question_is_taken_from_the_earlier_sets(question_set: QuestionSet):
    others = {
        item["question"].lower()
        for name in question_set.earlier
        for item in json.loads((HERE / name).read_text("utf-8"))["questions"]
    }
    assert not others.intersection(q["question"].lower() for q in question_set.questions)


@pytest.mark.data
@by_split
def test_the_floor_by_words(lexical, question_set: QuestionSet):
    """By words alone (no embeddings extra), on sets no ranking was tuned on; no question answered
    with nothing."""
    hits, empty = [], 0
    for question in question_set.questions:
        found = [hit.ref for hit in lexical.search(question["question"], 5).results]
        answers = set(question["answers"])
        hits.append((bool(found) and found[0] in answers, bool(answers.intersection(found))))
        empty += not found
    r1, r5 = (sum(h[i] for h in hits) / len(hits) for i in (0, 1))
    assert r1 >= question_set.floor[0] and r5 >= question_set.floor[1] and empty == 0, (r1, r5, empty)
