"""What issue 28's twenty-third held-out set (logback, Asio, Catch2, Pillow) showed, on snippets of our
own: Groovy was text (documentation, left out of search_code), so Gradle's build scripts, Jenkins
pipelines and Groovy sources could not be found; and the HTML pages of a documentation site (logback's
manual) ranked among the code. Perl, R, Erlang, Fortran and Clojure were text as well."""

from __future__ import annotations

from pramana.code.index.tables import GROOVY_FILES, HTML_DOC_PAGES, PERL_R_ERLANG_FORTRAN_CLOJURE
from pramana.code.languages import DOC_LANGUAGES, language_for, language_of
from pramana.code.search.paths import TEST, path_kinds
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
    assert language_of("orchard-core/build.gradle") == "gradle" == language_of("settings.gradle")
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
    assert reopened.file("orchard-core/build.gradle").language == "gradle"  # type: ignore[union-attr]


def test_an_index_made_before_reads_html_pages_again(tmp_path):
    was_html = "UPDATE files SET language = 'html' WHERE path LIKE '%.html'"
    report, reopened, _ = reindexed_from_before(HTML_DOC_PAGES, FILES, tmp_path, was_html)
    again = set(report.changed_paths)
    assert {"docs/press.html", "orchard-site/src/site/pages/manual/appenders.html"} <= again
    assert "src/main/java/org/orchard/CiderPressAppender.java" not in again
    assert reopened.file("docs/press.html").language == "htmldoc"  # type: ignore[union-attr]
    assert reopened.file("web/templates/press.html").language == "html"  # type: ignore[union-attr]


WINDOWED = {
    "lib/Orchard/Press.pm": (
        "package Orchard::Press;\nsub squeeze_pears {\n    my ($basket) = @_;\n    return 1;\n}\n1;\n"
    ),
    "t/press.t": (
        "use Test::More;\nuse Orchard::Press;\nok(Orchard::Press::squeeze_pears([]));\ndone_testing;\n"
    ),
    "bin/press-all": '#!/usr/bin/perl\nuse strict;\nprint "pressing every basket\\n";\n',
    "R/yield.R": "orchard_yield <- function(trees, pears_per_tree) {\n  trees * pears_per_tree\n}\n",
    "src/orchard_press.erl": (
        "-module(orchard_press).\n-export([bottle_cider/1]).\nbottle_cider(Pears) -> {ok, Pears}.\n"
    ),
    "test/orchard_press_SUITE.erl": "-module(orchard_press_SUITE).\nall() -> [bottle].\n",
    "src/ripeness.f90": "subroutine ripeness_index(sugar, acid, index)\n  real :: sugar, acid, index\n"
    "  index = sugar / acid\nend subroutine ripeness_index\n",
    "src/orchard/grafting.clj": (
        "(ns orchard.grafting)\n(defn graft-scion [rootstock scion]\n  [rootstock scion])\n"
    ),
}


def test_perl_r_erlang_fortran_and_clojure_are_code():
    expected = {
        "lib/Orchard/Press.pm": "perl",
        "t/press.t": "perl",
        "R/yield.R": "r",
        "src/orchard_press.erl": "erlang",
        "include/orchard.hrl": "erlang",
        "src/ripeness.f90": "fortran",
        "legacy/sweet.f": "fortran",
        "src/orchard/grafting.clj": "clojure",
        "src/app.cljs": "clojure",
    }
    for path, language in expected.items():
        assert language_of(path) == language, path
    assert language_for("bin/press-all", WINDOWED["bin/press-all"].encode()) == "perl"
    assert language_for("run", b"#!/usr/bin/env Rscript\nprint(1)\n") == "r"
    assert language_for("tool", b"#!/usr/bin/env escript\nmain(_) -> ok.\n") == "erlang"
    assert not {"perl", "r", "erlang", "fortran", "clojure"} & DOC_LANGUAGES
    assert language_of("docs/Press.pod") == "text"  # Perl's documentation stays documentation
    # Each ecosystem's tests are tests.
    assert TEST in path_kinds("t/press.t") and TEST in path_kinds("test/orchard_press_SUITE.erl")
    assert TEST in path_kinds("src/orchard/grafting_test.clj") and TEST in path_kinds("src/x_tests.erl")
    assert TEST not in path_kinds("lib/Orchard/Press.pm")


def test_search_code_finds_each_windowed_language(tmp_path):
    service = indexed_service(WINDOWED, tmp_path)
    for query, path in (
        ("squeeze_pears", "lib/Orchard/Press.pm"),
        ("orchard_yield function", "R/yield.R"),
        ("bottle_cider", "src/orchard_press.erl"),
        ("ripeness_index subroutine", "src/ripeness.f90"),
        ("graft-scion rootstock", "src/orchard/grafting.clj"),
        ("pressing every basket", "bin/press-all"),
    ):
        found = [c.metadata.filePath for c in service.search_code(query, limit=3).chunks]
        assert found and found[0] == path, (query, found)


def test_an_index_made_before_reads_the_windowed_languages_again(tmp_path):
    was_text = (
        "UPDATE files SET language = 'text' WHERE path LIKE '%.pm' OR path LIKE '%.R' OR path LIKE 'bin/%'"
    )
    report, reopened, _ = reindexed_from_before(PERL_R_ERLANG_FORTRAN_CLOJURE, WINDOWED, tmp_path, was_text)
    again = set(report.changed_paths)
    assert {"lib/Orchard/Press.pm", "R/yield.R", "bin/press-all"} <= again
    assert "src/orchard_press.erl" not in again  # its language was right already
    assert reopened.file("lib/Orchard/Press.pm").language == "perl"  # type: ignore[union-attr]
    assert reopened.file("bin/press-all").language == "perl"  # type: ignore[union-attr]
