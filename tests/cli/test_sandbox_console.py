"""``swissbot sandbox`` prints the web console's address, and the console is served there."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]


async def test_the_sandbox_prints_the_console_address_and_serves_it(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cli.main", "sandbox", "--port", "0", "--players", "2",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    try:
        printed = ""
        while "console" not in printed:
            line = await asyncio.wait_for(process.stdout.readline(), 30)
            assert line, f"the sandbox ended before printing its console: {printed!r}"
            printed += line.decode()
        found = re.search(r"(http://127\.0\.0\.1:\d+/console/)", printed)
        assert found, printed
        async with aiohttp.ClientSession() as http:
            async with http.get(found.group(1)) as page:
                assert page.status == 200
                assert 'aria-label="Slash command"' in await page.text()
            async with http.get(found.group(1) + "api/state") as state:
                members = (await state.json())["members"]
                assert [m["username"] for m in members if not m["owner"]] == [
                    "player01", "player02"]
    finally:
        process.terminate()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), 10)
