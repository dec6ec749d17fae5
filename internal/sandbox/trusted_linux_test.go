package sandbox

import (
	"bufio"
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A trusted program runs in its own process group: cancelling its context
// ends what it started, too.
func TestTrustedEndsWithItsChildren(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := Trusted(ctx, "sh", "-c", "sleep 60 & echo $!; wait")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	if pgid, err := syscall.Getpgid(cmd.Process.Pid); err != nil || pgid != cmd.Process.Pid {
		t.Errorf("process group %d, want its own (%d): %v", pgid, cmd.Process.Pid, err)
	}
	cancel()
	_ = cmd.Wait()
	endsSoon(t, child, "the program's child")
}
