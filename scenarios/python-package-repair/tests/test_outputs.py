"""Hidden tests for the python-package-repair scenario.

The project in /app/pkg is copied to a temporary directory (without stale
build outputs), built and installed offline into fresh virtual environments
with the Debian setuptools/wheel, and the installed package is exercised in
subprocesses from a directory that is unrelated to the source tree.

The fresh environments are made without pip, and the image's pip (PIP_TOOL,
byte-compiled when the image was built) runs inside each through --python: the
same pip 23.0.1 the instruction's commands use, without bootstrapping it (about
five CPU-seconds) into every environment again.
"""
import configparser
import json
import os
import re
import shutil
import sys
import tempfile
import zipfile

import pytest
import trl_agent_run as agent_run

PROJECT = "/app/pkg"
TIMEOUT = 180
PIP_TOOL = "/opt/pip-tool/bin/python"
RUN_TIMEOUT = 30

HIDDEN_TEXT = """Every recipe needs patience. People rarely believe it!
The quiet kitchen was a science lab for the family: bread, butter, and bread again.
Did the vehicle arrive on Wednesday? It did, at 9.30 in the morning, carrying bread.
An idea: bake the bread twice, then serve it warm to hungry people.
"""

EXPECTED_TEXT_REPORT = """== notes.txt ==
Sentences:            6
Words:                50
Syllables:            75
Flesch reading ease:  71.48
Flesch-Kincaid grade: 5.36
Top words:            bread, did, people, again, arrive
"""

EXPECTED_JSON = {
    "name": "notes.txt",
    "sentences": 6,
    "words": 50,
    "syllables": 75,
    "reading_ease": 71.48,
    "grade_level": 5.36,
    "top_words": ["bread", "did", "people", "again", "arrive"],
}

EXPECTED_STDIN_REPORT = """== <stdin> ==
Sentences:            2
Words:                4
Syllables:            5
Flesch reading ease:  99.06
Flesch-Kincaid grade: -0.06
Top words:            short, text, tiny, words
"""


def clean_copy():
    assert os.path.isfile(os.path.join(PROJECT, "pyproject.toml")), "/app/pkg/pyproject.toml missing"
    root = tempfile.mkdtemp(prefix="pkgtest-")
    dst = os.path.join(root, "pkg")
    shutil.copytree(PROJECT, dst, symlinks=True,
                    ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", ".venv", "venv"))
    return dst


def clean_env():
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV", "SETUPTOOLS"))}
    env["PIP_NO_INDEX"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def make_venv():
    venv = tempfile.mkdtemp(prefix="venv-")
    res = agent_run.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv],
                         capture_output=True, text=True, timeout=TIMEOUT, env=clean_env())
    assert res.returncode == 0, res.stderr
    return venv


def pip(venv, *args):
    """The argv of pip acting on `venv`, as `venv/bin/pip ARGS...` would."""
    return [PIP_TOOL, "-m", "pip", "--python", os.path.join(venv, "bin", "python"), *args]


def pip_install(venv, src):
    return agent_run.run(
        pip(venv, "install", "--no-index", "--no-build-isolation", "--no-deps", src),
        capture_output=True, text=True, timeout=TIMEOUT, env=clean_env(), cwd=tempfile.gettempdir())


def workdir():
    d = tempfile.mkdtemp(prefix="plainread-run-")
    with open(os.path.join(d, "notes.txt"), "w", encoding="utf-8") as fh:
        fh.write(HIDDEN_TEXT)
    return d


def run_in(venv, argv, stdin=None):
    cwd = workdir()
    return agent_run.run(argv, cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=RUN_TIMEOUT, env=clean_env())


def vpython(venv, code):
    return run_in(venv, [os.path.join(venv, "bin", "python"), "-c", code])


@pytest.fixture(scope="module")
def installed():
    venv = make_venv()
    res = pip_install(venv, clean_copy())
    return venv, res


@pytest.fixture(scope="module")
def venv(installed):
    venv, res = installed
    assert res.returncode == 0, f"pip install failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return venv


@pytest.fixture(scope="module")
def wheel():
    out = tempfile.mkdtemp(prefix="wheelhouse-")
    venv = make_venv()
    res = agent_run.run(
        pip(venv, "wheel", "--no-index", "--no-build-isolation", "--no-deps", "-w", out, clean_copy()),
        capture_output=True, text=True, timeout=TIMEOUT, env=clean_env(), cwd=tempfile.gettempdir())
    assert res.returncode == 0, f"pip wheel failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    wheels = [f for f in os.listdir(out) if f.endswith(".whl")]
    assert len(wheels) == 1, wheels
    return os.path.join(out, wheels[0])


def test_project_installs_offline_into_fresh_venv(installed):
    venv, res = installed
    assert res.returncode == 0, f"pip install failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    show = run_in(venv, pip(venv, "show", "plainread"))
    assert show.returncode == 0 and "Name: plainread" in show.stdout


