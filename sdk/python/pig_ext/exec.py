"""Running a program from an extension: no shell, output collected, a timeout or cancellation
ends it (SIGTERM, then SIGKILL 5 s later)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

KILL_GRACE_S = 5.0


@dataclass
class ExecResult:
    stdout: str
    stderr: str
    code: int
    killed: bool


async def exec_command(command: str, args: list[str] | None = None, cwd: str | None = None, timeout: float | None = None) -> ExecResult:
    """Runs `command` with `args`; `timeout` in seconds. Cancelling the caller ends the program."""
    try:
        proc = await asyncio.create_subprocess_exec(
            command, *(args or []), cwd=cwd, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
    except OSError as error:
        return ExecResult("", str(error), 1, False)
    killed = False

    async def stop() -> None:
        nonlocal killed
        killed = True
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), KILL_GRACE_S)
            except asyncio.TimeoutError:
                proc.kill()

    out, err = bytearray(), bytearray()

    async def pump(stream: asyncio.StreamReader, into: bytearray) -> None:
        while chunk := await stream.read(1 << 16):
            into += chunk

    # Output is collected as it comes, so a program stopped by the timeout keeps what it printed.
    done = asyncio.ensure_future(asyncio.gather(pump(proc.stdout, out), pump(proc.stderr, err), proc.wait()))
    try:
        await asyncio.wait_for(asyncio.shield(done), timeout)
    except asyncio.TimeoutError:
        await stop()
        await done
    except asyncio.CancelledError:
        await asyncio.shield(stop())
        raise
    code = proc.returncode if proc.returncode is not None and proc.returncode >= 0 else 0
    return ExecResult(out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), code, killed)
