"""Hidden tests for the nginx-static-site scenario.

A fixture adds a few files the agent never saw to the site, starts a small
echo backend on 127.0.0.1:9090 and then nginx itself, as root, with the agent's
configuration (`nginx -c /app/nginx/nginx.conf -g 'daemon off;'`). Every
request goes to 127.0.0.1:8080 only, with explicit timeouts.
"""
import gzip
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

import pytest
import trl_agent_run as agent_run

CONF = "/app/nginx/nginx.conf"
PUBLIC = "/app/site/public"
ERROR_PAGE = "/app/site/errors/404.html"
RUN_DIR = "/tmp/nginx-run"
HOST = "shop.example.test"
IMMUTABLE = "public, max-age=31536000, immutable"

BACKEND = r'''
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class Echo(BaseHTTPRequestHandler):
    def _reply(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode() if n else ""
        status = 418 if self.path == "/teapot" else 404 if self.path.startswith("/missing") else 200
        data = json.dumps({"method": self.command, "path": self.path, "body": body,
                           "headers": {k.lower(): v for k, v in self.headers.items()}}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("X-Backend", "echo")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    do_GET = do_POST = do_PUT = do_DELETE = _reply
    def log_message(self, *a):
        pass

ThreadingHTTPServer(("127.0.0.1", 9090), Echo).serve_forever()
'''

# Files the agent never saw: the rules must hold for them too.
HIDDEN_FILES = {
    "pricing.html": "<!doctype html><title>Pricing</title>\n" + "<p>Plan details and prices.</p>\n" * 60,
    "assets/app-3f9c2e.js": "// bundle\n" + "".join(f"export const v{i} = () => {i};\n" for i in range(120)),
    "assets/hero.webp": b"RIFF\x00\x10\x00\x00WEBPVP8 " + bytes(range(256)) * 8,
    "assets/.draft.css": "body { color: red; }\n",
    "docs/manual.txt": "Care instructions.\n" * 120,
    "docs/small.txt": "short\n",
}


