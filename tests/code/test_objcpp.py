"""Objective-C++ (`.mm`): read by the Objective-C grammar once its C++ is blanked (namespace heads,
`using`, template heads, `::` qualifiers, casts, references, `auto`; a lambda's capture list read as a
block), so that its classes, methods and functions are symbols and a namespace is no function; then
read again by C++'s grammar with its Objective-C blanked, for its C++ classes, their methods and
templates (Language.rereading)."""

from __future__ import annotations

import itertools

from pramana.code.index.tables import OBJCPP_CPP_READING, OBJCPP_FILES
from pramana.code.languages import BY_NAME
from pramana.code.parse import parse_file
from pramana.code.parse.syntax import SyntaxReader
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

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


# C++ classes, a template and namespaced functions beside an `@implementation`, and C functions whose
# bodies hold what C++'s grammar cannot read (sends, fast enumeration, a block, literals).
PLAYER = """\
#import "SHPlayer.h"

#include <string>

namespace sh {
namespace audio {

/// Mixes two channels into one.
class ChannelMixer {
 public:
  explicit ChannelMixer(float gain) : gain_(gain) {}

  float mix(float left, float right) const {
    return (left + right) * gain_;
  }

  void setGain(float gain);

 private:
  float gain_;
};

void ChannelMixer::setGain(float gain) {
  gain_ = gain;
}

template <typename Sample>
struct RingBuffer {
  Sample read(size_t index) const { return samples[index % 64]; }
  Sample samples[64];
};

float SHDecibels(float amplitude) {
  NSString *label = @"decibels";
  [SHLog note:label value:@(amplitude)];
  return 20.0f * log10f(amplitude);
}

}  // namespace audio
}  // namespace sh

static NSArray<NSString *> *SHChannelNames(NSDictionary *info)
{
  NSMutableArray *names = [NSMutableArray new];
  for (NSString *key in [info allKeys]) {
    dispatch_async(dispatch_get_main_queue(), ^{
      [names addObject:[[key uppercaseString] stringByAppendingString:@"!"]];
    });
  }
  if (@available(iOS 13.0, *)) {
    return @[ @"left", @"right" ];
  }
  return names;
}

static BOOL SHIsMuted(float gain)
{
  return gain == 0;
}

@interface SHPlayer ()
@property (nonatomic, assign) float volume;
@end

@implementation SHPlayer {
  sh::audio::ChannelMixer *_mixer;
}

- (void)playLeft:(float)left right:(float)right
{
  float sample = _mixer->mix(left, right);
  [self.output write:sample];
}

@end
"""
PLAYER_OBJC = {
    ("class", None, "SHPlayer", 61, 63),
    ("method", "SHPlayer", "volume", 62, 62),
    ("class", None, "SHPlayer", 65, 75),
    ("method", "SHPlayer", "playLeft", 69, 73),
}


def test_cpp_classes_their_methods_and_templates_in_objective_c_plus_plus_are_symbols():
    assert symbol_rows("ios/SHPlayer.mm", "objcpp", PLAYER) == {
        ("class", None, "ChannelMixer", 9, 21),
        ("method", "ChannelMixer", "ChannelMixer", 11, 11),
        ("method", "ChannelMixer", "mix", 13, 15),
        ("method", "ChannelMixer", "setGain", 17, 17),  # declared in the class, defined below it
        ("method", "ChannelMixer", "setGain", 23, 25),
        ("class", None, "RingBuffer", 27, 31),  # its `template <...>` line with it
        ("method", "RingBuffer", "read", 29, 29),
        ("function", None, "SHDecibels", 33, 37),
        ("function", None, "SHChannelNames", 42, 54),
        ("function", None, "SHIsMuted", 56, 59),
        *PLAYER_OBJC,
    }


def test_the_objective_c_of_objective_c_plus_plus_is_read_as_before():
    objc = {row for row in symbol_rows("ios/SHPlayer.m", "objc", PLAYER) if "SHPlayer" in row}
    assert objc == PLAYER_OBJC  # the Objective-C grammar alone, on the same text


def test_each_line_of_objective_c_plus_plus_is_in_one_chunk_and_each_definition_named_once():
    chunks = parse_file("ios/SHPlayer.mm", "objcpp", "root", PLAYER).chunks
    spans = [(chunk.start_line, chunk.end_line) for chunk in chunks]
    assert spans == sorted(spans)
    assert all(end < start for (_, end), (start, _) in itertools.pairwise(spans))  # none overlaps another
    named = {(c.chunk_type, c.parent, c.name, c.start_line, c.end_line) for c in chunks if c.name}
    assert {
        ("class", None, "ChannelMixer", 8, 10),  # from its doc comment to its first members
        ("method", "ChannelMixer", "setGain", 23, 25),
        ("function", None, "SHDecibels", 33, 37),
        ("function", None, "SHChannelNames", 42, 54),
        ("method", "SHPlayer", "playLeft", 69, 73),
    } <= named
    assert PLAYER.splitlines()[7] == "/// Mixes two channels into one."


