"""No import cycle in ffnverify/, counting the imports inside functions (which Python
defers, and which import-linter's layers see too, but which hide a cycle from a reader).

The graph is read with `ast` from the source: an edge for every `import a.b` and
`from a.b import c` (to a.b.c when that is a module, else to a.b), wherever it stands.
Each strongly connected component of more than one module is a cycle. The packages whose
cycles other work is removing are listed in EXPECTED with their owner; any other cycle
fails, and so does an EXPECTED entry with no cycle left (the list stays honest).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "ffnverify"

# a package whose cycles other work is still removing -> who; empty since issue 25 §2's
# three cycles (claims, scan, testing) were removed, so any cycle fails
EXPECTED: dict[str, str] = {}


def owner(cycle) -> str | None:
    """The package of EXPECTED that holds the whole cycle, if any."""
    return next((p for p in EXPECTED if all(m.startswith(p + ".") for m in cycle)), None)


def modules() -> dict[str, Path]:
    out = {}
    for path in (ROOT / PACKAGE).rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        out |= {t for t in targets if t in known and t != name}
    return out


def cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(tuple(sorted(comp)))
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_cycle_finder_finds_a_cycle_and_no_false_one():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(g) == [("a", "b", "c")]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_but_the_expected_ones():
    found = cycles(graph())
    unexpected = [c for c in found if owner(c) is None]
    assert not unexpected, "import cycles (imports inside functions counted):\n" + "\n".join(
        " <-> ".join(c) for c in unexpected)
    gone = set(EXPECTED) - {owner(c) for c in found}
    assert not gone, f"no cycle left in {sorted(gone)}: take them off EXPECTED"
