#!/usr/bin/env python3
"""Runs clang-tidy over source files of a configured build, with a cache (used by tests/lint/tidy.sh).

clang-tidy's findings for a file depend only on what the compiler sees of it (the file and every header
it includes, after preprocessing), on the compile flags, on .clang-tidy and on clang-tidy's version. The
cache key is a hash of exactly these, so a file whose preprocessed text did not change is not analysed
again: CI builds each run from a fresh clone, and without the cache clang-tidy takes minutes. Paths
under the checkout are written relative to it in the key and in the cached output, so clones in other
directories share the cache (${XDG_CACHE_HOME:-~/.cache}/rdmalab/tidy, or $RDMALAB_TIDY_CACHE).

Usage: tidy_run.py BUILD_DIR ROOT FILE...   (prints clang-tidy's output for all files to stdout)
"""
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys

ROOT_MARK = "@RDMALAB_ROOT@"
EXTRA_ARGS = ["--extra-arg=-Wno-unknown-warning-option", "--extra-arg=-Wno-overloaded-virtual"]


def preprocess_command(entry):
    """The compile command of `entry` turned into one that writes the preprocessed text to stdout."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD"):
            continue
        out.append(a)
    return out + ["-E", "-P"]


def main():
    build, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    files = sys.argv[3:]
    cache = os.environ.get("RDMALAB_TIDY_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rdmalab", "tidy")
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = {os.path.abspath(os.path.join(e["directory"], e["file"])): e for e in json.load(f)}
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
    with open(os.path.join(root, ".clang-tidy"), "rb") as f:
        config = f.read()

    def relative(text):
        return text.replace(root, ROOT_MARK)

    def one(path):
        full = os.path.join(root, path)
        entry = commands.get(full)
        if entry is None:  # not built in this configuration (e.g. the app in a build without it)
            return ""
        pre = subprocess.run(preprocess_command(entry), cwd=entry["directory"], capture_output=True)
        key = hashlib.sha256()
        # The command as its arguments, not as its text: a checkout whose path has a space is quoted in the
        # text, and the same command elsewhere must give the same key.
        args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
        command = {"directory": entry["directory"], "file": entry["file"], "arguments": args}
        for part in (version.encode(), config, relative(json.dumps(command, sort_keys=True)).encode(),
                     relative(pre.stdout.decode(errors="replace")).encode(), str(pre.returncode).encode()):
            key.update(part)
            key.update(b"\0")
        cached = os.path.join(cache, key.hexdigest())
        if pre.returncode == 0 and os.path.exists(cached):
            with open(cached, encoding="utf-8") as f:
                return f.read().replace(ROOT_MARK, root)
        run = subprocess.run(["clang-tidy", "-p", build, "--quiet", *EXTRA_ARGS, full], capture_output=True,
                             text=True)
        if pre.returncode == 0 and run.returncode == 0:  # a crash or a compile error is never cached
            tmp = cached + ".tmp%d" % os.getpid()
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(relative(run.stdout))
            os.replace(tmp, cached)
        return run.stdout

    # Two at a time: the machines have two cores.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for text in pool.map(one, files):
            sys.stdout.write(text)


if __name__ == "__main__":
    main()
