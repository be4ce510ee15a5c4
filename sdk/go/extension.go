// Package sdk writes pig extensions in Go: processes that speak pig-ext/1 over the Unix
// socket pig gives them (docs/extension-protocol.md). It uses the standard library only.
//
//	func main() {
//		if err := sdk.Run(func(x *sdk.Extension) {
//			x.Command(sdk.Command{Name: "hello", Run: func(c *sdk.Context, args string) error {
//				return c.UI().Notify("hello "+args, "info")
//			}})
//		}); err != nil {
//			log.Fatal(err)
//		}
//	}
package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
)

// Protocol is the protocol version this SDK speaks.
const Protocol = "pig-ext/1"

// Extension is what setup registers on: tools, commands, shortcuts, flags and event handlers.
// Registration happens in setup; the SDK sends it to pig in one `register` before `ready`.
type Extension struct {
	peer     *peer
	id       string
	init     InitializeResult
	mu       sync.Mutex
	tools    map[string]Tool
	commands map[string]Command
	keys     map[string]Shortcut
	flags    []Flag
	handlers map[string][]eventHandler
	order    []string
	onState  []func(State)
	onBus    []func(channel string, data json.RawMessage)
	state    State
	flagVals map[string]any
	mirror   *mirror
	events   *queue
	shutdown bool
}

// InitializeResult is pig's answer to the handshake.
type InitializeResult struct {
	Protocol      string `json:"protocol"`
	MaxFrameBytes int    `json:"maxFrameBytes"`
	Host          struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"host"`
	Extension *string        `json:"extension"`
	Session   SessionInfo    `json:"session"`
	Flags     map[string]any `json:"flags"`
}

// SessionInfo is the run this process serves.
type SessionInfo struct {
	Cwd   string `json:"cwd"`
	Mode  string `json:"mode"` // interactive, print, json or rpc
	HasUI bool   `json:"hasUI"`
}

// Option changes how Run and Serve work.
type Option func(*options)

type options struct {
	name, version string
	trace         func(string)
}

// WithClient names the extension in the handshake.
func WithClient(name, version string) Option {
	return func(o *options) { o.name, o.version = name, version }
}

// WithTrace calls fn with the method of every message pig sends (ping included), on the
// reading goroutine: fn must be quick. For tests and debugging.
func WithTrace(fn func(method string)) Option {
	return func(o *options) { o.trace = fn }
}

// Run connects to the pig that started this process (PIG_EXT_SOCKET, PIG_EXT_TOKEN), runs
// setup, registers, and serves until the socket closes or pig says shutdown. It returns nil
// then. The token is removed from the environment, so programs the extension runs do not
// inherit it. When the process at the other end of the socket does not run as this process's
// user, Run sends nothing, says so on standard error and exits with ExitHostRefused.
func Run(setup func(x *Extension), opts ...Option) error {
	socket, token := os.Getenv("PIG_EXT_SOCKET"), os.Getenv("PIG_EXT_TOKEN")
	if socket == "" || token == "" {
		return errors.New("pig-ext: PIG_EXT_SOCKET and PIG_EXT_TOKEN are not set: this program is an extension that pig starts")
	}
	os.Unsetenv("PIG_EXT_TOKEN")
	conn, err := net.Dial("unix", socket)
	if err != nil {
		return fmt.Errorf("pig-ext: connecting to %s: %w", socket, err)
	}
	if problem := hostProblem(conn.(*net.UnixConn)); problem != "" {
		conn.Close()
		fmt.Fprintf(os.Stderr, "pig-ext: refused the host socket: %s\n", problem)
		os.Exit(ExitHostRefused)
	}
	err = Serve(conn, token, setup, opts...)
	if !shutdownByHost(err) {
		endOwnGroup()
	}
	return ignoreShutdown(err)
}

// errShutdown marks a serve that ended with pig's `shutdown` notification.
var errShutdown = errors.New("shutdown")

func shutdownByHost(err error) bool { return errors.Is(err, errShutdown) }
func ignoreShutdown(err error) error {
	if shutdownByHost(err) {
		return nil
	}
	return err
}

// Serve speaks pig-ext/1 on conn (already connected) as one extension. Run uses it; tests can
// hand it one end of a socket pair.
func Serve(conn io.ReadWriteCloser, token string, setup func(x *Extension), opts ...Option) error {
	o := options{name: "go-extension"}
	for _, opt := range opts {
		opt(&o)
	}
	x := &Extension{
		tools: map[string]Tool{}, commands: map[string]Command{}, keys: map[string]Shortcut{},
		handlers: map[string][]eventHandler{}, flagVals: map[string]any{}, events: newQueue(),
	}
	x.peer = newPeer(conn, o.trace)
	x.mirror = newMirror(x)
	done := make(chan error, 1)
	go func() { done <- x.peer.serve(x) }()
	err := x.start(o, token, setup)
	if err != nil {
		x.peer.shutdown()
		<-done
		if x.shutdownSeen() {
			return errShutdown // pig quit while this process was starting
		}
		return err
	}
	go x.events.run()
	err = <-done
	x.events.close()
	if x.shutdownSeen() {
		return errShutdown
	}
	return err
}

func (x *Extension) start(o options, token string, setup func(*Extension)) error {
	client := map[string]any{"name": o.name}
	if o.version != "" {
		client["version"] = o.version
	}
	params := map[string]any{"token": token, "protocols": []string{Protocol}, "client": client, "pid": os.Getpid()}
	if err := x.peer.call(context.Background(), "initialize", params, &x.init); err != nil {
		return fmt.Errorf("pig-ext: initialize: %w", err)
	}
	if x.init.MaxFrameBytes > 0 {
		x.peer.setMaxFrame(x.init.MaxFrameBytes)
	}
	if x.init.Extension != nil {
		x.id = *x.init.Extension
	}
	for k, v := range x.init.Flags {
		x.flagVals[k] = v
	}
	var setupErr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				setupErr = fmt.Errorf("setup panicked: %v", r)
			}
		}()
		setup(x)
	}()
	if setupErr == nil {
		var res struct {
			Diagnostics []struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"diagnostics"`
		}
		if err := x.peer.call(context.Background(), "register", x.registration(), &res); err != nil {
			return fmt.Errorf("pig-ext: register: %w", err)
		}
		for _, d := range res.Diagnostics {
			fmt.Fprintf(os.Stderr, "pig-ext: register %s: %s\n", d.Type, d.Message)
		}
	}
	ready := map[string]any{"extension": x.id}
	if setupErr != nil {
		ready["error"] = map[string]any{"message": setupErr.Error()}
	}
	if err := x.peer.call(context.Background(), "ready", ready, nil); err != nil {
		return fmt.Errorf("pig-ext: ready: %w", err)
	}
	return nil
}

