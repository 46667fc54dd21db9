"""Two kinds of file the rank reads apart from the code they name. A package's documentation written in
code (Rust's crate root `lib.rs` outside its definitions, Go's `doc.go`) names every part of the package
and does none of it: it weighs as a header's prototypes do, after the module that does what it names. A
command's script (`script/servo`) hands its work to the module it runs: that module follows the script."""

from __future__ import annotations

import pytest

from pramana.code.search import rank
from pramana.code.search.paths import command_module, is_command
from tests.code.conftest import indexed_service

# A crate root whose guide says every word of the query, and the module that does it in fewer words.
LIB_RS = """\
//! # acme
//!
//! A client that retries a failed request with exponential backoff: `retry` retries the request,
//! doubling the backoff after each failure; `store` keeps the answers.
//!
//! ```
//! let answer = acme::retry(|| fetch(), Backoff::default());
//! ```

pub mod retry;
pub mod store;

#[derive(Debug)]
pub struct Limits {
    pub tries: u32,
}

#[must_use]
pub fn limits() -> Limits {
    Limits { tries: 3 }
}
"""

RETRY_RS = """\
use std::time::Duration;

/// Calls `attempt` until it succeeds: a failed request is tried again after a pause that doubles
/// after each failure.
pub fn retry<T, E>(mut attempt: impl FnMut() -> Result<T, E>, first: Duration) -> Result<T, E> {
    let mut pause = first;
    loop {
        match attempt() {
            Ok(value) => return Ok(value),
            Err(_) if pause < Duration::from_secs(60) => {
                std::thread::sleep(pause);
                pause *= 2; // exponential backoff
            }
            Err(error) => return Err(error),
        }
    }
}
"""

STORE_RS = """\
/// Keeps answers by key.
pub struct Store {
    entries: Vec<(String, String)>,
}
"""

DOC_GO = """\
// Package acme retries a failed request with exponential backoff.
//
// Call Retry with the request to retry; the backoff doubles after each failure.
package acme
"""

RETRY_GO = """\
package acme

// Retry calls attempt until it succeeds.
func Retry(attempt func() error) error {
\treturn attempt()
}
"""

RUST_FILES = {"Cargo.toml": '[package]\nname = "acme"\n', "src/lib.rs": LIB_RS, "src/retry.rs": RETRY_RS,
              "src/store.rs": STORE_RS}  # fmt: skip


def _paths(service, query: str) -> list[str]:
    return [chunk.metadata.filePath for chunk in service.search_code(query, limit=10).chunks]


def test_a_crate_guide_follows_the_module_that_does_what_it_says(tmp_path, monkeypatch):
    service = indexed_service(RUST_FILES, tmp_path)
    query = "retry a failed request with exponential backoff"
    paths = _paths(service, query)
    assert paths.index("src/retry.rs") < paths.index("src/lib.rs")
    # Weighed as any other chunk, the guide's words would have put it first.
    monkeypatch.setattr(rank, "PACKAGE_DOC_WEIGHT", 1.0)
    assert _paths(service, query)[0] == "src/lib.rs"


def test_only_the_lines_outside_every_definition_are_the_package_documentation(tmp_path):
    service = indexed_service({**RUST_FILES, "doc.go": DOC_GO, "retry.go": RETRY_GO}, tmp_path)
    chunks = dict(service.store._conn.execute("SELECT id, content FROM chunks").fetchall())
    docs = service.store.package_docs(list(chunks))
    assert {chunk_id.rpartition(":")[0] for chunk_id in docs} == {"src/lib.rs", "doc.go"}
    crate_root = {chunk_id for chunk_id in chunks if chunk_id.startswith("src/lib.rs:")}
    # The guide and the `mod` list are; a definition is not, nor the attribute alone before one.
    assert {chunk_id for chunk_id in crate_root if "//!" in chunks[chunk_id]} == docs & crate_root
    assert any(chunks[chunk_id].strip() == "#[must_use]" for chunk_id in crate_root - docs)


SERVO_SCRIPT = """\
#!/usr/bin/env perl
use strict;
use Acme::Servo;

Acme::Servo->new->run(@ARGV);

__END__

=head1 NAME

servo - start the development server and restart it whenever a watched file changes

=head1 DESCRIPTION

Starts the development server, watches the files of the application and restarts the
development server whenever a watched file changes. Watched files are polled every second.
"""

SERVO_PM = """\
package Acme::Servo;
use strict;

# Spawns the child and reaps it once a file is modified.
sub run {
    my ($self, @args) = @_;
    while (1) {
        $self->_spawn(@args) unless $self->{child};
        $self->_reap if $self->_modified;
        sleep 1;
    }
}

sub _modified {
    my $self = shift;
    return grep { (stat $_)[9] > $self->{started} } @{$self->{paths}};
}

1;
"""

SERVER_PM = """\
package Acme::Server;
use strict;

# The development server: listens and answers requests.
sub listen {
    my ($self, $port) = @_;
    $self->{port} = $port;
    return $self;
}

1;
"""

WATCHER_PM = """\
package Acme::Watcher;
use strict;

# Files watched for changes by the development server.
sub watched {
    my $self = shift;
    return @{$self->{files}};
}

1;
"""

PERL_FILES = {"script/servo": SERVO_SCRIPT, "lib/Acme/Servo.pm": SERVO_PM, "lib/Acme/Server.pm": SERVER_PM,
              "lib/Acme/Watcher.pm": WATCHER_PM}  # fmt: skip


def test_the_module_a_command_runs_follows_its_script(tmp_path, monkeypatch):
    service = indexed_service(PERL_FILES, tmp_path)
    assert service.store.command_modules() == {"script/servo": "lib/Acme/Servo.pm"}
    query = "restart the development server when a watched file changes"
    paths = list(dict.fromkeys(_paths(service, query)))
    assert paths[:2] == ["script/servo", "lib/Acme/Servo.pm"]
    # Without the script's lift, the module that does the work comes after files that say the words.
    monkeypatch.setattr(rank, "COMMAND_SHARE", 0.0)
    assert list(dict.fromkeys(_paths(service, query))).index("lib/Acme/Servo.pm") > 1


@pytest.mark.parametrize(
    ("script", "targets", "module"),
    [
        ("script/morbo", ["lib/Mojo/Base.pm", "lib/Mojo/Server/Morbo.pm", "lib/Mojo/Util.pm"],
         "lib/Mojo/Server/Morbo.pm"),
        ("script/plackup", ["lib/Plack/Runner.pm"], "lib/Plack/Runner.pm"),
        ("bin/tool.py", ["tool/core.py", "tool/util.py"], None),
        ("libexec/acme-exec", ["libexec/acme-version"], None),
        ("bin/acme", ["libexec/acme", "lib/acme/cli.rb"], "lib/acme/cli.rb"),
    ],
    ids=["named-like-the-script", "the-only-one", "ambiguous", "another-command", "commands-left-out"],
)  # fmt: skip
def test_the_module_of_a_command(script, targets, module):
    assert is_command(script)
    assert command_module(script, targets) == module


@pytest.mark.parametrize("path", ["lib/Acme/Servo.pm", "bin/tools/gen.py", "scripts/ci/gen.py", "binary.c"])
def test_files_outside_a_folder_of_commands_are_no_commands(path):
    assert not is_command(path)
