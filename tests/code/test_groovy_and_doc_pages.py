"""What issue 28's twenty-third held-out set (logback, Asio, Catch2, Pillow) showed, on snippets of our
own: Groovy was text (documentation, left out of search_code), so Gradle's build scripts, Jenkins
pipelines and Groovy sources could not be found; and the HTML pages of a documentation site (logback's
manual) ranked among the code."""

from __future__ import annotations

from pramana.code.index.tables import GROOVY_FILES, HTML_DOC_PAGES
from pramana.code.languages import DOC_LANGUAGES, language_for, language_of
from tests.code.conftest import indexed_service, reindexed_from_before

GRADLE = """plugins {
    id 'java-library'
}

dependencies {
    implementation project(':orchard-core')
    testImplementation 'junit:junit:4.13.2'
}

tasks.register('harvestReport') {
    doLast { println 'pears counted' }
}
"""

PIPELINE = """pipeline {
    agent any
    stages {
        stage('Press cider') { steps { sh './press.sh' } }
    }
}
"""

GAFFER = """appender("ORCHARD", ConsoleAppender) {
    encoder(PatternLayoutEncoder) { pattern = "%level %msg%n" }
}
root(INFO, ["ORCHARD"])
"""

MANUAL = """<html><body>
<h2>The cider press appender</h2>
<p>The cider press appender squeezes every pear event into a bottle and sends the bottle by email
when an error is logged.</p>
</body></html>
"""

PRESS = """package org.orchard;

/** Squeezes pear events into bottles and mails the bottle when an error is logged. */
public class CiderPressAppender {
    public void append(String pearEvent) {
        bottle.add(pearEvent);
    }
}
"""

TEMPLATE = """<form action="/press">
  <input name="pears">
  <button>Press the cider</button>
</form>
"""

FILES = {
    "orchard-core/build.gradle": GRADLE,
    "Jenkinsfile": PIPELINE,
    "src/test/resources/orchard.groovy": GAFFER,
    "orchard-site/src/site/pages/manual/appenders.html": MANUAL,
    "docs/press.html": MANUAL.replace("cider press", "cider mill"),
    "src/main/java/org/orchard/package.html": "<body>The orchard's appenders: cider presses.</body>\n",
    "src/main/java/org/orchard/CiderPressAppender.java": PRESS,
    "web/templates/press.html": TEMPLATE,
}


def test_groovy_and_gradle_are_code():
    assert language_of("orchard-core/build.gradle") == "groovy" == language_of("settings.gradle")
    assert language_of("src/orchard.groovy") == "groovy" == language_of("ci/Jenkinsfile")
    assert language_for("bin/press", b"#!/usr/bin/env groovy\nprintln 'pears'\n") == "groovy"
    assert "groovy" not in DOC_LANGUAGES
    assert language_of("build.gradle.kts") == "kotlin"  # the Kotlin DSL stays Kotlin


def test_search_code_finds_a_gradle_task_and_a_pipeline(tmp_path):
    service = indexed_service(FILES, tmp_path)
    found = [c.metadata.filePath for c in service.search_code("harvestReport task", limit=3).chunks]
    assert found[0] == "orchard-core/build.gradle"
    found = [c.metadata.filePath for c in service.search_code("Press cider stage", limit=3).chunks]
    assert found[0] == "Jenkinsfile"


def test_html_pages_of_a_documentation_folder_are_documentation():
    for path in (
        "orchard-site/src/site/pages/manual/appenders.html",
        "docs/press.html",
        "doc/index.html",
        "src/main/java/org/orchard/package.html",
        "src/overview.html",
    ):
        assert language_for(path, MANUAL.encode()) == "htmldoc", path
    assert "htmldoc" in DOC_LANGUAGES
    # HTML elsewhere (a web application's templates, a test's input) stays HTML, and code.
    for path in ("web/templates/press.html", "src/test/resources/page.html", "index.html", "website/a.html"):
        assert language_for(path, TEMPLATE.encode()) == "html", path
    assert "html" not in DOC_LANGUAGES


def test_the_manual_no_longer_ranks_above_the_code(tmp_path):
    service = indexed_service(FILES, tmp_path)
    code = [c.metadata.filePath for c in service.search_code("send pear events by email", limit=5).chunks]
    assert code[0] == "src/main/java/org/orchard/CiderPressAppender.java"
    assert not [path for path in code if path.endswith("appenders.html") or path.startswith("docs/")]
    assert "web/templates/press.html" in [
        c.metadata.filePath for c in service.search_code("press the cider form", limit=5).chunks
    ]
    docs = [c.metadata.filePath for c in service.search_docs("cider press appender email", limit=5).chunks]
    assert "orchard-site/src/site/pages/manual/appenders.html" in docs


def test_an_index_made_before_reads_them_again(tmp_path):
    was_text = "UPDATE files SET language = 'text' WHERE path LIKE '%.gradle' OR path = 'Jenkinsfile'"
    report, reopened, _ = reindexed_from_before(GROOVY_FILES, FILES, tmp_path, was_text)
    again = set(report.changed_paths)
    assert {"orchard-core/build.gradle", "Jenkinsfile", "src/test/resources/orchard.groovy"} <= again
    assert "src/main/java/org/orchard/CiderPressAppender.java" not in again
    assert reopened.file("orchard-core/build.gradle").language == "groovy"  # type: ignore[union-attr]


def test_an_index_made_before_reads_html_pages_again(tmp_path):
    was_html = "UPDATE files SET language = 'html' WHERE path LIKE '%.html'"
    report, reopened, _ = reindexed_from_before(HTML_DOC_PAGES, FILES, tmp_path, was_html)
    again = set(report.changed_paths)
    assert {"docs/press.html", "orchard-site/src/site/pages/manual/appenders.html"} <= again
    assert "src/main/java/org/orchard/CiderPressAppender.java" not in again
    assert reopened.file("docs/press.html").language == "htmldoc"  # type: ignore[union-attr]
    assert reopened.file("web/templates/press.html").language == "html"  # type: ignore[union-attr]