def test_cpp_reads_objective_c_plus_plus_without_an_error_once_its_objective_c_is_blanked():
    rereading = BY_NAME["objcpp"].rereading
    assert rereading is not None and rereading.language == "cpp"
    reader = SyntaxReader("ios/SHPlayer.mm", "cpp", "root", PLAYER, rereading.masks)
    (root,) = reader._parse()
    assert not root.has_error  # sends, `for (x in y)`, a block, `@available`, literals, the @ blocks
    assert len(reader.parsed_source) == len(PLAYER.encode())
    assert reader.parsed_source.count(b"\n") == PLAYER.count("\n")
    assert b"@" not in reader.parsed_source


# A fast enumeration whose `in` is on a line of its own: the masks miss it, and C++'s grammar runs the
# function on over the next one. The Objective-C reading's two functions stay.
MISREAD = """\
static NSArray *SHFirstNames(NSArray *people)
{
  for (SHPerson *person
       in people) {
    NSLog(@"%@", person.name);
  }
  return nil;
}

static BOOL SHIsEmpty(NSArray *items)
{
  return items.count == 0;
}

int SHTotal(const std::vector<int> &values)
{
  return (int)values.size();
}
"""


def test_a_cpp_reading_that_runs_over_the_next_function_is_not_taken():
    assert symbol_rows("ios/SHPeople.mm", "objcpp", MISREAD) == {
        ("function", None, "SHFirstNames", 1, 8),
        ("function", None, "SHIsEmpty", 10, 13),
        ("function", None, "SHTotal", 15, 18),
    }


def test_find_definition_and_list_functions_know_the_cpp_of_objective_c_plus_plus(tmp_path):
    service = indexed_service({"ios/SHPlayer.mm": PLAYER}, tmp_path)
    listed = service.list_functions("ios/SHPlayer.mm").symbols
    assert [(s.kind, s.parent, s.name, s.startLine) for s in listed if s.parent == "ChannelMixer"] == [
        ("method", "ChannelMixer", "ChannelMixer", 11),
        ("method", "ChannelMixer", "mix", 13),
        ("method", "ChannelMixer", "setGain", 17),
        ("method", "ChannelMixer", "setGain", 23),
    ]
    assert {s.language for s in listed} == {"objcpp"}
    found = service.explain_code("ChannelMixer").definition
    assert found is not None and found.kind == "class"
    assert (found.filePath, found.startLine) == ("ios/SHPlayer.mm", 9)
    mix = service.explain_code("ChannelMixer.mix").definition
    assert mix is not None and (mix.startLine, mix.endLine) == (13, 15)
    usages = service.find_usages("SHDecibels")
    assert [(d.filePath, d.startLine) for d in usages.definitions] == [("ios/SHPlayer.mm", 33)]
    play = service.explain_code("SHPlayer.playLeft").definition
    assert play is not None and play.startLine == 69


def test_an_index_made_before_the_cpp_reading_reads_objective_c_plus_plus_again(tmp_path):
    files = {"ios/SHPlayer.mm": PLAYER, "ios/SHModule.m": MODULE}
    # As the index was before: ChannelMixer unnamed, `ChannelMixer::setGain` a function of no class.
    before = (
        "DELETE FROM symbols WHERE parent IN ('ChannelMixer', 'RingBuffer')"
        " OR name IN ('ChannelMixer', 'RingBuffer')",
    )
    report, reopened, root = reindexed_from_before(OBJCPP_CPP_READING, files, tmp_path, *before)
    assert sorted(report.changed_paths) == ["ios/SHPlayer.mm"]  # not the `.m`
    found = CodeService(reopened, root).explain_code("ChannelMixer.setGain").definition
    assert found is not None and (found.filePath, found.startLine) == ("ios/SHPlayer.mm", 17)


MIXER_KINDS = """\
#import "SHMixer.h"

typedef NS_ENUM(NSInteger, SHMixMode) {
  SHMixModeStereo,
  SHMixModeMono,
};

class Fader {
 public:
  Fader(float level);
  float level() const { return level_; }
  void mute() { level_ = 0; }

 private:
  float level_;
};

@implementation SHMixer
- (SHMixMode)mode {
  return SHMixModeStereo;
}
@end
"""


def test_an_apple_enum_in_objective_c_plus_plus_is_one_type_named_by_the_macro():
    parsed = parse_file("ios/SHMixer.mm", "objcpp", "root", MIXER_KINDS)
    named = [
        (s.kind, s.name, s.start_line, s.end_line) for s in parsed.symbols if s.name.startswith("SHMixMode")
    ]
    assert named == [("type", "SHMixMode", 3, 6)]
    rows = {(s.kind, s.parent, s.name) for s in parsed.symbols}
    assert {("class", None, "Fader"), ("method", "Fader", "level"), ("class", None, "SHMixer")} <= rows
    assert ("method", "SHMixer", "mode") in rows
    spans = sorted((c.start_line, c.end_line) for c in parsed.chunks)
    assert all(b[0] > a[1] for a, b in itertools.pairwise(spans))
