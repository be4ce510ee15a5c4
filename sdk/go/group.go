package sdk

import (
	"os"
	"os/signal"
	"syscall"
)

// endOwnGroup ends the helpers this process started when pig went away without `shutdown`
// (it may have been killed and cannot end the group itself, docs §8). It signals the process
// group it leads with SIGTERM, which it ignores itself, so Run can still return.
func endOwnGroup() {
	pid := os.Getpid()
	if syscall.Getpgrp() != pid {
		return
	}
	signal.Ignore(syscall.SIGTERM)
	_ = syscall.Kill(-pid, syscall.SIGTERM)
}
