"""The article's markdown: its heading and source line once each (issue 29)."""

from pramana.sanskrit.format import article_markdown
from pramana.sanskrit.models import ArticleResult, Sense


def _article(markdown: str, senses: list[Sense] | None = None, page: str = "0578-a") -> ArticleResult:
    return ArticleResult(
        article_id="md:795", headword="agni", headword_deva="अग्नि", original_spelling="", homonym="",
        dict_code="md", dict_name="Macdonell: Sanskrit-English Dictionary (1893)", page=page,
        citation_url="https://example.org/agni", markdown=markdown, senses=senses or [],
    )  # fmt: skip


def test_source_line_and_headword_once():
    """A slob edition opens its text with the headword in bold: shown once, under the heading."""
    text = article_markdown(_article("**agni**\n\nag-ni, m. fire; conflagration; god Agni."))
    assert text.count("Macdonell: Sanskrit-English Dictionary (1893)") == 1
    assert text.count("page 0578-a") == 1
    assert text.count("agni**") == 0 and text.count("## agni अग्नि") == 1
    assert text.endswith("ag-ni, m. fire; conflagration; god Agni.")


def test_source_line_copied_into_the_text_is_not_repeated():
    article = _article("_Macdonell: Sanskrit-English Dictionary (1893), page 0578-a_\n\nag-ni, m. fire.")
    text = article_markdown(article)
    assert text.count("Macdonell: Sanskrit-English Dictionary (1893)") == 1
    assert text.count("page 0578-a") == 1


def test_text_that_merely_begins_with_the_headword_is_kept():
    """Apte's text opens 'agni — m.': the dictionary's own words, kept whole; no page line without a page."""
    text = article_markdown(_article("agni — *m.* fire", page=""))
    assert text.endswith("agni — *m.* fire")
    assert "page" not in text


def test_senses_numbered_each_without_the_repeated_headword():
    senses = [
        Sense(number=1, article_id="md:1", markdown="**agni**\n\nfire"),
        Sense(number=2, article_id="md:2", markdown="god Agni"),
    ]
    text = article_markdown(_article("**agni**\n\nfire\n\ngod Agni", senses))
    assert "**1.** (`md:1`) fire" in text and "**2.** (`md:2`) god Agni" in text
    assert text.count("Macdonell") == 1
