"""`python -m http.server` for a mirror whose directories answer with their index.json."""

import sys
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class Handler(SimpleHTTPRequestHandler):
    def send_head(self):  # type: ignore[no-untyped-def]
        if self.path.endswith("/") and (Path(self.translate_path(self.path)) / "index.json").is_file():
            self.path += "index.json"
        return super().send_head()

    def guess_type(self, path):  # type: ignore[no-untyped-def]
        return "text/html"

    def log_message(self, format, *args):  # type: ignore[no-untyped-def]
        pass


if __name__ == "__main__":
    directory, port = sys.argv[1], int(sys.argv[2])
    ThreadingHTTPServer(("127.0.0.1", port), partial(Handler, directory=directory)).serve_forever()