def _write_hidden():
    for rel, content in HIDDEN_FILES.items():
        path = os.path.join(PUBLIC, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(content if isinstance(content, bytes) else content.encode())
        os.chmod(path, 0o644)
        os.chmod(os.path.dirname(path), 0o755)


def _wait_port(port, proc, timeout=15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False


@pytest.fixture(scope="module")
def server():
    assert os.path.isfile(CONF), f"{CONF} is missing"
    shutil.rmtree(RUN_DIR, ignore_errors=True)
    os.makedirs(RUN_DIR)
    _write_hidden()
    backend_file = os.path.join(tempfile.mkdtemp(prefix="backend-"), "backend.py")
    with open(backend_file, "w") as fh:
        fh.write(BACKEND)
    backend = agent_run.Popen([sys.executable, backend_file], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert _wait_port(9090, backend), "test backend did not start"
    log = open(os.path.join(tempfile.mkdtemp(prefix="nginx-out-"), "nginx.out"), "w+")
    nginx = agent_run.Popen(["nginx", "-c", CONF, "-g", "daemon off;"], stdout=log, stderr=subprocess.STDOUT,
                             share=[RUN_DIR])
    try:
        if not _wait_port(8080, nginx):
            log.seek(0)
            pytest.fail(f"nginx did not start listening on 127.0.0.1:8080:\n{log.read()[-3000:]}")
        yield nginx
    finally:
        for proc in (nginx, backend):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM) if proc is nginx else proc.terminate()
                except ProcessLookupError:
                    pass
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()


class Resp:
    def __init__(self, r, body):
        self.status = r.status
        self.headers = r.msg
        self.body = body

    def all(self, name):
        return self.headers.get_all(name) or []

    def one(self, name):
        values = self.all(name)
        assert len(values) <= 1, f"{name} sent {len(values)} times: {values}"
        return values[0] if values else None


def request(path, method="GET", host=HOST, headers=None, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", 8080, timeout=10)
    try:
        hdrs = {"Host": host, "Accept-Encoding": "identity"}
        hdrs.update(headers or {})
        conn.request(method, path, body=body, headers=hdrs)
        r = conn.getresponse()
        return Resp(r, r.read())
    finally:
        conn.close()


def read(rel):
    with open(os.path.join(PUBLIC, rel), "rb") as fh:
        return fh.read()


def error_page():
    with open(ERROR_PAGE, "rb") as fh:
        return fh.read()


def location_path(resp):
    loc = resp.one("Location")
    assert loc, "redirect without Location"
    parts = urllib.parse.urlsplit(loc)
    if parts.netloc:
        assert parts.hostname == HOST, loc
    return parts.path + (("?" + parts.query) if parts.query else "")


# ---------------------------------------------------------------------------

def test_config_is_valid_and_home_page_is_served(server):
    check = agent_run.run(["nginx", "-t", "-c", CONF], capture_output=True, text=True, timeout=30, share=[RUN_DIR])
    assert check.returncode == 0, check.stderr
    r = request("/")
    assert r.status == 200
    assert r.body == read("index.html")
    assert r.one("Server") == "nginx"
    assert r.one("Cache-Control") == "no-cache"
    # any other host name gets the same site
    assert request("/", host="127.0.0.1").body == read("index.html")


def test_clean_urls_and_directory_indexes(server):
    cases = {
        "/about": "about.html",
        "/blog/": "blog/index.html",
        "/blog/2023/intro": "blog/2023/intro.html",
        "/blog/2024/waxing.html": "blog/2024/waxing.html",
        "/pricing": "pricing.html",
    }
    for path, rel in cases.items():
        r = request(path)
        assert r.status == 200, (path, r.status)
        assert r.body == read(rel), path
        assert r.one("Cache-Control") == "no-cache", path


def test_www_host_redirects_to_canonical_host_with_query(server):
    r = request("/blog/2023/intro?utm_source=mail&x=1", host="www.shop.example.test")
    assert r.status == 301
    assert r.one("Location") == "http://shop.example.test/blog/2023/intro?utm_source=mail&x=1"
    r = request("/", host="www.shop.example.test")
    assert r.status == 301 and r.one("Location") == "http://shop.example.test/"


def test_old_blog_urls_redirect_permanently_keeping_query(server):
    r = request("/old-blog/2023/intro?ref=mail")
    assert r.status == 301
    assert location_path(r) == "/blog/2023/intro?ref=mail"
    r = request("/old-blog/archive/2019/a-b_c.html")
    assert r.status == 301
    assert location_path(r) == "/blog/archive/2019/a-b_c.html"


def test_missing_files_get_custom_404_page(server):
    for path in ("/no-such-page", "/assets/missing.css", "/blog/2022/gone", "/404.html", "/errors/404.html",
                 "/data/none.json"):
        r = request(path)
        assert r.status == 404, (path, r.status)
        assert r.body == error_page(), path
        assert IMMUTABLE not in ", ".join(r.all("Cache-Control")), path


def test_admin_area_and_dotfiles_forbidden_but_well_known_served(server):
    for path in ("/admin", "/admin/", "/admin/index.html", "/admin/users/42", "/.env", "/.git/config",
                 "/assets/.draft.css", "/blog/.hidden/x.html"):
        r = request(path)
        assert r.status == 403, (path, r.status)
    r = request("/.well-known/security.txt")
    assert r.status == 200 and r.body == read(".well-known/security.txt")


def test_gzip_only_for_large_text_responses(server):
    gz = {"Accept-Encoding": "gzip"}
    for path, rel in (("/assets/app.css", "assets/app.css"), ("/assets/app-3f9c2e.js", "assets/app-3f9c2e.js"),
                      ("/data/catalog.json", "data/catalog.json"), ("/assets/icons.svg", "assets/icons.svg"),
                      ("/docs/manual.txt", "docs/manual.txt"), ("/about", "about.html")):
        r = request(path, headers=gz)
        assert r.status == 200, path
        assert r.one("Content-Encoding") == "gzip", path
        assert "accept-encoding" in ", ".join(r.all("Vary")).lower(), path
        assert gzip.decompress(r.body) == read(rel), path
    for path, rel in (("/assets/logo.png", "assets/logo.png"), ("/assets/fonts/trail.woff2", "assets/fonts/trail.woff2"),
                      ("/assets/tiny.css", "assets/tiny.css"), ("/docs/small.txt", "docs/small.txt"),
                      ("/assets/hero.webp", "assets/hero.webp")):
        r = request(path, headers=gz)
        assert r.status == 200, path
        assert r.one("Content-Encoding") is None, path
        assert r.body == read(rel), path
    r = request("/assets/app.css")
    assert r.one("Content-Encoding") is None and r.body == read("assets/app.css")


def test_cache_control_by_file_type(server):
    for path in ("/assets/app.css", "/assets/tiny.css", "/assets/app.js", "/assets/app-3f9c2e.js",
                 "/assets/icons.svg", "/assets/logo.png", "/assets/hero.webp", "/assets/fonts/trail.woff2"):
        r = request(path)
        assert r.status == 200, path
        assert r.all("Cache-Control") == [IMMUTABLE], (path, r.all("Cache-Control"))
    for path in ("/", "/about", "/blog/", "/index.html"):
        assert request(path).all("Cache-Control") == ["no-cache"], path
    for path in ("/data/catalog.json", "/docs/manual.txt", "/robots.txt"):
        r = request(path)
        assert r.status == 200
        assert IMMUTABLE not in ", ".join(r.all("Cache-Control")), path
        assert "no-cache" not in ", ".join(r.all("Cache-Control")), path


def test_api_is_proxied_with_prefix_stripped_and_forwarding_headers(server):
    r = request("/api/v1/items?limit=5&sort=-price", headers={"X-Forwarded-For": "203.0.113.9"})
    assert r.status == 200, r.body[:300]
    assert r.one("X-Backend") == "echo"
    echo = json.loads(r.body)
    assert echo["path"] == "/v1/items?limit=5&sort=-price"
    h = echo["headers"]
    assert h.get("host") == HOST
    assert h.get("x-real-ip") == "127.0.0.1"
    assert h.get("x-forwarded-for") == "203.0.113.9, 127.0.0.1"
    assert h.get("x-forwarded-proto") == "http"
    r = request("/api/orders", method="POST", body=b'{"sku": "NW-0001", "qty": 2}',
                headers={"Content-Type": "application/json"})
    echo = json.loads(r.body)
    assert (r.status, echo["method"], echo["path"], echo["body"]) == (200, "POST", "/orders", '{"sku": "NW-0001", "qty": 2}')
    teapot = request("/api/teapot")
    assert teapot.status == 418 and json.loads(teapot.body)["path"] == "/teapot"
    missing = request("/api/missing/thing")
    assert missing.status == 404
    assert json.loads(missing.body)["path"] == "/missing/thing", "backend 404s must pass through unchanged"


def test_every_response_has_nosniff_and_no_version(server):
    probes = [
        request("/"), request("/about"), request("/assets/app.css"), request("/assets/logo.png"),
        request("/data/catalog.json"), request("/nope"), request("/.env"), request("/admin/"),
        request("/old-blog/x"), request("/", host="www.shop.example.test"), request("/api/v1/ping"),
        request("/api/missing/x"), request("/assets/nope.js"),
    ]
    for r in probes:
        assert r.all("X-Content-Type-Options") == ["nosniff"], (r.status, dict(r.headers))
        assert r.one("Server") == "nginx"
