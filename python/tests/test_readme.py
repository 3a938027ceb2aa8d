"""python/README.md's examples are real: in the first ```python block of
its API section, each line `EXPR  # VALUE` (or `EXPR` followed by a
line `# VALUE`) must give VALUE as its repr, and `# raises NAME: ...`
must raise NAME."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def examples():
    text = README.read_text()
    section = text[text.index("\n## The API\n") :]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    return block.splitlines()


def test_readme_python_examples():
    env: dict = {}
    lines = examples()
    checked = 0
    statement: list[str] = []
    for i, line in enumerate(lines):
        code, _, comment = line.partition("  # ")
        if line.startswith("# "):
            continue
        statement.append(code)
        src = "\n".join(statement)
        try:
            compile(src, "README", "exec")
        except SyntaxError:
            continue  # a statement over several lines
        statement = []
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if not comment and following.startswith("# "):
            comment = following[2:]
        if comment.startswith("raises "):
            name = comment[len("raises ") :].split(":")[0].strip()
            with pytest.raises(Exception) as e:
                exec(src, env)
            assert f"{type(e.value).__module__}.{type(e.value).__name__}".endswith(name)
        elif comment:
            assert repr(eval(src, env)) == comment.strip(), src
        else:
            exec(src, env)
            continue
        checked += 1
    assert checked >= 6