// Session is what pig said about the run in the handshake: cwd, mode, whether there is a UI.
func (x *Extension) Session() SessionInfo { return x.init.Session }

// ID is the id pig gave this extension (the absolute path of its manifest).
func (x *Extension) ID() string { return x.id }

// Background is a Context for calls made outside a handler (from a goroutine of the
// extension's own); it ends when the connection closes.
func (x *Extension) Background() *Context { return x.newContext(x.peer.life, nil) }

func (x *Extension) registration() map[string]any {
	x.mu.Lock()
	defer x.mu.Unlock()
	tools := []map[string]any{}
	for _, t := range x.tools {
		tools = append(tools, t.spec())
	}
	commands := []map[string]any{}
	for _, c := range x.commands {
		spec := map[string]any{"name": c.Name}
		if c.Description != "" {
			spec["description"] = c.Description
		}
		if c.Complete != nil {
			spec["hasCompletions"] = true
		}
		commands = append(commands, spec)
	}
	keys := []map[string]any{}
	for _, s := range x.keys {
		spec := map[string]any{"key": s.Key}
		if s.Description != "" {
			spec["description"] = s.Description
		}
		keys = append(keys, spec)
	}
	flags := []map[string]any{}
	for _, f := range x.flags {
		flags = append(flags, f.spec())
	}
	return map[string]any{"extension": x.id, "tools": tools, "commands": commands, "shortcuts": keys, "flags": flags, "events": append([]string{}, x.order...)}
}

// FlagValue is the value of one of the extension's flags (a bool or a string) and whether pig
// has one: pig sends the values in the handshake and, once the command line has been read
// with the extension's flags, in `state`.
func (x *Extension) FlagValue(name string) (any, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	v, ok := x.flagVals[name]
	return v, ok
}
