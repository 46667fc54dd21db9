"""Objective-C: `.h` headers told from C's and C++'s by their content, classes split over a header,
an implementation and categories, methods found by their selector's first part, their whole
selector or `-[Class selector]`, and an index made before Objective-C was parsed read again."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import APPLE_ENUMS, OBJC_FILES, OBJC_OWNERLESS
from pramana.code.languages import language_for
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

HEADER = """\
#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

@class SHShelf;

/** Told when a shelf view finishes loading. */
@protocol SHShelfViewDelegate <NSObject>
- (void)shelfViewDidLoad:(SHShelf *)shelf;
@optional
- (BOOL)shelfView:(SHShelf *)shelf shouldOpenURL:(NSURL *)url;
@end

/** A view that shows one shelf of books. */
@interface SHShelfView : UIView
@property (nonatomic, weak, nullable) id<SHShelfViewDelegate> delegate;
@property (nonatomic, copy) NSString *title;
- (instancetype)initWithFrame:(CGRect)frame style:(NSInteger)style;
+ (CGFloat)rowHeight;
@end

NS_ASSUME_NONNULL_END
"""

IMPLEMENTATION = """\
#import "SHShelfView.h"

@implementation SHShelfView

- (instancetype)initWithFrame:(CGRect)frame style:(NSInteger)style {
    self = [super initWithFrame:frame];
    if (self) {
        [self layoutBadge];
    }
    return self;
}

+ (CGFloat)rowHeight {
    return 44.0;
}

@end

@interface SHShelfView (Badge)
- (void)layoutBadge;
@end

@implementation SHShelfView (Badge)

- (void)layoutBadge {
    self.title = [self.title uppercaseString];
}

