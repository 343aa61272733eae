// A Go program with cgo for the go_cgo tests: it calls the C function go_work N times
// (argument 1), prints the sum, then leaves as asked (argument 2): "exit3" by os.Exit(3),
// "panic" by an unrecovered panic (status 2), anything else by returning from main. Each way
// ends in the Go runtime's own exit_group (runtime.exit), never in libc's exit.
package main

// __attribute__((noinline)) int go_work(int x) { return x * 3 + 1; }
import "C"

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	n, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	sum := 0
	for i := 0; i < n; i++ {
		sum += int(C.go_work(C.int(i)))
	}
	fmt.Println("sum", sum)
	switch os.Args[2] {
	case "exit3":
		os.Exit(3)
	case "panic":
		panic("as asked")
	}
}
