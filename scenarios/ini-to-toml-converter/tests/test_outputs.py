"""Hidden tests for the ini-to-toml-converter scenario.

The agent's converter runs in a subprocess with a timeout; its TOML output is
loaded with tomllib and compared (types included) with data written by hand
from the conversion rules.
"""
import os
import sys
import tempfile
import tomllib
import trl_agent_run as agent_run

TOOL = "/app/ini2toml.py"
TOML_DIR = "/app/toml"
TIMEOUT = 30


def strict_equal(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b))
    return a == b


def diff(got, exp, path="$"):
    if type(got) is not type(exp):
        return f"{path}: got {got!r} ({type(got).__name__}), expected {exp!r} ({type(exp).__name__})"
    if isinstance(exp, dict):
        if got.keys() != exp.keys():
            return f"{path}: keys {sorted(got)} != expected {sorted(exp)}"
        for k in exp:
            d = diff(got[k], exp[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(exp, list):
        if len(got) != len(exp):
            return f"{path}: got {got!r}, expected {exp!r}"
        for i, (g, e) in enumerate(zip(got, exp)):
            d = diff(g, e, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if got == exp else f"{path}: got {got!r}, expected {exp!r}"


def load_toml(path):
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise AssertionError(f"{path} is not valid TOML: {exc}\n{raw[:1500]!r}")


def convert(ini_text, newline="\n"):
    assert os.path.isfile(TOOL), f"{TOOL} is missing"
    tmp = tempfile.mkdtemp(prefix="ini-test-")
    src = os.path.join(tmp, "in.ini")
    dst = os.path.join(tmp, "out.toml")
    with open(src, "w", encoding="utf-8", newline="") as fh:
        fh.write(ini_text.replace("\n", newline))
    res = agent_run.run([sys.executable, TOOL, src, dst], capture_output=True, text=True, timeout=TIMEOUT)
    assert res.returncode == 0, f"converter failed: {res.stderr[-2000:]}"
    assert os.path.isfile(dst), "no output written"
    return load_toml(dst)


def check(got, expected):
    assert strict_equal(got, expected), diff(got, expected)


SHIPPED = {
    "webapp": {
        "name": "storefront",
        "debug": False,
        "server": {
            "host": "0.0.0.0",
            "port": 9090,
            "workers": 4,
            "timeout": 30.5,
            "keepalive": "075",
            "tls": {
                "enabled": True,
                "cert": "/etc/ssl/certs/storefront.pem",
                "ciphers": ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384"],
            },
        },
        "Features": {
            "beta-checkout": True,
            "max_cart_items": 50,
            "banner": "Summer sale; 20% off # everything",
            "welcome": "Hello, world",
            "regions": ["eu", "us", "apac"],
        },
    },
    "database": {
        "primary": {
            "driver": "postgresql",
            "host": "db-1.internal",
            "port": 5432,
            "pool.size": 20,
            "ssl": True,
            "options": "connect_timeout=10\napplication_name=storefront\nsslmode=require",
        },
        "replica": {
            "hosts": ["db-2.internal", "db-3.internal"],
            "port": 5432,
            "lag_threshold": -1,
            "weight": 0.25,
            "password": "s3cr3t#not-a-comment",
            "note": 'C:\\backups\\nightly "full"',
        },
    },
    "worker": {
        "queue": {
            "name": "jobs",
            "retries": 5,
            "backoff": [1.5, 3, 6.0, False],
            "dead_letter": "",
            "schedule": {
                "cron": "*/5 * * * *",
                "description": "Runs the cleanup job\nevery five minutes",
                "timezone": "Europe/Berlin",
            },
        },
        "logging": {
            "level": "INFO",
            "file": "/var/log/worker.log",
            "format": "%(asctime)s [%(levelname)s] %(message)s",
        },
    },
}


def test_shipped_configs_are_converted():
    for name, expected in SHIPPED.items():
        path = os.path.join(TOML_DIR, name + ".toml")
        assert os.path.isfile(path), f"{path} is missing"
        got = load_toml(path)
        assert strict_equal(got, expected), f"{name}: {diff(got, expected)}"


def test_full_line_and_inline_comments():
    ini = """# top comment
; another comment
title = Report ; inline
   # indented comment
[a]
x = 5 # five
y = value;not-comment
z = "quoted ; kept # too" ; trailing comment
w = 'single "inner" quotes'   # c
url = http://example.com/#anchor
hash = #looks-like-a-comment
tight =#kept
"""
    check(convert(ini), {
        "title": "Report",
        "a": {
            "x": 5,
            "y": "value;not-comment",
            "z": "quoted ; kept # too",
            "w": 'single "inner" quotes',
            "url": "http://example.com/#anchor",
            "hash": "",
            "tight": "#kept",
        },
    })


def test_scalar_values_are_typed():
    ini = """[types]
i1 = 0
i2 = -12
i3 = +7
i4 = 007
i5 = -0
f1 = 3.14
f2 = -0.5
f3 = 1e5
f4 = .5
f5 = 2.
f6 = 00.5
f7 = 0.0
b1 = Yes
b2 = OFF
b3 = True
b4 = on
b5 = nope
s1 = 1.2.3
s2 = -
s3 = 1_000
s4 = 12 monkeys
"""
    check(convert(ini), {"types": {
        "i1": 0, "i2": -12, "i3": 7, "i4": "007", "i5": 0,
        "f1": 3.14, "f2": -0.5, "f3": "1e5", "f4": ".5", "f5": "2.", "f6": "00.5", "f7": 0.0,
        "b1": True, "b2": False, "b3": True, "b4": True, "b5": "nope",
        "s1": "1.2.3", "s2": "-", "s3": "1_000", "s4": "12 monkeys",
    }})


def test_comma_separated_values_become_typed_arrays():
    ini = """[lists]
l1 = a, b, c
l2 = 1, 2.5, yes, "007", 'off'
l3 = , ,
l4 = single,
l5 = -3, +4, 0.0
l6 = x ,y ; comment
l7 = "a, b"
l8 = 10,20
"""
    check(convert(ini), {"lists": {
        "l1": ["a", "b", "c"],
        "l2": [1, 2.5, True, "007", "off"],
        "l3": [],
        "l4": ["single"],
        "l5": [-3, 4, 0.0],
        "l6": ["x", "y"],
        "l7": "a, b",
        "l8": [10, 20],
    }})


def test_duplicate_keys_last_wins_and_sections_merge():
    ini = """k = 1
[s]
a = 1
A = 2
b = x
[t]
c = 3
[s]
b = y
d = 4
[S]
a = 9
k = 2
"""
    check(convert(ini), {"k": 1, "s": {"a": 2, "b": "y", "d": 4}, "t": {"c": 3}, "S": {"a": 9, "k": 2}})


def test_multiline_values_and_their_boundaries():
    ini = """[m]
first = line one
\tline two (tab)
    line three ; with comment
; comment inside
    line four
other = 5
empty_first =
  alpha
  beta

after_blank = x
  continued
single_cont =
   42
not_cont = 7

   indented_key = 8
[n]
   orphan continuation without key
z = 1
"""
    check(convert(ini), {
        "m": {
            "first": "line one\nline two (tab)\nline three\nline four",
            "other": 5,
            "empty_first": "alpha\nbeta",
            "after_blank": "x\ncontinued",
            "single_cont": "42",
            "not_cont": 7,
            "indented_key": 8,
        },
        "n": {"z": 1},
    })


def test_dotted_sections_nest_and_unusual_keys_survive():
    ini = """version = 2
[ app . db ]
url = postgres://u@h/db
[app]
name = demo
[app.cache.redis]
ttl = 60
[weird keys]
key with spaces = 1
"quoted" = 2
Ünïcode = ja
a.b = dotted
x:y = colon first
= no key
"""
    check(convert(ini), {
        "version": 2,
        "app": {"db": {"url": "postgres://u@h/db"}, "name": "demo", "cache": {"redis": {"ttl": 60}}},
        "weird keys": {
            "key with spaces": 1,
            '"quoted"': 2,
            "ünïcode": "ja",
            "a.b": "dotted",
            "x": "y = colon first",
        },
    })


def test_special_characters_are_escaped_and_crlf_is_accepted():
    ini = """[paths]
win = C:\\Program Files\\App
quote = say "hi" now
mixed = it's fine
tabbed = a\tb
emoji = ☕ coffee
odd = "unterminated ; c
ml =
  first\\
  "second"
"""
    check(convert(ini, newline="\r\n"), {"paths": {
        "win": "C:\\Program Files\\App",
        "quote": 'say "hi" now',
        "mixed": "it's fine",
        "tabbed": "a\tb",
        "emoji": "☕ coffee",
        "odd": '"unterminated',
        "ml": 'first\\\n"second"',
    }})


def test_empty_files_and_sections_without_keys():
    assert convert("") == {}
    assert convert("; nothing here\n\n# at all\n") == {}
    check(convert("[empty]\n[also.empty]\n; c\n"), {"empty": {}, "also": {"empty": {}}})
