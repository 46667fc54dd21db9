"""A reader for slob ("sorted list of blobs", the Aard 2 dictionary format).

Layout (big-endian): magic `!-1SLOB\\x1f`, a 16-byte uuid, encoding and compression (1-byte
length text), tags (count, then key/value pairs), content types (count, then 2-byte length
texts), the blob count, the offset of the store and the file size. Then the refs: a list of
(key, bin, item, fragment); the store is a list of bins, each a zlib-compressed list of items.
Written here rather than through pyglossary, whose slob reader needs PyICU (a C++ build).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pramana.errors import SourceError

MAGIC = b"!-1SLOB\x1f"


@dataclass(frozen=True)
class _Bin:
    type_ids: bytes  # content type of each item
    item_positions: tuple[int, ...]
    data_start: int
    content: bytes  # inflated


@dataclass(frozen=True)
class SlobEntry:
    keys: list[str]
    content_type: str
    content: str


class _Reader:
    def __init__(self, data: bytes, encoding: str = "utf-8"):
        self.data = data
        self.position = 0
        self.encoding = encoding

    def unpack(self, fmt: str) -> int:
        size = struct.calcsize(fmt)
        if self.position + size > len(self.data):
            raise SourceError("slob file is truncated")
        (value,) = struct.unpack_from(">" + fmt, self.data, self.position)
        self.position += size
        return value

    def raw(self, length: int) -> bytes:
        if self.position + length > len(self.data):
            raise SourceError("slob file is truncated")
        chunk = self.data[self.position : self.position + length]
        self.position += length
        return chunk

    def tiny_text(self) -> str:
        return self.raw(self.unpack("B")).decode(self.encoding)

    def text(self) -> str:
        return self.raw(self.unpack("H")).decode(self.encoding)


class SlobFile:
    def __init__(self, path: Path):
        self.path = path
        data = path.read_bytes()
        if not data.startswith(MAGIC):
            raise SourceError(f"{path} is not a slob file")
        reader = _Reader(data)
        reader.position = len(MAGIC) + 16  # the uuid
        self.encoding = reader.tiny_text()
        reader.encoding = self.encoding
        self.compression = reader.tiny_text()
        if self.compression not in ("zlib", ""):
            raise SourceError(f"{path}: slob compression {self.compression!r} is not supported (only zlib)")
        # Tag values are NUL-padded to a fixed size by the writer.
        self.tags = {
            reader.tiny_text().rstrip("\x00"): reader.tiny_text().rstrip("\x00")
            for _ in range(reader.unpack("B"))
        }
        self.content_types = [reader.text() for _ in range(reader.unpack("B"))]
        self.blob_count = reader.unpack("I")
        self.store_offset = reader.unpack("Q")
        reader.unpack("Q")  # file size
        self._data = data
        self._refs_offset = reader.position
        self._bin_positions, self._bins_base = self._item_list(self.store_offset)
        # Refs come sorted by key, so consecutive items often share a bin: keep the recent ones inflated.
        self._bin = lru_cache(maxsize=64)(self._read_bin)

    def _item_list(self, offset: int) -> tuple[list[int], int]:
        reader = _Reader(self._data, self.encoding)
        reader.position = offset
        count = reader.unpack("I")
        positions = [reader.unpack("Q") for _ in range(count)]
        return positions, reader.position

    def refs(self) -> Iterator[tuple[str, int, int, str]]:
        positions, base = self._item_list(self._refs_offset)
        reader = _Reader(self._data, self.encoding)
        for position in positions:
            reader.position = base + position
            key = reader.text()
            bin_index = reader.unpack("I")
            item_index = reader.unpack("H")
            yield key, bin_index, item_index, reader.tiny_text()

    def _read_bin(self, index: int) -> _Bin:
        reader = _Reader(self._data, self.encoding)
        reader.position = self._bins_base + self._bin_positions[index]
        count = reader.unpack("I")
        type_ids = reader.raw(count)
        compressed = reader.raw(reader.unpack("I"))
        content = zlib.decompress(compressed) if self.compression == "zlib" else compressed
        return _Bin(type_ids, struct.unpack_from(f">{count}I", content, 0), 4 * count, content)

    def item(self, bin_index: int, item_index: int) -> tuple[str, bytes]:
        found = self._bin(bin_index)
        start = found.data_start + found.item_positions[item_index]
        (length,) = struct.unpack_from(">I", found.content, start)
        return self.content_types[found.type_ids[item_index]], found.content[start + 4 : start + 4 + length]

    def entries(self) -> Iterator[SlobEntry]:
        """Each distinct item once, with every key that refers to it (the first is the headword)."""
        keys: dict[tuple[int, int], list[str]] = {}
        for key, bin_index, item_index, _fragment in self.refs():
            keys.setdefault((bin_index, item_index), []).append(key)
        for (bin_index, item_index), item_keys in keys.items():
            content_type, content = self.item(bin_index, item_index)
            yield SlobEntry(item_keys, content_type, content.decode(self.encoding, errors="replace"))
