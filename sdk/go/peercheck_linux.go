package sdk

import "syscall"

// peerUID reads SO_PEERCRED (struct ucred) of a connected Unix socket.
func peerUID(fd int) (uint32, bool, error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return 0, false, err
	}
	return cred.Uid, true, nil
}
