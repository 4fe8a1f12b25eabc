//! What asks the process to stop: SIGINT or SIGTERM on Unix; on Windows Ctrl+C, Ctrl+Break and the console
//! window closing (a console program gets no SIGTERM there), plus log-off and shutdown, which Windows sends
//! only to services (listened to for a service wrapper's sake). Windows gives a closing console a few
//! seconds before it ends the process (the graceful stop waits up to 5 s for requests in flight).

use std::future::Future;

/// Completes on the first stop request. The handlers are registered when this is called, not when the
/// future is first polled, so a request right after the ready line is not lost (it would otherwise end
/// the process with the default action).
pub fn requested() -> impl Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt()).expect("SIGINT handler installs");
        let mut terminate = signal(SignalKind::terminate()).expect("SIGTERM handler installs");
        async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
        }
    }
    #[cfg(windows)]
    {
        use tokio::signal::windows;
        let mut c = windows::ctrl_c().expect("Ctrl+C handler installs");
        let mut brk = windows::ctrl_break().expect("Ctrl+Break handler installs");
        let mut close = windows::ctrl_close().expect("console-close handler installs");
        let mut logoff = windows::ctrl_logoff().expect("log-off handler installs");
        let mut shutdown = windows::ctrl_shutdown().expect("shutdown handler installs");
        async move {
            tokio::select! {
                _ = c.recv() => {},
                _ = brk.recv() => {},
                _ = close.recv() => {},
                _ = logoff.recv() => {},
                _ = shutdown.recv() => {},
            }
        }
    }
}
