// A Go program for the sig_go test: the Go runtime's own signal handlers under the shim.
// It sends SIGUSR2 to every thread of the process (as the kernel may pick any thread that
// does not block it for a signal sent to the process); with "notify" it asks for SIGUSR2
// itself. Under TSC_DUMP_SIGNAL=USR2 it waits for the dump (DIR/r.PID.json) before exiting,
// since a Go program leaves without libc's exit and so without a report at exit.
package main

// int twice(int x) { return 2 * x; }
import "C"

import (
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	notify := len(os.Args) > 2 && os.Args[2] == "notify"
	got := make(chan os.Signal, 64)
	if notify {
		signal.Notify(got, syscall.SIGUSR2)
	}
	fmt.Println("cgo says", C.twice(21))
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	for _, t := range tasks {
		tid, _ := strconv.Atoi(t.Name())
		syscall.Tgkill(os.Getpid(), tid, syscall.SIGUSR2)
	}
	if notify {
		<-got
		fmt.Println("SIGUSR2 reached signal.Notify")
	}
	time.Sleep(200 * time.Millisecond)
	if os.Getenv("TSC_DUMP_SIGNAL") != "" {
		path := fmt.Sprintf("%s/r.%d.json", os.Args[1], os.Getpid())
		for i := 0; i < 1000; i++ {
			if _, err := os.Stat(path); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	fmt.Println("alive")
}
