//go:build darwin || freebsd

package sdk

import (
	"syscall"
	"unsafe"
)

// peerUID reads LOCAL_PEERCRED (level SOL_LOCAL = 0, option 1), a struct xucred whose second
// 32-bit field is the peer's effective uid.
func peerUID(fd int) (uint32, bool, error) {
	var buf [128]byte
	size := uint32(len(buf))
	_, _, errno := syscall.Syscall6(syscall.SYS_GETSOCKOPT, uintptr(fd), 0, 1, uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&size)), 0)
	if errno != 0 {
		return 0, false, errno
	}
	return *(*uint32)(unsafe.Pointer(&buf[4])), true, nil
}
