"""Reading files through the GitHub contents API (GITHUB_TOKEN + GITHUB_REPO), as the raktamarga spec does."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import quote

import httpx

from pramana import work
from pramana.code.files import decode, line_count
from pramana.code.languages import HEAD_BYTES, language_for
from pramana.code.models import FileResult
from pramana.errors import NotFoundError, SourceError

MAX_GITHUB_BYTES = 1_000_000


class GitHubReader:
    def __init__(self, api_url: str, repo: str, branch: str, token: str, timeout: float = 20.0):
        self.timeout = timeout
        self.repo, self.branch = repo, branch
        self._client = httpx.Client(
            base_url=api_url.rstrip("/"),
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/vnd.github.raw+json",
                "X-GitHub-Api-Version": "2022-11-28",
            },
        )

    def __call__(self, path: str) -> FileResult:
        # `path` was checked by the service (relative, no '..'); quoting keeps '?' or '#' in a name
        # from turning into a query string or fragment.
        url = f"/repos/{self.repo}/contents/{quote(path)}"
        try:
            response = self._client.get(url, params={"ref": self.branch}, timeout=work.time_for(self.timeout))
        except httpx.HTTPError as exc:
            raise SourceError(f"cannot reach GitHub for {path}: {exc}") from exc
        if response.status_code == 404:
            raise NotFoundError(f"{path} is not in {self.repo}@{self.branch} on GitHub")
        if response.status_code != 200:
            raise SourceError(f"GitHub answered {response.status_code} for {path}: {response.text[:200]}")
        if len(response.content) > MAX_GITHUB_BYTES:
            raise SourceError(
                f"{path} is over {MAX_GITHUB_BYTES:,} bytes; read it in parts with get_chunk_context"
            )
        text = decode(response.content)
        return FileResult(
            path=path,
            content=text,
            language=language_for(path, response.content[:HEAD_BYTES]),
            lastModified=_last_modified(response.headers.get("Last-Modified")),
            lines=line_count(text),
            source="github",
        )


def _last_modified(header: str | None) -> str:
    if header:
        try:
            return parsedate_to_datetime(header).astimezone(UTC).isoformat(timespec="seconds")
        except (TypeError, ValueError):
            pass
    return datetime.now(UTC).isoformat(timespec="seconds")
