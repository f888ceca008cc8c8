"""The type checker (mypy, configured in mypy.ini) over app/domain and app/services: the suite, and
so CI, fails on a type error. Also: it does catch what it is there for (a wrong field name of a
service's result, an id passed as text), converted slices are also checked for a written Any, and its list of modules not yet converted
names only modules that exist (so the list can only shrink as slices land)."""
from __future__ import annotations

import configparser
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "mypy.ini"


def _mypy(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(CONFIG), *arguments],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def _sections() -> configparser.ConfigParser:
    parser = configparser.ConfigParser()
    parser.read(CONFIG)
    return parser


def test_domain_and_services_pass_the_type_checker():
    run = _mypy()
    assert run.returncode == 0, (
        "mypy found type errors in app/domain or app/services (fix them; a module not yet converted "
        "is listed in mypy.ini with its reason):\n" + run.stdout + run.stderr)
    assert "Success" in run.stdout


def test_the_checker_catches_a_wrong_field_name_and_a_text_id(tmp_path):
    wrong = ("from app.domain.permissions import Actor\n"
             "from app.services.industry_groups import get_industry_group\n"
             "def title(actor: Actor) -> str:\n"
             "    return get_industry_group(actor=actor, group_id=1).name\n"
             "def by_text(actor: Actor) -> str:\n"
             "    return get_industry_group(actor=actor, group_id='1').title\n")
    snippet = tmp_path / "screen.py"
    snippet.write_text(wrong)
    run = _mypy(str(snippet))
    assert run.returncode == 1
    assert '"IndustryGroupView" has no attribute "name"' in run.stdout
    assert 'Argument "group_id" to "get_industry_group" has incompatible type "str"; expected "int"' in run.stdout


def test_excluded_modules_exist_and_converted_slices_are_not_excluded():
    sections = _sections()
    excluded: set[str] = set()
    for name in sections.sections():
        if name.startswith("mypy-") and sections.getboolean(name, "ignore_errors", fallback=False):
            excluded.update(m.strip() for m in name[len("mypy-"):].split(","))
    listed = {m for m in excluded if m.startswith(("app.domain", "app.services"))}
    for module in listed:
        path = ROOT / module.replace(".", "/")
        assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), \
            f"mypy.ini excludes {module}, which does not exist: take it off the list"
    strict = {m.strip() for name in sections.sections() if name.startswith("mypy-")
              and sections.getboolean(name, "disallow_any_explicit", fallback=False)
              for m in name[len("mypy-"):].split(",")}
    assert {"app.services.industry_groups", "app.domain.industry_groups"} <= strict
    assert not strict & excluded
