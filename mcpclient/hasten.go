package mcpclient

import "time"

// Hasten shortens each step of Close's shutdown (stdin closed, then SIGTERM, then SIGKILL)
// to grace, for a Close in progress as for a later one: a step already waiting ends at most
// grace after the call. It is for a session the user interrupted (ctrl+c), where the
// server's full ShutdownGrace to leave on its own is no longer owed and a server that
// ignores its stdin's end should not keep the user waiting. The first call wins; grace <= 0
// escalates at once. A remote session is unaffected.
func (c *Client) Hasten(grace time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hurryLocked()
	select {
	case <-c.hurry:
		return
	default:
	}
	c.hurryGrace = max(grace, 0)
	close(c.hurry)
}

func (c *Client) hurryLocked() chan struct{} {
	if c.hurry == nil {
		c.hurry = make(chan struct{})
	}
	return c.hurry
}

// stepGrace is how long one shutdown step waits now: ShutdownGrace, or Hasten's grace when
// shorter.
func (c *Client) stepGrace() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.hurryLocked():
		return min(c.hurryGrace, c.cfg.ShutdownGrace)
	default:
		return c.cfg.ShutdownGrace
	}
}

// waitStep waits for done for one shutdown step: ShutdownGrace, cut to Hasten's grace from
// the moment Hasten is called. It reports whether done came.
func (c *Client) waitStep(done <-chan struct{}) bool {
	c.mu.Lock()
	hurry := c.hurryLocked()
	c.mu.Unlock()
	start := time.Now()
	t := time.NewTimer(c.cfg.ShutdownGrace)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	case <-hurry:
	}
	left := c.cfg.ShutdownGrace - time.Since(start)
	select {
	case <-done:
		return true
	default:
	}
	return waitAny(done, max(0, min(c.stepGrace(), left)))
}
