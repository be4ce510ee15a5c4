package sdk

import (
	"fmt"
	"net"
	"os"
)

// ExitHostRefused is the exit status of an extension that refused the socket it was given,
// because the process at the other end does not run as its own user (sysexits' EX_NOPERM).
// pig reports it with the last line the process wrote to standard error.
const ExitHostRefused = 77

// hostProblem says why the peer of conn (the socket pig named) is not to be trusted, or "" when
// it runs as this process's user. It is the kernel's record of the peer, made before anything is
// sent: whoever else could bind the socket's path would otherwise get the token and everything
// the extension registers.
func hostProblem(conn *net.UnixConn) string {
	raw, err := conn.SyscallConn()
	if err != nil {
		return fmt.Sprintf("its peer cannot be checked: %v", err)
	}
	var uid uint32
	var checked bool
	var callErr error
	if err := raw.Control(func(fd uintptr) { uid, checked, callErr = peerUID(int(fd)) }); err != nil {
		return fmt.Sprintf("its peer cannot be checked: %v", err)
	}
	if callErr != nil {
		return fmt.Sprintf("its peer cannot be checked: %v", callErr)
	}
	if !checked {
		return "" // no peer credentials on this platform (docs/extension-protocol.md §2)
	}
	return peerUIDProblem(uid, uint32(os.Getuid()))
}

func peerUIDProblem(peer, own uint32) string {
	if peer == own {
		return ""
	}
	return fmt.Sprintf("its peer runs as uid %d, not %d", peer, own)
}
