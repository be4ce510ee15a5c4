"""Who is at the other end of the socket: the kernel's record, not anything the peer says.

Before an extension sends its token or registers, it checks that the process listening on
PIG_EXT_SOCKET runs as its own user. Someone else who could bind that path (a directory they
control on the way) would otherwise collect the token and see everything the extension sends.
"""
from __future__ import annotations

import os
import socket
import struct
import sys

# The exit status of an extension that refused the socket it was given (sysexits' EX_NOPERM);
# pig reports it as such, with the last line the process wrote to standard error.
EXIT_HOST_REFUSED = 77


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process at the other end of a connected Unix socket."""
    if hasattr(socket, "SO_PEERCRED"):  # Linux: struct ucred {pid, uid, gid}
        _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        return uid
    if sys.platform == "darwin" or "bsd" in sys.platform:
        # LOCAL_PEERCRED (level 0 = SOL_LOCAL, option 1) fills struct xucred {version, uid, ngroups, groups[16]}.
        raw = sock.getsockopt(0, 1, struct.calcsize("2Ih16I"))
        return struct.unpack_from("2I", raw)[1]
    raise OSError(f"reading a socket's peer is not supported on {sys.platform}")


def host_problem(sock: socket.socket | None, uid: int | None = None) -> str | None:
    """Why the socket's peer is not to be trusted, or None when it runs as this process's user."""
    if not hasattr(os, "getuid"):
        return None  # no uids to compare (Windows)
    uid = os.getuid() if uid is None else uid
    if sock is None:
        return "its peer cannot be checked: no socket"
    try:
        peer = peer_uid(sock)
    except OSError as error:
        return f"its peer cannot be checked: {error}"
    return None if peer == uid else f"its peer runs as uid {peer}, not {uid}"
