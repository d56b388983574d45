"""The live process tree below a pid, read from /proc (Linux): what kill and shutdown tests
check for leftovers."""

from __future__ import annotations

from pathlib import Path


def descendants(pid: int) -> dict[int, str]:
    """Every live process below ``pid`` (workers, JVMs, multiprocessing's resource
    tracker) as pid -> command name."""
    children: dict[int, list[tuple[int, str]]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append((int(entry.name), name))
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child, name in children.get(todo.pop(), []):
            if child not in found:
                found[child] = name
                todo.append(child)
    return found
