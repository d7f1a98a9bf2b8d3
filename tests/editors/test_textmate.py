"""The TextMate grammar of ``.expect`` files: vscode-tmgrammar-test checks the scopes annotated
in the sample files under editors/textmate/tests/, which cover every statement, matcher and kind
of value of docs/language.md."""

from __future__ import annotations

import json
import re
import subprocess

from toolexpect.language.grammar import first_words, literal, spellings

from .editors_support import NODE_BIN, TEXTMATE, require

GRAMMAR = TEXTMATE / "toolexpect.tmLanguage.json"
SAMPLES = sorted((TEXTMATE / "tests").glob("*.expect"))


def test_every_sample_passes_the_grammar_test_runner() -> None:
    """vscode-tmgrammar-test finds every annotated scope of every sample file (exit code 0)."""
    runner = require(NODE_BIN / "vscode-tmgrammar-test", "vscode-tmgrammar-test")
    done = subprocess.run(
        [str(runner), "--config", "tests/grammars.json", "tests/*.expect"],
        cwd=TEXTMATE,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    passed = re.findall(r"tests/(\S+\.expect) run successfuly", done.stdout)
    assert sorted(passed) == [sample.name for sample in SAMPLES]


def test_the_grammar_is_the_language_of_expect_files() -> None:
    """The grammar names its scope and file type, and every pattern it holds is reachable."""
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.toolexpect"
    assert grammar["fileTypes"] == ["expect"]
    text = GRAMMAR.read_text(encoding="utf-8")
    included = set(re.findall(r'"include": "#([a-z]+)"', text))
    assert included == set(grammar["repository"])


def test_the_samples_use_every_keyword_and_form_of_require() -> None:
    """Every statement keyword and every form of ``require`` of the parser's grammar (each bound
    of a count included) is in the samples, each annotated with its scope."""
    samples = "\n".join(sample.read_text(encoding="utf-8") for sample in SAMPLES)
    code = "\n".join(line for line in samples.splitlines() if not line.startswith("#"))
    for word in first_words("_item"):
        assert re.search(rf"^\s*(case \S+ \{{ )?{word}\b", code, re.MULTILINE), word
        assert f"keyword.control.{word}.toolexpect" in samples, word
    for words in spellings("require_stmt").values():
        form = " ".join(words).replace("number", "")
        assert form.strip() in code.replace("  ", " "), form
    annotated = _annotated(samples)
    count_words = {literal("CALL"), literal("CALLS"), literal("OF")}
    for words in spellings("count_bound").values():  # require at most 3 calls of search, ...
        bound = " ".join(r"\d+" if word == "number" else word for word in words)
        assert re.search(rf"^\s*require {bound} calls?\b", code, re.MULTILINE), words
        count_words.update(word for word in words if word != "number")
    for word in sorted(w for w in count_words if w):
        assert (word, "keyword.other.requirement.toolexpect") in annotated, word


def _annotated(samples: str) -> set[tuple[str, str]]:
    """Each (text, scope) a sample annotates: the characters of the code line above under the
    carets of an annotation line."""
    found: set[tuple[str, str]] = set()
    code = ""
    for line in samples.splitlines():
        marks = re.fullmatch(r"#(\s*)(\^+) (\S+)", line)
        if marks is None:
            if not line.startswith("#"):
                code = line
            continue
        start = 1 + len(marks.group(1))
        found.add((code[start : start + len(marks.group(2))], marks.group(3)))
    return found
