"""Objective-C++ (`.mm`): read by the Objective-C grammar once its C++ is blanked (namespace heads,
`using`, template heads, `::` qualifiers, casts, references, `auto`; a lambda's capture list read as a
block), so that its classes, methods and functions are symbols and a namespace is no function."""

from __future__ import annotations

from pramana.code.index.tables import OBJCPP_FILES
from pramana.code.service import CodeService
from tests.code.conftest import reindexed_from_before, symbol_rows

BRIDGE = """\
#import "SHBridge.h"

#include <memory>
#include <string>

using namespace sh::core;

namespace sh {
namespace detail {

static std::string SHTrimmed(const std::string &text)
{
  auto start = text.find_first_not_of(' ');
  return text.substr(start);
}

template <typename T>
T SHTwice(T value)
{
  return value + value;
}

} // namespace detail
} // namespace sh

extern "C" void SHLogMessage(NSString *message)
{
  auto print = [&](int level) { NSLog(@"%d %@", level, message); };
  print(static_cast<int>(1));
}

@interface SHBridge ()
@property (nonatomic, assign) int depth;
@end

@implementation SHBridge {
  std::shared_ptr<sh::core::Runtime> _runtime;
}

- (instancetype)initWithRuntime:(std::shared_ptr<sh::core::Runtime>)runtime delegate:(id)delegate
{
  if (self = [super init]) {
    _runtime = std::move(runtime);
  }
  return self;
}

- (void)updateState:(const sh::core::State &)state oldState:(const sh::core::State &)oldState
{
  std::vector<int> values;
  _depth = static_cast<int>(values.size());
}

@end
"""


def test_objective_c_plus_plus_gives_classes_methods_and_functions_and_no_namespace_function():
    rows = symbol_rows("ios/SHBridge.mm", "objcpp", BRIDGE)
    found = {(kind, parent, name) for kind, parent, name, _, _ in rows}
    assert {
        ("function", None, "SHTrimmed"),
        ("function", None, "SHTwice"),
        ("function", None, "SHLogMessage"),
        ("class", None, "SHBridge"),
        ("method", "SHBridge", "initWithRuntime"),
        ("method", "SHBridge", "updateState"),
    } <= found
    # The Objective-C grammar alone reads `namespace sh {` as a function named `namespace`/`sh`.
    assert not {name for _, _, name in found} & {"namespace", "sh", "detail", "using", "template", "std"}
    lines = {name: (start, end) for kind, _, name, start, end in rows if kind in ("function", "method")}
    assert lines["SHTrimmed"] == (11, 15)  # masks keep every line where it was
    assert lines["updateState"] == (48, 52)


def test_the_masks_are_what_finds_them():
    rows = symbol_rows("ios/SHBridge.m", "objc", BRIDGE)
    unmasked = {(kind, parent, name) for kind, parent, name, _, _ in rows}
    assert ("function", None, "SHTrimmed") not in unmasked  # C++ hides it from the Objective-C grammar


def test_an_index_made_before_reads_objective_c_plus_plus_files_again(tmp_path):
    files = {
        "ios/SHBridge.mm": BRIDGE,
        "ios/SHModule.m": MODULE,
        "src/ring.go": "package ring\n\nfunc Ring() int { return 1 }\n",  # not C or Rust: read again later
    }
    # As the index was before: the `.mm` text without symbols, the exported method a function.
    before = (
        "UPDATE symbols SET kind = 'function', parent = NULL, name = 'reject' WHERE name = 'openURL'",
        "UPDATE files SET language = 'text' WHERE path = 'ios/SHBridge.mm'",
        "DELETE FROM symbols WHERE file_id IN (SELECT id FROM files WHERE path = 'ios/SHBridge.mm')",
    )
    report, reopened, root = reindexed_from_before(OBJCPP_FILES, files, tmp_path, *before)
    assert sorted(report.changed_paths) == ["ios/SHBridge.mm", "ios/SHModule.m"]
    service = CodeService(reopened, root)
    found = service.explain_code("SHBridge.initWithRuntime").definition
    assert found is not None and (found.filePath, found.startLine) == ("ios/SHBridge.mm", 40)
    assert {s.language for s in service.list_functions("ios/SHBridge.mm").symbols} == {"objcpp"}
    listed = service.list_functions("ios/SHModule.m").symbols
    assert [(s.kind, s.parent) for s in listed if s.name == "openURL"] == [("method", "SHModule")]


MODULE = """\
#import "SHModule.h"

@implementation SHModule

SH_EXPORT_MODULE()

SH_EXPORT_METHOD(openURL:(nonnull NSURL *)url
                 resolve:(SHResolveBlock)resolve
                  reject:(SHRejectBlock)reject)
{
  [self open:url];
}

SH_EXPORT_METHOD(close : (double)delay)
{
  [self closeAfter:delay];
}

@end
"""


def test_a_macro_defining_a_method_from_a_selector_is_that_method():
    for path, language in (("ios/SHModule.m", "objc"), ("ios/SHModule.mm", "objcpp")):
        rows = symbol_rows(path, language, MODULE)
        assert {(kind, parent, name, start) for kind, parent, name, start, _ in rows} == {
            ("class", None, "SHModule", 3),
            ("method", "SHModule", "openURL", 7),
            ("method", "SHModule", "close", 14),
        }


CONVERTERS = """\
@implementation SHConvert

SH_ENUM_CONVERTER(
    SHShelfStyle,
    (@{
      @"plain" : @(SHShelfStylePlain),
      @"grouped" : @(SHShelfStyleGrouped),
    }),
    SHShelfStylePlain,
    integerValue)

+ (NSURL *)NSURL:(id)json
{
  SH_LOG(@"converting %@", json);
  return [NSURL URLWithString:json];
}

@end
"""


def test_a_macro_call_on_lines_of_its_own_is_not_a_function_head():
    rows = symbol_rows("ios/SHConvert.m", "objc", CONVERTERS)
    assert {(kind, parent, name, start) for kind, parent, name, start, _ in rows} == {
        ("class", None, "SHConvert", 1),
        ("method", "SHConvert", "NSURL", 12),
    }
