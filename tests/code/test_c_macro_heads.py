"""C and C++ functions behind macros the grammar cannot know: export and inline macros before a return
type or between it and the name, annotations after the parameter list. Each is named as written, with
its class; statements, casts and macro calls that look alike stay as they were."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import C_MACRO_HEADS
from pramana.code.parse.syntax import SyntaxReader
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

# A header-only library's implementation file (`X-inl.h` beside the `X.h` that declares).
INLINE_IMPL = """\
#pragma once

namespace acme {
namespace clock {

ACME_INLINE std::tm local_time(const std::time_t &when) ACME_NOEXCEPT
{
    std::tm parts;
    ::localtime_r(&when, &parts);
    return parts;
}

ACME_INLINE acme::wall::time_point now() ACME_NOEXCEPT
{
    return acme::wall::now();
}

std::string ACME_INLINE read_env(const char *key)
{
    const char *found = std::getenv(key);
    return found ? found : "";
}

ACME_INLINE std::shared_ptr<recorder> registry::find(const std::string &name)
{
    return recorders_[name];
}

template<typename Lock>
void ACME_INLINE acme::sinks::file_sink<Lock>::flush()
{
    std::lock_guard<Lock> hold(lock_);
    flush_();
}

ACME_INLINE acme::recorder::recorder(std::string name) : name_(std::move(name))
{
}

} // namespace clock
} // namespace acme
"""

# A class whose methods carry thread-safety annotations and exception macros, one on a line of its own.
ANNOTATED = """\
class ACME_API Table {
 public:
  Table(Table &&other) ACME_NOEXCEPT;
  int size() const ACME_NOEXCEPT override;
  bool Insert(const std::string &key) LOCKS_EXCLUDED(mu_);
  Status Recover(Edit *edit, bool *save)
      EXCLUSIVE_LOCKS_REQUIRED(mu_);
  ACME_API Node Load(const std::string &text);

 private:
  std::mutex mu_;
};

bool Table::Insert(const std::string &key) LOCKS_EXCLUDED(mu_) {
  return true;
}
"""

# An export macro before the type, a calling-convention macro between type and name: C as Windows
# code writes it, where the all-capitals words before a name are types as often as macros.
WINDOWS_C = """\
static DWORD WINAPI pump_thread(void *arg) {
  return 0;
}

static BOOL load_function(SOCKET sock, GUID guid) {
  return TRUE;
}

EXPORT_API int open_device(const char *path) {
  return 0;
}
"""


def test_functions_behind_inline_and_noexcept_macros_are_named_as_written():
    parsed = symbol_rows("clock-inl.h", "cpp", INLINE_IMPL)
    rows = {(kind, parent, name) for kind, parent, name, _, _ in parsed}
    assert {
        ("function", None, "local_time"),
        ("function", None, "now"),
        ("function", None, "read_env"),
        ("method", "registry", "find"),
        ("method", "acme::sinks::file_sink", "flush"),
        ("method", "acme::recorder", "recorder"),
    } <= rows
    assert not [row for row in rows if " " in row[2] or row[2].isupper()], rows


def test_annotations_after_the_parameters_leave_the_methods_their_names():
    rows = {(kind, parent, name) for kind, parent, name, _, _ in symbol_rows("table.h", "cpp", ANNOTATED)}
    names = {name for _, _, name in rows}
    assert {"Table", "size", "Insert", "Recover", "Load"} <= names
    assert not names & {"ACME_NOEXCEPT", "LOCKS_EXCLUDED", "EXCLUSIVE_LOCKS_REQUIRED", "override"}
    assert ("method", "Table", "Recover") in rows and ("method", "Table", "Insert") in rows


def test_c_functions_returning_capitalised_types_keep_their_names():
    names = {name for _, _, name, _, _ in symbol_rows("src/win/pump.c", "c", WINDOWS_C)}
    assert {"pump_thread", "load_function", "open_device"} <= names


@pytest.mark.parametrize(
    "source",
    [
        "int main(void) {\n  if (err) RETURN_ERROR(err);\n  return 0;\n}\n",
        "void *data(struct msghdr *h) {\n  void *p = (void*) CMSG_DATA(h);\n  return p;\n}\n",
        'const char *both(void) {\n  return "a"\n      XCS("b") XCS("c");\n}\n',
        '// The empty pattern (aka "(?:)")\nTEST(EmptyString, Matches) {\n  check("");\n}\n',
        "const RE2 &pattern(int id) const { return *patterns_[id]; }\n",
        "#define LOAD(name) \\\n  name##_fn = lookup(lib, #name)\n  LOAD(InitLock);\n",
    ],
    ids=["statement", "cast", "string-macros", "comment-then-macro", "capitalised-type", "macro-body"],
)
def test_the_masks_leave_statements_casts_and_macro_calls_alone(source):
    reader = SyntaxReader("src/f.cc", "cpp", "root", source)
    reader._parse()
    assert reader.parsed_source == source.encode()


def test_find_definition_and_list_functions_know_an_inline_implementation(tmp_path):
    files = {"include/acme/clock-inl.h": INLINE_IMPL, "include/acme/table.h": ANNOTATED}
    service = indexed_service(files, tmp_path)
    listed = [s.name for s in service.list_functions("include/acme/clock-inl.h").symbols]
    assert listed[:3] == ["local_time", "now", "read_env"]
    found = service.explain_code("local_time").definition
    assert found is not None and found.filePath == "include/acme/clock-inl.h" and found.startLine == 6
    assert service.explain_code("Table.Recover").definition is not None


def test_an_index_made_before_reads_its_c_and_cpp_again(tmp_path):
    files = {
        "include/acme/clock-inl.h": INLINE_IMPL,
        "src/pump.c": WINDOWS_C,
        "tools/gen.py": "def gen():\n    pass\n",
    }
    report, reopened, root = reindexed_from_before(C_MACRO_HEADS, files, tmp_path)
    assert sorted(report.changed_paths) == ["include/acme/clock-inl.h", "src/pump.c"]
    listed = {s.name for s in CodeService(reopened, root).list_functions("include/acme/clock-inl.h").symbols}
    assert {"local_time", "now", "read_env"} <= listed
