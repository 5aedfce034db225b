"""The README's Python example runs and prints what the README says."""

import contextlib
import io
import os
import re

from conftest import REPO


def test_readme_python_example():
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("<!-- python-example -->"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)[1]
    printed = re.search(r"```text\n(.*?)```", section, re.S)[1]
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert out.getvalue() == printed
