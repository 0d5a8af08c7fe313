#!/usr/bin/env python3
"""A stand-in for SWAPI that tests start on a free local port.

Serves the records of a JSON array file in pages of 10, the way https://swapi.dev/api/species/
does: {"count", "next", "previous", "results"}. Behaviours are chosen by the path:

  /species/                 pages of 10, `next` links until the last page
  /flaky/                   page 3 answers 500 the first time it is asked, then succeeds
  /broken/                  page 2 is malformed JSON
  /missing/                 page 3 answers 404
  /stall/                   page 2 never finishes (for cancellation and timeouts)
  /loop/                    page 3's `next` points back to page 2
  /redirect/                answers 302 to /species/
  /redirect-ftp/            answers 302 to an ftp:// URL
  /trickle/                 sends one byte a second
  /endless/                 a body without a length that never ends (delimited by closing)
  /huge-length/             declares a 10 GB Content-Length, then sends bytes until cut off
  /declared-length/?bytes=N declares an N-byte Content-Length, then sends bytes until cut off
  /endless-pages/           every page links to a new next page, for ever
  /count-wrong/             pages of 10 whose `count` says 82
  /results-object/          a page whose `results` is an object (`/results-null/`: null)
  /redirect-to/?location=X  answers 302 with Location X, as given
  /species.csv              the records as CSV (name, designation, skin_colors, height: the
                            average height when a number, else empty), served as text/plain
  /species.tsv              the same as TSV, as text/tab-separated-values
  /species-table            the CSV, as text/csv; charset=utf-8 (no extension: the type decides)
  /species-sniffed          the CSV, as application/octet-stream (the body decides)
  /species-lines            the records as NDJSON, as application/x-ndjson

Prints the port on the first line of standard output, then serves until its standard input
closes (the test process that started it ended) or it is killed.
"""
import csv
import io
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

records = json.load(open(sys.argv[1]))
PAGE = 10
seen = set()


def table(delimiter):
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(["name", "designation", "skin_colors", "height"])
    for record in records:
        height = record["average_height"]
        writer.writerow([record["name"], record["designation"], record["skin_colors"], height if height.isdigit() else ""])
    return out.getvalue().encode()


TABLES = {
    "species.csv": (",", "text/plain"),
    "species.tsv": ("\t", "text/tab-separated-values"),
    "species-table": (",", "text/csv; charset=utf-8"),
    "species-sniffed": (",", "application/octet-stream"),
}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_json(self, status, body):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def page_body(self, kind, page):
        base = f"http://127.0.0.1:{self.server.server_port}/{kind}/"
        start = (page - 1) * PAGE
        results = records[start:start + PAGE]
        last = start + PAGE >= len(records)
        next_page = None if last else f"{base}?page={page + 1}"
        if kind == "loop" and page == 3:
            next_page = f"{base}?page=2"
        previous = None if page == 1 else f"{base}?page={page - 1}"
        count = 82 if kind == "count-wrong" else len(records)
        return {"count": count, "next": next_page, "previous": previous, "results": results}

    def do_GET(self):
        url = urlparse(self.path)
        kind = url.path.strip("/").split("/")[0]
        page = int(parse_qs(url.query).get("page", ["1"])[0])
        if kind in TABLES:
            delimiter, content_type = TABLES[kind]
            data = table(delimiter)
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if kind == "species-lines":
            data = b"".join(json.dumps(record).encode() + b"\n" for record in records)
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if kind == "redirect":
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{self.server.server_port}/species/")
            self.end_headers()
            return
        if kind == "redirect-ftp":
            self.send_response(302)
            self.send_header("Location", "ftp://127.0.0.1/species.json")
            self.end_headers()
            return
        if kind == "redirect-to":
            self.send_response(302)
            self.send_header("Location", parse_qs(url.query)["location"][0])
            self.end_headers()
            return
        if kind in ("endless", "huge-length", "declared-length"):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if kind == "huge-length":
                self.send_header("Content-Length", str(10 * 1024 ** 3))
            if kind == "declared-length":
                self.send_header("Content-Length", parse_qs(url.query)["bytes"][0])
            self.end_headers()
            piece = b'{"results": [' + b'{"name": "more"}, ' * 4096
            try:
                while True:
                    self.wfile.write(piece)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if kind == "endless-pages":
            base = f"http://127.0.0.1:{self.server.server_port}/{kind}/"
            self.send_json(200, {"count": 5, "next": f"{base}?page={page + 1}",
                                 "results": [{"name": f"page {page}", "url": f"{base}{page}/"}]})
            return
        if kind in ("results-object", "results-null"):
            self.send_json(200, {"count": 1, "next": None, "results": None if kind == "results-null" else {"name": "x"}})
            return
        if kind == "trickle":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            try:
                for _ in range(100000):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(1)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if kind == "flaky" and page == 3 and ("flaky", 3) not in seen:
            seen.add(("flaky", 3))
            self.send_json(500, {"detail": "temporary failure"})
            return
        if kind == "broken" and page == 2:
            self.send_json(200, b'{"count": 37, "next": null, "results": [{"name": "x",, }]}')
            return
        if kind == "missing" and page == 3:
            self.send_json(404, {"detail": "Not found"})
            return
        if kind == "stall" and page == 2:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"count": 37, ')
            self.wfile.flush()
            time.sleep(600)
            return
        if kind not in ("species", "flaky", "broken", "missing", "stall", "loop", "count-wrong"):
            self.send_json(404, {"detail": "Not found"})
            return
        self.send_json(200, self.page_body(kind, page))


def exit_when_parent_goes():
    sys.stdin.buffer.read()
    os._exit(0)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Thread(target=exit_when_parent_goes, daemon=True).start()
print(server.server_port, flush=True)
server.serve_forever()
