"""Runs code the agent produced on behalf of hidden tests: as the unprivileged agent user, time-limited.

Baked into the sandbox base image next to trl_ctrf. The tests run as root and write the report;
the agent's code must never run in that process (no `import solution`, no `sys.path.insert` of the
workspace, no `exec`) nor as root. Call it through this module instead:

    import trl_agent_run as agent_run
    res = agent_run.run([sys.executable, "/app/tool.py", src, dst], capture_output=True, text=True, timeout=60)

`run` mirrors `subprocess.run` (args, capture_output, text, input, stdin, stdout, stderr, cwd, env,
timeout, check) and `Popen` mirrors `subprocess.Popen`, with four differences:
- the child runs as the `agent` user (no supplementary groups) in a new session;
- output is captured through files, not pipes, so a grandchild that keeps a pipe open cannot
  hang the test; when the child exits or times out its whole process group is killed;
- `timeout` defaults to 300 seconds, never unlimited;
- paths the child needs are handed to the agent user first: `cwd` and every absolute path argument
  (or `NAME=/path` value) inside the temporary directory (or a missing one's parent), and anything listed in `share=[...]`.
  /tests and /logs can never be shared.
Processes that escape the process group still die: the verifier kills the whole container before
it reads the report.
"""
import os
import pwd
import signal
import subprocess
import tempfile

AGENT_USER = "agent"
DEFAULT_TIMEOUT_SEC = 300
_PROTECTED = ("/tests", "/logs")

PIPE = subprocess.PIPE
DEVNULL = subprocess.DEVNULL
STDOUT = subprocess.STDOUT
TimeoutExpired = subprocess.TimeoutExpired
CalledProcessError = subprocess.CalledProcessError
CompletedProcess = subprocess.CompletedProcess


def _agent():
    return pwd.getpwnam(AGENT_USER)


def _inside(path, root):
    return path == root or path.startswith(root.rstrip("/") + "/")


def _give(account, target, dir_fd=None):
    # chown clears setuid/setgid bits even when nothing changes, so files already the agent's stay untouched.
    if isinstance(target, int):  # an open directory: fstat / fchown
        info = os.fstat(target)
        if (info.st_uid, info.st_gid) != (account.pw_uid, account.pw_gid):
            os.chown(target, account.pw_uid, account.pw_gid)
        return
    info = os.stat(target, dir_fd=dir_fd, follow_symlinks=False)
    if (info.st_uid, info.st_gid) != (account.pw_uid, account.pw_gid):
        os.chown(target, account.pw_uid, account.pw_gid, dir_fd=dir_fd, follow_symlinks=False)


def share(*paths):
    """Gives the agent user ownership of each path (recursively, never following symlinks) and
    makes every ancestor directory traversable. Refuses /tests and /logs."""
    account = _agent()
    for raw in paths:
        path = os.path.abspath(os.fspath(raw))
        real = os.path.realpath(path)
        if any(_inside(p, root) for p in (path, real) for root in _PROTECTED):
            raise ValueError(f"{path} belongs to the verifier and cannot be shared with the agent")
        if not os.path.lexists(path):
            continue
        if os.path.isdir(path) and not os.path.islink(path):
            # fwalk works on directory descriptors, so a directory swapped for a symlink while we
            # walk cannot redirect the chown outside the tree.
            for _dir, dirs, files, dir_fd in os.fwalk(path, follow_symlinks=False):
                _give(account, dir_fd)
                for name in dirs + files:
                    _give(account, name, dir_fd)
        else:
            _give(account, path)
        parent = os.path.dirname(path)
        while parent and parent != "/":
            info = os.lstat(parent)
            if not info.st_mode & 0o001:
                os.chmod(parent, info.st_mode | 0o001)
            parent = os.path.dirname(parent)