def test_installed_metadata_fields(venv):
    code = (
        "import json, importlib.metadata as m\n"
        "md = m.metadata('plainread')\n"
        "print(json.dumps({k: md.get(k) for k in ('Name','Version','Summary','License',"
        "'Requires-Python','Author','Author-email')}))\n"
    )
    res = vpython(venv, code)
    assert res.returncode == 0, res.stderr
    md = json.loads(res.stdout)
    assert md["Name"] == "plainread"
    assert md["Version"] == "2.1.0"
    assert md["Summary"] == "Readability statistics for plain-text documents"
    assert md["License"] == "MIT"
    assert md["Requires-Python"].replace(" ", "") == ">=3.9"
    people = " ".join(v for v in (md["Author"], md["Author-email"]) if v)
    assert "Plainread Developers" in people and "dev@plainread.invalid" in people


def test_console_script_prints_text_report_from_any_directory(venv):
    script = os.path.join(venv, "bin", "plainread")
    assert os.path.isfile(script), "console script 'plainread' was not installed"
    res = run_in(venv, [script, "notes.txt"])
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout == EXPECTED_TEXT_REPORT


def test_console_script_json_format_and_stdin(venv):
    script = os.path.join(venv, "bin", "plainread")
    res = run_in(venv, [script, "--format", "json", "notes.txt"])
    assert res.returncode == 0, res.stderr[-2000:]
    assert json.loads(res.stdout) == EXPECTED_JSON
    res = run_in(venv, [script, "-"], stdin="Short text. Tiny words!")
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout == EXPECTED_STDIN_REPORT


def test_package_data_files_are_installed_inside_the_package(venv):
    code = (
        "import importlib.resources as r, json\n"
        "root = r.files('plainread')\n"
        "names = ['data/syllable_overrides.txt', 'data/stopwords.txt', 'templates/report.tmpl']\n"
        "out = {}\n"
        "for n in names:\n"
        "    p = root\n"
        "    for part in n.split('/'):\n"
        "        p = p / part\n"
        "    out[n] = p.is_file() and len(p.read_text(encoding='utf-8'))\n"
        "import plainread\n"
        "out['location'] = plainread.__file__\n"
        "print(json.dumps(out))\n"
    )
    res = vpython(venv, code)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert "site-packages" in out.pop("location"), "plainread was not imported from the venv"
    for name, size in out.items():
        assert size, f"{name} missing from the installed package"


def test_python_dash_m_plainread_runs_installed_package(venv):
    res = run_in(venv, [os.path.join(venv, "bin", "python"), "-m", "plainread", "notes.txt"])
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout == EXPECTED_TEXT_REPORT


def test_version_is_single_sourced_from_package_init():
    src = clean_copy()
    init = os.path.join(src, "src", "plainread", "__init__.py")
    text = open(init, encoding="utf-8").read()
    pattern = r'^__version__\s*=\s*["\']2\.1\.0["\']'
    assert re.search(pattern, text, re.M), "__version__ must stay in __init__.py"
    with open(init, "w", encoding="utf-8") as fh:
        fh.write(re.sub(pattern, '__version__ = "9.4.1"', text, flags=re.M))
    venv = make_venv()
    res = pip_install(venv, src)
    assert res.returncode == 0, res.stderr[-3000:]
    meta = vpython(venv, "import importlib.metadata as m; print(m.version('plainread'))")
    assert meta.stdout.strip() == "9.4.1"
    cli = run_in(venv, [os.path.join(venv, "bin", "plainread"), "--version"])
    assert cli.returncode == 0
    assert cli.stdout.strip() == "plainread 9.4.1"


def test_wheel_contains_subpackage_and_data_but_not_project_tests(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    for required in ("plainread/__init__.py", "plainread/cli.py",
                     "plainread/formats/__init__.py", "plainread/formats/json_format.py",
                     "plainread/formats/text_format.py", "plainread/data/syllable_overrides.txt",
                     "plainread/data/stopwords.txt", "plainread/templates/report.tmpl"):
        assert required in names, f"{required} missing from {os.path.basename(wheel)}"
    top = {n.split("/", 1)[0] for n in names}
    assert top <= {"plainread", "plainread-2.1.0.dist-info"}, f"unexpected top-level entries: {sorted(top)}"
    assert os.path.basename(wheel).startswith("plainread-2.1.0-")


def test_wheel_declares_plainread_console_script(wheel):
    with zipfile.ZipFile(wheel) as zf:
        ep = zf.read("plainread-2.1.0.dist-info/entry_points.txt").decode()
    cfg = configparser.ConfigParser()
    cfg.read_string(ep)
    scripts = dict(cfg["console_scripts"]) if cfg.has_section("console_scripts") else {}
    assert scripts == {"plainread": "plainread.cli:main"}, scripts
