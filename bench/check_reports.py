"""Render every report of the command line on fixed inputs, to compare two builds byte for byte.

``python bench/check_reports.py write DIR`` runs ``toolexpect`` (the one on ``PATH`` next to this
Python) over the example specs, the fixture logs and a seeded benchmark corpus, and writes each
output (stdout, stderr and exit code) to a file in DIR. ``python bench/check_reports.py compare
OLD NEW`` lists every file that differs. Run ``write`` with one build, ``write`` again with the
other, then ``compare``: a refactoring that keeps behaviour shows no difference.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
FIXTURES = ROOT / "tests" / "fixtures" / "logs"
REPORTS = ("text", "json", "junit", "github", "markdown")
LINTS = ("full", "concise", "github", "json")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import generate, write_spec_and_log  # noqa: E402


def _toolexpect() -> list[str]:
    return [sys.executable, "-m", "toolexpect"]


def _run(args: list[str], cwd: Path) -> str:
    done = subprocess.run(
        [*_toolexpect(), *args], cwd=cwd, capture_output=True, text=True, env=None, check=False
    )
    return f"exit {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"


def _broken_specs(folder: Path) -> list[Path]:
    """A few specs with syntax, schema and lint findings, so diagnostics are compared too."""
    texts = {
        "unclosed.expect": 'expect get_weather(city="Berlin"\n',
        "keyword.expect": "expect t(x=1)\nrequire acuracy >= 2\n",
        "duplicate.expect": 'case "a" { expect t(x=1, x=2) }\ncase "a" { expect t }\n',
        "empty.expect": 'case "nothing" { question "hi?" }\n',
        "bad.expect.json": json.dumps({"version": 1, "cases": [{"name": 3}]}),
    }
    paths = []
    for name, text in texts.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def _corpus(folder: Path) -> tuple[Path, Path]:
    """A seeded benchmark corpus (200 scenarios x 5 runs) as a spec and a canonical log."""
    samples = generate(seed=7, scenarios=200, runs=5)["samples"]
    random.Random(3).shuffle(samples)
    return write_spec_and_log(samples, folder)


def _rotated(folder: Path) -> list[Path]:
    """The pairing fixtures' conversations logged into files rotated mid-conversation, with
    another conversation (same system prompt, its own question) in a file between them."""
    records = (FIXTURES.parent / "pairing" / "conversations.jsonl").read_text(encoding="utf-8").splitlines()
    other = [
        line.replace("Wie wird das Wetter morgen in Berlin?", "Und in Hamburg?").replace(
            '"berlin tomorrow"', '"hamburg"'
        )
        for line in records[:3]
    ]
    files = {
        "rot-0.jsonl": records[0:4],
        "rot-1.jsonl": other,
        "rot-2.jsonl": records[4:7],
        "rot-3.jsonl": records[7:],
    }
    paths = []
    for name, lines in files.items():
        path = folder / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def write(out: Path) -> int:
    """Write every output into ``out``; return the number written."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(SPECS, work / "specs")
        shutil.copytree(FIXTURES, work / "logs")
        broken = work / "broken"
        broken.mkdir()
        _broken_specs(broken)
        corpus = work / "corpus"
        corpus.mkdir()
        spec, log = (path.relative_to(work) for path in _corpus(corpus))
        jobs: dict[str, list[str]] = {}
        rotated = work / "rotated"
        rotated.mkdir()
        shutil.copy(FIXTURES.parent / "pairing" / "weather.expect", rotated / "weather.expect")
        logs = [str(path.relative_to(work)) for path in _rotated(rotated)]
        rotated_log = [arg for log in logs for arg in ("--log", log)]
        for pairing in (["--pair-by", "id"], ["--pair-by", "question"], ["--case-from", "metadata.case"]):
            name = pairing[-1].replace(".", "-")
            for fmt in REPORTS:
                base = ["score", "rotated/weather.expect", *rotated_log, *pairing, "--format", fmt]
                jobs[f"rotated-{name}-{fmt}"] = base
            jobs[f"rotated-{name}-dask"] = [*base[:-2], "--format", "json", "--dask"]
        for fmt in REPORTS:
            jobs[f"score-specs-{fmt}"] = ["score", "specs", "--log", "specs/logs/run.jsonl", "--format", fmt]
            jobs[f"score-corpus-{fmt}"] = ["score", str(spec), "--log", str(log), "--format", fmt]
        jobs["score-corpus-j1"] = ["score", str(spec), "--log", str(log), "--format", "json", "-j", "1"]
        tools = ["--tools", "specs/tools.json"]
        jobs["score-tools"] = ["score", "specs", "--log", "specs/logs/run.jsonl", *tools]
        for fmt in LINTS:
            jobs[f"lint-specs-{fmt}"] = ["lint", "specs", "--format", fmt]
            jobs[f"lint-broken-{fmt}"] = ["lint", "broken", "--format", fmt]
        jobs["format-check"] = ["format", "--check", "--diff", "specs"]
        for path in sorted((work / "specs").glob("*.expect")):
            jobs[f"compile-{path.stem}"] = ["compile", f"specs/{path.name}"]
        jobs["schema"] = ["schema"]
        for path in sorted((work / "logs").rglob("*")):
            if path.is_file():
                rel = path.relative_to(work).as_posix()
                jobs[f"calls-{rel.replace('/', '_')}"] = ["calls", rel, "--format", "json"]
        for name, args in jobs.items():
            dotted = tmp.replace("/", ".").strip(".")  # JUnit class names spell paths with dots
            text = _run(args, work).replace(tmp, "<tmp>").replace(dotted, "<tmp>")
            (out / f"{name}.txt").write_text(text, encoding="utf-8")
    return len(jobs)


def compare(old: Path, new: Path) -> int:
    """Print the names of outputs that differ or exist on one side only; return their count."""
    names = sorted({p.name for p in old.glob("*.txt")} | {p.name for p in new.glob("*.txt")})
    differ = 0
    for name in names:
        a, b = old / name, new / name
        if not a.exists() or not b.exists() or a.read_bytes() != b.read_bytes():
            differ += 1
            print(f"differs: {name}")
    print(f"{len(names) - differ} of {len(names)} outputs identical")
    return differ


def main() -> int:
    """Command line: ``write DIR`` or ``compare OLD NEW``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("write").add_argument("dir", type=Path)
    both = sub.add_parser("compare")
    both.add_argument("old", type=Path)
    both.add_argument("new", type=Path)
    args = parser.parse_args()
    if args.command == "write":
        print(f"{write(args.dir)} outputs written to {args.dir}")
        return 0
    return 1 if compare(args.old, args.new) else 0


if __name__ == "__main__":
    raise SystemExit(main())
