"""Structured logs for the HTTP server: one JSON object per line, tagged with the request id."""

from __future__ import annotations

import atexit
import json
import logging
import logging.handlers
import queue
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id: ContextVar[str | None] = ContextVar("pramana_request_id", default=None)


# A session id is a bearer of its session (the SDK's are 128-bit uuids, as hex or with dashes): logs
# show enough of one to follow it (its first 8 characters), never all of it.
SESSION_ID = re.compile(
    r"(?<![0-9a-fA-F-])([0-9a-fA-F]{8})(?:[0-9a-fA-F]{24}|-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}"
    r"-[0-9a-fA-F]{12})(?![0-9a-fA-F-])"
)


def without_session_ids(text: str) -> str:
    """`text` with every 128-bit id (a session's, as the SDK logs them) cut to its first 8 characters."""
    return SESSION_ID.sub(r"\1…", text)


class JsonFormatter(logging.Formatter):
    """ts, level, logger, message, request_id, and whatever was passed as `extra={"fields": {...}}`.

    Messages and tracebacks never hold a whole session id (the SDK logs them as sessions open, end,
    or are asked for by a caller that does not own them)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": without_session_ids(record.getMessage()),
        }
        current = request_id.get()
        if current:
            entry["request_id"] = current
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            entry.update(fields)
        if record.exc_info:
            entry["exception"] = without_session_ids(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False, default=str)


def configure_json_logging(level: str) -> None:
    """Every logger (ours, the SDK's, uvicorn's) writes JSON lines to stderr.

    A line is formatted where it is logged (the request id is known there) and written to stderr by
    a thread of its own: a write blocks while whatever reads stderr is slow, and the event loop,
    which logs every request, must not wait for it.
    """
    lines: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
    handler = logging.handlers.QueueHandler(lines)
    handler.setFormatter(JsonFormatter())
    writer = logging.StreamHandler(sys.stderr)
    writer.setFormatter(logging.Formatter("%(message)s"))
    listener = logging.handlers.QueueListener(lines, writer)
    listener.start()
    atexit.register(listener.stop)  # what was logged before exit is written
    logging.basicConfig(level=level, handlers=[handler], force=True)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