@end
"""


def test_an_objective_c_header_is_objective_c_and_c_and_cpp_headers_stay_what_they_were():
    assert language_for("ios/SHShelfView.h", HEADER.encode()) == "objc"
    assert language_for("ios/SHPlugin.h", b"#import <Foundation/Foundation.h>\n") == "objc"
    assert language_for("ios/Bridge.h", b"#include <stdint.h>\n@protocol SHBridge\n@end\n") == "objc"
    c_header = (
        b"/**\n * @interface a Doxygen word in a comment.\n */\n#include <stddef.h>\nint uv_run(void);\n"
    )
    assert language_for("include/uv.h", c_header) == "c"
    cpp_header = b"#pragma once\n#include <string>\nnamespace fmt {\nclass format_error;\n}\n"
    assert language_for("include/fmt/base.h", cpp_header) == "cpp"
    assert language_for("src/ring.c", b"#import <x.h>\n") == "c"  # only a header is told by its content


def test_a_header_declares_protocols_classes_methods_and_properties():
    assert symbol_rows("ios/SHShelfView.h", "objc", HEADER) == {
        ("interface", None, "SHShelfViewDelegate", 8, 12),
        ("method", "SHShelfViewDelegate", "shelfViewDidLoad", 9, 9),
        ("method", "SHShelfViewDelegate", "shelfView", 11, 11),
        ("class", None, "SHShelfView", 15, 20),
        ("method", "SHShelfView", "delegate", 16, 16),
        ("method", "SHShelfView", "title", 17, 17),
        ("method", "SHShelfView", "initWithFrame", 18, 18),
        ("method", "SHShelfView", "rowHeight", 19, 19),
    }


def test_a_categorys_methods_are_filed_under_its_class():
    rows = symbol_rows("ios/SHShelfView.m", "objc", IMPLEMENTATION)
    assert rows == {
        ("class", None, "SHShelfView", 3, 17),
        ("method", "SHShelfView", "initWithFrame", 5, 11),
        ("method", "SHShelfView", "rowHeight", 13, 15),
        ("method", "SHShelfView", "layoutBadge", 20, 20),
        ("method", "SHShelfView", "layoutBadge", 25, 27),
    }  # no class named after the category `Badge`


@pytest.fixture(scope="module")
def shelf(tmp_path_factory) -> CodeService:
    files = {"ios/SHShelfView.h": HEADER, "ios/SHShelfView.m": IMPLEMENTATION}
    return indexed_service(files, tmp_path_factory.mktemp("objc"))


@pytest.mark.parametrize(
    "query",
    [
        "initWithFrame",
        "initWithFrame:style:",
        "SHShelfView.initWithFrame",
        "-[SHShelfView initWithFrame:style:]",
    ],
)
def test_a_method_is_found_by_its_selector_as_users_write_it(shelf, query):
    explained = shelf.explain_code(query)
    definitions = [explained.definition, *explained.otherDefinitions]
    found = sorted((d.filePath, d.startLine, d.endLine) for d in definitions if d is not None)
    assert found == [("ios/SHShelfView.h", 18, 18), ("ios/SHShelfView.m", 5, 11)]
    assert explained.code is not None and "[super initWithFrame:frame]" in explained.code.content


def test_list_functions_and_usages_of_a_category_method(shelf):
    listed = shelf.list_functions("ios/SHShelfView.m")
    assert {(s.kind, s.parent, s.name) for s in listed.symbols} == {
        ("class", None, "SHShelfView"),
        ("method", "SHShelfView", "initWithFrame"),
        ("method", "SHShelfView", "rowHeight"),
        ("method", "SHShelfView", "layoutBadge"),
    }
    assert {s.language for s in listed.symbols} == {"objc"}
    assert shelf.list_functions("ios/SHShelfView.h").symbols[0].language == "objc"
    usages = shelf.find_usages("layoutBadge", limit=10)
    assert [(u.filePath, u.line, u.kind) for u in usages.usages] == [("ios/SHShelfView.m", 8, "call")]
    assert shelf.find_usages("-[SHShelfView layoutBadge]").name == "layoutBadge"


def test_an_index_made_before_reads_objective_c_files_again(tmp_path):
    files = {
        "ios/SHShelfView.h": HEADER,
        "ios/SHShelfView.m": IMPLEMENTATION,
        # Not a C or Rust file beside them: C_OPAQUE_STRUCTS and RUST_ATTRIBUTES, later migrations,
        # read those again.
        "src/ring.go": "package ring\n\nfunc Ring() int { return 1 }\n",
        "tools/gen.py": "def gen():\n    pass\n",
    }
    # As the index was before: the header a C one, the implementation text without symbols.
    before = (
        "UPDATE files SET language = 'c' WHERE path = 'ios/SHShelfView.h'",
        "UPDATE files SET language = 'text' WHERE path = 'ios/SHShelfView.m'",
        "DELETE FROM symbols WHERE file_id IN (SELECT id FROM files WHERE path LIKE 'ios/%')",
    )
    report, reopened, root = reindexed_from_before(OBJC_FILES, files, tmp_path, *before)
    assert sorted(report.changed_paths) == ["ios/SHShelfView.h", "ios/SHShelfView.m"]
    service = CodeService(reopened, root)
    found = service.explain_code("SHShelfView.rowHeight").definition
    assert found is not None and (found.filePath, found.startLine) == ("ios/SHShelfView.m", 13)
    assert {s.language for s in service.list_functions("ios/SHShelfView.h").symbols} == {"objc"}


PARSER = """\
#import "SHParser.h"

@implementation SHParser

#define SH_MAX_DEPTH 8

BOOL SHReadChar(const char **input, char c)
{
  if (**input == c) {
    (*input)++;
    return YES;
  }
  return NO;
}

- (instancetype)initWithText:(NSString *)text
{
  self = [super init];
  return self;
}

@end
"""

MODULE = """\
#import <Foundation/Foundation.h>

@protocol SHModule <NSObject>

