"""A deliberately faulty OpenAI Chat → OpenAI Chat proxy for the connection tests (stdlib only). It relays
each request to the upstream and answers its client on HTTP/1.1 keep-alive connections, but:

- every ``N``-th request's answer is cut short (half the body its ``content-length`` announces, then the
  connection is closed), and what the proxy logs about it comes a moment later (its error handler runs
  after the client saw the abort);
- after every ``N``-th answer but one (the one before each cut), it hangs up the connection: a next
  request on it is reset, unanswered.

Every request is logged as ``request #n``; nothing else (no timestamps): the same log every run.

    python aborting_proxy.py PORT UPSTREAM_URL N
"""

from __future__ import annotations

import socket
import struct
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COUNT = [0]
LOCK = threading.Lock()


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    hung_up = False

    def do_POST(self) -> None:
        if self.hung_up:  # reset the connection, as a proxy that dropped it while the client reused it
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        with LOCK:
            COUNT[0] += 1
            n = COUNT[0]
        log(f"request #{n}")
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        request = urllib.request.Request(
            self.server.upstream + "/v1/chat/completions",  # type: ignore[attr-defined]
            data=body,
            headers={"content-type": "application/json", "authorization": "Bearer sk-upstream-key"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as resp:
                status, answer, ctype = resp.status, resp.read(), resp.headers.get("content-type", "")
        except urllib.error.HTTPError as err:
            status, answer, ctype = err.code, err.read(), err.headers.get("content-type", "")
        every = self.server.every  # type: ignore[attr-defined]
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        if n % every == 0:
            self.wfile.write(answer[: len(answer) // 2])
            self.wfile.flush()
            self.close_connection = True
            threading.Timer(0.05, log, [f"aborted the answer to request #{n}"]).start()
            return
        self.wfile.write(answer)
        self.wfile.flush()
        if n % every == every - 1:
            self.hung_up = True

    def log_message(self, *args: object) -> None:
        pass


def main() -> None:
    port, upstream, every = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.upstream = upstream.rstrip("/")  # type: ignore[attr-defined]
    server.every = every  # type: ignore[attr-defined]
    log("proxy listening")
    server.serve_forever()


if __name__ == "__main__":
    main()
