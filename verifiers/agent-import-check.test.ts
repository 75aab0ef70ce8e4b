import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { listScenarioFolders } from '../catalog/list-scenarios.ts';
import {
  blankStringsAndComments,
  checkScenarioTestsForAgentCode,
  findAgentCodeInTestProcess,
} from './agent-import-check.ts';

const kindsOf = (text: string, extra: { name: string; text: string }[] = []) =>
  findAgentCodeInTestProcess([{ name: 'test_outputs.py', text }, ...extra]).map((f) => `${f.line}:${f.kind}`);

test("importing the agent's module into the test process is flagged", () => {
  assert.deepEqual(kindsOf('import os\nimport solution\n'), ['2:in-process-import']);
  assert.deepEqual(kindsOf('from app import handler\n'), ['1:in-process-import']);
  assert.deepEqual(kindsOf('import json, bank as b\n'), ['1:in-process-import']);
  assert.deepEqual(kindsOf('import sys\nsys.path.insert(0, "/app")\n'), ['2:in-process-import']);
  assert.deepEqual(kindsOf('import sys\nsys.path.append(WORKSPACE)\n'), ['2:in-process-import']);
  assert.deepEqual(kindsOf('import importlib.util\n'), ['1:in-process-import']);
  assert.deepEqual(kindsOf('mod = importlib.import_module("tool")\n'), ['1:in-process-import']);
  assert.deepEqual(kindsOf('spec = spec_from_file_location("t", "/app/t.py")\n'), ['1:in-process-import']);
  assert.deepEqual(kindsOf('runpy.run_path("/app/t.py")\n'), ['1:in-process-import']);
  assert.deepEqual(kindsOf('exec(open("/app/t.py").read())\n'), ['1:in-process-import']);
});

test("the standard library, pytest, the helpers and the tests' own files are not flagged", () => {
  const text = [
    'import os, sys, json',
    'import importlib.metadata',
    'from decimal import Decimal',
    'import pytest',
    'import trl_agent_run as agent_run',
    'HERE = os.path.dirname(os.path.abspath(__file__))',
    'sys.path.insert(0, HERE)',
    'sys.path.insert(0, os.path.dirname(__file__))',
    'import tlmgen',
    'from . import helpers',
    'con.execute("SELECT 1")',
    'res = agent_run.run([sys.executable, "/app/tool.py"], timeout=10)',
    '',
  ].join('\n');
  assert.deepEqual(kindsOf(text, [{ name: 'tlmgen.py', text: 'import random\n' }]), []);
});

test('code inside string literals and comments belongs to the child that runs it', () => {
  const text =
    'RUNNER = """\nimport sys\nsys.path.insert(0, "/app")\nfrom bank import Bank\n"""\n# import solution\ncode = "from inventory import paginate\\n"\n';
  assert.deepEqual(kindsOf(text), []);
  assert.equal(blankStringsAndComments(text).length, text.length);
  assert.equal(blankStringsAndComments(text).split('\n').length, text.split('\n').length);
});

test('child processes started without trl_agent_run are flagged, unless marked as a trusted command', () => {
  assert.deepEqual(kindsOf('subprocess.run([sys.executable, TOOL], timeout=5)\n'), ['1:unprivileged-run-missing']);
  assert.deepEqual(kindsOf('p = subprocess.Popen(["nginx"])\n'), ['1:unprivileged-run-missing']);
  assert.deepEqual(kindsOf('os.system("/app/run.sh")\n'), ['1:unprivileged-run-missing']);
  assert.deepEqual(kindsOf('from subprocess import check_output\n'), ['1:unprivileged-run-missing']);
  assert.deepEqual(kindsOf('subprocess.run(["sqlite3", db], timeout=5)  # trl: trusted-command\n'), []);
  assert.deepEqual(kindsOf('raise subprocess.TimeoutExpired(cmd, 5)\n'), []);
});

test('no active scenario runs agent code in the test process or as root', async () => {
  const findings = [];
  for (const scenario of await listScenarioFolders()) {
    for (const finding of await checkScenarioTestsForAgentCode(scenario.dir))
      findings.push(`${path.basename(scenario.dir)}/tests/${finding.file}:${finding.line} ${finding.kind}`);
  }
  assert.deepEqual(findings, []);
});
