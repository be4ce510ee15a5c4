package sdk

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestAHostSocketOfThisUserIsTrusted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			defer c.Close()
		}
	}()
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if problem := hostProblem(conn.(*net.UnixConn)); problem != "" {
		t.Fatalf("a socket of our own was refused: %s", problem)
	}
}

func TestAPeerOfAnotherUidIsRefusedNamingBoth(t *testing.T) {
	own := uint32(os.Getuid())
	if got := peerUIDProblem(own, own); got != "" {
		t.Fatalf("same uid refused: %s", got)
	}
	want := "its peer runs as uid " + strconv.Itoa(int(own)+1) + ", not " + strconv.Itoa(int(own))
	if got := peerUIDProblem(own+1, own); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
