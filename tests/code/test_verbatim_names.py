"""A name a sentence writes out that nothing defines (an environment variable, an option's key) is
looked for where it is written."""

from __future__ import annotations

from pramana.code.search import rank
from tests.code.conftest import indexed_service

# The logger's level setters share every word of the question but the variable's name.
LOGGER = """\
#pragma once
namespace acme {
class logger {
 public:
  // Set the level of this logger: messages below it are dropped.
  void set_level(level::level_enum log_level) { level_ = log_level; }
  // The level of this logger.
  level::level_enum level() const { return level_; }
  // Set the level at which to flush the log.
  void flush_on(level::level_enum log_level) { flush_level_ = log_level; }
  // Set the log level of every logger.
  static void set_global_level(level::level_enum log_level);
 private:
  level::level_enum level_;
  level::level_enum flush_level_;
};
}  // namespace acme
"""

ENVIRONMENT = """\
#pragma once
#include <cstdlib>
namespace acme {
namespace cfg {
// Read ACME_LOG_LEVEL, e.g. "info" or "warn,net=debug".
inline void load_environment() {
  const char *value = std::getenv("ACME_LOG_LEVEL");
  if (value != nullptr) {
    apply(value);
  }
}
}  // namespace cfg
}  // namespace acme
"""


def test_a_written_name_is_a_constant_in_capitals_and_underscores():
    assert rank.written_name("SPDLOG_LEVEL") and rank.written_name("BATS_LIB_PATH")
    assert not any(map(rank.written_name, ["html_input", "JavaScript", "_PRIVATE", "HTTP"]))


def test_a_chunk_holding_the_variable_a_sentence_writes_out_comes_first(tmp_path):
    files = {"include/acme/logger.h": LOGGER, "include/acme/cfg/environment.h": ENVIRONMENT}
    service = indexed_service(files, tmp_path)
    found = service.search_code("set log levels from the ACME_LOG_LEVEL environment variable", limit=5).chunks
    paths = [c.metadata.filePath for c in found]
    assert paths and paths[0] == "include/acme/cfg/environment.h", paths
    # A name that something defines is asked for as before: its definition, not where it is written.
    defined = service.search_code("where is set_global_level declared", limit=5).chunks
    assert defined and defined[0].metadata.filePath == "include/acme/logger.h"
