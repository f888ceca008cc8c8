"""Every firm-scoped read goes through app.services.tenancy: no other service module compares a
firm-owned table's `firm_id` (or a firm's `id`) with a value (`Portfolio.firm_id == x`,
`Firm.id != actor.firm_id`, ...). Column-to-column comparisons (joins, correlated counts) are not
firm filters and are left alone; comparisons on loaded rows (`portfolio.firm_id == ...`) are
Python, not SQL, and are not seen either."""
from __future__ import annotations

import ast
from pathlib import Path

from sqlmodel import SQLModel

import app.db.tables as tables

SERVICES = Path(__file__).resolve().parents[2] / "app" / "services"
GATE = "tenancy.py"

# module -> why its firm filters are not reads for an acting user (a whole module: "*"; else the
# outermost enclosing functions named)
ALLOWED: dict[str, dict[str, str]] = {
    "demo_advice.py": {"*": "demo data: loaded from the command line with no acting user, into the demo firms it creates"},
    "demo_models.py": {"*": "demo data: loaded from the command line with no acting user, into the demo firms it creates"},
    "demo_portfolios.py": {"*": "demo data: loaded from the command line with no acting user, into the demo firms it creates"},
    "models.py": {"create_model": "write: the owner firm a superuser picks for a new model must exist and be live"},
}

_CLASSES = {name: obj for name, obj in vars(tables).items()
            if isinstance(obj, type) and issubclass(obj, SQLModel) and hasattr(obj, "__table__")}
TABLES = set(_CLASSES)
FIRM_SCOPED = {name for name, obj in _CLASSES.items() if "firm_id" in obj.__table__.c}


def _column_of_table(node: ast.AST) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "col" and node.args:
        node = node.args[0]
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in TABLES


def _firm_column(node: ast.AST) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "col" and node.args:
        node = node.args[0]
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return False
    table = node.value.id
    return (node.attr == "firm_id" and table in FIRM_SCOPED) or (table == "Firm" and node.attr == "id")


def firm_filters(source: str) -> list[tuple[int, str, str]]:
    """(line, enclosing function, text) of each firm filter written in `source`."""
    found: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name if function == "" else function
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:]):
                if not isinstance(op, (ast.Eq, ast.NotEq)):
                    continue
                for a, b in ((left, right), (right, left)):
                    if _firm_column(a) and not _column_of_table(b):
                        found.append((node.lineno, function, ast.unparse(node)))
                        break
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(ast.parse(source), "")
    return found


def test_the_scan_sees_firm_filters_and_not_joins():
    seen = firm_filters(
        "def f(actor, firm_id, p):\n"
        "    a = select(Portfolio).where(Portfolio.firm_id == actor.firm_id)\n"
        "    b = select(Model).where(col(Model.firm_id) != firm_id)\n"
        "    c = Firm.id == 3\n"
        "    d = select(Asset).join(Firm, Firm.id == Asset.firm_id)\n"
        "    e = p.firm_id == actor.firm_id\n"
        "    g = select(User).where(User.firm_id == Firm.id)\n")
    assert [line for line, _, _ in seen] == [2, 3, 4]
    assert {function for _, function, _ in seen} == {"f"}


def test_only_the_tenancy_module_writes_firm_filters():
    assert (SERVICES / GATE).exists()
    offenders = []
    for path in sorted(SERVICES.glob("*.py")):
        if path.name == GATE:
            continue
        allowed = ALLOWED.get(path.name, {})
        if "*" in allowed:
            continue
        for line, function, text in firm_filters(path.read_text(encoding="utf-8")):
            if function not in allowed:
                offenders.append(f"app/services/{path.name}:{line} in {function or '<module>'}: {text}")
    assert not offenders, "firm filters outside app.services.tenancy (build them there):\n" + "\n".join(offenders)


def test_the_allow_list_names_real_modules_and_functions():
    for module, functions in ALLOWED.items():
        path = SERVICES / module
        assert path.exists(), module
        names = {n.name for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        assert all(f == "*" or f in names for f in functions), (module, functions)
