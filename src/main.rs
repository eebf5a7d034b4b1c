//! dynoscope's entry point: the CLI twin when a subcommand is given, the desktop app otherwise.
//!
//! `main` owns the one multi-thread tokio runtime; eframe runs on the main thread.

use std::process::ExitCode;

use dynoscope::cli::Cli;
use dynoscope::task::Spawner;
use dynoscope::ui::{DynoscopeApp, Remembered};

fn main() -> ExitCode {
    let cli = Cli::parse_checked();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .thread_name("dynoscope-worker")
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            dynoscope::cli::say(format_args!(
                "dynoscope: cannot start the async runtime: {e}"
            ));
            return dynoscope::cli::Exit::Error.code();
        }
    };
    match cli.command {
        Some(command) => {
            let code = runtime.block_on(dynoscope::cli::run(
                cli.connection.spec(),
                &cli.connection,
                command,
            ));
            // Everything was said and the outcome is known; a read of stdin that cannot be
            // cancelled (an MCP session's, on a terminal) must not hold the exit.
            runtime.shutdown_timeout(std::time::Duration::from_secs(1));
            code
        }
        None => match cli.connection.check() {
            Ok(()) => run_app(&runtime, &cli.connection),
            Err(error) => {
                dynoscope::cli::say(format_args!("dynoscope: {error}"));
                dynoscope::cli::Exit::Error.code()
            }
        },
    }
}

fn run_app(runtime: &tokio::runtime::Runtime, flags: &dynoscope::cli::ConnectionFlags) -> ExitCode {
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("dynoscope")
        .with_app_id("dynoscope")
        .with_inner_size([1280.0, 800.0])
        .with_min_inner_size([640.0, 400.0]);
    // The same picture as assets/dynoscope.desktop names; a window without it still opens.
    if let Ok(icon) = eframe::icon_data::from_png_bytes(include_bytes!("../assets/dynoscope.png")) {
        viewport = viewport.with_icon(std::sync::Arc::new(icon));
    }
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport,
        ..Default::default()
    };
    let handle = runtime.handle().clone();
    let flags = flags.clone();
    let result = eframe::run_native(
        "dynoscope",
        options,
        Box::new(move |cc| {
            let saved = cc.storage.and_then(|s| s.get_string(eframe::APP_KEY));
            let read: Option<Remembered> = cc
                .storage
                .and_then(|s| eframe::get_value(s, eframe::APP_KEY));
            // Settings that no longer read are kept aside, never overwritten in silence.
            let unreadable = saved.filter(|_| read.is_none());
            let remembered = read.unwrap_or_default();
            // Flags win; otherwise the last connection; otherwise AWS if configured, else sandbox.
            let spec = match (&remembered.connection, flags.any()) {
                (Some(spec), false) => spec.clone(),
                _ => flags.spec(),
            };
            let ctx = cc.egui_ctx.clone();
            let spawner = Spawner::new(handle, move || ctx.request_repaint());
            let app = DynoscopeApp::new(spawner, spec, flags.options(), remembered)
                .with_unreadable(unreadable);
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            dynoscope::cli::say(format_args!("dynoscope: cannot open the window: {e}"));
            dynoscope::cli::Exit::Error.code()
        }
    }
}
