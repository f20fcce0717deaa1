#!/usr/bin/env python3
"""A speech service on 127.0.0.1 that speaks OpenAI's and ElevenLabs' APIs for real, for the tests of
forge's HTTP engines (docs/engines.md) and for trying them without an account.

    speech-server.py PORT_FILE [--key KEY] [--lifetime SECONDS]

Binds a free port on 127.0.0.1, writes it to PORT_FILE and serves until killed, until the process
that started it ends, or until its lifetime (default 900 s) passes. It synthesizes with libespeak-ng
(the library forge itself uses), so its audio and word timings are espeak-ng's own.

Paths are /TAG/MODE/v1/...: TAG keeps one test's counts apart from another's, MODE picks a behaviour.

  POST /TAG/MODE/v1/audio/speech                         OpenAI: {model, voice, input, response_format, speed} -> WAV
  POST /TAG/MODE/v1/text-to-speech/VOICE/with-timestamps ElevenLabs: {text, model_id, voice_settings}
                                                         -> {audio_base64 (pcm_24000), alignment (per character)}
  GET  /TAG/MODE/v1/audio/voices                         {"voices": [...]}
  GET  /TAG/MODE/v1/voices/VOICE                         200, or 404 for a voice it does not have
  GET  /TAG/stats                                        {"requests": N, "characters": N}: speech requests under TAG

With --key, speech and voice requests need `Authorization: Bearer KEY` or `xi-api-key: KEY` (else 401).
Voices: alloy, echo, fable, nova, onyx, shimmer (espeak-ng voices) or any espeak-ng voice id (en-us+klatt).

Modes:
  ok          a correct service
  storm       the first 3 speech requests under TAG get 429 with Retry-After: 1
  flaky       every other speech request gets 500
  down        503 to every speech request
  stall       every answer waits 30 s before its first byte
  trickle     audio one byte a second
  truncated   announces the whole audio, sends half of it and closes
  wrongtype   200 text/html
  endless     200 audio/wav with no length, zeros until the client hangs up
  redirect    307 to the same path on 127.0.0.2 (another host)
  length      audio of another, much longer text (another voice's length)
  garbage     200 audio/wav of bytes that are not audio
"""
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)
import audioop  # noqa: E402  (in the standard library to 3.12; Debian 12 has 3.11)
import base64
import ctypes
import ctypes.util
import json
import os
import signal
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KEY = None
COUNTS = {}
LOCK = threading.Lock()
VOICES = {"alloy": "en-us+klatt", "echo": "en-gb", "fable": "en-us+f3", "nova": "en-us+f2", "onyx": "en-us+m3",
          "shimmer": "en-us+f4"}
LONG_TEXT = "This is another text entirely, read in another voice, much longer than anything asked. " * 12


class Espeak:
    """libespeak-ng in synchronous mode: samples and word events for a text (one at a time)."""

    class Event(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("unique_identifier", ctypes.c_uint), ("text_position", ctypes.c_int),
                    ("length", ctypes.c_int), ("audio_position", ctypes.c_int), ("sample", ctypes.c_int),
                    ("user_data", ctypes.c_void_p), ("id", ctypes.c_char * 8)]

    CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(Event))

    def __init__(self):
        self.lib = ctypes.CDLL(ctypes.util.find_library("espeak-ng") or "libespeak-ng.so.1")
        self.rate = self.lib.espeak_Initialize(2, 0, None, 0x8000)
        self.callback = self.CALLBACK(self.take)
        self.lib.espeak_SetSynthCallback(self.callback)
        self.lock = threading.Lock()
        self.samples = []
        self.words = []

    def take(self, wav, count, events):
        if wav and count > 0:
            self.samples.append(ctypes.string_at(wav, count * 2))
        index = 0
        while events[index].type != 0:
            event = events[index]
            if event.type == 1:
                self.words.append((event.text_position - 1, event.length, event.audio_position))
            index += 1
        return 0

    def speak(self, text, voice, rate):
        """(16-bit mono PCM bytes at self.rate, [(char offset, length, ms)])."""
        with self.lock:
            self.samples, self.words = [], []
            if self.lib.espeak_SetVoiceByName(voice.encode()) != 0:
                raise KeyError(voice)
            self.lib.espeak_SetParameter(1, int(rate), 0)
            data = text.encode("utf-8")
            self.lib.espeak_Synth(data, len(data) + 1, 0, 1, 0, 1, None, None)
            return b"".join(self.samples), list(self.words)


ESPEAK = Espeak()


def wav(pcm, rate):
    return (b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
            + b"data" + struct.pack("<I", len(pcm)) + pcm)


