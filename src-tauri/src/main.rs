//! The desktop workbench: one Tauri window over the sandbox service, which runs in this process through the
//! same [`xs2a_http::app::App`] as `xs2a-sandbox serve`. This file wires the parts together and owns the
//! life cycle: answer `--version`/`--help`, hand a second launch to the running app (instance.rs), start the
//! service, open the window (its size and position kept between launches), and on exit (window closed,
//! SIGINT/SIGTERM, on Windows Ctrl+C or a closing console) stop serving and make the store durable before
//! the process ends.

// A release build on Windows must not open a console next to the window.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod about;
mod commands;
mod fullscreen;
mod instance;
mod memory;
mod options;
mod platform;
mod service;
mod window;

use std::time::Instant;
use tauri::{Manager, RunEvent, WindowEvent};
use tauri_plugin_window_state::{AppHandleExt, StateFlags};

fn main() {
    let started = Instant::now();
    let options =
        match options::Options::parse(std::env::args().skip(1), |name| std::env::var(name).ok()) {
            Ok(options) => options,
            Err(message) => {
                eprintln!("xs2a-desktop: {message}\n\n{}", options::USAGE);
                std::process::exit(2);
            }
        };
    if options.version {
        println!("xs2a-desktop {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    if options.help {
        println!("{}", options::USAGE);
        return;
    }
    memory::before_gtk();
    xs2a_http::logging::init_tracing();

    let context = tauri::generate_context!("../tauri.conf.json");
    // The app's data directory (the platform's local data directory followed by the identifier: Tauri's
    // app_local_data_dir), known here already because the single-instance lock is per data directory and
    // must be taken before the app starts.
    let identifier = context.config().identifier.clone();
    let app_data_dir = xs2a_core::platform::dirs::data_root()
        .unwrap_or_default()
        .join(&identifier);
    let data = options.data_dir(app_data_dir);

    let mut builder = tauri::Builder::default();
    // First of the plugins: a second launch must leave before anything else starts.
    if let Some(lock) = instance::lock_name(&identifier, &data) {
        builder = builder.plugin(
            tauri_plugin_single_instance::Builder::new()
                .dbus_id(lock)
                .callback(|app, args, _cwd| instance::bring_forward(app, &args))
                .build(),
        );
    }
    let app = builder
        // The main window's size, position and maximised state; the SCA window opens at its own size.
        .plugin(
            tauri_plugin_window_state::Builder::default()
                .with_denylist(&[commands::SCA])
                .build(),
        )
        .manage(commands::Readiness::new(started))
        .invoke_handler(tauri::generate_handler![
            commands::open_sca_window,
            commands::save_file,
            commands::open_file,
            commands::ui_ready,
            about::about,
            about::open_data_folder,
            fullscreen::set_fullscreen,
            fullscreen::is_fullscreen,
        ])
        .setup(move |app| {
            let service = match service::Service::start(data, options.port) {
                Ok(service) => service,
                Err(message) => {
                    // A second copy on the same data directory where the single-instance lock could not
                    // help (no D-Bus session): say where the first one serves and leave, rather than panic
                    // inside Tauri's setup.
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

            // A stop request (SIGINT/SIGTERM; on Windows Ctrl+C and the like) ends the app the way closing
            // the window does: the window's place is saved, the windows go, and the store is closed (the
            // server ends the page's event stream as it stops).
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(async move {
                xs2a_http::api::server::shutdown_signal().await;
                let _ = handle.save_window_state(StateFlags::all());
                for window in handle.webview_windows().into_values() {
                    let _ = window.destroy();
                }
                handle.exit(0);
            });
            Ok(())
        })
        .build(context)
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
