//! What keeps the whole app small (docs/desktop.md, Figures): WebKitGTK renders the window without GPU
//! compositing, the store's page cache is smaller than the headless service's, and the allocator hands
//! freed memory back after a burst of traffic. Each was measured with `scripts/measure-desktop.sh`.

/// The store's page cache in the app (the headless service keeps `xs2a_core::store::CACHE_BYTES`): the
/// workbench's working set is one user's, and every page it misses is on the local disk.
pub const STORE_CACHE_BYTES: u64 = 8 * 1024 * 1024;

/// Before GTK starts (first thing in `main`, while the process has one thread): WebKitGTK's DMA-BUF
/// renderer is of no use without GPU compositing ([`tune_webview`]), and setting it up costs the app and
/// web processes memory. A value the user set is left alone: the real-window tests set it to 0, because
/// WebKitWebDriver's screenshots never answer without that renderer (WebKitGTK 2.50.6).
pub fn before_gtk() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_DMABUF_RENDERER").is_none() {
        std::env::set_var("WEBKIT_DISABLE_DMABUF_RENDERER", "1");
    }
}

/// Returns freed heap to the system every few seconds. glibc keeps what a burst of requests freed (in
/// each thread's arena) until something asks for it back; without this the app process stays about 50 MB
/// larger after 10,000 logged requests.
pub fn trim_periodically() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let _ = std::thread::Builder::new()
            .name("xs2a-trim".into())
            .spawn(|| loop {
                std::thread::sleep(std::time::Duration::from_secs(2));
                // SAFETY: malloc_trim takes the allocator's own locks and only releases free memory.
                unsafe {
                    libc::malloc_trim(0);
                }
            });
    }
}

/// A window's web view renders without GPU compositing: the workbench is forms, tables and text, and the
/// web process is about 85 MB smaller without a GL context (under Xvfb, Mesa's llvmpipe).
///
/// Except under WebDriver (the real-window tests): WebKitWebDriver's screenshot of a page that renders
/// without compositing never answers (WebKitGTK 2.50.6), so a window driven by automation keeps WebKit's
/// default. Only how the page is painted differs; the memory figures are measured without WebDriver.
pub fn tune_webview<R: tauri::Runtime>(window: &tauri::WebviewWindow<R>) {
    #[cfg(target_os = "linux")]
    let _ = window.with_webview(|webview| {
        use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
        let view = webview.inner();
        if view.is_controlled_by_automation() {
            return;
        }
        if let Some(settings) = WebViewExt::settings(&view) {
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
        }
    });
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}
