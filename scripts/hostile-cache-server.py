#!/usr/bin/env python3
"""A hostile Bazel HTTP cache on 127.0.0.1, for the tests of what forge survives (docs/security.md).

    hostile-cache-server.py PORT_FILE [--lifetime SECONDS]

Binds a free port on 127.0.0.1, writes it to PORT_FILE and serves until killed, until the process
that started it ends, or until its lifetime (default 900 s) passes. The first path segment picks the behaviour; the rest is the cache
protocol (`/MODE/ac/KEY`, `/MODE/cas/SHA256`). Every mode shares one honest store: `PUT /honest/...`
fills it, and the other modes serve its real entries and blobs, damaged as their name says:

  honest           a correct cache
  oversized        blobs announce 10 GB and stream zeros (until the client hangs up)
  endless          blobs have no Content-Length and stream zeros until the connection closes
  wrong-length     blobs announce 1000 bytes more than they are, and send them
  truncated        blobs announce their size and close after half of it
  slowloris        every answer: a status line, then one byte every 2 s
  stalled-headers  every answer: the status line, then nothing
  trickle          entries dribble at 2 KB/s, fast enough to pass a low-speed limit, never ending
  redirect         302 to another port on 127.0.0.1
  error-storm      500 to everything
  garbage-entry    entries are random bytes
  huge-entry       entries of 200 MB of valid-looking JSON padding
  hostile-metadata entries whose voice and extension are not what the recipe asks for
  swapped          entries that name another item's audio and events (valid blobs, the wrong sound):
                   only a spot check, which makes an item here and compares, can see it

Every streamed answer stops by itself: at most 12 GB and 10 minutes per request.
"""
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STORE = {}
LOCK = threading.Lock()
MAX_STREAM_BYTES = 12 << 30
MAX_STREAM_SECONDS = 600


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def split(self):
        parts = self.path.strip("/").split("/")
        if len(parts) != 3 or parts[1] not in ("ac", "cas"):
            return None, None, None
        return parts[0], parts[1], parts[2]

    def do_PUT(self):
        mode, area, key = self.split()
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if mode != "honest" or area is None:
            self.answer(403, b"")
            return
        with LOCK:
            STORE[(area, key)] = body
        self.answer(201, b"")

    def do_GET(self):
        mode, area, key = self.split()
        if mode is None:
            self.answer(404, b"")
            return
        with LOCK:
            real = STORE.get((area, key))
        if self.misbehave(mode):
            pass
        elif real is None:
            self.answer(404, b"")
        elif area == "ac":
            self.entry(mode, real)
        else:
            self.blob(mode, real)

    def misbehave(self, mode, head=False):
        """The answers of the modes that misbehave whatever is asked; False for the others."""
        if mode == "error-storm":
            self.answer(500, b"storm", head=head)
        elif mode == "redirect":
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:9/elsewhere" + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif mode == "slowloris":
            self.slow_status()
        elif mode == "stalled-headers":
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            self.wfile.flush()
            self.sleep_until_gone()
        else:
            return False
        return True

    def do_HEAD(self):
        # Forge asks whether a blob is there before it leaves an item's audio in the cache.
        mode, area, key = self.split()
        with LOCK:
            real = STORE.get((area, key)) if mode else None
        if self.misbehave(mode, head=True):
            pass
        elif real is None:
            self.answer(404, b"", head=True)
        else:
            self.send_response(200)
            self.send_header("Content-Length", str(len(real)))
            self.end_headers()

    def entry(self, mode, real):
        if mode == "garbage-entry":
            self.answer(200, os.urandom(4096))
        elif mode == "huge-entry":
            self.send_response(200)
            self.send_header("Content-Length", str(200 << 20))
            self.end_headers()
            self.wfile.write(real[:-1] + b',"pad":"')
            self.stream(b" " * 65536, limit=(200 << 20) - len(real) - 7)
        elif mode == "hostile-metadata":
            entry = json.loads(real)
            entry["voice"] = "espeak-ng:en-us\n\u001b[31mINJECTED\u001b[0m'); DROP TABLE items;--"
            self.answer(200, json.dumps(entry).encode())
        elif mode == "swapped":
            with LOCK:
                others = sorted(body for (area, _), body in STORE.items() if area == "ac" and body != real)
            entry = json.loads(real)
            if others:
                other = json.loads(others[0])
                entry["audio"], entry["events"] = other["audio"], other["events"]
            self.answer(200, json.dumps(entry).encode())
        elif mode == "trickle":
            self.send_response(200)
            self.send_header("Content-Length", str(1 << 20))
            self.end_headers()
            self.stream(b" " * 512, delay=0.25)
        else:
            self.answer(200, real)

    def blob(self, mode, real):
        if mode == "oversized":
            self.send_response(200)
            self.send_header("Content-Length", str(10 << 30))
            self.end_headers()
            self.stream(b"\0" * 65536)
        elif mode == "endless":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            self.stream(b"\0" * 65536)
        elif mode == "wrong-length":
            self.answer(200, real + b"\0" * 1000)
        elif mode == "truncated":
            self.send_response(200)
            self.send_header("Content-Length", str(len(real)))
            self.end_headers()
            self.wfile.write(real[: len(real) // 2])
            self.wfile.flush()
            self.close_connection = True
        else:
            self.answer(200, real)

    def answer(self, status, body, head=False):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def stream(self, piece, delay=0.0, limit=MAX_STREAM_BYTES):
        started = time.time()
        sent = 0
        try:
            while sent < limit and time.time() - started < MAX_STREAM_SECONDS:
                self.wfile.write(piece)
                sent += len(piece)
                if delay:
                    self.wfile.flush()
                    time.sleep(delay)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def slow_status(self):
        started = time.time()
        try:
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello":
                if time.time() - started > MAX_STREAM_SECONDS:
                    break
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(2)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def sleep_until_gone(self):
        started = time.time()
        while time.time() - started < MAX_STREAM_SECONDS:
            time.sleep(0.5)
            try:
                self.wfile.write(b"")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                break
        self.close_connection = True


def main():
    # A test runner may start it with SIGTERM ignored; it must stop when told.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    port_file = sys.argv[1]
    lifetime = 900
    if "--lifetime" in sys.argv:
        lifetime = int(sys.argv[sys.argv.index("--lifetime") + 1])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    threading.Timer(lifetime, lambda: os._exit(0)).start()
    # Gone with the process that started it (a test run never tears down its shared server).
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
