"""Dependencies between modules of app/ point one way: no module imports (at the top or inside a
function) a module that, directly or through others, imports it back."""
from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def _modules() -> dict[str, tuple[Path, bool]]:
    out: dict[str, tuple[Path, bool]] = {}
    for path in APP.rglob("*.py"):
        parts = list(path.relative_to(APP.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


def import_graph() -> dict[str, set[str]]:
    """module -> the app modules it imports anywhere in its text. `from package import name` counts
    as importing package.name when that is a module, else as importing the package."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                submodules = [f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in modules]
                targets = submodules + ([source] if len(submodules) < len(node.names) else [])
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_sees_function_level_imports():
    graph = import_graph()
    assert "app.services.tenancy" in graph["app.services.holdings"]
    assert graph["app.cli"], "app.cli imports the commands it runs inside functions"


def test_no_import_cycle_among_app_modules():
    graph = import_graph()
    found = cycles(graph)
    described = ["; ".join(f"{a} -> {b}" for a in c for b in sorted(graph[a]) if b in c) for c in found]
    assert not found, "import cycles:\n" + "\n".join(described)


def test_exports_are_builders_that_read_no_service():
    """Exports build files from read models; the services call them, never the other way round."""
    import ast
    import pathlib

    def imported(path: pathlib.Path) -> set[str]:
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        return found

    root = pathlib.Path(__file__).resolve().parents[2] / "app" / "exports"
    reaching = sorted(f"{path.name} imports {name}" for path in root.glob("*.py") for name in imported(path)
                      if name.startswith(("app.services", "app.db", "app.api", "app.ui")))
    assert reaching == []