def character_times(text, words, duration_ms):
    """Each character's start and end in seconds: a word's characters share its span evenly."""
    starts = [0.0] * len(text)
    ends = [0.0] * len(text)
    spans = []
    for index, (offset, length, ms) in enumerate(words):
        end = words[index + 1][2] if index + 1 < len(words) else duration_ms
        spans.append((offset, max(length, 1), ms, max(end, ms)))
    cursor_ms = 0
    span_index = 0
    for position in range(len(text)):
        while span_index + 1 < len(spans) and position >= spans[span_index + 1][0]:
            span_index += 1
        if spans and spans[span_index][0] <= position < spans[span_index][0] + spans[span_index][1]:
            offset, length, start, end = spans[span_index]
            step = (end - start) / length
            begin = start + step * (position - offset)
            starts[position], ends[position] = begin / 1000, (begin + step) / 1000
            cursor_ms = begin + step
        else:
            starts[position] = ends[position] = cursor_ms / 1000
    return starts, ends


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def parts(self):
        return self.path.split("?")[0].strip("/").split("/")

    def count(self, tag, characters):
        with LOCK:
            entry = COUNTS.setdefault(tag, {"requests": 0, "characters": 0})
            entry["requests"] += 1
            entry["characters"] += characters
            return entry["requests"]

    def answer(self, status, body, content_type="application/json", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, message, headers=()):
        self.answer(status, json.dumps({"error": {"message": message}}).encode(), headers=headers)

    def authorized(self):
        if KEY is None:
            return True
        return self.headers.get("Authorization") == "Bearer " + KEY or self.headers.get("xi-api-key") == KEY

    def do_GET(self):
        parts = self.parts()
        if len(parts) == 2 and parts[1] == "stats":
            with LOCK:
                body = json.dumps(COUNTS.get(parts[0], {"requests": 0, "characters": 0})).encode()
            return self.answer(200, body)
        if len(parts) < 4 or parts[2] != "v1":
            return self.error(404, "no such path")
        if not self.authorized():
            return self.error(401, "Incorrect API key provided")
        if parts[3:] == ["audio", "voices"]:
            return self.answer(200, json.dumps({"voices": sorted(VOICES)}).encode())
        if len(parts) == 5 and parts[3] == "voices":
            known = parts[4] in VOICES or parts[4].startswith("en")
            return self.answer(200 if known else 404, json.dumps({"voice_id": parts[4]}).encode())
        return self.error(404, "no such path")

    def do_POST(self):
        parts = self.parts()
        length = int(self.headers.get("Content-Length", "0"))
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return self.error(400, "the body is not JSON")
        if len(parts) < 4 or parts[2] != "v1":
            return self.error(404, "no such path")
        tag, mode = parts[0], parts[1]
        if parts[3:] == ["audio", "speech"]:
            api, text, voice = "openai", request.get("input", ""), request.get("voice", "")
            speed = float(request.get("speed", 1.0))
        elif len(parts) == 6 and parts[3] == "text-to-speech" and parts[5] == "with-timestamps":
            api, text, voice = "elevenlabs", request.get("text", ""), parts[4]
            speed = float((request.get("voice_settings") or {}).get("speed", 1.0))
        else:
            return self.error(404, "no such path")
        number = self.count(tag, len(text))
        if not self.authorized():
            return self.error(401, "Incorrect API key provided")
        if self.misbehave(mode, number):
            return
        espeak_voice = VOICES.get(voice, voice if voice.startswith("en") else None)
        if espeak_voice is None:
            return self.error(400, "voice '%s' is not one of %s" % (voice, ", ".join(sorted(VOICES))))
        if not text.strip():
            return self.error(400, "input is empty")
        spoken = LONG_TEXT if mode == "length" else text
        try:
            pcm, words = ESPEAK.speak(spoken, espeak_voice, 175 * speed)
        except KeyError:
            return self.error(400, "voice '%s' is not installed" % voice)
        if mode == "garbage":
            return self.answer(200, os.urandom(len(pcm) // 4 + 64), "audio/wav")
        if api == "openai":
            body = wav(pcm, ESPEAK.rate)
            return self.send_audio(mode, body, "audio/wav")
        pcm24, _ = audioop.ratecv(pcm, 2, 1, ESPEAK.rate, 24000, None)
        duration_ms = len(pcm) // 2 * 1000 // ESPEAK.rate
        starts, ends = character_times(spoken, words, duration_ms)
        body = json.dumps({
            "audio_base64": base64.b64encode(pcm24).decode(),
            "alignment": {"characters": list(spoken), "character_start_times_seconds": starts,
                          "character_end_times_seconds": ends},
        }).encode()
        return self.send_audio(mode, body, "application/json")

    def misbehave(self, mode, number):
        """Answers as `mode` says before any speech; True when it did."""
        if mode == "storm" and number <= 3:
            self.error(429, "Rate limit reached for requests", headers=[("Retry-After", "1")])
        elif mode == "flaky" and number % 2 == 1:
            self.error(500, "The server had an error while processing your request")
        elif mode == "down":
            self.error(503, "Service Unavailable: the engine is overloaded")
        elif mode == "stall":
            time.sleep(30)
            self.close_connection = True
        elif mode == "wrongtype":
            self.answer(200, b"<html><body>Welcome to the captive portal</body></html>", "text/html")
        elif mode == "endless":
            self.send_response(200)
            self.send_header("Content-Type", "audio/wav")
            self.end_headers()
            self.close_connection = True
            started = time.time()
            try:
                while time.time() - started < 600:
                    self.wfile.write(b"\0" * 65536)
            except OSError:
                pass
        elif mode == "redirect":
            self.send_response(307)
            self.send_header("Location", "http://127.0.0.2:%d%s" % (self.server.server_address[1], self.path))
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            return False
        return True

    def send_audio(self, mode, body, content_type):
        if mode == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.close_connection = True
            return
        if mode == "trickle":
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.close_connection = True
            try:
                for byte in body[:600]:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(1)
            except OSError:
                pass
            return
        self.answer(200, body, content_type)


def main():
    global KEY
    # A test runner may start it with SIGTERM ignored; it must stop when told.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    port_file = sys.argv[1]
    lifetime = 900
    if "--lifetime" in sys.argv:
        lifetime = int(sys.argv[sys.argv.index("--lifetime") + 1])
    if "--key" in sys.argv:
        KEY = sys.argv[sys.argv.index("--key") + 1]
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
