"""Which modules still speak English only: a visible, shrinking list.

Every user-visible text goes through the catalogues (``_``, ``ngettext``, ``lazy``,
``lazy_plural``, ``N_``: :mod:`i18n`). Texts not yet wrapped are counted here per module: a
literal of three words or more that is not a docstring, a log line, a slash command's
declaration (those are translated on sync, :mod:`bot.translator`) or an argument of those
functions. The counts below are what is left to translate; the test fails when a module gets
more (new English-only text), so the gap can only shrink. Lower a count when you wrap texts.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import REPO

PACKAGES = ("service", "bot", "cogs")
WRAPPERS = {"_", "ngettext", "lazy", "lazy_plural", "N_", "translate"}
#: Calls whose texts are for the log, the operator or the command declaration, not a member.
NOT_FOR_MEMBERS = {"debug", "info", "warning", "error", "exception", "critical", "command",
                   "describe", "Choice", "Group", "rename", "choices", "getLogger", "execute",
                   "fetchone", "fetchall", "startswith", "endswith"}

#: English-only texts left per module (a module not listed has none). Counted by a heuristic:
#: some are for the operator (settings, metrics, the log), not for members.
UNWRAPPED = {
    "bot/client.py": 1,
    "bot/delivery.py": 11,
    "bot/errors.py": 1,
    "bot/health.py": 2,
    "bot/lichess/client.py": 4,
    "bot/lichess/secrets.py": 2,
    "bot/lichess/web.py": 2,
    "bot/logs.py": 3,
    "bot/metrics.py": 12,
    "bot/notify.py": 13,
    "bot/permissions.py": 1,
    "bot/pictures/bracket.py": 1,
    "bot/pictures/draw.py": 3,
    "bot/pictures/tables.py": 2,
    "bot/render/advice.py": 2,
    "bot/render/bracket.py": 3,
    "bot/render/confirm.py": 7,
    "bot/render/explain.py": 12,
    "bot/render/exports.py": 1,
    "bot/render/lichess.py": 16,
    "bot/render/limits.py": 10,
    "bot/render/notify.py": 10,
    "bot/render/requests.py": 11,
    "bot/render/timers.py": 17,
    "bot/render/tournament.py": 3,
    "bot/settings.py": 16,
    "bot/web/app.py": 2,
    "bot/web/page.py": 14,
    "bot/web/serving.py": 1,
    "bot/web/static.py": 2,
    "cogs/admin.py": 9,
    "cogs/common.py": 2,
    "cogs/confirm.py": 1,
    "cogs/explain.py": 3,
    "cogs/lichess.py": 2,
    "cogs/notify.py": 2,
    "cogs/privacy.py": 12,
    "cogs/tables.py": 1,
    "cogs/tournament.py": 12,
    "cogs/views.py": 14,
    "service/advice.py": 7,
    "service/base.py": 2,
    "service/boundary.py": 15,
    "service/confirm.py": 22,
    "service/course.py": 10,
    "service/decklists.py": 15,
    "service/deferred.py": 1,
    "service/drafts.py": 18,
    "service/entry.py": 9,
    "service/explain.py": 50,
    "service/exports.py": 17,
    "service/lichess.py": 25,
    "service/lichess_api.py": 4,
    "service/lichess_games.py": 6,
    "service/lifecycle.py": 10,
    "service/live.py": 3,
    "service/model.py": 1,
    "service/notify.py": 1,
    "service/pairing_pool.py": 3,
    "service/pairing_runs.py": 9,
    "service/players.py": 22,
    "service/playoff_state.py": 4,
    "service/playoffs.py": 10,
    "service/present.py": 2,
    "service/privacy.py": 5,
    "service/prompts.py": 1,
    "service/requests.py": 13,
    "service/resolve.py": 1,  # a programming error's ValueError, never shown
    "service/results.py": 31,
    "service/rounds.py": 20,
    "service/schedule.py": 10,
    "service/stored_round.py": 2,
    "service/timers.py": 20,
    "service/tournaments.py": 22,
    "service/validation.py": 17,
}


class _Counter(ast.NodeVisitor):
    def __init__(self) -> None:
        self.count = 0
        self.skip = 0

    def visit_Call(self, node: ast.Call) -> None:
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
            node.func, "id", "")
        if name in WRAPPERS or name in NOT_FOR_MEMBERS:
            return
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        node.decorator_list = []  # slash command declarations: translated on sync
        self._body(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._body(node)

    def visit_Module(self, node: ast.Module) -> None:
        self._body(node)

    def _body(self, node: ast.AST) -> None:
        body = getattr(node, "body", [])
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        for child in body:
            self.visit(child)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for default in node.args.defaults:
                self.visit(default)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        text = "".join(v.value for v in node.values
                       if isinstance(v, ast.Constant) and isinstance(v.value, str))
        self._text(text)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self._text(node.value)

    def _text(self, text: str) -> None:
        words = text.split()
        if len(words) >= 3 and any(c.isalpha() for c in text) and not text.isupper():
            self.count += 1


def unwrapped_texts(path: Path) -> int:
    counter = _Counter()
    counter.visit(ast.parse(path.read_text(encoding="utf-8")))
    return counter.count


def counts() -> dict[str, int]:
    found = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            count = unwrapped_texts(path)
            if count:
                found[path.relative_to(REPO).as_posix()] = count
    return found


def test_no_module_gets_more_english_only_text() -> None:
    grown = {module: (count, UNWRAPPED.get(module, 0)) for module, count in counts().items()
             if count > UNWRAPPED.get(module, 0)}
    assert not grown, (
        "wrap these texts in i18n's _ / ngettext / lazy (then `make messages` and translate): "
        + ", ".join(f"{module} has {now} (was {before})"
                    for module, (now, before) in sorted(grown.items())))


def test_the_wrapped_modules_stay_wrapped() -> None:
    for module in ("bot/render/confirm.py", "bot/errors.py", "service/permissions.py"):
        assert unwrapped_texts(REPO / module) <= UNWRAPPED.get(module, 0), module
