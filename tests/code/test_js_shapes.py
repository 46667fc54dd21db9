"""JavaScript written before classes and in CommonJS: methods on a constructor's prototype, functions
exported through `exports` / `module.exports`, and class fields holding functions: what the structural
tools know of them."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import JS_ASSIGNMENTS
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before

QUEUE = """\
'use strict';

/**
 * A queue of jobs run one at a time.
 */
function Queue(limit) {
  this.limit = limit;
  this.jobs = [];
}

/**
 * Add a job; refuse it when the queue is full.
 */
Queue.prototype.push = function (job) {
  if (this.jobs.length >= this.limit) {
    throw new Error('full');
  }
  this.jobs.push(job);
};

Queue.prototype.drain = async function drain() {
  while (this.jobs.length) await this.jobs.shift()();
};

Queue.prototype.add = Queue.prototype.push;

Queue.create = function (limit) {
  return new Queue(limit);
};

Queue.prototype.size = Queue.prototype.length = function size() {
  return this.jobs.length;
};

module.exports = Queue;
"""

HELPERS = """\
exports.slug = str => str.toLowerCase().replace(/\\W+/g, '-');

exports.retry = function (fn, times) {
  return fn().catch(err => (times > 0 ? exports.retry(fn, times - 1) : Promise.reject(err)));
};

exports.retry.forever = function (fn) {
  return exports.retry(fn, Infinity);
};

module.exports.Timer = class Timer {
  start() { this.at = Date.now(); }
};

this.ignored = 1;
"""

LOOKUP = """\
const path = require('path');

module.exports = function lookupFiles(root, extensions) {
  return extensions.map(ext => path.join(root, `*${ext}`));
};
"""

ANONYMOUS = """\
module.exports = function (suites) {
  return suites.length;
};
"""

WORKER = """\
class Worker {
  #busy = false;
  static create = () => new Worker();
  handle = async job => {
    this.#busy = true;
    return job();
  };
  #finish = () => { this.#busy = false; };
  limit = 3;
}
module.exports = Worker;
"""


def symbols(text: str) -> list[tuple[str, str, str | None, bool]]:
    parsed = parse_file("lib/x.js", "javascript", "", text)
    return [(s.kind, s.name, s.parent, s.exported) for s in parsed.symbols]


def test_prototype_methods_belong_to_their_constructor_which_is_a_class():
    assert symbols(QUEUE) == [
        ("class", "Queue", None, False),
        ("method", "push", "Queue", False),
        ("method", "drain", "Queue", False),
        ("function", "create", "Queue", False),
        ("method", "size", "Queue", False),
        ("method", "length", "Queue", False),  # one function, two names: the chunk is size's
    ]  # `Queue.prototype.add = Queue.prototype.push` gives a name to a method, it defines none
    chunks = parse_file("lib/x.js", "javascript", "", QUEUE).chunks
    assert [c.name for c in chunks if c.chunk_type == "method"] == ["push", "drain", "size"]


def test_commonjs_exports_are_exported_top_level_definitions():
    assert symbols(HELPERS) == [
        ("function", "slug", None, True),
        ("function", "retry", None, True),
        ("function", "forever", "retry", True),
        ("class", "Timer", None, True),
        ("method", "start", "Timer", False),
    ]
    assert symbols(LOOKUP) == [("function", "lookupFiles", None, True)]
    assert symbols(ANONYMOUS) == []  # no name of its own: nothing to find it by


def test_class_fields_holding_functions_are_methods():
    assert [(kind, name, parent) for kind, name, parent, _ in symbols(WORKER)] == [
        ("class", "Worker", None),
        ("method", "create", "Worker"),
        ("method", "handle", "Worker"),
        ("method", "#finish", "Worker"),
    ]


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> CodeService:
    files = {"lib/queue.js": QUEUE, "lib/helpers.js": HELPERS, "lib/lookup.js": LOOKUP}
    return indexed_service(files, tmp_path_factory.mktemp("repo"))


def test_structural_tools_find_prototype_methods_and_exports(service):
    push = service.explain_code("Queue.push")
    assert push.definition is not None
    assert (push.definition.filePath, push.definition.parent, push.definition.startLine) == (
        "lib/queue.js", "Queue", 14,
    )  # fmt: skip
    assert push.definition.doc == "Add a job; refuse it when the queue is full."
    listed = service.list_functions("lib/queue.js").symbols
    assert [s.name for s in listed] == ["Queue", "push", "drain", "create", "size", "length"]
    retry = service.find_usages("retry")
    assert [(d.filePath, d.startLine) for d in retry.definitions] == [("lib/helpers.js", 3)]
    assert any(u.filePath == "lib/helpers.js" and u.kind == "call" for u in retry.usages)
    lookup = service.explain_code("lookupFiles")
    assert lookup.definition is not None and lookup.definition.filePath == "lib/lookup.js"


def test_an_index_made_before_reads_its_javascript_again(tmp_path):
    files = {"lib/queue.js": QUEUE, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, _ = reindexed_from_before(JS_ASSIGNMENTS, files, tmp_path)
    assert "lib/queue.js" in report.changed_paths
    assert "tools/gen.py" not in report.changed_paths
    assert CodeService(reopened, tmp_path / "repo").explain_code("Queue.push").definition is not None
