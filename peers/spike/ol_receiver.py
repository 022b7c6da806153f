"""Tiny OpenLineage receiver for the peers lab: appends each POSTed JSON body as one line to a file.

    python3 peers/spike/ol_receiver.py OUT.ndjson [--port 28999]

Every request is also summarised in OUT.ndjson.requests (path, Authorization header, size) so the
transport settings (endpoint, api key -> Bearer) can be checked. Answers 200 {} to every POST.
Standard library only; binds 127.0.0.1.
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--port", type=int, default=28999)
    args = ap.parse_args()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                line = json.dumps(json.loads(body), sort_keys=False)
            except ValueError:
                line = json.dumps({"_unparsed": body.decode("utf-8", "replace")})
            meta = {"path": self.path, "authorization": self.headers.get("Authorization"),
                    "content_type": self.headers.get("Content-Type"), "bytes": len(body)}
            with LOCK:
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(line + "\n")
                with open(args.out + ".requests", "a", encoding="utf-8") as f:
                    f.write(json.dumps(meta) + "\n")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}")

        def do_GET(self) -> None:  # noqa: N802  (health probe)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *a) -> None:
            pass

    ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
