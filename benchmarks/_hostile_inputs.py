"""Hostile inputs the HTTP server must survive: injections as tool arguments, paths that try to leave
a repository, and broken JSON-RPC bodies. Used by benchmarks/attacks.py and tests/serve/test_hostile.py."""

from __future__ import annotations

import json

INJECTIONS = [
    "'; DROP TABLE verses; --",
    '" OR 1=1 --',
    "karma* NEAR(yoga, 2)",
    '"unterminated',
    "text:dharma",
    "a AND OR NOT b",
    "^)(*",
    "%' UNION SELECT * FROM sqlite_master --",
    "\x00\x01\x02",
    "../../../../etc/passwd",
    "${jndi:ldap://x}",
    "<script>alert(1)</script>",
    "क" * 3000,
    "\ud7ff\ufffd\U0010ffff",
]
TRAVERSALS = [
    "../../../../etc/passwd",
    "/etc/passwd",
    "billing/../../../etc/passwd",
    "billing/../../shop/../../etc/passwd",
    "..\\..\\etc\\passwd",
    "%2e%2e/%2e%2e/etc/passwd",
    "billing/\x00cart.py",
    "~/.ssh/id_rsa",
    "file:///etc/passwd",
]


MALFORMED: list[bytes] = [
    b"",
    b"{",
    b"not json",
    b"null",
    b"42",
    b'"string"',
    b"[]",
    b"[1, 2, 3]",
    b'{"jsonrpc": "1.0", "id": 1, "method": "ping"}',
    b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}',
    b'{"jsonrpc": "2.0", "id": 1, "method": 12}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": "lookup_verse"}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 5}}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "nope", "arguments": {}}}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
    b'"params": {"name": "lookup_verse", "arguments": []}}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "no/such/method"}',
    b'{"jsonrpc": "2.0", "id": 99999999999999999999999999, "method": "ping"}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
    b'{"jsonrpc": "2.0", "id": 1, "method": "ping"' + b", " + b'"x": "\xff\xfe"}',
    json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"cursor": "A" * 100_000}}
    ).encode(),
]