#define SH_EXPORT_MODULE(name) \\
  + (NSString *)moduleName { return @#name; }

@property (nonatomic, weak, readonly) SHBridge *bridge SH_DEPRECATED;
@property (nonatomic) UIColor *tint API_AVAILABLE(ios(13.0)) NS_SWIFT_NAME(tintColor);
@property (nonatomic, assign, readonly) NSUInteger FPS;
- (void)start;

@end
"""


def test_c_functions_and_macros_inside_an_implementation_or_a_protocol_belong_to_no_class():
    assert symbol_rows("ios/SHParser.m", "objc", PARSER) == {
        ("class", None, "SHParser", 3, 22),
        ("macro", None, "SH_MAX_DEPTH", 5, 5),
        ("function", None, "SHReadChar", 7, 14),
        ("method", "SHParser", "initWithText", 16, 20),
    }
    assert ("macro", None, "SH_EXPORT_MODULE", 5, 6) in symbol_rows("ios/SHModule.h", "objc", MODULE)


def test_a_property_is_named_by_its_declarator_not_the_macros_after_it():
    rows = symbol_rows("ios/SHModule.h", "objc", MODULE)
    assert {(name, line) for kind, parent, name, line, _ in rows if parent == "SHModule"} == {
        ("bridge", 8),
        ("tint", 9),
        ("FPS", 10),  # a name in capitals without an underscore or arguments is no macro
        ("start", 11),
    }


def test_an_index_made_before_reads_objective_c_again_for_its_ownerless_functions(tmp_path):
    files = {
        "ios/SHParser.m": PARSER,
        "ios/SHModule.h": MODULE,
        "src/ring.go": "package ring\n\nfunc Ring() int { return 1 }\n",  # not C or Rust: read again later
    }
    # As the index was before: SHReadChar a method of SHParser.
    before = ("UPDATE symbols SET kind = 'method', parent = 'SHParser' WHERE name = 'SHReadChar'",)
    report, reopened, root = reindexed_from_before(OBJC_OWNERLESS, files, tmp_path, *before)
    assert sorted(report.changed_paths) == ["ios/SHModule.h", "ios/SHParser.m"]
    listed = CodeService(reopened, root).list_functions("ios/SHParser.m").symbols
    assert [(s.kind, s.parent) for s in listed if s.name == "SHReadChar"] == [("function", None)]


KINDS_HEADER = """\
#import <Foundation/Foundation.h>

/** How a shelf is laid out. */
typedef NS_ENUM(NSInteger, SHShelfLayout) {
  SHShelfLayoutGrid,
  SHShelfLayoutList,
};

typedef NS_OPTIONS(NSUInteger, SHShelfEdges) {
  SHShelfEdgeTop = 1 << 0,
  SHShelfEdgeBottom = 1 << 1,
} NS_SWIFT_NAME(ShelfEdges);

typedef NS_CLOSED_ENUM(NSInteger, SHShelfState) { SHShelfStateIdle, SHShelfStateBusy };
typedef NS_ERROR_ENUM(SHShelfErrorDomain, SHShelfError) { SHShelfErrorMissing = 1 };
typedef CF_ENUM(int, SHShelfColor) { SHShelfColorRed };

@interface SHShelf : NSObject
@property (nonatomic) SHShelfLayout layout;
- (void)reload;
@end
"""

SHELF_ENUMS = {
    ("type", None, "SHShelfLayout", 4, 7),
    ("type", None, "SHShelfEdges", 9, 12),
    ("type", None, "SHShelfState", 14, 14),
    ("type", None, "SHShelfError", 15, 15),
    ("type", None, "SHShelfColor", 16, 16),
}


@pytest.mark.parametrize("path", ["ios/SHShelf.h", "ios/SHShelf.m"])
def test_apple_enum_macros_name_the_type_not_its_first_enumerator(path):
    rows = symbol_rows(path, "objc", KINDS_HEADER)
    assert rows >= SHELF_ENUMS
    names = {name for _, _, name, _, _ in rows}
    assert not names & {"SHShelfLayoutGrid", "SHShelfEdgeTop", "SHShelfStateIdle", "ShelfEdges", "NS_ENUM"}
    # The `@interface` after them is read whole.
    assert {("class", None, "SHShelf", 18, 21), ("method", "SHShelf", "reload", 20, 20)} <= rows


def test_an_apple_enum_is_found_by_its_name_with_its_doc(tmp_path):
    service = indexed_service({"ios/SHShelf.h": KINDS_HEADER}, tmp_path)
    found = service.explain_code("SHShelfLayout").definition
    assert found is not None and (found.filePath, found.startLine, found.kind) == ("ios/SHShelf.h", 4, "type")
    assert found.signature == "typedef NS_ENUM(NSInteger, SHShelfLayout) {"
    assert found.doc == "How a shelf is laid out."


def test_an_index_made_before_reads_files_with_apple_enums_again(tmp_path):
    files = {
        "ios/SHShelf.h": KINDS_HEADER,
        "ios/SHShelfView.m": IMPLEMENTATION,
        "src/ring.rs": "pub fn ring() {}\n",
    }
    # As the index was before: the enum named after its first enumerator.
    before = ("UPDATE symbols SET name = 'SHShelfLayoutGrid' WHERE name = 'SHShelfLayout'",)
    report, reopened, root = reindexed_from_before(APPLE_ENUMS, files, tmp_path, *before)
    assert sorted(report.changed_paths) == ["ios/SHShelf.h"]
    found = CodeService(reopened, root).explain_code("SHShelfLayout").definition
    assert found is not None and (found.filePath, found.startLine) == ("ios/SHShelf.h", 4)
