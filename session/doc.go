// Package session is what an MCP client session does beyond one request, without a UI:
// the client features and capabilities it advertises, the queue of server→client requests,
// roots, list refresh and its list_changed storm guard, the in-flight request table, task
// following (the 2025-11-25 tasks utility and the modern tasks extension), the modern
// subscriptions/listen stream, and Recorded, a read-only session derived from a trace.
//
// It imports mcpclient and never bubbletea, lipgloss or ui: the TUI and the headless
// commands both use it. Time is passed in (a now parameter or a Clock), and long waits
// are plain blocking methods or channels, so a UI runs them where it runs its I/O and a
// test drives them without sleeping. Nothing here assumes stdio: a Live session uses only
// the methods of its *mcpclient.Client.
package session
