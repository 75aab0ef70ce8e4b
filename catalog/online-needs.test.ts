import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hostsReached, onlineRefusal } from './online-needs.ts';

const none = new Set<string>();

test('a URL counts only in a file that makes network calls; loopback, service names and reachable hosts are local', () => {
  const calls = [
    'import requests',
    'BASE = "http://judge.example.org:8081"',
    'LOCAL = "http://localhost:5000/x"',
    'SERVICE = "http://db:5432"',
    'INDEX = "https://registry.example.net/simple"',
    'requests.get(BASE)',
  ].join('\n');
  assert.deepEqual(
    hostsReached(calls, 't.py', new Set(['registry.example.net'])).map((use) => use.host),
    ['judge.example.org'],
  );
  // The same URLs in a file that calls nothing (a docstring, data) reach nothing.
  assert.deepEqual(hostsReached('DOC = "see http://judge.example.org/help"\nprint(DOC)', 't.py', none), []);
  // A commented-out call is no call.
  assert.deepEqual(hostsReached('# requests.get("http://judge.example.org")\nx = 1', 't.py', none), []);
});

test('the Hub by its loaders with a repository id, not a local path or a builder', () => {
  const hub = (code: string) => hostsReached(code, 's.py', none).map((use) => use.host);
  assert.deepEqual(hub('load_dataset(\n  "allenai/c4", split="train")'), ['huggingface.co']);
  assert.deepEqual(hub('load_dataset("csv", data_files="/app/a.csv")'), []);
  assert.deepEqual(hub('AutoModel.from_pretrained("/app/model_cache/m")'), []);
  assert.deepEqual(hub("AutoModel.from_pretrained('bert-base-uncased')"), ['huggingface.co']);
  assert.deepEqual(hub("name = 'distilbert-base-uncased'\nm = AutoModel.from_pretrained(name)"), ['huggingface.co']);
  assert.deepEqual(hub('path = "/app/m"\nm = AutoModel.from_pretrained(path)'), []);
  assert.deepEqual(hub('hf_hub_download(repo_id=REPO, filename=f)'), ['huggingface.co']);
});

test('refusals: a build script with its manifest, the tests, the solution; a task offline by design passes', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'online-needs-'));
  try {
    const task = async (name: string, files: Record<string, string>) => {
      const dir = path.join(root, name);
      for (const [file, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), text);
      }
      return dir;
    };
    const media = await task('media', {
      'environment/Dockerfile':
        'FROM python:3.11-slim\nCOPY . /tmp/build/\nRUN python /tmp/build/fetch.py /tmp/build/media.toml --out /app',
      'environment/fetch.py': 'import urllib.request, tomllib\nurllib.request.urlretrieve(url, dest)\n',
      'environment/media.toml': '[[file]]\nurl = "https://archive.example.org/a.wav"\n',
      'tests/test_outputs.py': 'def test_x(): assert True\n',
    });
    const dockerfile = (file: string) => readFile(file, 'utf8');
    const mediaReason = await onlineRefusal(
      media,
      await dockerfile(path.join(media, 'environment/Dockerfile')),
      path.join(media, 'environment'),
      none,
    );
    assert.match(
      mediaReason ?? '',
      /^the build runs a script that downloads from archive\.example\.org .*cannot reach/,
    );

    // The script is plain; the module it imports reads a Hub data set through fsspec.
    const imports = await task('imports', {
      Dockerfile: 'FROM python:3.11-slim\nCOPY tests/make.py tests/model.py ./\nRUN python make.py',
      'tests/make.py': 'from model import Model\nModel().fit()\n',
      'tests/model.py': 'import pandas as pd\nframe = pd.read_parquet("hf://datasets/owner/digits/train.parquet")\n',
    });
    assert.match(
      (await onlineRefusal(imports, await dockerfile(path.join(imports, 'Dockerfile')), imports, none)) ?? '',
      /^the build runs a script that downloads from huggingface\.co \(tests\/model\.py: /,
    );

    const judge = await task('judge', {
      'environment/Dockerfile': 'FROM python:3.11-slim\nRUN pip install requests',
      'tests/test_outputs.py': 'import requests\nBASE = "http://203.0.113.7:8081"\ndef test_x(): requests.post(BASE)\n',
      'solution/solve.sh': 'echo ok > /app/main.cpp\n',
    });
    assert.match(
      (await onlineRefusal(judge, 'FROM python:3.11-slim', path.join(judge, 'environment'), none)) ?? '',
      /^online by design: the tests reach 203\.0\.113\.7 at verify time/,
    );

    const model = await task('model', {
      'tests/test_outputs.py': 'import requests\ndef test_x(): requests.get("http://localhost:5000")\n',
      'solution/solve.sh': 'python3 -c "\nname = \'org/sentiment\'\nAutoModel.from_pretrained(name)\n"\n',
    });
    assert.match(
      (await onlineRefusal(model, 'FROM python:3.11-slim', path.join(model, 'environment'), none)) ?? '',
      /^online by design: the oracle's solution fetches from huggingface\.co at run time/,
    );

    const offline = await task('offline', {
      'environment/Dockerfile': 'FROM python:3.11-slim\nCOPY gen.py /tmp/\nRUN python /tmp/gen.py',
      'environment/gen.py': 'import json\njson.dump({"a": 1}, open("/app/data.json", "w"))\n',
      'tests/test_outputs.py': 'def test_x(): assert open("/app/out.txt").read()\n',
      'solution/solve.sh': 'echo done > /app/out.txt\n',
    });
    assert.equal(
      await onlineRefusal(
        offline,
        await dockerfile(path.join(offline, 'environment/Dockerfile')),
        path.join(offline, 'environment'),
        none,
      ),
      undefined,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('source a test writes to a file (a triple-quoted string, a string inside a string) makes no call of its own', () => {
  const reached = (code: string) => hostsReached(code, 'test_outputs.py', none).map((use) => use.host);
  const linted = [
    'import subprocess',
    'def test_plugin():',
    '    Path("/tmp/x.py").write_text("""',
    'import requests',
    'async def f():',
    '    return requests.get("https://example.com")',
    '""")',
    '    snippet = ["    urllib.request.urlopen(\\"https://example.org\\")\\n"]',
    '    subprocess.run(["pylint", "/tmp/x.py"])',
  ].join('\n');
  assert.deepEqual(reached(linted), []);
  // The same call as the file's own code still counts, and so does a URL it holds for a call.
  assert.deepEqual(reached('import requests\nrequests.get("https://judge.example.org/x")'), ['judge.example.org']);
  assert.deepEqual(reached('URL = "https://judge.example.org"\n"""docs"""\nrequests.post(URL)'), ['judge.example.org']);
  // A shell script has no triple quotes to skip.
  assert.deepEqual(
    hostsReached('curl -s "https://judge.example.org"', 'run.sh', none).map((u) => u.host),
    ['judge.example.org'],
  );
});

test("a solution's apt-get update is no refusal: offline it fails, and a solution that goes on without it still passes", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'online-needs-apt-'));
  await mkdir(path.join(dir, 'solution'), { recursive: true });
  await mkdir(path.join(dir, 'environment'), { recursive: true });
  await writeFile(
    path.join(dir, 'solution', 'solve.sh'),
    '#!/bin/bash\napt-get update && apt-get install -y grep\ngrep -c x /app/log\n',
  );
  assert.equal(await onlineRefusal(dir, 'FROM x\n', path.join(dir, 'environment'), none), undefined);
  await rm(dir, { recursive: true });
});
