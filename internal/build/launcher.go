package build

import (
	"context"
	"errors"
	"sync"

	"github.com/kurs-course/kurs/internal/sandbox"
)

// launcherID names the launcher program among the judges. Exercise ids
// are Go package names, which have no "_": no judge's name starts with it,
// and trimming an exercise's old judges never takes it.
const launcherID = "_launcher"

// launcherFailed keeps, per Builder, why the launcher program could not be
// built, so that a Builder tries once rather than once per check.
var launcherFailed sync.Map // *Builder → error

// launcherModule is the launcher program's module, the same for every
// Builder.
var launcherModule = sync.OnceValue(func() map[string][]byte { return sandbox.LauncherModule(GoLanguage) })

// Launcher returns the path of the launcher program, package sandbox's
// launcher built alone from [sandbox.LauncherModule] with the go command,
// offline and static: a program that initialises only the standard
// library, which starts in a fraction of kurs's time. Name it in
// sandbox.Policy.Launcher. Like a judge, it is built once per content and
// go version and kept in the cache with the hash of what was built; a
// launcher whose file no longer has that hash is built anew, never run.
//
// The build is the Builder's, not the caller's: it goes on when ctx ends
// (ending at Close), so that a check's deadline never cuts it short and
// the next check finds the program. The error says why there is none: ctx
// ended first, or the program cannot be built (then a Builder does not
// try again). Without it, kurs itself is the launcher (Policy.Launcher
// ""), the same code at the cost of kurs's start.
func (b *Builder) Launcher(ctx context.Context) (string, error) {
	if err, ok := launcherFailed.Load(b); ok {
		return "", err.(error)
	}
	if launcherModule() == nil {
		return "", errors.New("no launcher on this system")
	}
	type built struct {
		path string
		err  error
	}
	if err := b.ctx.Err(); err != nil {
		return "", err // closed
	}
	done := make(chan built, 1)
	b.bg.Add(1) // Close waits for the build it ends
	go func() {
		defer b.bg.Done()
		path, err := b.Judge(b.ctx, launcherID, launcherModule())
		if err != nil && b.ctx.Err() == nil {
			launcherFailed.Store(b, err)
		}
		done <- built{path, err}
	}()
	select {
	case r := <-done:
		return r.path, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// launcher returns the launcher program for a sandbox.Policy: "" (kurs
// itself) when there is none.
func (b *Builder) launcher(ctx context.Context) string {
	path, _ := b.Launcher(ctx)
	return path
}
