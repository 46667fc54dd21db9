"""A bare name defined only in test code is what the query asks for; a family's head is not lifted above
the member of the family that the query describes."""

from __future__ import annotations

from pramana.code.search import rank
from pramana.code.search.paths import TEST, path_kinds
from tests.code.conftest import indexed_service

# A library shipping assertion helpers for its users' tests under a `test/` folder, beside the class
# whose words they repeat.
SHIPPED_HELPERS_REPO = {
    "shop/basket.py": '''
class Basket:
    """A basket of items: the basket is empty until an item is added to the basket."""

    def is_empty(self):
        return not self.items

    def is_full(self):
        return len(self.items) >= self.size

    def is_paid(self):
        return self.paid

    def is_open(self):
        return not self.closed

    def is_shared(self):
        return bool(self.owners)

    def empty(self):
        """Empty the basket: the basket is empty, each item of the basket removed."""
        self.items = []

    def when_empty(self, callback):
        """Call back once the basket is empty: an empty basket calls each basket callback."""
        self.callbacks.append(callback)

    def empty_basket_error(self):
        """The error of a basket that is empty: an empty basket cannot be paid for."""
        return ValueError("the basket is empty")
''',
    "shop/test/basket_is_empty.py": '''
class BasketIsEmpty:
    """Assert that a basket holds nothing."""

    def matches(self, basket):
        return basket.is_empty()
''',
    "shop/checkout.py": '''
class Checkout:
    """Pay for what a basket holds."""

    def total(self, basket):
        return sum(item.price for item in basket.items)
''',
}


def test_a_name_defined_only_in_test_code_ranks_its_definition_first():
    # The production file is named whole by the query and holds its words as often; the test helper
    # defines the name asked for. Weighed as a test, the definition fell below the production file.
    assert TEST in path_kinds("shop/test/basket_is_empty.py")
    candidates = {
        "basket.py:1-30": rank.Candidate("shop/basket.py", "Basket", None, lexical=10.0, dense=0.5),
        "basket.py:31-60": rank.Candidate("shop/basket.py", "is_empty", "Basket", lexical=8.0, dense=0.5),
        "basket_is_empty.py:1-9": rank.Candidate(
            "shop/test/basket_is_empty.py", "BasketIsEmpty", None, lexical=10.0, dense=0.5, definition=1.5
        ),
    }
    ranked = rank.rank(rank.plan("BasketIsEmpty"), candidates, 3)
    assert ranked[0][0] == "basket_is_empty.py:1-9"


def test_a_sentence_still_ranks_production_code_above_test_helpers(tmp_path):
    service = indexed_service(SHIPPED_HELPERS_REPO, tmp_path)
    found = service.search_code("whether the basket is empty", limit=3).chunks
    assert found[0].metadata.filePath == "shop/basket.py"


def test_a_name_defined_in_production_and_in_tests_keeps_the_test_prior():
    query = rank.plan("Clock")
    production = rank.Candidate("src/clock.py", "Clock", None, lexical=5.0, definition=1.5)
    fake = rank.Candidate("tests/clock.py", "Clock", None, lexical=9.0, definition=1.5)
    assert rank._asked_test_definitions(query, [production, fake]) == frozenset()
    assert rank._asked_test_definitions(query, [fake]) == {"tests/clock.py"}
    # A sentence asks for behaviour, not for one name: no waiver.
    assert rank._asked_test_definitions(rank.plan("the clock ticks"), [fake]) == frozenset()


EXPORTERS = ("CsvExporter", "JsonExporter", "XmlExporter", "PdfExporter")


def _first_files(query: str, scores: dict[str, float], count: int = 2) -> list[str]:
    candidates = {
        f"{name}.java:1-9": rank.Candidate(f"export/{name}.java", name, None, lexical=score)
        for name, score in scores.items()
    }
    references = [("export/Exporter.java", "Exporter", f"export/{name}.java") for name in EXPORTERS]
    ranked = rank.rank(
        rank.plan(query), candidates, len(scores), namesake_references=lambda heads, members: references
    )
    return [chunk_id.split(".")[0] for chunk_id, _ in ranked[:count]]


def test_the_family_head_stays_below_the_member_the_query_describes():
    # "CSV" and "exporter" name CsvExporter whole, "export" its head's whole name: the query describes
    # the member. Its three siblings refer to the head, yet the head does not pass it.
    scores = {
        "CsvExporter": 10.0,
        "Exporter": 9.6,
        "JsonExporter": 9.3,
        "XmlExporter": 9.2,
        "PdfExporter": 9.1,
    }
    assert _first_files("export the table as a CSV file", scores) == ["CsvExporter", "Exporter"]


def test_the_family_head_is_lifted_when_the_query_names_no_member_further():
    scores = {
        "JsonExporter": 10.0,
        "Exporter": 9.6,
        "CsvExporter": 9.3,
        "XmlExporter": 9.2,
        "PdfExporter": 9.1,
    }
    assert _first_files("export the table to a file", scores) == ["Exporter", "JsonExporter"]


def test_the_family_head_is_lifted_over_members_the_query_does_not_describe():
    # The described member ranks below the head already (its words say little else of the query): the
    # lift is as before, above the others.
    scores = {
        "JsonExporter": 10.0,
        "Exporter": 9.6,
        "CsvExporter": 3.0,
        "XmlExporter": 9.2,
        "PdfExporter": 9.1,
    }
    assert _first_files("export the table as a CSV file", scores) == ["Exporter", "JsonExporter"]