def _auto_share(args, cwd, extra):
    targets = list(extra or ())
    temp_root = os.path.realpath(tempfile.gettempdir())
    if cwd is not None and os.path.realpath(os.fspath(cwd)) != temp_root and _inside(os.path.realpath(os.fspath(cwd)), temp_root):
        targets.append(cwd)
    for arg in [args] if isinstance(args, (str, bytes, os.PathLike)) else list(args):
        if not isinstance(arg, (str, os.PathLike)):
            continue
        value = os.fspath(arg)
        if "=" in value and not value.startswith("/"):
            value = value.split("=", 1)[1]  # DESTDIR=/tmp/stage, --out=/tmp/x
        if not value.startswith("/") or not _inside(os.path.realpath(value), temp_root):
            continue
        if os.path.lexists(value):
            targets.append(value)
        elif os.path.isdir(os.path.dirname(value)) and os.path.realpath(os.path.dirname(value)) != temp_root:
            targets.append(os.path.dirname(value))
    for target in targets:
        share(target)


def _agent_env(env):
    if env is not None:
        return env
    account = _agent()
    merged = dict(os.environ)
    merged.update(HOME=account.pw_dir, USER=AGENT_USER, LOGNAME=AGENT_USER)
    return merged


def _kill_group(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def Popen(args, *, share=(), cwd=None, env=None, **kwargs):  # noqa: N802 (mirrors subprocess.Popen)
    """subprocess.Popen as the agent user in a new session; the caller stops it (kill_group)."""
    _auto_share(args, cwd, share)
    account = _agent()
    for key in ("user", "group", "extra_groups", "preexec_fn", "start_new_session", "process_group"):
        if key in kwargs:
            raise TypeError(f"trl_agent_run.Popen sets {key} itself")
    return subprocess.Popen(
        args, cwd=cwd, env=_agent_env(env), user=account.pw_uid, group=account.pw_gid, extra_groups=[],
        start_new_session=True, **kwargs,
    )


def kill_group(process):
    """Kills a Popen child and everything left in its process group, then reaps it."""
    _kill_group(process)
    process.wait()


def run(args, *, input=None, capture_output=False, timeout=DEFAULT_TIMEOUT_SEC, check=False,  # noqa: A002
        stdin=None, stdout=None, stderr=None, text=None, encoding=None, errors=None,
        universal_newlines=None, share=(), cwd=None, env=None, **kwargs):
    """subprocess.run as the agent user, with a time limit and no pipes a grandchild can hold."""
    if timeout is None:
        timeout = DEFAULT_TIMEOUT_SEC
    decode = bool(text or universal_newlines or encoding or errors)
    if capture_output:
        if stdout is not None or stderr is not None:
            raise ValueError("stdout and stderr arguments may not be used with capture_output.")
        stdout = stderr = PIPE
    if input is not None:
        if stdin is not None:
            raise ValueError("stdin and input arguments may not both be used.")
        stdin = PIPE
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file, tempfile.TemporaryFile() as in_file:
        if stdin is PIPE:
            data = input if input is not None else b""
            in_file.write(data.encode(encoding or "utf-8", errors or "strict") if isinstance(data, str) else data)
            in_file.seek(0)
            stdin = in_file
        child_stdout = out_file if stdout is PIPE else stdout
        child_stderr = err_file if stderr is PIPE else (out_file if stderr is STDOUT and stdout is PIPE else stderr)
        process = Popen(args, share=share, cwd=cwd, env=env, stdin=stdin, stdout=child_stdout, stderr=child_stderr, **kwargs)
        try:
            returncode = process.wait(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
        _kill_group(process)
        if timed_out:
            process.wait()

        def collected(handle, wanted):
            if not wanted:
                return None
            handle.seek(0)
            data = handle.read()
            if not decode:
                return data
            decoded = data.decode(encoding or "utf-8", errors or "strict")
            return decoded.replace("\r\n", "\n").replace("\r", "\n")

        captured_out = collected(out_file, stdout is PIPE)
        captured_err = collected(err_file, stderr is PIPE)
    if timed_out:
        raise subprocess.TimeoutExpired(process.args, timeout, output=captured_out, stderr=captured_err)
    completed = subprocess.CompletedProcess(process.args, returncode, captured_out, captured_err)
    if check:
        completed.check_returncode()
    return completed


def check_output(args, **kwargs):
    """subprocess.check_output as the agent user."""
    return run(args, stdout=PIPE, check=True, **kwargs).stdout
