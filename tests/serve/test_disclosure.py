"""What a remote client may read: no path of the server's machine (pramana/mcp/disclosure.py)."""

from __future__ import annotations

from mcp_types import CallToolResult, TextContent

from pramana.config import CodeSettings, SanskritSettings
from pramana.mcp.disclosure import PathScrubber, settings_roots, shortened


def test_messages_keep_only_the_last_part_of_every_absolute_path():
    scrub = PathScrubber([])
    assert scrub.message("no dictionary database at /home/ana/.local/share/pramana/sanskrit.db. Install") == (
        "no dictionary database at …/sanskrit.db. Install"
    )
    assert (
        scrub.message("cannot open C:\\Users\\ana\\pramana\\gita.db: locked")
        == "cannot open …/gita.db: locked"
    )
    assert scrub.message("the cache (at /srv/x/gita.db) is empty") == "the cache (at …/gita.db) is empty"


def test_messages_keep_urls_routes_and_relative_paths():
    scrub = PathScrubber([])
    kept = "fetch https://vedabase.io/en/library/bg/2/47/ or POST /mcp and /messages/; see billing/cart.py"
    assert scrub.message(kept) == kept


def test_results_lose_only_the_servers_own_folders(tmp_path):
    scrub = PathScrubber([tmp_path / "data"])
    quoted = "#!/usr/bin/env python\nopen('/etc/hosts')"  # what a file in a repository says, as it says it
    assert scrub.text(quoted) == quoted
    assert scrub.text(f"cached at {tmp_path}/data/gita.db.") == "cached at …/gita.db."
    assert scrub.text(f"{tmp_path}/database") == f"{tmp_path}/database"  # a sibling, not under the folder


def test_a_result_is_rewritten_only_where_a_path_shows_and_is_else_the_same_object(tmp_path):
    scrub = PathScrubber([tmp_path])
    clean = CallToolResult(
        content=[TextContent(type="text", text="BG 2.47")], structured_content={"ref": "BG 2.47"}
    )
    assert scrub.result(clean) is clean
    leaky = CallToolResult(
        content=[TextContent(type="text", text=f"note: {tmp_path}/c.db is read-only")],
        structured_content={"notes": [f"{tmp_path}/c.db is read-only"], "ref": "BG 2.47"},
    )
    fixed = scrub.result(leaky)
    assert fixed.content[0].text == "note: …/c.db is read-only"
    assert fixed.structured_content == {"notes": ["…/c.db is read-only"], "ref": "BG 2.47"}
    assert leaky.structured_content["notes"] == [f"{tmp_path}/c.db is read-only"]  # the original untouched


def test_the_folders_a_servers_settings_name(tmp_path):
    roots = settings_roots(
        [
            SanskritSettings(db_path=tmp_path / "dbs" / "sanskrit.db"),
            CodeSettings(repo=tmp_path / "shop", db_path=tmp_path / "idx" / "shop.db", embedder="none"),
        ]
    )
    assert {tmp_path / "dbs", tmp_path / "shop", tmp_path / "idx"} <= set(roots)


def test_shortened():
    assert shortened("/a/b/c.db") == "…/c.db"
    assert shortened("/a/b/c.db.") == "…/c.db."
    assert shortened("/a/b/folder/") == "…/folder"
