//! The desktop workbench: one Tauri window over the sandbox service, which runs in this process through the
//! same [`xs2a_sandbox::app::App`] as `xs2a-sandbox serve`. This file wires the parts together and owns the
//! life cycle: start the service, open the window, and on exit (window closed, SIGINT/SIGTERM) stop serving
//! and make the store durable before the process ends.

// A release build on Windows must not open a console next to the window.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod memory;
mod options;
mod service;
mod window;

use std::time::Instant;
use tauri::{Manager, RunEvent, WindowEvent};

fn main() {
    let started = Instant::now();
    memory::before_gtk();
    xs2a_sandbox::cli::init_tracing();
    let options =
        match options::Options::parse(std::env::args().skip(1), |name| std::env::var(name).ok()) {
            Ok(options) => options,
            Err(message) => {
                eprintln!("xs2a-desktop: {message}");
                std::process::exit(2);
            }
        };

    let app = tauri::Builder::default()
        .manage(commands::Readiness::new(started))
        .invoke_handler(tauri::generate_handler![
            commands::open_sca_window,
            commands::save_file,
            commands::open_file,
            commands::ui_ready,
        ])
        .setup(move |app| {
            let data = options.data_dir(app.path().app_data_dir()?);
            let service = match service::Service::start(data, options.port) {
                Ok(service) => service,
                Err(message) => {
                    // Most often a second copy of the app on the same data directory: say where the first
                    // one serves and leave, rather than panic inside Tauri's setup.
                    eprintln!("xs2a-desktop: {message}");
                    std::process::exit(1);
                }
            };
            service.announce();
            memory::trim_periodically();
            // With the ready line (commands::ui_ready), splits the start-up time: service, then window and UI.
            println!(
                "xs2a-desktop: service up after {} ms",
                started.elapsed().as_millis()
            );
            window::open_main(app.handle(), service.base_url(), service.token())?;
            app.manage(service);

            // SIGINT/SIGTERM end the app the way closing the window does, so the store is closed cleanly.
            // The windows go first: their pages hold the event stream open, which a graceful stop of the
            // server would otherwise wait out.
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(async move {
                xs2a_sandbox::api::server::shutdown_signal().await;
                for window in handle.webview_windows().into_values() {
                    let _ = window.destroy();
                }
                handle.exit(0);
            });
            Ok(())
        })
        .build(tauri::generate_context!("../tauri.conf.json"))
        .unwrap_or_else(|error| {
            eprintln!("xs2a-desktop: cannot start the window: {error}");
            std::process::exit(1);
        });

    app.run(|handle, event| match event {
        // The SCA window alone is no workbench: closing the main window ends the app.
        RunEvent::WindowEvent {
            label,
            event: WindowEvent::Destroyed,
            ..
        } if label == window::MAIN => handle.exit(0),
        RunEvent::Exit => {
            if let Some(service) = handle.try_state::<service::Service>() {
                service.stop();
            }
        }
        _ => {}
    });
}
